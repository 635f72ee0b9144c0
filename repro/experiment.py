"""The experiment contract shared by every paper module: :class:`Experiment` and the profiles.

An :class:`Experiment` has a name (``"fedsgm.figure1"``), a function from a profile to the list of
:class:`~repro.runner.RunSpec` it needs (``Experiment.specs`` checks the profile before calling it: the one place a
profile is checked, so spec builders and config dataclasses take it as valid), and optionally a figure function from the results of those specs
to saved figure files, the frozen dataclass of one run's config (:class:`Config`: every run's config is built
through it, and so validated, before anything runs, also after ``--set``), a further validation of a config
(raising a one-line ``ValueError``),
the values a ``--set KEY=VALUE`` may give to string-valued keys (``choices``; by default the values the
experiment's own specs use), and a work model ``work(config) -> float`` that the cost estimates of
:mod:`repro.costs` scale measured seconds by (default: every run is one unit), and a memory model
``memory(config) -> bytes`` that :mod:`repro.limits` checks against the machine before a run starts (default: none).
The list of papers lives in
:mod:`repro.registry`, outside this package, so that registering a paper does not change the code
fingerprint of any run.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from repro.errors import ConfigError

PROFILES = ("quick", "paper")
DEFAULT_PROFILE = "quick"


class Config:
    """Base of the frozen dataclasses that describe one run's config (subclass with ``@dataclass(frozen=True)``).

    A subclass checks its values in ``__post_init__`` with :func:`repro.errors.require`, so that constructing it
    with a bad value raises a one-line :class:`ConfigError` naming the key, the value and what is allowed. The
    runner stores and hashes the plain dict (:meth:`as_dict`), so a config's cache key is that of its values.
    """

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def from_dict(cls, config: Mapping[str, Any]):
        """The config of ``config``'s values; an unknown or missing key is a one-line ``ConfigError``."""
        known = cls.keys()
        unknown = sorted(set(config) - set(known))
        if unknown:
            raise ConfigError(f"config key {unknown[0]!r} (= {config[unknown[0]]!r}) is not admissible for "
                              f"{cls.__name__}: one of {', '.join(known)}")
        required = [f.name for f in dataclasses.fields(cls)
                    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
        missing = [k for k in required if k not in config]
        if missing:
            raise ConfigError(f"config of {cls.__name__} is not admissible: key {missing[0]!r} is required")
        return cls(**config)

    def as_dict(self) -> dict:
        """The plain dict the runner stores: every field, values as given."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


@dataclass(frozen=True)
class Experiment:
    name: str
    description: str
    specs: Callable[[str], list]                 # profile -> list[RunSpec]
    figure: Callable[[list, str], list] | None   # (results, profile) -> list[Path]
    validate: Callable[[dict], None] | None = None  # raises ValueError on an inadmissible config
    choices: Mapping[str, tuple] = field(default_factory=dict)   # key -> admissible values of --set
    work: Callable[[dict], float] | None = None  # config -> units of work (costs.py); None: 1 per run
    config: type[Config] | tuple[type[Config], ...] | None = None   # one run's config (a batch member's);
    # a tuple when the experiment's runs come in several shapes (key sets), one dataclass per shape
    memory: Callable[[dict], float] | None = None  # config -> bytes of its largest arrays (repro.limits)

    def __post_init__(self) -> None:
        builder = self.specs

        def specs(profile: str) -> list:
            """The experiment's runs at ``profile``: the one place a profile is checked (module docstring)."""
            return builder(check_profile(profile))
        object.__setattr__(self, "specs", specs)

    def config_classes(self) -> tuple[type[Config], ...]:
        return () if self.config is None else self.config if isinstance(self.config, tuple) else (self.config,)

    def config_keys(self) -> frozenset[str] | None:
        """The keys of any shape of the experiment's config (what ``--set`` may change, in the runs that have
        the key), or None."""
        classes = self.config_classes()
        return frozenset.union(*(frozenset(c.keys()) for c in classes)) if classes else None

    def check_config(self, config: Mapping[str, Any]) -> None:
        """Build the experiment's :class:`Config` from ``config`` (its shape: :func:`shape_of`), then call
        ``validate``."""
        classes = self.config_classes()
        if classes:
            shape_of(classes, config).from_dict(config)
        if self.validate is not None:
            self.validate(dict(config))


def shape_of(classes: tuple[type[Config], ...], config: Mapping[str, Any]) -> type[Config]:
    """The one shape of ``classes`` whose keys are exactly ``config``'s (a stored config holds every field of its
    dataclass); with none, the shape sharing the most keys, whose ``from_dict`` then names the key that is unknown or
    missing in one line. Two shapes with the same keys cannot be told apart: a ConfigError."""
    exact = [c for c in classes if set(c.keys()) == set(config)]
    if len(exact) > 1:
        raise ConfigError(f"config shapes {', '.join(c.__name__ for c in exact)} have the same keys: one of them is "
                          "needed for each key set")
    return exact[0] if exact else max(classes, key=lambda c: (len(set(c.keys()) & set(config)),
                                                             -len(set(c.keys()) ^ set(config))))


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
    work.keys = keys
    return work
