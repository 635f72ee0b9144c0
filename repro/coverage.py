"""Sentence coverage: how many checkable sentences of a paper's remarks, discussion and experiments sections the suite
encodes, how many it finds wrong, and which it leaves out and why.

A paper's ``sentences`` module (a loader of :class:`repro.paper.Paper`) lists every checkable sentence of those
sections as a :class:`Sentence`: where the paper says it (its own numbering), its exact words, the section kind, and
either the ids that decide it (claims, figure or text statements, findings) or the reason it is left out. The list
is data typed from the paper; whether a sentence is found wrong is computed here from the verdicts and findings of
the ids that check it, never typed.

A sentence is *checkable* when a computation could decide it: a bound, a rate, a direction ("decreases with"), a
comparison ("better than"), a limit ("recovers"), a property of a run or of a setting. Sentences that only describe
(what a section contains, motivation, related work) are not listed.

Assumptions, named: a sentence is *found wrong* when one id that checks it has a failing verdict (violated or not
proven: :data:`repro.verdicts.FAILING`) or is a finding with verdict ``discrepancy``; a sentence checked only by ids
whose verdict depends on an open choice is counted as checked, not wrong.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from .tables import markdown_table
from .verdicts import FAILING

#: the verdict values that make a sentence found wrong (module doc)
_FAILING = frozenset(v.value for v in FAILING)

#: the section kinds a sentence is counted under, in the table's order
SECTIONS = ("remarks", "discussion", "experiments")


@dataclass(frozen=True)
class Sentence:
    """One checkable sentence: ``where`` (the paper's own place: "Remark 3.5", "Section 5, Figure 2"), ``words`` (its
    exact words; ``[...]`` marks a cut, ``[lam]`` a symbol spelled out), ``section`` (one of :data:`SECTIONS`), and
    exactly one of ``checked_by`` (claim, statement or finding ids that decide it) or ``left_out`` (why not)."""

    where: str
    words: str
    section: str
    checked_by: tuple[str, ...] = ()
    left_out: str = ""

    def __post_init__(self) -> None:
        if self.section not in SECTIONS:
            raise ValueError(f"sentence at {self.where}: section {self.section!r} is not one of {SECTIONS}")
        if bool(self.checked_by) == bool(self.left_out):
            raise ValueError(f"sentence at {self.where}: give exactly one of checked_by and left_out")
        if not self.words.strip():
            raise ValueError(f"sentence at {self.where}: its words are empty")


@dataclass(frozen=True)
class Row:
    """One section's counts: sentences listed, encoded (checked by some id), found wrong."""

    section: str
    listed: int
    encoded: int
    wrong: int


def dangling(sentences: Sequence[Sentence], known: set[str]) -> list[tuple[str, str]]:
    """(where, id) of every id a sentence cites that is no claim, statement or finding of the paper."""
    return [(s.where, i) for s in sentences for i in s.checked_by if i not in known]


def found_wrong(sentence: Sentence, verdicts: Mapping[str, str], findings: Mapping[str, str]) -> bool:
    """Whether an id that checks ``sentence`` fails: a claim or statement verdict in FAILING, or a finding with
    verdict ``discrepancy`` (``verdicts``: id -> verdict value; ``findings``: id -> finding verdict)."""
    return any(verdicts.get(i) in _FAILING or findings.get(i) == "discrepancy" for i in sentence.checked_by)


def rows(sentences: Sequence[Sentence], verdicts: Mapping[str, str], findings: Mapping[str, str]) -> list[Row]:
    """Per section of :data:`SECTIONS` (those with a listed sentence): listed, encoded, found wrong."""
    out = []
    for section in SECTIONS:
        mine = [s for s in sentences if s.section == section]
        if mine:
            out.append(Row(section, len(mine), sum(bool(s.checked_by) for s in mine),
                           sum(found_wrong(s, verdicts, findings) for s in mine)))
    return out


def totals(sentences: Sequence[Sentence], verdicts, findings) -> tuple[int, int, int]:
    """(listed, encoded, found wrong) over every section (``verdicts``: ClaimVerdict list, ``findings``: Finding list)."""
    table = rows(sentences, {v.claim: v.verdict.value for v in verdicts}, {f.id: f.verdict for f in findings})
    return sum(r.listed for r in table), sum(r.encoded for r in table), sum(r.wrong for r in table)


def summary(paper: str, sentences: Sequence[Sentence], verdicts, findings) -> str:
    """One line for the summary: checkable sentences listed, encoded, found wrong, with a link to the table."""
    if not sentences:
        return "Sentence coverage: no inventory of the remarks, discussion and experiments yet."
    listed, encoded, wrong = totals(sentences, verdicts, findings)
    return (f"Sentence coverage: {listed} checkable sentences of the remarks, discussion and experiments, {encoded} "
            f"encoded, {wrong} found wrong, {listed - encoded} left out with a reason "
            f"([per section]({paper}.md#sentence-coverage)).")


def coverage_lines(paper: str, sentences: Sequence[Sentence], verdicts, findings) -> list[str]:
    """The detail page's "Sentence coverage": the table per section, then the sentences found wrong and the ones left
    out, each with its place and words (``verdicts``: :class:`repro.verdicts.ClaimVerdict` list; ``findings``: the
    audit's :class:`bounds.audit.Finding` list)."""
    head = ['<a id="sentence-coverage"></a>', "", "## Sentence coverage", ""]
    if not sentences:
        return head + ["No inventory of the checkable sentences of the remarks, discussion and experiments yet.", ""]
    by_verdict = {v.claim: v.verdict.value for v in verdicts}
    by_finding = {f.id: f.verdict for f in findings}
    unknown = dangling(sentences, set(by_verdict) | set(by_finding))
    if unknown:
        raise ValueError(f"sentences of {paper}: {unknown[0][0]} cites {unknown[0][1]!r}, no claim, statement or "
                         f"finding of the paper")
    table = [[r.section, str(r.listed), str(r.encoded), str(r.wrong), str(r.listed - r.encoded)]
             for r in rows(sentences, by_verdict, by_finding)]
    lines = head + ["Every checkable sentence of the paper's remarks, discussion and experiments sections (one that a "
                    "computation could decide: a bound, a rate, a direction, a comparison, a limit, a property of a "
                    "run), counted by section: encoded (decided by the claims, statements or findings listed with it), "
                    "found wrong (one of them violated or not proven, or a finding of a discrepancy), left out (with "
                    "the reason below).", "",
                    markdown_table(["section", "checkable sentences", "encoded", "found wrong", "left out"], table), ""]
    wrong = [s for s in sentences if found_wrong(s, by_verdict, by_finding)]
    if wrong:
        lines += ["Found wrong:", ""] + [f"- {s.where}: \"{s.words}\" ({', '.join(f'`{i}`' for i in s.checked_by)})"
                                        for s in wrong] + [""]
    left = [s for s in sentences if s.left_out]
    if left:
        lines += ["Left out:", ""] + [f"- {s.where}: \"{s.words}\" -- {s.left_out}" for s in left] + [""]
    return lines


__all__ = ["SECTIONS", "Sentence", "Row", "dangling", "found_wrong", "rows", "totals", "summary", "coverage_lines"]
