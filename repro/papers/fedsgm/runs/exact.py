"""FedSGM's exact failure probabilities (``fedsgm.exact``): Theorems 1, 2, 6 and 7 are stated deterministically
("A is nonempty ... and w_bar is an eps-solution"), yet with compression the run is random through the Rand-K
coordinate choices. On a tiny instance (d = 2, K = 1, one or two clients, a few rounds) every choice pattern -- one
K-subset per client per round, uniform and independent, so each of the C(d, K)^(n T) patterns has the same
probability -- is run, and the probability that the stated conclusion fails is computed exactly (a fraction).
A probability > 0 refutes the deterministic statement; the failing patterns are its replay.

The instance and the parameters are those of one ``fedsgm.theory`` run
(:func:`repro.papers.fedsgm.runs.theorems.simulate_instance`); each pattern is then replayed through Algorithm 1
(:func:`repro.papers.fedsgm.algorithms.fedsgm.run`) with a generator that scripts the Rand-K draws
(:class:`repro.scripted.ScriptedKeys`), and checked with :func:`repro.papers.fedsgm.checks.check`. Assumption,
named: Rand-K keeps the K coordinates with the smallest uniform keys (:meth:`repro.compression.RandK.draw`); every
run asserts that the coordinates the trace records are the pattern's, so a change in that rule fails loudly instead
of enumerating the wrong patterns.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from bounds.fedsgm import claims as B
from repro.errors import is_int, is_real, require
from repro.experiment import Config
from repro.papers.fedsgm import checks as V
from repro.papers.fedsgm.algorithms import fedsgm as alg
from repro.papers.fedsgm.runs.search import outcome_ratio
from repro.papers.fedsgm.runs.theorems import InstanceConfig, simulate_instance
from repro.runner import RunSpec
from repro.scripted import FailureCount, ScriptedKeys, law_record, uniform_law

#: constants label -> the deterministic theorems checked on its compressed runs
EXACT_CLAIMS = {"hard-stated": ("fedsgm.thm1", "fedsgm.thm6"), "soft-stated": ("fedsgm.thm2", "fedsgm.thm7")}
EXACT_FAMILIES = ("max_affine", "huber_ball", "logistic_ball")
DIM, K = 2, 1
MAX_PATTERNS = 2**14
#: failing patterns kept in the metadata (the replay of a violation)
KEEP_FAILING = 5


@dataclass(frozen=True, kw_only=True)
class ExactConfig(Config):
    """One instance of ``fedsgm.exact``: ``family`` in d = 2 with Rand-K K = 1, ``n_clients`` clients, ``E`` local
    steps, ``T`` rounds, the theorems of ``constants`` (:data:`EXACT_CLAIMS`); every choice pattern is run."""

    family: str
    n_clients: int
    E: int
    T: int
    w0_scale: float = 2.0
    constants: str
    profile: str

    def __post_init__(self) -> None:
        require(self.family in EXACT_FAMILIES, "family", self.family, f"one of {', '.join(EXACT_FAMILIES)}")
        require(self.constants in EXACT_CLAIMS, "constants", self.constants, f"one of {', '.join(EXACT_CLAIMS)}")
        for key in ("n_clients", "E", "T"):
            value = getattr(self, key)
            require(is_int(value) and value >= 1, key, value, "an integer >= 1")
        require(comb(DIM, K) ** (self.n_clients * self.T) <= MAX_PATTERNS, "T", self.T,
                f"n_clients x T small enough that C({DIM}, {K})^(n T) <= {MAX_PATTERNS} patterns")
        require(is_real(self.w0_scale) and self.w0_scale > 0, "w0_scale", self.w0_scale, "a finite ||w0|| > 0")

    def theory_config(self) -> InstanceConfig:
        """The ``fedsgm.theory`` instance of this config (d = 2, K/d = 1/2)."""
        return InstanceConfig(family=self.family, dim=DIM, n_clients=self.n_clients, E=self.E, T=self.T,
                              K_frac=K / DIM, w0_scale=self.w0_scale, constants=self.constants)


def patterns(n_clients: int, T: int):
    """Every choice pattern (T, n, K) of K-subsets of the d = 2 coordinates, in lexicographic order."""
    subsets = [np.array(s) for s in itertools.combinations(range(DIM), K)]
    for choice in itertools.product(range(len(subsets)), repeat=T * n_clients):
        yield np.array([subsets[i] for i in choice]).reshape(T, n_clients, K)


def pattern_run(instance, params: alg.FedSGMParams, pattern: np.ndarray, claim_ids) -> tuple:
    """Algorithm 1 with the Rand-K choices ``pattern``: ``(trace, outcomes of claim_ids on that run)``."""
    trace = alg.run(instance.problem, params, ScriptedKeys(pattern))
    if not np.array_equal(trace.selected, pattern):
        raise AssertionError("Rand-K did not keep the scripted coordinates: repro.compression.RandK.draw changed")
    return trace, [o for cid in claim_ids for o in V.check(B.claim(cid), instance, trace)]


def pattern_outcomes(instance, params: alg.FedSGMParams, pattern: np.ndarray, claim_ids) -> list:
    """Algorithm 1 with the Rand-K choices ``pattern`` and the outcomes of ``claim_ids`` on that run."""
    return pattern_run(instance, params, pattern, claim_ids)[1]


def _fails(outcomes) -> bool:
    return any(o.hypotheses_met and not o.passed and not o.inconclusive for o in outcomes)


def _sides(outcomes) -> tuple[float, float]:
    """The observed value and bound of the outcome with the largest finite observed/bound (nan, nan if none)."""
    finite = [o for o in outcomes if o.hypotheses_met and (r := outcome_ratio(o)) is not None and np.isfinite(r)]
    worst = max(finite, key=outcome_ratio, default=None)
    return (float(worst.observed), float(worst.bound)) if worst is not None else (np.nan, np.nan)


def run_exact(config: ExactConfig, seed: int):
    """P(the conclusion of each theorem of ``constants`` fails) over all Rand-K patterns, exactly
    (:class:`repro.scripted.FailureCount` per theorem: the failing patterns as kept coordinates per round and
    client, and the theorem's own sides where observed - bound is largest)."""
    theory = config.theory_config()
    instance, trace = simulate_instance(theory, seed, record_directions=False)
    params = alg.FedSGMParams(**(trace.params.__dict__ | {"record_directions": False}))
    counts, mass = enumerate_counts(instance, params, EXACT_CLAIMS[config.constants], config.n_clients, config.T)
    total = next(iter(counts.values())).patterns
    return ({"failure_probability": np.array([float(k.probability) for k in counts.values()])},
            {"failure_counts": [k.as_json() for k in counts.values()], "instance": theory.as_dict() | {"seed": seed},
             "law": law_record(total, mass), "eps": float(params.eps), "D": float(instance.optimum.D)})


def _judge(claim_id: str, outcomes: list, trace, pattern) -> tuple[bool, float, float]:
    """The default judgement of one pattern: the claim's own check fails, and its sides (:func:`_sides`)."""
    return (_fails(outcomes), *_sides(outcomes))


def enumerate_counts(instance, params: alg.FedSGMParams, claim_ids, n_clients: int, T: int, judge=_judge):
    """Every Rand-K pattern of ``n_clients`` x ``T`` rounds replayed on ``instance`` with ``params`` and judged for
    each of ``claim_ids`` by ``judge(claim_id, its outcomes, trace, pattern) -> (fails, observed, bound)``: one
    :class:`repro.scripted.FailureCount` per claim (failing patterns as kept coordinates per round and client) and
    the probability mass enumerated."""
    counts = {cid: FailureCount(cid, KEEP_FAILING) for cid in claim_ids}
    mass = Fraction(0)
    for pattern, p in uniform_law(patterns(n_clients, T), comb(DIM, K) ** (n_clients * T)):
        mass += p
        trace, outcomes = pattern_run(instance, params, pattern, tuple(counts))
        for cid, count in counts.items():
            mine = [o for o in outcomes if o.claim_id == cid]
            count.add(pattern[:, :, 0].tolist(), *judge(cid, mine, trace, pattern))
    return counts, mass


#: the enumerated instances per profile: (family, n_clients, E, T, ||w0||), each with seeds 0..seeds-1 and both
#: constants; the small ||w0|| and E = 1 are where the tight search (fedsgm.search, family randk-K1-E1) finds
#: Theorems 1 and 6 tightest
EXACT_GRID = {"quick": {"cases": (("max_affine", 1, 1, 8, 0.3), ("max_affine", 1, 2, 6, 2.0),
                                  ("huber_ball", 1, 1, 8, 0.3), ("max_affine", 2, 1, 4, 0.3)), "seeds": 2},
              "paper": {"cases": (("max_affine", 1, 1, 11, 0.3), ("max_affine", 1, 2, 10, 2.0),
                                  ("huber_ball", 1, 1, 11, 0.3), ("logistic_ball", 1, 1, 11, 2.0),
                                  ("max_affine", 2, 1, 6, 0.3), ("huber_ball", 2, 2, 6, 0.7)), "seeds": 4}}


def exact_specs(profile: str) -> list[RunSpec]:
    grid = EXACT_GRID[profile]
    return [RunSpec("fedsgm.exact", ExactConfig(family=family, n_clients=n, E=E, T=T, w0_scale=w0, constants=label,
                                                profile=profile), seed, run_exact)
            for family, n, E, T, w0 in grid["cases"] for label in EXACT_CLAIMS for seed in range(grid["seeds"])]
