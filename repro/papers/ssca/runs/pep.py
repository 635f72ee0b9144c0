"""Certified worst cases (performance estimation, PEPit) of the deterministic full-batch special case of mini-batch
SSCA (``ssca.pep``), for the one claim of :data:`bounds.ssca.claims.CLAIMS` that has such a case with a finite-iteration
inequality: Lemma 4, the descent inequality (51) of Appendix A.

The method modelled
-------------------
Algorithm 1 (sample-based, Problem 1, M = 0) with the example surrogate (7), one client holding all the data and the
full batch (B = N), so the batch sums are the exact gradient of F0 (Algorithm 3 with one client holding every
feature block is the same iteration). Then the printed surrogate (8) is F_bar^(t)(w) = f_hat^(t) . w + tau ||w||^2
with the recursion f_hat^(t) = (1 - rho^(t)) f_hat^(t-1) + rho^(t) (grad F0(w^(t)) - 2 tau w^(t)) started from
f_hat^(0) = 0 ("with f_hat^(0)_{s,0,1} = 0", after (8)); its minimiser is the explicit step (9),
w_bar^(t) = -f_hat^(t) / (2 tau), and the iterate update is the averaging (5), w^(t+1) = (1 - gamma^(t)) w^(t) +
gamma^(t) w_bar^(t) (:func:`full_batch_ssca`, exactly what :func:`repro.papers.ssca.algorithms.ssca.run_sample_based`
executes with one client and one sample). The method has no branch. Because f_hat starts at 0, the origin is a
distinguished point (the iteration is not translation invariant when rho < 1): the PEP keeps PEPit's origin as the
algorithm's, and the worst case places w^(1) freely relative to it.

With rho^(t) = gamma^(t) = 1 the iteration is gradient descent with step 1/(2 tau): the degenerate models
(:func:`gradient_norm_problem`, :func:`convex_gap_problem`) must then agree with PEPit's own examples
``nonconvex_optimization/gradient_descent.py`` and ``unconstrained_convex_minimization/gradient_descent.py``
(``tests/ssca/test_pep.py``). With rho < 1 the same two metrics (min ||grad F0||^2 given F0(w^(1)) - F0(w^(T)) <= 1;
F0(w^(T)) - F0* given ||w^(1) - w*|| <= 1) have no finite worst case: the recursion from f_hat^(0) = 0 pulls the
iterates towards the origin, wherever the minimiser lies (the tests assert the PEPs are unbounded). The paper states
no rate anyway, so these serve only as the degenerate cross-check.

Lemma 4 (51) as a PEP (:func:`lemma4_problem`)
----------------------------------------------
(51): F0(w^(t+1)) - F0(w^(t)) <= gamma^(t) Delta err - gamma^(t) (mu - L_hat gamma^(t) / 2) Delta^2, with
Delta = ||w_bar^(t) - w^(t)||, err = ||grad F0(w^(t)) - grad F_bar^(t)(w^(t))||, mu the strong-convexity modulus of
F_bar^(t) (mu = 2 tau for the printed surrogate (8)) and L_hat "Suppose grad F0(w) is Lipschitz continuous with
constant L_hat > 0" (the proof's words).

* Function class: PEPit ``SmoothFunction(L=L_hat)``, the L_hat-smooth (possibly nonconvex) functions -- Assumption 1
  ("continuously differentiable, and its gradient is Lipschitz continuous") with the constant the proof names;
  PEPit's interpolation conditions make the worst case over this class exact in every dimension.
* The quantity: F0(w^(t+1)) - F0(w^(t)) at the t-th iteration, after the t - 1 earlier iterations of the same method
  on the same function (the history fixes f_hat^(t-1)).
* Initial condition: none on w^(1) (free); the two observed quantities on the right of (51) are fixed by equality
  constraints, Delta^2 = 1 and err^2 = (err_over_mu * mu)^2. Both sides of (51) are homogeneous of degree 2 under
  (w, F0) -> (s w, s^2 F0), which keeps L_hat, so Delta = 1 loses no generality; the printed bound is evaluated from
  the encoded claim (``bounds.ssca.claims.claim("ssca.lemma4").evaluate``) at exactly these values, never re-typed.
  err is a free parameter: the claim bounds the descent for every (Delta, err), and its sign/size decides the sign
  of the bound; the grids keep the bound > 0 (the figure is on log axes). With rho^(t) = 1 the surrogate gradient at
  w^(t) is exact, err = 0 is forced and the config requires it (a PEP with err > 0 would be infeasible).
* Step sizes: the claim's own, the Section VI family rho = a1/t^alpha, gamma = a2/t^(alpha + 0.05) with the three
  printed triples (``bounds.ssca.claims.SECTION_VI_TRIPLES``) and Section VI's tau = 0.1, plus the degenerate
  rho = gamma = 1 (gradient descent with step 1/(2 tau)); L_hat = 1 fixes the scale.

Every certified worst case is replayed: the worst-case table of the PEP (:func:`repro.pep.worst_case_table`) is
the oracle (:class:`repro.pep.TableOracle`) of the suite's own Algorithm 1 through a one-client, one-sample problem
adapter (:class:`TableProblem`), and the replayed F0(w^(t+1)) - F0(w^(t)), Delta and err are kept in the arrays
(``replay_descent``, ``replay_delta``, ``replay_err``) beside the PEP's primal value; the same table is replayed
through the suite's Algorithm 3 (one client holding every feature block, :func:`replay_lemma4_feature_based`) and its
F0(w^(t+1)) - F0(w^(t)) kept too (``replay_descent_alg3``). Each point records the values the printed bound is
evaluated at besides the step sizes: tau, mu (= 2 tau, the modulus of the surrogate (8)) and Delta (= 1).

A point whose printed bound equals the certified worst case within the solver's margin is *tight*
(:func:`repro.pep.decide`): (51) is attained there, up to the solver's accuracy; the report counts the decisions.

Claims that cannot be modelled
------------------------------
Every other claim of ``bounds.ssca.claims.CLAIMS``; the list (claim, kind, the paper's words, why) is the data structure
:data:`NOT_MODELLED`, appended to this docstring below and shown in the report section.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from bounds.ssca import claims as B
from repro import admissible, pep
from repro.errors import is_int, require
from repro.experiment import Config
from repro.papers.ssca import checks as V
from repro.papers.ssca.algorithms import ssca as alg
from repro.runner import RunSpec

CLAIM = "ssca.lemma4"
QUANTITY = "F0(w^(t+1)) - F0(w^(t)) at ||w_bar - w|| = 1, L_hat = {L_hat:g} (Lemma 4 (51))"
FUNCTION_CLASS = "L_hat-smooth functions (PEPit SmoothFunction; Assumption 1)"
METHOD = ("the deterministic full-batch special case of Algorithms 1 and 3 (one client holding every sample and every "
          "feature block, full batch), surrogate (7): f_hat recursion (8) from 0, step (9), averaging (5)")
#: the largest iteration index a config may ask for (PEPs of a few seconds)
T_MAX = 12
#: Section VI's tau ("tau = 0.1")
TAU_SECTION_VI = 0.1


def _section_vi_family() -> dict[str, alg.PowerLawSteps]:
    return {f"VI({a1:g},{a2:g},{al:g})": alg.PowerLawSteps(a1=a1, alpha=al, a2=a2,
                                                          beta=round(al + B.SECTION_VI_GAMMA_OFFSET, 12))
            for a1, a2, al in B.SECTION_VI_TRIPLES}


#: step-size families: the three Section VI triples (a1, a2, alpha), gamma exponent alpha + 0.05, and "gd", the
#: degenerate rho = gamma = 1 (gradient descent with step 1/(2 tau))
STEP_FAMILIES: dict[str, alg.PowerLawSteps] = _section_vi_family() | {"gd": alg.PowerLawSteps(1.0, 0.0, 1.0, 0.0)}


class NotModelled(NamedTuple):
    """A claim of ``bounds.ssca.claims.CLAIMS`` with no PEP model here: its id, the kind of obstacle, the paper's words
    that show it, and why no worst case of a finite-iteration quantity can be certified."""

    claim: str
    kind: str
    words: str
    why: str


_CF_WHY = ("an identity about one given strongly convex quadratic (its minimiser), true or false by algebra for "
           "every realisation, batched or full: no method is iterated over a function class, so there is no worst "
           "case to estimate (checked exactly in tests/ssca/test_closed_forms.py and on the runs' own iterates)")
_AS_WHY = ("a statement about limit points of an infinite sequence; its deterministic full-batch special case is "
           "still one, with no rate or finite-T quantity printed: no finite-T worst case exists to certify")
_CONS_WHY = ("besides the almost-sure limit over t, the limit c_j -> oo over a penalty sequence, and the server step "
             "is the convex QCQP Problem 5/10 (solved by an interior-point method or Lemma 1), not a first-order "
             "step a PEP can iterate")
_NO_ALG_WHY = ("a statement about local optima of the problems (27) and (37), about no algorithm and no iteration: "
               "there is no method whose worst case a PEP could estimate")

#: every claim of bounds.ssca.claims.CLAIMS but Lemma 4, with the reason it has no PEP model (the module docstring and the
#: report list this)
NOT_MODELLED: tuple[NotModelled, ...] = (
    NotModelled("ssca.eq9", "closed form", "\"By the first-order optimality condition, it has the following "
                "analytical solution: w_bar = -(1/(2 tau)) f_hat\" (9)", _CF_WHY),
    NotModelled("ssca.eq19", "closed form", "\"an unconstrained convex quadratic programming w.r.t. w and hence has "
                "the following analytical solution\" (19)", _CF_WHY),
    NotModelled("ssca.eq35_36", "closed form", "\"the server only needs to compute w according to (35) and (36)\"",
                _CF_WHY),
    NotModelled("ssca.lemma1", "closed form", "\"Lemma 1 (Optimal Solution of Problem in (38))\"",
                "the closed-form solution (40)-(42) of one given convex QCQP (38), a multiplier formula: an identity "
                "true or false by algebra for every realisation, batched or full, with no method iterated over a "
                "function class and so no worst case to estimate (checked in tests/ssca/test_closed_forms.py, all "
                "three regimes of (42), and on the runs' own iterates)"),
    NotModelled("ssca.thm1", "almost-sure limit", "\"every limit point of {w_s^(t)} is a KKT point of Problem 1 "
                "almost surely\" (Theorem 1)", _AS_WHY),
    NotModelled("ssca.thm2", "almost-sure limit; constraint handling", "\"the sequence {c_j} satisfies 0 < c_j < "
                "c_{j+1} and lim c_j = oo ... w*_{s,j} is a KKT point of Problem 3 almost surely\" (Theorem 2)",
                _AS_WHY + "; " + _CONS_WHY),
    NotModelled("ssca.thm3", "almost-sure limit", "\"every limit point of {w_f^(t)} is a KKT point of Problem 6 "
                "almost surely\" (Theorem 3)", _AS_WHY),
    NotModelled("ssca.thm4", "almost-sure limit; constraint handling", "\"the sequence {c_j} satisfies 0 < c_j < "
                "c_{j+1} and lim c_j = oo ... w*_{f,j} is a KKT point of Problem 8 almost surely\" (Theorem 4)",
                _AS_WHY + "; " + _CONS_WHY),
    NotModelled("ssca.lemma2", "almost-sure limit", "\"lim_{t->oo} ||grad F_bar_0^(t)(w^(t)) - grad F0(w^(t))|| = 0, "
                "lim_{t->oo} |F_bar_0^(t)(w) - G0(w, w^(t))| = 0 ... almost surely\" (Lemma 2)", _AS_WHY),
    NotModelled("ssca.lemma3", "almost-sure limit; unspecified constant", "\"there exists a constant L_bar such that "
                "(43) ... and lim_{t1,t2->oo} e(t1, t2) = 0 almost surely\"; \"From Assumption 2.3, G0(w, w^(t)) is "
                "Lipschitz continuous in w^(t)\" (Lemma 3)",
                "the remainder e(t1, t2) is defined only through its almost-sure limit, and L_bar = 2 L_tilde/mu rests "
                "on a Lipschitz constant L_tilde of G0 in its second argument that is finite on no unbounded set for "
                "the example surrogate (7) (its tau ||w - w'||^2 term): the printed right-hand side has no finite "
                "value to compare a worst case with"),
    NotModelled("ssca.appA.delta1", "almost-sure limit", "\"lim inf_{T contains t->oo} sum_{n=t}^{i_t - 1} gamma^(t) "
                ">= delta_1 = 1/(2(1 + L_bar)) > 0\" (60)",
                "a lim inf along the index windows of a proof by contradiction, which no finite run constructs; "
                "L_bar as for Lemma 3"),
    NotModelled("ssca.lemma5", "almost-sure limit", "\"lim_{t->oo} |F_bar_m^(t)(w^(t)) - F_m(w^(t))| = 0, m = 1, ..., "
                "M, lim_{t->oo} ||grad F_bar_m^(t)(w^(t)) - grad F_m(w^(t))|| = 0 ... almost surely\" (Lemma 5)", _AS_WHY),
    NotModelled("ssca.lemma6", "almost-sure limit", "\"There exist uniformly continuous functions F_tilde_m(w) [..] "
                "such that lim_{l->oo} F_bar_m^(t_l)(w) = F_tilde_m(w) [..] almost surely\" (Lemma 6, (69))",
                "the limit functions exist along a subsequence by Arzela-Ascoli; (70)-(71) compare them with F_m at a "
                "limit point, which no finite run reaches: " + _AS_WHY),
    NotModelled("ssca.thm5.i", "no algorithm", "\"If w* is a locally optimal solution of the problem in (27) with "
                "lambda > 0, then there exists U >= 0 such that w* is a locally optimal solution of the problem in "
                "(37)\" (Theorem 5 i)", _NO_ALG_WHY),
    NotModelled("ssca.thm5.ii", "no algorithm", "\"If w+ is a locally optimal solution of the problem in (37) with "
                "U > 0, which is regular ... then there exists lambda > 0 such that w+ is a stationary point of the "
                "problem in (27)\" (Theorem 5 ii)", _NO_ALG_WHY),
)
MODELLED = (CLAIM,)


def not_modelled_lines() -> list[str]:
    """One line per entry of :data:`NOT_MODELLED`: claim, kind, the paper's words, why."""
    return [f"* ``{n.claim}`` ({n.kind}): {n.words} -- {n.why}." for n in NOT_MODELLED]


