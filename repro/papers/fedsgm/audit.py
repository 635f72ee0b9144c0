"""FedSGM's audit, the part of the paper the shared layers load (:mod:`repro.paper`): ``AUDIT_EXPERIMENTS``,
``DEPENDS_ON``, ``STATEMENTS`` (what Section 4.1 says about Figure 1, and the discussion's and Section 4.1's other
sentences that :mod:`bounds.fedsgm.remarks` decides, from :mod:`.statements`), ``findings(results)``
(every finding the section shows, each computed by a producer and carrying its gate), ``verdicts(results)`` (one
:class:`repro.verdicts.ClaimVerdict` per claim of :data:`bounds.fedsgm.claims.CLAIMS` and per statement, rolled up
from all the evidence :func:`evidence` gathers) and ``audit_section(results, profile, verdicts)`` (FedSGM's section
of ``reports/fedsgm.md``, its detail page: the contract :mod:`repro.report` reads through :class:`repro.paper.Paper`).

One module per job besides: :mod:`.evidence` (the claim evidence from runs: the per-run checks of ``fedsgm.theory``,
the Monte Carlo under Rand-K compression, the adversarial search of Theorems 1-2), :mod:`.statements` (Section 4.1's
statements about Figure 1 and their evidence under each reading of the settings it leaves open), :mod:`.section` (the
Markdown of the section's parts, one helper per part); what the figures compute too comes from :mod:`.summaries`. The
findings' producers are defined here: a finding names the function that computed it
(``repro.papers.fedsgm.audit.<name>``, as ``python -m repro findings`` prints it).

Evidence and its bearing (:func:`evidence`):

* ``fedsgm.theory`` per-run checks of a claim's statement -> :func:`repro.verdicts.from_checks` (a failed check
  violates, one within the tolerance is inconclusive, a run whose hypotheses do not hold is not judged); its
  proof-step checks (``step: ...``) -> a failed step is a *gap*, not a violation; the summed inequality on a
  compressed run is one sample of an expectation, so a sample above the bound is inconclusive (the Monte Carlo
  decides);
* ``fedsgm.montecarlo``: E[S_T] against the summed bound (violates if the 95% interval lies above the bound,
  inconclusive if it straddles it, supports if below) and the deterministic conclusion of the run's theorem on
  every compressed run (from_checks);
* ``fedsgm.adversarial``: the searched instances of Theorem 1 or 2 (from_checks; a failure cites the search's
  result hash and its worst instance);
* ``fedsgm.search``: per (claim, structured family) the claim's own check on the best instance the tight search
  found, read by :func:`repro.search_audit.evidence` (failed violates with the result hash and instance as replay,
  within tolerance is inconclusive, held supports);
* ``fedsgm.pep``: per claim curve, the certified worst case (performance estimation) of f(w_bar) - f*, g(w_bar) and
  the emptiness of A against the claim's eps (:func:`repro.tightness.evidence`, method ``certified worst case``): a
  bound below the value an extracted instance attains violates, one at or above the certified value supports;
* ``fedsgm.exact``: per tiny instance and theorem, the exact probability over every Rand-K pattern that the
  deterministically stated conclusion fails (:func:`repro.exact_audit.evidence`, method ``exact probability``): > 0 violates
  (replay: the result hash and a failing pattern), 0 supports;
* ``fedsgm.failsearch``: the same exact probability at the instance of a structured degenerate family where a search
  finds it largest (:mod:`repro.failure_search`), per theorem, read the same way; its summary adds the family, the
  horizon profile and whether the in-expectation version survives;
* the symbolic findings of :mod:`bounds.fedsgm.findings` -> :func:`repro.verdicts.from_findings` (experiment-settings
  findings bear on Figure 1, not on a claim's truth, and are left out);
* a claim no finite run can decide (an almost-sure limit, an order statement without a symbolic check) gets
  ``not checkable`` evidence from its mode;
* the findings of :mod:`bounds.fedsgm.remarks` -> the remarks' statements they name
  (:func:`.statements.remark_evidence`: limits, directions, hard against soft switching, communication, the data
  split); its pairs of places and :mod:`bounds.fedsgm.boundaries`' boundary values are findings (the pairs of
  constants and of beta bear on the theorems they name; the others on no claim's verdict);
* ``fedsgm.figure1`` -> the statements about Figure 1: per-seed statistics of the paired hard/soft runs of the
  paper's setting, decided by :func:`repro.comparisons.compare` (a t-interval over seeds against the range the
  statement asserts, with a stated reading and tolerance: :data:`.statements.AROUND_4X`,
  :data:`.statements.OBJECTIVE_RTOL`, ...).
"""
from __future__ import annotations

