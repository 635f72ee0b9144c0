"""FedSGM's sentence coverage (repro/papers/fedsgm/sentences.py): the paper registers its list, every id a sentence
cites is a claim, statement or finding of the paper, and the table's counts (listed, encoded, found wrong, left out)
come out of the list and of the computed verdicts: a finding turned into a discrepancy makes its sentence found
wrong."""
from __future__ import annotations

import dataclasses

import pytest

from bounds.audit import DISCREPANCY
from repro.coverage import rows
from repro.papers.fedsgm import audit as A
from repro.papers.fedsgm.paper import PAPER
from repro.papers.fedsgm.sentences import DISCUSSION, EXPERIMENTS, REMARKS, SENTENCES
from tests import sentence_checks


@pytest.fixture(scope="module")
def computed():
    findings = A.findings({})
    return findings, A.verdicts({}, findings)


def test_the_paper_registers_its_sentences():
    assert PAPER.checkable_sentences() == SENTENCES
    assert {s.section for s in REMARKS} == {"remarks"} and {s.section for s in DISCUSSION} == {"discussion"}
    assert {s.section for s in EXPERIMENTS} == {"experiments"}
    assert len({s.words for s in SENTENCES}) == len(SENTENCES), "a sentence is listed twice"


def test_every_id_resolves_and_a_stranger_is_refused(computed):
    findings, verdicts = computed
    sentence_checks.ids_resolve(PAPER, SENTENCES, findings, verdicts)


def test_the_counts_come_out_of_the_table(computed):
    findings, verdicts = computed
    sentence_checks.counts_come_out_of_the_table("fedsgm", SENTENCES, findings, verdicts)


def test_a_discrepancy_makes_its_sentence_found_wrong(computed):
    findings, verdicts = computed
    split = next(s for s in EXPERIMENTS if s.checked_by == ("fedsgm.remark.split",))

    def wrong(fs, vs):
        by_v, by_f = {v.claim: v.verdict.value for v in vs}, {f.id: f.verdict for f in fs}
        return {r.section: r.wrong for r in rows(SENTENCES, by_v, by_f)}, by_v

    before, by_v = wrong(findings, verdicts)
    assert by_v["fedsgm.remark.split"] == "holds"
    flipped = [dataclasses.replace(f, verdict=DISCREPANCY) if f.id == "fedsgm.remark.split" else f for f in findings]
    after, by_v = wrong(flipped, A.verdicts({}, flipped))
    assert by_v["fedsgm.remark.split"] == "violated"
    assert after["experiments"] == before["experiments"] + 1
    assert split.where == "Section 4.1"
