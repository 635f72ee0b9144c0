"""PC-FedAvg audit: the norm facts of the proof of Proposition 4.8 and the steps that rest on them.

The proof of Prop. 4.8 (ii)-(iii) quotes two facts before (11): fact 1, -sum_i E[dbar_i] <= -E[dbar] (true:
||d||_2 <= ||d||_1), and fact 2, -sqrt(sum_i E[dbar_i^2]) <= -sum_i E[dbar_i] (false in general); (11) and (P4.8-h)
follow instead by Jensen, E[dbar] <= sqrt(E[dbar^2]) = sqrt(sum_i E[dbar_i^2]).

* :func:`sample_facts_before_eq11`: both facts and Jensen on random nonnegative discrete distributions;
  :func:`finding_facts_before_eq11`: the findings (item d; fact 2 exactly at :data:`FACT2_COUNTEREXAMPLE`);
* rows of the proof-step table, each an identity of slacks over the abstract quantities :data:`SUBOPT_GAP`
  (E[f(xb) - f(x*)]), :data:`SUM_E_DBAR_SQ`, :data:`SQRT_SUM_E_DBAR_SQ`, :data:`E_DBAR`, :data:`GRAD_F_NORM`
  (||grad f(x*)|| = sqrt(D)) and :data:`BOUND_E` (E of Prop. 4.7): (P4.8-f) (Cauchy-Schwarz and Jensen, with a
  falsification search), (10), fact 1, (11), (P4.8-h) and (iii).
"""
from __future__ import annotations

import sympy as sp

from ..audit import fmt_point, producer
from ..core import prove_identity, prove_nonnegative, sample_nonnegative
from .claims import BRACKET_48III, D, H, RHS_12, m, rho
from .derivation_tools import NOT_CHECKED, NOT_IMPLIED, SAMPLING_BOXES, VALID, table_step


# ============================================================================ the facts quoted before (11)
def sample_facts_before_eq11(rng, trials: int = 300):
    """Test the two facts quoted before (11) and Jensen on random nonnegative discrete distributions.

    Returns counts of violations; d_i >= 0 per atom, dbar = sqrt(sum_i d_i^2) (Pi_X acts blockwise).
    """
    import numpy as np

    viol1 = viol2 = viol_j = 0
    worst2 = None
    for _ in range(trials):
        m_ = int(rng.integers(2, 6))
        atoms = int(rng.integers(1, 6))
        d = rng.exponential(size=(atoms, m_)) * (rng.random((atoms, m_)) < 0.8)
        p = rng.integers(1, 10, size=atoms).astype(float)
        p /= p.sum()
        Ed_i = p @ d
        Ed = p @ np.sqrt((d**2).sum(1))
        Ed2 = p @ (d**2).sum(1)
        viol1 += Ed > Ed_i.sum() + 1e-12
        if Ed_i.sum() > np.sqrt(Ed2) + 1e-12:
            viol2 += 1
            gap_ = Ed_i.sum() - np.sqrt(Ed2)
            if worst2 is None or gap_ > worst2[0]:
                worst2 = (float(gap_), d.tolist(), p.tolist())
        viol_j += Ed > np.sqrt(Ed2) + 1e-12
    return {"trials": trials, "fact1_violations": int(viol1), "fact2_violations": int(viol2),
            "jensen_violations": int(viol_j), "fact2_worst": worst2}


#: Proof of Prop. 4.8 (iii): "Invoking the facts that -sum_{i=1}^m E[dbar_i] <= -E[dbar] and
#: -sqrt(sum_{i=1}^m E[dbar_i^2]) <= -sum_{i=1}^m E[dbar_i], and (10), we obtain" (fact 1, fact 2)
FACT2_COUNTEREXAMPLE = (1, 1)
"""dbar_i surely (m = 2) where fact 2 is tested exactly: it says sum_i dbar_i - sqrt(sum_i dbar_i^2) <= 0."""


def _fact2_excess(dbar) -> sp.Expr:
    """sum_i dbar_i - sqrt(sum_i dbar_i^2) for deterministic dbar_i (fact 2 asserts it is <= 0)."""
    d = [sp.nsimplify(v) for v in dbar]
    return sp.simplify(sum(d) - sp.sqrt(sum(v**2 for v in d)))


