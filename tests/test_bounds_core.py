"""Tests of bounds.core: the Claim record, the symbolic provers and the rate helpers.

Every test compares the implementation against an independently written expectation (numpy
formulas, hand-derived closed forms, sampling), so each one can fail.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bounds.core import (
    Claim,
    Mode,
    ProofResult,
    communication_order,
    order_in_inverse_eps,
    prove_identity,
    prove_nonnegative,
    rounds_to_reach,
    sample_nonnegative,
)

# ---------------------------------------------------------------------------- fixtures
x = sp.Symbol("x", real=True)
y = sp.Symbol("y", positive=True)
a = sp.Symbol("a", positive=True)
b = sp.Symbol("b", real=True)
D = sp.Symbol("D", positive=True)
G = sp.Symbol("G", positive=True)
T = sp.Symbol("T", positive=True)
Tint = sp.Symbol("T", positive=True, integer=True)
eps = sp.Symbol("epsilon", positive=True)
eta = sp.Symbol("eta", positive=True)
beta = sp.Symbol("beta", positive=True)
obs = sp.Symbol("obs")
obs2 = sp.Symbol("obs2")


def make_claim(**overrides) -> Claim:
    """A small claim: obs <= a x^2 + b and obs2 <= D^2/(eta T) with eta prescribed as D/sqrt(T)."""
    kwargs = dict(
        id="test.claim", location="nowhere", statement="a test claim",
        domains={obs: "observed", obs2: "observed", a: "real > 0", x: "real", b: "real",
                 D: "real > 0", T: "real > 0", eta: "real > 0", eps: "real > 0", beta: "real > 0"},
        conclusion=(sp.Le(obs, a * x**2 + b), sp.Le(obs2, D**2 / (eta * T))),
        mode=Mode.DETERMINISTIC,
        parameters={eta: D / sp.sqrt(T), eps: 2 * D / sp.sqrt(T)},
        hypotheses=(sp.Ge(beta, 2 / eps),),
    )
    kwargs.update(overrides)
    return Claim(**kwargs)


# ---------------------------------------------------------------------------- construction
class TestClaimConstruction:
    def test_valid_claim_builds(self):
        c = make_claim()
        assert set(c.bounds()) == {"obs", "obs2"}
        # the prescribed eta is substituted into the bound: D^2 / (D/sqrt(T) * T) = D / sqrt(T)
        assert sp.simplify(c.bounds()["obs2"] - D / sp.sqrt(T)) == 0

    @pytest.mark.parametrize("where", ["conclusion", "hypothesis", "parameter_value", "parameter_key",
                                       "step", "order"])
    def test_rejects_symbol_without_domain(self, where):
        stray = sp.Symbol("stray_symbol", positive=True)
        doms = {obs: "observed", a: "real > 0", x: "real", eta: "real > 0"}
        base = dict(id="test.bad", location="l", statement="s", domains=doms,
                    conclusion=(sp.Le(obs, a * x**2),), mode=Mode.DETERMINISTIC)
        if where == "conclusion":
            base["conclusion"] = (sp.Le(obs, a * x**2 + stray),)
        elif where == "hypothesis":
            base["hypotheses"] = (sp.Ge(a, stray),)
        elif where == "parameter_value":
            base["parameters"] = {eta: stray / a}
        elif where == "parameter_key":
            base["parameters"] = {stray: a}
        elif where == "step":
            base["steps"] = (("step", a * stray),)
        else:
            base["conclusion"] = a * stray
            base["mode"] = Mode.ORDER
        with pytest.raises(ValueError, match="stray_symbol"):
            Claim(**base)

    def test_error_lists_only_missing_symbols(self):
        with pytest.raises(ValueError) as info:
            Claim(id="t", location="l", statement="s", domains={obs: "o"},
                  conclusion=(sp.Le(obs, a + x),), mode=Mode.DETERMINISTIC)
        msg = str(info.value)
        assert "'a'" in msg and "'x'" in msg and "'obs'" not in msg


# ---------------------------------------------------------------------------- numerics
class TestEvaluate:
    def test_scalar_values_match_formula(self):
        c = make_claim()
        out = c.evaluate(a=2.0, x=3.0, b=-1.0, D=2.0, T=16.0)
        assert set(out) == {"obs", "obs2"}
        assert out["obs"] == pytest.approx(2 * 9 - 1)
        assert out["obs2"] == pytest.approx(2.0 / 4.0)   # D / sqrt(T)

    def test_vectorises_with_broadcasting(self):
        c = make_claim()
        av = np.array([1.0, 2.0, 3.0])
        xv = np.linspace(-2, 2, 5)[:, None]
        out = c.evaluate(a=av, x=xv, b=0.5, D=np.array([1.0, 2.0, 3.0]), T=np.array([[4.0], [9.0]]))
        np.testing.assert_allclose(out["obs"], av * xv**2 + 0.5, rtol=1e-14)
        assert out["obs"].shape == (5, 3)
        np.testing.assert_allclose(out["obs2"], np.array([1.0, 2.0, 3.0]) / np.sqrt([[4.0], [9.0]]),
                                   rtol=1e-14)
        assert out["obs2"].shape == (2, 3)

    def test_observed_symbols_need_not_be_given(self):
        # only the right-hand sides are evaluated; lhs symbols obs, obs2 are absent
        out = make_claim().evaluate(a=1.0, x=1.0, b=0.0, D=1.0, T=1.0)
        assert np.all(np.isfinite(list(out.values())))

    @pytest.mark.parametrize("drop", ["a", "x", "b", "D", "T"])
    def test_missing_symbol_raises_naming_it(self, drop):
        vals = dict(a=1.0, x=1.0, b=0.0, D=1.0, T=1.0)
        del vals[drop]
        with pytest.raises(ValueError, match=rf"'{drop}'"):
            make_claim().evaluate(**vals)

    def test_missing_symbols_all_named(self):
        with pytest.raises(ValueError) as info:
            make_claim().evaluate(D=1.0, T=1.0)
        msg = str(info.value)
        for name in ("a", "b", "x"):
            assert f"'{name}'" in msg

    def test_prescribed_parameter_is_substituted_not_read(self):
        # eta is prescribed, so a user-supplied eta must not change the bound
        c = make_claim()
        base = c.evaluate(a=1.0, x=1.0, b=0.0, D=3.0, T=4.0)["obs2"]
        other = c.evaluate(a=1.0, x=1.0, b=0.0, D=3.0, T=4.0, eta=1e6)["obs2"]
        assert base == other == pytest.approx(1.5)

    def test_order_claim_evaluates_expression(self):
        c = Claim(id="t.order", location="l", statement="s", domains={D: "d", G: "g", T: "t"},
                  conclusion=D * G / sp.sqrt(T), mode=Mode.ORDER)
        Tv = np.array([1.0, 4.0, 100.0])
        np.testing.assert_allclose(c.evaluate(D=2.0, G=3.0, T=Tv), 6.0 / np.sqrt(Tv), rtol=1e-14)
        assert c.relations == ()
        with pytest.raises(ValueError, match="'G'"):
            c.evaluate(D=2.0, T=Tv)

    def test_prescribed(self):
        c = make_claim()
        p = c.prescribed(D=np.array([1.0, 2.0]), T=4.0)
        assert set(p) == {"eta", "epsilon"}
        np.testing.assert_allclose(p["eta"], [0.5, 1.0])
        np.testing.assert_allclose(p["epsilon"], [1.0, 2.0])
        with pytest.raises(ValueError, match="'T'"):
            c.prescribed(D=1.0)

    def test_hypotheses_hold_elementwise(self):
        c = make_claim()
        # eps = 2D/sqrt(T) = 1 at D=1, T=4, so beta >= 2/eps is beta >= 2
        held = c.hypotheses_hold(beta=np.array([1.0, 1.999, 2.0, 5.0]), D=1.0, T=4.0)
        np.testing.assert_array_equal(held, [False, False, True, True])
        with pytest.raises(ValueError, match="'beta'"):
            c.hypotheses_hold(D=1.0, T=4.0)

    def test_no_hypotheses_means_true(self):
        c = make_claim(hypotheses=())
        assert bool(c.hypotheses_hold()) is True

    def test_latex_and_summary(self):
        c = make_claim()
        tex = c.latex()
        assert tex.strip()
        assert r"\leq" in tex and r"\text{with }" in tex and r"\text{if }" in tex
        order = Claim(id="t.order", location="l", statement="s", domains={D: "d", T: "t"},
                      conclusion=D / sp.sqrt(T), mode=Mode.ORDER)
        assert order.latex().startswith(r"\mathcal{O}")
        s = c.summary()
        assert s["id"] == "test.claim" and s["mode"] == "deterministic"
        assert len(s["conclusion"]) == 2


# ---------------------------------------------------------------------------- provers
E = sp.Symbol("E", positive=True, integer=True)
Er = sp.Symbol("E", positive=True)          # real, positive: E*(3E-1)/6 < 0 at E = 0.1


class TestProveNonnegative:
    def test_proves_lemma5_gap_integer_symbol(self):
        r = prove_nonnegative(E * (3 * E - 1) / 6, {E: 1})
        assert r.proven is True

    def test_proves_with_shift_for_real_symbol(self):
        # only true because of the lower bound E >= 1: needs the shift certificate
        r = prove_nonnegative(Er * (3 * Er - 1) / 6, {Er: 1})
        assert r.proven is True
        assert "shift" in r.method

    def test_false_but_undecided_returns_none(self):
        # E*(3E-1)/6 is negative at E = 0.1 (no lower bound given), sympy cannot decide: None
        r = prove_nonnegative(Er * (3 * Er - 1) / 6)
        assert r.proven is None and r.proven is not False
        # x - 2 on x >= 1 is false at x = 1, but neither method decides it
        r = prove_nonnegative(x - 2, {x: 1})
        assert r.proven is None

    def test_refuted_where_sympy_decides(self):
        r = prove_nonnegative(-y - 1)
        assert r.proven is False
        assert r.counterexample is not None

    def test_true_expression_never_refuted(self):
        assert prove_nonnegative(y**2 + 1).proven is True
        assert prove_nonnegative(x**2).proven is True

    def test_rational_function(self):
        # (E - 1)/(E + 1) >= 0 on E >= 1, numerator and denominator shift-certified
        assert prove_nonnegative((Er - 1) / (Er + 1), {Er: 1}).proven is True

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(coeffs=st.lists(st.integers(-3, 3), min_size=1, max_size=4), lb=st.integers(0, 3))
    def test_soundness_against_sampling(self, coeffs, lb):
        """Whatever the prover says must agree with the polynomial's values on [lb, lb + 50]."""
        u = sp.Symbol("u", nonnegative=True)
        poly = sum(c * u**k for k, c in enumerate(coeffs))
        r = prove_nonnegative(poly, {u: lb})
        grid = np.linspace(lb, lb + 50, 2001)
        vals = np.asarray(sp.lambdify(u, poly, "numpy")(grid), dtype=float) * np.ones_like(grid)
        if r.proven is True:
            assert vals.min() >= -1e-9
        elif r.proven is False:
            # refuted by sympy's assumptions: negative everywhere on the symbol's domain
            assert vals.max() < 0


