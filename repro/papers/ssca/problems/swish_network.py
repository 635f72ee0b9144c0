"""The three-layer swish network of Section V of the mini-batch SSCA paper, as an oracle for SSCA.

Equation numbers are the paper's: the model is Section V's (25)-(26), the formulations those of Sections V-A
((27)-(36)) and V-B ((37)-(39)).

Model (Section V): K inputs, J hidden swish units S(z) = z / (1 + e^{-z}), L softmax outputs, **no bias
terms** (as in the paper). Parameters omega = (W1, W2) with W1 (J, K) and W2 (L, J), stored flat as
``omega = [W1.ravel(), W2.ravel()]`` so d = J K + L J. The per-sample loss is the cross-entropy
CE_n(omega) = -sum_l y_{n,l} log Q_l(omega, x_n) with Q from (26); F in (25) is its mean.

The oracle protocol used by the SSCA algorithms (sample-based Algorithms 1–2 and feature-based
Algorithms 3–4) is documented on :class:`FiniteSumProblem`. Two formulations implement it:

* :class:`Regularized27`  — (27): f_0(omega, x_n) = CE_n(omega) + lam ||omega||^2, no constraint;
* :class:`CostLimited37`  — (37): f_0 = ||omega||^2 (data-free, used exactly by the server as in
  (38)), one constraint phi_1 = CE_n with level U.

Feature-based block structure (as the messages of Algorithms 3-4 in Section V imply it, with (2)): the
K input features are partitioned over I clients (:class:`FeatureBlocks`); the server block is
omega_0 = W2 and client i's block omega_i is the columns W1[:, K_i] of its own features; client i's
partial quantity is h_{0,i}(omega_i, x_{n,i}) = W1[:, K_i] x_{n,K_i} in R^J, the client-i part of the
hidden pre-activation z_n = W1 x_n. :meth:`FiniteSumProblem.block_batch_sums` computes the oracle this
way (each client's partials from its own feature columns, summed, then the chain rule (16)–(17)).

Assumptions named here (choices the paper leaves open; this project's defaults):

* input preprocessing (e.g. the x/255 pixel scaling) is done by the caller: the
  formulations use ``X`` as given;
* the feature partition (contiguous or random blocks, :func:`contiguous_blocks`,
  :func:`random_blocks`) is a choice of the experiment;
* the initialization is random (:meth:`SwishNetwork.init`) because omega = 0 is stationary (S(0) = 0, so
  every batch statistic (33)-(34) vanishes there: this project's derivation from the printed formulas);
* labels are integers 0..L-1 (the one-hot y_{n,l} of Section V is formed internally).

Precision: parameters, statistics returned to the algorithms and every theorem check are float64. A
problem built on float32 features (``X`` of dtype float32: the MNIST figure runs, whose config says so)
computes its network products in float32 (the weights are rounded to float32 inside the oracle) and
returns the gradients in float64; its values are accumulated in float64. The batched linear algebra (forward/backward pass of a 3-layer net with the
printed statistics (33)–(34), the padded block layout) is hand-written with numpy because no
library in the environment provides it (there is no autodiff framework in the project).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from scipy.special import log_softmax

from repro.errors import is_int, is_real, require
from repro.scratch import work_array
from repro.special import logistic

__all__ = [
    "A_BAR_CHOICES",
    "INIT_SCHEMES",
    "CostLimited37",
    "EvaluationSet",
    "FeatureBlocks",
    "FiniteSumProblem",
    "NetworkStats",
    "ParameterBlocks",
    "Regularized27",
    "SwishNetwork",
    "batch_statistics",
    "check_blocks",
    "check_data",
    "check_omega",
    "client_partial_preactivations",
    "contiguous_blocks",
    "evaluate",
    "evaluation_set",
    "random_blocks",
    "swish",
    "swish_prime",
]

INIT_SCHEMES = ("uniform_fan_in", "normal_fan_in")
A_BAR_CHOICES = ("surrogate_11", "printed")
DEFAULT_CHUNK = 8192


# --------------------------------------------------------------------------- activation

def _floating(x) -> np.ndarray:
    """``x`` as an array of its own floating dtype (float32 stays float32), anything else as float64."""
    x = np.asarray(x)
    return x if x.dtype in (np.float32, np.float64) else x.astype(np.float64)


def swish(z):
    """S(z) = z / (1 + e^{-z}) = z expit(z) (Section V), the logistic factor from :func:`repro.special.logistic`
    (numpy's vectorised exp; 1 / (1 + inf) = 0 for very negative z, so S stays finite)."""
    z = _floating(z)
    s = logistic(z)
    s *= z
    return s


def swish_prime(z):
    """S'(z) = (1/(1+e^{-z})) (1 + z e^{-z}/(1+e^{-z})) as printed in Section V-A, i.e.
    expit(z) (1 + z (1 - expit(z))), using e^{-z}/(1+e^{-z}) = 1 - expit(z) (stable for all z)."""
    z = _floating(z)
    s = logistic(z)
    return s * (1.0 + z * (1.0 - s))


# --------------------------------------------------------------------------- network

@dataclass(frozen=True)
class SwishNetwork:
    """Architecture of the Section V network: K inputs, J swish hidden units, L softmax outputs, no
    biases (Section V, (26)). ``omega = [W1.ravel(), W2.ravel()]`` with W1 (J, K), W2 (L, J); d = J K + L J."""

    K: int
    J: int
    L: int

    def __post_init__(self):
        require(is_int(self.K) and self.K >= 1, "K", self.K, "an integer >= 1 (number of inputs)")
        require(is_int(self.J) and self.J >= 1, "J", self.J, "an integer >= 1 (hidden units)")
        require(is_int(self.L) and self.L >= 2, "L", self.L, "an integer >= 2 (number of classes)")

    @property
    def dim(self) -> int:
        """d = J K + L J (Section V)."""
        return self.J * self.K + self.L * self.J

    def pack(self, W1, W2) -> np.ndarray:
        """omega = [W1.ravel(), W2.ravel()] (a new float64 vector)."""
        W1 = np.asarray(W1, dtype=np.float64)
        W2 = np.asarray(W2, dtype=np.float64)
        require(W1.shape == (self.J, self.K), "W1", W1.shape, f"shape (J, K) = {(self.J, self.K)}")
        require(W2.shape == (self.L, self.J), "W2", W2.shape, f"shape (L, J) = {(self.L, self.J)}")
        return np.concatenate([W1.ravel(), W2.ravel()])

    def unpack(self, omega) -> tuple[np.ndarray, np.ndarray]:
        """(W1 (..., J, K), W2 (..., L, J)) as views of ``omega`` (..., d) (no copies when omega is a
        contiguous float64 array); leading axes (e.g. one model per client) are kept."""
        omega = np.asarray(omega, dtype=np.float64)
        require(omega.ndim >= 1 and omega.shape[-1] == self.dim, "omega", omega.shape,
                f"an array whose last axis has length d = {self.dim}")
        lead = omega.shape[:-1]
        jk = self.J * self.K
        W1 = omega[..., :jk].reshape(lead + (self.J, self.K))
        W2 = omega[..., jk:].reshape(lead + (self.L, self.J))
        return W1, W2

    def init(self, rng: np.random.Generator, scheme: str = "uniform_fan_in") -> np.ndarray:
        """A random initial omega^(1) (a choice the paper leaves open; omega = 0 is stationary: see the
        module docstring).

        ``"uniform_fan_in"``: every weight ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = K for W1
        and J for W2; ``"normal_fan_in"``: N(0, 1/fan_in)."""
        require(isinstance(rng, np.random.Generator), "rng", type(rng).__name__,
                "a numpy.random.Generator")
        require(scheme in INIT_SCHEMES, "scheme", scheme, f"one of {', '.join(INIT_SCHEMES)}")
        jk = self.J * self.K
        scale = np.concatenate([np.full(jk, 1.0 / np.sqrt(self.K)),
                                np.full(self.L * self.J, 1.0 / np.sqrt(self.J))])
        if scheme == "uniform_fan_in":
            return rng.uniform(-1.0, 1.0, self.dim) * scale
        return rng.standard_normal(self.dim) * scale


class NetworkStats(NamedTuple):
    """Weighted batch statistics of the network (leading batch axes allowed, see
    :func:`batch_statistics`)."""

    cross_entropy: np.ndarray  # (...,) sum_n w_n CE_n
    sum_y_log_q: np.ndarray    # (...,) sum_n w_n sum_l y_{n,l} log Q_l = -cross_entropy: the (32) quantity
    theta1: np.ndarray         # (..., J, K) (33) with weights w_n: d/dW1 of the weighted cross-entropy
    theta2: np.ndarray         # (..., L, J) (34) with weights w_n: d/dW2 of the weighted cross-entropy
    correct: np.ndarray        # (...,) number of argmax hits (unweighted)


def _check_labels(y, n_classes: int, name: str = "y") -> np.ndarray:
    y = np.asarray(y)
    require(np.issubdtype(y.dtype, np.integer), name, str(y.dtype), "integer class labels")
    if y.size:
        lo, hi = int(y.min()), int(y.max())
        require(lo >= 0 and hi < n_classes, name, f"labels in [{lo}, {hi}]",
                f"integer labels in 0..{n_classes - 1}")
    return y


def _forward(H, W2, y, weights):
    """Forward pass from the hidden activations H = S(Z) (..., b, J): log P = log_softmax(H W2^T).

    Returns (log P (..., b, L), weighted cross-entropy sum, number of argmax hits)."""
    logits = np.matmul(H, np.swapaxes(W2, -1, -2))                       # (..., b, L)
    logq = log_softmax(logits, axis=-1)
    log_q_true = np.take_along_axis(logq, y[..., None], axis=-1)[..., 0]  # (..., b)
    cross_entropy = -np.sum(weights * log_q_true, axis=-1)
    correct = np.sum(np.argmax(logits, axis=-1) == y, axis=-1)
    return logq, cross_entropy, correct


def _head(Z, W2, y, weights):
    """Forward pass (:func:`_forward`) and backward pass to Z.

    Returns (cross-entropy sum, theta2 (..., L, J), G (..., b, J) = d(weighted CE)/dZ, correct), in
    matrix form (this project's rewriting of (33)-(34)): Delta = P - Y, theta2 = (w Delta)^T H (34),
    G = ((w Delta) W2) * S'(Z), so that theta1 = G^T X (33). S and S' share one logistic factor s = expit(Z):
    S = Z s and S' = s (1 + Z (1 - s)) (:func:`swish`, :func:`swish_prime`)."""
    s = logistic(Z)
    H = Z * s
    logq, cross_entropy, correct = _forward(H, W2, y, weights)
    yi = y[..., None]
    delta = np.exp(logq)
    np.put_along_axis(delta, yi, np.take_along_axis(delta, yi, axis=-1) - 1.0, axis=-1)
    wdelta = weights[..., None] * delta                                  # (..., b, L)
    theta2 = np.matmul(np.swapaxes(wdelta, -1, -2), H)                   # (..., L, J)
    H -= Z                                                               # H - Z = -Z (1 - s): S' = s (1 - (H - Z))
    np.negative(H, out=H)
    H += 1.0
    H *= s
    G = np.matmul(wdelta, W2)
    G *= H                                                               # (..., b, J)
    return cross_entropy, theta2, G, correct


def batch_statistics(net: SwishNetwork, W1, W2, X, y, weights) -> NetworkStats:
    """Weighted cross-entropy and its gradients (33)–(34) over a batch, one vectorised evaluation.

    Shapes: W1 (..., J, K), W2 (..., L, J), X (..., b, K), y (..., b) integer labels, weights
    (..., b); the leading axes ``...`` (e.g. one model and batch per client) must agree. With
    weights N_i/(BN) (a = s) or 1/B (a = f) the fields are the printed batch statistics; theta1 and
    theta2 are the partial derivatives of sum_n w_n CE_n with respect to W1 and W2 (the chain rule on
    (25)-(26))."""
    X = _floating(X)
    W1, W2 = (np.asarray(W, dtype=X.dtype) for W in (W1, W2))    # products in the features' dtype
    weights = np.asarray(weights, dtype=X.dtype)
    require(W1.shape[-2:] == (net.J, net.K), "W1", W1.shape, f"shape (..., J, K) = (..., {net.J}, {net.K})")
    require(W2.shape[-2:] == (net.L, net.J), "W2", W2.shape, f"shape (..., L, J) = (..., {net.L}, {net.J})")
    require(X.ndim >= 2 and X.shape[-1] == net.K, "X", X.shape, f"shape (..., b, K) with K = {net.K}")
    lead = X.shape[:-2]
    require(W1.shape[:-2] == lead and W2.shape[:-2] == lead, "W1/W2 leading axes",
            (W1.shape[:-2], W2.shape[:-2]), f"the leading axes of X, {lead}")
    y = _check_labels(y, net.L)
    require(y.shape == X.shape[:-1], "y", y.shape, f"shape {X.shape[:-1]} (the leading axes of X)")
    require(weights.shape == y.shape, "weights", weights.shape, f"shape {y.shape}")
    Z = np.matmul(X, np.swapaxes(W1, -1, -2))                            # (..., b, J)
    ce, theta2, G, correct = _head(Z, W2, y, weights)
    theta1 = np.matmul(np.swapaxes(G, -1, -2), X)                        # (..., J, K)
    return NetworkStats(ce, -ce, theta1, theta2, correct)


class EvaluationSet(NamedTuple):
    """Samples held for many :func:`evaluate` calls without the feature columns that are zero in every sample
    (MNIST: 67 of the 784 pixels of the training set, 116 of the test set's; :func:`evaluation_set`). Such a column
    adds exact zeros to every pre-activation, so leaving it out changes only the rounding (the order in which the
    products are summed) and saves its share of the first layer's products."""

    X: np.ndarray          # (N, K') the columns that are nonzero in some sample
    y: np.ndarray          # (N,) labels
    columns: np.ndarray    # (K',) their indices among the K features, ascending


def evaluation_set(X, y) -> EvaluationSet:
    """An :class:`EvaluationSet` of the samples (X, y): one pass to find the nonzero columns, one copy of them (the
    first column when every one is zero, so that the set holds a feature)."""
    X = _floating(X)
    require(X.ndim == 2 and X.shape[0] >= 1 and X.shape[1] >= 1, "X", X.shape, "a 2-d (N, K) array with N, K >= 1")
    columns = np.flatnonzero(np.any(X != 0, axis=0))
    columns = columns if columns.size else np.zeros(1, dtype=columns.dtype)
    return EvaluationSet(np.ascontiguousarray(X[:, columns]), np.asarray(y), columns)


def _check_columns(columns, K: int) -> np.ndarray:
    """``evaluate``'s ``columns``: None (all K), else ascending distinct feature indices in 0..K-1, as int64."""
    if columns is None:
        return np.arange(K)
    try:
        arr = np.asarray(columns)
    except ValueError:
        arr = np.zeros((0, 0))
    ok = arr.ndim == 1 and arr.size >= 1 and np.issubdtype(arr.dtype, np.integer)
    if ok:
        arr = arr.astype(np.int64)       # an unsigned index above 2^63 becomes negative and fails below
        ok = bool(arr[0] >= 0 and arr[-1] < K and np.all(np.diff(arr) > 0))
    if not ok:                           # the value as the message shows it: a long one by its length
        shown = columns.tolist() if isinstance(columns, np.ndarray) else columns
        if isinstance(shown, (list, tuple, str)) and len(shown) > 12:
            shown = f"<{type(columns).__name__} of length {len(shown)}>"
        require(False, "columns", shown, f"None or ascending distinct feature indices in 0..{K - 1}")
    return arr


def evaluate(net: SwishNetwork, omega, X, y, chunk: int = 10000, columns=None) -> dict:
    """Training/test metrics at omega: ``cost`` = F(omega) of (25) (mean cross-entropy) and
    ``accuracy`` = fraction of argmax hits. Chunked over samples: memory O(chunk J). ``columns``: X holds only
    these feature columns (ascending indices in 0..K-1; every other column is zero in every sample), as in an
    :class:`EvaluationSet`; None: X holds all K."""
    require(is_int(chunk) and chunk >= 1, "chunk", chunk, "an integer >= 1")
    X = _floating(X)
    columns = _check_columns(columns, net.K)
    require(X.ndim == 2 and X.shape[1] == columns.size and X.shape[0] >= 1, "X", X.shape,
            f"shape (N, {columns.size}) with N >= 1 (one column per feature held)")
    y = _check_labels(y, net.L)
    require(y.shape == (X.shape[0],), "y", y.shape, f"shape ({X.shape[0]},)")
    W1, W2 = (W.astype(X.dtype, copy=False) for W in net.unpack(check_omega(omega, net.dim)))
    if columns.size < net.K:
        W1 = W1[:, columns]
    ce = 0.0
    hits = 0
    for start in range(0, X.shape[0], chunk):       # loop over sample chunks (memory bound), not clients
        Xc, yc = X[start:start + chunk], y[start:start + chunk]
        Z = Xc @ W1.T
        _, c, correct = _forward(swish(Z), W2, yc, np.ones(yc.shape[0], dtype=X.dtype))   # no backward pass
        ce += float(c)
        hits += int(correct)
    n = X.shape[0]
    return {"cost": ce / n, "accuracy": hits / n}


# --------------------------------------------------------------------------- feature blocks

@dataclass(frozen=True, eq=False)
class FeatureBlocks:
    """A partition of the K input features over I clients (feature-based FL, (2) and Section V).

    ``index`` (I, kmax) holds client i's feature columns K_i (ascending) in its first |K_i| entries,
    padded with column 0; ``mask`` (I, kmax) is True on the real entries. The padding makes a client-wise
    computation one batched array operation (:meth:`gather`, :meth:`scatter`); padded entries are multiplied by 0.
    The clients' pre-activations (:meth:`partials`) are instead one product per client on ``own_columns``
    (views of X for consecutive columns), which skips the gather's copy. The server block omega_0 is a property of the model, not of the
    features: W2 for the network, empty (d_0 = 0) for the linear models of
    :mod:`repro.papers.ssca.problems.instances`; see :class:`ParameterBlocks`."""

    n_features: int
    index: np.ndarray
    mask: np.ndarray
    sizes: np.ndarray = field(init=False)
    own_columns: tuple = field(init=False)

    def __post_init__(self):
        K = self.n_features
        require(is_int(K) and K >= 1, "n_features", K, "an integer >= 1")
        index = np.array(self.index, dtype=np.int64)
        mask = np.array(self.mask, dtype=bool)
        require(index.ndim == 2 and index.shape[0] >= 1 and index.shape[1] >= 1, "index", index.shape,
                "a 2-d (I, kmax) integer array with I, kmax >= 1")
        require(mask.shape == index.shape, "mask", mask.shape, f"shape {index.shape} (that of index)")
        real = index[mask]
        require(real.size == K and np.array_equal(np.sort(real), np.arange(K)), "index",
                "columns are not a partition", f"every feature 0..{K - 1} owned by exactly one client")
        sizes = mask.sum(axis=1)
        require(bool((sizes >= 1).all()), "sizes", sizes.tolist(), "every client owns >= 1 feature")
        require(bool(np.all(mask[:, :1])) and bool(np.all(mask[:, :-1] >= mask[:, 1:])), "mask",
                "holes", "each row True on a prefix (real entries first, padding last)")
        index = np.where(mask, index, 0)
        for arr in (index, mask, sizes):
            arr.setflags(write=False)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "sizes", sizes)
        object.__setattr__(self, "own_columns", tuple(_column_selector(index[i, :n]) for i, n in enumerate(sizes)))

    @classmethod
    def from_columns(cls, columns, n_features: int) -> "FeatureBlocks":
        """Blocks from a list of per-client column arrays (any sizes >= 1; must partition 0..K-1)."""
        cols = [np.sort(np.asarray(c, dtype=np.int64).ravel()) for c in columns]
        require(len(cols) >= 1, "columns", columns, "a non-empty list of column-index arrays")
        kmax = max(c.size for c in cols)
        require(kmax >= 1, "columns", "all empty", "every client owns >= 1 feature")
        index = np.zeros((len(cols), kmax), dtype=np.int64)
        mask = np.zeros((len(cols), kmax), dtype=bool)
        for i, c in enumerate(cols):       # construction only, not a hot path
            index[i, :c.size] = c
            mask[i, :c.size] = True
        return cls(n_features, index, mask)

    @property
    def n_clients(self) -> int:
        """I."""
        return self.index.shape[0]

    @property
    def kmax(self) -> int:
        """The largest block size (the padded width)."""
        return self.index.shape[1]

    def columns(self, client: int) -> np.ndarray:
        """K_i: client ``client``'s feature columns, ascending."""
        require(is_int(client) and 0 <= client < self.n_clients, "client", client,
                f"an integer in 0..{self.n_clients - 1}")
        return self.index[client, : self.sizes[client]]

    def owner(self) -> np.ndarray:
        """(K,) the client owning each feature."""
        out = np.empty(self.n_features, dtype=np.int64)
        out[self.index[self.mask]] = np.nonzero(self.mask)[0]
        return out

    def partials(self, X, W1) -> np.ndarray:
        """h_{0,i} = X[:, K_i] W1[:, K_i]^T for every client i: shape (I, b, J) in X's dtype, client i's product
        computed from its own columns only (one matrix product per client; the blocks of
        :func:`contiguous_blocks` are views of X and W1, so nothing is gathered or padded). In floating point this
        equals the padded batched product client by client: the padding only adds exact zeros."""
        out = np.empty((self.n_clients, X.shape[0], W1.shape[0]), dtype=X.dtype)
        W1T = W1.T
        for i, cols in enumerate(self.own_columns):       # I products; the loop is over clients, not samples
            np.matmul(X[:, cols], W1T[cols], out=out[i])
        return out

    def gather(self, X) -> np.ndarray:
        """Each client's own feature columns of a batch X (b, K): the padded (b, I, kmax) layout,
        zero on padding (client i's slice [:, i, :] depends on X[:, K_i] only)."""
        return X[:, self.index] * self.mask

    def scatter(self, blocks) -> np.ndarray:
        """Inverse of :meth:`gather` on the last two axes: (..., I, kmax) -> (..., K), padding dropped."""
        blocks = np.asarray(blocks)
        out = np.zeros(blocks.shape[:-2] + (self.n_features,), dtype=blocks.dtype)
        out[..., self.index[self.mask]] = blocks[..., self.mask]
        return out


