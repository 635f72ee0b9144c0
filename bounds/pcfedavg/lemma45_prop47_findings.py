"""PC-FedAvg audit: Lemma 4.5 and Proposition 4.7 -- their bounds re-derived from the proofs, and the findings on
their statements and steps.

* :func:`lemma45_from_proof`: the right side of Lemma 4.5 from (5), (L4.5-e), (L4.5-f) and (L4.5-g);
  :func:`prop47_from_proof`: the right side of Prop. 4.7 from (7), Lemma 4.5 summed over the rounds, (P4.7-b) and
  (P4.7-c) (printed (P4.7-c): :data:`P47C_PRINTED_RHS`); both over the sums :data:`SUM_GAP`, :data:`SUM_DRIFT`, the
  distance :data:`DIST_K` and the round length :data:`ROUND_LEN`;
* :func:`check_lemma45`, :func:`check_prop47`: the printed statements against those re-derivations;
* :func:`finding_l45d_bound_by_M`: (L4.5-d)'s "by the definition of M" on an exact instance (item e);
* :func:`finding_lemma45_range`: Lemma 4.5 stated for r >= 1 but applied by (P4.7-a) from r = 0 (item f, read off the
  quoted words :data:`LEMMA45_RANGE_WORDS` and :data:`P47A_SUM_WORDS`);
* :func:`finding_l45a_needs_common_iterate`: the equality of (L4.5-a) refuted off the synchronization index (item f);
* :func:`finding_l45e_index`: the delta index of (L4.5-e) (:data:`L45E_WORDS`).
"""
from __future__ import annotations

import functools
import re

import sympy as sp

from ..audit import producer
from ..core import prove_identity
from .claims import BOUND_47, H, K, L_G_EXPR, M, Q, _rhs45, gamma, gap_round, m, nu, round_len
from .derivation_tools import block_matrices, compare_printed_with_derived, spectral_norm_sq
from .exact_instances import LEMMA45_M_INSTANCE, interval_instance, l45a_counterexample


# ============================================================================ Lemma 4.5 and Prop. 4.7 re-derived
SUM_GAP, SUM_DRIFT, DIST_K, ROUND_LEN = sp.symbols("S_gap S_drift dist_K ell", nonnegative=True)
"""The sums the re-derivations run over: S_gap (of the gaps E[G_rho(xbar_k) - G_rho(x*_rho)]), S_drift (of the drifts
(1/m) sum_i E||x_(i,k) - xbar_k||^2), dist_K = E||xbar_K - x*_rho||^2 and the round length ell."""


@functools.lru_cache(maxsize=None)
def lemma45_from_proof() -> sp.Expr:
    """Right side of Lemma 4.5 re-derived from (5) + (L4.5-e) + (L4.5-f) + (L4.5-g).

    S_d <= c (8 L S_g + 4 L^2 S_d + 4 ell (M + nu^2/m)), c = gamma^2 (H-1)^2; move the S_d term left and
    divide by the lower bound 4/5 of 1 - 4u^2 (valid because the right side is >= 0).
    """
    LG = L_G_EXPR
    c = gamma**2 * (H - 1)**2
    rhs = sp.expand(c * (8 * LG * SUM_GAP + 4 * LG**2 * SUM_DRIFT + 4 * ROUND_LEN * (M + nu**2 / m)))
    coeff_left = 1 - rhs.coeff(SUM_DRIFT)                       # 1 - 4 gamma^2 (H-1)^2 L^2
    rest = sp.expand(rhs - rhs.coeff(SUM_DRIFT) * SUM_DRIFT)
    assert prove_identity(coeff_left, 1 - 4 * gamma**2 * (H - 1)**2 * LG**2).proven
    return sp.expand(rest / sp.Rational(4, 5)).subs({SUM_GAP: gap_round, ROUND_LEN: round_len})


@functools.lru_cache(maxsize=None)
def prop47_from_proof() -> sp.Expr:
    """Right side of Prop. 4.7 re-derived from (7), Lemma 4.5 (every round), (P4.7-b) and (P4.7-c).

    (7) telescoped: dist_K - Q <= gamma ((3/2) L S_d - S_g) + 3 K gamma^2 nu^2/m; Lemma 4.5 summed over
    rounds covering k = 0..K-1: S_d <= 5 c K (M + nu^2/m) + 10 c L S_g (c = gamma^2 (H-1)^2); the
    coefficient of S_g becomes gamma (15 u^2 - 1) <= -gamma/3; drop -dist_K; divide by K gamma/3.
    """
    LG = L_G_EXPR
    c = gamma**2 * (H - 1)**2
    sd_bound = 5 * c * K * (M + nu**2 / m) + 10 * c * LG * SUM_GAP
    slack = sp.expand(Q - DIST_K + gamma * (sp.Rational(3, 2) * LG * sd_bound - SUM_GAP) + 3 * K * gamma**2 * nu**2 / m)
    coeff_g = slack.coeff(SUM_GAP)
    assert prove_identity(coeff_g, gamma * (15 * gamma**2 * (H - 1)**2 * LG**2 - 1)).proven
    rest = sp.expand(slack - coeff_g * SUM_GAP).subs(DIST_K, 0)  # dropping -dist_K <= 0 loosens the bound
    # (gamma/3) S_g <= rest  =>  (1/K) S_g <= 3 rest / (K gamma)
    return sp.expand(3 * rest / (K * gamma))


