"""Mini-batch SSCA (arXiv 2104.06011 v1): every displayed step of every proof the paper prints, and what checks it.

The main text proves nothing in place: each of Theorems 1-5 and Lemma 1 says "Proof: Please refer to Appendix
A/B/C/D". The proofs are the four appendices:

* Appendix A (Theorems 1 and 3, "identical"): Lemmas 2-4 are stated and proved there as preliminary results, then
  the proof of the theorems runs from (54) (liminf part) through (57)-(66) (limsup part) to (67)-(68) (KKT).
* Appendix B (Theorems 2 and 4): Lemmas 5 and 6 (69)-(71), then (72)-(73).
* Appendix C (Lemma 1): the Lagrangian of (38), its dual and (74).
* Appendix D (Theorem 5): (75) and two unnumbered displays.

Conventions (named):

* A lemma stated inside an appendix proof (Lemmas 2-6) is listed under "Proof of Lemma k": its statement displays
  come first, as the conclusion its proof reaches (Appendix A: "(43) follows from (50) immediately"). The proofs of
  Lemmas 2, 5 and 6 display nothing else (they cite [35, Lemma 1] or Arzela-Ascoli in prose).
* A chained display (a <= b <= c, or a = b >= c) is listed one relation per entry, labelled with the paper's
  (a)/(b)/(c) where it prints them, else "step k" from the left; a one-line display with several relations that
  define one object ((58), the cases of the dual function) is one entry.
* A display that only restates an earlier one is listed once: (53)'s final right side is (51) (listed as (51)); the
  closing nu* of Appendix C restates (42) and the argmin of Appendix C restates (40)-(41), which are printed in the
  main text outside any proof, so they are listed in Appendix C.
* Steps set inline in the text are not listed: h'(nu) in Appendix C, "grad F + lam grad ||w||^2 = 0" and the
  second-order condition of Appendix D, the thresholds mu_hat and mu_hat delta_2^2/delta before (66).

Abbreviations in ``says`` (ASCII): g = gamma^(t) (or gamma^(n)), D = ||w_bar^(t) - w^(t)||,
err = ||grad F_0(w^(t)) - grad F_bar_0^(t)(w^(t))||, Dw = Delta w = w_bar - w, w+ = w^(t+1), Ltil/Lbar/Lhat = the
constants L tilde/bar/hat, Ftil = F tilde, etil = e tilde; otherwise the paper's symbols (mu in Appendix C is the
multiplier of s >= 0, lambda_m/mu_m in (73) the KKT multipliers of Problem 4/9).

What checks a step (``checked_by``), from reading the suite:

* claims of :data:`bounds.ssca.claims.CLAIMS` that encode the display itself: ``ssca.lemma2`` (both limits of Lemma 2, and
  (44), which is the second limit with e_bar(t) := F_bar - G_0), ``ssca.lemma3`` ((43) with L_bar = 2 L_tilde/mu
  and e = (2/mu) e_tilde, i.e. (50)(b)), ``ssca.lemma4`` ((51), checked at every iteration of the runs),
  ``ssca.appA.delta1`` ((60)), ``ssca.thm1``/``ssca.thm3`` (the ">= 0" of (68), the first-order condition at a
  limit point), ``ssca.lemma1`` ((40)-(42) against a solver; for display 6, the dual problem, that agreement is its
  strong duality, the weak half being an encoded step), ``ssca.thm5.i`` (the conclusion ||w*||^2 <= ||w||^2
  of the display after (75)), ``ssca.lemma5`` (the three limits of Lemma 5: their trends along the constrained
  runs) and ``ssca.lemma6`` ((70)-(71), the same gaps at the limit; (69), the existence of the limit functions by
  Arzela-Ascoli, is not checked); no SSCA claim has ``steps``. Named: a display checked through Lemma 2, 5 or 6
  counts as checked, but the evidence of those almost-sure limits is a trend of finite runs ("not checkable"), so
  such a display is observed, not decided;
* findings of ``repro.papers.ssca.audit.findings({})``: ``ssca.lemma1.derivation`` (rows of
  :func:`bounds.ssca.findings.lemma1_checks`: argmin_w L = (40)-(41), min_w L = h(nu), the roots of h' and the
  regime logic of nu*, i.e. the argmax of h over [0, c] that (74) defines) and ``ssca.thm5.algebra`` (rows of :func:`bounds.ssca.findings.thm5_checks`: the step
  (1/lam)(F(w) - F(w*)) <= 0 on {F <= U = F(w*)}).

Not linked, because they check a hypothesis a proof's prose invokes rather than a display:
``ssca.section_v.assumption_2_4`` (Condition (b) of [35, Lemma 1] in the proofs of Lemmas 2 and 5),
``ssca.section_v.compactness`` (Condition (a) in the proof of Lemma 5), ``ssca.section_vi.step_sizes`` ((4), (6)).
The claims ``ssca.thm2``/``ssca.thm4`` observe the KKT residual of Problem 3/8, not the conditions (73) of
Problem 4/9, so they are not linked to (73).

Printed oddities seen while reading (recorded, not judged here): (47)-(49) and (52) print mu/2 ||.|| and
mu ||.|| without the square that strong convexity gives (and (51)/(53) use); (67) prints grad F_bar(w^(t)) where
(68) uses grad F_bar(w_bar^(t)); (73a) prints lambda_m grad F_0 for lambda_m grad F_m; Appendix C calls h(nu)
"convex" where it is concave (``ssca.lemma1.derivation`` proves h'' < 0).
"""
from __future__ import annotations

