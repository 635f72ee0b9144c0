"""PC-FedAvg Section 5: softmax regression on MNIST and CIFAR-10 with l1-ball budgets, PC-FedAvg
against Penalized-FedAvg / -FedProx / -SCAFFOLD (Figures 1-3) and PC-FedAvg for several numbers
of local steps (Figure 4).

Every choice the paper leaves open is a config key (one run's config: the dataclass of its method, :data:`SHAPES`,
which holds the keys of :class:`DataConfig` that every method reads and the keys that method alone reads; the field
defaults are ``DEFAULTS``); this project's defaults (Section 5's stated settings are in ``HYPER`` below):

==================  ===========================================================================
split               the training arrays; losses on the agents' training data. Paper profile: all of them
                    (60,000 MNIST, 50,000 CIFAR-10 images). Quick profile: a stratified random subset
                    (``SUBSAMPLE``, drawn from the partition seed) of 15,000 MNIST (a quarter) and 6,250
                    CIFAR-10 images (an eighth: a CIFAR-10 image has 4x the features of an MNIST one),
                    the reduction that brings the quick ``make reproduce`` near 10 minutes on 2 cores
                    while keeping every method, both seeds, every H and all 100 rounds (its effect on
                    the figures, measured against the full data: benchmarks/README.md, "The quick
                    profile's data")
preprocessing       pixels / 255, flattened, no centring, no bias column
partition           label-skewed Dirichlet(0.5) over 4 agents, partition seed 0, fixed across
                    seeds
||W||_1             entrywise l1 norm of vec(W); Frobenius norm in sigma-term and dist
l1 projection       Michelot's passes, sort-based fallback (Duchi et al. 2008; repro.constraints)
minibatches         ceil(0.1 N_i) samples without replacement, fresh every local step
initialisation      the zero matrix, feasible for every budget; SCAFFOLD control variates 0
penalty             rho_r = (r + 10000)^(1/4) (stated in Section 5) for every local step of round
                    r = 0..R-1, and the same schedule for the baselines
baselines           all 4 agents every round for FedAvg/FedProx; SCAFFOLD option II, 2 of 4
                    agents (stated), global step 1 (stated)
evaluated iterate   once per round after aggregation: PC-FedAvg's server blocks z_r, the
                    baselines' global model W_r
infeasibility       (1/m) sum_i dist(V_i, X_i) with V_i = z_r^(i) (PC-FedAvg) or W_r
global loss         (1/m) sum_i f_i(mean_i V_i) on each agent's full data
Figure 4            local steps in {1, 5, 10, 20, 40}, R = 100, all else as in Section 5's settings
seeds               5 (paper profile) / 2 (quick profile; Figure 4: 1): minibatches and SCAFFOLD
                    sampling; the partition is fixed across seeds
update path         line 8 of Algorithm 1 as printed
dtype               float32 for the features and the products with them (the papers' frameworks train
                    in float32); iterates, values and gradients float64. Every theorem check of
                    PC-FedAvg uses float64 (:mod:`.theory`).
==================  ===========================================================================
"""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from repro.papers.pcfedavg.algorithms import pcfedavg as alg
from repro.papers.pcfedavg.algorithms import penalized
from repro.constraints import ProductSet
from repro.errors import ConfigError, is_int, is_real, require
from repro.papers.pcfedavg.metrics import model_metrics
from repro.papers.pcfedavg.problems import softmax
from repro.papers.pcfedavg.problems.personalized import PersonalizedProblem
from repro.runner import RunSpec, typed_config, watch
from repro.experiment import Config

METHODS = ("pcfedavg", "fedavg", "fedprox", "scaffold")
DATASETS = ("cifar10", "mnist")

# Section 5's settings, as stated
HYPER = {
    "cifar10": {"tau": [85.0, 86.0, 87.0, 88.0], "gamma": 0.003, "sigma": [0.001, 0.01, 0.1, 0.2],
                "lr": 0.001, "mu": 2.0, "scaffold_lr": 0.001},
    "mnist": {"tau": [188.0, 188.0, 188.0, 188.0], "gamma": 0.03, "sigma": [0.01, 0.02, 0.03, 0.04],
              "lr": 0.01, "mu": 0.1, "scaffold_lr": 0.01},
}
SEEDS = {"quick": 2, "paper": 5}
SEEDS_LOCAL_STEPS = {"quick": 1, "paper": 5}   # Figure 4 sweeps 5 values of H: 1 seed keeps quick short
#: training samples per data set: all of them (None) in the paper profile, a stratified subset in the quick one
SUBSAMPLE = {"quick": {"mnist": 15_000, "cifar10": 6_250}, "paper": {"mnist": None, "cifar10": None}}
#: training set sizes (the work model's scale)
TRAIN_SIZE = {"mnist": 60_000, "cifar10": 50_000}
LOCAL_STEPS = (1, 5, 10, 20, 40)


