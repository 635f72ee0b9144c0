"""PC-FedAvg's errata, as its text gives them (:mod:`repro.errata`): data typed from the paper, whose kinds and
consequences the suite computes.

The largest is a reading axis: line 8 of Algorithm 1 as printed against the compact form (CR), which Section 4 says
*is* Algorithm 1 ("we can write the update rule in Algorithm 1 compactly as (CR)") and from which the proofs of
Lemmas 4.5 and 4.6 start. Every run of the algorithm is computed on one of the two (config key ``path``), and its
evidence carries that reading; each violation found on one is replayed on the other. Lemma 4.5's range is a second
axis: stated 'for any r >= 1', applied by (P4.7-a) from r = 0, and ``pcfedavg.steps`` checks (P4.7-a) both ways.

The others group the evidence of one root cause that several computations find (a re-derived step, a finding, a
refuted display of the same step).
"""
from __future__ import annotations

from repro.errata import CORRECTED, PRINTED, Erratum

#: the two readings of Algorithm 1, and the ``path`` of the suite's implementation each one runs
LINE8_ID, LINE8 = "pcfedavg.line8", ("line 8 as printed", "(CR)")
PATH_READING = {"printed": LINE8[0], "compact": LINE8[1]}
#: the erratum the figures' "feasible throughout" violations are instances of (they share their source with other
#: statements, so the audit names it on the evidence)
FEASIBLE = "pcfedavg.feasible"

