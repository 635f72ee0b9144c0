"""PC-FedAvg audit: the proof-step table for Proposition 4.8 and Theorem 3.4.

:func:`steps_prop_4_8_and_thm_3_4` re-derives each labelled step of the proofs of Prop. 4.8 -- (P4.8-a) ... (P4.8-h),
(8) ... (12), the two facts before (11), (i), (ii), (iii) -- and of Theorem 3.4 -- (T3.4-a), the step-size choice,
the rates of (i)-(iii) -- as rows of :func:`bounds.pcfedavg.findings.proof_steps`.

Rows computed here (each a computation whose keyword arguments let a test perturb its input and see the status flip):
(P4.8-a) and (P4.8-e) exactly on :data:`bounds.pcfedavg.exact_instances.PROP48_INSTANCES`, (P4.8-b) and (8) as
identities in undefined f_i, Pi_i (:func:`_penalized_objective_blocks`), (9) by a falsification search on random
convex instances (:func:`_convexity_search`), (P4.8-d) as an identity, (T3.4-a) against the bound the proofs give
(:data:`T34A_PRINTED_LHS`). The rows (P4.8-f), (10), fact 1, (11), (P4.8-h) and (iii) come from
:mod:`bounds.pcfedavg.prop48_norm_facts`; (i), (12), (ii) from :mod:`bounds.pcfedavg.prop48_findings`; the rates from
:mod:`bounds.pcfedavg.thm34_rates`.
"""
from __future__ import annotations

import itertools

import sympy as sp

from ..audit import fmt_point
from ..core import prove_identity, prove_nonnegative, sample_nonnegative
from .claims import TERMS_48I, H, K, L_f, M, Q, gamma, m, nu, rho, sigma
from .derivation_tools import IDENTITY, NOT_CHECKED, NOT_IMPLIED, SAMPLING_BOXES, VALID, table_step
from .exact_instances import (PROP48_INSTANCES, instance_args, instance_objective, instance_penalty_cal_h,
                              interval_instance)
from .lemma45_prop47_findings import prop47_from_proof
from .prop48_findings import PROP48_II_COUNTEREXAMPLE, check_eq12, check_prop48_i, check_prop48_ii_terms
from .prop48_norm_facts import (row_eq10_sum_of_slacks, row_eq11_by_jensen, row_fact1_l2_norm_below_l1,
                                row_p48f_cauchy_schwarz_jensen, row_p48h_by_jensen, row_prop48_iii_from_p48h_and_eq12)
from .stepsize_schedule_findings import finding_thm34_stepsize_inadmissible
from .thm34_rates import complexity_table


# ============================================================================ computed rows of Prop. 4.8 and Thm. 3.4
def row_p48a_x_star_rho_minimizes(minimizer=None, instances=PROP48_INSTANCES):
    """(P4.8-a): G_rho(x*) >= G_rho(x*_rho) (x*_rho minimizes G_rho) exactly on ``instances``; ``minimizer``
    replaces x*_rho of the first instance in tests."""
    rows = []
    for j, d in enumerate(instances):
        c, sig, X, r = instance_args(d)
        inst = interval_instance(c, sig, X, r)
        xs, f_expr = instance_objective(c, sig)
        G = lambda pt: f_expr.subs(dict(zip(xs, pt))) + sp.Rational(r) * instance_penalty_cal_h(pt, X)   # noqa: E731
        xr = tuple(minimizer) if (minimizer is not None and j == 0) else inst["x_star_rho"]
        diff = sp.nsimplify(G(inst["x_star"]) - G(xr))
        rows.append((inst["x_star"], xr, diff, bool(diff >= 0)))
    ok = all(r[3] for r in rows)
    return table_step("pcfedavg.prop4.8", "(P4.8-a)", VALID if ok else NOT_IMPLIED,
                      "G_rho(x*_rho) <= G_rho(x*) (x*_rho minimizes G_rho), so E[G(xb) - G(x*)] <= E[G(xb) - G(x*_rho)]",
                      "exact instances (n = 1, f_i = (y - c_i)^2/2, X_i intervals, G_rho = f + rho cal-H): "
                      + "; ".join(f"x* = {a}, x*_rho = {b}: G_rho(x*) - G_rho(x*_rho) = {v} ({'>= 0' if ok_ else '< 0'})"
                                  for a, b, v, ok_ in rows) + " (instances, not a proof)",
                      counterexample=None if ok else {"instances": [[str(a), str(b), str(v)] for a, b, v, _ in rows]})


