"""Every constant typed once: the run-side values that figures, tables and searches show beside a claim are read from
the claim's encoding, so a change to the encoded constant reaches them. Each pair below is checked on a grid of
parameters against the encoding, then the encoded constant is perturbed (the claim replaced by one whose constant
is scaled) and the run-side value must follow.

The pairs: SSCA's search of Lemma 4 (51) (its objective and the sides it reports), FedCLUP's Theorem 2 rate
1 - gamma mu_F / 4 (the Theorem 2 figure and table), and PC-FedAvg's L_G of Lemma 4.1 with the step
min{1/(6 L_G), 1/(5 L_G (H-1))} of Props. 4.7-4.8 (every PC-FedAvg run's step size and the failure search's scale),
and SSCA's step-size exponents of Lemma 2 (alpha in (0, 1], beta in (max(alpha, 1/2), 1]: the searches' beta and the
failure search's admissible instances), FedSGM's default beta = 2/eps, the smallest Theorem 2 admits (its soft
switching runs), SSCA's mu = 2 tau of the printed surrogates (8)/(18) (the exact enumeration's, the convergence
runs' and the performance estimation's Lemma 4 checks), the case split b + 4 tau (U - A) of SSCA's (42) (where the
search of Lemma 1 places U), PC-FedAvg's Prop. 4.8 (i) in the proof step (T3.4-a), and FedCLUP's step conditions
eta <= 1/(L + lam) of Lemma 5 and gamma <= 1/L_F of Lemma 6 (the findings on the authors' synthetic settings).
Where a pair is typed here (the right side of a comparison), it is the paper's formula, as a reader checks it.""" 
import itertools
from types import SimpleNamespace
from dataclasses import replace

import numpy as np
import pytest
import sympy

from bounds.fedclup import claims as FB
from bounds.fedclup import findings as FF
from bounds.fedsgm import claims as GB
from bounds.pcfedavg import claims as PB
from bounds.ssca import claims as SB
from repro.constraints import ProductSet, Whole
from repro.papers.fedclup.runs import optimization as O
from repro.papers.fedsgm import checks as GV
from repro.papers.pcfedavg.problems.personalized import PersonalizedProblem
from repro.papers.ssca import checks as SV
from repro.papers.ssca.runs import convergence as SC
from repro.papers.ssca.runs import exact as SX
from repro.papers.ssca.runs import failsearch as SF
from repro.papers.ssca.runs import pep as SP
from repro.papers.ssca.runs import search as SS

GRID = list(itertools.product((0.01, 0.3, 1.0), (0.1, 1.0), (0.5, 4.0)))


def _scaled(claim, symbol: str, factor: float):
    """``claim`` with every occurrence of ``symbol`` in its bounds multiplied by ``factor`` (the constant that
    carries it scaled), same id."""
    def scale(expr):
        return expr.subs({x: factor * x for x in expr.free_symbols if x.name == symbol}, simultaneous=True)
    return replace(claim, conclusion=tuple(type(r)(r.lhs, scale(r.rhs)) for r in claim.relations))


def _patched(monkeypatch, module, claim_id: str, perturbed) -> None:
    original = module.claim
    monkeypatch.setattr(module, "claim", lambda cid: perturbed if cid == claim_id else original(cid))


def _lemma4_series(gamma, scale):
    rng = np.random.default_rng(np.random.SeedSequence([7, int(gamma * 100), int(scale * 10)]))
    delta, err = scale * rng.uniform(0.1, 1.0, 5), rng.uniform(0.0, 0.5, 5)
    descent = -rng.uniform(0.0, 1.0, 5) * gamma * delta**2
    return descent, np.full(5, gamma), delta, err


@pytest.mark.parametrize("gamma, mu, L_hat", GRID)
def test_ssca_lemma4_search_reads_51_from_its_encoding(gamma, mu, L_hat):
    series = _lemma4_series(gamma, mu)
    observed, bound = SS.lemma4_sides(*series, mu, L_hat)
    k = int(np.flatnonzero(series[0] == observed)[0])
    encoded = SB.claim("ssca.lemma4").evaluate(descent=series[0], gamma=series[1], Delta=series[2], err=series[3],
                                               mu=mu, L_hat=L_hat)["descent"]
    assert bound == pytest.approx(float(encoded[k]), rel=1e-12, abs=1e-15)
    assert (SS.lemma4_ratio(*series, mu, L_hat) > 1) == (not SV.lemma4_outcome(*series, mu, L_hat).passed)