def _column_selector(cols: np.ndarray):
    """Ascending columns K_i as an index of X's columns: a ``slice`` when they are consecutive (``X[:, K_i]`` is
    then a view, no copy), else the index array itself."""
    start = int(cols[0])
    consecutive = np.array_equal(cols, np.arange(start, start + cols.size))
    return slice(start, start + cols.size) if consecutive else cols


def _block_sizes(K: int, I: int) -> np.ndarray:
    base, extra = divmod(K, I)
    return np.array([base + 1] * extra + [base] * (I - extra), dtype=np.int64)


def contiguous_blocks(K: int, I: int) -> FeatureBlocks:
    """Contiguous feature blocks (a choice the paper leaves open). Rule: with K = q I + r (0 <= r < I), the first
    r clients get q + 1 consecutive columns and the other I - r get q, so sizes differ by at most 1;
    e.g. K = 784, I = 10: 4 blocks of 79 then 6 blocks of 78 (4*79 + 6*78 = 784)."""
    require(is_int(K) and K >= 1, "K", K, "an integer >= 1")
    require(is_int(I) and 1 <= I <= K, "I", I, f"an integer in 1..K = {K} (each client owns a feature)")
    sizes = _block_sizes(int(K), int(I))
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    kmax = int(sizes[0])
    offsets = np.arange(kmax)
    mask = offsets[None, :] < sizes[:, None]
    index = np.where(mask, starts[:, None] + offsets[None, :], 0)
    return FeatureBlocks(int(K), index, mask)


