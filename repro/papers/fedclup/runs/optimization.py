"""FedCLUP optimization checks (Section 4.2, Appendix B) on the linear-regression test bed, exact constants.

* ``fedclup.theorem2``: Algorithm 1 with gamma = s / L_F (s in {1, 1/2, 1/4}), eta = 1/(L + lambda) and
  K from the derived Corollary 2 (which satisfies (14-D)) or a smaller K. Per round it checks update (12)
  and the K steps of (13) (recomputed independently), Lemma 5 per client, Lemma 6 for three Young
  parameters, Theorem 2's Phi-contraction and local bound (deterministic), and Corollary 2's
  e_T <= eps at the derived T. The exact inner solutions w^(i)_*(w_t) come from the prox in closed form.
* ``fedclup.rounds``: rounds T_eps(lambda) to reach ||w_t - w~_g||^2 <= eps * ||w_0 - w~_g||^2 and
  gradient evaluations T_eps K per client, on a kappa x lambda grid with the derived Corollary 2
  choices (the pattern of the rebuttal Tables 7-8, Appendix D.3.1, whose settings are not recovered).
* ``fedclup.stochastic``: Lemma 7 by Monte Carlo over mini-batch draws (one client replicated, fresh
  batch at every inner step), and the Theorem 3 noise ball: the plateau of e_t for Algorithm 2 as m and
  B vary (the derived heuristic predicts slopes -1 in m and in B; it is not a proved bound).
  These runs use L = max_j ||x_j||^2, the per-sample smoothness constant of Assumption 1 (6), in
  eta = 1/(L + lambda): with L = lambda_max(A_i) (the smoothness of the empirical risk, enough for the
  deterministic results) a batch of one sample makes the inner steps diverge on this design, since
  single samples are up to several times more curved than their average.

Instances: whitened design (X_i^T X_i / n = Sigma exactly), Sigma = diag(linspace(1, kappa, d)) so
mu = 1, L = kappa exactly; p_i = 1/m; start w^g_0 = 0, w^i_0 = 0.

Configs: :class:`Theorem2Config`, :class:`RoundsConfig`, and for ``fedclup.stochastic`` one shape per part,
:class:`Lemma7Config` and :class:`NoiseBallConfig` (the experiment's ``config`` tuple: the shared
:meth:`repro.experiment.Experiment.check_config` builds the shape a config's keys fit); their common keys and
checks are in the plain base :class:`StochasticConfig`. Their instance defaults are :data:`THEOREM2_BASE`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import sympy as sp

from bounds.fedclup import claims as B

from repro.papers.fedclup.algorithms import fedclup as alg
from repro.errors import is_int, require
from repro.papers.fedclup.problems import linreg_pfl as LR
from repro import admissible as adm
from repro.runner import RunSpec, watch
from repro.verify import check_claims, outcome_arrays
from repro.papers.fedclup import checks as V
from repro.experiment import Config


# ---------------------------------------------------------------------------- configs
@dataclass(frozen=True, kw_only=True)
class _InstanceConfig(Config):
    """The instance of every run of this module (whitened design, Sigma = diag(linspace(1, kappa, d))), the
    relative accuracy ``eps_rel`` of Corollary 2 and the profile."""

    kappa: float
    profile: str
    m: int = 10
    n: int = 40
    d: int = 4
    R: float = 0.5
    noise: float = 1.0
    eps_rel: float = 1e-8

    def __post_init__(self) -> None:
        adm.real("kappa", self.kappa, 1.0, strict=False)
        adm.integer("d", self.d, 1, "dimension")
        _instance(self)                     # m, n, d, R, noise and n >= d: the instance's own checks
        require(self.m % 2 == 0 or self.d >= 2 or self.R == 0, "m", self.m,
                "an even number of clients when d = 1 and R > 0 (m odd ground truths at distance R need a plane)")
        adm.real("eps_rel", self.eps_rel, 0.0, high=1.0)


#: the instance every run of this module shares unless its config says otherwise (the defaults of its configs)
THEOREM2_BASE = {f.name: f.default for f in dataclasses.fields(_InstanceConfig) if f.default is not dataclasses.MISSING}


@dataclass(frozen=True, kw_only=True)
class Theorem2Config(_InstanceConfig):
    """One run of ``fedclup.theorem2``: lambda, gamma = ``gamma_scale`` / L_F, ``K`` ("cor2": Corollary 2's K, or a
    number of local steps) and ``rounds``."""

    lam: float
    gamma_scale: float
    K: int | str
    rounds: int

    def __post_init__(self) -> None:
        super().__post_init__()
        adm.real("lam", self.lam)
        adm.real("gamma_scale", self.gamma_scale)
        require(self.K == "cor2" or (is_int(self.K) and self.K >= 1), "K", self.K,
                "'cor2' (Corollary 2's K) or an integer >= 1")
        adm.integer("rounds", self.rounds, 1, "T")


@dataclass(frozen=True, kw_only=True)
class RoundsConfig(_InstanceConfig):
    """One run of ``fedclup.rounds``: rounds to eps_rel accuracy for every lambda of ``lams`` at one kappa."""

    lams: list

    def __post_init__(self) -> None:
        super().__post_init__()
        adm.reals("lams", self.lams)


@dataclass(frozen=True, kw_only=True)
class StochasticConfig(_InstanceConfig):
    """The keys (and their checks) of every run of ``fedclup.stochastic``: lambda, ``batch`` rows per mini-batch,
    ``local_steps`` and the ``part`` ("lemma7": :class:`Lemma7Config`, "ball": :class:`NoiseBallConfig`). A plain
    base of those two shapes, not itself a run's config."""

    lam: float
    batch: int
    local_steps: int
    part: str

    def __post_init__(self) -> None:
        super().__post_init__()
        adm.real("lam", self.lam)
        adm.integer("batch", self.batch, 1, "rows per mini-batch")
        require(self.batch <= self.n, "batch", self.batch, f"an integer in 1..n = {self.n}")
        adm.integer("local_steps", self.local_steps, 1, "K")
        adm.one_of("part", self.part, tuple(STOCHASTIC_PARTS))


