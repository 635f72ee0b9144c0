"""Expected cost of runs from measured wall times: the ETA of the progress bars and ``python -m repro plan``.

Model: ``seconds(spec) = a + b * work(config)`` per experiment and run function (and per profile where the runs'
configs name one: :func:`rate_keys`), where ``work`` is the
experiment's work model (:class:`~repro.experiment.Experiment`; one unit per run by default) and the fixed
cost ``a`` and the cost per unit ``b`` (both >= 0) are fitted by non-negative least squares
(``scipy.optimize.nnls``) to the measured wall times of runs of that experiment and function, on absolute errors:
what ``plan`` and the ETAs report is a sum of run times, which the long runs dominate. (Until 2026-11-29 the fit
weighted every run's relative error equally; where a work model misses part of a run's cost, the many small runs
then set the rate and the long ones were underpriced: FedCLUP's paper profile, run whole, took 1,697 CPU s, which
that fit priced at 1,024 and this one at 1,676 from the same calibration runs.) With a single work value among the
runs, ``a = 0`` and ``b`` is the total time over the total work. For each of a run's :func:`rate_keys` in turn (a
search's family key, its profile's key, then the joint one) the measured runs are:

1. the cache entries in the results folder (any profile, any code version), for a run whose work lies within
   the range they measured (up to the largest work among them);
2. otherwise the committed table ``repro/measured_costs.json``, written by
   ``python -m repro plan --calibrate --write-table --sample K`` on the reference machine (the machine is recorded in
   the table): the fit over the cache, after computing K runs of every experiment of the profile, spread over its work
   (:func:`calibration_runs`; the quick profile's runs alone are small and dominated by fixed costs, so
   extrapolating them to the paper profile's large runs would be guesswork: after a quick ``make reproduce``, the
   cache's fits put the paper profile at 10.1 core-hours where the calibrated table says 8.8);
3. after all keys, the cache's fit beyond its range (better than no estimate; ``plan`` says which source priced
   each experiment).

Assumptions, named: the wall time of a run scales with its work units at a fixed rate (true to within
tens of percent for the work models used here, which count the dominant loops); code changes since a
measurement change its cost little; one core per run (the runner pins BLAS to one thread). An experiment
with no measurement has no estimate (``plan`` says so).
"""
from __future__ import annotations

import functools
import json
import os
import platform
from collections import defaultdict
from pathlib import Path
from typing import Callable

import numpy as np

from . import cache_index
from .errors import ConfigError
from .io import atomic_write_json
from .registry import get, registry

TABLE = Path(__file__).with_name("measured_costs.json")


def _work_model(experiments) -> Callable[[str, dict], float]:
    """``(experiment, config) -> units``: the work model of ``experiments``, or of the registered experiment a spec
    names when it is not among them (an experiment may list another's runs: SSCA's Figure 4 lists Figure 2's), else
    one unit. Only the paper of such a spec is imported, when it is first asked for."""
    models = {name: exp.work for name, exp in experiments.items()}

    def registered(experiment: str):
        try:
            return get(experiment)
        except ConfigError:
            return None

    def work(experiment: str, config: dict) -> float:
        model = models.get(experiment) or getattr(registered(experiment), "work", None)
        return float(model(config)) if model is not None else 1.0
    return work


def _fit(points: list[tuple[float, float]]) -> dict:
    """(work, seconds) pairs -> {"fixed_seconds": a, "seconds_per_unit": b, "runs": n} (module docstring)."""
    from scipy.optimize import nnls

    work = np.array([w for w, _ in points])
    seconds = np.array([t for _, t in points])
    if np.unique(work).size < 2:
        return {"fixed_seconds": 0.0, "seconds_per_unit": float(seconds.sum() / work.sum()), "runs": len(points),
                "max_work": float(work.max())}
    (a, b), _ = nnls(np.column_stack([np.ones_like(work), work]), seconds)
    return {"fixed_seconds": float(a), "seconds_per_unit": float(b), "runs": len(points), "max_work": float(work.max())}