def random_blocks(K: int, I: int, rng: np.random.Generator) -> FeatureBlocks:
    """A random partition of the K features over I clients with the sizes of
    :func:`contiguous_blocks` (first K mod I clients one larger); columns are a uniformly random
    permutation, sorted within each block."""
    require(is_int(K) and K >= 1, "K", K, "an integer >= 1")
    require(is_int(I) and 1 <= I <= K, "I", I, f"an integer in 1..K = {K} (each client owns a feature)")
    require(isinstance(rng, np.random.Generator), "rng", type(rng).__name__, "a numpy.random.Generator")
    sizes = _block_sizes(int(K), int(I))
    perm = rng.permutation(int(K))
    return FeatureBlocks.from_columns(np.split(perm, np.cumsum(sizes)[:-1]), int(K))


@dataclass(frozen=True, eq=False)
class ParameterBlocks:
    """The feature-based block structure omega = (omega_0, omega_1..omega_I) of (2) as indices into
    the flat omega: ``server`` (d_0,) and the padded ``clients`` (I, dmax) with ``mask``. Useful to
    split a gradient into the messages q_{.,m,0} (server) and q_{.,m,i} (client i) of (14) and (21),
    Section IV."""

    server: np.ndarray
    clients: np.ndarray
    mask: np.ndarray

    @property
    def sizes(self) -> np.ndarray:
        """(d_1, ..., d_I)."""
        return self.mask.sum(axis=1)

    @classmethod
    def network(cls, net: SwishNetwork, blocks: FeatureBlocks) -> "ParameterBlocks":
        """omega_0 = W2; omega_i = W1[:, K_i] (all J rows), in row-major (j, k) order (Section V)."""
        flat = np.arange(net.J * net.K).reshape(net.J, net.K)            # flat index of W1[j, k]
        I = blocks.n_clients
        clients = flat[:, blocks.index].transpose(1, 0, 2).reshape(I, -1)   # (I, J*kmax)
        mask = np.broadcast_to(blocks.mask[:, None, :], (I, net.J, blocks.kmax)).reshape(I, -1)
        order = np.argsort(~mask, axis=1, kind="stable")                  # real entries first
        clients = np.take_along_axis(clients, order, axis=1)
        mask = np.take_along_axis(mask, order, axis=1)
        width = int(mask.sum(axis=1).max())
        clients = np.where(mask, clients, 0)[:, :width]
        mask = mask[:, :width]
        server = np.arange(net.J * net.K, net.dim)
        return cls(server, clients, mask)

    @classmethod
    def linear(cls, blocks: FeatureBlocks) -> "ParameterBlocks":
        """omega = w in R^K: omega_i = w[K_i]; the server block is empty (d_0 = 0)."""
        return cls(np.zeros(0, dtype=np.int64), blocks.index.copy(), blocks.mask.copy())


