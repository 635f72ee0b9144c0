"""FedCLUP: the figures -- the theory figures on the linear-regression test bed (Theorem 1 shape, derived
bounds, minimax regimes, Figure 1 trade-off, Theorem 2, the Tables 7-8 pattern, Lemma 7 and the Theorem 3
noise ball) and the paper's Figures 2-6 in the authors' settings. Each takes ``(results, profile)`` and
returns the written paths; what the audit computes too comes from :mod:`.summaries`.
"""
from __future__ import annotations

import numpy as np

from repro.pep_figure import figure as draw_tightness
from repro.plotting import (band, legend_below, legend_right, legend_under, log_ticks, new_figure,
                            overlap_style, run_provenance, save_figure, spread, titled)
from repro.papers.fedclup.runs import logistic as logi
from repro.papers.fedclup.summaries import LABELS, grouped, method_label, minimax_fits, noise_ball_fits
from repro.tables import select_results

PAPER = "fedclup"
LAMBDA_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
BASELINE_COLORS = {"globaltrain": "#444444", "localtrain": "#17becf"}
RATIO_CLAIMS = ("fedclup.cor1.explicit", "fedclup.eq33", "fedclup.lemma3", "fedclup.lemma4",
                "fedclup.lemma4.pathwise", "fedclup.thm1.8a", "fedclup.thm1.8a.pathwise", "fedclup.thm1.8b",
                "fedclup.thm1.explicit")
# What each figure tests: encoded claim ids (the paper's CLAIMS) and "<paper>.figureN" for a reproduced figure.
FIGURE_CLAIMS = {
    "theorem1_lambda_curves": ("fedclup.thm1", "fedclup.cor1"),
    "theory_ratio": RATIO_CLAIMS,
    "minimax_regimes": ("fedclup.minimax_lower", "fedclup.cor1"),
    "figure1": ("fedclup.figure1", "fedclup.cor3"),
    "theorem2_contraction": ("fedclup.thm2",),
    "tables7_8": ("fedclup.cor2.communication", "fedclup.cor2.computation"),
    "theorem3_lemma7": ("fedclup.thm3", "fedclup.lemma7"),
    "figure2": ("fedclup.figure2",),
    "figure3": ("fedclup.figure3",),
    "figure4": ("fedclup.figure4",),
    "figure5": ("fedclup.figure5",),
    "figure6": ("fedclup.figure6",),
    "pep_tightness": ("fedclup.thm2", "fedclup.cor2.explicit"),
}


def _save(fig, name: str, results, profile: str, experiment: str):
    return save_figure(fig, PAPER, name, run_provenance(results, profile, experiment), claims=FIGURE_CLAIMS[name])


def _color(key, j: int):
    return BASELINE_COLORS.get(key[0], LAMBDA_COLORS[j % len(LAMBDA_COLORS)])


# ---------------------------------------------------------------------------- theory figures
def _lambda_curves(results, profile: str):
    fig, axes = new_figure(ncols=3, width=3.3, height=2.7)
    shown = [r for r in results if r.spec.config["m"] == 10 and r.spec.config["n"] == 20
             and r.spec.config["spectrum"][0] == 0.5 and r.spec.config["R"] in (0.0, 0.3, 1.5)]
    for ax, r in zip(axes[0], shown):
        ax.errorbar(r.arrays["lams"], r.arrays["curve_mean"], yerr=2 * r.arrays["curve_se"], color=LAMBDA_COLORS[0],
                    lw=1.2, label="problem (2), closed form (bars: ± 2 s.e. over draws)")
        for key, (val, _) in (("localtrain", r.arrays["localtrain"]), ("globaltrain", r.arrays["globaltrain"])):
            ax.axhline(val, color=BASELINE_COLORS[key], ls="--", lw=1, label=LABELS[key])
        if np.isfinite(r.arrays["lam_rule"]):
            ax.axvline(float(r.arrays["lam_rule"]), color="#d62728", ls=":", lw=1, label="Cor. 1 rule (derived)")
        ax.set(xscale="log", yscale="log", xlabel=r"$\lambda$",
               ylabel=r"$\frac{1}{m}\sum_i E\|\tilde w_i - w_i^\star\|^2$",
               title=f"R = {r.spec.config['R']}, m = 10, n = 20")
        log_ticks(ax, "y")
    legend_below(fig, axes, ncol=4)
    titled(fig, f"Theorem 1 shape on linear regression (whitened design, {shown[0].spec.config['reps']} draws)",
           shown, profile, fontsize=9)
    return _save(fig, "theorem1_lambda_curves", shown, profile, "fedclup.statistical")


