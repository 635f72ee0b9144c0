"""``reports/audit.md``: the claims table, the symbolic findings and the empirical evidence.

Generic part: run (or load from the cache) every experiment a paper's audit needs and write one
deterministic Markdown file (no timestamps; rerunning with unchanged results rewrites the same
bytes). Each paper package's ``audit`` module provides ``AUDIT_EXPERIMENTS`` (the experiments whose results it
reads), ``verdicts(results)`` and ``audit_section(results, profile, verdicts) -> str``; :mod:`repro.registry`
finds the papers. The report opens with every paper's verdict table, then the sections.
"""
from __future__ import annotations

from pathlib import Path

from . import costs, runner
from .batches import members
from .io import atomic_write_bytes
from repro.experiment import check_profile
from .registry import check_paper, get, part
from .tables import markdown_table
from .verdicts import COUNTS_ORDER, counts, verdict_table
from .registry import papers as all_papers


def experiment_results(names, profile: str, *, jobs: int = 1, scheduler=None, progress: bool = False) -> dict:
    """``{name: results}`` of the named experiments at ``profile`` (cached runs loaded, missing ones computed, all
    in one batch), batched runs expanded into their members (:func:`repro.batches.members`): what figures, the
    audit and the notebooks read."""
    check_profile(profile)
    experiments = {name: get(name) for name in names}
    plan = {name: exp.specs(profile) for name, exp in experiments.items()}
    estimate = costs.lazy_estimate(runner.resolve_results_root(), experiments)
    flat = runner.run_all([s for specs in plan.values() for s in specs], jobs=jobs, scheduler=scheduler,
                          progress=progress, estimate=estimate)
    out, start = {}, 0
    for name, specs in plan.items():
        out[name], start = members(flat[start:start + len(specs)]), start + len(specs)
    return out


GLOSSARY = [
    "Verdicts (one per claim, computed by `repro.verdicts.roll_up` from all of the claim's evidence, under every "
    "reading the paper admits: as printed, with each erratum corrected, each admissible value of a choice it leaves "
    "open): **holds** -- checked on runs or proven symbolically under every reading as printed, never violated; "
    "**holds once corrected** -- fails as printed and holds once the errata it names are corrected; **depends on a "
    "choice** -- holds for one admissible value of an open choice and is violated for another; **violated** -- "
    "violated under every reading (the reason names the worst run or instance and how to replay it); **not proven** "
    "-- nothing breaks it, but the proof does not establish the statement, or rests on a claim that is violated or "
    "not proven; **not checkable** -- no finite computation can decide it, or every check fell inside the numerical "
    "tolerance; **not run** -- no evidence. Mode: how the paper words the claim (deterministic, in expectation, "
    "order, almost-sure limit). Provenance: where the formula is printed (main text, appendix) or that this project "
    "derived it. observed/bound: the claim's own left side over its bound at the worst check (above 1 is a "
    "violation), never a search's internal score.", ""]


def paper_verdicts(paper: str, results: dict) -> list:
    """The verdict of every claim of ``paper`` (its audit module's ``verdicts``), one per encoded claim."""
    verdicts = part(paper, "audit").verdicts(results)
    claims = [c.id for c in part(paper, "experiments").CLAIMS] + [s.id for s in statements(paper)]
    got = [v.claim for v in verdicts]
    if sorted(got) != sorted(claims):
        missing, extra = sorted(set(claims) - set(got)), sorted(set(got) - set(claims))
        raise ValueError(f"verdicts of {paper} do not cover its claims once each: missing {missing}, extra {extra}")
    return verdicts


def statements(paper: str) -> tuple:
    """The statements ``paper`` makes about its figures and tables (:class:`repro.verdicts.Statement`), from its
    audit's ``STATEMENTS`` (none when it declares none)."""
    return tuple(getattr(part(paper, "audit"), "STATEMENTS", ()))


def locations(paper: str) -> dict[str, str]:
    """Where the paper states each claim and each figure statement."""
    return ({c.id: c.location for c in part(paper, "experiments").CLAIMS}
            | {s.id: s.location for s in statements(paper)})