class TestSampleNonnegative:
    def test_finds_counterexample(self):
        r = sample_nonnegative(x - 2, {x: (1.0, 5.0, False)}, np.random.default_rng(0))
        assert r.proven is False
        assert 1.0 <= r.counterexample["x"] < 2.0
        assert r.counterexample["value"] == pytest.approx(r.counterexample["x"] - 2)

    def test_integer_domain_counterexample(self):
        r = sample_nonnegative(Tint - 3, {Tint: (1, 10, True)}, np.random.default_rng(1))
        assert r.proven is False
        assert r.counterexample["T"] in (1.0, 2.0)

    def test_true_expression_not_proven_only_sampled(self):
        r = sample_nonnegative(x - 0.5, {x: (1.0, 5.0, False)}, np.random.default_rng(0))
        assert r.proven is None
        assert "sampled" in r.method

    def test_corners_are_included(self):
        # negative only in a tiny corner x > 4.999999 of a log-uniform box: corners catch it
        r = sample_nonnegative(4.999999 - x, {x: (1e-3, 5.0, False)}, np.random.default_rng(0), n=10)
        assert r.proven is False

    def test_domain_with_nonpositive_lower_end(self):
        r = sample_nonnegative(x**2 - 0.01, {x: (-1.0, 1.0, False)}, np.random.default_rng(3))
        assert r.proven is False and abs(r.counterexample["x"]) < 0.1
    def test_constant_expression(self):
        r = sample_nonnegative(sp.Integer(-1), {}, np.random.default_rng(0))
        assert isinstance(r, ProofResult) and r.proven is False


