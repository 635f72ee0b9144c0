"""ssca.pep: the PEP models of the full-batch special case of mini-batch SSCA (repro/papers/ssca/runs/pep.py).

* degenerate case: rho = gamma = 1 is gradient descent with step 1/(2 tau); the models agree with PEPit's own
  centralised examples (nonconvex and convex gradient descent) to solver tolerance;
* the smallest instance of the Lemma 4 model runs, its printed bound comes from the encoded claim;
* replay: the worst-case table of Lemma 4 (51), fed as the oracle of the suite's own Algorithm 1 (and Algorithm 3),
  reproduces the certified value; a replay with another tau leaves the certified trajectory;
* checks that cannot pass vacuously: the printed bound (51) is attained (tight: equal to the certified worst case
  within the solver's accuracy), a bound raised by a small constant is certified and one lowered by it violated, a
  perturbed step changes the certified value;
* the report's summary reads the method, tau, mu and Delta from the runs (changing them in a run changes the text);
* every claim of bounds.ssca is either modelled or listed with its reason, exactly once.
"""
import copy
from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest
from PEPit.examples.nonconvex_optimization.gradient_descent import wc_gradient_descent as wc_nonconvex_gd
from PEPit.examples.unconstrained_convex_minimization.gradient_descent import wc_gradient_descent as wc_convex_gd

from bounds.ssca import claims as B
from repro import pep, tightness
from repro.errors import ConfigError
from repro.papers.ssca import section as SE
from repro.papers.ssca.algorithms import ssca as alg
from repro.papers.ssca.runs import pep as P

GD = P.STEP_FAMILIES["gd"]
SECTION_VI = next(k for k in P.STEP_FAMILIES if k != "gd")


# ------------------------------------------------------------------------------ degenerate case: gradient descent
@pytest.mark.parametrize("example, model, L, tau, n", [
    (wc_nonconvex_gd, P.gradient_norm_problem, 1.0, 0.5, 2), (wc_nonconvex_gd, P.gradient_norm_problem, 2.0, 1.5, 3),
    (wc_convex_gd, P.convex_gap_problem, 1.0, 0.5, 3), (wc_convex_gd, P.convex_gap_problem, 2.0, 2.0, 2)])
def test_full_batch_ssca_with_unit_steps_is_pepits_gradient_descent(example, model, L, tau, n):
    """Against PEPit's nonconvex (gradient norm) and convex (function gap) gradient-descent examples; the examples'
    theoretical values hold for step 1/L (nonconvex) and for any step <= 1/L (convex: 1/(2 tau) <= 1/L on both
    points)."""
    reference, theory = example(L=L, gamma=1 / (2 * tau), n=n, solver="CLARABEL", verbose=-1)
    cert = pep.certify(model(n, tau, L, GD)[0])
    assert cert.value == pytest.approx(reference, rel=1e-6)
    if example is wc_convex_gd or 1 / (2 * tau) == 1 / L:
        assert cert.value == pytest.approx(theory, rel=1e-6)


@pytest.mark.parametrize("model", [P.gradient_norm_problem, P.convex_gap_problem])
def test_with_rho_below_one_the_rate_metrics_have_no_finite_worst_case(model):
    """The models see the steps: with a Section VI family the surrogate recursion, anchored at f_hat^(0) = 0, pulls
    the iterates towards the origin, so neither gradient-descent metric is bounded (module docstring)."""
    pep.certify(model(2, 0.5, 1.0, GD)[0])
    with pytest.raises(pep.PepError, match="no finite worst case"):
        pep.certify(model(2, 0.5, 1.0, P.STEP_FAMILIES[SECTION_VI])[0])


