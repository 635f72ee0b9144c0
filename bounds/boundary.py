"""Boundary values: a formula of a theorem, a step-size rule or a setting evaluated at a parameter's boundary value
(one local step, a batch of one, one client, one round, the smallest horizon, a parameter tending to 0 or to
infinity), and classified: ``undefined`` (0/0, a division by zero, nan), ``infinite``, ``zero``, ``negative`` or
``finite``. Whether a finite value is *vacuous* (a bound no smaller than the trivial one, a step size of 0) depends on
the sentence that uses it; the paper's mathematics package says so in the finding that cites it.

A value is substituted exactly (sympy ``subs``); a boundary at 0 or at infinity of a continuous parameter is taken as
a one-sided limit (from above at 0), since the paper's domain is open there. Assumption, named: the other symbols keep
the values given in ``at`` (a formula is evaluated on one admissible point, not over its whole domain).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import sympy as sp

#: the classes of a value at a boundary, in the order a report lists them
CLASSES = ("undefined", "infinite", "zero", "negative", "finite")


@dataclass(frozen=True)
class BoundaryValue:
    """``expr`` at ``symbol`` -> ``value`` (the other symbols at ``at``): the exact ``result`` and its class."""

    symbol: sp.Symbol
    value: sp.Expr
    result: sp.Expr
    kind: str


@dataclass(frozen=True)
class Case:
    """One formula a paper's mathematics package evaluates at a boundary: ``expr`` at ``symbol`` -> ``value`` (the
    other symbols at ``at``); ``admitted``: whether the paper's hypotheses allow that value, with the words that say so
    or exclude it (``hypothesis``); ``uses``: the sentence of the paper that uses the formula."""

    label: str
    expr: sp.Expr
    symbol: sp.Symbol
    value: object
    admitted: bool
    hypothesis: str
    uses: str
    at: Mapping = field(default_factory=dict)


def classify(result: sp.Expr) -> str:
    """One of :data:`CLASSES` for an exact sympy value."""
    if result is sp.nan or result.has(sp.nan) or result.has(sp.zoo):
        return "undefined"
    if result.is_infinite or result.has(sp.oo) or result.has(-sp.oo):
        return "infinite"
    if result.is_zero:
        return "zero"
    if result.is_negative:
        return "negative"
    return "finite"


def evaluate(expr: sp.Expr, symbol: sp.Symbol, value, at: Mapping[sp.Symbol, object] | None = None) -> BoundaryValue:
    """``expr`` with ``symbol`` at its boundary ``value`` and the other symbols at ``at``: substituted exactly, or a
    one-sided limit where ``value`` is 0 (from above) or infinite. A limit that sympy cannot take is ``undefined``."""
    value = sp.sympify(value)
    others = {s: v for s, v in (at or {}).items() if s != symbol}
    base = sp.sympify(expr).subs(others)
    if value.is_infinite or value.is_zero:
        try:
            result = sp.limit(base, symbol, value, "+") if value.is_zero else sp.limit(base, symbol, value)
        except (NotImplementedError, ValueError, TypeError):
            result = sp.nan
    else:
        result = base.subs(symbol, value)
    result = sp.nsimplify(result) if result.is_number and result.is_finite and not result.is_rational else result
    return BoundaryValue(symbol, value, result, classify(result))


__all__ = ["BoundaryValue", "CLASSES", "Case", "classify", "evaluate"]
