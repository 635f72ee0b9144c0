"""FedSGM's findings and figure statements are computed: change one input of a computation and the finding flips
or disappears; on the real inputs the suite finds what it reports. These tests assert what the suite computes,
never that the paper is right.

* fedsgm.soft.beta: the beta the soft proof's last step needs, solved by sympy from the step-4 bound, against
  Theorem 2's stated beta >= 2/eps;
* fedsgm.figure1.eps (merged with the rounds the theorems need): the figure's eps and T against the theorems' at the
  D the solver measures (not checkable when problem (1) has no minimiser);
* the NP solvability findings: present only for the readings of problem (1) the solver certifies unsolvable;
* fedsgm.figure1.beta, fedsgm.complexity.order: a comparison and an exponent, each flipped by its input;
* the statements about Figure 1: per-seed values decided by a confidence interval (holds / violated / inconclusive).
"""
from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import sympy as sp

from bounds.fedsgm import claims as B
from bounds.fedsgm import findings as F
from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE
from repro.papers.fedsgm import errata as ERR
from repro.papers.fedsgm import audit as A
from repro.papers.fedsgm import statements as ST
from repro.verdicts import Bearing, Verdict

ROOT = Path(__file__).resolve().parents[2]


def _rng():
    return np.random.default_rng(0)


# ---------------------------------------------------------------------------- fedsgm.soft.beta
def test_soft_beta_is_found_at_the_stated_constants_and_names_the_proofs_words():
    f = F.soft_beta(B.ETA_STATED, B.EPS_STATED, F._stated_beta(), _rng())
    assert f.verdict == DISCREPANCY
    assert "24/epsilon" in f.evidence and "equals fedsgm.derived.soft_beta's condition: yes" in f.evidence
    assert F.THM2_BETA_QUOTE in f.summary and F.THM7_PROOF_QUOTE in f.summary
    assert [(g.verdict, g.summary) for g in f.gate()] == [(f.verdict, f.summary)]
    assert F._stated_beta() == 2 / B.eps                      # read off Theorem 2's encoded hypothesis


def test_soft_beta_flips_with_the_proofs_own_constants_or_a_large_enough_stated_beta():
    gamma_pf = B.Gamma_proof
    proof = F.soft_beta(B.eta_of(gamma_pf), 2 * B.eps_of(gamma_pf), F._stated_beta(), _rng())
    assert proof.verdict == CONSISTENT and "c = S_bar(eta; Gamma_pf)/eps = 1/2" in proof.evidence
    enough = sp.simplify(2 / ((1 - B.ratio_pf_st) * B.eps))   # the sufficient beta at the stated constants
    assert F.soft_beta(B.ETA_STATED, B.EPS_STATED, enough, _rng()).verdict == CONSISTENT


def test_the_step4_bound_with_the_proofs_constant_is_the_papers_display():
    needed = F.soft_beta_needed(sp.Rational(1, 2))
    assert sp.simplify(needed - 2 * F._SIGMA / (B.eps * B.T)) == 0   # 'beta >= 2 sum sigma / (eps T)'


# ---------------------------------------------------------------------------- Figure 1's settings
def _values(D, **extra):
    base = {"T": 100, "E": 5, "n": 10, "q_u": 31 / 9 - 1, "G": 20.57, "eps": 0.1, "eta": 0.1, "beta": 20.0}
    return base | {"D": D} | extra


def test_figure1_eps_is_decided_by_the_measured_D():
    numbers = F._figure1_numbers(_values(None))
    assert numbers["D_from_eps"] == pytest.approx(numbers["D_from_rounds"], rel=1e-9)   # eps and rounds: one fact
    assert F.figure1_eps(_values(None)).verdict == NOT_CHECKABLE
    assert F.figure1_eps(_values(0.5 * numbers["D_from_eps"])).verdict == CONSISTENT
    far = F.figure1_eps(_values(2 * numbers["D_from_eps"]))
    assert far.verdict == DISCREPANCY and F.FIGURE1_EPS_QUOTE in far.summary


def test_figure1_eps_on_the_real_problem_is_not_checkable_because_the_solver_finds_no_minimiser():
    _, optimum, reason = A.np_solution(True, 0.0)
    assert optimum is None and "no solution" in reason
    found = {f.id: f for f in A.findings({})}
    assert found["fedsgm.figure1.eps"].verdict == NOT_CHECKABLE
    assert "fedsgm.figure1.rounds" not in found                          # merged into fedsgm.figure1.eps
    assert set(found["fedsgm.figure1.eps"].claims) == {"fedsgm.thm1", "fedsgm.thm2", "fedsgm.complexity"}


def test_figure1_beta_on_the_boundary_is_consistent_and_below_it_is_not():
    assert F.figure1_beta(_values(None, beta=2 / 0.1)).verdict == CONSISTENT
    assert F.figure1_beta(_values(None, beta=(2 / 0.1) * (1 - 1e-6))).verdict == DISCREPANCY


