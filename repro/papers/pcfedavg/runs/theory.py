"""PC-FedAvg theory experiments on synthetic instances with exact constants (this project's checks of
Sections 3-4; the paper has no synthetic experiments).

* ``pcfedavg.theory``: a grid of instances (family, sets, m, n, H, nu, rho, step size, update path);
  each run is S Monte-Carlo replicates of Algorithm 1 in lockstep, checked against Lemmas
  4.3-4.6, Propositions 4.7, 4.8 (i)-(iii) and display (12) (``repro.papers.pcfedavg.checks``).
* ``pcfedavg.rates``: a rate sweep of Theorem 3.4: rho = sqrt(R), R on a geometric grid, the step
  size either admissible (gamma = min{1/(6 L_G), 1/(5 L_G (H-1))}) or the proof's 1/sqrt(R);
  log-log slopes of E[f(bar x_K*) - f(x*)] and max_i E[d_i^2] against R.
* ``pcfedavg.adversarial``: per bound, the instance with the largest observed/bound found by a
  seeded random search, plus a targeted family where only one agent's constraint is active: there
  E_{K*}[d_1^2] -> dist(block 1 of x*_rho, X_1)^2 as K grows, which equals (m/rho)^2 ||[grad f(x*_rho)]_1||^2
  (stationarity of G_rho) and tends to m^2 D / rho^2 as rho grows, against the printed 5 m D / rho^2.

Choices the paper leaves open, named in every config: the start z_0 (``start``: "feasible"
= Pi_X of a Gaussian vector, or "x_star" = the solution of (1)); T_r = r H; the noise law
N(0, nu^2/n I); S replicates; the reference tolerances (recorded per run).

One run's config is a frozen dataclass (:class:`TheoryConfig`, :class:`RateConfig`; the adversarial
experiment's two kinds of run: :class:`SearchConfig`, :class:`OneActiveConfig`, the experiment's two config shapes) whose construction checks
every value.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, replace

import numpy as np
import scipy

from bounds.pcfedavg import claims as B
from repro.papers.pcfedavg.algorithms import pcfedavg as alg
from repro.constraints import Box, ProductSet, Whole
from repro.errors import is_real, require
from repro.papers.pcfedavg.problems.personalized import PersonalizedProblem, Quadratic
from repro.papers.pcfedavg.problems.instances import FAMILIES, SET_KINDS, random_instance
from repro.runner import RunSpec
from repro.verify import check_claims, outcome_arrays
from repro.papers.pcfedavg import checks as V
from repro.experiment import Config
from repro import admissible

STARTS = ("feasible", "x_star")
GAMMA_RULES = ("admissible", "proof")


def _rngs(seed: int, config_key: int = 0):
    ss = np.random.SeedSequence([seed, config_key])
    inst, run, kstar = ss.spawn(3)
    return np.random.default_rng(inst), np.random.default_rng(run), np.random.default_rng(kstar)


# ---------------------------------------------------------------------------- configs
def _require_range(key: str, value, *, positive: bool = False) -> None:
    """A finite number in [0, 1e6), or in (0, 1e6) when ``positive``."""
    ok = is_real(value) and (value > 0 if positive else value >= 0) and value < 1e6
    require(ok, key, value, f"a finite number in {'(' if positive else '['}0, 1e6)")


def _require_agents(m) -> None:
    admissible.integer("m", m)
    require(m >= 2, "m", m, "an integer >= 2 (Theorem 3.4 assumes m >= 2 agents)")


def _check_instance(c) -> None:
    """The keys of a synthetic instance (:func:`~repro.papers.pcfedavg.problems.instances.random_instance`)."""
    require(c.family in FAMILIES, "family", c.family, f"one of {FAMILIES}")
    require(isinstance(c.sets, (list, tuple)) and len(c.sets) >= 1 and all(k in SET_KINDS for k in c.sets),
            "sets", c.sets, f"a non-empty list of kinds among {SET_KINDS}")
    _require_agents(c.m)
    admissible.integer("n", c.n)
    admissible.integer("H", c.H)
    _require_range("nu", c.nu)
    require(c.sigma == "hetero" or (is_real(c.sigma) and 0 < c.sigma < 1e6), "sigma", c.sigma,
            "'hetero' or a finite number in (0, 1e6)")
    _require_range("target_scale", c.target_scale)
    require(c.start in STARTS, "start", c.start, f"one of {STARTS}")


@dataclass(frozen=True, kw_only=True)
class RunKeys(Config):
    """The keys of one run of Algorithm 1 on a synthetic instance (family, set kinds cycled over the agents, m, n,
    noise nu, sigma_i, target scale, start): R rounds of H local steps, rho, gamma = gamma_frac * gamma_max and the
    update path. A base of :class:`TheoryConfig` and of ``pcfedavg.exact``'s config, not itself a run's shape."""

    family: str
    sets: list
    m: int
    n: int
    H: int
    nu: float
    R: int
    rho: float = 4.0
    gamma_frac: float = 1.0
    sigma: str | float = "hetero"
    target_scale: float = 3.0
    start: str = "feasible"
    path: str = "compact"
    profile: str

    def __post_init__(self) -> None:
        _check_instance(self)
        admissible.integer("R", self.R)
        _require_range("rho", self.rho, positive=True)
        require(is_real(self.gamma_frac) and 0 < self.gamma_frac <= 1, "gamma_frac", self.gamma_frac,
                "a number in (0, 1]: gamma = gamma_frac * gamma_max, and Props 4.7-4.8 assume gamma <= gamma_max")
        require(self.path in alg.PATHS, "path", self.path, f"one of {alg.PATHS}")


@dataclass(frozen=True, kw_only=True)
class TheoryConfig(RunKeys):
    """One run of ``pcfedavg.theory``: :class:`RunKeys` with S Monte-Carlo replicates."""

    S: int

    def __post_init__(self) -> None:
        super().__post_init__()
        admissible.integer("S", self.S)


@dataclass(frozen=True, kw_only=True)
class RateConfig(Config):
    """One point of ``pcfedavg.rates``: an instance (keys as in :class:`TheoryConfig`), R rounds, S replicates
    and the step-size rule (rho = sqrt(R) is set by the run)."""

    family: str
    sets: list
    m: int
    n: int
    H: int
    nu: float
    sigma: str | float
    target_scale: float
    start: str
    R: int
    S: int
    gamma_rule: str
    profile: str

    def __post_init__(self) -> None:
        _check_instance(self)
        admissible.integer("R", self.R)
        admissible.integer("S", self.S)
        require(self.gamma_rule in GAMMA_RULES, "gamma_rule", self.gamma_rule, f"one of {GAMMA_RULES}")


@dataclass(frozen=True, kw_only=True)
class SearchConfig(Config):
    """The random search of ``pcfedavg.adversarial``: ``budget`` random instances."""

    budget: int
    profile: str

    def __post_init__(self) -> None:
        admissible.integer("budget", self.budget)


@dataclass(frozen=True, kw_only=True)
class OneActiveConfig(Config):
    """A run of ``pcfedavg.adversarial`` on the one-active-constraint instance (:func:`one_active_instance`):
    m agents, K iterations, rho, sigma_i = sigma, target, on the update ``path`` (line 8 as printed or (CR))."""

    search: str = "one_active"
    m: int
    K: int
    rho: float
    sigma: float
    target: float
    profile: str
    path: str = "compact"

    def __post_init__(self) -> None:
        require(self.search == "one_active", "search", self.search, "'one_active'")
        require(self.path in alg.PATHS, "path", self.path, f"one of {alg.PATHS}")
        _require_agents(self.m)
        admissible.integer("K", self.K)
        _require_range("rho", self.rho, positive=True)
        _require_range("sigma", self.sigma, positive=True)
        _require_range("target", self.target)


@dataclass(frozen=True, kw_only=True)
class Setup:
    """What :func:`prepare` builds one run of Algorithm 1 from (not a run's config: a run's config, or an instance of a
    search, gives its values). The instance: ``family``, set kinds ``sets`` cycled over the m agents, n, noise nu,
    sigma_i, ``target_scale``; ``family="one_active"`` is :func:`one_active_instance` (n = 1, noise-free) with
    sigma_i = sigma and ``target``. The run: the ``start`` z_0, R rounds of H local steps, S replicates, rho, the step
    size (``gamma_rule`` "admissible": ``gamma_frac`` gamma_max; "proof": 1/sqrt(R)), the update ``path`` and what
    is recorded."""

    family: str
    m: int
    H: int
    R: int
    S: int
    rho: float
    sigma: str | float
    n: int = 1
    sets: list | tuple = ()
    nu: float = 0.0
    target_scale: float = 3.0
    target: float = 3.0
    gamma_frac: float = 1.0
    gamma_rule: str = "admissible"
    start: str = "feasible"
    path: str = "compact"
    record: str = "full"

    @classmethod
    def of(cls, config: Config, **changes) -> Setup:
        """The setup of a run's ``config`` (those of its keys that are fields here) with ``changes``."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in config.as_dict().items() if k in names} | changes)


