"""Federated Neyman–Pearson classification, eqs (2)-(3) of FedSGM (Section 4.1)."""
from __future__ import annotations

from typing import Sequence

import numpy as np
import scipy.optimize as so
from scipy.special import expit

from repro.errors import require

from repro.papers.fedsgm.problems.common import (
    NoSolutionError, as_array, check_iterates, check_point, rowdot, sha256_of, weighted_rowsum,
)
from repro.papers.fedsgm.problems.solve import CertifiedProblem, linf_growth
from repro.papers.fedsgm.problems.base import LocalOracle

__all__ = ["NeymanPearson", "neyman_pearson_split"]


def _client_arrays(blocks, name: str) -> list[np.ndarray]:
    if isinstance(blocks, np.ndarray) and blocks.ndim == 3:
        blocks = list(blocks)
    require(isinstance(blocks, (list, tuple)) and len(blocks) >= 1, name, type(blocks).__name__,
            "a non-empty sequence of per-client (m_j, d) arrays (n_clients >= 1)")
    out = [as_array(x, f"{name}[{j}]", ndim=2) for j, x in enumerate(blocks)]
    for j, x in enumerate(out):
        require(x.shape[0] >= 1, f"{name}[{j}].shape", x.shape,
                "every client needs at least one sample of each class")
    return out


def _pad(blocks: list[np.ndarray], d: int) -> tuple[np.ndarray, np.ndarray]:
    """Stack ragged client blocks into (n, M, d) with zero rows and (n, M) weights 1/m_j."""
    n, M = len(blocks), max(x.shape[0] for x in blocks)
    X, Wt = np.zeros((n, M, d)), np.zeros((n, M))
    for j, x in enumerate(blocks):  # construction only; the oracle has no client loop
        X[j, : x.shape[0]] = x
        Wt[j, : x.shape[0]] = 1.0 / x.shape[0]
    return X, Wt


