"""Synthetic families 3 and 4 for FedSGM's theorems (the paper has no synthetic experiment; this
project's choice): Huber / logistic objectives with ball constraints."""
from __future__ import annotations

import numpy as np
from scipy.special import expit

from repro.errors import require

from repro.papers.fedsgm.problems.common import (
    NoSolutionError, as_array, check_iterates, client_sample_array, rowdot, sha256_of, weighted_rowsum,
)
from repro.papers.fedsgm.problems.solve import CertifiedProblem
from repro.papers.fedsgm.problems.base import LocalOracle

__all__ = ["HuberBall", "LogisticBall", "huber"]


def huber(r: np.ndarray, delta: float) -> np.ndarray:
    """``huber_delta(r) = r^2/2`` if ``|r| <= delta``, else ``delta (|r| - delta/2)`` (C^1)."""
    a = np.abs(r)
    return np.where(a <= delta, 0.5 * r * r, delta * (a - 0.5 * delta))


class _BallConstrained(CertifiedProblem):
    r"""Shared ball constraint ``g_j(w) = ||w - c_j|| - r_j``.

    ``g_j`` is 1-Lipschitz (triangle inequality); its gradient ``(w - c_j)/||w - c_j||`` has norm
    1 off the centre, and the oracle returns the subgradient **0 at w = c_j** (0 lies in the unit
    ball, the subdifferential there). Since ``||w - cbar|| <= mean_j ||w - c_j||`` (triangle
    inequality, ``cbar = mean_j c_j``), every feasible w lies in the ball ``B(cbar, mean_j r_j)``:
    the feasible set is compact (a minimiser exists whenever it is non-empty) and that ball is the
    certified region of the lower bound on f*.
    """

    _smooth_kkt = True
    _cvx_reusable = True

    def _init_ball(self, centers, radii, n: int, d: int) -> None:
        self.centers = as_array(centers, "centers", shape=(n, d))
        self.radii = as_array(radii, "radii", shape=(n,))

    def _ball_oracle(self, W):
        diff = W - self.centers                                   # (..., n, d)
        nrm = np.sqrt(np.sum(diff * diff, axis=-1))               # (..., n)
        g = nrm - self.radii
        pos = nrm > 0
        grad_g = diff * (pos / np.where(pos, nrm, 1.0))[..., None]   # 0 at the centre
        return g, grad_g

    def _ball_smooth(self, P):
        """Pooled g and grad g at points P (k, d), for the polishing."""
        diff = P[:, None, :] - self.centers                       # (k, n, d)
        nrm = np.linalg.norm(diff, axis=-1)
        pos = nrm > 0
        u = diff * (pos / np.where(pos, nrm, 1.0))[..., None]
        return nrm.mean(axis=-1) - self.radii.mean(), u.mean(axis=-2)

    def _ball_hessian(self, w):
        diff = w - self.centers
        nrm = np.linalg.norm(diff, axis=-1)
        pos = nrm > 0
        inv = pos / np.where(pos, nrm, 1.0)
        u = diff * inv[:, None]
        n, d = self.centers.shape
        return (np.eye(d) * inv.sum() - (u.T * inv) @ u) / n

    def _smooth_eval(self, P, lam):
        f, gf = self._pooled_f(P)
        g, gg = self._ball_smooth(P)
        return f + lam * g, gf + lam * gg, gg, g

    def _hessian(self, w, lam):
        return self._pooled_f_hessian(w) + lam * self._ball_hessian(w)

    def _ball_data(self) -> dict[str, np.ndarray]:
        return {"centers": self.centers, "mean_radius": np.array(self.radii.mean())}

    def _cvx_g(self, w, p):
        import cvxpy as cp

        n, d = self.centers.shape
        return cp.sum(cp.norm(cp.reshape(w, (1, d), order="C") - p["centers"], 2, axis=1)) / n \
            - p["mean_radius"]

    def _precheck(self) -> None:
        rbar = float(self.radii.mean())
        if rbar < 0:
            raise NoSolutionError(
                f"{self.name}: problem (1) is infeasible: g(w) = mean_j ||w - c_j|| - mean_j r_j "
                f">= -mean_j r_j = {-rbar:.6g} > 0 for every w (mean radius is negative)")

    def _slater_candidates(self):
        return [self.centers.mean(axis=0)]

    def _region(self, U):
        return "l2", self.centers.mean(axis=0), max(float(self.radii.mean()), 0.0)