P47C_PRINTED_RHS = Q + K * (sp.Rational(15, 2) * L_G_EXPR * gamma**3 * (H - 1)**2 * M) \
    + K * (nu**2 / m * (sp.Rational(15, 2) * L_G_EXPR * gamma**3 * (H - 1)**2 + 3 * gamma**2))
"""(P4.7-c) right side as printed."""


def check_lemma45(bound: sp.Expr = _rhs45, rng=None):
    """Printed (or perturbed) right side of Lemma 4.5 vs the proof's derivation."""
    return compare_printed_with_derived("pcfedavg.lemma4.5.derivation", ("pcfedavg.lemma4.5",), bound,
                                        lemma45_from_proof(), "Lemma 4.5", rng)


def check_prop47(bound: sp.Expr = BOUND_47, rng=None):
    """Printed (or perturbed) right side of Prop. 4.7 vs the proof's derivation."""
    return compare_printed_with_derived("pcfedavg.prop4.7.derivation", ("pcfedavg.prop4.7",), bound,
                                        prop47_from_proof(), "Prop. 4.7", rng)


# ============================================================================ findings on Lemma 4.5's statement and steps
@producer
def finding_l45d_bound_by_M(c=LEMMA45_M_INSTANCE["c"], sig=LEMMA45_M_INSTANCE["sigma"], X=LEMMA45_M_INSTANCE["X"],
                            rho_v=LEMMA45_M_INSTANCE["rho"]):
    """Item e: (L4.5-d)'s 'by the definition of M' on an exact instance: is (1/m) sum_i ||grad G_(i,rho)(x*_rho)||^2
    above M?"""
    from .. import audit as A

    inst = interval_instance(c, sig, X, rho_v)
    bigger = inst["mean_sq_grad_G_at_x_star_rho"] > inst["M"]
    summary = ("(L4.5-d) bounds (4/m) sum_i ||grad G_{i,rho}(x*_rho)||^2 by 4M 'by the definition of M', but M is "
               "evaluated at x* (the solution of (1)) and without the penalty: " +
               ("on an exact instance the left side exceeds M, so the step is not implied. Whether Lemma 4.5 itself "
                "fails is for the numeric check on runs." if bigger else
                "on this instance the left side does not exceed M (no counterexample here)."))
    return A.Finding(
        "pcfedavg.e.lemma4.5.M", "statement-vs-proof", ("pcfedavg.lemma4.5", "pcfedavg.prop4.7"),
        A.DISCREPANCY if bigger else A.CONSISTENT, summary,
        f"m = {len(c)}, n = 1, f_i(y) = (y - c_i)^2/2, c = {c}, sigma = {sig}, X = {X}, rho = {rho_v}, nu = 0: "
        f"x* = {inst['x_star']}, x*_rho = {inst['x_star_rho']} (grad G_rho(x*_rho) = {inst['grad_G_rho_at_x_star_rho']}); "
        f"(1/m) sum_i ||grad G_(i,rho)(x*_rho)||^2 = {inst['mean_sq_grad_G_at_x_star_rho']} {'>' if bigger else '<='} "
        f"M = {inst['M']}",
        "exact (sympy, enumerated active patterns)")


#: Lemma 4.5's words (its statement) and (P4.7-a)'s double sum, as printed.
LEMMA45_RANGE_WORDS = "Let v = T_{r+1} - 1, for any r >= 1"
P47A_SUM_WORDS = "sum_{t=1}^{r} sum_{k=T_{t-1}}^{T_t - 1}"


def _first_round_stated(words: str) -> int:
    """The smallest r the quoted statement allows ('for any r >= N')."""
    return int(re.search(r"r\s*>=\s*(\d+)", words).group(1))


def _first_round_used(words: str) -> int:
    """The round of the first block the quoted double sum covers: t starts at t0 and the block starts at T_(t - s),
    i.e. round t0 - s."""
    t0 = int(re.search(r"sum_\{t=(\d+)\}", words).group(1))
    shift = int(re.search(r"T_\{t-(\d+)\}", words).group(1))
    return t0 - shift


LEMMA45_STATED_FROM_ROUND = _first_round_stated(LEMMA45_RANGE_WORDS)
LEMMA45_USED_FROM_ROUND = _first_round_used(P47A_SUM_WORDS)


