"""FedCLUP's Lemma 7 over every mini-batch sequence (repro.papers.fedclup.runs.exact): each sequence is enumerated
once, the lockstep replicates use exactly the scripted batches, the expectation is judged exactly (never
inconclusive), a bound without the noise term is refuted exactly, and the audit reads the runs as "exact probability"
evidence."""
import dataclasses
from math import comb

import numpy as np
import pytest
import sympy as sp

from bounds.fedclup import claims as B
from repro.papers.fedclup import evidence as EV
from repro.papers.fedclup import section as SE
from repro.papers.fedclup import checks as V
from repro.papers.fedclup.runs import exact as X
from repro.papers.fedclup.runs.optimization import lemma7_path
from repro.scripted import ScriptedKeys
from repro.verdicts import Bearing, method_of

SMALL = X.ExactConfig(kappa=8.0, lam=0.1, batch=2, local_steps=3, profile="quick")


@pytest.mark.parametrize("n, b, k", [(4, 1, 3), (4, 2, 2), (5, 3, 2)])
def test_every_batch_sequence_appears_once(n, b, k):
    pattern = X.batch_sequences(n, b, k)
    assert pattern.shape == (k, comb(n, b) ** k, b)
    rows = {tuple(pattern[:, j].ravel()) for j in range(pattern.shape[1])}
    assert len(rows) == comb(n, b) ** k
    assert all(len(set(s)) == b for s in pattern.reshape(-1, b))


def test_replicates_use_the_scripted_batches_and_match_single_runs():
    pattern = X.batch_sequences(SMALL.n, SMALL.batch, SMALL.local_steps)
    problem, trace, used = lemma7_path(SMALL, 0, SMALL.sequences(), batches=ScriptedKeys(pattern))
    assert np.array_equal(np.sort(used, axis=-1), pattern)
    for j in (0, 7, SMALL.sequences() - 1):
        _, alone, _ = lemma7_path(SMALL, 0, 1, batches=ScriptedKeys(pattern[:, j:j + 1]))
        np.testing.assert_allclose(alone.path[:, 0], trace.path[:, j], rtol=1e-13, atol=1e-15)


def test_lemma7_is_judged_on_its_exact_expectation():
    arrays, meta = X.run_exact(SMALL, 0)
    assert int(arrays["sequences"]) == comb(4, 2) ** 3
    assert bool(arrays["passed"][0]) and not bool(arrays["inconclusive"][0])
    pattern = X.batch_sequences(SMALL.n, SMALL.batch, SMALL.local_steps)
    problem, trace, _ = lemma7_path(SMALL, 0, SMALL.sequences(), batches=ScriptedKeys(pattern))
    mean = float(np.mean(np.sum((trace.path[-1] - problem.target) ** 2, axis=-1)))
    assert float(arrays["observed"][0]) == pytest.approx(mean, rel=1e-12)


def test_the_bound_without_its_noise_term_is_refuted_exactly():
    # Lemma 5's deterministic contraction alone does not bound mini-batch steps: the exact expectation exceeds it
    noiseless = dataclasses.replace(B.lemma7, conclusion=(sp.Le(B.inner_err_K, B.Q_INNER ** B.K * B.inner_err_0),))
    # (the paper profile's instance lambda = 10, B = 1, K = 7, seed 2: the start is close enough to w_* for the
    # batch noise to dominate)
    pattern = X.batch_sequences(4, 1, 7)
    config = X.ExactConfig(kappa=8.0, lam=10.0, batch=1, local_steps=7, profile="quick")
    problem, trace, _ = lemma7_path(config, 2, config.sequences(), batches=ScriptedKeys(pattern))
    outcome = V.check(noiseless, problem, trace)[0]
    assert not outcome.passed and not outcome.inconclusive
    assert V.check(B.lemma7, problem, trace)[0].passed


def test_the_config_refuses_a_full_batch_and_too_many_sequences():
    with pytest.raises(ValueError, match="batch"):
        X.ExactConfig(kappa=8.0, lam=0.1, batch=4, local_steps=2, profile="quick")
    with pytest.raises(ValueError, match="local_steps"):
        X.ExactConfig(kappa=8.0, lam=0.1, batch=2, local_steps=9, profile="quick")


def test_the_audit_counts_the_runs_as_exact_probability_evidence():
    arrays, meta = X.run_exact(SMALL, 0)
    run = type("Run", (), {"hash": "abc", "arrays": arrays, "meta": {"metadata": meta},
                           "spec": type("Spec", (), {"config": SMALL.as_dict(), "seed": 0,
                                                     "experiment": "fedclup.exact"})()})()
    evidence = EV._check_evidence(EV._run_checks([run]))
    assert [(e.claim, e.bearing) for e in evidence] == [("fedclup.lemma7", Bearing.SUPPORTS)]
    assert method_of(evidence[0]) == "exact probability"
    assert "exact expectation" in "\n".join(SE._audit_exact([run]))
