"""FedSGM checks: turn a run's :class:`Trace` into the observed quantities the claims of
:mod:`bounds.fedsgm` name, and check every lemma, proof inequality and theorem on it.

Exact conditional expectations over Rand-K (this project's derivation: Rand-K meets Assumption 2 with
equality, q_u = d/K - 1, and the clients' compression errors are independent with mean zero) make the
compressed per-round inequalities checkable without Monte Carlo:
    E_C ||(1/n) sum_j C_j(X_j)||^2 = ||Xbar||^2 + q_u/n^2 sum_j ||X_j||^2,
    E_C ||w_{t+1} - w*||^2 = ||w_t - w* - eta Xbar||^2 + eta^2 q_u/n^2 sum_j ||X_j||^2.
Only the summed inequality (whose sets A, B are random) and the theorems need Monte Carlo
under compression.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from bounds import fedsgm as B
from bounds.core import Claim

from repro.papers.fedsgm.algorithms.fedsgm import FedSGMParams, Output, Trace, output
from repro.papers.fedsgm.problems.base import ConvexLipschitzProblem, Optimum
from repro.verify import Outcome, check_chain, check_relation

YOUNG_FACTORS = (0.25, 1.0, 4.0)
"""Lemma 4 holds for every a > 0; it is checked at a = eta times each factor (a = eta is the proofs')."""


@dataclass(frozen=True)
class RunContext:
    """One run and what is needed to judge it."""

    problem: ConvexLipschitzProblem
    optimum: Optimum
    params: FedSGMParams
    trace: Trace

    @property
    def q_u(self) -> float:
        return 0.0 if self.params.K is None else self.problem.dim / self.params.K - 1.0

    def parameter_values(self) -> dict:
        p = self.params
        return {"E": p.E, "T": p.T, "n": self.problem.n_clients, "q_u": self.q_u, "D": self.optimum.D,
                "G": self.problem.G, "eta": p.eta, "epsilon": p.eps, "a": p.eta, "N": 0,
                "beta": p.beta if p.beta is not None else np.inf}

    @cached_property
    def local_values_at_optimum(self) -> tuple[np.ndarray, np.ndarray]:
        """f_j(w*) and g_j(w*) for every client (computed once per run)."""
        n, d = self.problem.n_clients, self.problem.dim
        o = self.problem.oracle(np.broadcast_to(self.optimum.w_star, (n, d)))
        return o.f, o.g

    @cached_property
    def rounds(self) -> dict[str, np.ndarray]:
        """:func:`round_observations` of this run (computed once, shared by every check)."""
        return round_observations(self)

    def tolerance(self, scale: float = 1.0) -> float:
        """Absolute slack for a comparison involving f*, g* (solver accuracy) and float rounding."""
        return self.optimum.tolerance * max(1.0, scale) + 1e-9 * max(1.0, scale)


def round_observations(ctx: RunContext) -> dict[str, np.ndarray]:
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


def check_server_step(ctx: RunContext) -> Outcome:
    """Algorithm 1's server step as run: the realised aggregate (w_t - w_{t+1})/eta must equal the
    clients' mean update without compression, and match its Rand-K expectation in the mean over
    rounds (a 4-standard-error test of sum_t (realised - expected) over the rounds)."""
    obs = ctx.rounds
    realised = (ctx.trace.w[:-1] - ctx.trace.w[1:]) / ctx.params.eta
    if ctx.q_u == 0:
        err = float(np.max(np.abs(realised - ctx.trace.X_mean), initial=0.0))
        scale = float(np.max(np.abs(ctx.trace.X_mean), initial=1.0))
        passed = err <= 1e-9 * max(scale, 1.0)
        return Outcome("fedsgm.algorithm1.server_step", "w_{t+1} = w_t - eta mean_j X_j", "deterministic",
                       err, 1e-9 * max(scale, 1.0), np.nan, passed, n_checked=realised.size)
    diff = obs["agg_sq_realised"] - obs["agg_sq_expect"]
    se = float(np.sqrt(np.sum(diff**2))) or 1.0
    z = float(np.sum(diff)) / se
    return Outcome("fedsgm.algorithm1.server_step", "sum_t ||aggregate||^2 - E_C[...] (z-score)", "expectation",
                   z, 4.0, z / 4.0, abs(z) <= 4.0, n_checked=diff.size)


def summed_gap(ctx: RunContext) -> float:
    """S_T (hard) or S_T^soft = (1/T) sum_t [sigma_t (g(w_t) - g*) + (1 - sigma_t)(f(w_t) - f*)]."""
    tr = ctx.trace
    s = tr.sigma
    return float(np.mean(s * (tr.g[:-1] - ctx.optimum.g_star) + (1 - s) * (tr.f[:-1] - ctx.optimum.f_star)))


def theorem_observations(ctx: RunContext) -> tuple[dict, Output]:
    """|A|, f(w_bar) - f*, g(w_bar), sum_A sigma_t for the output of Theorem 1 or 2."""
    out = output(ctx.trace, ctx.params)
    if out.w_bar is None:
        subopt = infeas = np.nan
    else:
        f_bar, g_bar = ctx.problem.global_values(out.w_bar)
        subopt, infeas = float(f_bar) - ctx.optimum.f_star, float(g_bar)
    return {"A_size": float(out.size), "subopt": subopt, "infeas": infeas,
            "Sigma_A": float(ctx.trace.sigma[out.in_A].sum())}, out


def check_lemmas(ctx: RunContext) -> list[Outcome]:
    """Lemma 3 (with its chain), Lemma 4 (hard or soft form, several a), Lemma 5 (with its chain)."""
    vals = ctx.parameter_values()
    obs = ctx.rounds
    scale = float(np.max(obs["sum_nu_sq"], initial=1.0))
    outcomes = []
    l3 = vals | obs
    outcomes.append(check_relation(B.lemma3, B.lemma3.relations[0], l3, tol=1e-9 * scale))
    outcomes += check_chain(B.lemma3, l3, tol=1e-9 * scale)

    tr = ctx.trace
    l5 = vals | {"drift_sum": tr.drift.sum(axis=2)}
    outcomes.append(check_relation(B.lemma5, B.lemma5.relations[0], l5, tol=1e-12 * scale))
    outcomes += check_chain(B.lemma5, l5, tol=1e-12 * scale)

    if tr.directions is not None:
        fj_star, gj_star = ctx.local_values_at_optimum
        w_t = tr.w[:-1]
        inner = -2 * ctx.params.eta * np.einsum("td,tjed->tje", w_t - ctx.optimum.w_star, tr.directions)
        terms = {"inner_term": inner, "drift_term": tr.drift,
                 "gap_f_term": fj_star[None, :, None] - tr.f_local,
                 "gap_g_term": gj_star[None, :, None] - tr.g_local,
                 "in_A": (1.0 - tr.sigma)[:, None, None], "sigma": tr.sigma[:, None, None]}
        claim = B.lemma4 if ctx.params.switching == "hard" else B.lemma4_soft
        for factor in YOUNG_FACTORS:
            v = vals | terms | {"a": ctx.params.eta * factor}
            out = check_relation(claim, claim.relations[0], v, tol=ctx.tolerance(ctx.params.eta),
                                 details={"a_over_eta": factor})
            outcomes.append(out)
    return outcomes


def check_round_inequalities(ctx: RunContext) -> list[Outcome]:
    """(5) and (R-hard) for hard switching, (R-soft) for soft, against exact conditional expectations."""
    vals = ctx.parameter_values()
    obs = ctx.rounds
    tol = ctx.tolerance(ctx.params.eta * ctx.params.E)
    if ctx.params.switching == "hard":
        fj_star, gj_star = ctx.local_values_at_optimum
        tr = ctx.trace
        in_A = (1.0 - tr.sigma)[:, None, None]
        gap_local = (in_A * (fj_star[None, :, None] - tr.f_local)
                     + (1 - in_A) * (gj_star[None, :, None] - tr.g_local)).sum(axis=(1, 2))
        v = vals | obs | {"gap_local_total": gap_local}
        return [check_relation(B.eq5, B.eq5.relations[0], v, tol=tol),
                check_relation(B.R_hard, B.R_hard.relations[0], v, tol=tol)]
    return [check_relation(B.R_soft, B.R_soft.relations[0], vals | obs, tol=tol)]


def check_summed(ctx: RunContext) -> Outcome:
    """(S-hard)/(S-soft) at the run's own eta: one sample (deterministic without compression)."""
    vals = ctx.parameter_values() | {"S_T": summed_gap(ctx)}
    return check_relation(B.S_summed, B.S_summed.relations[0], vals, tol=ctx.tolerance())


#: relative tolerance to which a run's eps, eta, beta must match the claim's prescribed values; a hypothesis on them
#: is judged with the same tolerance, so that a run built on its boundary (beta = 2/eps) is not decided by rounding
PRESCRIBED_RTOL = 1e-9


def uses_prescribed_parameters(claim: Claim, ctx: RunContext, rtol: float = PRESCRIBED_RTOL) -> bool:
    """Whether the run used the eps, eta (and beta) the claim prescribes on this instance."""
    vals = ctx.parameter_values()
    prescribed = claim.prescribed(**vals)
    actual = {"epsilon": ctx.params.eps, "eta": ctx.params.eta, "beta": ctx.params.beta}
    return all(np.isclose(actual[k], v, rtol=rtol, atol=0) for k, v in prescribed.items())


def check_theorem(claim: Claim, ctx: RunContext) -> list[Outcome]:
    """Nonempty A and eps-solution, on this single run (every theorem is stated deterministically)."""
    if not uses_prescribed_parameters(claim, ctx):
        raise ValueError(f"run does not use the parameters {claim.id} prescribes "
                         f"({ {k: float(v) for k, v in claim.prescribed(**ctx.parameter_values()).items()} }); "
                         f"got eps={ctx.params.eps}, eta={ctx.params.eta}, beta={ctx.params.beta}")
    obs, out = theorem_observations(ctx)
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


def params_for(claim: Claim, problem: ConvexLipschitzProblem, optimum: Optimum, *, T: int, E: int,
               switching: str, K: int | None, w0: np.ndarray, beta: float | None = None,
               record_directions: bool = True) -> FedSGMParams:
    """Algorithm 1's parameters as ``claim`` prescribes them on this instance.

    ``beta`` is only used where the claim leaves it free (Theorem 2: any beta >= 2/eps; default
    2/eps, the smallest admissible value).
    """
    q_u = 0.0 if K is None else problem.dim / K - 1.0
    vals = {"E": E, "T": T, "n": problem.n_clients, "q_u": q_u, "D": optimum.D, "G": problem.G, "N": 0}
    pres = claim.prescribed(**vals)
    eps, eta = float(pres["epsilon"]), float(pres["eta"])
    if switching == "soft":
        beta = float(pres["beta"]) if "beta" in pres else (2.0 / eps if beta is None else beta)
    else:
        beta = None
    return FedSGMParams(T=T, E=E, eta=eta, eps=eps, switching=switching, beta=beta, K=K, w0=w0,
                        record_directions=record_directions)


def check_run(ctx: RunContext, theorem_claims=()) -> list[Outcome]:
    """Every per-run check: lemmas, round inequalities, summed inequality, and the given theorems."""
    outcomes = (check_lemmas(ctx) + check_round_inequalities(ctx) + [check_server_step(ctx)]
                + [check_summed(ctx)])
    for claim in theorem_claims:
        outcomes += check_theorem(claim, ctx)
    return outcomes
