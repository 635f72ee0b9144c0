"""Problem (1) of PC-FedAvg: personalized constrained FL, in the stacked form of Section 4.

    min_{x_1..x_m} f(x) = (1/m) sum_i [ f_i(xbar) + sigma_i/2 ||x_i - xbar||^2 ]  s.t. x_i in X_i   (1)

with xbar = (1/m) sum_i x_i. A :class:`PersonalizedProblem` pairs a family of local losses f_i
(any object with ``values``, ``gradients``, ``stochastic_gradients``, ``m``, ``n``, ``L_f``: the
synthetic :class:`Quadratic` and :class:`Logistic` below, or
:class:`repro.papers.pcfedavg.problems.softmax.SoftmaxClients`) with the regularization weights sigma_i and the
product set X = X_1 x ... x X_m (:class:`repro.constraints.ProductSet`).

Stacked vectors x in R^{mn} are arrays ``(..., m, n)`` (block j = ``x[..., j, :]``). An agent's
multi-block vector in Algorithm 1 is such an array; all agents' vectors together are
``(..., m, m, n)`` = [agent i, block j]. The operators A and B_i of Section 4 act as
A x = ``x.mean(-2)`` (so A^T y puts y/m in every block) and B_i x = ``x[..., i, :]``.

Gradients are closed forms derived by this project from Section 4's definitions of F~_i, H_i and g_{i,rho}
(with grad h_i(x) = x - Pi_{X_i}(x) from the appendix), checked against finite differences in the tests:

    [grad g_{i,rho}(x, xi)]_j = (1/m) grad f~_i(Ax, xi) + sigma_i (1[j=i] - 1/m)(x_i - Ax)
                                 + 1[j=i] rho (x_i - Pi_{X_i}[x_i])
    [grad f(x)]_j = (1/m^2) sum_i grad f_i(xbar) + (sigma_j/m)(x_j - xbar) - (1/m^2) sum_i sigma_i (x_i - xbar)
    grad G_rho = grad f + (rho/m) [x_j - Pi_{X_j}[x_j]]_j

Synthetic families (this project's test instances, not the paper's) carry exact constants: L_f is
max_i lambda_max of the Hessian bound, and the oracle adds Gaussian noise xi ~ N(0, nu^2/n I_n) to the exact gradient,
so Assumption 3.2 holds with equality: E||grad f~_i - grad f_i||^2 = nu^2.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import sympy as sp
from scipy import special

from bounds.pcfedavg import claims as B

from repro.constraints import ProductSet
from repro.errors import ConfigError, require
from repro.arrays import as_array

__all__ = ["Logistic", "PersonalizedProblem", "Quadratic", "Reference", "largest_step"]

#: L_{G_rho} of Lemma 4.1 as a function of (L_f, sigma, m, rho), compiled from its encoding
_L_G = sp.lambdify([B.L_f, B.sigma, B.m, B.rho], B.L_G_EXPR, modules="math")


def largest_step(claim_id: str, values: dict) -> float:
    """The largest step the hypotheses of the encoded claim ``claim_id`` admit at ``values`` (every symbol but gamma,
    by name; :meth:`bounds.core.Claim.largest_admissible`: for Props. 4.7-4.8, 6 gamma L_G <= 1 and
    5 gamma L_G (H-1) <= 1 give min{1/(6 L_G), 1/(5 L_G (H-1))}, H = 1: 1/(6 L_G)), lowered by a relative 1e-12 so
    that the hypotheses also hold after float rounding. Read from the claim, not retyped: a change of the encoded
    hypotheses moves every run's step with it."""
    return B.claim(claim_id).largest_admissible(B.gamma, **values) * (1 - 1e-12)


def _check_batch(Y: np.ndarray, m: int, n: int) -> np.ndarray:
    Y = np.asarray(Y, dtype=np.float64)
    if Y.ndim < 2 or Y.shape[-2:] != (m, n):
        raise ConfigError(f"Y has shape {Y.shape}, expected (..., m={m}, n={n})")
    return Y