__doc__ += "\n" + "\n".join(not_modelled_lines()) + "\n"


# ------------------------------------------------------------------------------------------------ the models
def full_batch_ssca(f, w1, tau: float, rho, gamma) -> tuple[list[tuple], object]:
    """Algorithm 1 with one client and the full batch on the PEPit function ``f`` from ``w1``: for each t,
    f_hat^(t) = (1 - rho) f_hat^(t-1) + rho (grad F0(w^(t)) - 2 tau w^(t)) from f_hat^(0) = 0 ((8)),
    w_bar^(t) = -f_hat^(t)/(2 tau) ((9)), w^(t+1) = (1 - gamma) w^(t) + gamma w_bar^(t) ((5)). Returns the records
    (w^(t), grad F0(w^(t)), F0(w^(t)), f_hat^(t), w_bar^(t)) for t = 1..len(rho) and the last iterate."""
    w, lin, records = w1, None, []
    for r, g_step in zip(rho, gamma):
        g, value = f.oracle(w)
        fresh = float(r) * (g - (2.0 * tau) * w)
        lin = fresh if lin is None else (1.0 - float(r)) * lin + fresh
        w_bar = (-1.0 / (2.0 * tau)) * lin
        records.append((w, g, value, lin, w_bar))
        w = (1.0 - float(g_step)) * w + float(g_step) * w_bar
    return records, w


