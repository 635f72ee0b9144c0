"""Tests of FedSGM's problems (repro.papers.fedsgm.problems): oracles, Lipschitz constants, certified optima, FedSGM families."""
from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.optimize as so
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from repro.errors import ReproError
from repro.papers.fedsgm.problems.common import NoSolutionError
from repro.papers.fedsgm.problems.ball import HuberBall, LogisticBall
from repro.papers.fedsgm.problems.base import ConvexLipschitzProblem
from repro.papers.fedsgm.problems.generators import FAMILIES, random_instance
from repro.papers.fedsgm.problems.max_affine import MaxAffine
from repro.papers.fedsgm.problems.neyman_pearson import NeymanPearson, neyman_pearson_split
from repro.papers.fedsgm.problems.piecewise_linear import PiecewiseLinear1D
from repro.papers.fedsgm.problems import solve as solve_module

FAST = settings(deadline=None, derandomize=True, max_examples=40,
                suppress_health_check=[HealthCheck.too_slow])
SOLVES = settings(deadline=None, derandomize=True, max_examples=12,
                  suppress_health_check=[HealthCheck.too_slow])

families = st.sampled_from(sorted(FAMILIES))
seeds = st.integers(0, 2**31 - 1)
sizes = st.tuples(st.integers(1, 5), st.integers(1, 4))


def make(family: str, seed: int, n: int, d: int) -> ConvexLipschitzProblem:
    if family == "piecewise_linear_1d":
        d = 1
    return random_instance(family, np.random.default_rng(seed), n_clients=n, dim=d)


def kink_distance(p: ConvexLipschitzProblem, W: np.ndarray) -> float:
    """How far W (n, d) is from a non-differentiability of some f_j or g_j (inf if smooth)."""
    if isinstance(p, PiecewiseLinear1D):
        return float(np.abs(W[:, 0] - p.a).min())
    if isinstance(p, MaxAffine):
        gaps = []
        for C, e in ((p.C_f, p.e_f), (p.C_g, p.e_g)):
            v = np.sort(np.einsum("nkd,nd->nk", C, W) + e, axis=1)
            if v.shape[1] > 1:
                gaps.append((v[:, -1] - v[:, -2]).min() / (2 * p.G))
        return float(min(gaps)) if gaps else np.inf
    if isinstance(p, (HuberBall, LogisticBall)):
        return float(np.linalg.norm(W - p.centers, axis=1).min())
    return np.inf


# --------------------------------------------------------------------------- oracle checks
@FAST
@given(family=families, seed=seeds, size=sizes)
def test_finite_difference_gradients(family, seed, size):
    p = make(family, seed, *size)
    rng = np.random.default_rng(seed + 1)
    W = rng.normal(0.0, 3.0, (p.n_clients, p.dim))
    h = 1e-6
    assume(kink_distance(p, W) > 1e3 * h)
    E = h * np.eye(p.dim)
    # batch: W + h e_i and W - h e_i applied to every client at once, shape (2d, n, d)
    Wp = np.concatenate([W[None] + E[:, None, :], W[None] - E[:, None, :]])
    o, ob = p.oracle(W), p.oracle(Wp)
    for val, grad in ((ob.f, o.grad_f), (ob.g, o.grad_g)):
        fd = ((val[: p.dim] - val[p.dim:]) / (2 * h)).T          # (n, d)
        atol = 1e-6 * (1 + p.G) * (1 + np.abs(W).max())
        np.testing.assert_allclose(fd, grad, rtol=1e-5, atol=atol)


@FAST
@given(family=families, seed=seeds, size=sizes)
def test_every_local_subgradient_is_bounded_by_G(family, seed, size):
    p = make(family, seed, *size)
    rng = np.random.default_rng(seed + 2)
    pts = [rng.normal(0.0, s, (300, p.n_clients, p.dim)) for s in (1.0, 10.0, 1e3, 1e6)]
    # exact kinks too: PL at a_j, ball constraints at their centres, MaxAffine ties by design
    if isinstance(p, PiecewiseLinear1D):
        pts.append(np.broadcast_to(p.a[:, None], (1, p.n_clients, 1)))
    if isinstance(p, (HuberBall, LogisticBall)):
        pts.append(p.centers[None])
    o = p.oracle(np.concatenate(pts))
    bound = p.G * (1 + 1e-12)
    assert np.linalg.norm(o.grad_f, axis=-1).max() <= bound
    assert np.linalg.norm(o.grad_g, axis=-1).max() <= bound
    assert np.all(np.isfinite(o.f)) and np.all(np.isfinite(o.g))


