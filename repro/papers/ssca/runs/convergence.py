"""Algorithms 1-4 on small smooth problems whose constants are known exactly (this project's choice of
problems: the paper runs none for Theorems 1-4): the quantities Theorems 1-4 and Lemmas 2, 4, 5 say must vanish
or must hold, logged at every iteration.

Problems (:mod:`repro.papers.ssca.problems.instances`; data: Gaussian features, labels of a planted direction
flipped with probability 0.1, so the logistic loss is coercive and its sublevel sets are compact):

* ``logistic_l2``          Problem 1/6, convex: logistic loss + reg ||w||^2 (unique KKT point, computed
  to 1e-10 by the problem's reference solver; the distance to it is logged);
* ``nonconvex_logistic``   Problem 1/6, nonconvex: logistic loss + reg sum w^2 / (1 + w^2);
* ``norm_loss_limit``      Problem 3/8 shaped like (37): min ||w||^2 s.t. mean logistic loss <= U (unique
  KKT point, distance logged);
* ``nonconvex_loss_limit`` Problem 3/8 with a nonconvex objective sum w^2/(1+w^2) + 0.05 ||w||^2.

U is set to the minimal logistic loss (scipy, recorded) plus ``U_MARGIN``, so Slater's condition holds
and the constraint set {loss <= U} is compact (Theorems 2/4's hypothesis), which we record.

Step sizes (``STEPS``): two power-law pairs inside the region where (4) and (6) hold (decided exactly by
:func:`bounds.ssca.claims.power_law_conditions`) and the Section VI family (0.6, 0.9, 0.3), which violates
sum gamma^2 < oo, for comparison.

Per iteration t (every iteration, evaluated after the run by :class:`Trajectory`): F0(w^t) and grad F0(w^t) on all N samples; for M = 0 the
stationarity residual ||grad F0|| (Problem 1/6 KKT); for M = 1 the KKT residuals of Problem 3/8 with
NNLS multipliers (:func:`bounds.ssca.claims.kkt_constrained`) and of Problem 4/9 with the server's nu as the
multiplier (:func:`bounds.ssca.claims.kkt_penalty`); ||omega_bar - omega|| (-> 0 in the proofs); the tracking
errors of Lemma 2 / Lemma 5 (for M = 0 exactly ||grad F0(w^t) - grad F_bar^(t)(w^t)|| with
grad F_bar^(t)(w^t) = 2 tau (w^t - omega_bar^t) from (8)-(9); for M = 1 the three quantities of Lemma 5 with the
surrogates of the previous iteration: values at w^t (``tracking_value``), gradients at w^t, objective included
(``tracking``), and the gap to the full-sample surrogate G_m(., w^t) at a fixed point of the constraint set, the
minimiser of the loss (``surrogate_gap``): :func:`_lemma5`); max_s ||w^s|| (Theorem 1's boundedness
hypothesis); and both sides of (51).

One run's config is a :class:`ConvergenceConfig` (the instance's and the algorithm's defaults are its field
defaults); the specs are built through it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from bounds.ssca import claims as B

from repro.papers.ssca import checks as V
from repro.papers.ssca.algorithms import ssca as alg
from repro.errors import is_int, is_real, require
from repro.papers.ssca.problems import instances as SP
from repro.papers.ssca.problems import swish_network as SN
from repro.runner import RunSpec
from repro.experiment import Config

PROBLEMS = ("logistic_l2", "nonconvex_logistic", "norm_loss_limit", "nonconvex_loss_limit")
STEPS = {"theory_a": (0.9, 0.6, 0.9, 0.75), "theory_b": (0.9, 0.5, 0.9, 0.6), "section_vi": (0.6, 0.3, 0.9, 0.35)}
U_MARGIN = 0.05
NONCONVEX_OBJECTIVE_REG = 1.0      # f_0 = sum w^2/(1+w^2) + 0.05 ||w||^2: nonconvex (needs reg > 0.2)
SEEDS = {"quick": 2, "paper": 20}
ITERATIONS = {"quick": 2000, "paper": 20000}
BATCH = {"sample": 4, "feature": 20}                                   # I * 4 = 20: coupled sizes


MODES = ("sample", "feature")


@dataclass(frozen=True)
class ConvergenceConfig(Config):
    """One ``ssca.convergence`` run: the instance (``problem``; ``n`` samples of dimension ``d`` on ``clients``
    clients, label noise ``flip``, regularisation ``reg``), the step-size family ``steps`` (``STEPS``), the
    algorithm's ``mode``, ``tau``, ``penalty`` c and ``iterations`` T, and the ``profile``."""

    problem: str
    steps: str
    mode: str
    iterations: int
    profile: str
    n: int = 600
    d: int = 20
    clients: int = 5
    flip: float = 0.1
    reg: float = 0.05
    tau: float = 0.5
    penalty: float = 100.0

    def __post_init__(self) -> None:
        require(self.problem in PROBLEMS, "problem", self.problem, f"one of {PROBLEMS}")
        require(self.steps in STEPS, "steps", self.steps, f"one of {tuple(STEPS)}")
        require(self.mode in MODES, "mode", self.mode, "'sample' or 'feature'")
        require(is_int(self.iterations) and self.iterations >= 2, "iterations", self.iterations,
                "an integer >= 2 (T; T - 1 updates)")
        require(is_int(self.d) and self.d >= 1, "d", self.d, "an integer >= 1")
        require(is_int(self.clients) and 1 <= self.clients <= self.d, "clients", self.clients,
                f"an integer in 1..d = 1..{self.d} (each client owns a feature block)")
        per_client = max(BATCH["sample"], -(-BATCH["feature"] // self.clients))
        require(is_int(self.n) and self.n % self.clients == 0 and self.n // self.clients >= per_client, "n",
                self.n, f"a multiple of clients = {self.clients} with at least {per_client} samples per client "
                f"(batches: {BATCH['sample']} per client, {BATCH['feature']} in total)")
        require(is_real(self.flip) and 0 <= self.flip < 0.5, "flip", self.flip, "a number in [0, 0.5)")
        require(is_real(self.reg) and self.reg > 0, "reg", self.reg, "a finite number > 0")
        require(is_real(self.tau) and self.tau > 0, "tau", self.tau, "a finite number > 0")
        require(is_real(self.penalty) and self.penalty > 0, "penalty", self.penalty, "a finite number > 0 (c)")


class ProblemInstance(NamedTuple):
    """What :func:`build_problem` reads: the ``problem`` (``PROBLEMS``) with ``n`` samples of dimension ``d`` on
    ``clients`` clients (feature blocks), label noise ``flip`` and regularisation ``reg``."""

    problem: str
    n: int
    d: int
    clients: int
    flip: float
    reg: float


def build_problem(instance: ConvergenceConfig | ProblemInstance, rng: np.random.Generator):
    """The problem of ``instance`` (a run's config or a :class:`ProblemInstance`: the fields of the latter are read),
    its data (X, y) and what the run records besides: the reference point, the probe point and the minimal loss."""
    X, y = SP.make_classification(instance.n, instance.d, instance.flip, rng)
    blocks = SN.contiguous_blocks(instance.d, instance.clients)
    name = instance.problem
    info = {}
    if name == "logistic_l2":
        problem = SP.LogisticL2(X, y, instance.reg, blocks)
    elif name == "nonconvex_logistic":
        problem = SP.NonconvexLogistic(X, y, instance.reg, blocks)
    else:
        unit = SP.NormWithLossLimit(X, y, 1.0, blocks)
        info["probe"] = unit.loss_minimiser()          # in the constraint set Omega: its loss is the minimum < U
        floor = info["min_loss"] = unit.minimal_loss()
        U = floor + U_MARGIN
        problem = (SP.NormWithLossLimit(X, y, U, blocks) if name == "norm_loss_limit"
                   else SP.NonconvexWithLossLimit(X, y, U, NONCONVEX_OBJECTIVE_REG, blocks))
    if name == "logistic_l2":
        info["reference"] = problem.reference_stationary_point().w
    elif name == "norm_loss_limit":
        info["reference"] = problem.reference_kkt_point().w
    return problem, X, y, info


class Trajectory:
    """The monitor of a run: called at every iteration, it keeps the engine's state (w^t, w_bar, the surrogate
    coefficients, nu, zeta) and returns nothing; :meth:`observed` then evaluates every iteration at once
    (:func:`_metrics`), which costs a fraction of evaluating each iteration as it happens (the full-data oracle and
    the KKT residuals on d = 20 took half of a run's time, in Python overhead)."""

    def __init__(self):
        self.states: list = []

    def __call__(self, t: int, state) -> dict:
        self.states.append(state)
        return {}

    def stacked(self, M: int) -> dict:
        """Every kept field stacked over the iterations (T, ...); w_bar is NaN and nu, zeta are 0 at t = 1. The run
        must have been monitored at every iteration (the series pair iteration t with t - 1)."""
        states = self.states
        require([s.t for s in states] == list(range(1, len(states) + 1)), "checkpoints",
                f"{len(states)} monitored iterations", "every iteration t = 1..T (the series pair t with t - 1)")
        first_bar = np.full_like(states[0].omega, np.nan)
        return {"omega": np.stack([s.omega for s in states]),
                "omega_bar": np.stack([first_bar if s.omega_bar is None else s.omega_bar for s in states]),
                "lin": np.stack([s.f_hat_lin for s in states]), "const": np.stack([s.f_hat_const for s in states]),
                "nu": np.stack([np.zeros(M) if s.nu is None else np.atleast_1d(s.nu) for s in states]),
                "zeta": np.stack([np.zeros(M) if s.zeta is None else np.atleast_1d(s.zeta) for s in states]),
                "tau": states[0].tau}

    def observed(self, trace, problem, c: float, reference: np.ndarray | None = None,
                 probe: np.ndarray | None = None):
        """``trace`` (the run this monitored) with ``monitor`` holding the series of :func:`_metrics`."""
        return dataclasses.replace(trace, monitor=_metrics(problem, c, reference, probe,
                                                           self.stacked(problem.n_constraints)))


def _metrics(problem, c: float, reference: np.ndarray | None, probe: np.ndarray | None, run: dict) -> dict:
    """The per-iteration series of the module docstring, one entry per iteration t = 1..T, from the stacked
    trajectory ``run`` (:meth:`Trajectory.stacked`). (51) at t - 1 pairs iteration t with t - 1 (NaN at t = 1);
    ``probe`` (constrained problems) is the point of the constraint set at which Lemma 5's third limit is observed
    (NaN without one)."""
    w = run["omega"]
    values, grads = problem.full_values_and_grads_stacked(w)
    M, T = problem.n_constraints, w.shape[0]
    nan = np.full(T, np.nan)
    out = {"F0": values[:, 0], "omega_norm": np.linalg.norm(w, axis=1), "tracking": nan.copy()}
    if reference is not None:
        out["dist_reference"] = np.linalg.norm(w - reference, axis=1)
    if M == 0:
        out["kkt"] = B.kkt_unconstrained(grads[:, 0])["stationarity"]
        out |= _descent_51(values[:, 0], grads[:, 0], w, run["omega_bar"], run["tau"])
        return out
    F = values[:, 1:] - problem.constraint_levels
    out["kkt"] = B.kkt_constrained(grads[:, 0], grads[:, 1:], F)["max"]
    out["kkt_penalty"] = B.kkt_penalty(grads[:, 0], grads[:, 1:], F, run["zeta"], c, multipliers=run["nu"])["max"]
    out["constraint"] = F.max(axis=1)
    out |= {"tracking_value": nan.copy(), "surrogate_gap": nan.copy()}
    lemma5 = _lemma5(problem, probe, {k: (v[1:] if isinstance(v, np.ndarray) else v) for k, v in run.items()},
                     values[1:], grads[1:])
    for name, series in lemma5.items():                                       # t > 1: after the first update
        out[name][1:] = series
    return out


def _descent_51(f0: np.ndarray, g0: np.ndarray, w: np.ndarray, omega_bar: np.ndarray, tau: float) -> dict:
    """Both sides' inputs of (51) for iteration t - 1, at t = 2..T (NaN at t = 1): the descent F0(w^t) - F0(w^{t-1}),
    Delta = ||w_bar^{t-1} - w^{t-1}|| and the tracking error ||grad F0(w^{t-1}) + 2 tau Delta-vector||."""
    delta = omega_bar[1:] - w[:-1]
    head = np.array([np.nan])
    return {"descent": np.concatenate([head, f0[1:] - f0[:-1]]),
            "delta": np.concatenate([head, np.linalg.norm(delta, axis=1)]),
            "tracking": np.concatenate([head, np.linalg.norm(g0[:-1] + 2 * tau * delta, axis=1)])}


def _lemma5(problem, probe, run: dict, values: np.ndarray, grads: np.ndarray) -> dict:
    """Lemma 5's three quantities at w = w^t (Appendix B), each a max over m, for every iterate of ``run`` at once:
    |F_bar_m(w) - F_m(w)| (m >= 1); ||grad F_bar_m(w) - grad F_m(w)|| (m = 0..M; 0 for an objective the server uses
    exactly, q0 ||w||^2); and at the probe p in Omega |F_bar_m(p) - G_m(p, w)| with G_m(p, w) = F_m(w) + grad F_m(w)^T
    (p - w) + tau ||p - w||^2, the full-sample surrogate (11). The objective surrogate carries no constant (the
    server never needs it), so for m = 0 the third quantity compares differences from w (the constant that makes
    them agree at w). "F_bar^(t)" is the surrogate the server solved last (built from the batch of iteration t - 1),
    at w^t. Named: the two surrogates share tau ||.||^2, so the third gap is (value gap at w) + (gradient gap) .
    (p - w): it is bounded by the first two and is logged because Lemma 5 states it, not as independent evidence."""
    w, p, tau, lin, const = run["omega"], probe, run["tau"], run["lin"], run["const"]
    exact = problem.exact_objective_weight is not None
    wsq = np.einsum("td,td->t", w, w)[:, None]
    surrogate = const + np.einsum("tmd,td->tm", lin[:, 1:], w) + tau * wsq
    gaps = np.linalg.norm(lin + 2 * tau * w[:, None, :] - grads, axis=2)
    out = {"tracking_value": np.abs(surrogate - values[:, 1:]).max(axis=1),
           "tracking": (gaps[:, 1:] if exact else gaps).max(axis=1)}
    if p is None:                                  # a run without a probe point does not observe it
        return out | {"surrogate_gap": np.full(w.shape[0], np.nan)}
    d = p - w
    dsq = np.einsum("td,td->t", d, d)[:, None]
    model = values[:, 1:] + np.einsum("tmd,td->tm", grads[:, 1:], d) + tau * dsq                # G_m(p, w), m >= 1
    at_p = const + lin[:, 1:] @ p + tau * (p @ p)
    gap = np.abs(at_p - model)
    if not exact:
        moved = np.einsum("td,td->t", lin[:, 0], d) + tau * (p @ p - wsq[:, 0])                # F_bar_0(p) - F_bar_0(w)
        gap = np.column_stack([gap, np.abs(moved - (np.einsum("td,td->t", grads[:, 0], d) + tau * dsq[:, 0]))])
    out["surrogate_gap"] = gap.max(axis=1)
    return out


def run_convergence(config: ConvergenceConfig, seed: int):
    ss = np.random.SeedSequence([seed, PROBLEMS.index(config.problem), 19_08_11015])
    data_rng, init_rng, run_rng = (np.random.default_rng(s) for s in ss.spawn(3))
    problem, X, y, info = build_problem(config, data_rng)
    a1, alpha, a2, beta = STEPS[config.steps]
    verdict = B.power_law_conditions(a1, alpha, a2, beta)
    T = config.iterations
    omega1 = init_rng.normal(size=problem.dim)
    reference = info.pop("reference", None)
    probe = info.pop("probe", None)
    monitor = Trajectory()
    clients = (np.random.default_rng(ss.spawn(1)[0]).permutation(config.n).reshape(config.clients, -1)
               if config.mode == "sample" else None)
    params = alg.SSCAParams(tau=config.tau, steps=alg.PowerLawSteps(a1, alpha, a2, beta), iterations=T,
                            batch=BATCH[config.mode], omega1=omega1, penalty=config.penalty,
                            checkpoints=tuple(range(1, T + 1)), client_indices=clients, monitor=monitor)
    run = alg.run_sample_based if config.mode == "sample" else alg.run_feature_based
    trace = monitor.observed(run(problem, params, run_rng), problem, config.penalty, reference, probe)
    mon = trace.monitor
    arrays = {"t": np.asarray(trace.checkpoints, int), "rho": trace.rho, "gamma": trace.gamma,
              "step_norm": trace.step_norm} | mon
    arrays["max_norm"] = np.maximum.accumulate(mon["omega_norm"])
    meta = {"conditions_4": verdict.holds4, "conditions_6": verdict.holds6, "failed": list(verdict.failed),
            "mu": V.surrogate_modulus(config.tau)} | info
    if problem.n_constraints == 0:
        meta["L_hat"] = float(problem.lipschitz_gradient())
    else:
        arrays |= {"nu": trace.nu[:, 0], "zeta": trace.zeta[:, 0]}
    return arrays, meta


def convergence_specs(profile: str) -> list[RunSpec]:
    return [RunSpec("ssca.convergence", ConvergenceConfig(problem=p, steps=s, mode=m, iterations=ITERATIONS[profile],
                                                          profile=profile), seed, run_convergence)
            for p in PROBLEMS for s in STEPS for m in MODES for seed in range(SEEDS[profile])]
