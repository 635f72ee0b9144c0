"""PC-FedAvg (Ebrahimi, Burbano, Yousefian; arXiv 2603.19617v1): every numbered result as a :class:`Claim`.

Numbers in parentheses are the paper's equation numbers. Renamings: the round-length bound is ``H``, the
penalty function is written cal-H in the docstrings, ``D`` is ||grad f(x*)||^2, ``Q`` is
E||xbar_0 - x*_rho||^2.

Contents
--------
* symbols (module attributes ``m, n, L_f, sigma, sigma_i, rho, gamma, H, R, K, nu, M, Q, D, eps``
  -- the last one is the sympy symbol named ``epsilon``) and the helper expressions ``L_G_EXPR``,
  ``L_G_I_EXPR``, ``L_EXPR`` (L = L_f + sigma m) and ``LF_SUM`` (L_f + sigma (m - 1));
* ``OBSERVED``: name -> description of every observed symbol (left sides of the relations; measured
  by the verification code on runs);
* ``CLAIMS`` / :func:`claim`: Lemmas 4.1-4.6, Propositions 4.7-4.8 (with display (12)), Lemma 6.1,
  Theorem 3.4 (i)-(iii) as order claims and Remark 3.5.

The audit findings (:func:`proof_steps`, :func:`complexity_table`, :func:`audit_findings`,
:func:`settings_findings` and their helpers) are reached through :mod:`bounds.pcfedavg.findings`, which names the
modules of :mod:`bounds.pcfedavg` that compute them.
"""
from __future__ import annotations

import sympy as sp

from ..core import Claim, Mode, Provenance, domain_helpers

# ---------------------------------------------------------------------------- symbols
m = sp.Symbol("m", positive=True, integer=True)          # agents (>= 2 where stated)
n = sp.Symbol("n", positive=True, integer=True)          # dimension of each block
L_f = sp.Symbol("L_f", positive=True)                    # smoothness of every f_i
sigma = sp.Symbol("sigma", positive=True)                # max_i sigma_i
sigma_i = sp.Symbol("sigma_i", positive=True)            # agent i's regularization weight
rho = sp.Symbol("rho", positive=True)                    # penalty parameter
gamma = sp.Symbol("gamma", positive=True)                # step size
H = sp.Symbol("H", positive=True, integer=True)          # round-length bound
R = sp.Symbol("R", positive=True, integer=True)          # communication rounds
K = sp.Symbol("K", positive=True, integer=True)          # horizon K = R H
nu = sp.Symbol("nu", nonnegative=True)                   # gradient-noise bound
M = sp.Symbol("M", nonnegative=True)                     # (1/m) sum_i E||grad F~_i(x*, xi)||^2
Q = sp.Symbol("Q", nonnegative=True)                     # E||xbar_0 - x*_rho||^2
D = sp.Symbol("D", nonnegative=True)                     # ||grad f(x*)||^2
eps = sp.Symbol("epsilon", positive=True)                # target accuracy

LF_SUM = L_f + sigma * (m - 1)
"""L_f + sigma (m - 1), the numerator of L_G (it appears as such in Prop. 4.8)."""
L_G_EXPR = LF_SUM / m + rho
"""L_{G_rho} = (L_f + sigma (m-1))/m + rho (Lemma 4.1, Theorem 3.4); an expression, not a symbol."""
L_G_I_EXPR = L_f / m + sigma_i * (m - 1) / m + rho
"""L_{G_{i,rho}} = L_f ||A||^2 + sigma_i ||B_i - A||^2 + rho ||B_i||^2 with the printed norms."""
L_EXPR = L_f + sigma * m
"""L = L_f + sigma m (Theorem 3.4)."""
L_SYM = sp.Symbol("L", positive=True)
"""Placeholder for L in the complexity bookkeeping only (never a free symbol of a claim)."""

NORM_SQ = {"A": 1 / m, "B_i": sp.Integer(1), "B_i-A": (m - 1) / m}
"""Squared spectral norms printed in Lemma 4.1 (verified on block matrices in the tests)."""

