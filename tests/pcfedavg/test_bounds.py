"""Tests of bounds.pcfedavg: the claims evaluate, the printed constants are pinned against hand
computations from the paper's formulas, the symbolic audit's verdicts, the checkers flag perturbed
copies, the complexity tables, and the elementary facts the proofs use (hypothesis)."""
from __future__ import annotations

import dataclasses
import math
import zlib
from fractions import Fraction as Fr

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds.pcfedavg import claims as B
from bounds.pcfedavg import findings as BF, derivation_tools as DT, prop48_findings as P48F
from bounds.pcfedavg import prop48_norm_facts as NF
from bounds.core import Mode

m, H, D, M, Q, nu, rho, gamma, K, eps = B.m, B.H, B.D, B.M, B.Q, B.nu, B.rho, B.gamma, B.K, B.eps


# ---------------------------------------------------------------------------- random admissible points
def admissible_point(rng: np.random.Generator) -> dict:
    m_ = int(rng.integers(2, 10))
    H_ = int(rng.integers(1, 20))
    Lf, sig = float(np.exp(rng.uniform(-2, 2))), float(np.exp(rng.uniform(-3, 1)))
    rho_ = float(np.exp(rng.uniform(-2, 4)))
    LG = (Lf + sig * (m_ - 1)) / m_ + rho_
    gmax = min(1 / (6 * LG), 1 / (5 * LG * (H_ - 1)) if H_ > 1 else np.inf)
    R_ = int(rng.integers(1, 1000))
    v = {"m": m_, "n": int(rng.integers(1, 5)), "L_f": Lf, "sigma": sig, "sigma_i": sig * float(rng.uniform()),
         "rho": rho_, "gamma": gmax * float(rng.uniform(0.01, 1)), "H": H_, "R": R_, "K": R_ * H_,
         "nu": float(rng.uniform(0, 2)), "M": float(np.exp(rng.uniform(-2, 2))), "Q": float(rng.uniform(0, 5)),
         "D": float(rng.uniform(0, 2)), "epsilon": float(np.exp(rng.uniform(-5, 0)))}
    for name in B.OBSERVED:
        v[name] = float(rng.uniform(0, 3))
    v["round_len"] = int(rng.integers(1, H_ + 1))
    v["subopt_Kstar"] = float(rng.normal())
    v["inner"] = float(rng.normal())
    return v


def test_claim_ids_unique_and_lookup():
    ids = [c.id for c in B.CLAIMS]
    assert len(ids) == len(set(ids))
    for required in ("pcfedavg.lemma4.1.i", "pcfedavg.lemma4.1", "pcfedavg.lemma4.2", "pcfedavg.lemma4.3",
                     "pcfedavg.lemma4.4", "pcfedavg.lemma4.5", "pcfedavg.lemma4.6", "pcfedavg.prop4.7",
                     "pcfedavg.prop4.8.i", "pcfedavg.prop4.8.ii", "pcfedavg.eq12", "pcfedavg.prop4.8.iii",
                     "pcfedavg.lemma6.1.a", "pcfedavg.lemma6.1.b", "pcfedavg.thm3.4.i", "pcfedavg.thm3.4.ii",
                     "pcfedavg.thm3.4.iii"):
        assert required in ids
    assert B.claim("pcfedavg.prop4.7") is B.prop47
    with pytest.raises(KeyError, match="pcfedavg.lemma4.3"):
        B.claim("pcfedavg.nope")


def test_symbols_and_helpers():
    names = {str(s) for s in (B.m, B.n, B.L_f, B.sigma, B.sigma_i, B.rho, B.gamma, B.H, B.R, B.K, B.nu, B.M,
                              B.Q, B.D, B.eps)}
    assert names == {"m", "n", "L_f", "sigma", "sigma_i", "rho", "gamma", "H", "R", "K", "nu", "M", "Q", "D",
                     "epsilon"}
    # L_G is an expression, not a free symbol
    assert B.L_G_EXPR.free_symbols == {B.L_f, B.sigma, B.m, B.rho}
    assert sp.simplify(B.L_G_EXPR - ((B.L_f + B.sigma * (B.m - 1)) / B.m + B.rho)) == 0
    assert sp.simplify(B.L_EXPR - (B.L_f + B.sigma * B.m)) == 0
    for c in B.CLAIMS:
        assert B.L_SYM not in {s for s in c.domains}, c.id
        for rel in c.relations:
            assert rel.lhs.is_Symbol and str(rel.lhs) in B.OBSERVED, (c.id, rel)


@pytest.mark.parametrize("claim", B.CLAIMS, ids=lambda c: c.id)
def test_every_claim_evaluates_at_random_admissible_points(claim):
    rng = np.random.default_rng(zlib.crc32(claim.id.encode()))
    for _ in range(5):
        vals = admissible_point(rng)
        assert {str(s) for s in claim.symbols} <= set(vals)
        out = claim.evaluate(**vals)
        if claim.mode is Mode.ORDER:
            assert np.isfinite(out) and out > 0
        else:
            assert set(out) == {str(r.lhs) for r in claim.relations}
            for name, v in out.items():
                assert np.all(np.isfinite(v)), (claim.id, name, v)
        held = np.asarray(claim.hypotheses_hold(**vals))
        assert held.dtype == bool
        if claim.id.startswith(("pcfedavg.prop", "pcfedavg.lemma4.5", "pcfedavg.lemma4.6", "pcfedavg.eq12")):
            assert bool(held), claim.id          # the sampled gamma is admissible
        if claim.id.startswith("pcfedavg.thm3.4"):
            assert not bool(held)                # the proof's gamma = 1/sqrt(R) never is (finding a)
        assert claim.latex().strip()
        for label, expr in claim.steps:
            assert expr.free_symbols <= set(claim.domains), (claim.id, label)


