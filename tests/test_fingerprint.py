"""What a cached run depends on: editing a figure, a report sentence or another paper's claims must not change
the cache key of a single run; editing code a run executes must.

The end-to-end tests copy ``bounds/`` and ``repro/`` into a temporary folder, edit one file there, and compare
the code fingerprints of every run function (of every experiment, both profiles, with the runs they need)
computed from the copy with those of the installed sources.
"""
import functools
import shutil
from pathlib import Path

import pytest

from repro.fingerprint import code_files, code_fingerprint
from repro.registry import papers, registry
from repro.runner import _with_needs

ROOT = Path(__file__).resolve().parents[1]
PAPERS = papers()
FIGURE_AND_REPORT = {"repro.plotting", "repro.report", "repro.notebooks", "repro.cli", "repro.registry",
                     "repro.status", "repro.costs"} \
    | {"repro.pages", "repro.cards", "repro.html", "repro.paper"} \
    | {f"repro.papers.{p}.{part}" for p in PAPERS
       for part in ("experiments", "figures", "audit", "statements", "evidence", "section", "paper")} \
    | {f"bounds.{p}.findings" for p in PAPERS}


@functools.lru_cache(maxsize=1)
def _functions() -> dict[str, set]:
    """paper -> the run functions of its experiments (both profiles, needed runs included)."""
    out: dict[str, set] = {}
    for name, exp in registry().items():
        for profile in ("quick", "paper"):
            for spec in _with_needs(exp.specs(profile)):
                out.setdefault(spec.paper, set()).add(spec.function_path)
    return out


