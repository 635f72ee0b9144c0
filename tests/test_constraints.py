"""Tests of repro.constraints: Euclidean projections onto the constraint sets of PC-FedAvg's
theory checks and of its Section 5 experiments.

References used here, independent of the code under test:
* the l1-ball projection is compared with bisection on the threshold theta (Duchi et al. 2008: the map
  theta -> sum_l max(|v_l| - theta, 0) is decreasing) and with cvxpy/Clarabel;
* every set kind is checked against the characterisation of the Euclidean projection onto a closed
  convex set: P(x) in X and <x - P(x), y - P(x)> <= 0 for all y in X (variational inequality),
  plus idempotence, nonexpansiveness and distance = ||x - P(x)||. That the VI check is not vacuous
  is shown on deliberately wrong maps.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import repro.constraints as C
from repro.constraints import (Box, ConstraintSet, L1Ball, L2Ball, ProductSet, Whole, from_description,
                               project_l1_ball)
from repro.errors import ConfigError

TINY = 1e-300


# ---------------------------------------------------------------------------- references
def l1_ref_bisection(v, tau, iters: int = 200) -> np.ndarray:
    """Projection onto {||x||_1 <= tau} by bisection on theta, row by row (written independently)."""
    v = np.asarray(v, dtype=float)
    V = v.reshape(-1, v.shape[-1])
    taus = np.broadcast_to(np.asarray(tau, dtype=float), v.shape[:-1]).reshape(-1)
    out = V.copy()
    for i, (row, t) in enumerate(zip(V, taus)):
        a = np.abs(row)
        if a.sum() <= t:
            continue
        lo, hi = 0.0, a.max()                      # f(lo) = ||v||_1 - t > 0 >= f(hi) = -t
        for _ in range(iters):
            mid = 0.5 * (lo + hi)
            if np.maximum(a - mid, 0.0).sum() > t:
                lo = mid
            else:
                hi = mid
            if hi - lo <= 4e-16 * max(hi, 1e-300):
                break
        out[i] = np.sign(row) * np.maximum(a - hi, 0.0)
    return out.reshape(v.shape)


def l1_ref_bisection_rows(V, tau, iters: int = 80) -> np.ndarray:
    """Vectorised bisection (for the d = 30720 rows); 80 halvings reach float64 resolution."""
    A = np.abs(V)
    lo, hi = np.zeros(len(V)), A.max(axis=1)
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        big = np.maximum(A - mid[:, None], 0.0).sum(axis=1) > tau
        lo, hi = np.where(big, mid, lo), np.where(big, hi, mid)
    inside = A.sum(axis=1) <= tau
    P = np.sign(V) * np.maximum(A - hi[:, None], 0.0)
    return np.where(inside[:, None], V, P)


def l1_ref_cvxpy(v, tau) -> np.ndarray:
    import cvxpy as cp
    x = cp.Variable(len(v))
    prob = cp.Problem(cp.Minimize(cp.sum_squares(x - v)), [cp.norm(x, 1) <= tau])
    prob.solve(solver=cp.CLARABEL, tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
    assert prob.status == "optimal"
    return np.asarray(x.value)


def vi_holds(project, x, ys, rtol: float = 1e-9) -> bool:
    """<x - P(x), y - P(x)> <= rtol * scale^2 for every y in ys (all assumed to lie in the set)."""
    x = np.asarray(x, dtype=float)
    p = np.asarray(project(x), dtype=float)
    ys = np.atleast_2d(np.asarray(ys, dtype=float))
    scale = max(1.0, float(np.abs(x).max()), float(np.abs(ys).max()), float(np.abs(p).max()))
    inner = (ys - p) @ (x - p)
    return bool(np.all(inner <= rtol * scale * scale))


# ---------------------------------------------------------------------------- l1-ball projection
def l1_cases():
    rng = np.random.default_rng(11)
    cases = [
        ("random small tau", rng.normal(size=7), 0.01),
        ("random mid tau", rng.normal(size=7) * 5, 3.0),
        ("random large tau (inside)", rng.normal(size=7), 100.0),
        ("ties", np.array([2.0, 2.0, 2.0, -2.0, 1.0, 1.0]), 3.0),
        ("ties at threshold", np.array([3.0, 1.0, -1.0, 1.0]), 2.0),
        ("all equal", np.full(9, -0.7), 1.0),
        ("zeros inside", np.zeros(5), 1.0),
        ("zeros, radius 0", np.zeros(5), 0.0),
        ("sparse", np.array([0.0, 0.0, 3.0, 0.0, -0.5]), 1.0),
        ("radius 0", rng.normal(size=6), 0.0),
        ("d = 1 outside", np.array([-4.0]), 1.5),
        ("d = 1 inside", np.array([0.25]), 1.5),
        ("boundary", np.array([0.5, -0.25, 0.25]), 1.0),
        ("tau just below norm", np.array([1.0, -2.0, 3.0]), 6.0 - 1e-9),
        ("d = 200 (filter path)", rng.standard_t(3, size=200), 4.0),
        ("d = 200 dense answer", rng.normal(size=200), 120.0),
    ]
    return cases


@pytest.mark.parametrize("label, v, tau", l1_cases(), ids=[c[0] for c in l1_cases()])
def test_l1_matches_bisection_and_cvxpy(label, v, tau):
    p = project_l1_ball(v, tau)
    ref = l1_ref_bisection(v, tau)
    scale = max(1.0, float(np.abs(v).max()))
    np.testing.assert_allclose(p, ref, rtol=0, atol=1e-12 * scale)
    assert np.abs(p).sum() <= tau * (1 + 1e-12) + TINY
    if np.abs(v).sum() <= tau:
        np.testing.assert_array_equal(p, v)                       # returned unchanged
    cv = l1_ref_cvxpy(v, tau)
    assert np.linalg.norm(p - cv) <= 1e-6 * max(1.0, np.linalg.norm(v)), (p, cv)


def test_l1_batch_and_row_radii_match_rows():
    rng = np.random.default_rng(3)
    V = rng.normal(size=(3, 4, 10)) * rng.uniform(0.1, 10, size=(3, 4, 1))
    V[0, 0] = 0.0
    V[1, 2, :5] = 2.5                                              # ties
    tau = rng.uniform(0, 12, size=(3, 4))
    tau[2, 3] = 0.0
    tau[0, 1] = 1e9                                                # inside
    P = project_l1_ball(V, tau)
    assert P.shape == V.shape and P.dtype == np.float64
    np.testing.assert_allclose(P, l1_ref_bisection(V, tau), rtol=0, atol=1e-11)
    for i in range(3):
        for j in range(4):
            np.testing.assert_array_equal(P[i, j], project_l1_ball(V[i, j], tau[i, j]))
    # scalar radius broadcast and a radius per leading row
    np.testing.assert_array_equal(project_l1_ball(V, 2.0), project_l1_ball(V, np.full((3, 4), 2.0)))
    np.testing.assert_array_equal(project_l1_ball(V, tau[:, :1] * 0 + 2.0), project_l1_ball(V, 2.0))


@pytest.mark.parametrize("tau", [1e-3, 1.0, 100.0, 3000.0, 20000.0, 24000.0, 1e6])
def test_l1_large_dim_vs_bisection_and_pure_sort(tau):
    """d = 30720 (CIFAR-10 softmax, n = pC): Michelot's passes == full sort == bisection; inside rows unchanged."""
    rng = np.random.default_rng(int(tau * 10) % 1000)
    X = rng.normal(size=(4, 30720))
    X[1] *= 1e-3                                                   # row 1 may be inside the ball
    X[2, :100] *= 50.0                                             # heavy head
    r = np.array([tau, tau, tau / 2, 2 * tau])
    P = ProductSet.l1_balls(r, dim=30720).project(X)
    full = C._project_l1(X, r, prefilter=False)
    np.testing.assert_allclose(P, full, rtol=0, atol=1e-12)
    np.testing.assert_allclose(P, l1_ref_bisection_rows(X, r), rtol=0, atol=1e-10)
    norms = np.abs(P).sum(axis=1)
    assert np.all(norms <= r * (1 + 1e-12))
    inside = np.abs(X).sum(axis=1) <= r
    np.testing.assert_array_equal(P[inside], X[inside])
    assert np.allclose(norms[~inside], r[~inside], rtol=1e-12)    # outside rows land on the sphere


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("passes", [0, 1, 2])
def test_l1_michelot_passes_and_their_sort_fallback_agree(passes, sparse, monkeypatch):
    """Michelot's passes settle on theta (no sort) or, capped before they settle, hand the candidates to the sort
    (compressed to the rows' candidates when every row's projection is sparse): on the same rows at d = 30720 both
    give the same projection to rounding, and the bisection's."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(4, 30720))
    X[2, :100] *= 50.0
    r = np.array([20.0, 50.0, 200.0, 30.0]) if sparse else np.array([20.0, 2_000.0, 20_000.0, 200.0])
    settled = C._project_l1(X, r)
    sorted_shapes = []
    real = C._l1_threshold
    monkeypatch.setattr(C, "_l1_threshold", lambda *a: sorted_shapes.append(a[0].shape) or real(*a))
    monkeypatch.setattr(C, "_FILTER_PASSES", passes)
    capped = C._project_l1(X, r)
    assert sorted_shapes, "these rows never settle within 2 passes: the sort must decide"
    assert (sorted_shapes[0][1] < 30720) == sparse          # the sort sees only the candidates when they are few
    np.testing.assert_allclose(capped, settled, rtol=0, atol=1e-13 * np.abs(X).max())
    np.testing.assert_allclose(settled, l1_ref_bisection_rows(X, r), rtol=0, atol=1e-10)


def test_l1_michelot_passes_settle_without_a_sort_on_these_rows(monkeypatch):
    """The passes' fast path is taken: on standard normal rows at d = 30720, sparse and dense, no sort."""
    monkeypatch.setattr(C, "_l1_threshold", lambda *a: pytest.fail("sorted although the passes settle"))
    X = np.random.default_rng(7).normal(size=(4, 30720))
    r = np.array([20.0, 2_000.0, 20_000.0, 200.0])
    np.testing.assert_allclose(C._project_l1(X, r), l1_ref_bisection_rows(X, r), rtol=0, atol=1e-10)


