"""``reports/<paper>.md``: one detail page per paper -- every claim and figure statement with its verdict, all of
its evidence, the claims its proof rests on and the figures that test it, then the paper's audit section.

The summary ``reports/audit.md`` (:mod:`repro.report`) links each claim to its anchor here. Figures are matched to
claims by their provenance JSON (``figures/<paper>/<name>.json``, key ``claims``): a figure lists the numbered
claims it illustrates and the id prefix ``<paper>.figureN`` of the paper's figure it rebuilds, whose statements
(``<paper>.figureN.<what>``) it therefore tests.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

from . import registry
from .tables import markdown_table
from .verdicts import ClaimVerdict, counts, observed_text, reading_label, verdict_table


def anchor(claim_id: str) -> str:
    """The HTML anchor of a claim on its paper's page (ids contain dots, which some renderers drop)."""
    return claim_id.replace(".", "-")


def figures_testing(paper: str, figures_dir: Path) -> dict[str, list[Path]]:
    """``{claim id or figure prefix: [png, ...]}`` from the provenance of every figure of ``paper``."""
    out: dict[str, list[Path]] = {}
    for meta in sorted((figures_dir / paper).glob("*.json")):
        png = meta.with_suffix(".png")
        if not png.is_file():
            continue
        for claim in json.loads(meta.read_text(encoding="utf-8")).get("claims", ()):
            out.setdefault(claim, []).append(png)
    return out


def _figures_of(claim_id: str, testing: dict[str, list[Path]]) -> list[Path]:
    """The figures that test ``claim_id``: those naming it, or naming the figure prefix of a statement."""
    prefix = claim_id.rsplit(".", 1)[0]
    return sorted(set(testing.get(claim_id, []) + (testing.get(prefix, []) if prefix.count(".") else [])))


def _what_it_says(paper: str) -> dict[str, str]:
    """The statement of every claim (the encoded one-sentence paraphrase) and every figure statement (the paper's
    own words, quoted)."""
    record = registry.paper(paper)
    out = {c.id: f"{c.statement} *(paraphrase of {c.location})*" for c in record.claims}
    return out | {s.id: f"\"{s.words}\" *({s.location})*" for s in record.statements()}


def _unsaid_numbers(e) -> str:
    """What of the claim's observed value and bound (:func:`repro.verdicts.observed_text`) the evidence's summary
    does not already say: all of it, only what follows it (the excess, or how far above a lower bound)
    beside a near-zero bound, or nothing."""
    numbers = observed_text(e) if e.observed is not None else ""
    stem, _, excess = numbers.partition(" (")
    both = e.observed is not None and all(f"{x:.4g}" in e.summary for x in (e.observed, e.bound))
    if not numbers or numbers in e.summary or both and not excess:
        return ""
    return f" ({excess}" if stem in e.summary else f" ({numbers})"


def _evidence_line(e) -> str:
    where = f" [{reading_label(dict(e.reading))}]" if e.reading else ""
    return (f"- {e.bearing.value}{where} -- `{e.source}`: {e.summary}" + _unsaid_numbers(e)
            + (f" (replay: `{e.replay}`)" if e.replay else ""))


def _figure_lines(png: Path, page_dir: Path, shown: set[Path], testing: dict[str, list[Path]]) -> list[str]:
    """A figure the first time the page shows it (anchored, with a caption naming the claims its provenance says it
    tests and the provenance file), a link to it after that."""
    rel = Path(os.path.relpath(png, page_dir)).as_posix()
    if png in shown:
        return [f"Figure [{png.stem}](#fig-{png.stem}) (above) tests it too.", ""]
    shown.add(png)
    claims = ", ".join(c for c, pngs in testing.items() if png in pngs)
    return [f'<a id="fig-{png.stem}"></a>', "", f"![{png.stem}]({rel})", "",
            f"*Figure {png.stem}: tests {claims}; provenance [{png.stem}.json]({rel[:-4]}.json).*", ""]


