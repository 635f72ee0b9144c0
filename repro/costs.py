"""Expected cost of runs from measured wall times: the ETA of the progress bars and ``python -m repro plan``.

Model: ``seconds(spec) = rate(experiment, function) * work(config)``, where ``work`` is the experiment's
work model (:class:`~repro.experiments.base.Experiment`; one unit per run by default) and ``rate`` (seconds per
unit) is the median of ``wall_time_s / work`` over measured runs of the same experiment and run function:

1. the cache entries in the results folder (any profile, any code version), when there are some;
2. otherwise the committed table ``repro/measured_costs.json``, written by
   ``python -m repro plan --calibrate`` from a cache filled on the reference machine (the machine is
   recorded in the table).

Assumptions, named: the wall time of a run scales with its work units at a fixed rate (true to within
tens of percent for the work models used here, which count the dominant loops); code changes since a
measurement change its cost little; one core per run (the runner pins BLAS to one thread). An experiment
with no measurement has no estimate (``plan`` says so).
"""
from __future__ import annotations

import json
import os
import platform
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Callable

from . import cache_index
from .io import atomic_write_json
from .registry import registry

TABLE = Path(__file__).with_name("measured_costs.json")


def _work_model(experiments) -> Callable[[str, dict], float]:
    models = {name: exp.work for name, exp in experiments.items()}

    def work(experiment: str, config: dict) -> float:
        model = models.get(experiment)
        return float(model(config)) if model is not None else 1.0
    return work


def measured_rates(root: Path, experiments) -> dict[str, dict]:
    """``{"<experiment>|<function>": {"seconds_per_unit", "runs"}}`` from the cache entries under ``root``."""
    work = _work_model(experiments)
    samples: dict[str, list] = defaultdict(list)
    for meta in cache_index.entries(root, {name.split(".")[0] for name in experiments}):
        if meta.get("experiment") not in experiments:
            continue
        try:
            units = work(meta["experiment"], meta["config"])
            seconds = float(meta["wall_time_s"])
        except (KeyError, TypeError, ValueError):
            continue
        if units > 0 and seconds >= 0:
            samples[f"{meta['experiment']}|{meta['function']}"].append(seconds / units)
    return {key: {"seconds_per_unit": statistics.median(v), "runs": len(v)} for key, v in samples.items()}


def committed_rates() -> dict[str, dict]:
    """The rates of ``repro/measured_costs.json`` (empty when the file is missing or unreadable)."""
    try:
        return json.loads(TABLE.read_text(encoding="utf-8"))["rates"]
    except (OSError, ValueError, KeyError):
        return {}


class CostModel:
    """``estimate(spec)`` in seconds (or None without a measurement) and where each rate came from."""

    def __init__(self, root: Path, experiments=None):
        self.experiments = registry() if experiments is None else experiments
        self.work = _work_model(self.experiments)
        self.cached = measured_rates(root, self.experiments)
        self.table = committed_rates()

    def rate(self, experiment: str, function: str) -> tuple[float | None, str]:
        key = f"{experiment}|{function}"
        if key in self.cached:
            return self.cached[key]["seconds_per_unit"], f"cache ({self.cached[key]['runs']} runs)"
        if key in self.table:
            return self.table[key]["seconds_per_unit"], "measured_costs.json"
        return None, "no measurement"

    def estimate(self, spec) -> float | None:
        rate, _ = self.rate(spec.experiment, spec.function)
        return None if rate is None else rate * self.work(spec.experiment, spec.config)

    def estimator(self) -> Callable | None:
        """``spec -> seconds`` for the runner (0 for runs without a measurement), or None when nothing at
        all is measured."""
        if not self.cached and not self.table:
            return None
        return lambda spec: self.estimate(spec) or 0.0


def calibrate(root: Path, profile: str) -> Path:
    """Write ``repro/measured_costs.json`` from the cache entries under ``root`` (the rates of every
    experiment and run function found there) with a description of this machine."""
    rates = measured_rates(root, registry())
    table = {"written_by": f"python -m repro plan --calibrate (profile {profile})",
             "machine": {"cpus": os.cpu_count(), "machine": platform.machine(), "processor": platform.processor(),
                         "python": platform.python_version()},
             "rates": {key: {"seconds_per_unit": round(v["seconds_per_unit"], 9), "runs": v["runs"]}
                       for key, v in sorted(rates.items())}}
    atomic_write_json(TABLE, table)
    return TABLE
