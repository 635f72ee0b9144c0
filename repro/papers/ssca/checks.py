"""SSCA claims x runs -> Outcomes (the cvxpy references of the closed forms are in
:mod:`repro.papers.ssca.problems.server`).

One entry, :func:`check` ``(claim, problem, trace) -> list[Outcome]``, called through
:func:`repro.verify.check_claims`: ``problem`` is a :class:`CheckProblem` (what the checks need of the instance:
the modulus mu of the surrogate and the Lipschitz constant L_hat of grad F0), ``trace`` an
:class:`~repro.papers.ssca.algorithms.ssca.SSCATrace` (from the algorithm, or rebuilt from a cached
``ssca.convergence`` run by :func:`cached_trace`) whose monitor logged both sides of (51).

* ``ssca.lemma4`` (:func:`lemma4_outcome`): the descent inequality (51), a deterministic per-realisation
  statement, judged at every iteration of a run (float tolerance only).
* :func:`trend` (an observed quantity for the audit, not an Outcome): Theorems 1-4 are almost-sure limit
  statements; a finite run can only show whether the quantities the proofs say must vanish (KKT residual,
  ||omega_bar - omega||, tracking error) decrease. The trend is the least-squares slope of log(quantity) against
  log(t) over the second half of the checkpoints, and the ratio of the last value to the first.

The other claims of :mod:`bounds.ssca.claims` (closed forms, limits, Theorem 5) are judged by the runs' own
quantities in the audit, not by an Outcome: :func:`check` refuses them.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bounds.ssca import claims as B

from repro.errors import is_real, require
from repro.papers.ssca.algorithms.ssca import SSCATrace
from repro.verify import Outcome, check_relation

#: arrays of a cached ``ssca.convergence`` run that are not the monitor's (runs.convergence.run_convergence)
#: how far above its excluded edge (max(alpha, 1/2): Lemma 2's 1/2 < beta and beta > alpha) a search places beta at
#: the low end of its coordinate
BETA_MARGIN = 1e-3


def beta_near_edge(alpha: float, edge: float) -> float:
    """The exponent beta of gamma = a2/t^beta at the coordinate ``edge`` in [0, 1] of the interval Lemma 2's encoded
    step-size hypotheses admit at ``alpha`` (for (4)/(6) with power laws: (max(alpha, 1/2), 1]): 0 is
    :data:`BETA_MARGIN` above its excluded floor, 1 its cap."""
    low, high = B.claim("ssca.lemma2").admissible_interval(B.beta, alpha=alpha)
    low += BETA_MARGIN
    return low + edge * (high - low)


def step_exponents_admissible(a1: float, alpha: float, a2: float, beta: float, tau: float) -> bool:
    """Whether rho = a1/t^alpha and gamma = a2/t^beta satisfy Lemma 2's encoded step-size hypotheses ((4) and (6) for
    power laws) with the proximal weight ``tau``."""
    return bool(B.claim("ssca.lemma2").hypotheses_hold(a1=a1, alpha=alpha, a2=a2, beta=beta, tau=tau))


_NOT_MONITOR = ("t", "rho", "gamma", "step_norm", "max_norm", "nu", "zeta")


def surrogate_modulus(tau: float) -> float:
    """mu of Lemma 4 (51) for the printed surrogates (8)/(18) at proximal weight ``tau``, as encoded
    (:data:`bounds.ssca.claims.MU_PRINTED_SURROGATE`, 2 tau)."""
    return float(B.MU_PRINTED_SURROGATE.subs(B.tau, tau))


@dataclass(frozen=True)
class CheckProblem:
    """What the checks need of an instance: ``mu``, the modulus of the surrogate (:func:`surrogate_modulus` for the
    printed (8)/(18)), and
    ``L_hat``, the global Lipschitz constant of grad F0 (the metadata of an ``ssca.convergence`` run)."""

    mu: float
    L_hat: float

    def __post_init__(self) -> None:
        require(is_real(self.mu) and self.mu > 0, "mu", self.mu, "a finite number > 0")
        require(is_real(self.L_hat) and self.L_hat >= 0, "L_hat", self.L_hat, "a finite number >= 0")


def cached_trace(arrays: dict) -> SSCATrace:
    """The :class:`SSCATrace` of a cached ``ssca.convergence`` run, from the arrays it stored: ``rho``, ``gamma``,
    ``step_norm``, the checkpoints ``t``, the monitor's arrays and, for M = 1, nu and zeta (as (T-1, 1)); what
    the run does not store is empty (``params`` None, empty arrays, ``algorithm`` and ``server_route`` "")."""
    empty = np.zeros(0)
    monitor = {k: np.asarray(v) for k, v in arrays.items() if k not in _NOT_MONITOR}
    multipliers = {k: np.asarray(arrays[k])[:, None] for k in ("nu", "zeta") if k in arrays}
    return SSCATrace(algorithm="", params=None, rho=np.asarray(arrays["rho"]), gamma=np.asarray(arrays["gamma"]),
                     step_norm=np.asarray(arrays["step_norm"]), omega_norm=empty, batch_value=empty,
                     omega_final=empty, floats_sent_per_client=empty, floats_sent_total=empty, server_route="",
                     checkpoints=tuple(int(t) for t in arrays["t"]), monitor=monitor, **multipliers)


def check(claim, problem: CheckProblem, trace: SSCATrace) -> list[Outcome]:
    """The outcomes of ``claim`` on one run: ``ssca.lemma4`` on the iterations whose descent the monitor logged."""
    if claim.id == "ssca.lemma4":
        return [lemma4_outcome(*lemma4_series(trace), problem.mu, problem.L_hat)]
    raise ValueError(f"claim {claim.id} is not checked on a run by repro.papers.ssca.checks: only ssca.lemma4")


def lemma4_series(trace: SSCATrace) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(descent, gamma, Delta, err) of (51) at the iterations whose descent the monitor logged (finite)."""
    descent = np.asarray(trace.monitor["descent"])
    keep = np.isfinite(descent)
    return (descent[keep], np.asarray(trace.gamma)[:keep.sum()], np.asarray(trace.monitor["delta"])[keep],
            np.asarray(trace.monitor["tracking"])[keep])


