"""A scripted stand-in for a ``numpy.random.Generator`` whose only random calls draw uniform keys to pick subsets
(Rand-K's coordinates, a minibatch's samples: the K smallest keys of each row are chosen). Exact enumerations
(``fedsgm.exact``, ``ssca.exact``) replay every subset pattern through the suite's own algorithms with it.

Hand-written: numpy has no generator that replays chosen subsets.
"""
from __future__ import annotations

import numpy as np


class ScriptedKeys:
    """The i-th ``random(shape)`` call returns keys of ``shape`` (rows x candidates) that are 0 at the positions
    ``pattern[i]`` (one row of positions per row of keys) and 1 elsewhere, so that the subset rule "the K smallest
    keys of each row" picks exactly them; ``spawn(n)`` returns this generator n times (one stream of calls, in the
    order the algorithm makes them). ``calls`` counts the calls made, for the caller to check against the pattern."""

    def __init__(self, pattern: np.ndarray):
        self.pattern, self.calls = np.asarray(pattern), 0

    def spawn(self, n: int) -> list:
        return [self] * n

    def random(self, shape) -> np.ndarray:
        keys = np.ones(shape)
        np.put_along_axis(keys, self.pattern[self.calls], 0.0, axis=1)
        self.calls += 1
        return keys


__all__ = ["ScriptedKeys"]