def _penalized_objective_blocks(m_: int = 3, penalty_weight=None):
    """Sympy encodings of the definitions for m_ scalar blocks: F_i(x) = f_i(A x) + sigma_i/2 (x_i - A x)^2,
    H_i(x) = h_i(B_i x) = (x_i - Pi_i(x_i))^2/2, G_{i,rho} = F_i + rho H_i, G_rho = (1/m) sum_i G_{i,rho},
    f = (1/m) sum_i F_i, cal-H = (1/m) sum_i H_i (f_i and Pi_i undefined functions). ``penalty_weight`` replaces
    rho in G_{i,rho} (tests)."""
    w = rho if penalty_weight is None else penalty_weight
    fi = [sp.Function(f"f_{i}") for i in range(m_)]
    Pi = [sp.Function(f"Pi_{i}") for i in range(m_)]
    sg = sp.symbols(f"_sigma0:{m_}", positive=True)

    def F(i, x):
        return fi[i](sum(x) / m_) + sg[i] / 2 * (x[i] - sum(x) / m_)**2

    def Hi(i, x):
        return (x[i] - Pi[i](x[i]))**2 / 2

    G = lambda x: sum(F(i, x) + w * Hi(i, x) for i in range(m_)) / m_     # noqa: E731
    f = lambda x: sum(F(i, x) for i in range(m_)) / m_                   # noqa: E731
    calH = lambda x: sum(Hi(i, x) for i in range(m_)) / m_               # noqa: E731
    return G, f, calH, Pi


def row_p48b_g_rho_is_f_plus_rho_cal_h(penalty_weight=None, m_: int = 3):
    """(P4.8-b): its left side f(xb) + rho cal-H(xb) - (f(x*) + rho cal-H(x*)) is G_rho(xb) - G_rho(x*) for the
    encoded definitions (an identity in undefined f_i, Pi_i)."""
    G, f, calH, _ = _penalized_objective_blocks(m_, penalty_weight)
    xb, xs = sp.symbols(f"_xb0:{m_}", real=True), sp.symbols(f"_xs0:{m_}", real=True)
    pt = prove_identity(G(xb), f(xb) + rho * calH(xb))
    res = prove_identity(f(xb) + rho * calH(xb) - (f(xs) + rho * calH(xs)), G(xb) - G(xs))
    ok = pt.proven is True and res.proven is True
    return table_step("pcfedavg.prop4.8", "(P4.8-b)", IDENTITY if ok else NOT_IMPLIED, "G_rho = f + rho cal-H",
                      f"m = {m_} scalar blocks, f_i and Pi_i undefined functions: G_rho(x) == f(x) + rho cal-H(x) proven: "
                      f"{pt.proven}; left side of (P4.8-b) == G_rho(xb) - G_rho(x*) proven: {res.proven}")


def row_eq8_feasible_x_star(coeff_8=None, m_: int = 3):
    """(8): (P4.8-c)'s printed left side with x*_i = Pi_{X_i}[x*_i] against (8)'s printed left side (coefficient
    ``coeff_8`` of sum dbar_i^2 in (8), printed rho/m)."""
    c8 = rho / m if coeff_8 is None else coeff_8
    Pi = [sp.Function(f"Pi_{i}") for i in range(m_)]
    Ef_b, Ef_s = sp.symbols("_Ef_xb _Ef_xs", real=True)
    dbar = sp.symbols(f"_dbar0:{m_}", nonnegative=True)
    xs = sp.symbols(f"_xs0:{m_}", real=True)
    lhs_c = Ef_b + rho / m * sum(v**2 for v in dbar) - (Ef_s + rho / m * sum((xs[i] - Pi[i](xs[i]))**2
                                                                             for i in range(m_)))
    feasible = {Pi[i](xs[i]): xs[i] for i in range(m_)}
    lhs_8 = (Ef_b - Ef_s) + c8 * sum(v**2 for v in dbar)
    res = prove_identity(lhs_c.subs(feasible), lhs_8)
    return table_step("pcfedavg.prop4.8", "(8)", IDENTITY if res.proven is True else NOT_IMPLIED,
                      "x*_i = Pi_{X_i}[x*_i] removes the x* penalty (given (P4.8-c))",
                      f"(P4.8-c) left side with Pi_i(x*_i) = x*_i == (8) left side (m = {m_}): {res.proven}; (8) inherits "
                      "the factor of (P4.8-c): with the definitions the coefficient is rho/(2m) (pcfedavg.P4.8-c.half)")


