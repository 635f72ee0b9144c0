"""Penalized-FedAvg, Penalized-FedProx and Penalized-SCAFFOLD, the baselines of PC-FedAvg's Section 5.

Each is applied to the penalized single-model problem of Section 5,

    min_W (1/m) sum_i [ f_i(W) + (rho/2) dist(W, X_i)^2 ],

whose agent-i gradient is grad f_i(W) + rho (W - Pi_{X_i}[W]). The paper cites the three methods without
spelling them out; this project implements them as their own papers do (FedAvg: McMahan et al. 2017;
FedProx: Li et al. 2020; SCAFFOLD: Karimireddy et al. 2020), with
g_i(W) = (minibatch gradient of f_i at W) + rho_r (W - Pi_{X_i}[W]) the penalized minibatch gradient of
round r:

* **fedavg**: every participating agent starts from W_r and takes ``local_steps`` steps
  W <- W - eta g_i(W); the server sets W_{r+1} = W_r + eta_g * mean_{i in S_r}(W_i - W_r), i.e. the
  average of the local models for eta_g = ``global_lr`` = 1 (this project's default).
* **fedprox**: as fedavg with the local gradient augmented by mu (W - W_r) (gradient of
  (mu/2)||W - W_r||^2); the local solver is ``local_steps`` minibatch SGD steps (a choice the paper leaves
  open; this project's default).
* **scaffold** (Karimireddy et al. 2020, option II): server state (W_r, c), agent states c_i, all
  zero initially. Each i in S_r: Y <- W_r; ``local_steps`` steps Y <- Y - eta_l (g_i(Y) - c_i + c);
  c_i^+ = c_i - c + (W_r - Y) / (local_steps * eta_l); Delta Y_i = Y - W_r, Delta c_i = c_i^+ - c_i;
  c_i <- c_i^+. Server: W_{r+1} = W_r + (eta_g/|S_r|) sum Delta Y_i, c <- c + (1/m) sum Delta c_i.

Assumptions and choices (the paper leaves them open unless said otherwise; each named):

* S_r: all m agents when ``participating`` is None or m (no random draw is made then); otherwise
  ``participating`` distinct agents drawn uniformly without replacement with
  ``rng.choice(m, k, replace=False)`` at the start of round r, stored sorted (Section 5: SCAFFOLD 2 of
  4; FedAvg/FedProx: all 4, this project's default). Partial participation is allowed for every method
  (the aggregate is over S_r), though Section 5 uses it for SCAFFOLD only.
* SCAFFOLD's g_i uses the same minibatch gradients (same batch fraction, fresh batch every local
  step) and the same penalty rho_r as the other methods; its c_i update uses
  1/(local_steps * eta_l) (option II); the global c is averaged with 1/m (not 1/|S_r|), as in the
  paper of Karimireddy et al.
* ``rho`` holds one penalty per round r = 0..R-1, used for every local step of that round (the
  baselines' rho is a choice the paper leaves open; this project's default is PC-FedAvg's
  rho_r = (r + 10000)^{1/4} of Section 5, see :func:`penalty_schedule`). rho = 0 gives the unpenalized
  method (no projection is computed).
* ``global_lr`` eta_g is applied to all three methods (Section 5 states 1 for SCAFFOLD; this project's default
  is 1 for all three).
* Randomness: one Generator ``rng``; per round, first the participant draw (if any), then per local
  step one :meth:`stochastic_gradients` call for all participants together. With the same seed,
  FedProx with mu = 0 therefore reproduces FedAvg exactly.
* Initialization (Section 5: "from a feasible point"; which one, the paper leaves open): ``params.w0`` is given
  by the caller (this project's default in the experiments: the zero model, feasible for every l1 ball);
  SCAFFOLD's control variates start at zero.

Entry: ``run(problem, params, rng) -> PenalizedTrace`` with ``problem`` a :class:`PenalizedProblem` (the
agents' losses and sets X_i) and the start and evaluation callbacks fields of :class:`PenalizedParams`.

Vectorisation: the participating agents' local models form one (k, n) array advanced together;
the only Python loops are over rounds and local steps. The losses' ``stochastic_gradients`` is
called with ``agents=S_r`` when they accept it (``SoftmaxClients`` does), else with a full
(m, n) array whose non-participating rows are discarded.

Recorded per round (this project's choice): ``params.evaluate(V, r)`` with V the global model W_r
broadcast to all m agents, at r = 0 and after every aggregation (r = 1..R); ``global_dist``
(R+1, m) = dist(W_r, X_i); for the local models before aggregation, ``local_dist`` (R, m) =
dist(W_i, X_i) and ``local_drift`` (R, m) = ||W_i - W_r|| (NaN for agents not in S_r), and
``params.evaluate_local(Y, agents, r)`` if given.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from repro.errors import ConfigError, DivergenceError, is_int, is_real, require

__all__ = ["METHODS", "PenalizedParams", "PenalizedProblem", "PenalizedTrace", "paper_params",
           "penalized_gradients", "penalty_gradients", "penalty_schedule", "run"]

METHODS = ("fedavg", "fedprox", "scaffold")


def penalty_schedule(rounds: int, offset: float = 10_000.0, power: float = 0.25) -> tuple:
    """rho_r = (r + offset)^power for r = 0..rounds-1 (Section 5: (r + 10000)^{1/4}, at round r)."""
    require(is_int(rounds) and rounds >= 1, "rounds", rounds, "an integer >= 1")
    return tuple(float((r + offset) ** power) for r in range(rounds))


@dataclass(frozen=True, eq=False)
class PenalizedProblem:
    """The instance a baseline runs on: the agents' losses ``local`` (``m``, ``n``, ``stochastic_gradients``,
    optionally with an ``agents`` argument) and the constraint sets ``sets`` (a ProductSet of ``m`` sets of
    dim ``n``), whose penalty (rho/2) dist(W, X_i)^2 the baselines add."""

    local: object
    sets: object

    def __post_init__(self) -> None:
        m, n = int(self.local.m), int(self.local.n)
        require(getattr(self.sets, "m", None) == m and getattr(self.sets, "dim", None) == n, "sets",
                f"ProductSet(m={getattr(self.sets, 'm', None)}, dim={getattr(self.sets, 'dim', None)})",
                f"one set of dim n={n} per agent (m={m})")

    @property
    def m(self) -> int:
        return int(self.local.m)

    @property
    def n(self) -> int:
        return int(self.local.n)


@dataclass(frozen=True, eq=False)
class PenalizedParams:
    """Hyperparameters of one baseline run (Section 5's settings; module docstring).

    ``lr`` is eta (fedavg, fedprox) or the local step eta_l (scaffold); ``w0`` (n,) the start W_0;
    ``global_lr`` is eta_g; ``mu`` is FedProx's proximal weight (must be 0 for the other methods);
    ``participating`` is |S_r| (None = all agents); ``rho`` one penalty per round (length ``rounds``).
    ``evaluate(V, r) -> dict[str, float]``: V = np.broadcast_to(W_r, (m, n)), r = 0..R;
    ``evaluate_local(Y, agents, r) -> dict[str, float]``: Y (k, n) the local models of the agents
    ``agents`` (k,) at the end of round r's local steps (before aggregation), r = 0..R-1.
    """

    method: str
    rounds: int
    local_steps: int
    lr: float
    w0: np.ndarray
    rho: tuple = ()
    mu: float = 0.0
    global_lr: float = 1.0
    participating: int | None = None
    evaluate: Callable | None = None
    evaluate_local: Callable | None = None

    def __post_init__(self) -> None:
        require(self.method in METHODS, "method", self.method, f"one of {METHODS}")
        require(is_int(self.rounds) and self.rounds >= 1, "rounds", self.rounds,
               "an integer number of rounds >= 1")
        require(is_int(self.local_steps) and self.local_steps >= 1, "local_steps",
               self.local_steps, "an integer number of local steps >= 1")
        require(is_real(self.lr) and self.lr > 0, "lr", self.lr, "a finite step size > 0")
        require(is_real(self.mu) and self.mu >= 0, "mu", self.mu, "a finite weight >= 0")
        require(self.method == "fedprox" or self.mu == 0, "mu", self.mu,
               f"0 for method={self.method!r} (mu is FedProx's proximal weight)")
        require(is_real(self.global_lr) and self.global_lr > 0, "global_lr", self.global_lr,
               "a finite step size > 0")
        require(self.participating is None
               or (is_int(self.participating) and self.participating >= 1),
               "participating", self.participating, "None (all agents) or an integer >= 1")
        try:
            rho = np.asarray(self.rho, dtype=np.float64)
        except (TypeError, ValueError):
            raise ConfigError(f"rho={self.rho!r} is not admissible: a sequence of "
                              f"{self.rounds} finite penalties >= 0") from None
        require(rho.ndim == 1 and rho.size == self.rounds, "rho",
               f"{rho.size if rho.ndim == 1 else rho.shape} values",
               f"one penalty per round, a sequence of length rounds={self.rounds}")
        require(bool(np.all(np.isfinite(rho) & (rho >= 0))), "rho", rho.tolist()[:5],
               "finite penalties >= 0")
        object.__setattr__(self, "rho", tuple(float(v) for v in rho))
        object.__setattr__(self, "lr", float(self.lr))
        object.__setattr__(self, "mu", float(self.mu))
        object.__setattr__(self, "global_lr", float(self.global_lr))
        w0 = np.array(self.w0, dtype=np.float64)
        require(w0.ndim == 1 and bool(np.all(np.isfinite(w0))), "w0", f"array of shape {w0.shape}",
                "a finite vector of shape (n,)")
        w0.setflags(write=False)
        object.__setattr__(self, "w0", w0)
        require(self.evaluate is None or callable(self.evaluate), "evaluate", self.evaluate,
                "None or a function (V, r) -> dict")
        require(self.evaluate_local is None or callable(self.evaluate_local), "evaluate_local",
                self.evaluate_local, "None or a function (Y, agents, r) -> dict")

    def describe(self) -> dict:
        return {"method": self.method, "rounds": self.rounds, "local_steps": self.local_steps,
                "lr": self.lr, "mu": self.mu, "global_lr": self.global_lr,
                "participating": self.participating, "rho_first": self.rho[0],
                "rho_last": self.rho[-1]}


#: Section 5's step sizes and FedProx mu per dataset; SCAFFOLD: 2 of 4 agents, global step 1.
_PAPER = {
    "cifar10": {"fedavg": 0.001, "fedprox": 0.001, "scaffold": 0.001, "mu": 2.0},
    "mnist": {"fedavg": 0.01, "fedprox": 0.01, "scaffold": 0.01, "mu": 0.1},
}


def paper_params(dataset: str, method: str, w0, *, rounds: int = 100, local_steps: int = 20,
                 rho: tuple | None = None) -> PenalizedParams:
    """Section 5's hyperparameters of a baseline started at ``w0``; rho defaults to :func:`penalty_schedule`
    (the baselines' rho is a choice the paper leaves open; this project's default is PC-FedAvg's schedule)."""
    require(dataset in _PAPER, "dataset", dataset, f"one of {tuple(_PAPER)}")
    require(method in METHODS, "method", method, f"one of {METHODS}")
    rho = penalty_schedule(rounds) if rho is None else rho
    return PenalizedParams(method=method, rounds=rounds, local_steps=local_steps,
                           lr=_PAPER[dataset][method], w0=w0, rho=rho,
                           mu=_PAPER[dataset]["mu"] if method == "fedprox" else 0.0,
                           global_lr=1.0, participating=2 if method == "scaffold" else None)


@dataclass
class PenalizedTrace:
    """What one baseline run produced (R = rounds, m agents, k = |S_r|).

    ``metrics``: name -> (R+1,) values of ``evaluate`` at r = 0..R; ``global_dist`` (R+1, m):
    dist(W_r, X_i); ``local_dist``, ``local_drift`` (R, m): dist(W_i, X_i) and ||W_i - W_r|| of the
    local models before aggregation (NaN for agents outside S_r); ``local_metrics``: name -> (R,)
    values of ``evaluate_local``; ``sampled`` (R, k): S_r (sorted); ``rho`` (R,); ``w`` (n,): the
    final global model W_R; ``c`` (n,), ``c_agents`` (m, n): SCAFFOLD's final control variates
    (None for the other methods).
    """

    params: PenalizedParams
    metrics: dict
    global_dist: np.ndarray
    local_dist: np.ndarray
    local_drift: np.ndarray
    local_metrics: dict
    sampled: np.ndarray
    rho: np.ndarray
    w: np.ndarray
    c: np.ndarray | None = None
    c_agents: np.ndarray | None = None
    extra: dict = field(default_factory=dict)

    def arrays(self) -> dict:
        """Flat dict of arrays (for result caches)."""
        out = {"global_dist": self.global_dist, "local_dist": self.local_dist,
               "local_drift": self.local_drift, "sampled": self.sampled, "rho": self.rho,
               "w": self.w}
        out.update({f"metric_{k}": v for k, v in self.metrics.items()})
        out.update({f"local_{k}": v for k, v in self.local_metrics.items()})
        if self.c is not None:
            out["c"], out["c_agents"] = self.c, self.c_agents
        return out


def penalty_gradients(sets, Y, rho: float) -> np.ndarray:
    """rho (Y_i - Pi_{X_i}[Y_i]) for Y (..., m, n): the gradient of (rho/2) dist(Y_i, X_i)^2
    (Section 5's penalty). Zero (and no projection computed) when rho = 0."""
    Y = np.asarray(Y, dtype=np.float64)
    if rho == 0:
        return np.zeros_like(Y)
    out = sets.project(Y)
    np.subtract(Y, out, out=out)
    out *= rho
    return out


def penalized_gradients(problem, sets, Y, rho: float) -> np.ndarray:
    """Exact agent-i penalized gradients grad f_i(Y_i) + rho (Y_i - Pi_{X_i}[Y_i]) of Section 5, for
    Y (m, n) (row i at agent i); the run uses the same formula with minibatch gradients."""
    return problem.gradients(Y) + penalty_gradients(sets, Y, rho)


def _descend(Y: np.ndarray, g: np.ndarray, penalty, drift, lr: float, step: np.ndarray) -> None:
    """One local step in place, Y -= lr (g + penalty + drift) (a term that is None is left out): the sum formed left to
    right in the work array ``step``, then scaled, the same operations as ``Y -= lr * (g + penalty + drift)``."""
    if penalty is None:
        np.copyto(step, g)
    else:
        np.add(g, penalty, out=step)
    if drift is not None:
        step += drift
    step *= lr
    Y -= step


def _accepts_agents(local) -> bool:
    try:
        return "agents" in inspect.signature(local.stochastic_gradients).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without signature
        return False


class _Collector:
    """Turns per-round dicts from a callback into arrays, checking that keys stay the same."""

    def __init__(self, length: int, name: str):
        self.length, self.name, self.values = length, name, None

    def add(self, index: int, result) -> None:
        if result is None:
            return
        if self.values is None:
            self.values = {k: np.full(self.length, np.nan) for k in result}
        if set(result) != set(self.values):
            raise ConfigError(f"{self.name} returned keys {sorted(result)} at index {index}, "
                              f"expected the same keys at every call: {sorted(self.values)}")
        for k, v in result.items():
            self.values[k][index] = float(v)

    def arrays(self) -> dict:
        return {} if self.values is None else self.values


def run(problem: PenalizedProblem, params: PenalizedParams, rng: np.random.Generator) -> PenalizedTrace:
    """One run of ``params.method`` (module docstring) on ``problem`` (the agents' losses and sets) from the
    global model ``params.w0`` (n,), the minibatches and S_r drawn from ``rng``."""
    m, n = problem.m, problem.n
    local, sets, evaluate, evaluate_local = problem.local, problem.sets, params.evaluate, params.evaluate_local
    w0 = np.array(params.w0, dtype=np.float64)
    require(w0.shape == (n,), "w0", f"array of shape {w0.shape}", f"a finite vector of shape ({n},)")
    k = m if params.participating is None else params.participating
    require(1 <= k <= m, "participating", params.participating, f"None or an integer in 1..m={m}")
    R, H, lr, method = params.rounds, params.local_steps, params.lr, params.method
    subset_oracle = _accepts_agents(local)
    all_agents = np.arange(m)

    w = w0
    c = np.zeros(n) if method == "scaffold" else None
    c_agents = np.zeros((m, n)) if method == "scaffold" else None
    global_dist = np.empty((R + 1, m))
    local_dist = np.full((R, m), np.nan)
    local_drift = np.full((R, m), np.nan)
    sampled = np.empty((R, k), dtype=np.int64)
    metrics = _Collector(R + 1, "evaluate")
    local_metrics = _Collector(R, "evaluate_local")

    def observe(r: int) -> None:
        V = np.broadcast_to(w, (m, n))
        global_dist[r] = sets.distance(V)
        if evaluate is not None:
            metrics.add(r, evaluate(V, r))

    def full_rows(Y: np.ndarray, S: np.ndarray) -> np.ndarray:
        """An (m, n) array whose rows S are Y (other rows: W_r) for ProductSet calls."""
        if k == m:
            return Y
        full = np.broadcast_to(w, (m, n)).copy()
        full[S] = Y
        return full

    observe(0)
    for r in range(R):
        rho = params.rho[r]
        S = all_agents if k == m else np.sort(rng.choice(m, size=k, replace=False))
        sampled[r] = S
        Y = np.broadcast_to(w, (k, n)).copy()
        if method == "scaffold":
            correction = c - c_agents[S]                           # -c_i + c, fixed in the round
        step, work = np.empty_like(Y), np.empty_like(Y)
        for _ in range(H):
            if k == m:
                g = local.stochastic_gradients(Y, rng)
            elif subset_oracle:
                g = local.stochastic_gradients(Y, rng, agents=S)
            else:
                g = local.stochastic_gradients(full_rows(Y, S), rng)[S]
            penalty = drift = None
            if rho > 0:
                penalty = (penalty_gradients(sets, Y, rho) if k == m
                           else penalty_gradients(sets, full_rows(Y, S), rho)[S])
            if method == "fedprox" and params.mu > 0:
                drift = np.multiply(np.subtract(Y, w, out=work), params.mu, out=work)     # mu (Y - w)
            elif method == "scaffold":
                drift = correction
            _descend(Y, g, penalty, drift, lr, step)
        local_dist[r, S] = sets.distance(full_rows(Y, S))[S]
        delta = Y - w                                              # Delta Y_i, (k, n)
        local_drift[r, S] = np.linalg.norm(delta, axis=1)
        if evaluate_local is not None:
            local_metrics.add(r, evaluate_local(Y, S.copy(), r))
        if method == "scaffold":
            c_plus = c_agents[S] - c + (w - Y) / (H * lr)           # option II
            delta_c = c_plus - c_agents[S]
            c_agents[S] = c_plus
            w = w + (params.global_lr / k) * delta.sum(axis=0)
            c = c + delta_c.sum(axis=0) / m
        else:
            w = w + params.global_lr * delta.mean(axis=0)
        if not np.all(np.isfinite(w)):
            raise DivergenceError(f"{method} produced a non-finite global model in round {r} (lr={lr}, "
                                  f"rho={rho}); reduce the step size")
        observe(r + 1)
    return PenalizedTrace(params=params, metrics=metrics.arrays(), global_dist=global_dist,
                          local_dist=local_dist, local_drift=local_drift,
                          local_metrics=local_metrics.arrays(), sampled=sampled,
                          rho=np.asarray(params.rho), w=w, c=c, c_agents=c_agents)