@dataclass(frozen=True, kw_only=True)
class Lemma7Config(StochasticConfig):
    """A Lemma 7 run of ``fedclup.stochastic``: ``replicates`` independent copies of client 0's inner steps."""

    part: str = "lemma7"
    replicates: int

    def __post_init__(self) -> None:
        super().__post_init__()
        adm.one_of("part", self.part, ("lemma7",))
        adm.integer("replicates", self.replicates, 2, "Monte-Carlo replicates")


@dataclass(frozen=True, kw_only=True)
class NoiseBallConfig(StochasticConfig):
    """A noise-ball run of ``fedclup.stochastic``: Algorithm 2 for ``rounds`` rounds."""

    part: str = "ball"
    rounds: int

    def __post_init__(self) -> None:
        super().__post_init__()
        adm.one_of("part", self.part, ("ball",))
        adm.integer("rounds", self.rounds, 1, "T")


STOCHASTIC_PARTS = {"lemma7": Lemma7Config, "ball": NoiseBallConfig}


def _instance(config: _InstanceConfig):
    spectrum = tuple(float(x) for x in np.linspace(1.0, config.kappa, config.d))
    return LR.LinRegInstance(m=config.m, n=config.n, d=config.d, R=config.R, noise=config.noise,
                             spectrum=spectrum, design="whitened")


def _data(config: _InstanceConfig, seed: int):
    inst = _instance(config)
    ss = np.random.SeedSequence(seed).spawn(3)
    w_star = LR.ground_truth(inst, np.random.default_rng(ss[0]))
    data = LR.draw(inst, np.random.default_rng(ss[1]), w_star, 1)
    return inst, {k: v[0] for k, v in data.items()}, np.random.default_rng(ss[2])


#: Corollary 2's steps (gamma, eta) = (1/L_F, 1/(L + lam)) and kappa_F = kappa (lam + mu)/(lam + L) at (mu, L, lam), read
#: from the encoding (bounds.fedclup.claims GAMMA_COR2, ETA_COR2, KAPPA_F) for the runs that need no K
cor2_steps = sp.lambdify((B.mu, B.L, B.lam), (B.GAMMA_COR2, B.ETA_COR2), modules="math")
kappa_F = sp.lambdify((B.mu, B.L, B.lam), B.KAPPA_F, modules="math")


