"""Certified reference solutions of problem (1) with cvxpy (Clarabel, falling back to SCS).

How ``CertifiedProblem.solve(w0)`` works (families plug in the hooks):

1. **Pre-check** (family hook): analytic reasons why (1) has no minimiser raise
   :class:`NoSolutionError` before any solver runs.
2. **Stage 1** (independent of ``w0``, cached per instance): ``min f(w) s.t. g(w) <= 0`` in
   cvxpy. Clarabel with tolerances 1e-9 first; SCS (eps 1e-9, at most 20000 iterations / 15 s)
   if Clarabel errors out or, for non-smooth families, is inaccurate (smooth families polish and
   certify an inaccurate Clarabel point themselves, step 4). A solver certificate of
   infeasibility / unboundedness raises ``NoSolutionError``.
3. **Feasibility repair.** If ``g(w) > 0`` at the solver's point (it may be ~1e-10 infeasible),
   move it towards a Slater point ``w_s`` (``g(w_s) < 0``): ``w + theta (w_s - w)`` with
   ``theta = g(w)/(g(w) - g(w_s))`` is feasible by convexity of g. So ``w_star`` is feasible in
   float64 (``g_star <= 0``) whenever the feasible set has an interior point.
4. **Lower bound** on ``f*`` (family hook), so that ``f* in [L, f_star]`` is certified:
   for any ``lambda >= 0`` (the solver's multiplier or a polished one) and any affine minorant
   ``f(w) + lambda g(w) >= a.w + b`` valid on all of R^d, and a set ``R`` known to contain a
   minimiser, ``f* = f(w*) >= f(w*) + lambda g(w*) >= min_{w in R} a.w + b``. The minorant is
   the tangent of ``f + lambda g`` at a candidate point (any subgradient gives a global
   minorant; its norm is the KKT residual) or, for max-affine, the LP multipliers. ``R`` is a
   ball that provably contains ``{f <= U, g <= 0}`` (family hook). Without such a ball the
   tolerance falls back to the solver's own accuracy and ``details['certificate']`` says so.
5. **Stage 2** (closest minimiser, only for families whose minimiser may be non-unique):
   ``min ||w - w0|| s.t. f(w) <= U + slack/2, g(w) <= 0`` with ``slack = max(U - L,
   1e-9(1+|U|))``, then the repair of step 3, and if the solver overshot ``f <= U + slack``, the
   least pull-back towards the stage-1 point ``w1`` that restores it (bisection on the segment).
   The set contains every minimiser, so ``D`` is at most the exact
   closest-minimiser distance (up to solver accuracy) and is its limit as the slack -> 0; where f
   grows quadratically the bias is of order ``sqrt(slack)``. ``details['closest_stage']`` records
   ``D_stage2`` and ``D_stage1 = ||w0 - w1||`` (the distance to the stage-1 minimiser), which
   bracket the exact closest-minimiser distance up to solver accuracy.

Families whose minimiser is provably unique (strictly convex f) skip stage 2. Smooth families
(ball-constrained, Neyman–Pearson) polish the solver's point into more candidates: a few Newton
steps on the KKT system and, if the certified gap is still > 1e-10 (1+|U|), a dual method
(bracketing the root of ``lambda -> g(w(lambda))`` with ``w(lambda) = argmin f + lambda g`` by
damped Newton). Each candidate ``(w, lambda)`` yields an upper bound (``f`` at its repaired,
feasible ``w``) and a lower bound (step 4); the best of each is kept, so polishing can only
tighten, never invalidate, the certificate. (Clarabel alone is sometimes far off: on
standardised breast-cancer data without bias it returns ``optimal_inaccurate`` with ``D`` ~ 480
where the certified ``D`` is ~ 3330.)

**Compiled once per shape.** cvxpy spends ~85 % of a small solve compiling the problem (canonicalisation and
matrix stuffing), not in the solver. Families whose cvxpy problems have a fixed structure for given array
shapes (``_cvx_reusable``) build each stage's problem once per process and shape, with the instance's arrays
(``_cvx_data``) as ``cvxpy.Parameter`` values, and later instances of the same shape only set the values
(:func:`compiled_problem`). The solver receives the same problem up to rounding (the ball families' data are
bit-identical to the problem built from constants; max-affine's stage 2 folds its level and offsets in another order,
one last bit, so its answers move within their certificates); only the compilation is skipped. Solves never
warm-start from a previous instance (``warm_start=False``) and start from cleared values, so an answer does not
depend on which instances a process solved before.

``Optimum.tolerance = max(f_star - L, max(g_star, 0)) + 1e-12 (1 + |f_star|)`` bounds
``|f_star - f*|`` (``f_star`` is ``f(w_star)``, an upper bound on ``f*``) and the infeasibility.
"""
from __future__ import annotations

