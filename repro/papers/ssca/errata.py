"""Mini-batch SSCA's errata, as its text gives them (:mod:`repro.errata`): data typed from the paper, whose kinds and
consequences the suite computes.

* The printed surrogates (8)/(12)/(18)/(23) put tau ||omega||^2, where the recursions (3)/(10)/(13)/(20) they are
  said to rewrite, started from 0, give tau (1 - prod (1 - rho_s)) ||omega||^2: two places that disagree. The closed
  forms (9), (19), (35)-(36) and Lemma 1 minimise the printed surrogates, as they say, so no claim fails through it.
* (32) adds + sum y log Q to A^(t), where the constant term of surrogate (11) of F - U (with the cost (25)) needs the
  cross-entropy: a sign that disagrees with (11) and (25). It concerns Section V's instance of Algorithm 2 only;
  Section VI's runs use the sign of (11), and ``ssca.printed_32`` runs the printed sign once.
* Theorem 4 assumes 'the constraint set of Problem 3 is compact' where Appendix B's proof reads 'Problem 3
  (Problem 8)': Algorithm 4 solves Problem 8.
"""
from __future__ import annotations

from repro.errata import Erratum

ERRATA = (
    Erratum("ssca.surrogate_weight", "Section III-A, (8) (and (12), (18), (23), (29))",
            "F̄_s,0(ω) can be rewritten as: (f̂_s,0,1)ᵀω + τ‖ω‖²₂ (8)",
            "The printed surrogates carry tau ||omega||^2, but the recursions they rewrite, started from 0, give "
            "tau (1 - prod_s (1 - rho_s)) ||omega||^2: the two agree only when rho_1 = 1 (or as t -> oo).",
            other_place="(3): 'F̄_s,0^(t)(ω) = (1 − ρ^(t)) F̄_s,0^(t−1)(ω) + ρ^(t) ... with F̄_s,0^(0)(ω) = 0'",
            explains=("ssca.surrogate_weight",)),
    Erratum("ssca.a_bar_sign", "Section V, (32)", "Ā_a^(t) = Σ_n Σ_l y_n,l log(Q_l(ω_a^(t), x_n)) + τ‖ω_a^(t)‖²₂",
            "(32) adds + sum y log Q (minus the cross-entropy) to A^(t), where the constant term of surrogate (11) "
            "for F - U needs + the cross-entropy; with the printed sign the constraint reads -F - U < 0.",
            other_place="(11) with the cost (25): F(ω) = −(1/N) Σ_n Σ_l y_n,l log Q_l(ω, x_n)",
            explains=("ssca.a_bar_sign",)),
    Erratum("ssca.thm4.problem", "Theorem 4, Section IV-B", "the constraint set of Problem 3 is compact",
            "Theorem 4 (Algorithm 4) assumes the constraint set of Problem 3 compact; Algorithm 4 solves Problem 8.",
            other_place="Appendix B: 'Problem 3 (Problem 8)'", explains=("ssca.thm4.problem_reference",)),
)
