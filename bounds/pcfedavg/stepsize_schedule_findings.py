"""PC-FedAvg audit: the step-size hypothesis gamma <= min{1/(6 L_G), 1/(5 L_G (H-1))} and the round schedule.

* :func:`finding_thm34_stepsize_inadmissible`: the proof of Theorem 3.4 takes gamma = 1/sqrt(R), rho = sqrt(R), which
  never satisfies the hypothesis of Props. 4.7-4.8 (item a);
* :data:`STEPSIZE_IMPLICATIONS` / :func:`finding_stepsize_implication`: the implications the proofs draw from the
  hypothesis -- (P4.7-b), (L4.5-g), the two of (L4.6-e) -- each proven on its interval (item h);
* :func:`finding_prop47_k_is_sync_index`: the proof of Prop. 4.7 uses K = T_r with K = RH, not implied by round lengths
  at most H;
* :func:`step_size_bound`, :func:`settings_findings`: the experiments' step sizes (Section 5) against the hypothesis.
"""
from __future__ import annotations

import itertools

import sympy as sp

from ..audit import producer
from ..core import prove_identity, prove_nonnegative
from .claims import H, LF_SUM, L_G_EXPR, R, gamma, m, rho
from .derivation_tools import GAMMA_LG, GAMMA_LG_HM1, prove_nonnegative_on_interval


# ============================================================================ the hypothesis and its implications
@producer
def finding_thm34_stepsize_inadmissible():
    """Item a: the proof of Theorem 3.4 takes gamma = 1/sqrt(R), rho = sqrt(R); with them 6 gamma L_G - 1 > 5 and
    5 gamma L_G (H-1) - 1 >= 4 for H >= 2 (proven), so the hypothesis of Props. 4.7-4.8 never holds."""
    from .. import audit as A

    sub = {gamma: 1 / sp.sqrt(R), rho: sp.sqrt(R)}
    six = sp.expand((6 * gamma * L_G_EXPR - 1).subs(sub))
    five = sp.expand((5 * gamma * L_G_EXPR * (H - 1) - 1).subs(sub))
    r_ = sp.Symbol("_r", positive=True)     # R = r^2 makes both expressions rational
    r6 = prove_nonnegative((six - 5).subs(R, r_**2), {m: 1})
    r5 = prove_nonnegative((five - 4).subs(R, r_**2).subs(H, 2 + sp.Symbol("_h", nonnegative=True)), {m: 1})
    ok = r6.proven is True and r5.proven is True
    return A.Finding(
        "pcfedavg.a.thm3.4.stepsize", "hypotheses", ("pcfedavg.thm3.4.i", "pcfedavg.thm3.4.ii", "pcfedavg.thm3.4.iii"),
        A.DISCREPANCY if ok else A.NOT_CHECKABLE,
        "The proof's gamma = 1/sqrt(R) with rho = sqrt(R) never satisfies the theorem's own hypothesis: "
        "6 gamma L_G > 6 for every R, m, L_f, sigma, and 5 gamma L_G (H-1) >= 5 whenever H >= 2; no H makes "
        "it admissible (H = 1 only removes the second condition). Prop. 4.8 therefore cannot be invoked with it.",
        f"with gamma = 1/sqrt(R), rho = sqrt(R): 6 gamma L_G - 1 = 5 + 6 (L_f + sigma (m-1))/(m sqrt(R)) "
        f"(identity: {prove_identity(six, 5 + 6 * LF_SUM / (m * sp.sqrt(R))).proven}; > 5 proven: {r6.proven}); "
        f"5 gamma L_G (H-1) - 1 = 5 (H-1)(1 + (L_f + sigma (m-1))/(m sqrt(R))) - 1 (identity: "
        f"{prove_identity(five, 5 * (H - 1) * (1 + LF_SUM / (m * sp.sqrt(R))) - 1).proven}; >= 4 for H >= 2 proven: "
        f"{r5.proven}); an admissible gamma is at most 1/(6 L_G) < 1/(6 sqrt(R)) = (1/6) x the proof's gamma",
        "proven symbolically (nonnegative coefficients)")


