"""Tests of bounds.fedsgm: every claim evaluates, the algebraic identities between the theorems'
constants hold, the encodings agree with the paper's formulas written independently in numpy, and the audit
verdicts.
"""
from __future__ import annotations

import re
import zlib
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds.fedsgm import claims as B
from bounds.fedsgm import findings as BF
from bounds.core import Mode, prove_identity

E, T, n, q, D, G = B.E, B.T, B.n, B.q, B.D, B.G
eta, eps, beta, N, tau = B.eta, B.eps, B.beta, B.N, B.tau


# ---------------------------------------------------------------------------- random admissible points
def admissible_point(rng: np.random.Generator) -> dict:
    """One random value per symbol of bounds.fedsgm, drawn from the symbol's stated domain."""
    return {
        "E": int(rng.integers(1, 20)), "T": int(rng.integers(1, 5000)), "n": int(rng.integers(1, 50)),
        "q_u": float(rng.uniform(0, 10)), "D": float(np.exp(rng.uniform(-3, 3))),
        "G": float(np.exp(rng.uniform(-3, 3))), "eta": float(np.exp(rng.uniform(-6, 0))),
        "epsilon": float(np.exp(rng.uniform(-4, 1))), "beta": float(np.exp(rng.uniform(0, 5))),
        "a": float(np.exp(rng.uniform(-3, 3))), "N": int(rng.integers(0, 5)),
        # observed quantities
        "A_size": float(rng.integers(0, 10)), "subopt": float(rng.normal()), "infeas": float(rng.normal()),
        "sigma": float(rng.uniform()), "Sigma_A": float(rng.uniform(0, 5)),
        "agg_sq_expect": float(rng.uniform()), "Xbar_sq": float(rng.uniform()), "sumX_sq": float(rng.uniform()),
        "sum_nu_sq": float(rng.uniform()), "inner_term": float(rng.normal()), "drift_term": float(rng.uniform()),
        "gap_f_term": float(rng.normal()), "gap_g_term": float(rng.normal()), "drift_sum": float(rng.uniform()),
        "drift_total": float(rng.uniform()), "gap_local_total": float(rng.normal()),
        "dist_sq": float(rng.uniform()), "dist_next_sq": float(rng.uniform()), "gap_f": float(-rng.uniform()),
        "gap_g": float(-rng.uniform()), "in_A": float(rng.integers(0, 2)), "S_T": float(rng.uniform()),
    }


def test_claim_ids_unique_and_lookup():
    ids = [c.id for c in B.CLAIMS]
    assert len(ids) == len(set(ids))
    assert B.claim("fedsgm.thm1") is B.thm1
    with pytest.raises(KeyError, match="fedsgm.lemma3"):
        B.claim("fedsgm.nope")


@pytest.mark.parametrize("claim", B.CLAIMS, ids=lambda c: c.id)
def test_every_claim_evaluates_at_random_admissible_point(claim):
    rng = np.random.default_rng(zlib.crc32(claim.id.encode()))
    for _ in range(5):
        vals = admissible_point(rng)
        assert {str(s) for s in claim.symbols} <= set(vals), "test domain table misses a symbol"
        out = claim.evaluate(**vals)
        if claim.mode is Mode.ORDER:
            assert np.isfinite(out) and out > 0
        else:
            assert set(out) == {str(r.lhs) for r in claim.relations}
            for name, v in out.items():
                assert np.all(np.isfinite(v)), (claim.id, name, v)
        for name, v in claim.prescribed(**vals).items():
            assert np.isfinite(v) and v > 0, (claim.id, name)
        held = np.asarray(claim.hypotheses_hold(**vals))
        assert held.dtype == bool
        assert claim.latex().strip()


def test_claims_evaluate_vectorised():
    Ts = np.array([10.0, 100.0, 1000.0])
    vals = admissible_point(np.random.default_rng(0)) | {"T": Ts}
    for claim in (B.thm1, B.S_summed, B.thm7_proof):
        for v in claim.evaluate(**vals).values():
            assert np.shape(v) in ((3,), ())


