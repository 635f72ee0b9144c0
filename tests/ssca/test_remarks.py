"""SSCA's remarks, discussion and boundary values (bounds.ssca.remarks, bounds.ssca.boundaries): each checker decides
what it checks, and a perturbation of what it checks flips its verdict; the audit rolls the findings into the
statements' verdicts and the errata."""
from __future__ import annotations

import sympy as sp
import pytest

from bounds.core import prove_identity
from bounds.ssca import boundaries as BD
from bounds.ssca import remarks as R
from repro.verdicts import Bearing


def test_complexity_counts_decide_remarks_1_and_2():
    assert R.complexity_finding().verdict == "consistent"
    quadratic = dict(R.OPERATIONS, alg1_server=R.I * R.d**2)        # a server step quadratic in d
    bad = R.complexity_finding(quadratic)
    assert bad.verdict == "discrepancy" and "O(d)" in bad.summary and "server counts" in bad.summary


def test_communication_per_round_decides_faster_is_cheaper():
    assert R.communication_finding().verdict == "consistent"
    assert R.communication_finding({"alg1": (2 * R.d, R.d), "fedavg": (R.d, R.d)}).verdict == "discrepancy"
    assert R.communication_finding(step4=R.K * R.J).verdict == "discrepancy"


def test_privacy_same_information_and_homomorphic_encryption():
    same, linear = R.privacy_finding()
    assert (same.verdict, linear.verdict) == ("consistent", "consistent")
    lossy = R.privacy_finding(message=R.omega - R.r * R.q**2)          # not injective in q
    assert lossy[0].verdict == "discrepancy"
    q1, q2 = sp.symbols("q1 q2", real=True)
    assert R.privacy_finding(omega_bar=q1 * q2 + q1)[1].verdict == "discrepancy"


def test_tradeoff_directions_by_the_exchange_argument():
    assert all(f.verdict == "consistent" for f in R.tradeoff_finding())
    x = sp.Symbol("x")
    broken = {"R falls": prove_identity(x, x + 1)}
    assert all(f.verdict == "discrepancy" for f in R.tradeoff_finding(broken))


def test_ownership_of_the_labels_per_reading():
    found = {f.id: f for f in R.ownership_findings()}
    labels = found["ssca.remarks.ownership.labels"]
    assert labels.verdict == "not checkable" and "lacks y1, y2" in labels.summary   # depends on who holds them
    assert found["ssca.remarks.ownership.gradient"].verdict == "consistent"
    everyone = R.ownership_findings({"every client holds the labels": (1, 2)})[0]
    nobody = R.ownership_findings({"no client holds the labels": ()})[0]
    assert (everyone.verdict, nobody.verdict) == ("consistent", "discrepancy")


@pytest.mark.parametrize("pair", R.PAIRS, ids=lambda p: p.id)
def test_each_pair_of_places_is_read_and_compared(pair):
    assert R.two_places(pair).verdict == "discrepancy"
    agreeing = pair.__class__(**{**pair.__dict__, "printed": pair.other, "read": pair.read_other})
    assert R.two_places(agreeing) is None


def test_the_step_size_boundary_finding_and_the_excluded_values():
    f = BD.step_size_boundary_finding()
    assert f.kind == "hypotheses" and set(f.claims) == {"ssca.thm1", "ssca.thm2", "ssca.thm3", "ssca.thm4"}
    assert BD.threshold() == 1 + sp.sqrt(2)
    table = {c.label: v.kind for c, v in BD.evaluate_cases()}
    excluded = [c for c in BD.CASES if not c.admitted]
    assert excluded and all(table[c.label] == "infinite" for c in excluded)    # shown, never reported
    assert all(w > 0 for w in BD.section_vi_weights())
    fine = tuple(c for c in BD.CASES if c.label not in {x.label for x, _ in BD.degenerate_admitted()})
    assert BD.step_size_boundary_finding(fine) is None
    # perturbed: admitting tau = 0 makes (9)'s infinite value a reported case
    tau0 = next(c for c in BD.CASES if c.label.startswith("(9)/(19)"))
    widened = fine + (tau0.__class__(**{**tau0.__dict__, "admitted": True}),)
    assert "(9)/(19)" in BD.step_size_boundary_finding(widened).evidence


def test_the_audit_shows_them_and_the_errata_follow():
    from repro import errata
    from repro.papers.ssca import audit as A
    from repro.papers.ssca import errata as ERR
    shown = {f.id: f for f in A.findings({})}
    mine = R.remark_findings() + [BD.step_size_boundary_finding()]
    assert all(shown[f.id].verdict == f.verdict for f in mine)
    verdicts = A.verdicts({})
    by = {v.claim: v for v in verdicts}
    assert any(e.source == "ssca.boundary.rho_above_one" and e.bearing is Bearing.GAP for e in by["ssca.thm1"].evidence)
    reports = {r.id: r.kind.value for r in errata.paper_errata(verdicts, list(shown.values()), ERR, {})}
    assert reports["ssca.eq4.rho_above_one"] == "gap"
    assert all(reports[p.id] == "inconsistency" for p in R.PAIRS)


def test_what_the_algorithms_return_is_the_last_iterate():
    assert R.output_finding().verdict == "consistent"
    assert R.output_finding(output="7: Output: ωT−1 s").verdict == "discrepancy"      # one step short


def test_the_cost_limit_direction_of_lemma_1():
    from bounds.ssca import claims as C
    assert R.cost_limit_finding().verdict == "consistent"
    rising = (1 - sp.sqrt(C.b_sym / C._D)) / C._tau_p                   # (42)'s root with its sign flipped
    flipped = R.cost_limit_finding(root=rising)
    assert flipped.verdict == "discrepancy" and "nu* does not grow as U grows" in flipped.summary
    outward = -C.OMEGA_40                                                # (40)-(41) pointing along +Theta
    moved = R.cost_limit_finding(omega_bar=outward)
    assert moved.verdict == "discrepancy" and "surrogate cost" in moved.summary


def test_the_printed_swish_derivative_against_s():
    assert R.swish_derivative_finding().verdict == "consistent"
    z = R.z_
    assert R.swish_derivative_finding(printed=1 / (1 + sp.exp(-z))).verdict == "discrepancy"    # z term dropped
    assert R.swish_derivative_finding(swish=z / (1 + sp.exp(z))).verdict == "discrepancy"     # another S


def test_the_proximal_term_decides_strong_convexity():
    assert R.proximal_term_finding().verdict == "consistent"
    linear = dict(R.SURROGATES, **{"(7)": R.g_ * (R.w_ - R.w0_)})           # the term dropped
    concave = dict(R.SURROGATES, **{"(22)": R._LINEARISED - 2 * R._tau_p * (R.w_ - R.w0_)**2})
    dropped = R.proximal_term_finding(linear)
    assert dropped.verdict == "discrepancy" and dropped.summary.endswith("strong convexity of (7)")
    assert R.proximal_term_finding(concave).verdict == "discrepancy"
