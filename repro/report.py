"""``reports/audit.md``: the claims table, the symbolic findings and the empirical evidence.

Generic part: run (or load from the cache) every experiment a paper's audit needs and write one
deterministic Markdown file (no timestamps; rerunning with unchanged results rewrites the same
bytes). Each paper package's ``audit`` module provides ``AUDIT_EXPERIMENTS`` (the experiments whose results it
reads), ``verdicts(results)`` and ``audit_section(results, profile, verdicts) -> str``; :mod:`repro.registry`
finds the papers. The report opens with every paper's verdict table, then the sections.
"""
from __future__ import annotations

from pathlib import Path

from . import audited, costs, runner
from .batches import members
from .errors import ConfigError
from .io import atomic_write_bytes
from repro.experiment import check_profile
from . import registry
from .registry import check_paper, get
from .tables import markdown_table
from .verdicts import COUNTS_ORDER, counts


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
    return plan_results(plan, flat)


def plan_results(plan: dict, flat: list) -> dict:
    """``{name: results}`` of ``plan`` (``{name: specs}``) from ``flat``, the results of its specs in that order,
    batched runs expanded into their members."""
    out, start = {}, 0
    for name, specs in plan.items():
        out[name], start = members(flat[start:start + len(specs)]), start + len(specs)
    return out


GLOSSARY = ("**Verdicts**, each computed from all of a claim's evidence under every reading the paper admits (as "
            "printed, with each erratum corrected, each admissible value of a choice it leaves open): <em>holds</em>; "
            "<em>holds once corrected</em>; <em>depends on a choice</em>; <em>violated</em> (under every reading); "
            "<em>not proven</em> (nothing breaks it, but its proof does not establish it); <em>not checkable</em> "
            "(nothing computed decides it: a limit or an order no finite run decides, checks inside the numerical "
            "tolerance, or comparisons whose confidence intervals straddle what the paper says, i.e. inconclusive at "
            "the seeds run); <em>not run</em>.\n\n**Errata**, each root cause once, its kind "
            "computed: a <em>false statement</em> fails under every reading; a <em>gap</em> leaves a statement that "
            "survives unproven; an <em>inconsistency</em> is two places (or the paper and the authors' code) that "
            "disagree; a <em>typo</em> is a display whose corrected form the next one uses; an <em>unstated "
            "choice</em> is an open value that changes a verdict.\n\n**Checks.** A deterministic "
            "claim fails on any single run or instance beyond the check's float tolerance; an expectation claim only "
            "when the lower confidence limit of its Monte-Carlo mean exceeds the bound; a comparison of noisy runs "
            "only when its confidence interval over seeds excludes what the paper says (inconclusive otherwise, never "
            "counted as a pass). **Mode**: how the paper words a claim (deterministic, in expectation, order, "
            "almost-sure limit). **observed/bound**: the claim's own left side over its bound at the worst check "
            "(above 1 is a violation; for a lower bound, named \"against lower bound\" or \"of a lower bound\", "
            "the ratio that exceeds 1 when the observed side falls below it), never a search's internal score; "
            "where a bound is near zero the two sides are shown instead.\n\n**Places** are the paper's own: its "
            "numbering where it has one; an unnumbered display of a proof is \"display k\" of that proof, k counting "
            "its display blocks from the proof's start, or \"display k after (n)\", counting from its last numbered "
            "display (n), followed by the label the report gives it where it has one (\"display 2 after (6) "
            "(L4.5-d)\"), and \"line m\" the m-th relation line of an aligned chain. An erratum at \"display k\" "
            "also names a numbered display next to it, the last one before it or else the next (\"display 9 (just "
            "before (10))\"): k is a count, not the paper's equation (k).\n\n"
            "**Evidence** lines "
            "open with what the piece says of the claim: <em>supports</em>, <em>violates</em> (with its replay), "
            "<em>leaves unproven</em> (a step or hypothesis its proof needs fails; the erratum behind it may be of any "
            "kind), <em>inconclusive</em>, <em>not checkable</em>.")


def coverage(paper: str, verdicts: list, findings) -> str:
    """Claims x methods (:data:`repro.verdicts.METHODS`): per cell the pieces of evidence a method gave about the
    claim, with how many of them found something (a violation or a gap; for settings and text, a discrepancy);
    a last row counts the claims each method reached and its findings. Statements about figures count under
    "figures"."""
    from .verdicts import METHODS, Bearing, method_of
    statement_ids = {s.id for s in registry.paper(paper).statements()}
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
    record = registry.paper(paper)
    displays = record.proof_displays()
    if not displays:
        return f"Proof-step coverage: {record.no_inventory_reason()}."
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