def _convexity_search(rng, trials: int = 200, sigma_scale: float = 1.0, tol: float = 1e-9) -> dict:
    """Falsification search for (9) on random convex instances of f(x) = (1/m) sum_i [f_i(A x) + sigma_i/2
    ||x_i - xbar||^2], f_i(y) = logsumexp(C_i y + e_i) + a_i/2 ||y||^2 (convex, A3.1): grad f(x*)^T E[xb - x*] <=
    E[f(xb)] - f(x*) for random x* and random discrete distributions of xb. ``sigma_scale`` < 0 makes the
    regularizer concave (tests)."""
    import numpy as np
    from scipy.special import logsumexp, softmax

    worst, violations = -np.inf, 0
    for _ in range(trials):
        m_, n_ = int(rng.integers(2, 5)), int(rng.integers(1, 4))
        C = rng.normal(size=(m_, 3, n_))
        e = rng.normal(size=(m_, 3))
        a = rng.exponential(size=m_) * (rng.random(m_) < 0.5)
        sg = sigma_scale * rng.exponential(size=m_)

        def f(x):
            xbar = x.mean(0)
            return np.mean([logsumexp(C[i] @ xbar + e[i]) + a[i] / 2 * xbar @ xbar
                            + sg[i] / 2 * np.sum((x[i] - xbar)**2) for i in range(m_)])

        def grad(x):
            xbar = x.mean(0)
            gbar = np.mean([C[i].T @ softmax(C[i] @ xbar + e[i]) + a[i] * xbar for i in range(m_)], axis=0)
            g = np.tile(gbar / m_, (m_, 1))
            for i in range(m_):
                dev = x[i] - xbar
                g[i] += sg[i] * dev / m_
                g -= sg[i] * dev / m_**2
            return g

        xs = rng.normal(size=(m_, n_)) * 2
        atoms = int(rng.integers(1, 4))
        pts = [rng.normal(size=(m_, n_)) * 2 for _ in range(atoms)]
        p = rng.dirichlet(np.ones(atoms))
        lhs = float(np.sum(grad(xs) * (sum(pj * x for pj, x in zip(p, pts)) - xs)))
        rhs = float(sum(pj * f(x) for pj, x in zip(p, pts)) - f(xs))
        excess = lhs - rhs
        worst = max(worst, excess)
        violations += excess > tol * (1 + abs(rhs))
    return {"trials": trials, "violations": int(violations), "worst_excess": float(worst)}


def row_eq9_convexity_of_f(rng=None, trials: int = 200, sigma_scale: float = 1.0):
    """(9): convexity of f (gradient inequality, in expectation) by a falsification search on random convex
    instances (:func:`_convexity_search`); not implied when a violation is found."""
    import numpy as np

    s = _convexity_search(np.random.default_rng(0) if rng is None else rng, trials, sigma_scale)
    return table_step("pcfedavg.prop4.8", "(9)", VALID if s["violations"] == 0 else NOT_IMPLIED,
                      "convexity of f (average of convex F_i): gradient inequality at x*, then expectation (linear)",
                      f"falsification search, {s['trials']} random instances (m = 2..4, n = 1..3, "
                      f"f_i = logsumexp(C_i y + e_i) + a_i/2||y||^2, sigma_i > 0 scaled by {sigma_scale}, "
                      "xb a random discrete distribution): "
                      f"{s['violations']} violations, largest grad f(x*)^T E[xb - x*] - E[f(xb) - f(x*)] = "
                      f"{s['worst_excess']:.3g} (a search, not a proof)",
                      counterexample=None if s["violations"] == 0 else {"violations": s["violations"],
                                                                        "worst_excess": s["worst_excess"]})