def build_instance(setup: Setup, rng: np.random.Generator):
    """(problem, z_0) of ``setup``'s instance."""
    if setup.family == "one_active":
        return one_active_instance(setup.m, setup.sigma, setup.target)
    problem, z0 = random_instance(rng, m=setup.m, n=setup.n, family=setup.family, set_kinds=tuple(setup.sets),
                                  target_scale=setup.target_scale, sigma=setup.sigma, nu=setup.nu)
    return problem, z0


def one_active_instance(m: int, sigma: float = 1.0, target: float = 3.0):
    """The targeted instance of the audit: n = 1, identical f_i(y) = (y - target)^2 / 2, X_0 = [-1, 1]
    and X_i = R for i >= 1, sigma_i = sigma. Only agent 0's constraint is active at x*, so
    grad f(x*) lives in block 0 and D = ||[grad f(x*)]_0||^2."""
    sets = ProductSet([Box(np.array([-1.0]), np.array([1.0]))] + [Whole(1)] * (m - 1))
    local = Quadratic(P=np.ones((m, 1, 1)), c=np.full((m, 1), float(target)), nu=0.0)
    return PersonalizedProblem(local, np.full(m, float(sigma)), sets), np.zeros((m, 1))


def step_size(problem, setup: Setup) -> float:
    """gamma of ``setup``: ``gamma_frac`` times the hypothesis value of Props 4.7-4.8, or the proof's 1/sqrt(R) of
    Theorem 3.4 when ``gamma_rule == "proof"``."""
    if setup.gamma_rule == "proof":
        return float(B.thm34_i.parameters[B.gamma].subs(B.R, setup.R))      # Theorem 3.4's parameters, encoded
    return setup.gamma_frac * problem.gamma_max(setup.rho, setup.H)


