"""FedCLUP's checkable sentences (:class:`repro.coverage.Sentence`): every sentence of its remarks (Remarks 1-2), its
discussion (the contributions of Section 1, Section 3's limits of Problem (2), the text around Theorems 1-3 and
Corollaries 1-3, Section 5, the conclusion, Appendix A.5's reading of Corollary 1) and its experiments (Sections
6.1-6.2, Appendices D.2 and D.3.1) that a computation could decide, with the claims, statements or findings that
decide it, or why none does.

Data typed from the paper (the copy has its mathematics stripped: ``[lam]`` spells out a symbol, ``[...]`` marks
a cut); whether a sentence is found wrong is computed by :mod:`repro.coverage` from the verdicts and findings.
The ids cited are claims of :mod:`bounds.fedclup.claims`, statements of :mod:`.statements` and findings the audit
computes without results (:func:`.audit.symbolic_findings` and the results-independent settings findings).
"""
from __future__ import annotations

from repro.coverage import Sentence

_MONO, _COMP = "fedclup.cor2.monotone_in_lambda", "fedclup.cor2.computation.lambda"
_MINIMAX = ("fedclup.minimax.heterogeneous", "fedclup.minimax.transition", "fedclup.minimax.homogeneous")
_STRIPPED_T3 = ("Theorem 3's rounds and error ball are stripped from the copy (fedclup.not_recovered.thm3.ball); the "
                "suite's ball is a heuristic built from this very paragraph, so checking one against the other would "
                "be circular")


def _r(where: str, words: str, *ids: str, left_out: str = "") -> Sentence:
    return Sentence(where, words, "remarks", checked_by=ids, left_out=left_out)


def _d(where: str, words: str, *ids: str, left_out: str = "") -> Sentence:
    return Sentence(where, words, "discussion", checked_by=ids, left_out=left_out)


def _e(where: str, words: str, *ids: str, left_out: str = "") -> Sentence:
    return Sentence(where, words, "experiments", checked_by=ids, left_out=left_out)


REMARKS = (
    _r("Remark 1", "These two metrics are equivalent under the strong convexity and smoothness conditions on the loss "
       "functions.", left_out="no excess-risk quantity is encoded: the suite measures Theorem 1's squared distance "
       "only"),
    _r("Remark 2", "using the strong convexity of the loss function, we first proved the estimation error is bounded "
       "by the gradient norm and an extra statistical heterogeneity term controlled by [lam], as detailed in Equation "
       "(33)", "fedclup.eq33"),
    _r("Remark 2", "This allows us to show for large [R], a small [lam] can be chosen to yield [1/n] rate and match "
       "one of the worst cases in the lower bound.", "fedclup.minimax.heterogeneous", "fedclup.cor1.explicit"),
    _r("Remark 2", "proved the solutions of Problem (2) to [w_GT] are bounded by a term inversely proportional to "
       "[lam] (cf. Lemma 4), implying that they can be made arbitrarily close to [w_GT] by setting [lam] large",
       left_out="the bound on the distance to the GlobalTrain solution is stripped from the copy; the suite's Lemmas "
       "3-4 bound other distances (local to global model, GlobalTrain to the truth)"),
    _r("Remark 2", "This, together with the rate of [w_GT], yields a rate of [1/N + R^2].", "fedclup.lemma4",
       "fedclup.text.first_term_limit"),
)

INTRODUCTION_AND_SECTION3 = (
    _d("Section 1, contributions", "as the personalization degree increases, the rate approaches to that of pure "
       "local training", "fedclup.text.second_term_local"),
    _d("Section 1, contributions", "decreasing the personalization degree allows the models to utilize information "
       "across all clients, achieving a rate closer to [1/N + R^2]", "fedclup.text.first_term_limit"),
    _d("Section 1, contributions", "We further establish the minimax optimality of the derived statistical rates, "
       "demonstrating the tightness of our analysis.", *_MINIMAX, "fedclup.text.minimax_units"),
    _d("Section 1, contributions", "This demonstrates that a smaller [lam], corresponding to a higher degree of "
       "personalization, reduces communication complexity without incurring additional computational overhead.",
       _MONO, _COMP),
    _d("Section 3, after (2)", "As [lam -> 0], the influence of the global model diminishes, and Problem (2) "
       "increasingly behaves like the LocalTrain problem", "fedclup.text.problem2_limits"),
    _d("Section 3, after (3)", "This corresponds to reducing the personalization degree and eventually pushes Problem "
       "(2) to another extreme given by", "fedclup.text.problem2_limits"),
    _d("Section 3, after (4)", "Intuitively, for large [lam], we anticipate more frequent communications among the "
       "clients to facilitate collaboration as the local models are more tightly coupled to the global model.", _MONO),
)

