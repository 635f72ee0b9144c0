"""FedCLUP (Algorithms 1/2), LocalTrain, GlobalTrain (FedAvg) and pFedMe on StackedClients.

Reference solutions are computed here from first principles (normal equations, the first-order conditions of
Problem (2)), never by the code under test.
"""
import ast
import dataclasses
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import minimize

from repro.papers.fedclup.algorithms import fedclup as alg
from repro.errors import ConfigError, ReproError
from repro.papers.fedclup.problems.stacked_clients import StackedClients

MODULE = Path(alg.__file__)


# ----------------------------------------------------------------------------------------- instances
def _squared(seed=0, m=4, n=30, d=3, spread=1.0, noise=0.1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n, d))
    w_true = rng.normal(size=d) + spread * rng.normal(size=(m, d))
    y = np.einsum("mnd,md->mn", X, w_true) + noise * rng.normal(size=(m, n))
    return StackedClients(X, y, "squared"), X, y


def _moments(X, y):
    n = X.shape[1]
    A = np.einsum("mnd,mne->mde", X, X) / n
    b = np.einsum("mnd,mn->md", X, y) / n
    return A, b


def _closed_form(A, b, lam):
    """Problem (2), p_i = 1/m: (A_i + lam I) w_i - lam w_g = b_i for all i, and w_g - (1/m) sum_i w_i = 0."""
    m, d = b.shape
    M = np.zeros(((m + 1) * d, (m + 1) * d))
    rhs = np.zeros((m + 1) * d)
    I = np.eye(d)
    for i in range(m):
        blk = slice(i * d, (i + 1) * d)
        M[blk, blk] = A[i] + lam * I
        M[blk, m * d:] = -lam * I
        rhs[blk] = b[i]
        M[m * d:, blk] = -I / m
    M[m * d:, m * d:] = I
    sol = np.linalg.solve(M, rhs)
    return sol[m * d:], sol[: m * d].reshape(m, d)


def _constants(A, lam):
    eig = np.linalg.eigvalsh(A)
    L, mu = eig[:, -1].max(), eig[:, 0].min()
    L_F = lam * L / (lam + L)
    return L, mu, L_F


# ----------------------------------------------------------------------------------------- (a)
def test_algorithm1_converges_to_the_closed_form_of_problem2():
    clients, X, y = _squared(seed=1)
    A, b = _moments(X, y)
    lam = 1.0
    L, _, L_F = _constants(A, lam)
    params = alg.FedCLUPParams(lam=lam, gamma=1 / L_F, eta=1 / (L + lam), local_steps=50, rounds=300, w_g0=np.zeros(3))
    tr = alg.run_fedclup(clients, params, np.random.default_rng(0))
    w_g, w_loc = _closed_form(A, b, lam)
    # the closed form really solves the first-order conditions
    np.testing.assert_allclose(np.einsum("mde,me->md", A, w_loc) - b, lam * (w_g - w_loc), atol=1e-12)
    assert np.max(np.abs(tr.global_models[-1] - w_g)) < 1e-8
    assert np.max(np.abs(tr.local_models[-1] - w_loc)) < 1e-8
    # and it did move: the start is far from it
    assert np.max(np.abs(tr.global_models[0] - w_g)) > 1e-1
    assert tr.method == "fedclup" and tr.params["server"] == "eq12"
    assert tr.global_models.shape == (301, 3) and tr.local_models.shape == (301, 4, 3)
    assert tr.sampled.shape == (300, 4) and tr.sampled.all()
    np.testing.assert_array_equal(tr.grad_evals, np.full(300, 50 * 30 * 4))


# ----------------------------------------------------------------------------------------- (b)
@pytest.mark.parametrize("lam", [0.5, 0.3, 2.0])
def test_eq12_with_gamma_one_over_lambda_is_average_all(lam):
    clients, _, _ = _squared(seed=2)
    common = dict(lam=lam, gamma=1 / lam, eta=0.05, local_steps=5, rounds=40)
    w0 = np.random.default_rng(5).normal(size=3)
    a = alg.run_fedclup(clients, alg.FedCLUPParams(**common, server="eq12", w_g0=w0), np.random.default_rng(0))
    b = alg.run_fedclup(clients, alg.FedCLUPParams(**common, server="average_all", w_g0=w0), np.random.default_rng(0))
    if (1 / lam) * lam == 1.0:                    # gamma lam == 1 exactly: the same float operations
        np.testing.assert_array_equal(a.global_models, b.global_models)
        np.testing.assert_array_equal(a.local_models, b.local_models)
    np.testing.assert_allclose(a.global_models, b.global_models, rtol=0, atol=1e-14)
    np.testing.assert_allclose(a.local_models, b.local_models, rtol=0, atol=1e-14)


