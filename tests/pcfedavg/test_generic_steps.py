"""PC-FedAvg's displayed proof steps as falsifiable Steps (bounds.pcfedavg.steps): every step is a display of the
inventory (bounds.pcfedavg.proofs.DISPLAYS) and every display is a step; each step's status at the CI budget; the
refuted steps fail at their instances by exact arithmetic with fractions; each refutation is the error it names (the
step with that error corrected is not refuted); and doubling or halving a constant of a proven or not-refuted step
makes the check refute it."""
from __future__ import annotations

import dataclasses
import functools
import math
from fractions import Fraction as F

import pytest
import sympy as sp

from bounds.pcfedavg import steps as PS
from bounds.pcfedavg.claims import CLAIMS
from bounds.pcfedavg.proofs import DISPLAYS, P48
from bounds.steps import NOT_REFUTED, PRINTED, PROVEN, REFUTED, check, confirm

SMALL = {"examples": 25, "polish": 25}
#: each display as printed (a step of an erratum's corrected side is listed apart: CORRECTED)
BY_LABEL = {s.label: s for s in PS.STEPS if all(o == PRINTED for _, o in s.variant)}
CORRECTED = {s.label: s for s in PS.STEPS if any(o != PRINTED for _, o in s.variant)}
P, NR, R = PROVEN, NOT_REFUTED, REFUTED
#: status of every step at the CI budget check(step, 25, 25)
EXPECTED = {
    # Lemma 4.3
    "(L4.3-a)": NR, "(L4.3-b)": NR, "(3)": NR, "(L4.3-c)": P, "(L4.3-d)": P,
    # Lemma 4.4
    "(L4.4-a)": P, "(L4.4-b)": NR,
    # Lemma 4.5
    "(4)": NR, "(L4.5-a)": R, "(L4.5-b)": NR, "(5)": NR, "(6)": NR, "(L4.5-c)": P, "(L4.5-d)": R, "(L4.5-e)": P,
    "(L4.5-f)": NR,
    # Lemma 4.6
    "(L4.6-b)": P, "(L4.6-c)": P, "(L4.6-d)": P,
    # Proposition 4.7
    "(7)": P, "(P4.7-a)": R, "(P4.7-c)": NR,
    # Proposition 4.8
    "(P4.8-a)": P, "(P4.8-b)": P, "(P4.8-c)": R, "(8)": P, "(9)": NR, "(P4.8-d)": P, "(P4.8-e)": NR, "(10)": P,
    "(11)": R, "(P4.8-g)": NR, "(12)": NR, "display after (12)": R, "(P4.8-h)": R,
    # Theorem 3.4
    "(T3.4-a)": P,
    # Lemma 4.2 (appendix)
    "display 1": NR,
}


def _sym(step, name: str) -> sp.Symbol:
    return {str(s): s for s in step.space}[name]


@functools.lru_cache(maxsize=None)
def _checked(label: str):
    return check(BY_LABEL[label], **SMALL)


# ---------------------------------------------------------------------------- the steps against the inventory
def test_every_display_is_a_step_once_and_none_is_left_out():
    displays = [(d.proof, d.label) for d in DISPLAYS]
    keys = [(s.proof, s.label) for s in PS.STEPS if all(o == PRINTED for _, o in s.variant)]
    assert len(keys) == len(set(keys)) == len(BY_LABEL) == len(PS.STEPS) - len(CORRECTED)   # labels unique
    assert {(s.proof, s.label) for s in CORRECTED.values()} <= set(keys)   # a correction is of an encoded display
    assert set(keys) <= set(displays)
    assert set(PS.NOT_ENCODED) <= set(displays) and not set(keys) & set(PS.NOT_ENCODED)
    assert set(keys) | set(PS.NOT_ENCODED) == set(displays)
    assert (len(displays), len(keys), len(PS.NOT_ENCODED)) == (37, 37, 0)


def test_every_step_names_claims_of_the_paper_cites_and_says_how_it_became_scalars():
    ids = {c.id for c in CLAIMS}
    assert set(PS.CLAIM.values()) | {c for cs in PS.ALSO.values() for c in cs} <= ids
    for s in PS.STEPS:
        assert set(s.claims) <= {PS.CLAIM[s.proof]} | set(PS.ALSO.get(s.proof, ())) and set(s.claims) <= ids, s.label
        assert s.reading and s.cites, s.label


