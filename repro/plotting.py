"""One figure style for the suite, and deterministic, atomic saving of PDF + PNG + provenance.

Figures are functions of cached results; :func:`save_figure` writes ``<stem>.pdf``,
``<stem>.png`` and ``<stem>.json`` (the provenance: experiment, profile, configs, result hashes,
commit) with fixed metadata so that an unchanged result rewrites byte-identical files.
"""
from __future__ import annotations

import io
import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .io import atomic_write_bytes, atomic_write_json  # noqa: E402

STYLE = {
    "figure.dpi": 110,
    "savefig.dpi": 150,
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "svg.hashsalt": "fedbounds",
    "pdf.compression": 6,
}
COLORS = {"hard": "#d62728", "soft": "#1f77b4", "bound": "#444444", "reference": "#2ca02c"}


def figures_root() -> Path:
    """``figures/`` in the working directory, or ``REPRO_FIGURES_DIR``."""
    return Path(os.environ.get("REPRO_FIGURES_DIR", "figures"))


def new_figure(ncols: int = 1, nrows: int = 1, width: float = 3.2, height: float = 2.6):
    """A figure with the suite's style applied."""
    plt.rcParams.update(STYLE)
    return plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), squeeze=False,
                        constrained_layout=True)


def run_provenance(results, profile: str, experiment: str) -> dict:
    """The provenance record of a figure: the experiment, the profile, and every run it was drawn from."""
    return {"experiment": experiment, "profile": profile,
            "runs": [{"hash": r.hash, "seed": r.spec.seed, "config": r.spec.config,
                      "git_commit": r.meta["git_commit"]} for r in results]}


def save_figure(fig, paper: str, name: str, provenance: dict) -> list[Path]:
    """Write ``figures/<paper>/<name>.{pdf,png,json}`` atomically and deterministically."""
    out_dir = figures_root() / paper
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt, meta in (("pdf", {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}),
                      ("png", {"Software": None})):
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, metadata=meta)
        path = out_dir / f"{name}.{fmt}"
        atomic_write_bytes(path, buf.getvalue())
        paths.append(path)
    path = out_dir / f"{name}.json"
    atomic_write_json(path, provenance)
    paths.append(path)
    plt.close(fig)
    return paths
