"""What a cached result depends on besides its config: the suite's source code a run executes, and the
versions of the numerical libraries it runs on. Both are part of every run's cache key
(:func:`repro.runner.config_hash`).

**Code.** A run function is named by its dotted path (``repro.papers.fedsgm.runs.theorems.run_figure1``).
Its code is the function's module and, transitively, every ``bounds``/``repro`` module that module
imports (found statically with :mod:`ast`, parent packages included): :func:`code_files` maps each of
them to the SHA-256 of its normalised syntax tree (:func:`syntax_digest`: comments, docstrings, blank lines and
formatting do not count). A change of behaviour in any of those files recomputes the run; a comment, docstring or
formatting edit does not, and editing anything else (figures, the report, another paper's claims or runs) keeps
it valid. Two modules are left out on purpose:

* ``repro.runner``, which executes every run, and ``repro.experiment`` (the Experiment contract and
  the profiles), which run modules import to *declare* their specs. Neither computes any array; a change
  in how results are computed or stored by the runner bumps :data:`repro.runner.CACHE_FORMAT` instead. That
  includes the rule by which the runner builds a run's config dataclass (``typed_config``, ``shape_of``,
  ``Config.from_dict``): the config a run receives is part of how its result is computed.
  Without this rule, every edit of the runner would recompute every cached run.

The closure is module-granular: a run module that imports plotting or report code would depend on it.
``tests/test_fingerprint.py`` checks that no run function's closure contains a figure, report or
notebook module, or another paper's modules.

**Libraries.** :func:`library_versions` lists the versions of the libraries whose arithmetic a result can
depend on (numpy, scipy, sympy, cvxpy and its solvers, scikit-learn) and the Python minor version. A
result computed under other versions is not reused. Backends (the process pool, dask) and plotting libraries are
not part of the key: they do not change what a run computes.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import importlib.metadata
import platform
from pathlib import Path

__all__ = ["code_files", "code_fingerprint", "library_versions", "syntax_digest", "EXCLUDED_MODULES"]

EXCLUDED_MODULES = frozenset({"repro.runner", "repro.experiment"})

#: distribution names whose versions are part of every cache key
NUMERICAL_DISTRIBUTIONS = ("numpy", "scipy", "sympy", "cvxpy", "clarabel", "scs", "scikit-learn", "pepit")


@functools.lru_cache(maxsize=None)
def _package_dirs() -> dict[str, Path | tuple[Path, ...]]:
    import bounds
    import repro
    import repro.papers

    return {"bounds": tuple(Path(d).resolve() for d in bounds.__path__), "repro": Path(repro.__file__).resolve().parent,
            "repro.papers": tuple(Path(d).resolve() for d in repro.papers.__path__)}


def _module_file(name: str, roots: dict) -> Path | None:
    """Source file of a ``bounds``/``repro`` module (a package: its ``__init__.py``), or None. ``roots`` maps a
    package name to its directory or directories (``bounds`` and ``repro.papers`` may span several:
    ``REPRO_PAPERS_PATH``);
    the longest matching package name wins."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        dirs, rest = roots.get(".".join(parts[:k])), parts[k:]
        for root in () if dirs is None else (dirs,) if isinstance(dirs, Path) else dirs:
            base = root.joinpath(*rest)
            for candidate in ((base.with_suffix(".py"),) if rest else ()) + (base / "__init__.py",):
                if candidate.is_file():
                    return candidate
    return None


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_mtime_ns, stat.st_size


def _imports(path: Path, package: str) -> list[str]:
    """Every module name an ``import`` / ``from ... import`` statement of the file may refer to."""
    return list(_parsed_imports(str(path), package, _stamp(path)))


