"""PC-FedAvg's sentence coverage (repro/papers/pcfedavg/sentences.py): the paper registers its list, every id a
sentence cites is a claim, statement or finding of the paper, the table's counts come out of the list and of the
computed verdicts, and a finding turned into a discrepancy makes its sentence found wrong."""
from __future__ import annotations

import dataclasses

import pytest

from bounds.audit import CONSISTENT, DISCREPANCY
from bounds.pcfedavg import remarks as REM
from repro import errata
from repro.coverage import SECTIONS, rows
from repro.papers.pcfedavg import audit as A
from repro.papers.pcfedavg import errata as ERR
from repro.papers.pcfedavg.paper import PAPER
from repro.papers.pcfedavg.sentences import SENTENCES
from tests import sentence_checks
from repro.verdicts import from_findings, roll_up


#: an audit without results: the symbolic statements are decided, the figures not run
NO_RUNS: dict = {}


@pytest.fixture(scope="module")
def computed():
    return A.findings(NO_RUNS), A.verdicts(NO_RUNS)


def test_the_paper_registers_its_sentences():
    assert PAPER.checkable_sentences() == SENTENCES
    assert {s.section for s in SENTENCES} == set(SECTIONS)
    assert len({(s.where, s.words) for s in SENTENCES}) == len(SENTENCES), "a sentence is listed twice"


def test_every_id_resolves_and_a_stranger_is_refused(computed):
    findings, verdicts = computed
    sentence_checks.ids_resolve(PAPER, SENTENCES, findings, verdicts)


def test_the_counts_come_out_of_the_table(computed):
    findings, verdicts = computed
    sentence_checks.counts_come_out_of_the_table("pcfedavg", SENTENCES, findings, verdicts)


def _remark_verdicts(findings):
    """The verdicts of Remark 3.6's two statements from these findings alone (what the audit's remark_evidence does)."""
    ids = [REM.TRADEOFF_ID, REM.BETTER_ID]
    return {v.claim: v.verdict.value
            for v in roll_up(ids, from_findings(findings, ids), {}, errata.readings(ERR))}


def test_the_remark_statements_get_computed_verdicts(computed):
    findings, verdicts = computed
    by_v = {v.claim: v.verdict.value for v in verdicts}
    mine = [f for f in findings if f.id in (REM.TRADEOFF_FINDING, REM.UNITS_FINDING)]
    assert {k: by_v[k] for k in (REM.TRADEOFF_ID, REM.BETTER_ID)} == _remark_verdicts(mine)
    assert by_v[REM.BETTER_ID] == "not proven" and by_v[REM.TRADEOFF_ID] == "holds"


def test_a_discrepancy_makes_its_sentence_found_wrong(computed):
    findings, verdicts = computed
    tradeoff = next(s for s in SENTENCES if REM.TRADEOFF_ID in s.checked_by)
    flipped = [dataclasses.replace(f, verdict=DISCREPANCY) if f.id == REM.TRADEOFF_FINDING else f for f in findings]
    new = _remark_verdicts([f for f in flipped if f.id == REM.TRADEOFF_FINDING])
    assert new[REM.TRADEOFF_ID] == "not proven"

    def wrong(by_v, fs):
        return sum(r.wrong for r in rows(SENTENCES, by_v, {f.id: f.verdict for f in fs}))
    by_v = {v.claim: v.verdict.value for v in verdicts}
    assert wrong(by_v | new, flipped) == wrong(by_v, findings) + 1
    assert tradeoff.where == "Remark 3.6"


def test_the_declared_errata_are_confirmed_by_their_findings(computed):
    findings, _ = computed
    by_id = {f.id: f.verdict for f in findings}
    for erratum in ("pcfedavg.remark3.6.units", "pcfedavg.heterogeneous_budgets", "pcfedavg.output_iterate"):
        declared = next(e for e in ERR.ERRATA if e.id == erratum)
        assert [by_id[i] for i in declared.explains] == [DISCREPANCY]
    assert by_id["pcfedavg.stated_rates"] == CONSISTENT
