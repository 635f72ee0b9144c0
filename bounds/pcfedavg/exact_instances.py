"""PC-FedAvg audit: the exact instances the step checks and findings are evaluated on.

Every instance has n = 1 and f_i(y) = (y - c_i)^2/2 (so L_f = 1), constraint sets X_i intervals, and a deterministic
oracle (nu = 0); all arithmetic is rational (sympy).

* :data:`LEMMA45_M_INSTANCE` and :func:`interval_instance`: x* (solution of (1)), x*_rho (minimizer of G_rho), M and
  (1/m) sum_i ||grad G_{i,rho}(x*_rho)||^2, by enumerating the active patterns -- the instance of (L4.5-d)'s
  "by the definition of M";
* :data:`PROP48_INSTANCES` (with :func:`instance_objective`, :func:`instance_penalty_cal_h` for cal-H of definition (2),
  and :func:`instance_args`): where (P4.8-a) and (P4.8-e) of the proof of Prop. 4.8 are evaluated;
* :func:`l45a_counterexample`: two agents off the synchronization index, where the equality of (L4.5-a) (proof of
  Lemma 4.5) fails.
"""
from __future__ import annotations

import functools
import itertools

import sympy as sp


LEMMA45_M_INSTANCE = {"c": (0, -1), "sigma": (1, 1), "X": ((0, 1), (-1, 1)), "rho": 2, "nu": 0}
"""m = 2, n = 1, f_i(y) = (y - c_i)^2/2 (P_i = 1, L_f = 1), X_i intervals, deterministic oracle (nu = 0)."""


@functools.lru_cache(maxsize=None)
def interval_instance(c=LEMMA45_M_INSTANCE["c"], sig=LEMMA45_M_INSTANCE["sigma"], X=LEMMA45_M_INSTANCE["X"],
                      rho_v=LEMMA45_M_INSTANCE["rho"]):
    """Exact x*, x*_rho, M (nu = 0) and (1/m) sum_i ||grad G_{i,rho}(x*_rho)||^2 for n = 1 intervals.

    Both problems are piecewise quadratic: every active pattern (lower / interior / upper for x*;
    below / inside / above for x*_rho) is solved in rational arithmetic; the consistent pattern is kept
    (unique: f is strictly convex). Gradients written out by hand.
    """
    m_ = len(c)
    c = [sp.Rational(v) for v in c]
    sig = [sp.Rational(v) for v in sig]
    lo = [sp.Rational(a) for a, _ in X]
    hi = [sp.Rational(b) for _, b in X]
    rho_v = sp.Rational(rho_v)
    xs = sp.symbols(f"_x0:{m_}", real=True)
    xbar = sum(xs) / m_
    f_expr = sum((xbar - c[i])**2 / 2 + sig[i] / 2 * (xs[i] - xbar)**2 for i in range(m_)) / m_

    def solve(expr, fixed, free):
        eqs = [sp.diff(expr, x).subs(fixed) for x in free]
        sol = sp.solve(eqs, free, dict=True) if free else [{}]
        return None if not sol else {**fixed, **sol[0]}

    x_star = []
    for pat in itertools.product("lui", repeat=m_):
        fixed = {xs[i]: (lo[i] if p == "l" else hi[i]) for i, p in enumerate(pat) if p != "i"}
        pt = solve(f_expr, fixed, [xs[i] for i, p in enumerate(pat) if p == "i"])
        if pt is None:
            continue
        g = [sp.diff(f_expr, xs[i]).subs(pt) for i in range(m_)]
        ok = all(lo[i] <= pt[xs[i]] <= hi[i] for i in range(m_)) and all(
            (g[i] >= 0 if p == "l" else g[i] <= 0) for i, p in enumerate(pat) if p != "i")
        if ok:
            x_star.append(tuple(pt[x] for x in xs))
    x_rho = []
    for pat in itertools.product("bia", repeat=m_):
        pen = sum(((lo[i] - xs[i])**2 if p == "b" else (xs[i] - hi[i])**2 if p == "a" else 0) / 2
                  for i, p in enumerate(pat))
        pt = solve(f_expr + rho_v / m_ * pen, {}, list(xs))
        if pt is None:
            continue
        ok = all((pt[xs[i]] < lo[i]) if p == "b" else (pt[xs[i]] > hi[i]) if p == "a" else (lo[i] <= pt[xs[i]] <= hi[i])
                 for i, p in enumerate(pat))
        if ok:
            x_rho.append(tuple(pt[x] for x in xs))
    assert len(set(x_star)) == 1 and len(set(x_rho)) == 1, (x_star, x_rho)
    xs_v, xr_v = x_star[0], x_rho[0]

    def grad_blocks(x, i, with_pen):
        xb = sum(x) / m_
        out = []
        for j in range(m_):
            v = (xb - c[i]) / m_ + sig[i] * ((1 if j == i else 0) - sp.Rational(1, m_)) * (x[i] - xb)
            if with_pen and j == i:
                v += rho_v * (x[i] - min(max(x[i], lo[i]), hi[i]))
            out.append(v)
        return out

    M_val = sum(sum(b**2 for b in grad_blocks(xs_v, i, False)) for i in range(m_)) / m_
    G_val = sum(sum(b**2 for b in grad_blocks(xr_v, i, True)) for i in range(m_)) / m_
    grad_G_rho = [sum(grad_blocks(xr_v, i, True)[j] for i in range(m_)) / m_ for j in range(m_)]
    return {"x_star": xs_v, "x_star_rho": xr_v, "M": M_val, "mean_sq_grad_G_at_x_star_rho": G_val,
            "grad_G_rho_at_x_star_rho": tuple(grad_G_rho), "m": m_, "rho": rho_v}


