"""PC-FedAvg under every noise path (repro.papers.pcfedavg.runs.exact): the scripted signs enumerate each path once
with the law they claim, a replicate of the lockstep run is the run of its own path, the claims are judged on exact
expectations (never inconclusive), Lemma 4.4's failure probability is an exact fraction, a doubled constant is
caught, and the audit turns the runs into "exact probability" evidence."""
import dataclasses
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from bounds.pcfedavg import claims as B
from repro.papers.pcfedavg import audit as A
from repro.papers.pcfedavg import checks as V
from repro.papers.pcfedavg.algorithms import pcfedavg as alg
from repro.papers.pcfedavg.runs import exact as X
from repro.papers.pcfedavg.runs import theory
from repro.scripted import SignPaths
from repro.verdicts import Bearing, method_of

TINY = X.ExactConfig(family="quadratic", sets=["box"], m=2, n=1, H=2, R=2, nu=1.0, profile="quick")


def _signs(script: SignPaths, calls: int) -> np.ndarray:
    return np.concatenate([script.normal(0.0, 1.0, (script.paths,) + script.cell).reshape(script.paths, -1)
                           for _ in range(calls)], axis=1)


def test_every_sign_path_appears_once_with_the_rademacher_law():
    script = SignPaths(3, (2, 1))
    signs = _signs(script, 3)
    assert script.paths == 64 and signs.shape == (64, 6)
    assert len({tuple(row) for row in signs}) == 64 and set(np.unique(signs)) == {-1.0, 1.0}
    assert np.all(signs.mean(axis=0) == 0) and np.all((signs ** 2).mean(axis=0) == 1)
    # pairwise independent entries: every product of two distinct entries has mean 0
    gram = signs.T @ signs / 64
    assert np.array_equal(gram, np.eye(6))


def test_an_unscripted_draw_fails_loudly():
    script = SignPaths(1, (2, 1))
    with pytest.raises(AssertionError, match="unscripted"):
        script.normal(0.0, 1.0, (3, 2, 1))
    script.normal(0.0, 1.0, (4, 2, 1))
    with pytest.raises(AssertionError, match="unscripted"):
        script.normal(0.0, 1.0, (4, 2, 1))


class _OnePath:
    """Replays one path of a SignPaths enumeration as a single-replicate run."""

    def __init__(self, signs: np.ndarray, cell):
        self.signs, self.cell, self.calls = signs.reshape((-1,) + tuple(cell)), tuple(cell), 0

    def normal(self, loc, scale, size):
        out = loc + scale * self.signs[self.calls].reshape(size)
        self.calls += 1
        return out


