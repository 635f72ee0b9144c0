"""Class-restricted MNIST split of the FedCLUP authors (Section 6.1 and Appendix D.1; the authors' code).

Reading of ``src/data_processing/mnist_niid.py`` and ``src/trainers/fedprox_server.py`` /
``fedprox_client.py`` of github.com/ZLHe0/fedprox-bilevel (commit ea14796), reproduced here:

* The training images are grouped by class, each class in dataset order, with one pointer per class.
* ``samples_per_class = len(train) // (num_clients * client_classes)`` (floor; 100 for c = 2, 20 for
  c = 10 with 300 clients).
* For client k = 0..num_clients-1: ``np.random.seed(k + seed * num_clients)`` and
  ``np.random.choice(10, client_classes, replace=False)`` (legacy global MT19937; we use
  ``np.random.RandomState(k + seed * num_clients).choice(...)``, the same stream). For each assigned
  class in the drawn order: if fewer than ``samples_per_class`` samples are left the client is
  skipped (**the samples already taken for its earlier classes stay consumed**, as in the code,
  which removes them before breaking); otherwise the next ``samples_per_class`` samples are taken.
* The client's class-concatenated list (drawn class order) is split: the first
  ``int(0.9 * total)`` samples are training, the rest test. Consequence: the test split holds only
  the last drawn class (20 samples; the last class has 66, 33, ... >= 20 samples unless c = 10), and
  for c = 10 (20 per class, 180 train) the training split holds only 9 classes.
* Selection: ``random.seed(1); random.sample(train_data['users'], K)`` over the list of generated
  (non-skipped) clients in generation order; all of them when K >= their number.

Legacy ``np.random.RandomState`` and Python's ``random`` are used ONLY to reproduce the authors'
split and selection (an exception to the suite's Generator-only rule); nothing else is random here.

Preprocessing (:func:`build`): pixels scaled by 1/255 (float64; the code uses float32), flattened
row-major to 784, and a constant-1 feature appended when ``bias`` (the code's ``Linear(784, 10)``
has a bias), so the StackedClients model W (785, 10) holds [weights; bias].
"""
from __future__ import annotations

import random

import numpy as np

from repro.data import load_mnist
from repro.errors import is_int, require
from repro.papers.fedclup.problems.stacked_clients import StackedClients

N_CLASSES = 10
PREDICT_AMONG = ("all", "own")

__all__ = ["N_CLASSES", "accuracy", "accuracy_and_restricted", "build", "class_restricted_accuracy", "select_clients",
           "split"]


