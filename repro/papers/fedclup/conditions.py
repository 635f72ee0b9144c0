"""FedCLUP's printed settings against the conditions of the results they illustrate, computed (findings that the
settings inventory, :mod:`.settings`, names under ``checked_by``; the synthetic step sizes and K are
:func:`bounds.fedclup.findings.settings_findings`):

* ``fedclup.settings.participation``: Figure 6's "client sampling of 10% in each communication round" against
  Theorem 2's Algorithm 1, where "in each communication round the server broadcasts [..] to all clients" (Section
  4.2): the sampling rates of the runs against 1;
* ``fedclup.settings.mnist.assumption2``: the MNIST multinomial logistic regression (with bias, no weight decay) against
  Assumption 2 (mu-strongly convex empirical loss), on the runs' own class-restricted training clients: the loss is
  evaluated along W -> W + v 1^T;
* ``fedclup.settings.mnist.local_lr``: Appendix D.1's local learning rate 0.01 against the derived condition of
  Lemmas 5 and 7, eta <= 1/(L + lambda), per split and lambda, with L the per-sample smoothness constant of the
  softmax loss, (1/2) max_j ||x_j||^2 (Boehning), which Lemma 7 and Theorem 3 use for mini-batch steps, and with the
  empirical constant (1/2) max_i lambda_max(X_i^T X_i / n) of the full-batch Lemma 5, both reported.
"""
from __future__ import annotations

import numpy as np

from bounds.audit import CONSISTENT, DISCREPANCY, Finding, producer

#: Section 4.2's words on which clients take part in a round of (12)
BROADCAST = ("Section 4.2", "To implement (12), in each communication round the server broadcasts to all clients, then "
             "each client updates its local model and uploads to the server.")
#: a change of the mean loss within this is "unchanged" (rounding of a mean of log-sum-exps)
FLAT_TOL = 1e-9


@producer
def participation(sample_rates: tuple, where: str, words: str) -> Finding:
    """The clients sampled per round by the runs of a figure against the full participation of (12)."""
    partial = sorted(r for r in set(sample_rates) if r < 1)
    where_b, words_b = BROADCAST
    return Finding("fedclup.settings.participation", "experiment-settings", ("fedclup.thm2", "fedclup.cor2.explicit"),
                   DISCREPANCY if partial else CONSISTENT,
                   f"{where}: '{words}'. {where_b}: '{words_b}' Theorem 2 analyses that algorithm; the runs sample "
                   f"{', '.join(f'{r:.0%}' for r in sorted(set(sample_rates)))} of the clients per round"
                   + (", which is outside it (no stated result covers partial participation)." if partial else
                      ", as it assumes."), f"sample_rate of the runs: {sorted(set(sample_rates))}", "numeric")


@producer
def mnist_assumption2(train, classes: int, where: str, words: str, seed: int = 0) -> Finding:
    """Assumption 2 on the MNIST training clients ``train`` (:class:`StackedClients`, softmax, with the bias column):
    the loss at a random model and at the same model shifted by v 1^T (every class's weights moved alike)."""
    rng = np.random.default_rng(seed)
    W = rng.normal(scale=0.05, size=(train.m,) + train.shape)
    shift = rng.normal(size=(train.m, train.shape[0], 1)) * np.ones((1, 1, train.shape[1]))
    base, moved = train.values(W), train.values(W + shift)
    flat = float(np.max(np.abs(moved - base)))
    mu = float(np.max(train.strong_convexity()))
    ok = flat > FLAT_TOL and mu > 0
    return Finding("fedclup.settings.mnist.assumption2", "experiment-settings",
                   ("fedclup.thm1", "fedclup.thm2", "fedclup.thm3"), CONSISTENT if ok else DISCREPANCY,
                   f"{where}: '{words}'. The MNIST loss of the runs ({classes}-class split: softmax regression with bias, "
                   f"no weight decay) {'is' if ok else 'is not'} strongly convex: along W -> W + v 1^T it changes by "
                   f"{flat:.2g} (largest over {train.m} clients), so its strong-convexity constant is "
                   f"{mu:g}; Theorems 1-3 assume mu > 0.",
                   f"{train.m} clients, model {train.shape}, random W and v (seed {seed})", "numeric")


