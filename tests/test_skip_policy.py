"""`make test` fails on a skip that names no platform condition (tests/conftest.py): a test that cannot run on a clean
clone must say which platform condition stops it, and any other skip (no cached results, say) fails the session."""
import shutil
import subprocess
import sys
from pathlib import Path

CONFTEST = Path(__file__).with_name("conftest.py")


def _session(tmp_path, reason: str) -> subprocess.CompletedProcess:
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "test_one.py").write_text(f"import pytest\n\ndef test_it():\n    pytest.skip({reason!r})\n")
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           str(tmp_path)], capture_output=True, text=True, cwd=tmp_path)


def test_a_skip_without_a_platform_condition_fails_the_session(tmp_path):
    out = _session(tmp_path, "the results cache lacks quick runs")
    assert out.returncode == 1, out.stdout
    assert "test_one.py::test_it: the results cache lacks quick runs" in out.stdout


def test_a_platform_skip_passes(tmp_path):
    out = _session(tmp_path, "platform: needs GNU make")
    assert out.returncode == 0, out.stdout
