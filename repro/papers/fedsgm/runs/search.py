"""FedSGM's tight adversarial search (``fedsgm.search``): for every claim with a bound -- Lemmas 3-5 (and the soft
form of Lemma 4), eq. (5), the hard and soft rounds, the summed round, Theorems 1, 2, 6-9, the
constants their proofs derive (``*.proof``) and the soft proof's derived beta condition (``fedsgm.derived.soft_beta``)
-- maximise observed/bound over structured families of instances
(:data:`FAMILIES`) with :func:`repro.search.maximize_ratio`. Each instance is one run of ``fedsgm.theory``
(:func:`repro.papers.fedsgm.runs.theorems.simulate_instance`, exact constants) checked by
:func:`repro.papers.fedsgm.checks.check`; nothing is re-implemented here.

observed/bound, per claim (:func:`scaled`): a bound ``lhs <= rhs`` whose right side carries terms that are not
constants of the bound -- ``||w_t - w*||^2`` and the gaps ``h(w*) - h(w_t)`` of eq. (5), the hard and soft rounds and
Lemma 4 -- is compared as ``lhs - those terms <= the remaining terms`` (the same inequality: its excess, hence its
verdict, is the check's; its ratio is that of the bound's constant part, which is what a wrong constant changes;
without it every round inequality reads ~1 from ||w_t - w*||^2 alone). A theorem's ratio is (f(w_bar) - f*)/eps,
infinite when A is empty or g(w_bar) > eps (:data:`BY_CONSTRUCTION`). The halved-constant detector checks the same
runs against the claim with that constant part halved (``scaled(claim, 0.5)``): a search that reports it
violated is a search that would have caught a factor-2 error in the constant.

Assumptions, named: an instance on which the claim's prescribed parameters are inadmissible (``ConfigError``: e.g.
eta = 0 when w0 is a minimiser, D = 0) or whose hypotheses fail (Theorem 2 with beta < 2/eps) counts as worst (``nan``),
never as a violation (only the searched claim is checked on an instance: until 2026-11-29 every claim of the run
was, and an error in another claim's check also made the instance worst); the summed inequality and Theorems 8, 9
(and their proofs) are searched without compression only (with compression the summed round holds in expectation --
``fedsgm.montecarlo`` decides it -- and Theorems 8, 9 are the uncompressed ones); Theorems 6, 7 are searched with
compression only; the derived soft-beta condition without compression (under compression the proofs bound
expectations only: finding ``fedsgm.mode``).
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import numpy as np
import sympy as sp

from bounds.fedsgm import claims as B
from repro.errors import ConfigError, require
from repro.papers.fedsgm import checks as V
from repro.papers.fedsgm.problems.common import NoSolutionError
from repro.papers.fedsgm.runs.theorems import FAMILIES as PROBLEMS, InstanceConfig, simulate_instance
from repro.runner import RunSpec
from repro.search import Check, Family, SearchConfig as SharedSearchConfig, SearchRecord, maximize_ratio

#: right-side symbols that are observations of the run, not constants of the bound (module doc)
NOT_CONSTANT = frozenset({B.dist_sq, B.gap_f, B.gap_g, B.gap_f_term, B.gap_g_term, B.gap_local_total})

#: a theorem's relations that hold by construction whatever the constant in eps: |A| >= 1 is no bound, and
#: g(w_bar) <= eps holds on every run (g convex, every round of A has g(w_t) <= eps) -- with eps's constant halved the
#: algorithm runs with that eps and still meets it. They are checked (a failure counts +inf) but are no target:
#: a theorem's ratio is (f(w_bar) - f*)/eps.
BY_CONSTRUCTION = ("A_size", "infeas")

HARD = ("hard-stated", "hard-proof")
SOFT = ("soft-stated", "soft-stated-beta10", "soft-proof")
#: claim -> the constants (keys of ``theorems.CONSTANTS``) of the runs that check it; several: a search coordinate.
#: soft-stated-beta1 is left out: its beta < 2/eps breaks Theorem 2's hypothesis.
CLAIM_CONSTANTS = {
    "fedsgm.lemma3": HARD + SOFT, "fedsgm.lemma5": HARD + SOFT, "fedsgm.S_summed": HARD + SOFT,
    "fedsgm.lemma4": HARD, "fedsgm.eq5": HARD, "fedsgm.R_hard": HARD,
    "fedsgm.lemma4.soft": SOFT, "fedsgm.R_soft": SOFT,
    "fedsgm.thm1": ("hard-stated",), "fedsgm.thm6": ("hard-stated",), "fedsgm.thm8": ("hard-stated",),
    "fedsgm.thm2": ("soft-stated", "soft-stated-beta10"), "fedsgm.thm7": ("soft-stated",),
    "fedsgm.thm9": ("soft-stated",),
    "fedsgm.thm6.proof": ("hard-proof",), "fedsgm.thm8.proof": ("hard-proof",),
    "fedsgm.thm7.proof": ("soft-proof",), "fedsgm.thm9.proof": ("soft-proof",),
    # the soft proof's derived beta condition, on every soft run at the stated eps and eta (beta = 1/eps included:
    # its hypothesis is on the run's own Sigma_A, not on beta >= 2/eps)
    "fedsgm.derived.soft_beta": ("soft-stated", "soft-stated-beta10", "soft-stated-beta1"),
}
SEARCH_CLAIMS = tuple(CLAIM_CONSTANTS)

UNCOMPRESSED = ("one-client-1d", "large-E-1d", "one-dim", "E1-few-rounds", "general")
COMPRESSED = ("randk-K1-E1", "randk-K1", "general-randk")
#: claim -> the families searched (module doc: which claims are searched with / without compression)
CLAIM_FAMILIES = {cid: UNCOMPRESSED + COMPRESSED for cid in SEARCH_CLAIMS} | {
    cid: UNCOMPRESSED for cid in ("fedsgm.S_summed", "fedsgm.thm8", "fedsgm.thm9", "fedsgm.thm8.proof",
                                  "fedsgm.thm9.proof", "fedsgm.derived.soft_beta")} | {
    cid: COMPRESSED for cid in ("fedsgm.thm6", "fedsgm.thm7", "fedsgm.thm6.proof", "fedsgm.thm7.proof")}

SEED_BOX = (0.0, 2.0**20)
LOG_W0 = (-1.3, 1.4)          # ||w0|| from 0.05 to 25
#: family -> (fixed instance parameters, {coordinate: box}); the coordinates are decoded by :func:`_decode`
FAMILIES = {
    "one-client-1d": ({"problem": "piecewise_linear_1d", "n_clients": 1, "K": None},
                      {"E": (1, 12), "T": (1, 40), "log_w0": LOG_W0, "seed": SEED_BOX}),
    "large-E-1d": ({"problem": "piecewise_linear_1d", "K": None},
                   {"n_clients": (1, 3), "E": (8, 24), "T": (1, 40), "log_w0": (0.0, LOG_W0[1]), "seed": SEED_BOX}),
    "one-dim": ({"problem": "piecewise_linear_1d", "K": None},
                {"n_clients": (1, 10), "E": (1, 12), "T": (1, 40), "log_w0": LOG_W0, "seed": SEED_BOX}),
    "E1-few-rounds": ({"E": 1, "K": None},
                      {"problem": (0, len(PROBLEMS)), "dim": (1, 4), "n_clients": (1, 5), "T": (1, 6),
                       "log_w0": LOG_W0, "seed": SEED_BOX}),
    "general": ({"K": None},
                {"problem": (0, len(PROBLEMS)), "dim": (1, 5), "n_clients": (1, 10), "E": (1, 12), "T": (1, 100),
                 "log_w0": LOG_W0, "seed": SEED_BOX}),
    "randk-K1": ({"K": 1},
                 {"problem": (1, len(PROBLEMS)), "dim": (2, 6), "n_clients": (1, 5), "E": (1, 8), "T": (1, 40),
                  "log_w0": LOG_W0, "seed": SEED_BOX}),
    "randk-K1-E1": ({"K": 1, "E": 1},
                    {"problem": (1, len(PROBLEMS)), "dim": (2, 6), "n_clients": (1, 3), "T": (1, 12),
                     "log_w0": LOG_W0, "seed": SEED_BOX}),
    "general-randk": ({},
                      {"problem": (0, len(PROBLEMS)), "dim": (1, 5), "K_share": (0.01, 1.0), "n_clients": (1, 10),
                       "E": (1, 12), "T": (1, 100), "log_w0": LOG_W0, "seed": SEED_BOX}),
}


def _index(x: float, n: int) -> int:
    """A continuous coordinate in [0, n) as an index 0..n-1."""
    return int(min(max(np.floor(x), 0), n - 1))


def _decode(fixed: dict, names: tuple, constants: tuple, x: np.ndarray) -> dict:
    """One instance of ``fedsgm.theory`` (its config keys and ``seed``) from a point ``x`` of a family's box."""
    v = dict(fixed) | dict(zip(names, (float(c) for c in x)))
    problem = v["problem"] if isinstance(v["problem"], str) else PROBLEMS[_index(v["problem"], len(PROBLEMS))]
    dim = 1 if problem == "piecewise_linear_1d" else int(round(v.get("dim", 1)))
    if "K_share" in v:
        K = max(1, int(np.ceil(v["K_share"] * dim - 1e-9)))
    else:
        K = v["K"] if v["K"] is None else min(int(v["K"]), dim)
    return {"family": problem, "dim": dim, "n_clients": int(round(v["n_clients"])), "E": int(round(v["E"])),
            "T": int(round(v["T"])), "K_frac": None if K is None else K / dim,
            "w0_scale": float(10.0 ** v["log_w0"]),
            "constants": constants[_index(v.get("constants", 0.0), len(constants))],
            "seed": int(v["seed"])}


