"""FedCLUP (Yu, He, Sun, Xue, Li; ICML 2025, arXiv 2410.08934): every result as a :class:`Claim`.

Source: the paper's text, in a copy from which *all mathematics was stripped*, with the ICML 2025 paper
summary; numbers in parentheses are the paper's equation numbers. The paper's exact theorem constants could not
be recovered from that copy (the audit lists what is missing). Claims therefore come in two layers:

* ``paper`` (Mode.ORDER): the statements at the level of O(.) that the paper text and the paper
  summary (the ICML 2025 "Paper Note") give -- Theorem 1 (8), Corollary 1, the minimax lower
  bound quoted from Chen et al. (2023c, Theorem 8), Corollary 2's complexities;
* ``derived``: explicit-constant versions derived for this project with proofs, with ``derived_from``
  naming what they rest on. **They are not the paper's statements**; they have
  the shape the paper describes and can be tested as inequalities.

Conventions: p_i = 1/m and n_i = n for all clients, N = m n. The
paper's personalization parameter lambda is the sympy symbol ``lam`` (the authors' code calls it
``mu``). ``eps`` is the sympy symbol named ``epsilon``.

Contents
--------
* symbols ``m, n, mu, L, lam, rho, R, gamma, eta, K, T, eps, sigma, B, a, q1, q2, C0, c`` and the
  helper expressions ``N_EXPR, KAPPA, MU_F, L_F, KAPPA_F, THETA, Q_INNER`` (Lemma 1 constants);
* ``PARAMETER_DOMAINS``, ``OBSERVED`` (name -> description of every observed symbol);
* ``CLAIMS`` / :func:`claim`.

The audit findings (the symbolic results :func:`lemma1_checks`, :func:`closed_form_limits`,
:func:`regime_table`, :func:`communication_in_lambda`, :func:`derived_checks`, and
:func:`audit_findings`, :func:`settings_findings`) live in :mod:`bounds.fedclup.findings`.

Nothing expensive runs at import time: the module only builds expressions.
"""
from __future__ import annotations

import sympy as sp

from ..core import Claim, Mode, Provenance, domain_helpers

# ---------------------------------------------------------------------------- symbols
m = sp.Symbol("m", positive=True, integer=True)          # clients
n = sp.Symbol("n", positive=True, integer=True)          # samples per client (n_i = n)
mu = sp.Symbol("mu", positive=True)                      # strong convexity of every L_i (Assumption 2)
L = sp.Symbol("L", positive=True)                        # smoothness (Assumption 1); hypothesis L >= mu
lam = sp.Symbol("lam", positive=True)                    # personalization lambda of problem (2)
rho = sp.Symbol("rho", nonnegative=True)                 # Assumption 3 noise level
R = sp.Symbol("R", nonnegative=True)                     # heterogeneity radius of P(R), (5)
gamma = sp.Symbol("gamma", positive=True)                # global (server) step size
eta = sp.Symbol("eta", positive=True)                    # local step size
K = sp.Symbol("K", positive=True, integer=True)          # local steps per round
T = sp.Symbol("T", positive=True, integer=True)          # communication rounds
eps = sp.Symbol("epsilon", positive=True)                # target accuracy
sigma = sp.Symbol("sigma", nonnegative=True)             # mini-batch gradient std (Assumption 4)
B = sp.Symbol("B", positive=True, integer=True)          # batch size
a = sp.Symbol("a", positive=True)                        # Young parameter of Lemma 6
q1 = sp.Symbol("q1", positive=True)                      # stand-in for q_1(lambda) of (8), not recovered
q2 = sp.Symbol("q2", positive=True)                      # stand-in for q_2(lambda) of (8), not recovered
C0 = sp.Symbol("C0", nonnegative=True)                   # initial-error constant of Corollary 3 (schematic)
c = sp.Symbol("c", positive=True)                        # rate constant of Corollary 3 (schematic)

N_EXPR = m * n
"""N = m n, the total sample size (an expression, not a symbol)."""
KAPPA = L / mu
"""kappa = L/mu."""
MU_F = lam * mu / (lam + mu)
"""mu_F: strong convexity of the Moreau envelope F_i (Lemma 1, derived here)."""
L_F = lam * L / (lam + L)
"""L_F: smoothness of F_i (Lemma 1, derived here)."""
KAPPA_F = KAPPA * (lam + mu) / (lam + L)
"""kappa_F = L_F/mu_F = kappa (lam + mu)/(lam + L) (identity proven in :func:`lemma1_checks`)."""
THETA = lam / (lam + mu)
"""theta: Lipschitz constant of the prox map w_*^(i)(.) (Lemma 1 (3))."""
Q_INNER = 1 - eta * (mu + lam)
"""q = 1 - eta (mu + lam): inner-loop contraction factor (Lemmas 5, 7)."""

PARAMETER_DOMAINS = {
    m: "integer >= 1 (clients)", n: "integer >= 1 (samples per client)", mu: "real > 0",
    L: "real > 0, L >= mu", lam: "real > 0 (lambda)", rho: "real >= 0", R: "real >= 0",
    gamma: "real > 0", eta: "real > 0", K: "integer >= 1", T: "integer >= 1", eps: "real > 0",
    sigma: "real >= 0", B: "integer >= 1", a: "real > 0",
    q1: "real > 0 (stand-in for q_1(lambda), increasing in lambda; not recovered)",
    q2: "real > 0 (stand-in for q_2(lambda), increasing in lambda; not recovered)",
    C0: "real >= 0", c: "real in (0, 1]",
}

