"""FedSGM's checkable sentences (:class:`repro.coverage.Sentence`): every sentence of the Abstract's and the
Contributions' claims about the results, of Section 3's text around the theorems and its discussion after Theorem 2
(the paper has no numbered remarks: the four bullets after Theorem 2 are its remarks), of the Conclusion and of
Section 4's experiments (with Figure 1's caption) that a computation could decide, in the paper's words, with the
claims, statements and findings that decide it or why it is left out. Data typed from the paper; which of them are
found wrong is computed by :mod:`repro.coverage` from the verdicts and findings.

Math is quoted as the paper prints it, spelled in Unicode (√, ε, β, ≡); ``[...]`` marks a cut.
"""
from __future__ import annotations

from repro.coverage import Sentence

_BULLETS = "Section 3, discussion after Theorem 2"
_MOTIVATION = "Section 3, Motivation for Soft Switching"
_CONTRIB = "Section 1, Contributions"
_CENTRAL = ("fedsgm.case.centralized", "fedsgm.case.centralized.rate", "fedsgm.remark.centralized_reduces")
_RELATED = "a statement about related work (what earlier papers analysed), which no quantity of this paper decides"

REMARKS = (
    Sentence(f"{_BULLETS}, first bullet",
             "n = 1, q_u = 0, C_j ≡ Id, E = 1, i.e., centralized with no compression: In this case, we can infer "
             "from Theorems 1 and 2, that rates we receive is O(DG/√T), corresponding to the rates present in [23, "
             "28, 36].", "remarks", checked_by=_CENTRAL),
    Sentence(f"{_BULLETS}, second bullet",
             "g_j ≡ 0, ∀j ∈ [n], E = 1, i.e., no constraint: In this case, our algorithm reduces to the well-known "
             "FEDCOM method [12], where we recover the standard rate of O(DG√E/√T √(1 + q_u/n)).", "remarks",
             checked_by=("fedsgm.case.fedcom", "fedsgm.case.fedcom.rate", "fedsgm.remark.fedcom_reduces")),
    Sentence(f"{_BULLETS}, third bullet",
             "q_u = 0, C_j = Id, i.e., FEDSGM w/ full participation w/o compression: In this case, we can infer from "
             "Theorems 1 and 2 that the sub-optimality gap and constraint value diminish at the rate of "
             "O(DG√E/√T).", "remarks",
             checked_by=("fedsgm.case.uncompressed", "fedsgm.case.uncompressed.rate", "fedsgm.pair.constants")),
    Sentence(f"{_BULLETS}, third bullet",
             "The scaling of √E captures the effect of client-drift in this federated constrained setting, deviating "
             "from the previous centralized results.", "remarks", checked_by=("fedsgm.remark.drift_sqrtE",)),
    Sentence(f"{_BULLETS}, fourth bullet", "We focus on the case where only uplink transmissions are compressed",
             "remarks", checked_by=("fedsgm.remark.uplink_only",)),
    Sentence(f"{_BULLETS}, fourth bullet", "which captures the dominant communication bottleneck in federated "
             "learning", "remarks",
             left_out="a statement about networks' uplink and downlink bandwidth, which the paper does not model "
                      "(per client and round Algorithm 1 sends K + 1 floats up and d + 1 down: "
                      "fedsgm.remark.uplink_only's evidence; no bandwidth is given)"),
    Sentence(f"{_BULLETS}, fourth bullet",
             "Most prior works on uplink compression have studied restricted classes of compressors [...] and "
             "largely target unconstrained or single-step settings.", "remarks", left_out=_RELATED),
    Sentence(f"{_BULLETS}, fourth bullet",
             "To the best of our knowledge, this is the first convergence result showing that soft switching remains "
             "effective in constrained FL under uplink-unbiased compression", "remarks",
             checked_by=("fedsgm.thm2", "fedsgm.thm7")),
)