PARAMETER_DOMAINS = {
    m: "integer >= 2 where stated (Thm 3.4, L4.3, L4.6, P4.7)", n: "integer >= 1",
    L_f: "real > 0", sigma: "real > 0 (max_i sigma_i)", sigma_i: "real > 0",
    rho: "real > 0", gamma: "real > 0", H: "integer >= 1", R: "integer >= 1", K: "integer >= 1 (K = R H)",
    nu: "real >= 0", M: "real >= 0", Q: "real >= 0", D: "real >= 0", eps: "real > 0",
}

# ---------------------------------------------------------------------------- observed quantities
OBSERVED = {
    "lip_ratio": "Lemma 4.1: sampled ||grad G_{i,rho}(x) - grad G_{i,rho}(y)|| / ||x - y|| (per agent)",
    "convexity_gap": "Lemma 4.2: (G_{i,rho}(x) + G_{i,rho}(y))/2 - G_{i,rho}((x + y)/2)",
    "sq_avg_grad": "Lemma 4.3: E||(1/m) sum_i grad g_{i,rho}(x_{i,k}, xi_{i,k})||^2",
    "gap": "E[G_rho(xbar_k) - G_rho(x*_rho)] (pathwise, without E, in Lemma 4.4); observed, >= 0",
    "drift": "E[(1/m) sum_i delta_{i,k}], delta_{i,k} = ||x_{i,k} - xbar_k||^2 (pathwise in Lemma 4.4); observed, >= 0",
    "sq_grad_bar": "(L4.3-a) term: E||grad G_rho(xbar_k)||^2",
    "noise_sq_avg": "(L4.3-a) term: E||(1/m) sum_i (grad g_{i,rho}(x_{i,k}, xi) - grad G_{i,rho}(x_{i,k}))||^2",
    "dev_sq_avg": "(L4.3-a) term: E||(1/m) sum_i (grad G_{i,rho}(x_{i,k}) - grad G_{i,rho}(xbar_k))||^2",
    "noise_sq_mean": "(L4.3-b) term: (1/m) sum_i E||grad g_{i,rho}(x_{i,k}, xi) - grad G_{i,rho}(x_{i,k})||^2",
    "dev_sq_mean": "(L4.3-b) term: (1/m) sum_i E||grad G_{i,rho}(x_{i,k}) - grad G_{i,rho}(xbar_k)||^2",
    "inner": "Lemma 4.4: -(2/m) sum_i <xbar_k - x*_rho, grad G_{i,rho}(x_{i,k})> (pathwise)",
    "drift_round": "Lemma 4.5: sum_{k=T_r}^{T_{r+1}-1} E[(1/m) sum_i delta_{i,k}]",
    "round_len": "Lemma 4.5: T_{r+1} - T_r (number of terms of the round's sums; <= H)",
    "gap_round": "Lemma 4.5: sum_{t=T_r}^{T_{r+1}-1} E[G_rho(xbar_t) - G_rho(x*_rho)]",
    "sq_grad_round": "(5): sum_{t=T_r}^{T_{r+1}-1} (1/m) sum_i E||grad g_{i,rho}(x_{i,t}, xi_{i,t})||^2",
    "dist_next": "Lemma 4.6: E||xbar_{k+1} - x*_rho||^2",
    "dist": "Lemma 4.6: E||xbar_k - x*_rho||^2",
    "gap_Kstar": "Prop. 4.7: E[G_rho(xbar_{K*}) - G_rho(x*_rho)] = (1/K) sum_{k<K} E[G_rho(xbar_k) - G_rho(x*_rho)]",
    "drift_mean": "(7): (1/K) sum_{k<K} E[(1/m) sum_i delta_{i,k}]",
    "subopt_Kstar": "Prop. 4.8 (i), (iii): E[f(xbar_{K*}) - f(x*)] (may be negative)",
    "infeas_i": "Prop. 4.8 (ii): E||xbar^{(i)}_{K*} - Pi_{X_i}[xbar^{(i)}_{K*}]||^2 for one agent i",
    "root_sum_infeas": "(12): sqrt(sum_i E[dbar_i^2])",
    "second_moment": "Lemma 6.1: E||Y||^2",
    "variance": "Lemma 6.1: E||Y - E Y||^2",
    "mean_sq": "Lemma 6.1: ||E Y||^2",
}
_OBS = {name: sp.Symbol(name) for name in OBSERVED}
lip_ratio, convexity_gap, sq_avg_grad, gap, drift = (_OBS[k] for k in
                                                     ("lip_ratio", "convexity_gap", "sq_avg_grad", "gap", "drift"))