@given(
    v=hnp.arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 90)),
                 elements=st.floats(-100, 100, allow_nan=False, width=64)),
    tau=st.one_of(st.just(0.0), st.floats(1e-6, 1e3)),
    scale=st.sampled_from([1.0, 1e-150, 1e150]),
)
def test_l1_hypothesis_vs_bisection(v, tau, scale):
    v, tau = v * scale, tau * scale
    p = project_l1_ball(v, tau)
    assert np.all(np.isfinite(p))
    assert np.all(np.abs(p).sum(axis=-1) <= tau * (1 + 1e-12) + TINY)
    assert np.all(np.abs(p) <= np.abs(v)) and np.all(p * v >= 0)  # shrinks toward 0, keeps signs
    ref = l1_ref_bisection(v, tau)
    np.testing.assert_allclose(p, ref, rtol=0, atol=1e-12 * max(TINY, float(np.abs(v).max(initial=0))))
    # the filtered and the pure sort paths agree
    np.testing.assert_allclose(p, C._project_l1(v, np.float64(tau), prefilter=False), rtol=0,
                               atol=1e-13 * max(TINY, float(np.abs(v).max(initial=0))))


def test_l1_edge_cases():
    # radius 0 gives exactly the zero vector; so does a zero vector
    np.testing.assert_array_equal(project_l1_ball([3.0, -1.0, 2.0], 0.0), np.zeros(3))
    np.testing.assert_array_equal(project_l1_ball(np.zeros(4), 0.0), np.zeros(4))
    # exact ties: theta = 2, then 4 equal entries sharing tau = 2
    np.testing.assert_allclose(project_l1_ball([3.0, 3.0, -3.0, 1.0], 3.0), [1.0, 1.0, -1.0, 0.0],
                               rtol=0, atol=1e-15)
    np.testing.assert_allclose(project_l1_ball([1.0, 1.0, 1.0, 1.0], 2.0), [0.5] * 4, rtol=0, atol=1e-15)
    # on the boundary (dyadic, exact): unchanged bit for bit
    v = np.array([0.5, -0.25, 0.125, 0.125])
    np.testing.assert_array_equal(project_l1_ball(v, 1.0), v)
    # huge / +inf radius: unchanged
    v = np.random.default_rng(0).normal(size=(3, 50))
    np.testing.assert_array_equal(project_l1_ball(v, 1e300), v)
    np.testing.assert_array_equal(project_l1_ball(v, np.inf), v)
    # tiny radius: the largest entry keeps tau
    p = project_l1_ball([1.0, -5.0, 2.0], 1e-300)
    np.testing.assert_array_equal(p, [0.0, -1e-300, 0.0])
    p = project_l1_ball([[5.0, -5.0, 2.0]], 1e-300)                         # tied maxima share it
    np.testing.assert_allclose(p, [[5e-301, -5e-301, 0.0]], rtol=1e-15, atol=0)
    # entries near the float64 maximum: ||v||_1 overflows, the projection does not
    v = np.full(50, 1e307) * np.where(np.arange(50) % 2, -1, 1)
    p = project_l1_ball(v, 1e308)
    assert np.all(np.isfinite(p)) and np.abs(p).sum() <= 1e308 * (1 + 1e-12)
    np.testing.assert_allclose(np.abs(p), 2e306, rtol=1e-12)
    # subnormal entries
    v = np.array([3e-320, -1e-320, 2e-320])
    p = project_l1_ball(v, 2e-320)
    assert np.all(np.isfinite(p)) and np.abs(p).sum() <= 2e-320 + TINY
    # ill-conditioned: many equal huge entries and a small radius (|v| - theta cancels)
    v = 1e6 + np.random.default_rng(1).uniform(0, 1e-6, size=30720)
    p = project_l1_ball(v, 1.0)
    assert np.abs(p).sum() <= 1.0 * (1 + 1e-12)
    assert np.abs(p).sum() >= 1.0 - 1e-6 and np.all(p >= 0)


