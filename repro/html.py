"""``make report``: a static HTML site of the report, from the same sources as the Markdown, that works offline.

``reports/*.md`` become ``reports/html/*.html`` (Markdown rendered by nbconvert's own renderer, mistune); the
executed notebooks become ``reports/html/notebooks/<paper>.html`` (nbconvert's ``basic`` template: the cells only,
no script or style fetched from a CDN); figures are copied into ``reports/html/figures/``. Every page has the same
sidebar (the pages, a search box over claims, errata and figures, the legend of the verdict colours) and a table of
contents of its own headings; tables scroll inside their box, so that a page fits a 1,280 px window. The
notebooks' LaTeX is converted to MathML at build time (``latex2mathml``; Chromium and Firefox render MathML), so
nothing is fetched when a page is viewed. :func:`broken_links` lists every link or image of the site that does not
resolve (a missing file or anchor).

Why nbconvert and not a static-site generator: it is already the notebooks' renderer (a dependency of the suite),
renders the site in seconds, and a generator would add a dependency and a second Markdown dialect for the same pages.

Written by hand (no library does it): the link rewriting between the Markdown sources and the HTML pages, the
escaping of formula asterisks and underscores (``w*_i``, ``G_{i,rho}``) that Markdown would read as emphasis, the sidebar, contents and search
index, and the link check (a small ``html.parser`` walk). Assumptions, named: links to ``http(s):``/``mailto:`` are
not followed (the site must work offline; CI has no internet); a ``*`` right after a letter, digit or closing
bracket, and every ``_``, is a formula's (the reports write emphasis as ``**bold**``, ``*(...)*`` or ``<em>``).
"""
from __future__ import annotations

import html
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

from .errors import ReproError
from .io import atomic_write_bytes

#: the verdicts coloured in tables and headings, with their colours (the sidebar's legend)
VERDICT_COLOURS = {"holds": "#1a7f37", "holds once corrected": "#4d8a1f", "depends on a choice": "#9a6700",
                   "violated": "#cf222e", "not proven": "#bc4c00", "not checkable": "#57606a", "not run": "#8c959f"}
STYLE = ("body{font-family:system-ui,sans-serif;margin:0;line-height:1.45;color:#1f2328}"
         "nav.side{position:fixed;top:0;left:0;bottom:0;width:15rem;overflow-y:auto;padding:1rem;background:#f6f8fa;"
         "border-right:1px solid #d0d7de;box-sizing:border-box;font-size:.9em}nav.side a{display:block}"
         "nav.side input{width:100%;box-sizing:border-box}#results a{font-size:.9em;margin:.2rem 0}"
         "main{margin-left:15rem;padding:1rem 2rem;max-width:70rem;box-sizing:border-box;overflow-wrap:anywhere}"
         ".table-wrap{overflow-x:auto;max-width:100%}table{border-collapse:collapse;font-size:.88em}"
         "td,th{border:1px solid #d0d7de;padding:.2rem .4rem;vertical-align:top;max-width:32rem}"
         "td,th,td code{overflow-wrap:break-word}td.num{white-space:nowrap}img{max-width:100%}"
         "pre{overflow-x:auto;background:#f6f8fa;padding:.5rem}"
         "code{background:#f6f8fa;overflow-wrap:anywhere}blockquote{color:#333;border-left:4px solid #d0d7de;"
         "margin-left:0;padding-left:1rem}details.toc{margin:.5rem 0 1rem}figure{margin:1rem 0}"
         "figcaption{font-size:.9em;color:#57606a}.v{font-weight:600}.m-block{overflow-x:auto;max-width:100%}"
         ".m{display:inline-block;max-width:100%;overflow-x:auto;overflow-y:hidden;vertical-align:middle}"
         + "".join(f".v-{k.replace(' ', '-')}{{color:{c}}}" for k, c in VERDICT_COLOURS.items()))
_LINK = re.compile(r'(href|src)="([^"#]*)(#[^"]*)?"')
_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.S)
#: what formula escaping leaves alone: code, link targets, HTML tags
_PROTECTED = re.compile(r"(```.*?```|`[^`\n]*`|\]\([^)\s]*\)|</?[A-Za-z][^<>\n]*>)", re.S)


