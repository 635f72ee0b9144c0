"""FedCLUP (Algorithms 1 and 2 of Yu, He, Sun, Xue, Li, arXiv 2410.08934) and its three baselines:
LocalTrain, GlobalTrain (= FedAvg, McMahan et al. 2017) and pFedMe (T Dinh, Tran, Nguyen, NeurIPS 2020).

All four solve (or bracket) Problem (2) of FedCLUP with p_i = 1/m,

    min_{w_g, {w_i}}  (1/m) sum_i [ L_i(w_i; S_i) + (lam/2) ||w_g - w_i||^2 ],

on a :class:`~repro.papers.fedclup.problems.stacked_clients.StackedClients` oracle (squared loss, model shape (p,);
softmax loss, model shape (p, C)). Every array of models has a leading client axis; the sampled clients
of a round are updated together by one batched oracle call per inner step. The only Python loops are over
rounds and local steps (sequential by definition), never over clients.

FedCLUP round t (Section 4.2, Appendix B.1 and B.5; ``run_fedclup``):

  sample    S_t: ``sampled_count(m, sample_rate)`` = max(1, floor(r m + 1/2)) clients drawn uniformly
            without replacement, independently every round, from the run's sampling stream (see
            "Randomness"; when that count is m, nothing is drawn and every client takes part);
  broadcast w^g_t;
  clients   i in S_t warm-start w^i_{t,0} = their stored model (w^i_{t-1,K}; w^i_0 at t = 0) and apply (13)
            K times:  w <- w - eta (grad L_i(w) + lam (w - w^g_t)).
            ``batch=None``: the full gradient (Algorithm 1). ``batch=B``: the mini-batch gradient of B rows
            drawn uniformly WITHOUT replacement within the batch, a FRESH batch at every inner step and
            independently across clients (Algorithm 2; when the batch is drawn is a choice the paper leaves
            open -- this project's default, the draw Assumption 4 and Lemma 7 need);
  server    ``server="eq12"``: (12)/(103) with p_i = 1/|S_t| over the sampled set,
                w^g_{t+1} = w^g_t - gamma lam (1/|S_t|) sum_{i in S_t} (w^g_t - w^i_{t,K}),
            evaluated in the algebraically identical form (1 - gamma lam) w^g_t + gamma lam mean_{S_t} w^i_{t,K}
            (the form of the authors' MNIST server), so that gamma lam == 1 gives the plain mean
            bit for bit;
            ``server="average_all"``: w^g_{t+1} = (1/m) sum_{i=1}^m w^i over the stored models of ALL clients,
            sampled or not -- what the authors' synthetic code executes for every method (its
            server step; gamma is then unused, as there). With full participation and gamma = 1/lam the
            two rules coincide (the rule is a choice the paper leaves open; every config names it).

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

Contract: every runner is ``run_<method>(problem, params, rng) -> Trace`` (``problem`` the clients' oracle,
``params`` the method's frozen params dataclass, ``rng`` a ``numpy.random.Generator``). The initial point is part
of the params: ``w_g0`` (the initial global model, also every client's initial model unless ``w_local0``, one
model per client, is given), and FedCLUP's ``record_inner`` asks the trace for the inner warm starts.

Randomness: the run's Generator ``rng`` spawns two children (``rng.spawn(2)``), the first for client
sampling, the second for mini-batch draws, so the sampled sets do not depend on ``batch`` (``batch = n``
reproduces Algorithm 1 with the same clients). A run is determined by the params and the Generator's
seed sequence (``default_rng(seed)`` twice gives identical traces; spawning advances the parent's spawn
counter, so reusing one Generator object for a second run gives fresh streams). Full participation draws
nothing from the sampling stream.

Divergence: a run whose models become non-finite raises :class:`DivergenceError` (a
:class:`~repro.errors.ReproError` and a ``FloatingPointError``) naming the method, the round and the step
sizes; no trace is returned. Overflow warnings inside the run are silenced in favour of that error.

Batches (``run_batch(problem, params, rngs) -> list[Trace]``, the same contract for S runs): S runs of one method
(the type of their params) with the same rounds, local steps, batch size, sample rate and server rule, but their
own data, step sizes, lambda, initial point and Generator, computed together. ``problem`` then holds the S runs'
clients one after the other (S m rows, :meth:`StackedClients.concatenate`), every model array gains a leading
run axis, and each oracle call serves all runs at once. Each run draws from its own Generator exactly as a single
run does, so member r of a batch is the run ``run_<method>`` computes alone with ``params[r]`` and ``rngs[r]``
(``tests/fedclup/test_algorithm.py`` checks this bit for bit). The single-run functions are batches of one.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable, Sequence

import numpy as np

from repro.errors import DivergenceError, is_int, is_real, require

FEDCLUP_SERVERS = ("eq12", "average_all")
GLOBALTRAIN_SERVERS = ("average_sampled", "average_all")


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


def _start(w_g0) -> None:
    """The initial point is given (its shape is checked against the problem when the run starts)."""
    require(w_g0 is not None, "w_g0", w_g0, "the initial global model (an array of the model shape)")


# ----------------------------------------------------------------------------------------- parameters
@dataclass(frozen=True)
class FedCLUPParams:
    """Inputs of Algorithms 1/2 (Appendix B.1, B.5): personalization ``lam``, global step ``gamma``, local step
    ``eta``, ``local_steps`` K, ``rounds`` T, ``batch`` (None: Algorithm 1; B: Algorithm 2), client
    ``sample_rate`` and the ``server`` rule ("eq12" or "average_all"; module docstring).
    ``w_g0`` is the initial global model (model shape), ``w_local0`` None (every client starts from ``w_g0``) or the
    clients' initial models (m, *model shape);
    ``record_inner`` also stores w^i_{t,0} per round (``Trace.inner_start``, for Lemmas 5 and 7)."""

    lam: float
    gamma: float
    eta: float
    local_steps: int
    rounds: int
    batch: int | None = None
    sample_rate: float = 1.0
    server: str = "eq12"
    w_g0: np.ndarray = field(kw_only=True)
    w_local0: np.ndarray | None = field(default=None, kw_only=True)
    record_inner: bool = field(default=False, kw_only=True)

    def __post_init__(self) -> None:
        _positive("lam", self.lam)
        _positive("gamma", self.gamma)
        _positive("eta", self.eta)
        _count("local_steps", self.local_steps, "K, inner steps per round")
        _count("rounds", self.rounds, "T, communication rounds")
        _batch(self.batch)
        _rate(self.sample_rate)
        require(self.server in FEDCLUP_SERVERS, "server", self.server, f"one of {FEDCLUP_SERVERS}")
        require(isinstance(self.record_inner, bool), "record_inner", self.record_inner, "True or False")
        _start(self.w_g0)


@dataclass(frozen=True)
class LocalTrainParams:
    """LocalTrain (3): plain (S)GD with step ``eta``, ``local_steps`` per round, ``rounds`` rounds.
    ``w_g0`` is the common initial model (model shape), ``w_local0`` None (every client starts from ``w_g0``) or the
    clients' initial models (m, *model shape); the trace's global model is the mean of the local models, with
    ``w_g0`` as its index 0."""

    eta: float
    local_steps: int
    rounds: int
    batch: int | None = None
    w_g0: np.ndarray = field(kw_only=True)
    w_local0: np.ndarray | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        _positive("eta", self.eta)
        _count("local_steps", self.local_steps, "K, local steps per round")
        _count("rounds", self.rounds, "T, rounds")
        _batch(self.batch)
        _start(self.w_g0)


@dataclass(frozen=True)
class GlobalTrainParams:
    """GlobalTrain (4) by FedAvg: ``local_steps`` plain (S)GD steps with step ``eta`` from w^g_t per round,
    ``sample_rate``, and the ``server`` rule ("average_sampled" or "average_all").
    ``w_g0`` is the initial global model (model shape), ``w_local0`` None (every client starts from ``w_g0``) or the
    clients' initial models (m, *model shape)."""

    eta: float
    local_steps: int
    rounds: int
    batch: int | None = None
    sample_rate: float = 1.0
    server: str = "average_sampled"
    w_g0: np.ndarray = field(kw_only=True)
    w_local0: np.ndarray | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        _positive("eta", self.eta)
        _count("local_steps", self.local_steps, "K, local steps per round")
        _count("rounds", self.rounds, "T, communication rounds")
        _batch(self.batch)
        _rate(self.sample_rate)
        require(self.server in GLOBALTRAIN_SERVERS, "server", self.server, f"one of {GLOBALTRAIN_SERVERS}")
        _start(self.w_g0)


