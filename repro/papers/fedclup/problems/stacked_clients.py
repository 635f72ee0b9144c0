"""Empirical risks of m clients with equally many samples, stacked into one array (FedCLUP).

Client i holds ``X[i]`` (n x p features) and ``y[i]`` (n targets). Its empirical risk, (2) of FedCLUP,
is L_i(w; S_i) = (1/n) sum_j loss(w; x_ij, y_ij) + (ridge/2) ||w||^2 with

* ``loss="squared"``: (1/2)(x^T w - y)^2, model w in R^p (this project's linear-regression test bed);
* ``loss="softmax"``: logsumexp(W^T x) - w_y^T x, model W in R^{p x C} (multinomial logistic regression:
  the authors' synthetic task of Section 6.1 and MNIST Logit of Tables 2 and 4), labels in {0..C-1}.

Every method evaluates all requested clients at once with batched matmuls (no Python loop over
clients). ``clients`` (an integer index array) selects a subset in that order, as client sampling
needs; the model array's leading axis then has ``len(clients)`` rows.

Equal sample counts are an assumption of the FedCLUP analysis (n_i = n, p_i = 1/m, Section 4.1) and hold
for every data set the suite builds for it (the class-restricted MNIST split gives every client the
same count by construction).
"""
from __future__ import annotations

import numpy as np

from repro.errors import require
from repro.special import logistic_of_negated_inplace

LOSSES = ("squared", "softmax")


def row_max(Z: np.ndarray) -> np.ndarray:
    """The max over the last (class) axis, ``Z.max(axis=-1)`` (a max is exact, so the same numbers), by a loop over
    the C columns (never over clients or samples): numpy's reductions along a short trailing axis (C = 2 or 10
    classes) run at a fraction of the speed of elementwise operations (~5x slower on (2048, 231, 10) float32)."""
    top = Z[..., 0].copy()
    for c in range(1, Z.shape[-1]):
        np.maximum(top, Z[..., c], out=top)
    return top


def _shifted_exp(Z: np.ndarray):
    """For the softmax over the last (class) axis: Z minus its row max, exp of that, and the row sums.

    Hand-written (:func:`row_max`, and the sums by a loop over the C columns) because numpy's reductions along a
    short trailing axis are slow: about 4x faster than ``scipy.special.softmax`` on these shapes."""
    top = row_max(Z)
    shifted = Z - top[..., None]
    E = np.exp(shifted)
    total = E[..., 0].copy()
    for c in range(1, Z.shape[-1]):
        total += E[..., c]
    return shifted, E, total


