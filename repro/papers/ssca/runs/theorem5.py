"""Theorem 5 (equivalence of the regularised problem (27) and the cost-limited problem (37)) on a tiny swish
network whose local solutions can be computed to high accuracy (Section V-C, proof in Appendix D; the
instance is this project's choice, the paper runs none).

Instance: K = J = 3 inputs and hidden units, L = 2 classes, N = 30 samples x ~ N(0, I), labels of a random
teacher network of the same shape (so low costs are reachable); d = 15.

(i)  For each lambda in ``LAMBDAS``: a local minimiser w* of (27) F + lambda ||w||^2 by BFGS (gradient norm
     <= 1e-9), certified by the Hessian (central differences of the analytic gradient) being positive
     definite; U = F(w*) as in the proof. Local optimality of w* for (37) is probed in the ball
     ||w - w*|| <= ``RADIUS``: SLSQP on min ||w||^2 s.t. F(w) <= U and the ball, from ``STARTS`` perturbed
     starts, plus ``PROBES`` random points of the ball kept if feasible. The observed violation is
     max(0, ||w*||^2 - min over the feasible points found of ||w||^2).
(ii) For each U in ``LIMIT_FRACTIONS`` (fractions of the way from the cost reached by BFGS on F, from a random
     start, to F(0) = log 2): a local solution w+ of (37) by scipy's trust-constr from feasible starts (SLSQP
     stalls there: the cost minimiser has a large norm), its multiplier xi from the stationarity equation 2 w + xi grad F = 0 (least squares), lambda =
     1 / xi, the stationarity residual ||grad F(w+) + 2 lambda w+|| of (27), the smallest eigenvalue of
     Hess F + lambda I (the theorem's sufficient condition, as printed) and of Hess F + 2 lambda I (the Hessian
     of (27)'s objective), and whether w+ is a local minimiser of (27) by that second-order test.

One run's config is a :class:`Theorem5Config` (defaults: the constants above); the specs are built through it.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import optimize

from repro.errors import is_int, is_real, require
from repro.papers.ssca.problems import swish_network as SN
from repro.runner import RunSpec
from repro.experiment import Config

LAMBDAS = (1e-3, 1e-2, 1e-1)
LIMIT_FRACTIONS = (0.2, 0.4, 0.6)
RADIUS = 1e-2
STARTS = {"quick": 3, "paper": 8}          # local solver starts per instance (each trust-constr solve ~1 s)
PROBES = 4000
SEEDS = {"quick": 3, "paper": 20}


def _reals(values, low: float, high: float = np.inf) -> bool:
    return (isinstance(values, (list, tuple)) and len(values) >= 1
            and all(is_real(v) and low < v < high for v in values))


@dataclass(frozen=True)
class Theorem5Config(Config):
    """One ``ssca.theorem5`` run: the lambdas of part (i), the ``limit_fractions`` of part (ii), the ball
    ``radius`` and the number of random ``probes`` of part (i), the local solver ``starts`` per instance, and
    the ``profile``."""

    starts: int
    profile: str
    lambdas: tuple | list = LAMBDAS
    limit_fractions: tuple | list = LIMIT_FRACTIONS
    radius: float = RADIUS
    probes: int = PROBES

    def __post_init__(self) -> None:
        require(_reals(self.lambdas, 0.0), "lambdas", self.lambdas, "a non-empty list of numbers > 0")
        require(_reals(self.limit_fractions, 0.0, 1.0), "limit_fractions", self.limit_fractions,
                "a non-empty list of numbers in (0, 1)")
        require(is_real(self.radius) and self.radius > 0, "radius", self.radius, "a finite number > 0")
        require(is_int(self.starts) and self.starts >= 1, "starts", self.starts, "an integer >= 1")
        require(is_int(self.probes) and self.probes >= 0, "probes", self.probes, "an integer >= 0")


class TinyNet:
    """F (25) and its gradient on the whole sample (weights 1/N), via the analytic batch statistics."""

    def __init__(self, rng: np.random.Generator, n: int = 30):
        self.net = SN.SwishNetwork(3, 3, 2)
        self.X = rng.normal(size=(n, 3))
        teacher = self.net.init(rng, scheme="normal_fan_in") * 3.0
        W1, W2 = self.net.unpack(teacher)
        self.y = np.argmax(SN.swish(self.X @ W1.T) @ W2.T, axis=1)
        self.w = np.full(n, 1.0 / n)
        self._last: tuple[bytes, float, np.ndarray] | None = None

    def value_grad(self, omega: np.ndarray) -> tuple[float, np.ndarray]:
        """(F, grad F) at ``omega``. The last point's pair is kept: scipy's constrained solvers ask for a
        constraint's value and its gradient at the same point in separate calls (half of the calls of a run)."""
        omega = np.asarray(omega, dtype=np.float64)
        key = omega.tobytes()
        if self._last is None or self._last[0] != key:
            W1, W2 = self.net.unpack(omega)
            s = SN.batch_statistics(self.net, W1, W2, self.X, self.y, self.w)
            self._last = (key, float(s.cross_entropy), self.net.pack(s.theta1, s.theta2))
        return self._last[1], self._last[2].copy()

    def hessian(self, omega: np.ndarray, h: float = 1e-5) -> np.ndarray:
        d = omega.size
        H = np.empty((d, d))
        for k in range(d):                          # d = 15 central differences of the analytic gradient
            e = np.zeros(d)
            e[k] = h
            H[:, k] = (self.value_grad(omega + e)[1] - self.value_grad(omega - e)[1]) / (2 * h)
        return (H + H.T) / 2


