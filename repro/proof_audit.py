"""The reading side of the ``<paper>.steps`` runs (:mod:`repro.proof_search`): the step rows, the evidence about the
claims, a finding for every displayed step that does not follow, and the report section.

How a row bears on the claim the proof establishes: a refuted step is a finding of kind "proof-step" (:func:`findings`),
a gap -- the proof does not establish the claim as printed; whether the claim itself fails is for its own checks.
When every step is proven or not refuted by the search, :func:`evidence` is support, with the counts of each said (a
search that finds nothing is not a proof).
"""
from __future__ import annotations

import re

from bounds.audit import DISCREPANCY, Finding, producer
from bounds.steps import NOT_REFUTED, PROVEN, REFUTED

from .tables import fmt, markdown_table
from .verdicts import Bearing, Evidence


def rows(results) -> list[dict]:
    """Every step row of the runs, in the runs' order."""
    return [row for r in results for row in r.meta["metadata"]["rows"]]


def evidence(step_rows, claims) -> list[Evidence]:
    """Support for each claim of ``claims`` whose displayed steps all follow (the counts of proven and of searched
    steps said). A claim with a refuted step gets its gap from the step's finding (:func:`findings`, kind
    "proof-step"), which names the instance and the replay."""
    out = []
    for claim in claims:
        mine = [r for r in step_rows if claim in r["claims"]]
        if not mine or any(r["status"] == REFUTED for r in mine):
            continue
        proven = sum(r["status"] == PROVEN for r in mine)
        out.append(Evidence(claim, "proof steps", Bearing.SUPPORTS,
                            f"all {len(mine)} encoded displayed steps follow: {proven} proven symbolically, "
                            f"{len(mine) - proven} not refuted by a falsification search", len(mine),
                            method="proof steps"))
    return out


def exact_point(point: dict) -> str:
    """``a = 0.5, b = -3.0``: every value in its shortest exact decimal form (a counterexample must be replayable
    from its printed digits; the search shrinks it first, so most values are short)."""
    return ", ".join(f"{name} = {float(value)!r}" for name, value in point.items())


def _short(text: str, limit: int = 100) -> str:
    """``text`` cut to ``limit`` characters (the finding, ``python -m repro findings --id``, states it whole)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def finding_id(row: dict) -> str:
    """``<paper>.step.<proof>.<label>`` (the paper from the claim id)."""
    return f"{row['claim'].split('.')[0]}.step.{_slug(row['proof'].split('(')[0])}.{_slug(row['label'])}"


@producer
def refuted_step(steps, proof: str, label: str, point: dict):
    """The finding that the step ``label`` of ``proof`` fails at ``point``, re-decided by evaluating both sides
    there exactly (:func:`bounds.steps.confirm`); None when it holds there."""
    from bounds.steps import confirm
    step = next(s for s in steps if s.proof == proof and s.label == label)
    sides = confirm(step, point)
    if sides is None:
        return None
    row = {"claim": step.claim, "proof": proof, "label": label}
    cites = f" (it cites {', '.join(step.cites)})" if step.cites else ""
    return Finding(finding_id(row), "proof-step", step.claims, DISCREPANCY,
                   f"{proof}, {label}: the displayed step {step.text()} does not follow{cites}: at "
                   f"{exact_point(point)} the left side is {sides[0]:.6g} and the right side {sides[1]:.6g}, with every "
                   f"hypothesis in force ({', '.join(map(str, step.hypotheses)) or 'none'}) holding.",
                   f"reading: {step.reading or 'the display as printed'}; replay: python -m repro findings --id "
                   f"{finding_id(row)}", "refuted by counterexample (exact evaluation, 50 digits)")


def findings(results, steps) -> list[Finding]:
    """One finding per refuted step of the runs (each re-decidable by its gate)."""
    return [refuted_step(steps, r["proof"], r["label"], r["point"]) for r in rows(results) if r["status"] == REFUTED]


def section(results) -> list[str]:
    """The report section "Proof steps, falsification-searched": per proof, the encoded steps and what became of them
    (counts per status, the closest approach of the search over the steps it did not refute: the largest relative
    violation, 0 meaning an equality attained), then every refuted step with its instance and replay. Empty when
    ``<paper>.steps`` has not run."""
    all_rows = rows(results)
    if not all_rows:
        return []
    table = []
    for proof in dict.fromkeys(r["proof"] for r in all_rows):
        mine = [r for r in all_rows if r["proof"] == proof]
        searched = [r["worst"] for r in mine if r["status"] == NOT_REFUTED and r["worst"] is not None]
        table.append([proof, len(mine)] + [sum(r["status"] == st for r in mine) for st in (PROVEN, NOT_REFUTED,
                                                                                           REFUTED)]
                     + [fmt(max(searched)) if searched else "--"])
    budget = results[0].spec.config
    out = ["### Proof steps, falsification-searched", "",
           f"Each encoded display (its two sides, the hypotheses in force and what it cites) is proven by sympy, or "
           f"searched for a violation: {budget['examples']} hypothesis examples targeted on the relative violation, "
           f"then {budget['polish']} Nelder-Mead evaluations from the best points; a violation is confirmed by an "
           "exact evaluation. \"Closest approach\" is the largest relative violation (lhs - rhs)/(|lhs| + |rhs|) the "
           "search reached on the steps it did not refute (0: the step is attained with equality).", "",
           markdown_table(["proof", "steps encoded", "proven", "not refuted", "refuted", "closest approach"],
                          table), ""]
    bad = [r for r in all_rows if r["status"] == REFUTED]
    if bad:
        out += ["Refuted steps (each a finding of kind proof-step):", "",
                markdown_table(["proof", "display", "relation as encoded (cut)", "instance", "left side", "right side",
                                "replay"],
                               [[r["proof"], r["label"], f"`{_short(r['relation'])}`", exact_point(r["point"]), fmt(r["lhs"]),
                                 fmt(r["rhs"]), f"`python -m repro findings --id {finding_id(r)}`"] for r in bad]), ""]
    return out


__all__ = ["evidence", "finding_id", "findings", "refuted_step", "rows", "section"]
