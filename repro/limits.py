"""Limits before work: a run whose estimated memory or time exceeds what the machine has is refused before anything
is allocated, naming the parameter, unless ``--ignore-limits`` is given (issue 42, item 4).

``python -m repro run`` and ``figures`` call :func:`check` on the runs they are about to compute (those not cached,
and the runs they need) after every config is validated and before the first run starts. A refusal is one
:class:`LimitExceeded` line (``error: ...``, exit 2, nothing run or cached) naming the run's experiment, the
parameters the user set with ``--set`` that apply to the run (when none apply: the config keys of the model that
priced it), the estimate and the limit. Two limits:

* **memory**: an experiment's memory model (``memory=`` of :class:`repro.experiment.Experiment`, built with
  :func:`array_bytes`) counts the bytes of the largest arrays a run holds from the sizes in its config; it is
  compared with what the machine has: ``$REPRO_MEMORY_LIMIT`` (bytes; for tests) if set, else ``MemAvailable`` of
  ``/proc/meminfo``, else the physical memory (``os.sysconf``).
* **work**: the cost model's estimate of a run's seconds (:mod:`repro.costs`: measured seconds per unit of the
  experiment's work model) is compared with ``$REPRO_MAX_RUN_HOURS`` core-hours (default
  :data:`DEFAULT_MAX_RUN_HOURS` = 24). Why 24: the longest run of either profile is priced at under 3 core-minutes
  (``ssca.figure2``'s paper-profile runs, 160 s by the committed table on 2026-12-02), so a day is some 500 times
  above any run the papers need and still refuses a ``--set`` that would run for weeks.

A third, a backstop: a ``MemoryError`` raised inside a run (a size no memory model covers) becomes one line naming
the run and the ``--set`` keys (:func:`out_of_memory`), instead of a traceback; other exceptions keep theirs.

Why a distinct flag, not ``--force``: ``--force`` recomputes every cached run of the batch. Lifting a limit on one
new run with it would recompute all of them (the 24 runs of ``fedsgm.figure1``), and refreshing a cache with it
would silently accept a run of hundreds of GiB. ``--ignore-limits`` lifts the limits only.

Assumptions, named: (1) a memory model counts the arrays whose shapes are products of config values (data,
iterates, traces) at 8 bytes an entry unless told otherwise, summed over a batch's members (a batch computes its
members together, :mod:`repro.batches`); temporaries of the same shapes are counted by listing the shape again, and
library internals (solvers) are not counted: the estimate is a lower bound of the peak, which is what a refusal
needs (no false refusal). (2) Runs are checked one at a time against the whole machine: ``--jobs J`` runs J at once,
and J runs that each fit may still not fit together (the backstop then names the one that failed). (3) A run
without a memory model, or without a measured cost, is not limited by that model. (4) A cost estimate extrapolated
far beyond the measured work is a rate times work: wrong by tens of percent, not by the factors a limit of 24 h
against minutes-long runs is meant to catch. (5) With a dask scheduler the runs execute on the workers' machines; the
memory compared is still this machine's (a worker is assumed no larger; ``--ignore-limits`` for larger workers).
"""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Callable, Iterable, Mapping

from .batches import member_configs
from .errors import ConfigError, ReproError

MEMORY_ENV = "REPRO_MEMORY_LIMIT"
HOURS_ENV = "REPRO_MAX_RUN_HOURS"
DEFAULT_MAX_RUN_HOURS = 24.0
FLAG = "--ignore-limits"
ITEMSIZE = 8        # float64 and int64


class LimitExceeded(ReproError):
    """A run is estimated to need more memory or time than the limits allow (module docstring)."""


def _extent(entry, config: Mapping) -> float:
    """One axis of a shape: a config key's value (a list counts its length; a missing or non-numeric value 1), a
    constant, or a function of the config."""
    if callable(entry):
        return float(entry(config))
    if not isinstance(entry, str):
        return float(entry)
    value = config.get(entry)
    if isinstance(value, (list, tuple)):
        return float(len(value))
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 1.0


def array_bytes(*shapes: tuple, itemsize: int = ITEMSIZE) -> Callable[[dict], float]:
    """A memory model (``memory=`` of an Experiment): ``itemsize`` times the summed products of ``shapes``, each a
    tuple of config keys, constants or functions of the config (:func:`_extent`), summed over a batch's members.
    ``model.keys`` are the config keys it reads (named by a refusal when the user set none)."""
    def memory(config: dict) -> float:
        return float(itemsize) * sum(math.prod(_extent(e, member) for e in shape)
                                     for member in member_configs(config) for shape in shapes)
    memory.keys = tuple(dict.fromkeys(e for shape in shapes for e in shape if isinstance(e, str)))
    memory.__doc__ = f"{itemsize} bytes x the entries of arrays of shapes {shapes} (summed over batch members)"
    return memory


