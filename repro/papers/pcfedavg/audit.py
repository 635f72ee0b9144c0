"""PC-FedAvg's audit, the part of the paper the shared layers load (:mod:`repro.paper`): one computed verdict per claim
and per statement about a figure (:func:`verdicts`, one :class:`repro.verdicts.ClaimVerdict` each, rolled up by
:func:`repro.verdicts.roll_up` from all of the evidence: :func:`claim_evidence` about the claims,
:func:`.statements.statement_evidence` about :data:`STATEMENTS`, along the proofs' dependencies :data:`DEPENDS_ON`),
the findings (:func:`findings`), and PC-FedAvg's section of ``reports/pcfedavg.md`` (its detail page)
(:func:`audit_section`, reading the results of :data:`AUDIT_EXPERIMENTS`).

One module per job besides: :mod:`.evidence` (the claim evidence from runs: the per-run checks, the random and
one-active-constraint searches, the rate sweep), :mod:`.statements` (Section 5's statements about Figures 1-4 and
their evidence under each reading of Algorithm 1), :mod:`.section` (the Markdown of the section's parts); what the
figures compute too comes from :mod:`.summaries`. The findings' producers are defined here: a finding names the
function that computed it (``repro.papers.pcfedavg.audit.<name>``, as ``python -m repro findings`` prints it); so is
the evidence from the re-derived proof steps (:func:`_step_evidence`, with the proof structure it files them under,
:data:`SHARED_STEPS`).

Evidence and its bearing (:func:`claim_evidence`):

* per-run checks of ``pcfedavg.theory`` ((CR) path, and separately the printed line-8 path): per claim, the runs
  whose hypotheses hold are counted; a run with a violated outcome violates the claim (replay: the worst one), a run
  whose Monte-Carlo confidence interval straddles the bound is inconclusive, the rest support it
  (:func:`repro.verdicts.from_checks`);
* the random search of ``pcfedavg.adversarial``: every checked claim on ``budget`` instances, a failed check
  violates (replay: the run and the trial);
* the one-active-constraint runs of ``pcfedavg.adversarial`` (deterministic): observed/bound > 1 with the
  hypotheses met violates Prop. 4.8 (ii);
* the optimisation-based search ``pcfedavg.search`` (one run per claim and structured family,
  :mod:`repro.papers.pcfedavg.runs.search`), its best instance re-checked on each reading of Algorithm 1 and read
  by :func:`repro.search_audit.evidence`: failed violates (replay: the run, the instance and the reading), passed
  with observed above the bound is inconclusive, held supports (method "adversarial");
* the re-derived proof steps (:func:`bounds.pcfedavg.findings.proof_steps`): a step that is not implied is a gap
  in the claims whose proof contains it, and a claim whose steps all follow is supported symbolically;
* the symbolic findings (:func:`bounds.pcfedavg.findings.audit_findings`) through
  :func:`repro.verdicts.from_findings`;
* the rate sweep ``pcfedavg.rates``: a finite-R slope cannot decide an order statement (not checkable), and an
  order statement without any symbolic check is not checkable either (computed from the claim's mode);
* the certified worst cases of ``pcfedavg.pep`` (performance estimation of noise-free Algorithm 1 against Props.
  4.7 and 4.8 (i)-(iii), :mod:`repro.papers.pcfedavg.runs.pep`): per claim curve, a printed bound below the
  certified worst case beyond the solver margin violates, every point certified supports, with the largest
  worst case / bound (:func:`repro.tightness.evidence`, method "certified worst case").
* ``pcfedavg.failsearch``: Lemma 4.4's exact failure probability over every noise sign path at the instance of a
  structured degenerate family where a search finds it largest (:mod:`.runs.failsearch`, read by
  :mod:`repro.exact_audit`, on the run's reading of line 8): above 0 violates, 0 supports
  (:func:`_failsearch_evidence`).

The experiment-settings findings (Section 5's step size and penalty schedule) bear on the figures, not on the
truth of a claim, and are not evidence (as :data:`repro.verdicts.DISCREPANCY_BEARING` says of their discrepancies);
nor are the method findings (:func:`method_findings`: the paper's words about its method, quoted, against one run of
the suite's Algorithm 1 on a tiny instance). :func:`findings` lists every finding the section shows.

Section 5's statements about Figures 1-4 (:data:`STATEMENTS`) get verdicts too
(:func:`.statements.statement_evidence`): "feasible throughout" and "drift toward infeasible iterates" per run
(:func:`repro.verdicts.from_checks`, distance > :data:`.statements.FEAS_TOL`); orderings and trends from per-seed
paired statistics (:func:`repro.comparisons.compare`). Remark 3.6's direction and comparison statements get theirs from
the symbolic findings of :mod:`bounds.pcfedavg.remarks` (:func:`remark_evidence`).
"""
from __future__ import annotations

