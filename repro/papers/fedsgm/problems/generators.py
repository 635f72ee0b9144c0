"""Seeded random instances of every family, well scaled for property-based tests.

``random_instance(family, rng, *, n_clients, dim, **kw)``; all randomness comes from ``rng``.
Instances have G of order 1-10, data of order 1, and solutions at distance of order 1-10 from
the origin; every instance is feasible with a known Slater point and has a minimiser.
"""
from __future__ import annotations

import numpy as np

from repro.errors import require

from repro.papers.fedsgm.problems.ball import HuberBall, LogisticBall
from repro.papers.fedsgm.problems.base import ConvexLipschitzProblem
from repro.papers.fedsgm.problems.max_affine import MaxAffine
from repro.papers.fedsgm.problems.neyman_pearson import NeymanPearson
from repro.papers.fedsgm.problems.piecewise_linear import PiecewiseLinear1D

__all__ = ["FAMILIES", "random_instance"]


def _int_param(kw: dict, name: str, default: int, lo: int) -> int:
    v = kw.pop(name, default)
    require(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= lo, name, v,
            f"an integer >= {lo}")
    return int(v)


def _pos_param(kw: dict, name: str, default: float) -> float:
    v = kw.pop(name, default)
    require(isinstance(v, (int, float, np.floating, np.integer)) and np.isfinite(v) and v > 0,
            name, v, "a finite number > 0")
    return float(v)


def _unit_rows(rng: np.random.Generator, shape: tuple) -> np.ndarray:
    v = rng.normal(size=shape)
    nrm = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.where(nrm > 0, nrm, 1.0)


def _clip_rows(X: np.ndarray, max_norm: float) -> np.ndarray:
    nrm = np.linalg.norm(X, axis=-1, keepdims=True)
    return X * np.minimum(1.0, max_norm / np.where(nrm > 0, nrm, 1.0))


