"""The experiment contract shared by every paper module: :class:`Experiment` and the profiles.

An :class:`Experiment` has a name (``"fedsgm.figure1"``), a function from a profile to the list of
:class:`~repro.runner.RunSpec` it needs, and optionally a figure function from the results of those specs
to saved figure files, a validation of a config (raising a one-line ``ValueError`` before anything runs),
the values a ``--set KEY=VALUE`` may give to string-valued keys (``choices``; by default the values the
experiment's own specs use), and a work model ``work(config) -> float`` that the cost estimates of
:mod:`repro.costs` scale measured seconds by (default: every run is one unit). The list of papers lives in
:mod:`repro.registry`, outside this package, so that registering a paper does not change the code
fingerprint of any run.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from repro.errors import ConfigError

PROFILES = ("quick", "paper")
DEFAULT_PROFILE = "quick"


@dataclass(frozen=True)
class Experiment:
    name: str
    description: str
    specs: Callable[[str], list]                 # profile -> list[RunSpec]
    figure: Callable[[list, str], list] | None   # (results, profile) -> list[Path]
    validate: Callable[[dict], None] | None = None  # raises ValueError on an inadmissible config
    choices: Mapping[str, tuple] = field(default_factory=dict)   # key -> admissible values of --set
    work: Callable[[dict], float] | None = None  # config -> units of work (costs.py); None: 1 per run


def check_profile(profile: str) -> str:
    if profile not in PROFILES:
        raise ConfigError(f"profile={profile!r} is not admissible: one of {', '.join(PROFILES)}")
    return profile


def product_of(*keys: str) -> Callable[[dict], float]:
    """A work model (:class:`Experiment`): the product of the config values of ``keys`` (a missing key counts 1);
    for a batched config (:mod:`repro.batches`), the sum over its members."""
    def work(config: dict) -> float:
        members = config.get("members", [config])
        total = 0.0
        for member in members:
            value = 1.0
            for key in keys:
                v = member.get(key)
                value *= float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 1.0
            total += value
        return total
    work.__doc__ = f"product of {', '.join(keys)} (summed over batch members)"
    return work