def _rewrite(page_html: str, source_dir: Path, figures: set[Path]) -> str:
    """Point links at the HTML pages: ``x.md`` -> ``x.html``, ``../notebooks/p.ipynb`` -> ``notebooks/p.html``,
    ``../figures/...`` -> ``figures/...`` (collected in ``figures`` for copying)."""
    def one(m: re.Match) -> str:
        attr, target, frag = m.group(1), m.group(2), m.group(3) or ""
        if not target or re.match(r"^[a-z]+:", target):
            return m.group(0)
        path = (source_dir / target).resolve()
        if path.suffix == ".md":
            target = path.with_suffix(".html").name
        elif path.suffix == ".ipynb":
            target = f"notebooks/{path.stem}.html"
        elif path.is_file():
            figures.add(path)
            target = f"figures/{path.parent.name}/{path.name}"
        return f'{attr}="{target}{frag}"'
    return _LINK.sub(one, page_html)


def literal_formulas(markdown: str, stars: bool = True) -> str:
    """``markdown`` with the characters of its formulas escaped outside code, link targets and HTML tags: every
    ``_`` (a subscript: the reports never write emphasis with it) and, with ``stars``, a single ``*`` right after a
    letter, digit, ``_``, ``~``, ``'``, ``^``, a closing ``]``/``}``, or a ``)`` and before a word or ``(`` (a product), and
    a ``**`` before a digit (a power), so that
    ``w*_i``, ``G_{i,rho}`` and ``x**2`` stay text instead of opening or closing emphasis."""
    def text(part: str) -> str:
        part = part.replace("_", "\\_")
        if stars:
            part = re.sub(r"(?<![*\\])\*\*(?=\d)", r"\\*\\*", part)
            part = re.sub(r"(?<=[\w~'\]}^])(?<!\*)\*(?!\*)", r"\\*", part)
            part = re.sub(r"(?<=\))\*(?=[\w(])", r"\\*", part)         # ")*(" is a product, ")* " a closer
        return part
    return "".join(p if i % 2 else text(p) for i, p in enumerate(_PROTECTED.split(markdown)))


def _mathml(latex: str, display: bool) -> str:
    from latex2mathml.converter import convert
    try:
        math = convert(latex, display="block" if display else "inline")
    except Exception:                        # a command latex2mathml does not know: the source, as code
        return f"<code>{html.escape(latex)}</code>"
    return f'<div class="m-block">{math}</div>' if display else f'<span class="m">{math}</span>'


def latex_to_mathml(markdown: str) -> str:
    """``markdown`` with its ``$$...$$`` and ``$...$`` formulas (outside code) replaced by MathML."""
    def text(part: str) -> str:
        part = re.sub(r"\$\$(.+?)\$\$", lambda m: _mathml(m.group(1), True), part, flags=re.S)
        return re.sub(r"(?<![\\$])\$([^$]+?)\$", lambda m: _mathml(m.group(1), False), part)
    return "".join(p if i % 2 else text(p) for i, p in enumerate(_CODE.split(markdown)))