@dataclass(frozen=True)
class PFedMeParams:
    """pFedMe Algorithm 1 (T Dinh et al. 2020): ``lam`` (their lambda), local step ``eta``, ``personal_lr``
    and ``inner_steps`` (their K) of the approximate inner solve, ``local_rounds`` (their R), server mixing
    ``beta`` (> 0; beta = 1 is plain averaging), ``rounds`` T, ``batch`` (|D|, one batch per local round;
    None: full data) and ``sample_rate`` (their S/N).
    ``w_g0`` is the initial global model (model shape), ``w_local0`` None (every client starts from ``w_g0``) or the
    initial personalized models theta_i (m, *model shape)."""

    lam: float
    eta: float
    personal_lr: float
    inner_steps: int
    local_rounds: int
    rounds: int
    beta: float = 1.0
    batch: int | None = None
    sample_rate: float = 1.0
    w_g0: np.ndarray = field(kw_only=True)
    w_local0: np.ndarray | None = field(default=None, kw_only=True)

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
        _start(self.w_g0)


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


class Selection:
    """The clients of one round of every run of a batch: run r's sampled clients ``idx[r]`` (R, count), as rows
    ``flat`` of the stacked clients, and ``oracle_rows`` (None when every client of every run takes part, so the
    oracle reads its data without a gather)."""

    def __init__(self, idx: np.ndarray, m: int):
        R, count = idx.shape
        self.idx, self.count = idx, count
        self.flat = (np.arange(R)[:, None] * m + idx).ravel()
        self.oracle_rows = None if count == m else self.flat

    def per_run(self, r: int) -> np.ndarray:
        return self.oracle_rows if self.oracle_rows is None else self.flat[r * self.count:(r + 1) * self.count]