import functools
import math
from dataclasses import replace

import numpy as np
import sympy as sp

from bounds.pcfedavg import claims as B
from bounds.pcfedavg import findings as BF
from bounds.pcfedavg import boundaries as BND
from bounds.pcfedavg import remarks as REM
from bounds.audit import CONSISTENT, DISCREPANCY, Finding, fmt_point, producer
from bounds.pcfedavg.steps import STEPS
from repro import errata, proof_audit, search_audit, tightness
from repro import exact_audit
from repro.papers.pcfedavg import errata as ERR
from repro.tables import findings_table, select_results
from repro.verdicts import (
    UNDECIDABLE_MODES, Bearing, ClaimVerdict, Evidence, from_findings, from_modes, roll_up,
)
from repro.papers.pcfedavg.algorithms import pcfedavg as alg
from repro.papers.pcfedavg.problems.instances import random_instance
from repro.papers.pcfedavg.problems.personalized import PersonalizedProblem
from repro.papers.pcfedavg.runs import data as data_exp
# the other parts of the audit; besides what this module uses, the names tests/pcfedavg, tests/test_*.py and
# notebooks/pcfedavg.py read from the audit (A.ONE_ACTIVE_TOL, A._exact_row, A.RATIO_TIE, ...) stay importable from
# here (:data:`__all__`). _steps is read from this namespace by _step_evidence, so that replacing A._steps replaces it.
from repro.papers.pcfedavg import crossrefs as CROSSREFS
from repro.papers.pcfedavg import output as OUTPUT
from repro.papers.pcfedavg.evidence import (
    ONE_ACTIVE_TOL, _exact_evidence, _one_active_evidence, _rate_evidence, _reading, _search_evidence, _steps,
    _theory_evidence,
)
from repro.papers.pcfedavg.section import (
    RATIO_TIE, _audit_data, _audit_exact, _audit_rates, _audit_search, _audit_synthetic, _claim_rows, _data_summary,
    _exact_row, _local_steps_rows, _pep_part,
)
from repro.papers.pcfedavg.statements import (
    FEAS_TOL, FIGURE_DATASET, REMARK_STATEMENT_IDS, STATEMENTS, _feasible_throughout, _local_steps_improve,
    _outperforms, statement_evidence,
)

#: what the shared layers (:mod:`repro.paper`: AUDIT_EXPERIMENTS, verdicts, audit_section, findings, STATEMENTS), the
#: report, the notebook and the tests read from the audit, defined here or in :mod:`.evidence`, :mod:`.statements`,
#: :mod:`.section`
__all__ = [
    "AUDIT_EXPERIMENTS", "STATEMENTS", "audit_section", "findings", "verdicts",
    "DEPENDS_ON", "claim_evidence", "statement_evidence", "remark_evidence", "remark_findings", "budgets_finding", "symbolic_findings", "method_findings", "agents_finding",
    "schedule_finding", "finding_round_start", "finding_block_update", "finding_feasibility", "finding_line8",
    "finding_data_ownership",
    "RHO_CONSTANT_TOL", "TINY", "UNDECIDABLE_MODES", "alg", "data_exp", "_settings", "_schedule_findings",
    "_step_evidence", "_steps",
    "FEAS_TOL", "FIGURE_DATASET", "ONE_ACTIVE_TOL", "RATIO_TIE", "_claim_rows", "_data_summary", "_exact_evidence",
    "_exact_row", "_feasible_throughout", "_local_steps_improve", "_local_steps_rows", "_outperforms",
]


AUDIT_EXPERIMENTS = ("pcfedavg.theory", "pcfedavg.rates", "pcfedavg.adversarial", "pcfedavg.comparison",
                     "pcfedavg.compact", "pcfedavg.local_steps", "pcfedavg.search", "pcfedavg.pep", "pcfedavg.steps", "pcfedavg.exact",
                     "pcfedavg.failsearch")