sq_grad_bar, noise_sq_avg, dev_sq_avg, noise_sq_mean, dev_sq_mean = (
    _OBS[k] for k in ("sq_grad_bar", "noise_sq_avg", "dev_sq_avg", "noise_sq_mean", "dev_sq_mean"))
inner, drift_round, round_len, gap_round, sq_grad_round = (
    _OBS[k] for k in ("inner", "drift_round", "round_len", "gap_round", "sq_grad_round"))
dist_next, dist, gap_Kstar, drift_mean = (_OBS[k] for k in ("dist_next", "dist", "gap_Kstar", "drift_mean"))
subopt_Kstar, infeas_i, root_sum_infeas = (_OBS[k] for k in ("subopt_Kstar", "infeas_i", "root_sum_infeas"))
second_moment, variance, mean_sq = (_OBS[k] for k in ("second_moment", "variance", "mean_sq"))


_domains, _domains_of = domain_helpers(PARAMETER_DOMAINS, OBSERVED)


# ---------------------------------------------------------------------------- printed expressions
_45_2 = sp.Rational(45, 2)
STEP_6 = sp.Le(6 * gamma * L_G_EXPR, 1)
"""gamma <= 1/(6 L_G), multiplied out."""
STEP_5 = sp.Le(5 * gamma * L_G_EXPR * (H - 1), 1)
"""gamma <= 1/(5 L_G (H - 1)), multiplied out so that H = 1 is admissible (the condition is void)."""


def _E(LG=L_G_EXPR, g=gamma, Hm1=H - 1, Kv=K):
    """Right side of Prop. 4.7 (the proof of Prop. 4.8 calls it E)."""
    return 3 * Q / (Kv * g) + _45_2 * LG * g**2 * Hm1**2 * M + nu**2 / m * (_45_2 * LG * g**2 * Hm1**2 + 9 * g)


def _terms_48i(Lp=LF_SUM, Hm1=H - 1, g=gamma, r=rho, Kv=K):
    """The four terms of Prop. 4.8 (i), in printed order."""
    return [_45_2 * r * g**2 * Hm1**2 * (M + nu**2 / m), 9 * g * nu**2 / m, 3 * Q / (Kv * g),
            45 * Lp / (2 * m) * g**2 * Hm1**2 * (M + nu**2 / m)]


def _terms_48ii(Lp=LF_SUM, Hm1=H - 1, g=gamma, r=rho, Kv=K):
    """The five terms of Prop. 4.8 (ii), in printed order (||grad f(x*)||^2 = D)."""
    return [5 * m * D / r**2, 60 * m * Q / (Kv * g * r), 450 * Lp * g**2 * Hm1**2 * (M + nu**2 / m) / r,
            450 * m * g**2 * Hm1**2 * (M + nu**2 / m), 180 * g * nu**2 / r]


def _terms_12(Lp=LF_SUM, Hm1=H - 1, g=gamma, r=rho, Kv=K):
    """The five terms of display (12), in printed order (||grad f(x*)|| = sqrt(D))."""
    return [m * sp.sqrt(D) / r, 6 * sp.sqrt(g * nu**2 / r),
            2 * sp.sqrt(45 * Lp * g**2 * Hm1**2 * (M + nu**2 / m) / (2 * r)),
            2 * sp.sqrt(3 * m * Q / (Kv * g * r)), 2 * sp.sqrt(45 * m * g**2 * Hm1**2 * (M + nu**2 / m) / 2)]


def _terms_48iii(Lp=LF_SUM, Hm1=H - 1, g=gamma, r=rho, Kv=K):
    """The five terms of the bracket of Prop. 4.8 (iii), in printed order."""
    return [m * sp.sqrt(D) / r, 6 * sp.sqrt(g * nu**2 / r), 2 * sp.sqrt(3 * m * Q / (Kv * g * r)),
            2 * sp.sqrt(45 * Lp * g**2 * Hm1**2 * (M + nu**2 / m) / (2 * r)),
            2 * sp.sqrt(45 * m * g**2 * Hm1**2 * (M + nu**2 / m) / 2)]


