"""Every way a long run can go wrong ends in one line on stderr, the documented exit status, and nothing cached
from the failed run: bad --set values, a divergent run, an unusable results folder, a bad or unreachable dask
scheduler, bad profiles and experiment names, Ctrl-C, orphan temporary files."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def cli(*args, cwd, env=None, timeout=300):
    full = dict(os.environ, PYTHONPATH=str(ROOT), REPRO_DASK_TIMEOUT="2") | (env or {})
    return subprocess.run([sys.executable, "-m", "repro", *args], cwd=cwd, env=full, capture_output=True, text=True,
                          timeout=timeout)


def _one_line(out, status=2) -> str:
    lines = out.stderr.strip().splitlines()
    assert out.returncode == status, (out.returncode, out.stderr[-2000:])
    assert len(lines) == 1, out.stderr
    assert "Traceback" not in out.stderr
    return lines[0]


def _cached(root: Path) -> list[Path]:
    return sorted(root.rglob("*.json")) if root.exists() else []


@pytest.mark.parametrize("args, words", [
    (("run", "pcfedavg.comparison", "--set", "gamma=abc"), ['gamma="abc"', "a number"]),
    (("run", "fedsgm.figure1", "--set", "level=abc"), ['level="abc"', "a number"]),
    (("run", "fedsgm.figure1", "--set", "scaling=bogus"), ["scaling='bogus'", "'standard-full'"]),
    (("run", "fedsgm.figure1", "--set", "w0=bogus"), ["w0='bogus'", "'zeros'"]),
    (("run", "fedsgm.figure1", "--set", "T=NaN"), ["T=NaN", "finite"]),
    (("run", "fedsgm.figure1", "--set", "K=2.5"), ["K=2.5", "an integer"]),
    (("run", "pcfedavg.theory", "--set", "gamma_frac=1e6"), ["gamma_frac=1000000.0", "(0, 1]"]),
    (("run", "ssca.figure2", "--set", "dtype=float16"), ["dtype='float16'", "'float32'"]),
    (("run", "fedclup.figure4", "--set", "lam=abc"), ['lam="abc"']),
    (("run", "fedsgm.figure1", "--jobs", "0"), ["--jobs=0", "between 1 and"]),
    (("status", "--profile", "huge"), ["profile='huge'", "quick, paper"]),
    (("status", "fedsgm.nosuch"), ["experiment='fedsgm.nosuch'", "fedsgm.figure1"]),
    (("plan", "--profile", "huge"), ["profile='huge'", "quick, paper"]),
    (("plan", "nosuch"), ["experiment='nosuch'"]),
])
def test_bad_input_is_one_line_exit_2_and_caches_nothing(tmp_path, args, words, repro_main):
    root = tmp_path / "res"
    out = repro_main(*args, cwd=tmp_path, env={"REPRO_RESULTS_DIR": str(root)})
    line = _one_line(out)
    assert line.startswith("error: "), line
    for w in words:
        assert w in line, (w, line)
    assert _cached(root) == []


@pytest.mark.parametrize("args", [("run", "pcfedavg.comparison", "--set", "gamma=abc"), ("plan", "nosuch"),
                                  ("run", "fedsgm.figure1", "--scheduler", "tcp://127.0.0.1:1")])
def test_bad_input_from_a_fresh_interpreter_is_one_line_too(tmp_path, args):
    """Two of the cases above and a closed scheduler port (below) through ``python -m repro``: nothing printed at
    import, nor by dask's client at exit, adds a line."""
    root = tmp_path / "res"
    assert _one_line(cli(*args, cwd=tmp_path, env={"REPRO_RESULTS_DIR": str(root)})).startswith("error: ")
    assert _cached(root) == []


def test_a_divergent_run_names_the_run_and_the_step_size_and_caches_nothing(tmp_path):
    root = tmp_path / "res"
    out = cli("run", "fedsgm.figure1", "--set", "eta=1e300", "--jobs", "1", "--no-progress", cwd=tmp_path,
              env={"REPRO_RESULTS_DIR": str(root)})
    line = _one_line(out)
    for w in ("fedsgm.figure1 run (", "seed 0", "diverged", "eta=1e+300", "nothing was cached"):
        assert w in line, (w, line)
    assert _cached(root) == []


