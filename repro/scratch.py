"""Per-thread reusable work arrays for hot loops (written by hand: numpy has no workspace pool).

Each fresh megabyte-sized numpy temporary costs its page faults; in loops that make one every iteration they dominate
(the l1 projection of :mod:`repro.constraints` at d ~ 3e4; the SSCA network's stacked client gradients at d = 101,632
use one too).
``work_array(key, shape)`` hands back the same buffer for the same key on the same thread, so a caller must be done
with one key's array before asking for it again, and keys of different callers must differ (prefix them).
"""
from __future__ import annotations

import threading

import numpy as np

_POOL = threading.local()
MAX_ELEMENTS = 1 << 21          # larger work arrays are not kept between calls


def work_array(key: str, shape: tuple, dtype=np.float64) -> np.ndarray:
    """A work array of ``shape`` and ``dtype`` (contents undefined), reused from call to call for ``key`` on this
    thread; a fresh one when it would exceed :data:`MAX_ELEMENTS`."""
    n = int(np.prod(shape))
    if n > MAX_ELEMENTS:
        return np.empty(shape, dtype=dtype)
    pool = getattr(_POOL, "pool", None)
    if pool is None:
        pool = _POOL.pool = {}
    buf = pool.get(key)
    if buf is None or buf.size < n or buf.dtype != dtype:
        buf = pool[key] = np.empty(max(n, 1), dtype=dtype)
    return buf[:n].reshape(shape)