# ---------------------------------------------------------------------------- every set kind
@st.composite
def constraint_sets(draw, dim=None, kinds=("box", "l2_ball", "l1_ball", "whole")):
    dim = dim if dim is not None else draw(st.integers(1, 6))
    kind = draw(st.sampled_from(kinds))
    fl = st.floats(-20, 20, allow_nan=False)
    if kind == "box":
        lo = np.array(draw(st.lists(fl, min_size=dim, max_size=dim)))
        width = np.array(draw(st.lists(st.floats(0, 10), min_size=dim, max_size=dim)))
        lo_inf = np.array(draw(st.lists(st.booleans(), min_size=dim, max_size=dim)))
        up_inf = np.array(draw(st.lists(st.booleans(), min_size=dim, max_size=dim)))
        return Box(np.where(lo_inf, -np.inf, lo), np.where(up_inf, np.inf, lo + width))
    if kind == "l2_ball":
        center = np.array(draw(st.lists(fl, min_size=dim, max_size=dim)))
        return L2Ball(center, draw(st.one_of(st.just(0.0), st.floats(0, 30))))
    if kind == "l1_ball":
        return L1Ball(draw(st.one_of(st.just(0.0), st.floats(0, 30))), dim)
    return Whole(dim)


def points(dim, n):
    return hnp.arrays(np.float64, (n, dim), elements=st.floats(-60, 60, allow_nan=False, width=64))


