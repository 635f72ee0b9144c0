"""PC-FedAvg audit: the exact tools and the row vocabulary every re-derivation of :mod:`bounds.pcfedavg.findings`
shares.

* the statuses of a row of the proof-step table (:data:`IDENTITY`, :data:`VALID`, :data:`NOT_IMPLIED`,
  :data:`NOT_CHECKED`), :func:`table_step` (one row: claim, step label, status, method, evidence, counterexample) and
  :func:`status_of_identity` / :func:`status_of_all` (a status from proof results);
* the block matrices A = (1/m) 1_m^T kron I_n and B_i = e_i^T kron I_n of Lemma 4.1 (:func:`block_matrices`) and the
  exact squared spectral norm (:func:`spectral_norm_sq`);
* :func:`prove_nonnegative_on_interval`: a slack >= 0 on (0, upper] of one step-size variable, the symbols
  :data:`GAMMA_LG_HM1` (u = gamma L_G (H-1), limited by 5 gamma L_G (H-1) <= 1) and :data:`GAMMA_LG` (w = gamma L_G,
  limited by 6 gamma L_G <= 1) of Lemmas 4.5-4.6 and Prop. 4.7;
* :func:`compare_printed_with_derived`: a printed bound against the one re-derived from its proof (identity, looser
  = implied, or tighter = not implied; sampled on :data:`SAMPLING_BOXES` when sympy cannot decide), the finding behind
  Lemma 4.5, Prop. 4.7 and Prop. 4.8 (i).
"""
from __future__ import annotations

import sympy as sp

from ..audit import fmt_point, producer
from ..core import prove_identity, prove_nonnegative, sample_nonnegative
from .claims import D, H, K, L_f, M, Q, R, eps, gamma, gap_round, m, n, nu, rho, round_len, sigma, sigma_i


# ============================================================================ the proof-step table's vocabulary
IDENTITY, VALID, NOT_IMPLIED = "identity", "valid inequality", "not implied"
"""Statuses of a row of the proof-step table: the step is an identity, a valid inequality, or not implied by its
stated inputs."""
NOT_CHECKED = "not checked"
"""Status of a row no honest computation decides (not a verdict: it counts as neither support nor gap)."""


def table_step(claim_id, step, status, method, evidence, counterexample=None):
    """One row of the proof-step table (:func:`bounds.pcfedavg.findings.proof_steps`): the claim whose proof displays
    the step, the step's label, its status, how it was decided (``method``), the evidence, and a counterexample."""
    return {"claim": claim_id, "step": step, "status": status, "method": method, "evidence": evidence,
            "counterexample": counterexample}


def status_of_identity(res) -> str:
    """:data:`IDENTITY` when the proof result ``res`` proves the identity, else :data:`NOT_IMPLIED`."""
    return IDENTITY if res.proven is True else NOT_IMPLIED


def status_of_all(*flags, ok=VALID) -> str:
    """``ok`` when every computed flag is True, not implied when one is False, not checked when one is undecided."""
    flags = [f.proven if hasattr(f, "proven") else f for f in flags]
    if all(f is True for f in flags):
        return ok
    return NOT_IMPLIED if any(f is False for f in flags) else NOT_CHECKED


# ============================================================================ exact helpers
SYMBOL_BY_NAME = {str(s): s for s in (m, n, L_f, sigma, sigma_i, rho, gamma, H, R, K, nu, M, Q, D, eps)}
"""The paper's symbols by name (to substitute a point given as ``{"m": 2, "rho": 1, ...}``)."""


def block_matrices(m_: int, n_: int, i: int):
    """Sympy A = (1/m) 1_m^T kron I_n and B_i = e_i^T kron I_n (i is 0-based)."""
    I_n = sp.eye(n_)
    A = sp.kronecker_product(sp.ones(1, m_), I_n) / m_
    e = sp.zeros(1, m_)
    e[0, i] = 1
    return A, sp.kronecker_product(e, I_n)


def spectral_norm_sq(X: sp.Matrix):
    """Largest eigenvalue of X X^T (= ||X||^2), exactly."""
    return max(sp.Matrix(X * X.T).eigenvals())


GAMMA_LG_HM1 = sp.Symbol("u", positive=True)    # gamma L_G (H - 1)
"""u = gamma L_G (H - 1): the hypothesis 5 gamma L_G (H - 1) <= 1 is u <= 1/5 ((L4.5-g), (P4.7-b))."""
GAMMA_LG = sp.Symbol("w", positive=True)        # gamma L_G
"""w = gamma L_G: the hypothesis 6 gamma L_G <= 1 is w <= 1/6 ((L4.6-e), Lemma 4.6's statement)."""


def prove_nonnegative_on_interval(expr, var, upper):
    """Prove expr(var) >= 0 for 0 < var <= upper by substituting var = upper/(1 + t), t >= 0."""
    t = sp.Symbol("_t", nonnegative=True)
    sub = sp.together(expr.subs(var, upper / (1 + t)))
    res = prove_nonnegative(sub, {})
    minimum = sp.calculus.util.minimum(expr, var, sp.Interval(0, upper))
    return res, sub, minimum


# ============================================================================ printed vs re-derived
SAMPLING_BOXES = {m: (2, 50, True), H: (1, 40, True), K: (1, 10**5, True), R: (1, 10**5, True),
                  L_f: (1e-3, 1e3, False), sigma: (1e-3, 1e2, False), sigma_i: (1e-3, 1e2, False),
                  rho: (1e-3, 1e3, False), gamma: (1e-6, 1.0, False), nu: (1e-3, 1e2, False),
                  M: (1e-3, 1e3, False), Q: (1e-3, 1e3, False), D: (1e-3, 1e3, False), eps: (1e-4, 1.0, False),
                  gap_round: (1e-3, 1e3, False), round_len: (1, 40, True)}
"""(low, high, integer) per symbol: where :func:`bounds.core.sample_nonnegative` looks for a counterexample when sympy
cannot decide the sign of a difference."""


@producer
def compare_printed_with_derived(id_, claims, candidate, derived, what, rng=None):
    """Finding: is the printed ``candidate`` the derived bound (identity), looser (implied) or tighter?"""
    import numpy as np

    from .. import audit as A

    res = prove_identity(candidate, derived)
    if res.proven:
        return A.Finding(id_, "statement-vs-proof", claims, A.CONSISTENT,
                         f"{what}: the printed bound is exactly what the proof's steps give.",
                         f"printed {candidate}; re-derived {derived}; difference 0", A._method(res))
    diff = sp.expand(candidate - derived)
    pos = prove_nonnegative(diff, {m: 2, H: 1})
    if pos.proven is None:
        pos = sample_nonnegative(diff, SAMPLING_BOXES, rng or np.random.default_rng(0))
    if pos.proven is False:
        return A.Finding(id_, "statement-vs-proof", claims, A.DISCREPANCY,
                         f"{what}: the printed bound is smaller than what the proof's steps give, so it is not implied.",
                         f"printed - re-derived = {sp.factor(diff)}; counterexample {fmt_point(pos.counterexample)}",
                         A._method(pos))
    return A.Finding(id_, "statement-vs-proof", claims, A.CONSISTENT,
                     f"{what}: the printed bound is implied (looser than what the proof's steps give).",
                     f"printed - re-derived = {sp.factor(diff)} >= 0", A._method(pos))