STEPSIZE_IMPLICATIONS = (
    ("pcfedavg.h.P4.7-b", ("pcfedavg.prop4.7",), "u", sp.Rational(1, 5),
     "u = gamma L_G (H-1) <= 1/5 implies 15u^2 - 1 <= -1/3 (in fact <= -2/5)."),
    ("pcfedavg.h.L4.5-g", ("pcfedavg.lemma4.5",), "u", sp.Rational(1, 5),
     "u <= 1/5 implies 1 - 4u^2 >= 4/5 (in fact >= 21/25)."),
    ("pcfedavg.h.L4.6-e.1", ("pcfedavg.lemma4.6",), "w", sp.Rational(1, 6),
     "w = gamma L_G <= 1/6 implies -2 gamma (1 - 3 gamma L_G) <= -gamma."),
    ("pcfedavg.h.L4.6-e.2", ("pcfedavg.lemma4.6",), "w", sp.Rational(1, 6),
     "w <= 1/6 implies gamma L_G (1 + 3 gamma L_G) <= (3/2) gamma L_G."))
"""Item h: (id, claims, variable, upper end of its range, the implication); the slacks are
:func:`_implication_slack`."""


def _implication_slack(fid: str) -> sp.Expr:
    """The slack (>= 0 iff the implication holds) of the implication ``fid`` of :data:`STEPSIZE_IMPLICATIONS`, in
    u = gamma L_G (H-1) (:data:`~bounds.pcfedavg.derivation_tools.GAMMA_LG_HM1`) or w = gamma L_G
    (:data:`~bounds.pcfedavg.derivation_tools.GAMMA_LG`)."""
    return {"pcfedavg.h.P4.7-b": -sp.Rational(1, 3) - (15 * GAMMA_LG_HM1**2 - 1),
            "pcfedavg.h.L4.5-g": 1 - 4 * GAMMA_LG_HM1**2 - sp.Rational(4, 5),
            "pcfedavg.h.L4.6-e.1": 2 * GAMMA_LG * (1 - 3 * GAMMA_LG) - GAMMA_LG,
            "pcfedavg.h.L4.6-e.2": sp.Rational(3, 2) * GAMMA_LG - GAMMA_LG * (1 + 3 * GAMMA_LG)}[fid]


@producer
def finding_stepsize_implication(fid: str, claims: tuple, expr: sp.Expr, var: sp.Symbol, up, text: str):
    """Item h: the slack ``expr`` of one implication is >= 0 for 0 < var <= up (proven, refuted or undecided)."""
    from .. import audit as A

    res, sub, mn = prove_nonnegative_on_interval(expr, var, up)
    verdict = A.CONSISTENT if res.proven else A.DISCREPANCY if res.proven is False else A.NOT_CHECKABLE
    summary = text if res.proven else f"Not established: {text}"
    return A.Finding(fid, "statement-vs-proof", claims, verdict, summary,
                     f"slack {expr} >= 0 on (0, {up}]; substitution {var} = {up}/(1+t): {sp.factor(sub)}; "
                     f"minimum on [0, {up}] = {mn}", A._method(res))


# ============================================================================ the round schedule: K = T_r
def _unsynchronized_horizon(H_v: int, R_v: int, rounds: int):
    """Round lengths in [1, H] (``rounds`` of them) whose synchronization indices T_r miss K = R H, or None."""
    for lengths in itertools.product(range(1, H_v + 1), repeat=rounds):
        T = list(itertools.accumulate(lengths, initial=0))
        if R_v * H_v not in T:
            return lengths, T
    return None


