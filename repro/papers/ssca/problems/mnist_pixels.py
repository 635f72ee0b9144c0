"""MNIST as float64 pixel vectors for the Section VI experiments of the mini-batch SSCA paper, a
small stand-in (scikit-learn's digits), and the IID sample split over clients.

MNIST, N = 60000 and I = 10 are those of Section VI. Choices the paper leaves open (this project's defaults):

* pixel scaling x * scale with default scale = 1/255 (the scale interacts with tau = 0.1); no
  centring, no bias feature (the network of Section V, (26), has no biases);
* the official MNIST train/test split and order are kept (the loader is :func:`repro.data.load_mnist`,
  which verifies checksums and reads from ``REPRO_DATA_DIR``);
* the IID split of the training samples over I clients with N_i = N / I.

Every returned dict has the keys ``x_train`` (N, K) float64, ``y_train`` (N,) int64, ``x_test``,
``y_test`` and ``source`` (a string naming the data set, so that results on the stand-in are labelled
as such).
"""
from __future__ import annotations

import numpy as np

from repro.data import load_mnist
from repro.errors import is_int, is_real, require

__all__ = [
    "DIGITS_SOURCE",
    "DIGITS_TRAIN_SIZE",
    "MNIST_SOURCE",
    "iid_client_split",
    "load_digits_standin",
    "load_mnist_pixels",
]

MNIST_SOURCE = "MNIST (LeCun, Cortes, Burges), official train/test split"
DIGITS_SOURCE = ("scikit-learn load_digits (8x8 UCI optical digits): a STAND-IN for fast tests, "
                 "NOT MNIST")
DIGITS_TRAIN_SIZE = 1500


def _check_scale(scale):
    require(is_real(scale) and scale > 0, "scale", scale, "a finite number > 0 (pixel multiplier)")
    return float(scale)


DTYPES = ("float64", "float32")


def load_mnist_pixels(scale: float = 1 / 255, root=None, dtype: str = "float64") -> dict:
    """MNIST images flattened to K = 784 features of ``dtype`` times ``scale`` (default x/255, a choice
    the paper leaves open): ``x_train`` (60000, 784), ``y_train`` (60000,) int64, ``x_test`` (10000, 784),
    ``y_test`` (10000,) int64, ``source``. Reads ``<root or REPRO_DATA_DIR>/mnist/`` via
    :func:`repro.data.load_mnist` (checksums verified; raises :class:`repro.errors.DataError` when
    the files are missing and downloads are disabled)."""
    scale = _check_scale(scale)
    require(dtype in DTYPES, "dtype", dtype, f"one of {DTYPES}")
    raw = load_mnist(root)
    out = {}
    for part in ("train", "test"):
        images = raw[f"x_{part}"]
        out[f"x_{part}"] = (images.reshape(images.shape[0], -1).astype(np.float64) * scale).astype(dtype, copy=False)
        out[f"y_{part}"] = raw[f"y_{part}"].astype(np.int64)
    out["source"] = MNIST_SOURCE
    return out


def load_digits_standin(scale: float = 1 / 16, dtype: str = "float64") -> dict:
    """scikit-learn's ``load_digits`` (1797 images of 8x8 pixels with values 0..16, 10 classes) as
    a small MNIST-like STAND-IN, not MNIST (for fast tests; the paper uses none): K = 64 features times ``scale``
    (default x/16, the analogue of x/255), deterministic split: the first 1500 samples are the
    training set, the remaining 297 the test set. Same keys as :func:`load_mnist_pixels`;
    ``source`` says it is a stand-in. Bundled with scikit-learn (no download)."""
    scale = _check_scale(scale)
    from sklearn.datasets import load_digits

    digits = load_digits()
    require(dtype in DTYPES, "dtype", dtype, f"one of {DTYPES}")
    x = (np.asarray(digits.data, dtype=np.float64) * scale).astype(dtype, copy=False)
    y = np.asarray(digits.target, dtype=np.int64)
    n = DIGITS_TRAIN_SIZE
    return {"x_train": x[:n], "y_train": y[:n], "x_test": x[n:], "y_test": y[n:],
            "source": DIGITS_SOURCE}


def iid_client_split(n_samples: int, n_clients: int, rng: np.random.Generator) -> np.ndarray:
    """IID split of the sample indices 0..N-1 over I clients (a choice the paper leaves open; this
    project's default): a uniformly random permutation reshaped to (I, N / I), row i = client i's index
    set N_i (N_i = N / I for all i). N must be divisible by I; truncate the data to the largest multiple
    of I otherwise."""
    require(is_int(n_clients) and n_clients >= 1, "n_clients", n_clients, "an integer >= 1")
    require(is_int(n_samples) and n_samples >= n_clients, "n_samples", n_samples,
            f"an integer >= n_clients = {n_clients}")
    require(n_samples % n_clients == 0, "n_samples", n_samples,
            f"a multiple of n_clients = {n_clients} (equal N_i); truncate the data to "
            f"{n_samples - n_samples % n_clients} samples")
    require(isinstance(rng, np.random.Generator), "rng", type(rng).__name__, "a numpy.random.Generator")
    return rng.permutation(int(n_samples)).reshape(int(n_clients), -1)
