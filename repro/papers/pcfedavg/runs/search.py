"""PC-FedAvg: optimisation-based adversarial search (``pcfedavg.search``) for every claim with a bound that a run of
Algorithm 1 checks: Lemmas 4.3-4.6, Propositions 4.7, 4.8 (i)-(iii) and display (12).

One run searches ONE (claim, structured family) with :func:`repro.search.maximize_ratio` (seeded differential
evolution, Nelder-Mead polish). A point of a family's box decodes to an instance (the fields of
:class:`repro.papers.pcfedavg.runs.theory.Setup` and a seed) that :func:`~repro.papers.pcfedavg.runs.theory.prepare`
builds with exact constants (x*, x*_rho, D, M, Q by the certified solvers); Algorithm 1 runs on it (record "full")
and the observed quantities, the claim's bound and its hypotheses are those of :mod:`repro.papers.pcfedavg.checks`
(``observed``, ``claim_bound``, ``reference_tolerance``); the check itself (``checks.check``) re-judges the best
instance.

Families (degenerate cases of the issue where the claim admits them):

* ``two_agents_1d``: m = 2, n = 1, a box, quadratic, nu = 0 (deterministic, one sample S = 1); H, R, rho,
  gamma at the edge of its condition (gamma_frac in [0.5, 1]), target distance, sigma_i, instance draw;
* ``one_active``: only agent 0's constraint is active (:func:`theory.one_active_instance`: n = 1, sigma_i = 1,
  target 3, start at x*), nu = 0, S = 1; extreme m (2 to 64), K = R H up to ``k_max``, rho, H, gamma;
* ``one_agent``: the same with m = 1 (one client), for Prop. 4.8 (ii), (iii) and (12) (which admit m = 1);
* ``few_rounds``: R in {1, 2, 3} rounds of long local phases (H up to 40), boxes and R^n, m <= 6, nu = 0, S = 1;
* ``noisy``: quadratic or logistic losses, mixed sets, gradient noise nu, S = 16 Monte-Carlo replicates;
* ``printed_path``: line 8 of Algorithm 1 as printed (every other family runs the (CR) update, the one the proofs
  analyse): m = 2, n = 1, X_i = R, quadratic losses with targets at 0, nu = 0, the largest admissible step; H, R up to
  200, rho, sigma_i up to 1e3. (The printed line 8 leaves the average of the personalised blocks where the sigma
  terms put it, so the gap to x*_rho need not shrink with K: the family where that shows.)

Prop. 4.8 (ii), (iii) and (12) are not searched on ``few_rounds`` (their ratios there were ~0 on a first quick
search); with m = 1 the other claims are inadmissible (m >= 2) or degenerate (no drift) (:func:`families_of`).

The searched ratio (:func:`observed_ratio`), named: max over the check's entries (iterations k, rounds, agents)
of (observed - z SE)/(bound + tol), tol the references' certified error of the check (so that ratios of two numbers
at the solver's precision do not count) and z SE the check's Monte-Carlo margin (its z threshold times the standard
error of observed - bound over the S replicates; 0 for the deterministic families, S = 1), so that a ratio above 1 is
a violation by the check's own rule, not Monte-Carlo noise; for a lower bound (Prop. 4.8 (iii)) the same on the
negated sides. Two bounds
contain observed expectations with fixed coefficients: their ratio is taken on the rest, the terms that carry the
claim's constants (``SPLIT``): Lemma 4.4 as (inner + 2 gap)/(L_G drift), Lemma 4.6 as
(dist_next - dist + gamma gap)/((3/2) gamma L_G drift + 3 gamma^2 nu^2/m) (its plain ratio is ~1 by construction).
Expectation claims use replicate means; the deterministic Lemma 4.4 is judged per replicate (pathwise).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import sympy as sp

from bounds.pcfedavg import claims as B
from bounds.core import Mode
from repro import admissible
from repro.errors import require
from repro.experiment import Config
from repro.papers.pcfedavg import checks as V
from repro.papers.pcfedavg.algorithms import pcfedavg as alg
from repro.papers.pcfedavg.runs import theory as T
from repro.runner import RunSpec
from repro.search import Check, Family, SearchRecord, maximize_ratio

#: the claims searched: every claim with a bound that a run of Algorithm 1 checks (checks.THEORY_CLAIM_IDS)
SEARCH_CLAIMS = V.THEORY_CLAIM_IDS
#: observed expectations with fixed coefficients moved to the left before the ratio is taken (module docstring)
SPLIT = {"pcfedavg.lemma4.4": ("gap",), "pcfedavg.lemma4.6": ("dist", "gap")}
FAMILIES = ("two_agents_1d", "one_active", "one_agent", "few_rounds", "noisy", "printed_path")
#: the families too costly for the quick profile (10-43 s per run there): searched at the paper profile only, so that
#: ``make reproduce`` stays within minutes; Prop. 4.8 (ii)'s one-active instance is also run by pcfedavg.adversarial
PAPER_ONLY = frozenset({"one_active", "noisy"})
#: per profile: differential-evolution generations and population multiplier, Nelder-Mead evaluations, largest K
BUDGET = {"quick": {"maxiter": 2, "popsize": 1, "polish": 8, "k_max": 3000},
          "paper": {"maxiter": 12, "popsize": 6, "polish": 60, "k_max": 20000}}


@dataclass(frozen=True, kw_only=True)
class FamilySearchConfig(Config):
    """One run of ``pcfedavg.search``: the claim, the family, the search's budget (``maxiter`` generations of
    ``popsize`` x dimension points, ``polish`` Nelder-Mead evaluations) and the largest K = R H of ``one_active``."""

    claim: str
    family: str
    maxiter: int
    popsize: int
    polish: int
    k_max: int
    profile: str

    def __post_init__(self) -> None:
        admissible.one_of("claim", self.claim, SEARCH_CLAIMS)
        admissible.one_of("family", self.family, families_of(self.claim))
        for key, low in (("maxiter", 1), ("popsize", 1), ("polish", 0), ("k_max", 20)):
            admissible.integer(key, getattr(self, key), low)
        require(self.k_max <= 10**6, "k_max", self.k_max, "an integer in [20, 1e6]")


# ---------------------------------------------------------------------------- families
def _int(v: float) -> int:
    return int(round(float(v)))


def _pow(v: float, base: float = 10.0) -> float:
    return float(base ** float(v))


_DETERMINISTIC = {"nu": 0.0, "S": 1, "path": "compact", "record": "full"}


def _two_agents_1d(x) -> dict:
    return _DETERMINISTIC | {"family": "quadratic", "sets": ["box"], "m": 2, "n": 1, "H": _int(x[0]),
                             "R": _int(x[1]), "rho": _pow(x[2]), "gamma_frac": float(x[3]),
                             "target_scale": float(x[4]), "sigma": _pow(x[5]), "seed": _int(x[6]),
                             "start": "feasible"}


def _one_active(x) -> dict:
    H = _int(x[3])
    return _DETERMINISTIC | {"family": "one_active", "m": _int(_pow(x[0], 2.0)), "n": 1, "H": H,
                             "R": max(1, _int(_pow(x[1]) / H)), "rho": _pow(x[2]), "sigma": 1.0, "target": 3.0,
                             "gamma_frac": float(x[4]), "start": "x_star", "seed": 0}


def _few_rounds(x) -> dict:
    return _DETERMINISTIC | {"family": "quadratic", "sets": ["box", "whole"],
                             "m": _int(x[0]), "n": 2, "H": _int(x[1]), "R": _int(x[2]), "rho": _pow(x[3]),
                             "gamma_frac": float(x[4]), "target_scale": float(x[5]), "sigma": "hetero",
                             "seed": _int(x[6]), "start": "feasible"}


def _noisy(x) -> dict:
    return {"family": "logistic" if x[0] >= 0.5 else "quadratic", "sets": ["box", "l2_ball", "l1_ball", "whole"],
            "m": _int(x[1]), "n": _int(x[2]), "H": _int(x[3]), "R": _int(x[4]), "nu": float(x[5]), "S": 16,
            "rho": _pow(x[6]), "gamma_frac": float(x[7]), "target_scale": float(x[8]), "sigma": "hetero",
            "seed": _int(x[9]), "start": "feasible", "path": "compact", "record": "full"}


def _printed_path(x) -> dict:
    return _DETERMINISTIC | {"family": "quadratic", "sets": ["whole"], "m": 2, "n": 1, "H": _int(x[0]),
                             "R": _int(x[1]), "rho": _pow(x[2]), "gamma_frac": 1.0, "target_scale": 0.0,
                             "sigma": _pow(x[3]), "seed": _int(x[4]), "start": "feasible", "path": "printed"}


def _one_agent(x) -> dict:
    return _one_active(np.concatenate([[0.0], x]))


#: the claims on the agents' infeasibility (Prop. 4.8 (ii), (iii), (12)): tight with one agent, ~0 on few_rounds
INFEASIBILITY = ("pcfedavg.prop4.8.ii", "pcfedavg.prop4.8.iii", "pcfedavg.eq12")


def families_of(claim_id: str) -> tuple[str, ...]:
    """The families searched for ``claim_id``: ``one_agent`` for the infeasibility claims where m = 1 is admissible,
    ``few_rounds`` for the others."""
    one_agent = claim_id in INFEASIBILITY and sp.Ge(B.m, 2) not in B.claim(claim_id).hypotheses
    return tuple(f for f in FAMILIES if (f != "one_agent" or one_agent)
                 and (f != "few_rounds" or claim_id not in INFEASIBILITY))


def family(name: str, k_max: int) -> Family:
    """The structured family ``name``, with K = R H up to ``k_max`` in ``one_active`` and ``one_agent``."""
    log_k = math.log10(k_max)
    boxes = {
        "two_agents_1d": (("H", "R", "log10 rho", "gamma_frac", "target_scale", "log10 sigma", "seed"),
                          ((1, 8), (1, 30), (-2, 3), (0.5, 1), (0, 10), (-3, 1), (0, 50)), _two_agents_1d),
        "one_active": (("log2 m", "log10 K", "log10 rho", "H", "gamma_frac"),
                       ((1, 6), (1, log_k), (-1, 3), (1, 6), (0.5, 1)), _one_active),
        "one_agent": (("log10 K", "log10 rho", "H", "gamma_frac"), ((1, log_k), (-1, 3), (1, 6), (0.5, 1)),
                      _one_agent),
        "few_rounds": (("m", "H", "R", "log10 rho", "gamma_frac", "target_scale", "seed"),
                       ((2, 6), (2, 40), (1, 3), (-1, 2), (0.8, 1), (0, 6), (0, 50)), _few_rounds),
        "printed_path": (("H", "R", "log10 rho", "log10 sigma", "seed"),
                         ((1, 3), (20, 200), (-1, 1), (0, 3), (0, 50)), _printed_path),
        "noisy": (("logistic", "m", "n", "H", "R", "nu", "log10 rho", "gamma_frac", "target_scale", "seed"),
                  ((0, 1), (2, 6), (1, 3), (1, 6), (2, 20), (0, 3), (-1, 2), (0.5, 1), (0, 6), (0, 50)), _noisy),
    }
    names, bounds, decode = boxes[name]
    return Family(name, names, tuple((float(a), float(b)) for a, b in bounds), decode)


# ---------------------------------------------------------------------------- the objective
@dataclass(frozen=True)
class Evaluation:
    """One instance: the searched ratio (nan when the claim's hypotheses fail) and the check's outcomes."""

    ratio: float
    outcomes: tuple
    hypotheses_met: bool


def simulate(params: dict):
    """(checks.Instance, trace) of Algorithm 1 on the instance ``params`` (a decoded family point)."""
    setup = T.Setup(**{k: v for k, v in params.items() if k != "seed"})
    problem, ref, prm, run_rng, _ = T.prepare(setup, int(params.get("seed", 0)))
    return V.Instance(problem, ref), alg.run(problem, prm, run_rng)


def _observed(trace) -> dict:
    obs = V.observed(trace)
    return obs | {"root_sum_infeas": np.sqrt(obs["infeas_i"].sum(axis=1).mean(keepdims=True))}


def _se(x: np.ndarray) -> np.ndarray:
    """Standard error of the mean over replicates (axis 0); 0 with one replicate."""
    return x.std(axis=0, ddof=1) / np.sqrt(x.shape[0]) if x.shape[0] > 1 else np.zeros(x.shape[1:])


def _sides(claim, inst, trace) -> tuple:
    """Per entry of the check, (a, b, z * se): the claim as a <= b (a = sign (lhs - moved terms), b = sign rest)
    and the Monte-Carlo margin the check allows, z its threshold and se that of a - b over the replicates."""
    rel = claim.relations[0]
    name, sign = str(rel.lhs), 1.0 if isinstance(rel, sp.LessThan) else -1.0
    obs = _observed(trace)
    values = V.parameter_values(inst.problem, inst.reference, trace.params) | obs
    full = V.claim_bound(claim, name, values)
    rest = V.claim_bound(claim, name, values | {s: 0.0 for s in SPLIT.get(claim.id, ())})
    lhs, full, rest = np.broadcast_arrays(np.asarray(obs[name], float), full, rest)
    a, b = sign * (lhs - (full - rest)), sign * rest
    if name == "root_sum_infeas":            # (12): plug-in root of a mean, delta-method SE (as checks._eq12)
        total = obs["infeas_i"].sum(axis=1)
        return a, b, V.Z * _se(total) / (2 * a) if a[0] > 0 else np.zeros(1)
    if claim.mode is Mode.DETERMINISTIC:     # pathwise (Lemma 4.4): every replicate and k
        return a, b, np.zeros(a.shape)
    return a.mean(axis=0), b.mean(axis=0), V.z_threshold(a[0].size) * _se(a - b)


def observed_ratio(claim, inst, trace) -> float:
    """max over the check's entries of (a - z se)/(b + tol) (module docstring): above 1 exactly where the check's
    rule calls the entry violated; with one replicate (se = 0) observed/(bound + tol)."""
    a, b, margin = _sides(claim, inst, trace)
    den = b + V.reference_tolerance(inst.reference)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(den > 0, (a - margin) / den, np.nan)
    ratio = ratio[np.isfinite(ratio)]
    return float(ratio.max()) if ratio.size else math.nan


def evaluate(claim, params: dict) -> Evaluation:
    """The searched ratio and the check's outcomes of ``claim`` on the instance ``params``."""
    inst, trace = simulate(params)
    values = V.parameter_values(inst.problem, inst.reference, trace.params) | _observed(trace)
    met = bool(np.all(claim.hypotheses_hold(**values)))
    ratio = observed_ratio(claim, inst, trace) if met else math.nan
    return Evaluation(ratio, tuple(V.check(claim, inst, trace)), met)


def objective(claim):
    """params -> the searched ratio of ``claim`` (nan when its hypotheses fail): what the search maximises."""
    return lambda params: evaluate(claim, params).ratio


def halved(claim):
    """``claim`` with the constants of its bound halved: the terms that carry them (all of the bound, or the rest
    after SPLIT) divided by 2; same id, so ``checks.check`` judges it by the same code."""
    rel = claim.relations[0]
    rest = rel.rhs.subs({sp.Symbol(s): 0 for s in SPLIT.get(claim.id, ())})
    return replace(claim, conclusion=(type(rel)(rel.lhs, rel.rhs - rest + rest / 2),))


def search(claim, family_: Family, *, seed: int, maxiter: int, popsize: int, polish: int):
    """The search of one (claim, family): a :class:`repro.search.SearchResult`."""
    return maximize_ratio(objective(claim), family_, seed=seed, maxiter=maxiter, popsize=popsize,
                          polish_evals=polish)


# ---------------------------------------------------------------------------- run contract
def _check(evaluation: Evaluation, path: str) -> Check | None:
    """The claim's own check on the best instance on update path ``path``: its worst entry's sides and ratio, failed
    if any entry failed, within tolerance if any was flagged inconclusive (the check's rule), else held; None when
    the instance does not meet the claim's hypotheses on that path."""
    if not evaluation.hypotheses_met:
        return None
    outs = evaluation.outcomes
    worst = max(outs, key=lambda o: o.ratio if np.isfinite(o.ratio) else -np.inf)
    decided = ("failed" if not all(o.passed for o in outs) else "within tolerance"
               if any(o.inconclusive for o in outs) else "held")
    return Check(worst.observed, worst.bound, worst.ratio, decided, reading=path)


def run_search(config: FamilySearchConfig, seed: int):
    """Search one (claim, family) and re-judge its best instance with the check on each path of Algorithm 1 (line 8
    as printed and (CR), the two readings of Algorithm 1), so that what the best instance shows is known under
    both. The objective divides by the terms carrying the constants, so its double is the halved claim's."""
    claim = B.claim(config.claim)
    result = search(claim, family(config.family, config.k_max), seed=seed, maxiter=config.maxiter,
                    popsize=config.popsize, polish=config.polish)
    params = dict(result.params)
    checks = [_check(evaluate(claim, params | {"path": path}), path) for path in alg.PATHS] if params else []
    checks = tuple(ch for ch in checks if ch is not None)
    return SearchRecord(config.claim, config.family, result, checks, 2.0 * result.ratio if params else None,
                        result.evaluations).to_run()


def search_specs(profile: str) -> list[RunSpec]:
    budget = BUDGET[profile]
    return [RunSpec("pcfedavg.search", FamilySearchConfig(claim=cid, family=fam, profile=profile, **budget), 0,
                    run_search)
            for cid in SEARCH_CLAIMS for fam in families_of(cid) if profile == "paper" or fam not in PAPER_ONLY]


def work(config: dict) -> float:
    """Instances evaluated: (maxiter + 1) generations of popsize x 10 points (at most) plus the polish."""
    run = FamilySearchConfig.from_dict(config)
    return float((run.maxiter + 1) * run.popsize * 10 + run.polish)
