"""The shared performance-estimation layer (repro.pep) and its reading for the report (repro.tightness), on PEPit's
own centralised examples, whose worst cases are known in closed form."""
import dataclasses
import math
from types import SimpleNamespace

import numpy as np
import pytest
from PEPit import PEP
from PEPit.examples.unconstrained_convex_minimization.gradient_descent import wc_gradient_descent
from PEPit.examples.unconstrained_convex_minimization.subgradient_method import wc_subgradient_method
from PEPit.functions import ConvexLipschitzFunction, SmoothConvexFunction

from repro import pep, tightness
from repro.verdicts import Bearing


def gradient_descent_pep(L: float, gamma: float, n: int):
    """n steps of gradient descent on an L-smooth convex function from ||x0 - x*|| <= 1; metric f(x_n) - f*."""
    problem = PEP()
    f = problem.declare_function(SmoothConvexFunction, L=L)
    xs = f.stationary_point()
    x0 = problem.set_initial_point()
    problem.set_initial_condition((x0 - xs) ** 2 <= 1)
    x = x0
    for _ in range(n):
        x = x - gamma * f.gradient(x)
    problem.set_performance_metric(f(x) - f(xs))
    return problem, f


@pytest.mark.parametrize("L, gamma, n", [(1.0, 1.0, 1), (3.0, 1 / 3, 4), (2.0, 0.3, 3)])
def test_certify_reproduces_pepits_gradient_descent_example(L, gamma, n):
    """PEPit's own wc_gradient_descent; at gamma = 1/L also Drori & Teboulle's tight L / (4n + 2)."""
    reference, _ = wc_gradient_descent(L=L, gamma=gamma, n=n, solver="CLARABEL", verbose=-1)
    problem, _ = gradient_descent_pep(L, gamma, n)    # after the example: PEPit's point lists are global
    cert = pep.certify(problem)
    assert cert.value == pytest.approx(reference, rel=1e-6)
    if gamma == 1 / L:
        assert cert.value == pytest.approx(L / (4 * n + 2), rel=1e-6)
    assert 0 <= cert.gap <= pep.margin(cert.value)
    assert (cert.solver, cert.status, cert.tolerance) == ("CLARABEL", "optimal", pep.TOLERANCE)


def test_certify_agrees_with_pepit_subgradient_example():
    M, n = 2.0, 5
    gamma = 1 / (M * math.sqrt(n + 1))
    reference, theory = wc_subgradient_method(M=M, n=n, gamma=gamma, solver="CLARABEL", verbose=-1)
    problem = PEP()                  # after the example: PEPit's point lists are global, reset by every PEP()
    f = problem.declare_function(ConvexLipschitzFunction, M=M)
    xs = f.stationary_point()
    x0 = problem.set_initial_point()
    problem.set_initial_condition((x0 - xs) ** 2 <= 1)
    x, fs = x0, f(xs)
    for _ in range(n):
        g, fx = f.oracle(x)
        problem.set_performance_metric(fx - fs)
        x = x - gamma * g
    problem.set_performance_metric(f(x) - fs)
    cert = pep.certify(problem)
    assert cert.value == pytest.approx(reference, rel=1e-6) and cert.value == pytest.approx(theory, rel=1e-6)
    table = pep.worst_case_table(f)
    interpolant = pep.max_affine(table)
    assert [interpolant(x) for x in table.x] == pytest.approx(table.f, abs=1e-6)     # it interpolates the table
    assert np.linalg.norm(table.g, axis=1).max() <= M * (1 + 1e-6)                   # and is M-Lipschitz


def test_unbounded_pep_is_a_one_line_error():
    problem = PEP()
    f = problem.declare_function(SmoothConvexFunction, L=1.0)
    xs = f.stationary_point()
    x0 = problem.set_initial_point()              # no initial condition: f(x0) - f* is unbounded
    problem.set_performance_metric(f(x0) - f(xs))
    with pytest.raises(pep.PepError, match="no finite worst case|failed"):
        pep.certify(problem)


def test_decide_tells_violated_certified_and_inconclusive_apart():
    cert = pep.Certificate(value=1.0, primal=0.999, solver="CLARABEL", status="optimal", tolerance=1e-9,
                           pepit="x", seconds=0.0)
    assert pep.decide(2.0, cert).decision == pep.CERTIFIED and pep.decide(2.0, cert).ratio == 2.0
    assert pep.decide(1.0, cert).decision == pep.TIGHT
    assert pep.decide(1.0 + 2 * pep.margin(1.0), cert).decision == pep.CERTIFIED
    assert pep.decide(0.9995, cert).decision == pep.INCONCLUSIVE
    assert pep.decide(0.5, cert).decision == pep.VIOLATED
    inaccurate = pep.Certificate(value=1.0, primal=0.999, solver="CLARABEL", status="optimal_inaccurate",
                                 tolerance=1e-9, pepit="x", seconds=0.0)
    assert pep.decide(0.99895, cert).decision == pep.VIOLATED          # beyond 1e-7 of an optimal solve
    assert pep.decide(0.99895, inaccurate).decision == pep.INCONCLUSIVE  # within 1e-4 of an inaccurate one
    assert pep.decide(1.00005, inaccurate).decision == pep.TIGHT       # not told apart from the worst case
    with pytest.raises(ValueError, match="bound"):
        pep.decide(math.nan, cert)


