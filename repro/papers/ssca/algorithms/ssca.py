"""Mini-batch SSCA for sample-based and feature-based federated learning (Algorithms 1-4 of
"Sample-based and Feature-based Federated Learning via Mini-batch SSCA", arXiv 2104.06011 v1,
Sections III-IV, with the example surrogates of Sections III-V).

Problem protocol (duck type, implemented in ``repro.papers.ssca.problems``): F_m(w) = Phi_m(w) - U_m, m = 1..M, and
F_0(w) = (1/N) sum_n f_0(w, x_n). A problem exposes ``dim`` d, ``n_samples`` N, ``n_constraints`` M,
``constraint_levels`` (M,) = U_m, ``exact_objective_weight`` (q0 when f_0(w, x) = q0 ||w||^2 is data free,
else None), ``batch_sums(omega, index, weights)`` and ``block_batch_sums(omega, index, weights)`` returning
the weighted sums over the batch of (f_0, phi_1..phi_M) (values, shape (M+1,)) and of their gradients
(grads, shape (M+1, d)) -- U_m NOT subtracted -- computed the sample-based resp. the feature-based way,
``stacked_objective_grads`` (used by the SGD baselines) and ``full_values_and_grads(omega)``.

Entry points: ``run_sample_based(problem, params, rng)`` and ``run_feature_based(problem, params, rng)``, each
returning an :class:`SSCATrace`. Everything that describes the run is a field of the frozen :class:`SSCAParams`:
the initial point ``omega1``, the clients' index sets ``client_indices`` (sample-based), batches to replay
(``replay_batches``) and the checkpoint ``monitor``. One engine (:func:`_run_engine`) carries out every
algorithm; the two front ends only choose the batches, their weights and which batch oracle to call:

* :func:`run_sample_based` = Algorithm 1 (M = 0) / Algorithm 2 (M >= 1). Each client i draws a uniform
  B-subset N_i^(t) of its own indices, without replacement, independently across clients and iterations
  (a choice the paper leaves open), vectorised over clients (:func:`draw_client_batches`). Every sample of
  client i gets the weight N_i / (B N) of (3)/(10). The weighted sum over clients of the client messages (the
  batch sums q_{s,m} of Sections III-A and III-B) is, by linearity, ONE ``problem.batch_sums`` call over the
  union of the batches with these weights; that is how it is computed here.
* :func:`run_feature_based` = Algorithm 3 (M = 0) / Algorithm 4 (M >= 1). The server draws a uniform
  B-subset N^(t) of all N samples without replacement (``rng.choice(N, B, replace=False)``), weights 1/B
  of (13)/(20), and the statistics come from ``problem.block_batch_sums`` (clients hold feature blocks).

Surrogate recursions, as printed (8), (12), (18), (24), with the example surrogates (7), (11), (15), (22):
writing v_m = sum_n w_n f_m(w^(t), x_n), g_m = sum_n w_n grad f_m(w^(t), x_n) and W = sum_n w_n (= 1),

    f_hat_{m,1} <- (1 - rho) f_hat_{m,1} + rho (g_m - 2 tau W w^(t)),                  m = 0..M,
    f_hat_{m,0} <- (1 - rho) f_hat_{m,0} + rho (v_m - g_m . w^(t) + tau W ||w^(t)||^2), m = 1..M,

both from 0, and the surrogate functions are taken AS PRINTED, F_bar_0(w) = f_hat_{0,1} . w + tau ||w||^2
and F_bar_m(w) = f_hat_{m,0} + f_hat_{m,1} . w + tau ||w||^2 -- with the quadratic weight tau. (Unrolling
(3)+(7) literally gives tau (1 - prod_{s<=t} (1 - rho^(s))) instead; that discrepancy is an audit finding
recorded elsewhere, the algorithm here executes the printed forms.)

Server step (Problem 2/7 resp. 5/10):

* M = 0: w_bar = -f_hat_{0,1} / (2 tau), (9)/(19). When the problem's objective is exact (q0 ||w||^2) its
  minimiser w_bar = 0 is used (allowed, trivial).
* M >= 1: min_{w, z} obj(w) + c sum_m z_m s.t. f_hat_{m,0} - U_m + f_hat_{m,1} . w + tau ||w||^2 <= z_m,
  z_m >= 0, with obj(w) = q0 ||w||^2 when the objective is exact (as (38) does with q0 = 1 and A - U
  written unweighted) and obj(w) = f_hat_{0,1} . w + tau ||w||^2 (surrogate (8)/(18)) otherwise.
  - M = 1: exactly, through the one-dimensional concave dual (Appendix C, (74)): for the multiplier nu of
    the constraint, w(nu) = -(a + nu b) / (2 (q + nu tau)) with (a, q) = (0, q0) (exact) or
    (f_hat_{0,1}, tau); H'(nu) equals the surrogate constraint value at w(nu) (envelope theorem) and is
    non-increasing, so nu = 0 if H'(0) <= 0, nu = c if H'(c) >= 0, else the root of H' by ``brentq``
    (:func:`single_constraint_dual`). With a = 0 and q0 = 1 this is Lemma 1, and nu is taken from the
    printed (42) via ``bounds.ssca.claims.lemma1_nu_scalar`` (imported lazily; if that module is not importable the
    brentq route, which solves the same problem, is used; the trace's ``server_route`` says which ran).
  - M >= 2: a convex QCQP solved by cvxpy (Clarabel), its Parameters compiled once per run
    (:class:`QCQPServer`); the interior-point multipliers are then refined by projected Newton ascent on
    the concave dual (:func:`polish_dual`), and w_bar = w(nu) is the Lagrangian minimiser at the refined nu.
  zeta_m = max(0, F_bar_m(w_bar) - U_m) (primal feasibility + complementary slackness); the regime of each
  constraint is "inactive" (nu = 0), "active" (0 < nu < c) or "saturated" (nu = c), the regimes of (42).
* Iterate update (5): w <- (1 - gamma) w + gamma w_bar.

Step sizes: :class:`PowerLawSteps`, rho^(t) = a1 / t^alpha, gamma^(t) = a2 / t^beta (Section VI: beta =
alpha + 0.05). We require a1, a2 in (0, 1] so that (3) and (5) are convex combinations (our requirement;
the paper only states (4) and (6), which :meth:`PowerLawSteps.conditions` decides for the family).

Indexing (Algorithms 1-4: "for t = 1, 2, ..., T - 1", output w^(T)): the loop does T - 1 updates t = 1..T-1
and outputs w^(T). Checkpoint t in 1..T is the state holding w^(t): t = 1 the initial point (before any
update), t = T the output.

Randomness: the run's Generator spawns one child per purpose (``rng.spawn(1)``: the batch draws), so a
run is determined by the params and the Generator's seed sequence. Replaying given ``replay_batches`` draws
nothing.

Divergence: a non-finite iterate or surrogate raises :class:`DivergenceError` (a ``ReproError`` and a
``FloatingPointError``) naming the algorithm, the iteration and the step sizes; no trace is returned.

Communication accounting (``floats_sent_per_client``, per iteration): sample-based, each client sends the
gradient sums of every row the server uses (M rows, plus row 0 unless the objective is exact) and the M
value sums: (M + [not exact]) d + M floats. Feature-based: the messages q_{f,m,i} are blocks of those
gradients (client i: its d_i coordinates; the designated client: the top block d_0 and the M values), so
their sum over clients is again (M + [not exact]) d + M. The protocol does not expose the block sizes, so
the feature-based trace records that SUM over clients as ``floats_sent_total`` and sets
``floats_sent_per_client`` to NaN. The exchanged partial scores h_{m,i} (B x hidden units per client,
problem specific) are not counted.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from scipy.optimize import brentq

from repro.errors import DivergenceError, ReproError, is_int, is_real, require

__all__ = [
    "DivergenceError", "ServerProblemError", "PowerLawSteps", "SSCAParams", "SSCAState", "SSCATrace",
    "ServerSolution", "QCQPServer", "polish_dual", "REGIMES", "single_constraint_dual", "solve_server_problem",
    "draw_client_batches", "draw_server_batch", "run_sample_based", "run_feature_based", "loop_oracle",
    "validate_checkpoints", "CheckpointRecorder", "check_finite", "validate_client_indices",
    "validate_initial_point", "initial_point",
]

REGIMES = ("inactive", "active", "saturated")
"""Regime codes of a constraint multiplier: 0 nu = 0, 1 0 < nu < c, 2 nu = c (the regimes of (42), Lemma 1)."""


class ServerProblemError(ReproError):
    """The server's convex subproblem (Problem 5/10, M >= 2) was not solved to optimality."""


