"""PC-FedAvg's PEP models (repro.papers.pcfedavg.runs.pep): with one agent and no constraint Algorithm 1 is PEPit's
gradient descent; the smallest instance of each claim runs; an extracted worst case replays through the suite's
Algorithm 1 (repro.papers.pcfedavg.algorithms.pcfedavg.run) to its certified value; and the checks can fail."""
import math
import types

import numpy as np
import pytest
from PEPit.examples.unconstrained_convex_minimization.gradient_descent import wc_gradient_descent

from bounds.pcfedavg import claims as B
from repro import pep as P
from repro import tightness
from repro.constraints import ProductSet, Whole
from repro.errors import ConfigError
from repro.papers.pcfedavg.problems.personalized import PersonalizedProblem
from repro.papers.pcfedavg.runs import pep as M

REL = 1e-6


def _config(**over) -> dict:
    return dict(claim="pcfedavg.prop4.7", path="compact", m=2, H=1, rounds=(2,), profile="quick") | over


def _value(**over) -> float:
    cert, _ = M.solve(M.Model(**(dict(m=2, H=2, R=1, gamma=0.05, rho=1.0) | over)))
    return cert.value


#: the printed bound on each modelled quantity, from the encoded sympy expressions (Prop. 4.8 (iii): minus the
#: printed lower bound, as the model's quantity is minus the suboptimality)
PRINTED = {"pcfedavg.prop4.7": B.BOUND_47, "pcfedavg.prop4.8.i": B.BOUND_48I, "pcfedavg.prop4.8.ii": B.BOUND_48II,
           "pcfedavg.prop4.8.iii": -B.LOWER_48III}


def _smallest_values() -> dict:
    # the smallest instance (m = 2, H = 1, R = 2, L_f = sigma = 1), typed here: rho = sqrt(R), K = R H, and the
    # step 1/(6 L_G) with L_G = (L_f + sigma (m - 1))/m + rho = 1 + sqrt(2) (H = 1: the second step condition is
    # void), lowered by the relative 1e-12 of largest_step
    rho = math.sqrt(2.0)
    return {B.m: 2, B.H: 1, B.K: 2, B.L_f: 1.0, B.sigma: 1.0, B.rho: rho, B.nu: 0, B.Q: 1.0, B.M: 1.0, B.D: 1.0,
            B.gamma: (1 - 1e-12) / (6 * (1.0 + rho))}


def _substituted(expr, values: dict) -> float:
    """``expr`` at ``values`` by explicit sympy substitution (not through the claim's compiled evaluate)."""
    out = expr.subs(values)
    assert not out.free_symbols, out.free_symbols
    return float(out)


@pytest.mark.parametrize("L, gamma, R, H", [(1.0, 1.0, 2, 2), (2.0, 0.3, 1, 3)])
@pytest.mark.parametrize("path", M.PATHS)
def test_one_agent_without_constraint_is_pepits_gradient_descent(L, gamma, R, H, path):
    """What this degenerate case covers: the round structure (R rounds of H local steps, lines 3-10), the local step's
    gradient oracle at xhat_i and the server average, against PEPit's own example. What it cannot cover: with m = 1
    there is one block (no off-diagonal blocks, so the printed and (CR) paths coincide), the sigma terms vanish
    (sigma (m-1)/m = 0, x_1 = xbar) and there is no set, so no projection, penalty, x*_rho or cap on M, D. Those are
    covered by the replay tests below (the worst case of m = 2 with sets and sigma = 1, rerun through the suite's
    own Algorithm 1 and matching the certificate; a printed-path instance leaving the (CR) path's trajectory), by
    the perturbed path and sigma of test_a_perturbed_step_or_path_changes_the_value, and by the weakened claim's
    flip to violated."""
    # m = 1, X_1 = R^n: line 8 (either path) is x <- x - gamma grad f_1(x), R H steps of gradient descent; the
    # metric f(z_R) - f(x*) from ||z_0 - x*||^2 <= 1 is that of PEPit's example
    reference, theory = wc_gradient_descent(L=L, gamma=gamma, n=R * H, wrapper="cvxpy", solver="CLARABEL",
                                            verbose=-1)
    model = M.Model(m=1, H=H, R=R, gamma=gamma, rho=1.0, L_f=L, path=path, metric="final", M=None, D=None,
                    constrained=False)
    cert, built = M.solve(model)
    assert cert.value == pytest.approx(reference, rel=REL)
    assert cert.value == pytest.approx(theory, rel=REL)      # gamma <= 1/L: Drori-Teboulle's L / (4 n L gamma + 2)
    assert M.replay(model, M.extract(built, "q"), "q") == pytest.approx(cert.primal, rel=M.REPLAY_RTOL)


