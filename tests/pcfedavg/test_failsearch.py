"""PC-FedAvg's failure-probability search (repro.papers.pcfedavg.runs.failsearch): Lemma 4.4, stated pathwise, gets
the computed failure probability 0 over the structured degenerate families, while the same search finds a planted
perturbation (the drift term L_G/m sum_i delta_{i,k} dropped: the bound tightened) with a positive exact probability
whose failing path fails the perturbed check; an exact tie of the two sides (every block at x*_rho) is not counted,
a shift beyond the check's tolerance is; the run's record reads as evidence, on its reading of Algorithm 1."""
import dataclasses
import functools
from fractions import Fraction

import numpy as np
import sympy as sp

from bounds.pcfedavg import claims as B
from repro.failure_search import maximize_failure_probability
from repro.papers.pcfedavg import audit as A
from repro.papers.pcfedavg import checks as V
from repro.papers.pcfedavg.runs import failsearch as F
from repro.search import Family
from repro.verdicts import Bearing

#: the bound tightened: Lemma 4.4 without its drift term
NO_DRIFT = dataclasses.replace(B.lemma44, conclusion=(sp.Le(B.inner, -2 * B.gap),))
FIXED = {"m": 2, "H": 2, "R": 1, "depth": 0.0, "spread": 1.0, "curvature": 1.0, "rho": 1.0, "nu": 1.0}


def shifted(amount: float):
    """Lemma 4.4 with its right side lowered by ``amount``."""
    return dataclasses.replace(B.lemma44, conclusion=(sp.Le(B.inner, -2 * B.gap + B.L_G_EXPR * B.drift - amount),))


def small_family() -> Family:
    names = ("width", "target", "step")
    return Family("small", names, ((0.0, 2.0), (0.0, 3.0), (0.05, 2.0)), lambda x: F.decode(FIXED, names, x))


@functools.lru_cache(maxsize=None)
def search(claim_name: str):
    claim = {"lemma44": B.lemma44, "no_drift": NO_DRIFT}[claim_name]
    return maximize_failure_probability(functools.partial(F.enumerate_instance, claim=claim), small_family(), seed=0,
                                        maxiter=1, popsize=1)


def test_the_planted_perturbation_is_found_with_its_exact_fraction():
    result = search("no_drift")
    assert result.probability > 0 and result.count.patterns == 16
    assert result.probability == Fraction(result.count.failed, 16)


def test_lemma44_itself_gets_probability_zero_on_the_same_family():
    result = search("lemma44")
    assert result.probability == 0 and result.instances >= 8
    mean_observed, mean_bound = result.count.expectation
    assert mean_observed <= mean_bound


def test_the_failing_path_fails_the_perturbed_check_and_not_lemma44():
    """No false alarm: the best instance's failing path, replayed, exceeds the perturbed bound beyond the check's
    tolerance at some k, and satisfies Lemma 4.4 as printed at every k."""
    result = search("no_drift")
    problem, reference, trace, _ = F.run_paths(dict(result.params), "compact")
    j = result.count.failing[0]
    values = V.parameter_values(problem, reference, trace.params) | V.observed(trace)
    tol = V.reference_tolerance(reference)
    assert np.any(values["inner"][j] - V.claim_bound(NO_DRIFT, "inner", values)[j] > tol)
    assert np.all(values["inner"][j] - V.claim_bound(B.lemma44, "inner", values)[j] <= tol)
    assert F.path_count(B.lemma44, problem, reference, trace).failed == 0


def test_a_tie_is_not_counted_and_a_shift_beyond_the_tolerance_is():
    """Width 0 and target 0: x* = x*_rho = z_0 = 0, so at k = 0 both sides are exactly 0 on every path."""
    params = F.decode(FIXED, ("width", "target", "step"), np.array([0.0, 0.0, 1.0]))
    assert F.enumerate_instance(params, claim=shifted(1e-13)).probability == 0
    assert F.enumerate_instance(params, claim=shifted(1e-3)).probability == 1


def test_too_many_sign_bits_are_inadmissible():
    params = F.decode(FIXED, (), np.array([])) | {"R": F.MAX_BITS, "width": 1.0, "target": 1.0, "step": 1.0}
    assert F.enumerate_instance(params) is None


def test_the_run_reads_as_evidence_on_its_reading(monkeypatch):
    monkeypatch.setitem(F.FAMILIES, "boundary-two-agents", (FIXED, {"width": (0.7, 0.8), "target": (2.8, 3.0),
                                                                     "step": (1.85, 1.95)}))
    config = F.FailSearchConfig(family="boundary-two-agents", path="printed", maxiter=1, popsize=1, horizon_steps=2,
                                profile="quick")

    class Run:
        hash = "h"
        spec = type("Spec", (), {"config": config.as_dict()})()

    verdicts = []
    for claim in (B.lemma44, NO_DRIFT):
        run = Run()
        run.arrays, meta = F.run_failsearch(config, 0, claim=claim)
        run.meta = {"metadata": meta}
        (ev,) = A._failsearch_evidence([run])
        assert ev.reading == A._reading(run) and "by horizon 1:" in ev.summary
        verdicts.append(ev.bearing)
    assert verdicts == [Bearing.SUPPORTS, Bearing.VIOLATES]
    assert ev.replay.startswith("python -m repro run pcfedavg.failsearch")