def test_eq12_and_average_all_differ_under_partial_participation():
    clients, _, _ = _squared(seed=2, m=6)
    common = dict(lam=0.5, gamma=2.0, eta=0.05, local_steps=5, rounds=5, sample_rate=0.5, w_g0=np.ones(3))
    a = alg.run_fedclup(clients, alg.FedCLUPParams(**common, server="eq12"), np.random.default_rng(0))
    b = alg.run_fedclup(clients, alg.FedCLUPParams(**common, server="average_all"), np.random.default_rng(0))
    np.testing.assert_array_equal(a.sampled, b.sampled)
    assert np.max(np.abs(a.global_models[-1] - b.global_models[-1])) > 1e-6


# ----------------------------------------------------------------------------------------- (c)
@pytest.mark.parametrize("server", ["eq12", "average_all"])
@pytest.mark.parametrize("rate", [1.0, 0.5])
def test_one_round_by_hand(server, rate):
    clients, X, y = _squared(seed=3, m=6)
    A, b = _moments(X, y)
    lam, gamma, eta, K = 0.7, 0.9, 0.04, 2
    rng = np.random.default_rng(11)
    w_g0 = rng.normal(size=3)
    w_loc0 = rng.normal(size=(6, 3))
    params = alg.FedCLUPParams(lam=lam, gamma=gamma, eta=eta, local_steps=K, rounds=1, sample_rate=rate,
                               server=server, w_g0=w_g0, w_local0=w_loc0)
    tr = alg.run_fedclup(clients, params, np.random.default_rng(4))
    S = np.flatnonzero(tr.sampled[0])
    assert S.size == (6 if rate == 1.0 else 3)
    expected = w_loc0.copy()
    for i in S:                                    # (13) by hand, client by client
        w = w_loc0[i].copy()
        for _ in range(K):
            w = w - eta * (A[i] @ w - b[i] + lam * (w - w_g0))
        expected[i] = w
    if server == "eq12":
        g = w_g0 - gamma * lam * np.mean([w_g0 - expected[i] for i in S], axis=0)
    else:
        g = expected.mean(axis=0)
    np.testing.assert_allclose(tr.local_models[1], expected, rtol=0, atol=1e-13)
    np.testing.assert_allclose(tr.global_models[1], g, rtol=0, atol=1e-13)
    np.testing.assert_array_equal(tr.local_models[0], w_loc0)
    np.testing.assert_array_equal(tr.global_models[0], w_g0)


def test_record_inner_holds_the_warm_starts():
    clients, _, _ = _squared(seed=3, m=6)
    params = alg.FedCLUPParams(lam=0.7, gamma=1.0, eta=0.04, local_steps=3, rounds=6, sample_rate=0.5,
                               w_g0=np.zeros(3), record_inner=True)
    tr = alg.run_fedclup(clients, params, np.random.default_rng(4))
    assert tr.inner_start.shape == (6, 6, 3)
    for t in range(6):
        s = tr.sampled[t]
        np.testing.assert_array_equal(tr.inner_start[t, s], tr.local_models[t][s])
        assert np.isnan(tr.inner_start[t, ~s]).all()
    without = dataclasses.replace(params, record_inner=False)
    assert alg.run_fedclup(clients, without, np.random.default_rng(4)).inner_start is None


class _CountingClients:
    """Forwards to a StackedClients and counts oracle calls."""

    def __init__(self, inner, counter=None):
        self.inner, self.calls, self.counter = inner, 0, counter or self
        self.m, self.n, self.shape = inner.m, inner.n, inner.shape

    def gradients(self, W, clients=None):
        self.counter.calls += 1
        return self.inner.gradients(W, clients=clients)

    def minibatch_gradients(self, W, rows, clients=None):
        self.counter.calls += 1
        return self.inner.minibatch_gradients(W, rows, clients=clients)

    def sample_rows(self, rng, batch, clients=None):
        return self.inner.sample_rows(rng, batch, clients=clients)

    def subset(self, clients):
        return _CountingClients(self.inner.subset(clients), counter=self)


@pytest.mark.parametrize("batch", [None, 5])
def test_one_batched_oracle_call_per_inner_step(batch):
    inner, _, _ = _squared(seed=3, m=8)
    clients = _CountingClients(inner)
    params = alg.FedCLUPParams(lam=1.0, gamma=1.0, eta=0.05, local_steps=4, rounds=3, batch=batch,
                               sample_rate=0.5, w_g0=np.zeros(3))
    alg.run_fedclup(clients, params, np.random.default_rng(0))
    assert clients.calls == 4 * 3


# ----------------------------------------------------------------------------------------- (d)
def test_minibatch_gradient_is_unbiased():
    clients, _, _ = _squared(seed=4, m=3, n=12)
    rng = np.random.default_rng(0)
    W = rng.normal(size=(3, 3))
    S = alg.Selection(np.arange(3)[None], 3)       # one run, all 3 clients
    oracle = alg.gradient_oracle(clients, S, 4, [rng])
    draws = np.array([oracle(W) for _ in range(20000)])
    full = clients.gradients(W)
    se = draws.std(axis=0) / np.sqrt(draws.shape[0])
    assert np.all(np.abs(draws.mean(axis=0) - full) < 5 * se)
    assert np.all(draws.std(axis=0) > 0)          # really stochastic
    # the full-data oracle is deterministic and exact
    np.testing.assert_array_equal(alg.gradient_oracle(clients, S, None, [rng])(W), full)