class TestProveIdentity:
    def test_true_identity(self):
        r = prove_identity(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)
        assert r.proven is True
        assert prove_identity(sp.summation(sp.Symbol("k", integer=True) ** 2,
                                           (sp.Symbol("k", integer=True), 0, E - 1)),
                              (E - 1) * E * (2 * E - 1) / 6).proven is True

    def test_false_identity(self):
        r = prove_identity(x + 1, x)
        assert r.proven is False
        assert r.expression == "1"

    def test_undecided_identity(self):
        r = prove_identity(sp.exp(x), 1 + x)
        assert r.proven is None


# ---------------------------------------------------------------------------- rates
class TestRates:
    def test_rounds_to_reach_dg_over_sqrt_t(self):
        R = rounds_to_reach(D * G / sp.sqrt(T), T, eps)
        assert sp.simplify(R - D**2 * G**2 / eps**2) == 0
        assert order_in_inverse_eps(R, eps) == 2
        assert communication_order(D * G / sp.sqrt(T), T, eps) == 2

    def test_rounds_to_reach_one_over_t(self):
        R = rounds_to_reach(1 / T, T, eps)
        assert sp.simplify(R - 1 / eps) == 0
        assert communication_order(1 / T, T, eps) == 1

    def test_rounds_to_reach_cube_root(self):
        assert communication_order(D / T ** sp.Rational(1, 3), T, eps) == 3

    def test_rounds_to_reach_solves_equation(self):
        bound = 2 * D * G * sp.sqrt(5 / T)
        R = rounds_to_reach(bound, T, eps)
        assert sp.simplify(bound.subs(T, R) - eps) == 0

    def test_rounds_to_reach_uninvertible_raises(self):
        with pytest.raises(ValueError, match="cannot invert"):
            rounds_to_reach(D * G, T, eps)    # no dependence on T: no solution

    def test_order_with_log_factor_is_power(self):
        # documented: a log factor gives the same exponent (O-tilde)
        assert order_in_inverse_eps(sp.log(1 / eps) / eps**2, eps) == 2
        assert order_in_inverse_eps(sp.log(1 / eps) ** 3 * D / eps, eps) == 1
        assert order_in_inverse_eps(D**2 * G**2 * (4 + 1 / eps) / eps**2, eps) == 3
    def test_communication_order_log_over_sqrt_t(self):
        try:
            p = communication_order(sp.log(T) / sp.sqrt(T), T, eps)
        except ValueError:
            return
        assert p == 2
    def test_rounds_to_reach_sum_of_powers(self):
        bound = 1 / T + 1 / sp.sqrt(T)
        R = rounds_to_reach(bound, T, eps)
        for e in (0.01, 0.5, 3.0):
            assert float(bound.subs(T, R.subs(eps, e))) == pytest.approx(e)
        assert communication_order(bound, T, eps) == 2


