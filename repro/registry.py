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


def registry() -> dict[str, Experiment]:
    """All experiments of all papers, by name, in paper order."""
    out: dict[str, Experiment] = {}
    for paper in PAPERS:
        module = importlib.import_module(f"repro.experiments.{paper}")
        for exp in module.EXPERIMENTS:
            out[exp.name] = exp
    return out


def get(name: str) -> Experiment:
    """The experiment called ``name``; an unknown name raises a one-line ``ConfigError``."""
    reg = registry()
    if name not in reg:
        raise ConfigError(f"experiment={name!r} is not admissible: one of {', '.join(reg)} "
                          "(see `python -m repro list`)")
    return reg[name]