@pytest.mark.parametrize("kind", ["file", "read_only"])
def test_an_unusable_results_folder_is_refused_before_any_work(tmp_path, kind, repro_main):
    if kind == "file":
        root = tmp_path / "results_file"
        root.write_text("not a folder")
        expect = "(it is a file)"
    else:
        root = tmp_path / "ro"
        root.mkdir()
        root.chmod(0o555)
        probe = root / "probe"
        try:
            probe.write_text("x")
            probe.unlink()
            root = Path("/proc")          # root ignores permission bits: use a folder nobody can write to
        except OSError:
            pass
        expect = "a directory this user can write to"
    start = time.perf_counter()
    out = repro_main("run", "fedsgm.figure1", "--jobs", "1", cwd=tmp_path, env={"REPRO_RESULTS_DIR": str(root)})
    line = _one_line(out)
    assert line.startswith("error: REPRO_RESULTS_DIR=") and expect in line, line
    assert time.perf_counter() - start < 60


@pytest.mark.parametrize("address, words", [
    ("foo", ["scheduler='foo' is not admissible", "tcp://127.0.0.1:8786"]),
    ("tcp://127.0.0.1:99999", ["is not admissible", "port 1-65535"]),
    ("tcp://127.0.0.1:1", ["scheduler='tcp://127.0.0.1:1' is not reachable", "within 2 s"]),
])
def test_a_bad_or_unreachable_scheduler_is_one_line(tmp_path, address, words, repro_main):
    start = time.perf_counter()
    out = repro_main("run", "fedsgm.figure1", "--scheduler", address, cwd=tmp_path,
                     env={"REPRO_RESULTS_DIR": str(tmp_path / "res"), "REPRO_DASK_TIMEOUT": "2"})
    line = _one_line(out)
    for w in words:
        assert w in line, (w, line)
    assert time.perf_counter() - start < 60
    assert _cached(tmp_path / "res") == []


#: Figure 1 with twice its rounds (~0.2 s a run instead of ~0.1 s): an interrupt sent once 3 of its 24 runs are stored
#: lands while 21 runs are still to compute, also on a fast machine (with T = 100 the experiment takes ~2 s)
LONGER_FIGURE1 = ("fedsgm.figure1", "--set", "T=200")


