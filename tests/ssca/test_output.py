"""What Algorithms 1-4 return, on runs (:mod:`repro.papers.ssca.output`): the theorems speak of limit points, so the
returned iterate's KKT residual is reported and not checkable; under a finite-T mode a residual left at ω^(T) is a
discrepancy and a vanished one is not. No results cache needed."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE
from bounds.core import Mode
from repro.papers.ssca import output as O

FINITE = {cid: Mode.DETERMINISTIC for cid in O.ANALYSED}


def _record(last: float) -> O.RunRecord:
    return O.RunRecord("toy", O.SCOPE["ssca.thm1"][0], "sample", np.array([1.0, 0.1, last]))


def test_the_table_quotes_the_outputs_and_every_theorem_analyses_limit_points():
    assert O.PRINTED["sample"][1] == "Output: ωT s" and all(row[4] for row in O.table())


def test_the_limit_modes_decide_nothing_and_a_finite_mode_judges_the_returned_iterate():
    left, vanished = _record(0.05), _record(0.0)
    assert O.finding_output_on_runs((left,)).verdict == NOT_CHECKABLE
    assert O.finding_output_on_runs((left,), FINITE).verdict == DISCREPANCY
    assert O.finding_output_on_runs((vanished,), FINITE).verdict == CONSISTENT
    out_of_scope = O.RunRecord("toy", "no such problem", "sample", np.array([1.0, 0.5]))
    assert O.finding_output_on_runs((out_of_scope,)) is None and O.output_findings({}) == []


def test_a_cached_result_becomes_a_record():
    result = SimpleNamespace(arrays={"kkt": np.array([2.0, 1.0])},
                             spec=SimpleNamespace(config={"problem": "logistic_l2", "mode": "feature"}))
    record = O.run_record(result)
    assert (record.problem, record.mode, float(record.kkt[-1])) == ("logistic_l2", "feature", 1.0)
    result.arrays = {}
    assert O.run_record(result) is None and O.finding_output_on_runs((None,)) is None