import functools

import numpy as np

from bounds.fedsgm import claims as B
from bounds.fedsgm import boundaries as BB
from bounds.fedsgm import findings as BF
from bounds.fedsgm import remarks as BR
from bounds.audit import DISCREPANCY, Finding, producer
from bounds.fedsgm.steps import STEPS
from repro.papers.fedsgm.runs.theorems import FIGURE1_DEFAULTS, Figure1Config, neyman_pearson_problem
from repro.papers.fedsgm import conditions as C
from repro.papers.fedsgm import errata as ERR
from repro.papers.fedsgm.settings import PRINTED as SETTINGS
from repro import errata, exact_audit, proof_audit, search_audit, tightness
from repro.tables import findings_table
from repro.verdicts import Bearing, ClaimVerdict, Evidence, from_findings, from_modes, roll_up
from repro.papers.fedsgm import crossrefs as CROSSREFS
from repro.papers.fedsgm import output as OUTPUT
from repro.papers.fedsgm.evidence import (
    CLAIM_IDS, _adversarial_evidence, _montecarlo_evidence, _theory_evidence, montecarlo_groups, theory_tallies,
)
from repro.papers.fedsgm.section import (
    _SEARCH_INTRO, _adversarial_part, _claims_part, _exact_part, _failures_part, _figure1_part, _montecarlo_part,
    _pep_part, _remarks_part, claim_rows,
)
from repro.papers.fedsgm.statements import STATEMENT_IDS, STATEMENTS, remark_evidence, statement_evidence

#: the audit's interface: what the shared layers read (:class:`repro.paper.Paper`: AUDIT_EXPERIMENTS, STATEMENTS,
#: findings, verdicts, audit_section; STATEMENTS is defined in :mod:`.statements`), the proofs' dependencies, the
#: evidence, and the findings' producers and inputs defined here
__all__ = [
    "AUDIT_EXPERIMENTS", "STATEMENTS", "audit_section", "findings", "verdicts",
    "DEPENDS_ON", "evidence", "symbolic_evidence",
    "NP_BIAS", "NP_LEVELS", "NP_PROBLEM_QUOTE", "condition_findings", "figure1_values", "np_solution", "np_solvability",
]


AUDIT_EXPERIMENTS = ("fedsgm.theory", "fedsgm.montecarlo", "fedsgm.adversarial", "fedsgm.figure1", "fedsgm.search",
                     "fedsgm.exact", "fedsgm.failsearch", "fedsgm.pep", "fedsgm.steps")

#: each lemma, inequality and theorem -> the claims its proof uses, as the paper's appendix proofs say:
#: Theorem 6's proof (Appendix A.2.1) gets (5) "using Lemmas 3 and 4", then the display after (5) by convexity, Young
#: and Lemma 5, sums it (display 11) and picks eta, eps (eqs. (5)-(8)); Theorem 7's proof (Appendix A.2.2) does the
#: same with the soft Term-B1/B2 bounds and Lemma 3, sums it, eq. (10); Theorems 8 and 9 (Appendix A.3.1, A.3.2)
#: repeat them with q_u = 0 (eqs. (11)-(15), (17)-(18)). Theorems 1 and 2 of the main text are Theorems 6/8 and 7/9
#: (with and without compression); the stated theorems rest on the constants their proofs derive (``*.proof``).
#: The special cases and the round complexity are read off Theorems 1-2 (Discussion after Theorem 2, Conclusion), the
#: cases without compression off their uncompressed forms, Theorems 8-9;
#: the derived soft-beta condition is the soft proof's summed inequality under the stated constants.
def _case_theorems(case) -> tuple[str, ...]:
    """The theorems a special case is read off: Theorems 8 and 9 (the uncompressed ones, Appendix A.3) where the case
    sets q_u = 0 ("centralized with no compression", "no compression"), else Theorems 1 and 2."""
    return ("fedsgm.thm8", "fedsgm.thm9") if case.substitution.get(B.q) == 0 else ("fedsgm.thm1", "fedsgm.thm2")


