"""One verdict per claim, computed from all of its evidence under every reading the paper admits; never typed by hand.

Every piece of evidence a paper's audit gathers about a claim -- the per-run checks of an experiment, a Monte-Carlo
estimate, an adversarial search, a symbolic finding of ``bounds`` -- becomes one :class:`Evidence` with a
:class:`Bearing` on the claim. Evidence may hold only under a *reading* of the paper (:class:`Axis`): a side of an
erratum (line 8 of an algorithm as printed, or the compact form the proofs use; a display as printed, or with its
typo corrected), the authors' public code against the paper, or one admissible value of a choice the paper leaves
open. ``Evidence.reading`` names the (axis, option) pairs it assumed; evidence without any holds under every reading.

:func:`roll_up` decides each claim under every combination of the options of the axes its evidence (and the evidence
of the claims its proof rests on) names, by :func:`_decide` on the evidence valid there:

* ``violated``      some evidence *violates* the claim (a run, an instance or a counterexample);
* ``not proven``    nothing violates it, but some evidence shows a *gap* (the proof does not establish the statement
                    as printed), or a claim its proof rests on is violated or not proven under the same reading;
* ``holds``         checked (runs or a symbolic proof) and never violated;
* ``not checkable`` only evidence that cannot decide it, or only checks inside the numerical tolerance;
* ``not run``       no evidence at all.

The claim's verdict then reads the table of readings (:func:`_conclude`). It is decided on the reading with every
erratum corrected -- the paper's meaning, where its own text gives the correction (a second place that says
otherwise, the form the next display uses) -- over every value of the open choices: ``holds`` when it holds there
and as printed; ``holds once corrected`` when it holds there but fails as printed (:attr:`ClaimVerdict.cause` names
the fewest errata to correct); ``depends on a choice`` when it holds for one admissible value of an open choice and
is violated for another; otherwise the verdict there (``violated`` -- "under every reading" when no reading escapes
it --, ``not proven``, ``not checkable``), with what the reading as printed gives beside it. Every failing piece of
evidence has a root cause (:func:`cause_of`): the erratum that explains it, else its own source (a finding, a refuted
step) or, for a violation, the claim itself; a claim that fails only through a claim it rests on names that claim's
causes.

Assumptions, named: a violation outranks a gap, a gap outranks support; an inconclusive check (a violation within
the stated tolerance, a confidence interval that straddles the bound) supports nothing; dependencies are the
ones a paper's audit declares (a theorem on the lemmas its proof uses); a correction rescues a claim from a violation
as printed only if the source of that violation was also checked under it (a reading with less evidence is no rescue).
"""
from __future__ import annotations

import enum
import functools
import itertools
import math
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

from bounds.core import Mode


class Verdict(str, enum.Enum):
    HOLDS = "holds"
    HOLDS_ONCE_CORRECTED = "holds once corrected"
    DEPENDS = "depends on a choice"
    VIOLATED = "violated"
    NOT_PROVEN = "not proven"
    NOT_CHECKABLE = "not checkable"
    NOT_RUN = "not run"


#: verdicts that put a claim among the paper's failures
FAILING = (Verdict.VIOLATED, Verdict.NOT_PROVEN)


class Bearing(str, enum.Enum):
    """What one piece of evidence says about a claim."""

    SUPPORTS = "supports"              # checked, not violated
    VIOLATES = "violates"              # a reproducible instance violates it
    GAP = "leaves unproven"            # the proof does not establish the statement as printed (not the erratum
                                       # kind "gap", which a false statement's evidence may also be)
    INCONCLUSIVE = "inconclusive"      # within the numerical tolerance, or a confidence interval straddles
    NOT_CHECKABLE = "not checkable"    # cannot decide it