def client_partial_preactivations(W1, X, blocks: FeatureBlocks) -> np.ndarray:
    """h_{0,i}(omega_i, x_{n,i}) = X[:, K_i] W1[:, K_i]^T for every client i: shape (I, b, J).

    Computed by :meth:`FeatureBlocks.partials` (client i's product uses only its own columns K_i); sum over
    axis 0 gives Z = X W1^T (Section V; the clients exchange these
    per-client partial sums, which is what the chain rule needs: a choice the paper leaves open, as its
    text lists the products W1[j, k] x_{n,k})."""
    W1 = np.asarray(W1, dtype=np.float64)
    X = np.asarray(X, dtype=np.float64)
    require(X.ndim == 2 and X.shape[1] == blocks.n_features, "X", X.shape,
            f"shape (b, K) with K = {blocks.n_features}")
    require(W1.ndim == 2 and W1.shape[1] == blocks.n_features, "W1", W1.shape,
            f"shape (J, K) with K = {blocks.n_features}")
    return blocks.partials(X, W1)                                # (I, b, J)


# --------------------------------------------------------------------------- oracle base

def check_omega(omega, d: int) -> np.ndarray:
    """A model vector as float64, of shape (d,), with finite entries (shared with :mod:`.instances`)."""
    omega = np.asarray(omega, dtype=np.float64)
    require(omega.shape == (d,), "omega", omega.shape, f"shape ({d},)")
    require(bool(np.isfinite(omega).all()), "omega", "non-finite entries", "finite entries")
    return omega


