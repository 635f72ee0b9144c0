"""Displayed proof steps as claims a search tries to break.

A step a proof displays -- "lhs <= rhs (or =, >=), under the hypotheses in force there, because of what it cites" --
is a :class:`Step`: sympy expressions over scalar symbols, each with the box the search explores. How the display
becomes scalars is the step's ``reading`` (e.g. a vector as its coordinates in R^2, an expectation as a two-point
distribution with its probability a symbol, a norm as a nonnegative symbol tied by a hypothesis); the reading is
data typed from the paper, so it is named beside every step.

:func:`check` decides a step in two stages:

1. **symbolic**: sympy proves it (``bounds.core.prove_identity`` for ``==``; ``prove_nonnegative`` of the slack for an
   inequality, under the symbols' own sympy assumptions -- a proof without the hypotheses is a proof with them);
2. **numeric falsification**, when sympy cannot decide: hypothesis draws points of the box that satisfy the
   hypotheses and is ``target``-ed on the step's relative violation (derandomized, no example database, so the
   search is deterministic), then scipy's Nelder-Mead polishes the best points inside the box. A relative violation
   above :data:`TOLERANCE` is re-evaluated exactly (sympy at 50 digits, the point's binary floats as rationals); a
   confirmed one refutes the step with that instance.

The outcome is ``proven``, ``refuted`` (with the instance) or ``not refuted`` (how many points, and how close the
search came: the largest relative violation, a negative number). A search that finds nothing is evidence, not a
proof, and is reported as such.

Assumptions, named: the relative violation of ``lhs <= rhs`` is (lhs - rhs) / (|lhs| + |rhs| + 1e-300), so it lies in
[-1, 1] and a violation is scale-free; an ``==`` step's is |lhs - rhs| / (|lhs| + |rhs| + 1e-300); hypotheses are
checked to a relative 1e-12 (a point on the edge of a hypothesis counts as inside); integer symbols (sympy
``integer=True``) are drawn and polished as integers. Hand-written around hypothesis and scipy because neither
searches a symbolic relation under symbolic hypotheses on its own.
"""
from __future__ import annotations

import contextlib
import math
import warnings
from dataclasses import dataclass, field, replace
from typing import Mapping

import numpy as np
import sympy as sp
from scipy import optimize

from .core import prove_identity, prove_nonnegative

#: relative violation above which a numeric point is re-evaluated exactly (float64 rounding stays far below it)
TOLERANCE = 1e-9
#: relative slack with which a hypothesis counts as satisfied at a numeric point
HYPOTHESIS_RTOL = 1e-12
RELATIONS = ("<=", "==", ">=")
#: the two sides of an erratum a step's ``variant`` names (and the options of its reading axis, printed first)
PRINTED, CORRECTED = "as printed", "corrected"
PROVEN, REFUTED, NOT_REFUTED = "proven", "refuted", "not refuted"