E_EXPR = _E()
BOUND_47 = 3 * Q / (K * gamma) + _45_2 * L_G_EXPR * gamma**2 * (H - 1)**2 * M \
    + nu**2 / m * (_45_2 * L_G_EXPR * gamma**2 * (H - 1)**2 + 9 * gamma)
"""Prop. 4.7 as printed (``bound_47``)."""
TERMS_48I = tuple(_terms_48i())
BOUND_48I = sp.Add(*TERMS_48I)
TERMS_48II = tuple(_terms_48ii())
BOUND_48II = sp.Add(*TERMS_48II)
TERMS_12 = tuple(_terms_12())
RHS_12 = sp.Add(*TERMS_12)
TERMS_48III = tuple(_terms_48iii())
BRACKET_48III = sp.Add(*TERMS_48III)
LOWER_48III = -sp.sqrt(D) * BRACKET_48III
P48G_RHS = m * sp.sqrt(D) / rho + 2 * sp.sqrt(m * E_EXPR / rho)
"""(P4.8-g) as printed, with E the right side of Prop. 4.7."""

# Theorem 3.4, printed O(.) terms, in printed order, with the placeholder L_SYM for L.
PRINTED_O = {
    "i": (Q**2 / (H**2 * eps**2), L_SYM * H**2 * M / (m * eps), H**4 * M**2 / eps**2,
          L_SYM * H**2 * nu**2 / (m**2 * eps), H**4 * nu**4 / (m**2 * eps**2)),
    "ii": (m * D / eps, m * Q / (H * eps), L_SYM**sp.Rational(2, 3) * H**sp.Rational(4, 3) * M**sp.Rational(2, 3)
           / eps**sp.Rational(2, 3), m * H**2 * M / eps,
           L_SYM**sp.Rational(2, 3) * H**sp.Rational(4, 3) * nu**sp.Rational(4, 3)
           / (m**sp.Rational(2, 3) * eps**sp.Rational(2, 3)), H**2 * nu**2 / eps),
    "iii": (D**2 / eps**2, D * Q / (H * eps**2),
            L_SYM**sp.Rational(2, 3) * D**sp.Rational(2, 3) * H**sp.Rational(4, 3) * M**sp.Rational(2, 3)
            / (m**sp.Rational(2, 3) * eps**sp.Rational(4, 3)), D * H**2 * M / eps**2,
            L_SYM**sp.Rational(2, 3) * D**sp.Rational(2, 3) * H**sp.Rational(4, 3) * nu**sp.Rational(4, 3)
            / (m**sp.Rational(4, 3) * eps**sp.Rational(4, 3)), D * H**2 * nu**2 / (m * eps**2)),
}