# ---------------------------------------------------------------------------- observed quantities
OBSERVED = {
    "err_local": "E||w~_i - w*_i||^2 (per client, or the max over clients; Monte-Carlo mean over data draws)",
    "Gamma_g": "E||w~_g - w*_g||^2 (Monte-Carlo mean over data draws)",
    "gt_err": "||w_GT - w*_g|| on one data draw (pathwise; w_GT solves GlobalTrain (4))",
    "gt_err_sq": "E||w_GT - w*_g||^2 (Monte-Carlo mean)",
    "grad_avg_norm": "||sum_i p_i grad L_i(w*_i)|| on one data draw (pathwise input of Lemma 4)",
    "local_gap": "||w~_i - w~_g|| (Lemma 3 left side, one client)",
    "grad_at_global": "||grad L_i(w~_g)|| (Lemma 3 right-side input, same client)",
    "delta_local_sq": "||w~_i - w*_i||^2 on one data draw (one client)",
    "grad_star_i": "||grad L_i(w*_i)|| on one data draw (same client)",
    "global_gap_sq": "||w~_g - w*_g||^2 on one data draw",
    "het_i": "||w*_i - w*_g|| (<= R; same client)",
    "avg_local_sq": "A = sum_i p_i ||w~_i - w*_i||^2 on one data draw",
    "grad_star_sq_avg": "G^2 = sum_i p_i ||grad L_i(w*_i)||^2 on one data draw",
    "eq33_lhs": "mu A + lam sum_i p_i ||w~_i - w~_g||^2 (left side of (33))",
    "eq33_inner_grad": "-sum_i p_i <grad L_i(w*_i), w~_i - w*_i> (first right-side term of (33))",
    "eq33_inner_het": "sum_i p_i <w~_i - w~_g, w*_i - w*_g> (second right-side term of (33), without lam)",
    "muF_obs": "observed smallest curvature of F_i (Lemma 1; on quadratics min eigenvalue of lam A (A + lam I)^-1)",
    "LF_obs": "observed largest curvature of F_i (Lemma 1)",
    "prox_lip": "observed Lipschitz ratio of the prox map w_*^(i)(.) (Lemma 1 (3))",
    "grad_F_residual": "||grad F_i(w) - lam (w - prox_{L_i/lam}(w))|| (Lemma 2; finite differences or exact)",
    "server_residual": "||w_{t+1} - (w_t - gamma lam sum_i p_i (w_t - w^i_{t,K}))|| (update (12)/(103))",
    "inner_residual": "||w^i_{t,k+1} - (w^i_{t,k} - eta (grad L_i(w^i_{t,k}) + lam (w^i_{t,k} - w_t)))|| (update (13))",
    "inner_err_K": "||w^i_{t,K} - w^i_*(w_t)||^2 (Lemmas 5, 7; Monte-Carlo mean over batches for Lemma 7)",
    "inner_err_0": "||w^i_{t,0} - w^i_*(w_t)||^2 (Lemmas 5, 7)",
    "e_next": "e_{t+1} = ||w_{t+1} - w~_g||^2 (Lemma 6)",
    "e_t": "e_t = ||w_t - w~_g||^2",
    "d_t": "d_t = sum_i p_i ||w^i_{t,K} - w^i_*(w_t)||^2",
    "grad_err_sq": "||hat grad F(w_t) - grad F(w_t)||^2 (Lemma 6; hat grad F of (103))",
    "Phi_next": "Phi_{t+1} (Lyapunov function of Theorem 2)",
    "Phi_t": "Phi_t = e_t + 12 gamma lam^2/mu_F d_t",
    "local_opt_err": "||w^i_{t,K} - w~_i|| (Theorem 2, local models)",
    "e_T": "e_T = ||w_T - w~_g||^2 after T rounds (Corollary 2)",
    "Phi_0": "Phi_0 = e_0 + 12 gamma lam^2/mu_F d_0 at the start (Corollary 2 input, measured)",
}
_OBS = {name: sp.Symbol(name) for name in OBSERVED}
(err_local, Gamma_g, gt_err, gt_err_sq, grad_avg_norm, local_gap, grad_at_global, delta_local_sq,
 grad_star_i, global_gap_sq, het_i, avg_local_sq, grad_star_sq_avg, eq33_lhs, eq33_inner_grad,
 eq33_inner_het, muF_obs, LF_obs, prox_lip, grad_F_residual, server_residual, inner_residual,
 inner_err_K, inner_err_0, e_next, e_t, d_t, grad_err_sq, Phi_next, Phi_t, local_opt_err, e_T,
 Phi_0) = (_OBS[k] for k in OBSERVED)


_domains, _domains_of = domain_helpers(PARAMETER_DOMAINS, OBSERVED)


_HYP_L = sp.Ge(L, mu)
_ASSUME = ("Assumptions 1-3 (L-smooth, mu-strongly convex empirical losses, gradient variance rho^2 at the "
           "ground truth) with p_i = 1/m and n_i = n")