def check_projection_properties(S: ConstraintSet, X: np.ndarray, Y: np.ndarray) -> None:
    P = S.project(X)
    assert P.shape == X.shape and P.dtype == np.float64
    scale = max(1.0, float(np.abs(X).max()), float(np.abs(Y).max()))
    # in the set, idempotent
    assert S.contains(P, tol=1e-12).all()
    np.testing.assert_allclose(S.project(P), P, rtol=0, atol=1e-12 * scale)
    # variational inequality against feasible points (projections of Y, and P itself)
    feas = np.vstack([S.project(Y), P])
    for x in X:
        assert vi_holds(S.project, x, feas)
    # nonexpansive
    PY = S.project(Y)
    n = min(len(X), len(Y))
    lhs = np.linalg.norm(P[:n] - PY[:n], axis=1)
    rhs = np.linalg.norm(X[:n] - Y[:n], axis=1)
    assert np.all(lhs <= rhs * (1 + 1e-12) + 1e-12 * scale)
    # distance
    dist = S.distance(X)
    assert dist.shape == X.shape[:-1]
    np.testing.assert_allclose(dist, np.linalg.norm(X - P, axis=-1), rtol=1e-9, atol=1e-12 * scale)
    assert np.all(S.distance(P) <= 1e-9 * scale)
    inside = S.contains(X, tol=0.0)
    assert np.all(dist[inside] == 0.0)
    assert np.all(S.contains(X, tol=0.0) == (dist == 0.0)) or S.kind == "l1_ball"