#: Each theorem / proposition / lemma -> the claims its proof uses, as the paper's proofs say (the step labels are
#: the paper's; ``bounds.pcfedavg.findings.proof_steps`` re-derives each step and names what it uses).
DEPENDS_ON: dict[str, tuple[str, ...]] = {
    # Lemma 4.1, second display: L_G with sigma = max_i sigma_i bounds every L_{G_i} of the first display
    "pcfedavg.lemma4.1": ("pcfedavg.lemma4.1.i",),
    # Lemma 4.3: (L4.3-b)/(3) use Lemma 4.1; (L4.3-c) is co-coercivity of a convex (Lemma 4.2) L_G-smooth function
    "pcfedavg.lemma4.3": ("pcfedavg.lemma4.1", "pcfedavg.lemma4.2"),
    # Lemma 4.4: (L4.4-b) "convexity (Lemma 4.2) + descent lemma (Lemma 4.1)"
    "pcfedavg.lemma4.4": ("pcfedavg.lemma4.1", "pcfedavg.lemma4.2"),
    # Lemma 4.5: (L4.5-c) co-coercivity per agent (Lemmas 4.1, 4.2); (L4.5-e) the constant L_G of Lemma 4.1
    "pcfedavg.lemma4.5": ("pcfedavg.lemma4.1", "pcfedavg.lemma4.2"),
    # Lemma 4.6: (L4.6-c) "then Lemma 4.4"; (L4.6-d) "Lemma 4.3 on the gamma^2 term"
    "pcfedavg.lemma4.6": ("pcfedavg.lemma4.3", "pcfedavg.lemma4.4"),
    # Prop. 4.7: (7) is Lemma 4.6 summed over k; (P4.7-a) is Lemma 4.5 summed over the rounds
    "pcfedavg.prop4.7": ("pcfedavg.lemma4.5", "pcfedavg.lemma4.6"),
    # Prop. 4.8 (i): (P4.8-a)-(8) with E, the right side of Prop. 4.7
    "pcfedavg.prop4.8.i": ("pcfedavg.prop4.7",),
    # (12): (P4.8-g), the largest root of (rho/m) a^2 - sqrt(D) a - E, E from Prop. 4.7
    "pcfedavg.eq12": ("pcfedavg.prop4.7",),
    # Prop. 4.8 (ii): "(12) squared"; (iii): (P4.8-h) with (12)
    "pcfedavg.prop4.8.ii": ("pcfedavg.eq12",),
    "pcfedavg.prop4.8.iii": ("pcfedavg.eq12",),
    # Theorem 3.4 (i)-(iii): Prop. 4.8 (i)-(iii) with K = RH, rho = sqrt(R), gamma = 1/sqrt(R) (T3.4-a)
    "pcfedavg.thm3.4.i": ("pcfedavg.prop4.8.i",),
    "pcfedavg.thm3.4.ii": ("pcfedavg.prop4.8.ii",),
    "pcfedavg.thm3.4.iii": ("pcfedavg.prop4.8.iii",),
    # Remark 3.5 reads the leading powers of 1/eps off Theorem 3.4
    "pcfedavg.remark3.5.subopt": ("pcfedavg.thm3.4.i", "pcfedavg.thm3.4.iii"),
    "pcfedavg.remark3.5.feas": ("pcfedavg.thm3.4.ii",),
}

#: Steps that ``proof_steps`` files under the shared proofs of Prop. 4.8 and Theorem 3.4 -> the claims whose proof
#: contains them. (P4.8-a), (P4.8-b) lead to (8), which all parts use; (P4.8-c) and (8) only matter for the parts
#: that keep the penalty term ((i) drops it and is re-derived with the definitions' factor rho/(2m): step (i) and
#: finding pcfedavg.P4.8-c.half); (9)-(P4.8-h) are the route to (12), (ii) and (iii).
_PROP48_ALL = ("pcfedavg.prop4.8.i", "pcfedavg.eq12", "pcfedavg.prop4.8.ii", "pcfedavg.prop4.8.iii")
_PROP48_PENALTY = ("pcfedavg.eq12", "pcfedavg.prop4.8.ii", "pcfedavg.prop4.8.iii")
SHARED_STEPS = {"pcfedavg.prop4.8": {"(P4.8-a)": _PROP48_ALL, "(P4.8-b)": _PROP48_ALL},
                "pcfedavg.thm3.4": {}}
SHARED_DEFAULT = {"pcfedavg.prop4.8": _PROP48_PENALTY,
                  "pcfedavg.thm3.4": ("pcfedavg.thm3.4.i", "pcfedavg.thm3.4.ii", "pcfedavg.thm3.4.iii")}


@functools.cache
def symbolic_findings() -> tuple:
    """The symbolic findings of :mod:`bounds.pcfedavg.findings` (results-independent; computed once per process)."""
    return tuple(BF.audit_findings(np.random.default_rng(0)))


