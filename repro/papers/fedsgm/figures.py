"""FedSGM figures: Figure 1 of the paper (federated Neyman-Pearson classification, Section 4.1) with its
sensitivity variants, and observed / bound of Theorems 1 and 2 on the synthetic families."""
from __future__ import annotations

import numpy as np

from repro.pep_figure import figure as draw_tightness
from repro.plotting import (COLORS, band, legend_below, log_ticks, new_figure, run_provenance, save_figure,
                            spread, titled)
from repro.papers.fedsgm.runs.theorems import FIGURE1_VARIANTS
from repro.papers.fedsgm.summaries import violations
from repro.tables import select_results

PAPER = "fedsgm"   # the package key: figures are written to figures/fedsgm/

# What each figure tests: encoded claim ids (the paper's CLAIMS) and "<paper>.figureN" for a reproduced figure.
FIGURE_CLAIMS = {
    "figure1": ("fedsgm.figure1", "fedsgm.thm1", "fedsgm.thm2"),
    **{f"figure1_{v}": ("fedsgm.figure1", "fedsgm.thm1", "fedsgm.thm2") for v in FIGURE1_VARIANTS if v != "default"},
    "theory_ratio": ("fedsgm.thm1", "fedsgm.thm2"),
    "pep_tightness": ("fedsgm.thm1", "fedsgm.thm6", "fedsgm.thm8", "fedsgm.thm8.proof"),
}


def _violation_bars(ax, runs, x: int, color) -> None:
    """Rounds with g(w_t) > eps, over all rounds and after the transient (error bar: std, with >1 seed)."""
    for offset, values, extra in ((-0.18, violations(runs)[0], {"label": "all rounds"}),
                                  (0.18, violations(runs)[1], {"alpha": 0.45, "hatch": "//",
                                                               "label": "after transient"})):
        mean, err = spread(values[:, None])
        ax.bar(x + offset, mean[0], 0.36, yerr=None if err is None else err[0], color=color, capsize=3,
               **(extra if x == 0 else {k: v for k, v in extra.items() if k != "label"}))


def figure1(results, profile: str):
    """Figure 1 (three panels) for the default variant, and the sensitivity variants."""
    paths = []
    for variant in FIGURE1_VARIANTS:
        chosen = select_results(results, variant=variant)
        fig, axes = new_figure(ncols=3, width=3.0)
        cfg = chosen[0].spec.config
        for x, switching in enumerate(("hard", "soft")):
            runs = select_results(chosen, switching=switching)
            for ax, key in zip(axes[0][:2], ("f", "g")):
                curves = np.stack([r.arrays[key] for r in runs])
                band(ax, np.arange(curves.shape[1]), curves, COLORS[switching], f"{switching} switching")
            _violation_bars(axes[0][2], runs, x, COLORS[switching])
        axes[0][1].axhline(cfg["eps"], color=COLORS["bound"], ls="--", lw=1, zorder=1, label=r"$\epsilon$")
        axes[0][0].set(xlabel="round t", ylabel=r"objective $f(w_t)$ (class 0)")
        axes[0][1].set(xlabel="round t", ylabel=r"constraint $g(w_t)$ (class 1)")
        axes[0][2].set(xticks=[0, 1], xticklabels=["hard", "soft"],
                       ylabel=f"violations $g(w_t)>\\epsilon$ (of {cfg['T']})")
        legend_below(fig, axes, ncol=5)
        titled(fig, f"FedSGM NP classification, Rand-K K={cfg['K']}, variant {variant}", chosen, profile,
               band="std")
        name = "figure1" if variant == "default" else f"figure1_{variant}"
        paths += save_figure(fig, PAPER, name, run_provenance(chosen, profile, "fedsgm.figure1"),
                             claims=FIGURE_CLAIMS[name])
    return paths


def _theory_points(results, label: str, claim_id: str, compressed: bool):
    """Per run of the stated-constants family ``label``: local steps E and max(subopt, infeas)/bound."""
    xs, ys = [], []
    for r in results:
        if r.spec.config["constants"] != label or (r.spec.config["K_frac"] is not None) != compressed:
            continue
        a = r.arrays
        rows = (a["claim_id"] == claim_id) & (np.char.startswith(a["relation"], "subopt")
                                              | np.char.startswith(a["relation"], "infeas"))
        xs.append(r.spec.config["E"])
        ys.append(np.nanmax(a["observed"][rows] / a["bound"][rows]))
    return np.asarray(xs, dtype=float), np.asarray(ys)


def theory_figure(results, profile: str):
    """observed / bound of Theorems 1 and 2 (stated constants) across E and q_u."""
    fig, axes = new_figure(ncols=2, width=3.4, height=2.7)
    for ax, (label, claim_id) in zip(axes[0], (("hard-stated", "fedsgm.thm1"), ("soft-stated", "fedsgm.thm2"))):
        for compressed, marker, shift, text in ((False, "o", 1.0, "no compression ($q_u=0$)"),
                                                (True, "^", 1.06, "Rand-K ($q_u>0$), drawn at 1.06 E")):
            xs, ys = _theory_points(results, label, claim_id, compressed)
            ax.scatter(xs * shift, ys, marker=marker, s=18, alpha=0.7, label=text)
        ax.axhline(1.0, color=COLORS["bound"], ls="--", lw=1, label="bound")
        ax.set(xscale="log", xlabel="local steps E", ylabel=r"$\max(f(\bar w)-f^*,\ g(\bar w))/\epsilon$",
               title=f"{claim_id.split('.')[1].replace('thm', 'Theorem ')} ({label})")
        log_ticks(ax, "x", sorted({r.spec.config["E"] for r in results}))
    legend_below(fig, axes, ncol=3)
    titled(fig, "FedSGM: observed / bound on synthetic families", results, profile)
    return save_figure(fig, PAPER, "theory_ratio", run_provenance(results, profile, "fedsgm.theory"),
                       claims=FIGURE_CLAIMS["theory_ratio"])


def pep_figure(results, profile: str):
    """The claim's bound (eps) and certified worst case against T, one panel per claim (:func:`repro.pep_figure.figure`)."""
    return draw_tightness(results, PAPER, profile)
