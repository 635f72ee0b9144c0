"""What FedSGM's Algorithm 1 returns, checked on the cached runs beside the iterate the theorems analyse (issue 41,
item 6).

The table (:data:`PRINTED`, :data:`ANALYSED`, quoting the paper): Algorithm 1 (Appendix A) prints an input line and
the loop, and no output line; Section 2 names the output, "The goal is to compute an ε-solution w̄ that satisfies
f(w̄) − f(w*) ≤ ε and g(w̄) ≤ ε", and every theorem (1, 2, 6-9) bounds that w̄: the average (hard switching) or the
α_t-weighted average (soft switching) of the iterates w_t, t ∈ 𝒜 ⊆ [T]. The algorithm's output as the paper gives
it is therefore the analysed iterate: they do not differ.

On the runs (:func:`finding_output_on_runs`, id ``fedsgm.output_on_runs``): every ``fedsgm.theory`` run records
g(w_t) for t = 0, ..., T (``g``, T + 1 values) and ε, and its checks of the theorems' feasibility half on w̄ (rows
``infeas <= ...``: passed, hypotheses met). The reading no place of the paper gives but a reader of the box might
take, that Algorithm 1 returns its last server iterate w_T, is evaluated beside it: g(w_T) ≤ ε. The suboptimality
half f(w_T) − f(w*) ≤ ε is not evaluated: the runs record f(w_t) and f(w̄) − f(w*) but not f(w*) (it needs the
optimum's value per run).

Decision (never a false alarm): the verdict is ``discrepancy`` only when the printed output (:data:`PRINTED`) is w_T
(the one other iterate the runs record g of) and, on a run whose hypotheses held, w̄ is feasible to ε while w_T is not. Algorithm 1
prints none, so the verdict is ``consistent``; the summary reports, under the named reading "returns w_T", on how
many runs w_T is infeasible beyond ε while w̄ is not (the averaged output is what the guarantee needs).

Assumptions, named: a run's check of w̄ is its own ``infeas`` row of a theorem of :data:`ANALYSED` or of its proof
(``<id>.proof``); the tolerance on g(w_T) ≤ ε is the check's relative 1e-9 (1 + ε).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE, Finding, producer

FINDING_ID = "fedsgm.output_on_runs"
EXPERIMENT = "fedsgm.theory"
W_BAR = "w̄, the (weighted) average of w_t over 𝒜 ⊆ [T]"
W_T = "w_T, the last server iterate"

#: the arrays a run must record for this check
NEEDS = {"claim_id", "relation", "passed", "hypotheses_met", "g", "eps"}
#: the algorithm's printed output: (where, its words, the iterate; None: no output line)
PRINTED = ("Algorithm 1, Appendix A", "**Input:** Number of rounds T; local updates E; compression operator C_j [...]; "
           "learning rate η; initial model w_0; switching rule σ_β(·) (hard or soft) [no output line]", None)
#: where the paper names the output instead: (where, its words, the iterate)
NAMED = ("Section 2", "The goal is to compute an ε-solution w̄ that satisfies f(w̄) − f(w*) ≤ ε and g(w̄) ≤ ε.",
         W_BAR)
_HARD = "𝒜 := {t ∈ [T] | g(w_t) ≤ ε}, w̄ := (1/|𝒜|) Σ_(t∈𝒜) w_t [...] w̄ is an ε-solution"
_SOFT = "𝒜 = {t ∈ [T] | g(w_t) < ε}, w̄ = Σ_(t∈𝒜) α_t w_t [...] w̄ is an ε-solution"
#: per bounded result: claim id -> (where, its words, the iterate it analyses)
ANALYSED = {
    "fedsgm.thm1": ("Theorem 1", _HARD, W_BAR), "fedsgm.thm2": ("Theorem 2", _SOFT, W_BAR),
    "fedsgm.thm6": ("Theorem 6", _HARD, W_BAR), "fedsgm.thm7": ("Theorem 7", _SOFT, W_BAR),
    "fedsgm.thm8": ("Theorem 8", _HARD, W_BAR), "fedsgm.thm9": ("Theorem 9", _SOFT, W_BAR),
}


def output_iterate(printed=PRINTED) -> str:
    """The iterate the paper gives as the output: the box's, else the one Section 2 names (:data:`NAMED`)."""
    return printed[2] if printed[2] is not None else NAMED[2]


