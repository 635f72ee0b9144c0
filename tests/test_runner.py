"""Tests of repro.runner: hashing, cache, atomic writes, resume, backends, provenance.

The run functions live in this module, each with the frozen Config dataclass of its first parameter (the runner
builds it from the stored config before the call). A RunSpec holds the function object, which pickles by reference
(``tests.test_runner.scaled_normal``): pool and dask workers import this module to unpickle it, so the module-scoped
``worker_pythonpath`` fixture puts ``tests/`` (and the project root) on ``PYTHONPATH`` before any worker process is
spawned.
"""
from __future__ import annotations

import json
import logging
import os
import pickle
import subprocess
import sys
import time
import types
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from repro import io, runner
from repro.errors import ConfigError, ReproError, RunFailed
from repro.experiment import Config
from repro.io import atomic_savez, atomic_write_bytes, canonical_json
from repro.runner import Result, RunSpec, cache_paths, config_hash, load_cached, run_all

TESTS_DIR = Path(__file__).resolve().parent
ROOT_DIR = TESTS_DIR.parent


# ---------------------------------------------------------------- run functions (importable) and their configs

@dataclass(frozen=True)
class ToyConfig(Config):
    """The config of :func:`scaled_normal` (every key the toy specs below store)."""
    profile: str = "quick"
    scale: float = 2.0
    counter: str | None = None
    fail_flag: str | None = None
    fail_seed: int | None = None
    grid: list | None = None
    nested: dict | None = None


@dataclass(frozen=True)
class NeedConfig(Config):
    """The config of :func:`plus_needed`."""
    k: float


@dataclass(frozen=True)
class EmptyConfig(Config):
    """The (empty) config of the run functions returning bad output."""


def scaled_normal(config: ToyConfig, seed: int):
    """A deterministic toy run: seeded normals scaled by ``config.scale`` plus a BLAS
    product; appends the seed to ``config.counter`` (a file) on every call and raises for
    ``config.fail_seed`` while the file ``config.fail_flag`` exists."""
    assert isinstance(config, ToyConfig)          # the runner hands over the typed config, never the dict
    if config.counter:
        with open(config.counter, "a") as fh:
            fh.write(f"{seed}\n")
    if config.fail_flag and seed == config.fail_seed \
            and os.path.exists(config.fail_flag):
        raise RuntimeError(f"simulated interruption at seed {seed}")
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    x = config.scale * rng.standard_normal(5)
    a = rng.standard_normal((64, 48))
    arrays = {"x": x, "gram": a @ a.T, "idx": np.arange(3, dtype=np.int32)}
    meta = {"data_checksums": {"toy.csv": "sha256:" + "0" * 64}, "n": np.int64(5),
            "grid": (1, 2.5)}
    return arrays, meta


def plus_needed(config: NeedConfig, seed: int, inputs: dict):
    """A toy run that needs another: the needed run's ``x`` plus ``config.k``."""
    return {"y": inputs["base"].arrays["x"] + config.k}, {}


def returns_list(config: EmptyConfig, seed: int):
    return {"x": [1.0, 2.0]}, {}


def returns_object_array(config: EmptyConfig, seed: int):
    return {"x": np.array([{"a": 1}], dtype=object)}, {}


def returns_single(config: EmptyConfig, seed: int):
    return np.zeros(3)


def unannotated(config, seed: int):
    """A module-level function whose config has no Config annotation: not a run function."""
    return {}, {}


def annotated_with_a_dict(config: dict, seed: int):
    return {}, {}


FN = scaled_normal
FN_PATH = f"{__name__}.scaled_normal"           # FN's function_path: what the cache key and provenance name


def stand_in(monkeypatch, path: str):
    """A module-level run function reachable at the dotted ``path`` (its module made up and put in
    ``sys.modules`` for the test), so that a spec's ``function_path`` is ``path``."""
    module_name, _, name = path.rpartition(".")

    def fn(config: Config, seed: int):
        return {}, {}
    fn.__module__, fn.__name__, fn.__qualname__ = module_name, name, name
    module = types.ModuleType(module_name)
    setattr(module, name, fn)
    monkeypatch.setitem(sys.modules, module_name, module)
    return fn


def spec(seed: int = 0, **config) -> RunSpec:
    config = {"profile": "quick", "scale": 2.0, **config}
    return RunSpec(experiment="toy.figure1", config=config, seed=seed, function=FN)


