"""FedSGM figures: Figure 1 of the paper (federated Neyman-Pearson classification, Section 4.1) with its
sensitivity variants, and observed / bound of Theorems 1 and 2 on the synthetic families."""
from __future__ import annotations

import numpy as np

from repro.plotting import COLORS, new_figure, run_provenance, save_figure
from repro.papers.fedsgm.runs.theorems import FIGURE1_VARIANTS
from repro.papers.fedsgm.summaries import violations
from repro.tables import select_results

PAPER = "fedsgm"   # the package key (as ``experiments.PAPER``): figures are written to figures/fedsgm/


def figure1(results, profile: str):
    """Figure 1 (three panels) for the default variant, and the sensitivity variants."""
    paths = []
    for variant in FIGURE1_VARIANTS:
        chosen = select_results(results, variant=variant)
        fig, axes = new_figure(ncols=3, width=3.0)
        eps = chosen[0].spec.config["eps"]
        for switching in ("hard", "soft"):
            runs = select_results(chosen, switching=switching)
            for ax, key in zip(axes[0][:2], ("f", "g")):
                curves = np.stack([r.arrays[key] for r in runs])
                mean, std = curves.mean(axis=0), curves.std(axis=0)
                t = np.arange(curves.shape[1])
                ax.plot(t, mean, color=COLORS[switching], label=f"{switching} switching")
                ax.fill_between(t, mean - std, mean + std, color=COLORS[switching], alpha=0.25, lw=0)
            counts, after = violations(runs)
            x = 0 if switching == "hard" else 1
            axes[0][2].bar(x - 0.18, counts.mean(), 0.36, yerr=counts.std(), color=COLORS[switching],
                           capsize=3, label="all rounds" if x == 0 else None)
            axes[0][2].bar(x + 0.18, after.mean(), 0.36, yerr=after.std(), color=COLORS[switching],
                           alpha=0.45, hatch="//", capsize=3, label="after transient" if x == 0 else None)
        axes[0][1].axhline(eps, color=COLORS["bound"], ls="--", lw=1, label=r"$\epsilon$")
        axes[0][0].set(xlabel="round t", ylabel=r"objective $f(w_t)$ (class 0)")
        axes[0][1].set(xlabel="round t", ylabel=r"constraint $g(w_t)$ (class 1)")
        axes[0][2].set(xticks=[0, 1], xticklabels=["hard", "soft"],
                       ylabel=f"violations $g(w_t)>\\epsilon$ (of {chosen[0].spec.config['T']})")
        for ax in axes[0]:
            ax.legend()
        fig.suptitle(f"FedSGM NP classification, Rand-K K={chosen[0].spec.config['K']}, variant {variant}, "
                     f"mean ± std over {len(chosen) // 2} seeds [{profile}]")
        name = "figure1" if variant == "default" else f"figure1_{variant}"
        paths += save_figure(fig, PAPER, name, run_provenance(chosen, profile, "fedsgm.figure1"))
    return paths


def theory_figure(results, profile: str):
    """observed / bound of Theorems 1 and 2 (stated constants) across E and q_u."""
    fig, axes = new_figure(ncols=2, width=3.4)
    for ax, (label, claim_id) in zip(axes[0], (("hard-stated", "fedsgm.thm1"), ("soft-stated", "fedsgm.thm2"))):
        for compressed, marker in ((False, "o"), (True, "^")):
            xs, ys = [], []
            for r in results:
                if r.spec.config["constants"] != label or (r.spec.config["K_frac"] is not None) != compressed:
                    continue
                a = r.arrays
                rows = (a["claim_id"] == claim_id) & (np.char.startswith(a["relation"], "subopt")
                                                      | np.char.startswith(a["relation"], "infeas"))
                xs.append(r.spec.config["E"] * (1 + 0.06 * (marker == "^")))
                ys.append(np.nanmax(a["observed"][rows] / a["bound"][rows]))
            ax.scatter(xs, ys, marker=marker, s=18, alpha=0.7,
                       label="Rand-K ($q_u>0$)" if compressed else "no compression ($q_u=0$)")
        ax.axhline(1.0, color=COLORS["bound"], ls="--", lw=1, label="bound")
        ax.set(xscale="log", xlabel="local steps E", ylabel=r"$\max(f(\bar w)-f^*,\ g(\bar w))/\epsilon$",
               title=f"{claim_id.split('.')[1].replace('thm', 'Theorem ')} ({label})")
        ax.set_xticks([1, 2, 5], ["1", "2", "5"])
        ax.legend()
    fig.suptitle(f"FedSGM: observed / bound on synthetic families [{profile}]")
    return save_figure(fig, PAPER, "theory_ratio", run_provenance(results, profile, "fedsgm.theory"))