class NeymanPearson(CertifiedProblem):
    r"""Federated NP classification, (2)-(3) of FedSGM, with a constraint level.

    ``f_j(w) = (1/m_j0) sum_{x in D_j^(0)} log(1 + exp(x.w))`` (objective class),
    ``g_j(w) = (1/m_j1) sum_{x in D_j^(1)} log(1 + exp(-x.w)) - level`` (constraint class).
    The paper's (2) has no level, i.e. ``level = 0`` (the default); its experiment enforces
    ``g <= eps`` instead, which is ``level = eps`` here.

    Parameters
    ----------
    class0, class1 : sequences of n arrays ``(m_j0, d)`` / ``(m_j1, d)`` (counts may differ per
        client; stored padded with zero rows of weight 0, so the oracle is loop-free).
    level : the constraint level (finite).
    slater_point : optional (d,) point with ``g < 0`` (used to repair solver infeasibility).

    **Lipschitz constant.** ``d/dt log(1+e^t) = sigma(t) in (0, 1)``, so ``||grad f_j|| <=
    sum_i (1/m_j0) ||x_i|| <= max ||x||`` and likewise for g_j: ``G = max row norm`` over all
    samples of both classes (Assumption 1 for (2)-(3)). f_j, g_j are smooth (no kink rule needed).

    **When (1) has no solution** (``solve`` raises :class:`NoSolutionError`, nothing is hidden):

    * ``level <= 0``: the logistic loss is > 0 everywhere, so ``g(w) > -level >= 0`` for all w;
      the feasible set is empty. This is the paper's (2) taken literally.
    * the data are (weakly) linearly separable in the sense that some direction d has
      ``x.d <= 0`` for every objective-class row (``< 0`` for at least one) and ``x.d >= 0`` for
      every constraint-class row: along ``w + t d`` f strictly decreases and g does not increase,
      so no feasible point is a minimiser (inf f is not attained). Detected by an LP before
      solving. Standardised breast-cancer data WITH a bias column are in this case.

    **Solution.** cvxpy (``cp.logistic``). f is strictly convex iff the objective-class rows span
    R^d (then stage 2 is skipped). Certified lower bound: tangent of ``f + lambda g`` over the
    inf-norm ball of radius ``(U + level)/kappa``, where ``kappa = min_{||u||_inf=1}
    [mean_j sum_i w0_ji max(x.u, 0) + mean_j sum_i w1_ji max(-x.u, 0)]`` (LPs): since
    ``log(1+e^t) >= max(t, 0)``, ``f(w) <= U`` and ``g(w) <= 0`` imply ``kappa ||w||_inf <= U +
    level``. kappa > 0 exactly when no direction of the separability test above exists with any
    nonzero score.
    """

    name = "neyman_pearson"
    _smooth_kkt = True

    def __init__(self, class0: Sequence[np.ndarray], class1: Sequence[np.ndarray],
                 level: float = 0.0, *, slater_point=None):
        super().__init__()
        c0, c1 = _client_arrays(class0, "class0"), _client_arrays(class1, "class1")
        require(len(c0) == len(c1), "class1", f"{len(c1)} clients",
                f"as many clients as class0 ({len(c0)})")
        d = c0[0].shape[1]
        require(d >= 1, "dim", d, "dim >= 1")
        for name, blocks in (("class0", c0), ("class1", c1)):
            for j, x in enumerate(blocks):
                require(x.shape[1] == d, f"{name}[{j}].shape", x.shape, f"(m_j, {d}) rows")
        require(bool(np.isfinite(level)), "level", level, "a finite constraint level")
        self.level = float(level)
        self.n_clients, self.dim = len(c0), int(d)
        self.X0, self.W0 = _pad(c0, d)
        self.X1, self.W1 = _pad(c1, d)
        self._Z1 = -self.X1
        for a in (self.X0, self.W0, self.X1, self.W1, self._Z1):
            a.setflags(write=False)
        self.counts0 = np.array([x.shape[0] for x in c0])
        self.counts1 = np.array([x.shape[0] for x in c1])
        self.G = float(max(np.linalg.norm(self.X0, axis=-1).max(),
                           np.linalg.norm(self.X1, axis=-1).max()))
        require(self.G > 0, "class0, class1", "all-zero rows", "at least one nonzero sample")
        self._rows0 = np.concatenate(c0)                           # pooled real rows
        self._rows1 = np.concatenate(c1)
        self._omega0 = (self.W0[self.W0 > 0]) / self.n_clients     # global weights, sum 1
        self._omega1 = (self.W1[self.W1 > 0]) / self.n_clients
        self._unique = bool(np.linalg.matrix_rank(self._rows0) == d)
        self.slater_point = None if slater_point is None else check_point(slater_point, d,
                                                                          "slater_point")
        self._kappa: float | None = None
        self.split: dict | None = None
        self.params: dict = {}

    def oracle(self, W: np.ndarray) -> LocalOracle:
        W = check_iterates(W, self.n_clients, self.dim)
        s0 = rowdot(W, self.X0)                                    # (..., n, M0)
        f = np.sum(self.W0 * np.logaddexp(0.0, s0), axis=-1)
        grad_f = weighted_rowsum(self.W0 * expit(s0), self.X0)
        s1 = rowdot(W, self._Z1)                                   # (..., n, M1)
        g = np.sum(self.W1 * np.logaddexp(0.0, s1), axis=-1) - self.level
        grad_g = weighted_rowsum(self.W1 * expit(s1), self._Z1)
        return LocalOracle(f=f, g=g, grad_f=grad_f, grad_g=grad_g)

    def _smooth_eval(self, P, lam):
        """Pooled closed form of (phi, grad phi, grad g, g) for the polishing (not the oracle)."""
        s0 = P @ self._rows0.T
        s1 = -(P @ self._rows1.T)
        f = np.logaddexp(0.0, s0) @ self._omega0
        g = np.logaddexp(0.0, s1) @ self._omega1 - self.level
        gf = (expit(s0) * self._omega0) @ self._rows0
        gg = -(expit(s1) * self._omega1) @ self._rows1
        return f + lam * g, gf + lam * gg, gg, g

    def _hessian(self, w, lam):
        s0, s1 = self._rows0 @ w, -(self._rows1 @ w)
        c0 = self._omega0 * expit(s0) * expit(-s0)
        c1 = self._omega1 * expit(s1) * expit(-s1)
        return (self._rows0.T * c0) @ self._rows0 + lam * ((self._rows1.T * c1) @ self._rows1)

    # ----------------------------------------------------------------- cvxpy
    def _cvx_data(self):
        return {"rows0": self._rows0, "omega0": self._omega0, "rows1": self._rows1, "omega1": self._omega1,
                "level": np.array(self.level)}

    def _cvx_f(self, w, p):
        import cvxpy as cp

        return cp.sum(cp.multiply(p["omega0"], cp.logistic(p["rows0"] @ w)))

    def _cvx_g(self, w, p):
        import cvxpy as cp

        return cp.sum(cp.multiply(p["omega1"], cp.logistic(-p["rows1"] @ w))) - p["level"]

    def _minimiser_is_unique(self) -> bool:
        return self._unique

    def recession_direction(self) -> tuple[np.ndarray, float]:
        """LP: ``d in [-1,1]^dim`` maximising ``sum_i omega0_i (-x_i.d)`` subject to
        ``x.d <= 0`` on objective-class rows and ``x.d >= 0`` on constraint-class rows.

        Returns ``(d, decrease)``; ``decrease > 0`` means f strictly decreases along d while g
        does not increase (the infimum of (1) is then not attained).
        """
        A_ub = np.vstack([self._rows0, -self._rows1])
        res = so.linprog(self._omega0 @ self._rows0, A_ub=A_ub, b_ub=np.zeros(A_ub.shape[0]),
                         bounds=[(-1.0, 1.0)] * self.dim, method="highs",
                         options={"primal_feasibility_tolerance": 1e-10,
                                  "dual_feasibility_tolerance": 1e-10})
        if res.status != 0:
            return np.zeros(self.dim), 0.0
        return np.asarray(res.x, dtype=np.float64), float(-res.fun)

    def _precheck(self) -> None:
        if self.level <= 0:
            raise NoSolutionError(
                f"neyman_pearson with level={self.level:g}: problem (1) has no solution. "
                "g(w) = mean_j mean_(class-1 rows) log(1+exp(-x.w)) - level > -level >= 0 for "
                "every w because the logistic loss is strictly positive, so {g(w) <= 0} is empty "
                "and w*, f*, D are undefined. Eqs (2)-(3) of FedSGM taken literally (level 0) are "
                "infeasible; use a level > 0 (the experiment's tolerance eps=0.1 corresponds to "
                "level=0.1).", {"level": self.level})
        d, decrease = self.recession_direction()
        scale = float(self._omega0 @ np.abs(self._rows0).sum(axis=1))
        if decrease > 1e-9 * scale:
            ts = [0.0, 1.0, 10.0, 100.0, 1000.0]
            f_t, g_t = self.global_values(np.outer(ts, d))
            raise NoSolutionError(
                f"neyman_pearson with level={self.level:g}: problem (1) has no minimiser (the "
                "infimum of f over {g <= 0} is not attained). The classes are weakly linearly "
                "separable: a direction d has x.d <= 0 on every objective-class row (< 0 on "
                "some) and x.d >= 0 on every constraint-class row, so along w + t d f strictly "
                "decreases and g does not increase from any feasible w. w* and D are undefined "
                f"(f(t d) for t={ts}: {np.round(f_t, 6).tolist()}; g: "
                f"{np.round(g_t, 6).tolist()}).",
                {"direction": d.tolist(), "decrease": decrease, "t": ts,
                 "f_along": f_t.tolist(), "g_along": g_t.tolist()})

    def _slater_candidates(self):
        return [] if self.slater_point is None else [self.slater_point]

    def _region(self, U):
        if self._kappa is None:
            zero0 = np.zeros_like(self._rows0)
            zero1 = np.zeros_like(self._rows1)
            self._kappa = linf_growth([
                (self._omega0, np.stack([self._rows0, zero0], axis=1)),
                (self._omega1, np.stack([-self._rows1, zero1], axis=1)),
            ])
        if self._kappa > 0:
            return "linf", np.zeros(self.dim), max(U + self.level, 0.0) / self._kappa
        return None

    def describe(self) -> dict:
        return {**super().describe(), "level": self.level,
                "counts_class0": self.counts0.tolist(), "counts_class1": self.counts1.tolist(),
                "data_sha256": sha256_of(self._rows0, self._rows1),
                "split": self.split, "generator": dict(self.params)}


