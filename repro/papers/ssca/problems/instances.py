"""Small smooth synthetic problems with exactly known constants for the SSCA checks of
Theorems 1-4 and Lemmas 2-5 (Appendices A-B); the problems are this project's choice (the paper runs none).

Equation and problem numbers are the paper's. All problems are logistic-regression finite sums over
data (X (N, K), y in {-1, +1}) with omega = w in R^K, and implement the oracle protocol of
:class:`repro.papers.ssca.problems.swish_network.FiniteSumProblem` (``batch_sums``, ``block_batch_sums``,
``stacked_objective_grads``, ``full_values_and_grads``), vectorised over samples and clients.

With the logistic loss l(s, y) = log(1 + exp(-y s)) and the score s = x^T w:

* :class:`NonconvexLogistic`      — f_0 = l + reg sum_k h(w_k), h(t) = t^2/(1+t^2) (nonconvex, M = 0);
* :class:`LogisticL2`             — f_0 = l + reg ||w||^2 (strongly convex, unique stationary point);
* :class:`NormWithLossLimit`      — mirrors (37): f_0 = ||w||^2 (exact, weight 1), phi_1 = l, level U;
* :class:`NonconvexWithLossLimit` — f_0 = reg sum_k h(w_k) + 0.05 ||w||^2 (data-free, not a pure
  quadratic, so the algorithms use the surrogate (7)), phi_1 = l, level U.

**Feature-based structure** ((2), (16)–(17)): client i holds the columns K_i of X
(:class:`~repro.papers.ssca.problems.swish_network.FeatureBlocks`) and the block w_i = w[K_i]; its partial
quantity is h_{0,i}(w_i, x_{n,i}) = (x_{n,i}^T w_i, r(w_i)), the partial score and the partial
(separable, data-free) regulariser; g_0 adds the scores into s_n, applies l and adds the regulariser
parts. There is no server block (d_0 = 0). The same partial scores serve the constraint (h_{1,i}).

**Non-separable data.** For coercivity of the logistic loss (bounded level sets, compact constraint
set {Phi_1 <= U}) the data must not be linearly separable through the origin: use
:func:`make_classification` with ``flip > 0`` and n well above d, and check with
:func:`linearly_separable` (an exact LP feasibility test).

Hand-written because no library offers these oracles with the feature-based block evaluation.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.linalg
import scipy.optimize
from scipy.special import expit

from repro.errors import ReproError, is_int, is_real, require
from repro.papers.ssca.problems.swish_network import (
    FeatureBlocks, FiniteSumProblem, ParameterBlocks, check_blocks, check_data, check_omega,
)

__all__ = [
    "KKTPoint",
    "LogisticL2",
    "NonconvexLogistic",
    "NonconvexWithLossLimit",
    "NormWithLossLimit",
    "ReferenceSolveError",
    "StationaryPoint",
    "linearly_separable",
    "make_classification",
]

STATIONARY_TOL = 1e-10
KKT_TOL = 1e-10


class ReferenceSolveError(ReproError):
    """A reference solver did not reach its recorded tolerance."""


# --------------------------------------------------------------------------- data

def make_classification(n: int, d: int, flip: float, rng: np.random.Generator):
    """Synthetic binary data: X (n, d) with i.i.d. N(0, 1) entries, labels y = sign(x^T u) in
    {-1, +1} for a planted unit direction u ~ uniform on the sphere (sign(0) = +1), each label
    flipped independently with probability ``flip``. With flip > 0 and n >> d the data are
    non-separable with high probability (check with :func:`linearly_separable`), so the logistic
    loss is coercive."""
    require(is_int(n) and n >= 1, "n", n, "an integer >= 1")
    require(is_int(d) and d >= 1, "d", d, "an integer >= 1")
    require(is_real(flip) and 0 <= flip < 0.5, "flip", flip, "a number in [0, 0.5)")
    require(isinstance(rng, np.random.Generator), "rng", type(rng).__name__, "a numpy.random.Generator")
    X = rng.standard_normal((n, d))
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    y = np.where(X @ u >= 0, 1.0, -1.0)
    y = np.where(rng.random(n) < flip, -y, y)
    return X, y


def linearly_separable(X, y) -> bool:
    """Whether some w has y_n x_n^T w > 0 for all n (separable through the origin, no bias).

    Exact up to the LP solver's tolerance: feasibility of y_n x_n^T w >= 1 (scale invariance), solved
    with scipy's HiGHS. Non-separable data make the logistic loss coercive (level sets compact)."""
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    A = -(y[:, None] * X)
    res = scipy.optimize.linprog(np.zeros(X.shape[1]), A_ub=A, b_ub=-np.ones(X.shape[0]),
                                 bounds=[(None, None)] * X.shape[1], method="highs")
    return res.status == 0


