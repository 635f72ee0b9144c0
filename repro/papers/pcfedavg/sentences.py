"""PC-FedAvg's checkable sentences (:class:`repro.coverage.Sentence`): every sentence of Remarks 3.5-3.6 (the remarks),
of the text around Algorithm 1 and Theorem 3.4 and the conclusion (the discussion: Section 2.2, the lead-in of
Theorem 3.4, Section 4's intuition, Section 6), and of Section 5 (the experiments) that a computation could decide,
with the claims, statements or findings that decide it or why it is left out. Data only: whether a sentence is found
wrong is computed by :mod:`repro.coverage` from the verdicts and findings of its ids.

Section 5's sentences that only print a setting (step sizes, budgets, rounds, sampled agents) are listed and left out
here: the printed-settings table (:mod:`.settings`) inventories each of them with the findings that test it.
"""
from __future__ import annotations

from repro.coverage import Sentence

_THM = ("pcfedavg.thm3.4.i", "pcfedavg.thm3.4.ii", "pcfedavg.thm3.4.iii")
_SETTING = ("a printed setting, not a claim: inventoried in the printed-settings table (settings.py) with the findings "
            "that test it")
_BASELINES = ("about the baselines' round structure (the server broadcasts one model), which is how the suite "
              "implements them; no claim, statement or finding of the paper's own method decides it")

_REMARKS = (
    Sentence("Remark 3.5", "Theorem 3.4 provides communication-complexity guarantees for solving problem (1).",
             "remarks", checked_by=_THM),
    Sentence("Remark 3.5", "This setting is fundamentally different from classical constrained FL, which typically "
             "imposes a single shared constraint on a global model.", "remarks",
             left_out="a statement about related work"),
    Sentence("Remark 3.5", "Despite this additional heterogeneity and the absence of consensus, the theorem shows that "
             "the proposed block-wise algorithm with cross-estimates achieves the same order of communication "
             "complexity for optimality as standard unconstrained stochastic FL, namely O(ε^-2) for suboptimality, "
             "while simultaneously driving each agent to feasibility with a rate O(ε^-1).", "remarks",
             checked_by=("pcfedavg.remark3.5.subopt", "pcfedavg.remark3.5.feas", "pcfedavg.remark3.5")),
    Sentence("Remark 3.5", "In particular, Theorem 3.4 implies that the presence of personalized constraints does not "
             "degrade the order-wise communication complexity compared with classical federated averaging-type "
             "methods.", "remarks", checked_by=("pcfedavg.remark3.5.subopt", "pcfedavg.remark3.5")),
    Sentence("Remark 3.6", "Since problem (1) is constrained, its optimal solution x* does not necessarily minimize "
             "the unconstrained objective f.", "remarks",
             left_out="a general fact of constrained optimization, not a result of the paper (any instance with an "
                      "active constraint shows it); no id records it"),
    Sentence("Remark 3.6", "In particular, f(x*) need not attain the global minimum of f, so we also require an "
             "appropriate lower bound for the optimality metric.", "remarks",
             left_out="the motivation of Theorem 3.4 (iii); the lower bound itself is the claim pcfedavg.thm3.4.iii"),
    Sentence("Remark 3.6", "The infeasibility bound exhibits the standard penalty-parameter tradeoff: a larger ρ "
             "enforces feasibility more strongly, but it can worsen the suboptimality bound.", "remarks",
             checked_by=("pcfedavg.remark3.6.tradeoff", "pcfedavg.remark3.6.rho_direction")),
    Sentence("Remark 3.6", "We derive the choice ρ:=√R that balances these competing effects.", "remarks",
             checked_by=("pcfedavg.remark3.6",)),
    Sentence("Remark 3.6", "In particular, with this choice we retain the standard O(ε^-2) communication complexity "
             "for suboptimality, while obtaining a better O(ε^-1) communication complexity for agent-wise "
             "infeasibility relative to suboptimality.", "remarks",
             checked_by=("pcfedavg.remark3.6.better_feasibility", "pcfedavg.remark3.6.units", "pcfedavg.remark3.6",
                         "pcfedavg.stated_rates")),
)

