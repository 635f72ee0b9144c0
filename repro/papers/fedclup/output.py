"""What FedCLUP's Algorithm 1 returns, checked on the cached runs beside the iterate Corollary 2 analyses (issue 41,
item 6).

The table (:data:`PRINTED`, :data:`ANALYSED`, quoting the paper; its copy has the mathematics stripped, ``[...]``
marks a cut): Appendix B.1, "Output: Local models and global model" -- the models after the last of the T global
rounds; Theorem 2 ("both the local and global models converge linearly") bounds the models of every round t, the last
included, and Corollary 2 the global model after T rounds ("the communication and computation complexity for
Algorithm 1 to find an [ε]-solution"). The output is the analysed iterate: they do not differ.

On the runs (:func:`finding_output_on_runs`, id ``fedclup.output_on_runs``): every ``fedclup.theorem2`` run records
e_t = ||w_t − w̃_g||² for t = 0, ..., rounds (``e``), Corollary 2's horizon T = ceil(4 κ_F log(Φ_0/ε)) (``T_cor2``)
and ε (its metadata). Its step sizes γ = 1/L_F, η = 1/(L + λ) and K do not depend on T, so the run of ``rounds``
rounds contains the run of every T' ≤ rounds rounds, whose output is w_T'. The returned global model is evaluated
at T' = T (the analysed one) and at every T' from T to the run's last round (a run told to go on past T returns a
later iterate), each against ε. The local models w^i_T are not recorded per round (only e_t, d_t and Φ_t are): that
half needs per-round iterates.

Decision (never a false alarm): ``discrepancy`` only when the printed output is an iterate other than the analysed
one (:data:`ANALYSED`) and, on a run whose hypotheses held, the analysed w_T is within ε while the output is not;
here they coincide and the verdict is ``consistent``, with the values of both reported. Assumptions, named: the
prefix argument above; the tolerance on e ≤ ε is 1e-9 ε (e_t is computed in float64 against a float64 reference).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE, Finding, producer

FINDING_ID = "fedclup.output_on_runs"
EXPERIMENT = "fedclup.theorem2"
LAST = "the global model after the last of T rounds, w_T"

#: the arrays a run must record for this check
NEEDS = {"claim_id", "hypotheses_met", "e", "T_cor2"}
#: the algorithm's printed output: (where, its words, the iterate)
PRINTED = ("Appendix B.1, Algorithm 1", "Output: Local models and global model", LAST)
#: per bounded result: claim id -> (where, its words, the iterate it analyses)
ANALYSED = {
    "fedclup.thm2": ("Theorem 2 (Section 4.2)", "Theorem 2 shows that with sufficiently small step sizes, both the "
                     "local and global models converge linearly.", LAST),
    "fedclup.cor2.explicit": ("Corollary 2 (Section 4.2)", "Thus the communication and computation complexity for "
                              "Algorithm 1 to find an [...]-solution (i.e., [...] and [...]) are as follows", LAST),
}


def table(printed=PRINTED) -> list[tuple[str, str, str, str, bool]]:
    """One row per bounded result: (claim, where, what it analyses, what Algorithm 1 returns, whether they differ)."""
    return [(cid, where, it, printed[2], it != printed[2]) for cid, (where, _, it) in ANALYSED.items()]


@dataclass(frozen=True)
class RunRecord:
    """One cached run: ``label``, e_t per round (``e``, rounds + 1 values), Corollary 2's horizon ``T``, ``eps``,
    and whether its hypotheses held (its own ``fedclup.cor2.explicit`` row)."""

    label: str
    e: np.ndarray
    T: int
    eps: float
    hypotheses: bool


def run_record(result) -> RunRecord | None:
    """The :class:`RunRecord` of one ``fedclup.theorem2`` result (None when it records too little: :data:`NEEDS`,
    ε in its metadata)."""
    a, cfg = result.arrays, result.spec.config
    eps = getattr(result, "meta", {}).get("metadata", {}).get("constants", {}).get("eps")
    if eps is None or not NEEDS <= set(a):
        return None
    met = [bool(h) for c, h in zip(a["claim_id"], a["hypotheses_met"]) if str(c) == "fedclup.cor2.explicit"]
    label = ", ".join(f"{k} = {cfg[k]}" for k in ("kappa", "lam", "m", "n", "R", "K") if k in cfg)
    return RunRecord(label, np.asarray(a["e"], dtype=np.float64), int(a["T_cor2"]),
                     float(eps), all(met) and bool(met))


def returned_values(record: RunRecord) -> tuple[float, float, int]:
    """(e at Corollary 2's T, the largest e_T' over T <= T' <= the run's last round, the T' where it is)."""
    T = max(record.T, 0)
    later = record.e[T:]
    i = int(np.argmax(later))
    return float(record.e[T]), float(later[i]), T + i


def _within(value: float, eps: float) -> bool:
    return value <= eps * (1 + 1e-9)


@producer
def finding_output_on_runs(records, printed=PRINTED) -> Finding:
    """The output (the global model after T' >= T rounds) against ε beside the analysed w_T, on the cached runs
    (module docstring). Not checkable without a run whose hypotheses held and that reached Corollary 2's T."""
    records = [r for r in records if r is not None and r.hypotheses and r.T < r.e.size]
    if not records:
        return Finding(FINDING_ID, "wording", tuple(ANALYSED), NOT_CHECKABLE,
                       f"no cached {EXPERIMENT} run given: the output is not checked on runs (`python -m repro "
                       f"findings fedclup` reads them)", "", "cached runs")
    differ = any(row[4] for row in table(printed))
    rows = [(r, *returned_values(r)) for r in records]
    fails = [f"{r.label}: e_T = {a:.3g} at T = {r.T}, e = {b:.3g} at T' = {t} > ε = {r.eps:.3g}"
             for r, a, b, t in rows if _within(a, r.eps) and not _within(b, r.eps)]
    verdict = DISCREPANCY if differ and fails else CONSISTENT
    summary = (f"{printed[0]}: \"{printed[1]}\" against {ANALYSED['fedclup.cor2.explicit'][0]}: "
               f"\"{ANALYSED['fedclup.cor2.explicit'][1]}\" -- "
               + ("the output is the analysed iterate" if not differ else "the output differs from the analysed "
                  "iterate") + f"; on {len(rows)} cached {EXPERIMENT} runs the returned global model after T' rounds, "
               f"T <= T' <= the run's last round, is within ε on {len(rows) - len(fails)} runs wherever w_T is. The "
               f"local models w^i_T need per-round iterates (the runs record e_t, d_t and Φ_t only).")
    worst = max(rows, key=lambda row: row[2] / row[0].eps)
    evidence = (f"largest e_T'/ε over T' >= T: {worst[2] / worst[0].eps:.3g} ({worst[0].label}, T' = {worst[3]}); "
                f"largest e_T/ε at Corollary 2's T: {max(a / r.eps for r, a, _, _ in rows):.3g}"
                + (f"; {'; '.join(fails[:3])}" if fails else ""))
    return Finding(FINDING_ID, "wording", tuple(ANALYSED), verdict, summary, evidence, "cached runs, float64")


def output_findings(results) -> list:
    """The finding of this module on ``results`` (``{experiment: results}``; not checkable without ``fedclup.theorem2``)."""
    return [finding_output_on_runs(tuple(run_record(r) for r in results.get(EXPERIMENT, ())))]


__all__ = ["ANALYSED", "EXPERIMENT", "FINDING_ID", "LAST", "NEEDS", "PRINTED", "RunRecord", "finding_output_on_runs",
           "output_findings", "returned_values", "run_record", "table"]
