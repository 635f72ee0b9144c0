"""FedSGM (switching gradient methods for constrained FL with compression): the registered experiments.

* ``fedsgm.figure1``      Figure 1 (Section 4.1): federated Neyman-Pearson classification, hard vs soft switching;
* ``fedsgm.theory``       Theorems 1, 2, 6-9 and Lemmas 3-5 on synthetic convex Lipschitz families;
* ``fedsgm.montecarlo``   the summed inequality and the theorems under Rand-K, Monte Carlo over compressors;
* ``fedsgm.adversarial``  a search for the instance maximising observed/bound of Theorems 1 and 2;
* ``fedsgm.search``       the tight adversarial search of every claim with a bound over structured families
  (:mod:`.runs.search`), which is also the halved-constant detector;
* ``fedsgm.pep``          certified worst cases (performance estimation, PEPit) of Algorithm 1 with hard switching and
  no compression against the eps of Theorems 1, 6, 8 and of Theorem 8's proof (:mod:`.runs.pep`);
* ``fedsgm.exact``        the exact probability, over every Rand-K choice pattern of a tiny instance, that the
  deterministically stated Theorems 1, 2, 6, 7 fail (:mod:`.runs.exact`);
* ``fedsgm.failsearch``   the instance of a structured, degenerate family (w0 on or outside the constraint's boundary,
  one or two kinks, one client, E = 1, K = 1, the smallest horizons) on which that probability is largest, with the
  probability exactly (:mod:`.runs.failsearch`).

Run functions, spec builders and the choices the paper leaves open are in :mod:`.runs.theorems`, which imports no
figure or report code, so that editing a figure or a sentence of the audit recomputes no run. The figures are
drawn by :mod:`.figures`, the audit section is written by :mod:`.audit`, and what both compute from results is
in :mod:`.summaries`.
"""
from __future__ import annotations

from repro.experiment import Experiment, product_of
from repro.papers.fedsgm.figures import figure1, pep_figure, theory_figure
from repro.papers.fedsgm.runs import exact as EXACT
from repro.papers.fedsgm.runs import failsearch as FAILSEARCH
from repro.papers.fedsgm.runs import pep as PEP
from repro.papers.fedsgm.runs import search as SEARCH
from repro.papers.fedsgm.runs import steps as STEPS
from repro.papers.fedsgm.runs import theorems as RUNS
from repro.limits import array_bytes

#: the arrays Algorithm 1 (algorithms/fedsgm.py ``run``) allocates for T rounds of n clients and E local steps in
#: d = 30 features (+ 1 with the bias): the local iterates and directions (T, n, E, d), w and X_mean (T, d), f and g
#: per local step (T, n, E), the Rand-K choices (T, n, K), X_sq (T, n) and four per-round vectors (repro.limits)
_DIM = (lambda c: RUNS.BREAST_CANCER_FEATURES + int(c.get("bias") is not False))
FIGURE1_MEMORY = array_bytes(*[("T", "n_clients", "E", _DIM)] * 2, *[("T", _DIM)] * 2, *[("T", "n_clients", "E")] * 2,
                             ("T", "n_clients", "K"), ("T", "n_clients"), *[("T",)] * 4)



EXPERIMENTS = (
    Experiment("fedsgm.figure1", "Figure 1: federated Neyman-Pearson, hard vs soft switching, Rand-K K=9",
               RUNS.figure1_specs, figure1, config=RUNS.Figure1Config, memory=FIGURE1_MEMORY),
    Experiment("fedsgm.theory", "Theorems 1, 2, 6-9 and all lemmas on synthetic convex Lipschitz families",
               RUNS.theory_specs, theory_figure, work=product_of("T", "E", "n_clients"), config=RUNS.TheoryConfig),
    Experiment("fedsgm.montecarlo", "Summed inequality and theorems under Rand-K, Monte Carlo over compressors",
               RUNS.montecarlo_specs, None, config=RUNS.MonteCarloConfig),
    Experiment("fedsgm.adversarial", "Search for the instance maximising observed/bound of Theorems 1 and 2",
               RUNS.adversarial_specs, None, work=product_of("budget"), config=RUNS.AdversarialConfig),
    Experiment("fedsgm.search", "Tight adversarial search of every bound (lemmas, proof inequalities, theorems) "
               "over structured families", SEARCH.search_specs, None, work=product_of("maxiter", "popsize"),
               config=SEARCH.SearchConfig),
    Experiment("fedsgm.exact", "Exact probability over all Rand-K patterns (d = 2, K = 1) that Theorems 1, 2, 6, 7 "
               "fail", EXACT.exact_specs, None, work=product_of("T", "n_clients"), config=EXACT.ExactConfig),
    Experiment("fedsgm.failsearch", "Most likely failure of Theorems 1, 2, 6, 7 over structured degenerate instances "
               "(exact probability over all Rand-K patterns, maximised)", FAILSEARCH.failsearch_specs, None,
               work=product_of("maxiter", "popsize"), config=FAILSEARCH.FailSearchConfig),
    Experiment("fedsgm.pep", "Certified worst cases (PEP) of hard-switching FedSGM without compression against the "
               "eps of Theorems 1, 6, 8 and Theorem 8's proof", PEP.pep_specs, pep_figure,
               work=PEP.work, config=PEP.PepConfig),
    Experiment("fedsgm.steps", "Displayed steps of the appendix's proofs, each proven by sympy or falsification-searched "
               "(hypothesis + Nelder-Mead)", STEPS.steps_specs, None, config=STEPS.StepsConfig),
)