def read_counter(path: Path) -> list[int]:
    if not path.exists():
        return []
    return sorted(int(line) for line in path.read_text().split())


def temp_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.endswith(".tmp")]


# ---------------------------------------------------------------- fixtures

@pytest.fixture(scope="module", autouse=True)
def worker_pythonpath():
    """Make this module importable by worker processes (pool, dask) spawned from now on."""
    old = os.environ.get("PYTHONPATH")
    parts = [str(TESTS_DIR), str(ROOT_DIR)] + ([old] if old else [])
    os.environ["PYTHONPATH"] = os.pathsep.join(parts)
    yield
    if old is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = old


@pytest.fixture(scope="module")
def cluster(worker_pythonpath):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=":0") as cl:
        yield cl


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    monkeypatch.delenv(runner.RESULTS_DIR_ENV, raising=False)
    monkeypatch.delenv(runner.DASK_ADDRESS_ENV, raising=False)


# ---------------------------------------------------------------- hashing and specs

def test_config_hash_is_canonical():
    base = spec(3, grid=[1, 2.5], nested={"b": 1, "a": [0.1, None, True]})
    same = RunSpec(experiment="toy.figure1",
                   config={"nested": {"a": (np.float64(0.1), None, np.bool_(True)),
                                      "b": np.int64(1)},
                           "grid": (1, 2.5), "scale": 2.0, "profile": "quick"},
                   seed=np.int64(3), function=FN)
    h = config_hash(base)
    assert len(h) == 16 and all(c in "0123456789abcdef" for c in h)
    assert config_hash(same) == h == base.hash
    assert same == base and hash(same) == hash(base)
    assert same.config == base.config  # normalised: tuples -> lists, numpy -> Python
    assert type(same.config["nested"]["b"]) is int
    assert base.function is FN and base.function_path == FN_PATH
    # a Config instance is stored (and so hashed) as its plain dict
    typed = RunSpec("toy.figure1", ToyConfig(grid=[1, 2.5]), 3, FN)
    assert typed.config == ToyConfig(grid=[1, 2.5]).as_dict() and isinstance(typed.config, dict)
    assert typed == RunSpec("toy.figure1", ToyConfig(grid=[1, 2.5]).as_dict(), 3, FN)
    assert typed.hash == RunSpec("toy.figure1", ToyConfig(grid=[1, 2.5]).as_dict(), 3, FN).hash
    # every component counts
    others = [spec(4, grid=[1, 2.5], nested={"b": 1, "a": [0.1, None, True]}),
              spec(3, grid=[1, 2.5], nested={"b": 1, "a": [0.1, None, True]}, profile="paper"),
              spec(3, grid=[1, 2.5000000000000004], nested={"b": 1, "a": [0.1, None, True]}),
              RunSpec("toy.figure2", base.config, 3, FN),
              RunSpec("toy.figure1", base.config, 3, plus_needed)]       # another run function
    assert len({config_hash(s) for s in others} | {h}) == len(others) + 1


def test_config_hash_golden_value(monkeypatch):
    # Changing the encoding silently invalidates every cache: this pins it. The spec names its run function by the
    # object now; the payload holds its function_path, so a function at the path it had when the value was pinned
    # (a stand-in module) gives the same payload and the same golden hash.
    old_path = "repro.experiments.fedsgm.run"
    s = RunSpec(experiment="fedsgm.figure1", config={"profile": "quick", "eta": 0.1,
                                                     "rounds": 100, "grid": (1.5, 2)},
                seed=7, function=stand_in(monkeypatch, old_path))
    assert s.function_path == old_path
    assert canonical_json({"b": (1, 0.1), "a": np.float64(1e-300)}) \
        == '{"a":1e-300,"b":[1,0.1]}'
    import hashlib

    from repro import runner as runner_module
    payload = runner_module._hash_payload(s.experiment, s.function_path, s.config, s.seed)
    assert payload == s._canonical
    assert hashlib.sha256(payload.encode("ascii")).hexdigest()[:16] == GOLDEN_HASH
    assert runner_module.payload_key(s.experiment, s.function_path, s.config, s.seed) == GOLDEN_HASH
    assert runner_module.spec_payload_key(s) == GOLDEN_HASH
    key = (payload + runner_module.code_fingerprint(s.function_path)
           + canonical_json(runner_module.library_versions()) + f"format={runner_module.CACHE_FORMAT}")
    assert config_hash(s) == hashlib.sha256(key.encode("ascii")).hexdigest()[:16]


