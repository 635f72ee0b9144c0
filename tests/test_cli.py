"""The command line: listing, bounds, and one-line errors with a nonzero exit that write nothing."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def cli(*args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "repro", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def test_list_and_bounds(tmp_path, repro_main):
    """In this process: ``list`` from a fresh interpreter is :func:`test_a_reader_that_stops_early_gets_no_traceback`."""
    out = repro_main("list", cwd=tmp_path)
    assert out.returncode == 0 and "fedsgm.figure1" in out.stdout
    out = repro_main("bounds", "fedsgm", "--latex", cwd=tmp_path)
    assert out.returncode == 0 and "fedsgm.thm1" in out.stdout and "\\epsilon" in out.stdout


@pytest.mark.parametrize("args, words", [
    (("run", "fedsgm.nosuch"), ["experiment='fedsgm.nosuch'", "fedsgm.figure1"]),
    (("run", "fedsgm.figure1", "--profile", "huge"), ["profile='huge'", "quick"]),
    (("run", "fedsgm.figure1", "--set", "eta=-0.1"), ["eta=-0.1", "> 0"]),
    (("run", "fedsgm.figure1", "--set", "K=40"), ["K=40", "d = 31"]),
    (("run", "fedsgm.figure1", "--set", "E=0"), ["E=0", ">= 1"]),
    (("run", "fedsgm.figure1", "--set", "nosuchkey=1"), ["nosuchkey", "known keys"]),
    (("bounds", "nosuchpaper"), ["paper='nosuchpaper'"]),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, words, repro_main):
    out = repro_main(*args, "--jobs", "1", cwd=tmp_path) if args[0] == "run" else repro_main(*args, cwd=tmp_path)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    assert not any(p for p in Path(os.environ["REPRO_RESULTS_DIR"]).rglob("*") if p.is_file())
    assert not (tmp_path / "results").exists() and not (tmp_path / "figures").exists()


def test_run_writes_results_with_provenance_and_second_run_is_cached(tmp_path, repro_main):
    """The first run from a fresh interpreter with the pool; the second, which only reads the cache, in this process."""
    out = cli("run", "fedsgm.figure1", "--jobs", "2", "--no-progress", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "24 computed" in out.stdout
    files = list(Path(os.environ["REPRO_RESULTS_DIR"]).glob("fedsgm/*.json"))
    assert len(files) == 24
    out = repro_main("run", "fedsgm.figure1", "--no-progress", cwd=tmp_path)
    assert out.returncode == 0 and "0 computed, 24 cached" in out.stdout, out.stderr


def test_a_reader_that_stops_early_gets_no_traceback():
    """`python -m repro list | head -1`: the closed pipe ends the command quietly (status 141, nothing on stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "repro", "list"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()                      # before the command writes (it flushes its buffered output at the end)
    stderr = proc.stderr.read()
    assert proc.wait(timeout=120) in (0, 141) and "Traceback" not in stderr, stderr


def test_split_stream_outputs_are_merged_so_notebooks_are_deterministic():
    from repro.notebooks import _merge_streams
    outs = [{"output_type": "stream", "name": "stdout", "text": "dist:"},
            {"output_type": "stream", "name": "stdout", "text": [" [0. 0.]\n"]},
            {"output_type": "stream", "name": "stderr", "text": "warn\n"},
            {"output_type": "display_data", "data": {}}, {"output_type": "stream", "name": "stdout", "text": "x"}]
    merged = _merge_streams(outs)
    assert [o.get("text") for o in merged] == ["dist: [0. 0.]\n", "warn\n", None, "x"]
