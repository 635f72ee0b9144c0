"""FedSGM's cross-references (issue 41 item 2): the patterns of its text and the tables typed from it, read by
:mod:`repro.crossrefs` (the resolution, the findings and the counts).

The text (Markdown) states each result as ``**Lemma 3 (Bound on the Expected Norm of Compressed Aggregates)**``,
``**Assumption 1**``, and numbers a display as ``\\tag{5}`` or ``\\quad (3)$$`` at its end; its sections are the
Markdown headings (``## A.2. Main Theorem FedSGM—Unbiased Compression``). Every display number (1)-(18) is shown, so
an equation cited and never shown would be dangling (``equations_complete``). Readings accepted: "using Lemmas 3 and
the fact that" (proof of Theorem 7, Appendix A.2.2) cites Lemma 3 (a plural with one label); the main text's Theorems 1
and 2 and the appendix's Theorems 6-9 are different statements (Theorem 1 joins the compressed and uncompressed cases
that Theorems 6 and 8 state apart, with the indicator "1_{Unbiased Compression}" in Gamma), not one result under two
numbers. ``ENCODED`` is computed from the claims' locations (:func:`repro.crossrefs.encoded_labels`).
"""
from __future__ import annotations

from bounds.fedsgm.claims import CLAIMS
from repro.crossrefs import Patterns, Ref, encoded_labels, problems

SOURCE = "fedsgm.md"
PATTERNS = Patterns(
    heading=r"^#+ ",
    definition=r"^\*\*(?P<kind>Lemma|Theorem|Corollary|Assumption|Proposition|Remark|Definition) (?P<num>\d+)\b",
    equation_tag=r"(?:\\tag\{|\\quad \()(?P<num>[1-9]\d*)[})],?\s*\$\$",
    equations_complete=True)
#: no statement is missing from the text
STATED_ELSEWHERE: tuple[Ref, ...] = ()
#: label -> the encoded claims that state it
ENCODED = encoded_labels(CLAIMS)


def findings() -> list:
    """The cross-reference findings of the paper (dangling citations, numbering drift, uses of a cited result it does
    not provide: :func:`repro.crossrefs.problems`)."""
    from bounds.fedsgm.steps import STEPS
    from . import crossrefs as this
    return problems("fedsgm", this, STEPS, CLAIMS)