def test_config_hash_changes_with_the_code(monkeypatch):
    from repro import runner as runner_module
    from repro.papers.fedsgm.runs.theorems import run_figure1
    s = RunSpec(experiment="fedsgm.figure1", config={"eta": 0.1}, seed=0, function=run_figure1)
    before = config_hash(s)
    monkeypatch.setattr(runner_module, "code_fingerprint", lambda function="repro": "0" * 16)
    assert config_hash(s) != before


def test_config_hash_changes_with_the_library_versions(monkeypatch):
    from repro import runner as runner_module
    from repro.papers.fedsgm.runs.theorems import run_figure1
    s = RunSpec(experiment="fedsgm.figure1", config={"eta": 0.1}, seed=0, function=run_figure1)
    before = config_hash(s)
    versions = dict(runner_module.library_versions())
    monkeypatch.setattr(runner_module, "library_versions", lambda: versions | {"numpy": "0.0.1"})
    assert config_hash(s) != before


GOLDEN_HASH = "d9645164af64ae1a"


def test_config_hash_stable_across_processes():
    from repro.papers.fedsgm.runs.theorems import run_figure1
    code = (
        "from repro.runner import RunSpec, config_hash\n"
        "from repro.papers.fedsgm.runs.theorems import run_figure1\n"
        "s = RunSpec(experiment='fedsgm.figure1', config={'rounds': 100, 'grid': (1.5, 2), "
        "'eta': 0.1, 'profile': 'quick', 'names': ('z', 'a')}, seed=7, "
        "function=run_figure1)\n"
        "print(config_hash(s))\n")
    expected = config_hash(RunSpec(
        experiment="fedsgm.figure1",
        config={"profile": "quick", "names": ["z", "a"], "eta": 0.1, "rounds": 100,
                "grid": [1.5, 2]},
        seed=7, function=run_figure1))
    for hashseed in ("0", "12345"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, cwd=ROOT_DIR,
                             env={**os.environ, "PYTHONHASHSEED": hashseed})
        assert out.stdout.strip() == expected


def test_spec_validation_and_pickling():
    with pytest.raises(ConfigError, match=r"seed=-1 is not admissible"):
        spec(-1)
    with pytest.raises(ConfigError, match=r"seed=1\.5 is not admissible"):
        RunSpec("toy.figure1", {}, 1.5, FN)
    with pytest.raises(ConfigError, match=r"experiment='' is not admissible"):
        RunSpec("", {}, 0, FN)
    # the run function is the module-level function object: a dotted string, a lambda or a nested function is not
    for bad in ("run", f"{__name__}.scaled_normal"):
        with pytest.raises(ConfigError, match=rf"^function={bad!r} is not admissible: a module-level run function"):
            RunSpec("toy.figure1", {}, 0, bad)

    def nested(config: ToyConfig, seed: int):
        return {}, {}
    for bad in (lambda config, seed: ({}, {}), nested, None):
        with pytest.raises(ConfigError, match=r"^function=.* is not admissible: a module-level run function") as info:
            RunSpec("toy.figure1", {}, 0, bad)
        assert "\n" not in str(info.value)
    with pytest.raises(ConfigError, match=r"config\['path'\]=.* is not admissible"):
        RunSpec("toy.figure1", {"path": Path("/tmp")}, 0, FN)
    with pytest.raises(ConfigError, match=r"only str keys"):
        RunSpec("toy.figure1", {"a": {1: 2}}, 0, FN)
    s = spec(5)
    assert s.paper == "toy"
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.hash == s.hash and {s: 1}[t] == 1
    assert t.function is FN                      # pickled by reference: what a worker unpickles is the same function


# ---------------------------------------------------------------- cache

