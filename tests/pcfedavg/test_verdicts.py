"""PC-FedAvg: one computed verdict per claim (``repro.papers.pcfedavg.audit.verdicts``).

These tests assert what the suite computes and how its evidence rolls up, never that the paper is right: every
claim gets exactly one verdict; on the cached quick results the verdicts include what the audit reports (a run or
instance that violates a claim makes it "violated", a proof gap "not proven"); flipping one check of tiny fake
results to failed turns the claim's verdict into "violated".
"""
from types import SimpleNamespace

import numpy as np
import pytest

from bounds.pcfedavg import claims as B
from repro.papers.pcfedavg import audit as A
from repro.verdicts import Bearing, Verdict

IDS = [c.id for c in B.CLAIMS]
ALL_IDS = IDS + [s.id for s in A.STATEMENTS]          # claims and Section 5's statements about Figures 1-4


# ---------------------------------------------------------------------------- tiny fake results
def _theory_run(hash_, claims, *, failed=(), inconclusive=(), unmet=(), path="compact"):
    n = len(claims)
    arrays = {"claim_id": np.array(claims),
              "passed": np.array([c not in failed for c in claims]),
              "inconclusive": np.array([c in inconclusive for c in claims]),
              "hypotheses_met": np.array([c not in unmet for c in claims]),
              "ratio": np.linspace(0.1, 0.5, n)}
    return SimpleNamespace(hash=hash_, arrays=arrays, spec=SimpleNamespace(config={"path": path}), meta={})


def _fake(failed=()):
    claims = ["pcfedavg.lemma4.3", "pcfedavg.lemma4.4", "pcfedavg.lemma4.2"]
    runs = [_theory_run(f"run{k}", claims, failed=failed if k == 1 else ()) for k in range(3)]
    return {"pcfedavg.theory": runs}


def _by_claim(verdicts):
    return {v.claim: v for v in verdicts}


def test_every_claim_gets_exactly_one_verdict():
    got = [v.claim for v in A.verdicts({})]
    assert sorted(got) == sorted(ALL_IDS) and len(got) == len(set(got))
    assert all(isinstance(v.verdict, Verdict) and v.reason for v in A.verdicts(_fake()))


def test_flipping_one_check_to_failed_makes_the_claim_violated():
    honest = _by_claim(A.verdicts(_fake()))
    assert honest["pcfedavg.lemma4.2"].verdict is Verdict.HOLDS            # checked on runs, nothing else against it
    broken = _by_claim(A.verdicts(_fake(failed=("pcfedavg.lemma4.2",))))
    v = broken["pcfedavg.lemma4.2"]
    assert v.verdict is Verdict.VIOLATED
    assert "1 of 3 checks violated" in v.reason and "python -m repro run pcfedavg.theory; result run1" in v.reason
    # Lemma 4.4's proof uses Lemma 4.2 (DEPENDS_ON): it held before and is now not proven, and says why
    assert honest["pcfedavg.lemma4.4"].verdict is Verdict.HOLDS
    assert broken["pcfedavg.lemma4.4"].verdict is Verdict.NOT_PROVEN
    assert "pcfedavg.lemma4.2 (violated)" in broken["pcfedavg.lemma4.4"].reason


def test_unmet_hypotheses_and_inconclusive_checks_support_nothing():
    claims = ["pcfedavg.lemma4.2"]
    only_unmet = {"pcfedavg.theory": [_theory_run("a", claims, failed=claims, unmet=claims)]}
    ev = [e for e in A.claim_evidence(only_unmet) if e.claim == "pcfedavg.lemma4.2"]
    assert not [e for e in ev if e.source == "pcfedavg.theory"]           # a failure outside the hypotheses
    only_inc = {"pcfedavg.theory": [_theory_run("b", claims, inconclusive=claims)]}
    ev = [e for e in A.claim_evidence(only_inc) if e.source == "pcfedavg.theory"]
    assert [e.bearing for e in ev] == [Bearing.INCONCLUSIVE]
    assert _by_claim(A.verdicts(only_inc))["pcfedavg.lemma4.2"].verdict is Verdict.NOT_CHECKABLE


def test_one_active_violation_and_search_failures_become_violations():
    one = SimpleNamespace(hash="oa", spec=SimpleNamespace(config={"search": "one_active", "m": 16, "K": 10}),
                          arrays={"ratio": np.array(1.3), "hypotheses_met": np.array(True),
                                  "infeas": np.array([0.13]), "bound": np.array(0.1)}, meta={})
    search = SimpleNamespace(hash="rs", spec=SimpleNamespace(config={"budget": 4}),
                             arrays={"n_failures": np.array(1)},
                             meta={"metadata": {"failures": [(2, "pcfedavg.lemma4.6", "dist_next <= ...")],
                                                "best": {"pcfedavg.lemma4.6": {"ratio": 1.2}}}})
    v = _by_claim(A.verdicts({"pcfedavg.adversarial": [one, search]}))
    assert v["pcfedavg.prop4.8.ii"].verdict is Verdict.VIOLATED and "result oa" in v["pcfedavg.prop4.8.ii"].reason
    assert "observed 0.13 against bound 0.1" in v["pcfedavg.prop4.8.ii"].reason     # the claim's own numbers
    assert v["pcfedavg.lemma4.6"].verdict is Verdict.VIOLATED and "(trial 2)" in v["pcfedavg.lemma4.6"].reason