# ----------------------------------------------------------------------------------------- shared helpers
def validate_checkpoints(checkpoints, iterations: int) -> None:
    """Checkpoints: a tuple of strictly increasing integers in 1..T (T = ``iterations``)."""
    ok = isinstance(checkpoints, tuple) and all(is_int(t) and 1 <= t <= iterations for t in checkpoints) \
        and all(a < b for a, b in zip(checkpoints, checkpoints[1:]))
    require(ok, "checkpoints", checkpoints,
            f"a tuple of strictly increasing integers in 1..T = 1..{iterations} (t = 1 the initial point, "
            "t = T the output)")


def initial_point(omega1) -> np.ndarray:
    """omega1 as a read-only float64 copy, a finite non-empty 1-d array (its length is checked against the
    problem's d when a run starts, :func:`validate_initial_point`)."""
    try:
        w = np.array(omega1, dtype=np.float64, copy=True)
    except (TypeError, ValueError):
        w = None
    ok = w is not None and w.ndim == 1 and w.size >= 1 and bool(np.isfinite(w).all())
    shown = f"array of shape {w.shape}" if w is not None and w.ndim else repr(omega1)
    require(ok, "omega1", shown, "a finite 1-d array (the initial point w^(1))")
    w.flags.writeable = False
    return w


def validate_initial_point(omega1, dim: int) -> np.ndarray:
    """omega1 as a float64 copy of shape (d,), finite."""
    w = np.array(omega1, dtype=np.float64, copy=True)
    require(w.shape == (dim,) and bool(np.isfinite(w).all()), "omega1", f"array of shape {w.shape}",
            f"a finite array of shape ({dim},)")
    return w


def validate_client_indices(client_indices, n_samples: int, batch: int) -> np.ndarray:
    """client_indices (I, N_i), an int array partitioning 0..N-1 (equal N_i), with B <= N_i."""
    idx = np.asarray(client_indices)
    ok = idx.ndim == 2 and idx.size > 0 and np.issubdtype(idx.dtype, np.integer)
    require(ok, "client_indices", f"array of shape {idx.shape}, dtype {idx.dtype}",
            "an integer array of shape (I, N_i) (equal N_i)")
    ok = idx.size == n_samples and idx.min() >= 0 and idx.max() < n_samples and np.unique(idx).size == n_samples
    require(bool(ok), "client_indices", f"array of shape {idx.shape}",
            f"a partition of the N = {n_samples} sample indices over the clients")
    require(batch <= idx.shape[1], "batch", batch, f"an integer in 1..N_i = 1..{idx.shape[1]} (per-client batch)")
    return idx.astype(np.intp)


def check_finite(algorithm: str, t: int, iterations: int, step_sizes: str | Callable[[], str], *arrays: np.ndarray,
                 remedy: str = "reduce the step sizes or increase tau") -> None:
    """Raise :class:`DivergenceError` naming the algorithm, the iteration t (of T - 1) and the step sizes
    when any array is non-finite. ``step_sizes`` may be a function returning the text, so that the loops, which
    call this every iteration, format it only when they fail."""
    if not all(bool(np.isfinite(a).all()) for a in arrays):
        text = step_sizes() if callable(step_sizes) else step_sizes
        raise DivergenceError(
            f"{algorithm} diverged at iteration {t} of {iterations - 1} (a model or surrogate became "
            f"non-finite) with {text}; {remedy}")


