"""FedSGM's PEP models (repro.papers.fedsgm.runs.pep): the degenerate case (one client, E = 1, no active constraint)
is PEPit's own subgradient method (best iterate) and a hand-built PEPit PEP of the averaged iterate; the printed eps
and eta are the paper's closed forms; the T = 1 worst cases are G D in closed form; a weakened claim (eps / 2) pushed
through run_pep is violated exactly where the certified worst case exceeds it; a pattern is dropped only when no
instance follows it; the attained instances sit at distance D and replay through the suite's Algorithm 1."""
from dataclasses import replace
from math import sqrt

import numpy as np
import pytest
from PEPit import PEP
from PEPit.examples.unconstrained_convex_minimization.subgradient_method import wc_subgradient_method
from PEPit.functions import ConvexLipschitzFunction

from repro import pep as P
from repro.errors import ConfigError
from repro.papers.fedsgm.runs import pep as M

REL = 1e-6


BASE = dict(claim="fedsgm.thm1", quantity="subopt", n_clients=1, E=1, T_max=1, profile="quick")


def _config(**over) -> M.PepConfig:
    return M.PepConfig(**(BASE | over))


def _metric(T: int, G: float, eta: float, constrained: bool, quantity: str) -> float:
    problem, _ = M.fedsgm_pep(n_clients=1, E=1, eta=eta, eps=0.5, pattern="A" * T, quantity=quantity, G=G, D=1.0,
                              lam=0.0, constrained=constrained)
    return P.certify(problem).value


@pytest.mark.parametrize("G, T, eta", [(2.0, 4, 1 / (2.0 * sqrt(4))), (1.0, 3, 0.3)])
@pytest.mark.parametrize("constrained", [False, True])
def test_one_client_one_step_is_pepits_subgradient_method(G, T, eta, constrained):
    # T rounds of Algorithm 1 with m = 1, E = 1, every round an objective step (no constraint, or one whose
    # condition g(w_t) <= eps is never binding) are PEPit's n = T - 1 subgradient steps, metric min_t f(w_t) - f*
    reference, theory = wc_subgradient_method(M=G, n=T - 1, gamma=eta, wrapper="cvxpy", solver="CLARABEL",
                                              verbose=-1)
    value = _metric(T, G, eta, constrained, "best")
    assert value == pytest.approx(reference, rel=REL)
    if eta == 1 / (G * sqrt(T)):
        assert value == pytest.approx(theory, rel=REL)    # PEPit's tight G D / sqrt(n + 1)


def _averaged_subgradient(G: float, T: int, eta: float) -> float:
    """f(mean_{t<T} w_t) - f* of T subgradient steps on a convex G-Lipschitz f, ||w_0 - w*|| <= 1, written with
    PEPit directly (no code of the FedSGM model): PEPit has no example of the averaged iterate."""
    problem = PEP()
    f = problem.declare_function(ConvexLipschitzFunction, M=G)
    ws = f.stationary_point()
    w = problem.set_initial_point()
    problem.set_initial_condition((w - ws) ** 2 <= 1)
    total = w
    for _ in range(T - 1):
        w = w - eta * f.gradient(w)
        total = total + w
    problem.set_performance_metric(f(total / T) - f(ws))
    return problem.solve(wrapper="cvxpy", solver="CLARABEL", verbose=0)


@pytest.mark.parametrize("G, T, eta", [(2.0, 3, 0.25), (1.0, 4, 0.3)])
@pytest.mark.parametrize("constrained", [False, True])
def test_the_averaged_iterate_is_the_averaged_subgradient_method(G, T, eta, constrained):
    # the claims' quantity f(w_bar) - f*, w_bar = the mean of w_0..w_{T-1} when every round is an objective round
    assert _metric(T, G, eta, constrained, "subopt") == pytest.approx(_averaged_subgradient(G, T, eta), rel=1e-5)


def test_a_perturbed_step_changes_the_value():
    assert abs(_metric(3, 1.0, 0.6, False, "best") - _metric(3, 1.0, 0.3, False, "best")) > 1e-3
    assert abs(_metric(3, 1.0, 0.6, False, "subopt") - _metric(3, 1.0, 0.3, False, "subopt")) > 1e-3


