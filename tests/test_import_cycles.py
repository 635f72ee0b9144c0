"""No import circles between the suite's modules: every ``import`` and ``from ... import`` statement of ``bounds`` and
``repro`` (the lazy ones inside functions included) is read with :mod:`ast`, and the graph of module -> imported
module must have no cycle. A cycle is reported as the chain of modules that closes it.

``from package import name`` counts as importing ``package.name`` when that is a module, otherwise ``package``; importing
``a.b.c`` also imports the packages ``a`` and ``a.b`` (their ``__init__`` runs first), except a module's own parents.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _modules() -> dict[str, Path]:
    out = {}
    for package in ("bounds", "repro"):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _imported(path: Path, name: str, modules: dict) -> set[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        for target in targets:                     # importing a.b.c runs a and a.b first
            parts = target.split(".")
            found |= {p for p in (".".join(parts[:k]) for k in range(1, len(parts) + 1)) if p in modules}
    return found - {name} - {".".join(name.split(".")[:k]) for k in range(1, name.count(".") + 1)}


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imported(path, name, modules) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of nodes (first == last), or None (iterative depth-first search)."""
    state: dict[str, int] = {}                      # 1: on the current path, 2: done
    for start in sorted(graph):
        if state.get(start):
            continue
        path, stack = [start], [iter(sorted(graph[start]))]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(graph.get(nxt, ()))))
    return None


def test_the_cycle_finder_finds_a_planted_cycle_and_accepts_a_tree():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_reads_lazy_imports_and_parent_packages():
    graph = import_graph()
    assert "repro.runner" in graph["repro.cli"]            # repro.cli imports the runner inside its functions only
    assert "repro.experiment" in graph["repro.runner"]     # so does the runner the experiment contract
    assert {"bounds", "bounds.fedsgm"} <= graph["repro.papers.fedsgm.runs.theorems"]   # the parent packages, too


def test_no_import_cycle_between_the_suites_modules():
    cycle = find_cycle(import_graph())
    assert cycle is None, " -> ".join(cycle)