def test_a_replicate_is_the_run_of_its_own_path():
    script = SignPaths(TINY.R * TINY.H, (TINY.m, TINY.n))
    problem, ref, params, _, _ = theory.prepare(TINY.setup(script.paths), 0)
    lockstep = alg.run(problem, params, script)
    signs = _signs(SignPaths(TINY.R * TINY.H, (TINY.m, TINY.n)), TINY.R * TINY.H)
    single = dataclasses.replace(params, replicates=1)
    for j in (0, 5, script.paths - 1):
        alone = alg.run(problem, single, _OnePath(signs[j], (TINY.m, TINY.n)))
        np.testing.assert_allclose(alone.z[0], lockstep.z[j], rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(alone.records["gap"][0], lockstep.records["gap"][j], rtol=1e-10, atol=1e-14)


def test_claims_are_judged_on_exact_expectations():
    arrays, meta = X.run_exact(TINY, 0)
    paths = 2 ** (TINY.m * TINY.n * TINY.R * TINY.H)
    assert int(arrays["paths"]) == paths and meta["bits"] == 8
    assert not arrays["inconclusive"].any()                      # no Monte-Carlo error to straddle
    # every check is judged by the exact mean over the enumerated paths, not by a Monte-Carlo margin (on this instance
    # no claim sits within the margin, so the verdicts alone would not tell the two rules apart)
    # (Lemma 4.4 is pathwise and (12) deterministic: they carry no expectation rule)
    rules = [d["rule"] for d in meta["details"] if "rule" in d]
    assert len(rules) >= len(meta["details"]) - 2 and all(r.startswith("exact mean") for r in rules)
    assert set(arrays["claim_id"]) == set(V.THEORY_CLAIM_IDS)
    p = Fraction(meta["lemma44_failure_probability"])
    assert p == 0 and float(arrays["lemma44_failure_probability"]) == 0.0
    counted = arrays["paths_exceeding"][~np.isnan(arrays["paths_exceeding"])]
    assert counted.size and np.all((0 <= counted) & (counted <= paths))
    assert np.isnan(arrays["paths_exceeding"][arrays["claim_id"] == "pcfedavg.eq12"]).all()


def _lemma44_excess_paths(claim, seed: int = 0) -> tuple[int, int]:
    script = SignPaths(TINY.R * TINY.H, (TINY.m, TINY.n))
    problem, ref, params, _, _ = theory.prepare(TINY.setup(script.paths), seed)
    trace = alg.run(problem, params, script)
    outcome = V.check(claim, V.Instance(problem, ref, exact=True), trace)[0]
    return outcome.details["replicates_exceeding"], script.paths


def test_a_doubled_lemma44_constant_fails_with_positive_exact_probability():
    gap = next(s for s in B._rhs44.free_symbols if s.name == "gap")
    doubled = dataclasses.replace(B.lemma44, conclusion=(sp.Le(B.inner, B._rhs44.subs(gap, 2 * gap)),))
    failing, paths = _lemma44_excess_paths(doubled)
    assert 0 < failing <= paths
    assert _lemma44_excess_paths(B.lemma44) == (0, paths)


def test_a_halved_bound_in_expectation_is_violated_exactly():
    # Lemma 4.6 sits near its bound on the tiny instance: half of it is exceeded in exact expectation
    arrays, _ = X.run_exact(TINY, 0)
    idx = np.flatnonzero(arrays["claim_id"] == "pcfedavg.lemma4.6")
    assert float(arrays["ratio"][idx].max()) > 0.5
    script = SignPaths(TINY.R * TINY.H, (TINY.m, TINY.n))
    problem, ref, params, _, _ = theory.prepare(TINY.setup(script.paths), 0)
    trace = alg.run(problem, params, script)
    dist_next = next(s for s in B.lemma46.conclusion[0].lhs.free_symbols if s.name == "dist_next")
    halved = dataclasses.replace(B.lemma46, conclusion=(sp.Le(dist_next, B.lemma46.conclusion[0].rhs / 2),))
    outcome = V.check(halved, V.Instance(problem, ref, exact=True), trace)[0]
    assert not outcome.passed and not outcome.inconclusive


def test_the_config_refuses_too_many_paths_and_no_noise():
    with pytest.raises(ValueError, match="R"):
        X.ExactConfig(family="quadratic", sets=["box"], m=2, n=2, H=2, R=3, nu=1.0, profile="quick")
    with pytest.raises(ValueError, match="nu"):
        X.ExactConfig(family="quadratic", sets=["box"], m=2, n=1, H=2, R=2, nu=0.0, profile="quick")


def test_the_audit_reads_the_runs_as_exact_probability_evidence():
    arrays, meta = X.run_exact(TINY, 0)
    run = type("Run", (), {"hash": "abc", "arrays": arrays, "meta": {"metadata": meta},
                           "spec": type("Spec", (), {"config": TINY.as_dict(), "seed": 0})()})()
    evidence = A._exact_evidence([run])
    assert {e.claim for e in evidence} == set(V.THEORY_CLAIM_IDS)
    assert all(method_of(e) == "exact probability" and e.bearing == Bearing.SUPPORTS for e in evidence)
    row = A._exact_row(run)
    assert row[1] == 256 and row[2] == "0" and "lemma4.6" in row[3]