# ---------------------------------------------------------------------------- derived right sides
RHS_8A_GLOBAL = rho**2 / (mu**2 * n) + lam * R**2 / (2 * mu)
"""(8a) global side: Gamma_g <= rho^2/(mu^2 n) + lam R^2/(2 mu)."""
RHS_8A_LOCAL = 3 * rho**2 / (n * (mu + lam)**2) + 3 * (lam / (mu + lam))**2 * (R**2 + RHS_8A_GLOBAL)
"""(8a) local side, valid for every lam > 0."""
COND_8B = sp.Ge((mu + lam)**2, 12 * KAPPA**2 * L**2)
"""Hypothesis of (8b): (mu + lam)^2 >= 12 kappa^2 L^2."""
RHS_8B_GLOBAL = (8 * rho**2 / (mu**2 * m * n) + 8 * KAPPA**2 * R**2
                 + 12 * KAPPA**2 * (rho**2 / n + L**2 * R**2) / (mu + lam)**2)
RHS_8B_LOCAL = (30 * rho**2 / (mu**2 * m * n) + (30 * KAPPA**2 + 8) * R**2
                + (9 + 45 * KAPPA**2) * rho**2 / (n * (mu + lam)**2))
RHS_THM1_EXPLICIT = sp.Min(RHS_8A_LOCAL, sp.Piecewise((RHS_8B_LOCAL, COND_8B), (sp.oo, True)))
"""min{(8a), (8b) if its hypothesis holds else +oo}."""
LAM_COR1 = sp.Piecewise((rho**2 / (mu * n * R**2), R**2 >= rho**2 / (mu**2 * n)),
                        (sp.Max(sp.sqrt(12) * KAPPA * L, KAPPA * rho / (sp.sqrt(n) * R)), True))
"""Derived Corollary 1 choice of lam; R = 0 gives lam = +oo (GlobalTrain)."""
RHS_COR1 = 30 * rho**2 / (mu**2 * m * n) + (30 * KAPPA**2 + 62) * sp.Min(R**2, rho**2 / (mu**2 * n))
RHS_LEMMA4 = 2 * rho**2 / (mu**2 * m * n) + 2 * KAPPA**2 * R**2

# ---------------------------------------------------------------------------- optimization
TH14D_1 = MU_F**2 / (192 * THETA**2 * lam**2 * gamma**2 * L_F**2)
TH14D_2 = 1 / (4 + 8 * THETA**2 * gamma**2 * lam**2)
COND_14D = sp.Le(Q_INNER**K, sp.Min(TH14D_1, TH14D_2))
"""(14-D), derived here: q^K <= min{mu_F^2/(192 theta^2 lam^2 gamma^2 L_F^2), 1/(4 + 8 theta^2 gamma^2 lam^2)}."""
PHI_WEIGHT = 12 * gamma * lam**2 / MU_F
"""c = 12 gamma lam^2/mu_F, the weight of d_t in Phi_t."""
MAX_COR2 = sp.Max(192 * lam**2 / mu**2, 4 + 8 * THETA**2 * lam**2 / L_F**2)
GAMMA_COR2 = 1 / L_F
ETA_COR2 = 1 / (L + lam)
K_COR2_REAL = (L + lam) / (mu + lam) * sp.log(MAX_COR2)
T_COR2_REAL = 4 * KAPPA_F * sp.log(Phi_0 / eps)
K_COR2 = sp.ceiling(K_COR2_REAL)
T_COR2 = sp.ceiling(T_COR2_REAL)
BALL_THM3 = eta * sigma**2 * (lam + mu) / (mu**2 * m * B)
"""Heuristic neighbourhood of Theorem 3; not a proved bound."""
THM1_ORDER = sp.Min(1 / N_EXPR + R**2 + 1 / q1, 1 / n + q2)
MINIMAX_ORDER = 1 / N_EXPR + sp.Min(R**2, 1 / n)

# ============================================================================ claims: statistical accuracy
thm1 = Claim(
    id="fedclup.thm1", location="Theorem 1, (8) (Section 4.1; proof Appendix A.3)",
    statement="E||w~_i - w*_i||^2 <= min{O(1/N + R^2 + 1/q_1(lam)), O(1/n + q_2(lam))}.",
    domains=_domains_of(THM1_ORDER), conclusion=THM1_ORDER, mode=Mode.ORDER, provenance=Provenance.PAPER,
    notes="Formula (8): paper summary; wording (two terms; first decreasing in lam, tends to 1/N + R^2 as "
          "lam -> oo; second increasing in lam, tends to the LocalTrain rate 1/n, independent of R): paper text. "
          "q1 = q_1(lam) is increasing in lam (so 1/q_1 decreases to 0) and q2 = q_2(lam) is increasing in lam; "
          "their forms and all constants (dependence on rho, mu, L) are not recovered. "
          "In expectation over the joint data distribution. " + _ASSUME + ".",
)
cor1 = Claim(
    id="fedclup.cor1", location="Corollary 1 (Section 4.1; proof Appendix A.4, (75)-(93))",
    statement="With a suitable lam (depending on R vs 1/sqrt(n)), E||w~_i - w*_i||^2 <= C_3/N + C_4 (R^2 ^ 1/n), "
              "i.e. O(1/N + min(R^2, 1/n)), the minimax rate.",
    domains=_domains_of(MINIMAX_ORDER), conclusion=MINIMAX_ORDER, mode=Mode.ORDER, provenance=Provenance.PAPER,
    derived_from="fedclup.thm1",
    notes="Formula: paper summary (C_3/N + C_4 (R^2 ^ 1/n)); 'achieves the minimax lower bound': paper text. The "
          "paper's lam formula, C_3, C_4 and conditions (75)-(93) are not recovered; see "
          "fedclup.cor1.explicit for the derived version. " + _ASSUME + ".",
)
minimax_lower = Claim(
    id="fedclup.minimax_lower", location="Minimax lower bound quoted in Section 4.1 (Chen et al. 2023c, Theorem 8)",
    statement="LOWER bound: inf over estimators sup over P(R) of E||w^_i - w*_i||^2 = Omega(1/N + min(R^2, 1/n)).",
    domains=_domains_of(MINIMAX_ORDER), conclusion=MINIMAX_ORDER, mode=Mode.ORDER, provenance=Provenance.PAPER,
    notes="This is an Omega(.) (lower bound), not an O(.): the conclusion is the expression inside Omega. Quoted "
          "from Chen, Zheng, Long, Su (JMLR 2023), Theorem 8 (paper text); formula from the paper summary. The "
          "constants (in d, rho, mu, L) are not recovered.",
)
_COR2_NOTE = ("Formula: paper summary (constants not recovered); the paper text says 'as lam increases from 0 "
              "to oo the communication complexity increases from [..] to [..]' and 'the total computation cost "
              "is independent of lam'. The exact gamma, eta, K of Corollary 2 and (132)-(134) are not recovered. Under Assumptions 1-2, "
              "Algorithm 1 (full-batch inner GD), p_i = 1/m.")
