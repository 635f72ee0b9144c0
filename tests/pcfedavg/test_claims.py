"""Lemmas 4.3-4.6, Proposition 4.7 and 4.8 (i)-(iii) on hypothesis-generated instances.

Each test draws an instance (family, sets and radii, m, n, H, R, sigma_i, rho, noise nu, start), runs
Algorithm 1 on the (CR) path the analysis differentiates with S Monte-Carlo replicates and the
admissible step size (a fraction of min{1/(6 L_G), 1/(5 L_G (H-1))}), and checks the claim with
``repro.papers.pcfedavg.checks.check`` through ``repro.verify.check_claims`` (the printed formulas of
``bounds.pcfedavg``, lambdified).

Meta-tests show that each check can fail: the same code, given the claim with its bound shrunk
below the observed value (or a lower bound raised above it), reports a violation.
"""
import dataclasses

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds.pcfedavg import claims as B
from repro.papers.pcfedavg.algorithms import pcfedavg as alg
from repro.papers.pcfedavg.runs import theory as T
from repro.papers.pcfedavg.problems.instances import random_instance
from repro.papers.pcfedavg import checks as V
from repro.verify import check_claims

CHECKED = ("pcfedavg.lemma4.3", "pcfedavg.lemma4.4", "pcfedavg.lemma4.5", "pcfedavg.lemma4.6",
           "pcfedavg.prop4.7", "pcfedavg.prop4.8.i", "pcfedavg.prop4.8.ii", "pcfedavg.prop4.8.iii",
           "pcfedavg.eq12")

instances = st.fixed_dictionaries({
    "seed": st.integers(0, 2**20),
    "family": st.sampled_from(["quadratic", "logistic"]),
    "sets": st.lists(st.sampled_from(["box", "l2_ball", "l1_ball", "whole"]), min_size=1, max_size=3),
    "m": st.integers(2, 5),          # Prop 4.8 (ii) is checked separately for larger m (test below)
    "n": st.integers(1, 3),
    "H": st.integers(1, 4),
    "R": st.integers(3, 8),
    "nu": st.sampled_from([0.0, 0.3, 1.0]),
    "rho": st.floats(0.3, 30.0),
    "gamma_frac": st.sampled_from([1.0, 0.5, 0.1]),
    "sigma": st.sampled_from(["hetero", 0.01, 1.0]),
    "target_scale": st.sampled_from([0.0, 1.0, 4.0]),
})


def _run(inst, S=16):
    rng = np.random.default_rng(inst["seed"])
    problem, z0 = random_instance(rng, m=inst["m"], n=inst["n"], family=inst["family"],
                                  set_kinds=tuple(inst["sets"]), target_scale=inst["target_scale"],
                                  sigma=inst["sigma"], nu=inst["nu"])
    ref = problem.solve(inst["rho"], z0)
    params = alg.PCFedAvgParams(gamma=inst["gamma_frac"] * problem.gamma_max(inst["rho"], inst["H"]),
                                rounds=inst["R"], local_steps=inst["H"], x0=z0, rho=inst["rho"], path="compact",
                                replicates=S, record="full", reference=ref)
    trace = alg.run(problem, params, rng)
    return problem, ref, trace


def _outcomes(claim, problem, ref, trace):
    """The outcomes of ``claim`` (an id: the paper's claim; or a Claim, e.g. one with perturbed constants)."""
    claim = B.claim(claim) if isinstance(claim, str) else claim
    return check_claims(V.check, [claim], V.Instance(problem, ref), trace)


@pytest.mark.parametrize("claim_id", CHECKED)
@settings(max_examples=6)
@given(inst=instances)
def test_check_reports_consistent_outcomes_on_admissible_instances(claim_id, inst):
    """The check reports what it computes on every admissible instance: the hypotheses are met, every outcome is
    judged, and a reported violation shows in its own numbers (worst observed beyond its bound). (Whether the paper's bound holds is the
    audit's verdict, not an assumption: Prop. 4.8 (ii) fails on the one-active instance below.)"""
    problem, ref, trace = _run(inst)
    outs = _outcomes(claim_id, problem, ref, trace)
    assert outs, claim_id
    for o in outs:
        assert o.hypotheses_met, (claim_id, o.relation)
        assert isinstance(o.passed, bool) and isinstance(o.inconclusive, bool)
        assert not (o.inconclusive and not o.passed)              # inconclusive is never also a violation
        assert o.n_checked >= 1 and np.isfinite(o.observed) and np.isfinite(o.bound), (claim_id, o)
        if not o.passed:                                          # a violation is one of its own numbers
            assert (o.observed < o.bound) if claim_id == "pcfedavg.prop4.8.iii" else (o.observed > o.bound), o


def _scaled(claim, factor=None, shift=None):
    """A copy of ``claim`` whose bound is multiplied by ``factor`` or moved by ``shift``."""
    rels = []
    for rel in claim.relations:
        rhs = rel.rhs * factor if factor is not None else rel.rhs + shift
        rels.append(rel.func(rel.lhs, rhs, evaluate=False))
    return dataclasses.replace(claim, conclusion=tuple(rels))


