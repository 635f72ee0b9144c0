"""Synthetic family 1 for FedSGM's theorems (the paper has no synthetic experiment; this project's
choice): 1-D piecewise-linear problem with a closed-form solution."""
from __future__ import annotations

import numpy as np

from repro.errors import require

from repro.papers.fedsgm.problems.common import as_array, check_iterates, check_point, sha256_of
from repro.papers.fedsgm.problems.base import ConvexLipschitzProblem, LocalOracle, Optimum

__all__ = ["PiecewiseLinear1D"]

_EPS = np.finfo(np.float64).eps


class PiecewiseLinear1D(ConvexLipschitzProblem):
    r"""``f_j(w) = G |w - a_j|``, ``g_j(w) = G (w - b_j)`` on R (d = 1).

    **Lipschitz constant.** ``f_j`` is G-Lipschitz (|G|w-a| - G|v-a|| <= G|w-v|) and its
    subdifferential is ``{G sign(w - a_j)}`` off the kink, ``[-G, G]`` at it; ``g_j`` is affine with
    slope G. So every subgradient of every f_j and g_j has norm <= G, with equality off the kinks:
    G is exact (tight), not just an upper bound.

    **Subgradient rule at kinks.** ``sign(0) = 0``: at ``w = a_j`` the oracle returns 0 for f_j.

    **Solution (closed form).** ``f = (G/n) sum_j |w - a_j|`` is minimised exactly on the median
    interval ``[lo, hi]`` of ``a`` (``lo = hi`` = the median for odd n; the two middle order
    statistics for even n), and is strictly decreasing left of ``lo``. ``g(w) = G (w - mean(b))``
    so the feasible set is ``w <= mean(b)``. Hence the constrained minimisers are
    ``[lo, min(hi, mean b)]`` if ``mean b >= lo`` (non-unique when this interval has positive
    length, e.g. even n with an inactive constraint) and ``{mean b}`` otherwise. ``solve(w0)``
    returns the one closest to ``w0``, i.e. ``w0`` clipped to that interval, then nudged down by a
    few ulps if needed so that ``g(w_star) <= 0`` holds in float64.
    """

    name = "piecewise_linear_1d"

    def __init__(self, a, b, G: float):
        a = as_array(a, "a", ndim=1)
        require(a.shape[0] >= 1, "a.shape", a.shape, "at least one client (n_clients >= 1)")
        b = as_array(b, "b", shape=(a.shape[0],))
        require(np.isfinite(G) and G > 0, "G", G, "a finite G > 0")
        self.a, self.b, self.G = a, b, float(G)
        self.n_clients, self.dim = int(a.shape[0]), 1
        self._solutions: dict[bytes, Optimum] = {}
        self.params: dict = {}

    def oracle(self, W: np.ndarray) -> LocalOracle:
        W = check_iterates(W, self.n_clients, 1)
        x = W[..., 0]                                     # (..., n)
        diff = x - self.a
        f = self.G * np.abs(diff)
        grad_f = (self.G * np.sign(diff))[..., None]      # sign(0) = 0
        g = self.G * (x - self.b)
        grad_g = np.full(W.shape, self.G)
        return LocalOracle(f=f, g=g, grad_f=grad_f, grad_g=grad_g)

    def minimiser_interval(self) -> tuple[float, float]:
        """The exact set of constrained minimisers ``[left, right]`` (a point when unique)."""
        s = np.sort(self.a)
        n = self.n_clients
        lo, hi = (s[(n - 1) // 2], s[(n - 1) // 2]) if n % 2 else (s[n // 2 - 1], s[n // 2])
        bbar = float(np.mean(self.b))
        if bbar >= lo:
            return float(lo), float(min(hi, bbar))
        return bbar, bbar

    def solve(self, w0: np.ndarray) -> Optimum:
        """Closed-form optimum; the minimiser closest to ``w0`` (see the class docstring)."""
        w0 = check_point(w0, 1)
        key = w0.tobytes()
        if key in self._solutions:
            return self._solutions[key]
        left, right = self.minimiser_interval()
        w = float(np.clip(w0[0], left, right))
        nudges = 0
        while float(self.global_values(np.array([w]))[1]) > 0 and nudges < 64:
            w = float(np.nextafter(w, -np.inf))
            nudges += 1
        w_star = np.array([w])
        w_star.setflags(write=False)
        f_star, g_star = (float(v) for v in self.global_values(w_star))
        scale = 1.0 + max(np.abs(self.a).max(), np.abs(self.b).max(), abs(w0[0]))
        tol = 16.0 * (self.n_clients + 1 + nudges) * _EPS * self.G * scale
        opt = Optimum(
            w_star=w_star, f_star=f_star, g_star=g_star, D=abs(float(w0[0]) - w),
            solver="closed form", tolerance=float(tol),
            details={"minimiser_set": [left, right], "minimiser_unique": left == right,
                     "constraint_bound": float(np.mean(self.b)), "ulp_nudges": nudges,
                     "certificate": "exact closed form; tolerance = float64 rounding bound",
                     "rigorous": True},
        )
        self._solutions[key] = opt
        return opt

    def describe(self) -> dict:
        return {**super().describe(), "a": self.a.tolist(), "b": self.b.tolist(),
                "data_sha256": sha256_of(self.a, self.b), "generator": dict(self.params)}