def _slug(text: str, seen: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", html.unescape(re.sub(r"<[^>]+>", "", text)).lower()).strip("-") or "section"
    slug, n = base, 1
    while slug in seen:
        n += 1
        slug = f"{base}-{n}"
    seen.add(slug)
    return slug


def _with_contents(body: str) -> str:
    """``body`` with an id on every h2/h3 that has none, and a table of contents of them in front."""
    seen: set[str] = set(re.findall(r'id="([^"]+)"', body))
    entries = []

    def heading(m: re.Match) -> str:
        level, attrs, inner = m.group(1), m.group(2), m.group(3)
        found = re.search(r'id="([^"]+)"', attrs)
        ident = found.group(1) if found else _slug(inner, seen)
        entries.append((level, ident, html.escape(html.unescape(re.sub(r"<[^>]+>", "", inner)).strip("¶ "))))
        return f'<h{level}{attrs if found else attrs + f" id={chr(34)}{ident}{chr(34)}"}>{inner}</h{level}>'
    body = re.sub(r"<h([23])([^>]*)>(.*?)</h\1>", heading, body, flags=re.S)
    if len(entries) < 2:
        return body
    items = "".join(f'<li style="margin-left:{(int(lv) - 2) * 1.2}rem"><a href="#{i}">{t}</a></li>'
                    for lv, i, t in entries)
    opened = " open" if len(entries) <= 12 else ""            # a long page's contents start folded
    toc = f'<details class="toc"{opened}><summary>Contents ({len(entries)})</summary><ul>{items}</ul></details>\n'
    title_end = body.find("</h1>")
    return body[:title_end + 5] + toc + body[title_end + 5:] if title_end >= 0 else toc + body


#: a table cell holding one number (sign, digits, decimal point, exponent; a range, ratio or percentage of them)
_NUMBER_CELL = re.compile(r"<td>([-+\u2212]?\d[\d.,eE+\-\u2212\u2013/%\u00d7x]*)</td>")
#: where a long token of a cell may break: after a dot or slash not followed by a digit (so no number is split), an
#: underscore, a comma, or a single star (a product, not the ``**`` of a power)
_BREAK_AFTER = re.compile(r"((?:\.|/)(?!\d)|_|,|(?<!\*)\*(?!\*))(?=[^\s<])")
#: tokens of a cell at least this long (dotted identifiers, formulas) get those break points; shorter ones none
LONG_TOKEN = 20


def _fitted_cells(body: str) -> str:
    """Table cells laid out for reading: a number stays on one line (``td.num``), a long token may break only at
    :data:`_BREAK_AFTER` (``<wbr>``, invisible to copy and search), and no word is broken anywhere else: cells use
    ``overflow-wrap: break-word``, since ``anywhere`` let the browser narrow a column to one character ("violate|d",
    "0.0|5")."""
    def cell(m: re.Match) -> str:
        parts = re.split(r"(<math.*?</math>|<[^>]+>)", m.group(1), flags=re.S)
        for i in range(0, len(parts), 2):                  # the text between tags and formulas
            parts[i] = re.sub(rf"\S{{{LONG_TOKEN},}}", lambda t: _BREAK_AFTER.sub(r"\1<wbr>", t.group(0)), parts[i])
        return f"<td>{''.join(parts)}</td>"
    return re.sub(r"<td>(.*?)</td>", cell, _NUMBER_CELL.sub(r'<td class="num">\1</td>', body), flags=re.S)


def _coloured(body: str) -> str:
    """Verdict words in table cells and in headings ("`x`: holds") wrapped in their colour, cells fitted
    (:func:`_fitted_cells`); tables in a box that scrolls inside the page."""
    names = "|".join(re.escape(v) for v in sorted(VERDICT_COLOURS, key=len, reverse=True))
    span = lambda v: f'<span class="v v-{v.replace(" ", "-")}">{v}</span>'   # noqa: E731
    body = re.sub(rf"<td>({names})</td>", lambda m: f"<td>{span(m.group(1))}</td>", body)
    body = re.sub(rf"(</code>: )({names})(</h3>)", lambda m: m.group(1) + span(m.group(2)) + m.group(3), body)
    body = _fitted_cells(body)
    return body.replace("<table>", '<div class="table-wrap"><table>').replace("</table>", "</table></div>")


def _nav(prefix: str, papers: list[tuple[str, str]]) -> str:
    """The sidebar: the pages (``prefix`` reaches the site's root), the search box, the legend."""
    links = [f'<a href="{prefix}audit.html">Summary</a>', f'<a href="{prefix}glossary.html">Glossary</a>']
    for key, title in papers:
        links += [f'<a href="{prefix}{key}.html">{html.escape(title.split(":")[0])}</a>',
                  f'<a href="{prefix}notebooks/{key}.html" style="margin-left:1rem">notebook</a>']
    legend = "".join(f'<div class="v v-{v.replace(" ", "-")}">{v}</div>' for v in VERDICT_COLOURS)
    return (f'<nav class="side"><strong>fedbounds</strong>{"".join(links)}<p><label for="q">Search claims, '
            f'errata, figures</label><input id="q" type="search" placeholder="e.g. Lemma 4.6"></p><div id="results">'
            f'</div><p>Verdicts:</p>{legend}</nav><script src="{prefix}search.js"></script>')


def _page(title: str, body: str, nav: str, head: str = "") -> bytes:
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style>{head}</head><body>\n{nav}<main>\n{body}\n</main></body></html>\n"
            ).encode("utf-8")