def test_ssca_lemma4_search_follows_a_perturbed_constant(monkeypatch):
    series, mu, L_hat = _lemma4_series(0.3, 1.0), 1.0, 2.0
    before = SS.lemma4_ratio(*series, mu, L_hat)
    _patched(monkeypatch, SB, "ssca.lemma4", _scaled(SB.claim("ssca.lemma4"), "L_hat", 0.5))
    after = SS.lemma4_ratio(*series, mu, L_hat)
    assert after == pytest.approx(2 * before, rel=1e-6)   # the constant halved in the encoding: the ratio doubles


@pytest.mark.parametrize("gamma, mu, lam", GRID)
def test_fedclup_theorem2_rate_is_the_encoded_one(gamma, mu, lam):
    mu_F = lam * mu / (lam + mu)
    assert O.theorem2_rate(gamma, mu, lam) == pytest.approx(1 - gamma * mu_F / 4, rel=1e-14)


def test_fedclup_theorem2_rate_follows_a_perturbed_constant(monkeypatch):
    before = O.theorem2_rate(0.5, 1.0, 2.0)
    _patched(monkeypatch, FB, "fedclup.thm2", _scaled(FB.claim("fedclup.thm2"), "gamma", 2.0))
    assert 1 - O.theorem2_rate(0.5, 1.0, 2.0) == pytest.approx(2 * (1 - before), rel=1e-12)


def _personalized(m: int, sigma: float, L_f: float) -> PersonalizedProblem:
    local = type("Local", (), {"m": m, "n": 1, "L_f": L_f})()
    return PersonalizedProblem(local, np.full(m, sigma), ProductSet([Whole(1)] * m))


@pytest.mark.parametrize("m, H, sigma, L_f, rho", [(2, 1, 1.0, 1.0, 1.0), (2, 3, 0.5, 2.0, 4.0), (5, 2, 2.0, 0.3, 0.1),
                                                   (3, 7, 0.7, 1.0, 10.0)])
def test_pcfedavg_L_G_and_step_are_the_encoded_ones(m, H, sigma, L_f, rho):
    problem = _personalized(m, sigma, L_f)
    L_G = (L_f + sigma * (m - 1)) / m + rho                                 # Lemma 4.1, second display
    assert problem.L_G(rho) == pytest.approx(L_G, rel=1e-15)
    assert problem.L_G(rho) == pytest.approx(float(PB.L_G_EXPR.subs({PB.L_f: L_f, PB.sigma: sigma, PB.m: m, PB.rho: rho})),
                                             rel=1e-15)
    step = min(1 / (6 * L_G), 1 / (5 * L_G * (H - 1))) if H > 1 else 1 / (6 * L_G)   # Prop. 4.7's condition
    assert problem.gamma_max(rho, H) == pytest.approx(step, rel=2e-12) and problem.gamma_max(rho, H) < step


def test_pcfedavg_step_follows_a_perturbed_hypothesis(monkeypatch):
    problem, claim = _personalized(2, 1.0, 1.0), PB.claim("pcfedavg.prop4.7")
    before = problem.gamma_max(1.0, 1)
    doubled = tuple(type(h)(2 * h.lhs, h.rhs) if PB.gamma in h.free_symbols else h for h in claim.hypotheses)
    _patched(monkeypatch, PB, "pcfedavg.prop4.7", replace(claim, hypotheses=doubled))
    assert problem.gamma_max(1.0, 1) == pytest.approx(before / 2, rel=1e-12)   # 12 gamma L_G <= 1: half the step


