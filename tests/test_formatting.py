"""No raw Python dicts in the report's prose (issue: "raw Python dicts in prose").

* :func:`bounds.audit.fmt_point` writes a point, an instance, a configuration or an exponent map as ``k = v, ...``:
  floats shortened (4 significant digits), integers and sympy numbers as printed, ``None`` left out, the value of a
  counterexample last in parentheses;
* the findings every paper's audit builds without cached results (``audit.findings({})``) contain no ``{'``;
* statically, no f-string in ``bounds/`` or the papers' audits interpolates a ``counterexample`` as it is;
* the committed report pages, and what the generator writes from real (tiny) runs, contain no ``{'``.
"""
from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from bounds.audit import fmt_point
from repro.registry import paper as interface, papers

ROOT = Path(__file__).resolve().parents[1]
RAW_DICT = ("{'", '{"')


def _raw(text: str) -> list[str]:
    return [text[max(0, text.find(m) - 80):text.find(m) + 80] for m in RAW_DICT if m in text]


# ---------------------------------------------------------------------------- the formatter
def test_a_dict_becomes_key_equals_value_pairs_in_order():
    assert fmt_point({"E": 50, "n": 1, "q_u": 100}) == "E = 50, n = 1, q_u = 100"
    assert fmt_point({"b": "x", "a": "y"}) == "b = x, a = y"
    assert fmt_point({}) == ""


def test_floats_are_shortened_and_integral_floats_lose_their_point():
    assert fmt_point({"w0_scale": 23.397657905880806, "rho": 1.0, "tiny": 1.23456e-7}) == \
        "w0_scale = 23.4, rho = 1, tiny = 1.235e-07"
    assert fmt_point({"x": np.float64(0.333333333), "k": np.int64(7), "ok": np.bool_(True)}) == "x = 0.3333, k = 7, ok = True"
    assert fmt_point({"x": sp.Float(2.5)}) == "x = 2.5"


def test_none_values_are_left_out():
    assert fmt_point({"E": 1, "K_frac": None, "T": 4}) == "E = 1, T = 4"
    assert fmt_point({"K_frac": None}) == ""


def test_exact_numbers_print_as_sympy_and_fractions_print_them():
    point = {"D": sp.Rational(1, 25), "nu": sp.sqrt(5) / 15, "m": sp.Integer(2), "e": sp.Rational(-4, 3),
             "f": Fraction(2, 1)}
    assert fmt_point(point) == "D = 1/25, nu = sqrt(5)/15, m = 2, e = -4/3, f = 2"


def test_a_counterexample_value_comes_last_in_parentheses():
    assert fmt_point({"E": 50.0, "n": 1.0, "q_u": 100.0, "value": -5937.333333333334}) == \
        "E = 50, n = 1, q_u = 100 (value -5937)"
    assert fmt_point({"value": -0.5}) == "value -0.5"


def test_sequences_and_nested_mappings_are_readable_too():
    assert fmt_point({"y": [0, 0], "tau": (85.0, 86.5), "a": np.array([1.0, 2.0])}) == \
        "y = (0, 0), tau = (85, 86.5), a = (1, 2)"
    assert fmt_point({"i": {"derived": 2, "printed": 2}, "ii": {"derived": 1}}, sep="; ") == \
        "i = (derived = 2, printed = 2); ii = (derived = 1)"


def test_no_output_of_the_formatter_looks_like_a_dict():
    samples = [{"a": {"b": {"c": 1.5}}}, {"l": [{"x": 1}]}, {"s": "t", "v": None, "value": 3}]
    for sample in samples:
        assert not _raw(fmt_point(sample)), fmt_point(sample)


# ---------------------------------------------------------------------------- the findings
@pytest.mark.parametrize("paper", papers())
def test_no_symbolic_finding_shows_a_raw_dict(paper):
    findings = interface(paper).findings({})
    assert findings
    bad = {(f.id, field): _raw(getattr(f, field)) for f in findings for field in ("summary", "evidence", "method")
           if _raw(getattr(f, field))}
    assert not bad, bad


