"""Tests of the SSCA problem oracles: the Section V swish network (27)/(37), the synthetic logistic
problems (this project's instances for Theorems 1-4), feature blocks, and the MNIST / digits loaders.

Every formulation is checked against finite differences, against itself computed the feature-based
way (client partials from own columns, (2), (16)-(17)), against the per-client stacked evaluation, and
against the full-data means. Constants and reference points are checked so that the checks can fail.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from repro.papers.ssca.problems.mnist_pixels import (
    DIGITS_SOURCE, iid_client_split, load_digits_standin, load_mnist_pixels,
)
from repro.papers.ssca.problems.instances import (
    LogisticL2, NonconvexLogistic, NonconvexWithLossLimit, NormWithLossLimit, linearly_separable,
    make_classification,
)
from repro.errors import ConfigError
from repro.papers.ssca.problems import swish_network as SN
from repro.papers.ssca.problems.swish_network import (
    CostLimited37, FeatureBlocks, ParameterBlocks, Regularized27, SwishNetwork, batch_statistics,
    client_partial_preactivations, contiguous_blocks, evaluate, random_blocks, swish, swish_prime,
)

K, J, L, N = 7, 3, 4, 30
D_LIN, N_LIN = 7, 80


# --------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def net_data():
    rng = np.random.default_rng(11)
    X = rng.standard_normal((N, K))
    y = rng.integers(0, L, N)
    return SwishNetwork(K, J, L), X, y


@pytest.fixture(scope="module")
def lin_data():
    rng = np.random.default_rng(5)
    X, y = make_classification(N_LIN, D_LIN, 0.15, rng)
    assert not linearly_separable(X, y)
    return X, y


def block_variants(k: int):
    """Contiguous (sizes differ by one), random, and very unequal blocks over k features."""
    return {
        "contiguous": contiguous_blocks(k, 3),
        "random": random_blocks(k, 3, np.random.default_rng(3)),
        "unequal": FeatureBlocks.from_columns([[k - 1], list(range(1, k - 1)), [0]], k),
    }


def build(name: str, net_data, lin_data, blocks_name: str = "contiguous"):
    net, X, y = net_data
    Xl, yl = lin_data
    if name in ("reg27", "cost37", "cost37_printed"):
        blocks = block_variants(K)[blocks_name]
        if name == "reg27":
            return Regularized27(net, X, y, 0.01, blocks)
        return CostLimited37(net, X, y, 1.0, blocks,
                             a_bar="printed" if name == "cost37_printed" else "surrogate_11")
    blocks = block_variants(D_LIN)[blocks_name]
    return {
        "nonconvex": lambda: NonconvexLogistic(Xl, yl, 0.5, blocks),
        "l2": lambda: LogisticL2(Xl, yl, 0.1, blocks),
        "normlimit": lambda: NormWithLossLimit(Xl, yl, 0.5, blocks),
        "nonconvexlimit": lambda: NonconvexWithLossLimit(Xl, yl, 0.5, 1.0, blocks),
    }[name]()


FORMULATIONS = ["reg27", "cost37", "cost37_printed", "nonconvex", "l2", "normlimit", "nonconvexlimit"]


def random_point(problem, seed=0):
    rng = np.random.default_rng(seed)
    if hasattr(problem, "net"):
        return problem.net.init(rng) * 2.0
    return rng.standard_normal(problem.dim)


def random_batch(problem, b=9, seed=1):
    rng = np.random.default_rng(seed)
    index = rng.choice(problem.n_samples, b, replace=False)
    return index, rng.uniform(0.1, 1.0, b)


def rel(a, b):
    return np.linalg.norm(np.asarray(a) - np.asarray(b)) / max(np.linalg.norm(b), 1e-300)


# --------------------------------------------------------------------------- swish

def test_swish_matches_sympy_and_finite_differences():
    z = sp.Symbol("z")
    S = z / (1 + sp.exp(-z))
    grid = np.linspace(-30, 30, 241)
    S_ref = sp.lambdify(z, S, "numpy")(grid)
    dS_ref = sp.lambdify(z, sp.diff(S, z), "numpy")(grid)
    printed = sp.lambdify(z, 1 / (1 + sp.exp(-z)) * (1 + z * sp.exp(-z) / (1 + sp.exp(-z))), "numpy")
    np.testing.assert_allclose(swish(grid), S_ref, rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(swish_prime(grid), dS_ref, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(swish_prime(grid), printed(grid), rtol=1e-12, atol=1e-14)
    h = 1e-6
    fd = (swish(grid + h) - swish(grid - h)) / (2 * h)
    np.testing.assert_allclose(swish_prime(grid), fd, rtol=1e-7, atol=1e-8)
    extreme = np.array([-1e4, -800.0, 800.0, 1e4])
    assert np.all(np.isfinite(swish(extreme))) and np.all(np.isfinite(swish_prime(extreme)))
    np.testing.assert_allclose(swish(extreme), [0, 0, 800, 1e4], atol=1e-300)
    np.testing.assert_allclose(swish_prime(extreme), [0, 0, 1, 1], atol=1e-300)


# --------------------------------------------------------------------------- network basics

def test_pack_unpack_views_and_init(net_data):
    net = net_data[0]
    assert net.dim == J * K + L * J
    rng = np.random.default_rng(0)
    omega = net.init(rng)
    W1, W2 = net.unpack(omega)
    assert W1.shape == (J, K) and W2.shape == (L, J)
    assert np.shares_memory(W1, omega) and np.shares_memory(W2, omega)
    np.testing.assert_array_equal(net.pack(W1, W2), omega)
    assert np.all(np.abs(W1) <= 1 / np.sqrt(K)) and np.all(np.abs(W2) <= 1 / np.sqrt(J))
    assert np.abs(omega).min() > 0
    big = SwishNetwork(50, 40, 3).init(np.random.default_rng(1), "normal_fan_in")
    W1b, _ = SwishNetwork(50, 40, 3).unpack(big)
    assert abs(W1b.std() * np.sqrt(50) - 1) < 0.1
    with pytest.raises(ValueError, match="scheme"):
        net.init(rng, "zeros")


def loop_statistics(net, W1, W2, X, y, w):
    """(33)-(34) summed sample by sample, class by class, straight from the printed formulas."""
    th1, th2, ce = np.zeros((net.J, net.K)), np.zeros((net.L, net.J)), 0.0
    for n in range(X.shape[0]):
        z = W1 @ X[n]
        a = W2 @ (z / (1 + np.exp(-z)))
        Q = np.exp(a - a.max()) / np.exp(a - a.max()).sum()
        Y = np.eye(net.L)[y[n]]
        ce -= w[n] * np.sum(Y * np.log(Q))
        Sp = 1 / (1 + np.exp(-z)) * (1 + z * np.exp(-z) / (1 + np.exp(-z)))
        for j in range(net.J):
            for k in range(net.K):
                th1[j, k] += w[n] * sum((Q[l] - Y[l]) * Sp[j] * W2[l, j] * X[n, k] for l in range(net.L))
            for l in range(net.L):
                th2[l, j] += w[n] * (Q[l] - Y[l]) * z[j] / (1 + np.exp(-z[j]))
    return ce, th1, th2


def test_batch_statistics_match_loop_and_finite_differences(net_data):
    net, X, y = net_data
    rng = np.random.default_rng(2)
    W1, W2 = net.unpack(net.init(rng) * 3)
    w = rng.uniform(0.1, 1, N)
    st = batch_statistics(net, W1, W2, X, y, w)
    ce, th1, th2 = loop_statistics(net, W1, W2, X, y, w)
    assert abs(st.cross_entropy - ce) <= 1e-12 * ce
    assert st.sum_y_log_q == -st.cross_entropy
    np.testing.assert_allclose(st.theta1, th1, rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(st.theta2, th2, rtol=1e-11, atol=1e-13)

    def f(omega):
        A, B = net.unpack(omega)
        return float(batch_statistics(net, A, B, X, y, w).cross_entropy)

    omega = net.pack(W1, W2)
    h = 1e-5
    fd = np.array([(f(omega + h * e) - f(omega - h * e)) / (2 * h) for e in np.eye(net.dim)])
    grad = np.concatenate([st.theta1.ravel(), st.theta2.ravel()])
    assert rel(grad, fd) < 1e-6
    Z = X @ W1.T
    logits = swish(Z) @ W2.T
    assert st.correct == np.sum(np.argmax(logits, axis=1) == y)


def test_batch_statistics_leading_axes(net_data):
    net, X, y = net_data
    rng = np.random.default_rng(4)
    omegas = np.stack([net.init(rng) for _ in range(3)])
    W1, W2 = net.unpack(omegas)
    idx = rng.integers(0, N, (3, 5))
    w = rng.uniform(0, 1, (3, 5))
    st = batch_statistics(net, W1, W2, X[idx], y[idx], w)
    for i in range(3):
        one = batch_statistics(net, W1[i], W2[i], X[idx[i]], y[idx[i]], w[i])
        np.testing.assert_allclose(st.theta1[i], one.theta1, rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(st.theta2[i], one.theta2, rtol=1e-13, atol=1e-15)
        assert np.isclose(st.cross_entropy[i], one.cross_entropy, rtol=1e-14)


def test_zero_is_stationary(net_data):
    """At omega = 0 the statistics (33)-(34) vanish exactly (S(0) = 0; this project's derivation)."""
    net, X, y = net_data
    st = batch_statistics(net, np.zeros((J, K)), np.zeros((L, J)), X, y, np.ones(N))
    assert np.all(st.theta1 == 0) and np.all(st.theta2 == 0)
    assert np.isclose(st.cross_entropy, N * np.log(L))


def test_evaluate_chunked(net_data):
    net, X, y = net_data
    omega = net.init(np.random.default_rng(6)) * 3
    W1, W2 = net.unpack(omega)
    full = evaluate(net, omega, X, y, chunk=N)
    assert evaluate(net, omega, X, y, chunk=7) == pytest.approx(full, rel=1e-13)
    st = batch_statistics(net, W1, W2, X, y, np.full(N, 1 / N))
    assert full["cost"] == pytest.approx(float(st.cross_entropy), rel=1e-13)
    assert full["accuracy"] == st.correct / N


def test_an_evaluation_set_leaves_out_only_the_columns_zero_in_every_sample(net_data):
    """Pixels that are zero in every sample add exact zeros: leaving them out changes the metrics by rounding only,
    and a column that is nonzero in one sample must stay (here the first row carries the only nonzero of column 2)."""
    net, X, y = net_data
    X = X.copy()
    X[:, [0, 4]] = 0.0
    X[:, 2] = 0.0
    X[0, 2] = 3.0
    kept = SN.evaluation_set(X, y)
    np.testing.assert_array_equal(kept.columns, [1, 2, 3, 5, 6])
    omega = net.init(np.random.default_rng(6)) * 3
    full = evaluate(net, omega, X, y)
    assert evaluate(net, omega, kept.X, kept.y, chunk=7, columns=kept.columns) == pytest.approx(full, rel=1e-13)
    for bad in ([1, 2], [2, 1, 3, 5, 6], [1, 2, 3, 5, K], [0.5, 2, 3, 5, 6], [1, 2, 2, 5, 6], [[1], [2, 3], 5, 6, 7],
                np.array([6, 5, 3, 2, 1], dtype=np.uint64), np.array([1, 2, 3, 5, 2**63 + 6], dtype=np.uint64)):
        with pytest.raises(ConfigError, match="columns|X="):
            evaluate(net, omega, kept.X, kept.y, columns=bad)


# --------------------------------------------------------------------------- blocks

def test_contiguous_and_random_blocks():
    b = contiguous_blocks(784, 10)
    assert b.sizes.tolist() == [79] * 4 + [78] * 6
    np.testing.assert_array_equal(b.columns(0), np.arange(79))
    np.testing.assert_array_equal(b.columns(9), np.arange(706, 784))
    r = random_blocks(784, 10, np.random.default_rng(0))
    assert r.sizes.tolist() == b.sizes.tolist()
    assert np.array_equal(np.sort(r.index[r.mask]), np.arange(784))
    assert not np.array_equal(r.index, b.index)
    np.testing.assert_array_equal(r.owner()[r.columns(3)], 3)
    with pytest.raises(ValueError, match="I="):
        contiguous_blocks(5, 6)
    with pytest.raises(ValueError, match="index"):
        FeatureBlocks.from_columns([[0, 1], [1, 2]], 3)


def test_client_partials_read_each_clients_own_columns_in_any_order(net_data):
    """A block of consecutive columns is read as a view, any other block by its indices, whatever their order."""
    net, X, _ = net_data
    W1, _ = net.unpack(net.init(np.random.default_rng(7)))
    blocks = FeatureBlocks(K, [[1, 5, 0, 4], [2, 3, 0, 0], [6, 0, 0, 0]],
                           [[True] * 4, [True, True, False, False], [True, False, False, False]])
    assert blocks.own_columns[0].tolist() == [1, 5, 0, 4] and blocks.own_columns[1:] == (slice(2, 4), slice(6, 7))
    P = blocks.partials(X, W1)
    for i, cols in enumerate(([1, 5, 0, 4], [2, 3], [6])):
        np.testing.assert_allclose(P[i], X[:, cols] @ W1[:, cols].T, rtol=1e-13, atol=1e-14)


def test_client_partials_use_own_columns(net_data):
    net, X, _ = net_data
    W1, _ = net.unpack(net.init(np.random.default_rng(7)))
    blocks = block_variants(K)["unequal"]
    P = client_partial_preactivations(W1, X, blocks)
    assert P.shape == (3, N, J)
    np.testing.assert_allclose(P.sum(axis=0), X @ W1.T, rtol=1e-13, atol=1e-14)
    X2 = X.copy()
    X2[:, blocks.columns(1)] += 5.0            # change only client 1's features
    P2 = client_partial_preactivations(W1, X2, blocks)
    np.testing.assert_array_equal(P2[[0, 2]], P[[0, 2]])
    assert not np.allclose(P2[1], P[1])


def test_parameter_blocks_partition_omega(net_data):
    net = net_data[0]
    for blocks in block_variants(K).values():
        pb = ParameterBlocks.network(net, blocks)
        every = np.concatenate([pb.server, pb.clients[pb.mask]])
        assert np.array_equal(np.sort(every), np.arange(net.dim))
        W1 = np.arange(J * K).reshape(J, K)
        for i in range(3):
            np.testing.assert_array_equal(np.sort(pb.clients[i][pb.mask[i]]),
                                          np.sort(W1[:, blocks.columns(i)].ravel()))


# --------------------------------------------------------------------------- protocol, every formulation

@pytest.mark.parametrize("name", FORMULATIONS)
def test_gradients_match_finite_differences(name, net_data, lin_data):
    p = build(name, net_data, lin_data)
    omega = random_point(p)
    index, weights = random_batch(p)
    values, grads = p.batch_sums(omega, index, weights)
    assert values.shape == (p.n_constraints + 1,) and grads.shape == (p.n_constraints + 1, p.dim)
    h = 1e-5
    fd = np.array([(p.batch_sums(omega + h * e, index, weights)[0]
                    - p.batch_sums(omega - h * e, index, weights)[0]) / (2 * h)
                   for e in np.eye(p.dim)]).T                      # (M+1, d)
    sign = -1.0 if name == "cost37_printed" else 1.0             # printed (32): value sign flipped only
    for m in range(p.n_constraints + 1):
        expected = fd[m] * (sign if m >= 1 else 1.0)
        assert rel(grads[m], expected) < 1e-6, (name, m)


@pytest.mark.parametrize("name", FORMULATIONS)
def test_full_values_equal_batch_sums_over_all(name, net_data, lin_data):
    p = build(name, net_data, lin_data)
    omega = random_point(p, 3)
    n = p.n_samples
    v, g = p.batch_sums(omega, np.arange(n), np.full(n, 1 / n))
    p.chunk = 7                                                  # force several chunks
    vf, gf = p.full_values_and_grads(omega)
    np.testing.assert_allclose(vf, v, rtol=1e-12)
    np.testing.assert_allclose(gf, g, rtol=1e-11, atol=1e-14)
    assert p.constraint_levels.shape == (p.n_constraints,)
    np.testing.assert_allclose(p.constraint_values(omega), vf[1:] - p.constraint_levels)
    if p.exact_objective_weight is not None:
        assert vf[0] == pytest.approx(p.exact_objective_weight * omega @ omega, rel=1e-13)
        np.testing.assert_allclose(gf[0], 2 * p.exact_objective_weight * omega, rtol=1e-13)


@pytest.mark.parametrize("blocks_name", ["contiguous", "random", "unequal"])
@pytest.mark.parametrize("name", FORMULATIONS)
def test_block_batch_sums_equal_batch_sums(name, blocks_name, net_data, lin_data):
    p = build(name, net_data, lin_data, blocks_name)
    omega = random_point(p, 4)
    index, weights = random_batch(p, b=13, seed=5)
    v, g = p.batch_sums(omega, index, weights)
    vb, gb = p.block_batch_sums(omega, index, weights)
    assert rel(vb, v) < 1e-12
    for m in range(p.n_constraints + 1):
        assert rel(gb[m], g[m]) < 1e-12


@pytest.mark.parametrize("name", FORMULATIONS)
def test_stacked_objective_grads_match_per_client(name, net_data, lin_data):
    p = build(name, net_data, lin_data)
    rng = np.random.default_rng(9)
    I, b = 4, 6
    index = rng.integers(0, p.n_samples, (I, b))
    weights = rng.uniform(0.1, 1, (I, b))
    same = np.tile(random_point(p, 10), (I, 1))
    different = np.stack([random_point(p, 20 + i) for i in range(I)])
    for omegas in (same, different):
        G = p.stacked_objective_grads(omegas, index, weights)
        assert G.shape == (I, p.dim)
        for i in range(I):
            np.testing.assert_allclose(G[i], p.batch_sums(omegas[i], index[i], weights[i])[1][0],
                                       rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("E", [1, 2, 3])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_the_factored_fedavg_round_is_the_round_of_client_models(E, dtype, net_data):
    """Regularized27.fedavg_round (no client model formed) equals E steps W -= r stacked_objective_grads(W) of the
    I client models from w followed by their weighted average, up to rounding of the features' dtype."""
    net, X, y = net_data
    p = Regularized27(net, X.astype(dtype), y, 1e-2, contiguous_blocks(K, 3))
    rng = np.random.default_rng(31)
    I, b, r = 3, 5, 0.37
    index, weights = rng.integers(0, p.n_samples, (E, I, b)), rng.uniform(0.1, 1, (I, b))
    client_weights = rng.dirichlet(np.ones(I))
    w = random_point(p, 40)
    W = np.repeat(w[None], I, axis=0)
    for e in range(E):
        W = W - r * p.stacked_objective_grads(W, index[e], weights)
    expected = client_weights @ W
    got = p.fedavg_round(w, index, weights, client_weights, r)
    tol = 1e-12 if dtype == "float64" else 1e-5
    assert np.max(np.abs(got - expected)) <= tol * np.max(np.abs(expected - w))
    assert np.max(np.abs(expected - w)) > 1e-3                                      # the round moved the model
    with pytest.raises(ConfigError, match="index"):
        p.fedavg_round(w, index[0], weights, client_weights, r)


def test_cost_limited_printed_flips_value_sign_only(net_data, lin_data):
    a = build("cost37", net_data, lin_data)
    b = build("cost37_printed", net_data, lin_data)
    omega = random_point(a, 12)
    index, weights = random_batch(a)
    va, ga = a.batch_sums(omega, index, weights)
    vb, gb = b.batch_sums(omega, index, weights)
    assert va[1] > 0 and vb[1] == -va[1] and vb[0] == va[0]
    np.testing.assert_array_equal(gb, ga)
    assert a.exact_objective_weight == 1.0 and a.constraint_levels.tolist() == [1.0]
    assert b.block_batch_sums(omega, index, weights)[0][1] == pytest.approx(-va[1], rel=1e-12)


# --------------------------------------------------------------------------- constants and reference points

def test_lipschitz_constant_of_nonconvex_logistic(lin_data):
    X, y = lin_data
    p = NonconvexLogistic(X, y, 0.5, contiguous_blocks(D_LIN, 3))
    L_hat = p.lipschitz_gradient()
    assert L_hat == pytest.approx(np.linalg.eigvalsh(X.T @ X)[-1] / (4 * N_LIN) + 1.0, rel=1e-12)
    rng = np.random.default_rng(13)

    def grad(w):
        return p.full_values_and_grads(w)[1][0]

    ratios = []
    for scale in (0.1, 1.0, 3.0):
        for _ in range(60):
            a = rng.standard_normal(D_LIN) * scale
            b = a + rng.standard_normal(D_LIN) * scale * rng.uniform(0.01, 1)
            ratios.append(np.linalg.norm(grad(a) - grad(b)) / np.linalg.norm(a - b))
    # the direction where the bound is attained: w = 0 along the top eigenvector of X^T X
    v = np.linalg.eigh(X.T @ X)[1][:, -1]
    near = np.linalg.norm(grad(1e-4 * v) - grad(-1e-4 * v)) / (2e-4)
    ratios.append(near)
    ratios = np.array(ratios)
    assert np.all(ratios <= L_hat * (1 + 1e-9))
    assert ratios.max() >= L_hat / 3
    assert near >= L_hat * (1 - 1e-6)
    assert np.any(ratios > L_hat / 2)          # a constant half as large would be refuted


def test_lipschitz_constants_are_upper_bounds_for_all_linear(lin_data):
    X, y = lin_data
    rng = np.random.default_rng(14)
    for p in (LogisticL2(X, y, 0.1, contiguous_blocks(D_LIN, 2)),
              NormWithLossLimit(X, y, 0.5, contiguous_blocks(D_LIN, 2)),
              NonconvexWithLossLimit(X, y, 0.5, 1.0, contiguous_blocks(D_LIN, 2))):
        Ls = p.lipschitz_gradients()
        assert Ls.shape == (p.n_constraints + 1,)
        for _ in range(40):
            a, b = rng.standard_normal((2, D_LIN)) * 2
            ga, gb = p.full_values_and_grads(a)[1], p.full_values_and_grads(b)[1]
            assert np.all(np.linalg.norm(ga - gb, axis=1) <= Ls * np.linalg.norm(a - b) * (1 + 1e-9))


def test_reference_stationary_points(lin_data):
    X, y = lin_data
    blocks = contiguous_blocks(D_LIN, 3)
    for p in (NonconvexLogistic(X, y, 0.5, blocks), LogisticL2(X, y, 0.1, blocks)):
        sp_ = p.reference_stationary_point(np.ones(D_LIN))
        assert sp_.tolerance == 1e-10 and sp_.grad_norm <= sp_.tolerance
        assert np.linalg.norm(p.full_values_and_grads(sp_.w)[1][0]) <= 1e-10
    l2 = LogisticL2(X, y, 0.1, blocks)
    w_a = l2.reference_stationary_point().w
    w_b = l2.reference_stationary_point(5 * np.ones(D_LIN)).w
    np.testing.assert_allclose(w_a, w_b, atol=1e-9)          # unique (strongly convex)


def test_reference_kkt_points(lin_data):
    X, y = lin_data
    blocks = contiguous_blocks(D_LIN, 3)
    U = 0.5 * (NormWithLossLimit(X, y, 0.5, blocks).minimal_loss() + np.log(2))
    assert U < np.log(2) - 0.02
    for p in (NormWithLossLimit(X, y, U, blocks), NonconvexWithLossLimit(X, y, U, 1.0, blocks)):
        kkt = p.reference_kkt_point()
        assert kkt.multiplier > 0
        values, grads = p.full_values_and_grads(kkt.w)
        assert np.linalg.norm(grads[0] + kkt.multiplier * grads[1]) <= 1e-9
        assert abs(values[1] - p.U) <= 1e-9                       # active constraint
        assert max(kkt.residuals.values()) <= kkt.tolerance
    p = NormWithLossLimit(X, y, 0.8, blocks)                      # U >= log 2: w = 0 is optimal
    kkt = p.reference_kkt_point()
    assert np.all(kkt.w == 0) and kkt.multiplier == 0


def test_norm_limit_kkt_agrees_with_a_second_solver(lin_data):
    """(w*, pi*) from cvxpy equals the SLSQP solution of the same convex problem."""
    import scipy.optimize

    X, y = lin_data
    p = NormWithLossLimit(X, y, 0.5, contiguous_blocks(D_LIN, 3))
    p = NormWithLossLimit(X, y, 0.5 * (p.minimal_loss() + np.log(2)), contiguous_blocks(D_LIN, 3))
    kkt = p.reference_kkt_point()
    res = scipy.optimize.minimize(lambda w: w @ w, np.ones(D_LIN), jac=lambda w: 2 * w, method="SLSQP",
                                  constraints=[{"type": "ineq",
                                                "fun": lambda w: p.U - p.full_values_and_grads(w)[0][1]}],
                                  options={"ftol": 1e-14, "maxiter": 500})
    np.testing.assert_allclose(res.x, kkt.w, atol=1e-5)


# --------------------------------------------------------------------------- bad inputs

def test_bad_inputs_raise_value_error_naming_the_parameter(net_data, lin_data):
    net, X, y = net_data
    Xl, yl = lin_data
    bk = contiguous_blocks(K, 3)
    bl = contiguous_blocks(D_LIN, 3)
    cases = [
        ("lam", lambda: Regularized27(net, X, y, 0.0, bk)),
        ("U", lambda: CostLimited37(net, X, y, -1.0, bk)),
        ("a_bar", lambda: CostLimited37(net, X, y, 1.0, bk, a_bar="paper")),
        ("y", lambda: Regularized27(net, X, np.full(N, L), 0.1, bk)),
        ("X", lambda: Regularized27(net, np.where(X > 1, np.nan, X), y, 0.1, bk)),
        ("X", lambda: Regularized27(net, X[:, :5], y, 0.1, contiguous_blocks(5, 2))),
        ("blocks.n_features", lambda: Regularized27(net, X, y, 0.1, contiguous_blocks(6, 2))),
        ("K", lambda: SwishNetwork(0, 2, 2)),
        ("L", lambda: SwishNetwork(3, 2, 1)),
        ("reg", lambda: NonconvexLogistic(Xl, yl, -1.0, bl)),
        ("reg", lambda: NonconvexWithLossLimit(Xl, yl, 0.5, 0.0, bl)),
        ("y", lambda: LogisticL2(Xl, (yl > 0).astype(float), 0.1, bl)),
        ("U", lambda: NormWithLossLimit(Xl, yl, 0.0, bl)),
        ("flip", lambda: make_classification(10, 2, 0.6, np.random.default_rng(0))),
        ("n_samples", lambda: iid_client_split(101, 10, np.random.default_rng(0))),
        ("scale", lambda: load_digits_standin(scale=0.0)),
    ]
    for name, make in cases:
        with pytest.raises(ValueError) as err:
            make()
        assert str(err.value).startswith(f"{name}="), (name, str(err.value))
    p = Regularized27(net, X, y, 0.1, bk)
    omega = np.zeros(net.dim)
    calls = [
        ("omega", lambda: p.batch_sums(np.zeros(3), [0], [1.0])),
        ("index", lambda: p.batch_sums(omega, [N], [1.0])),
        ("index", lambda: p.block_batch_sums(omega, [0.5], [1.0])),
        ("weights", lambda: p.batch_sums(omega, [0, 1], [1.0])),
        ("weights", lambda: p.batch_sums(omega, [0], [np.inf])),
        ("omegas", lambda: p.stacked_objective_grads(np.zeros((2, 3)), [[0], [1]], [[1.0], [1.0]])),
        ("index", lambda: p.stacked_objective_grads(np.zeros((2, net.dim)), [[0]], [[1.0]])),
    ]
    for name, call in calls:
        with pytest.raises(ValueError) as err:
            call()
        assert str(err.value).startswith(f"{name}="), (name, str(err.value))
    assert "truncate" in str(pytest.raises(ValueError, iid_client_split, 101, 10,
                                           np.random.default_rng(0)).value)


# --------------------------------------------------------------------------- data

def test_digits_standin_and_iid_split():
    d = load_digits_standin()
    assert d["x_train"].shape == (1500, 64) and d["x_test"].shape == (297, 64)
    assert d["y_train"].shape == (1500,) and d["y_test"].shape == (297,)
    assert d["x_train"].dtype == np.float64 and d["y_train"].dtype == np.int64
    assert d["x_train"].max() == 1.0 and d["x_train"].min() == 0.0
    assert d["source"] == DIGITS_SOURCE and "NOT MNIST" in d["source"]
    split = iid_client_split(1500, 10, np.random.default_rng(0))
    assert split.shape == (10, 150)
    assert np.array_equal(np.sort(split.ravel()), np.arange(1500))
    again = iid_client_split(1500, 10, np.random.default_rng(0))
    np.testing.assert_array_equal(split, again)


def test_network_trains_on_digits_standin():
    """A few full-gradient steps on (27) decrease the training cost on the stand-in data."""
    d = load_digits_standin()
    net = SwishNetwork(64, 16, 10)
    p = Regularized27(net, d["x_train"], d["y_train"], 1e-5, contiguous_blocks(64, 10))
    omega = net.init(np.random.default_rng(0))
    start = p.evaluate(omega)["cost"]
    for _ in range(30):
        omega = omega - 1.0 * p.full_values_and_grads(omega)[1][0]
    assert p.evaluate(omega)["cost"] < start - 0.1


REAL_DATA_DIR = os.environ.get("REPRO_DATA_DIR", "")
needs_mnist = pytest.mark.skipif(
    not (REAL_DATA_DIR and (Path(REAL_DATA_DIR) / "mnist").is_dir()),
    reason="platform: set REPRO_DATA_DIR to the folder holding mnist/")


@needs_mnist
def test_load_mnist_pixels():
    d = load_mnist_pixels(root=REAL_DATA_DIR)
    assert d["x_train"].shape == (60000, 784) and d["x_test"].shape == (10000, 784)
    assert d["y_train"].dtype == np.int64 and d["x_train"].dtype == np.float64
    assert d["x_train"].min() == 0.0 and d["x_train"].max() == 1.0
    assert np.bincount(d["y_test"]).sum() == 10000