M = 4                    # agents (softmax.build's default)
INITS = ("zero",)        # the zero matrix, feasible for every budget
RHO_SCHEDULES = ("quartic_root_10000", "constant:<value>")


def _constant_rho(name) -> float | None:
    """The value of a "constant:<value>" schedule (None if ``name`` is not one)."""
    if not (isinstance(name, str) and name.startswith("constant:")):
        return None
    try:
        return float(name.split(":", 1)[1])
    except ValueError:
        return None


def rho_schedule(name: str, rounds: int) -> tuple:
    """rho_r per round: "quartic_root_10000" is Section 5's (r + 10000)^(1/4), r = 0..R-1."""
    if name == "quartic_root_10000":
        return tuple(float((r + 10000) ** 0.25) for r in range(rounds))
    if name.startswith("constant:"):
        return (float(name.split(":", 1)[1]),) * rounds
    raise ConfigError(f"rho_schedule={name!r} is not admissible: 'quartic_root_10000' or 'constant:<value>'")


@functools.lru_cache(maxsize=4)
def clients(dataset: str, partition: str, alpha: float, partition_seed: int, preprocessing: str,
            batch_fraction: float, subsample, dtype: str = "float64"):
    """The agents' data, cached per worker process (loading CIFAR-10 takes seconds)."""
    return softmax.build(dataset, partition=partition, alpha=alpha, partition_seed=partition_seed,
                         preprocessing=preprocessing, batch_fraction=batch_fraction, subsample=subsample,
                         dtype=dtype)


def _require_values(key: str, values, allowed: str, ok) -> None:
    good = isinstance(values, (list, tuple)) and len(values) == M and all(is_real(v) and ok(v) for v in values)
    require(good, key, values, allowed)


def _require_step(key: str, value) -> None:
    require(is_real(value) and value > 0, key, value, "a finite step size > 0")


@dataclass(frozen=True, kw_only=True)
class DataConfig(Config):
    """The keys that a run of ``pcfedavg.comparison``, ``pcfedavg.compact`` or ``pcfedavg.local_steps`` reads whatever
    its method: one data set (module docstring; the fields with defaults are this project's, ``DEFAULTS``), Section 5's
    budgets tau_i and weights sigma_i (``HYPER[dataset]``), the method and the profile. Not itself a run's shape: a
    run's config is the dataclass of its method (:data:`SHAPES`), which adds the keys that method alone reads, so that
    ``--set`` of a method's key reruns the runs of that method only (:mod:`repro.overrides`)."""

    #: the method whose runs have this shape (the value of their ``method`` key)
    METHOD: ClassVar[str] = ""

    rounds: int = 100
    local_steps: int = 20
    batch_fraction: float = 0.1
    partition: str = "dirichlet"
    alpha: float = 0.5
    partition_seed: int = 0
    preprocessing: str = "scale"
    init: str = "zero"
    rho_schedule: str = "quartic_root_10000"
    subsample: int | None = None
    dtype: str = "float32"
    tau: list
    sigma: list
    dataset: str
    method: str
    profile: str

    def __post_init__(self) -> None:
        require(self.dataset in DATASETS, "dataset", self.dataset, f"one of {DATASETS}")
        require(self.method == self.METHOD, "method", self.method, f"{self.METHOD!r} in a {type(self).__name__}")
        for key in ("rounds", "local_steps"):
            require(is_int(getattr(self, key)) and getattr(self, key) >= 1, key, getattr(self, key), "an integer >= 1")
        require(is_real(self.batch_fraction) and 0 < self.batch_fraction <= 1, "batch_fraction", self.batch_fraction,
                "in (0, 1]")
        require(self.partition in softmax.PARTITIONS, "partition", self.partition, f"one of {softmax.PARTITIONS}")
        require(is_real(self.alpha) and self.alpha > 0, "alpha", self.alpha, "a finite number > 0")
        require(is_int(self.partition_seed) and self.partition_seed >= 0, "partition_seed", self.partition_seed,
                "an integer >= 0")
        require(self.preprocessing in softmax.PREPROCESSINGS, "preprocessing", self.preprocessing,
                f"one of {softmax.PREPROCESSINGS}")
        require(self.init in INITS, "init", self.init, f"one of {INITS}")
        constant = _constant_rho(self.rho_schedule)
        require(self.rho_schedule == RHO_SCHEDULES[0] or (is_real(constant) and constant > 0),
                "rho_schedule", self.rho_schedule, f"'{RHO_SCHEDULES[0]}' or 'constant:<value>' with a value > 0")
        require(self.subsample is None or (is_int(self.subsample) and self.subsample >= 1), "subsample",
                self.subsample, "None (all samples) or an integer >= 1")
        require(self.dtype in softmax.DTYPES, "dtype", self.dtype, f"one of {softmax.DTYPES}")
        _require_values("tau", self.tau, f"{M} finite l1 budgets >= 0 (one per agent)", lambda v: v >= 0)
        _require_values("sigma", self.sigma, f"{M} finite weights > 0 (one per agent)", lambda v: v > 0)


