"""Mini-batch SSCA: what the figures (:mod:`.figures`) and the audit section (:mod:`.audit`) compute from the
results: a metric's value at the last checkpoint or at a given one, and its
mean (and range) over runs. No plotting and no report here: both sides import this module.
"""
from __future__ import annotations

import numpy as np

PAPER = "ssca"   # the package key: figures/ssca/, results/ssca/


def final(r, metric: str) -> float:
    """``metric`` of run ``r`` at its last checkpoint (t = T)."""
    return float(r.arrays[metric][-1])


def mean_curve(runs, metric: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Checkpoints and the mean, minimum and maximum of ``metric`` over ``runs`` at each of them."""
    t = runs[0].arrays["checkpoints"]
    curves = np.stack([r.arrays[metric] for r in runs])
    return t, curves.mean(0), curves.min(0), curves.max(0)


def at(r, metric: str, t: int) -> float:
    """``metric`` of run ``r`` at checkpoint ``t`` (nan when ``t`` is not a checkpoint)."""
    idx = np.flatnonzero(r.arrays["checkpoints"] == t)
    return float(r.arrays[metric][idx[0]]) if idx.size else np.nan


def mean_at(runs, metric: str, t: int) -> float:
    """The mean over ``runs`` of :func:`at` (nan without runs)."""
    return float(np.mean([at(r, metric, t) for r in runs])) if runs else np.nan