def test_replay_through_the_table_reproduces_the_certified_value_and_detects_a_different_step():
    L, gamma, n = 2.0, 0.5, 3
    problem, f = gradient_descent_pep(L, gamma, n)
    cert = pep.certify(problem)
    table = pep.worst_case_table(f)
    x0 = table.x[1]                                   # the points in the order asked: x*, x0, x1, ...
    oracle = pep.TableOracle(table)
    x = x0.copy()
    for _ in range(n):
        x = x - gamma * oracle.gradient(x)
    assert oracle.value(x) - table.f[0] == pytest.approx(cert.value, rel=1e-6)
    wrong = pep.TableOracle(table)
    with pytest.raises(pep.ReplayError, match="different steps"):
        y = x0.copy()
        for _ in range(n):
            y = y - 2 * gamma * wrong.gradient(y)


def _result(claim: str, points, experiment="toy.pep", h="abc"):
    meta = pep.curve(claim, "f(x_T) - f*", "L-smooth convex", "gradient descent", points)
    return SimpleNamespace(spec=SimpleNamespace(experiment=experiment, seed=0, config={}), hash=h,
                           meta={"metadata": meta})


def test_tightness_evidence_and_table_follow_the_decisions():
    problem, _ = gradient_descent_pep(1.0, 1.0, 2)
    cert = pep.certify(problem)
    holds = _result("toy.claim", [pep.point({"T": 2}, 2 * cert.value, cert)])
    broken = _result("toy.other", [pep.point({"T": 2}, cert.value / 2, cert), pep.point({"T": 3}, 1.0, cert)], h="d")
    ev = tightness.evidence([holds, broken])
    assert [e.bearing for e in ev] == [Bearing.SUPPORTS, Bearing.VIOLATES]
    assert ev[0].worst == pytest.approx(0.5) and ev[1].replay.endswith("result d")
    assert {e.method for e in ev} == {tightness.METHOD}
    text = tightness.table([holds, broken])
    assert text.count("| violated |") == 1 and text.count("| certified |") == 2
    assert "solver status: 1 optimal" in tightness.solver_line([holds])
    assert "CLARABEL" in tightness.solver_line([holds])


def test_reach_is_the_division_at_which_the_certified_worst_case_reports_the_bound_violated():
    cert = pep.Certificate(value=1.0, primal=0.999, solver="CLARABEL", status="optimal", tolerance=1e-9,
                           pepit="x", seconds=0.0)
    other = pep.Certificate(value=4.0, primal=4.0, solver="CLARABEL", status="optimal", tolerance=1e-9,
                            pepit="x", seconds=0.0)
    curve = _result("toy.claim", [pep.point({"T": 2}, 5.0, cert), pep.point({"T": 3}, 40.0, other)])
    (key, (k, at, ratio, n)), = tightness.reach([curve]).items()
    assert key == ("toy.claim", "f(x_T) - f*", "") and at == ({"T": 2},)    # T varies: no setting; T = 2 attains k
    assert ratio == pytest.approx(5.0) and k > ratio                               # k >= the ratio, by the margin
    assert tightness.claim_reach([curve, _result("toy.claim", [pep.point({"T": 4, "m": 2}, 2.0, other)])]) == {
        "toy.claim": {"f(x_T) - f*": pytest.approx(2.0 / (4.0 - pep.margin(4.0)), rel=1e-12)}}   # smallest of its curves
    assert n == 2 and k == pytest.approx(5.0 / (0.999 - pep.margin(1.0)), rel=1e-12)    # the T = 2 point decides
    assert pep.decide(5.0 / (k * (1 + 1e-9)), cert).decision == pep.VIOLATED
    assert pep.decide(5.0 / (k * (1 - 1e-9)), cert).decision != pep.VIOLATED
    assert f"| f(x_T) - f* | - | {k:.3g} | T = 2 | 5 | 2 |" in "\n".join(tightness.reach_table([curve]))
    zero = pep.Certificate(value=0.0, primal=0.0, solver="CLARABEL", status="optimal", tolerance=1e-9, pepit="x",
                           seconds=0.0)
    assert tightness.reach_factor(pep.point({"T": 1}, 1.0, zero)) == math.inf     # nothing to catch it
    for bound, already in ((0.0, cert), (-1.0, zero)):                             # violated already: k = 0
        assert pep.decide(bound, already).decision == pep.VIOLATED
        assert tightness.reach_factor(pep.point({"T": 1}, bound, already)) == 0.0
    shared = _result("toy.claim", [pep.point({"T": 2, "m": 3}, 5.0, cert), pep.point({"T": 3, "m": 3}, 40.0, other)])
    assert "| `toy.claim` | f(x_T) - f* | m = 3 |" in "\n".join(tightness.reach_table([shared]))   # m shared by both
    with pytest.raises(ValueError, match="share the setting"):                   # a second curve would hide a row
        tightness.reach([shared, _result("toy.claim", [pep.point({"T": 4, "m": 3}, 2.0, other)], h="e")])


