"""PC-FedAvg proof-step rows that used to be typed by hand: each is now a computation, and a perturbed input flips
its status (so the check can fail); rows with status "not checked" count as neither support nor gap."""
import numpy as np
import pytest
import sympy as sp

from bounds.pcfedavg import claims as B
from bounds.pcfedavg import findings as BF, step_rows_lemma43_to_prop47 as LS, step_rows_prop48_thm34 as PS
from bounds.pcfedavg import prop48_norm_facts as NF

ROWS = {"(L4.3-d)": LS.row_l43d_inner_product_vanishes, "(7)": LS.row_eq7_lemma46_summed,
        "(P4.8-a)": PS.row_p48a_x_star_rho_minimizes, "(P4.8-b)": PS.row_p48b_g_rho_is_f_plus_rho_cal_h,
        "(8)": PS.row_eq8_feasible_x_star, "(9)": PS.row_eq9_convexity_of_f,
        "(P4.8-d)": PS.row_p48d_add_subtract_projection, "(P4.8-e)": PS.row_p48e_first_order_optimality,
        "(10)": NF.row_eq10_sum_of_slacks, "(11)": NF.row_eq11_by_jensen, "(P4.8-h)": NF.row_p48h_by_jensen,
        "(T3.4-a)": PS.row_t34a_requirement_vs_derived_bound}


@pytest.mark.parametrize("label", list(ROWS))
def test_row_in_the_table_is_the_computation(label):
    table = {r["step"]: r for r in BF.proof_steps()}
    row = ROWS[label]()
    assert row["step"] == label and table[label] == row
    assert row["status"] in (BF.IDENTITY, BF.VALID)
    assert "True" in row["evidence"] or "0 violations" in row["evidence"] or ">= 0" in row["evidence"], row


PERTURBED = {
    "(L4.3-d)": lambda: LS.row_l43d_inner_product_vanishes(shift=1),             # x* not the minimizer
    "(7)": lambda: LS.row_eq7_lemma46_summed(
        lemma46_rhs=B.lemma46.conclusion[0].rhs.subs(sp.Rational(3, 2), 2)),   # wrong 3/2
    "(P4.8-a)": lambda: PS.row_p48a_x_star_rho_minimizes(minimizer=(10, 0)),     # not the minimizer of G_rho
    "(P4.8-b)": lambda: PS.row_p48b_g_rho_is_f_plus_rho_cal_h(penalty_weight=B.rho / 2),  # G with a wrong penalty factor
    "(8)": lambda: PS.row_eq8_feasible_x_star(coeff_8=B.rho / (2 * B.m)),        # (8) with another factor
    "(9)": lambda: PS.row_eq9_convexity_of_f(trials=60, sigma_scale=-1.0),      # concave regularizer
    "(P4.8-d)": lambda: PS.row_p48d_add_subtract_projection(added=sp.symbols("_Q0:3", real=True)),  # adds a different point
    "(P4.8-e)": lambda: PS.row_p48e_first_order_optimality(point=(1, 0)),       # feasible but not optimal
    "(10)": lambda: NF.row_eq10_sum_of_slacks(coeff_10=2 * B.rho / B.m),        # wrong factor in (10)
    "(11)": lambda: NF.row_eq11_by_jensen(coeff_11=2 * B.rho / B.m),            # wrong factor in (11)
    "(T3.4-a)": lambda: PS.row_t34a_requirement_vs_derived_bound(
        lhs=PS.T34A_PRINTED_LHS.subs(9 * B.gamma * B.nu**2 / B.m, 3 * B.gamma * B.nu**2 / B.m)),
}


@pytest.mark.parametrize("label", list(PERTURBED))
def test_a_perturbed_input_makes_the_row_not_implied(label):
    assert PERTURBED[label]()["status"] == BF.NOT_IMPLIED


def test_t34a_is_a_real_comparison():
    """(T3.4-a)'s transcription is not Prop. 4.8's expression object; a larger left side is still valid (asks more)."""
    assert PS.T34A_PRINTED_LHS is not B.BOUND_48I
    assert PS.row_t34a_requirement_vs_derived_bound(lhs=PS.T34A_PRINTED_LHS + B.Q)["status"] == BF.VALID


def test_convexity_search_finds_violations_only_when_nonconvex():
    assert PS._convexity_search(np.random.default_rng(1), 100)["violations"] == 0
    assert PS._convexity_search(np.random.default_rng(1), 100, sigma_scale=-1.0)["violations"] > 0


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
    gaps = [e for e in audit._step_evidence(steps) if e.claim == "pcfedavg.lemma4.5"]
    assert {e.source for e in gaps} == {"proof steps (L4.5-a)", "proof steps (L4.5-d)"}   # one per step: own causes
    for g in gaps:
        assert g.bearing is Bearing.GAP and "(L4.5-b)" not in g.summary.split("not checked")[0]
        assert "(2 of 9 steps of the proof)" in g.summary


# rows once built with a literal status (IDENTITY / VALID) and a fixed sentence; keyed by (claim, step) because
# several claims have a row labelled "statement"
ROWS_2 = {("pcfedavg.lemma4.4", "statement"): LS.row_lemma44_statement_averaged,
          ("pcfedavg.lemma4.6", "(L4.6-a)"): LS.row_l46a_average_of_updates,
          ("pcfedavg.lemma4.6", "statement"): LS.row_lemma46_statement_from_l46d,
          ("pcfedavg.prop4.8", "(P4.8-f)"): NF.row_p48f_cauchy_schwarz_jensen,
          ("pcfedavg.prop4.8", "fact 1: -sum_i E[dbar_i] <= -E[dbar]"): NF.row_fact1_l2_norm_below_l1,
          ("pcfedavg.prop4.8.iii", "(iii)"): NF.row_prop48_iii_from_p48h_and_eq12}