class _GaussianNoise:
    """Stochastic oracle grad f~_i(y, xi) = grad f_i(y) + xi, xi ~ N(0, nu^2/n I_n) (this project's
    oracle)."""

    nu: float
    m: int
    n: int

    def stochastic_gradients(self, Y: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        grad = self.gradients(Y)
        if self.nu == 0.0:
            return grad
        return grad + rng.normal(0.0, self.nu / np.sqrt(self.n), size=grad.shape)


@dataclass(frozen=True, eq=False)
class Quadratic(_GaussianNoise):
    """f_i(y) = 1/2 (y - c_i)^T P_i (y - c_i), P_i symmetric positive definite (a synthetic family of
    this project).

    L_f = max_i lambda_max(P_i), exactly.
    """

    P: np.ndarray   # (m, n, n)
    c: np.ndarray   # (m, n)
    nu: float = 0.0
    family: str = field(default="quadratic", init=False)

    def __post_init__(self) -> None:
        P = as_array(self.P, "P", ndim=3)
        c = as_array(self.c, "c", ndim=2)
        require(P.shape[1] == P.shape[2] and P.shape[:2] == c.shape, "P.shape", P.shape,
                f"(m, n, n) matching c of shape {c.shape}")
        require(np.allclose(P, np.swapaxes(P, 1, 2), rtol=0, atol=1e-12), "P", "non-symmetric", "symmetric matrices")
        eig = np.linalg.eigvalsh(P)
        require(bool(np.all(eig > 0)), "P", f"min eigenvalue {eig.min():.3g}", "positive definite matrices")
        require(np.isfinite(self.nu) and self.nu >= 0, "nu", self.nu, "a finite noise level >= 0")
        object.__setattr__(self, "P", P)
        object.__setattr__(self, "c", c)
        object.__setattr__(self, "nu", float(self.nu))

    @property
    def m(self) -> int:
        return self.c.shape[0]

    @property
    def n(self) -> int:
        return self.c.shape[1]

    @property
    def L_f(self) -> float:
        return float(np.linalg.eigvalsh(self.P).max())

    @property
    def mu_f(self) -> float:
        return float(np.linalg.eigvalsh(self.P).min())

    def values(self, Y: np.ndarray) -> np.ndarray:
        r = _check_batch(Y, self.m, self.n) - self.c
        return 0.5 * np.einsum("...mi,mij,...mj->...m", r, self.P, r)

    def gradients(self, Y: np.ndarray) -> np.ndarray:
        r = _check_batch(Y, self.m, self.n) - self.c
        return np.einsum("mij,...mj->...mi", self.P, r)

    def hessians(self) -> np.ndarray:
        return self.P

    def describe(self) -> dict:
        return {"family": self.family, "m": self.m, "n": self.n, "nu": self.nu, "L_f": self.L_f,
                "mu_f": self.mu_f}


@dataclass(frozen=True, eq=False)
class Logistic(_GaussianNoise):
    """f_i(y) = (1/N) sum_s log(1 + exp(-b_{is} a_{is}^T y)) + lam/2 ||y||^2 (N samples per agent).

    L_f = max_i lambda_max(A_i^T A_i) / (4 N) + lam (the logistic loss has curvature <= 1/4),
    a certified upper bound, not the exact smoothness constant.
    """

    A: np.ndarray   # (m, N, n) features
    b: np.ndarray   # (m, N) labels in {-1, +1}
    lam: float = 0.0
    nu: float = 0.0
    family: str = field(default="logistic", init=False)

    def __post_init__(self) -> None:
        A = as_array(self.A, "A", ndim=3)
        b = as_array(self.b, "b", ndim=2)
        require(A.shape[:2] == b.shape, "b.shape", b.shape, f"(m, N) = {A.shape[:2]}")
        require(bool(np.all(np.abs(b) == 1)), "b", "values outside {-1, +1}", "labels in {-1, +1}")
        require(np.isfinite(self.lam) and self.lam >= 0, "lam", self.lam, "a finite ridge weight >= 0")
        require(np.isfinite(self.nu) and self.nu >= 0, "nu", self.nu, "a finite noise level >= 0")
        object.__setattr__(self, "A", A)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "lam", float(self.lam))
        object.__setattr__(self, "nu", float(self.nu))

    @property
    def m(self) -> int:
        return self.A.shape[0]

    @property
    def n(self) -> int:
        return self.A.shape[2]

    @property
    def L_f(self) -> float:
        N = self.A.shape[1]
        gram = np.einsum("msi,msj->mij", self.A, self.A) / (4.0 * N)
        return float(np.linalg.eigvalsh(gram).max() + self.lam)

    def _margins(self, Y: np.ndarray) -> np.ndarray:
        return self.b * np.einsum("msi,...mi->...ms", self.A, _check_batch(Y, self.m, self.n))

    def values(self, Y: np.ndarray) -> np.ndarray:
        Y = _check_batch(Y, self.m, self.n)
        loss = np.logaddexp(0.0, -self._margins(Y)).mean(axis=-1)
        return loss + 0.5 * self.lam * np.sum(Y * Y, axis=-1)

    def gradients(self, Y: np.ndarray) -> np.ndarray:
        Y = _check_batch(Y, self.m, self.n)
        weight = -self.b * special.expit(-self._margins(Y)) / self.A.shape[1]
        return np.einsum("...ms,msi->...mi", weight, self.A) + self.lam * Y

    def describe(self) -> dict:
        return {"family": self.family, "m": self.m, "n": self.n, "N": int(self.A.shape[1]),
                "lam": self.lam, "nu": self.nu, "L_f": self.L_f}


