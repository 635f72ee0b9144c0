"""PC-FedAvg (Ebrahimi, Burbano, Yousefian; arXiv 2603.19617): the registered experiments.

Experiments (run functions in :mod:`.runs.theory` and :mod:`.runs.data`, figures in :mod:`.figures`; the audit
section is :mod:`.audit`):

* ``pcfedavg.theory``       Lemmas 4.3-4.6, Props 4.7, 4.8 (i)-(iii), (12) on a grid of synthetic instances;
* ``pcfedavg.rates``        the rate sweep rho = sqrt(R) of Theorem 3.4 (admissible and proof step sizes);
* ``pcfedavg.adversarial``  random search for the largest observed/bound, and the one-active-constraint family;
* ``pcfedavg.comparison``   Figures 1-3: PC-FedAvg vs Penalized-FedAvg/-FedProx/-SCAFFOLD, MNIST and CIFAR-10;
* ``pcfedavg.compact``      Figures 1-3's PC-FedAvg runs on (CR), the other reading of Algorithm 1's line 8;
* ``pcfedavg.local_steps``  Figure 4: PC-FedAvg for 1, 5, 10, 20, 40 local steps;
* ``pcfedavg.search``       optimisation-based adversarial search per (claim, structured family) (:mod:`.runs.search`);
* ``pcfedavg.exact``        every claim on exact expectations over all noise paths of tiny instances, and Lemma 4.4's
  exact failure probability (:mod:`.runs.exact`);
* ``pcfedavg.failsearch``   Lemma 4.4's exact failure probability maximised over structured degenerate instances (the
  start on the boundary of X, one agent, one local step, the smallest horizons) (:mod:`.runs.failsearch`);
* ``pcfedavg.pep``          certified worst cases (performance estimation, PEPit) of Algorithm 1, noise-free, both update
  paths, against Props. 4.7 and 4.8 (i)-(iii) with rho = sqrt(R) (:mod:`.runs.pep`).

Each experiment's ``config`` is the frozen dataclass of one run's config, defined in the run module that builds
its specs (``--set`` is checked against it), or the tuple of them when its runs come in several shapes: the
adversarial search and its one-active instances; the four methods of ``pcfedavg.comparison``, each config holding the
keys its method reads (so ``--set gamma=...`` reruns PC-FedAvg only).
"""
from __future__ import annotations

from repro.experiment import Experiment, product_of
from repro.limits import array_bytes
from repro.papers.pcfedavg.figures import (adversarial_figure, comparison_figures, local_steps_figure, pep_figure,
                                           rates_figure, theory_figure)
from repro.papers.pcfedavg.runs import data as data_exp
from repro.papers.pcfedavg.runs import exact as exact_exp
from repro.papers.pcfedavg.runs import failsearch as FAILSEARCH
from repro.papers.pcfedavg.runs import pep as pep_exp
from repro.papers.pcfedavg.runs import search as search
from repro.papers.pcfedavg.runs import steps as STEPS
from repro.papers.pcfedavg.runs import theory as theory

#: runs/theory.py ``run_rate_point`` on the quadratic family of problems/instances.py: its rotations U, P and the two
#: temporaries of P's symmetrisation (m, n, n), Algorithm 1's round of every agent's copies (S, m, m, n) with the new
#: copies and the gradients, and the iterates, beta and per-agent records (S, m, n) (repro.limits)
RATES_MEMORY = array_bytes(*[("m", "n", "n")] * 4, *[("S", "m", "m", "n")] * 3, *[("S", "m", "n")] * 4)

EXPERIMENTS = (
    Experiment("pcfedavg.theory", "Lemmas 4.3-4.6, Props 4.7-4.8, (12) on synthetic instances with exact constants",
               theory.theory_specs, theory_figure, config=theory.TheoryConfig,
               work=product_of("R", "H", "S", "m", "m", "n")),
    Experiment("pcfedavg.rates", "Theorem 3.4 rate sweep: rho = sqrt(R), admissible and proof step sizes",
               theory.rate_specs, rates_figure, config=theory.RateConfig, work=product_of("R", "H", "S"),
               memory=RATES_MEMORY),
    Experiment("pcfedavg.adversarial", "Largest observed/bound per claim; Prop 4.8(ii) one-active instance",
               theory.adversarial_specs, adversarial_figure, config=(theory.SearchConfig, theory.OneActiveConfig),
               work=product_of("budget", "K", "m")),
    Experiment("pcfedavg.comparison", "Figures 1-3: PC-FedAvg vs penalized baselines on CIFAR-10 and MNIST",
               data_exp.comparison_specs, comparison_figures, config=tuple(data_exp.SHAPES.values()),
               work=data_exp.work),
    Experiment("pcfedavg.compact", "Figures 1-3's PC-FedAvg runs on (CR), the other reading of Algorithm 1",
               data_exp.compact_specs, None, config=data_exp.PCFedAvgConfig, work=data_exp.work),
    Experiment("pcfedavg.local_steps", "Figure 4: PC-FedAvg for 1, 5, 10, 20, 40 local steps",
               data_exp.local_steps_specs, local_steps_figure, config=data_exp.PCFedAvgConfig, work=data_exp.work),
    Experiment("pcfedavg.search", "Adversarial search (differential evolution) per claim and structured family",
               search.search_specs, None, config=search.FamilySearchConfig, work=search.work),
    Experiment("pcfedavg.exact", "Exact expectations over every noise path of tiny instances, and the exact probability "
               "that Lemma 4.4 (stated pathwise) fails", exact_exp.exact_specs, None, config=exact_exp.ExactConfig,
               work=exact_exp.work),
    Experiment("pcfedavg.pep", "Certified worst cases (PEP) of noise-free Algorithm 1, printed and (CR) paths, against "
               "Props. 4.7 and 4.8 (i)-(iii)", pep_exp.pep_specs, pep_figure, config=pep_exp.PepConfig,
               work=pep_exp.work),
    Experiment("pcfedavg.steps", "Displayed steps of Section 4's and the appendix's proofs, each proven by sympy or "
               "falsification-searched (hypothesis + Nelder-Mead)", STEPS.steps_specs, None,
               config=STEPS.proof_search.StepsConfig),
    Experiment("pcfedavg.failsearch", "Most likely failure of Lemma 4.4 (stated pathwise) over structured degenerate "
               "instances (exact probability over every noise path, maximised)", FAILSEARCH.failsearch_specs, None,
               work=product_of("maxiter", "popsize"), config=FAILSEARCH.FailSearchConfig),
)
