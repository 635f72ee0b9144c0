"""Errata: one root cause, reported once, with its kind and its consequences computed.

A paper's ``errata`` module declares what the suite's encoding knows about the paper's text (data typed from the
paper, like its claims): each :class:`Erratum` -- where it is (the paper's own numbering), what is printed (a quote),
one plain sentence, the correction the paper itself admits (a second place that says otherwise, or the display the
next step uses) and the evidence sources it explains -- and each :class:`Choice` the paper leaves open, with its
admissible values. A correction and a choice are reading axes (:class:`repro.verdicts.Axis`): the audit computes the
evidence under each of their options, and :func:`repro.verdicts.roll_up` decides every claim under every reading.

:func:`paper_errata` then lists the errata of a paper: the declared ones that computation confirms, and one for
every other root cause a claim's final verdict names (a refuted step or a finding: its source; a claim violated
under every reading: the claim; a violation under one value of an open choice is the choice's). Each gets its :class:`Kind` from computed :class:`Facts` (:func:`decide_kind`), never typed:

* ``false statement``  a claim it breaks is violated under every admissible reading;
* ``inconsistency``    two places of the paper (or the paper and the authors' code) disagree, and computation shows
                       it (a violation, a gap or a discrepancy under one of them);
* ``typo``             the printed form fails, the corrected form is implied, and the next display follows from it;
* ``gap``              something fails as printed (a step, a proof's constant, its mode), the statement survives;
* ``unstated choice``  a verdict differs between two admissible values of a choice the paper does not state.

Its consequences are computed from the claims' tables of readings: the claims that fail as printed through it
(directly or through a claim their proof rests on), those that hold once it is corrected, those that depend on it.

A module may also give ``GISTS``: erratum id -> its point in at most :data:`GIST_WORDS` words, which the summary
card shows instead of the first words of the sentence (where the point of a long sentence comes last).

Assumptions, named: a correction is admissible only with the paper's own support (a second place, or the next
display), so a statement that fails as printed and has neither is a false statement; an erratum whose printed side
fails nowhere is not reported (computation did not confirm it); kinds are ordered by severity (false statements
first) and, within a kind, by the paper's order of its claims.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Mapping, Sequence

from bounds.steps import CORRECTED, PRINTED

from .verdicts import (FAILING, RANK, Axis, Bearing, ClaimVerdict, Readings, Verdict, cause_of, decides,
                       observed_text)


class Kind(str, enum.Enum):
    FALSE_STATEMENT = "false statement"
    GAP = "gap"
    INCONSISTENCY = "inconsistency"
    UNSTATED_CHOICE = "unstated choice"
    TYPO = "typo"

    def counted(self, n: int) -> str:
        """``n`` errata of this kind in words: "1 gap", "2 gaps", "2 inconsistencies"."""
        plural = self.value[:-1] + "ies" if self.value.endswith("y") else self.value + "s"
        return f"{n} {self.value if n == 1 else plural}"




@dataclass(frozen=True)
class Erratum:
    """One root cause the encoding knows from the paper's text: where, what is printed, one plain sentence, the
    ``correction`` the paper admits (words), a second place (or the authors' code) that says otherwise, and the
    evidence sources and finding ids that are instances of it (``explains``). With ``options`` (the reading as
    printed first, e.g. ``("as printed", "corrected")``) it is a reading axis: the audit computes evidence under
    each, and the claims are decided under each; ``both_admissible`` when the paper prefers neither reading (the
    paper against the authors' code), so that a claim holding under one and failing under the other depends on it."""

    id: str
    where: str
    printed: str
    sentence: str
    correction: str = ""
    other_place: str = ""
    explains: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    both_admissible: bool = False

    def __post_init__(self) -> None:
        if self.options and not self.correction:
            raise ValueError(f"erratum {self.id}: a reading axis needs the correction it reads")

    @property
    def axis(self) -> Axis | None:
        return Axis(self.id, self.options, choice=self.both_admissible) if self.options else None


@dataclass(frozen=True)
class Choice:
    """A value the paper leaves open (``words``: what it says, quoted, at ``where``); ``options`` its admissible
    values, each admissible for the reason ``why`` gives."""

    id: str
    where: str
    words: str
    sentence: str
    options: tuple[str, ...]
    why: str

    @property
    def axis(self) -> Axis:
        return Axis(self.id, self.options, choice=True)


def readings(module: ModuleType | None) -> Readings:
    """The reading axes and the ``explains`` map of a paper's errata module (none without one)."""
    if module is None:
        return Readings()
    errata, choices = tuple(getattr(module, "ERRATA", ())), tuple(getattr(module, "CHOICES", ()))
    explains: dict[str, str] = {}
    for e in errata:
        for source in e.explains:
            if explains.setdefault(source, e.id) != e.id:
                raise ValueError(f"{source} is explained by two errata: {explains[source]} and {e.id}")
    axes = tuple(e.axis for e in errata if e.axis) + tuple(c.axis for c in choices)
    ids = [a.id for a in axes]
    if len(set(ids)) != len(ids):
        raise ValueError(f"reading axes declared twice: {sorted({i for i in ids if ids.count(i) > 1})}")
    return Readings(axes, explains)


@dataclass(frozen=True)
class Facts:
    """What computation found about one erratum (:func:`decide_kind` reads only these)."""

    printed_fails: bool        # an instance of it: a violation, a gap, or a discrepancy between the places
    statement_fails: bool      # one of its instances violates a claim (not only a proof)
    fails_everywhere: bool     # a claim it breaks is violated under every reading
    rescued: bool              # under its correction nothing of it fails, and the correction was checked
    places_differ: bool        # it names a second place (or code), and one of them fails
    chain_repaired: bool       # a corrected display is implied and the next display follows from it
    choice: bool = False       # an open choice
    choice_matters: bool = False   # a verdict differs between two of its values


def decide_kind(f: Facts) -> Kind | None:
    """The kind of an erratum from its facts (module docstring); None when computation does not confirm it."""
    if f.choice:
        return Kind.UNSTATED_CHOICE if f.choice_matters else None
    if f.fails_everywhere:
        return Kind.FALSE_STATEMENT
    if not f.printed_fails:
        return None
    if f.places_differ:
        return Kind.INCONSISTENCY
    if f.rescued and f.chain_repaired:
        return Kind.TYPO
    return Kind.FALSE_STATEMENT if f.statement_fails else Kind.GAP


#: the most words of an erratum's gist (``GISTS``)
GIST_WORDS = 14


@dataclass(frozen=True)
class Report:
    """One erratum of a paper, as computed: its kind and facts, the declaration's text (or, for a root cause no
    declaration names, the failing finding's or claim's), its instances and consequences, how to replay it, and its
    ``gist`` where the paper's module gives one."""

    id: str
    kind: Kind
    where: str
    printed: str
    sentence: str
    correction: str
    other_place: str
    facts: Facts
    instances: tuple[str, ...]
    fails_as_printed: tuple[str, ...]
    holds_once_corrected: tuple[str, ...] = ()
    depends: tuple[str, ...] = ()
    found_in: tuple[str, ...] = ()
    replay: str = ""
    declared: bool = False
    numbers: str = ""
    gist: str = ""

    def as_dict(self) -> dict:
        return {k: (v.value if isinstance(v, Kind) else v.__dict__ if isinstance(v, Facts) else
                    list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


@dataclass
class _Collected:
    """Everything the verdicts and findings say about one root cause."""

    instances: list = field(default_factory=list)          # (claim, evidence) failing with this cause
    findings: list = field(default_factory=list)           # discrepancy findings it explains
    fails_as_printed: dict = field(default_factory=dict)   # claim -> None (ordered set): claims it makes fail


def paper_errata(verdicts: Sequence[ClaimVerdict], findings: Sequence, module: ModuleType | None,
                 claims: Mapping[str, tuple[str, str]], chains: Mapping[str, bool] | None = None) -> list[Report]:
    """The errata of one paper, sorted by kind (false statements first), then by the first claim they affect.
    ``claims``: claim id -> (where, what it says) for the root causes no declaration names; ``chains``: erratum id
    -> whether its corrected display is implied and the next display follows from it (:func:`repro.proof_audit.
    chain_facts`)."""
    declared = {e.id: e for e in getattr(module, "ERRATA", ())} | {c.id: c for c in getattr(module, "CHOICES", ())}
    axes = readings(module)
    collected = _collect(verdicts, findings, axes)
    order = {v.claim: i for i, v in enumerate(verdicts)}
    by_id = {v.claim: v for v in verdicts}
    final = {c for v in verdicts for c in v.cause}
    gists = getattr(module, "GISTS", {})
    reports = []
    for cause in list(declared) + [c for c in collected if c not in declared and c in final]:
        got = collected.get(cause, _Collected())
        decl = declared.get(cause)
        both = isinstance(decl, Choice) or getattr(decl, "both_admissible", False)
        changed = tuple(c for c, v in by_id.items() if both and decides(cause, v.readings))
        facts = _facts(cause, decl, got, by_id, (chains or {}).get(cause, False), changed)
        kind = decide_kind(facts)
        if kind is None:
            continue
        report = _report(cause, kind, facts, decl, got, by_id, findings, claims, changed)
        reports.append(replace(report, gist=gists.get(cause, "")))
    return sorted(reports, key=lambda r: (list(Kind).index(r.kind), min(
        (order.get(c, len(order)) for c in r.fails_as_printed + r.holds_once_corrected + r.depends),
        default=len(order)), r.id))


def _collect(verdicts: Sequence[ClaimVerdict], findings: Sequence, axes: Readings) -> dict[str, _Collected]:
    out: dict[str, _Collected] = {}
    for v in verdicts:
        for e in v.evidence:
            if e.bearing in (Bearing.VIOLATES, Bearing.GAP) and _instance_of(cause := cause_of(e, axes), e, v, axes):
                out.setdefault(cause, _Collected()).instances.append((v.claim, e))
        for cause in _printed_causes(v, axes):
            out.setdefault(cause, _Collected()).fails_as_printed[v.claim] = None
    for f in findings:
        if f.verdict == "discrepancy" and f.id in axes.explains:
            out.setdefault(axes.explains[f.id], _Collected()).findings.append(f)
    return out


def _instance_of(cause: str, e, v: ClaimVerdict, axes: Readings) -> bool:
    """Whether ``e`` is an instance of ``cause``: always, unless it was attributed to an erratum only by being
    computed on its printed side (no declaration or audit names it) while the same source fails the claim the same
    way once the erratum is corrected (then the erratum is not why it fails)."""
    if e.cause or e.source in axes.explains or cause not in {a.id for a in axes.axes}:
        return True
    printed = axes.axis(cause).options[0]
    return not any(x.source == e.source and x.bearing is e.bearing and dict(x.reading).get(cause, printed) != printed
                   for x in v.evidence)


def _printed_causes(v: ClaimVerdict, axes: Readings) -> list[str]:
    """The root causes through which ``v`` fails: those of its final verdict, and each erratum whose correction
    improves its verdict (:func:`_worse_as_printed`)."""
    final = list(v.cause) if v.verdict in FAILING or v.verdict is Verdict.HOLDS_ONCE_CORRECTED else []
    corrections = [a.id for a in axes.axes if not a.choice and _worse_as_printed(v, a)]
    return list(dict.fromkeys(final + corrections))


def _worse_as_printed(v: ClaimVerdict, axis: Axis) -> bool:
    """Whether ``v``'s verdict, in the reading it was decided on with every value of the open choices, is worse with
    ``axis`` as printed than with its correction."""
    if axis.id not in v.decided_on:
        return False
    context = {a: o for a, o in v.decided_on.items() if a != axis.id}

    def rank(option: str) -> int:
        rows = [r for r in v.readings if r.reading.get(axis.id) == option
                and all(r.reading.get(a) == o for a, o in context.items())]
        return max(RANK[r.verdict] for r in rows) if rows else -1
    corrected = [rank(o) for o in axis.options[1:] if rank(o) >= 0]
    return bool(corrected) and rank(axis.options[0]) > min(corrected)


def _facts(cause: str, decl, got: _Collected, by_id: Mapping[str, ClaimVerdict], chain: bool,
           changed: tuple[str, ...]) -> Facts:
    """``changed``: the claims whose verdict differs between two readings that differ only in ``cause``'s value."""
    if isinstance(decl, Choice):
        return Facts(False, False, False, False, False, False, choice=True, choice_matters=bool(changed))
    broken = {claim for claim, e in got.instances if e.bearing is Bearing.VIOLATES}
    axis = decl.axis if isinstance(decl, Erratum) else None
    printed_fails = bool(got.instances or got.findings)
    return Facts(
        printed_fails=printed_fails,
        statement_fails=bool(broken),
        fails_everywhere=any(by_id[c].verdict is Verdict.VIOLATED and cause in by_id[c].cause for c in broken),
        rescued=axis is not None and _rescued(axis, got, by_id),
        places_differ=bool(getattr(decl, "other_place", "")) and printed_fails,
        chain_repaired=chain)


def _rescued(axis: Axis, got: _Collected, by_id: Mapping[str, ClaimVerdict]) -> bool:
    """Under the correction, none of the claims it breaks fails through it, and each was checked there."""
    claims = {claim for claim, _ in got.instances}
    for claim in claims:
        v = by_id[claim]
        corrected = [r for r in v.readings if r.reading.get(axis.id, axis.options[0]) != axis.options[0]]
        checked = any(dict(e.reading).get(axis.id) not in (None, axis.options[0]) for e in v.evidence)
        if not corrected or not checked or any(axis.id in r.causes for r in corrected):
            return False
    return True


def _report(cause: str, kind: Kind, facts: Facts, decl, got: _Collected, by_id: Mapping[str, ClaimVerdict],
            findings: Sequence, claims: Mapping[str, tuple[str, str]], depends: tuple[str, ...]) -> Report:
    fails = tuple(got.fails_as_printed)
    once = tuple(c for c, v in by_id.items() if v.verdict is Verdict.HOLDS_ONCE_CORRECTED and cause in v.cause)
    found_in = tuple(dict.fromkeys(claim for claim, _ in got.instances))
    worst = _worst_instance(got)
    replay = worst.replay if worst is not None and worst.replay else next(
        (f"python -m repro findings --id {f.id}" for f in got.findings), "")
    if not replay and worst is not None and worst.source in {f.id for f in findings}:
        replay = f"python -m repro findings --id {worst.source}"
    replay = replay or _reading_replay(cause, depends, by_id, {f.id for f in findings})
    numbers = observed_text(worst) if worst is not None else ""
    instances = tuple(dict.fromkeys([e.source for _, e in got.instances] + [f.id for f in got.findings]))
    if decl is not None:
        words = decl.words if isinstance(decl, Choice) else decl.printed
        return Report(cause, kind, decl.where, words, decl.sentence, getattr(decl, "correction", ""),
                      getattr(decl, "other_place", ""), facts, instances, fails, once, depends, found_in, replay,
                      True, numbers)
    where, printed, sentence = _undeclared_text(cause, worst, findings, claims)
    return Report(cause, kind, where, printed, sentence, "", "", facts, instances, fails, once, depends, found_in,
                  replay, False, numbers)


def _reading_replay(axis_id: str, claims: Sequence[str], by_id: Mapping[str, ClaimVerdict], finding_ids) -> str:
    """For a reading with no failing instance of its own (an open choice, two readings both admissible): the command
    that recomputes the evidence its readings decide, its own replay where it has one."""
    evidence = [e for c in claims for e in by_id[c].evidence if axis_id in dict(e.reading)]
    own = next((e.replay for e in evidence if e.replay), "")
    runs = next((e.source for e in evidence if " " not in e.source and e.source not in finding_ids), "")
    return own or (f"python -m repro run {runs}" if runs else "")


def _worst_instance(got: _Collected):
    """The instance to cite: the worst violation, else the first gap."""
    violations = [e for _, e in got.instances if e.bearing is Bearing.VIOLATES]
    if violations:
        return max(violations, key=lambda e: -1.0 if e.worst is None else e.worst)
    return got.instances[0][1] if got.instances else None


def _undeclared_text(cause: str, worst, findings: Sequence, claims: Mapping[str, tuple[str, str]]):
    """(where, printed, sentence) of a root cause no declaration names: the claim it is (a false statement), or the
    finding it is (its summary)."""
    if cause in claims:
        where, says = claims[cause]
        return where, says, f"{worst.source}: {worst.summary}" if worst is not None else says
    finding = next((f for f in findings if f.id == cause), None)
    if finding is not None:
        return _where_of(finding, claims), finding.summary, finding.summary
    return cause, worst.summary if worst is not None else "", worst.summary if worst is not None else ""


def _where_of(finding, claims: Mapping[str, tuple[str, str]]) -> str:
    """Where a finding is: the display a proof-step finding names (its summary opens with it), else the places of
    the claims it names."""
    head = finding.summary.split(": ", 1)[0]
    if finding.kind == "proof-step" and len(head) < 160:
        return head
    return "; ".join(dict.fromkeys(claims[c][0] for c in finding.claims if c in claims)) or head[:160]


__all__ = ["CORRECTED", "Choice", "Erratum", "Facts", "Kind", "PRINTED", "Report", "decide_kind", "paper_errata",
           "readings"]