# ---------------------------------------------------------------------------- encodings vs the paper (numpy)
@pytest.mark.parametrize("seed", range(5))
def test_encodings_match_paper_formulas(seed):
    v = admissible_point(np.random.default_rng(seed))
    E_, T_, n_, q_, D_, G_ = v["E"], v["T"], v["n"], v["q_u"], v["D"], v["G"]
    eta_, a_ = v["eta"], v["a"]
    gst = 2 * E_**2 + E_ * q_ / (2 * n_)
    gpf = 0.5 * (q_ / n_ + 1) * E_ + 1 + E_**2 / 3
    eps_of = lambda g: np.sqrt(2 * D_**2 * G_**2 * g / (E_ * T_))    # noqa: E731
    eta_of = lambda g: np.sqrt(D_**2 / (2 * G_**2 * E_ * T_ * g))     # noqa: E731
    r = dict(rtol=1e-12)

    t1 = B.thm1.evaluate(**v)
    np.testing.assert_allclose(t1["subopt"], eps_of(gst), **r)
    np.testing.assert_allclose(t1["infeas"], eps_of(gst), **r)
    assert t1["A_size"] == 1
    np.testing.assert_allclose(B.thm1.prescribed(**v)["eta"], eta_of(gst), **r)
    p7 = B.thm7.prescribed(**v)
    np.testing.assert_allclose(p7["beta"], 2 / eps_of(gst), **r)
    np.testing.assert_allclose(B.thm8.prescribed(**v)["epsilon"], np.sqrt(4 * D_**2 * G_**2 * E_ / T_), **r)
    np.testing.assert_allclose(B.thm8.prescribed(**v)["eta"], np.sqrt(D_**2 / (4 * G_**2 * E_**3 * T_)), **r)
    np.testing.assert_allclose(B.thm6_proof.prescribed(**v)["epsilon"], (v["N"] + 1) * eps_of(gpf), **r)
    np.testing.assert_allclose(B.thm6_proof.prescribed(**v)["eta"], eta_of(gpf), **r)
    np.testing.assert_allclose(B.thm7_proof.prescribed(**v)["epsilon"], 2 * eps_of(gpf), **r)
    gpf0 = 0.5 * E_ + 1 + E_**2 / 3
    np.testing.assert_allclose(B.thm9_proof.prescribed(**v)["epsilon"], 2 * eps_of(gpf0), **r)
    np.testing.assert_allclose(B.thm8_proof.prescribed(**v)["eta"], eta_of(gpf0), **r)

    np.testing.assert_allclose(B.lemma3.evaluate(**v)["agg_sq_expect"], (q_ / n_ + 1) * E_**2 * G_**2, **r)
    np.testing.assert_allclose(B.lemma5.evaluate(**v)["drift_sum"], eta_**2 * E_**3 * G_**2 / 3, **r)
    np.testing.assert_allclose(B.S_summed.evaluate(**v)["S_T"],
                               D_**2 / (2 * eta_ * E_ * T_) + eta_ * G_**2 * gpf, **r)
    ds, gf, gg, inA, sig = v["dist_sq"], v["gap_f"], v["gap_g"], v["in_A"], v["sigma"]
    np.testing.assert_allclose(
        B.R_hard.evaluate(**v)["dist_next_sq"],
        ds + eta_**2 * (q_ / n_ + 1) * E_**2 * G_**2 + 2 * eta_ * a_ * E_ * G_**2
        + 2 / (3 * a_) * eta_**3 * E_**3 * G_**2 + 2 * eta_ * E_ * (inA * gf + (1 - inA) * gg), **r)
    np.testing.assert_allclose(
        B.R_soft.evaluate(**v)["dist_next_sq"],
        ds + eta_**2 * (q_ / n_ + 1) * E_**2 * G_**2 + 2 * eta_**2 * E_ * G_**2
        + 2 / 3 * eta_**2 * E_**3 * G_**2 + 2 * eta_ * E_ * sig * gg + 2 * eta_ * E_ * (1 - sig) * gf, **r)
    np.testing.assert_allclose(
        B.lemma4.evaluate(**v)["inner_term"],
        eta_ / a_ * v["drift_term"] + eta_ * a_ * G_**2
        + 2 * eta_ * (inA * v["gap_f_term"] + (1 - inA) * v["gap_g_term"]), **r)
    np.testing.assert_allclose(B.complexity.evaluate(**v), D_**2 * G_**2 * (4 * E_ + q_ / n_) / v["epsilon"]**2, **r)
    # Theorem 2's hypothesis beta >= 2/eps with the prescribed eps_st
    assert bool(B.thm2.hypotheses_hold(**(v | {"beta": 2.0001 / eps_of(gst)})))
    assert not bool(B.thm2.hypotheses_hold(**(v | {"beta": 1.9999 / eps_of(gst)})))


