"""Every experimental setting a paper prints, against the runs that reproduce it and the results it illustrates.

Each paper keeps an inventory, ``repro/papers/<paper>/settings.py``: ``PRINTED``, one :class:`Printed` per setting the
paper prints for its experiments (step sizes, schedules, penalty sequences, batch sizes, numbers of rounds, clients and
samples, data descriptions), with the paper's words and where they stand. Two things are computed for each, never
typed:

* **as run**: the values that the suite's ``paper``-profile runs use for it (the config key ``key`` of each run of
  ``experiment``), against the printed value. A difference is either one the suite names (``deviation``: why the
  reproduction departs from the print, e.g. a choice the paper leaves open) or a defect of the reproduction, which
  ``tests/test_settings_audit.py`` fails on. A setting that no run config carries (a data description checked
  elsewhere) names why (``not_a_run``).
* **against the results**: the findings that test the printed value against the conditions of the results it
  illustrates (``checked_by``: finding ids of the paper's audit, each of kind ``experiment-settings``,
  ``hypotheses`` or ``wording``), with their verdicts as the audit decides them; or why no stated condition bears on
  the setting (``unconditioned``, e.g. the number of rounds of a convergence plot, which no result constrains); or,
  as ``unconditioned = "NOT CHECKED: <result and condition>"``, a condition that applies and that no finding checks
  yet: a gap of the audit, shown and counted as such.

The detail page of each paper shows the table (:func:`section_lines`), and the audit's coverage table counts the
settings checked against a condition. Assumption (named): a printed set of values (a sweep) is reproduced when every
printed value appears among the runs' values; numbers are compared to 12 significant digits.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from .errors import ReproError

AS_PRINTED, NAMED, DIFFERS, NOT_A_RUN = "as printed", "deviates (named)", "differs", "not a run setting"


@dataclass(frozen=True)
class Printed:
    """One setting as the paper prints it. ``value`` is in the units of the run config's ``key`` (the quote keeps the
    paper's own units: "batch percentage 10%" is ``0.1`` of ``batch_fraction``); a tuple is a printed sweep."""

    id: str                      # "<paper>.setting.<slug>"
    where: str                   # the paper's section, figure or table
    quote: str                   # the paper's words
    value: object                # number, string, or tuple of them (a sweep)
    illustrates: tuple[str, ...] = ()        # claim ids of the results the experiment illustrates
    experiment: str | None = None            # the suite's experiment that runs it ...
    key: str | None = None                   # ... and the config key that carries it
    deviation: str = ""                      # why the suite's runs differ from the print (named, not hidden)
    not_a_run: str = ""                      # why no run config carries it (with experiment None)
    checked_by: tuple[str, ...] = ()         # findings that test it against the conditions of a result
    unconditioned: str = ""                  # why no stated condition bears on it (with checked_by empty)


def _canon(value):
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return float(f"{float(value):.12g}") if math.isfinite(value) else float(value)
    if isinstance(value, (list, tuple)):
        return tuple(_canon(v) for v in value)
    return str(value)


@cache
def _paper_configs(experiment: str) -> tuple[dict, ...]:
    """The configs of the paper-profile runs of ``experiment``, batch members included (built once: SSCA's
    figures alone have thousands of runs)."""
    from .batches import member_configs
    from .registry import get
    return tuple(c for s in get(experiment).specs("paper") for c in member_configs(s.config))


@cache
def _used(experiment: str, key: str) -> frozenset:
    """The values ``key`` takes in the paper-profile runs of ``experiment``, batch members included."""
    values = {_canon(c[key]) for c in _paper_configs(experiment) if key in c}
    if not values:
        raise ReproError(f"setting key={key!r} is in no paper-profile config of {experiment}")
    return frozenset(values)


def as_run(p: Printed) -> tuple[str, frozenset]:
    """(status, the values the paper-profile runs use) of one setting."""
    if p.experiment is None:
        return NOT_A_RUN, frozenset()
    used, printed = _used(p.experiment, p.key), _canon(p.value)
    sweep = isinstance(printed, tuple) and not any(isinstance(u, tuple) for u in used)
    same = set(printed) <= used if sweep else printed in used
    return (AS_PRINTED if same else NAMED if p.deviation else DIFFERS), used


