"""Property-based checks of every FedSGM theorem, lemma and proof inequality, in the stated mode.

Instances are drawn by hypothesis: problem family, clients n, dimension, local steps E, rounds T,
Rand-K level, switching rule, ||w0|| and the instance seed, including tiny and degenerate sizes
(n = 1, d = 1, T = 1, E = 1, K = d, K = 1). Each run uses the theorem's own eta, eps, beta. Where the
proofs establish a statement (the lemmas, the round and summed inequalities, the theorems without compression at
constants their proofs cover) it must hold on every run; where it can fail (a theorem under compression, the
stated soft constants) the tests assert that the suite reports what it finds (a failed check makes the claim's
verdict "violated"). Expectation claims are checked against exact conditional expectations (Rand-K closed form)
per round, and by Monte Carlo for E[S_T].
``hypothesis.target`` steers the search towards large observed/bound.

Assumption named here: D = ||w0 - w*|| > 0 (at D = 0 the theorems prescribe eta = eps = 0, outside
Algorithm 1's domain eta > 0); such draws are discarded with ``assume``.
"""
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import assume, given, target
from hypothesis import strategies as st

from bounds.fedsgm import claims as B
from repro.papers.fedsgm.algorithms import fedsgm as alg
from repro.compression import RandK
from repro.errors import ConfigError
from repro.papers.fedsgm.runs import theorems as X
from repro.verify import check_claims, check_expectation, check_relation
from repro.papers.fedsgm import checks as V

THEOREM_IDS = {c.id for c in B.THEOREMS + B.PROOF_THEOREMS + (B.soft_stated_via_proof,)}
PER_RUN_IDS = {c.id for c in B.LEMMAS} | {"fedsgm.eq5", "fedsgm.R_hard", "fedsgm.R_soft",
                                         "fedsgm.algorithm1.server_step"}


@st.composite
def instance_configs(draw, constants):
    family = draw(st.sampled_from(X.FAMILIES))
    dim = 1 if family == "piecewise_linear_1d" else draw(st.integers(1, 5))
    return X.InstanceConfig(family=family, dim=dim, n_clients=draw(st.integers(1, 5)), E=draw(st.integers(1, 6)),
                            T=draw(st.sampled_from([1, 2, 5, 20, 60])),
                            K_frac=draw(st.one_of(st.none(), st.sampled_from([0.01, 0.5, 1.0]))),
                            w0_scale=draw(st.sampled_from([0.01, 0.5, 2.0, 10.0])), constants=constants)


def _evaluate(config, seed):
    """(instance, trace, outcomes) of one run of ``fedsgm.theory``'s kind."""
    problem, w0, _, _ = X.build_instance(config, seed)
    assume(problem.solve(w0).D > 1e-8)
    return X.evaluate_instance(config, seed)


def _assert_the_derived_beta_condition_is_judged_where_it_holds(config, instance, trace, outcomes):
    """The soft proof's derived condition is checked on uncompressed soft runs only, and judged exactly where the
    run's own Sigma_A (the sum of sigma_beta^t over A, recomputed here from the trace) meets
    beta >= 2 Sigma_A / ((1 - r) eps T)."""
    derived = [o for o in outcomes if o.claim_id == B.soft_stated_via_proof.id]
    assert bool(derived) == (config.K_frac is None)
    p = trace.params
    sigma_A = float(trace.sigma[trace.g[:-1] < p.eps].sum())            # Theorem 2's A = {t < T: g(w_t) < eps}
    needed = float(B.soft_beta_needed_stated.subs({B.Sigma_A: sigma_A, B.eps: p.eps, B.T: config.T, B.E: config.E,
                                                   B.q: 0, B.n: config.n_clients}))
    for o in derived:
        assert o.details["Sigma_A"] == pytest.approx(sigma_A, rel=1e-12, abs=1e-12)
        assert o.hypotheses_met == (p.beta >= needed * (1 - V.PRESCRIBED_RTOL)), (sigma_A, needed, p.beta)


def _assert_all_pass(outcomes, ids):
    checked = [o for o in outcomes if o.claim_id in ids and o.hypotheses_met]
    assert checked, "no outcome for the claims under test"
    bad = [(o.claim_id, o.relation, o.observed, o.bound, o.details) for o in checked if not o.passed]
    assert not bad, bad
    return checked


def _target_max(outcomes, keep):
    """One hypothesis.target per claim (the largest observed/bound of its kept outcomes)."""
    best = {}
    for o in outcomes:
        if keep(o) and np.isfinite(o.ratio):
            best[o.claim_id] = max(best.get(o.claim_id, -np.inf), float(o.ratio))
    for label, value in best.items():
        target(value, label=label)