def verdict_summary(paper: str, verdicts: list) -> str:
    """The summary table of one paper: counts by verdict, then claim · where · what it says (a few words) · verdict
    · one line of evidence · link to the claim on the paper's detail page."""
    from .pages import anchor
    experiments = part(paper, "experiments")
    where = locations(paper)
    says = {c.id: c.statement for c in experiments.CLAIMS} | {s.id: f'"{s.words}"' for s in statements(paper)}
    tally = ", ".join(f"{n} {v}" for v, n in counts(verdicts).items() if n)
    rows = [[v.claim, where.get(v.claim, ""), _short(says.get(v.claim, ""), 90), v.verdict.value,
             _short(v.reason, 140), f"[details]({paper}.md#{anchor(v.claim)})"] for v in verdicts]
    return "\n".join([f"### {experiments.TITLE}", "", f"{len(verdicts)} claims and figure statements: {tally}. "
                      f"Details: [`reports/{paper}.md`]({paper}.md).", "",
                      markdown_table(["claim", "where", "what it says", "verdict", "evidence", "details"], rows), ""])


def coverage(paper: str, verdicts: list, findings) -> str:
    """Claims x methods (:data:`repro.verdicts.METHODS`): per cell the pieces of evidence a method gave about the
    claim, with how many of them found something (a violation or a gap; for settings and text, a discrepancy);
    a last row counts the claims each method reached and its findings. Statements about figures count under
    "figures"."""
    from .verdicts import METHODS, Bearing, method_of
    statement_ids = {s.id for s in statements(paper)}
    cells: dict[tuple[str, str], list[int]] = {}
    for v in verdicts:
        for e in v.evidence:
            method = "figures" if v.claim in statement_ids else method_of(e)
            cell = cells.setdefault((v.claim, method), [0, 0])
            cell[0] += 1
            cell[1] += e.bearing in (Bearing.VIOLATES, Bearing.GAP)
    for f in findings:
        if f.kind in ("experiment-settings", "wording", "code"):
            for claim in f.claims or ():
                cell = cells.setdefault((claim, "settings" if f.kind != "code" else "code"), [0, 0])
                cell[0] += 1
                cell[1] += f.verdict == "discrepancy"
    used = [m for m in METHODS if any(m == k[1] for k in cells)]

    def text(cell):
        return "" if cell is None else f"{cell[0]}" + (f" ({cell[1]} found)" if cell[1] else "")
    rows = [[v.claim] + [text(cells.get((v.claim, m))) for m in used] for v in verdicts]
    rows.append(["**claims reached (found)**"] + [
        f"{sum((c, m) in cells for c in (v.claim for v in verdicts))} "
        f"({sum(cells[k][1] for k in cells if k[1] == m)})" for m in used])
    return markdown_table(["claim"] + used, rows)


def proof_summary(paper: str) -> str:
    """One line: displayed proof steps checked, over all of the paper's proofs, with a link to the per-proof table."""
    from .pages import no_inventory_reason, proof_displays
    displays = proof_displays(paper)
    if not displays:
        return f"Proof-step coverage: {no_inventory_reason(paper)}."
    checked, proofs = sum(bool(d.checked_by) for d in displays), len({d.proof for d in displays})
    return (f"Proof-step coverage: {checked} of {len(displays)} displayed steps checked, over {proofs} proofs "
            f"([per proof]({paper}.md#proof-step-coverage)).")


def settings_summary(paper: str) -> str:
    """One line: the paper's printed experimental settings, how many the runs reproduce and how many a finding checks
    against a result's condition, with a link to the per-setting table."""
    from . import settings_audit as S
    printed = S.inventory(paper)
    if not printed:
        return "Printed settings: no inventory yet."
    c = S.coverage(printed)
    return (f"Printed settings: {c['printed']}, of which {c[S.AS_PRINTED]} are run as printed, {c[S.NAMED]} with a "
            f"named deviation, {c[S.DIFFERS]} differ, {c[S.NOT_A_RUN]} are not run settings; "
            f"{c['checked against a condition']} checked against a result's condition, "
            f"{c['condition not checked']} under a condition not checked yet "
            f"([per setting]({paper}.md#printed-settings)).")


def errata_module(paper: str):
    """The paper's ``errata`` module (its declared errata and open choices), or None when it declares none."""
    from .registry import PACKAGE, optional_module
    return optional_module(f"{PACKAGE}.{paper}.errata")


def paper_findings(paper: str, results: dict) -> list:
    """The findings of ``paper``'s audit on ``results`` (none when its audit has no ``findings``)."""
    return list(getattr(part(paper, "audit"), "findings", lambda r: [])(results))


def paper_errata(paper: str, results: dict, verdicts: list, found=None) -> list:
    """The errata of ``paper`` (:func:`repro.errata.paper_errata`) from its verdicts, findings (computed when not
    given: :func:`paper_findings`) and steps runs."""
    from . import errata, proof_audit
    found = paper_findings(paper, results) if found is None else found
    module = errata_module(paper)
    claims = ({c.id: (c.location, c.statement) for c in part(paper, "experiments").CLAIMS}
              | {s.id: (s.location, f'"{s.words}"') for s in statements(paper)})
    chains = proof_audit.chain_facts(proof_audit.rows(results.get(f"{paper}.steps", ())), errata.readings(module))
    return errata.paper_errata(verdicts, list(found), module, claims, chains)