ERRATA = (
    Erratum(LINE8_ID, "Algorithm 1, line 8 (j != i)",
            "x_{i,k+1}^(j) := x_{i,k}^(j) - γ (g~_{i,k}/m - σ_i/m (x_{i,k}^(j) - x̄_{i,k}))",
            "Line 8 damps every block j != i towards the agent's average with its own x^(j), where the compact form "
            "(CR), which the proofs use, has x^(i): the printed update is not the gradient step of g_{i,rho}.",
            correction="Algorithm 1 is (CR): x_{i,k+1} = x_{i,k} - γ ∇g_{i,ρ}(x_{i,k}, ξ_{i,k})",
            other_place="Section 4: 'we can write the update rule in Algorithm 1 compactly as x_{i,k+1} = x_{i,k} - "
                        "γ∇g_{i,ρ}(x_{i,k}, ξ_{i,k}). (CR)'; proof of Lemma 4.6: 'By the compact update rule (CR)'",
            explains=("pcfedavg.method.line8",), options=LINE8),
    Erratum("pcfedavg.lemma4.5.range", "Lemma 4.5", "for any r ≥ 1",
            "Lemma 4.5 is stated for rounds r >= 1, but (P4.7-a) applies it from round r = 0.",
            correction="for any r ≥ 0 (its proof uses only the round's common start x_(i,T_r), which line 3 gives at "
                       "r = 0 as well)", explains=("pcfedavg.f.lemma4.5.range",), options=(PRINTED, CORRECTED)),
    Erratum("pcfedavg.prop4.8.ii.m", "Proposition 4.8 (ii)", "E[d̄_i²] ≤ 5m‖∇f(x*)‖²/ρ² + ...",
            "Proposition 4.8 (ii)'s first term is 5 m ||grad f(x*)||^2/rho^2 where squaring (12) gives 5 m^2 "
            "||grad f(x*)||^2/rho^2, and the printed bound fails on an admissible instance with one active constraint.",
            explains=("pcfedavg.b.prop4.8.ii.terms", "pcfedavg.step.proof_of_proposition_4_8.display_after_12",
                      "proof steps (ii)", "pcfedavg.adversarial (one active constraint)")),
    Erratum(FEASIBLE, "Section 5 (Figures 1-2) and Section 6",
            "our iterates remain feasible throughout; ... enforces local feasibility at every iteration",
            "Algorithm 1 never projects: line 8 penalises the distance to X_i with a finite rho, so its iterates "
            "leave their sets where a constraint is active, on the tiny instance and on Section 5's runs.",
            explains=("pcfedavg.method.feasibility",)),
    Erratum("pcfedavg.lemma4.5.M", "Proof of Lemma 4.5, (L4.5-d)", "... + 4M (by the definition of M)",
            "(L4.5-d) bounds (4/m) sum_i ||grad G_{i,rho}(x*_rho)||^2 by 4M, but M is taken at x* and without the "
            "penalty; the constant the step needs is M_rho.",
            explains=("pcfedavg.e.lemma4.5.M", "proof steps (L4.5-d)", "pcfedavg.step.proof_of_lemma_4_5.l4_5_d")),
    Erratum("pcfedavg.lemma4.5.a", "Proof of Lemma 4.5, (L4.5-a)",
            "Σ E‖∇g_{i,ρ}(x_{i,t}) − ∇G_ρ(x_t)‖² = Σ‖∇G_ρ(x_t)‖² + Σ E‖∇g_{i,ρ}(x_{i,t})‖² − 2⟨m∇G_ρ(x_t), ∇G_ρ(x_t)⟩",
            "The equality in (L4.5-a) needs the agents to share x_t, true only at t = T_r; (L4.5-b) still follows "
            "from the first line of (4).",
            explains=("pcfedavg.f.L4.5-a", "proof steps (L4.5-a)", "pcfedavg.step.proof_of_lemma_4_5.l4_5_a")),
    Erratum("pcfedavg.P4.8-c.half", "Proof of Proposition 4.8, (P4.8-c)", "... + (ρ/m) Σ_i d̄_i² ...",
            "(P4.8-c) writes rho H(x) as (rho/m) sum_i dbar_i^2, but the definition h_i = ||x - Pi x||^2/2 gives "
            "half of it; (8)-(12) inherit the factor.",
            explains=("pcfedavg.P4.8-c.half", "proof steps (P4.8-c)", "pcfedavg.step.proof_of_proposition_4_8.p4_8_c")),
    Erratum("pcfedavg.fact2", "Proof of Proposition 4.8, before (11) and (P4.8-h)",
            "using the fact that −√(Σ E[d̄_i²]) ≤ −Σ E[d̄_i]",
            "The fact cited for (11) and (P4.8-h) is false (d = (1, 1) gives 2 > sqrt 2); both displays follow from "
            "(10) by Jensen's inequality instead.",
            explains=("pcfedavg.d.fact2", "proof steps fact 2: -sqrt(sum_i E[dbar_i^2]) <= -sum_i E[dbar_i]",
                      "pcfedavg.step.proof_of_proposition_4_8.11", "pcfedavg.step.proof_of_proposition_4_8.p4_8_h")),
    Erratum("pcfedavg.thm3.4.stepsize", "Proof of Theorem 3.4", "setting γ = 1/√R",
            "The proof's gamma = 1/sqrt(R) with rho = sqrt(R) never satisfies the theorem's own step-size hypothesis "
            "gamma <= 1/(6 L_G); with an admissible gamma the printed O(.) terms change.",
            explains=("pcfedavg.a.thm3.4.stepsize", "proof steps gamma = 1/sqrt(R), rho = sqrt(R)",
                      "pcfedavg.thm3.4.i.rate.admissible", "pcfedavg.thm3.4.ii.rate.admissible",
                      "pcfedavg.thm3.4.iii.rate.admissible")),
    Erratum("pcfedavg.thm3.4.iii.rate", "Theorem 3.4 (iii)", "the O(.) requirement of (iii)",
            "Under the proof's own choices, Prop. 4.8 (iii) gives requirement terms (e.g. D^2 m^2/eps^2) that the "
            "printed O(.) of Theorem 3.4 (iii) does not cover.",
            explains=("pcfedavg.thm3.4.iii.rate", "proof steps (iii) rate")),
    Erratum("pcfedavg.round_start", "Section 5", "As a result, agents start each round from different model states",
            "Section 5 says agents start each round from different model states; Algorithm 1's line 3 starts every "
            "agent from the server's vector, as the proof of Lemma 4.5 uses.",
            other_place="Algorithm 1, line 3: 'x_{i,T_r}^(j) := x̄_r^(j), ∀ j ∈ [m]'",
            explains=("pcfedavg.method.round_start",)),
    Erratum("pcfedavg.block_update", "Section 5",
            "the server updates only the blocks corresponding to each agent rather than fully averaging all blocks",
            "Section 5 says the server updates only each agent's own block; Algorithm 1's line 10 averages every "
            "block over all agents.",
            other_place="Algorithm 1, line 10: 'x̄_{r+1}^(j) := (1/m) Σ_i x_{i,T_{r+1}}^(j), ∀ j ∈ [m]'",
            explains=("pcfedavg.method.block_update",)),
    Erratum("pcfedavg.remark3.6.units", "Remark 3.6",
            "obtaining a better O(ε^-1) communication complexity for agent-wise infeasibility relative to suboptimality",
            "Remark 3.6 calls O(eps^-1) for a squared distance better than O(eps^-2) for a gap of f; in one unit of "
            "length both need O(delta^-2) rounds whenever grad f(x*) != 0, the constrained case the remark is about.",
            explains=("pcfedavg.remark3.6.units",)),
    Erratum("pcfedavg.heterogeneous_budgets", "Sections 1 and 6",
            "We validate the proposed method on MNIST and CIFAR-10 with heterogeneous ℓ1 constraints",
            "Sections 1 and 6 call the l1 constraints of both experiments heterogeneous (agent-specific), but Section 5 "
            "gives all four MNIST agents the same budget 188.",
            other_place="Section 5: 'We use τ=[85,86,87,88] (CIFAR-10) and τ=[188,188,188,188] (MNIST).'",
            explains=("pcfedavg.heterogeneous_budgets",)),
    Erratum("pcfedavg.output_iterate", "Algorithm 1, line 12", "Output: Server returns x̄_R.",
            "Algorithm 1 returns the server's x̄_R, but Theorem 3.4 bounds the iterate at a uniformly drawn local step "
            "K* in {0, ..., K-1}, which is never x̄_R when every round has H steps.",
            other_place="Theorem 3.4: 'let K* be a discrete uniform random variable on {0,…,K−1}'; (i) 'E[f(x̄_{K*}) "
                        "− f(x*)] ≤ ε'",
            explains=("pcfedavg.output_iterate",)),
)