@dataclass(frozen=True, kw_only=True)
class PCFedAvgConfig(DataConfig):
    """A run of PC-FedAvg (Algorithm 1): Section 5's step size gamma and the update ``path`` (line 8 as printed or
    (CR))."""

    METHOD: ClassVar[str] = "pcfedavg"
    gamma: float
    path: str = "printed"

    def __post_init__(self) -> None:
        super().__post_init__()
        _require_step("gamma", self.gamma)
        require(self.path in alg.PATHS, "path", self.path, f"one of {alg.PATHS}")


@dataclass(frozen=True, kw_only=True)
class PenalizedConfig(DataConfig):
    """The key every penalized baseline reads (:mod:`repro.papers.pcfedavg.algorithms.penalized`): the global step
    size eta_g. A base of the baselines' shapes, not itself one."""

    global_lr: float = 1.0

    def __post_init__(self) -> None:
        super().__post_init__()
        _require_step("global_lr", self.global_lr)


@dataclass(frozen=True, kw_only=True)
class FedAvgConfig(PenalizedConfig):
    """A run of Penalized-FedAvg: Section 5's local step size ``lr``, all agents every round."""

    METHOD: ClassVar[str] = "fedavg"
    lr: float

    def __post_init__(self) -> None:
        super().__post_init__()
        _require_step("lr", self.lr)


@dataclass(frozen=True, kw_only=True)
class FedProxConfig(FedAvgConfig):
    """A run of Penalized-FedProx: Penalized-FedAvg's keys and Section 5's proximal weight ``mu``."""

    METHOD: ClassVar[str] = "fedprox"
    mu: float

    def __post_init__(self) -> None:
        super().__post_init__()
        require(is_real(self.mu) and self.mu >= 0, "mu", self.mu, "a finite number >= 0")


@dataclass(frozen=True, kw_only=True)
class ScaffoldConfig(PenalizedConfig):
    """A run of Penalized-SCAFFOLD: Section 5's local step size ``scaffold_lr`` and the agents sampled per round."""

    METHOD: ClassVar[str] = "scaffold"
    scaffold_lr: float
    participating: int = 2

    def __post_init__(self) -> None:
        super().__post_init__()
        _require_step("scaffold_lr", self.scaffold_lr)
        require(is_int(self.participating) and 1 <= self.participating <= M, "participating", self.participating,
                f"an integer in 1..{M} (SCAFFOLD's agents per round)")


#: each method's run config (the experiments' config shapes), in the order of ``METHODS``
SHAPES: dict[str, type[DataConfig]] = {c.METHOD: c for c in (PCFedAvgConfig, FedAvgConfig, FedProxConfig,
                                                              ScaffoldConfig)}
#: This project's defaults (the fields of the shapes that have one).
DEFAULTS = {f.name: f.default for shape in SHAPES.values() for f in dataclasses.fields(shape)
            if f.default is not dataclasses.MISSING}


