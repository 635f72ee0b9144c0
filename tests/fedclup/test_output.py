"""What Algorithm 1 returns, on runs (:mod:`repro.papers.fedclup.output`): its output (the models after the last round)
is the iterate Corollary 2 analyses, so a later round beyond ε is reported and decides nothing; were the box to print
another iterate, the same record is a discrepancy. No results cache needed."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE
from repro.papers.fedclup import output as O

OTHER = ("Algorithm 1 (a variant)", "Output: the best global model", "the best global model")


def _record(e, T=2, hypotheses=True) -> O.RunRecord:
    return O.RunRecord("toy", np.asarray(e, float), T, 1e-3, hypotheses)


def test_the_table_quotes_the_output_and_it_is_the_analysed_iterate():
    assert O.PRINTED[1] == "Output: Local models and global model"
    assert not any(row[4] for row in O.table()) and all(row[4] for row in O.table(OTHER))


def test_a_later_round_beyond_epsilon_decides_only_if_the_output_is_another_iterate():
    good, late = _record([1.0, 1e-2, 1e-4, 1e-5]), _record([1.0, 1e-2, 1e-4, 5e-3])
    assert O.returned_values(late) == (1e-4, 5e-3, 3)
    assert O.finding_output_on_runs((good,), OTHER).verdict == CONSISTENT
    assert O.finding_output_on_runs((late,), OTHER).verdict == DISCREPANCY
    printed = O.finding_output_on_runs((late,))
    assert printed.verdict == CONSISTENT and "within ε on 0 runs" in printed.summary
    assert O.finding_output_on_runs((_record([1.0, 1.0]),)).verdict == NOT_CHECKABLE      # T beyond the run
    assert O.finding_output_on_runs((_record([1.0, 1e-2, 1e-4, 5e-3], hypotheses=False),), OTHER).verdict \
        == NOT_CHECKABLE


def test_a_cached_result_becomes_a_record():
    arrays = {"claim_id": np.array(["fedclup.thm2", "fedclup.cor2.explicit"]),
              "hypotheses_met": np.array([False, True]), "e": np.array([1.0, 0.5, 0.25]), "T_cor2": np.array(1)}
    result = SimpleNamespace(arrays=arrays, spec=SimpleNamespace(config={"lam": 1.0}),
                             meta={"metadata": {"constants": {"eps": 0.6}}})
    record = O.run_record(result)
    assert (record.T, record.eps, record.hypotheses) == (1, 0.6, True)
    result.meta = {}
    assert O.run_record(result) is None and O.finding_output_on_runs((None,)).verdict == NOT_CHECKABLE