class HuberBall(_BallConstrained):
    r"""Huber regression with a ball constraint.

    ``f_j(w) = (1/m) sum_i huber_delta(A[j,i] . w - b[j,i])``, ``g_j(w) = ||w - c_j|| - r_j``.

    Parameters: ``A`` (n, m, d), ``b`` (n, m), ``centers`` (n, d), ``radii`` (n,), ``delta > 0``.

    **Lipschitz constant.** ``huber_delta`` is C^1 with derivative ``clip(r, -delta, delta)``, so
    ``||grad f_j(w)|| <= (1/m) sum_i delta ||A[j,i]|| <= delta max_{j,i} ||A[j,i]||``; ``g_j`` is
    1-Lipschitz. Hence ``G = max(delta * max_{j,i} ||A[j,i]||, 1)``.

    **Subgradient rule.** f_j is differentiable; g_j uses 0 at its centre.

    **Solution.** cvxpy (``cp.huber(x, delta) / 2``); f is not strictly convex (linear outside
    ``[-delta, delta]``, flat along directions orthogonal to the data), so stage 2 (closest
    minimiser to w0) always runs. Lower bound: tangent of ``f + lambda g`` at the solver's point
    over ``B(cbar, mean r)``.
    """

    name = "huber_ball"

    def __init__(self, A, b, centers, radii, delta: float = 1.0):
        super().__init__()
        A, n, m, d = client_sample_array(A, "A", "sample")
        require(np.isfinite(delta) and delta > 0, "delta", delta, "a finite delta > 0")
        self.A, self.b = A, as_array(b, "b", shape=(n, m))
        self._init_ball(centers, radii, n, d)
        self.delta = float(delta)
        self.n_clients, self.dim = int(n), int(d)
        self.G = float(max(self.delta * np.linalg.norm(A, axis=-1).max(), 1.0))
        self.params: dict = {}

    def oracle(self, W: np.ndarray) -> LocalOracle:
        W = check_iterates(W, self.n_clients, self.dim)
        r = rowdot(W, self.A) - self.b                            # (..., n, m)
        m = self.A.shape[1]
        f = huber(r, self.delta).mean(axis=-1)
        grad_f = weighted_rowsum(np.clip(r, -self.delta, self.delta), self.A) / m
        g, grad_g = self._ball_oracle(W)
        return LocalOracle(f=f, g=g, grad_f=grad_f, grad_g=grad_g)

    def _pooled_f(self, P):
        n, m, d = self.A.shape
        A, b = self.A.reshape(n * m, d), self.b.ravel()
        r = P @ A.T - b
        return huber(r, self.delta).mean(axis=-1), np.clip(r, -self.delta, self.delta) @ A / (n * m)

    def _pooled_f_hessian(self, w):
        n, m, d = self.A.shape
        A = self.A.reshape(n * m, d)
        quad = np.abs(A @ w - self.b.ravel()) <= self.delta
        return (A.T * quad) @ A / (n * m)

    _cvx_nonneg = ("delta",)

    def _cvx_data(self):
        n, m, d = self.A.shape
        return {"A": self.A.reshape(n * m, d), "b": self.b.ravel(), "delta": np.array(self.delta)} | self._ball_data()

    def _cvx_f(self, w, p):
        import cvxpy as cp

        n, m, d = self.A.shape
        return cp.sum(cp.huber(p["A"] @ w - p["b"], p["delta"])) / (2.0 * n * m)

    def _minimiser_is_unique(self) -> bool:
        return False

    def describe(self) -> dict:
        return {**super().describe(), "n_samples": int(self.A.shape[1]), "delta": self.delta,
                "data_sha256": sha256_of(self.A, self.b, self.centers, self.radii),
                "generator": dict(self.params)}


