"""FedSGM's remarks, pairs and boundary values (bounds/fedsgm/remarks.py, bounds/fedsgm/boundaries.py): every checker
decides the paper's sentence as computed, and perturbing what it checks flips its verdict; the disagreement between
the proofs of Theorems 7 and 9 is an erratum whose kind the engine computes (inconsistency), gone when the two places
agree."""
from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from bounds.audit import CONSISTENT, DISCREPANCY
from bounds.fedsgm import boundaries as BB
from bounds.fedsgm import remarks as R
from bounds.fedsgm.claims import E, EPS_STATED, ROUNDS_STATED, eps, n, q, thm1, thm7_proof
from repro import errata
from repro.papers.fedsgm import audit as A
from repro.papers.fedsgm import errata as ERR


def _flips(default, perturbed, expect=(CONSISTENT, DISCREPANCY)):
    assert (default.verdict, perturbed.verdict) == expect, (default.summary, perturbed.summary)
    assert default.id == perturbed.id and default.gate is not None


def test_limits_reduce_to_the_named_methods_and_a_wrong_case_does_not():
    _flips(R.centralized_reduces(), R.centralized_reduces(clients=2))
    _flips(R.fedcom_reduces(), R.fedcom_reduces(slope_min=1 / (2 * eps)))


def test_directions_of_the_rate():
    _flips(R.drift_scaling(), R.drift_scaling(drift=sp.Integer(0)))
    _flips(R.explicit_dependence(), R.explicit_dependence(EPS_STATED / E))


def test_hard_against_soft_switching():
    _flips(R.soft_same_order(), R.soft_same_order(soft=thm7_proof.parameters[eps] * sp.sqrt(E)))
    _flips(R.soft_interpolates(), R.soft_interpolates(rule=lambda z, b: R.sigma_hard(z)))
    _flips(R.soft_recovers_hard(), R.soft_recovers_hard(soft=thm1))


def test_communication_and_data_split():
    _flips(R.randk_communication(), R.randk_communication(ROUNDS_STATED.subs(q, 8 * E * n * q)))
    moved = tuple(m[:4] + (True,) if m[0] == "w_{t+1}" else m for m in R.ALGORITHM1_MESSAGES)
    _flips(R.uplink_only(), R.uplink_only(moved))
    _flips(R.np_split(212, 357, 10), R.np_split(212, 357, 300))
    listed = R.ALGORITHM1 | {"returns": ("w_bar",), "inputs": R.ALGORITHM1["inputs"] + ("epsilon",)}
    _flips(R.algorithm1_output(listed), R.algorithm1_output())
    assert "needs epsilon" in R.algorithm1_output().summary
    assert "leaving out 9 samples" in R.np_split(212, 357, 10).summary
    assert "uses every sample" in R.np_split(210, 350, 10).summary


def test_one_fact_in_two_places():
    what, a, x, b, y = R.CONSTANT_PAIRS[1]
    _flips(R.pair_constants(), R.pair_constants(R.CONSTANT_PAIRS[:1] + ((what, a, x, b, 2 * y),)))
    _flips(R.pair_beta(), R.pair_beta(appendix=1 / eps))
    agree = (R.OBSERVATIONS[0], R.OBSERVATIONS[1][:2] + (R.OBSERVATIONS[0][2],))
    _flips(R.pair_observation(), R.pair_observation(agree), expect=(DISCREPANCY, CONSISTENT))
    tol, text, caption, pattern = R.CAPTION_PAIRS[1]
    other = R.CAPTION_PAIRS[:1] + ((tol, text, caption.replace("100", "50"), pattern),) + R.CAPTION_PAIRS[2:]
    _flips(R.pair_caption(), R.pair_caption(other))


def test_boundary_values():
    _flips(BB.boundary_values("eps"), BB.boundary_values("eps", BB.FORMULAS | {"eps": (1 / EPS_STATED, "x")}))
    beta_min = BB.boundary_values("beta_min")
    assert beta_min.verdict == DISCREPANCY and "w_0 = w*" in beta_min.summary and beta_min.claims == ()
    _flips(BB.vacuous_horizon(EPS_STATED / 10), BB.vacuous_horizon(), expect=(CONSISTENT, DISCREPANCY))


@pytest.fixture(scope="module")
def findings():
    """This module's findings as the audit builds them (Figure 1's class counts: 212 and 357 over 10 clients); the
    other findings of the audit bear on no remark statement and on no erratum tested here."""
    return R.remark_findings((212, 357, 10)) + BB.boundary_findings()


def _errata(fs):
    verdicts = A.verdicts({}, fs)
    claims = {v.claim: (v.claim, "") for v in verdicts}
    return {r.id: r for r in errata.paper_errata(verdicts, fs, ERR, claims)}


def test_the_two_proofs_disagreement_is_a_computed_inconsistency(findings):
    found = _errata(findings)
    assert found["fedsgm.thm9.observation"].kind is errata.Kind.INCONSISTENCY
    agree = R.pair_observation((R.OBSERVATIONS[0], R.OBSERVATIONS[1][:2] + (R.OBSERVATIONS[0][2],)))
    fixed = [agree if f.id == agree.id else f for f in findings]
    assert "fedsgm.thm9.observation" not in _errata(fixed)


def test_the_remark_statements_get_their_verdicts_from_the_findings(findings):
    by = {v.claim: v for v in A.verdicts({}, findings)}
    assert by["fedsgm.remark.drift_sqrtE"].verdict.value == "holds"
    gap = [dataclasses.replace(f, verdict=DISCREPANCY) if f.id == "fedsgm.remark.drift_sqrtE" else f for f in findings]
    assert {v.claim: v for v in A.verdicts({}, gap)}["fedsgm.remark.drift_sqrtE"].verdict.value == "not proven"
