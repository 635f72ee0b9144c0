"""Mini-batch SSCA's checkable sentences (:class:`repro.coverage.Sentence`): every sentence of its remarks (Remarks 1-2
and the practice notes after Theorems 2 and 4), its discussion (Section I's contributions, the text around the
algorithms, theorems and security analyses of Sections II-V, the Conclusions) and its experiments (Section VI) that a
computation could decide, in the paper's words, with the claim, statement or finding ids that decide it or the reason
it is left out. Data only: whether a sentence is found wrong is computed (:mod:`repro.coverage`).

Sentences that only describe (what a section contains, motivation, related work as such) are not listed. Quotes
follow the text copy; ``[...]`` marks a cut.
"""
from __future__ import annotations

from repro.coverage import Sentence

#: the security analyses' criterion: a conditional the paper poses, never asserted of an instance
_CRITERION = ("a conditional statement: 'an infinite (or a sufficiently large) number of solutions' of a system in the "
              "data is the paper's criterion of privacy, asserted of no instance, and 'sufficiently large' names no "
              "number to decide")
_SETTING = "a setting of the runs, listed and checked in the printed settings (ssca.setting.*), not a statement"
_RELATED = "a statement about other papers' algorithms or analyses"
_PRACTICE = ("practical advice with no threshold ('c1 is large', 'sufficiently small'); Section VI's single c = 10^5 "
             "against Theorems 2 and 4's sequence {c_j} is the finding ssca.section_v.penalty_sequence")
_THEOREMS = ("ssca.thm1", "ssca.thm2", "ssca.thm3", "ssca.thm4")
_FIG2_SGD, _FIG3_SGD = "ssca.figure2.alg1_faster_than_sgd", "ssca.figure3.alg3_faster_than_sgd"
_CONVEX = ("ssca.boundary.rho_above_one",)
_A24 = ("ssca.section_v.assumption_2_4",)
_COMPLEXITY = "ssca.remarks.complexity"

_REMARKS = (
    Sentence("Remark 1 (Section III-A)",
             "Thus, under Algorithm 1 with f̄s,0 given by (7) and the sample-based federated learning algorithm via "
             "SGD [5], [12]–[14], the computational complexities at each client have the same order, and the "
             "computational complexities at the server have the same order (which is O(d)).", "remarks",
             (_COMPLEXITY,)),
    Sentence("Remark 2 (Section IV-A)",
             "Notice that under the feature-based federated learning algorithm for I > 2 via SGD [18], each client "
             "conducts the same operation as in the above example, and the server conducts an SGD update.", "remarks",
             left_out="a description of the algorithm of [18], whose steps the paper does not print; Remark 2's "
                      "counts (ssca.remarks.complexity) take it as given"),
    Sentence("Remark 2 (Section IV-A)",
             "Thus, under Algorithm 3 with f̄f,0 given by (15) and the feature-based federated learning algorithm via "
             "SGD [18], the computational complexities at each client have the same order, and the computational "
             "complexities at the server have the same order (which is O(d)).", "remarks", (_COMPLEXITY,)),
    Sentence("Section III-B, after Theorem 2",
             "In practice, we can choose a sequence {cj} which satisfies that 0 < cj < cj+1, limj→∞ cj = ∞, and c1 is "
             "large and repeat Algorithm 2 with c = cj until ‖s⋆s,j‖2 is sufficiently small.", "remarks",
             left_out=_PRACTICE),
    Sentence("Section IV-B, after Theorem 4",
             "In practice, we can choose a sequence {cj} which satisfies that 0 < cj < cj+1, limj→∞ cj = ∞, and c1 is "
             "large and repeat Algorithm 4 with c = cj until ‖s⋆f,j‖ is sufficiently small.", "remarks",
             left_out=_PRACTICE),
)

