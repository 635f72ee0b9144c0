"""FedSGM's encoded proof steps (:mod:`bounds.fedsgm.steps`): each is one display of the inventory
(:data:`bounds.fedsgm.proofs.DISPLAYS`) and names a claim of :data:`bounds.fedsgm.claims.CLAIMS`; checked at a small budget,
each gives the status expected for it; the two refuted displays fail at the counterexamples re-derived by hand; and
halving a key constant of a tight step makes the check refute it (the suite's constant-error detector)."""
import dataclasses
import functools

import pytest
import sympy as sp

from bounds.fedsgm.claims import CLAIMS, D, E, G, a, eta
from bounds.fedsgm.proofs import DISPLAYS, P_L3, P_L4, P_L5, P_T6, P_T7, P_T8, P_T9
from bounds.fedsgm.steps import STEPS
from bounds.steps import NOT_REFUTED, PRINTED, PROVEN, REFUTED, check, confirm

SMALL = {"examples": 25, "polish": 25}
#: every display as printed; the corrected side of an erratum (Theorem 7's display 9) apart
BY_KEY = {(s.proof, s.label): s for s in STEPS if all(o == PRINTED for _, o in s.variant)}
CORRECTED = {(s.proof, s.label): s for s in STEPS if any(o != PRINTED for _, o in s.variant)}

# the status each step's check gives at the small budget, per proof and display label
EXPECTED = {
    P_L3: {"display 2": PROVEN, "display 3 line 1": PROVEN, "display 3 line 2": PROVEN,
           "display 4 line 1": NOT_REFUTED, "display 4 line 2": NOT_REFUTED, "display 4 line 3": PROVEN,
           "display 5 line 1": NOT_REFUTED, "display 5 line 2": NOT_REFUTED, "display 6": NOT_REFUTED},
    P_L4: {"display 1": PROVEN, "display 2": NOT_REFUTED, "display 3": PROVEN, "display 4": PROVEN,
           "display 5 line 1": NOT_REFUTED, "display 5 line 2": NOT_REFUTED, "display 6": NOT_REFUTED},
    P_L5: {"display 1 line 1": PROVEN, "display 1 line 2": PROVEN, "display 1 line 3": NOT_REFUTED,
           "display 1 line 4": NOT_REFUTED, "display 2": PROVEN},
    P_T6: {"(4)": PROVEN, "display 2": PROVEN, "display 3 line 1": PROVEN, "display 3 line 2": PROVEN, "(5)": PROVEN,
           "display 5 line 1": NOT_REFUTED, "display 5 line 2": PROVEN, "display 6": NOT_REFUTED,
           "display 7 line 1": NOT_REFUTED, "display 7 line 2": NOT_REFUTED, "display 8": NOT_REFUTED,
           "display 9": NOT_REFUTED, "display 10": PROVEN, "display 11": PROVEN, "display 12": PROVEN,
           "display 13": PROVEN, "(6)": PROVEN, "(7) line 2": PROVEN, "(7) line 3": PROVEN, "(7) line 4": PROVEN,
           "(8)": NOT_REFUTED},
    P_T7: {"display 1": PROVEN, "display 2 line 1": PROVEN, "display 2 line 2": PROVEN, "display 3": NOT_REFUTED,
           "display 4 line 1": PROVEN, "display 4 line 2": PROVEN, "display 4 line 3": PROVEN,
           "display 5 line 2": PROVEN, "display 5 line 3": NOT_REFUTED, "display 5 line 4": NOT_REFUTED,
           "display 6 line 2": PROVEN, "display 6 line 3": NOT_REFUTED, "display 6 line 4": NOT_REFUTED,
           "display 7 line 1": PROVEN, "display 7 line 2": NOT_REFUTED, "display 8": PROVEN, "display 9": REFUTED,
           "(10) line 1": PROVEN, "(10) line 2": NOT_REFUTED, "display 11 line 1": NOT_REFUTED,
           "display 11 line 2": PROVEN, "display 12": NOT_REFUTED},
    P_T8: {"(11)": PROVEN, "display 2 line 1": PROVEN, "display 2 line 2": PROVEN, "display 3 line 1": NOT_REFUTED,
           "display 3 line 2": NOT_REFUTED, "(12)": PROVEN, "display 5 line 1": NOT_REFUTED,
           "display 5 line 2": PROVEN, "display 6": NOT_REFUTED, "display 7 line 1": NOT_REFUTED,
           "display 7 line 2": NOT_REFUTED, "display 8": NOT_REFUTED, "display 9": NOT_REFUTED, "display 10": PROVEN,
           "display 11": PROVEN, "display 12": PROVEN, "display 13": PROVEN, "(13)": PROVEN, "(14) line 2": PROVEN,
           "(14) line 3": PROVEN, "(14) line 4": PROVEN, "(15)": NOT_REFUTED},
    P_T9: {"display 1 line 1": PROVEN, "display 1 line 2": PROVEN, "(17) line 1": PROVEN, "(17) line 2": PROVEN,
           "display 3 line 1": NOT_REFUTED, "display 3 line 2": NOT_REFUTED, "display 4 line 2": PROVEN,
           "display 4 line 3": PROVEN, "display 5 line 2": PROVEN, "display 5 line 3": NOT_REFUTED,
           "display 5 line 4": NOT_REFUTED, "display 6 line 2": PROVEN, "display 6 line 3": NOT_REFUTED,
           "display 6 line 4": NOT_REFUTED, "display 7 line 1": PROVEN, "display 7 line 2": NOT_REFUTED,
           "display 8": PROVEN, "display 9": PROVEN, "(18) line 1": PROVEN, "(18) line 2": NOT_REFUTED,
           "display 11 line 1": NOT_REFUTED, "display 11 line 2": PROVEN, "display 12": NOT_REFUTED},
}