def derived_choices(mu: float, L: float, lam: float, eps_rel: float = 1.0) -> dict:
    """gamma = 1/L_F, eta = 1/(L + lambda), K and T of the derived Corollary 2 (claim fedclup.cor2.explicit; T at
    Phi_0/eps = 1/eps_rel, the others do not depend on eps)."""
    p = B.claim("fedclup.cor2.explicit").prescribed(mu=mu, L=L, lam=lam, Phi_0=1.0, epsilon=eps_rel)
    return {"gamma": float(p["gamma"]), "eta": float(p["eta"]), "K": int(p["K"]), "T": int(p["T"])}


def _run(inst, data, rng, lam, gamma, eta, K, rounds, record_inner=False, batch=None, start=(None, None)):
    """Algorithm 1 (2 with ``batch``) from ``start`` = (w^g_0, the clients' models), by default zero everywhere."""
    clients = LR.stacked_clients(data["X"], data["y"])
    w_g0, w_local0 = start
    params = alg.FedCLUPParams(lam=lam, gamma=gamma, eta=eta, local_steps=K, rounds=rounds, batch=batch,
                               server="eq12", w_g0=np.zeros(inst.d) if w_g0 is None else w_g0, w_local0=w_local0,
                               record_inner=record_inner)
    return alg.run_fedclup(clients, params, rng)


def _sq(x):
    return np.sum(x * x, axis=-1)


# ---------------------------------------------------------------------------- fedclup.theorem2
THEOREM2_CLAIMS = ("fedclup.lemma2", "fedclup.eq12", "fedclup.eq13", "fedclup.lemma5", "fedclup.lemma6",
                   "fedclup.thm2")


def theorem2_rate(gamma: float, mu: float, lam: float) -> float:
    """Theorem 2's contraction factor of Phi, 1 - gamma mu_F / 4, read from its encoding (``fedclup.thm2``: the bound
    on Phi_{t+1} at Phi_t = 1), so that the figure and the table show the constant the claim states."""
    claim = B.claim("fedclup.thm2")
    return float(claim.evaluate(Phi_t=1.0, gamma=gamma, mu=mu, lam=lam, d_t=0.0, e_t=0.0, m=1.0)["Phi_next"])


def run_theorem2(config: Theorem2Config, seed: int):
    inst, data, rng = _data(config, seed)
    A, b = data["A"], data["b"]
    mu, L, lam = inst.mu_design, inst.L_design, config.lam
    choice = derived_choices(mu, L, lam)
    gamma = choice["gamma"] * config.gamma_scale
    K = choice["K"] if config.K == "cor2" else int(config.K)
    T = config.rounds
    trace = _run(inst, data, rng, lam, gamma, choice["eta"], K, T, record_inner=True)
    w_g_tilde, w_loc_tilde = LR.solve_pfl(A, b, np.array([lam]))
    problem = V.Instance(A, b, mu, L, w_g_tilde[0], w_loc_tilde[0], config.eps_rel)
    seen = V.theorem2_observed(problem, trace)
    claims = THEOREM2_CLAIMS
    if seen["T_cor2"] <= T and config.gamma_scale == 1.0 and config.K == "cor2":
        claims += ("fedclup.cor2.explicit",)
    outs = check_claims(V.check, [B.claim(cid) for cid in claims], problem, trace)
    e, Phi, keep, mu_F = seen["e"], seen["Phi"], seen["keep"], seen["mu_F"]
    ratios = Phi[1:][keep] / Phi[:-1][keep]
    reached = np.flatnonzero(e <= seen["eps"])
    arrays = outcome_arrays(outs) | {
        "e": e, "Phi": Phi, "d": seen["d_t"], "T_cor2": np.array(seen["T_cor2"]), "K": np.array(K),
        "T_eps": np.array(int(reached[0]) if reached.size else -1),
        "rate_observed": np.array(float(np.exp(np.mean(np.log(ratios)))) if ratios.size else np.nan),
        "rate_bound": np.array(theorem2_rate(gamma, mu, lam)), "kappa_F": np.array(kappa_F(mu, L, lam)),
        "hypotheses_met": np.array([o.hypotheses_met for o in outs])}
    return arrays, {"constants": seen["base"] | {"theta": seen["theta"], "mu_F": mu_F, "eps": seen["eps"]}}


