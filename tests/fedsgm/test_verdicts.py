"""FedSGM's verdicts: one per claim, rolled up from the evidence the audit computes (never typed by hand).

These tests assert what the suite computes and reports, not that the paper is right: every claim gets exactly one
verdict; the verdicts of the cached quick results agree with the evidence the audit itself reports (a failed check
makes its claim violated, a gap finding makes it not proven, ...); and flipping one check of tiny fake results to
failed turns its claim's verdict into "violated".
"""
from types import SimpleNamespace

import numpy as np
import pytest

from bounds.fedsgm import claims as B
from bounds.audit import CONSISTENT, DISCREPANCY, Finding
from repro.papers.fedsgm import audit as A
from repro.papers.fedsgm import evidence as EV
from repro.papers.fedsgm import statements as ST
from repro.verdicts import Bearing, Verdict

CLAIM_IDS = [c.id for c in B.CLAIMS]
STATEMENT_IDS = [s.id for s in ST.STATEMENTS]


# ---------------------------------------------------------------------------- tiny fake results
def _theory_run(hash_, rows, *, q_u=0.0):
    """A fake ``fedsgm.theory`` result: ``rows`` of (claim, relation, passed, ratio[, hypotheses_met])."""
    rows = [r if len(r) == 5 else r + (True,) for r in rows]
    arrays = {"claim_id": np.array([r[0] for r in rows]), "relation": np.array([r[1] for r in rows]),
              "passed": np.array([r[2] for r in rows]), "ratio": np.array([r[3] for r in rows], dtype=float),
              "hypotheses_met": np.array([r[4] for r in rows]), "inconclusive": np.zeros(len(rows), dtype=bool),
              "observed": np.array([r[3] for r in rows], dtype=float), "bound": np.ones(len(rows)),
              "q_u": np.array(q_u)}
    spec = SimpleNamespace(config={"family": "max_affine", "E": 1, "T": 5, "K_frac": None}, seed=0)
    return SimpleNamespace(hash=hash_, arrays=arrays, spec=spec, meta={})


def _fake_results(lemma5_passed=(True, True), step_passed=True):
    runs = [_theory_run(f"run{i}", [("fedsgm.lemma5", "drift_sum <= ...", ok, 0.5 if ok else 1.5),
                                    ("fedsgm.lemma3", "agg_sq_expect <= ...", True, 0.4),
                                    ("fedsgm.lemma3", "step: left side <= Jensen", step_passed or i == 0,
                                     0.3 if step_passed or i == 0 else 2.0),
                                    ("fedsgm.thm2", "subopt <= ...", False, 3.0, False)])   # hypotheses not met
            for i, ok in enumerate(lemma5_passed)]
    return {"fedsgm.theory": runs}


def _by_claim(verdicts):
    return {v.claim: v for v in verdicts}


def test_every_claim_gets_exactly_one_verdict_even_without_results():
    verdicts = A.verdicts({}, findings=())
    assert [v.claim for v in verdicts] == CLAIM_IDS + STATEMENT_IDS
    by = _by_claim(verdicts)
    # nothing ran: runnable claims are "not run"; order statements with no symbolic check are "not checkable"
    for c in B.CLAIMS:
        expected = Verdict.NOT_CHECKABLE if c.mode.value == "order" else Verdict.NOT_RUN
        assert by[c.id].verdict is expected, by[c.id]
    # a statement about Figure 1 without its runs is not run
    assert all(by[s].verdict is Verdict.NOT_RUN for s in STATEMENT_IDS)