def lemma4_problem(t: int, tau: float, L_hat: float, steps: alg.PowerLawSteps, err: float):
    """The PEP of Lemma 4 (51) at iteration ``t`` (module docstring): L_hat-smooth F0, t iterations of
    :func:`full_batch_ssca` with ``steps``, Delta^2 = 1 and err^2 = ``err``^2 at iteration t, metric
    F0(w^(t+1)) - F0(w^(t)). Returns (problem, function, gamma^(t))."""
    from PEPit import PEP
    from PEPit.functions import SmoothFunction

    problem = PEP()
    f = problem.declare_function(SmoothFunction, L=L_hat)
    w1 = problem.set_initial_point()
    records, w_next = full_batch_ssca(f, w1, tau, steps.rho(t + 1), steps.gamma(t + 1))
    w, g, value, lin, w_bar = records[-1]
    problem.set_initial_condition((w_bar - w) ** 2 == 1.0)                          # Delta^2 = 1
    problem.set_initial_condition((g - lin - (2.0 * tau) * w) ** 2 == err ** 2)      # err^2, grad F_bar = lin + 2 tau w
    problem.set_performance_metric(f(w_next) - value)
    return problem, f, float(steps.gamma(t + 1)[t - 1])


def gradient_norm_problem(n: int, tau: float, L: float, steps: alg.PowerLawSteps):
    """Degenerate cross-check (metric of PEPit's ``nonconvex_optimization/gradient_descent.py``): n iterations of
    :func:`full_batch_ssca` on an L-smooth function, metric min over the n + 1 iterates of ||grad F0||^2, initial
    condition F0(w^(1)) - F0(w^(n+1)) <= 1. With rho = gamma = 1 it is that example with step 1/(2 tau)."""
    from PEPit import PEP
    from PEPit.functions import SmoothFunction

    problem = PEP()
    f = problem.declare_function(SmoothFunction, L=L)
    w1 = problem.set_initial_point()
    records, w_last = full_batch_ssca(f, w1, tau, steps.rho(n + 1), steps.gamma(n + 1))
    g_last, f_last = f.oracle(w_last)
    for _, g, _, _, _ in records:
        problem.set_performance_metric(g ** 2)
    problem.set_performance_metric(g_last ** 2)
    problem.set_initial_condition(records[0][2] - f_last <= 1)
    return problem, f


