"""FedCLUP: what the figures (:mod:`.figures`) and the audit section (:mod:`.audit`) both compute from the
results -- the minimax-exponent fits, the Theorem 3 noise-ball slopes, and the grouping and labels of the
methods of the reproduced figures. No plotting and no report here: both sides import this module.
"""
from __future__ import annotations

import numpy as np

from repro.papers.fedclup.runs import statistical as stat
from repro.tables import select_results

LABELS = {"globaltrain": "GlobalTrain (FedAvg)", "localtrain": "LocalTrain"}


# ---------------------------------------------------------------------------- linear-regression fits
def minimax_fits(results, n_boot: int = 2000, seed: int = 0) -> dict:
    """Per regime: the log-log slope of min_lambda E^(lambda) (and of LocalTrain, GlobalTrain and the
    Corollary 1 rule) against the varied quantity, with a percentile bootstrap CI over the draws
    (draws resampled independently at every grid point)."""
    from bounds.fedclup import findings as BF

    rng = np.random.default_rng(seed)
    fits = {}
    for regime, grid in stat.MINIMAX_GRID.items():
        runs = sorted(select_results(results, regime=regime), key=lambda r: r.spec.config[grid["vary"]])
        if not runs:
            continue
        var = "N" if grid["vary"] == "m" else grid["vary"]
        x = np.array([r.spec.config[grid["vary"]] * (r.spec.config["n"] if var == "N" else 1) for r in runs], float)
        lx = np.log(x) - np.log(x).mean()

        def slope(y):                     # y (..., P) -> slope along the last axis
            ly = np.log(y)
            return np.sum(lx * (ly - ly.mean(-1, keepdims=True)), -1) / np.sum(lx ** 2)

        boot = {"tuned": [], "localtrain": [], "globaltrain": [], "rule": []}
        point = {k: [] for k in boot}
        for r in runs:
            S = r.arrays["errs"].shape[0]
            idx = rng.integers(0, S, size=(n_boot, S))
            boot["tuned"].append(r.arrays["errs"][idx].mean(1).min(-1))
            point["tuned"].append(r.arrays["errs"].mean(0).min())
            for k in ("localtrain", "globaltrain", "rule"):
                boot[k].append(r.arrays[k][idx].mean(1))
                point[k].append(r.arrays[k].mean())
        out = {}
        for k in boot:
            b = slope(np.stack(boot[k], axis=1))
            out[k] = {"slope": float(slope(np.array(point[k]))), "ci": (float(np.percentile(b, 2.5)),
                                                                         float(np.percentile(b, 97.5))),
                      "values": [float(v) for v in point[k]]}
        fits[regime] = out | {"x": x.tolist(), "var": var, "theory": BF.REGIME_EXPONENTS[regime][1],
                              "reps": int(runs[0].arrays["errs"].shape[0]),
                              "threshold": [float(r.meta["metadata"]["constants"]["threshold_R_sq"]) for r in runs],
                              "R": [float(r.spec.config["R"]) for r in runs]}
    return fits


def noise_ball_fits(results) -> dict:
    ball = [r for r in results if r.spec.config.get("part") == "ball"]
    fits = {}
    for key, other in (("m", "batch"), ("batch", "m")):
        slopes = {}
        for o in sorted({r.spec.config[other] for r in ball}):
            runs = sorted(select_results(ball, **{other: o}), key=lambda r: r.spec.config[key])
            x = np.log([r.spec.config[key] for r in runs])
            if len(set(x.tolist())) < 2:            # a slope needs two values of ``key`` (all but a partial cache)
                continue
            y = np.log([float(r.arrays["plateau"]) for r in runs])
            slopes[o] = float(np.polyfit(x, y, 1)[0])
        fits[key] = slopes
    return fits


# ---------------------------------------------------------------------------- methods of the reproduced figures
def method_label(cfg) -> str:
    if cfg["method"] == "fedclup":
        return f"FedCLUP $\\lambda$ = {cfg['lam']:g}" + (f", adaptive c = {cfg['adapt_constant']:g}"
                                                      if cfg.get("adapt_constant") else "")
    return LABELS[cfg["method"]]


def _method_key(cfg):
    return (cfg["method"], cfg.get("lam"), cfg.get("adapt_constant"))


def grouped(results):
    groups: dict = {}
    for r in results:
        groups.setdefault(_method_key(r.spec.config), []).append(r)
    return groups
