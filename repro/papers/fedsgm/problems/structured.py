"""Structured instances of problem (1) in d = 2 whose start w0 is placed at a chosen signed distance from the
constraint's boundary (this project's construction; the paper has no synthetic family): the degenerate instances the
failure-probability search (``fedsgm.failsearch``) needs.

Geometry, for an angle theta and the unit vectors n = (cos theta, sin theta), t = (-sin theta, cos theta):

* every client's constraint is one affine piece g_j(w) = n . w (slope 1), so {g <= 0} is the half-plane n . w <= 0,
  its boundary the line n . w = 0, and the signed distance of a point w to {g <= 0} is n . w (0 = on the boundary,
  > 0 outside); theta = 0 makes the constraint's gradient a coordinate axis (Rand-K with K = 1 then keeps it or
  drops it entirely);
* every client's objective is f_j(w) = s (|t . w| - n . w + kappa |n . w - 1|): one kink (the line t . w = 0; two
  affine pieces) when kappa = 0, two kinks (the lines t . w = 0 and n . w = 1; four pieces) when kappa > 0; its
  slopes s (+-t - (1 +- kappa) n) have norm at most s sqrt(1 + (1 + kappa)^2) = 1 with s = 1/sqrt(1 + (1 + kappa)^2)
  (:func:`objective_slope`), so G = 1, the constraint's slope;
* w0 = distance n + offset t: ``distance`` is the signed distance of w0 to {g <= 0}, ``offset`` its position along
  the boundary from the minimiser.

The minimiser of (1) is unique, w* = 0 (on the boundary: on {n . w <= 0}, f = s (|t . w| + (1 + kappa)(-n . w) +
kappa) >= s kappa with equality only at w = 0), so D = ||w0|| has one reading; the checks do not rely on this,
they use the certified optimum the LP solver computes (:meth:`MaxAffine.solve`). Assumptions, named: the clients are
identical (f = f_j, g = g_j), Assumption 1 holds with G = 1 (convex, 1-Lipschitz pieces), and the problem has a
minimiser (f grows along t and -n on g's half-plane).
"""
from __future__ import annotations

import numpy as np

from repro.errors import is_int, is_real, require
from repro.papers.fedsgm.problems.max_affine import MaxAffine

__all__ = ["boundary_instance", "objective_slope"]


def objective_slope(kappa: float) -> float:
    """s = 1/sqrt(1 + (1 + kappa)^2): the largest slope of f then has norm 1 (module doc)."""
    return 1.0 / float(np.sqrt(1.0 + (1.0 + kappa) ** 2))


def boundary_instance(*, theta: float, distance: float, offset: float, kappa: float,
                      n_clients: int) -> tuple[MaxAffine, np.ndarray]:
    """(problem, w0) of the module doc: n = (cos theta, sin theta), w0 = distance n + offset t, f with one kink
    (``kappa`` = 0) or two; ``n_clients`` identical clients."""
    require(is_real(theta) and 0 <= theta <= np.pi / 4, "theta", theta, "an angle in [0, pi/4]")
    require(is_real(distance) and distance >= 0, "distance", distance, "a signed distance >= 0 (on or outside)")
    require(is_real(offset), "offset", offset, "a finite offset along the boundary")
    require(is_real(kappa) and 0 <= kappa <= 1, "kappa", kappa, "a number in [0, 1]")
    require(is_int(n_clients) and n_clients >= 1, "n_clients", n_clients, "an integer >= 1")
    normal = np.array([np.cos(theta), np.sin(theta)])
    tangent = np.array([-np.sin(theta), np.cos(theta)])
    s = objective_slope(kappa)
    signs = ((1.0, 0.0), (-1.0, 0.0)) if kappa == 0 else ((1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0))
    slopes = np.array([s * (a * tangent - (1.0 - kappa * b) * normal) for a, b in signs])
    offsets = np.array([-s * kappa * b for _, b in signs])       # s kappa |n . w - 1| = max over b of s kappa b (n.w - 1)
    problem = MaxAffine(np.broadcast_to(slopes, (n_clients, *slopes.shape)).copy(),
                        np.broadcast_to(offsets, (n_clients, len(offsets))).copy(),
                        np.broadcast_to(normal, (n_clients, 1, 2)).copy(), np.zeros((n_clients, 1)),
                        slater_point=-normal)
    problem.params = {"family": "boundary", "n_clients": int(n_clients), "dim": 2, "theta": float(theta),
                      "distance": float(distance), "offset": float(offset), "kappa": float(kappa)}
    return problem, distance * normal + offset * tangent