def _id(key) -> str:
    return f"{key[0].split(' (')[0].removeprefix('Proof of ')}: {key[1]}"


@functools.lru_cache(maxsize=None)
def _checked(key):
    """The display ``key`` as printed, checked once per test process at the small budget (each test asks only for
    its own display, so the two test workers do not both check all 109)."""
    return check(BY_KEY[key], **SMALL)


# ---------------------------------------------------------------------------- well formed
def test_every_step_is_one_display_of_the_inventory_and_every_display_is_encoded():
    displays = {(d.proof, d.label) for d in DISPLAYS}
    keys = [(s.proof, s.label) for s in STEPS if not any(o != PRINTED for _, o in s.variant)]
    assert len(keys) == len(set(keys)), "two steps encode the same display"
    assert set(CORRECTED) == {(P_T7, "display 9"), (P_T7, "(10) line 1")}      # display 9's correction, and the next
    assert set(keys) <= displays, sorted(set(keys) - displays)
    assert set(keys) == displays, sorted(displays - set(keys))          # all 109 displays are encoded
    assert len(DISPLAYS) == 109


def test_every_step_names_a_claim_of_the_paper_and_says_how_it_became_scalars():
    ids = {c.id for c in CLAIMS}
    for s in STEPS:
        assert s.claim in ids, (s.proof, s.label, s.claim)
        assert s.reading and s.relation in ("<=", "==", ">="), (s.proof, s.label)


def test_every_free_symbol_has_a_box():
    for s in STEPS:
        used = set(s.lhs.free_symbols) | set(s.rhs.free_symbols)
        for h in s.hypotheses:
            used |= h.free_symbols
        assert used <= set(s.space), (s.proof, s.label, sorted(map(str, used - set(s.space))))
        assert all(lo <= hi for lo, hi in s.space.values())


def test_expected_lists_exactly_the_encoded_steps():
    assert {(p, label) for p, rows in EXPECTED.items() for label in rows} == set(BY_KEY)


# ---------------------------------------------------------------------------- statuses at the small budget
@pytest.mark.parametrize("key", list(BY_KEY), ids=_id)
def test_small_budget_status(key):
    result = _checked(key)
    assert result.status == EXPECTED[key[0]][key[1]], (result.method, result.worst, result.point)
    if result.status == REFUTED:                        # a refutation is an exactly confirmed instance
        assert confirm(BY_KEY[key], result.point) is not None


# ---------------------------------------------------------------------------- the refuted displays, by hand
def _restrict(step, point: dict) -> dict:
    return {k: v for k, v in point.items() if k in map(str, step.space)}


def _exact(step, point: dict) -> tuple:
    subs = {s: sp.nsimplify(point[str(s)]) for s in step.space}
    return sp.simplify(step.lhs.subs(subs)), sp.simplify(step.rhs.subs(subs))


