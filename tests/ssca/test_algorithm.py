"""Mini-batch SSCA (Algorithms 1-4, arXiv 2104.06011) and the SGD baselines on small problems defined here.

The protocol problems below (weighted logistic losses with l2 terms) are written from first principles in
this file, so the tests do not depend on ``repro.papers.ssca.problems``. Reference solutions of the server problems are
computed by independent cvxpy models built from the per-sample surrogates (7)/(11) as defined, never from
the recursions of the code under test.
"""
import zlib

import cvxpy as cp
import numpy as np
import pytest
from scipy.optimize import root
from scipy.special import expit

from repro.papers.ssca.algorithms import federated_sgd as sgd
from repro.papers.ssca.algorithms import ssca
from repro.errors import ReproError

pytestmark = pytest.mark.filterwarnings("ignore:Solution may be inaccurate")   # reference solves; refined below


# ----------------------------------------------------------------------------------------- test problems
class LogisticFamily:
    """Rows k = 0..M: f_k(w, x_n) = loss_k log(1 + exp(-y_{n,k} x_n . w)) + lam_k ||w||^2 (f_0 the objective,
    phi_k = f_k the constraint functions, F_k = Phi_k - U_k). With loss_0 = 0 the objective is data free,
    lam_0 ||w||^2, and ``exact_objective_weight`` = lam_0. Feature blocks: the columns split into ``blocks``
    contiguous groups; ``block_batch_sums`` forms each score as the sum of the per-block partial scores and
    assembles the gradient block by block (the feature-based way)."""

    def __init__(self, X, Y, loss, lam, levels, blocks=3):
        self.X, self.Y = np.asarray(X, float), np.asarray(Y, float)
        self.loss, self.lam = np.asarray(loss, float), np.asarray(lam, float)
        self.n_samples, self.dim = self.X.shape
        self.n_constraints = len(loss) - 1
        self.constraint_levels = np.asarray(levels, float).reshape(self.n_constraints)
        self.exact_objective_weight = float(self.lam[0]) if self.loss[0] == 0 else None
        self.groups = np.array_split(np.arange(self.dim), blocks)

    def _assemble(self, omega, index, weights, scores, grad_blocks):
        Yb = self.Y[index]
        margin = -Yb * scores[:, None]
        per_sample = self.loss * np.logaddexp(0.0, margin) + self.lam * (omega @ omega)
        coef = self.loss * (-Yb) * expit(margin) * weights[:, None]       # (b, M+1)
        grads = grad_blocks(coef) + 2.0 * np.outer(self.lam, omega) * weights.sum()
        return weights @ per_sample, grads

    def batch_sums(self, omega, index, weights):
        Xb = self.X[index]
        return self._assemble(omega, index, weights, Xb @ omega, lambda coef: coef.T @ Xb)

    def block_batch_sums(self, omega, index, weights):
        Xb = self.X[index]
        scores = sum(Xb[:, g] @ omega[g] for g in self.groups)          # per-client partial scores, summed

        def blocks(coef):
            out = np.empty((coef.shape[1], self.dim))
            for g in self.groups:
                out[:, g] = coef.T @ Xb[:, g]
            return out
        return self._assemble(omega, index, weights, scores, blocks)

    def stacked_objective_grads(self, omegas, index, weights):
        Xb = self.X[index]                                              # (I, b, d)
        y = self.Y[index, 0]
        margin = -y * np.einsum("ibd,id->ib", Xb, omegas)
        coef = self.loss[0] * (-y) * expit(margin) * weights
        return np.einsum("ib,ibd->id", coef, Xb) + 2.0 * self.lam[0] * omegas * weights.sum(1)[:, None]

    def full_values_and_grads(self, omega):
        return self.batch_sums(omega, np.arange(self.n_samples), np.full(self.n_samples, 1.0 / self.n_samples))


