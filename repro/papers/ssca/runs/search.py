"""Adversarial search (:mod:`repro.search`) for every SSCA claim with a finite, checkable bound: the admissible
instance that comes closest to breaking it, per structured family, and the halved-constant detector it gives.

Claims searched (``SEARCHES``) and the ratio each objective returns (> 1 exactly when the claim's check, with its
own tolerance, fails):

* ``ssca.lemma4`` (51). Rewritten with a positive right-hand side, (51) reads
  ``descent - gamma Delta err + gamma mu Delta^2 <= (L_hat/2) gamma^2 Delta^2`` (the same inequality). The ratio is
  the largest over iterations of ``lhs / (factor (L_hat/2) gamma^2 Delta^2 + tol)``, ``tol`` the float slack of
  :func:`repro.papers.ssca.checks.lemma4_outcome`: it exceeds 1 iff that check (with L_hat scaled by ``factor``)
  fails beyond its tolerance, and it is the multiple of the printed constant L_hat/2 that (51) needs on the run.
  (The check's own Outcome.ratio, observed/bound, is undefined where the bound is negative, the usual case.)
  Instances: Algorithm 1 / 3 (:mod:`repro.papers.ssca.algorithms.ssca`) on the M = 0 problems of
  :func:`repro.papers.ssca.runs.convergence.build_problem`, monitored by its ``Trajectory`` (both sides of (51)).
* ``ssca.eq9`` / ``ssca.eq19``: (9) on hat f of Algorithm 1 / 3's own iterates (and, for (9), on coefficient vectors
  of extreme scale), ``ssca.eq35_36``: (35)-(36), ``ssca.lemma1``: (40)-(42), each against the cvxpy reference of
  :mod:`repro.papers.ssca.problems.server`; the ratio is the relative error (as the audit measures it) over
  ``CLOSED_FORM_TOL``; an instance whose reference is not solved to optimality is not judged (nan).

``factor`` multiplies the claim's constant (0.5: the constant halved): L_hat/2 in (51); 1/(2 tau) in the closed
forms (evaluated with tau / factor). The searches' families are structured boxes: one sample / one feature / one
client / batch 1, few iterations, step sizes rho = a1/t^alpha, gamma = a2/t^beta at the edge of (4)/(6) (beta just
above max(alpha, 1/2)), extreme tau, lambda, c and coefficient scales, and every regime of (42).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import sympy as sp

from bounds.ssca import claims as B

from repro.errors import require
from repro.papers.ssca import checks as V
from repro.papers.ssca.algorithms import ssca as alg
from repro.papers.ssca.problems.instances import ReferenceSolveError
from repro.papers.ssca.runs import convergence as conv
from repro.runner import RunSpec
from repro.search import Check, Family, SearchConfig as SharedSearchConfig, SearchRecord, maximize_ratio

#: the audit's tolerance of a closed form against its cvxpy reference (repro.papers.ssca.evidence.CLOSED_FORM_TOL)
CLOSED_FORM_TOL = 1e-6
#: (maxiter, popsize, polish_evals) of each search per profile
BUDGET = {"quick": (2, 3, 12), "paper": (12, 8, 60)}
#: the float slack of (51): that of its check, :func:`repro.papers.ssca.checks.lemma4_outcome`
LEMMA4_TOL = V.LEMMA4_TOL


# ---------------------------------------------------------------------------- the families' coordinates
def _int(x: float) -> int:
    return int(round(float(x)))


#: coordinate name -> (box, value of the instance parameter); beta and n are derived in _derive
COORDS: dict[str, tuple[tuple[float, float], Callable]] = {
    "problem": ((0.0, 1.0), lambda x: conv.PROBLEMS[int(x >= 0.5)]),        # logistic_l2 / nonconvex_logistic
    "reg": ((-3.0, 1.0), lambda x: 10.0 ** x),
    "tau": ((-2.0, 1.0), lambda x: 10.0 ** x),
    "a1": ((0.01, 1.0), float), "alpha": ((0.01, 1.0), float), "a2": ((0.01, 1.0), float),
    "beta_edge": ((0.0, 1.0), float),
    "iterations": ((2.0, 30.0), _int), "few_iterations": ((2.0, 6.0), _int), "init_scale": ((0.0, 3.0), float),
    "data_seed": ((0.0, 999.0), _int),
    "d": ((1.0, 5.0), _int), "clients": ((1.0, 4.0), _int), "per_client": ((1.0, 5.0), _int),
    "n": ((1.0, 20.0), _int), "batch_frac": ((0.0, 1.0), float),
    "dim": ((1.0, 8.0), _int), "scale": ((-3.0, 3.0), lambda x: 10.0 ** x), "spread": ((0.0, 3.0), float),
    "lam": ((-5.0, 1.0), lambda x: 10.0 ** x), "beta_scale": ((-3.0, 3.0), lambda x: 10.0 ** x),
    "c": ((-1.0, 2.0), lambda x: 10.0 ** x), "gap": ((-2.0, 1.0), float), "A": ((-5.0, 5.0), float),
}
_STEPS = ("problem", "reg", "tau", "a1", "alpha", "a2", "beta_edge", "iterations", "init_scale", "data_seed")


def _derive(p: dict) -> dict:
    """Derived parameters: beta just above max(alpha, 1/2) (the edge of (6)), T and the sample count."""
    if "few_iterations" in p:
        p["iterations"] = p.pop("few_iterations")
    if "beta_edge" in p:
        p["beta"] = V.beta_near_edge(p["alpha"], p.pop("beta_edge"))
    if "per_client" in p:                 # sample-based: N_i samples per client; build_problem also gives each
        p["n"] = p["clients"] * p.pop("per_client")     # client a feature block, so d >= clients
        p["d"] = max(p["d"], p["clients"])
    if "batch_frac" in p:
        p["batch"] = 1 + _int(p.pop("batch_frac") * (p["n"] - 1))
    if p.get("mode") == "feature" and p.get("clients") == "d":
        p["clients"] = p["d"]
    return p


def family(name: str, coords: tuple[str, ...], **fixed) -> Family:
    """A :class:`Family` over ``coords`` (of :data:`COORDS`), with the ``fixed`` instance parameters."""
    def decode(x: np.ndarray) -> dict:
        return _derive({k: COORDS[k][1](v) for k, v in zip(coords, x)} | dict(fixed))

    return Family(name, coords, tuple(COORDS[k][0] for k in coords), decode)


# ---------------------------------------------------------------------------- instances: Algorithms 1 and 3
def run_instance(p: dict):
    """Algorithm 1 (``mode`` sample) or 3 (feature) on the instance ``p``: (problem, trace with the convergence run's
    series (both sides of (51)), hat f_{0,1}^(t) of every update)."""
    instance = conv.ProblemInstance(problem=p["problem"], n=p["n"], d=p["d"], clients=p["clients"], flip=0.1,
                                    reg=p["reg"])
    ss = np.random.SeedSequence([p["data_seed"], 2104_06011])
    data_rng, init_rng, run_rng, part_rng = (np.random.default_rng(s) for s in ss.spawn(4))
    problem, _, _, info = conv.build_problem(instance, data_rng)
    recorder = conv.Trajectory()
    clients = part_rng.permutation(p["n"]).reshape(p["clients"], -1) if p["mode"] == "sample" else None
    params = alg.SSCAParams(tau=p["tau"], steps=alg.PowerLawSteps(p["a1"], p["alpha"], p["a2"], p["beta"]),
                            iterations=p["iterations"], batch=p["batch"],
                            omega1=p["init_scale"] * init_rng.normal(size=problem.dim),
                            checkpoints=tuple(range(1, p["iterations"] + 1)), client_indices=clients,
                            monitor=recorder)
    run = alg.run_sample_based if p["mode"] == "sample" else alg.run_feature_based
    trace = recorder.observed(run(problem, params, run_rng), problem, 100.0, info.get("reference"))
    return problem, trace, [s.f_hat_lin[0] for s in recorder.states[1:]]


def _lemma4_parts(gamma, delta, err, mu: float, L_hat: float) -> tuple[np.ndarray, np.ndarray]:
    """(51)'s right side, read from its encoding (``ssca.lemma4``, as its check reads it), split into the part that
    carries the constant L_hat/2 (the bound at L_hat minus the bound at L_hat = 0) and the rest (gamma Delta err -
    gamma mu Delta^2). Assumption, named: the encoded bound is affine in L_hat, as (51) is; scaling L_hat scales
    the constant."""
    claim = B.claim("ssca.lemma4")
    key = str(claim.relations[0].lhs)
    values = {"gamma": np.asarray(gamma, float), "Delta": np.asarray(delta, float), "err": np.asarray(err, float),
              "mu": mu, "descent": np.zeros_like(np.asarray(gamma, float))}
    rest = np.asarray(claim.evaluate(**values, L_hat=0.0)[key], float)
    return np.asarray(claim.evaluate(**values, L_hat=L_hat)[key], float) - rest, rest


def _lemma4_ratios(descent, gamma, delta, err, mu: float, L_hat: float, factor: float) -> np.ndarray:
    constant, rest = _lemma4_parts(gamma, delta, err, mu, L_hat)
    return (np.asarray(descent, float) - rest) / (factor * constant + LEMMA4_TOL)


def lemma4_ratio(descent, gamma, delta, err, mu: float, L_hat: float, factor: float = 1.0) -> float:
    """max over iterations of (descent - gamma Delta err + gamma mu Delta^2) / (factor L_hat gamma^2 Delta^2 / 2 +
    tol), both parts of (51) read from its encoding (:func:`_lemma4_parts`): > 1 iff (51) with L_hat scaled by
    ``factor`` fails beyond the check's float tolerance."""
    ratios = _lemma4_ratios(descent, gamma, delta, err, mu, L_hat, factor)
    return float(np.max(ratios)) if ratios.size else math.nan