def _draw_rows(clients, selection: Selection, batch: int, rngs) -> np.ndarray:
    """Every selected client's batch row indices, run by run from the run's own batch stream."""
    if len(rngs) == 1:
        return clients.sample_rows(rngs[0], batch, clients=selection.oracle_rows)
    return np.concatenate([clients.sample_rows(rng, batch, clients=selection.flat[r * selection.count:
                                                                                   (r + 1) * selection.count])
                           for r, rng in enumerate(rngs)])


def gradient_oracle(clients, selection: Selection, batch: int | None, rngs) -> Callable:
    """W -> the selected clients' gradients: full (``batch=None``) or on a FRESH batch of ``batch`` rows per
    call (without replacement within the batch, independent across clients)."""
    if batch is None:
        chosen = clients if selection.oracle_rows is None else clients.subset(selection.oracle_rows)
        return chosen.gradients                                  # the round's clients' data gathered once
    return lambda W: clients.minibatch_gradients(W, _draw_rows(clients, selection, batch, rngs),
                                                 clients=selection.oracle_rows)


def fixed_batch_oracle(clients, selection: Selection, batch: int | None, rngs) -> Callable:
    """W -> gradients on ONE batch drawn now and reused at every call (pFedMe's D_i of a local round), its rows
    gathered once."""
    if batch is None:
        return lambda W: clients.gradients(W, clients=selection.oracle_rows)
    return clients.subset(selection.oracle_rows, _draw_rows(clients, selection, batch, rngs)).gradients


def gradient_steps(W: np.ndarray, grad: Callable, lr, steps: int, lam=0.0,
                   anchor: np.ndarray | None = None) -> np.ndarray:
    """``steps`` steps of W <- W - lr (grad(W) + lam (W - anchor)) for all rows at once ((13) of FedCLUP
    with lam > 0 and anchor = w^g_t; plain (S)GD with lam = 0; pFedMe's inner solve with anchor = w_i).
    ``lr`` and ``lam`` are numbers or arrays broadcasting against W (one value per row of a batch); ``grad`` returns
    a fresh array, which the step overwrites. The updates are made in place on a copy of W (the caller's array is
    left alone): the same floating-point operations in the same order as the formula, without its model-sized
    temporaries."""
    proximal = np.any(np.asarray(lam) != 0)
    W = np.array(W, dtype=np.float64)
    pull = np.empty_like(W) if proximal else None
    for _ in range(steps):
        g = grad(W)
        if proximal:
            np.subtract(W, anchor, out=pull)
            pull *= lam                                          # lam (W - anchor)
            g += pull
        g *= lr
        W -= g
    return W


def _mix(w_g: np.ndarray, target: np.ndarray, weight) -> np.ndarray:
    """(1 - weight) w_g + weight target; exactly ``target`` where weight == 1."""
    weight = np.asarray(weight)
    if np.all(weight == 1.0):
        return target.copy()
    return (1.0 - weight) * w_g + weight * target


