"""``reports/audit.md``: the claims table, the symbolic findings and the empirical evidence.

Generic part: run (or load from the cache) every experiment a paper's audit needs and write one
deterministic Markdown file (no timestamps; rerunning with unchanged results rewrites the same
bytes). Each paper package's ``audit`` module provides ``AUDIT_EXPERIMENTS`` (the experiments whose results it
reads), ``verdicts(results)`` and ``audit_section(results, profile, verdicts) -> str``; :mod:`repro.registry`
finds the papers. The report opens with every paper's verdict table, then the sections.
"""
from __future__ import annotations

from pathlib import Path

from . import runner
from .batches import members
from .io import atomic_write_bytes
from repro.experiment import check_profile
from .registry import check_paper, get, part
from .tables import markdown_table
from .verdicts import counts, verdict_table
from .registry import papers as all_papers


def experiment_results(names, profile: str, *, jobs: int = 1, scheduler=None, progress: bool = False) -> dict:
    """``{name: results}`` of the named experiments at ``profile`` (cached runs loaded, missing ones computed, all
    in one batch), batched runs expanded into their members (:func:`repro.batches.members`): what figures, the
    audit and the notebooks read."""
    check_profile(profile)
    plan = {name: get(name).specs(profile) for name in names}
    flat = runner.run_all([s for specs in plan.values() for s in specs], jobs=jobs, scheduler=scheduler,
                          progress=progress)
    out, start = {}, 0
    for name, specs in plan.items():
        out[name], start = members(flat[start:start + len(specs)]), start + len(specs)
    return out


GLOSSARY = [
    "Verdicts (one per claim, computed by `repro.verdicts.roll_up` from all of the claim's evidence): **holds** -- "
    "checked on runs or proven symbolically, never violated; **violated** -- a run or instance breaks it (the reason "
    "names the worst one and how to replay it); **not proven** -- nothing breaks it, but the proof does not establish "
    "the statement as printed, or rests on a claim that is violated or not proven; **not checkable** -- no finite "
    "computation can decide it, or every check fell inside the numerical tolerance; **not run** -- no evidence. "
    "Mode: how the paper words the claim (deterministic, in expectation, order, almost-sure limit). Provenance: "
    "where the formula is printed (main text, appendix) or that this project derived it. observed/bound: the "
    "largest ratio of the measured left side to the claimed bound over the checks (above 1 is a violation).", ""]


def paper_verdicts(paper: str, results: dict) -> list:
    """The verdict of every claim of ``paper`` (its audit module's ``verdicts``), one per encoded claim."""
    verdicts = part(paper, "audit").verdicts(results)
    claims = [c.id for c in part(paper, "experiments").CLAIMS]
    got = [v.claim for v in verdicts]
    if sorted(got) != sorted(claims):
        missing, extra = sorted(set(claims) - set(got)), sorted(set(got) - set(claims))
        raise ValueError(f"verdicts of {paper} do not cover its claims once each: missing {missing}, extra {extra}")
    return verdicts


def verdict_summary(paper: str, verdicts: list) -> str:
    """The summary table of one paper: counts by verdict, then claim · where · verdict · why."""
    experiments = part(paper, "experiments")
    where = {c.id: c.location for c in experiments.CLAIMS}
    tally = ", ".join(f"{n} {v}" for v, n in counts(verdicts).items() if n)
    return "\n".join([f"### {experiments.TITLE}", "", f"{len(verdicts)} claims: {tally}.", "",
                      markdown_table(["claim", "where", "verdict", "why"], verdict_table(verdicts, where)), ""])


README_MARKERS = ("<!-- verdicts:start (written by `python -m repro audit`; do not edit by hand) -->",
                  "<!-- verdicts:end -->")


def readme_summary(verdicts_by_paper: dict, profile: str) -> str:
    """The README's "What the suite found": per paper, the verdict counts and the claims that are violated or not
    proven, each with the reason that decided it (the same objects as the report's tables)."""
    lines = [f"Computed from the `{profile}` profile's results; every verdict, its evidence and the details are in "
             "[`reports/audit.md`](reports/audit.md).", ""]
    for paper, verdicts in verdicts_by_paper.items():
        tally = ", ".join(f"{n} {v}" for v, n in counts(verdicts).items() if n)
        lines.append(f"- **{part(paper, 'experiments').TITLE}**: {len(verdicts)} claims: {tally}.")
        lines += [f"  - `{v.claim}` {v.verdict.value}: {_short(v.reason)}" for v in verdicts
                  if v.verdict.value in ("violated", "not proven")]
    return "\n".join(lines)


def _short(text: str, width: int = 180) -> str:
    """``text`` cut at a word boundary to at most ``width`` characters (the full reason is in the report)."""
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0] + " ..."


def update_readme(path: Path, summary: str) -> bool:
    """Replace the text between :data:`README_MARKERS` in ``path`` (atomically); False if the markers are absent."""
    if not path.is_file():
        return False
    text = path.read_text(encoding="utf-8")
    start, end = README_MARKERS
    if start not in text or end not in text:
        return False
    head, rest = text.split(start, 1)
    atomic_write_bytes(path, (head + start + "\n" + summary + "\n" + end + rest.split(end, 1)[1]).encode("utf-8"))
    return True


def write_audit(output: str | Path = "reports/audit.md", *, profile: str = "quick", jobs: int = 1,
                scheduler=None, progress: bool = True, papers: list[str] | None = None) -> Path:
    """Write the audit of ``papers`` (default: every discovered paper, in their order) to ``output``."""
    check_profile(profile)
    keys = [check_paper(key) for key in papers] if papers else list(all_papers())
    parts = ["# fedbounds audit report", "",
             f"Profile: `{profile}`. Generated by `python -m repro audit` from cached results "
             "(`results/`); every number below is traceable to a result file by its hash.", "",
             "How to read it: the verdict tables below give one computed verdict per claim with the evidence "
             "that decided it; each paper's section then has the details -- per claim its mode, what was proven "
             "symbolically, how many instances were run and the worst observed/bound; every failure or "
             "discrepancy with its evidence (instance, seed, numbers, or sympy expression). A deterministic claim "
             "fails on any single run; an expectation claim only when the lower confidence limit of its "
             "Monte-Carlo mean exceeds the bound. Violations within the solver tolerance of f* are "
             "inconclusive, never a pass.", ""] + GLOSSARY + ["## Verdicts", ""]
    sections, by_paper = [], {}
    for paper in keys:
        module = part(paper, "audit")
        results = experiment_results(module.AUDIT_EXPERIMENTS, profile, jobs=jobs, scheduler=scheduler,
                                     progress=progress)
        verdicts = by_paper[paper] = paper_verdicts(paper, results)
        parts.append(verdict_summary(paper, verdicts))
        sections.append(module.audit_section(results, profile, verdicts))
    parts += sections
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(output, ("\n".join(parts).rstrip() + "\n").encode("utf-8"))
    if not papers:                      # the whole audit: the README's summary follows it
        update_readme(Path("README.md"), readme_summary(by_paper, profile))
    return output