DISCUSSION = (
    Sentence("Abstract", "We provide the first convergence guarantees for constrained FL that hold under these "
             "combined settings, recovering known centralized rates in special cases.", "discussion",
             checked_by=_CENTRAL),
    Sentence("Abstract", "In particular, we show that soft switching, recently proposed in the centralized "
             "literature, retains convergence guarantees while offering improved empirical stability near the "
             "constraint boundary.", "discussion", checked_by=("fedsgm.thm2", "fedsgm.figure1.oscillation")),
    Sentence("Abstract", "FEDSGM avoids the inner solves and penalty tuning required by dual or penalty-based "
             "methods", "discussion",
             left_out="a comparison with the designs of other methods (inner solves, penalty schedules) that no "
                      "quantity of the paper measures"),
    Sentence(f"{_CONTRIB}, first bullet", "Unlike AL/ADMM-based methods, FEDSGM avoids dual-variable tuning and "
             "penalty scheduling, ensuring lightweight per-round computation while certifying the feasibility of "
             "the averaged iterate.", "discussion", checked_by=("fedsgm.thm1", "fedsgm.thm2",
                                                                 "fedsgm.output_on_runs")),
    Sentence(f"{_CONTRIB}, second bullet", "This yields rates of the form O(DG√E/√T √(1 + q_u/n)), where D := "
             "‖w_0 − w*‖, T is the total number of rounds, G is the Lipschitz constant, and q_u the uplink "
             "compression factor.", "discussion",
             checked_by=("fedsgm.case.general", "fedsgm.case.general.rate", "fedsgm.case.general.proof_rate")),
    Sentence(f"{_CONTRIB}, second bullet", "The analysis recovers the canonical 1/√T rate from centralized SGM, "
             "while explicitly quantifying the impact of multi-step local updates and compression.", "discussion",
             checked_by=("fedsgm.remark.explicit_dependence", "fedsgm.complexity.order")),
    Sentence(f"{_CONTRIB}, third bullet", "Theorem 2 recovers the hard switching regime while improving stability "
             "near the feasibility boundary, without impacting the convergence rate.", "discussion",
             checked_by=("fedsgm.remark.soft_recovers_hard", "fedsgm.claim5.shared", "fedsgm.figure1.oscillation")),
    Sentence(f"{_CONTRIB}, closing paragraph", "Together, these results provide the first convergence guarantees "
             "for constrained FL with uplink-unbiased compression, multiple local updates, and soft switching.",
             "discussion", left_out="a priority claim over related work; the guarantees themselves are Theorems 1 "
                                    "and 2"),
    Sentence(_MOTIVATION, "While simple, this approach is highly sensitive when g(w_t) fluctuates around ε as "
             "already shown in the centralized case [36].", "discussion",
             checked_by=("fedsgm.remark.soft_interpolates", "fedsgm.figure1.oscillation")),
    Sentence(_MOTIVATION, "Such fluctuations can trigger frequent back-and-forth updates, amplifying client drift "
             "and resulting in unstable trajectories.", "discussion",
             left_out="no run of Figure 1 records the client drift ‖w_t − w_{j,τ}‖ (it needs new runs); within a "
                      "round the switching weight is fixed and Lemma 5 bounds the drift alike for both rules "
                      "(fedsgm.lemma5)"),
    Sentence(_MOTIVATION, "Specifically, the switching weight σ_β(g(w_t) − ε) ensures that near the feasibility "
             "boundary, the update direction is a convex combination of ∇f_j and ∇g_j, rather than an abrupt "
             "choice.", "discussion", checked_by=("fedsgm.remark.soft_interpolates",)),
    Sentence(_MOTIVATION, "This smooth relaxation suppresses oscillations while preserving convergence "
             "guarantees.", "discussion", checked_by=("fedsgm.figure1.oscillation", "fedsgm.thm2")),
    Sentence(_MOTIVATION, "Our analysis demonstrates that, even under compression, soft switching attains the same "
             "order of convergence as hard switching, while empirical validation confirms its superior stability "
             "near the feasibility boundary.", "discussion",
             checked_by=("fedsgm.remark.soft_same_order", "fedsgm.figure1.oscillation")),
    Sentence(_MOTIVATION, "To the best of our knowledge, this is the first convergence guarantee establishing the "
             "effectiveness of soft switching for constrained FL with compression, thereby extending beyond prior "
             "results restricted to hard switching and single local updates [17].", "discussion",
             left_out=_RELATED),
    Sentence("Section 5, Conclusion", "Our analysis provides the first convergence guarantees in this regime, "
             "yielding rates of order O(DG√E/√T √(1 + q_u/n)) with explicit dependence on the compression factor, "
             "and recovers classical centralized and FEDCOM bounds as special cases.", "discussion",
             checked_by=("fedsgm.case.general", "fedsgm.case.general.rate", "fedsgm.remark.explicit_dependence")
             + _CENTRAL + ("fedsgm.case.fedcom", "fedsgm.case.fedcom.rate", "fedsgm.remark.fedcom_reduces")),
    Sentence("Section 5, Conclusion", "Beyond hard switching, we demonstrated that soft switching recovers the hard "
             "regime when β ≥ 2/ε, but is empirically more stable near the feasibility boundary, suppressing "
             "oscillations without altering the rate.", "discussion",
             checked_by=("fedsgm.remark.soft_recovers_hard", "fedsgm.claim5.shared", "fedsgm.figure1.oscillation")),
    Sentence("Section 5, Conclusion", "Overall, FEDSGM robustly balances feasibility, client drift, and "
             "communication efficiency", "discussion",
             left_out="names no quantity ('robustly balances')"),
)