@given(data=st.data())
def test_projection_properties_every_kind(data):
    S = data.draw(constraint_sets())
    n = data.draw(st.integers(1, 4))
    X = data.draw(points(S.dim, n))
    Y = data.draw(points(S.dim, n))
    check_projection_properties(S, X, Y)


@pytest.mark.parametrize("S", [
    Box([-1.0, -np.inf, 0.0], [1.0, 2.0, np.inf]),
    Box(-np.inf, np.inf, dim=3),
    Box(0.0, 0.0, dim=3),                                       # a point
    L2Ball([1.0, -2.0, 3.0], 0.0),                              # a point
    L2Ball([1e6, -1e6, 3.0], 1e-3),                             # huge centre, small radius
    L1Ball(0.0, 3),
    L1Ball(1e-8, 3),
    Whole(3),
], ids=repr)
def test_projection_properties_fixed_sets(S):
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal(size=(6, 3)) * 10, np.zeros((1, 3)), [[1e200, -1e200, 3.0]],
                   [[1e-200, 0.0, -1e-200]]])
    Y = rng.normal(size=(9, 3)) * 10
    P = S.project(X)
    assert np.all(np.isfinite(P)) and S.contains(P).all()
    check_projection_properties(S, X[:7], Y)


def test_closed_forms():
    b = Box([-1.0, 0.0], [1.0, np.inf])
    np.testing.assert_array_equal(b.project([[5.0, -3.0], [0.5, 1e300]]), [[1.0, 0.0], [0.5, 1e300]])
    np.testing.assert_allclose(b.distance([[5.0, -3.0]]), [5.0])
    ball = L2Ball([1.0, 1.0], 2.0)
    np.testing.assert_allclose(ball.project([7.0, 9.0]), [1 + 2 * 0.6, 1 + 2 * 0.8])
    np.testing.assert_allclose(ball.distance([7.0, 9.0]), 8.0)
    np.testing.assert_array_equal(ball.project([1.5, 0.5]), [1.5, 0.5])   # inside: bit for bit
    np.testing.assert_array_equal(L2Ball([2.0, 3.0], 0.0).project([[1e-200, 0.0]]), [[2.0, 3.0]])
    p = L2Ball([0.0, 0.0], 1.0).project([1e200, 1e200])                  # no overflow in the norm
    np.testing.assert_allclose(p, [2 ** -0.5, 2 ** -0.5])
    assert L2Ball([0.0, 0.0], 1.0).distance([1e200, 1e200]) == pytest.approx(2 ** 0.5 * 1e200)
    assert L2Ball([0.0, 0.0], 0.0).distance([3e-200, 4e-200]) == pytest.approx(5e-200)   # no underflow
    w = Whole(2)
    x = np.array([[1.0, -2.0]])
    np.testing.assert_array_equal(w.project(x), x)
    assert w.project(x) is not x
    np.testing.assert_array_equal(w.distance(x), [0.0])