def paper_errata(paper: str, results: dict, verdicts: list, found=None) -> list:
    """The errata of ``paper`` (:func:`repro.errata.paper_errata`) from its verdicts, findings (computed when not
    given: the paper's own) and steps runs."""
    from . import errata, proof_audit
    record = registry.paper(paper)
    found = record.findings(results) if found is None else found
    module = record.errata_module()
    claims = ({c.id: (c.location, c.statement) for c in record.claims}
              | {s.id: (s.location, f'"{s.words}"') for s in record.statements()})
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
    """One row per erratum: kind, where (a display the paper does not number by its place there, then the report's
    label), what is wrong (one sentence), the claims it affects, the replay."""
    from .pages import with_places
    if not reports:
        return "No erratum: nothing fails under any reading."
    return markdown_table(["kind", "erratum", "where", "what is wrong", "affects", "replay"],
                          [[e.kind.value, f"`{e.id}`", with_places(paper, e.where), _short(e.sentence, 300),
                            _affects(paper, e), f"`{e.replay}`" if e.replay else ""] for e in reports])


def _kind_counts(reports: list) -> str:
    """How many errata of each kind ``reports`` holds, in words ("4 false statements, 1 gap"), or "none"."""
    from .errata import Kind
    counts = {k: sum(e.kind is k for e in reports) for k in Kind}
    return ", ".join(k.counted(n) for k, n in counts.items() if n) or "none"


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


def readme_summary(lines: list[str], profile: str) -> str:
    """The README's "What the suite found": per paper its verdict counts and its errata by kind
    (:func:`repro.cards.readme_card`), under one line saying where they come from."""
    return "\n".join([f"From the `{profile}` profile's results; each paper's card in "
                      "[`reports/audit.md`](reports/audit.md) says what is wrong in plain sentences.", ""] + lines)


def _short(text: str, width: int = 180) -> str:
    """``text`` cut at a word boundary to at most ``width`` characters (the full reason is in the report)."""
    return text if len(text) <= width else text[:width].rsplit(" ", 1)[0] + " ..."


def _readme_with(path: Path, summary: str) -> bytes | None:
    """The bytes of ``path`` with the text between :data:`README_MARKERS` replaced by ``summary``; None if the file
    or its markers are absent."""
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    start, end = README_MARKERS
    if start not in text or end not in text:
        return None
    head, rest = text.split(start, 1)
    return (head + start + "\n" + summary + "\n" + end + rest.split(end, 1)[1]).encode("utf-8")


def update_readme(path: Path, summary: str) -> bool:
    """Replace the text between :data:`README_MARKERS` in ``path`` (atomically); False if the markers are absent."""
    text = _readme_with(path, summary)
    if text is not None:
        atomic_write_bytes(path, text)
    return text is not None


def _check_outputs(output: Path, keys: list[str]) -> None:
    """Before anything is computed or written: ``output`` and the pages beside it are files (not folders) in a
    folder this user can write to; a one-line ConfigError otherwise."""
    from .io import ensure_writable_directory
    for path in [output, output.parent / "glossary.md"] + [output.parent / f"{key}.md" for key in keys]:
        if path.is_dir():
            raise ConfigError(f"--output={str(output)!r} is not admissible: the audit writes the file {path}, "
                              "which is a folder")
    ensure_writable_directory(output.parent, "--output's folder")


def _write_all(files: dict[Path, bytes]) -> None:
    """Write every file, all or none as far as a file system allows: each is first written in full to a temporary
    file beside it (``.<name>.<pid>.<random>.tmp``, removed on failure and, if the process is killed, by the next
    batch's :func:`repro.io.remove_orphan_temporaries`), and only once all are written are they renamed into place."""
    import os
    import tempfile
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in files.items():
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp")
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o644)
        for tmp, path in staged:
            os.replace(tmp, path)
    finally:
        for tmp, _ in staged:
            if os.path.exists(tmp):
                os.unlink(tmp)