SECTION4 = (
    _d("Section 4.1, after Theorem 1", "The first term decreases as [lam] increases.", "fedclup.thm1.shape"),
    _d("Section 4.1, after Theorem 1", "When [lam -> oo], the term [1/q_1(lam) -> 0] and the first term approaches "
       "[1/N + R^2].", "fedclup.text.first_term_limit"),
    _d("Section 4.1, after Theorem 1", "In contrast, the second term in (8) increases with [lam]",
       "fedclup.thm1.shape"),
    _d("Section 4.1, after Theorem 1", "showing that a smaller [lam] leads to a rate closer to [1/n] corresponding to "
       "that of pure local training. This rate is independent of [R]", "fedclup.text.second_term_local"),
    _d("Section 4.1, after Corollary 1", "Therefore, Corollary 1 shows that with an appropriate choice of [lam], the "
       "established rate achieves the minimax lower bound.", *_MINIMAX, "fedclup.text.minimax_units"),
    _d("Section 4.2, (12)", "To implement (12), in each communication round the server broadcasts to all clients, "
       "then each client updates its local model and uploads to the server.", "fedclup.eq12"),
    _d("Section 4.2, after Theorem 2", "Theorem 2 shows that with sufficiently small step sizes, both the local and "
       "global models converge linearly.", "fedclup.thm2", "fedclup.output_on_runs"),
    _d("Section 4.2, after Theorem 2", "A small [lam] (indicating higher personalization) yields a small [L_F], and "
       "thus permits a larger choice of the step size [gamma].", "fedclup.text.LF_in_lambda",
       "fedclup.text.step_in_lambda"),
    _d("Section 4.2, after Theorem 2", "By the expression of the convergence rate [...], we can see less "
       "communication round would be required to reach an [epsilon]-optimal solution.", _MONO),
    _d("Section 4.2, after Theorem 2", "However, increasing [gamma] will also decrease the right hand side of (14), "
       "implying that a larger number of local gradient steps should be taken to fulfill the condition.",
       "fedclup.thm2.gamma_vs_K"),
    _d("Section 4.2, after Corollary 2", "Specifically, as [lam] increases from [0] to [oo], the communication "
       "complexity increases from [O(log 1/epsilon)] to [O(kappa log 1/epsilon)].", "fedclup.cor2.limit_lam_0",
       "fedclup.cor2.limit_lam_oo", _MONO),
    _d("Section 4.2, after Corollary 2", "This fact corroborates our intuition that a higher degree of collaboration "
       "requires more communication resources.", _MONO),
    _d("Section 4.2, after Corollary 2", "the result given by Corollary 2 also indicates that the total computation "
       "cost is independent of [lam].", _COMP),
    _d("Section 4.2, after Corollary 2", "we can see that model personalization can provably reduce the communication "
       "cost without any extra computation overhead.", _MONO, _COMP),
    _d("Section 4.2, after Corollary 2", "Notice that although personalization indeed enhances communication "
       "efficiency, doing so may deteriorate the statistical accuracy of the local models.", _MONO,
       "fedclup.thm1.shape"),
    _d("Section 4.2, Theorem 3", "showing that it takes [...] rounds of communication to obtain an output within an "
       "error ball of size [...] around [...]", left_out=_STRIPPED_T3),
    _d("Section 4.2, Theorem 3", "Therefore, the influence of [lam] on communication complexity is consistent with "
       "the noiseless setting presented in Corollary 2.", left_out=_STRIPPED_T3),
    _d("Section 4.2, Theorem 3", "the error due to the stochastic noise scales inversely with the number of "
       "participating clients, showing the advantage of client collaboration in reducing the variance",
       left_out=_STRIPPED_T3),
)