import abc
import warnings
from collections import OrderedDict
from typing import Callable

import numpy as np
import scipy.optimize as so
import scipy.sparse as sps

from repro.papers.fedsgm.problems.common import NoSolutionError, SolverFailure, check_point
from repro.papers.fedsgm.problems.base import ConvexLipschitzProblem, Optimum

__all__ = ["CertifiedProblem", "SOLVERS", "compiled_problem", "linf_growth", "run_solvers"]

#: (name, options) in the order tried.
SOLVERS: tuple[tuple[str, dict], ...] = (
    ("CLARABEL", dict(tol_gap_abs=1e-9, tol_gap_rel=1e-9, tol_feas=1e-9,
                      tol_infeas_abs=1e-9, tol_infeas_rel=1e-9, max_iter=500)),
    ("SCS", dict(eps_abs=1e-9, eps_rel=1e-9, max_iters=20_000, time_limit_secs=15.0)),
)

#: this process's compiled problems, least recently used first: key -> (what ``build`` returned, its Parameters)
_COMPILED: OrderedDict = OrderedDict()
#: how many compiled problems a process keeps: a FedSGM search meets at most ~450 (its widest families: 3 cvxpy
#: families x 50 shapes x 3 stages); each holds ~0.3 MB (peak RSS grew by 97 MB over 300 of them), so at most ~170 MB
COMPILED_LIMIT = 512


def compiled_problem(key: tuple, data: dict, build: Callable[[dict], object], nonneg: tuple = ()):
    """``build(parameters)`` for ``key``, built once per process with one ``cvxpy.Parameter`` per array of
    ``data`` (same shape; declared nonnegative for the names in ``nonneg``, where cvxpy needs a known sign), and
    those Parameters set to ``data``; returns what ``build`` returned.

    ``key`` must determine the problem's structure: the stage, the family, the shapes of ``data`` and every
    number the problem uses that is not in ``data``. cvxpy compiles a parametrised problem once (its first
    solve) and then only substitutes the values (DPP). Written here because cvxpy keeps no such cache.
    """
    import cvxpy as cp

    entry = _COMPILED.get(key)
    if entry is None:
        parameters = {name: cp.Parameter(np.shape(value), nonneg=name in nonneg) for name, value in data.items()}
        entry = (build(parameters), parameters)
        _COMPILED[key] = entry
        if len(_COMPILED) > COMPILED_LIMIT:
            _COMPILED.popitem(last=False)
    else:
        _COMPILED.move_to_end(key)
    built, parameters = entry
    for name, value in data.items():
        parameters[name].value = value
    return built


def _forget_values(prob) -> None:
    """Clear the primal and dual values a compiled problem kept from an earlier instance: cvxpy leaves a value in
    place when a solve does not return it, and ``extract`` must never read another instance's numbers."""
    for variable in prob.variables():
        variable.value = None
    for constraint in prob.constraints:
        for dual in constraint.dual_variables:
            dual.value = None


def run_solvers(prob: cp.Problem, extract: Callable[[], dict], *,
                fallback_on_inaccurate: bool = True) -> tuple[str, str, dict | None, list]:
    """Solve ``prob`` with Clarabel, then SCS if needed.

    Returns ``(solver, status, values, attempts)``; ``values = extract()`` taken right after the
    accepted solve (None for infeasible/unbounded). An ``optimal`` answer is accepted at once; a
    certificate of infeasibility/unboundedness from a solver is accepted at once; otherwise the
    first ``optimal_inaccurate`` answer, else the first inaccurate certificate. Raises
    :class:`SolverFailure` if nothing usable came back. With ``fallback_on_inaccurate=False`` an
    ``optimal_inaccurate`` answer is also accepted at once (for callers that verify the point).
    """
    import cvxpy as cp

    ok = (cp.OPTIMAL, cp.OPTIMAL_INACCURATE)
    attempts: list[dict] = []
    kept: list[tuple[str, str, dict | None]] = []
    _forget_values(prob)
    for name, opts in SOLVERS:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                prob.solve(solver=name, warm_start=False, **opts)
            status = prob.status
        except (cp.error.SolverError, ArithmeticError, ValueError) as exc:
            attempts.append({"solver": name, "status": f"error: {exc}"[:200]})
            continue
        attempts.append({"solver": name, "status": status})
        values = extract() if status in ok else None
        if status in ok and values is None:
            status = f"{status} (no primal values)"
        kept.append((name, status, values))
        if status == cp.OPTIMAL or status in (cp.INFEASIBLE, cp.UNBOUNDED):
            return name, status, values, attempts
        if not fallback_on_inaccurate and status == cp.OPTIMAL_INACCURATE:
            return name, status, values, attempts
    for wanted in (cp.OPTIMAL_INACCURATE, cp.INFEASIBLE_INACCURATE, cp.UNBOUNDED_INACCURATE):
        for name, status, values in kept:
            if status == wanted:
                return name, status, values, attempts
    raise SolverFailure(f"no usable solver answer: {attempts}")


