"""SSCA: every finding is the result of a computation, and each statement about the figures is decided by its
statistic. These tests change a computation's input and assert what the suite computes, never that the paper is right."""

import numpy as np
import pytest
import sympy as sp

from bounds.ssca import claims as B
from bounds.ssca import findings as F
from bounds.core import Mode
from repro.papers.ssca import audit as A
from repro.papers.ssca import statements as ST
from repro.registry import paper
from repro.verdicts import Bearing, Verdict
from tests.ssca.test_verdicts import _Run, _Spec


def _ids():
    return {f.id: f for f in F.audit_findings()}


def test_on_the_paper_inputs_the_suite_finds_the_discrepancies():
    found = _ids()
    for key in ("ssca.section_vi.step_sizes", "ssca.surrogate_weight", "ssca.a_bar_sign", "ssca.thm4.problem_reference",
                "ssca.section_v.assumption_2_4", "ssca.section_v.compactness", "ssca.section_v.penalty_sequence"):
        assert found[key].verdict == "discrepancy", key
    assert found["ssca.theorems.asymptotic"].verdict == "not checkable"
    assert A.findings({}) == list(A._symbolic_findings())


def test_step_sizes_satisfying_6_give_a_consistent_finding_with_words_that_say_so():
    ok = F.step_size_finding(((0.4, 0.4, 0.5), (0.6, 0.9, 0.6)))      # 2 (alpha + 0.05) > 1: (6) holds
    assert ok.verdict == "consistent" and "satisfy (6) for all 2 triples" in ok.summary
    assert "violate" not in ok.summary and "do not cover" not in ok.summary
    bad = F.step_size_finding()
    assert bad.verdict == "discrepancy" and "violate (6) for 3 of 3 triples" in bad.summary


def test_the_surrogate_weight_gap_vanishes_when_the_recursion_starts_with_rho_1_equal_1():
    assert F.surrogate_weight_finding(rho1=1) is None
    assert F.surrogate_weight_finding(rho1=sp.Rational(2, 5)).verdict == "discrepancy"


def test_the_a_bar_sign_finding_vanishes_with_the_sign_of_surrogate_11():
    assert F.a_bar_sign_finding(-1) is None
    assert "2*ce" in F.a_bar_sign_finding(1).evidence


def test_the_problem_reference_is_parsed_from_the_quoted_words_and_the_encoded_claim(monkeypatch):
    assert (F.THM4_CONSTRAINT_PROBLEM, F.ALGORITHM4_PROBLEM) == (3, 8)
    assert F.problem_reference_finding(8, 8) is None
    monkeypatch.setattr(F, "THM4_CONSTRAINT_PROBLEM", F._problem_number(
        F.THM4_WORDS.replace("Problem 3", "Problem 8"), "constraint set of Problem"))
    assert "ssca.thm4.problem_reference" not in _ids()


def test_penalty_sequence_and_bounded_surrogate_findings_follow_their_inputs(monkeypatch):
    assert F.penalty_sequence_finding((1e3, 1e4, 1e5)) is None
    assert F.penalty_sequence_finding((1e5,)).verdict == "discrepancy"
    w = sp.Symbol("w", real=True)
    assert F.assumption_2_4_finding(sp.atan(w)) is None                 # a bounded proximal term: no finding


def test_a_perturbed_printed_formula_turns_a_derivation_into_a_discrepancy():
    assert F.lemma1_finding(root_printed=B.ROOT_42 + 1).verdict == "discrepancy"
    assert F.thm5_finding(2 / B.xi).verdict == "discrepancy"
    again = F.lemma1_finding(root_printed=B.ROOT_42 + 1)
    assert [g.verdict for g in again.gate()] == ["discrepancy"]


def test_the_asymptotic_finding_is_computed_from_the_claims_modes():
    assert F.asymptotic_mode_finding([c for c in B.CLAIMS if c.mode is not Mode.ALMOST_SURE_LIMIT]) is None
    got = F.asymptotic_mode_finding()
    assert set(got.claims) == {c.id for c in B.CLAIMS if c.mode is Mode.ALMOST_SURE_LIMIT}


# ---------------------------------------------------------------------------- statements on synthetic runs
def _curve(seed: int, cost: float, method="ssca", batch=10, **config) -> _Run:
    t = np.array(ST.HORIZONS)
    arrays = {"checkpoints": t, "train_cost": np.full(t.size, cost), "test_accuracy": np.full(t.size, 1 - cost)}
    if method == "sgd":
        arrays |= {"grid": np.array([[0.3, 0.3], [1.0, 0.3], [3.0, 0.5]]), "lr": np.array([1.0, 0.4])}
    return _Run(_Spec({"method": method, "formulation": "27", "batch": batch, "mode": "sample", **config}, seed),
                arrays, f"h{method}{batch}s{seed}")


