"""Mini-batch SSCA's audit, the part of the paper the shared layers load (:mod:`repro.paper`): one computed verdict per
claim of :data:`bounds.ssca.claims.CLAIMS` and per statement about a figure (:func:`verdicts`, one
:class:`repro.verdicts.ClaimVerdict` each, rolled up by :func:`repro.verdicts.roll_up` from all of the evidence:
:func:`evidence` about the claims, :func:`.statements.statement_evidence` about :data:`.statements.STATEMENTS`, along
the proofs' dependencies :data:`DEPENDS_ON`), the findings (:func:`findings`), and the section of ``reports/ssca.md``
(its detail page) (:func:`audit_section`, reading the results of :data:`AUDIT_EXPERIMENTS`; :mod:`repro.report`
computes the verdicts once and passes them in).

One module per job besides: :mod:`.evidence` (the per-run checks of Lemma 4 (51), the closed forms (35)-(36) and
(40)-(42) against cvxpy, Theorem 5's targeted instances, and the modes and trends of the limit statements),
:mod:`.statements` (Section VI's statements about Figures 2-4, the Conclusions' sentence on the experiments and
Section V's application of the theorems, and their evidence), :mod:`.section` (the Markdown of the section's parts,
one report part at a time: claims and verdicts, conditions and symbolic findings, Theorems 1-4 on small problems,
Figures 2-4 on MNIST, the literal (32), Theorem 5, the search, the certified worst cases, the exact failure
probabilities, what is not reproduced); what the figures compute too comes from :mod:`.summaries`. The findings are
gathered here (:func:`findings`).

Evidence and its bearing (:func:`evidence`):

* the per-run checks of :mod:`.evidence`: ``ssca.convergence``, Lemma 4 (51) at every iteration of every M = 0 run;
  ``ssca.figure2`` / ``ssca.figure3``, the closed forms (35)-(36) (formulation 27) and (40)-(42) (formulation 37)
  against cvxpy on the runs' own iterates; ``ssca.theorem5``, the targeted instances of Theorem 5 (i) and (ii);
* the symbolic findings and proof-step checks of :mod:`bounds.ssca.findings` (Lemma 1's derivation, the unrolled
  recursions, the sign of (32) and Theorem 5's algebra fold their proof-step rows into one finding each: a step
  that does not follow makes the finding a discrepancy, hence a gap) via :func:`repro.verdicts.from_findings`
  (experiment-settings findings bear on the figures, not on a claim; Section V's findings decide the statements
  :data:`.statements.SECTION_V_IDS`);
* the findings of the remarks and discussion (:mod:`bounds.ssca.remarks`: complexity, communication, privacy,
  trade-off directions, who holds what, what the algorithms return, one fact at two places) decide sentences of
  :mod:`.sentences`, not claims; the boundary values of the step sizes (:mod:`bounds.ssca.boundaries`) give a
  ``hypotheses`` finding on Theorems 1-4 (a gap);
* the statements the paper makes about its figures (:data:`.statements.STATEMENTS`, Section VI and the Conclusions'
  sentence on the experiments): orderings and "similar" by a Student-t interval over seeds of a per-seed paired
  statistic (:func:`repro.comparisons.compare`; one seed is inconclusive; an SGD baseline whose rate sits on its
  grid's edge supports nothing), "strictly satisfy" on every constrained run (:func:`repro.verdicts.from_checks`);
* ``ssca.search``, the adversarial search (:mod:`repro.papers.ssca.runs.search`) per (claim, family), read by
  :func:`repro.search_audit.evidence`: a best objective above 1 (each folds the check's own tolerance into its
  ratio) fails the check and violates, with the instance and its replay; otherwise it supports, citing the claim's
  own sides at the best instance (``method="adversarial"``); a search that solved no instance bears on nothing;
* ``ssca.pep``, certified worst cases of Lemma 4 (51) on the full-batch special case by performance estimation
  (:func:`repro.tightness.evidence`, method ``certified worst case``): a printed bound below a certified worst case
  beyond the solver margin violates, one at or above it on every point supports (``worst`` = the largest certified
  worst case / bound; a bound equal to the worst case within the margin is *tight*, attained, and supports too);
  the claims with no model are listed with the reason (:data:`.runs.pep.NOT_MODELLED`);
* ``ssca.exact``, per tiny instance, the exact probability over every minibatch pattern that Algorithm 1 violates
  Lemma 4 (51) at some iteration (:func:`repro.exact_audit.evidence`, method ``exact probability``): > 0 violates the
  deterministic statement (replay: a failing pattern), = 0 supports it;
* ``ssca.failsearch``, the same exact probability at the degenerate instance where a search finds it largest
  (:mod:`repro.failure_search`), read the same way;
* ``ssca.steps``, the displayed proof steps re-checked one at a time (:mod:`repro.proof_audit`);
* a claim whose mode no finite run can decide (:data:`repro.verdicts.UNDECIDABLE_MODES`: almost-sure limits, order
  statements) gets ``not checkable`` evidence from its mode, and, where ``ssca.convergence`` logs the quantities its
  proof says vanish, the trend on the runs inside its step-size hypotheses (also ``not checkable``: a trend decides
  no limit) (:mod:`.evidence`).
"""
from __future__ import annotations