def lemma4_sides(descent, gamma, delta, err, mu: float, L_hat: float) -> tuple[float, float]:
    """(51)'s own two sides, F_0(w^(t+1)) - F_0(w^(t)) and gamma Delta err - gamma (mu - L_hat gamma/2) Delta^2 (from
    its encoding), at the iteration :func:`lemma4_ratio` is largest (what a report cites beside the searched ratio's
    verdict)."""
    k = int(np.argmax(_lemma4_ratios(descent, gamma, delta, err, mu, L_hat, 1.0)))
    constant, rest = _lemma4_parts(gamma, delta, err, mu, L_hat)
    return float(np.asarray(descent, float)[k]), float(constant[k] + rest[k])


def claim_sides(claim: str, params: dict, ratio: float) -> dict:
    """The searched claim's own observed value and bound at the best instance ``params``: (51)'s two sides for
    Lemma 4 (the run replayed), the relative error against cvxpy and its tolerance for a closed form."""
    if not params or not math.isfinite(ratio):
        return {}
    if claim in CLOSED_FORMS:
        return {"observed": ratio * CLOSED_FORM_TOL, "bound": CLOSED_FORM_TOL,
                "what": "relative error against cvxpy's solution, and its tolerance"}
    problem, trace, _ = run_instance(params)
    observed, bound = lemma4_sides(*V.lemma4_series(trace), 2 * params["tau"], problem.lipschitz_gradient())
    return {"observed": observed, "bound": bound, "what": "F_0(w^(t+1)) - F_0(w^(t)) and (51)'s right side"}