def _claim_block(v: ClaimVerdict, says: str, figures: list[str]) -> list[str]:
    lines = [f'<a id="{anchor(v.claim)}"></a>', "", f"### `{v.claim}`: {v.verdict.value}", "", f"> {says}", "",
             f"**Why:** {v.reason}", ""]
    if v.cause:
        lines += ["**Errata behind it:** " + ", ".join(f"`{c}`" for c in v.cause) + " (see the errata in the "
                  "summary)", ""]
    if len(v.readings) > 1:
        lines += ["**Under each reading:**", "", markdown_table(
            ["reading", "verdict", "why"], [[reading_label(r.reading), r.verdict.value, r.reason]
                                            for r in v.readings]), ""]
    if v.depends_on:
        lines += ["**Its proof rests on:** " + ", ".join(f"[`{d}`](#{anchor(d)})" for d in v.depends_on), ""]
    if v.evidence:
        lines += ["**Evidence:**", ""] + [_evidence_line(e) for e in v.evidence] + [""]
    return lines + figures


def proof_coverage_lines(paper: str) -> list[str]:
    """The detail page's "Proof-step coverage": per proof, the displayed steps the suite checks, and which not."""
    from bounds.proofs import coverage
    record = registry.paper(paper)
    displays = record.proof_displays()
    head = ['<a id="proof-step-coverage"></a>', "", "## Proof-step coverage", ""]
    if not displays:
        return head + [f"No coverage table: {record.no_inventory_reason()}.", ""]

    def encoded(proof):
        return sum(any(i.startswith("steps#") for i in d.checked_by) for d in displays if d.proof == proof)
    rows = [[proof, f"{checked} of {shown}", f"{encoded(proof)} of {shown}",
             ", ".join(d.label for d in displays if d.proof == proof and not d.checked_by) or "--"]
            for proof, checked, shown in coverage(displays)]
    total = sum(r[1] for r in coverage(displays)), len(displays)
    places = _label_places(displays)
    return head + [f"{total[0]} of {total[1]} displayed proof steps are checked "
            "(symbolically, numerically or by a finding); the unchecked ones are listed by their labels. "
            "\"Encoded\" counts the displays encoded as a step with its hypotheses and falsification-searched "
            "(experiment `" + paper + ".steps`; a step that fails is a finding of kind proof-step).", "",
            markdown_table(["proof", "steps checked", "encoded and searched", "not checked yet"], rows), ""] + ([
            "Displays the paper does not number are named in this report by the labels below; each is found in the "
            "paper by its place, counting the proof's display blocks from its last numbered display (or from the "
            "proof's start).", "",
            markdown_table(["label", "place in the paper", "what it shows (abbreviated)"], places), ""]
            if places else [])


def _label_places(displays) -> list[list[str]]:
    """``[label, place, what it shows]`` for each display the inventory names by a label of the suite's own (one
    that carries none of the paper's equation numbers and no "display"/"after"): its place as "display k after (n)"
    of its proof, counting the proof's display blocks since its last numbered display (n), or "display k" from the
    proof's start before any. Entries that are lines or steps of one display block ("(7) line 2") count once."""
    return [[d.label, f"{d.proof}, {place}", d.says] for d, place in _placed(displays)]


def _blocks(displays) -> dict[str, list[tuple[str, object]]]:
    """Each proof's display blocks in the paper's order: ``(label without " line m"/" step m", its first display)``;
    the lines or steps of one block count once."""
    blocks: dict[str, list[tuple[str, object]]] = {}
    for d in displays:
        base = re.sub(r" (?:line|step) \d+$", "", d.label)
        if [b for b, _ in blocks.setdefault(d.proof, [])[-1:]] != [base]:
            blocks[d.proof].append((base, d))
    return blocks


def _numbered(base: str) -> bool:
    return re.fullmatch(r"\(\d+[a-z]?\)", base) is not None


def _placed(displays) -> list[tuple]:
    """``(display, place)`` for each display named by a label of the suite's own (:func:`_label_places`), the place
    without its proof's name."""
    rows = []
    for blocks in _blocks(displays).values():
        after, k = "", 0
        for base, d in blocks:
            if _numbered(base):
                after, k = base, 0
                continue
            k += 1
            if not re.search(r"\(\d|display|after ", base):
                rows.append((d, f"display {k}" + (f" after {after}" if after else "")))
    return rows


