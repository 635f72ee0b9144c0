"""PC-FedAvg's claims under every noise path (``pcfedavg.exact``): exact expectations and exact failure probabilities.

Algorithm 1 is random only through the oracle's noise xi_{i,k} (line 5: "agent i generates the random variable
xi_{i,k}"). Lemma 4.4 is stated pathwise (no expectation: it must hold on every path); Lemmas 4.3, 4.5, 4.6,
Propositions 4.7, 4.8 (i)-(iii) and display (12) are stated in expectation. ``pcfedavg.theory`` checks them by
Monte Carlo (S replicates, a 3-standard-error rule, so a small violation is "inconclusive"). Here the noise has finite
support and every path is run:

* the noise law (this project's choice, named): xi_{i,k} = (nu / sqrt(n)) s with s uniform on {-1, +1}^n, independent
  over agents and iterations (Rademacher). It is unbiased with E||xi||^2 = nu^2, as the Gaussian oracle of
  ``pcfedavg.theory``, so Assumption 3.2 holds with the same nu and M is unchanged;
* a run of K = R H iterations draws m n K signs, so there are 2^(m n K) equally likely paths. They are the S
  replicates of one lockstep run (:class:`repro.scripted.SignPaths` scripts the draws), so every replicate mean is
  the exact expectation (up to float64 rounding), and the expectation over K* is the exact average over k, as in
  ``pcfedavg.theory``;
* every claim is then judged exactly (:class:`repro.papers.pcfedavg.checks.Instance` with ``exact=True``: no standard
  error, no "inconclusive"), and each outcome carries the number of paths on which the claim's quantity exceeds its
  bound. For Lemma 4.4 that number over the path count is the exact probability that the pathwise statement fails
  (> 0 refutes it); for the claims in expectation it is reported only (a path above the bound does not contradict
  an expectation).

Instances, step sizes and the reference solutions are those of ``pcfedavg.theory``
(:func:`repro.papers.pcfedavg.runs.theory.prepare`), with the replicates set to the path count.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from repro.errors import is_real, require
from repro.papers.pcfedavg import checks as V
from repro.papers.pcfedavg.algorithms import pcfedavg as alg
from repro.papers.pcfedavg.runs import theory
from repro.runner import RunSpec
from repro.scripted import SignPaths
from repro.verify import check_claims, outcome_arrays

#: the largest enumeration (paths = replicates of one lockstep run)
MAX_BITS = 16


@dataclass(frozen=True, kw_only=True)
class ExactConfig(theory.RunKeys):
    """One enumerated instance of ``pcfedavg.exact``: the keys of :class:`~.theory.RunKeys` with noise level nu > 0
    (every sign path of the m n R H draws is run)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        require(is_real(self.nu) and 0 < self.nu < 1e6, "nu", self.nu,
                "a finite number in (0, 1e6) (nu = 0 has a single path: pcfedavg.theory covers it)")
        require(self.m * self.n * self.R * self.H <= MAX_BITS, "R", self.R,
                f"an integer with m n R H <= {MAX_BITS} (2^(m n R H) paths are enumerated)")

    def setup(self, paths: int) -> theory.Setup:
        """The ``pcfedavg.theory`` run of this instance (:func:`~.theory.prepare`), with one replicate per path."""
        return theory.Setup.of(self, S=paths)


def run_exact(config: ExactConfig, seed: int):
    """Every claim checked by ``pcfedavg.theory``, judged exactly over every noise path; per outcome the number of
    paths that exceed its bound, and Lemma 4.4's exact failure probability."""
    iterations = config.R * config.H
    script = SignPaths(iterations, (config.m, config.n))
    problem, ref, params, _, _ = theory.prepare(config.setup(script.paths), seed)
    trace = alg.run(problem, params, script)
    if script.calls_made != iterations:
        raise AssertionError(f"Algorithm 1 drew noise {script.calls_made} times, not once per iteration "
                             f"({iterations}): the enumeration would not be the run's law")
    outcomes = check_claims(V.check, V.THEORY_CLAIMS, V.Instance(problem, ref, exact=True), trace)
    # (12) bounds a function of expectations: no path has a value of its own, so no count (NaN)
    exceeding = np.array([o.details.get("replicates_exceeding", np.nan) for o in outcomes], dtype=float)
    lemma44 = [o for o in outcomes if o.claim_id == "pcfedavg.lemma4.4"][0]
    probability = Fraction(int(lemma44.details["replicates_exceeding"]), script.paths)
    arrays = outcome_arrays(outcomes) | {"paths_exceeding": exceeding, "paths": np.array(script.paths),
                                         "lemma44_failure_probability": np.array(float(probability))}
    meta = {"instance": problem.describe(), "lemma44_failure_probability": str(probability),
            "noise": "Rademacher: (nu / sqrt(n)) s, s uniform on {-1, +1}^n", "bits": script.bits,
            "details": [o.details for o in outcomes], "law": script.law()}
    return arrays, meta


#: the enumerated instances per profile: (family, sets, m, n, H, R, nu, path); seeds 0..seeds-1
EXACT_GRID = {"quick": {"cases": (("quadratic", ("box",), 2, 1, 2, 3, 1.0, "compact"),
                                  ("logistic", ("l2_ball",), 2, 1, 1, 5, 1.0, "compact"),
                                  ("quadratic", ("box", "whole"), 2, 1, 2, 3, 1.0, "printed")), "seeds": 2},
              "paper": {"cases": (("quadratic", ("box",), 2, 1, 2, 4, 1.0, "compact"),
                                  ("quadratic", ("l1_ball", "whole"), 2, 2, 2, 2, 1.0, "compact"),
                                  ("logistic", ("l2_ball",), 2, 1, 1, 8, 1.0, "compact"),
                                  ("quadratic", ("box",), 3, 1, 1, 5, 0.5, "compact"),
                                  ("quadratic", ("box", "whole"), 2, 1, 2, 4, 1.0, "printed"),
                                  ("logistic", ("box", "l2_ball"), 2, 1, 4, 2, 1.0, "printed")), "seeds": 4}}


def exact_specs(profile: str) -> list[RunSpec]:
    grid = EXACT_GRID[profile]
    return [RunSpec("pcfedavg.exact", ExactConfig(family=family, sets=list(sets), m=m, n=n, H=H, R=R, nu=nu, path=path,
                                                  profile=profile), seed, run_exact)
            for family, sets, m, n, H, R, nu, path in grid["cases"] for seed in range(grid["seeds"])]


def work(config: dict) -> float:
    """Paths times iterations times the m x m x n iterate (the cost model of :mod:`repro.costs`)."""
    run = ExactConfig.from_dict(config)
    iterations = run.R * run.H
    return 2.0 ** (run.m * run.n * iterations) * iterations * run.m ** 2 * run.n
