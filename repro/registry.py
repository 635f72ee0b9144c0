"""Which papers the suite covers, found by discovery: every package under :mod:`repro.papers` (including those
in the directories of ``REPRO_PAPERS_PATH``) that has a ``paper`` module is a paper, and that module's ``PAPER``
(:class:`repro.paper.Paper`) is everything the shared layers read from it. Nothing lists the papers by hand, and no
module of a paper is named by a formatted string: a package found by :mod:`pkgutil` is imported by the name it
was found under, so adding a paper touches no shared file.

This module is imported by no run module, so it is part of no run's code fingerprint
(:func:`repro.fingerprint.code_fingerprint`).
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil

from .errors import ConfigError
from .experiment import Experiment
from .paper import Paper


@functools.lru_cache(maxsize=1)
def _packages() -> dict[str, str]:
    """paper key -> the name its package was found under, for every package with a ``paper`` module (nothing of a
    paper is imported)."""
    root = importlib.import_module("repro.papers")
    found = {}
    for info in pkgutil.iter_modules(root.__path__, root.__name__ + "."):
        if info.ispkg and importlib.util.find_spec(".paper", info.name) is not None:
            found[info.name.rpartition(".")[2]] = info.name
    return found


def paper(key: str) -> Paper:
    """The interface of the paper ``key`` (a one-line ConfigError naming the known keys when there is none)."""
    record = importlib.import_module(".paper", _packages()[check_paper(key)]).PAPER
    if not isinstance(record, Paper) or record.key != key:
        raise ConfigError(f"PAPER of paper {key!r} is not admissible: a repro.paper.Paper with key {key!r}")
    return record


@functools.lru_cache(maxsize=1)
def papers() -> tuple[str, ...]:
    """The keys of every discovered paper, by ``order`` and then key (imports every paper's interface)."""
    return tuple(sorted(_packages(), key=lambda key: (paper(key).order, key)))


def check_paper(key: str) -> str:
    if key not in _packages():
        raise ConfigError(f"paper={key!r} is not admissible: one of {', '.join(sorted(_packages()))}")
    return key


def _experiments(key: str) -> dict[str, Experiment]:
    return {exp.name: exp for exp in paper(key).experiments}


def registry() -> dict[str, Experiment]:
    """All experiments of all papers, by name, in paper order."""
    out: dict[str, Experiment] = {}
    for key in papers():
        out |= _experiments(key)
    return out


def get(name: str) -> Experiment:
    """The experiment called ``name`` (only its paper's package is imported); an unknown name raises a one-line
    ``ConfigError`` listing them all."""
    key = name.split(".")[0] if isinstance(name, str) else None
    if key in _packages():
        found = _experiments(key).get(name)
        if found is not None:
            return found
    raise ConfigError(f"experiment={name!r} is not admissible: one of {', '.join(registry())} "
                      "(see `python -m repro list`)")