def instance_objective(c, sig):
    """Block variables and f(x) = (1/m) sum_i [f_i(A x) + sigma_i/2 (x_i - xbar)^2], f_i(y) = (y - c_i)^2/2 (n = 1),
    as in :func:`interval_instance`."""
    m_ = len(c)
    xs = sp.symbols(f"_x0:{m_}", real=True)
    xbar = sum(xs) / m_
    f_expr = sum((xbar - sp.Rational(c[i]))**2 / 2 + sp.Rational(sig[i]) / 2 * (xs[i] - xbar)**2
                 for i in range(m_)) / m_
    return xs, f_expr


def instance_penalty_cal_h(point, X):
    """cal-H(x) = (1/m) sum_i h_i(x_i), h_i = (x_i - Pi_{X_i} x_i)^2/2 (definition (2)), exactly."""
    lo_hi = [(sp.Rational(a), sp.Rational(b)) for a, b in X]
    return sum((v - min(max(v, lo), hi))**2 / 2 for v, (lo, hi) in zip(point, lo_hi)) / len(point)


PROP48_INSTANCES = (
    LEMMA45_M_INSTANCE,
    {"c": (2, -1), "sigma": (1, 2), "X": ((0, 1), (-1, 0)), "rho": 1},
    {"c": (3, 3, -2), "sigma": (sp.Rational(1, 2), 1, 3), "X": ((0, 1), (0, 2), (-1, 1)), "rho": 5},
)
"""Exact instances (n = 1, f_i(y) = (y - c_i)^2/2, X_i intervals) on which (P4.8-a) and (P4.8-e) are evaluated."""


def instance_args(d):
    """The positional arguments (c, sigma, X, rho) of :func:`interval_instance` for an instance dict, as hashable
    tuples."""
    return tuple(d["c"]), tuple(d["sigma"]), tuple(tuple(b) for b in d["X"]), d["rho"]


def l45a_counterexample() -> dict:
    """(L4.5-a)'s equality on a 2-agent, 1-d instance off the synchronization index: G_1 = 0, G_2 = 2x^2,
    x_1 = 1, x_2 = 0; ``lhs`` = sum_i (y_i - grad G(xbar))^2 and ``rhs`` = sum_i y_i^2 (the equality's sides)."""
    xx = sp.Symbol("_xx", real=True)
    G1, G2 = sp.Integer(0) * xx, 2 * xx**2
    x1v, x2v = sp.Integer(1), sp.Integer(0)
    y1, y2 = sp.diff(G1, xx).subs(xx, x1v), sp.diff(G2, xx).subs(xx, x2v)
    cG = sp.diff((G1 + G2) / 2, xx).subs(xx, (x1v + x2v) / 2)
    return {"y": (int(y1), int(y2)), "centre": int(cG), "lhs": int((y1 - cG)**2 + (y2 - cG)**2),
            "rhs": int(y1**2 + y2**2)}
