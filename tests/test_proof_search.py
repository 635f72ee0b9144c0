"""The generic proof-step machinery: bounds.steps (symbolic proof, falsification search, exact confirmation) and
repro.proof_search (a proof's run) and repro.proof_audit (the evidence, the findings and their replay, the report section)."""
from __future__ import annotations

import sys
import dataclasses
from types import SimpleNamespace

import pytest
import sympy as sp

from bounds.steps import NOT_REFUTED, PROVEN, REFUTED, Step, check, confirm
from repro import proof_audit, proof_search
from repro.errors import ConfigError
from repro.verdicts import Bearing

a, b = sp.symbols("a b", real=True)
eta = sp.Symbol("eta", positive=True)
E = sp.Symbol("E", integer=True, positive=True)
t = sp.Symbol("t", integer=True, nonnegative=True)
BOX = {a: (-10.0, 10.0), b: (-10.0, 10.0), eta: (1e-3, 1e3)}
YOUNG = Step("Proof of Lemma X", "display 1", "toy.lemma", 2 * a * b, "<=", a**2 / eta + eta * b**2, BOX,
             cites=("Young's inequality",), reading="a, b scalars")
SUM_SQUARES = Step("Proof of Lemma X", "display 2", "toy.lemma", sp.summation(t**2, (t, 0, E - 1)), "<=", E**3 / 3,
                   {E: (1, 100)})
STEPS = (YOUNG, SUM_SQUARES)


def test_a_true_step_sympy_can_prove_is_proven():
    assert check(SUM_SQUARES, examples=10, polish=0).status == PROVEN


def test_a_true_step_sympy_cannot_prove_is_searched_and_not_refuted_and_its_equality_case_is_approached():
    result = check(YOUNG, examples=60, polish=60)
    assert result.status == NOT_REFUTED and result.evaluations >= 60
    assert -1e-3 < result.worst <= 1e-9          # Young's inequality is attained at a = eta b


@pytest.mark.parametrize("step", [dataclasses.replace(YOUNG, rhs=YOUNG.rhs / 2),
                                  dataclasses.replace(SUM_SQUARES, rhs=SUM_SQUARES.rhs / 2),
                                  dataclasses.replace(YOUNG, lhs=2 * YOUNG.lhs)])
def test_a_constant_off_by_a_factor_of_two_is_refuted_with_an_exactly_confirmed_instance(step):
    result = check(step, examples=60, polish=60)
    assert result.status == REFUTED
    assert confirm(step, result.point) is not None
    lhs, rhs = result.sides
    assert lhs > rhs


def test_a_refuting_instance_is_shrunk_to_values_a_reader_can_check_by_hand():
    result = check(dataclasses.replace(YOUNG, rhs=YOUNG.rhs / 2), examples=60, polish=60)
    assert result.status == REFUTED
    assert all(len(f"{v!r}") <= 5 for v in result.point.values()), result.point     # e.g. 0.5, -1.0, 2.0
    a_, b_, eta_ = (result.point[k] for k in ("a", "b", "eta"))
    assert 2 * a_ * b_ > (a_**2 / eta_ + eta_ * b_**2) / 2                         # fails there, by hand


def test_hypotheses_in_force_restrict_the_search():
    step = Step("P", "l", "toy.lemma", a, "<=", b, {a: (-1.0, 1.0), b: (-1.0, 1.0)}, hypotheses=(sp.Le(a, b),))
    assert check(step, examples=40, polish=20).status == NOT_REFUTED
    assert check(dataclasses.replace(step, hypotheses=()), examples=40, polish=20).status == REFUTED


def test_confirm_refuses_a_point_where_a_hypothesis_fails_or_the_step_holds():
    step = Step("P", "l", "toy.lemma", a, "<=", b, {a: (-1.0, 1.0), b: (-1.0, 1.0)}, hypotheses=(sp.Ge(b, 0),))
    assert confirm(step, {"a": 0.5, "b": -0.25}) is None          # hypothesis b >= 0 fails
    assert confirm(step, {"a": 0.1, "b": 0.5}) is None            # holds
    assert confirm(step, {"a": 0.75, "b": 0.5}) == (0.75, 0.5)


