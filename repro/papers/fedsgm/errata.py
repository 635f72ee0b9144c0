"""FedSGM's errata and open choices, as its text gives them (:mod:`repro.errata`): data typed from the paper, whose
kinds and consequences the suite computes.

* Theorem 7's display 9 prints eta E G^2 T/3 where display 8 summed over the rounds gives eta E^2 G^2 T/3; the next
  display, (10), uses the E^2 form (its Gamma has E^2/3), and so does the same display in the proof of Theorem 9.
  ``fedsgm.steps`` checks display 9 and (10) line 1 on both sides (:data:`bounds.fedsgm.steps.D9`).
* Theorem 2's eps (Theorem 1's, which the hard proofs cover) against the eps the proof of Theorem 7 chooses: one
  root cause, of which the condition on beta (finding ``fedsgm.soft.beta``) is a consequence.
* Theorems 1, 2, 6 and 7 are stated for every run; with compression their proofs bound an expectation over the
  compressors only (finding ``fedsgm.mode``).
* Theorem 7 is stated under Assumption 1 only; its proof uses Lemma 3, which needs Assumption 2, as Theorem 2 (its
  main-text statement) says.
* The observation before (18) in the proof of Theorem 9 states another lower bound than the same observation before
  (10) in the proof of Theorem 7 (finding ``fedsgm.pair.observation``); only the latter gives (18).
* Figure 1's bias column and which class is the objective are not printed (Section 4.1): Figure 1's statements are
  decided under each admissible value (``fedsgm.figure1`` runs all four).
"""
from __future__ import annotations

from repro.errata import CORRECTED, PRINTED, Choice, Erratum
from repro.papers.fedsgm.runs.theorems import FIGURE1_VARIANTS

ERRATA = (
    Erratum("fedsgm.thm7.display9", "Proof of Theorem 7 (Appendix A.2.2), display 9",
            "D²/(2ηE) + (η/2)(q_u/n+1)EG²T + ηG²T + (1/3)ηEG²T ≥ ...",
            "Display 9 prints (1/3) eta E G^2 T where summing display 8 over the rounds gives (1/3) eta E^2 G^2 T.",
            correction="(1/3) eta E^2 G^2 T, as (10)'s Gamma = (1/2)(q_u/n + 1) E + 1 + (1/3) E^2 and the same display "
                       "of Theorem 9's proof have it", options=(PRINTED, CORRECTED)),
    Erratum("fedsgm.soft.eps", "Theorem 2 (Section 3); proof of Theorem 7 (Appendix A.2.2)",
            "ε = √(2D²G²Γ/(ET)), Γ = 2E² + Eq_u/(2n)",
            "Theorems 2, 7 and 9 state an eps smaller than the eps = 2 sqrt(2 D^2 G^2 Gamma/(E T)) their proof "
            "chooses wherever the stated Gamma is below 4 times the proof's (e.g. every E <= 4), so the proof does not "
            "establish them as stated (and beta >= 2/eps no longer suffices for its step 4).",
            explains=("fedsgm.soft.eps", "fedsgm.soft.beta")),
    Erratum("fedsgm.mode", "Theorems 1 and 2 (Section 3); Theorems 6 and 7 (Appendix A)",
            "then A is nonempty, w̄ is well-defined, and w̄ is an ε-solution of (1)",
            "Theorems 1, 2, 6 and 7 state their conclusion for every run, but with compression the run is random "
            "and their proofs bound only its expectation over the compressors.",
            explains=("fedsgm.mode", "fedsgm.failsearch")),
    Erratum("fedsgm.thm7.assumptions", "Theorem 7 (Appendix A.2.2)", "under Assumption 1",
            "Theorem 7 is stated under Assumption 1 only, but its proof uses Lemma 3, which needs Assumption 2.",
            correction="under Assumptions 1 and 2", other_place="Theorem 2 (Section 3): 'under Assumptions 1 and 2 "
                                                                "(only for compression)'",
            explains=("fedsgm.thm7.assumptions",)),
    Erratum("fedsgm.thm9.observation", "Proof of Theorem 9 (Appendix A.3.2), the observation before (18)",
            "for all t ∈ A if σ_β(g(w_t) − ε) ≥ 0 it holds that g(w_t) − g(w*) ≥ g(w_t) − ε − 1/β",
            "The proof of Theorem 9 bounds g(w_t) − g(w*) below by g(w_t) − ε − 1/β, where the same observation in "
            "the proof of Theorem 7 has ε − 1/β, the bound (18) uses; from the printed one (18)'s second line does "
            "not follow.",
            correction="g(w_t) − g(w*) ≥ g(w_t) ≥ ε − 1/β wherever σ_β(g(w_t) − ε) > 0, as in the proof of Theorem 7",
            other_place="Proof of Theorem 7 (Appendix A.2.2): 'for all t ∈ A if σ_β(g(w_t) − ε) ≥ 0 it holds that "
                        "g(w_t) − g(w*) ≥ g(w_t) ≥ ε − 1/β'",
            explains=("fedsgm.pair.observation",)),
)

CHOICES = (
    Choice("fedsgm.bias", "Section 4.1", "We use the breast cancer dataset [37], containing 569 samples with 30 "
           "features", "Figure 1's model may or may not append a bias feature; the paper does not say.",
           ("with a bias feature", "without a bias feature"),
           "the 30 features are all the paper names; a bias column is the usual default of logistic regression"),
    Choice("fedsgm.labels", "Section 4.1", "D_j^(0) and D_j^(1) denote local samples of class 0 and class 1 ... "
           "the objective is to minimize the empirical loss on the majority class",
           "Which class is the objective: class 0 as the data set codes it (malignant, the minority) or the majority "
           "class the prose names (benign).", ("objective on class 0 (malignant)", "objective on the majority class"),
           "the paper names class 0 and the majority class for the objective; the data set's class 0 is the minority"),
)

#: the (bias, objective class) reading of each ``fedsgm.figure1`` variant, from the overrides it runs with
FIGURE1_READINGS = {variant: (CHOICES[0].options[not overrides.get("bias", True)],
                              CHOICES[1].options[overrides.get("labels") == "flipped"])
                    for variant, overrides in FIGURE1_VARIANTS.items()}

#: each erratum's point in a few words, for the summary card (the sentence above says it whole)
GISTS = {
    "fedsgm.mode": "Stated for every run; with compression, their proofs bound only an expectation.",
    "fedsgm.soft.eps": "Theorems 2, 7, 9 state eps below their proof's choice (e.g. E <= 4).",
    "fedsgm.bias": "Whether Figure 1's model has a bias feature is not said.",
    "fedsgm.labels": "(2)'s objective is class 0, the data set's minority; the prose says the majority.",
    "fedsgm.thm7.display9": "(1/3) eta E G^2 T should read (1/3) eta E^2 G^2 T.",
}