def test_prop_4_8s_displays_bear_on_the_parts_whose_route_they_are():
    """(P4.8-a), (P4.8-b) lead to all four parts; from (P4.8-c) on the route keeps the penalty term that (i) drops."""
    assert set(BY_LABEL["(P4.8-b)"].claims) == {"pcfedavg.prop4.8.i", "pcfedavg.eq12", "pcfedavg.prop4.8.ii",
                                                "pcfedavg.prop4.8.iii"}
    assert "pcfedavg.prop4.8.i" not in BY_LABEL["(P4.8-c)"].claims + BY_LABEL["(12)"].claims
    assert BY_LABEL["display after (12)"].claims == ("pcfedavg.prop4.8.ii",)


def test_lemma_4_5s_range_is_encoded_as_printed_and_corrected_and_the_next_display_uses_it():
    printed, corrected = BY_LABEL["(P4.7-a)"], CORRECTED["(P4.7-a)"]
    assert printed.variant == ((PS.RANGE, "as printed"),) and corrected.variant == ((PS.RANGE, "corrected"),)
    assert "D_0" in {str(x) for x in printed.space} and "D_0" not in {str(x) for x in corrected.space}
    assert check(corrected, **SMALL).status != REFUTED
    assert BY_LABEL["(P4.7-c)"].uses == ("(P4.7-a)",)


def test_steps_are_in_the_papers_order_and_every_symbol_has_a_box_inside_its_assumptions():
    order = [(d.proof, d.label) for d in DISPLAYS]
    positions = [order.index((s.proof, s.label)) for s in PS.STEPS]
    assert positions == sorted(positions)
    for s in PS.STEPS:
        for sym, (lo, hi) in s.space.items():
            assert lo <= hi
            if sym.is_nonnegative:
                assert lo >= 0, (s.label, sym)
            if sym.is_integer:
                assert float(lo).is_integer() and float(hi).is_integer(), (s.label, sym)


# ---------------------------------------------------------------------------- statuses at the CI budget
def test_expected_covers_every_step():
    assert set(EXPECTED) == set(BY_LABEL)


@pytest.mark.parametrize("label", list(EXPECTED))
def test_status_at_the_ci_budget(label):
    result = _checked(label)
    assert result.status == EXPECTED[label], (label, result.worst, result.point)
    if result.status == REFUTED:                       # a refutation is an exactly confirmed instance
        assert confirm(BY_LABEL[label], result.point) is not None


# ---------------------------------------------------------------------------- the refuted steps, by hand
def _hand_l45a(pt):
    """(L4.5-a), first link: sum_i E||g_i - c||^2 == sum_i ||c||^2 + sum_i E||g_i||^2 - 2<m c, c> (m = 2)."""
    c, ys, vs = (pt["c_1"], pt["c_2"]), [(pt["y_a_1"], pt["y_a_2"]), (pt["y_b_1"], pt["y_b_2"])], [pt["v_a"], pt["v_b"]]
    sq = lambda u: u[0] ** 2 + u[1] ** 2                                       # noqa: E731
    left = sum(sq((y[0] - c[0], y[1] - c[1])) + v for y, v in zip(ys, vs))
    right = 2 * sq(c) + sum(sq(y) + v for y, v in zip(ys, vs)) - 2 * 2 * sq(c)
    return left, "==", right


def _hand_l45d(pt):
    """(L4.5-d): (6)'s right side (4P + 4N + 4C + 4V - s_0, C = 2 L gap - s_C, V = L^2 drift - s_V) against the
    printed 4 L^2 drift + 8 L gap + 4N + 4M."""
    L = pt["L_G"]
    C, V = 2 * L * pt["gap"] - pt["s_C"], L * L * pt["drift"] - pt["s_V"]
    left = 4 * pt["P"] + 4 * pt["N"] + 4 * C + 4 * V - pt["s_0"]
    return left, "<=", 4 * L * L * pt["drift"] + 8 * L * pt["gap"] + 4 * pt["N"] + 4 * pt["M"]