@pytest.mark.parametrize("claim", [c for c in M.CLAIMS if c != M.LEMMA45])      # Lemma 4.5: H >= 2, below
def test_the_smallest_instance_of_each_claim_runs(claim):
    arrays, meta = M.run_pep(M.PepConfig.from_dict(_config(claim=claim)), 0)
    (point,) = meta["points"]
    cert = point["certificate"]
    assert meta["claim"] == claim and meta["x"] == "R"
    assert point["params"] == {"path": "compact", "m": 2, "H": 1, "R": 2, "Q": 1.0, "M": 1.0, "D": 1.0}
    assert cert["solver"] == "CLARABEL" and cert["value"] >= cert["primal"] - P.margin(cert["value"])
    # the recorded parameters and bound, against the values typed above and the encoded expression substituted by
    # hand (an independent evaluation: not M.schedule, not M.printed_bound, not the claim's compiled evaluate)
    values = _smallest_values()
    assert point["rho"] == pytest.approx(values[B.rho], rel=1e-15) and point["nu"] == 0
    assert point["gamma"] == pytest.approx(values[B.gamma], rel=1e-15) and point["K"] == values[B.K]
    assert point["bound"] == pytest.approx(_substituted(PRINTED[claim], values), rel=1e-12)
    if claim == "pcfedavg.prop4.7":          # H = 1, nu = 0: only 3 Q/(K gamma) = 9 (1 + sqrt 2) (1 + 1e-12) is left
        assert point["bound"] == pytest.approx(9 * (1 + math.sqrt(2)) / (1 - 1e-12), rel=1e-12)
    # the bound is far above the certified worst case at this point (the printed bounds are loose here), so every
    # claim is certified, and the ratio is the bound over the certified value
    assert point["decision"] == P.CERTIFIED and cert["value"] < point["bound"] / 2
    assert point["ratio"] == pytest.approx(point["bound"] / cert["value"], rel=1e-12)
    assert point["replay_ok"], point["replay_error"]
    assert {"p0_f0_x", "p0_f1_g", "p0_X0_x", "p0_z0", "p0_xrho"} <= set(arrays)
    # the worst-case instance, read by the suite's own definitions: within the caps (up to the PSD projection of the
    # extracted Gram matrix), and x*_rho, x* satisfy the suite's grad G_rho = 0 and (1)'s KKT conditions
    instance = point["instance"]
    assert all(instance[key] <= 1.0 + 1e-4 for key in ("Q", "M", "D"))
    assert instance["grad_G_rho"] <= 1e-8 and instance["kkt_star"] <= 1e-8


@pytest.mark.parametrize("path", M.PATHS)
def test_lemma_45_is_certified_on_its_smallest_round_and_replays(path):
    """Lemma 4.5 on round r = 1 of R = 2 rounds of H = 2 steps (its 'r >= 1'): the quantity is the round's drift
    minus c times its gap sum, against the rest of the bound; c and the bound against the printed formulas,
    substituted by hand; the certificate is the replayed run's value; the decision is not a restatement of the bound
    (the bound divided by a little more than the reach k is violated)."""
    c = M.PepConfig.from_dict(_config(claim=M.LEMMA45, path=path, H=2, rounds=(2,)))
    arrays, meta = M.run_pep(c, 0)
    (point,) = meta["points"]
    model, values = c.model(2), c.values(2)
    L_G = (values["L_f"] + values["sigma"] * (values["m"] - 1)) / values["m"] + values["rho"]   # Lemma 4.1
    assert values["gamma"] == pytest.approx((1 - 1e-12) / (5 * L_G), rel=1e-15)   # its own 5 gamma L_G (H-1) <= 1
    assert model.gap_weight == pytest.approx(10 * values["gamma"] ** 2 * 1 * L_G, rel=1e-12)   # (H - 1)^2 = 1
    assert point["bound"] == pytest.approx(5 * values["gamma"] ** 2 * 1 * 2 * 1.0, rel=1e-12)  # round_len H, M = 1
    assert point["decision"] == P.CERTIFIED and point["replay_ok"], point["replay_error"]
    assert M.replay(model, arrays, "p0") == pytest.approx(point["certificate"]["primal"], rel=M.REPLAY_RTOL,
                                                          abs=M.REPLAY_RTOL)
    k = tightness.reach_factor(point)
    for factor, violated in ((k * (1 + 1e-9), True), (k * (1 - 1e-9), False)):
        cert = P.Certificate(**point["certificate"])
        assert (P.decide(point["bound"] / factor, cert).decision == P.VIOLATED) is violated


@pytest.mark.parametrize("path", M.PATHS)
def test_the_worst_case_replays_through_algorithm_1(path):
    c = M.PepConfig.from_dict(_config(path=path, H=2, rounds=(1,)))
    arrays, meta = M.run_pep(c, 0)
    cert = meta["points"][0]["certificate"]
    observed = M.replay(c.model(1), arrays, "p0")                 # the suite's run, TableOracle as every oracle
    assert observed == pytest.approx(cert["primal"], rel=M.REPLAY_RTOL, abs=M.REPLAY_RTOL)
    assert observed == pytest.approx(cert["value"], rel=M.REPLAY_RTOL, abs=M.REPLAY_RTOL)


