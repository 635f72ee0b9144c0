"""PC-FedAvg's cross-references (issue 41 item 2): the patterns of its text and the tables typed from it, read by
:mod:`repro.crossrefs` (the resolution, the findings and the counts).

The tables quote the PDF's text (``pcfedavg_pdf.txt``: the HTML rendering ``pcfedavg.txt`` interleaves every formula
with its LaTeX source, so a label there is harder to find in prose). The paper states each result at the start of a
line as ``Lemma 4.1.``, ``Assumption 3.2.``, ``Proposition 4.7.`` (section-numbered), numbers a display by ``(12)``
at the end of its line, and heads its sections ``4 Methodology and Convergence Analysis``. Every display number
(1)-(12) is shown (``equations_complete``); the labelled displays "(CR)" are not numbers and are not resolved here.
Readings accepted: "Proof of Lemma 4.1" in the appendix cites the Lemma 4.1 of Section 4 (the appendix restates no
label). ``ENCODED`` is computed from the claims' locations (:func:`repro.crossrefs.encoded_labels`).
"""
from __future__ import annotations

from bounds.pcfedavg.claims import CLAIMS
from repro.crossrefs import Patterns, Ref, encoded_labels, problems

SOURCE = "pcfedavg_pdf.txt"
PATTERNS = Patterns(
    heading=r"^(\d+(\.\d+)*|[A-Z](\.\d+)*) [A-Z][A-Za-z ,-]{2,60}$",
    definition=r"^(?P<kind>Lemma|Theorem|Corollary|Assumption|Proposition|Remark|Definition) (?P<num>\d+\.\d+)\.",
    equation_tag=r"(?<![\w)\]])\((?P<num>[1-9]\d*[a-z]?)\)\s*$",
    equations_complete=True)
#: no statement is missing from the text
STATED_ELSEWHERE: tuple[Ref, ...] = ()
#: label -> the encoded claims that state it
ENCODED = encoded_labels(CLAIMS)


def findings() -> list:
    """The cross-reference findings of the paper (dangling citations, numbering drift, uses of a cited result it does
    not provide: :func:`repro.crossrefs.problems`)."""
    from bounds.pcfedavg.steps import STEPS
    from . import crossrefs as this
    return problems("pcfedavg", this, STEPS, CLAIMS)