def split(images, labels, num_clients: int = 300, client_classes: int = 2, seed: int = 1) -> dict:
    """The authors' class-restricted split of the training set (module docstring).

    ``labels`` (N,) integer labels in 0..9 in dataset order; ``images`` (N, ...) or None. Returns
    a dict with G = number of generated (non-skipped) clients:

    * ``client_ids`` (G,) int: the loop index k of each generated client (generation order);
    * ``skipped`` list[int]: the k of skipped clients;
    * ``classes`` (G, c) int: the assigned classes in drawn order;
    * ``train_index`` (G, n_train), ``test_index`` (G, n_test) int: indices into ``labels``/``images``;
    * ``train_labels`` (G, n_train), ``test_labels`` (G, n_test);
    * ``X_train`` (G, n_train, ...), ``X_test`` (G, n_test, ...) in the dtype of ``images`` (only
      when ``images`` is given);
    * ``samples_per_class``, ``n_train``, ``n_test``.

    The loop over clients is sequential by nature (the per-class pointers are state).
    """
    labels = np.asarray(labels)
    require(labels.ndim == 1 and labels.size >= 1 and np.issubdtype(labels.dtype, np.integer)
            and labels.min() >= 0 and labels.max() < N_CLASSES, "labels", labels.shape,
            f"a 1-d integer array with labels in 0..{N_CLASSES - 1}")
    if images is not None:
        images = np.asarray(images)
        require(images.shape[:1] == labels.shape, "images", images.shape, f"{labels.size} images (one per label)")
    require(is_int(num_clients) and num_clients >= 1, "num_clients", num_clients, "an integer >= 1")
    require(is_int(client_classes) and 1 <= client_classes <= N_CLASSES, "client_classes", client_classes,
            f"an integer in 1..{N_CLASSES}")
    require(is_int(seed) and seed >= 0, "seed", seed, "an integer >= 0")
    per_class = labels.size // (num_clients * client_classes)
    require(per_class >= 1, "num_clients", num_clients,
            f"num_clients * client_classes <= {labels.size} (at least one sample per class and client)")
    pools = [np.flatnonzero(labels == c) for c in range(N_CLASSES)]
    pointer = [0] * N_CLASSES
    ids, skipped, classes, index = [], [], [], []
    for k in range(int(num_clients)):
        drawn = np.random.RandomState(k + seed * num_clients).choice(N_CLASSES, client_classes, replace=False)
        taken, ok = [], True
        for c in drawn:
            if pools[c].size - pointer[c] < per_class:
                ok = False
                break
            taken.append(pools[c][pointer[c]:pointer[c] + per_class])
            pointer[c] += per_class
        if not ok:
            skipped.append(k)
            continue
        ids.append(k)
        classes.append(drawn)
        index.append(np.concatenate(taken))
    total = per_class * client_classes
    n_train = int(0.9 * total)
    index = np.asarray(index, dtype=np.int64).reshape(len(ids), total)
    out = {"client_ids": np.asarray(ids, dtype=np.int64), "skipped": skipped,
           "classes": np.asarray(classes, dtype=np.int64).reshape(len(ids), client_classes),
           "train_index": index[:, :n_train], "test_index": index[:, n_train:],
           "train_labels": labels[index[:, :n_train]], "test_labels": labels[index[:, n_train:]],
           "samples_per_class": per_class, "n_train": n_train, "n_test": total - n_train}
    if images is not None:
        out["X_train"] = images[out["train_index"]]
        out["X_test"] = images[out["test_index"]]
    return out


def select_clients(num_generated: int, K: int = 10, seed: int = 1) -> list:
    """Positions (into the generated-client list) of the K clients the authors train:
    ``random.Random(seed).sample(range(num_generated), K)``, the same draw as the code's
    ``random.seed(1); random.sample(users, K)`` (``random.sample`` depends only on the length);
    all clients, in order, when K >= num_generated (as the code)."""
    require(is_int(num_generated) and num_generated >= 1, "num_generated", num_generated, "an integer >= 1")
    require(is_int(K) and K >= 1, "K", K, "an integer >= 1")
    require(is_int(seed), "seed", seed, "an integer")
    if K >= num_generated:
        return list(range(int(num_generated)))
    return random.Random(int(seed)).sample(range(int(num_generated)), int(K))


def _features(images: np.ndarray, bias: bool) -> np.ndarray:
    X = images.reshape(images.shape[:-2] + (-1,)).astype(np.float64) / 255.0
    if bias:
        X = np.concatenate([X, np.ones(X.shape[:-1] + (1,))], axis=-1)
    return X