@producer
def finding_prop47_k_is_sync_index(H_v: int = 2, R_v: int = 2, rounds: int = 4):
    """Prop. 4.7's 'K = T_r for some r' with K = RH, against round lengths allowed by max_r (T_(r+1) - T_r) <= H:
    reported when an enumeration finds lengths whose indices T_r miss RH."""
    from .. import audit as A

    found = _unsynchronized_horizon(H_v, R_v, rounds)
    if found is None:
        return None
    lengths, T = found
    return A.Finding(
        "pcfedavg.prop4.7.K_eq_Tr", "hypotheses", ("pcfedavg.prop4.7", "pcfedavg.prop4.8.i"), A.DISCREPANCY,
        "The proof of Proposition 4.7 ('As we mentioned, let K = HR. [...] Since K = T_r for some r in N, applying "
        "Lemma 4.5 to the second term') uses K = T_r with K = RH, which holds when every round has exactly H local steps "
        "(T_r = rH, the harness default) but is not implied by max_r |T_{r+1} - T_r| <= H.",
        f"H = {H_v}, round lengths {lengths}: T = {T}; R = {R_v} gives K = RH = {R_v * H_v}, not a synchronization index",
        "counterexample (enumeration of round lengths)")


# ============================================================================ the experiments' step sizes
def step_size_bound(L_f_v: float, sigma_v: float, m_v: int, rho_v: float, H_v: int) -> float:
    """min{1/(6 L_G), 1/(5 L_G (H-1))} (the second is +inf for H = 1)."""
    LG = (L_f_v + sigma_v * (m_v - 1)) / m_v + rho_v
    b5 = float("inf") if H_v <= 1 else 1 / (5 * LG * (H_v - 1))
    return min(1 / (6 * LG), b5)


@producer
def settings_findings(values: dict) -> list:
    """Experiment settings vs the step-size hypothesis of Props. 4.7-4.8 / Theorem 3.4.

    ``values``: dataset, gamma, rho (a number or a sequence: the schedule rho_r; the largest value is
    the most restrictive and is used), H, m, L_f, sigma (max_i sigma_i, or the vector).
    """
    from .. import audit as A

    rho_v = values["rho"]
    rhos = list(rho_v) if hasattr(rho_v, "__iter__") else [rho_v]
    sig = values["sigma"]
    sig_v = max(sig) if hasattr(sig, "__iter__") else sig
    m_v, H_v, Lf_v, g_v = int(values["m"]), int(values["H"]), float(values["L_f"]), float(values["gamma"])
    bound_max = step_size_bound(Lf_v, sig_v, m_v, max(rhos), H_v)
    bound_min = step_size_bound(Lf_v, sig_v, m_v, min(rhos), H_v)
    LG = (Lf_v + sig_v * (m_v - 1)) / m_v + max(rhos)
    ok = g_v <= bound_max
    ds = values.get("dataset", "experiment")
    return [A.Finding(
        f"pcfedavg.settings.{ds}.stepsize", "experiment-settings",
        ("pcfedavg.prop4.7", "pcfedavg.prop4.8.i", "pcfedavg.thm3.4.i"), A.CONSISTENT if ok else A.DISCREPANCY,
        (f"{ds}: gamma = {g_v} satisfies" if ok else f"{ds}: gamma = {g_v} violates")
        + f" gamma <= min{{1/(6 L_G), 1/(5 L_G (H-1))}} = {bound_max:.4g} (largest rho).",
        f"L_f = {Lf_v}, sigma = {sig_v}, m = {m_v}, H = {H_v}, rho in [{min(rhos):.6g}, {max(rhos):.6g}]: "
        f"L_G = {LG:.6g}, 1/(6 L_G) = {1 / (6 * LG):.4g}, "
        f"1/(5 L_G (H-1)) = {(float('inf') if H_v <= 1 else 1 / (5 * LG * (H_v - 1))):.4g}; bound at smallest rho "
        f"{bound_min:.4g}; gamma / bound = {g_v / bound_max:.4g}", "numeric")]
