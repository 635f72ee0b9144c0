"""Tests of repro.papers.pcfedavg.algorithms.penalized (PC-FedAvg Section 5's penalized baselines) and
repro.papers.pcfedavg.metrics (this project's infeasibility and global-loss metrics).

The references are written from the methods' own papers (FedAvg, FedProx, SCAFFOLD option II) with explicit
Python loops over rounds, agents and local steps, and per-agent projections through the single sets.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from repro.papers.pcfedavg.algorithms import penalized as pen
from repro.constraints import L1Ball, ProductSet
from repro.errors import ConfigError
from repro.papers.pcfedavg.metrics import metrics_callback, model_metrics
from repro.papers.pcfedavg.problems import softmax as sm


def softmax_problem(m=4, N=200, seed=0):
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, size=(N, 6), dtype=np.uint8)
    labels = rng.integers(0, 3, size=N)
    return sm.from_arrays(images, labels, m=m, n_classes=3, alpha=1.0)


class Quadratic:
    """f_i(w) = (s_i/2)||w - a_i||^2; 'stochastic' gradients are exact (no rng use), and the
    oracle has no ``agents`` argument (exercises the full-array path of the run)."""

    def __init__(self, m=4, n=5, seed=0):
        rng = np.random.default_rng(seed)
        self.m, self.n = m, n
        self.a = 3 * rng.normal(size=(m, n))
        self.s = rng.uniform(0.5, 2.0, size=m)

    def values(self, Y):
        return 0.5 * self.s * np.sum((np.asarray(Y) - self.a) ** 2, axis=-1)

    def gradients(self, Y):
        return self.s[:, None] * (np.asarray(Y) - self.a)

    def stochastic_gradients(self, Y, rng):
        return self.gradients(Y)


def params(method="fedavg", rounds=3, local_steps=4, lr=0.05, rho=0.5, w0=np.zeros(4), **kw):
    return pen.PenalizedParams(method=method, rounds=rounds, local_steps=local_steps, lr=lr, w0=w0,
                               rho=(rho,) * rounds if np.isscalar(rho) else rho, **kw)


def run(problem, sets, p, rng):
    return pen.run(pen.PenalizedProblem(problem, sets), p, rng)


# ------------------------------------------------------------------------------- FedAvg / FedProx
def test_fedavg_without_penalty_is_the_average_of_local_sgd():
    problem = softmax_problem()
    sets = ProductSet.l1_balls([1.0, 2.0, 3.0, 4.0], problem.n)
    w0 = 0.1 * np.random.default_rng(1).normal(size=problem.n)
    p = params("fedavg", rounds=3, local_steps=5, lr=0.5, rho=0.0, w0=w0)
    trace = run(problem, sets, p, np.random.default_rng(2))

    rng = np.random.default_rng(2)
    w = w0.copy()
    for _ in range(3):
        Y = np.array([w.copy() for _ in range(problem.m)])
        for _ in range(5):
            G = problem.stochastic_gradients(Y, rng)
            for i in range(problem.m):
                Y[i] = Y[i] - 0.5 * G[i]
        w = sum(Y[i] for i in range(problem.m)) / problem.m
    np.testing.assert_allclose(trace.w, w, rtol=1e-12, atol=1e-14)


def test_fedavg_with_one_agent_is_sgd():
    problem = softmax_problem(m=1, N=60)
    sets = ProductSet.l1_balls([1.0], problem.n)
    p = params("fedavg", rounds=2, local_steps=3, lr=0.3, rho=0.0, w0=np.zeros(problem.n))
    trace = run(problem, sets, p, np.random.default_rng(4))
    rng, w = np.random.default_rng(4), np.zeros(problem.n)
    for _ in range(6):
        w = w - 0.3 * problem.stochastic_gradients(w[None], rng)[0]
    np.testing.assert_allclose(trace.w, w, rtol=1e-12, atol=1e-14)


def test_fedprox_with_mu_zero_equals_fedavg():
    problem = softmax_problem()
    sets = ProductSet.l1_balls([0.5] * 4, problem.n)
    rho = pen.penalty_schedule(4)
    w0 = np.zeros(problem.n)
    a = run(problem, sets, params("fedavg", rounds=4, rho=rho, w0=w0), np.random.default_rng(5))
    b = run(problem, sets, params("fedprox", rounds=4, rho=rho, mu=0.0, w0=w0), np.random.default_rng(5))
    np.testing.assert_array_equal(a.w, b.w)
    np.testing.assert_array_equal(a.global_dist, b.global_dist)
    np.testing.assert_array_equal(a.local_dist, b.local_dist)


def test_fedprox_local_steps_by_hand():
    problem = Quadratic()
    sets = ProductSet.l1_balls([1.0, 2.0, 0.5, 3.0], problem.n)
    w0 = np.random.default_rng(6).normal(size=problem.n)
    p = params("fedprox", rounds=2, local_steps=3, lr=0.1, rho=(0.7, 1.3), mu=2.0, w0=w0)
    trace = run(problem, sets, p, np.random.default_rng(0))
    w = w0.copy()
    for r in range(2):
        locals_ = []
        for i in range(problem.m):
            y = w.copy()
            for _ in range(3):
                g = (problem.s[i] * (y - problem.a[i]) + p.rho[r] * (y - sets.sets[i].project(y))
                     + 2.0 * (y - w))
                y = y - 0.1 * g
            locals_.append(y)
        w = np.mean(locals_, axis=0)
    np.testing.assert_allclose(trace.w, w, rtol=1e-12, atol=1e-14)


# ------------------------------------------------------------------------------- SCAFFOLD
def scaffold_by_hand(grad, sets, m, w0, rounds, H, lr, rho, rng, sample, global_lr=1.0):
    """Penalized-SCAFFOLD (option II of Karimireddy et al.), one agent at a time. ``grad(i, y, rng)``."""
    w, c, ci = w0.copy(), np.zeros_like(w0), np.zeros((m, w0.size))
    history = []
    for r in range(rounds):
        S = sample(rng)
        dY, dc = [], []
        for i in S:
            y = w.copy()
            for _ in range(H):
                g = grad(i, y, rng) + rho[r] * (y - sets.sets[i].project(y))
                y = y - lr * (g - ci[i] + c)
            c_plus = ci[i] - c + (w - y) / (H * lr)
            dY.append(y - w)
            dc.append(c_plus - ci[i])
            ci[i] = c_plus
        w = w + global_lr / len(S) * sum(dY)
        c = c + sum(dc) / m
        history.append((S, w.copy(), c.copy(), ci.copy()))
    return history


def test_scaffold_rounds_by_hand_full_array_oracle():
    problem = Quadratic(m=4, n=5, seed=1)
    sets = ProductSet.l1_balls([1.0, 0.5, 2.0, 1.5], problem.n)
    w0 = np.random.default_rng(2).normal(size=problem.n)
    rho = (0.5, 1.0, 2.0)
    p = params("scaffold", rounds=3, local_steps=4, lr=0.1, rho=rho, participating=2,
               global_lr=0.8, w0=w0)
    trace = run(problem, sets, p, np.random.default_rng(3))
    history = scaffold_by_hand(
        lambda i, y, rng: problem.s[i] * (y - problem.a[i]), sets, 4, w0, 3, 4, 0.1, rho,
        np.random.default_rng(3), lambda rng: sorted(rng.choice(4, size=2, replace=False)),
        global_lr=0.8)
    S, w, c, ci = history[-1]
    np.testing.assert_array_equal(trace.sampled, [h[0] for h in history])
    np.testing.assert_allclose(trace.w, w, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(trace.c, c, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(trace.c_agents, ci, rtol=1e-12, atol=1e-13)
    # agents outside S_r have no local record in round r
    for r, row in enumerate(trace.sampled):
        out = np.setdiff1d(np.arange(4), row)
        assert np.all(np.isnan(trace.local_dist[r, out])) and np.all(trace.local_dist[r, row] >= 0)


def test_scaffold_one_round_by_hand_subset_oracle():
    problem = softmax_problem()
    sets = ProductSet.l1_balls([0.2, 0.4, 0.6, 0.8], problem.n)
    w0 = np.zeros(problem.n)
    p = params("scaffold", rounds=2, local_steps=3, lr=0.4, rho=(1.0, 1.1), participating=2, w0=w0)
    trace = run(problem, sets, p, np.random.default_rng(7))

    rng = np.random.default_rng(7)
    w, c, ci = w0.copy(), np.zeros(problem.n), np.zeros((4, problem.n))
    for r in range(2):
        S = np.sort(rng.choice(4, size=2, replace=False))
        Y = np.array([w.copy(), w.copy()])
        for _ in range(3):
            G = problem.stochastic_gradients(Y, rng, agents=S)      # one draw for both agents
            for k, i in enumerate(S):
                g = G[k] + p.rho[r] * (Y[k] - sets.sets[i].project(Y[k]))
                Y[k] = Y[k] - 0.4 * (g - ci[i] + c)
        c_plus = {i: ci[i] - c + (w - Y[k]) / (3 * 0.4) for k, i in enumerate(S)}
        delta_c = sum(c_plus[i] - ci[i] for i in S)
        for i in S:
            ci[i] = c_plus[i]
        w = w + (Y[0] - w + Y[1] - w) / 2
        c = c + delta_c / 4
        np.testing.assert_array_equal(trace.sampled[r], S)
    np.testing.assert_allclose(trace.w, w, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(trace.c, c, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(trace.c_agents, ci, rtol=1e-12, atol=1e-14)


def test_scaffold_sampling_is_uniform_without_replacement():
    problem = Quadratic(m=4, n=2)
    sets = ProductSet.l1_balls([1.0] * 4, 2)
    p = params("scaffold", rounds=600, local_steps=1, lr=0.01, rho=0.0, participating=2, w0=np.zeros(2))
    trace = run(problem, sets, p, np.random.default_rng(8))
    assert trace.sampled.shape == (600, 2)
    assert np.all(trace.sampled[:, 0] < trace.sampled[:, 1])       # distinct, sorted
    counts = np.bincount(trace.sampled.ravel(), minlength=4)
    assert np.all(np.abs(counts - 300) < 5 * np.sqrt(600 * 0.5 * 0.5))


# ------------------------------------------------------------------------------- penalty
def test_penalized_gradient_is_gradient_of_penalized_objective():
    problem = softmax_problem()
    sets = ProductSet.l1_balls([0.3, 0.6, 0.9, 1.2], problem.n)
    rng = np.random.default_rng(9)
    Y = rng.normal(size=(4, problem.n))
    rho = 2.5

    def F(Z):  # f_i(Z_i) + rho/2 dist(Z_i, X_i)^2, per agent
        return problem.values(Z) + 0.5 * rho * sets.distance(Z) ** 2

    G = pen.penalized_gradients(problem, sets, Y, rho)
    h = 1e-6
    for _ in range(3):
        D = rng.normal(size=Y.shape)
        fd = (F(Y + h * D) - F(Y - h * D)) / (2 * h)
        np.testing.assert_allclose(fd, np.einsum("in,in->i", G, D), rtol=1e-6, atol=1e-8)
    np.testing.assert_array_equal(pen.penalty_gradients(sets, Y, 0.0), np.zeros_like(Y))


# ------------------------------------------------------------------------------- records
def test_evaluate_callbacks_and_records():
    problem = softmax_problem()
    sets = ProductSet.l1_balls([0.5] * 4, problem.n)
    seen, seen_local = [], []

    def evaluate(V, r):
        assert V.shape == (4, problem.n) and np.all(V == V[0])
        seen.append(r)
        return {"norm": float(np.linalg.norm(V[0]))}

    def evaluate_local(Y, agents, r):
        seen_local.append((r, agents.tolist()))
        return {"spread": float(np.ptp(Y, axis=0).max())}

    p = params("fedavg", rounds=3, local_steps=2, lr=1.0, rho=0.1, w0=np.zeros(problem.n), evaluate=evaluate,
               evaluate_local=evaluate_local)
    trace = run(problem, sets, p, np.random.default_rng(0))
    assert seen == [0, 1, 2, 3] and [s[0] for s in seen_local] == [0, 1, 2]
    assert trace.metrics["norm"].shape == (4,) and trace.metrics["norm"][0] == 0.0
    assert trace.metrics["norm"][-1] == pytest.approx(np.linalg.norm(trace.w))
    assert trace.local_metrics["spread"].shape == (3,)
    assert trace.global_dist.shape == (4, 4) and np.all(trace.global_dist[0] == 0)
    np.testing.assert_allclose(trace.global_dist[-1], sets.distance(np.broadcast_to(trace.w, (4, problem.n))))
    assert trace.local_dist.shape == trace.local_drift.shape == (3, 4)
    assert not np.any(np.isnan(trace.local_dist))
    np.testing.assert_array_equal(trace.rho, [0.1] * 3)
    assert set(trace.arrays()) >= {"w", "global_dist", "metric_norm", "local_spread"}


def test_paper_params_and_schedule():
    rho = pen.penalty_schedule(100)
    assert rho[0] == pytest.approx(10.0) and rho[-1] == pytest.approx(10099 ** 0.25)
    p = pen.paper_params("cifar10", "fedprox", np.zeros(3))
    assert (p.lr, p.mu, p.rounds, p.local_steps, p.participating) == (0.001, 2.0, 100, 20, None)
    s = pen.paper_params("mnist", "scaffold", np.zeros(3))
    assert (s.lr, s.global_lr, s.participating, s.mu) == (0.01, 1.0, 2, 0.0)


# ------------------------------------------------------------------------------- validation
@pytest.mark.parametrize("change, name", [
    ({"method": "fednova"}, "method"),
    ({"rounds": 0}, "rounds"),
    ({"rounds": 2.0}, "rounds"),
    ({"local_steps": 0}, "local_steps"),
    ({"lr": 0.0}, "lr"),
    ({"lr": float("nan")}, "lr"),
    ({"mu": -1.0, "method": "fedprox"}, "mu"),
    ({"mu": 0.5}, "mu"),                           # mu is FedProx's only
    ({"global_lr": 0.0}, "global_lr"),
    ({"participating": 0}, "participating"),
    ({"rho": (1.0,)}, "rho"),                      # wrong length
    ({"rho": (1.0, -1.0)}, "rho"),
    ({"rho": (1.0, float("inf"))}, "rho"),
    ({"w0": np.full(4, np.nan)}, "w0"),
    ({"w0": np.zeros((2, 2))}, "w0"),
    ({"evaluate": "loss"}, "evaluate"),
    ({"evaluate_local": 3}, "evaluate_local"),
])
def test_bad_params_raise_config_error(change, name):
    kwargs = {"method": "fedavg", "rounds": 2, "local_steps": 1, "lr": 0.1, "rho": (1.0, 1.0), "w0": np.zeros(4)}
    kwargs.update(change)
    with pytest.raises(ConfigError, match=rf"^{name}="):
        pen.PenalizedParams(**kwargs)


def test_bad_run_inputs_raise_config_error():
    problem = Quadratic(m=3, n=4)
    sets = ProductSet.l1_balls([1.0] * 3, 4)
    rng = np.random.default_rng(0)
    with pytest.raises(ConfigError, match="^w0="):
        run(problem, sets, params("fedavg", rounds=1, w0=np.zeros(5)), rng)
    with pytest.raises(ConfigError, match="^participating="):
        run(problem, sets, params("scaffold", rounds=1, participating=4, w0=np.zeros(4)), rng)
    with pytest.raises(ConfigError, match="^sets="):
        pen.PenalizedProblem(problem, ProductSet.l1_balls([1.0] * 4, 4))


# ------------------------------------------------------------------------------- metrics
def test_model_metrics_by_hand():
    problem = Quadratic(m=3, n=4, seed=3)
    tau = np.array([1.0, 2.0, 4.0])
    sets = ProductSet([L1Ball(t, 4) for t in tau])
    e1 = np.eye(4)[0]
    V = np.array([3.0 * e1, 1.0 * e1, 6.0 * e1])    # 1-sparse: dist = excess = max(0, t - tau)
    sigma = np.array([0.1, 0.2, 0.3])
    out = model_metrics(problem, sets, V, rho=2.0, sigma=sigma)
    dist = np.array([2.0, 0.0, 2.0])
    assert out["infeas_mean"] == pytest.approx(dist.mean())
    assert out["infeas_max"] == pytest.approx(2.0)
    assert out["infeas_sq_mean"] == pytest.approx(np.mean(dist ** 2))
    assert out["l1_excess_mean"] == pytest.approx(dist.mean())
    assert out["l1_excess_max"] == pytest.approx(2.0)
    assert out["l1_excess_rel_mean"] == pytest.approx(np.mean(dist / tau))
    assert out["l1_excess_rel_max"] == pytest.approx(2.0)
    vbar = V.mean(axis=0)                           # = (10/3) e1
    f_bar = problem.values(np.broadcast_to(vbar, (3, 4)))
    assert out["global_loss"] == pytest.approx(f_bar.mean())
    spread = np.sum((V - vbar) ** 2, axis=1)
    assert out["consensus_sq_mean"] == pytest.approx(spread.mean())
    assert out["objective"] == pytest.approx(np.mean(f_bar + sigma / 2 * spread))
    dist_bar = np.maximum(10 / 3 - tau, 0.0)
    assert out["penalized_objective"] == pytest.approx(np.mean(f_bar + dist_bar ** 2))
    # a baseline's single model: no consensus term, objective keys absent without rho/sigma
    base = model_metrics(problem, sets, np.broadcast_to(vbar, (3, 4)))
    assert base["consensus_sq_mean"] == 0.0 and "objective" not in base
    assert "penalized_objective" not in base
    with pytest.raises(ConfigError, match="^sigma="):
        model_metrics(problem, sets, V, sigma=[1.0, 2.0])
    with pytest.raises(ConfigError, match="^V="):
        model_metrics(problem, sets, V[:2])


def test_metrics_callback_in_a_run():
    problem = softmax_problem()
    sets = ProductSet.l1_balls([0.5] * 4, problem.n)
    evaluate = metrics_callback(problem, sets, rho=lambda r: (r + 10_000) ** 0.25)
    p = dataclasses.replace(pen.paper_params("mnist", "scaffold", np.zeros(problem.n), rounds=3, local_steps=2),
                            evaluate=evaluate)
    trace = run(problem, sets, p, np.random.default_rng(1))
    assert trace.metrics["global_loss"][0] == pytest.approx(np.log(3))
    assert trace.metrics["infeas_mean"][0] == 0.0
    np.testing.assert_allclose(trace.metrics["infeas_mean"], trace.global_dist.mean(axis=1))
    np.testing.assert_allclose(trace.metrics["rho"], [(r + 1e4) ** 0.25 for r in range(4)])
