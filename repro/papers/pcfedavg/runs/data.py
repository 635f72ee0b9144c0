"""PC-FedAvg Section 5: softmax regression on MNIST and CIFAR-10 with l1-ball budgets, PC-FedAvg
against Penalized-FedAvg / -FedProx / -SCAFFOLD (Figures 1-3) and PC-FedAvg for several numbers
of local steps (Figure 4).

Every choice the paper leaves open is a config key; this project's defaults (Section 5's stated settings are
in ``HYPER`` below):

==================  ===========================================================================
split               the full training arrays; losses on the agents' training data
preprocessing       pixels / 255, flattened, no centring, no bias column
partition           label-skewed Dirichlet(0.5) over 4 agents, partition seed 0, fixed across
                    seeds
||W||_1             entrywise l1 norm of vec(W); Frobenius norm in sigma-term and dist
l1 projection       sort-based (Duchi et al. 2008; repro.constraints)
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

import functools

import numpy as np

from repro.papers.pcfedavg.algorithms import pcfedavg as alg
from repro.papers.pcfedavg.algorithms import penalized
from repro.constraints import ProductSet
from repro.errors import ConfigError, require
from repro.papers.pcfedavg.metrics import model_metrics
from repro.papers.pcfedavg.problems import softmax
from repro.papers.pcfedavg.problems.personalized import PersonalizedProblem
from repro.runner import RunSpec, watch
from repro.experiment import check_profile

_FN = "repro.papers.pcfedavg.runs.data."
METHODS = ("pcfedavg", "fedavg", "fedprox", "scaffold")
DATASETS = ("cifar10", "mnist")

# Section 5's settings, as stated
HYPER = {
    "cifar10": {"tau": [85.0, 86.0, 87.0, 88.0], "gamma": 0.003, "sigma": [0.001, 0.01, 0.1, 0.2],
                "lr": 0.001, "mu": 2.0, "scaffold_lr": 0.001},
    "mnist": {"tau": [188.0, 188.0, 188.0, 188.0], "gamma": 0.03, "sigma": [0.01, 0.02, 0.03, 0.04],
              "lr": 0.01, "mu": 0.1, "scaffold_lr": 0.01},
}
DEFAULTS = {"rounds": 100, "local_steps": 20, "batch_fraction": 0.1, "partition": "dirichlet", "alpha": 0.5,
            "partition_seed": 0, "preprocessing": "scale", "init": "zero", "rho_schedule": "quartic_root_10000",
            "participating": 2, "global_lr": 1.0, "path": "printed", "subsample": None, "dtype": "float32"}
SEEDS = {"quick": 2, "paper": 5}
SEEDS_LOCAL_STEPS = {"quick": 1, "paper": 5}   # Figure 4 sweeps 5 values of H: 1 seed keeps quick under ~30 min
LOCAL_STEPS = (1, 5, 10, 20, 40)


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


def validate(config: dict) -> None:
    require(config.get("dataset") in DATASETS, "dataset", config.get("dataset"), f"one of {DATASETS}")
    require(config.get("method") in METHODS, "method", config.get("method"), f"one of {METHODS}")
    for key in ("rounds", "local_steps"):
        require(isinstance(config.get(key), int) and config[key] >= 1, key, config.get(key), "an integer >= 1")
    require(0 < config.get("batch_fraction", 0) <= 1, "batch_fraction", config.get("batch_fraction"), "in (0, 1]")
    require(config.get("dtype") in softmax.DTYPES, "dtype", config.get("dtype"), f"one of {softmax.DTYPES}")
    for key in ("gamma", "lr", "scaffold_lr", "mu", "global_lr"):
        require(config.get(key, 0) >= 0, key, config.get(key), "a finite number >= 0")
    require(len(config.get("tau", ())) == 4 and len(config.get("sigma", ())) == 4, "tau/sigma",
            (config.get("tau"), config.get("sigma")), "4 values each (one per agent)")


@watch("global_loss", step_sizes=("gamma", "lr", "scaffold_lr"))
def run_data(config: dict, seed: int):
    """One method on one data set: per-round metrics (evaluated iterate, infeasibility and
    global loss: this project's defaults, module docstring)."""
    validate(config)
    local = clients(config["dataset"], config["partition"], config["alpha"], config["partition_seed"],
                    config["preprocessing"], config["batch_fraction"], config["subsample"], config["dtype"])
    sets = ProductSet.l1_balls(np.asarray(config["tau"], dtype=float), local.n)
    rhos = rho_schedule(config["rho_schedule"], config["rounds"])
    sigma = np.asarray(config["sigma"], dtype=float)
    rng = np.random.default_rng(np.random.SeedSequence([seed, METHODS.index(config["method"])]))
    w0 = np.zeros(local.n)
    served: list[np.ndarray] = []

    def evaluate(V, r):          # keep the round's models; all rounds are evaluated together after the run
        served.append(np.array(V))
        return {}

    if config["method"] == "pcfedavg":
        problem = PersonalizedProblem(local, sigma, sets)
        params = alg.PCFedAvgParams(gamma=config["gamma"], rounds=config["rounds"], local_steps=config["local_steps"],
                                    rho=rhos, path=config["path"], record="metrics")
        trace = alg.run(problem, params, rng, np.broadcast_to(w0, (local.m, local.n)), evaluate=evaluate)
        arrays = {"own_block_dist": trace.records["own_block_dist"], "local_own_dist": trace.records["local_own_dist"],
                  "local_avg_dist": trace.records["local_avg_dist"]}
    else:
        method = config["method"]
        params = penalized.PenalizedParams(
            method=method, rounds=config["rounds"], local_steps=config["local_steps"],
            lr=config["scaffold_lr"] if method == "scaffold" else config["lr"],
            mu=config["mu"] if method == "fedprox" else 0.0, global_lr=config["global_lr"],
            participating=config["participating"] if method == "scaffold" else None, rho=rhos)
        trace = penalized.run(local, sets, params, rng, w0, evaluate=evaluate)
        arrays = {"local_dist": np.asarray(trace.local_dist, dtype=float)}    # (R, m), NaN: agent not sampled
        if trace.sampled is not None:
            arrays["sampled"] = np.asarray(trace.sampled)
    rho = np.array([rhos[min(r, len(rhos) - 1)] for r in range(len(served))])   # after the last round: rho_{R-1}
    metrics = model_metrics(local, sets, np.stack(served), rho=rho, sigma=sigma) | {"rho": rho}
    arrays |= {k: np.asarray(v, dtype=float) for k, v in metrics.items()}
    return arrays, {"clients": local.describe(), "sets": sets.describe()}


def work(config: dict) -> float:
    """Work model of a run (:mod:`repro.costs`): local steps x features x participating agents, plus the
    evaluation of every round (one full-data pass, counted as two local steps)."""
    features = {"cifar10": 3072, "mnist": 784}[config["dataset"]]
    share = config["participating"] / 4 if config["method"] == "scaffold" else 1.0
    return config["rounds"] * (config["local_steps"] * share + 2) * features


def _config(dataset: str, method: str, profile: str, **overrides) -> dict:
    return DEFAULTS | HYPER[dataset] | {"dataset": dataset, "method": method, "profile": profile} | overrides


def comparison_specs(profile: str) -> list[RunSpec]:
    """Figures 1-3: four methods on both data sets."""
    check_profile(profile)
    return [RunSpec("pcfedavg.comparison", _config(d, meth, profile), seed, _FN + "run_data")
            for d in DATASETS for meth in METHODS for seed in range(SEEDS[profile])]


def local_steps_specs(profile: str) -> list[RunSpec]:
    """Figure 4: PC-FedAvg for several numbers of local steps."""
    check_profile(profile)
    return [RunSpec("pcfedavg.local_steps", _config(d, "pcfedavg", profile, local_steps=h), seed, _FN + "run_data")
            for d in DATASETS for h in LOCAL_STEPS for seed in range(SEEDS_LOCAL_STEPS[profile])]
