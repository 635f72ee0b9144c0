"""Generic experiment runner: cache keys, the result cache, provenance, dependencies between runs, and the
parallel map over runs (one process, a local process pool, or a dask cluster).

The runner knows nothing about any paper. A run is described by a :class:`RunSpec`: the experiment name
(``"fedsgm.figure1"``), a config (a :class:`~repro.experiment.Config` or its dict; it includes the profile), a
seed, the module-level run function itself, and optionally the runs whose results it needs::

    fn(config: SomeConfig, seed: int) -> tuple[dict[str, np.ndarray], dict]
    fn(config: SomeConfig, seed: int, inputs: dict[str, Result]) -> ...   # when the spec has ``needs``
    fn(config: tuple[SomeConfig, ...], seed: int) -> ...                 # a batch (:mod:`repro.batches`)

returning named arrays and a JSON-serialisable metadata dict (which may hold ``"data_checksums"``). The annotation
of ``config`` is the contract: the runner builds that dataclass (for a batch, one per member) from the stored
config before the call (:func:`typed_config`), so a run function never reads a dict. The
function seeds itself from ``seed`` (via ``np.random.SeedSequence``); the runner introduces no randomness.

Data flow::

    spec --config_hash--> <results_root>/<paper>/<hash>.json exists and valid?
        yes -> load  <hash>.npz                                      (Result.cached = True)
        no  -> its needs first, then fn(config, seed[, inputs]) in a worker
            -> divergence check of the watched arrays
            -> <hash>.npz, then <hash>.json, each written atomically  (Result.cached = False)

**Cache key** (:func:`config_hash`): the canonical JSON of experiment, function, config, seed and the hashes
of the needed runs, plus the code fingerprint of the function (the suite modules it executes) and the
versions of the numerical libraries (:mod:`repro.fingerprint`). A result computed by other code or other
library versions is never reused.

**Cache entries.** An entry counts only when its JSON exists, the NPZ has the SHA-256 recorded in the JSON,
loads, and holds exactly the arrays (names, shapes, dtypes) the JSON lists. Anything else (a run interrupted
between the two writes, a truncated or edited file) is logged as a warning, treated as missing and
recomputed; it is never returned. Temporary files left by a killed writer are removed before a batch starts.

**Failures.** Nothing is cached from a run that raises or diverges. A run that stops with a user-facing
error (:class:`~repro.errors.ReproError`, ``ValueError``) raises :class:`~repro.errors.RunFailed`, one line
naming the run; a programming error keeps its traceback, with a note naming the run. Ctrl-C raises
:class:`~repro.errors.Interrupted` after stopping the workers; the runs finished before it stay cached.

**Divergence** is checked generically: a run function decorated with :func:`watch` names the arrays that
are trajectories of an objective (first axis: time) and the config keys that are step sizes. A watched
array with a non-finite entry, or whose largest magnitude exceeds :data:`GROWTH_LIMIT` times
max(1, |first value|), makes the run fail with the array, the values and the step sizes.

**Bit-identical results** whatever the backend and the number of workers: every run executes with the
BLAS/OpenMP pools limited to one thread (the reduction order of multi-threaded BLAS depends on the thread
count), and NPZ files are written deterministically, so equal arrays give byte-identical files.
"""
from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import hashlib
import importlib
import importlib.metadata
import json
import logging
import os
import inspect
import platform
import sys
import time
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Callable, NamedTuple

import numpy as np

from . import backends, checkout
from .errors import ConfigError, DivergenceError, Interrupted, ReproError, RunFailed, require
from .fingerprint import code_files, code_fingerprint, library_versions
from .io import (atomic_savez, atomic_write_json, canonical_json, check_arrays, ensure_writable_directory,
                 remove_orphan_temporaries, sha256_file, to_jsonable)
from .progress import Progress

__all__ = ["RunSpec", "Result", "config_hash", "payload_key", "spec_payload_key", "resolve_results_root", "cache_paths",
           "load_cached", "run_all", "watch", "run_label", "provenance_environment", "RESULTS_DIR_ENV",
           "DASK_ADDRESS_ENV", "CACHE_FORMAT", "GROWTH_LIMIT"]

logger = logging.getLogger(__name__)

