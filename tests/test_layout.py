"""The layers point down (docs/architecture.md): shared modules never import a paper package (the registry finds
them by discovery), paper packages never import each other, run modules import neither plotting nor the report,
``bounds`` imports nothing from ``repro``, and the tracked tree holds no absolute path of a machine and no citation
of the working specs the suite was built from (the product cites the papers' own numbering).

Imports are read statically (:mod:`ast`, relative imports resolved), so a lazy import inside a function counts too.
"""
import ast
import re
import subprocess
import sys
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
               if m in ("repro.plotting", "repro.report", "repro.pages", "repro.cards", "repro.html")
               or m.startswith(("matplotlib", *(f"repro.papers.{paper}.{part}" for part in
                                                ("figures", "audit", "statements", "evidence", "section", "paper"))))}
        assert not bad, (path, bad)


def test_bounds_imports_nothing_from_repro():
    for path in _sources("bounds"):
        assert not {m for m in imported_modules(path) if m == "repro" or m.startswith("repro.")}, path


#: top-level folders of machine-specific absolute paths (user homes, workspaces, mounts); /tmp and ../ are fine
MACHINE_ROOTS = ("work", "home", "root", "Users", "mnt")
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:" + "|".join(MACHINE_ROOTS) + r")/[\w.-]+")
#: a citation of the working specs the suite was built from, which the product never cites (it cites the papers)
SPEC_CITATION = re.compile(r"(?i)\bspec(?:ification)?s?\.?(?:\s+|\s*[\u00a7#]\s*)\d+(?:\.\d+)*|shared/" + "spec")


def test_no_absolute_machine_path_and_no_spec_citation_in_the_tree():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode != 0:
        pytest.skip("platform: not a git checkout")
    hits = []
    for name in tracked.stdout.splitlines():
        path = ROOT / name
        if path.suffix in {".png", ".pdf", ".npz"} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        hits += [f"{name}: {m.group(0)}" for pattern in (MACHINE_PATH, SPEC_CITATION) for m in pattern.finditer(text)]
    assert not hits, hits[:10]


def test_the_detector_sees_a_violation(tmp_path):
    """The import reader above can fail: a cross-paper and a plotting import are both seen."""
    fake = tmp_path / "repro/papers/fedsgm/runs/probe.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from repro.papers.ssca.algorithms import ssca\nfrom .... import plotting\n")
    found = imported_modules(fake, tmp_path)
    assert "repro.papers.ssca.algorithms.ssca" in found and "repro.plotting" in found
    example = "data at " + "/".join(("", MACHINE_ROOTS[1], "alice", "mnist"))
    assert MACHINE_PATH.search(example) and not MACHINE_PATH.search("see ../shared and " + "/".join(("", "tmp", "x")))
    for citation in ("Spec " + "9.5: unbiasedness", "see spec" + "\n    6.5", "Specs " + "6.5", "spec " + "\u00a711"):
        assert SPEC_CITATION.search(citation), citation
    assert not SPEC_CITATION.search("the RunSpec 2 of them") and not SPEC_CITATION.search("a specimen 2")


def test_the_cost_table_names_every_run_function_of_the_quick_profile():
    """repro/measured_costs.json is keyed by experiment and run-function path: a moved or renamed run function
    must be re-keyed there, or the progress bars and `plan` lose its estimate."""
    from repro.costs import committed_rates
    from repro.registry import registry
    from repro.runner import _with_needs

    pairs = {f"{s.experiment}|{s.function_path}" for exp in registry().values() for s in _with_needs(exp.specs("quick"))}
    assert not pairs - set(committed_rates())


def _direct_imports(paper: str, module: str) -> set[str]:
    path = ROOT / "repro/papers" / paper / f"{module}.py"
    return imported_modules(path) if path.is_file() else set()


