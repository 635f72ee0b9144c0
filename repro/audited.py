"""A paper's verdicts and findings on given results, computed once per code and results.

The audit (``python -m repro audit``) and each paper's notebook show the same verdicts and findings of the same
results; computing them is most of either's time (the findings' symbolic work above all). The audit records what it
computed in ``<results>/audited/<paper>-<key>.pkl``; a notebook executed afterwards reads the record instead of
computing it again. The key (:func:`record_key`) is a SHA-256 over everything the objects depend on:

* the results: every run's cache key, its provenance and the bytes, dtype and shape of each of its arrays;
* the code: the bytes of every source file of ``bounds`` and ``repro`` (the files ``make`` watches, comments and
  docstrings included: a finding's text may quote one);
* the numerical libraries' versions (:func:`repro.fingerprint.library_versions`).

A record whose key differs from the one computed now is never read (its name differs), so what is shown is what the
present code decides on the present results; a record that does not load (another Python, a damaged file) is
computed again. Findings carry their gates (:class:`bounds.audit.Gate`), pickled by their producer's name with the
arguments they were called with: ``finding.gate()`` re-runs the computation after a read as it would have before.
The records are pickled with cloudpickle (a dependency of dask), which also pickles the lambdas some findings hold
(the readers of a fact stated in two places); they are written atomically and only ever read by this module, from
the results folder the suite itself writes.
"""
from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

import numpy as np

from . import registry, runner
from .fingerprint import library_versions
from .io import atomic_write_bytes, canonical_json

#: the folder of the records, inside the results root
FOLDER = "audited"
#: the source trees whose files are part of every key (the Makefile's SOURCES)
SOURCE_TREES = ("bounds", "repro")


def _source_digest(root: Path) -> str:
    """SHA-256 over the path and bytes of every ``*.py`` and ``*.json`` file of :data:`SOURCE_TREES` (the measured
    run costs excepted: they only price runs)."""
    digest = hashlib.sha256()
    for tree in SOURCE_TREES:
        files = sorted(p for ext in ("*.py", "*.json") for p in (root / tree).rglob(ext)
                       if p.name != "measured_costs.json")
        for path in files:
            digest.update(f"{path.relative_to(root)}\0".encode() + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _results_digest(results: dict) -> str:
    """SHA-256 over every result of ``results`` (``{experiment: results}``): cache key, provenance, arrays."""
    digest = hashlib.sha256()
    for name in sorted(results):
        for r in results[name]:
            digest.update(f"{name}\0{r.hash}\0{canonical_json(r.meta)}\0".encode())
            for key in sorted(r.arrays):
                array = np.ascontiguousarray(r.arrays[key])
                digest.update(f"{key}\0{array.dtype.str}\0{array.shape}\0".encode() + array.tobytes())
    return digest.hexdigest()


def record_key(results: dict, root: Path | None = None) -> str:
    """The key of a record of the verdicts and findings on ``results`` under the code in ``root`` (default: the
    folder holding the imported ``repro`` package): 16 hex digits."""
    root = Path(__file__).resolve().parent.parent if root is None else root
    parts = (_source_digest(root), _results_digest(results), canonical_json(library_versions()))
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def record_path(paper: str, results: dict) -> Path:
    return runner.resolve_results_root() / FOLDER / f"{paper}-{record_key(results)}.pkl"


def paper_verdicts(paper: str, results: dict) -> list:
    """The verdict of every claim of ``paper`` (its audit module's ``verdicts``), one per encoded claim."""
    record = registry.paper(paper)
    verdicts = record.audit().verdicts(results)
    claims = [c.id for c in record.claims] + [s.id for s in record.statements()]
    got = [v.claim for v in verdicts]
    if sorted(got) != sorted(claims):
        missing, extra = sorted(set(claims) - set(got)), sorted(set(got) - set(claims))
        raise ValueError(f"verdicts of {paper} do not cover its claims once each: missing {missing}, extra {extra}")
    return verdicts


def compute(paper: str, results: dict) -> tuple[list, list]:
    """``(verdicts, findings)`` of ``paper`` on ``results``, computed (one verdict per claim and statement:
    :func:`paper_verdicts`)."""
    return paper_verdicts(paper, results), registry.paper(paper).findings(results)


def record(paper: str, results: dict) -> tuple[list, list]:
    """Compute ``(verdicts, findings)`` and write their record, replacing the paper's older records."""
    import cloudpickle
    verdicts, findings = compute(paper, results)
    path = record_path(paper, results)
    for old in path.parent.glob(f"{paper}-*.pkl"):
        old.unlink(missing_ok=True)
    atomic_write_bytes(path, cloudpickle.dumps((verdicts, findings), protocol=pickle.HIGHEST_PROTOCOL))
    return verdicts, findings


def read(paper: str, results: dict) -> tuple[list, list]:
    """``(verdicts, findings)`` from the record of these results under this code, else computed."""
    path = record_path(paper, results)
    if path.is_file():
        try:
            return pickle.loads(path.read_bytes())
        except Exception:       # another Python or library, a damaged file: not a reason to stop, only to compute
            pass
    return compute(paper, results)