#: the absolute float slack of (51)'s check (:func:`lemma4_outcome`), which the searches of (51) share
LEMMA4_TOL = 1e-10


def lemma4_outcome(descent, gamma, delta, err, mu: float, L_hat: float, *, tol: float = LEMMA4_TOL) -> Outcome:
    """(51) at every iteration: F0(w^{t+1}) - F0(w^t) <= gamma Delta err - gamma (mu - L_hat gamma / 2) Delta^2.

    The tolerance is absolute float slack on differences of full objective values (computed in float64 on
    data of unit scale). ``details['tightness']`` is the median over iterations of bound / descent where
    both are negative (1 = the inequality is an equality; small = loose)."""
    claim = B.claim("ssca.lemma4")
    values = {"descent": np.asarray(descent, float), "gamma": np.asarray(gamma, float),
              "Delta": np.asarray(delta, float), "err": np.asarray(err, float), "mu": mu, "L_hat": L_hat}
    out = check_relation(claim, claim.relations[0], values, tol=tol)
    bound = claim.evaluate(**values)[str(claim.relations[0].lhs)]
    both = (values["descent"] < 0) & (bound < 0)
    tight = float(np.median(bound[both] / values["descent"][both])) if both.any() else np.nan
    return Outcome(**(out.__dict__ | {"details": out.details | {"tightness": tight,
                                                               "n_negative_pairs": int(both.sum())}}))


def trend(t: np.ndarray, values: np.ndarray) -> dict:
    """Slope of log(value) vs log(t) over the second half of the checkpoints (on a log scale), and last / first,
    both over the finite values (a quantity not defined at the first checkpoints, e.g. a tracking error that needs
    a previous iterate, is nan there); nan when no value is finite and positive."""
    t = np.asarray(t, float)
    v = np.asarray(values, float)
    keep = (t >= t.max() ** 0.5) & (v > 0) & np.isfinite(v)
    slope = float(np.polyfit(np.log(t[keep]), np.log(v[keep]), 1)[0]) if keep.sum() >= 3 else np.nan
    finite = v[np.isfinite(v)]
    first, last = (finite[0], finite[-1]) if finite.size else (np.nan, np.nan)
    return {"slope": slope, "last_over_first": float(last / first) if first > 0 else np.nan, "last": float(last)}
