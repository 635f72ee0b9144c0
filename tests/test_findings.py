"""Findings are computed objects (issue: no conclusion typed by hand).

* every finding a paper's audit shows carries the gate that decided it, and re-running the gate gives it back with
  the same verdict and summary;
* statically, every ``Finding(...)`` in ``bounds/`` and in the papers' audits is built inside a finding producer
  (``@producer``), and a verdict constant given to it is chosen by a condition of that producer (an ``if`` around it,
  a conditional expression, or a guard that returns earlier), never passed unconditionally;
* the gate machinery itself: a producer whose computation finds nothing returns nothing, and a generator argument is
  replayed from its state before the first call.

Assumption, named: the findings checked at run time are those each audit builds without cached results
(``audit.findings({})``); the ones derived from results are covered by the same static rule and, where the cache
exists, by the per-paper verdict tests.
"""
from __future__ import annotations

import ast
import pickle
import re
from pathlib import Path

import cloudpickle
import numpy as np
import pytest

from bounds import audit as A
from repro.registry import paper as interface, papers

ROOT = Path(__file__).resolve().parents[1]
VERDICT_NAMES = {"DISCREPANCY", "CONSISTENT", "NOT_CHECKABLE"}
VERDICT_STRINGS = {A.DISCREPANCY, A.CONSISTENT, A.NOT_CHECKABLE}


def _sources() -> list[Path]:
    """Every module that may build findings: the mathematics packages and each paper's audit-side modules."""
    sources = sorted((ROOT / "bounds").rglob("*.py")) + sorted((ROOT / "repro" / "papers").glob("*/*.py"))
    assert any(p.match("bounds/pcfedavg/prop48_findings.py") for p in sources)
    return sources


@pytest.mark.parametrize("paper", papers())
def test_every_finding_carries_its_gate_and_rerunning_it_gives_it_back(paper):
    findings = interface(paper).findings({})
    assert findings, f"{paper}: the audit shows no findings at all"
    for f in findings:
        assert f.gate is not None, f"{f.id}: no gate (built outside a @producer)"
        again = {g.id: g for g in f.gate()}
        assert f.id in again, f"{f.id}: re-running {f.gate.name} does not produce it"
        assert (again[f.id].verdict, again[f.id].summary) == (f.verdict, f.summary), f.id
    # as the audit records them for the notebooks (repro.audited): read back equal, gates naming the same producers
    restored = pickle.loads(cloudpickle.dumps(findings))
    assert restored == findings and [f.gate.name for f in restored] == [f.gate.name for f in findings]


@pytest.mark.parametrize("paper", papers())
def test_finding_ids_are_unique(paper):
    ids = [f.id for f in interface(paper).findings({})]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


def _is_producer(fn: ast.AST) -> bool:
    return any((isinstance(d, ast.Name) and d.id == "producer")
               or (isinstance(d, ast.Attribute) and d.attr == "producer") for d in fn.decorator_list)


def _is_finding_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and (
        (isinstance(node.func, ast.Name) and node.func.id == "Finding")
        or (isinstance(node.func, ast.Attribute) and node.func.attr == "Finding"))


def _verdict_arg(call: ast.Call):
    for kw in call.keywords:
        if kw.arg == "verdict":
            return kw.value
    return call.args[3] if len(call.args) > 3 else None


def _is_constant_verdict(node) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in VERDICT_STRINGS
    return (isinstance(node, ast.Name) and node.id in VERDICT_NAMES) or (
        isinstance(node, ast.Attribute) and node.attr in VERDICT_NAMES)


def _guarded(fn: ast.FunctionDef, call: ast.Call, parents: dict) -> bool:
    """The call sits in a branch of an ``if`` (or a loop's filtered body) inside ``fn``, or ``fn`` returns earlier
    under a condition (a guard such as ``if not gap: return None``)."""
    node = call
    while node is not fn:
        parent = parents[node]
        if isinstance(parent, (ast.If, ast.IfExp)) and node is not parent.test:
            return True
        if isinstance(parent, ast.comprehension) or (isinstance(parent, (ast.ListComp, ast.GeneratorExp))
                                                     and parent.generators[0].ifs):
            return True
        node = parent
    return any(isinstance(n, ast.If) and any(isinstance(m, (ast.Return, ast.Continue)) for m in ast.walk(n))
               and n.lineno < call.lineno for n in ast.walk(fn))