def _step_evidence(steps=None) -> list[Evidence]:
    """Per claim: one gap per re-derived step that is not implied (source ``proof steps <step>``, so that each is its
    own root cause, or an instance of the erratum that explains it), else support when every step was checked and
    follows. A row with status ``BF.NOT_CHECKED`` is no verdict: it counts as neither a followed step nor a gap, and
    a claim with such a row and no gap gets a not-checkable line (its steps are not all checked), not support.
    ``steps`` (default: ``proof_steps()``) lets a test pass a modified table."""
    ids = {c.id for c in B.CLAIMS}
    per_claim: dict[str, list[dict]] = {}
    for s in (_steps() if steps is None else steps):
        if s["claim"] in ids:
            targets = (s["claim"],)
        else:
            targets = SHARED_STEPS[s["claim"]].get(s["step"], SHARED_DEFAULT[s["claim"]])
        for c in targets:
            per_claim.setdefault(c, []).append(s)
    out = []
    for c in (c.id for c in B.CLAIMS):
        rows = per_claim.get(c)
        if not rows:
            continue
        unchecked = [s for s in rows if s["status"] == BF.NOT_CHECKED]
        checked = [s for s in rows if s["status"] != BF.NOT_CHECKED]
        bad = [s for s in checked if s["status"] == BF.NOT_IMPLIED]
        note = (f"; {len(unchecked)} not checked: " + ", ".join(s["step"] for s in unchecked)) if unchecked else ""
        if bad:
            out += [Evidence(c, f"proof steps {s['step']}", Bearing.GAP,
                             f"the re-derived step {s['step']} is not implied ({len(bad)} of {len(checked)} steps of "
                             f"the proof): {s['evidence']}" + note) for s in bad]
        elif unchecked:
            out.append(Evidence(c, "proof steps", Bearing.NOT_CHECKABLE,
                                f"{len(checked)} checked re-derived steps follow" + note))
        else:
            out.append(Evidence(c, "proof steps", Bearing.SUPPORTS,
                                f"all {len(rows)} re-derived steps follow"))
    return out


@functools.cache
def remark_findings() -> tuple:
    """The direction, comparison, two-places and boundary-value findings (:mod:`bounds.pcfedavg.remarks`,
    :mod:`bounds.pcfedavg.boundaries`; results-independent, computed once per process)."""
    return tuple(REM.remark_findings() + BND.boundary_findings())


@functools.cache
def _method_findings() -> tuple:
    return tuple(method_findings())


def findings(results) -> list[Finding]:
    """Every finding the audit shows, in report order: symbolic, Remark 3.6's direction and comparison, the rates
    quoted in several places and the boundary values, the paper's descriptions of the method vs the suite's
    Algorithm 1, the penalty schedule, Section 5's l1 budgets, and (with the data runs) the step sizes and the number
    of agents."""
    comparison = results.get("pcfedavg.comparison", [])
    return (list(symbolic_findings()) + list(remark_findings()) + list(_method_findings())
            + _schedule_findings(comparison) + [budgets_finding()] + _settings(comparison, results.get("pcfedavg.local_steps", ()))
            + proof_audit.findings(results.get("pcfedavg.steps", ()), STEPS) + CROSSREFS.findings()
            + OUTPUT.output_findings(results))


def budgets_finding() -> Finding:
    """Section 5's l1 budgets per data set (the runs' ``HYPER``, its printed values) against "heterogeneous ℓ1
    constraints" of Sections 1 and 6 (:func:`bounds.pcfedavg.remarks.finding_heterogeneous_budgets`)."""
    return REM.finding_heterogeneous_budgets({d: tuple(data_exp.HYPER[d]["tau"]) for d in data_exp.DATASETS})


def claim_evidence(results) -> list[Evidence]:
    """All the evidence the audit computes about the claims, one :class:`Evidence` per (source, claim)."""
    ids = [c.id for c in B.CLAIMS]
    adversarial = results.get("pcfedavg.adversarial", [])
    symbolic = _step_evidence() + from_findings(findings(results), ids)
    evidence = (_theory_evidence(results.get("pcfedavg.theory", [])) + _search_evidence(adversarial)
                + _one_active_evidence(adversarial) + search_audit.evidence(results.get("pcfedavg.search", []), "pcfedavg.search", axis=ERR.LINE8_ID,
                                              labels=ERR.PATH_READING) + symbolic
                + _rate_evidence(results.get("pcfedavg.rates", []))
                + _exact_evidence(results.get("pcfedavg.exact", []))
                + _failsearch_evidence(results.get("pcfedavg.failsearch", []))
                + tightness.evidence(results.get("pcfedavg.pep", ()), _reading)
                + proof_audit.evidence(proof_audit.rows(results.get("pcfedavg.steps", ())), ids))
    return evidence + from_modes(B.CLAIMS, {e.claim for e in symbolic})


def _failsearch_evidence(runs) -> list[Evidence]:
    """``pcfedavg.failsearch``: Lemma 4.4's exact failure probability at the most likely failing instance of a
    structured family (:mod:`repro.exact_audit`: above 0 violates, 0 supports), on the reading of Algorithm 1's line 8
    its run used."""
    return [replace(e, reading=_reading(r)) for r in runs
            for e in exact_audit.evidence([r], "pcfedavg.failsearch", fails="Lemma 4.4 fails at some k",
                                          pattern_words="noise sign paths")]


def verdicts(results) -> list[ClaimVerdict]:
    """One verdict per claim of :data:`bounds.pcfedavg.claims.CLAIMS` and per statement of :data:`STATEMENTS`, rolled up
    from :func:`claim_evidence` and :func:`statement_evidence` under each reading of :mod:`.errata`."""
    ids = [c.id for c in B.CLAIMS] + [s.id for s in STATEMENTS]
    return roll_up(ids, claim_evidence(results) + statement_evidence(results) + remark_evidence(), DEPENDS_ON,
                   errata.readings(ERR))