Reading = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Evidence:
    """One piece of evidence about one claim. ``summary`` is one computed line; ``checks`` the number of checks
    behind it (0 for a symbolic finding); ``worst`` the claim's own largest observed/bound where there is one, with
    ``observed`` and ``bound`` the two sides there (never a search's internal score); ``replay`` how to reproduce a
    violation (command and result hash or instance); ``reading`` the (axis, option) pairs it assumed (empty: it holds
    under every reading); ``cause`` the erratum a violation or gap is an instance of (empty: found by
    :func:`cause_of`); ``lower`` whether ``bound`` is a lower bound on ``observed`` (None: as the claim's conclusion
    is; a producer comparing the two sides the other way round, such as a worst case of their negation, says so)."""

    claim: str
    source: str
    bearing: Bearing
    summary: str
    checks: int = 0
    worst: float | None = None
    replay: str = ""
    method: str = ""          # one of METHODS; empty: inferred from the source by :func:`method_of`
    observed: float | None = None
    bound: float | None = None
    reading: Reading = ()
    cause: str = ""
    lower: bool | None = None


#: the ways the suite examines a claim (the columns of the report's coverage table)
METHODS = ("runs", "monte carlo", "adversarial", "exact probability", "certified worst case", "proof steps",
           "symbolic", "mode", "figures", "settings", "code")
#: a finding's kind -> the method that produced it
FINDING_METHOD = {"statement-vs-proof": "symbolic", "hypotheses": "symbolic", "mode": "mode",
                  "stated-rate": "symbolic", "instance": "adversarial", "experiment-settings": "settings",
                  "wording": "settings", "code": "code", "proof-step": "proof steps", "application": "symbolic"}


def method_of(e: Evidence) -> str:
    """The method behind a piece of evidence: its ``method`` if set, else by the source's name -- an experiment or
    source named ``*adversarial*``/``*search*``, ``*montecarlo*``, ``*exact*``, ``*proof step*``, ``mode (...)``;
    otherwise per-run checks ("runs"). Assumption, named: audits name their sources this way (the coverage test
    checks every evidence of every paper maps to one of :data:`METHODS`)."""
    if e.method:
        return e.method
    source = e.source.lower()
    for needle, method in (("adversarial", "adversarial"), ("search", "adversarial"), ("montecarlo", "monte carlo"),
                           ("monte carlo", "monte carlo"), ("exact", "exact probability"),
                           ("proof step", "proof steps"), ("mode (", "mode")):
        if needle in source:
            return method
    return "runs"


@dataclass(frozen=True)
class Statement:
    """A statement a paper makes about its own figures or tables -- an ordering of methods, a trend, "feasible
    throughout", "around 4x" -- which gets a verdict like a numbered result. ``id`` reads ``<paper>.<figure>.<what>``;
    ``location`` is where the paper says it (section, figure or table); ``words`` the paper's exact words;
    ``experiment`` the experiment whose results test it. A paper's audit lists them in ``STATEMENTS``."""

    id: str
    location: str
    words: str
    experiment: str


@dataclass(frozen=True)
class Axis:
    """A way the paper can be read: ``options[0]`` is the reading as printed and the others are corrections (an
    erratum), or every option is an admissible value the paper leaves open (``choice``)."""

    id: str
    options: tuple[str, ...]
    choice: bool = False

    def __post_init__(self) -> None:
        if len(self.options) < 2 or len(set(self.options)) != len(self.options):
            raise ValueError(f"axis {self.id}: options {self.options} are not two or more distinct readings")


@dataclass(frozen=True)
class Readings:
    """What a paper's errata module declares for the roll-up: its reading axes, and which evidence sources are
    instances of which erratum (``explains``: source -> erratum id)."""

    axes: tuple[Axis, ...] = ()
    explains: Mapping[str, str] = field(default_factory=dict)

    def axis(self, axis_id: str) -> Axis:
        try:
            return next(a for a in self.axes if a.id == axis_id)
        except StopIteration:
            raise ValueError(f"reading axis {axis_id!r} is not declared") from None


@dataclass(frozen=True)
class ReadingVerdict:
    """The verdict of a claim under one reading (``reading``: axis -> option), with the reason and root causes."""

    reading: Mapping[str, str]
    verdict: Verdict
    reason: str
    causes: tuple[str, ...] = ()


