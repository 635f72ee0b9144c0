"""Validation helpers of FedSGM's problem families and the error raised when problem (1) has no solution
(``as_array`` and ``SolverFailure`` come from the shared layers and are re-exported here)."""
from __future__ import annotations

import hashlib

import numpy as np

from repro.arrays import as_array
from repro.errors import ReproError, SolverFailure, require

__all__ = [
    "NoSolutionError",
    "SolverFailure",
    "as_array",
    "check_iterates",
    "check_point",
    "rowdot",
    "sha256_of",
    "weighted_rowsum",
]


class NoSolutionError(ReproError, ValueError):
    """Problem (1) of FedSGM has no minimiser: it is infeasible or its infimum is not attained.

    ``w*`` and hence ``D = ||w0 - w*||`` are undefined; the message says why. ``evidence`` holds
    the numbers behind the verdict (e.g. a recession direction), for the audit report.
    """

    def __init__(self, message: str, evidence: dict | None = None):
        super().__init__(message)
        self.evidence = dict(evidence or {})


def client_sample_array(x, name: str, what: str) -> tuple[np.ndarray, int, int, int]:
    """A per-client stack of rows shaped (n_clients, m, dim) with n, m, dim >= 1 (see :func:`as_array`)."""
    arr = as_array(x, name, ndim=3)
    n, m, d = arr.shape
    require(n >= 1, "n_clients", n, "n_clients >= 1")
    require(m >= 1, f"{name}.shape[1]", m, f"at least one {what} per client")
    require(d >= 1, "dim", d, "dim >= 1")
    return arr, n, m, d


def check_iterates(W, n_clients: int, dim: int) -> np.ndarray:
    """Client iterates ``W`` as float64 shaped ``(..., n_clients, dim)`` (not copied)."""
    W = np.asarray(W, dtype=np.float64)
    if W.ndim < 2 or W.shape[-2:] != (n_clients, dim):
        raise ValueError(
            f"W.shape={W.shape!r} is not admissible: must be (..., n_clients, dim) = "
            f"(..., {n_clients}, {dim})"
        )
    return W


def check_point(w0, dim: int, name: str = "w0") -> np.ndarray:
    """An initial point as a finite float64 vector of length ``dim``."""
    return as_array(w0, name, shape=(dim,))


def sha256_of(*arrays: np.ndarray) -> str:
    """Checksum of the instance data (float64, C order), for provenance in ``describe()``."""
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a, dtype=np.float64)
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def rowdot(W: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``rows[j, i] . W[..., j, :]`` for all clients j and rows i: ``(..., n, d), (n, m, d)`` to
    ``(..., n, m)``.

    Written as multiply-and-sum over the last axis (not einsum/matmul) so every entry is computed
    by the same reduction whatever the leading batch shape: the oracle on ``(R, n, d)`` equals the
    stack of ``R`` single calls bit for bit, which keeps argmax tie-breaking deterministic.
    """
    return np.add.reduce(W[..., :, None, :] * rows, axis=-1)   # np.sum's own reduction, without its wrapper


def weighted_rowsum(coef: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``sum_i coef[..., j, i] * rows[j, i, :]``: ``(..., n, m), (n, m, d) -> (..., n, d)``."""
    return np.sum(coef[..., None] * rows, axis=-2)
