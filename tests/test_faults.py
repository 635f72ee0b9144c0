"""The faults of issue 42 (item 5), each tried as a user would, through the command line: each ends in one line
``error: ...`` on stderr and exit status 2 (or, for SIGTERM and SIGHUP, the ``interrupted:`` line of Ctrl-C and
143 / 129), without a traceback, writing nothing on failure -- a broken paper package in ``REPRO_PAPERS_PATH`` (named
once and skipped), a site build with a broken link (the old site stays, byte for byte), an audit whose output is a
folder, an unwritable output, a full standard output, a cache entry nested too deeply to parse, a termination signal,
and a scheduler address where something else than dask answers or nothing answers at all."""
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.test_cli_errors import LONGER_FIGURE1, _cached, _one_line, cli
from tests.test_toy_paper import _write_toy

ROOT = Path(__file__).resolve().parents[1]


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones included) by relative path, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _broken_papers(folder: Path) -> None:
    """Two paper packages that do not import: one raises in its ``__init__``, one has a syntax error in ``paper``."""
    for name, init, paper in (("broken", 'raise RuntimeError("boom at import")\n', "PAPER = None\n"),
                              ("garbled", "", "def PAPER(:\n")):
        (folder / name).mkdir(parents=True)
        (folder / name / "__init__.py").write_text(init)
        (folder / name / "paper.py").write_text(paper)


def test_a_broken_paper_package_is_named_once_and_skipped(tmp_path):
    papers = tmp_path / "papers"
    _broken_papers(papers)
    env = _toy_env(tmp_path) | {"REPRO_PAPERS_PATH": os.pathsep.join([str(papers), str(tmp_path / "nowhere")])}
    listed = cli("list", cwd=tmp_path, env=env)
    assert listed.returncode == 0 and "fedsgm.figure1" in listed.stdout, listed.stderr
    lines = listed.stderr.strip().splitlines()
    assert len(lines) == 3 and "Traceback" not in listed.stderr, listed.stderr
    assert any("repro.papers.broken" in line and "RuntimeError: boom at import" in line for line in lines), lines
    assert any("repro.papers.garbled" in line and "SyntaxError" in line for line in lines), lines
    assert any("nowhere" in line and "not a folder" in line for line in lines), lines
    ran = cli("run", "toy.gd", "--jobs", "2", "--no-progress", cwd=tmp_path, env=env)   # a paper beside them
    assert ran.returncode == 0 and "toy.gd: 3 runs (3 computed" in ran.stdout, ran.stderr
    assert "Traceback" not in ran.stderr and len(ran.stderr.strip().splitlines()) <= 3, ran.stderr
    asked = cli("bounds", "garbled", cwd=tmp_path, env=env)               # the broken paper itself: its error
    assert asked.returncode == 2 and "Traceback" not in asked.stderr, asked.stderr
    last = asked.stderr.strip().splitlines()[-1]
    assert last.startswith("error: paper 'garbled' does not import (SyntaxError"), asked.stderr
    assert asked.stderr.count("garbled") == 1, asked.stderr                # said once: as the error, not also warned


@pytest.fixture
def mini_reports(tmp_path):
    """A two-page report (``reports/*.md``, no notebook) in ``tmp_path``, and an old site in ``tmp_path/site``."""
    (tmp_path / "reports").mkdir()
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "reports" / "audit.md").write_text("# Summary\n\nSee the [glossary](glossary.md).\n")
    (tmp_path / "reports" / "glossary.md").write_text("# Glossary\n\n## Words\n\nSome.\n")
    old = tmp_path / "site"
    (old / "notebooks").mkdir(parents=True)
    (old / "audit.html").write_text("<p>the old site</p>\n")
    (old / "notebooks" / "x.html").write_bytes(b"old notebook \x00\xff")
    return tmp_path


def test_a_site_with_a_broken_link_leaves_the_old_site_byte_identical(mini_reports):
    before = _files(mini_reports / "site")
    with open(mini_reports / "reports" / "audit.md", "a") as fh:
        fh.write("\nAnd a [page that is gone](gone.md).\n")
    line = _one_line(cli("html", "--output", "site", cwd=mini_reports))
    assert line.startswith("error: 1 broken links") and "gone.html" in line and "unchanged" in line, line
    assert _files(mini_reports / "site") == before
    assert sorted(p.name for p in mini_reports.iterdir()) == ["notebooks", "reports", "site"]   # no folder left aside


def test_a_good_site_is_swapped_in_whole(mini_reports):
    from repro.html import write_site
    entry = write_site(mini_reports / "site", mini_reports / "reports", mini_reports / "notebooks")
    assert entry == mini_reports / "site" / "audit.html" and "Summary" in entry.read_text()
    assert sorted(_files(mini_reports / "site")) == ["audit.html", "glossary.html", "search.js"]   # no old file
    assert sorted(p.name for p in mini_reports.iterdir()) == ["notebooks", "reports", "site"]


@pytest.mark.parametrize("output, words", [("/proc/site", "a directory this user can write to"),
                                           ("afile", "(it is a file)")])