def test_algorithm2_draws_a_fresh_batch_at_every_inner_step():
    clients, X, y = _squared(seed=4, m=3, n=12)
    lam, eta, K, B = 0.5, 0.05, 3, 4
    params = alg.FedCLUPParams(lam=lam, gamma=2.0, eta=eta, local_steps=K, rounds=2, batch=B, w_g0=np.zeros(3))
    tr = alg.run_fedclup(clients, params, np.random.default_rng(9))
    _, rng = np.random.default_rng(9).spawn(2)     # the run's batch stream (second child)
    w_g, W = np.zeros(3), np.zeros((3, 3))
    for _ in range(2):
        for _ in range(K):
            rows = clients.sample_rows(rng, B)
            Xb = np.take_along_axis(X, rows[:, :, None], axis=1)
            yb = np.take_along_axis(y, rows, axis=1)
            g = np.einsum("mbd,mb->md", Xb, np.einsum("mbd,md->mb", Xb, W) - yb) / B
            W = W - eta * (g + lam * (W - w_g))
        w_g = W.mean(axis=0)
    np.testing.assert_allclose(tr.local_models[-1], W, rtol=0, atol=1e-13)
    np.testing.assert_allclose(tr.global_models[-1], w_g, rtol=0, atol=1e-13)
    np.testing.assert_array_equal(tr.grad_evals, [K * B * 3] * 2)


def test_batch_of_all_rows_reproduces_algorithm1():
    clients, _, _ = _squared(seed=5, n=20)
    common = dict(lam=1.0, gamma=0.8, eta=0.05, local_steps=4, rounds=10, sample_rate=0.5, w_g0=np.ones(3))
    full = alg.run_fedclup(clients, alg.FedCLUPParams(**common), np.random.default_rng(3))
    mb = alg.run_fedclup(clients, alg.FedCLUPParams(**common, batch=20), np.random.default_rng(3))
    np.testing.assert_array_equal(full.sampled, mb.sampled)    # sampling is drawn before the batches
    np.testing.assert_allclose(mb.local_models, full.local_models, rtol=0, atol=1e-12)
    np.testing.assert_allclose(mb.global_models, full.global_models, rtol=0, atol=1e-12)


# ----------------------------------------------------------------------------------------- (e)
def test_client_sampling():
    clients, _, _ = _squared(seed=6, m=10, n=10)
    params = alg.FedCLUPParams(lam=1.0, gamma=1.0, eta=0.05, local_steps=2, rounds=300, sample_rate=0.3,
                               w_g0=np.ones(3))
    tr = alg.run_fedclup(clients, params, np.random.default_rng(7))
    assert alg.sampled_count(10, 0.3) == 3
    np.testing.assert_array_equal(tr.sampled.sum(axis=1), np.full(300, 3))
    for t in range(300):
        s = tr.sampled[t]
        np.testing.assert_array_equal(tr.local_models[t + 1][~s], tr.local_models[t][~s])
        assert np.all(np.any(tr.local_models[t + 1][s] != tr.local_models[t][s], axis=1))
    counts = tr.sampled.sum(axis=0)               # uniform: each ~ Binomial(300, 0.3), mean 90, sd ~ 7.9
    assert counts.min() > 60 and counts.max() < 120
    again = alg.run_fedclup(clients, params, np.random.default_rng(7))
    np.testing.assert_array_equal(again.sampled, tr.sampled)
    np.testing.assert_array_equal(again.local_models, tr.local_models)
    np.testing.assert_array_equal(again.global_models, tr.global_models)
    other = alg.run_fedclup(clients, params, np.random.default_rng(8))
    assert not np.array_equal(other.sampled, tr.sampled)
    np.testing.assert_array_equal(tr.grad_evals, np.full(300, 2 * 10 * 3))


def test_sampled_count_rounding_and_floor_of_one():
    assert alg.sampled_count(1000, 0.1) == 100
    assert alg.sampled_count(10, 0.01) == 1
    assert alg.sampled_count(10, 0.25) == 3       # half up
    assert alg.sampled_count(7, 1.0) == 7


# ----------------------------------------------------------------------------------------- (f)
def test_local_train_converges_to_each_clients_least_squares():
    clients, X, y = _squared(seed=7)
    A, b = _moments(X, y)
    L, _, _ = _constants(A, 1.0)
    tr = alg.run_local_train(clients, alg.LocalTrainParams(eta=1 / L, local_steps=10, rounds=100, w_g0=np.zeros(3)),
                             np.random.default_rng(0))
    target = np.linalg.solve(A, b[..., None])[..., 0]
    np.testing.assert_allclose(tr.local_models[-1], target, rtol=0, atol=1e-10)
    np.testing.assert_allclose(tr.global_models[1:], tr.local_models[1:].mean(axis=1), rtol=0, atol=1e-15)
    assert tr.method == "localtrain" and tr.sampled.all()