def prepare(setup: Setup, seed: int):
    """(problem, reference solution, parameters of Algorithm 1 (with the start z_0 and the reference), run rng,
    K* rng) for one run."""
    inst_rng, run_rng, kstar_rng = _rngs(seed)
    problem, z0 = build_instance(setup, inst_rng)
    rho = float(setup.rho)
    ref = problem.solve(rho, z0)
    if setup.start == "x_star":
        z0 = ref.x_star
        ref = ref.started_at(z0)
    params = alg.PCFedAvgParams(gamma=step_size(problem, setup), rounds=setup.R, local_steps=setup.H, x0=z0, rho=rho,
                                path=setup.path, replicates=setup.S, record=setup.record, reference=ref)
    return problem, ref, params, run_rng, kstar_rng


def _reference_arrays(problem, ref, params) -> dict:
    return {"D": np.array(ref.D), "M": np.array(ref.M), "M_rho": np.array(ref.M_rho), "Q": np.array(ref.Q),
            "L_f": np.array(problem.L_f), "L_G": np.array(problem.L_G(params.rho[0])),
            "gamma": np.array(params.gamma), "gamma_max": np.array(problem.gamma_max(params.rho[0],
                                                                                      params.local_steps)),
            "residual_star": np.array(ref.residual_star), "residual_rho": np.array(ref.residual_rho),
            "f_rho_minus_f_star": np.array(float(problem.f(ref.x_rho)) - ref.f_star),
            "dist_rho_sq": problem.sets.distance(ref.x_rho) ** 2}


