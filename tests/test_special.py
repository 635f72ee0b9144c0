"""repro.special: the in-place logistic function against scipy's expit."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.special import expit

from repro.special import logistic, logistic_inplace

finite64 = st.floats(-800.0, 800.0, allow_nan=False)


@given(arrays(np.float64, st.integers(0, 50), elements=finite64))
def test_logistic_matches_expit_in_float64(u):
    np.testing.assert_allclose(logistic(u), expit(u), rtol=1e-15, atol=1e-300)


@given(arrays(np.float32, st.integers(0, 50), elements=st.floats(-120.0, 120.0, width=32)))
def test_logistic_matches_expit_in_float32_and_keeps_the_dtype(u):
    s = logistic(u)
    assert s.dtype == np.float32
    np.testing.assert_allclose(s, expit(u), rtol=2e-6, atol=1e-30)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_logistic_limits_without_warnings(dtype):
    u = np.array([-1e4, -800.0, 0.0, 800.0, 1e4], dtype=dtype)
    with np.errstate(all="raise"):
        s = logistic(u)
    np.testing.assert_array_equal(s, np.array([0.0, 0.0, 0.5, 1.0, 1.0], dtype=dtype))


def test_logistic_inplace_overwrites_and_logistic_copies():
    u = np.array([-1.0, 0.0, 2.0])
    kept = u.copy()
    logistic(u)
    np.testing.assert_array_equal(u, kept)
    out = logistic_inplace(u)
    assert out is u
    np.testing.assert_allclose(u, expit(kept), rtol=1e-15)