@dataclass(frozen=True)
class ClaimVerdict:
    claim: str
    verdict: Verdict
    reason: str                                   # one line: the evidence that decided it
    evidence: tuple[Evidence, ...] = ()
    depends_on: tuple[str, ...] = ()
    cause: tuple[str, ...] = ()                   # the errata behind a failing verdict, or the ones corrected
    readings: tuple[ReadingVerdict, ...] = ()     # the table of readings (one row when no axis applies)
    decided_on: Mapping[str, str] = field(default_factory=dict)   # the errata readings its verdict was decided on

    def as_dict(self) -> dict:
        return {"claim": self.claim, "verdict": self.verdict.value, "reason": self.reason,
                "depends_on": list(self.depends_on), "cause": list(self.cause), "decided_on": dict(self.decided_on),
                "readings": [{"reading": dict(r.reading), "verdict": r.verdict.value, "reason": r.reason,
                              "causes": list(r.causes)} for r in self.readings],
                "evidence": [e.__dict__ | {"bearing": e.bearing.value, "reading": [list(p) for p in e.reading]}
                             for e in self.evidence]}


def _worst(items: Sequence[Evidence]) -> Evidence:
    return max(items, key=lambda e: -math.inf if e.worst is None or math.isnan(e.worst) else e.worst)


def lower_bound(claim) -> bool:
    """Whether a claim (:class:`bounds.core.Claim`) bounds its observed side from below: every relation of its
    conclusion is ``>=`` or ``>`` with the observed quantity on the left (PC-FedAvg's Proposition 4.8 (iii)). A
    conclusion mixing directions is not one (its checks are then named by their relation)."""
    return bool(claim.relations) and all(r.rel_op in (">=", ">") for r in claim.relations)


@functools.lru_cache(maxsize=None)
def _lower_bound(claim_id: str) -> bool:
    """:func:`lower_bound` of the claim ``claim_id`` (``"<paper>.<name>"``); False for an id no discovered paper
    encodes."""
    from . import registry
    key = claim_id.split(".", 1)[0]
    if key not in registry.papers():
        return False
    return any(lower_bound(c) for c in registry.paper(key).claims if c.id == claim_id)


def against(observed: str, bound: str, claim_id: str, lower: bool | None = None) -> str:
    """``observed a against bound b``, or ``against lower bound b`` where the bound is a lower bound (``lower``; None:
    where the claim bounds from below), so that "observed above the bound" reads as the claim holding."""
    lower = _lower_bound(claim_id) if lower is None else lower
    return f"observed {observed} against {'lower bound' if lower else 'bound'} {bound}"


def observed_text(e: Evidence) -> str:
    """``observed 5.382 against bound 4.956`` (and, where the bound is near zero, the excess, or for a lower bound how
    far above or below it) from the claim's own values, or the observed/bound ratio, or "" when the evidence carries
    neither."""
    if e.observed is not None and e.bound is not None and math.isfinite(e.observed) and math.isfinite(e.bound):
        lower = _lower_bound(e.claim) if e.lower is None else e.lower
        text = against(f"{e.observed:.4g}", f"{e.bound:.4g}", e.claim, lower)
        if abs(e.bound) < 1e-6 * max(1.0, abs(e.observed)):
            gap = e.observed - e.bound
            text += (f" ({'above' if gap >= 0 else 'below'} it by {abs(gap):.3g})" if lower
                     else f" (excess {gap:.3g})")
        return text
    if e.worst is not None and math.isfinite(e.worst):
        return f"observed/bound {e.worst:.4g}"
    return ""


def cause_of(e: Evidence, readings: Readings) -> str:
    """The root cause of a failing piece of evidence: its own ``cause``; else the erratum that ``explains`` its
    source; else the erratum whose printed side it was computed on; else its source (a finding, a refuted step) for a
    gap, and the claim itself (a false statement) for a violation."""
    if e.cause:
        return e.cause
    if e.source in readings.explains:
        return readings.explains[e.source]
    for axis_id, option in e.reading:
        axis = readings.axis(axis_id)
        if not axis.choice and option == axis.options[0]:
            return axis_id
    return e.claim if e.bearing is Bearing.VIOLATES else e.source


