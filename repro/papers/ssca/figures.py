"""Mini-batch SSCA: the figures (Figures 2-4 on MNIST and the convergence figure of Theorems 1-4), drawn from the
results of the experiments in :mod:`.experiments`. Imports neither the report nor the audit; what it shares with
the audit is in :mod:`.summaries`.
"""
from __future__ import annotations

import numpy as np

from repro.plotting import new_figure, run_provenance, save_figure
from repro.papers.ssca.runs import convergence as conv
from repro.papers.ssca.runs import mnist as mn
from repro.papers.ssca.summaries import PAPER, final, mean_curve
from repro.tables import select_results

BATCH_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c")
SGD_COLORS = ("#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22")
STEP_STYLES = {"theory_a": "-", "theory_b": "--", "section_vi": ":"}


def _plot(ax, runs, metric, color, label, ls="-", scale=1.0):
    if not runs:
        return
    t, mean, lo, hi = mean_curve(runs, metric)
    ax.plot(t, scale * mean, color=color, ls=ls, lw=1.1, label=label)
    if len(runs) > 1:
        ax.fill_between(t, scale * lo, scale * hi, color=color, alpha=0.15, lw=0)


def _learning_figure(results, profile: str, mode: str, experiment: str, name: str, title: str):
    batches = mn.TRIPLES if mode == "sample" else mn.FEATURE_TRIPLES
    alg_u, alg_c = ("Alg. 1", "Alg. 2") if mode == "sample" else ("Alg. 3", "Alg. 4")
    fig, axes = new_figure(ncols=2, nrows=2, width=3.5, height=2.6)
    for row, (metric, scale, ylabel) in enumerate((("train_cost", 1.0, "Training cost F"),
                                                   ("test_accuracy", 100.0, "Test accuracy (%)"))):
        ax_u, ax_c = axes[row]
        for j, b in enumerate(batches):
            _plot(ax_u, select_results(results, method="ssca", formulation="27", batch=b), metric, BATCH_COLORS[j],
                  f"{alg_u} B={b}", scale=scale)
            _plot(ax_c, select_results(results, method="ssca", formulation="37", batch=b), metric, BATCH_COLORS[j],
                  f"{alg_c} B={b}", scale=scale)
        sgd = sorted({(r.spec.config["batch"], r.spec.config["local_steps"]) for r in results
                      if r.spec.config["method"] == "sgd"})
        for j, (b, e) in enumerate(sgd):
            _plot(ax_u, select_results(results, method="sgd", batch=b, local_steps=e), metric, SGD_COLORS[j % 5],
                  f"SGD (B={b}, E={e})", ls="--", scale=scale)
        if metric == "train_cost":
            ax_c.axhline(mn.U_LIMIT, color="black", lw=0.8, ls=":", label=f"U = {mn.U_LIMIT}")
            for ax in (ax_u, ax_c):
                ax.set_ylim(0, 1)
        else:
            for ax in (ax_u, ax_c):
                ax.set_ylim(60, 100)
        ax_u.set(ylabel=ylabel, title=f"({'a' if row == 0 else 'c'}) {alg_u}, (27) with lambda = {mn.LAMBDA:g}")
        ax_c.set(ylabel=ylabel, title=f"({'b' if row == 0 else 'd'}) {alg_c}, (37) with U = {mn.U_LIMIT}")
    for ax in axes[1]:
        ax.set_xlabel("Iteration")
    axes[0][0].legend(fontsize=5.5, ncol=2)
    axes[0][1].legend(fontsize=5.5)
    seeds = len({r.spec.seed for r in results})
    spread = "1 seed" if seeds == 1 else f"mean and range over {seeds} seeds"
    fig.suptitle(f"{title} [{profile}; {spread}]", fontsize=9)
    return save_figure(fig, PAPER, name, run_provenance(results, profile, experiment))


def figure2(results, profile: str):
    return _learning_figure(results, profile, "sample", "ssca.figure2", "figure2",
                            "Figure 2: sample-based FL on MNIST (3-layer swish network)")


def figure3(results, profile: str):
    return _learning_figure(results, profile, "feature", "ssca.figure3", "figure3",
                            "Figure 3: feature-based FL on MNIST (3-layer swish network)")