SECTION5_AND_CONCLUSION = (
    _d("Section 5, after Corollary 3", "As [lam] increases, [1/q_1(lam)] monotonically decreases to zero, leading to "
       "improved statistical accuracy, approaching the optimal accuracy.", "fedclup.text.inv_q1_decreases",
       "fedclup.text.inv_q1_to_zero"),
    _d("Section 5, after Corollary 3", "since the optimization error in (15) is monotonically increasing with [lam], "
       "a higher degree of collaboration will also results in slower convergence over communication rounds",
       "fedclup.text.optimization_error_in_lambda"),
    _d("Section 5, after Corollary 3", "Corollary 3 implies that when the data heterogeneity is relatively low, "
       "increasing personalization will improve communication efficiency but at the expense of lower statistical "
       "accuracy, and vice versa.", "fedclup.text.optimization_error_in_lambda", "fedclup.text.inv_q1_decreases",
       "fedclup.figure1.tradeoff"),
    _d("Section 5, after Corollary 3", "As the optimization error vanishes when [...], the statistical error "
       "dominates the total error in Corollary 3.", "fedclup.boundary.summary"),
    _d("Section 5, after Corollary 3", "Since the communication efficiency will decrease will an increasing [lam], the "
       "above strategy can achieve a given target total error at the highest possible communication efficiency.",
       _MONO),
    _d("Section 5, after Corollary 3", "Later, we will also show that, with the optimal choice of personalization "
       "degree, FedCLUP improves communication efficiency significantly compared with GlobalTrain and achieve a total "
       "error smaller than LocalTrain in Section 6.", "fedclup.figure3.least_communication"),
    _d("Section 5, Comparison with Existing Literature", "As reported in Table 1, our work is the first to "
       "quantitatively characterize how changing the personalization degree leads to the trade-off between "
       "communication cost and statistical accuracy.", left_out="a comparison with related work; Table 1's rates "
       "are stripped from the copy"),
    _d("Section 5, Comparison with Existing Literature", "when [lam -> oo], Problem (2) reduces to GlobalTrain",
       "fedclup.text.problem2_limits"),
    _d("Section 5, Comparison with Existing Literature", "yet their results incorrectly imply that the communication "
       "and computation costs diverge to infinity.", left_out="a statement about related work: Chen et al. "
       "(2023c)'s costs are not encoded (FedCLUP's own limit is fedclup.cor2.limit_lam_oo)"),
    _d("Section 7", "Our analysis reveals that when collaborative learning is beneficial, increasing personalization "
       "reduces communication complexity but comes at the cost of statistical accuracy due to limited information "
       "sharing across clients.", _MONO, "fedclup.thm1.shape"),
)

_A5 = "Appendix A.5"
APPENDIX_A5 = (
    _d(_A5, "As the statistical heterogeneity [R -> oo], we have [lam -> 0], leading to a high degree of "
       "personalization.", "fedclup.text.cor1_lambda_heterogeneous"),
    _d(_A5, "The statistical error bound becomes [1/n], matching the rate of LocalTrain",
       "fedclup.minimax.heterogeneous"),
    _d(_A5, "as the statistical heterogeneity [R -> 0], [lam] increases, leading to a low degree of personalization.",
       "fedclup.text.cor1_lambda_homogeneous"),
    _d(_A5, "The statistical error bound eventually converges to [1/N], matching the rate of GlobalTrain under a "
       "homogeneous setting.", "fedclup.text.cor1_rate_homogeneous"),
    _d(_A5, "In contrast, our bound is [1/n], which shows that properly-tuned Problem 2 is always no worse than "
       "LocalTrain, independent of [R].", "fedclup.minimax.heterogeneous"),
    _d(_A5, "while our result achieves a rate of [1/N], leveraging all samples and matching the rate of GlobalTrain "
       "on the IID data.", "fedclup.minimax.homogeneous"),
    _d(_A5, "During the transition period when [...], we achieve a rate of [...], again matching the lower bound",
       "fedclup.minimax.transition"),
)

_S62, _D2, _D31 = "Section 6.2", "Appendix D.2", "Appendix D.3.1"
_COMM_62 = ("In the low-personalization setting (left column), more local updates significantly accelerate "
            "convergence, reducing the reliance on frequent communication.")
_ROUNDS_62 = ("This demonstrates that higher personalization requires more communication rounds to achieve comparable "
              "performance, aligning with our theoretical findings")