#: each erratum's point in a few words, for the summary card (the sentences say it whole)
GISTS = {
    "pcfedavg.prop4.8.ii.m": "Squaring (12) gives 5 m^2, not 5 m; an admissible instance violates it.",
    FEASIBLE: "Iterates are penalised (finite rho), never projected; they leave X_i where a constraint binds.",
    "pcfedavg.lemma4.5.M": "Its 4M bounds (4/m) sum ||grad G_{i,rho}(x*_rho)||^2, but M is at x*, unpenalised.",
    "pcfedavg.lemma4.5.a": "Equality needs a shared x_t (only t = T_r); the next display still holds.",
    "pcfedavg.prop4.7.K_eq_Tr": "The proof's K = RH = T_r can fail with rounds shorter than H.",
    "pcfedavg.P4.8-c.half": "Writes rho H(x) as (rho/m) sum dbar_i^2, twice its definition; (8)-(12) inherit it.",
    "pcfedavg.fact2": "The cited -sqrt(sum E[dbar_i^2]) <= -sum E[dbar_i] is false; Jensen's inequality gives (11).",
    "pcfedavg.prop4.8.iii.gradient_point":
        "(iii) multiplies by ||grad f(xbar*)||; its proof gives ||grad f(x*)||, which can differ.",
    "pcfedavg.thm3.4.stepsize": "The proof's gamma = 1/sqrt(R) breaks the theorem's own gamma <= 1/(6 L_G).",
    "pcfedavg.thm3.4.iii.rate":
        "Under the proof's choices, Prop. 4.8 (iii) needs terms (e.g. D^2 m^2/eps^2) O(.) omits.",
    "pcfedavg.remark3.6.units": "Not better: at distance delta both are O(delta^-2) rounds if grad f(x*) != 0.",
    LINE8_ID: "Line 8's damping uses x^(j)-xbar; (CR), which the proofs use, has x^(i)-xbar.",
    "pcfedavg.lemma4.5.range": "Stated for r >= 1; Proposition 4.7's proof applies it from r = 0.",
}
