"""Consistency checks across claims: statement vs proof constants, stated rates vs the rates the
bounds imply, and experiment settings vs the conditions of the results they illustrate.

A :class:`Finding` records one such comparison with its verdict and evidence (a sympy
expression, a counterexample, or numbers). The paper findings modules build their findings with
these helpers (``bounds.<paper>_findings.audit_findings``); ``repro.report`` adds the empirical
evidence.

Findings are computed, never typed: every function that builds a :class:`Finding` is a *producer*
(decorated with :func:`producer`), and every finding it returns carries its :class:`Gate` -- the producer
bound to the same arguments -- so that anyone can re-run the computation that decided it
(``finding.gate()``) and see the same finding come back, or none. A producer returns a finding only
when its computation says so (a discrepancy that is not found is not reported), or returns a finding
whose verdict is an expression of what it computed. ``tests/test_findings.py`` re-runs every gate and
checks statically that no verdict constant is used outside a condition of a producer.
"""
from __future__ import annotations

import copy
import functools
import itertools
from dataclasses import dataclass, field, replace
from typing import Callable, Mapping

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
                              # | code | proof-step (a displayed step of a proof that a search refuted: repro.proof_search)
    claims: tuple[str, ...]
    verdict: str              # consistent | discrepancy | not checkable
    summary: str
    evidence: str
    method: str = ""          # proven symbolically / refuted by counterexample / sampled / numeric
    gate: "Gate | None" = field(default=None, compare=False, repr=False)   # the computation that decided it
    reading: tuple[tuple[str, str], ...] = ()   # the (erratum, side) it was computed on; empty: every reading

    def as_dict(self) -> dict:
        out = {k: v for k, v in self.__dict__.items() if k != "gate"}
        return out | {"claims": list(self.claims), "computed_by": self.gate.name if self.gate else None,
                      "reading": [list(p) for p in self.reading]}


class Gate:
    """A finding producer bound to its arguments: calling it re-runs the computation and returns the findings it
    decides now (a list, possibly empty). A ``numpy.random.Generator`` argument is copied as it was before the first
    call, and copied again for every re-run, so a re-run draws the same numbers."""

    def __init__(self, fn: Callable, args: tuple, kwargs: dict):
        self.fn, self._args, self._kwargs = fn, _snapshot(args), _snapshot(kwargs)

    @property
    def name(self) -> str:
        return f"{self.fn.__module__}.{self.fn.__qualname__}"

    def __call__(self) -> list[Finding]:
        return _as_list(self.fn(*_snapshot(self._args), **_snapshot(self._kwargs)), self)

    def __repr__(self) -> str:
        return f"Gate({self.name})"

    def __reduce__(self):
        """Pickled as its decorated producer (a module attribute, pickled by name: :func:`producer` links it from the
        function it wraps) with the arguments as snapshotted, so that a finding read back from a file re-runs as it
        would have in the process that built it."""
        return _gate_of, (getattr(self.fn, "producer", self.fn), self._args, self._kwargs)


def _gate_of(producer: Callable, args: tuple, kwargs: dict) -> "Gate":
    """The :class:`Gate` of ``producer`` (the decorated function, or a plain one) bound to ``args``."""
    return Gate(getattr(producer, "__wrapped__", producer), args, kwargs)


def _snapshot(values):
    """``values`` with every generator deep-copied (its state frozen); other arguments are shared."""
    if isinstance(values, dict):
        return {k: copy.deepcopy(v) if isinstance(v, np.random.Generator) else v for k, v in values.items()}
    return tuple(copy.deepcopy(v) if isinstance(v, np.random.Generator) else v for v in values)


def _as_list(result, gate: Gate) -> list[Finding]:
    """A producer's result (a finding, a list of findings or None) as a list, each finding stamped with ``gate``
    unless an inner producer already stamped it (the innermost computation is the finest gate)."""
    items = [] if result is None else [result] if isinstance(result, Finding) else list(result)
    bad = [type(f).__name__ for f in items if not isinstance(f, Finding)]
    if bad:
        raise TypeError(f"finding producer {gate.name} returned {', '.join(bad)}, not Finding")
    return [f if f.gate is not None else replace(f, gate=gate) for f in items]


