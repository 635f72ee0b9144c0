"""FedCLUP: observed quantities (from closed forms and runs) -> :class:`Outcome` per claim.

The bounds are the sympy claims of :mod:`bounds.fedclup`, lambdified: the numbers checked here are the
encoded formulas, not a transcription of them.

* Deterministic claims (pathwise Lemma 3, Lemma 4's first inequality, (33), the (8a) inequalities
  before expectation, Lemmas 5-6, Theorem 2) are checked entry by entry (every data draw, every
  lambda, every client, every round) by :func:`repro.verify.check_relation`; a violation larger than
  the floating-point tolerance fails.
* Expectation claims (Lemma 4, (8a), (8b), Theorem 1 and Corollary 1 in explicit form, Lemma 7) are
  judged on Monte-Carlo means over independent draws (axis 0 of the samples), entry by entry (per
  lambda and per client: the bounds hold for every client i). An entry is violated when
  mean - z SE exceeds the bound, with z = :func:`z_threshold` of the number of entries judged
  (Bonferroni, family-wise false-alarm level 1e-3); consistent when mean + z SE <= bound;
  inconclusive otherwise. The outcome reports the worst entry (largest mean/bound).
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from bounds import fedclup as B
from bounds.core import Mode

from repro.verify import Outcome, check_relation

FAMILY_LEVEL = 1e-3


def z_threshold(n_checks: int) -> float:
    """Standard errors needed to call a violation among ``n_checks`` simultaneous comparisons
    (at least 3; Bonferroni at family-wise level 1e-3)."""
    return max(3.0, float(stats.norm.isf(FAMILY_LEVEL / max(int(n_checks), 1))))


def deterministic(claim_id: str, values: dict, *, tol: float = 0.0, hypotheses_met: bool = True) -> list[Outcome]:
    """Every relation of a deterministic claim, checked on all entries of the observed arrays."""
    claim = B.claim(claim_id)
    if claim.mode is not Mode.DETERMINISTIC:
        raise ValueError(f"claim {claim_id} is stated in mode {claim.mode.value}, not deterministic")
    outs = []
    for rel in claim.relations:
        out = check_relation(claim, rel, values, tol=tol)
        outs.append(Outcome(**(out.__dict__ | {"hypotheses_met": bool(hypotheses_met)})))
    return outs


def expectation(claim_id: str, observed: str, samples: np.ndarray, values: dict, *,
                mask: np.ndarray | None = None, hypotheses_met: bool = True) -> Outcome:
    """Monte-Carlo check of ``E[observed] <= bound`` for the relation whose left side is ``observed``.

    ``samples`` has the independent draws on axis 0 and one entry per remaining index (lambda,
    client, ...); the bound is evaluated from ``values`` (parameters, broadcast against
    ``samples.shape[1:]``). ``mask`` (same shape as an entry) restricts the check to entries where the
    claim's hypotheses hold; masked-out entries are not judged.
    """
    claim = B.claim(claim_id)
    if claim.mode is not Mode.EXPECTATION:
        raise ValueError(f"claim {claim_id} is stated in mode {claim.mode.value}, not in expectation")
    samples = np.asarray(samples, dtype=np.float64)
    bound = np.broadcast_to(np.asarray(claim.evaluate(**values)[observed], dtype=np.float64), samples.shape[1:])
    keep = np.ones(samples.shape[1:], bool) if mask is None else np.broadcast_to(mask, samples.shape[1:])
    relation = f"E[{observed}] <= ..."
    if not keep.any():
        return Outcome(claim.id, relation, claim.mode.value, np.nan, np.nan, np.nan, True, False, 0,
                       samples.shape[0], hypotheses_met=False, details={"reason": "hypotheses fail everywhere"})
    mean = samples.mean(axis=0)
    se = samples.std(axis=0, ddof=1) / np.sqrt(samples.shape[0]) if samples.shape[0] > 1 else np.zeros_like(mean)
    z = z_threshold(int(keep.sum()))
    violated = keep & (mean - z * se > bound)
    inconclusive = keep & ~violated & (mean + z * se > bound)
    ratio = np.where(keep & (bound > 0), mean / np.where(bound > 0, bound, 1.0), -np.inf)
    worst = np.unravel_index(int(np.argmax(ratio)), ratio.shape) if ratio.ndim else ()
    return Outcome(claim_id=claim.id, relation=relation + " (in expectation)", mode=claim.mode.value,
                   observed=float(mean[worst]), bound=float(bound[worst]), ratio=float(ratio[worst]),
                   passed=not bool(violated.any()), inconclusive=bool(inconclusive.any() and not violated.any()),
                   n_checked=int(keep.sum()), n_runs=int(samples.shape[0]),
                   ci=(float(mean[worst] - z * se[worst]), float(mean[worst] + z * se[worst])),
                   hypotheses_met=bool(hypotheses_met),
                   details={"z": z, "worst_index": [int(i) for i in worst], "n_violated": int(violated.sum()),
                            "n_inconclusive": int(inconclusive.sum())})
