"""The printed closed forms of the SSCA paper against a generic solver (cvxpy + Clarabel), >= 200 instances each:
(9)/(19) vs minimising the printed (8)/(18); the literal recursion-built surrogate (all past terms stored) vs
(9)/w_t; (35)-(36) vs minimising (29) + 2 lam beta^T omega; Lemma 1 (40)-(42) vs solving (38), with all three
regimes of (42) hit. Agreement is measured relative to max(1, ||reference||) and must be <= 1e-6.

The explicit ``settings(max_examples=...)`` overrides the hypothesis profiles of conftest.py (ci: 25), so 200
examples run under every profile.
"""
from __future__ import annotations

import cvxpy as cp
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds.ssca import claims as S
from repro.papers.ssca.problems.server import solve, solve_problem_38, solved

N_EXAMPLES = 200
TOL = 1e-6
seeds = st.integers(0, 2**32 - 1)
taus = st.floats(0.05, 5.0)
cs = st.floats(0.1, 100.0)


def rel(x, ref) -> float:
    x, ref = np.asarray(x, dtype=float), np.asarray(ref, dtype=float)
    return float(np.linalg.norm(x - ref) / max(1.0, np.linalg.norm(ref)))


def rel_scalar(x, ref) -> float:
    return abs(float(x) - float(ref)) / max(1.0, abs(float(ref)))


# ---------------------------------------------------------------------------- (9) and (19)
@settings(max_examples=N_EXAMPLES, deadline=None)
@given(seed=seeds, d=st.integers(1, 8), tau=taus, scale=st.floats(-1.0, 1.0))
def test_eq9_minimises_printed_8(seed, d, tau, scale):
    rng = np.random.default_rng(seed)
    f_hat = rng.normal(size=d) * 10**scale
    w = cp.Variable(d)
    assert solved(solve(cp.Problem(cp.Minimize(f_hat @ w + tau * cp.sum_squares(w)))))
    assert rel(S.omega_bar_unconstrained(f_hat, tau), w.value) <= TOL


@settings(max_examples=N_EXAMPLES, deadline=None)
@given(seed=seeds, blocks=st.lists(st.integers(1, 3), min_size=2, max_size=4), tau=taus, T=st.integers(1, 5))
def test_eq19_minimises_printed_18(seed, blocks, tau, T):
    """hat f_{f,0,1} built by the recursion below (18) from per-block batch gradients (16)-(17); omega = (omega_0,
    omega_1, ..., omega_I) concatenated."""
    rng = np.random.default_rng(seed)
    d = sum(blocks)
    f_hat = np.zeros(d)
    for _ in range(T):
        rho = rng.uniform(0.05, 1.0)
        grad = np.concatenate([rng.normal(size=k) for k in blocks])     # (1/B) sum of block gradients
        omega_t = rng.normal(size=d)
        f_hat = (1 - rho) * f_hat + rho * (grad - 2 * tau * omega_t)
    w = cp.Variable(d)
    assert solved(solve(cp.Problem(cp.Minimize(f_hat @ w + tau * cp.sum_squares(w)))))
    assert rel(S.omega_bar_unconstrained(f_hat, tau), w.value) <= TOL


# ---------------------------------------------------------------------------- literal recursion vs (9)
@settings(max_examples=N_EXAMPLES, deadline=None)
@given(seed=seeds, d=st.integers(1, 6), tau=taus, T=st.integers(1, 5), rho1=st.floats(0.1, 1.0),
       rho1_is_one=st.booleans())
def test_literal_recursion_equals_eq9_over_weight(seed, d, tau, T, rho1, rho1_is_one):
    """F_bar^(t) built literally from (3)+(7) starting at 0 (every past surrogate term kept), minimised by cvxpy,
    equals (9)/w_t with w_t = 1 - prod(1 - rho_s); equals (9) itself when rho_1 = 1 (this
    project's derivation from unrolling the recursion)."""
    rng = np.random.default_rng(seed)
    rho = np.concatenate([[1.0 if rho1_is_one else rho1], rng.uniform(0.05, 1.0, size=T - 1)])
    w = cp.Variable(d)
    literal = 0
    f_hat = np.zeros(d)
    for s in range(T):
        g_s, omega_s = rng.normal(size=d), rng.normal(size=d)
        term = g_s @ (w - omega_s) + tau * cp.sum_squares(w - omega_s)          # surrogate (7), batch-aggregated
        literal = (1 - rho[s]) * literal + rho[s] * term                         # recursion (3)
        f_hat = (1 - rho[s]) * f_hat + rho[s] * (g_s - 2 * tau * omega_s)       # printed recursion below (8)
    assert solved(solve(cp.Problem(cp.Minimize(literal))))
    weight = S.surrogate_weight(rho)[-1]
    printed = S.omega_bar_unconstrained(f_hat, tau)
    assert rel(printed / weight, w.value) <= TOL
    if rho[0] == 1.0:
        assert weight == 1.0 and rel(printed, w.value) <= TOL


# ---------------------------------------------------------------------------- (35)-(36)
@settings(max_examples=N_EXAMPLES, deadline=None)
@given(seed=seeds, K=st.integers(1, 4), J=st.integers(1, 3), L=st.integers(1, 3), tau=taus,
       lam=st.floats(1e-5, 1.0))
