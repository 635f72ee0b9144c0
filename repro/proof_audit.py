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
from bounds.steps import NOT_REFUTED, PRINTED, PROVEN, REFUTED

from .tables import fmt, markdown_table
from .verdicts import Bearing, Evidence


def rows(results) -> list[dict]:
    """Every step row of the runs, in the runs' order."""
    return [row for r in results for row in r.meta["metadata"]["rows"]]


def _variant(row: dict) -> tuple:
    return tuple(tuple(v) for v in row.get("variant", ()))


def evidence(step_rows, claims) -> list[Evidence]:
    """Support for each claim of ``claims`` from each group of its displayed steps that all follow: the steps every
    reading shares, and separately the steps of each side of an erratum (their ``variant``: the evidence holds under
    that reading only). The counts of proven, searched and otherwise-read steps are said. A refuted step gives its
    gap through its finding (:func:`findings`, kind "proof-step", same reading), which names the instance and the
    replay."""
    out = []
    for claim in claims:
        mine = [r for r in step_rows if claim in r["claims"]]
        for variant in dict.fromkeys(_variant(r) for r in mine):
            group = [r for r in mine if _variant(r) == variant]
            if any(r["status"] == REFUTED for r in group):
                continue
            proven = sum(r["status"] == PROVEN for r in group)
            read = [r["label"] for r in group if r.get("notation")]
            out.append(Evidence(claim, "proof steps", Bearing.SUPPORTS,
                                f"all {len(group)} encoded displayed steps follow: {proven} proven symbolically, "
                                f"{len(group) - proven} not refuted by a falsification search"
                                + (f"; {', '.join(read)} under another reading the print admits" if read else ""),
                                len(group), method="proof steps", reading=variant))
    return out


def chain_facts(step_rows, readings) -> dict[str, bool]:
    """Per erratum whose steps are encoded on both sides: whether its correction repairs the chain of displays --
    a display as printed is refuted, every step of the corrected side follows, and a step that follows starts from
    (``uses``) that display, i.e. the next display follows from the corrected form: a step of the corrected side, or
    one both readings share (the next display is printed once)."""
    out = {}
    for axis in readings.axes:
        printed = [r for r in step_rows if (axis.id, axis.options[0]) in _variant(r)]
        corrected = [r for r in step_rows if any(a == axis.id and o != axis.options[0] for a, o in _variant(r))]
        if not printed or not corrected:
            continue
        broken = {(r["proof"], r["label"]) for r in printed if r["status"] == REFUTED}
        shared = [r for r in step_rows if axis.id not in {a for a, _ in _variant(r)}]
        out[axis.id] = bool(broken) and all(r["status"] != REFUTED for r in corrected) and any(
            broken & {(r["proof"], u) for u in r.get("uses", ())} and r["status"] != REFUTED
            for r in corrected + shared)
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


def finding_id(row: dict, variant=()) -> str:
    """``<paper>.step.<proof>.<label>`` (the paper from the claim id), with ``.<option>`` for a step of an erratum's
    corrected side (so that the printed display and its correction are two findings)."""
    base = f"{row['claim'].split('.')[0]}.step.{_slug(row['proof'].split('(')[0])}.{_slug(row['label'])}"
    side = [o for _, o in variant if o != PRINTED]
    return base + (f".{_slug(side[0])}" if side else "")


@producer
def refuted_step(steps, proof: str, label: str, point: dict, variant: tuple = ()):
    """The finding that the step ``label`` of ``proof`` (on the side ``variant`` of an erratum) fails at ``point``,
    re-decided by evaluating both sides there exactly (:func:`bounds.steps.confirm`); None when it holds there."""
    from bounds.steps import confirm
    step = next(s for s in steps if s.proof == proof and s.label == label and tuple(s.variant) == tuple(variant))
    sides = confirm(step, point)
    if sides is None:
        return None
    row = {"claim": step.claim, "proof": proof, "label": label}
    cites = f" (it cites {', '.join(step.cites)})" if step.cites else ""
    side = f" ({', '.join(o for _, o in step.variant)})" if step.variant else ""
    return Finding(finding_id(row, step.variant), "proof-step", step.claims, DISCREPANCY,
                   f"{proof}, {label}{side}: the displayed step does not follow{cites}: at {exact_point(point)} the "
                   f"left side is {sides[0]:.6g} and the right side {sides[1]:.6g}, every hypothesis in force holding.",
                   f"step as encoded: {step.text()}; hypotheses in force: "
                   f"{', '.join(map(str, step.hypotheses)) or 'none'}; reading: "
                   f"{step.reading or 'the display as printed'}; replay: python -m repro findings --id "
                   f"{finding_id(row, step.variant)}", "refuted by counterexample (exact evaluation, 50 digits)",
                   reading=tuple(step.variant))


def findings(results, steps) -> list[Finding]:
    """One finding per refuted step of the runs (each re-decidable by its gate)."""
    return [refuted_step(steps, r["proof"], r["label"], r["point"], _variant(r)) for r in rows(results)
            if r["status"] == REFUTED]


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
    read = [r for r in all_rows if r.get("notation")]
    if read:
        out += ["Steps refuted as first encoded that follow under another reading the print admits (no erratum: the "
                "paper's notation allows it):", "",
                markdown_table(["proof", "display", "reading under which it follows", "status there",
                                "as first encoded: instance, left side, right side"],
                               [[r["proof"], r["label"], r["notation"], r["status"],
                                 f"{exact_point(r['refuted_as_encoded']['point'])}: {fmt(r['refuted_as_encoded']['lhs'])}"
                                 f" > {fmt(r['refuted_as_encoded']['rhs'])}"] for r in read]), ""]
    bad = [r for r in all_rows if r["status"] == REFUTED]
    if bad:
        out += ["Refuted steps (each a finding of kind proof-step):", "",
                markdown_table(["proof", "display", "relation as encoded (cut)", "instance", "left side", "right side",
                                "replay"],
                               [[r["proof"], r["label"], f"`{_short(r['relation'])}`", exact_point(r["point"]), fmt(r["lhs"]),
                                 fmt(r["rhs"]), f"`python -m repro findings --id {finding_id(r, _variant(r))}`"]
                                for r in bad]), ""]
    return out


__all__ = ["chain_facts", "evidence", "finding_id", "findings", "refuted_step", "rows", "section"]