DEPENDS_ON: dict[str, tuple[str, ...]] = {
    "fedsgm.eq5": ("fedsgm.lemma3", "fedsgm.lemma4"),
    "fedsgm.R_hard": ("fedsgm.eq5", "fedsgm.lemma5"),
    "fedsgm.R_soft": ("fedsgm.lemma3", "fedsgm.lemma4.soft", "fedsgm.lemma5"),
    "fedsgm.S_summed": ("fedsgm.R_hard", "fedsgm.R_soft"),
    "fedsgm.thm6.proof": ("fedsgm.S_summed",),
    "fedsgm.thm7.proof": ("fedsgm.S_summed",),
    "fedsgm.thm8.proof": ("fedsgm.S_summed",),
    "fedsgm.thm9.proof": ("fedsgm.S_summed",),
    "fedsgm.thm6": ("fedsgm.thm6.proof",),
    "fedsgm.thm7": ("fedsgm.thm7.proof",),
    "fedsgm.thm8": ("fedsgm.thm8.proof",),
    "fedsgm.thm9": ("fedsgm.thm9.proof",),
    "fedsgm.thm1": ("fedsgm.thm6", "fedsgm.thm8"),
    "fedsgm.thm2": ("fedsgm.thm7", "fedsgm.thm9"),
    "fedsgm.derived.soft_beta": ("fedsgm.S_summed",),
    "fedsgm.complexity": ("fedsgm.thm1", "fedsgm.thm2"),
} | {case.claim.id: _case_theorems(case) for case in B.SPECIAL_CASES} | {
    # the remarks' statements (bounds.fedsgm.remarks): "we demonstrated that soft switching recovers the hard regime
    # when beta >= 2/eps" rests on Theorems 1 and 2; "our analysis demonstrates [...] the same order" on the proofs'
    # tolerances; the sqrt(E) drift scaling and the 1/sqrt(T) rate on the summed inequality (and Lemma 5's drift)
    "fedsgm.remark.soft_recovers_hard": ("fedsgm.thm1", "fedsgm.thm2"),
    "fedsgm.remark.soft_same_order": ("fedsgm.thm6.proof", "fedsgm.thm7.proof"),
    "fedsgm.remark.drift_sqrtE": ("fedsgm.S_summed", "fedsgm.lemma5"),
    "fedsgm.remark.explicit_dependence": ("fedsgm.S_summed",),
}


# ---------------------------------------------------------------------------- findings
#: the constraint levels of problem (1) whose solvability the audit computes: eq. (1)'s 'g(w) ≤ 0' and the prose's
#: 'g(w) ≤ ε' (Section 4.1), each with and without the bias column
NP_LEVELS = (0.0, FIGURE1_DEFAULTS["eps"])
NP_BIAS = (True, False)
#: the paper's words the NP solvability findings are about
NP_PROBLEM_QUOTE = ("Section 4.1: 'We consider the constrained optimization problem in (1)'; eq. (1): 's.t. g(w) := "
                    "(1/n) Σ_j g_j(w) ≤ 0'; Theorem 1 (Section 3): 'Let D := ‖w0 − w*‖'; Section 4.1: 'the "
                    "constraint g(w) ≤ ε ensures the minority class loss does not exceed the tolerance'")


@functools.cache
def np_solution(bias: bool, level: float) -> tuple:
    """Problem (1) of the NP experiment (split seed 0) at constraint ``level`` and what the solver finds:
    ``(problem, optimum, "")``, or ``(problem, None, reason)`` when it certifies that there is no minimiser."""
    from repro.papers.fedsgm.problems.common import NoSolutionError
    config = Figure1Config(switching="hard", variant="default" if bias else "no_bias", profile="quick", bias=bias,
                           level=level)
    problem, _ = neyman_pearson_problem(config, np.random.default_rng(0))
    try:
        return problem, problem.solve(np.zeros(problem.dim)), ""
    except NoSolutionError as exc:
        return problem, None, str(exc).splitlines()[0][:400]


def _reading(bias: bool, level: float) -> str:
    return f"problem (1) at level {level:g}, {'with' if bias else 'without'} the bias column (split seed 0)"


