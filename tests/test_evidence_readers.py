"""The shared readers of search runs (repro.search_audit, records of repro.search.SearchRecord) and of exact
enumerations of deterministic claims (repro.exact_audit, repro.scripted.FailureCount):
what each outcome of the claim's own check means for a verdict, which numbers it cites, and the table's cells."""
from types import SimpleNamespace

import math

import numpy as np
import pytest

from repro import search_audit
from repro.search import Check, SearchRecord, SearchResult
from repro.verdicts import Bearing


def _run(rec: SearchRecord, digest: str = "abc") -> SimpleNamespace:
    arrays, meta = rec.to_run()
    return SimpleNamespace(hash=digest, arrays=arrays, meta={"metadata": meta}, spec=SimpleNamespace(
        config={"claim": rec.claim, "family": rec.family}))


def _record(ratio: float, checks=(), claim="p.lemma1", family="f", **kw) -> SearchRecord:
    result = SearchResult(family, ratio, {"E": 1, "T": 3, "seed": 4, "record": "full"}, 9, (0.5 * ratio, ratio))
    return SearchRecord(claim, family, result, tuple(checks), **kw)


def test_a_record_survives_the_run_round_trip_including_undefined_numbers():
    rec = _record(math.nan, [Check(1.0, math.inf, None, "held", "sides", "r")], halved_ratio=None,
                  detail={"x": [1, 2]})
    back = SearchRecord.from_run(_run(rec))
    assert back.checks == (Check(1.0, None, None, "held", "sides", "r"),) and back.detail == {"x": [1, 2]}
    assert math.isnan(back.result.ratio) and back.result.history[0] != back.result.history[0]
    assert back.halved_ratio is None and back.result.params == rec.result.params


def test_an_unknown_check_outcome_is_refused():
    with pytest.raises(ValueError, match="outcome"):
        Check(1.0, 2.0, 0.5, "passed")


@pytest.mark.parametrize("outcome, bearing", [("failed", Bearing.VIOLATES), ("within tolerance", Bearing.INCONCLUSIVE),
                                              ("held", Bearing.SUPPORTS)])
def test_each_check_outcome_is_one_bearing_citing_the_checks_own_sides(outcome, bearing):
    (ev,) = search_audit.evidence([_run(_record(7.0, [Check(2.6, 2.0, 1.3, outcome, "the sides")]))], "p.search")
    assert ev.bearing is bearing and ev.method == "adversarial" and ev.source == "p.search (f)"
    assert (ev.observed, ev.bound, ev.worst) == (2.6, 2.0, 1.3)       # the check's numbers, never the objective 7
    assert "the sides: observed 2.6 against bound 2" in ev.summary and "7" not in ev.summary.split(":", 1)[1]
    assert bool(ev.replay) is (bearing is Bearing.VIOLATES)
    if ev.replay:
        assert ev.replay == "python -m repro run p.search; result abc (E = 1, T = 3, seed = 4)"


def test_a_search_that_judged_no_instance_bears_on_nothing_and_says_so():
    rec = _record(math.nan)
    assert search_audit.evidence([_run(rec)], "p.search") == []
    (row,) = search_audit.rows(search_audit.records([_run(rec)]), "p.search")
    assert row[2] == "no instance judged" and row[3] == "-" and row[-2] == "not judged (no instance)"


def test_each_reading_is_its_own_evidence_carrying_the_reading_it_was_checked_on():
    checks = [Check(3.0, 2.0, 1.5, "failed", reading="printed"), Check(1.0, 2.0, 0.5, "held", reading="compact")]
    labels = {"printed": "line 8 as printed", "compact": "(CR)"}
    bad, good = search_audit.evidence([_run(_record(1.5, checks))], "p.search", axis="p.line8", labels=labels)
    assert bad.reading == (("p.line8", "line 8 as printed"),) and bad.bearing is Bearing.VIOLATES
    assert good.reading == (("p.line8", "(CR)"),) and good.bearing is Bearing.SUPPORTS
    assert bad.replay.endswith("; on line 8 as printed)") and "checked on (CR)" in good.summary
    (row,) = search_audit.rows(search_audit.records([_run(_record(1.5, checks))]), "p.search",
                               readings=("compact", "printed"), labels=labels)
    assert row[3].startswith("held: observed 1") and row[4].startswith("failed: observed 3")


def test_loose_and_halved_cells_follow_the_objective_and_the_halved_ratio():
    loose = _record(0.04, [Check(0.04, 1.0, 0.04, "held")], halved_ratio=0.08, halved_evaluations=9)
    tight = _record(0.7, [Check(0.7, 1.0, 0.7, "held")], halved_ratio=1.4, halved_evaluations=1)
    equal = _record(1e-9, [Check(1e-9, 1.0, 1e-9, "held")], halved_ratio=0.3, equality=True)
    rows = search_audit.rows(search_audit.records([_run(r) for r in (loose, tight, equal)],
                                                  order=lambda r: r.result.ratio), "p.search")
    cells = {row[2]: (row[6], row[7]) for row in rows}
    assert cells["0.04"] == ("25", "no: too loose to tell (halved ratio 0.08, 9 instances)")
    assert cells["0.7"] == ("-", "yes (halved ratio 1.4)")
    assert cells["1e-09"] == ("equality: does not apply", "no: halving not seen (halved ratio 0.3)")