def test_claims_evaluate_vectorised():
    vals = admissible_point(np.random.default_rng(0)) | {"K": np.array([10.0, 100.0, 1000.0])}
    for c in (B.prop47, B.prop48_i, B.prop48_ii, B.eq12, B.prop48_iii):
        for v in c.evaluate(**vals).values():
            assert np.shape(v) == (3,)


# ---------------------------------------------------------------------------- pinned printed constants
POINT = {"L_f": 2, "sigma": 1, "sigma_i": Fr(1, 2), "m": 2, "rho": 1, "gamma": Fr(1, 25), "H": 3, "K": 30,
         "Q": 1, "M": 2, "nu": 1, "D": Fr(1, 4), "R": 10, "epsilon": Fr(1, 10),
         "gap": Fr(1, 10), "drift": Fr(1, 5), "dist": 1, "round_len": 3, "gap_round": Fr(1, 2)}


def _num(claim, name=None):
    out = claim.evaluate(**{k: float(v) for k, v in POINT.items()})
    return float(out if name is None else out[name])


def test_pinned_values_by_hand():
    Lf, sig, sig_i, m_, r, g, H_, K_ = (Fr(POINT[k]) for k in ("L_f", "sigma", "sigma_i", "m", "rho", "gamma",
                                                                "H", "K"))
    Q_, M_, nu_, D_ = (Fr(POINT[k]) for k in ("Q", "M", "nu", "D"))
    LG = (Lf + sig * (m_ - 1)) / m_ + r            # 5/2
    assert LG == Fr(5, 2)
    c = g**2 * (H_ - 1)**2                          # 4/625
    # Lemma 4.1
    assert _num(B.lemma41_i, "lip_ratio") == pytest.approx(float(Lf / m_ + sig_i * (m_ - 1) / m_ + r), rel=1e-14)
    assert _num(B.lemma41, "lip_ratio") == pytest.approx(2.5, rel=1e-14)
    # Lemma 4.3: 6 L gap + 3 L^2 drift + 3 nu^2/m
    assert _num(B.lemma43, "sq_avg_grad") == pytest.approx(6.75, rel=1e-14)
    # Lemma 4.4: -2 gap + L drift
    assert _num(B.lemma44, "inner") == pytest.approx(0.3, rel=1e-14)
    # Lemma 4.5: 5 c len (M + nu^2/m) + 10 c L gap_round
    assert _num(B.lemma45, "drift_round") == pytest.approx(float(5 * c * 3 * (M_ + nu_**2 / m_) + 10 * c * LG / 2),
                                                          rel=1e-14)
    assert _num(B.lemma45, "drift_round") == pytest.approx(0.32, rel=1e-14)
    # Lemma 4.6: (3/2) g L drift + dist - g gap + 3 g^2 nu^2/m
    assert _num(B.lemma46, "dist_next") == pytest.approx(1.0284, rel=1e-14)
    # Prop 4.7 (bound_47)
    b47 = 3 * Q_ / (K_ * g) + Fr(45, 2) * LG * c * M_ + nu_**2 / m_ * (Fr(45, 2) * LG * c + 9 * g)
    assert b47 == Fr(179, 50)
    assert _num(B.prop47, "gap_Kstar") == pytest.approx(3.58, rel=1e-14)
    # Prop 4.8 (i): the four printed terms
    t = [Fr(45, 2) * r * c * (M_ + nu_**2 / m_), 9 * g * nu_**2 / m_, 3 * Q_ / (K_ * g),
         45 * (Lf + sig * (m_ - 1)) / (2 * m_) * c * (M_ + nu_**2 / m_)]
    assert t == [Fr(9, 25), Fr(9, 50), Fr(5, 2), Fr(27, 50)]
    assert _num(B.prop48_i, "subopt_Kstar") == pytest.approx(float(sum(t)), rel=1e-14)
    # Prop 4.8 (ii): 5mD/rho^2 + 60mQ/(K g rho) + 450 L' c (M + nu^2/m)/rho + 450 m c (..) + 180 g nu^2/rho
    t2 = [5 * m_ * D_ / r**2, 60 * m_ * Q_ / (K_ * g * r), 450 * (Lf + sig * (m_ - 1)) * c * (M_ + nu_**2 / m_) / r,
          450 * m_ * c * (M_ + nu_**2 / m_), 180 * g * nu_**2 / r]
    assert sum(t2) == Fr(1457, 10)
    assert _num(B.prop48_ii, "infeas_i") == pytest.approx(145.7, rel=1e-14)
    # (12) and (iii)
    f = lambda x: math.sqrt(float(x))  # noqa: E731
    t12 = [m_ * f(D_) / r, 6 * f(g * nu_**2 / r), 2 * f(45 * (Lf + sig) * c * (M_ + nu_**2 / m_) / (2 * r)),
           2 * f(3 * m_ * Q_ / (K_ * g * r)), 2 * f(45 * m_ * c * (M_ + nu_**2 / m_) / 2)]
    assert _num(B.eq12, "root_sum_infeas") == pytest.approx(sum(t12), rel=1e-13)
    assert _num(B.prop48_iii, "subopt_Kstar") == pytest.approx(-f(D_) * sum(t12), rel=1e-13)
    # Theorem 3.4 (i) at eps = 1/10 with L = L_f + sigma m = 4
    L_ = Lf + sig * m_
    e = Fr(1, 10)
    o1 = Q_**2 / (H_**2 * e**2) + L_ * H_**2 * M_ / (m_ * e) + H_**4 * M_**2 / e**2 \
        + L_ * H_**2 * nu_**2 / (m_**2 * e) + H_**4 * nu_**4 / (m_**2 * e**2)
    assert _num(B.thm34_i) == pytest.approx(float(o1), rel=1e-13)
    assert float(o1) == pytest.approx(34886.111111, rel=1e-9)
    assert B.thm34_i.prescribed(R=100.0, H=3.0) == {"rho": 10.0, "gamma": 0.1, "K": 300.0}