def test_cache_miss_then_hit_and_duplicates(tmp_path):
    counter = tmp_path / "count"
    specs = [spec(0, counter=str(counter)), spec(1, counter=str(counter)),
             spec(0, counter=str(counter))]
    first = run_all(specs, results_root=tmp_path / "res", progress=False)
    assert [r.cached for r in first] == [False, False, False]
    assert read_counter(counter) == [0, 1]  # the duplicate is computed once
    assert first[0] is first[2]
    second = run_all(specs, results_root=tmp_path / "res", progress=False)
    assert [r.cached for r in second] == [True, True, True]
    assert read_counter(counter) == [0, 1]
    for a, b in zip(first, second):
        assert a.spec == b.spec
        assert a.arrays.keys() == b.arrays.keys() == {"x", "gram", "idx"}
        for name in a.arrays:
            assert a.arrays[name].tobytes() == b.arrays[name].tobytes()
        assert a.meta == b.meta
    assert first[0].arrays["idx"].dtype == np.int32
    npz, js = cache_paths(specs[0], tmp_path / "res")
    assert npz == tmp_path / "res" / "toy" / f"{specs[0].hash}.npz" and npz.exists()
    assert js.with_suffix(".npz") == npz and js.exists()
    assert isinstance(load_cached(specs[1], tmp_path / "res"), Result)
    assert load_cached(spec(9), tmp_path / "res") is None


def test_force_recomputes(tmp_path):
    counter = tmp_path / "count"
    specs = [spec(0, counter=str(counter))]
    a = run_all(specs, results_root=tmp_path, progress=False)[0]
    b = run_all(specs, results_root=tmp_path, progress=False, force=True)[0]
    assert not b.cached and read_counter(counter) == [0, 0]
    assert np.array_equal(a.arrays["gram"], b.arrays["gram"])
    assert run_all(specs, results_root=tmp_path, progress=False)[0].cached


@pytest.mark.parametrize("damage", ["truncate_npz", "flip_npz_byte", "delete_npz",
                                    "delete_json", "garbage_json", "json_lists_other_array"])
