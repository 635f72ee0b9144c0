"""What SSCA's Algorithms 1-4 return, checked on the cached runs beside what Theorems 1-4 analyse (issue 41, item 6).

The table (:data:`PRINTED`, :data:`ANALYSED`, quoting the paper): every algorithm box ends "Output: ω^T" (Algorithm 1,
line 7: "Output: ωT s"; Algorithms 3-4, line 9: "Output: ωT f"), the last iterate; Theorems 1 and 3 analyse "every
limit point of {ω(t)}" and Theorems 2 and 4 "ω⋆_(s,j)", a limit point of the iterates of Algorithm 2 (4) run with the
penalty c_j, and their limit as j → ∞. They differ in kind: a finite run's output against limit points. For a
bounded sequence whose every limit point is a KKT point the distance of ω^(T) to the KKT set tends to 0, so the
output is covered in the limit; at a finite T neither the theorems nor their proofs bound anything.

On the runs (:func:`finding_output_on_runs`, id ``ssca.output_on_runs``): every ``ssca.convergence`` run records the
KKT residual of each iterate (``kkt``, one per t). Per theorem (the runs of its problem family and mode, as the
audit's trend evidence selects them: :data:`SCOPE`), the residual at the returned ω^(T) is reported beside the
smallest residual over the run (the best iterate) and the first.

Decision (never a false alarm): each theorem's mode (:class:`bounds.core.Mode`) says whether a finite run can decide
it; an almost-sure limit cannot (:data:`repro.verdicts.UNDECIDABLE_MODES`), so the verdict is ``not checkable``,
with the values reported. Only under a finite-T mode (a perturbation, or a reading the paper does not give) would
the returned iterate be judged: its residual against the theorem's own bound (0, up to :data:`TOL` relative to the
first residual), ``discrepancy`` when it exceeds it on a run. Assumption, named: the runs' residual is the suite's
KKT residual of the problem the theorem names (:mod:`repro.papers.ssca.runs.convergence`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE, Finding, producer
from bounds.ssca import claims as B
from repro.papers.ssca.runs import convergence as conv
from repro.verdicts import UNDECIDABLE_MODES

FINDING_ID = "ssca.output_on_runs"
EXPERIMENT = "ssca.convergence"
#: relative tolerance of a residual "at 0" under a finite-T reading (module docstring)
TOL = 1e-6

#: per algorithm: (where, its words, the iterate it returns)
PRINTED = {"sample": ("Algorithm 1, line 7 (Algorithm 2 likewise)", "Output: ωT s", "ω^(T), the last iterate"),
           "feature": ("Algorithm 3, line 9 (Algorithm 4 likewise)", "Output: ωT f", "ω^(T), the last iterate")}
_LIMIT = "every limit point of {ω^(t)}"
_PENALTY = "ω⋆_(s,j): a limit point at penalty c_j, and j → ∞"
#: per theorem: claim id -> (where, its words, the iterate it analyses, the algorithm's mode)
ANALYSED = {
    "ssca.thm1": ("Theorem 1", "every limit point of {ω (t) s } is a KKT point of Problem 1 almost surely", _LIMIT,
                  "sample"),
    "ssca.thm2": ("Theorem 2", "For all j, if s⋆s,j = 0, then ω⋆ s,j is a KKT point of Problem 3 almost surely",
                  _PENALTY, "sample"),
    "ssca.thm3": ("Theorem 3", "every limit point of {ω (t) f } is a KKT point of Problem 6 almost surely", _LIMIT,
                  "feature"),
    "ssca.thm4": ("Theorem 4", "For all j, if s⋆f,j = 0, then ω⋆ f,j is a KKT point of Problem 8 almost surely",
                  _PENALTY, "feature"),
}
#: per theorem: the convergence runs' problems it speaks about (unconstrained: Theorems 1, 3; constrained: 2, 4)
SCOPE = {"ssca.thm1": conv.PROBLEMS[:2], "ssca.thm3": conv.PROBLEMS[:2], "ssca.thm2": conv.PROBLEMS[2:],
         "ssca.thm4": conv.PROBLEMS[2:]}


def table() -> list[tuple[str, str, str, str, bool]]:
    """One row per theorem: (claim, where, what it analyses, what its algorithm returns, whether they differ)."""
    return [(cid, where, it, PRINTED[mode][2], it != PRINTED[mode][2])
            for cid, (where, _, it, mode) in ANALYSED.items()]


@dataclass(frozen=True)
class RunRecord:
    """One cached run: ``label``, its problem and mode, and its KKT residual per iteration ``kkt``."""

    label: str
    problem: str
    mode: str
    kkt: np.ndarray


def run_record(result) -> RunRecord | None:
    """The :class:`RunRecord` of one ``ssca.convergence`` result (None when it records no ``kkt`` or names no problem and mode)."""
    cfg = result.spec.config
    if "kkt" not in result.arrays or not {"problem", "mode"} <= set(cfg):
        return None
    label = ", ".join(f"{k} = {cfg[k]}" for k in ("problem", "mode", "steps", "iterations") if k in cfg)
    return RunRecord(label, cfg["problem"], cfg["mode"], np.asarray(result.arrays["kkt"], dtype=np.float64))


def _values(records, cid: str) -> list[tuple[RunRecord, float, float, float]]:
    """(run, residual at ω^(T), smallest residual, first residual) of the runs in ``cid``'s scope."""
    mode = ANALYSED[cid][3]
    return [(r, float(r.kkt[-1]), float(r.kkt.min()), float(r.kkt[0])) for r in records
            if r is not None and r.mode == mode and r.problem in SCOPE[cid]]