def test_perturbed_prop47_copy_is_flagged():
    """A copy of Prop. 4.7 with 45/2 -> 45/4 changes the pinned value and the derivation checker flags it."""
    perturbed_rhs = B.BOUND_47.subs(sp.Rational(45, 2), sp.Rational(45, 4))
    assert perturbed_rhs != B.BOUND_47
    copy = dataclasses.replace(B.prop47, conclusion=(sp.Le(B.gap_Kstar, perturbed_rhs),))
    assert _num(copy, "gap_Kstar") == pytest.approx(3.13, rel=1e-14)       # != 3.58
    assert BF.check_prop47().verdict == "consistent"
    bad = BF.check_prop47(perturbed_rhs, rng=np.random.default_rng(0))
    assert bad.verdict == "discrepancy" and "counterexample" in bad.evidence
    # a looser constant is implied, not a discrepancy
    loose = BF.check_prop47(B.BOUND_47.subs(sp.Rational(45, 2), 30), rng=np.random.default_rng(0))
    assert loose.verdict == "consistent" and "looser" in loose.summary


def test_perturbed_lemma45_and_48i_are_flagged():
    assert BF.check_lemma45().verdict == "consistent"
    assert BF.check_lemma45(B.lemma45.relations[0].rhs.subs(10, 5), rng=np.random.default_rng(0)).verdict == "discrepancy"
    assert P48F.check_prop48_i().verdict == "consistent"
    t = list(B.TERMS_48I)
    t[1] = t[1] / 2
    assert P48F.check_prop48_i(sp.Add(*t), rng=np.random.default_rng(0)).verdict == "discrepancy"


def test_perturbed_48ii_copies():
    """(ii) as printed fails the term check; replacing 5m D by 5m^2 D makes it pass; 180 -> 18 fails again."""
    rows, f = P48F.check_prop48_ii_terms()
    assert f.verdict == "discrepancy"
    assert [r["status"] for r in rows] == ["not implied", "identity", "identity", "identity", "identity"]
    assert rows[0]["ratio"] == "1/m"
    fixed = list(B.TERMS_48II)
    fixed[0] = 5 * m**2 * D / rho**2
    rows2, f2 = P48F.check_prop48_ii_terms(tuple(fixed))
    assert f2.verdict == "consistent" and all(r["status"] == "identity" for r in rows2)
    broken = list(fixed)
    broken[4] = 18 * gamma * nu**2 / rho
    rows3, f3 = P48F.check_prop48_ii_terms(tuple(broken))
    assert f3.verdict == "discrepancy" and rows3[4]["status"] == "not implied"
    # a larger constant than needed is implied
    looser = list(fixed)
    looser[1] = 100 * m * Q / (K * gamma * rho)
    assert P48F.check_prop48_ii_terms(tuple(looser))[0][1]["status"] == "valid inequality"


def test_perturbed_eq12_is_flagged():
    assert BF.check_eq12().verdict == "consistent"
    t = list(B.TERMS_12)
    t[1] = 3 * sp.sqrt(gamma * nu**2 / rho)
    assert BF.check_eq12(tuple(t)).verdict == "discrepancy"


def test_ii_counterexample_point_by_hand():
    """At the module's admissible point rhs_12^2 = 36/25 > printed (ii) = 6/5 (computed here from the printed
    formulas)."""
    p = P48F.PROP48_II_COUNTEREXAMPLE
    m_, r, D_, g, nu2, H_, M_, Q_, K_, Lp = 2, 1, Fr(1, 25), Fr(1, 20), Fr(1, 45), 2, Fr(7, 90), 1, 12000, 2
    assert float(p["nu"]) ** 2 == pytest.approx(float(nu2), rel=1e-14)
    LG = Fr(Lp, m_) + r
    assert 6 * g * LG <= 1 and 5 * g * LG * (H_ - 1) <= 1 and D_ <= M_
    sq = [Fr(m_**2) * D_ / r**2, 36 * g * nu2 / r, 4 * 45 * Lp * g**2 * (H_ - 1)**2 * (M_ + nu2 / m_) / (2 * r),
          4 * 3 * m_ * Q_ / (K_ * g * r), 4 * 45 * m_ * g**2 * (H_ - 1)**2 * (M_ + nu2 / m_) / 2]
    assert sq == [Fr(4, 25)] + [Fr(1, 25)] * 4        # terms 2/5, 1/5, 1/5, 1/5, 1/5
    ii = 5 * m_ * D_ / r**2 + 60 * m_ * Q_ / (K_ * g * r) + 450 * Lp * g**2 * (H_ - 1)**2 * (M_ + nu2 / m_) / r \
        + 450 * m_ * g**2 * (H_ - 1)**2 * (M_ + nu2 / m_) + 180 * g * nu2 / r
    assert ii == Fr(6, 5)
    vals = {k: float(v) for k, v in p.items()}
    assert B.prop48_ii.hypotheses_hold(**vals)
    assert B.eq12.evaluate(**vals)["root_sum_infeas"] ** 2 == pytest.approx(36 / 25, rel=1e-12)
    assert B.prop48_ii.evaluate(**vals)["infeas_i"] == pytest.approx(6 / 5, rel=1e-12)