def _hand_p47a(pt):
    """(P4.7-a): rounds 0 and 1, Lemma 4.5 (r >= 1) bounding round 1 only."""
    L, c = pt["L_G"], pt["gamma"] ** 2 * (pt["H"] - 1) ** 2
    Mn = pt["M"] + pt["nu"] ** 2 / pt["m"]
    D1 = 5 * c * pt["ell_1"] * Mn + 10 * c * L * pt["G_1"] - pt["s_1"]
    left = F(3, 2) * L * (pt["D_0"] + D1) - (pt["G_0"] + pt["G_1"])
    right = (15 * c * L * L - 1) * (pt["G_0"] + pt["G_1"]) + F(15, 2) * L * c * (pt["ell_0"] + pt["ell_1"]) * Mn
    return left, "<=", right


def _hand_p48c(pt):
    """(P4.8-c) with m = 2: printed rho/m sum dbar_i^2 against E, whose cal-H is (1/(2m)) sum dbar_i^2."""
    r = pt["rho"]
    left = pt["f_xb"] + r / 2 * (pt["e_a"] + pt["e_b"]) - (pt["f_xs"] + r / 2 * (pt["z_a"] + pt["z_b"]))
    E = pt["f_xb"] + r / 4 * (pt["e_a"] + pt["e_b"]) - (pt["f_xs"] + r / 4 * (pt["z_a"] + pt["z_b"])) + pt["s_a"]
    return left, "<=", E


def _fact2(pt):
    """Fact 2 at a two-atom law of (dbar_1, dbar_2): sum_i E[dbar_i] <= sqrt(sum_i E[dbar_i^2]), squared (both
    sides are >= 0): returns ((sum_i E dbar_i)^2, sum_i E dbar_i^2)."""
    p = pt["p"]
    s = p * (pt["d_a1"] + pt["d_a2"]) + (1 - p) * (pt["d_b1"] + pt["d_b2"])
    P_ = p * (pt["d_a1"] ** 2 + pt["d_a2"] ** 2) + (1 - p) * (pt["d_b1"] ** 2 + pt["d_b2"] ** 2)
    return s * s, "<=", P_


def _hand_ii(pt):
    """The display after (12): (12)'s right side squared is at least its first term squared, (m gn/rho)^2 (every term
    is >= 0), which exceeds the printed right side (no square roots in it: exact)."""
    m, gn, r, g, nu, Mv, Q, K, H = (pt[k] for k in ("m", "gn", "rho", "gamma", "nu", "M", "Q", "K", "H"))
    Lp, c, Mn = pt["L_f"] + pt["sigma"] * (m - 1), g * g * (H - 1) ** 2, Mv + nu * nu / m
    printed = (5 * m * gn * gn / r**2 + 60 * m * Q / (K * g * r) + 450 * Lp * c * Mn / r + 450 * m * c * Mn
               + 180 * g * nu * nu / r)
    return (m * gn / r) ** 2, "<=", printed


#: the instances the search finds at the CI budget (shrunk), every symbol given, and the printed relation that fails
#: there, computed by hand with fractions (binary floats read exactly)
HAND = {
    # the equality needs sum_i E g_i = m grad G_rho(x_t): y = ((1, 1), (-1, 1)), c = (1, 0), v = (1, 1): 8 != 4
    "(L4.5-a)": ({"c_1": 1, "c_2": 0, "v_a": 1, "v_b": 1, "y_a_1": 1, "y_a_2": 1, "y_b_1": -1, "y_b_2": 1},
                 _hand_l45a, (30.0, 26.0)),
    # (1/m) sum_i ||grad G_i(x*_rho)||^2 = P = 2 > M = 1/2: 12 > 11
    "(L4.5-d)": ({"L_G": 0.5, "M": 0.5, "N": 1, "P": 2, "drift": 1, "gap": 1, "s_0": 1, "s_C": 1, "s_V": 0},
                 _hand_l45d, (12.0, 11.0)),
    # round 0 (not covered by Lemma 4.5 as stated) carries drift 2, nothing else: 3/2 > 0
    "(P4.7-a)": ({"D_0": 2, "G_0": 0, "G_1": 0, "H": 3, "L_G": 0.5, "M": 0, "ell_0": 1, "ell_1": 1, "gamma": 0.001,
                  "m": 2, "nu": 0, "s_1": 0}, _hand_p47a, (1.5, 0.0)),
    # E[dbar_a^2] = 2, rho = 1/2: printed (rho/m) 2 = 1/2 > E = rho cal-H = (rho/(2m)) 2 = 1/4
    "(P4.8-c)": ({"e_a": 2, "e_b": 0, "f_xb": 1, "f_xs": 1, "rho": 0.5, "s_a": 0, "z_a": 0, "z_b": 0},
                 _hand_p48c, (0.5, 0.25)),
    # fact 2: (dbar_1, dbar_2) = (1, 0) or (1, 1/2) with probability 1/2: (sum_i E dbar_i)^2 = 25/16 > 9/8
    "(11)": ({"d_a1": 1, "d_a2": 0, "d_b1": 1, "d_b2": 0.5, "gn": 0.5, "p": 0.5, "rho": 0.5, "s_a": 1}, _fact2, None),
    # fact 2: dbar_1 = dbar_2 = 1 surely: (sum_i E dbar_i)^2 = 4 > sum_i E dbar_i^2 = 2
    "(P4.8-h)": ({"d_a1": 1, "d_a2": 1, "d_b1": 0.5, "d_b2": 0.5, "gn": 0.5, "p": 1, "s_a": 1}, _fact2, None),
    # m = 50 agents: (m gn/rho)^2 = 2500 alone exceeds the printed 5 m gn^2/rho^2 + ... ~ 250.4
    "display after (12)": ({"H": 2, "K": 1, "L_f": 0.5, "M": 1, "Q": 0, "gamma": 0.001, "gn": 0.5, "m": 50, "nu": 1,
                            "rho": 0.5, "sigma": 0.5}, _hand_ii, None),
}


