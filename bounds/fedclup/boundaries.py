"""FedCLUP's formulas at the boundary values of their parameters (:func:`bounds.boundary.evaluate`): one client, one
sample per client, one local step, one round, a batch of one, no heterogeneity (R = 0), and lambda at its two ends.

Each row of :data:`ROWS` names a formula of :mod:`bounds.fedclup.claims`, the parameter, its boundary value, the
sentence that uses the formula (the paper's place and words), whether the formula is the paper's own (order forms,
provenance ``paper``) or derived here, and whether the paper's hypotheses admit that boundary value. A value is a
*real* finding only when all three hold: the paper's own formula, a boundary its hypotheses admit, and an undefined,
infinite or negative value there. Not findings, by design: a value at a boundary the hypotheses exclude (lambda > 0
excludes lambda = 0, and the limit lambda -> oo is GlobalTrain, not Problem (2)), and any value of a formula derived
here (the paper's constants are stripped from the copy; the derived Corollary 2 K, for one, grows like log(lambda) as
lambda -> oo (``findings.communication_in_lambda``), which says nothing of the paper's K). Assumptions, named: the
other symbols sit at the admissible point :data:`AT`; a nonnegative parameter's boundary 0 is attained (R = 0 is in
the parameter space (5)) and substituted exactly, not taken as a limit.
"""
from __future__ import annotations

import sympy as sp

from ..audit import CONSISTENT, DISCREPANCY, Finding, producer
from ..boundary import evaluate
from .claims import (
    BALL_THM3, K, KAPPA_F, L, MINIMAX_ORDER, Q_INNER, R, RHS_COR1, THM1_ORDER, B, C0, T,
    c, eps, eta, lam, m, mu, n, q1, q2, rho, sigma,
)

#: the admissible point the other symbols sit at (L >= mu, eta <= 1/(L + lam), c <= 1, eps < 1)
AT = {m: 10, n: 100, mu: 1, L: 4, lam: 2, rho: 1, R: sp.Rational(1, 10), eta: sp.Rational(1, 6), K: 5, T: 10,
      B: 8, sigma: 1, c: sp.Rational(1, 4), eps: sp.Rational(1, 100), C0: 1, q1: 3, q2: 3}
_C2 = ("Section 4.2, Corollary 2", "the communication and computation complexity for Algorithm 1 to find an "
                                   "[epsilon]-solution")
_T1 = ("Section 4.1, after Theorem 1", "The bound given by (8) consists of two terms")
_C1 = ("Section 4.1, after Corollary 1", "Corollary 1 shows that with an appropriate choice of [lambda], the "
                                         "established rate achieves the minimax lower bound")
_T3 = ("Section 4.2, after Corollary 2", "the error due to the stochastic noise scales inversely with the number of "
                                         "participating clients")
_C3 = ("Section 5, after Corollary 3", "As the optimization error vanishes when [...], the statistical error "
                                       "dominates the total error in Corollary 3")
_OPT = (1 - c / KAPPA_F)**T * C0
_COMM, _CC = KAPPA_F * sp.log(1 / eps), "fedclup.cor2.communication"
#: (formula name, expr, symbol, boundary value, (where, words), the paper's own formula, admitted by the hypotheses,
#: the claim whose formula it is)
ROWS = (
    ("communication kappa_F log(1/eps)", _COMM, lam, 0, _C2, True, False, _CC),
    ("communication kappa_F log(1/eps)", _COMM, lam, sp.oo, _C2, True, False, _CC),
    ("communication kappa_F log(1/eps)", _COMM, L, AT[mu], _C2, True, True, _CC),
    ("Theorem 1's order (8)", THM1_ORDER, m, 1, _T1, True, True, "fedclup.thm1"),
    ("Theorem 1's order (8)", THM1_ORDER, n, 1, _T1, True, True, "fedclup.thm1"),
    ("Theorem 1's order (8)", THM1_ORDER, R, 0, _T1, True, True, "fedclup.thm1"),
    ("minimax rate", MINIMAX_ORDER, R, 0, _C1, True, True, "fedclup.cor1"),
    ("minimax rate", MINIMAX_ORDER, n, 1, _C1, True, True, "fedclup.cor1"),
    ("Corollary 1 (derived)", RHS_COR1, m, 1, _C1, False, True, "fedclup.cor1.explicit"),
    ("Theorem 3's ball (derived)", BALL_THM3, m, 1, _T3, False, True, "fedclup.thm3"),
    ("Theorem 3's ball (derived)", BALL_THM3, B, 1, _T3, False, True, "fedclup.thm3"),
    ("inner contraction (1 - eta(mu + lam))^K", Q_INNER**K, K, 1, _C2, False, True, "fedclup.lemma5"),
    ("optimization error of (15) (schematic)", _OPT, T, 1, _C3, False, True, "fedclup.cor3"),
    ("optimization error of (15) (schematic)", _OPT, T, sp.oo, _C3, False, True, "fedclup.cor3"),
)
#: the classes of bounds.boundary that make a real finding (a rate or a bound that is no number, or negative)
BAD = ("undefined", "infinite", "negative")


def _line(row, value) -> str:
    name, _, symbol, at, _, own, admitted, _ = row
    return (f"{name} at {symbol} = {at}: {value.result} ({value.kind}; "
            f"{'the paper' if own else 'derived'}, {'admitted' if admitted else 'excluded by the hypotheses'})")


def _real(row, value) -> bool:
    """The module docstring's three conditions: the paper's own formula, an admitted boundary, a bad value there."""
    return row[5] and row[6] and value.kind in BAD


def _attained(expr: sp.Expr, symbol: sp.Symbol, value) -> sp.Expr:
    """``expr`` with a nonnegative parameter's 0 substituted exactly (R = 0 is in the domain of (5), not a limit);
    any other boundary is left to :func:`bounds.boundary.evaluate` (a limit at 0 from above, or at infinity)."""
    zero_attained = sp.sympify(value) == 0 and symbol.is_nonnegative and not symbol.is_positive
    return expr.subs(symbol, 0) if zero_attained else expr


@producer
def boundary_values(rows: tuple = ROWS, at: tuple = tuple(AT.items())) -> list[Finding]:
    """One finding per real boundary problem (the module docstring's three conditions), quoting the sentence that
    uses the formula, and one summary finding of every evaluation (consistent when there is no real one)."""
    point = dict(at)
    values = [(row, evaluate(_attained(row[1], row[2], row[3]), row[2], row[3], point)) for row in rows]
    real = [(row, v) for row, v in values if _real(row, v)]
    out = [Finding(f"fedclup.boundary.{i}", "statement-vs-proof", (row[7],),
                   DISCREPANCY if _real(row, v) else CONSISTENT, f"{row[4][0]}: \"{row[4][1]}\". {_line(row, v)}.",
                   str(row[1]), "sympy (bounds.boundary)")
           for i, (row, v) in enumerate(real)]
    out.append(Finding("fedclup.boundary.summary", "stated-rate", (), DISCREPANCY if real else CONSISTENT,
                       f"{len(values)} formulas evaluated at a boundary value of a parameter; {len(real)} of the "
                       "paper's own formulas are undefined, infinite or negative at a boundary its hypotheses admit.",
                       "; ".join(_line(row, v) for row, v in values), "sympy (bounds.boundary)"))
    return out


__all__ = ["AT", "ROWS", "BAD", "boundary_values"]
