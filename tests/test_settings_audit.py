"""The inventories of printed experimental settings (repro.settings_audit): well formed, every difference between the
print and the paper-profile runs named, and the comparison able to fail."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from repro import settings_audit as S
from repro.errors import ReproError
from repro.registry import paper as interface, papers

ROOT = Path(__file__).resolve().parents[1]


def _finding_ids(paper: str) -> set[str]:
    """The findings the audit decides without results, and those the committed detail page shows (the settings
    findings that need runs, e.g. the step sizes of the data figures)."""
    page = (ROOT / "reports" / f"{paper}.md").read_text(encoding="utf-8")
    return {f.id for f in interface(paper).findings({})} | set(re.findall(rf"\b{paper}\.[A-Za-z0-9_.\-]+", page))


@pytest.mark.parametrize("paper", papers())
def test_inventory_is_well_formed(paper):
    inventory = S.inventory(paper)
    assert inventory, f"{paper} has no inventory of its printed settings"
    claims = {c.id for c in interface(paper).claims} | {s.id for s in interface(paper).statements()}
    assert S.check_inventory(inventory, _finding_ids(paper), claims) == []


@pytest.mark.parametrize("paper", papers())
def test_every_difference_from_the_print_is_named(paper):
    differing = [p.id for p in S.inventory(paper) if S.as_run(p)[0] == S.DIFFERS]
    assert differing == [], "the paper-profile runs differ from the print without a named deviation"


def test_a_changed_print_is_seen():
    """The as-run comparison can fail: a printed value the runs do not use differs, unless a deviation is named."""
    printed = next(p for paper in papers() for p in S.inventory(paper) if S.as_run(p)[0] == S.AS_PRINTED
                   and isinstance(p.value, (int, float)) and not isinstance(p.value, bool))
    changed = dataclasses.replace(printed, value=printed.value * 2 + 1)
    assert S.as_run(changed)[0] == S.DIFFERS
    assert S.as_run(dataclasses.replace(changed, deviation="a named reason"))[0] == S.NAMED


def test_a_missing_finding_is_an_error():
    printed = next(p for paper in papers() for p in S.inventory(paper) if p.checked_by)
    with pytest.raises(ReproError, match="checked_by="):
        S.rows((printed,), [])


def test_check_inventory_reports_each_defect():
    bare = S.Printed(id="x.setting.a", where="", quote="", value=1.0)
    errors = S.check_inventory((bare, bare), set(), set())
    assert any("repeated id" in e for e in errors)
    assert any("not_a_run" in e for e in errors) and any("unconditioned" in e for e in errors)
    assert any("words and their place" in e for e in errors)
    wrong = dataclasses.replace(bare, where="Section 1", quote="q", not_a_run="fixed by the loader",
                                checked_by=("x.f",), illustrates=("x.c",))
    assert S.check_inventory((wrong,), set(), set()) == ["x.setting.a: unknown finding x.f", "x.setting.a: unknown claim x.c"]