def _paper_audit(paper: str, profile: str, page_dir: Path, **run) -> tuple[list, list, list, bytes]:
    """One paper's part of the audit: its summary card, its row of the table at a glance, its README card and the
    bytes of its page ``<paper>.md``; ``run`` (jobs, scheduler, progress) says how missing runs are computed."""
    from .cards import card, readme_card
    from .coverage import summary as sentence_summary
    from .pages import paper_page
    from .plotting import figures_root
    record = registry.paper(paper)
    module = record.audit()
    results = experiment_results(module.AUDIT_EXPERIMENTS, profile, **run)
    verdicts, found = audited.record(paper, results)    # recorded for the notebooks (repro.audited)
    reports = paper_errata(paper, results, verdicts, found)
    how_sure = f"`{profile}` profile, {scale(results)}" + ("; not at the papers' scale" if profile != "paper" else "")
    notebook = Path("notebooks", f"{paper}.ipynb").is_file()
    row = ([f"[{record.title.split(':')[0]}](#{paper})", len(verdicts)] + list(counts(verdicts).values())
           + [_kind_counts(reports)])
    details = ['<a id="errata"></a>', "", "## Errata", "", errata_table(paper, reports), "",
               "## Coverage: what was tried on each claim", "",
               coverage(paper, verdicts, found), "", proof_summary(paper), "", settings_summary(paper), "",
               sentence_summary(paper, record.checkable_sentences(), verdicts, found), ""]
    page = paper_page(paper, verdicts, "\n".join(details) + "\n" + module.audit_section(results, profile, verdicts),
                      page_dir, figures_root(), found, card(paper, verdicts, reports, how_sure, notebook, on_its_page=True))
    return (card(paper, verdicts, reports, how_sure, notebook), row, readme_card(paper, verdicts, reports),
            (page.rstrip() + "\n").encode("utf-8"))


def _paper_audits(keys: list[str], profile: str, page_dir: Path, *, jobs: int, scheduler, progress: bool) -> list:
    """:func:`_paper_audit` of every paper of ``keys``, in that order; with ``jobs`` > 1 and no dask scheduler, up to
    ``jobs`` papers at a time in joblib processes (each paper's audit is single-threaded Python and sympy), each
    computing its paper's missing runs with one job and no progress bar."""
    if jobs == 1 or len(keys) == 1 or scheduler is not None:
        return [_paper_audit(key, profile, page_dir, jobs=jobs, scheduler=scheduler, progress=progress) for key in keys]
    from joblib import Parallel, delayed
    return Parallel(n_jobs=min(jobs, len(keys)), batch_size=1)(
        delayed(_paper_audit)(key, profile, page_dir, jobs=1, progress=False) for key in keys)


def write_audit(output: str | Path = "reports/audit.md", *, profile: str = "quick", jobs: int = 1,
                scheduler=None, progress: bool = True, papers: list[str] | None = None) -> Path:
    """Write the summary ``output`` (a table of counts and one card per paper: :mod:`repro.cards`) and one detail page
    ``<paper>.md`` beside it for each of ``papers`` (default: every discovered paper, in their order); the whole audit
    also rewrites the README's summary. The outputs are checked before anything is computed, every page is built
    before any is written, and they are written all together (:func:`_write_all`): a failed audit leaves the pages
    as they were."""
    check_profile(profile)
    keys = [check_paper(key) for key in papers] if papers else list(registry.papers())
    output = Path(output)
    _check_outputs(output, keys)
    cards, rows, readme, files = [], [], [], {}
    sections = _paper_audits(keys, profile, output.parent, jobs=jobs, scheduler=scheduler, progress=progress)
    for paper, (more, row, lines, page) in zip(keys, sections):
        cards, readme, files[output.parent / f"{paper}.md"] = cards + more, readme + lines, page
        rows.append(row)
    glance = markdown_table(["paper", "claims"] + [v.value for v in COUNTS_ORDER] + ["errata"], rows)
    text = "\n".join(["# fedbounds: what the audit found", "",
                      "Every numbered result of four papers and the sentences about their figures, put to "
                      f"computation (`python -m repro audit`, profile `{profile}`); each paper's page has every "
                      "claim's evidence and replay.",
                      "", glance, "", "Verdicts and kinds of errata: [glossary](glossary.md).", ""]
                     + cards).rstrip() + "\n"
    files[output] = text.encode("utf-8")
    files[output.parent / "glossary.md"] = f"# Glossary\n\n{GLOSSARY}\n".encode("utf-8")
    summary = _readme_with(Path("README.md"), readme_summary(readme, profile)) if not papers else None
    if summary is not None:             # the whole audit: the README's summary follows it
        files[Path("README.md")] = summary
    _write_all(files)
    return output
