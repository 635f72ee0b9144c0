"""Planted faults: pcfedavg (see the package docstring)."""
from . import Mutation

_CLAIMS = "bounds/pcfedavg/claims.py"
_ALG = "repro/papers/pcfedavg/algorithms/pcfedavg.py"
_BOUNDS_TESTS = "tests/pcfedavg/test_bounds.py"

FAULTS: list[Mutation] = [
    Mutation(
        name="pcfedavg.prop47_45_over_2", kind="bound constant", where="Propositions 4.7, 4.8 (i): 45/2",
        path=_CLAIMS, old="_45_2 = sp.Rational(45, 2)", new="_45_2 = sp.Rational(45, 4)",
        tests=(f"{_BOUNDS_TESTS}::test_perturbed_prop47_copy_is_flagged",
               f"{_BOUNDS_TESTS}::test_pinned_values_by_hand"),
    ),
    Mutation(
        name="pcfedavg.lemma45_drift_constant", kind="bound constant", where="Lemma 4.5: 5 gamma^2 (H-1)^2",
        path=_CLAIMS, old="_rhs45 = 5 * gamma**2 * (H - 1)**2 * round_len",
        new="_rhs45 = 2 * gamma**2 * (H - 1)**2 * round_len",
        tests=(f"{_BOUNDS_TESTS}::test_perturbed_lemma45_and_48i_are_flagged",
               f"{_BOUNDS_TESTS}::test_pinned_values_by_hand"),
    ),
    Mutation(
        name="pcfedavg.prop48ii_proof_first_term", kind="bound constant",
        where="Proposition 4.8 (ii): 5 m D/rho^2 (the proof's 5 m^2 D/rho^2 encoded instead)",
        path=_CLAIMS, old="[5 * m * D / r**2,", new="[5 * m**2 * D / r**2,",
        computing=("tests/pcfedavg/test_claims.py::test_prop48ii_one_active_instance",),
        tests=(f"{_BOUNDS_TESTS}::test_perturbed_48ii_copies",),
    ),
    Mutation(
        name="pcfedavg.projection_inside", kind="algorithm",
        where="project_l1_ball step 5 (Section 5's X_i^sp): soft threshold of v, not |v|",
        path="repro/constraints.py", old="w = np.abs(V, out=u)", new="w = np.add(V, 0.0, out=u)",
        tests=("tests/test_constraints.py::test_l1_edge_cases",),
    ),
    Mutation(
        name="pcfedavg.server_average_axis", kind="algorithm",
        where="Algorithm 1 line 10 (z_{r+1} = (1/m) sum_i x_i): averaged over blocks, not agents",
        path=_ALG, old="return np.add.reduce(X, axis=1) / m, k", new="return np.add.reduce(X, axis=2) / m, k",
        tests=("tests/pcfedavg/test_algorithm.py::test_single_step_rounds_are_gradient_descent_on_G",),
    ),
    Mutation(
        name="pcfedavg.line8_own_sigma", kind="algorithm",
        where="Algorithm 1 line 8, case j = i: sigma_i (m-1)/m -> sigma_i/m",
        path=_ALG, old="problem.sigma[:, None] * (m - 1) / m * (own - x_hat[..., 0, :])",
        new="problem.sigma[:, None] / m * (own - x_hat[..., 0, :])",
        tests=("tests/pcfedavg/test_algorithm.py::test_printed_line8_differs_from_CR_exactly_off_the_diagonal",),
    ),
    Mutation(
        name="pcfedavg.search_one_agent_dropped", kind="search or enumeration",
        where="pcfedavg.search families_of: the one_agent family of Prop. 4.8 (ii), (iii), (12) never searched",
        path="repro/papers/pcfedavg/runs/search.py",
        old="one_agent = claim_id in INFEASIBILITY and sp.Ge(B.m, 2) not in B.claim(claim_id).hypotheses",
        new="one_agent = claim_id in INFEASIBILITY and sp.Ge(B.m, 2) in B.claim(claim_id).hypotheses",
        tests=("tests/pcfedavg/test_search.py::test_an_inadmissible_instance_is_never_counted",),
    ),
    Mutation(
        name="pcfedavg.exact_monte_carlo_rule", kind="search or enumeration",
        where="pcfedavg.exact run_exact: the enumerated paths judged by the Monte-Carlo rule (exact=False)",
        path="repro/papers/pcfedavg/runs/exact.py",
        old="V.Instance(problem, ref, exact=True), trace)", new="V.Instance(problem, ref), trace)",
        tests=("tests/pcfedavg/test_exact.py::test_claims_are_judged_on_exact_expectations",),
    ),
]