@dataclass(frozen=True)
class Reference:
    """Certified x*, x*_rho and the constants of Props 4.7-4.8 / Theorem 3.4 (D, Q, M as
    defined in the proof of Theorem 3.4).

    ``x_star`` solves (1) (cvxpy/Clarabel, polished by projected gradient), certified by the
    projected-gradient residual ``residual_star``; ``x_rho`` minimises G_rho over R^{mn}
    (L-BFGS on the smooth G_rho from the cvxpy solution of its epigraph form), certified by
    ``||grad G_rho(x_rho)||`` = ``residual_rho``. Constants:
    D = ||grad f(x*)||^2, M = (1/m) sum_i E||grad F~_i(x*, xi)||^2 = (1/m) sum_i ||grad F_i(x*)||^2 + nu^2/m,
    Q = ||xbar_0 - x*_rho||^2, and M_rho = (1/m) sum_i ||grad G_{i,rho}(x*_rho)||^2 + nu^2/m, the
    quantity the proof of Lemma 4.5 (L4.5-d) actually bounds by M.
    """

    rho: float
    x_star: np.ndarray
    x_rho: np.ndarray
    f_star: float
    G_rho_star: float
    D: float
    M: float
    M_rho: float
    Q: float
    residual_star: float
    residual_rho: float
    solvers: dict

    def as_dict(self) -> dict:
        return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in self.__dict__.items()}

    def started_at(self, x0: np.ndarray) -> Reference:
        """The same reference for the start ``x0``: Q = ||x0 - x*_rho||^2 is its only constant that depends on the
        start (a run that starts at x* reuses the solution it started from instead of solving again)."""
        return replace(self, Q=float(np.sum((x0 - self.x_rho) ** 2)))