def _table_rows(markdown: str, header: str) -> list[list[str]]:
    """The rows of the Markdown table whose header line starts with ``header``."""
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(header):
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in row.strip().strip("|").split(" | ")])
            return rows
    return []


def search_index(reports: Path, papers: list[tuple[str, str]]) -> list[dict]:
    """What the search box finds, read from the pages it links to: every claim (its id, place and verdict), every
    erratum (kind, place, what) and every figure (its file name and the claims its provenance names)."""
    from .pages import anchor
    out = []
    for key, title in papers:
        page = reports / f"{key}.md"
        if not page.is_file():
            continue
        text = page.read_text(encoding="utf-8")
        for cid, where, verdict, *_ in _table_rows(text, "| claim | where | verdict |"):
            out.append({"text": f"{where} {cid} {verdict}", "label": f"{title.split(':')[0]}: {where} ({verdict})",
                        "href": f"{key}.html#{anchor(cid)}"})
        for kind, eid, where, what, *_ in _table_rows(text, "| kind | erratum | where |"):
            out.append({"text": f"{kind} {where} {what} {eid}", "label": f"{title.split(':')[0]}: {kind}, {where}",
                        "href": f"{key}.html#errata"})
    for meta in sorted((reports.parent / "figures").glob("*/*.json")):
        claims = json.loads(meta.read_text(encoding="utf-8")).get("claims", [])
        paper = meta.parent.name
        out.append({"text": f"figure {meta.stem} {' '.join(claims)}", "label": f"figure {paper}/{meta.stem}",
                    "href": f"{paper}.html#fig-{meta.stem}"})
    return out


_SEARCH_JS = """const box = document.getElementById('q'), list = document.getElementById('results');
const root = document.currentScript.src.replace(/search\\.js$/, '');
box.addEventListener('input', () => {
  const words = box.value.toLowerCase().split(/\\s+/).filter(w => w);
  list.replaceChildren(...(words.length ? INDEX.filter(e => words.every(w => e.text.toLowerCase().includes(w)))
    .slice(0, 25).map(e => { const a = document.createElement('a'); a.href = root + e.href; a.textContent = e.label;
      return a; }) : []));
});"""


