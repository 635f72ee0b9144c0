"""Mini-batch SSCA's encoded proof steps (bounds.ssca.steps): every step is a display of the inventory
(bounds.ssca.proofs) and every display is a step or listed as not encodable; each step's status at a small search
budget; halving a key constant of tight steps refutes them; the refuted steps fail at the hand-derived
counterexamples of the report; and where a printed display's missing square matters downstream."""
from __future__ import annotations

import dataclasses

import pytest

from bounds.ssca import steps as SS
from bounds.ssca.claims import CLAIMS
from bounds.ssca.proofs import DISPLAYS
from bounds.steps import NOT_REFUTED, PROVEN, REFUTED, check, confirm

#: every display as printed; the corrected side of an erratum ((52) with its square, (56) summed over the descents it
#: adds, (73a) with grad F_m) apart
BY_LABEL = {s.label: s for s in SS.STEPS if all(o == SS.PRINTED for _, o in s.variant)}
CORRECTED = {s.label: s for s in SS.STEPS if any(o != SS.PRINTED for _, o in s.variant)}
P, NR, R = PROVEN, NOT_REFUTED, REFUTED
#: status of every step at the small budget check(step, 25, 25)
EXPECTED = {
    # Lemma 3
    "(43)": NR, "(45)": NR, "(46)": NR, "(47)": R, "(48)": NR, "(49)": R, "(50)(a)": NR, "(50)(b)": NR,
    # Lemma 4
    "(51)": NR, "(52) step 1": R, "(52) step 2": P, "(53) step 1": NR, "(53) step 2": P, "(53) step 3": P,
    "(53) step 4": NR,
    # Theorems 1 and 3
    "(54)": P, "(55)": NR, "(56)": R, "(59) step 1": NR, "(59) step 2": NR, "(59) step 3": P, "(59) step 4": NR, "(59)(a)": NR,
    "(59)(b)": NR, "(59) step 7": NR, "(61) step 1": NR, "(61) step 2": NR, "(62) step 1": NR, "(62) step 2": NR,
    "(63) step 1": NR, "(63) step 2": NR, "(64)": NR, "(65) step 1": P, "(65) step 2": P, "(66)(a)": P, "(66)(b)": P, "(66)(c)": NR,
    "(67)": R,
    # Theorems 2 and 4
    "(73a)": R, "(73b)": NR, "(73c)": NR, "(73d)": P,
    # Lemma 1
    "display 1 (Lagrangian) step 1": P, "display 1 (Lagrangian) step 2": P, "display 2 (dual function)": NR,
    "display 6 (dual problem)": NR,
    "display 3 (argmin, = (40))": NR, "display 4 (argmin, = (41))": NR, "display 5 (optimal value h)": P,
    "display 8 (nu*, = (42))": NR,
    # Theorem 5
    "display after (75), (a)": P, "display after (75), (b)": P,
}
#: the corrected readings at the same budget: each erratum's correction stands, and so does the step that uses it
EXPECTED_CORRECTED = {"(52) step 1": NR, "(52) step 2": P, "(53) step 4": NR, "(56)": P, "after (56)": NR,
                      "(73a)": P, "after (73)": NR}


# ---------------------------------------------------------------------------- the steps against the inventory
def test_every_step_is_a_display_of_the_inventory_once_with_a_claim_of_the_paper():
    displays = {(d.proof, d.label) for d in DISPLAYS}
    keys = [(s.proof, s.label) for s in SS.STEPS if all(o == SS.PRINTED for _, o in s.variant)]
    corrected = [(s.proof, s.label) for s in CORRECTED.values()]
    assert set(keys) | set(corrected) <= displays
    assert len(keys) == len(set(keys)) == len(BY_LABEL)        # no display twice, labels unique across proofs
    assert len(SS.STEPS) == len(BY_LABEL) + len(CORRECTED)     # one corrected reading per display at most
    assert all(dict(s.variant).keys() <= {SS.E52, SS.E56, SS.E73} for s in SS.STEPS)
    assert {c for s in SS.STEPS for c in s.claims} <= {c.id for c in CLAIMS}
    assert all(s.reading and s.cites for s in SS.STEPS)


def test_every_display_is_encoded_or_listed_as_not_encodable_with_a_reason_and_never_both():
    displays = [(d.proof, d.label) for d in DISPLAYS]
    encoded = {(s.proof, s.label) for s in SS.STEPS}
    assert set(SS.NOT_ENCODED) <= set(displays)
    assert not encoded & set(SS.NOT_ENCODED)
    assert encoded | set(SS.NOT_ENCODED) == set(displays)
    assert all(isinstance(r, str) and len(r) > 20 for r in SS.NOT_ENCODED.values())
    assert (len(displays), len(encoded), len(SS.NOT_ENCODED)) == (72, 54, 18)