# --------------------------------------------------------------------------- helpers

def _loss_and_slope(s, y):
    """l(s, y) = log(1 + exp(-y s)) and dl/ds = -y expit(-y s) (what the oracles need: a third of the ufunc calls of
    :func:`_loss_and_derivatives`, whose first two entries these are)."""
    m = y * s
    return np.logaddexp(0.0, -m), -y * expit(-m)


def _loss_and_derivatives(s, y):
    """:func:`_loss_and_slope` and d2l/ds2 = expit(y s) expit(-y s)."""
    m = y * s
    return (*_loss_and_slope(s, y), expit(m) * expit(-m))


def _bounded_square(w):
    """h(t) = t^2/(1+t^2), h'(t) = 2t/(1+t^2)^2, h''(t) = (2 - 6t^2)/(1+t^2)^3, coordinate-wise.
    h'' ranges over [-1/2, 2]: its minimum -1/2 is at t^2 = 1, its maximum 2 at t = 0."""
    q = 1.0 + w * w
    return w * w / q, 2.0 * w / (q * q), (2.0 - 6.0 * w * w) / (q * q * q)


@dataclass(frozen=True)
class StationaryPoint:
    """A reference stationary point w with its full-gradient norm, the tolerance it was solved to
    and the method (L-BFGS then Newton polishing)."""

    w: np.ndarray
    grad_norm: float
    tolerance: float
    method: str


@dataclass(frozen=True)
class KKTPoint:
    """A reference KKT point (w*, pi*) of min F_0 s.t. Phi_1 - U <= 0 with the residuals of its
    standard KKT conditions (Problem 3, Section III-B: stationarity ||grad F_0 + pi grad Phi_1||, feasibility
    max(Phi_1 - U, 0), complementarity |pi (Phi_1 - U)|), the tolerance required of each and the method."""

    w: np.ndarray
    multiplier: float
    residuals: dict = field(default_factory=dict)
    tolerance: float = KKT_TOL
    method: str = ""


# --------------------------------------------------------------------------- base