cor2_comm = Claim(
    id="fedclup.cor2.communication", location="Corollary 2 (Section 4.2; proof Appendix B.4)",
    statement="Communication rounds to an eps-solution: O(kappa (lam + mu)/(lam + L) log(1/eps)) = O(kappa_F log(1/eps)), "
              "from O(log 1/eps) at lam -> 0 to O(kappa log 1/eps) at lam -> oo.",
    domains=_domains_of(KAPPA_F * sp.log(1 / eps)), conclusion=KAPPA_F * sp.log(1 / eps), mode=Mode.ORDER,
    provenance=Provenance.PAPER, hypotheses=(_HYP_L,), derived_from="fedclup.thm2", notes=_COR2_NOTE,
)
cor2_comp = Claim(
    id="fedclup.cor2.computation", location="Corollary 2 (Section 4.2; proof Appendix B.4)",
    statement="Total local gradient steps to an eps-solution: O~(kappa log(1/eps)), independent of lam.",
    domains=_domains_of(KAPPA * sp.log(1 / eps)), conclusion=KAPPA * sp.log(1 / eps), mode=Mode.ORDER,
    provenance=Provenance.PAPER, hypotheses=(_HYP_L,), derived_from="fedclup.thm2",
    notes="O-tilde (log factors hidden). " + _COR2_NOTE + " The derived instance (fedclup.cor2.explicit) gives "
          "T K = 4 kappa log(Phi_0/eps) log(max{192 lam^2/mu^2, 4 + 8 theta^2 lam^2/L_F^2}), independent of lam "
          "up to that log factor (communication_in_lambda()).",
)
_COR3_EXPR = (1 - c / KAPPA_F)**T * C0 + THM1_ORDER
cor3 = Claim(
    id="fedclup.cor3", location="Corollary 3, (15) (Section 5; proof Appendix C)",
    statement="Total error E||w^i_T - w*_i||^2 <~ (1 - c/kappa_F)^T C_0 (optimization, increasing in lam) "
              "+ min{1/N + R^2 + 1/q_1(lam), 1/n + q_2(lam)} (statistical, Theorem 1).",
    domains=_domains_of(_COR3_EXPR), conclusion=_COR3_EXPR, mode=Mode.ORDER, provenance=Provenance.DERIVED,
    hypotheses=(_HYP_L, sp.Le(c, 1)), derived_from="this project's derivation (schematic form from Corollary 2 and Theorem 1)",
    notes="Schematic form derived here; (15) itself is not recovered. The paper text says the optimization "
          "error is monotonically increasing in lam and 1/q_1 decreasing, so a larger lam trades slower "
          "convergence for better accuracy when R <~ 1/sqrt(n). c <= 1 keeps 1 - c/kappa_F in [0, 1) "
          "(kappa_F >= 1); the derived Corollary 2 instance has c = 1/4.",
)
thm3 = Claim(
    id="fedclup.thm3", location="Theorem 3 (Appendix B.5, (143)-(156)); main text Section 4.2",
    statement="Algorithm 2 (FedCLUP, mini-batch inner steps) converges linearly to a ball around w~_g of size "
              "~ eta sigma^2 (lam + mu)/(mu^2 m B) (heuristic).",
    domains=_domains_of(BALL_THM3, L), conclusion=BALL_THM3, mode=Mode.ORDER, provenance=Provenance.DERIVED,
    hypotheses=(_HYP_L, sp.Le(eta * (L + lam), 1)), derived_from="this project's derivation (heuristic from Lemma 7 and Lemma 1)",
    notes="heuristic, not a proved bound: averaging m independent inner-loop noises in the server step. "
          "The paper's step sizes, (143), the rate and the ball size are not recovered; the paper text says the "
          "noise error scales inversely with the number of clients. Assumptions 1, 2, 4; fresh batch at every "
          "inner step.",
)

