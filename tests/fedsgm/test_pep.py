"""FedSGM's PEP models (repro.papers.fedsgm.runs.pep): the degenerate case (one client, E = 1, no active constraint)
is PEPit's own subgradient method; the smallest instances run; an extracted worst case replays through the suite's
Algorithm 1 (repro.papers.fedsgm.algorithms.fedsgm.run) to its certified value; and the decisions can fail."""
from math import sqrt

import numpy as np
import pytest
from PEPit.examples.unconstrained_convex_minimization.subgradient_method import wc_subgradient_method

from repro import pep as P
from repro.errors import ConfigError
from repro.papers.fedsgm.runs import pep as M

REL = 1e-6


def _config(**over):
    base = dict(claim="fedsgm.thm1", quantity="subopt", n_clients=1, E=1, T_max=1, profile="quick")
    return (base | over)


def _best(T: int, G: float, eta: float, constrained: bool) -> float:
    problem, _ = M.fedsgm_pep(n_clients=1, E=1, eta=eta, eps=0.5, pattern="A" * T, quantity="best", G=G, D=1.0,
                              lam=0.0, constrained=constrained)
    return P.certify(problem).value


@pytest.mark.parametrize("G, T, eta", [(2.0, 4, 1 / (2.0 * sqrt(4))), (1.0, 3, 0.3)])
@pytest.mark.parametrize("constrained", [False, True])
def test_one_client_one_step_is_pepits_subgradient_method(G, T, eta, constrained):
    # T rounds of Algorithm 1 with m = 1, E = 1, every round an objective step (no constraint, or one whose
    # condition g(w_t) <= eps is never binding) are PEPit's n = T - 1 subgradient steps, metric min_t f(w_t) - f*
    reference, theory = wc_subgradient_method(M=G, n=T - 1, gamma=eta, wrapper="cvxpy", solver="CLARABEL",
                                              verbose=-1)
    value = _best(T, G, eta, constrained)
    assert value == pytest.approx(reference, rel=REL)
    if eta == 1 / (G * sqrt(T)):
        assert value == pytest.approx(theory, rel=REL)    # PEPit's tight G D / sqrt(n + 1)


def test_a_perturbed_step_changes_the_value():
    assert abs(_best(3, 1.0, 0.6, False) - _best(3, 1.0, 0.3, False)) > 1e-3


def test_the_smallest_instance_of_each_quantity_runs():
    for quantity in M.QUANTITIES:
        arrays, meta = M.run_pep(_config(quantity=quantity), 0)
        (point,) = meta["points"]
        cert = point["certificate"]
        assert meta["claim"] == "fedsgm.thm1" and point["params"] == {"quantity": quantity, "m": 1, "E": 1, "T": 1}
        assert cert["solver"] == "CLARABEL" and cert["value"] >= cert["primal"] - 1e-6
        assert point["decision"] in (P.CERTIFIED, P.VIOLATED, P.INCONCLUSIVE)
        assert point["bound"] == pytest.approx(M.claim_constants("fedsgm.thm1", 1, 1, 1)[quantity])
        assert "T1_f0_x" in arrays and "T1_w0" in arrays


@pytest.mark.parametrize("quantity, m, E, T", [("infeas", 1, 1, 4), ("subopt", 2, 2, 2)])
def test_the_worst_case_replays_through_algorithm_1(quantity, m, E, T):
    arrays, meta = M.run_pep(_config(quantity=quantity, n_clients=m, E=E, T_max=T), 0)
    point = meta["points"][-1]
    observed = M.replay(arrays, point)
    cert = point["certificate"]
    assert observed["trajectory_error"] < 1e-6
    # the suite's algorithm takes the worst pattern's branches: sigma_t = 1 exactly on its B rounds
    assert "".join("B" if s else "A" for s in observed["sigma"]) == point["pattern"]
    assert observed[quantity] == pytest.approx(cert["primal"], abs=1e-6)
    assert observed[quantity] == pytest.approx(cert["value"], rel=1e-4)     # attained within the branch margin


def test_halving_the_bound_is_a_violation():
    w = M.worst_case("fedsgm.thm8.proof", "subopt", 1, 1, 2)
    bound = M.claim_constants("fedsgm.thm8.proof", 1, 1, 2)["subopt"]
    assert P.decide(bound, w.certificate).decision == P.CERTIFIED
    assert P.decide(0.5 * w.certificate.value, w.certificate).decision == P.VIOLATED


def test_an_empty_A_needs_the_all_constraint_trajectory_above_eps():
    # with eps this small every round can be a constraint step: the decision flips to violated
    cert, _ = M.solve_pattern(n_clients=1, E=1, eta=0.1, eps=0.05, pattern="BB", quantity="nonempty", lam=0.0)
    assert P.decide(0.05, cert).decision == P.VIOLATED


@pytest.mark.parametrize("key, value", [("claim", "fedsgm.thm2"), ("quantity", "gap"), ("T_max", 0),
                                        ("T_max", 9), ("G", -1.0)])
def test_bad_config_is_one_line(key, value):
    with pytest.raises(ConfigError) as err:
        M.PepConfig.from_dict(_config(**{key: value}))
    assert "\n" not in str(err.value) and key in str(err.value)
