"""``python -m repro status``: for every run of every experiment, whether the cache holds it, and why not.

A run is

* **cached** when its cache entry (named by the run's full key: config, code and library versions) exists and
  is valid (the same check as the runner's: JSON, NPZ checksum, arrays);
* **stale** when there is no such entry but the cache holds the same run (same experiment, function,
  config, seed and needed runs) computed by other code or other library versions; the reason lists the
  source files whose content changed since (or appeared or disappeared from what the run executes), the
  library versions that differ, or the older cache format;
* **missing** otherwise.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from . import cache_index, runner
from .fingerprint import _package_dirs, code_files, library_versions


def _source_path(module: str) -> str:
    """A module name as the path of its source file relative to the project (``repro/plotting.py``)."""
    top, _, rest = module.partition(".")
    bases = _package_dirs().get(top)
    for base in (bases,) if isinstance(bases, Path) else bases or ():      # ``bounds`` may span several folders
        candidate = base.joinpath(*rest.split(".")) if rest else base
        path = candidate.with_suffix(".py") if candidate.with_suffix(".py").is_file() else candidate / "__init__.py"
        if path.is_file():
            return str(path.relative_to(base.parent))
    return module


def _why_stale(spec: runner.RunSpec, meta: dict) -> list[str]:
    reasons = []
    if meta.get("format") != runner.CACHE_FORMAT:
        reasons.append(f"cache format {meta.get('format')} (now {runner.CACHE_FORMAT})")
    stored_files = meta.get("code_files")
    if isinstance(stored_files, dict):
        now = code_files(spec.function_path)
        changed = sorted(m for m in set(now) | set(stored_files) if now.get(m) != stored_files.get(m))
        reasons += [_source_path(m) for m in changed]
    stored_versions = meta.get("library_versions")
    if isinstance(stored_versions, dict):
        now = library_versions()
        reasons += [f"{lib} {stored_versions.get(lib)} -> {now.get(lib)}" for lib in sorted(set(now) | set(stored_versions))
                    if now.get(lib) != stored_versions.get(lib)]
    return reasons or ["other code"]


def classify(specs, root: Path) -> list[tuple[runner.RunSpec, str, list[str]]]:
    """``(spec, "cached" | "stale" | "missing", reasons)`` for every spec and every run it needs."""
    everything = runner._with_needs(list(specs))
    index: dict[str, list[dict]] = {}
    for meta in cache_index.entries(root, {s.paper for s in everything}):
        index.setdefault(meta["_payload_key"], []).append(meta)
    rows = []
    for spec in everything:
        if runner.load_cached(spec, root) is not None:
            rows.append((spec, "cached", []))
            continue
        older = [m for m in index.get(runner.spec_payload_key(spec), []) if m.get("hash") != spec.hash]
        if older:
            newest = max(older, key=lambda m: m["_path"].stat().st_mtime)
            rows.append((spec, "stale", _why_stale(spec, newest)))
        else:
            rows.append((spec, "missing", []))
    return rows


def report(plan: dict[str, list], root: Path, verbose: bool = False) -> str:
    """One line per experiment (counts, and for stale runs the files or versions that made them stale);
    with ``verbose``, one line per run that is not cached."""
    lines = []
    for name, specs in plan.items():
        rows = [r for r in classify(specs, root)]
        counts = Counter(state for _, state, _ in rows)
        causes = Counter(reason for _, state, reasons in rows if state == "stale" for reason in reasons)
        text = ", ".join(f"{counts[s]} {s}" for s in ("cached", "stale", "missing") if counts[s])
        line = f"{name:24s} {len(rows):5d} runs: {text}"
        if causes:
            line += "; stale because of: " + ", ".join(f"{c} ({n})" for c, n in causes.most_common())
        lines.append(line)
        if verbose:
            lines += [f"    {state:7s} {runner.run_label(spec, specs)}" + (f": {', '.join(reasons)}" if reasons else "")
                      for spec, state, reasons in rows if state != "cached"]
    return "\n".join(lines)