def _affects(paper: str, e, link: bool = True) -> str:
    """``fails as printed: a, b; holds once corrected: c; its value changes the verdict of: d`` (claims linked to
    their detail page). The last names claims whose verdict differs between two admissible readings: the claim's own
    verdict is "depends on a choice" only when one of them holds and another is violated."""
    from .pages import anchor
    def names(ids):
        return ", ".join(f"[`{c}`]({paper}.md#{anchor(c)})" if link else c for c in ids)
    named = set(e.fails_as_printed + e.holds_once_corrected + e.depends)
    also = tuple(c for c in e.found_in if c not in named)
    parts = [(f"fails as printed: {names(e.fails_as_printed)}" if e.fails_as_printed else ""),
             (f"holds once corrected: {names(e.holds_once_corrected)}" if e.holds_once_corrected else ""),
             (f"its value changes the verdict of: {names(e.depends)}" if e.depends else ""),
             (f"found in the evidence of {names(also)} (its verdict rests on other errata)" if also else "")]
    return "; ".join(p for p in parts if p) or "no claim's verdict"


def errata_table(paper: str, reports: list) -> str:
    """One row per erratum: kind, where, what is wrong (one sentence), the claims it affects, the replay."""
    if not reports:
        return "No erratum: nothing fails under any reading."
    return markdown_table(["kind", "erratum", "where", "what is wrong", "affects", "replay"],
                          [[e.kind.value, f"`{e.id}`", e.where, _short(e.sentence, 300), _affects(paper, e),
                            f"`{e.replay}`" if e.replay else ""] for e in reports])


def headline(paper: str, reports: list) -> list[str]:
    """The paper's errata, false statements first: each root cause once, with the claims it affects."""
    tally = ", ".join(f"{n} {k}" for k, n in _kind_counts(reports).items() if n) or "none"
    return [f"### {part(paper, 'experiments').TITLE}", "", f"Errata: {tally}.", "", errata_table(paper, reports), ""]


def _kind_counts(reports: list) -> dict:
    from .errata import Kind
    return {k.value: sum(e.kind is k for e in reports) for k in Kind}


README_MARKERS = ("<!-- verdicts:start (written by `python -m repro audit`; do not edit by hand) -->",
                  "<!-- verdicts:end -->")


def scale(results: dict) -> str:
    """How many runs and seeds per configuration stand behind a paper's verdicts (``results`` as the audit reads
    them: ``{experiment: [result, ...]}``)."""
    import json
    runs = [r for rs in results.values() for r in rs]
    seeds: dict[str, set] = {}
    for r in runs:
        config = {k: v for k, v in r.spec.config.items() if k != "seed"}
        seeds.setdefault(json.dumps(config, sort_keys=True, default=str), set()).add(r.spec.seed)
    per = sorted({len(s) for s in seeds.values()}) or [0]
    spread = str(per[0]) if per[0] == per[-1] else f"{per[0]}-{per[-1]}"
    return f"{len(runs)} runs, {spread} seed{'s' if per[-1] != 1 else ''} per configuration"


def readme_summary(verdicts_by_paper: dict, profile: str, scales: dict | None = None,
                   errata_by_paper: dict | None = None) -> str:
    """The README's "What the suite found": per paper, the verdict counts, the runs behind them, and its errata
    (kind, id, where, the claims it affects; the same objects as the report's tables)."""
    scales, errata_by_paper = scales or {}, errata_by_paper or {}
    lines = [f"Computed from the `{profile}` profile's results (the committed report, figures and notebooks); every "
             "verdict, its evidence and the details are in [`reports/audit.md`](reports/audit.md).", ""]
    for paper, verdicts in verdicts_by_paper.items():
        tally = ", ".join(f"{n} {v}" for v, n in counts(verdicts).items() if n)
        behind = f" ({scales[paper]})" if paper in scales else ""
        lines.append(f"- **{part(paper, 'experiments').TITLE}**: {len(verdicts)} claims and figure statements"
                     f"{behind}: {tally}.")
        lines += [f"  - {e.kind.value}: `{e.id}` ({e.where}): {_short(e.sentence, 160)} -- "
                  f"{_affects(paper, e, link=False)}" for e in errata_by_paper.get(paper, [])]
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


