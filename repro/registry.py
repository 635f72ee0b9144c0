"""Which papers the suite covers, and the experiments they register (used by the CLI, the
report and the Makefile). Adding a paper means adding its module name to ``PAPERS``.

This list lives outside :mod:`repro.experiments` on purpose: every run function imports that
package, so anything in its ``__init__`` is part of every run's code fingerprint
(:func:`repro.runner.code_fingerprint`); here it is part of none.
"""
from __future__ import annotations

import importlib

from .errors import ConfigError
from .experiments.base import Experiment

PAPERS = ("fedsgm", "pcfedavg", "fedclup", "ssca")


def _experiments(paper: str) -> dict[str, Experiment]:
    module = importlib.import_module(f"repro.experiments.{paper}")
    return {exp.name: exp for exp in module.EXPERIMENTS}


def registry() -> dict[str, Experiment]:
    """All experiments of all papers, by name, in paper order."""
    out: dict[str, Experiment] = {}
    for paper in PAPERS:
        out |= _experiments(paper)
    return out


def get(name: str) -> Experiment:
    """The experiment called ``name`` (only its paper's module is imported); an unknown name raises a one-line
    ``ConfigError`` listing them all."""
    paper = name.split(".")[0] if isinstance(name, str) else None
    if paper in PAPERS:
        found = _experiments(paper).get(name)
        if found is not None:
            return found
    raise ConfigError(f"experiment={name!r} is not admissible: one of {', '.join(registry())} "
                      "(see `python -m repro list`)")
