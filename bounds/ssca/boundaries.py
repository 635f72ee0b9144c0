"""Mini-batch SSCA (arXiv 2104.06011 v1): its step-size rules, closed forms and constants at their parameters' boundary
values (:func:`bounds.boundary.evaluate`), and the one finding those values make.

:data:`CASES` lists each formula with the parameter, the boundary value, the point of the other symbols and whether
the paper's own hypotheses admit that value. A value the hypotheses exclude is evaluated and shown, never reported:

* (9)/(19) omega_bar = -f_hat/(2 tau) at tau -> 0+: infinite, but "tau > 0 can be any constant" excludes tau = 0;
* Theorem 5 (ii) lambda = 1/xi at xi -> 0+: infinite, but the theorem assumes "a corresponding Lagrange multiplier
  xi > 0";
* Lemma 3's L_bar = 2 L_tilde/mu at mu -> 0+: infinite, but the proof takes "constant mu > 0";
* (60) delta_1 = 1/(2 (1 + L_bar)) at L_bar -> 0+: 1/2, finite;
* (42) the root (sqrt(b/D) - 1)/tau at D = b + 4 tau (U - A) -> 0+: +oo, clipped by [.]_0^c to c, the value of (42)'s
  other branch (D <= 0): continuous at the switch; at b = 0 (Theta = 0): -1/tau, clipped to 0, so (40)-(41) give
  omega_bar = 0, the minimiser of ||omega||^2;
* the weight N_i/(B N) of (3) at the smallest batch B = 1: N_i/N, finite.

Admitted and degenerate: the literal surrogate (3) with (7), started from F_bar^(0) = 0, has the quadratic coefficient
tau w_t, w_t = 1 - prod_(s<=t) (1 - rho^(s)). (4) asks only rho^(t) > 0, rho^(t) -> 0 and sum rho^(t) = oo: it has no
upper bound, and rho^(t) = a1/sqrt(t) with gamma^(t) = 1/t^(9/10) satisfies (4) and (6) for every a1 > 0 (decided by
:func:`bounds.ssca.claims.power_law_conditions`, not typed). At t = 2, w_2 = 1 - (1 - a1)(1 - a1/sqrt(2)) is 0 at
a1 = 1 + sqrt(2) and negative beyond, so Problem 2 ("Problem 2 is convex") has no minimiser and the "strongly convex
with mu" of the proofs fails (evaluated at a1 = 3 and 4); the same weights build (10), (13) and (20). Section VI's
a1 <= 0.9 keep every rho^(t) <= 1, where w_t >= rho^(1) > 0. :func:`step_size_boundary_finding` reports it as a
gap in the hypotheses of Theorems 1-4. Assumption, named: a formula is evaluated at one admissible point of its other
symbols (``at``).
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from ..audit import DISCREPANCY, Finding, producer
from .. import boundary
from ..boundary import BoundaryValue, classify, evaluate
from .claims import ROOT_42, SECTION_VI_TRIPLES, _D, _tau_p, b_sym, power_law_conditions

a1 = sp.Symbol("a1", positive=True)
t_ = sp.Symbol("t", positive=True, integer=True)
f_hat, N_i, N, B = sp.symbols("f_hat N_i N B", positive=True)
xi, mu, L_tilde, L_bar = sp.symbols("xi mu L_tilde L_bar", positive=True)
#: the classes a value must not take where the formula is a strong-convexity modulus, a step or a bound
DEGENERATE = ("undefined", "infinite", "zero", "negative")


def surrogate_weight(rho_of_t: sp.Expr, t: int) -> sp.Expr:
    """w_t = 1 - prod_(s<=t) (1 - rho^(s)): the weight of tau ||omega||^2 in the literal recursion (3) with (7)."""
    return sp.factor(1 - sp.prod([1 - rho_of_t.subs(t_, s) for s in range(1, t + 1)]))


#: the power-law step sizes of the degenerate cases: rho = a1/t^RHO_EXP, gamma = 1/t^GAMMA_EXP
RHO_EXP, GAMMA_EXP = sp.Rational(1, 2), sp.Rational(9, 10)
W2 = surrogate_weight(a1 / t_**RHO_EXP, 2)


def admitted_by_4_and_6(a1_value) -> bool:
    """Whether rho = a1/t^RHO_EXP satisfies (4) and gamma = 1/t^GAMMA_EXP satisfies (6) (decided exactly)."""
    v = power_law_conditions(sp.nsimplify(a1_value), RHO_EXP, 1, GAMMA_EXP)
    return v.holds4 and v.holds6


_STEPS_4 = "(4): 'ρ(t) > 0, lim ρ(t) = 0, Σ ρ(t) = ∞' (no upper bound), with γ(t) = 1/t^(9/10) meeting (6)"


@dataclass(frozen=True)
class Case(boundary.Case):
    """A :class:`bounds.boundary.Case` whose value is then clipped by (42)'s [x]_0^c = min(max(x, 0), c) (``clip``)."""

    clip: bool = False


