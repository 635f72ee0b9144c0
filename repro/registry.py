"""Which papers the suite covers, found by discovery: every package under :mod:`repro.papers` (including those
in the directories of ``REPRO_PAPERS_PATH``) that has an ``experiments`` module is a paper. Nothing lists them
by hand, so adding a paper touches no shared file.

What a paper package ``repro.papers.<key>`` provides to the shared layers (``docs/architecture.md``):

* ``experiments``: ``TITLE`` (one line), ``ORDER`` (position in listings and in the audit; the built-in papers
  are ordered as the suite added them), ``CLAIMS`` (its encoded claims, :class:`bounds.core.Claim`) and
  ``EXPERIMENTS`` (:class:`repro.experiment.Experiment`, names ``"<key>.<name>"``);
* ``audit``: ``AUDIT_EXPERIMENTS`` (the experiments whose results it reads), ``verdicts(results)`` (one
  :class:`repro.verdicts.ClaimVerdict` per claim, rolled up from all of its evidence) and
  ``audit_section(results, profile, verdicts) -> str``.

This module is imported by no run module, so it is part of no run's code fingerprint
(:func:`repro.runner.code_fingerprint`).
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil
from types import ModuleType

from .errors import ConfigError
from .experiment import Experiment

PACKAGE = "repro.papers"


@functools.lru_cache(maxsize=1)
def _keys() -> frozenset[str]:
    """The discovered paper keys, without importing any paper."""
    root = importlib.import_module(PACKAGE)
    return frozenset(info.name for info in pkgutil.iter_modules(root.__path__) if info.ispkg
                     and importlib.util.find_spec(f"{PACKAGE}.{info.name}.experiments") is not None)


@functools.lru_cache(maxsize=1)
def papers() -> tuple[str, ...]:
    """The keys of every discovered paper, by ``ORDER`` and then key (imports every paper's experiments)."""
    return tuple(sorted(_keys(), key=lambda key: (getattr(part(key, "experiments"), "ORDER", 1000), key)))


def part(paper: str, name: str) -> ModuleType:
    """Module ``name`` (``experiments``, ``audit``) of the paper package ``paper``."""
    return importlib.import_module(f"{PACKAGE}.{paper}.{name}")


def optional_module(name: str) -> ModuleType | None:
    """Module ``name``, or None when it does not exist (an error inside an existing module is raised)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


def check_paper(paper: str) -> str:
    if paper not in _keys():
        raise ConfigError(f"paper={paper!r} is not admissible: one of {', '.join(papers())}")
    return paper


def _experiments(paper: str) -> dict[str, Experiment]:
    return {exp.name: exp for exp in part(paper, "experiments").EXPERIMENTS}


def registry() -> dict[str, Experiment]:
    """All experiments of all papers, by name, in paper order."""
    out: dict[str, Experiment] = {}
    for paper in papers():
        out |= _experiments(paper)
    return out


def get(name: str) -> Experiment:
    """The experiment called ``name`` (only its paper's package is imported); an unknown name raises a one-line
    ``ConfigError`` listing them all."""
    paper = name.split(".")[0] if isinstance(name, str) else None
    if paper in _keys():
        found = _experiments(paper).get(name)
        if found is not None:
            return found
    raise ConfigError(f"experiment={name!r} is not admissible: one of {', '.join(registry())} "
                      "(see `python -m repro list`)")
