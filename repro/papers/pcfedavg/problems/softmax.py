"""Softmax regression on MNIST / CIFAR-10 split across m agents (PC-FedAvg, Section 5).

Local loss of agent i (Section 5), on its full local data D_i = {(phi_{i,n}, y_{i,n})}:

    f_i(W) = (1/N_i) sum_n [ logsumexp(W^T phi_{i,n}) - w_{y_{i,n}}^T phi_{i,n} ],

with W in R^{p x C}. A model is the flat vector ``W.reshape(-1)`` of length n = p*C (row-major:
entry (j, k) of W is coordinate j*C + k). Gradient on a batch B:
(1/|B|) sum_{n in B} phi_n (softmax(W^T phi_n) - e_{y_n})^T.

Choices the paper leaves open, with this project's defaults (every one is recorded by
:meth:`SoftmaxClients.describe`):

* split: the full training arrays; losses on the agents' training data; no test data.
* preprocessing: ``"scale"`` (default) divides the uint8 pixels by 255 and flattens them
  in the arrays' stored order (MNIST row-major 28x28, CIFAR-10 HWC RGB), no centring, no bias.
  ``"standardize"``: per-feature (x - mean)/std with mean and std of the training data in use
  (after ``subsample``), a feature of std 0 is only centred (divided by 1). ``"scale+bias"``:
  ``"scale"`` with a constant-1 feature appended (p + 1 features).
* partition (Section 5 says only "heterogeneous data distributions"): ``"dirichlet"`` (default): for
  each class c (in order 0..C-1) draw q_c ~ Dirichlet(alpha * 1_m), shuffle the class's samples and give
  agent i the next floor-based share of them: cut points ``floor(cumsum(q_c)[:-1] * n_c)``, so every sample
  is assigned exactly once (the last agent takes the rounding remainder). No resampling: if an
  agent ends up with no sample the build fails with a ConfigError (change ``partition_seed`` or
  ``alpha``). ``"iid"``: a uniform random permutation cut into m near-equal parts
  (``np.array_split``). Randomness: ``SeedSequence(partition_seed).spawn(2)`` gives one
  Generator for ``subsample`` and one for the partition, so the partition is a fixed function of
  (data, subsample, partition, alpha, partition_seed, m) and independent of the run seeds.
* ``subsample`` (not in the paper; for tests and benchmarks): a stratified random subset of the
  training set of exactly that size, taken before preprocessing statistics and partitioning;
  per-class quotas by largest remainder of ``size * n_c / N`` (ties to the smaller class label),
  indices kept in ascending (stored) order.
* minibatches (Section 5: "batch percentage 10%"): agent i's batch has b_i = ceil(batch_fraction * N_i)
  samples (batch_fraction is read as the decimal it prints as, so 0.1 * 30 gives 3, not 4), drawn
  uniformly without replacement within the batch, fresh at every call, independently across
  agents (all from the Generator passed in).
* ``dtype`` (not in the paper): the dtype of the stored features and of the products with
  them. float64 (default) for every theorem check; the data-figure runs of Figures 1-4 use float32, as the
  papers' own frameworks train (the experiment config names it). Models (the iterates) stay float64; they are
  rounded to ``dtype`` only inside the products, and values and gradients are accumulated and returned in
  float64.

Vectorisation (no Python loop over agents in values/gradients/stochastic gradients): the features
are stored once, sorted by agent, as an (N, p) array; ``index`` (m, N_max) and ``valid``
(m, N_max) give each agent's rows padded to N_max. Full-data values/gradients compute the logits
of every sample under every agent's model with one matmul ``X @ W_stack`` (W_stack of shape
(p, K*m*C) for K leading batch models per agent) and keep the owning agent's columns; the
gradient is ``X^T @ R`` with R holding each sample's residual in its owner's column block (rows are
processed in chunks to bound memory). When the agent axis of Y is a broadcast (stride 0), as for a
single global model, the logits use one (p, K*C) matmul. Minibatch gradients compute only each agent's
own products: the batch rows of one agent are processed in chunks of a few MiB (the loop runs over data
chunks, never over agents), each gathered once into a reused buffer that stays in cache for its forward
product, its softmax and its backward product, so the features of a minibatch are read from memory once.

Smoothness (``L_f``): for one sample the Hessian of the cross-entropy is
(diag(s) - s s^T) kron phi phi^T (in the row-major layout: phi phi^T kron A with
A = diag(s) - s s^T), and A <= (1/2) I_C by Gershgorin (row k: diagonal s_k(1 - s_k) plus
off-diagonal absolute sum s_k(1 - s_k), so every eigenvalue is <= 2 s_k(1 - s_k) <= 1/2; cf.
D. Boehning, "Multinomial logistic regression algorithm", Ann. Inst. Stat. Math. 44, 1992, who
gives the sharper (1/2)(I - 11^T/C)). Hence nabla^2 f_i <= (1/2) lambda_max(Phi_i^T Phi_i / N_i) I_n
and L_f = max_i (1/2) lambda_max(Phi_i^T Phi_i / N_i) is valid for every f_i. lambda_max is
computed by power iteration vectorised over the agents. For non-negative features (``"scale"``,
``"scale+bias"``) Phi_i^T Phi_i is entrywise non-negative and the Collatz-Wielandt bound
lambda_max <= max_j (A v)_j / v_j (any v > 0 on the support of A) certifies an upper bound, used
(times 1 + 1e-12 for rounding) as L_f; ``L_f_certified`` is then True. For ``"standardize"``
lambda_max comes from ``scipy.sparse.linalg.eigsh`` (ARPACK, tol 1e-10), a numerical estimate
(``L_f_certified`` False).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from repro.errors import is_int, is_real, require

__all__ = [
    "DATASETS",
    "PARTITIONS",
    "PREPROCESSINGS",
    "SoftmaxClients",
    "build",
    "from_arrays",
    "partition_labels",
    "preprocess",
    "stratified_subsample",
]

DATASETS = ("mnist", "cifar10")
PARTITIONS = ("dirichlet", "iid")
PREPROCESSINGS = ("scale", "standardize", "scale+bias")

#: Bytes of temporaries a full-data chunk may use (logits and residuals, about three arrays of
#: rows x (K*m*C) float64).
_CHUNK_BYTES = 96 * 2**20
#: Bytes of features per minibatch chunk: small enough to stay in this machine's L2/L3 cache between the
#: gather, the forward and the backward product (benchmarks/bench_pcfedavg.py measures the choice).
_BATCH_CHUNK_BYTES = 2 * 2**20
DTYPES = ("float64", "float32")
_CW_MARGIN = 1e-12
_POWER_RTOL = 1e-9
_POWER_MAXITER = 500


# --------------------------------------------------------------------------- data preparation

def preprocess(images: np.ndarray, how: str = "scale", dtype: str = "float64") -> np.ndarray:
    """Features (N, p) of ``dtype`` from raw images (N, ...) in [0, 255] (preprocessing: a choice the paper
    leaves open).

    ``"scale"``: x / 255, flattened in stored order; ``"standardize"``: per-feature
    (x - mean) / std over these N samples (std 0 -> divided by 1); ``"scale+bias"``: x / 255 with a
    constant-1 column appended.
    """
    require(how in PREPROCESSINGS, "preprocessing", how, f"one of {PREPROCESSINGS}")
    require(dtype in DTYPES, "dtype", dtype, f"one of {DTYPES}")
    images = np.asarray(images)
    require(images.ndim >= 2 and images.shape[0] >= 1, "images", f"array of shape {images.shape}",
           "an array (N, ...) with N >= 1")
    flat = images.reshape(images.shape[0], -1)
    if how == "scale+bias":
        out = np.empty((flat.shape[0], flat.shape[1] + 1), dtype=np.float64)
        np.divide(flat, 255.0, out=out[:, :-1], casting="unsafe")
        out[:, -1] = 1.0
        return out.astype(dtype, copy=False)
    out = np.empty(flat.shape, dtype=np.float64)
    np.divide(flat, 255.0, out=out, casting="unsafe")
    if how == "standardize":
        mean = out.mean(axis=0)
        std = out.std(axis=0)
        out -= mean
        out /= np.where(std > 0, std, 1.0)
    return out.astype(dtype, copy=False)


def stratified_subsample(labels: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """Indices (ascending) of a stratified random subset of exactly ``size`` samples.

    Class c gets floor(size * n_c / N) samples plus one for the classes with the largest
    remainders (ties: smaller label first); within a class the samples are drawn uniformly
    without replacement.
    """
    labels = np.asarray(labels)
    N = labels.shape[0]
    require(is_int(size) and 1 <= size <= N, "subsample", size,
           f"None or an integer with 1 <= subsample <= {N} (the training set size)")
    classes, counts = np.unique(labels, return_counts=True)
    exact = size * counts / N
    quota = np.floor(exact).astype(np.int64)
    short = size - int(quota.sum())
    order = np.lexsort((classes, -(exact - quota)))   # largest remainder, then smaller label
    quota[order[:short]] += 1
    chosen = [rng.choice(np.flatnonzero(labels == c), size=q, replace=False)
              for c, q in zip(classes, quota)]           # loop over classes (build time only)
    return np.sort(np.concatenate(chosen))


def partition_labels(labels: np.ndarray, m: int, partition: str = "dirichlet",
                     alpha: float = 0.5, rng: np.random.Generator | None = None) -> np.ndarray:
    """Agent of every sample, (N,) int64 in 0..m-1 (partition: a choice the paper leaves open; see
    the module docstring).

    Every sample is assigned exactly once. ``rng`` defaults to a Generator seeded with 0.
    """
    require(is_int(m) and m >= 1, "m", m, "an integer number of agents >= 1")
    require(partition in PARTITIONS, "partition", partition, f"one of {PARTITIONS}")
    rng = np.random.default_rng(0) if rng is None else rng
    labels = np.asarray(labels)
    N = labels.shape[0]
    owner = np.empty(N, dtype=np.int64)
    if partition == "iid":
        for agent, part in enumerate(np.array_split(rng.permutation(N), m)):
            owner[part] = agent
        return owner
    require(is_real(alpha) and alpha > 0, "alpha", alpha,
           "a finite Dirichlet concentration > 0")
    for c in np.unique(labels):                      # loop over classes (build time only)
        members = rng.permutation(np.flatnonzero(labels == c))
        q = rng.dirichlet(np.full(m, float(alpha)))
        cuts = np.floor(np.cumsum(q)[:-1] * members.size).astype(np.int64)
        owner[members] = np.repeat(np.arange(m), np.diff(np.concatenate(([0], cuts,
                                                                           [members.size]))))
    return owner


# --------------------------------------------------------------------------- the problem

class SoftmaxClients:
    """f_1..f_m of Section 5 on data split across m agents; see the module docstring.

    Attributes: ``m``, ``p`` (features), ``n_classes`` (C), ``n`` = p*C, ``sizes`` (m,) N_i,
    ``batch_sizes`` (m,) b_i, ``batch_fraction``, ``L_f``, ``L_f_certified``, ``class_histograms``
    (m, C). Storage is sorted by agent (stable): ``owner`` (N,) agent of each stored row,
    ``source_index`` (N,) the row's index in the full training set (or in the input arrays),
    ``offsets`` (m,) first row of each agent, ``index`` (m, N_max) each agent's rows padded with 0
    and ``valid`` (m, N_max) the padding mask.

    ``batched = False``: :meth:`stochastic_gradients` takes one (m, n) array (no leading batch
    axes), since its minibatches are drawn from data; :meth:`values` and :meth:`gradients` accept
    any leading batch axes.
    """

    batched = False

    def __init__(self, features: np.ndarray, labels: np.ndarray, assignment: np.ndarray, *,
                 m: int, n_classes: int = 10, batch_fraction: float = 0.1,
                 info: dict | None = None, source_index: np.ndarray | None = None,
                 dtype: str = "float64") -> None:
        require(is_int(m) and m >= 1, "m", m, "an integer number of agents >= 1")
        require(is_int(n_classes) and n_classes >= 2, "n_classes", n_classes, "an integer >= 2")
        require(is_real(batch_fraction) and 0 < batch_fraction <= 1, "batch_fraction",
               batch_fraction, "a number in (0, 1]")
        require(dtype in DTYPES, "dtype", dtype, f"one of {DTYPES}")
        features = np.asarray(features, dtype=dtype)
        labels = np.asarray(labels)
        assignment = np.asarray(assignment)
        require(features.ndim == 2 and features.shape[0] >= 1 and features.shape[1] >= 1,
               "features", f"array of shape {features.shape}", "a 2-D array (N, p), N, p >= 1")
        N, p = features.shape
        require(bool(np.all(np.isfinite(features))), "features", "array with non-finite entries",
               "finite values")
        require(labels.shape == (N,) and np.issubdtype(labels.dtype, np.integer)
               and (N == 0 or (labels.min() >= 0 and labels.max() < n_classes)),
               "labels", f"array of shape {labels.shape} and dtype {labels.dtype}",
               f"integers in 0..{n_classes - 1}, one per sample ({N})")
        require(assignment.shape == (N,) and np.issubdtype(assignment.dtype, np.integer)
               and assignment.min() >= 0 and assignment.max() < m,
               "assignment", f"array of shape {assignment.shape}",
               f"integers in 0..{m - 1}, one per sample ({N})")
        sizes = np.bincount(assignment, minlength=m).astype(np.int64)
        require(bool(np.all(sizes >= 1)), "assignment", f"agent sizes {sizes.tolist()}",
               "every agent must hold at least one sample (change partition_seed, alpha or m)")

        source_index = (np.arange(N) if source_index is None
                        else np.asarray(source_index, dtype=np.int64))
        require(source_index.shape == (N,), "source_index", f"array of shape {source_index.shape}",
               f"one index per sample ({N})")
        if np.all(assignment[1:] >= assignment[:-1]):           # already agent-sorted: no copy
            self._X = np.ascontiguousarray(features)            # (never written to)
            self._y = labels.astype(np.int64)
            self._owner = assignment.astype(np.int64)
            self.source_index = source_index.copy()
        else:                                                    # agent-sorted storage (stable)
            order = np.argsort(assignment, kind="stable")
            self._X = np.ascontiguousarray(features[order])
            self._y = labels[order].astype(np.int64)
            self._owner = assignment[order].astype(np.int64)
            self.source_index = source_index[order]
        self.dtype = np.dtype(dtype)
        self.m, self.p, self.n_classes = int(m), int(p), int(n_classes)
        self.n = self.p * self.n_classes
        self.N = int(N)
        self.sizes = sizes
        self.sizes.setflags(write=False)
        self.offsets = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        n_max = int(sizes.max())
        ar = np.arange(n_max)
        self.valid = ar[None, :] < sizes[:, None]
        self.index = np.where(self.valid, self.offsets[:, None] + ar[None, :], 0)
        fraction = Fraction(repr(float(batch_fraction)))
        self.batch_fraction = float(batch_fraction)
        self.batch_sizes = np.array([math.ceil(fraction * int(s)) for s in sizes], dtype=np.int64)
        self.owner = self._owner
        self._inv_sizes = 1.0 / sizes.astype(np.float64)
        self.class_histograms = np.zeros((self.m, self.n_classes), dtype=np.int64)
        np.add.at(self.class_histograms, (self._owner, self._y), 1)
        for array in (self._y, self._owner, self.index, self.valid, self.offsets,
                      self.batch_sizes, self.source_index, self.class_histograms):
            array.setflags(write=False)
        self.info = dict(info or {})
        self.L_f, self.L_f_certified, self._lambda_info = self._smoothness()

    # ------------------------------------------------------------------ helpers
    def _check_models(self, Y, name: str = "Y", rows: int | None = None) -> np.ndarray:
        Y = np.asarray(Y, dtype=np.float64)
        rows = self.m if rows is None else rows
        require(Y.ndim >= 2 and Y.shape[-2:] == (rows, self.n), name,
               f"array of shape {Y.shape}", f"an array (..., {rows}, {self.n})")
        return Y

    def _row_chunk(self, columns: int) -> int:
        return max(256, int(_CHUNK_BYTES // (24 * max(columns, 1))))

    def _softmax_residual(self, z: np.ndarray, y: np.ndarray):
        """log-sum-exp losses and softmax(z) - e_y for logits z (rows, K, C), labels y (rows,)."""
        zmax = z.max(axis=-1, keepdims=True)
        e = np.exp(z - zmax)
        total = e.sum(axis=-1, keepdims=True)
        lse = np.log(total[..., 0]) + zmax[..., 0]
        rows = np.arange(z.shape[0])
        z_true = z[rows, :, y]                               # (rows, K)
        e /= total
        e[rows, :, y] -= 1.0
        return lse - z_true, e

    def _full_pass(self, Y: np.ndarray, want_values: bool, want_grads: bool):
        """Values (..., m) and/or gradients (..., m, n) of every f_i on its full data."""
        lead = Y.shape[:-2]
        K = int(np.prod(lead, dtype=np.int64))
        m, p, C = self.m, self.p, self.n_classes
        shared = Y.strides[-2] == 0 and m > 1         # one model for every agent (broadcast)
        if shared:
            models = np.ascontiguousarray(Y[..., 0, :]).reshape(K, p, C)
            W_stack = np.ascontiguousarray(models.transpose(1, 0, 2), dtype=self.dtype).reshape(p, K * C)
        else:
            models = Y.reshape(K * m, p, C)
            W_stack = np.ascontiguousarray(models.transpose(1, 0, 2), dtype=self.dtype).reshape(p, K * m * C)
        values = np.zeros((K, m)) if want_values else None
        grads = np.zeros((p, K * m * C)) if want_grads else None
        chunk = self._row_chunk(K * m * C)
        for start in range(0, self.N, chunk):               # loop over sample chunks
            stop = min(start + chunk, self.N)
            X = self._X[start:stop]
            own = self._owner[start:stop]
            rows = np.arange(stop - start)
            logits = X @ W_stack
            if shared:
                z = logits.reshape(-1, K, C)
            else:
                z = logits.reshape(-1, K, m, C)[rows, :, own]   # (rows, K, C)
            loss, resid = self._softmax_residual(z, self._y[start:stop])
            if want_values:
                onehot = np.zeros((stop - start, m))
                onehot[rows, own] = 1.0
                values += loss.astype(np.float64).T @ onehot
            if want_grads:
                resid *= self._inv_sizes[own][:, None, None].astype(self.dtype)
                R = np.zeros((stop - start, K, m, C), dtype=self.dtype)
                R[rows, :, own] = resid
                grads += X.T @ R.reshape(stop - start, K * m * C)
        out_values = None if values is None else (values * self._inv_sizes).reshape(lead + (m,))
        out_grads = None
        if grads is not None:
            out_grads = np.ascontiguousarray(
                grads.reshape(p, K, m, C).transpose(1, 2, 0, 3)).reshape(lead + (m, self.n))
        return out_values, out_grads

    # ------------------------------------------------------------------ the common interface
    def values(self, Y) -> np.ndarray:
        """f_i(Y[..., i, :]) on agent i's full local data, shape (..., m)."""
        return self._full_pass(self._check_models(Y), True, False)[0]

    def gradients(self, Y) -> np.ndarray:
        """Exact full-local-data gradients nabla f_i(Y[..., i, :]), shape (..., m, n)."""
        return self._full_pass(self._check_models(Y), False, True)[1]

    def values_and_gradients(self, Y) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`values` and :meth:`gradients` from one pass over the data."""
        return self._full_pass(self._check_models(Y), True, True)

    def global_loss(self, w) -> float:
        """(1/m) sum_i f_i(w) for one model w (n,) (the global-loss metric: this project's default)."""
        w = np.asarray(w, dtype=np.float64)
        require(w.shape == (self.n,), "w", f"array of shape {w.shape}", f"a vector ({self.n},)")
        return float(self.values(np.broadcast_to(w, (self.m, self.n))).mean())

    def _agents(self, agents) -> np.ndarray:
        if agents is None:
            return np.arange(self.m)
        agents = np.asarray(agents)
        require(agents.ndim == 1 and agents.size >= 1 and np.issubdtype(agents.dtype, np.integer)
               and agents.min() >= 0 and agents.max() < self.m
               and np.unique(agents).size == agents.size,
               "agents", agents.tolist() if agents.ndim == 1 else agents,
               f"distinct agent indices in 0..{self.m - 1}")
        return agents.astype(np.int64)

    def sample_batches(self, rng: np.random.Generator, agents=None):
        """Fresh minibatches for the given agents (default all), one call of the RNG.

        Returns ``(rows, mask)``: ``rows`` (k, b_max) storage rows (valid where ``mask``), row j
        of agent k being a uniformly random b_k-subset of its N_k samples without replacement.
        Method: keys U(0,1) on (k, N_max), invalid -> inf; the b_max smallest by
        ``np.argpartition``, sorted by key, and the first b_k kept (the b_k smallest of N_k iid
        uniform keys form a uniform random b_k-subset).
        """
        agents = self._agents(agents)
        b = self.batch_sizes[agents]
        b_max = int(b.max())
        keys = rng.random((agents.size, self.valid.shape[1]))
        keys[~self.valid[agents]] = np.inf
        if b_max < keys.shape[1]:
            part = np.argpartition(keys, b_max - 1, axis=1)[:, :b_max]
        else:
            part = np.broadcast_to(np.arange(b_max), (agents.size, b_max))
        order = np.argsort(np.take_along_axis(keys, part, axis=1), axis=1)
        cols = np.take_along_axis(part, order, axis=1)
        mask = np.arange(b_max)[None, :] < b[:, None]
        rows = np.take_along_axis(self.index[agents], cols, axis=1)
        return np.where(mask, rows, 0), mask

    def minibatch_gradients(self, Y, rows: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Row k: (1/b_k) sum over agent k's batch of phi (softmax(W^T phi) - e_y)^T, at Y[k].

        ``Y`` (k, n), ``rows``/``mask`` (k, b_max) as returned by :meth:`sample_batches` (agent k's batch is
        the first b_k entries of row k). Only each agent's own products are computed, chunk by chunk (module
        docstring); the result is float64.
        """
        Y = np.asarray(Y, dtype=np.float64)
        k = Y.shape[0]
        p, C = self.p, self.n_classes
        counts = mask.sum(axis=1)
        models = Y.reshape(k, p, C).astype(self.dtype)
        G = np.zeros((k, C, p), dtype=self.dtype)                        # transposed: (R^T X) per chunk
        limit = max(1, _BATCH_CHUNK_BYTES // (p * self._X.itemsize))
        per_agent = -(-counts // limit)                                   # chunks of each agent, of equal size
        size = -(-counts // np.maximum(per_agent, 1))                     # (no small remainder chunk)
        buffer = np.empty((int(size.max(initial=1)), p), dtype=self.dtype)
        owners = np.repeat(np.arange(k), per_agent)
        starts = (np.arange(owners.size) - np.repeat(np.cumsum(per_agent) - per_agent, per_agent)) * size[owners]
        for agent, start in zip(owners.tolist(), starts.tolist()):        # loop over data chunks
            index = rows[agent, start:min(start + size[agent], counts[agent])]
            Xc = np.take(self._X, index, axis=0, out=buffer[:index.size], mode="clip")   # rows are valid
            G[agent] += self._chunk_residual(Xc @ models[agent], self._y[index]).T @ Xc
        out = G.transpose(0, 2, 1).astype(np.float64)
        out /= counts[:, None, None]
        return out.reshape(k, self.n)

    @staticmethod
    def _chunk_residual(z: np.ndarray, y: np.ndarray) -> np.ndarray:
        """softmax(z) - e_y for the logits z (rows, C) of one chunk, in place."""
        z -= z.max(axis=1, keepdims=True)
        np.exp(z, out=z)
        z /= z.sum(axis=1, keepdims=True)
        z[np.arange(z.shape[0]), y] -= 1.0
        return z

    def stochastic_gradients(self, Y, rng: np.random.Generator, agents=None) -> np.ndarray:
        """Row i: minibatch gradient of f_i at Y[i] on a fresh batch of b_i = ceil(batch_fraction
        * N_i) samples drawn uniformly without replacement, independent across agents; (m, n).

        With ``agents`` (distinct indices, length k) only those agents are sampled: Y is (k, n)
        and row j is agent ``agents[j]``'s gradient (used for partial participation).
        """
        agents = self._agents(agents)
        Y = self._check_models(Y, rows=agents.size)
        require(Y.ndim == 2, "Y", f"array of shape {Y.shape}", f"an array ({agents.size}, {self.n})")
        rows, mask = self.sample_batches(rng, agents)
        return self.minibatch_gradients(Y, rows, mask)

    # ------------------------------------------------------------------ smoothness, provenance
    def _gram_apply(self, V: np.ndarray) -> np.ndarray:
        """Columns i of V (p, m) -> Phi_i^T Phi_i V[:, i] / N_i, one pass over the data."""
        out = np.zeros((self.p, self.m))
        chunk = self._row_chunk(self.m)
        for start in range(0, self.N, chunk):
            stop = min(start + chunk, self.N)
            X = self._X[start:stop].astype(np.float64, copy=False)     # the bound is computed in float64
            own = self._owner[start:stop]
            u = (X @ V)[np.arange(stop - start), own]
            U = np.zeros((stop - start, self.m))
            U[np.arange(stop - start), own] = u
            out += X.T @ U
        return out * self._inv_sizes

    def _smoothness(self) -> tuple[float, bool, dict]:
        if self._X.min() >= 0.0:
            # Power iteration from the all-ones vector; every iterate is > 0 on the support of
            # A_i = Phi_i^T Phi_i / N_i (rows with a nonzero entry), so Collatz-Wielandt applies.
            V = np.ones((self.p, self.m))
            lower = upper = np.zeros(self.m)
            for iteration in range(1, _POWER_MAXITER + 1):
                AV = self._gram_apply(V)
                support = V > 0
                ratio = np.where(support, AV / np.where(support, V, 1.0), 0.0)
                upper = ratio.max(axis=0)
                lower = np.einsum("pi,pi->i", V, AV) / np.einsum("pi,pi->i", V, V)
                if np.all(upper - lower <= _POWER_RTOL * upper):
                    break
                V = AV / np.linalg.norm(AV, axis=0)
            lam = upper * (1.0 + _CW_MARGIN)
            info = {"method": "power iteration + Collatz-Wielandt upper bound",
                    "iterations": iteration, "rayleigh_lower": lower.tolist(),
                    "lambda_max_upper": lam.tolist()}
            return float(0.5 * lam.max()), True, info
        from scipy.sparse.linalg import LinearOperator, eigsh
        lam = np.empty(self.m)
        for i in range(self.m):                              # build time only
            Xi = self._X[self.offsets[i]:self.offsets[i] + self.sizes[i]].astype(np.float64, copy=False)
            op = LinearOperator((self.p, self.p), dtype=np.float64,
                                matvec=lambda v, Xi=Xi, Ni=self.sizes[i]: Xi.T @ (Xi @ v) / Ni)
            lam[i] = eigsh(op, k=1, which="LA", tol=1e-10, v0=np.ones(self.p),
                           return_eigenvectors=False)[0]
        info = {"method": "scipy.sparse.linalg.eigsh (ARPACK, tol 1e-10), numerical estimate",
                "lambda_max": lam.tolist()}
        return float(0.5 * lam.max()), False, info

    def describe(self) -> dict:
        """Everything that defines the instance (data set, preprocessing, partition, minibatches, dtype)."""
        return {
            **self.info,
            "m": self.m, "p": self.p, "n_classes": self.n_classes, "n": self.n, "N": self.N,
            "sizes": self.sizes.tolist(),
            "batch_fraction": self.batch_fraction,
            "batch_sizes": self.batch_sizes.tolist(),
            "class_histograms": self.class_histograms.tolist(),
            "L_f": self.L_f, "L_f_certified": self.L_f_certified,
            "L_f_bound": "max_i (1/2) lambda_max(Phi_i^T Phi_i / N_i) (Hessian of softmax "
                         "cross-entropy <= (1/2) I_C kron Phi^T Phi / N, Gershgorin; Boehning 1992)",
            "L_f_computation": self._lambda_info,
            "loss": "softmax cross-entropy, log-sum-exp, mean over each agent's full local data",
            "model_layout": "w = W.reshape(-1), W of shape (p, C), row-major",
            "minibatch": "ceil(batch_fraction * N_i) samples, uniform without replacement, "
                         "fresh per call, independent across agents",
            "dtype": str(self.dtype),
            "dtype_note": "features and the products with them in dtype; models, values and gradients float64",
        }


# --------------------------------------------------------------------------- constructors

def from_arrays(images: np.ndarray, labels: np.ndarray, *, m: int = 4,
                partition: str = "dirichlet", alpha: float = 0.5, partition_seed: int = 0,
                preprocessing: str = "scale", batch_fraction: float = 0.1,
                subsample: int | None = None, n_classes: int = 10,
                dataset: str = "custom", dtype: str = "float64") -> SoftmaxClients:
    """A :class:`SoftmaxClients` from raw images (N, ...) in [0, 255] and labels (N,)."""
    require(is_int(partition_seed) and partition_seed >= 0, "partition_seed", partition_seed,
           "an integer >= 0")
    require(partition in PARTITIONS, "partition", partition, f"one of {PARTITIONS}")
    require(preprocessing in PREPROCESSINGS, "preprocessing", preprocessing,
           f"one of {PREPROCESSINGS}")
    require(is_int(m) and m >= 1, "m", m, "an integer number of agents >= 1")
    labels = np.asarray(labels)
    images = np.asarray(images)
    require(images.ndim >= 2 and labels.shape == (images.shape[0],), "labels",
           f"array of shape {labels.shape}", f"one label per image ({images.shape[0]})")
    sub_rng, part_rng = (np.random.default_rng(s)
                         for s in np.random.SeedSequence(partition_seed).spawn(2))
    source = np.arange(labels.shape[0])
    if subsample is not None:
        source = stratified_subsample(labels, subsample, sub_rng)
        images, labels = images[source], labels[source]
    assignment = partition_labels(labels, m, partition, alpha, part_rng)
    order = np.argsort(assignment, kind="stable")      # sort the raw images (cheap) by agent, so
    images, labels = images[order], labels[order]      # the float64 features are built once
    assignment, source = assignment[order], source[order]
    features = preprocess(images, preprocessing, dtype)
    del images
    info = {"dataset": dataset, "split": "train", "preprocessing": preprocessing,
            "partition": partition, "alpha": float(alpha) if partition == "dirichlet" else None,
            "partition_seed": int(partition_seed), "subsample": subsample,
            "seeding": "SeedSequence(partition_seed).spawn(2) -> (subsample, partition)"}
    return SoftmaxClients(features, labels.astype(np.int64), assignment, m=m,
                          n_classes=n_classes, batch_fraction=batch_fraction, info=info,
                          source_index=source, dtype=dtype)


def build(dataset: str, *, partition: str = "dirichlet", alpha: float = 0.5,
          partition_seed: int = 0, preprocessing: str = "scale", batch_fraction: float = 0.1,
          subsample: int | None = None, m: int = 4, root=None, dtype: str = "float64") -> SoftmaxClients:
    """The Section 5 problem on ``"mnist"`` (p = 784) or ``"cifar10"`` (p = 3072) training data.

    Data come from :func:`repro.data.load_mnist` / :func:`repro.data.load_cifar10` (verified
    files under ``root`` or ``REPRO_DATA_DIR``); defaults are this project's (module docstring).
    """
    from repro import data

    require(dataset in DATASETS, "dataset", dataset, f"one of {DATASETS}")
    arrays = data.load_mnist(root) if dataset == "mnist" else data.load_cifar10(root)
    problem = from_arrays(arrays["x_train"], arrays["y_train"], m=m, partition=partition,
                          alpha=alpha, partition_seed=partition_seed,
                          preprocessing=preprocessing, batch_fraction=batch_fraction,
                          subsample=subsample, dataset=dataset, dtype=dtype)
    problem.info["data_checksums"] = data.checksums_for(dataset)
    return problem
