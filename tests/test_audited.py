"""The record of a paper's verdicts and findings (repro.audited): read back only for the same results under the same
code and libraries; computed whenever the results, a source file or the record itself differ."""
from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from repro import audited

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class _Result:
    hash: str
    arrays: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)


def _results(value: float = 1.0) -> dict:
    return {"toy.runs": [_Result("r0", {"x": np.array([value, 2.0]), "n": np.arange(3)}, {"seed": 0}),
                         _Result("r1", {"x": np.array([[3.0, 4.0]])}, {"seed": 1})]}


@pytest.fixture
def computed(monkeypatch, tmp_path):
    """Every call of the real computation, logged; the records written under a private results root."""
    calls = []
    monkeypatch.setenv("REPRO_RESULTS_DIR", str(tmp_path / "results"))
    monkeypatch.setattr(audited, "compute", lambda paper, results: calls.append(paper) or (
        [f"verdict of {paper} on {results['toy.runs'][0].arrays['x'][0]}"], [f"finding of {paper}"]))
    return calls


def test_a_record_is_read_back_for_the_same_results_and_code(computed):
    assert audited.record("toy", _results()) == (["verdict of toy on 1.0"], ["finding of toy"])
    assert audited.read("toy", _results()) == (["verdict of toy on 1.0"], ["finding of toy"])
    assert computed == ["toy"]                                   # the read computed nothing


@pytest.mark.parametrize("change", ["a value", "a shape", "provenance", "a run less"])
def test_other_results_are_computed_again(computed, change):
    audited.record("toy", _results())
    other = _results(1.5 if change == "a value" else 1.0)
    if change == "a shape":
        other["toy.runs"][1].arrays["x"] = other["toy.runs"][1].arrays["x"].reshape(2, 1)
    elif change == "provenance":
        other["toy.runs"][1].meta["seed"] = 2
    elif change == "a run less":
        other["toy.runs"].pop()
    assert audited.read("toy", other)[0] == [f"verdict of toy on {other['toy.runs'][0].arrays['x'][0]}"]
    assert computed == ["toy", "toy"]


def test_a_changed_source_file_or_library_changes_the_key(tmp_path, monkeypatch):
    for tree in audited.SOURCE_TREES:
        shutil.copytree(ROOT / tree, tmp_path / tree, ignore=shutil.ignore_patterns("__pycache__"))
    before = audited.record_key(_results(), tmp_path)
    assert audited.record_key(_results(), ROOT) == before                     # the copy is the same code
    with open(tmp_path / "bounds" / "core.py", "a") as fh:
        fh.write("# a comment: a finding's text may quote one\n")
    assert audited.record_key(_results(), tmp_path) != before
    (tmp_path / "bounds" / "core.py").write_bytes((ROOT / "bounds" / "core.py").read_bytes())
    assert audited.record_key(_results(), tmp_path) == before
    monkeypatch.setattr(audited, "library_versions", lambda: {"numpy": "0.0"})
    assert audited.record_key(_results(), tmp_path) != before


def test_a_damaged_record_is_computed_again(computed):
    audited.record("toy", _results())
    audited.record_path("toy", _results()).write_bytes(b"not a pickle")
    assert audited.read("toy", _results()) == (["verdict of toy on 1.0"], ["finding of toy"])
    assert computed == ["toy", "toy"]


def test_a_new_record_replaces_the_papers_older_ones(computed):
    audited.record("toy", _results())
    audited.record("toy", _results(2.0))
    audited.record("other", _results())
    names = sorted(p.name.split("-")[0] for p in audited.record_path("toy", _results()).parent.iterdir())
    assert names == ["other", "toy"]
