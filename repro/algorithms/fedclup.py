"""FedCLUP (Algorithms 1 and 2 of Yu, He, Sun, Xue, Li, arXiv 2410.08934) and its three baselines:
LocalTrain, GlobalTrain (= FedAvg, McMahan et al. 2017) and pFedMe (T Dinh, Tran, Nguyen, NeurIPS 2020).

All four solve (or bracket) Problem (2) of FedCLUP with p_i = 1/m,

    min_{w_g, {w_i}}  (1/m) sum_i [ L_i(w_i; S_i) + (lam/2) ||w_g - w_i||^2 ],

on a :class:`~repro.problems.stacked_clients.StackedClients` oracle (squared loss, model shape (p,);
softmax loss, model shape (p, C)). Every array of models has a leading client axis; the sampled clients
of a round are updated together by one batched oracle call per inner step. The only Python loops are over
rounds and local steps (sequential by definition), never over clients.

FedCLUP round t (spec 5.3; ``run_fedclup``):

  sample    S_t: ``sampled_count(m, sample_rate)`` = max(1, floor(r m + 1/2)) clients drawn uniformly
            without replacement, independently every round, from the run's sampling stream (see
            "Randomness"; when that count is m, nothing is drawn and every client takes part);
  broadcast w^g_t;
  clients   i in S_t warm-start w^i_{t,0} = their stored model (w^i_{t-1,K}; w^i_0 at t = 0) and apply (13)
            K times:  w <- w - eta (grad L_i(w) + lam (w - w^g_t)).
            ``batch=None``: the full gradient (Algorithm 1). ``batch=B``: the mini-batch gradient of B rows
            drawn uniformly WITHOUT replacement within the batch, a FRESH batch at every inner step and
            independently across clients (Algorithm 2; spec 10 item 14: this is the draw Assumption 4 and
            Lemma 7 need);
  server    ``server="eq12"``: (12)/(103) with p_i = 1/|S_t| over the sampled set,
                w^g_{t+1} = w^g_t - gamma lam (1/|S_t|) sum_{i in S_t} (w^g_t - w^i_{t,K}),
            evaluated in the algebraically identical form (1 - gamma lam) w^g_t + gamma lam mean_{S_t} w^i_{t,K}
            (the form of the authors' MNIST server, spec 9.5), so that gamma lam == 1 gives the plain mean
            bit for bit;
            ``server="average_all"``: w^g_{t+1} = (1/m) sum_{i=1}^m w^i over the stored models of ALL clients,
            sampled or not -- what the authors' synthetic code executes for every method (spec 9.2
            "Server step"; gamma is then unused, as there). With full participation and gamma = 1/lam the
            two rules coincide (spec 10 items 2-3, 16).

LocalTrain (``run_local_train``): every client, every round, K plain (S)GD steps on its own L_i, no
proximal term, no communication; models persist. The trace's global model is the mean of the local
models (evaluation only, as in the authors' code); w_g0 is kept as global_models[0].

GlobalTrain = FedAvg (``run_global_train``): the sampled clients are reset to w^g_t, take K plain (S)GD
steps and upload; ``server="average_sampled"`` (FedAvg's rule: the mean of the sampled clients' models) or
``"average_all"`` (the authors' code: the mean of all m stored models, non-sampled ones stale).

pFedMe (``run_pfedme``), Algorithm 1 of T Dinh, Tran, Nguyen, "Personalized Federated Learning with Moreau
Envelopes", NeurIPS 2020: each sampled client sets w_i = w^g_t and for r = 1..R (``local_rounds``)
  draws one mini-batch D_i (the full data when ``batch=None``), approximately solves
      theta_i ~ argmin_theta f_i(theta; D_i) + (lam/2) ||theta - w_i||^2
  by ``inner_steps`` GD steps with step ``personal_lr`` on that same batch (theta starts at w^g_t at the
  start of the round and is warm-started across the R local rounds, as pFedMe's reference implementation
  does; the paper only asks for an approximate solution), then w_i <- w_i - eta lam (w_i - theta_i);
the server sets w^g_{t+1} = (1 - beta) w^g_t + beta (1/|S_t|) sum_{i in S_t} w_i. The personalized models
theta_i are what the trace stores as local models (non-sampled clients keep their previous theta). pFedMe's
Algorithm 1 lets every client compute and the server then samples S_t; only the sampled clients' results
are used, so computing only those is the same algorithm for w^g (the unsampled clients' theta_i are simply
not refreshed here).

Randomness: the run's Generator ``rng`` spawns two children (``rng.spawn(2)``), the first for client
sampling, the second for mini-batch draws, so the sampled sets do not depend on ``batch`` (``batch = n``
reproduces Algorithm 1 with the same clients). A run is determined by the params and the Generator's
seed sequence (``default_rng(seed)`` twice gives identical traces; spawning advances the parent's spawn
counter, so reusing one Generator object for a second run gives fresh streams). Full participation draws
nothing from the sampling stream.

Divergence: a run whose models become non-finite raises :class:`DivergenceError` (a
:class:`~repro.errors.ReproError` and a ``FloatingPointError``) naming the method, the round and the step
sizes; no trace is returned. Overflow warnings inside the run are silenced in favour of that error.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable

import numpy as np

from ..errors import ReproError, is_int, is_real, require

FEDCLUP_SERVERS = ("eq12", "average_all")
GLOBALTRAIN_SERVERS = ("average_sampled", "average_all")


class DivergenceError(ReproError, FloatingPointError):
    """A model became non-finite: the step sizes are too large for the problem's smoothness."""


