"""The failure-probability search (repro.failure_search) on a planted randomized claim whose conclusion fails with
probability 2^-k only on a degenerate instance: a start ON the constraint boundary, with ONE client, at the SMALLEST
horizon k. The search is given the family and an enumeration of the algorithm's randomness, never the instance."""
from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from repro.failure_search import (FailureSearchRecord, horizon_profile, maximize_failure_probability, objective)
from repro.scripted import FailureCount, uniform_law
from repro.search import Family

K = 5                       # the smallest horizon of the family: the planted failure probability is 2^-K
MAX_PATTERNS = 2 ** 12


def planted_run(distance: float, step: float, signs: np.ndarray) -> float:
    """A switching method on X = {x <= 1}, started at distance ``distance`` inside the boundary: on or outside the
    boundary (x >= 1) it takes a compressed step whose direction is random, outward by h when every client's
    Rademacher sign is +1 and back to 1 - h otherwise; strictly inside it steps inward by h/2. Returns x_T."""
    x = 1.0 - distance
    for row in signs:
        x = (x + step if row.min() > 0 else 1.0 - step) if x >= 1.0 else x - step / 2
    return x


def enumerate_planted(params: dict, slack: float = 0.0) -> FailureCount | None:
    """Every sign pattern of ``params`` (T rounds x n clients, equally likely) judged against the planted
    deterministic claim "x_T <= 1 + slack" (FailureCount); None beyond the enumeration budget."""
    T, n = params["T"], params["n"]
    if 2 ** (T * n) > MAX_PATTERNS:
        return None
    count = FailureCount("planted.feasible_output")
    signs = (np.array(p).reshape(T, n) for p in itertools.product((1.0, -1.0), repeat=T * n))
    for pattern, _ in uniform_law(signs, 2 ** (T * n)):
        x = planted_run(params["distance"], params["step"], pattern)
        count.add(pattern.tolist(), x > 1.0 + slack + 1e-12, x, 1.0 + slack)
    return count


def decode(x: np.ndarray) -> dict:
    return {"distance": float(x[0]), "step": float(x[1]), "n": int(round(x[2])), "T": int(round(x[3]))}


FAMILY = Family("planted", ("distance to the boundary", "step", "clients", "horizon"),
                ((0.0, 1.0), (0.1, 1.0), (1.0, 3.0), (float(K), K + 3.0)), decode)


def test_search_finds_the_degenerate_failure_with_its_exact_fraction():
    result = maximize_failure_probability(enumerate_planted, FAMILY, seed=0, maxiter=4, popsize=4)
    assert result.probability == Fraction(1, 2 ** K)
    assert result.params["distance"] == 0.0 and result.params["n"] == 1 and result.params["T"] == K
    assert result.count.failed == 1 and result.count.patterns == 2 ** K
    assert result.count.observed > result.count.bound == 1.0        # the claim's own sides at the failing pattern


def test_the_failure_probability_scales_as_two_to_the_minus_horizon():
    result = maximize_failure_probability(enumerate_planted, FAMILY, seed=0, maxiter=4, popsize=4)
    profile = horizon_profile(enumerate_planted, result.params, "T", 4)
    assert profile == [(K + j, Fraction(1, 2 ** (K + j))) for j in range(4)]


def test_the_in_expectation_version_survives_where_the_deterministic_one_fails():
    count = enumerate_planted({"distance": 0.0, "step": 1.0, "n": 1, "T": K})
    mean_observed, mean_bound = count.expectation
    exact = np.mean([planted_run(0.0, 1.0, np.array(p, float).reshape(K, 1))
                     for p in itertools.product((1, -1), repeat=K)])
    assert mean_observed == pytest.approx(exact) and mean_observed < mean_bound == 1.0 and count.failed == 1


def test_plain_differential_evolution_misses_it():
    """Without the box's vertices and the widened ends, no start lies exactly on the boundary: the same budget finds
    nothing. This is what the degenerate-instance mechanism adds."""
    result = maximize_failure_probability(enumerate_planted, FAMILY, seed=0, maxiter=4, popsize=4, snap=0.0,
                                          corners=False)
    assert result.probability == 0 and result.params["distance"] > 0.0


def test_widened_ends_alone_find_it_without_the_vertices():
    result = maximize_failure_probability(enumerate_planted, FAMILY, seed=1, maxiter=6, popsize=6, corners=False)
    assert result.probability == Fraction(1, 2 ** K)


def test_a_claim_that_holds_everywhere_reports_probability_zero():
    """No false alarm: with the bound 1 + h T the planted claim holds on every pattern of every instance."""
    def holds(params):
        return enumerate_planted(params, slack=params["step"] * params["T"])
    result = maximize_failure_probability(holds, FAMILY, seed=0, maxiter=3, popsize=4)
    assert result.probability == 0 and result.count.failed == 0


def test_the_tie_break_never_outranks_a_probability():
    one = FailureCount("c", patterns=2 ** 20, failed=1, observed=0.0, bound=1.0)
    none = FailureCount("c", patterns=2, failed=0, observed=1.0 - 1e-9, bound=1.0)
    assert objective(one) > objective(none) and objective(None) == float("-inf")


def test_the_record_round_trips_through_a_run():
    result = maximize_failure_probability(enumerate_planted, FAMILY, seed=0, maxiter=2, popsize=4)
    record = FailureSearchRecord("planted.feasible_output", result, ((K, Fraction(1, 32)),), {"note": "x"})
    arrays, meta = record.to_run()

    class Run:
        pass
    run = Run()
    run.arrays, run.meta = arrays, {"metadata": meta}
    back = FailureSearchRecord.from_run(run)
    assert back.result.probability == Fraction(1, 2 ** K) and back.horizons == ((K, Fraction(1, 32)),)
    assert back.result.count.expectation == pytest.approx(result.count.expectation)