class FiniteSumProblem:
    """Base of the SSCA oracles: F_0(w) = (1/N) sum_n f_0(w, x_n) and M constraints
    F_m(w) = Phi_m(w) - U_m, Phi_m(w) = (1/N) sum_n phi_m(w, x_n) (Problems 1/3/6/8 of the paper).

    Attributes: ``dim`` (d), ``n_samples`` (N), ``n_constraints`` (M), ``constraint_levels`` (M,)
    (the U_m), ``exact_objective_weight`` (q0 when f_0(w, x) = q0 ||w||^2 for every x, so the server
    can use it exactly as in (38); else None), ``blocks`` (:class:`FeatureBlocks`) and
    ``parameter_blocks`` (:class:`ParameterBlocks`).

    Methods (weights w_n are arbitrary, e.g. N_i/(BN) for Algorithms 1–2, 1/B for 3–4):

    * ``batch_sums(omega, index, weights) -> (values (M+1,), grads (M+1, d))``: values[0] =
      sum_n w_n f_0(omega, x_n), values[m] = sum_n w_n phi_m(omega, x_n) (U_m not subtracted),
      grads the same weighted sums of gradients; one vectorised evaluation over the batch;
    * ``block_batch_sums``: the same, computed the feature-based way ((2), (16), (17));
    * ``stacked_objective_grads(omegas (I, d), index (I, b), weights (I, b)) -> (I, d)``;
    * optionally ``fedavg_round(w, index (E, I, B), weights (I, B), client_weights (I,), step)``: the averaged model
      after E local SGD steps of every client (the SGD baselines use it where a problem has it);
    * ``full_values_and_grads(omega)``: means over all N samples, chunked.
    """

    dim: int
    n_samples: int
    n_constraints: int
    constraint_levels: np.ndarray
    exact_objective_weight: float | None
    blocks: FeatureBlocks
    parameter_blocks: ParameterBlocks
    chunk: int = DEFAULT_CHUNK

    # -- validation shared by the subclasses
    def _check_sample_range(self, index: np.ndarray) -> None:
        """Every entry of the integer array ``index`` a sample index 0..N-1."""
        if index.size:
            require(int(index.min()) >= 0 and int(index.max()) < self.n_samples, "index",
                    f"entries in [{int(index.min())}, {int(index.max())}]",
                    f"sample indices in 0..N-1 = {self.n_samples - 1}")

    def _check_batch(self, omega, index, weights):
        omega = check_omega(omega, self.dim)
        index = np.asarray(index)
        require(index.ndim == 1 and (index.size == 0 or np.issubdtype(index.dtype, np.integer)),
                "index", getattr(index, "shape", index), "a 1-d integer array of sample indices")
        self._check_sample_range(index)
        index = index.astype(np.int64, copy=False)
        weights = np.asarray(weights, dtype=np.float64)
        require(weights.shape == index.shape, "weights", weights.shape, f"shape {index.shape} (that of index)")
        require(bool(np.isfinite(weights).all()), "weights", "non-finite entries", "finite weights")
        return omega, index, weights

    def _check_stacked(self, omegas, index, weights):
        omegas = np.asarray(omegas, dtype=np.float64)
        require(omegas.ndim == 2 and omegas.shape[1] == self.dim, "omegas", omegas.shape,
                f"shape (I, d) with d = {self.dim}")
        require(bool(np.isfinite(omegas).all()), "omegas", "non-finite entries", "finite entries")
        index = np.asarray(index)
        require(index.ndim == 2 and index.shape[0] == omegas.shape[0]
                and np.issubdtype(index.dtype, np.integer), "index", index.shape,
                f"an integer array of shape (I, b) with I = {omegas.shape[0]}")
        self._check_sample_range(index)
        weights = np.asarray(weights, dtype=np.float64)
        require(weights.shape == index.shape, "weights", weights.shape, f"shape {index.shape}")
        require(bool(np.isfinite(weights).all()), "weights", "non-finite entries", "finite weights")
        return omegas, index.astype(np.int64, copy=False), weights

    def batch_sums(self, omega, index, weights):
        omega, index, weights = self._check_batch(omega, index, weights)
        return self._batch_sums(omega, index, weights)

    def unchecked_oracle(self, name: str):
        """``name`` ("batch_sums" or "block_batch_sums") without its argument checks, for a caller that builds valid
        arguments (the SSCA engine): ``_<name>`` while ``name`` is this base's checking method; a subclass that
        overrides ``name`` gets its override."""
        require(name in ("batch_sums", "block_batch_sums"), "name", name, "'batch_sums' or 'block_batch_sums'")
        if getattr(type(self), name) is getattr(FiniteSumProblem, name):
            return getattr(self, "_" + name)
        return getattr(self, name)

    def block_batch_sums(self, omega, index, weights):
        omega, index, weights = self._check_batch(omega, index, weights)
        return self._block_batch_sums(omega, index, weights)

    def stacked_objective_grads(self, omegas, index, weights) -> np.ndarray:
        omegas, index, weights = self._check_stacked(omegas, index, weights)
        return self._stacked_objective_grads(omegas, index, weights)

    def full_values_and_grads(self, omega):
        """(values (M+1,), grads (M+1, d)): F_0 and Phi_m (levels not subtracted) and their
        gradients at omega, i.e. batch sums over all N samples with weights 1/N, in chunks of
        ``self.chunk`` samples (memory bound; a loop over sample chunks, not over clients)."""
        omega = check_omega(omega, self.dim)
        n = self.n_samples
        values = np.zeros(self.n_constraints + 1)
        grads = np.zeros((self.n_constraints + 1, self.dim))
        for start in range(0, n, self.chunk):
            stop = min(start + self.chunk, n)
            v, g = self._batch_sums(omega, slice(start, stop), np.full(stop - start, 1.0 / n))
            values += v
            grads += g
        return values, grads

    def constraint_values(self, omega) -> np.ndarray:
        """F_m(omega) = Phi_m(omega) - U_m, m = 1..M, on the full data."""
        values, _ = self.full_values_and_grads(omega)
        return values[1:] - self.constraint_levels