def theorem2_specs(profile: str) -> list[RunSpec]:
    specs = []
    for kappa in (4.0, 16.0):
        for lam in (0.1, 1.0, 10.0):
            for gamma_scale, K in ((1.0, "cor2"), (0.5, "cor2"), (0.25, "cor2"), (1.0, 1)):
                cfg = Theorem2Config(kappa=kappa, lam=lam, gamma_scale=gamma_scale, K=K,
                                     rounds=400 if profile == "quick" else 1500, profile=profile)
                specs.append(RunSpec("fedclup.theorem2", cfg, 0, run_theorem2))
    return specs


# ---------------------------------------------------------------------------- fedclup.rounds (Tables 7-8)
def _rounds_to_accuracy(inst, data, rng, lam: float, choice: dict, T_max: int, eps_rel: float) -> int:
    """The first round t <= T_max with ||w_t - w~_g||^2 <= eps_rel ||w_0 - w~_g||^2, or -1. Algorithm 1 runs in
    stretches of doubling length, each resuming from the models the last one ended with, until a stretch reaches the
    accuracy: with full participation and full gradients nothing is drawn at random, so the rounds are those of one
    run of T_max rounds, and the rounds after the first hit, which nothing reads, are not computed."""
    w_g_tilde = LR.solve_pfl(data["A"], data["b"], np.array([lam]))[0][0]
    start, done, stretch, e0 = (None, None), 0, 16, None
    while done < T_max:
        rounds = min(stretch, T_max - done)
        trace = _run(inst, data, rng, lam, choice["gamma"], choice["eta"], choice["K"], rounds, start=start)
        e = _sq(trace.global_models - w_g_tilde)
        e0 = e[0] if e0 is None else e0
        hit = np.flatnonzero(e <= eps_rel * e0)
        if hit.size:
            return done + int(hit[0])
        done, stretch = done + rounds, 2 * stretch
        start = (trace.global_models[-1], trace.local_models[-1])
    return -1


def run_rounds(config: RoundsConfig, seed: int):
    inst, data, rng = _data(config, seed)
    mu, L = inst.mu_design, inst.L_design
    lams = np.asarray(config.lams, dtype=float)
    T_eps, Ks, kFs = [], [], []
    for lam in lams:
        c = derived_choices(mu, L, lam, config.eps_rel)
        T_max = c["T"] + 50                     # Corollary 2's T, with 50 rounds of slack
        T_eps.append(_rounds_to_accuracy(inst, data, rng, lam, c, T_max, config.eps_rel))
        Ks.append(c["K"])
        kFs.append(kappa_F(mu, L, lam))
    T_eps, Ks = np.array(T_eps), np.array(Ks)
    return ({"lams": lams, "T_eps": T_eps, "K": Ks, "grad_evals": T_eps * Ks, "kappa_F": np.array(kFs)},
            {"constants": {"mu": mu, "L": L, "kappa": L / mu}})


ROUNDS_LAMBDAS = tuple(float(x) for x in np.logspace(-2, 3, 11))


def rounds_specs(profile: str) -> list[RunSpec]:
    kappas = (4.0, 16.0, 64.0) if profile == "quick" else (4.0, 16.0, 64.0, 256.0)
    return [RunSpec("fedclup.rounds", RoundsConfig(kappa=k, lams=list(ROUNDS_LAMBDAS), profile=profile), 0, run_rounds)
            for k in kappas]


# ---------------------------------------------------------------------------- fedclup.stochastic
def _sample_smoothness(X) -> float:
    """Assumption 1's per-sample constant for the squared loss: max_j ||x_j||^2 (over every client)."""
    return float(np.max(np.sum(X * X, axis=-1)))