def with_places(paper: str, text: str) -> str:
    """``text`` with each label of the suite's own for a display the paper does not number ("(L4.5-d)") preceded by
    its place in the paper's numbering: "display 2 after (6) (L4.5-d)" (:func:`_label_places`); and each display
    named by its count from its proof's start, where the text names it after its proof ("Proof of Theorem 7
    (Appendix A.2.2), display 9", a line of it included), followed by a numbered display next to it (the last one
    before it, else the next one), so that it is not read as an equation number: "display 9 (just before (10))"
    (:func:`_neighbours`)."""
    displays = registry.paper(paper).proof_displays()
    for d, place in _placed(displays):
        named = f"{place} {d.label}"
        text = re.sub(rf"(?<!{re.escape(place)} ){re.escape(d.label)}", lambda _: named, text)   # not once placed
    for proof, label, near in _neighbours(displays):
        text = re.sub(rf"({re.escape(proof)}, {re.escape(label)}(?: line \d+)?)(?![\d(]| \(| line)",
                      lambda m, near=near: f"{m.group(1)} ({near})", text)         # not once placed
    return text


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def _neighbours(displays) -> list[tuple[str, str, str]]:
    """``(proof, "display k", near)`` for each display block that its proof's inventory names by its count from the
    proof's start: ``near`` is "just after (n)" / "the j-th display after (n)", n its proof's last numbered display
    before it, or, before any, "just before (n)" / "the j-th display before (n)", n the next one; nothing when the
    proof numbers none. Lines of one block ("display 4 line 2") count once."""
    rows = []
    for proof, blocks in _blocks(displays).items():
        labels = [base for base, _ in blocks]
        numbered = [i for i, base in enumerate(labels) if _numbered(base)]
        for i, base in enumerate(labels):
            before, after = [j for j in numbered if j < i], [j for j in numbered if j > i]
            if not re.fullmatch(r"display \d+", base) or not (before or after):
                continue
            gap, side, j = (i - before[-1], "after", before[-1]) if before else (after[0] - i, "before", after[0])
            near = f"just {side} {labels[j]}" if gap == 1 else f"the {_ordinal(gap)} display {side} {labels[j]}"
            rows.append((proof, base, near))
    return rows


def paper_page(paper: str, verdicts: list[ClaimVerdict], section: str, page_dir: Path, figures_dir: Path,
               findings: list = (), card: list[str] = ()) -> str:
    """The Markdown of ``reports/<paper>.md``: its summary ``card`` (:func:`repro.cards.card`) first, then every
    claim; ``findings`` (the audit's) decide the printed settings' checks."""
    from .coverage import coverage_lines
    from .crossrefs import crossref_lines
    from .settings_audit import section_lines
    record = registry.paper(paper)
    says, testing = _what_it_says(paper), figures_testing(paper, figures_dir)
    tally = ", ".join(f"{n} {k}" for k, n in counts(verdicts).items() if n)
    notebook = (f" · [the executed notebook](../notebooks/{paper}.ipynb)"
                if Path("notebooks", f"{paper}.ipynb").is_file() else "")
    counted = [] if card else [f"{len(verdicts)} claims and figure statements: {tally}.", ""]   # the card counts
    lines = [f"# {record.title}", "", *([record.copy_note, ""] if record.copy_note else []), *card,
             f"[Back to the summary](audit.md){notebook}. Definitions of the verdicts, the kinds of errata, modes and "
             "observed/bound: [glossary](glossary.md).", "", *counted,
             markdown_table(["claim", "where", "verdict", "why"],
                            verdict_table(verdicts, record.locations(), more=lambda claim: f"#{anchor(claim)}")), "",
             "## Claims in detail", ""]
    shown: set[Path] = set()
    for v in verdicts:
        figures = [line for png in _figures_of(v.claim, testing)
                   for line in _figure_lines(png, page_dir, shown, testing)]
        lines += _claim_block(v, says.get(v.claim, ""), figures)
    sentences = coverage_lines(paper, record.checkable_sentences(), verdicts, list(findings))
    sentences += crossref_lines(record, list(findings))
    return "\n".join(lines + proof_coverage_lines(paper) + sentences + section_lines(paper, list(findings))
                     + [section])


__all__ = ["anchor", "figures_testing", "paper_page"]