def _closed_form(claim: str, E: int, T: int, D: float, G: float) -> tuple[float, float]:
    """(eps, eta) at q_u = 0 as the paper prints them: Theorem 1 (Gamma = 2 E^2) and Theorem 8 give eps =
    2 D G sqrt(E / T), eta = D / (2 G E sqrt(E T)); the proof of Theorem 8 (N = 0) Gamma = E/2 + 1 + E^2/3,
    eps = D G sqrt(2 Gamma / (E T)), eta = D / (G sqrt(2 E T Gamma))."""
    if claim in ("fedsgm.thm1", "fedsgm.thm6", "fedsgm.thm8"):
        return 2 * D * G * sqrt(E / T), D / (2 * G * E * sqrt(E * T))
    gamma = E / 2 + 1 + E * E / 3
    return D * G * sqrt(2 * gamma / (E * T)), D / (G * sqrt(2 * E * T * gamma))


@pytest.mark.parametrize("claim", M.PEP_CLAIMS)
@pytest.mark.parametrize("E, T, D, G", [(1, 1, 1.0, 1.0), (2, 3, 2.0, 0.5), (3, 5, 1.5, 3.0)])
def test_the_printed_constants_are_the_papers_closed_forms(claim, E, T, D, G):
    k = M.claim_constants(claim, 2, E, T, G, D)
    eps, eta = _closed_form(claim, E, T, D, G)
    assert k["eps"] == pytest.approx(eps, rel=1e-12) and k["eta"] == pytest.approx(eta, rel=1e-12)
    assert k["subopt"] == k["infeas"] == k["nonempty"] == pytest.approx(eps, rel=1e-12) and k["q_u"] == 0


def test_the_smallest_instance_of_each_quantity_is_g_d():
    # T = 1, m = E = 1: w_bar = w_0 (a round of A, since g(w_0) <= g(w*) + G D <= G D < eps = 2 G D), so
    # f(w_bar) - f* <= G ||w_0 - w*|| = G D and g(w_bar) <= G D, both attained (f = g = G |<u, . - w*>|); for
    # nonempty, g(w_0) <= G D likewise. The printed bound is the closed form eps = 2 D G.
    for quantity in M.QUANTITIES:
        arrays, meta = M.run_pep(_config(quantity=quantity), 0)
        (point,) = meta["points"]
        cert = point["certificate"]
        assert meta["claim"] == "fedsgm.thm1" and point["params"] == {"quantity": quantity, "m": 1, "E": 1, "T": 1}
        assert cert["value"] == pytest.approx(1.0, rel=1e-7) and cert["primal"] == pytest.approx(1.0, rel=1e-7)
        assert point["bound"] == pytest.approx(2.0, rel=1e-12) and point["decision"] == P.CERTIFIED
        assert point["replay"]["replayed"], point["replay"]
        assert "T1_f0_x" in arrays and "T1_w0" in arrays


def test_the_combined_status_is_optimal_only_when_both_solves_are():
    assert M.combined_status("optimal", "optimal") == "optimal"
    assert M.combined_status("optimal", "optimal_inaccurate") == "optimal_inaccurate"
    assert M.combined_status("optimal_inaccurate", "optimal") == "optimal_inaccurate"
    assert M.combined_status("optimal", "no KKT instance") == "no KKT instance"
    # the narrow margin follows: a T = 1 point (both solves optimal) decides at 1e-7, not 1e-4
    w = M.worst_case("fedsgm.thm1", "subopt", 1, 1, 1)
    assert w.certificate.status == "optimal"
    assert P.decide(w.certificate.value * (1 + 1e-5), w.certificate).decision == P.CERTIFIED


@pytest.mark.parametrize("claim, quantity", [("fedsgm.thm1", "infeas"), ("fedsgm.thm8.proof", "subopt")])
def test_a_weakened_claim_is_violated_where_the_worst_case_exceeds_it(claim, quantity):
    config = _config(claim=claim, quantity=quantity, T_max=3)
    _, nominal = M.run_pep(config, 0)
    _, weak = M.run_pep(config, 0, bound_scale=0.5)
    below = 0
    for p, q in zip(nominal["points"], weak["points"]):
        eps = _closed_form(claim, 1, p["params"]["T"], 1.0, 1.0)[0]
        assert p["bound"] == pytest.approx(eps, rel=1e-12) and q["bound"] == pytest.approx(eps / 2, rel=1e-12)
        assert p["decision"] == P.CERTIFIED
        if eps / 2 < 0.99 * p["certificate"]["value"]:
            below += 1
            assert q["decision"] == P.VIOLATED, q
        elif eps / 2 > 1.01 * p["certificate"]["value"]:
            assert q["decision"] == P.CERTIFIED, q
    assert below >= 1