def test_damaged_entry_is_recomputed(tmp_path, caplog, damage):
    counter = tmp_path / "count"
    s = spec(2, counter=str(counter))
    original = run_all([s], results_root=tmp_path, progress=False)[0]
    npz, js = cache_paths(s, tmp_path)
    if damage == "truncate_npz":
        npz.write_bytes(npz.read_bytes()[:200])
    elif damage == "flip_npz_byte":
        data = bytearray(npz.read_bytes())
        data[len(data) // 2] ^= 0xFF
        npz.write_bytes(bytes(data))
    elif damage == "delete_npz":
        npz.unlink()
    elif damage == "delete_json":
        js.unlink()
    elif damage == "garbage_json":
        js.write_text('{"experiment": "toy.fig')
    else:
        meta = json.loads(js.read_text())
        meta["arrays"]["extra"] = {"shape": [1], "dtype": "<f8"}
        js.write_text(json.dumps(meta))
    assert load_cached(s, tmp_path) is None
    with caplog.at_level(logging.WARNING, logger="repro.runner"):
        again = run_all([s], results_root=tmp_path, progress=False)[0]
    assert not again.cached and read_counter(counter) == [2, 2]
    assert any("recomputing" in rec.getMessage() for rec in caplog.records)
    for name in original.arrays:
        assert original.arrays[name].tobytes() == again.arrays[name].tobytes()
    assert run_all([s], results_root=tmp_path, progress=False)[0].cached
    assert temp_files(tmp_path) == []


def test_results_root_from_env_and_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_all([spec(0)], progress=False)
    assert (tmp_path / "results" / "toy" / f"{spec(0).hash}.json").exists()
    monkeypatch.setenv(runner.RESULTS_DIR_ENV, str(tmp_path / "elsewhere"))
    assert not run_all([spec(0)], progress=False)[0].cached
    assert (tmp_path / "elsewhere" / "toy" / f"{spec(0).hash}.npz").exists()
    assert run_all([spec(0)], results_root=tmp_path / "results", progress=False)[0].cached


# ---------------------------------------------------------------- atomic writes

def test_atomic_savez_is_deterministic_and_loadable(tmp_path):
    arrays = {"b": np.arange(6.0).reshape(2, 3), "a": np.array([True, False]),
              "s": np.float64(3.5)}
    d1 = atomic_savez(tmp_path / "one.npz", arrays)
    d2 = atomic_savez(tmp_path / "sub" / "two.npz", dict(reversed(list(arrays.items()))))
    assert (tmp_path / "one.npz").read_bytes() == (tmp_path / "sub" / "two.npz").read_bytes()
    assert d1 == d2 == io.sha256_file(tmp_path / "one.npz")
    with np.load(tmp_path / "one.npz", allow_pickle=False) as z:
        assert z.files == ["a", "b", "s"]
        assert np.array_equal(z["b"], arrays["b"]) and z["s"].shape == ()
    d3 = atomic_savez(tmp_path / "c.npz", arrays, compress=True)
    assert d3 != d1 and np.load(tmp_path / "c.npz")["b"].sum() == 15
    atomic_write_bytes(tmp_path / "x.bin", b"hello")
    assert (tmp_path / "x.bin").read_bytes() == b"hello"
    assert temp_files(tmp_path) == []


def test_failed_write_leaves_nothing_behind(tmp_path, monkeypatch):
    atomic_write_bytes(tmp_path / "keep.npz", b"old")

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(np.lib.format, "write_array", boom)
    with pytest.raises(OSError, match="disk full"):
        atomic_savez(tmp_path / "keep.npz", {"x": np.zeros(3)})
    assert (tmp_path / "keep.npz").read_bytes() == b"old"
    with pytest.raises(ReproError, match=r"^cannot store toy\.figure1 run .*disk full"):
        run_all([spec(0)], results_root=tmp_path / "res", progress=False)
    assert load_cached(spec(0), tmp_path / "res") is None
    assert temp_files(tmp_path) == []
    with pytest.raises(ValueError, match=r"arrays\['o'\] with dtype object"):
        atomic_savez(tmp_path / "obj.npz", {"o": np.array([None])})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.npz", "res"]


# ---------------------------------------------------------------- resume after interruption

def _executing(dask_worker) -> int:
    """Tasks a worker's threads are running, cancelled ones included (run on each worker by ``Client.run``)."""
    return dask_worker.state.executing_count


def _wait_until_idle(cluster, timeout: float = 30.0) -> None:
    """Until no task is processing on the scheduler's side and no worker thread is still running one (a cancelled task
    leaves the scheduler's view at once but runs to its end on the worker), or ``timeout`` seconds."""
    import distributed
    with distributed.Client(cluster) as client:
        deadline = time.time() + timeout
        while time.time() < deadline and (any(client.processing().values())
                                          or any(client.run(_executing).values())):
            time.sleep(0.05)


@pytest.mark.parametrize("jobs", [1, 2, "dask"])
def test_interrupted_batch_resumes(tmp_path, jobs, request):
    backend = {"jobs": 1}
    if jobs == "dask":
        backend["scheduler"] = request.getfixturevalue("cluster").scheduler_address
    else:
        backend["jobs"] = jobs
    counter, flag = tmp_path / "count", tmp_path / "fail"
    flag.touch()
    specs = [spec(seed, counter=str(counter), fail_flag=str(flag), fail_seed=2)
             for seed in range(5)]
    with pytest.raises(RuntimeError, match="simulated interruption at seed 2"):
        run_all(specs, results_root=tmp_path, progress=False, **backend)
    done = [s for s in specs if load_cached(s, tmp_path) is not None]
    if jobs == 1:
        assert [s.seed for s in done] == [0, 1]
    assert all(s.seed != 2 for s in done)
    assert temp_files(tmp_path) == []
    if jobs == "dask":      # cancelling a future does not stop a task already running on a worker: let it end
        _wait_until_idle(request.getfixturevalue("cluster"))
    flag.unlink()
    counter.unlink()
    results = run_all(specs, results_root=tmp_path, progress=False, **backend)
    assert [r.cached for r in results] == [s in done for s in specs]
    assert read_counter(counter) == sorted(s.seed for s in specs if s not in done)
    fresh = run_all([spec(seed) for seed in range(5)], results_root=tmp_path / "ref",
                    progress=False)
    for r, f in zip(results, fresh):
        assert r.arrays["gram"].tobytes() == f.arrays["gram"].tobytes()


# ---------------------------------------------------------------- backends

def test_backends_are_bit_identical(tmp_path, cluster, monkeypatch):
    specs = [spec(seed, scale=0.5) for seed in range(6)]
    by_backend = {
        "jobs1": run_all(specs, jobs=1, results_root=tmp_path / "j1", progress=False),
        "jobs2": run_all(specs, jobs=2, results_root=tmp_path / "j2", progress=False),
        "dask": run_all(specs, scheduler=cluster.scheduler_address,
                        results_root=tmp_path / "dask", progress=False),
    }
    monkeypatch.setenv(runner.DASK_ADDRESS_ENV, cluster.scheduler_address)
    by_backend["dask_env"] = run_all(specs, jobs=1, results_root=tmp_path / "denv",
                                     progress=False)
    monkeypatch.delenv(runner.DASK_ADDRESS_ENV)
    from distributed import Client
    with Client(cluster, set_as_default=False) as client:
        by_backend["dask_client"] = run_all(specs[:2], scheduler=client,
                                            results_root=tmp_path / "dcl", progress=False)
        assert client.status == "running"  # a client passed in is not closed
    reference = by_backend["jobs1"]
    for name, results in by_backend.items():
        assert not any(r.cached for r in results), name
        assert [r.spec for r in results] == specs[:len(results)], name
        for r, ref in zip(results, reference):
            for key in ref.arrays:
                assert np.array_equal(r.arrays[key], ref.arrays[key]), (name, key)
                assert r.arrays[key].tobytes() == ref.arrays[key].tobytes(), (name, key)
            npz, js = cache_paths(r.spec, tmp_path / {"jobs1": "j1", "jobs2": "j2",
                                                      "dask": "dask", "dask_env": "denv",
                                                      "dask_client": "dcl"}[name])
            ref_npz, ref_js = cache_paths(ref.spec, tmp_path / "j1")
            assert npz.read_bytes() == ref_npz.read_bytes(), name
            a, b = json.loads(js.read_text()), json.loads(ref_js.read_text())
            for m in (a, b):                      # timings: how long, and whether a worker's first call
                m.pop("wall_time_s"), m.pop("first_in_process")
            assert a == b, name
    # seeds really differ
    assert not np.array_equal(reference[0].arrays["x"], reference[1].arrays["x"])


# ---------------------------------------------------------------- provenance and errors

def test_provenance_json(tmp_path):
    s = spec(4, grid=(1, 2))
    r = run_all([s], results_root=tmp_path, progress=False)[0]
    _, js = cache_paths(s, tmp_path)
    text = js.read_text()
    meta = json.loads(text)
    assert meta == r.meta
    for key in ("experiment", "function", "config", "seed", "hash", "git_commit", "git_dirty",
                "versions", "metadata", "data_checksums", "wall_time_s", "first_in_process", "arrays",
                "npz_sha256", "format"):
        assert key in meta, key
    assert meta["experiment"] == "toy.figure1" and meta["function"] == FN_PATH
    assert meta["config"] == {"profile": "quick", "scale": 2.0, "grid": [1, 2]}
    assert meta["seed"] == 4 and meta["hash"] == s.hash
    assert meta["metadata"] == {"data_checksums": {"toy.csv": "sha256:" + "0" * 64},
                                "n": 5, "grid": [1, 2.5]}
    assert meta["data_checksums"] == {"toy.csv": "sha256:" + "0" * 64}
    assert meta["arrays"] == {"gram": {"shape": [64, 64], "dtype": "<f8"},
                              "idx": {"shape": [3], "dtype": "<i4"},
                              "x": {"shape": [5], "dtype": "<f8"}}
    assert meta["wall_time_s"] >= 0
    assert {"python", "numpy", "threadpoolctl"} <= set(meta["versions"])
    if meta["git_commit"] is not None:
        assert len(meta["git_commit"]) == 40 and isinstance(meta["git_dirty"], bool)
    assert text == json.dumps(meta, sort_keys=True, indent=2) + "\n"  # deterministic form


def test_invalid_arguments(tmp_path):
    with pytest.raises(ValueError, match=r"^jobs=0 is not admissible: an int >= 1"):
        run_all([spec(0)], jobs=0, results_root=tmp_path)
    with pytest.raises(ValueError, match=r"^jobs=2\.0 is not admissible"):
        run_all([spec(0)], jobs=2.0, results_root=tmp_path)
    with pytest.raises(ValueError, match=r"specs\[1\] of type dict is not admissible"):
        run_all([spec(0), {"seed": 1}], results_root=tmp_path)
    with pytest.raises(ValueError, match=r"scheduler=3 is not admissible"):
        run_all([spec(0)], scheduler=3, results_root=tmp_path)
    # (A run function named by a bad import path no longer exists: RunSpec refuses any string, see
    # test_spec_validation_and_pickling.) A module-level function without its Config annotation fails fast, in the
    # caller, with a one-line error, before any run of the batch is computed.
    for fn in (unannotated, annotated_with_a_dict):
        bad = RunSpec("toy.figure1", {}, 0, fn)
        with pytest.raises(ConfigError, match=rf"^run function {__name__}\.{fn.__name__} is not admissible: its first "
                                              r"parameter must be annotated with its Config dataclass") as info:
            run_all([spec(0), bad], results_root=tmp_path, progress=False)
        assert "\n" not in str(info.value) and load_cached(spec(0), tmp_path) is None
    # a stored config that its run function's Config does not take fails that run, naming the key
    with pytest.raises(RunFailed, match=r"config key 'typo' \(= 1\) is not admissible for ToyConfig"):
        run_all([RunSpec("toy.bad", {"scale": 1.0, "typo": 1}, 0, FN)], results_root=tmp_path, progress=False)
    for fn, message in [(returns_list, r"arrays returned by .*\['x'\] of type list"),
                        (returns_object_array, r"dtype object is not admissible"),
                        (returns_single, r"return value of .*\.returns_single of type ndarray")]:
        with pytest.raises(RunFailed, match=message):
            run_all([RunSpec("toy.bad", {}, 0, fn)], results_root=tmp_path,
                    progress=False)
    assert temp_files(tmp_path) == [] and not (tmp_path / "toy").exists()


def test_progress_bar_goes_to_stderr(tmp_path, capsys):
    run_all([spec(0), spec(1)], results_root=tmp_path, progress=True)
    run_all([spec(0), spec(1)], results_root=tmp_path, progress=True)
    captured = capsys.readouterr()
    assert captured.out == "" and "2/2" in captured.err


def test_status_finds_a_run_stale_when_only_the_run_it_needs_changed(tmp_path, monkeypatch):
    """The needed run's code changes: both it and the run that needs it are stale (not missing)."""
    from repro import status

    def dependent():                # built anew after the patch: a spec's hash is cached on the instance
        base = RunSpec("toy.figure1", {"scale": 1.0}, 0, FN)
        return RunSpec("toy.figure1", {"k": 1.0}, 0, plus_needed, needs={"base": base})

    run_all([dependent()], results_root=tmp_path, progress=False)
    assert {state for _, state, _ in status.classify([dependent()], tmp_path)} == {"cached"}
    real = runner.code_fingerprint
    # the runner fingerprints a run's code by its function_path
    monkeypatch.setattr(runner, "code_fingerprint", lambda path: real(path) + ("edited" if path == FN_PATH else ""))
    states = {spec.function_path: state for spec, state, _ in status.classify([dependent()], tmp_path)}
    assert states == {FN_PATH: "stale", f"{__name__}.plus_needed": "stale"}


def test_runs_that_unlock_others_start_first():
    """Critical-path order: a cheap run that a long one needs starts before an independent run that costs
    more than it alone, and without dependencies the order is longest first."""
    base = spec(0, scale=1.0)
    after = RunSpec("toy.figure1", {"k": 1.0}, 0, plus_needed, needs={"base": base})
    alone = spec(1, scale=3.0)
    cost = {base._canonical: 1.0, after._canonical: 10.0, alone._canonical: 5.0}
    order = runner._submission_order(runner._with_needs([alone, after]), lambda s: cost[s._canonical])
    assert [s._canonical for s in order] == [base._canonical, after._canonical, alone._canonical]
    cost[base._canonical] = 0.0
    cost[after._canonical] = 4.0
    order = runner._submission_order(runner._with_needs([alone, after]), lambda s: cost[s._canonical])
    assert [s._canonical for s in order] == [alone._canonical, base._canonical, after._canonical]


def test_pool_holds_no_more_runs_than_workers(tmp_path, monkeypatch):
    """The pool gets at most ``jobs`` runs at a time, so a run made ready late is chosen by priority, and the
    batch still computes every run once."""
    from repro import backends

    seen = []
    real_submit = backends._Pool.submit

    def submit(self, spec, inputs):
        seen.append(self.in_flight)
        real_submit(self, spec, inputs)
    monkeypatch.setattr(backends._Pool, "submit", submit)
    specs = [spec(seed) for seed in range(6)]
    results = run_all(specs, jobs=2, results_root=tmp_path, progress=False, estimate=lambda s: 1.0)
    assert len(results) == 6 and max(seen) <= 1 and len(seen) == 6