def test_complexity_order_flips_with_the_exponent():
    assert F.complexity_order().verdict == CONSISTENT
    assert F.complexity_order(B.ROUNDS_STATED / B.eps).verdict == DISCREPANCY


# ---------------------------------------------------------------------------- NP solvability
def test_np_solvability_on_the_real_problem():
    level0 = A.np_solvability(0.0)
    assert [f.id for f in level0] == ["fedsgm.figure1.no_solution.0"]          # both readings merged
    assert level0[0].verdict == DISCREPANCY and "with the bias column" in level0[0].summary \
        and "without the bias column" in level0[0].summary
    level_eps = {f.id: f for f in A.np_solvability(A.FIGURE1_DEFAULTS["eps"])}
    assert set(level_eps) == {"fedsgm.figure1.no_solution.0.1", "fedsgm.figure1.eps.nobias.0.1"}
    assert level_eps["fedsgm.figure1.eps.nobias.0.1"].verdict == DISCREPANCY   # D ~ 1e3: eps_st >> 0.1


def test_np_solvability_finding_disappears_when_the_solver_finds_a_minimiser(monkeypatch):
    real = A.np_solution

    def solved(bias, level):
        problem, _, _ = real(bias, level)
        return problem, SimpleNamespace(D=1e-3), ""

    monkeypatch.setattr(A, "np_solution", solved)
    found = A.np_solvability(0.0)
    assert [f.id for f in found] == ["fedsgm.figure1.eps.bias.0", "fedsgm.figure1.eps.nobias.0"]
    assert all(f.verdict == CONSISTENT for f in found)                        # D = 1e-3 is inside the regime


# ---------------------------------------------------------------------------- every finding is gated and quoted
def test_no_verdict_is_typed_in_fedsgms_files():
    import tests.test_findings as T
    for path in (ROOT / "bounds" / "fedsgm" / "findings.py", ROOT / "repro" / "papers" / "fedsgm" / "audit.py"):
        assert T._violations(path) == [], path


def test_every_discrepancy_quotes_the_paper_with_its_location():
    for f in A.findings({}):
        if f.verdict == DISCREPANCY:
            text = f.summary + f.evidence
            assert "'" in text and any(w in text for w in ("Section", "Appendix", "Theorem")), f.id


# ---------------------------------------------------------------------------- statements about Figure 1
def _run(switching, seed, violations, f_level, g, variant="default"):
    config = {"variant": variant, "switching": switching, "eps": 0.1, "T": len(g)}
    arrays = {"violations": np.array(violations), "f": np.full(len(g) + 1, f_level), "g": np.append(g, g[-1])}
    return SimpleNamespace(spec=SimpleNamespace(config=config, seed=seed), arrays=arrays,
                           hash=f"{switching}{seed}" + ("" if variant == "default" else f"-{variant}"))


def _runs(hard_counts, soft_counts, f_soft=1.0, variants=tuple(ERR.FIGURE1_READINGS)):
    """The same hard and soft runs under every reading of Figure 1's open settings (``variants``)."""
    oscillating = np.tile([0.05, 0.15], 20)
    flat = np.full(40, 0.05)
    return [run for v in variants for run in
            [_run("hard", s, c, 1.0, oscillating, v) for s, c in enumerate(hard_counts)]
            + [_run("soft", s, c, f_soft, flat, v) for s, c in enumerate(soft_counts)]]


def _verdict(runs, statement):
    return {v.claim: v for v in A.verdicts({"fedsgm.figure1": runs}, findings=())}[statement]


def test_around_4x_holds_is_violated_or_is_inconclusive_from_per_seed_values():
    assert _verdict(_runs([40, 36, 44], [10, 9, 11]), "fedsgm.figure1.violations_4x").verdict is Verdict.HOLDS
    violated = _verdict(_runs([40, 36, 44], [1, 1, 1]), "fedsgm.figure1.violations_4x")
    assert violated.verdict is Verdict.VIOLATED and "results hard0 (hard), soft0 (soft)" in violated.reason
    one_seed = _verdict(_runs([40], [10]), "fedsgm.figure1.violations_4x")
    assert one_seed.verdict is Verdict.NOT_CHECKABLE and "one seed" in one_seed.reason
    zero = _verdict(_runs([40, 36], [10, 0]), "fedsgm.figure1.violations_4x")
    assert zero.verdict is Verdict.NOT_CHECKABLE and "undefined" in zero.reason


def test_around_4x_depends_on_a_setting_the_paper_leaves_open_when_the_readings_disagree():
    """~4x with the bias feature, ~36x without it (every other reading as the first): holds for one admissible value
    and violated for the other, so the statement depends on that choice (and only that one), its erratum's cause."""
    runs = _runs([40, 36, 44], [10, 9, 11], variants=("default", "flipped_labels"))
    runs += _runs([40, 36, 44], [1, 1, 1], variants=("no_bias", "no_bias_flipped"))
    got = _verdict(runs, "fedsgm.figure1.violations_4x")
    assert got.verdict is Verdict.DEPENDS and got.cause == ("fedsgm.bias",)      # the labels change nothing here
    assert "[fedsgm.bias = with a bias feature" in got.reason and "violated" in got.reason