def row_p48d_add_subtract_projection(added=None):
    """(P4.8-d): adding and subtracting Pi_X[xb] (``added`` replaces the added term in tests) leaves
    grad f(x*)^T E[xb - x*] unchanged (vectors in R^3)."""
    g = sp.symbols("_g0:3", real=True)
    xb, xs, P = (sp.symbols(f"_{s}0:3", real=True) for s in ("xb", "xs", "P"))
    add = P if added is None else added
    lhs_d = sum(g[j] * (xb[j] - xs[j] + add[j] - P[j]) for j in range(3))
    res = prove_identity(lhs_d, sum(g[j] * (xb[j] - xs[j]) for j in range(3)))
    return table_step("pcfedavg.prop4.8", "(P4.8-d)", IDENTITY if res.proven is True else NOT_IMPLIED,
                      "add and subtract Pi_X[xbar_{K*}]",
                      f"grad f(x*)^T (xb - x* + Pi_X[xb] - Pi_X[xb]) == grad f(x*)^T (xb - x*) in R^3: {res.proven}")


def row_p48e_first_order_optimality(point=None, instances=PROP48_INSTANCES):
    """(P4.8-e): the split grad^T(xb - x*) = grad^T(xb - Pi xb) + grad^T(Pi xb - x*) (identity) and first-order
    optimality grad f(x*)^T (y - x*) >= 0 on every vertex y of the box X (where a linear function attains its minimum
    over X), exactly on ``instances``; ``point`` replaces x* of the first instance in tests."""
    g = sp.symbols("_g0:3", real=True)
    xb, xs, P = (sp.symbols(f"_{s}0:3", real=True) for s in ("xb", "xs", "P"))
    split = prove_identity(sum(g[j] * (xb[j] - xs[j]) for j in range(3)),
                           sum(g[j] * (xb[j] - P[j]) + g[j] * (P[j] - xs[j]) for j in range(3)))
    rows = []
    for j, d in enumerate(instances):
        c, sig, X, r = instance_args(d)
        x_star = tuple(point) if (point is not None and j == 0) else interval_instance(c, sig, X, r)["x_star"]
        x_star = tuple(sp.nsimplify(v) for v in x_star)
        xsyms, f_expr = instance_objective(c, sig)
        grad = [sp.diff(f_expr, v).subs(dict(zip(xsyms, x_star))) for v in xsyms]
        worst = min(sum(gi * (sp.Rational(vi) - xi) for gi, vi, xi in zip(grad, vert, x_star))
                    for vert in itertools.product(*X))
        rows.append((x_star, tuple(grad), worst))
    ok = split.proven is True and all(w >= 0 for _, _, w in rows)
    return table_step("pcfedavg.prop4.8", "(P4.8-e)", VALID if ok else NOT_IMPLIED,
                      "first-order optimality of x* over X: grad f(x*)^T (y - x*) >= 0, y in X, at y = Pi_X[xbar_{K*}]",
                      f"split identity proven: {split.proven}; exact instances: "
                      + "; ".join(f"x* = {a}, grad f(x*) = {b}, min over vertices of X of grad f(x*)^T (y - x*) = {w}"
                                  for a, b, w in rows) + " (instances, not a proof)",
                      counterexample=None if ok else {"instances": [[str(a), str(b), str(w)] for a, b, w in rows]})


T34A_PRINTED_LHS = (sp.Rational(45, 2) * rho * gamma**2 * (H - 1)**2 * (M + nu**2 / m) + 9 * gamma * nu**2 / m
                    + 3 * Q / (K * gamma)
                    + 45 * (L_f + sigma * (m - 1)) / (2 * m) * gamma**2 * (H - 1)**2 * (M + nu**2 / m))
"""Left side of the display in the proof of Theorem 3.4 (T3.4-a), transcribed from that display (not from
Prop. 4.8's statement)."""