class _LinearLogistic(FiniteSumProblem):
    """Logistic-loss finite sums over linear scores with a separable data-free regulariser r(w) =
    sum_k rho(w_k). Subclasses set ``_loss_in_objective`` and implement ``_coord(w)`` returning the
    coordinate-wise (rho, rho', rho'') of f_0's data-free part."""

    _loss_in_objective = True

    def __init__(self, X, y, blocks: FeatureBlocks):
        X, y = check_data(X, y)
        require(bool(np.all((y == 1) | (y == -1))), "y", f"values {np.unique(y)[:5].tolist()}",
                "labels in {-1, +1}")
        self.X, self.y = X, y.astype(np.float64)
        self.n_samples, self.dim = X.shape
        self.blocks = check_blocks(blocks, self.dim)
        self.parameter_blocks = ParameterBlocks.linear(self.blocks)

    # -- the data-free part and its sums
    def _coord(self, w):
        raise NotImplementedError

    def _assemble(self, sw, loss_v, loss_g, reg_v, reg_g):
        """values (..., M+1) and grads (..., M+1, d) from the weighted loss sums and the data-free part (leading
        axes ``...``: one model, or a stack of them in :meth:`full_values_and_grads_stacked`)."""
        if self._loss_in_objective:
            return np.asarray(loss_v + sw * reg_v)[..., None], (loss_g + sw * reg_g)[..., None, :]
        values, grads = np.array([sw * reg_v, loss_v]), np.array([sw * reg_g, loss_g])
        if grads.ndim == 2:                    # one model (every iteration of a run): m is already where it belongs
            return values, grads
        return np.moveaxis(values, 0, -1), np.moveaxis(grads, 0, -2)   # m: the last axis of values, the one before d

    def _batch_sums(self, omega, index, weights):
        Xb = self.X[index]
        loss, dloss = _loss_and_slope(Xb @ omega, self.y[index])
        rv, rg, _ = self._coord(omega)
        return self._assemble(weights.sum(), weights @ loss, (weights * dloss) @ Xb, rv.sum(), rg)

    def full_values_and_grads_stacked(self, omegas, rows: int = 512):
        """(values (T, M+1), grads (T, M+1, d)): :meth:`full_values_and_grads` at every row of ``omegas`` (T, d),
        ``rows`` models at a time, each block one (rows, N) matrix of scores (the monitor of ``ssca.convergence``
        evaluates every iterate of a run at once). The same sums as the one-model method, in matrix-product form:
        equal up to rounding."""
        omegas = np.asarray(omegas, dtype=np.float64)
        require(omegas.ndim == 2 and omegas.shape[1] == self.dim and bool(np.isfinite(omegas).all()), "omegas",
                f"array of shape {omegas.shape}", f"a finite (T, d) array with d = {self.dim}")
        require(is_int(rows) and rows >= 1, "rows", rows, "an integer >= 1")
        weights = np.full(self.n_samples, 1.0 / self.n_samples)
        values, grads = [], []
        for lo in range(0, omegas.shape[0], rows):
            W = omegas[lo:lo + rows]
            loss, dloss = _loss_and_slope(W @ self.X.T, self.y)
            rv, rg, _ = self._coord(W)
            v, g = self._assemble(weights.sum(), loss @ weights, (dloss * weights) @ self.X, rv.sum(axis=1), rg)
            values.append(v)
            grads.append(g)
        return np.concatenate(values), np.concatenate(grads)

    def _block_batch_sums(self, omega, index, weights):
        blocks = self.blocks
        Xg = blocks.gather(self.X[index])                          # (b, I, kmax): own columns of client i
        wg = omega[blocks.index] * blocks.mask                     # (I, kmax): w_i
        partial = np.einsum("bik,ik->bi", Xg, wg)                  # h_{0,i}: partial scores x_{n,i}^T w_i
        s = partial.sum(axis=1)                                    # g_0 sums the partial scores
        loss, dloss = _loss_and_slope(s, self.y[index])
        client_g = np.einsum("b,bik->ik", weights * dloss, Xg)     # (17): dg/dh_{0,i} times own features
        rv, rg, _ = self._coord(wg)                                # each client's own regulariser part
        reg_v = float(np.sum(rv * blocks.mask))                    # sum of the clients' partial values
        return self._assemble(weights.sum(), weights @ loss, blocks.scatter(client_g), reg_v,
                              blocks.scatter(rg * blocks.mask))

    def _stacked_objective_grads(self, omegas, index, weights):
        sw = weights.sum(axis=1)[:, None]
        _, rg, _ = self._coord(omegas)
        if not self._loss_in_objective:
            return sw * rg
        Xb = self.X[index]                                         # (I, b, d)
        s = np.matmul(Xb, omegas[:, :, None])[..., 0]
        _, dloss = _loss_and_slope(s, self.y[index])
        return np.matmul((weights * dloss)[:, None, :], Xb)[:, 0, :] + sw * rg

    # -- exact full-data quantities for the reference solvers and constants
    def _full_loss(self, w):
        loss, dloss, d2 = _loss_and_derivatives(self.X @ w, self.y)
        n = self.n_samples
        return loss.mean(), self.X.T @ dloss / n, (self.X.T * (d2 / n)) @ self.X

    def _full_reg(self, w):
        rv, rg, rh = self._coord(w)
        return float(rv.sum()), rg, np.diag(rh)

    def gram_top_eigenvalue(self) -> float:
        """lambda_max(X^T X / N) (LAPACK, exact up to rounding)."""
        return float(scipy.linalg.eigvalsh(self.X.T @ self.X / self.n_samples)[-1])

    def lipschitz_gradients(self) -> np.ndarray:
        """(M+1,) global Lipschitz constants of grad F_0 and grad Phi_1 on R^d (see the subclass)."""
        raise NotImplementedError

    def lipschitz_gradient(self) -> float:
        """The global Lipschitz constant of grad F_0 (element 0 of :meth:`lipschitz_gradients`)."""
        return float(self.lipschitz_gradients()[0])