class LogisticBall(_BallConstrained):
    r"""Logistic regression with a ball constraint.

    ``f_j(w) = (1/m) sum_i log(1 + exp(-y[j,i] X[j,i] . w))``, ``g_j(w) = ||w - c_j|| - r_j``,
    labels ``y in {-1, +1}``. Evaluated stably with ``np.logaddexp`` and ``scipy.special.expit``.

    Parameters: ``X`` (n, m, d), ``y`` (n, m), ``centers`` (n, d), ``radii`` (n,).

    **Lipschitz constant.** ``grad f_j(w) = (1/m) sum_i sigma(-y_i x_i.w) (-y_i x_i)`` with
    ``0 < sigma < 1``, so ``||grad f_j|| <= max_i ||x_i||``; ``g_j`` is 1-Lipschitz. Hence
    ``G = max(max_{j,i} ||X[j,i]||, 1)``.

    **Subgradient rule.** f_j is differentiable; g_j uses 0 at its centre.

    **Solution.** cvxpy (``cp.logistic``). f is strictly convex iff the pooled rows of X span R^d
    (its Hessian is ``mean sigma'(.) x x^T``); then the minimiser is unique and stage 2 is skipped,
    otherwise stage 2 runs. Lower bound: tangent of ``f + lambda g`` over ``B(cbar, mean r)``.
    """

    name = "logistic_ball"

    def __init__(self, X, y, centers, radii):
        super().__init__()
        X, n, m, d = client_sample_array(X, "X", "sample")
        y = as_array(y, "y", shape=(n, m))
        require(bool(np.all(np.abs(y) == 1)), "y", "<labels>", "labels in {-1, +1}")
        self.X, self.y = X, y
        self._Z = -y[..., None] * X                               # f_j = mean log(1+exp(Z.w))
        self._init_ball(centers, radii, n, d)
        self.n_clients, self.dim = int(n), int(d)
        self.G = float(max(np.linalg.norm(X, axis=-1).max(), 1.0))
        self._unique = bool(np.linalg.matrix_rank(X.reshape(n * m, d)) == d)
        self.params: dict = {}

    def oracle(self, W: np.ndarray) -> LocalOracle:
        W = check_iterates(W, self.n_clients, self.dim)
        s = rowdot(W, self._Z)                                    # (..., n, m)
        m = self.X.shape[1]
        f = np.logaddexp(0.0, s).mean(axis=-1)
        grad_f = weighted_rowsum(expit(s), self._Z) / m
        g, grad_g = self._ball_oracle(W)
        return LocalOracle(f=f, g=g, grad_f=grad_f, grad_g=grad_g)

    def _pooled_f(self, P):
        n, m, d = self.X.shape
        Z = self._Z.reshape(n * m, d)
        s = P @ Z.T
        return np.logaddexp(0.0, s).mean(axis=-1), expit(s) @ Z / (n * m)

    def _pooled_f_hessian(self, w):
        n, m, d = self.X.shape
        Z = self._Z.reshape(n * m, d)
        s = Z @ w
        return (Z.T * (expit(s) * expit(-s))) @ Z / (n * m)

    def _cvx_data(self):
        n, m, d = self.X.shape
        return {"Z": self._Z.reshape(n * m, d)} | self._ball_data()

    def _cvx_f(self, w, p):
        import cvxpy as cp

        n, m, d = self.X.shape
        return cp.sum(cp.logistic(p["Z"] @ w)) / (n * m)

    def _minimiser_is_unique(self) -> bool:
        return self._unique

    def describe(self) -> dict:
        return {**super().describe(), "n_samples": int(self.X.shape[1]),
                "data_sha256": sha256_of(self.X, self.y, self.centers, self.radii),
                "generator": dict(self.params)}
