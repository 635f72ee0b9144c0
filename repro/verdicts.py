"""One verdict per claim, computed from all of its evidence; never typed by hand.

Every piece of evidence a paper's audit gathers about a claim -- the per-run checks of an experiment, a Monte-Carlo
estimate, an adversarial search, a symbolic finding of ``bounds`` -- becomes one :class:`Evidence` with a
:class:`Bearing` on the claim. :func:`roll_up` turns a claim's evidence into one :class:`Verdict`:

* ``violated``      some evidence *violates* the claim (a run, an instance or a counterexample); the verdict cites
                    the violation with the largest observed/bound and how to replay it;
* ``not proven``    nothing violates it, but some evidence shows a *gap* (the proof does not establish the statement
                    as printed: statement vs proof, hypotheses, mode), or a claim its proof rests on is violated or
                    not proven;
* ``holds``         checked (runs or a symbolic proof) and never violated; the verdict says on how many checks;
* ``not checkable`` only evidence that cannot decide it (an almost-sure limit, a figure without data), or only
                    checks inside the numerical tolerance (*inconclusive* never counts as a pass);
* ``not run``       no evidence at all.

Assumptions, named: a violation outranks a gap, a gap outranks support; an inconclusive check (a violation within
the stated tolerance, a confidence interval that straddles the bound) supports nothing; dependencies are the
ones a paper's audit declares (a theorem on the lemmas its proof uses).
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from bounds.core import Mode


class Verdict(str, enum.Enum):
    HOLDS = "holds"
    VIOLATED = "violated"
    NOT_PROVEN = "not proven"
    NOT_CHECKABLE = "not checkable"
    NOT_RUN = "not run"


class Bearing(str, enum.Enum):
    """What one piece of evidence says about a claim."""

    SUPPORTS = "supports"              # checked, not violated
    VIOLATES = "violates"              # a reproducible instance violates it
    GAP = "gap"                        # the proof does not establish the statement as printed
    INCONCLUSIVE = "inconclusive"      # within the numerical tolerance, or a confidence interval straddles
    NOT_CHECKABLE = "not checkable"    # cannot decide it


@dataclass(frozen=True)
class Evidence:
    """One piece of evidence about one claim. ``summary`` is one computed line; ``checks`` the number of checks
    behind it (0 for a symbolic finding); ``worst`` the largest observed/bound where there is one; ``replay`` how to
    reproduce a violation (command and result hash or instance)."""

    claim: str
    source: str
    bearing: Bearing
    summary: str
    checks: int = 0
    worst: float | None = None
    replay: str = ""
    method: str = ""          # one of METHODS; empty: inferred from the source by :func:`method_of`


#: the ways the suite examines a claim (the columns of the report's coverage table)
METHODS = ("runs", "monte carlo", "adversarial", "exact probability", "certified worst case", "proof steps",
           "symbolic", "mode", "figures", "settings", "code")
#: a finding's kind -> the method that produced it
FINDING_METHOD = {"statement-vs-proof": "symbolic", "hypotheses": "symbolic", "mode": "mode",
                  "stated-rate": "symbolic", "instance": "adversarial", "experiment-settings": "settings",
                  "wording": "settings", "code": "code", "proof-step": "proof steps"}


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
class ClaimVerdict:
    claim: str
    verdict: Verdict
    reason: str                                   # one line: the evidence that decided it
    evidence: tuple[Evidence, ...] = ()
    depends_on: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return {"claim": self.claim, "verdict": self.verdict.value, "reason": self.reason,
                "depends_on": list(self.depends_on),
                "evidence": [e.__dict__ | {"bearing": e.bearing.value} for e in self.evidence]}


def _worst(items: Sequence[Evidence]) -> Evidence:
    return max(items, key=lambda e: -math.inf if e.worst is None or math.isnan(e.worst) else e.worst)


def _decide(evidence: Sequence[Evidence]) -> tuple[Verdict, str]:
    by = {b: [e for e in evidence if e.bearing is b] for b in Bearing}
    if by[Bearing.VIOLATES]:
        e = _worst(by[Bearing.VIOLATES])
        return Verdict.VIOLATED, f"{e.source}: {e.summary}" + (f" (replay: {e.replay})" if e.replay else "")
    if by[Bearing.GAP]:
        return Verdict.NOT_PROVEN, "; ".join(f"{e.source}: {e.summary}" for e in by[Bearing.GAP])
    if by[Bearing.SUPPORTS]:
        support = by[Bearing.SUPPORTS]
        runs = sum(e.checks for e in support)
        worst = [e.worst for e in support if e.worst is not None and not math.isnan(e.worst)]
        parts = [f"{runs} checks, none violated" if runs else "proven symbolically"]
        if worst:
            parts.append(f"worst observed/bound {max(worst):.4g}")
        if by[Bearing.INCONCLUSIVE]:
            parts.append(f"{sum(max(e.checks, 1) for e in by[Bearing.INCONCLUSIVE])} inconclusive")
        return Verdict.HOLDS, "; ".join(parts) + f" ({', '.join(sorted({e.source for e in support}))})"
    undecided = by[Bearing.NOT_CHECKABLE] + by[Bearing.INCONCLUSIVE]
    if undecided:
        return Verdict.NOT_CHECKABLE, "; ".join(f"{e.source}: {e.summary}" for e in undecided)
    return Verdict.NOT_RUN, "no evidence gathered"


def roll_up(claims: Iterable[str], evidence: Iterable[Evidence],
            depends_on: Mapping[str, Sequence[str]] | None = None) -> list[ClaimVerdict]:
    """One :class:`ClaimVerdict` per claim id, in the given order. A claim that holds but whose proof rests on a
    claim that is violated or not proven is ``not proven``, and says which."""
    claims, depends_on, evidence = list(claims), dict(depends_on or {}), list(evidence)
    unknown = sorted({e.claim for e in evidence} - set(claims))
    if unknown:
        raise ValueError(f"evidence for claims that are not encoded: {', '.join(unknown)}")
    decided: dict[str, ClaimVerdict] = {}
    for claim in _dependency_order(claims, depends_on):
        mine = tuple(e for e in evidence if e.claim == claim)
        verdict, reason = _decide(mine)
        weak = [d for d in depends_on.get(claim, ()) if d in decided
                and decided[d].verdict in (Verdict.VIOLATED, Verdict.NOT_PROVEN)]
        if weak and verdict is Verdict.HOLDS:
            verdict = Verdict.NOT_PROVEN
            reason = (f"its proof rests on {', '.join(f'{d} ({decided[d].verdict.value})' for d in weak)}; "
                      f"on its own: {reason}")
        elif weak:
            reason += f"; its proof rests on {', '.join(f'{d} ({decided[d].verdict.value})' for d in weak)}"
        decided[claim] = ClaimVerdict(claim, verdict, reason, mine, tuple(depends_on.get(claim, ())))
    return [decided[c] for c in claims]


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


def verdict_table(verdicts: Sequence[ClaimVerdict], locations: Mapping[str, str]) -> list[list[str]]:
    """Rows ``claim · where in the paper · verdict · why`` for :func:`repro.tables.markdown_table`."""
    return [[v.claim, locations.get(v.claim, ""), v.verdict.value, v.reason] for v in verdicts]


COUNTS_ORDER = tuple(Verdict)


def counts(verdicts: Sequence[ClaimVerdict]) -> dict[str, int]:
    """How many claims have each verdict (every verdict listed, in a fixed order)."""
    return {v.value: sum(x.verdict is v for x in verdicts) for v in COUNTS_ORDER}





#: how a symbolic finding of ``bounds`` (:class:`bounds.audit.Finding`) bears on the claims it names, by kind, when
#: its verdict is "discrepancy". A discrepancy between a statement and its proof, its hypotheses or its mode is a
#: gap; an instance that breaks the statement violates it; an experiment's settings say nothing about a claim's truth
#: (they bear on the figure that uses them), so they are not evidence about the claim.
DISCREPANCY_BEARING = {"statement-vs-proof": Bearing.GAP, "hypotheses": Bearing.GAP, "mode": Bearing.GAP,
                       "stated-rate": Bearing.GAP, "instance": Bearing.VIOLATES, "proof-step": Bearing.GAP}
#: kinds of finding that bear on no claim's truth, whatever their verdict: an experiment's settings (evidence about
#: the figure), the wording of a statement (a typo that changes no mathematics), and the authors' code against the
#: paper's reading ("code": whether a figure statement's outcome depends on the reading; "consistent" there means
#: that both readings decide it alike, not that it holds, and the statement's verdict comes from its own runs)
NOT_ABOUT_THE_CLAIM = frozenset({"experiment-settings", "wording", "code"})
FINDING_BEARING = {"consistent": Bearing.SUPPORTS, "not checkable": Bearing.NOT_CHECKABLE}


def from_findings(findings, claims: Iterable[str]) -> list[Evidence]:
    """One :class:`Evidence` per (finding, claim it names) for the claims in ``claims``; the finding's own verdict
    and kind decide the bearing (:data:`DISCREPANCY_BEARING`). An unknown kind or verdict is an error, not a guess."""
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
        out += [Evidence(c, f.id, bearing, f.summary, method=FINDING_METHOD.get(f.kind, "symbolic"))
                for c in f.claims if c in claims]
    return out


def from_checks(claim: str, source: str, *, checks: int, failed: int, inconclusive: int = 0,
                worst: float | None = None, replay: str = "", not_judged: int = 0) -> list[Evidence]:
    """The evidence of ``checks`` numerical checks of ``claim`` in ``source`` (an experiment): a violation if any
    failed, inconclusive ones apart, support from the rest. ``not_judged`` counts runs whose hypotheses did not hold
    (they bear on nothing)."""
    out = []
    if failed:
        out.append(Evidence(claim, source, Bearing.VIOLATES, f"{failed} of {checks} checks violated", checks,
                            worst, replay))
    if inconclusive:
        out.append(Evidence(claim, source, Bearing.INCONCLUSIVE,
                            f"{inconclusive} of {checks} checks within the tolerance", inconclusive, worst))
    passed = checks - failed - inconclusive - not_judged
    if passed > 0 and not failed:
        out.append(Evidence(claim, source, Bearing.SUPPORTS, f"{passed} checks, none violated", passed, worst))
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


__all__ = ["Verdict", "Bearing", "Evidence", "Statement", "METHODS", "FINDING_METHOD", "method_of", "ClaimVerdict", "roll_up", "from_findings", "from_checks", "from_modes", "UNDECIDABLE_MODES", "verdict_table", "counts"]
