"""Batched runs: many small runs of one experiment computed together, along a leading run axis, as one cached run.

When an experiment has many runs that each take milliseconds per step (a sweep over a heterogeneity level R and a
personalization lambda on 10 clients, say), Python overhead dominates and one vectorised computation over all of
them costs little more than one of them. Such an experiment declares **batch specs**: one
:class:`~repro.runner.RunSpec` whose config is ``{"members": [config_1, config_2, ...]}``, each member a complete
config of one run. The run function computes every member (seeding each from its own config exactly as a single
run would) and returns every array with a leading axis over the members, and ``metadata["members"]`` the list of
the members' metadata (:func:`stack`).

Readers never see the batch: :func:`members` turns batch results back into one result-like :class:`Member` per
member (its own config, its slice of every array, its metadata), so figures and the audit select and read runs
exactly as before. A member's ``hash`` is ``<batch hash>/<index>``, which is what figure provenance records.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np

from .errors import ConfigError
from .experiment import Config
from .runner import RunSpec

MEMBERS = "members"


def batch_spec(experiment: str, configs: Sequence, seed: int, function: Callable) -> RunSpec:
    """One cached run computing every config of ``configs`` (a non-empty list of complete run configs)."""
    if not configs:
        raise ConfigError(f"configs of the batch of {experiment} is empty: at least one member config is needed")
    return RunSpec(experiment, {MEMBERS: [c.as_dict() if isinstance(c, Config) else c for c in configs]}, seed, function)


def member_configs(config: dict) -> list[dict]:
    """The member configs of a batch config (a plain config is a batch of one)."""
    return list(config[MEMBERS]) if MEMBERS in config else [config]


def stack(outputs: Sequence[tuple[dict, dict]]) -> tuple[dict, dict]:
    """Per-member ``(arrays, metadata)`` -> one output: every array stacked along a new leading axis (members
    must return the same names and shapes), metadata ``{"members": [...]}``."""
    names = sorted(outputs[0][0])
    for i, (arrays, _) in enumerate(outputs):
        if sorted(arrays) != names:
            raise ValueError(f"member {i} of a batch returned arrays {sorted(arrays)}, member 0 {names}")
    return ({name: np.stack([np.asarray(arrays[name]) for arrays, _ in outputs]) for name in names},
            {MEMBERS: [meta for _, meta in outputs]})


@dataclasses.dataclass(frozen=True, eq=False)
class Member:
    """One member of a batch, read like a :class:`~repro.runner.Result`: ``spec`` (a RunSpec with the member's
    config, the batch's experiment, seed and function), ``arrays`` (its slices), ``meta`` (the batch's
    provenance with ``metadata`` replaced by the member's own), ``cached`` and ``hash``."""

    spec: RunSpec
    arrays: dict
    meta: dict
    cached: bool
    hash: str


def members(results) -> list:
    """Every batch result expanded into its :class:`Member` s, in order; other results are passed through."""
    out = []
    for r in results:
        if MEMBERS not in r.spec.config:
            out.append(r)
            continue
        per_member = r.meta["metadata"][MEMBERS]
        for i, config in enumerate(r.spec.config[MEMBERS]):
            spec = RunSpec(r.spec.experiment, config, r.spec.seed, r.spec.function)
            meta = r.meta | {"metadata": per_member[i]}
            out.append(Member(spec, {k: v[i] for k, v in r.arrays.items()}, meta, r.cached, f"{r.hash}/{i}"))
    return out
