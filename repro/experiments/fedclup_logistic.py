"""FedCLUP on the authors' synthetic multinomial-logistic data (spec 9.2): Figures 2, 3, 4 and 6.

Every run: data from :func:`repro.problems.fedclup_synthetic.generate` (``data_seed``), features scaled
per client (StandardScaler(with_mean=False), as the authors' loader), the model W in R^{d x C} without
bias, every client and the server starting from the same N(0, 1) model (``initial_model``). Per round
it records the authors' error metrics (spec 9.2): the global error ||W_g - W_bar^T||_F (no un-scaling)
and the per-client local error ||W_i / s_i - W_i_true^T||_F (un-scaled), whose client mean is the
code's ITR; the mean of the squared local errors (the theory's metric) is recorded too (spec 10 item 8).

Choices (spec 10; recorded in every config):

* ``L``: "data" (default) = the paper's formula max_i lambda_max(X_i^T X_i)/(4 n) computed on the
  scaled data of the run (spec 10 item 6), "code" = the authors' hard-coded 9.13. Both values and the
  Boehning constant (1/2) lambda_max, a valid smoothness constant of the C-column softmax loss, are
  logged; the audit compares eta with the Lemma 5 condition under the valid constant.
* FedCLUP: eta = 1/(L + lambda) (spec 10 item 7); ``server`` "average_all" (default, what the code
  executes: the mean of all m stored client models, i.e. (12) with gamma = 1/lambda) or "eq12"
  (the code's unexecuted aggregation() over the sampled set with gamma = 1/lambda + 1/L = 1/L_F).
* GlobalTrain = FedAvg with lr 0.01; LocalTrain = GD with lr 0.001 (the code's rates, spec 9.3).
* Partial participation (Figure 6): 10 % of the clients per round; the server rule as above.
* Adaptive lambda (Figure 3 right; spec 4.3 "[authors' code]"): at round floor(T/2) estimate
  R^ = (1/m) sum_i ||W_i - W_g||_F and set lambda = c / (n R^2) if R^ >= 1/sqrt(n), else c / (sqrt(n) R^),
  once; c = 5 (code) or 2 (paper text).
"""
from __future__ import annotations

import functools

import numpy as np

from ..algorithms import fedclup as alg
from ..errors import require
from ..problems import fedclup_synthetic as SYN
from ..runner import RunSpec
from .base import check_profile

_FN = "repro.experiments.fedclup_logistic."
METHODS = ("fedclup", "globaltrain", "localtrain")
L_CODE = 9.13


@functools.lru_cache(maxsize=8)
def _problem(m: int, n: int, d: int, C: int, R: float, data_seed: int):
    data = SYN.generate(m, n, d, C, R, data_seed)
    X, scales = SYN.scale_features(data["X"])
    data = data | {"X_scaled": X, "scales": scales}
    return data, SYN.clients(data, scaled=True), SYN.smoothness_constants(X)


def validate(config: dict) -> None:
    require(config.get("method") in METHODS, "method", config.get("method"), f"one of {METHODS}")
    require(config.get("L") in ("data", "code"), "L", config.get("L"), "'data' or 'code'")
    for key in ("m", "n", "d", "C", "rounds", "local_steps"):
        require(isinstance(config.get(key), int) and config[key] >= 1, key, config.get(key), "an integer >= 1")


def _metrics(trace, data) -> dict:
    local = SYN.local_errors(trace.local_models, data["scales"], data["W_true"])          # (T+1, m)
    return {"global_err": SYN.global_error(trace.global_models, data["W_bar"]),
            "local_err": local.mean(axis=1), "local_err_sq": (local ** 2).mean(axis=1)}


def _adaptive_lambda(trace, n: int, constant: float) -> float:
    W_loc, W_g = trace.local_models[-1], trace.global_models[-1]
    r_hat = float(np.mean(np.sqrt(np.sum((W_loc - W_g) ** 2, axis=(1, 2)))))
    return constant / (n * r_hat ** 2) if r_hat >= 1 / np.sqrt(n) else constant / (np.sqrt(n) * r_hat)