@producer
def finding_facts_before_eq11(rng, trials: int = 300, counterexample=FACT2_COUNTEREXAMPLE) -> list:
    """Item d: the two facts quoted before (11), on random distributions (``trials``) and, for fact 2, exactly at
    ``counterexample``; fact 2 is reported only when a violation is found."""
    from .. import audit as A

    facts = sample_facts_before_eq11(rng, trials)
    out = [A.Finding(
        "pcfedavg.d.fact1", "statement-vs-proof", ("pcfedavg.prop4.8.ii", "pcfedavg.prop4.8.iii"),
        A.CONSISTENT if facts["fact1_violations"] == 0 else A.DISCREPANCY,
        "The fact -sum_i E[dbar_i] <= -E[dbar] holds (pointwise ||d||_2 <= ||d||_1)." if facts["fact1_violations"] == 0
        else "The fact -sum_i E[dbar_i] <= -E[dbar] fails on a sampled distribution.",
        f"{trials} random nonnegative discrete distributions: {facts['fact1_violations']} violations",
        "sampled + pointwise norm inequality")]
    excess = _fact2_excess(counterexample)
    if not (excess > 0 or facts["fact2_violations"]):
        return out
    worst = facts["fact2_worst"][0] if facts["fact2_worst"] else float("nan")
    out.append(A.Finding(
        "pcfedavg.d.fact2", "statement-vs-proof", ("pcfedavg.prop4.8.ii", "pcfedavg.prop4.8.iii"), A.DISCREPANCY,
        "The fact -sqrt(sum_i E[dbar_i^2]) <= -sum_i E[dbar_i] quoted before (11) and in (iii) is false in general "
        "(it reverses ||.||_1 >= ||.||_2); (11) and (P4.8-h) still follow from (10)/(P4.8-f) by Jensen, "
        "E[dbar] <= sqrt(E[dbar^2]) = sqrt(sum_i E[dbar_i^2]).",
        f"dbar = {tuple(counterexample)} surely: sum_i E dbar_i - sqrt(sum_i E dbar_i^2) = {excess} (> 0 violates it); "
        f"random distributions: {facts['fact2_violations']}/{trials} violate it (largest excess {worst:.4g}); "
        f"Jensen route violated {facts['jensen_violations']} times", "refuted by counterexample (exact); sampled"))
    return out


# ============================================================================ rows of the proof-step table
SUBOPT_GAP, SUM_E_DBAR_SQ, E_DBAR, GRAD_F_NORM, BOUND_E = sp.symbols("_S _P _Ed _gn _E", real=True)
"""E[f(xb) - f(x*)], sum_i E dbar_i^2, E[dbar], ||grad f(x*)||, E (the bound of Prop. 4.7)."""
SQRT_SUM_E_DBAR_SQ = sp.Symbol("_Pp", positive=True)
"""sqrt(sum_i E dbar_i^2), the unknown of the quadratic (11)."""


def jensen_variance_identity():
    """E t^2 - (E t)^2 == sum_{j<k} p_j p_k (t_j - t_k)^2 for a 3-atom distribution (so E[dbar] <= sqrt(E dbar^2))."""
    p1, p2 = sp.symbols("_q1 _q2", positive=True)
    t = sp.symbols("_t0:3", nonnegative=True)
    p = (p1, p2, 1 - p1 - p2)
    lhs = sum(p[j] * t[j]**2 for j in range(3)) - sum(p[j] * t[j] for j in range(3))**2
    rhs = sum(p[j] * p[k] * (t[j] - t[k])**2 for j in range(3) for k in range(j + 1, 3))
    return prove_identity(lhs, rhs)


def _cauchy_schwarz_jensen_search(rng, trials: int = 300, coeff: float = 1.0, tol: float = 1e-12) -> dict:
    """Falsification search for (P4.8-f): g^T E[v] >= -coeff ||g|| E||v|| on random g in R^n and random discrete
    distributions of v = xb - Pi_X xb (``coeff`` < 1 in tests)."""
    import numpy as np

    violations, worst = 0, -np.inf
    for _ in range(trials):
        n_, atoms = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        g = rng.normal(size=n_)
        v = rng.normal(size=(atoms, n_)) * rng.exponential(size=(atoms, 1))
        p = rng.dirichlet(np.ones(atoms))
        lhs = -coeff * np.linalg.norm(g) * float(p @ np.linalg.norm(v, axis=1))
        excess = lhs - float(g @ (p @ v))
        worst = max(worst, excess)
        violations += excess > tol * (1 + abs(lhs))
    return {"trials": trials, "violations": int(violations), "worst_excess": float(worst)}