def test_vi_check_rejects_wrong_projections():
    """The VI check is not vacuous: feasible but wrong maps fail it, the true projection passes."""
    tau = 1.0
    verts = np.vstack([np.eye(2), -np.eye(2)]) * tau                      # extreme points of the ball
    x = np.array([3.0, 1.0])

    def scale_instead(z):                                                 # feasible, not the projection
        return z * min(1.0, tau / np.abs(z).sum())

    def soft_threshold_half_radius(z):                                    # projection onto a smaller ball
        return project_l1_ball(z, tau / 2)

    assert np.abs(scale_instead(x)).sum() <= tau
    assert not vi_holds(scale_instead, x, verts)
    assert not vi_holds(soft_threshold_half_radius, x, verts)
    assert vi_holds(lambda z: project_l1_ball(z, tau), x, verts)
    np.testing.assert_allclose(project_l1_ball(x, tau), [1.0, 0.0])
    # same for the l2 ball: radial scaling in the l1 norm is not the Euclidean projection
    ball = L2Ball([0.0, 0.0], 1.0)
    circle = np.stack([np.cos(np.linspace(0, 2 * np.pi, 64)), np.sin(np.linspace(0, 2 * np.pi, 64))], 1)
    assert not vi_holds(lambda z: z / np.abs(z).sum(), x, circle)
    assert vi_holds(ball.project, x, circle)
    # and for a box: scaling into the box instead of clipping
    box = Box([-1.0, -1.0], [1.0, 1.0])
    corners = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]])
    assert not vi_holds(lambda z: z / np.abs(z).max(), x, corners)
    assert vi_holds(box.project, x, corners)


@pytest.mark.parametrize("S", [Box([-1.0, 0.0, -np.inf], [1.0, 2.0, 0.5]), L2Ball([1.0, -1.0, 0.5], 1.5),
                               L1Ball(2.0, 3), Whole(3)], ids=repr)
def test_projection_matches_cvxpy(S):
    import cvxpy as cp
    rng = np.random.default_rng(9)
    for x in rng.normal(size=(3, 3)) * 4:
        y = cp.Variable(3)
        prob = cp.Problem(cp.Minimize(cp.sum_squares(y - x)), S.cvxpy_constraints(y))
        prob.solve(solver=cp.CLARABEL, tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12)
        assert np.linalg.norm(S.project(x) - y.value) <= 1e-6 * max(1.0, np.linalg.norm(x))
    Y = cp.Variable((2, 3))                                              # row-wise form
    assert isinstance(S.cvxpy_constraints(Y), list)


# ---------------------------------------------------------------------------- product sets
@given(data=st.data())
def test_product_set_equals_per_agent(data):
    dim = data.draw(st.integers(1, 5))
    m = data.draw(st.integers(1, 6))
    sets = [data.draw(constraint_sets(dim=dim)) for _ in range(m)]
    batch = data.draw(st.sampled_from([(), (2,), (2, 3)]))
    X = data.draw(hnp.arrays(np.float64, batch + (m, dim), elements=st.floats(-60, 60, allow_nan=False)))
    ps = ProductSet(sets)
    assert (ps.m, ps.dim, ps.sets) == (m, dim, tuple(sets))
    P, D, inside = ps.project(X), ps.distance(X), ps.contains(X)
    assert P.shape == X.shape and D.shape == X.shape[:-1] and inside.shape == X.shape[:-1]
    for i, S in enumerate(sets):
        scale = max(1.0, float(np.abs(X[..., i, :]).max()))
        np.testing.assert_allclose(P[..., i, :], S.project(X[..., i, :]), rtol=0, atol=1e-12 * scale)
        np.testing.assert_allclose(D[..., i], S.distance(X[..., i, :]), rtol=1e-12, atol=1e-12 * scale)
        np.testing.assert_array_equal(inside[..., i], S.contains(X[..., i, :]))
    assert ps.contains(P).all()
    json.dumps(ps.describe(), allow_nan=False)