class _Unconstrained(_LinearLogistic):
    n_constraints = 0
    exact_objective_weight = None

    def __init__(self, X, y, reg, blocks):
        require(is_real(reg) and reg > 0, "reg", reg, "a finite number > 0")
        super().__init__(X, y, blocks)
        self.reg = float(reg)
        self.constraint_levels = np.zeros(0)

    def _objective(self, w):
        lv, lg, lh = self._full_loss(w)
        rv, rg, rh = self._full_reg(w)
        return lv + rv, lg + rg, lh + rh

    def reference_stationary_point(self, w0=None) -> StationaryPoint:
        """A stationary point of F_0 near w0 (default 0): scipy L-BFGS-B, then damped Newton steps
        with the exact Hessian until ||grad F_0|| <= 1e-10 (``STATIONARY_TOL``, recorded).
        Raises :class:`ReferenceSolveError` if the tolerance is not reached."""
        w0 = np.zeros(self.dim) if w0 is None else check_omega(w0, self.dim)
        res = scipy.optimize.minimize(lambda w: self._objective(w)[:2], w0, jac=True,
                                      method="L-BFGS-B",
                                      options={"maxiter": 20000, "gtol": 1e-12, "ftol": 0.0})
        w = res.x
        g = self._objective(w)[1]
        for _ in range(50):                       # Newton polishing (quadratic convergence)
            if np.linalg.norm(g) <= STATIONARY_TOL:
                break
            _, g, H = self._objective(w)
            step = np.linalg.lstsq(H, g, rcond=None)[0]
            t = 1.0
            while t > 1e-8:
                g_new = self._objective(w - t * step)[1]
                if np.linalg.norm(g_new) < np.linalg.norm(g):
                    w, g = w - t * step, g_new
                    break
                t /= 2
            else:
                break
        norm = float(np.linalg.norm(g))
        if not norm <= STATIONARY_TOL:
            raise ReferenceSolveError(f"{type(self).__name__}: stationary point not found to "
                                      f"||grad|| <= {STATIONARY_TOL} (reached {norm:.3e})")
        return StationaryPoint(w, norm, STATIONARY_TOL, "scipy L-BFGS-B + Newton polish")


