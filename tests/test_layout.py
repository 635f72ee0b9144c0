"""The layers point down (docs/architecture.md): shared modules never import a paper package (the registry finds
them by discovery), paper packages never import each other, run modules import neither plotting nor the report,
``bounds`` imports nothing from ``repro``, and the tracked tree holds no absolute path of a machine.

Imports are read statically (:mod:`ast`, relative imports resolved), so a lazy import inside a function counts too.
"""
import ast
import re
import subprocess
from pathlib import Path

import pytest

from repro.registry import papers

ROOT = Path(__file__).resolve().parents[1]


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, root: Path = ROOT) -> set[str]:
    """Every module a file's import statements name (``from a import b`` names ``a`` and ``a.b``)."""
    name = _module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            out |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return out


def _sources(folder: str) -> list[Path]:
    return sorted(p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)


def _paper_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["repro", "papers"] and len(parts) > 2 else None


def test_the_four_papers_are_discovered():
    assert set(papers()) >= {"fedsgm", "pcfedavg", "fedclup", "ssca"}


def test_shared_layers_import_no_paper_package():
    shared = [p for p in _sources("repro") if "papers" not in p.relative_to(ROOT / "repro").parts]
    assert len(shared) > 10
    offenders = {str(p.relative_to(ROOT)): sorted(m for m in imported_modules(p) if _paper_of(m))
                 for p in shared}
    assert not {k: v for k, v in offenders.items() if v}


def test_paper_packages_do_not_import_each_other():
    files = [p for p in _sources("repro/papers") if p.parent != ROOT / "repro/papers"]
    assert len(files) > 40
    offenders = []
    for path in files:
        own = _paper_of(_module_name(path))
        offenders += [(str(path.relative_to(ROOT)), m) for m in imported_modules(path)
                      if _paper_of(m) not in (None, own)]
    assert not offenders


@pytest.mark.parametrize("paper", ["fedsgm", "pcfedavg", "fedclup", "ssca"])
def test_run_modules_import_neither_plotting_nor_report(paper):
    runs = _sources(f"repro/papers/{paper}/runs")
    assert runs
    for path in runs:
        bad = {m for m in imported_modules(path)
               if m in ("repro.plotting", "repro.report") or m.startswith(("matplotlib", f"repro.papers.{paper}.figures",
                                                                          f"repro.papers.{paper}.audit"))}
        assert not bad, (path, bad)


def test_bounds_imports_nothing_from_repro():
    for path in _sources("bounds"):
        assert not {m for m in imported_modules(path) if m == "repro" or m.startswith("repro.")}, path


MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|home|root|Users|mnt)/[\w.-]+")


def test_no_absolute_machine_path_in_the_tree():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    hits = []
    for name in tracked.stdout.splitlines():
        path = ROOT / name
        if path.suffix in {".png", ".pdf", ".npz"} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        hits += [f"{name}: {m.group(0)}" for m in MACHINE_PATH.finditer(text)]
    assert not hits, hits[:10]


def test_the_detector_sees_a_violation(tmp_path):
    """The import reader above can fail: a cross-paper and a plotting import are both seen."""
    fake = tmp_path / "repro/papers/fedsgm/runs/probe.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from repro.papers.ssca.algorithms import ssca\nfrom .... import plotting\n")
    found = imported_modules(fake, tmp_path)
    assert "repro.papers.ssca.algorithms.ssca" in found and "repro.plotting" in found
    assert MACHINE_PATH.search("data at " + "/home" + "/alice/mnist") and not MACHINE_PATH.search("see ../shared and /tmp/x")


def test_the_cost_table_names_every_run_function_of_the_quick_profile():
    """repro/measured_costs.json is keyed by experiment and run-function path: a moved or renamed run function
    must be re-keyed there, or the progress bars and `plan` lose its estimate."""
    from repro.costs import committed_rates
    from repro.registry import registry
    from repro.runner import _with_needs

    pairs = {f"{s.experiment}|{s.function}" for exp in registry().values() for s in _with_needs(exp.specs("quick"))}
    assert not pairs - set(committed_rates())
