"""FedSGM, Algorithm 1 of Upadhyay, Moon, Hashemi (OPT 2025), and the outputs of Theorems 1 and 2.

Exactly as printed (Section 3, Algorithm 1 in Appendix A): in round t every client sends g_j(w_t)
(uncompressed), the server broadcasts g(w_t); every client runs E local steps
    nu_{j,tau} = (1 - sigma_t) grad f_j(w_{j,tau}) + sigma_t grad g_j(w_{j,tau}),
    w_{j,tau+1} = w_{j,tau} - eta nu_{j,tau},
with sigma_t = sigma_beta(g(w_t) - eps) (hard: 1{z > 0}; soft: min{1, [1 + beta z]_+}), then sends
C_j((w_t - w_{j,E})/eta) = C_j(X_j); the server sets w_{t+1} = w_t - eta (1/n) sum_j C_j(X_j)  (4).

All clients advance together as one (n, d) array; the only Python loops are over rounds and
local steps, which are sequential by definition. Randomness (Rand-K subsets) comes from the
generator passed in, fresh and independent for every client and round (Assumption 2).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from repro.compression import RandK
from repro.errors import is_int, is_real, require
from repro.papers.fedsgm.problems.base import ConvexLipschitzProblem

SWITCHING_RULES = ("hard", "soft")


@dataclass(frozen=True, eq=False)
class FedSGMParams:
    """Inputs of Algorithm 1 plus the tolerance eps it uses (the paper omits eps from the list).

    K = None means no compression (C_j = Id). ``w0`` defaults to the zero vector.
    ``record_directions`` keeps every local direction nu (T, n, E, d) for Lemma 4 checks.
    """

    T: int
    E: int
    eta: float
    eps: float
    switching: str = "hard"
    beta: float | None = None
    K: int | None = None
    w0: np.ndarray | None = field(default=None, repr=False)
    record_directions: bool = False

    def __post_init__(self) -> None:
        require(is_int(self.T) and self.T >= 1, "T", self.T, "an integer number of rounds >= 1")
        require(is_int(self.E) and self.E >= 1, "E", self.E, "an integer number of local steps >= 1")
        require(is_real(self.eta) and self.eta > 0, "eta", self.eta,
                "a finite step size > 0")
        require(is_real(self.eps) and self.eps > 0, "eps", self.eps,
                "a finite tolerance > 0")
        require(self.switching in SWITCHING_RULES, "switching", self.switching, f"one of {SWITCHING_RULES}")
        if self.switching == "soft":
            require(is_real(self.beta) and self.beta > 0, "beta", self.beta,
                    "a finite slope > 0 for soft switching")
        require(self.K is None or (is_int(self.K) and self.K >= 1), "K", self.K,
                "None (no compression) or an integer >= 1")
        if self.w0 is not None:
            w0 = np.array(self.w0, dtype=np.float64)
            require(w0.ndim == 1 and np.all(np.isfinite(w0)), "w0", "array of shape " + str(w0.shape),
                    "a finite vector of shape (d,)")
            w0.setflags(write=False)
            object.__setattr__(self, "w0", w0)

    def switching_weight(self, g_value: np.ndarray) -> np.ndarray:
        """sigma_beta(g(w_t) - eps), the hard or soft switching rule of Section 3."""
        z = np.asarray(g_value, dtype=np.float64) - self.eps
        if self.switching == "hard":
            return (z > 0).astype(np.float64)
        return np.minimum(1.0, np.maximum(0.0, 1.0 + self.beta * z))


@dataclass(frozen=True)
class Trace:
    """Everything a claim or a figure needs from one run (shapes for T rounds, n clients, E steps).

    w (T+1, d): global iterates w_0..w_T;  f, g (T+1,): f(w_t), g(w_t);  sigma (T,);
    f_local, g_local (T, n, E): f_j, g_j at the local iterates w_{j,tau} (tau = 0 is w_t);
    drift (T, n, E): ||w_t - w_{j,tau}||^2;  nu_sq (T, n, E): ||nu_{j,tau}||^2;
    X_sq (T, n): ||X_j||^2;  X_mean (T, d): (1/n) sum_j X_j;
    selected (T, n, K): Rand-K kept indices (empty last axis without compression);
    uplink_bits (T,): bits sent by all clients in the round;
    directions (T, n, E, d) or None: nu_{j,tau} (only with ``record_directions``);
    params: the :class:`FedSGMParams` of the run (set by :func:`run`; not an array, so not in :meth:`arrays`).
    """

    w: np.ndarray
    f: np.ndarray
    g: np.ndarray
    sigma: np.ndarray
    f_local: np.ndarray
    g_local: np.ndarray
    drift: np.ndarray
    nu_sq: np.ndarray
    X_sq: np.ndarray
    X_mean: np.ndarray
    selected: np.ndarray
    uplink_bits: np.ndarray
    directions: np.ndarray | None = None
    params: FedSGMParams | None = field(default=None, repr=False, compare=False)

    def arrays(self) -> dict[str, np.ndarray]:
        """The trace as a dict of arrays (for the result cache); ``params`` is not one of them."""
        return {k: v for k, v in self.__dict__.items() if v is not None and k != "params"}

    @classmethod
    def from_arrays(cls, arrays, params: FedSGMParams | None = None) -> "Trace":
        names = [k for k in cls.__dataclass_fields__ if k != "params"]
        return cls(**{k: np.asarray(arrays[k]) for k in names if k in arrays}, params=params)


def _direction(s: float, grad_f: np.ndarray, grad_g: np.ndarray) -> np.ndarray:
    """nu = (1 - s) grad f_j + s grad g_j (Algorithm 1); at s = 0 or 1 (every round of hard switching) the gradient
    itself, which the formula gives exactly (x + 0 * y = x for finite y, up to the sign of a zero)."""
    if s == 0.0:
        return grad_f
    if s == 1.0:
        return grad_g
    return (1.0 - s) * grad_f + s * grad_g


def run(problem: ConvexLipschitzProblem, params: FedSGMParams, rng: np.random.Generator) -> Trace:
    """Algorithm 1 on ``problem`` from ``params.w0``, Rand-K draws from ``rng``; returns the :class:`Trace`
    (which carries ``params``)."""
    n, d, T, E, eta = problem.n_clients, problem.dim, params.T, params.E, float(params.eta)
    compressor = None
    if params.K is not None:
        require(params.K <= d, "K", params.K, f"an integer with 1 <= K <= d = {d}")
        compressor = RandK(d, params.K)
    w0 = np.zeros(d) if params.w0 is None else params.w0
    require(w0.shape == (d,), "w0", f"array of shape {w0.shape}", f"a vector of shape ({d},)")

    w = np.empty((T + 1, d))
    f = np.empty(T + 1)
    g = np.empty(T + 1)
    sigma = np.empty(T)
    f_local = np.empty((T, n, E))
    g_local = np.empty((T, n, E))
    X_sq = np.empty((T, n))
    X_mean = np.empty((T, d))
    selected = np.empty((T, n, 0 if compressor is None else compressor.K), dtype=np.int64)
    directions = np.empty((T, n, E, d)) if params.record_directions else None
    message_bits = 64 * d if compressor is None else compressor.bits_per_message()
    uplink_bits = np.full(T, n * (64 + message_bits), dtype=np.float64)

    # the local iterates and directions of every step; drift and ||nu||^2 are computed from them after the
    # loop, in two vectorised passes instead of two numpy calls per local step
    local_w = np.empty((T, n, E, d))
    local_nu = np.empty((T, n, E, d)) if directions is None else directions
    w[0] = w0
    for t in range(T):
        w_t = w[t]
        W = np.broadcast_to(w_t, (n, d)).copy()      # w_{j,0} = w_t for every client
        X = np.zeros((n, d))
        for step in range(E):
            o = problem.oracle(W)
            if step == 0:                              # local iterates at tau = 0 are w_t
                f[t], g[t] = o.f.mean(), o.g.mean()
                sigma[t] = params.switching_weight(g[t])
            nu = _direction(sigma[t], o.grad_f, o.grad_g)
            f_local[t, :, step], g_local[t, :, step] = o.f, o.g
            local_w[t, :, step] = W
            local_nu[t, :, step] = nu
            X += nu
            W -= eta * nu
        X_sq[t] = np.einsum("jd,jd->j", X, X)
        X_mean[t] = X.mean(axis=0)
        if compressor is None:
            aggregate = X_mean[t]
        else:
            selected[t] = compressor.draw(rng, n)
            aggregate = compressor.apply(X, selected[t]).mean(axis=0)
        w[t + 1] = w_t - eta * aggregate
    local_w -= w[:-1, None, None, :]                 # w_{j,tau} - w_t
    drift = np.einsum("tjed,tjed->tje", local_w, local_w)
    nu_sq = np.einsum("tjed,tjed->tje", local_nu, local_nu)
    f[T], g[T] = problem.global_values(w[T])
    if not (np.all(np.isfinite(w)) and np.all(np.isfinite(f)) and np.all(np.isfinite(g))):
        raise FloatingPointError(
            f"FedSGM produced non-finite iterates or values (eta={eta}, T={T}, E={E}); "
            "check the problem's oracle for overflow")
    return Trace(w=w, f=f, g=g, sigma=sigma, f_local=f_local, g_local=g_local, drift=drift,
                 nu_sq=nu_sq, X_sq=X_sq, X_mean=X_mean, selected=selected,
                 uplink_bits=uplink_bits, directions=directions, params=params)


@dataclass(frozen=True)
class Output:
    """The output of Theorem 1 (hard) or Theorem 2 (soft): the set A and w_bar (None if A is empty)."""

    in_A: np.ndarray          # (T,) bool over rounds t = 0..T-1
    weights: np.ndarray       # (T,) averaging weights pi_t (zero outside A)
    w_bar: np.ndarray | None

    @property
    def size(self) -> int:
        return int(self.in_A.sum())


def output(trace: Trace, params: FedSGMParams) -> Output:
    """w_bar of Theorem 1 (hard: A = {g(w_t) <= eps}, uniform average) or Theorem 2 (soft:
    A = {g(w_t) < eps}, weights pi_t proportional to 1 - sigma_t), as the theorems define them. Rounds t in [T]
    = {0..T-1}; w_T is never used."""
    g = trace.g[:-1]
    if params.switching == "hard":
        in_A = g <= params.eps
        raw = in_A.astype(np.float64)
    else:
        in_A = g < params.eps
        raw = np.where(in_A, 1.0 - trace.sigma, 0.0)
    total = raw.sum()
    if not in_A.any() or total <= 0:
        return Output(in_A=in_A, weights=np.zeros_like(raw), w_bar=None)
    weights = raw / total
    return Output(in_A=in_A, weights=weights, w_bar=weights @ trace.w[:-1])