@dataclass(frozen=True)
class Step:
    """One displayed step: ``lhs relation rhs`` over the symbols of ``space`` (symbol -> (low, high) of the search
    box), under ``hypotheses`` (sympy relations in force at that point of the proof), citing ``cites`` (what the paper
    invokes: an earlier display, a lemma, "Young's inequality"). ``proof`` and ``label`` are those of the display in
    the paper's inventory (:class:`bounds.proofs.Display`); ``claim`` is the encoded claim the proof establishes
    (``also``: the further claims one printed proof establishes, e.g. "Proof of Theorems 1 and 3"); ``reading`` says
    how the display became scalars. ``variant`` names the side of an erratum the step belongs to (``((erratum id,
    "as printed"),)`` for a display as printed, ``((erratum id, "corrected"),)`` for its correction or a later display
    from the corrected form; empty: every reading); ``uses`` the labels of the displays its left side starts from;
    ``notations`` the other readings the print admits of the same display (a sign inside or outside a brace), tried
    when the encoded one is refuted (:func:`check`); ``applies`` how it applies the encoded results it cites
    (:class:`Use`, decided by :func:`check_use`)."""

    proof: str
    label: str
    claim: str
    lhs: sp.Expr
    relation: str
    rhs: sp.Expr
    space: Mapping[sp.Symbol, tuple[float, float]]
    hypotheses: tuple = ()
    cites: tuple[str, ...] = ()
    reading: str = ""
    also: tuple[str, ...] = ()
    variant: tuple[tuple[str, str], ...] = ()
    uses: tuple[str, ...] = ()
    notations: tuple["Notation", ...] = ()
    applies: tuple["Use", ...] = ()

    def __post_init__(self) -> None:
        if self.relation not in RELATIONS:
            raise ValueError(f"relation: {self.relation!r} is not one of {RELATIONS}")
        used = set(sp.sympify(self.lhs).free_symbols) | set(sp.sympify(self.rhs).free_symbols)
        for h in self.hypotheses:
            used |= h.free_symbols
        missing = sorted(map(str, used - set(self.space)))
        if missing:
            raise ValueError(f"step {self.proof} {self.label}: symbols without a search box: {missing}")
        for s, (lo, hi) in self.space.items():
            if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
                raise ValueError(f"step {self.proof} {self.label}: box of {s} is ({lo}, {hi}), need low <= high")

    @property
    def claims(self) -> tuple[str, ...]:
        """Every claim whose printed proof displays this step."""
        return (self.claim,) + tuple(self.also)

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        return tuple(sorted(self.space, key=str))

    @property
    def slack(self) -> sp.Expr:
        """rhs - lhs for ``<=``, lhs - rhs for ``>=``, lhs - rhs for ``==`` (the step holds iff it is >= 0, resp. 0)."""
        return sp.sympify(self.lhs - self.rhs if self.relation != "<=" else self.rhs - self.lhs)

    def text(self) -> str:
        return f"{self.lhs} {self.relation} {self.rhs}"


@dataclass(frozen=True)
class Notation:
    """Another reading the print admits of a step's display: ``name`` (what it reads differently), its two sides and
    relation, and ``why`` the paper admits it (its own words elsewhere, quoted)."""

    name: str
    lhs: sp.Expr
    relation: str
    rhs: sp.Expr
    why: str


@dataclass(frozen=True)
class Use:
    """How a step applies a result it cites: ``label`` (the citation as the step's ``cites`` prints it), ``claim``
    (the encoded claim it names), ``quantity`` (the observed symbol of the claim's conclusion the step bounds),
    ``bound`` (what the step takes as that quantity's bound, in the step's symbols) and ``at`` (each symbol of the
    claim's bound, by name, as an expression in the step's symbols: the instance the step applies). The cited
    result provides the use when its bound at ``at`` is at most ``bound`` (:func:`check_use`). A step that sums
    ``copies`` instances (over clients and local steps) names in ``summed`` the claim symbols that vary between them,
    ``at`` giving their sums: the claim's bound must be affine in them, and the summed bound is ``copies`` times its
    part free of them plus the rest at the sums. ``copies`` is the step's reading, like its sides: a count too small
    makes the check weaker (a sum the step takes is compared with fewer instances), so a step module takes it from
    the same summation its sides use. ``named``: (claim symbol, expression) pairs substituted first, for a
    quantity the claim writes out and the step names (rho -> L_G - (L_f + sigma (m-1))/m turns Lemma 4.1's L_G,
    written out in a claim, into the step's symbol L_G)."""

    label: str
    claim: str
    quantity: str
    bound: sp.Expr
    at: Mapping[str, sp.Expr]
    copies: sp.Expr = sp.Integer(1)
    summed: tuple[str, ...] = ()
    named: tuple[tuple[sp.Expr, sp.Expr], ...] = ()


class Boxes(dict):
    """Symbol -> (low, high): the search box of each symbol a paper's step module creates (its steps' ``space``)."""

    def symbols(self, names: str, box: tuple[float, float], **assumptions):
        """``sympy.symbols(names, **assumptions)``, each with the search box ``box``."""
        made = sp.symbols(names, **assumptions)
        for s in made if isinstance(made, tuple) else (made,):
            self[s] = box
        return made


