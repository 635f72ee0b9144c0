"""Adversarial search: the admissible instance that comes closest to breaking a bound.

A claim with a bound ``observed <= bound`` is searched over a :class:`Family` -- a box of instance parameters
(dimension, clients, rounds, step size at the edge of its condition, ...) and a ``decode`` that turns a point of the
box into one instance's parameters -- by maximising ``observed/bound`` with scipy's differential evolution (a global,
derivative-free optimiser; seeded) and then Nelder-Mead from the best point (a local polish inside the box). The
result is the best ratio, the instance that attains it and how many instances were evaluated: a ratio above 1 is a
violation with a replayable instance; a best ratio below :data:`LOOSE` says the bound is loose there, and by how much.

The same search is the suite's constant-error detector: a bound whose constant is halved is violated by any
instance whose ratio exceeds 1/2 (:func:`detects_halved_constant`).

Assumptions, named: an objective returns ``nan`` for an inadmissible instance (its hypotheses fail), which the search
treats as worst (never as a violation); integer parameters are rounded by ``decode``; the search is deterministic
given its seed (``numpy.random.SeedSequence``), so CI can run a small version of it and get the same answer.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import numpy as np
from scipy import optimize

from . import admissible
from .io import finite_or_none
from .experiment import Config

#: below this best observed/bound a bound is reported as loose on the family searched
LOOSE = 0.1


@dataclass(frozen=True, kw_only=True)
class SearchConfig(Config):
    """The config every paper's ``<paper>.search`` run shares: the ``claim`` searched, its ``family``, the search's
    budget (``maxiter`` generations of ``popsize`` x dimension points, ``polish_evals`` Nelder-Mead evaluations) and
    the ``profile``. A paper subclasses it, adds its own keys, and checks ``claim`` and ``family`` against its families
    in ``__post_init__`` after calling this one's."""

    claim: str
    family: str
    maxiter: int
    popsize: int
    polish_evals: int
    profile: str

    def __post_init__(self) -> None:
        admissible.integer("maxiter", self.maxiter, 1, "generations")
        admissible.integer("popsize", self.popsize, 1, "population per dimension")
        admissible.integer("polish_evals", self.polish_evals, 0, "Nelder-Mead evaluations")


@dataclass(frozen=True)
class Family:
    """A structured family of admissible instances: ``bounds`` of each coordinate of the search box (``names`` for
    the report) and ``decode(x) -> dict`` of instance parameters."""

    name: str
    names: tuple[str, ...]
    bounds: tuple[tuple[float, float], ...]
    decode: Callable[[np.ndarray], dict]

    def __post_init__(self) -> None:
        if len(self.names) != len(self.bounds) or not self.bounds:
            raise ValueError(f"family {self.name}: {len(self.names)} names for {len(self.bounds)} bounds")
        bad = [(n, b) for n, b in zip(self.names, self.bounds) if not (np.isfinite(b).all() and b[0] < b[1])]
        if bad:
            raise ValueError(f"family {self.name}: bounds {bad[0][1]} of {bad[0][0]} are not a finite interval")


@dataclass(frozen=True)
class SearchResult:
    """The best instance found: its ratio observed/bound, its parameters and the number of instances evaluated."""

    family: str
    ratio: float
    params: Mapping
    evaluations: int
    history: tuple[float, ...] = field(default=(), repr=False)     # best ratio after each evaluation

    @property
    def violated(self) -> bool:
        return self.ratio > 1.0

    @property
    def loose(self) -> bool:
        return self.ratio < LOOSE


def maximize_ratio(objective: Callable[[dict], float], family: Family, *, seed: int, maxiter: int = 20,
                   popsize: int = 8, polish_evals: int = 60) -> SearchResult:
    """Maximise ``objective(decode(x))`` over the family's box: differential evolution (``maxiter`` generations of
    ``popsize`` x dimension points), then Nelder-Mead from its best point for at most ``polish_evals`` evaluations.
    When differential evolution found no admissible instance (every value nan or infinite) there is no point to
    polish, and Nelder-Mead is not run (on an all-infinite simplex it only computes inf - inf)."""
    lo, hi = np.array(family.bounds, dtype=float).T
    best = {"ratio": -math.inf, "params": None}
    history: list[float] = []

    def negative(x: np.ndarray) -> float:
        params = family.decode(np.clip(x, lo, hi))
        value = float(objective(params))
        if math.isfinite(value) and value > best["ratio"]:
            best["ratio"], best["params"] = value, params
        history.append(best["ratio"])
        return -value if math.isfinite(value) else math.inf

    rng = np.random.default_rng(np.random.SeedSequence(seed))
    de = optimize.differential_evolution(negative, list(zip(lo, hi)), maxiter=maxiter, popsize=popsize, seed=rng,
                                         polish=False, tol=0.0, init="sobol" if len(lo) > 1 else "latinhypercube")
    if polish_evals > 0 and math.isfinite(de.fun):       # no admissible point found: nothing to polish
        optimize.minimize(negative, de.x, method="Nelder-Mead", bounds=list(zip(lo, hi)),
                          options={"maxfev": polish_evals, "xatol": 1e-6, "fatol": 1e-9})
    return SearchResult(family.name, best["ratio"], best["params"] or {}, len(history), tuple(history))