def _constants(train) -> tuple[float, float]:
    """(per-sample, empirical) smoothness constants of the softmax losses of ``train`` (largest over clients)."""
    per_sample = 0.5 * float(np.max(np.sum(train.X * train.X, axis=-1)))
    return per_sample, float(np.max(train.smoothness()))


@producer
def mnist_local_lr(lr: float, lams: tuple, splits: dict, where: str, words: str) -> Finding:
    """``lr`` against eta <= 1/(L + lambda) at every lambda and split (``splits``: classes -> training clients)."""
    rows, bad = [], []
    for classes, train in sorted(splits.items()):
        per_sample, empirical = _constants(train)
        for lam in lams:
            limit, limit_full = 1 / (per_sample + lam), 1 / (empirical + lam)
            rows.append(f"{classes} classes, lambda {lam:g}: 1/(L + lambda) = {limit:.4g} per-sample (L = "
                        f"{per_sample:.4g}), {limit_full:.4g} empirical (L = {empirical:.4g})")
            if lr > limit:
                bad.append(f"{classes} classes, lambda {lam:g}")
    return Finding("fedclup.settings.mnist.local_lr", "experiment-settings", ("fedclup.lemma7", "fedclup.thm3"),
                   DISCREPANCY if bad else CONSISTENT,
                   f"{where}: '{words}'. The derived Lemma 7 (mini-batch steps, as the MNIST runs take) needs eta <= "
                   f"1/(L + lambda) with L the per-sample smoothness constant; eta = {lr:g} "
                   + (f"exceeds it in {len(bad)} of {len(rows)} settings ({', '.join(bad)})." if bad else
                      f"meets it in all {len(rows)} settings."), "; ".join(rows), "numeric")


@producer
def linreg_assumption2(designs: dict, where: str, words: str) -> Finding:
    """Assumption 2 on the linear-regression instances the runs draw (``designs``: label -> A = X_i^T X_i / n,
    shape (..., m, d, d)): mu = the smallest eigenvalue over clients and draws."""
    mus = {label: float(np.linalg.eigvalsh(A).min()) for label, A in designs.items()}
    ok = all(mu > 0 for mu in mus.values())
    return Finding("fedclup.settings.linreg.assumption2", "experiment-settings",
                   ("fedclup.thm1", "fedclup.thm2", "fedclup.cor2.explicit"), CONSISTENT if ok else DISCREPANCY,
                   f"{where}: '{words}'. The empirical losses of the suite's linear-regression runs "
                   f"{'are' if ok else 'are not'} strongly convex (Assumption 2): smallest eigenvalue of X_i^T X_i / n "
                   + ", ".join(f"{label}: {mu:.6g}" for label, mu in mus.items()) + ".",
                   "one data draw per instance (seed 0), every client", "numeric (LAPACK eigvalsh)")


@producer
def server_step_bound(where: str, words: str) -> Finding:
    """gamma = 1/lambda (the MNIST runs' server step) against Theorem 2's gamma <= 1/L_F, 1/L_F = 1/lambda + 1/L
    (Lemma 1's L_F = lambda L/(lambda + L)), decided by sympy for every lambda, L > 0."""
    import sympy as sp

    lam, L = sp.symbols("lambda L", positive=True)
    slack = sp.simplify(1 / (lam * L / (lam + L)) - 1 / lam)
    ok = bool(sp.ask(sp.Q.positive(slack), sp.Q.positive(lam) & sp.Q.positive(L)))
    return Finding("fedclup.settings.mnist.global_step", "experiment-settings", ("fedclup.thm2",),
                   CONSISTENT if ok else DISCREPANCY,
                   f"{where}: '{words}'. The server step gamma = 1/lambda of the MNIST runs "
                   f"{'satisfies' if ok else 'does not satisfy'} Theorem 2's gamma <= 1/L_F for every lambda, L > 0: "
                   f"1/L_F - 1/lambda = {slack}.", "sympy: 1/L_F with L_F = lambda L/(lambda + L) (Lemma 1)",
                   "proven symbolically")
