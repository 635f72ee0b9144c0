"""FedCLUP on MNIST with multinomial logistic regression (Section 6.1, Appendix D.1): Table 2 and Table 4 "MNIST Logit"
rows, and Figure 5 (test loss vs rounds).

Data: the authors' class-restricted split (:mod:`repro.papers.fedclup.problems.mnist_classes`): 300 generated clients
with ``classes`` classes each, 10 of them selected, 90 % / 10 % train / test per client, pixels / 255,
a constant-1 feature for the bias of the authors' Linear(784, 10).

Training (the authors' code): 20 rounds, all 10 clients every round, SGD with lr 0.01 and
batch 32, E = 5 local epochs, read as K = E * ceil(n_train / 32) local steps of a fresh batch each
(sampling without replacement within a batch; the authors' DataLoader shuffles once per epoch --
a documented deviation). Initial model: U(-1/sqrt(784), 1/sqrt(784)) entries for weight and bias,
PyTorch's default for nn.Linear(784, 10), drawn from the run's Generator; every client starts from it.

Methods: LocalTrain (no communication); FedCLUP with lambda in {0.5, 1.5, 2.5} (the code's MNIST
logistic values; high / medium / low personalization = small / medium / large lambda) and server
gamma = 1/lambda (the code's sample-size-weighted average of the selected clients; sizes are equal);
pFedMe (T Dinh et al. 2020) with the same lambdas (its hyper-parameters are not recovered: a choice
the paper leaves open; this project's defaults): personal lr 0.01, 5 inner steps, the same K local rounds, eta = 0.01, beta = 1; GlobalTrain
(FedAvg, lr 0.01).

Metrics (which one Tables 2 and 4 report is not recovered): the accuracy of each client's own model
on the full 10k MNIST test set (all classes: the paper explains LocalTrain's low numbers by "evaluation
is conducted on the entire dataset, including classes not seen during training"), averaged over the
clients; for GlobalTrain the global model. Also recorded: the class-restricted accuracy as the authors'
code computes it (test images whose label is among the classes of the client's training split, argmax over
all 10 outputs), the accuracy on the client's own 10 %
split, and per round the global model's and the mean local model's test loss (Figure 5). The test losses are
computed with float32 products (``loss_dtype``, the config's: a data figure, as the authors' PyTorch code evaluates
in float32; half the time of the runs' largest product, 231 models against the 10k test images) and accumulated in
float64; training and the accuracies of Tables 2 and 4 stay float64.

Configs: one shape per kind of method, the experiment's ``config`` tuple ``(MnistConfig, MnistProxConfig)``:
:class:`MnistConfig` (LocalTrain and GlobalTrain; also the base of the other shape, holding the keys every run has)
and :class:`MnistProxConfig` (FedCLUP and pFedMe: adds their ``lam``). The shared
:meth:`repro.experiment.Experiment.check_config` builds the first shape whose keys cover a config, so
:class:`MnistConfig` comes first. The one run function :func:`run_mnist` is annotated with the union of the two, so the
runner builds each run's own shape.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from repro.papers.fedclup.algorithms import fedclup as alg
from repro.errors import is_int, require
from repro.papers.fedclup.problems import mnist_classes as MC
from repro.papers.fedclup.problems.stacked_clients import row_max
from repro import admissible as adm
from repro.runner import RunSpec, watch
from repro.experiment import Config

METHODS = ("localtrain", "fedclup", "pfedme", "globaltrain")
PROXIMAL = ("fedclup", "pfedme")           # the methods with a personalization lambda (MnistProxConfig)
LAMBDAS = (0.5, 1.5, 2.5)
CLASSES = (2, 6, 10)
SEEDS = {"quick": 2, "paper": 5}


@functools.lru_cache(maxsize=3)
def _data(classes: int):
    return MC.build(classes)


@dataclass(frozen=True, kw_only=True)
class MnistConfig(Config):
    """One MNIST run: ``method``, the clients' number of ``classes``, ``rounds`` of ``epochs`` local epochs of
    ``batch``-sample SGD steps with step ``lr``, and the profile (:class:`MnistProxConfig` adds lambda)."""

    method: str
    classes: int
    profile: str
    rounds: int = 20
    epochs: int = 5
    batch: int = 32
    lr: float = 0.01
    loss_dtype: str = "float32"

    def __post_init__(self) -> None:
        adm.one_of("method", self.method, METHODS)
        adm.one_of("loss_dtype", self.loss_dtype, ("float32", "float64"))
        require(isinstance(self, MnistProxConfig) == (self.method in PROXIMAL), "method", self.method,
                f"one of {PROXIMAL} with a lam, or of {tuple(m for m in METHODS if m not in PROXIMAL)} without")
        require(is_int(self.classes) and 1 <= self.classes <= 10, "classes", self.classes, "an integer in 1..10")
        for key in ("rounds", "epochs", "batch"):
            adm.integer(key, getattr(self, key))
        adm.real("lr", self.lr)


@dataclass(frozen=True, kw_only=True)
class MnistProxConfig(MnistConfig):
    """One MNIST run of FedCLUP or pFedMe: :class:`MnistConfig` and the personalization ``lam``."""

    lam: float

    def __post_init__(self) -> None:
        super().__post_init__()
        adm.real("lam", self.lam)


def _test_loss(W, X, y, dtype: str = "float64", rows: int = 2048, weights=(None,)) -> list[np.ndarray]:
    """Mean cross-entropy of each model (leading axes, e.g. rounds x clients) on (X, y), once per entry of
    ``weights``: one product of the test set with every model at once (all models' columns side by side), over
    chunks of ``rows`` samples, the products and the log-sum-exp in ``dtype``, the sums over samples in float64. An
    entry of ``weights`` is None (the plain mean) or an array (the models' trailing lead axis x samples, e.g. clients
    x samples) weighing each model's samples: the weighted mean (a 0/1 mask: the mean over the samples it keeps).
    Every weighting reads the same per-sample losses, so a second one costs no second product. The row max by
    :func:`~repro.papers.fedclup.problems.stacked_clients.row_max` (exact, ~5x faster than ``max(axis=-1)`` on these
    shapes) and the exponential in place."""
    lead, (p, C) = W.shape[:-2], W.shape[-2:]
    stacked = np.ascontiguousarray(np.moveaxis(W.reshape(-1, p, C), 1, 0), dtype=dtype).reshape(p, -1)
    X = X.astype(dtype, copy=False)
    models = stacked.shape[1] // C
    ws = [None if w is None else np.broadcast_to(np.asarray(w, float), lead + (X.shape[0],)).reshape(models, -1)
          for w in weights]
    totals = [np.zeros(models) for _ in ws]
    for start in range(0, X.shape[0], rows):                       # loop over sample chunks (memory bound)
        Z = (X[start:start + rows] @ stacked).reshape(-1, models, C)
        Z -= row_max(Z)[..., None]
        logp_true = np.take_along_axis(Z, np.broadcast_to(y[start:start + rows, None, None], Z.shape[:2] + (1,)),
                                       axis=-1)[..., 0]
        loss = -(logp_true - np.log(np.exp(Z, out=Z).sum(axis=-1)))        # (rows, models)
        for total, w in zip(totals, ws):
            total += (loss if w is None else loss * w[:, start:start + rows].T).sum(axis=0, dtype=np.float64)
    return [(total / (X.shape[0] if w is None else w.sum(axis=1))).reshape(lead) for total, w in zip(totals, ws)]


@watch("global_test_loss", "local_test_loss", step_sizes=("lr", "lam"))
def run_mnist(config: MnistConfig | MnistProxConfig, seed: int):
    """One MNIST run of ``config.method`` (its shape: :class:`MnistProxConfig` for FedCLUP and pFedMe, with their
    lambda; :class:`MnistConfig` otherwise)."""
    data = _data(config.classes)
    train = data["train"]
    rng = np.random.default_rng(np.random.SeedSequence([seed, config.classes]))
    bound = 1 / math.sqrt(784)
    w0 = rng.uniform(-bound, bound, size=train.shape)
    K = config.epochs * math.ceil(train.n / config.batch)
    T, lr, method = config.rounds, config.lr, config.method
    if method == "fedclup":
        trace = alg.run_fedclup(train, alg.FedCLUPParams(lam=config.lam, gamma=1 / config.lam, eta=lr, local_steps=K,
                                                         rounds=T, batch=config.batch, server="eq12", w_g0=w0), rng)
    elif method == "pfedme":
        trace = alg.run_pfedme(train, alg.PFedMeParams(lam=config.lam, eta=lr, personal_lr=0.01, inner_steps=5,
                                                       local_rounds=K, beta=1.0, rounds=T, batch=config.batch,
                                                       w_g0=w0), rng)
    elif method == "globaltrain":
        trace = alg.run_global_train(train, alg.GlobalTrainParams(eta=lr, local_steps=K, rounds=T,
                                                                  batch=config.batch, server="average_sampled",
                                                                  w_g0=w0), rng)
    else:
        trace = alg.run_local_train(train, alg.LocalTrainParams(eta=lr, local_steps=K, rounds=T,
                                                                batch=config.batch, w_g0=w0), rng)
    X_test, y_test = data["test_X"], data["test_y"]
    # the models evaluated per client: the global model for GlobalTrain, each client's own otherwise
    final = (np.broadcast_to(trace.global_models[-1], (train.m,) + train.shape) if method == "globaltrain"
             else trace.local_models[-1])
    per_client, restricted = MC.accuracy_and_restricted(final, X_test, y_test, data["train_class_mask"])
    own = MC.accuracy(final, data["client_test"]["X"], data["client_test"]["y"])
    dtype = config.loss_dtype
    X_loss = X_test.astype(dtype, copy=False)                                                # converted once
    (global_loss,) = _test_loss(trace.global_models, X_loss, y_test, dtype)                 # (T+1,)
    # each client's model on the whole test set, and on the test samples of the classes it trains on (its own test
    # distribution), from one product; both averaged over clients: (T+1,)
    mask = data["train_class_mask"][:, y_test]                                               # (clients, samples)
    local_loss, own_loss = (loss.mean(axis=1) for loss in _test_loss(trace.local_models, X_loss, y_test, dtype,
                                                                     weights=(None, mask)))
    arrays = {"accuracy": np.asarray(per_client, float), "restricted_accuracy": np.asarray(restricted, float),
              "own_split_accuracy": np.asarray(own, float), "global_test_loss": global_loss,
              "local_test_loss": local_loss, "own_classes_test_loss": own_loss,
              "global_accuracy": np.array(float(MC.accuracy(trace.global_models[-1][None], X_test, y_test)[0]))}
    return arrays, {"describe": data["describe"], "local_steps": K}


def mnist_specs(profile: str) -> list[RunSpec]:
    methods = ([(MnistConfig, {"method": "localtrain"})]
               + [(MnistProxConfig, {"method": m, "lam": lam}) for m in PROXIMAL for lam in LAMBDAS]
               + [(MnistConfig, {"method": "globaltrain"})])      # (the method's config shape, its keys)
    return [RunSpec("fedclup.mnist", shape(**meth, classes=c, profile=profile), s, run_mnist)
            for c in CLASSES for shape, meth in methods for s in range(SEEDS[profile])]