def test_the_claim_summary_keeps_the_family_with_the_largest_check_ratio_per_claim():
    pairs = search_audit.records([_run(_record(0.9, [Check(0.2, 1.0, 0.2, "held")], family="a")),
                                  _run(_record(0.1, [Check(0.6, 1.0, 0.6, "held")], family="b")),
                                  _run(_record(0.5, [Check(0.3, 1.0, 0.3, "held")], claim="p.lemma2"))])
    rows = {row[0]: row for row in search_audit.claim_rows(pairs)}
    assert rows["`p.lemma1`"][1:3] == ["0.6", "b"] and rows["`p.lemma2`"][1:3] == ["0.3", "f"]
    assert all(len(row) == 4 for row in rows.values())                     # no reach column without PEP results
    reached = {row[0]: row[4] for row in search_audit.claim_rows(pairs, reach={"p.lemma1": {"f(x_T) - f*": 2.5},
                                                                            "p.lemma2": {"a": 1.0, "b": 3.0}})}
    assert reached == {"`p.lemma1`": "2.5", "`p.lemma2`": "1 (a); 3 (b)"}              # one number per quantity
    assert search_audit.claim_rows(pairs, reach={})[0][4] == "no PEP"


def test_an_objective_that_is_no_ratio_of_the_claim_is_not_shown():
    pairs = search_audit.records([_run(_record(4e8, [Check(5.38, 4.96, 1.08, "failed")]))])
    (row,) = search_audit.rows(pairs, "p.search", hidden_objective=("p.lemma1",))
    assert "4e+08" not in " ".join(map(str, row)) and row[3].startswith("failed: observed 5.38 against bound 4.96")


def test_the_history_is_the_only_array_a_search_run_writes():
    arrays, meta = _record(0.5, [Check(0.5, 1.0, 0.5, "held")]).to_run()
    assert set(arrays) == {"history"} and np.array_equal(arrays["history"], [0.25, 0.5])
    assert set(meta) == {"search"}


# ---------------------------------------------------------------------------- exact enumerations (repro.exact_audit)
def _exact_run(*counts):
    from repro.scripted import FailureCount
    return SimpleNamespace(hash="abc123", meta={"metadata": {"instance": {"T": 3}, "failure_counts": [
        FailureCount(claim, 2, patterns, failed, failing, observed, bound, halved).as_json()
        for claim, patterns, failed, failing, observed, bound, halved in counts]}})


@pytest.mark.parametrize("failed", [1, 3])        # one failing pattern of 64 is as much a violation as three
def test_a_positive_failure_probability_violates_a_deterministic_claim_and_replays_its_first_failing_pattern(failed):
    from repro import exact_audit
    run = _exact_run(("p.thm1", 64, failed, [[[1, 0]], [[0, 1]]][:failed], 5.0, 4.0, None),
                     ("p.thm6", 64, 0, [], 1.0, 4.0, 2))
    bad, good = exact_audit.evidence([run], "p.exact", fails="the conclusion fails", pattern_words="patterns")
    assert bad.bearing is Bearing.VIOLATES and bad.method == good.method == "exact probability"
    assert f"P(the conclusion fails) = {failed}/64 exactly over all 64 patterns (T = 3)" in bad.summary
    assert bad.replay == "python -m repro run p.exact; result abc123; patterns [[1, 0]] (T = 3)"
    assert (bad.observed, bad.bound, bad.worst) == (5.0, 4.0, 1.25) and bad.checks == 64
    assert good.bearing is Bearing.SUPPORTS and good.replay == "" and "halved 1/32" in good.summary
    rows = exact_audit.rows([run], "p.exact")
    assert [r[3] for r in rows] == [f"{failed}/64", "0"] and [r[4] for r in rows] == ["-", "1/32"]


def test_a_failure_count_keeps_the_sides_where_observed_minus_bound_is_largest_whatever_their_sign():
    from repro.scripted import FailureCount
    k = FailureCount("p.lemma4", keep=1)
    for i, (obs, bnd) in enumerate([(-0.5, -0.3), (-0.1, -0.2), (-0.9, -0.1), (float("nan"), 1.0)]):
        k.add([i], obs > bnd, obs, bnd, halved_fails=i == 0)
    assert (k.observed, k.bound) == (-0.1, -0.2) and k.failed == 1 and k.failing == [[1]]
    assert k.patterns == 4 and k.halved_failed == 1 and str(k.probability) == "1/4"


def test_a_claim_whose_check_has_no_ratio_is_summarised_by_its_sides():
    pairs = search_audit.records([_run(_record(0.9, [Check(-0.2, -0.3, None, "held")], family="a")),
                                  _run(_record(0.5, [Check(-0.5, -0.3, None, "held")], family="b"))])
    (row,) = search_audit.claim_rows(pairs)
    assert row[1:3] == ["no ratio: observed -0.2 against bound -0.3", "a"]