def convex_gap_problem(n: int, tau: float, L: float, steps: alg.PowerLawSteps):
    """Degenerate cross-check (metric of PEPit's ``unconstrained_convex_minimization/gradient_descent.py``): n
    iterations of :func:`full_batch_ssca` on an L-smooth convex function from ||w^(1) - w*||^2 <= 1, metric
    F0(w^(n+1)) - F0(w*). With rho = gamma = 1 it is that example with step 1/(2 tau)."""
    from PEPit import PEP
    from PEPit.functions import SmoothConvexFunction

    problem = PEP()
    f = problem.declare_function(SmoothConvexFunction, L=L)
    ws = f.stationary_point()
    w1 = problem.set_initial_point()
    problem.set_initial_condition((w1 - ws) ** 2 <= 1)
    _, w_last = full_batch_ssca(f, w1, tau, steps.rho(n + 1), steps.gamma(n + 1))
    problem.set_performance_metric(f(w_last) - f(ws))
    return problem, f


# ------------------------------------------------------------------------------------------------ the replay
class TableProblem:
    """The problem protocol of :mod:`repro.papers.ssca.algorithms.ssca` (M = 0, one sample) whose loss is a
    worst-case function: ``batch_sums`` / ``block_batch_sums`` answer with the :class:`repro.pep.TableOracle`'s
    value and gradient, times the batch weight (1 for one client holding the one sample, full batch)."""

    n_samples = 1
    n_constraints = 0
    constraint_levels = np.zeros(0)
    exact_objective_weight = None

    def __init__(self, oracle: pep.TableOracle):
        self.oracle = oracle
        self.dim = int(oracle.table.x.shape[1])

    def batch_sums(self, omega, index, weights):
        g, value = self.oracle(omega)
        weight = float(np.sum(weights))
        return np.array([weight * value]), (weight * g)[None, :]

    block_batch_sums = batch_sums


