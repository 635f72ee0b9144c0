"""The experimental settings the mini-batch SSCA paper prints, one :class:`~repro.settings_audit.Printed` each.

The paper's experiments are those of Section VI ("Numerical results": MNIST, the first paragraph's N, I, K, J, L,
T, tau, c, the step-size triples (a1, a2, alpha) per batch size, the SGD baselines' learning rate r = a_bar/t^alpha_bar
chosen by a grid search, E local updates and the average over 100 runs; the captions and legends of Figure 2 with
lambda = 10^-5 and U = 0.13) on the application examples of Section V (the three-layer swish / softmax network with
the cross-entropy cost (25)-(26), the formulations (27) and (37), the surrogate recursions (30)-(31) and (39) started
from zero). Figures 3 and 4 print no setting of their own in the text (their captions, and hence Figure 3's lambda
and U and Figure 4's sweep, are not in the copy): their runs share Section VI's settings, listed once, against the
Figure 2 runs when Figure 2 carries them. Each entry names the suite's experiment and config key that carry it (or
the module that fixes it) and the audit findings that test it against the conditions of Theorems 1-4 (or why no
stated condition bears on it).
"""
from __future__ import annotations

from repro.settings_audit import Printed

_FIG2 = ("ssca.figure2.larger_batch_faster", "ssca.figure2.alg1_faster_than_sgd",
         "ssca.figure2.alg1_faster_than_sgd_e2", "ssca.conclusion.strictly_feasible")
_FIG3 = ("ssca.figure3.larger_batch_faster", "ssca.figure3.alg3_faster_than_sgd", "ssca.figure3.similar_to_figure2")
_FIG4 = ("ssca.figure4.tradeoff", "ssca.figure4.constraint_controls_accuracy")
_ALL = _FIG2 + _FIG3 + _FIG4
_THMS = ("ssca.thm1", "ssca.thm2", "ssca.thm3", "ssca.thm4")

_SAMPLE_STEPS = ("rho(t) = a1/t^alpha and gamma(t) = a2/t^(alpha+0.05) with a1 = 0.4, 0.6, 0.9, a2 = 0.4, 0.9, 0.9, "
                 "and alpha = 0.4, 0.3, 0.3 for batch sizes B = 1, 10, 100 in sample-based federated learning")
_FEATURE_STEPS = ("a1 = 0.4, 0.6, 0.9, a2 = 0.4, 0.9, 0.9, and alpha = 0.4, 0.3, 0.3 for batch sizes [...] "
                  "B = 10, 100, 1000 in feature-based federated learning")