def remark_evidence() -> list[Evidence]:
    """The evidence about Remark 3.6's direction and comparison statements (:data:`.statements.REMARK_STATEMENT_IDS`):
    the symbolic findings of :mod:`bounds.pcfedavg.remarks` that name them; it does not depend on the results."""
    return from_findings(remark_findings(), REMARK_STATEMENT_IDS)


def _settings(comparison, local_steps=()) -> list:
    """The step size of Figures 1-3 (per dataset) and of Figure 4 (per dataset and H) against the hypothesis of
    Props. 4.7-4.8 / Theorem 3.4, and the number of agents against m >= 2."""
    findings = []
    for runs, label in ((comparison, "{dataset}"), (local_steps, "{dataset}.figure4_H{H}")):
        for dataset in data_exp.DATASETS:
            seen = set()
            for r in select_results(runs, dataset=dataset, method="pcfedavg"):
                cfg, L_f = r.spec.config, r.meta["metadata"]["clients"]["L_f"]
                if cfg["local_steps"] in seen:
                    continue
                seen.add(cfg["local_steps"])
                rhos = data_exp.rho_schedule(cfg["rho_schedule"], cfg["rounds"])
                findings += BF.settings_findings({"dataset": label.format(dataset=dataset, H=cfg["local_steps"]),
                                                  "gamma": cfg["gamma"], "rho": max(rhos), "H": cfg["local_steps"],
                                                  "m": len(cfg["sigma"]), "L_f": L_f, "sigma": max(cfg["sigma"])})
    configs = [r.spec.config for r in list(comparison) + list(local_steps) if r.spec.config.get("method") == "pcfedavg"]
    return findings + ([agents_finding(tuple(sorted({len(c["sigma"]) for c in configs})))] if configs else [])


#: Section 5's words on the number of agents
AGENTS_WORDS = ("Section 5", "with m = 4 agents")


@producer
def agents_finding(ms: tuple) -> Finding:
    """The numbers of agents the runs use against every hypothesis of the claims that involves m alone (m >= 2 of
    Lemma 4.3, Lemma 4.6, Props. 4.7-4.8 and Theorem 3.4), each evaluated by sympy."""
    m = next(s for c in B.CLAIMS for h in c.hypotheses for s in h.free_symbols if s.name == "m")
    conditions = {h for c in B.CLAIMS for h in c.hypotheses if h.free_symbols == {m}}
    stated_in = sorted(c.id for c in B.CLAIMS if any(h in conditions for h in c.hypotheses))
    failing = [f"m = {v}: {h}" for v in ms for h in sorted(conditions, key=str) if not bool(h.subs(m, v))]
    where, words = AGENTS_WORDS
    return Finding("pcfedavg.settings.agents", "experiment-settings", tuple(stated_in),
                   DISCREPANCY if failing else CONSISTENT,
                   f"{where}: '{words}'. The runs' m = {', '.join(map(str, ms))} "
                   + (f"violate {'; '.join(failing)}" if failing else
                      f"satisfies {', '.join(map(str, sorted(conditions, key=str)))}")
                   + f", the hypothesis on m of {', '.join(stated_in)}.",
                   "m from the runs' sigma vectors; hypotheses from bounds.pcfedavg.claims.CLAIMS", "sympy substitution")


#: Section 5's words for its penalty: "an increasing penalty rho = (r + 10,000)^(1/4) at round r"
RHO_SCHEDULE_WORDS = "an increasing penalty rho = (r + 10,000)^(1/4) at round r"
#: the schedule counts as the theory's constant rho = sqrt(R) when every rho_r is within this relative distance of it
RHO_CONSTANT_TOL = 0.01


@producer
def schedule_finding(schedule: str, rounds: int):
    """Section 5's penalty schedule over its rounds against the theory's one constant rho = sqrt(R) (Props 4.7-4.8,
    Theorem 3.4): relative distance of every rho_r from sqrt(R)."""
    rhos = np.array(data_exp.rho_schedule(schedule, rounds))
    root = math.sqrt(rounds)
    dev = float(np.max(np.abs(rhos / root - 1)))
    ok = dev <= RHO_CONSTANT_TOL
    summary = (f"Section 5's \"{RHO_SCHEDULE_WORDS}\" stays within {dev:.2%} of sqrt(R) over its R = {rounds} rounds: "
               + ("the runs use the theory's constant rho = sqrt(R) (Props 4.7-4.8, Theorem 3.4) to the stated "
                  f"tolerance {RHO_CONSTANT_TOL:.0%}; the increase is immaterial." if ok else
                  f"more than the stated tolerance {RHO_CONSTANT_TOL:.0%}, so the runs do not use the one constant rho "
                  "= sqrt(R) the theory assumes."))
    return Finding("pcfedavg.settings.rho_schedule", "experiment-settings", ("pcfedavg.prop4.8.i", "pcfedavg.thm3.4.i"),
                   CONSISTENT if ok else DISCREPANCY, summary,
                   f"rho_0 = {rhos[0]:.6g}, rho_(R-1) = {rhos[-1]:.6g} (relative change {(rhos[-1] / rhos[0] - 1):.2%});"
                   f" sqrt(R) = {root:.6g}", "numeric")