def _ratio_figure(results, profile: str):
    fig, axes = new_figure(width=6.5, height=3.0)
    ax = axes[0][0]
    for j, cid in enumerate(RATIO_CLAIMS):
        ratios = [float(r.arrays["ratio"][i]) for r in results for i in np.flatnonzero(r.arrays["claim_id"] == cid)
                  if np.isfinite(r.arrays["ratio"][i]) and r.arrays["ratio"][i] > 0]
        ax.scatter(np.full(len(ratios), j), ratios, s=8, alpha=0.6, color=LAMBDA_COLORS[j % len(LAMBDA_COLORS)])
    ax.axhline(1.0, color="black", lw=1)
    ax.set_xticks(range(len(RATIO_CLAIMS)), [c.replace("fedclup.", "") for c in RATIO_CLAIMS], rotation=35,
                  ha="right", fontsize=7)
    ax.set(yscale="log", ylabel="worst observed / bound")
    titled(fig, f"Derived FedCLUP bounds on {len(results)} linear-regression instances", results, profile,
           fontsize=9)
    return _save(fig, "theory_ratio", results, profile, "fedclup.statistical")


def statistical_figure(results, profile: str):
    return _lambda_curves(results, profile) + _ratio_figure(results, profile)


def minimax_figure(results, profile: str):
    fits = minimax_fits(results)
    fig, axes = new_figure(ncols=3, width=3.2, height=3.6)
    for ax, (regime, f) in zip(axes[0], fits.items()):
        x = np.array(f["x"])
        # best lambda, the rule and a baseline coincide in the extreme regimes: each its own style, widest first
        for i, (key, color, label) in enumerate((("tuned", "#d62728", r"problem (2), best $\lambda$"),
                                                 ("rule", "#9467bd", "Cor. 1 rule (derived)"),
                                                 ("localtrain", BASELINE_COLORS["localtrain"], LABELS["localtrain"]),
                                                 ("globaltrain", BASELINE_COLORS["globaltrain"],
                                                  LABELS["globaltrain"]))):
            lo, hi = f[key]["ci"]
            ax.plot(x, f[key]["values"], color=color, **overlap_style(i),
                    label=f"{label}: slope {f[key]['slope']:.2f} [{lo:.2f}, {hi:.2f}]")
        ax.set(xscale="log", yscale="log", xlabel=f["var"], ylabel=r"$\frac{1}{m}\sum_i E\|\hat w_i - w_i^\star\|^2$",
               title=f"{regime}: theory slope {f['theory']}")
        log_ticks(ax, "x")
        legend_under(ax, fontsize=6)
    titled(fig, "Minimax regimes on linear regression (Gaussian design)", results, profile, fontsize=9)
    return _save(fig, "minimax_regimes", results, profile, "fedclup.minimax")


def tradeoff_figure(results, profile: str):
    r = results[0]
    fig, axes = new_figure(width=6.2, height=3.3)
    ax = axes[0][0]
    curves = [(r.arrays[f"fedclup_{j}"], LAMBDA_COLORS[j % 6], f"FedCLUP $\\lambda$ = {lam:g}")
              for j, lam in enumerate(r.arrays["lams"])]
    curves += [(r.arrays[key], BASELINE_COLORS[key], LABELS[key]) for key in ("localtrain", "globaltrain")]
    for i, (curve, color, label) in enumerate(curves):     # lambda = 0.01 / 0.1 coincide with the baselines
        ax.plot(curve, color=color, label=label, markevery=(3 * i, 25), **overlap_style(i))
    for j, err in enumerate(r.arrays["stat_err"]):
        ax.axhline(err, color=LAMBDA_COLORS[j % 6], ls=":", lw=0.8, zorder=1)
    ax.set(yscale="log", xlabel="communication round t",
           ylabel=r"total error $\frac{1}{m}\sum_i\|w_i^t - w_i^\star\|^2$",
           title=f"R = {r.spec.config['R']}, K = {r.spec.config['local_steps']} "
                 f"(dotted: statistical error of each $\\lambda$)")
    legend_right(ax)
    titled(fig, "Figure 1 (Corollary 3): linear regression", results, profile, fontsize=9)
    return _save(fig, "figure1", results, profile, "fedclup.tradeoff")