_INTRO_AND_SETTING = (
    Sentence("Section I (contributions)",
             "The proposed algorithm for unconstrained sample-based federated optimization empirically converges "
             "faster (i.e., achieves a lower communication cost) than the SGD-based ones [5], [12]–[14]", "discussion",
             ("ssca.remarks.communication", _FIG2_SGD)),
    Sentence("Section I (contributions)",
             "and achieves the same order of computational complexity as the SGD-based ones [5], [12]–[14].",
             "discussion", (_COMPLEXITY,)),
    Sentence("Section I (contributions)",
             "The proposed algorithm for unconstrained feature-based federated optimization also has a faster "
             "convergence speed empirically than the SGD-based ones [15]–[18].", "discussion", (_FIG3_SGD,)),
    Sentence("Section I (contributions)",
             "We show that all updates at each iteration have closed-form expressions, and the updates in SSCA "
             "algorithms for unconstrained optimization are as computationally efficiently as those in the SGD-based "
             "algorithms.", "discussion", ("ssca.eq35_36", "ssca.lemma1", _COMPLEXITY)),
    Sentence("Section I (contributions)",
             "Finally, numerical experiments demonstrate that the proposed SSCA-based algorithms for unconstrained "
             "federated optimization converge faster (i.e., yield lower communication costs) than the existing "
             "SGD-based ones [5], [12]–[18].", "discussion", (_FIG2_SGD, _FIG3_SGD, "ssca.remarks.communication")),
    Sentence("Section I (contributions)",
             "Numerical experiments also show that the proposed algorithms for constrained federated optimization can "
             "more flexibly specify a training model.", "discussion",
             left_out="'more flexibly' names no quantity to compare"),
    Sentence("Section II (sample-based learning)", "partition N into K disjoint subsets, denoted by Ni, i ∈ I",
             "discussion", ("ssca.places.partition",)),
    Sentence("Section II (sample-based learning)",
             "The server and I clients collaboratively train a model from the local datasets stored on the I clients "
             "under the condition that each client cannot expose its local raw data to the others.", "discussion",
             left_out="the requirement each security analysis decides by its conditional criterion (" + _CRITERION
                      + ")"),
    Sentence("Section II (feature-based learning)",
             "Note that it is more challenging to preserve privacy in feature-based federated learning, since a "
             "client cannot obtain the gradient of a loss function relying purely on its local data.", "discussion",
             ("ssca.remarks.ownership.gradient",)),
    Sentence("Section II, Footnote 1", "Such assumption can be easily met using private set intersection techniques "
             "[29], [30].", "discussion", left_out=_RELATED),
    Sentence("Section II, after Assumption 1",
             "Note that Assumption 1 is also necessary for the convergence of SSCA [21]–[23] and SGD [13].",
             "discussion", left_out=_RELATED),
)