@FAST
@given(family=families, seed=seeds, size=sizes)
def test_global_values_are_means_of_locals(family, seed, size):
    p = make(family, seed, *size)
    w = np.random.default_rng(seed + 3).normal(0.0, 2.0, (7, p.dim))
    f, g = p.global_values(w)
    o = p.oracle(np.broadcast_to(w[:, None, :], (7, p.n_clients, p.dim)))
    np.testing.assert_allclose(f, o.f.mean(axis=-1), rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(g, o.g.mean(axis=-1), rtol=1e-14, atol=1e-14)
    if hasattr(p, "_smooth_kkt") and p._smooth_kkt:      # pooled closed forms used by polishing
        phi, grad, gg, gv = p._smooth_eval(w, 0.7)
        np.testing.assert_allclose(gv, g, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(phi, f + 0.7 * g, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(grad, o.grad_f.mean(-2) + 0.7 * o.grad_g.mean(-2),
                                   rtol=1e-10, atol=1e-12)


@FAST
@given(family=families, seed=seeds, size=sizes, R=st.integers(1, 4))
def test_oracle_is_vectorised_over_batch_axes(family, seed, size, R):
    p = make(family, seed, *size)
    W = np.random.default_rng(seed + 4).normal(0.0, 3.0, (R, 2, p.n_clients, p.dim))
    ob = p.oracle(W)
    for r in range(R):
        for s in range(2):
            o = p.oracle(W[r, s])
            for name in ("f", "g", "grad_f", "grad_g"):
                np.testing.assert_array_equal(getattr(ob, name)[r, s], getattr(o, name))
    assert ob.f.shape == (R, 2, p.n_clients) and ob.grad_g.shape == W.shape


def test_kink_rules_are_deterministic():
    p = PiecewiseLinear1D([0.0, 1.0], [5.0, 5.0], G=2.0)
    o = p.oracle(np.array([[0.0], [3.0]]))
    np.testing.assert_array_equal(o.grad_f[:, 0], [0.0, 2.0])      # sign(0) = 0
    # max-affine: two identical maxima -> the lower index
    C = np.array([[[1.0], [-1.0], [1.0]]])
    m = MaxAffine(C, np.zeros((1, 3)), C, np.zeros((1, 3)))
    assert m.oracle(np.zeros((1, 1))).grad_f[0, 0] == 1.0            # pieces 0 and 2 tie at 0
    hb = HuberBall(np.ones((1, 1, 2)), np.zeros((1, 1)), np.zeros((1, 2)), np.ones(1))
    np.testing.assert_array_equal(hb.oracle(np.zeros((1, 2))).grad_g, 0.0)  # ball centre


# --------------------------------------------------------------------------- optima
def _feasible_samples(p, w_star, rng, k=400):
    scales = np.repeat([1e-3, 1e-1, 1.0, 10.0], k // 4)[:, None]
    P = w_star + scales * rng.normal(size=(k, p.dim))
    f, g = p.global_values(P)
    return f[g <= 0]


@SOLVES
@given(family=families, seed=seeds, size=sizes)
def test_certified_optimum(family, seed, size):
    p = make(family, seed, *size)
    rng = np.random.default_rng(seed + 5)
    w0 = rng.normal(0.0, 2.0, p.dim)
    opt = p.solve(w0)
    assert p.solve(w0.copy()) is opt                                  # cached per w0
    assert opt.tolerance < 1e-6
    assert opt.g_star <= 0.0                                           # feasible in float64
    f, g = p.global_values(opt.w_star)
    assert f == opt.f_star and g == opt.g_star
    assert opt.D == pytest.approx(np.linalg.norm(w0 - opt.w_star), rel=1e-12, abs=1e-15)
    if family != "piecewise_linear_1d":
        assert opt.details["rigorous"]
        lower = opt.details["f_lower_bound"]
        assert lower <= opt.f_star <= lower + opt.tolerance
    json.dumps(opt.details)                                            # loggable as is
    f_feas = _feasible_samples(p, opt.w_star, rng)
    assert np.all(f_feas >= opt.f_star - opt.tolerance)
    with pytest.raises(ValueError):
        opt.w_star[0] = 1.0                                            # read-only


@settings(deadline=None, derandomize=True, max_examples=8)
@given(seed=seeds, size=sizes)
def test_max_affine_optimum_matches_highs(seed, size):
    p = make("max_affine", seed, *size)
    n, K, d = p.C_f.shape
    L = p.C_g.shape[1]
    # variables (w, t, u): min mean t  s.t. C_f w - t_j <= -e_f, C_g w - u_j <= -e_g, mean u <= 0
    rows = [np.hstack([p.C_f.reshape(n * K, d), -np.kron(np.eye(n), np.ones((K, 1))),
                       np.zeros((n * K, n))]),
            np.hstack([p.C_g.reshape(n * L, d), np.zeros((n * L, n)),
                       -np.kron(np.eye(n), np.ones((L, 1)))]),
            np.concatenate([np.zeros(d + n), np.full(n, 1.0 / n)])[None]]
    res = so.linprog(np.concatenate([np.zeros(d), np.full(n, 1.0 / n), np.zeros(n)]),
                     A_ub=np.vstack(rows),
                     b_ub=np.concatenate([-p.e_f.ravel(), -p.e_g.ravel(), [0.0]]),
                     bounds=[(None, None)] * (d + 2 * n), method="highs")
    assert res.status == 0
    opt = p.solve(np.zeros(d))
    assert abs(opt.f_star - res.fun) <= opt.tolerance + 1e-8 * (1 + abs(res.fun))


def _answer(opt):
    return (opt.w_star.tobytes(), opt.f_star, opt.g_star, opt.D, opt.tolerance, json.dumps(opt.details))


def _alone(family, seed, size, w0):
    """The answer for one instance on a process that has compiled nothing yet."""
    solve_module._COMPILED.clear()
    return make(family, seed, *size).solve(w0)


@SOLVES
@given(family=st.sampled_from(["max_affine", "huber_ball", "logistic_ball"]), seed=seeds, size=sizes)
def test_a_compiled_problem_answers_whatever_the_process_solved_before(family, seed, size):
    """Problems are compiled once per shape and process. The answer for an instance must be the one it gets on a
    fresh process, whatever instances of its shape (and of other shapes) were solved before it: every Parameter set
    anew, no warm start, nothing of an earlier instance's data built in. The instance is solved LAST, after others
    of its shape compiled the problem; and it agrees with the problem built from constants within the certified
    tolerance."""
    w0 = np.random.default_rng(seed + 5).normal(0.0, 2.0, size[1])
    fresh = _alone(family, seed, size, w0)
    solve_module._COMPILED.clear()
    for other_seed, other_size in ((seed + 1, size), (seed + 2, (size[0] % 5 + 1, size[1])), (seed + 3, size)):
        make(family, other_seed, *other_size).solve(np.random.default_rng(other_seed).normal(0.0, 2.0, size[1]))
    after_others = make(family, seed, *size).solve(w0)
    assert _answer(after_others) == _answer(fresh)
    constants = make(family, seed, *size)
    constants._cvx_reusable = False
    reference = constants.solve(w0)
    assert abs(reference.f_star - fresh.f_star) <= reference.tolerance + fresh.tolerance


def test_compiled_problems_are_told_apart_by_the_shapes_the_stacked_rows_hide():
    """Max-affine's cvxpy data stack the clients' pieces: n = 2 clients of 6 pieces and n = 3 of 4 give the same
    (12, 1) array, but different problems; the key keeps n (hence K and L), so each is compiled and solved as itself: the
    answer after the other shape was compiled is the answer on a fresh process, and a tight one."""
    def two():
        return random_instance("max_affine", np.random.default_rng(1), n_clients=2, dim=1, n_pieces=4,
                               n_constraint_pieces=3)

    def three():
        return random_instance("max_affine", np.random.default_rng(2), n_clients=3, dim=1, n_pieces=2,
                               n_constraint_pieces=2)

    assert two()._cvx_data()["C_f"].shape == three()._cvx_data()["C_f"].shape == (12, 1)
    assert two()._cvx_data()["C_g"].shape == three()._cvx_data()["C_g"].shape == (6, 1)
    for first, second in ((two, three), (three, two)):
        solve_module._COMPILED.clear()
        alone = second().solve(np.zeros(1))
        solve_module._COMPILED.clear()
        first().solve(np.zeros(1))
        after = second().solve(np.zeros(1))
        assert _answer(after) == _answer(alone)
        assert after.tolerance < 1e-6


def _face_minima(A, omega):
    """min h over each face u_i = -1, +1 of the inf-norm sphere, by one LP per face (HiGHS), as a reference."""
    P, K, d = A.shape
    rows = np.hstack([A.reshape(P * K, d), -np.repeat(np.eye(P), K, axis=0)])
    out = np.empty((d, 2))
    for i in range(d):
        for side in (0, 1):
            bounds = [(-1.0, 1.0)] * d + [(None, None)] * P
            bounds[i] = (2.0 * side - 1.0,) * 2
            res = so.linprog(np.concatenate([np.zeros(d), omega]), A_ub=rows, b_ub=np.zeros(P * K),
                             bounds=bounds, method="highs")
            assert res.status == 0
            out[i, side] = res.fun
    return out


@settings(deadline=None, derandomize=True, max_examples=25)
@given(seed=seeds, n=st.integers(1, 6), d=st.integers(1, 5), random_slopes=st.booleans())
def test_linf_growth_skips_only_faces_whose_bound_cannot_lower_it(seed, n, d, random_slopes):
    """The growth constant of max-affine's certificate is the least of 2d face LPs; faces whose closed-form lower
    bound is not below the least LP value so far are skipped. The bound must be a lower bound on every face, and the
    constant must equal the minimum over all faces (up to the subtracted margin) -- on generated instances (coercive
    pieces) and on random slopes with no coercive piece, where kappa may be negative."""
    rng = np.random.default_rng(seed)
    if random_slopes:
        A, omega = rng.normal(size=(n, 4, d)), rng.uniform(0.0, 1.0, n)
    else:
        A, omega = make("max_affine", seed, n, d).C_f, np.full(n, 1.0 / n)
    minima = _face_minima(A, omega)
    assert np.all(solve_module._face_lower_bounds(A, omega) <= minima + 1e-9)
    margin = 1e-8 * float(np.sum(omega * np.abs(A).sum(axis=-1).max(axis=-1)))
    assert solve_module.linf_growth([(omega, A)]) == pytest.approx(minima.min() - margin, abs=1e-9)


def test_closest_minimiser_piecewise_linear_even_n():
    p = PiecewiseLinear1D([2.0, 0.0, 5.0, -1.0], [10.0, 10.0, 10.0, 10.0], G=3.0)  # median [0, 2]
    for w0, expected in ((5.0, 2.0), (-3.0, 0.0), (1.25, 1.25), (2.0, 2.0)):
        opt = p.solve(np.array([w0]))
        assert opt.w_star[0] == expected and opt.D == abs(w0 - expected)
        assert not opt.details["minimiser_unique"]
        assert opt.f_star == pytest.approx(3.0 * 8.0 / 4)           # G * mean |w - a_j| = 6
    q = PiecewiseLinear1D([2.0, 0.0, 5.0, -1.0], [1.0, 2.0, 1.5, 1.5], G=3.0)  # w <= 1.5 cuts it
    assert q.solve(np.array([5.0])).w_star[0] == 1.5
    assert q.solve(np.array([-4.0])).w_star[0] == 0.0
    r = PiecewiseLinear1D([2.0, 0.0, 5.0, -1.0], [-1.0, -1.0, -1.0, -1.0], G=3.0)  # below lo
    opt = r.solve(np.array([5.0]))
    assert opt.w_star[0] == -1.0 and opt.details["minimiser_unique"]


def test_closest_minimiser_piecewise_linear_rounding_keeps_feasibility():
    b = np.array([0.1, 0.2, 0.7])           # mean(b) not exactly representable
    p = PiecewiseLinear1D([5.0, 6.0, 7.0], b, G=1.0)
    opt = p.solve(np.array([10.0]))
    assert opt.g_star <= 0 and abs(opt.w_star[0] - b.mean()) < 1e-14


def test_closest_minimiser_max_affine_flat_bottom():
    # f = max(w - 1, -w - 1, 0): minimisers [-1, 1]; g = w - 5 inactive
    C = np.array([[[1.0], [-1.0], [0.0]]])
    p = MaxAffine(C, np.array([[-1.0, -1.0, 0.0]]), np.array([[[1.0]]]), np.array([[-5.0]]))
    for w0, expected in ((3.0, 1.0), (-4.0, -1.0), (0.5, 0.5)):
        opt = p.solve(np.array([w0]))
        assert opt.w_star[0] == pytest.approx(expected, abs=1e-6)
        assert opt.f_star <= opt.tolerance and opt.details["rigorous"]


def test_closest_minimiser_huber_flat_direction():
    # data only along e1: f depends on w1 alone (minimised at w1 = 2); big ball around 0
    A = np.zeros((2, 3, 2))
    A[..., 0] = [[1.0, 0.5, -1.0], [2.0, 1.0, 0.3]]
    b = 2.0 * A[..., 0]
    p = HuberBall(A, b, np.zeros((2, 2)), np.full(2, 50.0), delta=1.0)
    opt = p.solve(np.array([-7.0, 5.0]))
    np.testing.assert_allclose(opt.w_star, [2.0, 5.0], atol=1e-3)
    assert opt.D == pytest.approx(9.0, abs=1e-3)
    # the same instance from another w0 gives another (closest) minimiser
    np.testing.assert_allclose(p.solve(np.array([0.0, -3.0])).w_star, [2.0, -3.0], atol=1e-3)


def test_infeasible_instances_raise():
    bad_ball = LogisticBall(np.ones((1, 2, 2)), np.ones((1, 2)), np.zeros((1, 2)), [-1.0])
    with pytest.raises(NoSolutionError, match="infeasible"):
        bad_ball.solve(np.zeros(2))
    C = np.array([[[1.0], [-1.0]]])
    never = MaxAffine(C, np.zeros((1, 2)), np.zeros((1, 1, 1)), np.ones((1, 1)))  # g = 1 > 0
    with pytest.raises(NoSolutionError, match="no solution"):
        never.solve(np.zeros(1))


def test_max_affine_without_certified_region_says_so():
    # f = max(w, 0), g = -w - 1: minimisers [-1, 0]; no recession growth, so no certified ball
    p = MaxAffine(np.array([[[1.0], [0.0]]]), np.zeros((1, 2)), np.array([[[-1.0]]]),
                  np.array([[-1.0]]))
    opt = p.solve(np.array([3.0]))
    assert opt.w_star[0] == pytest.approx(0.0, abs=1e-6)
    assert not opt.details["rigorous"] and "not rigorous" in opt.details["certificate"]


# --------------------------------------------------------------------------- Neyman–Pearson
def test_neyman_pearson_positive_level_can_still_be_infeasible():
    # constraint rows +-1: mean loss >= log 2 > level for every w
    p = NeymanPearson([np.array([[1.0], [-2.0]])], [np.array([[1.0], [-1.0]])], level=0.5)
    with pytest.raises(NoSolutionError, match="infeasible"):
        p.solve(np.zeros(1))
    ok = NeymanPearson([np.array([[1.0], [-2.0]])], [np.array([[1.0], [-1.0]])], level=0.8)
    opt = ok.solve(np.zeros(1))
    assert opt.g_star <= 0 and opt.tolerance < 1e-9


def test_neyman_pearson_ragged_clients_match_loops():
    rng = np.random.default_rng(0)
    c0 = [rng.normal(size=(m, 3)) for m in (1, 4, 2)]
    c1 = [rng.normal(size=(m, 3)) for m in (3, 1, 5)]
    p = NeymanPearson(c0, c1, level=0.2)
    W = rng.normal(size=(5, 3, 3))
    o = p.oracle(W)
    for j in range(3):
        s0, s1 = W[:, j] @ c0[j].T, W[:, j] @ c1[j].T
        np.testing.assert_allclose(o.f[:, j], np.log1p(np.exp(s0)).mean(-1), rtol=1e-13)
        np.testing.assert_allclose(o.g[:, j], np.log1p(np.exp(-s1)).mean(-1) - 0.2, rtol=1e-13)
    assert p.G == pytest.approx(max(np.linalg.norm(np.concatenate(c0 + c1), axis=1)))
    big = p.oracle(np.full((1, 3, 3), 1e6))                           # stable far away
    assert np.all(np.isfinite(big.f)) and np.all(np.isfinite(big.grad_f))


def test_neyman_pearson_level_zero_is_infeasible():
    p = random_instance("neyman_pearson", np.random.default_rng(1), n_clients=3, dim=2)
    q = NeymanPearson([p.X0[j, p.W0[j] > 0] for j in range(3)],
                      [p.X1[j, p.W1[j] > 0] for j in range(3)])      # default level = 0
    with pytest.raises(NoSolutionError, match=r"level=0.*no solution") as err:
        q.solve(np.zeros(2))
    assert isinstance(err.value, ValueError) and isinstance(err.value, ReproError)
    assert "strictly positive" in str(err.value)


@pytest.fixture(scope="module")
def breast_cancer():
    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import StandardScaler
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


def test_neyman_pearson_split_is_stratified_and_seeded(breast_cancer):
    X, y = breast_cancer
    p = neyman_pearson_split(X, y, 10, np.random.default_rng(0), level=0.3)
    q = neyman_pearson_split(X, y, 10, np.random.default_rng(0), level=0.3)
    assert p.describe()["data_sha256"] == q.describe()["data_sha256"]
    assert p.counts0.sum() == 212 and p.counts1.sum() == 357
    for c in (p.counts0, p.counts1, p.counts0 + p.counts1):
        assert c.max() - c.min() <= 1
    used = sorted(sum(p.split["class0_indices"] + p.split["class1_indices"], []))
    assert used == list(range(569))
    flipped = neyman_pearson_split(X, y, 10, np.random.default_rng(0), objective_class=1)
    assert flipped.counts0.sum() == 357
    json.dumps(p.describe())


def test_neyman_pearson_breast_cancer_with_bias_has_no_minimiser(breast_cancer):
    """AUDIT FINDING: standardised breast cancer + bias is linearly separable, so at level 0.3
    (or any level > 0) the infimum of (1) is not attained: w* and D do not exist."""
    X, y = breast_cancer
    Xb = np.hstack([X, np.ones((len(X), 1))])
    p = neyman_pearson_split(Xb, y, 10, np.random.default_rng(0), level=0.3)
    with pytest.raises(NoSolutionError, match="not attained") as err:
        p.solve(np.zeros(31))
    ev = err.value.evidence
    d = np.array(ev["direction"])
    assert (Xb[y == 0] @ d).max() <= 1e-8 and (Xb[y == 1] @ d).min() >= -1e-8
    assert np.all(np.diff(ev["f_along"]) < 0) and np.all(np.diff(ev["g_along"]) <= 1e-12)
    assert ev["g_along"][-1] < 0                                      # the ray becomes feasible


def test_neyman_pearson_breast_cancer_without_bias_solves(breast_cancer):
    X, y = breast_cancer
    p = neyman_pearson_split(X, y, 10, np.random.default_rng(0), level=0.3)
    opt = p.solve(np.zeros(30))
    assert opt.g_star <= 0 and opt.tolerance < 1e-8 and opt.details["rigorous"]
    assert p.G == pytest.approx(20.55, abs=0.01)
    rng = np.random.default_rng(1)
    assert np.all(_feasible_samples(p, opt.w_star, rng) >= opt.f_star - opt.tolerance)
    assert opt.D > 100                        # nearly separable: w* lies very far from 0


# --------------------------------------------------------------------------- validation
@pytest.mark.parametrize("make_bad, name", [
    (lambda: PiecewiseLinear1D([0.0, 1.0], [0.0, 1.0], G=-1.0), "G"),
    (lambda: PiecewiseLinear1D([0.0, np.nan], [0.0, 1.0], G=1.0), "a"),
    (lambda: PiecewiseLinear1D([0.0, 1.0], [0.0], G=1.0), "b.shape"),
    (lambda: MaxAffine(np.ones((2, 3, 2)), np.ones((2, 2)), np.ones((2, 1, 2)), np.ones((2, 1))),
     "e_f.shape"),
    (lambda: MaxAffine(np.zeros((1, 1, 1)), np.zeros((1, 1)), np.zeros((1, 1, 1)),
                       np.zeros((1, 1))), "C_f, C_g"),
    (lambda: HuberBall(np.ones((1, 2, 2)), np.ones((1, 2)), np.zeros((1, 2)), [1.0], delta=0.0),
     "delta"),
    (lambda: LogisticBall(np.ones((1, 2, 2)), np.zeros((1, 2)), np.zeros((1, 2)), [1.0]), "y"),
    (lambda: LogisticBall(np.ones((1, 2, 2)), np.ones((1, 2)), np.zeros((2, 2)), [1.0]),
     "centers.shape"),
    (lambda: NeymanPearson([np.ones((2, 2))], [np.ones((2, 2))], level=np.nan), "level"),
    (lambda: NeymanPearson([np.ones((2, 2))], [np.ones((0, 2))]), "class1[0].shape"),
    (lambda: NeymanPearson([np.ones((2, 2))], [np.ones((2, 3))]), "class1[0].shape"),
    (lambda: random_instance("max_affine", np.random.default_rng(0), n_clients=0, dim=2),
     "n_clients"),
    (lambda: random_instance("huber_ball", np.random.default_rng(0), n_clients=2, dim=0), "dim"),
    (lambda: random_instance("piecewise_linear_1d", np.random.default_rng(0), n_clients=2, dim=2),
     "dim"),
    (lambda: random_instance("nope", np.random.default_rng(0), n_clients=2, dim=2), "family"),
    (lambda: random_instance("huber_ball", 0, n_clients=2, dim=2), "rng"),
    (lambda: random_instance("huber_ball", np.random.default_rng(0), n_clients=2, dim=2,
                             n_samples=0), "n_samples"),
    (lambda: random_instance("max_affine", np.random.default_rng(0), n_clients=2, dim=2,
                             colour="red"), "kw"),
    (lambda: neyman_pearson_split(np.ones((4, 2)), [0, 1, 0, 1], 3, np.random.default_rng(0)),
     "n_clients"),
    (lambda: neyman_pearson_split(np.ones((4, 2)), [0, 1, 0, 1], 2, np.random.default_rng(0),
                                  objective_class=2), "objective_class"),
    (lambda: neyman_pearson_split(np.ones((4, 2)), [0, 1, 0, 2], 2, np.random.default_rng(0)),
     "y"),
])
def test_bad_parameters_raise_value_error_naming_them(make_bad, name):
    with pytest.raises(ValueError) as err:
        make_bad()
    assert str(err.value).startswith(f"{name}=")
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_bad_call_arguments_and_describe(family):
    p = make(family, 3, 2, 2)
    with pytest.raises(ValueError, match=r"^W\.shape="):
        p.oracle(np.zeros((p.n_clients + 1, p.dim)))
    with pytest.raises(ValueError, match=r"^w0\.shape="):
        p.solve(np.zeros(p.dim + 1))
    desc = json.loads(json.dumps(p.describe()))
    assert desc["family"] == family and desc["G"] == p.G
    assert desc["generator"]["family"] == family
    # the same seed gives the same instance
    assert make(family, 3, 2, 2).describe()["data_sha256"] == desc["data_sha256"]


def test_degenerate_sizes_solve():
    for family in sorted(FAMILIES):
        p = make(family, 11, 1, 1)
        opt = p.solve(np.zeros(1))
        assert opt.g_star <= 0 and opt.tolerance < 1e-6