def row_t34a_requirement_vs_derived_bound(lhs=T34A_PRINTED_LHS, rng=None):
    """(T3.4-a): Theorem 3.4's displayed requirement against (1) the sum of the Prop. 4.8 (i) terms as encoded and
    (2) the bound the proofs actually give, E of Prop. 4.7 re-derived (:func:`prop47_from_proof`) with L_G
    substituted ((i) drops the penalty term). Identity -> identity; larger everywhere -> valid (asking more than
    needed); smaller somewhere -> not implied; undecided -> not checked."""
    import numpy as np

    derived = sp.expand(prop47_from_proof())
    vs_48 = prove_identity(lhs, sp.Add(*TERMS_48I))
    vs_proof = prove_identity(lhs, derived)
    if vs_48.proven is True and vs_proof.proven is True:
        status, extra = IDENTITY, ""
    else:
        diff = sp.expand(lhs - derived)
        pos = prove_nonnegative(diff, {m: 2, H: 1})
        if pos.proven is None:
            pos = sample_nonnegative(diff, SAMPLING_BOXES, rng or np.random.default_rng(0))
        status = VALID if pos.proven is True else NOT_IMPLIED if pos.proven is False else NOT_CHECKED
        extra = f"; (T3.4-a) left side - derived = {sp.factor(diff)} ({pos.method}"
        extra += f", counterexample {fmt_point(pos.counterexample)})" if pos.proven is False else ")"
    return table_step("pcfedavg.thm3.4", "(T3.4-a)", status,
                      "Prop. 4.8 (i) <= eps: the displayed left side is the bound the proofs give",
                      f"(T3.4-a) left side (transcribed from the proof of Theorem 3.4) == sum of the Prop. 4.8 (i) terms: "
                      f"{vs_48.proven}; == E re-derived from the proof of Prop. 4.7 with L_G = (L_f + sigma(m-1))/m + rho: "
                      f"{vs_proof.proven}" + extra)


