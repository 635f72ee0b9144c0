"""Planted faults: ssca (see the package docstring)."""
from . import Mutation

_CLAIMS = "bounds/ssca/claims.py"
_ALG = "repro/papers/ssca/algorithms/ssca.py"
_SEARCH = "repro/papers/ssca/runs/search.py"

FAULTS: list[Mutation] = [
    # ---------------------------------------------------------------- bound constants (bounds/ssca/claims.py)
    # (51) with L_hat gamma^2 Delta^2 instead of L_hat gamma^2 Delta^2 / 2: a looser bound, which no run can break.
    # Computation: the PEP worst case of (51) is no longer attained (not TIGHT) and the search's ratio on its tight
    # instance drops below 1/2; typed value: test_claim_parameters_and_bounds evaluates the claim at one point.
    # No derivation catches it: bounds/ssca/steps.py writes (51) on its own, not from the claim.
    Mutation(
        name="ssca.lemma4_constant", kind="bound constant", where="Lemma 4, (51)", path=_CLAIMS,
        old='- gamma_s * (mu - L_hat * gamma_s / 2) * _OBS["Delta"]**2),),',
        new='- gamma_s * (mu - L_hat * gamma_s) * _OBS["Delta"]**2),),',
        computing=("tests/ssca/test_pep.py::test_the_printed_bound_is_tight_raised_certified_lowered_violated",
                   "tests/ssca/test_search.py::test_the_lemma4_objective_is_the_check_of_51_on_the_same_run"),
        tests=("tests/ssca/test_bounds.py::test_claim_parameters_and_bounds",)),
    # nu* of (42) with (sqrt(b/D) - 1)/(2 tau) instead of /tau: the active regime's multiplier is halved.
    # Computation: the KKT residuals of (38) at Lemma 1's point (no solver); derivation: lemma1_checks (the
    # Lagrangian of (38), Appendix C) no longer proves the printed root.
    Mutation(
        name="ssca.nu42_constant", kind="bound constant", where="Lemma 1, (42)", path=_CLAIMS,
        old="ROOT_42 = (sp.sqrt(b_sym / _D) - 1) / _tau_p",
        new="ROOT_42 = (sp.sqrt(b_sym / _D) - 1) / (2 * _tau_p)",
        computing=("tests/ssca/test_closed_forms.py::test_lemma1_kkt_exact_without_solver",),
        tests=("tests/ssca/test_bounds.py::test_all_rows_proven[lemma1_checks]",)),
    # delta_1 of (60) with 1/(1 + L_bar) instead of 1/(2 (1 + L_bar)). (60) is a liminf over index windows that no run
    # constructs and that bounds/ssca/steps.py lists as not encodable: only the typed value can catch it.
    Mutation(
        name="ssca.delta1_constant", kind="bound constant", where="(60), Appendix A", path=_CLAIMS,
        old="parameters={delta_1: 1 / (2 * (1 + L_bar))},",
        new="parameters={delta_1: 1 / (1 + L_bar)},",
        tests=("tests/ssca/test_bounds.py::test_claim_parameters_and_bounds",)),
    # ---------------------------------------------------------------- algorithm (Algorithms 1-4)
    # the surrogate recursion (8)/(12)/(18)/(24) weighted by gamma^(t) (the iterate's step (5)) instead of rho^(t)
    Mutation(
        name="ssca.surrogate_weight_gamma", kind="algorithm",
        where="(3)+(7) -> (8), weight rho^(t) of (4); Algorithms 1-4",
        path=_ALG,
        old="const = surrogate.update(values, grads, w, wsq, float(np.sum(weights)), rho[t - 1])",
        new="const = surrogate.update(values, grads, w, wsq, float(np.sum(weights)), gamma[t - 1])",
        tests=("tests/ssca/test_algorithm.py::test_a_recursion_and_server_step_match_independent_cvxpy[sample-M0]",)),
    # the mini-batch statistic of (3)/(10): each client's batch mean summed (weight 1/B) instead of weighted by N_i/N
    Mutation(
        name="ssca.minibatch_weight", kind="algorithm", where="(3)/(10), sample weight N_i/(B N)", path=_ALG,
        old="weights = np.full(I * B, n_i / (B * N))",
        new="weights = np.full(I * B, 1.0 / B)",
        tests=("tests/ssca/test_algorithm.py::test_a_recursion_and_server_step_match_independent_cvxpy[sample-M0]",)),
    # ---------------------------------------------------------------- search (repro/papers/ssca/runs/search.py)
    # the search of (51) judges only the last update of a run, not the worst iteration. MISSED by the whole of
    # tests/ssca/test_search.py: its one instance (INSTANCE, 12 iterations) has its largest ratio, 1.0, at the last
    # update too, and the small searches still find a violated halved constant there. The same test on INSTANCE with
    # iterations=9 (last ratio -5.8, largest 1.0) would catch it: the objective at factor 0.5 is -11.6 < 1 while
    # lemma4_outcome fails.
    Mutation(
        name="ssca.search_lemma4_last_update", kind="search or enumeration", where="search of (51), lemma4_ratio",
        path=_SEARCH,
        old="return float(np.max(ratios)) if ratios.size else math.nan",
        new="return float(ratios[-1]) if ratios.size else math.nan",
        tests=("tests/ssca/test_search.py::test_the_lemma4_objective_is_the_check_of_51_on_the_same_run",)),
    # the search of Lemma 1 against cvxpy loses the gap < 0 half of its box: only the inactive regime nu = 0 of (42)
    # is searched, where the closed form does not depend on tau (the halved constant cannot show)
    Mutation(
        name="ssca.search_lemma1_one_regime", kind="search or enumeration",
        where="search of Lemma 1 (40)-(42), its regimes", path=_SEARCH,
        old='"c": ((-1.0, 2.0), lambda x: 10.0 ** x), "gap": ((-2.0, 1.0), float),',
        new='"c": ((-1.0, 2.0), lambda x: 10.0 ** x), "gap": ((0.0, 1.0), float),',
        tests=("tests/ssca/test_search.py::test_the_search_detects_every_halved_constant",)),
]