def test_symbolic_evidence_alone():
    """Without any run: proof-step gaps give 'not proven', a symbolic identity 'holds', and the dependencies of
    DEPENDS_ON propagate."""
    v = _by_claim(A.verdicts({}))
    assert v["pcfedavg.lemma6.1.a"].verdict is Verdict.HOLDS                # finding pcfedavg.lemma6.1 (identity)
    assert v["pcfedavg.lemma4.5"].verdict is Verdict.NOT_PROVEN and "(L4.5-a)" in v["pcfedavg.lemma4.5"].reason
    assert v["pcfedavg.prop4.7"].verdict is Verdict.NOT_PROVEN
    assert "pcfedavg.lemma4.5 (not proven)" in v["pcfedavg.prop4.7"].reason


def test_depends_on_names_encoded_claims_and_agrees_with_derived_from():
    for claim, deps in A.DEPENDS_ON.items():
        assert claim in IDS and set(deps) <= set(IDS), claim
    for c in B.CLAIMS:
        if c.derived_from:
            assert set(c.derived_from.split(", ")) == set(A.DEPENDS_ON[c.id]), c.id


def test_undecidable_modes_are_not_checkable_without_a_symbolic_check(monkeypatch):
    monkeypatch.setattr(A, "symbolic_findings", lambda: ())
    monkeypatch.setattr(A, "_steps", lambda: ())
    v = _by_claim(A.verdicts({}))
    for c in B.CLAIMS:
        if c.mode in A.UNDECIDABLE_MODES:
            assert v[c.id].verdict is Verdict.NOT_CHECKABLE, c.id
        else:
            assert v[c.id].verdict is Verdict.NOT_RUN, c.id


# ---------------------------------------------------------------------------- real runs of every cheap experiment
@pytest.fixture(scope="module")
def quick(tiny_results):
    """Real results: the cheapest quick runs of every audit experiment (tests/conftest.py)."""
    results = tiny_results(A.AUDIT_EXPERIMENTS)
    return results, A.verdicts(results)


def test_quick_verdicts_include_what_the_audit_reports(quick):
    results, verdicts = quick
    v = _by_claim(verdicts)
    assert sorted(v) == sorted(ALL_IDS)
    # every statement whose experiment ran gets evidence from it (none is left "not run")
    for s in A.STATEMENTS:
        if results.get(s.experiment):
            assert v[s.id].verdict is not Verdict.NOT_RUN, s.id
    # every claim a run of the theory grid violates (hypotheses met) is violated
    for r in results["pcfedavg.theory"]:
        a = r.arrays
        for i in np.flatnonzero(~a["passed"].astype(bool) & a["hypotheses_met"].astype(bool)):
            assert v[str(a["claim_id"][i])].verdict is Verdict.VIOLATED
    # a one-active-constraint run above its bound with the hypotheses met violates Prop. 4.8 (ii), and says which
    over = [r for r in results["pcfedavg.adversarial"] if r.spec.config.get("search") == "one_active"
            and float(r.arrays["ratio"]) > 1 + A.ONE_ACTIVE_TOL and bool(r.arrays["hypotheses_met"])]
    if over:
        worst = max(over, key=lambda r: float(r.arrays["ratio"]))
        assert v["pcfedavg.prop4.8.ii"].verdict is Verdict.VIOLATED
        assert f"result {worst.hash}" in v["pcfedavg.prop4.8.ii"].reason
    # a claim with a gap (a proof step not implied, or a discrepancy finding of a gap kind) and no violation
    gaps = {e.claim for e in A.claim_evidence(results) if e.bearing is Bearing.GAP}
    for cid in gaps:
        assert v[cid].verdict in (Verdict.NOT_PROVEN, Verdict.VIOLATED), cid
        if v[cid].verdict is Verdict.NOT_PROVEN:
            assert any(e.source in v[cid].reason for e in v[cid].evidence if e.bearing is Bearing.GAP)
    steps_gap = {s["claim"] for s in A._steps() if s["status"] == "not implied" and s["claim"] in IDS}
    assert steps_gap <= gaps


def test_quick_section_shows_the_verdicts(quick):
    results, verdicts = quick
    text = A.audit_section(results, "quick", verdicts)
    table = text.split("### Claims on synthetic instances", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in table.splitlines()[2:]]
    assert len(rows) == len(IDS)
    for v, row in zip(verdicts, rows):
        assert row.startswith(f"| {v.claim} |") and f"| {v.verdict.value} |" in row
    assert "failed on 0, inconclusive" not in text and "symbolic only" not in text


def test_the_suite_finds_prop48ii_violated_on_the_one_active_instance_without_a_cache(tmp_path, monkeypatch):
    """Computed here (about 4 s), not read from a cache: the one-active instance with m = 16 agents and K = 20000
    iterations exceeds Prop. 4.8(ii)'s bound, and the verdict says violated with the command that replays it."""
    from repro import runner
    from repro.registry import get

    monkeypatch.setenv(runner.RESULTS_DIR_ENV, str(tmp_path))
    spec = next(s for s in get("pcfedavg.adversarial").specs("quick")
                if s.config.get("search") == "one_active" and s.config["m"] == 16 and s.config["K"] == 20000)
    result, = runner.run_all([spec], jobs=1, progress=False)
    assert float(result.arrays["ratio"]) > 1
    v = _by_claim(A.verdicts({"pcfedavg.adversarial": [result]}))["pcfedavg.prop4.8.ii"]
    assert v.verdict is Verdict.VIOLATED
    assert "python -m repro run pcfedavg.adversarial" in v.reason and result.hash in v.reason