def _data(seed=0, n=40, d=6, labels=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    W = rng.normal(size=(d, labels))
    Y = np.where(X @ W + 0.5 * rng.normal(size=(n, labels)) > 0, 1.0, -1.0)
    return X, Y


def unconstrained(seed=0, lam=0.05):
    X, Y = _data(seed)
    return LogisticFamily(X, Y[:, :1], loss=[1], lam=[lam], levels=[])


def constrained_exact(seed=0, U=0.5):
    """min ||w||^2 s.t. mean logistic loss <= U ((37) with a logistic model)."""
    X, Y = _data(seed)
    return LogisticFamily(X, Y[:, :2], loss=[0, 1], lam=[1.0, 0.0], levels=[U])


def constrained_surrogate(seed=0, U=0.5):
    """min mean logistic + 0.05 ||w||^2 s.t. mean logistic loss (other labels) <= U: surrogate objective."""
    X, Y = _data(seed)
    return LogisticFamily(X, Y[:, :2], loss=[1, 1], lam=[0.05, 0.0], levels=[U])


def two_constraints(seed=0, U=(0.55, 0.6), exact=False):
    X, Y = _data(seed)
    loss0, lam0 = (0, 1.0) if exact else (1, 0.05)
    return LogisticFamily(X, Y, loss=[loss0, 1, 1], lam=[lam0, 0.0, 0.0], levels=list(U))


PROBLEMS = {"M0": unconstrained, "M1_exact": constrained_exact, "M1_surrogate": constrained_surrogate,
            "M2_surrogate": two_constraints, "M2_exact": lambda: two_constraints(exact=True)}


def _partition(n, clients, seed=1):
    return np.random.default_rng(seed).permutation(n).reshape(clients, n // clients)


def _params(T=12, B=3, tau=0.5, c=50.0, steps=None, **kw):
    """SSCAParams from _omega1() (unless ``omega1`` is given); ``kw``: client_indices, monitor, ..."""
    steps = steps or ssca.PowerLawSteps(a1=0.6, alpha=0.4, a2=0.8, beta=0.45)
    kw.setdefault("omega1", _omega1())
    return ssca.SSCAParams(tau=tau, steps=steps, iterations=T, batch=B, penalty=c, **kw)


def _sgd_params(lr_a, lr_alpha, T, B, **kw):
    """SGDParams from _omega1() (unless ``omega1`` is given)."""
    kw.setdefault("omega1", _omega1())
    return sgd.SGDParams(lr_a=lr_a, lr_alpha=lr_alpha, iterations=T, batch=B, **kw)


def _omega1(d=6, seed=7):
    return np.random.default_rng(seed).normal(size=d)


def _capture_states(T):
    states = []

    def monitor(t, state):
        states.append(state)
        return {"omega_norm": float(np.linalg.norm(state.omega))}
    return monitor, tuple(range(1, T + 1)), states


# ----------------------------------------------------------------------------------------- independent server solve
TIGHT = dict(tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-12, tol_ktratio=1e-10, max_iter=500)


def _unrolled_coefficients(problem, iterates, batches, weights, rho, tau, t):
    """Constant S_m(0) and gradient grad S_m(0) of the literal surrogate sum
    S_m(w) = sum_{s<=t} rho_s prod_{s<r<=t} (1 - rho_r) sum_n w_n fbar_m(w, w^(s), x_n) with the per-sample
    surrogates (7) (m = 0, no constant) and (11) (m >= 1), and its quadratic weight tau sum_s (...) W_s."""
    d, M = problem.dim, problem.n_constraints
    coeff = np.array([rho[s] * np.prod(1.0 - rho[s + 1:t]) for s in range(t)])
    const, lin, quad = np.zeros(M + 1), np.zeros((M + 1, d)), 0.0
    for s in range(t):
        ws = iterates[s]
        v, g = problem.batch_sums(ws, batches[s], weights)
        W = weights.sum()
        quad += tau * coeff[s] * W
        # sum_n w_n fbar_m(w, ws, x_n) = [v_m] + g_m . (w - ws) + tau W ||w - ws||^2: value and gradient at 0
        const += coeff[s] * (np.r_[0.0, v[1:]] - g @ ws + tau * W * ws @ ws)
        lin += coeff[s] * (g - 2 * tau * W * ws)
    return const, lin, quad


def _printed_server_problem(problem, const, lin, tau, c):
    """Problem 2/5 with the printed surrogates c_m + l_m . w + tau ||w||^2 by cvxpy (Clarabel, tight
    tolerances; constraints in completed-square form for accuracy). Returns (w, zeta)."""
    d, M = problem.dim, problem.n_constraints
    w = cp.Variable(d)
    q0 = problem.exact_objective_weight
    objective = q0 * cp.sum_squares(w) if q0 is not None else lin[0] @ w + tau * cp.sum_squares(w)
    if M == 0:
        cp.Problem(cp.Minimize(objective)).solve(solver=cp.CLARABEL, **TIGHT)
        return w.value, np.zeros(0)
    z = cp.Variable(M, nonneg=True)
    gap = const[1:] - problem.constraint_levels
    cons = [cp.norm(w + lin[m] / (2 * tau)) <= cp.sqrt(z[m - 1] / tau + lin[m] @ lin[m] / (4 * tau**2)
                                                         - gap[m - 1] / tau) for m in range(1, M + 1)]
    prob = cp.Problem(cp.Minimize(objective + c * cp.sum(z)), cons)
    prob.solve(solver=cp.CLARABEL, **TIGHT)
    assert prob.status in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE)
    q0 = problem.exact_objective_weight
    a, q = (np.zeros(d), q0) if q0 is not None else (lin[0], tau)
    w_kkt, _ = _refine_on_kkt_system(a, q, lin[1:], gap, tau, c, w.value, z.value)
    return w_kkt, np.maximum(gap + lin[1:] @ w_kkt + tau * w_kkt @ w_kkt, 0.0)


def _refine_on_kkt_system(a, q, lin, gap, tau, c, w0, z0):
    """min a.w + q||w||^2 + c sum z s.t. gap_m + l_m.w + tau||w||^2 <= z_m, z >= 0: Clarabel's primal accuracy
    on these cones is about 1e-6..1e-5 (measured), short of the 1e-6 checks. Take the constraint pattern
    from the cvxpy solution (z_m > 0: saturated, nu_m = c; g_m < 0: inactive; else active, g_m = 0) and
    solve that pattern's KKT equations for (w, nu_active) by ``scipy.optimize.root`` from the cvxpy point: a
    primal-dual system, independent of the code under test (which works on the dual)."""
    g0 = gap + lin @ w0 + tau * w0 @ w0
    sat = z0 > 1e-5
    act = ~sat & (g0 > -1e-5)
    d = w0.shape[0]

    def equations(x):
        w, nu_a = x[:d], x[d:]
        grad = a + 2 * q * w + nu_a @ (lin[act] + 2 * tau * w) + c * np.sum(lin[sat] + 2 * tau * w, axis=0)
        return np.r_[grad, (gap + lin @ w + tau * w @ w)[act]]

    sol = root(equations, np.r_[w0, np.full(act.sum(), c / 2)], tol=1e-14)
    assert np.abs(equations(sol.x)).max() < 1e-9          # (hybr may flag "no progress" at the solution)
    assert np.all((sol.x[d:] >= -1e-9) & (sol.x[d:] <= c + 1e-9))      # the pattern was right
    nu = np.full(lin.shape[0], 0.0)
    nu[sat], nu[act] = c, sol.x[d:]
    return sol.x[:d], nu


def _kkt_residuals(problem, lin, const, tau, c, w, nu):
    """Stationarity residual of the Lagrangian of Problem 5 in w, and the surrogate constraint values."""
    q0 = problem.exact_objective_weight
    grad_obj = 2 * q0 * w if q0 is not None else lin[0] + 2 * tau * w
    g = const[1:] - problem.constraint_levels + lin[1:] @ w + tau * w @ w
    stat = grad_obj + nu @ (lin[1:] + 2 * tau * w[None, :])
    return np.abs(stat).max(), g


@pytest.mark.parametrize("kind", ["M0", "M1_exact", "M1_surrogate", "M2_surrogate", "M2_exact"])
@pytest.mark.parametrize("mode", ["sample", "feature"])
def test_a_recursion_and_server_step_match_independent_cvxpy(kind, mode):
    problem = PROBLEMS[kind]()
    T, B, I = 10, 3, 4
    monitor, checkpoints, states = _capture_states(T)
    params = _params(T=T, B=B if mode == "sample" else I * B, record_batches=True, checkpoints=checkpoints,
                     client_indices=_partition(40, I) if mode == "sample" else None, monitor=monitor)
    if mode == "sample":
        tr = ssca.run_sample_based(problem, params, np.random.default_rng(3))
        batches = tr.batches.reshape(T - 1, -1)
        weights = np.full(I * B, (40 // I) / (B * 40))
    else:
        tr = ssca.run_feature_based(problem, params, np.random.default_rng(3))
        batches, weights = tr.batches, np.full(I * B, 1.0 / (I * B))
    assert len(states) == T and states[0].omega_bar is None
    iterates = [s.omega for s in states]
    tau, c = params.tau, params.penalty
    for t in range(1, T):
        const, lin, quad = _unrolled_coefficients(problem, iterates, batches, weights, tr.rho, tau, t)
        # the literal quadratic weight is tau (1 - prod (1 - rho)), not the printed tau (the audit finding)
        assert quad == pytest.approx(tau * (1 - np.prod(1 - tr.rho[:t])), rel=1e-12)
        st = states[t]                                      # checkpoint t+1 holds w_bar^(t), f_hat^(t)
        np.testing.assert_allclose(st.f_hat_lin, lin, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(st.f_hat_const, const[1:], rtol=1e-10, atol=1e-12)
        w_ref, zeta_ref = _printed_server_problem(problem, const, lin, tau, c)
        np.testing.assert_allclose(st.omega_bar, w_ref, atol=1e-6 * max(1.0, np.abs(w_ref).max()), rtol=0)
        if problem.n_constraints:
            np.testing.assert_allclose(st.zeta, zeta_ref, atol=1e-6, rtol=0)
            stat, g = _kkt_residuals(problem, lin, const, tau, c, st.omega_bar, st.nu)
            assert stat <= 1e-6 * (1 + c)
            assert np.all((st.nu >= 0) & (st.nu <= c))
            assert np.all(st.nu[g < -1e-7] <= 1e-6 * c) and np.all(st.nu[g > 1e-7] >= c * (1 - 1e-6))
            np.testing.assert_array_equal(st.nu, tr.nu[t - 1])
        # (5), and the trace's per-update records
        np.testing.assert_allclose(states[t].omega, (1 - tr.gamma[t - 1]) * iterates[t - 1]
                                   + tr.gamma[t - 1] * st.omega_bar, rtol=1e-14, atol=1e-14)
        assert tr.step_norm[t - 1] == pytest.approx(np.linalg.norm(st.omega_bar - iterates[t - 1]), rel=1e-12)
    np.testing.assert_array_equal(tr.omega_final, states[-1].omega)
    expected_route = {"M0": "closed_form", "M1_surrogate": "brentq", "M2_surrogate": "cvxpy", "M2_exact": "cvxpy"}
    if kind in expected_route:
        assert tr.server_route == expected_route[kind]
    elif kind == "M1_exact":                      # q0 = 1, a = 0: Lemma 1 when bounds.ssca is importable
        assert tr.server_route == ("lemma1" if ssca._lemma1_nu() is not None else "brentq")
    if problem.n_constraints:
        assert tr.nu.shape == tr.zeta.shape == tr.const.shape == (T - 1, problem.n_constraints)
        np.testing.assert_allclose(tr.const[-1], states[-1].f_hat_const)
        np.testing.assert_allclose(tr.lin_norm_sq[-1], np.sum(states[-1].f_hat_lin[1:] ** 2, axis=1))


def test_exact_objective_without_constraints_gives_zero_server_solution():
    X, Y = _data()
    problem = LogisticFamily(X, Y[:, :1], loss=[0], lam=[2.0], levels=[])
    sol, route = ssca.solve_server_problem(np.ones((1, 6)), np.zeros(0), np.zeros(0), 0.5, 1.0, 2.0)
    assert route == "closed_form" and np.all(sol.omega_bar == 0)
    tr = ssca.run_feature_based(problem, _params(T=4, B=5), np.random.default_rng(0))
    np.testing.assert_allclose(tr.omega_final, np.prod(1 - tr.gamma) * _omega1(), rtol=1e-14)


# ----------------------------------------------------------------------------------------- (b) M = 1 dual route
def _cvxpy_single(a, q, b, gap, tau, c):
    """Reference for single_constraint_dual: cvxpy (Clarabel, tight tolerances, the constraint in the
    completed-square form ||w + b/(2 tau)|| <= sqrt((z - gap)/tau + ||b||^2/(4 tau^2))), then the KKT
    refinement of :func:`_refine_on_kkt_system`. Returns (w_cvxpy, w, zeta, nu, optimal value)."""
    w, z = cp.Variable(b.shape[0]), cp.Variable(nonneg=True)
    obj = q * cp.sum_squares(w) + (0 if a is None else a @ w) + c * z
    con = cp.norm(w + b / (2 * tau)) <= cp.sqrt((z - gap) / tau + b @ b / (4 * tau**2))
    prob = cp.Problem(cp.Minimize(obj), [con])
    prob.solve(solver=cp.CLARABEL, **TIGHT)
    assert prob.status in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE)
    a_vec = np.zeros_like(b) if a is None else a
    w_ref, nu = _refine_on_kkt_system(a_vec, q, b[None, :], np.array([gap]), tau, c, w.value,
                                      np.array([float(z.value)]))
    zeta = max(0.0, gap + b @ w_ref + tau * w_ref @ w_ref)
    return w.value, w_ref, zeta, float(nu[0]), prob.value


def _instance(rng, regime, with_a):
    d = int(rng.integers(2, 6))
    tau, q, c = rng.uniform(0.1, 2.0), rng.uniform(0.2, 3.0), rng.uniform(1.0, 20.0)
    b = rng.normal(size=d)
    a = rng.normal(size=d) if with_a else None
    a_vec = np.zeros(d) if a is None else a
    w0 = -a_vec / (2 * q)
    g0 = b @ w0 + tau * w0 @ w0                         # constraint value at w(0) is gap + g0
    floor = -b @ b / (4 * tau)                          # min_w b.w + tau ||w||^2
    if regime == "inactive":
        gap = -g0 - rng.uniform(0.05, 1.0)
    elif regime == "saturated":
        gap = -floor + rng.uniform(0.05, 1.0)           # surrogate constraint infeasible for every w
    else:
        gap = -(g0 + floor) / 2 - (g0 - floor) * rng.uniform(-0.3, 0.3)  # strictly between -g0 and -floor
        c = 1e4                                         # large enough for the root of H' to lie below c
    return a, q, b, gap, tau, c


@pytest.mark.parametrize("with_a", [False, True])
@pytest.mark.parametrize("regime", ssca.REGIMES)
def test_b_single_constraint_dual_matches_cvxpy(regime, with_a):
    rng = np.random.default_rng(zlib.crc32(f"{regime}-{with_a}".encode()))   # not hash(): salted per process
    seen = set()
    for _ in range(6):
        a, q, b, gap, tau, c = _instance(rng, regime, with_a)
        nu, w = ssca.single_constraint_dual(a, q, b, gap, tau, c)
        w_cvx, w_ref, z_ref, nu_ref, val_ref = _cvxpy_single(a, q, b, gap, tau, c)
        zeta = max(0.0, gap + b @ w + tau * w @ w)
        value = q * w @ w + (0 if a is None else a @ w) + c * zeta
        np.testing.assert_allclose(w, w_cvx, atol=1e-3)       # raw interior-point accuracy (c up to 1e4)
        np.testing.assert_allclose(w, w_ref, atol=1e-9)
        assert zeta == pytest.approx(z_ref, abs=1e-9)
        assert nu == pytest.approx(nu_ref, abs=1e-8 * (1 + c))
        assert value == pytest.approx(val_ref, rel=1e-5, abs=1e-7)                       # cvxpy's value
        value_ref = q * w_ref @ w_ref + (0 if a is None else a @ w_ref) + c * z_ref
        assert value == pytest.approx(value_ref, rel=1e-9, abs=1e-9)
        # exact KKT at the dual route's point: stationarity in w, nu in [0, c], complementary slackness
        g = gap + b @ w + tau * w @ w
        assert np.abs((0 if a is None else a) + 2 * q * w + nu * (b + 2 * tau * w)).max() < 1e-10 * (1 + c)
        assert 0 <= nu <= c and (nu == 0 or abs(g) < 1e-10 or nu == c) and (g <= 1e-12 or nu == c)
        seen.add(ssca.REGIMES[ssca._regime(nu, c)])
        # the same instance through the M >= 2 machinery (QCQP server + dual polish) agrees as well
        qcqp_w, qcqp_nu = ssca.QCQPServer(b.shape[0], 1, tau, c, q if a is None else None).solve(
            np.zeros_like(b) if a is None else a, b[None, :], np.array([gap]))
        if a is None or q == tau:                    # QCQPServer's surrogate objective has q = tau
            np.testing.assert_allclose(qcqp_w, w, atol=1e-3)
            nu_p, w_p = ssca.polish_dual(a, q, b[None, :], np.array([gap]), tau, c, np.clip(qcqp_nu, 0, c))
            np.testing.assert_allclose(w_p, w, atol=1e-10)
            assert nu_p[0] == pytest.approx(nu, abs=1e-9 * (1 + c))
    assert seen == {regime}


def test_b_server_problem_m1_reports_regimes_and_slack():
    """solve_server_problem with the surrogate objective (a = f_hat_{0,1}, q = tau) routes M = 1 to brentq."""
    rng = np.random.default_rng(5)
    for regime in ssca.REGIMES:
        a, _, b, gap, tau, c = _instance(rng, regime, with_a=True)
        level = 1.0
        sol, route = ssca.solve_server_problem(np.stack([a, b]), np.array([gap + level]), np.array([level]),
                                               tau, c, None)
        _, w_ref, z_ref, nu_ref, _ = _cvxpy_single(a, tau, b, gap, tau, c)
        assert route == "brentq"
        np.testing.assert_allclose(sol.omega_bar, w_ref, atol=1e-9)
        assert sol.zeta[0] == pytest.approx(z_ref, abs=1e-9)
        assert sol.nu[0] == pytest.approx(nu_ref, abs=1e-8 * (1 + c))
        assert sol.regime[0] == ssca._regime(sol.nu[0], c)


def test_b_lemma1_route_refuses_what_42_cannot_take():
    """The server step's Lemma 1 route checks what the vectorised (42) checked: ||Theta||^2 that overflows, a
    non-finite gap, tau or c raise a one-line error naming them instead of returning NaN."""
    levels = np.array([0.5])
    for lin, const, tau, c in ((np.array([[0.0, 0.0], [1e160, 1e160]]), np.array([0.3]), 0.5, 10.0),
                               (np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([np.inf]), 0.5, 10.0),
                               (np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([0.3]), np.inf, 10.0),
                               (np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([0.3]), 0.5, -1.0)):
        with pytest.raises(ValueError, match="^b @ b, gap, tau, penalty="):
            ssca.solve_server_problem(lin, const, levels, tau, c, 1.0)


def test_b_lemma1_route_matches_brentq_route():
    from bounds.ssca import claims as bounds_ssca
    assert hasattr(bounds_ssca, "lemma1_nu")
    rng = np.random.default_rng(11)
    seen = set()
    for regime in ssca.REGIMES * 4:
        _, _, b, gap, tau, c = _instance(rng, regime, with_a=False)
        A, U = gap + 0.3, 0.3
        lin = np.stack([np.zeros_like(b), b])
        sol, route = ssca.solve_server_problem(lin, np.array([A]), np.array([U]), tau, c, exact_weight=1.0)
        assert route == "lemma1"
        nu_ref, w_ref = ssca.single_constraint_dual(None, 1.0, b, A - U, tau, c)
        assert sol.nu[0] == pytest.approx(nu_ref, rel=1e-9, abs=1e-12)
        np.testing.assert_allclose(sol.omega_bar, w_ref, rtol=1e-9, atol=1e-12)
        seen.add(int(sol.regime[0]))
    assert seen == {0, 1, 2}


# ----------------------------------------------------------------------------------------- (c) coupling
@pytest.mark.parametrize("kind", ["M0", "M1_exact", "M1_surrogate", "M2_surrogate"])
def test_c_sample_based_equals_feature_based_on_the_union_batch(kind):
    problem = PROBLEMS[kind]()
    I, B, T = 4, 2, 40
    p_s = _params(T=T, B=B, record_batches=True, c=1e3, client_indices=_partition(40, I))
    tr_s = ssca.run_sample_based(problem, p_s, np.random.default_rng(21))
    p_f = _params(T=T, B=I * B, c=1e3, replay_batches=tr_s.batches.reshape(T - 1, I * B))
    tr_f = ssca.run_feature_based(problem, p_f, np.random.default_rng(99))
    scale = np.abs(tr_s.omega_final).max()
    # the closed forms agree to rounding; the M = 2 server is an interior-point QCQP polished by projected Newton
    # (QCQPServer, polish_dual), whose two runs differed by 2e-10 to 8e-10 relative in 3 of 12 seeds (under both
    # minibatch draws this suite has used) and to rounding in the others: its documented accuracy is ~1e-9
    tol = 1e-9 if problem.n_constraints >= 2 else 1e-12
    assert np.abs(tr_s.omega_final - tr_f.omega_final).max() <= tol * scale
    np.testing.assert_allclose(tr_s.step_norm, tr_f.step_norm, rtol=100 * tol, atol=100 * tol)
    np.testing.assert_allclose(tr_s.batch_value, tr_f.batch_value, rtol=tol)
    assert tr_s.algorithm.startswith("Algorithm 2" if problem.n_constraints else "Algorithm 1")
    assert tr_f.algorithm.startswith("Algorithm 4" if problem.n_constraints else "Algorithm 3")
    rows = problem.n_constraints + (problem.exact_objective_weight is None)
    assert np.all(tr_s.floats_sent_per_client == rows * problem.dim + problem.n_constraints)
    assert np.all(tr_f.floats_sent_total == tr_s.floats_sent_per_client)


# ----------------------------------------------------------------------------------------- (d) convergence
def _grad_norm(problem, w):
    return np.linalg.norm(problem.full_values_and_grads(w)[1][0])


def test_d_converges_on_strongly_convex_logistic_and_short_run_does_not():
    problem = unconstrained(lam=0.05)
    steps = ssca.PowerLawSteps(a1=0.9, alpha=0.6, a2=0.9, beta=0.75)
    assert steps.conditions() == {"(4)": True, "(6)": True}
    w1 = 3.0 * _omega1()
    start = _grad_norm(problem, w1)
    tol = 0.01 * start        # seeds 0-5 reach 0.0015-0.0043 x start at T = 2000 (tau = 0.25); T = 5: ~0.5
    run = dict(B=3, tau=0.25, steps=steps, omega1=w1, client_indices=_partition(40, 4))
    long = ssca.run_sample_based(problem, _params(T=2000, **run), np.random.default_rng(0))
    short = ssca.run_sample_based(problem, _params(T=5, **run), np.random.default_rng(0))
    assert _grad_norm(problem, long.omega_final) < tol
    assert _grad_norm(problem, short.omega_final) > tol


# ----------------------------------------------------------------------------------------- (e) determinism
@pytest.mark.parametrize("kind", ["M0", "M1_exact"])
def test_e_same_seed_same_trace_different_seed_different_batches(kind):
    problem = PROBLEMS[kind]()
    mon = lambda t, s: {"norm": float(np.linalg.norm(s.omega)), "t": t}  # noqa: E731
    params = _params(T=15, B=2, record_batches=True, checkpoints=(1, 8, 15), client_indices=_partition(40, 4),
                     monitor=mon)
    run = lambda seed: ssca.run_sample_based(problem, params, np.random.default_rng(seed))  # noqa: E731
    a, b, c = run(4), run(4), run(5)
    for name in ("rho", "gamma", "step_norm", "omega_norm", "batch_value", "omega_final", "batches"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    assert a.monitor.keys() == {"norm", "t"} and np.array_equal(a.monitor["t"], [1, 8, 15])
    np.testing.assert_array_equal(a.monitor["norm"], b.monitor["norm"])
    assert a.monitor["norm"][-1] == pytest.approx(np.linalg.norm(a.omega_final))
    assert not np.array_equal(a.batches, c.batches)
    f1 = ssca.run_feature_based(problem, _params(T=15, B=6, record_batches=True), np.random.default_rng(4))
    f2 = ssca.run_feature_based(problem, _params(T=15, B=6, record_batches=True), np.random.default_rng(4))
    f3 = ssca.run_feature_based(problem, _params(T=15, B=6, record_batches=True), np.random.default_rng(6))
    np.testing.assert_array_equal(f1.omega_final, f2.omega_final)
    assert not np.array_equal(f1.batches, f3.batches)


class _PublicOnly:
    """A project problem seen through its public oracles only (no ``_batch_sums``): what a problem of another
    package offers the engine."""

    def __init__(self, problem):
        self._problem = problem

    def __getattr__(self, name):
        if name.startswith("_") or name == "unchecked_oracle":
            raise AttributeError(name)
        return getattr(self._problem, name)


@pytest.mark.parametrize("name", ["logistic_l2", "norm_loss_limit"])
def test_the_engine_calls_the_unvalidated_oracle_with_the_same_numbers(name):
    """The engine and the SGD baselines call a project problem's ``_batch_sums`` (their arguments are valid by
    construction); a problem with the public oracles only runs through them; the traces are the same, bit for bit."""
    from repro.papers.ssca.runs import convergence as C

    config = C.ConvergenceConfig(problem=name, steps="theory_a", mode="sample", iterations=40, profile="quick")
    problem, *_ = C.build_problem(config, np.random.default_rng(3))
    assert ssca.loop_oracle(problem, "batch_sums").__name__ == "_batch_sums"
    assert ssca.loop_oracle(_PublicOnly(problem), "batch_sums").__name__ == "batch_sums"

    class Overriding(type(problem)):                # a subclass that overrides the public oracle keeps it
        def batch_sums(self, omega, index, weights):
            return super().batch_sums(omega, index, weights)

    overriding = Overriding.__new__(Overriding)
    overriding.__dict__.update(problem.__dict__)
    assert ssca.loop_oracle(overriding, "batch_sums").__func__ is Overriding.batch_sums
    assert ssca.loop_oracle(overriding, "block_batch_sums").__name__ == "_block_batch_sums"
    for run, B, clients in ((ssca.run_sample_based, 4, _partition(problem.n_samples, 5)),
                            (ssca.run_feature_based, 20, None)):
        params = _params(T=40, B=B, c=100.0, omega1=np.linspace(-1, 1, problem.dim), client_indices=clients)
        a, b = (run(p, params, np.random.default_rng(9)) for p in (problem, _PublicOnly(problem)))
        for field_name in ("step_norm", "omega_norm", "batch_value", "omega_final", "nu", "zeta"):
            np.testing.assert_array_equal(getattr(a, field_name), getattr(b, field_name))
    for run, B, clients in ((sgd.run_fedavg_sgd, 4, _partition(problem.n_samples, 5)), (sgd.run_feature_sgd, 20, None)):
        params = _sgd_params(0.5, 0.3, 40, B, omega1=np.linspace(-1, 1, problem.dim), client_indices=clients)
        a, b = (run(p, params, np.random.default_rng(9)) for p in (problem, _PublicOnly(problem)))
        for field_name in ("step_norm", "omega_norm", "omega_final"):         # the SGD baselines: the same
            np.testing.assert_array_equal(getattr(a, field_name), getattr(b, field_name))


def test_monitor_state_is_read_only_and_starts_empty():
    seen = {}

    def monitor(t, state):
        seen[t] = state
        with pytest.raises(ValueError):
            state.omega[0] = 1.0
        return {}
    ssca.run_sample_based(constrained_exact(), _params(T=5, checkpoints=(1, 5), client_indices=_partition(40, 4),
                                                       monitor=monitor), np.random.default_rng(0))
    assert seen[1].omega_bar is None and seen[1].nu is None and np.all(seen[1].f_hat_lin == 0)
    assert seen[5].nu.shape == (1,) and seen[5].zeta.shape == (1,)


def test_step_size_family():
    s = ssca.PowerLawSteps.section_vi(0.4, 0.4, 0.4)
    assert s.beta == pytest.approx(0.45)
    np.testing.assert_allclose(s.rho(4), 0.4 / np.arange(1, 4) ** 0.4)
    np.testing.assert_allclose(s.gamma(4), 0.4 / np.arange(1, 4) ** 0.45)
    assert s.conditions() == {"(4)": True, "(6)": False}      # beta = 0.45 <= 1/2: sum gamma^2 diverges


# ----------------------------------------------------------------------------------------- (f) SGD baselines
def test_f_fedavg_with_one_local_step_is_minibatch_sgd_on_the_union():
    problem, I, B, T = unconstrained(), 4, 3, 12
    params = _sgd_params(0.5, 0.6, T, B, record_batches=True, client_indices=_partition(40, I))
    tr = sgd.run_fedavg_sgd(problem, params, np.random.default_rng(2))
    assert tr.batches.shape == (T - 1, 1, I, B)
    w = _omega1()
    for t in range(1, T):
        _, g = problem.batch_sums(w, tr.batches[t - 1, 0].reshape(-1), np.full(I * B, 1.0 / (I * B)))
        w = w - params.lr_a / t ** params.lr_alpha * g[0]
    np.testing.assert_allclose(tr.omega_final, w, rtol=1e-12, atol=1e-13)

    p2 = _sgd_params(0.5, 0.6, T, B, local_steps=2, record_batches=True, client_indices=_partition(40, I))
    tr2 = sgd.run_fedavg_sgd(problem, p2, np.random.default_rng(2))
    # E = 2: clients take two local steps from the server model, then the server averages
    w = _omega1()
    for t in range(1, T):
        r = p2.lr_a / t ** p2.lr_alpha
        locals_ = []
        for i in range(I):
            wi = w.copy()
            for e in range(2):
                _, g = problem.batch_sums(wi, tr2.batches[t - 1, e, i], np.full(B, 1.0 / B))
                wi = wi - r * g[0]
            locals_.append(wi)
        w = np.mean(locals_, axis=0)
    np.testing.assert_allclose(tr2.omega_final, w, rtol=1e-12, atol=1e-13)
    # the E = 2 model differs from mini-batch SGD on the union of its first-step batches
    w_union = _omega1()
    for t in range(1, T):
        _, g = problem.batch_sums(w_union, tr2.batches[t - 1, 0].reshape(-1), np.full(I * B, 1.0 / (I * B)))
        w_union = w_union - p2.lr_a / t ** p2.lr_alpha * g[0]
    assert np.abs(tr2.omega_final - w_union).max() > 1e-6
    assert np.all(tr2.grad_evals_per_client == 2 * B) and np.all(tr.floats_sent_per_client == problem.dim)


def test_f_feature_sgd_is_plain_sgd_on_the_server_batch():
    problem, B, T = unconstrained(), 7, 10
    params = _sgd_params(0.3, 0.5, T, B, record_batches=True, checkpoints=(1, T),
                         monitor=lambda t, s: {"n": float(np.linalg.norm(s.omega))})
    tr = sgd.run_feature_sgd(problem, params, np.random.default_rng(1))
    w = _omega1()
    for t in range(1, T):
        assert np.unique(tr.batches[t - 1]).size == B
        _, g = problem.batch_sums(w, tr.batches[t - 1], np.full(B, 1.0 / B))
        w = w - 0.3 / t ** 0.5 * g[0]
    np.testing.assert_allclose(tr.omega_final, w, rtol=1e-12, atol=1e-13)
    assert tr.monitor["n"][-1] == pytest.approx(np.linalg.norm(w))


# ----------------------------------------------------------------------------------------- (g) validation
STEPS = ssca.PowerLawSteps(0.5, 0.5, 0.5, 0.6)


@pytest.mark.parametrize("make, name", [
    (lambda: ssca.PowerLawSteps(0.0, 0.5, 0.5, 0.6), "a1"),
    (lambda: ssca.PowerLawSteps(1.5, 0.5, 0.5, 0.6), "a1"),
    (lambda: ssca.PowerLawSteps(0.5, 0.5, 1.01, 0.6), "a2"),
    (lambda: ssca.PowerLawSteps(0.5, -0.1, 0.5, 0.6), "alpha"),
    (lambda: ssca.PowerLawSteps(0.5, 0.5, 0.5, float("nan")), "beta"),
    (lambda: ssca.SSCAParams(tau=0.0, steps=STEPS, iterations=5, batch=1, omega1=_omega1()), "tau"),
    (lambda: ssca.SSCAParams(tau=0.1, steps=(0.5, 0.5), iterations=5, batch=1, omega1=_omega1()), "steps"),
    (lambda: ssca.SSCAParams(tau=0.1, steps=STEPS, iterations=1, batch=1, omega1=_omega1()), "iterations"),
    (lambda: ssca.SSCAParams(tau=0.1, steps=STEPS, iterations=5.0, batch=1, omega1=_omega1()), "iterations"),
    (lambda: ssca.SSCAParams(tau=0.1, steps=STEPS, iterations=5, batch=0, omega1=_omega1()), "batch"),
    (lambda: _params(c=-1.0), "penalty"),
    (lambda: _params(T=5, checkpoints=(0, 3)), "checkpoints"),
    (lambda: _params(T=5, checkpoints=(3, 6)), "checkpoints"),
    (lambda: _params(T=5, checkpoints=[1]), "checkpoints"),
    (lambda: _params(omega1=np.ones((2, 3))), "omega1"),
    (lambda: _params(omega1=[1.0, np.nan]), "omega1"),
    (lambda: _params(omega1="w"), "omega1"),
    (lambda: _params(monitor="every step"), "monitor"),
    (lambda: _sgd_params(0.0, 0.5, 5, 1), "lr_a"),
    (lambda: _sgd_params(0.1, -1.0, 5, 1), "lr_alpha"),
    (lambda: _sgd_params(0.1, 0.5, 5, 1, local_steps=0), "local_steps"),
    (lambda: _sgd_params(0.1, 0.5, 5, 1, omega1=None), "omega1"),
    (lambda: ssca.run_sample_based(unconstrained(), _params(B=11, client_indices=_partition(40, 4)),
                                   np.random.default_rng(0)), "batch"),
    (lambda: ssca.run_sample_based(unconstrained(), _params(client_indices=np.zeros((4, 10), dtype=int)),
                                   np.random.default_rng(0)), "client_indices"),
    (lambda: ssca.run_sample_based(unconstrained(), _params(), np.random.default_rng(0)), "client_indices"),
    (lambda: ssca.run_sample_based(unconstrained(), _params(omega1=np.ones(5), client_indices=_partition(40, 4)),
                                   np.random.default_rng(0)), "omega1"),
    (lambda: ssca.run_sample_based(unconstrained(), _params(T=4, client_indices=_partition(40, 4),
                                                            replay_batches=np.zeros((3, 4, 2), dtype=int)),
                                   np.random.default_rng(0)), "replay_batches"),
    (lambda: ssca.run_sample_based(unconstrained(), _params(T=2, B=2, client_indices=_partition(40, 4),
                                                            replay_batches=_partition(40, 4)[::-1, :2][None]),
                                   np.random.default_rng(0)), "replay_batches"),
    (lambda: ssca.run_feature_based(unconstrained(), _params(B=41), np.random.default_rng(0)), "batch"),
    (lambda: sgd.run_feature_sgd(unconstrained(), _sgd_params(0.1, 0.5, 5, 4, local_steps=2),
                                 np.random.default_rng(0)), "local_steps"),
    (lambda: sgd.run_fedavg_sgd(unconstrained(), _sgd_params(0.1, 0.5, 5, 4), np.random.default_rng(0)),
     "client_indices"),
])
def test_g_bad_params_raise_value_error_naming_the_parameter(make, name):
    with pytest.raises(ValueError, match=rf"^{name}="):
        make()


# ----------------------------------------------------------------------------------------- (h) divergence
def test_h_divergence_raises():
    with pytest.raises(ssca.DivergenceError, match=r"Algorithm 1.*iteration \d+ of 29.*rho=.*gamma=.*tau=") as e:
        ssca.run_sample_based(unconstrained(), _params(T=30, tau=1e-300, client_indices=_partition(40, 4)),
                              np.random.default_rng(0))
    assert isinstance(e.value, ReproError) and isinstance(e.value, FloatingPointError)
    with pytest.raises(ssca.DivergenceError, match="Algorithm 4"):
        ssca.run_feature_based(constrained_surrogate(), _params(T=30, tau=1e-300), np.random.default_rng(0))
    with pytest.raises(sgd.DivergenceError,
                       match=r"FedAvg-SGD.*iteration \d+ of 29.*learning rate r_t=.*reduce the learning rate"):
        sgd.run_fedavg_sgd(unconstrained(), _sgd_params(1e308, 0.0, 30, 2, client_indices=_partition(40, 4)),
                           np.random.default_rng(0))


# ----------------------------------------------------------------------------------------- (i) sampling
@pytest.mark.parametrize("n, k", [(6000, 1), (6000, 10), (6000, 100), (60000, 1000), (6000, 1000), (10, 3)])
def test_i_smallest_keys_is_the_k_smallest_of_each_row(n, k):
    """The filtered selection (every row with >= k keys below its threshold) and the full partition (otherwise) both
    return the positions of each row's k smallest keys, ascending; a row with too few small keys falls back."""
    rng = np.random.default_rng(n + k)
    for trial in range(30):
        keys = rng.random((10, n))
        if trial == 0:
            keys[3] = np.linspace(0.5, 1.0, n, endpoint=False)        # no key below any threshold: the fallback
        expected = np.sort(np.argsort(keys, axis=1, kind="stable")[:, :k], axis=1)
        np.testing.assert_array_equal(ssca.smallest_keys(keys, k), expected)


@pytest.mark.parametrize("B", [1, 2, 4, 5])
def test_i_every_subset_is_equally_likely_by_rejection_and_by_keys(B):
    """n_i = 6: B <= 4 draws positions and redraws rows with a repeat, B = 5 takes the 5 smallest keys; in both
    every B-subset of a row has probability 1 / C(6, B)."""
    from itertools import combinations

    rng = np.random.default_rng(B)
    idx = _partition(18, 3)
    subsets = {c: k for k, c in enumerate(combinations(range(6), B))}
    where = [{int(v): j for j, v in enumerate(row)} for row in idx]          # sample index -> position in its row
    R = 6000
    counts = np.zeros((3, len(subsets)))
    for _ in range(R):
        chosen = ssca.draw_client_batches(rng, idx, B)
        for i in range(3):
            counts[i, subsets[tuple(sorted(where[i][int(v)] for v in chosen[i]))]] += 1
    p = 1 / len(subsets)
    assert np.all(np.abs(counts - R * p) <= 5 * np.sqrt(R * p * (1 - p)))


def test_i_batches_are_without_replacement_and_uniform():
    rng = np.random.default_rng(0)
    idx = _partition(40, 4)
    R, B, n_i = 4000, 3, 10
    counts = np.zeros(40)
    for _ in range(R):
        chosen = ssca.draw_client_batches(rng, idx, B)
        assert chosen.shape == (4, B)
        for i in range(4):
            assert np.unique(chosen[i]).size == B and np.isin(chosen[i], idx[i]).all()
        counts[chosen.reshape(-1)] += 1
    p = B / n_i
    assert np.all(np.abs(counts - R * p) <= 5 * np.sqrt(R * p * (1 - p)))
    np.testing.assert_array_equal(ssca.draw_client_batches(rng, idx, n_i), idx)

    counts = np.zeros(40)
    for _ in range(R):
        chosen = ssca.draw_server_batch(rng, 40, 7)
        assert np.unique(chosen).size == 7
        counts[chosen] += 1
    p = 7 / 40
    assert np.all(np.abs(counts - R * p) <= 5 * np.sqrt(R * p * (1 - p)))


def test_a_run_with_the_papers_penalty_reports_regimes():
    """c = 1e5 (Section VI) on the constrained problem: the trace records nu in [0, c] and consistent regimes."""
    tr = ssca.run_sample_based(constrained_exact(U=0.45), _params(T=60, c=1e5, client_indices=_partition(40, 4)),
                               np.random.default_rng(0))
    assert np.all((tr.nu >= 0) & (tr.nu <= 1e5))
    codes = np.where(tr.nu == 0, 0, np.where(tr.nu == 1e5, 2, 1))
    np.testing.assert_array_equal(tr.regime, codes)
    assert np.all(tr.zeta[tr.regime == 0] == 0)


def test_the_algorithms_loop_only_over_iterations_and_local_steps(tmp_path):
    """``benchmarks/bench_ssca.py --only static``: no Python loop over clients in Algorithms 1-4 or the SGD
    baselines, and every mutant of its self-test rejected (the rule is the benchmark's, run here so that CI holds the
    code to it)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "benchmarks" / "bench_ssca.py"), "--only", "static",
                           "--out-dir", str(tmp_path)], capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "(FAIL)" not in done.stdout and done.stdout.count("(PASS)") == 2