def rate_keys(experiment: str, function: str, config) -> list[str]:
    """The keys of the rates that may price a run, the most specific first: ``"<experiment>|<function>|<profile>|
    <family>"`` for a search of one claim over one structured family (a config that names a profile, a ``claim`` and
    a ``family``), then ``"<experiment>|<function>|<profile>"`` (the fit over that profile's runs alone), then
    ``"<experiment>|<function>"`` (the fit over all its runs). Why: a work model counts a run's dominant loops, not
    every overhead, so one affine fit over the quick and the paper profile's runs together can misprice both (SSCA's
    Figure 2 was priced 5 % under its paper-profile runs and 50 % over its quick ones by the joint fit); and a
    search's work model counts its evaluations, which cannot tell a family of 10-iteration instances from one of
    20,000-iteration instances (``pcfedavg.search``'s ``one_active`` runs took 10-50 times its other runs). Other
    runs that name a family (an instance family of a theorem grid) are priced by their work model, which counts
    their size: a fit per family would rest on a few runs each."""
    key = f"{experiment}|{function}"
    if not isinstance(config, dict) or not isinstance(config.get("profile"), str):
        return [key]
    profile, family = config["profile"], config.get("family")
    search = isinstance(family, str) and isinstance(config.get("claim"), str)
    return ([f"{key}|{profile}|{family}"] if search else []) + [f"{key}|{profile}", key]


def measured_rates(root: Path, experiments) -> dict[str, dict]:
    """``{key: fit}`` (:func:`_fit`) for every :func:`rate_keys` key of the cache entries under ``root``."""
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
            for key in rate_keys(meta["experiment"], meta["function"], meta["config"]):
                samples[key].append((units, seconds, meta.get("first_in_process") is True))
    return {key: _fit(_warm(v)) for key, v in samples.items()}


def _warm(points: list[tuple[float, float, bool]]) -> list[tuple[float, float]]:
    """The (work, seconds) of the runs that were not their process's first call of the function, when there are
    any (entries written before 2026-11-29 do not say, and count as such); else all. A first call carries one-off
    costs (imports, compiled claims, loaded data) that a profile of many runs pays once per worker, and that a fit
    over a small calibration sample, half of it first calls, read as a fixed cost of every run: it priced FedSGM's
    theorem runs at 4 times what random warm runs cost."""
    warm = [(w, t) for w, t, first in points if not first]
    return warm or [(w, t) for w, t, _ in points]


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

    def rate(self, spec) -> tuple[dict | None, str]:
        """The fit that prices ``spec`` (the order of the module docstring, for each of its :func:`rate_keys` in
        turn), and where it came from."""
        keys, units = rate_keys(spec.experiment, spec.function_path, spec.config), self.work(spec.experiment, spec.config)
        for key in keys:
            cached, table = self.cached.get(key), self.table.get(key)
            if cached is not None and units <= cached["max_work"]:
                return cached, f"cache ({cached['runs']} runs)"
            if table is not None:
                return table, "measured_costs.json"
        for cached in filter(None, map(self.cached.get, keys)):
            return cached, f"cache ({cached['runs']} runs, extrapolated)"
        return None, "no measurement"

    def estimate(self, spec) -> float | None:
        fit, _ = self.rate(spec)
        if fit is None:
            return None
        return fit.get("fixed_seconds", 0.0) + fit["seconds_per_unit"] * self.work(spec.experiment, spec.config)

    def estimator(self) -> Callable | None:
        """``spec -> seconds`` for the runner (0 for runs without a measurement), or None when nothing at
        all is measured."""
        if not self.cached and not self.table:
            return None
        return lambda spec: self.estimate(spec) or 0.0