# ------------------------------------------------------------------------------ the smallest instance runs
def test_the_smallest_lemma4_instance_runs_with_the_claims_bound():
    config = P.PepConfig(steps=SECTION_VI, t=(1, 2), tau=0.1, L_hat=1.0, err_over_mu=1.0, profile="quick")
    arrays, meta = P.run_pep(config, 0)
    assert meta["claim"] == "ssca.lemma4" and meta["x"] == "t" and len(meta["points"]) == 2
    steps = P.STEP_FAMILIES[SECTION_VI]
    for k, point in zip((1, 2), meta["points"]):
        gamma = steps.gamma(k + 1)[k - 1]
        printed = B.claim("ssca.lemma4").evaluate(gamma=gamma, mu=0.2, L_hat=1.0, Delta=1.0, err=0.2)["descent"]
        assert point["bound"] == pytest.approx(float(printed), rel=1e-12)
        assert point["params"]["mu"] == pytest.approx(0.2, rel=1e-15) and point["params"]["Delta"] == 1.0
        cert = point["certificate"]
        assert cert["solver"] == "CLARABEL" and cert["tolerance"] == pep.TOLERANCE
        assert abs(cert["value"] - cert["primal"]) <= pep.margin(cert["value"])
        assert {f"t{k}_x", f"t{k}_g", f"t{k}_f"} <= set(arrays)


def test_every_quick_spec_validates():
    specs = P.pep_specs("quick")
    assert specs and all(s.experiment == "ssca.pep" for s in specs)
    for s in specs:
        P.PepConfig.from_dict(s.config)
    assert {s.config["steps"] for s in specs} == set(P.STEP_FAMILIES)


@pytest.mark.parametrize("change, key", [({"steps": "nope"}, "steps"), ({"t": (2, 1)}, "t"),
                                         ({"t": (P.T_MAX + 1,)}, "t"), ({"tau": 0.0}, "tau"),
                                         ({"steps": "gd", "err_over_mu": 1.0}, "err_over_mu")])
def test_bad_configs_are_one_line_errors(change, key):
    base = dict(steps=SECTION_VI, t=(1,), tau=0.1, L_hat=1.0, err_over_mu=1.0, profile="quick")
    with pytest.raises(ConfigError, match=rf"^{key}=") as info:
        P.PepConfig(**(base | change))
    assert "\n" not in str(info.value)


# ------------------------------------------------------------------------------ replay through the suite's algorithm
@pytest.fixture(scope="module")
def lemma4_worst_case():
    steps, t, tau, err = P.STEP_FAMILIES[SECTION_VI], 3, 0.1, 0.2
    problem, f, _ = P.lemma4_problem(t, tau, 1.0, steps, err)
    cert = pep.certify(problem)
    return pep.worst_case_table(f), cert, steps, t, tau, err


def test_replay_through_algorithm_1_reproduces_the_certified_value(lemma4_worst_case):
    table, cert, steps, t, tau, err = lemma4_worst_case
    replay = P.replay_lemma4(table, t, tau, steps)
    assert replay["descent"] == pytest.approx(cert.primal, abs=pep.margin(cert.value))
    assert replay["descent"] == pytest.approx(cert.value, abs=pep.margin(cert.value))
    assert replay["delta"] == pytest.approx(1.0, abs=1e-6) and replay["err"] == pytest.approx(err, abs=1e-6)
    assert replay["queries"] >= t + 1


def test_replay_through_algorithm_3_walks_the_same_trajectory(lemma4_worst_case):
    """Algorithm 3 (feature-based) with one client holding every feature and the full batch is the same iteration."""
    table, cert, steps, t, tau, _ = lemma4_worst_case
    oracle = pep.TableOracle(table)
    params = alg.SSCAParams(tau=tau, steps=steps, iterations=t + 1, batch=1, omega1=table.x[0])
    trace = alg.run_feature_based(P.TableProblem(oracle), params, np.random.default_rng(0))
    last = oracle.value(trace.omega_final) - trace.batch_value[-1]
    assert last == pytest.approx(cert.value, abs=pep.margin(cert.value))


def test_a_replay_with_another_tau_leaves_the_certified_trajectory(lemma4_worst_case):
    table, _, steps, t, tau, _ = lemma4_worst_case
    with pytest.raises(pep.ReplayError):
        P.replay_lemma4(table, t, 1.5 * tau, steps)