def lemma4_objective(p: dict, factor: float = 1.0) -> float:
    try:
        problem, trace, _ = run_instance(p)
    except ReferenceSolveError:
        return math.nan
    return lemma4_ratio(*V.lemma4_series(trace), 2 * p["tau"], problem.lipschitz_gradient(), factor)


# ---------------------------------------------------------------------------- closed forms against cvxpy
def _relative(x, ref) -> float:
    return float(np.linalg.norm(np.ravel(x) - np.ravel(ref)) / max(1.0, float(np.linalg.norm(ref))))


def _minimiser_28_error(closed: np.ndarray, coef: np.ndarray, tau: float) -> float:
    """Relative error of ``closed`` against cvxpy's argmin <coef, w> + tau ||w||^2, over CLOSED_FORM_TOL."""
    from repro.papers.ssca.problems.server import solve_problem_28

    ref = solve_problem_28(np.asarray(coef, float), tau)
    return _relative(closed, ref["omega"]) / CLOSED_FORM_TOL if ref["status"] == "optimal" else math.nan


def _coefficients(p: dict, scale: float, salt: int = 0) -> np.ndarray:
    """A vector of ``p['dim']`` entries of magnitude scale * 10^(spread u), u uniform in [0, 1], random signs."""
    rng = np.random.default_rng([p["data_seed"], salt])
    mags = scale * 10.0 ** (p.get("spread", 0.0) * rng.random(p["dim"]))
    return mags * rng.choice([-1.0, 1.0], size=p["dim"])


def eq9_objective(p: dict, factor: float = 1.0) -> float:
    """(9) on hat f: of the algorithm's own iterates (``p['mode']`` set) or a vector of extreme scale."""
    if "mode" in p:
        try:
            _, _, coefs = run_instance(p)
        except ReferenceSolveError:
            return math.nan
    else:
        coefs = [_coefficients(p, p["scale"])]
    errors = [_minimiser_28_error(B.omega_bar_unconstrained(f, p["tau"] / factor), f, p["tau"]) for f in coefs]
    return float(max(errors)) if errors else math.nan


def eq35_36_objective(p: dict, factor: float = 1.0) -> float:
    theta, beta = _coefficients(p, p["scale"], 1), _coefficients(p, p["beta_scale"], 2)
    closed = B.omega_bar_regularized(theta, beta, p["lam"], p["tau"] / factor)
    return _minimiser_28_error(closed, theta + 2 * p["lam"] * beta, p["tau"])