def _target_subopt(outcomes):
    _target_max(outcomes, lambda o: o.claim_id in THEOREM_IDS and o.relation.startswith("subopt"))


#: constants whose theorems the appendix proofs establish without compression: the hard proofs cover the stated
#: constants (finding fedsgm.hard.constants) and their own; the soft proof covers its own constants. Under
#: compression the proofs bound expectations only (finding fedsgm.mode), and the soft proof does not cover the
#: stated soft constants (fedsgm.soft.beta): there a theorem can fail, and the test asserts what the suite reports.
PROVEN_UNCOMPRESSED = ("hard-stated", "hard-proof", "soft-proof")


def test_the_constants_asserted_to_pass_are_those_the_audit_finds_covered():
    """:data:`PROVEN_UNCOMPRESSED` follows what the suite computes, not a belief: the hard proofs cover the stated
    constants (fedsgm.hard.constants is consistent); the stated soft constants are asserted only if the soft proof
    covers them (fedsgm.soft.beta); and while fedsgm.mode finds a compressed theorem proved only in expectation, no
    compressed theorem is asserted to hold on a drawn instance (the test asserts what the audit reports instead)."""
    from bounds.fedsgm import findings as BF
    found = {f.id: f for f in BF.audit_findings(np.random.default_rng(0))}
    assert ("hard-stated" in PROVEN_UNCOMPRESSED) == (found["fedsgm.hard.constants"].verdict == "consistent")
    assert ("soft-stated" in PROVEN_UNCOMPRESSED) == (found["fedsgm.soft.beta"].verdict == "consistent")
    compressed = {c.id for c in B.THEOREMS if B.q in c.domains}       # the theorems drawn with Rand-K
    assert compressed <= set(found["fedsgm.mode"].claims)             # so they are only asserted uncompressed


def _theory_result(config, outcomes):
    """One run's outcomes as a ``fedsgm.theory`` result, as the audit reads it."""
    from types import SimpleNamespace

    from repro.verify import outcome_arrays
    arrays = outcome_arrays(outcomes) | {"q_u": np.array(0.0 if config.K_frac is None else 1.0)}
    return SimpleNamespace(hash="drawn", arrays=arrays, spec=SimpleNamespace(config=config.as_dict(), seed=0), meta={})


