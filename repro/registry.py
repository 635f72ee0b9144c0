"""Which papers the suite covers, found by discovery: every package under :mod:`repro.papers` (including those
in the directories of ``REPRO_PAPERS_PATH``) that has a ``paper`` module is a paper, and that module's ``PAPER``
(:class:`repro.paper.Paper`) is everything the shared layers read from it. Nothing lists the papers by hand, and no
module of a paper is named by a formatted string: a package found by :mod:`pkgutil` is imported by the name it
was found under, so adding a paper touches no shared file.

A package that cannot be imported (it raises, or has a syntax error) does not break the other papers: it is named
once on stderr, with its error, and skipped; a folder of ``REPRO_PAPERS_PATH`` that does not exist is named once too
(:func:`_warn`). Asking for the skipped paper itself is a one-line ConfigError naming the error.

This module is imported by no run module, so it is part of no run's code fingerprint
(:func:`repro.fingerprint.code_fingerprint`).
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import pkgutil
import sys

from .errors import ConfigError
from .experiment import Experiment
from .paper import Paper


#: what was already said on stderr, in this process and the processes it started (figure workers): each once
_WARNED_ENV = "REPRO_PAPERS_WARNED"
#: paper key -> why its package or interface does not import (the package is skipped)
_BROKEN: dict[str, str] = {}


def _warn(line: str) -> None:
    """``warning: <line>`` on stderr, once per line for this process and its children (recorded in
    ``$REPRO_PAPERS_WARNED``, which child processes inherit)."""
    said = os.environ.get(_WARNED_ENV, "").split("\x1f")
    if line not in said:
        os.environ[_WARNED_ENV] = "\x1f".join([s for s in said if s] + [line])
        print(f"warning: {line}", file=sys.stderr)


def _broken(key: str, name: str, exc: BaseException, say: bool = True) -> None:
    """Record that the package ``name`` of paper ``key`` fails to import with ``exc``, and (``say``) say so once."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    _BROKEN[key] = f"{type(exc).__name__}{': ' + first if first else ''}"
    if say:
        _warn(f"paper package {name} is skipped: it does not import ({_BROKEN[key]})")


@functools.lru_cache(maxsize=1)
def _packages() -> dict[str, str]:
    """paper key -> the name its package was found under, for every package with a ``paper`` module (nothing of a
    paper is imported but its package's ``__init__``); a package whose ``__init__`` fails is skipped (:func:`_broken`),
    a folder of ``REPRO_PAPERS_PATH`` that does not exist is named (:func:`_warn`)."""
    for folder in os.environ.get("REPRO_PAPERS_PATH", "").split(os.pathsep):
        if folder and not os.path.isdir(folder):
            _warn(f"REPRO_PAPERS_PATH names {folder!r}, which is not a folder: ignored")
    root = importlib.import_module("repro.papers")
    found = {}
    for info in pkgutil.iter_modules(root.__path__, root.__name__ + "."):
        key = info.name.rpartition(".")[2]
        try:
            if info.ispkg and importlib.util.find_spec(".paper", info.name) is not None:
                found[key] = info.name
        except Exception as exc:     # noqa: BLE001 - any error of a paper's own code: that paper only is skipped
            _broken(key, info.name, exc)
    return found


def _interface(key: str, say: bool = False):
    """The ``paper`` module of ``key``; one that does not import is recorded (:func:`_broken`; named on stderr when
    ``say``: when it is skipped rather than asked for) and a one-line ConfigError."""
    try:
        return importlib.import_module(".paper", _packages()[key])
    except Exception as exc:         # noqa: BLE001 - as in _packages
        _broken(key, _packages()[key], exc, say)
        raise ConfigError(f"paper {key!r} does not import ({_BROKEN[key]})") from None


def paper(key: str) -> Paper:
    """The interface of the paper ``key`` (a one-line ConfigError naming the known keys when there is none, or the
    error of a paper that does not import)."""
    record = _interface(check_paper(key)).PAPER
    if not isinstance(record, Paper) or record.key != key:
        raise ConfigError(f"PAPER of paper {key!r} is not admissible: a repro.paper.Paper with key {key!r}")
    return record


def _importable(key: str) -> bool:
    try:
        _interface(key, say=True)
    except ConfigError:
        return False
    return True


@functools.lru_cache(maxsize=1)
def papers() -> tuple[str, ...]:
    """The keys of every discovered paper, by ``order`` and then key (imports every paper's interface)."""
    return tuple(sorted([key for key in _packages() if _importable(key)], key=lambda key: (paper(key).order, key)))


def check_paper(key: str) -> str:
    if key not in _packages():
        skipped = f" ({key} is skipped: {_BROKEN[key]})" if key in _BROKEN else ""
        raise ConfigError(f"paper={key!r} is not admissible: one of {', '.join(sorted(_packages()))}{skipped}")
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
