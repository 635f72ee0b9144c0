"""Mini-batch SSCA (sample- and feature-based federated learning): the registered experiments.

Run functions live in :mod:`.runs.mnist` (Figures 2-4, the literal-(32) run), :mod:`.runs.convergence`
(Theorems 1-4 and Lemma 4 on small problems with exact constants), :mod:`.runs.theorem5`, :mod:`.runs.pep`
(certified worst cases of Lemma 4 by performance estimation) and :mod:`.runs.exact` (Lemma 4's exact failure
probability over every minibatch pattern of tiny instances), :mod:`.runs.failsearch` (that probability maximised over
degenerate instances: batch of one, one client, the smallest horizons, step sizes at their admissible ends); the
figures are
drawn by :mod:`.figures` and the audit section is written by :mod:`.audit`, so editing either never invalidates
a cached run. Each experiment's ``config`` is the frozen dataclass of one run's config, or for the MNIST experiments
that mix shapes of run the tuple of the shapes their specs produce (both profiles), a shape before those whose keys
include its own: the metrics at each seed's initial point (:class:`~.runs.mnist.InitialPointConfig`) and the SGD runs'
learning-rate searches (:class:`~.runs.mnist.SGDGridConfig`), runs the curves need that the spec builders list under
Figure 2 or 3, then the curves' shapes.
"""
from __future__ import annotations

from repro.experiment import Experiment, product_of
from repro.papers.ssca.figures import convergence_figure, figure2, figure3, figure4, pep_figure
from repro.papers.ssca.runs import convergence as conv
from repro.papers.ssca.runs import exact as EX
from repro.papers.ssca.runs import failsearch as FS
from repro.papers.ssca.runs import mnist as mn
from repro.papers.ssca.runs import pep as PEP
from repro.papers.ssca.runs import search as se
from repro.papers.ssca.runs import steps as ST
from repro.papers.ssca.runs import theorem5 as t5


EXPERIMENTS = (
    Experiment("ssca.convergence", "Theorems 1-4, Lemmas 2/4/5: Algorithms 1-4 on small problems with exact constants",
               conv.convergence_specs, convergence_figure, work=product_of("iterations"),
               config=conv.ConvergenceConfig),
    Experiment("ssca.theorem5", "Theorem 5: (27) vs (37) on a tiny swish network", t5.theorem5_specs, None,
               work=product_of("starts"), config=t5.Theorem5Config),
    Experiment("ssca.figure2", "Figure 2: sample-based, Algorithms 1-2 vs SGD on MNIST", mn.figure2_specs, figure2,
               work=mn.work, config=(mn.InitialPointConfig, mn.SGDGridConfig, mn.SSCA27Config, mn.SSCA37Config,
                                     mn.SGDConfig)),
    Experiment("ssca.figure3", "Figure 3: feature-based, Algorithms 3-4 vs SGD on MNIST", mn.figure3_specs, figure3,
               work=mn.work, config=(mn.SGDGridConfig, mn.SSCA27Config, mn.SSCA37Config, mn.SGDConfig)),
    Experiment("ssca.figure4", "Figure 4: sparsity / training-cost trade-off of the four algorithms (MNIST)",
               mn.figure4_specs, figure4, work=mn.work, config=(mn.SSCA27Config, mn.SSCA37Config)),
    Experiment("ssca.printed_32", "Algorithm 2 with (32) as printed vs the surrogate-(11) sign (audit)",
               mn.printed_sign_specs, None, work=mn.work, config=mn.SSCA37Config),
    Experiment("ssca.search", "Adversarial search: the instance closest to breaking Lemma 4 (51) and the closed forms "
               "(9), (19), (35)-(36), (40)-(42), per structured family", se.search_specs, None,
               work=product_of("maxiter", "popsize"), config=se.SearchConfig),
    Experiment("ssca.pep", "Certified worst cases (PEPit) of Lemma 4 (51) on the full-batch special case of "
               "Algorithm 1, replayed through the suite's Algorithm 1", PEP.pep_specs, pep_figure,
               work=PEP.pep_work, config=PEP.PepConfig),
    Experiment("ssca.exact", "Exact probability over every minibatch pattern of tiny instances that Algorithm 1 "
               "violates Lemma 4 (51), stated deterministically", EX.exact_specs, None, work=EX.work,
               config=EX.ExactConfig),
    Experiment("ssca.failsearch", "Most likely failure of Lemma 4 (51) over degenerate instances (exact probability "
               "over every minibatch pattern, maximised)", FS.failsearch_specs, None,
               work=product_of("maxiter", "popsize"), config=FS.FailSearchConfig),
    Experiment("ssca.steps", "Displayed steps of the appendices' proofs, each proven by sympy or falsification-searched "
               "(hypothesis + Nelder-Mead)", ST.steps_specs, None, config=ST.StepsConfig),
)