EXPERIMENTS = (
    Sentence("Section 4.1", "We consider the constrained optimization problem in (1), where the objective is to "
             "minimize the empirical loss on the majority class while ensuring that the loss on the minority class "
             "remains below a prescribed tolerance.", "experiments", checked_by=("fedsgm.figure1.no_solution.0",)),
    Sentence("Section 4.1", "We use the breast cancer dataset [37], containing 569 samples with 30 features.",
             "experiments",
             left_out="a property of the data set, checked when the suite loads it (repro.data requires 569 rows "
                      "of 30 features; printed setting fedsgm.setting.n-samples), not by a claim, statement or "
                      "finding"),
    Sentence("Section 4.1", "To simulate the federated setting, the data is split in an IID fashion between n = 10 "
             "clients, such that each client receives an equal number of samples and the same class ratio.",
             "experiments", checked_by=("fedsgm.remark.split",)),
    Sentence("Section 4.1", "Each client performs local gradient descent updates for E = 5 epochs before "
             "communication, and the global model is updated for T = 100 communication rounds.", "experiments",
             checked_by=("fedsgm.settings.exact_gradients", "fedsgm.pair.caption")),
    Sentence("Section 4.1", "We compare both hard and soft switching using a tolerance ε = 0.1.", "experiments",
             checked_by=("fedsgm.pair.caption", "fedsgm.figure1.beta")),
    Sentence("Section 4.1", "For communication efficiency, we evaluate using Rand-K [12, 32] compressor, which "
             "transmits a fraction K/d of coordinates with unbiased scaling.", "experiments",
             checked_by=("fedsgm.remark.randk_communication", "fedsgm.settings.randk")),
    Sentence("Section 4.1", "Each experiment is repeated with three random seeds, and we report mean trajectories "
             "with variance bands.", "experiments", checked_by=("fedsgm.pair.caption",)),
    Sentence("Section 4.1", "From Figure 1, we observe that both hard and soft switching achieve convergence of the "
             "majority-class objective f(w).", "experiments", checked_by=("fedsgm.figure1.convergence",)),
    Sentence("Section 4.1", "However, soft switching exhibits markedly improved stability in the constraint g(w): "
             "while hard switching frequently oscillates around the tolerance, soft switching maintains feasibility "
             "more consistently.", "experiments", checked_by=("fedsgm.figure1.oscillation",)),
    Sentence("Section 4.1", "This translates into a substantial reduction in the number of violations, with soft "
             "switching yielding around 4× fewer violations compared to hard switching.", "experiments",
             checked_by=("fedsgm.figure1.violations_4x",)),
    Sentence("Section 4.1", "Notably, this improvement in feasibility is achieved without compromising the "
             "convergence behavior of the objective loss, and in fact ensures more stable results as evident from "
             "the variance plots", "experiments", checked_by=("fedsgm.figure1.objective", "fedsgm.figure1.variance")),
    Sentence("Section 4.1", "highlighting the advantage of soft switching in balancing accuracy and constraint "
             "satisfaction under communication compression.", "experiments",
             left_out="names no quantity ('balancing accuracy and constraint satisfaction'); its parts are the "
                      "statements about Figure 1 above"),
    Sentence("Section 4.1, Figure 1 caption", "Federated NP classification results under Rand-K compression with "
             "K = 9.", "experiments",
             left_out="a printed setting (fedsgm.setting.K in the printed-settings table, compared with the "
                      "paper-profile configs), not decided by a claim, statement or finding"),
    Sentence("Section 4.1, Figure 1 caption", "Right: number of constraint violations (out of 100 rounds). Results "
             "are averaged over three random seeds and reported as mean ± standard deviation.", "experiments",
             checked_by=("fedsgm.pair.caption",)),
)

SENTENCES = REMARKS + DISCUSSION + EXPERIMENTS
