"""Mini-batch SSCA on MNIST with the 3-layer swish network of Section V: the runs behind Figures 2-4
and the audit's literal-(32) run (Section VI).

Every choice the paper leaves open is named in the config and fixed here (this project's defaults), next to
the settings Section VI states:

* data: the official 60k/10k split, pixels / 255, no other preprocessing. ``dataset="digits"``
  swaps in scikit-learn's 8x8 digits as a labelled stand-in for tests, never for figures;
* network: K = 784 inputs, J = 128 swish units, L = 10 softmax outputs, no biases (d = 101,632);
* initialization: W ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)) from the run's Generator
  (omega = 0 is a stationary point: every batch statistic (33)-(34) vanishes there);
* clients: I = 10, an IID split of the 60k training samples into equal parts of 6000;
  feature-based: contiguous column blocks of 78/79 pixels, the label holder is the server,
  clients exchange per-client partial pre-activations;
* mini-batches: uniform without replacement within a batch, independent across iterations;
* horizon: T = 1000 (the axes of Fig. 2; the text's T = 100 is a checkpoint);
* step sizes: the Section VI triples, matched position by position to the batch sizes as the text lists
  them; tau = 0.1, c = 1e5 (a single penalty, as in the experiments of Section VI; Theorems 2 and 4 are stated for
  increasing penalties c_j);
* (27) with lambda = 1e-5 and (37) with U = 0.13 for Figures 2 and 3 (Figure 3's values are not in the
  copy: we reuse Figure 2's);
* the constant term (32): ``a_bar="surrogate_11"`` (the sign that makes (38) the surrogate (11) of
  F - U) for every figure; ``a_bar="printed"`` is the literal (32), run only for the audit;
* SGD baselines: sample-based FedAvg-style SGD (E local steps per round, server averages,
  one iteration = one round) and feature-based SGD, both on (27); learning rate a / t^alpha chosen
  by a grid search (``SGD_GRID``) on the training objective after ``grid_iterations`` iterations,
  evaluated on a fixed 10k subsample of the training set; the grid and the winner are recorded. The search
  is one run per SGD configuration (``run_sgd_grid``, on seed 0's initialization and split), and every seed's
  SGD run reads its winner (the runner's ``needs``): the rate is chosen once per configuration, not per seed;
* dtype: ``"float32"`` for the features and the network products of the figures' runs (their training loops,
  as the paper's own frameworks train); the iterates, the server steps, the closed forms and every theorem
  check (``ssca.convergence``, ``ssca.theorem5``) are float64, and so is the audit's literal-(32) run
  (``ssca.printed_32``): its model collapses to ||omega||^2 ~ 1e-54, whose logits underflow in float32, so its
  test accuracy would only measure float32 underflow;
* metrics (those of Figures 2-4; the copy defines neither Figure 4's axes nor "model sparsity"): at
  ``checkpoints`` the training cost F (25) on all 60k training samples, the objective of (27), test accuracy
  on the 10k test set (both computed without the pixel columns that are zero in every sample of the set, which
  add only exact zeros: ``SN.EvaluationSet``; at t = 1, where every run of a seed starts from the same omega^(1), they
  are one run per seed that the curves need, ``run_initial_metrics``), ||omega||^2 and the fraction of weights with |w| < ``SPARSITY_THRESHOLD`` (our reading
  of "model sparsity"); per iteration the step sizes, for (37) also nu, its regime, zeta, A and b; wall time
  per iteration;
* closed forms on the run's own quantities: at ``solver_checks`` (checkpoints; first seed only; every batch
  size at the paper profile, the middle one at the quick profile: ``SOLVER_CHECK_BATCHES``) the server
  problem ((28)-(29) or (38)) built from the run's Theta, beta, A is solved by cvxpy and compared with the
  closed form.

Runs: seeds vary the initialization, the client split and the batches. The quick profile (a few
minutes on 2 cores, timed by ``benchmarks/bench_ssca.py --only quick``) trades statistical weight for time, never
the problem: 1 seed per curve instead of the paper's 100 (``SEEDS``), 6 checkpoints instead of 13
(``CHECKPOINTS``), a 6-point SGD grid scored after 100 iterations instead of 20 points after 1000
(``SGD_GRID``, ``GRID_ITERATIONS``). Data, network, T, step sizes and full-data metrics are the same in both
profiles. Figure 4 plots values at T only, so its own runs evaluate the metrics at t = T only; its points at
Figure 2's lambda and U are Figures 2 and 3's runs (``figure4_specs``).

Configs: one frozen dataclass per shape of run, the single source of keys and defaults (the choices above):
:class:`SSCA27Config` and :class:`SSCA37Config` (an SSCA curve on (27) / (37)), :class:`SGDConfig` (an SGD
baseline), :class:`SGDGridConfig` (its learning-rate search, a run it needs) and :class:`InitialPointConfig` (the
metrics at a seed's initial point, a run every curve with t = 1 among its checkpoints needs; also the base of every
other shape). The experiments mixing shapes
list theirs (``Experiment(config=(...))``): the shared layer builds each run's config into the shape its keys
name and lets ``--set`` change a key in the runs whose shape has it. :class:`MnistConfig` (the fields and checks of
every run of Figures 2-4) and :class:`SSCAConfig` (those of every SSCA run) are bases only, no run's shape.
"""
from __future__ import annotations

