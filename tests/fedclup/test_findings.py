"""FedCLUP's findings are computed: change the input of a finding's computation and the finding flips or disappears;
on the real inputs the suite finds it. And the statements about figures get evidence from per-seed values.

These tests assert what the suite computes, never that the paper is right.
"""
from __future__ import annotations

import math

import pytest

from bounds.fedclup import findings as BF
from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE
from repro.papers.fedclup import audit as A
from repro.papers.fedclup import statements as ST
from repro.verdicts import Bearing, Verdict, roll_up

#: a setting of the authors' synthetic experiments in the producers' form (numbers of the order the runs log)
SETTING = {"figure": "fedclup.figure4", "lam": 0.5, "m": 10, "K": 150, "mu": 0.0, "L_valid": 82.0, "L_code": 9.13,
           "L_name": "L_code", "L": 9.13, "eta": 1 / (9.13 + 0.5), "gamma": 1 / 0.5}


def test_server_step_is_found_from_the_authors_branch_and_disappears_when_the_branch_is_fixed(monkeypatch):
    found = BF.settings_server_step((SETTING,))
    assert found.verdict == DISCREPANCY and found.gate() == [found]
    assert "Section 4.2, (12)" in found.summary and "9.13" in found.summary
    monkeypatch.setattr(BF, "AUTHORS_SERVER_BRANCH", 'args.method == "FedAvg" or args.method == "LocalTrain"')
    assert BF.settings_server_step((SETTING,)) is None


def test_settings_findings_are_one_per_condition_over_all_settings():
    settings = [SETTING | {"lam": lam, "eta": 1 / (9.13 + lam), "gamma": 1 / lam} for lam in (0.02, 0.1, 0.5)]
    got = BF.settings_findings(settings)
    assert [f.id for f in got] == ["fedclup.settings.eta", "fedclup.settings.gamma", "fedclup.settings.K",
                                   "fedclup.settings.server_step"]
    eta = got[0]
    assert eta.verdict == DISCREPANCY and "3 of 3 settings" in eta.summary and "L_code = 9.13" in eta.summary
    # a valid L below the one eta uses: the Lemma 5 condition holds, so the eta finding flips
    ok = BF.settings_findings([s | {"L_valid": 9.0} for s in settings])[0]
    assert ok.verdict == CONSISTENT and "satisfies" in ok.summary


def test_cor1_case1_slack_follows_the_computed_constant(monkeypatch):
    real = BF.cor1_case1_slack()
    assert real.verdict == CONSISTENT and "10.5 is loose" in real.summary
    rows = BF.derived_checks()
    for r in rows:
        if r["item"].startswith("(i) "):
            r.update(tight_constant="21/2", status="refuted")
    monkeypatch.setattr(BF, "derived_checks", lambda: rows)
    flipped = BF.cor1_case1_slack()
    assert flipped.verdict == DISCREPANCY and "loose" not in flipped.summary


def test_monotone_in_lambda_follows_the_sympy_status(monkeypatch):
    assert BF.monotone_in_lambda().verdict == CONSISTENT
    cil = BF.communication_in_lambda()
    cil["dkappaF_dlam"]["status"] = "refuted"
    monkeypatch.setattr(BF, "communication_in_lambda", lambda: cil)
    assert BF.monotone_in_lambda().verdict == DISCREPANCY


def test_not_recovered_rows_are_read_off_the_encoded_claims(monkeypatch):
    found = BF.not_recovered("thm1.q1q2")
    assert found.verdict == NOT_CHECKABLE and "q1 is a stand-in" in found.summary
    monkeypatch.setattr(BF, "unprinted", lambda cid: [])          # claims encoded as printed: no row
    assert BF.not_recovered("thm1.q1q2") is None


def test_assumption2_is_computed_on_the_data():
    found = A.assumption2(10, 200, 10, 2, 1.0, 1)
    assert found.verdict == DISCREPANCY and "Assumption 2" in found.summary
    assert A.assumption2(10, 200, 10, 2, 1.0, 1, scales=(1.0, 1.0, 1.0)) is None   # no decrease: nothing found


def test_findings_without_results_have_unique_ids_and_no_settings_of_runs():
    """Without results only the settings findings that need no run are shown: the synthetic loss, the
    linear-regression designs (drawn by the runs' own builders) and the MNIST server step (sympy)."""
    ids = [f.id for f in A.findings({})]
    needs_no_run = {"fedclup.settings.logistic.assumption2", "fedclup.settings.linreg.assumption2",
                    "fedclup.settings.mnist.global_step"}
    assert len(ids) == len(set(ids))
    assert {i for i in ids if i.startswith("fedclup.settings.")} == needs_no_run


@pytest.mark.parametrize("values, bearing", [({1: -0.5, 2: -0.6, 3: -0.55}, Bearing.VIOLATES),
                                             ({1: -0.5, 2: 0.6, 3: 0.1}, Bearing.INCONCLUSIVE),
                                             ({1: 0.5}, Bearing.INCONCLUSIVE),
                                             ({1: 0.5, 2: 0.6, 3: 0.55}, Bearing.SUPPORTS)])
def test_a_statement_ordering_is_decided_over_seeds(values, bearing):
    e = ST._order("fedclup.figure5.early", values, "loss difference")
    assert e.bearing is bearing and e.claim == "fedclup.figure5.early"
    assert ("python -m repro run fedclup.mnist" in e.replay) == (bearing is Bearing.VIOLATES)
    verdict = roll_up(["fedclup.figure5.early"], [e])[0].verdict
    assert verdict is {Bearing.VIOLATES: Verdict.VIOLATED, Bearing.SUPPORTS: Verdict.HOLDS,
                       Bearing.INCONCLUSIVE: Verdict.NOT_CHECKABLE}[bearing]


def test_a_property_of_every_run_names_the_failing_run():
    bad = ST._every_run("fedclup.figure3.dynamic_lambda", ["data seed 1: lambda 0.02 -> 0.007"], 3)
    assert [e.bearing for e in bad] == [Bearing.VIOLATES] and "data seed 1" in bad[0].replay
    assert [e.bearing for e in ST._every_run("fedclup.figure3.dynamic_lambda", [], 3)] == [Bearing.SUPPORTS]


def test_every_statement_quotes_the_paper_and_has_an_id_of_its_figure_or_table():
    assert len({s.id for s in A.STATEMENTS}) == len(A.STATEMENTS)
    for s in A.STATEMENTS:
        assert s.id.startswith(("fedclup.figure", "fedclup.table")) and s.words and s.location
    assert math.isinf(ST.POSITIVE[1]) and ST.ORDER_TOL > 0