def _sgd_bearing(gaps, sgd_lr=(1.0, 0.4)):
    runs = []
    for seed, gap in enumerate(gaps):
        runs += [_curve(seed, 0.3), _curve(seed, 0.3 + gap, "sgd", local_steps=1)]
        runs[-1].arrays["lr"] = np.array(sgd_lr)
    ev = ST._faster("s", "ssca.figure2", "x", [r for r in runs if r.spec.config["method"] == "ssca"],
                    [r for r in runs if r.spec.config["method"] == "sgd"], "train_cost", ST.HORIZONS[0])
    return ev[0].bearing


def test_a_faster_than_statement_is_decided_by_an_interval_over_seeds():
    assert _sgd_bearing([0.05, 0.06, 0.055]) is Bearing.SUPPORTS
    assert _sgd_bearing([-0.05, -0.06, -0.055]) is Bearing.VIOLATES
    assert _sgd_bearing([0.05, -0.06, 0.01]) is Bearing.INCONCLUSIVE
    assert _sgd_bearing([0.05]) is Bearing.INCONCLUSIVE                              # one seed: no interval
    assert _sgd_bearing([0.05, 0.06, 0.055], sgd_lr=(3.0, 0.4)) is Bearing.INCONCLUSIVE  # rate on the grid's edge


def test_strict_feasibility_is_checked_on_every_constrained_run():
    def runs(cost):
        return {"ssca.figure2": [_Run(_Spec({"method": "ssca", "formulation": "37", "U": 0.13}), {
            "train_cost": np.array([0.5, cost])}, "hfeas")]}
    by = {v.claim: v for v in A.verdicts(runs(0.12))}
    assert by["ssca.conclusion.strictly_feasible"].verdict is Verdict.HOLDS
    by = {v.claim: v for v in A.verdicts(runs(0.2))}
    assert by["ssca.conclusion.strictly_feasible"].verdict is Verdict.VIOLATED
    assert "result hfeas" in by["ssca.conclusion.strictly_feasible"].reason
    assert ST._feasibility_evidence(runs(0.13 * (1 + ST.FEASIBILITY_TOL / 2)))[0].bearing is Bearing.INCONCLUSIVE


def test_every_statement_gets_one_verdict_and_a_location():
    got = A.verdicts({})
    assert [v.claim for v in got] == [c.id for c in B.CLAIMS] + list(ST.STATEMENT_IDS)
    where = paper("ssca").locations()
    assert all(where[s] for s in ST.STATEMENT_IDS)
    assert all(v.verdict is Verdict.NOT_RUN for v in got
               if v.claim in ST.STATEMENT_IDS and v.claim not in ST.SECTION_V_IDS)
    # Section V's claim that its problems meet Assumptions 1-2 (and compactness) is decided by symbolic findings alone
    assert all(v.verdict is Verdict.VIOLATED for v in got if v.claim in ST.SECTION_V_IDS)
    # ... which lower no general result: Lemmas 2, 5, 6 are almost-sure limits, neither proven nor refuted here
    assert {v.verdict for v in got if v.claim in ("ssca.lemma2", "ssca.lemma5", "ssca.lemma6")} == {
        Verdict.NOT_CHECKABLE}


def test_assumption_1_fails_for_the_network_and_the_curvature_is_right():
    """The finding's second derivative c (c - 2) / 4 (one sample, K = J = 1, L = 2, at W1 = 0, W2 = (c, -c)) against a
    central second difference of the same loss, log(1 + exp(-2 c S(w))), computed here in float64."""
    found = _ids()["ssca.section_v.assumption_1"]
    assert found.kind == "application" and found.verdict == "discrepancy" and "lim_(c -> oo) = oo" in found.evidence
    second = F._curvature_evidence()["second"]
    c_ = next(iter(second.free_symbols))
    for c in (3.0, 50.0, 400.0):
        def loss(w):
            return np.log1p(np.exp(-2 * c * w / (1 + np.exp(-w))))
        h = 1e-4
        numeric = (loss(h) - 2 * loss(0.0) + loss(-h)) / h**2
        assert numeric == pytest.approx(float(second.subs(c_, c)), rel=1e-4)