@functools.cache
def _cost_limit_of_gap() -> Callable[[float, float, float, float], float]:
    """U(A, b, tau, gap): the cost limit at which (42)'s case split, the encoded ``B.D_42`` = b + 4 tau (U - A), equals
    b (1 + gap), solved for U by sympy (so that the regimes follow the encoding): gap >= 0 inactive, -1 < gap < 0
    active or saturated, gap <= -1 saturated with D_42 <= 0."""
    gap = sp.Symbol("gap", real=True)
    tau, = B.D_42.free_symbols - {B.A_sym, B.b_sym, B.U_sym}           # the one symbol left is (42)'s tau
    U, = sp.solve(sp.Eq(B.D_42, B.b_sym * (1 + gap)), B.U_sym)
    return sp.lambdify((B.A_sym, B.b_sym, tau, gap), U, "math")


def lemma1_objective(p: dict, factor: float = 1.0) -> float:
    """(40)-(42) against cvxpy on (38), with U placed in the regime ``gap`` of (42)'s case split
    (:func:`_cost_limit_of_gap`)."""
    from repro.papers.ssca.problems.server import solve_problem_38

    theta = _coefficients(p, p["scale"])
    U = float(_cost_limit_of_gap()(p["A"], float(theta @ theta), p["tau"], p["gap"]))
    sol = B.lemma1_solution(theta, p["A"], U, p["tau"] / factor, p["c"])
    ref = solve_problem_38(theta, p["A"], U, p["tau"], p["c"])
    if ref["status"] != "optimal":
        return math.nan
    error = max(_relative(sol.omega, ref["omega"]), abs(sol.zeta - ref["zeta"]) / max(1.0, abs(ref["zeta"])))
    return float(error / CLOSED_FORM_TOL)


# ---------------------------------------------------------------------------- the searches
_SAMPLE = dict(mode="sample", batch=1)
_ONE = dict(n=1, d=1, clients=1)
_ITER_CF = ("tau", "few_iterations", "init_scale", "data_seed")        # closed forms on few iterations
SEARCHES: dict[str, tuple[Callable, tuple[Family, ...]]] = {
    "ssca.lemma4": (lemma4_objective, (
        family("one sample, one feature, one client, batch 1", _STEPS, **_SAMPLE, **_ONE),
        family("sample-based, few clients, batch 1", _STEPS + ("d", "clients", "per_client"), **_SAMPLE),
        family("feature-based, one block", _STEPS + ("d", "n", "batch_frac"), mode="feature", clients=1),
        family("feature-based, one feature per block", _STEPS + ("d", "n", "batch_frac"), mode="feature",
               clients="d"))),
    "ssca.eq9": (eq9_objective, (
        family("Algorithm 1 iterates, one sample and client, few iterations", _ITER_CF + ("problem", "reg", "d"),
               **_SAMPLE, n=1, clients=1, a1=1.0, alpha=0.5, a2=0.9, beta=0.75),
        family("coefficients of extreme scale and spread", ("dim", "tau", "scale", "spread", "data_seed")))),
    "ssca.eq19": (eq9_objective, (
        family("Algorithm 3 iterates, one block, few iterations", _ITER_CF + ("problem", "reg", "d", "n"),
               mode="feature", clients=1, batch=1, a1=1.0, alpha=0.5, a2=0.9, beta=0.75),
        family("Algorithm 3 iterates, one feature per block, few iterations", _ITER_CF + ("problem", "reg", "d", "n"),
               mode="feature", clients="d", batch=1, a1=1.0, alpha=0.5, a2=0.9, beta=0.75))),
    "ssca.eq35_36": (eq35_36_objective, (
        family("Theta, beta of extreme scale; lambda, tau extreme", ("dim", "tau", "lam", "scale", "beta_scale",
                                                                    "spread", "data_seed")),)),
    "ssca.lemma1": (lemma1_objective, (
        family("every regime of (42); tau, c, scale extreme", ("dim", "tau", "c", "scale", "gap", "A", "data_seed")),
        family("one dimension, every regime of (42)", ("tau", "c", "scale", "gap", "A", "data_seed"), dim=1))),
}
#: the constant each claim's ``factor`` scales (the halved-constant detector halves it)
CONSTANT = {"ssca.lemma4": "L_hat/2 of (51)", "ssca.eq9": "1/(2 tau) of (9)", "ssca.eq19": "1/(2 tau) of (19)",
            "ssca.eq35_36": "1/(2 tau) of (35)-(36)", "ssca.lemma1": "1/tau of (40)-(42) (tau doubled)"}