class NonconvexLogistic(_Unconstrained):
    """f_0(w, x_n) = log(1 + exp(-y_n x_n^T w)) + reg sum_k w_k^2/(1 + w_k^2), reg > 0; M = 0.

    Nonconvex for every reg > 0 (generic data): along w = t e_k with |t| large the loss curvature
    decays exponentially while reg h''(t) ~ -6 reg / t^4 < 0 decays only polynomially. ``lipschitz_gradient()`` is the exact
    global constant L_hat of grad F_0 given below. Feature-based: partial scores per client, the
    regulariser split by blocks, no server block (d_0 = 0), see the module docstring."""

    def _coord(self, w):
        h, dh, d2h = _bounded_square(w)
        return self.reg * h, self.reg * dh, self.reg * d2h

    def lipschitz_gradients(self) -> np.ndarray:
        """L_hat = lambda_max(X^T X)/(4N) + 2 reg.

        Derivation: grad^2 F_0(w) = (1/N) X^T diag(l''_n) X + reg diag(h''(w_k)) with
        0 < l'' = expit(m)expit(-m) <= 1/4 and h'' in [-1/2, 2], so every Hessian eigenvalue lies in
        [-reg/2, lambda_max(X^T X)/(4N) + 2 reg]; the upper end bounds |eigenvalue| and is attained
        at w = 0 (l''(0) = 1/4, h''(0) = 2), so it is the exact global constant (no smaller one
        holds)."""
        return np.array([self.gram_top_eigenvalue() / 4.0 + 2.0 * self.reg])


class LogisticL2(_Unconstrained):
    """f_0(w, x_n) = log(1 + exp(-y_n x_n^T w)) + reg ||w||^2, reg > 0; M = 0. Strongly convex with
    modulus 2 reg, so the stationary point is unique (the minimiser)."""

    def _coord(self, w):
        return self.reg * w * w, 2.0 * self.reg * w, np.full(np.shape(w), 2.0 * self.reg)

    def lipschitz_gradients(self) -> np.ndarray:
        """lambda_max(X^T X)/(4N) + 2 reg (the Hessian bound l'' <= 1/4, attained at w = 0)."""
        return np.array([self.gram_top_eigenvalue() / 4.0 + 2.0 * self.reg])

    def strong_convexity(self) -> float:
        """2 reg (a valid modulus on R^d; the loss part has curvature tending to 0 at infinity)."""
        return 2.0 * self.reg


