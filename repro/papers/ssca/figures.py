"""Mini-batch SSCA: the figures (Figures 2-4 on MNIST and the convergence figure of Theorems 1-4), drawn from the
results of the experiments in :mod:`.experiments`. Imports neither the report nor the audit; what it shares with
the audit is in :mod:`.summaries`.
"""
from __future__ import annotations

import numpy as np

from repro.pep_figure import figure as draw_tightness
from repro.plotting import (band, legend_below, legend_under, log_ticks, new_figure, overlap_style,
                            run_provenance, save_figure, titled)
from repro.papers.ssca.runs import convergence as conv
from repro.papers.ssca.runs import mnist as mn
from repro.papers.ssca.summaries import PAPER, final
from repro.tables import select_results

BATCH_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c")
SGD_COLORS = ("#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22")
STEP_STYLES = {"theory_a": "-", "theory_b": "--", "section_vi": ":"}
STEP_LABELS = {"theory_a": "theory_a, (4)+(6) hold", "theory_b": "theory_b, (4)+(6) hold",
               "section_vi": "Section VI, (6) fails"}
# What each figure tests: encoded claim ids (the paper's CLAIMS) and "<paper>.figureN" for a reproduced figure.
FIGURE_CLAIMS = {
    "figure2": ("ssca.figure2",),
    "figure3": ("ssca.figure3",),
    "figure4": ("ssca.figure4", "ssca.thm5.i", "ssca.thm5.ii"),
    "convergence": ("ssca.thm1", "ssca.thm2", "ssca.thm3", "ssca.thm4"),
    "pep_tightness": ("ssca.lemma4",),
}


def _save(fig, name: str, results, profile: str, experiment: str):
    return save_figure(fig, PAPER, name, run_provenance(results, profile, experiment), claims=FIGURE_CLAIMS[name])


def _plot(ax, runs, metric, color, label, ls="-", scale=1.0):
    """Mean over seeds, with a min-max band when more than one seed is drawn."""
    if runs:
        curves = scale * np.stack([r.arrays[metric] for r in runs])
        band(ax, runs[0].arrays["checkpoints"], curves, color, label, kind="range", ls=ls, lw=1.1)


def _learning_panels(ax_u, ax_c, results, batches, metric, scale, algs):
    for j, b in enumerate(batches):
        _plot(ax_u, select_results(results, method="ssca", formulation="27", batch=b), metric, BATCH_COLORS[j],
              f"{algs[0]} B={b}", scale=scale)
        _plot(ax_c, select_results(results, method="ssca", formulation="37", batch=b), metric, BATCH_COLORS[j],
              f"{algs[1]} B={b}", scale=scale)
    sgd = sorted({(r.spec.config["batch"], r.spec.config["local_steps"]) for r in results
                  if r.spec.config["method"] == "sgd"})
    for j, (b, e) in enumerate(sgd):
        _plot(ax_u, select_results(results, method="sgd", batch=b, local_steps=e), metric, SGD_COLORS[j % 5],
              f"SGD (B={b}, E={e})", ls="--", scale=scale)


def _learning_figure(results, profile: str, mode: str, experiment: str, name: str, title: str):
    batches = mn.TRIPLES if mode == "sample" else mn.FEATURE_TRIPLES
    algs = ("Alg. 1", "Alg. 2") if mode == "sample" else ("Alg. 3", "Alg. 4")
    fig, axes = new_figure(ncols=2, nrows=2, width=3.5, height=2.6)
    for row, (metric, scale, ylabel, ylim) in enumerate((("train_cost", 1.0, "Training cost F", (0, 1)),
                                                         ("test_accuracy", 100.0, "Test accuracy (%)", (60, 100)))):
        ax_u, ax_c = axes[row]
        _learning_panels(ax_u, ax_c, results, batches, metric, scale, algs)
        if metric == "train_cost":
            ax_c.axhline(mn.U_LIMIT, color="black", lw=0.8, ls=":", label=f"U = {mn.U_LIMIT}")
        for ax in (ax_u, ax_c):
            ax.set_ylim(*ylim)
        ax_u.set(ylabel=ylabel, title=f"({'a' if row == 0 else 'c'}) {algs[0]}, (27) with lambda = {mn.LAMBDA:g}")
        ax_c.set(ylabel=ylabel, title=f"({'b' if row == 0 else 'd'}) {algs[1]}, (37) with U = {mn.U_LIMIT}")
    for ax in axes[1]:
        ax.set_xlabel("Iteration")
    legend_below(fig, axes, ncol=4)
    titled(fig, title, results, profile, band="range", fontsize=9)
    return _save(fig, name, results, profile, experiment)


def figure2(results, profile: str):
    return _learning_figure(results, profile, "sample", "ssca.figure2", "figure2",
                            "Figure 2: sample-based FL on MNIST (3-layer swish network)")


