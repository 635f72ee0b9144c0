"""The authors' synthetic multinomial-logistic task of FedCLUP (Section 6.1, Appendix D.1 and the authors'
code; where the paper leaves a choice open, this project's default is named below).

Generator (the authors' code, ``src/simulation/generate_data.py``). For client k = 0..m-1:

* W_k in R^{C x d} with i.i.d. N(0, R^2) entries: R is the per-entry *standard deviation*, as in
  the code's ``np.random.normal(0, R)`` (so E||W_k - Wbar||_F^2 = (1 - 1/m) C d R^2, derived here; this
  R is not the radius of (5));
* a client-specific feature mean v_k ~ N(0, I_d);
* n rows x ~ N(v_k, Sigma), Sigma = diag(j^{-1.2}, j = 1..d) (the code's default "toeplitz" option);
* label y = argmax_c softmax(W_k x)_c = argmax_c (W_k x)_c (``label_model="argmax"``, the code's; the
  label model is a choice the paper leaves open, and this is this project's default), or
  y ~ Categorical(softmax(W_k x)) (``"sample"``, the variant that the wording of Section 6.1, "labels are
  produced by a logistic regression model", admits).

Heterogeneity reading (``heterogeneity``): "entry_std" (default, the code's) draws W_k as above; "radius" reads R as
the radius of the parameter space (5), max_i ||w*_i - sum_j p_j w*_j||^2 <= R^2 with p_j = 1/m, taking the
generator's models as the w*_i (as the code's error metrics do): the same draws, with the deviations W_k - Wbar
rescaled so that the largest ||W_k - Wbar||_F is exactly R (this project's reading of (5); the instance lies on the
boundary of P(R)).

Randomness. One ``numpy.random.Generator`` per client from ``np.random.SeedSequence([seed, k])``;
within a client the draws come in the code's order (W_k, then v_k, then the n x d features, then,
for "sample", n uniforms for the labels). This does NOT reproduce the authors' stream bit for bit:
the code calls ``np.random.seed(k + seed*m)`` (legacy global MT19937) before drawing W_k with
``np.random.normal``, v_k with ``np.random.normal`` and the features with
``np.random.multivariate_normal`` (an SVD-based transform). The data have the same distribution.

Data use (a choice the paper leaves open; this project's default): all n rows are used. The authors' loader reads the header-less CSV files
with ``pandas.read_csv`` and default header inference, so the first row becomes the header and each
client trains on n - 1 rows; we do not reproduce that.

Scaling and model (the authors' code, ``simulation_main.py``): features are scaled per client by their standard deviation
without centring (:func:`scale_features`); the model of client i is W_i in R^{d x C} (the
:class:`StackedClients` orientation; the generator's W_k is C x d, so W_code = model^T), no bias.
"""
from __future__ import annotations

import numpy as np

from repro.errors import is_int, is_real, require
from repro.papers.fedclup.problems.stacked_clients import StackedClients

LABEL_MODELS = ("argmax", "sample")
#: readings of R (module docstring): the code's per-entry standard deviation, or the radius of (5)
HETEROGENEITY = ("entry_std", "radius")

#: The smoothness constant hard-coded in the authors' notebooks (their code's own estimate is only printed).
L_CODE = 9.13

#: Stream tag of the initial model's SeedSequence, [seed, INIT_STREAM] (the bytes of "init" as an
#: integer; far above any client index, so it never coincides with a client's [seed, k]).
INIT_STREAM = int.from_bytes(b"init", "big")

__all__ = ["HETEROGENEITY", "INIT_STREAM", "LABEL_MODELS", "L_CODE", "clients", "generate", "global_error", "initial_model",
           "initial_models", "local_errors", "scale_features", "smoothness_constants"]


def _sigma_diag(d: int) -> np.ndarray:
    return np.arange(1, d + 1, dtype=np.float64) ** -1.2