@pytest.mark.parametrize("alpha", (0.01, 0.3, 0.5, 0.7, 0.99))
def test_ssca_step_exponents_are_lemma2s(alpha):
    low = max(alpha, 0.5) + SV.BETA_MARGIN                                 # (4), (6) with power laws, Lemma 2
    for edge in (0.0, 0.4, 1.0):
        assert SV.beta_near_edge(alpha, edge) == pytest.approx(low + edge * (1 - low), rel=1e-15)
    for beta in (max(alpha, 0.5), max(alpha, 0.5) + 1e-6, 0.999, 1.0, 1.0 + 1e-9):
        assert SV.step_exponents_admissible(0.5, alpha, 0.5, beta, 1.0) == (max(alpha, 0.5) < beta <= 1)
    params = SF.decode({"clients": 1, "per_client": 3, "batch": 1, "d": 1}, ("problem", "alpha", "beta_edge", "a1",
                                                                             "a2", "updates"),
                       np.array([0.0, alpha, 0.0, 0.5, 0.5, 1.0]))
    assert params["beta"] == SV.beta_near_edge(alpha, 0.0)


def test_ssca_step_exponents_follow_a_perturbed_hypothesis(monkeypatch):
    claim = SB.claim("ssca.lemma2")
    half, moved_to = sympy.Rational(1, 2), sympy.Rational(3, 5)           # 1/2 < beta  ->  3/5 < beta
    moved = tuple(h.subs(half, moved_to) if h.free_symbols == {SB.beta} else h for h in claim.hypotheses)
    assert moved != claim.hypotheses
    _patched(monkeypatch, SB, "ssca.lemma2", replace(claim, hypotheses=moved))
    assert SV.beta_near_edge(0.3, 0.0) == pytest.approx(0.6 + SV.BETA_MARGIN, rel=1e-15)
    assert not SV.step_exponents_admissible(0.5, 0.3, 0.5, 0.55, 1.0)


def _fedsgm_soft_beta(D: float, T: int) -> tuple[float, float]:
    instance = SimpleNamespace(problem=SimpleNamespace(dim=3, n_clients=4, G=2.0), optimum=SimpleNamespace(D=D))
    params = GV.params_for(GB.claim("fedsgm.thm2"), instance, T=T, E=2, switching="soft", K=None, w0=np.zeros(3))
    return params.beta, params.eps


@pytest.mark.parametrize("D, T", [(0.5, 10), (3.0, 200), (10.0, 1)])
def test_fedsgm_default_beta_is_the_smallest_theorem_2_admits(D, T):
    beta, eps = _fedsgm_soft_beta(D, T)
    assert beta == pytest.approx(2 / eps, rel=1e-15)                    # Theorem 2: beta >= 2/eps
    assert GB.claim("fedsgm.thm2").hypotheses_hold(beta=beta, E=2, T=T, n=4, q_u=0.0, D=D, G=2.0, N=0)


def test_fedsgm_default_beta_follows_a_perturbed_hypothesis(monkeypatch):
    before, _ = _fedsgm_soft_beta(1.0, 50)
    claim = GB.claim("fedsgm.thm2")
    moved = tuple(sympy.Ge(h.lhs, 2 * h.rhs) if GB.beta in h.free_symbols else h for h in claim.hypotheses)
    _patched(monkeypatch, GB, "fedsgm.thm2", replace(claim, hypotheses=moved))
    assert _fedsgm_soft_beta(1.0, 50)[0] == pytest.approx(2 * before, rel=1e-12)


TAUS = (0.01, 0.5, 3.0)


def _ssca_moduli(tau: float) -> tuple[float, float, float]:
    """mu as the exact enumeration's instance, a convergence run's metadata and the PEP carry it, at proximal weight
    ``tau``."""
    exact = SX.ExactConfig(problem="logistic_l2", steps="theory_a", clients=1, per_client=2, batch=1, updates=1,
                           d=1, tau=tau, profile="quick")
    convergence = SC.ConvergenceConfig(problem="logistic_l2", steps="theory_a", mode="sample", iterations=3, tau=tau,
                                       profile="quick")
    pep = SP.PepConfig(steps="VI(0.6,0.9,0.3)", t=(2,), tau=tau, L_hat=1.0, err_over_mu=1.0, profile="quick")
    return (SX.build_instance(exact, 0).check.mu, SC.run_convergence(convergence, 0)[1]["mu"],
            SP.modulus_and_error(pep)[0])


