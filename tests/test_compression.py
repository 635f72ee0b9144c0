"""Tests of repro.compression.RandK against spec section 3 (Assumption 2, Rand-K).

Moments are checked EXACTLY by enumerating every K-subset (each is equally likely under Rand-K),
not by Monte Carlo; the sampler `draw` is checked separately for shape, support and frequencies.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repro.compression import RandK

SMALL = [(d, K) for d in range(1, 8) for K in range(1, d + 1)]


def all_subsets(d: int, K: int) -> np.ndarray:
    return np.array(list(itertools.combinations(range(d), K)), dtype=np.int64).reshape(-1, K)


def reference_compress(x: np.ndarray, S) -> np.ndarray:
    """C(x)_i = (d/K) x_i 1{i in S}, written coordinate by coordinate."""
    d, K = len(x), len(S)
    out = np.zeros(d)
    for i in range(d):
        if i in set(int(s) for s in S):
            out[i] = d / K * x[i]
    return out


# ---------------------------------------------------------------------------- q_u
@pytest.mark.parametrize("d, K", SMALL + [(30, 9), (31, 9), (100, 1), (100, 100)])
def test_q_u(d, K):
    assert RandK(d, K).q_u == pytest.approx(float(Fraction(d, K) - 1), rel=1e-15, abs=1e-15)


def test_q_u_experiment_values():
    assert RandK(30, 9).q_u == pytest.approx(7 / 3)
    assert RandK(31, 9).q_u == pytest.approx(22 / 9)
    assert RandK(31, 31).q_u == 0.0


# ---------------------------------------------------------------------------- exact moments
@pytest.mark.parametrize("d, K", SMALL)
def test_exact_moments_by_enumeration(d, K):
    rng = np.random.default_rng(d * 10 + K)
    comp = RandK(d, K)
    subsets = all_subsets(d, K)
    assert len(subsets) == math.comb(d, K)
    for x in (rng.normal(size=d), np.arange(1.0, d + 1), np.eye(d)[0] * 3.0):
        X = np.broadcast_to(x, (len(subsets), d)).copy()
        C = comp.apply(X, subsets)                     # one "client" per subset
        for row, S in zip(C, subsets):                 # the vectorised apply is the definition
            np.testing.assert_array_equal(row, reference_compress(x, S))
        mean = C.mean(axis=0)
        np.testing.assert_allclose(mean, x, rtol=1e-12, atol=1e-12)              # E C(x) = x
        err = np.sum((C - x) ** 2, axis=1).mean()
        np.testing.assert_allclose(err, (d / K - 1) * np.sum(x**2), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(np.sum(C**2, axis=1).mean(), d / K * np.sum(x**2), rtol=1e-12)


def test_exact_aggregate_second_moment_two_clients():
    """Spec section 3: E||(1/n) sum_j C_j(X_j)||^2 = ||Xbar||^2 + (1/n^2) sum_j (d/K - 1)||X_j||^2,
    enumerating every pair of independent subsets (n = 2, d = 5, K = 2)."""
    d, K = 5, 2
    comp = RandK(d, K)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(2, d))
    subsets = all_subsets(d, K)
    vals = []
    for S1, S2 in itertools.product(subsets, repeat=2):
        agg = comp.apply(X, np.stack([S1, S2])).mean(axis=0)
        vals.append(np.sum(agg**2))
    expected = np.sum(X.mean(0) ** 2) + (d / K - 1) * np.sum(X**2) / 4
    assert np.mean(vals) == pytest.approx(expected, rel=1e-12)


def test_apply_does_not_modify_input_and_keeps_dtype():
    comp = RandK(6, 2)
    X = np.arange(12.0).reshape(2, 6)
    X0 = X.copy()
    out = comp.apply(X, np.array([[0, 5], [1, 2]]))
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(out, [[0, 0, 0, 0, 0, 15.0], [0, 21.0, 24.0, 0, 0, 0]])


def test_full_K_is_identity():
    comp = RandK(7, 7)
    X = np.random.default_rng(1).normal(size=(3, 7))
    sel = comp.draw(np.random.default_rng(2), 3)
    np.testing.assert_array_equal(sel, np.tile(np.arange(7), (3, 1)))
    np.testing.assert_array_equal(comp.apply(X, sel), X)


# ---------------------------------------------------------------------------- draw
@settings(max_examples=60, deadline=None)
@given(d=st.integers(1, 60), data=st.data(), n=st.integers(1, 20), seed=st.integers(0, 2**32 - 1))
def test_draw_shape_sorted_distinct_in_range(d, data, n, seed):
    K = data.draw(st.integers(1, d))
    sel = RandK(d, K).draw(np.random.default_rng(seed), n)
    assert sel.shape == (n, K)
    assert np.issubdtype(sel.dtype, np.integer)
    assert sel.min() >= 0 and sel.max() < d
    assert np.all(np.diff(sel, axis=1) > 0)          # sorted and distinct


def test_draw_inclusion_frequency():
    d, K, n, reps = 12, 5, 50, 400
    comp = RandK(d, K)
    rng = np.random.default_rng(12345)
    counts = np.zeros(d)
    for _ in range(reps):
        sel = comp.draw(rng, n)
        counts += np.bincount(sel.ravel(), minlength=d)
    freq = counts / (n * reps)
    np.testing.assert_allclose(freq, K / d, atol=0.01)   # sd ~ 0.0035 per coordinate


def test_draw_subsets_uniform():
    d, K = 5, 2
    comp = RandK(d, K)
    sel = comp.draw(np.random.default_rng(7), 50_000)
    subsets = all_subsets(d, K)
    index = {tuple(s): i for i, s in enumerate(subsets)}
    counts = np.bincount([index[tuple(r)] for r in sel], minlength=len(subsets))
    freq = counts / sel.shape[0]
    np.testing.assert_allclose(freq, 1 / len(subsets), atol=0.006)   # sd ~ 0.0013


def test_draw_independent_across_clients_and_calls():
    comp = RandK(20, 3)
    rng = np.random.default_rng(0)
    a = comp.draw(rng, 50)
    b = comp.draw(rng, 50)
    assert not np.array_equal(a, b)
    assert len({tuple(r) for r in a}) > 40             # 1140 subsets: 50 rows nearly all distinct


def test_draw_is_seeded():
    comp = RandK(31, 9)
    a = comp.draw(np.random.default_rng(42), 10)
    b = comp.draw(np.random.default_rng(42), 10)
    np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------- validation
@pytest.mark.parametrize("d, K", [(5, 6), (1, 2), (30, 31)])
def test_K_larger_than_d_raises(d, K):
    with pytest.raises(ValueError, match=r"^K="):
        RandK(d, K)


@pytest.mark.parametrize("K", [0, -1, 2.0, None, "3"])
def test_bad_K_raises(K):
    with pytest.raises(ValueError, match=r"^K="):
        RandK(5, K)
def test_bool_K_rejected():
    with pytest.raises(ValueError, match=r"^K="):
        RandK(5, True)


@pytest.mark.parametrize("d", [0, -3, 4.0])
def test_bad_dim_raises(d):
    with pytest.raises(ValueError, match=r"^dim="):
        RandK(d, 1)


def test_numpy_integers_accepted():
    comp = RandK(np.int64(10), np.int32(3))
    assert comp.q_u == pytest.approx(10 / 3 - 1)


# ---------------------------------------------------------------------------- bits
@pytest.mark.parametrize("d", [1, 2, 3, 4, 5, 8, 9, 31, 32, 33, 1000, 1024, 1025])
def test_bits_per_message(d):
    K = max(1, d // 3)
    index_bits = max(1, (d - 1).bit_length())        # ceil(log2 d), at least one bit
    assert RandK(d, K).bits_per_message() == K * (64 + index_bits)
    assert RandK(d, K).bits_per_message(float_bits=32) == K * (32 + index_bits)
