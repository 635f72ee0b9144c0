"""The reading side of every paper's ``<paper>.search`` runs (:mod:`repro.search`): one reader turns their
:class:`repro.search.SearchRecord`\\ s into evidence for the verdicts, the per-claim summary and the table of the
report's "Adversarial search" section, so that the four audits read searches the same way.

The numbers a verdict cites are the claim's own check at the best instance (:class:`repro.search.Check`: observed
value, bound, their ratio), never the search objective, which may divide by a tolerance where a bound vanishes or
scale only the constant's terms. A check that failed violates (with its replay: the run, the instance and the
reading); one that passed within its tolerance or Monte-Carlo rule is inconclusive; one that held supports. A search
that judged no admissible instance bears on nothing and says so in its row.

Run modules never import this module: editing how searches are read changes no run's cache key.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

from bounds.audit import fmt_point

from .search import LOOSE, Check, SearchRecord
from .tables import fmt, markdown_table
from .tightness import reach_cell
from .verdicts import Bearing, Evidence, against

__all__ = ["records", "replay", "evidence", "claim_rows", "rows", "section"]

_BEARING = {"failed": Bearing.VIOLATES, "within tolerance": Bearing.INCONCLUSIVE, "held": Bearing.SUPPORTS}

#: instance keys that say how a run was recorded, not what the instance is (left out of the instance shown)
_NOT_INSTANCE = ("record",)

#: an extra column of a paper's table: its header and the cell of one record
Column = tuple[str, Callable[[SearchRecord], str]]


def records(runs, order: Callable[[SearchRecord], tuple] = lambda rec: (rec.claim, rec.family)) -> list:
    """(run, record) of each search run, sorted by ``order`` of the record (default: claim, then family)."""
    pairs = [(r, SearchRecord.from_run(r)) for r in runs]
    return sorted(pairs, key=lambda pair: order(pair[1]))


def _instance(rec: SearchRecord) -> str:
    return fmt_point({k: v for k, v in rec.result.params.items() if k not in _NOT_INSTANCE}) or "-"


def replay(experiment: str, run, rec: SearchRecord, reading: str = "") -> str:
    """The command that recomputes the run, with the instance (and the reading) a reader checks by hand."""
    on = f"; on {reading}" if reading else ""
    return f"python -m repro run {experiment}; result {run.hash} ({_instance(rec)}{on})"


def _label(check: Check, labels: Mapping[str, str]) -> str:
    return labels.get(check.reading, check.reading)


def evidence(runs, experiment: str, *, axis: str = "", labels: Mapping[str, str] = {}) -> list[Evidence]:
    """One piece of evidence (method "adversarial") per search run and reading its best instance was checked under.
    ``axis`` names the reading axis the checks' ``reading`` keys are options of (``labels``: key -> the option's
    label), so that each piece of evidence carries the reading it was computed under."""
    out = []
    for run, rec in records(runs):
        for check in rec.checks:
            bearing, label = _BEARING[check.outcome], _label(check, labels)
            on = f", checked on {label}" if label else ""
            what = (f"{rec.family}: the best of {rec.result.evaluations} instances{on}: "
                    + (f"{check.sides}: " if check.sides else "")
                    + against(fmt(check.observed), fmt(check.bound), rec.claim))
            out.append(Evidence(rec.claim, f"{experiment} ({rec.family})", bearing, what, rec.result.evaluations,
                                check.ratio, replay(experiment, run, rec, label) if bearing is Bearing.VIOLATES
                                else "", method="adversarial", observed=check.observed, bound=check.bound,
                                reading=((axis, label),) if axis and label else ()))
    return out


def _halved_cell(rec: SearchRecord) -> str:
    """Would the search report the claim violated had its constant been halved? From the run's halved ratio."""
    if rec.halved_ratio is None:
        return "not judged (no instance)"
    judged = "" if rec.halved_evaluations <= 1 else f", {rec.halved_evaluations} instances"
    if rec.halved_ratio > 1:
        return f"yes (halved ratio {fmt(rec.halved_ratio, 3)}{judged})"
    why = "halving not seen" if rec.equality else "too loose to tell"
    return f"no: {why} (halved ratio {fmt(rec.halved_ratio, 3)}{judged})"


def _loose_cell(rec: SearchRecord) -> str:
    """1/objective where the best objective stays below LOOSE; an equality has its error instead."""
    ratio = rec.result.ratio
    if ratio != ratio:                        # nan: no instance judged
        return "-"
    if rec.equality:
        return "equality: does not apply"
    return fmt(1 / ratio, 3) if 0 < ratio < LOOSE else "observed 0" if ratio == 0 else "-"


