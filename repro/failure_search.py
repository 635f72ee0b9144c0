"""Failure-probability search: the instance on which a deterministically stated claim about a randomized algorithm
is most likely to fail, and that probability as an exact fraction.

A claim stated for every run ("x_T is feasible", "A is nonempty and w_bar is an eps-solution") of an algorithm that
draws random numbers fails as stated as soon as ONE instance has a positive probability of failing. Monte Carlo, a
search whose objective is a ratio on single runs, and exact enumeration over randomly generated instances all miss a
failure that needs a particular geometry together with a particular draw. This search aims at the failure event
itself: its objective is the exact probability that the conclusion fails, computed by enumerating the algorithm's
randomness at small sizes (a :class:`repro.scripted.FailureCount` over every equally likely pattern), maximised over
a structured :class:`repro.search.Family` of instances.

Degenerate instances are where such failures live: a start on the constraint boundary, one client, one local step,
the smallest compression budget, the smallest horizon. A family places each degenerate value at an END of its
coordinate's interval (a start's distance to the boundary in [0, 1], 0 = on it; clients in [1, 4]), and the search
gives every end a positive share of its points, so that a measure-zero instance is visited:

1. every vertex of the box is evaluated (each combination of coordinate ends; at most :data:`MAX_CORNERS`);
2. differential evolution (seeded) runs on a box widened by :data:`SNAP` of each range at both ends, every point
   beyond an end decoding to the end itself (so each end is the image of a positive fraction of the box).

The objective is lexicographic: the failure probability first, then, among instances of equal probability (most
often 0), the largest relative excess of the claim's own sides over the patterns, scaled below the smallest positive
probability (:data:`TIE`), so that the search climbs towards the failure region before it reaches it. The numbers a
record reports are the FailureCount's exact fraction and the claim's own sides, never this objective.

At the best instance the record adds how the probability scales with the horizon (the family's horizon coordinate
raised step by step while the enumeration stays within its budget) and whether the in-expectation version survives:
E[observed] <= E[bound] over the same patterns (:attr:`repro.scripted.FailureCount.expectation`).

Assumptions, named: the enumeration callback returns ``None`` for an inadmissible instance (hypotheses fail, too many
patterns), which counts as worst; instances that decode to the same parameters are enumerated once (a dict keyed by
their canonical JSON); the search is deterministic given its seed.
"""
from __future__ import annotations

import functools
import itertools
import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Mapping

import numpy as np
from scipy import optimize

from . import admissible
from .experiment import Config
from .io import finite_or_none
from .scripted import FailureCount
from .search import Family

#: share of each coordinate's range, at each end, that decodes to the end (a degenerate value's share of the box)
SNAP = 0.1
#: most box vertices evaluated before differential evolution (2^8: eight coordinates)
MAX_CORNERS = 256
#: weight of the tie-break (relative excess squashed to (-1, 1)); below the smallest probability enumerated (2^-20)
TIE = 2.0 ** -24

Enumerate = Callable[[dict], "FailureCount | None"]


@dataclass(frozen=True, kw_only=True)
class FailureSearchConfig(Config):
    """The config every paper's ``<paper>.failsearch`` run shares: the ``family`` searched, the search's budget
    (``maxiter`` generations of ``popsize`` x dimension points), ``horizon_steps`` horizons profiled at the best
    instance, and the ``profile``. A paper subclasses it, adds its own keys, and checks ``family`` against its families
    in ``__post_init__`` after calling this one's."""

    family: str
    maxiter: int
    popsize: int
    horizon_steps: int
    profile: str

    def __post_init__(self) -> None:
        admissible.integer("maxiter", self.maxiter, 1, "generations")
        admissible.integer("popsize", self.popsize, 1, "population per dimension")
        admissible.integer("horizon_steps", self.horizon_steps, 1, "horizons profiled")


def decode_point(fixed: Mapping, names: tuple, x, integer: tuple = ()) -> dict:
    """One instance's parameters from a point ``x`` of a family's box: ``fixed`` and the coordinates ``names`` (those
    in ``integer`` rounded), keys sorted."""
    v = dict(fixed) | {k: float(c) for k, c in zip(names, x)}
    return {k: int(round(v[k])) if k in integer else v[k] for k in sorted(v)}


def box_family(name: str, fixed: Mapping, intervals: Mapping, integer: tuple, box: Mapping | None = None) -> Family:
    """The :class:`repro.search.Family` ``name``: ``fixed`` values and one coordinate per interval (``box`` overrides
    intervals: the tests' perturbations), decoded by :func:`decode_point`."""
    intervals = dict(intervals) | dict(box or {})
    names = tuple(intervals)
    return Family(name, names, tuple(intervals.values()),
                  functools.partial(decode_point, fixed, names, integer=integer))


def objective(count: FailureCount | None) -> float:
    """Lexicographic value of one enumerated instance: P(fails), then the squashed relative excess of the claim's
    own sides where observed - bound is largest (module doc); -inf for an inadmissible instance."""
    if count is None or not count.patterns:
        return -math.inf
    tie = 0.0
    if count.observed is not None and count.bound is not None:
        tie = math.tanh((count.observed - count.bound) / max(abs(count.bound), 1e-12))
    return float(count.probability) + TIE * tie


