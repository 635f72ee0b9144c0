"""Per-round metrics of the PC-FedAvg experiments (spec 11.7 items 13-14, spec 13).

:func:`model_metrics` evaluates the models V = (V_1, ..., V_m) that "serve" the m agents: for
PC-FedAvg, V_i = z_r^{(i)} (agent i's block of the server vector); for the baselines, V_i = W_r for
every i (pass ``np.broadcast_to(w, (m, n))``). It works for any problem with ``values(Y)``
((..., m, n) -> (..., m), f_i at row i on agent i's full local data) and any constraint object with
``distance`` ((..., m, n) -> (..., m)) and, optionally, ``sets`` (the per-agent sets; l1 balls are
recognised by ``kind == "l1_ball"`` and their ``radius``).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .errors import require

__all__ = ["model_metrics", "metrics_callback"]


def model_metrics(problem, sets, V, *, rho: float | None = None, sigma=None) -> dict[str, float]:
    """Infeasibility, global loss and objectives of the models V (m, n). Keys:

    ``infeas_mean``     (1/m) sum_i dist(V_i, X_i)  (item 13's default; Frobenius/Euclidean distance
                        via the projection);
    ``infeas_max``      max_i dist(V_i, X_i);
    ``infeas_sq_mean``  (1/m) sum_i dist(V_i, X_i)^2;
    ``l1_excess_mean``, ``l1_excess_max``          (only if some X_i is an l1 ball, over those agents
                        only) budget excess e_i = max(0, ||V_i||_1 - tau_i), ||.||_1 entrywise
                        (item 4), mean and max over the l1-ball agents;
    ``l1_excess_rel_mean``, ``l1_excess_rel_max``  e_i / tau_i (for tau_i = 0: 0 if e_i = 0 else inf);
    ``global_loss``     (1/m) sum_i f_i(Vbar), Vbar = (1/m) sum_i V_i, on each agent's full local data
                        (item 14; for the baselines Vbar = W_r);
    ``consensus_sq_mean`` (1/m) sum_i ||V_i - Vbar||^2 (0 for the baselines);
    ``penalized_objective`` (if ``rho`` is given) (1/m) sum_i [f_i(Vbar) + rho/2 dist(Vbar, X_i)^2],
                        the objective of spec 11.2 at the single model Vbar;
    ``objective``       (if ``sigma`` (m,) is given) (1/m) sum_i [f_i(Vbar) + sigma_i/2 ||V_i - Vbar||^2],
                        the objective of problem (1) (spec 11.1), without its constraints (their
                        violation is what the infeasibility keys measure).

    All values are Python floats. f_i(Vbar) is computed once (one ``values`` call on Vbar broadcast
    to all agents) and shared by the last three keys.
    """
    V = np.asarray(V, dtype=np.float64)
    require(V.ndim == 2 and V.shape[0] == getattr(problem, "m", V.shape[0])
           and V.shape[1] == getattr(problem, "n", V.shape[1]),
           "V", f"array of shape {V.shape}",
           f"an array (m, n) = ({getattr(problem, 'm', 'm')}, {getattr(problem, 'n', 'n')})")
    require(bool(np.all(np.isfinite(V))), "V", "array with non-finite entries", "finite models")
    m, n = V.shape
    dist = np.asarray(sets.distance(V), dtype=np.float64)
    out = {"infeas_mean": float(dist.mean()), "infeas_max": float(dist.max()),
           "infeas_sq_mean": float(np.mean(dist ** 2))}

    members = getattr(sets, "sets", None)
    if members is not None:
        l1 = np.array([getattr(s, "kind", None) == "l1_ball" for s in members], dtype=bool)
        if l1.any():
            tau = np.array([float(s.radius) for s, is_l1 in zip(members, l1) if is_l1])
            norms = np.abs(V[l1]).sum(axis=1)
            excess = np.maximum(norms - tau, 0.0)
            safe_tau = np.where(tau > 0, tau, 1.0)
            rel = np.where(tau > 0, excess / safe_tau, np.where(excess > 0, np.inf, 0.0))
            out.update({"l1_excess_mean": float(excess.mean()),
                        "l1_excess_max": float(excess.max()),
                        "l1_excess_rel_mean": float(rel.mean()),
                        "l1_excess_rel_max": float(rel.max())})

    vbar = V.mean(axis=0)
    Vbar = np.broadcast_to(vbar, (m, n))
    f_bar = np.asarray(problem.values(Vbar), dtype=np.float64)
    out["global_loss"] = float(f_bar.mean())
    spread = np.einsum("in,in->i", V - vbar, V - vbar)
    out["consensus_sq_mean"] = float(spread.mean())
    if rho is not None:
        require(np.isfinite(rho) and rho >= 0, "rho", rho, "None or a finite penalty >= 0")
        dist_bar = np.asarray(sets.distance(Vbar), dtype=np.float64)
        out["penalized_objective"] = float(np.mean(f_bar + 0.5 * float(rho) * dist_bar ** 2))
    if sigma is not None:
        sigma = np.asarray(sigma, dtype=np.float64)
        require(sigma.shape == (m,) and bool(np.all(np.isfinite(sigma) & (sigma >= 0))), "sigma",
               sigma.tolist() if sigma.ndim <= 1 else f"array of shape {sigma.shape}",
               f"None or {m} finite weights >= 0")
        out["objective"] = float(np.mean(f_bar + 0.5 * sigma * spread))
    return out


def metrics_callback(problem, sets, *, rho: float | Callable[[int], float] | None = None,
                     sigma=None) -> Callable:
    """An ``evaluate(V, r)`` callback computing :func:`model_metrics`, with ``rho`` a constant or
    a function of the round index r (e.g. ``lambda r: (r + 10000) ** 0.25``, evaluated also at
    r = R, where the schedule is continued)."""
    def evaluate(V, r):
        value = rho(r) if callable(rho) else rho
        result = model_metrics(problem, sets, V, rho=value, sigma=sigma)
        if value is not None:
            result["rho"] = float(value)
        return result
    return evaluate
