"""SSCA: one computed verdict per claim (repro.papers.ssca.audit.verdicts). These tests assert what the suite
computes from its evidence, never that the paper is right."""
import dataclasses

import numpy as np
import pytest

from bounds.ssca import claims as B
from repro.papers.ssca import audit as A
from repro.papers.ssca import evidence as EV
from repro.papers.ssca import section as SE
from repro.papers.ssca import statements as ST
from repro.tables import markdown_table
from repro.verdicts import Bearing, Verdict

CLAIM_IDS = [c.id for c in B.CLAIMS]


@pytest.fixture(scope="module")
def cached(tiny_results):
    """Real results: the cheapest quick runs of every audit experiment (tests/conftest.py), and one Theorem 5 run
    on the first lambda and limit fraction of the quick profile's, computed here."""
    import dataclasses

    from repro.registry import get
    spec = get("ssca.theorem5").specs("quick")[0]
    shrunk = {"lambdas": spec.config["lambdas"][:1], "limit_fractions": spec.config["limit_fractions"][:1]}
    return tiny_results(A.AUDIT_EXPERIMENTS, {"ssca.theorem5": [dataclasses.replace(spec, config={**spec.config,
                                                                                                **shrunk})]})


def test_depends_on_names_encoded_claims_and_has_no_cycle():
    assert set(A.DEPENDS_ON) <= set(CLAIM_IDS)
    assert all(set(deps) <= set(CLAIM_IDS) for deps in A.DEPENDS_ON.values())
    assert A.DEPENDS_ON["ssca.thm1"] == A.DEPENDS_ON["ssca.thm3"]   # Appendix A: the proofs are identical
    A.verdicts({})                                                    # roll_up raises on a cycle


def test_without_results_every_claim_gets_one_verdict_from_findings_and_modes():
    got = A.verdicts({})
    assert [v.claim for v in got] == CLAIM_IDS + list(ST.STATEMENT_IDS)
    by = {v.claim: v for v in got}
    # no run evidence: a deterministic claim with no symbolic finding is not run; an almost-sure one not checkable
    assert by["ssca.lemma4"].verdict is Verdict.NOT_RUN
    assert by["ssca.appA.delta1"].verdict is Verdict.NOT_CHECKABLE
    for v in got:
        if any(e.bearing is Bearing.GAP for e in v.evidence):
            assert v.verdict is Verdict.NOT_PROVEN, v.claim


def test_findings_are_built_once_per_process_and_need_no_results():
    assert A._symbolic_findings() is A._symbolic_findings()
    assert A.findings({}) == list(A._symbolic_findings())


def test_cached_verdicts_include_what_the_suite_finds(cached):
    got = A.verdicts(cached)
    assert [v.claim for v in got] == CLAIM_IDS + list(ST.STATEMENT_IDS) and len({v.claim for v in got}) == len(got)
    by = {v.claim: v for v in got}
    for v in got:
        bearings = {e.bearing for e in v.evidence}
        if Bearing.VIOLATES in bearings:
            assert v.verdict is Verdict.VIOLATED and ("replay: python -m repro run" in v.reason
                                                      or "replay: python -m repro findings --id" in v.reason), v.claim
        elif Bearing.GAP in bearings:
            # a gap the correction of an erratum closes leaves the claim holding once corrected, decided on the
            # corrected reading, every gap then under the printed side of that erratum
            if v.verdict is Verdict.HOLDS_ONCE_CORRECTED:
                gaps = [e for e in v.evidence if e.bearing is Bearing.GAP]
                assert v.decided_on and all(set(e.reading) - set(v.decided_on.items()) for e in gaps), v.claim
            else:
                assert v.verdict is Verdict.NOT_PROVEN, v.claim
        elif not v.evidence:
            assert v.verdict is Verdict.NOT_RUN
    # the symbolic findings the audit reports as discrepancies between statement and proof or hypotheses
    # (and the displayed proof steps ssca.steps refutes)
    found = [f for f in A.findings(cached) if f.verdict == "discrepancy"
             and f.kind in ("statement-vs-proof", "hypotheses", "proof-step")]
    gaps = {c for f in found for c in f.claims}
    # a finding under the printed side of an erratum only (its reading named) may be closed by the correction
    assert gaps and all(by[c].verdict in (Verdict.NOT_PROVEN, Verdict.VIOLATED)
                        or (f.reading and by[c].verdict is Verdict.HOLDS_ONCE_CORRECTED) for f in found for c in f.claims)
    # Lemma 4 on the runs: the verdict counts the runs the Lemma 4 table judges, and is violated iff one failed;
    # otherwise not proven iff a displayed step of its proof is refuted
    rows = SE._lemma4_rows(cached["ssca.convergence"])
    runs = sum(len(p) for *_, p in EV._lemma4_outcomes(cached["ssca.convergence"]))
    failed = sum(r[4] for r in rows)
    step_gap = "ssca.lemma4" in gaps
    corrected = step_gap and not any(e.bearing is Bearing.GAP and ("ssca.lemma4.52", "corrected") in e.reading
                                     for e in by["ssca.lemma4"].evidence)
    assert by["ssca.lemma4"].verdict is (Verdict.VIOLATED if failed else Verdict.HOLDS_ONCE_CORRECTED if corrected
                                          else Verdict.NOT_PROVEN if step_gap else Verdict.HOLDS)
    assert sum(e.checks for e in by["ssca.lemma4"].evidence if e.source == "ssca.convergence"
               and e.bearing is not Bearing.INCONCLUSIVE) in (runs, runs - sum(r[5] for r in rows))
    # Theorem 5 (i): violated iff an instance the audit's table reports has a positive violation beyond the tolerance
    viol = np.concatenate([r.arrays["i_violation"] for r in cached["ssca.theorem5"]])
    assert (by["ssca.thm5.i"].verdict is Verdict.VIOLATED) == bool((viol > EV.THM5_TOL).any())
    # a claim whose proof rests on a violated or not-proven claim never holds
    for v in got:
        if any(by[d].verdict in (Verdict.VIOLATED, Verdict.NOT_PROVEN) for d in A.DEPENDS_ON.get(v.claim, ())):
            assert v.verdict is not Verdict.HOLDS, v.claim


