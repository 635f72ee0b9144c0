"""Consistency checks across claims: statement vs proof constants, stated rates vs the rates the
bounds imply, and experiment settings vs the conditions of the results they illustrate.

A :class:`Finding` records one such comparison with its verdict and evidence (a sympy
expression, a counterexample, or numbers). The paper findings modules build their findings with
these helpers (``bounds.<paper>_findings.audit_findings``); ``repro.report`` adds the empirical
evidence.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Mapping

import numpy as np
import sympy as sp

from .core import ProofResult, prove_identity, prove_nonnegative, ratio_range, sample_nonnegative

CONSISTENT = "consistent"
DISCREPANCY = "discrepancy"
NOT_CHECKABLE = "not checkable"


@dataclass(frozen=True)
class Finding:
    """One audit row: what was compared, the verdict, how it was established, and the evidence."""

    id: str
    kind: str                 # statement-vs-proof | stated-rate | hypotheses | mode | experiment-settings | instance | wording
    claims: tuple[str, ...]
    verdict: str              # consistent | discrepancy | not checkable
    summary: str
    evidence: str
    method: str = ""          # proven symbolically / refuted by counterexample / sampled / numeric

    def as_dict(self) -> dict:
        return dict(self.__dict__) | {"claims": list(self.claims)}


def check_row(item: str, status: str, method: str, evidence: str, **extra) -> dict:
    """One row of a symbolic check table (e.g. ``bounds.fedclup_findings.derived_checks()``):
    ``{item, status, method, evidence}`` plus any ``extra`` keys."""
    return {"item": item, "status": status, "method": method, "evidence": evidence, **extra}


def _method(result: ProofResult) -> str:
    if result.proven is True:
        return f"proven symbolically ({result.method})"
    if result.proven is False:
        return f"refuted ({result.method})"
    return result.method


def dominates(id_: str, claims: tuple[str, ...], larger: sp.Expr, smaller: sp.Expr,
              lower: Mapping[sp.Symbol, object], sampling_domains, rng: np.random.Generator,
              summary_ok: str, summary_bad: str) -> Finding:
    """Finding for ``larger >= smaller`` on the domain: proven, refuted (counterexample) or sampled."""
    diff = sp.simplify(larger - smaller)
    result = prove_nonnegative(diff, lower)
    if result.proven is None:
        result = sample_nonnegative(diff, sampling_domains, rng)
    ok = result.proven is not False
    evidence = f"{larger} - ({smaller}) = {sp.factor(diff)}"
    if result.counterexample:
        evidence += f"; counterexample {result.counterexample}"
    return Finding(id_, "statement-vs-proof", claims, CONSISTENT if ok else DISCREPANCY,
                   summary_ok if ok else summary_bad, evidence, _method(result))


def identity(id_: str, claims: tuple[str, ...], lhs: sp.Expr, rhs: sp.Expr, summary: str,
             kind: str = "statement-vs-proof") -> Finding:
    """Finding for a claimed algebraic identity ``lhs == rhs``."""
    result = prove_identity(lhs, rhs)
    verdict = CONSISTENT if result.proven else (DISCREPANCY if result.proven is False else NOT_CHECKABLE)
    return Finding(id_, kind, claims, verdict, summary, f"{lhs} == {rhs}; difference {result.expression}",
                   _method(result))


def rate_comparison(id_: str, claims: tuple[str, ...], implied: sp.Expr, quoted: sp.Expr,
                    free, sampling_domains, rng: np.random.Generator) -> Finding:
    """Is the value implied by the general bound O(quoted)? Ratio range implied/quoted sampled over
    the free symbols; bounded above means the quoted O(.) is valid, bounded below means it is tight."""
    lo, hi = ratio_range(implied, quoted, free, sampling_domains, rng)
    ratio = sp.simplify(implied / quoted)
    syms = [s for s in free if s in ratio.free_symbols]
    corners = {}
    for order in itertools.permutations(syms):
        for ends in itertools.product(("low", "oo"), repeat=len(order)):
            value = ratio
            for s, end in zip(order, ends):
                value = sp.limit(value, s, sp.oo) if end == "oo" else value.subs(s, sampling_domains[s][0])
            corners[", ".join(f"{s}->{e if e == 'oo' else sampling_domains[s][0]}" for s, e in zip(order, ends))] = value
    values = list(corners.values()) or [ratio]
    upper_ok = np.isfinite(hi) and all(v.is_finite is not False for v in values)
    tight = lo > 0 and all(v.is_zero is not True for v in values)
    verdict = CONSISTENT if upper_ok else DISCREPANCY
    summary = ("the quoted rate is an upper bound of the one the general statement implies"
               if upper_ok else "the general statement does not imply the quoted rate")
    summary += ("; tight up to constants" if tight else
                "; not tight: implied/quoted tends to 0 along some limit, so the quoted O(.) overstates the bound")
    extremes = {k: str(v) for k, v in corners.items() if v.is_zero or v.is_finite is False}
    evidence = (f"implied {implied}; quoted O({quoted}); implied/quoted = {ratio}, sampled range "
                f"[{lo:.3g}, {hi:.3g}]; degenerate iterated limits: {extremes or 'none'}")
    return Finding(id_, "stated-rate", claims, verdict, summary, evidence, "sympy limits + sampling")