def _positive(name: str, raw: str, what: str) -> float:
    """``raw`` as a finite number > 0, else a one-line ConfigError naming the variable and ``what`` it counts."""
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not (math.isfinite(value) and value > 0):
        raise ConfigError(f"{name}={raw!r} is not admissible: a number of {what} > 0")
    return value


def machine_memory() -> tuple[int, str]:
    """Bytes the machine has for a run and where the number came from (module docstring)."""
    raw = os.environ.get(MEMORY_ENV)
    if raw:
        return int(_positive(MEMORY_ENV, raw, "bytes")), f"${MEMORY_ENV}"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024, "MemAvailable in /proc/meminfo"
    except (OSError, ValueError, IndexError):
        pass
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"), "physical memory"


def max_run_hours() -> float:
    """The work limit per run in core-hours: ``$REPRO_MAX_RUN_HOURS`` or :data:`DEFAULT_MAX_RUN_HOURS`."""
    raw = os.environ.get(HOURS_ENV)
    return _positive(HOURS_ENV, raw, "core-hours") if raw else DEFAULT_MAX_RUN_HOURS


def size(n: float) -> str:
    """``n`` bytes in the largest binary unit below it: '1.5 GiB'."""
    units = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")
    power = min(int(math.log(max(n, 1), 1024)), len(units) - 1)
    return f"{int(n)} bytes" if power == 0 else f"{n / 1024 ** power:.3g} {units[power]}"


def _named(spec, overrides: Mapping, model) -> str:
    """The parameters to blame: the ``--set`` keys in the run's config, else the keys the model reads; with the
    run's values."""
    configs = member_configs(spec.config)
    keys = [k for k in overrides if any(k in c for c in configs)]
    how = "set by --set"
    if not keys:
        keys = [k for k in getattr(model, "keys", ()) if any(k in c for c in configs)]
        how = "of its config"
    if not keys:
        return "its config"
    return ", ".join(f"{k}={configs[0][k]!r}" for k in keys) + f" ({how})"


def _refuse(spec, what: str, overrides, model) -> LimitExceeded:
    return LimitExceeded(f"{spec.experiment} run (seed {spec.seed}) {what}; the parameters: "
                         f"{_named(spec, overrides, model)}: lower them, or add {FLAG} to run it anyway; "
                         "nothing was run")


def check_memory(specs: Iterable, experiments: Mapping, overrides: Mapping) -> None:
    """Refuse the first of ``specs`` whose memory model's estimate exceeds :func:`machine_memory`."""
    have, source = None, ""
    for spec in specs:
        model = getattr(experiments.get(spec.experiment), "memory", None)
        if model is None:
            continue
        need = model(spec.config)
        if have is None:
            have, source = machine_memory()
        if need > have:
            raise _refuse(spec, f"needs an estimated {size(need)} for its largest arrays, more than the "
                                f"{size(have)} this machine has ({source})", overrides, model)


def check_work(specs: Iterable, experiments: Mapping, overrides: Mapping, estimate: Callable) -> None:
    """Refuse the first of ``specs`` whose estimated seconds (``estimate``: :mod:`repro.costs`) exceed
    :func:`max_run_hours`."""
    hours = max_run_hours()
    for spec in specs:
        seconds = estimate(spec) or 0.0
        if seconds > hours * 3600:
            raise _refuse(spec, f"is estimated to take {seconds / 3600:.3g} core-hours by the cost model "
                                f"(repro/costs.py), above the limit of {hours:g} per run (${HOURS_ENV})",
                          overrides, getattr(experiments.get(spec.experiment), "work", None))


def check(specs: list, overrides: Mapping, estimate: Callable) -> None:
    """Both limits on ``specs`` (the runs about to be computed), memory first: it needs no measurement. Only the
    papers of ``specs`` are imported (a run of one paper does not pay for importing the others)."""
    from .registry import get

    experiments = {name: get(name) for name in dict.fromkeys(spec.experiment for spec in specs)}
    check_memory(specs, experiments, overrides)
    check_work(specs, experiments, overrides, estimate)


def out_of_memory(exc: MemoryError, overrides: Mapping, lifted: bool) -> LimitExceeded:
    """The backstop: a run's ``MemoryError`` as one line naming the run (the runner's note "while running ... for
    <run>"), the ``--set`` keys and why no limit caught it (``lifted``: ``--ignore-limits`` was given)."""
    notes = [n for n in getattr(exc, "__notes__", ()) if n.startswith("while running ")]
    where = notes[0].split(" for ", 1)[-1] if notes else "a run"
    reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    keys = ", ".join(f"{k}={v!r}" for k, v in overrides.items()) or "none"
    why = f"{FLAG} lifted the limits" if lifted else "no memory model covers this size"
    return LimitExceeded(f"{where} ran out of memory ({reason}); --set keys: {keys} ({why}): lower them; nothing "
                         "was cached for it")
