"""PC-FedAvg's direction, comparison, two-places and boundary findings (bounds/pcfedavg/remarks.py and
boundaries.py): each is decided by its computation, and perturbing what it checks flips it."""
from __future__ import annotations

import dataclasses

import sympy as sp

from bounds.audit import CONSISTENT, DISCREPANCY
from bounds.pcfedavg import boundaries as BND
from bounds.pcfedavg import remarks as REM
from bounds.pcfedavg.claims import D, _terms_48i, _terms_48ii, gamma, m, nu, rho
from repro.papers.pcfedavg import audit as A
from repro.papers.pcfedavg.runs import data as data_exp


def test_remark36_direction_in_rho_holds_as_printed_and_flips():
    assert REM.finding_remark36_tradeoff().verdict == CONSISTENT
    # an infeasibility bound that grows with rho, or a suboptimality bound with no term growing in rho, breaks it
    growing = [5 * m * D * rho] + _terms_48ii()[1:]
    assert REM.finding_remark36_tradeoff(feas_terms=growing).verdict == DISCREPANCY
    flat = [9 * gamma * nu**2 / m]
    assert REM.finding_remark36_tradeoff(sub_terms=flat).verdict == DISCREPANCY
    assert REM.finding_remark36_tradeoff(sub_terms=_terms_48i()).verdict == CONSISTENT


def test_remark36_better_rate_is_compared_in_one_unit():
    f = REM.finding_remark36_units()
    assert f.verdict == DISCREPANCY and f.claims == (REM.BETTER_ID,)
    powers = REM.common_unit_powers()
    assert powers["D > 0"]["infeasibility"] == powers["D > 0"]["suboptimality"]
    assert powers["D = 0"]["infeasibility"] < powers["D = 0"]["suboptimality"]
    # were infeasibility an unsquared distance, O(eps^-1) would be better in every case
    assert REM.finding_remark36_units(infeasibility=REM.delta).verdict == CONSISTENT


def test_stated_rates_agree_with_theorem_34_and_a_changed_place_disagrees():
    assert REM.finding_stated_rates().verdict == CONSISTENT
    where, words, _ = REM.STATED_RATES[0]
    assert REM.finding_stated_rates(places=((where, words, {"ii": 2}),)).verdict == DISCREPANCY


def test_heterogeneous_budgets_against_section_5():
    printed = {d: tuple(data_exp.HYPER[d]["tau"]) for d in data_exp.DATASETS}
    f = A.budgets_finding()
    assert f.verdict == DISCREPANCY and "mnist" in f.summary
    assert REM.finding_heterogeneous_budgets(printed | {"mnist": (185.0, 186.0, 187.0, 188.0)}).verdict == CONSISTENT


def test_boundary_values_report_only_admitted_degenerate_ones():
    values = {c.label: v for c, v in BND.evaluate_cases()}
    assert values["step-size rule, 1/(5 L_G (H-1)) at H = 1"].kind == "undefined"
    assert values["Prop. 4.8 (ii), 5 m D/rho^2 at rho -> 0+"].kind == "infinite"
    assert [c.label for c, _ in BND.reported()] == ["step-size rule, 1/(5 L_G (H-1)) at H = 1"]
    assert BND.finding_boundary_values().verdict == DISCREPANCY
    excluded = tuple(dataclasses.replace(c, admitted=False) if c.label.startswith("step-size") else c
                     for c in BND.CASES)
    assert BND.finding_boundary_values(cases=excluded).verdict == CONSISTENT
    assert values["Section 5, rho = (r + 10,000)^(1/4) at r = 0"].result == sp.Integer(10)


def test_the_output_is_not_the_iterate_theorem_34_bounds():
    f = REM.finding_output_iterate()
    assert f.verdict == DISCREPANCY
    assert REM.output_probability((20,) * 100) == 0 and REM.output_probability((2, 1, 2)) == sp.Rational(1, 6)
    # a theorem about the last iterate (K* = K) would bound what equal rounds return
    equal = ((2, (3, 3)), (100, (20,) * 100))
    assert REM.finding_output_iterate(schedules=equal, support=lambda K: (K,)).verdict == CONSISTENT


def test_an_agents_step_reads_only_its_own_set():
    assert A.finding_data_ownership().verdict == CONSISTENT
    # the same check sees the dependence on the agent's own set (the start is infeasible, the penalty active)
    assert A.finding_data_ownership(replace_own=True).verdict == DISCREPANCY
