"""PC-FedAvg's PEP models (repro.papers.pcfedavg.runs.pep): with one agent and no constraint Algorithm 1 is PEPit's
gradient descent; the smallest instance of each claim runs; an extracted worst case replays through the suite's
Algorithm 1 (repro.papers.pcfedavg.algorithms.pcfedavg.run) to its certified value; and the checks can fail."""
import pytest
from PEPit.examples.unconstrained_convex_minimization.gradient_descent import wc_gradient_descent

from bounds import pcfedavg as B
from repro import pep as P
from repro.errors import ConfigError
from repro.papers.pcfedavg.runs import pep as M

REL = 1e-6


def _config(**over) -> dict:
    return dict(claim="pcfedavg.prop4.7", path="compact", m=2, H=1, rounds=(2,), profile="quick") | over


def _value(**over) -> float:
    cert, _ = M.solve(M.Model(**(dict(m=2, H=2, R=1, gamma=0.05, rho=1.0) | over)))
    return cert.value


@pytest.mark.parametrize("L, gamma, R, H", [(1.0, 1.0, 2, 2), (2.0, 0.3, 1, 3)])
@pytest.mark.parametrize("path", M.PATHS)
def test_one_agent_without_constraint_is_pepits_gradient_descent(L, gamma, R, H, path):
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


@pytest.mark.parametrize("claim", M.CLAIMS)
def test_the_smallest_instance_of_each_claim_runs(claim):
    arrays, meta = M.run_pep(_config(claim=claim), 0)
    (point,) = meta["points"]
    cert = point["certificate"]
    assert meta["claim"] == claim and meta["x"] == "R"
    assert point["params"] == {"path": "compact", "m": 2, "H": 1, "R": 2, "Q": 1.0, "M": 1.0, "D": 1.0}
    assert cert["solver"] == "CLARABEL" and cert["value"] >= cert["primal"] - P.margin(cert["value"])
    values = M.schedule(2, 1, 2, 1.0, 1.0) | {"Q": 1.0, "M": 1.0, "D": 1.0}
    assert point["bound"] == M.printed_bound(claim, values)
    assert point["decision"] == P.decide(point["bound"], P.Certificate(**cert)).decision
    assert point["replay_ok"], point["replay_error"]
    assert {"p0_f0_x", "p0_f1_g", "p0_X0_x", "p0_z0", "p0_xrho"} <= set(arrays)
    # the worst-case instance, read by the suite's own definitions: within the caps (up to the PSD projection of the
    # extracted Gram matrix), and x*_rho, x* satisfy the suite's grad G_rho = 0 and (1)'s KKT conditions
    instance = point["instance"]
    assert all(instance[key] <= 1.0 + 1e-4 for key in ("Q", "M", "D"))
    assert instance["grad_G_rho"] <= 1e-8 and instance["kkt_star"] <= 1e-8


@pytest.mark.parametrize("path", M.PATHS)
def test_the_worst_case_replays_through_algorithm_1(path):
    c = M.PepConfig.from_dict(_config(path=path, H=2, rounds=(1,)))
    arrays, meta = M.run_pep(c.as_dict(), 0)
    cert = meta["points"][0]["certificate"]
    observed = M.replay(c.model(1), arrays, "p0")                 # the suite's run, TableOracle as every oracle
    assert observed == pytest.approx(cert["primal"], rel=M.REPLAY_RTOL, abs=M.REPLAY_RTOL)
    assert observed == pytest.approx(cert["value"], rel=M.REPLAY_RTOL, abs=M.REPLAY_RTOL)


def test_the_replay_tells_the_update_paths_apart():
    # the printed path's worst case is not a trajectory of the (CR) path: its replay leaves the certified points
    c = M.PepConfig.from_dict(_config(path="printed", H=2, rounds=(1,)))
    arrays, _ = M.run_pep(c.as_dict(), 0)
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


def test_a_bound_below_the_certified_worst_case_is_a_violation():
    _, meta = M.run_pep(_config(), 0)
    point = meta["points"][0]
    cert = P.Certificate(**point["certificate"])
    assert point["decision"] == P.CERTIFIED
    assert P.decide(0.5 * cert.value, cert).decision == P.VIOLATED


@pytest.mark.parametrize("key, value", [("claim", "pcfedavg.thm3.4.i"), ("path", "line8"), ("m", 1), ("H", 4),
                                        ("rounds", []), ("rounds", [13]), ("Q", -1.0)])
def test_bad_config_is_one_line(key, value):
    with pytest.raises(ConfigError) as err:
        M.PepConfig.from_dict(_config(**{key: value}))
    assert "\n" not in str(err.value) and key in str(err.value)