# ---------------------------------------------------------------------------- Lemma 4.1 norms (block matrices)
@pytest.mark.parametrize("m_", [2, 3, 4, 5])
@pytest.mark.parametrize("n_", [1, 2])
def test_lemma41_block_norms(m_, n_):
    I_n = sp.eye(n_)
    A = sp.kronecker_product(sp.Matrix([[sp.Rational(1, m_)] * m_]), I_n)
    for i in range(m_):
        e = sp.zeros(1, m_)
        e[0, i] = 1
        Bi = sp.kronecker_product(e, I_n)
        x = sp.Matrix(sp.symbols(f"x0:{m_ * n_}"))
        assert list(A * x) == [sum(x[j * n_ + c] for j in range(m_)) / m_ for c in range(n_)]   # A x = xbar
        assert list(Bi * x) == [x[i * n_ + c] for c in range(n_)]                                # B_i x = x_i
        norms = {k: max(sp.Matrix(X * X.T).eigenvals()) for k, X in (("A", A), ("B_i", Bi), ("B_i-A", Bi - A))}
        for k, v in norms.items():
            assert v == B.NORM_SQ[k].subs(m, m_), (k, v)
        mod_A, mod_B = BF.block_matrices(m_, n_, i)
        assert mod_A == A and mod_B == Bi
    # L_{G_i} with the norms equals the printed simplified form
    assert sp.simplify(B.L_f * B.NORM_SQ["A"] + B.sigma_i * B.NORM_SQ["B_i-A"] + B.rho * B.NORM_SQ["B_i"]
                       - B.L_G_I_EXPR) == 0


# ---------------------------------------------------------------------------- Lemma 6.1 (exact)
@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(1, 9), st.lists(st.fractions(-5, 5, max_denominator=7), min_size=2,
                                                                max_size=2)), min_size=1, max_size=5))
def test_lemma61_exact_on_discrete_distributions(atoms):
    w = [a for a, _ in atoms]
    tot = sum(w)
    probs = [Fr(a, tot) for a in w]
    ys = [y for _, y in atoms]
    mean = [sum(p * y[c] for p, y in zip(probs, ys)) for c in range(2)]
    sm = sum(p * sum(v * v for v in y) for p, y in zip(probs, ys))
    var = sum(p * sum((y[c] - mean[c]) ** 2 for c in range(2)) for p, y in zip(probs, ys))
    msq = sum(v * v for v in mean)
    sub = {B.second_moment: sp.Rational(sm.numerator, sm.denominator),
           B.variance: sp.Rational(var.numerator, var.denominator), B.mean_sq: sp.Rational(msq.numerator, msq.denominator)}
    assert B.lemma61_a.relations[0].subs(sub) == sp.true
    assert B.lemma61_b.relations[0].subs(sub) == sp.true
    assert sm == var + msq


# ---------------------------------------------------------------------------- (h): implications
@settings(deadline=None)
@given(st.fractions(min_value=0, max_value=Fr(1, 5), max_denominator=10**6))
def test_h_implications_u(u):
    assert 15 * u * u - 1 <= Fr(-1, 3)        # (P4.7-b)
    assert 15 * u * u - 1 <= Fr(-2, 5)        # the sharper constant
    assert 1 - 4 * u * u >= Fr(4, 5)          # (L4.5-g)


@settings(deadline=None)
@given(st.fractions(min_value=0, max_value=Fr(1, 6), max_denominator=10**6))
def test_h_implications_w(w):
    assert 2 * w * (1 - 3 * w) >= w           # (L4.6-e), first
    assert w * (1 + 3 * w) <= Fr(3, 2) * w    # (L4.6-e), second


@settings(deadline=None)
@given(Lf=st.fractions(Fr(1, 100), 100, max_denominator=100), sig=st.fractions(Fr(1, 100), 10, max_denominator=100),
       m_=st.integers(2, 40), r=st.fractions(Fr(1, 100), 100, max_denominator=100), H_=st.integers(1, 50),
       frac=st.fractions(Fr(1, 1000), 1, max_denominator=1000), gap_=st.fractions(0, 10, max_denominator=100),
       drift_=st.fractions(0, 10, max_denominator=100))
