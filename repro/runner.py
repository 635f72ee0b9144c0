"""Generic experiment runner: config hashing, result cache, provenance, parallel map.

The runner knows nothing about any paper. A run is described by a :class:`RunSpec`: the
experiment name (``"fedsgm.figure1"``), a JSON-serialisable config (which includes the
profile), a seed, and the dotted import path of a module-level function::

    fn(config: dict, seed: int) -> tuple[dict[str, np.ndarray], dict]

returning named arrays and a JSON-serialisable metadata dict (which may hold
``"data_checksums"``). The function seeds itself from ``seed`` (via
``np.random.SeedSequence``); the runner introduces no randomness.

Data flow (DESIGN.md, "Data flow")::

    spec --config_hash--> <results_root>/<paper>/<hash>.json exists and valid?
        yes -> load  <hash>.npz                                      (Result.cached = True)
        no  -> fn(config, seed) in a worker (joblib/loky or dask.distributed)
            -> <hash>.npz, then <hash>.json, each written atomically  (Result.cached = False)

A cache entry counts only when its JSON exists, the NPZ has the SHA-256 recorded in the
JSON, loads, and holds exactly the arrays (names, shapes, dtypes) the JSON lists. Anything
else (a run interrupted between the two writes, a truncated or edited file) is logged as a
warning, treated as missing and recomputed; it is never returned.

Bit-identical results whatever the backend and the number of workers: besides the functions'
own seeding, every run executes with BLAS/OpenMP thread pools limited to one thread (via
``threadpoolctl`` when installed), because the reduction order of multi-threaded BLAS depends
on the thread count, which differs between the parent process, loky and dask workers.
NPZ files are written deterministically (fixed zip timestamps, sorted names), so equal arrays
give byte-identical files.
"""
from __future__ import annotations

import ast
import contextlib
import copy
import dataclasses
import functools
import hashlib
import importlib
import importlib.metadata
import io
import json
import logging
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Callable

import numpy as np

from repro.errors import ConfigError, require

__all__ = [
    "RunSpec",
    "Result",
    "config_hash",
    "canonical_json",
    "to_jsonable",
    "resolve_results_root",
    "cache_paths",
    "load_cached",
    "run_all",
    "atomic_write_bytes",
    "atomic_write_json",
    "atomic_savez",
    "provenance_environment",
    "RESULTS_DIR_ENV",
    "DASK_ADDRESS_ENV",
]

logger = logging.getLogger(__name__)

RESULTS_DIR_ENV = "REPRO_RESULTS_DIR"
DASK_ADDRESS_ENV = "REPRO_DASK_ADDRESS"

#: Version of the cache entry layout; stored in every provenance JSON.
CACHE_FORMAT = 1

#: Distributions whose versions go into the provenance (key -> distribution name).
_VERSIONED_DISTRIBUTIONS = {
    "numpy": "numpy",
    "scipy": "scipy",
    "sympy": "sympy",
    "cvxpy": "cvxpy",
    "sklearn": "scikit-learn",
    "joblib": "joblib",
    "dask": "dask",
    "distributed": "distributed",
    "fedbounds": "fedbounds",
}

_EXPERIMENT_RE = re.compile(r"^[A-Za-z0-9_\-]+(\.[A-Za-z0-9_\-]+)*$")
_FUNCTION_RE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")
_ARRAY_NAME_RE = re.compile(r"^[A-Za-z0-9_\-.]+$")
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


# --------------------------------------------------------------------------------------------
# Canonical JSON and hashing
# --------------------------------------------------------------------------------------------