# ---------------------------------------------------------------------------- claims: Lemmas 4.1-4.6
lemma41_i = Claim(
    id="pcfedavg.lemma4.1.i", location="Lemma 4.1 (first display), proof in the appendix",
    statement="G_{i,rho} is L_{G_{i,rho}}-smooth with L_{G_{i,rho}} = L_f||A||^2 + sigma_i||B_i - A||^2 + rho||B_i||^2 "
              "= L_f/m + sigma_i (m-1)/m + rho.",
    domains=_domains(lip_ratio, L_f, m, sigma_i, rho),
    conclusion=(sp.Le(lip_ratio, L_G_I_EXPR),), mode=Mode.DETERMINISTIC, provenance=Provenance.PAPER,
    hypotheses=(sp.Gt(rho, 0),),
    steps=(("L_f||A||^2 + sigma_i||B_i - A||^2 + rho||B_i||^2 with the printed norms",
            L_f * NORM_SQ["A"] + sigma_i * NORM_SQ["B_i-A"] + rho * NORM_SQ["B_i"]),),
    notes="Per agent; norms ||A||^2 = 1/m, ||B_i||^2 = 1, ||B_i - A||^2 = (m-1)/m (NORM_SQ). Uses A3.1, A3.3.",
)
lemma41 = Claim(
    id="pcfedavg.lemma4.1", location="Lemma 4.1 (second display)",
    statement="L_{G_rho} = (L_f + sigma (m-1))/m + rho with sigma = max_i sigma_i bounds every L_{G_{i,rho}}.",
    domains=_domains(lip_ratio, L_f, m, sigma, rho),
    conclusion=(sp.Le(lip_ratio, L_G_EXPR),), mode=Mode.DETERMINISTIC, provenance=Provenance.PAPER,
    hypotheses=(sp.Gt(rho, 0),),
    notes="The paper writes L_{G_rho} = L_{G_{i,rho}}; with heterogeneous sigma_i it is the upper bound "
          "obtained with sigma = max_i sigma_i.",
)
lemma42 = Claim(
    id="pcfedavg.lemma4.2", location="Lemma 4.2, proof in the appendix",
    statement="G_{i,rho} is convex on R^{mn} (checked as midpoint convexity).",
    domains=_domains(convexity_gap), conclusion=(sp.Ge(convexity_gap, 0),),
    mode=Mode.DETERMINISTIC, provenance=Provenance.PAPER,
    notes="convexity_gap = (G(x) + G(y))/2 - G((x + y)/2) >= 0 for every pair.",
)
_rhs43 = 6 * L_G_EXPR * gap + 3 * L_G_EXPR**2 * drift + 3 * nu**2 / m
lemma43 = Claim(
    id="pcfedavg.lemma4.3", location="Lemma 4.3",
    statement="E||(1/m) sum_i grad g_{i,rho}||^2 <= 6 L_G E[G(xbar_k) - G(x*_rho)] + 3 L_G^2 E[(1/m) sum_i delta_{i,k}] "
              "+ 3 nu^2/m.",
    domains=_domains_of(sq_avg_grad, _rhs43, sq_grad_bar, noise_sq_avg, dev_sq_avg, noise_sq_mean, dev_sq_mean),
    conclusion=(sp.Le(sq_avg_grad, _rhs43),), mode=Mode.EXPECTATION, hypotheses=(sp.Ge(m, 2),),
    steps=(
        ("(L4.3-a) three-term split", 3 * (sq_grad_bar + noise_sq_avg + dev_sq_avg)),
        ("(L4.3-b) Jensen on the last two terms", 3 * sq_grad_bar + 3 * noise_sq_mean + 3 * dev_sq_mean),
        ("(L4.3-b)/(3): Lemma 4.1, Assumption 3.2 and ||A||^2 = 1/m",
         3 * sq_grad_bar + 3 * nu**2 / m + 3 * L_G_EXPR**2 * drift),
        ("(L4.3-c)/(L4.3-d): co-coercivity with grad G_rho(x*_rho) = 0", _rhs43),
    ),
    notes="gap and drift are observed (>= 0). The hypothesis m >= 2 is not used by the proof.",
)
_rhs44 = -2 * gap + L_G_EXPR * drift
lemma44 = Claim(
    id="pcfedavg.lemma4.4", location="Lemma 4.4",
    statement="-(2/m) sum_i <xbar_k - x*_rho, grad G_{i,rho}(x_{i,k})> <= -2(G(xbar_k) - G(x*_rho)) "
              "+ (L_G/m) sum_i delta_{i,k}, pathwise.",
    domains=_domains_of(inner, _rhs44), conclusion=(sp.Le(inner, _rhs44),), mode=Mode.DETERMINISTIC,
    notes="Deterministic: gap and drift are the realized (not expected) values here.",
)
_rhs45 = 5 * gamma**2 * (H - 1)**2 * round_len * (M + nu**2 / m) + 10 * gamma**2 * (H - 1)**2 * L_G_EXPR * gap_round
lemma45 = Claim(
    id="pcfedavg.lemma4.5", location="Lemma 4.5",
    statement="For each round: sum_k E[(1/m) sum_i delta_{i,k}] <= 5 gamma^2 (H-1)^2 sum_t (M + nu^2/m) "
              "+ 10 gamma^2 (H-1)^2 L_G sum_t E[G(xbar_t) - G(x*_rho)], if gamma <= 1/(5 L_G (H-1)).",
    domains=_domains_of(drift_round, _rhs45, sq_grad_round, H),
    conclusion=(sp.Le(drift_round, _rhs45),), mode=Mode.EXPECTATION,
    hypotheses=(STEP_5, sp.Ge(H, 1), sp.Le(round_len, H)),
    steps=(
        ("(5)", gamma**2 * (H - 1)**2 * sq_grad_round),
        ("(5) with (L4.5-e)", gamma**2 * (H - 1)**2 * (8 * L_G_EXPR * gap_round + 4 * L_G_EXPR**2 * drift_round
                                                      + 4 * round_len * (M + nu**2 / m))),
    ),
    notes="Stated 'for any r >= 1'; Prop. 4.7 applies it to every round including r = 0 (finding f). "
          "sum_t (M + nu^2/m) = round_len (M + nu^2/m). The hypothesis is encoded as 5 gamma L_G (H-1) <= 1 "
          "so that H = 1 is admissible.",
)
_rhs46 = sp.Rational(3, 2) * gamma * L_G_EXPR * drift + dist - gamma * gap + 3 * gamma**2 * nu**2 / m
lemma46 = Claim(
    id="pcfedavg.lemma4.6", location="Lemma 4.6",
    statement="E||xbar_{k+1} - x*_rho||^2 <= (3/2) gamma L_G E[drift] + E||xbar_k - x*_rho||^2 - gamma E[gap] "
              "+ 3 gamma^2 nu^2/m, if gamma <= 1/(6 L_G).",
    domains=_domains_of(dist_next, _rhs46, sq_avg_grad),
    conclusion=(sp.Le(dist_next, _rhs46),), mode=Mode.EXPECTATION, hypotheses=(sp.Ge(m, 2), STEP_6),
    steps=(
        ("(L4.6-c) in total expectation, with Lemma 4.4",
         dist - 2 * gamma * gap + gamma**2 * sq_avg_grad + gamma * L_G_EXPR * drift),
        ("(L4.6-d) with Lemma 4.3",
         dist + gamma * L_G_EXPR * (1 + 3 * gamma * L_G_EXPR) * drift
         - 2 * gamma * (1 - 3 * gamma * L_G_EXPR) * gap + 3 * gamma**2 * nu**2 / m),
        ("(L4.6-e)", _rhs46),
    ),
)

