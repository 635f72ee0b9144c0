"""FedSGM's exact failure probabilities (repro.papers.fedsgm.runs.exact): every Rand-K pattern of a tiny instance is
enumerated once and replayed exactly and the probability is an exact fraction (how a probability above 0 becomes a
violation: tests/test_evidence_readers.py)."""
from fractions import Fraction

import numpy as np

from repro.compression import RandK
from repro.papers.fedsgm.runs import exact as X

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
    from repro.scripted import FailureCount
    arrays, meta = X.run_exact(TINY, 0)
    counts = [FailureCount.from_json(d) for d in meta["failure_counts"]]
    assert [k.claim for k in counts] == ["fedsgm.thm1", "fedsgm.thm6"] and meta["law"]["probability_total"] == "1"
    for k, p in zip(counts, arrays["failure_probability"]):
        assert k.patterns == 64 and k.probability == Fraction(k.failed, 64) == 0 and p == 0.0
        assert 0 < k.observed < k.bound             # the theorem's own sides where it comes closest: below the bound


def test_a_pattern_is_replayed_exactly():
    instance, trace = X.simulate_instance(TINY.theory_config(), 0, record_directions=False)
    pattern = np.ones((3, 2, 1), dtype=np.int64)             # always keep coordinate 1 (raises if not kept)
    outcomes = X.pattern_outcomes(instance, trace.params, pattern, ("fedsgm.thm1",))
    assert {o.claim_id for o in outcomes} == {"fedsgm.thm1"}