def test_reach_names_every_point_attaining_k_and_keeps_the_axis_out_of_the_setting():
    cert = pep.Certificate(value=1.0, primal=1.0, solver="CLARABEL", status="optimal", tolerance=1e-9, pepit="x",
                           seconds=0.0)
    noisy = dataclasses.replace(cert, value=1.0 + 1e-9, primal=1.0 + 1e-9)
    ties = _result("toy.claim", [pep.point({"T": 1}, 1.0, cert), pep.point({"T": 2}, 1.0, noisy)])
    (r,) = tightness.reach([ties]).values()
    assert r.at == ({"T": 1}, {"T": 2})                                          # equal k up to the solver's noise
    assert "| every point |" in "\n".join(tightness.reach_table([ties]))
    alone = _result("toy.claim", [pep.point({"T": 3, "m": 2}, 2.0, cert)])
    assert list(tightness.reach([alone])) == [("toy.claim", "f(x_T) - f*", "m = 2")]   # T is the curve's axis
    assert "| m = 2 | 2 | T = 3 |" in "\n".join(tightness.reach_table([alone]))          # and where k is
    loose = dataclasses.replace(cert, primal=1.0 - 1e-4)
    assert tightness.reach_cell(tightness.reach_factor(pep.point({"T": 1}, 1.0, loose))).startswith("1.0001")


def test_grid_is_the_product_of_the_axes():
    assert pep.grid(T=(1, 2), E=(1,)) == [{"T": 1, "E": 1}, {"T": 2, "E": 1}]


def quadratic_pep():
    """Gradient descent on the sum of a smooth strongly convex quadratic (PEPit's class with an LMI) and a smooth convex
    function from ||x0 - x*|| = 1 (an equality), metric the min over two steps of the gap: equalities, inequalities
    and an LMI."""
    from PEPit.functions import SmoothStronglyConvexQuadraticFunction

    problem = PEP()
    f = problem.declare_function(SmoothStronglyConvexQuadraticFunction, mu=0.1, L=1.0)
    h = problem.declare_function(SmoothConvexFunction, L=2.0)
    xs = (f + h).stationary_point()
    x = x0 = problem.set_initial_point()
    problem.set_initial_condition((x0 - xs) ** 2 == 1)
    for _ in range(2):
        x = x - 0.5 * (f.gradient(x) + h.gradient(x))
        problem.set_performance_metric(f(x) + h(x) - f(xs) - h(xs))
    return problem


@pytest.mark.filterwarnings("ignore:Solution may be inaccurate")
@pytest.mark.parametrize("build", [quadratic_pep, lambda: gradient_descent_pep(2.0, 0.5, 3)[0]])
def test_stacked_wrapper_hands_clarabel_pepits_own_problem(build):
    """repro.pep_sdp sends PEPit's rows in blocks: the conic problem cvxpy hands Clarabel is PEPit's cvxpy wrapper's,
    entry for entry, so the certificate and every dual value PEPit reconstructs it from are the same floats."""
    from repro.pep_sdp import WRAPPER

    solved = []
    for wrapper in ("cvxpy", WRAPPER):
        problem = build()
        value = problem.solve(wrapper=wrapper, safe_mode=False, solver=pep.SOLVER, verbose=0,
                              tol_gap_abs=pep.TOLERANCE, tol_gap_rel=pep.TOLERANCE, tol_feas=pep.TOLERANCE,
                              max_threads=pep.SOLVER_THREADS)
        data = problem.wrapper.prob.get_problem_data(pep.SOLVER)[0]
        sent = problem._list_of_prepared_constraints + problem._list_of_prepared_psd
        duals = [np.asarray(c.eval_dual()) for c in sent]
        solved.append((value, data, duals, len(problem._list_of_prepared_psd)))
    (value, data, duals, lmis), (value2, data2, duals2, lmis2) = solved
    assert lmis == lmis2 == (build is quadratic_pep) and (data["dims"].zero > 0) == (build is quadratic_pep)
    assert value2 == value and len(duals2) == len(duals) and all(np.array_equal(a, b) for a, b in zip(duals, duals2))
    assert vars(data2["dims"]) == vars(data["dims"]) and np.array_equal(data2["c"], data["c"])
    assert np.array_equal(data2["b"], data["b"]) and (data2["A"] != data["A"]).nnz == 0