@dataclass(frozen=True)
class _Method:
    """What distinguishes the four runners: the selected clients' round (stored starts (R*count, ...) ->
    (new stored, uploaded)), the server rule (w_g (R, ...), all stored (R, m, ...), uploaded (R, count, ...) ->
    new w_g), the sample rate, the number of gradient steps per client and round, and the step sizes named on
    divergence."""

    name: str
    client_round: Callable
    server: Callable
    sample_rate: float
    steps_per_round: int
    batch: int | None
    step_sizes: Callable


def _per_run(params: Sequence, name: str, ndim: int) -> np.ndarray:
    """The field ``name`` of every run's params, shaped (R, 1, ..., 1) to broadcast over models of ``ndim`` axes."""
    return np.array([getattr(p, name) for p in params], dtype=np.float64).reshape((len(params),) + (1,) * ndim)


def _per_row(values: np.ndarray, count: int) -> np.ndarray:
    """(R, 1, ...) per-run values repeated for the ``count`` selected clients of each run: (R*count, 1, ...)."""
    return np.repeat(values, count, axis=0)


_SHARED = ("rounds", "local_steps", "batch", "sample_rate", "server", "inner_steps", "local_rounds", "record_inner")


def _check_batch(clients, params: Sequence, rngs: Sequence):
    require(len(params) >= 1 and len(rngs) == len(params), "rngs", f"{len(rngs)} generators",
            f"one numpy.random.Generator per run ({len(params)})")
    for rng in rngs:
        require(isinstance(rng, np.random.Generator), "rng", type(rng).__name__, "a numpy.random.Generator")
    for name in _SHARED:
        values = {getattr(p, name, None) for p in params}
        require(len(values) == 1, name, sorted(values, key=repr), "one value for every run of a batch")
    require(clients.m % len(params) == 0, "clients", f"{clients.m} stacked clients",
            f"a multiple of the number of runs ({len(params)}): every run has the same number of clients")
    return len(params), clients.m // len(params)


def _initial_global(w_g0, shape: tuple) -> np.ndarray:
    w_g0 = np.array(w_g0, dtype=np.float64)
    require(w_g0.shape == shape and bool(np.all(np.isfinite(w_g0))), "w_g0", f"shape {w_g0.shape}",
            f"a finite array of the model shape {shape}")
    return w_g0


def _initial_local(w_local0, w_g0: np.ndarray, m: int) -> np.ndarray:
    shape = w_g0.shape
    if w_local0 is None:
        return np.broadcast_to(w_g0, (m,) + shape)
    w_local0 = np.array(w_local0, dtype=np.float64)
    require(w_local0.shape == (m,) + shape and bool(np.all(np.isfinite(w_local0))), "w_local0",
            f"shape {w_local0.shape}", f"None or a finite array of shape {(m,) + shape} (one model per client)")
    return w_local0


def _check_models(clients, params, m: int):
    """Every run's initial global model (R, *shape) and local models (R, m, *shape), from its params."""
    shape = tuple(clients.shape)
    require(params[0].batch is None or params[0].batch <= clients.n, "batch", params[0].batch,
            f"None or an integer in 1..n = {clients.n} (the rows per client)")
    w_g0 = np.stack([_initial_global(p.w_g0, shape) for p in params])
    w_local0 = np.stack([_initial_local(p.w_local0, w_g0[r], m) for r, p in enumerate(params)])
    return w_g0, np.ascontiguousarray(w_local0)