def check_data(X, y, n_classes=None):
    """X as float64, or float32 when it is float32 (no copy either way), with finite entries; y checked (shared
    with :mod:`.instances`)."""
    X = _floating(X)
    require(X.ndim == 2 and X.shape[0] >= 1 and X.shape[1] >= 1, "X", X.shape,
            "a 2-d (N, K) array with N, K >= 1")
    require(bool(np.isfinite(X).all()), "X", "non-finite entries", "finite features")
    y = np.asarray(y)
    require(y.shape == (X.shape[0],), "y", y.shape, f"shape ({X.shape[0]},) (one label per row of X)")
    if n_classes is not None:
        y = _check_labels(y, n_classes).astype(np.int64, copy=False)
    return X, y


def check_blocks(blocks, K: int) -> FeatureBlocks:
    """A FeatureBlocks partition of exactly K features (shared with :mod:`.instances`)."""
    require(isinstance(blocks, FeatureBlocks), "blocks", type(blocks).__name__,
            "a FeatureBlocks (e.g. contiguous_blocks(K, I))")
    require(blocks.n_features == K, "blocks.n_features", blocks.n_features,
            f"the number of features K = {K}")
    return blocks


# --------------------------------------------------------------------------- formulations

class _NetworkProblem(FiniteSumProblem):
    """Shared data handling and cross-entropy oracle of (27) and (37)."""

    def __init__(self, net: SwishNetwork, X, y, blocks: FeatureBlocks):
        require(isinstance(net, SwishNetwork), "net", type(net).__name__, "a SwishNetwork")
        X, y = check_data(X, y, net.L)
        require(X.shape[1] == net.K, "X", X.shape, f"shape (N, K) with K = net.K = {net.K}")
        self.net, self.X, self.y = net, X, y
        self.blocks = check_blocks(blocks, net.K)
        self.parameter_blocks = ParameterBlocks.network(net, self.blocks)
        self.dim = net.dim
        self.n_samples = X.shape[0]

    # cross-entropy sums and gradient (flat), sample-based
    def _ce(self, omega, index, weights):
        W1, W2 = self.net.unpack(omega)
        st = batch_statistics(self.net, W1, W2, self.X[index], self.y[index], weights)
        return float(st.cross_entropy), self._flat_gradient(st.theta1, st.theta2)

    def _flat_gradient(self, theta1, theta2) -> np.ndarray:
        """[theta1.ravel(), theta2.ravel()] as a new float64 vector, filled in place (one pass, no concatenation)."""
        out, split = np.empty(self.dim), self.net.J * self.net.K
        out[:split], out[split:] = theta1.ravel(), theta2.ravel()
        return out

    # the same, feature-based: client partials from own columns, summed; chain rule (16)-(17)
    def _ce_blocks(self, omega, index, weights):
        net, blocks = self.net, self.blocks
        W1, W2 = (W.astype(self.X.dtype, copy=False) for W in net.unpack(omega))
        X = self.X[index]
        Z = blocks.partials(X, W1).sum(axis=0)                        # h_{0,i} per client; the server sums them
        ce, theta2, G, _ = _head(Z, W2, self.y[index], weights.astype(Z.dtype))   # (16): omega_0 = W2 block
        # (17): client i multiplies dg/dh_{0,i} = G by grad h_{0,i} = its own features: theta1[:, K_i] = G^T X[:, K_i].
        # Column k of G^T X reads column k of X only, so one product computes every client's block at once.
        theta1 = G.T @ X                                              # (J, K)
        return float(ce), self._flat_gradient(theta1, theta2)

    def _stacked_ce_grads(self, omegas, index, weights):
        W1, W2 = self.net.unpack(omegas)                              # (I, J, K), (I, L, J)
        st = batch_statistics(self.net, W1, W2, self.X[index], self.y[index], weights)
        I, split = omegas.shape[0], self.net.J * self.net.K
        out = np.empty((I, self.dim))                                  # float64, filled without a concatenation
        out[:, :split], out[:, split:] = st.theta1.reshape(I, -1), st.theta2.reshape(I, -1)
        return out

    def evaluate(self, omega, chunk: int = 10000) -> dict:
        """:func:`evaluate` on the held data."""
        return evaluate(self.net, omega, self.X, self.y, chunk)