def test_the_replay_tells_the_update_paths_apart():
    # the printed path's worst case is not a trajectory of the (CR) path: its replay leaves the certified points
    c = M.PepConfig.from_dict(_config(path="printed", H=2, rounds=(1,)))
    arrays, _ = M.run_pep(c, 0)
    compact = M.PepConfig.from_dict(_config(path="compact", H=2, rounds=(1,))).model(1)
    with pytest.raises(P.ReplayError):
        M.replay(compact, arrays, "p0")


def test_a_perturbed_step_or_path_changes_the_value():
    assert abs(_value(gamma=0.1) - _value(gamma=0.05)) > 1e-3
    assert abs(_value(path="printed", sigma=3.0) - _value(path="compact", sigma=3.0)) > 1e-3


def test_the_step_is_the_largest_admissible():
    values = M.schedule(2, 3, 4, 1.0, 1.0) | {"Q": 1.0, "M": 1.0, "D": 1.0}
    claim = B.claim("pcfedavg.prop4.7")
    assert values["rho"] == pytest.approx(2.0) and values["K"] == 12
    assert claim.hypotheses_hold(**values)
    assert not claim.hypotheses_hold(**(values | {"gamma": values["gamma"] * (1 + 1e-9)}))
    with pytest.raises(ConfigError):
        M.printed_bound("pcfedavg.prop4.7", values | {"gamma": values["gamma"] * 2})


@pytest.mark.parametrize("m, H, R, sigma, L_f", [(2, 1, 4, 1.0, 1.0), (2, 3, 4, 1.0, 1.0), (3, 2, 2, 0.5, 2.0)])
def test_the_modelled_step_is_the_theory_runs_step(m, H, R, sigma, L_f):
    # the model and Algorithm 1's theory runs take the same step at the same constants (both read it from Prop. 4.7's
    # hypotheses), and it is the largest those admit
    local = types.SimpleNamespace(m=m, n=1, L_f=L_f)
    problem = PersonalizedProblem(local, np.full(m, sigma), ProductSet([Whole(1)] * m))
    s = M.schedule(m, H, R, sigma, L_f)
    assert s["gamma"] == problem.gamma_max(math.sqrt(R), H)
    values = {k: s[k] for k in ("m", "H", "L_f", "sigma", "rho", "nu")}
    claim = B.claim("pcfedavg.prop4.7")
    assert claim.hypotheses_hold(**values, gamma=s["gamma"])
    assert not claim.hypotheses_hold(**values, gamma=s["gamma"] * (1 + 1e-9))


def _weakened(claim_id: str, factor: float):
    """A printed_bound whose claim is weakened: Q understated by ``factor`` in the encoded expression (every printed
    bound here is nondecreasing in Q), evaluated by explicit substitution."""
    def bound(claim, values):
        assert claim == claim_id
        return _substituted(PRINTED[claim].subs(B.Q, factor * B.Q),
                            {s: values[s.name] for s in PRINTED[claim].free_symbols})
    return bound


@pytest.mark.parametrize("path", M.PATHS)
def test_a_weakened_claim_through_the_model_is_violated(path, monkeypatch):
    # the same run (model, certificate, decision, replay) with Prop. 4.7's bound evaluated at Q/100: the worst case
    # is unchanged and the bound drops below it, so the decision must flip from certified to violated; with factor 1
    # the substituted bound is the honest one
    monkeypatch.setattr(M, "printed_bound", _weakened("pcfedavg.prop4.7", 1.0))
    _, meta = M.run_pep(M.PepConfig.from_dict(_config(path=path)), 0)
    honest = meta["points"][0]
    assert honest["decision"] == P.CERTIFIED
    monkeypatch.setattr(M, "printed_bound", _weakened("pcfedavg.prop4.7", 0.01))
    _, meta = M.run_pep(M.PepConfig.from_dict(_config(path=path)), 0)
    weak = meta["points"][0]
    assert weak["certificate"]["value"] == pytest.approx(honest["certificate"]["value"], rel=1e-9)
    assert weak["bound"] == pytest.approx(honest["bound"] / 100, rel=1e-12)
    assert weak["decision"] == P.VIOLATED and weak["replay_ok"]


@pytest.mark.parametrize("key, value", [("claim", "pcfedavg.thm3.4.i"), ("path", "line8"), ("m", 1), ("H", 4),
                                        ("rounds", []), ("rounds", [13]), ("Q", -1.0)])
def test_bad_config_is_one_line(key, value):
    with pytest.raises(ConfigError) as err:
        M.PepConfig.from_dict(_config(**{key: value}))
    assert "\n" not in str(err.value) and key in str(err.value)