def test_a_point_where_a_max_argument_is_not_real_is_no_instance_of_the_step():
    """Max(a, sqrt(b)) at b < 0: sympy cannot order a complex argument (the paper-profile search of the proof of
    Proposition 4.8 met one, ~1e-171 i); the point is outside the domain, not a crash and not a violation."""
    step = Step("P", "l", "toy.lemma", sp.Max(a, sp.sqrt(b)), "<=", sp.Integer(0), {a: (-1.0, 1.0), b: (-1.0, 1.0)})
    assert confirm(step, {"a": 0.5, "b": -0.5}) is None
    assert confirm(step, {"a": 0.5, "b": 0.25}) == (0.5, 0.0)
    guarded = dataclasses.replace(step, lhs=a, hypotheses=(sp.Le(sp.Max(a, sp.sqrt(b)), 1),))
    assert confirm(guarded, {"a": 0.5, "b": -0.5}) is None and confirm(guarded, {"a": 0.5, "b": 0.25}) == (0.5, 0.0)


def test_a_step_with_a_symbol_outside_the_box_or_an_unknown_relation_is_rejected():
    with pytest.raises(ValueError, match="without a search box"):
        Step("P", "l", "toy.lemma", a, "<=", b, {a: (0.0, 1.0)})
    with pytest.raises(ValueError, match="relation"):
        Step("P", "l", "toy.lemma", a, "<", b, {a: (0.0, 1.0), b: (0.0, 1.0)})


def _results(steps, proof="Proof of Lemma X"):
    config = proof_search.StepsConfig(proof=proof, examples=40, polish=40, profile="quick",
                                      hypothesis=proof_search.hypothesis_version())
    arrays, meta = proof_search.run(steps, config)
    assert arrays["status"].shape == (sum(s.proof == proof for s in steps),)
    return [SimpleNamespace(meta={"metadata": meta}, spec=SimpleNamespace(config=config.as_dict()))]


def test_steps_that_follow_give_support_and_no_finding():
    results = _results(STEPS)
    [ev] = proof_audit.evidence(proof_audit.rows(results), ["toy.lemma"])
    assert ev.bearing is Bearing.SUPPORTS and "1 proven symbolically, 1 not refuted" in ev.summary
    assert proof_audit.findings(results, STEPS) == []
    assert "Refuted steps" not in "\n".join(proof_audit.section(results))


def test_a_refuted_step_is_a_replayable_proof_step_finding_and_the_claim_loses_its_support():
    halved = (YOUNG, dataclasses.replace(SUM_SQUARES, rhs=SUM_SQUARES.rhs / 2))
    results = _results(halved)
    assert proof_audit.evidence(proof_audit.rows(results), ["toy.lemma"]) == []
    [finding] = proof_audit.findings(results, halved)
    assert finding.kind == "proof-step" and finding.claims == ("toy.lemma",)
    twin = dataclasses.replace(halved[1], also=("toy.theorem",))     # one printed proof of two results
    assert proof_audit.findings(_results((YOUNG, twin)), (YOUNG, twin))[0].claims == ("toy.lemma", "toy.theorem")
    assert finding.id == "toy.step.proof_of_lemma_x.display_2"
    assert f"python -m repro findings --id {finding.id}" in finding.evidence
    assert [f.id for f in finding.gate()] == [finding.id]        # the replay re-decides it at the instance
    assert "Refuted steps" in "\n".join(proof_audit.section(results))


def test_a_bad_budget_or_another_hypothesis_version_is_a_one_line_config_error():
    good = dict(proof="P", examples=10, polish=0, profile="quick", hypothesis=proof_search.hypothesis_version())
    for key, value in (("examples", 0), ("polish", -1), ("hypothesis", "0.0.1")):   # the profile: Experiment.specs
        with pytest.raises(ConfigError, match=key):
            proof_search.StepsConfig(**(good | {key: value}))


def test_a_search_does_not_depend_on_what_the_process_imported(tmp_path, monkeypatch):
    """hypothesis also draws constants it finds in loaded non-library modules; the step search hides them, so loading
    a module full of numbers between two checks of the same step changes nothing (the runner's workers import
    different modules depending on what they ran before)."""
    import importlib.util

    from bounds.pcfedavg.steps import STEPS
    step = next(s for s in STEPS if s.label == "display after (12)")
    before = check(step, 25, 25)
    path = tmp_path / "lots_of_constants.py"
    path.write_text("X = [" + ", ".join(f"{i / 97:.6f}" for i in range(300)) + "]\n"
                    "Y = [" + ", ".join(str(i * 7919) for i in range(300)) + "]\n")
    spec = importlib.util.spec_from_file_location("lots_of_constants", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "lots_of_constants", module)
    after = check(step, 25, 25)
    assert (after.status, after.worst, after.point) == (before.status, before.worst, before.point)