def _notebook_body(nb_path: Path) -> str:
    """A notebook's cells as HTML, its LaTeX as MathML (nbconvert's ``basic`` template: no head, no scripts)."""
    from nbconvert import HTMLExporter
    import nbformat
    nb = nbformat.read(nb_path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":              # the notebooks' prose writes *emphasis*: only _ escaped
            cell.source = literal_formulas(latex_to_mathml(cell.source), stars=False)
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "text/markdown" in data:
                data["text/markdown"] = literal_formulas(latex_to_mathml(data["text/markdown"]))
    body, _ = HTMLExporter(template_name="basic").from_notebook_node(nb)
    return body


def build_html(reports: Path = Path("reports"), notebooks: Path = Path("notebooks"),
               out: Path | None = None) -> Path:
    """Write the site to ``out`` (default ``reports/html``); returns the path of its entry page ``audit.html``."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune
    from pygments.formatters import HtmlFormatter
    from .registry import paper as interface, papers as all_papers

    out = Path(out) if out is not None else reports / "html"
    pages = sorted(reports.glob("*.md"))
    if not pages:
        raise ReproError(f"reports: no Markdown pages in {reports}; run `python -m repro audit` first")
    papers = [(k, interface(k).title) for k in all_papers() if (reports / f"{k}.md").is_file()]
    titles = dict(papers) | {"audit": "fedbounds: what the audit found", "glossary": "Glossary"}
    figures: set[Path] = set()
    for md in pages:
        body = _rewrite(markdown2html_mistune(literal_formulas(md.read_text(encoding="utf-8"))), md.parent, figures)
        atomic_write_bytes(out / f"{md.stem}.html", _page(titles.get(md.stem, md.stem),
                                                          _with_contents(_coloured(body)), _nav("", papers)))
    for png in sorted(figures):
        (out / "figures" / png.parent.name).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(png, out / "figures" / png.parent.name / png.name)
    atomic_write_bytes(out / "search.js", (f"const INDEX = {json.dumps(search_index(reports, papers))};\n"
                                           + _SEARCH_JS).encode("utf-8"))
    code_style = f"<style>{HtmlFormatter().get_style_defs('.highlight')}</style>"
    for nb in sorted(notebooks.glob("*.ipynb")):
        title = f"{titles.get(nb.stem, nb.stem).split(':')[0]}: notebook"
        back = f'<p><a href="../{nb.stem}.html">The paper\'s page</a> · <a href="../audit.html">Summary</a></p>'
        atomic_write_bytes(out / "notebooks" / f"{nb.stem}.html",
                           _page(title, back + _coloured(_notebook_body(nb)), _nav("../", papers), code_style))
    return out / "audit.html"


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self.anchors: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name"):
            if attrs.get(key):
                self.anchors.add(attrs[key])
        for key in ("href", "src"):
            if attrs.get(key) is not None:
                self.links.append((tag, attrs[key]))


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _anchors(parsed: dict, path: Path) -> set[str]:
    """The anchors of ``path``: from ``parsed`` when the page is part of the site (each page is parsed once)."""
    return (parsed[path] if path in parsed else _parse(path)).anchors


def broken_links(site: Path) -> list[str]:
    """Every ``href``/``src`` of the site's pages whose file or anchor does not exist, as ``page: link``."""
    site = site.resolve()
    parsed = {p.resolve(): _parse(p) for p in sorted(site.rglob("*.html"))}
    bad = []
    for page, links in parsed.items():
        for _, link in links.links:
            if re.match(r"^(https?|mailto|data|javascript):", link):
                continue
            target, _, frag = link.partition("#")
            path = (page.parent / target).resolve() if target else page.resolve()
            if not path.is_file():
                bad.append(f"{page.relative_to(site)}: {link} (no such file)")
            elif frag and path.suffix == ".html" and frag not in _anchors(parsed, path):
                bad.append(f"{page.relative_to(site)}: {link} (no such anchor)")
    return bad


def _orphans(out: Path) -> None:
    """Remove the folders a killed build left beside ``out`` (``.<name>.<pid>.<random>.tmp``, the pid no longer a
    process: :func:`repro.io.remove_orphan_temporaries` decides by the same rule for files)."""
    from .io import _alive
    for folder in out.parent.glob(f".{out.name}.*.tmp"):
        pid = folder.name[len(out.name) + 2:].split(".")[0]
        if folder.is_dir() and pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _swap_in(new: Path, out: Path) -> None:
    """Put the folder ``new`` where ``out`` is: two renames in one directory (a directory cannot replace a non-empty
    one in one rename), the old site removed only once the new one is in place; if the second rename fails, the old
    site is put back."""
    old = new.with_name(new.name[:-len(".tmp")] + ".old.tmp")
    if out.exists():
        out.rename(old)
    try:
        new.rename(out)
    except BaseException:
        if old.exists():
            old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def write_site(out: Path, reports: Path = Path("reports"), notebooks: Path = Path("notebooks")) -> Path:
    """``python -m repro html``: build the site in a folder beside ``out``, check its links there, and swap it in
    only when every link resolves; on any failure (a broken link, an error, Ctrl-C) the site in ``out`` stays as it
    was, byte for byte. ``out`` is checked before anything is built: a folder (or nothing yet) in a folder this
    user can write to. Returns the new entry page."""
    import os
    import tempfile
    from .io import ensure_writable_directory
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ReproError(f"--output={str(out)!r} is not admissible: a folder for the site (it is a file)")
    ensure_writable_directory(out.parent, "--output's folder")
    _orphans(out)
    new = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.{os.getpid()}.", suffix=".tmp"))
    try:
        build_html(reports, notebooks, new)
        bad = broken_links(new)
        if bad:
            raise ReproError(f"{len(bad)} broken links in the site built for {out}, e.g. {bad[0]}; the site in "
                             f"{out} is unchanged")
        new.chmod(0o755)
        _swap_in(new, out)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    return out / "audit.html"


__all__ = ["build_html", "broken_links", "write_site"]