# ------------------------------------------------------------------------------ checks that can fail
def test_the_printed_bound_is_tight_raised_certified_lowered_violated(lemma4_worst_case):
    """(51) is attained: the printed bound equals the certified worst case within the solver's accuracy (tight); a
    bound 1e-4 above it is certified, 1e-4 below it violated."""
    _, cert, steps, t, tau, err = lemma4_worst_case
    gamma = float(steps.gamma(t + 1)[t - 1])
    bound = float(B.claim("ssca.lemma4").evaluate(gamma=gamma, mu=2 * tau, L_hat=1.0, Delta=1.0, err=err)["descent"])
    assert pep.decide(bound, cert).decision == pep.TIGHT
    assert pep.decide(bound + 1e-4, cert).decision == pep.CERTIFIED
    assert pep.decide(bound - 1e-4, cert).decision == pep.VIOLATED
    assert pep.decide(0.5 * bound, cert).decision == pep.VIOLATED       # the bound is > 0 here


def test_a_perturbed_step_changes_the_certified_value(lemma4_worst_case):
    _, cert, steps, t, tau, err = lemma4_worst_case
    other = alg.PowerLawSteps(a1=steps.a1, alpha=steps.alpha, a2=0.5 * steps.a2, beta=steps.beta)
    problem, _, _ = P.lemma4_problem(t, tau, 1.0, other, err)
    assert abs(pep.certify(problem).value - cert.value) > 1e-3


# ------------------------------------------------------------------------------ coverage of the claims
def test_every_claim_is_modelled_or_listed_exactly_once_with_its_reason():
    counts = Counter(list(P.MODELLED) + [n.claim for n in P.NOT_MODELLED])
    assert counts == Counter(c.id for c in B.CLAIMS)          # each claim id of bounds.ssca exactly once, no other
    assert all(n.words and n.why and n.kind for n in P.NOT_MODELLED)


# ------------------------------------------------------------------------------ the report reads the runs
@pytest.fixture(scope="module")
def tiny_pep_run():
    config = P.PepConfig(steps=SECTION_VI, t=(2,), tau=0.1, L_hat=1.0, err_over_mu=1.0, profile="quick")
    arrays, meta = P.run_pep(config, 0)
    spec = SimpleNamespace(experiment="ssca.pep")
    return SimpleNamespace(spec=spec, hash="0" * 12, arrays=arrays, meta={"metadata": meta})


def test_the_tiny_run_is_tight_supports_and_replays_through_both_algorithms(tiny_pep_run):
    (point,) = tiny_pep_run.meta["metadata"]["points"]
    assert point["decision"] == pep.TIGHT and point["ratio"] == pytest.approx(1.0, abs=1e-6)
    (ev,) = tightness.evidence([tiny_pep_run])
    assert ev.bearing.value == "supports" and "tight (attained within the solver's accuracy) at 1" in ev.summary
    primal = tiny_pep_run.arrays["primal"]
    for key in ("replay_descent", "replay_descent_alg3"):
        assert np.allclose(tiny_pep_run.arrays[key], primal, atol=1e-6)


def test_the_summary_reads_method_tau_mu_and_delta_from_the_runs(tiny_pep_run):
    text = SE._pep_summary([tiny_pep_run])
    assert "Algorithms 1 and 3" in text and "tau = 0.1," in text and "mu = 0.2 (mu/tau = 2)" in text
    assert "Delta = 1 " in text and "1 tight" in text
    other = copy.deepcopy(tiny_pep_run)
    meta = other.meta["metadata"]
    meta["method"] = "another method; steps x"
    meta["points"][0]["params"] |= {"mu": 0.3, "Delta": 2.0}
    text = SE._pep_summary([other])
    assert "for another method," in text and "Algorithms 1 and 3" not in text
    assert "mu = 0.3 (mu/tau = 3)" in text and "Delta = 2 " in text