def test_an_unusable_site_output_is_one_line(tmp_path, output, words):
    (tmp_path / "afile").write_text("not a folder")
    line = _one_line(cli("html", "--output", output, cwd=tmp_path))
    assert line.startswith("error: --output") and words in line, line


def test_a_full_standard_output_is_one_line(tmp_path):
    with open("/dev/full", "w") as full:
        out = subprocess.run([sys.executable, "-m", "repro", "list"], cwd=tmp_path, stdout=full,
                             stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    out.stdout = ""
    assert _one_line(out).startswith("error: cannot write the output: ")


def _toy_env(tmp_path: Path) -> dict:
    """The toy paper of ``test_toy_paper.py`` in ``tmp_path/papers``, and the environment that finds it."""
    _write_toy(tmp_path / "papers")
    return {"REPRO_PAPERS_PATH": str(tmp_path / "papers"), "REPRO_RESULTS_DIR": str(tmp_path / "res"),
            "REPRO_FIGURES_DIR": str(tmp_path / "figures")}


def test_an_audit_into_a_folder_is_refused_before_anything_is_written(tmp_path):
    env = _toy_env(tmp_path)
    pages = tmp_path / "pages"
    (pages / "audit.md").mkdir(parents=True)
    (pages / "toy.md").write_text("the old page\n")
    before = _files(pages)
    line = _one_line(cli("audit", "--paper", "toy", "--output", str(pages / "audit.md"), "--no-progress",
                         cwd=tmp_path, env=env))
    assert line.startswith("error: --output=") and "which is a folder" in line, line
    assert _files(pages) == before and _cached(tmp_path / "res") == []        # nothing computed, nothing written


def test_the_audit_pages_are_written_all_or_none(tmp_path):
    from repro.report import _write_all
    old = tmp_path / "a.md"
    old.write_bytes(b"old")
    with pytest.raises(OSError):
        _write_all({old: b"new", tmp_path / "missing" / "b.md": b"b"})      # the second cannot be staged
    assert _files(tmp_path) == {"a.md": b"old"}
    _write_all({old: b"new", tmp_path / "b.md": b"b"})
    assert _files(tmp_path) == {"a.md": b"new", "b.md": b"b"}


def test_a_cache_entry_nested_too_deeply_is_recomputed(tmp_path):
    env = _toy_env(tmp_path)
    assert cli("run", "toy.gd", "--no-progress", cwd=tmp_path, env=env).returncode == 0
    entry = sorted((tmp_path / "res" / "toy").glob("*.json"))[0]
    entry.write_text("[" * 10_000 + "]" * 10_000)
    out = cli("run", "toy.gd", "--no-progress", cwd=tmp_path, env=env)       # the cost model reads every entry too
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert "toy.gd: 3 runs (1 computed, 2 cached)" in out.stdout
    assert "nested too deeply" in out.stderr and isinstance(json.loads(entry.read_text()), dict)


@pytest.mark.parametrize("name, status", [("SIGTERM", 143), ("SIGHUP", 129)])
def test_sigterm_and_sighup_stop_like_ctrl_c(tmp_path, name, status):
    psutil = pytest.importorskip("psutil")
    root = tmp_path / "res"
    env = dict(os.environ, PYTHONPATH=str(ROOT), REPRO_RESULTS_DIR=str(root))
    # the signal back to its default in the child: a test run under `nohup` would hand it down ignored, and an
    # ignored SIGHUP stays ignored (as it should: the user asked for it)
    proc = subprocess.Popen([sys.executable, "-m", "repro", "run", *LONGER_FIGURE1, "--jobs", "2", "--no-progress"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(getattr(signal, name), signal.SIG_DFL))
    deadline = time.time() + 120
    while len(_cached(root)) < 3 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.02)
    assert proc.poll() is None, proc.communicate()
    workers = psutil.Process(proc.pid).children(recursive=True)
    os.killpg(proc.pid, getattr(signal, name))          # the whole group, as a closing terminal or `kill -- -pgid`
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == status, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("interrupted: ") and "rerun to resume" in lines[0], err
    assert not psutil.wait_procs(workers, timeout=15)[1]       # no worker (nor resource tracker) left behind
    assert 3 <= len(_cached(root)) < 24 and list(root.rglob("*.tmp")) == []


def _server(reply: bytes | None) -> tuple[str, socket.socket]:
    """A local TCP server that, to each connection, writes ``reply`` (None: accepts and stays silent)."""
    sock = socket.create_server(("127.0.0.1", 0))
    held = []

    def serve():
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            held.append(conn)
            if reply is not None:
                try:
                    conn.sendall(reply)
                except OSError:
                    pass
    threading.Thread(target=serve, daemon=True).start()
    return f"tcp://127.0.0.1:{sock.getsockname()[1]}", sock


@pytest.mark.parametrize("reply, words", [(b"HTTP/1.1 400 Bad Request\r\n\r\n" * 40, "is not a dask scheduler"),
                                          (None, "is not reachable: no dask scheduler answered within 2 s")])
def test_a_scheduler_address_where_dask_does_not_answer_is_one_line_in_15_s(tmp_path, reply, words):
    address, sock = _server(reply)
    try:
        start = time.perf_counter()
        out = cli("run", "fedsgm.figure1", "--scheduler", address, cwd=tmp_path,
                  env={"REPRO_RESULTS_DIR": str(tmp_path / "res")}, timeout=60)
        took = time.perf_counter() - start
    finally:
        sock.close()
    line = _one_line(out)
    assert line.startswith(f"error: scheduler='{address}' ") and words in line, line
    assert took <= 15, took
    assert _cached(tmp_path / "res") == []


# ---------------------------------------------------------------- issue 42 item 3: a dask cluster that loses a part

@pytest.fixture(scope="module")
def figure1_specs():
    """Figure 1 of FedSGM at the quick profile: 24 runs of ~0.1 s, the batch hit once 2 are stored."""
    from repro.registry import get
    return get("fedsgm.figure1").specs("quick")


@pytest.fixture(scope="module")
def uninterrupted(figure1_specs, tmp_path_factory):
    """The NPZ bytes of an uninterrupted run of :func:`figure1_specs`, by file name."""
    from repro.runner import run_all
    root = tmp_path_factory.mktemp("uninterrupted")
    run_all(figure1_specs, jobs=1, results_root=root, progress=False)
    return {p.name: p.read_bytes() for p in (root / "fedsgm").glob("*.npz")}


def _when_cached(root: Path, count: int, act) -> threading.Thread:
    """A thread that calls ``act()`` once ``count`` runs are stored under ``root``."""
    def wait():
        while len(_cached(root)) < count:
            time.sleep(0.01)
        act()
    thread = threading.Thread(target=wait, daemon=True)
    thread.start()
    return thread


def _rerun_matches(specs, root: Path, reference: dict) -> int:
    """Rerun ``specs`` into ``root`` (this process); every result present and byte-identical to ``reference``.
    Returns how many the rerun computed."""
    from repro.runner import run_all
    results = run_all(specs, jobs=1, results_root=root, progress=False)
    assert len(results) == 24 and {p.name: p.read_bytes() for p in (root / "fedsgm").glob("*.npz")} == reference
    return sum(not r.cached for r in results)


def _local_cluster(monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0")   # any free port


def test_a_dask_worker_killed_mid_batch_loses_no_result(tmp_path, figure1_specs, uninterrupted, monkeypatch):
    from distributed import Client
    from repro.runner import run_all
    root = tmp_path / "res"
    with _local_cluster(monkeypatch) as cluster:
        with Client(cluster, set_as_default=False) as client:
            victim = list(client.run(os.getpid).values())[0]
        killer = _when_cached(root, 2, lambda: os.kill(victim, signal.SIGKILL))
        run_all(figure1_specs, scheduler=cluster.scheduler_address, results_root=root, progress=False)
        killer.join(timeout=10)
    assert not killer.is_alive()
    with pytest.raises(ProcessLookupError):
        os.kill(victim, 0)                                 # it was killed while the batch ran
    assert _rerun_matches(figure1_specs, root, uninterrupted) == 0      # the scheduler ran its tasks elsewhere


def test_a_dask_scheduler_killed_mid_batch_is_one_error_and_a_rerun_resumes(tmp_path, figure1_specs, uninterrupted,
                                                                            monkeypatch):
    from repro.errors import ReproError
    from repro.runner import run_all
    root = tmp_path / "res"
    monkeypatch.setenv("REPRO_DASK_TIMEOUT", "2")           # how long the client tries to reconnect
    cluster = _local_cluster(monkeypatch)
    try:
        _when_cached(root, 2, lambda: cluster.sync(cluster.scheduler.close))
        with pytest.raises(ReproError, match="the dask scheduler stopped serving this batch .* rerun to resume"):
            run_all(figure1_specs, scheduler=cluster.scheduler_address, results_root=root, progress=False)
    finally:
        with contextlib.suppress(Exception):             # its scheduler is gone: closing the rest may time out
            cluster.close(timeout=2)
    done = len(_cached(root))
    assert 2 <= done < 24 and list(root.rglob("*.tmp")) == []
    assert _rerun_matches(figure1_specs, root, uninterrupted) == 24 - done


def test_a_result_lost_with_the_connection_is_the_scheduler_error_not_a_run_failure():
    """A killed scheduler surfaces, depending on timing, as a cancelled task or as the connection closing while a
    result is fetched (seen under load: CommClosedError from ``future.result()``). Both are the one-line scheduler
    error, never a failure of the run whose result was being fetched."""
    from types import SimpleNamespace

    from distributed.comm.core import CommClosedError

    from repro.backends import _Dask
    from repro.errors import ReproError

    class Lost:
        key = "k"

        def result(self):
            raise CommClosedError("in <TCP (closed) ConnectionPool.gather>: Stream is closed")

    backend = _Dask.__new__(_Dask)
    backend.futures, backend.stream = {"k": "spec"}, SimpleNamespace(next_batch=lambda block: [Lost()])
    with pytest.raises(ReproError, match="the dask scheduler stopped serving this batch .* rerun to resume"):
        backend.completed()