def producer(fn: Callable) -> Callable:
    """Decorator: ``fn`` computes findings (returns a :class:`Finding`, a list of them, or None). The decorated
    function returns the same shape, each finding carrying the :class:`Gate` that re-runs ``fn`` on the same
    arguments."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        gate = Gate(fn, args, kwargs)
        result = fn(*args, **kwargs)
        items = _as_list(result, gate)
        if result is None or isinstance(result, Finding):
            return items[0] if items else None
        return items

    wrapper.is_producer = True
    fn.producer = wrapper                   # what a pickled Gate names (Gate.__reduce__)
    return wrapper


def _fmt_value(value) -> str:
    """One value of :func:`fmt_point`: floats to 4 significant digits, integers and sympy numbers (rationals,
    surds) as printed, sequences as ``(a, b)``, a nested mapping as ``(k = v, ...)``, anything else by ``str``."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)) or (isinstance(value, sp.Basic) and value.is_Float):
        return f"{float(value):.4g}"
    if isinstance(value, np.ndarray):
        return _fmt_value(value.item() if value.ndim == 0 else value.tolist())
    if isinstance(value, Mapping):
        return f"({fmt_point(value)})"
    if isinstance(value, (list, tuple, set, frozenset)):
        return "(" + ", ".join(_fmt_value(v) for v in value) + ")"
    return str(value)


def fmt_point(mapping: Mapping, sep: str = ", ") -> str:
    """A point, an instance, a configuration or an exponent map as prose: ``k = v`` joined by ``sep``, in the
    mapping's order, ``None`` values left out (``{'E': 50.0, 'n': 1.0}`` -> ``E = 50, n = 1``). The key ``value``
    (the value of the expression at the point, as in a counterexample of :func:`bounds.core.sample_nonnegative`)
    comes last, in parentheses: ``E = 50, n = 1 (value -5937)``. The one formatter every finding, check row and report
    page uses for such mappings, so that no raw Python dict reaches the prose."""
    items = [(k, v) for k, v in mapping.items() if v is not None]
    body = sep.join(f"{k} = {_fmt_value(v)}" for k, v in items if k != "value")
    value = [_fmt_value(v) for k, v in items if k == "value"]
    if not value:
        return body
    return f"{body} (value {value[0]})" if body else f"value {value[0]}"


def check_row(item: str, status: str, method: str, evidence: str, **extra) -> dict:
    """One row of a symbolic check table (e.g. ``bounds.fedclup.findings.derived_checks()``):
    ``{item, status, method, evidence}`` plus any ``extra`` keys."""
    return {"item": item, "status": status, "method": method, "evidence": evidence, **extra}


def _method(result: ProofResult) -> str:
    if result.proven is True:
        return f"proven symbolically ({result.method})"
    if result.proven is False:
        return f"refuted ({result.method})"
    return result.method


@producer
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
        evidence += f"; counterexample {fmt_point(result.counterexample)}"
    return Finding(id_, "statement-vs-proof", claims, CONSISTENT if ok else DISCREPANCY,
                   summary_ok if ok else summary_bad, evidence, _method(result))


@producer
def identity(id_: str, claims: tuple[str, ...], lhs: sp.Expr, rhs: sp.Expr, summary: str,
             kind: str = "statement-vs-proof") -> Finding:
    """Finding for a claimed algebraic identity ``lhs == rhs``."""
    result = prove_identity(lhs, rhs)
    verdict = CONSISTENT if result.proven else (DISCREPANCY if result.proven is False else NOT_CHECKABLE)
    return Finding(id_, kind, claims, verdict, summary, f"{lhs} == {rhs}; difference {result.expression}",
                   _method(result))


@producer
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
                f"[{lo:.3g}, {hi:.3g}]; degenerate iterated limits: {fmt_point(extremes, sep='; ') or 'none'}")
    return Finding(id_, "stated-rate", claims, verdict, summary, evidence, "sympy limits + sampling")
