"""SGD baselines of Section VI of the mini-batch SSCA paper (arXiv 2104.06011 v1). The paper cites its
baselines as refs [5], [12]-[18] (not resolvable from the copy) and gives only the learning rate
r = a_bar / t^alpha_bar (chosen by "a grid search method"), the batch size B and the number E of local
updates; the choices below are ours (choices the paper leaves open) and documented here.

Entry points: ``run_fedavg_sgd(problem, params, rng)`` and ``run_feature_sgd(problem, params, rng)``, each
returning an :class:`SGDTrace`; the initial point ``omega1``, the clients' index sets ``client_indices`` (FedAvg)
and the checkpoint ``monitor`` are fields of the frozen :class:`SGDParams`.

* :func:`run_fedavg_sgd` -- sample-based FedAvg-style SGD. One "iteration" t is ONE COMMUNICATION ROUND
  (a choice the paper leaves open): the server broadcasts w^(t); every client i starts from w^(t) and takes E
  local SGD steps w <- w - r_t g, each on a FRESH uniform B-subset of its own indices drawn without replacement
  (weights 1/B: g is the batch mean gradient of f_0), all clients at once through
  ``problem.stacked_objective_grads``, or the problem's ``fedavg_round`` where it has one (the network's (27)
  computes the round in factored form, without client models of d entries); the server sets
  w^(t+1) = sum_i (N_i/N) w_i. With E = 1 this is
  mini-batch SGD on the union of the client batches (weights N_i/(B N), as in (3)), and is computed that
  way (one ``batch_sums`` call, no per-client model copies; the same draws, equal up to rounding).
* :func:`run_feature_sgd` -- feature-based (vertical) SGD: the server draws a uniform B-subset of the N
  samples without replacement, the objective gradient is computed the feature-based way
  (``problem.block_batch_sums`` with weights 1/B, row 0) and every block takes w <- w - r_t g.

Learning rate: r_t = lr_a / t^lr_alpha with t the communication round (iteration) index, the same for
all E local steps of a round (our choice, so that a round with E = 2 is comparable with E = 1 at equal t).

Indexing as in :mod:`repro.papers.ssca.algorithms.ssca`: ``iterations`` T gives T - 1 rounds t = 1..T-1 and the
output w^(T); monitor checkpoints t in 1..T refer to w^(t) (t = 1 the initial point). The monitor
receives a read-only :class:`SGDState`. Only the objective f_0 is used (these baselines are for the
unconstrained Problems 1/6); the problem's constraints, if any, are ignored.

Randomness: ``rng.spawn(1)`` -- one child for the batch draws. Divergence: a non-finite model raises
:class:`~repro.papers.ssca.algorithms.ssca.DivergenceError` naming the method, the round and the learning rate.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from repro.errors import is_int, is_real, require
from repro.papers.ssca.algorithms.ssca import (
    CheckpointRecorder, DivergenceError, check_finite, draw_client_batches, draw_server_batch, initial_point,
    loop_oracle, validate_checkpoints, validate_client_indices, validate_initial_point,
)

__all__ = ["SGDParams", "SGDState", "SGDTrace", "run_fedavg_sgd", "run_feature_sgd", "DivergenceError"]


@dataclass(frozen=True, eq=False)
class SGDParams:
    """Learning rate r_t = ``lr_a`` / t^``lr_alpha`` (t = round index), ``iterations`` T (T - 1 rounds),
    ``batch`` B (per client and local step for FedAvg; total for feature-based SGD), the initial point
    ``omega1`` w^(1) (a read-only float64 copy), ``local_steps`` E (FedAvg only; feature-based SGD requires
    E = 1), ``record_batches``, monitor ``checkpoints``, ``client_indices`` (I, N_i) (FedAvg: a partition of
    0..N-1 with equal N_i, checked when the run starts; feature-based SGD ignores it) and
    ``monitor(t, state: SGDState) -> dict[str, float]``, called at the checkpoints. Compared by identity."""

    lr_a: float
    lr_alpha: float
    iterations: int
    batch: int
    omega1: np.ndarray
    local_steps: int = 1
    record_batches: bool = False
    checkpoints: tuple = ()
    client_indices: np.ndarray | None = None
    monitor: Callable | None = None

    def __post_init__(self) -> None:
        require(is_real(self.lr_a) and self.lr_a > 0, "lr_a", self.lr_a, "a finite number > 0")
        require(is_real(self.lr_alpha) and self.lr_alpha >= 0, "lr_alpha", self.lr_alpha, "a finite number >= 0")
        require(is_int(self.iterations) and self.iterations >= 2, "iterations", self.iterations,
                "an integer >= 2 (T; T - 1 communication rounds)")
        require(is_int(self.batch) and self.batch >= 1, "batch", self.batch, "an integer >= 1")
        require(is_int(self.local_steps) and self.local_steps >= 1, "local_steps", self.local_steps,
                "an integer >= 1 (E, local SGD steps per round)")
        require(isinstance(self.record_batches, bool), "record_batches", self.record_batches, "True or False")
        validate_checkpoints(self.checkpoints, self.iterations)
        object.__setattr__(self, "omega1", initial_point(self.omega1))
        require(self.monitor is None or callable(self.monitor), "monitor", type(self.monitor).__name__,
                "None or a callable monitor(t, state) -> dict[str, float]")

    def learning_rates(self) -> np.ndarray:
        """r_t for rounds t = 1..T-1."""
        return self.lr_a / np.arange(1, self.iterations, dtype=np.float64) ** self.lr_alpha


@dataclass(frozen=True)
class SGDState:
    """Read-only view at checkpoint t: the server model w^(t) and the learning rate of the previous round
    (None at t = 1)."""

    t: int
    omega: np.ndarray
    lr: float | None


@dataclass
class SGDTrace:
    """One run (``params``: the :class:`SGDParams` it ran with). Per round t = 1..T-1: ``lr`` r_t, ``omega_norm`` ||w^(t)||, ``step_norm``
    ||w^(t+1) - w^(t)||, ``batch_value`` (feature-based only: the batch mean of f_0 at w^(t); None for
    FedAvg, whose clients send models, not values), ``floats_sent_per_client`` (FedAvg: d, the uploaded
    model; feature-based: NaN, the blocks are problem specific), ``grad_evals_per_client`` (E B; feature
    based: B, the per-sample gradient terms each block holder evaluates); ``batches`` when recorded
    ((T-1, E, I, B) FedAvg, (T-1, B) feature-based); ``omega_final`` w^(T); ``checkpoints``, ``monitor``."""

    algorithm: str
    params: SGDParams
    lr: np.ndarray
    omega_norm: np.ndarray
    step_norm: np.ndarray
    omega_final: np.ndarray
    floats_sent_per_client: np.ndarray
    grad_evals_per_client: np.ndarray
    batch_value: np.ndarray | None = None
    batches: np.ndarray | None = None
    checkpoints: tuple = ()
    monitor: dict = field(default_factory=dict)


def _readonly(w: np.ndarray) -> np.ndarray:
    w = w.copy()
    w.flags.writeable = False
    return w


def _sgd_loop(problem, params: SGDParams, algorithm: str, round_update: Callable,
              batch_shape: tuple) -> tuple[np.ndarray, dict]:
    """Shared round loop from ``params.omega1``, monitored by ``params.monitor``: ``round_update(w, r, t) ->
    (new_w, batch_record, batch_value)``."""
    T = params.iterations
    w = validate_initial_point(params.omega1, int(problem.dim))
    lr = params.learning_rates()
    omega_norm, step_norm, values = np.empty(T - 1), np.empty(T - 1), np.empty(T - 1)
    batches = np.empty((T - 1,) + batch_shape, dtype=np.intp) if params.record_batches else None
    recorder = CheckpointRecorder(params.checkpoints, params.monitor)
    if recorder.wants(1):
        recorder.record(1, SGDState(t=1, omega=_readonly(w), lr=None))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for t in range(1, T):
            new_w, record, value = round_update(w, lr[t - 1], t)
            check_finite(algorithm, t, T, lambda: f"learning rate r_t={lr[t - 1]:.6g} (lr_a={params.lr_a}, "
                         f"lr_alpha={params.lr_alpha}, E={params.local_steps})", new_w,
                         remedy="reduce the learning rate (lr_a)")
            if batches is not None:
                batches[t - 1] = record
            omega_norm[t - 1], step_norm[t - 1], values[t - 1] = np.linalg.norm(w), np.linalg.norm(new_w - w), value
            w = new_w
            if recorder.wants(t + 1):
                recorder.record(t + 1, SGDState(t=t + 1, omega=_readonly(w), lr=float(lr[t - 1])))
    return w, dict(lr=lr, omega_norm=omega_norm, step_norm=step_norm, batch_value=values, batches=batches,
                   checkpoints=recorder.checkpoints, monitor=recorder.arrays())


def _local_steps(problem, w: np.ndarray, drawn: np.ndarray, weights: np.ndarray, client_weights: np.ndarray,
                 r: float) -> np.ndarray:
    """E = ``drawn.shape[0]`` local SGD steps of every client from w and the clients' weighted average: the problem's
    ``fedavg_round`` where it has one (the same round in factored form, without I model copies), else as written,
    one ``stacked_objective_grads`` call per step on the (I, d) client models."""
    fedavg_round = getattr(problem, "fedavg_round", None)
    if fedavg_round is not None:
        return fedavg_round(w, drawn, weights, client_weights, r)
    W = np.repeat(w[None], drawn.shape[1], axis=0)
    E = drawn.shape[0]
    for e in range(E):
        g = np.asarray(problem.stacked_objective_grads(W, drawn[e], weights), dtype=np.float64)
        g *= r
        W -= g
    return client_weights @ W


def run_fedavg_sgd(problem, params: SGDParams, rng: np.random.Generator) -> SGDTrace:
    """Sample-based FedAvg-style SGD (module docstring): per round, E local SGD steps per client from the
    server model on fresh uniform B-subsets (batch-mean gradients of f_0, all clients at once: :func:`_local_steps`),
    then the N_i/N-weighted average of the client models. The E batches of a round are drawn before its steps (the
    steps draw nothing, so the batches are those drawn between them)."""
    N, B, E = int(problem.n_samples), params.batch, params.local_steps
    idx = validate_client_indices(params.client_indices, N, B)
    I, n_i = idx.shape
    (batch_rng,) = rng.spawn(1)
    weights = np.full((I, B), 1.0 / B)
    client_weights = np.full(I, n_i / N)  # N_i / N

    union_weights = (client_weights[:, None] * weights).reshape(-1)
    batch_sums = loop_oracle(problem, "batch_sums")         # its arguments are built valid, as the engine's are

    def round_update(w, r, t):
        drawn = np.empty((E, I, B), dtype=np.intp)
        if E == 1:
            # every client steps once from the same w, so the N_i/N-weighted average of w - r g_i(w) is exactly
            # w - r sum_i (N_i/N) g_i(w): one oracle call on the union, without I model copies
            drawn[0] = draw_client_batches(batch_rng, idx, B)
            _, g = batch_sums(w, drawn[0].reshape(-1), union_weights)
            return w - r * np.asarray(g, dtype=np.float64)[0], drawn, np.nan
        for e in range(E):
            drawn[e] = draw_client_batches(batch_rng, idx, B)
        return _local_steps(problem, w, drawn, weights, client_weights, r), drawn, np.nan

    w, rec = _sgd_loop(problem, params, f"FedAvg-SGD (sample-based, B={B}, E={E})", round_update, (E, I, B))
    rec["batch_value"] = None
    T = params.iterations
    return SGDTrace(algorithm=f"FedAvg-SGD (sample-based, B={B}, E={E})", params=params, omega_final=w,
                    floats_sent_per_client=np.full(T - 1, float(problem.dim)),
                    grad_evals_per_client=np.full(T - 1, E * B), **rec)


def run_feature_sgd(problem, params: SGDParams, rng: np.random.Generator) -> SGDTrace:
    """Feature-based (vertical) SGD: per iteration the server draws a uniform B-subset of the N samples,
    the batch-mean gradient of f_0 comes from ``problem.block_batch_sums`` (weights 1/B, row 0) and every
    block steps w <- w - r_t g."""
    N, B = int(problem.n_samples), params.batch
    require(B <= N, "batch", B, f"an integer in 1..N = 1..{N} (total batch, feature-based)")
    require(params.local_steps == 1, "local_steps", params.local_steps, "1 (feature-based SGD has no local steps)")
    (batch_rng,) = rng.spawn(1)
    weights = np.full(B, 1.0 / B)
    block_batch_sums = loop_oracle(problem, "block_batch_sums")

    def round_update(w, r, t):
        chosen = draw_server_batch(batch_rng, N, B)
        values, grads = block_batch_sums(w, chosen, weights)
        return w - r * np.asarray(grads, dtype=np.float64)[0], chosen, float(np.asarray(values)[0])

    name = f"feature-based SGD (B={B})"
    w, rec = _sgd_loop(problem, params, name, round_update, (B,))
    T = params.iterations
    return SGDTrace(algorithm=name, params=params, omega_final=w,
                    floats_sent_per_client=np.full(T - 1, np.nan), grad_evals_per_client=np.full(T - 1, B), **rec)