FIXED = {"seed": 3, "family": "quadratic", "sets": ["box", "l2_ball", "l1_ball"], "m": 4, "n": 3, "H": 3,
         "R": 6, "nu": 0.5, "rho": 3.0, "gamma_frac": 1.0, "sigma": "hetero", "target_scale": 4.0}


@pytest.mark.parametrize("claim_id", CHECKED)
def test_each_check_can_fail(claim_id):
    """Shrinking the bound below what the run shows (or raising a lower bound above it) is caught."""
    problem, ref, trace = _run(FIXED, S=32)
    honest = _outcomes(claim_id, problem, ref, trace)
    claim = B.claim(claim_id)
    if claim_id == "pcfedavg.prop4.8.iii":
        gap = max(o.observed - o.bound for o in honest)          # how far the lower bound is below
        perturbed = _scaled(claim, shift=sp.Float(1.5 * gap + 1e-3))
    elif claim_id == "pcfedavg.lemma4.4":
        perturbed = _scaled(claim, shift=sp.Float(-10.0))      # deterministic: any real shift below fails
    else:
        ratios = [o.ratio for o in honest if np.isfinite(o.ratio) and o.ratio > 0]
        perturbed = _scaled(claim, factor=sp.Float(0.5 * max(ratios)))
    broken = _outcomes(perturbed, problem, ref, trace)
    assert not all(o.passed for o in broken), claim_id


def test_lemma46_on_the_printed_path_is_reported_not_assumed():
    """Lemma 4.6 rests on (L4.6-a), which line 8 as printed does not satisfy: the check runs on the
    printed path too and the (L4.6-a) residual is measured, not assumed zero."""
    inst = FIXED | {"nu": 0.0}
    rng = np.random.default_rng(1)
    problem, z0 = random_instance(rng, m=4, n=3, set_kinds=("box",), target_scale=4.0, sigma=1.0, nu=0.0)
    ref = problem.solve(inst["rho"], z0)
    params = alg.PCFedAvgParams(gamma=problem.gamma_max(3.0, 3), rounds=6, local_steps=3, x0=z0, rho=3.0,
                                path="printed", replicates=1, record="full", reference=ref)
    trace = alg.run(problem, params, rng)
    assert V.cr_consistency(trace)["max_residual"] > 1e-6
    assert _outcomes("pcfedavg.lemma4.6", problem, ref, trace)


@pytest.mark.parametrize("m, fails", [(4, False), (16, True)])
def test_prop48ii_one_active_instance(m, fails):
    """Audit evidence: with one active agent, nu = 0, H = 1 and the admissible step size, E[d_1^2]
    tends to m^2 D / rho^2 while Prop 4.8 (ii) prints 5 m D / rho^2: violated for m = 16."""
    config = T.OneActiveConfig(m=m, K=20000, rho=10.0, sigma=1.0, target=3.0, profile="quick")
    arrays, _ = T.run_one_active(config, 0)
    assert bool(arrays["hypotheses_met"])
    assert bool(arrays["ratio"] > 1.0) is fails
    # The first term through (12), 5 m^2 D / rho^2 as encoded, covers the observed value in both cases.
    via_12 = 5 * B.TERMS_12[0] ** 2
    assert float(arrays["infeas"].max()) <= float(via_12.subs({B.m: m, B.D: float(arrays["D"]), B.rho: config.rho}))


def test_check_dispatches_every_checked_claim_and_refuses_the_others():
    """One entry for every run-level claim, in the order the theory runs report them; a claim without a run-level
    check, or Lemmas 4.1-4.2 without random pairs, is a one-line error."""
    problem, ref, trace = _run(FIXED, S=16)
    order = ["pcfedavg.lemma4.3", "pcfedavg.lemma4.6", "pcfedavg.lemma4.4", "pcfedavg.lemma4.5",
             "pcfedavg.lemma4.5", "pcfedavg.prop4.7", "pcfedavg.prop4.8.i", "pcfedavg.prop4.8.iii",
             "pcfedavg.prop4.8.ii", "pcfedavg.eq12", "pcfedavg.lemma4.1.i", "pcfedavg.lemma4.1", "pcfedavg.lemma4.2"]
    pairs = V.sample_pairs(problem, np.random.default_rng(0), pairs=20)
    outcomes = check_claims(V.check, V.THEORY_CLAIMS + V.PAIR_CLAIMS, V.Instance(problem, ref, pairs), trace)
    assert [o.claim_id for o in outcomes] == order           # Lemma 4.5: rounds r >= 1, then round 0
    assert all(isinstance(o.passed, bool) for o in outcomes)
    with pytest.raises(ValueError, match="pcfedavg.remark3.5.subopt has no run-level check"):
        V.check(B.claim("pcfedavg.remark3.5.subopt"), V.Instance(problem, ref), trace)
    with pytest.raises(ValueError, match="random point pairs"):
        V.check(V.PAIR_CLAIMS[0], V.Instance(problem, ref), trace)
