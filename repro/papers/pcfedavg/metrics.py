"""Per-round metrics of the PC-FedAvg experiments of Section 5 (the paper does not define its infeasibility and
global-loss metrics: the definitions below are this project's defaults).

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

from repro.errors import require

__all__ = ["model_metrics", "metrics_callback"]


def model_metrics(problem, sets, V, *, rho=None, sigma=None) -> dict:
    """Infeasibility, global loss and objectives of the models V (m, n), or of a stack of them (..., m, n) (one
    per round, say: every data pass then serves all of them at once). Keys:

    ``infeas_mean``     (1/m) sum_i dist(V_i, X_i)  (this project's default; Frobenius/Euclidean distance
                        via the projection);
    ``infeas_max``      max_i dist(V_i, X_i);
    ``infeas_sq_mean``  (1/m) sum_i dist(V_i, X_i)^2;
    ``l1_excess_mean``, ``l1_excess_max``          (only if some X_i is an l1 ball, over those agents
                        only) budget excess e_i = max(0, ||V_i||_1 - tau_i), ||.||_1 entrywise
                        (this project's reading of Section 5's ||W||_1), mean and max over the l1-ball
                        agents;
    ``l1_excess_rel_mean``, ``l1_excess_rel_max``  e_i / tau_i (for tau_i = 0: 0 if e_i = 0 else inf);
    ``global_loss``     (1/m) sum_i f_i(Vbar), Vbar = (1/m) sum_i V_i, on each agent's full local data
                        (this project's default; for the baselines Vbar = W_r);
    ``consensus_sq_mean`` (1/m) sum_i ||V_i - Vbar||^2 (0 for the baselines);
    ``penalized_objective`` (if ``rho`` is given: a number, or one per leading index)
                        (1/m) sum_i [f_i(Vbar) + rho/2 dist(Vbar, X_i)^2], the baselines' penalized
                        objective of Section 5 at the single model Vbar;
    ``objective``       (if ``sigma`` (m,) is given) (1/m) sum_i [f_i(Vbar) + sigma_i/2 ||V_i - Vbar||^2],
                        the objective of problem (1) (in Section 5's notation), without its constraints (their
                        violation is what the infeasibility keys measure).

    Values are Python floats for one V (m, n), arrays of the leading shape for a stack. f_i(Vbar) is computed
    once (one ``values`` call on every Vbar broadcast to all agents) and shared by the last three keys.
    """
    V = np.asarray(V, dtype=np.float64)
    m_, n_ = getattr(problem, "m", None), getattr(problem, "n", None)
    require(V.ndim >= 2 and (m_ is None or V.shape[-2] == m_) and (n_ is None or V.shape[-1] == n_),
            "V", f"array of shape {V.shape}", f"an array (..., m, n) = (..., {m_ or 'm'}, {n_ or 'n'})")
    require(bool(np.all(np.isfinite(V))), "V", "array with non-finite entries", "finite models")
    lead, m = V.shape[:-2], V.shape[-2]
    dist = np.asarray(sets.distance(V), dtype=np.float64)
    out = {"infeas_mean": dist.mean(axis=-1), "infeas_max": dist.max(axis=-1),
           "infeas_sq_mean": np.mean(dist ** 2, axis=-1)}
    out |= _l1_excess(sets, V)
    vbar = V.mean(axis=-2)
    Vbar = np.broadcast_to(vbar[..., None, :], V.shape)
    f_bar = np.asarray(problem.values(Vbar), dtype=np.float64)
    out["global_loss"] = f_bar.mean(axis=-1)
    spread = np.einsum("...in,...in->...i", V - vbar[..., None, :], V - vbar[..., None, :])
    out["consensus_sq_mean"] = spread.mean(axis=-1)
    if rho is not None:
        rho = np.asarray(rho, dtype=np.float64)
        require(bool(np.all(np.isfinite(rho) & (rho >= 0))) and rho.shape in ((), lead), "rho",
                rho.tolist() if rho.size < 6 else f"array of shape {rho.shape}",
                f"None or finite penalties >= 0 (one number, or shape {lead})")
        dist_bar = np.asarray(sets.distance(Vbar), dtype=np.float64)
        out["penalized_objective"] = np.mean(f_bar + 0.5 * rho[..., None] * dist_bar ** 2, axis=-1)
    if sigma is not None:
        sigma = np.asarray(sigma, dtype=np.float64)
        require(sigma.shape == (m,) and bool(np.all(np.isfinite(sigma) & (sigma >= 0))), "sigma",
               sigma.tolist() if sigma.ndim <= 1 else f"array of shape {sigma.shape}",
               f"None or {m} finite weights >= 0")
        out["objective"] = np.mean(f_bar + 0.5 * sigma * spread, axis=-1)
    return {k: float(v) for k, v in out.items()} if not lead else out


def _l1_excess(sets, V) -> dict:
    """The l1-budget keys of :func:`model_metrics` (empty unless some X_i is an l1 ball)."""
    members = getattr(sets, "sets", None)
    if members is None:
        return {}
    l1 = np.array([getattr(s, "kind", None) == "l1_ball" for s in members], dtype=bool)
    if not l1.any():
        return {}
    tau = np.array([float(s.radius) for s, is_l1 in zip(members, l1) if is_l1])
    excess = np.maximum(np.abs(V[..., l1, :]).sum(axis=-1) - tau, 0.0)
    safe_tau = np.where(tau > 0, tau, 1.0)
    rel = np.where(tau > 0, excess / safe_tau, np.where(excess > 0, np.inf, 0.0))
    return {"l1_excess_mean": excess.mean(axis=-1), "l1_excess_max": excess.max(axis=-1),
            "l1_excess_rel_mean": rel.mean(axis=-1), "l1_excess_rel_max": rel.max(axis=-1)}


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
