"""fedclup.pep: the PEP models of Algorithm 1 (repro/papers/fedclup/runs/pep.py) -- degenerate cases against PEPit's
own centralised examples, the smallest instance of each model, the replay of a worst case through the suite's own
Algorithm 1, and checks that cannot pass vacuously."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from PEPit.examples.composite_convex_minimization.proximal_gradient import wc_proximal_gradient
from PEPit.examples.unconstrained_convex_minimization.gradient_descent import wc_gradient_descent
from PEPit.examples.unconstrained_convex_minimization.gradient_descent_silver_stepsize_strongly_convex import (
    wc_gradient_descent_silver_stepsize_strongly_convex,
)

from bounds.fedclup import claims as B
from repro import pep
from repro.errors import ConfigError
from repro.papers.fedclup.runs import pep as M

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
REL = 1e-6


def _config(**kw) -> M.PepConfig:
    base = {"model": "thm2", "m": 1, "L": 2.0, "lam": 0.1, "T_max": 1, "profile": "quick"}
    return M.PepConfig(**(base | kw))


# ------------------------------------------------------------------------------------------ degenerate cases
@pytest.mark.parametrize("mu, L", [(0.1, 1.0), (0.5, 2.0)])
def test_one_client_no_personalization_is_pepits_strongly_convex_gd_example(mu, L):
    """m = 1, lam = 0, K = T = 1, eta = 2/(L + mu): the same PEP as PEPit's
    unconstrained_convex_minimization/gradient_descent_silver_stepsize_strongly_convex at n = 1 (its one silver step
    is h_0/L = 2/(L + mu)): the same class (L-smooth mu-strongly convex), the same initial condition
    ||x_0 - x*||^2 <= 1 and the same quantity ||x_1 - x*||^2; and the closed form ((L - mu)/(L + mu))^2."""
    _, cert = M.degenerate(mu, L, 2 / (L + mu), 1, 1, metric="distance")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs, theory = wc_gradient_descent_silver_stepsize_strongly_convex(L=L, mu=mu, n=1, solver="CLARABEL",
                                                                             verbose=-1)
    assert theory == pytest.approx(((L - mu) / (L + mu)) ** 2, rel=1e-12)
    assert cert.value == pytest.approx(theirs, rel=REL)
    assert cert.value == pytest.approx(theory, rel=REL)


@pytest.mark.parametrize("mu, L, eta, K, T", [(0.1, 1.0, 1.0, 2, 2), (0.5, 2.0, 0.4, 3, 1)])
def test_one_client_no_personalization_distance_against_pepits_proximal_gradient(mu, L, eta, K, T):
    """m = 1, lam = 0, n = K T constant steps eta: worst ||x_n - x*||^2 given ||x_0 - x*||^2 <= 1, the quantity of
    PEPit's composite_convex_minimization/proximal_gradient (f1 L-smooth mu-strongly convex plus f2 convex, step
    eta). Our problem is its f2 = 0 member, so theirs >= ours always; they are equal because the tight value
    max{(1 - eta L)^2, (1 - eta mu)^2}^n (PEPit's theoretical value there) is attained by a one-dimensional
    quadratic with f2 = 0. A model taking a different step or the wrong number of steps fails the equality."""
    _, cert = M.degenerate(mu, L, eta, K, T, metric="distance")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs, theory = wc_proximal_gradient(L=L, mu=mu, gamma=eta, n=K * T, solver="CLARABEL", verbose=-1)
    assert theory == pytest.approx(max((1 - eta * L) ** 2, (1 - eta * mu) ** 2) ** (K * T), rel=1e-12)
    assert cert.value <= theirs + pep.margin(theirs, "not optimal")
    assert cert.value == pytest.approx(theirs, rel=REL)
    assert cert.value == pytest.approx(theory, rel=REL)


@pytest.mark.parametrize("L, eta, K, T", [(3.0, 1 / 3, 2, 2), (1.0, 0.5, 1, 3)])
def test_one_client_no_personalization_is_gradient_descent_value(L, eta, K, T):
    """m = 1, lam = 0, mu = 0: f(x_n) - f* given ||x_0 - x*||^2 <= 1 equals PEPit's
    unconstrained_convex_minimization/gradient_descent (the convex sibling) and Drori-Teboulle's tight value."""
    _, cert = M.degenerate(0.0, L, eta, K, T, metric="value")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs, theory = wc_gradient_descent(L=L, gamma=eta, n=K * T, solver="CLARABEL", verbose=-1)
    assert cert.value == pytest.approx(theirs, rel=REL)
    assert cert.value == pytest.approx(theory, rel=REL)


# ------------------------------------------------------------------------------------------ smallest instances
@pytest.mark.parametrize("model", ["thm2", "cor2", "thm2_local"])
def test_smallest_instance_runs(model):
    arrays, meta = M.run_pep(_config(model=model), 0)
    assert meta["claim"] == M.CLAIM_OF[model] and meta["points"]
    for p in meta["points"]:
        cert = p["certificate"]
        assert np.isfinite(cert["value"]) and cert["value"] >= 0 and cert["solver"] == pep.SOLVER
        assert abs(cert["value"] - cert["primal"]) <= pep.margin(cert["value"])
        assert p["decision"] in (pep.CERTIFIED, pep.TIGHT)
    assert np.all(np.isfinite(arrays["value"])) and meta["unsolved"] == []


#: a printed bound cut to 1% (every smallest instance's ratio bound / worst case is below 100)
WEAKEN = 0.01


@pytest.mark.parametrize("model", ["thm2", "cor2", "thm2_local"])
def test_weakened_bound_through_the_run_path_is_violated(model, monkeypatch):
    """The decision a run records is not a restatement of its bound: the claim's printed bound times WEAKEN, pushed
    through run_pep (Theorem 2's right sides or Corollary 2's eps), is below the certified worst case and the run
    says violated at every point."""
    theorem2_bounds, corollary2_eps = M.theorem2_bounds, M.corollary2_eps
    monkeypatch.setattr(M, "theorem2_bounds",
                        lambda *a: {k: WEAKEN * v for k, v in theorem2_bounds(*a).items()})
    monkeypatch.setattr(M, "corollary2_eps", lambda *a: WEAKEN * corollary2_eps(*a))
    _, meta = M.run_pep(_config(model=model), 0)
    assert meta["points"] and all(p["decision"] == pep.VIOLATED for p in meta["points"])


def test_printed_bounds_come_from_the_encoded_claims():
    c = _config(model="thm2")
    s = c.steps
    expected = B.claim("fedclup.thm2").evaluate(m=1, mu=1.0, L=2.0, lam=0.1, gamma=s["gamma"], Phi_t=1.0, d_t=1.0,
                                                e_t=1.0)["Phi_next"]
    _, meta = M.run_pep(c, 0)
    assert meta["points"][0]["bound"] == pytest.approx(float(expected), rel=1e-15)
    # K is the smallest that meets Theorem 2's hypotheses, by the claim's own check
    claim = B.claim("fedclup.thm2")
    args = {"mu": 1.0, "L": 2.0, "lam": 0.1, "gamma": s["gamma"], "eta": s["eta"]}
    assert claim.hypotheses_hold(rtol=M.HYPOTHESIS_RTOL, K=s["K"], **args)
    assert s["K"] == 1 or not claim.hypotheses_hold(rtol=M.HYPOTHESIS_RTOL, K=s["K"] - 1, **args)
    # Corollary 2: eps(T) is the smallest eps whose prescribed round count is T
    eps = M.corollary2_eps(1.0, 2.0, 0.1, 3)
    cor2 = B.claim("fedclup.cor2.explicit")
    assert int(cor2.prescribed(mu=1.0, L=2.0, lam=0.1, Phi_0=1.0, epsilon=eps)["T"]) == 3
    assert int(cor2.prescribed(mu=1.0, L=2.0, lam=0.1, Phi_0=1.0, epsilon=eps * (1 - 1e-9))["T"]) == 4


# ------------------------------------------------------------------------------------------ replay
@pytest.mark.parametrize("model, m, T", [("thm2", 1, 2), ("cor2", 2, 2)])
def test_worst_case_replays_through_the_suites_algorithm(model, m, T):
    """The extracted worst-case functions, as TableOracles of the suite's run_fedclup, reproduce the attained value
    (and the normalisation Phi_0 <= 1) within the solver margin."""
    c = _config(model=model, m=m, T_max=T)
    s = c.steps
    arrays, meta = M.run_pep(c, 0)
    cert = meta["points"][-1]["certificate"]
    rounds = T + 1 if model == "thm2" else T
    trace = M.replay(arrays, f"T{T}", m, c.lam, s["gamma"], s["eta"], s["K"], rounds)
    assert trace.method == "fedclup" and trace.global_models.shape[0] == rounds + 1
    value = (M.replayed_phi(arrays, f"T{T}", trace, c.mu, c.lam, s["gamma"], T) if model == "thm2"
             else M.replayed_e(arrays, f"T{T}", trace, T))
    assert abs(value - cert["primal"]) <= pep.margin(cert["value"])
    assert abs(value - cert["value"]) <= pep.margin(cert["value"])
    assert M.replayed_phi(arrays, f"T{T}", trace, c.mu, c.lam, s["gamma"], 0) <= 1 + pep.margin(1.0)


def test_replay_fails_when_the_suite_takes_another_step():
    """The replay is a real cross-check: the suite's algorithm with a different eta leaves the certified points."""
    c = _config(model="thm2", m=2)
    s = c.steps
    arrays, _ = M.run_pep(c, 0)
    with pytest.raises(pep.ReplayError):
        M.replay(arrays, "T1", 2, c.lam, s["gamma"], 0.9 * s["eta"], s["K"], 2)


# ------------------------------------------------------------------------------------------ cannot pass vacuously
def test_step_size_changes_the_worst_case():
    s = _config().steps
    _, a = M.theorem2_rounds(1, 1.0, 2.0, 0.1, s["gamma"], s["eta"], s["K"], 1)
    _, b = M.theorem2_rounds(1, 1.0, 2.0, 0.1, s["gamma"], 0.5 * s["eta"], s["K"], 1)
    assert abs(a.value - b.value) > 1e3 * pep.margin(a.value)


def test_attained_local_bound_flips_to_violated_when_halved():
    """Theorem 2's local bound is attained (ratio 1): the PEP finds it exactly, and half of it is violated."""
    c = _config(model="thm2_local")
    _, meta = M.run_pep(c, 0)
    for p in meta["points"]:
        cert = pep.Certificate(**p["certificate"])
        assert p["ratio"] == pytest.approx(1.0, abs=1e-6)
        assert p["decision"] == pep.TIGHT
        assert pep.decide(1.01 * p["bound"], cert).decision == pep.CERTIFIED
        assert pep.decide(0.5 * p["bound"], cert).decision == pep.VIOLATED


# ------------------------------------------------------------------------------------------ resolution, unsolved
def test_quick_t_curves_stay_above_the_solver_resolution():
    """PEP_GRID's T_max: every quick thm2 / cor2 point's worst case exceeds the wider solver margin (so its ratio is a
    tightness ratio whatever status the solve ends with) ..."""
    for spec in M.pep_specs("quick"):
        if spec.config["model"] in ("thm2", "cor2"):
            _, meta = M.run_pep(M.PepConfig.from_dict(spec.config), 0)
            for p in meta["points"]:
                assert M.resolved(p["certificate"]["value"]), (spec.config, p["params"])


def test_one_round_more_falls_below_the_resolution():
    """... and the check can fail: Corollary 2 at m = 2, L = 2, lam = 0.1 one round beyond the grid (T = 3) has a
    worst case below the wider margin, as PEP_GRID's comment says."""
    row = next(r for r in M.PEP_GRID["quick"] if r[:4] == ("cor2", 2, 2.0, 0.1))
    c = _config(model="cor2", m=2, L=2.0, lam=0.1)
    s = c.steps
    _, cert = M.corollary2(2, c.mu, 2.0, 0.1, s["gamma"], s["eta"], s["K"], row[5] + 1)
    assert not M.resolved(cert.value)


def test_unsolved_point_is_recorded_not_dropped(monkeypatch):
    """A thm2_local point whose solve fails is listed under ``unsolved`` with the solver's message; the others stay;
    a curve with no solved point is an error."""
    local_point = M._local_point

    def failing(c, s, b):
        if b == M.B_VALUES[0]:
            raise pep.PepError("the PEP solver CLARABEL failed: SolverError: test. More text")
        return local_point(c, s, b)

    monkeypatch.setattr(M, "_local_point", failing)
    _, meta = M.run_pep(_config(model="thm2_local"), 0)
    assert [p["params"]["b"] for p in meta["points"]] == list(M.B_VALUES[1:])
    assert [(u["params"]["b"], u["reason"]) for u in meta["unsolved"]] == [
        (M.B_VALUES[0], "the PEP solver CLARABEL failed: SolverError: test")]

    def always(c, s, b):
        raise pep.PepError("no")

    monkeypatch.setattr(M, "_local_point", always)
    with pytest.raises(pep.PepError):
        M.run_pep(_config(model="thm2_local"), 0)


# ------------------------------------------------------------------------------------------ configs and specs
@pytest.mark.parametrize("bad", [{"model": "thm3"}, {"m": 0}, {"L": 0.5}, {"gamma_scale": 2.0},
                                 {"model": "cor2", "gamma_scale": 0.5}, {"T_max": 99}, {"L": 8.0, "lam": 1.0}])
def test_bad_config_is_one_line_error(bad):
    with pytest.raises(ConfigError) as err:
        M.PepConfig(**({"model": "thm2", "m": 1, "L": 2.0, "lam": 0.1, "profile": "quick"} | bad))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("profile", ["quick", "paper"])
def test_specs_build(profile):
    specs = M.pep_specs(profile)
    assert specs and all(s.experiment == "fedclup.pep" for s in specs)
    assert {s.config["model"] for s in specs} == set(M.MODELS)