def test_theorem_7_display_9_fails_where_theorem_9s_e_squared_holds_with_equality():
    """E = 2, q_u = 0, n = 1, eta = G = D = 1, T = 3, every round's display 8 tight (slacks 0), d_1 = d_2 = d_3 = 0:
    the rounds' gaps sum to (D^2 + 3K)/(2 eta E) = 41/4 with K = 4 + 4 + 16/3; display 9 as printed in Theorem 7's
    proof bounds them by 1/4 + 3 + 3 + eta E G^2 T/3 = 33/4; with E^2 (Theorem 9's proof) the bound is 41/4."""
    point = {"D": 1.0, "E": 2, "G": 1.0, "eta": 1.0, "n": 1, "q_u": 0.0, "dist1": 0.0, "dist2": 0.0, "dist3": 0.0,
             "s_0": 0.0, "s_1": 0.0, "s_2": 0.0}
    printed, squared = BY_KEY[(P_T7, "display 9")], BY_KEY[(P_T9, "display 9")]
    assert confirm(printed, _restrict(printed, point)) == (33 / 4, 41 / 4)
    assert confirm(squared, _restrict(squared, point)) is None
    assert _exact(squared, point) == (sp.Rational(41, 4), sp.Rational(41, 4))


def test_theorem_7_display_4_line_1_follows_once_term_b_carries_its_sign_as_the_proof_writes_it_later():
    """Read with display 2's underbrace (no minus sign): at w_t - w* = (1, 0), every nu_{j,0} = (1, 0), nu_{j,1} = 0,
    eta = 1, E_C[2 eta <w_t - w*, mean C_j(X_j)>] = 2 (unbiased compressors) where the display says -2; read as the
    signed term -2 eta <.,.> (display 4 line 3, Lemma 4), it is proven: the check reports the reading it used and
    the point that refutes the first."""
    step = BY_KEY[(P_T7, "display 4 line 1")]
    point = {str(s): 0.0 for s in step.space} | {"wt_1": 1.0, "nu10_1": 1.0, "nu20_1": 1.0, "eta": 1.0,
                                                 "p1": 0.5, "p2": 0.5, "d1_1": 1.0, "d2_2": -1.0}
    assert confirm(step, point) == (2.0, -2.0)
    result = _checked((P_T7, "display 4 line 1"))
    assert result.status == PROVEN and result.notation.startswith("Term-B is the signed term")
    assert result.refuted_as_encoded["point"]


def test_theorem_7_display_9_corrected_is_proven_and_the_next_display_follows_from_it():
    for key in ((P_T7, "display 9"), (P_T7, "(10) line 1")):
        assert check(CORRECTED[key], **SMALL).status == PROVEN, key
    assert CORRECTED[(P_T7, "(10) line 1")].uses == ("display 9",)


# ---------------------------------------------------------------------------- constant-error detector
HALF = sp.Rational(1, 2)
MUTANTS = {   # (proof, label) -> the bounding side with one key constant halved (display 9: its left side, ">=")
    (P_L3, "display 5 line 2"): lambda s: {"rhs": s.rhs * HALF},                                   # E^2 G^2
    (P_L4, "display 5 line 2"): lambda s: {"rhs": s.rhs - eta * a * G**2 * HALF},                  # eta a G^2
    (P_L5, "display 1 line 3"): lambda s: {"rhs": s.rhs * HALF},                                   # Jensen's tau
    (P_L5, "display 2"): lambda s: {"rhs": s.rhs * HALF},                                          # E^3 / 3
    (P_T6, "(5)"): lambda s: {"rhs": s.rhs - eta * a * E * G**2 * HALF},                           # eta a E G^2
    (P_T6, "display 12"): lambda s: {"rhs": s.rhs * HALF},                                         # sqrt(2 ...)
    (P_T7, "display 7 line 1"): lambda s: {"rhs": s.rhs - eta * a * G**2},                         # 2 eta a G^2
    (P_T8, "display 11"): lambda s: {"rhs": s.rhs - D**2 / (2 * eta * E * 3) * HALF},              # D^2/(2 eta E T)
    (P_T9, "display 8"): lambda s: {"rhs": s.rhs - sp.Rational(1, 3) * eta**2 * E**3 * G**2},      # 2/3 eta^2 E^3 G^2
    (P_T9, "display 9"): lambda s: {"lhs": s.lhs - HALF * eta * E**2 * G**2},                      # eta E^2 G^2 T/3
}


@pytest.mark.parametrize("key", list(MUTANTS), ids=_id)
def test_halving_a_key_constant_is_refuted(key):
    step = BY_KEY[key]
    assert _checked(key).status != REFUTED
    mutant = dataclasses.replace(step, **MUTANTS[key](step))
    assert check(mutant, **SMALL).status == REFUTED