def test_around_4x_reading_and_tolerance_are_stated():
    assert ST.AROUND_4X == (math.log(2), math.log(8))
    ev = ST._violations_evidence(ST._paired_runs(_runs([40, 36, 44], [10, 9, 11]), "default"))
    assert ev[0].bearing is Bearing.SUPPORTS and f"tolerance {ST.LOG_COUNT_TOL:g}" in ev[0].summary \
        and "[log 2, log 8]" in ev[0].summary


def test_objective_statement_is_measured_but_never_decided_by_the_suites_own_margin():
    """'without compromising the convergence behavior' names no quantity: whatever the objectives, the statement is
    not checkable, and the evidence reports the measured gap against the suite's margin."""
    equal = _verdict(_runs([40, 36, 44], [10, 9, 11], f_soft=1.0), "fedsgm.figure1.objective")
    runs = _runs([40, 36, 44], [10, 9, 11])
    for r, level in zip([r for r in runs if r.spec.config["switching"] == "soft"], (1.3, 1.25, 1.35)):
        r.arrays["f"] = np.full_like(r.arrays["f"], level)
    worse = _verdict(runs, "fedsgm.figure1.objective")
    assert equal.verdict is worse.verdict is Verdict.NOT_CHECKABLE
    assert "(supports for the margin)" in equal.reason and "(violates for the margin)" in worse.reason


def _as(runs, switching):
    """The same runs labelled as ``switching``."""
    return [SimpleNamespace(spec=SimpleNamespace(config=r.spec.config | {"switching": switching}, seed=r.spec.seed),
                            arrays=r.arrays, hash=r.hash + "'") for r in runs]


def test_oscillation_counts_crossings_of_the_tolerance():
    assert ST.crossings(np.array([0.05, 0.15, 0.05, 0.15, 0.15]), 0.1) == 3   # the last round is w_T, not counted
    runs = _runs([40, 36, 44], [10, 9, 11])
    hard = [r for r in runs if r.spec.config["switching"] == "hard"]         # oscillating around eps
    soft = [r for r in runs if r.spec.config["switching"] == "soft"]         # flat below eps
    assert _verdict(runs, "fedsgm.figure1.oscillation").verdict is Verdict.HOLDS
    assert _verdict(_as(soft, "hard") + _as(hard, "soft"), "fedsgm.figure1.oscillation").verdict is Verdict.VIOLATED
    assert _verdict(hard + _as(hard, "soft"), "fedsgm.figure1.oscillation").verdict is Verdict.NOT_CHECKABLE


def test_variance_ratio_interval():
    ci = ST.variance_ratio_interval([1.0, 2.0, 3.0, 4.0] * 5, [1.0, 1.1, 1.2, 1.3] * 5)
    assert ci.low > 0 and ci.mean == pytest.approx(math.log(100))
    assert ST.variance_ratio_interval([1.0], [2.0]).n == 1


# ---------------------------------------------------------------------------- settings against Assumptions 1-2
def test_the_printed_settings_meet_assumptions_1_and_2_and_mutations_are_caught(monkeypatch):
    from types import SimpleNamespace

    from repro.compression import RandK
    from repro.papers.fedsgm import audit as A
    from repro.papers.fedsgm import conditions as C

    found = {f.id: f for f in A.condition_findings()}
    assert {f.verdict for f in found.values()} == {"consistent"}
    assert set(found) == {"fedsgm.settings.assumption1", "fedsgm.settings.exact_gradients", "fedsgm.settings.randk"}
    problem = A.np_solution(True, 0.0)[0]

    class Flipped:                      # -f is concave: Assumption 1's convexity must fail
        n_clients, dim, G = problem.n_clients, problem.dim, problem.G

        def oracle(self, W):
            o = problem.oracle(W)
            return SimpleNamespace(f=-o.f, g=o.g, grad_f=-o.grad_f, grad_g=o.grad_g)

    class Doubled(Flipped):             # a gradient twice too large: the finite differences must disagree
        def oracle(self, W):
            o = problem.oracle(W)
            return SimpleNamespace(f=o.f, g=o.g, grad_f=2 * o.grad_f, grad_g=o.grad_g)

    assert C.assumption1(Flipped(), "here", "words").verdict == "discrepancy"
    assert C.exact_gradients(Doubled(), "here", "words").verdict == "discrepancy"
    # a Rand-K without its d/K scaling is biased: the exact enumeration must see it
    def unscaled(self, X, selected):
        out = np.zeros_like(X)
        rows = np.arange(X.shape[0])[:, None]
        out[rows, selected] = X[rows, selected]
        return out

    monkeypatch.setattr(RandK, "apply", unscaled)
    assert C.randk_assumption2("here", "words").verdict == "discrepancy"