def _run(clients, params: Sequence, rngs: Sequence, method: _Method) -> list[Trace]:
    """The round loop shared by all runners and batch sizes: sample, client round, store, server, record, check."""
    R, m = _check_batch(clients, params, rngs)
    w_g, local = _check_models(clients, params, m)
    record_inner = getattr(params[0], "record_inner", False)
    T, shape = params[0].rounds, tuple(clients.shape)
    count = sampled_count(m, method.sample_rate)
    global_models = np.empty((T + 1, R) + shape)
    local_models = np.empty((T + 1, R, m) + shape)
    sampled = np.zeros((T, R, m), dtype=bool)
    per_client = method.steps_per_round * (clients.n if method.batch is None else method.batch)
    inner_start = np.full((T, R, m) + shape, np.nan) if record_inner else None
    global_models[0], local_models[0] = w_g, local
    streams = [rng.spawn(2) for rng in rngs]                # per run: (sampling, batch) streams (module docstring)
    sampling_rngs, batch_rngs = [s[0] for s in streams], [s[1] for s in streams]
    flat_local = local.reshape((R * m,) + shape)            # a view: writes go to ``local``
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for t in range(T):
            selection = Selection(np.stack([sample_clients(g, m, count) for g in sampling_rngs]), m)
            np.put_along_axis(sampled[t], selection.idx, True, axis=1)
            if inner_start is not None:
                inner_start[t].reshape((R * m,) + shape)[selection.flat] = flat_local[selection.flat]
            stored, upload = method.client_round(w_g, flat_local[selection.flat], selection, batch_rngs)
            flat_local[selection.flat] = stored
            w_g = method.server(w_g, local, upload.reshape((R, count) + shape))
            _check_finite(method, params, t, T, w_g, stored, upload, R)
            global_models[t + 1], local_models[t + 1] = w_g, local
    grad_evals = np.full(T, per_client * count, dtype=np.int64)
    return [Trace(method=method.name, params=asdict(p), global_models=global_models[:, r].copy(),
                  local_models=local_models[:, r].copy(), sampled=sampled[:, r].copy(), grad_evals=grad_evals.copy(),
                  inner_start=None if inner_start is None else inner_start[:, r].copy())
            for r, p in enumerate(params)]


def _check_finite(method: _Method, params, t: int, T: int, w_g, stored, upload, R: int) -> None:
    bad = ~np.isfinite(w_g.reshape(R, -1)).all(axis=1)
    bad |= ~np.isfinite(stored.reshape(R, -1)).all(axis=1)
    bad |= ~np.isfinite(upload.reshape(R, -1)).all(axis=1)
    if bad.any():
        r = int(np.flatnonzero(bad)[0])
        which = f" (run {r} of a batch of {R})" if R > 1 else ""
        raise DivergenceError(
            f"{method.name} diverged in round {t} of {T}{which} (a model became non-finite) with "
            f"{method.step_sizes(params[r])}; reduce the step sizes (e.g. eta <= 1/(L + lam) for the local steps)")


# ----------------------------------------------------------------------------------------- runners
def _fedclup(params: Sequence[FedCLUPParams], clients, ndim: int) -> _Method:
    p0 = params[0]
    eta, lam, gamma = (_per_run(params, name, ndim) for name in ("eta", "lam", "gamma"))

    def client_round(w_g, start, selection, rngs):
        rows = selection.count
        anchor = np.repeat(w_g, rows, axis=0)
        W = gradient_steps(start, gradient_oracle(clients, selection, p0.batch, rngs), _per_row(eta, rows),
                           p0.local_steps, lam=_per_row(lam, rows), anchor=anchor)             # (13), K times
        return W, W

    if p0.server == "eq12":
        def server(w_g, local, upload):                                            # (12) with p_i = 1/|S|
            return _mix(w_g, upload.mean(axis=1), gamma * lam)
    else:
        def server(w_g, local, upload):                                            # authors' code
            return local.mean(axis=1)

    return _Method("fedclup", client_round, server, p0.sample_rate, p0.local_steps, p0.batch,
                   lambda p: f"eta={p.eta!r}, gamma={p.gamma!r}, lam={p.lam!r}")


def _local_train(params: Sequence[LocalTrainParams], clients, ndim: int) -> _Method:
    p0 = params[0]
    eta = _per_run(params, "eta", ndim)

    def client_round(w_g, start, selection, rngs):
        W = gradient_steps(start, gradient_oracle(clients, selection, p0.batch, rngs), _per_row(eta, selection.count),
                           p0.local_steps)
        return W, W

    def server(w_g, local, upload):                                                # evaluation only
        return local.mean(axis=1)

    return _Method("localtrain", client_round, server, 1.0, p0.local_steps, p0.batch, lambda p: f"eta={p.eta!r}")


def _global_train(params: Sequence[GlobalTrainParams], clients, ndim: int) -> _Method:
    p0 = params[0]
    eta = _per_run(params, "eta", ndim)

    def client_round(w_g, start, selection, rngs):
        W0 = np.repeat(w_g, selection.count, axis=0)
        W = gradient_steps(W0, gradient_oracle(clients, selection, p0.batch, rngs), _per_row(eta, selection.count),
                           p0.local_steps)
        return W, W

    if p0.server == "average_sampled":
        def server(w_g, local, upload):
            return upload.mean(axis=1)
    else:
        def server(w_g, local, upload):
            return local.mean(axis=1)

    return _Method("globaltrain", client_round, server, p0.sample_rate, p0.local_steps, p0.batch,
                   lambda p: f"eta={p.eta!r}")