def test_hypotheses_on_their_boundary_are_judged_with_rtol_not_by_rounding():
    """beta >= 2/eps at beta = 2/eps computed another way (1 ulp below): exact evaluation says no, rtol says yes;
    a clear miss stays a miss, and a strict hypothesis gets no tolerance."""
    claim = Claim(id="t.boundary", location="test", statement="", domains={beta: "positive", eps: "positive", obs: "o"},
                  conclusion=(sp.Le(obs, 1),), hypotheses=(sp.Ge(beta, 2 / eps),), mode=Mode.DETERMINISTIC)
    e = 0.1
    on_boundary = np.nextafter(2 / e, 0)
    assert not bool(claim.hypotheses_hold(beta=on_boundary, epsilon=e))
    assert bool(claim.hypotheses_hold(rtol=1e-9, beta=on_boundary, epsilon=e))
    assert not bool(claim.hypotheses_hold(rtol=1e-9, beta=19.9, epsilon=e))
    strict = Claim(id="t.strict", location="test", statement="", domains={beta: "positive", eps: "positive", obs: "o"},
                   conclusion=(sp.Le(obs, 1),), hypotheses=(sp.Gt(beta, 2 / eps),), mode=Mode.DETERMINISTIC)
    assert not bool(strict.hypotheses_hold(rtol=1e-9, beta=2 / e, epsilon=e))