_DISCUSSION = (
    Sentence("Section 1", "Each agent updates a full cross-estimate locally but projects only its own block onto "
             "X_i.", "discussion",
             left_out="two readings, no verdict of its own: as 'Pi_{X_i} enters only the agent's own block' it "
                      "describes line 8 (the abstract's 'penalizing infeasibility only in its own block'); as a "
                      "projection step (the block lands on X_i) it is what pcfedavg.method.feasibility finds line 8 "
                      "does not do, for Section 6's 'enforces local feasibility at every iteration'"),
    Sentence("Section 2.2", "In this case, agent i updates the cross estimate of agent j without requiring access to "
             "X_j.", "discussion", checked_by=("pcfedavg.method.ownership",)),
    Sentence("Section 2.2", "This block-wise mechanism preserves privacy by not sharing constraint information across "
             "agents or with the server, while enabling personalization.", "discussion",
             left_out="privacy: the paper defines no quantity of what the server or an agent may infer of X_i from "
                      "the blocks it receives"),
    Sentence("Section 2.2", "Unlike classical FL methods, where all agents start each round from the same model, in "
             "PC-FedAvg, each block of the multi-block vector is treated independently.", "discussion",
             left_out="'treated independently' has no computable meaning beyond lines 3 and 10 of Algorithm 1; "
                      "Section 5's sharper words are decided by pcfedavg.method.round_start and "
                      "pcfedavg.method.block_update"),
    Sentence("Section 2.2", "At the beginning of each round, the server distributes the averaged version of each block "
             "separately.", "discussion",
             left_out="restates lines 3 and 10 of Algorithm 1, which the suite's implementation runs as printed"),
    Sentence("Section 2.2", "Importantly, no global projection or server-side dual variables are required.",
             "discussion", left_out="a property of Algorithm 1's printed form (no projection step, no dual "
                                    "variable); nothing to compute"),
    Sentence("Section 2.2", "All constraint handling is performed locally at the agent level, ensuring that each "
             "agent asymptotically enforces its own feasibility constraint without revealing its constraint set.",
             "discussion", checked_by=("pcfedavg.thm3.4.ii",)),
    Sentence("Section 3, before Theorem 3.4", "The main results of this work are presented in the following theorem, "
             "which provides communication-complexity guarantees for lower and upper bounds on the suboptimality of "
             "the global objective, as well as for agent-wise infeasibility.", "discussion",
             checked_by=_THM + ("pcfedavg.output_on_runs",)),
    Sentence("Section 4", "Intuitively, one may consider minimizing G_ρ(x) where the penalty term ρH_i(x) pushes "
             "iterates toward feasibility by driving each h_i(x_i) toward 0, while preserving the original coupling "
             "through Ax = x̄.", "discussion",
             left_out="stated as intuition; its quantitative form is Remark 3.6's direction "
                      "(pcfedavg.remark3.6.tradeoff)"),
    Sentence("Section 6", "We proposed a projection-based multi-block federated algorithm that enforces local "
             "feasibility at every iteration while preserving privacy and the standard server–agent communication "
             "pattern.", "discussion",
             checked_by=("pcfedavg.method.feasibility", "pcfedavg.figure1.feasible_throughout",
                         "pcfedavg.figure2.feasible_throughout")),
    Sentence("Section 6", "We established convergence guarantees for both suboptimality and feasibility that match the "
             "overall convergence rate of unconstrained FL methods.", "discussion",
             checked_by=("pcfedavg.remark3.5.subopt", "pcfedavg.remark3.5.feas", "pcfedavg.remark3.5")),
    Sentence("Section 6", "Experiments on MNIST and CIFAR-10 with heterogeneous ℓ1 constraints support the theory and "
             "demonstrate competitive performance against standard federated baselines.", "discussion",
             checked_by=("pcfedavg.heterogeneous_budgets", "pcfedavg.figure3.loss_comparable",
                         "pcfedavg.figure1.outperforms_infeasibility", "pcfedavg.figure2.outperforms_infeasibility")),
)