def test_lemma_chains_are_ordered_on_consistent_data():
    """Lemma 3's steps, evaluated on real vectors, increase from left to right."""
    rng = np.random.default_rng(7)
    n_, E_, d, q_ = 4, 3, 5, 1.7
    nu = rng.normal(size=(n_, E_, d))
    G_ = float(np.linalg.norm(nu, axis=-1).max())
    X = nu.sum(axis=1)
    vals = {"n": n_, "E": E_, "q_u": q_, "G": G_, "Xbar_sq": float(np.sum(X.mean(0) ** 2)),
            "sumX_sq": float(np.sum(X**2)), "sum_nu_sq": float(np.sum(nu**2))}
    chain = [float(sp.lambdify(sorted(e.free_symbols, key=str), e)(*[vals[str(s)] for s in
                                                                      sorted(e.free_symbols, key=str)]))
             for _, e in B.lemma3.steps]
    assert all(a <= b * (1 + 1e-12) for a, b in zip(chain, chain[1:]))
    assert chain[-1] == pytest.approx(B.lemma3.evaluate(**vals)["agg_sq_expect"])


# ---------------------------------------------------------------------------- identities between the constants
def _identity(lhs, rhs):
    r = prove_identity(lhs, rhs)
    assert r.proven is True, r


def test_closed_forms_of_the_stated_constants():
    _identity(B.EPS_STATED, D * G * sp.sqrt((4 * E + q / n) / T))
    _identity(B.ETA_STATED, D / (G * E * sp.sqrt(T * (4 * E + q / n))))


def test_theorem8_displays():
    _identity(B.EPS_THM8, B.eps_of(2 * E**2))
    _identity(B.ETA_THM8, B.eta_of(2 * E**2))
    # and they are the stated constants without compression
    _identity(B.EPS_THM8, B.EPS_STATED.subs(q, 0))
    _identity(B.ETA_THM8, B.ETA_STATED.subs(q, 0))


def test_argmin_of_summed_bound():
    gamma = sp.Symbol("Gamma", positive=True)
    S = B.summed_bound(eta, gamma)
    crit = sp.solve(sp.diff(S, eta), eta)
    assert len(crit) == 1
    _identity(crit[0], B.eta_of(gamma))
    assert sp.simplify(sp.diff(S, eta, 2).subs(eta, B.eta_of(gamma))).is_positive
    _identity(S.subs(eta, B.eta_of(gamma)), B.eps_of(gamma))
    # numerically: no step size on a fine grid beats eta(Gamma)
    vals = {D: 1.3, G: 0.7, E: 3, T: 50, gamma: 4.2}
    f = sp.lambdify(eta, S.subs(vals))
    grid = np.exp(np.linspace(-8, 3, 20001))
    eta_star = float(B.eta_of(gamma).subs(vals))
    assert np.all(f(grid) >= f(eta_star) - 1e-12)
    assert float(B.eps_of(gamma).subs(vals)) == pytest.approx(f(eta_star), rel=1e-12)


def test_eps_is_2G2_gamma_eta():
    gamma = sp.Symbol("Gamma", positive=True)
    _identity(B.eps_of(gamma), 2 * G**2 * gamma * B.eta_of(gamma))
    # hence beta >= 2/eps  <=>  beta >= 1/(G^2 Gamma eta) for the same Gamma
    _identity(2 / B.eps_of(gamma), 1 / (G**2 * gamma * B.eta_of(gamma)))