import functools

from bounds.ssca import boundaries as BD
from bounds.ssca import findings as BF
from bounds.ssca import remarks as BR
from bounds.ssca.steps import STEPS
from repro import errata, exact_audit, proof_audit, search_audit, tightness
from repro.papers.ssca import errata as ERR
from repro.papers.ssca.experiments import EXPERIMENTS
from repro.verdicts import ClaimVerdict, Evidence, from_findings, roll_up
from repro.papers.ssca import crossrefs as CROSSREFS
from repro.papers.ssca import output as OUTPUT
from repro.papers.ssca.evidence import (
    CLAIM_IDS, _MINIBATCH_PATTERN, _closed_form_evidence, _lemma4_evidence, _mode_evidence, _theorem5_evidence,
    _trend_evidence,
)
from repro.papers.ssca.section import (
    _claims_part, _conditions_part, _convergence_part, _exact_part, _mnist_part, _not_reproduced_part, _pep_part,
    _printed_32_part, _search_part, _theorem5_part,
)
from repro.papers.ssca.statements import SECTION_V_IDS, STATEMENTS, STATEMENT_IDS, statement_evidence

#: the audit's entry points: what the shared layers read (:mod:`repro.paper`: AUDIT_EXPERIMENTS, STATEMENTS, findings,
#: verdicts, audit_section), the proofs' dependencies and the claims' evidence; STATEMENTS is defined in
#: :mod:`.statements`
__all__ = ["AUDIT_EXPERIMENTS", "DEPENDS_ON", "STATEMENTS", "audit_section", "evidence", "findings", "verdicts"]

AUDIT_EXPERIMENTS = tuple(e.name for e in EXPERIMENTS)

#: Each theorem or lemma -> the encoded claims its proof uses, as the paper's proofs say.
DEPENDS_ON: dict[str, tuple[str, ...]] = {
    # Appendix A ("The proofs of Theorem 1 and Theorem 3 are identical"): liminf part "By ... Lemma 4"; limsup part
    # (59)(a) "due to Lemma 3", the contradiction with (60) "By Lemma 4"; (68) uses lim ||grad F0 - grad F_bar|| = 0
    # (Lemma 2).
    "ssca.thm1": ("ssca.lemma2", "ssca.lemma3", "ssca.lemma4", "ssca.appA.delta1"),
    "ssca.thm3": ("ssca.lemma2", "ssca.lemma3", "ssca.lemma4", "ssca.appA.delta1"),
    # Appendix B: "As (w*_j, s*_j) satisfies the KKT conditions of the problem in (72) and (70) and (71) in Lemma 6
    # hold"; Lemma 6's (70)-(71) "follow immediately from (69) and Lemma 5"; Lemma 5 is "a consequence of [35,
    # Lemma 1]" like Lemma 2 and cites no encoded claim.
    "ssca.thm2": ("ssca.lemma5", "ssca.lemma6"),
    "ssca.thm4": ("ssca.lemma5", "ssca.lemma6"),
    "ssca.lemma6": ("ssca.lemma5",),
    "ssca.lemma5": (),
    # Lemma 3's proof: "It follows from Lemma 2 that (44)".
    "ssca.lemma3": ("ssca.lemma2",),
    # (60) follows from (59), whose step (a) is "due to Lemma 3".
    "ssca.appA.delta1": ("ssca.lemma3",),
    # Lemma 2 is "a consequence of [35, Lemma 1]" under Assumptions 1-2 and (4), (6); Lemma 4 from Assumption 2.2 and
    # the Lipschitz gradient; Lemma 1 from the Lagrangian of (38) (Appendix C); Theorem 5 from (75) and the KKT
    # condition of (37) (Appendix D): none cites another encoded claim.
    "ssca.lemma2": (),
    "ssca.lemma4": (),
    "ssca.lemma1": (),
    "ssca.thm5.i": (),
    "ssca.thm5.ii": (),
}


