"""Checks every paper's sentence-coverage test makes (tests/<paper>/test_sentences.py): the ids resolve, the page
refuses an id that is none of the paper's, and the page's table counts what the list and the verdicts say."""
from __future__ import annotations

import pytest

from repro.coverage import SECTIONS, Sentence, coverage_lines, dangling, found_wrong


def ids_resolve(paper, sentences, findings, verdicts) -> None:
    """Every id a sentence cites is a claim, statement or finding of ``paper`` (a Paper record), and the page
    refuses one that is not."""
    known = {v.claim for v in verdicts} | {f.id for f in findings}
    assert {c.id for c in paper.claims} | {s.id for s in paper.statements()} <= known
    assert dangling(sentences, known) == []
    bad = tuple(sentences) + (Sentence("Section 5", "x", "discussion", checked_by=(f"{paper.key}.nope",)),)
    with pytest.raises(ValueError, match=f"{paper.key}.nope"):
        coverage_lines(paper.key, bad, verdicts, findings)


def table_counts(lines: list[str]) -> dict[str, list[int]]:
    """section -> [listed, encoded, found wrong, left out], read off the page's Markdown table."""
    out = {}
    for line in "\n".join(lines).splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in SECTIONS:
            out[cells[0]] = [int(c) for c in cells[1:]]
    return out


def counts_come_out_of_the_table(key: str, sentences, findings, verdicts) -> None:
    """The page's counts per section equal those of the list and of the verdicts of the ids each sentence cites."""
    table = table_counts(coverage_lines(key, sentences, verdicts, findings))
    by_v, by_f = {v.claim: v.verdict.value for v in verdicts}, {f.id: f.verdict for f in findings}
    assert set(table) == {s.section for s in sentences}
    for section, (listed, encoded, wrong, left) in table.items():
        group = [s for s in sentences if s.section == section]
        assert listed == len(group) and encoded == sum(bool(s.checked_by) for s in group)
        assert left == sum(bool(s.left_out) for s in group) == listed - encoded
        assert wrong == sum(found_wrong(s, by_v, by_f) for s in group)