ERRATA_INTRO = ("Each root cause once, false statements first (`python -m repro errata` prints the same list). Its "
                "kind is computed: a *false statement* fails under every reading the paper admits; a *gap* leaves a "
                "statement that survives unproven; an *inconsistency* is two places of the paper (or the paper and "
                "the authors' code) that disagree, one of them failing; a *typo* is a display whose corrected form "
                "is implied and used by the next display; an *unstated choice* is a value the paper leaves open whose "
                "admissible values give a claim different verdicts. \"Fails as printed\" lists the claims that fail "
                "through it (directly or through a claim their proof rests on), \"holds once corrected\" those that "
                "hold under its correction, \"its value changes the verdict of\" those whose verdict differs between "
                "two admissible readings (the claim is *depends on a choice* when one holds and another is violated; "
                "*not checkable* when the others cannot be decided).")
INTRO = ["How to read it: one table per paper gives every claim (numbered results and the statements the paper "
         "makes about its figures) with its computed verdict and the evidence that decided it, after the errata "
         "(each root cause once, with the claims it affects); each claim links to its paper's detail page (`reports/<paper>.md`): all of its evidence, the "
         "figures that test it, and the paper's audit section. A deterministic claim fails on any single run; an "
         "expectation claim only when the lower confidence limit of its Monte-Carlo mean exceeds the bound; a "
         "comparison of noisy runs only when the confidence interval over seeds excludes what the paper says "
         "(inconclusive otherwise, and never counted as a pass).", ""]


def write_audit(output: str | Path = "reports/audit.md", *, profile: str = "quick", jobs: int = 1,
                scheduler=None, progress: bool = True, papers: list[str] | None = None) -> Path:
    """Write the summary ``output`` and one detail page ``<paper>.md`` beside it for each of ``papers`` (default:
    every discovered paper, in their order); the whole audit also rewrites the README's summary."""
    from .pages import paper_page
    from .plotting import figures_root
    check_profile(profile)
    keys = [check_paper(key) for key in papers] if papers else list(all_papers())
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    parts = ["# fedbounds audit report", "", f"Profile: `{profile}`. Generated by `python -m repro audit` from cached "
             "results (`results/`); every number is traceable to a result file by its hash.", ""] + INTRO + GLOSSARY + [
             "Executed notebooks: " + ", ".join(f"[{paper}](../notebooks/{paper}.ipynb)" for paper in keys
                                                if Path("notebooks", f"{paper}.ipynb").is_file()) + ".", ""]
    tables, headlines, by_paper, scales, by_errata = ["## Verdicts", ""], ["## Errata", "", ERRATA_INTRO, ""], {}, {}, {}
    covered = ["## Coverage: what was tried on each claim", "", "Pieces of evidence per claim and method, with how "
               "many found something (a violation, a proof gap, a settings or text discrepancy); an empty cell: the "
               "method was not applied to that claim.", ""]
    for paper in keys:
        module = part(paper, "audit")
        results = experiment_results(module.AUDIT_EXPERIMENTS, profile, jobs=jobs, scheduler=scheduler,
                                     progress=progress)
        verdicts = by_paper[paper] = paper_verdicts(paper, results)
        scales[paper] = scale(results)
        tables.append(verdict_summary(paper, verdicts))
        found = paper_findings(paper, results)
        by_errata[paper] = paper_errata(paper, results, verdicts, found)
        headlines += headline(paper, by_errata[paper])
        covered += [f"### {part(paper, 'experiments').TITLE}", "", coverage(paper, verdicts, found), "",
                    proof_summary(paper), "", settings_summary(paper), ""]
        page = paper_page(paper, verdicts, module.audit_section(results, profile, verdicts), output.parent,
                          figures_root(), found)
        atomic_write_bytes(output.parent / f"{paper}.md", (page.rstrip() + "\n").encode("utf-8"))
    glance = markdown_table(["paper", "claims and statements"] + [v.value for v in COUNTS_ORDER],
                            [[f"[{part(p, 'experiments').TITLE.split(':')[0]}]({p}.md)", len(v)]
                             + list(counts(v).values()) for p, v in by_paper.items()])
    text = "\n".join(parts + tables[:2] + [glance, ""] + headlines + ["## Verdicts per claim", ""] + tables[2:]
                     + covered).rstrip() + "\n"
    atomic_write_bytes(output, text.encode("utf-8"))
    if not papers:                      # the whole audit: the README's summary follows it
        update_readme(Path("README.md"), readme_summary(by_paper, profile, scales, by_errata))
    return output