def test_global_train_with_one_step_is_gd_on_the_average_loss():
    clients, X, y = _squared(seed=8)
    A, b = _moments(X, y)
    A_bar, b_bar = A.mean(axis=0), b.mean(axis=0)
    eta = 1 / np.linalg.eigvalsh(A_bar)[-1]
    for server in alg.GLOBALTRAIN_SERVERS:
        tr = alg.run_global_train(clients, alg.GlobalTrainParams(eta=eta, local_steps=1, rounds=400, server=server,
                                                                 w_g0=np.zeros(3)), np.random.default_rng(0))
        w = np.zeros(3)
        for t in range(5):                          # GD on (1/m) sum_i L_i, by hand
            w = w - eta * (A_bar @ w - b_bar)
            np.testing.assert_allclose(tr.global_models[t + 1], w, rtol=0, atol=1e-13)
        target = np.linalg.solve(A.sum(axis=0), b.sum(axis=0))
        np.testing.assert_allclose(tr.global_models[-1], target, rtol=0, atol=1e-10)
        assert tr.method == "globaltrain"


def test_global_train_resets_clients_and_servers_differ_under_sampling():
    clients, X, y = _squared(seed=8, m=6)
    A, b = _moments(X, y)
    p = dict(eta=0.05, local_steps=3, rounds=4, sample_rate=0.5, w_g0=np.ones(3))
    a = alg.run_global_train(clients, alg.GlobalTrainParams(**p), np.random.default_rng(1))
    c = alg.run_global_train(clients, alg.GlobalTrainParams(**p, server="average_all"), np.random.default_rng(1))
    # round 0 by hand: sampled clients start from w_g0, not from their stored model
    S = np.flatnonzero(a.sampled[0])
    W = np.ones((S.size, 3))
    for _ in range(3):
        W = W - 0.05 * (np.einsum("sde,se->sd", A[S], W) - b[S])
    np.testing.assert_allclose(a.local_models[1][S], W, rtol=0, atol=1e-13)
    np.testing.assert_allclose(a.global_models[1], W.mean(axis=0), rtol=0, atol=1e-13)
    np.testing.assert_allclose(c.global_models[1], a.local_models[1].mean(axis=0), rtol=0, atol=1e-13)
    assert np.max(np.abs(a.global_models[1] - c.global_models[1])) > 1e-6


# ----------------------------------------------------------------------------------------- (g)
def test_pfedme_with_one_local_round_solves_problem2():
    """With R = 1 and an inner solve accurate to machine precision, pFedMe's server step is gradient
    descent on F = (1/m) sum_i F_i (Lemma 2: grad F_i = lam (w - prox)); it converges to (2)'s closed form."""
    clients, X, y = _squared(seed=9, spread=2.0)
    A, b = _moments(X, y)
    lam = 5.0
    L, _, L_F = _constants(A, lam)
    params = alg.PFedMeParams(lam=lam, eta=0.5 / L_F, personal_lr=1 / (L + lam), inner_steps=40, local_rounds=1,
                              rounds=300, w_g0=np.zeros(3))
    tr = alg.run_pfedme(clients, params, np.random.default_rng(0))
    w_g, w_loc = _closed_form(A, b, lam)
    assert np.max(np.abs(tr.global_models[-1] - w_g)) < 1e-10
    assert np.max(np.abs(tr.local_models[-1] - w_loc)) < 1e-10          # theta_i = prox(w_g) -> w~_i


def test_pfedme_with_large_lambda_approaches_global_train():
    """Problem (2) tends to GlobalTrain (4) as lam -> infinity, at distance O(1/lam). pFedMe at lam = 50 with
    R = 1 (no client drift) lands within 1% of ||w_GT|| (observed 0.28%); at lam = 0.01 the distance is
    more than 10 times larger (observed 14%), so the check discriminates. With R = 5 local rounds and
    eta lam ~ 17 pFedMe has client drift (like FedAvg with several local steps): it is still within 15% of
    w_GT (observed 8.7%), and its personalized models are finite."""
    clients, X, y = _squared(seed=9, spread=2.0)
    A, b = _moments(X, y)
    w_gt = np.linalg.solve(A.sum(axis=0), b.sum(axis=0))

    def distance(lam, R):
        L, _, L_F = _constants(A, lam)
        params = alg.PFedMeParams(lam=lam, eta=0.5 / L_F, personal_lr=1 / (L + lam), inner_steps=20,
                                  local_rounds=R, beta=1.0, rounds=300, w_g0=np.zeros(3))
        tr = alg.run_pfedme(clients, params, np.random.default_rng(0))
        assert np.isfinite(tr.local_models).all() and tr.method == "pfedme"
        np.testing.assert_array_equal(tr.grad_evals, np.full(300, R * 20 * 30 * 4))
        return np.linalg.norm(tr.global_models[-1] - w_gt) / np.linalg.norm(w_gt)

    near = distance(50.0, 1)
    assert near < 0.01
    assert distance(0.01, 1) > 10 * near
    assert distance(50.0, 5) < 0.15


