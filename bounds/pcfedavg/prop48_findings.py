"""PC-FedAvg audit: Proposition 4.8's statements against the displays of its proof.

* :func:`check_prop48_i`: Prop. 4.8 (i) against E of Prop. 4.7 with L_G substituted (item g);
* :func:`check_prop48_ii_terms` / :func:`finding_prop48_ii_terms`: each printed term of (ii) against 5 x the square of
  its term of (12) (:data:`PROP48_II_TERM_SOURCES`), and (ii) against rhs_12^2 at the admissible point
  :data:`PROP48_II_COUNTEREXAMPLE` (item b);
* :func:`check_eq12`: (12) from (P4.8-g) with E substituted, term by term (item c);
* :func:`finding_p48g_root_bound`: (P4.8-g) against the largest root of (rho/m) a^2 - sqrt(D) a - E (item c);
* :func:`finding_p48c_half_coefficient`: the coefficient rho/m of (P4.8-c) against the rho/(2m) of the definitions
  h_i = ||.||^2/2, and what it does to (P4.8-g), (12), (ii), (iii);
* :func:`finding_prop48_iii_gradient_point`: the factor ||grad f(xbar*)|| of (iii) against the proof's ||grad f(x*)||
  (:data:`P48III_FACTOR_WORDS`) on the exact instance :data:`GRADIENT_POINT_INSTANCE`.
"""
from __future__ import annotations

import sympy as sp

from ..audit import fmt_point, producer
from ..core import prove_identity, prove_nonnegative
from .claims import (BOUND_48I, D, E_EXPR, H, K, LF_SUM, M, Q, STEP_5, STEP_6, TERMS_12, TERMS_48II, gamma, m, nu,
                     rho)
from .derivation_tools import (IDENTITY, NOT_IMPLIED, SYMBOL_BY_NAME, VALID, compare_printed_with_derived)
from .exact_instances import interval_instance


def check_prop48_i(bound: sp.Expr = BOUND_48I, rng=None):
    """Item g: Prop. 4.8 (i) vs Prop. 4.7's E with L_G substituted."""
    f = compare_printed_with_derived("pcfedavg.g.prop4.8.i", ("pcfedavg.prop4.8.i", "pcfedavg.prop4.7"), bound, E_EXPR,
                                     "Prop. 4.8 (i) vs E (Prop. 4.7 with L_G = (L_f + sigma(m-1))/m + rho)", rng)
    return f


PROP48_II_TERM_SOURCES = ((0, 0, "D term"), (1, 3, "Q term"), (2, 2, "L_f + sigma(m-1) term"), (3, 4, "m gamma^2 term"),
                          (4, 1, "gamma nu^2 term"))
"""(index in (ii), index in (12), label): which term of (12) each printed term of (ii) comes from."""


PROP48_II_COUNTEREXAMPLE = {"m": 2, "rho": 1, "D": sp.Rational(1, 25), "gamma": sp.Rational(1, 20), "nu": 1 / sp.sqrt(45),
                            "H": 2, "M": sp.Rational(7, 90), "Q": 1, "K": 12000, "L_f": 1, "sigma": 1}
"""An admissible point (6 gamma L_G = 3/5, 5 gamma L_G (H-1) = 1/2, D <= M) where rhs_12^2 > bound_48ii:
the five terms of (12) are 2/5, 1/5, 1/5, 1/5, 1/5 (the Cauchy-Schwarz extremal shape for weights m/5, 1/5, ...)."""


def check_prop48_ii_terms(terms=TERMS_48II, terms12=TERMS_12):
    """Item b: each printed term of (ii) against 5 (term of (12))^2, and (ii) against rhs_12^2.

    Returns ``(rows, finding)``; rows are dicts {label, printed, from_12, ratio, status}.
    """
    return _prop48_ii_term_rows(terms, terms12), finding_prop48_ii_terms(terms, terms12)


def _prop48_ii_term_rows(terms, terms12) -> list[dict]:
    rows = []
    for i_ii, i_12, label in PROP48_II_TERM_SOURCES:
        target = sp.expand(5 * terms12[i_12]**2)
        res = prove_identity(terms[i_ii], target)
        ratio = sp.simplify(terms[i_ii] / target)
        if res.proven:
            status = IDENTITY
        else:
            # a printed term larger than 5 t^2 everywhere is still implied
            ge = prove_nonnegative(sp.expand(terms[i_ii] - target), {m: 2, H: 1})
            status = VALID if ge.proven else NOT_IMPLIED
        rows.append({"label": label, "printed": str(terms[i_ii]), "from_12": str(target), "ratio": str(ratio),
                     "status": status})
    return rows


