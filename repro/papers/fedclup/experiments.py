"""FedCLUP (Yu, He, Sun, Xue, Li; ICML 2025, arXiv 2410.08934): the registered experiments.

Run functions live in :mod:`.runs.statistical` (linear-regression test bed: statistical claims, minimax
regimes, Figure 1 trade-off), :mod:`.runs.optimization` (Theorem 2, Lemmas 5-7, Corollary 2, Tables 7-8
pattern, Theorem 3 noise ball), :mod:`.runs.exact` (Lemma 7's exact expectation over every mini-batch sequence of
tiny instances), :mod:`.runs.logistic` (the authors' synthetic logistic data: Figures 2, 3, 4,
6) and :mod:`.runs.mnist` (Tables 2 and 4 "MNIST Logit" rows, Figure 5). The figures are drawn by
:mod:`.figures`; the audit section is :mod:`.audit`, and what both compute is in :mod:`.summaries`.
"""
from __future__ import annotations

from repro.experiment import Experiment, product_of
from repro.limits import array_bytes
from repro.papers.fedclup.figures import (
    figure2, figure3, figure4, figure5, figure6, minimax_figure, pep_figure, rounds_figure,
    statistical_figure, stochastic_figure, theorem2_figure, tradeoff_figure)
from repro.papers.fedclup.runs import exact as exact_runs
from repro.papers.fedclup.runs import logistic as logi
from repro.papers.fedclup.runs import mnist as mn
from repro.papers.fedclup.runs import optimization as opt
from repro.papers.fedclup.runs import pep as pep_runs
from repro.papers.fedclup.runs import search as srch
from repro.papers.fedclup.runs import statistical as stat


LOGISTIC_WORK = product_of("rounds", "local_steps", "m", "n")
#: per member of a batch of runs/logistic.py: the data X, its scaled copy and the stacked clients' (m, n, d), the
#: logits and labels (m, n, C), W_true (m, C, d), and the traces' local (rounds, m, d, C) and global (rounds, d, C)
#: models, each held twice (the batch's array and each member's copy) (repro.limits)
LOGISTIC_MEMORY = array_bytes(*[("m", "n", "d")] * 3, *[("m", "n", "C")] * 2, ("m", "C", "d"),
                              *[("rounds", "m", "d", "C")] * 2, *[("rounds", "d", "C")] * 2)
#: runs/statistical.py ``run_tradeoff`` with d = len(spectrum): linreg_pfl.draw's Z and X (reps, m, n, d), noise and
#: y (reps, m, n), A (reps, m, d, d), b (reps, m, d), and the error curves (reps, rounds, len(lams) + 2)
TRADEOFF_MEMORY = array_bytes(*[("reps", "m", "n", "spectrum")] * 2, *[("reps", "m", "n")] * 2,
                              ("reps", "m", "spectrum", "spectrum"), ("reps", "m", "spectrum"),
                              ("reps", "rounds", lambda c: len(c.get("lams", ())) + 2))

EXPERIMENTS = (
    Experiment("fedclup.statistical", "Lemmas 3-4, (33), (8a), (8b), Theorem 1, Corollary 1 (derived) on linear regression",
               stat.statistical_specs, statistical_figure, work=product_of("reps"), config=stat.StatisticalConfig),
    Experiment("fedclup.minimax", "Minimax exponents per regime of R (linear regression, Gaussian design)",
               stat.minimax_specs, minimax_figure, work=product_of("reps"), config=stat.MinimaxConfig),
    Experiment("fedclup.tradeoff", "Figure 1 / Corollary 3: total error vs rounds for several lambdas",
               stat.tradeoff_specs, tradeoff_figure, work=product_of("reps", "rounds"), config=stat.TradeoffConfig,
               memory=TRADEOFF_MEMORY),
    Experiment("fedclup.theorem2", "Theorem 2, Lemmas 5-6, (12)-(13), Corollary 2 (derived) on linear regression",
               opt.theorem2_specs, theorem2_figure, work=product_of("rounds"), config=opt.Theorem2Config),
    Experiment("fedclup.rounds", "Corollary 2: rounds and gradient steps vs lambda and kappa (Tables 7-8 pattern)",
               opt.rounds_specs, rounds_figure, work=product_of("kappa"), config=opt.RoundsConfig),
    Experiment("fedclup.stochastic", "Lemma 7 and the Theorem 3 noise ball (Algorithm 2)",
               opt.stochastic_specs, stochastic_figure, work=product_of("replicates", "rounds"),
               config=(opt.Lemma7Config, opt.NoiseBallConfig)),
    Experiment("fedclup.exact", "Lemma 7 on its exact expectation over every mini-batch sequence of tiny instances",
               exact_runs.exact_specs, None, work=exact_runs.work, config=exact_runs.ExactConfig),
    Experiment("fedclup.figure2", "Figure 2: local updates K under two personalization levels (synthetic logistic)",
               logi.figure2_specs, figure2, work=LOGISTIC_WORK, config=logi.LogisticConfig, memory=LOGISTIC_MEMORY),
    Experiment("fedclup.figure3", "Figure 3: methods and adaptive lambda (synthetic logistic)",
               logi.figure3_specs, figure3, work=LOGISTIC_WORK, config=logi.LogisticConfig, memory=LOGISTIC_MEMORY),
    Experiment("fedclup.figure4", "Figure 4: statistical error vs heterogeneity R (synthetic logistic)",
               logi.figure4_specs, figure4, work=LOGISTIC_WORK, config=logi.LogisticConfig, memory=LOGISTIC_MEMORY),
    Experiment("fedclup.readings", "Figure 4 as the authors' code executes it beside the paper's reading (server step, "
               "meaning of R, L)", logi.readings_specs, None, work=LOGISTIC_WORK, config=logi.LogisticConfig),
    Experiment("fedclup.readings_fig23", "Figures 2 and 3 as the authors' code executes them beside the paper's "
               "reading (server step, meaning of R, L)", logi.readings_fig23_specs, None, work=LOGISTIC_WORK,
               config=logi.LogisticConfig),
    Experiment("fedclup.figure6", "Figure 6: 100 and 1000 clients, 10% sampling (synthetic logistic)",
               logi.figure6_specs, figure6, work=product_of("rounds", "local_steps", "m", "n", "sample_rate"),
               config=logi.LogisticConfig),
    Experiment("fedclup.mnist", "Tables 2/4 MNIST Logit rows and Figure 5 (class-restricted MNIST)",
               mn.mnist_specs, figure5, config=(mn.MnistConfig, mn.MnistProxConfig)),
    Experiment("fedclup.search", "Adversarial search: the instance closest to breaking each derived bound, per family",
               srch.search_specs, None, work=product_of("maxiter", "popsize", "reps"), config=srch.SearchConfig),
    Experiment("fedclup.pep", "Certified worst cases (PEP) of Algorithm 1 against Theorem 2 and Corollary 2 (derived)",
               pep_runs.pep_specs, pep_figure, work=product_of("m", "T_max"), config=pep_runs.PepConfig),
)
