"""The git checkout holding this code, as the provenance of runs and figures records it: its commit, and whether the
suite's *source* differs from that commit.

``dirty`` looks at :data:`SOURCE_PATHS` only: a modified tracked file there, or a new one that git does not ignore
(a new module under ``repro/papers`` changes what the registry runs). The artifacts that ``make reproduce`` writes into
the same checkout -- figures, reports, notebooks, the README's verdict section -- are outputs, not the code they were
computed with: counting them made every figure drawn after the first one of a rebuild "dirty", in a clean clone too.
Assumed: a checkout whose ``bounds``, ``repro`` and ``pyproject.toml`` match the commit runs the commit's code (the
data come from ``REPRO_DATA_DIR`` and are checksummed apart; papers found through ``REPRO_PAPERS_PATH`` outside the
checkout are not covered).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

__all__ = ["SOURCE_PATHS", "state"]

#: what the suite computes with, relative to the checkout's root
SOURCE_PATHS = ("bounds", "repro", "pyproject.toml")

_ROOT = Path(__file__).resolve().parents[1]


def _git(args: list[str]) -> str | None:
    try:
        proc = subprocess.run(["git", *args], cwd=_ROOT, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout if proc.returncode == 0 else None


def state() -> dict:
    """``{"commit": <git rev-parse HEAD>, "dirty": <the source paths differ from it>}`` (module docstring); both None
    outside a git checkout (or without git), ``dirty`` None when ``git status`` fails."""
    commit = _git(["rev-parse", "HEAD"])
    if not commit:
        return {"commit": None, "dirty": None}
    status = _git(["status", "--porcelain", "--untracked-files=normal", "--", *SOURCE_PATHS])
    return {"commit": commit.strip(), "dirty": None if status is None else bool(status.strip())}
