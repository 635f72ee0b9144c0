"""Cells, tables and result selection for the reports and notebooks: the formatting every paper's audit shares.
Imports nothing of the report itself, so a paper's figures and summaries may use it."""
from __future__ import annotations

import numpy as np


def fmt(x, digits: int = 4) -> str:
    """A number for a report cell: ``digits`` significant digits, "nan" when not finite, ``str`` otherwise."""
    try:
        x = float(x)
    except (TypeError, ValueError):
        return str(x)
    return "nan" if not np.isfinite(x) else f"{x:.{digits}g}"


def select_results(results, **match) -> list:
    """The results whose config has every given key equal to the given value."""
    return [r for r in results if all(r.spec.config.get(k) == v for k, v in match.items())]


def markdown_table(header: list[str], rows: list[list]) -> str:
    """A GitHub-flavoured Markdown table; '|' inside cells is escaped."""
    def cell(x):
        return str(x).replace("|", "\\|").replace("\n", " ")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def findings_table(findings) -> str:
    """The audit's "Symbolic and settings findings" table: one row per :class:`bounds.audit.Finding` whose check
    did not pass (a consistent finding is support for its claims' verdicts, not a finding), each naming the
    computation that decided it; then how many checks passed. A finding without its gate is refused."""
    ungated = [f.id for f in findings if getattr(f, "gate", None) is None]
    if ungated:
        raise ValueError(f"findings without the computation that decided them: {', '.join(ungated)}")
    shown = [f for f in findings if f.verdict != "consistent"]
    table = markdown_table(["id", "kind", "claims", "verdict", "summary", "evidence", "computed by"],
                           [[f.id, f.kind, ", ".join(f.claims), f.verdict, f.summary, f.evidence,
                             (f"{f.method}; " if f.method else "") + f"`{f.gate.fn.__qualname__}`; replay: "
                             f"`python -m repro findings --id {f.id}`"] for f in shown]) if shown else "No symbolic or settings check found a discrepancy."
    return table + _passed_line([f for f in findings if f.verdict == "consistent"])


def _passed_line(passed) -> str:
    """The line under the findings table: the checks that passed, those that support the verdicts of the claims they
    name (:func:`repro.verdicts.from_findings`: every kind but ``NOT_ABOUT_THE_CLAIM``), each with its claims, apart
    from those that bear on no claim's verdict (they name none, or are of such a kind: the sentences, printed
    settings and figure statements that cite them read them)."""
    if not passed:
        return ""
    from repro.verdicts import NOT_ABOUT_THE_CLAIM       # here: listing experiments imports this module, not verdicts

    supports = [bool(f.claims) and f.kind not in NOT_ABOUT_THE_CLAIM for f in passed]
    named = [f"`{f.id}` ({', '.join(f.claims)})" for f, s in zip(passed, supports) if s]
    free = [f"`{f.id}`" for f, s in zip(passed, supports) if not s]
    parts = [f"{len(named)} count as support in the verdicts of the claims named: {', '.join(named)}"] if named else []
    parts += [f"{len(free)} bear on no claim's verdict (they name none, or are of a kind that does not: "
              f"{', '.join(sorted(NOT_ABOUT_THE_CLAIM))}; the sentences, settings and figures that cite them read "
              f"them): {', '.join(free)}"] if free else []
    return (f"\n\n{len(passed)} further symbolic and settings checks passed. {'; '.join(parts)} "
            f"(`python -m repro findings --id <id>` shows one).")
