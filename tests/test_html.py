"""`make report`'s HTML site, built from the committed Markdown pages, notebooks and figures: every link and image
resolves (the checker itself sees a missing file and a missing anchor), and in a real browser (Debian's Chromium,
installed by `make browser`) every page loads with nothing fetched from outside the machine, fits a 1,280 px window,
has the navigation, shows no raw LaTeX, no `**` and no formula set in italics or bold, and the search finds a claim
by the paper's own number. The test writes the screenshots of the entry page and a paper page in docs/screenshots
(rewritten only when their pixels change)."""
from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from repro.html import LONG_TOKEN, broken_links, build_html, latex_to_mathml, literal_formulas

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: the flags that keep Chromium off the network and quiet as root in a container
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic"]
WIDTH = 1280


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    entry = build_html(ROOT / "reports", ROOT / "notebooks", out)
    assert entry == out / "audit.html" and entry.is_file()
    return out


def test_the_committed_report_builds_and_every_link_and_image_resolves(site):
    assert broken_links(site) == []
    pages = {p.stem for p in site.glob("*.html")}
    assert pages == {p.stem for p in (ROOT / "reports").glob("*.md")}
    assert {p.stem for p in (site / "notebooks").glob("*.html")} == {p.stem for p in (ROOT / "notebooks").glob("*.ipynb")}
    summary = (site / "audit.html").read_text(encoding="utf-8")
    for page in pages - {"audit"}:                          # the sidebar links every page
        assert f'href="{page}.html' in summary, page
    assert list((site / "figures").rglob("*.png")), "no figure made it into the site"


def test_broken_links_sees_a_missing_file_and_a_missing_anchor(tmp_path):
    (tmp_path / "a.html").write_text('<a href="b.html#here">x</a><a href="b.html#gone">y</a>'
                                     '<img src="figures/none.png"><a href="https://example.org">z</a>')
    (tmp_path / "b.html").write_text('<h2 id="here">B</h2><a href="#here">self</a>')
    assert broken_links(tmp_path) == ["a.html: b.html#gone (no such anchor)",
                                      "a.html: figures/none.png (no such file)"]


def test_formula_asterisks_and_underscores_stay_text_and_deliberate_emphasis_stays():
    md = "||w~_i - w*_i||^2, f(x*), x**2 but **gap**, *(fails: a)*, `code*x_y*` and [a_b](p.md#a_b)"
    assert literal_formulas(md) == (r"||w~\_i - w\*\_i||^2, f(x\*), x\*\*2 but **gap**, *(fails: a)*, `code*x_y*` "
                                    r"and [a\_b](p.md#a_b)")
    assert literal_formulas("*derived here* and x_i", stars=False) == r"*derived here* and x\_i"
    assert literal_formulas("d <= D**2 + (a)*(b) >= 0 <em>t</em>") == r"d <= D\*\*2 + (a)\*(b) >= 0 <em>t</em>"
    html = latex_to_mathml(r"a $\frac12$ b $$x^2$$ and `$not$`")
    assert html.count("<math") == 2 and "`$not$`" in html and "\\frac" not in html


def test_a_cell_keeps_its_numbers_whole_and_breaks_long_tokens_only_at_their_joints():
    from repro.html import _fitted_cells
    body = ('<td>5.351e-23</td><td>violated</td><td><code>fedclup.figure2.rounds_direction</code> at 0.0071-0.0075, '
            'D**(2/3)*H**(4/3)*L**(2/3)*m</td><td><math><mi>x_i.y_j.z_k.w_l.v_m.u_n</mi></math></td>')
    cells = re.findall(r"<td[^>]*>.*?</td>", _fitted_cells(body))
    assert cells[0] == '<td class="num">5.351e-23</td>' and cells[1] == "<td>violated</td>"
    assert "<code>fedclup.<wbr>figure2.<wbr>rounds_<wbr>direction</code> at 0.0071-0.0075," in cells[2]
    assert "D**(2/3)*<wbr>H**(4/3)*<wbr>L**(2/3)*<wbr>m" in cells[2]           # powers and fractions stay whole
    assert "<wbr>" not in cells[3]                                                 # formulas are MathML's to lay out
    assert re.sub("<wbr>", "", _fitted_cells(body)) == body.replace("<td>5.351", '<td class="num">5.351')


# ---------------------------------------------------------------------------- in a real browser
@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"no Chromium at {CHROMIUM}: `make browser` installs Debian's chromium package")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


def _pages(site: Path) -> list[Path]:
    return sorted(site.glob("*.html")) + sorted((site / "notebooks").glob("*.html"))