def check_inventory(inventory: tuple[Printed, ...], finding_ids: set[str], claim_ids: set[str]) -> list[str]:
    """What is wrong with an inventory (empty when nothing): each setting has a run or says why not, has findings or
    says why none apply, names only existing findings and claims, and no id repeats."""
    errors, seen = [], set()
    for p in inventory:
        errors += [f"{p.id}: repeated id"] * (p.id in seen)
        seen.add(p.id)
        if (p.experiment is None) == (not p.not_a_run):
            errors.append(f"{p.id}: give experiment and key, or not_a_run (why no run config carries it)")
        if bool(p.checked_by) == bool(p.unconditioned):
            errors.append(f"{p.id}: give checked_by (finding ids) or unconditioned (why no condition applies)")
        errors += [f"{p.id}: unknown finding {f}" for f in p.checked_by if f not in finding_ids]
        errors += [f"{p.id}: unknown claim {c}" for c in p.illustrates if c not in claim_ids]
        if not p.quote.strip() or not p.where.strip():
            errors.append(f"{p.id}: the paper's words and their place are required")
    return errors


def _fmt(value) -> str:
    if isinstance(value, tuple):
        return ", ".join(_fmt(v) for v in value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def rows(inventory: tuple[Printed, ...], findings: list) -> list[list[str]]:
    """The table rows: setting, where, printed value, as run, conditions (finding: verdict). ``findings`` are all of
    the audit's (with results); a setting naming a finding they lack raises :class:`ReproError`."""
    verdict = {f.id: f.verdict for f in findings}
    unknown = sorted({f for p in inventory for f in p.checked_by} - set(verdict))
    if unknown:
        raise ReproError(f"checked_by={unknown[0]!r} is not a finding of the audit ({len(unknown)} unknown): "
                         "name findings that `python -m repro findings` lists")
    out = []
    for p in inventory:
        status, used = as_run(p)
        run = status if status != NAMED else f"{status}: {p.deviation}"
        if status in (NAMED, DIFFERS):
            run += f" (runs use {_fmt(tuple(sorted(used, key=str)))})"
        if status == NOT_A_RUN:
            run = f"{status}: {p.not_a_run}"
        cond = ("; ".join(f"{f}: {verdict[f]}" for f in p.checked_by) if p.checked_by
                else f"a condition applies, not checked yet: {_gap(p)}" if _gap(p) else f"none applies: {p.unconditioned}")
        out.append([p.id.split(".setting.")[-1], p.where, f"\"{p.quote}\" ({_fmt(p.value)})", run, cond])
    return out


def _gap(p: Printed) -> str:
    """The condition a result puts on the setting that no finding checks yet (``unconditioned`` = "NOT CHECKED:
    <the result and its condition>"), or ""."""
    head, _, rest = p.unconditioned.partition(":")
    return rest.strip() if head.strip() == "NOT CHECKED" else ""


def coverage(inventory: tuple[Printed, ...]) -> dict[str, int]:
    """Counts: printed, reproduced as printed, named deviations, differing, not a run setting, checked against a
    result's condition."""
    status = [as_run(p)[0] for p in inventory]
    return {"printed": len(inventory), AS_PRINTED: status.count(AS_PRINTED), NAMED: status.count(NAMED),
            DIFFERS: status.count(DIFFERS), NOT_A_RUN: status.count(NOT_A_RUN),
            "checked against a condition": sum(bool(p.checked_by) for p in inventory),
            "condition not checked": sum(bool(_gap(p)) for p in inventory)}


def inventory(paper: str) -> tuple[Printed, ...]:
    """The paper's printed settings (empty when it declares none)."""
    from .registry import paper as interface
    return interface(paper).printed_settings()


def section_lines(paper: str, findings: list) -> list[str]:
    """The detail page's "Printed experimental settings" section."""
    from .tables import markdown_table
    printed = inventory(paper)
    head = ['<a id="printed-settings"></a>', "", "## Printed experimental settings", ""]
    if not printed:
        return head + ["No inventory of the printed settings yet.", ""]
    c = coverage(printed)
    return head + [
        f"{c['printed']} settings printed: {c[AS_PRINTED]} reproduced as printed by the paper-profile runs, "
        f"{c[NAMED]} with a named deviation, {c[DIFFERS]} differing, {c[NOT_A_RUN]} not a run setting; "
        f"{c['checked against a condition']} checked against the conditions of the results they illustrate "
        f"(the findings named, with the audit's verdicts), {c['condition not checked']} under a condition that no "
        "finding checks yet (named in the last column).", "",
        markdown_table(["setting", "where", "printed", "as run (paper profile)", "against the results"],
                       rows(printed, findings)), ""]


__all__ = ["Printed", "as_run", "check_inventory", "coverage", "inventory", "rows", "section_lines"]