#: what the claim's own check decided on a search's best instance: beyond its tolerance or Monte-Carlo rule; the
#: observed value above the bound by less than that (or an interval straddling it); the bound met
CHECK_OUTCOMES = ("failed", "within tolerance", "held")


@dataclass(frozen=True)
class Check:
    """The claim's own check re-run on a search's best instance under one reading of the paper: its two sides
    (``observed``, ``bound``, and ``sides``: what they are in the paper's terms), their ratio as the check defines it,
    and its ``outcome`` (one of :data:`CHECK_OUTCOMES`). ``reading`` names the reading ("" where the paper admits
    one). These, never the search objective, are the numbers a verdict cites."""

    observed: float | None
    bound: float | None
    ratio: float | None
    outcome: str
    sides: str = ""
    reading: str = ""

    def __post_init__(self) -> None:
        if self.outcome not in CHECK_OUTCOMES:
            raise ValueError(f"outcome: {self.outcome!r} is not one of {CHECK_OUTCOMES}")
        for name in ("observed", "bound", "ratio"):
            object.__setattr__(self, name, finite_or_none(getattr(self, name)))

    @classmethod
    def of_outcome(cls, outcome, sides: str = "", reading: str = "") -> "Check":
        """The check of a :class:`repro.verify.Outcome`, as the check decided it: failed; passed but flagged
        inconclusive (an excess within its tolerance, a Monte-Carlo interval straddling the bound); held. An
        observed value above the bound by a rounding error the check does not flag (an equality attained) held."""
        decided = "failed" if not outcome.passed else "within tolerance" if outcome.inconclusive else "held"
        return cls(outcome.observed, outcome.bound, outcome.ratio, decided, sides, reading)


@dataclass(frozen=True)
class SearchRecord:
    """What one search run of any paper records, in one form (:meth:`to_run`, :meth:`from_run`): the searched
    ``claim`` and ``family``, the :class:`SearchResult` (best objective, instance, evaluations), the claim's own
    ``checks`` at the best instance (empty: no admissible instance was judged), ``halved_ratio`` (the objective with
    the claim's constant halved: above 1, the search would have reported the halved claim violated),
    ``halved_evaluations`` (instances that took), ``equality`` (the claim is an equality judged by an error, where
    "loose" does not apply) and ``detail`` (JSON the paper's own table adds). :mod:`repro.search_audit` reads it."""

    claim: str
    family: str
    result: SearchResult
    checks: tuple[Check, ...] = ()
    halved_ratio: float | None = None
    halved_evaluations: int = 0
    equality: bool = False
    detail: Mapping = field(default_factory=dict)

    def to_run(self) -> tuple[dict, dict]:
        """(arrays, metadata) of a run function: the history as an array, everything else plain JSON."""
        meta = {"claim": self.claim, "family": self.family, "params": dict(self.result.params),
                "ratio": finite_or_none(self.result.ratio), "evaluations": int(self.result.evaluations),
                "checks": [vars(c) for c in self.checks], "halved_ratio": finite_or_none(self.halved_ratio),
                "halved_evaluations": int(self.halved_evaluations), "equality": bool(self.equality),
                "detail": dict(self.detail)}
        return {"history": np.asarray(self.result.history, dtype=float)}, {"search": meta}

    @classmethod
    def from_run(cls, run) -> "SearchRecord":
        """The record of a cached run (``run.meta["metadata"]["search"]``, ``run.arrays["history"]``)."""
        m = run.meta["metadata"]["search"]
        ratio = math.nan if m["ratio"] is None else m["ratio"]
        result = SearchResult(m["family"], ratio, m["params"], m["evaluations"],
                              tuple(np.asarray(run.arrays["history"], float)))
        return cls(m["claim"], m["family"], result, tuple(Check(**c) for c in m["checks"]),
                   m["halved_ratio"], m["halved_evaluations"], m["equality"], m["detail"])


def best_of(results: Sequence[SearchResult]) -> SearchResult:
    """The result with the largest ratio over several families."""
    if not results:
        raise ValueError("results: no search result to choose from")
    return max(results, key=lambda r: r.ratio)


def detects_halved_constant(result: SearchResult) -> bool:
    """Would the search have reported the bound violated had its constant been halved? (ratio x 2 > 1)"""
    return 2.0 * result.ratio > 1.0


__all__ = ["SearchConfig", "Family", "SearchResult", "Check", "SearchRecord", "CHECK_OUTCOMES",
           "maximize_ratio", "best_of", "detects_halved_constant", "LOOSE"]