RESULTS_DIR_ENV = "REPRO_RESULTS_DIR"
DASK_ADDRESS_ENV = backends.DASK_ADDRESS_ENV

#: Version of the cache entry layout and of the runner's execution semantics; part of every key.
CACHE_FORMAT = 2

#: A watched trajectory that grows beyond this factor of max(1, |first value|) has diverged.
GROWTH_LIMIT = 1e3

#: Distributions whose versions go into the provenance (key -> distribution name).
_VERSIONED_DISTRIBUTIONS = {
    "numpy": "numpy", "scipy": "scipy", "sympy": "sympy", "cvxpy": "cvxpy", "sklearn": "scikit-learn",
    "threadpoolctl": "threadpoolctl", "dask": "dask", "distributed": "distributed", "fedbounds": "fedbounds",
}


def _experiment_ok(name) -> bool:
    parts = name.split(".") if isinstance(name, str) else []
    return bool(parts) and all(p and all(c.isalnum() or c in "_-" for c in p) for p in parts)


def _function_ok(fn) -> bool:
    """A module-level function, reachable by its module and qualified name (what pickling to a worker needs)."""
    module = sys.modules.get(getattr(fn, "__module__", None) or "")
    name = getattr(fn, "__qualname__", "")
    return callable(fn) and module is not None and "." not in name and getattr(module, name, None) is fn


def config_type(fn: Callable) -> tuple[tuple[type, ...], bool]:
    """``(classes, batched)`` from the annotation of ``fn``'s first parameter: a :class:`~repro.experiment.Config`
    subclass, a union of them (a run function whose runs come in several shapes), or ``tuple[...]`` of either for a
    batch. Anything else is a one-line ``ConfigError``."""
    from .experiment import Config
    first = next(iter(inspect.signature(fn).parameters), None)
    hint = typing.get_type_hints(fn).get(first)
    args = typing.get_args(hint)
    batched = typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis
    member = args[0] if batched else hint
    union = isinstance(member, types.UnionType) or typing.get_origin(member) is typing.Union
    classes = typing.get_args(member) if union else (member,)
    if all(isinstance(c, type) and issubclass(c, Config) for c in classes):
        return classes, batched
    raise ConfigError(f"run function {fn.__module__}.{fn.__qualname__} is not admissible: its first parameter must "
                      "be annotated with its Config dataclass (a union of them, or tuple[...] for a batch)")


def typed_config(fn: Callable, config: Mapping) -> Any:
    """The config ``fn`` declares (:func:`config_type`), built from the stored dict: one dataclass (of a union, the
    shape :func:`repro.experiment.shape_of` picks, as ``Experiment.check_config`` does), or for a batch one per member
    of ``config["members"]``."""
    from .experiment import shape_of
    classes, batched = config_type(fn)
    if batched != ("members" in config):
        raise ConfigError(f"config of {fn.__module__}.{fn.__qualname__} is not admissible: "
                          + ("a batch {'members': [...]}" if batched else "one run's config, not a batch"))
    if batched:
        return tuple(shape_of(classes, member).from_dict(member) for member in config["members"])
    return shape_of(classes, config).from_dict(config)


