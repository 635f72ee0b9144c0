"""What Algorithm 1 returns, on runs (:mod:`repro.papers.pcfedavg.output`): a tiny in-memory record whose returned
x̄_R' breaks Proposition 4.8 (i)'s bound while x̄_(K*) keeps it is reported; the unchanged record, a noisy one (no
standard error recorded) and a record without the claim's hypotheses are not. No results cache needed."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE
from repro.papers.pcfedavg import output as O

VALUES = {"m": 2, "L_f": 1.0, "sigma": 0.1, "rho": 1.0, "gamma": 0.01, "H": 2, "nu": 0.0, "M": 1.0, "Q": 1.0,
          "D": 0.1}


def _record(subopt, nu=0.0, hypotheses=tuple(O.ANALYSED)) -> O.RunRecord:
    K = len(subopt)
    steps = {"gap": np.zeros(K), "subopt": np.asarray(subopt, float), "infeas": np.zeros((K, 2))}
    return O.RunRecord("toy", steps, VALUES | {"nu": nu}, H=2, R=K // 2, nu=nu, hypotheses=frozenset(hypotheses))


def test_the_table_quotes_the_output_and_every_bound_analyses_another_iterate():
    assert O.PRINTED[1] == "Output: Server returns x̄_R."
    assert {row[0] for row in O.table()} == set(O.ANALYSED) and all(row[4] for row in O.table())


def test_a_returned_iterate_beyond_the_bound_is_reported_and_the_unchanged_run_is_not():
    bound = O.horizons(_record(np.zeros(6)), "pcfedavg.prop4.8.i")[0][3]     # R' = 1, K = 2: 3Q/(K gamma) + ...
    assert 100 < bound < 200
    clean = O.finding_output_on_runs((_record(np.zeros(6)),))
    assert clean.verdict == CONSISTENT
    bad = O.finding_output_on_runs((_record([0.0, 0.0, 1.5 * bound, 0.0, 0.0, 0.0]),))
    assert bad.verdict == DISCREPANCY and "R' = 1" in bad.summary and "pcfedavg.prop4.8.i" in bad.summary
    assert bad.gate()[0].verdict == DISCREPANCY


def test_a_noisy_run_is_reported_never_judged_and_missing_hypotheses_leave_the_claim_out():
    spike = [0.0, 0.0, 1e6, 0.0, 0.0, 0.0]
    assert O.finding_output_on_runs((_record(spike, nu=0.5),)).verdict == CONSISTENT
    assert O.finding_output_on_runs((_record(spike, hypotheses=()),)).verdict == CONSISTENT
    assert O.finding_output_on_runs(()).verdict == NOT_CHECKABLE


def test_a_cached_result_becomes_a_record_unless_its_step_size_depends_on_R():
    arrays = {"L_f": np.array(1.0), "gamma": np.array(0.01), "M": np.array(1.0), "Q": np.array(1.0),
              "D": np.array(0.1), "residual_rho": np.array(0.0), "claim_id": np.array(["pcfedavg.prop4.8.i"]),
              "hypotheses_met": np.array([True]), "gap_mean": np.zeros(4), "subopt_mean": np.zeros(4),
              "infeas_mean": np.zeros((4, 2))}
    config = {"m": 2, "rho": 1.0, "H": 2, "R": 2, "nu": 0.0, "family": "quadratic", "path": "compact"}
    result = SimpleNamespace(arrays=arrays, spec=SimpleNamespace(config=config),
                             meta={"metadata": {"instance": {"sigma": [0.1, 0.05]}}})
    record = O.run_record(result)
    assert record.values["sigma"] == 0.1 and record.hypotheses == {"pcfedavg.prop4.8.i"} and record.R == 2
    result.spec.config = config | {"gamma_rule": "proof"}
    assert O.run_record(result) is None
    result.spec.config, result.arrays = config, {k: v for k, v in arrays.items() if k != "subopt_mean"}
    assert O.run_record(result) is None                                    # records too little: left out