SECTION6 = (
    _e("Section 6.1, Synthetic Dataset", "we consider an overdetermined linear regression task, where the choice of "
       "hyparamter is strictly followed Corollary 3", "fedclup.settings.linreg.assumption2"),
    _e("Section 6.1, Implementation and Evaluation", "For the real dataset, since [L] is unknown, we implement the "
       "same algorithm with a global step size set to [...], while the local step size is determined via grid search.",
       "fedclup.settings.mnist.global_step"),
    _e(f"{_S62}, Table 2", "All methods are run until stable convergence, and their test accuracy is reported in Table "
       "2 in the low heterogeneity setting.", "fedclup.table2.table4_agree"),
    _e(f"{_S62}, Table 2", "Table 2 shows that as the personalization degree decreases and collaborative learning "
       "increases, the solution of Problem (2) becomes closer to GlobalTrain, leading to improved statistical accuracy",
       "fedclup.table2.collaboration"),
    _e(f"{_S62}, Table 2", "A similar trend is observed for both FedCLUP and pFedMe across different datasets and "
       "models", "fedclup.table2.pfedme", "fedclup.table2.printed_trend"),
    _e(f"{_S62}, Figure 2", _COMM_62, "fedclup.figure2.local_updates"),
    _e(f"{_S62}, Figure 2", _ROUNDS_62, "fedclup.figure2.rounds_direction",
       "fedclup.figure2.rounds_direction.printed"),
    _e(f"{_S62}, Figure 2", "showing that increased personalization improves communication efficiency.", _MONO),
    _e(f"{_S62}, Figure 1", "The above two observations imply that there shall be a accuracy-communication trade-off "
       "in choosing the personalization degree to achieve the smallest total error under given communication budget",
       "fedclup.figure1.tradeoff"),
    _e(f"{_S62}, Figure 3", "Once the algorithms converge, for any given total error, there exists a specific degree "
       "of personalization in FedCLUP that incurs the least communication cost among all considered methods.",
       "fedclup.figure3.least_communication"),
    _e(f"{_S62}, Figure 3", "This observation supports the conclusion in Corollary 3 that a unique personalization "
       "degree exists in FedCLUP to achieve communication efficiency for a fixed total error.",
       left_out="Corollary 3 (15) is stripped from the copy: its uniqueness has no encoded form"),
    _e(f"{_S62}, Figure 3", "Furthermore, we observe that no fixed personalization degree consistently outperforms "
       "others across all error levels.", "fedclup.figure3.no_fixed_best"),
    _e(f"{_S62}, Figures 9 and 10", "Results on the CelebA and Sent140 datasets are presented in Figures 9 and 10, "
       "respectively.", "fedclup.figure9_10.real_data"),
    _e(f"{_S62}, Figures 9 and 10", "Additionally, we observe a similar phenomenon in pFedMe, another method solving "
       "Problem 2, when we vary its personalization degree.", left_out="needs pFedMe on CelebA and Sent140 with a "
       "CNN and an LSTM: no such data offline and no deep-learning framework among the dependencies"),
    _e(f"{_S62}, Figure 3 (right)", "Beginning with a small [lam] for efficiency, as soon as the validation "
       "performance plateaus or the statistical error stops improving significantly, we gradually increase [lam].",
       "fedclup.figure3.dynamic_lambda"),
    _e(f"{_S62}, Figure 3 (right)", "This allows the model to benefit from enhanced generalization through increased "
       "collaboration at the expense of slightly higher communication costs.",
       left_out="'slightly higher' has no threshold the paper gives"),
)