def test_pfedme_one_round_by_hand_with_sampling_and_beta():
    clients, X, y = _squared(seed=10, m=6)
    A, b = _moments(X, y)
    lam, eta, plr, Kp, R, beta = 2.0, 0.1, 0.05, 3, 2, 1.5
    w_g0 = np.array([0.3, -0.2, 1.0])
    params = alg.PFedMeParams(lam=lam, eta=eta, personal_lr=plr, inner_steps=Kp, local_rounds=R, beta=beta,
                              rounds=1, sample_rate=0.5, w_g0=w_g0)
    tr = alg.run_pfedme(clients, params, np.random.default_rng(2))
    S = np.flatnonzero(tr.sampled[0])
    uploads, thetas = [], tr.local_models[0].copy()
    for i in S:
        w = w_g0.copy()
        th = w_g0.copy()
        for _ in range(R):
            for _ in range(Kp):
                th = th - plr * (A[i] @ th - b[i] + lam * (th - w))
            w = w - eta * lam * (w - th)
        uploads.append(w)
        thetas[i] = th
    expected_g = (1 - beta) * w_g0 + beta * np.mean(uploads, axis=0)
    np.testing.assert_allclose(tr.global_models[1], expected_g, rtol=0, atol=1e-13)
    np.testing.assert_allclose(tr.local_models[1], thetas, rtol=0, atol=1e-13)


# ----------------------------------------------------------------------------------------- (h)
GOOD_FEDCLUP = dict(lam=1.0, gamma=1.0, eta=0.1, local_steps=2, rounds=2)


@pytest.mark.parametrize("cls, base, name, bad", [
    (alg.FedCLUPParams, GOOD_FEDCLUP, "lam", 0.0),
    (alg.FedCLUPParams, GOOD_FEDCLUP, "lam", float("nan")),
    (alg.FedCLUPParams, GOOD_FEDCLUP, "gamma", -1.0),
    (alg.FedCLUPParams, GOOD_FEDCLUP, "eta", -1.0),
    (alg.FedCLUPParams, GOOD_FEDCLUP, "eta", float("inf")),
    (alg.FedCLUPParams, GOOD_FEDCLUP, "local_steps", 0),
    (alg.FedCLUPParams, GOOD_FEDCLUP, "local_steps", 2.0),
    (alg.FedCLUPParams, GOOD_FEDCLUP, "rounds", True),
    (alg.FedCLUPParams, GOOD_FEDCLUP, "sample_rate", 1.5),
    (alg.FedCLUPParams, GOOD_FEDCLUP, "sample_rate", 0.0),
    (alg.FedCLUPParams, GOOD_FEDCLUP, "batch", 0),
    (alg.FedCLUPParams, GOOD_FEDCLUP, "server", "foo"),
    (alg.LocalTrainParams, dict(eta=0.1, local_steps=1, rounds=1), "eta", 0),
    (alg.LocalTrainParams, dict(eta=0.1, local_steps=1, rounds=1), "rounds", 0),
    (alg.GlobalTrainParams, dict(eta=0.1, local_steps=1, rounds=1), "server", "eq12"),
    (alg.GlobalTrainParams, dict(eta=0.1, local_steps=1, rounds=1), "batch", -3),
    (alg.PFedMeParams, dict(lam=1.0, eta=0.1, personal_lr=0.1, inner_steps=1, local_rounds=1, rounds=1),
     "beta", 0.0),
    (alg.PFedMeParams, dict(lam=1.0, eta=0.1, personal_lr=0.1, inner_steps=1, local_rounds=1, rounds=1),
     "personal_lr", -0.1),
    (alg.PFedMeParams, dict(lam=1.0, eta=0.1, personal_lr=0.1, inner_steps=1, local_rounds=1, rounds=1),
     "inner_steps", 0),
])
def test_bad_params_raise_config_error_naming_the_parameter(cls, base, name, bad):
    with pytest.raises(ConfigError, match=rf"^{name}="):
        cls(**{**base, "w_g0": np.zeros(3), name: bad})
    cls(**base, w_g0=np.zeros(3))                   # the base is admissible