def _face_lower_bounds(A: np.ndarray, omega: np.ndarray) -> np.ndarray:
    """``LB[i, s] <= min { h(u) : u_i = 2s - 1, ||u||_inf <= 1 }`` for ``h(u) = sum_p omega_p max_k A_pk . u``
    (``A`` (P, K, d), ``omega >= 0``): the minimum of a sum is at least the sum of the minima, the minimum of a max
    at least the max of the minima, and a linear function's minimum on the face is
    ``(2s - 1) A_pki - sum_{j != i} |A_pkj|``."""
    absolute = np.abs(A)
    others = absolute.sum(axis=-1, keepdims=True) - absolute               # (P, K, d)
    faces = np.stack([-A - others, A - others], axis=-1)                   # (P, K, d, 2)
    return np.tensordot(omega, faces.max(axis=1), axes=1)                  # (d, 2)


def linf_growth(groups: list[tuple[np.ndarray, np.ndarray]]) -> float:
    """Certified-by-LP growth constant ``kappa = min_{||u||_inf = 1} h(u)`` (may be <= 0).

    ``h(u) = sum over groups, sum_p omega[p] * max_k A[p, k] . u`` with ``omega >= 0`` (P,) and
    ``A`` (P, K, d): a positively homogeneous convex function (a recession function). The sphere
    of the inf-norm is the union of the 2d faces ``u_i = +-1``, so kappa is the least of 2d LPs
    (HiGHS, tolerances 1e-10). A margin ``1e-8 * sum_p omega_p max_k ||A_pk||_1`` (>= the LP's
    error budget) is subtracted, so the returned value is a lower bound up to that solver.
    Then ``h(w) >= kappa ||w||_inf`` for all w.

    Faces are solved in the order of a closed-form lower bound of their minimum (:func:`_face_lower_bounds`), and
    a face whose bound is at least the least LP value found so far is not solved: its minimum cannot be smaller.
    (For the generated max-affine instances, whose coercive pieces +-s e_i make every face's minimum at least s,
    most faces are settled so.) Against solving all 2d LPs the value can differ only by the LP solver's own error
    on faces that tie the minimum, which the margin covers.
    """
    blocks, weights = [], []
    for omega, A in groups:
        keep = omega > 0
        blocks.append(A[keep])
        weights.append(omega[keep])
    d = blocks[0].shape[-1]
    K = max(b.shape[1] for b in blocks)
    # pad by repeating a piece: a duplicate piece does not change a max
    blocks = [np.concatenate([b] + [b[:, :1]] * (K - b.shape[1]), axis=1) for b in blocks]
    A = np.concatenate(blocks, axis=0)          # (P, K, d)
    omega = np.concatenate(weights)             # (P,)
    P = A.shape[0]
    if P == 0:
        return 0.0
    rows = A.reshape(P * K, d)
    t_sel = sps.csr_matrix((-np.ones(P * K), (np.arange(P * K), np.repeat(np.arange(P), K))),
                           shape=(P * K, P))
    A_ub = sps.hstack([sps.csr_matrix(rows), t_sel], format="csr")
    b_ub = np.zeros(P * K)
    c = np.concatenate([np.zeros(d), omega])
    kappa = np.inf
    lower = _face_lower_bounds(A, omega)        # (d, 2): faces u_i = -1, u_i = +1
    for face in np.argsort(lower, axis=None, kind="stable"):
        i, side = divmod(int(face), 2)
        if lower[i, side] >= kappa:
            break
        bounds = [(-1.0, 1.0)] * d + [(None, None)] * P
        bounds[i] = (2.0 * side - 1.0,) * 2
        res = so.linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=bounds, method="highs",
                         options={"primal_feasibility_tolerance": 1e-10,
                                  "dual_feasibility_tolerance": 1e-10})
        if res.status != 0:
            return -np.inf
        kappa = min(kappa, float(res.fun))
    scale = float(np.sum(omega * np.abs(A).sum(axis=-1).max(axis=-1)))
    return kappa - 1e-8 * scale


