"""Experiment registry: every paper module lists its experiments; the CLI and Makefile use this.

An :class:`Experiment` has a name (``"fedsgm.figure1"``), a function from a profile to the list
of :class:`~repro.runner.RunSpec` it needs, and optionally a figure function from the results of
those specs to saved figure files. Adding a paper means adding its module to ``PAPERS``.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable

from ..errors import ConfigError

PAPERS = ("fedsgm", "pcfedavg")
PROFILES = ("quick", "paper")
DEFAULT_PROFILE = "quick"


@dataclass(frozen=True)
class Experiment:
    name: str
    description: str
    specs: Callable[[str], list]                 # profile -> list[RunSpec]
    figure: Callable[[list, str], list] | None   # (results, profile) -> list[Path]
    validate: Callable[[dict], None] | None = None  # raises ValueError on an inadmissible config


def check_profile(profile: str) -> str:
    if profile not in PROFILES:
        raise ConfigError(f"profile={profile!r} is not admissible: one of {', '.join(PROFILES)}")
    return profile


def registry() -> dict[str, Experiment]:
    """All experiments of all papers, by name, in paper order."""
    out: dict[str, Experiment] = {}
    for paper in PAPERS:
        module = importlib.import_module(f"{__name__}.{paper}")
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