def figure1_values(bias: bool = True, level: float = 0.0, tag: str = "") -> dict:
    """Figure 1's settings and, from the solver, the D of problem (1) at ``level`` (None without a minimiser): the
    input of :func:`bounds.fedsgm.findings.settings_findings`."""
    problem, optimum, _ = np_solution(bias, level)
    return {"T": FIGURE1_DEFAULTS["T"], "E": FIGURE1_DEFAULTS["E"], "n": FIGURE1_DEFAULTS["n_clients"],
            "q_u": problem.dim / FIGURE1_DEFAULTS["K"] - 1, "G": problem.G, "eps": FIGURE1_DEFAULTS["eps"],
            "eta": FIGURE1_DEFAULTS["eta"], "beta": FIGURE1_DEFAULTS["beta"],
            "D": None if optimum is None else optimum.D, "tag": tag, "reading": _reading(bias, level)}


@producer
def np_solvability(level: float) -> list:
    """At constraint ``level``: one finding for the readings (with / without bias) whose problem (1) the solver
    certifies to have no minimiser, and the regime finding (eps and rounds vs D) for each reading that has one."""
    solved = [bias for bias in NP_BIAS if np_solution(bias, level)[1] is not None]
    out = [BF.figure1_eps(figure1_values(bias, level, f".{'bias' if bias else 'nobias'}.{level:g}"))
           for bias in solved]
    missing = [bias for bias in NP_BIAS if bias not in solved]
    if not missing:
        return out
    readings = " and ".join(_reading(b, level) for b in missing)
    reasons = "; ".join(dict.fromkeys(np_solution(b, level)[2] for b in missing))
    return [Finding(
        f"fedsgm.figure1.no_solution.{level:g}", "experiment-settings", ("fedsgm.thm1", "fedsgm.thm2"), DISCREPANCY,
        f"{NP_PROBLEM_QUOTE}. The solver certifies that {readings} {'have' if len(missing) > 1 else 'has'} no "
        "minimiser, so w* and D (hence the theorems' eps and eta) do not exist for this reading of the figure's "
        "problem.",
        reasons, "LP certificate / cvxpy")] + out


@functools.cache
def _findings_cached() -> tuple:
    """The symbolic findings, the settings findings of the NP experiment and the solvability of its problem (1)
    (results-independent: built once per process)."""
    findings = BF.audit_findings(np.random.default_rng(0)) + BF.settings_findings(figure1_values())
    for level in NP_LEVELS:
        findings += np_solvability(level)
    return tuple(findings) + tuple(condition_findings())


def condition_findings() -> list:
    """Figure 1's printed loss, local solver and compressor against Assumptions 1-2 (:mod:`.conditions`), on problem
    (1) with the bias column at level 0 (split seed 0), the problem the figure's runs solve."""
    problem = np_solution(True, 0.0)[0]
    quote = {p.id: (p.where, p.quote) for p in SETTINGS}
    return [C.assumption1(problem, *quote["fedsgm.setting.loss"]),
            C.exact_gradients(problem, *quote["fedsgm.setting.local-solver"]),
            C.randk_assumption2(*quote["fedsgm.setting.randk-compressor"])]


@functools.cache
def _remark_findings() -> tuple:
    """The findings of :mod:`bounds.fedsgm.remarks` (Figure 1's split counted on problem (1) with the bias column at
    level 0, split seed 0: objective-class and constraint-class samples, clients) and of
    :mod:`bounds.fedsgm.boundaries` (results-independent: built once per process)."""
    problem = np_solution(True, 0.0)[0]
    counts = (int(np.sum(problem.counts0)), int(np.sum(problem.counts1)), int(problem.n_clients))
    return tuple(BR.remark_findings(counts)) + tuple(BB.boundary_findings())


def findings(results: dict) -> list:
    """Every finding this audit shows, in report order: the symbolic ones, Figure 1's settings and the solvability of
    its problem (1), the remarks', pairs' and boundary values' findings (results-independent), then one per displayed
    proof step that ``fedsgm.steps`` refuted (``results`` = ``{experiment: results}``, possibly ``{}``)."""
    return (list(_findings_cached()) + list(_remark_findings())
            + proof_audit.findings(results.get("fedsgm.steps", ()), STEPS) + CROSSREFS.findings()
            + OUTPUT.output_findings(results))