def _ball(rng: np.random.Generator, n: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Centres around a random cbar and radii with g(cbar) <= -0.5 (a Slater point)."""
    cbar = rng.normal(0.0, 1.0, d)
    centers = cbar + 0.5 * rng.normal(size=(n, d))
    radii = np.linalg.norm(centers - cbar, axis=1) + rng.uniform(0.5, 2.0, n)
    return centers, radii


def _piecewise_linear_1d(rng, n, d, kw):
    require(d == 1, "dim", d, "dim == 1 for piecewise_linear_1d")
    G = _pos_param(kw, "G", float(rng.uniform(1.0, 10.0)))
    a = rng.normal(0.0, 3.0, n)
    b = rng.normal(0.0, 3.0, n)
    return PiecewiseLinear1D(a, b, G), {"G": G}


def _max_affine(rng, n, d, kw):
    """f_j >= s ||w - z_j||_inf (pieces +-s e_i in every client: coercive), K random pieces of
    norm <= G; g pieces of norm <= G with offsets making g_j(p) <= -0.2 G at a Slater point p."""
    G = _pos_param(kw, "G", float(rng.uniform(1.0, 10.0)))
    K = _int_param(kw, "n_pieces", 3, 0)
    L = _int_param(kw, "n_constraint_pieces", 3, 1)
    s = G * rng.uniform(0.3, 1.0)
    z = rng.normal(0.0, 2.0, (n, d))
    eye = np.eye(d)
    C_coer = np.broadcast_to(np.concatenate([s * eye, -s * eye])[None], (n, 2 * d, d))
    e_coer = np.concatenate([-s * z, s * z], axis=1)                      # +-s (w_i - z_ji)
    C_rand = _unit_rows(rng, (n, K, d)) * (G * rng.uniform(0.0, 1.0, (n, K, 1)))
    e_rand = -np.einsum("nkd,nd->nk", C_rand, z) - G * rng.uniform(0.0, 2.0, (n, K))
    C_f = np.concatenate([C_coer, C_rand], axis=1)
    e_f = np.concatenate([e_coer, e_rand], axis=1)
    p = z.mean(axis=0) + rng.normal(0.0, 2.0, d)
    C_g = _unit_rows(rng, (n, L, d)) * (G * rng.uniform(0.2, 1.0, (n, L, 1)))
    e_g = -np.einsum("nld,d->nl", C_g, p) - G * rng.uniform(0.2, 1.5, (n, L))
    return MaxAffine(C_f, e_f, C_g, e_g, slater_point=p), {"G_target": G, "n_pieces": K,
                                                           "n_constraint_pieces": L}


def _huber_ball(rng, n, d, kw):
    m = _int_param(kw, "n_samples", 6, 1)
    delta = _pos_param(kw, "delta", float(rng.uniform(0.5, 2.0)))
    A = _clip_rows(rng.normal(size=(n, m, d)) * rng.uniform(0.5, 1.5), 3.0)
    w_true = rng.normal(0.0, 2.0, d)
    b = A @ w_true + rng.normal(0.0, 0.5, (n, m))
    outlier = rng.random((n, m)) < 0.1
    b = b + outlier * rng.normal(0.0, 5.0, (n, m))
    centers, radii = _ball(rng, n, d)
    return HuberBall(A, b, centers, radii, delta=delta), {"n_samples": m, "delta": delta}


def _logistic_ball(rng, n, d, kw):
    m = _int_param(kw, "n_samples", 6, 1)
    X = _clip_rows(rng.normal(size=(n, m, d)) * rng.uniform(0.5, 1.5), 3.0)
    w_true = rng.normal(0.0, 2.0, d)
    y = np.where(X @ w_true + rng.logistic(size=(n, m)) >= 0, 1.0, -1.0)
    centers, radii = _ball(rng, n, d)
    return LogisticBall(X, y, centers, radii), {"n_samples": m}


def _neyman_pearson(rng, n, d, kw):
    """Gaussian classes +-mu/2 with 1..n_samples rows per client and class (ragged), plus anchor
    rows +-s e_i in every client's objective class (so f is coercive and a minimiser exists);
    level = (constraint loss at a point w_p) + margin, so g(w_p) = -margin < 0."""
    m = _int_param(kw, "n_samples", 6, 1)
    mu = rng.normal(0.0, 1.0, d)
    s = rng.uniform(0.5, 1.5)
    anchors = np.concatenate([s * np.eye(d), -s * np.eye(d)])
    c0, c1 = [], []
    for _ in range(n):  # instance generation only
        m0, m1 = rng.integers(1, m + 1, size=2)
        x0 = _clip_rows(rng.normal(size=(m0, d)) - mu / 2, 4.0)
        c0.append(np.concatenate([x0, anchors]))
        c1.append(_clip_rows(rng.normal(size=(m1, d)) + mu / 2, 4.0))
    probe = NeymanPearson(c0, c1, level=0.0)
    w_p = mu * rng.uniform(0.5, 3.0)
    margin = float(rng.uniform(0.05, 0.3))
    level = float(probe.global_values(w_p)[1]) + margin
    return NeymanPearson(c0, c1, level=level, slater_point=w_p), {"n_samples": m, "level": level}


FAMILIES = {
    "piecewise_linear_1d": _piecewise_linear_1d,
    "max_affine": _max_affine,
    "huber_ball": _huber_ball,
    "logistic_ball": _logistic_ball,
    "neyman_pearson": _neyman_pearson,
}


def random_instance(family: str, rng: np.random.Generator, *, n_clients: int, dim: int,
                    **kw) -> ConvexLipschitzProblem:
    """A random, feasible, solvable instance of ``family`` (a key of :data:`FAMILIES`).

    Keyword parameters per family (defaults drawn from ``rng`` when random):
    ``piecewise_linear_1d``: ``G`` (needs ``dim == 1``); ``max_affine``: ``G``, ``n_pieces`` (3,
    random pieces besides the 2*dim coercive ones), ``n_constraint_pieces`` (3);
    ``huber_ball``: ``n_samples`` (6), ``delta``; ``logistic_ball``: ``n_samples`` (6);
    ``neyman_pearson``: ``n_samples`` (6, the max rows per client and class; counts are random).
    """
    require(family in FAMILIES, "family", family, f"one of {sorted(FAMILIES)}")
    require(isinstance(rng, np.random.Generator), "rng", type(rng).__name__,
            "a numpy.random.Generator")
    for name, v in (("n_clients", n_clients), ("dim", dim)):
        require(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= 1, name, v,
                "an integer >= 1")
    kw = dict(kw)
    prob, params = FAMILIES[family](rng, int(n_clients), int(dim), kw)
    require(not kw, "kw", sorted(kw), f"no parameters other than those of {family!r}")
    prob.params = {"family": family, "n_clients": int(n_clients), "dim": int(dim), **params}
    return prob