def test_the_refuted_steps_are_the_expected_ones():
    assert set(HAND) == {label for label, status in EXPECTED.items() if status == REFUTED}


@pytest.mark.parametrize("label", list(HAND))
def test_a_refuted_step_fails_at_its_instance_by_hand(label):
    step = BY_LABEL[label]
    point, hand, sides = HAND[label]
    assert set(point) == {str(s) for s in step.space}
    exact = {k: F(v) for k, v in point.items()}                    # the binary floats as exact fractions
    left, relation, right = hand(exact)
    assert isinstance(left, F) and isinstance(right, F)
    assert (left != right) if relation == "==" else (left > right), (left, right)
    found = confirm(step, point)
    assert found is not None
    if sides is not None:
        assert found == pytest.approx(sides)


def test_fact2_fails_at_the_simplest_law_and_the_steps_through_it_fail_there():
    """dbar_1 = dbar_2 = 1 surely (m = 2): sum_i E[dbar_i] = 2 > sqrt(sum_i E[dbar_i^2]) = sqrt(2)."""
    pt = {"d_a1": 1, "d_a2": 1, "d_b1": 1, "d_b2": 1, "p": 1, "gn": 1, "rho": 1, "s_a": 0}
    assert _fact2({k: F(v) for k, v in pt.items()})[::2] == (4, 2)      # (sum_i E dbar_i)^2 = 4 > 2
    for label in ("(11)", "(P4.8-h)"):
        step = BY_LABEL[label]
        assert confirm(step, {k: v for k, v in pt.items() if k in {str(s) for s in step.space}}) is not None


