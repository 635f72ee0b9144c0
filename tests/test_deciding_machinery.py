"""The machinery that decides verdicts, tested against references: the confidence intervals of noisy comparisons and
Monte-Carlo expectations against ``scipy.stats`` (so that a normal quantile in place of Student's t, or n degrees of
freedom in place of n - 1, fails here), and every exact enumeration for completeness (every pattern once, their
probabilities summing to exactly 1: an enumeration that skips every other pattern fails here)."""
import itertools
from math import comb

import numpy as np
import pytest
from scipy import stats

from repro.comparisons import interval
from repro.scripted import IncompleteLaw, ScriptedKeys, SignPaths, uniform_law
from repro.verify import mean_confidence_interval


# ---------------------------------------------------------------------------- intervals
@pytest.mark.parametrize("n", [2, 3, 5])
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_intervals_are_student_t_with_n_minus_one_degrees_of_freedom(n, level):
    x = np.random.default_rng(np.random.SeedSequence([n, 7])).normal(1.0, 2.0, size=n)
    low, high = stats.t.interval(level, df=n - 1, loc=x.mean(), scale=stats.sem(x))
    mean, lo, hi = mean_confidence_interval(x, level)
    assert (mean, lo, hi) == pytest.approx((x.mean(), low, high), rel=1e-12)
    ci = interval(x, level)
    assert (ci.mean, ci.low, ci.high, ci.n) == pytest.approx((x.mean(), low, high, n), rel=1e-12)
    # the faults this test is for: a normal quantile, or n degrees of freedom, gives another interval
    normal = stats.norm.interval(level, loc=x.mean(), scale=stats.sem(x))
    wide_df = stats.t.interval(level, df=n, loc=x.mean(), scale=stats.sem(x))
    assert abs(lo - normal[0]) > 1e-3 * abs(normal[0] - x.mean()) and abs(lo - wide_df[0]) > 1e-6


# ---------------------------------------------------------------------------- the law of an enumeration
def test_the_law_check_sees_a_skipped_or_a_repeated_pattern():
    everything = [np.array(p) for p in itertools.product(range(3), repeat=3)]
    assert sum(p for _, p in uniform_law(everything, 27)) == 1
    with pytest.raises(IncompleteLaw, match="14 patterns enumerated, the law has 27"):
        list(uniform_law(everything[::2], 27))
    with pytest.raises(IncompleteLaw, match="twice"):
        list(uniform_law(everything + everything[:1], 28))


def _complete(patterns, count):
    """Each of the law's ``count`` equally likely patterns exactly once (so their probabilities 1/count sum to 1)."""
    keys = [np.ascontiguousarray(p).tobytes() for p in patterns]
    return len(keys) == len(set(keys)) == count


def test_every_enumeration_of_the_suite_is_its_whole_law():
    from repro.papers.fedclup.runs.exact import batch_sequences
    from repro.papers.fedsgm.runs import exact as FE
    from repro.papers.ssca.runs import exact as SE
    assert _complete(FE.patterns(2, 3), comb(FE.DIM, FE.K) ** 6)
    assert _complete(SE.patterns(3, 1, 2, 2), comb(3, 1) ** 4) and _complete(SE.patterns(4, 2, 1, 2), comb(4, 2) ** 2)
    assert _complete(batch_sequences(4, 2, 3).transpose(1, 0, 2), comb(4, 2) ** 3)
    paths = SignPaths(3, (2, 1))
    signs = np.concatenate([paths.normal(0.0, 1.0, (paths.paths, 2, 1)).reshape(paths.paths, -1)
                            for _ in range(3)], axis=1)
    assert _complete(signs, 2 ** 6) and paths.law() == {"patterns": 64, "probability_total": "1"}


def test_scripted_keys_replay_exactly_the_pattern_they_are_given():
    pattern = np.array([[[0], [2]], [[1], [0]]])              # two draws, two rows, one position each
    keys = ScriptedKeys(pattern)
    assert [np.flatnonzero(row == 0).tolist() for row in keys.random((2, 3))] == [[0], [2]]
    assert keys.integers(0, 3, size=(2, 1)).tolist() == [[1], [0]] and keys.calls == 2


@pytest.mark.parametrize("paper", ["fedsgm", "ssca", "fedclup", "pcfedavg"])
def test_every_exact_run_records_its_whole_law(paper):
    """Each paper's exact run on a tiny instance: every pattern visited once, probabilities summing to 1."""
    config, expected = {
        "fedsgm": ({"family": "max_affine", "n_clients": 1, "E": 1, "T": 3, "w0_scale": 0.3,
                    "constants": "hard-stated", "profile": "quick"}, 8),
        "ssca": ({"problem": "logistic_l2", "steps": "theory_a", "clients": 1, "per_client": 3, "batch": 1,
                  "updates": 2, "d": 1, "profile": "quick"}, 9),
        "fedclup": ({"kappa": 8.0, "lam": 0.1, "batch": 1, "local_steps": 2, "profile": "quick"}, 16),
        "pcfedavg": ({"family": "quadratic", "sets": ["box"], "m": 2, "n": 1, "H": 1, "R": 2, "nu": 1.0,
                      "path": "compact", "profile": "quick"}, 16)}[paper]
    import importlib
    module = importlib.import_module(f"repro.papers.{paper}.runs.exact")
    _, meta = module.run_exact(module.ExactConfig(**config), 0)
    assert meta["law"] == {"patterns": expected, "probability_total": "1"}