def lemma7_path(config: _InstanceConfig, seed: int, replicates: int, batches=None):
    """Client 0 of the instance of ``config`` (a config with ``lam``, ``batch`` and ``local_steps``: a
    :class:`Lemma7Config` or :class:`~repro.papers.fedclup.runs.exact.ExactConfig`) replicated ``replicates`` times,
    K mini-batch steps of (13) from one start: the :class:`~repro.papers.fedclup.checks.ReplicatedClient`, its
    :class:`~repro.papers.fedclup.checks.InnerPath` and the rows each step used (K, S, B). The batches are drawn from
    the run's Generator, or from ``batches`` (a scripted stand-in, ``fedclup.exact``)."""
    inst, data, rng = _data(config, seed)
    X, y = data["X"][0], data["y"][0]
    mu, L, lam = inst.mu_design, _sample_smoothness(data["X"]), config.lam
    eta, S, Bt, K = 1.0 / (L + lam), replicates, config.batch, config.local_steps
    w_g = rng.normal(size=inst.d)
    target = LR.prox(data["A"][:1], data["b"][:1], lam, w_g)[0]
    start = target + rng.normal(size=inst.d)
    reps = LR.stacked_clients(np.broadcast_to(X, (S,) + X.shape).copy(), np.broadcast_to(y, (S,) + y.shape).copy())
    W = np.broadcast_to(start, (S, inst.d)).copy()
    path, used = [W], []
    for _ in range(K):
        rows = reps.sample_rows(rng if batches is None else batches, Bt)
        W = W - eta * (reps.minibatch_gradients(W, rows) + lam * (W - w_g))
        path.append(W)
        used.append(rows)
    problem = V.ReplicatedClient(X, y, mu, L, lam, eta, K, Bt, start, target, exact=batches is not None)
    return problem, V.InnerPath(np.stack(path)), np.stack(used)


def run_lemma7(config: Lemma7Config, seed: int):
    """Lemma 7: client 0 replicated S times; K mini-batch steps of (13) from the same start."""
    problem, trace, _ = lemma7_path(config, seed, config.replicates)
    outs = check_claims(V.check, [B.claim("fedclup.lemma7")], problem, trace)
    seen = V.lemma7_observed(problem, trace)
    return outcome_arrays(outs) | {"sigma_sq": np.array(seen["sigma_sq"])}, {"constants": seen["values"]}


def lemma7_specs(profile: str) -> list[RunSpec]:
    S = 4000 if profile == "quick" else 20000
    return [RunSpec("fedclup.stochastic", Lemma7Config(kappa=8.0, lam=lam, batch=bt, local_steps=k, replicates=S,
                                                       profile=profile), 0, run_lemma7)
            for lam in (0.1, 10.0) for bt in (1, 8) for k in (1, 10, 50)]


@watch("e", step_sizes=("lam",))
def run_noise_ball(config: NoiseBallConfig, seed: int):
    """Theorem 3's heuristic ball: plateau of e_t for Algorithm 2 (fresh batch at every inner step)."""
    inst, data, rng = _data(config, seed)
    mu, L, lam = inst.mu_design, _sample_smoothness(data["X"]), config.lam
    c = derived_choices(mu, L, lam)
    T = config.rounds
    trace = _run(inst, data, rng, lam, c["gamma"], c["eta"], config.local_steps, T, batch=config.batch)
    w_g_tilde = LR.solve_pfl(data["A"], data["b"], np.array([lam]))[0][0]
    e = _sq(trace.global_models - w_g_tilde)
    plateau = e[T // 2:]
    return {"e": e, "plateau": np.array(plateau.mean()),
            "plateau_se": np.array(plateau.std(ddof=1) / np.sqrt(plateau.size))}, {"constants": {"mu": mu, "L": L}}


def noise_ball_specs(profile: str) -> list[RunSpec]:
    T = 400 if profile == "quick" else 2000
    return [RunSpec("fedclup.stochastic", NoiseBallConfig(kappa=8.0, lam=1.0, m=m, batch=bt, local_steps=5, rounds=T,
                                                          profile=profile), 0, run_noise_ball)
            for m in (5, 10, 20, 40) for bt in (1, 4, 16)]


def stochastic_specs(profile: str) -> list[RunSpec]:
    return lemma7_specs(profile) + noise_ball_specs(profile)