def test_steps_are_in_the_papers_order_and_every_symbol_has_a_box_inside_its_assumptions():
    order = [(d.proof, d.label) for d in DISPLAYS]
    positions = [order.index((s.proof, s.label)) for s in SS.STEPS]
    assert positions == sorted(positions)
    for s in SS.STEPS:
        for sym, (lo, hi) in s.space.items():
            assert lo <= hi
            if sym.is_nonnegative:
                assert lo >= 0, (s.label, sym)
            if sym.is_integer:
                assert float(lo).is_integer() and float(hi).is_integer()


# ---------------------------------------------------------------------------- statuses at a small budget
def test_expected_covers_every_step():
    assert set(EXPECTED) == set(BY_LABEL) and set(EXPECTED_CORRECTED) == set(CORRECTED)


@pytest.mark.parametrize("label", list(EXPECTED))
def test_status_at_a_small_budget(label):
    step = BY_LABEL[label]
    result = check(step, examples=25, polish=25)
    assert result.status == EXPECTED[label], (label, result.worst, result.point)
    if result.status == REFUTED:
        assert confirm(step, result.point) is not None


@pytest.mark.parametrize("label", list(EXPECTED_CORRECTED))
def test_status_of_the_corrected_reading_at_a_small_budget(label):
    result = check(CORRECTED[label], examples=25, polish=25)
    assert result.status == EXPECTED_CORRECTED[label], (label, result.worst, result.point)


# ---------------------------------------------------------------------------- constant-error detector
#: tight steps and their key constant halved (or a denominator doubled): each mutation must break the step
HALVED = {
    "(45)": lambda s: s.rhs / 2,                                          # L_tilde -> L_tilde/2
    "(50)(b)": lambda s: s.rhs / 2,                                       # 2 L_tilde/mu, 2/mu -> L_tilde/mu, 1/mu
    "(53) step 1": lambda s: s.rhs.subs(SS.Lhat, SS.Lhat / 2),            # L_hat/2 -> L_hat/4
    "(54)": lambda s: s.rhs.subs(SS.err, SS.err / 2),                     # err/chi -> err/(2 chi)
    "(59) step 7": lambda s: s.rhs.subs(SS.delta, SS.delta / 2),          # 2 delta -> delta
    "(55)": lambda s: (SS.mu + s.rhs) / 2,                                # floor mu_bar -> (mu + mu_bar)/2
    "(63) step 2": lambda s: 2 * s.rhs,                                   # witness delta/(2(2 + L_bar)) doubled
    "(64)": lambda s: s.rhs.subs(SS.err, SS.err / 2),                     # gamma delta err -> gamma delta err/2
    "display after (75), (a)": lambda s: (s.rhs + SS._sq(SS.wd)) / 2,     # 1/lambda -> 1/(2 lambda)
}


@pytest.mark.parametrize("label", list(HALVED))
def test_a_halved_constant_in_a_tight_step_is_refuted(label):
    mutated = dataclasses.replace(BY_LABEL[label], rhs=HALVED[label](BY_LABEL[label]))
    assert mutated.rhs != BY_LABEL[label].rhs
    result = check(mutated, examples=60, polish=60)
    assert result.status == REFUTED, (label, result.worst)
    assert confirm(mutated, result.point) is not None


def test_a_wrong_constant_in_the_closed_form_of_nu_star_is_refuted():
    """(42) with 4 tau (U - A) halved to 2 tau (U - A): no longer the maximiser of h on [0, c]."""
    step = BY_LABEL["display 8 (nu*, = (42))"]
    wrong = step.lhs.subs(4 * SS.tau * SS.UmA, 2 * SS.tau * SS.UmA)
    assert wrong != step.lhs
    assert check(dataclasses.replace(step, lhs=wrong), examples=60, polish=60).status == REFUTED


# ---------------------------------------------------------------------------- the refuted steps, by hand
#: the counterexamples of the report (every symbol of the step given; exact rationals via confirm)
HAND = {
    # F_bar = mu/2 ||. - w_bar||^2 with mu = 1 at distance 1/2: 1/8 >= 1/4 fails
    "(47)": ({"mu": 1, "sigma": 0, "x1": 0.5, "x2": 0, "wbA1": 0, "wbA2": 0}, (0.125, 0.25)),
    "(49)": ({"mu": 1, "sigma_B": 0, "wbA1": 0.5, "wbA2": 0, "wbB1": 0, "wbB2": 0}, (0.125, 0.25)),
    # F_bar = 1/2 ||. - w_bar||^2, w - w_bar = (1, 0): -1 <= -1 - 1/2 fails
    "(52) step 1": ({"mu": 1, "kappa": 0, "rho": 0, "beta": 0, "w1": 1, "w2": 0, "wb1": 0, "wb2": 0},
                    (-1.0, -1.5)),
    # t = t0 + 2, every descent at its bound: -1 <= -1.5 fails
    "(56)": ({"mu_bar": 1, "chi": 1, "gamma0": 0.5, "gamma1": 0.5, "gamma2": 0.5, "zeta0": 0, "zeta1": 0, "xi0": 0,
              "xi1": 0, "sigma0": 0, "sigma1": 0}, (-1.0, -1.5)),
    # grad F_bar(w^(t)) = w^(t) - w_bar = (1, 0), w = w_bar - (1, 0): -1 >= 0 fails
    "(67)": ({"mu": 1, "kappa": 0, "beta": 0, "wT1": 1, "wT2": 0, "wbT1": 0, "wbT2": 0, "x1": -1, "x2": 0},
             (-1.0, 0.0)),
    # lambda_1 = 1, grad F_1 = (1, 0): (72)'s stationarity gives grad F_0 = (-1, 0) and the printed vector is (-2, 0)
    "(73a)": ({"lambda1": 1, "lambda2": 0, "gFa1": 1, "gFa2": 0, "gFb1": 0, "gFb2": 0}, (2.0, 0.0)),
}