_SECTION_III = (
    Sentence("Section III-A, after Assumption 2", "Assumption 2 is necessary for the convergence of SSCA [21], [22].",
             "discussion", left_out=_RELATED),
    Sentence("Section III-A", "Assume that the expressions of f̄s,0, ps,0, and qs,0 are known to the server and N "
             "clients.", "discussion", ("ssca.places.n_clients",)),
    Sentence("Section III-A", "Problem 2 is convex and can be solved with conventional convex optimization "
             "techniques.", "discussion", _CONVEX),
    Sentence("Section III-A",
             "The SGD-based algorithms in [5], [12]–[14], proposed to obtain a KKT point of Problem 1, may have "
             "unsatisfactory convergence speeds and high communication costs, as SGD utilizes only the first-order "
             "information of an objective function.", "discussion", left_out=_RELATED),
    Sentence("Section III-A", "Later in Section VI, we shall numerically show that the proposed SSCA-based algorithm "
             "converges faster than the SGD-based algorithms in [5], [12]–[14].", "discussion", (_FIG2_SGD,)),
    Sentence("Section III-A 2) Security Analysis",
             "[...] has an infinite (or a sufficiently large) number of solutions, then raw data xn, n ∈ N(t)i cannot "
             "be extracted from qs,0(ω(t)s, (xn)n∈N(t)i) in Step 4 of Algorithm 1, and hence Algorithm 1 can preserve "
             "data privacy.", "discussion", left_out=_CRITERION),
    Sentence("Section III-A 2) Security Analysis",
             "For example, if ω̄(t)s is linear in qs,0(ω(t)s, (xn)n∈N(t)i), i ∈ I, then homomorphic encryption [7] can "
             "be applied; if ω̄(t)s is a polynomial of xn and ω(t)s, then secret sharing [6] can be applied.",
             "discussion", left_out="a statement about what the cited cryptographic schemes can evaluate; for (9) the "
                                    "linearity is decided by ssca.remarks.privacy.homomorphic_encryption"),
    Sentence("Section III-A 3) Algorithm Example", "where τ > 0 can be any constant, and the term τ‖ω − ω(t)s‖²₂ is "
             "used to ensure strong convexity.", "discussion", ("ssca.remarks.proximal_term",)),
    Sentence("Section III-A 3) Algorithm Example", "Obviously, f̄s,0 given by (7) satisfies Assumption 2.",
             "discussion", _A24),
    Sentence("Section III-A, before (9)", "Apparently, Problem 2 with f̄s,0 given by (7) is an unconstrained convex "
             "quadratic programming w.r.t. ω. By the first-order optimality condition, it has the following analytical "
             "solution: (9)", "discussion", ("ssca.eq9",) + _CONVEX),
    Sentence("Section III-A, after (9)", "The computational complexity for calculating ω̄(t)s in (9) is O(d).",
             "discussion", (_COMPLEXITY,)),
    Sentence("Section III-A, after (9)", "Otherwise, homomorphic encryption [7] can be applied to preserve data "
             "privacy, since ω̄(t)s is linear in ∇fs,0(ω(t)s,xn), n ∈ N, as shown in (9).", "discussion",
             ("ssca.remarks.privacy.homomorphic_encryption",)),
    Sentence("Section III-A, Footnote 2", "[...] then the existing sample-based federated learning algorithms via SGD "
             "with one SGD update in each communication round can preserve data privacy [5], [12]–[14].",
             "discussion", ("ssca.remarks.privacy.same_privacy_condition",)),
    Sentence("Section III-A, Footnote 3", "The condition for Algorithm 1 with f̄s,0 given by (7) to preserve data "
             "privacy without extra privacy mechanisms is the same as that for the existing sample-based federated "
             "learning algorithms via SGD [5], [12]–[14], as illustrated in Footnote 2.", "discussion",
             ("ssca.remarks.privacy.same_privacy_condition",)),
    Sentence("Section III-B, Problem 4", "c > 0 is a penalty parameter that trades off the original objective "
             "function and the slack penalty term.", "discussion", ("ssca.remarks.tradeoff.penalty",)),
    Sentence("Section III-B", "Problem 5 is convex and can be readily solved.", "discussion", _CONVEX),
    Sentence("Section III-B 3) Algorithm Example", "Apparently, Problem 5 with f̄s,0 given by (7) and f̄s,m, m = 1, "
             ". . . ,M given by (11) is a convex quadratically constrained quadratic programming and can be solved "
             "using an interior point method.", "discussion", _CONVEX),
    Sentence("Section III-B 2) Security Analysis", "[...] has an infinite (or a sufficiently large) number of "
             "solutions, then raw data xn, n ∈ N(t)i cannot be extracted from qs,m(ω(t)s, (xn)n∈N(t)i), m = 0, . . . "
             ",M in Step 4 of Algorithm 2, and hence Algorithm 2 can preserve data privacy.", "discussion",
             left_out=_CRITERION),
    Sentence("Section III-B 2) Security Analysis", "Note that federated learning with constrained optimization has "
             "not been studied so far, let alone the privacy mechanisms for it.", "discussion", left_out=_RELATED),
    Sentence("Section III-B 3) Algorithm Example", "Obviously, f̄s,0 given by (7) satisfies Assumption 2, and f̄s,m "
             "given by (11) satisfies f̄s,m(ω,ω,x) = fs,m(ω,x) and Assumption 2 for all m = 1, . . . ,M.",
             "discussion", _A24),
)