def generate(m: int, n: int, d: int, C: int, R: float, seed: int, label_model: str = "argmax",
             heterogeneity: str = "entry_std") -> dict:
    """Draw the authors' synthetic data (module docstring; the authors' ``generate_data.py``).

    Returns a dict with X (m, n, d) float64 (unscaled), labels (m, n) int64 in 0..C-1,
    W_true (m, C, d) (the generator's W_k, code orientation), W_bar (C, d) = mean_k W_k, and, for
    bookkeeping, means (m, d) (the v_k), sigma_diag (d,) and params (the arguments).
    A Python loop over clients draws the data (each client has its own Generator, as each has its
    own seed in the code); the labels are computed for all clients at once.
    """
    require(is_int(m) and m >= 1, "m", m, "an integer >= 1 (number of clients)")
    require(is_int(n) and n >= 1, "n", n, "an integer >= 1 (samples per client)")
    require(is_int(d) and d >= 1, "d", d, "an integer >= 1 (feature dimension)")
    require(is_int(C) and C >= 2, "C", C, "an integer >= 2 (number of classes)")
    require(is_real(R) and R >= 0, "R", R, "a finite number >= 0 (per-entry std of W_k)")
    require(is_int(seed) and seed >= 0, "seed", seed, "an integer >= 0")
    require(label_model in LABEL_MODELS, "label_model", label_model, f"one of {', '.join(LABEL_MODELS)}")
    require(heterogeneity in HETEROGENEITY, "heterogeneity", heterogeneity, f"one of {', '.join(HETEROGENEITY)}")
    root = np.sqrt(_sigma_diag(d))
    W = np.empty((m, C, d))
    V = np.empty((m, d))
    X = np.empty((m, n, d))
    U = np.empty((m, n)) if label_model == "sample" else None
    for k in range(m):
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), k]))
        W[k] = R * rng.standard_normal((C, d))
        V[k] = rng.standard_normal(d)
        X[k] = V[k] + rng.standard_normal((n, d)) * root
        if U is not None:
            U[k] = rng.random(n)
    if heterogeneity == "radius":
        W = _on_radius(W, R)
    logits = np.matmul(X, np.swapaxes(W, 1, 2))                         # (m, n, C) = X_k W_k^T
    if label_model == "argmax":
        labels = np.argmax(logits, axis=2)
    else:                                                              # inverse-CDF draw
        z = logits - logits.max(axis=2, keepdims=True)
        p = np.exp(z)
        cdf = np.cumsum(p, axis=2) / p.sum(axis=2, keepdims=True)
        labels = np.minimum(np.sum(cdf < U[..., None], axis=2), C - 1)
    return {"X": X, "labels": labels.astype(np.int64), "W_true": W, "W_bar": W.mean(axis=0), "means": V,
            "sigma_diag": _sigma_diag(d),
            "params": {"m": int(m), "n": int(n), "d": int(d), "C": int(C), "R": float(R), "seed": int(seed),
                       "label_model": label_model, "heterogeneity": heterogeneity}}


def _on_radius(W: np.ndarray, R: float) -> np.ndarray:
    """The models W (m, C, d) with their deviations from the mean rescaled so that the largest ||W_k - Wbar||_F is R
    (the "radius" reading of (5)); with R = 0 or a single client every model is the mean."""
    mean = W.mean(axis=0)
    dev = W - mean
    largest = float(np.sqrt(np.sum(dev * dev, axis=(1, 2))).max())
    return mean + (dev * (R / largest) if largest > 0 else 0.0 * dev)


def scale_features(X):
    """Per-client feature scaling of the authors' loader (``simulation_main.py``).

    Every feature of client i is divided by its standard deviation over the client's n rows
    (ddof = 0), without centring: sklearn ``StandardScaler(with_mean=False)`` semantics, including
    its rule that a feature whose variance is within the two-pass rounding-error bound
    n eps var + (n |mean| eps)^2 (i.e. a constant feature) keeps scale 1. X (m, n, d) ->
    (X_scaled (m, n, d), scales (m, d)).
    """
    X = np.asarray(X, dtype=np.float64)
    require(X.ndim == 3 and min(X.shape) >= 1, "X", X.shape, "an array of shape (m, n, d)")
    n = X.shape[1]
    mean, var = X.mean(axis=1), X.var(axis=1)
    # sklearn's _is_constant_feature: a variance within the rounding-error bound of the two-pass
    # algorithm (Chan, Golub & LeVeque) marks a constant feature, whose scale is set to 1.
    eps = np.finfo(np.float64).eps
    constant = var <= n * eps * var + (n * mean * eps) ** 2
    scales = np.where(constant, 1.0, np.sqrt(var))
    return X / scales[:, None, :], scales


def smoothness_constants(X_scaled) -> dict:
    """Smoothness constants of the clients' softmax losses L_i(W) = (1/n) sum_j CE(W^T x_j, y_j), W (d, C).

    * ``"L_paper"`` = max_i lambda_max(X_i^T X_i) / (4n): the paper's formula (Appendix D.1), the
      classical bound of the *binary* logistic loss in the difference parametrisation
      w = w_1 - w_2 (Hessian s_1 s_2 x x^T <= x x^T / 4).
    * ``"L_softmax"`` = max_i (1/2) lambda_max(X_i^T X_i / n): a valid smoothness constant of the
      C-column softmax loss as implemented in :class:`StackedClients` and in the authors' code, for
      every C >= 2. The Hessian is (1/n) sum_j (diag s_j - s_j s_j^T) kron x_j x_j^T and
      diag s - s s^T <= I/2 (Boehning 1992). For C = 2 the 1/4 bound does not carry over: along the
      direction V = [u, -u] the curvature is 2 s_1 s_2 (u^T x)^2 / ||u||^2, which equals
      (1/2)(u^T x)^2/||u||^2 at W = 0 (s = (1/2, 1/2)); so L_paper is *not* an upper bound of the
      C-column Hessian (it is exceeded by a factor 2 at W = 0), while L_softmax is attained there.
    * ``"L_code"`` = 9.13, hard-coded in the authors' notebooks.
    * ``"mu"`` = 0: no ridge, and the softmax loss is flat along W -> W + v 1^T.

    X_scaled (m, n, d) (the features the model is trained on); constants are floats.
    """
    X = np.asarray(X_scaled, dtype=np.float64)
    require(X.ndim == 3 and min(X.shape) >= 1, "X_scaled", X.shape, "an array of shape (m, n, d)")
    n = X.shape[1]
    top = np.linalg.eigvalsh(np.matmul(np.swapaxes(X, 1, 2), X))[:, -1].max()
    return {"L_paper": float(top / (4 * n)), "L_softmax": float(0.5 * top / n), "L_code": L_CODE, "mu": 0.0}


