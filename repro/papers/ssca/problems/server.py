"""Mini-batch SSCA's server problems of Section V solved by cvxpy: (28)-(29) and (38), the references the
closed forms (35)-(36) and (40)-(42) are compared with, in the tests (random instances) and on the experiments'
own Theta, beta, A (Clarabel, an interior-point method, as the paper's remark on Problem 5 says)."""
from __future__ import annotations

import warnings

import numpy as np

#: cvxpy's Clarabel options (cvxpy itself is imported where a problem is built: it takes ~0.4 s to import)
TIGHT = dict(solver="CLARABEL", tol_gap_abs=1e-12, tol_gap_rel=1e-12, tol_feas=1e-10, max_iter=500)
FALLBACK = dict(solver="CLARABEL", tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-9, max_iter=500)


def solve(problem: cp.Problem, tight: bool = True) -> str:
    """Clarabel with tight tolerances, retried once with FALLBACK if it stops for lack of progress (SolverError);
    ``tight=False``: Clarabel's defaults (gap 1e-8), for the experiments' d = 101,632 problems, where tight
    settings stall. "optimal_inaccurate" warnings are silenced: the status is returned and recorded."""
    import cvxpy as cp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if not tight:
            problem.solve(solver=cp.CLARABEL)
            return problem.status
        try:
            problem.solve(**TIGHT)
        except cp.SolverError:
            problem.solve(**FALLBACK)
    return problem.status


def solved(status: str) -> bool:
    import cvxpy as cp

    return status in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE)


def solve_problem_28(coef: np.ndarray, tau: float, tight: bool = True) -> dict:
    """argmin_w <coef, w> + tau ||w||^2 ((8), (18), (28)-(29) with coef = Theta + 2 lambda beta)."""
    import cvxpy as cp

    w = cp.Variable(coef.size)
    status = solve(cp.Problem(cp.Minimize(coef.ravel() @ w + tau * cp.sum_squares(w))), tight)
    return {"omega": np.asarray(w.value).reshape(coef.shape), "status": status}


def solve_problem_38(theta: np.ndarray, A: float, U: float, tau: float, c: float, tight: bool = True) -> dict:
    """(38): min ||w||^2 + c z  s.t.  <Theta, w> + tau ||w||^2 + A - U <= z, z >= 0, by cvxpy, refined.

    Scaling: with w = sigma u, sigma = ||Theta|| / tau, and the constraint divided by s = ||Theta||^2 / tau, (38)
    becomes min ||u||^2 + c tau z' s.t. g'(u) = <Theta/||Theta||, u> + ||u||^2 + (A - U)/s <= z', z' >= 0 (same
    minimiser up to w = sigma u, z = s z'), whose coefficients are O(1) whatever the size of Theta.
    Refinement: the interior-point solution of the conic form is only ~sqrt(gap) accurate in u, so the minimiser
    of the equivalent phi(u) = ||u||^2 + c tau max(0, g'(u)) is also computed on each face, by cvxpy again:
    (a) z' = g'(u) > 0: min ||u||^2 + c tau g'(u); (b) z' = 0: min ||u||^2 s.t. g'(u) <= 0. phi is convex, so its
    minimiser solves (a) if g' > 0 there and (b) otherwise; the best of the candidates is returned. No knowledge
    of the closed form is used. ``raw_*`` are the unrefined conic solution's values (in the original scale)."""
    import cvxpy as cp

    theta = np.ravel(theta).astype(float)
    d, norm = theta.size, float(np.linalg.norm(theta))
    if norm == 0.0:                                    # g is constant: w = 0, z = max(0, A - U)
        return {"omega": np.zeros(d), "zeta": max(0.0, A - U), "objective": c * max(0.0, A - U), "status": "optimal",
                "raw_omega": np.zeros(d), "raw_zeta": max(0.0, A - U), "raw_objective": c * max(0.0, A - U)}
    sigma, scale = norm / tau, norm**2 / tau
    direction, k, weight = theta / norm, (A - U) / scale, c * tau

    def g(u):
        return float(direction @ u + u @ u + k)

    def phi(u):
        return float(u @ u + weight * max(0.0, g(u)))

    u, z = cp.Variable(d), cp.Variable()
    raw = cp.Problem(cp.Minimize(cp.sum_squares(u) + weight * z), [direction @ u + cp.sum_squares(u) + k <= z, z >= 0])
    status = solve(raw, tight)
    candidates = [np.asarray(u.value)] if u.value is not None else []
    raw_u = candidates[0].copy() if candidates else np.full(d, np.nan)
    ua, ub = cp.Variable(d), cp.Variable(d)
    for face, var in ((cp.Problem(cp.Minimize(cp.sum_squares(ua) + weight * (direction @ ua + cp.sum_squares(ua) + k))),
                       ua),
                      (cp.Problem(cp.Minimize(cp.sum_squares(ub)), [direction @ ub + cp.sum_squares(ub) + k <= 0]), ub)):
        if solved(solve(face, tight)) and var.value is not None:
            candidates.append(np.asarray(var.value))
    best = min(candidates, key=phi)
    return {"omega": sigma * best, "zeta": scale * max(0.0, g(best)), "objective": sigma**2 * phi(best),
            "status": status, "raw_omega": sigma * raw_u,
            "raw_zeta": scale * float(z.value) if z.value is not None else np.nan,
            "raw_objective": sigma**2 * float(raw.value) if raw.value is not None else np.nan}