def theorem2_figure(results, profile: str):
    fig, axes = new_figure(ncols=2, width=3.6, height=3.0)
    for ax, kappa in zip(axes[0], (4.0, 16.0)):
        for j, lam in enumerate((0.1, 1.0, 10.0)):
            for r in select_results(results, kappa=kappa, lam=lam):
                cfg = r.spec.config
                if cfg["K"] != "cor2":
                    continue
                ls = {1.0: "-", 0.5: "--", 0.25: ":"}[cfg["gamma_scale"]]
                ax.plot(r.arrays["Phi"] / r.arrays["Phi"][0], color=LAMBDA_COLORS[j], ls=ls, lw=1,
                        label=f"$\\lambda$={lam:g}, $\\gamma$={cfg['gamma_scale']:g}/$L_F$")
                if cfg["gamma_scale"] == 1.0:
                    t = np.arange(r.arrays["Phi"].size)
                    ax.plot(t, float(r.arrays["rate_bound"]) ** t, color=LAMBDA_COLORS[j], lw=0.6, alpha=0.5)
        ax.set(yscale="log", ylim=(1e-22, 2), xlabel="round t", ylabel=r"$\Phi_t/\Phi_0$",
               title=f"$\\kappa$ = {kappa:g} (thin: $(1-\\gamma\\mu_F/4)^t$)")
    legend_below(fig, axes, ncol=3)
    titled(fig, "Theorem 2 (derived): contraction under Corollary 2's K", results, profile, fontsize=9)
    return _save(fig, "theorem2_contraction", results, profile, "fedclup.theorem2")


def rounds_figure(results, profile: str):
    fig, axes = new_figure(ncols=2, width=3.6, height=2.9)
    for j, r in enumerate(sorted(results, key=lambda r: r.spec.config["kappa"])):
        lams, kappa = r.arrays["lams"], r.spec.config["kappa"]
        axes[0][0].plot(lams, r.arrays["T_eps"], "o-", ms=3, color=LAMBDA_COLORS[j], label=f"$\\kappa$ = {kappa:g}")
        axes[0][0].plot(lams, r.arrays["T_eps"][0] * r.arrays["kappa_F"] / r.arrays["kappa_F"][0], ":",
                        color=LAMBDA_COLORS[j], lw=0.8)
        axes[0][1].plot(lams, r.arrays["grad_evals"], "o-", ms=3, color=LAMBDA_COLORS[j],
                        label=f"$\\kappa$ = {kappa:g}")
    axes[0][0].set(xscale="log", yscale="log", xlabel=r"$\lambda$", ylabel=r"rounds $T_\epsilon$",
                   title=r"Table 7 pattern: rounds (dotted: $\propto\kappa_F$)")
    axes[0][1].set(xscale="log", yscale="log", xlabel=r"$\lambda$", ylabel=r"gradient steps $T_\epsilon K$ per client",
                   title="Table 8 pattern: computation")
    legend_below(fig, axes, ncol=3)
    titled(fig, "Corollary 2 (derived choices) on linear regression, eps = 1e-8 relative", results, profile,
           fontsize=9)
    return _save(fig, "tables7_8", results, profile, "fedclup.rounds")