# ---- the tables below are typed from the text (pcfedavg_pdf.txt) by repro.crossrefs.extract and
# render_rows; tests/test_crossrefs.py re-derives them from the text whenever it is at hand and fails on any difference.
#: every statement of a numbered result or display in the text: (label, where, the printed words)
TEXT_DEFINITIONS = tuple(Ref(*row) for row in (
    ('(1)', '1 Introduction', 's.t. xi ∈ Xi ⊆ Rn, ∀i ∈ [m], (1)'),
    ('Assumption 3.1', '3 Main Results', 'Assumption 3.1. For each agent i ∈ [m], assume that fi is Lf -smooth and convex. Further, each'),
    ('Assumption 3.2', '3 Main Results', 'Assumption 3.2. There exists ν ≥ 0 such that for all i ∈ [m], Eξi'),
    ('Assumption 3.3', '3 Main Results', 'Assumption 3.3. For each i ∈ [m], the set Xi ⊆ Rn is nonempty, closed, and convex.'),
    ('Theorem 3.4', '3 Main Results', 'Theorem 3.4. Consider Algorithm 1. Suppose Assumptions 3.1, 3.2, and 3.3 hold. Define'),
    ('Remark 3.5', '3 Main Results', 'Remark 3.5. Theorem 3.4 provides communication-complexity guarantees for solving problem (1).'),
    ('Remark 3.6', '3 Main Results', 'Remark 3.6. Since problem (1) is constrained, its optimal solution x∗ does not necessarily minimize'),
    ('(2)', '4 Methodology and Convergence Analysis', '2 ∥xi − ΠXi [xi]∥2 , (2)'),
    ('Lemma 4.1', '4 Methodology and Convergence Analysis', 'Lemma 4.1. Suppose Assumptions 3.1 and 3.3 hold. Then, for each i ∈ [m], Gi,ρ is LGi,ρ-smooth on'),
    ('Lemma 4.2', '4 Methodology and Convergence Analysis', 'Lemma 4.2. Suppose Assumptions 3.1 and 3.3 hold. Then, for each i ∈ [m], Gi,ρ is convex on'),
    ('Lemma 4.3', '4 Methodology and Convergence Analysis', 'Lemma 4.3. Consider Algorithm 1 and let Assumptions 3.1, 3.2, and 3.3 hold. Then, for m ≥ 2,'),
    ('(3)', '4 Methodology and Convergence Analysis, proof of Lemma 4.3', '(3)'),
    ('Lemma 4.4', '4 Methodology and Convergence Analysis', 'Lemma 4.4. Suppose that Assumptions 3.1, and 3.3 hold and consider Algorithm 1. Then the'),
    ('Lemma 4.5', '4 Methodology and Convergence Analysis', 'Lemma 4.5. Consider Algorithm 1. Assume that Assumptions 3.1, 3.2, and 3.3 hold, and that'),
    ('(4)', '4 Methodology and Convergence Analysis, proof of Lemma 4.5', '(4)'),
    ('(5)', '4 Methodology and Convergence Analysis, proof of Lemma 4.5', '. (5)'),
    ('(6)', '4 Methodology and Convergence Analysis, proof of Lemma 4.5', '. (6)'),
    ('Lemma 4.6', '4 Methodology and Convergence Analysis', 'Lemma 4.6. Consider Algorithm 1 and assume that Assumptions 3.1, 3.2, and 3.3 hold for some'),
    ('Proposition 4.7', '4 Methodology and Convergence Analysis', 'Proposition 4.7. Let m ≥ 2 and consider Algorithm 1. Assume that Assumptions 3.1, 3.2, and 3.3'),
    ('(7)', '4 Methodology and Convergence Analysis, proof of Proposition 4.7', 'm . (7)'),
    ('Proposition 4.8', '4 Methodology and Convergence Analysis', 'Proposition 4.8. Let Assumptions 3.1, 3.2, and 3.3 hold. Assume that x∗ ≜ [x∗'),
    ('(8)', '4 Methodology and Convergence Analysis, proof of Proposition 4.8', 'i ≤ E. (8)'),
    ('(9)', '4 Methodology and Convergence Analysis, proof of Proposition 4.8', '∇f(x∗)⊤E[x̄K∗ − x∗] ≤ E[f(x̄K∗) − f(x∗)] . (9)'),
    ('(10)', '4 Methodology and Convergence Analysis, proof of Proposition 4.8', 'i ≤ E. (10)'),
    ('(11)', '4 Methodology and Convergence Analysis, proof of Proposition 4.8', '≤ E. (11)'),
    ('(12)', '4 Methodology and Convergence Analysis, proof of Proposition 4.8', '2 . (12)'),
    ('Lemma 6.1', '6 CONCLUSION', 'Lemma 6.1. For any random vector X with a finite second moment, we have (a) E[∥X∥2] ='),
))
#: every citation in the text, in its order: (label, where, the printed words around it)
CITATIONS = tuple(Ref(*row) for row in (
    ('(1)', '2.2 Algorithm Outline', '2 ∥xi − x̄∥2 in (1).'),
    ('(1)', '3 Main Results', 'the main results for solving problem (1).'),
    ('Assumption 3.1', '3 Main Results', 'Theorem 3.4. Consider Algorithm 1. Suppose Assumptions 3.1, 3.2, and 3.3 hold. Define'),
    ('Assumption 3.2', '3 Main Results', 'Theorem 3.4. Consider Algorithm 1. Suppose Assumptions 3.1, 3.2, and 3.3 hold. Define'),
    ('Assumption 3.3', '3 Main Results', 'Theorem 3.4. Consider Algorithm 1. Suppose Assumptions 3.1, 3.2, and 3.3 hold. Define'),
    ('(1)', '3 Main Results', 'problem (1). Set K ≜ RH and let K∗ be a discrete uniform random variable on {0, . . . , K − 1},'),
    ('Theorem 3.4', '3 Main Results', 'Remark 3.5. Theorem 3.4 provides communication-complexity guarantees for solving problem (1).'),
    ('(1)', '3 Main Results', 'Remark 3.5. Theorem 3.4 provides communication-complexity guarantees for solving problem (1).'),
    ('Theorem 3.4', '3 Main Results', 'O(ϵ−1). In particular, Theorem 3.4 implies that the presence of personalized constraints does not'),
    ('(1)', '3 Main Results', 'Remark 3.6. Since problem (1) is constrained, its optimal solution x∗ does not necessarily minimize'),
    ('Theorem 3.4', '4 Methodology and Convergence Analysis', 'supporting lemmas and propositions that will be used to establish Theorem 3.4. To encode feasibility,'),
    ('Assumption 3.1', '4 Methodology and Convergence Analysis', 'Lemma 4.1. Suppose Assumptions 3.1 and 3.3 hold. Then, for each i ∈ [m], Gi,ρ is LGi,ρ-smooth on'),
    ('Assumption 3.3', '4 Methodology and Convergence Analysis', 'Lemma 4.1. Suppose Assumptions 3.1 and 3.3 hold. Then, for each i ∈ [m], Gi,ρ is LGi,ρ-smooth on'),
    ('Assumption 3.1', '4 Methodology and Convergence Analysis', 'Lemma 4.2. Suppose Assumptions 3.1 and 3.3 hold. Then, for each i ∈ [m], Gi,ρ is convex on'),
    ('Assumption 3.3', '4 Methodology and Convergence Analysis', 'Lemma 4.2. Suppose Assumptions 3.1 and 3.3 hold. Then, for each i ∈ [m], Gi,ρ is convex on'),
    ('Assumption 3.1', '4 Methodology and Convergence Analysis', 'Lemma 4.3. Consider Algorithm 1 and let Assumptions 3.1, 3.2, and 3.3 hold. Then, for m ≥ 2,'),
    ('Assumption 3.2', '4 Methodology and Convergence Analysis', 'Lemma 4.3. Consider Algorithm 1 and let Assumptions 3.1, 3.2, and 3.3 hold. Then, for m ≥ 2,'),
    ('Assumption 3.3', '4 Methodology and Convergence Analysis', 'Lemma 4.3. Consider Algorithm 1 and let Assumptions 3.1, 3.2, and 3.3 hold. Then, for m ≥ 2,'),
    ('Lemma 4.1', '4 Methodology and Convergence Analysis, proof of Lemma 4.3', 'Invoking Lemma 4.1, we obtain'),
    ('Assumption 3.2', '4 Methodology and Convergence Analysis, proof of Lemma 4.3', 'Invoking Assumption 3.2, we obtain'),
    ('Lemma 4.1', '4 Methodology and Convergence Analysis, proof of Lemma 4.3', 'ρ) to the last term and invoke Lemmas 4.1 and 4.2 for the last'),
    ('Lemma 4.2', '4 Methodology and Convergence Analysis, proof of Lemma 4.3', 'ρ) to the last term and invoke Lemmas 4.1 and 4.2 for the last'),
    ('(3)', '4 Methodology and Convergence Analysis, proof of Lemma 4.3', 'Substituting into (3) yields the desired result.'),
    ('Assumption 3.1', '4 Methodology and Convergence Analysis', 'Lemma 4.4. Suppose that Assumptions 3.1, and 3.3 hold and consider Algorithm 1. Then the'),
    ('Assumption 3.3', '4 Methodology and Convergence Analysis', 'Lemma 4.4. Suppose that Assumptions 3.1, and 3.3 hold and consider Algorithm 1. Then the'),
    ('Lemma 4.1', '4 Methodology and Convergence Analysis, proof of Lemma 4.4', 'Invoking Lemmas 4.1 and 4.2, we obtain'),
    ('Lemma 4.2', '4 Methodology and Convergence Analysis, proof of Lemma 4.4', 'Invoking Lemmas 4.1 and 4.2, we obtain'),
    ('Assumption 3.1', '4 Methodology and Convergence Analysis', 'Lemma 4.5. Consider Algorithm 1. Assume that Assumptions 3.1, 3.2, and 3.3 hold, and that'),
    ('Assumption 3.2', '4 Methodology and Convergence Analysis', 'Lemma 4.5. Consider Algorithm 1. Assume that Assumptions 3.1, 3.2, and 3.3 hold, and that'),
    ('Assumption 3.3', '4 Methodology and Convergence Analysis', 'Lemma 4.5. Consider Algorithm 1. Assume that Assumptions 3.1, 3.2, and 3.3 hold, and that'),
    ('(4)', '4 Methodology and Convergence Analysis, proof of Lemma 4.5', 'Substituting the preceding bound into (4) and noting that k − Tr ≤ Tr+1 − Tr − 1 ≤ H − 1, we'),
    ('Lemma 4.1', '4 Methodology and Convergence Analysis, proof of Lemma 4.5', 'By Lemmas 4.1 and 4.2, Gi,ρ is LGρ-smooth and convex. Invoking the fact that 1'),
    ('Lemma 4.2', '4 Methodology and Convergence Analysis, proof of Lemma 4.5', 'By Lemmas 4.1 and 4.2, Gi,ρ is LGρ-smooth and convex. Invoking the fact that 1'),
    ('Lemma 4.1', '4 Methodology and Convergence Analysis, proof of Lemma 4.5', 'Incorporating the preceding bound into (6), invoking Lemma 4.1 and the definition of M , we obtain'),
    ('(6)', '4 Methodology and Convergence Analysis, proof of Lemma 4.5', 'Incorporating the preceding bound into (6), invoking Lemma 4.1 and the definition of M , we obtain'),
    ('Assumption 3.2', '4 Methodology and Convergence Analysis, proof of Lemma 4.5', 'By Assumption 3.2 and ∥A∥2 = 1'),
    ('(5)', '4 Methodology and Convergence Analysis, proof of Lemma 4.5', 'Substituting the preceding bound into (5) and rearranging the terms, we obtain'),
    ('Assumption 3.1', '4 Methodology and Convergence Analysis', 'Lemma 4.6. Consider Algorithm 1 and assume that Assumptions 3.1, 3.2, and 3.3 hold for some'),
    ('Assumption 3.2', '4 Methodology and Convergence Analysis', 'Lemma 4.6. Consider Algorithm 1 and assume that Assumptions 3.1, 3.2, and 3.3 hold for some'),
    ('Assumption 3.3', '4 Methodology and Convergence Analysis', 'Lemma 4.6. Consider Algorithm 1 and assume that Assumptions 3.1, 3.2, and 3.3 hold for some'),
    ('Lemma 4.4', '4 Methodology and Convergence Analysis, proof of Lemma 4.6', 'ρ are Fk-measurable, and invoking Lemma 4.4, we obtain'),
    ('Lemma 4.3', '4 Methodology and Convergence Analysis, proof of Lemma 4.6', 'Taking another expectation on both sides and invoking Lemma 4.3, we obtain'),
    ('Proposition 4.8', '4 Methodology and Convergence Analysis, proof of Lemma 4.6', 'bound is used to prove the main results for problem (1) in Proposition 4.8 and Theorem 3.4.'),
    ('Theorem 3.4', '4 Methodology and Convergence Analysis, proof of Lemma 4.6', 'bound is used to prove the main results for problem (1) in Proposition 4.8 and Theorem 3.4.'),
    ('(1)', '4 Methodology and Convergence Analysis, proof of Lemma 4.6', 'bound is used to prove the main results for problem (1) in Proposition 4.8 and Theorem 3.4.'),
    ('Assumption 3.1', '4 Methodology and Convergence Analysis', 'Proposition 4.7. Let m ≥ 2 and consider Algorithm 1. Assume that Assumptions 3.1, 3.2, and 3.3'),
    ('Assumption 3.2', '4 Methodology and Convergence Analysis', 'Proposition 4.7. Let m ≥ 2 and consider Algorithm 1. Assume that Assumptions 3.1, 3.2, and 3.3'),
    ('Assumption 3.3', '4 Methodology and Convergence Analysis', 'Proposition 4.7. Let m ≥ 2 and consider Algorithm 1. Assume that Assumptions 3.1, 3.2, and 3.3'),
    ('Lemma 4.6', '4 Methodology and Convergence Analysis, proof of Proposition 4.7', 'Proof. As we mentioned, let K ≜ HR. Summing both sides of Lemma 4.6 over k = 0, . . . , K − 1,'),
    ('Lemma 4.5', '4 Methodology and Convergence Analysis, proof of Proposition 4.7', 'Since K = Tr for some r ∈ N, applying Lemma 4.5 to the second term, we obtain'),
    ('(7)', '4 Methodology and Convergence Analysis, proof of Proposition 4.7', 'this bound into the preceding inequality, then into (7), and rearranging terms, we obtain'),
    ('(1)', '4 Methodology and Convergence Analysis, proof of Proposition 4.7', 'together with agent-wise infeasibility bounds in addressing problem (1). These bounds are used to'),
    ('Theorem 3.4', '4 Methodology and Convergence Analysis, proof of Proposition 4.7', 'derive the communication complexity guarantees in Theorem 3.4.'),
    ('Assumption 3.1', '4 Methodology and Convergence Analysis', 'Proposition 4.8. Let Assumptions 3.1, 3.2, and 3.3 hold. Assume that x∗ ≜ [x∗'),
    ('Assumption 3.2', '4 Methodology and Convergence Analysis', 'Proposition 4.8. Let Assumptions 3.1, 3.2, and 3.3 hold. Assume that x∗ ≜ [x∗'),
    ('Assumption 3.3', '4 Methodology and Convergence Analysis', 'Proposition 4.8. Let Assumptions 3.1, 3.2, and 3.3 hold. Assume that x∗ ≜ [x∗'),
    ('(1)', '4 Methodology and Convergence Analysis', 'mal solution of problem (1) and ρ > 0 is the penalty parameter. Suppose that maxr |Tr+1 − Tr| ≤ H'),
    ('Proposition 4.7', '4 Methodology and Convergence Analysis, proof of Proposition 4.8', 'Invoking the definition of H(x), Proposition 4.7, and letting E denote the resulting bound on'),
    ('(1)', '4 Methodology and Convergence Analysis, proof of Proposition 4.8', 'Note that ∇f(x∗)⊤E[x̄K∗ − x∗] is not necessarily nonnegative because problem (1) is a constrained'),
    ('(8)', '4 Methodology and Convergence Analysis, proof of Proposition 4.8', 'Substituting the preceding lower bound into (8), we obtain'),
    ('(10)', '4 Methodology and Convergence Analysis, proof of Proposition 4.8', ', and (10),'),
    ('(12)', '4 Methodology and Convergence Analysis, proof of Proposition 4.8', 'Invoking the bound in (12), we obtain the desired result.'),
    ('Theorem 3.4', '4 Methodology and Convergence Analysis, proof of Theorem 3.4', 'Proof of Theorem 3.4. For the suboptimality upper-bound, we invoke part (i) of Proposi-'),
    ('Lemma 4.1', '6 CONCLUSION, proof of Lemma 4.1', 'Proof of Lemma 4.1 Since fi is Lf -smooth, ∇fi is Lf -Lipschitz. For all x, y ∈ Rmn, we have'),
    ('Lemma 4.2', '6 CONCLUSION, proof of Lemma 4.2', 'Proof of Lemma 4.2 Convexity of fi(Ax): Let x, y ∈ Rmn and θ ∈ [0, 1]. Since A is linear, we'),
))
#: where each label is stated: in the text, and (STATED_ELSEWHERE) where the text lost the statement
DEFINITIONS = TEXT_DEFINITIONS + STATED_ELSEWHERE