#: elements wider than the window that no scrolling box of the page contains
_OVERFLOW = """w => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > w + 1
    && !(function inside(a) { for (; a && a !== document.body; a = a.parentElement) {
         const o = getComputedStyle(a).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; }
         return false; })(e.parentElement)).slice(0, 3).map(e => e.tagName + ': ' + e.textContent.slice(0, 60))"""
#: the text a reader reads: the main column without code
_PROSE = """() => { const m = document.querySelector('main').cloneNode(true);
    m.querySelectorAll('pre, code, .highlight, .jp-InputArea, .input').forEach(e => e.remove()); return m.textContent; }"""
#: emphasis holding a formula (Markdown read a formula's asterisks as emphasis)
_FORMULA_EMPHASIS = """() => [...document.querySelectorAll('main em, main strong')].map(e => e.textContent)
    .filter(t => /\\|\\||\\^|_\\{|\\b[A-Za-z]_[A-Za-z0-9]\\b/.test(t)).slice(0, 3)"""

#: table cells and headers holding one word shorter than repro.html.LONG_TOKEN, without a hyphen (a number, a
#: verdict, a short identifier), that the browser laid out over more than one line: a word broken inside
#: ("violate|d", "0.0|5", "clai|ms")
_SPLIT_WORDS = """n => [...document.querySelectorAll('td, th')].map(td => [td, td.innerText.trim()])
    .filter(([td, t]) => t && t.length < n && !/[\\s-]/.test(t)).filter(([td, t]) => {
        const texts = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        for (let node = texts.nextNode(); node; node = texts.nextNode()) {
            const r = document.createRange(); r.selectNodeContents(node);
            if (new Set([...r.getClientRects()].map(q => Math.round(q.top))).size > 1) return true; }
        return false; })
    .slice(0, 3).map(([td, t]) => t)"""


def test_every_page_loads_offline_fits_the_window_has_navigation_and_no_raw_markup(site, browser):
    page = browser.new_page(viewport={"width": WIDTH, "height": 900})
    remote: list[str] = []
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
               else (remote.append(route.request.url), route.abort()))
    problems = []
    for path in _pages(site):
        page.goto(path.as_uri())
        name = path.relative_to(site).as_posix()
        prose = page.evaluate(_PROSE)
        for what, bad in (("scroll width", page.evaluate("document.documentElement.scrollWidth") > WIDTH),
                          ("elements wider than the window", page.evaluate(_OVERFLOW, WIDTH)),
                          ("navigation", page.locator("nav.side a").count() < 10),
                          ("raw LaTeX", re.findall(r"\\frac|\$\$|\$\\", prose)),
                          ("stray **", re.findall(r"(?:^|\s)\*\*|\*\*(?:\s|$)", prose)),
                          ("formula in italics or bold", page.evaluate(_FORMULA_EMPHASIS)),
                          ("a word of a table cell split over lines", page.evaluate(_SPLIT_WORDS, LONG_TOKEN))):
            if bad:
                problems.append(f"{name}: {what}: {bad}")
    assert remote == [] and problems == [], (remote[:5], problems)


def test_the_search_finds_a_claim_by_the_papers_own_number(site, browser):
    page = browser.new_page(viewport={"width": WIDTH, "height": 900})
    page.goto((site / "audit.html").as_uri())
    page.fill("#q", "Lemma 4.6")
    hits = page.locator("#results a")
    assert hits.count() >= 1
    targets = [hits.nth(i).get_attribute("href") for i in range(hits.count())]
    assert any(t.endswith("pcfedavg.html#pcfedavg-lemma4-6") for t in targets), targets
    page.locator("#results a", has_text="PC-FedAvg: Lemma 4.6").first.click()
    page.wait_for_url("**/pcfedavg.html#pcfedavg-lemma4-6")
    page.wait_for_load_state("load")
    assert page.locator("#pcfedavg-lemma4-6").count() == 1
    page.fill("#q", "no such claim anywhere")
    assert page.locator("#results a").count() == 0


def _same_pixels(png: bytes, path: Path) -> bool:
    from PIL import Image
    if not path.is_file():
        return False
    return np.array_equal(np.asarray(Image.open(io.BytesIO(png))), np.asarray(Image.open(path)))


def test_screenshots_of_the_entry_page_and_a_paper_page_for_the_docs(site, browser):
    page = browser.new_page(viewport={"width": WIDTH, "height": 900})
    docs = ROOT / "docs" / "screenshots"
    docs.mkdir(parents=True, exist_ok=True)
    for name in ("audit", "pcfedavg"):
        page.goto((site / f"{name}.html").as_uri())
        png = page.screenshot()
        assert len(png) > 10_000
        target = docs / f"{name}.png"
        if not _same_pixels(png, target):
            target.write_bytes(png)