@dataclass(frozen=True)
class StepCheck:
    """What :func:`check` found: ``status`` (proven / refuted / not refuted), ``method``, the points evaluated, the
    largest relative violation found (``worst``; > 0 is a violation) and where (``point``, with the two sides
    there)."""

    step: Step
    status: str
    method: str
    evaluations: int = 0
    worst: float = math.nan
    point: dict = field(default_factory=dict)
    sides: tuple[float, float] = (math.nan, math.nan)
    notation: str = ""                      # the admissible notation under which it holds (the encoded one refuted)
    refuted_as_encoded: dict = field(default_factory=dict)    # then: the point and sides refuting the encoded one

    def as_row(self) -> dict:
        """A JSON-ready dict (non-finite numbers as None)."""
        s = self.step

        def num(x):
            return float(x) if math.isfinite(x) else None
        return {"proof": s.proof, "label": s.label, "claim": s.claim, "claims": list(s.claims), "relation": s.text(),
                "status": self.status,
                "method": self.method, "evaluations": self.evaluations, "worst": num(self.worst),
                "point": dict(self.point), "lhs": num(self.sides[0]), "rhs": num(self.sides[1]), "cites": list(s.cites),
                "hypotheses": [str(h) for h in s.hypotheses], "reading": s.reading,
                "variant": [list(v) for v in s.variant], "uses": list(s.uses), "notation": self.notation,
                "refuted_as_encoded": dict(self.refuted_as_encoded)}


# ---------------------------------------------------------------------------- symbolic stage
def _symbolic(step: Step) -> str | None:
    """The method that proves ``step`` symbolically, or None."""
    if step.relation == "==":
        res = prove_identity(step.lhs, step.rhs)
    else:
        res = prove_nonnegative(step.slack, {})
    return res.method if res.proven is True else None


# ---------------------------------------------------------------------------- numeric stage
def _violation(relation: str, a: float, b: float) -> float:
    """The relative violation of ``a relation b`` (module docstring): > 0 when it fails."""
    scale = abs(a) + abs(b) + 1e-300
    return abs(a - b) / scale if relation == "==" else ((a - b) if relation == "<=" else (b - a)) / scale


class _Objective:
    """The relative violation of a step at a point of the unit cube (mapped into the box; integers rounded), nan
    where a hypothesis fails or a side is not finite; keeps the best points seen."""

    def __init__(self, step: Step):
        self.step, self.syms = step, step.symbols
        self.lhs = sp.lambdify(self.syms, step.lhs, modules="math")
        self.rhs = sp.lambdify(self.syms, step.rhs, modules="math")
        self.hyp = [(sp.lambdify(self.syms, h.lhs, modules="math"), sp.lambdify(self.syms, h.rhs, modules="math"),
                     h.rel_op) for h in step.hypotheses]
        self.integer = [bool(s.is_integer) for s in self.syms]
        self.box = [step.space[s] for s in self.syms]
        self.evaluations, self.best = 0, []

    def point(self, u) -> list[float]:
        out = []
        for (lo, hi), integer, x in zip(self.box, self.integer, np.clip(np.asarray(u, float), 0.0, 1.0)):
            if integer:
                out.append(float(round(lo + x * (hi - lo))))
            elif lo > 0 and hi / lo > 100:                    # a box over decades: log scale
                out.append(float(lo * (hi / lo) ** x))
            else:
                out.append(float(lo + x * (hi - lo)))
        return out

    def _holds(self, x) -> bool:
        for lhs, rhs, op in self.hyp:
            a, b = lhs(*x), rhs(*x)
            tol = HYPOTHESIS_RTOL * (abs(a) + abs(b) + 1e-300)
            ok = {"<=": a <= b + tol, "<": a < b + tol, ">=": a >= b - tol, ">": a > b - tol,
                  "==": abs(a - b) <= tol, "!=": True}[op]
            if not ok:
                return False
        return True

    def __call__(self, u) -> float:
        self.evaluations += 1
        x = self.point(u)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if not self._holds(x):
                    return math.nan
                a, b = float(self.lhs(*x)), float(self.rhs(*x))
        except (ArithmeticError, ValueError, TypeError):
            return math.nan
        if not (math.isfinite(a) and math.isfinite(b)):
            return math.nan
        v = _violation(self.step.relation, a, b)
        self.best = sorted(self.best + [(v, tuple(x), (a, b), tuple(u))], key=lambda t: -t[0])[:4]
        return v


