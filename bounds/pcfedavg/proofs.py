"""PC-FedAvg (Ebrahimi, Burbano, Yousefian; arXiv 2603.19617v1): every displayed step of every printed proof.

The proofs the paper prints, in its order: Lemmas 4.3-4.6, Propositions 4.7 and 4.8 and Theorem 3.4 (Section 4),
then the appendix's proofs of Lemmas 4.1 and 4.2 (Lemma 6.1 has no proof). The proof of Lemma 4.1 has no display
(its one chain ||grad f_i(Ax) - grad f_i(Ay)|| <= L_f ||A||^2 ||x - y|| is set in the running text), so it has no
entry in :data:`DISPLAYS` and is named in :data:`PROOFS_WITHOUT_DISPLAYS`.

Labels: the paper's equation numbers (3)-(12); an unnumbered display carries the label the suite's re-derived step
table uses for it (``bounds.pcfedavg.findings.proof_steps``: (L4.3-a), (P4.8-f), (T3.4-a), ...), else its position.
Steps set in the running text -- (L4.6-a), (L4.6-e), (L4.5-g), (P4.7-b), (P4.8-f), the two "facts" before (11) -- are
not displays and are not listed. A display spanning several lines (one aligned environment, possibly a chain
"<= ... <=" or "= ... <=") is one display, as the paper numbers it.

In ``says``: g = gamma, L = L_{G_rho}, xb = xbar_k (xb' = xbar_{k+1}), dG = grad G, g_i = grad g_{i,rho}; drift, gap,
dist are the observed quantities of :data:`bounds.pcfedavg.claims.OBSERVED`.

``checked_by`` ids, each naming something that checks THAT display: the relation it prints, or an ingredient the text
right before it invokes to produce it (e.g. the two facts quoted before (11), the bound (P4.7-b) used for (P4.7-c)).
A check of a weaker consequence only is not linked: the Lemma 4.4 claim checks the average over i of (L4.4-b), not
(L4.4-b) per agent, and the Lemma 4.2 claim checks G_{i,rho}'s convexity, not the displayed convexity of f_i(A x).

* ``"proof_steps#<label>"``: the row with that step label of ``bounds.pcfedavg.findings.proof_steps()``, linked only
  when the row computes something about the display (a sympy identity or certificate, a counterexample, an exact
  evaluation, a falsification search) whose outcome could have been otherwise. A row whose evidence is a fixed
  sentence, or whose status is ``not checked``, is not linked; :data:`UNCOMPUTED_ROWS` names such rows with the
  reason, so they can be linked once they compute.
* a claim id of :data:`bounds.pcfedavg.claims.CLAIMS` whose conclusion IS the display, checked on runs: (12)
  (``pcfedavg.eq12``) and the display after (12) (``pcfedavg.prop4.8.ii``).
* a finding id of ``repro.papers.pcfedavg.audit.findings({})``.

No ``"<claim>#<step>"`` id is used: PC-FedAvg's claims list proof steps (``Claim.steps``), but nothing in the suite
evaluates them -- ``repro.papers.pcfedavg.checks`` checks the conclusions only (no ``check_chain``), and the traces
do not record the step quantities (``sq_grad_bar``, ``noise_sq_avg``, ``sq_grad_round``, ...). The one symbolic use,
``lemma46.steps[1]`` in the (L4.6-d) row, is covered by that row.
"""
from __future__ import annotations

from ..proofs import Display

L43 = "Proof of Lemma 4.3 (Section 4)"
L44 = "Proof of Lemma 4.4 (Section 4)"
L45 = "Proof of Lemma 4.5 (Section 4)"
L46 = "Proof of Lemma 4.6 (Section 4)"
P47 = "Proof of Proposition 4.7 (Section 4)"
P48 = "Proof of Proposition 4.8 (Section 4)"
T34 = "Proof of Theorem 3.4 (Section 4)"
L42 = "Proof of Lemma 4.2 (Appendix)"

PROOFS = (L43, L44, L45, L46, P47, P48, T34, L42)
"""The printed proofs with at least one display, in the paper's order."""

PROOFS_WITHOUT_DISPLAYS = {
    "Proof of Lemma 4.1 (Appendix)": "its only relations (the L_f ||A||^2 chain, the 1-Lipschitz I - Pi_X) are inline",
}

UNCOMPUTED_ROWS: dict[str, str] = {}
"""Rows of ``proof_steps()`` for a listed display that compute nothing about it (so are not in its checked_by).

Empty: the twelve rows once listed here ((L4.3-d), (7), (P4.8-a), (P4.8-b), (8), (9), (P4.8-d), (P4.8-e), (10), (11),
(P4.8-h), (T3.4-a)) are now computed by ``bounds.pcfedavg.findings.row_*`` (sympy identities on the encoded
expressions, exact instances, a falsification search) and linked. A row no computation can decide gets the status
``pcfedavg_findings.NOT_CHECKED`` and is listed here, not linked."""