def _copy(tmp_path) -> dict[str, Path]:
    for package in ("bounds", "repro"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    return {"bounds": tmp_path / "bounds", "repro": tmp_path / "repro"}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


def test_no_run_executes_figure_report_or_other_papers_code():
    functions = _functions()
    assert set(functions) == set(PAPERS)
    for paper, fns in functions.items():
        others = [p for p in PAPERS if p != paper]
        for fn in fns:
            modules = set(code_files(fn))
            assert not modules & FIGURE_AND_REPORT, (fn, modules & FIGURE_AND_REPORT)
            foreign = {m for m in modules for o in others
                       if m == f"bounds.{o}" or m == f"repro.papers.{o}" or m.startswith(f"repro.papers.{o}.")}
            assert not foreign, (fn, foreign)
            assert f"repro.papers.{paper}.runs" in modules, (fn, "a run function lives in its paper's runs")


@pytest.mark.parametrize("what, path, old, new", [
    ("a figure", "repro/plotting.py", '"font.size": 9,', '"font.size": 10,'),
    ("a figure", "repro/papers/pcfedavg/figures.py", "Figure {number}: infeasibility across methods",
     "Figure {number}: infeasibility of the methods"),
    ("a report sentence", "repro/report.py", "each paper's page has every", "each paper's page lists every"),
    ("a report sentence", "bounds/fedsgm/findings.py", "def audit_findings", "X = 1\n\n\ndef audit_findings"),
    ("another paper's claims", "bounds/fedclup/claims.py", "import sympy as sp", "import sympy as sp\nX = 1"),
])
def test_an_edit_outside_a_run_keeps_every_other_run_cached(tmp_path, what, path, old, new):
    roots = _copy(tmp_path)
    _edit(tmp_path / path, old, new)
    edited_paper = path.split("/")[1].split(".")[0] if path.startswith("bounds/") else None
    unchanged = 0
    for paper, fns in _functions().items():
        for fn in fns:
            if paper == edited_paper and not path.endswith("/findings.py"):
                continue                          # a paper's own claims are inputs of its runs
            assert code_fingerprint(fn, roots) == code_fingerprint(fn), (what, path, fn)
            unchanged += 1
    assert unchanged >= 10


def test_an_edit_of_code_a_run_executes_changes_its_key(tmp_path):
    """The check above can fail: editing an algorithm changes its paper's fingerprints, and only those (the proof-step
    runs, which execute no algorithm, keep theirs; editing a step changes theirs)."""
    roots = _copy(tmp_path)
    _edit(tmp_path / "repro/papers/fedsgm/algorithms/fedsgm.py", "import numpy as np", "import numpy as np\nX = 1")
    functions = _functions()
    steps = "repro.papers.fedsgm.runs.steps.run_steps"
    for fn in functions["fedsgm"]:
        assert (code_fingerprint(fn, roots) != code_fingerprint(fn)) is (fn != steps), fn
    _edit(tmp_path / "bounds/fedsgm/steps.py", "import sympy as sp", "import sympy as sp\nX = 1")
    assert code_fingerprint(steps, roots) != code_fingerprint(steps)
    for paper in ("pcfedavg", "fedclup", "ssca"):
        for fn in functions[paper]:
            assert code_fingerprint(fn, roots) == code_fingerprint(fn), fn


def _reworded(text: str) -> str:
    """The same code with every comment reworded, every docstring rewritten and the layout changed (blank lines
    and trailing whitespace added, an indented continuation re-wrapped): nothing a run executes."""
    import ast
    import io
    import tokenize
    tokens = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            tok = tok._replace(string="# reworded")
        tokens.append(tok)
    out = tokenize.untokenize(tokens)
    tree = ast.parse(out)
    docstrings = [node.body[0].value for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
                  and isinstance(node.body[0].value.value, str)]
    lines = out.splitlines()
    for doc in sorted(docstrings, key=lambda d: d.lineno, reverse=True):   # one line each, from the bottom up
        first, last = lines[doc.lineno - 1], lines[doc.end_lineno - 1]
        lines[doc.lineno - 1:doc.end_lineno] = [first[:doc.col_offset] + '"""Reworded."""' + last[doc.end_col_offset:]]
    out = []
    for line in lines:                       # a blank line and trailing blanks after every line a backslash does not continue
        out.append(line if line.endswith("\\") else (line + "  \n" if line.strip() else line + "\n"))
    return "\n".join(out) + "\n"


def test_a_comment_docstring_or_layout_edit_of_a_runs_code_reruns_nothing(tmp_path):
    """Every module of an algorithm's and a run module's code reworded (comments, docstrings, blank lines): the
    fingerprints of all of FedSGM's and PC-FedAvg's runs stay; one changed constant in the same file changes them."""
    roots = _copy(tmp_path)
    edited = ["repro/papers/fedsgm/algorithms/fedsgm.py", "repro/papers/fedsgm/runs/theorems.py",
              "repro/papers/pcfedavg/algorithms/pcfedavg.py", "bounds/pcfedavg/claims.py", "repro/constraints.py"]
    for path in edited:
        source = (tmp_path / path).read_text()
        assert _reworded(source) != source and "# reworded" in _reworded(source), path
        (tmp_path / path).write_text(_reworded(source))
    functions = _functions()
    closures = set().union(*(code_files(fn) for fn in functions["fedsgm"] | functions["pcfedavg"]))
    for path in edited:                                   # each reworded file is code some of these runs execute
        assert path.removesuffix(".py").replace("/", ".") in closures, path
    for fn in functions["fedsgm"] | functions["pcfedavg"]:
        assert code_fingerprint(fn, roots) == code_fingerprint(fn), fn
    algorithm = tmp_path / "repro/papers/fedsgm/algorithms/fedsgm.py"
    _edit(algorithm, "import numpy as np", "import numpy as np\nSTEP_FLOOR = 1e-12")
    changed = {fn for fn in functions["fedsgm"] if code_fingerprint(fn, roots) != code_fingerprint(fn)}
    assert changed and "repro.papers.fedsgm.runs.theorems.run_figure1" in changed


def test_the_syntax_digest_ignores_docstrings_comments_and_layout_and_nothing_else(tmp_path):
    """Direct cases: a docstring (module, class, function, async function, one that is the whole body), comments and
    blank lines do not count; a changed literal, a second leading string (an expression statement, not a docstring)
    and a changed name do."""
    from repro.fingerprint import syntax_digest
    base = ('"""Module."""\nimport math\n\n\nclass A:\n    """Class."""\n    x = 1\n\n\n'
            'def f(y):\n    """Function."""\n    return math.sqrt(y) + 2.5\n\n\nasync def g():\n    """Async."""\n\n\n'
            'def h():\n    """Only a docstring."""\n')

    def digest(text, name):
        path = tmp_path / f"{name}.py"
        path.write_text(text)
        return syntax_digest(path)
    reference = digest(base, "base")
    same = (base.replace('"""Module."""', '"""Reworded module."""').replace('"""Only a docstring."""', '"""Other."""')
            .replace("    x = 1", "    x = 1  # a comment\n").replace('"""Async."""', '"""Async, reworded."""'))
    assert digest(same, "same") == reference
    for name, changed in (("literal", base.replace("2.5", "2.25")), ("name", base.replace("math.sqrt", "math.cbrt")),
                          ("second", base.replace('    """Function."""\n', '    """Function."""\n    "kept"\n'))):
        assert digest(changed, name) != reference, name