# ----------------------------------------------------------------------------------------- validation
def _positive(name: str, value) -> None:
    require(is_real(value) and value > 0, name, value, "a finite number > 0")


def _count(name: str, value, meaning: str) -> None:
    require(is_int(value) and value >= 1, name, value, f"an integer >= 1 ({meaning})")


def _batch(value) -> None:
    require(value is None or (is_int(value) and value >= 1), "batch", value,
            "None (full gradients) or an integer >= 1 (mini-batch size, at most n)")


def _rate(value) -> None:
    require(is_real(value) and 0 < value <= 1, "sample_rate", value, "a number in (0, 1]")


# ----------------------------------------------------------------------------------------- parameters
@dataclass(frozen=True)
class FedCLUPParams:
    """Inputs of Algorithms 1/2 (spec 5.3): personalization ``lam``, global step ``gamma``, local step
    ``eta``, ``local_steps`` K, ``rounds`` T, ``batch`` (None: Algorithm 1; B: Algorithm 2), client
    ``sample_rate`` and the ``server`` rule ("eq12" or "average_all"; module docstring)."""

    lam: float
    gamma: float
    eta: float
    local_steps: int
    rounds: int
    batch: int | None = None
    sample_rate: float = 1.0
    server: str = "eq12"

    def __post_init__(self) -> None:
        _positive("lam", self.lam)
        _positive("gamma", self.gamma)
        _positive("eta", self.eta)
        _count("local_steps", self.local_steps, "K, inner steps per round")
        _count("rounds", self.rounds, "T, communication rounds")
        _batch(self.batch)
        _rate(self.sample_rate)
        require(self.server in FEDCLUP_SERVERS, "server", self.server, f"one of {FEDCLUP_SERVERS}")


@dataclass(frozen=True)
class LocalTrainParams:
    """LocalTrain (3): plain (S)GD with step ``eta``, ``local_steps`` per round, ``rounds`` rounds."""

    eta: float
    local_steps: int
    rounds: int
    batch: int | None = None

    def __post_init__(self) -> None:
        _positive("eta", self.eta)
        _count("local_steps", self.local_steps, "K, local steps per round")
        _count("rounds", self.rounds, "T, rounds")
        _batch(self.batch)


@dataclass(frozen=True)
class GlobalTrainParams:
    """GlobalTrain (4) by FedAvg: ``local_steps`` plain (S)GD steps with step ``eta`` from w^g_t per round,
    ``sample_rate``, and the ``server`` rule ("average_sampled" or "average_all")."""

    eta: float
    local_steps: int
    rounds: int
    batch: int | None = None
    sample_rate: float = 1.0
    server: str = "average_sampled"

    def __post_init__(self) -> None:
        _positive("eta", self.eta)
        _count("local_steps", self.local_steps, "K, local steps per round")
        _count("rounds", self.rounds, "T, communication rounds")
        _batch(self.batch)
        _rate(self.sample_rate)
        require(self.server in GLOBALTRAIN_SERVERS, "server", self.server, f"one of {GLOBALTRAIN_SERVERS}")