def test_eq35_36_minimise_29(seed, K, J, L, tau, lam):
    rng = np.random.default_rng(seed)
    th1, th2 = rng.normal(size=(J, K)), rng.normal(size=(L, J))
    b1, b2 = rng.normal(size=(J, K)), rng.normal(size=(L, J))
    W1, W2 = cp.Variable((J, K)), cp.Variable((L, J))
    obj = (cp.sum(cp.multiply(th1, W1)) + cp.sum(cp.multiply(th2, W2))
           + tau * (cp.sum_squares(W1) + cp.sum_squares(W2))
           + 2 * lam * (cp.sum(cp.multiply(b1, W1)) + cp.sum(cp.multiply(b2, W2))))
    assert solved(solve(cp.Problem(cp.Minimize(obj))))
    closed = np.concatenate([S.omega_bar_regularized(th1, b1, lam, tau).ravel(),
                             S.omega_bar_regularized(th2, b2, lam, tau).ravel()])
    assert rel(closed, np.concatenate([W1.value.ravel(), W2.value.ravel()])) <= TOL


# ---------------------------------------------------------------------------- Lemma 1 vs (38)
def lemma1_instance(seed: int, d: int, tau: float, c: float, regime: str, frac: float):
    """Theta, A, U such that (42) lands in the requested regime (with a margin)."""
    rng = np.random.default_rng(seed)
    theta = rng.normal(size=d) * 10 ** rng.uniform(-1, 1)
    b = float(theta @ theta)
    A = float(rng.normal() * 3)
    if regime == "inactive":                       # U >= A  <=>  b/(b + 4 tau (U - A)) <= 1  <=>  nu = 0
        U = A + float(rng.uniform(0.01, 3.0))
    elif regime == "active":                       # interior root nu* = frac c
        nu_star = frac * c
        D = b / (1 + tau * nu_star) ** 2
        U = A + (D - b) / (4 * tau)
    elif frac < 0.5:                               # saturated, root beyond c
        nu_star = c * (1.1 + 2 * frac)
        D = b / (1 + tau * nu_star) ** 2
        U = A + (D - b) / (4 * tau)
    else:                                          # saturated, b + 4 tau (U - A) <= 0
        U = A - (b + 4 * tau * float(rng.uniform(0.01, 3.0))) / (4 * tau)
    return theta, A, U


def test_lemma1_matches_solver_on_38_all_regimes():
    hits = {"inactive": 0, "active": 0, "saturated": 0}

    @settings(max_examples=N_EXAMPLES, deadline=None)
    @given(seed=seeds, d=st.integers(1, 8), tau=taus, c=cs,
           regime=st.sampled_from(["inactive", "active", "saturated"]), frac=st.floats(0.05, 0.95))
    def check(seed, d, tau, c, regime, frac):
        theta, A, U = lemma1_instance(seed, d, tau, c, regime, frac)
        sol = S.lemma1_solution(theta, A, U, tau, c)
        assert sol.regime == regime
        assert sol.omega.shape == theta.shape and 0.0 <= sol.nu <= c and sol.zeta >= 0.0
        ref = solve_problem_38(theta, A, U, tau, c)
        objective = float(sol.omega @ sol.omega + c * sol.zeta)
        assert rel(sol.omega, ref["omega"]) <= TOL
        assert rel_scalar(sol.zeta, ref["zeta"]) <= TOL
        assert rel_scalar(objective, ref["objective"]) <= TOL
        assert rel_scalar(objective, ref["raw_objective"]) <= 1e-5       # the unrefined conic optimal value
        assert rel(sol.omega, ref["raw_omega"]) <= 1e-3                   # unrefined conic solution, loosely
        hits[regime] += 1

    check()
    assert all(v >= 20 for v in hits.values()), hits


def test_lemma1_kkt_exact_without_solver():
    """KKT of (38) at the closed-form point of Lemma 1, (40)-(42): primal feasibility, nu >= 0, kappa = c - nu >= 0,
    complementary slackness and stationarity in omega and zeta, on many random instances."""
    rng = np.random.default_rng(7)
    for i in range(300):
        regime = ("inactive", "active", "saturated")[i % 3]
        d, tau, c = int(rng.integers(1, 9)), float(rng.uniform(0.05, 5)), float(10 ** rng.uniform(-1, 2))
        theta, A, U = lemma1_instance(int(rng.integers(2**31)), d, tau, c, regime, float(rng.uniform(0.05, 0.95)))
        s = S.lemma1_solution(theta, A, U, tau, c)
        gval = float(theta @ s.omega + tau * s.omega @ s.omega + A - U)
        kappa = c - s.nu
        scale = max(1.0, abs(gval), float(np.linalg.norm(theta)))
        assert gval - s.zeta <= 1e-12 * scale and s.zeta >= 0
        assert s.nu >= 0 and kappa >= 0
        assert abs(s.nu * (gval - s.zeta)) <= 1e-10 * scale * max(1.0, c)
        assert abs(kappa * s.zeta) <= 1e-10 * scale * max(1.0, c)
        stat = 2 * s.omega + s.nu * (theta + 2 * tau * s.omega)
        assert np.linalg.norm(stat) <= 1e-12 * scale * max(1.0, c)