def to_jsonable(obj: Any, where: str = "value") -> Any:
    """Return ``obj`` as plain JSON types: dict (str keys), list, str, int, float, bool, None.

    Tuples and numpy arrays become lists, numpy scalars Python scalars. Anything else raises
    :class:`ConfigError` naming the offending path (e.g. ``config['grid'][2]``).
    """
    if obj is None or isinstance(obj, (bool, np.bool_)):
        return None if obj is None else bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj)
    if isinstance(obj, str):
        return str(obj)
    if isinstance(obj, Mapping):
        out = {}
        for key, value in obj.items():
            if not isinstance(key, str):
                raise ConfigError(
                    f"{where} has key {key!r} of type {type(key).__name__}: "
                    "only str keys are allowed (JSON objects)")
            out[str(key)] = to_jsonable(value, f"{where}[{key!r}]")
        return out
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v, f"{where}[{i}]") for i, v in enumerate(obj)]
    if isinstance(obj, np.ndarray) and not obj.dtype.hasobject:
        return to_jsonable(obj.tolist(), where)
    raise ConfigError(
        f"{where}={obj!r} of type {type(obj).__name__} is not admissible: allowed are "
        "dict (str keys), list, tuple, str, int, float, bool, None, numpy scalars and arrays")


def canonical_json(obj: Any) -> str:
    """Canonical JSON text of ``obj``: sorted keys, no whitespace, floats via ``repr``.

    Stable across processes, Python runs and platforms (no dependence on hash seeds or
    insertion order); tuples encode as lists and numpy scalars as Python scalars.
    """
    return json.dumps(to_jsonable(obj), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True, allow_nan=True)


def _hash_payload(experiment: str, function: str, config: Any, seed: int) -> str:
    return canonical_json({"experiment": experiment, "function": function,
                           "config": config, "seed": seed})


@functools.lru_cache(maxsize=1)
def _module_file(name: str) -> Path | None:
    """Source file of a ``bounds``/``repro`` module (package: its ``__init__.py``), or None."""
    import bounds
    import repro

    top = name.split(".")[0]
    package = {"bounds": bounds, "repro": repro}.get(top)
    if package is None:
        return None
    base = Path(package.__file__).resolve().parent.joinpath(*name.split(".")[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@functools.lru_cache(maxsize=256)
def _import_closure(module: str) -> tuple[str, ...]:
    """Every ``bounds``/``repro`` module that importing ``module`` executes: its parent packages and,
    transitively, everything it imports (absolute or relative), found statically with ``ast``."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for k in range(1, len(parts) + 1):           # importing a.b.c runs a and a.b first
            prefix = ".".join(parts[:k])
            if prefix in seen or _module_file(prefix) is None:
                continue
            seen.add(prefix)
            path = _module_file(prefix)
            package = prefix if path.name == "__init__.py" else prefix.rsplit(".", 1)[0]
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    todo += [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    if node.level:
                        anchor = package.split(".")
                        anchor = anchor[:len(anchor) - node.level + 1]
                        base = ".".join(anchor + ([node.module] if node.module else []))
                    else:
                        base = node.module or ""
                    todo.append(base)
                    todo += [f"{base}.{alias.name}" for alias in node.names]   # "from pkg import module"
    return tuple(sorted(seen))


def code_fingerprint(function: str = "repro") -> str:
    """SHA-256 (16 hex characters) of the source of every suite module a run function depends on.

    ``function`` is a dotted path (``repro.experiments.fedsgm.run_figure1``); the fingerprint covers
    the function's module and, transitively, every ``bounds``/``repro`` module it imports (static
    import analysis; parent packages included). Part of every cache key, so that a result computed
    by other code is never reused: an edit to any of those files recomputes the run, while edits
    elsewhere (figures, report, other papers) keep it valid. The default covers the whole package.
    """
    module = function
    while module and _module_file(module) is None:
        module = module.rpartition(".")[0]
    digest = hashlib.sha256()
    for name in _import_closure(module or "repro"):
        path = _module_file(name)
        digest.update(name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def config_hash(spec: "RunSpec") -> str:
    """First 16 hex characters of the SHA-256 of the canonical JSON of
    ``experiment + function + config + seed`` and the :func:`code_fingerprint` of the function; the name of the
    spec's cache entry."""
    payload = _hash_payload(spec.experiment, spec.function, spec.config, spec.seed) + code_fingerprint(spec.function)
    return hashlib.sha256(payload.encode("ascii")).hexdigest()[:16]


# --------------------------------------------------------------------------------------------
# RunSpec and Result
# --------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True, eq=False)
class RunSpec:
    """One run: ``function(config, seed)`` for ``experiment``.

    ``config`` is normalised on construction to its canonical JSON form (tuples -> lists,
    numpy scalars -> Python scalars, a private copy), so that two specs with the same hash
    feed the function the same input. Do not mutate ``spec.config`` afterwards.
    Specs compare and hash by their canonical content, and pickle cheaply.
    """

    experiment: str
    config: dict
    seed: int
    function: str

    def __post_init__(self) -> None:
        if not (isinstance(self.experiment, str) and _EXPERIMENT_RE.match(self.experiment)):
            raise ConfigError(
                f"experiment={self.experiment!r} is not admissible: a dotted name such as "
                "'fedsgm.figure1' (letters, digits, '_' and '-'; the part before the first "
                "dot names the paper)")
        if not (isinstance(self.function, str) and _FUNCTION_RE.match(self.function)):
            raise ConfigError(
                f"function={self.function!r} is not admissible: the dotted import path of a "
                "module-level function, e.g. 'repro.experiments.fedsgm.run_figure1'")
        if isinstance(self.seed, (bool, np.bool_)) or not isinstance(self.seed, (int, np.integer)) \
                or self.seed < 0:
            raise ConfigError(
                f"seed={self.seed!r} is not admissible: a non-negative int")
        if not isinstance(self.config, Mapping):
            raise ConfigError(
                f"config={self.config!r} is not admissible: a JSON-serialisable dict")
        config = json.loads(canonical_json(to_jsonable(self.config, "config")))
        object.__setattr__(self, "config", config)
        object.__setattr__(self, "seed", int(self.seed))

    @property
    def paper(self) -> str:
        """The paper key: the part of ``experiment`` before the first dot."""
        return self.experiment.split(".")[0]

    @functools.cached_property
    def _canonical(self) -> str:
        return _hash_payload(self.experiment, self.function, self.config, self.seed)

    @functools.cached_property
    def hash(self) -> str:
        """:func:`config_hash` of this spec (cached)."""
        return config_hash(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RunSpec):
            return NotImplemented
        return self._canonical == other._canonical

    def __hash__(self) -> int:
        return hash(self._canonical)

    def __getstate__(self) -> dict:
        # Only the fields: cached properties are recomputed where needed.
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)


