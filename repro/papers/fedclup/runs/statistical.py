"""FedCLUP statistical accuracy (Section 4.1, Appendix A) on the linear-regression test bed, where problem (2)
has a closed form and every constant is exact.

* ``fedclup.statistical``: Monte-Carlo over data draws on a grid of instances (whitened design, so
  mu = lambda_min(Sigma), L = lambda_max(Sigma) and rho^2 = s^2 tr(Sigma) are exact and deterministic).
  Checks, on every draw and every lambda of a log grid: Lemma 3 (20), Lemma 4's first inequality,
  (33) and the (8a) inequalities before expectation (deterministic); Monte-Carlo means against
  Lemma 4 (22), (8a), (8b) (where its hypothesis holds), Theorem 1 and Corollary 1 in explicit form
  (expectation). Records the lambda-curve E^(lambda) = (1/m) sum_i E||w~_i - w*_i||^2 with LocalTrain
  and GlobalTrain for the Theorem 1 shape.
* ``fedclup.minimax``: the three regimes of R (Appendix A.5) with the Gaussian design (rows i.i.d.
  N(0, Sigma), the statistical setting of the minimax theory): per grid point the per-draw errors
  for every lambda of the grid, LocalTrain, GlobalTrain and the Corollary 1 rule's lambda (computed
  from the population constants mu = lambda_min(Sigma), L = lambda_max(Sigma)). The exponent of
  min_lambda E^(lambda) in n, R or N is fitted in :mod:`repro.papers.fedclup.summaries` with a bootstrap CI.
* ``fedclup.tradeoff`` (Figure 1, Corollary 3): total error ||w^i_t - w*_i||^2 of Algorithm 1 against
  rounds for a lambda grid, next to LocalTrain and GlobalTrain, on one instance where collaboration
  helps (R^2 < rho^2/(mu^2 n)).

Choices (named in every config): p_i = 1/m, n_i = n; Sigma = diag(spectrum); additive Gaussian noise of
std ``noise``; the ground truths exactly on the sphere of radius R around their mean.
"""
from __future__ import annotations

import numpy as np

from bounds import fedclup as B

from repro.papers.fedclup.algorithms import fedclup as alg
from repro.errors import require
from repro.papers.fedclup.problems import linreg_pfl as LR
from repro.runner import RunSpec
from repro.verify import outcome_arrays
from repro.papers.fedclup import checks as V
from repro.experiment import check_profile

_FN = "repro.papers.fedclup.runs.statistical."
LAMBDA_GRID = tuple(float(x) for x in np.logspace(-3, 3, 25))
REPS = {"quick": 200, "paper": 1000}


def _rngs(seed: int, n: int):
    return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(n)]


def instance(config: dict) -> LR.LinRegInstance:
    return LR.LinRegInstance(m=config["m"], n=config["n"], d=len(config["spectrum"]), R=config["R"],
                             noise=config["noise"], spectrum=tuple(config["spectrum"]), design=config["design"])


def _solve_chunked(A, b, lams, chunk: int):
    """solve_pfl over lambda chunks (bounds the memory of the (reps, lambda, m, d, d) systems)."""
    parts = [LR.solve_pfl(A, b, np.asarray(lams[i:i + chunk])) for i in range(0, len(lams), chunk)]
    return np.concatenate([p[0] for p in parts], axis=-2), np.concatenate([p[1] for p in parts], axis=-3)


def _errors(w_loc, w_star):
    """||w_i - w*_i||^2 per (draw, lambda, client)."""
    return np.sum((w_loc - w_star) ** 2, axis=-1)