class _LossLimited(_LinearLogistic):
    """min F_0(w) s.t. Phi_1(w) = (1/N) sum_n l(x_n^T w, y_n) <= U with a data-free F_0."""

    _loss_in_objective = False
    n_constraints = 1

    def __init__(self, X, y, U, blocks):
        require(is_real(U) and U > 0, "U", U,
                "a finite number > 0 (the loss limit; the logistic loss is positive, and U must also "
                "exceed the minimal achievable loss for feasibility, which is the caller's job)")
        super().__init__(X, y, blocks)
        self.U = float(U)
        self.constraint_levels = np.array([self.U])

    def loss_minimiser(self) -> np.ndarray:
        """argmin_w Phi_1(w): scipy L-BFGS-B on the convex logistic loss from 0 to gradient inf-norm 1e-12 (attained
        for non-separable data; for separable data the infimum 0 is not attained)."""
        res = scipy.optimize.minimize(lambda w: self._full_loss(w)[:2], np.zeros(self.dim), jac=True,
                                      method="L-BFGS-B",
                                      options={"maxiter": 20000, "gtol": 1e-12, "ftol": 0.0})
        return np.asarray(res.x, dtype=np.float64)

    def minimal_loss(self) -> float:
        """min_w Phi_1(w), the smallest admissible level (U must exceed it for Slater's condition), at
        :meth:`loss_minimiser`."""
        return float(self._full_loss(self.loss_minimiser())[0])

    def _kkt_parts(self, w):
        fv, fg, fh = self._full_reg(w)
        lv, lg, lh = self._full_loss(w)
        return fv, fg, fh, lv, lg, lh

    def kkt_residuals(self, w, pi: float) -> dict:
        """Residuals of the (standard) KKT conditions of Problem 3 (Section III-B) at (w, pi): stationarity,
        feasibility, complementarity, and dual feasibility max(-pi, 0)."""
        w = check_omega(w, self.dim)
        _, fg, _, lv, lg, _ = self._kkt_parts(w)
        return {"stationarity": float(np.linalg.norm(fg + pi * lg)),
                "feasibility": max(lv - self.U, 0.0),
                "complementarity": abs(pi * (lv - self.U)),
                "dual_feasibility": max(-pi, 0.0)}

    def _polish(self, w, pi):
        """Damped Newton on the active-constraint KKT system grad F_0 + pi grad Phi = 0, Phi = U."""
        def residual(w, pi):
            _, fg, fh, lv, lg, lh = self._kkt_parts(w)
            return np.concatenate([fg + pi * lg, [lv - self.U]]), fh + pi * lh, lg

        r, H, g = residual(w, pi)
        for _ in range(50):
            if np.max(np.abs(r)) <= KKT_TOL * 1e-2:
                break
            jac = np.block([[H, g[:, None]], [g[None, :], np.zeros((1, 1))]])
            step = np.linalg.lstsq(jac, r, rcond=None)[0]
            t = 1.0
            while t > 1e-8:
                w_new, pi_new = w - t * step[:-1], pi - t * step[-1]
                r_new, H_new, g_new = residual(w_new, pi_new)
                if np.linalg.norm(r_new) < np.linalg.norm(r):
                    w, pi, r, H, g = w_new, pi_new, r_new, H_new, g_new
                    break
                t /= 2
            else:
                break
        return w, float(pi)

    def _finish_kkt(self, w, pi, method):
        res = self.kkt_residuals(w, pi)
        if not max(res.values()) <= KKT_TOL:
            raise ReferenceSolveError(f"{type(self).__name__}: KKT point not found to tolerance "
                                      f"{KKT_TOL} (residuals {res})")
        return KKTPoint(np.asarray(w, dtype=np.float64), float(pi), res, KKT_TOL, method)

    def _zero_if_feasible(self):
        """Both objectives are minimised only at w = 0 (their gradient vanishes only there); if
        Phi_1(0) = log 2 <= U, w = 0 is feasible and (0, pi = 0) is the KKT point."""
        if np.log(2.0) <= self.U:
            return self._finish_kkt(np.zeros(self.dim), 0.0, "w = 0 is feasible (U >= log 2)")
        return None


class NormWithLossLimit(_LossLimited):
    """Mirrors (37) on logistic regression: min ||w||^2 s.t. (1/N) sum_n l(x_n^T w, y_n) - U <= 0.

    f_0(w, x) = ||w||^2 for every x: ``exact_objective_weight = 1.0``, values[0] = ||w||^2 sum w_n,
    grads[0] = 2 w sum w_n; M = 1, phi_1 = l, ``constraint_levels = [U]``. Convex; for
    non-separable data the feasible set is compact. U > 0 is checked; U > min_w Phi_1(w) (strict
    feasibility, Slater) is the user's job (the solver reports infeasibility otherwise)."""

    exact_objective_weight = 1.0

    def _coord(self, w):
        return w * w, 2.0 * w, np.full(np.shape(w), 2.0)

    def lipschitz_gradients(self) -> np.ndarray:
        """[2, lambda_max(X^T X)/(4N)] (objective 2 I; loss Hessian <= X^T X/(4N), attained at 0)."""
        return np.array([2.0, self.gram_top_eigenvalue() / 4.0])

    def reference_kkt_point(self) -> KKTPoint:
        """The unique KKT point (w*, pi*) by cvxpy with Clarabel (``cp.logistic``), then Newton
        polishing of the KKT system so the residuals are <= 1e-10 (``KKT_TOL``, recorded); pi* is
        the multiplier of the loss constraint."""
        import cvxpy as cp

        zero = self._zero_if_feasible()
        if zero is not None:
            return zero
        w = cp.Variable(self.dim)
        margins = cp.multiply(-self.y, self.X @ w)
        con = cp.sum(cp.logistic(margins)) / self.n_samples <= self.U
        prob = cp.Problem(cp.Minimize(cp.sum_squares(w)), [con])
        prob.solve(solver=cp.CLARABEL)
        if prob.status not in ("optimal", "optimal_inaccurate") or w.value is None:
            raise ReferenceSolveError(f"NormWithLossLimit: cvxpy/Clarabel status {prob.status!r} "
                                      f"(U={self.U} may be below the minimal achievable loss)")
        w_star, pi = self._polish(np.asarray(w.value, dtype=np.float64), float(con.dual_value))
        return self._finish_kkt(w_star, pi, "cvxpy Clarabel + KKT Newton polish")