# ---------------------------------------------------------------------------- each refutation is the error it names
def _corrected():
    """Each refuted step with the named error corrected (and nothing else changed)."""
    out = {}
    s = BY_LABEL["(L4.5-a)"]                                       # centre c = mean of E g_i (what the equality needs)
    y = {k: _sym(s, k) for k in ("y_a_1", "y_a_2", "y_b_1", "y_b_2")}
    centre = {_sym(s, "c_1"): (y["y_a_1"] + y["y_b_1"]) / 2, _sym(s, "c_2"): (y["y_a_2"] + y["y_b_2"]) / 2}
    out["(L4.5-a)"] = dataclasses.replace(s, lhs=s.lhs.subs(centre), rhs=s.rhs.subs(centre),
                                          space={k: v for k, v in s.space.items() if k not in centre})
    s = BY_LABEL["(L4.5-d)"]                                       # P <= M in force
    out["(L4.5-d)"] = dataclasses.replace(s, hypotheses=(sp.Le(_sym(s, "P"), _sym(s, "M")),))
    s = BY_LABEL["(P4.7-a)"]                                       # Lemma 4.5 bounds round 0 too (at its bound)
    c2 = PS.gam**2 * (PS.H - 1)**2
    d0 = 5 * c2 * _sym(s, "ell_0") * (PS.M + PS.nu**2 / PS.m) + 10 * c2 * PS.LG * _sym(s, "G_0")
    out["(P4.7-a)"] = dataclasses.replace(s, lhs=s.lhs.subs(_sym(s, "D_0"), d0),
                                          space={k: v for k, v in s.space.items() if str(k) != "D_0"})
    s = BY_LABEL["(P4.8-c)"]                                       # rho/(2m) in place of the printed rho/m
    out["(P4.8-c)"] = dataclasses.replace(s, lhs=PS.fb + PS.rho / 4 * (PS.ea + PS.eb) - (PS.fs + PS.rho / 4 * (PS.za
                                                                                                  + PS.zb)))
    P_, _, E_bar = PS._two_atom_d()                                # Jensen E[dbar] <= sqrt(sum_i E dbar_i^2), no facts
    out["(11)"] = PS._chain_step(P48, "(11)", (PS.rho / 2 * P_ - PS.gn * sp.sqrt(P_), "<=",
                                               PS.rho / 2 * P_ - PS.gn * E_bar, "<=",
                                               -PS.gn * E_bar + PS.rho / 2 * P_ + PS.s48), (), ("Jensen",), "corrected")
    out["(P4.8-h)"] = PS._chain_step(P48, "(P4.8-h)", (-PS.gn * sp.sqrt(P_), "<=", -PS.gn * E_bar, "<=",
                                                       -PS.gn * E_bar + PS.s48), (), ("Jensen",), "corrected")
    s = BY_LABEL["display after (12)"]                             # 5 m^2 ||grad f(x*)||^2/rho^2, the route's term
    out["display after (12)"] = dataclasses.replace(s, rhs=s.rhs + 5 * (PS.m**2 - PS.m) * PS.gn**2 / PS.rho**2)
    return out


@pytest.mark.parametrize("label", list(HAND))
def test_the_refutation_is_the_named_error(label):
    corrected = _corrected()[label]
    assert (corrected.lhs, corrected.rhs, corrected.hypotheses) != (BY_LABEL[label].lhs, BY_LABEL[label].rhs,
                                                                     BY_LABEL[label].hypotheses)
    result = check(corrected, **SMALL)
    assert result.status != REFUTED, (label, result.point)


# ---------------------------------------------------------------------------- constant-error detector
MUTANTS = {   # label -> the step with one printed constant halved or doubled
    "(L4.3-c)": lambda s: {"rhs": s.rhs / 2},                                          # 6 L_G -> 3 L_G
    "(L4.3-d)": lambda s: {"rhs": s.rhs / 2},                                          # 6 L_G -> 3 L_G
    "(L4.5-e)": lambda s: {"rhs": s.rhs - 2 * PS.M},                                   # 4 M -> 2 M
    "(L4.6-b)": lambda s: {"rhs": s.rhs - PS.gam**2 / 2 * PS._sq(PS._mean(PS.ga, PS.gb))},  # gamma^2 -> gamma^2/2
    "(L4.6-d)": lambda s: {"rhs": s.rhs - 3 * PS.gam**2 * PS.nu**2 / (2 * PS.m)},     # 3 gamma^2 nu^2/m halved
    "(7)": lambda s: {"rhs": s.rhs - 9 * PS.gam**2 * PS.nu**2 / (2 * PS.m)},          # 3 K gamma^2 nu^2/m halved
    "(8)": lambda s: {"lhs": s.lhs + PS.rho / 2 * (PS.ea + PS.eb)},                    # rho/m -> 2 rho/m
    "(T3.4-a)": lambda s: {"rhs": s.rhs - 9 * PS.gam * PS.nu**2 / (2 * PS.m)},        # 9 gamma nu^2/m halved
}


@pytest.mark.parametrize("label", list(MUTANTS))
def test_a_halved_or_doubled_constant_is_refuted(label):
    step = BY_LABEL[label]
    assert EXPECTED[label] in (PROVEN, NOT_REFUTED)
    mutant = dataclasses.replace(step, **MUTANTS[label](step))
    assert (mutant.lhs, mutant.rhs) != (step.lhs, step.rhs)
    result = check(mutant, examples=60, polish=60)
    assert result.status == REFUTED, (label, result.worst)
    assert confirm(mutant, result.point) is not None
    assert math.isfinite(result.worst) and result.worst > 0