# ---------------------------------------------------------------------------- Props. 4.7, 4.8, (12)
_HYP_PROP = (STEP_6, STEP_5, sp.Ge(H, 1))
prop47 = Claim(
    id="pcfedavg.prop4.7", location="Proposition 4.7",
    statement="E[G_rho(xbar_{K*}) - G_rho(x*_rho)] <= 3Q/(K gamma) + (45/2) L_G gamma^2 (H-1)^2 M "
              "+ (nu^2/m)((45/2) L_G gamma^2 (H-1)^2 + 9 gamma).",
    domains=_domains_of(gap_Kstar, BOUND_47, drift_mean, H),
    conclusion=(sp.Le(gap_Kstar, BOUND_47),), mode=Mode.EXPECTATION,
    hypotheses=(sp.Ge(m, 2),) + _HYP_PROP,
    steps=(
        ("(7) divided by K gamma, -dist_K/(K gamma) dropped",
         Q / (K * gamma) + sp.Rational(3, 2) * L_G_EXPR * drift_mean + 3 * gamma * nu**2 / m),
        ("(P4.7-c) divided by K gamma/3", BOUND_47),
    ),
    notes="Q = E||xbar_0 - x*_rho||^2; K = R H (K is a free symbol here: pass K). The proof assumes "
          "K = T_r for some r (finding pcfedavg.prop4.7.K_eq_Tr).",
)
prop48_i = Claim(
    id="pcfedavg.prop4.8.i", location="Proposition 4.8 (i)",
    statement="E[f(xbar_{K*}) - f(x*)] <= (45/2) rho gamma^2 (H-1)^2 (M + nu^2/m) + 9 gamma nu^2/m + 3Q/(K gamma) "
              "+ 45 (L_f + sigma(m-1))/(2m) gamma^2 (H-1)^2 (M + nu^2/m).",
    domains=_domains_of(subopt_Kstar, BOUND_48I, H),
    conclusion=(sp.Le(subopt_Kstar, BOUND_48I),), mode=Mode.EXPECTATION, hypotheses=(sp.Gt(rho, 0),) + _HYP_PROP,
    steps=(("Prop. 4.7 via (P4.8-a)-(8): E", E_EXPR),),
    notes="m >= 2 is not stated in Prop. 4.8 (it is in Prop. 4.7, which the proof uses).",
)
prop48_ii = Claim(
    id="pcfedavg.prop4.8.ii", location="Proposition 4.8 (ii)",
    statement="For each i: E||xbar^{(i)}_{K*} - Pi_{X_i}[.]||^2 <= 5 m D/rho^2 + 60 m Q/(K gamma rho) "
              "+ 450 (L_f + sigma(m-1)) gamma^2 (H-1)^2 (M + nu^2/m)/rho + 450 m gamma^2 (H-1)^2 (M + nu^2/m) "
              "+ 180 gamma nu^2/rho.",
    domains=_domains_of(infeas_i, BOUND_48II, H),
    conclusion=(sp.Le(infeas_i, BOUND_48II),), mode=Mode.EXPECTATION, hypotheses=(sp.Gt(rho, 0),) + _HYP_PROP,
    steps=(("(12) squared: E dbar_i^2 <= sum_i E dbar_i^2 <= rhs_12^2", RHS_12**2),
           ("(a_1 + ... + a_5)^2 <= 5 sum_k a_k^2", 5 * sp.Add(*[t**2 for t in TERMS_12]))),
    notes="D = ||grad f(x*)||^2, so the first printed term is 5 m D/rho^2; the proof's route gives 5 m^2 D/rho^2 "
          "(finding b). The last step is the proof's route; it is not the printed right side.",
)
eq12 = Claim(
    id="pcfedavg.eq12", location="Display (12), proof of Proposition 4.8 (ii)",
    statement="sqrt(sum_i E[dbar_i^2]) <= m sqrt(D)/rho + 6 sqrt(gamma nu^2/rho) + 2 sqrt(45 (L_f + sigma(m-1)) "
              "gamma^2 (H-1)^2 (M + nu^2/m)/(2 rho)) + 2 sqrt(3 m Q/(K gamma rho)) + 2 sqrt(45 m gamma^2 (H-1)^2 "
              "(M + nu^2/m)/2).",
    domains=_domains_of(root_sum_infeas, RHS_12, P48G_RHS, H),
    conclusion=(sp.Le(root_sum_infeas, RHS_12),), mode=Mode.EXPECTATION, provenance=Provenance.PAPER,
    hypotheses=(sp.Gt(rho, 0),) + _HYP_PROP,
    steps=(("(P4.8-g)", P48G_RHS),),
    notes="||grad f(x*)|| = sqrt(D).",
)
prop48_iii = Claim(
    id="pcfedavg.prop4.8.iii", location="Proposition 4.8 (iii)",
    statement="-||grad f(xbar*)|| (m sqrt(D)/rho + 6 sqrt(gamma nu^2/rho) + 2 sqrt(3mQ/(K gamma rho)) + ...) "
              "<= E[f(xbar_{K*}) - f(x*)].",
    domains=_domains_of(subopt_Kstar, LOWER_48III, H),
    conclusion=(sp.Ge(subopt_Kstar, LOWER_48III),), mode=Mode.EXPECTATION, hypotheses=(sp.Gt(rho, 0),) + _HYP_PROP,
    notes="The statement writes ||grad f(\\bar x^*)|| in front of the bracket, while the proof (P4.8-h) has "
          "||grad f(x^*)||; encoded as sqrt(D) = ||grad f(x*)||. No steps are listed because the chain of a "
          "lower bound runs the other way (subopt >= -sqrt(D) E[dbar] >= -sqrt(D) sqrt(sum E dbar_i^2) >= lower).",
)

