"""`make report`'s HTML site: built from the committed Markdown pages, notebooks and figures, every link and image
resolves (files and anchors); the checker itself sees a missing file and a missing anchor."""
from __future__ import annotations

from pathlib import Path

from repro.html import broken_links, build_html

ROOT = Path(__file__).resolve().parents[1]


def test_the_committed_report_builds_and_every_link_and_image_resolves(tmp_path):
    entry = build_html(ROOT / "reports", ROOT / "notebooks", tmp_path / "site")
    assert entry.is_file()
    site = tmp_path / "site"
    assert broken_links(site) == []
    pages = {p.stem for p in site.glob("*.html")}
    assert pages == {p.stem for p in (ROOT / "reports").glob("*.md")}
    assert {p.stem for p in (site / "notebooks").glob("*.html")} == {p.stem for p in (ROOT / "notebooks").glob("*.ipynb")}
    summary = entry.read_text(encoding="utf-8")
    for page in pages - {"audit"}:                          # the summary links every paper's detail page
        assert f'href="{page}.html' in summary, page
    assert list((site / "figures").rglob("*.png")), "no figure made it into the site"


def test_broken_links_sees_a_missing_file_and_a_missing_anchor(tmp_path):
    (tmp_path / "a.html").write_text('<a href="b.html#here">x</a><a href="b.html#gone">y</a>'
                                     '<img src="figures/none.png"><a href="https://example.org">z</a>')
    (tmp_path / "b.html").write_text('<h2 id="here">B</h2><a href="#here">self</a>')
    assert broken_links(tmp_path) == ["a.html: b.html#gone (no such anchor)",
                                      "a.html: figures/none.png (no such file)"]