def test_h_on_admissible_points(Lf, sig, m_, r, H_, frac, gap_, drift_):
    """At gamma = frac * min{1/(6L_G), 1/(5L_G(H-1))}: u <= 1/5, w <= 1/6, the implications hold, and the
    printed Lemma 4.6 right side dominates (L4.6-d) (gap, drift >= 0)."""
    LG = (Lf + sig * (m_ - 1)) / m_ + r
    gmax = Fr(1) / (6 * LG) if H_ == 1 else min(Fr(1) / (6 * LG), Fr(1) / (5 * LG * (H_ - 1)))
    g = frac * gmax
    u, w = g * LG * (H_ - 1), g * LG
    assert u <= Fr(1, 5) and w <= Fr(1, 6)
    assert 15 * u * u - 1 <= Fr(-1, 3) and 1 - 4 * u * u >= Fr(4, 5)
    assert -2 * g * (1 - 3 * w) <= -g and w * (1 + 3 * w) <= Fr(3, 2) * w
    d_step = g * LG * (1 + 3 * w) * drift_ - 2 * g * (1 - 3 * w) * gap_
    d_stmt = Fr(3, 2) * g * LG * drift_ - g * gap_
    assert d_stmt >= d_step
    vals = {"L_f": Lf, "sigma": sig, "m": m_, "rho": r, "H": H_, "gamma": g}
    held = {"6": bool(B.STEP_6.subs({DT.SYMBOL_BY_NAME[k]: sp.Rational(v.numerator, v.denominator)
                                     if isinstance(v, Fr) else v for k, v in vals.items()})),
            "5": bool(B.STEP_5.subs({DT.SYMBOL_BY_NAME[k]: sp.Rational(v.numerator, v.denominator)
                                     if isinstance(v, Fr) else v for k, v in vals.items()}))}
    assert held == {"6": True, "5": True}


def test_h_boundaries_are_where_the_paper_says():
    # 2w(1-3w) >= w fails just above w = 1/6; 15u^2 - 1 <= -1/3 fails above u = sqrt(2/45)
    w = Fr(1, 6) + Fr(1, 1000)
    assert 2 * w * (1 - 3 * w) < w
    u = Fr(22, 100)                           # > sqrt(2/45) = 0.2108
    assert 15 * u * u - 1 > Fr(-1, 3)


# ---------------------------------------------------------------------------- (d): the facts before (11)
@settings(deadline=None)
@given(st.lists(st.tuples(st.integers(1, 9), st.lists(st.floats(0, 10), min_size=2, max_size=5)), min_size=1,
                max_size=6).filter(lambda a: len({len(d) for _, d in a}) == 1))
def test_d_facts_on_random_distributions(atoms):
    w = np.array([a for a, _ in atoms], float)
    p = w / w.sum()
    d = np.array([x for _, x in atoms])
    Ed_i = p @ d
    Ed = p @ np.sqrt((d**2).sum(1))
    Ed2 = p @ (d**2).sum(1)
    assert Ed <= Ed_i.sum() + 1e-9                 # fact 1: valid
    assert Ed <= np.sqrt(Ed2) + 1e-9               # Jensen: the route that does give (11)


def test_d_fact2_counterexample_exact():
    assert sp.Integer(2) > sp.sqrt(2)              # m = 2, dbar_1 = dbar_2 = 1 surely
    facts = NF.sample_facts_before_eq11(np.random.default_rng(3), trials=100)
    assert facts["fact1_violations"] == 0 and facts["jensen_violations"] == 0
    assert facts["fact2_violations"] > 0


# ---------------------------------------------------------------------------- (e): explicit instance
def test_lemma45_M_instance_by_hand():
    inst = BF.interval_instance()
    c, sig, lo, hi, r, m_ = (0, -1), (1, 1), (0, -1), (1, 1), Fr(2), 2

    def grad_F(x, i, pen):                          # from Section 4's definitions, block by block
        xb = sum(x) / m_
        out = [(xb - c[i]) / m_ + sig[i] * ((1 if j == i else 0) - Fr(1, m_)) * (x[i] - xb) for j in range(m_)]
        if pen:
            out[i] += r * (x[i] - min(max(x[i], lo[i]), hi[i]))
        return out

    xs = (Fr(0), Fr(-1, 2))
    xr = (Fr(-1, 6), Fr(-1, 2))
    assert tuple(inst["x_star"]) == tuple(sp.Rational(v.numerator, v.denominator) for v in xs)
    assert tuple(inst["x_star_rho"]) == tuple(sp.Rational(v.numerator, v.denominator) for v in xr)
    # x*: KKT for the box constraints (x_1 at its lower bound with df/dx_1 >= 0, x_2 interior with 0)
    gf = [sum(grad_F(xs, i, False)[j] for i in range(m_)) / m_ for j in range(m_)]
    assert gf[0] >= 0 and xs[0] == lo[0] and gf[1] == 0 and lo[1] < xs[1] < hi[1]
    # x*_rho: grad G_rho = 0
    assert [sum(grad_F(xr, i, True)[j] for i in range(m_)) / m_ for j in range(m_)] == [0, 0]
    M_ = sum(sum(v * v for v in grad_F(xs, i, False)) for i in range(m_)) / m_
    G_ = sum(sum(v * v for v in grad_F(xr, i, True)) for i in range(m_)) / m_
    assert (M_, G_) == (Fr(3, 16), Fr(17, 72))
    assert inst["M"] == sp.Rational(3, 16) and inst["mean_sq_grad_G_at_x_star_rho"] == sp.Rational(17, 72)
    assert G_ > M_
    # D <= M (used to keep the counterexample point of (ii) honest): ||grad f(x*)||^2 <= M
    assert sum(v * v for v in gf) <= M_


# ---------------------------------------------------------------------------- proof steps
@pytest.fixture(scope="module")
def steps():
    return BF.proof_steps()


