"""FedCLUP's errata and open choices, as its text and the authors' public code give them (:mod:`repro.errata`): data
typed from the paper, whose kinds and consequences the suite computes.

* The authors' code against the paper: the code's server averages all m stored client models, reads R as a
  per-entry standard deviation, hard-codes L = 9.13 and plots the unsquared local error, where the paper's (12) uses
  gamma = 1/lambda + 1/L over the sampled clients, R is the radius of (5), L has a formula and Theorem 1 bounds the
  squared error. Neither is the other's correction: Figures 2-4's statements are decided under both
  (``fedclup.readings``, ``fedclup.readings_fig23``), and a statement that holds under one and fails under the other
  depends on it. Figure 6 isolates the server rule (``fedclup.figure6`` runs both).
* Section 6.2's adaptive lambda begins "with a small lambda" and gives none: the direction of the switch depends on it.
* Figure 2's closing sentence (Section 6.2, again in Appendix D.2) says that higher personalization requires more
  communication rounds, "aligning with our theoretical findings"; Corollary 2 and the same paragraph of Section 6.2
  say the opposite (``bounds.fedclup.remarks.figure2_rounds`` decides it under both readings).
* Appendix D.2 tracks "testing loss" for Figure 5 without saying whose: the global model's, or each client's own
  model on its own test distribution.
"""
from __future__ import annotations

from bounds.fedclup.remarks import FIGURE2_ROUNDS, FIGURE2_SIGNS
from repro.errata import Choice, Erratum
from repro.papers.fedclup.runs import logistic as logi

#: the two readings of Figures 2-4, by the names ``runs.logistic.READINGS`` gives them
CODE_ID, CODE = "fedclup.code", ("the paper's reading", "the authors' code")
READING_OPTION = {"paper": CODE[0], "code": CODE[1]}
SERVER_ID = "fedclup.server"
#: Figure 6's server rules (config key ``server``) and the reading each is
SERVER_OPTION = {"eq12": "(12) over the sampled clients", "average_all": "the authors' code: all stored models"}
#: Figure 2's closing sentence: its erratum and the readings it is decided under (printed first)
ROUNDS_ID, ROUNDS_OPTIONS = "fedclup.figure2_rounds", tuple(FIGURE2_SIGNS)
START_ID, FIG5_ID = "fedclup.lambda_start", "fedclup.figure5_loss"
#: the admissible starting lambdas of the adaptive rule: Figure 3's smallest lambda, and ten and a hundred times less
START_OPTION = {lam: f"lambda starts at {lam:g}" for lam in logi.ADAPTIVE_STARTS}
#: the readings of Figure 5's "testing loss", by the metric of ``fedclup.mnist`` each reads
FIG5_OPTION = {"global_test_loss": "the global model's test loss",
               "own_classes_test_loss": "each client's model on its own classes' test data"}

ERRATA = (
    Erratum(CODE_ID, "Section 6.2 and Appendix D (Figures 2-4) against the authors' public code",
            "the server's update (12) with its step size (Theorem 2: gamma = 1/lambda + 1/L); R the radius of (5); L "
            "from the formula of Appendix D.1 (the formulas are not in the available text, their roles are)",
            "The authors' code averages all stored client models, reads R as a per-entry standard deviation, uses "
            "L = 9.13 and plots the unsquared error; the paper uses (12), the radius of (5), its formula for L and "
            "the squared error.",
            correction="the authors' code as it executes", other_place="the authors' public code (simulation_main_*)",
            explains=("fedclup.code.readings.figure2.local_updates", "fedclup.code.readings.figure3.least_communication",
                      "fedclup.code.readings.figure3.no_fixed_best", "fedclup.code.readings.figure3.dynamic_lambda",
                      "fedclup.code.readings.figure4.globaltrain_low_heterogeneity",
                      "fedclup.code.readings.figure4.localtrain_high_heterogeneity",
                      "fedclup.code.readings.figure4.personalized_high_heterogeneity"),
            options=CODE, both_admissible=True),
    Erratum(SERVER_ID, "(12), Section 4, against the authors' public code (Figure 6)",
            "To implement (12), in each communication round the server broadcasts to all clients, then each client "
            "updates its local model and uploads to the server",
            "The authors' server averages all m stored client models, sampled or not; the paper's (12) combines the "
            "sampled clients with gamma = 1/lambda + 1/L.",
            correction="the authors' code's server", other_place="the authors' public code (simulation_main_total)",
            explains=("fedclup.code.server.figure6.early.m100", "fedclup.code.server.figure6.early.m1000"),
            options=tuple(SERVER_OPTION.values()), both_admissible=True),
    Erratum(ROUNDS_ID, "Section 6.2 and Appendix D.2, Figure 2's closing sentence", FIGURE2_ROUNDS[0][2],
            "Higher personalization is a smaller lambda (Section 4.2: 'A small [lambda] (indicating higher "
            "personalization)'), and Corollary 2's communication complexity increases with lambda, so the theory the "
            "sentence aligns with says that higher personalization requires fewer communication rounds.",
            correction="lower personalization requires more communication rounds to achieve comparable performance",
            other_place="Section 6.2, the same sentence's next words: 'showing that increased personalization improves "
                        "communication efficiency'; Section 4.2, after Corollary 2: 'as [lambda] increases from [0] to "
                        "[oo], the communication complexity increases'",
            explains=tuple(f"{sid}.printed" for sid, _, _ in FIGURE2_ROUNDS), options=ROUNDS_OPTIONS),
)

CHOICES = (
    Choice(START_ID, "Section 6.2, 'Potential Solution in Practice'",
           "Beginning with a small [lambda] for efficiency, as soon as the validation performance plateaus or the "
           "statistical error stops improving significantly, we gradually increase [lambda]",
           "Section 6.2 does not give the adaptive rule's starting lambda; Appendix D.1 lists the fixed-lambda runs' "
           "values, which the copy the suite reads has stripped, so whether the paper gives the start there is open.",
           tuple(START_OPTION.values()),
           "'a small lambda': Figure 3's smallest lambda, 0.02, and ten and a hundred times smaller are all small"),
    Choice(FIG5_ID, "Appendix D.2, Figure 5", "we track testing loss as a function of communication rounds",
           "Whose testing loss Figure 5 tracks is not said: the global model's, or each personalised model's on its "
           "own clients' distribution.", tuple(FIG5_OPTION.values()),
           "FedCLUP outputs both a global model and personalised models; a personalised model's test data are its "
           "client's classes (a 2-class client's model is not meant for the other 8)"),
)

#: each erratum's point in a few words, for the summary card (the sentences say it whole)
GISTS = {
    CODE_ID: "The code differs from the paper in averaging, radius R, smoothness L, plotted error.",
    ROUNDS_ID: "The theory it cites says higher personalization needs fewer rounds, not more.",
    START_ID: "No starting lambda for Section 6.2's adaptive rule.",
    FIG5_ID: "Not said whether Figure 5's testing loss is the global or personalised models'.",
}