def test_the_section_shows_exactly_the_computed_verdicts(cached):
    got = A.verdicts(cached)
    text = A.audit_section(cached, "quick", got)
    rows = {line.split(" | ")[0].strip("| ").strip(): line for line in text.splitlines() if line.startswith("| ssca.")}
    values = {v.value for v in Verdict}
    for v in got:
        line = rows[v.claim]
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        reason = markdown_table(["why"], [[v.reason]]).splitlines()[-1].strip().strip("|").strip()   # as escaped
        assert [c for c in cells if c in values] == [v.verdict.value] and reason in line
    assert "pass (" not in text and "FAIL" not in text


# ---------------------------------------------------------------------------- evidence gathering on fake results
@dataclasses.dataclass
class _Spec:
    config: dict
    seed: int = 0


@dataclasses.dataclass
class _Run:
    spec: _Spec
    arrays: dict
    hash: str
    meta: dict = dataclasses.field(default_factory=dict)


def _fake_theorem5(violation: float) -> list:
    arrays = {"i_lam": np.array([1e-2, 1e-1]), "i_grad_norm": np.zeros(2), "i_hess_min_27": np.array([0.1, 0.2]),
              "i_violation": np.array([0.0, violation]), "i_U": np.array([0.3, 0.4]),
              "i_n_feasible_probes": np.array([10, 10]),
              "ii_U": np.array([0.5]), "ii_xi": np.array([10.0]), "ii_lam": np.array([0.1]),
              "ii_kkt_residual_37": np.array([0.0]), "ii_stationarity_27": np.array([1e-12]),
              "ii_hess_min_printed": np.array([0.01]), "ii_hess_min_27": np.array([0.02])}
    return [_Run(_Spec({}), arrays, "fakehash0000t5")]


def _fake_closed_forms(error: float) -> dict:
    runs = []
    for formulation, h in (("27", "fakecf27"), ("37", "fakecf37")):
        runs.append(_Run(_Spec({"method": "ssca", "formulation": formulation, "batch": 10}),
                         {"closed_form_error": np.array([1e-16, error if formulation == "27" else 1e-16]),
                          "solver_status": np.array([1.0, 1.0])}, h))
    return {"ssca.figure2": runs}


def test_flipping_one_check_to_failed_makes_the_claim_violated():
    ok = {v.claim: v for v in A.verdicts({"ssca.theorem5": _fake_theorem5(0.0)})}
    assert ok["ssca.thm5.i"].verdict is Verdict.HOLDS and ok["ssca.thm5.i"].reason.startswith("2 checks, none violated")
    bad = {v.claim: v for v in A.verdicts({"ssca.theorem5": _fake_theorem5(1e-3)})}
    assert bad["ssca.thm5.i"].verdict is Verdict.VIOLATED
    assert "1 of 2 checks violated" in bad["ssca.thm5.i"].reason
    assert "python -m repro run ssca.theorem5; result fakehash0000t5" in bad["ssca.thm5.i"].reason
    assert bad["ssca.thm5.ii"].verdict is Verdict.HOLDS                      # the other part is untouched
    # within the tolerance: inconclusive, not a violation and not a pass
    tiny = {v.claim: v for v in A.verdicts({"ssca.theorem5": _fake_theorem5(EV.THM5_TOL / 2)})}
    assert [e.bearing for e in tiny["ssca.thm5.i"].evidence if e.source == "ssca.theorem5"] \
        == [Bearing.INCONCLUSIVE, Bearing.SUPPORTS]


def test_a_closed_form_error_beyond_the_solver_tolerance_violates():
    ok = {v.claim: v for v in A.verdicts(_fake_closed_forms(1e-16))}
    ev = [e for e in ok["ssca.eq35_36"].evidence if e.source.startswith("ssca.figure2")]
    assert [e.bearing for e in ev] == [Bearing.SUPPORTS] and ev[0].checks == 2
    bad = {v.claim: v for v in A.verdicts(_fake_closed_forms(1e-3))}
    assert bad["ssca.eq35_36"].verdict is Verdict.VIOLATED and "result fakecf27" in bad["ssca.eq35_36"].reason
    mid = {v.claim: v for v in A.verdicts(_fake_closed_forms(1e-8))}        # above rounding, within tolerance
    assert [e.bearing for e in mid["ssca.eq35_36"].evidence if e.source.startswith("ssca.figure2")] \
        == [Bearing.INCONCLUSIVE, Bearing.SUPPORTS]