def replay_lemma4(table: pep.Table, t: int, tau: float, steps: alg.PowerLawSteps) -> dict:
    """Run the suite's Algorithm 1 (:func:`~repro.papers.ssca.algorithms.ssca.run_sample_based`, one client, one
    sample, batch 1 = full batch) for t updates from the table's first point (w^(1): the first point the model asks
    the oracle at) with the table as the oracle; return F0(w^(t+1)) - F0(w^(t)), Delta and err of iteration t, as
    the run measures them, and the oracle's query count and largest distance to a table point."""
    oracle = pep.TableOracle(table)
    states = {}

    def monitor(k, state):
        states[k] = state
        return {}

    params = alg.SSCAParams(tau=tau, steps=steps, iterations=t + 1, batch=1, omega1=table.x[0],
                            client_indices=np.array([[0]]), checkpoints=(t, t + 1), monitor=monitor)
    trace = alg.run_sample_based(TableProblem(oracle), params, np.random.default_rng(0))
    w_t, w_bar = states[t].omega, states[t + 1].omega_bar
    g_t, f_t = oracle(w_t)
    descent = oracle.value(trace.omega_final) - f_t
    err = float(np.linalg.norm(g_t + 2.0 * tau * (w_bar - w_t)))        # grad F_bar^(t)(w^(t)) = -2 tau (w_bar - w)
    return {"descent": float(descent), "delta": float(trace.step_norm[-1]), "err": err,
            "queries": oracle.queries, "distance": oracle.worst_distance}