def test_product_set_groups_agents_without_python_loop(monkeypatch):
    """All-l1 agents: exactly one kernel call with the stacked radii; mixed kinds: one per kind."""
    calls = []
    real = C._project_l1

    def spy(x, radius, prefilter=True):
        calls.append((x.shape, np.shape(radius)))
        return real(x, radius, prefilter)

    monkeypatch.setattr(C, "_project_l1", spy)
    ps = ProductSet.l1_balls([1.0, 2.0, 3.0, 4.0], dim=50)
    X = np.random.default_rng(0).normal(size=(7, 4, 50))
    ps.project(X)
    assert calls == [((7, 4, 50), (4,))]
    calls.clear()
    mixed = ProductSet([L1Ball(1.0, 5), Box(-1, 1, dim=5), L1Ball(2.0, 5), Whole(5), L2Ball(np.zeros(5), 1.0)])
    mixed.project(np.ones((3, 5, 5)))
    assert calls == [((3, 2, 5), (2,))]


def test_product_set_constructors_and_description():
    lo = np.array([[-1.0, 0.0], [-np.inf, 1.0], [0.0, 0.0]])
    up = np.array([[1.0, 2.0], [0.0, np.inf], [0.0, 0.0]])
    ps = ProductSet.boxes(lo, up)
    X = np.array([[5.0, -5.0], [3.0, 0.0], [1.0, 1.0]])
    np.testing.assert_array_equal(ps.project(X), np.clip(X, lo, up))
    desc = ps.describe()
    text = json.dumps(desc, allow_nan=False)
    assert desc[1] == {"kind": "box", "dim": 2, "lower": [None, 1.0], "upper": [0.0, None]}
    back = from_description(json.loads(text))
    np.testing.assert_array_equal(back.project(X), ps.project(X))
    l1 = ProductSet.l1_balls(np.array([1.0, 0.0, 3.0]), dim=4)
    assert l1.describe()[2] == {"kind": "l1_ball", "dim": 4, "radius": 3.0}
    for S in (L2Ball([1.0, 2.0], 0.5), Whole(2), L1Ball(3.0, 2), Box(0.0, 1.0, dim=2)):
        d = S.describe()
        assert d["kind"] == S.kind and json.loads(json.dumps(d, allow_nan=False)) == d
        np.testing.assert_array_equal(from_description(d).project(X), S.project(X))