def test_a_weakened_claim_at_t1_is_tight():
    # eps / 2 = G D at T = 1 (thm1, E = 1): exactly the closed-form worst case
    _, weak = M.run_pep(_config(quantity="subopt"), 0, bound_scale=0.5)
    assert weak["points"][0]["decision"] == P.TIGHT


def test_a_pattern_is_dropped_only_when_the_branch_slack_confirms_it():
    k = M.claim_constants("fedsgm.thm1", 1, 1, 2)
    common = {"n_clients": 1, "E": 1, "eta": k["eta"], "eps": k["eps"], "quantity": "subopt", "G": 1.0, "D": 1.0}
    # "BA" at T = 2 needs g(w_0) >= eps = sqrt(2), but g(w_0) <= G D = 1 (and g(w_1) may be anything below
    # eps + 1 - sqrt(2)): the certified slack min(g(w_0) - eps, eps - g(w_1)) is at most G D - eps = 1 - sqrt(2)
    slack = M.branch_slack(**common | {"lam": None}, pattern="BA")
    assert k["eps"] == pytest.approx(sqrt(2), rel=1e-12)
    assert slack.value == pytest.approx(1.0 - sqrt(2), rel=1e-6)
    assert M._upper(common, "BA") == (None, "dropped")


def test_a_pattern_wrongly_reported_infeasible_is_kept(monkeypatch):
    k = M.claim_constants("fedsgm.thm1", 1, 1, 2)
    common = {"n_clients": 1, "E": 1, "eta": k["eta"], "eps": k["eps"], "quantity": "subopt", "G": 1.0, "D": 1.0}
    truth = M._upper(common, "AA")
    solve = M.solve_pattern

    def liar(**kwargs):        # the exact pattern PEP "infeasible", as a solver might wrongly report it
        if kwargs.get("margin", 0.0) == 0.0 and kwargs.get("conditions", True):
            return None, None
        return solve(**kwargs)

    monkeypatch.setattr(M, "solve_pattern", liar)
    cert, how = M._upper(common, "AA")
    assert truth[1] == "solved" and how == "loosened"
    assert cert.value >= truth[0].value - 1e-7      # a superset of the pattern's instances: never below


@pytest.mark.parametrize("quantity, m, E, T", [("infeas", 1, 1, 4), ("subopt", 2, 2, 2), ("nonempty", 1, 2, 3)])
def test_the_worst_case_replays_through_algorithm_1(quantity, m, E, T):
    arrays, meta = M.run_pep(_config(quantity=quantity, n_clients=m, E=E, T_max=T), 0)
    point = meta["points"][-1]
    observed = M.replay(arrays, point)
    cert = point["certificate"]
    assert observed["trajectory_error"] < 1e-6
    # the attained instance is at the theorems' D := ||w_0 - w*|| (measured on the extracted arrays)
    w0, ws = (np.asarray(arrays[f"T{T}_{k}"]) for k in ("w0", "ws"))
    assert float(np.linalg.norm(w0 - ws)) == pytest.approx(1.0, abs=1e-6)
    # the suite's algorithm takes the worst pattern's branches: sigma_t = 1 exactly on its B rounds
    assert "".join("B" if s else "A" for s in observed["sigma"]) == point["pattern"]
    assert observed[quantity] == pytest.approx(cert["primal"], abs=1e-6)
    assert observed[quantity] == pytest.approx(cert["value"], rel=1e-4)     # attained within the branch margin
    assert all(p["replay"]["replayed"] for p in meta["points"]), [p["replay"] for p in meta["points"]]


def test_a_replay_refuses_an_instance_off_distance_d():
    arrays, meta = M.run_pep(_config(T_max=1), 0)
    point = meta["points"][0] | {"D": 0.5}
    with pytest.raises(P.ReplayError, match="not D"):
        M.replay(arrays, point)
    assert not M.replay_record(arrays, point)["replayed"]