def stochastic_figure(results, profile: str):
    ball = [r for r in results if r.spec.config.get("part") == "ball"]
    fig, axes = new_figure(ncols=2, width=3.5, height=3.2)
    fits = noise_ball_fits(results)
    for j, bt in enumerate(sorted({r.spec.config["batch"] for r in ball})):
        runs = sorted(select_results(ball, batch=bt), key=lambda r: r.spec.config["m"])
        axes[0][0].errorbar([r.spec.config["m"] for r in runs], [float(r.arrays["plateau"]) for r in runs],
                            yerr=[2 * float(r.arrays["plateau_se"]) for r in runs], fmt="o-", ms=3,
                            color=LAMBDA_COLORS[j], label=f"B = {bt}: slope {fits['m'][bt]:.2f}")
    axes[0][0].set(xscale="log", yscale="log", xlabel="clients m", ylabel=r"plateau of $\|w_t - \tilde w_g\|^2$",
                   title="Theorem 3 heuristic: slope -1 in m (bars: ± 2 s.e.)")
    log_ticks(axes[0][0], "x", sorted({r.spec.config["m"] for r in ball}))
    legend_under(axes[0][0], ncol=2)
    lem = [r for r in results if r.spec.config.get("part") == "lemma7"]
    labels = [f"$\\lambda$={r.spec.config['lam']:g},B={r.spec.config['batch']},K={r.spec.config['local_steps']}"
              for r in lem]
    axes[0][1].bar(range(len(lem)), [float(r.arrays["ratio"][0]) for r in lem], color="#1f77b4")
    axes[0][1].axhline(1.0, color="black", lw=1)
    axes[0][1].set_xticks(range(len(lem)), labels, rotation=60, ha="right", fontsize=6)
    axes[0][1].set(ylabel="E inner error / Lemma 7 bound", title="Lemma 7 (derived), Monte Carlo")
    titled(fig, "Stochastic FedCLUP (Algorithm 2) on linear regression", results, profile, fontsize=9)
    return _save(fig, "theorem3_lemma7", results, profile, "fedclup.stochastic")


# ---------------------------------------------------------------------------- reproduced figures
def figure4(results, profile: str):
    fig, axes = new_figure(ncols=2, width=3.6, height=3.2)
    for j, (key, runs) in enumerate(grouped(results).items()):
        Rs = sorted({r.spec.config["R"] for r in runs})
        for ax, metric in zip(axes[0], ("global_err", "local_err")):
            finals = np.array([[r.arrays[metric][-1] for r in select_results(runs, R=R)] for R in Rs])
            mean, err = spread(finals.T)
            # lambda = 0.5 and GlobalTrain coincide: each its own style, the later ones narrower and on top
            ax.errorbar(Rs, mean, yerr=err, color=_color(key, j), capsize=2, elinewidth=0.8,
                        label=method_label(runs[0].spec.config), **overlap_style(j))
    axes[0][0].set(xlabel="Statistical Heterogeneity", ylabel="Global Statistical Error")
    axes[0][1].set(xlabel="Statistical Heterogeneity (R)", ylabel="Local Statistical Error")
    legend_below(fig, axes, ncol=5)
    titled(fig, "Figure 4: final-round error vs R (m = 10, n = 200, d = 10, K = 150)", results, profile,
           key="data_seed", band="std", shown="error bars", fontsize=8)
    return _save(fig, "figure4", results, profile, "fedclup.figure4")


def _curves(ax, runs, metric, color, label, **line):
    curves = np.stack([r.arrays[metric] for r in runs])
    band(ax, np.arange(curves.shape[1]), curves, color, label, **{"lw": 1.1} | line)


def figure2(results, profile: str):
    fig, axes = new_figure(ncols=2, nrows=2, width=3.4, height=2.5)
    for col, lam in enumerate(logi.FIG2_LAMBDAS):
        for j, K in enumerate(logi.FIG2_K):
            runs = select_results(results, lam=lam, local_steps=K)
            for row, metric in enumerate(("global_err", "local_err")):
                _curves(axes[row][col], runs, metric, LAMBDA_COLORS[j], f"# Local Updates = {K}")
        axes[0][col].set(title=f"$\\lambda$ = {lam:g} ({'low' if col == 0 else 'high'} personalization)",
                         ylabel="Global Total Error", xlabel="# Communication Rounds")
        axes[1][col].set(ylabel="Local Total Error", xlabel="Communication Rounds")
    legend_below(fig, axes, ncol=3)
    titled(fig, "Figure 2: effect of local updates K (m = 10, R = 1)", results, profile, key="data_seed",
           band="std", fontsize=9)
    return _save(fig, "figure2", results, profile, "fedclup.figure2")