def _pfedme(params: Sequence[PFedMeParams], clients, ndim: int) -> _Method:
    p0 = params[0]
    eta, lam, personal_lr, beta = (_per_run(params, name, ndim) for name in ("eta", "lam", "personal_lr", "beta"))

    def client_round(w_g, start, selection, rngs):
        rows = selection.count
        lam_rows, lr_rows = _per_row(lam, rows), _per_row(personal_lr, rows)
        eta_lam = _per_row(eta, rows) * lam_rows                     # of the local update
        W = np.repeat(w_g, rows, axis=0)                             # w_{i,0} = w^g_t
        theta, move = W.copy(), np.empty_like(W)                     # inner solve starts at w^g_t
        for _ in range(p0.local_rounds):
            grad = fixed_batch_oracle(clients, selection, p0.batch, rngs)      # one D_i per local round
            theta = gradient_steps(theta, grad, lr_rows, p0.inner_steps, lam=lam_rows, anchor=W)
            np.subtract(W, theta, out=move)
            move *= eta_lam
            W -= move                                                # local update W - eta lam (W - theta)
        return theta, W

    def server(w_g, local, upload):
        return _mix(w_g, upload.mean(axis=1), beta)

    return _Method("pfedme", client_round, server, p0.sample_rate, p0.local_rounds * p0.inner_steps, p0.batch,
                   lambda p: f"eta={p.eta!r}, personal_lr={p.personal_lr!r}, lam={p.lam!r}, beta={p.beta!r}")


METHODS = {FedCLUPParams: _fedclup, LocalTrainParams: _local_train, GlobalTrainParams: _global_train,
           PFedMeParams: _pfedme}


def _require_kind(params, kind: type) -> None:
    require(isinstance(params, kind), "params", type(params).__name__, f"a {kind.__name__}")


def run_batch(problem, params: Sequence, rngs: Sequence[np.random.Generator]) -> list[Trace]:
    """S runs of one method computed together (module docstring, "Batches"): ``problem`` stacks the runs' clients,
    ``params[r]`` (the method's params, all of one type, with run r's initial point) and ``rngs[r]`` are run r's.
    One Trace per run."""
    params = list(params)
    require(len(params) >= 1 and type(params[0]) in METHODS, "params", [type(p).__name__ for p in params],
            "one params per run, all FedCLUPParams, LocalTrainParams, GlobalTrainParams or PFedMeParams")
    for p in params:
        _require_kind(p, type(params[0]))
    ndim = len(tuple(problem.shape))
    return _run(problem, params, list(rngs), METHODS[type(params[0])](params, problem, ndim))


def run_fedclup(problem, params: FedCLUPParams, rng: np.random.Generator) -> Trace:
    """FedCLUP, Algorithm 1 (``batch=None``) or Algorithm 2 (mini-batches), from w^g_0 = ``params.w_g0`` and local
    models ``params.w_local0`` (default: copies of w_g0, as the authors' code). Updates (13) and (12); see the
    module docstring. ``params.record_inner`` also stores w^i_{t,0} per round (for Lemmas 5 and 7)."""
    _require_kind(params, FedCLUPParams)
    return run_batch(problem, [params], [rng])[0]


def run_local_train(problem, params: LocalTrainParams, rng: np.random.Generator) -> Trace:
    """LocalTrain (3): every client runs plain (S)GD on its own L_i (module docstring). ``params.w_g0`` is the
    common initial model (local models default to copies of it); the trace's global model is the local mean."""
    _require_kind(params, LocalTrainParams)
    return run_batch(problem, [params], [rng])[0]


def run_global_train(problem, params: GlobalTrainParams, rng: np.random.Generator) -> Trace:
    """GlobalTrain (4) by FedAvg (McMahan et al. 2017): the sampled clients restart from w^g_t every round,
    take K plain (S)GD steps, and the server averages (``server`` rule; module docstring)."""
    _require_kind(params, GlobalTrainParams)
    return run_batch(problem, [params], [rng])[0]


def run_pfedme(problem, params: PFedMeParams, rng: np.random.Generator) -> Trace:
    """pFedMe, Algorithm 1 of T Dinh, Tran, Nguyen (NeurIPS 2020), module docstring. ``params.w_local0``: the
    initial personalized models (default: copies of w_g0). Stored local models are the personalized theta_i."""
    _require_kind(params, PFedMeParams)
    return run_batch(problem, [params], [rng])[0]
