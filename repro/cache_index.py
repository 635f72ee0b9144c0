"""Read the provenance JSON of every cache entry under a results folder (without loading any array).

Used by ``python -m repro status`` (which entries are stale, and why) and by the cost model (measured wall
times). An unreadable or foreign JSON file is skipped: the runner, not the index, decides whether an entry
is valid.
"""
from __future__ import annotations

import json
from pathlib import Path

from .runner import payload_key


def entries(root: Path, papers) -> list[dict]:
    """The metadata of every ``<root>/<paper>/*.json`` for the given papers, each with ``"_path"`` and
    ``"_payload_key"`` (what the run was asked to compute, independent of code and library versions)."""
    out = []
    for paper in sorted(set(papers)):
        directory = root / paper
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.json")):
            try:
                meta = json.loads(path.read_text(encoding="utf-8"))
                key = meta.get("payload_key") or payload_key(meta["experiment"], meta["function"], meta["config"],
                                                            meta["seed"], meta.get("needs"))
            except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):   # too deep: foreign
                continue
            out.append(meta | {"_path": path, "_payload_key": key})
    return out