def _decide(evidence: Sequence[Evidence], readings: Readings) -> tuple[Verdict, str, tuple[str, ...]]:
    by = {b: [e for e in evidence if e.bearing is b] for b in Bearing}
    if by[Bearing.VIOLATES]:
        e = _worst(by[Bearing.VIOLATES])
        numbers = observed_text(e)
        causes = tuple(dict.fromkeys(cause_of(x, readings) for x in by[Bearing.VIOLATES]))
        return (Verdict.VIOLATED, f"{e.source}: {e.summary}" + (f"; {numbers}" if numbers and numbers not in
                e.summary else "") + (f" (replay: {e.replay})" if e.replay else ""), causes)
    if by[Bearing.GAP]:
        causes = tuple(dict.fromkeys(cause_of(x, readings) for x in by[Bearing.GAP]))
        return Verdict.NOT_PROVEN, "; ".join(f"{e.source}: {e.summary}" for e in by[Bearing.GAP]), causes
    if by[Bearing.SUPPORTS]:
        return Verdict.HOLDS, _support_reason(by[Bearing.SUPPORTS], by[Bearing.INCONCLUSIVE]), ()
    undecided = by[Bearing.NOT_CHECKABLE] + by[Bearing.INCONCLUSIVE]
    if undecided:
        return Verdict.NOT_CHECKABLE, "; ".join(f"{e.source}: {e.summary}" for e in undecided), ()
    return Verdict.NOT_RUN, "no evidence gathered", ()


def none_violated(checks: int) -> str:
    """"N checks, none violated", or "1 check, not violated"."""
    return "1 check, not violated" if checks == 1 else f"{checks} checks, none violated"


def _support_reason(support: Sequence[Evidence], inconclusive: Sequence[Evidence]) -> str:
    """``N checks, none violated; worst observed/bound x (observed a against bound b) (sources)``: the worst ratio
    is the claim's own, from the evidence that carries it."""
    runs = sum(e.checks for e in support)
    parts = [none_violated(runs) if runs else "proven symbolically"]
    rated = [e for e in support if e.worst is not None and not math.isnan(e.worst)]
    if rated:
        worst = _worst(rated)
        parts.append(f"worst observed/bound {worst.worst:.4g}" + (
            f" ({observed_text(worst)}, {worst.source})" if worst.observed is not None else ""))
    if inconclusive:
        parts.append(f"{sum(max(e.checks, 1) for e in inconclusive)} inconclusive")
    return "; ".join(parts) + f" ({', '.join(sorted({e.source for e in support}))})"


#: the most axes one claim's table of readings may span (2^8 readings)
MAX_AXES = 8
#: how far a verdict is from "holds", for choosing the best reading
RANK = {Verdict.HOLDS: 0, Verdict.DEPENDS: 1, Verdict.NOT_CHECKABLE: 2, Verdict.NOT_RUN: 3, Verdict.NOT_PROVEN: 4,
        Verdict.VIOLATED: 5}


def roll_up(claims: Iterable[str], evidence: Iterable[Evidence],
            depends_on: Mapping[str, Sequence[str]] | None = None,
            readings: Readings | None = None) -> list[ClaimVerdict]:
    """One :class:`ClaimVerdict` per claim id, in the given order, decided under every reading its evidence names
    (module docstring). A claim that holds under a reading but whose proof rests on a claim that is violated or not
    proven under the same reading is ``not proven`` there, and says which."""
    claims, depends_on, evidence = list(claims), dict(depends_on or {}), list(evidence)
    readings = readings or Readings()
    unknown = sorted({e.claim for e in evidence} - set(claims))
    if unknown:
        raise ValueError(f"evidence for claims that are not encoded: {', '.join(unknown)}")
    _check_readings(evidence, readings)
    axes_of: dict[str, tuple[str, ...]] = {}
    tables: dict[str, dict[tuple, ReadingVerdict]] = {}
    decided: dict[str, ClaimVerdict] = {}
    for claim in _dependency_order(claims, depends_on):
        mine = tuple(e for e in evidence if e.claim == claim)
        deps = tuple(d for d in depends_on.get(claim, ()) if d in claims)
        axes = tuple(sorted({a for e in mine for a, _ in e.reading} | {a for d in deps for a in axes_of[d]}))
        if len(axes) > MAX_AXES:
            raise ValueError(f"claim {claim}: its readings span {len(axes)} axes (at most {MAX_AXES})")
        axes_of[claim] = axes
        tables[claim] = {}
        for options in itertools.product(*(readings.axis(a).options for a in axes)):
            reading = dict(zip(axes, options))
            valid = [e for e in mine if all(reading[a] == o for a, o in e.reading)]
            row = ReadingVerdict(reading, *_decide(valid, readings))
            tables[claim][options] = _weaken(row, deps, tables, axes_of)
        decided[claim] = _conclude(claim, mine, deps, axes, tables[claim], readings)
    return [decided[c] for c in claims]