def build(client_classes: int, *, num_clients: int = 300, selected: int = 10, bias: bool = True, root=None,
          seed: int = 1, selection_seed: int = 1) -> dict:
    """The authors' MNIST federated data set (Section 6.1) for ``client_classes`` = c classes per client.

    Loads MNIST with :func:`repro.data.load_mnist` (``root`` or ``REPRO_DATA_DIR``; raises DataError
    when missing), splits it with :func:`split` (``--num_clients 300 --seed 1``), keeps the clients of
    :func:`select_clients` (K = ``selected``, ``random.seed(1)``) in selection order and preprocesses
    (module docstring; p = 785 with bias, 784 without). Returns:

    * ``train``: softmax :class:`StackedClients` (C = 10) on X (K, n_train, p), labels (K, n_train);
    * ``client_test``: {"X": (K, n_test, p), "y": (K, n_test)}, each client's own 10% split;
    * ``client_classes`` (K, c) int: assigned classes (drawn order);
    * ``train_class_mask`` (K, 10) bool: classes present in each client's training split (the code's
      ``Client.client_classes``, used by its class-restricted metrics; 9 classes when c = 10);
    * ``test_X`` (10000, p), ``test_y`` (10000,): the full MNIST test set, same preprocessing;
    * ``describe``: sizes, classes, seeds and the code facts behind them.
    """
    require(is_int(selected) and selected >= 1, "selected", selected, "an integer >= 1")
    require(isinstance(bias, (bool, np.bool_)), "bias", bias, "True or False")
    arrays = load_mnist(root)
    sp = split(None, arrays["y_train"], num_clients, client_classes, seed)
    G = sp["client_ids"].size
    require(G >= 1, "client_classes", client_classes, "a value for which at least one client is generated")
    pick = np.asarray(select_clients(G, selected, selection_seed), dtype=np.int64)
    tr_idx, te_idx = sp["train_index"][pick], sp["test_index"][pick]
    sizes = {tr_idx[i].size for i in range(pick.size)}
    require(len(sizes) == 1, "client_classes", client_classes,
            f"a split where every selected client has the same number of training samples (got {sorted(sizes)})")
    y_train = arrays["y_train"].astype(np.int64)
    X_tr = _features(arrays["x_train"][tr_idx], bias)
    X_te = _features(arrays["x_train"][te_idx], bias)
    y_tr, y_te = y_train[tr_idx], y_train[te_idx]
    mask = np.zeros((pick.size, N_CLASSES), dtype=bool)
    np.put_along_axis(mask, y_tr, True, axis=1)
    classes = sp["classes"][pick]
    return {
        "train": StackedClients(X_tr, y_tr, "softmax", n_classes=N_CLASSES),
        "client_test": {"X": X_te, "y": y_te},
        "client_classes": classes,
        "train_class_mask": mask,
        "test_X": _features(arrays["x_test"], bias),
        "test_y": arrays["y_test"].astype(np.int64),
        "describe": {
            "num_clients": int(num_clients), "client_classes": int(client_classes), "seed": int(seed),
            "class_seed_rule": "np.random.RandomState(k + seed * num_clients).choice(10, c, replace=False)",
            "generated": int(G), "skipped": list(sp["skipped"]),
            "selection": f"random.Random({selection_seed}).sample(range({G}), {selected})",
            "selected_positions": pick.tolist(), "selected_client_ids": sp["client_ids"][pick].tolist(),
            "classes": classes.tolist(), "train_classes": [np.flatnonzero(r).tolist() for r in mask],
            "samples_per_class": sp["samples_per_class"], "n_train": sp["n_train"], "n_test": sp["n_test"],
            "features": X_tr.shape[-1], "bias": bool(bias), "pixel_scale": "1/255, float64",
            "test_set": "full MNIST test set (10000 images)",
        },
    }


def _logits(W, X):
    W = np.asarray(W, dtype=np.float64)
    X = np.asarray(X, dtype=np.float64)
    require(W.ndim == 3, "W", W.shape, "an array of shape (K, p, C) (one model per client)")
    require(X.ndim in (2, 3) and X.shape[-1] == W.shape[1] and (X.ndim == 2 or X.shape[0] == W.shape[0]),
            "X", X.shape, f"shape (K, n, p) or (n, p) with K = {W.shape[0]}, p = {W.shape[1]}")
    if X.ndim == 3:
        return np.matmul(X, W)                                            # (K, n, C)
    # a shared data set (the test set): one (n, p) @ (p, K C) product, ~4x faster than K thin (n, p) @ (p, C) ones
    K, p, C = W.shape
    return (X @ np.moveaxis(W, 0, 1).reshape(p, K * C)).reshape(X.shape[0], K, C).transpose(1, 0, 2)