# ---------------------------------------------------------------------------- fedclup.statistical
def run_statistical(config: dict, seed: int):
    require(config.get("design") == "whitened", "design", config.get("design"),
            "'whitened' (the expectation checks need deterministic mu, L)")
    inst = instance(config)
    truth_rng, data_rng = _rngs(seed, 2)
    w_star = LR.ground_truth(inst, truth_rng)
    data = LR.draw(inst, data_rng, w_star, config["reps"])
    A, b = data["A"], data["b"]
    mu, L, rho = inst.mu_design, inst.L_design, float(np.sqrt(inst.rho_sq))
    m, n, R = inst.m, inst.n, inst.R
    lams = np.asarray(config["lams"], dtype=float)
    w_g, w_loc = _solve_chunked(A, b, lams, 8)
    q = LR.pathwise_quantities(A, b, w_star, w_g, w_loc, R, mu=np.full(A.shape[0], mu))
    err = _errors(w_loc, w_star[None, None])                          # (S, Lambda, m)
    w_bar = w_star.mean(axis=0)
    base = {"mu": mu, "L": L, "rho": rho, "m": m, "n": n, "R": R}
    lam_col = lams[None, :, None]
    outs = []
    # deterministic, pathwise (every draw, lambda, client); tolerance: float rounding of the solves
    tol = 1e-9 * max(1.0, float(np.max(err)))
    outs += V.deterministic("fedclup.lemma3", base | {"lam": lam_col, "local_gap": q["local_gap"],
                                                      "grad_at_global": q["grad_at_global"]}, tol=tol)
    outs += V.deterministic("fedclup.lemma4.pathwise", base | {"gt_err": q["gt_err"],
                                                               "grad_avg_norm": q["grad_avg_norm"]}, tol=tol)
    outs += V.deterministic("fedclup.eq33", base | {"lam": lams[None, :], "eq33_lhs": q["eq33_lhs"],
                                                    "eq33_inner_grad": q["eq33_inner_grad"],
                                                    "eq33_inner_het": q["eq33_inner_het"]}, tol=tol)
    outs += V.deterministic("fedclup.thm1.8a.pathwise", base | {
        "lam": lam_col, "delta_local_sq": q["delta_local_sq"], "grad_star_i": q["grad_star_i"],
        "het_i": q["het_i"], "global_gap_sq": q["global_gap_sq"][..., None],
        "avg_local_sq": q["avg_local_sq"][..., None], "grad_star_sq_avg": q["grad_star_sq_avg"][..., None]}, tol=tol)
    # expectation: Monte-Carlo means over the draws
    gamma_g = np.sum((w_g - w_bar) ** 2, axis=-1)                         # (S, Lambda)
    outs.append(V.expectation("fedclup.lemma4", "gt_err_sq", q["gt_err"] ** 2, base))
    for cid in ("fedclup.thm1.8a", "fedclup.thm1.8b"):
        hyp = np.asarray(B.claim(cid).hypotheses_hold(**(base | {"lam": lams})), bool)
        hyp = np.broadcast_to(hyp, lams.shape)
        outs.append(V.expectation(cid, "Gamma_g", gamma_g, base | {"lam": lams}, mask=hyp,
                                  hypotheses_met=bool(hyp.any())))
        outs.append(V.expectation(cid, "err_local", err, base | {"lam": lams[:, None]}, mask=hyp[:, None],
                                  hypotheses_met=bool(hyp.any())))
    outs.append(V.expectation("fedclup.thm1.explicit", "err_local", err, base | {"lam": lams[:, None]}))
    # Corollary 1: the solution at the rule's lambda (R = 0: the rule's lambda is infinite -> GlobalTrain)
    cor1 = B.claim("fedclup.cor1.explicit")
    lam_rule = float(cor1.prescribed(**base)["lam"]) if R > 0 else np.inf
    if np.isfinite(lam_rule):
        _, w_rule = LR.solve_pfl(A, b, np.array([lam_rule]))
        err_rule = _errors(w_rule[:, 0], w_star[None])
    else:
        err_rule = _errors(LR.global_train(A, b)[:, None, :], w_star[None])
    outs.append(V.expectation("fedclup.cor1.explicit", "err_local", err_rule, base))
    lt = _errors(LR.local_train(A, b), w_star[None]).mean(axis=1)
    gt = _errors(LR.global_train(A, b)[:, None, :], w_star[None]).mean(axis=1)
    curve = err.mean(axis=2)                                              # (S, Lambda): client average
    arrays = outcome_arrays(outs) | {
        "lams": lams, "curve_mean": curve.mean(0), "curve_se": curve.std(0, ddof=1) / np.sqrt(curve.shape[0]),
        "localtrain": np.array([lt.mean(), lt.std(ddof=1) / np.sqrt(lt.size)]),
        "globaltrain": np.array([gt.mean(), gt.std(ddof=1) / np.sqrt(gt.size)]),
        "lam_rule": np.array(lam_rule), "rule_err": np.array(err_rule.mean()),
        "gamma_g_mean": gamma_g.mean(0), "het_max": np.array(float(q["het_i"].max()))}
    return arrays, {"constants": base | {"rho_sq": inst.rho_sq, "kappa": L / mu},
                    "details": [o.details for o in outs]}