import functools
import hashlib
import time
from dataclasses import dataclass

import numpy as np

from repro.papers.ssca.algorithms import federated_sgd as sgd
from repro.papers.ssca.algorithms import ssca as alg
from repro.errors import is_int, is_real, require
from repro.papers.ssca.problems import mnist_pixels as MP
from repro.papers.ssca.problems import swish_network as SN
from repro.runner import RunSpec, watch
from repro.experiment import Config

TRIPLES = {1: (0.4, 0.4, 0.4), 10: (0.6, 0.9, 0.3), 100: (0.9, 0.9, 0.3)}        # sample-based B -> (a1, a2, alpha)
FEATURE_TRIPLES = {10: (0.4, 0.4, 0.4), 100: (0.6, 0.9, 0.3), 1000: (0.9, 0.9, 0.3)}
SGD_SAMPLE_CONFIGS = ((1, 1), (10, 1), (100, 1), (5, 2), (50, 2))               # (B, E) of Fig. 2's legend
SGD_GRID = {"quick": tuple((a, al) for a in (0.3, 1.0, 3.0) for al in (0.3, 0.5)),
            "paper": tuple((a, al) for a in (0.1, 0.3, 1.0, 3.0, 10.0) for al in (0.0, 0.2, 0.4, 0.6))}
GRID_ITERATIONS = {"quick": 100, "paper": 1000}
LAMBDA, U_LIMIT, TAU, PENALTY = 1e-5, 0.13, 0.1, 1e5
FIG4_LAMBDAS = (1e-5, 1e-4, 1e-3, 1e-2)
FIG4_LIMITS = (0.13, 0.2, 0.3, 0.5)
SPARSITY_THRESHOLD = 1e-3
SEEDS = {"quick": 1, "paper": 100}
ITERATIONS = 1000
CHECKPOINTS = {"quick": (1, 25, 100, 250, 500, 1000),
               "paper": (1, 25, 50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000)}
SOLVER_CHECKS = (100, 1000)                      # a subset of every profile's CHECKPOINTS; first seed only
SOLVER_CHECK_BATCHES = {"quick": {"sample": (10,), "feature": (100,)},             # the middle batch size
                        "paper": {"sample": tuple(TRIPLES), "feature": tuple(FEATURE_TRIPLES)}}
GRID_SUBSAMPLE = 10_000
DATASETS = ("mnist", "digits")
MODES = ("sample", "feature")
FEATURE_SPLITS = ("contiguous", "random")


# ----------------------------------------------------------------------------------------- configs
def _increasing(values, high: int) -> bool:
    """A non-empty list of strictly increasing integers in 1..high."""
    return (isinstance(values, (list, tuple)) and len(values) >= 1 and all(is_int(v) and 1 <= v <= high
                                                                            for v in values)
            and all(a < b for a, b in zip(values, values[1:])))


@dataclass(frozen=True, kw_only=True)
class InitialPointConfig(Config):
    """The keys that a seed's initial point omega^(1) and the data evaluated there depend on: the data, their
    precision, the clients (the training samples a split uses), the network and its initialization. Every run of a
    seed starts at that point (:func:`_setup`), so the t = 1 metrics of Figures 2-3's curves are one run,
    :func:`run_initial_metrics`, that they need (not listed by an experiment). A base of every MNIST-family run's
    config."""

    dataset: str = "mnist"
    clients: int = 10
    hidden: int = 128
    init: str = "uniform_fan_in"
    dtype: str = "float32"

    def __post_init__(self) -> None:
        require(self.dataset in DATASETS, "dataset", self.dataset, f"one of {DATASETS}")
        require(is_int(self.clients) and self.clients >= 1, "clients", self.clients, "an integer >= 1 (I)")
        require(is_int(self.hidden) and self.hidden >= 1, "hidden", self.hidden, "an integer >= 1 (J, swish units)")
        require(self.init in SN.INIT_SCHEMES, "init", self.init, f"one of {SN.INIT_SCHEMES}")
        require(self.dtype in MP.DTYPES, "dtype", self.dtype, f"one of {MP.DTYPES}")