@contextlib.contextmanager
def _without_local_constants():
    """hypothesis (>= 6.131) also draws numbers it finds in the source of every non-library module loaded so far, so a
    derandomized search would depend on what the process imported before (a test order, a worker's earlier runs).
    Inside this context it sees none (its private ``providers._get_local_constants``, replaced for the search; the
    hypothesis version is part of each step run's config, so a release that changes this reruns them)."""
    try:
        from hypothesis.internal.conjecture import providers
        original, cache = providers._get_local_constants, providers.CONSTANTS_CACHE.cache
    except (ImportError, AttributeError):     # an older hypothesis: no local constants to hide
        yield
        return
    cache.clear()
    providers._get_local_constants = providers.Constants
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.clear()


def _hypothesis_search(obj: _Objective, examples: int) -> None:
    """hypothesis draws ``examples`` points of the unit cube, ``target``-ed on the violation (derandomized, and blind
    to the constants of loaded modules: :func:`_without_local_constants`)."""
    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import strategies as st

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None, report_multiple_bugs=False,
              phases=(Phase.generate, Phase.target), suppress_health_check=list(HealthCheck))
    @given(st.lists(st.floats(0.0, 1.0), min_size=len(obj.syms), max_size=len(obj.syms)))
    def search(u):
        v = obj(u)
        if not math.isnan(v):
            target(v, label="relative violation")

    with _without_local_constants():
        search()