def test_flipping_one_check_to_failed_makes_the_claim_violated():
    holds = _by_claim(A.verdicts(_fake_results(), findings=()))
    assert holds["fedsgm.lemma5"].verdict is Verdict.HOLDS
    assert "2 checks, none violated" in holds["fedsgm.lemma5"].reason
    assert holds["fedsgm.lemma3"].verdict is Verdict.HOLDS
    # a run whose hypotheses do not hold is not judged: it neither supports nor violates
    assert holds["fedsgm.thm2"].verdict is Verdict.NOT_RUN

    flipped = _by_claim(A.verdicts(_fake_results(lemma5_passed=(True, False)), findings=()))
    v = flipped["fedsgm.lemma5"]
    assert v.verdict is Verdict.VIOLATED
    assert "1 of 2 checks violated" in v.reason and "python -m repro run fedsgm.theory; result run1" in v.reason
    # a claim whose proof rests on Lemma 5 and is otherwise supported becomes "not proven"
    both = _fake_results(lemma5_passed=(True, False))
    both["fedsgm.theory"].append(_theory_run("run2", [("fedsgm.R_hard", "dist_next_sq <= ...", True, 0.9)]))
    r_hard = _by_claim(A.verdicts(both, findings=()))["fedsgm.R_hard"]
    assert "fedsgm.lemma5" in A.DEPENDS_ON["fedsgm.R_hard"]
    assert r_hard.verdict is Verdict.NOT_PROVEN and "fedsgm.lemma5 (violated)" in r_hard.reason


def test_a_failed_proof_step_is_a_gap_not_a_violation():
    by = _by_claim(A.verdicts(_fake_results(step_passed=False), findings=()))
    v = by["fedsgm.lemma3"]
    assert v.verdict is Verdict.NOT_PROVEN, v
    assert any(e.bearing is Bearing.GAP and "proof-step" in e.summary and "run1" in e.summary for e in v.evidence)


def test_findings_bear_through_their_kind_and_dependencies_propagate():
    gap = Finding("t.gap", "statement-vs-proof", ("fedsgm.thm6.proof",), DISCREPANCY, "proof gap", "")
    settings = Finding("t.settings", "experiment-settings", ("fedsgm.thm1",), CONSISTENT, "figure settings", "")
    by = _by_claim(A.verdicts({}, findings=(gap, settings)))
    assert by["fedsgm.thm6.proof"].verdict is Verdict.NOT_PROVEN
    assert by["fedsgm.thm1"].verdict is Verdict.NOT_RUN        # settings say nothing about a claim's truth
    # Theorem 6 rests on its proof's constants, Theorem 1 on Theorem 6: "not proven" needs their own support first
    sym = Finding("t.ok", "statement-vs-proof", ("fedsgm.thm6",), CONSISTENT, "ok", "")
    by = _by_claim(A.verdicts({}, findings=(gap, sym)))
    thm6 = by["fedsgm.thm6"]
    assert thm6.verdict is Verdict.NOT_PROVEN and "fedsgm.thm6.proof (not proven)" in thm6.reason


def _mc_run(hash_, S, bound, ok=True):
    arrays = {"S_T": np.array(S), "S_bound": np.array(bound), "eps": np.array(1.0),
              "A_size": np.array(3.0 if ok else 0.0), "subopt": np.array(0.5), "infeas": np.array(0.1)}
    spec = SimpleNamespace(config={"family": "max_affine", "E": 2, "K_frac": 0.34, "switching": "hard"})
    return SimpleNamespace(hash=hash_, arrays=arrays, spec=spec, meta={"metadata": {"claim": "fedsgm.thm1"}})


def test_montecarlo_interval_straddling_the_bound_is_inconclusive_and_a_failed_run_violates():
    runs = [_mc_run(f"mc{i}", s, 1.0, ok=i != 3) for i, s in enumerate([0.8, 1.2, 0.9, 1.1, 1.0])]
    by = _by_claim(A.verdicts({"fedsgm.montecarlo": runs}, findings=()))
    assert by["fedsgm.S_summed"].verdict is Verdict.NOT_CHECKABLE and "straddles" in by["fedsgm.S_summed"].reason
    assert by["fedsgm.thm1"].verdict is Verdict.VIOLATED
    assert "fedsgm.montecarlo; result mc3" in by["fedsgm.thm1"].reason


# ---------------------------------------------------------------------------- real runs of every cheap experiment
@pytest.fixture(scope="module")
def cached(tiny_results):
    """Real results: the cheapest quick runs of every audit experiment (tests/conftest.py), and the Theorem 2 runs
    whose beta is below 2/eps (the ``soft-stated-beta1`` sensitivity runs), computed here."""
    from repro.papers.fedsgm.runs.theorems import CONSTANTS
    from repro.registry import get
    below = [s for s in get("fedsgm.theory").specs("quick") if (CONSTANTS[s.config["constants"]][2] or np.inf) < 2.0]
    results = tiny_results(A.AUDIT_EXPERIMENTS, {"fedsgm.theory": below[:2]})
    return results, A.verdicts(results)