def test_proof_steps_structure(steps):
    assert steps
    for s in steps:
        assert set(s) == {"claim", "step", "status", "method", "evidence", "counterexample"}
        assert s["status"] in ("identity", "valid inequality", "not implied", "not checked")
        assert s["claim"].startswith("pcfedavg.") and s["method"] and s["evidence"]
    labels = {(s["claim"], s["step"]) for s in steps}
    for needed in [("pcfedavg.lemma4.3", x) for x in ("(L4.3-a)", "(L4.3-b)", "(3)", "(L4.3-c)", "(L4.3-d)")] + \
                  [("pcfedavg.lemma4.5", x) for x in ("(4)", "(L4.5-a)", "(L4.5-b)", "(5)", "(6)", "(L4.5-c)",
                                                       "(L4.5-d)", "(L4.5-e)", "(L4.5-f)", "(L4.5-g)")] + \
                  [("pcfedavg.lemma4.6", x) for x in ("(L4.6-a)", "(L4.6-b)", "(L4.6-c)", "(L4.6-d)", "(L4.6-e)")] + \
                  [("pcfedavg.prop4.7", x) for x in ("(7)", "(P4.7-a)", "(P4.7-b)", "(P4.7-c)", "statement")] + \
                  [("pcfedavg.prop4.8", x) for x in ("(P4.8-a)", "(P4.8-b)", "(P4.8-c)", "(8)", "(9)", "(P4.8-d)",
                                                      "(P4.8-e)", "(P4.8-f)", "(10)", "(11)", "(P4.8-g)", "(P4.8-h)")] + \
                  [("pcfedavg.eq12", "(12)"), ("pcfedavg.prop4.8.ii", "(ii)"), ("pcfedavg.prop4.8.iii", "(iii)"),
                   ("pcfedavg.thm3.4", "(T3.4-a)")]:
        assert needed in labels, needed
    # returns a copy
    steps[0]["status"] = "tampered"
    assert BF.proof_steps()[0]["status"] != "tampered"


def test_proof_steps_not_implied_set(steps):
    bad = {(s["claim"], s["step"]) for s in steps if s["status"] == "not implied"}
    assert bad == {
        ("pcfedavg.lemma4.5", "(L4.5-a)"), ("pcfedavg.lemma4.5", "(L4.5-d)"), ("pcfedavg.prop4.8", "(P4.8-c)"),
        ("pcfedavg.prop4.8", "fact 2: -sqrt(sum_i E[dbar_i^2]) <= -sum_i E[dbar_i]"),
        ("pcfedavg.prop4.8.ii", "(ii)"), ("pcfedavg.thm3.4", "gamma = 1/sqrt(R), rho = sqrt(R)"),
        ("pcfedavg.thm3.4.iii", "(iii) rate")}
    for s in steps:
        if s["status"] == "not implied" and "rate" not in s["step"] and "gamma" not in s["step"]:
            assert s["counterexample"], s["step"]
        if s["status"] != "not implied":
            assert "False" not in s["evidence"] and ": None" not in s["evidence"], (s["step"], s["evidence"])


def test_L45a_counterexample_is_genuine(steps):
    x = sp.Symbol("x")
    G1, G2 = sp.Integer(0) * x, 2 * x**2
    y = [sp.diff(G1, x).subs(x, 1), sp.diff(G2, x).subs(x, 0)]
    c = sp.diff((G1 + G2) / 2, x).subs(x, sp.Rational(1, 2))
    assert sum((v - c) ** 2 for v in y) > sum(v**2 for v in y)
    s = [s for s in steps if s["step"] == "(L4.5-a)"][0]
    assert s["counterexample"] == {"y": [0, 0], "centre": 1, "lhs": 2, "rhs": 0}


# ---------------------------------------------------------------------------- audit
@pytest.fixture(scope="module")
def findings():
    return {f.id: f for f in BF.audit_findings(np.random.default_rng(0))}


@pytest.mark.parametrize("fid, verdict", [
    ("pcfedavg.a.thm3.4.stepsize", "discrepancy"),
    ("pcfedavg.b.prop4.8.ii.terms", "discrepancy"),
    ("pcfedavg.c.P4.8-g.root", "consistent"),
    ("pcfedavg.c.eq12.terms", "consistent"),
    ("pcfedavg.d.fact1", "consistent"),
    ("pcfedavg.d.fact2", "discrepancy"),
    ("pcfedavg.e.lemma4.5.M", "discrepancy"),
    ("pcfedavg.f.lemma4.5.range", "discrepancy"),
    ("pcfedavg.f.L4.5-a", "discrepancy"),
    ("pcfedavg.f.L4.5-e.index", "consistent"),
    ("pcfedavg.g.prop4.8.i", "consistent"),
    ("pcfedavg.h.P4.7-b", "consistent"),
    ("pcfedavg.h.L4.5-g", "consistent"),
    ("pcfedavg.h.L4.6-e.1", "consistent"),
    ("pcfedavg.h.L4.6-e.2", "consistent"),
    ("pcfedavg.P4.8-c.half", "discrepancy"),
    ("pcfedavg.prop4.8.iii.gradient_point", "discrepancy"),
    ("pcfedavg.prop4.7.K_eq_Tr", "discrepancy"),
    ("pcfedavg.prop4.7.derivation", "consistent"),
    ("pcfedavg.lemma4.5.derivation", "consistent"),
    ("pcfedavg.lemma4.1.norms", "consistent"),
    ("pcfedavg.lemma6.1", "consistent"),
    ("pcfedavg.thm3.4.i.rate", "consistent"),
    ("pcfedavg.thm3.4.ii.rate", "consistent"),
    ("pcfedavg.thm3.4.iii.rate", "discrepancy"),
    ("pcfedavg.thm3.4.i.rate.admissible", "discrepancy"),
    ("pcfedavg.thm3.4.ii.rate.admissible", "discrepancy"),
    ("pcfedavg.thm3.4.iii.rate.admissible", "discrepancy"),
    ("pcfedavg.remark3.5", "consistent"),
    ("pcfedavg.remark3.6", "consistent"),
])
def test_audit_verdicts(findings, fid, verdict):
    assert fid in findings, sorted(findings)
    assert findings[fid].verdict == verdict, findings[fid]