@dataclasses.dataclass(frozen=True, eq=False)
class Result:
    """The outcome of one :class:`RunSpec`.

    ``arrays`` are loaded from the cache NPZ (also right after a computation, so a fresh result
    and a cached one are indistinguishable apart from ``cached`` and the wall time);
    ``meta`` is the provenance JSON as a dict; ``cached`` says whether the run was loaded
    from the cache instead of computed by this call.
    """

    spec: RunSpec
    arrays: dict[str, np.ndarray]
    meta: dict
    cached: bool

    @property
    def hash(self) -> str:
        return self.spec.hash


# --------------------------------------------------------------------------------------------
# Atomic writes
# --------------------------------------------------------------------------------------------

@contextlib.contextmanager
def _atomic_file(path: str | os.PathLike) -> Iterator[io.BufferedWriter]:
    """Yield a binary file in ``path``'s directory; on success fsync it and rename it onto
    ``path`` (atomic on POSIX and Windows); on any failure (incl. KeyboardInterrupt) remove it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w+b") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    """Make a rename durable (best effort; not possible on every platform)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in the same directory, then
    ``os.replace``. Readers see the old file or the new one, never a partial one."""
    with _atomic_file(path) as fh:
        fh.write(data)


def atomic_write_json(path: str | os.PathLike, obj: Any) -> None:
    """Write ``obj`` as deterministic JSON (sorted keys, indent 2, trailing newline),
    atomically. Numpy scalars/arrays and tuples are converted (:func:`to_jsonable`)."""
    text = json.dumps(to_jsonable(obj), sort_keys=True, indent=2, ensure_ascii=True,
                      allow_nan=True) + "\n"
    atomic_write_bytes(path, text.encode("ascii"))


def atomic_savez(path: str | os.PathLike, arrays: Mapping[str, np.ndarray],
                 *, compress: bool = False) -> str:
    """Save ``arrays`` as an ``.npz`` readable by ``np.load``, atomically and
    deterministically (members sorted by name, fixed timestamps: equal arrays give identical
    bytes). Object arrays are refused. Returns the SHA-256 (hex) of the written file."""
    arrays = _check_arrays(arrays, "arrays")
    compression = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with _atomic_file(path) as fh:
        with zipfile.ZipFile(fh, mode="w", compression=compression, allowZip64=True) as zf:
            for name in sorted(arrays):
                info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_DATE)
                info.compress_type = compression
                info.create_system = 3
                info.external_attr = 0o644 << 16
                with zf.open(info, mode="w", force_zip64=True) as member:
                    np.lib.format.write_array(member, arrays[name], allow_pickle=False)
        fh.flush()
        fh.seek(0)
        digest = _sha256_stream(fh)
    return digest


def _sha256_stream(fh) -> str:
    h = hashlib.sha256()
    for block in iter(lambda: fh.read(1 << 20), b""):
        h.update(block)
    return h.hexdigest()


def _sha256_file(path: Path) -> str:
    with open(path, "rb") as fh:
        return _sha256_stream(fh)


# --------------------------------------------------------------------------------------------
# Validation of functions and their output
# --------------------------------------------------------------------------------------------

def _resolve_function(path: str) -> Callable[[dict, int], Any]:
    """Import ``module.attr``; ConfigError when the module or attribute does not exist."""
    module_name, _, attr = path.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if module_name == missing or module_name.startswith(missing + "."):
            raise ConfigError(
                f"function={path!r} is not admissible: module {module_name!r} cannot be "
                "imported (the function must live in an importable module, also on the "
                "workers)") from None
        raise
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise ConfigError(
            f"function={path!r} is not admissible: module {module_name!r} has no callable "
            f"{attr!r}")
    return fn


def _check_arrays(arrays: Any, where: str) -> dict[str, np.ndarray]:
    if not isinstance(arrays, Mapping):
        raise ValueError(
            f"{where}={type(arrays).__name__} is not admissible: a dict mapping names to "
            "numpy arrays")
    out = {}
    for name, arr in arrays.items():
        if not (isinstance(name, str) and _ARRAY_NAME_RE.match(name)):
            raise ValueError(
                f"{where} name {name!r} is not admissible: a non-empty str of letters, "
                "digits, '_', '-' and '.'")
        if isinstance(arr, np.generic):
            arr = np.asarray(arr)
        if not isinstance(arr, np.ndarray):
            raise ValueError(
                f"{where}[{name!r}] of type {type(arr).__name__} is not admissible: a "
                "numpy.ndarray (or numpy scalar)")
        if arr.dtype.hasobject:
            raise ValueError(
                f"{where}[{name!r}] with dtype {arr.dtype} is not admissible: a numeric, "
                "bool or fixed-width string dtype (object arrays cannot be cached)")
        out[name] = arr
    return out


def _check_output(out: Any, function: str) -> tuple[dict[str, np.ndarray], dict]:
    where = f"return value of {function}"
    if not (isinstance(out, tuple) and len(out) == 2):
        raise ValueError(
            f"{where} of type {type(out).__name__} is not admissible: a tuple "
            "(arrays: dict[str, np.ndarray], metadata: dict)")
    arrays, meta = out
    arrays = _check_arrays(arrays, f"arrays returned by {function}")
    if not isinstance(meta, Mapping):
        raise ValueError(
            f"metadata returned by {function} of type {type(meta).__name__} is not "
            "admissible: a JSON-serialisable dict")
    try:
        meta = to_jsonable(meta, f"metadata returned by {function}")
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    return arrays, meta


@contextlib.contextmanager
def _single_threaded_native_pools() -> Iterator[None]:
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        yield
        return
    with threadpool_limits(limits=1):
        yield


def _execute(spec: RunSpec) -> tuple[dict[str, np.ndarray], dict, float]:
    """Run one spec where it is called (parent or worker): returns arrays, metadata and the
    wall time in seconds of the function call."""
    fn = _resolve_function(spec.function)
    config = copy.deepcopy(spec.config)
    try:
        with _single_threaded_native_pools():
            start = time.perf_counter()
            out = fn(config, spec.seed)
            wall = time.perf_counter() - start
        arrays, meta = _check_output(out, spec.function)
    except Exception as exc:
        exc.add_note(f"while running {spec.function} for experiment {spec.experiment!r}, "
                     f"seed={spec.seed}, hash={spec.hash}")
        raise
    return arrays, meta, wall


def _execute_indexed(index: int, spec: RunSpec):
    return (index, *_execute(spec))


# --------------------------------------------------------------------------------------------
# Provenance
# --------------------------------------------------------------------------------------------

def _git(args: list[str], cwd: Path) -> str | None:
    try:
        proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                              timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout if proc.returncode == 0 else None


def provenance_environment() -> dict:
    """Commit and package versions: ``git_commit`` (``git rev-parse HEAD`` of the checkout
    holding this package, None outside a git repository), ``git_dirty`` (tracked files
    modified; None outside git) and ``versions`` (python and the installed distributions among
    numpy, scipy, sympy, cvxpy, scikit-learn, joblib, dask, distributed, fedbounds)."""
    here = Path(__file__).resolve().parent
    commit = _git(["rev-parse", "HEAD"], here)
    commit = commit.strip() if commit else None
    dirty = None
    if commit is not None:
        status = _git(["status", "--porcelain", "--untracked-files=no"], here)
        dirty = None if status is None else bool(status.strip())
    versions = {"python": platform.python_version()}
    for key, dist in _VERSIONED_DISTRIBUTIONS.items():
        try:
            versions[key] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            pass
    return {"git_commit": commit, "git_dirty": dirty, "versions": versions}


# --------------------------------------------------------------------------------------------
# Cache
# --------------------------------------------------------------------------------------------

def resolve_results_root(results_root: str | os.PathLike | None = None) -> Path:
    """``results_root`` if given, else ``$REPRO_RESULTS_DIR``, else ``./results``."""
    if results_root is not None:
        return Path(results_root)
    env = os.environ.get(RESULTS_DIR_ENV)
    if env:
        return Path(env)
    return Path.cwd() / "results"


def cache_paths(spec: RunSpec, results_root: str | os.PathLike | None = None
                ) -> tuple[Path, Path]:
    """``(<root>/<paper>/<hash>.npz, <root>/<paper>/<hash>.json)``."""
    directory = resolve_results_root(results_root) / spec.paper
    return directory / f"{spec.hash}.npz", directory / f"{spec.hash}.json"


class _CorruptEntry(Exception):
    pass


def _read_entry(spec: RunSpec, npz_path: Path, json_path: Path) -> tuple[dict, dict]:
    try:
        meta = json.loads(json_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise _CorruptEntry(f"unreadable JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise _CorruptEntry("JSON is not an object")
    try:
        stored = _hash_payload(meta["experiment"], meta["function"], meta["config"],
                               meta["seed"])
        listed = meta["arrays"]
        digest = meta["npz_sha256"]
    except (KeyError, TypeError, ConfigError) as exc:
        raise _CorruptEntry(f"JSON lacks a field or is malformed ({exc!r})") from None
    if stored != spec._canonical or meta.get("hash") != spec.hash:
        raise _CorruptEntry("JSON describes a different run")
    if not isinstance(listed, dict):
        raise _CorruptEntry("JSON 'arrays' is not an object")
    if not npz_path.exists():
        raise _CorruptEntry("NPZ file is missing")
    try:
        if _sha256_file(npz_path) != digest:
            raise _CorruptEntry("NPZ checksum differs from the one in the JSON")
        with np.load(npz_path, allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
    except _CorruptEntry:
        raise
    except Exception as exc:  # BadZipFile, CRC errors, truncated members, ...
        raise _CorruptEntry(f"NPZ does not load ({type(exc).__name__}: {exc})") from None
    if sorted(arrays) != sorted(listed):
        raise _CorruptEntry(
            f"NPZ holds arrays {sorted(arrays)}, JSON lists {sorted(listed)}")
    for name, arr in arrays.items():
        want = listed[name]
        if not isinstance(want, dict) or list(arr.shape) != want.get("shape") \
                or arr.dtype.str != want.get("dtype"):
            raise _CorruptEntry(
                f"array {name!r} has shape {arr.shape} dtype {arr.dtype.str}, JSON says {want}")
    return arrays, meta


def load_cached(spec: RunSpec, results_root: str | os.PathLike | None = None
                ) -> Result | None:
    """The cached :class:`Result` of ``spec``, or None when there is no valid entry.

    An invalid entry (JSON without NPZ, NPZ without JSON, checksum or array mismatch,
    unreadable files) is reported with a logged warning and treated as missing."""
    npz_path, json_path = cache_paths(spec, results_root)
    if not json_path.exists():
        if npz_path.exists():
            logger.warning("incomplete cache entry %s (NPZ without JSON; an interrupted "
                           "write?): recomputing", npz_path)
        return None
    try:
        arrays, meta = _read_entry(spec, npz_path, json_path)
    except _CorruptEntry as exc:
        logger.warning("invalid cache entry %s: %s; recomputing", json_path, exc)
        return None
    return Result(spec=spec, arrays=arrays, meta=meta, cached=True)


def _store(spec: RunSpec, results_root: Path, arrays: dict[str, np.ndarray], fn_meta: dict,
           wall: float, environment: dict) -> Result:
    """Write NPZ first, JSON last (the JSON is the commit mark), then reload the entry."""
    npz_path, json_path = cache_paths(spec, results_root)
    digest = atomic_savez(npz_path, arrays)
    checksums = fn_meta.get("data_checksums", {})
    meta = {
        "format": CACHE_FORMAT,
        "experiment": spec.experiment,
        "function": spec.function,
        "config": spec.config,
        "seed": spec.seed,
        "hash": spec.hash,
        "code_fingerprint": code_fingerprint(spec.function),
        "git_commit": environment["git_commit"],
        "git_dirty": environment["git_dirty"],
        "versions": environment["versions"],
        "metadata": fn_meta,
        "data_checksums": checksums if checksums is not None else {},
        "wall_time_s": wall,
        "arrays": {name: {"shape": list(arr.shape), "dtype": arr.dtype.str}
                   for name, arr in sorted(arrays.items())},
        "npz_sha256": digest,
    }
    atomic_write_json(json_path, meta)
    try:
        arrays_back, meta_back = _read_entry(spec, npz_path, json_path)
    except _CorruptEntry as exc:  # pragma: no cover - only under concurrent tampering
        raise RuntimeError(f"cache entry {json_path} is invalid right after writing: {exc}")
    return Result(spec=spec, arrays=arrays_back, meta=meta_back, cached=False)


# --------------------------------------------------------------------------------------------
# Backends
# --------------------------------------------------------------------------------------------

def _map_sequential(specs: Sequence[RunSpec]) -> Iterator[tuple]:
    for i, spec in enumerate(specs):
        yield _execute_indexed(i, spec)


def _map_joblib(specs: Sequence[RunSpec], jobs: int) -> Iterator[tuple]:
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")
    yield from parallel(delayed(_execute_indexed)(i, spec) for i, spec in enumerate(specs))


def _is_scheduler_like(obj: Any) -> bool:
    if isinstance(obj, str):
        return bool(obj)
    if hasattr(obj, "scheduler_address"):  # a dask cluster (LocalCluster, ...)
        return True
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover
        return False
    return isinstance(obj, Client)


def _map_dask(specs: Sequence[RunSpec], scheduler: Any) -> Iterator[tuple]:
    from distributed import Client, as_completed

    own = not isinstance(scheduler, Client)
    client = Client(scheduler, set_as_default=False) if own else scheduler
    futures = []
    try:
        futures = client.map(_execute_indexed, range(len(specs)), specs, pure=False)
        for future in as_completed(futures, loop=client.loop):
            yield future.result()
    finally:
        pending = [f for f in futures if not f.done()]
        if pending:
            client.cancel(pending)
        if own:
            client.close()


# --------------------------------------------------------------------------------------------
# run_all
# --------------------------------------------------------------------------------------------

def run_all(specs: Iterable[RunSpec], *, jobs: int = 1, scheduler: Any = None,
            results_root: str | os.PathLike | None = None, progress: bool = True,
            force: bool = False) -> list[Result]:
    """Run every spec not yet cached, cache it, and return all results in spec order.

    Parameters
    ----------
    specs : iterable of RunSpec
        Duplicates (equal specs) are computed once and share one :class:`Result`.
    jobs : int >= 1
        Worker processes of the joblib/loky pool (1: run in this process). Ignored with dask.
    scheduler : str, distributed.Client, cluster or None
        A dask scheduler address (``"tcp://127.0.0.1:8786"``), a ``distributed.Client`` (not
        closed afterwards) or a cluster object; None falls back to ``$REPRO_DASK_ADDRESS`` and,
        when that is unset, to joblib.
    results_root : path or None
        Cache root; default ``$REPRO_RESULTS_DIR`` or ``./results``.
    progress : bool
        Show a tqdm bar over runs on stderr.
    force : bool
        Recompute (and overwrite) every spec even when cached.

    Each finished run is written to the cache as soon as it finishes, so an interrupted batch
    resumes where it stopped. When a run raises, the exception propagates (after the runs
    finished before it were cached) and remaining runs are cancelled.
    """
    from tqdm import tqdm

    require(isinstance(jobs, (int, np.integer)) and not isinstance(jobs, bool) and jobs >= 1,
            "jobs", jobs, "an int >= 1 (number of worker processes)")
    jobs = int(jobs)
    if scheduler is None:
        scheduler = os.environ.get(DASK_ADDRESS_ENV) or None
    if scheduler is not None and not _is_scheduler_like(scheduler):
        raise ValueError(
            f"scheduler={scheduler!r} is not admissible: a dask scheduler address "
            "such as 'tcp://127.0.0.1:8786', a distributed.Client, or None")
    specs = list(specs)
    for i, spec in enumerate(specs):
        if not isinstance(spec, RunSpec):
            raise ValueError(
                f"specs[{i}] of type {type(spec).__name__} is not admissible: a RunSpec")
    root = resolve_results_root(results_root)

    unique: dict[str, RunSpec] = {}
    for spec in specs:
        unique.setdefault(spec._canonical, spec)
    results: dict[str, Result] = {}
    if not force:
        for key, spec in unique.items():
            cached = load_cached(spec, root)
            if cached is not None:
                results[key] = cached
    pending = [spec for key, spec in unique.items() if key not in results]

    if pending:
        for function in sorted({spec.function for spec in pending}):
            _resolve_function(function)  # fail fast, in the caller, on a bad import path
        environment = provenance_environment()
        if scheduler is not None:
            stream = _map_dask(pending, scheduler)
        elif min(jobs, len(pending)) == 1:
            stream = _map_sequential(pending)
        else:
            stream = _map_joblib(pending, min(jobs, len(pending)))
        with tqdm(total=len(unique), initial=len(results), disable=not progress,
                  file=sys.stderr, unit="run", desc="runs") as bar:
            with contextlib.closing(stream):
                for index, arrays, fn_meta, wall in stream:
                    spec = pending[index]
                    results[spec._canonical] = _store(spec, root, arrays, fn_meta, wall,
                                                      environment)
                    bar.update(1)
    return [results[spec._canonical] for spec in specs]