APPENDIX_D = (
    _e(f"{_D2}, Table 4", "as personalization degree increase, the accuracy approaches that of LocalTrain, which "
       "trains separate models for each client. Conversely, as personalization degree decreases, the accuracy "
       "approaches that of GlobalTrain", "fedclup.table4.interpolation"),
    _e(f"{_D2}, Table 4", "as dataset homogeneity increases (i.e., clients share more similar data distributions), we "
       "observe a general improvement in accuracy across all methods", "fedclup.table4.homogeneity"),
    _e(f"{_D2}, Table 4", "we observe that pFedMe also exhibits interpolation between local and global learning under "
       "varying levels of data heterogeneity.", "fedclup.table4.pfedme_interpolation"),
    _e(f"{_D2}, Table 4", "We observe in Table 4 that LocalTrain consistently underperforms across all levels of "
       "statistical heterogeneity.", "fedclup.table4.localtrain_lowest", "fedclup.table4.printed_localtrain"),
    _e(f"{_D2}, Table 4", "As a result, LocalTrain\u2019s performance remains lower than that of other methods.",
       "fedclup.table4.printed_localtrain"),
    _e(f"{_D2}, Figure 4", "increasing personalization (moving from FedCLUP (low per) to FedCLUP (high per)) shifts "
       "the solution closer to LocalTrain, while decreasing personalization makes the model behave more like "
       "GlobalTrain.", left_out="no statement of the audit orders Figure 4's curves by their distance to LocalTrain "
       "and GlobalTrain (the limits themselves: fedclup.text.problem2_limits)"),
    _e(f"{_D2}, Figure 4", "For low heterogeneity, methods with lower personalization (i.e., greater collaboration) "
       "achieve lower statistical error", left_out="no statement of the audit orders the FedCLUP variants at low "
       "heterogeneity (GlobalTrain's place: fedclup.figure4.globaltrain_low_heterogeneity)"),
    _e(f"{_D2}, Figure 4", "GlobalTrain achieves the lowest error in this regime",
       "fedclup.figure4.globaltrain_low_heterogeneity"),
    _e(f"{_D2}, Figure 4", "However, as statistical heterogeneity increases, collaborative learning becomes less "
       "effective. In this setting, LocalTrain outperforms other methods.",
       "fedclup.figure4.localtrain_high_heterogeneity"),
    _e(f"{_D2}, Figure 4", "Highly personalized FedCLUP also performs better than less personalized variants",
       "fedclup.figure4.personalized_high_heterogeneity"),
    _e(f"{_D2}, Figure 5", "Across all sub-figures, FedCLUP with smaller [lam] (higher personalization) demonstrates "
       "faster convergence, especially in the early stages of training.", "fedclup.figure5.early"),
    _e(f"{_D2}, Figure 6", "Consistent with the findings from Figure 1, FedCLUP with smaller [lam] (higher "
       "personalization) consistently achieves faster convergence at the early stages of training, while FedCLUP with "
       "larger [lam] (lower personalization) takes more communication rounds to converge.", "fedclup.figure6.early",
       "fedclup.figure1.early"),
    _e(f"{_D2}, Figure 6", "As statistical heterogeneity increases (measured by [R]), FedCLUP with smaller [lam] "
       "gradually outperforms models with larger [lam]", "fedclup.figure6.heterogeneity"),
    _e(f"{_D2}, Figure 2", _COMM_62, "fedclup.figure2.local_updates"),
    _e(f"{_D2}, Figure 2", _ROUNDS_62 + ".", "fedclup.figure2.rounds_direction_appendix",
       "fedclup.figure2.rounds_direction_appendix.printed"),
    _e(f"{_D31}, Tables 7 and 8", "for a fixed personalization parameter [lam], we observe that longer value of "
       "[kappa] result in slower convergence rates with respect tot he number of communication rounds.",
       "fedclup.table7_8.rounds_kappa"),
    _e(f"{_D31}, Tables 7 and 8", "This expirical trend is consistent with our theoretical prediction in Corollary 2, "
       "where the number of communication rounds required to achieve a given target error scales with [...].",
       "fedclup.cor2.communication.rate", "fedclup.lemma1.kappaF_le_kappa"),
    _e(f"{_D31}, Tables 7 and 8", "Moreover, we observe that the impact of increasing [kappa] becomes stronger as "
       "[lam] increases.", left_out="an observation on Tables 7-8 no statement of the audit encodes (the theory it "
       "cites: fedclup.text.kappa_sensitivity_in_lambda)"),
    _e(f"{_D31}, Tables 7 and 8", "This phenomenon aligns with our theoretical analysis, which shows that the "
       "sensitivity of communication complexity to [kappa] is amplified for larger values of [lam].",
       "fedclup.text.kappa_sensitivity_in_lambda"),
    _e(f"{_D31}, Tables 7 and 8", "Similarly, we observe that increasing the condition number also leads to a higher "
       "total number of gradient evaluations required to reach a target error.", "fedclup.table7_8.gradients_kappa"),
    _e(f"{_D31}, Tables 7 and 8", "This observation is in agreement with our theoretical results where the total "
       "number of local gradient evaluations scales as [...].", _COMP),
)

SENTENCES = (REMARKS + INTRODUCTION_AND_SECTION3 + SECTION4 + SECTION5_AND_CONCLUSION + APPENDIX_A5 + SECTION6
             + APPENDIX_D)

__all__ = ["SENTENCES"]
