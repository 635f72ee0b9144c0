"""The reading-aware roll-up (repro.verdicts.roll_up) and the errata engine (repro.errata): each verdict is decided
under every reading, one root cause is one erratum, and the kind follows from computed facts alone."""
import types
from dataclasses import replace

import pytest

from repro.errata import Choice, Erratum, Facts, Kind, decide_kind, paper_errata, readings
from repro.verdicts import Bearing, Evidence, Verdict, roll_up

LINE = Erratum("p.line3", "Algorithm 2, line 3", "x <- x - (eta/2) g", "line 3 halves the step that (CR) takes",
               correction="(CR)", other_place="(CR), Section 2", options=("line 3 as printed", "(CR)"))
TYPO = Erratum("p.d2", "Proof of Lemma 1, (2)", "L eta g^2 / 2", "eta is not squared", correction="L eta^2 g^2 / 2",
               options=("as printed", "corrected"))
STEP = Choice("p.eta", "Section 5", "we run gradient descent", "the step size is not given", ("0.1/L", "0.5/L"),
              "any step size in (0, 1/L] is admissible for Lemma 1")
MODULE = types.SimpleNamespace(ERRATA=(LINE, TYPO), CHOICES=(STEP,))
AXES = readings(MODULE)


def ev(claim, bearing, source="runs", reading=(), worst=None, cause="", checks=1, **kw):
    return Evidence(claim, source, bearing, f"{bearing.value}", checks, worst, reading=tuple(reading), cause=cause,
                    **kw)


def verdict_of(claims, evidence, depends=None):
    return {v.claim: v for v in roll_up(claims, evidence, depends, AXES)}


def test_a_claim_that_fails_only_as_printed_holds_once_the_erratum_is_corrected():
    got = verdict_of(["rate"], [ev("rate", Bearing.VIOLATES, reading=[("p.line3", "line 3 as printed")], worst=1.3),
                                ev("rate", Bearing.SUPPORTS, reading=[("p.line3", "(CR)")], worst=1.0)])["rate"]
    assert got.verdict is Verdict.HOLDS_ONCE_CORRECTED and got.cause == ("p.line3",)
    assert len(got.readings) == 2 and "as printed" in got.reason


def test_a_reading_without_the_violating_check_rescues_nothing():
    got = verdict_of(["rate"], [ev("rate", Bearing.VIOLATES, reading=[("p.line3", "line 3 as printed")]),
                                ev("rate", Bearing.SUPPORTS, "other", reading=[("p.line3", "(CR)")])])["rate"]
    assert got.verdict is Verdict.NOT_CHECKABLE


def test_violated_only_under_every_reading_and_depends_when_a_choice_decides():
    got = verdict_of(["a", "s", "t"], [
        ev("a", Bearing.VIOLATES), ev("a", Bearing.SUPPORTS, reading=[("p.d2", "corrected")]),
        ev("s", Bearing.SUPPORTS, reading=[("p.eta", "0.5/L")]), ev("s", Bearing.VIOLATES, reading=[("p.eta", "0.1/L")]),
        ev("t", Bearing.SUPPORTS, reading=[("p.eta", "0.5/L")]), ev("t", Bearing.INCONCLUSIVE, reading=[("p.eta", "0.1/L")])])
    assert got["a"].verdict is Verdict.VIOLATED and got["a"].reason.startswith("violated under every reading")
    assert got["s"].verdict is Verdict.DEPENDS and got["s"].cause == ("p.eta",)
    assert got["t"].verdict is Verdict.NOT_CHECKABLE          # holds for one value, undecided for the other


def test_a_gap_that_a_typo_correction_removes_and_dependencies_read_under_the_same_reading():
    lemma = [ev("lemma", Bearing.SUPPORTS, checks=3), ev("lemma", Bearing.GAP, "step (2)", [("p.d2", "as printed")]),
             ev("lemma", Bearing.SUPPORTS, "proof steps", [("p.d2", "corrected")])]
    got = verdict_of(["thm", "lemma"], lemma + [ev("thm", Bearing.SUPPORTS)], {"thm": ("lemma",)})
    assert got["lemma"].verdict is Verdict.HOLDS_ONCE_CORRECTED and got["lemma"].cause == ("p.d2",)
    assert got["thm"].verdict is Verdict.HOLDS_ONCE_CORRECTED and got["thm"].cause == ("p.d2",)
    assert "rests on lemma (not proven)" in next(r.reason for r in got["thm"].readings
                                                  if r.reading["p.d2"] == "as printed")


