"""Seeded synthetic instances of PC-FedAvg's problem (1) with exactly known constants (this
project's test instances; the paper has no synthetic experiments).

``random_instance(rng, ...)`` draws:

* local losses: quadratics f_i(y) = 1/2 (y - c_i)^T P_i (y - c_i), P_i = U_i diag(lambda_i) U_i^T with
  U_i Haar-orthogonal (scipy.stats.ortho_group) and eigenvalues uniform in [lam_min, lam_max]; or
  l2-regularised logistic losses on Gaussian features (``family="logistic"``); Gaussian gradient
  noise of level nu (Assumption 3.2 with equality);
* sets X_i of the requested kinds: box [-w_i, w_i] + shift, l2 ball (centre a_i, radius r_i),
  l1 ball (radius tau_i, heterogeneous), or R^n; kinds are cycled over agents, so "mixed" mixes;
* targets c_i at distance ``target_scale`` (c_i far outside X_i: active constraints) or inside X_i
  (``target_scale = 0``: the constraints are inactive at the targets);
* sigma_i equal (``sigma``) or log-uniform in [1e-3, 1] (``sigma="hetero"``).

The start z_0 is Pi_X of a Gaussian vector (feasible, as line 1 of Algorithm 1 asks).
"""
from __future__ import annotations

import numpy as np
import scipy

from repro.constraints import L1Ball, L2Ball, Box, ProductSet, Whole
from repro.errors import require
from repro.papers.pcfedavg.problems.personalized import Logistic, PersonalizedProblem, Quadratic

SET_KINDS = ("box", "l2_ball", "l1_ball", "whole")
FAMILIES = ("quadratic", "logistic")


def _sets(rng, kinds, m, n):
    sets = []
    for i in range(m):
        kind = kinds[i % len(kinds)]
        if kind == "box":
            half = rng.uniform(0.2, 1.0, size=n)
            shift = rng.uniform(-0.2, 0.2, size=n)
            sets.append(Box(shift - half, shift + half))
        elif kind == "l2_ball":
            sets.append(L2Ball(rng.uniform(-0.2, 0.2, size=n), rng.uniform(0.3, 1.0)))
        elif kind == "l1_ball":
            sets.append(L1Ball(rng.uniform(0.3, 1.0), n))
        else:
            sets.append(Whole(n))
    return ProductSet(sets)


def random_instance(rng: np.random.Generator, *, m: int = 4, n: int = 3, family: str = "quadratic",
                    set_kinds=("box",), target_scale: float = 3.0, sigma="hetero", nu: float = 0.1,
                    lam_min: float = 0.5, lam_max: float = 2.0, samples: int = 20) -> tuple:
    """(PersonalizedProblem, feasible start z_0 (m, n)) drawn from ``rng``."""
    require(isinstance(m, int) and m >= 2, "m", m, "an integer number of agents >= 2")
    require(isinstance(n, int) and n >= 1, "n", n, "an integer dimension >= 1")
    require(family in FAMILIES, "family", family, f"one of {FAMILIES}")
    kinds = (set_kinds,) if isinstance(set_kinds, str) else tuple(set_kinds)
    require(len(kinds) >= 1 and all(k in SET_KINDS for k in kinds), "set_kinds", set_kinds,
            f"kinds among {SET_KINDS}")
    require(0 < lam_min <= lam_max, "lam_min", (lam_min, lam_max), "0 < lam_min <= lam_max")
    sets = _sets(rng, kinds, m, n)
    directions = rng.normal(size=(m, n))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    targets = target_scale * directions * rng.uniform(1.0, 2.0, size=(m, 1))
    if target_scale == 0:                     # targets inside X_i (constraints inactive at the targets)
        targets = sets.project(0.5 * rng.normal(size=(m, n)))
    if family == "quadratic":
        U = scipy.stats.ortho_group.rvs(n, size=m, random_state=rng) if n > 1 else np.ones((m, 1, 1))
        U = U.reshape(m, n, n)
        lam = rng.uniform(lam_min, lam_max, size=(m, n))
        P = np.einsum("mij,mj,mkj->mik", U, lam, U)
        P = 0.5 * (P + np.swapaxes(P, 1, 2))
        local = Quadratic(P=P, c=targets, nu=nu)
    else:
        features = rng.normal(size=(m, samples, n))
        truth = targets[:, None, :]
        labels = np.where(rng.uniform(size=(m, samples)) < 1 / (1 + np.exp(-np.sum(features * truth, -1))),
                          1.0, -1.0)
        local = Logistic(A=features, b=labels, lam=lam_min, nu=nu)
    if isinstance(sigma, str):
        require(sigma == "hetero", "sigma", sigma, "a positive number or 'hetero'")
        sig = np.exp(rng.uniform(np.log(1e-3), 0.0, size=m))
    else:
        sig = np.full(m, float(sigma))
    problem = PersonalizedProblem(local, sig, sets)
    z0 = sets.project(rng.normal(size=(m, n)))
    return problem, z0