def test_the_refuted_steps_are_the_expected_ones():
    assert set(HAND) == {label for label, status in EXPECTED.items() if status == REFUTED}


@pytest.mark.parametrize("label", list(HAND))
def test_a_refuted_step_fails_at_the_hand_derived_counterexample(label):
    step = BY_LABEL[label]
    point, sides = HAND[label]
    assert set(point) == {str(s) for s in step.space}
    assert confirm(step, point) == pytest.approx(sides)


# ---------------------------------------------------------------------------- where the missing square matters
def test_50a_follows_from_the_printed_48_49_but_not_from_strong_convexity_alone():
    step = BY_LABEL["(50)(a)"]
    assert len(step.hypotheses) == 2                              # (48), (49) as printed
    assert check(dataclasses.replace(step, hypotheses=()), examples=60, polish=60).status == REFUTED
    # the pair mu/2 ||. - w_bar(ti)||^2 at distance 1/2 (mu = 1): ||.|| = 1/2 > (1/mu)(1/8 + 1/8)
    point = {"mu": 1, "sigma_A": 0, "sigma_B": 0, "F11": 0, "F22": 0, "wbA1": 0.5, "wbA2": 0, "wbB1": 0, "wbB2": 0}
    assert confirm(dataclasses.replace(step, hypotheses=()), point) == pytest.approx((0.5, 0.25))


def test_53_step4_needs_the_square_that_52_does_not_print():
    """With grad F_bar(w^(t)) free and only (52) as printed in force, (53) step 4 fails (||w_bar - w|| > 1)."""
    step = SS._chain_end(SS._vec("gX"), "grad F_bar(w^(t)) = gX free in R^2; hypothesis: (52) as printed only")
    # w - w_bar = (2, 0), grad F_bar = (1, 0) satisfies (52) as printed (-2 <= -2 mu with mu = 1), gF = grad F_bar,
    # gamma = 1, L_hat = 0.1: left side -2 + 0.2 = -1.8, right side -(1 - 0.05) 4 = -3.8
    point = {"gX1": 1, "gX2": 0, "gF1": 1, "gF2": 0, "mu": 1, "gamma": 1, "L_hat": 0.1, "w1": 2, "w2": 0,
             "wb1": 0, "wb2": 0}
    assert confirm(step, point) == pytest.approx((-1.8, -3.8))


def test_52_step1_fails_with_the_square_too_and_holds_with_mu_over_2():
    """Strong convexity gives grad F_bar^T (w_bar - w) <= -mu/2 D^2 + F_bar(w_bar) - F_bar(w); (52) step 1 prints
    -mu D, and -mu D^2 fails as well (the quadratic mu/2 ||. - w_bar||^2 at D = 1 is the hand counterexample)."""
    step = BY_LABEL["(52) step 1"]
    gap = step.rhs + SS.mu * SS._D                                   # F_bar(w_bar) - F_bar(w)
    squared = dataclasses.replace(step, rhs=-SS.mu * SS._D**2 + gap)
    assert check(squared, examples=25, polish=25).status == REFUTED
    assert check(dataclasses.replace(step, rhs=-SS.mu / 2 * SS._D**2 + gap), examples=60, polish=60).status != REFUTED


def test_the_sentence_after_73_needs_the_corrected_73a():
    """From the printed (73a) set to 0 (grad F_0 = 0), Problem 3's stationarity with (73)'s multipliers fails; a
    wrong corrected vector (grad F_0 for grad F_1) is refuted too."""
    assert check(SS.after_73(SS.PRINTED_73A), examples=25, polish=25).status == REFUTED
    wrong = SS._lin((1, SS.g0), (SS.lam1, SS.g0), (SS.lam2, SS.g2))
    assert check(SS.after_73(wrong), examples=25, polish=25).status == REFUTED
    assert check(SS.after_73(SS.CORRECTED_73A), examples=25, polish=25).status != REFUTED