def test_the_largest_admissible_value_is_read_from_the_linear_hypotheses():
    """gamma <= 1/(6 L) and 5 gamma L (H - 1) <= 1 cap gamma at min{1/(6 L), 1/(5 L (H - 1))}; at H = 1 the second
    caps nothing; a lower bound (gamma >= a, written either way) caps nothing; a hypothesis not linear in gamma and
    a claim with no cap are refused."""
    L, H = sp.Symbol("L", positive=True), sp.Symbol("H", positive=True)
    dom = {eta: "step", L: "positive", H: "integer >= 1", a: "positive", obs: "o"}
    claim = Claim(id="t.step", location="test", statement="", domains=dom, conclusion=(sp.Le(obs, 1),),
                  hypotheses=(sp.Ge(1, 6 * eta * L), sp.Le(5 * eta * L * (H - 1), 1), sp.Ge(eta, a),
                              sp.Le(a, 2 * eta)), mode=Mode.DETERMINISTIC)
    assert claim.largest_admissible(eta, L=2.0, H=3, a=0.01) == pytest.approx(min(1 / 12, 1 / 20), rel=1e-15)
    assert claim.largest_admissible(eta, L=2.0, H=1, a=0.01) == pytest.approx(1 / 12, rel=1e-15)
    with pytest.raises(ValueError, match="no largest eta"):              # a lower bound above the cap
        claim.largest_admissible(eta, L=2.0, H=1, a=0.5)
    def strict(c):
        return Claim(id="t.strict", location="test", statement="", domains=dom, conclusion=(sp.Le(obs, 1),),
                     hypotheses=(sp.Le(eta * L, 1), sp.Lt(eta, c / L)), mode=Mode.DETERMINISTIC)
    with pytest.raises(ValueError, match="no largest eta"):              # sup 1/(2 L) not attained
        strict(0.5).largest_admissible(eta, L=2.0)
    assert strict(2).largest_admissible(eta, L=2.0) == pytest.approx(0.5, rel=1e-15)   # the cap 1/L is attained
    with pytest.raises(ValueError, match="values needed"):
        claim.largest_admissible(eta, L=2.0)
    lower_only = Claim(id="t.low", location="test", statement="", domains=dom, conclusion=(sp.Le(obs, 1),),
                       hypotheses=(sp.Ge(eta, a),), mode=Mode.DETERMINISTIC)
    with pytest.raises(ValueError, match="no hypothesis bounds eta from above"):
        lower_only.largest_admissible(eta, a=1.0)
    square = Claim(id="t.sq", location="test", statement="", domains=dom, conclusion=(sp.Le(obs, 1),),
                   hypotheses=(sp.Le(eta**2 * L, 1),), mode=Mode.DETERMINISTIC)
    with pytest.raises(ValueError, match="not linear in eta"):
        square.largest_admissible(eta, L=1.0)


def test_the_admissible_interval_is_read_from_floors_and_caps():
    """1/2 < b, b > a, b <= 1: b's interval at a is (max(a, 1/2), 1]; without a cap its sup is +inf."""
    dom = {b: "exponent", a: "positive", obs: "o"}
    claim = Claim(id="t.interval", location="test", statement="", domains=dom, conclusion=(sp.Le(obs, 1),),
                  hypotheses=(sp.Lt(sp.Rational(1, 2), b), sp.Gt(b, a), sp.Le(b, 1)), mode=Mode.DETERMINISTIC)
    assert claim.admissible_interval(b, a=0.3) == (0.5, 1.0)
    assert claim.admissible_interval(b, a=0.7) == (0.7, 1.0)
    floors = Claim(id="t.floors", location="test", statement="", domains=dom, conclusion=(sp.Le(obs, 1),),
                   hypotheses=(sp.Gt(b, a),), mode=Mode.DETERMINISTIC)
    assert floors.admissible_interval(b, a=0.7) == (0.7, math.inf)