def test_centralized_case():
    sub = {n: 1, q: 0, E: 1}
    _identity(B.EPS_STATED.subs(sub), 2 * D * G / sp.sqrt(T))
    _identity(B.ETA_STATED.subs(sub), D / (2 * G * sp.sqrt(T)))
    case = B.SPECIAL_CASES[0]
    assert case.claim.id == "fedsgm.case.centralized"
    _identity(case.implied, 2 * D * G / sp.sqrt(T))


def test_lemma5_sum():
    _identity(sp.summation(tau**2, (tau, 0, E - 1)), (E - 1) * E * (2 * E - 1) / 6)
    for e in range(1, 60):
        assert sum(t * t for t in range(e)) == (e - 1) * e * (2 * e - 1) // 6
        assert Fraction((e - 1) * e * (2 * e - 1), 6) <= Fraction(e**3, 3)


def test_gamma_pf_bracket_and_soft_constants():
    _identity(eta**2 * G**2 * ((q / n + 1) * E**2 + 2 * E + sp.Rational(2, 3) * E**3) / (2 * eta * E),
              eta * G**2 * B.Gamma_proof)
    # c = S_bar(eta_st; Gamma_pf)/eps_st = (1 + r)/2 with r = Gamma_pf/Gamma_st
    _identity(B.summed_bound(B.ETA_STATED, B.Gamma_proof) / B.EPS_STATED, (1 + B.ratio_pf_st) / 2)
    # at E = 1, q = 0: r = 11/12, so the soft proof needs beta >= 24 Sigma_A/(eps T)
    assert sp.simplify(B.ratio_pf_st.subs({E: 1, q: 0}) - sp.Rational(11, 12)) == 0
    _identity(B.soft_beta_needed_stated.subs({E: 1, q: 0}), 24 * B.Sigma_A / (eps * T))
    _identity(B.ROUNDS_STATED, D**2 * G**2 * (4 * E + q / n) / eps**2)
    _identity(B.EPS_STATED.subs(T, B.ROUNDS_STATED), eps)                  # the rounds reach the stated tolerance
    assert B.SHARED_CONSTANTS == (0, 0)


# ---------------------------------------------------------------------------- property: Gamma_st >= Gamma_pf
@settings(max_examples=200, deadline=None)
@given(E_=st.integers(1, 10**4), q_=st.fractions(min_value=0, max_value=10**4, max_denominator=1000),
       n_=st.integers(1, 10**4))
def test_gamma_stated_dominates_gamma_proof(E_, q_, n_):
    gst = 2 * Fraction(E_) ** 2 + E_ * q_ / (2 * n_)
    gpf = Fraction(1, 2) * (q_ / n_ + 1) * E_ + 1 + Fraction(E_**2, 3)
    sub = {E: E_, q: sp.Rational(q_.numerator, q_.denominator), n: n_}
    st_sym, pf_sym = B.Gamma_stated.subs(sub), B.Gamma_proof.subs(sub)
    # the encodings equal Gamma as stated (Theorems 1, 2) and as derived in the appendix proofs, exactly
    assert st_sym == sp.Rational(gst.numerator, gst.denominator)
    assert pf_sym == sp.Rational(gpf.numerator, gpf.denominator)
    assert gst >= gpf
    assert gst - gpf == Fraction(5 * E_**2, 3) - Fraction(E_, 2) - 1   # independent of q_u and n
    ratio = float(B.ratio_pf_st.subs(sub))
    assert 0 < ratio < 1


def test_gamma_dominance_boundary_is_tight_at_E1():
    # E = 1 gives the smallest margin 1/6: Gamma_st >= Gamma_pf fails for real E slightly below 1
    diff = sp.simplify(B.Gamma_stated - B.Gamma_proof)
    assert diff.subs(E, 1) == sp.Rational(1, 6)
    assert diff.subs(E, sp.Rational(1, 2)) < 0


# ---------------------------------------------------------------------------- audit
@pytest.fixture(scope="module")
def findings():
    return {f.id: f for f in BF.audit_findings(np.random.default_rng(0))}