@dataclass(frozen=True)
class PFedMeParams:
    """pFedMe Algorithm 1 (T Dinh et al. 2020): ``lam`` (their lambda), local step ``eta``, ``personal_lr``
    and ``inner_steps`` (their K) of the approximate inner solve, ``local_rounds`` (their R), server mixing
    ``beta`` (> 0; beta = 1 is plain averaging), ``rounds`` T, ``batch`` (|D|, one batch per local round;
    None: full data) and ``sample_rate`` (their S/N)."""

    lam: float
    eta: float
    personal_lr: float
    inner_steps: int
    local_rounds: int
    rounds: int
    beta: float = 1.0
    batch: int | None = None
    sample_rate: float = 1.0

    def __post_init__(self) -> None:
        _positive("lam", self.lam)
        _positive("eta", self.eta)
        _positive("personal_lr", self.personal_lr)
        _count("inner_steps", self.inner_steps, "GD steps of the inner solve")
        _count("local_rounds", self.local_rounds, "R, local rounds per communication round")
        _count("rounds", self.rounds, "T, communication rounds")
        _positive("beta", self.beta)
        _batch(self.batch)
        _rate(self.sample_rate)


# ----------------------------------------------------------------------------------------- trace
@dataclass
class Trace:
    """One run. ``global_models`` (T+1, *shape): w^g_0..w^g_T. ``local_models`` (T+1, m, *shape): index 0
    the initial local models, index t+1 the stored models after round t (FedCLUP/LocalTrain/GlobalTrain:
    the clients' models, w^i_{t,K} for sampled clients, unchanged for the others; pFedMe: the personalized
    models theta_i). ``sampled`` (T, m) bool. ``grad_evals`` (T,): per-sample gradient evaluations of the
    round, steps x (batch or n) x |S_t|. ``inner_start`` (T, m, *shape) or None: the stored models entering
    round t (= w^i_{t,0} for FedCLUP's sampled clients; NaN for the others), with ``record_inner=True``."""

    method: str
    params: dict
    global_models: np.ndarray
    local_models: np.ndarray
    sampled: np.ndarray
    grad_evals: np.ndarray
    inner_start: np.ndarray | None = None


# ----------------------------------------------------------------------------------------- shared pieces
def sampled_count(m: int, sample_rate: float) -> int:
    """|S_t| = max(1, round(r m)), rounding half up."""
    return max(1, min(m, int(np.floor(sample_rate * m + 0.5))))


def sample_clients(rng: np.random.Generator, m: int, count: int) -> np.ndarray:
    """``count`` client indices drawn uniformly without replacement, sorted; all clients (no draw) when
    ``count == m``."""
    if count >= m:
        return np.arange(m)
    return np.sort(rng.choice(m, size=count, replace=False))


def gradient_oracle(clients, S: np.ndarray, batch: int | None, rng: np.random.Generator) -> Callable:
    """W -> the sampled clients' gradients: full (``batch=None``) or on a FRESH batch of ``batch`` rows per
    call (without replacement within the batch, independent across clients)."""
    if batch is None:
        return lambda W: clients.gradients(W, clients=S)
    return lambda W: clients.minibatch_gradients(W, clients.sample_rows(rng, batch, clients=S), clients=S)


def fixed_batch_oracle(clients, S: np.ndarray, batch: int | None, rng: np.random.Generator) -> Callable:
    """W -> gradients on ONE batch drawn now and reused at every call (pFedMe's D_i of a local round)."""
    if batch is None:
        return lambda W: clients.gradients(W, clients=S)
    rows = clients.sample_rows(rng, batch, clients=S)
    return lambda W: clients.minibatch_gradients(W, rows, clients=S)


def gradient_steps(W: np.ndarray, grad: Callable, lr: float, steps: int, lam: float = 0.0,
                   anchor: np.ndarray | None = None) -> np.ndarray:
    """``steps`` steps of W <- W - lr (grad(W) + lam (W - anchor)) for all rows at once ((13) of FedCLUP
    with lam > 0 and anchor = w^g_t; plain (S)GD with lam = 0; pFedMe's inner solve with anchor = w_i)."""
    for _ in range(steps):
        g = grad(W)
        if lam:
            g = g + lam * (W - anchor)
        W = W - lr * g
    return W