def test_run_time_checks():
    clients, _, _ = _squared(seed=11, n=10)
    good = dict(GOOD_FEDCLUP, w_g0=np.zeros(3))
    with pytest.raises(ConfigError, match="^batch="):
        alg.run_fedclup(clients, alg.FedCLUPParams(**good, batch=11), np.random.default_rng(0))
    with pytest.raises(ConfigError, match="^w_g0="):
        alg.run_fedclup(clients, alg.FedCLUPParams(**(good | {"w_g0": np.zeros(4)})), np.random.default_rng(0))
    with pytest.raises(ConfigError, match="^w_g0="):
        alg.run_fedclup(clients, alg.FedCLUPParams(**(good | {"w_g0": np.array([0.0, np.nan, 0.0])})),
                        np.random.default_rng(0))
    with pytest.raises(ConfigError, match="^w_local0="):
        alg.run_fedclup(clients, alg.FedCLUPParams(**good, w_local0=np.zeros((3, 3))), np.random.default_rng(0))
    with pytest.raises(ConfigError, match="^rng="):
        alg.run_fedclup(clients, alg.FedCLUPParams(**good), 0)
    with pytest.raises(ConfigError, match="^params="):
        alg.run_fedclup(clients, alg.LocalTrainParams(eta=0.1, local_steps=1, rounds=1, w_g0=np.zeros(3)),
                        np.random.default_rng(0))
    with pytest.raises(ConfigError, match="^params="):
        alg.run_batch(clients, [alg.FedCLUPParams(**good), alg.LocalTrainParams(eta=0.1, local_steps=1, rounds=1,
                                                                                 w_g0=np.zeros(3))],
                      [np.random.default_rng(0), np.random.default_rng(1)])
    with pytest.raises(ConfigError, match="^w_g0="):
        alg.FedCLUPParams(**(good | {"w_g0": None}))
    with pytest.raises(TypeError, match="w_g0"):
        alg.FedCLUPParams(**GOOD_FEDCLUP)             # the initial point is part of the params
    # batch == n is admissible
    alg.run_fedclup(clients, alg.FedCLUPParams(**good, batch=10), np.random.default_rng(0))


@pytest.mark.parametrize("runner, params", [
    (alg.run_fedclup, alg.FedCLUPParams(lam=1.0, gamma=1.0, eta=1e3, local_steps=20, rounds=10, w_g0=np.ones(3))),
    (alg.run_global_train, alg.GlobalTrainParams(eta=1e3, local_steps=20, rounds=10, batch=5, w_g0=np.ones(3))),
    (alg.run_local_train, alg.LocalTrainParams(eta=1e3, local_steps=20, rounds=10, w_g0=np.ones(3))),
    (alg.run_pfedme, alg.PFedMeParams(lam=1.0, eta=1.0, personal_lr=1e3, inner_steps=20, local_rounds=2,
                                      rounds=10, w_g0=np.ones(3))),
])
def test_divergence_raises_a_clear_error(runner, params):
    clients, _, _ = _squared(seed=12)
    with pytest.raises(alg.DivergenceError) as info:
        runner(clients, params, np.random.default_rng(0))
    msg = str(info.value)
    name = {"run_fedclup": "fedclup", "run_global_train": "globaltrain", "run_local_train": "localtrain",
            "run_pfedme": "pfedme"}[runner.__name__]
    assert msg.startswith(f"{name} diverged in round ") and "eta=" in msg
    assert isinstance(info.value, FloatingPointError) and isinstance(info.value, ReproError)


def test_every_runner_has_the_algorithm_contract():
    """``run_<method>(problem, params, rng) -> Trace``: three positional parameters, the initial point in params."""
    import inspect

    for runner in (alg.run_fedclup, alg.run_local_train, alg.run_global_train, alg.run_pfedme, alg.run_batch):
        parameters = list(inspect.signature(runner).parameters.values())
        assert [p.name for p in parameters][:1] == ["problem"] and len(parameters) == 3, runner.__name__
        assert all(p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in parameters), runner.__name__
    for kind in (alg.FedCLUPParams, alg.LocalTrainParams, alg.GlobalTrainParams, alg.PFedMeParams):
        assert {"w_g0", "w_local0"} <= set(kind.__dataclass_fields__), kind.__name__


# ----------------------------------------------------------------------------------------- (i)
def test_softmax_fedclup_decreases_problem2_objective():
    rng = np.random.default_rng(13)
    m, n, p, C, lam = 4, 40, 3, 3, 0.5
    X = rng.normal(size=(m, n, p))
    W_true = rng.normal(size=(m, p, C))
    y = np.argmax(np.einsum("mnp,mpc->mnc", X, W_true) + rng.gumbel(size=(m, n, C)), axis=2)
    clients = StackedClients(X, y, "softmax", n_classes=C, ridge=0.05)
    L = clients.smoothness().max()
    L_F = lam * L / (lam + L)
    params = alg.FedCLUPParams(lam=lam, gamma=1 / L_F, eta=1 / (L + lam), local_steps=10, rounds=60,
                               w_g0=np.zeros((p, C)))
    tr = alg.run_fedclup(clients, params, np.random.default_rng(0))
    assert tr.local_models.shape == (61, m, p, C) and tr.global_models.shape == (61, p, C)

    def objective(w_g, W):
        return np.mean(clients.values(W) + 0.5 * lam * np.sum((w_g - W) ** 2, axis=(1, 2)))

    obj = np.array([objective(tr.global_models[t], tr.local_models[t]) for t in range(61)])
    assert np.all(np.diff(obj) <= 1e-12), np.diff(obj).max()
    assert obj[-1] < obj[0] - 0.1

    def fun(z):                                      # reference: L-BFGS on (2) itself
        w_g, W = z[: p * C].reshape(p, C), z[p * C:].reshape(m, p, C)
        G = clients.gradients(W)
        gW = (G + lam * (W - w_g)) / m
        gg = lam * np.mean(w_g - W, axis=0)
        return objective(w_g, W), np.concatenate([gg.ravel(), gW.ravel()])

    ref = minimize(fun, np.zeros((m + 1) * p * C), jac=True, method="L-BFGS-B",
                   options=dict(ftol=1e-15, gtol=1e-11, maxiter=5000))
    assert obj[-1] - ref.fun < 1e-8 and obj[-1] >= ref.fun - 1e-9


