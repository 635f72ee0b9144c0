"""FedCLUP on the authors' synthetic multinomial-logistic data (Section 6.1; the generator and settings of
the authors' code): Figures 2, 3, 4 and 6.

Every run: data from :func:`repro.papers.fedclup.problems.synthetic.generate` (``data_seed``), features scaled
per client (StandardScaler(with_mean=False), as the authors' loader), the model W in R^{d x C} without
bias, every client and the server starting from the same N(0, 1) model (``initial_model``). Per round
it records the authors' error metrics: the global error ||W_g - W_bar^T||_F (no un-scaling)
and the per-client local error ||W_i / s_i - W_i_true^T||_F (un-scaled), whose client mean is the
code's ITR; the mean of the squared local errors (the theory's metric) is recorded too (which metric to
report is a choice the paper leaves open; this project's default records both).

Choices the paper leaves open (this project's defaults, recorded in every config):

* ``L``: "data" (default) = the paper's formula max_i lambda_max(X_i^T X_i)/(4 n) computed on the
  scaled data of the run, "code" = the authors' hard-coded 9.13. Both values and the
  Boehning constant (1/2) lambda_max, a valid smoothness constant of the C-column softmax loss, are
  logged; the audit compares eta with the Lemma 5 condition under the valid constant.
* FedCLUP: eta = 1/(L + lambda) (the code's; the grid-search range of Appendix D.1 is not recovered);
  ``server`` "average_all" (default, what the code executes: the mean of all m stored client models,
  i.e. (12) with gamma = 1/lambda) or "eq12"
  (the code's unexecuted aggregation() over the sampled set with gamma = 1/lambda + 1/L = 1/L_F).
* GlobalTrain = FedAvg with lr 0.01; LocalTrain = GD with lr 0.001 (the rates of the authors' code).
* Partial participation (Figure 6): 10 % of the clients per round; the server rule as above.
* Adaptive lambda (Figure 3 right; the rule of the authors' code, Appendix D.1 describing an adaptive choice
  that follows Corollary 1): at round floor(T/2) estimate R^ = (1/m) sum_i ||W_i - W_g||_F and set lambda = c / (n R^2) if R^ >= 1/sqrt(n), else c / (sqrt(n) R^),
  once; c = 5 (code) or 2 (paper text).

Batches (:mod:`repro.batches`): the runs of a figure that share a method, the rounds, the local steps and the
number of clients differ only in their data (R, data seed) and lambda, and each takes milliseconds per local
step, so they are computed together, one batch per figure, method and data seed
(:func:`repro.papers.fedclup.algorithms.fedclup.run_batch`). Every member is the run it would be alone (its own data, step sizes
and Generator); figures and the audit read members (:func:`repro.batches.members`). The generator's features and labels
do not depend on R (it scales W_k, and the labels are an argmax), so the members of a sweep over R that share a
method, lambda or rate and data seed train the same models: a batch computes each distinct run once (:func:`_distinct`,
which compares the data themselves) and measures it against every member's own truth; Figure 4's 150 runs of the quick
profile are 15 trainings.

Config: :class:`LogisticConfig`, one run (one member of a batch) of any of the four figures; its defaults are the
settings the figures share.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from repro.papers.fedclup.algorithms import fedclup as alg
from repro.batches import batch_spec, stack
from repro.errors import require
from repro.papers.fedclup.problems import synthetic as SYN
from repro.papers.fedclup.problems.stacked_clients import StackedClients
from repro import admissible as adm
from repro.runner import RunSpec, watch
from repro.experiment import Config

METHODS = ("fedclup", "globaltrain", "localtrain")
L_CODE = 9.13


@functools.lru_cache(maxsize=64)
def _problem(m: int, n: int, d: int, C: int, R: float, data_seed: int, heterogeneity: str = "entry_std"):
    data = SYN.generate(m, n, d, C, R, data_seed, heterogeneity=heterogeneity)
    X, scales = SYN.scale_features(data["X"])
    data = data | {"X_scaled": X, "scales": scales}
    return data, SYN.clients(data, scaled=True), SYN.smoothness_constants(X)


@dataclass(frozen=True, kw_only=True)
class LogisticConfig(Config):
    """One run of Figures 2, 3, 4 and 6 (module docstring): ``method``, its step (FedCLUP: ``lam``, with the
    ``adapt_constant`` of the adaptive rule or None; GlobalTrain and LocalTrain: ``lr``), ``rounds`` of
    ``local_steps`` steps, the data (m clients of n samples, d features, C classes, heterogeneity R, ``data_seed``),
    the smoothness constant ``L`` ("data" or "code"), ``sample_rate``, FedCLUP's ``server`` rule, the reading of R
    (``heterogeneity``: the code's "entry_std" or "radius" of (5), :mod:`~repro.papers.fedclup.problems.synthetic`) and
    the profile."""

    method: str
    rounds: int
    local_steps: int
    R: float
    data_seed: int
    profile: str
    m: int = 10
    n: int = 200
    d: int = 10
    C: int = 2
    L: str = "data"
    sample_rate: float = 1.0
    server: str = "average_all"
    heterogeneity: str = "entry_std"
    lam: float | None = None
    lr: float | None = None
    adapt_constant: float | None = None

    def __post_init__(self) -> None:
        adm.one_of("method", self.method, METHODS)
        for key in ("m", "n", "d", "C", "rounds", "local_steps"):
            adm.integer(key, getattr(self, key))
        adm.real("R", self.R, strict=False)
        adm.integer("data_seed", self.data_seed, 0)
        adm.one_of("L", self.L, ("data", "code"))
        adm.real("sample_rate", self.sample_rate, high=1.0)
        adm.one_of("server", self.server, alg.FEDCLUP_SERVERS)
        adm.one_of("heterogeneity", self.heterogeneity, SYN.HETEROGENEITY)
        adm.optional_real("lam", self.lam, self.method == "fedclup", "FedCLUP's lambda")
        adm.optional_real("lr", self.lr, self.method != "fedclup", f"{self.method}'s step size")
        adm.optional_real("adapt_constant", self.adapt_constant, False, "")


def _metrics(segments: list, data) -> dict:
    """The per-round error metrics of a run made of consecutive traces (one; or the adaptive rule's two halves, whose
    second round 0 is the first's last round, kept once), against the member's own truth."""
    parts = []
    for trace in segments:
        local = SYN.local_errors(trace.local_models, data["scales"], data["W_true"])      # (T+1, m)
        parts.append({"global_err": SYN.global_error(trace.global_models, data["W_bar"]),
                      "local_err": local.mean(axis=1), "local_err_sq": (local ** 2).mean(axis=1)})
    return {k: np.concatenate([parts[0][k]] + [p[k][1:] for p in parts[1:]]) for k in parts[0]}


def _adaptive_lambda(trace, n: int, constant: float) -> float:
    W_loc, W_g = trace.local_models[-1], trace.global_models[-1]
    r_hat = float(np.mean(np.sqrt(np.sum((W_loc - W_g) ** 2, axis=(1, 2)))))
    return constant / (n * r_hat ** 2) if r_hat >= 1 / np.sqrt(n) else constant / (np.sqrt(n) * r_hat)


#: keys that every member of a batch shares (they fix the shape of the computation)
SHARED = ("method", "m", "n", "d", "C", "rounds", "local_steps", "sample_rate", "server", "adapt_constant", "L")


def _members(configs: tuple[LogisticConfig, ...], seed: int) -> list[dict]:
    """Each member's config, data, clients, smoothness, L used and Generator (seeded exactly as a single run)."""
    for key in SHARED:
        values = {repr(getattr(c, key)) for c in configs}
        require(len(values) == 1, key, sorted(values), "one value for every member of a batch")
    out = []
    for c in configs:
        data, clients, consts = _problem(c.m, c.n, c.d, c.C, c.R, c.data_seed, c.heterogeneity)
        out.append({"config": c, "data": data, "clients": clients, "consts": consts,
                    "L": consts["L_paper"] if c.L == "data" else L_CODE,
                    "rng": np.random.default_rng(np.random.SeedSequence([seed, c.data_seed]))})
    return out


def _fedclup_params(member: dict, lam: float, rounds: int, w_g0, w_local0=None) -> alg.FedCLUPParams:
    c, L = member["config"], member["L"]
    return alg.FedCLUPParams(lam=lam, gamma=1 / lam + 1 / L, eta=1 / (L + lam), local_steps=c.local_steps,
                             rounds=rounds, sample_rate=c.sample_rate, server=c.server, w_g0=w_g0, w_local0=w_local0)


def _run_fedclup(members: list[dict], clients, w0) -> tuple[list[list], list[dict]]:
    """FedCLUP for every member: its traces (one; two with ``adapt_constant``, lambda switched once at floor(T/2),
    module docstring) and its extra arrays."""
    c0 = members[0]["config"]
    T, rngs = c0.rounds, [m["rng"] for m in members]
    if not c0.adapt_constant:
        traces = alg.run_batch(clients, [_fedclup_params(m, m["config"].lam, T, w0) for m in members], rngs)
        return [[tr] for tr in traces], [{} for _ in members]
    first = alg.run_batch(clients, [_fedclup_params(m, m["config"].lam, T // 2, w0) for m in members], rngs)
    lam2 = [_adaptive_lambda(tr, m["config"].n, m["config"].adapt_constant) for tr, m in zip(first, members)]
    second = alg.run_batch(clients, [_fedclup_params(m, lam, T - T // 2, tr.global_models[-1], tr.local_models[-1])
                                     for m, lam, tr in zip(members, lam2, first)], rngs)
    return [[a, b] for a, b in zip(first, second)], [{"lambda_switched": np.array(lam)} for lam in lam2]


def _distinct(members: list[dict]) -> tuple[list[dict], list[int]]:
    """The members that compute distinct runs, and for every member the position of its own among them. Two members
    of a batch run the same computation when their clients' data (scaled features and labels), the L they use, their
    lambda or rate and their Generator's data seed coincide (the batch shares every other key, SHARED): the
    generator's data do not depend on R (W_k = R Z_k and the labels argmax_c (W_k x)_c do not change with R > 0, under
    either reading), so a sweep over R trains each method once per data seed and only the truth the errors are
    measured against differs. Compared by content, so a member whose data differ is never merged."""
    keys: dict[tuple, int] = {}
    distinct, position = [], []
    for m in members:
        c, clients = m["config"], m["clients"]
        key = (clients.X.tobytes(), clients.y.tobytes(), m["L"], c.lam, c.lr, c.data_seed)
        if key not in keys:
            keys[key] = len(distinct)
            distinct.append(m)
        position.append(keys[key])
    return distinct, position


def _traces(members: list[dict], c0: LogisticConfig) -> tuple[list[list], list[dict]]:
    """Every member's traces and extra arrays (:func:`_run_fedclup`), the members run together as one batch."""
    clients = StackedClients.concatenate([m["clients"] for m in members])
    w0 = SYN.initial_model(c0.d, c0.C, seed=1)
    rngs, T, K = [m["rng"] for m in members], c0.rounds, c0.local_steps
    if c0.method == "fedclup":
        return _run_fedclup(members, clients, w0)
    if c0.method == "globaltrain":
        params = [alg.GlobalTrainParams(eta=m["config"].lr, local_steps=K, rounds=T, sample_rate=c0.sample_rate,
                                        server="average_all", w_g0=w0) for m in members]
    else:
        params = [alg.LocalTrainParams(eta=m["config"].lr, local_steps=K, rounds=T, w_g0=w0) for m in members]
    return [[tr] for tr in alg.run_batch(clients, params, rngs)], [{} for _ in members]


@watch("global_err", "local_err", step_sizes=("lam", "lr"))
def run_logistic(config: tuple[LogisticConfig, ...], seed: int):
    """A batch of runs of one method (module docstring): the per-round error metrics. Members that run the same
    computation (:func:`_distinct`) share it; each measures its errors against its own truth."""
    members = _members(config, seed)
    distinct, position = _distinct(members)
    segments, extra = _traces(distinct, config[0])
    outputs = [({k: np.asarray(v, dtype=float) for k, v in _metrics(segments[p], m["data"]).items()} | extra[p],
                {"constants": {k: float(v) for k, v in m["consts"].items()} | {"L_used": float(m["L"])}})
               for m, p in zip(members, position)]
    return stack(outputs)


FIG4_LAMBDAS = (0.02, 0.1, 0.5)
FIG4_R = tuple(float(x) for x in np.linspace(0.1, 3, 10))
DATA_SEEDS = {"quick": (1, 2, 3), "paper": tuple(range(1, 11))}


def _batches(experiment: str, configs: list[dict], profile: str, group_by=("data_seed",)) -> list[RunSpec]:
    """The configs as batch specs (module docstring): one batch per value of the shared keys and ``group_by``, members
    in the order given. A batch is never split: its members over R of one data seed are one computation per lambda or
    rate (:func:`_distinct`), which a split would repeat in every part."""
    groups: dict[tuple, list[LogisticConfig]] = {}
    for cfg in configs:
        full = LogisticConfig(**cfg, profile=profile)
        groups.setdefault(tuple(repr(getattr(full, k)) for k in SHARED + tuple(group_by)), []).append(full)
    return [batch_spec(experiment, members, 0, run_logistic) for members in groups.values()]


def _methods_fig4():
    return ([{"method": "fedclup", "lam": lam, "rounds": 50} for lam in FIG4_LAMBDAS]
            + [{"method": "globaltrain", "lr": 0.01, "rounds": 50}, {"method": "localtrain", "lr": 0.001, "rounds": 500}])


def figure4_specs(profile: str) -> list[RunSpec]:
    """Figure 4 (simulation_main_stat): final-round errors against R."""
    return _batches("fedclup.figure4", [meth | {"R": R, "local_steps": 150, "data_seed": s}
                                        for R in FIG4_R for meth in _methods_fig4() for s in DATA_SEEDS[profile]], profile)


#: the two readings of what Figure 4 runs (fedclup.readings): the authors' code as it executes (server: the mean of all
#: m stored client models; R: the per-entry standard deviation of W_k; L: the hard-coded 9.13) and the paper's
#: reading ((12) with gamma = 1/lambda + 1/L = 1/L_F over the sampled clients; R: the radius of (5); L: the paper's
#: formula on the data). Each reading's metric is in the audit (FIG4_READING_METRIC).
READINGS = {"code": {"server": "average_all", "heterogeneity": "entry_std", "L": "code"},
            "paper": {"server": "eq12", "heterogeneity": "radius", "L": "data"}}
#: the R values of fedclup.readings: the ends of Figure 4's axis (the statements compare them) at the quick profile
READING_R = {"quick": (FIG4_R[0], FIG4_R[-1]), "paper": FIG4_R}


def readings_specs(profile: str) -> list[RunSpec]:
    """Figure 4's sweep under both :data:`READINGS`, the data seeds of the profile. Under the code's reading only
    FedCLUP runs here: GlobalTrain and LocalTrain (fixed learning rates; GlobalTrain averages all models in every
    reading) use neither the server rule nor L, so on the code's data they are ``fedclup.figure4``'s own runs, which
    the audit reads (:data:`CODE_READING_BASELINES`) instead of computing them twice."""
    return _batches("fedclup.readings", [meth | READINGS[name] | {"R": R, "local_steps": 150, "data_seed": s}
                                         for name in READINGS for R in READING_R[profile] for meth in _methods_fig4()
                                         if name == "paper" or meth["method"] not in CODE_READING_BASELINES
                                         for s in DATA_SEEDS[profile]], profile)


#: the methods of the code's reading that ``fedclup.readings`` takes from ``fedclup.figure4`` (readings_specs)
CODE_READING_BASELINES = ("globaltrain", "localtrain")


FIG2_K = (25, 50, 75, 100, 125, 150)
FIG2_LAMBDAS = (0.5, 0.02)     # left: the code's lambda = 0.5; right (high personalization): not recovered, 0.02


FIG2_ROUNDS, FIG3_ROUNDS = 20, 100
assert FIG2_ROUNDS != FIG3_ROUNDS        # reading_figure tells the two figures' runs apart by their rounds


def figure2_specs(profile: str) -> list[RunSpec]:
    """Figure 2 (simulation_main_local_epochs): total error vs rounds for K local steps, two lambdas."""
    return _batches("fedclup.figure2", _figure2_configs(profile), profile)


FIG3_LAMBDAS = (0.02, 0.1, 0.5, 2.0)
#: the adaptive rule's starting lambdas: Figure 3's smallest, and ten and a hundred times smaller (Section 6.2 begins
#: "with a small lambda" and gives none; the audit decides its statement under each)
ADAPTIVE_STARTS = (0.02, 0.002, 0.0002)


def _figure2_configs(profile: str) -> list[dict]:
    return [{"method": "fedclup", "lam": lam, "local_steps": K, "rounds": FIG2_ROUNDS, "R": 1.0, "data_seed": s}
            for lam in FIG2_LAMBDAS for K in FIG2_K for s in DATA_SEEDS[profile]]


def _figure3_configs(profile: str) -> list[dict]:
    base = {"local_steps": 150, "rounds": FIG3_ROUNDS, "R": 1.0}
    left = ([{"method": "fedclup", "lam": lam} for lam in FIG3_LAMBDAS]
            + [{"method": "globaltrain", "lr": 0.01}, {"method": "localtrain", "lr": 0.001}])
    right = [{"method": "fedclup", "lam": lam, "adapt_constant": c} for lam in ADAPTIVE_STARTS for c in (5.0, 2.0)]
    return [base | v | {"data_seed": s} for v in left + right for s in DATA_SEEDS[profile]]


def figure3_specs(profile: str) -> list[RunSpec]:
    """Figure 3: left, total error vs rounds for LocalTrain, GlobalTrain and FedCLUP at several lambdas;
    right, lambda = 0.02 (and 0.002, 0.0002) switched once at T/2 by the adaptive rule (constant 5 of the code, 2 of
    the text)."""
    return _batches("fedclup.figure3", _figure3_configs(profile), profile)


def readings_fig23_specs(profile: str) -> list[RunSpec]:
    """Figures 2 and 3 under both :data:`READINGS` (as :func:`readings_specs` does for Figure 4), the data seeds of
    the profile. ``fedclup.figure2``/``figure3`` themselves run the code's server rule and R with the paper's L, which
    enters FedCLUP's local step 1/(L + lambda): so FedCLUP runs here under both readings. GlobalTrain and LocalTrain
    use neither the server rule nor L: under the code's reading they are ``fedclup.figure3``'s own runs
    (:data:`CODE_READING_BASELINES`), under the paper's they run here (R read as the radius changes their data)."""
    configs = _figure2_configs(profile) + _figure3_configs(profile)
    return _batches("fedclup.readings_fig23", [c | READINGS[name] for name in READINGS for c in configs
                                               if name == "paper" or c["method"] not in CODE_READING_BASELINES],
                    profile)


def reading_figure(rounds: int) -> int:
    """Which figure a ``fedclup.readings_fig23`` run of ``rounds`` rounds belongs to (Figure 2 runs
    :data:`FIG2_ROUNDS`, Figure 3 :data:`FIG3_ROUNDS`; the two differ, which the module asserts)."""
    return {FIG2_ROUNDS: 2, FIG3_ROUNDS: 3}[rounds]


FIG6_LAMBDAS = (0.02, 0.25, 0.5)


def figure6_specs(profile: str) -> list[RunSpec]:
    """Figure 6 (simulation_main_total): 100 and 1000 clients, 10 % sampled per round, R = 2."""
    seeds = DATA_SEEDS[profile][:1] if profile == "quick" else DATA_SEEDS[profile][:3]
    return _batches("fedclup.figure6", [{"method": "fedclup", "lam": lam, "m": m, "sample_rate": 0.1, "server": server,
                                         "local_steps": 150, "rounds": 100, "R": 2.0, "data_seed": s}
                                        for m in (100, 1000) for lam in FIG6_LAMBDAS for server in ("average_all", "eq12")
                                        for s in seeds], profile)