def _findings(results: dict) -> list:
    """:func:`findings` under another name, for the functions whose parameter ``findings`` hides it."""
    return findings(results)


# ---------------------------------------------------------------------------- evidence and verdicts
def _mode_evidence(symbolic_evidence: list[Evidence]) -> list[Evidence]:
    """``not checkable`` evidence for every claim whose mode no finite run can decide and that no symbolic finding
    decides either (:func:`repro.verdicts.from_modes`)."""
    return from_modes(B.CLAIMS, {e.claim for e in symbolic_evidence if e.bearing is not Bearing.NOT_CHECKABLE})


def symbolic_evidence(findings) -> list[Evidence]:
    """The findings' evidence about the claims (:func:`repro.verdicts.from_findings`, which leaves out the
    experiment-settings findings: they are about Figure 1's settings, not about a claim's truth)."""
    return from_findings(findings, CLAIM_IDS)


_RANDK_PATTERN = "Rand-K patterns (kept coordinate per round and client)"


def evidence(results: dict, findings=None) -> list[Evidence]:
    """All the evidence this audit computes about the claims of :data:`bounds.fedsgm.claims.CLAIMS` and the statements of
    :data:`STATEMENTS` from ``results`` (``{experiment: results}``; a missing experiment contributes nothing) and
    the symbolic ``findings`` (default: :func:`findings`)."""
    findings = _findings(results) if findings is None else findings
    tallies, _ = theory_tallies(results.get("fedsgm.theory", ()))
    ev = _theory_evidence(tallies)
    ev += _montecarlo_evidence(montecarlo_groups(results.get("fedsgm.montecarlo", ())))
    ev += _adversarial_evidence(results.get("fedsgm.adversarial", ()))
    ev += search_audit.evidence(results.get("fedsgm.search", ()), "fedsgm.search")
    for experiment in ("fedsgm.exact", "fedsgm.failsearch"):
        ev += exact_audit.evidence(results.get(experiment, ()), experiment, fails="the conclusion fails",
                                   pattern_words=_RANDK_PATTERN)
    ev += tightness.evidence(results.get("fedsgm.pep", ()))
    ev += proof_audit.evidence(proof_audit.rows(results.get("fedsgm.steps", ())), CLAIM_IDS)
    symbolic = symbolic_evidence(findings)
    return (ev + symbolic + _mode_evidence(symbolic) + statement_evidence(results.get("fedsgm.figure1", ()))
            + remark_evidence(findings))


def verdicts(results: dict, findings=None) -> list[ClaimVerdict]:
    """One verdict per claim of :data:`bounds.fedsgm.claims.CLAIMS` and per statement of :data:`STATEMENTS`, rolled up
    from :func:`evidence` with :data:`DEPENDS_ON`."""
    return roll_up(CLAIM_IDS + STATEMENT_IDS, evidence(results, findings), DEPENDS_ON, errata.readings(ERR))


# ---------------------------------------------------------------------------- the section
def audit_section(results, profile: str, verdicts) -> str:
    shown = findings(results)
    rows, failures = claim_rows(results["fedsgm.theory"], shown, verdicts)
    out = ["## FedSGM (Switching Gradient Methods for Constrained Federated Optimization)", ""]
    out += _claims_part(results["fedsgm.theory"], rows, profile)
    out += _failures_part(failures)
    out += ["### Symbolic and settings findings", "", findings_table(shown), ""]
    out += _montecarlo_part(results["fedsgm.montecarlo"])
    out += _adversarial_part(results["fedsgm.adversarial"])
    out += search_audit.section(results.get("fedsgm.search", ()), "fedsgm.search", _SEARCH_INTRO,
                                reach=tightness.claim_reach(results.get("fedsgm.pep", ())))
    out += _exact_part(results.get("fedsgm.exact", ()), results.get("fedsgm.failsearch", ()))
    out += _pep_part(results.get("fedsgm.pep", ()))
    out += proof_audit.section(results.get("fedsgm.steps", ()))
    out += _figure1_part(results["fedsgm.figure1"], verdicts)
    out += _remarks_part(verdicts)
    return "\n".join(out)