def _check_cell(check: Check | None, claim: str) -> str:
    if check is None:
        return "-"
    return f"{check.outcome}: {against(fmt(check.observed), fmt(check.bound), claim)}"


def _objective_cell(rec: SearchRecord, hidden: Sequence[str]) -> str:
    if rec.claim in hidden:
        return "(not an observed/bound of the claim; not shown)"
    return fmt(rec.result.ratio, 4) if rec.result.ratio == rec.result.ratio else "no instance judged"


def rows(pairs, experiment: str, *, readings: Sequence[str] = ("",), labels: Mapping[str, str] = {},
         extra: Sequence[Column] = (), hidden_objective: Sequence[str] = ()) -> list[list]:
    """One row per search run: claim, family, search objective, the claim's own check per reading, instance,
    evaluations, loose by, halved constant detected, the paper's ``extra`` columns, replay."""
    out = []
    for run, rec in pairs:
        by_reading = {c.reading: c for c in rec.checks}
        out.append([f"`{rec.claim}`", rec.family, _objective_cell(rec, hidden_objective)]
                   + [_check_cell(by_reading.get(key), rec.claim) for key in readings]
                   + [_instance(rec), rec.result.evaluations, _loose_cell(rec), _halved_cell(rec)]
                   + [cell(rec) for _, cell in extra] + [f"`{replay(experiment, run, rec)}`"])
    return out


def _reach_cell(claim: str, reach: Mapping[str, Mapping[str, float]]) -> str:
    """The factor k by which the claim's bound must be divided before the attained worst case reports it violated,
    one per quantity the claim bounds (:func:`repro.tightness.claim_reach`); "no PEP" for a claim without one."""
    if claim not in reach:
        return "no PEP"
    per = reach[claim]
    if len(per) == 1:
        return reach_cell(next(iter(per.values())))
    return "; ".join(f"{reach_cell(k)} ({quantity})" for quantity, k in per.items())


def claim_rows(pairs, reading: str = "", reach: Mapping[str, Mapping[str, float]] | None = None) -> list[list]:
    """Per claim, the family whose best instance has the largest check ratio under ``reading`` (where the check has
    no ratio, e.g. a bound of either sign, the largest observed - bound): claim, that value, family, halved
    constant detected, and with ``reach`` (claim -> k) the certified worst case's reach."""
    checked: dict[str, list] = {}
    for _, rec in pairs:
        for check in rec.checks:
            if check.reading == reading and check.observed is not None and check.bound is not None:
                checked.setdefault(rec.claim, []).append((check, rec))
    out = []
    for cid, found in checked.items():
        rated = [(c, rec) for c, rec in found if c.ratio is not None]
        if rated:
            check, rec = max(rated, key=lambda cr: cr[0].ratio)
            cell = fmt(check.ratio)
        else:
            check, rec = max(found, key=lambda cr: cr[0].observed - cr[0].bound)
            cell = f"no ratio: {against(fmt(check.observed), fmt(check.bound), cid)}"
        out.append([f"`{cid}`", cell, rec.family, _halved_cell(rec)]
                   + ([_reach_cell(cid, reach)] if reach is not None else []))
    return out


def section(runs, experiment: str, intro: str, *, order: Callable[[SearchRecord], tuple] | None = None,
            readings: Sequence[str] = ("",), labels: Mapping[str, str] = {}, extra: Sequence[Column] = (),
            hidden_objective: Sequence[str] = (), reach: Mapping[str, Mapping[str, float]] | None = None) -> list[str]:
    """The report's "Adversarial search" section: ``intro`` (the paper's families and objectives), the per-claim
    summary on the first reading (with ``reach``, the paper's PEP evidence beside it: a claim too loose for the
    search to tell may still be caught by the certified worst case) and the table of every run (empty when the
    experiment has not run)."""
    if not runs:
        return []
    pairs = records(runs, order) if order else records(runs)
    checks = [f"the claim's check{' on ' + labels.get(k, k) if k else ''} (observed against bound)" for k in readings]
    first = f" on {labels.get(readings[0], readings[0])}" if readings[0] else ""
    return ["### Adversarial search", "", intro, "",
            markdown_table(["claim", f"largest observed/bound of its check{first}", "family",
                            "halved constant detected"]
                           + ([f"reach of the certified worst case{first} (k: the bound divided by more than k is "
                               "caught; per quantity)"] if reach is not None else []),
                           claim_rows(pairs, readings[0], reach)), "",
            markdown_table(["claim", "family", "search objective", *checks, "instance", "evaluations",
                            f"loose by (1/objective below {LOOSE:g})", "halved constant detected",
                            *[h for h, _ in extra], "replay"],
                           rows(pairs, experiment, readings=readings, labels=labels, extra=extra,
                                hidden_objective=hidden_objective)), ""]
