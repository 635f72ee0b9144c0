"""Linear-regression test bed for FedCLUP's Section 4, with every quantity in closed form (a choice the
paper leaves open -- its own linear-regression settings, Appendix D.3.1, are not recovered; this project's
default).

Model and loss (derived here). Client i holds n samples z = (x, y) with

    y = x^T w*_i + eps,   eps ~ N(0, s^2) i.i.d., independent of x,
    loss(w; (x, y)) = (1/2)(x^T w - y)^2,
    L_i(w) = (1/2n)||X_i w - y_i||^2 = (1/2) w^T A_i w - b_i^T w + c_i,
    A_i = X_i^T X_i / n,  b_i = X_i^T y_i / n,  c_i = ||y_i||^2 / (2n),  grad L_i(w) = A_i w - b_i.

Assumptions and what holds exactly:

* Feature covariance Sigma = diag(spectrum) (diagonal without loss of generality: the problem is
  rotation invariant, so any covariance is a rotation of a diagonal one).
* ``design="gaussian"``: the rows of X_i are i.i.d. N(0, Sigma). Assumptions 1-2 ((6), (7))
  hold with the *realised* constants mu = min_i lambda_min(A_i), L = max_i lambda_max(A_i)
  (:func:`realised_constants`; Assumption 2 of Section 4.1 is stated for the empirical loss, so mu
  is a property of the draw).
* ``design="whitened"``: X_i = Z_i (Z_i^T Z_i / n)^{-1/2} Sigma^{1/2} with Z_i an n x d standard
  Gaussian matrix, so A_i = X_i^T X_i / n = Sigma exactly on every draw (needs n >= d) and
  mu = min(spectrum), L = max(spectrum) exactly. The rows are no longer independent, but
  (1/n) sum_j ||x_ij||^2 = tr(Sigma) exactly.
* Assumption 3 (Section 4.1) with equality: grad loss(w*_i; z) = -x eps, so
  E||grad loss(w*_i; z)||^2 = s^2 E||x||^2 = s^2 tr(Sigma) = rho^2, and
  E||grad L_i(w*_i)||^2 = E||X_i^T eps_i||^2 / n^2 = s^2 tr(Sigma) / n = rho^2 / n for both designs.
* The ground truths lie exactly on the sphere of radius R around their mean (this project's construction), so the
  instance is on the boundary of the parameter space P(R) of (5) with p_i = 1/m.

Array conventions: ``reps`` Monte-Carlo repetitions and the m clients are leading axes; a grid of
Lambda personalization values lambda is an axis placed before the client axis. Everything is
vectorised with batched LAPACK calls (``np.linalg.solve``, ``np.linalg.eigh``/``eigvalsh``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from repro.errors import is_int, is_real, require
from repro.papers.fedclup.problems.stacked_clients import StackedClients

DESIGNS = ("gaussian", "whitened")

__all__ = [
    "DESIGNS",
    "LinRegInstance",
    "PATHWISE_KEYS",
    "draw",
    "envelope_hessians",
    "envelope_values",
    "global_train",
    "ground_truth",
    "local_train",
    "pathwise_quantities",
    "prox",
    "realised_constants",
    "solve_pfl",
    "stacked_clients",
]


@dataclass(frozen=True)
class LinRegInstance:
    """One instance of the linear-regression test bed (module docstring for the model).

    m (>= 2) clients, n (>= 1) samples each, dimension d (>= 1), heterogeneity radius R (>= 0) of
    (5), noise standard deviation ``noise`` = s (>= 0), ``spectrum`` = the d positive eigenvalues of
    the feature covariance Sigma = diag(spectrum), ``design`` in {"gaussian", "whitened"}
    ("whitened" requires n >= d).
    """

    m: int
    n: int
    d: int
    R: float
    noise: float
    spectrum: tuple
    design: str = "gaussian"

    def __post_init__(self):
        require(is_int(self.m) and self.m >= 2, "m", self.m, "an integer >= 2 (number of clients)")
        require(is_int(self.n) and self.n >= 1, "n", self.n, "an integer >= 1 (samples per client)")
        require(is_int(self.d) and self.d >= 1, "d", self.d, "an integer >= 1 (dimension)")
        require(is_real(self.R) and self.R >= 0, "R", self.R, "a finite number >= 0")
        require(is_real(self.noise) and self.noise >= 0, "noise", self.noise, "a finite number >= 0")
        try:
            eigenvalues = tuple(float(v) for v in np.asarray(self.spectrum, dtype=np.float64).reshape(-1))
        except (TypeError, ValueError):
            eigenvalues = None
        require(eigenvalues is not None and len(eigenvalues) == self.d
                and all(np.isfinite(v) and v > 0 for v in eigenvalues),
                "spectrum", self.spectrum, f"{self.d} finite positive eigenvalues of Sigma (one per dimension)")
        require(self.design in DESIGNS, "design", self.design, f"one of {', '.join(DESIGNS)}")
        require(self.design != "whitened" or self.n >= self.d, "n", self.n,
                f"n >= d = {self.d} for the whitened design (Z_i^T Z_i must be invertible)")
        object.__setattr__(self, "m", int(self.m))
        object.__setattr__(self, "n", int(self.n))
        object.__setattr__(self, "d", int(self.d))
        object.__setattr__(self, "R", float(self.R))
        object.__setattr__(self, "noise", float(self.noise))
        object.__setattr__(self, "spectrum", eigenvalues)

    @property
    def sigma(self) -> np.ndarray:
        """The feature covariance Sigma = diag(spectrum), shape (d, d)."""
        return np.diag(np.asarray(self.spectrum))

    @property
    def rho_sq(self) -> float:
        """rho^2 = s^2 tr(Sigma): E||grad loss(w*_i; z)||^2 = E||x eps||^2 (Assumption 3, equality)."""
        return self.noise ** 2 * float(np.sum(self.spectrum))

    @property
    def mu_design(self) -> float:
        """min(spectrum): the exact mu of the whitened design (population value for the gaussian one)."""
        return float(min(self.spectrum))

    @property
    def L_design(self) -> float:
        """max(spectrum): the exact L of the whitened design (population value for the gaussian one)."""
        return float(max(self.spectrum))

    @property
    def kappa(self) -> float:
        """kappa = L_design / mu_design."""
        return self.L_design / self.mu_design


def _unit_rows(rng: np.random.Generator, k: int, d: int) -> np.ndarray:
    """k directions uniform on the unit sphere of R^d, shape (k, d)."""
    v = rng.standard_normal((k, d))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def ground_truth(inst: LinRegInstance, rng: np.random.Generator, center=None) -> np.ndarray:
    """Local ground truths w*_i, shape (m, d), with ||w*_i - wbar*|| = R for every i and mean wbar*.

    This project's construction (the ground truths exactly on a sphere); (5) of FedCLUP holds with equality
    for every client. Construction (all directions from ``rng``):

    * m even: m/2 antipodal pairs center +- R v_j, v_j uniform on the unit sphere;
    * m odd (m >= 3): one equilateral triangle R (cos t_k e1 + sin t_k e2), t_k = phi + 2 pi k/3, in a
      uniformly random 2-plane span(e1, e2) (needs d >= 2; d = 1 with m odd and R > 0 is impossible
      and raises ConfigError), plus (m - 3)/2 antipodal pairs.

    Each configuration sums to zero, so the mean is ``center`` (up to rounding) and every distance
    to it is R (up to rounding). The clients are then put in a random order. ``center`` (shape (d,))
    defaults to a standard Gaussian vector drawn from ``rng`` (before the directions).
    """
    m, d, R = inst.m, inst.d, inst.R
    if center is None:
        center = rng.standard_normal(d)
    center = np.asarray(center, dtype=np.float64)
    require(center.shape == (d,) and bool(np.all(np.isfinite(center))), "center", center.shape,
            f"a finite vector of shape ({d},)")
    odd = m % 2 == 1
    require(not (odd and d == 1 and R > 0), "d", d,
            "d >= 2 when m is odd and R > 0 (m odd points at distance R around their mean need a plane)")
    offsets = []
    pairs = (m - 3) // 2 if odd else m // 2
    if odd:
        if d >= 2:
            basis, _ = np.linalg.qr(rng.standard_normal((d, 2)))
            phase = rng.uniform(0.0, 2 * math.pi)
            t = phase + 2 * math.pi * np.arange(3) / 3
            tri = np.cos(t)[:, None] * basis[:, 0] + np.sin(t)[:, None] * basis[:, 1]
            tri -= tri.mean(axis=0)                        # remove rounding drift of the sum
            tri /= np.linalg.norm(tri, axis=1, keepdims=True)
        else:                                              # R == 0: the direction is irrelevant
            tri = np.zeros((3, d))
        offsets.append(R * tri)
    if pairs:
        v = R * _unit_rows(rng, pairs, d)
        offsets.append(np.concatenate([v, -v]))
    w = center + np.concatenate(offsets)
    return w[rng.permutation(m)]


def draw(inst: LinRegInstance, rng: np.random.Generator, w_star, reps: int) -> dict:
    """``reps`` independent data sets of the instance (vectorised over repetitions and clients).

    Returns X (reps, m, n, d), y (reps, m, n) with y = X w*_i + eps (eps ~ N(0, s^2) i.i.d.),
    eps (reps, m, n), A = X^T X / n (reps, m, d, d), b = X^T y / n (reps, m, d) and
    c = ||y||^2 / (2n) (reps, m), so that L_i(w) = (1/2) w^T A_i w - b_i^T w + c_i.
    Design: module docstring; "whitened" uses a batched ``eigh`` of Z^T Z / n for the inverse
    square root.
    """
    require(is_int(reps) and reps >= 1, "reps", reps, "an integer >= 1")
    m, n, d = inst.m, inst.n, inst.d
    w_star = np.asarray(w_star, dtype=np.float64)
    require(w_star.shape == (m, d) and bool(np.all(np.isfinite(w_star))), "w_star", w_star.shape,
            f"a finite array of shape (m, d) = ({m}, {d})")
    root = np.sqrt(np.asarray(inst.spectrum))
    Z = rng.standard_normal((reps, m, n, d))
    if inst.design == "gaussian":
        X = Z * root
    else:
        G = np.matmul(np.swapaxes(Z, -1, -2), Z) / n
        evals, evecs = np.linalg.eigh(G)
        inv_sqrt = np.matmul(evecs / np.sqrt(evals)[..., None, :], np.swapaxes(evecs, -1, -2))
        X = np.matmul(Z, inv_sqrt) * root
    eps = inst.noise * rng.standard_normal((reps, m, n))
    y = np.einsum("rknd,kd->rkn", X, w_star) + eps
    A = np.matmul(np.swapaxes(X, -1, -2), X) / n
    A = 0.5 * (A + np.swapaxes(A, -1, -2))
    b = np.einsum("rknd,rkn->rkd", X, y) / n
    c = np.sum(y * y, axis=-1) / (2 * n)
    return {"X": X, "y": y, "eps": eps, "A": A, "b": b, "c": c}


def realised_constants(A) -> dict:
    """mu = min_i lambda_min(A_i) and L = max_i lambda_max(A_i) per repetition (the constants of the derived
    bounds; the per-sample constant max ||x||^2 of Assumption 1 is valid too, but larger).

    A has shape (..., m, d, d); returns arrays of shape (...,) (Assumptions 1-2 on the draw).
    """
    ev = np.linalg.eigvalsh(_matrices(A))
    return {"mu": ev[..., 0].min(axis=-1), "L": ev[..., -1].max(axis=-1)}


# --------------------------------------------------------------------------- validation helpers

def _matrices(A) -> np.ndarray:
    A = np.asarray(A, dtype=np.float64)
    require(A.ndim >= 3 and A.shape[-1] == A.shape[-2] and A.shape[-3] >= 1, "A", A.shape,
            "an array of shape (..., m, d, d)")
    return A


def _vectors(A: np.ndarray, b) -> np.ndarray:
    b = np.asarray(b, dtype=np.float64)
    require(b.shape == A.shape[:-1], "b", b.shape, f"shape (..., m, d) = {A.shape[:-1]}")
    return b


def _broadcasts(shape, target) -> bool:
    """Whether an array of ``shape`` broadcasts to exactly ``target``."""
    try:
        return np.broadcast_shapes(shape, target) == tuple(target)
    except ValueError:
        return False


def _lams(lams) -> np.ndarray:
    lams = np.asarray(lams, dtype=np.float64)
    require(lams.ndim == 1 and lams.size >= 1 and bool(np.all(np.isfinite(lams) & (lams > 0))),
            "lams", lams, "a non-empty 1-d array of finite lambda > 0")
    return lams


def _lam(lam) -> float:
    require(is_real(lam) and lam > 0, "lam", lam, "a finite number > 0")
    return float(lam)


# --------------------------------------------------------------------------- solutions

def solve_pfl(A, b, lams):
    """Exact solution of the PFL problem (2) with p_i = 1/m for each lambda in ``lams``.

    First-order conditions (the paper's (23)-(24)): grad L_i(w_i) = lambda (w_g - w_i) and
    w_g = (1/m) sum_i w_i.
    With grad L_i(w) = A_i w - b_i the first gives w_i = (A_i + lambda I)^{-1}(b_i + lambda w_g);
    averaging and using I - lambda (A_i + lambda I)^{-1} = A_i (A_i + lambda I)^{-1} gives

        [(1/m) sum_i A_i (A_i + lambda I)^{-1}] w_g = (1/m) sum_i (A_i + lambda I)^{-1} b_i,

    the closed form of (2) on quadratics (derived here; the tests check it against the first-order
    conditions). Both (A_i + lambda I)^{-1} A_i and (A_i + lambda I)^{-1} b_i come from one batched
    ``np.linalg.solve`` per lambda grid; the system
    matrix is (1/lambda) times the average envelope Hessian (Lemma 1), positive definite when every
    A_i is. Shapes: A (..., m, d, d), b (..., m, d), lams (Lambda,), every lambda > 0 and finite ->
    w_g (..., Lambda, d), w_loc (..., Lambda, m, d).
    """
    A = _matrices(A)
    b = _vectors(A, b)
    lams = _lams(lams)
    d = A.shape[-1]
    eye = np.eye(d)
    shifted = A[..., None, :, :, :] + lams[:, None, None, None] * eye       # (..., Lam, m, d, d)
    rhs = np.concatenate([np.broadcast_to(A[..., None, :, :, :], shifted.shape),
                          np.broadcast_to(b[..., None, :, :, None], shifted.shape[:-1] + (1,))], axis=-1)
    sol = np.linalg.solve(shifted, rhs)
    M = sol[..., :d].mean(axis=-3)                                          # (..., Lam, d, d)
    r = sol[..., d].mean(axis=-2)                                           # (..., Lam, d)
    w_g = np.linalg.solve(M, r[..., None])[..., 0]
    w_loc = np.linalg.solve(shifted, (b[..., None, :, :] + lams[:, None, None] * w_g[..., None, :])[..., None])
    return w_g, w_loc[..., 0]


def local_train(A, b) -> np.ndarray:
    """LocalTrain (3), the lambda -> 0 limit of (2): w_i = A_i^{-1} b_i, shape (..., m, d)."""
    A = _matrices(A)
    return np.linalg.solve(A, _vectors(A, b)[..., None])[..., 0]


def global_train(A, b) -> np.ndarray:
    """GlobalTrain (4) with p_i = 1/m, the lambda -> infinity limit of (2): (sum_i A_i)^{-1} sum_i b_i,
    shape (..., d)."""
    A = _matrices(A)
    b = _vectors(A, b)
    return np.linalg.solve(A.sum(axis=-3), b.sum(axis=-2)[..., None])[..., 0]


# --------------------------------------------------------------------------- bilevel form (10)-(11)

def prox(A, b, lam, w) -> np.ndarray:
    """Inner minimiser (11): w_*^{(i)}(w) = argmin_v L_i(v) + lam/2 ||w - v||^2
    = (A_i + lam I)^{-1}(b_i + lam w), for all clients at once.

    A (..., m, d, d), b (..., m, d), lam > 0, w of shape (d,) (shared) or broadcastable to
    (..., m, d) (one point per client) -> (..., m, d).
    """
    A = _matrices(A)
    b = _vectors(A, b)
    lam = _lam(lam)
    w = np.asarray(w, dtype=np.float64)
    try:
        rhs = b + lam * w
    except ValueError:
        rhs = None
    require(rhs is not None and rhs.shape == b.shape, "w", w.shape, f"shape (d,) or broadcastable to {b.shape}")
    return np.linalg.solve(A + lam * np.eye(A.shape[-1]), rhs[..., None])[..., 0]


def envelope_values(A, b, c, lam, w) -> np.ndarray:
    """Moreau envelopes (10): F_i(w) = min_v L_i(v) + lam/2 ||w - v||^2, with
    L_i(v) = (1/2) v^T A_i v - b_i^T v + c_i (c_i = ||y_i||^2/(2n) from :func:`draw`), evaluated at
    the minimiser v = :func:`prox`. Shapes as in :func:`prox`, c (..., m) -> (..., m)."""
    A = _matrices(A)
    v = prox(A, b, lam, w)
    b = np.asarray(b, dtype=np.float64)
    c = np.asarray(c, dtype=np.float64)
    require(c.shape == b.shape[:-1], "c", c.shape, f"shape (..., m) = {b.shape[:-1]}")
    quad = 0.5 * np.einsum("...i,...ij,...j->...", v, A, v) - np.einsum("...i,...i->...", b, v)
    return quad + c + 0.5 * float(lam) * np.sum((np.asarray(w, dtype=np.float64) - v) ** 2, axis=-1)


def envelope_hessians(A, lam) -> np.ndarray:
    """Hessians of the envelopes F_i: lam A_i (A_i + lam I)^{-1} (Lemma 1, exact on quadratics;
    eigenvalues lam a/(lam + a) for the eigenvalues a of A_i), shape (..., m, d, d)."""
    A = _matrices(A)
    lam = _lam(lam)
    H = lam * np.linalg.solve(A + lam * np.eye(A.shape[-1]), A)
    return 0.5 * (H + np.swapaxes(H, -1, -2))


# --------------------------------------------------------------------------- pathwise quantities

PATHWISE_KEYS = ("local_gap", "grad_at_global", "delta_local_sq", "grad_star_i", "global_gap_sq", "het_i",
                 "avg_local_sq", "grad_star_sq_avg", "eq33_lhs", "eq33_inner_grad", "eq33_inner_het",
                 "gt_err", "grad_avg_norm")


def _recover_lams(A, b, w_g, w_loc) -> np.ndarray:
    """lambda of each column of an exact solution of (2), from grad L_i(w_i) = lambda (w_g - w_i)."""
    w_loc = np.asarray(w_loc, dtype=np.float64)
    require(w_loc.shape == w_g.shape[:-1] + A.shape[-3:-1], "w_loc", w_loc.shape,
            f"shape {w_g.shape[:-1] + A.shape[-3:-1]}")
    grad = np.einsum("...kij,...lkj->...lki", A, w_loc) - b[..., None, :, :]      # (..., Lam, m, d)
    gap = w_g[..., None, :] - w_loc
    den = np.sum(gap ** 2, axis=(-2, -1))
    require(bool(np.all(den > 0)), "lams", None,
            "the lambda grid (it cannot be recovered when every local model equals the global one)")
    lam = np.sum(grad * gap, axis=(-2, -1)) / den                                    # (..., Lam)
    flat = lam.reshape(-1, lam.shape[-1])
    resid = np.linalg.norm(grad - lam[..., None, None] * gap, axis=(-2, -1))
    scale = np.linalg.norm(grad, axis=(-2, -1)) + lam * np.sqrt(den)
    require(bool(np.all(resid <= 1e-6 * scale)) and bool(np.all(np.abs(flat - flat[0]) <= 1e-6 * np.abs(flat[0]))),
            "lams", None, "the lambda grid (w_g, w_loc do not satisfy the first-order conditions of (2) exactly)")
    return flat[0]


def pathwise_quantities(A, b, w_star, w_g, w_loc, R, mu, lams=None) -> dict:
    """Per-draw quantities entering Lemma 3 (20), Lemma 4 (22), identity (33), (8a) and (8b)
    (Appendix A.2 and A.3; the explicit constants are this project's derivation).

    Inputs: A (..., m, d, d), b (..., m, d), w_star (m, d) or (..., m, d), w_g (..., Lambda, d) and
    w_loc (..., Lambda, m, d) from :func:`solve_pfl`, R the radius of (5) (the ground truths must lie
    in P(R): ||w*_i - wbar*|| <= R, checked up to 1e-9 relative), mu per repetition (shape (...,) or
    scalar; e.g. ``realised_constants(A)["mu"]``) and the lambda grid ``lams`` (Lambda,), which
    "eq33_lhs" needs. If ``lams`` is None it is recovered from the first-order conditions of (2),
    lambda = sum_i <grad L_i(w~_i), w~_g - w~_i> / sum_i ||w~_g - w~_i||^2 per lambda column, which is
    exact for exact solutions (:func:`solve_pfl`); a ConfigError is raised if the recovered value is
    not the same on every repetition or the first-order conditions do not hold (relative residual
    > 1e-6), e.g. for algorithm iterates, which need ``lams``.
    Notation: w~ = solution of (2), wbar* = (1/m) sum_i w*_i, w_GT = GlobalTrain (4),
    grad L_i(w) = A_i w - b_i.

    Returned keys; per-client arrays have shape (..., Lambda, m), aggregated ones (..., Lambda).
    lambda-independent quantities are broadcast to those shapes so claims evaluate elementwise:

    per client (..., Lambda, m):
        "local_gap"       ||w~_i - w~_g||
        "grad_at_global"  ||grad L_i(w~_g)||
        "delta_local_sq"  ||w~_i - w*_i||^2
        "grad_star_i"     ||grad L_i(w*_i)||                     (lambda-independent)
        "het_i"           ||w*_i - wbar*||                       (lambda-independent)
    aggregated (..., Lambda):
        "global_gap_sq"   ||w~_g - wbar*||^2
        "avg_local_sq"    A = (1/m) sum_i ||w~_i - w*_i||^2
        "grad_star_sq_avg" (1/m) sum_i ||grad L_i(w*_i)||^2      (lambda-independent)
        "eq33_lhs"        mu A + lambda (1/m) sum_i ||w~_i - w~_g||^2
        "eq33_inner_grad" -(1/m) sum_i <grad L_i(w*_i), w~_i - w*_i>
        "eq33_inner_het"  (1/m) sum_i <w~_i - w~_g, w*_i - wbar*>
        "gt_err"          ||w_GT - wbar*||                       (lambda-independent)
        "grad_avg_norm"   ||(1/m) sum_i grad L_i(w*_i)||          (lambda-independent)

    (33) then reads eq33_lhs <= eq33_inner_grad + lambda * eq33_inner_het.
    """
    A = _matrices(A)
    b = _vectors(A, b)
    lead, (m, d) = A.shape[:-3], A.shape[-3:-1]
    w_g = np.asarray(w_g, dtype=np.float64)
    require(w_g.ndim == len(lead) + 2 and w_g.shape[:len(lead)] == lead and w_g.shape[-1] == d, "w_g", w_g.shape,
            f"shape {lead + ('Lambda', d)}")
    lams = _lams(_recover_lams(A, b, w_g, w_loc) if lams is None else lams)
    L_ = lams.size
    w_star = np.asarray(w_star, dtype=np.float64)
    require(w_star.ndim >= 2 and w_star.shape[-2:] == (m, d) and _broadcasts(w_star.shape, lead + (m, d)),
            "w_star", w_star.shape, f"shape ({m}, {d}) or {lead + (m, d)}")
    w_star = np.broadcast_to(w_star, lead + (m, d))
    require(w_g.shape == lead + (L_, d), "w_g", w_g.shape, f"shape {lead + (L_, d)}")
    w_loc = np.asarray(w_loc, dtype=np.float64)
    require(w_loc.shape == lead + (L_, m, d), "w_loc", w_loc.shape, f"shape {lead + (L_, m, d)}")
    mu = np.asarray(mu, dtype=np.float64)
    require(_broadcasts(mu.shape, lead) and bool(np.all(np.isfinite(mu))), "mu", mu.shape,
            f"finite values of shape {lead} (one per repetition) or a scalar")
    mu_b = np.broadcast_to(mu, lead)
    w_bar = w_star.mean(axis=-2)                                             # (..., d)
    delta = w_star - w_bar[..., None, :]                                      # (..., m, d)
    het = np.linalg.norm(delta, axis=-1)                                      # (..., m)
    require(is_real(R) and R >= 0, "R", R, "a finite number >= 0")
    require(bool(np.all(het <= R * (1 + 1e-9) + 1e-12)), "R", R,
            f"R >= max_i ||w*_i - wbar*|| = {float(het.max()):.6g} (the instance must lie in P(R), (5))")

    grad_star = np.einsum("...ij,...j->...i", A, w_star) - b                  # (..., m, d)
    grad_global = np.einsum("...kij,...lj->...lki", A, w_g) - b[..., None, :, :]  # (..., Lam, m, d)
    gap = w_loc - w_g[..., None, :]                                            # (..., Lam, m, d)
    Delta = w_loc - w_star[..., None, :, :]                                    # (..., Lam, m, d)
    delta_sq = np.sum(Delta ** 2, axis=-1)
    gap_sq = np.sum(gap ** 2, axis=-1)
    avg_local = delta_sq.mean(axis=-1)
    mu_l = mu_b[..., None]
    w_gt = global_train(A, b)
    full_c, full_a = lead + (L_, m), lead + (L_,)

    def per_client(x):
        return np.ascontiguousarray(np.broadcast_to(x[..., None, :], full_c))

    def aggregated(x):
        return np.ascontiguousarray(np.broadcast_to(x[..., None], full_a))

    return {
        "local_gap": np.sqrt(gap_sq),
        "grad_at_global": np.linalg.norm(grad_global, axis=-1),
        "delta_local_sq": delta_sq,
        "grad_star_i": per_client(np.linalg.norm(grad_star, axis=-1)),
        "global_gap_sq": np.sum((w_g - w_bar[..., None, :]) ** 2, axis=-1),
        "het_i": per_client(het),
        "avg_local_sq": avg_local,
        "grad_star_sq_avg": aggregated(np.mean(np.sum(grad_star ** 2, axis=-1), axis=-1)),
        "eq33_lhs": mu_l * avg_local + lams * gap_sq.mean(axis=-1),
        "eq33_inner_grad": -np.mean(np.sum(grad_star[..., None, :, :] * Delta, axis=-1), axis=-1),
        "eq33_inner_het": np.mean(np.sum(gap * delta[..., None, :, :], axis=-1), axis=-1),
        "gt_err": aggregated(np.linalg.norm(w_gt - w_bar, axis=-1)),
        "grad_avg_norm": aggregated(np.linalg.norm(grad_star.mean(axis=-2), axis=-1)),
    }


def stacked_clients(X, y) -> StackedClients:
    """The data of one repetition, X (m, n, d) and y (m, n), as squared-loss :class:`StackedClients`
    (L_i(w) = (1/2n)||X_i w - y_i||^2, the same L_i as A_i, b_i, c_i), for running algorithms."""
    return StackedClients(X, y, "squared")
