"""FedCLUP's discussion checks (``bounds.fedclup.remarks``), boundary values (``bounds.fedclup.boundaries``), Table 2
against Table 4 and Figure 2's closing sentence with its erratum: each producer decides what it is given, and
perturbing what it checks flips its verdict.
"""
import sympy as sp

from bounds.fedclup import boundaries as BD
from bounds.fedclup import claims as C
from bounds.fedclup import findings as BF
from bounds.fedclup import remarks as RM
from repro import errata
from repro.papers.fedclup import errata as ERR
from repro.papers.fedclup import statements as ST
from repro.verdicts import Verdict, roll_up


def _direction(row, sign=None, expr=None):
    id_, claims, where, words, e, var, s = row
    return RM.direction(id_, claims, where, words, e if expr is None else expr, var, s if sign is None else sign)


def test_a_direction_flips_with_the_stated_sign():
    for row in RM.DIRECTIONS:
        assert _direction(row).verdict == "consistent", row[0]
        assert _direction(row, sign=-row[6]).verdict == "discrepancy", row[0]
    assert _direction(RM.DIRECTIONS[0], expr=(C.lam - 1)**2).verdict == "not checkable"
    assert _direction(RM.DIRECTIONS[0], expr=C.mu * sp.Integer(1)).verdict == "not checkable"   # does not move


def test_a_limit_must_be_of_the_stated_order():
    for row in RM.LIMITS:
        assert RM.limit_order(*row).verdict == "consistent", row[0]
    id_, claims, where, words, expr, var, point, atoms, free = RM.LIMITS[0]
    assert RM.limit_order(id_, claims, where, words, expr, var, point, atoms[:1], free).verdict == "discrepancy"
    assert RM.limit_order(id_, claims, where, words, expr + C.rho**2 / C.n, var, point, atoms, free).verdict \
        == "discrepancy"                                   # a 1/n term is not of order 1/N + R^2
    assert RM.limit_order(id_, claims, where, words, expr + var, var, point, atoms, free).verdict == "discrepancy"


def test_corollary1s_limits_in_R_follow_the_piece_in_force():
    for row in RM.COR1_LIMITS:
        assert RM.limit_order(*row).verdict == "consistent", row[0]
        other = 0 if row[6] == sp.oo else sp.oo                     # the other end of R
        assert RM.limit_order(*row[:6], other, *row[7:]).verdict == "discrepancy", row[0]
    id_, claims, where, words, _, var, point, atoms, free = RM.COR1_LIMITS[2]
    # without the claim's rho > 0 the pieces of Min(R^2, rho^2/(mu^2 n)) tie as R -> 0: no piece is provable
    assert RM.limit_order(id_, claims, where, words, C.RHS_COR1, var, point, atoms, free).verdict == "not checkable"
    rule = RM.COR1_LIMITS[0]
    (first, cond), (second, _) = rule[4].args
    swapped = sp.Piecewise((second, cond), (first, True))            # the other branch in force as R -> oo
    assert RM.limit_order(*rule[:4], swapped, *rule[5:]).verdict == "discrepancy"
    unknown = sp.Piecewise((first, C.mu >= C.L / 2), (second, True))  # a condition R does not decide
    assert RM.limit_order(*rule[:4], unknown, *rule[5:]).verdict == "not checkable"


def test_a_comparison_of_rates_needs_the_same_units():
    assert RM.same_units(*RM.MINIMAX_UNITS, C.RHS_COR1, RM.MINIMAX_LOWER_UNITS).verdict == "consistent"
    assert RM.same_units(*RM.MINIMAX_UNITS, sp.sqrt(C.RHS_COR1), RM.MINIMAX_LOWER_UNITS).verdict == "discrepancy"
    assert RM.same_units(*RM.MINIMAX_UNITS, C.RHS_COR1, C.R + C.rho**2).verdict == "discrepancy"


def test_the_limits_of_problem_2_follow_the_closed_form_rows():
    rows = tuple(BF.closed_form_limits())
    assert RM.limits_agree(*RM.LIMITS_SENTENCE, rows).verdict == "consistent"
    broken = (dict(rows[1], status="refuted"),) + rows[2:]
    assert RM.limits_agree(*RM.LIMITS_SENTENCE, broken).verdict == "discrepancy"
    assert RM.limits_agree(*RM.LIMITS_SENTENCE, ()).verdict == "not checkable"


