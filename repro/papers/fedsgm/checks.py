"""FedSGM checks: turn a run's :class:`Trace` into the observed quantities the claims of
:mod:`bounds.fedsgm.claims` name, and check every lemma, proof inequality and theorem on it.

Exact conditional expectations over Rand-K (this project's derivation: Rand-K meets Assumption 2 with
equality, q_u = d/K - 1, and the clients' compression errors are independent with mean zero) make the
compressed per-round inequalities checkable without Monte Carlo:
    E_C ||(1/n) sum_j C_j(X_j)||^2 = ||Xbar||^2 + q_u/n^2 sum_j ||X_j||^2,
    E_C ||w_{t+1} - w*||^2 = ||w_t - w* - eta Xbar||^2 + eta^2 q_u/n^2 sum_j ||X_j||^2.
Only the summed inequality (whose sets A, B are random) and the theorems need Monte Carlo
under compression.

One entry, :func:`check` ``(claim, problem, trace) -> list[Outcome]``, called through
:func:`repro.verify.check_claims`: ``problem`` is an :class:`Instance` (the problem and its certified optimum),
``trace`` the run's :class:`~repro.papers.fedsgm.algorithms.fedsgm.Trace` (which carries its parameters).
:func:`per_run_claims` lists what every run checks before its theorems, in order. The observed quantities the run
modules store (:func:`parameter_values`, :func:`summed_gap`, :func:`theorem_observations`,
:func:`round_observations`) take the same two arguments.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from bounds.fedsgm import claims as B
from bounds.core import Claim, Mode, Provenance

from repro.papers.fedsgm.algorithms.fedsgm import FedSGMParams, Output, Trace, output
from repro.papers.fedsgm.problems.base import ConvexLipschitzProblem, Optimum
from repro.verify import Outcome, check_chain, check_relation

YOUNG_FACTORS = (0.25, 1.0, 4.0)
"""Lemma 4 holds for every a > 0; it is checked at a = eta times each factor (a = eta is the proofs')."""


SERVER_STEP = Claim(
    id="fedsgm.algorithm1.server_step", location="Algorithm 1, server step (4)",
    statement="w_{t+1} = w_t - eta (1/n) sum_j C_j(X_j): the run's server step is the clients' mean update.",
    domains={}, conclusion=(), mode=Mode.DETERMINISTIC, provenance=Provenance.DERIVED, derived_from="Algorithm 1",
    notes="A self-check of the implementation, not a result of the paper: exact without compression, a "
          "4-standard-error test against the Rand-K expectation with it (the outcome's mode says which).")
"""The implementation's server step, checked on every run like a claim (not one of :data:`bounds.fedsgm.claims.CLAIMS`)."""

THEOREM_IDS = frozenset(c.id for c in B.THEOREMS + B.PROOF_THEOREMS + (B.soft_stated_via_proof,))


@dataclass(frozen=True, eq=False)
class Instance:
    """What the checks need of one instance: the problem and its certified optimum (w*, f*, g*, D, tolerance)."""

    problem: ConvexLipschitzProblem
    optimum: Optimum

    @classmethod
    def solved(cls, problem: ConvexLipschitzProblem, w0: np.ndarray) -> "Instance":
        """``problem`` with the minimiser closest to ``w0`` (:meth:`ConvexLipschitzProblem.solve`)."""
        return cls(problem, problem.solve(w0))

    @cached_property
    def local_values_at_optimum(self) -> tuple[np.ndarray, np.ndarray]:
        """f_j(w*) and g_j(w*) for every client (computed once per instance)."""
        n, d = self.problem.n_clients, self.problem.dim
        o = self.problem.oracle(np.broadcast_to(self.optimum.w_star, (n, d)))
        return o.f, o.g


@dataclass(frozen=True)
class RunContext:
    """One run (its :class:`Instance` and :class:`Trace`, which carries the parameters) as the helpers read it."""

    instance: Instance
    trace: Trace

    def __post_init__(self) -> None:
        if self.trace.params is None:
            raise ValueError("the trace carries no FedSGMParams: check a trace returned by algorithms.fedsgm.run "
                             "(or dataclasses.replace(trace, params=...))")

    @property
    def problem(self) -> ConvexLipschitzProblem:
        return self.instance.problem

    @property
    def optimum(self) -> Optimum:
        return self.instance.optimum

    @property
    def params(self) -> FedSGMParams:
        return self.trace.params

    @property
    def q_u(self) -> float:
        return 0.0 if self.params.K is None else self.problem.dim / self.params.K - 1.0

    def parameter_values(self) -> dict:
        p = self.params
        return {"E": p.E, "T": p.T, "n": self.problem.n_clients, "q_u": self.q_u, "D": self.optimum.D,
                "G": self.problem.G, "eta": p.eta, "epsilon": p.eps, "a": p.eta, "N": 0,
                "beta": p.beta if p.beta is not None else np.inf}

    @property
    def local_values_at_optimum(self) -> tuple[np.ndarray, np.ndarray]:
        return self.instance.local_values_at_optimum

    @cached_property
    def rounds(self) -> dict[str, np.ndarray]:
        """:func:`_round_observations` of this run (computed once, shared by the checks of one claim)."""
        return _round_observations(self)

    def tolerance(self, scale: float = 1.0) -> float:
        """Absolute slack for a comparison involving f*, g* (solver accuracy) and float rounding."""
        return self.optimum.tolerance * max(1.0, scale) + 1e-9 * max(1.0, scale)


# ---------------------------------------------------------------------------- observed quantities
def _round_observations(ctx: RunContext) -> dict[str, np.ndarray]:
    """Per-round observed quantities (arrays over t = 0..T-1)."""
    tr, eta, q, n = ctx.trace, ctx.params.eta, ctx.q_u, ctx.problem.n_clients
    w_star = ctx.optimum.w_star
    f_star, g_star = ctx.optimum.f_star, ctx.optimum.g_star
    w_t = tr.w[:-1]
    gap_vec = w_t - w_star
    Xbar_sq = np.einsum("td,td->t", tr.X_mean, tr.X_mean)
    sumX_sq = tr.X_sq.sum(axis=1)
    # E_C ||w_{t+1} - w*||^2 given round t: the realised value without compression (what the algorithm
    # did, so a wrong server step is caught); the Rand-K closed form from the clients' X_j with it.
    step = (tr.w[1:] - w_star) if q == 0 else (gap_vec - eta * tr.X_mean)
    return {
        "agg_sq_expect": Xbar_sq + q / n**2 * sumX_sq,
        "agg_sq_realised": np.einsum("td,td->t", np.diff(tr.w, axis=0), np.diff(tr.w, axis=0)) / eta**2,
        "Xbar_sq": Xbar_sq, "sumX_sq": sumX_sq, "sum_nu_sq": tr.nu_sq.sum(axis=(1, 2)),
        "dist_sq": np.einsum("td,td->t", gap_vec, gap_vec),
        "dist_next_sq": np.einsum("td,td->t", step, step) + eta**2 * q / n**2 * sumX_sq,
        "drift_total": tr.drift.sum(axis=(1, 2)),
        "gap_f": f_star - tr.f[:-1], "gap_g": g_star - tr.g[:-1],
        "sigma": tr.sigma, "in_A": 1.0 - tr.sigma,
    }


def _summed_gap(ctx: RunContext) -> float:
    tr = ctx.trace
    s = tr.sigma
    return float(np.mean(s * (tr.g[:-1] - ctx.optimum.g_star) + (1 - s) * (tr.f[:-1] - ctx.optimum.f_star)))


def _theorem_observations(ctx: RunContext) -> tuple[dict, Output]:
    out = output(ctx.trace, ctx.params)
    if out.w_bar is None:
        subopt = infeas = np.nan
    else:
        f_bar, g_bar = ctx.problem.global_values(out.w_bar)
        subopt, infeas = float(f_bar) - ctx.optimum.f_star, float(g_bar)
    return {"A_size": float(out.size), "subopt": subopt, "infeas": infeas,
            "Sigma_A": float(ctx.trace.sigma[out.in_A].sum())}, out


def parameter_values(problem: Instance, trace: Trace) -> dict:
    """The claims' parameters on this run: E, T, n, q_u, D, G, eta, epsilon, a (= eta), N (= 0), beta (inf if none)."""
    return RunContext(problem, trace).parameter_values()


def round_observations(problem: Instance, trace: Trace) -> dict[str, np.ndarray]:
    """Per-round observed quantities (arrays over t = 0..T-1) that the lemmas and round inequalities name."""
    return _round_observations(RunContext(problem, trace))


def summed_gap(problem: Instance, trace: Trace) -> float:
    """S_T (hard) or S_T^soft = (1/T) sum_t [sigma_t (g(w_t) - g*) + (1 - sigma_t)(f(w_t) - f*)]."""
    return _summed_gap(RunContext(problem, trace))


def theorem_observations(problem: Instance, trace: Trace) -> tuple[dict, Output]:
    """|A|, f(w_bar) - f*, g(w_bar), sum_A sigma_t for the output of Theorem 1 or 2 (and that output)."""
    return _theorem_observations(RunContext(problem, trace))


# ---------------------------------------------------------------------------- one helper per kind of claim
def _server_step(claim: Claim, ctx: RunContext) -> list[Outcome]:
    """Algorithm 1's server step as run: the realised aggregate (w_t - w_{t+1})/eta must equal the
    clients' mean update without compression, and match its Rand-K expectation in the mean over
    rounds (a 4-standard-error test of sum_t (realised - expected) over the rounds)."""
    obs = ctx.rounds
    realised = (ctx.trace.w[:-1] - ctx.trace.w[1:]) / ctx.params.eta
    if ctx.q_u == 0:
        err = float(np.max(np.abs(realised - ctx.trace.X_mean), initial=0.0))
        scale = float(np.max(np.abs(ctx.trace.X_mean), initial=1.0))
        passed = err <= 1e-9 * max(scale, 1.0)
        return [Outcome(claim.id, "w_{t+1} = w_t - eta mean_j X_j", "deterministic",
                        err, 1e-9 * max(scale, 1.0), np.nan, passed, n_checked=realised.size)]
    diff = obs["agg_sq_realised"] - obs["agg_sq_expect"]
    se = float(np.sqrt(np.sum(diff**2))) or 1.0
    z = float(np.sum(diff)) / se
    return [Outcome(claim.id, "sum_t ||aggregate||^2 - E_C[...] (z-score)", "expectation",
                    z, 4.0, z / 4.0, abs(z) <= 4.0, n_checked=diff.size)]


def _lemma3(claim: Claim, ctx: RunContext) -> list[Outcome]:
    """Lemma 3 and its proof chain, every round."""
    l3 = ctx.parameter_values() | ctx.rounds
    tol = 1e-9 * float(np.max(ctx.rounds["sum_nu_sq"], initial=1.0))
    return [check_relation(claim, claim.relations[0], l3, tol=tol)] + check_chain(claim, l3, tol=tol)


def _lemma5(claim: Claim, ctx: RunContext) -> list[Outcome]:
    """Lemma 5 and its proof chain, every round and client."""
    l5 = ctx.parameter_values() | {"drift_sum": ctx.trace.drift.sum(axis=2)}
    tol = 1e-12 * float(np.max(ctx.rounds["sum_nu_sq"], initial=1.0))
    return [check_relation(claim, claim.relations[0], l5, tol=tol)] + check_chain(claim, l5, tol=tol)


def _lemma4(claim: Claim, ctx: RunContext) -> list[Outcome]:
    """Lemma 4 (hard form) or its soft form at a = eta times each of :data:`YOUNG_FACTORS`, every (round,
    client, local step); nothing without the recorded directions (``record_directions``)."""
    tr = ctx.trace
    if tr.directions is None:
        return []
    vals = ctx.parameter_values()
    fj_star, gj_star = ctx.local_values_at_optimum
    inner = -2 * ctx.params.eta * np.einsum("td,tjed->tje", tr.w[:-1] - ctx.optimum.w_star, tr.directions)
    terms = {"inner_term": inner, "drift_term": tr.drift,
             "gap_f_term": fj_star[None, :, None] - tr.f_local,
             "gap_g_term": gj_star[None, :, None] - tr.g_local,
             "in_A": (1.0 - tr.sigma)[:, None, None], "sigma": tr.sigma[:, None, None]}
    return [check_relation(claim, claim.relations[0], vals | terms | {"a": ctx.params.eta * factor},
                           tol=ctx.tolerance(ctx.params.eta), details={"a_over_eta": factor})
            for factor in YOUNG_FACTORS]


def _round_inequality(claim: Claim, ctx: RunContext) -> list[Outcome]:
    """(5), the hard or soft round every round, against exact conditional expectations."""
    values = ctx.parameter_values() | ctx.rounds
    if claim.id in (B.eq5.id, B.R_hard.id):
        fj_star, gj_star = ctx.local_values_at_optimum
        tr = ctx.trace
        in_A = (1.0 - tr.sigma)[:, None, None]
        values = values | {"gap_local_total": (in_A * (fj_star[None, :, None] - tr.f_local)
                                               + (1 - in_A) * (gj_star[None, :, None] - tr.g_local)).sum(axis=(1, 2))}
    return [check_relation(claim, claim.relations[0], values, tol=ctx.tolerance(ctx.params.eta * ctx.params.E))]


def _summed(claim: Claim, ctx: RunContext) -> list[Outcome]:
    """The summed round at the run's own eta: one sample (deterministic without compression)."""
    vals = ctx.parameter_values() | {"S_T": _summed_gap(ctx)}
    return [check_relation(claim, claim.relations[0], vals, tol=ctx.tolerance())]


#: relative tolerance to which a run's eps, eta, beta must match the claim's prescribed values; a hypothesis on them
#: is judged with the same tolerance, so that a run built on its boundary (beta = 2/eps) is not decided by rounding
PRESCRIBED_RTOL = 1e-9


def _uses_prescribed_parameters(claim: Claim, ctx: RunContext, rtol: float = PRESCRIBED_RTOL) -> bool:
    """Whether the run used the eps, eta (and beta) the claim prescribes on this instance."""
    vals = ctx.parameter_values()
    prescribed = claim.prescribed(**vals)
    actual = {"epsilon": ctx.params.eps, "eta": ctx.params.eta, "beta": ctx.params.beta}
    return all(np.isclose(actual[k], v, rtol=rtol, atol=0) for k, v in prescribed.items())


def _theorem(claim: Claim, ctx: RunContext) -> list[Outcome]:
    """Nonempty A and eps-solution, on this single run (every theorem is stated deterministically)."""
    if not _uses_prescribed_parameters(claim, ctx):
        raise ValueError(f"run does not use the parameters {claim.id} prescribes "
                         f"({ {k: float(v) for k, v in claim.prescribed(**ctx.parameter_values()).items()} }); "
                         f"got eps={ctx.params.eps}, eta={ctx.params.eta}, beta={ctx.params.beta}")
    obs, out = _theorem_observations(ctx)
    vals = ctx.parameter_values() | obs
    met = bool(claim.hypotheses_hold(rtol=PRESCRIBED_RTOL, **vals))     # beta = 2/eps is ON the boundary
    details = {"A_size": obs["A_size"], "Sigma_A": obs["Sigma_A"], "K": ctx.params.K,
               "switching": ctx.params.switching, "D": ctx.optimum.D}
    outcomes = []
    for rel in claim.relations:
        o = check_relation(claim, rel, vals, tol=ctx.tolerance() if str(rel.lhs) != "A_size" else 0.0,
                           details=details)
        outcomes.append(Outcome(**(o.__dict__ | {"hypotheses_met": met})))
    return outcomes


_CHECKS = {B.lemma3.id: _lemma3, B.lemma5.id: _lemma5, B.lemma4.id: _lemma4, B.lemma4_soft.id: _lemma4,
           B.eq5.id: _round_inequality, B.R_hard.id: _round_inequality, B.R_soft.id: _round_inequality,
           SERVER_STEP.id: _server_step, B.S_summed.id: _summed} | dict.fromkeys(sorted(THEOREM_IDS), _theorem)


# ---------------------------------------------------------------------------- the entry
def check(claim: Claim, problem: Instance, trace: Trace) -> list[Outcome]:
    """Every outcome of ``claim`` on one run: ``problem`` is the run's :class:`Instance`, ``trace`` its
    :class:`Trace` (with the parameters it ran with). A theorem raises ``ValueError`` when the run did not use the
    eps, eta (beta) it prescribes; Lemma 4 gives no outcome without recorded directions."""
    handler = _CHECKS.get(claim.id)
    if handler is None:
        raise ValueError(f"claim {claim.id!r} has no check on a FedSGM run: one of {', '.join(_CHECKS)}")
    return handler(claim, RunContext(problem, trace))


def per_run_claims(switching: str) -> tuple[Claim, ...]:
    """What every run checks before its theorems, in order: Lemmas 3, 5, 4 (hard or soft form), the round
    inequalities ((5) and the hard round, or the soft round), the server step and the summed inequality."""
    if switching == "hard":
        return (B.lemma3, B.lemma5, B.lemma4, B.eq5, B.R_hard, SERVER_STEP, B.S_summed)
    return (B.lemma3, B.lemma5, B.lemma4_soft, B.R_soft, SERVER_STEP, B.S_summed)


def params_for(claim: Claim, instance: Instance, *, T: int, E: int, switching: str, K: int | None,
               w0: np.ndarray, beta: float | None = None, record_directions: bool = True) -> FedSGMParams:
    """Algorithm 1's parameters as ``claim`` prescribes them on ``instance`` (whose optimum gives D).

    ``beta`` is only used where the claim leaves it free (Theorem 2: any beta >= 2/eps; default
    2/eps, the smallest value Theorem 2's encoded hypothesis admits).
    """
    problem, optimum = instance.problem, instance.optimum
    q_u = 0.0 if K is None else problem.dim / K - 1.0
    vals = {"E": E, "T": T, "n": problem.n_clients, "q_u": q_u, "D": optimum.D, "G": problem.G, "N": 0}
    pres = claim.prescribed(**vals)
    eps, eta = float(pres["epsilon"]), float(pres["eta"])
    if switching == "soft":             # at eps = 0 (D = 0) there is no beta >= 2/eps: FedSGMParams refuses the run
        default = B.claim("fedsgm.thm2").admissible_interval(B.beta, **vals)[0] if eps > 0 else None
        beta = float(pres["beta"]) if "beta" in pres else (default if beta is None else beta)
    else:
        beta = None
    return FedSGMParams(T=T, E=E, eta=eta, eps=eps, switching=switching, beta=beta, K=K, w0=w0,
                        record_directions=record_directions)