# ============================================================================ the table for Prop. 4.8 and Thm. 3.4
def steps_prop_4_8_and_thm_3_4() -> list[dict]:
    """Prop. 4.8 and Theorem 3.4, step by step."""
    out = []
    # ---------------- Prop 4.8
    cid = "pcfedavg.prop4.8"
    out.append(row_p48a_x_star_rho_minimizes())
    out.append(row_p48b_g_rho_is_f_plus_rho_cal_h())
    dbar = sp.symbols("_d0:3", nonnegative=True)
    m3 = 3
    calH = sum(sp.Rational(1, 2) * d**2 for d in dbar) / m3
    half = prove_identity(rho * calH, rho / (2 * m3) * sum(d**2 for d in dbar))
    excess = sp.expand(rho / m3 * sum(d**2 for d in dbar) - rho * calH)   # printed - true left side
    out.append(table_step(cid, "(P4.8-c)", NOT_IMPLIED if (half.proven is True and excess != 0) else NOT_CHECKED,
                          "definition of cal-H: rho cal-H(xbar) = (rho/m) sum_i h_i = (rho/(2m)) sum_i dbar_i^2 "
                          "(h_i = ||.||^2/2), not (rho/m) sum_i dbar_i^2",
                          f"rho cal-H - (rho/m) sum dbar_i^2 = "
                          f"{sp.factor(rho * calH - rho / m3 * sum(d**2 for d in dbar))} (m = 3); "
                          f"rho cal-H == (rho/(2m)) sum dbar_i^2 proven: {half.proven}; "
                          "the printed left side exceeds the true one by (rho/(2m)) sum dbar_i^2, so it is not bounded by E",
                          counterexample={"true_lhs": "E", "printed_lhs": "E + rho/(2m) sum dbar_i^2"}))
    out.append(row_eq8_feasible_x_star())
    g_f = check_prop48_i()
    out.append(table_step("pcfedavg.prop4.8.i", "(i)", IDENTITY if g_f.verdict == "consistent" else NOT_IMPLIED,
                          "drop (rho/m) sum E dbar_i^2 >= 0 in (8) (also valid with rho/(2m)); substitute L_G in E",
                          g_f.evidence))
    out.append(row_eq9_convexity_of_f())
    out.append(row_p48d_add_subtract_projection())
    out.append(row_p48e_first_order_optimality())
    out.append(row_p48f_cauchy_schwarz_jensen())
    out.append(row_eq10_sum_of_slacks())
    exact_fact2 = (2 > sp.sqrt(2))
    out.append(row_fact1_l2_norm_below_l1())
    out.append(table_step(cid, "fact 2: -sqrt(sum_i E[dbar_i^2]) <= -sum_i E[dbar_i]",
                          NOT_IMPLIED if bool(exact_fact2) else NOT_CHECKED,
                          "reverses ||.||_1 >= ||.||_2", f"m = 2, dbar_1 = dbar_2 = 1 surely: sum E dbar_i = 2 > "
                          f"sqrt(sum E dbar_i^2) = sqrt(2): {bool(exact_fact2)}",
                          counterexample={"m": 2, "dbar": [1, 1], "sum_E_dbar_i": 2, "sqrt_sum_E_dbar_i_sq": "sqrt(2)"}))
    out.append(row_eq11_by_jensen())
    al, be = sp.symbols("_alpha _beta", nonnegative=True)   # alpha = m sqrt(D)/rho, beta = sqrt(m E/rho)
    a_plus = (al + sp.sqrt(al**2 + 4 * be**2)) / 2
    is_root = sp.simplify(a_plus**2 - al * a_plus - be**2) == 0        # (m/rho) x the quadratic of (11)
    sq = prove_nonnegative(sp.expand((al + 4 * be)**2 - (al**2 + 4 * be**2)), {})
    out.append(table_step(cid, "(P4.8-g)", VALID if (is_root and sq.proven) else NOT_IMPLIED,
                          "largest root of (rho/m) a^2 - sqrt(D) a - E: a+ = (alpha + sqrt(alpha^2 + 4 beta^2))/2 with "
                          "alpha = m sqrt(D)/rho, beta = sqrt(mE/rho); printed alpha + 2 beta",
                          f"root check: {is_root}; (alpha + 4 beta)^2 - (alpha^2 + 4 beta^2) = "
                          f"8 alpha beta + 12 beta^2 >= 0 proven: {sq.proven}; not tight: a+ <= alpha + beta; "
                          "printed/a+ -> 1 (beta -> 0), -> 2 (alpha -> 0)"))
    f12 = check_eq12()
    out.append(table_step("pcfedavg.eq12", "(12)", VALID if f12.verdict == "consistent" else NOT_IMPLIED,
                          "E substituted into (P4.8-g); sqrt(sum) <= sum sqrt", f12.evidence))
    _, f_ii = check_prop48_ii_terms()
    out.append(table_step("pcfedavg.prop4.8.ii", "(ii)", VALID if f_ii.verdict == "consistent" else NOT_IMPLIED,
                          "E dbar_i^2 <= sum_i E dbar_i^2 <= (sum of (12))^2 <= 5 sum of squares", f_ii.evidence,
                          counterexample={k: str(v) for k, v in PROP48_II_COUNTEREXAMPLE.items()}
                          if f_ii.verdict != "consistent" else None))
    out.append(row_p48h_by_jensen())
    out.append(row_prop48_iii_from_p48h_and_eq12())
    # ---------------- Theorem 3.4
    cid = "pcfedavg.thm3.4"
    out.append(row_t34a_requirement_vs_derived_bound())
    a_fd = finding_thm34_stepsize_inadmissible()
    out.append(table_step(cid, "gamma = 1/sqrt(R), rho = sqrt(R)",
                          NOT_IMPLIED if a_fd.verdict == "discrepancy" else NOT_CHECKED,
                          "the proof's step size against the theorem's hypothesis gamma <= min{1/(6L_G), 1/(5L_G(H-1))}",
                          a_fd.evidence))
    for part in ("i", "ii", "iii"):
        rows = [r for r in complexity_table() if r["part"] == part]
        bad = [r for r in rows if r["status"] in ("not covered", "printed term without derived counterpart")]
        out.append(table_step(f"pcfedavg.thm3.4.{part}", f"({part}) rate", VALID if not bad else NOT_IMPLIED,
                              "Prop. 4.8 with K = RH, rho = sqrt(R), gamma = 1/sqrt(R); each term <= eps/N",
                              "; ".join(f"{r['derived_term']} [{r['status']}] vs {r['printed_term']}" for r in rows)))
    return out