@pytest.mark.parametrize("tau", TAUS)
def test_ssca_surrogate_modulus_is_2_tau(tau):
    assert _ssca_moduli(tau) == (pytest.approx(2 * tau, rel=1e-15),) * 3   # tau ||w - w^t||^2 in (8)/(18)


def test_ssca_surrogate_modulus_follows_a_perturbed_encoding(monkeypatch):
    monkeypatch.setattr(SB, "MU_PRINTED_SURROGATE", 3 * SB.MU_PRINTED_SURROGATE)
    assert _ssca_moduli(0.5) == (pytest.approx(3.0, rel=1e-15),) * 3


def _fedclup_setting(lam: float, L: float) -> dict:
    """A synthetic setting whose eta and gamma sit exactly at Lemma 5's eta <= 1/(L + lam) and Lemma 6's
    gamma <= 1/L_F (the paper's formulas, typed here as a reader checks them)."""
    return {"figure": "synthetic", "lam": lam, "m": 2, "K": 5, "mu": 0.1, "L_valid": L, "L_code": L, "L_name": "L_code",
            "L": L, "eta": 1 / (L + lam), "gamma": (lam + L) / (lam * L)}


@pytest.mark.parametrize("lam, L", [(0.1, 1.0), (5.0, 2.0), (30.0, 9.13)])
def test_fedclup_settings_read_lemmas_5_and_6(lam, L):
    settings = (_fedclup_setting(lam, L),)
    assert FF.settings_eta(settings).verdict == FF.settings_gamma(settings).verdict == "consistent"


@pytest.mark.parametrize("claim_id, finding", [("fedclup.lemma5", "settings_eta"), ("fedclup.lemma6", "settings_gamma")])
def test_fedclup_settings_follow_a_perturbed_step_condition(monkeypatch, claim_id, finding):
    claim = FB.claim(claim_id)
    doubled = tuple(type(h)(2 * h.lhs, h.rhs) if {FB.eta, FB.gamma} & h.free_symbols else h for h in claim.hypotheses)
    assert doubled != claim.hypotheses
    original = FF.claim
    monkeypatch.setattr(FF, "claim", lambda cid: replace(claim, hypotheses=doubled) if cid == claim_id else original(cid))
    assert getattr(FF, finding)((_fedclup_setting(5.0, 2.0),)).verdict == "discrepancy"   # the step is now twice the cap


@pytest.mark.parametrize("A, b, tau, gap", [(1.0, 2.0, 0.5, -0.5), (-3.0, 0.1, 0.01, 2.0), (0.0, 5.0, 3.0, -1.5)])
def test_ssca_lemma1_search_places_u_by_the_encoded_case_split(A, b, tau, gap):
    U = SS._cost_limit_of_gap()(A, b, tau, gap)
    assert U == pytest.approx(A + gap * b / (4 * tau), rel=1e-14)                 # b + 4 tau (U - A) = b (1 + gap)


def test_ssca_lemma1_search_follows_a_perturbed_case_split(monkeypatch):
    tau = sympy.Symbol("tau", positive=True)
    monkeypatch.setattr(SB, "D_42", SB.D_42.subs(tau, 2 * tau))                    # b + 8 tau (U - A)
    SS._cost_limit_of_gap.cache_clear()
    try:
        assert SS._cost_limit_of_gap()(1.0, 2.0, 0.5, -0.5) == pytest.approx(1.0 - 0.5 * 2.0 / (8 * 0.5), rel=1e-14)
    finally:
        SS._cost_limit_of_gap.cache_clear()


def test_pcfedavg_t34_step_reads_prop48i_from_its_encoding(monkeypatch):
    """(T3.4-a)'s left side is Prop. 4.8 (i)'s bound minus a slack: doubling the encoded bound adds it once more."""
    from bounds.pcfedavg import steps as PS

    (step,) = PS._thm34_steps()
    monkeypatch.setattr(PB, "BOUND_48I", 2 * PB.BOUND_48I)
    (doubled,) = PS._thm34_steps()
    assert sympy.simplify(doubled.lhs - step.lhs - PB.BOUND_48I / 2) == 0
