"""PC-FedAvg (arXiv 2603.19617v1): its step-size rule, bounds, rates and penalty schedule at their parameters' boundary
values (:func:`bounds.boundary.evaluate`), and the one finding those values make.

:data:`CASES` lists each formula with the parameter, the boundary value, the point of the other symbols and whether
the paper's own hypotheses admit that value. A value the hypotheses exclude is evaluated and shown, never reported:

* Theorem 3.4 / Props. 4.7-4.8: gamma <= min{1/(6 L_G), 1/(5 L_G (H-1))} at one local step, H = 1: the second entry
  is 1/0, undefined as printed. H = 1 is admitted (Algorithm 1: "T_r ≥ 1"; Theorem 3.4 asks only
  max_r |T_(r+1) - T_r| <= H), so this one is reported (:func:`finding_boundary_values`,
  ``pcfedavg.boundary.values``), as wording: under the obvious reading 1/0 = +oo the rule is gamma <= 1/(6 L_G),
  and every claim keeps its meaning;
* Prop. 4.8 (ii)'s 5 m D/rho^2 at rho -> 0+: infinite, but Section 2.2 takes "a penalty parameter ρ > 0";
* L_G = (L_f + sigma(m-1))/m + rho at one agent m = 1: finite, and Theorem 3.4 assumes "m ≥ 2" anyway;
* Theorem 3.4 (i) and (ii)'s O(.) at H = 1: finite (every term keeps its power of 1/eps);
* Theorem 3.4 (iii)'s O(.) at D = 0: zero, not vacuous: grad f(x*) = 0 makes x* a global minimiser of the convex
  f, so E[f(xbar) - f(x*)] >= 0 = -eps needs no round;
* Prop. 4.8 (i)'s 3Q/(K gamma) at the smallest horizon K = 1, and the proof's gamma = 1/sqrt(R) at R = 1: finite;
* Section 5's rho = (r + 10,000)^(1/4) at round r = 0: 10, finite.

Assumption, named: a formula is evaluated at one admissible point of its other symbols (``at``, all 1 unless said).
"""
from __future__ import annotations


import sympy as sp

from ..audit import CONSISTENT, DISCREPANCY, Finding, producer
from ..boundary import BoundaryValue, Case, evaluate
from .claims import D, H, K, L_G_EXPR, PRINTED_O, Q, R, TERMS_48I, TERMS_48II, m, rho

r_round = sp.Symbol("r", nonnegative=True, integer=True)
#: the classes a value must not take where the formula is a step size's bound, a bound or a rate
DEGENERATE = ("undefined", "infinite", "negative")
_STEP_WORDS = ("Theorem 3.4", "Suppose the step size satisfies 0<γ≤min{1/(6L_Gρ),1/(5L_Gρ(H−1))}")


CASES = (
    Case("step-size rule, 1/(5 L_G (H-1)) at H = 1", 1 / (5 * L_G_EXPR * (H - 1)), H, 1, True,
         "Algorithm 1: 'T_r ≥ 1'; Theorem 3.4: 'max_r |T_{r+1} − T_r| ≤ H'", _STEP_WORDS[1]),
    Case("Prop. 4.8 (ii), 5 m D/rho^2 at rho -> 0+", TERMS_48II[0], rho, 0, False,
         "Section 2.2: 'using a penalty parameter ρ > 0'", "Proposition 4.8 (ii)"),
    Case("L_G at one agent m = 1", L_G_EXPR, m, 1, False, "Theorem 3.4: 'm ≥ 2'", _STEP_WORDS[1]),
    Case("Theorem 3.4 (i) O(.) at H = 1", sp.Add(*PRINTED_O["i"]), H, 1, True, "Algorithm 1: 'T_r ≥ 1'",
         "Theorem 3.4 (i)"),
    Case("Theorem 3.4 (ii) O(.) at H = 1", sp.Add(*PRINTED_O["ii"]), H, 1, True, "Algorithm 1: 'T_r ≥ 1'",
         "Theorem 3.4 (ii)"),
    Case("Theorem 3.4 (iii) O(.) at D = 0", sp.Add(*PRINTED_O["iii"]), D, 0, True,
         "Theorem 3.4: 'for some nonnegative constants D, Q, and M'", "Theorem 3.4 (iii)"),
    Case("Prop. 4.8 (i), 3Q/(K gamma) at K = 1", TERMS_48I[2], K, 1, True, "Theorem 3.4: 'Set K ≜ RH'",
         "Proposition 4.8 (i)", {Q: 1}),
    Case("proof of Theorem 3.4, gamma = 1/sqrt(R) at R = 1", 1 / sp.sqrt(R), R, 1, True,
         "Algorithm 1: 'for r = 0, 1, ..., R − 1'", "setting γ = 1/√R"),
    Case("Section 5, rho = (r + 10,000)^(1/4) at r = 0", (r_round + 10000)**sp.Rational(1, 4), r_round, 0, True,
         "Algorithm 1: 'r = 0, 1, ..., R − 1'", "an increasing penalty ρ = (r + 10,000)^(1/4) at round r"),
)


def evaluate_cases(cases=CASES) -> list[tuple[Case, BoundaryValue]]:
    """Every case evaluated, the symbols other than the case's own at ``at`` or else 1."""
    out = []
    for c in cases:
        others = {s: 1 for s in sp.sympify(c.expr).free_symbols if s != c.symbol} | dict(c.at)
        out.append((c, evaluate(c.expr, c.symbol, c.value, others)))
    return out


def reported(cases=CASES) -> list[tuple[Case, BoundaryValue]]:
    """The admitted cases whose value is degenerate (:data:`DEGENERATE`)."""
    return [(c, v) for c, v in evaluate_cases(cases) if c.admitted and v.kind in DEGENERATE]


@producer
def finding_boundary_values(cases=CASES):
    """The boundary values of :data:`CASES`: a discrepancy (wording: the obvious reading repairs it) for every
    admitted case with a degenerate value, with the sentence that uses the formula."""
    bad = reported(cases)
    shown = "; ".join(f"{c.label} = {v.result} ({v.kind}{'' if c.admitted else ', excluded by ' + c.hypothesis})"
                      for c, v in evaluate_cases(cases))
    return Finding(
        "pcfedavg.boundary.values", "wording", (), DISCREPANCY if bad else CONSISTENT,
        ("At admitted boundary values: " + "; ".join(
            f"{c.label} is {v.kind} ({v.result}), used by '{c.uses}', admitted by {c.hypothesis}" for c, v in bad)
         + ". Read 1/0 as +oo, the rule is gamma <= 1/(6 L_G) and the claims keep their meaning." if bad else
         "Every formula is finite at every admitted boundary value."), shown, "sympy substitution and one-sided limits")


def boundary_findings() -> list:
    """The findings of this module."""
    return [finding_boundary_values()]


__all__ = ["CASES", "Case", "DEGENERATE", "evaluate_cases", "reported", "finding_boundary_values",
           "boundary_findings"]