@producer
def finding_prop48_ii_terms(terms=TERMS_48II, terms12=TERMS_12):
    """Item b as a finding: (ii) as printed against 5 x (each term of (12))^2 and against rhs_12^2 at a point."""
    from .. import audit as A

    rows = _prop48_ii_term_rows(terms, terms12)
    bad = [r for r in rows if r["status"] == NOT_IMPLIED]
    point = {SYMBOL_BY_NAME[k]: v for k, v in PROP48_II_COUNTEREXAMPLE.items()}
    sq12 = sp.nsimplify(sp.simplify(sp.Add(*terms12).subs(point)**2))
    val_ii = sp.nsimplify(sp.simplify(sp.Add(*terms).subs(point)))
    hyp_ok = all(bool(h.subs(point)) for h in (STEP_6, STEP_5))
    implied_at_point = bool(val_ii >= sq12)
    evidence = "; ".join(f"{r['label']}: printed {r['printed']} vs 5*(12-term)^2 = {r['from_12']} (ratio {r['ratio']}, "
                         f"{r['status']})" for r in rows)
    evidence += (f". At the admissible point {fmt_point(PROP48_II_COUNTEREXAMPLE)} (step-size conditions hold: "
                 f"{hyp_ok}; D <= M): rhs_12^2 = {sq12}, printed (ii) = {val_ii}")
    if bad:
        summary = ("Squaring (12) with (a_1+...+a_5)^2 <= 5 sum a_k^2 does not give (ii) as printed: "
                   + ", ".join(f"the {r['label']} is {r['printed']} but the route gives {r['from_12']}" for r in bad)
                   + "; the other terms agree exactly.")
        if not implied_at_point:
            summary += (" (12) itself does not imply (ii): at an admissible point rhs_12^2 exceeds the printed (ii), "
                        "so a run with all infeasibility on agent i could satisfy (12) and violate (ii).")
        verdict = A.DISCREPANCY
    else:
        summary = "Each printed term of (ii) equals (or exceeds) 5 times the square of its term of (12)."
        verdict = A.CONSISTENT
    return A.Finding("pcfedavg.b.prop4.8.ii.terms", "statement-vs-proof",
                           ("pcfedavg.prop4.8.ii",), verdict, summary, evidence,
                           "proven symbolically term by term (simplify) + exact evaluation at a point")


def _eq12_pieces():
    """mE/rho split into the four nonnegative pieces whose 2 sqrt(.) are the last four terms of (12)."""
    Lp = LF_SUM
    pieces = [3 * m * Q / (K * gamma * rho), 45 * Lp * gamma**2 * (H - 1)**2 * (M + nu**2 / m) / (2 * rho),
              45 * m * gamma**2 * (H - 1)**2 * (M + nu**2 / m) / 2, 9 * gamma * nu**2 / rho]
    return pieces


@producer
def check_eq12(terms12=TERMS_12):
    """Item c (second half): (12) = (P4.8-g) with E substituted and sqrt(sum) <= sum sqrt, term by term."""
    from .. import audit as A

    pieces = _eq12_pieces()
    split = prove_identity(m * E_EXPR / rho, sp.Add(*pieces))
    pairs = ((0, 3), (1, 2), (2, 4), (3, 1))   # piece index -> index in (12)
    rows = []
    for ip, it in pairs:
        res = prove_identity(sp.expand(4 * pieces[ip]), sp.expand(terms12[it]**2))
        rows.append((str(2 * sp.sqrt(pieces[ip])), str(terms12[it]), res.proven is True))
    first = prove_identity(terms12[0], m * sp.sqrt(D) / rho)
    ok = split.proven is True and all(r[2] for r in rows) and first.proven is True
    evidence = (f"m E/rho == {' + '.join(map(str, pieces))}: {split.proven}; first term m sqrt(D)/rho: {first.proven}; "
                + "; ".join(f"2 sqrt(piece) = {a} vs (12) term {b}: {'equal' if e else 'DIFFERENT'}" for a, b, e in rows)
                + "; sqrt(sum p_k) <= sum sqrt(p_k) for p_k >= 0")
    return A.Finding("pcfedavg.c.eq12.terms", "statement-vs-proof", ("pcfedavg.eq12",),
                     A.CONSISTENT if ok else A.DISCREPANCY,
                     "(12) follows from (P4.8-g): m E/rho splits into four pieces whose 2 sqrt(.) are exactly the "
                     "last four terms of (12), and sqrt of a sum is at most the sum of square roots." if ok else
                     "(12) does not match (P4.8-g) with E substituted term by term.",
                     evidence, "proven symbolically (simplify), term by term")