class Regularized27(_NetworkProblem):
    """(27): min F(omega) + lam ||omega||^2, lam > 0, as a finite sum with
    f_0(omega, x_n) = CE_n(omega) + lam ||omega||^2; M = 0 (no constraints).

    The cross-entropy gradients are (33)–(34); the regulariser's gradient 2 lam omega is data-free.
    ``exact_objective_weight`` is None (the objective depends on the data). Feature-based: the
    server (omega_0 = W2) and each client (omega_i = W1[:, K_i]) add the regulariser terms of their
    own blocks."""

    def __init__(self, net: SwishNetwork, X, y, lam: float, blocks: FeatureBlocks):
        require(is_real(lam) and lam > 0, "lam", lam, "a finite number > 0 (the regulariser of (27))")
        super().__init__(net, X, y, blocks)
        self.lam = float(lam)
        self.n_constraints = 0
        self.constraint_levels = np.zeros(0)
        self.exact_objective_weight = None

    def _finish(self, omega, weights, ce, grad):
        s = weights.sum()
        values = np.array([ce + self.lam * float(omega @ omega) * s])
        grad += 2.0 * self.lam * s * omega                      # grad is the caller's new vector (_ce, _ce_blocks)
        return values, grad[None, :]

    def _batch_sums(self, omega, index, weights):
        return self._finish(omega, weights, *self._ce(omega, index, weights))

    def _block_batch_sums(self, omega, index, weights):
        return self._finish(omega, weights, *self._ce_blocks(omega, index, weights))

    def _stacked_objective_grads(self, omegas, index, weights):
        grads = self._stacked_ce_grads(omegas, index, weights)
        scaled = work_array("ssca.stacked_regulariser", omegas.shape)
        grads += np.multiply(2.0 * self.lam * weights.sum(axis=1)[:, None], omegas, out=scaled)
        return grads

    def fedavg_round(self, w, index, weights, client_weights, step: float) -> np.ndarray:
        """One round of FedAvg with E local SGD steps on (27): every client i takes E = ``index.shape[0]`` steps
        w_i <- w_i - step (theta_i(w_i) + 2 lam s_i w_i) from w on its batches ``index[e, i]`` (sample weights
        ``weights[i]``, s_i their sum), and the server returns sum_i ``client_weights[i]`` w_i^(E).

        Computed in factored form (this project's rewriting; equal in exact arithmetic): with a_i = 1 - 2 lam s_i step,
        w_i^(e) = a_i^e w - step sum_{s<e} a_i^(e-1-s) theta_i^(s), and the first-layer part of theta_i^(s) is
        G_s^T X_s (33), of rank <= B. So step e's pre-activations are a_i^e X_e W1^T - step sum_s a_i^(e-1-s)
        (X_e X_s^T) G_s, the clients' second layers (L x J each) are kept, and no client model of d entries is formed:
        a round is a few products of batch size where E passes over I models of d = 101,632 float64 entries cost
        ~3 ms a step (benchmarks/README.md). The products are in the features' dtype, as in :func:`batch_statistics`."""
        net = self.net
        w = check_omega(w, self.dim)
        index, weights, client_weights = self._check_round(index, weights, client_weights)
        E, I, _ = index.shape
        dt = self.X.dtype
        W1, W2 = net.unpack(w)
        a = 1.0 - step * 2.0 * self.lam * weights.sum(axis=1)                      # (I,)
        X, y, sample_weights = self.X[index], self.y[index], weights.astype(dt)   # (E, I, B, K), (E, I, B)
        base = (X.reshape(-1, net.K) @ W1.astype(dt).T).reshape(E, I, -1, net.J)    # X_e W1^T, all steps: one product
        W2_i = np.repeat(W2[None], I, axis=0)                                      # (I, L, J) float64
        G = []
        for e in range(E):
            Z = base[e] * (a ** e).astype(dt)[:, None, None]
            for s in range(e):
                Z -= (step * a ** (e - 1 - s)).astype(dt)[:, None, None] * np.matmul(
                    np.matmul(X[e], np.swapaxes(X[s], -1, -2)), G[s])
            _, theta2, G_e, _ = _head(Z, W2_i.astype(dt), y[e], sample_weights)
            G.append(G_e)
            W2_i = a[:, None, None] * W2_i - step * theta2.astype(np.float64)
        scale = np.stack([client_weights * a ** (E - 1 - s) for s in range(E)])   # (E, I)
        scaled = (np.stack(G) * scale.astype(dt)[:, :, None, None]).reshape(-1, net.J)
        W1_new = float(client_weights @ a ** E) * W1 - step * (scaled.T @ X.reshape(-1, net.K)).astype(np.float64)
        return self._flat_gradient(W1_new, np.tensordot(client_weights, W2_i, axes=1))   # [W1.ravel(), W2.ravel()]

    def _check_round(self, index, weights, client_weights):
        """:meth:`fedavg_round`'s batches (E, I, B) of sample indices, sample weights (I, B) and client weights (I,)."""
        index = np.asarray(index)
        require(index.ndim == 3 and np.issubdtype(index.dtype, np.integer) and index.size, "index", index.shape,
                f"an integer array (E, I, B) of sample indices in 0..{self.n_samples - 1}")
        self._check_sample_range(index)
        weights = np.asarray(weights, dtype=np.float64)
        client_weights = np.asarray(client_weights, dtype=np.float64)
        require(weights.shape == index.shape[1:] and bool(np.isfinite(weights).all()), "weights", weights.shape,
                f"finite sample weights of shape {index.shape[1:]}")
        require(client_weights.shape == (index.shape[1],) and bool(np.isfinite(client_weights).all()),
                "client_weights", client_weights.shape, f"finite weights of shape ({index.shape[1]},)")
        return index, weights, client_weights


