"""FedSGM's failure-probability search (``fedsgm.failsearch``): the instance on which the deterministically stated
Theorems 1, 2, 6, 7 are most likely to fail, and that probability as an exact fraction
(:func:`repro.failure_search.maximize_failure_probability`).

Theorem 1 (Section 3) ends "then A is nonempty, w_bar is well-defined, and w_bar is an eps-solution of (1)" with no
expectation or probability, yet with Rand-K compression Algorithm 1 is random. ``fedsgm.exact`` enumerates the
Rand-K patterns on randomly generated instances; this run searches structured, degenerate ones instead: the
instances of :func:`repro.papers.fedsgm.problems.structured.boundary_instance` (d = 2, K = 1, one affine constraint
piece at angle theta to a coordinate axis, an objective with one or two kinks, w0 at a signed distance from the
constraint's boundary and an offset along it), each degenerate value at an END of its coordinate's interval
(:data:`FAMILIES`: distance 0 = w0 on the boundary, offset 0 = w0 - w* normal to it, theta 0 = the constraint's
gradient on a coordinate axis, kappa 0 = one kink, one client, one local step, the smallest horizons).

Each instance is enumerated by ``fedsgm.exact``'s code (:func:`repro.papers.fedsgm.runs.exact.enumerate_counts`):
every one of the C(2, 1)^(n T) equally likely Rand-K patterns is replayed through Algorithm 1 with the parameters
the theorem prescribes (eps, eta from its display with the certified D, G = 1; Theorem 2: beta = 2/eps, the smallest
value it admits) and judged by the theorem's own check (:func:`repro.papers.fedsgm.checks.check`), hypotheses
included. Assumptions, named:

* a pattern counts as failing only if the check also fails with D moved up and down by max(:data:`RHO` D, 10 x the
  solver's certified tolerance) (the prescribed eps, eta recomputed from it): a failure that hinges on the last
  digits of the solver's D (an exact tie g(w_t) = eps, which this family meets at T = 5) is no evidence, and is not
  counted;
* the instance has one minimiser (:mod:`repro.papers.fedsgm.problems.structured`), so D := ||w0 - w*|| has one
  reading;
* the sides a pattern records are the conclusion's three relations with their common bound eps: A nonempty is
  min_{t in [T]} g(w_t) <= eps (hard; < eps soft), then f(w_bar) - f* <= eps and g(w_bar) <= eps where w_bar exists;
  ``observed`` is the largest of these left sides, so E[observed] <= eps over the patterns is the in-expectation
  version of the conclusion (:attr:`repro.scripted.FailureCount.expectation`);
* the search's objective is the group's first theorem (Theorem 1, resp. 2); the best instance is then enumerated for
  every theorem of the group (Theorems 6, 7 prescribe the same eps, eta);
* instances whose prescribed parameters are inadmissible (D = 0: w0 = w*) or beyond :data:`MAX_PATTERNS` patterns
  count as worst, never as failures.
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import numpy as np

from bounds.fedsgm import claims as B
from repro.errors import ConfigError, require
from repro.failure_search import (FailureSearchConfig, FailureSearchRecord, box_family, decode_point, horizon_profile,
                                  maximize_failure_probability)
from repro.papers.fedsgm import checks as V
from repro.papers.fedsgm.problems.common import NoSolutionError
from repro.papers.fedsgm.problems.structured import boundary_instance
from repro.papers.fedsgm.runs import exact as EX
from repro.runner import RunSpec
from repro.search import Family

#: claim group -> (switching, the deterministically stated theorems it checks)
GROUPS = {label: ("hard" if label.startswith("hard") else "soft", claims) for label, claims in EX.EXACT_CLAIMS.items()}
#: relative move of D under which a failing pattern must keep failing (module doc; at least 10 x the solver's tolerance)
RHO = 1e-6
#: most patterns enumerated per instance (2^12: one client up to T = 12, two clients up to T = 6)
MAX_PATTERNS = 2**12
QUARTER_TURN = float(np.pi / 4)
#: family -> (fixed instance parameters, {coordinate: interval}); every degenerate value is an interval's end. The
#: horizon T is a coordinate too, its interval read from the theorems (:func:`horizons`), last
FAMILIES = {
    "boundary-n1-E1": ({"n_clients": 1, "E": 1},
                       {"distance": (0.0, 2.0), "offset": (0.0, 2.0), "theta": (0.0, QUARTER_TURN),
                        "kappa": (0.0, 1.0)}),
    "boundary-clients-steps": ({},
                               {"distance": (0.0, 2.0), "offset": (0.0, 2.0), "theta": (0.0, QUARTER_TURN),
                                "kappa": (0.0, 1.0), "n_clients": (1.0, 2.0), "E": (1.0, 2.0)}),
}
#: no theorem's eps stays at or above G D for this many rounds (a horizon search beyond is refused)
LONGEST_HORIZON = 10_000
INTEGER = ("n_clients", "E", "T")


#: one instance's parameters from a point of a family's box (the integer coordinates rounded)
decode = functools.partial(decode_point, integer=INTEGER)


def first_informative_horizon(claim_id: str, n_clients: int, E: int) -> int:
    """The first T at which ``claim_id``'s eps, as its display prescribes it under this search's Rand-K (K of DIM
    coordinates: q_u = DIM/K - 1), is below G D; at a smaller T, eps >= G D >= g(w0), so round 0 is in A and the
    conclusion cannot fail. eps scales with G D, so it is computed at G = D = 1."""
    claim, q_u = B.claim(claim_id), EX.DIM / EX.K - 1.0
    T = next((T for T in range(1, LONGEST_HORIZON) if float(claim.prescribed(
        E=E, T=T, n=n_clients, q_u=q_u, D=1.0, G=1.0, N=0)["epsilon"]) < 1.0), None)
    require(T is not None, "claim", claim_id, f"a theorem whose eps drops below G D within {LONGEST_HORIZON} rounds")
    return T


@functools.cache
def horizons(name: str) -> tuple[float, float]:
    """The interval of T in family ``name``: from two rounds before the first informative horizon
    (:func:`first_informative_horizon`) of any of its (n, E) and the groups' theorems -- the degenerate ends: one
    where eps > G D and the tie eps = G D, at which the search must find nothing -- to the last such first horizon
    (n = 1, E = 1 at q_u = 1: eps = G D sqrt(5/T), so (4, 6))."""
    fixed, box = FAMILIES[name]
    values = {key: (fixed[key],) if key in fixed else range(int(box[key][0]), int(box[key][1]) + 1)
              for key in ("n_clients", "E")}
    first = [first_informative_horizon(claims[0], n, E) for _, claims in GROUPS.values()
             for n in values["n_clients"] for E in values["E"]]
    return float(min(first) - 2), float(max(first))


def family(name: str, box: dict | None = None) -> Family:
    """The family ``name`` of :data:`FAMILIES` with its horizons (:func:`horizons`, unless the family's entry gives
    T; ``box`` overrides intervals: the tests' perturbations)."""
    fixed, intervals = FAMILIES[name]
    return box_family(name, fixed, intervals if "T" in intervals else intervals | {"T": horizons(name)}, INTEGER,
                      box)


def _instance(params: dict):
    """The problem's certified :class:`~repro.papers.fedsgm.checks.Instance` and w0."""
    problem, w0 = boundary_instance(theta=params["theta"], distance=params["distance"], offset=params["offset"],
                                    kappa=params["kappa"], n_clients=params["n_clients"])
    return V.Instance.solved(problem, w0), w0


def _moved(instance, sign: float):
    """``instance`` with its D moved by ``sign`` x max(RHO D, 10 x the solver's tolerance) (the robustness guard of
    the module doc)."""
    optimum = instance.optimum
    step = max(RHO * optimum.D, 10.0 * optimum.tolerance)
    return V.Instance(instance.problem, dataclasses.replace(optimum, D=optimum.D + sign * step))


def _prescribed(group: str, instance, w0, params: dict):
    """Algorithm 1's parameters as the group's first theorem prescribes them on ``instance`` (K = 1)."""
    switching, claims = GROUPS[group]
    return V.params_for(B.claim(claims[0]), instance, T=params["T"], E=params["E"], switching=switching, K=EX.K,
                        w0=w0, record_directions=False)


def conclusion_sides(instance, trace) -> tuple[float, float]:
    """(the largest left side of the conclusion's relations, eps): min_t g(w_t), f(w_bar) - f*, g(w_bar) (module
    doc); nan sides of an undefined w_bar are left out."""
    obs, _ = V.theorem_observations(instance, trace)
    sides = [float(np.min(trace.g[:-1])), obs["subopt"], obs["infeas"]]
    return max(s for s in sides if np.isfinite(s)), float(trace.params.eps)


def _judge(instance, moved: tuple):
    """The judgement of one pattern (:func:`repro.papers.fedsgm.runs.exact.enumerate_counts`): the theorem's check
    fails on the run and on the runs with D moved (``moved``: (instance, params) pairs), and the conclusion's sides."""
    def judge(claim_id: str, outcomes: list, trace, pattern) -> tuple[bool, float, float]:
        fails = EX._fails(outcomes) and all(EX._fails(EX.pattern_run(i, p, pattern, (claim_id,))[1])
                                            for i, p in moved)
        return (fails, *conclusion_sides(instance, trace))
    return judge


def enumerate_instance(group: str, params: dict, claims: tuple | None = None) -> dict | None:
    """{theorem: FailureCount} over every Rand-K pattern of the instance ``params`` for ``claims`` (default: the
    group's first theorem); None when the instance is inadmissible or has more than :data:`MAX_PATTERNS` patterns."""
    n, T = params["n_clients"], params["T"]
    if EX.DIM ** (n * T) > MAX_PATTERNS:
        return None
    try:
        instance, w0 = _instance(params)
        run = _prescribed(group, instance, w0, params)
        moved = tuple((other, _prescribed(group, other, w0, params))
                      for other in (_moved(instance, -1.0), _moved(instance, 1.0)))
    except (ConfigError, NoSolutionError, ZeroDivisionError):    # D = 0: eps = eta = 0, no run
        return None
    counts, _ = EX.enumerate_counts(instance, run, claims or GROUPS[group][1][:1], n, T,
                                    judge=_judge(instance, moved))
    return counts


def objective(group: str):
    """The search's enumeration: instance -> the FailureCount of the group's first theorem (or None)."""
    def count(params: dict):
        counts = enumerate_instance(group, params)
        return None if counts is None else next(iter(counts.values()))
    return count


# ---------------------------------------------------------------------------- the run
BUDGET = {"quick": {"maxiter": 1, "popsize": 2, "horizon_steps": 3},
          "paper": {"maxiter": 6, "popsize": 4, "horizon_steps": 5}}
PROFILE_FAMILIES = {"quick": ("boundary-n1-E1",), "paper": tuple(FAMILIES)}


@dataclass(frozen=True, kw_only=True)
class FailSearchConfig(FailureSearchConfig):
    """One search of ``fedsgm.failsearch``: the theorems of ``group`` over ``family``
    (:class:`repro.failure_search.FailureSearchConfig` holds the budget)."""

    group: str

    def __post_init__(self) -> None:
        super().__post_init__()
        require(self.group in GROUPS, "group", self.group, f"one of {', '.join(GROUPS)}")
        require(self.family in FAMILIES, "family", self.family, f"one of {', '.join(FAMILIES)}")


def _described(group: str, params: dict) -> dict:
    """The instance as the evidence prints it: its parameters, and D, eps, eta, g(w0) the theorem's display gives."""
    instance, w0 = _instance(params)
    run = _prescribed(group, instance, w0, params)
    g0 = float(instance.problem.global_values(w0)[1])
    return dict(params) | {"D": float(instance.optimum.D), "eps": float(run.eps), "eta": float(run.eta), "g(w0)": g0}


def run_failsearch(config: FailSearchConfig, seed: int, box: dict | None = None):
    """Maximise P(the group's first theorem fails) over ``config.family``, profile the best instance's horizon and
    enumerate it for every theorem of the group (their FailureCounts in the metadata's ``failure_counts``)."""
    search = objective(config.group)
    result = maximize_failure_probability(search, family(config.family, box), seed=seed, maxiter=config.maxiter,
                                          popsize=config.popsize)
    best = dict(result.params)
    counts = enumerate_instance(config.group, best, GROUPS[config.group][1]) if best else None
    horizons = tuple(horizon_profile(search, best, "T", config.horizon_steps)) if best else ()
    record = FailureSearchRecord(GROUPS[config.group][1][0], result, horizons,
                                 {"group": config.group, "rho": RHO, "claims": list(GROUPS[config.group][1])})
    arrays, meta = record.to_run()
    if counts:
        meta["failure_counts"] = [c.as_json() for c in counts.values()]
        meta["instance"] = _described(config.group, best)
    return arrays, meta


def failsearch_specs(profile: str) -> list[RunSpec]:
    budget = BUDGET[profile]
    return [RunSpec("fedsgm.failsearch", FailSearchConfig(group=group, family=name, profile=profile, **budget), 0,
                    run_failsearch)
            for group in GROUPS for name in PROFILE_FAMILIES[profile]]
