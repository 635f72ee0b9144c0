"""Element-wise special functions written by hand where scipy's are slower at this suite's sizes.

``scipy.special.expit`` is an element-by-element loop (3.4-3.5 ns per element on the benchmark machine, float32
and float64 alike); 1 / (1 + exp(-u)) with numpy's vectorised exp runs at 0.9 ns per float32 element and ~1.8 ns per
float64 element *when the exp writes in place*: into a fresh array at the same offset within a 4 KiB page as its
input it was up to 8x slower in some calls (4K aliasing). No library offers the in-place form, hence this module
(measured in ``benchmarks/README.md``: FedCLUP's sigmoid, SSCA's swish).
"""
from __future__ import annotations

import numpy as np


def logistic_inplace(u: np.ndarray) -> np.ndarray:
    """Overwrite the floating array ``u`` with the logistic function 1 / (1 + e^{-u}) and return it.

    e^{-u} overflows to inf for u below about -88 (float32) or -709 (float64); 1 / (1 + inf) = 0 is then the
    correct limit, so the overflow is not reported (nor the underflow of e^{-u} to 0 for large u, which gives 1). Agrees with ``scipy.special.expit`` to a few units in the last
    place (largest difference seen: 4.8e-7 in float32, 3e-16 in float64)."""
    return logistic_of_negated_inplace(np.negative(u, out=u))


def logistic_of_negated_inplace(v: np.ndarray) -> np.ndarray:
    """Overwrite the floating array ``v`` = -u with the logistic function of u, 1 / (1 + e^{v}), and return it: for a
    caller that can produce -u directly (e.g. a product with a negated factor, which negates the result exactly), one
    pass over the array fewer than :func:`logistic_inplace`, with the same numbers."""
    with np.errstate(over="ignore", under="ignore"):
        np.exp(v, out=v)
    v += 1.0
    np.reciprocal(v, out=v)
    return v


def logistic(z) -> np.ndarray:
    """1 / (1 + e^{-z}) as a new array of ``z``'s floating dtype (:func:`logistic_inplace` on a copy)."""
    return logistic_inplace(np.array(z, dtype=np.result_type(z, np.float32), copy=True))