def _sources() -> list[Path]:
    """The mathematics packages and each paper's audit-side modules (audit, statements, evidence, section, ...)."""
    return sorted((ROOT / "bounds").rglob("*.py")) + sorted((ROOT / "repro" / "papers").glob("*/*.py"))


def test_no_f_string_interpolates_a_counterexample_as_it_is():
    """A ``counterexample`` (a dict of a point) goes through ``fmt_point``, never straight into an f-string."""
    bad = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FormattedValue):
                continue
            value = node.value
            name = (value.attr if isinstance(value, ast.Attribute) else value.id if isinstance(value, ast.Name)
                    else value.slice.value if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant)
                    else None)
            if isinstance(name, str) and "counterexample" in name.lower():
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bad, bad


# ---------------------------------------------------------------------------- the pages
def test_the_committed_report_pages_show_no_raw_dict():
    pages = sorted((ROOT / "reports").glob("*.md")) + [ROOT / "README.md"]
    bad = {p.name: len(_raw(p.read_text(encoding="utf-8"))) for p in pages if p.is_file()
           and "{'" in p.read_text(encoding="utf-8")}
    assert not bad, f"raw dicts in {bad}; regenerate with `python -m repro audit`"


@pytest.mark.parametrize("paper", papers())
def test_the_generated_page_shows_no_raw_dict(paper, tiny_results):
    """What ``python -m repro audit`` writes for ``paper`` from results (its section, its findings' table), built
    from real runs: the cheapest quick runs of every audit experiment (tests/conftest.py), computed here. (The
    printed-settings table of the page names findings that need every run; its cells come from the inventory, which
    the committed pages above cover.)"""
    from repro.audited import paper_verdicts
    from repro.tables import findings_table

    module = interface(paper).audit()
    results = tiny_results(module.AUDIT_EXPERIMENTS)
    verdicts = paper_verdicts(paper, results)
    page = module.audit_section(results, "quick", verdicts) + findings_table(module.findings(results))
    assert "{'" not in page, _raw(page)


def test_the_passed_checks_line_separates_support_for_claims_from_checks_that_name_none():
    from types import SimpleNamespace

    from repro.tables import findings_table

    from repro.verdicts import from_findings

    def passed(i, claims, kind="statement-vs-proof"):
        return SimpleNamespace(id=i, claims=claims, kind=kind, verdict="consistent", gate=object(), summary="")
    checks = [passed("toy.a", ("toy.thm1", "toy.lemma2")), passed("toy.b", ()),
              passed("toy.c", ("toy.thm1",), "experiment-settings")]
    line = findings_table(checks).splitlines()[-1]
    assert line.startswith("3 further symbolic and settings checks passed.")
    # support exactly where the verdicts take it: the evidence from_findings gives
    support = sorted({e.source for e in from_findings(checks, ("toy.thm1", "toy.lemma2"))})
    assert support == ["toy.a"]
    assert "1 count as support in the verdicts of the claims named: `toy.a` (toy.thm1, toy.lemma2)" in line
    assert "2 bear on no claim's verdict" in line and line.endswith("`toy.b`, `toy.c` (`python -m repro findings "
                                                                   "--id <id>` shows one).")


@pytest.mark.parametrize("paper", papers())
def test_a_note_on_the_paper_copy_is_said_once_at_the_top_of_its_page(paper):
    """A paper whose copy needs a word (FedCLUP's has its mathematics stripped, and its quotations fill symbols in
    brackets) says it once on its page, before the first quotation (the errata card's)."""
    note = interface(paper).copy_note
    page = Path("reports", f"{paper}.md").read_text(encoding="utf-8")
    if note:
        assert page.count(note) == 1 and page.index(note) < min(page.find(q) for q in ('"', "'") if q in page)