lemma3 = Claim(
    id="fedclup.lemma3", location="Lemma 3, (20) (Appendix A.2); formula derived in this project",
    statement="||w~_i - w~_g|| <= ||grad L_i(w~_g)||/(mu + lam), for every client and data draw.",
    domains=_domains_of(local_gap, grad_at_global, mu, lam),
    conclusion=(sp.Le(local_gap, grad_at_global / (mu + lam)),), mode=Mode.DETERMINISTIC,
    provenance=Provenance.DERIVED, derived_from="this project's derivation (paper text: wording and proof idea)",
    notes="Deterministic (per data draw). Uses only mu-strong convexity of L_i (Assumption 2): "
          "h = L_i + lam/2 ||. - w~_g||^2 is (mu + lam)-strongly convex and minimised at w~_i.",
)
lemma4_path = Claim(
    id="fedclup.lemma4.pathwise", location="Lemma 4, (22), first inequality (Appendix A.2); derived in this project",
    statement="||w_GT - w*_g|| <= (||sum_i p_i grad L_i(w*_i)|| + L R)/mu on every data draw.",
    domains=_domains_of(gt_err, grad_avg_norm, L, R, mu),
    conclusion=(sp.Le(gt_err, (grad_avg_norm + L * R) / mu),), mode=Mode.DETERMINISTIC,
    provenance=Provenance.DERIVED, hypotheses=(_HYP_L,), derived_from="this project's derivation",
    notes="Paper text: 'the solution [of GlobalTrain] will be close to the ground truth of the global model with a "
          "certain error, which is independent of lam'. Formula derived here; requires ||w*_i - w*_g|| <= R for "
          "all i (parameter space (5)) and L-smoothness of each L_i. p_i = 1/m.",
)
lemma4 = Claim(
    id="fedclup.lemma4", location="Lemma 4, (22) (Appendix A.2); derived in this project",
    statement="E||w_GT - w*_g||^2 <= 2 rho^2/(mu^2 m n) + 2 kappa^2 R^2.",
    domains=_domains_of(gt_err_sq, RHS_LEMMA4), conclusion=(sp.Le(gt_err_sq, RHS_LEMMA4),),
    mode=Mode.EXPECTATION, provenance=Provenance.DERIVED, hypotheses=(_HYP_L,), derived_from="this project's derivation; (31)",
    notes="From the pathwise inequality with (a + b)^2 <= 2a^2 + 2b^2 and E||sum_i p_i grad L_i(w*_i)||^2 <= "
          "rho^2/(m n) (role of the paper's (31)). Constants of the paper not recovered. " + _ASSUME + ".",
)
_EQ33_RHS = eq33_inner_grad + lam * eq33_inner_het
eq33 = Claim(
    id="fedclup.eq33", location="(33), proof of Theorem 1, global Case 1 (Appendix A.3.1); derived in this project",
    statement="mu sum_i p_i||w~_i - w*_i||^2 + lam sum_i p_i||w~_i - w~_g||^2 <= -sum_i p_i <grad L_i(w*_i), "
              "w~_i - w*_i> + lam sum_i p_i <w~_i - w~_g, w*_i - w*_g>.",
    domains=_domains_of(eq33_lhs, _EQ33_RHS), conclusion=(sp.Le(eq33_lhs, _EQ33_RHS),),
    mode=Mode.DETERMINISTIC, provenance=Provenance.DERIVED, derived_from="this project's derivation, (33)",
    notes="Paper text: '(33) error bounded by gradient norm + heterogeneity term controlled by lam'. Derived form: "
          "average of per-client strong convexity with the first-order conditions (23)-(24) and sum_i p_i "
          "(w~_i - w~_g) = 0. Deterministic per data draw; p_i = 1/m.",
)
_8A_PATH_1 = (3 * grad_star_i**2 / (mu + lam)**2
              + 3 * (lam / (mu + lam))**2 * (het_i**2 + global_gap_sq))