# --------------------------------------------------------------------------------------------
# RunSpec and Result
# --------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True, eq=False)
class RunSpec:
    """One run: ``function(config, seed[, inputs])`` for ``experiment``.

    ``config`` is normalised on construction to its canonical JSON form (tuples -> lists, numpy scalars ->
    Python scalars, a private copy), so that two specs with the same hash feed the function the same input.
    ``needs`` maps names to the specs whose results the function receives as ``inputs`` (e.g. a learning
    rate chosen once by a grid search and reused by every seed); their hashes are part of this spec's key.
    Specs compare and hash by their canonical content, and pickle cheaply.
    """

    experiment: str
    config: dict
    seed: int
    function: Callable
    needs: Mapping = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        if not _experiment_ok(self.experiment):
            raise ConfigError(
                f"experiment={self.experiment!r} is not admissible: a dotted name such as "
                "'fedsgm.figure1' (letters, digits, '_' and '-'; the part before the first "
                "dot names the paper)")
        if not _function_ok(self.function):
            raise ConfigError(
                f"function={self.function!r} is not admissible: a module-level run function, e.g. "
                "repro.papers.fedsgm.runs.theorems.run_figure1")
        if isinstance(self.seed, (bool, np.bool_)) or not isinstance(self.seed, (int, np.integer)) \
                or self.seed < 0:
            raise ConfigError(f"seed={self.seed!r} is not admissible: a non-negative int")
        if hasattr(self.config, "as_dict"):                    # a Config dataclass: its plain dict is stored
            object.__setattr__(self, "config", self.config.as_dict())
        if not isinstance(self.config, Mapping):
            raise ConfigError(f"config={self.config!r} is not admissible: a JSON-serialisable dict")
        if not (isinstance(self.needs, Mapping) and all(isinstance(k, str) and isinstance(v, RunSpec)
                                                        for k, v in self.needs.items())):
            raise ConfigError(f"needs={self.needs!r} is not admissible: a dict mapping names to RunSpecs")
        config = json.loads(canonical_json(to_jsonable(self.config, "config")))
        object.__setattr__(self, "config", config)
        object.__setattr__(self, "seed", int(self.seed))
        object.__setattr__(self, "needs", dict(sorted(self.needs.items())))

    @property
    def paper(self) -> str:
        """The paper key: the part of ``experiment`` before the first dot."""
        return self.experiment.split(".")[0]

    @property
    def function_path(self) -> str:
        """``module.name`` of the run function: what the cache key and the provenance record."""
        return f"{self.function.__module__}.{self.function.__qualname__}"

    @functools.cached_property
    def _canonical(self) -> str:
        return _hash_payload(self.experiment, self.function_path, self.config, self.seed,
                             {name: dep.hash for name, dep in self.needs.items()})

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

    ``arrays`` are loaded from the cache NPZ (also right after a computation, so a fresh result and a
    cached one are indistinguishable apart from ``cached`` and the wall time); ``meta`` is the provenance
    JSON as a dict; ``cached`` says whether the run was loaded from the cache instead of computed by this
    call.
    """

    spec: RunSpec
    arrays: dict[str, np.ndarray]
    meta: dict
    cached: bool

    @property
    def hash(self) -> str:
        return self.spec.hash


# --------------------------------------------------------------------------------------------
# Cache keys
# --------------------------------------------------------------------------------------------

def _hash_payload(experiment: str, function: str, config: Any, seed: int, needs: Mapping | None = None) -> str:
    payload = {"experiment": experiment, "function": function, "config": config, "seed": seed}
    if needs:
        payload["needs"] = dict(needs)
    return canonical_json(payload)


def payload_key(experiment: str, function: str, config: Any, seed: int, needs: Mapping | None = None) -> str:
    """SHA-256 (16 hex) of what a run is *asked* to compute, without the code and library versions it is
    computed with: equal for a cached entry and the current spec of the same run when only the code or the
    libraries changed (how ``python -m repro status`` finds stale entries)."""
    return hashlib.sha256(_hash_payload(experiment, function, config, seed, needs).encode("ascii")).hexdigest()[:16]


def spec_payload_key(spec: RunSpec) -> str:
    """:func:`payload_key` of a spec, its needed runs named by their own payload keys (not by their hashes, which
    contain their code): a run whose needed run is stale is then found as stale too, not as missing."""
    return payload_key(spec.experiment, spec.function_path, spec.config, spec.seed,
                       {k: spec_payload_key(v) for k, v in spec.needs.items()})


def config_hash(spec: RunSpec) -> str:
    """First 16 hex characters of the SHA-256 of the canonical run payload (experiment, function, config,
    seed, needed runs' hashes), the :func:`~repro.fingerprint.code_fingerprint` of the function, the
    numerical libraries' versions and :data:`CACHE_FORMAT`; the name of the spec's cache entry."""
    payload = (spec._canonical + code_fingerprint(spec.function_path) + canonical_json(library_versions())
               + f"format={CACHE_FORMAT}")
    return hashlib.sha256(payload.encode("ascii")).hexdigest()[:16]


def run_label(spec: RunSpec, siblings: Sequence[RunSpec] = ()) -> str:
    """A short name of a run for messages: the experiment, the config values that differ among
    ``siblings`` (the other runs of its batch), and the seed."""
    varying = sorted({key for other in siblings for key in set(other.config) | set(spec.config)
                      if other.config.get(key) != spec.config.get(key)})
    shown = ", ".join(f"{key}={spec.config.get(key)!r}" for key in varying[:6])
    more = ", ..." if len(varying) > 6 else ""
    return f"{spec.experiment} run ({shown}{more}{', ' if shown else ''}seed {spec.seed}, hash {spec.hash})"


# --------------------------------------------------------------------------------------------
# Watched trajectories (divergence)
# --------------------------------------------------------------------------------------------

def watch(*arrays: str, step_sizes: Sequence[str] = ()) -> Callable:
    """Decorator for a run function: the named output arrays are trajectories of an objective (first axis:
    time) that the runner checks for divergence, and ``step_sizes`` are the config keys to blame when one
    diverges. The function itself is returned unchanged."""
    def mark(fn):
        fn.watched_arrays = tuple(arrays)
        fn.step_sizes = tuple(step_sizes)
        return fn
    return mark


def _check_divergence(fn: Callable, config: dict, arrays: Mapping[str, np.ndarray]) -> None:
    suspects = ", ".join(f"{k}={config[k]!r}" for k in getattr(fn, "step_sizes", ()) if k in config)
    blame = f"; the step size most likely at fault: {suspects}" if suspects else ""
    for name in getattr(fn, "watched_arrays", ()):
        if name not in arrays:
            continue
        values = np.asarray(arrays[name], dtype=np.float64)
        if values.size == 0:
            continue
        bad = ~np.isfinite(values)
        if bad.any():
            step = int(np.argwhere(bad)[0][0]) if values.ndim else 0
            raise DivergenceError(f"{name} became non-finite at index {step} of {values.shape[0] if values.ndim else 1}"
                                  + blame)
        first = float(np.max(np.abs(values[0]))) if values.ndim else abs(float(values))
        peak = float(np.max(np.abs(values)))
        if peak > GROWTH_LIMIT * max(1.0, first):
            raise DivergenceError(f"{name} grew from {first:.4g} to {peak:.4g} (more than {GROWTH_LIMIT:g} times "
                                  f"max(1, first value)){blame}")


# --------------------------------------------------------------------------------------------
# Executing one run (in a worker or in this process)
# --------------------------------------------------------------------------------------------

def _check_output(out: Any, function: str) -> tuple[dict[str, np.ndarray], dict]:
    where = f"return value of {function}"
    if not (isinstance(out, tuple) and len(out) == 2):
        raise ValueError(f"{where} of type {type(out).__name__} is not admissible: a tuple "
                         "(arrays: dict[str, np.ndarray], metadata: dict)")
    arrays, meta = out
    arrays = check_arrays(arrays, f"arrays returned by {function}")
    if not isinstance(meta, Mapping):
        raise ValueError(f"metadata returned by {function} of type {type(meta).__name__} is not "
                         "admissible: a JSON-serialisable dict")
    try:
        meta = to_jsonable(meta, f"metadata returned by {function}")
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    return arrays, meta


@contextlib.contextmanager
def _single_threaded_native_pools():
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        yield
        return
    with threadpool_limits(limits=1):
        yield


class Timing(NamedTuple):
    """The wall time in seconds of a run's function call, and whether it was the first call of that function in
    its process (which carries one-off costs: imports, compiled claims, loaded data; the cost model leaves such runs
    out where it has others, :mod:`repro.costs`)."""

    seconds: float
    first_in_process: bool


_CALLED: set[str] = set()       # the run functions this process has called


def execute(spec: RunSpec, inputs: Mapping[str, Result] | None = None) -> tuple[dict, dict, Timing]:
    """Run one spec where it is called (this process or a worker): its arrays, metadata and :class:`Timing`.
    Raises what the function raises, or DivergenceError."""
    fn = spec.function
    config = typed_config(fn, copy.deepcopy(spec.config))
    args = (config, spec.seed) + ((dict(inputs or {}),) if spec.needs else ())
    first = spec.function_path not in _CALLED
    _CALLED.add(spec.function_path)
    with _single_threaded_native_pools():
        start = time.perf_counter()
        out = fn(*args)
        wall = time.perf_counter() - start
    arrays, meta = _check_output(out, spec.function_path)
    _check_divergence(fn, spec.config, arrays)
    return arrays, meta, Timing(wall, first)


# --------------------------------------------------------------------------------------------
# Provenance
# --------------------------------------------------------------------------------------------

def provenance_environment() -> dict:
    """Commit and package versions: ``git_commit`` (``git rev-parse HEAD`` of the checkout holding this
    package, None outside a git repository), ``git_dirty`` (the source differs from that commit:
    :func:`repro.checkout.state`; None outside git) and
    ``versions`` (python and the installed distributions among numpy, scipy, sympy, cvxpy, scikit-learn,
    threadpoolctl, dask, distributed, fedbounds)."""
    here = checkout.state()
    commit, dirty = here["commit"], here["dirty"]
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
    return Path(env) if env else Path.cwd() / "results"


def cache_paths(spec: RunSpec, results_root: str | os.PathLike | None = None) -> tuple[Path, Path]:
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
    except RecursionError:          # nested deeper than the parser's recursion limit: no entry the runner wrote
        raise _CorruptEntry("unreadable JSON (nested too deeply)") from None
    if not isinstance(meta, dict):
        raise _CorruptEntry("JSON is not an object")
    try:
        stored = _hash_payload(meta["experiment"], meta["function"], meta["config"], meta["seed"],
                               meta.get("needs"))
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
        if sha256_file(npz_path) != digest:
            raise _CorruptEntry("NPZ checksum differs from the one in the JSON")
        with np.load(npz_path, allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
    except _CorruptEntry:
        raise
    except Exception as exc:  # BadZipFile, CRC errors, truncated members, ...
        raise _CorruptEntry(f"NPZ does not load ({type(exc).__name__}: {exc})") from None
    if sorted(arrays) != sorted(listed):
        raise _CorruptEntry(f"NPZ holds arrays {sorted(arrays)}, JSON lists {sorted(listed)}")
    for name, arr in arrays.items():
        want = listed[name]
        if not isinstance(want, dict) or list(arr.shape) != want.get("shape") or arr.dtype.str != want.get("dtype"):
            raise _CorruptEntry(f"array {name!r} has shape {arr.shape} dtype {arr.dtype.str}, JSON says {want}")
    return arrays, meta


def load_cached(spec: RunSpec, results_root: str | os.PathLike | None = None) -> Result | None:
    """The cached :class:`Result` of ``spec``, or None when there is no valid entry.

    An invalid entry (JSON without NPZ, NPZ without JSON, checksum or array mismatch, unreadable files) is
    reported with a logged warning and treated as missing."""
    npz_path, json_path = cache_paths(spec, results_root)
    if not json_path.exists():
        if npz_path.exists():
            logger.warning("incomplete cache entry %s (NPZ without JSON; an interrupted write?): recomputing",
                           npz_path)
        return None
    try:
        arrays, meta = _read_entry(spec, npz_path, json_path)
    except _CorruptEntry as exc:
        logger.warning("invalid cache entry %s: %s; recomputing", json_path, exc)
        return None
    return Result(spec=spec, arrays=arrays, meta=meta, cached=True)


def _store(spec: RunSpec, results_root: Path, arrays: dict[str, np.ndarray], fn_meta: dict,
           timing: Timing, environment: dict) -> Result:
    """Write NPZ first, JSON last (the JSON is the commit mark), then reload the entry."""
    npz_path, json_path = cache_paths(spec, results_root)
    digest = atomic_savez(npz_path, arrays)
    checksums = fn_meta.get("data_checksums", {})
    meta = {
        "format": CACHE_FORMAT,
        "experiment": spec.experiment,
        "function": spec.function_path,
        "config": spec.config,
        "seed": spec.seed,
        "hash": spec.hash,
        "payload_key": spec_payload_key(spec),
        "code_fingerprint": code_fingerprint(spec.function_path),
        "code_files": code_files(spec.function_path),
        "library_versions": library_versions(),
        "git_commit": environment["git_commit"],
        "git_dirty": environment["git_dirty"],
        "versions": environment["versions"],
        "metadata": fn_meta,
        "data_checksums": checksums if checksums is not None else {},
        "wall_time_s": timing.seconds,
        "first_in_process": timing.first_in_process,
        "arrays": {name: {"shape": list(arr.shape), "dtype": arr.dtype.str} for name, arr in sorted(arrays.items())},
        "npz_sha256": digest,
    }
    if spec.needs:
        meta["needs"] = {name: dep.hash for name, dep in spec.needs.items()}
    atomic_write_json(json_path, meta)
    try:
        arrays_back, meta_back = _read_entry(spec, npz_path, json_path)
    except _CorruptEntry as exc:  # pragma: no cover - only under concurrent tampering
        raise RuntimeError(f"cache entry {json_path} is invalid right after writing: {exc}")
    return Result(spec=spec, arrays=arrays_back, meta=meta_back, cached=False)


# --------------------------------------------------------------------------------------------
# run_all
# --------------------------------------------------------------------------------------------

def _with_needs(specs: Sequence[RunSpec]) -> list[RunSpec]:
    """Every spec and, before it, every spec it needs (transitively), each once."""
    order: dict[str, RunSpec] = {}

    def visit(spec: RunSpec) -> None:
        if spec._canonical in order:
            return
        for dep in spec.needs.values():
            visit(dep)
        order[spec._canonical] = spec

    for spec in specs:
        visit(spec)
    return list(order.values())


def _check_arguments(specs, jobs) -> list[RunSpec]:
    require(isinstance(jobs, (int, np.integer)) and not isinstance(jobs, bool) and jobs >= 1,
            "jobs", jobs, "an int >= 1 (number of worker processes)")
    specs = list(specs)
    for i, spec in enumerate(specs):
        if not isinstance(spec, RunSpec):
            raise ValueError(f"specs[{i}] of type {type(spec).__name__} is not admissible: a RunSpec")
    return specs


def _prepare_root(root: Path, pending: Sequence[RunSpec]) -> None:
    name = RESULTS_DIR_ENV if os.environ.get(RESULTS_DIR_ENV) and root == Path(os.environ[RESULTS_DIR_ENV]) \
        else "results_root"
    ensure_writable_directory(root, name)
    for paper in sorted({spec.paper for spec in pending}):
        ensure_writable_directory(root / paper, name, create=False)
    removed = remove_orphan_temporaries(root)
    if removed:
        logger.info("removed %d temporary file(s) left by an interrupted writer in %s", removed, root)


def _failure(exc: BaseException, spec: RunSpec, siblings: Sequence[RunSpec]) -> BaseException:
    """The exception to raise for a failed run: user-facing errors become one-line RunFailed naming the
    run; programming errors keep their type and traceback, with a note naming the run."""
    label = run_label(spec, siblings)
    if isinstance(exc, DivergenceError):
        return RunFailed(f"{label} diverged: {str(exc).strip().splitlines()[0]}; nothing was cached for it")
    if isinstance(exc, (ReproError, ValueError)):
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return RunFailed(f"{label} failed: {first}; nothing was cached for it")
    exc.add_note(f"while running {spec.function_path} for {label}")
    return exc


def run_all(specs: Iterable[RunSpec], *, jobs: int = 1, scheduler: Any = None,
            results_root: str | os.PathLike | None = None, progress: bool = True,
            force: bool = False, estimate: Callable[[RunSpec], float] | None = None,
            admit: Callable[[list[RunSpec]], None] | None = None) -> list[Result]:
    """Run every spec not yet cached (and, first, the runs it needs), cache it, and return all results in
    spec order.

    Parameters
    ----------
    specs : iterable of RunSpec
        Duplicates (equal specs) are computed once and share one :class:`Result`.
    jobs : int >= 1
        Worker processes of the local pool (1: run in this process). Ignored with dask.
    scheduler : str, distributed.Client, cluster or None
        A dask scheduler address (``"tcp://127.0.0.1:8786"``), a ``distributed.Client`` (not closed
        afterwards) or a cluster object; None falls back to ``$REPRO_DASK_ADDRESS`` and, when that is unset,
        to the local pool.
    results_root : path or None
        Cache root; default ``$REPRO_RESULTS_DIR`` or ``./results``. Checked to be a writable directory
        before anything is computed.
    progress : bool
        Show one progress bar per experiment on stderr.
    force : bool
        Recompute (and overwrite) every spec even when cached.
    estimate : callable or None
        ``spec -> expected seconds``, from measured costs (:mod:`repro.costs`): orders the runs by critical path
        (:func:`_submission_order`) and gives the progress bars their ETA.
    admit : callable or None
        Called with the runs about to be computed (not cached, their needs included) before any starts; it
        raises to refuse the batch (:func:`repro.limits.check`).

    Each finished run is written to the cache as soon as it finishes, so an interrupted batch resumes where
    it stopped. When a run fails, the remaining runs are cancelled and the error propagates (module
    docstring); on Ctrl-C, :class:`~repro.errors.Interrupted`.
    """
    specs = _check_arguments(specs, jobs)
    backend_factory = backends.choose(scheduler, int(jobs), execute)
    root = resolve_results_root(results_root)
    everything = _with_needs(specs)
    results: dict[str, Result] = {}
    if not force:
        for spec in everything:
            cached = load_cached(spec, root)
            if cached is not None:
                results[spec._canonical] = cached
    pending = [spec for spec in everything if spec._canonical not in results]
    if pending and admit is not None:
        admit(pending)
    if pending:
        for fn in {spec.function for spec in pending}:
            config_type(fn)               # fail fast, in the caller, on a run function without its config type
        _prepare_root(root, pending)
        _compute(pending, everything, results, root, backend_factory, progress, estimate)
    return [results[spec._canonical] for spec in specs]


def _submission_order(pending: list[RunSpec], estimate) -> list[RunSpec]:
    """Pending runs by critical path, longest first: a run's priority is its expected cost plus the longest
    chain of pending runs that need it (list scheduling by "bottom level"). A run that others wait on (an SGD
    step-size search, say) starts before independent runs of the same cost, and the runs it unlocks are not
    left to one core at the end of the batch; without dependencies this is longest-processing-time-first.
    Ties keep the order of the experiments. ``pending`` is in dependency order (:func:`_with_needs`)."""
    if estimate is None:
        return list(pending)
    keys = {spec._canonical for spec in pending}
    dependents: dict[str, list[RunSpec]] = {}
    for spec in pending:
        for dep in spec.needs.values():
            if dep._canonical in keys:
                dependents.setdefault(dep._canonical, []).append(spec)
    level: dict[str, float] = {}
    for spec in reversed(pending):
        after = max((level[d._canonical] for d in dependents.get(spec._canonical, ())), default=0.0)
        level[spec._canonical] = estimate(spec) + after
    return sorted(pending, key=lambda s: -level[s._canonical])


def _compute(pending, everything, results, root, backend_factory, progress, estimate) -> None:
    environment = provenance_environment()
    order = _submission_order(pending, estimate)
    siblings: dict[str, list[RunSpec]] = {}
    for spec in everything:
        siblings.setdefault(spec.experiment, []).append(spec)
    waiting = {spec._canonical: spec for spec in order}
    bars = Progress(everything, {key for key in results}, order, estimate, enabled=progress,
                    workers=backend_factory.workers)
    stored = 0
    with backend_factory() as backend:
        try:
            while waiting or backend.busy:
                for key, spec in list(waiting.items()):
                    if backend.capacity is not None and backend.in_flight >= backend.capacity:
                        break
                    if all(dep._canonical in results for dep in spec.needs.values()):
                        inputs = {name: results[dep._canonical] for name, dep in spec.needs.items()}
                        backend.submit(spec, inputs)
                        bars.started(spec)
                        del waiting[key]
                for spec, outcome in backend.completed():
                    if isinstance(outcome, BaseException):
                        raise _failure(outcome, spec, siblings[spec.experiment]) from None
                    arrays, fn_meta, timing = outcome
                    try:
                        results[spec._canonical] = _store(spec, root, arrays, fn_meta, timing, environment)
                    except OSError as exc:
                        raise ReproError(f"cannot store {run_label(spec, siblings[spec.experiment])} in "
                                         f"{root / spec.paper}: {exc.strerror or exc}") from None
                    stored += 1
                    bars.finished(spec, timing.seconds)
        except KeyboardInterrupt:
            backend.abort()
            cached = sum(1 for spec in everything if spec._canonical in results)
            raise Interrupted(f"interrupted: {cached} of {len(everything)} runs cached ({stored} computed now), "
                              "rerun to resume") from None
        except BaseException:
            backend.abort()
            raise
        finally:
            bars.close()