def run_logistic(config: dict, seed: int):
    validate(config)
    data, clients, consts = _problem(config["m"], config["n"], config["d"], config["C"], config["R"],
                                     config["data_seed"])
    L = consts["L_paper"] if config["L"] == "data" else L_CODE
    rng = np.random.default_rng(np.random.SeedSequence([seed, config["data_seed"]]))
    w0 = SYN.initial_model(config["d"], config["C"], seed=1)
    T, K, method = config["rounds"], config["local_steps"], config["method"]
    extra = {}
    if method == "fedclup":
        def params(lam, rounds):
            return alg.FedCLUPParams(lam=lam, gamma=1 / lam + 1 / L, eta=1 / (L + lam), local_steps=K, rounds=rounds,
                                     sample_rate=config["sample_rate"], server=config["server"])
        if config.get("adapt_constant"):
            first = alg.run_fedclup(clients, params(config["lam"], T // 2), rng, w0)
            lam2 = _adaptive_lambda(first, config["n"], config["adapt_constant"])
            second = alg.run_fedclup(clients, params(lam2, T - T // 2), rng, first.global_models[-1],
                                     first.local_models[-1])
            m1, m2 = _metrics(first, data), _metrics(second, data)
            metrics = {k: np.concatenate([m1[k], m2[k][1:]]) for k in m1}
            extra["lambda_switched"] = np.array(lam2)
        else:
            metrics = _metrics(alg.run_fedclup(clients, params(config["lam"], T), rng, w0), data)
    elif method == "globaltrain":
        trace = alg.run_global_train(clients, alg.GlobalTrainParams(
            eta=config["lr"], local_steps=K, rounds=T, sample_rate=config["sample_rate"], server="average_all"), rng, w0)
        metrics = _metrics(trace, data)
    else:
        trace = alg.run_local_train(clients, alg.LocalTrainParams(eta=config["lr"], local_steps=K, rounds=T), rng, w0)
        metrics = _metrics(trace, data)
    arrays = {k: np.asarray(v, dtype=float) for k, v in metrics.items()} | extra
    return arrays, {"constants": {k: float(v) for k, v in consts.items()} | {"L_used": float(L)}}


BASE = {"m": 10, "n": 200, "d": 10, "C": 2, "L": "data", "sample_rate": 1.0, "server": "average_all",
        "lam": None, "lr": None, "adapt_constant": None}
FIG4_LAMBDAS = (0.02, 0.1, 0.5)
FIG4_R = tuple(float(x) for x in np.linspace(0.1, 3, 10))
DATA_SEEDS = {"quick": (1, 2, 3), "paper": tuple(range(1, 11))}


def _spec(experiment: str, cfg: dict, profile: str) -> RunSpec:
    cfg = BASE | cfg | {"profile": profile}
    return RunSpec(experiment, cfg, 0, _FN + "run_logistic")


def _methods_fig4():
    return ([{"method": "fedclup", "lam": lam, "rounds": 50} for lam in FIG4_LAMBDAS]
            + [{"method": "globaltrain", "lr": 0.01, "rounds": 50}, {"method": "localtrain", "lr": 0.001, "rounds": 500}])


def figure4_specs(profile: str) -> list[RunSpec]:
    """Figure 4 (simulation_main_stat): final-round errors against R."""
    check_profile(profile)
    return [_spec("fedclup.figure4", meth | {"R": R, "local_steps": 150, "data_seed": s}, profile)
            for R in FIG4_R for meth in _methods_fig4() for s in DATA_SEEDS[profile]]


FIG2_K = (25, 50, 75, 100, 125, 150)
FIG2_LAMBDAS = (0.5, 0.02)     # left: the code's lambda = 0.5; right (high personalization): not recovered, 0.02


def figure2_specs(profile: str) -> list[RunSpec]:
    """Figure 2 (simulation_main_local_epochs): total error vs rounds for K local steps, two lambdas."""
    check_profile(profile)
    return [_spec("fedclup.figure2", {"method": "fedclup", "lam": lam, "local_steps": K, "rounds": 20, "R": 1.0,
                                      "data_seed": s}, profile)
            for lam in FIG2_LAMBDAS for K in FIG2_K for s in DATA_SEEDS[profile]]


FIG3_LAMBDAS = (0.02, 0.1, 0.5, 2.0)


def figure3_specs(profile: str) -> list[RunSpec]:
    """Figure 3: left, total error vs rounds for LocalTrain, GlobalTrain and FedCLUP at several lambdas;
    right, lambda = 0.02 switched once at T/2 by the adaptive rule (constant 5 of the code, 2 of the text)."""
    check_profile(profile)
    base = {"local_steps": 150, "rounds": 100, "R": 1.0}
    left = ([{"method": "fedclup", "lam": lam} for lam in FIG3_LAMBDAS]
            + [{"method": "globaltrain", "lr": 0.01}, {"method": "localtrain", "lr": 0.001}])
    right = [{"method": "fedclup", "lam": 0.02, "adapt_constant": c} for c in (5.0, 2.0)]
    return [_spec("fedclup.figure3", base | v | {"data_seed": s}, profile)
            for v in left + right for s in DATA_SEEDS[profile]]


FIG6_LAMBDAS = (0.02, 0.25, 0.5)


def figure6_specs(profile: str) -> list[RunSpec]:
    """Figure 6 (simulation_main_total): 100 and 1000 clients, 10 % sampled per round, R = 2."""
    check_profile(profile)
    seeds = DATA_SEEDS[profile][:1] if profile == "quick" else DATA_SEEDS[profile][:3]
    return [_spec("fedclup.figure6", {"method": "fedclup", "lam": lam, "m": m, "sample_rate": 0.1, "server": server,
                                      "local_steps": 150, "rounds": 100, "R": 2.0, "data_seed": s}, profile)
            for m in (100, 1000) for lam in FIG6_LAMBDAS for server in ("average_all", "eq12") for s in seeds]