_SECTION_IV = (
    Sentence("Section IV (first sentence)", "In this section, we investigate two types of sample-based federated "
             "optimization, namely, unconstrained feature-based federated optimization and constrained feature-based "
             "federated optimization.", "discussion", ("ssca.places.section_iv_opening",)),
    Sentence("Section IV-A", "Later in Section VI, we shall numerically show that the proposed SSCA-based algorithm "
             "converges faster than the SGD-based algorithms in [15]–[18].", "discussion", (_FIG3_SGD,)),
    Sentence("Section IV-A", "Problem 7 is convex and can be readily solved.", "discussion", _CONVEX),
    Sentence("Section IV-A 2) Security Analysis", "In that case, raw data xn, n ∈ N(t) cannot be extracted by the "
             "server from [...] and cannot be extracted by each client from h0,i(ω(t)i,xn,i), n ∈ N(t), i ∈ I in "
             "Steps 4-6 of Algorithm 3, and hence Algorithm 3 can preserve data privacy.", "discussion",
             left_out=_CRITERION),
    Sentence("Section IV-A 3) Algorithm Example", "Obviously, f̄f,0 given by (15) satisfies Assumption 2.",
             "discussion", _A24),
    Sentence("Section IV-A, before (19)", "Similarly to Problem 2 with f̄s,0 given by (7), Problem 7 with f̄f,0 given "
             "by (15) is an unconstrained convex quadratic programming w.r.t. ω and hence has the following analytical "
             "solution: (19)", "discussion", ("ssca.eq19",) + _CONVEX),
    Sentence("Section IV-A, after (19)", "The computational complexity for calculating ω̄(t)f in (19) is O(d).",
             "discussion", (_COMPLEXITY,)),
    Sentence("Section IV-A, after (19)", "If the two assumptions are not satisfied, homomorphic encryption [7] can be "
             "applied to preserve data privacy, since ω̄(t)f is linear in ∇ff,0(ω(t)f,xn), n ∈ N, as shown in (19).",
             "discussion", ("ssca.remarks.privacy.homomorphic_encryption",)),
    Sentence("Section IV-A, Footnote 4", "In that case, the existing feature-based federated learning algorithms via "
             "SGD [5], [12]–[14] can preserve data privacy.", "discussion", ("ssca.places.feature_sgd_refs",)),
    Sentence("Section IV-A, Footnote 5", "The condition for Algorithm 3 with f̄f,0 given by (15) to preserve data "
             "privacy without extra privacy mechanisms is the same as that for the existing feature-based federated "
             "learning algorithm via SGD [5], [12]–[14], as illustrated in Footnote 4.", "discussion",
             ("ssca.places.feature_sgd_refs",)),
    Sentence("Section IV-B", "Problem 10 is convex and can be readily solved.", "discussion", _CONVEX),
    Sentence("Section IV-B 3) Algorithm Example", "Analogously to Problem 5 with f̄s,0 given by (7) and f̄s,m, m = 1, "
             ". . . ,M given by (11), Problem 10 with f̄f,0 given by (15) and f̄f,m, m = 1, . . . ,M given by (22) is "
             "a convex quadratically constrained quadratic programming and can be solved using an interior point "
             "method.", "discussion", _CONVEX),
    Sentence("Section IV-B 2) Security Analysis", "[...] and hence Algorithm 4 can preserve data privacy. If the two "
             "assumptions mentioned above are not satisfied, extra privacy mechanisms need to be investigated.",
             "discussion", left_out=_CRITERION),
    Sentence("Section IV-B 3) Algorithm Example", "Obviously, f̄f,0 given by (15) satisfies Assumption 2, and f̄f,m "
             "given by (22) satisfies f̄f,m(ω,ω,x) = ff,m(ω,x) and Assumption 2 for all m = 1, . . . ,M.",
             "discussion", _A24),
)