@watch("global_loss", step_sizes=("gamma", "lr", "scaffold_lr"))
def run_data(config: PCFedAvgConfig | FedAvgConfig | FedProxConfig | ScaffoldConfig, seed: int):
    """One method on one data set (``config`` is the shape of its method): per-round metrics (evaluated iterate,
    infeasibility and global loss: this project's defaults, module docstring)."""
    local = clients(config.dataset, config.partition, config.alpha, config.partition_seed, config.preprocessing,
                    config.batch_fraction, config.subsample, config.dtype)
    sets = ProductSet.l1_balls(np.asarray(config.tau, dtype=float), local.n)
    rhos = rho_schedule(config.rho_schedule, config.rounds)
    sigma = np.asarray(config.sigma, dtype=float)
    rng = np.random.default_rng(np.random.SeedSequence([seed, METHODS.index(config.method)]))
    w0 = np.zeros(local.n)
    served: list[np.ndarray] = []

    def evaluate(V, r):          # keep the round's models; all rounds are evaluated together after the run
        served.append(np.array(V))
        return {}

    if isinstance(config, PCFedAvgConfig):
        problem = PersonalizedProblem(local, sigma, sets)
        params = alg.PCFedAvgParams(gamma=config.gamma, rounds=config.rounds, local_steps=config.local_steps,
                                    x0=np.broadcast_to(w0, (local.m, local.n)), rho=rhos, path=config.path,
                                    record="metrics", evaluate=evaluate)
        trace = alg.run(problem, params, rng)
        arrays = {"own_block_dist": trace.records["own_block_dist"], "local_own_dist": trace.records["local_own_dist"],
                  "local_avg_dist": trace.records["local_avg_dist"]}
    else:
        scaffold = isinstance(config, ScaffoldConfig)
        params = penalized.PenalizedParams(
            method=config.method, rounds=config.rounds, local_steps=config.local_steps,
            lr=config.scaffold_lr if scaffold else config.lr,
            mu=config.mu if isinstance(config, FedProxConfig) else 0.0, global_lr=config.global_lr,
            participating=config.participating if scaffold else None, rho=rhos, w0=w0, evaluate=evaluate)
        trace = penalized.run(penalized.PenalizedProblem(local, sets), params, rng)
        arrays = {"local_dist": np.asarray(trace.local_dist, dtype=float)}    # (R, m), NaN: agent not sampled
        if trace.sampled is not None:
            arrays["sampled"] = np.asarray(trace.sampled)
    rho = np.array([rhos[min(r, len(rhos) - 1)] for r in range(len(served))])   # after the last round: rho_{R-1}
    metrics = model_metrics(local, sets, np.stack(served), rho=rho, sigma=sigma) | {"rho": rho}
    arrays |= {k: np.asarray(v, dtype=float) for k, v in metrics.items()}
    return arrays, {"clients": local.describe(), "sets": sets.describe()}


def work(config: dict) -> float:
    """Work model of a run (:mod:`repro.costs`): local steps x features x participating agents x training samples,
    plus the evaluation of every round (one full-data pass, counted as two local steps)."""
    run = typed_config(run_data, config)                # the shape of the run's method, as the runner builds it
    features = {"cifar10": 3072, "mnist": 784}[run.dataset]
    share = run.participating / 4 if isinstance(run, ScaffoldConfig) else 1.0
    samples = (run.subsample or TRAIN_SIZE[run.dataset]) / TRAIN_SIZE[run.dataset]
    return run.rounds * (run.local_steps * share + 2) * features * samples


def _config(dataset: str, method: str, profile: str, **overrides) -> DataConfig:
    """One run's config, the shape of ``method``: Section 5's stated values for ``dataset`` that the method reads,
    this project's defaults, the profile's training-set size (``SUBSAMPLE``), ``overrides``."""
    shape = SHAPES[method]
    stated = {k: v for k, v in HYPER[dataset].items() if k in shape.keys()}
    return shape(**stated | {"dataset": dataset, "method": method, "profile": profile,
                             "subsample": SUBSAMPLE[profile][dataset]} | overrides)


def comparison_specs(profile: str) -> list[RunSpec]:
    """Figures 1-3: four methods on both data sets."""
    return [RunSpec("pcfedavg.comparison", _config(d, meth, profile), seed, run_data)
            for d in DATASETS for meth in METHODS for seed in range(SEEDS[profile])]


def compact_specs(profile: str) -> list[RunSpec]:
    """Figures 1-3's PC-FedAvg runs on the other reading of Algorithm 1, (CR), the compact form the paper's proofs
    use (Section 5's runs follow line 8 as printed): the figures' statements are decided on both."""
    return [RunSpec("pcfedavg.compact", _config(d, "pcfedavg", profile, path="compact"), seed, run_data)
            for d in DATASETS for seed in range(SEEDS[profile])]


def local_steps_specs(profile: str) -> list[RunSpec]:
    """Figure 4: PC-FedAvg for several numbers of local steps. A run whose config and seed are those of a Figures 1-3
    run (H = 20, Section 5's setting) *is* that run: it is named by ``pcfedavg.comparison`` and computed once."""
    shared = set(comparison_specs(profile))

    def spec(config: PCFedAvgConfig, seed: int) -> RunSpec:
        mine = RunSpec("pcfedavg.comparison", config, seed, run_data)
        return mine if mine in shared else RunSpec("pcfedavg.local_steps", config, seed, run_data)

    return [spec(_config(d, "pcfedavg", profile, local_steps=h), seed)
            for d in DATASETS for h in LOCAL_STEPS for seed in range(SEEDS_LOCAL_STEPS[profile])]
