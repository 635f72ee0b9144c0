"""PC-FedAvg proof-step rows that used to be typed by hand: each is now a computation, and a perturbed input flips
its status (so the check can fail); rows with status "not checked" count as neither support nor gap."""
import numpy as np
import pytest
import sympy as sp

from bounds import pcfedavg as B
from bounds import pcfedavg_findings as BF

ROWS = {"(L4.3-d)": BF.row_l43d, "(7)": BF.row_7, "(P4.8-a)": BF.row_p48a, "(P4.8-b)": BF.row_p48b, "(8)": BF.row_8,
        "(9)": BF.row_9, "(P4.8-d)": BF.row_p48d, "(P4.8-e)": BF.row_p48e, "(10)": BF.row_10, "(11)": BF.row_11,
        "(P4.8-h)": BF.row_p48h, "(T3.4-a)": BF.row_t34a}


@pytest.mark.parametrize("label", list(ROWS))
def test_row_in_the_table_is_the_computation(label):
    table = {r["step"]: r for r in BF.proof_steps()}
    row = ROWS[label]()
    assert row["step"] == label and table[label] == row
    assert row["status"] in (BF.IDENTITY, BF.VALID)
    assert "True" in row["evidence"] or "0 violations" in row["evidence"] or ">= 0" in row["evidence"], row


PERTURBED = {
    "(L4.3-d)": lambda: BF.row_l43d(shift=1),                                     # x* not the minimizer
    "(7)": lambda: BF.row_7(lemma46_rhs=B.lemma46.conclusion[0].rhs.subs(sp.Rational(3, 2), 2)),   # wrong 3/2
    "(P4.8-a)": lambda: BF.row_p48a(minimizer=(10, 0)),                            # not the minimizer of G_rho
    "(P4.8-b)": lambda: BF.row_p48b(penalty_weight=B.rho / 2),                     # G with a wrong penalty factor
    "(8)": lambda: BF.row_8(coeff_8=B.rho / (2 * B.m)),                            # (8) with another factor
    "(9)": lambda: BF.row_9(trials=60, sigma_scale=-1.0),                          # concave regularizer
    "(P4.8-d)": lambda: BF.row_p48d(added=sp.symbols("_Q0:3", real=True)),         # adds a different point
    "(P4.8-e)": lambda: BF.row_p48e(point=(1, 0)),                                 # feasible but not optimal
    "(10)": lambda: BF.row_10(coeff_10=2 * B.rho / B.m),                           # wrong factor in (10)
    "(11)": lambda: BF.row_11(coeff_11=2 * B.rho / B.m),                           # wrong factor in (11)
    "(T3.4-a)": lambda: BF.row_t34a(lhs=BF.T34A_LHS.subs(9 * B.gamma * B.nu**2 / B.m, 3 * B.gamma * B.nu**2 / B.m)),
}


@pytest.mark.parametrize("label", list(PERTURBED))
def test_a_perturbed_input_makes_the_row_not_implied(label):
    assert PERTURBED[label]()["status"] == BF.NOT_IMPLIED


def test_t34a_is_a_real_comparison():
    """(T3.4-a)'s transcription is not Prop. 4.8's expression object; a larger left side is still valid (asks more)."""
    assert BF.T34A_LHS is not B.BOUND_48I
    assert BF.row_t34a(lhs=BF.T34A_LHS + B.Q)["status"] == BF.VALID


def test_convexity_search_finds_violations_only_when_nonconvex():
    assert BF._convexity_search(np.random.default_rng(1), 100)["violations"] == 0
    assert BF._convexity_search(np.random.default_rng(1), 100, sigma_scale=-1.0)["violations"] > 0


def test_not_checked_rows_are_neither_support_nor_gap():
    from repro.papers.pcfedavg import audit
    from repro.verdicts import Bearing

    steps = [dict(r) for r in BF.proof_steps()]
    base = {e.claim: e for e in audit._step_evidence(steps)}
    assert base["pcfedavg.lemma4.3"].bearing is Bearing.SUPPORTS
    # one step of Lemma 4.3 not checked: no support any more, and no gap
    for r in steps:
        if r["step"] == "(L4.3-d)":
            r["status"] = BF.NOT_CHECKED
    ev = {e.claim: e for e in audit._step_evidence(steps)}
    assert ev["pcfedavg.lemma4.3"].bearing is Bearing.NOT_CHECKABLE
    assert "not checked: (L4.3-d)" in ev["pcfedavg.lemma4.3"].summary
    # a claim with a gap keeps it, and the not-checked row is not counted among the not-implied ones
    for r in steps:
        if r["claim"] == "pcfedavg.lemma4.5" and r["step"] == "(L4.5-b)":
            r["status"] = BF.NOT_CHECKED
    g = {e.claim: e for e in audit._step_evidence(steps)}["pcfedavg.lemma4.5"]
    assert g.bearing is Bearing.GAP and "(L4.5-b)" not in g.summary.split("not checked")[0]
    assert g.summary.startswith("2 of ")