#: the claims that are closed forms (equalities, judged by the relative error against cvxpy): "loose" does not apply,
#: and their ratio is not proportional to the constant, so halving it is judged by evaluating the halved closed form
#: (:func:`halved_ratio`), not by the printed ratio exceeding 1/2
CLOSED_FORMS = ("ssca.eq9", "ssca.eq19", "ssca.eq35_36", "ssca.lemma1")


def searched_family(claim: str, name: str) -> Family:
    (fam,) = [f for f in SEARCHES[claim][1] if f.name == name]
    return fam


def objective(claim: str, factor: float = 1.0) -> Callable[[dict], float]:
    """The claim's objective with its constant (:data:`CONSTANT`) scaled by ``factor``."""
    fn = SEARCHES[claim][0]
    return lambda p: fn(p, factor)


def search(claim: str, name: str, *, seed: int, maxiter: int, popsize: int, polish_evals: int, factor: float = 1.0):
    """One seeded search of ``claim`` over its family ``name`` (a :class:`repro.search.SearchResult`)."""
    return maximize_ratio(objective(claim, factor), searched_family(claim, name), seed=seed, maxiter=maxiter,
                          popsize=popsize, polish_evals=polish_evals)


@dataclass(frozen=True, kw_only=True)
class SearchConfig(SharedSearchConfig):
    """One ``ssca.search`` run: the ``claim`` and its ``family`` (:data:`SEARCHES`), the differential evolution's
    ``maxiter`` generations of ``popsize`` x dimension points, the Nelder-Mead ``polish_evals``, the ``profile``."""

    def __post_init__(self) -> None:
        super().__post_init__()
        require(self.claim in SEARCHES, "claim", self.claim, f"one of {tuple(SEARCHES)}")
        names = tuple(f.name for f in SEARCHES[self.claim][1])
        require(self.family in names, "family", self.family, f"one of {names} (the families of {self.claim})")


def halved_ratio(claim: str, params: dict) -> float:
    """The claim's ratio at the instance ``params`` with its constant (:data:`CONSTANT`) halved: > 1 means that the
    search's best instance alone would have reported the halved constant violated (a genuine perturbation)."""
    return float(objective(claim, 0.5)(dict(params))) if params else math.nan


def halved_detection(cfg: SearchConfig, printed, seed: int) -> tuple[float, int]:
    """(ratio, instances judged) of the claim with its constant halved: the printed search's best instance first;
    when that does not break the halved claim, a search of the halved claim with the same family, seed and budget
    (a closed form's error is not proportional to its constant, so its best instance need not be the halved one's)."""
    if not printed.params:                             # the printed search judged no instance: nothing to halve
        return math.nan, 0
    at_best = halved_ratio(cfg.claim, printed.params)
    if at_best > 1:
        return at_best, 1
    again = search(cfg.claim, cfg.family, seed=seed, maxiter=cfg.maxiter, popsize=cfg.popsize,
                   polish_evals=cfg.polish_evals, factor=0.5)
    ratios = [r for r in (at_best, again.ratio) if math.isfinite(r)]
    return (max(ratios) if ratios else math.nan), int(math.isfinite(at_best)) + again.evaluations


def run_search(config: SearchConfig, seed: int):
    """Search one (claim, family) and judge its best instance: each objective folds the check's own tolerance into
    its ratio, so above 1 the check fails; the claim's own sides there (:func:`claim_sides`) are what a verdict
    cites, and their ratio only where it is observed/bound (a closed form's error over its tolerance; (51)'s sides
    can have any sign). A search that solved no instance records no check."""
    result = search(config.claim, config.family, seed=seed, maxiter=config.maxiter, popsize=config.popsize,
                    polish_evals=config.polish_evals)
    halved, halved_evaluations = halved_detection(config, result, seed)
    sides, closed = claim_sides(config.claim, dict(result.params), result.ratio), config.claim in CLOSED_FORMS
    checks = () if not sides else (
        Check(sides["observed"], sides["bound"], result.ratio if closed else None,
              "failed" if result.violated else "held", sides["what"]),)
    return SearchRecord(config.claim, config.family, result, checks, halved, halved_evaluations, closed,
                        {"constant": CONSTANT[config.claim]}).to_run()


def search_specs(profile: str) -> list[RunSpec]:
    maxiter, popsize, polish = BUDGET[profile]
    return [RunSpec("ssca.search", SearchConfig(claim=claim, family=f.name, maxiter=maxiter, popsize=popsize,
                                                polish_evals=polish, profile=profile), 0, run_search)
            for claim, (_, families) in SEARCHES.items() for f in families]