class CheckpointRecorder:
    """Calls ``monitor(t, state)`` at the checkpoints and collects the returned dicts into arrays:
    ``monitor[name]`` has one entry per checkpoint (NaN where a call did not return ``name``)."""

    def __init__(self, checkpoints: tuple, monitor: Callable | None):
        self.checkpoints = tuple(int(t) for t in checkpoints)
        self._wanted = frozenset(self.checkpoints) if monitor is not None else frozenset()
        self._monitor = monitor
        self._rows: dict[int, dict] = {}

    def wants(self, t: int) -> bool:
        return t in self._wanted

    def record(self, t: int, state) -> None:
        out = self._monitor(t, state)
        require(isinstance(out, dict), "monitor", type(out).__name__, "a callable returning dict[str, float]")
        self._rows[t] = {str(k): float(v) for k, v in out.items()}

    def arrays(self) -> dict[str, np.ndarray]:
        names = sorted({k for row in self._rows.values() for k in row})
        return {k: np.array([self._rows.get(t, {}).get(k, np.nan) for t in self.checkpoints], dtype=np.float64)
                for k in names}


def _readonly(a: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return None
    a = np.array(a, dtype=np.float64, copy=True)
    a.flags.writeable = False
    return a


# ----------------------------------------------------------------------------------------- sampling
def draw_client_batches(rng: np.random.Generator, client_indices: np.ndarray, batch: int) -> np.ndarray:
    """(I, B): row i a uniform B-subset of row i of ``client_indices``, WITHOUT replacement within the row,
    independent across rows, in the order of the row (all indices, no draw, when B = N_i).

    Small batches (B (B - 1) <= 2 N_i, where a draw of B positions has no repeat with probability about
    exp(-B^2 / (2 N_i)) >= 1/e): B uniform positions per row, rows with a repeated position drawn again
    (:func:`_distinct_positions`); larger ones: the B smallest of N_i uniform keys (:func:`smallest_keys`). Both are
    exactly uniform over the B-subsets. The first costs 0.01-0.08 ms for 10 rows of 6,000 and B = 1-100 against
    0.54-0.65 ms for the keys (benchmarks/README.md): most of an iteration's time outside the oracle at small B."""
    n_i = client_indices.shape[1]
    if batch >= n_i:
        return client_indices.copy()
    if batch * (batch - 1) <= 2 * n_i:
        pos = _distinct_positions(rng, client_indices.shape[0], n_i, batch)
    else:
        pos = smallest_keys(rng.random(client_indices.shape), batch)
    return client_indices[np.arange(client_indices.shape[0])[:, None], pos]      # row i: client_indices[i, pos[i]]


def _distinct_positions(rng: np.random.Generator, rows: int, n: int, k: int) -> np.ndarray:
    """(rows, k) sorted positions, each row k distinct values of 0..n-1 uniformly at random: k independent uniform
    positions per row, and every row that repeats one drawn again, until none does (rejection: conditioned on being
    distinct, k i.i.d. uniform positions are a uniform ordered k-tuple of distinct values, so the sorted row is a
    uniform k-subset). Written by hand: numpy's ``Generator.choice`` draws one row per call."""
    pos = np.empty((rows, k), dtype=np.int64)
    redo = np.arange(rows)
    while redo.size:
        fresh = np.sort(rng.integers(0, n, size=(redo.size, k)), axis=1)
        pos[redo] = fresh
        redo = redo[(fresh[:, 1:] == fresh[:, :-1]).any(axis=1)]
    return pos


def smallest_keys(keys: np.ndarray, k: int) -> np.ndarray:
    """Positions (rows, k) of the k smallest entries of each row of ``keys`` (distinct uniform keys in [0, 1)),
    ascending. Selecting among the keys below a threshold t = 2 (k + 16) / n first is exact whenever every row has
    at least k of them (the k smallest are then all below t); otherwise, and where t >= 1/4 (short rows, large
    batches: the filter would not pay), all keys are partitioned. For 10 rows of 6,000 keys and k = 1-100 this takes
    0.18-0.23 ms against 0.59-0.62 ms for partitioning every row (measured once on the benchmark machine; the draw
    was the largest cost of an iteration at small batches)."""
    rows, n = keys.shape
    threshold = 2.0 * (k + 16) / n
    if threshold < 0.25:
        below = keys < threshold
        counts = below.sum(axis=1)
        if counts.min() >= k:
            row, col = np.nonzero(below)                             # row-major: each row's columns ascending
            slot = np.arange(row.size) - np.repeat(np.cumsum(counts) - counts, counts)
            cols = np.zeros((rows, counts.max()), dtype=np.intp)
            cand = np.full(cols.shape, np.inf)
            cols[row, slot], cand[row, slot] = col, keys[row, col]
            pick = np.argpartition(cand, k - 1, axis=1)[:, :k]
            return np.sort(np.take_along_axis(cols, pick, axis=1), axis=1)
    return np.sort(np.argpartition(keys, k - 1, axis=1)[:, :k], axis=1)


def draw_server_batch(rng: np.random.Generator, n: int, batch: int) -> np.ndarray:
    """(B,): a uniform B-subset of 0..N-1 without replacement, ``rng.choice(N, B, replace=False)``."""
    return rng.choice(n, size=batch, replace=False)


# ----------------------------------------------------------------------------------------- parameters
@dataclass(frozen=True)
class PowerLawSteps:
    """rho^(t) = a1 / t^alpha (surrogate weight, (4)), gamma^(t) = a2 / t^beta (iterate step, (6)).

    a1, a2 in (0, 1] is OUR requirement (so that (3) and (5) are convex combinations); alpha, beta >= 0.
    """

    a1: float
    alpha: float
    a2: float
    beta: float

    def __post_init__(self) -> None:
        require(is_real(self.a1) and 0 < self.a1 <= 1, "a1", self.a1,
                "a number in (0, 1] (rho^(1) = a1; we require (3) to be a convex combination)")
        require(is_real(self.a2) and 0 < self.a2 <= 1, "a2", self.a2,
                "a number in (0, 1] (gamma^(1) = a2; we require (5) to be a convex combination)")
        require(is_real(self.alpha) and self.alpha >= 0, "alpha", self.alpha, "a finite number >= 0")
        require(is_real(self.beta) and self.beta >= 0, "beta", self.beta, "a finite number >= 0")

    @classmethod
    def section_vi(cls, a1: float, a2: float, alpha: float) -> "PowerLawSteps":
        """Section VI family: gamma exponent beta = alpha + 0.05."""
        return cls(a1=a1, alpha=alpha, a2=a2, beta=alpha + 0.05)

    def rho(self, iterations: int) -> np.ndarray:
        """rho^(t) for t = 1..T-1."""
        t = np.arange(1, iterations, dtype=np.float64)
        return self.a1 / t ** self.alpha

    def gamma(self, iterations: int) -> np.ndarray:
        """gamma^(t) for t = 1..T-1."""
        t = np.arange(1, iterations, dtype=np.float64)
        return self.a2 / t ** self.beta

    def conditions(self) -> dict[str, bool]:
        """(4) holds iff 0 < alpha <= 1; (6) iff 1/2 < beta <= 1 and beta > alpha (p-series rule)."""
        return {"(4)": 0 < self.alpha <= 1, "(6)": 0.5 < self.beta <= 1 and self.beta > self.alpha}


@dataclass(frozen=True, eq=False)
class SSCAParams:
    """Inputs of Algorithms 1-4: proximal weight ``tau`` of (7)/(11)/(15)/(22), ``steps`` (rho, gamma),
    ``iterations`` T (T - 1 updates, output w^(T)), ``batch`` B (per client for the sample-based
    algorithms, total for the feature-based ones), the initial point ``omega1`` w^(1) (stored as a read-only
    float64 copy), ``penalty`` c of Problems 4/5/9/10 (used only when M >= 1; Section VI uses 1e5),
    ``record_batches``, the monitor ``checkpoints`` (t in 1..T) and what else describes the run:

    * ``client_indices`` (I, N_i): client i's sample indices, a partition of 0..N-1 with equal N_i (required by
      the sample-based algorithms, checked against the problem when the run starts; the feature-based ones,
      whose clients hold feature blocks of the problem, ignore it);
    * ``replay_batches``: batches to replay instead of drawing ((T-1, I, B) sample-based, (T-1, B)
      feature-based);
    * ``monitor(t, state: SSCAState) -> dict[str, float]``, called at the ``checkpoints``.

    Compared by identity (``eq=False``): the fields include arrays and a callable."""

    tau: float
    steps: PowerLawSteps
    iterations: int
    batch: int
    omega1: np.ndarray
    penalty: float = 1e5
    record_batches: bool = False
    checkpoints: tuple = ()
    client_indices: np.ndarray | None = None
    replay_batches: np.ndarray | None = None
    monitor: Callable | None = None

    def __post_init__(self) -> None:
        require(is_real(self.tau) and self.tau > 0, "tau", self.tau, "a finite number > 0")
        require(isinstance(self.steps, PowerLawSteps), "steps", self.steps, "a PowerLawSteps instance")
        require(is_int(self.iterations) and self.iterations >= 2, "iterations", self.iterations,
                "an integer >= 2 (T; the loop performs T - 1 updates)")
        require(is_int(self.batch) and self.batch >= 1, "batch", self.batch,
                "an integer >= 1 (B: per client, sample-based; total, feature-based)")
        require(is_real(self.penalty) and self.penalty > 0, "penalty", self.penalty, "a finite number > 0 (c)")
        require(isinstance(self.record_batches, bool), "record_batches", self.record_batches, "True or False")
        validate_checkpoints(self.checkpoints, self.iterations)
        object.__setattr__(self, "omega1", initial_point(self.omega1))
        require(self.monitor is None or callable(self.monitor), "monitor", type(self.monitor).__name__,
                "None or a callable monitor(t, state) -> dict[str, float]")


# ----------------------------------------------------------------------------------------- state and trace
@dataclass(frozen=True)
class SSCAState:
    """Read-only view given to a monitor at checkpoint t: the iterate w^(t); the latest w_bar^(t-1), the
    surrogate coefficients f_hat_{m,1}^(t-1) (M+1, d) and f_hat_{m,0}^(t-1) (M,), nu and zeta (M,) of the
    last server step (all None / zero before the first update, t = 1)."""

    t: int
    omega: np.ndarray
    omega_bar: np.ndarray | None
    f_hat_lin: np.ndarray
    f_hat_const: np.ndarray
    tau: float
    nu: np.ndarray | None
    zeta: np.ndarray | None


@dataclass
class SSCATrace:
    """One run (``params``: the :class:`SSCAParams` it ran with). Per update t = 1..T-1 (index t-1): ``rho``, ``gamma``; ``step_norm`` ||w_bar^(t) - w^(t)||;
    ``omega_norm`` ||w^(t)||; ``batch_value`` the batch estimate sum_n w_n f_0(w^(t), x_n) of F_0(w^(t));
    for M >= 1 ((T-1, M) each): ``nu``, ``zeta``, ``regime`` (codes into :data:`REGIMES`), ``const``
    f_hat_{m,0}^(t) (A^(t) of (39)) and ``lin_norm_sq`` b = ||f_hat_{m,1}^(t)||^2 (42); ``batches`` when
    recorded ((T-1, I, B) sample-based, (T-1, B) feature-based); ``floats_sent_per_client`` /
    ``floats_sent_total`` (module docstring); ``omega_final`` w^(T); ``checkpoints`` and ``monitor``
    (name -> array over checkpoints); ``server_route`` ("closed_form", "lemma1", "brentq", "cvxpy")."""

    algorithm: str
    params: SSCAParams | None
    rho: np.ndarray
    gamma: np.ndarray
    step_norm: np.ndarray
    omega_norm: np.ndarray
    batch_value: np.ndarray
    omega_final: np.ndarray
    floats_sent_per_client: np.ndarray
    floats_sent_total: np.ndarray
    server_route: str
    nu: np.ndarray | None = None
    zeta: np.ndarray | None = None
    regime: np.ndarray | None = None
    const: np.ndarray | None = None
    lin_norm_sq: np.ndarray | None = None
    batches: np.ndarray | None = None
    checkpoints: tuple = ()
    monitor: dict = field(default_factory=dict)


# ----------------------------------------------------------------------------------------- server step
@dataclass(frozen=True)
class ServerSolution:
    """Solution of Problem 2/5/7/10: w_bar, multipliers nu (M,), slacks zeta (M,), regime codes (M,)."""

    omega_bar: np.ndarray
    nu: np.ndarray
    zeta: np.ndarray
    regime: np.ndarray


def _regime(nu: float, c: float) -> int:
    return 0 if nu <= 0 else (2 if nu >= c else 1)


def single_constraint_dual(a: np.ndarray | None, q: float, b: np.ndarray, gap: float, tau: float,
                           c: float) -> tuple[float, np.ndarray]:
    """Problem 5/10 with M = 1 by its one-dimensional dual (Appendix C, (74), generalised):

        min_{w, z} a . w + q ||w||^2 + c z   s.t.  gap + b . w + tau ||w||^2 <= z,  z >= 0,

    with gap = f_hat_{1,0} - U (``a = None`` means a = 0). For nu >= 0 the Lagrangian minimiser is
    w(nu) = -(a + nu b) / (2 (q + nu tau)) and H'(nu) = gap + b . w(nu) + tau ||w(nu)||^2 (envelope
    theorem), non-increasing in nu (H concave). Maximising H on [0, c]: nu = 0 if H'(0) <= 0, nu = c if
    H'(c) >= 0, else the root of H' (``scipy.optimize.brentq``). Returns (nu, w(nu))."""
    a_vec = np.zeros_like(b) if a is None else a

    def w_of(nu):
        return -(a_vec + nu * b) / (2.0 * (q + nu * tau))

    def dH(nu):
        w = w_of(nu)
        return gap + b @ w + tau * (w @ w)

    if dH(0.0) <= 0:
        nu = 0.0
    elif dH(c) >= 0:
        nu = float(c)
    else:
        nu = brentq(dH, 0.0, c, xtol=1e-14, rtol=4 * np.finfo(float).eps, maxiter=500)
    return nu, w_of(nu)


class QCQPServer:
    """Problem 5/10 for any M >= 1 as a cvxpy problem with Parameters, compiled once (DPP) and re-solved
    every iteration with Clarabel (interior point, as the paper states for Problem 5).

    Each surrogate constraint gap_m + l_m . w + tau ||w||^2 <= z_m is passed in the completed-square form
    ||w + l_m/(2 tau)|| <= sqrt(z_m/tau + ||l_m||^2/(4 tau^2) - gap_m/tau) (the same set): written with
    ``sum_squares`` the conic reformulation limits Clarabel's primal accuracy to about 1e-5, this form
    reaches about 1e-9 with the tolerances below."""

    TOLERANCES = dict(tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12, tol_ktratio=1e-10, max_iter=500)

    def __init__(self, dim: int, n_constraints: int, tau: float, penalty: float, exact_weight: float | None):
        import cvxpy as cp

        self._cp, self.tau = cp, float(tau)
        self.w = cp.Variable(dim)
        self.z = cp.Variable(n_constraints, nonneg=True)
        self.centre = cp.Parameter((n_constraints, dim))        # l_m / (2 tau)
        self.offset = cp.Parameter(n_constraints)                # ||l_m||^2/(4 tau^2) - gap_m/tau
        if exact_weight is None:
            self.lin0 = cp.Parameter(dim)
            objective = self.lin0 @ self.w + tau * cp.sum_squares(self.w)
        else:
            self.lin0 = None
            objective = exact_weight * cp.sum_squares(self.w)
        self.constraints = [cp.norm(self.w + self.centre[m]) <= cp.sqrt(self.z[m] / tau + self.offset[m])
                            for m in range(n_constraints)]
        self.problem = cp.Problem(cp.Minimize(objective + penalty * cp.sum(self.z)), self.constraints)

    def solve(self, lin0: np.ndarray, lin: np.ndarray, gap: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(w_bar, nu) for linear coefficients lin (M, d), constants gap = f_hat_{m,0} - U_m (M,).

        nu_m is the multiplier of the ORIGINAL constraint g_m = gap_m + l_m . w + tau ||w||^2 - z_m <= 0.
        With r = ||w + l_m/(2 tau)|| and s = sqrt(z_m/tau + ...), g_m = tau (r^2 - s^2), so on the boundary
        (r = s) grad g_m = 2 tau r grad(r - s) and the multiplier lambda_m of the solved form r - s <= 0
        maps to nu_m = lambda_m / (2 tau r) (clipped to [0, c] by the caller)."""
        tau = self.tau
        if self.lin0 is not None:
            self.lin0.value = lin0
        self.centre.value = lin / (2.0 * tau)
        self.offset.value = np.einsum("md,md->m", lin, lin) / (4.0 * tau * tau) - gap / tau
        with warnings.catch_warnings():     # OPTIMAL_INACCURATE is accepted: polish_dual refines the result
            warnings.filterwarnings("ignore", message="Solution may be inaccurate")
            self.problem.solve(solver=self._cp.CLARABEL, **self.TOLERANCES)
        if self.problem.status not in (self._cp.OPTIMAL, self._cp.OPTIMAL_INACCURATE):
            raise ServerProblemError(f"the server QCQP (Problem 5/10) ended with status {self.problem.status!r}")
        w = np.array(self.w.value, dtype=np.float64)
        lam = np.array([np.ravel(k.dual_value)[0] for k in self.constraints], dtype=np.float64)
        r = np.linalg.norm(w[None, :] + self.centre.value, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            nu = np.where(lam > 0, lam / (2.0 * tau * r), 0.0)
        return w, np.where(np.isfinite(nu), nu, np.inf)
def polish_dual(a: np.ndarray | None, q: float, lin: np.ndarray, gap: np.ndarray, tau: float, c: float,
                nu: np.ndarray, max_iter: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """Refine an approximate multiplier vector nu (M,) of Problem 5/10 (objective a . w + q ||w||^2, a = None
    meaning 0) by projected Newton ascent on its concave dual over the box [0, c]^M, the M-constraint
    version of Appendix C: w(nu) = -(a + lin^T nu) / (2 (q + tau sum nu)), dH/dnu_m = g_m(w(nu)) (the
    surrogate constraint values) and d^2H/dnu dnu^T = -G G^T / (2 (q + tau sum nu)) with rows
    G_m = l_m + 2 tau w(nu). A step is kept when it lowers the natural residual
    |nu - clip(nu + grad H, 0, c)| or clearly raises H; the loop stops otherwise. Interior-point solutions of
    the QCQP are accurate to about 1e-6 in nu near nu = c; this usually makes the multipliers (and so the recorded
    regimes) exact to rounding, not always: two runs whose inputs differ by rounding (the sample- and feature-based
    coupling of the tests) ended 2e-10 to 8e-10 apart in 3 of 12 seeds. Returns (nu, w(nu))."""
    a_vec = np.zeros(lin.shape[1]) if a is None else a

    def evaluate(nu):
        s = q + tau * nu.sum()
        w = -(a_vec + nu @ lin) / (2.0 * s)
        g = gap + lin @ w + tau * (w @ w)
        return w, g, a_vec @ w + q * (w @ w) + nu @ g, s

    def residual(nu, g):                                  # natural residual of the box-constrained dual
        return np.abs(nu - np.clip(nu + g, 0.0, c)).max()

    nu = np.clip(np.asarray(nu, dtype=np.float64), 0.0, c)
    w, g, H, s = evaluate(nu)
    res = residual(nu, g)
    for _ in range(max_iter):
        if res == 0:
            break
        # bound set: multipliers that a projected gradient step, or a small tolerance, puts on a bound
        near = 1e-6 * (1.0 + c)
        lower = (g < 0) & ((nu + g <= 0) | (nu <= near))
        upper = (g > 0) & ((nu + g >= c) | (nu >= c - near))
        free = ~(lower | upper)
        trial = np.where(lower, 0.0, np.where(upper, c, nu))
        if free.any():
            G = lin[free] + 2.0 * tau * w[None, :]
            step = np.linalg.lstsq(G @ G.T / (2.0 * s), g[free], rcond=None)[0]
            trial[free] = np.clip(nu[free] + step, 0.0, c)
        w_t, g_t, H_t, s_t = evaluate(trial)
        res_t = residual(trial, g_t)
        if not (res_t < res or H_t > H + 1e-12 * (1.0 + abs(H))):
            break
        nu, w, g, H, s, res = trial, w_t, g_t, H_t, s_t, res_t
    return nu, w


def _lemma1_nu():
    """``bounds.ssca.claims.lemma1_nu_scalar`` (the printed (42) at one point) or None when that module (written separately)
    is not importable."""
    try:
        from bounds.ssca.claims import lemma1_nu_scalar
    except ImportError:
        return None
    return lemma1_nu_scalar


def solve_server_problem(f_hat_lin: np.ndarray, f_hat_const: np.ndarray, levels: np.ndarray, tau: float,
                         penalty: float, exact_weight: float | None = None,
                         qcqp: QCQPServer | None = None) -> tuple[ServerSolution, str]:
    """The server step of Algorithms 1-4 on the printed surrogates (module docstring); returns the
    solution and the route taken ("closed_form" (9)/(19), "lemma1" (40)-(42), "brentq", "cvxpy")."""
    M = f_hat_const.shape[0]
    empty = np.zeros(0)
    if M == 0:
        w = np.zeros_like(f_hat_lin[0]) if exact_weight is not None else -f_hat_lin[0] / (2.0 * tau)
        return ServerSolution(w, empty, empty, np.zeros(0, dtype=np.int8)), "closed_form"
    gap = f_hat_const - levels
    if M == 1:
        lemma1 = _lemma1_nu() if exact_weight is not None and exact_weight == 1.0 else None
        b = f_hat_lin[1]
        if lemma1 is not None:
            with np.errstate(over="ignore"):                 # an overflow is reported by the check below
                bb = float(b @ b)
            require(np.isfinite([bb, gap[0], tau, penalty]).all() and tau > 0 and penalty > 0,
                    "b @ b, gap, tau, penalty", (bb, float(gap[0]), tau, penalty),
                    "finite, with tau > 0 and penalty > 0 (the inputs of (42))")
            nu = lemma1(bb, float(f_hat_const[0]), float(levels[0]), tau, penalty)
            w = -nu * b / (2.0 * (1.0 + nu * tau))  # (40)-(41)
            route = "lemma1"
        else:
            a, q = (None, exact_weight) if exact_weight is not None else (f_hat_lin[0], tau)
            nu, w = single_constraint_dual(a, q, b, float(gap[0]), tau, penalty)
            route = "brentq"
        nus = np.array([nu])
        regime = np.array([_regime(nu, penalty)], dtype=np.int8)
    else:
        if qcqp is None:
            qcqp = QCQPServer(f_hat_lin.shape[1], M, tau, penalty, exact_weight)
        _, nus = qcqp.solve(f_hat_lin[0], f_hat_lin[1:], gap)
        a, q = (None, exact_weight) if exact_weight is not None else (f_hat_lin[0], tau)
        nus, w = polish_dual(a, q, f_hat_lin[1:], gap, tau, penalty, nus)
        regime = np.array([_regime(v, penalty) for v in nus], dtype=np.int8)
        route = "cvxpy"
    zeta = np.maximum(0.0, gap + f_hat_lin[1:] @ w + tau * (w @ w))
    return ServerSolution(w, nus, zeta, regime), route


# ----------------------------------------------------------------------------------------- engine
class _Surrogate:
    """The surrogate coefficients of the engine, f_hat_{m,1} (``lin``, (M+1, d)) and f_hat_{m,0} (``const``,
    (M,)), and the iterate update (5), computed in place in preallocated arrays.

    The expressions are those of the module docstring, evaluated operation by operation in the same order, so
    the results are bit-identical to the expression form ``lin = (1 - rho) lin + rho (g - 2 tau W w)``. In place
    because each fresh d-sized temporary (d = 101,632 for the network of Section V) costs its page faults: the
    expression form spent 1.6 ms per iteration on this arithmetic where the in-place form spends 0.4-0.8
    (M = 1, measured on the reference machine; ``benchmarks/README.md``)."""

    def __init__(self, M: int, d: int, tau: float):
        self.tau = tau
        self.lin, self.const = np.zeros((M + 1, d)), np.zeros(M)
        self.step, self.scratch = np.empty((M + 1, d)), np.empty(d)

    def update(self, values: np.ndarray, grads: np.ndarray, w: np.ndarray, wsq: float, wsum: float,
               r: float) -> np.ndarray:
        """(8)/(12)/(18)/(24) at step size rho = r, with ``wsq`` = w @ w: ``lin`` in place; returns the new
        ``const``."""
        tau = self.tau
        const = (1.0 - r) * self.const + r * (values[1:] - grads[1:] @ w + tau * wsum * wsq)
        self.const = const
        np.multiply(2.0 * tau * wsum, w, out=self.scratch)
        np.subtract(grads, self.scratch, out=self.step)
        self.step *= r
        self.lin *= 1.0 - r
        self.lin += self.step
        return const

    def step_model(self, w: np.ndarray, omega_bar: np.ndarray, g: float) -> None:
        """(5) in place: w <- (1 - gamma) w + gamma w_bar."""
        w *= 1.0 - g
        w += np.multiply(g, omega_bar, out=self.scratch)


def loop_oracle(problem, name: str) -> Callable:
    """The oracle ``name`` ("batch_sums" or "block_batch_sums") that the engine (and the SGD baselines of
    :mod:`.federated_sgd`, whose arguments are built the same way) calls every iteration: the form
    without argument checks that a problem offers through ``unchecked_oracle(name)`` (this project's problems,
    :meth:`~repro.papers.ssca.problems.swish_network.FiniteSumProblem.unchecked_oracle`), else the public method.
    The engine's arguments are valid by construction (its iterate is checked finite after every step, the indices
    are drawn from validated client indices or come from validated replay batches, the weights are its own), so the
    public method's checks only repeated themselves: with the scalar Lemma 1 step, 16 % of an ``ssca.convergence``
    run (benchmarks/README.md, "Paper profile")."""
    unchecked = getattr(problem, "unchecked_oracle", None)
    return unchecked(name) if unchecked is not None else getattr(problem, name)


def _run_engine(problem, params: SSCAParams, algorithm: str, draw: Callable, sums: Callable,
                batch_shape: tuple, floats: tuple[float, float]) -> SSCATrace:
    """The common loop of Algorithms 1-4 from ``params.omega1``, monitored by ``params.monitor``.
    ``draw(t) -> (record, index, weights)`` gives iteration t's batch (``record`` is what ``batches`` stores),
    ``sums`` is the problem's ``batch_sums`` or ``block_batch_sums`` (:func:`loop_oracle`)."""
    d, M, T, tau, c = int(problem.dim), int(problem.n_constraints), params.iterations, float(params.tau), \
        float(params.penalty)
    levels = np.asarray(problem.constraint_levels, dtype=np.float64).reshape(M)
    q0 = problem.exact_objective_weight
    q0 = None if q0 is None else float(q0)
    w = validate_initial_point(params.omega1, d)
    rho, gamma = params.steps.rho(T), params.steps.gamma(T)
    steps_text = lambda: f"rho={rho[t - 1]:.6g}, gamma={gamma[t - 1]:.6g}, tau={tau:.6g}"  # noqa: E731  (t: the loop's)

    surrogate = _Surrogate(M, d, tau)
    lin, const = surrogate.lin, surrogate.const
    step_norm, omega_norm, batch_value = np.empty(T - 1), np.empty(T - 1), np.empty(T - 1)
    nu_tr, zeta_tr, const_tr, b_tr = (np.empty((T - 1, M)) for _ in range(4))
    regime_tr = np.empty((T - 1, M), dtype=np.int8)
    batches = np.empty((T - 1,) + batch_shape, dtype=np.intp) if params.record_batches else None
    recorder = CheckpointRecorder(params.checkpoints, params.monitor)
    qcqp = QCQPServer(d, M, tau, c, q0) if M >= 2 else None
    route = "closed_form"
    sol = None

    def state(t):
        return SSCAState(t=t, omega=_readonly(w), omega_bar=None if sol is None else _readonly(sol.omega_bar),
                         f_hat_lin=_readonly(lin), f_hat_const=_readonly(const), tau=tau,
                         nu=None if sol is None else _readonly(sol.nu),
                         zeta=None if sol is None else _readonly(sol.zeta))

    if recorder.wants(1):
        recorder.record(1, state(1))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for t in range(1, T):
            record, index, weights = draw(t)
            if batches is not None:
                batches[t - 1] = record
            values, grads = sums(w, index, weights)
            values, grads = np.asarray(values, dtype=np.float64), np.asarray(grads, dtype=np.float64)
            wsq = w @ w
            const = surrogate.update(values, grads, w, wsq, float(np.sum(weights)), rho[t - 1])
            check_finite(algorithm, t, T, steps_text, lin, const)     # w is finite: checked after (5) below
            sol, route = solve_server_problem(lin, const, levels, tau, c, q0, qcqp)
            step_norm[t - 1] = np.linalg.norm(np.subtract(sol.omega_bar, w, out=surrogate.scratch))
            omega_norm[t - 1] = np.sqrt(wsq)                  # = np.linalg.norm(w), which is sqrt(w.dot(w))
            batch_value[t - 1] = values[0]
            if M:
                nu_tr[t - 1], zeta_tr[t - 1], regime_tr[t - 1] = sol.nu, sol.zeta, sol.regime
                const_tr[t - 1], b_tr[t - 1] = const, np.einsum("md,md->m", lin[1:], lin[1:])
            surrogate.step_model(w, sol.omega_bar, gamma[t - 1])                            # (5)
            check_finite(algorithm, t, T, steps_text, w)
            if recorder.wants(t + 1):
                recorder.record(t + 1, state(t + 1))

    per_client, total = floats
    cons = dict(nu=nu_tr, zeta=zeta_tr, regime=regime_tr, const=const_tr, lin_norm_sq=b_tr) if M else {}
    return SSCATrace(algorithm=algorithm, params=params, rho=rho, gamma=gamma, step_norm=step_norm,
                     omega_norm=omega_norm, batch_value=batch_value, omega_final=w,
                     floats_sent_per_client=np.full(T - 1, per_client), floats_sent_total=np.full(T - 1, total),
                     server_route=route, batches=batches, checkpoints=recorder.checkpoints,
                     monitor=recorder.arrays(), **cons)


def _message_floats(problem) -> int:
    """Gradient rows the server uses times d, plus the M value sums (module docstring)."""
    M = int(problem.n_constraints)
    rows = M + (0 if problem.exact_objective_weight is not None else 1)
    return rows * int(problem.dim) + M


def _replay(batches, shape: tuple, n: int, name: str = "replay_batches") -> np.ndarray:
    arr = np.asarray(batches)
    ok = arr.shape == shape and np.issubdtype(arr.dtype, np.integer) and (arr.size == 0 or
                                                                          (arr.min() >= 0 and arr.max() < n))
    require(bool(ok), name, f"array of shape {arr.shape}, dtype {arr.dtype}",
            f"an integer array of shape {shape} with entries in 0..{n - 1}")
    return arr.astype(np.intp)


# ----------------------------------------------------------------------------------------- front ends
def run_sample_based(problem, params: SSCAParams, rng: np.random.Generator) -> SSCATrace:
    """Algorithm 1 (M = 0, Problem 1 via Problem 2) / Algorithm 2 (M >= 1, Problem 3 via Problem 5).

    ``params.client_indices`` (I, N_i): client i's sample indices (equal N_i, a partition of 0..N-1). Each
    iteration every client draws a uniform B-subset of its indices without replacement
    (:func:`draw_client_batches`); sample weights N_i / (B N), (3)/(10). The weighted sum over clients of
    the client messages is one ``problem.batch_sums`` call over the union. ``params.replay_batches``
    (T-1, I, B): replay these batches instead of drawing (each row should be a subset of the client's
    indices). ``params.monitor(t, state: SSCAState) -> dict[str, float]`` is called at ``params.checkpoints``."""
    N, T, B = int(problem.n_samples), params.iterations, params.batch
    idx = validate_client_indices(params.client_indices, N, B)
    I, n_i = idx.shape
    (batch_rng,) = rng.spawn(1)
    weights = np.full(I * B, n_i / (B * N))
    if params.replay_batches is not None:
        replay = _replay(params.replay_batches, (T - 1, I, B), N)
        owner = np.empty(N, dtype=np.intp)
        owner[idx] = np.arange(I)[:, None]
        ordered = np.sort(replay, axis=2)
        require(bool(np.all(owner[replay] == np.arange(I)[None, :, None]))
                and bool(np.all(np.diff(ordered, axis=2) != 0)), "replay_batches", "rows outside the clients' data",
                "replay_batches[t, i] = B distinct indices of client i (a row of client_indices)")
        draw = lambda t: (replay[t - 1], replay[t - 1].reshape(-1), weights)  # noqa: E731
    else:
        def draw(t):
            chosen = draw_client_batches(batch_rng, idx, B)
            return chosen, chosen.reshape(-1), weights
    per_client = float(_message_floats(problem))
    name = "Algorithm 2 (sample-based SSCA, constrained)" if problem.n_constraints else \
        "Algorithm 1 (sample-based SSCA)"
    return _run_engine(problem, params, name, draw, loop_oracle(problem, "batch_sums"), (I, B),
                       (per_client, I * per_client))


def run_feature_based(problem, params: SSCAParams, rng: np.random.Generator) -> SSCATrace:
    """Algorithm 3 (M = 0, Problem 6 via Problem 7) / Algorithm 4 (M >= 1, Problem 8 via Problem 10).

    The server draws a uniform B-subset of all N samples without replacement (:func:`draw_server_batch`),
    weights 1/B, (13)/(20); the statistics come from ``problem.block_batch_sums`` (feature blocks held by
    the clients; ``params.client_indices`` is not used). ``params.replay_batches`` (T-1, B): replay these
    instead of drawing. Monitor as in :func:`run_sample_based`."""
    N, T, B = int(problem.n_samples), params.iterations, params.batch
    require(B <= N, "batch", B, f"an integer in 1..N = 1..{N} (total batch, feature-based)")
    (batch_rng,) = rng.spawn(1)
    weights = np.full(B, 1.0 / B)
    if params.replay_batches is not None:
        replay = _replay(params.replay_batches, (T - 1, B), N)
        require(all(np.unique(row).size == B for row in replay), "replay_batches", "rows with repeated indices",
                "rows of B distinct sample indices")
        draw = lambda t: (replay[t - 1], replay[t - 1], weights)  # noqa: E731
    else:
        def draw(t):
            chosen = draw_server_batch(batch_rng, N, B)
            return chosen, chosen, weights
    name = "Algorithm 4 (feature-based SSCA, constrained)" if problem.n_constraints else \
        "Algorithm 3 (feature-based SSCA)"
    return _run_engine(problem, params, name, draw, loop_oracle(problem, "block_batch_sums"), (B,),
                       (np.nan, float(_message_floats(problem))))