@functools.cache
def _symbolic_findings() -> tuple:
    """The symbolic findings of :mod:`bounds.ssca.findings`, of the remarks and discussion (:mod:`bounds.ssca.remarks`)
    and of the boundary values (:mod:`bounds.ssca.boundaries`) (computed once per process: they do not depend on the
    results)."""
    boundary = BD.step_size_boundary_finding()
    return tuple(BF.audit_findings()) + tuple(BR.remark_findings()) + ((boundary,) if boundary else ())


def findings(results) -> list:
    """Every finding the SSCA audit shows, in report order: the symbolic and settings ones (results-independent),
    then one per displayed proof step that ``ssca.steps`` refuted (``results`` = ``{experiment: results}``, possibly
    empty); the statements about the figures are judged as :data:`STATEMENTS`, not as findings."""
    return (list(_symbolic_findings()) + proof_audit.findings(results.get("ssca.steps", ()), STEPS)
            + CROSSREFS.findings()
            + OUTPUT.output_findings(results))


def evidence(results) -> list[Evidence]:
    """Every piece of evidence the audit computes about the claims of :data:`bounds.ssca.claims.CLAIMS` from ``results``
    (``{experiment: results}``; a missing experiment contributes nothing)."""
    conv_runs = results.get("ssca.convergence", [])
    shown = findings(results)
    return (_lemma4_evidence(conv_runs) + _closed_form_evidence(results)
            + _theorem5_evidence(results.get("ssca.theorem5", []))
            + from_findings(shown, CLAIM_IDS + SECTION_V_IDS)
            + _mode_evidence(shown) + _trend_evidence(conv_runs)
            + search_audit.evidence(results.get("ssca.search", []), "ssca.search")
            + tightness.evidence(results.get("ssca.pep", ()))
            + exact_audit.evidence(results.get("ssca.exact", ()), "ssca.exact", fails="(51) fails at some iteration",
                                   pattern_words=_MINIBATCH_PATTERN)
            + exact_audit.evidence(results.get("ssca.failsearch", ()), "ssca.failsearch",
                                   fails="(51) fails at some iteration", pattern_words=_MINIBATCH_PATTERN)
            + proof_audit.evidence(proof_audit.rows(results.get("ssca.steps", ())), CLAIM_IDS))


def verdicts(results) -> list[ClaimVerdict]:
    """One verdict per claim of :data:`bounds.ssca.claims.CLAIMS` and per statement of :data:`STATEMENTS`, in order, rolled
    up from :func:`evidence` and :func:`statement_evidence` with :data:`DEPENDS_ON`."""
    return roll_up(CLAIM_IDS + STATEMENT_IDS, evidence(results) + statement_evidence(results), DEPENDS_ON,
                   errata.readings(ERR))


def audit_section(results, profile: str, verdicts) -> str:
    """The SSCA section of ``reports/ssca.md`` (its detail page) (Markdown) from the results of ``AUDIT_EXPERIMENTS`` at ``profile``
    and the claims' verdicts (:func:`verdicts` of the same results, computed once by the report)."""
    conditions = _conditions_part(findings(results))    # heading and intro (4 lines), then conditions and findings
    out = (conditions[:4] + _claims_part(verdicts) + conditions[4:] + _convergence_part(results["ssca.convergence"])
           + _mnist_part(results, verdicts)
           + _printed_32_part(results["ssca.printed_32"]) + _theorem5_part(results.get("ssca.theorem5", ()))
           + _search_part(results.get("ssca.search", []), results.get("ssca.pep", ())) + _pep_part(results.get("ssca.pep", ()))
           + _exact_part(results.get("ssca.exact", ()), results.get("ssca.failsearch", ()))
           + proof_audit.section(results.get("ssca.steps", ()))
           + _not_reproduced_part(profile))
    return "\n".join(out)
