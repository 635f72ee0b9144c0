"""FedSGM: the theorems' prescriptions at the boundary values of their parameters (:func:`bounds.boundary.evaluate`).

Formulas (:data:`FORMULAS`): Theorems 1-2's eps and eta, Theorem 2's smallest beta 2/eps (Theorems 7 and 9: beta =
2/eps), Theorems 8-9's eps and eta, and Rand-K's q_u = d/K - 1 (Section 4.1 with Assumption 2). Boundaries
(:data:`BOUNDARIES`): one local step (E = 1), one round (T = 1, the smallest horizon), one client (n = 1), no
compression (q_u = 0, K = d), the most compression (K = 1), and w_0 = w* (D -> 0).

What is left out, and why (a value the paper's own hypotheses exclude is not a finding):

* E, T, n = 0 and K = 0: Algorithm 1 and Rand-K need integers >= 1;
* G -> 0: G is any Lipschitz constant of every f_j, g_j (Assumption 1), so a larger one may always be chosen; D is
  not chosen: it is ||w_0 - w*||, 0 whenever the run starts at a minimiser (nothing excludes it);
* Algorithm 1's message (w_t - w_{j,E})/eta at eta = 0: eq. (4) writes it as sum_tau nu_{j,tau}, which is defined;
* T -> oo, eps -> 0: limits of the rate, not boundaries of a prescription.

Findings: :func:`boundary_values` (one per formula: a discrepancy when it is undefined or infinite at an admitted
boundary, quoting the sentence that uses it; else consistent, with every value in the evidence) and
:func:`vacuous_horizon` (the horizons at which the stated eps is no smaller than GD, the accuracy w_0 itself has:
f(w_0) - f* <= GD and g(w_0) <= g(w*) + GD <= GD by Assumption 1 and g(w*) <= 0). Neither bears on a claim's verdict
(their claims are empty: a theorem whose hypothesis no beta meets, or whose bound is vacuous, is not false).
"""
from __future__ import annotations

import sympy as sp

from ..audit import CONSISTENT, DISCREPANCY, Finding, producer
from ..boundary import evaluate
from ..core import prove_nonnegative
from .claims import D, E, EPS_STATED, EPS_THM8, ETA_STATED, ETA_THM8, G, T, n, q

K, d = sp.Symbol("K", positive=True, integer=True), sp.Symbol("d", positive=True, integer=True)
#: name -> (formula, the sentence that uses it: where and words)
FORMULAS = {
    "eps": (EPS_STATED, "Theorems 1-2 (Section 3): 'set the constraint threshold and step size as ε = √(2D²G²Γ/(ET))'"),
    "eta": (ETA_STATED, "Theorems 1-2 (Section 3): 'η = √(D²/(2G²ETΓ))'"),
    "beta_min": (2 / EPS_STATED, "Theorem 2 (Section 3): 'and β ≥ 2/ε'; Theorems 7 and 9 (Appendix A): 'β = 2/ε'"),
    "eps_thm8": (EPS_THM8, "Theorems 8-9 (Appendix A.3): 'ε = √(4D²G²E/T)'"),
    "eta_thm8": (ETA_THM8, "Theorems 8-9 (Appendix A.3): 'η = √(D²/(4G²E³T))'"),
    "q_randk": (d / K - 1, "Section 4.1: 'Rand-K [12, 32] compressor, which transmits a fraction K/d of "
                                        "coordinates with unbiased scaling' (Assumption 2 holds with q_u = d/K − 1)"),
}
#: an admissible point for the other symbols (Figure 1's E, T, n, K, d with a bias column; the values do not decide
#: a class: every formula is a product of powers of them, or d/K - 1)
AT = {E: 5, T: 100, n: 10, q: sp.Rational(22, 9), D: 1, G: 1, K: 9, d: 31}
#: (label, symbol, boundary value); every one is admitted by the paper's hypotheses (module docstring)
BOUNDARIES = (("one local step", E, 1), ("one round", T, 1), ("one client", n, 1), ("no compression", q, 0),
              ("K = d", K, AT[d]), ("K = 1", K, 1), ("w_0 = w*", D, 0))