# ---------------------------------------------------------------------------- theory grid
def run_theory_instance(config: TheoryConfig, seed: int):
    problem, ref, params, run_rng, kstar_rng = prepare(Setup.of(config), seed)
    trace = alg.run(problem, params, run_rng)
    instance = V.Instance(problem, ref, pairs=V.sample_pairs(problem, kstar_rng))
    outcomes = check_claims(V.check, V.THEORY_CLAIMS + V.PAIR_CLAIMS, instance, trace)
    r = trace.records
    arrays = outcome_arrays(outcomes) | _reference_arrays(problem, ref, params) | {
        "cr_residual_max": np.array(r["cr_residual"].max()),
        "gap_mean": r["gap"].mean(0), "drift_mean": r["drift"].mean(0), "subopt_mean": r["subopt"].mean(0),
        "infeas_mean": r["infeas"].mean(0)}
    meta = {"instance": problem.describe(), "solvers": ref.solvers,
            "literal_kstar": V.literal_kstar(trace, kstar_rng), "cr": V.cr_consistency(trace),
            "details": [o.details for o in outcomes]}
    return arrays, meta


THEORY_GRID = {
    "quick": {"family": ("quadratic", "logistic"), "sets": (("box",), ("l2_ball",), ("l1_ball",),
                                                            ("box", "l2_ball", "l1_ball", "whole")),
              "m": (2, 6), "H": (1, 4), "nu": (0.0, 0.5), "R": 25, "S": 48, "n": 3},
    "paper": {"family": ("quadratic", "logistic"), "sets": (("box",), ("l2_ball",), ("l1_ball",),
                                                            ("box", "l2_ball", "l1_ball", "whole")),
              "m": (2, 4, 8, 16), "H": (1, 2, 5, 10), "nu": (0.0, 0.1, 1.0), "R": 64, "S": 200, "n": 5},
}


def theory_configs(profile: str) -> list[TheoryConfig]:
    g = THEORY_GRID[profile]
    configs = []
    for family in g["family"]:
        for sets in g["sets"]:
            for m in g["m"]:
                for H in g["H"]:
                    for nu in g["nu"]:
                        configs.append(TheoryConfig(family=family, sets=list(sets), m=m, n=g["n"], H=H, nu=nu,
                                                    R=g["R"], S=g["S"], profile=profile))
    # Sensitivity: inactive targets, small step, large penalty, the printed update path.
    base = replace(configs[0], m=4, H=4, nu=0.5, sets=["box", "l2_ball", "l1_ball", "whole"])
    for variant in ({"target_scale": 0.0}, {"gamma_frac": 0.1}, {"rho": 40.0}, {"path": "printed"},
                    {"sigma": 1.0}, {"start": "x_star"}):
        configs.append(replace(base, **variant))
    return configs


def theory_specs(profile: str) -> list[RunSpec]:
    return [RunSpec("pcfedavg.theory", c, 0, run_theory_instance) for c in theory_configs(profile)]