def _check_readings(evidence: Sequence[Evidence], readings: Readings) -> None:
    for e in evidence:
        for axis_id, option in e.reading:
            if option not in readings.axis(axis_id).options:
                raise ValueError(f"evidence {e.source} of {e.claim}: reading {axis_id} = {option!r} is not one of "
                                 f"{readings.axis(axis_id).options}")


def _weaken(row: ReadingVerdict, deps: Sequence[str], tables: dict, axes_of: dict) -> ReadingVerdict:
    """``row`` with the claims its proof rests on (under the same reading): a claim that holds on its own but rests
    on a violated or unproven one is not proven, and names their causes."""
    weak = [(d, tables[d][tuple(row.reading[a] for a in axes_of[d])]) for d in deps]
    weak = [(d, r) for d, r in weak if r.verdict in FAILING]
    if not weak:
        return row
    text = ", ".join(f"{d} ({r.verdict.value})" for d, r in weak)
    inherited = tuple(c for _, r in weak for c in r.causes)
    if row.verdict is Verdict.HOLDS:
        return ReadingVerdict(row.reading, Verdict.NOT_PROVEN, f"its proof rests on {text}; on its own: {row.reason}",
                              tuple(dict.fromkeys(inherited)))
    causes = row.causes + inherited if row.verdict is Verdict.NOT_PROVEN else row.causes
    return ReadingVerdict(row.reading, row.verdict, f"{row.reason}; its proof rests on {text}",
                          tuple(dict.fromkeys(causes)))


def _aggregate(rows: Sequence[ReadingVerdict]) -> Verdict:
    """One verdict over the values of the open choices (same errata readings): the common verdict; ``depends on a
    choice`` when one value holds and another is violated; otherwise the least committal of them."""
    found = {r.verdict for r in rows}
    if len(found) == 1:
        return found.pop()
    if {Verdict.HOLDS, Verdict.VIOLATED} <= found:
        return Verdict.DEPENDS
    if found & {Verdict.NOT_CHECKABLE, Verdict.NOT_RUN}:
        return Verdict.NOT_CHECKABLE
    return Verdict.NOT_PROVEN


def reading_label(reading: Mapping[str, str]) -> str:
    """``axis = option; ...`` ("as printed" for the empty reading)."""
    return "; ".join(f"{a} = {o}" for a, o in reading.items()) or "as printed"