class NonconvexWithLossLimit(_LossLimited):
    """min F_0(w) = reg sum_k w_k^2/(1+w_k^2) + 0.05 ||w||^2 s.t. (1/N) sum_n l(x_n^T w, y_n) <= U.

    f_0 is data-free but not a multiple of ||w||^2, so ``exact_objective_weight`` is None and the
    algorithms use the surrogate (7) for it. Nonconvex objective for reg > 0.2 (its coordinate
    curvature reg h'' + 0.1 reaches 0.1 - reg/2 at w_k = +-1; the default reg = 1 gives the brief's
    f_0 = sum h(w_k) + 0.05 ||w||^2); convex constraint set, compact for non-separable data. M = 1,
    ``constraint_levels = [U]``."""

    QUADRATIC = 0.05
    exact_objective_weight = None

    def __init__(self, X, y, U, reg: float = 1.0, blocks: FeatureBlocks | None = None):
        require(is_real(reg) and reg > 0, "reg", reg, "a finite number > 0")
        require(blocks is not None, "blocks", blocks, "a FeatureBlocks (e.g. contiguous_blocks(d, I))")
        super().__init__(X, y, U, blocks)
        self.reg = float(reg)

    def _coord(self, w):
        h, dh, d2h = _bounded_square(w)
        q = self.QUADRATIC
        return self.reg * h + q * w * w, self.reg * dh + 2 * q * w, self.reg * d2h + 2 * q

    def lipschitz_gradients(self) -> np.ndarray:
        """[2 reg + 0.1, lambda_max(X^T X)/(4N)]: the objective's coordinate curvature
        reg h'' + 0.1 lies in [0.1 - reg/2, 2 reg + 0.1] (h'' in [-1/2, 2]) and the upper end is
        attained at 0 and dominates |lower end|."""
        return np.array([2.0 * self.reg + 2 * self.QUADRATIC, self.gram_top_eigenvalue() / 4.0])

    def reference_kkt_point(self, w0=None) -> KKTPoint:
        """A KKT point near w0 (a local solution in general: the objective is nonconvex): scipy
        SLSQP from w0 (default: a feasible point obtained by scaling the L2-logistic minimiser),
        then Newton polishing of the KKT system to residuals <= 1e-10 (``KKT_TOL``)."""
        zero = self._zero_if_feasible()
        if zero is not None:
            return zero
        if w0 is None:
            w0 = LogisticL2(self.X, self.y, 1e-6, self.blocks).reference_stationary_point().w
        w0 = check_omega(w0, self.dim)
        res = scipy.optimize.minimize(
            lambda w: self._full_reg(w)[:2], w0, jac=True, method="SLSQP",
            constraints=[{"type": "ineq", "fun": lambda w: self.U - self._full_loss(w)[0],
                          "jac": lambda w: -self._full_loss(w)[1]}],
            options={"maxiter": 2000, "ftol": 1e-14})
        w = res.x
        _, fg, _, _, lg, _ = self._kkt_parts(w)
        pi = float(max(-(fg @ lg) / max(lg @ lg, 1e-300), 0.0))   # least-squares multiplier
        w, pi = self._polish(w, pi)
        return self._finish_kkt(w, pi, "scipy SLSQP + KKT Newton polish")
