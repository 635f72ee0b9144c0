"""``--set KEY=VALUE`` on the command line: parse the values and check them against the experiment before
anything runs.

A value is parsed as JSON (``--set eta=0.05``, ``--set tau='[1, 2]'``), and otherwise taken as a string
(``--set scaling=none``). It is admissible when

* KEY is not ``profile`` (chosen by ``--profile``, which sets a run's sizes: ``--set profile=paper`` would only
  cache quick-sized runs under the label "paper");
* KEY is a config key of at least one run of the experiment (of a member of a batched run,
  :mod:`repro.batches`), and a field of one of the experiment's config dataclasses (:class:`repro.experiment.Config`);
  only the runs whose config has KEY change (and so are recomputed): ``--set gamma=0.05`` on
  ``pcfedavg.comparison`` reruns PC-FedAvg, whose config has a step size gamma, and keeps the three penalized
  baselines, whose configs have none, cached;
* its JSON type is the type the key has in every run that has it (an integer is admissible where a float is; a key that
  is ``null`` in some run accepts a number, a string or ``null``); numbers are finite;
* for a string-valued key, the value is one of the experiment's ``choices`` for it, or, when it declares
  none, one of the values the experiment's own runs (either profile) give the key: a string the code does
  not know would otherwise run silently as something else;
* every resulting config builds the experiment's config dataclass (whose construction checks every value's
  range) and passes its ``validate``.

Every failure is one :class:`~repro.errors.ConfigError` line naming the key, the value and what is allowed.
"""
from __future__ import annotations

import json
import math

from .batches import MEMBERS, member_configs
from .errors import ConfigError
from repro.experiment import PROFILES
from .runner import RunSpec

_TYPES = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
          dict: "an object", type(None): "null"}


def parse(items) -> dict:
    """``["eta=0.05", ...]`` -> ``{"eta": 0.05}``; JSON values, anything else a string."""
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"--set {item!r} is not admissible: use KEY=VALUE, e.g. --set eta=0.05")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def _finite(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    return True


def _type_ok(new, current) -> bool:
    if current is None:
        return new is None or isinstance(new, (int, float, str)) and not isinstance(new, bool)
    if isinstance(current, bool) or isinstance(new, bool):
        return isinstance(new, bool) and isinstance(current, bool)
    if isinstance(current, float):
        return isinstance(new, (int, float))
    return type(new) is type(current)


def _configs(specs) -> list[dict]:
    return [config for s in specs for config in member_configs(s.config)]


def _check_key(exp, key, value, specs) -> None:
    shown = json.dumps(value)
    if key == "profile":
        raise ConfigError(f"--set profile={shown} is not admissible: the profile is chosen by --profile (a run's "
                          "sizes come from it; a --set would only relabel them)")
    every = _configs(specs)
    configs = [c for c in every if key in c]
    fields = exp.config_keys()
    if not configs or (fields is not None and key not in fields):
        known = set().union(*every)
        known = sorted(known if fields is None else known & fields)
        raise ConfigError(f"--set {key} is not admissible for {exp.name}: known keys {', '.join(known)}")
    if not _finite(value):
        raise ConfigError(f"{key}={shown} is not admissible: a finite value")
    currents = {json.dumps(c[key], sort_keys=True): c[key] for c in configs}.values()
    for current in currents:
        if not _type_ok(value, current):
            raise ConfigError(f"{key}={shown} is not admissible: {_TYPES.get(type(current), type(current).__name__)} "
                              f"(as in the experiment's own runs, e.g. {key}={json.dumps(current)})")
    if isinstance(value, str):
        allowed = exp.choices.get(key)
        if allowed is None:
            allowed = sorted({c[key] for p in PROFILES for c in _configs(exp.specs(p)) if isinstance(c.get(key), str)})
        if value not in allowed:
            raise ConfigError(f"{key}={value!r} is not admissible for {exp.name}: one of "
                              f"{', '.join(repr(a) for a in allowed)}")


def override(spec: RunSpec, overrides: dict) -> RunSpec:
    """``spec`` with the overrides of the keys its config has, and the same for the runs it needs (a grid
    search of a step size must see the overridden problem, too)."""
    def new(config):
        return config | {k: v for k, v in overrides.items() if k in config}
    config = ({MEMBERS: [new(c) for c in spec.config[MEMBERS]]} if MEMBERS in spec.config else new(spec.config))
    needs = {name: override(dep, overrides) for name, dep in spec.needs.items()}
    return RunSpec(spec.experiment, config, spec.seed, spec.function, needs)


def apply(exp, specs: list[RunSpec], overrides: dict) -> list[RunSpec]:
    """The experiment's specs with ``overrides`` applied (also to the runs they need), after every check of
    the module docstring; every config (also without overrides) is built into the experiment's config dataclass
    and passed to its ``validate`` (:meth:`repro.experiment.Experiment.check_config`)."""
    for key, value in overrides.items():
        _check_key(exp, key, value, specs)
    if overrides:
        specs = [override(s, overrides) for s in specs]
    for config in _configs(specs):
        exp.check_config(config)
    return specs