PERTURBED_2 = {
    ("pcfedavg.lemma4.4", "statement"): lambda: LS.row_lemma44_statement_averaged(coeff=1),   # (L4.4-b) with 1 for 2
    ("pcfedavg.lemma4.6", "(L4.6-a)"): lambda: LS.row_l46a_average_of_updates(
        steps=(2 * B.gamma,)),                                                   # one agent's step differs
    ("pcfedavg.lemma4.6", "statement"): lambda: LS.row_lemma46_statement_from_l46d(
        w_max=sp.Rational(1, 3)),                                                # weaker hypothesis
    ("pcfedavg.prop4.8", "(P4.8-f)"): lambda: NF.row_p48f_cauchy_schwarz_jensen(coeff=0.5),   # bound halved
    ("pcfedavg.prop4.8", "fact 1: -sum_i E[dbar_i] <= -E[dbar]"): lambda: NF.row_fact1_l2_norm_below_l1(
        lhs_scale=sp.Rational(1, 2)),
    ("pcfedavg.prop4.8.iii", "(iii)"): lambda: NF.row_prop48_iii_from_p48h_and_eq12(
        bracket=B.BRACKET_48III - B.TERMS_48III[0]),                             # term dropped
}


@pytest.mark.parametrize("key", list(ROWS_2), ids=lambda k: f"{k[0]}:{k[1]}")
def test_formerly_literal_row_in_the_table_is_the_computation(key):
    table = {(r["claim"], r["step"]): r for r in BF.proof_steps()}
    row = ROWS_2[key]()
    assert (row["claim"], row["step"]) == key and table[key] == row
    assert row["status"] in (BF.IDENTITY, BF.VALID)
    assert "True" in row["evidence"] or "0 violations" in row["evidence"], row


@pytest.mark.parametrize("key", list(PERTURBED_2), ids=lambda k: f"{k[0]}:{k[1]}")
def test_a_perturbed_input_makes_the_formerly_literal_row_not_implied(key):
    assert PERTURBED_2[key]()["status"] == BF.NOT_IMPLIED


def test_the_statement_of_lemma_4_6_flips_with_its_encoded_statement():
    stmt = B.lemma46.conclusion[0].rhs.subs(sp.Rational(3, 2), 2)      # a larger drift coefficient: still valid
    assert LS.row_lemma46_statement_from_l46d(statement_rhs=stmt)["status"] == BF.VALID
    stmt = B.lemma46.conclusion[0].rhs.subs(sp.Rational(3, 2), 1)      # a smaller one: not implied
    assert LS.row_lemma46_statement_from_l46d(statement_rhs=stmt)["status"] == BF.NOT_IMPLIED


def test_no_proof_step_row_has_a_literal_status_in_the_source():
    """No _step(...) call of any module of PC-FedAvg's mathematics passes a bare constant (IDENTITY, VALID,
    NOT_IMPLIED or a string) as its status; the pattern finds one planted."""
    import re
    from pathlib import Path

    import bounds.pcfedavg
    pattern = r"_step\([^,()]+,\s*\"[^\"]*\",\s*(IDENTITY|VALID|NOT_IMPLIED|\"[^\"]*\")\s*,"
    assert re.findall(pattern, 'table_step("pcfedavg.lemma4.6", "step a", VALID, "y")')
    sources = {p.name: p.read_text() for p in Path(bounds.pcfedavg.__file__).parent.glob("*.py")}
    assert sum("table_step(" in src for src in sources.values()) >= 3
    assert {name: re.findall(pattern, src) for name, src in sources.items() if re.findall(pattern, src)} == {}


INGREDIENT_ROWS = ("(L4.3-a)", "(L4.3-b)", "(3)", "(L4.3-c)", "(L4.4-b)", "(4)", "(L4.5-b)", "(5)", "(6)", "(L4.5-c)",
                   "(L4.5-e)", "(L4.6-c)")


def test_rows_decided_by_their_ingredient_certificates_follow_them(monkeypatch):
    """The rows whose evidence is a certificate of the step's ingredients (Lagrange identities, co-coercivity and
    descent-lemma certificates on quadratics, exact ||A||^2) take their status from those certificates: when the
    prover refutes them, each row is not implied; when it cannot decide, not checked."""
    from bounds.core import ProofResult

    BF.proof_steps()                # warm the cached re-derivations (they assert their own identities)
    for outcome, expected in ((False, BF.NOT_IMPLIED), (None, BF.NOT_CHECKED)):
        fake = lambda *a, **k: ProofResult(outcome, "patched", None)     # noqa: E731
        monkeypatch.setattr(LS, "prove_identity", fake)
        monkeypatch.setattr(LS, "prove_nonnegative", fake)
        for fn in (LS._cocoercivity_certificate, BF._proof_steps):
            fn.cache_clear()
        try:
            rows = {r["step"]: r for r in LS.steps_lemmas_4_3_and_4_4() + LS.steps_lemma_4_5()
                    + LS.steps_lemma_4_6_and_prop_4_7()}
        finally:
            for fn in (LS._cocoercivity_certificate, BF._proof_steps):
                fn.cache_clear()
        for label in INGREDIENT_ROWS:
            if label == "(3)" and outcome is None:
                continue            # (3) also rests on the exact ||A||^2 = 1/m, which the patch does not touch
            assert rows[label]["status"] == expected, (label, outcome, rows[label])
    monkeypatch.undo()
    LS._cocoercivity_certificate.cache_clear()
    BF._proof_steps.cache_clear()
    assert {r["step"]: r["status"] for r in BF.proof_steps() if r["step"] in INGREDIENT_ROWS} == dict.fromkeys(
        INGREDIENT_ROWS, BF.VALID)
