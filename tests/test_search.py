"""The shared adversarial search (repro.search): it finds the worst admissible instance of a known family,
treats inadmissible instances as worst, is deterministic given its seed, and is the constant-error detector."""
import math

import numpy as np
import pytest

from repro.search import Family, SearchResult, best_of, detects_halved_constant, maximize_ratio

BOX = Family("box", ("a", "b"), ((0.0, 1.0), (0.0, 2.0)), lambda x: {"a": float(x[0]), "b": float(x[1])})


def _ratio(p):
    """observed/bound of a toy claim a*b <= 2.1 whose hypothesis is a <= 0.95 (nan outside)."""
    return p["a"] * p["b"] / 2.1 if p["a"] <= 0.95 else math.nan


def test_the_search_reaches_the_worst_admissible_instance_and_never_an_inadmissible_one():
    r = maximize_ratio(_ratio, BOX, seed=1, maxiter=15)
    assert r.params["a"] <= 0.95 and r.ratio == pytest.approx(0.95 * 2 / 2.1, rel=1e-3)
    assert not r.violated and not r.loose and r.evaluations == len(r.history)
    assert np.all(np.diff(r.history) >= 0)                        # the best ratio so far never decreases


def test_the_search_is_deterministic_given_its_seed():
    assert maximize_ratio(_ratio, BOX, seed=7, maxiter=5) == maximize_ratio(_ratio, BOX, seed=7, maxiter=5)


def test_a_family_with_no_admissible_instance_reports_none_and_is_not_polished():
    r = maximize_ratio(lambda p: math.nan, BOX, seed=3, maxiter=2, popsize=3, polish_evals=20)
    assert r.ratio == -math.inf and r.params == {}
    unpolished = maximize_ratio(lambda p: math.nan, BOX, seed=3, maxiter=2, popsize=3, polish_evals=0)
    assert r.evaluations == unpolished.evaluations                # differential evolution's points only


def test_a_halved_constant_is_detected_only_where_the_bound_is_tight_enough():
    tight = maximize_ratio(_ratio, BOX, seed=1, maxiter=10)
    loose = maximize_ratio(lambda p: _ratio(p) / 10, BOX, seed=1, maxiter=10)
    assert detects_halved_constant(tight) and not detects_halved_constant(loose) and loose.loose
    # with the constant halved, the same search reports the claim violated
    assert maximize_ratio(lambda p: 2 * _ratio(p), BOX, seed=1, maxiter=10).violated
    assert best_of([loose, tight]) is tight


def test_a_family_with_a_bad_box_is_refused():
    with pytest.raises(ValueError, match="not a finite interval"):
        Family("bad", ("a",), ((1.0, 0.0),), lambda x: {})
    with pytest.raises(ValueError, match="1 names for 2 bounds"):
        Family("bad", ("a",), ((0, 1), (0, 1)), lambda x: {})
    with pytest.raises(ValueError, match="no search result"):
        best_of([])
    assert SearchResult("f", 1.5, {}, 1).violated