# ---------------------------------------------------------------------------- rates (Theorem 3.4)
RATE_GRID = {"quick": (16, 64, 256, 1024), "paper": (16, 64, 256, 1024, 4096)}
RATE_INSTANCE = {"family": "quadratic", "sets": ["box", "l2_ball", "l1_ball", "whole"], "m": 4, "n": 3,
                 "H": 2, "nu": 0.5, "sigma": "hetero", "target_scale": 3.0, "start": "feasible"}
RATE_S = {"quick": 32, "paper": 128}


def run_rate_point(config: RateConfig, seed: int):
    setup = Setup.of(config, rho=float(B.thm34_i.parameters[B.rho].subs(B.R, config.R)), record="kstar")   # rho = sqrt(R)
    problem, ref, params, run_rng, _ = prepare(setup, seed)
    trace = alg.run(problem, params, run_rng)
    r = trace.records
    arrays = _reference_arrays(problem, ref, params) | {
        "subopt": r["kstar_subopt"], "infeas": r["kstar_infeas"], "gapG": r["kstar_gap"]}
    return arrays, {"instance": problem.describe(), "solvers": ref.solvers}


def rate_specs(profile: str) -> list[RunSpec]:
    return [RunSpec("pcfedavg.rates", RateConfig(**RATE_INSTANCE, R=R, S=RATE_S[profile], gamma_rule=rule,
                                                 profile=profile), 0, run_rate_point)
            for rule in GAMMA_RULES for R in RATE_GRID[profile]]


def fit_exponent(R: np.ndarray, samples: list[np.ndarray], level: float = 0.95) -> dict:
    """Least-squares slope of log|mean| against log R with a t-interval; the mean's own Monte-Carlo
    error enters through weights 1/var(log mean) (delta method)."""
    R = np.asarray(R, dtype=float)
    means = np.array([s.mean() for s in samples])
    ses = np.array([s.std(ddof=1) / np.sqrt(s.size) if s.size > 1 else 0.0 for s in samples])
    y = np.log(np.abs(means))
    x = np.log(R)
    X = np.stack([np.ones_like(x), x], axis=1)
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ coef
    dof = max(len(x) - 2, 1)
    s2 = float(resid @ resid) / dof
    # Floor the residual variance by the propagated Monte-Carlo variance of log|mean|.
    mc = float(np.mean((ses / np.maximum(np.abs(means), 1e-300)) ** 2))
    cov = max(s2, mc) * np.linalg.inv(X.T @ X)
    half = float(scipy.stats.t.ppf(0.5 + level / 2, dof) * np.sqrt(cov[1, 1]))
    return {"slope": float(coef[1]), "ci": (float(coef[1] - half), float(coef[1] + half)),
            "signs": [int(np.sign(v)) for v in means], "means": means.tolist()}


# ---------------------------------------------------------------------------- adversarial search
ADV_BUDGET = {"quick": 12, "paper": 80}
ADV_TARGETS = ("pcfedavg.prop4.7", "pcfedavg.prop4.8.i", "pcfedavg.prop4.8.ii", "pcfedavg.prop4.8.iii",
               "pcfedavg.lemma4.5", "pcfedavg.lemma4.6")


def _random_config(rng: np.random.Generator) -> dict:
    kinds = ("box", "l2_ball", "l1_ball", "whole")
    sets = [kinds[i] for i in rng.choice(4, size=rng.integers(1, 4), replace=False)]
    return {"family": str(rng.choice(["quadratic", "logistic"])), "sets": sets,
            "m": int(rng.choice([2, 3, 4, 8])), "n": int(rng.choice([1, 2, 4])),
            "H": int(rng.choice([1, 2, 3, 6])), "nu": float(rng.choice([0.0, 0.1, 1.0])),
            "R": int(rng.choice([8, 20, 40])), "S": 24, "rho": float(rng.choice([0.5, 2.0, 10.0, 50.0])),
            "gamma_frac": float(rng.choice([1.0, 0.5])), "sigma": str(rng.choice(["hetero"])) if rng.random() < 0.5
            else float(rng.choice([0.01, 1.0])), "target_scale": float(rng.choice([0.0, 1.0, 5.0])),
            "start": str(rng.choice(["feasible", "x_star"])), "path": "compact"}


