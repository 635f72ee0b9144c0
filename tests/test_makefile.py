"""The Makefile's stamps: a step's stamp carries the time the step started, so a source edited while the step ran
makes the next ``make reproduce`` rerun it. Exercised on a copy of the Makefile in a scratch tree whose "python" is a
script that edits a source in the middle of ``repro run all``; ``make -q`` says whether a target is up to date."""
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAST = time.time() - 3600

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="platform: needs GNU make")

FAKE_PYTHON = """#!/bin/sh
# stands in for .venv/bin/python: `-m repro run all ...` takes two seconds; EDIT=1 edits a source in between
if [ "$2" = repro ] && [ "$3" = run ]; then
    sleep 1.1
    if [ "$EDIT" = 1 ]; then touch repro/module.py; fi
    sleep 1.1
fi
exit 0
"""


def _tree(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    for name in ("bounds/__init__.py", "repro/module.py", "pyproject.toml", "notebooks/.keep"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
        os.utime(tmp_path / name, (PAST, PAST))
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    (tmp_path / ".venv" / ".installed").write_text("")
    return tmp_path


def _make(tree: Path, *args: str, edit: bool = False) -> int:
    env = os.environ | {"REPRO_RESULTS_DIR": str(tree / "results"), "EDIT": "1" if edit else "0"}
    (tree / "results").mkdir(exist_ok=True)
    return subprocess.run(["make", "--no-print-directory", *args], cwd=tree, env=env, capture_output=True,
                          text=True).returncode


def test_a_source_edited_while_the_runs_ran_reruns_them_next_time(tmp_path):
    tree = _tree(tmp_path)
    assert _make(tree, "results", edit=True) == 0
    assert _make(tree, "-q", "results") == 1                  # the edit is newer than the stamp: stale


def test_without_an_edit_the_results_are_up_to_date(tmp_path):
    tree = _tree(tmp_path)
    assert _make(tree, "-q", "results") == 1                  # no stamp yet
    assert _make(tree, "results") == 0
    assert _make(tree, "-q", "results") == 0
