"""Scripted stand-ins for a ``numpy.random.Generator``, for exact enumerations of an algorithm's randomness through
the suite's own algorithms:

* :class:`ScriptedKeys`: the only random calls draw uniform keys to pick subsets (Rand-K's coordinates, a
  minibatch's samples: the K smallest keys of each row are chosen); ``fedsgm.exact`` and ``ssca.exact`` replay every
  subset pattern with it;
* :class:`SignPaths`: the only random calls are ``normal(loc, scale, size)`` with a leading replicate axis; the
  replicates enumerate every sign path, so the noise is loc +- scale (Rademacher: the same mean and variance as the
  Gaussian it stands in for) and each replicate is one of the 2^bits equally likely paths (``pcfedavg.exact``).

:func:`uniform_law` walks an enumeration of equally likely patterns and checks that it is the law it stands for: every
pattern once, as many as the law has, their probabilities summing to exactly 1 (:func:`law_record` is what a run
stores of it). Every exact enumeration of the suite goes through it, and one that judges a deterministically stated
claim counts its failures in a :class:`FailureCount`, the one record :mod:`repro.exact_audit` reads.

Hand-written: numpy has no generator that replays chosen subsets or enumerates paths.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Iterator

import numpy as np

from .io import finite_or_none


class IncompleteLaw(AssertionError):
    """An enumeration that repeats a pattern or misses some: it is not the law it stands for."""


def uniform_law(patterns: Iterable, count: int) -> Iterator[tuple[np.ndarray, Fraction]]:
    """Each of ``patterns`` with its probability 1/``count``; raises :class:`IncompleteLaw` at a repeated pattern, or
    at the end unless exactly ``count`` were visited (so the probabilities sum to exactly 1)."""
    seen: set[bytes] = set()
    for pattern in patterns:
        key = np.ascontiguousarray(pattern).tobytes()
        if key in seen:
            raise IncompleteLaw(f"pattern {np.asarray(pattern).tolist()} enumerated twice")
        seen.add(key)
        yield np.asarray(pattern), Fraction(1, count)
    if len(seen) != count:
        raise IncompleteLaw(f"{len(seen)} patterns enumerated, the law has {count}")


def law_record(visited: int, total: Fraction) -> dict:
    """What an exact run stores of its enumeration: the patterns visited and the exact sum of their probabilities."""
    return {"patterns": int(visited), "probability_total": str(total)}


@dataclass
class FailureCount:
    """What an exact enumeration found of one deterministically stated claim: of its ``patterns`` equally likely
    patterns, how many fail the claim's check beyond its tolerance (``failed``), the first ``keep`` failing patterns
    (``failing``, for replay), the claim's own two sides at the pattern where observed - bound is largest
    (``observed``, ``bound``), and, where the run also enumerates the claim with its constant halved, how many fail
    that (``halved_failed``), and the sums of the two sides over the patterns (``sum_observed``, ``sum_bound``: None
    once a side is not finite), whose means are the exact expectations the in-expectation version of the claim compares.
    Filled pattern by pattern with :meth:`add`; stored with :meth:`as_json`."""

    claim: str
    keep: int = 3
    patterns: int = 0
    failed: int = 0
    failing: list = field(default_factory=list)
    observed: float | None = None
    bound: float | None = None
    halved_failed: int | None = None
    sum_observed: float | None = 0.0
    sum_bound: float | None = 0.0

    def add(self, pattern, fails: bool, observed: float, bound: float, halved_fails: bool | None = None) -> None:
        """One pattern (JSON-able) judged: whether it fails, the claim's sides there, the halved claim's verdict."""
        self.patterns += 1
        self.failed += bool(fails)
        if fails and len(self.failing) < self.keep:
            self.failing.append(pattern)
        excess = observed - bound
        if math.isfinite(excess) and (self.observed is None or excess > self.observed - self.bound):
            self.observed, self.bound = float(observed), float(bound)
        if halved_fails is not None:
            self.halved_failed = (self.halved_failed or 0) + bool(halved_fails)
        finite = math.isfinite(observed) and math.isfinite(bound)
        if self.sum_observed is not None:
            self.sum_observed, self.sum_bound = ((self.sum_observed + float(observed), self.sum_bound + float(bound))
                                                 if finite else (None, None))

    @property
    def probability(self) -> Fraction:
        return Fraction(self.failed, self.patterns)

    @property
    def expectation(self) -> tuple[float, float] | None:
        """(E[observed], E[bound]) over the equally likely patterns; None when a side was not finite somewhere."""
        if self.sum_observed is None or not self.patterns:
            return None
        return self.sum_observed / self.patterns, self.sum_bound / self.patterns

    @property
    def halved_probability(self) -> Fraction | None:
        return None if self.halved_failed is None else Fraction(self.halved_failed, self.patterns)

    def as_json(self) -> dict:
        return {"claim": self.claim, "patterns": self.patterns, "failed": self.failed, "failing": self.failing,
                "observed": finite_or_none(self.observed), "bound": finite_or_none(self.bound),
                "halved_failed": self.halved_failed, "probability": str(self.probability),
                "expectation": None if self.expectation is None else [finite_or_none(v) for v in self.expectation]}

    @classmethod
    def from_json(cls, d: dict) -> "FailureCount":
        means = d.get("expectation")
        sums = (None, None) if means is None or None in means else (means[0] * d["patterns"], means[1] * d["patterns"])
        return cls(d["claim"], len(d["failing"]), d["patterns"], d["failed"], d["failing"], d["observed"],
                   d["bound"], d["halved_failed"], *sums)


class ScriptedKeys:
    """The i-th draw returns the subsets ``pattern[i]`` (one row of K distinct positions per row): a
    ``random(shape)`` call as keys of ``shape`` (rows x candidates) that are 0 at those positions and 1 elsewhere, so
    that the subset rule "the K smallest keys of each row" picks exactly them; an ``integers(0, n, size=(rows, K))``
    call as the positions themselves, distinct in every row, so that the rule "K uniform positions, redrawn while a
    row repeats one" accepts them at once. Both rules draw every K-subset with the same probability, so enumerating
    the subsets with equal weights is the law of either. ``spawn(n)`` returns this generator n times (one stream of
    calls, in the order the algorithm makes them). ``calls`` counts the calls made, for the caller to check against
    the pattern."""

    def __init__(self, pattern: np.ndarray):
        self.pattern, self.calls = np.asarray(pattern), 0

    def spawn(self, n: int) -> list:
        return [self] * n

    def random(self, shape) -> np.ndarray:
        keys = np.ones(shape)
        np.put_along_axis(keys, self.pattern[self.calls], 0.0, axis=1)
        self.calls += 1
        return keys

    def integers(self, low: int, high: int, size) -> np.ndarray:
        positions = np.array(self.pattern[self.calls])
        if low != 0 or positions.shape != tuple(size) or positions.min() < 0 or positions.max() >= high:
            raise AssertionError(f"unscripted integers({low}, {high}, size={size}) call {self.calls + 1}: the script "
                                 f"holds positions of shape {positions.shape} below {high}")
        self.calls += 1
        return positions


class SignPaths:
    """Every sign path of ``calls`` noise draws of ``cell`` entries each, one path per replicate.

    The c-th ``normal(loc, scale, size)`` call (size = (S,) + cell, S = 2^(calls x prod(cell))) returns
    loc + scale s, where s[j] in {-1, +1}^cell holds bits c prod(cell) ... (c + 1) prod(cell) - 1 of the replicate
    index j (bit = 1 -> -1). Across the S replicates every combination of signs over all calls appears exactly once,
    so a replicate mean is an exact expectation under independent Rademacher noise of scale ``scale`` per entry.
    ``calls_made`` counts the calls, for the caller to check against ``calls`` (a run that draws more or fewer times
    than scripted would enumerate the wrong law); ``drawn`` holds each replicate's path as drawn so far (its signs as
    bits, most recent last), which :func:`uniform_law` checks once every call is made (:meth:`law`)."""

    def __init__(self, calls: int, cell: tuple[int, ...]):
        self.calls, self.cell, self.calls_made = int(calls), tuple(cell), 0
        self.bits = self.calls * int(np.prod(self.cell))
        self.paths = 2 ** self.bits
        self.drawn = np.zeros(self.paths, dtype=np.uint64)

    def law(self) -> dict:
        """The law the replicates enumerated (:func:`law_record`), checked by :func:`uniform_law`."""
        total = sum(p for _, p in uniform_law(self.drawn, self.paths))
        return law_record(self.paths, total)

    def spawn(self, n: int) -> list:
        return [self] * n

    def normal(self, loc, scale, size) -> np.ndarray:
        size = tuple(np.atleast_1d(size))
        if size != (self.paths,) + self.cell or self.calls_made >= self.calls:
            raise AssertionError(f"unscripted normal() call {self.calls_made + 1} of size {size}: the script has "
                                 f"{self.calls} calls of size {(self.paths,) + self.cell}")
        width = int(np.prod(self.cell))
        shifts = self.calls_made * width + np.arange(width)
        bits = (np.arange(self.paths)[:, None] >> shifts[None, :]) & 1
        self.calls_made += 1
        signs = (1.0 - 2.0 * bits).reshape(size)
        for column in (signs.reshape(self.paths, -1) < 0).T:              # the drawn signs, as each path's bits
            self.drawn = (self.drawn << np.uint64(1)) | column.astype(np.uint64)
        return loc + scale * signs


__all__ = ["FailureCount", "IncompleteLaw", "ScriptedKeys", "SignPaths", "law_record", "uniform_law"]