DISPLAYS: tuple[Display, ...] = (
    # ------------------------------------------------------------------ Lemma 4.3
    Display(L43, "(L4.3-a)", "E||avg grad g||^2 <= 3E||avg G(xb)||^2 + 3(noise) + 3(dev)",
            ("proof_steps#(L4.3-a)",)),
    Display(L43, "(L4.3-b)", "<= 3E||grad G||^2 + 3/m sum noise_i + 3/m sum dev_i <= ...",
            ("proof_steps#(L4.3-b)",)),
    Display(L43, "(3)", "<= 3/m sum ||A||^2 E||.||^2+.. <= 3nu^2/m + 3L^2 drift+..",
            ("proof_steps#(3)",)),
    Display(L43, "(L4.3-c)", "3E||grad G(xb) - grad G(x*)||^2 <= 6L gap - 6L<grad G(x*),.>",
            ("proof_steps#(L4.3-c)",)),
    Display(L43, "(L4.3-d)", "3E||grad G(xb) - grad G(x*)||^2 <= 6 L_G E[gap]",
            ("proof_steps#(L4.3-d)",)),
    # ------------------------------------------------------------------ Lemma 4.4
    Display(L44, "(L4.4-a)", "-2<xb - x*, grad G_i(x_i)> = -2<x_i - x*,.> - 2<xb - x_i,.>",
            ("proof_steps#(L4.4-a)",)),
    Display(L44, "(L4.4-b)", "<= 2(G_i(x*) - G_i(x_i)) + 2(G_i(x_i) - G_i(xb)) + L delta",
            ("proof_steps#(L4.4-b)",)),
    # ------------------------------------------------------------------ Lemma 4.5
    Display(L45, "(4)", "E[drift_k] = g^2/m sum E||sum_t (g_i - avg g)||^2 <= ...",
            ("proof_steps#(4)",)),
    Display(L45, "(L4.5-a)", "sum_i E||g_i - grad G(x_t)||^2 = ... <= sum_i E||g_i||^2",
            ("proof_steps#(L4.5-a)", "pcfedavg.f.L4.5-a")),
    Display(L45, "(L4.5-b)", "E[drift_k] <= g^2 (H-1)/m sum_i sum_t E||grad g_i||^2",
            ("proof_steps#(L4.5-b)",)),
    Display(L45, "(5)", "sum_k E drift_k <= .. <= g^2(H-1)^2/m sum_i sum_t E||g_i||^2",
            ("proof_steps#(5)",)),
    Display(L45, "(6)", "1/m sum E||grad g_i||^2 <= 4/m sum (four split terms)",
            ("proof_steps#(6)",)),
    Display(L45, "(L4.5-c)", "1/m sum E||dG_i(xb) - dG_i(x*)||^2 <= .. = 2 L_G E[gap_t]",
            ("proof_steps#(L4.5-c)",)),
    Display(L45, "(L4.5-d)", "1/m sum E||g_i||^2 <= 4L^2 drift + 8L gap + 4/m sum(.) + 4M",
            ("proof_steps#(L4.5-d)", "pcfedavg.e.lemma4.5.M")),
    Display(L45, "(L4.5-e)", "1/m sum E||g_i||^2 <= 8L gap + 4L^2 drift + 4M + 4nu^2/m",
            ("proof_steps#(L4.5-e)", "pcfedavg.f.L4.5-e.index")),
    Display(L45, "(L4.5-f)", "(1 - 4g^2(H-1)^2L^2) sum drift <= 8g^2(H-1)^2 L sum gap + ..",
            ("proof_steps#(L4.5-f)",)),
    # ------------------------------------------------------------------ Lemma 4.6
    Display(L46, "(L4.6-b)", "||xb' - x*||^2 = g^2||avg g||^2 + ||xb - x*||^2 - 2g/m sum<>",
            ("proof_steps#(L4.6-b)",)),
    Display(L46, "(L4.6-c)", "E[||xb' - x*||^2|F_k] <= dist - 2g gap + g^2 E[.] + gL drift",
            ("proof_steps#(L4.6-c)",)),
    Display(L46, "(L4.6-d)", "E dist'<=E dist + gL(1+3gL)drift - 2g(1-3gL)gap + 3g^2nu^2/m",
            ("proof_steps#(L4.6-d)",)),
    # ------------------------------------------------------------------ Proposition 4.7
    Display(P47, "(7)", "sum_k E dist_(k+1) <= sum_k E dist_k + g(3/2 L S_drift - ..)",
            ("proof_steps#(7)",)),
    Display(P47, "(P4.7-a)", "3/2 L S_drift - S_gap <= sum (15g^2(H-1)^2L^2 - 1) gap + ..",
            ("proof_steps#(P4.7-a)", "pcfedavg.f.lemma4.5.range", "pcfedavg.prop4.7.K_eq_Tr")),
    Display(P47, "(P4.7-c)", "g/3 sum_k E[gap_k] <= Q + K(15/2 L g^3 (H-1)^2 M) + K(...)",
            ("proof_steps#(P4.7-c)", "pcfedavg.h.P4.7-b")),
    # ------------------------------------------------------------------ Proposition 4.8
    Display(P48, "(P4.8-a)", "E[G(xb_K*) - G(x*)] <= E[G(xb_K*) - G(x*_rho)]",
            ("proof_steps#(P4.8-a)",)),
    Display(P48, "(P4.8-b)", "E f(xb) + rho H(xb) - (E f(x*) + rho H(x*)) <= E[G - G*]",
            ("proof_steps#(P4.8-b)",)),
    Display(P48, "(P4.8-c)", "E f(xb) + rho/m sum dbar_i^2 - (E f(x*) + rho/m sum ..) <= E",
            ("proof_steps#(P4.8-c)", "pcfedavg.P4.8-c.half")),
    Display(P48, "(8)", "E[f(xb_K*) - f(x*)] + rho/m sum dbar_i^2 <= E",
            ("proof_steps#(8)", "pcfedavg.P4.8-c.half")),
    Display(P48, "(9)", "grad f(x*)^T E[xb_K* - x*] <= E[f(xb_K*) - f(x*)]",
            ("proof_steps#(9)",)),
    Display(P48, "(P4.8-d)", "grad f(x*)^T E[xb - x* + Pi_X[xb] - Pi_X[xb]] <= E[f - f*]",
            ("proof_steps#(P4.8-d)",)),
    Display(P48, "(P4.8-e)", "grad f(x*)^T E[xb - Pi_X[xb]] <= E[f(xb_K*) - f(x*)]",
            ("proof_steps#(P4.8-e)",)),
    Display(P48, "(10)", "-||grad f(x*)|| E[dbar] + rho/m sum dbar_i^2 <= E",
            ("proof_steps#(10)", "pcfedavg.P4.8-c.half")),
    Display(P48, "(11)", "rho/m a^2 - ||grad f(x*)|| a <= E, a = sqrt(sum E dbar_i^2)",
            ("proof_steps#(11)", "pcfedavg.P4.8-c.half", "pcfedavg.d.fact1", "pcfedavg.d.fact2")),
    Display(P48, "(P4.8-g)", "sqrt(sum E dbar_i^2) <= m||grad f(x*)||/rho + 2 sqrt(mE/rho)",
            ("proof_steps#(P4.8-g)", "pcfedavg.c.P4.8-g.root", "pcfedavg.P4.8-c.half")),
    Display(P48, "(12)", "sqrt(sum E dbar_i^2) <= m||grad f||/rho + 6sqrt(g nu^2/rho)",
            ("pcfedavg.eq12", "proof_steps#(12)", "pcfedavg.c.eq12.terms")),
    Display(P48, "display after (12)", "E[dbar_i^2] <= 5m||grad f(x*)||^2/rho^2 + 60mQ/(K g rho)+..",
            ("pcfedavg.prop4.8.ii", "proof_steps#(ii)", "pcfedavg.b.prop4.8.ii.terms")),
    Display(P48, "(P4.8-h)", "-||grad f(x*)|| sqrt(sum E dbar_i^2) <= E[f(xb_K*) - f(x*)]",
            ("proof_steps#(P4.8-h)", "pcfedavg.d.fact1", "pcfedavg.d.fact2")),
    # ------------------------------------------------------------------ Theorem 3.4
    Display(T34, "(T3.4-a)", "45/2 rho g^2(H-1)^2(M + nu^2/m) + 9g nu^2/m + ... <= eps",
            ("proof_steps#(T3.4-a)",)),
    # ------------------------------------------------------------------ Lemma 4.2 (appendix)
    Display(L42, "display 1", "f_i(A(tx + (1-t)y)) = f_i(tAx + (1-t)Ay) <= t f_i(Ax) + .."),
)
"""Every displayed step of every printed proof, in the paper's order (37 displays in 8 proofs)."""

__all__ = ["DISPLAYS", "PROOFS", "PROOFS_WITHOUT_DISPLAYS", "UNCOMPUTED_ROWS"]