@dataclass(frozen=True, kw_only=True)
class _MnistShared(InitialPointConfig):
    """Keys of every MNIST-family run, the learning-rate searches included: the algorithm family (``mode``,
    ``method``, ``formulation``), the batch size B, the data, network, clients and precision, ``profile``."""

    mode: str
    method: str
    formulation: str
    batch: int
    profile: str
    tau: float = TAU
    penalty: float = PENALTY
    feature_split: str = "contiguous"
    a_bar: str = "surrogate_11"

    def __post_init__(self) -> None:
        super().__post_init__()
        require(self.mode in MODES, "mode", self.mode, "'sample' or 'feature'")
        require(self.method in ("ssca", "sgd"), "method", self.method, "'ssca' or 'sgd'")
        require(self.formulation in ("27", "37"), "formulation", self.formulation,
                "'27' (regularised) or '37' (cost-limited)")
        require(is_int(self.batch) and self.batch >= 1, "batch", self.batch,
                "an integer >= 1 (B: per client, sample-based; total, feature-based)")
        require(is_real(self.tau) and self.tau > 0, "tau", self.tau, "a finite number > 0")
        require(is_real(self.penalty) and self.penalty > 0, "penalty", self.penalty, "a finite number > 0 (c)")
        require(self.feature_split in FEATURE_SPLITS, "feature_split", self.feature_split,
                f"one of {FEATURE_SPLITS}")
        require(self.a_bar in SN.A_BAR_CHOICES, "a_bar", self.a_bar, f"one of {SN.A_BAR_CHOICES}")


@dataclass(frozen=True, kw_only=True)
class MnistConfig(_MnistShared):
    """Keys of every run of Figures 2-4 and of the literal (32): the horizon T = ``iterations``, the metric
    ``checkpoints`` and the closed-form-vs-solver ``solver_checks`` (a subset of them). A base holding these
    fields and checks, not a run's shape (:class:`SSCA27Config`, :class:`SSCA37Config`, :class:`SGDConfig`)."""

    iterations: int = ITERATIONS
    checkpoints: list
    solver_checks: list = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        require(is_int(self.iterations) and self.iterations >= 2, "iterations", self.iterations,
                "an integer >= 2 (T; T - 1 updates)")
        require(_increasing(self.checkpoints, self.iterations), "checkpoints", self.checkpoints,
                f"strictly increasing iteration indices within 1..iterations = 1..{self.iterations}")
        require(isinstance(self.solver_checks, (list, tuple)) and set(self.solver_checks) <= set(self.checkpoints),
                "solver_checks", self.solver_checks,
                "a subset of the checkpoints (the check runs inside the checkpoint monitor)")


@dataclass(frozen=True, kw_only=True)
class SSCAConfig(MnistConfig):
    """Keys of every SSCA run (Algorithms 1-4): the Section VI step-size ``triple`` (a1, a2, alpha),
    rho = a1 / t^alpha, gamma = a2 / t^(alpha + 0.05). A base of :class:`SSCA27Config` and :class:`SSCA37Config`."""

    method: str = "ssca"
    triple: list

    def __post_init__(self) -> None:
        super().__post_init__()
        require(self.method == "ssca", "method", self.method,
                "'ssca' (an SSCA run's config; an SGD baseline's has local_steps, sgd_grid, grid_iterations)")
        t = self.triple
        ok = isinstance(t, (list, tuple)) and len(t) == 3 and all(is_real(v) for v in t)
        require(ok and 0 < t[0] <= 1 and 0 < t[1] <= 1 and t[2] >= 0, "triple", t,
                "[a1, a2, alpha] with a1, a2 in (0, 1] and alpha >= 0")


@dataclass(frozen=True, kw_only=True)
class SSCA27Config(SSCAConfig):
    """An SSCA run on (27) (Algorithms 1 / 3): the regularisation weight ``lam``."""

    formulation: str = "27"
    lam: float = LAMBDA

    def __post_init__(self) -> None:
        super().__post_init__()
        require(self.formulation == "27", "formulation", self.formulation, "'27' (this run's config has lam, not U)")
        require(is_real(self.lam) and self.lam >= 0, "lam", self.lam, "a finite number >= 0")


@dataclass(frozen=True, kw_only=True)
class SSCA37Config(SSCAConfig):
    """An SSCA run on (37) (Algorithms 2 / 4): the cost limit ``U``."""

    formulation: str = "37"
    U: float = U_LIMIT

    def __post_init__(self) -> None:
        super().__post_init__()
        require(self.formulation == "37", "formulation", self.formulation, "'37' (this run's config has U, not lam)")
        require(is_real(self.U) and self.U > 0, "U", self.U, "a finite number > 0")