def family(name: str, claim_id: str) -> Family:
    """The structured family ``name`` of :data:`FAMILIES` for ``claim_id``: its box, plus a coordinate choosing the
    constants of the run when several check the claim (:data:`CLAIM_CONSTANTS`)."""
    fixed, box = FAMILIES[name]
    constants = CLAIM_CONSTANTS[claim_id]
    box = box | ({"constants": (0.0, float(len(constants)))} if len(constants) > 1 else {})
    names = tuple(box)
    return Family(name, names, tuple((float(lo), float(hi)) for lo, hi in box.values()),
                  lambda x: _decode(fixed, names, constants, x))


# ---------------------------------------------------------------------------- observed/bound of a claim
def _split(rhs: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(terms of ``rhs`` that are observations, :data:`NOT_CONSTANT`; the bound's constant part)."""
    if not rhs.free_symbols & NOT_CONSTANT:
        return sp.Integer(0), rhs
    terms = sp.Add.make_args(sp.expand(rhs))
    observed = sp.Add(*(t for t in terms if t.free_symbols & NOT_CONSTANT))
    return observed, sp.expand(rhs) - observed


def scaled(claim, factor: float = 1.0):
    """``claim`` with every bound ``lhs <= rhs`` written ``lhs - (observed terms of rhs) <= factor x (constant part)``
    (module doc); factor 1 is the claim itself, 0.5 the claim with its constant halved. Other relations (|A| >= 1,
    g(w_bar) <= eps: :data:`BY_CONSTRUCTION`) are kept. The id is kept, so that
    :func:`repro.papers.fedsgm.checks.check` checks it as the claim."""
    relations = []
    for rel in claim.relations:
        if rel.rel_op in ("<=", "<") and not str(rel.lhs).startswith(BY_CONSTRUCTION):
            observed, constant = _split(rel.rhs)
            rel = sp.Le(rel.lhs - observed, sp.Float(factor) * constant if factor != 1 else constant)
        relations.append(rel)
    return dataclasses.replace(claim, conclusion=tuple(relations))


def outcome_ratio(outcome) -> float | None:
    """The ratio an outcome contributes to the search: its observed/bound for a bound, +inf for a failed check with
    no finite ratio (A empty, w_bar undefined) and for a failed :data:`BY_CONSTRUCTION` relation; ``None`` for a
    proof step, a :data:`BY_CONSTRUCTION` relation that holds, a check whose hypotheses fail or one that holds with
    no ratio."""
    if outcome.relation.startswith("step:") or not outcome.hypotheses_met:
        return None
    failed = not outcome.passed and not outcome.inconclusive
    if outcome.relation.startswith(BY_CONSTRUCTION) or not np.isfinite(outcome.ratio):
        return np.inf if failed else None
    return float(outcome.ratio)


def instance_outcomes(claim_id: str, params: dict, factor: float = 1.0) -> list:
    """The outcomes of ``claim_id`` (its constant part scaled by ``factor``) on the run of instance ``params`` (the
    decoded config and seed); ``[]`` when the instance is inadmissible for the claim's prescribed parameters."""
    try:
        theory = InstanceConfig(**{k: v for k, v in params.items() if k != "seed"})
        instance, trace = simulate_instance(theory, params["seed"],
                                            record_directions=claim_id.startswith("fedsgm.lemma4"))
    except (ConfigError, NoSolutionError, ZeroDivisionError):    # D = 0: eps = eta = 0, no run
        return []
    return V.check(_scaled_claim(claim_id, factor), instance, trace)


@functools.lru_cache(maxsize=None)
def _scaled_claim(claim_id: str, factor: float):
    """:func:`scaled` of the claim ``claim_id``, built once per process: a new claim compiles its numeric functions
    (``sympy.lambdify``) again, which cost more than the instance's run and check (~15 ms each, every evaluation)."""
    return scaled(B.claim(claim_id), factor)


def claim_ratio(claim_id: str, params: dict, factor: float = 1.0) -> float:
    """max observed/bound of ``claim_id`` (constant scaled by ``factor``) on one instance; nan when inadmissible."""
    ratios = [r for r in map(outcome_ratio, instance_outcomes(claim_id, params, factor)) if r is not None]
    return max(ratios) if ratios else float("nan")


def objective(claim_id: str, factor: float = 1.0):
    """The search's objective for ``claim_id``: decoded instance -> :func:`claim_ratio`."""
    return lambda params: claim_ratio(claim_id, params, factor)


# ---------------------------------------------------------------------------- the run
#: the search's effort per profile: differential-evolution generations, population per dimension, polish evaluations
SEARCH_BUDGET = {"quick": {"maxiter": 2, "popsize": 2, "polish_evals": 10},
                 "paper": {"maxiter": 25, "popsize": 8, "polish_evals": 80}}


@dataclass(frozen=True, kw_only=True)
class SearchConfig(SharedSearchConfig):
    """One search of ``fedsgm.search``: maximise observed/bound of ``claim`` over the structured ``family``."""

    def __post_init__(self) -> None:
        super().__post_init__()
        require(self.claim in CLAIM_FAMILIES, "claim", self.claim,
                f"a claim with a bound: one of {', '.join(SEARCH_CLAIMS)}")
        require(self.family in CLAIM_FAMILIES[self.claim], "family", self.family,
                f"a family searched for {self.claim}: one of {', '.join(CLAIM_FAMILIES[self.claim])}")


def best_outcome(claim_id: str, params: dict):
    """The outcome of ``claim_id`` (constant as stated) that attains its ratio on instance ``params``, or None."""
    scored = [(r, o) for o in instance_outcomes(claim_id, params) if (r := outcome_ratio(o)) is not None]
    return max(scored, key=lambda ro: ro[0])[1] if scored else None


def run_search(config: SearchConfig, seed: int):
    """Search one (claim, family) for the largest observed/bound (seeded differential evolution, Nelder-Mead
    polish: :func:`repro.search.maximize_ratio`) and re-check the best instance with the claim's own check. The
    objective is proportional to the constant, so its double is the halved claim's."""
    result = maximize_ratio(objective(config.claim), family(config.family, config.claim), seed=seed,
                            maxiter=config.maxiter, popsize=config.popsize, polish_evals=config.polish_evals)
    worst = best_outcome(config.claim, dict(result.params)) if result.params else None
    checks = () if worst is None else (
        Check.of_outcome(worst, f"in the form {worst.relation} (observed terms moved to the left)"),)
    return SearchRecord(config.claim, config.family, result, checks, 2.0 * result.ratio if checks else None,
                        result.evaluations).to_run()


#: the families the quick profile searches (the degenerate ones: one client in one dimension, one dimension with
#: many local steps, Rand-K with K = 1 and E = 1); the paper profile searches every family of :data:`CLAIM_FAMILIES`
QUICK_FAMILIES = ("one-client-1d", "large-E-1d", "randk-K1-E1")


def search_specs(profile: str) -> list[RunSpec]:
    return [RunSpec("fedsgm.search", SearchConfig(claim=cid, family=name, profile=profile, **SEARCH_BUDGET[profile]),
                    0, run_search)
            for cid in SEARCH_CLAIMS for name in CLAIM_FAMILIES[cid] if profile == "paper" or name in QUICK_FAMILIES]
