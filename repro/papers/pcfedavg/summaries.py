"""PC-FedAvg: what the figures (:mod:`.figures`) and the audit section (:mod:`.audit`) both compute from the
results: the labels of methods and data sets, the fitted rate exponents, the one-active-constraint runs and
Prop. 4.8 (ii)'s K-free term. Imports neither plotting nor the report.
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from bounds.pcfedavg import claims as B
from repro.papers.pcfedavg.runs import data as data_exp
from repro.papers.pcfedavg.runs import theory as theory
from repro.tables import select_results

PAPER = "pcfedavg"
METHOD_LABELS = {"pcfedavg": "PC-FedAvg", "fedavg": "Penalized-FedAvg", "fedprox": "Penalized-FedProx",
                 "scaffold": "Penalized-SCAFFOLD"}
DATASET_LABELS = {"cifar10": "CIFAR-10", "mnist": "MNIST"}


def data_label(runs, dataset: str) -> str:
    """``"CIFAR-10"``, or ``"CIFAR-10, 6,250 of 50,000 images"`` when the runs drew a subsample of the training
    set (the quick profile: ``data.SUBSAMPLE``), read from the runs' configs."""
    sizes = {r.spec.config["subsample"] for r in select_results(runs, dataset=dataset)}
    if sizes <= {None}:
        return DATASET_LABELS[dataset]
    shown = ", ".join(f"{size:,}" if size else "all" for size in sorted(sizes, key=lambda v: v or 0))
    return f"{DATASET_LABELS[dataset]}, {shown} of {data_exp.TRAIN_SIZE[dataset]:,} images"


def rate_fits(results) -> dict:
    """Fitted exponents of R per step-size rule and quantity; a rule with runs at fewer than two horizons (a partial
    cache) has no slope and is left out."""
    out = {}
    for rule in ("admissible", "proof"):
        runs = sorted([r for r in results if r.spec.config.get("gamma_rule") == rule],
                      key=lambda r: r.spec.config["R"])
        R = np.array([r.spec.config["R"] for r in runs])
        if len(set(R.tolist())) < 2:
            continue
        subopt = [r.arrays["subopt"] for r in runs]
        agent = int(np.argmax(runs[-1].arrays["infeas"].mean(0)))      # the worst agent at the largest R
        infeas = [r.arrays["infeas"][:, agent] for r in runs]
        out[rule] = {"R": R.tolist(), "subopt": theory.fit_exponent(R, subopt),
                     "infeas": theory.fit_exponent(R, infeas),
                     "hypothesis_met": [bool(r.arrays["gamma"] <= r.arrays["gamma_max"] * (1 + 1e-12)) for r in runs]}
    return out


def one_active_runs(results, path: str | None = None) -> list:
    """The runs of ``pcfedavg.adversarial`` on the one-active-constraint instance (on the update ``path``, or on
    both), in the given order."""
    return [r for r in results if r.spec.config.get("search") == "one_active"
            and path in (None, r.spec.config.get("path", "compact"))]


def _at_run(expr: sp.Expr, run) -> float:
    """``expr`` (of m, D and rho) at a one-active-constraint run's m, D and rho."""
    return float(expr.subs({B.m: run.spec.config["m"], B.D: float(run.arrays["D"]), B.rho: run.spec.config["rho"]}))


def k_free_term(run) -> float:
    """5 m D / rho^2: what Prop. 4.8 (ii)'s bound tends to as K -> oo on a one-active-constraint run (its only
    K-free term when H = 1 and nu = 0), as encoded (bounds.pcfedavg.claims.TERMS_48II)."""
    return _at_run(B.TERMS_48II[0], run)


def k_free_term_via_12(run) -> float:
    """5 m^2 D / rho^2 = 5 (first term of display (12))^2, as encoded (bounds.pcfedavg.claims.TERMS_12): the K-free
    term of Prop. 4.8 (ii) that the route from (12) through (a_1 + ... + a_5)^2 <= 5 sum a_k^2 gives (finding b)."""
    return _at_run(5 * B.TERMS_12[0] ** 2, run)