def _worst_ratio(outcomes, claim_id: str) -> float:
    vals = [o.ratio for o in outcomes if o.claim_id == claim_id and np.isfinite(o.ratio)]
    return max(vals) if vals else float("nan")


def run_adversarial(config: SearchConfig, seed: int):
    """Seeded random search over instance configs; returns the best ratio per target claim."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 17]))
    best = {cid: (-np.inf, None, None) for cid in ADV_TARGETS}
    failures = []
    for trial in range(config.budget):
        cand = _random_config(rng)
        problem, ref, params, run_rng, _ = prepare(Setup(**cand), trial)
        trace = alg.run(problem, params, run_rng)
        outcomes = check_claims(V.check, V.THEORY_CLAIMS, V.Instance(problem, ref), trace)
        failures += [(trial, o.claim_id, o.relation) for o in outcomes if not o.passed]
        for cid in ADV_TARGETS:
            ratio = _worst_ratio(outcomes, cid)
            if np.isfinite(ratio) and ratio > best[cid][0]:
                best[cid] = (ratio, cand, trial)
    arrays = {"claim_id": np.array(ADV_TARGETS), "best_ratio": np.array([best[c][0] for c in ADV_TARGETS]),
              "n_failures": np.array(len(failures))}
    meta = {"best": {c: {"ratio": best[c][0], "config": best[c][1], "seed": best[c][2]} for c in ADV_TARGETS},
            "failures": failures[:50]}
    return arrays, meta


ONE_ACTIVE = {"quick": {"m": (2, 4, 8, 16), "K": (2000, 20000)},
              "paper": {"m": (2, 4, 8, 16, 32), "K": (2000, 20000, 100000)}}


def run_one_active(config: OneActiveConfig, seed: int):
    """Prop 4.8 (ii) on the one-active-constraint instance: deterministic (nu = 0, S = 1), H = 1,
    the admissible gamma, start at x* (feasible, so line 1 of Algorithm 1 is met)."""
    setup = Setup.of(config, family="one_active", H=1, R=config.K, S=1, start="x_star", record="kstar",
                     gamma_frac=1.0)
    problem, ref, params, run_rng, _ = prepare(setup, seed)
    trace = alg.run(problem, params, run_rng)
    infeas = trace.records["kstar_infeas"][0]          # E_{K*} d_i^2, exact (deterministic run)
    values = V.parameter_values(problem, ref, params)
    claim = B.claim("pcfedavg.prop4.8.ii")
    bound = float(V.claim_bound(claim, "infeas_i", values | {"infeas_i": infeas}))
    require(np.isfinite(bound), "bound", bound, "a finite value of Prop 4.8 (ii)")
    arrays = _reference_arrays(problem, ref, params) | {
        "infeas": infeas, "bound": np.array(bound), "ratio": np.array(infeas.max() / bound),
        "hypotheses_met": np.array(bool(np.all(claim.hypotheses_hold(**values))))}
    return arrays, {"instance": problem.describe(), "solvers": ref.solvers}


def adversarial_specs(profile: str) -> list[RunSpec]:
    specs = [RunSpec("pcfedavg.adversarial", SearchConfig(budget=ADV_BUDGET[profile], profile=profile), 0,
                     run_adversarial)]
    grid = ONE_ACTIVE[profile]
    specs += [RunSpec("pcfedavg.adversarial", OneActiveConfig(m=m, K=K, rho=10.0, sigma=1.0, target=3.0,
                                                              profile=profile, path=path), 0, run_one_active)
              for path in ("compact", "printed") for m in grid["m"] for K in grid["K"]]
    return specs
