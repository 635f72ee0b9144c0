"""PC-FedAvg, Algorithm 1 of Ebrahimi, Burbano, Yousefian (arXiv 2603.19617), two update paths.

Every agent i holds a multi-block vector x_i = [x_i^(1); ...; x_i^(m)] (its cross-estimates of all
agents' variables). All agents' vectors are one array ``X`` of shape (S, m, m, n) = [replicate,
agent i, block j, coordinate]; S independent Monte-Carlo replicates run in lockstep. Round r
(Algorithm 1, lines 3-10, written for the stacked vectors of Section 4):

  line 3   X[:, i] = z_r for every agent i (the server broadcasts every block to every agent);
  line 6   x_hat_i = (1/m) sum_j X[:, i, j]  (A x_i);
  line 7   g_i = grad f~_i(x_hat_i, xi_{i,k})  (fresh sample per agent and iteration);
  line 8   the cross-estimate update, by one of two paths (``path``):
           "printed"  line 8 exactly as printed:
               j = i : x - gamma (g_i/m + rho (x - Pi_{X_i}[x]) + sigma_i (m-1)/m (x - x_hat_i)),  x = X[:, i, i]
               j != i: x - gamma (g_i/m - sigma_i/m (x - x_hat_i)),                             x = X[:, i, j]
           "compact"  (CR): x_i <- x_i - gamma grad g_{i,rho}(x_i, xi_{i,k}) with the gradient of
               g_{i,rho} (Section 4), evaluated through A, B_i and Pi_{X_i} (PersonalizedProblem.local_gradient_blocks);
               its off-diagonal blocks use (x_i^(i) - x_hat_i), line 8 uses (x_i^(j) - x_hat_i).
  line 10  z_{r+1} = (1/m) sum_i X[:, i]  (block-wise average over agents).

The two paths share lines 3, 6, 7, 10, the oracle and the random stream, so they differ only
where line 8 and (CR) differ. No Python loop over agents or blocks: the only loops are over
rounds and local iterations (sequential by definition). When only the own blocks are recorded
("metrics", the data runs), the printed path stores each agent's off-diagonal blocks in factored
form (:class:`_FactoredVectors`, equal to the dense update to rounding); every other run uses ``X``.

Entry: ``run(problem, params, rng) -> PCFedAvgTrace``; the start z_0, the reference solutions and the
evaluation callback are fields of :class:`PCFedAvgParams`.

Recording (``record``):
  "metrics": per round, ``params.evaluate(z_r, r)`` (Section 5's experiments; which iterate is
             evaluated is this project's choice) and every agent's own
             block distance dist(x_i^(i), X_i) at every local iteration;
  "full":    per replicate and iteration k the quantities every lemma names
             (needs ``params.reference``: x*_rho, x*, G_rho(x*_rho), f(x*));
  "kstar":   only the per-replicate averages over k = 0..K-1 (the expectation over K*), for long
             rate sweeps.
"full" and "kstar" keep the iterates and evaluate about ``_FLUSH_ENTRIES`` entries of them at once, as
replicates of one iteration: a run of many short iterations then pays Python's overhead per batch, not per
iteration (2-3x faster for the search's runs). The numbers are those of one iteration at a time, bit for bit, where
every quantity is computed row by row -- every instance of this project (n <= 5); above 64 coordinates the l1-ball
projection decides per batch whether its passes settle, and there the two agree to rounding.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from repro.errors import DivergenceError, is_int, require

PATHS = ("printed", "compact")
RECORDS = ("metrics", "full", "kstar")


@dataclass(frozen=True, eq=False)
class PCFedAvgParams:
    """Inputs of Algorithm 1: step size gamma, R rounds of ``local_steps`` iterations each (T_r = r H) unless
    ``round_lengths`` gives T_{r+1} - T_r per round (each <= H = max), the server's start z_0 = ``x0``
    ((m, n), or (replicates, m, n) for a start per replicate; line 1 asks for z_0 in X), penalty rho (a
    constant, or one value per round as in Section 5's rho_r), update ``path``, the number of Monte-Carlo
    ``replicates`` run together, and what to ``record``: ``reference`` (a
    :class:`~repro.papers.pcfedavg.problems.personalized.Reference` of this rho) is required for the "full" and
    "kstar" records; ``evaluate(z_r, r) -> dict`` (optional) is called on the server vector of every round."""

    gamma: float
    rounds: int
    local_steps: int
    x0: np.ndarray
    rho: float | tuple = 1.0
    path: str = "printed"
    replicates: int = 1
    record: str = "metrics"
    round_lengths: tuple | None = None
    reference: object | None = None
    evaluate: Callable | None = None

    def __post_init__(self) -> None:
        require(np.isfinite(self.gamma) and self.gamma > 0, "gamma", self.gamma, "a finite step size > 0")
        require(is_int(self.rounds) and self.rounds >= 1, "rounds", self.rounds, "an integer R >= 1")
        require(is_int(self.local_steps) and self.local_steps >= 1, "local_steps", self.local_steps,
                "an integer H >= 1")
        require(self.path in PATHS, "path", self.path, f"one of {PATHS}")
        require(self.record in RECORDS, "record", self.record, f"one of {RECORDS}")
        require(is_int(self.replicates) and self.replicates >= 1, "replicates", self.replicates,
                "an integer >= 1")
        rho = np.atleast_1d(np.asarray(self.rho, dtype=np.float64))
        require(rho.ndim == 1 and rho.size in (1, self.rounds), "rho", f"{rho.size} values",
                f"a constant or one value per round ({self.rounds})")
        require(bool(np.all(np.isfinite(rho) & (rho > 0))), "rho", rho.tolist()[:5], "finite penalties > 0")
        object.__setattr__(self, "rho", tuple(float(v) for v in np.broadcast_to(rho, (self.rounds,))))
        if self.round_lengths is not None:
            lengths = tuple(int(v) for v in self.round_lengths)
            require(len(lengths) == self.rounds and all(1 <= v <= self.local_steps for v in lengths),
                    "round_lengths", self.round_lengths,
                    f"{self.rounds} integers in [1, local_steps={self.local_steps}]")
            object.__setattr__(self, "round_lengths", lengths)
        x0 = np.array(self.x0, dtype=np.float64)
        require(x0.ndim in (2, 3) and (x0.ndim == 2 or x0.shape[0] == self.replicates)
                and bool(np.all(np.isfinite(x0))), "x0", f"shape {x0.shape}",
                f"a finite array of shape (m, n) or ({self.replicates}, m, n)")
        x0.setflags(write=False)
        object.__setattr__(self, "x0", x0)
        require(self.record == "metrics" or self.reference is not None, "reference", None,
                f"a Reference (x*_rho, x*) for record={self.record!r}")
        require(self.evaluate is None or callable(self.evaluate), "evaluate", self.evaluate,
                "None or a function (z_r, r) -> dict")

    @property
    def lengths(self) -> tuple:
        return self.round_lengths or (self.local_steps,) * self.rounds

    @property
    def K(self) -> int:
        """Total number of local iterations (= R H when every round has H steps)."""
        return int(sum(self.lengths))


@dataclass
class PCFedAvgTrace:
    """What a run produced. ``z`` is the final server vector (S, m, n) (Algorithm 1's output);
    ``records`` maps names to arrays (see the module docstring); ``rounds_metrics`` maps metric
    names to per-round arrays (R+1,) in "metrics" mode."""

    params: PCFedAvgParams
    z: np.ndarray
    records: dict = field(default_factory=dict)
    rounds_metrics: dict = field(default_factory=dict)


def _line8_printed(problem, X, g, rho, gamma, projected=None):
    """Line 8 of Algorithm 1 as printed (both cases), all agents and blocks at once:
    x <- x - gamma (g/m - (sigma_i/m)(x - x_hat)) off the diagonal (i != j), and
    x <- x - gamma (g/m + rho (x - Pi_X x) + sigma_i (m-1)/m (x - x_hat)) on it (i == j).
    Off the diagonal this is x <- (1 + a) x - (a x_hat + c g) with a = gamma sigma/m and c = gamma/m, whose second
    term is constant along the averaged axis: two passes over the (S, m, m, n) array instead of five. ``projected``:
    Pi_X of the diagonal blocks when the caller has it (the monitor projected the same blocks at the end of the
    previous iteration), else computed here."""
    m = problem.m
    idx = np.arange(m)
    x_hat = X.mean(axis=-2, keepdims=True)                    # line 6, (S, m, 1, n)
    own = X[..., idx, idx, :]
    if projected is None:
        projected = problem.sets.project(own)
    diag = own - gamma * (g / m + rho * (own - projected)
                          + problem.sigma[:, None] * (m - 1) / m * (own - x_hat[..., 0, :]))   # case i == j
    a = gamma * problem.sigma / m
    out = np.multiply(X, (1.0 + a)[:, None, None])            # case i != j, every block
    out -= a[:, None, None] * x_hat + (gamma / m) * g[..., :, None, :]
    out[..., idx, idx, :] = diag
    return out


class _FactoredVectors:
    """All agents' multi-block vectors of one round of the "printed" path, stored in O(S m n) memory instead of the
    (S, m, m, n) array: x_i^(j) = alpha_i z_r^(j) + beta_i for j != i, and the own blocks x_i^(i) apart.

    Exact in exact arithmetic (this project's derivation, not the paper's): line 3 starts every agent at alpha_i = 1,
    beta_i = 0, and line 8 moves every off-diagonal block of agent i by the same affine map
    x -> (1 + a_i) x - (a_i x_hat_i + c g_i), a_i = gamma sigma_i / m, c = gamma / m, i.e. alpha_i -> (1 + a_i) alpha_i
    and beta_i -> (1 + a_i) beta_i - (a_i x_hat_i + c g_i). Lines 6 and 10 are the same averages written through the
    factors. A data run's round then costs a few passes over (S, m, n) arrays per local step instead of five over
    (S, m, m, n) (the largest arrays of a round); the numbers agree with the dense update (:func:`_line8_printed`)
    to rounding (``tests/pcfedavg/test_algorithm.py``). The own block's update is line 8's diagonal case as printed."""

    def __init__(self, z: np.ndarray):
        self.z = z
        self.z_others = z.sum(axis=-2, keepdims=True) - z      # sum_{j != i} z_r^(j), fixed in the round
        self.alpha = np.ones(z.shape[:-1])                     # (S, m)
        self.beta = np.zeros_like(z)                           # (S, m, n)
        self.own = z.copy()                                    # x_i^(i), (S, m, n)
        self._bracket, self._work = np.empty_like(z), np.empty_like(z)   # the step's (S, m, n) work arrays

    def block_averages(self) -> np.ndarray:
        """Line 6, x_hat_i = (1/m) sum_j x_i^(j), (S, m, n): (own + alpha (sum_{j != i} z^(j)) + (m-1) beta) / m."""
        m = self.z.shape[-2]
        x_hat = np.multiply(self.alpha[..., None], self.z_others)
        x_hat += np.multiply(self.beta, m - 1, out=self._work)
        x_hat += self.own
        x_hat /= m
        return x_hat

    def step(self, problem, x_hat, g, rho, gamma, projected) -> None:
        """Line 8 as printed, both cases (``projected``: Pi_X of the own blocks, or None); every product and sum is
        formed in the two work arrays of the round, in the order of line 8's brackets."""
        m = problem.m
        if projected is None:
            projected = problem.sets.project(self.own)
        a = (gamma * problem.sigma / m)[:, None]
        bracket = np.divide(g, m, out=self._bracket)            # the own block's bracket: g/m
        work = np.subtract(self.own, projected, out=self._work)
        work *= rho
        bracket += work                                         # + rho (x - Pi_X x)
        np.subtract(self.own, x_hat, out=work)
        work *= problem.sigma[:, None] * (m - 1) / m
        bracket += work                                         # + sigma_i (m-1)/m (x - x_hat)
        bracket *= gamma
        self.own -= bracket
        self.alpha *= 1.0 + a[:, 0]
        self.beta *= 1.0 + a
        np.multiply(a, x_hat, out=work)
        work += np.multiply(gamma / m, g, out=bracket)
        self.beta -= work                                       # - (a x_hat + c g)

    def finite(self) -> bool:
        return bool(np.isfinite(self.own).all() and np.isfinite(self.beta).all() and np.isfinite(self.alpha).all())

    def server_average(self) -> np.ndarray:
        """Line 10, z_{r+1}^(j) = (1/m) sum_i x_i^(j), (S, m, n)."""
        m = self.z.shape[-2]
        alpha_others = self.alpha.sum(axis=-1, keepdims=True) - self.alpha           # sum_{i != j} alpha_i
        beta_others = self.beta.sum(axis=-2, keepdims=True) - self.beta              # sum_{i != j} beta_i
        return (self.own + alpha_others[..., None] * self.z + beta_others) / m


def _stochastic_gradients(problem, x_hat, rng):
    """Line 7 for all replicates. A single replicate is passed as (m, n), so that data-based
    oracles (minibatches, which take one (m, n) array) and batched synthetic oracles both work."""
    if x_hat.shape[0] == 1:
        return problem.local.stochastic_gradients(x_hat[0], rng)[None]
    return problem.local.stochastic_gradients(x_hat, rng)


def _diverged(params, r, rho) -> DivergenceError:
    return DivergenceError(f"PC-FedAvg diverged in round {r} of {params.rounds} (an iterate became non-finite) "
                           f"with gamma={params.gamma!r}, rho={rho!r}; reduce gamma")


def _compact_step(problem, X, x_hat, g, rho, gamma, projected, keep_gradients):
    """(CR), x_i <- x_i - gamma grad g_{i,rho}(x_i, xi), on the (S, m, m, n) array: every block j != i of agent i moves
    by gamma times its shared gradient block, block i by gamma times its own (``PersonalizedProblem
    .local_gradient_blocks``; ``projected``: Pi_X of X's diagonal blocks, or None). The same products and differences,
    entry by entry, as X - gamma (the assembled gradients), which are formed only when ``keep_gradients``. Returns
    (X_new, the gradients or None)."""
    idx = np.arange(problem.m)
    shared, own = problem.local_gradient_blocks(X, g, rho, x_hat=x_hat, projected=projected)
    X_new = X - gamma * shared[..., :, None, :]
    X_new[..., idx, idx, :] = X[..., idx, idx, :] - gamma * own
    return X_new, problem.assemble_local_gradients(shared, own) if keep_gradients else None


def _dense_round(problem, params, recorder, z, r, length, k, rng):
    """Round r on the (S, m, m, n) array of all agents' vectors, either path; returns (z_{r+1}, k)."""
    rho, idx = params.rho[r], np.arange(problem.m)
    S, m, n = z.shape
    X = np.empty((S, m, m, n))
    X[...] = z[:, None]                                             # line 3
    projected = None                                                # Pi_X of X's diagonal blocks, when known
    for _ in range(length):
        x_hat = X.sum(axis=-2) / m                                  # line 6 (the mean's own arithmetic)
        g = _stochastic_gradients(problem, x_hat, rng)              # line 7
        grads = None
        if params.path == "printed":
            X_new = _line8_printed(problem, X, g, rho, params.gamma, projected)
        else:
            X_new, grads = _compact_step(problem, X, x_hat, g, rho, params.gamma, projected, recorder.keeps_gradients)
        if not np.isfinite(X_new).all():
            raise _diverged(params, r, rho)
        projected = recorder.iteration(k, X, X_new, g, rho, grads)
        X = X_new
        k += 1
    if recorder.mode == "metrics":
        recorder.local_end(X[..., idx, idx, :], x_hat=X.mean(axis=-2))
    return np.add.reduce(X, axis=1) / m, k                          # line 10 (np.mean's arithmetic, without its wrapper)


def _factored_round(problem, params, recorder, z, r, length, k, rng):
    """Round r of the "printed" path on :class:`_FactoredVectors` (when the recorder needs only the own blocks);
    returns (z_{r+1}, k)."""
    rho = params.rho[r]
    vectors = _FactoredVectors(z)                                   # line 3
    projected = None
    for _ in range(length):
        x_hat = vectors.block_averages()                            # line 6
        g = _stochastic_gradients(problem, x_hat, rng)              # line 7
        vectors.step(problem, x_hat, g, rho, params.gamma, projected)   # line 8
        if not vectors.finite():
            raise _diverged(params, r, rho)
        projected = recorder.own_blocks(k, vectors.own)
        k += 1
    if recorder.mode == "metrics":
        recorder.local_end(vectors.own, x_hat=vectors.block_averages())
    z_next = vectors.server_average()                               # line 10
    if not np.isfinite(z_next).all():     # a block alpha_i z_j + beta_i overflowed while its factors stayed finite
        raise _diverged(params, r, rho)
    return z_next, k


def run(problem, params: PCFedAvgParams, rng: np.random.Generator) -> PCFedAvgTrace:
    """Algorithm 1 on ``problem`` (a :class:`~repro.papers.pcfedavg.problems.personalized.PersonalizedProblem`)
    from the server vector z_0 = ``params.x0``, the oracle's samples drawn from ``rng``."""
    m, n, S = problem.m, problem.n, params.replicates
    x0 = params.x0
    require(x0.shape in ((m, n), (S, m, n)), "x0", f"shape {x0.shape}",
            f"a finite array of shape ({m}, {n}) or ({S}, {m}, {n})")
    reference = params.reference
    z = np.broadcast_to(x0, (S, m, n)).copy()
    recorder = _Recorder(problem, params, reference, params.evaluate)
    recorder.round_start(z, 0)
    k = 0
    factored = params.path == "printed" and params.record == "metrics"
    for r, length in enumerate(params.lengths):                      # lines 3-10
        if factored:
            z, k = _factored_round(problem, params, recorder, z, r, length, k, rng)
        else:
            z, k = _dense_round(problem, params, recorder, z, r, length, k, rng)
        recorder.round_start(z, r + 1)
    records = recorder.records(k)
    if params.record == "full":
        records["dist_final"] = np.sum((z - reference.x_rho) ** 2, axis=(-2, -1))   # ||bar x_K - x*_rho||^2
    return PCFedAvgTrace(params=params, z=z, records=records, rounds_metrics=recorder.metrics_arrays)


#: the "full" and "kstar" records evaluate kept iterations together, once they hold more than this many entries of X:
#: 2^18 float64 entries (2 MB per array) stay in a core's cache while a batch is copied in and reduced; at 2^20
#: (stacked from a list, as before) the batch's memory traffic cost a quarter of an m = 64 search run (measured:
#: benchmarks/README.md, "Paper profile")
_FLUSH_ENTRIES = 2**18


class _Kept:
    """The iterations a record keeps until it evaluates them (:meth:`_Recorder._flush`), copied into preallocated
    (capacity, ...) arrays while they are still in cache, instead of stacked from a list at the flush (a growable
    stack, which numpy does not have; written here). Always X; with ``steps`` ("full") also X_new and the samples g;
    with ``grads`` (the (CR) path, whose update computes them) also the gradients. What is not kept comes back as
    None."""

    def __init__(self, steps: bool, grads: bool):
        self.steps, self.grads = steps, grads
        self.count, self.buffers = 0, None

    def add(self, capacity: int, X, X_new, g, grads) -> None:
        if self.buffers is None:
            arrays = ({"X": X} | ({"X_new": X_new, "g": g} if self.steps else {})
                      | ({"grads": grads} if self.grads else {}))
            self.buffers = {name: np.empty((capacity,) + a.shape, a.dtype) for name, a in arrays.items()}
        h, kept = self.count, self.buffers
        kept["X"][h] = X
        if self.steps:
            kept["X_new"][h], kept["g"][h] = X_new, g
        if self.grads:
            kept["grads"][h] = grads
        self.count += 1

    def take(self) -> dict:
        """The kept iterations by name ("X", "X_new", "g", "grads"; None where not kept), (count, ...) views valid
        until the next :meth:`add`; empties the keep."""
        h, self.count = self.count, 0
        return {name: self.buffers[name][:h] if name in self.buffers else None
                for name in ("X", "X_new", "g", "grads")}


class _Recorder:
    """Observed quantities along a run (this project's checks). Kept out of the update code so that the
    algorithm reads like the listing."""

    def __init__(self, problem, params, reference, evaluate):
        self.problem, self.params, self.ref, self.evaluate = problem, params, reference, evaluate
        self.mode = params.record
        S, K, m = params.replicates, params.K, problem.m
        self.metrics: dict[str, list] = {}
        self.G_ref: dict = {}
        self.own_dist = np.empty((K, m)) if self.mode == "metrics" and S == 1 else None
        self.local_own, self.local_avg = [], []
        self.pending = _Kept(steps=self.mode == "full",          # ("full", "kstar") the iterations not yet
                             grads=self.mode == "full" and params.path != "printed")     # evaluated
        self.keeps_gradients = self.pending.grads                # (the (CR) update's gradients are kept)
        if self.mode == "full":
            self.full = {name: np.empty((S, K)) for name in
                         ("gap", "subopt", "dist", "drift", "sq_avg_grad", "mean_sq_grad", "inner",
                          "cr_residual")}
            self.full["infeas"] = np.empty((S, K, m))
            self.full["dbar"] = np.empty((S, K))
        elif self.mode == "kstar":
            self.sums = {name: np.zeros(S) for name in ("gap", "subopt", "dbar")}
            self.sums["infeas"] = np.zeros((S, m))

    def _G_at_x_rho(self, rho) -> np.ndarray:
        """G_rho(x*_rho) of the reference, computed once per value of rho (it is the same at every iteration)."""
        if rho not in self.G_ref:
            self.G_ref[rho] = self.problem.G(self.ref.x_rho, rho)
        return self.G_ref[rho]

    # ----------------------------------------------------------------------------- hooks
    def round_start(self, z, r):
        if self.evaluate is not None:
            for key, value in self.evaluate(z[0], r).items():
                self.metrics.setdefault(key, []).append(value)

    def local_end(self, own, x_hat):
        """The end of a round's local phase ("metrics" only; the rounds skip the call otherwise): the distances of
        the own blocks and of the block averages."""
        sets = self.problem.sets
        self.local_own.append(sets.distance(own)[0])
        self.local_avg.append(sets.distance(x_hat)[0])

    def own_blocks(self, k, own):
        """Record dist(x_i^(i), X_i) after iteration ``k`` ("metrics", S = 1) from the own blocks (S, m, n); returns
        their projections (S, m, n) when it computed them, else None."""
        if self.own_dist is None:
            return None
        projected, self.own_dist[k] = self.problem.sets.projection_and_distance(own[0])
        return projected[None]

    def iteration(self, k, X, X_new, g, rho, grads=None):
        """Iteration ``k``: X -> X_new with samples ``g`` at penalty ``rho``. "metrics" records the own blocks now and
        returns Pi_X of X_new's diagonal blocks (S = 1) when it computed them, else None; "full" and "kstar" keep
        the iteration and evaluate many at once (:meth:`_flush`). ``grads``: the (CR) path's
        grad g_{i,rho}(x_{i,k}, xi_{i,k}), when the update computed them (else computed at the flush)."""
        if self.mode == "metrics":
            idx = np.arange(self.problem.m)
            return self.own_blocks(k, X_new[..., idx, idx, :])
        if self.pending.count and rho != self.pending_rho:               # a new penalty: evaluate the kept ones
            self._flush()
        if not self.pending.count:
            self.pending_start, self.pending_rho = k, rho
        self.pending.add(_FLUSH_ENTRIES // X.size + 1, X, X_new, g, grads)
        if self.pending.count * X.size > _FLUSH_ENTRIES:
            self._flush()
        return None

    def _flush(self):
        """Evaluate the kept iterations k0 .. k0 + h - 1 (of one penalty rho) as h S replicates of one iteration: the
        same arithmetic per entry as one at a time, since every quantity is a reduction over one iteration's arrays,
        and the "kstar" sums add the iterations in the order of k (a cumulative sum)."""
        if not self.pending.count:
            return
        p, ref, rho, k0 = self.problem, self.ref, self.pending_rho, self.pending_start
        h, S = self.pending.count, self.params.replicates
        kept = {name: None if a is None else a.reshape((h * S,) + a.shape[2:])        # (h S, ...): h iterations
                for name, a in self.pending.take().items()}                              # of S replicates
        X = kept["X"]
        xbar = X.sum(axis=1) / p.m                                      # bar x_k, (h S, m, n)
        f_xbar = p.f(xbar)
        infeas = p.sets.distance(xbar) ** 2                             # d_i(k)^2, (h S, m)
        gap = f_xbar + rho * p.penalty_of_squared_distances(infeas) - self._G_at_x_rho(rho)   # G_rho, one f and
        values = {"gap": gap, "subopt": f_xbar - ref.f_star,                                 # one distance
                  "infeas": infeas, "dbar": np.sqrt(infeas.sum(axis=-1))}
        if self.mode == "kstar":
            for name, v in values.items():
                rows = np.concatenate([self.sums[name][None], v.reshape((h, S) + v.shape[1:])])
                self.sums[name] = np.cumsum(rows, axis=0)[-1]
            return
        X_new, g, grads = kept["X_new"], kept["g"], kept["grads"]
        if grads is None:
            grads = p.local_gradients(X, g, rho)                        # grad g_{i,rho}(x_{i,k}, xi_{i,k})
        self._store_full(k0, h, X, X_new, xbar, grads, rho, values)

    def _store_full(self, k0, h, X, X_new, xbar, grads, rho, values):
        """The "full" record of iterations k0 .. k0 + h - 1 from their (h S)-stacked arrays."""
        p, ref, S = self.problem, self.ref, self.params.replicates
        avg = grads.sum(axis=1) / p.m
        exact = p.exact_local_gradients(X, rho)                         # grad G_{i,rho}(x_{i,k})
        diff = xbar - ref.x_rho
        values |= {
            "dist": np.sum(diff**2, axis=(-2, -1)),
            "drift": np.sum(np.sum((X - xbar[:, None]) ** 2, axis=(-2, -1)), axis=-1) / p.m,
            "sq_avg_grad": np.sum(avg**2, axis=(-2, -1)),
            "mean_sq_grad": np.sum(np.sum(grads**2, axis=(-2, -1)), axis=-1) / p.m,
            "inner": -2.0 / p.m * np.einsum("sjd,sijd->s", diff, exact),
            # (L4.6-a): the realised average against bar x_k - gamma (1/m) sum_i grad g_{i,rho}
            "cr_residual": np.sqrt(np.sum((X_new.sum(axis=1) / p.m - (xbar - self.params.gamma * avg)) ** 2,
                                          axis=(-2, -1))),
        }
        for name, v in values.items():
            self.full[name][:, k0:k0 + h] = np.moveaxis(v.reshape((h, S) + v.shape[1:]), 0, 1)

    # ----------------------------------------------------------------------------- output
    def records(self, K):
        self._flush()
        out = {}
        if self.mode == "metrics":
            if self.own_dist is not None:
                out["own_block_dist"] = self.own_dist
            if self.local_own:
                out["local_own_dist"] = np.asarray(self.local_own)
                out["local_avg_dist"] = np.asarray(self.local_avg)
        elif self.mode == "full":
            out.update(self.full)
        else:
            out.update({f"kstar_{name}": v / K for name, v in self.sums.items()})
        return out

    @property
    def metrics_arrays(self):
        return {k: np.asarray(v) for k, v in self.metrics.items()}
