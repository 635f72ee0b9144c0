"""The sentence-coverage table (repro.coverage): counts come from the sentences and the verdicts of what checks them,
never typed; a sentence citing an id the paper does not have is refused; every paper's inventory resolves."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from repro import registry
from repro.coverage import Sentence, coverage_lines, dangling, rows, summary, totals
from repro.verdicts import Verdict

SENTENCES = (
    Sentence("Remark 1", "the rate improves with E", "remarks", checked_by=("p.remark1",)),
    Sentence("Section 5", "method A beats method B", "experiments", checked_by=("p.figure1.beats",)),
    Sentence("Section 5", "the loss plateaus", "experiments", checked_by=("p.finding",)),
    Sentence("Section 6", "future work will extend this", "discussion", left_out="a plan, not a claim"),
)


def verdict(claim, value):
    return SimpleNamespace(claim=claim, verdict=value)


def finding(fid, value):
    return SimpleNamespace(id=fid, verdict=value)


def test_counts_follow_the_verdicts():
    verdicts = [verdict("p.remark1", Verdict.HOLDS), verdict("p.figure1.beats", Verdict.VIOLATED)]
    findings = [finding("p.finding", "consistent")]
    assert totals(SENTENCES, verdicts, findings) == (4, 3, 1)
    by = {r.section: (r.listed, r.encoded, r.wrong) for r in rows(SENTENCES, {"p.remark1": "holds",
                                                                             "p.figure1.beats": "violated"},
                                                                  {"p.finding": "consistent"})}
    assert by == {"remarks": (1, 1, 0), "experiments": (2, 2, 1), "discussion": (1, 0, 0)}
    # perturbed: the remark's verdict turns to not proven, the finding to a discrepancy
    worse = [verdict("p.remark1", Verdict.NOT_PROVEN), verdict("p.figure1.beats", Verdict.HOLDS)]
    assert totals(SENTENCES, worse, [finding("p.finding", "discrepancy")]) == (4, 3, 2)


def test_a_dangling_id_is_refused():
    verdicts = [verdict("p.remark1", Verdict.HOLDS)]
    assert dangling(SENTENCES, {"p.remark1", "p.finding"}) == [("Section 5", "p.figure1.beats")]
    with pytest.raises(ValueError, match="p.figure1.beats"):
        coverage_lines("p", SENTENCES, verdicts, [finding("p.finding", "consistent")])


@pytest.mark.parametrize("kwargs", [dict(checked_by=("x",), left_out="why"), dict(), dict(left_out="why", section="x")])
def test_a_malformed_sentence_is_refused(kwargs):
    with pytest.raises(ValueError):
        Sentence("Remark 1", "words", kwargs.pop("section", "remarks"), **kwargs)


def test_the_page_lists_what_is_wrong_and_what_is_left_out():
    verdicts = [verdict("p.remark1", Verdict.HOLDS), verdict("p.figure1.beats", Verdict.VIOLATED)]
    text = "\n".join(coverage_lines("p", SENTENCES, verdicts, [finding("p.finding", "consistent")]))
    assert "| experiments | 2 | 2 | 1 | 0 |" in text and "method A beats method B" in text
    assert "future work will extend this" in text and "a plan, not a claim" in text
    assert "1 found wrong" in summary("p", SENTENCES, verdicts, [finding("p.finding", "consistent")])


@pytest.mark.parametrize("paper", registry.papers())
def test_every_inventory_is_well_formed(paper):
    """Each paper's sentences are Sentences with distinct words per place (the ids are resolved against the computed
    verdicts and findings by the page itself, and by each paper's own test)."""
    sentences = registry.paper(paper).checkable_sentences()
    assert all(isinstance(s, Sentence) for s in sentences)
    keys = [(s.where, s.words) for s in sentences]
    assert len(keys) == len(set(keys))