def replay_lemma4_feature_based(table: pep.Table, t: int, tau: float, steps: alg.PowerLawSteps) -> float:
    """Run the suite's Algorithm 3 (:func:`~repro.papers.ssca.algorithms.ssca.run_feature_based`, one client holding
    every feature block, batch 1 = full batch) for t updates from the table's first point with the table as the
    oracle; return F0(w^(t+1)) - F0(w^(t)) as the run measures it (the same iteration as Algorithm 1 here)."""
    oracle = pep.TableOracle(table)
    params = alg.SSCAParams(tau=tau, steps=steps, iterations=t + 1, batch=1, omega1=table.x[0])
    trace = alg.run_feature_based(TableProblem(oracle), params, np.random.default_rng(0))
    return float(oracle.value(trace.omega_final) - trace.batch_value[-1])


# ------------------------------------------------------------------------------------------------ the run
@dataclass(frozen=True)
class PepConfig(Config):
    """One ``ssca.pep`` curve: Lemma 4 (51) certified at the iterations ``t`` of the full-batch method with the
    step-size family ``steps`` (:data:`STEP_FAMILIES`), ``tau``, the smoothness ``L_hat`` and err = ``err_over_mu``
    * mu * Delta (mu the printed surrogate's modulus 2 tau, Delta = 1)."""

    steps: str
    t: tuple | list
    tau: float
    L_hat: float
    err_over_mu: float
    profile: str

    def __post_init__(self) -> None:
        require(self.steps in STEP_FAMILIES, "steps", self.steps, f"one of {', '.join(STEP_FAMILIES)}")
        ts = self.t
        ok = isinstance(ts, (list, tuple)) and len(ts) >= 1 and all(is_int(k) and 1 <= k <= T_MAX for k in ts) \
            and all(a < b for a, b in zip(ts, ts[1:]))
        require(ok, "t", ts, f"a non-empty increasing list of iterations in 1..{T_MAX}")
        admissible.real("tau", self.tau)
        admissible.real("L_hat", self.L_hat)
        admissible.real("err_over_mu", self.err_over_mu, strict=False)
        rho = STEP_FAMILIES[self.steps].rho(max(self.t) + 1)
        exact = [k for k in self.t if rho[k - 1] == 1.0]
        require(self.err_over_mu == 0 or not exact, "err_over_mu", self.err_over_mu,
                f"0 for steps {self.steps!r}: rho^(t) = 1 at t = {exact} makes the surrogate gradient exact (err = 0)")


def modulus_and_error(c: PepConfig) -> tuple[float, float]:
    """mu of (51) for the printed surrogate at ``c.tau`` (as encoded, :func:`repro.papers.ssca.checks.surrogate_modulus`)
    and err = ``c.err_over_mu`` * mu * Delta with Delta = 1."""
    mu = V.surrogate_modulus(c.tau)
    return mu, c.err_over_mu * mu