PRINTED = (
    # ------------------------------------------------------------------ Section V: model and formulations
    Printed("ssca.setting.network", "Section V (first paragraph), (25)-(26)",
            "Consider a three-layer neural network [...] We use the swish activation function S(z) = z/(1 + exp(-z)) "
            "for the hidden layer and the softmax activation function for the output layer. We consider the cross "
            "entropy loss function.",
            "three-layer swish/softmax network, cross-entropy cost (25)", illustrates=_ALL + _THMS,
            not_a_run="fixed by repro.papers.ssca.problems.swish_network (SwishNetwork, swish, evaluate: K inputs, "
                      "J swish units, L softmax outputs, no biases, as (26))",
            checked_by=("ssca.section_v.assumption_1",)),
    Printed("ssca.setting.surrogate_zero_start", "Section V-A, after (31); Section V-B, after (39)",
            "with beta(0) = 0 and B(0) a,j,k = C(0) a,l,j = 0 [...] with A(0) a = 0", 0.0,
            illustrates=_ALL + _THMS,
            not_a_run="fixed by repro.papers.ssca.algorithms.ssca._run_engine (the surrogate coefficients lin and "
                      "const start from zeros; the (27) term 2 lambda beta is carried by the problem's gradients)",
            checked_by=("ssca.surrogate_weight",)),
    # ------------------------------------------------------------------ Section VI: data and model sizes
    Printed("ssca.setting.dataset", "Section VI (first paragraph)", "We carry our experiments on Mnist dataset.",
            "mnist", illustrates=_ALL, experiment="ssca.figure2", key="dataset",
            unconditioned="Theorems 1-4 hold for every data set; the figure statements are about this one"),
    Printed("ssca.setting.n_samples", "Section VI (first paragraph)", "For the training model, we set N = 60000", 60000,
            illustrates=_ALL,
            not_a_run="fixed by repro.papers.ssca.problems.mnist_pixels.load_mnist_pixels (the official 60k training "
                      "split; runs record it as meta n_train)",
            unconditioned="Theorems 1-4 hold for every number of samples N"),
    Printed("ssca.setting.clients", "Section VI (first paragraph)", "I = 10", 10, illustrates=_ALL,
            experiment="ssca.figure2", key="clients",
            unconditioned="Theorems 1-4 hold for every number of clients I (and every split N_i, feature blocks K_i)"),
    Printed("ssca.setting.input_dim", "Section VI (first paragraph)", "K = 784", 784, illustrates=_ALL,
            not_a_run="fixed by repro.papers.ssca.problems.mnist_pixels.load_mnist_pixels (28 x 28 images flattened "
                      "to 784 features); the network's K is the data's width (repro.papers.ssca.runs.mnist._setup)",
            unconditioned="Theorems 1-4 hold for every input dimension K"),
    Printed("ssca.setting.hidden", "Section VI (first paragraph)", "J = 128", 128, illustrates=_ALL,
            experiment="ssca.figure2", key="hidden",
            unconditioned="Theorems 1-4 hold for every hidden width J"),
    Printed("ssca.setting.classes", "Section VI (first paragraph)", "and L = 10", 10, illustrates=_ALL,
            not_a_run="fixed by the data: repro.papers.ssca.runs.mnist._setup builds the network with "
                      "L = max label + 1 = 10 outputs",
            unconditioned="Theorems 1-4 hold for every number of classes L"),
    # ------------------------------------------------------------------ Section VI: the proposed algorithms
    Printed("ssca.setting.horizon_text", "Section VI (first paragraph)", "For the proposed algorithms, we choose T = 100",
            100, illustrates=_ALL, experiment="ssca.figure2", key="iterations",
            deviation="The runs use T = 1000, the iteration axis of Figure 2 (0 to 1000), and keep the text's T = 100 "
                      "as a checkpoint (repro.papers.ssca.runs.mnist, 'horizon').",
            unconditioned="Theorems 1-4 are almost-sure limits with no finite-T bound, so no result constrains the "
                          "horizon of a plot"),
    Printed("ssca.setting.horizon_figure2", "Section VI, Figure 2 (a)-(d), horizontal axes",
            "0 200 400 600 800 1000 Iteration", 1000, illustrates=_FIG2, experiment="ssca.figure2", key="iterations",
            unconditioned="Theorems 1-4 are almost-sure limits with no finite-T bound, so no result constrains the "
                          "horizon of a plot"),
    Printed("ssca.setting.tau", "Section VI (first paragraph)", "tau = 0.1", 0.1, illustrates=_ALL + _THMS,
            experiment="ssca.figure2", key="tau",
            unconditioned="(7), (11), (15), (22) are strongly convex for every tau > 0 ('tau > 0 can be any "
                          "constant', Section III-A), the only condition any result puts on tau"),
    Printed("ssca.setting.penalty", "Section VI (first paragraph)", "c = 10^5", 1e5,
            illustrates=_FIG2 + _FIG3 + _FIG4 + ("ssca.thm2", "ssca.thm4"), experiment="ssca.figure2", key="penalty",
            checked_by=("ssca.section_v.penalty_sequence",)),
    Printed("ssca.setting.step_size_schedule", "Section VI (first paragraph)",
            "rho(t) = a1/t^alpha and gamma(t) = a2/t^(alpha+0.05)", "rho = a1/t^alpha, gamma = a2/t^(alpha+0.05)",
            illustrates=_ALL + _THMS,
            not_a_run="fixed by repro.papers.ssca.algorithms.ssca.PowerLawSteps.section_vi (gamma exponent "
                      "alpha + 0.05); the runs' config carries only the triple (a1, a2, alpha)",
            checked_by=("ssca.section_vi.step_sizes",)),
    Printed("ssca.setting.steps_sample_b1", "Section VI (first paragraph)", _SAMPLE_STEPS, (0.4, 0.4, 0.4),
            illustrates=_FIG2 + ("ssca.thm1", "ssca.thm2"), experiment="ssca.figure2", key="triple",
            checked_by=("ssca.section_vi.step_sizes",)),
    Printed("ssca.setting.steps_sample_b10", "Section VI (first paragraph)", _SAMPLE_STEPS, (0.6, 0.9, 0.3),
            illustrates=_FIG2 + _FIG4 + ("ssca.thm1", "ssca.thm2"), experiment="ssca.figure2", key="triple",
            checked_by=("ssca.section_vi.step_sizes",)),
    Printed("ssca.setting.steps_sample_b100", "Section VI (first paragraph)", _SAMPLE_STEPS, (0.9, 0.9, 0.3),
            illustrates=_FIG2 + ("ssca.thm1", "ssca.thm2"), experiment="ssca.figure2", key="triple",
            checked_by=("ssca.section_vi.step_sizes",)),
    Printed("ssca.setting.steps_feature_b10", "Section VI (first paragraph)", _FEATURE_STEPS, (0.4, 0.4, 0.4),
            illustrates=_FIG3 + ("ssca.thm3", "ssca.thm4"), experiment="ssca.figure3", key="triple",
            checked_by=("ssca.section_vi.step_sizes",)),
    Printed("ssca.setting.steps_feature_b100", "Section VI (first paragraph)", _FEATURE_STEPS, (0.6, 0.9, 0.3),
            illustrates=_FIG3 + _FIG4 + ("ssca.thm3", "ssca.thm4"), experiment="ssca.figure3", key="triple",
            checked_by=("ssca.section_vi.step_sizes",)),
    Printed("ssca.setting.steps_feature_b1000", "Section VI (first paragraph)", _FEATURE_STEPS, (0.9, 0.9, 0.3),
            illustrates=_FIG3 + ("ssca.thm3", "ssca.thm4"), experiment="ssca.figure3", key="triple",
            checked_by=("ssca.section_vi.step_sizes",)),
    Printed("ssca.setting.batch_sample", "Section VI (first paragraph); Figure 2 legends",
            "for batch sizes B = 1, 10, 100 in sample-based federated learning", (1, 10, 100),
            illustrates=_FIG2 + ("ssca.thm1", "ssca.thm2"), experiment="ssca.figure2", key="batch",
            unconditioned="Theorems 1-4 hold for every batch size B <= N_i (6000 here); the figure statements "
                          "compare batch sizes, they do not constrain them"),
    Printed("ssca.setting.batch_feature", "Section VI (first paragraph)",
            "and B = 10, 100, 1000 in feature-based federated learning", (10, 100, 1000),
            illustrates=_FIG3 + ("ssca.thm3", "ssca.thm4"), experiment="ssca.figure3", key="batch",
            unconditioned="Theorems 3-4 hold for every batch size B <= N; the figure statements compare batch "
                          "sizes, they do not constrain them"),
    # ------------------------------------------------------------------ Section VI: the SGD baselines
    Printed("ssca.setting.sgd_learning_rate", "Section VI (first paragraph)",
            "the learning rate is set as r = a_bar/t^alpha_bar, where a_bar and alpha_bar are selected using a grid "
            "search method", "r = a_bar/t^alpha_bar, grid search",
            illustrates=("ssca.figure2.alg1_faster_than_sgd", "ssca.figure2.alg1_faster_than_sgd_e2",
                         "ssca.figure3.alg3_faster_than_sgd"),
            not_a_run="the paper prints no grid: the form a/t^alpha is fixed in repro.papers.ssca.runs.mnist "
                      "(run_mnist_ssca, _sgd_grid); the grid searched is the suite's choice SGD_GRID (config key "
                      "sgd_grid), scored after grid_iterations on the training objective of (27)",
            unconditioned="the SGD baselines are comparators: no result of the paper states a condition on their "
                          "learning rate"),
    Printed("ssca.setting.sgd_local_steps", "Section VI (first and second paragraphs); Figure 2 (a), (c) legends",
            "let E denote the number of local SGD updates [...] SGD, B=1, E=1 [...] SGD, B=5, E=2", (1, 2),
            illustrates=("ssca.figure2.alg1_faster_than_sgd", "ssca.figure2.alg1_faster_than_sgd_e2"),
            experiment="ssca.figure2", key="local_steps",
            unconditioned="E defines the compared baselines; the Figure 2 statements name E = 1 and E = 2 themselves"),
    Printed("ssca.setting.sgd_batch", "Section VI, Figure 2 (a), (c) legends",
            "SGD, B=1, E=1 SGD, B=10, E=1 SGD, B=100, E=1 SGD, B=5, E=2 SGD, B=50, E=2", (1, 10, 100, 5, 50),
            illustrates=("ssca.figure2.alg1_faster_than_sgd", "ssca.figure2.alg1_faster_than_sgd_e2"),
            experiment="ssca.figure2", key="batch",
            unconditioned="the baselines' batch sizes define the comparison; no result states a condition on them"),
    Printed("ssca.setting.repetitions", "Section VI (first paragraph)",
            "Note that all the results are given by averaging over 100 runs.", 100, illustrates=_ALL,
            not_a_run="seeds are no config key: repro.papers.ssca.runs.mnist.SEEDS['paper'] = 100 seeds per curve "
                      "(figure2_specs, figure3_specs, figure4_specs), varying initialization, client split and batches",
            unconditioned="the figure statements compare averages; no result constrains the number of runs"),
    # ------------------------------------------------------------------ Figure 2 captions
    Printed("ssca.setting.lambda_figure2", "Section VI, Figure 2 (a), (c) captions",
            "by Algorithm 1 with lambda = 10^-5", 1e-5,
            illustrates=("ssca.figure2.larger_batch_faster", "ssca.figure2.alg1_faster_than_sgd",
                         "ssca.figure2.alg1_faster_than_sgd_e2", "ssca.thm1"),
            experiment="ssca.figure2", key="lam",
            unconditioned="Theorem 1 holds for every lambda >= 0 (F + lambda ||omega||^2 keeps Assumption 1); only "
                          "the definition of (27) asks lambda > 0, which 10^-5 meets"),
    Printed("ssca.setting.u_figure2", "Section VI, Figure 2 (b), (d) captions", "by Algorithm 2 with U = 0.13", 0.13,
            illustrates=("ssca.figure2.larger_batch_faster", "ssca.conclusion.strictly_feasible", "ssca.thm2"),
            experiment="ssca.figure2", key="U",
            checked_by=("ssca.section_v.compactness",)),
)