def _conclude(claim: str, evidence: tuple, deps: tuple, axes: tuple, table: dict,
              readings: Readings) -> ClaimVerdict:
    """The claim's verdict from its table of readings (module docstring): decided on the reading with every erratum
    corrected (the paper's meaning where two of its places disagree or a display has a typo), over every value of the
    open choices; the reading as printed says whether that took a correction."""
    rows = tuple(table.values())
    errata = [a for a in axes if not readings.axis(a).choice]
    groups: dict[tuple, list[ReadingVerdict]] = {}
    for row in rows:
        groups.setdefault(tuple(row.reading[a] for a in errata), []).append(row)
    printed = tuple(readings.axis(a).options[0] for a in errata)
    full = tuple(readings.axis(a).options[1] for a in errata)
    verdicts = {key: _aggregate(group) for key, group in groups.items()}
    verdict = verdicts[full]
    if _unchecked_rescue(verdict, groups[full], evidence) or (
            verdict is Verdict.NOT_RUN and any(v is not Verdict.NOT_RUN for v in verdicts.values())):
        verdict = Verdict.NOT_CHECKABLE     # what fails as printed was not checked once corrected, or nothing was

    def make(v, reason, cause):
        return ClaimVerdict(claim, v, reason, evidence, deps, tuple(dict.fromkeys(cause)), rows, dict(zip(errata, full)))
    if verdict is Verdict.HOLDS and verdicts[printed] not in FAILING:
        reason = _joined(groups[printed]) if len(groups) == 1 else "holds" + (
            " under every reading" if verdicts[printed] is Verdict.HOLDS else "") + ": " + " | ".join(
            f"[{reading_label(dict(zip(errata, key)))}] {verdicts[key].value}: {_joined(group)}" for key, group in groups.items())
        return make(Verdict.HOLDS, reason, ())
    if verdict is Verdict.HOLDS:
        needed = _needed(errata, groups, verdicts, printed, full)
        return make(Verdict.HOLDS_ONCE_CORRECTED,
                    f"holds once {', '.join(needed)} is corrected ({reading_label(dict(zip(errata, full)))}): "
                    f"{_joined(groups[full])}; as printed: {_joined(groups[printed])}", needed)
    if verdict is Verdict.DEPENDS:
        return make(verdict, _joined(groups[full]), [a for a in axes if readings.axis(a).choice
                                                     and decides(a, groups[full])])
    reason = _joined(groups[full])
    if full != printed:
        reason = f"[{reading_label(dict(zip(errata, full)))}] {reason}; as printed: {_joined(groups[printed])}"
    if verdict is Verdict.VIOLATED and len(rows) > 1 and all(v is Verdict.VIOLATED for v in verdicts.values()):
        reason = "violated under every reading: " + reason
    return make(verdict, reason, [c for r in groups[full] for c in r.causes] if verdict in FAILING else ())


def decides(axis_id: str, rows: Sequence[ReadingVerdict]) -> bool:
    """Whether two of ``rows`` that differ only in ``axis_id`` give different verdicts."""
    seen: dict[tuple, set] = {}
    for r in rows:
        rest = tuple(sorted((a, o) for a, o in r.reading.items() if a != axis_id))
        seen.setdefault(rest, set()).add(r.verdict)
    return any(len(v) > 1 for v in seen.values())


def _needed(errata: list, groups: Mapping, verdicts: Mapping, printed: tuple, full: tuple) -> tuple:
    """The fewest errata whose correction alone (the others as printed) makes the claim hold; all of those that
    differ when no smaller set does."""
    for size in range(1, len(errata) + 1):
        for chosen in itertools.combinations(range(len(errata)), size):
            key = tuple(full[i] if i in chosen else printed[i] for i in range(len(errata)))
            if key in groups and verdicts[key] is Verdict.HOLDS:
                return tuple(errata[i] for i in chosen)
    return tuple(a for a, o, p in zip(errata, full, printed) if o != p)


def _unchecked_rescue(verdict: Verdict, rows: Sequence[ReadingVerdict], evidence: Sequence[Evidence]) -> bool:
    """Whether a group of readings looks better than "not checkable" only because some source that violates the
    claim under another reading was not checked under one of these (a reading with less evidence rescues nothing)."""
    if RANK[verdict] >= RANK[Verdict.NOT_CHECKABLE]:
        return False
    violating = {e.source for e in evidence if e.bearing is Bearing.VIOLATES}
    return any(violating - {e.source for e in evidence if all(row.reading.get(a) == o for a, o in e.reading)}
               for row in rows)


def _joined(rows: Sequence[ReadingVerdict]) -> str:
    """The reason of one reading, or ``X = a: reason | X = b: reason`` over the values of open choices."""
    if len(rows) == 1:
        return rows[0].reason
    return " | ".join(f"[{reading_label(r.reading)}] {r.verdict.value}: {r.reason}" for r in rows)