@producer
def finding_p48g_root_bound():
    """Item c: (P4.8-g) against the largest root of (rho/m) a^2 - sqrt(D) a - E = 0 (scaled by m/rho)."""
    from .. import audit as A

    al, be = sp.symbols("_alpha _beta", nonnegative=True)
    a_plus = (al + sp.sqrt(al**2 + 4 * be**2)) / 2
    sq = prove_nonnegative(sp.expand((al + 4 * be)**2 - (al**2 + 4 * be**2)), {})
    is_root = sp.simplify(a_plus**2 - al * a_plus - be**2) == 0
    ratio = (al + 2 * be) / a_plus
    at_e0, at_d0 = sp.limit(ratio, be, 0), sp.simplify(ratio.subs(al, 0))
    ok = sq.proven is True and is_root
    summary = ("(P4.8-g) is a valid upper bound on the largest root of (rho/m) a^2 - sqrt(D) a - E = 0" if ok else
               "(P4.8-g) is not shown to bound the largest root of (rho/m) a^2 - sqrt(D) a - E = 0")
    if ok and at_d0 != 1:
        summary += (f" but not tight: printed/root -> {at_d0} as D -> 0 (the coefficient 2 in front of sqrt(mE/rho) "
                    f"could be 1); it is exact only as E -> 0 (ratio -> {at_e0}).")
    return A.Finding(
        "pcfedavg.c.P4.8-g.root", "statement-vs-proof", ("pcfedavg.eq12",), A.CONSISTENT if ok else A.DISCREPANCY,
        summary,
        f"with alpha = m sqrt(D)/rho, beta = sqrt(mE/rho) the root is a+ = (alpha + sqrt(alpha^2 + 4 beta^2))/2 "
        f"(root check: {is_root}); printed alpha + 2 beta; (alpha + 4 beta)^2 - (alpha^2 + 4 beta^2) = "
        f"8 alpha beta + 12 beta^2 >= 0 proven: {sq.proven}; printed/a+ -> {at_e0} as beta -> 0 and = {at_d0} at "
        "alpha = 0. See pcfedavg.P4.8-c.half: with the coefficient rho/(2m) the definitions give, the printed form is "
        "no longer implied.", "proven symbolically")


@producer
def finding_p48c_half_coefficient(printed_coeff=sp.Integer(1), point=(1, sp.Rational(1, 10))):
    """(P4.8-c) writes rho cal-H(xbar) as ``printed_coeff`` x (rho/m) sum_i dbar_i^2; the definition h_i = d_i^2/2
    gives a coefficient computed here. Reported when they differ and the printed root (P4.8-g) then falls below the
    corrected one at ``point`` = (alpha, beta)."""
    from .. import audit as A

    d = sp.symbols("_d0:3", nonnegative=True)
    coeff = sp.simplify(sum(v**2 / 2 for v in d) / sum(v**2 for v in d))        # (rho/m) sum h_i / ((rho/m) sum d_i^2)
    al, be = sp.symbols("_alpha _beta", nonnegative=True)
    # largest root of (rho/m) coeff a^2 - sqrt(D) a - E, scaled: coeff a^2 - alpha a - beta^2 = 0
    a_corr = (al + sp.sqrt(al**2 + 4 * coeff * be**2)) / (2 * coeff)
    root_ok = sp.simplify(coeff * a_corr**2 - al * a_corr - be**2) == 0
    at = {al: point[0], be: point[1]}
    val = sp.nsimplify(sp.simplify((al + 2 * be).subs(at) - a_corr.subs(at)))
    if coeff == printed_coeff or not (root_ok and val < 0):
        return None
    corrected = prove_nonnegative(sp.expand((al + sp.sqrt(2) * be)**2 - (al**2 + 2 * be**2)), {})
    return A.Finding(
        "pcfedavg.P4.8-c.half", "statement-vs-proof", ("pcfedavg.eq12", "pcfedavg.prop4.8.ii", "pcfedavg.prop4.8.iii"),
        A.DISCREPANCY,
        f"(P4.8-c) writes rho cal-H(xbar) as (rho/m) sum_i dbar_i^2, but h_i = ||x - Pi x||^2/2 gives {coeff} (rho/m) "
        "sum_i dbar_i^2; (8), (10), (11) inherit the factor. With the definitions' coefficient the largest root is "
        "alpha + sqrt(alpha^2 + 2 beta^2), which exceeds the printed (P4.8-g) alpha + 2 beta whenever alpha^2 > 2 beta^2 "
        "(m D > 2 rho E), so (12), (ii) and (iii) are not established by the proof as written (Prop. 4.8 (i) is "
        "unaffected); the corrected route gives sqrt(sum_i E dbar_i^2) <= 2 m sqrt(D)/rho + sqrt(2 m E/rho).",
        f"rho cal-H = (rho/m) sum_i h_i = {coeff} (rho/m) sum_i dbar_i^2; corrected largest root {sp.simplify(a_corr)} "
        f"(root check: {root_ok}); at alpha = m sqrt(D)/rho = {point[0]}, beta = sqrt(mE/rho) = {point[1]}: printed - "
        f"corrected root = {val} ({float(val):.4g}); alpha + sqrt(alpha^2 + 2 beta^2) <= 2 alpha + sqrt(2) beta proven: "
        f"{corrected.proven}", "definition check + exact evaluation")