def figure3(results, profile: str):
    return _learning_figure(results, profile, "feature", "ssca.figure3", "figure3",
                            "Figure 3: feature-based FL on MNIST (3-layer swish network)")


def _swept(runs, key: str) -> str:
    values = [r.spec.config[key] for r in runs]
    return f"{min(values):g} … {max(values):g}" if values else "-"


def figure4(results, profile: str):
    fig, axes = new_figure(ncols=3, width=3.2, height=3.3)
    i = 0
    for j, (mode, (alg_u, alg_c)) in enumerate((("sample", ("Alg. 1", "Alg. 2")), ("feature", ("Alg. 3", "Alg. 4")))):
        reg = sorted(select_results(results, mode=mode, formulation="27"), key=lambda r: r.spec.config["lam"])
        lim = sorted(select_results(results, mode=mode, formulation="37"), key=lambda r: r.spec.config["U"])
        for runs, label in ((reg, f"{alg_u}: lambda = {_swept(reg, 'lam')}"),
                            (lim, f"{alg_c}: U = {_swept(lim, 'U')}")):
            # Algorithms 1/3 and 2/4 nearly coincide: each its own style, the later ones narrower and on top
            x = [final(r, "train_cost") for r in runs]
            axes[0][0].plot(x, [final(r, "omega_sq") for r in runs], color=BATCH_COLORS[j], label=label,
                            **overlap_style(i))
            axes[0][1].plot(x, [100 * final(r, "sparsity") for r in runs], color=BATCH_COLORS[j], label=label,
                            **overlap_style(i))
            i += 1
        us = [r.spec.config["U"] for r in lim]
        axes[0][2].plot(us, [final(r, "train_cost") for r in lim], color=BATCH_COLORS[j],
                        label=f"{alg_c}: training cost", **overlap_style(2 * j))
        axes[0][2].plot(us, [1 - final(r, "test_accuracy") for r in lim], color=BATCH_COLORS[j],
                        label=f"{alg_c}: test error", **overlap_style(2 * j + 1))
    u = np.array(mn.FIG4_LIMITS)
    axes[0][2].plot(u, u, color="black", lw=0.8, label="F = U")
    axes[0][0].set(xlabel="Training cost F at T", ylabel="||omega||^2 at T", yscale="log",
                   title="(a) model size vs training cost")
    log_ticks(axes[0][0], "y")
    axes[0][1].set(xlabel="Training cost F at T", ylabel=f"% weights with |w| < {mn.SPARSITY_THRESHOLD:g}",
                   title="(a') sparsity vs training cost")
    axes[0][2].set(xlabel="cost limit U", ylabel="value at T", title="(b) constrained: U controls cost / accuracy")
    legend_under(axes[0][1], ncol=2)
    legend_under(axes[0][2], ncol=2)
    titled(fig, f"Figure 4 (our reading): sparsity / cost trade-off, T = {mn.ITERATIONS}", results, profile,
           fontsize=9)
    return _save(fig, "figure4", results, profile, "ssca.figure4")


def convergence_figure(results, profile: str):
    fig, axes = new_figure(ncols=4, nrows=2, width=2.7, height=2.4)
    for col, problem in enumerate(conv.PROBLEMS):
        for mode, color in (("sample", BATCH_COLORS[0]), ("feature", BATCH_COLORS[1])):
            for steps, ls in STEP_STYLES.items():
                runs = select_results(results, problem=problem, mode=mode, steps=steps)
                if not runs:
                    continue
                t, label = runs[0].arrays["t"], f"{mode}, {STEP_LABELS[steps]}"
                band(axes[0][col], t, np.stack([r.arrays["kkt"] for r in runs]), color, label, kind="range",
                     center="median", ls=ls, lw=1, alpha=0.9)
                band(axes[1][col], t[:-1], np.stack([r.arrays["step_norm"] for r in runs]), color, label,
                     kind="range", center="median", ls=ls, lw=0.8, alpha=0.9)
        axes[0][col].set(xscale="log", yscale="log", title=problem, ylabel="KKT residual (median)")
        axes[1][col].set(xscale="log", yscale="log", xlabel="iteration t", ylabel="||omega_bar - omega|| (median)")
        log_ticks(axes[0][col], "y")
    legend_below(fig, axes, ncol=3)
    titled(fig, "Theorems 1-4 on small problems: KKT residual and ||omega_bar - omega||", results, profile,
           band="range", fontsize=9)
    return _save(fig, "convergence", results, profile, "ssca.convergence")


def pep_figure(results, profile: str):
    """``ssca.pep``: printed bound (51) and certified worst case against the iteration t (log axes), drawn by the
    shared :func:`repro.pep_figure.figure` (which declares the claims of the runs, :data:`FIGURE_CLAIMS` names them)."""

    return draw_tightness(results, PAPER, profile)