_EXPERIMENTS = (
    Sentence("Section 5", "We evaluate our method on the MNIST and CIFAR-10 datasets with m=4 agents using a K=10 "
             "class softmax regression model.", "experiments", left_out=_SETTING),
    Sentence("Section 5", "To encourage sparse models under heterogeneous data distributions, each agent enforces a "
             "local ℓ1-norm constraint", "experiments",
             left_out="the paper does not say how the data are split across agents, so 'heterogeneous data "
                      "distributions' has nothing to compare with"),
    Sentence("Section 5", "We use τ=[85,86,87,88] (CIFAR-10) and τ=[188,188,188,188] (MNIST).", "experiments",
             left_out=_SETTING + "; it is the second place of pcfedavg.heterogeneous_budgets, which files the "
                                 "disagreement under Section 6's sentence"),
    Sentence("Section 5", "All methods run for R=100, each with 20 local iterations and batch percentage 10%.",
             "experiments", left_out=_SETTING),
    Sentence("Section 5", "PC-FedAvg uses step size 0.003 (CIFAR-10) / 0.03 (MNIST), agent-wise σ=[0.001,0.01,0.1,0.2] "
             "(CIFAR-10) / σ=[0.01,0.02,0.03,0.04] (MNIST), and an increasing penalty ρ=(r+10,000)^(1/4) at round "
             "r.", "experiments", left_out=_SETTING),
    Sentence("Section 5", "FedAvg/FedProx use step size 0.001 (CIFAR-10) / 0.01 (MNIST), with FedProx parameter μ=2 "
             "(CIFAR-10) / μ=0.1 (MNIST).", "experiments", left_out=_SETTING),
    Sentence("Section 5", "SCAFFOLD uses local/global step sizes 0.001/1 (CIFAR-10) / 0.01/1 (MNIST) and samples 2 of "
             "4 agents per round.", "experiments", left_out=_SETTING),
    Sentence("Section 5", "Although we solve a constrained problem, our method achieves global objective values that "
             "are comparable to the baselines, especially on MNIST (Fig. 3).", "experiments",
             checked_by=("pcfedavg.figure3.loss_comparable", "pcfedavg.figure3.especially_mnist")),
    Sentence("Section 5", "In terms of infeasibility, however, our method consistently outperforms the baselines.",
             "experiments",
             checked_by=("pcfedavg.figure1.outperforms_infeasibility", "pcfedavg.figure2.outperforms_infeasibility")),
    Sentence("Section 5", "As shown in Figs. 1 and 2, even when all methods are initialized from a feasible point, the "
             "baseline methods eventually drift toward infeasible iterates, whereas our iterates remain feasible "
             "throughout.", "experiments",
             checked_by=("pcfedavg.figure1.baselines_drift", "pcfedavg.figure2.baselines_drift",
                         "pcfedavg.figure1.feasible_throughout", "pcfedavg.figure2.feasible_throughout",
                         "pcfedavg.method.feasibility")),
    Sentence("Section 5", "We emphasize that, even when a penalty on the distance to each agent’s feasible set is "
             "added to the objective, the baseline methods remain centered on learning a single shared model.",
             "experiments", left_out=_BASELINES),
    Sentence("Section 5", "This is because, at the beginning of each communication round, all agents are initialized "
             "from the same global model: the server overwrites local models with their average.", "experiments",
             left_out=_BASELINES),
    Sentence("Section 5", "In contrast, the block-wise structure of our method allows different blocks to remain "
             "distinct across agents over rounds.", "experiments",
             left_out="ambiguous: the blocks x^(j) differ from one another (true of any run), while every agent holds "
                      "the same blocks at a round's start (line 3); the next two sentences say it unambiguously and "
                      "are checked"),
    Sentence("Section 5", "Specifically, the server updates only the blocks corresponding to each agent rather than "
             "fully averaging all blocks.", "experiments", checked_by=("pcfedavg.method.block_update",)),
    Sentence("Section 5", "As a result, agents start each round from different model states, which is desirable for "
             "personalization.", "experiments", checked_by=("pcfedavg.method.round_start",)),
    Sentence("Section 5", "Finally, increasing the number of local updates improves the performance of our method "
             "(Fig. 4) for both CIFAR-10 and MNIST.", "experiments",
             checked_by=("pcfedavg.figure4.local_steps_improve",)),
)

SENTENCES = _REMARKS + _DISCUSSION + _EXPERIMENTS
