"""Statements about noisy runs, decided by a confidence interval over seeds -- never by one seed.

A paper's statement about its figures ("soft switching has around 4x fewer violations", "larger lambda gives higher
accuracy") is a claim about a *mean over seeds* of some per-seed statistic (a paired difference, a log ratio). The
suite decides it with a Student-t confidence interval of that mean:

* ``supports``      the whole interval lies inside the range the statement asserts, shrunk by the tolerance;
* ``violates``      the whole interval lies outside that range, widened by the tolerance (the statement is
                    contradicted at the stated level; the evidence names the seeds and how to replay them);
* ``inconclusive``  the interval straddles the range's edge, or there is only one seed (no interval at all).

Assumptions, named: seeds are independent draws (the runner derives them from ``SeedSequence``); the t interval is
the one the runs' expectation checks use (:func:`repro.verify.mean_confidence_interval`, ``scipy.stats.t``),
two-sided at ``level`` (default 0.95), of zero width when every value is the same (since 2026-11-29; the formula
gave a few ulps); the tolerance ``tol`` absorbs floating-point noise, so that a rebuild on another machine (other
BLAS threads) gives the same decision.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .verdicts import Bearing, Evidence
from .verify import mean_confidence_interval

LEVEL = 0.95


@dataclass(frozen=True)
class Interval:
    """Mean of ``n`` per-seed values and its two-sided confidence interval (nan bounds when n < 2)."""

    mean: float
    low: float
    high: float
    n: int
    level: float = LEVEL

    def __str__(self) -> str:
        if self.n < 2:
            return f"{self.mean:.4g} (one seed: no interval)"
        return f"{self.mean:.4g}, {self.level:.0%} CI [{self.low:.4g}, {self.high:.4g}] over {self.n} seeds"


def interval(values: Sequence[float], level: float = LEVEL) -> Interval:
    """Student-t confidence interval of the mean of ``values`` (finite numbers, one per seed)."""
    x = np.asarray(values, dtype=float).ravel()
    if x.size == 0 or not np.all(np.isfinite(x)):
        raise ValueError(f"values: need at least one finite value per seed, got {x.tolist()}")
    if not 0 < level < 1:
        raise ValueError(f"level: {level} is not in (0, 1)")
    if x.size < 2:
        return Interval(float(x.mean()), math.nan, math.nan, 1, level)
    mean, low, high = mean_confidence_interval(x, level)
    return Interval(mean, low, high, int(x.size), level)


def decide(ci: Interval, claimed: tuple[float, float], tol: float) -> Bearing:
    """Where ``ci`` lies against the range ``claimed = (low, high)`` the statement asserts for the mean."""
    lo, hi = claimed
    if ci.n < 2:
        return Bearing.INCONCLUSIVE
    if lo + tol <= ci.low and ci.high <= hi - tol:
        return Bearing.SUPPORTS
    if ci.high < lo - tol or ci.low > hi + tol:
        return Bearing.VIOLATES
    return Bearing.INCONCLUSIVE


def compare(claim: str, source: str, values: Sequence[float], *, claimed: tuple[float, float], what: str,
            tol: float, seeds: Sequence[int] = (), replay: str = "", level: float = LEVEL) -> Evidence:
    """Evidence about ``claim`` from the per-seed ``values`` of the statistic described by ``what`` (e.g. "log of
    hard/soft violation counts"): :func:`decide` on its confidence interval against ``claimed``."""
    ci = interval(values, level)
    bearing = decide(ci, claimed, tol)
    seeds_text = f"; seeds {', '.join(map(str, seeds))}" if seeds else ""
    verdict = {Bearing.SUPPORTS: "inside", Bearing.VIOLATES: "outside",
               Bearing.INCONCLUSIVE: "inconclusive against"}[bearing]
    summary = (f"{what}: {ci}{seeds_text}; {verdict} the stated range [{claimed[0]:.4g}, {claimed[1]:.4g}] "
               f"(tolerance {tol:g})")
    return Evidence(claim, source, bearing, summary, checks=ci.n, replay=replay if bearing is Bearing.VIOLATES
                    else "")


__all__ = ["Interval", "interval", "decide", "compare", "LEVEL"]