_8A_PATH_2 = grad_star_sq_avg / mu**2 + lam * R**2 / (2 * mu)
thm1_8a_path = Claim(
    id="fedclup.thm1.8a.pathwise", location="Theorem 1, local side (8a), inequalities before expectation; "
                                             "derived in this project",
    statement="||w~_i - w*_i||^2 <= 3||grad L_i(w*_i)||^2/(mu+lam)^2 + 3 (lam/(mu+lam))^2 (||w*_i - w*_g||^2 + "
              "||w~_g - w*_g||^2) and A <= G^2/mu^2 + lam R^2/(2 mu), on every data draw.",
    domains=_domains_of(delta_local_sq, _8A_PATH_1, avg_local_sq, _8A_PATH_2),
    conclusion=(sp.Le(delta_local_sq, _8A_PATH_1), sp.Le(avg_local_sq, _8A_PATH_2)),
    mode=Mode.DETERMINISTIC, provenance=Provenance.DERIVED, derived_from="this project's derivation ((8a) proof steps 1-3)",
    notes="Step 1-2 (per client) and step 3 (from (33), Young and Cauchy-Schwarz, solving mu A <= lam R^2/4 + "
          "G sqrt(A)). Requires ||w*_i - w*_g|| <= R for all i. Not the paper's statement (constants not "
          "recovered).",
)
thm1_8a = Claim(
    id="fedclup.thm1.8a", location="Theorem 1, (8) second term ('local side'); explicit form derived in this project",
    statement="Gamma_g <= rho^2/(mu^2 n) + lam R^2/(2 mu) and E||w~_i - w*_i||^2 <= 3 rho^2/(n (mu+lam)^2) + "
              "3 (lam/(mu+lam))^2 (R^2 + rho^2/(mu^2 n) + lam R^2/(2 mu)), for every lam > 0.",
    domains=_domains_of(Gamma_g, err_local, RHS_8A_GLOBAL, RHS_8A_LOCAL),
    conclusion=(sp.Le(Gamma_g, RHS_8A_GLOBAL), sp.Le(err_local, RHS_8A_LOCAL)),
    mode=Mode.EXPECTATION, provenance=Provenance.DERIVED, derived_from="this project's derivation ((8a)); fedclup.thm1.8a.pathwise",
    notes="Plays the role of 1/n + q_2(lam) in (8): 3 rho^2/(n(mu+lam)^2) <= 3 rho^2/(mu^2 n) = O(1/n), and the "
          "lam-dependent part 3 theta^2 (...) is increasing in lam. " + _ASSUME + ". Not the paper's constants.",
)
thm1_8b = Claim(
    id="fedclup.thm1.8b", location="Theorem 1, (8) first term ('global side', Case 2 (36)-(52), (65)); "
                                    "explicit form derived in this project",
    statement="If (mu+lam)^2 >= 12 kappa^2 L^2: Gamma_g <= 8 rho^2/(mu^2 m n) + 8 kappa^2 R^2 + 12 kappa^2 "
              "(rho^2/n + L^2 R^2)/(mu+lam)^2 and E||w~_i - w*_i||^2 <= 30 rho^2/(mu^2 m n) + (30 kappa^2 + 8) R^2 "
              "+ (9 + 45 kappa^2) rho^2/(n (mu+lam)^2).",
    domains=_domains_of(Gamma_g, err_local, RHS_8B_GLOBAL, RHS_8B_LOCAL),
    conclusion=(sp.Le(Gamma_g, RHS_8B_GLOBAL), sp.Le(err_local, RHS_8B_LOCAL)),
    mode=Mode.EXPECTATION, provenance=Provenance.DERIVED, hypotheses=(_HYP_L, COND_8B),
    derived_from="this project's derivation ((8b)); fedclup.lemma3, fedclup.lemma4",
    notes="GlobalTrain as a bridge (Remark 2). The lam-dependent part ~ kappa^2 rho^2/(n (mu+lam)^2) plays the "
          "role of 1/q_1(lam). " + _ASSUME + ". Not the paper's constants.",
)
thm1_explicit = Claim(
    id="fedclup.thm1.explicit", location="Theorem 1, (8); explicit form derived in this project",
    statement="E||w~_i - w*_i||^2 <= min{(8a), (8b) where (mu+lam)^2 >= 12 kappa^2 L^2}.",
    domains=_domains_of(err_local, RHS_THM1_EXPLICIT), conclusion=(sp.Le(err_local, RHS_THM1_EXPLICIT),),
    mode=Mode.EXPECTATION, provenance=Provenance.DERIVED, hypotheses=(_HYP_L,),
    derived_from="this project's derivation (Theorem 1, explicit form); fedclup.thm1.8a, fedclup.thm1.8b",
    notes="The (8b) branch is +oo where its hypothesis fails. " + _ASSUME + ". Not the paper's constants.",
)
cor1_explicit = Claim(
    id="fedclup.cor1.explicit", location="Corollary 1; explicit form derived in this project",
    statement="With lam = rho^2/(mu n R^2) if R^2 >= rho^2/(mu^2 n), else lam = max{sqrt(12) kappa L, kappa rho/"
              "(sqrt(n) R)}: E||w~_i - w*_i||^2 <= 30 rho^2/(mu^2 N) + (30 kappa^2 + 62) min{R^2, rho^2/(mu^2 n)}.",
    domains=_domains_of(err_local, RHS_COR1, LAM_COR1, lam),
    conclusion=(sp.Le(err_local, RHS_COR1),), mode=Mode.EXPECTATION, provenance=Provenance.DERIVED,
    hypotheses=(_HYP_L, sp.Gt(R, 0), sp.Gt(rho, 0)), parameters={lam: LAM_COR1},
    derived_from="this project's derivation (Corollary 1, explicit form); fedclup.thm1.8a (case 1), fedclup.thm1.8b (case 2)",
    notes="Evaluate at R > 0 and rho > 0 only: at R = 0 the rule gives lam = +oo (GlobalTrain, the limit of "
          "problem (2)), at rho = 0 (noise-free) lam = 0 (LocalTrain); both are outside lam > 0. The case "
          "threshold R^2 = rho^2/(mu^2 n) is the analogue of the code's R = 1/sqrt(n). Case 1 is "
          "loose: (8a) gives at most 3 rho^2/(mu^2 n) there (a looser constant, 10.5, is easy to reach instead; derived_checks()). "
          + _ASSUME + ". Not the paper's lam formula, C_3, C_4 (not recovered).",
)