def _widened(family: Family, snap: float) -> tuple[np.ndarray, np.ndarray, Callable[[np.ndarray], dict]]:
    """The box widened by ``snap`` of each range at both ends, and its decoder (beyond an end -> the end)."""
    lo, hi = np.array(family.bounds, dtype=float).T
    pad = snap * (hi - lo)
    return lo - pad, hi + pad, lambda x: family.decode(np.clip(x, lo, hi))


@dataclass
class _Memo:
    """Each distinct instance enumerated once; the best seen, and the best value after each evaluation."""

    enumerate_instance: Enumerate
    seen: dict = field(default_factory=dict)
    best: tuple = (-math.inf, None, None)          # (value, params, count)
    history: list = field(default_factory=list)

    def __call__(self, params: dict) -> float:
        key = json.dumps(params, sort_keys=True, default=float)
        if key not in self.seen:
            self.seen[key] = self.enumerate_instance(params)
        count = self.seen[key]
        value = objective(count)
        if value > self.best[0]:
            self.best = (value, params, count)
        self.history.append(self.best[0])
        return value


@dataclass(frozen=True)
class FailureSearchResult:
    """The best instance: its parameters, its :class:`FailureCount`, evaluations and distinct instances enumerated,
    and the best objective after each evaluation."""

    family: str
    params: Mapping
    count: FailureCount | None
    evaluations: int
    instances: int
    history: tuple[float, ...] = field(default=(), repr=False)

    @property
    def probability(self) -> Fraction:
        return self.count.probability if self.count is not None and self.count.patterns else Fraction(0)


def maximize_failure_probability(enumerate_instance: Enumerate, family: Family, *, seed: int, maxiter: int = 10,
                                 popsize: int = 6, snap: float = SNAP, corners: bool = True) -> FailureSearchResult:
    """Maximise the exact failure probability ``enumerate_instance(params).probability`` over ``family``: the box's
    vertices (``corners``), then seeded differential evolution on the box widened by ``snap`` (module doc).
    ``snap=0, corners=False`` is plain differential evolution, which visits no end of a continuous coordinate."""
    memo = _Memo(enumerate_instance)
    lo, hi, decode = _widened(family, snap)
    if corners and 2 ** len(family.bounds) <= MAX_CORNERS:
        for vertex in itertools.product(*family.bounds):
            memo(family.decode(np.array(vertex, dtype=float)))

    def negative(x: np.ndarray) -> float:
        value = memo(decode(x))
        return -value if math.isfinite(value) else math.inf

    rng = np.random.default_rng(np.random.SeedSequence(seed))
    optimize.differential_evolution(negative, list(zip(lo, hi)), maxiter=maxiter, popsize=popsize, seed=rng,
                                    polish=False, tol=0.0, init="sobol" if len(lo) > 1 else "latinhypercube")
    _, params, count = memo.best
    return FailureSearchResult(family.name, params or {}, count, len(memo.history), len(memo.seen),
                               tuple(memo.history))


def horizon_profile(enumerate_instance: Enumerate, params: Mapping, horizon: str, steps: int) -> list[tuple]:
    """P(fails) at ``params`` with ``params[horizon]`` raised by 0, 1, ..., ``steps`` - 1, while the enumeration
    admits it: ``[(horizon value, Fraction), ...]`` (how the failure probability scales with the horizon)."""
    out = []
    for extra in range(steps):
        at = dict(params) | {horizon: params[horizon] + extra}
        count = enumerate_instance(at)
        if count is None or not count.patterns:
            break
        out.append((at[horizon], count.probability))
    return out


@dataclass(frozen=True)
class FailureSearchRecord:
    """What a failure-probability search run records, in one form (:meth:`to_run`, :meth:`from_run`): the ``claim``,
    the :class:`FailureSearchResult`, the horizon profile at the best instance (``horizons``) and ``detail`` (JSON
    the paper adds). The metadata keeps the best instance's FailureCount under ``failure_counts`` and the instance
    under ``instance``, so that :mod:`repro.exact_audit` reads it like any exact enumeration."""

    claim: str
    result: FailureSearchResult
    horizons: tuple = ()
    detail: Mapping = field(default_factory=dict)

    def to_run(self) -> tuple[dict, dict]:
        count = self.result.count or FailureCount(self.claim)
        search = {"claim": self.claim, "family": self.result.family, "evaluations": int(self.result.evaluations),
                  "instances": int(self.result.instances), "probability": str(self.result.probability),
                  "horizons": [[finite_or_none(t), str(p)] for t, p in self.horizons], "detail": dict(self.detail)}
        return ({"history": np.asarray(self.result.history, dtype=float)},
                {"failure_counts": [count.as_json()], "instance": dict(self.result.params), "failure_search": search})

    @classmethod
    def from_run(cls, run) -> "FailureSearchRecord":
        meta = run.meta["metadata"]
        m, count = meta["failure_search"], FailureCount.from_json(meta["failure_counts"][0])
        result = FailureSearchResult(m["family"], meta["instance"], count, m["evaluations"], m["instances"],
                                     tuple(np.asarray(run.arrays["history"], float)))
        return cls(m["claim"], result, tuple((t, Fraction(p)) for t, p in m["horizons"]), m["detail"])


__all__ = ["FailureSearchConfig", "FailureSearchRecord", "FailureSearchResult", "MAX_CORNERS", "SNAP", "TIE", "horizon_profile",
           "maximize_failure_probability", "objective"]