@dataclass(frozen=True, kw_only=True)
class SGDGridConfig(_MnistShared):
    """The learning-rate search of one SGD baseline (``run_sgd_grid``): the SGD run's config without
    ``_NOT_FOR_GRID``: ``lam`` of (27), local steps E, the grid of (a, alpha) and its horizon."""

    method: str = "sgd"
    formulation: str = "27"
    lam: float = LAMBDA
    local_steps: int
    sgd_grid: list
    grid_iterations: int

    def __post_init__(self) -> None:
        super().__post_init__()
        require(self.method == "sgd", "method", self.method,
                "'sgd' (an SGD baseline's config; an SSCA run's has triple and lam or U)")
        require(self.formulation == "27", "formulation", self.formulation,
                "'27': the SGD baselines solve (27) only (the paper compares them on Fig. 2(a),(c))")
        require(is_real(self.lam) and self.lam >= 0, "lam", self.lam, "a finite number >= 0")
        require(is_int(self.local_steps) and self.local_steps >= 1 and (self.mode == "sample" or self.local_steps == 1),
                "local_steps", self.local_steps,
                "an integer >= 1 (E; feature-based SGD: 1)")
        grid = self.sgd_grid
        ok = isinstance(grid, (list, tuple)) and len(grid) >= 1 and all(
            isinstance(g, (list, tuple)) and len(g) == 2 and all(is_real(v) for v in g) and g[0] > 0 and g[1] >= 0
            for g in grid)
        require(ok, "sgd_grid", grid, "a non-empty list of [a, alpha] with a > 0 and alpha >= 0 (rate a / t^alpha)")
        require(is_int(self.grid_iterations) and self.grid_iterations >= 2, "grid_iterations",
                self.grid_iterations, "an integer >= 2")


@dataclass(frozen=True, kw_only=True)
class SGDConfig(MnistConfig, SGDGridConfig):
    """One SGD baseline run (FedAvg-style or feature-based SGD on (27)), with the keys of its search."""

    method: str = "sgd"
    formulation: str = "27"


@functools.lru_cache(maxsize=1)
def _data(dataset: str, dtype: str = "float64") -> dict:
    """The data set in ``dtype``, kept for the next run of the process. One at a time: a worker that ran the float64
    literal-(32) run among the float32 figure runs held MNIST in both precisions with their evaluation copies (peak
    RSS 2.8 GB); loading again when the precision changes costs ~1.5 s, a few times a profile."""
    return MP.load_mnist_pixels(dtype=dtype) if dataset == "mnist" else MP.load_digits_standin(dtype=dtype)


def _problem(config: SSCA27Config | SSCA37Config | SGDGridConfig, net, X, y, blocks):
    if config.formulation == "27":
        return SN.Regularized27(net, X, y, config.lam, blocks)
    return SN.CostLimited37(net, X, y, config.U, blocks, a_bar=config.a_bar)


@functools.lru_cache(maxsize=1)
def _evaluation_sets(dataset: str, dtype: str, clients: int) -> tuple:
    """The training samples a run uses (:func:`_setup`'s) and the test set, as :class:`SN.EvaluationSet`s: built once
    per process and data set, as the data are (:func:`_data`), and shared by every run of that process."""
    data = _data(dataset, dtype)
    return SN.evaluation_set(*_training_samples(data, clients)), SN.evaluation_set(data["x_test"], data["y_test"])