def row_p48f_cauchy_schwarz_jensen(rng=None, trials: int = 300, coeff: float = 1.0):
    """(P4.8-f): Cauchy-Schwarz (Lagrange identity ||g||^2||v||^2 - (g.v)^2 == sum_(j<k) (g_j v_k - g_k v_j)^2 in
    R^3) and a seeded falsification search of -||g|| E||v|| <= g^T E v (``coeff`` scales the left side in tests)."""
    import numpy as np

    g = sp.symbols("_g0:3", real=True)
    v = sp.symbols("_v0:3", real=True)
    cs = prove_identity(sum(x**2 for x in g) * sum(x**2 for x in v) - sum(a * b for a, b in zip(g, v))**2,
                        sum((g[j] * v[k] - g[k] * v[j])**2 for j in range(3) for k in range(j + 1, 3)))
    s = _cauchy_schwarz_jensen_search(np.random.default_rng(0) if rng is None else rng, trials, coeff)
    ok = cs.proven is True and s["violations"] == 0
    return table_step("pcfedavg.prop4.8", "(P4.8-f)", VALID if ok else NOT_IMPLIED,
                      "Cauchy-Schwarz and Jensen (||E v|| <= E||v||)",
                      f"Lagrange identity (Cauchy-Schwarz, R^3) proven: {cs.proven}; falsification search of "
                      f"-{coeff} ||g|| E||v|| <= g^T E v, {s['trials']} random g in R^1..4 and discrete distributions of v: "
                      f"{s['violations']} violations (largest excess {s['worst_excess']:.3g}; a search, not a proof)",
                      counterexample=None if ok else {"violations": s["violations"], "worst_excess": s["worst_excess"]})


def row_eq10_sum_of_slacks(coeff_10=None):
    """(10): slack of (10) as printed == slack of (8) + slack of (P4.8-f) (both >= 0); ``coeff_10`` is the printed
    coefficient of sum_i dbar_i^2 in (10) (rho/m)."""
    c10 = rho / m if coeff_10 is None else coeff_10
    slack8 = BOUND_E - SUBOPT_GAP - rho / m * SUM_E_DBAR_SQ
    slackf = SUBOPT_GAP + GRAD_F_NORM * E_DBAR
    slack10 = BOUND_E - (-GRAD_F_NORM * E_DBAR + c10 * SUM_E_DBAR_SQ)
    res = prove_identity(slack10, slack8 + slackf)
    return table_step("pcfedavg.prop4.8", "(10)", VALID if res.proven is True else NOT_IMPLIED, "(P4.8-f) into (8)",
                      f"E - (left side of (10)) == [E - (left side of (8))] + [E(f - f*) + ||grad f(x*)|| E dbar] (sum of "
                      f"two nonnegative slacks): {res.proven}; (10) inherits the factor rho/m of (8)")


def row_fact1_l2_norm_below_l1(rng=None, trials: int = 300, lhs_scale=1):
    """Fact 1 before (11): sum_i E dbar_i >= E dbar, dbar = sqrt(sum_i dbar_i^2): pointwise (sum_i d_i)^2 -
    sum_i d_i^2 >= 0 for d_i >= 0 (sympy, m = 2..5; ``lhs_scale`` multiplies the left side in tests) and a seeded
    search on random nonnegative discrete distributions."""
    import numpy as np

    proofs = []
    for m_ in range(2, 6):
        d = sp.symbols(f"_d0:{m_}", nonnegative=True)
        proofs.append(prove_nonnegative(sp.expand((lhs_scale * sum(d))**2 - sum(x**2 for x in d)), {}).proven)
    rng = np.random.default_rng(0) if rng is None else rng
    viol = 0
    for _ in range(trials):
        m_, atoms = int(rng.integers(2, 6)), int(rng.integers(1, 6))
        d = rng.exponential(size=(atoms, m_)) * (rng.random((atoms, m_)) < 0.8)
        p = rng.dirichlet(np.ones(atoms))
        viol += float(lhs_scale) * float((p @ d).sum()) < float(p @ np.sqrt((d**2).sum(1))) - 1e-12
    if all(x is True for x in proofs) and viol == 0:
        status = VALID
    elif viol > 0 or any(x is False for x in proofs):
        status = NOT_IMPLIED
    else:
        status = NOT_CHECKED
    return table_step("pcfedavg.prop4.8", "fact 1: -sum_i E[dbar_i] <= -E[dbar]", status, "pointwise ||d||_2 <= ||d||_1",
                      f"(sum_i d_i)^2 - sum_i d_i^2 >= 0 for d_i >= 0 proven for m = 2..5: {proofs}; then expectation "
                      f"(linear); falsification search on {trials} random nonnegative discrete distributions: {viol} "
                      "violations")