@producer
def finding_output_on_runs(records, modes=None) -> Finding | None:
    """The returned ω^(T)'s KKT residual beside the best and first iterates' per theorem, decided by the theorems'
    modes (``modes``: claim id -> Mode, default each claim's own; module docstring). None without a run in scope (the audit's findings need no results)."""
    modes = modes or {cid: B.claim(cid).mode for cid in ANALYSED}
    per = {cid: _values(records, cid) for cid in ANALYSED}
    if not any(per.values()):
        return None
    finite = [cid for cid in ANALYSED if modes[cid] not in UNDECIDABLE_MODES and per[cid]]
    fails = [f"{cid}, {r.label}: residual {last:.3g} at ω^(T)" for cid in finite
             for r, last, _, first in per[cid] if last > TOL * max(first, 1.0)]
    verdict = NOT_CHECKABLE if not finite else DISCREPANCY if fails else CONSISTENT
    summary = (f"{PRINTED['sample'][0]}: \"{PRINTED['sample'][1]}\" against {ANALYSED['ssca.thm1'][0]}: "
               f"\"{ANALYSED['ssca.thm1'][1]}\" (Theorems 2-4 likewise) -- the output is the last iterate, the "
               f"theorems speak of limit points: a finite run decides neither "
               f"({'; '.join(sorted({UNDECIDABLE_MODES[m] for m in modes.values() if m in UNDECIDABLE_MODES}))}). "
               f"The values on the cached {EXPERIMENT} runs are reported.")
    if fails:
        summary += f" Under a finite-T reading the returned iterate is no KKT point: {'; '.join(fails[:3])}."
    evidence = "; ".join(
        f"{cid}: {len(v)} runs, residual at ω^(T) / smallest over the run: median "
        f"{np.median([last / max(best, 1e-300) for _, last, best, _ in v]):.3g}, at ω^(T) / first: median "
        f"{np.median([last / max(first, 1e-300) for _, last, _, first in v]):.3g}" for cid, v in per.items() if v)
    return Finding(FINDING_ID, "wording", tuple(ANALYSED), verdict, summary, evidence, "cached runs, float64")


def output_findings(results) -> list:
    """The finding of this module on ``results`` (``{experiment: results}``; none without ``ssca.convergence``)."""
    found = finding_output_on_runs(tuple(run_record(r) for r in results.get(EXPERIMENT, ())))
    return [found] if found is not None else []


__all__ = ["ANALYSED", "EXPERIMENT", "FINDING_ID", "PRINTED", "RunRecord", "SCOPE", "TOL", "finding_output_on_runs",
           "output_findings", "run_record", "table"]
