"""Unbiased compression operators (Assumption 2 of FedSGM).

Rand-K (FedSGM refs [12], [32]; spec section 3): C(x)_i = (d/K) x_i 1{i in S}, S a uniformly
random K-subset of [d] drawn without replacement, independently for every client and call.
E C(x) = x and E||C(x) - x||^2 = (d/K - 1)||x||^2 exactly, so q_u = d/K - 1.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import require


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


@dataclass(frozen=True)
class RandK:
    """Rand-K sparsification with unbiased d/K scaling, vectorised over clients."""

    dim: int
    K: int

    def __post_init__(self) -> None:
        require(_is_int(self.dim) and self.dim >= 1, "dim", self.dim, "an integer >= 1")
        require(_is_int(self.K) and 1 <= self.K <= self.dim, "K", self.K,
                f"an integer with 1 <= K <= d = {self.dim}")

    @property
    def q_u(self) -> float:
        """Variance factor of Assumption 2: d/K - 1."""
        return self.dim / self.K - 1.0

    def draw(self, rng: np.random.Generator, n_clients: int) -> np.ndarray:
        """Indices of the K kept coordinates for each client, shape (n_clients, K), sorted.

        A K-subset is uniform when taken as the K smallest of d i.i.d. uniforms (argpartition).
        """
        keys = rng.random((n_clients, self.dim))
        return np.sort(np.argpartition(keys, self.K - 1, axis=1)[:, : self.K], axis=1)

    def apply(self, X: np.ndarray, selected: np.ndarray) -> np.ndarray:
        """C_j(X_j) for every client: X shaped (n, d), selected from :meth:`draw`."""
        out = np.zeros_like(X)
        rows = np.arange(X.shape[0])[:, None]
        out[rows, selected] = X[rows, selected] * (self.dim / self.K)
        return out

    def bits_per_message(self, float_bits: int = 64) -> int:
        """Bits of one compressed message: K values plus K indices of ceil(log2 d) bits."""
        return self.K * (float_bits + max(1, int(np.ceil(np.log2(self.dim)))))