def values(expr: sp.Expr) -> list[tuple[str, object]]:
    """(label, BoundaryValue) of ``expr`` at every boundary of a symbol it has."""
    return [(label, evaluate(expr, sym, val, AT)) for label, sym, val in BOUNDARIES if sym in expr.free_symbols]


@producer
def boundary_values(name: str, formulas: dict = FORMULAS) -> Finding:
    """Formula ``name`` of :data:`FORMULAS` at each boundary of :data:`BOUNDARIES`: undefined or infinite anywhere is a
    discrepancy (the sentence's prescription has no value there), else consistent."""
    expr, quote = formulas[name]
    got = values(expr)
    bad = [(label, v) for label, v in got if v.kind in ("undefined", "infinite")]
    shown = "; ".join(f"{label}: {v.result} ({v.kind})" for label, v in got)
    summary = (f"{quote}. At " + ", ".join(f"{label} ({v.symbol} -> {v.value})" for label, v in bad)
               + f" the prescription is {', '.join(dict.fromkeys(v.kind for _, v in bad))}: no finite value meets it, "
               "so the theorems that use it say nothing there (they are not false)." if bad else
               f"{quote}. Finite at every admitted boundary value.")
    return Finding(f"fedsgm.boundary.{name}", "hypotheses", (), DISCREPANCY if bad else CONSISTENT, summary,
                   f"{expr} at {', '.join(f'{k} = {v}' for k, v in AT.items())} except the boundary symbol: {shown}",
                   "bounds.boundary.evaluate (exact substitution or one-sided limit)")


#: the sentence that states the theorems for every horizon
ALL_T_QUOTE = ("proof of Theorem 7 (Appendix A.2.2): 'a sufficient (and highly conservative) condition for all T ≥ 1 "
               "is to set β ≥ 2/ε'")


@producer
def vacuous_horizon(tolerance: sp.Expr = EPS_STATED) -> Finding:
    """eps/(G D) at the smallest horizon T = 1, and the largest T at which eps >= G D (there w_0 is already an
    eps-solution, so the conclusion adds nothing): a discrepancy when the bound is vacuous at T = 1."""
    ratio = sp.simplify(tolerance / (G * D))
    at_one = evaluate(ratio, T, 1, AT)
    vacuous = prove_nonnegative(sp.simplify(ratio.subs(T, 1) ** 2 - 1), {E: 1, n: 1}).proven is True
    threshold = sp.simplify(ratio.subs(T, 1) ** 2)
    figure = threshold.subs({E: 5, n: 10, q: sp.Rational(22, 9)})
    return Finding("fedsgm.boundary.vacuous_horizon", "hypotheses", (), DISCREPANCY if vacuous else CONSISTENT,
                   f"{FORMULAS['eps'][1]}; {ALL_T_QUOTE}. " + (
                       f"At T = 1 the stated ε is {ratio.subs(T, 1)} GD ≥ GD, and it stays ≥ GD for every T ≤ "
                       f"{threshold}: at those horizons w̄ = w_0 would already be an ε-solution (f(w_0) − f* ≤ GD, "
                       "g(w_0) ≤ GD), so Theorems 1-2 say nothing there. Figure 1's T = 100 is above the threshold "
                       f"({figure} at E = 5, n = 10, q_u = 22/9)." if vacuous else
                       "The stated ε is below GD already at T = 1: the theorems are informative at every horizon."),
                   f"eps/(G D) = {ratio}; at T = 1 (other symbols at AT): {at_one.result}; vacuous for T <= "
                   f"{threshold}",
                   "sympy (sign certificate) and bounds.boundary.evaluate")


def boundary_findings() -> list:
    """Every finding of this module, in :data:`FORMULAS` order, then the horizon."""
    return [boundary_values(name) for name in FORMULAS] + [vacuous_horizon()]
