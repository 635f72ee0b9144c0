"""Validated numeric arrays: the one conversion every problem module uses for its inputs."""
from __future__ import annotations

import numpy as np

from .errors import require


def as_array(x, name: str, *, ndim: int | None = None, shape: tuple | None = None) -> np.ndarray:
    """``x`` as a finite, read-only float64 copy of the given rank/shape (``None`` = any size)."""
    try:
        arr = np.array(x, dtype=np.float64)  # copy: instances never alias caller memory
    except (TypeError, ValueError):
        raise ValueError(f"{name} is not admissible: must be a numeric array") from None
    if ndim is not None:
        require(arr.ndim == ndim, f"{name}.ndim", arr.ndim, f"{name} must be {ndim}-dimensional")
    if shape is not None:
        ok = arr.ndim == len(shape) and all(s is None or s == a for s, a in zip(shape, arr.shape))
        want = "(" + ", ".join("*" if s is None else str(s) for s in shape) + ")"
        require(ok, f"{name}.shape", arr.shape, f"{name} must have shape {want}")
    require(bool(np.all(np.isfinite(arr))), name, "<array with nan/inf>", "all entries finite")
    arr.setflags(write=False)
    return arr