class CertifiedProblem(ConvexLipschitzProblem):
    """A problem whose ``solve`` is the certified two-stage cvxpy procedure of this module.

    Hooks: ``_cvx_f``, ``_cvx_g`` (cvxpy expressions of the GLOBAL f and g),
    ``_minimiser_is_unique`` (True skips stage 2), ``_region`` (ball containing
    ``{f <= U, g <= 0}``), ``_precheck``, ``_slater_candidates``, and optionally ``_stage1`` /
    ``_affine_minorant`` (max-affine uses its LP multipliers).
    """

    #: True for smooth f, g: the solver's point is polished by Newton steps on the KKT system.
    _smooth_kkt: bool = False
    #: True when the cvxpy hooks build the same structure for every instance with the same n_clients, dim and
    #: ``_cvx_data`` shapes: each stage's problem is then compiled once per process and shape
    _cvx_reusable: bool = False
    #: names of ``_cvx_data`` that cvxpy must know to be nonnegative (e.g. Huber's threshold)
    _cvx_nonneg: tuple[str, ...] = ()

    def __init__(self) -> None:
        self._solutions: dict[bytes, Optimum] = {}
        self._stage1_cache: dict | None = None
        self._slater_cache: tuple | None = None

    # ------------------------------------------------------------------ hooks
    @abc.abstractmethod
    def _cvx_data(self) -> dict[str, np.ndarray]:
        """The instance's arrays that the cvxpy hooks read, by name (Parameters of a compiled problem)."""

    @abc.abstractmethod
    def _cvx_f(self, w: cp.Variable, p: dict) -> cp.Expression:
        """The global objective f as a cvxpy expression of ``w`` and the arrays ``p`` (:meth:`_cvx_data`'s names;
        the arrays themselves or Parameters holding them)."""

    @abc.abstractmethod
    def _cvx_g(self, w: cp.Variable, p: dict) -> cp.Expression:
        """The global constraint g as a cvxpy expression (as :meth:`_cvx_f`)."""

    def _cvx_problem(self, stage: str, build: Callable[[dict], object], **extra):
        """``build(p)`` with ``p`` the arrays of :meth:`_cvx_data` and ``extra``: compiled once per process and
        shape for a reusable family (:func:`compiled_problem`), else built from the arrays as constants."""
        data = self._cvx_data() | {name: np.asarray(value, dtype=np.float64) for name, value in extra.items()}
        if not self._cvx_reusable:
            return build(data)
        key = (type(self).__qualname__, stage, self.n_clients, self.dim,
               tuple((name, np.shape(value)) for name, value in data.items()))
        return compiled_problem(key, data, build, self._cvx_nonneg)

    @abc.abstractmethod
    def _minimiser_is_unique(self) -> bool:
        """True when the constrained minimiser is provably unique (stage 2 is skipped)."""

    def _region(self, U: float) -> tuple[str, np.ndarray, float] | None:
        """``(norm, center, radius)`` of a ball containing ``{w : f(w) <= U, g(w) <= 0}``."""
        return None

    def _precheck(self) -> None:
        """Raise NoSolutionError when (1) provably has no minimiser."""

    def _slater_candidates(self) -> list[np.ndarray]:
        """Points that may satisfy g < 0 (checked before solving min g)."""
        return []

    def _no_solution_message(self, status: str, solver: str) -> str:
        what = ("the constraint set {g(w) <= 0} is empty" if "infeasible" in status
                else "f is unbounded below on {g(w) <= 0}")
        return (f"{self.name}: problem (1) has no solution ({solver} reports '{status}': {what}); "
                "w* and D are undefined")

    def _stage1(self) -> dict:
        """Solve min f s.t. g <= 0; returns w, lam (multiplier of g <= 0), solver info."""
        import cvxpy as cp

        def build(p):
            w = cp.Variable(self.dim)
            con = self._cvx_g(w, p) <= 0
            return cp.Problem(cp.Minimize(self._cvx_f(w, p)), [con]), w, con

        prob, w, con = self._cvx_problem("stage 1", build)

        def extract():
            if w.value is None:
                return None
            lam = con.dual_value
            return {"w": np.array(w.value, dtype=np.float64).reshape(self.dim),
                    "lam": 0.0 if lam is None else max(float(np.ravel(lam)[0]), 0.0)}

        # smooth families polish the point themselves and certify it: an inaccurate Clarabel
        # answer is then a fine starting point and SCS is only tried if Clarabel fails outright
        solver, status, values, attempts = run_solvers(
            prob, extract, fallback_on_inaccurate=not self._smooth_kkt)
        return {"solver": solver, "status": status, "attempts": attempts, **(values or {})}

    def _affine_minorant(self, st: dict) -> tuple[np.ndarray, float]:
        """``(a, b)`` with ``f(w) + lam g(w) >= a.w + b`` on R^d: tangent at the solver's point."""
        w_bar, lam = st["w"], st["lam"]
        W = np.broadcast_to(w_bar, (self.n_clients, self.dim))
        o = self.oracle(W)
        s = o.grad_f.mean(axis=0) + lam * o.grad_g.mean(axis=0)
        phi = float(o.f.mean() + lam * o.g.mean())
        return s, phi - float(s @ w_bar)

    # ------------------------------------------------------------ machinery
    def _values(self, w: np.ndarray) -> tuple[float, float]:
        f, g = self.global_values(w)
        return float(f), float(g)

    def _slater_point(self) -> np.ndarray | None:
        if self._slater_cache is None:
            best = None
            for cand in self._slater_candidates():
                cand = np.asarray(cand, dtype=np.float64)
                if self._values(cand)[1] < 0:
                    best = cand
                    break
            if best is None:
                import cvxpy as cp

                def build(p):
                    w = cp.Variable(self.dim)
                    return cp.Problem(cp.Minimize(self._cvx_g(w, p))), w

                prob, w = self._cvx_problem("Slater point", build)
                try:
                    _, _, vals, _ = run_solvers(
                        prob, lambda: None if w.value is None else {"w": np.array(w.value).ravel()})
                except SolverFailure:
                    vals = None
                if vals is not None and self._values(vals["w"])[1] < 0:
                    best = vals["w"]
            self._slater_cache = (best,)
        return self._slater_cache[0]

    def _repair(self, w: np.ndarray) -> tuple[np.ndarray, str]:
        """Move w onto {g <= 0} along the segment to a Slater point (exact in float64)."""
        g = self._values(w)[1]
        if g <= 0:
            return w, "none needed"
        ws = self._slater_point()
        if ws is None:
            return w, f"impossible (no Slater point); g(w) = {g:.3e} > 0 kept"
        gs = self._values(ws)[1]
        theta = g / (g - gs)
        for _ in range(80):
            cand = w + theta * (ws - w)
            if self._values(cand)[1] <= 0:
                return cand, f"moved by theta = {theta:.3e} towards a Slater point (g was {g:.3e})"
            theta = min(1.0, 2.0 * theta + 1e-16)
        return ws.copy(), "replaced by the Slater point"

    def _smooth_eval(self, P: np.ndarray, lam: float):
        """``(phi, grad phi, grad g, g)`` of ``phi = f + lam g`` at points P (k, d), batched.

        Default: from the oracle (global means). Smooth families override it with pooled
        closed forms (faster); it only drives the polishing, never a certificate."""
        W = np.broadcast_to(P[:, None, :], (P.shape[0], self.n_clients, self.dim))
        o = self.oracle(W)
        gg, g = o.grad_g.mean(axis=-2), o.g.mean(axis=-1)
        return o.f.mean(axis=-1) + lam * g, o.grad_f.mean(axis=-2) + lam * gg, gg, g

    def _hessian(self, w: np.ndarray, lam: float) -> np.ndarray:
        """Hessian of ``f + lam g`` at w; default: central differences of the gradient."""
        d = self.dim
        h = 1e-6 * (1.0 + float(np.abs(w).max()))
        E = h * np.eye(d)
        gp = self._smooth_eval(np.concatenate([w + E, w - E]), lam)[1]
        H = (gp[:d] - gp[d:]).T / (2 * h)
        return 0.5 * (H + H.T)

    def _newton_polish(self, w: np.ndarray, lam: float, steps: int = 6) -> list[dict]:
        """Newton steps on the KKT system of (1) from the solver's point.

        Only used to shrink the KKT residual of the solver's point (hence the certified gap);
        every iterate is merely a candidate: bounds are computed for each and the best is kept,
        so a poor step cannot invalidate anything.
        """
        d = self.dim
        w = np.array(w, dtype=np.float64)
        g0 = self._values(w)[1]
        active = g0 > -1e-6
        if not active:
            lam = 0.0
        out = []
        for _ in range(steps):
            H = self._hessian(w, lam)
            _, s, gg, gv = (v[0] for v in self._smooth_eval(w[None], lam))
            if not (np.all(np.isfinite(H)) and np.all(np.isfinite(s))):
                break
            if active:
                K = np.block([[H, gg[:, None]], [gg[None, :], np.zeros((1, 1))]])
                step = np.linalg.lstsq(K, -np.concatenate([s, [gv]]), rcond=None)[0]
                w, lam = w + step[:d], max(lam + float(step[d]), 0.0)
            else:
                w = w + np.linalg.lstsq(H, -s, rcond=None)[0]
            if not np.all(np.isfinite(w)):
                break
            out.append({"w": w.copy(), "lam": lam})
        return out

    def _inner_newton(self, w: np.ndarray, lam: float, max_iter: int = 80):
        """Damped Newton on ``phi = f + lam g`` (batched Armijo backtracking).

        Returns ``(w, converged)``; ``converged`` is False when the iterates run away (the
        infimum of phi is not attained) or stall far from stationarity."""
        w = np.array(w, dtype=np.float64)
        ts = 0.5 ** np.arange(45)
        dec, phi0 = np.inf, 0.0
        for _ in range(max_iter):
            phi0, s = (v[0] for v in self._smooth_eval(w[None], lam)[:2])
            phi0 = float(phi0)
            H = self._hessian(w, lam)
            if not (np.all(np.isfinite(s)) and np.all(np.isfinite(H))):
                return w, False
            step = -np.linalg.lstsq(H, s, rcond=1e-14)[0]
            dec = float(-(s @ step))
            if not dec > 0:
                step, dec = -s, float(s @ s)
            if dec <= 1e-30 * (1.0 + abs(phi0)):
                return w, True
            vals = self._smooth_eval(w + ts[:, None] * step, lam)[0]
            ok = vals <= phi0 - 1e-4 * ts * dec
            if not ok.any():
                return w, dec <= 1e-16 * (1.0 + abs(phi0))
            w = w + ts[int(np.argmax(ok))] * step
            if float(np.abs(w).max()) > 1e12:
                return w, False
        return w, dec <= 1e-12 * (1.0 + abs(phi0))

    def _dual_polish(self, w: np.ndarray, lam: float) -> list[dict]:
        """Maximise the 1-D dual ``q(lam) = min_w f + lam g`` by bracketing the root of
        ``h(lam) = g(w(lam))`` (nonincreasing), each ``w(lam)`` by :meth:`_inner_newton`.

        Every ``(w(lam), lam)`` is a candidate: its tangent minorant is ~ q(lam) <= f* and the
        ``w(lam)`` with ``g <= 0`` give upper bounds, so the certified gap closes with the bracket.
        """
        out = []
        w0, conv0 = self._inner_newton(w, 0.0)
        if conv0:
            out.append({"w": w0, "lam": 0.0})
            if self._values(w0)[1] <= 0:
                return out
        lam = max(float(lam), 1e-6)
        wl, conv = self._inner_newton(w, lam)
        lo, hi, w_lo, w_hi = 0.0, None, (w0 if conv0 else None), None
        for _ in range(60):  # bracket [lo, hi] with h(lo) > 0 >= h(hi)
            if not conv:
                break
            out.append({"w": wl, "lam": lam})
            if self._values(wl)[1] > 0:
                lo, w_lo = lam, wl
                if hi is not None:
                    break
                lam *= 4.0
            else:
                hi, w_hi = lam, wl
                if w_lo is not None:
                    break
                lam /= 4.0
                if lam < 1e-14:
                    break
            wl, conv = self._inner_newton(wl, lam)
        if hi is None or w_lo is None:
            return out
        h_lo, h_hi = self._values(w_lo)[1], self._values(w_hi)[1]
        for _ in range(80):  # Illinois regula falsi on h
            lam = hi - h_hi * (hi - lo) / (h_hi - h_lo) if h_hi != h_lo else 0.5 * (lo + hi)
            if not lo < lam < hi:
                lam = 0.5 * (lo + hi)
            wl, conv = self._inner_newton(w_hi if abs(h_hi) < abs(h_lo) else w_lo, lam)
            if not conv:
                break
            out.append({"w": wl, "lam": lam})
            h = self._values(wl)[1]
            if h > 0:
                lo, w_lo, h_lo = lam, wl, h
                h_hi *= 0.5
            else:
                hi, w_hi, h_hi = lam, wl, h
                h_lo *= 0.5
            if hi - lo <= 1e-15 * hi or abs(h) <= 1e-15:
                break
        return out

    def _bound_for(self, cand: dict, region) -> float:
        norm, center, radius = region
        a, b = self._affine_minorant(cand)
        if not (np.all(np.isfinite(a)) and np.isfinite(b)):
            return -np.inf
        dual = np.abs(a).sum() if norm == "linf" else np.linalg.norm(a)
        return float(a @ center + b - radius * dual)

    def _certified_stage1(self) -> dict:
        import cvxpy as cp

        if self._stage1_cache is not None:
            return self._stage1_cache
        self._precheck()
        st = self._stage1()
        if st["status"] in (cp.INFEASIBLE, cp.UNBOUNDED, cp.INFEASIBLE_INACCURATE, cp.UNBOUNDED_INACCURATE):
            raise NoSolutionError(self._no_solution_message(st["status"], st["solver"]),
                                  {"attempts": st["attempts"]})
        if st.get("w") is None:
            raise SolverFailure(f"{self.name}: no primal point returned: {st['attempts']}")
        cands = [st]
        if self._smooth_kkt:
            cands += self._newton_polish(st["w"], st["lam"])
        U, L, w1, g1, repair, i_up, i_lo, region = self._bounds(cands)
        if self._smooth_kkt and region is not None and U - L > 1e-10 * (1.0 + abs(U)):
            cands += self._dual_polish(st["w"], st["lam"])
            U, L, w1, g1, repair, i_up, i_lo, region = self._bounds(cands)
        if region is not None:
            a, _ = self._affine_minorant(cands[i_lo])
            certificate = (f"Lagrangian affine minorant (lambda={cands[i_lo]['lam']:.6g}, "
                           f"residual ||a||={np.linalg.norm(a):.3e}, candidate {i_lo} of "
                           f"{len(cands)}) over the {region[0]} ball of radius {region[2]:.6g} "
                           "containing {f <= f(w1), g <= 0}")
            rigorous = True
        else:
            rel = 1e-7 if st["status"] == cp.OPTIMAL else 1e-5
            L = U - rel * (1.0 + abs(U))
            certificate = (f"solver status only (no bounded region certified): "
                           f"tolerance {rel:g}(1+|f|) assumed, not rigorous")
            rigorous = False
        self._stage1_cache = {
            "w1": w1, "U": U, "g1": g1, "L": min(L, U), "certificate": certificate,
            "rigorous": rigorous, "lam": st["lam"], "solver": st["solver"],
            "status": st["status"], "attempts": st["attempts"], "repair": repair,
            "upper_bound_from": "solver point" if i_up == 0 else f"polished point {i_up}",
        }
        return self._stage1_cache

    def _bounds(self, cands: list[dict]):
        """Best feasible upper bound and best lower bound over the candidates."""
        best = None
        for i, c in enumerate(cands):
            wr, rep = self._repair(c["w"])
            f, g = self._values(wr)
            if not (np.isfinite(f) and np.isfinite(g)):
                continue
            key = (g > 0, f)
            if best is None or key < best[0]:
                best = (key, wr, rep, i)
        _, w1, repair, i_up = best
        U, g1 = self._values(w1)
        region = self._region(U)
        if region is None:
            return U, -np.inf, w1, g1, repair, i_up, 0, None
        bounds = [self._bound_for(c, region) for c in cands]
        i_lo = int(np.argmax(bounds))
        return U, bounds[i_lo], w1, g1, repair, i_up, i_lo, region

    def _closest(self, w0: np.ndarray, s1: dict) -> tuple[np.ndarray, dict]:
        import cvxpy as cp

        U, L = s1["U"], s1["L"]
        slack = max(U - L, 1e-9 * (1.0 + abs(U)))
        info = {"slack": slack}
        def build(p):
            w = cp.Variable(self.dim)
            return cp.Problem(cp.Minimize(cp.norm(w - p["w0"], 2)),
                              [self._cvx_f(w, p) <= p["f_level"], self._cvx_g(w, p) <= 0]), w

        prob, w = self._cvx_problem("stage 2", build, w0=w0, f_level=U + 0.5 * slack)
        try:
            solver, status, vals, attempts = run_solvers(
                prob, lambda: None if w.value is None else {"w": np.array(w.value).ravel()},
                fallback_on_inaccurate=False)
        except SolverFailure as exc:
            info.update(status=f"failed: {exc}", used="stage-1 point")
            return s1["w1"], info
        info.update(solver=solver, status=status, attempts=attempts)
        if vals is None:
            info["used"] = "stage-1 point"
            return s1["w1"], info
        w2, repair = self._repair(vals["w"])
        f2, g2 = self._values(w2)
        if f2 > U + slack and g2 <= 0 and s1["g1"] <= 0:
            # pull back towards w1 (f(w1) = U): along the segment f is convex and g <= 0 (both
            # ends feasible), so {t : f(w2 + t(w1 - w2)) <= U + slack} is an interval [t*, 1];
            # find t* from above by a geometric scan and bisection
            w1 = s1["w1"]
            ok = lambda t: self._values(w2 + t * (w1 - w2))[0] <= U + slack  # noqa: E731
            ts = 2.0 ** -np.arange(60.0)[::-1]
            f_scan, _ = self.global_values(w2 + ts[:, None] * (w1 - w2))
            good = np.flatnonzero(f_scan <= U + slack)
            hi = float(ts[good[0]]) if good.size else 1.0
            lo = hi / 2 if good.size and good[0] > 0 else 0.0
            for _ in range(60):
                mid = 0.5 * (lo + hi)
                if ok(mid):
                    hi = mid
                else:
                    lo = mid
            cand = w2 + hi * (w1 - w2)
            fc, gc = self._values(cand)
            if fc <= U + slack and gc <= 0:
                repair += f"; pulled back by t = {hi:.3e} towards w1 (f was U + {f2 - U:.3e})"
                w2, f2, g2 = cand, fc, gc
        info["repair"] = repair
        d1 = float(np.linalg.norm(s1["w1"] - w0))
        d2 = float(np.linalg.norm(w2 - w0))
        info.update(D_stage1=d1, D_stage2=d2)
        if (g2 <= 0 or g2 <= s1["g1"]) and f2 <= U + 2 * slack and d2 <= d1:
            info["used"] = "stage-2 point"
            return w2, info
        info["used"] = f"stage-1 point (stage 2 gave f={f2:.6g}, g={g2:.3e}, dist={d2:.6g})"
        return s1["w1"], info

    def solve(self, w0: np.ndarray) -> Optimum:
        """Certified optimum of (1), the minimiser closest to ``w0`` (see the module docstring)."""
        w0 = check_point(w0, self.dim)
        key = w0.tobytes()
        if key in self._solutions:
            return self._solutions[key]
        s1 = self._certified_stage1()
        unique = self._minimiser_is_unique()
        if unique:
            w_star, stage2 = s1["w1"], {"used": "skipped (minimiser unique)"}
        else:
            w_star, stage2 = self._closest(w0, s1)
        w_star = np.array(w_star, dtype=np.float64)
        w_star.setflags(write=False)
        f_star, g_star = self._values(w_star)
        tol = max(f_star - s1["L"], max(g_star, 0.0), 0.0) + 1e-12 * (1.0 + abs(f_star))
        details = {
            "status": s1["status"], "attempts": s1["attempts"], "f_lower_bound": s1["L"],
            "certificate": s1["certificate"], "rigorous": s1["rigorous"],
            "multiplier": s1["lam"], "feasibility_repair": s1["repair"],
            "upper_bound_from": s1["upper_bound_from"],
            "minimiser_unique": unique, "closest_stage": stage2,
        }
        opt = Optimum(w_star=w_star, f_star=f_star, g_star=g_star,
                      D=float(np.linalg.norm(w0 - w_star)), solver=s1["solver"],
                      tolerance=float(tol), details=details)
        self._solutions[key] = opt
        return opt