# ---- the tables below are typed from the text (fedsgm.md) by repro.crossrefs.extract and
# render_rows; tests/test_crossrefs.py re-derives them from the text whenever it is at hand and fails on any difference.
#: every statement of a numbered result or display in the text: (label, where, the printed words)
TEXT_DEFINITIONS = tuple(Ref(*row) for row in (
    ('(1)', '## 1. Introduction', 'f_j(w) \\quad \\text{s.t.} \\quad g(w) := \\frac{1}{n} \\sum_{j=1}^n g_j(w) \\leq 0 \\right\\}, \\quad (1)$$'),
    ('Assumption 1', '## 2. Problem Setup and Preliminaries', '**Assumption 1** *Each function  $f_j$  and  $g_j$  is convex and  $G$ -Lipschitz continuous in  $\\mathbb{R}^d$ .'),
    ('Assumption 2', '## 2. Problem Setup and Preliminaries', '**Assumption 2 (Unbiased Compression)** *Each client  $j \\in [n]$  uses an independent stochastic operator'),
    ('Theorem 1', '## 3. FEDSGM: Federated Switching Gradient Methods', '**Theorem 1 (Hard switching FEDSGM)** *Consider the problem in (1) and Algorithm 1, under Assumptions 1 and 2 (only for'),
    ('Theorem 2', '## 3. FEDSGM: Federated Switching Gradient Methods', '**Theorem 2 (Soft switching FEDSGM)** *Consider the problem in (1) and Algorithm 1, under Assumptions 1 and 2 (only for'),
    ('(2)', '### 4.1. NP Classification', '0)), \\quad g_j(w) := \\frac{1}{m_{j1}} \\sum_{x \\in \\mathcal{D}_j^{(1)}} \\phi(w; (x, 1)), \\quad (2)$$'),
    ('(3)', '### 4.1. NP Classification', '(x, y)) = -y w^\\top x + \\log\\left(1 + e^{w^\\top x}\\right), \\quad y \\in \\{0, 1\\}. \\quad (3)$$'),
    ('Lemma 3', '### A.1. Lemmas', '**Lemma 3 (Bound on the Expected Norm of Compressed Aggregates)** *Under Assumptions 1 and 2, for all rounds  $t \\in'),
    ('Lemma 4', '### A.1. Lemmas', '**Lemma 4 (Inner Product Bound under Compression and Switching)** *Under Assumptions 1 and 2, for all rounds  $t \\in'),
    ('Lemma 5', '### A.1. Lemmas', '**Lemma 5 (Global-local iterate bound)** *Under Assumptions 1, for all rounds  $t \\in [T]$ , the following bound holds,*'),
    ('Theorem 6', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION', '**Theorem 6 (FedSGCM)** *Consider the problem in eq. (1) and Algorithm 1, under Assumptions 1 and 2. Define  $D :='),
    ('(4)', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 6', '\\sum_{j=1}^n \\mathcal{C}_j \\left( \\sum_{\\tau=0}^{E-1} \\nu_{j,\\tau}^t \\right), \\quad (4)$$'),
    ('(5)', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 6', '\\end{aligned} \\tag{5}$$'),
    ('(6)', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 6', '$$f(\\bar{w}) - f(w^*) \\leq 0 < \\epsilon, \\quad g(\\bar{w}) \\leq \\epsilon. \\quad (6)$$'),
    ('(7)', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 6', '(f(\\bar{w}) - f(w^*)) + \\left(1 - \\frac{|\\mathcal{A}|}{T}\\right) \\epsilon. \\end{aligned} \\quad (7)$$'),
    ('(8)', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 6', '< \\sqrt{\\frac{2D^2G^2\\Gamma}{ET}} - \\epsilon \\leq -N \\sqrt{\\frac{2D^2G^2\\Gamma}{ET}}, \\quad (8)$$'),
    ('Theorem 7', '## A.2.2. SOFT SWITCHING — FULL PARTICIPATION', '**Theorem 7 (FedSSGCM)** Consider the problem in (1) and Algorithm 1, under Assumption 1. Define  $D := \\|w_0 - w^*\\|$'),
    ('(9)', '## A.2.2. SOFT SWITCHING — FULL PARTICIPATION', '- \\epsilon)}{\\sum_{t \\in \\mathcal{A}} [1 - \\sigma_\\beta(g(w_t) - \\epsilon)]}. \\quad (9)$$'),
    ('(10)', '## A.2.2. SOFT SWITCHING — FULL PARTICIPATION, proof of Theorem 7', '- \\frac{1}{\\beta} \\right) \\sum_{t \\in \\mathcal{A}} \\sigma_\\beta^t. \\end{aligned} \\quad (10)$$'),
    ('Theorem 8', '#### A.3.1. HARD SWITCHING — FULL PARTICIPATION', '**Theorem 8 (FedHSGM)** *Consider the problem in eq. (1), under Assumption 1. Define  $D := \\|w_0 - w^*\\|$  and*'),
    ('(11)', '#### A.3.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 8', '$$w_{t+1} = w_t - \\eta \\cdot \\frac{1}{n} \\sum_{j=1}^n \\sum_{\\tau=0}^{E-1} \\nu_{j,\\tau}^t, \\quad (11)$$'),
    ('(12)', '#### A.3.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 8', '(g_j(w^*) - g_j(w_{j,\\tau}^t)) \\mathbb{1}\\{t \\in \\mathcal{B}\\}. \\end{aligned} \\quad (12)$$'),
    ('(13)', '#### A.3.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 8', '$$f(\\bar{w}) - f(w^*) \\leq 0 < \\epsilon, \\quad g(\\bar{w}) \\leq \\epsilon. \\quad (13)$$'),
    ('(14)', '#### A.3.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 8', '\\end{aligned} \\tag{14}$$'),
    ('(15)', '#### A.3.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 8', '< \\sqrt{\\frac{2D^2G^2\\Gamma}{ET}} - \\epsilon \\leq -N \\sqrt{\\frac{2D^2G^2\\Gamma}{ET}}, \\tag{15}$$'),
    ('Theorem 9', '### A.3.2. SOFT SWITCHING — FULL PARTICIPATION', '**Theorem 9 (FedSSGM)** *Consider the problem in (1) and Algorithm 1, under Assumption 1. Define  $D := \\|w_0 - w^*\\|$'),
    ('(16)', '### A.3.2. SOFT SWITCHING — FULL PARTICIPATION', '- \\epsilon)}{\\sum_{t \\in \\mathcal{A}} [1 - \\sigma_\\beta(g(w_t) - \\epsilon)]}. \\tag{16}$$'),
    ('(17)', '### A.3.2. SOFT SWITCHING — FULL PARTICIPATION, proof of Theorem 9', '\\end{aligned} \\tag{17}$$'),
    ('(18)', '### A.3.2. SOFT SWITCHING — FULL PARTICIPATION, proof of Theorem 9', '- \\frac{1}{\\beta} \\right) \\sum_{t \\in \\mathcal{A}} \\sigma_\\beta^t. \\end{aligned} \\tag{18}$$'),
))
#: every citation in the text, in its order: (label, where, the printed words around it)
CITATIONS = tuple(Ref(*row) for row in (
    ('(1)', '## 1. Introduction', 'Still, solving (1) in realistic deployment scenarios remains challenging. We highlight three primary'),
    ('Theorem 2', '## Contributions.', 'and  $\\nabla g$  via a smooth weighting function based on the magnitude of violation. Theorem 2 recovers the hard switching regime while improving stability near the feasibility'),
    ('(1)', '## 2. Problem Setup and Preliminaries', 'In this work, we consider the problem defined in (1), which is a standard constrained optimization problem in the FL setting, where  $f_j :'),
    ('Assumption 1', '## 3. FEDSGM: Federated Switching Gradient Methods', '**Theorem 1 (Hard switching FEDSGM)** *Consider the problem in (1) and Algorithm 1, under Assumptions 1 and 2 (only for compression). Let  $D := \\|w_0 - w^*\\|$  and define*'),
    ('Assumption 2', '## 3. FEDSGM: Federated Switching Gradient Methods', '**Theorem 1 (Hard switching FEDSGM)** *Consider the problem in (1) and Algorithm 1, under Assumptions 1 and 2 (only for compression). Let  $D := \\|w_0 - w^*\\|$  and define*'),
    ('(1)', '## 3. FEDSGM: Federated Switching Gradient Methods', '**Theorem 1 (Hard switching FEDSGM)** *Consider the problem in (1) and Algorithm 1, under Assumptions 1 and 2 (only for compression). Let  $D := \\|w_0 -'),
    ('(1)', '## 3. FEDSGM: Federated Switching Gradient Methods', 'is nonempty,  $\\bar{w}$  is well-defined, and  $\\bar{w}$  is an  $\\epsilon$ -solution of (1).'),
    ('Assumption 1', '## 3. FEDSGM: Federated Switching Gradient Methods', '**Theorem 2 (Soft switching FEDSGM)** *Consider the problem in (1) and Algorithm 1, under Assumptions 1 and 2 (only for compression). Let  $D := \\|w_0 - w^*\\|$  and define*'),
    ('Assumption 2', '## 3. FEDSGM: Federated Switching Gradient Methods', '**Theorem 2 (Soft switching FEDSGM)** *Consider the problem in (1) and Algorithm 1, under Assumptions 1 and 2 (only for compression). Let  $D := \\|w_0 - w^*\\|$  and define*'),
    ('(1)', '## 3. FEDSGM: Federated Switching Gradient Methods', '**Theorem 2 (Soft switching FEDSGM)** *Consider the problem in (1) and Algorithm 1, under Assumptions 1 and 2 (only for compression). Let  $D := \\|w_0 -'),
    ('(1)', '## 3. FEDSGM: Federated Switching Gradient Methods', 'is nonempty,  $\\bar{w}$  is well-defined, and  $\\bar{w}$  is an  $\\epsilon$ -solution of (1).'),
    ('Theorem 1', '## 3. FEDSGM: Federated Switching Gradient Methods', 'are present in the Appendix A. Now, we discuss the implications of the statement of Theorems 1 and 2.'),
    ('Theorem 2', '## 3. FEDSGM: Federated Switching Gradient Methods', 'are present in the Appendix A. Now, we discuss the implications of the statement of Theorems 1 and 2.'),
    ('Theorem 1', '## 3. FEDSGM: Federated Switching Gradient Methods', 'E = 1$ , **i.e., centralized with no compression**: In this case, we can infer from Theorems 1 and 2, that rates we receive is  $\\mathcal{O}\\left(DG/\\sqrt{T}\\right)$ , corresponding to the'),
    ('Theorem 2', '## 3. FEDSGM: Federated Switching Gradient Methods', 'E = 1$ , **i.e., centralized with no compression**: In this case, we can infer from Theorems 1 and 2, that rates we receive is  $\\mathcal{O}\\left(DG/\\sqrt{T}\\right)$ , corresponding to the'),
    ('Theorem 1', '## 3. FEDSGM: Federated Switching Gradient Methods', '**i.e., FEDSGM w/ full participation w/o compression**: In this case, we can infer from Theorems 1 and 2 that the sub-optimality gap and constraint value diminish at the rate of'),
    ('Theorem 2', '## 3. FEDSGM: Federated Switching Gradient Methods', '**i.e., FEDSGM w/ full participation w/o compression**: In this case, we can infer from Theorems 1 and 2 that the sub-optimality gap and constraint value diminish at the rate of'),
    ('(1)', '### 4.1. NP Classification', 'We consider the constrained optimization problem in (1), where the objective is to minimize the empirical loss on the majority class while'),
    ('Assumption 1', '### A.1. Lemmas', '**Lemma 3 (Bound on the Expected Norm of Compressed Aggregates)** *Under Assumptions 1 and 2, for all rounds  $t \\in [T]$ , the following bound holds,*'),
    ('Assumption 2', '### A.1. Lemmas', '**Lemma 3 (Bound on the Expected Norm of Compressed Aggregates)** *Under Assumptions 1 and 2, for all rounds  $t \\in [T]$ , the following bound holds,*'),
    ('Assumption 2', '### A.1. Lemmas, proof of Lemma 3', 'the inequality uses independence across  $j$  and linearity of expectation. Applying Assumption 2 (variance bound of the compression operator),  $\\mathbb{E}_{\\mathcal{C}_j}'),
    ('Assumption 1', '### A.1. Lemmas', '**Lemma 4 (Inner Product Bound under Compression and Switching)** *Under Assumptions 1 and 2, for all rounds  $t \\in [T]$ , the following bound holds,*'),
    ('Assumption 2', '### A.1. Lemmas', '**Lemma 4 (Inner Product Bound under Compression and Switching)** *Under Assumptions 1 and 2, for all rounds  $t \\in [T]$ , the following bound holds,*'),
    ('Assumption 1', '### A.1. Lemmas', '**Lemma 5 (Global-local iterate bound)** *Under Assumptions 1, for all rounds  $t \\in [T]$ , the following bound holds,*'),
    ('Assumption 1', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION', '**Theorem 6 (FedSGCM)** *Consider the problem in eq. (1) and Algorithm 1, under Assumptions 1 and 2. Define  $D := \\|w_0 - w^*\\|$  and*'),
    ('Assumption 2', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION', '**Theorem 6 (FedSGCM)** *Consider the problem in eq. (1) and Algorithm 1, under Assumptions 1 and 2. Define  $D := \\|w_0 - w^*\\|$  and*'),
    ('(1)', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION', '**Theorem 6 (FedSGCM)** *Consider the problem in eq. (1) and Algorithm 1, under Assumptions 1 and 2. Define  $D := \\|w_0 - w^*\\|$  and*'),
    ('Lemma 3', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 6', 'the expectation with respect to the compression operator  $\\mathcal{C}_j$  and using Lemmas 3 and 4, we get'),
    ('Lemma 4', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 6', 'the expectation with respect to the compression operator  $\\mathcal{C}_j$  and using Lemmas 3 and 4, we get'),
    ('Lemma 5', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 6', 'So, putting these inequalities back in eq. (5) along with the use of Lemma 5 and eq. (1), we get'),
    ('(5)', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 6', 'So, putting these inequalities back in eq. (5) along with the use of Lemma 5 and eq. (1), we get'),
    ('(1)', '### A.2.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 6', 'So, putting these inequalities back in eq. (5) along with the use of Lemma 5 and eq. (1), we get'),
    ('Assumption 1', '## A.2.2. SOFT SWITCHING — FULL PARTICIPATION', '**Theorem 7 (FedSSGCM)** Consider the problem in (1) and Algorithm 1, under Assumption 1. Define  $D := \\|w_0 - w^*\\|$  and'),
    ('(1)', '## A.2.2. SOFT SWITCHING — FULL PARTICIPATION', '**Theorem 7 (FedSSGCM)** Consider the problem in (1) and Algorithm 1, under Assumption 1. Define  $D := \\|w_0 - w^*\\|$  and'),
    ('Lemma 3', '## A.2.2. SOFT SWITCHING — FULL PARTICIPATION, proof of Theorem 7', 'the expectation with respect to the compression operator  $\\mathcal{C}_j$  and using Lemmas 3 and the fact that  $\\sigma_\\beta(\\cdot) \\in [0, 1]$ , we have'),
    ('Lemma 5', '## A.2.2. SOFT SWITCHING — FULL PARTICIPATION, proof of Theorem 7', '&\\stackrel{\\text{Lemma 5}}{\\leq} \\frac{2}{3\\alpha} \\eta^3 E^3 G^2 + 2\\eta\\alpha E G^2 + 2\\eta E \\sigma_\\beta^t'),
    ('(10)', '## A.2.2. SOFT SWITCHING — FULL PARTICIPATION, proof of Theorem 7', 'So, to find a lower bound on  $\\epsilon$ , assume  $\\mathcal{A}$  is empty in eq. (10) and observe that as long as condition  $\\sqrt{\\frac{2D^2G^2\\Gamma}{ET}} < \\epsilon$  is'),
    ('(10)', '## A.2.2. SOFT SWITCHING — FULL PARTICIPATION, proof of Theorem 7', 'Assuming the sum is positive, dividing eq. (10) by  $\\sum_{t \\in \\mathcal{A}} (1 - \\sigma_\\beta^t)$  (which by the definition of'),
    ('Assumption 1', '#### A.3.1. HARD SWITCHING — FULL PARTICIPATION', '**Theorem 8 (FedHSGM)** *Consider the problem in eq. (1), under Assumption 1. Define  $D := \\|w_0 - w^*\\|$  and*'),
    ('(1)', '#### A.3.1. HARD SWITCHING — FULL PARTICIPATION', '**Theorem 8 (FedHSGM)** *Consider the problem in eq. (1), under Assumption 1. Define  $D := \\|w_0 - w^*\\|$  and*'),
    ('Lemma 4', '#### A.3.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 8', 'Now we can use Lemma 4 to bound  $Term - B$ . So, putting  $Term - A$  and  $Term - B$  back into the'),
    ('Lemma 5', '#### A.3.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 8', 'So, putting these inequalities back in eq. (12) along with the use of Lemma 5 and eq. (1), we get'),
    ('(12)', '#### A.3.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 8', 'So, putting these inequalities back in eq. (12) along with the use of Lemma 5 and eq. (1), we get'),
    ('(1)', '#### A.3.1. HARD SWITCHING — FULL PARTICIPATION, proof of Theorem 8', 'So, putting these inequalities back in eq. (12) along with the use of Lemma 5 and eq. (1), we get'),
    ('Assumption 1', '### A.3.2. SOFT SWITCHING — FULL PARTICIPATION', '**Theorem 9 (FedSSGM)** *Consider the problem in (1) and Algorithm 1, under Assumption 1. Define  $D := \\|w_0 - w^*\\|$  and*'),
    ('(1)', '### A.3.2. SOFT SWITCHING — FULL PARTICIPATION', '**Theorem 9 (FedSSGM)** *Consider the problem in (1) and Algorithm 1, under Assumption 1. Define  $D := \\|w_0 - w^*\\|$  and*'),
    ('Lemma 5', '### A.3.2. SOFT SWITCHING — FULL PARTICIPATION, proof of Theorem 9', '\\left. + 2\\eta(1 - \\sigma_\\beta^t) (f_j(w^*) - f_j(w_t)) \\right] \\\\ &\\stackrel{\\text{Lemma 5}}{\\leq} \\frac{2}{3\\alpha} \\eta^3 E^3 G^2 + 2\\eta\\alpha E G^2 + 2\\eta E \\sigma_\\beta^t'),
    ('(17)', '### A.3.2. SOFT SWITCHING — FULL PARTICIPATION, proof of Theorem 9', 'Substituting  $Term - A$  and  $Term - B$  back in eq. (17), we get for  $\\alpha = \\eta$'),
    ('(18)', '### A.3.2. SOFT SWITCHING — FULL PARTICIPATION, proof of Theorem 9', 'So, to find a lower bound on  $\\epsilon$ , assume  $\\mathcal{A}$  is empty in eq. (18) and observe that as long as condition  $\\sqrt{\\frac{2D^2G^2\\Gamma}{ET}} < \\epsilon$  is'),
    ('(18)', '### A.3.2. SOFT SWITCHING — FULL PARTICIPATION, proof of Theorem 9', 'Assuming the sum is positive, dividing eq. (18) by  $\\sum_{t \\in \\mathcal{A}} (1 - \\sigma_\\beta^t)$  (which by the definition of'),
))
#: where each label is stated: in the text, and (STATED_ELSEWHERE) where the text lost the statement
DEFINITIONS = TEXT_DEFINITIONS + STATED_ELSEWHERE