class PersonalizedProblem:
    """Problem (1) with local losses ``local``, weights ``sigma`` (m,) and sets ``sets`` (Sections 1 and 4)."""

    def __init__(self, local, sigma, sets: ProductSet):
        self.local = local
        self.m, self.n = int(local.m), int(local.n)
        sigma = as_array(sigma, "sigma", shape=(self.m,))
        require(bool(np.all(sigma > 0)), "sigma", sigma.tolist(), "sigma_i > 0 for every agent")
        require(isinstance(sets, ProductSet) and sets.m == self.m and sets.dim == self.n, "sets",
                type(sets).__name__, f"a ProductSet of m={self.m} sets in R^{self.n}")
        self.sigma = sigma
        self.sets = sets
        self._agents = np.arange(self.m)        # the diagonal [i, i] of an (..., m, m, n) array of agents' vectors

    # ---------------------------------------------------------------- constants
    @property
    def sigma_max(self) -> float:
        return float(self.sigma.max())

    @property
    def L_f(self) -> float:
        return float(self.local.L_f)

    def _constants(self, rho: float) -> dict:
        """The values of Lemma 4.1's symbols on this instance: L_f, sigma = max_i sigma_i, m and rho."""
        return {"L_f": self.L_f, "sigma": self.sigma_max, "m": self.m, "rho": float(rho)}

    def L_G(self, rho: float) -> float:
        """L_{G_rho} = (L_f + sigma (m-1))/m + rho (Lemma 4.1, with sigma = max_i sigma_i), evaluated from its
        encoding (``bounds.pcfedavg.claims.L_G_EXPR``)."""
        return float(_L_G(**self._constants(rho)))

    def gamma_max(self, rho: float, H: int) -> float:
        """The largest step Props 4.7-4.8's encoded hypotheses admit (:func:`largest_step`: min{1/(6 L_G),
        1/(5 L_G (H-1))}, H = 1: 1/(6 L_G)), lowered by a relative 1e-12."""
        return largest_step("pcfedavg.prop4.7", self._constants(rho) | {"H": H})

    # ---------------------------------------------------------------- stacked objective
    def _stacked(self, x) -> np.ndarray:
        return _check_batch(x, self.m, self.n)

    def f(self, x: np.ndarray) -> np.ndarray:
        """Objective of (1) at stacked x (..., m, n) -> (...,)."""
        x = self._stacked(x)
        xbar = x.mean(axis=-2, keepdims=True)
        fi = self.local.values(np.broadcast_to(xbar, x.shape))
        reg = 0.5 * self.sigma * np.sum((x - xbar) ** 2, axis=-1)
        return (fi + reg).mean(axis=-1)

    def penalty(self, x: np.ndarray) -> np.ndarray:
        """H(x) = (1/m) sum_i h_i(x_i), h_i = 1/2 dist(., X_i)^2, eq. (2)."""
        return self.penalty_of_squared_distances(self.sets.distance(self._stacked(x)) ** 2)

    @staticmethod
    def penalty_of_squared_distances(squared: np.ndarray) -> np.ndarray:
        """H from the blocks' squared distances dist(x_i, X_i)^2 (..., m), when the caller already has them."""
        return 0.5 * np.mean(squared, axis=-1)

    def G(self, x: np.ndarray, rho: float) -> np.ndarray:
        """G_rho(x) = f(x) + rho H(x) (Section 4)."""
        return self.f(x) + rho * self.penalty(x)

    def grad_f(self, x: np.ndarray) -> np.ndarray:
        """grad f(x) on R^{mn}, block formula (module docstring)."""
        x = self._stacked(x)
        m = self.m
        xbar = x.mean(axis=-2, keepdims=True)
        gi = self.local.gradients(np.broadcast_to(xbar, x.shape))
        s = self.sigma[:, None] * (x - xbar)
        return gi.sum(axis=-2, keepdims=True) / m**2 + s / m - s.sum(axis=-2, keepdims=True) / m**2

    def grad_G(self, x: np.ndarray, rho: float) -> np.ndarray:
        x = self._stacked(x)
        return self.grad_f(x) + (rho / self.m) * (x - self.sets.project(x))

    def local_gradient_blocks(self, X: np.ndarray, g: np.ndarray, rho: float, x_hat: np.ndarray | None = None,
                              projected: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """grad g_{i,rho}(x_i, xi) of every agent i (the gradient in (CR)) as its two kinds of blocks, each (..., m, n):
        ``shared`` = g_i/m - sigma_i (B_i x_i - A x_i)/m, every block j != i, and ``own`` = shared + sigma_i (B_i x_i -
        A x_i) + rho (B_i x_i - Pi_{X_i}[B_i x_i]), block i. ``X``, ``g`` as in :meth:`local_gradients`; ``x_hat``: the
        block averages A x_i, ``projected``: Pi_{X_i}[B_i x_i], when the caller has them."""
        m, idx = self.m, self._agents
        if x_hat is None:
            x_hat = X.sum(axis=-2) / m                  # A x_i            (..., m, n)
        own = X[..., idx, idx, :]                       # B_i x_i          (..., m, n)
        if projected is None:
            projected = self.sets.project(own)
        coupling = self.sigma[:, None] * (own - x_hat)  # sigma_i (B_i x_i - A x_i)
        shared = g / m - coupling / m                   # every block j of agent i's gradient
        return shared, shared + (coupling + rho * (own - projected))

    def local_gradients(self, X: np.ndarray, g: np.ndarray, rho: float,
                        x_hat: np.ndarray | None = None) -> np.ndarray:
        """grad g_{i,rho}(x_i, xi) for every agent i at its own multi-block vector (the gradient in (CR)).

        ``X`` (..., m, m, n) is [agent i, block j]; ``g`` (..., m, n) holds grad f~_i at agent i's
        block average A x_i (the stochastic sample, or the exact gradient for grad G_{i,rho}).
        Returns (..., m, m, n). Evaluated through the operators A, B_i and Pi_{X_i}: no loop. ``x_hat``: the block
        averages A x_i when the caller has them.
        """
        return self.assemble_local_gradients(*self.local_gradient_blocks(X, g, rho, x_hat))

    def assemble_local_gradients(self, shared: np.ndarray, own: np.ndarray) -> np.ndarray:
        """The (..., m, m, n) gradients of :meth:`local_gradients` from their blocks (:meth:`local_gradient_blocks`)."""
        idx = self._agents
        out = np.empty(shared.shape[:-1] + shared.shape[-2:], dtype=shared.dtype)
        out[...] = shared[..., :, None, :]
        out[..., idx, idx, :] = own
        return out

    def exact_local_gradients(self, X: np.ndarray, rho: float) -> np.ndarray:
        """grad G_{i,rho}(x_i) at each agent's vector (..., m, m, n)."""
        return self.local_gradients(X, self.local.gradients(X.mean(axis=-2)), rho)

    # ---------------------------------------------------------------- reference points
    def solve(self, rho: float, x0: np.ndarray) -> Reference:
        """Certified x*, x*_rho and D, M, M_rho, Q for the start ``x0`` (m, n)."""
        from repro.papers.pcfedavg.problems.solve import solve_penalized, solve_problem1

        require(np.isfinite(rho) and rho > 0, "rho", rho, "a finite penalty > 0")
        x0 = as_array(x0, "x0", shape=(self.m, self.n))
        x_star, res_star, info_star = solve_problem1(self)
        x_rho, res_rho, info_rho = solve_penalized(self, rho, start=x_star)
        nu = float(getattr(self.local, "nu", 0.0))
        return Reference(
            rho=float(rho), x_star=x_star, x_rho=x_rho,
            f_star=float(self.f(x_star)), G_rho_star=float(self.G(x_rho, rho)),
            D=float(np.sum(self.grad_f(x_star) ** 2)),
            M=self._mean_local_sq(x_star, 0.0) + nu**2 / self.m,
            M_rho=self._mean_local_sq(x_rho, rho) + nu**2 / self.m,
            Q=float("nan"),
            residual_star=res_star, residual_rho=res_rho,
            solvers={"x_star": info_star, "x_rho": info_rho},
        ).started_at(x0)

    def _mean_local_sq(self, x: np.ndarray, rho: float) -> float:
        """(1/m) sum_i ||grad G_{i,rho}(x)||^2 (rho = 0: grad F_i) with every agent at the same x."""
        X = np.broadcast_to(x, (self.m, self.m, self.n))
        return float(np.mean(np.sum(self.exact_local_gradients(X, rho) ** 2, axis=(-2, -1))))

    def describe(self) -> dict:
        return {"local": self.local.describe(), "sigma": self.sigma.tolist(),
                "sets": self.sets.describe(), "m": self.m, "n": self.n}