def lazy_estimate(root: Path, experiments) -> Callable:
    """``spec -> expected seconds`` (0 without a measurement) for the runner's critical-path order and the bars' ETA,
    whose cost model -- it reads every cached wall time under ``root`` -- is built on the first call, i.e. only
    when some run is to be computed (a batch that finds everything cached never builds it)."""
    @functools.cache
    def model() -> Callable:
        return CostModel(root, experiments).estimator() or (lambda spec: 0.0)

    return lambda spec: model()(spec)


def profile_cost(plan: dict, root: Path) -> tuple[list[dict], list[str]]:
    """What ``plan`` ({experiment: specs}) costs: per experiment, its runs (with the runs they need), how many are
    cached under ``root``, the estimated seconds of the others and where their rates came from; a run that several
    experiments list is counted (and priced) once, under the first. Also the experiments with a run that no
    measurement prices (left out of the seconds). ``python -m repro plan`` and ``benchmarks/summary.py`` print it."""
    from . import runner

    model = CostModel(root)
    rows, unknown, counted = [], [], set()
    for name, specs in plan.items():
        everything = [s for s in runner._with_needs(specs) if s._canonical not in counted]
        counted |= {s._canonical for s in everything}
        todo = [s for s in everything if not runner.cache_paths(s, root)[1].exists()]
        seconds = [model.estimate(s) for s in todo]
        if any(v is None for v in seconds):
            unknown.append(name)
        rows.append({"experiment": name, "runs": len(everything), "cached": len(everything) - len(todo),
                     "seconds": sum(v for v in seconds if v is not None),
                     "sources": sorted({model.rate(s)[1] for s in everything})})
    return rows, unknown


def calibration_runs(specs, experiments, count: int) -> list:
    """About ``count`` runs per experiment and function among ``specs`` (and the runs they need), spread over the
    group ordered by work: the largest, the smallest and evenly spaced ones between (one run: the middle one; all of
    them when the group is smaller); ``count`` is split evenly over the group's most specific rate keys
    (:func:`rate_keys`: a search's families, at least one run each, so that every family's rate is measured; the
    profiles of other runs). Spread rather than the largest only: where a work model is one unit per run, the runs
    still differ (FedSGM's Monte-Carlo runs took 0.04-0.85 s at the paper profile), and the first of equal-work runs
    alone priced that experiment at 3.6 times the mean of twelve picked at random."""
    from .runner import _with_needs

    work = _work_model(experiments)
    groups: dict[str, dict] = defaultdict(lambda: defaultdict(list))
    for spec in _with_needs(specs):
        groups[f"{spec.experiment}|{spec.function_path}"][rate_keys(spec.experiment, spec.function_path, spec.config)[0]] \
            .append(spec)
    picked = []
    for families in groups.values():
        per_family = max(1, -(-count // len(families)))
        for group in families.values():
            ordered = sorted(group, key=lambda s: -work(s.experiment, s.config))
            picks = min(per_family, len(ordered))
            ends = (0, len(ordered) - 1) if picks > 1 else ((len(ordered) - 1) / 2,) * 2
            positions = np.unique(np.linspace(*ends, picks).round().astype(int))
            picked += [ordered[i] for i in positions]
    return picked


def calibrate(root: Path, profile: str) -> Path:
    """Write ``repro/measured_costs.json`` from the cache entries under ``root`` (the fits of every experiment and
    run function found there) with a description of this machine. A run function with no entry under ``root``
    keeps its committed rate, so that a calibration over some experiments' runs (e.g. one paper's paper-profile
    runs, computed in full) updates those and no others."""
    rates = committed_rates() | measured_rates(root, registry())
    table = {"written_by": f"python -m repro plan --calibrate (profile {profile})",
             "machine": {"cpus": os.cpu_count(), "machine": platform.machine(), "processor": platform.processor(),
                         "python": platform.python_version()},
             "rates": {key: {k: (round(v, 12) if isinstance(v, float) else v) for k, v in fit.items()}
                       for key, fit in sorted(rates.items())}}
    atomic_write_json(TABLE, table)
    return TABLE
