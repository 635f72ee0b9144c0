"""FedSGM's exact failure probabilities (repro.papers.fedsgm.runs.exact): every Rand-K pattern of a tiny instance is
enumerated once and replayed exactly, the probability is an exact fraction, and a probability above 0 becomes a
violation of the deterministic statement whose replay names a failing pattern."""
from fractions import Fraction
from types import SimpleNamespace

import numpy as np

from repro.compression import RandK
from repro.papers.fedsgm import audit as A
from repro.papers.fedsgm.runs import exact as X
from repro.verdicts import Bearing

TINY = X.ExactConfig(family="max_affine", n_clients=2, E=1, T=3, w0_scale=0.3, constants="hard-stated",
                     profile="quick")


def test_every_pattern_is_enumerated_once():
    seen = {tuple(p.ravel()) for p in X.patterns(2, 3)}
    assert len(seen) == 2 ** (2 * 3) and all(set(p) <= {0, 1} for p in seen)


def test_rand_k_draws_every_subset_with_the_same_probability():
    # the equal weight of every pattern: K = 1 of d = 2, each coordinate kept with probability 1/2
    kept = RandK(2, 1).draw(np.random.default_rng(0), 20000)[:, 0]
    assert abs(kept.mean() - 0.5) < 4 * 0.5 / np.sqrt(kept.size)


def test_the_tiny_instance_has_an_exact_failure_probability():
    arrays, meta = X.run_exact(TINY.as_dict(), 0)
    assert int(arrays["patterns"]) == 64
    for cid, failed, p in zip(meta["claims"], arrays["failed_patterns"], arrays["failure_probability"]):
        assert Fraction(meta["probability"][cid]) == Fraction(int(failed), 64) and p == int(failed) / 64
    assert 0 < float(arrays["worst_ratio"]) < 1 and meta["probability"] == {"fedsgm.thm1": "0", "fedsgm.thm6": "0"}


def test_a_pattern_is_replayed_exactly():
    instance, trace = X.simulate_instance(TINY.theory_config(), 0, record_directions=False)
    pattern = np.ones((3, 2, 1), dtype=np.int64)             # always keep coordinate 1 (raises if not kept)
    outcomes = X.pattern_outcomes(instance, trace.params, pattern, ("fedsgm.thm1",))
    assert {o.claim_id for o in outcomes} == {"fedsgm.thm1"}


def test_a_positive_probability_violates_the_deterministic_statement_and_names_a_pattern():
    fake = SimpleNamespace(hash="abc", arrays={"patterns": np.array(64), "worst_ratio": np.array(1.5),
                                               "failed_patterns": np.array([3, 0])},
                           meta={"metadata": {"claims": ["fedsgm.thm1", "fedsgm.thm6"], "instance": {"T": 3},
                                              "probability": {"fedsgm.thm1": "3/64", "fedsgm.thm6": "0"},
                                              "failing_patterns": [[[1, 0], [0, 0], [1, 1]]]}})
    thm1, thm6 = A._exact_evidence([fake])
    assert thm1.bearing is Bearing.VIOLATES and "[[1, 0], [0, 0], [1, 1]]" in thm1.replay and "3/64" in thm1.summary
    assert thm6.bearing is Bearing.SUPPORTS and thm6.method == thm1.method == "exact probability"