def _labels(y, shape):
    y = np.asarray(y)
    require(np.issubdtype(y.dtype, np.integer) and y.shape in (shape, shape[1:]), "y", y.shape,
            f"integer labels of shape {shape} or {shape[1:]}")
    return np.broadcast_to(y, shape)


def accuracy(W, X, y) -> np.ndarray:
    """Accuracy of each client's model on its data: mean_j [argmax_c (W_k^T x_kj)_c == y_kj], shape (K,).

    W (K, p, C); X (K, n, p) with y (K, n), or a shared data set X (n, p), y (n,) (e.g. the full test
    set for every client model). Ties go to the smallest class (numpy/torch argmax)."""
    return _accuracy(_logits(W, X), y)


def _accuracy(Z, y) -> np.ndarray:
    y = _labels(y, Z.shape[:2])
    return np.mean(np.argmax(Z, axis=2) == y, axis=1)


def accuracy_and_restricted(W, X, y, classes) -> tuple[np.ndarray, np.ndarray]:
    """:func:`accuracy` and :func:`class_restricted_accuracy` (``predict_among="all"``) of the same models on the
    same data, from one product of the data with the models."""
    Z = _logits(W, X)
    return _accuracy(Z, y), _restricted_accuracy(Z, y, classes, "all", False)


def class_restricted_accuracy(W, X, y, classes, *, predict_among: str = "all", return_counts: bool = False):
    """Class-restricted accuracy per client (the authors' ``get_loss(..., class_specific=True)``).

    Only the samples whose label is one of client k's classes count. ``classes`` is either an
    integer array (K, c) of class ids or a boolean mask (K, C). Prediction:

    * ``predict_among="all"`` (default, the authors' code): argmax over all C outputs; the code masks
      the *samples* (``torch.isin(label, client_classes)``), not the outputs;
    * ``predict_among="own"``: argmax only among the client's own classes (other logits set to -inf).

    To reproduce the code exactly, pass ``build(...)["train_class_mask"]`` (the code's
    ``client_classes`` is the set of labels in the training split). Returns accuracies (K,), NaN for a
    client with no qualifying sample (the code skips it); with ``return_counts`` the pair
    (correct (K,), count (K,)) instead, whose sums give the code's sample-weighted average.
    """
    require(predict_among in PREDICT_AMONG, "predict_among", predict_among, f"one of {', '.join(PREDICT_AMONG)}")
    return _restricted_accuracy(_logits(W, X), y, classes, predict_among, return_counts)


def _restricted_accuracy(Z, y, classes, predict_among: str, return_counts: bool):
    """:func:`class_restricted_accuracy` from the logits Z (K, n, C)."""
    K, n, C = Z.shape
    y = _labels(y, (K, n))
    require(y.size == 0 or (y.min() >= 0 and y.max() < C), "y", f"labels in [{y.min()}, {y.max()}]",
            f"labels in 0..{C - 1}")
    classes = np.asarray(classes)
    if classes.dtype == bool:
        require(classes.shape == (K, C), "classes", classes.shape, f"a boolean mask of shape ({K}, {C})")
        mask = classes
    else:
        require(np.issubdtype(classes.dtype, np.integer) and classes.ndim == 2 and classes.shape[0] == K
                and (classes.size == 0 or (classes.min() >= 0 and classes.max() < C)), "classes", classes.shape,
                f"an integer array (K, c) of class ids in 0..{C - 1} with K = {K}, or a boolean mask (K, C)")
        mask = np.zeros((K, C), dtype=bool)
        np.put_along_axis(mask, classes, True, axis=1)
    valid = np.take_along_axis(mask, y, axis=1)                           # (K, n)
    if predict_among == "own":
        Z = np.where(mask[:, None, :], Z, -np.inf)
    correct = np.sum((np.argmax(Z, axis=2) == y) & valid, axis=1)
    count = np.sum(valid, axis=1)
    if return_counts:
        return correct, count
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, correct / np.maximum(count, 1), np.nan)
