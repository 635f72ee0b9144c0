"""Synthetic family 2 for FedSGM's theorems (the paper has no synthetic experiment; this project's
choice): max-affine objectives and constraints, solved as an LP."""
from __future__ import annotations

import numpy as np
import scipy.sparse as sps

from repro.errors import require

from repro.papers.fedsgm.problems.common import (
    as_array, check_iterates, check_point, client_sample_array, rowdot, sha256_of,
)
from repro.papers.fedsgm.problems.solve import CertifiedProblem, linf_growth, run_solvers
from repro.papers.fedsgm.problems.base import LocalOracle

__all__ = ["MaxAffine"]


class MaxAffine(CertifiedProblem):
    r"""``f_j(w) = max_k (C_f[j,k] . w + e_f[j,k])``, ``g_j(w) = max_l (C_g[j,l] . w + e_g[j,l])``.

    Parameters
    ----------
    C_f : (n, K, d) slopes of the K objective pieces of each client; ``e_f`` : (n, K) offsets.
    C_g : (n, L, d) slopes of the L constraint pieces; ``e_g`` : (n, L) offsets.
    slater_point : optional (d,) point with ``g < 0`` (used to repair solver infeasibility).

    **Lipschitz constant.** The subdifferential of a max of affine functions at w is the convex
    hull of the slopes of the pieces active at w, so every subgradient of ``f_j`` has norm
    ``<= max_k ||C_f[j,k]||`` (a norm is convex, its max over a hull is at a vertex), and
    likewise for ``g_j``. ``G = max(max_{j,k} ||C_f[j,k]||, max_{j,l} ||C_g[j,l]||)`` is computed
    from the data and is tight whenever the longest piece is active somewhere.

    **Subgradient rule at kinks.** The oracle returns the slope of the active piece with the
    LOWEST index among those attaining the (float64-computed) maximum (``np.argmax``).

    **Solution.** Stage 1 is the epigraph LP ``min mean(t) s.t. C_f[j] w + e_f[j] <= t_j,
    C_g[j] w + e_g[j] <= u_j, mean(u) <= 0``. Its multipliers ``mu_j, nu_j`` (normalised to the
    simplex) and ``lambda`` give the global affine minorant
    ``f(w) + lambda g(w) >= mean_j [sum_k mu_jk (C_f w + e_f) + lambda sum_l nu_jl (C_g w + e_g)]``.
    The region containing all minimisers is the inf-norm ball of radius
    ``(U - mean_j min_k e_f[j,k]) / kappa_f`` with ``kappa_f = min_{||u||_inf=1} mean_j max_k
    C_f[j,k].u`` (recession function of f, by 2d LPs), since ``f(w) >= kappa_f ||w||_inf +
    mean_j min_k e_f[j,k]``; if ``kappa_f <= 0`` the same with ``f + g`` and the g offsets.
    Minimisers of an LP are generally not unique, so stage 2 (closest to w0) always runs.
    """

    name = "max_affine"

    def __init__(self, C_f, e_f, C_g, e_g, *, slater_point=None):
        super().__init__()
        C_f, n, K, d = client_sample_array(C_f, "C_f", "objective piece")
        e_f = as_array(e_f, "e_f", shape=(n, K))
        C_g = as_array(C_g, "C_g", shape=(n, None, d))
        require(C_g.shape[1] >= 1, "C_g.shape[1]", C_g.shape[1], "at least one constraint piece")
        e_g = as_array(e_g, "e_g", shape=(n, C_g.shape[1]))
        G = float(max(np.linalg.norm(C_f, axis=-1).max(), np.linalg.norm(C_g, axis=-1).max()))
        require(G > 0, "C_f, C_g", "all-zero slopes", "at least one nonzero slope (G > 0)")
        self.C_f, self.e_f, self.C_g, self.e_g = C_f, e_f, C_g, e_g
        self.n_clients, self.dim, self.G = int(n), int(d), G
        self.slater_point = None if slater_point is None else check_point(slater_point, d,
                                                                          "slater_point")
        self._growth: dict[str, float] = {}
        self.params: dict = {}
        # f's and g's pieces side by side, so that the oracle evaluates every piece in one product
        self._pieces = np.concatenate([C_f, C_g], axis=1)          # (n, K + L, d)
        self._offsets = np.concatenate([e_f, e_g], axis=1)         # (n, K + L)
        self._clients = np.arange(n)

    # ---------------------------------------------------------------- oracle
    def oracle(self, W: np.ndarray) -> LocalOracle:
        """Every piece's value in one product; the max over f's pieces and over g's, and the active pieces' slopes
        (the lowest index on ties) as subgradients."""
        W = check_iterates(W, self.n_clients, self.dim)
        vals = rowdot(W, self._pieces) + self._offsets               # (..., n, K + L)
        K = self.C_f.shape[1]
        f_vals, g_vals = vals[..., :K], vals[..., K:]
        grad_f = self.C_f[self._clients, f_vals.argmax(axis=-1)]     # (..., n, d)
        grad_g = self.C_g[self._clients, g_vals.argmax(axis=-1)]
        return LocalOracle(f=f_vals.max(axis=-1), g=g_vals.max(axis=-1), grad_f=grad_f, grad_g=grad_g)

    # ----------------------------------------------------------------- cvxpy
    _cvx_reusable = True

    def _cvx_data(self):
        """The pieces stacked over clients; with n_clients in every compiled problem's key, K and L follow from
        the stacked shapes."""
        n, K, d = self.C_f.shape
        L = self.C_g.shape[1]
        return {"C_f": self.C_f.reshape(n * K, d), "e_f": self.e_f.ravel(),
                "C_g": self.C_g.reshape(n * L, d), "e_g": self.e_g.ravel()}

    def _cvx_max(self, w, C, e, pieces: int):
        import cvxpy as cp

        n = self.n_clients
        return cp.sum(cp.max(cp.reshape(C @ w + e, (n, pieces), order="C"), axis=1)) / n

    def _cvx_f(self, w, p):
        return self._cvx_max(w, p["C_f"], p["e_f"], self.C_f.shape[1])

    def _cvx_g(self, w, p):
        return self._cvx_max(w, p["C_g"], p["e_g"], self.C_g.shape[1])

    def _minimiser_is_unique(self) -> bool:
        return False

    def _slater_candidates(self):
        return [] if self.slater_point is None else [self.slater_point]

    def _stage1(self) -> dict:
        import cvxpy as cp

        n, K, d = self.C_f.shape
        L = self.C_g.shape[1]

        def build(p):
            w, t, u = cp.Variable(d), cp.Variable(n), cp.Variable(n)
            S_f = sps.kron(sps.eye(n), np.ones((K, 1)), format="csr")
            S_g = sps.kron(sps.eye(n), np.ones((L, 1)), format="csr")
            c_f = p["C_f"] @ w + p["e_f"] <= S_f @ t
            c_g = p["C_g"] @ w + p["e_g"] <= S_g @ u
            c_lam = cp.sum(u) / n <= 0
            return cp.Problem(cp.Minimize(cp.sum(t) / n), [c_f, c_g, c_lam]), w, c_f, c_g, c_lam

        prob, w, c_f, c_g, c_lam = self._cvx_problem("stage 1 (LP)", build)

        def extract():
            if w.value is None or c_f.dual_value is None:
                return None
            lam = c_lam.dual_value
            return {"w": np.array(w.value, dtype=np.float64).ravel(),
                    "lam": 0.0 if lam is None else max(float(np.ravel(lam)[0]), 0.0),
                    "mu": np.array(c_f.dual_value, dtype=np.float64).reshape(n, K),
                    "nu": (np.full((n, L), 1.0 / L) if c_g.dual_value is None else
                           np.array(c_g.dual_value, dtype=np.float64).reshape(n, L))}

        solver, status, values, attempts = run_solvers(prob, extract)
        return {"solver": solver, "status": status, "attempts": attempts, **(values or {})}

    @staticmethod
    def _simplex_rows(M: np.ndarray) -> np.ndarray:
        M = np.clip(M, 0.0, None)
        s = M.sum(axis=1, keepdims=True)
        uniform = np.full_like(M, 1.0 / M.shape[1])
        return np.where(s > 0, M / np.where(s > 0, s, 1.0), uniform)

    def _affine_minorant(self, st):
        n = self.n_clients
        mu, nu, lam = self._simplex_rows(st["mu"]), self._simplex_rows(st["nu"]), st["lam"]
        a = (mu[..., None] * self.C_f).sum(axis=(0, 1)) / n \
            + lam * (nu[..., None] * self.C_g).sum(axis=(0, 1)) / n
        b = float((mu * self.e_f).sum() / n + lam * (nu * self.e_g).sum() / n)
        return a, b

    def _kappa(self, which: str) -> float:
        if which not in self._growth:
            w = np.full(self.n_clients, 1.0 / self.n_clients)
            groups = [(w, self.C_f)] + ([(w, self.C_g)] if which == "f+g" else [])
            self._growth[which] = linf_growth(groups)
        return self._growth[which]

    def _region(self, U):
        Ef = float(self.e_f.min(axis=1).mean())
        Eg = float(self.e_g.min(axis=1).mean())
        zero = np.zeros(self.dim)
        k = self._kappa("f")
        if k > 0:
            return "linf", zero, max(U - Ef, 0.0) / k
        k = self._kappa("f+g")
        if k > 0:
            return "linf", zero, max(U - Ef - Eg, 0.0) / k
        return None

    def describe(self) -> dict:
        return {**super().describe(), "n_pieces": int(self.C_f.shape[1]),
                "n_constraint_pieces": int(self.C_g.shape[1]),
                "data_sha256": sha256_of(self.C_f, self.e_f, self.C_g, self.e_g),
                "generator": dict(self.params)}
