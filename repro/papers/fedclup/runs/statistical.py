"""FedCLUP statistical accuracy (Section 4.1, Appendix A) on the linear-regression test bed, where problem (2)
has a closed form and every constant is exact.

* ``fedclup.statistical``: Monte-Carlo over data draws on a grid of instances (whitened design, so
  mu = lambda_min(Sigma), L = lambda_max(Sigma) and rho^2 = s^2 tr(Sigma) are exact and deterministic).
  Checks, on every draw and every lambda of a log grid: Lemma 3 (20), Lemma 4's first inequality,
  (33) and the (8a) inequalities before expectation (deterministic); Monte-Carlo means against
  Lemma 4 (22), (8a), (8b) (where its hypothesis holds), Theorem 1 and Corollary 1 in explicit form
  (expectation). Records the lambda-curve E^(lambda) = (1/m) sum_i E||w~_i - w*_i||^2 with LocalTrain
  and GlobalTrain for the Theorem 1 shape.
* ``fedclup.minimax``: the three regimes of R (Appendix A.5) with the Gaussian design (rows i.i.d.
  N(0, Sigma), the statistical setting of the minimax theory): per grid point the per-draw errors
  for every lambda of the grid, LocalTrain, GlobalTrain and the Corollary 1 rule's lambda (computed
  from the population constants mu = lambda_min(Sigma), L = lambda_max(Sigma)). The exponent of
  min_lambda E^(lambda) in n, R or N is fitted in :mod:`repro.papers.fedclup.summaries` with a bootstrap CI.
* ``fedclup.tradeoff`` (Figure 1, Corollary 3): total error ||w^i_t - w*_i||^2 of Algorithm 1 against
  rounds for a lambda grid, next to LocalTrain and GlobalTrain, on one instance where collaboration
  helps (R^2 < rho^2/(mu^2 n)).

Choices (named in every config): p_i = 1/m, n_i = n; Sigma = diag(spectrum); additive Gaussian noise of
std ``noise``; the ground truths exactly on the sphere of radius R around their mean.

Configs: :class:`StatisticalConfig`, :class:`MinimaxConfig` and :class:`TradeoffConfig` (one run each; their
defaults are the experiments' fixed settings).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bounds.fedclup import claims as B

from repro.papers.fedclup.algorithms import fedclup as alg
from repro.errors import require
from repro.papers.fedclup.problems import linreg_pfl as LR
from repro import admissible as adm
from repro.runner import RunSpec
from repro.verify import check_claims, outcome_arrays
from repro.papers.fedclup import checks as V
from repro.papers.fedclup.runs import optimization as O
from repro.experiment import Config

LAMBDA_GRID = tuple(float(x) for x in np.logspace(-3, 3, 25))
REPS = {"quick": 200, "paper": 1000}


# ---------------------------------------------------------------------------- configs
@dataclass(frozen=True, kw_only=True)
class _LinRegConfig(Config):
    """The linear-regression instance of a run (:class:`~repro.papers.fedclup.problems.linreg_pfl.LinRegInstance`),
    its lambda grid, Monte-Carlo draws and profile."""

    m: int
    n: int
    spectrum: list
    R: float
    reps: int
    profile: str
    noise: float = 1.0
    design: str = "whitened"
    lams: list = field(default_factory=lambda: list(LAMBDA_GRID))

    def __post_init__(self) -> None:
        adm.reals("spectrum", self.spectrum)
        instance(self)                      # m, n, R, noise, design and n >= d (whitened): the instance's own checks
        require(self.m % 2 == 0 or len(self.spectrum) >= 2 or self.R == 0, "m", self.m,
                "an even number of clients when d = 1 and R > 0 (m odd ground truths at distance R need a plane)")
        adm.integer("reps", self.reps, 2, "Monte-Carlo draws")
        adm.reals("lams", self.lams)


@dataclass(frozen=True, kw_only=True)
class StatisticalConfig(_LinRegConfig):
    """One run of ``fedclup.statistical``: the whitened design (the expectation checks need deterministic mu, L)."""

    def __post_init__(self) -> None:
        adm.one_of("design", self.design, ("whitened",))
        super().__post_init__()


@dataclass(frozen=True, kw_only=True)
class MinimaxConfig(_LinRegConfig):
    """One grid point of ``fedclup.minimax``: the Gaussian design, ``regime`` one of :data:`MINIMAX_GRID`."""

    regime: str
    design: str = "gaussian"
    spectrum: list = field(default_factory=lambda: [0.5, 1.0])

    def __post_init__(self) -> None:
        adm.one_of("regime", self.regime, tuple(MINIMAX_GRID))
        super().__post_init__()


@dataclass(frozen=True, kw_only=True)
class TradeoffConfig(_LinRegConfig):
    """The run of ``fedclup.tradeoff`` (Figure 1): Algorithm 1 for ``rounds`` rounds of ``local_steps`` steps per
    lambda of ``lams``, next to LocalTrain and GlobalTrain, on ``reps`` draws of one instance where collaboration
    helps."""

    m: int = 10
    n: int = 20
    spectrum: list = field(default_factory=lambda: [0.5, 1.0, 2.0])
    R: float = 0.15
    lams: list = field(default_factory=lambda: [0.01, 0.1, 0.5, 2.0, 10.0])
    local_steps: int = 5
    rounds: int

    def __post_init__(self) -> None:
        super().__post_init__()
        adm.integer("local_steps", self.local_steps, 1, "K")
        adm.integer("rounds", self.rounds, 1, "T")


def _rngs(seed: int, n: int):
    return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(n)]


def instance(config: _LinRegConfig) -> LR.LinRegInstance:
    return LR.LinRegInstance(m=config.m, n=config.n, d=len(config.spectrum), R=config.R, noise=config.noise,
                             spectrum=tuple(config.spectrum), design=config.design)


def _solve_chunked(A, b, lams, chunk: int):
    """solve_pfl over lambda chunks (bounds the memory of the (reps, lambda, m, d, d) systems)."""
    parts = [LR.solve_pfl(A, b, np.asarray(lams[i:i + chunk])) for i in range(0, len(lams), chunk)]
    return np.concatenate([p[0] for p in parts], axis=-2), np.concatenate([p[1] for p in parts], axis=-3)


def _errors(w_loc, w_star):
    """||w_i - w*_i||^2 per (draw, lambda, client)."""
    return np.sum((w_loc - w_star) ** 2, axis=-1)


# ---------------------------------------------------------------------------- fedclup.statistical
STATISTICAL_CLAIMS = ("fedclup.lemma3", "fedclup.lemma4.pathwise", "fedclup.eq33", "fedclup.thm1.8a.pathwise",
                      "fedclup.lemma4", "fedclup.thm1.8a", "fedclup.thm1.8b", "fedclup.thm1.explicit",
                      "fedclup.cor1.explicit")


def run_statistical(config: StatisticalConfig, seed: int):
    inst = instance(config)
    truth_rng, data_rng = _rngs(seed, 2)
    w_star = LR.ground_truth(inst, truth_rng)
    data = LR.draw(inst, data_rng, w_star, config.reps)
    A, b = data["A"], data["b"]
    mu, L, rho = inst.mu_design, inst.L_design, float(np.sqrt(inst.rho_sq))
    base = {"mu": mu, "L": L, "rho": rho, "m": inst.m, "n": inst.n, "R": inst.R}
    lams = np.asarray(config.lams, dtype=float)
    w_g, w_loc = _solve_chunked(A, b, lams, 8)
    # Corollary 1: the solution at the rule's lambda (R = 0: the rule's lambda is infinite -> GlobalTrain)
    lam_rule = float(B.claim("fedclup.cor1.explicit").prescribed(**base)["lam"]) if inst.R > 0 else np.inf
    w_rule = (LR.solve_pfl(A, b, np.array([lam_rule]))[1][:, 0] if np.isfinite(lam_rule)
              else LR.global_train(A, b)[:, None, :])
    problem, trace = V.Draws(A, b, w_star, lams, base), V.Solutions(w_g, w_loc, lam_rule, w_rule)
    outs = check_claims(V.check, [B.claim(cid) for cid in STATISTICAL_CLAIMS], problem, trace)
    seen = V.statistical_observed(problem, trace)
    err, gamma_g, err_rule = seen["err"], seen["gamma_g"], seen["err_rule"]
    lt = _errors(LR.local_train(A, b), w_star[None]).mean(axis=1)
    gt = _errors(LR.global_train(A, b)[:, None, :], w_star[None]).mean(axis=1)
    curve = err.mean(axis=2)                                              # (S, Lambda): client average
    arrays = outcome_arrays(outs) | {
        "lams": lams, "curve_mean": curve.mean(0), "curve_se": curve.std(0, ddof=1) / np.sqrt(curve.shape[0]),
        "localtrain": np.array([lt.mean(), lt.std(ddof=1) / np.sqrt(lt.size)]),
        "globaltrain": np.array([gt.mean(), gt.std(ddof=1) / np.sqrt(gt.size)]),
        "lam_rule": np.array(lam_rule), "rule_err": np.array(err_rule.mean()),
        "gamma_g_mean": gamma_g.mean(0), "het_max": np.array(float(seen["q"]["het_i"].max()))}
    return arrays, {"constants": base | {"rho_sq": inst.rho_sq, "kappa": L / mu},
                    "details": [o.details for o in outs]}


def statistical_grid(profile: str) -> list[StatisticalConfig]:
    return [StatisticalConfig(m=m, n=n, spectrum=list(spectrum), R=R, reps=REPS[profile], profile=profile)
            for spectrum in ((0.5, 1.0, 2.0), (1.0, 5.5, 10.0)) for m in (4, 10) for n in (20, 100)
            for R in (0.0, 0.05, 0.3, 1.5)]


def statistical_specs(profile: str) -> list[RunSpec]:
    return [RunSpec("fedclup.statistical", cfg, i, run_statistical)
            for i, cfg in enumerate(statistical_grid(profile))]


# ---------------------------------------------------------------------------- fedclup.minimax
def run_minimax(config: MinimaxConfig, seed: int):
    inst = instance(config)
    truth_rng, data_rng = _rngs(seed, 2)
    w_star = LR.ground_truth(inst, truth_rng)
    data = LR.draw(inst, data_rng, w_star, config.reps)
    A, b = data["A"], data["b"]
    lams = np.asarray(config.lams, dtype=float)
    _, w_loc = _solve_chunked(A, b, lams, max(1, int(4e6 // (A[0].size * A.shape[0]))))
    errs = _errors(w_loc, w_star[None, None]).mean(axis=2)               # (S, Lambda)
    lt = _errors(LR.local_train(A, b), w_star[None]).mean(axis=1)
    gt = _errors(LR.global_train(A, b)[:, None, :], w_star[None]).mean(axis=1)
    base = {"mu": inst.mu_design, "L": inst.L_design, "rho": float(np.sqrt(inst.rho_sq)), "m": inst.m,
            "n": inst.n, "R": inst.R}
    lam_rule = float(B.claim("fedclup.cor1.explicit").prescribed(**base)["lam"]) if inst.R > 0 else np.inf
    if np.isfinite(lam_rule):
        rule = _errors(LR.solve_pfl(A, b, np.array([lam_rule]))[1][:, 0], w_star[None]).mean(axis=1)
    else:
        rule = gt
    return ({"lams": lams, "errs": errs, "localtrain": lt, "globaltrain": gt, "rule": rule,
             "lam_rule": np.array(lam_rule)},
            {"constants": base | {"rho_sq": inst.rho_sq, "threshold_R_sq": inst.rho_sq / (inst.mu_design ** 2 * inst.n)}})


# MinimaxConfig's defaults: Gaussian design, spectrum (0.5, 1.0), noise 1, the lambda grid LAMBDA_GRID.
# rho^2 = 1.5, mu = 0.5: the case threshold of Corollary 1 is R^2 = rho^2/(mu^2 n) = 6/n.
MINIMAX_GRID = {
    "heterogeneous": {"vary": "n", "values": (25, 50, 100, 200, 400, 800), "fixed": {"m": 10, "R": 3.0}},
    "transition": {"vary": "R", "values": tuple(float(x) for x in np.geomspace(0.04, 0.2, 6)),
                   "fixed": {"m": 2000, "n": 20}},
    "homogeneous": {"vary": "m", "values": (8, 16, 32, 64, 128, 256), "fixed": {"n": 20, "R": 0.0}},
}
MINIMAX_REPS = {"quick": {"heterogeneous": 200, "transition": 60, "homogeneous": 200},
                "paper": {"heterogeneous": 1000, "transition": 300, "homogeneous": 1000}}


def minimax_specs(profile: str) -> list[RunSpec]:
    specs = []
    for regime, g in MINIMAX_GRID.items():
        for j, value in enumerate(g["values"]):
            cfg = MinimaxConfig(**(g["fixed"] | {g["vary"]: value}), regime=regime,
                                reps=MINIMAX_REPS[profile][regime], profile=profile)
            specs.append(RunSpec("fedclup.minimax", cfg, 100 * list(MINIMAX_GRID).index(regime) + j, run_minimax))
    return specs


# ---------------------------------------------------------------------------- fedclup.tradeoff
def run_tradeoff(config: TradeoffConfig, seed: int):
    """Figure 1 / Corollary 3: total error vs rounds. For each data draw: Algorithm 1 for every lambda
    (gamma = 1/L_F, eta = 1/(L + lambda), the same K for all), LocalTrain and GlobalTrain (GD with
    eta = 1/L, K steps per round), all from w = 0."""
    inst = instance(config)
    truth_rng, data_rng, run_rng = _rngs(seed, 3)
    w_star = LR.ground_truth(inst, truth_rng)
    data = LR.draw(inst, data_rng, w_star, config.reps)
    mu, L = inst.mu_design, inst.L_design
    lams = np.asarray(config.lams, dtype=float)
    T, K = config.rounds, config.local_steps
    curves = {f"fedclup_{j}": [] for j in range(lams.size)} | {"localtrain": [], "globaltrain": []}
    stat = []
    w0 = np.zeros(inst.d)
    for r in range(config.reps):
        clients = LR.stacked_clients(data["X"][r], data["y"][r])
        for j, lam in enumerate(lams):
            gamma, eta = O.cor2_steps(mu, L, lam)
            trace = alg.run_fedclup(clients, alg.FedCLUPParams(lam=lam, gamma=gamma, eta=eta,
                                                               local_steps=K, rounds=T, server="eq12", w_g0=w0),
                                    run_rng)
            curves[f"fedclup_{j}"].append(_errors(trace.local_models, w_star[None]).mean(axis=1))
        lt = alg.run_local_train(clients, alg.LocalTrainParams(eta=1 / L, local_steps=K, rounds=T, w_g0=w0), run_rng)
        curves["localtrain"].append(_errors(lt.local_models, w_star[None]).mean(axis=1))
        gtr = alg.run_global_train(clients, alg.GlobalTrainParams(eta=1 / L, local_steps=K, rounds=T, w_g0=w0),
                                   run_rng)
        curves["globaltrain"].append(_errors(gtr.local_models, w_star[None]).mean(axis=1))
        _, w_loc = LR.solve_pfl(data["A"][r], data["b"][r], lams)
        stat.append(_errors(w_loc, w_star[None]).mean(axis=-1))
    arrays = {k: np.mean(v, axis=0) for k, v in curves.items()} | {"lams": lams, "stat_err": np.mean(stat, axis=0)}
    return arrays, {"constants": {"mu": mu, "L": L, "rho_sq": inst.rho_sq,
                                  "threshold_R_sq": inst.rho_sq / (mu ** 2 * inst.n)}}


def tradeoff_specs(profile: str) -> list[RunSpec]:
    cfg = TradeoffConfig(rounds=150 if profile == "quick" else 400, reps=20 if profile == "quick" else 100,
                         profile=profile)
    return [RunSpec("fedclup.tradeoff", cfg, 0, run_tradeoff)]