class StackedClients:
    """m clients' empirical risks L_i for the squared or the softmax loss (module docstring)."""

    def __init__(self, X: np.ndarray, y: np.ndarray, loss: str, *, n_classes: int | None = None,
                 ridge: float = 0.0):
        require(loss in LOSSES, "loss", loss, f"one of {', '.join(LOSSES)}")
        X = np.asarray(X, dtype=np.float64)
        require(X.ndim == 3 and min(X.shape) >= 1, "X", getattr(X, "shape", X),
                "an array of shape (m, n, p) with m, n, p >= 1")
        require(bool(np.all(np.isfinite(X))), "X", "non-finite entries", "finite features")
        require(np.isfinite(ridge) and ridge >= 0, "ridge", ridge, "a finite number >= 0")
        y = np.asarray(y)
        require(y.shape == X.shape[:2], "y", y.shape, f"shape (m, n) = {X.shape[:2]}")
        self.X, self.loss, self.ridge = X, loss, float(ridge)
        self.m, self.n, self.p = X.shape
        if loss == "squared":
            require(n_classes is None, "n_classes", n_classes, "None for the squared loss")
            self.y = y.astype(np.float64)
            require(bool(np.all(np.isfinite(self.y))), "y", "non-finite entries", "finite targets")
            self.shape: tuple[int, ...] = (self.p,)
        else:
            require(n_classes is not None and int(n_classes) >= 2, "n_classes", n_classes,
                    "an integer >= 2 for the softmax loss")
            require(np.issubdtype(y.dtype, np.integer) and y.min() >= 0 and y.max() < n_classes,
                    "y", f"labels in [{y.min()}, {y.max()}]", f"integer labels in 0..{int(n_classes) - 1}")
            self.y = y.astype(np.int64)
            self.n_classes = int(n_classes)
            self.shape = (self.p, self.n_classes)
            self._onehot = np.eye(self.n_classes)[self.y]           # (m, n, C)

    @classmethod
    def concatenate(cls, parts) -> "StackedClients":
        """The clients of several problems one after the other (a batch of runs, :func:`repro.papers.fedclup.algorithms.fedclup.
        run_batch`): the same loss, rows per client, features, classes and ridge; client j of part r becomes
        client r m + j."""
        parts = list(parts)
        require(len(parts) >= 1, "parts", len(parts), "at least one StackedClients")
        first = parts[0]
        same = {(q.loss, q.n, q.p, getattr(q, "n_classes", None), q.ridge) for q in parts}
        require(len(same) == 1, "parts", sorted(same, key=repr),
                "problems with the same loss, rows per client, features, classes and ridge")
        y = np.concatenate([q.y for q in parts])
        return cls(np.concatenate([q.X for q in parts]), y, first.loss, ridge=first.ridge,
                   n_classes=getattr(first, "n_classes", None))

    def subset(self, clients, rows=None) -> "StackedClients":
        """The selected clients (an index array, in that order; None: all) as a problem of their own, their data
        gathered once: for a round whose sampled clients take many steps on the same data; with ``rows`` (one row index
        array per selected client, as :meth:`sample_rows` draws them) only those rows, for a mini-batch that several
        steps reuse."""
        X, y, onehot, k = self._data(clients, rows)
        sub = object.__new__(type(self))
        sub.__dict__.update(self.__dict__)
        sub.X, sub.y, sub.m, sub.n = X, y, k, X.shape[1]
        if self.loss == "softmax":
            sub._onehot = onehot
        return sub

    # ------------------------------------------------------------------ helpers
    def _select(self, clients):
        if clients is None:
            return slice(None), self.m
        idx = np.asarray(clients)
        require(idx.ndim == 1 and np.issubdtype(idx.dtype, np.integer) and (idx.size == 0 or
                (idx.min() >= 0 and idx.max() < self.m)), "clients", clients,
                f"a 1-d integer array of client indices in 0..{self.m - 1}")
        return idx, idx.size

    def _check_models(self, W: np.ndarray, rows: int) -> np.ndarray:
        W = np.asarray(W, dtype=np.float64)
        require(W.shape == (rows,) + self.shape, "W", W.shape, f"shape {(rows,) + self.shape}")
        return W

    def _data(self, clients, rows=None):
        """The selected clients' data, or only their ``rows`` (one row index array per client): gathered straight
        from the stacked arrays, so that a minibatch never copies its clients' whole data first."""
        idx, k = self._select(clients)
        if rows is None:
            return self.X[idx], self.y[idx], self._onehot[idx] if self.loss == "softmax" else None, k
        rows = np.asarray(rows)
        require(rows.ndim == 2 and rows.shape[0] == k and np.issubdtype(rows.dtype, np.integer)
                and rows.min() >= 0 and rows.max() < self.n, "rows", rows.shape,
                f"an integer array (clients, batch) with entries in 0..{self.n - 1}")
        which = (np.arange(self.m)[idx])[:, None]                        # (k, 1): client of each row of ``rows``
        onehot = self._onehot[which, rows] if self.loss == "softmax" else None
        return self.X[which, rows], self.y[which, rows], onehot, k

    # ------------------------------------------------------------------ oracle
    def _values(self, W, X, y, onehot):
        if self.loss == "squared":
            r = np.einsum("knp,kp->kn", X, W) - y
            data = 0.5 * np.mean(r * r, axis=1)
        else:
            Z = np.matmul(X, W)                                        # (k, n, C)
            shifted, _, total = _shifted_exp(Z)
            data = np.mean(np.log(total) - np.sum(shifted * onehot, axis=2), axis=1)
        return data + 0.5 * self.ridge * np.sum(W.reshape(W.shape[0], -1) ** 2, axis=1)

    def _gradients(self, W, X, y, onehot):
        """The mean gradient over the rows of X plus ridge W, as a fresh array: ``g / count + ridge * W`` in place,
        without its model-sized temporaries, and without the ridge term when ridge = 0 (adding 0 W changes no
        finite value, only possibly the sign of a zero entry; and a model already diverged to inf into nan)."""
        count = X.shape[1]
        if self.loss == "squared":
            r = np.einsum("knp,kp->kn", X, W) - y
            g = np.einsum("knp,kn->kp", X, r)
        elif self.n_classes == 2:
            g = self._binary_gradients(W, X, onehot)
        else:
            _, E, total = _shifted_exp(np.matmul(X, W))
            S = E / total[..., None] - onehot
            g = np.matmul(X.transpose(0, 2, 1), S)
        g /= count
        if self.ridge:
            g += self.ridge * W
        return g

    @staticmethod
    def _binary_gradients(W, X, onehot):
        """sum_j x_j (softmax(W^T x_j) - e_{y_j})^T for C = 2 classes, with one exponential per sample: the
        two-class softmax of logits (z_0, z_1) is (1 - s, s) with s = expit(z_1 - z_0), so the residual is
        (-(s - [y = 1]), s - [y = 1]) and only the logit difference X (w_1 - w_0) is needed. The same numbers as
        the general softmax up to rounding; half of its matmul and exp work (the authors' synthetic data has
        C = 2, and the exponential dominates the cost of those runs). s = 1 / (1 + exp(-u)) with numpy's
        vectorised exp, in place, rather than ``scipy.special.expit``, an element-by-element loop ~3x slower at
        these sizes (``benchmarks/bench_fedclup.py --only sigmoid``). The product is taken with w_0 - w_1, which
        gives -u exactly (negating a factor negates every product and sum under round-to-nearest), so the
        sigmoid starts from -u (:func:`repro.special.logistic_of_negated_inplace`) without a negation pass."""
        r = np.matmul(X, (W[..., 0] - W[..., 1])[..., None])[..., 0]            # -u, minus the logit differences
        logistic_of_negated_inplace(r)
        r -= onehot[..., 1]
        g1 = np.matmul(X.transpose(0, 2, 1), r[..., None])[..., 0]              # (k, p)
        g = np.empty(g1.shape + (2,))
        np.negative(g1, out=g[..., 0])
        g[..., 1] = g1
        return g

    def values(self, W: np.ndarray, clients=None) -> np.ndarray:
        """L_i(W_i; S_i) for each selected client: shape (k,)."""
        X, y, onehot, k = self._data(clients)
        return self._values(self._check_models(W, k), X, y, onehot)

    def gradients(self, W: np.ndarray, clients=None) -> np.ndarray:
        """grad L_i(W_i; S_i) for each selected client: shape (k, *shape)."""
        X, y, onehot, k = self._data(clients)
        return self._gradients(self._check_models(W, k), X, y, onehot)

    def minibatch_gradients(self, W: np.ndarray, rows: np.ndarray, clients=None) -> np.ndarray:
        """Mini-batch gradient (1/B) sum_{j in batch} grad loss(W_i; z_ij) + ridge W_i (Assumption 4)."""
        X, y, onehot, k = self._data(clients, rows)
        return self._gradients(self._check_models(W, k), X, y, onehot)

    def sample_rows(self, rng: np.random.Generator, batch: int, clients=None) -> np.ndarray:
        """Each selected client's batch of ``batch`` distinct row indices, uniformly without replacement
        within the batch, independently across clients: shape (k, batch)."""
        _, k = self._select(clients)
        require(isinstance(batch, (int, np.integer)) and 1 <= batch <= self.n, "batch", batch,
                f"an integer in 1..n = {self.n}")
        return np.argpartition(rng.random((k, self.n)), batch - 1, axis=1)[:, :batch]

    # ------------------------------------------------------------------ constants
    def gram_eigenvalues(self) -> np.ndarray:
        """Eigenvalues of X_i^T X_i / n per client, ascending: shape (m, p) (exact, LAPACK)."""
        gram = np.matmul(self.X.transpose(0, 2, 1), self.X) / self.n
        return np.linalg.eigvalsh(gram)

    def smoothness(self) -> np.ndarray:
        """A smoothness constant of each L_i: lambda_max(X_i^T X_i / n) + ridge for the squared loss
        (exact); (1/2) lambda_max(X_i^T X_i / n) + ridge for the softmax loss (the Hessian of the
        cross-entropy is (diag s - s s^T) kron x x^T and diag s - s s^T <= I/2, Boehning 1992)."""
        top = self.gram_eigenvalues()[:, -1]
        return (top if self.loss == "squared" else 0.5 * top) + self.ridge

    def strong_convexity(self) -> np.ndarray:
        """A strong-convexity constant of each L_i: lambda_min(X_i^T X_i / n) + ridge (squared loss,
        exact); ``ridge`` for the softmax loss (its curvature vanishes along W -> W + v 1^T)."""
        if self.loss == "squared":
            return self.gram_eigenvalues()[:, 0] + self.ridge
        return np.full(self.m, self.ridge)
