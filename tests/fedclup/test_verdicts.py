"""FedCLUP's verdicts (``repro.papers.fedclup.audit.verdicts``): one per claim, rolled up from what the suite computes.

These tests assert what the suite finds and reports, never that the paper is right: every claim gets exactly one
verdict; on real runs (the cheapest quick runs of every audit experiment) a claim with a failed run check is "violated" and one with a gap "not
proven"; on tiny fake results, flipping one check to failed makes the claim "violated" (and the claims whose proofs
rest on it "not proven").
"""
from types import SimpleNamespace

import numpy as np
import pytest

from bounds.fedclup import claims as B
from bounds.fedclup import findings as BF
from bounds.audit import DISCREPANCY, Finding
from repro.papers.fedclup import audit as A
from repro.papers.fedclup import evidence as EV
from repro.verdicts import UNDECIDABLE_MODES
from repro.verdicts import Bearing, Verdict, counts

CLAIM_IDS = [c.id for c in B.CLAIMS]
IDS = CLAIM_IDS + [s.id for s in A.STATEMENTS]          # every claim, then every figure/table statement


def _run(experiment, rows, hash_="h", part=None):
    """A fake result: ``rows`` of (claim, passed, inconclusive, hypotheses_met, observed/bound)."""
    cols = list(zip(*rows))
    arrays = {"claim_id": np.array(cols[0]), "passed": np.array(cols[1]), "inconclusive": np.array(cols[2]),
              "hypotheses_met": np.array(cols[3]), "ratio": np.array(cols[4], float),
              "n_checked": np.full(len(rows), 10)}
    return SimpleNamespace(arrays=arrays, hash=hash_, spec=SimpleNamespace(
        experiment=experiment, config={"part": part} if part else {}))


def _by_claim(verdicts):
    return {v.claim: v for v in verdicts}


def _fake(lemma5_passed=True, thm2_unmet_failure=False):
    ok = [("fedclup.lemma5", True, False, True, 0.5), ("fedclup.thm2", True, False, True, 0.7),
          ("fedclup.cor2.explicit", True, False, True, 0.1), ("fedclup.eq12", True, False, True, np.nan)]
    flipped = [("fedclup.lemma5", lemma5_passed, False, True, 1.3), ("fedclup.thm2", True, False, True, 0.6),
               ("fedclup.eq13", True, True, True, 1.0 + 1e-13)]            # eq13: only inside the tolerance
    if thm2_unmet_failure:
        flipped.append(("fedclup.thm2", False, False, False, 2.0))        # (14-D) fails there: no claim
    return {"fedclup.theorem2": [_run("fedclup.theorem2", ok, "good"), _run("fedclup.theorem2", flipped, "bad")]}


def test_every_claim_gets_exactly_one_verdict():
    for results in ({}, _fake()):
        verdicts = A.verdicts(results)
        assert [v.claim for v in verdicts] == IDS
        assert all(isinstance(v.verdict, Verdict) and v.reason for v in verdicts)
    got = _by_claim(A.verdicts({}))
    assert got["fedclup.lemma2"].verdict is Verdict.NOT_RUN            # no run, no finding: no evidence
    for cid in ("fedclup.lemma3", "fedclup.eq12", "fedclup.lemma5"):   # checked on runs only: nothing to roll up
        assert got[cid].verdict in (Verdict.NOT_RUN, Verdict.NOT_CHECKABLE), got[cid]
    # the dependencies name encoded claims, and the mode-based evidence only claims in an undecidable mode
    assert set(A.DEPENDS_ON) | {d for ds in A.DEPENDS_ON.values() for d in ds} <= set(CLAIM_IDS)
    for e in A.evidence({}):
        if e.source == "mode":
            assert e.bearing is Bearing.NOT_CHECKABLE and B.claim(e.claim).mode in UNDECIDABLE_MODES


def test_flipping_one_check_to_failed_makes_the_claim_violated():
    before = _by_claim(A.verdicts(_fake()))
    assert before["fedclup.lemma5"].verdict is Verdict.HOLDS and "2 checks, none violated" in before["fedclup.lemma5"].reason
    assert before["fedclup.thm2"].verdict is Verdict.HOLDS
    after = _by_claim(A.verdicts(_fake(lemma5_passed=False)))
    v = after["fedclup.lemma5"]
    assert v.verdict is Verdict.VIOLATED
    assert "1 of 2 checks violated" in v.reason and "python -m repro run fedclup.theorem2; result bad" in v.reason
    # Theorem 2's proof uses Lemma 5, Corollary 2's uses Theorem 2: their own checks pass, their proofs do not
    assert after["fedclup.thm2"].verdict is Verdict.NOT_PROVEN and "fedclup.lemma5 (violated)" in after["fedclup.thm2"].reason
    assert after["fedclup.cor2.explicit"].verdict is Verdict.NOT_PROVEN
    assert after["fedclup.eq12"].verdict is Verdict.HOLDS                # untouched claims keep their verdict
    # a check inside the tolerance supports nothing; a failure where the hypotheses fail is no evidence
    assert after["fedclup.eq13"].verdict is Verdict.NOT_CHECKABLE
    unmet = _by_claim(A.verdicts(_fake(thm2_unmet_failure=True)))
    assert unmet["fedclup.thm2"].verdict is Verdict.HOLDS and "2 checks, none violated" in unmet["fedclup.thm2"].reason