def test_unknown_readings_are_refused():
    with pytest.raises(ValueError, match="not declared"):
        roll_up(["a"], [ev("a", Bearing.SUPPORTS, reading=[("p.nothing", "x")])], None, AXES)
    with pytest.raises(ValueError, match="is not one of"):
        roll_up(["a"], [ev("a", Bearing.SUPPORTS, reading=[("p.d2", "maybe")])], None, AXES)
    with pytest.raises(ValueError, match="explained by two errata"):
        readings(types.SimpleNamespace(ERRATA=(replace(LINE, explains=("f",)), replace(TYPO, explains=("f",)))))


BASE = Facts(printed_fails=True, statement_fails=False, fails_everywhere=False, rescued=False, places_differ=False,
             chain_repaired=False)


@pytest.mark.parametrize("facts, kind", [
    (replace(BASE, statement_fails=True, fails_everywhere=True), Kind.FALSE_STATEMENT),
    (replace(BASE, statement_fails=True), Kind.FALSE_STATEMENT),            # fails as printed, no admissible rescue
    (BASE, Kind.GAP),
    (replace(BASE, rescued=True), Kind.GAP),                                 # implied, but the next display not from it
    (replace(BASE, chain_repaired=True), Kind.GAP),                          # the correction itself not checked
    (replace(BASE, rescued=True, chain_repaired=True), Kind.TYPO),
    (replace(BASE, places_differ=True, rescued=True, chain_repaired=True), Kind.INCONSISTENCY),
    (replace(BASE, places_differ=True, statement_fails=True, fails_everywhere=True), Kind.FALSE_STATEMENT),
    (replace(BASE, printed_fails=False), None),
    (replace(BASE, choice=True, choice_matters=True), Kind.UNSTATED_CHOICE),
    (replace(BASE, choice=True), None)])
def test_the_kind_follows_from_the_facts(facts, kind):
    assert decide_kind(facts) is kind


def test_one_root_cause_is_one_erratum_with_its_consequences():
    evidence = [ev("rate", Bearing.VIOLATES, reading=[("p.line3", "line 3 as printed")], worst=1.3, observed=1.3,
                   bound=1.0),
                ev("rate", Bearing.SUPPORTS, reading=[("p.line3", "(CR)")]),
                ev("bound", Bearing.VIOLATES, "search", worst=2.0, replay="python -m repro run p.search"),
                ev("cor", Bearing.SUPPORTS), ev("step", Bearing.GAP, "p.step.x"), ev("step", Bearing.SUPPORTS, checks=4)]
    verdicts = roll_up(["rate", "bound", "cor", "step"], evidence, {"cor": ("bound",)}, AXES)
    claims = {"bound": ("Theorem 2", "f <= g"), "rate": ("Theorem 1", "r")}
    got = {e.id: e for e in paper_errata(verdicts, [], MODULE, claims)}
    assert set(got) == {"p.line3", "bound", "p.step.x"}                      # the typo and the choice: nothing found
    assert got["bound"].kind is Kind.FALSE_STATEMENT and got["bound"].fails_as_printed == ("bound", "cor")
    assert got["bound"].replay == "python -m repro run p.search" and got["bound"].where == "Theorem 2"
    assert got["p.line3"].kind is Kind.INCONSISTENCY and got["p.line3"].holds_once_corrected == ("rate",)
    assert got["p.line3"].numbers == "observed 1.3 against bound 1"
    assert got["p.step.x"].kind is Kind.GAP and got["p.step.x"].fails_as_printed == ("step",)
    assert [e.kind for e in paper_errata(verdicts, [], MODULE, claims)] == [Kind.FALSE_STATEMENT, Kind.GAP,
                                                                              Kind.INCONSISTENCY]


def test_errata_are_counted_in_words():
    assert [Kind.GAP.counted(1), Kind.GAP.counted(9), Kind.INCONSISTENCY.counted(2),
            Kind.FALSE_STATEMENT.counted(4)] == ["1 gap", "9 gaps", "2 inconsistencies", "4 false statements"]
