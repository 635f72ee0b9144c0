"""PC-FedAvg's certified worst cases (``pcfedavg.pep``): performance-estimation (PEP) models of Algorithm 1 at small
sizes, the worst case of the quantity each of Propositions 4.7 and 4.8 (i)-(iii) bounds, certified by PEPit with
Clarabel (:mod:`repro.pep`), against the printed bound evaluated from the encoded claim (:mod:`bounds.pcfedavg.claims`).

What is modelled
----------------
Algorithm 1, lines 3-10, noise-free: the oracle of line 7 returns grad f_i exactly (Assumption 3.2 with nu = 0, the
deterministic special case of every claim; PEPit models no expectation over an oracle's noise). m agents, R rounds
of H local steps each (T_r = r H, so K = R H = T_R, as the proof of Prop. 4.7 assumes). Both update paths of the
suite's implementation (:mod:`repro.papers.pcfedavg.algorithms.pcfedavg`, config key ``path``): ``"printed"``
(line 8 as printed: the off-diagonal blocks use x_i^(j) - xhat_i) and ``"compact"`` ((CR): x_i <- x_i - gamma grad
g_{i,rho}(x_i), whose off-diagonal blocks use x_i^(i) - xhat_i). There is no branching: one trajectory per instance.

Function class (the claims' assumptions): every f_i L_f-smooth and convex on R^n (Assumption 3.1; PEPit's
``SmoothConvexFunction``, whose interpolation conditions make the worst case exact over the class in every
dimension n); every X_i nonempty, closed and convex (Assumption 3.3; PEPit's ``ConvexIndicatorFunction``, and
Pi_{X_i} is PEPit's ``proximal_step`` of that indicator). sigma_i = sigma for every agent (the claims are stated
with sigma = max_i sigma_i). The start z_0 = xbar_0 lies in X (line 1): each block z_0^(j) is a point of X_j.

Optimal points, by their optimality conditions (problem (1) and G_rho are convex, so these characterise them):
x* solves (1): -grad_j f(x*) is a normal of X_j at x*_j (KKT); x*_rho minimises G_rho = f + rho H over R^{mn}:
grad_j f(x*_rho) + (rho/m)(x*_rho,j - Pi_{X_j}[x*_rho,j]) = 0. grad f is Section 4's block formula (the one of
:meth:`PersonalizedProblem.grad_f`). The PEP chooses them adversarially, as the claims hold for any optimal x*.

Constants (nu = 0): Q = ||xbar_0 - x*_rho||^2, M = (1/m) sum_i ||grad F_i(x*)||^2 and D = ||grad f(x*)||^2 (the
definitions of Prop. 4.7/4.8 and of the proof of Theorem 3.4) are Gram-linear; the PEP bounds each by a given cap
(Q <= Q^, M <= M^, D <= D^) and the printed bound is evaluated at the caps. Every printed bound modelled here is
nondecreasing in Q, M and D, so a certified worst case above it comes with an instance (Q <= Q^, M <= M^, D <= D^)
on which the claim fails; one below it proves the claim on every instance of the class within the caps.

Quantities (E over K* uniform on {0..K-1} is the average over k = 0..K-1 of the virtual average xbar_k = (1/m)
sum_i x_{i,k}): Prop. 4.7, (1/K) sum_k G_rho(xbar_k) - G_rho(x*_rho); Prop. 4.8 (i), (1/K) sum_k f(xbar_k) - f(x*);
Prop. 4.8 (ii), (1/K) sum_k dist(xbar_k^(i), X_i)^2 for agent i = 1 (with equal sigma_i the model is symmetric in
the agents, so agent 1's worst case is every agent's); Prop. 4.8 (iii), the lower bound, as f(x*) - (1/K) sum_k
f(xbar_k) against minus the printed lower bound; Lemma 4.5, on the round r = R - 1 >= 1 of R rounds (as stated, 'for
any r >= 1'; H >= 2), sum_k (1/m) sum_i ||x_{i,k} - xbar_k||^2 - c sum_t (G_rho(xbar_t) - G_rho(x*_rho)) with c the
bound's weight on the gap sum (read from the encoding: 10 gamma^2 (H-1)^2 L_G) against the rest of the bound,
5 gamma^2 (H-1)^2 H (M + nu^2/m). Parameters, the claims' own: rho = sqrt(R) (Theorem 3.4's penalty)
and gamma the largest step Props. 4.7-4.8's encoded hypotheses admit (:func:`largest_step`: min{1/(6 L_G),
1/(5 L_G (H-1))}, L_G = (L_f + sigma (m-1))/m + rho of Lemma 4.1, lowered by 1e-12 relative: the step Algorithm 1's
theory runs take, :meth:`PersonalizedProblem.gamma_max`); their hypotheses are checked at every point.

Not modelled, and why: Theorem 3.4 (i)-(iii) and Remark 3.5 are order statements (R = O(.), O(eps^-2), O(eps^-1))
whose O hides unspecified constants, so no finite-round value can violate or attain them; their proof's step
gamma = 1/sqrt(R) moreover violates the theorem's own hypothesis gamma <= 1/(6 L_G) (6 gamma rho = 6 > 1), so at
that step not even Prop. 4.8 is claimed. The models here use the theorem's penalty schedule rho = sqrt(R) with the
admissible step. The stochastic terms (nu > 0) need an expectation over the oracle's noise, which PEPit does not
model. Display (12) and Lemmas 4.3, 4.4 and 4.6 (per-iteration steps of the proofs) are left to
``pcfedavg.theory``.

Replay: every point's worst-case functions (one table per f_i, one per X_i; :func:`repro.pep.worst_case_table`) are
run through the suite's own Algorithm 1 (:func:`repro.papers.pcfedavg.algorithms.pcfedavg.run`, record "kstar")
with :class:`repro.pep.TableOracle` as each agent's gradient oracle and as each set's projection
(:func:`replay`); the replayed quantity is stored beside the certificate, with the instance's Q, M, D and the
residuals of the optimality conditions of x* and x*_rho recomputed by the suite's own formulas
(:func:`instance_constants`: a cross-check of the block gradient used here). The run's recorder also asks for
values and distances that the quantity does not need and the PEP never made: those are NaN (:class:`TableLosses`).
The curves of Prop. 4.8 (ii), (iii) start at K = 2 (:data:`ZERO_AT_K1`). Lemma 4.5's replay reads the "full" record
(the drift and the gap per iteration), and its PEP evaluates G_rho at every iteration so that the record finds them.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp

from bounds.pcfedavg import claims as B
from repro import admissible, pep
from repro.constraints import ProductSet, Whole
from repro.errors import is_int, require
from repro.experiment import Config
from repro.papers.pcfedavg.algorithms import pcfedavg as alg
from repro.papers.pcfedavg.problems.personalized import PersonalizedProblem, Reference, largest_step
from repro.runner import RunSpec

EXPERIMENT = "pcfedavg.pep"
PATHS = alg.PATHS
#: claim id -> (model metric, observed symbol of its bound, sign of the quantity against the bound, quantity)
CLAIMS = {
    "pcfedavg.prop4.7": ("gap", "gap_Kstar", 1, "(1/K) sum_k G_rho(xbar_k) - G_rho(x*_rho)"),
    "pcfedavg.prop4.8.i": ("subopt", "subopt_Kstar", 1, "(1/K) sum_k f(xbar_k) - f(x*)"),
    "pcfedavg.prop4.8.ii": ("infeas", "infeas_i", 1, "(1/K) sum_k dist(xbar_k^(1), X_1)^2"),
    "pcfedavg.prop4.8.iii": ("neg_subopt", "subopt_Kstar", -1,
                             "f(x*) - (1/K) sum_k f(xbar_k) (minus the suboptimality; bound: minus the lower bound)"),
    "pcfedavg.lemma4.5": ("drift", "drift_round", 1,
                          "sum_k (1/m) sum_i delta_{i,k} - c sum_t (G_rho(xbar_t) - G_rho(x*_rho)) over round "
                          "r = R - 1 (c: the bound's weight on the gap sum; bound: the rest of it)"),
}
METRICS = ("gap", "subopt", "infeas", "neg_subopt", "drift", "final")
#: Lemma 4.5 is stated 'for any r >= 1' (its range erratum: Prop. 4.7 applies it from r = 0): its curves model the
#: round r = R - 1 of R >= 2 rounds, at H >= 2 (at H = 1 there is no drift and its bound is 0)
LEMMA45 = "pcfedavg.lemma4.5"
FUNCTION_CLASS = ("f_i L_f-smooth convex (PEPit SmoothConvexFunction), X_i closed convex (ConvexIndicatorFunction), "
                  "z_0 in X, nu = 0, Q <= Q^, M <= M^, D <= D^")


# ---------------------------------------------------------------------------------------------- the model
@dataclass(frozen=True)
class Model:
    """One PEP instance of Algorithm 1 (module docstring): ``m`` agents, ``R`` rounds of ``H`` local steps, step
    ``gamma``, penalty ``rho``, weight ``sigma`` (all agents), smoothness ``L_f``, update ``path``, the ``metric``
    (:data:`METRICS`; "final" = f(z_R) - f(x*), the last server iterate, for the degenerate check), the caps ``Q``,
    ``M``, ``D`` (None: no cap), ``constrained`` (False: X_i = R^n, no projection, x*_rho = x*) and ``gap_weight``,
    the weight c of the gap sum the "drift" metric subtracts (Lemma 4.5's bound: c = 10 gamma^2 (H-1)^2 L_G)."""

    m: int
    H: int
    R: int
    gamma: float
    rho: float
    sigma: float = 1.0
    L_f: float = 1.0
    path: str = "compact"
    metric: str = "gap"
    Q: float = 1.0
    M: float | None = 1.0
    D: float | None = 1.0
    constrained: bool = True
    gap_weight: float = 0.0

    def __post_init__(self) -> None:
        for key in ("m", "H", "R"):
            admissible.integer(key, getattr(self, key))
        for key in ("gamma", "rho", "sigma", "L_f", "Q"):
            admissible.real(key, getattr(self, key))
        for key in ("M", "D"):
            admissible.optional_real(key, getattr(self, key), False, "")
        admissible.one_of("path", self.path, PATHS)
        admissible.one_of("metric", self.metric, METRICS)
        require(self.constrained or self.metric in ("subopt", "final", "gap"), "metric", self.metric,
                "a metric without a set (subopt, gap, final) when constrained=False")
        require(self.metric != "drift" or (self.R >= 2 and self.H >= 2 and self.gap_weight >= 0), "metric",
                self.metric, "drift only at R >= 2 rounds of H >= 2 steps with gap_weight >= 0 (Lemma 4.5, r >= 1)")


@dataclass
class Built:
    """A built (and, after :func:`solve`, solved) model: the PEP, the f_i and X_i functions, and the points the
    replay starts from (z_0, x*, x*_rho block lists)."""

    problem: PEP
    fs: list
    sets: list | None
    z0: list
    xstar: list
    xrho: list


def _mean(points):
    return sum(points[1:], points[0]) / len(points)


def _zero() -> Point:
    from PEPit import Point

    return Point(is_leaf=False, decomposition_dict=dict())


def _grad_f(model: Model, fs, x):
    """Section 4's block gradient of f at the stacked ``x`` (list of m blocks): (blocks, grad f_i(xbar), xbar).
    With equal sigma_i the last term of the block formula, (1/m^2) sum_i sigma_i (x_i - xbar), is 0."""
    m = model.m
    xbar = _mean(x)
    g = [f.gradient(xbar) for f in fs]
    blocks = [_mean(g) / m + model.sigma / m * (xj - xbar) for xj in x]
    return blocks, g, xbar


def _f_value(model: Model, fs, x, xbar):
    """f(x) of problem (1) (Section 1) at the blocks ``x`` with average ``xbar`` (a Point all f_i are asked at)."""
    m = model.m
    return sum(f.value(xbar) + model.sigma / 2 * (xj - xbar) ** 2 for f, xj in zip(fs, x)) / m


def _optima(model: Model, fs, sets) -> dict:
    """x* (KKT of (1)) and x*_rho (grad G_rho = 0), each a list of m blocks, their averages, the normals
    x*_rho,j - Pi_{X_j}[x*_rho,j], and the constants M and D (module docstring) as Gram expressions."""
    from PEPit import Expression, Point

    m, sigma = model.m, model.sigma
    if sets is None:                       # X = R^{mn}: x* = x*_rho, every block at a minimiser of sum_i f_i
        xbar = sum(fs[1:], fs[0]).stationary_point()
        xstar, xrho, xbar_rho, normals_rho, D = [xbar] * m, [xbar] * m, xbar, None, None
    else:
        xstar = [Point() for _ in range(m)]
        grad_star, _, xbar = _grad_f(model, fs, xstar)
        for j in range(m):
            sets[j].add_point((xstar[j], -grad_star[j], Expression()))
        xrho = [Point() for _ in range(m)]
        grad_rho, _, xbar_rho = _grad_f(model, fs, xrho)
        normals_rho = [-(m / model.rho) * g for g in grad_rho]
        for j in range(m):
            sets[j].add_point((xrho[j] - normals_rho[j], normals_rho[j], Expression()))
        D = sum(g ** 2 for g in grad_star)
    grads = [f.gradient(xbar) for f in fs]
    M = sum((grads[i] / m + sigma * ((1.0 if j == i else 0.0) - 1 / m) * (xstar[i] - xbar)) ** 2
            for i in range(m) for j in range(m)) / m
    return {"xstar": xstar, "xbar": xbar, "xrho": xrho, "xbar_rho": xbar_rho, "normals_rho": normals_rho,
            "M": M, "D": D}


def _project(sets, j: int, point) -> Point:
    """x - Pi_{X_j}[x] for x = ``point``: PEPit's proximal step of X_j's indicator (its new subgradient leaf)."""
    from PEPit.primitive_steps import proximal_step

    _, normal, _ = proximal_step(point, sets[j], 1.0)
    return normal


def _local_step(model: Model, i: int, X: list, grad, normal) -> list:
    """Agent i's blocks ``X`` after one step of line 8 (path "printed") or (CR) (path "compact"); ``grad`` =
    grad f_i(xhat_i), ``normal`` = x_i^(i) - Pi_{X_i}[x_i^(i)] (None without sets)."""
    m, sigma = model.m, model.sigma
    xhat, own = _mean(X), X[i]
    out = []
    for j, x in enumerate(X):
        if j == i:
            step = grad / m + sigma * (m - 1) / m * (own - xhat)
            step = step if normal is None else step + model.rho * normal
        else:
            step = grad / m - sigma / m * ((x if model.path == "printed" else own) - xhat)
        out.append(x - model.gamma * step)
    return out


def _trajectory(model: Model, fs, sets, z0: list):
    """Lines 3-10 for R rounds from z_0: per iteration k the virtual average xbar_k (blocks), A xbar_k and, at
    k = T_r, the normals of xbar_k's blocks (None elsewhere: :func:`_metric` projects only what it needs); z_R; and
    per iteration k the agents' copies x_{i,k} (blocks; Lemma 4.5's delta_{i,k} = ||x_{i,k} - xbar_k||^2).
    At k = T_r every agent's blocks are z_r, so agent i's query A z_r and its projection of z_r^(i) are xbar_k's
    own (one PEPit point each); z_0 in X is its own projection (normal 0)."""
    m = model.m
    z = list(z0)
    normals_z = [_zero() for _ in range(m)] if sets else None
    seen, copies = [], []
    for r in range(model.R):
        az = _mean(z)
        if sets is not None and r > 0:
            normals_z = [_project(sets, j, z[j]) for j in range(m)]
        X = [list(z) for _ in range(m)]                                   # line 3
        for t in range(model.H):
            copies.append(X)
            if t == 0:
                seen.append((z, az, normals_z))
            else:
                xbar = [_mean([X[i][j] for i in range(m)]) for j in range(m)]
                seen.append((xbar, _mean(xbar), None))
            new = []
            for i in range(m):
                xhat = az if t == 0 else _mean(X[i])                      # line 6
                normal = None if sets is None else (normals_z[i] if t == 0 else _project(sets, i, X[i][i]))
                new.append(_local_step(model, i, X[i], fs[i].gradient(xhat), normal))   # lines 7-8
            X = new
        z = [_mean([X[i][j] for i in range(m)]) for j in range(m)]        # line 10
    return seen, z, copies


def _normals(sets, seen, blocks) -> list:
    """Per iteration k, the normals xbar_k^(j) - Pi_{X_j}[xbar_k^(j)] of the ``blocks`` j (projected here where
    :func:`_trajectory` did not)."""
    return [[(given[j] if given is not None else _project(sets, j, xbar[j])) for j in blocks]
            for xbar, _, given in seen]


def _penalty(model: Model, normals) -> Expression:
    """H(x) = (1/m) sum_j (1/2) dist(x_j, X_j)^2 (eq. (2)) from the normals x_j - Pi_{X_j}[x_j]."""
    return sum(n ** 2 for n in normals) / (2 * model.m)


def _G_rho(model: Model, fs, blocks, xbar, normals) -> Expression:
    """G_rho = f + rho H (eq. (2)) at the stacked ``blocks`` with average ``xbar`` and normals ``normals``."""
    return _f_value(model, fs, blocks, xbar) + model.rho * _penalty(model, normals)


def _drift_metric(model: Model, fs, sets, opt: dict, seen: list, copies: list) -> Expression:
    """Lemma 4.5 on the last round (k = (R-1) H .. R H - 1): sum_k (1/m) sum_i ||x_{i,k} - xbar_k||^2 minus
    ``model.gap_weight`` times sum_k (G_rho(xbar_k) - G_rho(x*_rho)). G_rho is evaluated at every iteration (the
    replay's record reads them all; points the metric does not use change no worst case)."""
    m, last = model.m, slice(len(seen) - model.H, len(seen))
    g_star = _G_rho(model, fs, opt["xrho"], opt["xbar_rho"], opt["normals_rho"])
    gaps = [_G_rho(model, fs, xbar, ax, normals) - g_star
            for (xbar, ax, _), normals in zip(seen, _normals(sets, seen, range(m)))]
    drift = sum(sum((X[i][j] - xbar[j]) ** 2 for i in range(m) for j in range(m)) / m
                for X, (xbar, _, _) in zip(copies[last], seen[last]))
    return drift - model.gap_weight * sum(gaps[last])


def _metric(model: Model, fs, sets, opt: dict, seen: list, z: list) -> Expression:
    """The performance metric of ``model.metric`` (module docstring; "drift": :func:`_drift_metric`); only the
    points it needs are added."""
    K = len(seen)
    if model.metric == "infeas":
        return sum(normals[0] ** 2 for normals in _normals(sets, seen, [0])) / K
    f_star = _f_value(model, fs, opt["xstar"], opt["xbar"])
    if model.metric == "final":
        return _f_value(model, fs, z, _mean(z)) - f_star
    f_avg = sum(_f_value(model, fs, xb, ax) for xb, ax, _ in seen) / K
    if model.metric == "subopt" or (model.metric == "gap" and sets is None):
        return f_avg - f_star
    if model.metric == "neg_subopt":
        return f_star - f_avg
    pen_avg = sum(_penalty(model, normals) for normals in _normals(sets, seen, range(model.m))) / K
    return f_avg + model.rho * pen_avg - _G_rho(model, fs, opt["xrho"], opt["xbar_rho"], opt["normals_rho"])


def build(model: Model) -> Built:
    """The PEP of ``model``: class, optimal points, caps, start z_0 in X, the R rounds and the metric."""
    from PEPit import PEP, Expression
    from PEPit.functions import ConvexIndicatorFunction, SmoothConvexFunction

    problem = PEP()
    fs = [problem.declare_function(SmoothConvexFunction, L=model.L_f) for _ in range(model.m)]
    sets = ([problem.declare_function(ConvexIndicatorFunction) for _ in range(model.m)] if model.constrained
            else None)
    opt = _optima(model, fs, sets)
    z0 = [problem.set_initial_point() for _ in range(model.m)]
    for j in range(model.m if sets else 0):
        sets[j].add_point((z0[j], _zero(), Expression()))                # line 1: z_0 in X
    problem.set_initial_condition(sum((a - b) ** 2 for a, b in zip(z0, opt["xrho"])) <= model.Q)
    if model.M is not None:
        problem.add_constraint(opt["M"] <= model.M)
    if model.D is not None and opt["D"] is not None:
        problem.add_constraint(opt["D"] <= model.D)
    seen, z, copies = _trajectory(model, fs, sets, z0)
    problem.set_performance_metric(_drift_metric(model, fs, sets, opt, seen, copies) if model.metric == "drift"
                                   else _metric(model, fs, sets, opt, seen, z))
    return Built(problem, fs, sets, z0, opt["xstar"], opt["xrho"])


def solve(model: Model) -> tuple[pep.Certificate, Built]:
    """Build and certify ``model`` (:func:`repro.pep.certify`: Clarabel, dual value = certified worst case)."""
    built = build(model)
    return pep.certify(built.problem), built


# ---------------------------------------------------------------------------------------------- claims' parameters
def schedule(m: int, H: int, R: int, sigma: float, L_f: float) -> dict:
    """The claims' own parameters at (m, H, R): rho = sqrt(R) and K = R H (Theorem 3.4's ``parameters``), and
    gamma, the largest step Props. 4.7-4.8's hypotheses admit (:func:`largest_step`, read from Prop. 4.7's encoded
    hypotheses; Props. 4.8 (i)-(iii) state the same step conditions)."""
    values = {B.m: m, B.H: H, B.R: R, B.L_f: L_f, B.sigma: sigma}
    rho = float(B.thm34_i.parameters[B.rho].subs(values))
    K = int(B.thm34_i.parameters[B.K].subs(values))
    gamma = largest_step("pcfedavg.prop4.7", {"m": m, "H": H, "L_f": L_f, "sigma": sigma, "rho": rho})
    return {"m": m, "H": H, "K": K, "L_f": L_f, "sigma": sigma, "rho": rho, "gamma": gamma, "nu": 0.0}


def gap_weight(values: dict) -> float:
    """Lemma 4.5's weight c on the gap sum, d(bound)/d(gap sum) of the encoded claim at ``values`` (by name): what the
    "drift" metric subtracts, read from the encoding (10 gamma^2 (H-1)^2 L_G as printed)."""
    bound = B.claim(LEMMA45).conclusion[0].rhs
    return float(sp.diff(bound, B.gap_round).subs({sym: values[sym.name] for sym in bound.free_symbols
                                                    if sym.name in values}))


def printed_bound(claim_id: str, values: dict) -> float:
    """The printed bound on the modelled quantity at ``values`` (the claim's symbols by name), evaluated from the
    encoded claim; its hypotheses must hold there. For Prop. 4.8 (iii), a lower bound on the suboptimality, the
    quantity is minus the suboptimality and this is minus the printed lower bound."""
    claim = B.claim(claim_id)
    _, observed, sign, _ = CLAIMS[claim_id]
    require(bool(claim.hypotheses_hold(**values)), "parameters", values, f"a point where {claim_id}'s hypotheses hold")
    return float(sign * claim.evaluate(**values)[observed])


# ---------------------------------------------------------------------------------------------- replay
class TableLosses:
    """The worst-case f_1..f_m as the suite's local losses (the interface of
    :class:`~repro.papers.pcfedavg.problems.personalized.Quadratic`): row i of ``gradients`` is agent i's
    :class:`repro.pep.TableOracle` at row i (a query off the table fails the replay), ``stochastic_gradients`` the
    noise-free oracle (nu = 0). ``values`` serves the run's recorder, which evaluates every quantity of the
    "kstar" record while a PEP holds the points of its own quantity only: a value off the table is NaN, so a
    quantity that needs it cannot reproduce the certificate."""

    nu = 0.0

    def __init__(self, tables: list, L_f: float):
        self.oracles = [pep.TableOracle(t) for t in tables]
        self.m, self.n, self.L_f = len(tables), int(tables[0].x.shape[1]), float(L_f)

    def _rows(self, Y, part: int) -> np.ndarray:
        Y = np.asarray(Y, dtype=np.float64)
        out = [[_lenient(o, y, part) if part else o(y)[0] for o, y in zip(self.oracles, row)]
               for row in Y.reshape(-1, self.m, self.n)]
        return np.asarray(out).reshape(Y.shape if part == 0 else Y.shape[:-1])

    def gradients(self, Y) -> np.ndarray:
        return self._rows(Y, 0)

    def values(self, Y) -> np.ndarray:
        return self._rows(Y, 1)

    def stochastic_gradients(self, Y, rng) -> np.ndarray:
        return self.gradients(Y)

    def describe(self) -> dict:
        return {"family": "pep-table", "m": self.m, "n": self.n, "L_f": self.L_f}


def _lenient(oracle, y, part: int):
    """``oracle(y)[part]``, NaN (a scalar or a vector) when ``y`` is off the table."""
    try:
        return oracle(y)[part]
    except pep.ReplayError:
        return np.full(len(y), np.nan) if part == 0 else float("nan")


class TableSets(ProductSet):
    """The worst-case X_1..X_m as the suite's product set: Pi_{X_j}[y] is the table point p of X_j's indicator whose
    proximal pre-image p + g (g = y - p, the normal PEPit's proximal step returns) is ``y`` -- a
    :class:`repro.pep.TableOracle` over the pre-images, so a projection the PEP never made fails the replay.
    ``distance`` serves the recorder and is NaN off the table (as :meth:`TableLosses.values`)."""

    def __init__(self, tables: list):
        super().__init__([Whole(int(tables[0].x.shape[1]))] * len(tables))
        self.oracles = [pep.TableOracle(pep.Table(t.x + t.g, t.x, t.f)) for t in tables]

    def _map(self, x, lenient: bool) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        out = [[_lenient(o, y, 0) if lenient else o(y)[0] for o, y in zip(self.oracles, row)]
               for row in x.reshape(-1, self.m, self.dim)]
        return np.asarray(out).reshape(x.shape)

    def project(self, x) -> np.ndarray:
        return self._map(x, lenient=False)

    def distance(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        return np.linalg.norm(x - self._map(x, lenient=True), axis=-1)


def extract(built: Built, prefix: str) -> dict:
    """The worst-case instance of a solved model as flat arrays: one table per f_i (``<prefix>_f<i>``) and per X_j
    (``<prefix>_X<j>``), and the blocks (m, n) of z_0, x*, x*_rho."""
    out = {}
    for i, f in enumerate(built.fs):
        out |= pep.worst_case_table(f).arrays(f"{prefix}_f{i}")
    for j, s in enumerate(built.sets or ()):
        out |= pep.worst_case_table(s).arrays(f"{prefix}_X{j}")
    for key in ("z0", "xstar", "xrho"):
        out[f"{prefix}_{key}"] = np.array([np.atleast_1d(p.eval()) for p in getattr(built, key)])
    return out


def _replay_problem(model: Model, arrays: dict, prefix: str):
    """The suite's :class:`PersonalizedProblem` on the worst-case instance ``arrays`` (:func:`extract`), and its
    z_0, x*, x*_rho blocks."""
    m = model.m
    local = TableLosses([pep.Table.from_arrays(arrays, f"{prefix}_f{i}") for i in range(m)], model.L_f)
    sets = (TableSets([pep.Table.from_arrays(arrays, f"{prefix}_X{j}") for j in range(m)]) if model.constrained
            else ProductSet([Whole(local.n)] * m))
    problem = PersonalizedProblem(local, np.full(m, model.sigma), sets)
    return problem, *(np.asarray(arrays[f"{prefix}_{k}"]) for k in ("z0", "xstar", "xrho"))


def replay(model: Model, arrays: dict, prefix: str) -> float:
    """The quantity of ``model.metric`` on the worst-case instance ``arrays`` (:func:`extract`), computed by the
    suite's own Algorithm 1 (:func:`repro.papers.pcfedavg.algorithms.pcfedavg.run`, record "kstar": the averages over
    k = 0..K-1) with the tables as every agent's oracle and every set's projection (:class:`TableLosses`,
    :class:`TableSets`); a :class:`repro.pep.ReplayError` if the run leaves the certified trajectory."""
    problem, z0, xstar, xrho = _replay_problem(model, arrays, prefix)
    nan = float("nan")
    reference = Reference(rho=model.rho, x_star=xstar, x_rho=xrho, f_star=float(problem.f(xstar)),
                          G_rho_star=float(problem.G(xrho, model.rho)), D=nan, M=nan, M_rho=nan,
                          Q=float(np.sum((z0 - xrho) ** 2)), residual_star=nan, residual_rho=nan, solvers={})
    params = alg.PCFedAvgParams(gamma=model.gamma, rounds=model.R, local_steps=model.H, x0=z0, rho=model.rho,
                                path=model.path, record="full" if model.metric == "drift" else "kstar",
                                reference=reference)
    trace = alg.run(problem, params, np.random.default_rng(0))
    r = trace.records
    if model.metric == "drift":                      # the "full" record: per iteration, the last round's H
        last = slice(-model.H, None)
        return float(np.sum(r["drift"][0, last]) - model.gap_weight * np.sum(r["gap"][0, last]))
    if model.metric == "final":
        return float(problem.f(trace.z[0]) - reference.f_star)
    return float({"gap": r["kstar_gap"][0], "subopt": r["kstar_subopt"][0], "infeas": r["kstar_infeas"][0, 0],
                  "neg_subopt": -r["kstar_subopt"][0]}[model.metric])


def instance_constants(model: Model, arrays: dict, prefix: str) -> dict:
    """Q, M, D of the worst-case instance by the suite's own definitions (those of
    :meth:`PersonalizedProblem.solve`'s :class:`Reference`, nu = 0), and the residuals of the optimality conditions
    the PEP imposed, recomputed with the suite's gradients: ||grad G_rho(x*_rho)|| and, for x*, the largest
    ||grad_j f(x*) + n_j|| with n_j the normal of X_j the PEP put at x*_j (KKT of (1))."""
    problem, z0, xstar, xrho = _replay_problem(model, arrays, prefix)
    free = PersonalizedProblem(problem.local, problem.sigma, ProductSet([Whole(problem.n)] * model.m))
    grad = problem.grad_f(xstar)
    if model.constrained:
        normals = [pep.Table.from_arrays(arrays, f"{prefix}_X{j}") for j in range(model.m)]
        normals = np.array([t.g[np.argmin(np.linalg.norm(t.x - xstar[j], axis=1))] for j, t in enumerate(normals)])
        kkt, g_rho = grad + normals, problem.grad_G(xrho, model.rho)
    else:
        kkt, g_rho = grad, grad
    return {"Q": float(np.sum((z0 - xrho) ** 2)), "M": free._mean_local_sq(xstar, 0.0), "D": float(np.sum(grad**2)),
            "grad_G_rho": float(np.linalg.norm(g_rho)), "kkt_star": float(np.linalg.norm(kkt, axis=-1).max())}


# ---------------------------------------------------------------------------------------------- the experiment
#: the replayed quantity and the certificate agree within this tolerance, relative to max(1, |value|): the replay
#: evaluates the extracted instance, whose Gram matrix PEPit projects onto the PSD cone (a change of the order of
#: the solver's feasibility residual), while the primal value uses the solver's Gram matrix itself
REPLAY_RTOL = 1e-5
#: the grid per profile: cases (m, H, rounds R), the caps (Q^, M^, D^) and sigma, L_f
PEP_GRID = {
    "quick": {"cases": ((2, 1, (1, 2, 3, 4)), (2, 2, (1, 2))), "caps": ((1.0, 1.0, 1.0),)},
    "paper": {"cases": ((2, 1, (1, 2, 3, 4, 6)), (2, 2, (1, 2, 3)), (2, 3, (1, 2)), (3, 1, (1, 2, 3, 4)),
                        (3, 2, (1, 2))),
              "caps": ((1.0, 1.0, 1.0), (1.0, 0.01, 10.0))},
}


@dataclass(frozen=True, kw_only=True)
class PepConfig(Config):
    """One curve of ``pcfedavg.pep``: the ``claim`` (:data:`CLAIMS`) on Algorithm 1's ``path`` with ``m`` agents and
    ``H`` local steps, at each number of rounds in ``rounds``; caps ``Q``, ``M``, ``D`` on the constants; equal
    weights ``sigma`` and smoothness ``L_f``."""

    claim: str
    path: str
    m: int
    H: int
    rounds: list
    Q: float = 1.0
    M: float = 1.0
    D: float = 1.0
    sigma: float = 1.0
    L_f: float = 1.0
    profile: str

    def __post_init__(self) -> None:
        admissible.one_of("claim", self.claim, tuple(CLAIMS))
        admissible.one_of("path", self.path, PATHS)
        require(is_int(self.m) and 2 <= self.m <= 3, "m", self.m, "an integer in 2..3 (the claims need m >= 2)")
        require(is_int(self.H) and 1 <= self.H <= 3, "H", self.H, "an integer in 1..3")
        rounds = tuple(self.rounds) if isinstance(self.rounds, (list, tuple)) else ()
        require(len(rounds) >= 1 and all(is_int(r) and r >= 1 for r in rounds) and max(rounds) * self.H <= 12,
                "rounds", self.rounds, "a non-empty list of integers R >= 1 with R H <= 12")
        object.__setattr__(self, "rounds", list(rounds))      # the runner's canonical (JSON) form
        for key in ("Q", "M", "D", "sigma", "L_f"):
            admissible.real(key, getattr(self, key))

    def values(self, R: int) -> dict:
        """The claim's symbols (by name) at R rounds: :func:`schedule` (for Lemma 4.5 with the largest step its own
        hypothesis admits), the caps, and Lemma 4.5's round (length H, its gap sum 0 in the bound: the metric
        subtracts it, :func:`gap_weight`)."""
        s = schedule(self.m, self.H, R, self.sigma, self.L_f) | {"Q": self.Q, "M": self.M, "D": self.D,
                                                                  "round_len": self.H, "gap_round": 0.0}
        if self.claim == LEMMA45:        # its own hypothesis 5 gamma L_G (H-1) <= 1 admits more than Props. 4.7-4.8's
            s["gamma"] = largest_step(LEMMA45, {k: s[k] for k in ("m", "H", "L_f", "sigma", "rho", "round_len")})
        return s

    def model(self, R: int) -> Model:
        s, metric = self.values(R), CLAIMS[self.claim][0]
        return Model(m=self.m, H=self.H, R=R, gamma=s["gamma"], rho=s["rho"], sigma=self.sigma, L_f=self.L_f,
                     path=self.path, metric=metric, Q=self.Q, M=self.M, D=self.D,
                     gap_weight=gap_weight(s) if metric == "drift" else 0.0)


def _point(c: PepConfig, R: int, index: int) -> tuple[dict, dict]:
    """One parameter point: certificate, printed bound, decision and replay; the worst-case instance's arrays."""
    model, values = c.model(R), c.values(R)
    bound = printed_bound(c.claim, values)
    cert, built = solve(model)
    prefix = f"p{index}"
    arrays = extract(built, prefix)
    try:
        replayed, error = replay(model, arrays, prefix), None
        constants = instance_constants(model, arrays, prefix)
    except (pep.ReplayError, ValueError) as exc:
        replayed, error, constants = float("nan"), f"{type(exc).__name__}: {exc}", {}
    record = pep.point({"path": c.path, "m": c.m, "H": c.H, "R": R, "Q": c.Q, "M": c.M, "D": c.D}, bound, cert)
    record |= {"rho": model.rho, "gamma": model.gamma, "nu": values["nu"], "K": values["K"], "instance": constants,
               "replay": replayed, "replay_error": error,
               "replay_ok": bool(abs(replayed - cert.value) <= REPLAY_RTOL * max(1.0, abs(cert.value)))}
    return record, arrays


def run_pep(config: PepConfig, seed: int):
    """The certified worst case of ``config``'s claim at every R of ``rounds`` (deterministic: ``seed`` unused),
    against the printed bound; each point's worst-case instance kept for its replay."""
    points, arrays = [], {}
    for index, R in enumerate(config.rounds):
        record, instance = _point(config, R, index)
        points.append(record)
        arrays |= instance
    for key in ("bound", "value", "primal", "replay"):
        arrays[key] = np.array([p[key] if key in p else p["certificate"][key] for p in points])
    arrays["R"] = np.array(config.rounds)
    _, _, _, quantity = CLAIMS[config.claim]
    method = (f"PC-FedAvg (Algorithm 1, path {config.path}: "
              + ("line 8 as printed" if config.path == "printed" else "(CR)")
              + f"), m={config.m}, H={config.H}, rho=sqrt(R), largest admissible gamma, noise-free")
    curve = pep.curve(config.claim, quantity, FUNCTION_CLASS, method, points, x="R")
    return arrays, curve | {"replay_rtol": REPLAY_RTOL}


#: claims whose quantity is 0 at K = 1 on every instance (xbar_0 = z_0 in X by line 1: no infeasibility, and
#: f(x*) - f(z_0) <= 0): their curves start at K = R H >= 2, as a certified 0 has no place on log axes
ZERO_AT_K1 = ("pcfedavg.prop4.8.ii", "pcfedavg.prop4.8.iii")


def pep_specs(profile: str) -> list[RunSpec]:
    """One run per (claim, path, (m, H), caps) of :data:`PEP_GRID`; the points of a run are its rounds R
    (R H >= 2 for :data:`ZERO_AT_K1`)."""
    grid = PEP_GRID[profile]
    return [RunSpec(EXPERIMENT, PepConfig(claim=claim, path=path, m=m, H=H, Q=Q, M=M, D=D, profile=profile,
                                          rounds=taken), 0, run_pep)
            for claim in CLAIMS for path in PATHS for m, H, rounds in grid["cases"] for Q, M, D in grid["caps"]
            if (taken := _rounds(claim, H, rounds))]


def _rounds(claim: str, H: int, rounds) -> tuple:
    """The grid's rounds a claim's curve takes: R H >= 2 for :data:`ZERO_AT_K1`, R >= 2 and H >= 2 for
    :data:`LEMMA45`."""
    return tuple(R for R in rounds if (claim not in ZERO_AT_K1 or R * H >= 2)
                 and (claim != LEMMA45 or (R >= 2 and H >= 2)))


def work(config: dict) -> float:
    """Work model: a PEP's solve grows steeply with its size; sum over the rounds of (m R H)^3."""
    run = PepConfig.from_dict(config)
    return float(sum((run.m * R * run.H) ** 3 for R in run.rounds))