def clients(data: dict, scaled: bool = True) -> StackedClients:
    """Softmax :class:`StackedClients` (n_classes = C, model shape (d, C), W_code = model^T) on the
    generator's data, with the features scaled by :func:`scale_features` when ``scaled`` (the code's
    default) or raw otherwise."""
    require(isinstance(data, dict) and {"X", "labels", "W_true"} <= set(data), "data",
            type(data).__name__, "the dict returned by generate()")
    require(isinstance(scaled, (bool, np.bool_)), "scaled", scaled, "True or False")
    X = scale_features(data["X"])[0] if scaled else data["X"]
    return StackedClients(X, data["labels"], "softmax", n_classes=int(np.shape(data["W_true"])[1]))


def global_error(w_g, W_bar) -> np.ndarray:
    """The authors' global error metric (their code's ATR): ||w_g - W_bar^T||_F, no un-scaling.

    w_g (..., d, C) (e.g. one per round), W_bar (C, d) -> (...,).
    """
    w_g = np.asarray(w_g, dtype=np.float64)
    W_bar = np.asarray(W_bar, dtype=np.float64)
    require(W_bar.ndim == 2 and w_g.ndim >= 2 and w_g.shape[-2:] == W_bar.T.shape, "w_g", w_g.shape,
            f"shape (..., d, C) = (..., {W_bar.shape[1]}, {W_bar.shape[0]}) matching W_bar (C, d)")
    return np.sqrt(np.sum((w_g - W_bar.T) ** 2, axis=(-2, -1)))


def local_errors(w_loc, scales, W_true) -> np.ndarray:
    """Per-client un-scaled errors ||w_i ⊘ s_i[:, None] - W_true_i^T||_F (the authors' local error metric).

    Row k of the learned model w_i (trained on features divided by s_{i,k}) is divided by s_{i,k},
    which maps it back to the unscaled feature space of W_true_i. w_loc (..., m, d, C), scales (m, d),
    W_true (m, C, d) -> (..., m). The code's ITR is the mean over clients of these unsquared norms;
    the theory's quantity is their square (which one to report is a choice the paper leaves open; this
    project's default logs both).
    """
    w_loc = np.asarray(w_loc, dtype=np.float64)
    scales = np.asarray(scales, dtype=np.float64)
    W_true = np.asarray(W_true, dtype=np.float64)
    require(W_true.ndim == 3, "W_true", W_true.shape, "an array of shape (m, C, d)")
    m, C, d = W_true.shape
    require(scales.shape == (m, d) and bool(np.all(scales > 0)), "scales", scales.shape,
            f"positive scales of shape (m, d) = ({m}, {d})")
    require(w_loc.ndim >= 3 and w_loc.shape[-3:] == (m, d, C), "w_loc", w_loc.shape,
            f"shape (..., m, d, C) = (..., {m}, {d}, {C})")
    diff = w_loc / scales[:, :, None] - np.swapaxes(W_true, 1, 2)
    return np.sqrt(np.sum(diff ** 2, axis=(-2, -1)))


def initial_model(d: int, C: int, seed: int = 1) -> np.ndarray:
    """Initial global model W_g (d, C) with i.i.d. N(0, 1) entries (the authors' initialization).

    Deterministic: a Generator from ``np.random.SeedSequence([seed, INIT_STREAM])``, identical across
    runs, as in the code. The code draws ``np.random.seed(1); np.random.randn(d, C)`` (legacy global
    stream); we do not reproduce those numbers, only their distribution and the fact that every run
    starts from the same point.
    """
    require(is_int(d) and d >= 1, "d", d, "an integer >= 1")
    require(is_int(C) and C >= 2, "C", C, "an integer >= 2")
    require(is_int(seed) and seed >= 0, "seed", seed, "an integer >= 0")
    return np.random.default_rng(np.random.SeedSequence([int(seed), INIT_STREAM])).standard_normal((d, C))


def initial_models(m: int, d: int, C: int, seed: int = 1):
    """(W_g (d, C), W_loc (m, d, C)): :func:`initial_model` and a copy of it for every client (as in the authors' code)."""
    require(is_int(m) and m >= 1, "m", m, "an integer >= 1")
    w_g = initial_model(d, C, seed)
    return w_g, np.repeat(w_g[None], int(m), axis=0)
