"""SSCA's exact failure probabilities (repro.papers.ssca.runs.exact): every minibatch pattern of a tiny instance is
enumerated once and replayed through Algorithm 1 with the scripted batches, the probability that Lemma 4 (51) fails
is an exact fraction and a mutated (51) is caught (how > 0 becomes a violation: tests/test_evidence_readers.py)."""
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from repro.papers.ssca.algorithms import ssca as alg
from repro.papers.ssca.runs import exact as X

#: one client of 3 samples, batch 1, 3 iterations (27 patterns), and two clients of 3 samples, batch 2 (3^4 = 81)
ONE = X.ExactConfig(problem="logistic_l2", steps="theory_a", clients=1, per_client=3, batch=1, updates=3, d=1,
                    profile="quick")
TWO = X.ExactConfig(problem="nonconvex_logistic", steps="section_vi", clients=2, per_client=3, batch=2, updates=2,
                    d=2, profile="quick")


@pytest.mark.parametrize("n_i, b, clients, updates", [(3, 1, 1, 3), (4, 2, 1, 2), (3, 2, 2, 2), (3, 1, 2, 3)])
def test_every_pattern_is_enumerated_once(n_i, b, clients, updates):
    seen = [tuple(p.ravel()) for p in X.patterns(n_i, b, clients, updates)]
    assert len(seen) == len(set(seen)) == comb(n_i, b) ** (clients * updates)
    for p in X.patterns(n_i, b, clients, updates):
        assert p.shape == (updates, clients, b) and p.min() >= 0 and p.max() < n_i
        assert all(len(set(row)) == b for row in p.reshape(-1, b))          # B distinct positions per batch


def test_the_config_counts_its_patterns_and_refuses_a_batch_without_randomness():
    assert ONE.patterns() == 27 and TWO.patterns() == 81
    with pytest.raises(ValueError, match="batch"):
        X.ExactConfig(problem="logistic_l2", steps="theory_a", clients=1, per_client=3, batch=3, updates=2,
                      profile="quick")
    with pytest.raises(ValueError, match="updates"):
        X.ExactConfig(problem="logistic_l2", steps="theory_a", clients=2, per_client=4, batch=2, updates=9,
                      profile="quick")


def test_client_batches_are_uniform_b_subsets():
    # the equal weight of every pattern: draw_client_batches picks each 2-subset of 4 with probability 1/6
    rng = np.random.default_rng(0)
    idx = np.arange(4)[None, :]
    draws = np.array([tuple(sorted(alg.draw_client_batches(rng, idx, 2)[0])) for _ in range(12000)])
    _, counts = np.unique(draws, axis=0, return_counts=True)
    assert counts.size == 6 and np.all(np.abs(counts / 12000 - 1 / 6) < 4 * np.sqrt(1 / 6 * 5 / 6 / 12000))


def test_a_run_uses_the_scripted_batches_and_replays_identically():
    instance = X.build_instance(TWO, 0)
    pattern = np.array([[[0, 2], [1, 2]], [[0, 1], [0, 2]]])
    trace = X.pattern_trace(TWO, instance, pattern)
    used = np.sort(trace.batches, axis=2)
    assert np.array_equal(used, np.sort(X.pattern_batches(instance, pattern), axis=2))
    # the failing-pattern replay (sample indices through SSCAParams.replay_batches) is the same run
    again = X.replay_trace(TWO, instance, X.pattern_batches(instance, pattern))
    assert np.array_equal(again.omega_final, trace.omega_final)
    assert np.array_equal(again.monitor["descent"], trace.monitor["descent"], equal_nan=True)


def test_a_changed_sampling_rule_fails_loudly(monkeypatch):
    instance = X.build_instance(ONE, 0)
    pattern = np.zeros((3, 1, 1), dtype=np.intp)
    # a rule that keeps the LARGEST keys draws other batches than the script: the run must refuse
    def largest(rng, client_indices, batch):
        keys = rng.random(client_indices.shape)
        return np.take_along_axis(client_indices, np.argsort(keys, axis=1)[:, -batch:], axis=1)

    monkeypatch.setattr(alg, "draw_client_batches", largest)
    with pytest.raises(AssertionError, match="scripted minibatches"):
        X.pattern_trace(ONE, instance, pattern)


def test_the_tiny_instances_have_exact_failure_probabilities():
    from repro.scripted import FailureCount
    for config, count in ((ONE, 27), (TWO, 81)):
        arrays, meta = X.run_exact(config, 0)
        (k,) = [FailureCount.from_json(d) for d in meta["failure_counts"]]
        assert k.patterns == count and k.probability == Fraction(k.failed, count)
        assert float(arrays["failure_probability"]) == k.probability and meta["law"]["probability_total"] == "1"
        assert k.halved_probability == Fraction(k.halved_failed, count)
        # (51) follows from the descent lemma with the global L_hat: no pattern breaks it
        assert k.probability == 0 and k.failing == [] and float(arrays["worst_ratio"]) < 1 and k.observed <= k.bound
        assert k.claim == "ssca.lemma4" and meta["instance"]["updates"] == config.updates


def test_the_probabilities_sum_over_the_patterns():
    e = X.enumerate_patterns(ONE, 1, mu_factor=2.0)
    instance = X.build_instance(ONE, 1)
    failed = sum(X.fails(X.lemma4_on(X.pattern_trace(ONE, instance, p), instance.check, mu_factor=2.0))
                 for p in X.patterns(3, 1, 1, 3))
    k = e["count"]
    assert k.probability == Fraction(failed, 27) and k.patterns == 27
    # P(fails) + P(holds) = 1: each pattern carries 1/27
    assert k.probability + Fraction(27 - failed, 27) == 1


def test_a_mutated_lemma4_is_caught():
    # (51) with mu doubled through lemma4_outcome's arguments: some instance must show a positive probability,
    # with failing patterns that are the sample indices of Algorithm 1's batches
    found = []
    for config in (ONE, TWO):
        k = X.enumerate_patterns(config, 0, mu_factor=2.0)["count"]
        assert 0 <= k.probability <= 1
        found.append(k.probability)
        if k.probability > 0:
            instance = X.build_instance(config, 0)
            trace = X.replay_trace(config, instance, k.failing[0])
            assert X.fails(X.lemma4_on(trace, instance.check, mu_factor=2.0))
            assert not X.fails(X.lemma4_on(trace, instance.check))
    assert max(found) > 0