@producer
def finding_lemma45_range(stated_from=None, used_from=None):
    """Item f: the first round Lemma 4.5 is stated for (its words) against the first round (P4.7-a) applies it to
    (the lower limit of its sum); defaults are the module constants read off the quoted words."""
    from .. import audit as A

    stated = LEMMA45_STATED_FROM_ROUND if stated_from is None else stated_from
    used = LEMMA45_USED_FROM_ROUND if used_from is None else used_from
    if used >= stated:
        return None
    return A.Finding(
        "pcfedavg.f.lemma4.5.range", "wording", ("pcfedavg.lemma4.5", "pcfedavg.prop4.7"), A.DISCREPANCY,
        f"Lemma 4.5 is stated 'for any r >= {stated}' but (P4.7-a) applies it from r = {used}. The proof only uses the "
        "common start x_(i,T_r) of the round, which line 3 of Algorithm 1 also provides at r = 0, so the argument "
        "covers r = 0; the statement's range is narrower than its use (wording: it bears on no verdict).",
        f"Lemma 4.5: '{LEMMA45_RANGE_WORDS}'; (P4.7-a): {P47A_SUM_WORDS} (its first block k = T_0 is round {used})",
        "the stated range of r vs the first round (P4.7-a) sums over, read off the quoted words")


@producer
def finding_l45a_needs_common_iterate():
    """Item f: (L4.5-a) refuted by :func:`l45a_counterexample`; (L4.5-b) re-derived from (4) without it."""
    from .. import audit as A

    cex = l45a_counterexample()
    if cex["lhs"] <= cex["rhs"]:
        return None
    ys = sp.symbols("_y0:3", real=True)
    ybar = sum(ys) / 3
    b_ok = prove_identity(sum(y**2 for y in ys) - 3 * ybar**2, sum((y - ybar)**2 for y in ys)).proven
    return A.Finding(
        "pcfedavg.f.L4.5-a", "statement-vs-proof", ("pcfedavg.lemma4.5",), A.DISCREPANCY,
        "The equality in (L4.5-a) needs sum_i E[grad g_i(x_{i,t})] = m grad G_rho(x_t), true only when all agents "
        "share x_t (t = T_r); for t > T_r it is not implied and its inequality can fail." +
        (" (L4.5-b) still holds: the first line of (4) with centre 0 gives it directly." if b_ok else ""),
        f"G_1 = 0, G_2 = 2x^2, x_1 = 1, x_2 = 0 (xbar = 1/2): y = {cex['y']}, grad G(xbar) = {cex['centre']}; "
        f"sum_i (y_i - grad G(xbar))^2 = {cex['lhs']} > sum_i y_i^2 = {cex['rhs']}; (L4.5-b) identity "
        f"sum_i y_i^2 - m ybar^2 = sum_i (y_i - ybar)^2 proven: {b_ok}", "counterexample (exact) + identity")


#: (L4.5-e) as printed (proof of Lemma 4.5): its left side is at iteration t, its drift term indexed k.
L45E_WORDS = ("(1/m) sum_i E[||grad g_{i,rho}(x_{i,t}, xi_{i,t})||^2] <= 8 L_G E[(G_rho(xbar_t) - G_rho(x*_rho))] "
              "+ 4 L_G^2 E[(1/m) sum_i delta_{i,k}] + 4M + 4 nu^2/m")


@producer
def finding_l45e_index(words=L45E_WORDS):
    """(L4.5-e)'s delta index against the iteration of its left side (both read off the quoted words); where they
    differ, does the step hold with the left side's index (the drift term of (L4.5-d), ||x_(i,t) - xbar_t||^2)?"""
    from .. import audit as A

    it = re.search(r"x_\{i,(\w+)\}", words).group(1)
    idx = re.search(r"delta_\{i,(\w+)\}", words).group(1)
    if it == idx:
        return None
    # with the drift term kept at iteration t, (L4.5-d) -> (L4.5-e) is the noise term: (4/m) m ||A||^2 nu^2 with
    # ||A||^2 = 1/m (Lemma 4.1) and Assumption 3.2
    norm_ok = all(spectral_norm_sq(block_matrices(k, 1, 0)[0]) == sp.Rational(1, k) for k in range(2, 6))
    res = prove_identity(4 / m * m * (nu**2 / m), 4 * nu**2 / m)
    ok = norm_ok and res.proven is True
    return A.Finding(
        "pcfedavg.f.L4.5-e.index", "wording", ("pcfedavg.lemma4.5",), A.CONSISTENT if ok else A.DISCREPANCY,
        f"(L4.5-e) bounds a quantity at iteration {it} with delta_(i,{idx}); (L4.5-d) has ||x_(i,{it}) - xbar_{it}||^2, so "
        f"the index is a typo for delta_(i,{it}) and the step " + ("holds with it." if ok else "does not follow."),
        f"(L4.5-e): {words}; with delta_(i,{it}) the remaining step is the noise term: ||A||^2 = 1/m (m = 2..5): "
        f"{norm_ok}; (4/m) m nu^2/m == 4 nu^2/m: {res.proven}", "quoted indices + exact eigenvalues + identity")
