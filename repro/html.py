"""``make report``: a static HTML version of the report, from the same sources as the Markdown.

``reports/*.md`` become ``reports/html/*.html`` (Markdown rendered by nbconvert's own renderer, mistune); links
between the pages point at the HTML pages, figures are copied into ``reports/html/figures/``, and the executed
notebooks become ``reports/html/notebooks/<paper>.html`` (nbconvert's HTML exporter, images embedded).
:func:`broken_links` lists every link or image of the site that does not resolve (a missing file or anchor).

Written by hand (no library does it): the link rewriting between the Markdown sources and the HTML pages, and the
link check (a small ``html.parser`` walk). Assumption, named: links to ``http(s):``/``mailto:`` are not followed
(the site must work offline; CI has no internet).
"""
from __future__ import annotations

import html
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

from .errors import ReproError
from .io import atomic_write_bytes

STYLE = ("body{font-family:system-ui,sans-serif;max-width:80rem;margin:2rem auto;padding:0 1rem;line-height:1.45}"
         "table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ccc;padding:.2rem .4rem;"
         "vertical-align:top}img{max-width:48rem}code{background:#f4f4f4}blockquote{color:#333;border-left:"
         "4px solid #ccc;margin-left:0;padding-left:1rem}")
_LINK = re.compile(r'(href|src)="([^"#]*)(#[^"]*)?"')


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


def _page(title: str, body: str) -> bytes:
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body>\n{body}\n</body></html>\n").encode("utf-8")


def build_html(reports: Path = Path("reports"), notebooks: Path = Path("notebooks"),
               out: Path | None = None) -> Path:
    """Write the site to ``out`` (default ``reports/html``); returns the path of its entry page ``audit.html``."""
    from nbconvert import HTMLExporter
    from nbconvert.filters.markdown_mistune import markdown2html_mistune
    import nbformat

    out = Path(out) if out is not None else reports / "html"
    pages = sorted(reports.glob("*.md"))
    if not pages:
        raise ReproError(f"reports: no Markdown pages in {reports}; run `python -m repro audit` first")
    figures: set[Path] = set()
    for md in pages:
        body = _rewrite(markdown2html_mistune(md.read_text(encoding="utf-8")), md.parent, figures)
        atomic_write_bytes(out / f"{md.stem}.html", _page(md.stem, body))
    for png in sorted(figures):
        (out / "figures" / png.parent.name).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(png, out / "figures" / png.parent.name / png.name)
    exporter = HTMLExporter(template_name="classic")
    for nb in sorted(notebooks.glob("*.ipynb")):
        body, _ = exporter.from_notebook_node(nbformat.read(nb, as_version=4))
        atomic_write_bytes(out / "notebooks" / f"{nb.stem}.html", body.encode("utf-8"))
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


__all__ = ["build_html", "broken_links"]