#: Prop. 4.8 (iii) as printed and the last display (P4.8-h) of its proof: the factor in front of the bracket.
P48III_FACTOR_WORDS = {"Prop. 4.8 (iii)": "-||grad f(\\bar x^*)||(m ||grad f(x^*)||/rho + ...)",
                       "(P4.8-h)": "-||grad f(x^*)|| sqrt(sum_i E[dbar_i^2])"}


#: an exact instance (as :data:`LEMMA45_M_INSTANCE`: f_i(y) = (y - c_i)^2/2, n = 1) with both constraints active at x*
GRADIENT_POINT_INSTANCE = {"c": (3, 0), "sigma": (1, 1), "X": ((0, 1), (0, 1))}


def _prop48_iii_gradient_norms_sq(c, sig, X) -> dict:
    """||grad f(x*)||^2 of the objective of (1) in the stacked x (the proof's factor, sqrt(D)) and ||grad fbar(xbar*)||^2
    of fbar(y) = (1/m) sum_i f_i(y) at the population average xbar* of x* (the statement's factor, reading f(xbar*)
    as the loss part of (1) at the average), exactly on the interval instance (c, sig, X)."""
    x_star = interval_instance(c, sig, X)["x_star"]
    m_ = len(c)
    xs = sp.symbols(f"_x0:{m_}", real=True)
    xbar, y = sum(xs) / m_, sp.Symbol("_y", real=True)
    f_expr = sum((xbar - sp.Rational(c[i]))**2 / 2 + sp.Rational(sig[i]) / 2 * (xs[i] - xbar)**2 for i in range(m_)) / m_
    proof = sum(sp.diff(f_expr, x).subs(dict(zip(xs, x_star)))**2 for x in xs)
    fbar = sum((y - sp.Rational(ci))**2 / 2 for ci in c) / m_
    statement = sp.diff(fbar, y).subs(y, sum(x_star) / m_)**2
    return {"x_star": x_star, "proof": sp.nsimplify(proof), "statement": sp.nsimplify(statement)}


@producer
def finding_prop48_iii_gradient_point(c=GRADIENT_POINT_INSTANCE["c"], sig=GRADIENT_POINT_INSTANCE["sigma"],
                                      X=GRADIENT_POINT_INSTANCE["X"]):
    """Prop. 4.8 (iii): the statement's factor ||grad f(xbar*)|| and the proof's ||grad f(x*)|| on an exact instance;
    reported when they differ."""
    from .. import audit as A

    g = _prop48_iii_gradient_norms_sq(c, sig, X)
    if g["proof"] == g["statement"]:
        return None
    return A.Finding(
        "pcfedavg.prop4.8.iii.gradient_point", "statement-vs-proof", ("pcfedavg.prop4.8.iii",), A.DISCREPANCY,
        "The statement of (iii) multiplies by ||grad f(xbar*)||, the proof (P4.8-h) by ||grad f(x*)||; on an exact "
        "instance the two differ (reading f(xbar*) as the loss part of (1) at the population average). The suite "
        "encodes sqrt(D) = ||grad f(x*)||, as in the proof and in Theorem 3.4.",
        "; ".join(f"{k}: {v}" for k, v in P48III_FACTOR_WORDS.items()) + f". m = {len(c)}, n = 1, f_i(y) = "
        f"(y - c_i)^2/2, c = {c}, sigma = {sig}, X = {X}: x* = {g['x_star']}, ||grad f(x*)||^2 = {g['proof']}, "
        f"||grad fbar(xbar*)||^2 = {g['statement']}", "exact evaluation (sympy)")