def test_audit_rows_well_formed(findings):
    for letter in "abcdefgh":
        assert any(fid.startswith(f"pcfedavg.{letter}.") for fid in findings), letter
    for f in findings.values():
        d = f.as_dict()
        assert d["verdict"] in ("consistent", "discrepancy", "not checkable")
        assert isinstance(d["claims"], list) and d["claims"]
        for cid in d["claims"]:
            B.claim(cid)                      # every referenced claim exists
        assert f.summary.strip() and f.evidence.strip()


def test_audit_evidence_details(findings):
    assert "5*D*m**2/rho**2" in findings["pcfedavg.b.prop4.8.ii.terms"].evidence
    assert "36/25" in findings["pcfedavg.b.prop4.8.ii.terms"].evidence
    assert "17/72 > M = 3/16" in findings["pcfedavg.e.lemma4.5.M"].evidence
    assert "(identity: True; > 5 proven: True)" in findings["pcfedavg.a.thm3.4.stepsize"].evidence
    assert "D**2*m**2/epsilon**2" in findings["pcfedavg.thm3.4.iii.rate"].summary
    assert "Q**2/epsilon**2" in findings["pcfedavg.thm3.4.i.rate.admissible"].summary
    assert findings["pcfedavg.h.P4.7-b"].method.startswith("proven symbolically")


def test_finding_a_by_hand():
    """gamma = 1/sqrt(R), rho = sqrt(R): 6 gamma L_G = 6 + 6 L'/(m sqrt(R)) > 1 for every R (numbers)."""
    for R_ in (1, 16, 10**4, 10**8):
        for m_, Lf, sig in ((2, 1.0, 0.1), (10, 1e-3, 1e-3)):
            LG = (Lf + sig * (m_ - 1)) / m_ + math.sqrt(R_)
            g = 1 / math.sqrt(R_)
            assert 6 * g * LG > 6
            for H_ in (2, 5):
                assert 5 * g * LG * (H_ - 1) >= 5


def test_half_factor_and_root(findings):
    # h_i = ||.||^2/2, so rho cal-H = (rho/(2m)) sum dbar_i^2
    d = sp.symbols("d0:4", nonnegative=True)
    calH = sum(sp.Rational(1, 2) * x**2 for x in d) / 4
    assert sp.simplify(rho * calH - rho / 8 * sum(x**2 for x in d)) == 0
    # printed (ρ/m) coefficient: largest root <= printed (P4.8-g); corrected ρ/(2m): can exceed it
    for alpha, beta in ((1.0, 0.1), (0.3, 2.0), (0.0, 1.0), (2.0, 0.0)):
        a_printed = (alpha + math.sqrt(alpha**2 + 4 * beta**2)) / 2
        assert a_printed <= alpha + 2 * beta + 1e-12
    alpha, beta = 1.0, 0.1
    assert alpha + math.sqrt(alpha**2 + 2 * beta**2) > alpha + 2 * beta


# ---------------------------------------------------------------------------- complexity tables
KEYS = {"part", "derived_term", "derived_exponents", "printed_term", "printed_exponents", "status", "source",
        "R_term"}
STATUSES = {"match", "dominated", "dominated (AM-GM)", "not covered", "printed term without derived counterpart"}


@pytest.mark.parametrize("admissible", [False, True])
def test_complexity_table_structure(admissible):
    table = BF.complexity_table(admissible=admissible)
    assert {r["part"] for r in table} == {"i", "ii", "iii"}
    for r in table:
        assert set(r) == KEYS and r["status"] in STATUSES
        if r["derived_term"] is not None:
            assert isinstance(r["derived_exponents"], dict) and r["derived_exponents"]["epsilon"] < 0
            assert all(isinstance(v, Fr) for v in r["derived_exponents"].values())
            # the exponents reproduce the derived term
            names = {k: sp.Symbol(k, positive=True) for k in ("epsilon", "m", "H", "Q", "M", "nu", "L", "D")}
            term = sp.Mul(*[names[k] ** sp.Rational(v.numerator, v.denominator)
                            for k, v in r["derived_exponents"].items()])
            assert sp.simplify(term - sp.sympify(r["derived_term"], locals=names)) == 0
        if r["status"] == "match":
            assert r["derived_exponents"] == r["printed_exponents"]
        if r["status"] == "dominated":
            de, pe = r["derived_exponents"], r["printed_exponents"]
            assert pe.get("H", 0) >= de.get("H", 0) and pe.get("m", 0) >= de.get("m", 0)


def _row(table, part, term):
    rows = [r for r in table if r["part"] == part and r["derived_term"] == term]
    assert len(rows) == 1, (part, term, [r["derived_term"] for r in table if r["part"] == part])
    return rows[0]