def statistical_grid(profile: str) -> list[dict]:
    check_profile(profile)
    grid = []
    for spectrum in ((0.5, 1.0, 2.0), (1.0, 5.5, 10.0)):
        for m in (4, 10):
            for n in (20, 100):
                for R in (0.0, 0.05, 0.3, 1.5):
                    grid.append({"design": "whitened", "m": m, "n": n, "spectrum": list(spectrum), "R": R,
                                 "noise": 1.0, "reps": REPS[profile], "lams": list(LAMBDA_GRID)})
    return grid


def statistical_specs(profile: str) -> list[RunSpec]:
    return [RunSpec("fedclup.statistical", cfg | {"profile": profile}, i, _FN + "run_statistical")
            for i, cfg in enumerate(statistical_grid(profile))]


# ---------------------------------------------------------------------------- fedclup.minimax
def run_minimax(config: dict, seed: int):
    inst = instance(config)
    truth_rng, data_rng = _rngs(seed, 2)
    w_star = LR.ground_truth(inst, truth_rng)
    data = LR.draw(inst, data_rng, w_star, config["reps"])
    A, b = data["A"], data["b"]
    lams = np.asarray(config["lams"], dtype=float)
    _, w_loc = _solve_chunked(A, b, lams, max(1, int(4e6 // (A[0].size * A.shape[0]))))
    errs = _errors(w_loc, w_star[None, None]).mean(axis=2)               # (S, Lambda)
    lt = _errors(LR.local_train(A, b), w_star[None]).mean(axis=1)
    gt = _errors(LR.global_train(A, b)[:, None, :], w_star[None]).mean(axis=1)
    base = {"mu": inst.mu_design, "L": inst.L_design, "rho": float(np.sqrt(inst.rho_sq)), "m": inst.m,
            "n": inst.n, "R": inst.R}
    lam_rule = float(B.claim("fedclup.cor1.explicit").prescribed(**base)["lam"]) if inst.R > 0 else np.inf
    if np.isfinite(lam_rule):
        rule = _errors(LR.solve_pfl(A, b, np.array([lam_rule]))[1][:, 0], w_star[None]).mean(axis=1)
    else:
        rule = gt
    return ({"lams": lams, "errs": errs, "localtrain": lt, "globaltrain": gt, "rule": rule,
             "lam_rule": np.array(lam_rule)},
            {"constants": base | {"rho_sq": inst.rho_sq, "threshold_R_sq": inst.rho_sq / (inst.mu_design ** 2 * inst.n)}})


MINIMAX_BASE = {"design": "gaussian", "spectrum": [0.5, 1.0], "noise": 1.0, "lams": list(LAMBDA_GRID)}
# rho^2 = 1.5, mu = 0.5: the case threshold of Corollary 1 is R^2 = rho^2/(mu^2 n) = 6/n.
MINIMAX_GRID = {
    "heterogeneous": {"vary": "n", "values": (25, 50, 100, 200, 400, 800), "fixed": {"m": 10, "R": 3.0}},
    "transition": {"vary": "R", "values": tuple(float(x) for x in np.geomspace(0.04, 0.2, 6)),
                   "fixed": {"m": 2000, "n": 20}},
    "homogeneous": {"vary": "m", "values": (8, 16, 32, 64, 128, 256), "fixed": {"n": 20, "R": 0.0}},
}
MINIMAX_REPS = {"quick": {"heterogeneous": 200, "transition": 60, "homogeneous": 200},
                "paper": {"heterogeneous": 1000, "transition": 300, "homogeneous": 1000}}


def minimax_specs(profile: str) -> list[RunSpec]:
    check_profile(profile)
    specs = []
    for regime, g in MINIMAX_GRID.items():
        for j, value in enumerate(g["values"]):
            cfg = MINIMAX_BASE | g["fixed"] | {g["vary"]: value, "regime": regime,
                                               "reps": MINIMAX_REPS[profile][regime], "profile": profile}
            specs.append(RunSpec("fedclup.minimax", cfg, 100 * list(MINIMAX_GRID).index(regime) + j,
                                 _FN + "run_minimax"))
    return specs


# ---------------------------------------------------------------------------- fedclup.tradeoff
def run_tradeoff(config: dict, seed: int):
    """Figure 1 / Corollary 3: total error vs rounds. For each data draw: Algorithm 1 for every lambda
    (gamma = 1/L_F, eta = 1/(L + lambda), the same K for all), LocalTrain and GlobalTrain (GD with
    eta = 1/L, K steps per round), all from w = 0."""
    inst = instance(config)
    truth_rng, data_rng, run_rng = _rngs(seed, 3)
    w_star = LR.ground_truth(inst, truth_rng)
    data = LR.draw(inst, data_rng, w_star, config["reps"])
    mu, L = inst.mu_design, inst.L_design
    lams = np.asarray(config["lams"], dtype=float)
    T, K = config["rounds"], config["local_steps"]
    curves = {f"fedclup_{j}": [] for j in range(lams.size)} | {"localtrain": [], "globaltrain": []}
    stat = []
    w0 = np.zeros(inst.d)
    for r in range(config["reps"]):
        clients = LR.stacked_clients(data["X"][r], data["y"][r])
        for j, lam in enumerate(lams):
            L_F = lam * L / (lam + L)
            trace = alg.run_fedclup(clients, alg.FedCLUPParams(lam=lam, gamma=1 / L_F, eta=1 / (L + lam),
                                                               local_steps=K, rounds=T, server="eq12"),
                                    run_rng, w0)
            curves[f"fedclup_{j}"].append(_errors(trace.local_models, w_star[None]).mean(axis=1))
        lt = alg.run_local_train(clients, alg.LocalTrainParams(eta=1 / L, local_steps=K, rounds=T), run_rng, w0)
        curves["localtrain"].append(_errors(lt.local_models, w_star[None]).mean(axis=1))
        gtr = alg.run_global_train(clients, alg.GlobalTrainParams(eta=1 / L, local_steps=K, rounds=T), run_rng, w0)
        curves["globaltrain"].append(_errors(gtr.local_models, w_star[None]).mean(axis=1))
        _, w_loc = LR.solve_pfl(data["A"][r], data["b"][r], lams)
        stat.append(_errors(w_loc, w_star[None]).mean(axis=-1))
    arrays = {k: np.mean(v, axis=0) for k, v in curves.items()} | {"lams": lams, "stat_err": np.mean(stat, axis=0)}
    return arrays, {"constants": {"mu": mu, "L": L, "rho_sq": inst.rho_sq,
                                  "threshold_R_sq": inst.rho_sq / (mu ** 2 * inst.n)}}


TRADEOFF = {"design": "whitened", "m": 10, "n": 20, "spectrum": [0.5, 1.0, 2.0], "R": 0.15, "noise": 1.0,
            "lams": [0.01, 0.1, 0.5, 2.0, 10.0], "local_steps": 5}


def tradeoff_specs(profile: str) -> list[RunSpec]:
    check_profile(profile)
    cfg = TRADEOFF | {"rounds": 150 if profile == "quick" else 400, "reps": 20 if profile == "quick" else 100,
                      "profile": profile}
    return [RunSpec("fedclup.tradeoff", cfg, 0, _FN + "run_tradeoff")]