def test_ctrl_c_stops_cleanly_keeps_finished_runs_and_a_rerun_resumes(tmp_path, repro_main):
    root = tmp_path / "res"
    env = dict(os.environ, PYTHONPATH=str(ROOT), REPRO_RESULTS_DIR=str(root))
    # SIGINT back to its default in the child, as in a terminal: a background job of a non-interactive shell (a
    # CI script, `cmd &`) inherits SIGINT ignored, and Python then leaves Ctrl-C ignored
    proc = subprocess.Popen([sys.executable, "-m", "repro", "run", *LONGER_FIGURE1, "--jobs", "2", "--no-progress"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 120
    while len(_cached(root)) < 3 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.02)
    assert proc.poll() is None, proc.communicate()
    os.killpg(proc.pid, signal.SIGINT)                     # the whole process group, as a terminal's Ctrl-C does
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("interrupted: ") and "rerun to resume" in lines[0], err
    assert "Traceback" not in err
    done = len(_cached(root))
    assert 3 <= done < 24
    assert [p for p in root.rglob("*.tmp")] == []
    out = repro_main("run", *LONGER_FIGURE1, "--jobs", "1", "--no-progress", cwd=tmp_path,
                     env={"REPRO_RESULTS_DIR": str(root)})
    assert out.returncode == 0, out.stderr
    computed = int(out.stdout.split("(")[1].split(" computed")[0])
    assert computed == 24 - done and len(_cached(root)) == 24


def test_orphan_temporaries_of_dead_writers_are_removed(tmp_path, repro_main):
    """The command runs in this process; the live writer is another process (this one's parent)."""
    root = tmp_path / "res"
    (root / "fedsgm").mkdir(parents=True)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    orphan = root / "fedsgm" / f".abc.npz.{int(dead.stdout)}.xyz.tmp"
    live = root / "fedsgm" / f".def.npz.{os.getppid()}.xyz.tmp"
    orphan.write_bytes(b"partial")
    live.write_bytes(b"being written")
    out = repro_main("run", "fedsgm.adversarial", "--no-progress", "--set", "budget=2", cwd=tmp_path,
                     env={"REPRO_RESULTS_DIR": str(root)})
    assert out.returncode == 0, out.stderr
    assert not orphan.exists() and live.exists()


def test_status_reports_cached_stale_and_missing_runs(tmp_path, repro_main):
    root = tmp_path / "res"
    env = {"REPRO_RESULTS_DIR": str(root)}
    out = repro_main("status", "fedsgm.figure1", "fedsgm.adversarial", cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr
    assert "fedsgm.figure1" in out.stdout and "24 missing" in out.stdout
    assert repro_main("run", "fedsgm.figure1", "--jobs", "1", "--no-progress", cwd=tmp_path, env=env).returncode == 0
    # an entry computed by other code: same run, other code fingerprint and one source file's hash
    entry = sorted((root / "fedsgm").glob("*.json"))[0]
    meta = json.loads(entry.read_text())
    meta["hash"] = "0" * 16
    meta["code_files"]["repro.papers.fedsgm.algorithms.fedsgm"] = "f" * 16
    (root / "fedsgm" / ("0" * 16 + ".json")).write_text(json.dumps(meta))
    entry.unlink()
    out = repro_main("status", "fedsgm.figure1", "--verbose", cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr
    assert "23 cached, 1 stale" in out.stdout and "repro/papers/fedsgm/algorithms/fedsgm.py" in out.stdout, out.stdout


def test_kill_9_leaves_no_worker_and_a_rerun_is_byte_identical(tmp_path, repro_main):
    """The entries the killed process wrote, and those the rerun adds, are byte-identical to the same runs computed
    uninterrupted (the reference computes only the former: the latter are an ordinary run). The rerun runs in this
    process, on one job as in the Ctrl-C test (the runs' bytes do not depend on the jobs: benchmarks/bench_runner.py)."""
    from repro.cli import _plan
    from repro.runner import run_all
    psutil = pytest.importorskip("psutil")
    root, fresh = tmp_path / "res", tmp_path / "fresh"
    env = dict(os.environ, PYTHONPATH=str(ROOT), REPRO_RESULTS_DIR=str(root))
    proc = subprocess.Popen([sys.executable, "-m", "repro", "run", *LONGER_FIGURE1, "--jobs", "2", "--no-progress"],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while len(_cached(root)) < 3 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.02)
    workers = psutil.Process(proc.pid).children(recursive=True)
    assert workers, "the pool's workers are running"
    proc.kill()
    proc.wait()
    gone, alive = psutil.wait_procs(workers, timeout=15)
    assert not alive, alive
    written = {p.stem for p in (root / "fedsgm").glob("*.npz")}
    assert repro_main("run", *LONGER_FIGURE1, "--jobs", "1", "--no-progress", cwd=tmp_path,
                      env={"REPRO_RESULTS_DIR": str(root)}).returncode == 0
    specs = _plan(["fedsgm.figure1"], "quick", {"T": 200})["fedsgm.figure1"]
    assert {s.hash for s in specs} >= written and len(written) >= 3
    run_all([s for s in specs if s.hash in written] + [specs[-1]], jobs=1, results_root=fresh, progress=False)
    resumed = sorted((root / "fedsgm").glob("*.npz"))
    assert len(resumed) == 24
    for path in [p for p in resumed if (fresh / "fedsgm" / p.name).exists()]:
        assert path.read_bytes() == (fresh / "fedsgm" / path.name).read_bytes(), path.name
