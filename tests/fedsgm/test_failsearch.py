"""FedSGM's failure-probability search (repro.papers.fedsgm.runs.failsearch): on the degenerate instances (the
constraint's gradient on a coordinate axis, w0 - w* normal to the boundary, one client, E = 1, K = 1) Theorems 1 and 2
fail with probability exactly 2^-(T-1) (every round before the last drops the constraint's coordinate, so g(w_t) =
g(w0) = G D > eps for all t in [T]); the failing pattern fails the theorem's own check; leaving out the degenerate end
of a coordinate, or the horizons where eps < G D, finds nothing."""
import functools
from fractions import Fraction

import numpy as np

from bounds.fedsgm import claims as B
from repro import exact_audit
from repro.failure_search import maximize_failure_probability
from repro.papers.fedsgm import checks as V
from repro.papers.fedsgm.algorithms import fedsgm as alg
from repro.papers.fedsgm.runs import exact as EX
from repro.papers.fedsgm.runs import failsearch as F
from repro.scripted import ScriptedKeys
from repro.search import Family
from repro.verdicts import Bearing

FIXED = {"n_clients": 1, "E": 1, "kappa": 0.0, "offset": 0.0}


def small_family(theta=(0.0, F.QUARTER_TURN), T=(5.0, 6.0)) -> Family:
    names = ("distance", "theta", "T")
    return Family("small", names, ((0.5, 2.0), theta, T), lambda x: F.decode(FIXED, names, x))


@functools.lru_cache(maxsize=None)
def search(group="hard-stated", theta=(0.0, F.QUARTER_TURN), T=(5.0, 6.0)):
    """The search over :func:`small_family` (computed once per argument: the tests share it)."""
    return maximize_failure_probability(F.objective(group), small_family(theta, T), seed=0, maxiter=1, popsize=1)


def test_the_search_finds_the_axis_aligned_failure_with_its_exact_fraction():
    result = search()
    assert result.probability == Fraction(1, 32)
    assert result.params["theta"] == 0.0 and result.params["T"] == 6 and result.count.patterns == 64
    mean_observed, mean_bound = result.count.expectation
    assert mean_observed < mean_bound                    # the in-expectation version survives


def test_the_failing_pattern_fails_the_theorems_own_check():
    """No false alarm: the first failing pattern, replayed through Algorithm 1 with the prescribed parameters and
    judged by repro.papers.fedsgm.checks.check, leaves A empty (every round's g(w_t) > eps)."""
    result = search()
    instance, w0 = F._instance(result.params)
    params = V.params_for(B.thm1, instance, T=6, E=1, switching="hard", K=1, w0=w0, record_directions=False)
    pattern = np.array(result.count.failing[0], dtype=np.int64)[:, :, None]
    trace = alg.run(instance.problem, params, ScriptedKeys(pattern))
    outcomes = V.check(B.thm1, instance, trace)
    assert all(o.hypotheses_met for o in outcomes) and EX._fails(outcomes)
    assert np.all(trace.g[:-1] > params.eps) and np.allclose(trace.w[:-1], w0)


def test_leaving_out_the_degenerate_angle_finds_nothing():
    assert search(theta=(0.3, F.QUARTER_TURN)).probability == 0


def test_every_family_reaches_the_degenerate_end_of_each_geometric_coordinate():
    """The families the run searches (FAMILIES, not the tests' small one) include the degenerate instances the module
    names: distance 0 (w0 on the boundary), offset 0, theta 0 (the axis-aligned constraint, where the failure above
    lives: leaving it out finds nothing) and kappa 0 (one kink), each as the lower end of its interval."""
    for name, (_, box) in F.FAMILIES.items():
        for coordinate in ("distance", "offset", "theta", "kappa"):
            assert box[coordinate][0] == 0.0, (name, coordinate, box[coordinate])


def test_the_horizons_are_read_from_the_theorems(monkeypatch):
    """n = E = 1 under Rand-1 of 2 coordinates (q_u = 1): eps = G D sqrt(5/T) (Theorem 1's display), so eps >= G D up
    to the tie at T = 5 and the first informative horizon is 6; the family's interval is (4, 6). Without compression
    (K = DIM, q_u = 0) eps = G D sqrt(4/T) and the interval moves to (3, 5): it follows the theorems, not a typed T."""
    assert [F.first_informative_horizon(c, 1, 1) for c in ("fedsgm.thm1", "fedsgm.thm2")] == [6, 6]
    assert F.horizons("boundary-n1-E1") == (4.0, 6.0)
    assert F.horizons("boundary-clients-steps")[1] > 6.0           # E = 2 needs longer horizons than E = 1
    monkeypatch.setattr(F.EX, "K", F.EX.DIM)
    F.horizons.cache_clear()
    try:
        assert F.horizons("boundary-n1-E1") == (3.0, 5.0)
    finally:
        F.horizons.cache_clear()


def test_horizons_where_eps_exceeds_G_D_find_nothing():
    """T <= 5 (n = 1, E = 1): eps = G D sqrt(5/T) >= G D >= g(w0), so round 0 is in A; T = 5 is an exact tie
    g(w0) = eps, which the robustness guard (D moved by RHO) does not count."""
    assert search(T=(4.0, 5.0)).probability == 0


def test_the_run_records_every_theorem_of_its_group_and_the_evidence_violates(monkeypatch):
    monkeypatch.setitem(F.FAMILIES, "boundary-n1-E1", (FIXED, {"distance": (1.5, 2.0), "theta": (0.0, 0.1),
                                                               "T": (5.0, 6.0)}))
    config = F.FailSearchConfig(group="soft-stated", family="boundary-n1-E1", maxiter=1, popsize=1,
                                horizon_steps=2, profile="quick")
    arrays, meta = F.run_failsearch(config, 0)
    assert [c["claim"] for c in meta["failure_counts"]] == ["fedsgm.thm2", "fedsgm.thm7"]
    assert meta["failure_search"]["horizons"] == [[6.0, "1/32"], [7.0, "1/64"]]

    class Run:
        hash = "h"
    run = Run()
    run.arrays, run.meta = arrays, {"metadata": meta}
    ev = exact_audit.evidence([run], "fedsgm.failsearch", fails="the conclusion fails", pattern_words="patterns")
    assert [e.bearing for e in ev] == [Bearing.VIOLATES] * 2
    assert "= 1/32 exactly" in ev[0].summary and "by horizon 6: 1/32" in ev[0].summary
    assert "the in-expectation version, which the claim does not state, survives" in ev[0].summary
    assert ev[0].replay.startswith("python -m repro run fedsgm.failsearch")