def _schedule_findings(comparison) -> list:
    """The schedule of the runs (their config), or of the experiment's defaults when there are no runs."""
    cfg = comparison[0].spec.config if comparison else data_exp.DEFAULTS
    return [schedule_finding(cfg["rho_schedule"], int(cfg["rounds"]))]


# ---------------------------------------------------------------------------- the paper's words vs Algorithm 1
#: The paper's descriptions of its method, quoted (location, words), each checked against the suite's Algorithm 1.
ROUND_START_WORDS = ("Section 5", "As a result, agents start each round from different model states, which is "
                     "desirable for personalization.")
BLOCK_UPDATE_WORDS = ("Section 5", "Specifically, the server updates only the blocks corresponding to each agent "
                      "rather than fully averaging all blocks.")
FEASIBLE_WORDS = (("Section 6 (Conclusion)", "We proposed a projection-based multi-block federated algorithm that "
                   "enforces local feasibility at every iteration"),
                  ("Section 5", "whereas our iterates remain feasible throughout."))
LINE8_WORDS = ("Algorithm 1, line 8 (j != i)", "x_{i,k+1}^(j) := x_{i,k}^(j) - gamma (g~_{i,k}/m - sigma_i/m "
               "(x_{i,k}^(j) - xbar_{i,k}))")
#: states that agree to this absolute tolerance are the same (the checks below compare float64 iterates of a tiny
#: instance; rounding is ~1e-16, a genuine difference ~1e-2)
STATE_TOL = 1e-10
#: the tiny instance the method checks run Algorithm 1 on (``problems.instances.random_instance``): targets far
#: outside the boxes, so the constraints are active; deterministic oracle
TINY = {"seed": 0, "m": 3, "n": 2, "rounds": 10, "local_steps": 4, "rho": 1.0}


class _Recording:
    """An oracle that records the points line 7 evaluates (each agent's block average x_hat_i) and delegates."""

    def __init__(self, local):
        self._local, self.calls = local, []

    def __getattr__(self, name):
        return getattr(self._local, name)

    def stochastic_gradients(self, Y, rng):
        self.calls.append(np.array(Y, copy=True))
        return self._local.stochastic_gradients(Y, rng)


def _tiny(tiny: dict):
    """(problem with a recording oracle, z_0, params) of :data:`TINY`: the package's instance and Algorithm 1."""
    problem, z0 = random_instance(np.random.default_rng(tiny["seed"]), m=tiny["m"], n=tiny["n"], set_kinds=("box",),
                                  target_scale=3.0, nu=0.0)
    problem = PersonalizedProblem(_Recording(problem.local), problem.sigma, problem.sets)
    params = alg.PCFedAvgParams(gamma=0.5 * problem.gamma_max(tiny["rho"], tiny["local_steps"]), rounds=tiny["rounds"],
                                local_steps=tiny["local_steps"], x0=z0, rho=tiny["rho"], path="printed")
    return problem, z0, params


@producer
def finding_round_start(words=ROUND_START_WORDS, tiny=None):
    """Run the suite's Algorithm 1 on the tiny instance: does every agent start each round from the server's vector
    z_r (line 3)? Line 7's points x_hat_i at the first step of round r are compared with the average of z_r's
    blocks, and at later steps with each other (so the check can see agents that differ)."""
    tiny = TINY if tiny is None else tiny
    problem, _, params = _tiny(tiny)
    servers = []
    alg.run(problem, replace(params, evaluate=lambda z, r: servers.append(z.mean(axis=0)) or {}),
            np.random.default_rng(0))
    calls, H = problem.local.calls, tiny["local_steps"]
    start_gap = max(float(np.abs(calls[r * H] - servers[r]).max()) for r in range(tiny["rounds"]))
    spread = max(float(np.ptp(c, axis=0).max()) for c in calls)
    if start_gap > STATE_TOL or spread <= STATE_TOL:
        return None
    return Finding(
        "pcfedavg.method.round_start", "wording", (), DISCREPANCY,
        f"{words[0]}: \"{words[1]}\" -- in Algorithm 1 (line 3) every agent starts round r from the server's vector "
        "z_r; the suite's implementation does so (the proof of Lemma 4.5 uses it: x_(T_r) = x_(i,T_r) for all i).",
        f"tiny instance ({fmt_point(tiny)}): max over rounds and agents of |x_hat_i at the first step - mean of z_r's blocks| = "
        f"{start_gap:.3g} (<= {STATE_TOL:g}), while the agents' x_hat_i differ by up to {spread:.3g} within rounds",
        "one run of the suite's Algorithm 1 (printed line 8)")