class CostLimited37(_NetworkProblem):
    """(37): min ||omega||^2 s.t. F(omega) - U <= 0, U > 0 ("the limit on the cost").

    f_0(omega, x) = ||omega||^2 for every x, so ``exact_objective_weight = 1.0`` and
    values[0] = ||omega||^2 sum_n w_n, grads[0] = 2 omega sum_n w_n; M = 1 with
    phi_1(omega, x_n) = CE_n(omega), ``constraint_levels = [U]``.

    ``a_bar``: ``"surrogate_11"`` (default) returns values[1] = sum_n w_n CE_n, the value the
    surrogate (11)/(22) requires (so the constraint surrogate matches F at omega^(t)); ``"printed"``
    returns values[1] = sum_n w_n sum_l y log Q = -sum_n w_n CE_n, the sign printed in (32)
    (Section V-B; an audit finding: with it the surrogate constraint does not match F). The gradients
    stay those of CE in both cases, as (33)–(34) are printed.
    """

    def __init__(self, net: SwishNetwork, X, y, U: float, blocks: FeatureBlocks,
                 a_bar: str = "surrogate_11"):
        require(is_real(U) and U > 0, "U", U, "a finite number > 0 (the cost limit of (37))")
        require(a_bar in A_BAR_CHOICES, "a_bar", a_bar, f"one of {', '.join(A_BAR_CHOICES)}")
        super().__init__(net, X, y, blocks)
        self.U = float(U)
        self.a_bar = a_bar
        self.n_constraints = 1
        self.constraint_levels = np.array([self.U])
        self.exact_objective_weight = 1.0

    def _finish(self, omega, weights, ce, grad):
        s = weights.sum()
        sign = 1.0 if self.a_bar == "surrogate_11" else -1.0
        values = np.array([float(omega @ omega) * s, sign * ce])
        grads = np.empty((2, omega.shape[0]))
        np.multiply(2.0 * s, omega, out=grads[0])
        grads[1] = grad
        return values, grads

    def _batch_sums(self, omega, index, weights):
        return self._finish(omega, weights, *self._ce(omega, index, weights))

    def _block_batch_sums(self, omega, index, weights):
        return self._finish(omega, weights, *self._ce_blocks(omega, index, weights))

    def _stacked_objective_grads(self, omegas, index, weights):
        return 2.0 * weights.sum(axis=1)[:, None] * omegas