# ----------------------------------------------------------------------------------------- (j)
def test_no_python_loop_over_clients():
    """Loops run over rounds, local steps and pFedMe's local rounds; the only other loops are over the runs of a
    batch (their generators and parameters: one draw or one number per run) and over field names."""
    tree = ast.parse(MODULE.read_text())
    loops = [node for node in ast.walk(tree) if isinstance(node, (ast.For, ast.comprehension))]
    assert loops, "the runners loop over rounds and steps"
    per_run = {"rngs", "params", "enumerate(rngs)", "enumerate(params)", "streams", "sampling_rngs", "_SHARED"}
    kinds = set()
    for node in loops:
        src = ast.unparse(node.iter)
        assert "clients" not in src and "range(m)" not in src and ".m" not in src and "S" not in src.split("("), src
        if src.startswith("range("):
            assert src[len("range("):-1] in ("T", "steps", "p0.local_rounds"), src
            kinds.add(src)
        else:
            assert src in per_run or (src.startswith("(") and src.endswith(")") and "'" in src), src
    assert kinds == {"range(T)", "range(steps)", "range(p0.local_rounds)"}


# ----------------------------------------------------------------------------------------- extras
def test_pfedme_batch_of_all_rows_is_full_data_and_smaller_batches_are_random():
    clients, _, _ = _squared(seed=14, n=12)
    common = dict(lam=2.0, eta=0.1, personal_lr=0.05, inner_steps=3, local_rounds=2, rounds=5, sample_rate=0.5,
                  w_g0=np.ones(3))
    full = alg.run_pfedme(clients, alg.PFedMeParams(**common), np.random.default_rng(1))
    all_rows = alg.run_pfedme(clients, alg.PFedMeParams(**common, batch=12), np.random.default_rng(1))
    np.testing.assert_array_equal(full.sampled, all_rows.sampled)
    np.testing.assert_allclose(all_rows.global_models, full.global_models, rtol=0, atol=1e-12)
    np.testing.assert_allclose(all_rows.local_models, full.local_models, rtol=0, atol=1e-12)
    small = alg.run_pfedme(clients, alg.PFedMeParams(**common, batch=4), np.random.default_rng(1))
    assert np.max(np.abs(small.global_models[-1] - full.global_models[-1])) > 1e-6
    np.testing.assert_array_equal(small.grad_evals, np.full(5, 2 * 3 * 4 * 2))


def test_every_runner_handles_matrix_models():
    rng = np.random.default_rng(15)
    m, n, p, C = 5, 20, 4, 3
    X = rng.normal(size=(m, n, p))
    y = rng.integers(0, C, size=(m, n))
    clients = StackedClients(X, y, "softmax", n_classes=C)
    w0 = rng.normal(size=(p, C))
    runs = [
        alg.run_fedclup(clients, alg.FedCLUPParams(lam=1.0, gamma=1.0, eta=0.1, local_steps=3, rounds=4, batch=5,
                                                   sample_rate=0.4, server="average_all", w_g0=w0), rng),
        alg.run_local_train(clients, alg.LocalTrainParams(eta=0.1, local_steps=3, rounds=4, batch=5, w_g0=w0), rng),
        alg.run_global_train(clients, alg.GlobalTrainParams(eta=0.1, local_steps=3, rounds=4, batch=5,
                                                            sample_rate=0.4, w_g0=w0), rng),
        alg.run_pfedme(clients, alg.PFedMeParams(lam=1.0, eta=0.1, personal_lr=0.1, inner_steps=3, local_rounds=2,
                                                 rounds=4, batch=5, sample_rate=0.4, w_g0=w0), rng),
    ]
    for tr in runs:
        assert tr.global_models.shape == (5, p, C) and tr.local_models.shape == (5, m, p, C)
        assert np.isfinite(tr.local_models).all() and np.isfinite(tr.global_models).all()
        np.testing.assert_array_equal(tr.global_models[0], w0)
        assert tr.sampled.sum(axis=1).tolist() == ([m] * 4 if tr.method == "localtrain" else [2] * 4)


# ----------------------------------------------------------------------------------------- batches
def _softmax_problem(seed, m=3, n=14, p=4, C=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n, p))
    y = rng.integers(0, C, size=(m, n))
    return StackedClients(X, y, "softmax", n_classes=C, ridge=0.01)