@pytest.mark.parametrize("fid, verdict", [
    ("fedsgm.hard.constants", "consistent"),
    ("fedsgm.soft.beta", "discrepancy"),
    ("fedsgm.soft.eps", "discrepancy"),
    ("fedsgm.case.general.rate", "consistent"),
    ("fedsgm.thm8.display", "consistent"),
    ("fedsgm.thm8.display.eta", "consistent"),
    ("fedsgm.closed_form.eps", "consistent"),
    ("fedsgm.eta.argmin", "consistent"),
    ("fedsgm.eps.min", "consistent"),
    ("fedsgm.soft.step4", "consistent"),
    ("fedsgm.lemma5.sum", "consistent"),
    ("fedsgm.lemma5.cube", "consistent"),
    ("fedsgm.complexity.order", "consistent"),
    ("fedsgm.claim5.shared", "consistent"),
    ("fedsgm.case.centralized.rate", "consistent"),
])
def test_audit_verdicts(findings, fid, verdict):
    assert fid in findings, sorted(findings)
    assert findings[fid].verdict == verdict, findings[fid]


def test_audit_summaries_and_evidence(findings):
    assert "not tight" in findings["fedsgm.case.general.rate"].summary
    assert "tight up to constants" in findings["fedsgm.case.centralized.rate"].summary
    assert "not tight" not in findings["fedsgm.case.centralized.rate"].summary
    assert findings["fedsgm.hard.constants"].method.startswith("proven symbolically")
    soft_eps = findings["fedsgm.soft.eps"]
    assert soft_eps.method.startswith("refuted")
    assert "counterexample" in soft_eps.evidence
    assert "24" in findings["fedsgm.soft.beta"].evidence
    for f in findings.values():
        d = f.as_dict()
        assert d["verdict"] in ("consistent", "discrepancy", "not checkable")
        assert isinstance(d["claims"], list) and d["claims"]
        assert f.summary.strip() and f.evidence.strip()


def test_audit_soft_eps_counterexample_is_genuine(findings):
    """The counterexample of fedsgm.soft.eps must really have Gamma_st < 4 Gamma_pf."""
    ev = findings["fedsgm.soft.eps"].evidence
    m = re.search(r"counterexample ([^;(]*)", ev)
    assert m and "{" not in m.group(1)
    # the point as bounds.audit.fmt_point writes it: "E = 50, n = 1, q_u = 100 (value -5937)"
    cex = {k: float(v) for k, v in (part.split(" = ") for part in m.group(1).strip().split(", "))}
    sub = {E: cex["E"], q: cex["q_u"], n: cex["n"]}
    assert float((B.Gamma_stated - 4 * B.Gamma_proof).subs(sub)) < 0
    # and E <= 4 always gives the discrepancy (summary's "e.g. every E <= 4") at q_u = 0
    for e in range(1, 5):
        assert (B.Gamma_stated - 4 * B.Gamma_proof).subs({E: e, q: 0, n: 1}) < 0
    assert (B.Gamma_stated - 4 * B.Gamma_proof).subs({E: 5, q: 0, n: 1}) > 0


def test_the_mode_and_assumption_findings_exist_only_when_their_computation_says_so(monkeypatch):
    """fedsgm.mode needs a deterministic compressed theorem over an in-expectation (S); fedsgm.thm7.assumptions needs
    an assumption the proof's lemma names that the statement does not: each disappears when its gate is false."""
    import dataclasses

    from bounds.fedsgm import claims as B
    from bounds.fedsgm import findings as F
    from bounds.core import Mode
    ids = {f.id for f in F._mode_and_assumption_findings()}
    assert ids == {"fedsgm.mode", "fedsgm.thm7.assumptions"}
    monkeypatch.setattr(B, "S_summed", dataclasses.replace(B.S_summed, mode=Mode.DETERMINISTIC))
    monkeypatch.setattr(F, "THM7_STATED_ASSUMPTIONS", ("Assumption 1", "Assumption 2"))
    assert F._mode_and_assumption_findings() == []