def _training_samples(data: dict, clients: int) -> tuple[np.ndarray, np.ndarray]:
    """(X, y) of the training samples a split over ``clients`` uses: the digits stand-in drops the remainder."""
    n_use = (data["x_train"].shape[0] // clients) * clients
    return data["x_train"][:n_use], data["y_train"][:n_use]


def _metrics_at(net, omega, train_set, test_set) -> dict:
    """The data metrics of a checkpoint at omega: F (25) and the accuracy on the training samples, the test
    accuracy."""
    train = SN.evaluate(net, omega, train_set.X, train_set.y, columns=train_set.columns)
    test = SN.evaluate(net, omega, test_set.X, test_set.y, columns=test_set.columns)
    return {"train_cost": train["cost"], "test_accuracy": test["accuracy"], "train_accuracy": train["accuracy"]}


def _digest(omega) -> np.ndarray:
    """SHA-256 of omega's float64 bytes, as 32 uint8: what tells a seed's initial point apart."""
    return np.frombuffer(hashlib.sha256(np.ascontiguousarray(omega, dtype=np.float64).tobytes()).digest(), np.uint8)


def _start_metrics(omega, arrays) -> dict:
    """The metrics at t = 1 from :func:`run_initial_metrics`'s ``arrays``, which must be those of this iterate (the
    seed's omega^(1), where every run of the seed starts): a run given another point's metrics is a bug, not a case."""
    if not np.array_equal(_digest(omega), arrays["omega1_sha256"]):
        raise RuntimeError("the run was given the metrics of another initial point than its own omega^(1)")
    return {name: float(arrays[name]) for name in ("train_cost", "test_accuracy", "train_accuracy")}


def initial_point_config(config: InitialPointConfig) -> dict:
    """The :class:`InitialPointConfig` of a run's config, as stored: the run its t = 1 metrics come from
    (:func:`_spec`)."""
    return InitialPointConfig(**{k: getattr(config, k) for k in InitialPointConfig.keys()}).as_dict()


def _initial_input(config: MnistConfig, seed: int, result) -> dict:
    """The arrays of the ``initial`` result a run was given, which must be that of its own seed and
    :class:`InitialPointConfig` (its data, precision and clients, besides omega^(1) that :func:`_start_metrics`
    checks): anything else is a bug, not a case."""
    if result.spec.seed != seed or result.spec.config != initial_point_config(config):
        raise RuntimeError(f"the run was given the initial-point metrics of seed {result.spec.seed} and config "
                           f"{result.spec.config}, not of its own seed {seed} and data")
    return result.arrays


def _monitor(config: MnistConfig, net, lam: float, seed: int, start=None):
    """Full-data metrics at checkpoints (at t = 1 from ``start``, when the run was given them:
    :func:`_start_metrics`), and the closed-form-vs-solver check at ``solver_checks`` (first seed only: three cvxpy
    solves on d = 101,632 cost seconds each)."""
    sets = _evaluation_sets(config.dataset, config.dtype, config.clients)
    solver_checks = set(config.solver_checks) if seed == 0 else set()

    def monitor(t: int, state) -> dict:
        omega = state.omega
        data = _start_metrics(omega, start) if t == 1 and start is not None else _metrics_at(net, omega, *sets)
        sq = float(omega @ omega)
        out = {"train_cost": data["train_cost"], "objective_27": data["train_cost"] + lam * sq,
               "test_accuracy": data["test_accuracy"], "train_accuracy": data["train_accuracy"], "omega_sq": sq,
               "sparsity": float(np.mean(np.abs(omega) < SPARSITY_THRESHOLD))}
        out |= {"closed_form_error": float("nan"), "solver_status": float("nan")}
        if t in solver_checks and t > 1:
            out |= _closed_form_vs_solver(config, state)
        return out

    return monitor


def _closed_form_vs_solver(config: SSCA27Config | SSCA37Config | SGDConfig, state) -> dict:
    """Relative distance between the printed closed form and cvxpy on this iteration's server problem."""
    from bounds.ssca import claims as B

    from repro.papers.ssca.problems.server import solve_problem_28, solve_problem_38

    tau = config.tau
    if config.formulation == "27":
        coef = state.f_hat_lin[0]                                   # Theta + 2 lambda beta, (28)-(29)
        closed = B.omega_bar_unconstrained(coef, tau)
        ref = solve_problem_28(coef, tau, tight=False)
        return {"closed_form_error": float(np.linalg.norm(closed - ref["omega"]) / max(1.0, np.linalg.norm(ref["omega"]))),
                "solver_status": 1.0 if ref["status"] == "optimal" else 0.0}
    theta, A = state.f_hat_lin[1], float(state.f_hat_const[0])
    sol = B.lemma1_solution(theta, A, config.U, tau, config.penalty)
    ref = solve_problem_38(theta, A, config.U, tau, config.penalty, tight=False)
    scale = max(1.0, float(np.linalg.norm(ref["omega"])))
    return {"closed_form_error": float(max(np.linalg.norm(sol.omega - ref["omega"]) / scale,
                                           abs(sol.zeta - ref["zeta"]) / max(1.0, abs(ref["zeta"])))),
            "solver_status": 1.0 if ref["status"] == "optimal" else 0.0}


def _initial_point(config: InitialPointConfig, seed: int):
    """Data (the training samples a split over ``clients`` uses), network, initial point omega^(1) and the split and
    run Generators of seed ``seed``: what :class:`InitialPointConfig`'s keys determine."""
    data = _data(config.dataset, config.dtype)
    X, y = _training_samples(data, config.clients)
    ss = np.random.SeedSequence([seed, 2104_06011])
    init_rng, split_rng, run_rng = (np.random.default_rng(s) for s in ss.spawn(3))
    net = SN.SwishNetwork(X.shape[1], config.hidden, int(y.max()) + 1)
    omega1 = net.init(init_rng, scheme=config.init)
    return data | {"x_train": X, "y_train": y}, net, omega1, split_rng, run_rng


def _setup(config: _MnistShared, seed: int):
    """Data, network, feature blocks, client split, initial point and run Generator of a config."""
    data, net, omega1, split_rng, run_rng = _initial_point(config, seed)
    K, I = net.K, config.clients
    blocks = (SN.contiguous_blocks(K, I) if config.feature_split == "contiguous"
              else SN.random_blocks(K, I, split_rng))
    client_indices = MP.iid_client_split(data["x_train"].shape[0], I, split_rng)
    return data, net, blocks, client_indices, omega1, run_rng


def run_initial_metrics(config: InitialPointConfig, seed: int):
    """The t = 1 checkpoint metrics (F (25) and the accuracy on the training samples, the test accuracy) at seed
    ``seed``'s initial point omega^(1): one evaluation on 70,000 samples that every curve of the seed starts from
    and needs (:func:`_spec`), instead of one each."""
    _, net, omega1, _, _ = _initial_point(config, seed)
    metrics = _metrics_at(net, omega1, *_evaluation_sets(config.dataset, config.dtype, config.clients))
    return {name: np.array(value) for name, value in metrics.items()} | {"omega1_sha256": _digest(omega1)}, \
        {"d": net.dim}


def _sgd_grid(config: SGDGridConfig, net, problem, data, client_indices, omega1,
              rng) -> tuple[float, float, np.ndarray]:
    """Grid search of the SGD learning rate a / t^alpha (Section VI only says "a grid
    search method"): the training objective of (27)
    on a fixed subsample after ``grid_iterations`` iterations; a diverged grid point scores +inf."""
    X, y = data["x_train"], data["y_train"]
    sub = np.random.default_rng(0).choice(X.shape[0], size=min(GRID_SUBSAMPLE, X.shape[0]), replace=False)
    X_sub, y_sub = X[sub], y[sub]                       # gathered once, scored at every grid point
    scores = []
    for (a, al), child in zip(config.sgd_grid, rng.spawn(len(config.sgd_grid))):
        params = sgd.SGDParams(lr_a=a, lr_alpha=al, iterations=config.grid_iterations, batch=config.batch,
                               omega1=omega1, local_steps=config.local_steps, client_indices=client_indices)
        try:
            trace = _run_sgd(config, problem, params, child)
            w = trace.omega_final
            ev = SN.evaluate(net, w, X_sub, y_sub)
            scores.append(ev["cost"] + config.lam * float(w @ w))
        except alg.DivergenceError:
            scores.append(np.inf)
    scores = np.asarray(scores)
    best = int(np.argmin(scores))
    return config.sgd_grid[best][0], config.sgd_grid[best][1], scores


def _run_sgd(config: SGDGridConfig, problem, params, rng):
    run = sgd.run_fedavg_sgd if config.mode == "sample" else sgd.run_feature_sgd
    return run(problem, params, rng)


#: keys of an SGD run that do not affect its learning-rate search
_NOT_FOR_GRID = ("iterations", "checkpoints", "solver_checks")


def run_sgd_grid(config: SGDGridConfig, seed: int):
    """The learning-rate search of one SGD configuration (module docstring), on seed ``seed``'s initialization,
    split and grid streams: the score of every grid point and the winner ``lr`` = (a, alpha)."""
    data, net, blocks, client_indices, omega1, rng = _setup(config, seed)
    problem = _problem(config, net, data["x_train"], data["y_train"], blocks)
    grid_rng, _ = rng.spawn(2)
    a, al, scores = _sgd_grid(config, net, problem, data, client_indices, omega1, grid_rng)
    return {"grid_scores": scores, "grid": np.asarray(config.sgd_grid, float), "lr": np.array([a, al])}, {}


@watch("train_cost", step_sizes=("triple",))
def run_mnist_ssca(config: SSCA27Config | SSCA37Config | SGDConfig, seed: int, inputs: dict | None = None):
    """One curve of Figures 2-4: an SSCA algorithm (1-4) or an SGD baseline on (27) / (37); an SGD run reads its
    learning rate from ``inputs["grid"]`` (:func:`run_sgd_grid`). The runner builds the config into the shape its
    keys name; the branches below read its values (``method``, ``formulation``)."""
    sgd_run = config.method == "sgd"
    data, net, blocks, client_indices, omega1, rng = _setup(config, seed)
    lam = 0.0 if config.formulation == "37" else config.lam
    problem = _problem(config, net, data["x_train"], data["y_train"], blocks)
    start = _initial_input(config, seed, inputs["initial"]) if inputs and "initial" in inputs else None
    monitor = _monitor(config, net, lam, seed, start)
    checkpoints = tuple(config.checkpoints)
    meta = {"dataset": config.dataset, "d": net.dim, "n_train": int(data["x_train"].shape[0]),
            "blocks": [int(k) for k in blocks.sizes]}
    arrays: dict[str, np.ndarray] = {}
    _, run_rng = rng.spawn(2)
    start = time.perf_counter()
    if sgd_run:
        grid = inputs["grid"].arrays
        a, al = (float(v) for v in grid["lr"])
        arrays |= {"grid_scores": grid["grid_scores"], "grid": grid["grid"], "lr": grid["lr"]}
        params = sgd.SGDParams(lr_a=a, lr_alpha=al, iterations=config.iterations, batch=config.batch,
                               omega1=omega1, local_steps=config.local_steps, checkpoints=checkpoints,
                               client_indices=client_indices, monitor=monitor)
        trace = _run_sgd(config, problem, params, run_rng)
        arrays["lr_schedule"] = a / np.arange(1, config.iterations) ** al
    else:
        a1, a2, alpha = config.triple
        params = alg.SSCAParams(tau=config.tau, steps=alg.PowerLawSteps.section_vi(a1, a2, alpha),
                                iterations=config.iterations, batch=config.batch, omega1=omega1,
                                penalty=config.penalty, checkpoints=checkpoints, client_indices=client_indices,
                                monitor=monitor)
        run = alg.run_sample_based if config.mode == "sample" else alg.run_feature_based
        trace = run(problem, params, run_rng)
        arrays |= {"rho": trace.rho, "gamma": trace.gamma, "step_norm": trace.step_norm}
        if config.formulation == "37":
            arrays |= {"nu": trace.nu[:, 0], "zeta": trace.zeta[:, 0], "regime": trace.regime[:, 0],
                       "A": trace.const[:, 0], "b": trace.lin_norm_sq[:, 0]}
    seconds = time.perf_counter() - start
    arrays |= {"checkpoints": np.asarray(trace.checkpoints, int)}
    arrays |= {name: np.asarray(values, float) for name, values in trace.monitor.items()}
    meta |= {"seconds": seconds, "floats_sent_per_client": float(np.mean(trace.floats_sent_per_client))}
    return arrays, meta


# ----------------------------------------------------------------------------------------- specs
def _ssca(mode: str, formulation: str, batch: int, profile: str, **extra) -> SSCA27Config | SSCA37Config:
    """The config of an SSCA curve (:class:`SSCA27Config` / :class:`SSCA37Config`), ``extra`` overriding fields."""
    triple = (TRIPLES if mode == "sample" else FEATURE_TRIPLES)[batch]
    shape = SSCA27Config if formulation == "27" else SSCA37Config
    fields = {"mode": mode, "batch": batch, "triple": list(triple), "checkpoints": list(CHECKPOINTS[profile]),
              "solver_checks": [], "profile": profile}
    return shape(**(fields | extra))


def _sgd(mode: str, batch: int, local_steps: int, profile: str) -> SGDConfig:
    """The config of an SGD baseline (:class:`SGDConfig`)."""
    return SGDConfig(mode=mode, batch=batch, local_steps=local_steps, checkpoints=list(CHECKPOINTS[profile]),
                     solver_checks=[], sgd_grid=[list(g) for g in SGD_GRID[profile]],
                     grid_iterations=GRID_ITERATIONS[profile], profile=profile)


#: the shapes of this module's runs: a curve's, a learning-rate search's and an initial point's metrics'
SHAPES = (SSCA27Config, SSCA37Config, SGDConfig, SGDGridConfig, InitialPointConfig)


def _stored_config(stored: dict) -> InitialPointConfig:
    """The config dataclass of a stored config of this module's runs: the shape (:data:`SHAPES`) with exactly its
    keys (else a one-line ``ConfigError`` naming a key no initial point has)."""
    shape = next((c for c in SHAPES if set(c.keys()) == set(stored)), InitialPointConfig)
    return shape.from_dict(stored)


def work(config: dict) -> float:
    """Samples touched by a run (the work model of the cost estimates, :mod:`repro.costs`): batch samples per
    iteration times iterations, plus the full-data evaluations at the checkpoints (70,000 samples each, forward
    pass only: counted as a third of a training sample) after t = 1, whose metrics are a run of their own
    (:func:`run_initial_metrics`: one evaluation); for a learning-rate search, every grid point's run and its scoring
    on the 10k subsample."""
    run = _stored_config(config)
    if not isinstance(run, _MnistShared):                                 # an initial point's metrics
        return 70_000 / 3
    per_iteration = run.batch * (run.clients if run.mode == "sample" else 1)
    if run.method == "sgd":
        per_iteration *= run.local_steps
    if not isinstance(run, MnistConfig):                                  # a grid search (run_sgd_grid)
        return len(run.sgd_grid) * (per_iteration * run.grid_iterations + GRID_SUBSAMPLE / 3)
    evaluations = len([t for t in run.checkpoints if t > 1]) * (70_000 / 3)   # t = 1: the run it needs
    return per_iteration * run.iterations + evaluations


def _spec(name: str, config: MnistConfig, seed: int) -> RunSpec:
    """A curve's run and the runs it needs: an SGD baseline's learning-rate search (one per configuration, seed 0's
    streams) and, when t = 1 is a checkpoint, the metrics at the seed's initial point (one run per seed and
    :class:`InitialPointConfig`, listed under Figure 2 by every figure so that the runner computes it once)."""
    needs = {}
    if 1 in config.checkpoints:
        needs["initial"] = RunSpec("ssca.figure2", initial_point_config(config), seed, run_initial_metrics)
    if config.method == "sgd":
        search = SGDGridConfig.from_dict({k: v for k, v in config.as_dict().items() if k not in _NOT_FOR_GRID})
        needs["grid"] = RunSpec(name, search, 0, run_sgd_grid)
    return RunSpec(name, config, seed, run_mnist_ssca, needs=needs)


def _specs(name: str, configs: list[MnistConfig], seeds: int) -> list[RunSpec]:
    return [_spec(name, c, s) for c in configs for s in range(seeds)]


def _solver_checks(mode: str, batch: int, profile: str) -> list[int]:
    return list(SOLVER_CHECKS) if batch in SOLVER_CHECK_BATCHES[profile][mode] else []


def _figure2_configs(profile: str) -> list[MnistConfig]:
    return ([_ssca("sample", f, b, profile, solver_checks=_solver_checks("sample", b, profile)) for f in ("27", "37")
             for b in TRIPLES] + [_sgd("sample", b, e, profile) for b, e in SGD_SAMPLE_CONFIGS])


def _figure3_configs(profile: str) -> list[MnistConfig]:
    return ([_ssca("feature", f, b, profile, solver_checks=_solver_checks("feature", b, profile))
             for f in ("27", "37") for b in FEATURE_TRIPLES] + [_sgd("feature", b, 1, profile) for b in FEATURE_TRIPLES])


def figure2_specs(profile: str) -> list[RunSpec]:
    return _specs("ssca.figure2", _figure2_configs(profile), SEEDS[profile])


def figure3_specs(profile: str) -> list[RunSpec]:
    return _specs("ssca.figure3", _figure3_configs(profile), SEEDS[profile])


def figure4_specs(profile: str) -> list[RunSpec]:
    """The sweep of lambda (27) and U (37) at one batch size per setting (sample B = 10, feature B = 100).
    Figure 4 plots values at T only, so its own runs evaluate the metrics at t = T only. Its points at Figure 2's
    lambda = 1e-5 and U = 0.13 are Figure 2's (sample) and Figure 3's (feature) runs of that batch size, listed
    here as they are there: the same run (same seed, step sizes and iterates; the metrics at T are their last
    checkpoint), which the runner computes once."""
    points = [("27", "lam", lam) for lam in FIG4_LAMBDAS] + [("37", "U", u) for u in FIG4_LIMITS]
    specs = []
    for mode, batch, owner, owned in (("sample", 10, "ssca.figure2", _figure2_configs(profile)),
                                      ("feature", 100, "ssca.figure3", _figure3_configs(profile))):
        for formulation, key, value in points:
            theirs = [c for c in owned if c.method == "ssca" and c.formulation == formulation
                      and c.batch == batch and getattr(c, key) == value]
            specs += (_specs(owner, theirs, SEEDS[profile]) if theirs else _specs(
                "ssca.figure4", [_ssca(mode, formulation, batch, profile, **{key: value}, checkpoints=[ITERATIONS])],
                SEEDS[profile]))
    return specs


def printed_sign_specs(profile: str) -> list[RunSpec]:
    """Algorithm 2 with (32) exactly as printed next to the surrogate-(11) sign (audit)."""
    configs = [_ssca("sample", "37", 10, profile, a_bar=a_bar, iterations=300, dtype="float64",
                     checkpoints=[1, 10, 50, 100, 200, 300]) for a_bar in ("printed", "surrogate_11")]
    return _specs("ssca.printed_32", configs, 1)
