"""The Problem contract for convex, Lipschitz, constrained federated problems (1) of FedSGM.

Every problem holds ``n_clients`` local objectives ``f_j`` and local constraints ``g_j`` on
``R^dim`` and evaluates all of them at once: the oracle takes client iterates shaped
``(..., n_clients, dim)`` (any leading batch axes, e.g. Monte-Carlo replicates or local steps)
and returns values shaped ``(..., n_clients)`` and subgradients shaped ``(..., n_clients, dim)``.
There is no Python loop over clients in any oracle.

Where a function is not differentiable the oracle returns a fixed, deterministic subgradient
(documented per family), as Assumption 1 of FedSGM allows.
"""
from __future__ import annotations

import abc
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class LocalOracle:
    """Values and subgradients of every f_j and g_j at the given client iterates."""

    f: np.ndarray        # (..., n)
    g: np.ndarray        # (..., n)
    grad_f: np.ndarray   # (..., n, d)
    grad_g: np.ndarray   # (..., n, d)


@dataclass(frozen=True)
class Optimum:
    """A certified solution of problem (1): min f(w) s.t. g(w) <= 0.

    ``w_star`` is the minimiser closest to the initial point ``w0`` it was computed for
    (which minimiser defines D when it is not unique is a choice the paper leaves open; this
    project's default),
    ``D = ||w0 - w_star||``. ``tolerance`` bounds the error of ``f_star`` (absolute) and of the
    feasibility ``g_star <= tolerance``; checks treat differences below it as inconclusive.
    """

    w_star: np.ndarray
    f_star: float
    g_star: float
    D: float
    solver: str
    tolerance: float
    details: dict = field(default_factory=dict)


class ConvexLipschitzProblem(abc.ABC):
    """Problem (1) of FedSGM with n clients; subclasses define the local oracle.

    Attributes
    ----------
    name : str            family name, e.g. ``"max_affine"``
    n_clients : int       number of clients n
    dim : int             model dimension d
    G : float             a Lipschitz constant valid for EVERY f_j and g_j on R^d (Assumption 1),
                          certified analytically (each family documents how)
    """

    name: str
    n_clients: int
    dim: int
    G: float

    @abc.abstractmethod
    def oracle(self, W: np.ndarray) -> LocalOracle:
        """f_j(W[..., j, :]), g_j(...), and their subgradients, for all clients j at once."""

    def global_values(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """f(w) = mean_j f_j(w) and g(w) = mean_j g_j(w); w shaped (..., d) -> (...,), (...,)."""
        w = np.asarray(w, dtype=np.float64)
        W = np.broadcast_to(w[..., None, :], w.shape[:-1] + (self.n_clients, self.dim))
        o = self.oracle(W)
        return o.f.mean(axis=-1), o.g.mean(axis=-1)

    @abc.abstractmethod
    def solve(self, w0: np.ndarray) -> Optimum:
        """Certified constrained optimum, the minimiser closest to ``w0`` (cvxpy or closed form)."""

    def describe(self) -> dict:
        """JSON-serialisable description (family, sizes, G, generating parameters)."""
        return {"family": self.name, "n_clients": self.n_clients, "dim": self.dim, "G": self.G}
