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
* (47)-(49) drop the squares of strong convexity; (50)(a) follows from them only as printed, so Lemma 3's proof has
  a gap (one root cause, refuted at (47) and at (49)).
* (73a) writes lambda_m grad F_0 for lambda_m grad F_m; ``ssca.steps`` checks it as printed and corrected, with the
  sentence after (73) that uses it.
* (52) drops the squares of strong convexity that (53) uses; (56) sums to n = t where its descents stop at t - 1.
  ``ssca.steps`` checks both as printed and corrected, with the display (or the sentence) that follows.
* (4) bounds the step size rho^(t) from below only: values above 1, which it admits, make the surrogate (3) degenerate
  (:mod:`bounds.ssca.boundaries`), a gap in the hypotheses of Theorems 1-4.
* One fact at two places (:data:`bounds.ssca.remarks.PAIRS`): the number of sample subsets and of clients, the
  references of the feature-based SGD algorithms, Section IV's setting, the algorithms of Section V-B's (38), the
  item of Assumption 2 that gives strong convexity, and the horizon T against Figure 2's axis; one erratum each, its
  other place the pair's.
"""
from __future__ import annotations

from bounds.ssca.remarks import PAIRS
from repro.errata import CORRECTED, PRINTED, Erratum

ERRATA = (
    Erratum("ssca.lemma4.52", "Proof of Lemma 4 (Appendix A), (52)",
            "∇F̄ᵀ(ω̄ − ω) ≤ −µ‖ω̄ − ω‖ + F̄(ω̄) − F̄(ω) ≤ −µ‖ω̄ − ω‖",
            "(52) drops the squares: strong convexity gives -(mu/2)||w_bar - w||^2 in the middle and -mu||w_bar - "
            "w||^2 at the end, the form (53) uses.",
            correction="∇F̄ᵀ(ω̄ − ω) ≤ −(µ/2)‖ω̄ − ω‖² + F̄(ω̄) − F̄(ω) ≤ −µ‖ω̄ − ω‖²", options=(PRINTED, CORRECTED)),
    Erratum("ssca.thm24.73a", "Proof of Theorems 2 and 4 (Appendix B), (73a)",
            "∇ωF0(ω⋆j) + Σ_m λm∇ωF0(ω⋆j) = 0, (73a)",
            "(73a) writes lambda_m grad F_0 where the KKT conditions of (72), with (71), give lambda_m grad F_m; the "
            "sentence after (73) ('(73) and s*_j = 0 imply the KKT conditions of Problem 3') needs the latter.",
            correction="∇ωF0(ω⋆j) + Σ_m λm∇ωFm(ω⋆j) = 0", options=(PRINTED, CORRECTED)),
    Erratum("ssca.lemma3.squares", "Proof of Lemma 3 (Appendix A), (47)-(49)",
            "F̄(ω) − F̄(ω̄(t1)) ≥ (µ/2)‖ω − ω̄(t1)‖, ∀ω. (47)",
            "(47)-(49) print (mu/2)||.|| where strong convexity at a minimiser gives (mu/2)||.||^2; with the squares, "
            "(50)(a) bounds ||w_bar(t1) - w_bar(t2)||^2, not the norm, so (43) does not follow from (50) as the "
            "proof says.",
            explains=("ssca.step.proof_of_lemma_3.47", "ssca.step.proof_of_lemma_3.49")),
    Erratum("ssca.thm13.56", "Proof of Theorems 1 and 3 (Appendix A), (56)", "≤ −µ̄χ² Σ_{n=t0}^{t} γ(t)",
            "(56) sums gamma(t) for n = t0, ..., t where the descents it adds are those of n = t0, ..., t - 1: an "
            "off-by-one in the summation limit (and the summand's index).",
            correction="≤ −µ̄χ² Σ_{n=t0}^{t−1} γ(n)", options=(PRINTED, CORRECTED)),
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
    Erratum("ssca.eq4.rho_above_one", "(4), Section III-A", "ρ(t) > 0, lim_(t→∞) ρ(t) = 0, Σ_(t=1)^∞ ρ(t) = ∞ (4)",
            "(4) bounds rho^(t) from below only; at values above 1, which it admits (rho^(t) = a1/sqrt(t) with a1 >= "
            "1 + sqrt(2), gamma^(t) = 1/t^(9/10) meeting (6)), the surrogate (3) started from 0 puts the weight w_2 = "
            "1 - (1 - a1)(1 - a1/sqrt(2)) <= 0 on its strongly convex part, so "
            "Problem 2 has no minimiser and the uniform strong convexity the proofs of Theorems 1-4 use fails; "
            "rho^(t) in (0, 1] (Section VI's values) closes the gap.",
            explains=("ssca.boundary.rho_above_one",)),
) + tuple(Erratum(p.id, p.where, p.printed, f"{p.what[0].upper()}{p.what[1:]}: the two places disagree.",
                  other_place=f"{p.other_where}: '{p.other}'", explains=(p.id,)) for p in PAIRS)

#: each erratum's point in a few words, for the summary card (the sentences say it whole)
GISTS = {
    "ssca.section_v.assumption_1": "Assumption 1 fails: the swish network's loss has no Lipschitz gradient on R^d.",
    "ssca.section_v.assumption_2_4": "Assumption 2.4 fails: surrogates (7)/(11)/(15)/(22) are unbounded on R^d.",
    "ssca.section_v.compactness": "Theorems 2/4 need a compact set; (37)'s {omega : F(omega) <= U} is unbounded.",
    "ssca.eq4.rho_above_one": "(4) admits rho^(t) > 1, at which the surrogate can lose its strong convexity.",
    "ssca.lemma3.squares": "They print ||.|| for ||.||^2; with the squares (43) does not follow from (50).",
    "ssca.step.proof_of_theorems_1_and_3.67": "(67) does not follow from the first-order optimality it cites.",
    "ssca.lemma4.52": "(52) drops the squares that strong convexity gives and (53) uses.",
}