def figure3(results, profile: str):
    fig, axes = new_figure(ncols=2, width=3.8, height=3.6)
    for j, (key, runs) in enumerate(grouped(results).items()):
        label = method_label(runs[0].spec.config)
        if key[2]:
            lam2 = np.mean([float(r.arrays["lambda_switched"]) for r in runs])
            label += f", switched to $\\lambda$ ≈ {lam2:.3g}"
        # lambda = 0.5 and GlobalTrain coincide on the left: each its own style, later ones narrower, on top
        _curves(axes[0][1] if key[2] else axes[0][0], runs, "local_err", _color(key, j), label,
                markevery=(4 * j, 25), **overlap_style(j))
    for ls, key in (("--", ("fedclup", 0.02, None)), (":", ("fedclup", 0.5, None))):   # right-panel references
        runs = grouped(results).get(key, [])
        if runs:
            _curves(axes[0][1], runs, "local_err", "#999999", method_label(runs[0].spec.config) + " (reference)",
                    ls=ls, zorder=1.5)
    for ax, title in zip(axes[0], ("fixed personalization", "adaptive $\\lambda$ (switch at T/2)")):
        ax.set(xlabel="Communication Rounds", ylabel="Local Total Error", title=title)
        legend_under(ax, fontsize=6)
    titled(fig, "Figure 3 (m = 10, R = 1, K = 150)", results, profile, key="data_seed", band="std", fontsize=9)
    return _save(fig, "figure3", results, profile, "fedclup.figure3")


def figure6(results, profile: str):
    fig, axes = new_figure(ncols=2, nrows=2, width=3.4, height=2.5)
    for row, m in enumerate((100, 1000)):
        for j, lam in enumerate(logi.FIG6_LAMBDAS):
            for server, ls in (("average_all", "-"), ("eq12", "--")):
                runs = select_results(results, m=m, lam=lam, server=server)
                for col, metric in enumerate(("global_err", "local_err")):
                    if runs:
                        _curves(axes[row][col], runs, metric, LAMBDA_COLORS[j],
                                f"$\\lambda$ = {lam:g} "
                                f"({'all stored models' if server == 'average_all' else '(12), sampled'})", ls=ls)
        axes[row][0].set(ylabel="Global Total Error", title=f"{m} clients, 10 % sampled")
        axes[row][1].set(ylabel="Local Total Error", title=f"{m} clients, 10 % sampled")
    for ax in axes[1]:
        ax.set(xlabel="# Communication Rounds")
    legend_below(fig, axes, ncol=3)
    titled(fig, "Figure 6: number of clients (R = 2, K = 150)", results, profile, key="data_seed", band="std",
           fontsize=9)
    return _save(fig, "figure6", results, profile, "fedclup.figure6")


def figure5(results, profile: str):
    fig, axes = new_figure(ncols=2, width=3.5, height=3.0)
    runs2 = select_results(results, classes=2)
    for j, (key, runs) in enumerate(grouped(runs2).items()):
        if key[0] not in ("fedclup", "globaltrain", "localtrain"):
            continue
        label = (f"FedCLUP $\\lambda$ = {key[1]:g}" if key[0] == "fedclup" else LABELS[key[0]])
        _curves(axes[0][0], runs, "global_test_loss", _color(key, j), label)
        _curves(axes[0][1], runs, "local_test_loss", _color(key, j), label)
    axes[0][0].set(xlabel="# Communication Rounds", ylabel="Global Test Loss")
    axes[0][1].set(xlabel="# Communication Rounds", ylabel="Local Test Loss")
    legend_below(fig, axes, ncol=5)
    titled(fig, "Figure 5: MNIST logistic regression, 2 classes per client", runs2, profile, band="std",
           fontsize=9)
    return _save(fig, "figure5", runs2, profile, "fedclup.mnist")


def pep_figure(results, profile: str):
    """The claim's bound (derived: the copy's are stripped) and certified worst case (PEP) against T, one panel per
    claim (:func:`repro.pep_figure.figure`); the curves over another parameter (Theorem 2's local bound, over b) are in
    the report's table only."""
    return draw_tightness([r for r in results if r.meta["metadata"]["x"] == "T"], PAPER, profile)