def _part_i(tiny: TinyNet, lam: float, cfg: Theorem5Config, rng: np.random.Generator) -> dict:
    def obj(w):
        f, g = tiny.value_grad(w)
        return f + lam * w @ w, g + 2 * lam * w

    res = optimize.minimize(obj, tiny.net.init(rng), jac=True, method="BFGS", options={"gtol": 1e-10, "maxiter": 20000})
    w_star = res.x
    U = tiny.value_grad(w_star)[0]
    hess_min = float(np.linalg.eigvalsh(tiny.hessian(w_star) + 2 * lam * np.eye(w_star.size)).min())
    best = float(w_star @ w_star)
    radius = cfg.radius
    cons = [{"type": "ineq", "fun": lambda w: U - tiny.value_grad(w)[0], "jac": lambda w: -tiny.value_grad(w)[1]},
            {"type": "ineq", "fun": lambda w: radius**2 - (w - w_star) @ (w - w_star),
             "jac": lambda w: -2 * (w - w_star)}]
    for _ in range(cfg.starts):
        start = w_star + rng.normal(size=w_star.size) * radius / (2 * np.sqrt(w_star.size))
        sol = optimize.minimize(lambda w: (w @ w, 2 * w), start, jac=True, method="SLSQP", constraints=cons,
                                options={"ftol": 1e-14, "maxiter": 1000})
        if sol.success and tiny.value_grad(sol.x)[0] <= U + 1e-12 and np.linalg.norm(sol.x - w_star) <= radius * (1 + 1e-9):
            best = min(best, float(sol.x @ sol.x))
    directions = rng.normal(size=(cfg.probes, w_star.size))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    probes = w_star + radius * directions * rng.random((cfg.probes, 1)) ** (1 / w_star.size)   # uniform in the ball
    feasible = [p for p in probes if tiny.value_grad(p)[0] <= U]
    if feasible:
        best = min(best, float(min(p @ p for p in feasible)))
    return {"lam": lam, "grad_norm": float(np.linalg.norm(obj(w_star)[1])), "hess_min_27": hess_min, "U": U,
            "norm_sq": float(w_star @ w_star), "violation": max(0.0, float(w_star @ w_star) - best),
            "n_feasible_probes": len(feasible)}


def _part_ii(tiny: TinyNet, fraction: float, w_min: np.ndarray, starts: int, rng: np.random.Generator) -> dict:
    """trust-constr from feasible starts (perturbations of the cost minimiser w_min, F(w_min) < U); the best feasible
    end point is kept (NaN row if none is feasible)."""
    f_min = tiny.value_grad(w_min)[0]
    U = f_min + fraction * (np.log(2.0) - f_min)
    cons = optimize.NonlinearConstraint(lambda w: tiny.value_grad(w)[0], -np.inf, U, jac=lambda w: tiny.value_grad(w)[1])
    best = None
    for _ in range(starts):
        start = w_min * (1 + 0.05 * rng.normal(size=w_min.size))
        with warnings.catch_warnings():      # quasi-Newton "delta_grad == 0" notices near convergence
            warnings.simplefilter("ignore", UserWarning)
            sol = optimize.minimize(lambda w: w @ w, start, jac=lambda w: 2 * w, method="trust-constr",
                                    constraints=[cons], options={"gtol": 1e-12, "xtol": 1e-14, "maxiter": 5000})
        feasible = tiny.value_grad(sol.x)[0] <= U + 1e-8
        if feasible and (best is None or sol.fun < best.fun):
            best = sol
    if best is None:
        nan = float("nan")
        return {"U": float(U), "constraint": nan, "xi": nan, "lam": nan, "kkt_residual_37": nan,
                "stationarity_27": nan, "hess_min_printed": nan, "hess_min_27": nan}
    w = best.x
    f, g = tiny.value_grad(w)
    xi = float(-(2 * w) @ g / (g @ g))                    # least squares in 2 w + xi grad F = 0
    lam = 1.0 / xi if xi > 0 else np.nan
    H = tiny.hessian(w)
    return {"U": float(U), "constraint": float(f - U), "xi": xi, "lam": lam,
            "kkt_residual_37": float(np.linalg.norm(2 * w + xi * g)),
            "stationarity_27": float(np.linalg.norm(g + 2 * lam * w)),
            "hess_min_printed": float(np.linalg.eigvalsh(H + lam * np.eye(w.size)).min()),
            "hess_min_27": float(np.linalg.eigvalsh(H + 2 * lam * np.eye(w.size)).min())}


def run_theorem5(config: Theorem5Config, seed: int):
    rng = np.random.default_rng(np.random.SeedSequence([seed, 5]))
    tiny = TinyNet(rng)
    part_i = [_part_i(tiny, lam, config, rng) for lam in config.lambdas]
    w_min = optimize.minimize(tiny.value_grad, tiny.net.init(rng) * 3, jac=True, method="BFGS",
                              options={"gtol": 1e-9, "maxiter": 5000}).x
    f_min = tiny.value_grad(w_min)[0]
    part_ii = [_part_ii(tiny, fr, w_min, config.starts, rng) for fr in config.limit_fractions]
    arrays = {f"i_{k}": np.array([row[k] for row in part_i], float) for k in part_i[0]}
    arrays |= {f"ii_{k}": np.array([row[k] for row in part_ii], float) for k in part_ii[0]}
    return arrays, {"f_min": float(f_min)}


def theorem5_specs(profile: str) -> list[RunSpec]:
    config = Theorem5Config(lambdas=list(LAMBDAS), limit_fractions=list(LIMIT_FRACTIONS), radius=RADIUS,
                            starts=STARTS[profile], probes=PROBES, profile=profile)
    return [RunSpec("ssca.theorem5", config, s, run_theorem5) for s in range(SEEDS[profile])]