def _dependency_order(claims: list[str], depends_on: Mapping[str, Sequence[str]]) -> list[str]:
    """Claims with their dependencies first (a dependency cycle is an error)."""
    out: list[str] = []
    state: dict[str, int] = {}

    def visit(c: str, path: tuple) -> None:
        if state.get(c) == 2:
            return
        if state.get(c) == 1:
            raise ValueError(f"dependency cycle among claims: {' -> '.join(path + (c,))}")
        state[c] = 1
        for d in depends_on.get(c, ()):
            if d in claims:
                visit(d, path + (c,))
        state[c] = 2
        out.append(c)

    for c in claims:
        visit(c, ())
    return out


#: the length of a "why" in a summary table (characters, about two lines of a page): the full reason is in the
#: claim's own section of the page
BRIEF_WHY = 280
#: a ratio with its value and the observed value with its bound, which a cut never separates
_OBSERVED_PAIR = re.compile(r"(?:worst )?observed/bound \S+(?: \(observed \S+ against (?:lower )?bound \S+)?"
                            r"|observed \S+ against (?:lower )?bound \S+")


def brief_reason(reason: str, width: int = BRIEF_WHY) -> tuple[str, bool]:
    """``reason`` cut at a word boundary to about ``width`` characters, never between an observed value and its
    bound nor inside a code span, with " ..." where it was cut; and whether it was cut."""
    if len(reason) <= width:
        return reason, False
    end = len(reason[:width].rsplit(" ", 1)[0])
    end = max([end] + [m.end() for m in _OBSERVED_PAIR.finditer(reason) if m.start() < end < m.end()])
    if reason[:end].count("`") % 2:
        end = reason.index("`", end) + 1
    return reason[:end].rstrip(" ;,|(") + " ...", True


def verdict_table(verdicts: Sequence[ClaimVerdict], locations: Mapping[str, str],
                  more: Callable[[str], str] | None = None) -> list[list[str]]:
    """Rows ``claim · where in the paper · verdict · why`` for :func:`repro.tables.markdown_table`. With ``more``
    (claim id -> link target of its full reason), each "why" is brief (:func:`brief_reason`) and a cut one links
    there."""
    def why(v: ClaimVerdict) -> str:
        if more is None:
            return v.reason
        text, cut = brief_reason(v.reason)
        return f"{text} [more]({more(v.claim)})" if cut else text
    return [[v.claim, locations.get(v.claim, ""), v.verdict.value, why(v)] for v in verdicts]


COUNTS_ORDER = tuple(Verdict)


def counts(verdicts: Sequence[ClaimVerdict]) -> dict[str, int]:
    """How many claims have each verdict (every verdict listed, in a fixed order)."""
    return {v.value: sum(x.verdict is v for x in verdicts) for v in COUNTS_ORDER}





#: how a symbolic finding of ``bounds`` (:class:`bounds.audit.Finding`) bears on the claims it names, by kind, when
#: its verdict is "discrepancy". A discrepancy between a statement and its proof, its hypotheses or its mode is a
#: gap; an instance that breaks the statement violates it, and so does an application that does not meet the
#: hypotheses a statement of the paper says it meets ("application": the finding names that statement, never the
#: general result); an experiment's settings say nothing about a claim's truth (they bear on the figure that uses
#: them), so they are not evidence about the claim.
DISCREPANCY_BEARING = {"statement-vs-proof": Bearing.GAP, "hypotheses": Bearing.GAP, "mode": Bearing.GAP,
                       "stated-rate": Bearing.GAP, "instance": Bearing.VIOLATES, "proof-step": Bearing.GAP,
                       "application": Bearing.VIOLATES}
#: kinds of finding that bear on no claim's truth, whatever their verdict: an experiment's settings (evidence about
#: the figure), the wording of a statement (a typo that changes no mathematics), and the authors' code against the
#: paper's reading ("code": whether a figure statement's outcome depends on the reading; "consistent" there means
#: that both readings decide it alike, not that it holds, and the statement's verdict comes from its own runs)
NOT_ABOUT_THE_CLAIM = frozenset({"experiment-settings", "wording", "code"})
FINDING_BEARING = {"consistent": Bearing.SUPPORTS, "not checkable": Bearing.NOT_CHECKABLE}