def row_eq11_by_jensen(rng=None, coeff_11=None):
    """(11): slack(11) == slack(10) + ||grad f|| (sqrt(sum_i E dbar_i^2) - E dbar), the last term >= 0 by Jensen
    (variance identity; sampled on random distributions by :func:`sample_facts_before_eq11`)."""
    import numpy as np

    c11 = rho / m if coeff_11 is None else coeff_11
    slack10 = BOUND_E - (-GRAD_F_NORM * E_DBAR + rho / m * SQRT_SUM_E_DBAR_SQ**2)
    slack11 = BOUND_E - (c11 * SQRT_SUM_E_DBAR_SQ**2 - GRAD_F_NORM * SQRT_SUM_E_DBAR_SQ)
    res = prove_identity(slack11, slack10 + GRAD_F_NORM * (SQRT_SUM_E_DBAR_SQ - E_DBAR))
    jen = jensen_variance_identity()
    facts = sample_facts_before_eq11(np.random.default_rng(0) if rng is None else rng, 200)
    ok = res.proven is True and jen.proven is True and facts["jensen_violations"] == 0
    return table_step("pcfedavg.prop4.8", "(11)", VALID if ok else NOT_IMPLIED,
                      "follows from (10) by Jensen E[dbar] <= sqrt(E dbar^2) = sqrt(sum_i E dbar_i^2) (the quoted route "
                      "through fact 2 is invalid; dbar^2 = sum_i dbar_i^2 because Pi_X acts blockwise)",
                      f"slack(11) == slack(10) + ||grad f(x*)|| (sqrt(sum E dbar_i^2) - E dbar): {res.proven}; "
                      f"E t^2 - (E t)^2 == sum_(j<k) p_j p_k (t_j - t_k)^2 (3 atoms) proven: {jen.proven}; "
                      f"Jensen violated on {facts['jensen_violations']} of {facts['trials']} random distributions")


def row_p48h_by_jensen(rng=None):
    """(P4.8-h): slack(P4.8-h) == slack(P4.8-f) + ||grad f|| (sqrt(sum_i E dbar_i^2) - E dbar) >= 0 (Jensen)."""
    import numpy as np

    slackf = SUBOPT_GAP + GRAD_F_NORM * E_DBAR
    slackh = SUBOPT_GAP + GRAD_F_NORM * SQRT_SUM_E_DBAR_SQ
    res = prove_identity(slackh, slackf + GRAD_F_NORM * (SQRT_SUM_E_DBAR_SQ - E_DBAR))
    jen = jensen_variance_identity()
    facts = sample_facts_before_eq11(np.random.default_rng(0) if rng is None else rng, 200)
    ok = res.proven is True and jen.proven is True and facts["jensen_violations"] == 0
    return table_step("pcfedavg.prop4.8", "(P4.8-h)", VALID if ok else NOT_IMPLIED,
                      "(P4.8-f) with Jensen E[dbar] <= sqrt(sum_i E dbar_i^2) (the quoted facts' route fails at fact 2)",
                      f"slack(P4.8-h) == slack(P4.8-f) + ||grad f(x*)|| (sqrt(sum E dbar_i^2) - E dbar): {res.proven}; "
                      f"variance identity (3 atoms) proven: {jen.proven}; Jensen violated on "
                      f"{facts['jensen_violations']} of {facts['trials']} random distributions")


def row_prop48_iii_from_p48h_and_eq12(bracket=BRACKET_48III, rng=None):
    """(iii): slack(iii) == slack(P4.8-h) + sqrt(D) (rhs(12) - a) + sqrt(D) (bracket - rhs(12)), a = sqrt(sum_i E
    dbar_i^2), ||grad f(x*)|| = sqrt(D); the first two are >= 0 by (P4.8-h) and (12), the last must be >= 0 (``bracket``
    replaces the printed bracket of (iii) in tests)."""
    import numpy as np

    sD = sp.sqrt(D)
    slack_iii = SUBOPT_GAP + sD * bracket
    slack_h = SUBOPT_GAP + sD * SQRT_SUM_E_DBAR_SQ
    res = prove_identity(slack_iii, slack_h + sD * (RHS_12 - SQRT_SUM_E_DBAR_SQ) + sD * (bracket - RHS_12))
    diff = sp.simplify(bracket - RHS_12)
    if diff == 0:
        pos, how = None, "bracket of (iii) == right side of (12) (terms reordered)"
        ok_diff = True
    else:
        pos = prove_nonnegative(diff, {m: 2, H: 1})
        if pos.proven is None:
            pos = sample_nonnegative(diff, SAMPLING_BOXES, rng or np.random.default_rng(0))
        ok_diff = pos.proven
        how = f"bracket - rhs(12) = {diff}: {pos.method}" + (
            f", counterexample {fmt_point(pos.counterexample)}" if pos.proven is False else "")
    if res.proven is True and ok_diff is True:
        status = VALID
    elif res.proven is False or ok_diff is False:
        status = NOT_IMPLIED
    else:
        status = NOT_CHECKED
    return table_step("pcfedavg.prop4.8.iii", "(iii)", status, "(P4.8-h) with (12)",
                      f"slack(iii) == slack(P4.8-h) + sqrt(D)(rhs(12) - sqrt(sum E dbar_i^2)) + sqrt(D)(bracket - rhs(12)): "
                      f"{res.proven}; {how}: {ok_diff}; the statement's ||grad f(xbar*)|| is the proof's ||grad f(x*)|| = "
                      "sqrt(D)")