@pytest.mark.parametrize("constants", ["hard-stated", "soft-stated", "soft-stated-beta10", "hard-proof", "soft-proof"])
@given(data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_theorem_checks_report_what_they_find(constants, data, seed):
    """Theorems 1, 2 and 6-9 with their stated eps, eta, beta (Theorem 2 also at beta = 10/eps), and with the
    constants the appendix proofs derive (eta(Gamma_pf), (N+1) or 2 eps(Gamma_pf)). Where the proof establishes
    the statement (no compression, constants in :data:`PROVEN_UNCOMPRESSED`) every check passes; everywhere, a
    theorem with a failed judged check on the run is reported violated by the audit's verdicts, and one without
    is not."""
    from repro.papers.fedsgm import audit as AUD
    from repro.verdicts import Verdict
    config = data.draw(instance_configs(constants))
    instance, trace, outcomes = _evaluate(config, seed)
    _target_subopt(outcomes)
    if config.K_frac is None and constants in PROVEN_UNCOMPRESSED:
        _assert_all_pass(outcomes, THEOREM_IDS)
    judged = [o for o in outcomes if o.claim_id in THEOREM_IDS and o.hypotheses_met]
    assert judged, "no theorem judged on the run"
    verdicts = {v.claim: v for v in AUD.verdicts({"fedsgm.theory": [_theory_result(config, outcomes)]}, findings=())}
    for cid in {o.claim_id for o in judged}:
        failed = any(not o.passed for o in judged if o.claim_id == cid)
        assert (verdicts[cid].verdict is Verdict.VIOLATED) == failed, (cid, verdicts[cid])
    if constants.startswith("soft-stated"):    # beta = 2/eps (on Theorem 2's boundary) or 10/eps: always judged
        assert all(o.hypotheses_met for o in outcomes if o.claim_id == "fedsgm.thm2")
        _assert_the_derived_beta_condition_is_judged_where_it_holds(config, instance, trace, outcomes)


@pytest.mark.parametrize("constants", ["hard-stated", "soft-stated", "hard-proof"])
@given(data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_lemmas_and_round_inequalities_hold(constants, data, seed):
    """Lemmas 3, 4 (all a), 5 with their proof chains; (5), the hard and soft rounds every round."""
    config = data.draw(instance_configs(constants))
    _, trace, outcomes = _evaluate(config, seed)
    checked = _assert_all_pass(outcomes, PER_RUN_IDS)
    assert {"fedsgm.lemma3", "fedsgm.lemma5"} <= {o.claim_id for o in checked}
    _target_max(checked, lambda o: True)
    summed = [o for o in outcomes if o.claim_id == "fedsgm.S_summed"]
    if trace.params.K is None:  # deterministic without compression
        _assert_all_pass(summed, {"fedsgm.S_summed"})


@given(seed=st.integers(0, 2**31 - 1), eta_factor=st.sampled_from([0.1, 1.0, 30.0]),
       family=st.sampled_from(X.FAMILIES), E=st.integers(1, 5))
def test_summed_inequality_holds_for_any_step_size(seed, eta_factor, family, E):
    """The summed rounds hold for every eta > 0 without compression (deterministic)."""
    config = X.InstanceConfig(family=family, dim=X.FAMILY_DIMS[family], n_clients=3, E=E, T=30, K_frac=None,
                              constants="hard-stated")
    problem, w0, _, rng = X.build_instance(config, seed)
    instance = V.Instance.solved(problem, w0)
    assume(instance.optimum.D > 1e-8)
    base = V.params_for(B.thm1, instance, T=30, E=E, switching="hard", K=None, w0=w0)
    params = alg.FedSGMParams(**(base.__dict__ | {"eta": base.eta * eta_factor}))
    [out] = V.check(B.S_summed, instance, alg.run(problem, params, rng))
    assert out.passed, out


def test_summed_inequality_in_expectation_under_compression():
    """E[S_T] <= S_bar(eta; Gamma_pf) under Rand-K, by Monte Carlo over the compressor draws."""
    config = X.InstanceConfig(**X.MC_CONFIGS[0], constants="hard-stated")
    problem, w0, K, _ = X.build_instance(config, X.MC_INSTANCE_SEED)
    instance = V.Instance.solved(problem, w0)
    params = V.params_for(B.thm1, instance, T=config.T, E=config.E, switching="hard", K=K, w0=w0,
                          record_directions=False)
    samples = []
    for s in range(20):
        trace = alg.run(problem, params, np.random.default_rng(s))
        samples.append(V.summed_gap(instance, trace))
    bound = float(B.S_summed.evaluate(**V.parameter_values(instance, trace))["S_T"])
    out = check_expectation(B.S_summed, B.S_summed.relations[0], np.array(samples), bound)
    assert out.passed and out.n_runs == 20, out


def test_lemma3_realised_mean_matches_exact_expectation():
    """With the iterates fixed, the Monte-Carlo mean of ||(1/n) sum C_j(X_j)||^2 matches the closed form."""
    rng = np.random.default_rng(3)
    X_ = rng.standard_normal((4, 7))
    comp = RandK(7, 2)
    draws = np.array([np.sum(comp.apply(X_, comp.draw(rng, 4)).mean(axis=0) ** 2) for _ in range(20000)])
    exact = np.sum(X_.mean(axis=0) ** 2) + comp.q_u / 16 * np.sum(X_**2)
    se = draws.std(ddof=1) / np.sqrt(draws.size)
    assert abs(draws.mean() - exact) < 4 * se


# ----------------------------------------------------------------------------- the checks can fail
def _one_run(constants="hard-stated", eta_factor=1.0, family="max_affine"):
    """(instance, trace) of one run of Theorem 1's constants; with ``eta_factor`` the algorithm steps
    ``eta_factor`` times further than the parameters the trace carries (those the check is told about)."""
    config = X.InstanceConfig(family=family, dim=X.FAMILY_DIMS[family], n_clients=3, E=4, T=20, K_frac=None,
                              constants=constants)
    problem, w0, _, rng = X.build_instance(config, 11)
    instance = V.Instance.solved(problem, w0)
    params = V.params_for(B.thm1, instance, T=20, E=4, switching="hard", K=None, w0=w0)
    run_params = alg.FedSGMParams(**(params.__dict__ | {"eta": params.eta * eta_factor}))
    trace = alg.run(problem, run_params if eta_factor != 1.0 else params, rng)
    return instance, replace(trace, params=params)


@pytest.mark.parametrize("switching,claim", [("hard", B.thm1), ("soft", B.thm2)])
def test_at_d_zero_the_prescribed_parameters_are_refused_as_inadmissible(switching, claim):
    """w0 in the optimal set (D = 0; an instance the paper-profile adversarial search drew: a 1-d piecewise-linear
    objective whose minimisers form an interval): the theorems prescribe eta = eps = 0, and both rules refuse the run
    with a ConfigError naming the parameter (what the search counts as rejected), never a ZeroDivisionError."""
    config = X.InstanceConfig(family="piecewise_linear_1d", dim=1, n_clients=4, E=1, T=20, K_frac=None,
                              w0_scale=1.4133921481355316, constants="soft-stated")
    problem, w0, _, _ = X.build_instance(config, 897596911)
    instance = V.Instance.solved(problem, w0)
    assert instance.optimum.D == 0.0
    with pytest.raises(ConfigError, match="eta|eps"):
        V.params_for(claim, instance, T=20, E=1, switching=switching, K=None, w0=w0)


def test_lemma5_check_fails_when_the_algorithm_steps_further_than_claimed():
    instance, trace = _one_run(eta_factor=3.0)
    lemma5 = [o for o in V.check(B.lemma5, instance, trace) if o.relation.startswith("drift_sum")]
    assert lemma5 and not lemma5[0].passed


def test_theorem_check_fails_when_the_bound_is_perturbed(monkeypatch):
    instance, trace = _one_run()
    outcomes = V.check(B.thm1, instance, trace)
    assert all(o.passed for o in outcomes)
    sub = [o for o in outcomes if o.relation.startswith("subopt")][0]
    # a claim whose bound is 20x smaller than the theorem's must be refuted by the same run
    shrunk = replace(B.thm1, id="perturbed", conclusion=(
        B.sp.Le(B.subopt, B.eps * sub.observed / sub.bound / 20 if sub.observed > 0 else -B.eps),))
    vals = V.parameter_values(instance, trace) | V.theorem_observations(instance, trace)[0]
    assert not check_relation(shrunk, shrunk.relations[0], vals).passed


def test_server_step_check_fails_when_the_server_steps_further():
    instance, tr = _one_run()
    w = tr.w.copy()
    w[1:] = w[:-1] - 1.5 * tr.params.eta * tr.X_mean      # a server step 1.5x too long
    [bad] = V.check(V.SERVER_STEP, instance, replace(tr, w=w))
    [good] = V.check(V.SERVER_STEP, instance, tr)
    assert not bad.passed and good.passed


def test_lemma3_check_fails_with_a_smaller_constant():
    instance, trace = _one_run()
    obs = V.round_observations(instance, trace) | V.parameter_values(instance, trace)
    perturbed = replace(B.lemma3, id="perturbed", steps=(), conclusion=(
        B.sp.Le(B.agg_sq_expect, (B.q / B.n + 1) * B.G**2 / 50),))
    assert not check_relation(perturbed, perturbed.relations[0], obs).passed


# ----------------------------------------------------------------------------- the checks entry
@pytest.mark.parametrize("switching", ["hard", "soft"])
def test_check_claims_runs_every_per_run_claim_in_order(switching):
    """check(claim, problem, trace) through repro.verify.check_claims: each claim's outcomes, in the claims' order
    (a run without recorded directions has no Lemma 4 outcome)."""
    instance, trace = _one_run()
    claim = B.thm1 if switching == "hard" else B.thm2
    params = V.params_for(claim, instance, T=20, E=4, switching=switching, K=None, w0=trace.params.w0)
    trace = alg.run(instance.problem, params, np.random.default_rng(0))
    claims = V.per_run_claims(switching) + (claim,)
    outcomes = check_claims(V.check, claims, instance, trace)
    ids = [o.claim_id for o in outcomes]
    assert ids == sorted(ids, key=[c.id for c in claims].index)
    assert {o.claim_id for o in outcomes} == {c.id for c in claims}
    bare = alg.run(instance.problem, replace(params, record_directions=False), np.random.default_rng(0))
    lemma4 = B.lemma4 if switching == "hard" else B.lemma4_soft
    assert len(V.check(lemma4, instance, trace)) == len(V.YOUNG_FACTORS) and V.check(lemma4, instance, bare) == []


def test_check_refuses_an_unknown_claim_and_a_trace_without_parameters():
    instance, trace = _one_run()
    with pytest.raises(ValueError, match="fedsgm.complexity"):
        V.check(B.claim("fedsgm.complexity"), instance, trace)
    with pytest.raises(ValueError, match="FedSGMParams"):
        V.check(B.lemma3, instance, replace(trace, params=None))


def test_theorem_check_refuses_a_run_with_other_parameters():
    instance, trace = _one_run()
    other = replace(trace, params=replace(trace.params, eta=2 * trace.params.eta))
    with pytest.raises(ValueError, match="does not use the parameters fedsgm.thm1 prescribes"):
        V.check(B.thm1, instance, other)