@producer
def finding_block_update(words=BLOCK_UPDATE_WORDS, tiny=None):
    """One round of one local step on the tiny instance: is the server's z_1 the average of every block over all
    agents (line 10), or each agent's own block (the paper's words)?"""
    tiny = (TINY if tiny is None else tiny) | {"rounds": 1, "local_steps": 1}
    problem, z0, params = _tiny(tiny)
    z1 = alg.run(problem, params, np.random.default_rng(0)).z[0]
    X = np.broadcast_to(z0[None, None], (1, problem.m, problem.m, problem.n)).copy()
    g = problem.local.stochastic_gradients(X.mean(axis=-2)[0], np.random.default_rng(0))[None]
    X1 = alg._line8_printed(problem, X, g, params.rho[0], params.gamma)[0]
    to_full, to_own = float(np.abs(z1 - X1.mean(axis=0)).max()), float(np.abs(z1 - np.diagonal(X1).T).max())
    if to_full > STATE_TOL or to_own <= STATE_TOL:
        return None
    return Finding(
        "pcfedavg.method.block_update", "wording", (), DISCREPANCY,
        f"{words[0]}: \"{words[1]}\" -- line 10 of Algorithm 1 averages every block over all agents, "
        "z_(r+1)^(j) = (1/m) sum_i x_(i,T_(r+1))^(j), and so does the suite's implementation.",
        f"tiny instance, one step: |z_1 - (1/m) sum_i x_i| = {to_full:.3g} (<= {STATE_TOL:g}); |z_1 - own blocks "
        f"x_i^(i)| = {to_own:.3g}", "one round of the suite's Algorithm 1 against its own line 8")


@producer
def finding_feasibility(words=FEASIBLE_WORDS, tiny=None):
    """Algorithm 1 on the tiny instance (active constraints, feasible start): the largest distance of an agent's own
    block to its set over every local iteration; reported when an iterate leaves its set."""
    tiny = TINY if tiny is None else tiny
    problem, z0, params = _tiny(tiny)
    own = alg.run(problem, params, np.random.default_rng(0)).records["own_block_dist"]
    start = float(problem.sets.distance(z0).max())
    if own.max() <= FEAS_TOL or start > FEAS_TOL:
        return None
    k, i = np.unravel_index(int(np.argmax(own > FEAS_TOL)), own.shape)
    return Finding(
        "pcfedavg.method.feasibility", "wording", (), DISCREPANCY,
        " and ".join(f"{w[0]}: \"{w[1]}\"" for w in words) + " -- Algorithm 1 never projects: line 8 penalises "
        "dist(x_i^(i), X_i)^2 with a finite rho, so an iterate leaves its set where the constraint is active.",
        f"tiny instance ({fmt_point(tiny)}) from a feasible start (max distance {start:.3g}): agent {i}'s own block leaves X_{i} at "
        f"local iteration {k} (distance {own[k, i]:.3g} > {FEAS_TOL:g}); largest distance {own.max():.3g}",
        "one run of the suite's Algorithm 1 (printed line 8)")


def _sigma_field_jacobian() -> sp.Matrix:
    """Jacobian of the sigma-part of line 8 for one agent (m = 2, n = 1, own block first), in its two blocks."""
    x1, x2, s = sp.symbols("_x1 _x2 _s", positive=True)
    xhat = (x1 + x2) / 2
    field_ = sp.Matrix([s * sp.Rational(1, 2) * (x1 - xhat), -s / 2 * (x2 - xhat)])
    return field_.jacobian([x1, x2])


@producer
def finding_line8(words=LINE8_WORDS, tiny=None):
    """Line 8 as printed against (CR) (the step the analysis differentiates): one step from the tiny instance's
    start on both, and whether the sigma-part of line 8 is a gradient field (symmetric Jacobian)."""
    tiny = TINY if tiny is None else tiny
    problem, z0, params = _tiny(tiny)
    X = np.broadcast_to(z0[None, None], (1, problem.m, problem.m, problem.n)).copy()
    g = problem.local.stochastic_gradients(X.mean(axis=-2)[0], np.random.default_rng(0))[None]
    printed = alg._line8_printed(problem, X, g, params.rho[0], params.gamma)
    cr = X - params.gamma * problem.local_gradients(X, g, params.rho[0])
    gap = float(np.abs(printed - cr).max())
    J = _sigma_field_jacobian()
    symmetric = sp.simplify(J - J.T) == sp.zeros(2, 2)
    if gap <= STATE_TOL and symmetric:
        return None
    return Finding(
        "pcfedavg.method.line8", "wording", (), DISCREPANCY,
        f"{words[0]}: \"{words[1]}\" uses sigma_i/m (x_i^(j) - x_hat_i) where (CR) has sigma_i/m (x_i^(i) - x_hat_i): "
        "the printed update is not the gradient step the analysis differentiates" +
        ("" if symmetric else " (its sigma-part is not even a gradient field)") + ".",
        f"one step from the tiny instance's start: max |printed - (CR)| = {gap:.3g}; Jacobian of line 8's sigma-part "
        f"(m = 2, n = 1) {J.tolist()} symmetric: {symmetric}", "one step of both paths + sympy Jacobian")