def _violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    out = []
    for call in (n for n in ast.walk(tree) if _is_finding_call(n)):
        fn = call
        while fn in parents and not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            fn = parents[fn]
        where = f"{path.relative_to(ROOT)}:{call.lineno}"
        if not isinstance(fn, ast.FunctionDef) or not _is_producer(fn):
            out.append(f"{where}: Finding built outside a @producer")
            continue
        verdict = _verdict_arg(call)
        if _is_constant_verdict(verdict) and not _guarded(fn, call, parents):
            out.append(f"{where}: verdict {ast.unparse(verdict)} passed unconditionally in {fn.name}")
    return out


def test_no_verdict_is_typed_outside_a_computation():
    bad = [v for path in _sources() for v in _violations(path)]
    assert not bad, "\n".join(bad)


def test_the_static_rule_sees_a_typed_verdict_and_an_ungated_finding(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from bounds.audit import Finding, producer, DISCREPANCY, CONSISTENT\n"
        "def loose():\n    return Finding('a', 'wording', (), DISCREPANCY, 's', 'e')\n"
        "@producer\ndef typed():\n    return Finding('b', 'wording', (), DISCREPANCY, 's', 'e')\n"
        "@producer\ndef gated(x):\n    if x > 1:\n        return Finding('c', 'wording', (), DISCREPANCY, 's', 'e')\n"
        "@producer\ndef chosen(ok):\n    return Finding('d', 'wording', (), CONSISTENT if ok else DISCREPANCY, 's', 'e')\n")
    global ROOT
    root, ROOT = ROOT, tmp_path
    try:
        bad = _violations(sample)
    finally:
        ROOT = root
    assert [b.split(": ", 1)[1] for b in bad] == ["Finding built outside a @producer",
                                                  "verdict DISCREPANCY passed unconditionally in typed"]


@A.producer
def _threshold(x: float, rng):
    draw = float(rng.uniform())
    if x + draw > 1:
        return A.Finding("t.big", "instance", ("t",), A.DISCREPANCY, f"x + u = {x + draw}", "")
    return None


def test_a_gate_replays_its_computation_and_a_passing_check_reports_nothing():
    rng = np.random.default_rng(3)
    found = _threshold(5.0, rng)
    rng.uniform(size=10)                                  # the caller's generator moves on; the gate kept its state
    again = found.gate()
    assert [g.summary for g in again] == [found.summary] and again[0].gate is found.gate
    assert _threshold(-5.0, np.random.default_rng(3)) is None
    assert found.as_dict()["computed_by"].endswith("_threshold") and "gate" not in found.as_dict()
    restored = pickle.loads(pickle.dumps(found))          # a gate pickles by its producer's name and its arguments
    assert restored == found and [g.summary for g in restored.gate()] == [found.summary]
    assert restored.gate.fn is found.gate.fn


def test_every_finding_can_be_replayed_by_one_command(capsys, monkeypatch):
    from repro import report
    from repro.cli import main
    monkeypatch.setattr(report, "experiment_results", lambda *a, **k: {})      # no runs in this test
    first = interface("fedsgm").findings({})[0]
    assert main(["findings", "--id", first.id, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{first.id}  [{first.kind}] {first.verdict}  (computed by {first.gate.name})")
    assert main(["findings", "--id", "fedsgm.no_such_finding", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --id=fedsgm.no_such_finding is not a finding of fedsgm") and "\n" not in err


LOCATION = re.compile(r"(Section|Theorem|Lemma|Eq\.|eq\.|Figure|Fig\.|Table|Appendix|Algorithm|Proposition|Prop\.|"
                      r"Corollary|Assumption|Remark|Conclusion|\(\d+[a-z]?\)|line \d+)")


@pytest.mark.parametrize("paper", papers())
def test_every_discrepancy_names_where_the_paper_says_what_it_disputes(paper):
    """A discrepancy cites the paper's own numbering (section, equation, theorem, figure, line of an algorithm)."""
    bad = [f.id for f in interface(paper).findings({})
           if f.verdict == A.DISCREPANCY and not LOCATION.search(f"{f.summary} {f.evidence}")]
    assert not bad, bad
