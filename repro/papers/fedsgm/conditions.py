"""FedSGM's printed settings against the assumptions of the results they illustrate, computed (the findings that the
settings inventory, :mod:`.settings`, names under ``checked_by``):

* ``fedsgm.settings.assumption1``: Section 4.1's loss ("The function phi is the binary logistic loss") on Figure 1's
  problem (1) against Assumption 1 (f_j, g_j convex and G-Lipschitz) at the constant G the suite uses
  (``NeymanPearson.G``, the largest sample norm): the first-order convexity inequality and ||grad|| <= G at random
  pairs of points of every client (sampled: a violation would refute it, none found supports it);
* ``fedsgm.settings.exact_gradients``: "Each client performs local gradient descent updates" against the exact local
  gradients Algorithm 1 is analysed with: the oracle's gradients of f_j, g_j against central differences of its
  values at random points;
* ``fedsgm.settings.randk``: "Rand-K [..] compressor, which transmits a fraction K/d of coordinates with unbiased
  scaling" against Assumption 2 (E[C(w)] = w, E||C(w) - w||^2 <= q_u ||w||^2 with q_u = d/K - 1): every K-subset of
  the suite's :class:`repro.compression.RandK` is enumerated (scripted keys) for small d, so both moments are exact.
"""
from __future__ import annotations

import itertools

import numpy as np

from bounds.audit import CONSISTENT, DISCREPANCY, Finding, producer
from repro.compression import RandK
from repro.scripted import ScriptedKeys

#: sampled points per client, and their scale (a multiple of the largest sample norm's inverse: the logistic terms
#: then range from flat to saturated)
POINTS, SCALE = 64, 5.0
#: relative tolerance of the sampled inequalities and of the finite-difference gradients (float64, step 1e-6)
CONVEX_TOL, FD_TOL, FD_STEP = 1e-10, 1e-6, 1e-6
#: the (d, K) enumerated for Assumption 2, and the tolerance of the exact moments
RANDK_CASES, MOMENT_TOL = ((4, 1), (5, 2), (6, 3), (7, 2)), 1e-12
CLAIMS = ("fedsgm.thm1", "fedsgm.thm2")


def _points(problem, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.normal(size=(POINTS, problem.n_clients, problem.dim)) * (SCALE / problem.G)


@producer
def assumption1(problem, where: str, words: str, seed: int = 0) -> Finding:
    """Convexity (f(v) >= f(w) + <grad f(w), v - w>) and ||grad|| <= G of every f_j and g_j at random pairs."""
    W, V = _points(problem, seed), _points(problem, seed + 1)
    at_w, at_v = problem.oracle(W), problem.oracle(V)
    gaps, norms = [], []
    for val, grad in (("f", "grad_f"), ("g", "grad_g")):
        fw, fv, gw = getattr(at_w, val), getattr(at_v, val), getattr(at_w, grad)
        gaps.append((fw + np.sum(gw * (V - W), axis=-1) - fv) / (1.0 + np.abs(fv)))
        norms.append(np.linalg.norm(gw, axis=-1) / problem.G)
    worst_gap, worst_norm = float(np.max(gaps)), float(np.max(norms))
    ok = worst_gap <= CONVEX_TOL and worst_norm <= 1 + CONVEX_TOL
    return Finding("fedsgm.settings.assumption1", "experiment-settings", CLAIMS, CONSISTENT if ok else DISCREPANCY,
                   f"{where}: '{words}'. Assumption 1 (f_j, g_j convex and G-Lipschitz) "
                   f"{'holds' if ok else 'fails'} on Figure 1's problem at the suite's G = {problem.G:.6g} at "
                   f"{POINTS} random pairs per client: largest convexity excess {worst_gap:.3g} (relative), largest "
                   f"||grad|| / G = {worst_norm:.6g}.",
                   f"{problem.n_clients} clients, d = {problem.dim}, points N(0, ({SCALE:g}/G)^2), seed {seed}",
                   "sampled")


@producer
def exact_gradients(problem, where: str, words: str, seed: int = 0) -> Finding:
    """The oracle's gradients against central differences of its values, coordinate by coordinate."""
    W = _points(problem, seed)[:8]
    at = problem.oracle(W)
    worst = 0.0
    for i in range(problem.dim):
        step = np.zeros(problem.dim)
        step[i] = FD_STEP
        up, down = problem.oracle(W + step), problem.oracle(W - step)
        for val, grad in (("f", "grad_f"), ("g", "grad_g")):
            fd = (getattr(up, val) - getattr(down, val)) / (2 * FD_STEP)
            worst = max(worst, float(np.max(np.abs(fd - getattr(at, grad)[..., i]) / (1.0 + np.abs(fd)))))
    ok = worst <= FD_TOL
    return Finding("fedsgm.settings.exact_gradients", "experiment-settings", CLAIMS,
                   CONSISTENT if ok else DISCREPANCY,
                   f"{where}: '{words}'. Theorems 1-2 analyse Algorithm 1 with the exact local gradients of f_j, g_j; the "
                   f"runs' oracle gradients {'match' if ok else 'do not match'} central differences of f_j, g_j: "
                   f"largest relative difference {worst:.3g} over {problem.dim} coordinates at 8 points.",
                   f"step {FD_STEP:g}, tolerance {FD_TOL:g}", "numeric")


def randk_moments(d: int, K: int, w: np.ndarray) -> tuple[np.ndarray, float]:
    """E[C(w)] and E||C(w) - w||^2 of the suite's RandK over every K-subset of d coordinates, each equally likely."""
    subsets = np.array(list(itertools.combinations(range(d), K)))
    randk = RandK(d, K)
    selected = randk.draw(ScriptedKeys(subsets[None]), len(subsets))
    if not np.array_equal(selected, subsets):
        raise AssertionError("RandK.draw did not keep the scripted coordinates: repro.compression.RandK changed")
    C = randk.apply(np.broadcast_to(w, (len(subsets), d)), selected)
    return C.mean(axis=0), float(np.mean(np.sum((C - w) ** 2, axis=1)))


@producer
def randk_assumption2(where: str, words: str, seed: int = 0) -> Finding:
    """Assumption 2 for Rand-K with d/K scaling, exact over every K-subset, at :data:`RANDK_CASES`."""
    rng = np.random.default_rng(seed)
    rows, bad, ratios = [], [], []
    for d, K in RANDK_CASES:
        w = rng.normal(size=d)
        mean, second = randk_moments(d, K, w)
        q_u = d / K - 1
        bias, ratio = float(np.max(np.abs(mean - w))), second / (q_u * float(w @ w))
        rows.append(f"d = {d}, K = {K}: max |E C(w) - w| = {bias:.2g}, E||C(w) - w||^2 / (q_u ||w||^2) = {ratio:.12g}")
        ratios.append(ratio)
        if bias > MOMENT_TOL * np.abs(w).max() or ratio > 1 + MOMENT_TOL:
            bad.append(f"d = {d}, K = {K}")
    equality = all(abs(r - 1) <= MOMENT_TOL for r in ratios)
    return Finding("fedsgm.settings.randk", "experiment-settings", CLAIMS, DISCREPANCY if bad else CONSISTENT,
                   f"{where}: '{words}'. Assumption 2 (E[C_j(w)] = w, E||C_j(w) - w||^2 <= q_u ||w||^2, q_u = d/K - 1) "
                   f"{'fails at ' + ', '.join(bad) if bad else 'holds' + (' with equality' if equality else '')} for the "
                   f"suite's Rand-K, exactly "
                   f"over every K-subset of {len(RANDK_CASES)} (d, K) cases.", "; ".join(rows),
                   "exact enumeration")