def from_findings(findings, claims: Iterable[str]) -> list[Evidence]:
    """One :class:`Evidence` per (finding, claim it names) for the claims in ``claims``; the finding's own verdict
    and kind decide the bearing (:data:`DISCREPANCY_BEARING`); a violation's replay re-runs the finding's own
    computation. An unknown kind or verdict is an error, not a guess."""
    claims = set(claims)
    out = []
    for f in findings:
        if f.kind in NOT_ABOUT_THE_CLAIM:
            continue
        if f.verdict == "discrepancy":
            if f.kind not in DISCREPANCY_BEARING:
                raise ValueError(f"finding {f.id}: kind {f.kind!r} has no bearing rule (one of "
                                 f"{', '.join(DISCREPANCY_BEARING)})")
            bearing = DISCREPANCY_BEARING[f.kind]
        elif f.verdict in FINDING_BEARING:
            bearing = FINDING_BEARING[f.verdict]
        else:
            raise ValueError(f"finding {f.id}: verdict {f.verdict!r} is not one of consistent, discrepancy, "
                             "not checkable")
        out += [Evidence(c, f.id, bearing, f.summary, method=FINDING_METHOD.get(f.kind, "symbolic"),
                         reading=tuple(getattr(f, "reading", ())), cause=f.id if bearing is Bearing.VIOLATES else "",
                         replay=f"python -m repro findings --id {f.id}" if bearing is Bearing.VIOLATES else "")
                for c in f.claims if c in claims]
    return out


def from_checks(claim: str, source: str, *, checks: int, failed: int, inconclusive: int = 0,
                worst: float | None = None, replay: str = "", not_judged: int = 0, observed: float | None = None,
                bound: float | None = None, reading: Reading = ()) -> list[Evidence]:
    """The evidence of ``checks`` numerical checks of ``claim`` in ``source`` (an experiment): a violation if any
    failed, inconclusive ones apart, support from the rest. ``not_judged`` counts runs whose hypotheses did not hold
    (they bear on nothing); ``worst`` is the largest observed/bound, ``observed`` and ``bound`` its two sides;
    ``reading`` the reading the runs were computed under."""
    out = []
    numbers = {"observed": observed, "bound": bound, "reading": tuple(reading)}
    if failed:
        out.append(Evidence(claim, source, Bearing.VIOLATES,
                            f"{failed} of {checks} checks violated" if checks > 1 else "its one check violated", checks,
                            worst, replay, **numbers))
    if inconclusive:
        out.append(Evidence(claim, source, Bearing.INCONCLUSIVE,
                            f"{inconclusive} of {checks} checks within the tolerance", inconclusive, worst, **numbers))
    passed = checks - failed - inconclusive - not_judged
    if passed > 0 and not failed:
        out.append(Evidence(claim, source, Bearing.SUPPORTS, none_violated(passed), passed, worst, **numbers))
    return out

#: why no finite run can decide a claim stated in these modes
UNDECIDABLE_MODES = {
    Mode.ORDER: "an order (O(.)) statement: no finite run decides it (its constants and limit are not fixed)",
    Mode.ALMOST_SURE_LIMIT: "an almost-sure limit: no finite run confirms or refutes it",
}


def from_modes(claims, decided: Iterable[str] = ()) -> list[Evidence]:
    """``not checkable`` evidence, computed from the mode, for every claim whose mode no finite run can decide
    (:data:`UNDECIDABLE_MODES`) and that is not in ``decided`` (claims a symbolic check already decides)."""
    decided = set(decided)
    return [Evidence(c.id, f"mode ({c.mode.value})", Bearing.NOT_CHECKABLE, UNDECIDABLE_MODES[c.mode])
            for c in claims if c.mode in UNDECIDABLE_MODES and c.id not in decided]


__all__ = ["Axis", "Bearing", "ClaimVerdict", "Evidence", "FAILING", "FINDING_METHOD", "METHODS", "ReadingVerdict",
           "Readings", "Statement", "UNDECIDABLE_MODES", "Verdict", "cause_of", "counts", "from_checks", "from_findings",
           "against", "from_modes", "lower_bound", "method_of", "observed_text", "roll_up", "verdict_table"]
