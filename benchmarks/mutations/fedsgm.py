"""Planted faults: fedsgm (see the package docstring)."""
from . import Mutation

_CLAIMS = "bounds/fedsgm/claims.py"
_ALGORITHM = "repro/papers/fedsgm/algorithms/fedsgm.py"
_ENCODINGS = "tests/fedsgm/test_bounds.py::test_encodings_match_paper_formulas"

FAULTS: list[Mutation] = [
    # ------------------------------------------------------------------ bound constants
    Mutation(
        name="fedsgm.lemma3_jensen_E", kind="bound constant", where="Lemma 3 (Appendix A.1)",
        path=_CLAIMS,
        # Jensen over the E local steps forgotten: E^2 G^2 -> E G^2 (a tighter, false bound for E > 1)
        old="conclusion=(sp.Le(agg_sq_expect, (q / n + 1) * E**2 * G**2),),",
        new="conclusion=(sp.Le(agg_sq_expect, (q / n + 1) * E * G**2),),",
        computing=("tests/fedsgm/test_claims.py::test_lemmas_and_round_inequalities_hold",),
        tests=(_ENCODINGS,),
    ),
    Mutation(
        name="fedsgm.thm8_eps_constant", kind="bound constant", where="Theorem 8 (Appendix A.4), eps display",
        path=_CLAIMS,
        # eps = sqrt(4 D^2 G^2 E / T) misread as sqrt(2 D^2 G^2 E / T)
        old="EPS_THM8 = sp.sqrt(4 * D**2 * G**2 * E / T)",
        new="EPS_THM8 = sp.sqrt(2 * D**2 * G**2 * E / T)",
        # no computation catches it: PEP certifies the smaller eps at every (E, T) solved (T <= 4); the runs notice
        # only through a guard (Theorem 8's check refuses the Theorem 1 run it shares at q_u = 0: parameters differ)
        tests=("tests/fedsgm/test_bounds.py::test_audit_verdicts", _ENCODINGS),
    ),
    Mutation(
        name="fedsgm.thm7_proof_eps_factor", kind="bound constant",
        where="Proof of Theorem 7, eq. (10) and the step after it (eps = 2 eps(Gamma_pf))",
        path=_CLAIMS,
        # the soft proof's factor 2 dropped: eps = eps(Gamma_pf)
        old="2 * eps_of(Gamma_proof), eta_of(Gamma_proof), soft=True,",
        new="eps_of(Gamma_proof), eta_of(Gamma_proof), soft=True,",
        computing=("tests/fedsgm/test_search.py::test_the_claims_too_loose_to_tell_are_those_the_small_search_computes",),
        tests=(_ENCODINGS,),
    ),
    # ------------------------------------------------------------------ algorithm
    Mutation(
        name="fedsgm.hard_switch_at_eps", kind="algorithm",
        where="Algorithm 1 / Section 3: hard switching sigma = 1{g(w_t) > eps}",
        path=_ALGORITHM,
        # wrong comparison: the constraint gradient is taken already at g(w_t) = eps
        old="return (z > 0).astype(np.float64)",
        new="return (z >= 0).astype(np.float64)",
        tests=("tests/fedsgm/test_algorithm.py::test_hard_switching_weight",
               "tests/fedsgm/test_algorithm.py::test_boundary_round_in_a_run"),
    ),
    Mutation(
        name="fedsgm.randk_unscaled", kind="algorithm", where="Assumption 2 (Rand-K C(x) = (d/K) x_S): RandK.apply",
        path="repro/compression.py",
        # the d/K scaling dropped: E C(x) = (K/d) x, the compressor is no longer unbiased
        old="out[rows, selected] = X[rows, selected] * (self.dim / self.K)",
        new="out[rows, selected] = X[rows, selected]",
        tests=("tests/fedsgm/test_algorithm.py::test_matches_naive_reference",),
    ),
    Mutation(
        name="fedsgm.randk_one_subset_per_round", kind="algorithm",
        where="Algorithm 1, uplink C_j(X_j) (Assumption 2: independent C_j per client)",
        path=_ALGORITHM,
        # one Rand-K subset drawn per round and broadcast to every client: each C_j stays unbiased, but the clients'
        # compressions are no longer independent (Lemma 3's q_u/n^2 variance term no longer applies)
        old="selected[t] = compressor.draw(rng, n)",
        new="selected[t] = compressor.draw(rng, 1)",
        tests=("tests/fedsgm/test_algorithm.py::test_different_seed_different_selections",
               "tests/fedsgm/test_exact.py"),
    ),
    # ------------------------------------------------------------------ search or enumeration
    Mutation(
        name="fedsgm.failsearch_axis_end_dropped", kind="search or enumeration",
        where="fedsgm.failsearch FAMILIES['boundary-n1-E1'] (theta = 0: the constraint's gradient on an axis)",
        path="repro/papers/fedsgm/runs/failsearch.py",
        # the degenerate end theta = 0 of the one-client family left out of its interval (0.3: at 0.1 the quick
        # search still finds 1/32 at distance 2)
        old='"theta": (0.0, QUARTER_TURN),\n                        "kappa": (0.0, 1.0)}),',
        new='"theta": (0.3, QUARTER_TURN),\n                        "kappa": (0.0, 1.0)}),',
        tests=("tests/fedsgm/test_failsearch.py::test_every_family_reaches_the_degenerate_end_of_each_geometric_coordinate",),
    ),
    Mutation(
        name="fedsgm.search_least_ratio", kind="search or enumeration",
        where="fedsgm.search claim_ratio (the objective: max observed/bound over the claim's outcomes)",
        path="repro/papers/fedsgm/runs/search.py",
        # the objective takes the least tight outcome of an instance instead of the tightest
        old='return max(ratios) if ratios else float("nan")',
        new='return min(ratios) if ratios else float("nan")',
        tests=("tests/fedsgm/test_search.py::test_the_claims_too_loose_to_tell_are_those_the_small_search_computes",),
    ),
]
