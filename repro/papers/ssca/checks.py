"""SSCA claims x runs -> Outcomes (the cvxpy references of the closed forms are in
:mod:`repro.papers.ssca.problems.server`).

* :func:`lemma4_outcome`: the descent inequality (51), a deterministic per-realisation statement,
  judged at every iteration of a run (float tolerance only).
* :func:`trend`: Theorems 1-4 are almost-sure limit statements; a finite run can only show whether the
  quantities the proofs say must vanish (KKT residual, ||omega_bar - omega||, tracking error) decrease.
  The trend is the least-squares slope of log(quantity) against log(t) over the second half of the
  checkpoints, and the ratio of the last value to the first.
"""
from __future__ import annotations


import numpy as np

from bounds import ssca as B

from repro.verify import Outcome, check_relation

def lemma4_outcome(descent, gamma, delta, err, mu: float, L_hat: float, *, tol: float = 1e-10) -> Outcome:
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
    """Slope of log(value) vs log(t) over the second half of the checkpoints, and last / first."""
    t = np.asarray(t, float)
    v = np.asarray(values, float)
    keep = (t >= t.max() ** 0.5) & (v > 0) & np.isfinite(v)
    slope = float(np.polyfit(np.log(t[keep]), np.log(v[keep]), 1)[0]) if keep.sum() >= 3 else np.nan
    return {"slope": slope, "last_over_first": float(v[-1] / v[0]) if v[0] > 0 else np.nan,
            "last": float(v[-1])}
