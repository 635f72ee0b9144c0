"""Tests of bounds.ssca: exact step-size predicates (4)/(6) against an independent p-series oracle, the Section VI
verdicts, undecidable inputs, the symbolic derivation checks (all proven; a perturbed printed formula refuted),
claims, KKT residual functions and input validation."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bounds.ssca import claims as S
from bounds.ssca import findings as SF
from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE
from bounds.core import Mode


# ---------------------------------------------------------------------------- step sizes
def oracle(alpha: Fraction, beta: Fraction) -> tuple[dict, dict]:
    """Hand-written p-series rule: sum t^-p < oo iff p > 1; t^-p -> 0 iff p > 0."""
    c4 = {"positive": True, "limit_zero": alpha > 0, "sum_diverges": alpha <= 1}
    c6 = {"positive": True, "limit_zero": beta > 0, "sum_diverges": beta <= 1, "square_summable": beta > Fraction(1, 2),
          "ratio_to_rho_zero": beta > alpha}
    return c4, c6


exponents = st.builds(Fraction, st.integers(-4, 12), st.sampled_from([1, 2, 3, 4, 5, 10]))


@settings(max_examples=60, deadline=None)
@given(alpha=exponents, beta=exponents, a1=st.sampled_from([Fraction(1, 10), Fraction(2, 5), 1, 3]),
       a2=st.sampled_from([Fraction(1, 3), Fraction(9, 10), 2]))
@example(alpha=Fraction(1), beta=Fraction(1), a1=1, a2=1)
@example(alpha=Fraction(1, 2), beta=Fraction(1, 2), a1=1, a2=1)
@example(alpha=Fraction(3, 5), beta=Fraction(3, 5), a1=1, a2=1)
@example(alpha=Fraction(0), beta=Fraction(0), a1=1, a2=1)
@example(alpha=Fraction(6, 5), beta=Fraction(11, 10), a1=1, a2=1)
def test_power_law_matches_oracle(alpha, beta, a1, a2):
    v = S.power_law_conditions(a1, alpha, a2, beta)
    c4, c6 = oracle(alpha, beta)
    assert v.cond4 == c4 and v.cond6 == c6
    assert v.holds4 == all(c4.values()) and v.holds6 == all(c6.values())
    assert all(isinstance(x, bool) for x in list(v.cond4.values()) + list(v.cond6.values()))
    expected_failed = {f"(4) {k}" for k, x in c4.items() if not x} | {f"(6) {k}" for k, x in c6.items() if not x}
    assert set(v.failed) == expected_failed
    in_region = bool(0 < alpha <= 1 and Fraction(1, 2) < beta <= 1 and beta > alpha)
    assert (v.holds4 and v.holds6) == in_region


@pytest.mark.parametrize("alpha,beta,item,value", [
    (1, 1, "(4) sum_diverges", True), (Fraction(11, 10), 1, "(4) sum_diverges", False),
    (Fraction(1, 2), 1, "(4) limit_zero", True), (0, 1, "(4) limit_zero", False),
    (Fraction(1, 2), 1, "(6) sum_diverges", True), (Fraction(1, 2), Fraction(6, 5), "(6) sum_diverges", False),
    (Fraction(1, 2), Fraction(3, 5), "(6) square_summable", True),
    (Fraction(1, 4), Fraction(1, 2), "(6) square_summable", False),
    (Fraction(1, 2), Fraction(3, 5), "(6) ratio_to_rho_zero", True),
    (Fraction(3, 5), Fraction(3, 5), "(6) ratio_to_rho_zero", False),
    (Fraction(1, 2), Fraction(3, 5), "(6) limit_zero", True), (Fraction(1, 2), 0, "(6) limit_zero", False),
])
def test_each_item_can_hold_and_fail(alpha, beta, item, value):
    v = S.power_law_conditions(1, alpha, 1, beta)
    key = item.split(" ", 1)[1]
    d = v.cond4 if item.startswith("(4)") else v.cond6
    assert d[key] is value
    assert (item in v.failed) is (not value)


def test_floats_are_exact_and_boundaries():
    v = S.power_law_conditions(0.4, 0.4, 0.4, 0.45)
    assert v.beta == sp.Rational(9, 20) and v.alpha == sp.Rational(2, 5)
    assert S.power_law_conditions(1, 0.6, 1, 0.75).failed == ()
    assert S.power_law_conditions(1, 1, 1, 1).failed == ("(6) ratio_to_rho_zero",)   # beta = alpha = 1
    assert "(6) square_summable" in S.power_law_conditions(1, 0.25, 1, 0.5).failed     # beta = 1/2 boundary


def test_section_vi_fails_exactly_square_summability():
    vs = S.section_vi_step_sizes()
    assert len(vs) == 3
    for v, (a1, a2, al) in zip(vs, S.SECTION_VI_TRIPLES):
        assert v.a1 == sp.Rational(str(a1)) and v.alpha == sp.Rational(str(al))
        assert v.beta == sp.Rational(str(al)) + sp.Rational(1, 20)
        assert v.holds4 and not v.holds6
        assert v.failed == ("(6) square_summable",)


def test_non_power_law_and_undecidable():
    t = S.t
    c4 = S.condition_4(1 / sp.log(t + 1), t)
    assert c4 == {"positive": True, "limit_zero": True, "sum_diverges": True}
    c6 = S.condition_6(1 / t, 1 / sp.log(t + 1), t)
    assert c6 == {"positive": True, "limit_zero": True, "sum_diverges": True, "square_summable": True,
                  "ratio_to_rho_zero": True}
    c6b = S.condition_6(1 / t**2, 1 / t, t)
    assert c6b["sum_diverges"] is False and c6b["square_summable"] is True
    with pytest.raises(S.UndecidableCondition, match=r"\(4\) limit_zero.*sin\(t\)"):
        S.condition_4(1 / t**(1 + sp.sin(t)**2), t)
    with pytest.raises(S.UndecidableCondition, match=r"\(4\) positive.*sin\(t\) \+ 2"):
        S.condition_4((sp.sin(t) + 2) / t**2, t)
    assert issubclass(S.UndecidableCondition, ValueError)


@pytest.mark.parametrize("kwargs,name", [
    (dict(a1=0, alpha=0.5, a2=1, beta=0.7), "a1"), (dict(a1=1, alpha=0.5, a2=-1, beta=0.7), "a2"),
    (dict(a1=1, alpha=float("nan"), a2=1, beta=0.7), "alpha"),
    (dict(a1=1, alpha=0.5, a2=1, beta=float("inf")), "beta"), (dict(a1=True, alpha=0.5, a2=1, beta=0.7), "a1"),
    (dict(a1=1, alpha="x", a2=1, beta=0.7), "alpha"),
])
def test_power_law_validation(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name}="):
        S.power_law_conditions(**kwargs)


def test_power_law_region_relations():
    assert len(S.POWER_LAW_REGION) == 7
    assert all(isinstance(r, sp.Rel) for r in S.POWER_LAW_REGION)
    f = sp.lambdify((S.alpha, S.beta, S.a1, S.a2), sp.And(*S.POWER_LAW_REGION))
    assert not f(0.4, 0.45, 0.4, 0.4) and f(0.6, 0.75, 1, 1) and not f(0.6, 0.6, 1, 1) and not f(1, 1.0, 1, 1)


# ---------------------------------------------------------------------------- symbolic checks
@pytest.mark.parametrize("fn", [SF.lemma1_checks, SF.unrolling_checks, SF.identity_checks, SF.thm5_checks])
def test_all_rows_proven(fn):
    rows = fn()
    assert rows and all(r["status"] == "proven" for r in rows), [r for r in rows if r["status"] != "proven"]
    assert all(set(r) >= {"item", "status", "method", "evidence"} for r in rows)


def test_perturbed_formulas_refuted():
    nu, b, tau, U, A = S.nu_sym, S.b_sym, S._tau_p, S.U_sym, S.A_sym
    wrong_hp = (b - (b + 3 * tau * (U - A)) * (1 + nu * tau)**2) / (4 * tau * (1 + nu * tau)**2)
    rows = SF.lemma1_checks(hprime_printed=wrong_hp)
    bad = {r["item"] for r in rows if r["status"] == "refuted"}
    assert "dH/dnu equals the printed H'(nu)" in bad
    rows = SF.lemma1_checks(h_printed=S.H_PRINTED.subs(4, 2))
    assert any(r["status"] == "refuted" and "printed H(nu)" in r["item"] for r in rows)
    rows = SF.lemma1_checks(root_printed=(sp.sqrt(b / S._D) - 1) / (2 * tau))
    assert any(r["status"] == "refuted" for r in rows)
    rows = SF.thm5_checks(2 / S.xi)
    assert sum(r["status"] == "refuted" for r in rows) == 2
    assert SF.identity_row("x", sp.Symbol("p", positive=True) + 1, sp.Symbol("p", positive=True))["status"] == "refuted"


def test_unrolling_weight_numeric():
    rho = np.array([0.4, 0.4 / 2**0.4, 0.4 / 3**0.4])
    w = S.surrogate_weight(rho)
    assert np.allclose(w, [0.4, 1 - 0.6 * (1 - rho[1]), 1 - 0.6 * (1 - rho[1]) * (1 - rho[2])])
    assert S.surrogate_weight(np.array([1.0, 0.3, 0.2]))[-1] == 1.0
    long = S.surrogate_weight(0.4 / np.arange(1, 200001) ** 0.4)
    assert np.all(np.diff(long) >= 0) and long[-1] > 1 - 1e-12
    with pytest.raises(ValueError, match="rho="):
        S.surrogate_weight(np.array([0.0, 0.5]))
    with pytest.raises(ValueError, match="T="):
        SF.unrolling_checks(0)


def test_a_bar_sign():
    r = SF.a_bar_sign_check()
    assert r["difference"] == "2*ce" and r["difference_is_2ce"] and r["printed_constraint_negative"]
    assert r["status"] == "proven"


# ---------------------------------------------------------------------------- closed forms (light)
def test_lemma1_nu_scalar_is_lemma1_nu_at_one_point():
    """The server step's scalar (42) gives the vectorised function's numbers, bit for bit, across the three regimes
    (D <= 0, a root clipped at 0 or c, an interior root)."""
    rng = np.random.default_rng(5)
    regimes = set()
    for _ in range(3000):
        args = (rng.uniform(0, 5) * 10 ** rng.uniform(-6, 6), rng.normal() * 10 ** rng.uniform(-3, 3), rng.normal(),
                10 ** rng.uniform(-2, 1), 10 ** rng.uniform(-1, 3))
        with np.errstate(all="ignore"):
            vector, scalar = float(S.lemma1_nu(*args)), S.lemma1_nu_scalar(*args)
        assert vector == scalar
        regimes.add("saturated" if scalar == args[4] else "inactive" if scalar == 0.0 else "active")
    assert regimes == {"saturated", "inactive", "active"}


def test_lemma1_regimes_and_vectorisation():
    th = np.array([1.0, -2.0])
    assert S.lemma1_solution(th, A=0.0, U=1.0, tau=0.5, c=10.0).regime == "inactive"
    sol = S.lemma1_solution(th, A=1.0, U=0.5, tau=0.5, c=10.0)
    assert sol.regime == "active" and 0 < sol.nu < 10 and sol.zeta == 0.0
    assert S.lemma1_solution(th, A=10.0, U=0.0, tau=0.5, c=10.0).regime == "saturated"
    b = np.array([0.0, 1.0, 5.0])[:, None]
    nu = S.lemma1_nu(b, np.array([0.0, 2.0]), 1.0, 0.5, 3.0)
    assert nu.shape == (3, 2) and np.all((nu >= 0) & (nu <= 3))
    f = sp.lambdify((S.b_sym, S.A_sym, S.U_sym, S._tau_p, S.c_sym), S.NU_42)
    rng = np.random.default_rng(0)
    for _ in range(50):
        args = (rng.uniform(0, 5), rng.normal() * 3, rng.normal() * 3, rng.uniform(0.05, 5), rng.uniform(0.1, 50))
        with np.errstate(all="ignore"):
            assert np.isclose(float(S.lemma1_nu(*args)), float(f(*args)), rtol=1e-12, atol=1e-14)
    with pytest.raises(ValueError, match="tau="):
        S.lemma1_solution(th, 0.0, 1.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="c="):
        S.lemma1_nu(1.0, 0.0, 1.0, 1.0, -1.0)
    with pytest.raises(ValueError, match="b="):
        S.lemma1_nu(-1.0, 0.0, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="tau="):
        S.omega_bar_unconstrained(np.ones(3), -0.1)
    with pytest.raises(ValueError, match="lam="):
        S.omega_bar_regularized(np.ones(3), np.ones(3), 0.0, 0.1)


# ---------------------------------------------------------------------------- claims
IDS = {"ssca.eq9", "ssca.eq19", "ssca.eq35_36", "ssca.lemma1", "ssca.thm1", "ssca.thm2", "ssca.thm3", "ssca.thm4",
       "ssca.lemma2", "ssca.lemma3", "ssca.lemma4", "ssca.appA.delta1", "ssca.lemma5", "ssca.lemma6", "ssca.thm5.i",
       "ssca.thm5.ii"}


def test_claims_ids_modes():
    ids = [c.id for c in S.CLAIMS]
    assert len(ids) == len(set(ids)) and set(ids) == IDS
    assert S.claim("ssca.thm2") is S.thm2
    with pytest.raises(KeyError, match="ssca.nope"):
        S.claim("ssca.nope")
    for i in ("ssca.thm1", "ssca.thm2", "ssca.thm3", "ssca.thm4", "ssca.lemma2", "ssca.lemma3", "ssca.lemma5",
              "ssca.lemma6"):
        assert S.claim(i).mode is Mode.ALMOST_SURE_LIMIT
    for i in ("ssca.eq9", "ssca.eq19", "ssca.eq35_36", "ssca.lemma1", "ssca.lemma4", "ssca.thm5.i", "ssca.thm5.ii"):
        assert S.claim(i).mode is Mode.DETERMINISTIC
    assert "Problem 3" in S.thm4.notes
    for c in S.CLAIMS:
        assert c.latex() and c.summary()["id"] == c.id


def test_theorem_hypotheses():
    for th in S.THEOREMS:
        for a1, a2, al in S.SECTION_VI_TRIPLES:
            assert not bool(th.hypotheses_hold(alpha=al, beta=al + 0.05, a1=a1, a2=a2, tau=0.1))
        assert bool(th.hypotheses_hold(alpha=0.6, beta=0.75, a1=1.0, a2=1.0, tau=0.1))
        assert not bool(th.hypotheses_hold(alpha=0.6, beta=0.75, a1=1.0, a2=1.0, tau=-0.1))


def test_claim_parameters_and_bounds():
    assert S.claim("ssca.lemma3").prescribed(L_tilde=3.0, mu=0.2)["L_bar"] == pytest.approx(30.0)
    assert S.claim("ssca.appA.delta1").prescribed(L_bar=1.0)["delta_1"] == pytest.approx(0.25)
    assert S.claim("ssca.thm5.ii").prescribed(xi=4.0)["lam"] == pytest.approx(0.25)
    assert S.claim("ssca.eq9").prescribed(f_hat=np.array([1.0, -2.0]), tau=0.5)["omega_bar"] == pytest.approx([-1, 2])
    out = S.claim("ssca.lemma4").evaluate(gamma=0.1, Delta=2.0, err=0.5, mu=0.2, L_hat=1.0)
    assert out["descent"] == pytest.approx(0.1 * 2 * 0.5 - 0.1 * (0.2 - 0.05) * 4)


# ---------------------------------------------------------------------------- KKT residuals
def test_kkt_unconstrained():
    assert S.kkt_unconstrained(np.zeros(4))["stationarity"] == 0.0
    assert S.kkt_unconstrained(np.array([3.0, 4.0]))["stationarity"] == pytest.approx(5.0)


def _kkt_point(rng, d=5, M=3):
    G = rng.normal(size=(M, d))
    pi = np.array([1.5, 0.0, 0.7])
    values = np.array([0.0, -0.8, 0.0])
    g0 = -G.T @ pi
    return g0, G, values, pi


def test_kkt_constrained_zero_and_perturbed():
    rng = np.random.default_rng(3)
    g0, G, v, pi = _kkt_point(rng)
    r = S.kkt_constrained(g0, G, v, pi)
    assert r["max"] < 1e-12
    r = S.kkt_constrained(g0, G, v)
    assert np.allclose(r["multipliers"], pi, atol=1e-10) and r["max"] < 1e-10
    assert S.kkt_constrained(g0 + 0.1, G, v)["stationarity"] > 0
    assert S.kkt_constrained(g0, G, v + np.array([0.3, 0, 0]), pi)["primal"] == pytest.approx(0.3)
    assert S.kkt_constrained(g0, G, v, pi + np.array([0, 0.5, 0]))["complementarity"] == pytest.approx(0.4)
    assert S.kkt_constrained(g0, G, v, pi - np.array([0, 0.5, 0]))["dual"] == pytest.approx(0.5)


def test_kkt_penalty_zero_and_perturbed():
    rng = np.random.default_rng(4)
    d, M, c = 6, 3, 2.0
    G = rng.normal(size=(M, d))
    pi = np.array([2.0, 0.5, 0.0])          # pi = c (zeta > 0 allowed), interior (F = zeta = 0), 0 (inactive)
    zeta = np.array([0.3, 0.0, 0.0])
    values = np.array([0.3, 0.0, -1.0])
    g0 = -G.T @ pi
    r = S.kkt_penalty(g0, G, values, zeta, c, pi)
    assert r["max"] < 1e-12 and np.allclose(r["kappa"], c - pi)
    r = S.kkt_penalty(g0, G, values, zeta, c)
    assert np.allclose(r["multipliers"], pi, atol=1e-8) and r["max"] < 1e-8
    assert S.kkt_penalty(g0, G, values, zeta, c, pi + np.array([0.5, 0, 0]))["dual"] == pytest.approx(0.5)
    assert S.kkt_penalty(g0, G, values, zeta + np.array([0, 0.2, 0]), c, pi)["complementarity"] > 0
    assert S.kkt_penalty(g0, G, values + np.array([0, 0.2, 0]), zeta, c, pi)["primal"] == pytest.approx(0.2)
    assert S.kkt_penalty(g0 + 0.1, G, values, zeta, c)["stationarity"] > 0


def test_kkt_validation():
    with pytest.raises(ValueError, match="grads="):
        S.kkt_constrained(np.zeros(3), np.zeros((2, 4)), np.zeros(2))
    with pytest.raises(ValueError, match="values="):
        S.kkt_constrained(np.zeros(3), np.zeros((2, 3)), np.zeros(3))
    with pytest.raises(ValueError, match="grad="):
        S.kkt_unconstrained(np.array([np.nan]))
    with pytest.raises(ValueError, match="c="):
        S.kkt_penalty(np.zeros(3), np.zeros((2, 3)), np.zeros(2), np.zeros(2), 0.0)
    with pytest.raises(ValueError, match="zeta="):
        S.kkt_penalty(np.zeros(3), np.zeros((2, 3)), np.zeros(2), np.zeros(3), 1.0)


# ---------------------------------------------------------------------------- audit
def test_audit_findings():
    fs = {f.id: f for f in SF.audit_findings()}
    assert all(i.startswith("ssca.") for i in fs)
    assert fs["ssca.section_vi.step_sizes"].verdict == DISCREPANCY
    assert fs["ssca.section_vi.step_sizes"].kind == "experiment-settings"
    sw = fs["ssca.surrogate_weight"]
    assert sw.verdict == DISCREPANCY and sw.kind == "statement-vs-proof"
    assert sw.claims == fs["ssca.a_bar_sign"].claims == ()      # the closed forms minimise the printed surrogates
    assert fs["ssca.a_bar_sign"].verdict == DISCREPANCY and "2*ce" in fs["ssca.a_bar_sign"].evidence
    assert fs["ssca.thm4.problem_reference"].verdict == DISCREPANCY
    for k in ("ssca.section_v.assumption_2_4", "ssca.section_v.compactness", "ssca.section_v.assumption_1"):
        # about Section V's application: they name Section V's statements, never the general lemmas and theorems
        assert fs[k].kind == "application" and fs[k].verdict == DISCREPANCY
        assert set(fs[k].claims) <= set(SF.SECTION_V_STATEMENTS)
    assert fs["ssca.section_v.penalty_sequence"].kind == "experiment-settings"   # about Section VI's runs
    assert fs["ssca.thm4.problem_reference"].kind == "wording"
    assert "= 0" in fs["ssca.section_v.compactness"].evidence
    assert fs["ssca.theorems.asymptotic"].verdict == NOT_CHECKABLE
    assert fs["ssca.lemma1.derivation"].verdict == CONSISTENT and fs["ssca.thm5.algebra"].verdict == CONSISTENT
    for f in fs.values():          # every finding names what it bears on, or is an inconsistency between places
        assert f.as_dict()["claims"] or f.id in ("ssca.surrogate_weight", "ssca.a_bar_sign")


def test_the_step_size_finding_words_follow_the_decided_conditions():
    """The summary of ssca.section_vi.step_sizes is computed from the decisions of (4) and (6): were the triples to
    satisfy (6), the finding would say so (and be consistent), not print 'violate (6)' regardless."""
    from types import SimpleNamespace as NS

    from bounds.ssca import findings as F
    ok = [NS(holds6=True, holds4=True)] * 3
    assert "satisfy (6) for all 3 triples" in F._step_size_summary(ok) and "violate" not in F._step_size_summary(ok)
    mixed = [NS(holds6=False, holds4=True), NS(holds6=True, holds4=False), NS(holds6=True, holds4=True)]
    assert "violate (6) for 1 of 3 triples" in F._step_size_summary(mixed)
    assert "(4) fails for 1 of 3" in F._step_size_summary(mixed)
    finding = next(f for f in F.audit_findings() if f.id == "ssca.section_vi.step_sizes")
    decided = S.section_vi_step_sizes()
    assert finding.summary == F._step_size_summary(decided)
    assert (finding.verdict == "discrepancy") == any(not v.holds6 or not v.holds4 for v in decided)


def test_the_penalty_and_problem_reference_findings_are_gated(monkeypatch):
    """Each exists only while its comparison finds the discrepancy, and neither bears on a theorem's verdict: one
    judges Section VI's settings, the other a typo."""
    from bounds.ssca import findings as F
    from repro.verdicts import from_findings

    def ids():
        return {f.id for f in F.audit_findings()} & {"ssca.section_v.penalty_sequence", "ssca.thm4.problem_reference"}
    found = [f for f in F.audit_findings() if f.id in ids()]
    assert len(found) == 2 and not from_findings(found, ["ssca.thm2", "ssca.thm4"])
    monkeypatch.setattr(F, "SECTION_VI_PENALTIES", (1e3, 1e4, 1e5))
    monkeypatch.setattr(F, "THM4_CONSTRAINT_PROBLEM", 8)
    assert ids() == set()
