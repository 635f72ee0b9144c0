"""SSCA's failure-probability search (``ssca.failsearch``): the instance on which Lemma 4's (51), stated
deterministically for every iteration of Algorithm 1 ("F0(w^(t+1)) - F0(w^(t)) <= gamma^(t) ||w_bar^(t) - w^(t)||
||grad F0(w^(t)) - grad F_bar_0^(t)(w^(t))|| - gamma^(t) (mu - L_hat gamma^(t)/2) ||w_bar^(t) - w^(t)||^2"), is most
likely to fail over the minibatch draws, and that probability as an exact fraction
(:func:`repro.failure_search.maximize_failure_probability`).

Each instance is enumerated by ``ssca.exact``'s code (:func:`repro.papers.ssca.runs.exact.enumerate_instance`):
every one of the C(N_i, B)^(I (T - 1)) equally likely minibatch patterns is replayed through Algorithm 1 and (51) is
judged at every iteration by :func:`repro.papers.ssca.checks.lemma4_outcome` (mu = 2 tau, L_hat the exact global
Lipschitz constant of grad F0). The families (:data:`FAMILIES`) are degenerate: a batch of one (B = 1), one client,
d = 1 (where the Cauchy-Schwarz step of (51)'s proof is an equality), the smallest horizons (one to three
iterations), and the step sizes rho^(t) = a1/t^alpha of (4) and gamma^(t) = a2/t^beta of (6) with every boundary
value the paper's conditions admit at an END of its coordinate: a1 = 1 and a2 = 1 (the largest first steps: (3) and
(5) stay convex combinations, this project's requirement), beta = 1 (the largest exponent (6) admits; its other edge,
beta = max(alpha, 1/2), is excluded by (6) and is approached to within
:data:`repro.papers.ssca.checks.BETA_MARGIN`), alpha near 0 and near 1
((4) admits alpha in (0, 1]; (6)'s beta > alpha excludes alpha = 1 itself).

Assumptions, named: the data, partition and w^(1) are those ``ssca.exact`` builds at seed 0
(:func:`repro.papers.ssca.runs.exact.build_instance`), only the step sizes are replaced; an instance whose step sizes
fail (4) or (6) counts as inadmissible (worst, never a failure): Lemma 2's encoded step-size hypotheses (alpha in
(0, 1], beta in (max(alpha, 1/2), 1]) decide them per instance, and :func:`bounds.ssca.claims.power_law_conditions`
(sympy and the p-series rule, which it requires to agree) decides them again at the best instance (metadata
``step_conditions``); the horizon profile raises the number of iterations while the patterns stay within
:data:`repro.papers.ssca.runs.exact.MAX_PATTERNS`.
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import numpy as np

from bounds.ssca import claims as B
from repro.errors import ConfigError, require
from repro.papers.ssca import checks as V
from repro.failure_search import (FailureSearchConfig, FailureSearchRecord, horizon_profile,
                                  maximize_failure_probability)
from repro.papers.ssca.algorithms import ssca as alg
from repro.papers.ssca.runs import exact as EX
from repro.runner import RunSpec
from repro.search import Family

STEP_BOX = {"a1": (0.05, 1.0), "a2": (0.05, 1.0), "alpha": (0.01, 0.99), "beta_edge": (0.0, 1.0)}
#: family -> (fixed ExactConfig keys, {coordinate: interval}); ``problem`` indexes ``ssca.exact``'s problems
FAMILIES = {
    "batch1-client1": ({"clients": 1, "per_client": 3, "batch": 1, "d": 1},
                       {"problem": (0.0, 1.0)} | STEP_BOX | {"updates": (1.0, 3.0)}),
    "batch1-two-clients": ({"clients": 2, "per_client": 2, "batch": 1, "d": 2},
                           {"problem": (0.0, 1.0)} | STEP_BOX | {"tau": (0.05, 2.0), "updates": (1.0, 2.0)}),
}


def decode(fixed: dict, names: tuple, x: np.ndarray) -> dict:
    """One instance's parameters from a point ``x`` of a family's box: the problem, the updates rounded, beta from
    its edge coordinate (:func:`repro.papers.ssca.checks.beta_near_edge`)."""
    v = dict(fixed) | {k: float(c) for k, c in zip(names, x)}
    v["beta"] = V.beta_near_edge(v["alpha"], v.pop("beta_edge"))
    v["problem"] = EX.EXACT_PROBLEMS[int(v["problem"] >= 0.5)]
    v["updates"] = int(round(v["updates"]))
    return {k: v[k] for k in sorted(v)}


def family(name: str, box: dict | None = None) -> Family:
    """The family ``name`` of :data:`FAMILIES` (``box`` overrides intervals: the tests' perturbations)."""
    fixed, intervals = FAMILIES[name]
    intervals = intervals | (box or {})
    names = tuple(intervals)
    return Family(name, names, tuple(intervals.values()), functools.partial(decode, fixed, names))


def _config(params: dict) -> EX.ExactConfig:
    keys = {"problem", "clients", "per_client", "batch", "updates", "d", "tau"}
    return EX.ExactConfig(steps="theory_a", profile="failsearch", **{k: v for k, v in params.items() if k in keys})


def enumerate_instance(params: dict, L_factor: float = 1.0):
    """The :class:`repro.scripted.FailureCount` of (51) (L_hat x ``L_factor``) over every minibatch pattern of the
    instance ``params``; None when it is inadmissible (step sizes outside (4)/(6), too many patterns)."""
    steps = (params["a1"], params["alpha"], params["a2"], params["beta"])
    try:
        config = _config(params)
    except ConfigError:
        return None
    if not V.step_exponents_admissible(params["a1"], params["alpha"], params["a2"], params["beta"], config.tau):
        return None                                       # (4) or (6) fails: Lemma 2's hypotheses
    instance = dataclasses.replace(EX.build_instance(config, 0), steps=alg.PowerLawSteps(*steps))
    return EX.enumerate_instance(config, instance, L_factor=L_factor)["count"]


# ---------------------------------------------------------------------------- the run
BUDGET = {"quick": {"maxiter": 1, "popsize": 1, "horizon_steps": 2},
          "paper": {"maxiter": 6, "popsize": 4, "horizon_steps": 5}}
PROFILE_FAMILIES = {"quick": ("batch1-client1",), "paper": tuple(FAMILIES)}


@dataclass(frozen=True, kw_only=True)
class FailSearchConfig(FailureSearchConfig):
    """One search of ``ssca.failsearch``: (51) over ``family`` (:class:`repro.failure_search.FailureSearchConfig`
    holds the budget)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        require(self.family in FAMILIES, "family", self.family, f"one of {', '.join(FAMILIES)}")


def run_failsearch(config: FailSearchConfig, seed: int, box: dict | None = None, L_factor: float = 1.0):
    """Maximise P((51) fails at some iteration) over ``config.family`` and profile the best instance's horizon
    (``L_factor`` scales L_hat: the tests' perturbation)."""
    search = functools.partial(enumerate_instance, L_factor=L_factor)
    result = maximize_failure_probability(search, family(config.family, box), seed=seed, maxiter=config.maxiter,
                                          popsize=config.popsize)
    best = dict(result.params)
    horizons = tuple(horizon_profile(search, best, "updates", config.horizon_steps)) if best else ()
    record = FailureSearchRecord(EX.CLAIM, result, horizons, {"beta_margin": V.BETA_MARGIN, "L_factor": L_factor})
    arrays, meta = record.to_run()
    meta["instance"] = best | {"init_scale": 1.0, "seed": 0}
    if best:                                              # (4) and (6) at the best instance, decided exactly
        verdict = B.power_law_conditions(best["a1"], best["alpha"], best["a2"], best["beta"])
        meta["step_conditions"] = {"holds4": bool(verdict.holds4), "holds6": bool(verdict.holds6)}
    return arrays, meta


def failsearch_specs(profile: str) -> list[RunSpec]:
    budget = BUDGET[profile]
    return [RunSpec("ssca.failsearch", FailSearchConfig(family=name, profile=profile, **budget), 0, run_failsearch)
            for name in PROFILE_FAMILIES[profile]]