def table(printed=PRINTED) -> list[tuple[str, str, str, str, bool]]:
    """One row per theorem: (claim, where, what it analyses, the output as the paper gives it, whether they differ)."""
    out = output_iterate(printed)
    return [(cid, where, it, out, it != out) for cid, (where, _, it) in ANALYSED.items()]


@dataclass(frozen=True)
class RunRecord:
    """One cached run: ``label``, the last iterate's constraint value ``g_T``, ``eps``, and per theorem checked on
    it (claim id of :data:`ANALYSED`) whether w̄'s feasibility check passed with its hypotheses met."""

    label: str
    g_T: float
    eps: float
    analysed_ok: dict


def run_record(result) -> RunRecord | None:
    """The :class:`RunRecord` of one ``fedsgm.theory`` result (None when it records too little: :data:`NEEDS`)."""
    a, cfg = result.arrays, result.spec.config
    if not NEEDS <= set(a):
        return None
    ok = {}
    for cid, rel, passed, met in zip(a["claim_id"], a["relation"], a["passed"], a["hypotheses_met"]):
        base = str(cid).removesuffix(".proof")
        if str(rel).startswith("infeas") and base in ANALYSED and bool(met):
            ok[base] = ok.get(base, True) and bool(passed)
    label = ", ".join(f"{k} = {cfg[k]}" for k in ("family", "constants", "E", "T") if k in cfg)
    return RunRecord(label, float(np.asarray(a["g"], dtype=np.float64)[-1]), float(a["eps"]), ok)


def last_iterate_fails(records) -> list[str]:
    """The runs on which w̄ is feasible to ε (a theorem's check passed) while w_T is not: g(w_T) > ε."""
    return [f"{r.label}: g(w_T) = {r.g_T:.4g} > ε = {r.eps:.4g}" for r in records
            if any(r.analysed_ok.values()) and r.g_T - r.eps > 1e-9 * (1 + abs(r.eps))]


@producer
def finding_output_on_runs(records, printed=PRINTED) -> Finding:
    """The output as the paper gives it against w̄ on the cached runs, and w_T under the named reading (module
    docstring). Not checkable without a run that checked a theorem."""
    records = [r for r in records if r is not None and r.analysed_ok]
    if not records:
        return Finding(FINDING_ID, "wording", tuple(ANALYSED), NOT_CHECKABLE,
                       f"no cached {EXPERIMENT} run given: the output is not checked on runs (`python -m repro "
                       f"findings fedsgm` reads them)", "", "cached runs")
    out = output_iterate(printed)
    differ = any(it != out for _, _, it in ANALYSED.values())
    fails = last_iterate_fails(records)
    verdict = DISCREPANCY if out == W_T and fails else CONSISTENT
    held = sum(all(r.analysed_ok.values()) for r in records)
    summary = (f"{printed[0]} prints no output line; {NAMED[0]}: \"{NAMED[1]}\", and Theorems 1, 2, 6-9 bound that "
               f"w̄ -- " if printed[2] is None else f"{printed[0]}: \"{printed[1]}\" ({out}) against w̄ -- ")
    summary += (f"the output is the analysed iterate ({held} of {len(records)} cached {EXPERIMENT} runs have w̄ within "
                f"ε)." if not differ else "the output differs from w̄.")
    unstated = " (which the paper does not state)" if printed[2] is None else ""
    summary += (f" Under the reading 'Algorithm 1 returns w_T'{unstated} w_T is infeasible beyond ε on {len(fails)} "
                f"of {len(records)} runs where w̄ is feasible; f(w_T) − f(w*) needs f(w*), which the runs do not "
                f"record.")
    worst = max(records, key=lambda r: r.g_T - r.eps)
    evidence = (f"largest g(w_T) − ε: {worst.g_T - worst.eps:.4g} ({worst.label})"
                + (f"; e.g. {'; '.join(fails[:3])}" if fails else ""))
    return Finding(FINDING_ID, "wording", tuple(ANALYSED), verdict, summary, evidence,
                   "cached runs, float64")


def output_findings(results) -> list:
    """The finding of this module on ``results`` (``{experiment: results}``; not checkable without ``fedsgm.theory``)."""
    return [finding_output_on_runs(tuple(run_record(r) for r in results.get(EXPERIMENT, ())))]


__all__ = ["ANALYSED", "EXPERIMENT", "FINDING_ID", "NAMED", "NEEDS", "PRINTED", "RunRecord", "finding_output_on_runs",
           "last_iterate_fails", "output_findings", "output_iterate", "run_record", "table"]