def test_cached_verdicts_cover_every_claim_once(cached):
    _, verdicts = cached
    assert sorted(v.claim for v in verdicts) == sorted(CLAIM_IDS + STATEMENT_IDS)
    assert all(isinstance(v.verdict, Verdict) and v.reason for v in verdicts)


def test_cached_verdicts_include_what_the_audit_reports(cached):
    results, verdicts = cached
    by = _by_claim(verdicts)
    tallies, failures = EV.theory_tallies(results["fedsgm.theory"])
    # a claim whose statement failed a check on a run is violated
    for cid, rel, r, i in failures:
        if cid in by and not rel.startswith("step:") and not (cid == B.S_summed.id and float(r.arrays["q_u"]) > 0):
            assert by[cid].verdict is Verdict.VIOLATED, (cid, by[cid])
    # a Monte-Carlo group whose theorem fails on a compressed run, or an adversarial failure, violates the theorem
    for g in EV.montecarlo_groups(results["fedsgm.montecarlo"]):
        if not g["ok"].all():
            assert by[g["claim"]].verdict is Verdict.VIOLATED
    for r in results["fedsgm.adversarial"]:
        if not np.asarray(r.arrays["passed_history"], bool).all():
            for cid in EV._adversarial_claims(r):
                assert by[cid].verdict is Verdict.VIOLATED
    # a claim named by a gap finding (and violated by nothing) is not proven
    gaps = {e.claim for e in A.symbolic_evidence(A._findings({})) if e.bearing is Bearing.GAP}
    assert gaps, "the symbolic audit reports no gap at all"
    for cid in gaps:
        assert by[cid].verdict in (Verdict.NOT_PROVEN, Verdict.VIOLATED), by[cid]
    # a claim that holds was checked and never violated, and rests on nothing violated or not proven
    for v in verdicts:
        if v.verdict is Verdict.HOLDS:
            assert any(e.bearing is Bearing.SUPPORTS for e in v.evidence)
            assert not any(e.bearing in (Bearing.VIOLATES, Bearing.GAP) for e in v.evidence)
            assert all(by[d].verdict not in (Verdict.VIOLATED, Verdict.NOT_PROVEN)
                       for d in A.DEPENDS_ON.get(v.claim, ()))


def test_the_section_shows_the_rolled_up_verdicts_and_no_other(cached):
    results, verdicts = cached
    section = A.audit_section(results, "quick", verdicts)
    rows = [line for line in section.splitlines() if line.startswith("| fedsgm.")]
    for v in verdicts:
        row = next(line for line in rows if line.startswith(f"| {v.claim} |"))
        reason = v.reason.replace("|", "\\|").replace("\n", " ")      # as markdown_table escapes a cell
        assert row.endswith(f"| {v.verdict.value} | {reason} |"), (v.claim, row)
    assert "failed checks)" not in section and "| FAIL |" not in section and "| pass |" not in section


def test_cached_theorem2_runs_not_judged_are_exactly_those_below_its_beta_bound(cached):
    """Which Theorem 2 checks are "hypotheses not met" must not move between machines: it is decided in
    ``checks._theorem`` with the tolerance ``PRESCRIBED_RTOL`` (beta = 2/eps is on the boundary), so the count equals
    the checks of the runs whose beta is below 2/eps by construction (the ``soft-stated-beta1`` sensitivity runs),
    not a count that depends on rounding."""
    from repro.papers.fedsgm.runs.theorems import CONSTANTS
    results, _ = cached
    tallies, _ = EV.theory_tallies(results["fedsgm.theory"])
    below = sum(int(np.sum(r.arrays["claim_id"] == "fedsgm.thm2")) for r in results["fedsgm.theory"]
                if (CONSTANTS[r.spec.config["constants"]][2] or np.inf) < 2.0)
    assert below > 0
    assert tallies[("fedsgm.thm2", "statement")]["hyp_not_met"] == below