def test_figure2s_sentence_fails_as_printed_and_holds_corrected():
    found = {f.id: f.verdict for f in RM.figure2_rounds(ERR.ROUNDS_ID, ERR.ROUNDS_OPTIONS)}
    for sid, _, _ in RM.FIGURE2_ROUNDS:
        assert (found[f"{sid}.printed"], found[f"{sid}.corrected"]) == ("discrepancy", "consistent")


def test_figure2s_erratum_is_an_inconsistency_computed_from_the_verdicts():
    ids = [sid for sid, _, _ in RM.FIGURE2_ROUNDS]
    verdicts = roll_up(ids, ST._figure2_rounds_statements(), {}, errata.readings(ERR))
    assert {v.verdict for v in verdicts} == {Verdict.HOLDS_ONCE_CORRECTED}
    claims = {s.id: (s.location, s.words) for s in ST.STATEMENTS}
    reports = errata.paper_errata(verdicts, list(ST.figure2_rounds_findings()), ERR, claims)
    assert [(r.id, r.kind.value) for r in reports] == [(ERR.ROUNDS_ID, "inconsistency")]


def test_a_sentence_agreeing_with_corollary_2_makes_no_erratum(monkeypatch):
    monkeypatch.setitem(RM.FIGURE2_SIGNS, "as printed", 1)       # as if it said "lower personalization"
    monkeypatch.setattr(ST, "figure2_rounds_findings", lambda: tuple(RM.figure2_rounds(ERR.ROUNDS_ID,
                                                                                       ERR.ROUNDS_OPTIONS)))
    ids = [sid for sid, _, _ in RM.FIGURE2_ROUNDS]
    verdicts = roll_up(ids, ST._figure2_rounds_statements(), {}, errata.readings(ERR))
    assert {v.verdict for v in verdicts} == {Verdict.HOLDS}
    claims = {s.id: (s.location, s.words) for s in ST.STATEMENTS}
    assert errata.paper_errata(verdicts, list(ST.figure2_rounds_findings()), ERR, claims) == []


def test_boundary_values_report_only_real_problems():
    found = BD.boundary_values()
    assert [(f.id, f.verdict) for f in found] == [("fedclup.boundary.summary", "consistent")]
    bad = ("a rate with 1/(K - 1)", 1 / (C.K - 1), C.K, 1, ("Somewhere", "some words"))
    real = BD.boundary_values(BD.ROWS + (bad + (True, True, "fedclup.thm2"),))
    assert [f.verdict for f in real] == ["discrepancy", "discrepancy"] and "some words" in real[0].summary
    assert real[0].claims == ("fedclup.thm2",)
    excluded = BD.boundary_values(BD.ROWS + (bad + (True, False, "fedclup.thm2"),))
    derived = BD.boundary_values(BD.ROWS + (bad + (False, True, "fedclup.thm2"),))
    assert [f.verdict for f in excluded] == [f.verdict for f in derived] == ["consistent"]


def test_table2_agrees_with_table4_and_a_changed_entry_is_named():
    assert ST.tables_agree(ST.TABLE2, ST.TABLE4_LOW).verdict == "consistent"
    row = ST.TABLE4_LOW[("CIFAR10 CNN3", 10)]
    changed = dict(ST.TABLE4_LOW) | {("CIFAR10 CNN3", 10): row[:3] + (0.8042,) + row[4:]}
    found = ST.tables_agree(ST.TABLE2, changed)
    assert found.verdict == "discrepancy" and "CIFAR10 CNN3 GlobalTrain" in found.summary


def test_a_printed_table_statement_is_decided_under_both_readings():
    found = {f.id: f.verdict for f in ST.printed_findings()}
    assert set(found.values()) == {"not checkable"}          # strict reading fails in one row, lenient holds
    fid, st, where, words, build, _, lenient = ST.PRINTED_READINGS[0]
    cifar = ("CIFAR10 CNN3", 10)
    fixed = dict(ST.TABLE4) | {cifar: ST.TABLE4[cifar][:4] + (0.6,) + ST.TABLE4[cifar][5:]}
    assert ST.printed_reading(fid, st, where, words, build(fixed), lenient).verdict == "consistent"
    broken = dict(ST.TABLE4) | {cifar: ST.TABLE4[cifar][:4] + (0.9,) + ST.TABLE4[cifar][5:]}
    assert ST.printed_reading(fid, st, where, words, build(broken), lenient).verdict == "discrepancy"
    fid, st, where, words, build, _, lenient = ST.PRINTED_READINGS[1]
    flat = {name: row[:4] + (0.9, 0.8, 0.7) + row[7:] for name, row in ST.TABLE2.items()}
    assert ST.printed_reading(fid, st, where, words, build(flat), lenient).verdict == "discrepancy"