#: Section 2.2's words on who holds which constraint set
OWNERSHIP_WORDS = ("Section 2.2", "In this case, agent i updates the cross estimate of agent j without requiring "
                   "access to X_j.")


#: the ownership check starts its step this far from the tiny instance's feasible z_0 (every coordinate), so that
#: the own-block penalty is active and a dependence on a set would show
OWNERSHIP_SHIFT = 100.0


def _one_step_of_agent(problem, z0, params, agent: int) -> np.ndarray:
    """Agent ``agent``'s multi-block vector after one step of line 8 as printed and of (CR), every agent starting
    from ``z0`` (line 3)."""
    X = np.broadcast_to(z0[None, None], (1, problem.m, problem.m, problem.n)).copy()
    g = problem.local.stochastic_gradients(X.mean(axis=-2)[0], np.random.default_rng(0))[None]
    printed = alg._line8_printed(problem, X, g, params.rho[0], params.gamma)[0, agent]
    cr = (X - params.gamma * problem.local_gradients(X, g, params.rho[0]))[0, agent]
    return np.stack([printed, cr])


@producer
def finding_data_ownership(words=OWNERSHIP_WORDS, tiny=None, agent: int = 0, replace_own: bool = False):
    """Who holds which set (Section 2.2): one step of the suite's line 8 (as printed and (CR)) on the tiny instance,
    then again with every other agent's set X_j replaced by the whole space; agent ``agent``'s update must not move.
    ``replace_own`` also replaces X_agent (a test's perturbation: that update does depend on it)."""
    from repro.constraints import ProductSet, Whole
    tiny = TINY if tiny is None else tiny
    problem, z0, params = _tiny(tiny)
    sets = ProductSet([s if j == agent and not replace_own else Whole(problem.n)
                       for j, s in enumerate(problem.sets.sets)])
    swapped = PersonalizedProblem(problem.local, problem.sigma, sets)
    start = z0 + OWNERSHIP_SHIFT
    gap = float(np.abs(_one_step_of_agent(problem, start, params, agent)
                       - _one_step_of_agent(swapped, start, params, agent)).max())
    away = float(problem.sets.distance(start).min())
    return Finding(
        "pcfedavg.method.ownership", "wording", (), CONSISTENT if gap <= STATE_TOL else DISCREPANCY,
        f"{words[0]}: \"{words[1]}\" -- " + (
            f"agent {agent}'s step (every block, line 8 as printed and (CR)) is the same whatever the other agents' "
            "sets are: it reads only its own X_i." if gap <= STATE_TOL else
            f"agent {agent}'s step changes when {'the sets' if replace_own else 'the other agents’ sets'} change."),
        f"tiny instance ({fmt_point(tiny)}), one step from z_0 + {OWNERSHIP_SHIFT:g} (every own block at distance "
        f">= {away:.3g} from its set): max |change of agent {agent}'s blocks| = {gap:.3g} "
        f"(tolerance {STATE_TOL:g}) with {'every set' if replace_own else 'every X_j, j != ' + str(agent)} replaced "
        "by the whole space", "two one-step runs of the suite's line 8 and (CR)")


def method_findings() -> list:
    """The paper's descriptions of the method against the suite's Algorithm 1 (no results needed)."""
    found = [finding_round_start(), finding_block_update(), finding_feasibility(), finding_line8(),
             finding_data_ownership()]
    return [f for f in found if f is not None]


def audit_section(results, profile: str, verdicts) -> str:
    """The section; ``verdicts`` is :func:`verdicts` of the same results (the report computes them once)."""
    out = (_audit_synthetic(results, profile, verdicts) + _audit_rates(results, verdicts) + _audit_search(results)
           + _audit_exact(results) + _pep_part(results.get("pcfedavg.pep", ())) + _audit_data(results, verdicts)
           + proof_audit.section(results.get("pcfedavg.steps", ())))
    out += ["### Symbolic and settings findings", "",
            "Symbolic findings, the paper's descriptions of the method against the suite's Algorithm 1 "
            "(`pcfedavg.method.*`), and the experiment settings:", "", findings_table(findings(results)), ""]
    return "\n".join(out)