def _mix(w_g: np.ndarray, target: np.ndarray, weight: float) -> np.ndarray:
    """(1 - weight) w_g + weight target; exactly ``target`` when weight == 1."""
    return target.copy() if weight == 1.0 else (1.0 - weight) * w_g + weight * target


@dataclass(frozen=True)
class _Method:
    """What distinguishes the four runners: the sampled clients' round (stored start -> (new stored,
    uploaded)), the server rule (w_g, all stored after the round, uploaded -> new w_g), the sample rate,
    the number of gradient steps per client and round, and the step sizes named on divergence."""

    name: str
    client_round: Callable
    server: Callable
    sample_rate: float
    steps_per_round: int
    batch: int | None
    step_sizes: str


def _check_inputs(clients, params, rng, w_g0, w_local0):
    require(isinstance(rng, np.random.Generator), "rng", type(rng).__name__, "a numpy.random.Generator")
    shape, m = tuple(clients.shape), clients.m
    require(params.batch is None or params.batch <= clients.n, "batch", params.batch,
            f"None or an integer in 1..n = {clients.n} (the rows per client)")
    w_g0 = np.array(w_g0, dtype=np.float64)
    require(w_g0.shape == shape and bool(np.all(np.isfinite(w_g0))), "w_g0", f"shape {w_g0.shape}",
            f"a finite array of the model shape {shape}")
    if w_local0 is None:
        w_local0 = np.broadcast_to(w_g0, (m,) + shape)
    w_local0 = np.array(w_local0, dtype=np.float64)
    require(w_local0.shape == (m,) + shape and bool(np.all(np.isfinite(w_local0))), "w_local0",
            f"shape {w_local0.shape}", f"None or a finite array of shape {(m,) + shape} (one model per client)")
    return w_g0, w_local0


def _run(clients, params, rng, w_g0, w_local0, method: _Method, record_inner: bool = False) -> Trace:
    """The round loop shared by all runners: sample, client round, store, server, record, check."""
    w_g, local = _check_inputs(clients, params, rng, w_g0, w_local0)
    T, m, shape = params.rounds, clients.m, tuple(clients.shape)
    count = sampled_count(m, method.sample_rate)
    global_models = np.empty((T + 1,) + shape)
    local_models = np.empty((T + 1, m) + shape)
    sampled = np.zeros((T, m), dtype=bool)
    per_client = method.steps_per_round * (clients.n if method.batch is None else method.batch)
    grad_evals = np.full(T, per_client * count, dtype=np.int64)
    inner_start = np.full((T, m) + shape, np.nan) if record_inner else None
    global_models[0], local_models[0] = w_g, local
    sampling_rng, batch_rng = rng.spawn(2)          # one stream per purpose (module docstring)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for t in range(T):
            S = sample_clients(sampling_rng, m, count)
            sampled[t, S] = True
            if inner_start is not None:
                inner_start[t, S] = local[S]
            stored, upload = method.client_round(w_g, local[S], S, batch_rng)
            local[S] = stored
            w_g = method.server(w_g, local, upload)
            if not (np.all(np.isfinite(w_g)) and np.all(np.isfinite(stored)) and np.all(np.isfinite(upload))):
                raise DivergenceError(
                    f"{method.name} diverged in round {t} of {T} (a model became non-finite) with "
                    f"{method.step_sizes}; reduce the step sizes (e.g. eta <= 1/(L + lam) for the local steps)")
            global_models[t + 1], local_models[t + 1] = w_g, local
    return Trace(method=method.name, params=asdict(params), global_models=global_models,
                 local_models=local_models, sampled=sampled, grad_evals=grad_evals, inner_start=inner_start)