def _polish(obj: _Objective, evaluations: int) -> None:
    """Nelder-Mead from the best points found, inside the unit cube (nan, i.e. outside the hypotheses, is worst)."""
    starts = [b[3] for b in obj.best]
    per = max(1, evaluations // max(1, len(starts)))
    for u0 in starts:
        optimize.minimize(lambda u: 2.0 if math.isnan(v := obj(u)) else -v, np.asarray(u0, float),
                          method="Nelder-Mead", bounds=[(0.0, 1.0)] * len(u0),
                          options={"maxfev": per, "xatol": 1e-12, "fatol": 1e-15})


def _number(expr: sp.Expr, chop: bool = False) -> sp.Expr:
    """``expr`` (exact, at a rational point) to 50 digits. A difference that cancels (a - b sqrt(c) equal to, or within
    1e-1000 of, 0) leaves evalf without a sign at any working precision; it is read as 0, i.e. on the edge of the
    relation, which counts as inside a hypothesis and as no violation of a step."""
    value = sp.N(expr, 50, chop=True) if chop else sp.N(expr, 50, maxn=2000)
    return value if value.is_Number else sp.Float(0, 50)


def _at(expr, subs: Mapping[sp.Symbol, sp.Rational]) -> sp.Expr:
    """``expr`` at the exact point ``subs``, to 50 digits. Where sympy refuses to build the exact value (a Max/Min of
    a chain step whose arguments are irrational numbers it cannot order symbolically), it is substituted unevaluated
    and evaluated numerically, tiny parts chopped (an unevaluated 1 - 1 has no sign otherwise). Where a Max/Min
    argument is not real there either (e.g. the square root of a negative number), the value is ``nan``: the point is
    outside the expression's domain, so it is no instance of the step (:func:`_admissible`, :func:`confirm`)."""
    try:
        exact = sp.sympify(expr).xreplace(subs)
    except (TypeError, ValueError):
        with sp.evaluate(False):
            unevaluated = sp.sympify(expr).xreplace(subs)
        try:
            return _number(unevaluated, chop=True)
        except (TypeError, ValueError):
            return sp.nan
    return _number(exact)


def _admissible(step: Step, subs: Mapping[sp.Symbol, sp.Rational]) -> bool:
    """Every symbol's own sympy assumptions (integer, positive, nonnegative) and every hypothesis hold exactly."""
    for sym, value in subs.items():
        if (sym.is_integer and not value.is_integer) or (sym.is_positive and not value > 0) or (
                sym.is_nonnegative and value < 0):
            return False
    for h in step.hypotheses:
        gap = _at(h.lhs - h.rhs, subs)
        if gap is sp.nan:
            return False
        if (h.rel_op in ("<=", "<") and gap > 0) or (h.rel_op in (">=", ">") and gap < 0) or (
                h.rel_op == "==" and abs(gap) > 0):
            return False
    return True


def confirm(step: Step, point: Mapping[str, float]) -> tuple[float, float] | None:
    """The two sides of ``step`` at ``point`` (symbol name -> value; binary floats read as exact rationals), evaluated
    to 50 digits, when the symbols' assumptions and every hypothesis hold there exactly and the step fails by more
    than a relative 1e-30; else None."""
    subs = {s: sp.Rational(point[str(s)]) for s in step.symbols}
    if not _admissible(step, subs):
        return None
    a, b = _at(step.lhs, subs), _at(step.rhs, subs)
    if not (a.is_real and b.is_real):
        return None
    scale = abs(a) + abs(b) + sp.Float("1e-300", 50)
    gap = {"<=": a - b, ">=": b - a, "==": abs(a - b)}[step.relation]
    return (float(a), float(b)) if gap / scale > sp.Float("1e-30", 50) else None


_SIMPLE = (0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0)


def _candidates(value: float, others: list[float]) -> list[float]:
    """Simpler values for a coordinate, simplest first: small constants, the nearest integer, ``value`` to 1-3
    significant digits, then another coordinate's value +- 1/2 or 1 (a difference of two coordinates that must stay
    small, e.g. a distance below 1, keeps a simple size)."""
    out = list(_SIMPLE) + [float(round(value))] + [float(f"{value:.{digits}g}") for digits in (1, 2, 3)]
    out += [u + d for u in others for d in (0.5, -0.5, 1.0, -1.0)]
    return [v for i, v in enumerate(out) if v not in out[:i] and v != value]


def shrink(step: Step, point: Mapping[str, float], passes: int = 2) -> dict:
    """A simpler counterexample: each coordinate in turn replaced by the first of :func:`_candidates` for which the
    step still fails (:func:`confirm`), ``passes`` times over, so that a finding shows an instance a reader can check
    by hand (what hypothesis's shrinking does for a test's inputs)."""
    current = dict(point)
    for _ in range(passes):
        for name in sorted(current):
            others = [v for k, v in current.items() if k != name]
            for value in _candidates(current[name], others):
                if confirm(step, current | {name: value}) is not None:
                    current[name] = value
                    break
    return current


def check(step: Step, examples: int = 200, polish: int = 200) -> StepCheck:
    """Decide ``step`` (:func:`check_encoded`); when the encoded reading is refuted, each admissible notation of the
    display (``step.notations``) is decided in turn, and the first that is not refuted decides the step: the print
    admits a reading under which it follows (the refuting point of the encoded reading is kept)."""
    first = check_encoded(step, examples, polish)
    if first.status != REFUTED:
        return first
    for notation in step.notations:
        other = check_encoded(replace(step, lhs=notation.lhs, relation=notation.relation, rhs=notation.rhs,
                                      notations=()), examples, polish)
        if other.status != REFUTED:
            refuted = {"point": dict(first.point), "lhs": first.sides[0], "rhs": first.sides[1]}
            return replace(other, step=step, notation=notation.name, method=f"{other.method}; under the reading "
                           f"'{notation.name}' ({notation.why}); as encoded it is refuted", refuted_as_encoded=refuted)
    return first


def use_step(step: Step, use: Use, claim) -> Step:
    """What ``use`` of ``claim`` (a :class:`bounds.core.Claim`) in ``step`` requires, as a step over ``step``'s symbols:
    where the claim applies at the instance ``use.at`` (its hypotheses there, and its symbols' own signs, added to
    ``step``'s), its bound on ``use.quantity`` is at most what the step takes (``use.bound``). Whether the claim's
    hypotheses hold in the step is not this check's question: the use is judged where the cited result speaks, so a
    refutation is never a point the result does not cover. ``use.named`` is substituted first."""
    named = dict(use.named)
    stated = claim.bounds()[use.quantity].subs(named)
    subs = {x: use.at[x.name] for x in claim.symbols if x.name in use.at}
    missing = sorted(x.name for x in stated.free_symbols if x in claim.symbols and x not in subs)
    if missing:
        raise ValueError(f"use of {use.claim} in {step.proof} {step.label}: no instance for {missing}")
    where = [claim.substitute(h).subs(named).xreplace(subs) for h in claim.hypotheses]
    where += [sp.Gt(e, 0) if x.is_positive else sp.Ge(e, 0) for x, e in subs.items() if x.is_nonnegative]
    if sp.false in where:
        raise ValueError(f"use of {use.claim} in {step.proof} {step.label}: the instance is outside the claim's domain")
    given = _summed(stated, use, claim.id).xreplace(subs)
    return replace(step, label=f"{step.label}, its use of {use.label}", lhs=given, relation="<=", rhs=use.bound,
                   notations=(), applies=(), cites=(use.label,), uses=(),
                   hypotheses=step.hypotheses + tuple(h for h in where if h is not sp.true))


def _summed(bound: sp.Expr, use: Use, claim_id: str) -> sp.Expr:
    """The sum of ``use.copies`` instances of ``bound`` whose symbols ``use.summed`` stand for their sums (every other
    symbol the same in every instance): ``bound`` must be affine in them."""
    varying = [x for x in bound.free_symbols if x.name in use.summed]
    if len(varying) != len(use.summed):
        raise ValueError(f"{claim_id}: summed {sorted(use.summed)}, but its bound has only "
                         f"{sorted(x.name for x in varying)}")
    if any(x in sp.diff(bound, y).free_symbols for x in varying for y in varying):
        raise ValueError(f"{claim_id}: its bound is not affine in {sorted(use.summed)}, so a sum of instances is not "
                         "an instance")
    fixed = bound.xreplace({x: 0 for x in varying})
    return use.copies * fixed + (bound - fixed)


#: the search budget of a use check (:func:`check_use`): a use is an identity or a comparison of two closed forms,
#: which the symbolic stage decides in every use encoded so far
USE_BUDGET = {"examples": 25, "polish": 25}


def check_use(step: Step, use: Use, claim) -> StepCheck:
    """Decide whether ``claim`` provides ``use`` in ``step``: :func:`use_step` decided by :func:`check_encoded` at
    :data:`USE_BUDGET` (proven, refuted with an exactly confirmed instance, or not refuted)."""
    return check_encoded(use_step(step, use, claim), **USE_BUDGET)


def check_encoded(step: Step, examples: int = 200, polish: int = 200) -> StepCheck:
    """Decide ``step`` as encoded: symbolic proof, else a deterministic falsification search of ``examples``
    hypothesis points and ``polish`` Nelder-Mead evaluations (module docstring); a refuting point is shrunk
    (:func:`shrink`)."""
    method = _symbolic(step)
    if method is not None:
        return StepCheck(step, PROVEN, f"sympy: {method}")
    obj = _Objective(step)
    _hypothesis_search(obj, examples)
    if obj.best:
        _polish(obj, polish)
    how = f"hypothesis (target, {examples} examples) + Nelder-Mead ({polish} evaluations)"
    if not obj.best:
        return StepCheck(step, NOT_REFUTED, how + ": no admissible point (the hypotheses exclude the whole box)",
                         obj.evaluations)
    v, x, sides, _ = obj.best[0]
    point = {str(s): val for s, val in zip(step.symbols, x)}
    if v > TOLERANCE and confirm(step, point) is not None:
        point = shrink(step, point)
        a, b = confirm(step, point)
        return StepCheck(step, REFUTED, how + "; violation confirmed exactly (50 digits), instance shrunk",
                         obj.evaluations, _violation(step.relation, a, b), point, (a, b))
    return StepCheck(step, NOT_REFUTED, how, obj.evaluations, v, point, sides)


__all__ = ["CORRECTED", "NOT_REFUTED", "Notation", "PRINTED", "PROVEN", "REFUTED", "Step", "StepCheck", "TOLERANCE",
           "USE_BUDGET", "Use", "check", "check_encoded", "check_use", "confirm", "shrink", "use_step"]
