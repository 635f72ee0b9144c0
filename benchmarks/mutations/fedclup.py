"""Planted faults: fedclup (see the package docstring)."""
from . import Mutation

_CLAIMS = "bounds/fedclup/claims.py"
_ALG = "repro/papers/fedclup/algorithms/fedclup.py"
_SEARCH = "repro/papers/fedclup/runs/search.py"
_BOUNDS = "tests/fedclup/test_bounds.py"
_HALVED = "tests/fedclup/test_search.py::test_a_halved_constant_is_reported_violated_unless_too_loose_to_tell"

FAULTS: list[Mutation] = [
    Mutation(
        name="fedclup.8b_rho_constant", kind="bound constant", where="Theorem 1, (8b) global side",
        path=_CLAIMS,
        old="RHS_8B_GLOBAL = (8 * rho**2 / (mu**2 * m * n)",
        new="RHS_8B_GLOBAL = (4 * rho**2 / (mu**2 * m * n)",
        computing=(f"{_HALVED}[fedclup.thm1.8b-0]",),
        tests=(f"{_BOUNDS}::test_thm1_8b_pinned",
               f"{_BOUNDS}::test_symbolic_rows_have_no_refuted_item[derived_checks]"),
    ),
    Mutation(
        name="fedclup.thm2_contraction", kind="bound constant", where="Theorem 2, Phi contraction",
        path=_CLAIMS,
        old="T2_RATE = 1 - gamma * MU_F / 4\n",
        new="T2_RATE = 1 - gamma * MU_F / 2\n",
        computing=(f"{_HALVED}[fedclup.thm2-0]", "tests/fedclup/test_claims.py::test_each_check_can_fail[fedclup.thm2]",
                   f"{_BOUNDS}::test_algorithm1_obeys_lemmas_5_6_and_theorem2"),
        tests=(f"{_BOUNDS}::test_symbolic_rows_have_no_refuted_item[derived_checks]",
               f"{_BOUNDS}::test_thm2_and_cor2_pinned"),
    ),
    Mutation(
        name="fedclup.cor2_rounds_constant", kind="bound constant", where="Corollary 2, T",
        path=_CLAIMS,
        old="T_COR2_REAL = 4 * KAPPA_F * sp.log(Phi_0 / eps)",
        new="T_COR2_REAL = 2 * KAPPA_F * sp.log(Phi_0 / eps)",
        computing=(f"{_BOUNDS}::test_cor2_explicit_reaches_eps_on_a_quadratic",
                   "tests/fedclup/test_pep.py::test_smallest_instance_runs[cor2]"),
        tests=(f"{_BOUNDS}::test_thm2_and_cor2_pinned",
               f"{_BOUNDS}::test_symbolic_rows_have_no_refuted_item[derived_checks]"),
    ),
    Mutation(
        name="fedclup.inner_anchor", kind="algorithm", where="Algorithm 1, update (13): lam-coupling anchor",
        path=_ALG,
        old="        anchor = np.repeat(w_g, rows, axis=0)\n",
        new="        anchor = start\n",
        tests=("tests/fedclup/test_algorithm.py::test_one_round_by_hand",),
    ),
    Mutation(
        name="fedclup.server_step_lam", kind="algorithm", where="Algorithm 1, server update (12)",
        path=_ALG,
        old="return _mix(w_g, upload.mean(axis=1), gamma * lam)",
        new="return _mix(w_g, upload.mean(axis=1), gamma)",
        tests=("tests/fedclup/test_algorithm.py::test_one_round_by_hand",),
    ),
    Mutation(
        name="fedclup.pfedme_local_update", kind="algorithm", where="pFedMe Algorithm 1, local update",
        path=_ALG,
        old="eta_lam = _per_row(eta, rows) * lam_rows",
        new="eta_lam = _per_row(eta, rows)",
        tests=("tests/fedclup/test_algorithm.py::test_pfedme_one_round_by_hand_with_sampling_and_beta",),
    ),
    Mutation(
        name="fedclup.search_k_edge", kind="search or enumeration", where="k_edge (Theorem 2's K at the edge of (14-D))",
        path=_SEARCH,
        old='for K in range(1, c["K"] + 1):',
        new='for K in range(c["K"], c["K"] + 1):',
        tests=("tests/fedclup/test_search.py::test_theorem2s_instances_sit_at_the_smallest_K_its_hypotheses_admit",),
    ),
    Mutation(
        name="fedclup.search_confirm_se", kind="search or enumeration", where="confirm (standard error of the mean)",
        path=_SEARCH,
        old="se = float(ratios.std(ddof=1) / math.sqrt(ratios.size))",
        new="se = float(ratios.std(ddof=1))",
        tests=("tests/fedclup/test_search.py::test_the_confirming_runs_report_the_standard_error_of_their_mean",),
    ),
]