CASES = (
    Case("(3) with (7): w_2 for rho = a1/sqrt(t) at a1 = 3", W2, a1, 3, admitted_by_4_and_6(3), _STEPS_4,
         "Problem 2 is convex"),
    Case("(3) with (7): w_2 for rho = a1/sqrt(t) at a1 = 4", W2, a1, 4, admitted_by_4_and_6(4), _STEPS_4,
         "Problem 2 is convex"),
    Case("(3) with (7): w_2 for rho = a1/sqrt(t) at a1 = 1 (rho^(1) = 1)", W2, a1, 1, admitted_by_4_and_6(1), _STEPS_4,
         "Problem 2 is convex"),
    Case("(9)/(19): omega_bar at tau -> 0+", -f_hat / (2 * _tau_p), _tau_p, 0, False,
         "(7): 'where τ > 0 can be any constant'", "(9) 'analytical solution'"),
    Case("Theorem 5 (ii): lambda = 1/xi at xi -> 0+", 1 / xi, xi, 0, False,
         "Theorem 5 (ii): 'a corresponding Lagrange multiplier ξ > 0'", "then there exists λ > 0"),
    Case("Lemma 3: L_bar = 2 L_tilde/mu at mu -> 0+", 2 * L_tilde / mu, mu, 0, False,
         "Lemma 3's proof: 'there exists constant µ > 0'", "(43)"),
    Case("(60): delta_1 at L_bar -> 0+", 1 / (2 * (1 + L_bar)), L_bar, 0, True, "Lemma 3: 'a constant L̄'", "(60)"),
    Case("(42): the root at D -> 0+, clipped to [0, c]", ROOT_42, _D, 0, True, "(42): 'b + 4τ(U − A(t)a) > 0'",
         "Lemma 1", {b_sym: 1, _tau_p: 1}, clip=True),
    Case("(42): the root at b = 0, clipped to [0, c]", ROOT_42, b_sym, 0, True,
         "(42): 'b = Σ (B(t)a,j,k)² + Σ (C(t)a,l,j)²' >= 0", "Lemma 1", {_D: 1, _tau_p: 1}, clip=True),
    Case("(3): the weight N_i/(B N) at B = 1", N_i / (B * N), B, 1, True, "(3): 'B ≤ Ni is the batch size'", "(3)"),
)
#: where a value in DEGENERATE is fine: (42)'s clipped root is 0 at b = 0 (nu = 0 is the solution, not a step)
ZERO_IS_FINE = frozenset({"(42): the root at b = 0, clipped to [0, c]"})


C_42 = sp.Symbol("c", positive=True)   # the penalty of (38), the upper clip of (42)


def _evaluate(case: Case) -> BoundaryValue:
    """One case (:func:`bounds.boundary.evaluate`), then (42)'s clip where it applies (taken after the limit: sympy's
    limit does not pass through Min/Max)."""
    v = evaluate(case.expr, case.symbol, case.value, case.at)
    if not case.clip:
        return v
    clipped = sp.Min(sp.Max(v.result, 0), C_42)
    return BoundaryValue(v.symbol, v.value, clipped, classify(clipped))


def evaluate_cases(cases=CASES) -> list[tuple[Case, BoundaryValue]]:
    """Every case evaluated."""
    return [(c, _evaluate(c)) for c in cases]


def degenerate_admitted(cases=CASES) -> list[tuple[Case, BoundaryValue]]:
    """The cases whose value is degenerate at a boundary value the paper's hypotheses admit (the findings' cases)."""
    return [(c, v) for c, v in evaluate_cases(cases)
            if c.admitted and v.kind in DEGENERATE and not (c.label in ZERO_IS_FINE and v.kind == "zero")]


def section_vi_weights() -> list[sp.Expr]:
    """w_2 of (3) with (7) at Section VI's (a1, alpha): rho^(t) = a1/t^alpha."""
    out = []
    for A1, _, al in SECTION_VI_TRIPLES:
        rho = sp.Rational(str(A1)) / t_**sp.Rational(str(al))
        out.append(surrogate_weight(rho, 2))
    return out


def threshold() -> sp.Expr:
    """The a1 > 0 at which w_2 vanishes (beyond it, w_2 < 0)."""
    return next(x for x in sp.solve(W2, a1) if x.is_positive)


@producer
def step_size_boundary_finding(cases=CASES):
    """Theorems 1-4 assume the step sizes (4): a gap when a value (4) admits makes the literal surrogate (3)
    degenerate (its strong-convexity weight w_t zero or negative). The finding names the cases and Section VI's
    weights (positive), and bears on Theorems 1-4 (kind ``hypotheses``)."""
    bad = degenerate_admitted(cases)
    if not bad:
        return None
    vi = ", ".join(str(sp.N(w, 4)) for w in section_vi_weights())
    return Finding(
        "ssca.boundary.rho_above_one", "hypotheses", ("ssca.thm1", "ssca.thm2", "ssca.thm3", "ssca.thm4"), DISCREPANCY,
        "(4) admits step sizes rho^(t) > 1 (it has no upper bound): with rho^(t) = a1/sqrt(t) (and gamma^(t) = "
        "1/t^(9/10), which meets (6)) the literal surrogate (3) with "
        f"(7) has the weight w_2 = {W2} on tau ||omega||^2, zero at a1 = {threshold()}, "
        + ", ".join(f"{sp.radsimp(v.result)} ({v.kind}) at a1 = {c.value}" for c, v in bad)
        + ": Problem 2 ('Problem 2 is convex') then has no minimiser and no uniform strong convexity, which the proofs "
        "of Theorems 1-4 use; rho^(t) <= 1 closes it (Section VI's a1 <= 0.9 give w_2 = " + vi + ").",
        " | ".join(f"{c.label}: {v.result} ({v.kind}); {c.hypothesis}; used by '{c.uses}'" for c, v in bad),
        "bounds.boundary.evaluate (exact substitution)")


__all__ = ["CASES", "Case", "degenerate_admitted", "evaluate_cases", "section_vi_weights",
           "step_size_boundary_finding", "surrogate_weight"]