def neyman_pearson_split(X, y, n_clients: int, rng: np.random.Generator, objective_class: int = 0,
                         *, level: float = 0.0) -> NeymanPearson:
    """Seeded stratified IID split of ``(X, y)`` over ``n_clients`` into a :class:`NeymanPearson`.

    Rows with ``y == objective_class`` form the objective class (f, "class 0" of (2)); the
    others form the constraint class (g). Each class is shuffled with ``rng.permutation`` and cut
    with ``np.array_split`` into ``n_clients`` parts, so per-class client counts differ by at most
    1. The constraint-class parts are assigned in reverse order (the larger parts go to the last
    clients), so that total client sizes also differ by at most 1 (569 = 212 + 357 over 10 clients
    gives sizes 56-57). Section 4.1's "equal number of samples and the same class ratio" cannot hold
    exactly for 569 samples, so the split is a choice the paper leaves open (this project's default).
    The indices used are stored in ``problem.split``.
    """
    X = as_array(X, "X", ndim=2)
    y = np.asarray(y)
    require(y.shape == (X.shape[0],), "y.shape", y.shape, f"({X.shape[0]},) labels, one per row")
    require(bool(np.all((y == 0) | (y == 1))), "y", "<labels>", "binary labels in {0, 1}")
    require(isinstance(n_clients, (int, np.integer)) and n_clients >= 1, "n_clients", n_clients,
            "an integer >= 1")
    require(isinstance(rng, np.random.Generator), "rng", type(rng).__name__,
            "a numpy.random.Generator")
    require(objective_class in (0, 1), "objective_class", objective_class, "0 or 1")
    idx0 = np.flatnonzero(y == objective_class)
    idx1 = np.flatnonzero(y == 1 - objective_class)
    require(min(len(idx0), len(idx1)) >= n_clients, "n_clients", n_clients,
            f"at most the smaller class count ({min(len(idx0), len(idx1))}) so every client has "
            "samples of both classes")
    parts0 = np.array_split(rng.permutation(idx0), n_clients)
    parts1 = np.array_split(rng.permutation(idx1), n_clients)[::-1]
    prob = NeymanPearson([X[p] for p in parts0], [X[p] for p in parts1], level=level)
    prob.split = {"objective_class": int(objective_class),
                  "class0_indices": [p.tolist() for p in parts0],
                  "class1_indices": [p.tolist() for p in parts1]}
    return prob