def _point(c: PepConfig, t: int) -> tuple[dict, dict]:
    """Certify (51) at iteration t, evaluate the printed bound from the claim, replay the worst case."""
    steps, (mu, err) = STEP_FAMILIES[c.steps], modulus_and_error(c)
    problem, f, gamma = lemma4_problem(t, c.tau, c.L_hat, steps, err)
    cert = pep.certify(problem)
    claim = B.claim(CLAIM)
    values = dict(gamma=gamma, mu=mu, L_hat=c.L_hat, Delta=1.0, err=err)
    require(bool(claim.hypotheses_hold(**values)), "t", t, f"an iteration where the hypotheses of {CLAIM} hold")
    bound = float(claim.evaluate(**values)["descent"])
    table = pep.worst_case_table(f)
    replay = replay_lemma4(table, t, c.tau, steps)
    replay["descent_alg3"] = replay_lemma4_feature_based(table, t, c.tau, steps)
    params = {"t": t, "steps": c.steps, "tau": c.tau, "err/mu": c.err_over_mu, "mu": mu, "Delta": values["Delta"]}
    arrays = table.arrays(f"t{t}") | {f"t{t}_replay": np.array([replay["descent"], replay["delta"], replay["err"],
                                                                  replay["distance"], replay["descent_alg3"]])}
    return pep.point(params, bound, cert) | {"gamma": gamma, "replay": replay}, arrays


def run_pep(config: PepConfig, seed: int):
    """The curve of one config: per iteration t, the certified worst case of F0(w^(t+1)) - F0(w^(t)) at Delta = 1,
    the printed bound (51), the decision, the worst-case table and its replay through Algorithms 1 and 3. ``seed`` is
    unused (the PEP is deterministic)."""
    points, arrays = [], {}
    for t in config.t:
        p, a = _point(config, t)
        points.append(p)
        arrays |= a
    arrays |= {"t": np.array(list(config.t), dtype=float), "bound": np.array([p["bound"] for p in points]),
               "value": np.array([p["certificate"]["value"] for p in points]),
               "primal": np.array([p["certificate"]["primal"] for p in points]),
               "replay_descent": np.array([p["replay"]["descent"] for p in points]),
               "replay_delta": np.array([p["replay"]["delta"] for p in points]),
               "replay_err": np.array([p["replay"]["err"] for p in points]),
               "replay_descent_alg3": np.array([p["replay"]["descent_alg3"] for p in points])}
    return arrays, pep.curve(CLAIM, QUANTITY.format(L_hat=config.L_hat), FUNCTION_CLASS,
                             f"{METHOD}; steps {config.steps}", points, x="t")


#: the grid per profile: (step families, iterations t, tau values, err/mu values for rho < 1)
PEP_GRID = {"quick": {"steps": tuple(STEP_FAMILIES), "t": (1, 2, 3, 5, 8), "tau": (TAU_SECTION_VI,),
                      "err_over_mu": (1.0,)},
            "paper": {"steps": tuple(STEP_FAMILIES), "t": (1, 2, 3, 4, 5, 6, 8, 10, 12),
                      "tau": (TAU_SECTION_VI,), "err_over_mu": (1.0, 2.0)}}


def _configs(profile: str):
    grid = PEP_GRID[profile]
    for steps in grid["steps"]:
        exact = STEP_FAMILIES[steps].a1 == 1.0 and STEP_FAMILIES[steps].alpha == 0.0
        for tau in grid["tau"]:
            if exact and tau != TAU_SECTION_VI:
                continue        # gd at tau >= L_hat/4 has a bound <= 0: off the figure's log axes
            for e in ((0.0,) if exact else grid["err_over_mu"]):
                yield PepConfig(steps=steps, t=grid["t"], tau=tau, L_hat=1.0, err_over_mu=e, profile=profile)


def pep_specs(profile: str) -> list[RunSpec]:
    return [RunSpec("ssca.pep", c, 0, run_pep) for c in _configs(profile)]


def pep_work(config: dict) -> float:
    """Units of work of one run: the PEPs grow with t, so the sum of the iterations certified."""
    return float(sum(PepConfig.from_dict(config).t))