def _statements(tree: ast.AST):
    """Every statement of ``tree``, nested ones included, without visiting expressions (imports and docstrings are
    statements: this is ~10x fewer nodes than :func:`ast.walk`)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                todo += [child for child in children if isinstance(child, ast.AST)]


@functools.lru_cache(maxsize=1024)
def _facts(path: str, stamp: tuple) -> tuple[tuple, str]:
    """``(import statements, syntax digest)`` of a file, from one parse (cached per process by modification time
    and size). Import statements are ``(level, module, names)`` (``level`` None for ``import a.b``). The digest is
    the SHA-256 (16 hex) of the tree without docstrings, dumped without positions; a file that does not parse has
    no imports and is hashed by its bytes (it fails when a run imports it, and any edit of it counts)."""
    source = Path(path).read_bytes()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return (), hashlib.sha256(source).hexdigest()[:16]
    imports = []
    for node in _statements(tree):
        if isinstance(node, ast.Import):
            imports += [(None, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            imports.append((node.level, node.module, tuple(alias.name for alias in node.names)))
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body \
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]          # this tree is this call's own: nothing else sees it
    return tuple(imports), hashlib.sha256(ast.dump(tree, include_attributes=False).encode()).hexdigest()[:16]


@functools.lru_cache(maxsize=1024)
def _parsed_imports(path: str, package: str, stamp: tuple) -> tuple:
    names = []
    for level, module, aliases in _facts(path, stamp)[0]:
        if level is None:
            names.append(module)
            continue
        if level:
            anchor = package.split(".")
            anchor = anchor[:len(anchor) - level + 1]
            base = ".".join(anchor + ([module] if module else []))
        else:
            base = module or ""
        names.append(base)
        names += [f"{base}.{alias}" for alias in aliases]   # "from pkg import module"
    return tuple(names)


def _closure(module: str, roots: dict[str, Path]) -> dict[str, Path]:
    seen: dict[str, Path] = {}
    todo = [module]
    while todo:
        parts = todo.pop().split(".")
        for k in range(1, len(parts) + 1):           # importing a.b.c runs a and a.b first
            prefix = ".".join(parts[:k])
            path = _module_file(prefix, roots)
            if prefix in seen or prefix in EXCLUDED_MODULES or path is None:
                continue
            seen[prefix] = path
            package = prefix if path.name == "__init__.py" else prefix.rsplit(".", 1)[0]
            todo += _imports(path, package)
    return seen


def _module_of(function: str, roots: dict[str, Path]) -> str:
    module = function
    while module and _module_file(module, roots) is None:
        module = module.rpartition(".")[0]
    return module or "repro"


def code_files(function: str = "repro", roots: dict[str, Path] | None = None) -> dict[str, str]:
    """``{module: its syntax digest (:func:`syntax_digest`)}`` for every suite module the run function ``function``
    executes (module docstring). ``roots`` maps the package names ``bounds``/``repro`` to the directories
    to read them from (default: the imported packages, cached per process: the sources do not change while a
    command runs); tests use it to fingerprint an edited copy."""
    if roots is None:
        return dict(_installed_code_files(function))
    return {name: syntax_digest(path) for name, path in sorted(_closure(_module_of(function, roots), roots).items())}


def syntax_digest(path: Path) -> str:
    """SHA-256 (16 hex) of the file's syntax tree without docstrings (:func:`_facts`): the same for any two files that
    differ only in comments, docstrings, blank lines or layout."""
    return _facts(str(path), _stamp(path))[1]


@functools.lru_cache(maxsize=512)
def _installed_code_files(function: str) -> tuple:
    return tuple(code_files(function, _package_dirs()).items())


def code_fingerprint(function: str = "repro", roots: dict[str, Path] | None = None) -> str:
    """SHA-256 (16 hex) over :func:`code_files` of ``function``."""
    digest = hashlib.sha256()
    for name, sha in code_files(function, roots).items():
        digest.update(f"{name}\0{sha}\0".encode("ascii"))
    return digest.hexdigest()[:16]


def library_versions() -> dict[str, str]:
    """``{distribution: version}`` of :data:`NUMERICAL_DISTRIBUTIONS` (those installed) and
    ``python`` (major.minor); read once per process."""
    return dict(_library_versions())


@functools.lru_cache(maxsize=1)
def _library_versions() -> tuple:
    out = {"python": ".".join(platform.python_version_tuple()[:2])}
    for dist in NUMERICAL_DISTRIBUTIONS:
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            pass
    return tuple(out.items())