def test_a_refuted_proof_step_is_a_gap_and_an_unknown_step_or_finding_kind_raises(monkeypatch):
    rows = BF.derived_checks()
    broken = [dict(r, status="refuted") if r["item"].startswith("(iii) ") else r for r in rows]
    monkeypatch.setattr(BF, "derived_checks", lambda: broken)
    got = _by_claim(A.verdicts(_fake()))
    assert got["fedclup.thm1.8b"].verdict is Verdict.NOT_PROVEN and "step does not follow" in got["fedclup.thm1.8b"].reason
    assert "rests on fedclup.thm1.8b (not proven)" in got["fedclup.thm1.explicit"].reason   # its proof uses (8b)
    monkeypatch.setattr(BF, "derived_checks", lambda: rows + [dict(rows[0], item="(viii) a new step")])
    with pytest.raises(ValueError, match="names no claim"):
        A.verdicts({})
    monkeypatch.setattr(BF, "derived_checks", lambda: rows)
    odd = Finding("fedclup.test.odd", "vibes", ("fedclup.thm1",), DISCREPANCY, "s", "e")
    monkeypatch.setattr(A, "symbolic_findings", lambda: (odd,))
    with pytest.raises(ValueError, match="no bearing rule"):
        A.verdicts({})


def test_symbolic_findings_are_built_once_and_settings_are_no_evidence():
    assert A.symbolic_findings() is A.symbolic_findings()
    settings = [f for f in A.symbolic_findings() if f.kind == "experiment-settings"]
    assert settings and {e.source for e in A.evidence({})}.isdisjoint({f.id for f in settings})


def test_verdicts_of_real_runs_include_what_the_suite_finds(tiny_results):
    """On real runs: the cheapest quick runs of every audit experiment (tests/conftest.py), computed here."""
    results = tiny_results(A.AUDIT_EXPERIMENTS)
    verdicts = A.verdicts(results)
    assert [v.claim for v in verdicts] == IDS
    got = _by_claim(verdicts)
    tallies = EV._run_checks(EV._theory_runs(results))
    for cid, t in tallies.items():              # a failed run check (hypotheses met) is a violation, with its replay
        failed = sum(e["failed"] for e in t["experiments"].values())
        assert (got[cid].verdict is Verdict.VIOLATED) == (failed > 0), (cid, got[cid].reason)
        if failed:
            assert "python -m repro run fedclup." in got[cid].reason
    for v in verdicts:
        rows = {r.verdict for r in v.readings}
        bearings = {e.bearing for e in v.evidence}
        if rows == {Verdict.VIOLATED}:                # violated under every reading, and only then
            assert v.verdict is Verdict.VIOLATED
        elif Verdict.VIOLATED in rows:                # under some reading only: never "violated", never "holds"
            assert v.verdict not in (Verdict.VIOLATED, Verdict.HOLDS), v.claim
        elif Bearing.GAP in bearings and rows == {Verdict.NOT_PROVEN}:   # a proof gap under every reading
            assert v.verdict is Verdict.NOT_PROVEN
        elif Bearing.GAP in bearings:                 # a gap under some reading: "holds" only once corrected
            assert v.verdict is not Verdict.HOLDS, v.claim
        elif v.verdict is Verdict.HOLDS:               # support, and nothing it rests on is broken
            assert Bearing.SUPPORTS in bearings
            assert all(got[d].verdict not in (Verdict.VIOLATED, Verdict.NOT_PROVEN) for d in v.depends_on)
    for f in A.symbolic_findings():                   # a gap finding makes each claim it names not proven
        if f.verdict == DISCREPANCY and f.kind in ("statement-vs-proof", "hypotheses", "mode", "stated-rate"):
            assert all(got[c].verdict in (Verdict.NOT_PROVEN, Verdict.VIOLATED) for c in f.claims), f.id
    # the section shows the same verdict per claim and no other
    text = A.audit_section(results, "quick", verdicts)
    rows = {line.split(" | ")[0][2:]: line for line in text.splitlines() if line.startswith("| fedclup.")}
    for v in verdicts:
        others = {x.value for x in Verdict} - {v.verdict.value}
        cells = rows[v.claim].strip("| ").split(" | ")
        assert v.verdict.value in cells and not others & set(cells), rows[v.claim]
    print("fedclup verdicts (quick):", counts(verdicts))