@pytest.mark.parametrize("paper", ["fedsgm", "pcfedavg", "fedclup", "ssca"])
def test_a_paper_package_keeps_its_inner_layers(paper):
    """experiments declares (reaching neither the report nor the audit), figures draw (no prose), summaries compute
    what both read (neither plotting nor prose), the audit writes prose (draws nothing)."""
    own = f"repro.papers.{paper}."
    banned = {
        "experiments": ("repro.report", own + "audit"),
        "figures": ("repro.report", own + "audit", own + "experiments"),
        "summaries": ("repro.plotting", "repro.report", "matplotlib", own + "figures", own + "audit",
                      own + "experiments"),
        "audit": ("repro.plotting", "matplotlib", own + "figures"),
    }
    for module, prefixes in banned.items():
        bad = {m for m in _direct_imports(paper, module) if m.startswith(prefixes)}
        assert not bad, (paper, module, bad)


@pytest.mark.parametrize("paper", ["fedsgm", "pcfedavg", "fedclup", "ssca"])
def test_a_paper_package_offers_the_shared_contracts(paper):
    """What the shared layers read of a paper: registered experiments with a config dataclass and figures from
    figures.py, an audit section over its own experiments, one checks entry, algorithms run(problem, params, rng)."""
    import inspect
    import pkgutil

    import importlib

    from repro.registry import paper as interface

    record = interface(paper)
    names = {e.name for e in record.experiments}
    assert all(e.config is not None and e.name.startswith(paper + ".") for e in record.experiments)
    assert {e.figure.__module__ for e in record.experiments if e.figure} == {f"repro.papers.{paper}.figures"}
    audit = record.audit()
    assert callable(audit.audit_section) and callable(audit.verdicts) and set(audit.AUDIT_EXPERIMENTS) <= names
    checks = importlib.import_module(f"repro.papers.{paper}.checks")
    assert list(inspect.signature(checks.check).parameters) == ["claim", "problem", "trace"]
    algorithms = importlib.import_module(f"repro.papers.{paper}.algorithms")
    entries = []
    for info in pkgutil.iter_modules(algorithms.__path__):
        module = importlib.import_module(f"{algorithms.__name__}.{info.name}")
        entries += [(name, fn) for name, fn in vars(module).items() if name.startswith("run") and
                    inspect.isfunction(fn) and fn.__module__ == module.__name__]
    assert entries
    for name, fn in entries:
        params = list(inspect.signature(fn).parameters.values())
        assert [p.name for p in params[:3]] in (["problem", "params", "rng"], ["problem", "params", "rngs"]), name
        assert all(p.default is not inspect.Parameter.empty for p in params[3:]), name


#: libraries that take 0.2-0.5 s each to import and that listing, planning or checking the status of experiments never
#: uses: the modules that need them import them where a figure is drawn, a solver or a PEP is built, a quantile taken;
#: ``sympy.physics`` is what ``sympy.simplify`` and ``sympy.solve`` import on their first call
HEAVY_LIBRARIES = ("matplotlib", "cvxpy", "PEPit", "pandas", "scipy.stats", "sympy.physics")


def test_importing_the_experiments_loads_neither_the_report_nor_any_audit_nor_a_heavy_library():
    """Transitively, in a fresh interpreter: what the registry imports to list and run experiments. Every command of
    ``python -m repro`` imports the registry, and so does every test that runs one in a subprocess."""
    probe = ("import sys; from repro.registry import papers, registry; registry(); "
             f"heavy = {HEAVY_LIBRARIES!r}; "
             "print(sorted(m for m in sys.modules if m == 'repro.report' or m.endswith('.audit') or m in heavy))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_the_claims_modules_load_no_heavy_library():
    """Each paper's ``bounds.<paper>.claims`` is sympy and the paper's statements only: a fresh interpreter importing
    all four loads no heavy library and no scipy (their import time is measured by ``benchmarks/bench_imports.py``)."""
    probe = ("import sys; " + "; ".join(f"import bounds.{paper}.claims" for paper in papers()) + "; "
             f"heavy = {HEAVY_LIBRARIES!r}; "
             "print(sorted(m for m in sys.modules if m in heavy or m.split('.')[0] == 'scipy'))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