def figure4(results, profile: str):
    fig, axes = new_figure(ncols=3, width=3.2, height=2.8)
    for j, (mode, (alg_u, alg_c)) in enumerate((("sample", ("Alg. 1", "Alg. 2")), ("feature", ("Alg. 3", "Alg. 4")))):
        reg = sorted(select_results(results, mode=mode, formulation="27"), key=lambda r: r.spec.config["lam"])
        lim = sorted(select_results(results, mode=mode, formulation="37"), key=lambda r: r.spec.config["U"])
        for runs, label, marker, key in ((reg, f"{alg_u}: lambda", "o", "lam"), (lim, f"{alg_c}: U", "s", "U")):
            x = [final(r, "train_cost") for r in runs]
            axes[0][0].plot(x, [final(r, "omega_sq") for r in runs], marker=marker, color=BATCH_COLORS[j],
                            ls="-" if key == "lam" else "--", label=label)
            axes[0][1].plot(x, [100 * final(r, "sparsity") for r in runs], marker=marker, color=BATCH_COLORS[j],
                            ls="-" if key == "lam" else "--", label=label)
            for r, xv in zip(runs, x):
                axes[0][0].annotate(f"{r.spec.config[key]:g}", (xv, final(r, "omega_sq")), fontsize=5)
        axes[0][2].plot([r.spec.config["U"] for r in lim], [final(r, "train_cost") for r in lim], marker="s",
                        color=BATCH_COLORS[j], label=f"{alg_c}: training cost")
        axes[0][2].plot([r.spec.config["U"] for r in lim], [1 - final(r, "test_accuracy") for r in lim],
                        marker="^", color=BATCH_COLORS[j], ls=":", label=f"{alg_c}: test error")
    u = np.array(mn.FIG4_LIMITS)
    axes[0][2].plot(u, u, color="black", lw=0.8, label="F = U")
    axes[0][0].set(xlabel="Training cost F at T", ylabel="||omega||^2 at T", yscale="log",
                   title="(a) model size vs training cost")
    axes[0][1].set(xlabel="Training cost F at T", ylabel=f"% weights with |w| < {mn.SPARSITY_THRESHOLD:g}",
                   title="(a') sparsity vs training cost")
    axes[0][2].set(xlabel="cost limit U", ylabel="value at T", title="(b) constrained: U controls cost / accuracy")
    for ax in axes[0]:
        ax.legend(fontsize=5.5)
    fig.suptitle(f"Figure 4 (our reading): sparsity / cost trade-off, T = {mn.ITERATIONS} [{profile}]", fontsize=9)
    return save_figure(fig, PAPER, "figure4", run_provenance(results, profile, "ssca.figure4"))


def convergence_figure(results, profile: str):
    fig, axes = new_figure(ncols=4, nrows=2, width=2.7, height=2.4)
    for col, problem in enumerate(conv.PROBLEMS):
        for mode, color in (("sample", BATCH_COLORS[0]), ("feature", BATCH_COLORS[1])):
            for steps, ls in STEP_STYLES.items():
                runs = select_results(results, problem=problem, mode=mode, steps=steps)
                if not runs:
                    continue
                t = runs[0].arrays["t"]
                kkt = np.stack([r.arrays["kkt"] for r in runs])
                step = np.stack([r.arrays["step_norm"] for r in runs])
                axes[0][col].plot(t, np.median(kkt, 0), color=color, ls=ls, lw=1, label=f"{mode}, {steps}")
                axes[1][col].plot(t[:-1], np.median(step, 0), color=color, ls=ls, lw=1, label=f"{mode}, {steps}")
        axes[0][col].set(xscale="log", yscale="log", title=problem, ylabel="KKT residual (median)")
        axes[1][col].set(xscale="log", yscale="log", xlabel="iteration t", ylabel="||omega_bar - omega||")
    axes[0][0].legend(fontsize=5)
    fig.suptitle("Theorems 1-4 on small problems: KKT residual and ||omega_bar - omega|| (solid/dashed: (4) and (6) "
                 f"hold; dotted: Section VI family, (6) fails) [{profile}]", fontsize=8)
    return save_figure(fig, PAPER, "convergence", run_provenance(results, profile, "ssca.convergence"))