def test_a_replay_that_leaves_the_table_for_an_observation_fails():
    # move w_bar's row out of f_0's and g_0's tables: f(w_bar), g(w_bar) then have no certified value
    arrays, meta = M.run_pep(_config(T_max=2), 0)
    point, arrays = meta["points"][-1], dict(arrays)
    for fn in ("f0", "g0"):
        x = np.array(arrays[f"T2_{fn}_x"], dtype=float)
        x[np.argmin(np.linalg.norm(x - arrays["T2_w_bar"], axis=1))] += 1.0
        arrays[f"T2_{fn}_x"] = x
    with pytest.raises(P.ReplayError, match="off the worst-case table"):
        M.replay(arrays, point)


def test_an_empty_A_needs_the_all_constraint_trajectory_above_eps():
    # with eps this small every round can be a constraint step: the decision flips to violated
    cert, _ = M.solve_pattern(n_clients=1, E=1, eta=0.1, eps=0.05, pattern="BB", quantity="nonempty", lam=0.0)
    assert P.decide(0.05, cert).decision == P.VIOLATED


@pytest.mark.parametrize("key, value", [("claim", "fedsgm.thm2"), ("quantity", "gap"), ("T_max", 0),
                                        ("T_max", 9), ("G", -1.0)])
def test_bad_config_is_one_line(key, value):
    with pytest.raises(ConfigError) as err:
        M.PepConfig.from_dict(BASE | {key: value})
    assert "\n" not in str(err.value) and key in str(err.value)


def test_the_paper_grid_solves_theorems_1_6_8_once_and_the_proof_constants_apart():
    specs = M.pep_specs("paper")
    by_claim = {}
    for spec in specs:
        by_claim.setdefault(spec.config["claim"], []).append(spec)
    assert all(s.function is M.run_pep for claim in ("fedsgm.thm1", "fedsgm.thm8.proof") for s in by_claim[claim])
    for claim in ("fedsgm.thm6", "fedsgm.thm8"):
        for spec in by_claim[claim]:
            solved = spec.needs["solved"]
            assert spec.function is M.reprice_pep and solved.config["claim"] == "fedsgm.thm1"
            assert {k: v for k, v in solved.config.items() if k != "claim"} == \
                {k: v for k, v in spec.config.items() if k != "claim"}


class _Solved:
    """What the runner hands a run as one of its inputs: the needed run's spec config (the stored dict), arrays and
    metadata."""

    def __init__(self, config: M.PepConfig, arrays, meta):
        self.spec = type("Spec", (), {"config": config.as_dict()})()
        self.arrays, self.meta = arrays, {"metadata": meta}


@pytest.mark.parametrize("quantity", ["subopt", "nonempty"])
def test_a_repriced_curve_is_the_curve_solved_again(quantity):
    config = _config(quantity=quantity, T_max=2)
    arrays, meta = M.run_pep(config, 0)
    own_arrays, own = M.run_pep(replace(config, claim="fedsgm.thm8"), 0)
    re_arrays, repriced = M.reprice_pep(replace(config, claim="fedsgm.thm8"), 0,
                                        {"solved": _Solved(config, arrays, meta)})
    assert repriced["claim"] == "fedsgm.thm8" and sorted(re_arrays) == sorted(own_arrays)
    for mine, theirs in zip(repriced["points"], own["points"], strict=True):
        assert mine["bound"] == pytest.approx(theirs["bound"], rel=1e-12)
        assert mine["decision"] == theirs["decision"] and mine["pattern"] == theirs["pattern"]
        assert mine["certificate"]["value"] == pytest.approx(theirs["certificate"]["value"], rel=REL, abs=1e-8)
        assert mine["replay"]["replayed"] == theirs["replay"]["replayed"]


def test_a_curve_is_not_repriced_from_other_constants():
    config = _config(T_max=1)
    arrays, meta = M.run_pep(config, 0)
    with pytest.raises(ConfigError) as err:
        M.reprice_pep(replace(config, claim="fedsgm.thm8.proof"), 0, {"solved": _Solved(config, arrays, meta)})
    assert "\n" not in str(err.value) and "eps and eta" in str(err.value)