# ---------------------------------------------------------------------------- bad inputs
BAD = [
    ("negative radius l1", lambda: L1Ball(-1.0, 3), "radius"),
    ("nan radius l1", lambda: L1Ball(np.nan, 3), "radius"),
    ("inf radius l2", lambda: L2Ball([0.0], np.inf), "radius"),
    ("array radius", lambda: L1Ball([1.0, 2.0], 3), "radius"),
    ("bad dim", lambda: L1Ball(1.0, 0), "dim"),
    ("bool dim", lambda: Whole(True), "dim"),
    ("float dim", lambda: Whole(2.0), "dim"),
    ("lower > upper", lambda: Box([0.0, 2.0], [1.0, 1.0]), "lower"),
    ("nan bound", lambda: Box([0.0, np.nan], [1.0, 1.0]), "lower"),
    ("lower +inf", lambda: Box(np.inf, np.inf, dim=2), "lower"),
    ("upper -inf", lambda: Box(-np.inf, -np.inf, dim=2), "upper"),
    ("scalar box without dim", lambda: Box(0.0, 1.0), "dim"),
    ("box length mismatch", lambda: Box([0.0, 0.0], [1.0, 1.0, 1.0]), "upper"),
    ("box dim mismatch", lambda: Box([0.0, 0.0], [1.0, 1.0], dim=3), "dim"),
    ("center not finite", lambda: L2Ball([0.0, np.inf], 1.0), "center"),
    ("center 2-D", lambda: L2Ball(np.zeros((2, 2)), 1.0), "center"),
    ("x last axis", lambda: L1Ball(1.0, 3).project(np.zeros(5)), "x has last axis 5, expected dim=3"),
    ("x scalar", lambda: Box(0.0, 1.0, dim=3).distance(1.0), "x"),
    ("x nan", lambda: L2Ball([0.0, 0.0], 1.0).project([np.nan, 0.0]), "x"),
    ("x inf", lambda: Whole(2).contains([np.inf, 0.0]), "x"),
    ("x strings", lambda: Whole(2).project(["a", "b"]), "x"),
    ("x complex", lambda: L1Ball(1.0, 2).project(np.array([1j, 0])), "x"),
    ("x ragged", lambda: L1Ball(1.0, 2).project([[1.0, 2.0], [1.0]]), "x"),
    ("tol negative", lambda: Whole(2).contains([0.0, 0.0], tol=-1.0), "tol"),
    ("v nan", lambda: project_l1_ball([np.nan, 1.0], 1.0), "v"),
    ("v scalar", lambda: project_l1_ball(3.0, 1.0), "v"),
    ("radius negative fn", lambda: project_l1_ball([1.0, 2.0], [[1.0], [-1.0]]), "radius"),
    ("radius nan fn", lambda: project_l1_ball([[1.0, 2.0]], np.nan), "radius"),
    ("radius shape fn", lambda: project_l1_ball(np.ones((2, 3)), [1.0, 2.0, 3.0]), "radius"),
    ("product empty", lambda: ProductSet([]), "sets"),
    ("product dims", lambda: ProductSet([Whole(2), Whole(3)]), "sets"),
    ("product foreign", lambda: ProductSet([Whole(2), "box"]), "sets[1]"),
    ("product x agents", lambda: ProductSet.l1_balls([1.0, 2.0], 3).project(np.zeros((3, 3))), "m=2"),
    ("product x dim", lambda: ProductSet.l1_balls([1.0, 2.0], 3).project(np.zeros((2, 4))), "dim=3"),
    ("product x 1-D", lambda: ProductSet.l1_balls([1.0], 3).distance(np.zeros(3)), "x"),
    ("l1_balls radii", lambda: ProductSet.l1_balls([1.0, -2.0], 3), "radii[1]"),
    ("l1_balls 2-D", lambda: ProductSet.l1_balls(np.ones((2, 2)), 3), "radii"),
    ("boxes shape", lambda: ProductSet.boxes(np.zeros((2, 3)), np.ones((3, 2))), "upper"),
    ("boxes order", lambda: ProductSet.boxes(np.ones((2, 3)), np.zeros((2, 3))), "lower"),
    ("description", lambda: from_description({"kind": "simplex"}), "desc"),
    ("l2 overflow", lambda: L2Ball([-1e308], 1.0).project([1e308]), "x"),
]


@pytest.mark.parametrize("label, make, needle", BAD, ids=[b[0] for b in BAD])
def test_bad_inputs_raise_config_error(label, make, needle):
    with pytest.raises(ConfigError) as info:
        make()
    msg = str(info.value)
    assert needle in msg
    assert "\n" not in msg and len(msg) < 400


def test_cvxpy_var_shape_checked():
    import cvxpy as cp
    with pytest.raises(ConfigError, match="var"):
        L1Ball(1.0, 3).cvxpy_constraints(cp.Variable(4))


@given(hnp.arrays(np.float64, (2, 3, 5), elements=st.floats(-10, 10)))
def test_projection_and_distance_is_one_projection_for_both(x):
    """PC-FedAvg's line 8 reuses the projection its monitor made: the pair equals project() and, for l1 balls, boxes
    and unconstrained agents (the data runs' sets), distance() exactly."""
    sets = ProductSet([L1Ball(1.5, 5), Box(-1.0, 2.0, dim=5), Whole(5)])
    projected, dist = sets.projection_and_distance(x)
    np.testing.assert_array_equal(projected, sets.project(x))
    np.testing.assert_array_equal(dist, sets.distance(x))