# ---------------------------------------------------------------------------- Lemma 6.1
lemma61_a = Claim(
    id="pcfedavg.lemma6.1.a", location="Lemma 6.1 (a), appendix",
    statement="E||Y||^2 = E||Y - E Y||^2 + ||E Y||^2 for Y with a finite second moment.",
    domains=_domains(second_moment, variance, mean_sq),
    conclusion=(sp.Eq(second_moment, variance + mean_sq),), mode=Mode.DETERMINISTIC,
    provenance=Provenance.PAPER_APPENDIX, notes="Exact identity; no proof in the paper cites Lemma 6.1.",
)
lemma61_b = Claim(
    id="pcfedavg.lemma6.1.b", location="Lemma 6.1 (b), appendix",
    statement="E||Y - E Y||^2 <= E||Y||^2.",
    domains=_domains(second_moment, variance), conclusion=(sp.Le(variance, second_moment),),
    mode=Mode.DETERMINISTIC, provenance=Provenance.PAPER_APPENDIX,
)

# ---------------------------------------------------------------------------- Theorem 3.4, Remark 3.5
_THM_PARAMS = {rho: sp.sqrt(R), gamma: 1 / sp.sqrt(R), K: R * H}
_THM_HYP = (sp.Ge(m, 2), sp.Gt(gamma, 0), STEP_6, STEP_5, sp.Ge(H, 1))
_THM_NOTE = ("rho = sqrt(R) as stated; gamma = 1/sqrt(R) and K = R H as in the proof. The O(.) is read as hiding "
             "absolute constants only (D, Q, M, L, H, m, nu explicit). With the proof's gamma the step-size "
             "hypothesis never holds (hypotheses_hold is False everywhere; finding a).")