@pytest.mark.parametrize("C", [2, 3])
def test_softmax_gradients_match_the_cross_entropy_gradient(C):
    """The binary path (C = 2: one exponential per sample) and the general path both equal the gradient of the
    mean cross-entropy computed here from scipy's softmax, and central finite differences of ``values``."""
    from scipy.special import softmax

    clients = _softmax_problem(seed=C, C=C)
    rng = np.random.default_rng(11)
    W = rng.normal(size=(clients.m,) + clients.shape)
    P = softmax(np.einsum("mnp,mpc->mnc", clients.X, W), axis=-1) - np.eye(C)[clients.y]
    reference = np.einsum("mnp,mnc->mpc", clients.X, P) / clients.n + clients.ridge * W
    np.testing.assert_allclose(clients.gradients(W), reference, rtol=1e-12, atol=1e-14)
    h, E = 1e-6, np.zeros_like(W)
    E[1, 2, 1] = h
    fd = (clients.values(W + E) - clients.values(W - E))[1] / (2 * h)
    assert abs(fd - reference[1, 2, 1]) < 1e-7


@pytest.mark.parametrize("lam", [0.0, 0.7])
def test_gradient_steps_are_the_formula_bit_for_bit_and_leave_their_inputs_alone(lam):
    """The in-place steps of ``gradient_steps`` give the bits of W <- W - lr (grad(W) + lam (W - anchor)) written
    out with temporaries, per-row step sizes included, and modify neither the start nor the anchor."""
    clients = _softmax_problem(seed=5, C=3)
    rng = np.random.default_rng(3)
    W0, anchor = (rng.normal(size=(clients.m,) + clients.shape) for _ in range(2))
    lr = rng.uniform(0.01, 0.1, size=(clients.m, 1, 1))
    kept = W0.copy(), anchor.copy()
    W = W0
    for _ in range(4):
        W = W - lr * (clients.gradients(W) + lam * (W - anchor))
    out = alg.gradient_steps(W0, clients.gradients, lr, 4, lam=lam, anchor=anchor)
    assert out.tobytes() == W.tobytes()
    assert W0.tobytes() == kept[0].tobytes() and anchor.tobytes() == kept[1].tobytes()


@pytest.mark.parametrize("method, kind, extra", [
    ("fedclup", alg.FedCLUPParams, {"gamma": 0.5, "eta": 0.05}),
    ("fedclup", alg.FedCLUPParams, {"gamma": 0.5, "eta": 0.05, "batch": 5, "sample_rate": 0.5, "server": "eq12"}),
    ("localtrain", alg.LocalTrainParams, {"eta": 0.05}),
    ("globaltrain", alg.GlobalTrainParams, {"eta": 0.05, "sample_rate": 0.7, "batch": 6}),
    ("pfedme", alg.PFedMeParams, {"eta": 0.05, "personal_lr": 0.05, "inner_steps": 2, "local_rounds": 2, "beta": 0.8,
                                  "sample_rate": 0.7, "batch": 4}),
])
def test_every_member_of_a_batch_is_the_run_computed_alone(method, kind, extra):
    """run_batch over 3 runs with their own data, lambda, step sizes and Generators gives, bit for bit, what each
    run gives alone: batching changes the speed, never a number."""
    problems = [_softmax_problem(seed) for seed in (1, 2, 3)]
    lams = (0.3, 1.0, 3.0)
    params = []
    starts = np.random.default_rng(0).normal(size=(2,) + problems[0].shape)
    for i, lam in enumerate(lams):
        fields = {"lam": lam} if "lam" in kind.__dataclass_fields__ else {}
        fields |= {k: v * (1 + 0.1 * i) if k in ("eta", "gamma", "personal_lr") else v for k, v in extra.items()}
        fields["w_g0"] = starts[min(i, 1)]             # runs 1 and 2 share a start, run 0 has its own
        params.append(kind(local_steps=3, rounds=4, **fields) if method != "pfedme" else kind(rounds=4, **fields))
    batch = alg.run_batch(StackedClients.concatenate(problems), params, [np.random.default_rng(10 + i) for i in range(3)])
    for i, (problem, p) in enumerate(zip(problems, params)):
        alone = alg.run_batch(problem, [p], [np.random.default_rng(10 + i)])[0]
        assert alone.method == method
        for field in ("global_models", "local_models", "sampled", "grad_evals"):
            assert np.array_equal(getattr(batch[i], field), getattr(alone, field)), (i, field)
    assert not np.array_equal(batch[0].global_models, batch[1].global_models)


def test_a_batch_names_the_run_that_diverges():
    problems = [_softmax_problem(seed) for seed in (1, 2)]
    params = [alg.LocalTrainParams(eta=eta, local_steps=50, rounds=30, w_g0=np.zeros(problems[0].shape))
              for eta in (0.01, 1e150)]
    with pytest.raises(ReproError, match=r"localtrain diverged in round \d+ of 30 \(run 1 of a batch of 2\).*eta=1e\+150"):
        alg.run_batch(StackedClients.concatenate(problems), params, [np.random.default_rng(0), np.random.default_rng(1)])
