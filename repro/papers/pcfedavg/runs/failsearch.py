"""PC-FedAvg's failure-probability search (``pcfedavg.failsearch``): the instance on which Lemma 4.4, stated for every
run of the randomized Algorithm 1, is most likely to fail, and that probability as an exact fraction
(:func:`repro.failure_search.maximize_failure_probability`).

Which claims are stated deterministically about the randomized algorithm. Algorithm 1 is random only through the
oracle's noise (line 5: "agent i generates the random variable xi_{i,k}"). Of the claims about its iterates
(:mod:`bounds.pcfedavg.claims`), Lemma 4.4 alone has no expectation: "Suppose that Assumptions 3.1, and 3.3 hold and
consider Algorithm 1. Then the following holds. -(2/m) sum_i <x_bar_k - x*_rho, grad G_{i,rho}(x_{i,k})> <=
-2(G_rho(x_bar_k) - G_rho(x*_rho)) + (L_{G_rho}/m) sum_i delta_{i,k}". Lemmas 4.3, 4.5, 4.6, Propositions 4.7 and
4.8 (i)-(iii), display (12) and Theorem 3.4 bound expectations ("E[...] <= ..."), so a path above their bound does not
contradict them: nothing to search for them. Lemmas 4.1, 4.2 and 6.1 are about functions and random variables, not
about the algorithm's run.

``pcfedavg.exact`` computes Lemma 4.4's exact failure probability on randomly generated tiny instances; this run
searches structured, degenerate ones instead: :func:`repro.papers.pcfedavg.problems.structured.boundary_instance`
(n = 1, intervals X_i, the start on the boundary of X, targets on or beyond it, the penalty's two kinks together when
X_i is a point), each degenerate value at an END of its coordinate's interval (:data:`FAMILIES`: depth 0 = x_bar_0 on
the boundary, width 0, target 0, spread 1 = equal sigma_i, one agent, one local step H = 1, one round R = 1, the
smallest noise). Each instance is enumerated by ``pcfedavg.exact``'s code path: the noise law of
:mod:`repro.papers.pcfedavg.runs.exact` (Rademacher, (nu/sqrt(n)) s, an unbiased oracle with E||xi||^2 = nu^2, so
Assumption 3.2 holds), every one of the 2^(m n R H) equally likely sign paths run as the replicates of one lockstep
run (:class:`repro.scripted.SignPaths`), Lemma 4.4 judged on every path and iteration by its own check
(:func:`repro.papers.pcfedavg.checks.check`). Assumptions, named:

* a path fails if Lemma 4.4's check finds it above the bound beyond the check's tolerance (the references' certified
  error plus 1e-9 of the largest |bound|): an equality that float64 rounding tips over (both sides are 0 where
  every agent's vector is x*_rho, as at k = 0 when x_bar_0 = x*_rho) is no evidence, and is not counted; the per-path
  count is asserted equal to the check's own ``replicates_exceeding``;
* the sides a path records are those at the iteration k where E[inner - bound] over the paths is largest, so
  E[observed] <= E[bound] over the paths is the in-expectation version of Lemma 4.4 at its least favourable k (as the
  proof of Lemma 4.6 uses it, "in total expectation");
* the step size is gamma = ``step``/L_{G_rho}: Lemma 4.4 states no step-size condition, so any gamma > 0 is
  admissible (the families reach 2/L_{G_rho});
* one agent is admissible: unlike Lemmas 4.3 and 4.6 ("for m >= 2"), Lemma 4.4 states no condition on m;
* each run is on one reading of Algorithm 1's line 8 (``path``: as printed or (CR),
  :mod:`repro.papers.pcfedavg.errata`);
* instances beyond :data:`MAX_BITS` sign bits count as worst, never as failures.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from bounds.pcfedavg import claims as B
from repro.errors import require
from repro.failure_search import (FailureSearchConfig, FailureSearchRecord, box_family, decode_point, horizon_profile,
                                  maximize_failure_probability)
from repro.papers.pcfedavg import checks as V
from repro.papers.pcfedavg.algorithms import pcfedavg as alg
from repro.papers.pcfedavg.problems.structured import boundary_instance
from repro.runner import RunSpec
from repro.scripted import FailureCount, SignPaths
from repro.search import Family

CLAIM = "pcfedavg.lemma4.4"
#: most sign bits m n R H enumerated per instance (2^12 paths)
MAX_BITS = 12
#: the relative tolerance of Lemma 4.4's check (:func:`repro.papers.pcfedavg.checks._lemma44`), on the largest |bound|
CHECK_REL_TOL = 1e-9
_EDGES = {"width": (0.0, 2.0), "target": (0.0, 3.0), "depth": (0.0, 1.0), "step": (0.05, 2.0), "nu": (0.01, 4.0)}
#: family -> (fixed instance parameters, {coordinate: interval}); every degenerate value is an interval's end
FAMILIES = {
    "boundary-one-agent": ({"m": 1, "spread": 1.0, "curvature": 1.0, "rho": 1.0},
                           _EDGES | {"H": (1.0, 2.0), "R": (1.0, 4.0)}),
    "boundary-two-agents": ({"m": 2, "curvature": 1.0, "rho": 1.0},
                            _EDGES | {"spread": (0.01, 1.0), "H": (1.0, 2.0), "R": (1.0, 2.0)}),
    "penalty-two-agents": ({"m": 2, "H": 2, "depth": 0.0, "spread": 1.0},
                           {k: _EDGES[k] for k in ("width", "target", "step", "nu")}
                           | {"curvature": (0.01, 2.0), "rho": (0.01, 10.0), "R": (1.0, 3.0)}),
}
INTEGER = ("m", "H", "R")


#: one instance's parameters from a point of a family's box (the integer coordinates rounded)
decode = functools.partial(decode_point, integer=INTEGER)


def family(name: str, box: dict | None = None) -> Family:
    """The family ``name`` of :data:`FAMILIES` (``box`` overrides intervals: the tests' perturbations)."""
    return box_family(name, *FAMILIES[name], INTEGER, box)


def run_paths(params: dict, path: str):
    """(problem, reference, trace, script): Algorithm 1 on the instance ``params`` along every sign path of its
    noise, on the update ``path``, as ``pcfedavg.exact`` runs it."""
    problem, z0 = boundary_instance(**{k: params[k] for k in ("m", "width", "target", "depth", "curvature",
                                                              "spread", "nu")})
    rho, iterations = float(params["rho"]), params["R"] * params["H"]
    reference = problem.solve(rho, z0)
    script = SignPaths(iterations, (problem.m, problem.n))
    run = alg.PCFedAvgParams(gamma=params["step"] / problem.L_G(rho), rounds=params["R"],
                             local_steps=params["H"], x0=z0, rho=rho, path=path, replicates=script.paths,
                             record="full", reference=reference)
    trace = alg.run(problem, run, script)
    if script.calls_made != iterations:
        raise AssertionError(f"Algorithm 1 drew noise {script.calls_made} times, not {iterations}")
    script.law()                                          # every path once (repro.scripted.uniform_law)
    return problem, reference, trace, script


def path_count(claim, problem, reference, trace) -> FailureCount:
    """Lemma 4.4's :class:`FailureCount` over the sign paths of ``trace`` (module doc: the check's tolerance, the
    sides at the least favourable k in expectation); checked against the check's own count of failing paths."""
    instance = V.Instance(problem, reference, exact=True)
    outcome = V.check(claim, instance, trace)[0]
    values = V.parameter_values(problem, reference, trace.params) | V.observed(trace)
    inner, rhs = np.asarray(values["inner"], float), V.claim_bound(claim, "inner", values)
    excess = inner - rhs
    threshold = V.reference_tolerance(reference) + CHECK_REL_TOL * np.abs(rhs).max()
    k = int(np.argmax(excess.mean(axis=0)))
    count = FailureCount(claim.id)
    for j in range(excess.shape[0]):
        count.add(j, bool(np.any(excess[j] > threshold)), float(inner[j, k]), float(rhs[j, k]))
    if count.failed != outcome.details["replicates_exceeding"]:
        raise AssertionError(f"{count.failed} failing paths, the check counts "
                             f"{outcome.details['replicates_exceeding']}: the rule of checks._lemma44 changed")
    return count


def enumerate_instance(params: dict, path: str = "compact", claim=B.lemma44) -> FailureCount | None:
    """The :class:`FailureCount` of ``claim`` (default Lemma 4.4) over every sign path of the instance ``params``
    on the update ``path``; None beyond :data:`MAX_BITS` sign bits."""
    if params["m"] * params["R"] * params["H"] > MAX_BITS:
        return None
    return path_count(claim, *run_paths(params, path)[:3])


# ---------------------------------------------------------------------------- the run
BUDGET = {"quick": {"maxiter": 1, "popsize": 1, "horizon_steps": 2},
          "paper": {"maxiter": 6, "popsize": 4, "horizon_steps": 4}}
#: (family, update path) per profile: both readings of Algorithm 1's line 8 in each (the paper's erratum axis
#: pcfedavg.line8, so that the quick verdict is decided under each reading too)
PROFILE_RUNS = {"quick": tuple(("boundary-two-agents", path) for path in alg.PATHS),
                "paper": tuple((name, path) for name in FAMILIES for path in alg.PATHS)}


@dataclass(frozen=True, kw_only=True)
class FailSearchConfig(FailureSearchConfig):
    """One search of ``pcfedavg.failsearch``: Lemma 4.4 over ``family`` on the update ``path``
    (:class:`repro.failure_search.FailureSearchConfig` holds the budget)."""

    path: str

    def __post_init__(self) -> None:
        super().__post_init__()
        require(self.family in FAMILIES, "family", self.family, f"one of {', '.join(FAMILIES)}")
        require(self.path in alg.PATHS, "path", self.path, f"one of {alg.PATHS}")


def run_failsearch(config: FailSearchConfig, seed: int, box: dict | None = None, claim=B.lemma44):
    """Maximise P(Lemma 4.4 fails at some k) over ``config.family`` on ``config.path`` and profile the best
    instance's horizon R (``claim``: the tests' perturbations of Lemma 4.4)."""
    search = functools.partial(enumerate_instance, path=config.path, claim=claim)
    result = maximize_failure_probability(search, family(config.family, box), seed=seed, maxiter=config.maxiter,
                                          popsize=config.popsize)
    best = dict(result.params)
    horizons = tuple(horizon_profile(search, best, "R", config.horizon_steps)) if best else ()
    record = FailureSearchRecord(claim.id, result, horizons,
                                 {"path": config.path, "max_bits": MAX_BITS, "check_rel_tol": CHECK_REL_TOL,
                                  "noise": "Rademacher: (nu / sqrt(n)) s, s uniform on {-1, +1}^n"})
    arrays, meta = record.to_run()
    meta["instance"] = best | {"path": config.path}
    return arrays, meta


def failsearch_specs(profile: str) -> list[RunSpec]:
    budget = BUDGET[profile]
    return [RunSpec("pcfedavg.failsearch", FailSearchConfig(family=name, path=path, profile=profile, **budget), 0,
                    run_failsearch)
            for name, path in PROFILE_RUNS[profile]]