def _thm(part, location, statement):
    expr = sp.Add(*PRINTED_O[part]).subs(L_SYM, L_EXPR)
    return Claim(id=f"pcfedavg.thm3.4.{part}", location=location, statement=statement,
                 domains=_domains_of(expr, *_THM_HYP, *_THM_PARAMS.values(), rho, gamma, K),
                 conclusion=expr, mode=Mode.ORDER, provenance=Provenance.PAPER,
                 hypotheses=_THM_HYP, parameters=dict(_THM_PARAMS), derived_from="pcfedavg.prop4.8." + part,
                 notes=_THM_NOTE)


thm34_i = _thm("i", "Theorem 3.4 (i)", "Rounds for E[f(xbar_{K*}) - f(x*)] <= eps: R = O(Q^2/(H^2 eps^2) + L H^2 M/(m eps) "
               "+ H^4 M^2/eps^2 + L H^2 nu^2/(m^2 eps) + H^4 nu^4/(m^2 eps^2)).")
thm34_ii = _thm("ii", "Theorem 3.4 (ii)", "Rounds for max_i E dbar_i^2 <= eps: R = O(mD/eps + mQ/(H eps) "
                "+ L^{2/3} H^{4/3} M^{2/3}/eps^{2/3} + m H^2 M/eps + L^{2/3} H^{4/3} nu^{4/3}/(m^{2/3} eps^{2/3}) "
                "+ H^2 nu^2/eps).")
thm34_iii = _thm("iii", "Theorem 3.4 (iii)", "Rounds for E[f(xbar_{K*}) - f(x*)] >= -eps: R = O(D^2/eps^2 + DQ/(H eps^2) "
                 "+ L^{2/3} D^{2/3} H^{4/3} M^{2/3}/(m^{2/3} eps^{4/3}) + D H^2 M/eps^2 "
                 "+ L^{2/3} D^{2/3} H^{4/3} nu^{4/3}/(m^{4/3} eps^{4/3}) + D H^2 nu^2/(m eps^2)).")
remark35_subopt = Claim(
    id="pcfedavg.remark3.5.subopt", location="Remark 3.5", statement="O(eps^-2) communication rounds for suboptimality.",
    domains=_domains(eps), conclusion=eps**-2, mode=Mode.ORDER, provenance=Provenance.PAPER,
    derived_from="pcfedavg.thm3.4.i, pcfedavg.thm3.4.iii")
remark35_feas = Claim(
    id="pcfedavg.remark3.5.feas", location="Remark 3.5", statement="O(eps^-1) communication rounds for agent-wise "
    "infeasibility.", domains=_domains(eps), conclusion=1 / eps, mode=Mode.ORDER, provenance=Provenance.PAPER,
    derived_from="pcfedavg.thm3.4.ii")

LEMMAS = (lemma41_i, lemma41, lemma42, lemma43, lemma44, lemma45, lemma46)
PROPOSITIONS = (prop47, prop48_i, prop48_ii, eq12, prop48_iii)
THEOREMS = (thm34_i, thm34_ii, thm34_iii)
CLAIMS = LEMMAS + PROPOSITIONS + (lemma61_a, lemma61_b) + THEOREMS + (remark35_subopt, remark35_feas)


def claim(id_: str) -> Claim:
    """Look a claim up by id; unknown ids raise ``KeyError`` listing the known ones."""
    for c in CLAIMS:
        if c.id == id_:
            return c
    raise KeyError(f"unknown claim {id_!r}; known: {', '.join(c.id for c in CLAIMS)}")