from ..proofs import Display

__all__ = ["DISPLAYS", "PROOFS"]

L2 = "Proof of Lemma 2 (Appendix A)"
L3 = "Proof of Lemma 3 (Appendix A)"
L4 = "Proof of Lemma 4 (Appendix A)"
T13 = "Proof of Theorems 1 and 3 (Appendix A)"
L5 = "Proof of Lemma 5 (Appendix B)"
L6 = "Proof of Lemma 6 (Appendix B)"
T24 = "Proof of Theorems 2 and 4 (Appendix B)"
L1 = "Proof of Lemma 1 (Appendix C)"
T5 = "Proof of Theorem 5 (Appendix D)"

PROOFS = (L2, L3, L4, T13, L5, L6, T24, L1, T5)
"""The proofs in the paper's order."""

_D = Display

DISPLAYS: tuple[Display, ...] = (
    # ------------------------------------------------------------------ Appendix A, Lemma 2
    _D(L2, "Lemma 2 statement, display 1", "lim ||grad Fbar0^(t)(w^(t)) - grad F0(w^(t))|| = 0",
       ("ssca.lemma2",)),
    _D(L2, "Lemma 2 statement, display 2", "lim |Fbar0^(t)(w) - G0(w, w^(t))| = 0 for all w",
       ("ssca.lemma2",)),
    # ------------------------------------------------------------------ Appendix A, Lemma 3
    _D(L3, "(43)", "||wbar(t1) - wbar(t2)|| <= Lbar ||w(t1) - w(t2)|| + e", ("ssca.lemma3",)),
    _D(L3, "(44)", "Fbar0^(t)(w) = G0(w, w^(t)) + ebar(t)", ("ssca.lemma2",)),
    _D(L3, "(45)", "|G0(w,w(t1)) - G0(w,w(t2))| <= Ltil ||w(t1) - w(t2)||"),
    _D(L3, "(46)", "|Fbar^(t1)(w) - Fbar^(t2)(w)| <= Ltil ||w1 - w2|| + etil"),
    _D(L3, "(47)", "Fbar^(t1)(w) - Fbar^(t1)(wbar(t1)) >= mu/2 ||w - wbar||"),
    _D(L3, "(48)", "Fbar^(t1)(wbar(t2)) - Fbar^(t1)(wbar(t1)) >= mu/2 ||.||"),
    _D(L3, "(49)", "Fbar^(t2)(wbar(t1)) - Fbar^(t2)(wbar(t2)) >= mu/2 ||.||"),
    _D(L3, "(50)(a)", "||wbar1 - wbar2|| <= (1/mu)(|..| + |..|)"),
    _D(L3, "(50)(b)", "<= (2 Ltil/mu) ||w(t1) - w(t2)|| + (2/mu) etil(t1,t2)", ("ssca.lemma3",)),
    # ------------------------------------------------------------------ Appendix A, Lemma 4
    _D(L4, "(51)", "F0(w+) - F0(w) <= g D err - g (mu - Lhat g/2) D^2", ("ssca.lemma4",)),
    _D(L4, "(52) step 1", "grad Fbar^T (wbar - w) <= -mu||wbar-w|| + Fbar(wbar)-Fbar(w)"),
    _D(L4, "(52) step 2", "... <= -mu ||wbar - w||"),
    _D(L4, "(53) step 1", "F0(w+) - F0(w) <= (w+ - w)^T grad F0 + Lhat/2 ||w+ - w||^2"),
    _D(L4, "(53) step 2", "<= g (wbar - w)^T grad F0 + Lhat/2 g^2 ||wbar - w||^2"),
    _D(L4, "(53) step 3", "<= g (wbar-w)^T (grad F0 - grad Fbar + grad Fbar) + .."),
    _D(L4, "(53) step 4", "<= g D err - g (mu - Lhat g/2) D^2 (Cauchy-Schwarz, (52))"),
    # ------------------------------------------------------------------ Appendix A, Theorems 1 and 3
    _D(T13, "(54)", "F0(w+) - F0(w) <= -g (mu - Lhat g/2 - err/chi) D^2"),
    _D(T13, "(55)", "mu - Lhat g/2 - err/chi >= mubar for t >= t0"),
    _D(T13, "(56)", "F0(w(t)) - F0(w(t0)) <= -mubar chi^2 sum_{n=t0}^t g"),
    _D(T13, "after (56)", "in view of sum g = oo, contradicts boundedness"),
    _D(T13, "(57)", "||Dw(t)|| <= delta, t in T"),
    _D(T13, "(58)", "||Dw(i_t)|| >= 2 delta, delta <= ||Dw(n)|| <= 2 delta"),
    _D(T13, "(59) step 1", "delta <= ||Dw(i_t)|| - ||Dw(t)||"),
    _D(T13, "(59) step 2", "<= ||Dw(i_t) - Dw(t)||"),
    _D(T13, "(59) step 3", "= ||(wbar(i_t) - w(i_t)) - (wbar(t) - w(t))||"),
    _D(T13, "(59) step 4", "<= ||wbar(i_t) - wbar(t)|| + ||w(i_t) - w(t)||"),
    _D(T13, "(59)(a)", "<= (1 + Lbar) ||w(i_t) - w(t)|| + e(i_t, t)"),
    _D(T13, "(59)(b)", "<= (1 + Lbar) sum_{n=t}^{i_t-1} g(n) ||Dw(n)|| + e"),
    _D(T13, "(59) step 7", "<= 2 delta (1 + Lbar) sum_{n=t}^{i_t-1} g(n) + e"),
    _D(T13, "(60)", "liminf sum_{n=t}^{i_t-1} g >= delta1 = 1/(2(1+Lbar))", ("ssca.appA.delta1",)),
    _D(T13, "(61) step 1", "||Dw(t+1)|| - ||Dw(t)|| <= ||Dw(t+1) - Dw(t)||"),
    _D(T13, "(61) step 2", "<= (1 + Lbar) g(t) ||Dw(t)|| + e(t, t+1)"),
    _D(T13, "(62) step 1", "(1 + (1+Lbar) g) ||Dw(t)|| + e >= ||Dw(t+1)||"),
    _D(T13, "(62) step 2", "||Dw(t+1)|| >= delta"),
    _D(T13, "(63) step 1", "||Dw(t)|| >= (delta - e(t,t+1))/(1 + (1+Lbar) g(t))"),
    _D(T13, "(63) step 2", ">= delta2 > 0"),
    _D(T13, "(64)", "F0(w+) - F0(w) <= -g (mu - Lhat g/2) D^2 + g delta err"),
    _D(T13, "(65) step 1", "F0(w(n+1)) - F0(w(n)) <= -g (mu - Lg/2 - err/D) D^2"),
    _D(T13, "(65) step 2", "<= -g (mu - Lhat g/2 - err/delta) D^2"),
    _D(T13, "(66)(a)", "F0(w(i_t)) - F0(w(t)) <= -muhat sum g D^2 + g delta err"),
    _D(T13, "(66)(b)", "<= -muhat d2^2 sum_{t+1} g - g (muhat d2^2 - delta err)"),
    _D(T13, "(66)(c)", "<= -muhat delta2^2 sum_{n=t+1}^{i_t-1} g(n)"),
    _D(T13, "(67)", "(w - wbar(t))^T grad Fbar0^(t)(w(t)) >= 0 for all w"),
    _D(T13, "(68) step 1", "lim (w - wbar)^T grad Fbar(wbar) = (w - w*)^T grad F0(w*)"),
    _D(T13, "(68) step 2", "(w - w*)^T grad F0(w*) >= 0 for all w", ("ssca.thm1", "ssca.thm3")),
    # ------------------------------------------------------------------ Appendix B, Lemma 5
    _D(L5, "Lemma 5 statement, display 1", "lim |Fbar_m^(t)(w(t)) - F_m(w(t))| = 0, m = 1..M",
       ("ssca.lemma5",)),
    _D(L5, "Lemma 5 statement, display 2", "lim ||grad Fbar_m^(t)(w(t)) - grad F_m(w(t))|| = 0",
       ("ssca.lemma5",)),
    _D(L5, "Lemma 5 statement, display 3", "lim |Fbar_m^(t)(w) - G_m(w, w(t))| = 0, w in Omega",
       ("ssca.lemma5",)),
    # ------------------------------------------------------------------ Appendix B, Lemma 6
    _D(L6, "(69)", "lim_l Fbar_m^(t_l)(w) = Ftil_m(w), w in Omega"),
    _D(L6, "(70)", "Ftil_m(w*_j) = F_m(w*_j), m = 1..M", ("ssca.lemma6",)),
    _D(L6, "(71)", "grad Ftil_m(w*_j) = grad F_m(w*_j), m = 0..M", ("ssca.lemma6",)),
    # ------------------------------------------------------------------ Appendix B, Theorems 2 and 4
    _D(T24, "(72)", "(w*_j, s*_j) = argmin Ftil0 + c sum s_m s.t. Ftil_m <= s_m"),
    _D(T24, "(73a)", "grad F0(w*_j) + sum_m lambda_m grad F0(w*_j) = 0"),
    _D(T24, "(73b)", "F_m(w*_j) <= s*_{m,j}"),
    _D(T24, "(73c)", "lambda_m (F_m - s*_m) = 0, mu_m s*_m = 0"),
    _D(T24, "(73d)", "c - lambda_m - mu_m = 0"),
    _D(T24, "after (73)", "(73) and s*_j = 0 imply KKT of Problem 3 (Problem 8)"),
    # ------------------------------------------------------------------ Appendix C, Lemma 1
    _D(L1, "display 1 (Lagrangian) step 1", "L = ||w||^2 + c s + nu(Fbar + A - U - s) + mu(-s)"),
    _D(L1, "display 1 (Lagrangian) step 2", "= ||w||^2 + nu(Fbar + A - U) + (c - nu - mu) s"),
    _D(L1, "display 2 (dual function)", "g(nu,mu) = inf_w(..) if c-nu-mu >= 0, else -inf"),
    _D(L1, "display 3 (argmin, = (40))", "wbar_1jk = -nu B_jk / (2 (1 + nu tau))",
       ("ssca.lemma1.derivation", "ssca.lemma1")),
    _D(L1, "display 4 (argmin, = (41))", "wbar_2lj = -nu C_lj / (2 (1 + nu tau))",
       ("ssca.lemma1.derivation", "ssca.lemma1")),
    _D(L1, "display 5 (optimal value h)", "h(nu) = nu (A - U - b nu / (4 (1 + tau nu)))",
       ("ssca.lemma1.derivation",)),
    _D(L1, "display 6 (dual problem)", "max h(nu) s.t. c - nu - mu >= 0, nu >= 0, mu >= 0", ("ssca.lemma1",)),
    _D(L1, "(74)", "nu* = argmax h(nu) s.t. 0 <= nu <= c", ("ssca.lemma1.derivation",)),
    _D(L1, "display 8 (nu*, = (42))", "nu* = [(sqrt(b/(b+4tau(U-A))) - 1)/tau]_0^c or c",
       ("ssca.lemma1.derivation", "ssca.lemma1")),
    # ------------------------------------------------------------------ Appendix D, Theorem 5
    _D(T5, "(75)", "F(w*) + lam ||w*||^2 <= F(w) + lam ||w||^2 near w*"),
    _D(T5, "display after (75), (a)", "||w*||^2 <= (1/lam)(F(w) - F(w*)) + ||w||^2"),
    _D(T5, "display after (75), (b)", "... <= ||w||^2 (F(w) <= U = F(w*))", ("ssca.thm5.algebra", "ssca.thm5.i")),
    _D(T5, "display 2 after (75)", "grad ||w+||^2 + xi grad F(w+) = 0 (KKT of (37))"),
)
