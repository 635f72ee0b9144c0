"""Planted faults: machinery (see the package docstring)."""
from . import Mutation

FAULTS: list[Mutation] = [
    # a verdict rule inverted: a finding that exhibits a breaking instance is read as support of the claim
    Mutation("machinery.instance_read_as_support", "deciding machinery", "repro.verdicts.DISCREPANCY_BEARING",
             "repro/verdicts.py",
             old='"stated-rate": Bearing.GAP, "instance": Bearing.VIOLATES,',
             new='"stated-rate": Bearing.GAP, "instance": Bearing.SUPPORTS,',
             tests=("tests/test_verdicts.py::test_findings_and_checks_map_to_bearings_by_rule",)),
    # the precedence of _decide inverted: a gap now outranks a violation (the claim reads "not proven", not "violated")
    Mutation("machinery.gap_outranks_violation", "deciding machinery", "repro.verdicts._decide",
             "repro/verdicts.py",
             old="    if by[Bearing.VIOLATES]:\n        e = _worst(by[Bearing.VIOLATES])",
             new="    if by[Bearing.VIOLATES] and not by[Bearing.GAP]:\n        e = _worst(by[Bearing.VIOLATES])",
             tests=("tests/test_verdicts.py::test_a_violation_outranks_a_gap_which_outranks_support",)),
    # the open choices treated as errata: a claim is decided only under the last admissible value of a choice
    Mutation("machinery.choice_read_as_erratum", "deciding machinery", "repro.verdicts._conclude",
             "repro/verdicts.py",
             old="    errata = [a for a in axes if not readings.axis(a).choice]",
             new="    errata = list(axes)",
             tests=("tests/test_errata.py::test_violated_only_under_every_reading_and_depends_when_a_choice_decides",)),
    # the kind decision perturbed: _rescued looks at the printed readings, so a typo is never rescued (decided a gap)
    Mutation("machinery.typo_never_rescued", "deciding machinery", "repro.errata._rescued",
             "repro/errata.py",
             old="corrected = [r for r in v.readings if r.reading.get(axis.id, axis.options[0]) != axis.options[0]]",
             new="corrected = [r for r in v.readings if r.reading.get(axis.id, axis.options[0]) == axis.options[0]]",
             tests=("tests/test_errata_planted.py::"
                    "test_every_planted_error_is_one_erratum_of_its_kind_and_nothing_else_is_violated",)),
    # an interval that straddles the range's edge supports the statement when its mean lies inside
    Mutation("machinery.straddle_supports", "deciding machinery", "repro.comparisons.decide",
             "repro/comparisons.py",
             old="    if lo + tol <= ci.low and ci.high <= hi - tol:",
             new="    if lo + tol <= ci.mean and ci.high <= hi - tol:",
             tests=("tests/fedclup/test_findings.py::test_a_statement_ordering_is_decided_over_seeds",)),
    # the exact confirmation reads the step's slack as its violation: a refuted step is never confirmed (accepted)
    Mutation("machinery.step_confirm_reads_slack", "deciding machinery", "bounds.steps.confirm",
             "bounds/steps.py",
             old='gap = {"<=": a - b, ">=": b - a, "==": abs(a - b)}[step.relation]',
             new='gap = {"<=": b - a, ">=": a - b, "==": abs(a - b)}[step.relation]',
             tests=("tests/test_proof_search.py::"
                    "test_a_constant_off_by_a_factor_of_two_is_refuted_with_an_exactly_confirmed_instance",)),
    # the failure-probability search's box shrunk instead of widened: differential evolution never reaches an end
    # of a coordinate (a start on the boundary, one client), only the box's vertices do
    Mutation("machinery.failsearch_box_shrunk", "search or enumeration", "repro.failure_search._widened",
             "repro/failure_search.py",
             old="    return lo - pad, hi + pad, lambda x: family.decode(np.clip(x, lo, hi))",
             new="    return lo + pad, hi - pad, lambda x: family.decode(np.clip(x, lo, hi))",
             tests=("tests/test_failure_search.py::test_widened_ends_alone_find_it_without_the_vertices",)),
    # an exact enumeration read with one failing pattern fewer: a single failing pattern no longer violates
    Mutation("machinery.exact_one_failure_ignored", "search or enumeration", "repro.exact_audit.evidence",
             "repro/exact_audit.py",
             old="            violated = count.failed > 0",
             new="            violated = count.failed > 1",
             tests=("tests/test_evidence_readers.py::"
                    "test_a_positive_failure_probability_violates_a_deterministic_claim_and_replays_its_first_failing_"
                    "pattern",
                    "tests/fedsgm/test_failsearch.py::"
                    "test_the_run_records_every_theorem_of_its_group_and_the_evidence_violates")),
    # a use of a cited result summed over instances counts one: the given side shrinks, the one-sided check still
    # accepts it, and only the exact comparison of the uses the steps state sees it
    Mutation("machinery.use_copies_ignored", "deciding machinery", "bounds.steps._summed",
             "bounds/steps.py",
             old="    return use.copies * fixed + (bound - fixed)",
             new="    return fixed + (bound - fixed)",
             tests=("tests/test_crossrefs.py::test_every_stated_use_takes_exactly_what_the_cited_result_gives",)),
    # the use check reversed: the step must take at most what the cited result gives (a halved use is accepted)
    Mutation("machinery.use_check_reversed", "deciding machinery", "bounds.steps.use_step",
             "bounds/steps.py",
             old='lhs=given, relation="<=", rhs=use.bound,',
             new='lhs=given, relation=">=", rhs=use.bound,',
             tests=("tests/test_crossrefs.py::"
                    "test_the_use_of_a_cited_claim_is_checked_where_a_step_states_it_and_a_use_it_does_not_provide_is_"
                    "found",)),
]
