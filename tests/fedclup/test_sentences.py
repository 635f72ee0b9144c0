"""FedCLUP's sentence coverage (``repro.papers.fedclup.sentences``): every id a sentence cites is a claim, statement or
finding of the paper, and the counts of the coverage table come out of the verdicts and findings, not out of the list.
"""
from dataclasses import replace

import pytest

from repro import coverage
from repro.papers.fedclup import audit as A
from repro.papers.fedclup.paper import PAPER
from repro.papers.fedclup.sentences import SENTENCES
from tests import sentence_checks

ROUNDS = ("fedclup.figure2.rounds_direction", "fedclup.figure2.rounds_direction_appendix")


@pytest.fixture(scope="module")
def computed():
    """The verdicts and findings the audit computes without results (what the sentences may cite)."""
    return A.verdicts({}), A.findings({})


def _maps(verdicts, findings):
    return {v.claim: v.verdict.value for v in verdicts}, {f.id: f.verdict for f in findings}


def test_the_paper_loads_its_sentences():
    assert PAPER.checkable_sentences() == SENTENCES and len(SENTENCES) > 50
    assert {s.section for s in SENTENCES} == set(coverage.SECTIONS)


def test_every_id_resolves_and_a_stranger_is_refused(computed):
    verdicts, findings = computed
    sentence_checks.ids_resolve(PAPER, SENTENCES, findings, verdicts)


def test_the_counts_come_out_of_the_table(computed):
    verdicts, findings = computed
    sentence_checks.counts_come_out_of_the_table("fedclup", SENTENCES, findings, verdicts)
    by_verdict, by_finding = _maps(verdicts, findings)
    wrong = [s.where for s in SENTENCES if coverage.found_wrong(s, by_verdict, by_finding)]
    assert wrong == ["Section 6.2, Figure 2", "Appendix D.2, Figure 2"]


def test_a_failing_id_makes_its_sentence_wrong(computed):
    verdicts, findings = computed
    by_verdict, by_finding = _maps(verdicts, findings)
    sentence = next(s for s in SENTENCES if "fedclup.thm1.shape" in s.checked_by)
    assert not coverage.found_wrong(sentence, by_verdict, by_finding)
    flipped = [replace(f, verdict="discrepancy") if f.id == "fedclup.thm1.shape" else f for f in findings]
    assert coverage.found_wrong(sentence, by_verdict, _maps(verdicts, flipped)[1])
    before = coverage.totals(SENTENCES, verdicts, findings)[2]
    assert coverage.totals(SENTENCES, verdicts, flipped)[2] > before


def test_figure2s_closing_sentence_is_found_wrong_through_its_erratum(computed):
    by_verdict, _ = _maps(*computed)
    assert {by_verdict[s] for s in ROUNDS} == {"holds once corrected"}