# ----------------------------------------------------------------------------------------- runners
def run_fedclup(clients, params: FedCLUPParams, rng: np.random.Generator, w_g0: np.ndarray,
                w_local0: np.ndarray | None = None, *, record_inner: bool = False) -> Trace:
    """FedCLUP, Algorithm 1 (``batch=None``) or Algorithm 2 (mini-batches), from w^g_0 = ``w_g0`` and local
    models ``w_local0`` (default: copies of w_g0, as the authors' code). Updates (13) and (12); see the module
    docstring. ``record_inner`` also stores w^i_{t,0} per round (for Lemmas 5 and 7)."""
    p = params

    def client_round(w_g, start, S, rng):
        W = gradient_steps(start, gradient_oracle(clients, S, p.batch, rng), p.eta, p.local_steps,
                           lam=p.lam, anchor=w_g)                                   # (13), K times
        return W, W

    if p.server == "eq12":
        def server(w_g, local, upload):                                            # (12) with p_i = 1/|S|
            return _mix(w_g, upload.mean(axis=0), p.gamma * p.lam)
    else:
        def server(w_g, local, upload):                                            # authors' code
            return local.mean(axis=0)

    method = _Method("fedclup", client_round, server, p.sample_rate, p.local_steps, p.batch,
                     f"eta={p.eta!r}, gamma={p.gamma!r}, lam={p.lam!r}")
    return _run(clients, p, rng, w_g0, w_local0, method, record_inner)


def run_local_train(clients, params: LocalTrainParams, rng: np.random.Generator, w0: np.ndarray,
                    w_local0: np.ndarray | None = None) -> Trace:
    """LocalTrain (3): every client runs plain (S)GD on its own L_i (module docstring). ``w0`` is the common
    initial model (local models default to copies of it); the trace's global model is the local mean."""
    p = params

    def client_round(w_g, start, S, rng):
        W = gradient_steps(start, gradient_oracle(clients, S, p.batch, rng), p.eta, p.local_steps)
        return W, W

    def server(w_g, local, upload):                                                # evaluation only
        return local.mean(axis=0)

    method = _Method("localtrain", client_round, server, 1.0, p.local_steps, p.batch, f"eta={p.eta!r}")
    return _run(clients, p, rng, w0, w_local0, method)


def run_global_train(clients, params: GlobalTrainParams, rng: np.random.Generator, w_g0: np.ndarray,
                     w_local0: np.ndarray | None = None) -> Trace:
    """GlobalTrain (4) by FedAvg (McMahan et al. 2017): the sampled clients restart from w^g_t every round,
    take K plain (S)GD steps, and the server averages (``server`` rule; module docstring)."""
    p = params

    def client_round(w_g, start, S, rng):
        W0 = np.broadcast_to(w_g, start.shape)
        W = gradient_steps(W0, gradient_oracle(clients, S, p.batch, rng), p.eta, p.local_steps)
        return W, W

    if p.server == "average_sampled":
        def server(w_g, local, upload):
            return upload.mean(axis=0)
    else:
        def server(w_g, local, upload):
            return local.mean(axis=0)

    method = _Method("globaltrain", client_round, server, p.sample_rate, p.local_steps, p.batch,
                     f"eta={p.eta!r}")
    return _run(clients, p, rng, w_g0, w_local0, method)


def run_pfedme(clients, params: PFedMeParams, rng: np.random.Generator, w_g0: np.ndarray,
               w_local0: np.ndarray | None = None) -> Trace:
    """pFedMe, Algorithm 1 of T Dinh, Tran, Nguyen (NeurIPS 2020), module docstring. ``w_local0``: the
    initial personalized models (default: copies of w_g0). Stored local models are the personalized theta_i."""
    p = params

    def client_round(w_g, start, S, rng):
        W = np.broadcast_to(w_g, start.shape).copy()                 # w_{i,0} = w^g_t
        theta = W.copy()                                             # inner solve starts at w^g_t
        for _ in range(p.local_rounds):
            grad = fixed_batch_oracle(clients, S, p.batch, rng)      # one D_i per local round
            theta = gradient_steps(theta, grad, p.personal_lr, p.inner_steps, lam=p.lam, anchor=W)
            W = W - p.eta * p.lam * (W - theta)                      # local update
        return theta, W

    def server(w_g, local, upload):
        return _mix(w_g, upload.mean(axis=0), p.beta)

    method = _Method("pfedme", client_round, server, p.sample_rate, p.local_rounds * p.inner_steps, p.batch,
                     f"eta={p.eta!r}, personal_lr={p.personal_lr!r}, lam={p.lam!r}, beta={p.beta!r}")
    return _run(clients, p, rng, w_g0, w_local0, method)
