"""Structured instances of problem (1) with n = 1 whose start lies on the boundary of X and whose penalty's kinks
meet the iterates (this project's construction; the paper has no synthetic family): the degenerate instances PC-FedAvg's
failure-probability search (``pcfedavg.failsearch``) needs.

Geometry, for m agents, a width w >= 0, a target distance t >= 0, a depth delta in [0, 1], a curvature P > 0 and a
spread s in (0, 1] (agent i's side s_i = +1 for even i, -1 for odd i: :func:`sides`):

* X_i = [-w/2, w/2] for every agent (Assumption 3.3: closed, convex, nonempty); w = 0 makes X_i a single point, where
  the penalty h_i = dist(., X_i)^2/2 of definition (2) has its two kinks (its second derivative jumps from 0 to 1 at
  each end of X_i) at the same place;
* f_i(y) = P/2 (y - c_i)^2 with c_i = w/2 + (i + 1) t: every target lies beyond the upper end of X (t = 0: on it, a
  kink of h_i), at a different distance per agent, so the local gradients differ and the constraints are active at
  x* (f_i is evaluated at the block average A x, so targets on both sides would cancel) (Assumption 3.1: f_i convex
  and P-smooth, L_f = P);
* sigma_i = s^i: s = 1 gives every agent sigma_i = sigma = max_j sigma_j, so that every L_{G_{i,rho}} of Lemma 4.1's
  first display equals the L_{G_rho} of its second (the descent-lemma step of Lemma 4.4's proof is then tight for
  every agent at once); s < 1 makes the agents' weights heterogeneous;
* the start x_bar_0 = z_0 with block i equal to s_i (w/2)(1 - delta): delta = 0 puts every block on the boundary of
  X_i (the even agents' on its upper end, the odd agents' on its lower end; Algorithm 1's line 1: "Random initial
  point x_bar_0 in X", so a start outside X is not admissible and is not built), delta = 1 at its centre.

Assumptions, named: n = 1 (each agent's block is a scalar, so the oracle's noise has one sign per agent and
iteration); the problem is a :class:`~repro.papers.pcfedavg.problems.personalized.PersonalizedProblem` with a
:class:`~repro.papers.pcfedavg.problems.personalized.Quadratic` local loss, whose reference solutions x*, x*_rho are
certified by its own solver (:meth:`PersonalizedProblem.solve`).
"""
from __future__ import annotations

import numpy as np

from repro.constraints import Box, ProductSet
from repro.errors import is_int, is_real, require
from repro.papers.pcfedavg.problems.personalized import PersonalizedProblem, Quadratic

__all__ = ["boundary_instance", "sides"]


def sides(m: int) -> np.ndarray:
    """s_i = +1 for even i, -1 for odd i (m,): the end of X_i agent i's start lies on."""
    return np.where(np.arange(m) % 2 == 0, 1.0, -1.0)


def boundary_instance(*, m: int, width: float, target: float, depth: float, curvature: float, spread: float,
                      nu: float) -> tuple[PersonalizedProblem, np.ndarray]:
    """(problem, z_0 (m, 1)) of the module doc, with the oracle's noise level ``nu``."""
    require(is_int(m) and m >= 1, "m", m, "an integer >= 1")
    for key, value in (("width", width), ("target", target)):
        require(is_real(value) and value >= 0, key, value, "a number >= 0")
    require(is_real(depth) and 0 <= depth <= 1, "depth", depth, "a number in [0, 1] (0: z_0 on the boundary of X)")
    require(is_real(curvature) and curvature > 0, "curvature", curvature, "a number > 0")
    require(is_real(spread) and 0 < spread <= 1, "spread", spread, "a number in (0, 1]")
    side = sides(m)
    half = 0.5 * float(width)
    sets = ProductSet([Box(np.array([-half]), np.array([half])) for _ in range(m)])
    targets = half + float(target) * (1.0 + np.arange(m))
    local = Quadratic(P=np.full((m, 1, 1), float(curvature)), c=targets[:, None], nu=float(nu))
    problem = PersonalizedProblem(local, float(spread) ** np.arange(m), sets)
    return problem, (side * half * (1.0 - depth))[:, None]