def test_complexity_proof_choices_expected_rows():
    t = BF.complexity_table()
    assert {r["status"] for r in t if r["part"] in ("i", "ii")} <= {"match", "dominated"}
    assert _row(t, "i", "nu**4/(epsilon**2*m**2)")["status"] == "dominated"
    assert _row(t, "ii", "nu**2/epsilon")["status"] == "dominated"
    r = _row(t, "iii", "D**2*m**2/epsilon**2")
    assert r["status"] == "not covered" and r["printed_term"] == "D**2/epsilon**2"
    assert r["derived_exponents"] == {"D": 2, "m": 2, "epsilon": -2}
    iii = [r for r in t if r["part"] == "iii"]
    assert len(iii) == 7 and all(r["status"] == "not covered" for r in iii)
    # m-exponent gap derived - printed per row
    gaps = sorted(r["derived_exponents"].get("m", 0) - r["printed_exponents"].get("m", 0) for r in iii)
    assert gaps == [Fr(2, 3), Fr(2, 3), 1, 1, 1, 1, 2]


def test_complexity_admissible_expected_rows():
    t = BF.complexity_table(admissible=True)
    r = _row(t, "i", "Q**2/epsilon**2")
    assert r["status"] == "not covered" and r["printed_term"] == "Q**2/(H**2*epsilon**2)"
    assert _row(t, "i", "L*Q/(epsilon*m)")["status"] == "not covered"
    assert _row(t, "i", "M**2/epsilon**2")["status"] == "dominated"
    assert _row(t, "ii", "Q*m/epsilon")["status"] == "not covered"
    assert _row(t, "ii", "D*m/epsilon")["status"] == "match"


def test_complexity_checker_flags_perturbed_printed_terms():
    printed = list(B.PRINTED_O["iii"])
    printed[0] = m**2 * D**2 / eps**2
    rows = BF.compare_rates("iii", printed)
    assert _row(rows, "iii", "D**2*m**2/epsilon**2")["status"] == "match"
    # dropping a printed term of (i) leaves its derived term uncovered
    rows = BF.compare_rates("i", B.PRINTED_O["i"][1:])
    assert _row(rows, "i", "Q**2/(H**2*epsilon**2)")["status"] == "not covered"
    # an extra printed term with no derived counterpart is reported
    rows = BF.compare_rates("ii", B.PRINTED_O["ii"] + (Q**5 / eps**7,))
    assert any(r["status"] == "printed term without derived counterpart" and r["printed_term"] == "Q**5/epsilon**7"
               for r in rows)


def test_remark35_and_36():
    for adm in (False, True):
        lp = BF.leading_eps_powers(adm)
        assert {p: (v["derived"], v["printed"]) for p, v in lp.items()} == {"i": (2, 2), "ii": (1, 1), "iii": (2, 2)}
    r = BF.remark36_exponents()
    a = sp.Symbol("a", positive=True)
    assert r["i"]["decay"] == sp.Min(sp.Rational(1, 2), 1 - a)
    assert r["ii"]["decay"] == sp.Min(1, 2 * a, a + sp.Rational(1, 2))
    assert r["iii"]["decay"] == sp.Min(sp.Rational(1, 2), a, a / 2 + sp.Rational(1, 4))
    assert [r[p]["eps_power_at_half"] for p in ("i", "ii", "iii")] == [2, 1, 2]


# ---------------------------------------------------------------------------- settings
def test_settings_findings():
    rhos = [(r + 10000) ** 0.25 for r in range(100)]
    mn = BF.settings_findings({"dataset": "MNIST", "gamma": 0.03, "rho": rhos, "H": 20, "m": 4, "L_f": 5.0,
                               "sigma": [0.01, 0.02, 0.03, 0.04]})
    assert len(mn) == 1 and mn[0].verdict == "discrepancy"
    LG = (5.0 + 0.04 * 3) / 4 + max(rhos)
    assert f"{1 / (5 * LG * 19):.4g}" in mn[0].summary
    ok = BF.settings_findings({"dataset": "tiny", "gamma": 1e-5, "rho": 10.0, "H": 20, "m": 4, "L_f": 5.0,
                               "sigma": 0.04})
    assert ok[0].verdict == "consistent"
    # L_G = (1 + 1)/2 + 1 = 2; H = 1: only 1/(6 L_G) = 1/12 applies
    h1 = BF.settings_findings({"dataset": "h1", "gamma": 0.9 / 12, "rho": 1.0, "H": 1, "m": 2, "L_f": 1.0,
                               "sigma": 1.0})
    assert h1[0].verdict == "consistent"
    assert BF.step_size_bound(1.0, 1.0, 2, 1.0, 1) == pytest.approx(1 / 12)
    assert BF.step_size_bound(1.0, 1.0, 2, 1.0, 3) == pytest.approx(1 / 20)          # 1/(5 * 2 * 2)
    assert BF.settings_findings({"dataset": "h1b", "gamma": 1.1 / 12, "rho": 1.0, "H": 1, "m": 2, "L_f": 1.0,
                                 "sigma": 1.0})[0].verdict == "discrepancy"


def test_the_lemma45_range_finding_is_gated_and_bears_on_no_verdict(monkeypatch):
    from bounds.pcfedavg import findings as F, lemma45_prop47_findings as L45F
    from repro.verdicts import from_findings

    def found():
        return [f for f in F.audit_findings() if f.id == "pcfedavg.f.lemma4.5.range"]
    assert len(found()) == 1 and found()[0].kind == "wording"
    assert not from_findings(found(), ["pcfedavg.lemma4.5", "pcfedavg.prop4.7"])
    monkeypatch.setattr(L45F, "LEMMA45_USED_FROM_ROUND", 1)
    assert found() == []