_SECTION_V = (
    Sentence("Section V-A, (27)", "where λ > 0 is the regularization parameter that trades off the cost and model "
             "sparsity.", "discussion", ("ssca.remarks.tradeoff.lambda",)),
    Sentence("Section V-A", "Obviously, F(ω) + λ‖ω‖²₂ satisfies the additional restrictions on the structure of "
             "Ff,0(ω).", "discussion",
             left_out="Section II imposes 'additional restrictions on the structure of ff,0' without stating them: "
                      "nothing to decide"),
    Sentence("Section V-A", "Theorem 1 and Theorem 3 guarantee the convergences of Algorithm 1 and Algorithm 3, "
             "respectively, as Assumption 1 and Assumption 2 are satisfied.", "discussion",
             ("ssca.section_v.unconstrained",)),
    Sentence("Section V-A, Step 4 of Algorithm 1", "In Step 4 of Algorithm 1, each client i computes [...] and sends "
             "them to the server.", "discussion", ("ssca.remarks.communication",)),
    Sentence("Section V-A, Steps 4-6 of Algorithm 3", "In Steps 4-6 of Algorithm 3, each client i computes "
             "ω(t)a,1,j,kxn,k, k ∈ Ki, j ∈ J and sends them to the other clients; based on ω(t)a,1,j,kxn,k, k ∈ K, "
             "j ∈ J , each client i computes [...] and sends them to the server", "discussion",
             ("ssca.remarks.ownership.labels",)),
    Sentence("Section V-A, Step 4 of Algorithm 1", "Here, S′(z) = 1/(1+exp(−z)) (1 + z exp(−z)/(1+exp(−z))).",
             "discussion", ("ssca.remarks.swish_derivative",)),
    Sentence("Section V-A", "Thus, in Step 5 in Algorithm 1 and Step 7 in Algorithm 3, the server only needs to "
             "compute ω according to (35) and (36).", "discussion", ("ssca.eq35_36",)),
    Sentence("Section V-B", "The convergences of Algorithm 2 and Algorithm 4 are guaranteed by Theorem 2 and Theorem "
             "4, respectively, as Assumption 1 and Assumption 2 are satisfied.", "discussion",
             ("ssca.section_v.constrained",)),
    Sentence("Section V-B, Steps 4-6 of Algorithm 4", "the client with the highest computation speed (or any client) "
             "computes [...] and ∑n∈N(t) ∑l∈L yn,l log(Ql(ω(t)f,xn)) and sends them to the server.", "discussion",
             ("ssca.remarks.ownership.labels",)),
    Sentence("Section V-B, before (38)", "Next, we present the details of Step 5 in Algorithm 1 and the details of "
             "Step 7 in Algorithm 3.", "discussion", ("ssca.places.section_v_b_steps",)),
    Sentence("Section V-B, after Lemma 1", "Thus, in Step 5 of Algorithm 2 and Step 7 of Algorithm 4, the server only "
             "needs to compute ω according to (40) and (41).", "discussion", ("ssca.lemma1",)),
    Sentence("Section V-C", "Both the unconstrained federated optimization formulation in (27) and constrained "
             "federated optimization formulation in (37) allow tradeoffs between the cost and model sparsity [34].",
             "discussion", ("ssca.remarks.tradeoff.lambda", "ssca.remarks.tradeoff.cost_limit",
                            "ssca.figure4.tradeoff")),
    Sentence("Section V-C, after Theorem 5", "By the above theorem, we know that the problem in (27) and the problem "
             "in (37) have the same locally optimal solution for certain λ and U under some conditions.",
             "discussion", ("ssca.thm5.i", "ssca.thm5.ii")),
    Sentence("Section V-C, after Theorem 5", "Besides, we can tradeoff between the training accuracy and model "
             "sparsity of each formulation.", "discussion", ("ssca.figure4.tradeoff",)),
    Sentence("Section V-C, after Theorem 5", "It is evident that with constrained federated optimization formulation, "
             "one can set an explicit constraint on the training cost to control the test accuracy effectively.",
             "discussion", ("ssca.figure4.constraint_controls_accuracy",)),
)

_CONCLUSIONS = (
    Sentence("Section VII (Conclusions)", "We proposed federated learning algorithms that converge to KKT points of "
             "the respective federated optimization problems using SSCA and mini-batch techniques.", "discussion",
             _THEOREMS),
    Sentence("Section VII (Conclusions)", "We showed that data privacy could be preserved through the model "
             "aggregation mechanism and further enhanced via additional privacy mechanisms.", "discussion",
             left_out=_CRITERION),
    Sentence("Section VII (Conclusions)", "Numerical experiments demonstrate that the proposed SSCA-based algorithms "
             "for unconstrained sample-based and feature-based federated optimization problems converge faster than "
             "the existing SGD-based algorithms", "discussion", (_FIG2_SGD, _FIG3_SGD)),
    Sentence("Section VII (Conclusions)", "and the proposed SSCA-based algorithms for constrained sample-based and "
             "feature-based federated optimization problems obtain models that strictly satisfy non-convex "
             "constraints.", "discussion", ("ssca.conclusion.strictly_feasible",)),
    Sentence("Section VII (Conclusions)", "To the best of our knowledge, this is the first work that provides an SSCA "
             "framework for federated optimization and highlights the value of constrained federated optimization.",
             "discussion", left_out="a priority claim about the literature"),
)