# ============================================================================ claims: optimization
lemma1 = Claim(
    id="fedclup.lemma1", location="Lemma 1 (Section 4.2; proof Appendix B.2.1, (94)-(99)); formulas derived in this project",
    statement="F_i is mu_F-strongly convex and L_F-smooth with mu_F = lam mu/(lam + mu), L_F = lam L/(lam + L), and "
              "the prox map w_*^(i)(.) is theta-Lipschitz with theta = lam/(lam + mu).",
    domains=_domains_of(muF_obs, LF_obs, prox_lip, MU_F, L_F, THETA, L),
    conclusion=(sp.Ge(muF_obs, MU_F), sp.Le(LF_obs, L_F), sp.Le(prox_lip, THETA)),
    mode=Mode.DETERMINISTIC, provenance=Provenance.DERIVED, hypotheses=(_HYP_L,), derived_from="this project's derivation",
    notes="The first relation is a LOWER bound written sp.Ge(muF_obs, MU_F) (Claim.bounds() returns "
          "{'muF_obs': MU_F}; the verifier must read the relation type: lhs >= rhs). Exact on quadratics, where "
          "the Hessian of F_i is lam A_i (A_i + lam I)^-1. Paper text: analytic properties of F_i from Mishchenko "
          "et al. 2023; exact forms not recovered. h_i(.; w_g) is (mu + lam)-strongly convex, (L + lam)-smooth.",
)
lemma2 = Claim(
    id="fedclup.lemma2", location="Lemma 2 (Section 4.2), quoting Lemarechal & Sagastizabal (1997)",
    statement="F_i is continuously differentiable with grad F_i(w) = lam (w - w_*^(i)(w)).",
    domains=_domains(grad_F_residual), conclusion=(sp.Le(grad_F_residual, 0),),
    mode=Mode.DETERMINISTIC, provenance=Provenance.PAPER_APPENDIX,
    notes="Quoted result (Lemarechal & Sagastizabal 1997) under Assumption 2; the formula is derived here, "
          "consistent with the paper summary's update (12). Checked numerically up to floating-point / "
          "finite-difference tolerance.",
)
eq12 = Claim(
    id="fedclup.eq12", location="Update (12) (Section 4.2) and (103) (Appendix B.3)",
    statement="w_{t+1} = w_t - gamma lam sum_i p_i (w_t - w^i_{t,K}) (exact: w^i_*(w_t) in place of w^i_{t,K}).",
    domains=_domains(server_residual), conclusion=(sp.Le(server_residual, 0),),
    mode=Mode.DETERMINISTIC, provenance=Provenance.PAPER,
    notes="Formula: paper summary (verbatim with p_i = 1/m); the inexact form with w^i_{t,K} is the paper's (103), "
          "form derived here. With gamma = 1/lam the step is plain averaging (the authors' code). A "
          "conformance check of the implementation (residual ~ 0).",
)
eq13 = Claim(
    id="fedclup.eq13", location="Update (13) (Section 4.2)",
    statement="w^i_{t,k+1} = w^i_{t,k} - eta (grad L_i(w^i_{t,k}) + lam (w^i_{t,k} - w_t)), k = 0..K-1, warm-started.",
    domains=_domains(inner_residual), conclusion=(sp.Le(inner_residual, 0),),
    mode=Mode.DETERMINISTIC, provenance=Provenance.DERIVED, derived_from="this project's derivation (paper text: wording; authors' code)",
    notes="Formula derived here; it matches the authors' code. Conformance check of the implementation.",
)
_L5_RHS = Q_INNER**K * inner_err_0
_HYP_ETA = sp.Le(eta * (L + lam), 1)
lemma5 = Claim(
    id="fedclup.lemma5", location="Lemma 5 (Appendix B.3; Ji et al. 2022, Lemma 2); formula derived in this project",
    statement="If eta <= 1/(L + lam): ||w^i_{t,K} - w^i_*(w_t)||^2 <= (1 - eta (mu + lam))^K ||w^i_{t,0} - w^i_*(w_t)||^2.",
    domains=_domains_of(inner_err_K, _L5_RHS, L), conclusion=(sp.Le(inner_err_K, _L5_RHS),),
    mode=Mode.DETERMINISTIC, provenance=Provenance.DERIVED, hypotheses=(_HYP_L, _HYP_ETA),
    derived_from="this project's derivation (standard GD contraction for a (mu+lam)-strongly convex, (L+lam)-smooth h_i)",
    notes="eta <= 1/(L + lam) is encoded as eta (L + lam) <= 1. Exact form in the paper not recovered.",
)
_L6_RHS = (1 + a) * (1 - gamma * MU_F) * e_t + (1 + 1 / a) * gamma**2 * grad_err_sq
lemma6 = Claim(
    id="fedclup.lemma6", location="Lemma 6, (102)-(106) (Appendix B.3); formula derived in this project",
    statement="If gamma <= 1/L_F, for any a > 0: e_{t+1} <= (1 + a)(1 - gamma mu_F) e_t + (1 + 1/a) gamma^2 "
              "||hat grad F - grad F||^2, and ||hat grad F - grad F||^2 <= lam^2 d_t.",
    domains=_domains_of(e_next, _L6_RHS, grad_err_sq, d_t, L),
    conclusion=(sp.Le(e_next, _L6_RHS), sp.Le(grad_err_sq, lam**2 * d_t)),
    mode=Mode.DETERMINISTIC, provenance=Provenance.DERIVED,
    hypotheses=(_HYP_L, sp.Le(gamma * L_F, 1), sp.Gt(a, 0)),
    derived_from="this project's derivation (Young's inequality, Lemma 1; second relation: role of the paper's (109))",
    notes="gamma <= 1/L_F encoded as gamma L_F <= 1. p_i = 1/m in d_t. Exact form in the paper not recovered.",
)
_L7_RHS = Q_INNER**K * inner_err_0 + eta * sigma**2 / ((mu + lam) * B)
lemma7 = Claim(
    id="fedclup.lemma7", location="Lemma 7, (137)-(142) (Appendix B.5); formula derived in this project",
    statement="If eta <= 1/(L + lam), fresh batch each inner step: E||w^i_{t,K} - w^i_*(w_t)||^2 <= "
              "(1 - eta(mu+lam))^K ||w^i_{t,0} - w^i_*(w_t)||^2 + eta sigma^2/((mu + lam) B).",
    domains=_domains_of(inner_err_K, _L7_RHS, L), conclusion=(sp.Le(inner_err_K, _L7_RHS),),
    mode=Mode.EXPECTATION, provenance=Provenance.DERIVED, hypotheses=(_HYP_L, _HYP_ETA),
    derived_from="this project's derivation (one-step bound + geometric series)",
    notes="Expectation over the mini-batches given the round's start (Assumption 4, variance sigma^2/B). The paper's "
          "constants may differ (e.g. a factor 2 and eta <= 1/(2(L + lam))); not recovered.",
)
T2_RATE = 1 - gamma * MU_F / 4
"""Theorem 2's contraction factor of Phi_t, 1 - gamma mu_F/4 (its derivation steps, bounds.fedclup.findings (vi)-(vii),
read it from here)."""
_T2_RHS1 = T2_RATE * Phi_t
_T2_RHS2 = sp.sqrt(m * d_t) + THETA * sp.sqrt(e_t)
thm2 = Claim(
    id="fedclup.thm2", location="Theorem 2, condition (14) (Section 4.2; proof Appendix B.3); explicit version "
                                "(14-D) derived in this project",
    statement="If gamma <= 1/L_F, eta <= 1/(L + lam) and q^K satisfies (14-D): Phi_{t+1} <= (1 - gamma mu_F/4) Phi_t "
              "and ||w^i_{t,K} - w~_i|| <= sqrt(m d_t) + theta sqrt(e_t).",
    domains=_domains_of(Phi_next, _T2_RHS1, local_opt_err, _T2_RHS2, COND_14D.lhs, COND_14D.rhs, L),
    conclusion=(sp.Le(Phi_next, _T2_RHS1), sp.Le(local_opt_err, _T2_RHS2)),
    mode=Mode.DETERMINISTIC, provenance=Provenance.DERIVED,
    hypotheses=(_HYP_L, sp.Le(gamma * L_F, 1), _HYP_ETA, COND_14D),
    derived_from="this project's derivation (Lemmas 1, 5, 6; Lyapunov weight 12 gamma lam^2/mu_F)",
    notes="Paper text: both local and global models converge linearly under small step sizes and a condition (14) "
          "on K; the exact step-size bounds, (14), the rate and (115)-(125) are not recovered. Phi_t = e_t + "
          "12 gamma lam^2/mu_F d_t; sqrt(d_t/p_i) = sqrt(m d_t) with p_i = 1/m. Algorithm 1 (full batch), warm start.",
)
_COR2_PARAMS = {gamma: GAMMA_COR2, eta: ETA_COR2, K: K_COR2, T: T_COR2}
cor2_explicit = Claim(
    id="fedclup.cor2.explicit", location="Corollary 2 (Section 4.2; proof Appendix B.4, (132)-(134)); instance derived "
                                         "in this project",
    statement="With gamma = 1/L_F, eta = 1/(L + lam), K = ceil((L+lam)/(mu+lam) log max{192 lam^2/mu^2, 4 + 8 theta^2 "
              "lam^2/L_F^2}) and T = ceil(4 kappa_F log(Phi_0/eps)): ||w_T - w~_g||^2 <= eps.",
    domains=_domains_of(e_T, eps, K_COR2, T_COR2, gamma, eta, K, T),
    conclusion=(sp.Le(e_T, eps),), mode=Mode.DETERMINISTIC, provenance=Provenance.DERIVED,
    hypotheses=(_HYP_L,), parameters=dict(_COR2_PARAMS),
    derived_from="this project's derivation; fedclup.thm2 (rate 1 - 1/(4 kappa_F) at gamma = 1/L_F)",
    notes="Phi_0 is measured at the start of the run (an observed input, see OBSERVED). When Phi_0 <= eps, T <= 0 "
          "and the claim holds at the start. The authors' code passes gamma = 1/lam + 1/L = 1/L_F and eta = "
          "1/(L + lam) with L = 9.13. The paper's gamma, eta, K are not recovered.",
)

STATISTICAL = (thm1, cor1, minimax_lower, lemma3, lemma4_path, lemma4, eq33, thm1_8a_path, thm1_8a, thm1_8b,
               thm1_explicit, cor1_explicit)
OPTIMIZATION = (lemma1, lemma2, eq12, eq13, lemma5, lemma6, lemma7, thm2, cor2_comm, cor2_comp, cor2_explicit,
                thm3)
TRADEOFF = (cor3,)
CLAIMS = STATISTICAL + OPTIMIZATION + TRADEOFF


def claim(id_: str) -> Claim:
    """Look a claim up by id; unknown ids raise ``KeyError`` naming the id and listing the known ones."""
    for cl in CLAIMS:
        if cl.id == id_:
            return cl
    raise KeyError(f"unknown claim {id_!r}; known: {', '.join(cl.id for cl in CLAIMS)}")
