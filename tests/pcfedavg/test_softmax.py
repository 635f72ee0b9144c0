"""Tests of repro.papers.pcfedavg.problems.softmax (PC-FedAvg Section 5's softmax problem, and this project's
defaults for the choices the paper leaves open: split, preprocessing, partition, minibatches).

References are written from the definitions, naively: a Python loop over agents and samples for
the loss, central finite differences for the gradients, explicit eigenvalues for L_f.
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import pytest

from repro.errors import ConfigError, DataError
from repro.papers.pcfedavg.problems import softmax as sm

C = 4


def make_problem(preprocessing="scale", m=3, N=240, seed=0, alpha=1.0, batch_fraction=0.1,
                 partition="dirichlet"):
    rng = np.random.default_rng(seed)
    images = rng.integers(0, 256, size=(N, 3, 4), dtype=np.uint8)
    labels = rng.integers(0, C, size=N)
    return sm.from_arrays(images, labels, m=m, n_classes=C, preprocessing=preprocessing,
                          alpha=alpha, partition=partition, batch_fraction=batch_fraction)


def naive_loss(problem, i, w):
    """f_i(W) from Section 5, one sample at a time."""
    X = problem._X[problem.owner == i]
    y = problem._y[problem.owner == i]
    W = w.reshape(problem.p, problem.n_classes)
    total = 0.0
    for phi, label in zip(X, y):
        z = W.T @ phi
        total += -(z[label] - (z.max() + math.log(np.exp(z - z.max()).sum())))
    return total / X.shape[0]


@pytest.fixture(scope="module")
def problem():
    return make_problem()


def test_shapes_and_sizes(problem):
    assert problem.n == problem.p * problem.n_classes == 12 * C
    assert problem.sizes.sum() == problem.N == 240
    np.testing.assert_array_equal(problem.batch_sizes, np.ceil(problem.sizes / 10).astype(int))
    assert problem.class_histograms.shape == (3, C)
    np.testing.assert_array_equal(problem.class_histograms.sum(axis=1), problem.sizes)
    d = problem.describe()
    for key in ("dataset", "preprocessing", "partition", "alpha", "partition_seed", "sizes",
                "class_histograms", "L_f", "batch_sizes"):
        assert key in d
    json.dumps(d, allow_nan=False)


def test_values_match_definition_with_batch_axes(problem):
    rng = np.random.default_rng(1)
    Y = rng.normal(size=(2, problem.m, problem.n))
    values = problem.values(Y)
    assert values.shape == (2, problem.m)
    for b in range(2):
        for i in range(problem.m):
            assert values[b, i] == pytest.approx(naive_loss(problem, i, Y[b, i]), rel=1e-12)
    # a broadcast (shared) model takes the single-model path: same numbers as a full copy
    w = rng.normal(size=problem.n)
    shared = np.broadcast_to(w, (problem.m, problem.n))
    np.testing.assert_allclose(problem.values(shared), problem.values(shared.copy()), rtol=1e-13)
    np.testing.assert_allclose(problem.gradients(shared), problem.gradients(shared.copy()),
                               rtol=1e-12, atol=1e-15)
    assert problem.global_loss(w) == pytest.approx(problem.values(shared).mean(), rel=1e-13)


def test_loss_is_stable_for_huge_logits(problem):
    Y = 1e4 * np.random.default_rng(2).normal(size=(problem.m, problem.n))
    values, grads = problem.values_and_gradients(Y)
    assert np.all(np.isfinite(values)) and np.all(np.isfinite(grads))
    assert np.all(values >= 0)


@pytest.mark.parametrize("preprocessing", sm.PREPROCESSINGS)
def test_gradients_by_finite_differences(preprocessing):
    problem = make_problem(preprocessing)
    rng = np.random.default_rng(3)
    Y = rng.normal(size=(problem.m, problem.n))
    G = problem.gradients(Y)
    v, G2 = problem.values_and_gradients(Y)
    np.testing.assert_allclose(G2, G, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(v, problem.values(Y), rtol=1e-13)
    h = 1e-6
    E = np.eye(problem.n)                      # every coordinate of every agent at once
    plus = problem.values(Y[None] + h * E[:, None, :])
    minus = problem.values(Y[None] - h * E[:, None, :])
    fd = ((plus - minus) / (2 * h)).T          # (m, n)
    np.testing.assert_allclose(G, fd, atol=1e-7 * max(1.0, np.abs(G).max()))


def test_smoothness_constant_is_valid_and_tight():
    for preprocessing in sm.PREPROCESSINGS:
        problem = make_problem(preprocessing)
        lam = max(np.linalg.eigvalsh(problem._X[problem.owner == i].T
                                     @ problem._X[problem.owner == i]).max() / problem.sizes[i]
                  for i in range(problem.m))
        assert problem.L_f >= 0.5 * lam * (1 - 1e-9)
        assert problem.L_f <= 0.5 * lam * (1 + 1e-6)
        assert problem.L_f_certified == (preprocessing != "standardize")
        rng = np.random.default_rng(4)
        for _ in range(5):                      # ||grad f_i(x) - grad f_i(y)|| <= L_f ||x - y||
            A, B = rng.normal(size=(2, problem.m, problem.n)) * 3
            lhs = np.linalg.norm(problem.gradients(A) - problem.gradients(B), axis=1)
            assert np.all(lhs <= problem.L_f * np.linalg.norm(A - B, axis=1) * (1 + 1e-12))


def test_batches_sizes_membership_without_replacement(problem):
    rng = np.random.default_rng(5)
    counts = np.zeros(problem.N)
    draws = 400
    for _ in range(draws):
        rows, mask = problem.sample_batches(rng)
        np.testing.assert_array_equal(mask.sum(axis=1), problem.batch_sizes)
        for i in range(problem.m):
            chosen = rows[i][mask[i]]
            assert np.unique(chosen).size == chosen.size          # without replacement
            assert np.all(problem.owner[chosen] == i)             # agent i's own data
            counts[chosen] += 1
    # uniform inclusion: every sample of agent i is chosen with probability b_i / N_i
    p = (problem.batch_sizes / problem.sizes)[problem.owner]
    z = (counts - draws * p) / np.sqrt(draws * p * (1 - p))
    assert np.abs(z).max() < 5
    rows, mask = problem.sample_batches(rng, agents=[2, 0])
    np.testing.assert_array_equal(mask.sum(axis=1), problem.batch_sizes[[2, 0]])
    assert np.all(problem.owner[rows[0][mask[0]]] == 2)


def test_batch_size_is_exact_ceiling():
    problem = make_problem(N=120, m=1, batch_fraction=0.1)
    assert problem.batch_sizes.tolist() == [12]
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, size=(30, 2))
    single = sm.from_arrays(images, rng.integers(0, 2, 30), m=1, n_classes=2)
    assert single.batch_sizes.tolist() == [3]          # 0.1 * 30 = 3.0000000000000004 in floats


def test_minibatch_gradient_matches_definition(problem):
    rng = np.random.default_rng(6)
    Y = rng.normal(size=(problem.m, problem.n))
    rows, mask = problem.sample_batches(np.random.default_rng(7))
    G = problem.minibatch_gradients(Y, rows, mask)
    for i in range(problem.m):
        W = Y[i].reshape(problem.p, C)
        acc = np.zeros((problem.p, C))
        batch = rows[i][mask[i]]
        for r in batch:
            z = W.T @ problem._X[r]
            s = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
            acc += np.outer(problem._X[r], s - np.eye(C)[problem._y[r]])
        np.testing.assert_allclose(G[i], (acc / batch.size).reshape(-1), rtol=1e-12, atol=1e-15)
    # stochastic_gradients = minibatch_gradients on sample_batches, same stream
    G2 = problem.stochastic_gradients(Y, np.random.default_rng(7))
    np.testing.assert_array_equal(G, G2)


def test_stochastic_gradient_is_unbiased(problem):
    rng = np.random.default_rng(8)
    Y = rng.normal(size=(problem.m, problem.n))
    full = problem.gradients(Y)
    draws = 1500
    samples = np.stack([problem.stochastic_gradients(Y, rng) for _ in range(draws)])
    mean, se = samples.mean(axis=0), samples.std(axis=0, ddof=1) / np.sqrt(draws)
    assert np.all(np.abs(mean - full) <= 5 * se + 1e-12)
    sub = problem.stochastic_gradients(Y[[1, 2]], rng, agents=np.array([1, 2]))
    assert sub.shape == (2, problem.n)


def test_partition_covers_every_sample_once_and_is_reproducible():
    labels = np.random.default_rng(9).integers(0, 10, size=2000)
    a = sm.partition_labels(labels, 4, "dirichlet", 0.5, np.random.default_rng(0))
    b = sm.partition_labels(labels, 4, "dirichlet", 0.5, np.random.default_rng(0))
    c = sm.partition_labels(labels, 4, "dirichlet", 0.5, np.random.default_rng(1))
    assert a.shape == labels.shape and a.min() >= 0 and a.max() <= 3
    np.testing.assert_array_equal(a, b)
    assert np.any(a != c)
    hist = np.zeros((4, 10), int)
    np.add.at(hist, (a, labels), 1)
    np.testing.assert_array_equal(hist.sum(axis=0), np.bincount(labels, minlength=10))
    iid = sm.partition_labels(labels, 4, "iid", rng=np.random.default_rng(0))
    assert np.bincount(iid).tolist() == [500] * 4
    # the problem stores a permutation of its input, grouped by agent
    problem = make_problem(N=300)
    assert sorted(problem.source_index.tolist()) == list(range(300))
    assert np.all(np.diff(problem.owner) >= 0)
    again = make_problem(N=300)
    np.testing.assert_array_equal(problem.source_index, again.source_index)


def test_stratified_subsample():
    labels = np.repeat(np.arange(5), [100, 200, 300, 50, 350])
    idx = sm.stratified_subsample(labels, 100, np.random.default_rng(0))
    assert idx.size == 100 and np.unique(idx).size == 100
    np.testing.assert_array_equal(np.bincount(labels[idx]), [10, 20, 30, 5, 35])
    np.testing.assert_array_equal(idx, sm.stratified_subsample(labels, 100,
                                                               np.random.default_rng(0)))


def test_preprocessing_variants():
    images = np.array([[0, 255], [51, 102]], dtype=np.uint8)
    np.testing.assert_allclose(sm.preprocess(images, "scale"), [[0, 1], [0.2, 0.4]])
    np.testing.assert_allclose(sm.preprocess(images, "scale+bias"), [[0, 1, 1], [0.2, 0.4, 1]])
    std = sm.preprocess(np.array([[1, 5], [3, 5]]), "standardize")
    np.testing.assert_allclose(std, [[-1, 0], [1, 0]])


@pytest.mark.parametrize("kwargs, name", [
    ({"preprocessing": "center"}, "preprocessing"),
    ({"partition": "shards"}, "partition"),
    ({"alpha": 0.0}, "alpha"),
    ({"subsample": 0}, "subsample"),
    ({"batch_fraction": 0.0}, "batch_fraction"),
    ({"m": 0}, "m"),
    ({"partition_seed": -1}, "partition_seed"),
])
def test_bad_parameters_raise_config_error(kwargs, name):
    rng = np.random.default_rng(0)
    images, labels = rng.integers(0, 256, size=(50, 4)), rng.integers(0, 2, 50)
    with pytest.raises(ConfigError, match=rf"^{name}="):
        sm.from_arrays(images, labels, n_classes=2, **kwargs)


def test_bad_inputs_raise_config_error(problem):
    with pytest.raises(ConfigError, match="^Y="):
        problem.values(np.zeros((problem.m + 1, problem.n)))
    with pytest.raises(ConfigError, match="^agents="):
        problem.stochastic_gradients(np.zeros((2, problem.n)), np.random.default_rng(0),
                                     agents=[1, 1])
    with pytest.raises(ConfigError, match="^dataset="):
        sm.build("svhn")
    with pytest.raises(ConfigError, match="^assignment="):   # an agent without data
        sm.SoftmaxClients(np.ones((3, 2)), np.array([0, 1, 0]), np.array([0, 0, 0]), m=2,
                          n_classes=2)


REAL_DATA_DIR = os.environ.get("REPRO_DATA_DIR", "")


@pytest.mark.skipif(not REAL_DATA_DIR,
                    reason="platform: set REPRO_DATA_DIR to the folder holding the real datasets")
def test_real_mnist_subsample():
    if not (Path(REAL_DATA_DIR) / "mnist" / "train-images-idx3-ubyte.gz").exists():
        pytest.skip(f"platform: MNIST files not found under REPRO_DATA_DIR={REAL_DATA_DIR}")
    try:
        problem = sm.build("mnist", subsample=800)
    except DataError as error:  # pragma: no cover - depends on the data folder
        pytest.skip(f"platform: {error}")
    assert (problem.m, problem.p, problem.n_classes, problem.n) == (4, 784, 10, 7840)
    assert problem.sizes.sum() == 800 and np.all(problem.sizes >= 1)
    counts = np.bincount(problem._y, minlength=10)
    assert counts.sum() == 800 and counts.min() >= 70      # stratified (MNIST is near-balanced)
    assert problem._X.min() == 0.0 and problem._X.max() == 1.0
    assert problem.L_f_certified and problem.L_f > 0
    d = problem.describe()
    assert d["dataset"] == "mnist" and d["alpha"] == 0.5 and d["partition_seed"] == 0
    assert d["data_checksums"]
    json.dumps(d, allow_nan=False)                         # recordable with results
    rng = np.random.default_rng(0)
    Y, D = 0.01 * rng.normal(size=(2, problem.m, problem.n))
    h = 1e-5
    fd = (problem.values(Y + h * D) - problem.values(Y - h * D)) / (2 * h)
    np.testing.assert_allclose(fd, np.einsum("in,in->i", problem.gradients(Y), D), rtol=1e-6)
    assert problem.values(np.zeros((4, 7840))) == pytest.approx(np.full(4, np.log(10)))
