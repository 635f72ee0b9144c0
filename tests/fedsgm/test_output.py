"""What Algorithm 1 returns, on runs (:mod:`repro.papers.fedsgm.output`): Algorithm 1 prints no output, the paper names
w̄, so an infeasible last iterate w_T is reported under its reading and decides nothing; were the box to print w_T,
the same record is a discrepancy and a feasible w_T is not. No results cache needed."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE
from repro.papers.fedsgm import output as O

PRINTS_W_T = ("Algorithm 1 (a variant)", "Output: w_T", O.W_T)


def _record(g_T: float, ok=True) -> O.RunRecord:
    return O.RunRecord("toy", g_T, 1.0, {"fedsgm.thm1": ok})


def test_the_table_gives_w_bar_as_the_output_and_no_theorem_analyses_another_iterate():
    assert O.PRINTED[2] is None and O.output_iterate() == O.W_BAR
    assert not any(row[4] for row in O.table()) and all(row[4] for row in O.table(PRINTS_W_T))


def test_an_infeasible_last_iterate_decides_only_if_the_box_prints_it():
    infeasible, feasible = _record(1.5), _record(0.5)
    printed = O.finding_output_on_runs((infeasible,))
    assert printed.verdict == CONSISTENT and "1 of 1 runs" in printed.summary
    assert O.finding_output_on_runs((infeasible,), PRINTS_W_T).verdict == DISCREPANCY
    assert O.finding_output_on_runs((feasible,), PRINTS_W_T).verdict == CONSISTENT
    assert O.finding_output_on_runs((_record(1.5, ok=False),), PRINTS_W_T).verdict == CONSISTENT
    assert O.finding_output_on_runs(()).verdict == NOT_CHECKABLE


def test_a_cached_result_becomes_a_record_of_its_theorems_feasibility_checks():
    arrays = {"claim_id": np.array(["fedsgm.thm6.proof", "fedsgm.thm6.proof", "fedsgm.lemma3"]),
              "relation": np.array(["subopt <= ...", "infeas <= ...", "infeas <= ..."]),
              "passed": np.array([False, True, False]), "hypotheses_met": np.array([True, True, True]),
              "g": np.array([3.0, 2.0, 0.25]), "eps": np.array(0.5)}
    result = SimpleNamespace(arrays=arrays, spec=SimpleNamespace(config={"family": "ball", "T": 2}))
    record = O.run_record(result)
    assert (record.g_T, record.eps, record.analysed_ok) == (0.25, 0.5, {"fedsgm.thm6": True})
    result.arrays = {k: v for k, v in arrays.items() if k != "g"}
    assert O.run_record(result) is None and O.finding_output_on_runs((None,)).verdict == NOT_CHECKABLE