_EXPERIMENTS = (
    Sentence("Section VI (first paragraph)", "For the training model, we set N = 60000, I = 10, K = 784, J = 128, and "
             "L = 10.", "experiments", left_out=_SETTING),
    Sentence("Section VI (first paragraph)", "For the proposed algorithms, we choose T = 100", "experiments",
             ("ssca.places.horizon",)),
    Sentence("Section VI (first paragraph)", "ρ(t) = a1/tα and γ(t) = a2/tα+0.05 with a1 = 0.4, 0.6, 0.9, a2 = 0.4, "
             "0.9, 0.9, and α = 0.4, 0.3, 0.3 for batch sizes B = 1, 10, 100 in sample-based federated learning and "
             "B = 10, 100, 1000 in feature-based federated learning.", "experiments",
             left_out=_SETTING + "; that these step sizes violate (6) is the finding ssca.section_vi.step_sizes, about "
                                 "the reach of Theorems 1-4, not about this sentence"),
    Sentence("Section VI (first paragraph)", "For the federated learning algorithms via SGD [5], [12]–[18], the "
             "learning rate is set as r = ā/tᾱ, where ā and ᾱ are selected using a grid search method.",
             "experiments", left_out=_SETTING + " (the grid is not printed)"),
    Sentence("Section VI (first paragraph)", "Note that all the results are given by averaging over 100 runs.",
             "experiments", left_out=_SETTING),
    Sentence("Section VI, Figure 2", "From Fig. 2, we can see that the proposed algorithms with larger batch sizes "
             "converge faster.", "experiments", ("ssca.figure2.larger_batch_faster",)),
    Sentence("Section VI, Figure 2(a), 2(c)", "Fig. 2(a) and Fig. 2(c) show that for unconstrained federated "
             "optimization, Algorithm 1 converges faster than the SGD-based algorithm with E = 1 and the same batch "
             "size.", "experiments", (_FIG2_SGD,)),
    Sentence("Section VI, Figure 2", "Also, Algorithm 1 with B = 10 (100) converges faster than the SGD-based "
             "algorithm with B = 5 (50) and E = 2 at the same computation cost (for calculating the gradients) at "
             "clients.", "experiments", ("ssca.figure2.alg1_faster_than_sgd_e2", _COMPLEXITY)),
    Sentence("Section VI, Figure 3", "Similarly, from Fig. 3, we can see that the proposed algorithms with larger "
             "batch sizes converge faster.", "experiments", ("ssca.figure3.larger_batch_faster",)),
    Sentence("Section VI, Figure 3(a), 3(c)", "Fig. 3(a) and Fig. 3(c) show that for unconstrained federated "
             "optimization, Algorithm 3 converges faster than the SGD-based algorithm at the same batch size.",
             "experiments", (_FIG3_SGD,)),
    Sentence("Section VI, Figures 2 and 3", "By comparing Fig. 2 and Fig. 3, we can observe that the proposed "
             "sample-based federated learning algorithms and feature-based federated learning algorithms with the "
             "same computation cost at the clients have similar convergence speeds.", "experiments",
             ("ssca.figure3.similar_to_figure2", _COMPLEXITY)),
    Sentence("Section VI, Figure 4", "Fig. 4 shows the tradeoff curve between the model sparsity and training cost of "
             "each proposed algorithm.", "experiments", ("ssca.figure4.tradeoff",)),
    Sentence("Section VI, Figure 4(b)", "From Fig. 4(b), we see that with constrained sample-based federated "
             "optimization, one can set an explicit constraint on the training cost to control the test accuracy "
             "effectively.", "experiments", ("ssca.figure4.constraint_controls_accuracy",)),
)

SENTENCES = _REMARKS + _INTRO_AND_SETTING + _SECTION_III + _SECTION_IV + _SECTION_V + _CONCLUSIONS + _EXPERIMENTS

__all__ = ["SENTENCES"]
