"""SSCA's checkable sentences (repro.papers.ssca.sentences): every id a sentence cites resolves to a claim, statement or
finding of the paper, and the coverage counts come out of the table (computed from the verdicts, never typed)."""
from __future__ import annotations

import dataclasses

import pytest

from repro import registry
from repro.coverage import Sentence, totals
from repro.papers.ssca import audit as A
from repro.papers.ssca.sentences import SENTENCES
from repro.verdicts import Verdict
from tests import sentence_checks


@pytest.fixture(scope="module")
def computed():
    """The verdicts and findings without results (the symbolic ones decide most sentences)."""
    return A.verdicts({}), A.findings({})


def test_the_paper_loads_its_sentences():
    assert registry.paper("ssca").checkable_sentences() == SENTENCES
    assert all(isinstance(s, Sentence) for s in SENTENCES)


def test_every_id_resolves_and_a_stranger_is_refused(computed):
    verdicts, findings = computed
    sentence_checks.ids_resolve(registry.paper("ssca"), SENTENCES, findings, verdicts)


def test_the_counts_come_out_of_the_table(computed):
    verdicts, findings = computed
    by_verdict = {v.claim: v.verdict.value for v in verdicts}
    by_finding = {f.id: f.verdict for f in findings}
    sentence_checks.counts_come_out_of_the_table("ssca", SENTENCES, findings, verdicts)
    # perturbed: a statement that holds turns violated, and the wrong count rises by the sentences it alone decides
    target = next(v.claim for v in verdicts if v.verdict is Verdict.HOLDS
                  and any(v.claim in s.checked_by for s in SENTENCES))
    flipped = [dataclasses.replace(v, verdict=Verdict.VIOLATED) if v.claim == target else v for v in verdicts]
    cited = [s for s in SENTENCES if target in s.checked_by]
    newly = sum(1 for s in cited if not any(by_verdict.get(i) in ("violated", "not proven")
                                            or by_finding.get(i) == "discrepancy" for i in s.checked_by))
    assert newly and totals(SENTENCES, flipped, findings)[2] == totals(SENTENCES, verdicts, findings)[2] + newly
    # ... and a finding that holds turns into a discrepancy
    worse = [dataclasses.replace(f, verdict="discrepancy") if f.id == "ssca.remarks.complexity" else f
             for f in findings]
    assert totals(SENTENCES, verdicts, worse)[2] > totals(SENTENCES, verdicts, findings)[2]


def test_each_section_kind_is_present_and_left_out_sentences_say_why():
    assert {s.section for s in SENTENCES} == {"remarks", "discussion", "experiments"}
    assert all(len(s.left_out) > 20 for s in SENTENCES if s.left_out)
