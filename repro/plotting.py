"""One figure style for the suite, the shared pieces of every figure, and deterministic, atomic saving of
PDF + PNG + provenance.

Figures are functions of cached results. Every title ends with :func:`title_suffix` (the profile and the number
of seeds actually drawn); :func:`band` draws a mean curve with a band only where more than one seed is drawn;
legends go outside the axes (:func:`legend_below`, :func:`legend_right`). :func:`save_figure` writes
``<stem>.pdf``, ``<stem>.png`` and ``<stem>.json`` -- the provenance: experiment, profile, the claims the figure
tests, the commit it was built from, and every run it was drawn from with that run's own commit -- with fixed
metadata so that unchanged results and code rewrite byte-identical files.
"""
from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import numpy as np

from .io import atomic_write_bytes, atomic_write_json

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
# Line styles / markers to tell apart curves that may coincide (cycled by index, never a change of data).
LINESTYLES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1)), (0, (1, 1)))
MARKERS = ("o", "s", "^", "v", "D", "P", "X")
BANDS = {"std": "mean ± std", "range": "min-max"}
# A figure's claims: encoded claim ids (``<paper>.<claim>``) or the prefix of a reproduced figure's statements
# (``<paper>.figureN``).
CLAIM_ID = re.compile(r"^[a-z0-9_]+\.[A-Za-z0-9_.]+$")


def figures_root() -> Path:
    """``figures/`` in the working directory, or ``REPRO_FIGURES_DIR``."""
    return Path(os.environ.get("REPRO_FIGURES_DIR", "figures"))


def pyplot():
    """``matplotlib.pyplot`` on the Agg backend, imported on first use: matplotlib costs ~0.4 s to import, and the
    command line, which imports every figure module through the registry, draws nothing for most commands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def new_figure(ncols: int = 1, nrows: int = 1, width: float = 3.2, height: float = 2.6):
    """A figure with the suite's style applied."""
    plt = pyplot()
    plt.rcParams.update(STYLE)
    return plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), squeeze=False,
                        constrained_layout=True)


# ---------------------------------------------------------------------------- seeds, titles, bands
def seeds_drawn(results, key: str | None = None) -> tuple[int, int]:
    """The fewest and most distinct seeds behind one drawn curve or point: runs are grouped by configuration
    (without ``key``) and the distinct seeds of each group counted -- the run seed, and ``config[key]`` when a
    configuration entry is a seed too (e.g. a data seed)."""
    groups: dict[str, set] = {}
    for r in results:
        config = {k: v for k, v in r.spec.config.items() if k != key}
        seed = (r.spec.seed, r.spec.config[key] if key is not None else None)
        groups.setdefault(json.dumps(config, sort_keys=True, default=str), set()).add(seed)
    counts = [len(s) for s in groups.values()] or [0]
    return min(counts), max(counts)


def title_suffix(results, profile: str, key: str | None = None, band: str | None = None,
                 shown: str = "band") -> str:
    """``"quick profile, 3 seeds"`` (``"1 seed"``; ``"1-3 seeds"`` when curves differ) from the seeds actually
    drawn (:func:`seeds_drawn`); with ``band`` (a key of :data:`BANDS`) and more than one seed, what the band (or
    what ``shown`` names, e.g. error bars) shows: ``"quick profile, 3 seeds, band: mean ± std"``."""
    lo, hi = seeds_drawn(results, key)
    text = f"{profile} profile, {hi if lo == hi else f'{lo}-{hi}'} seed{'' if hi == 1 else 's'}"
    return text + (f", {shown}: {BANDS[band]}" if band is not None and hi > 1 else "")


def titled(fig, text: str, results, profile: str, key: str | None = None, band: str | None = None,
           shown: str = "band", **kw):
    """``fig.suptitle`` of ``text`` followed by ``[<title_suffix>]`` (on its own line if ``text`` ends with a
    newline)."""
    sep = "" if not text or text.endswith("\n") else " "
    return fig.suptitle(f"{text}{sep}[{title_suffix(results, profile, key, band, shown)}]", **kw)


def band(ax, t, curves, color, label, kind: str = "std", nonnegative: bool = False, center: str = "mean",
         **line):
    """The mean (or ``center="median"``) of ``curves`` (one row per seed) over ``t``, and -- only when there is
    more than one row -- a band: mean ± std (``kind="std"``, clipped at 0 when ``nonnegative``) or min-max
    (``kind="range"``)."""
    curves = np.atleast_2d(np.asarray(curves, dtype=float))
    mean = np.median(curves, axis=0) if center == "median" else curves.mean(axis=0)
    (handle,) = ax.plot(t, mean, color=color, label=label, **{"lw": 1.2} | line)
    if curves.shape[0] > 1:
        if kind == "std":
            lo, hi = mean - curves.std(axis=0), mean + curves.std(axis=0)
            lo = np.maximum(lo, 0.0) if nonnegative else lo
        else:
            lo, hi = curves.min(axis=0), curves.max(axis=0)
        ax.fill_between(t, lo, hi, color=color, alpha=line.get("alpha", 1.0) * 0.2, lw=0,
                        zorder=handle.get_zorder() - 0.5)
    return handle


def overlap_style(i: int) -> dict:
    """Line keywords of the ``i``-th of curves that may coincide: its own line style and marker, and drawn
    narrower and above the ones before it, so that none hides another."""
    return {"ls": LINESTYLES[i % len(LINESTYLES)], "marker": MARKERS[i % len(MARKERS)], "ms": 3,
            "lw": max(2.6 - 0.45 * i, 0.9), "zorder": 2 + 0.1 * i}


def spread(values, kind: str = "std"):
    """Mean and error-bar half-widths of ``values`` (one row per seed): ``None`` for the error with one row."""
    values = np.atleast_2d(np.asarray(values, dtype=float))
    mean = values.mean(axis=0)
    if values.shape[0] == 1:
        return mean, None
    if kind == "std":
        return mean, values.std(axis=0)
    return mean, np.vstack([mean - values.min(axis=0), values.max(axis=0) - mean])


# ---------------------------------------------------------------------------- legends and ticks
def _handles(axes):
    handles, labels = [], []
    for ax in np.ravel(axes):
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    return handles, labels


def legend_below(fig, axes, ncol: int = 3, **kw):
    """One legend for ``axes`` (labels deduplicated) below all axes of ``fig``, outside every plotting area."""
    handles, labels = _handles(axes)
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncol=min(ncol, len(labels)),
                   **{"fontsize": 7, "frameon": False} | kw)


def legend_right(ax, **kw):
    """The legend of ``ax`` to the right of its plotting area."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
                  **{"fontsize": 7, "frameon": False} | kw)


def legend_under(ax, ncol: int = 1, **kw):
    """The legend of ``ax`` below its plotting area (and its x label)."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=ncol, borderaxespad=0.0,
                  **{"fontsize": 7, "frameon": False} | kw)


def log_ticks(ax, axis: str = "x", values=None):
    """Log-axis ticks at ``values`` (default: 1, 2 and 5 times the powers of ten) with plain labels and no
    minor labels, so that tick labels cannot overlap."""
    from matplotlib import ticker

    target = ax.xaxis if axis == "x" else ax.yaxis
    if values is None:
        target.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0), numticks=8))
        target.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    else:
        target.set_major_locator(ticker.FixedLocator(list(values)))
        target.set_major_formatter(ticker.FixedFormatter([f"{v:g}" for v in values]))
    target.set_minor_formatter(ticker.NullFormatter())


# ---------------------------------------------------------------------------- provenance and saving
def run_provenance(results, profile: str, experiment: str) -> dict:
    """The provenance record of a figure: the experiment, the profile, and every run it was drawn from. A run's hash
    covers the source of the code it executed (:mod:`repro.fingerprint`), so it names the code without naming a
    commit: the record is committed, and a commit hash in it would change with every commit and rebuild (the cache
    entry of each run keeps its ``git_commit``)."""
    return {"experiment": experiment, "profile": profile,
            "runs": [{"hash": r.hash, "seed": r.spec.seed, "config": r.spec.config} for r in results]}


def check_claims(paper: str, claims) -> list[str]:
    """``claims`` as a list, each an id of ``paper`` (``<paper>.<...>``); ValueError otherwise."""
    out = [str(c) for c in claims]
    bad = [c for c in out if not CLAIM_ID.match(c) or c.split(".", 1)[0] != paper]
    if bad:
        raise ValueError(f"figure claims {bad!r} are not ids of paper {paper!r} ('{paper}.<claim>')")
    return out


def _drawn_ticks(axis) -> list:
    """The ticks an axis labels: with text, inside its view interval (major and minor)."""
    lo, hi = sorted(axis.get_view_interval())
    return [t for t in axis.get_major_ticks() + axis.get_minor_ticks()
            if t.label1.get_visible() and t.label1.get_text() and lo <= t.get_loc() <= hi]


def _labels(axis, renderer) -> list:
    """The bounding boxes of the tick labels an axis draws."""
    return [t.label1.get_window_extent(renderer) for t in _drawn_ticks(axis)]


def _points(ax) -> "np.ndarray":
    """Every data point an axes draws inside its plotting area, in display coordinates (lines and scatter
    collections)."""
    pts = [ax.transData.transform(np.asarray(line.get_xydata(), float)) for line in ax.get_lines()
           if line.get_visible() and len(line.get_xdata())]
    pts += [ax.transData.transform(np.asarray(c.get_offsets(), float)) for c in ax.collections
            if c.get_visible() and len(c.get_offsets())]
    pts = np.concatenate([p[np.isfinite(p).all(axis=1)] for p in pts]) if pts else np.empty((0, 2))
    box = ax.get_window_extent()                    # points outside the plotting area are clipped: not drawn
    return pts[(pts[:, 0] >= box.x0) & (pts[:, 0] <= box.x1) & (pts[:, 1] >= box.y0) & (pts[:, 1] <= box.y1)]


def _log_ticks_inside(lo: float, hi: float) -> list[float]:
    """Three to six round values inside a positive interval: 1, 2, 5 times a power of ten where there are three,
    else 1-9 times one, else geometrically spaced values to 2 (or 3, 4) digits."""
    import math
    decades = range(math.floor(math.log10(lo)) - 1, math.ceil(math.log10(hi)) + 1)
    for mantissas in ((1, 2, 5), (1, 2, 3, 4, 5, 6, 7, 8, 9)):
        ticks = [m * 10.0 ** k for k in decades for m in mantissas if lo <= m * 10.0 ** k <= hi]
        if len(ticks) >= 3:
            return ticks[::-(-len(ticks) // 6)]
    for digits in (2, 3, 4):
        ticks = sorted({float(f"{v:.{digits}g}") for v in np.geomspace(lo, hi, 5)[1:-1]})
        if len([t for t in ticks if lo < t < hi]) >= 3:
            return [t for t in ticks if lo < t < hi]
    return list(np.geomspace(lo, hi, 5)[1:-1])


def _overlap(axis, name: str, renderer) -> bool:
    """Do two neighbouring tick labels overlap? Upright labels by their boxes; slanted ones (whose boxes overlap
    without the text touching) by the spacing of their ticks against the text height over sin(angle)."""
    import math
    ticks = _drawn_ticks(axis)
    angle = max((abs(t.label1.get_rotation()) % 180 for t in ticks), default=0.0)
    if name == "x" and 20 <= angle <= 160:
        xs = sorted(t.label1.get_window_extent(renderer).x1 for t in ticks)
        height = max(t.label1.get_fontsize() for t in ticks) * axis.axes.figure.dpi / 72
        return any(b - a < height / math.sin(math.radians(angle)) for a, b in zip(xs, xs[1:]))
    boxes = sorted(_labels(axis, renderer), key=lambda b: b.x0 if name == "x" else b.y0)
    return any(a.overlaps(b) for a, b in zip(boxes, boxes[1:]))


def _log_labels_fixed(axis, name: str, renderer) -> bool:
    """A log axis showing fewer than three labels, or overlapping ones, gets three to six round ones inside its range
    (no minor labels); True if it changed."""
    from matplotlib import ticker
    lo, hi = sorted(axis.get_view_interval())
    if not (axis.get_scale() == "log" and lo > 0 and (len(_labels(axis, renderer)) < 3
                                                       or _overlap(axis, name, renderer))):
        return False
    ticks = _log_ticks_inside(lo, hi)
    axis.set_major_locator(ticker.FixedLocator(ticks))
    axis.set_major_formatter(ticker.FixedFormatter([f"{t:g}" for t in ticks]))
    axis.set_minor_formatter(ticker.NullFormatter())
    return True


def _slanted(axis, name: str, renderer) -> bool:
    """Upright x tick labels that overlap are slanted by 45 degrees; True if they were."""
    upright = all(label.get_rotation() == 0 for label in axis.get_majorticklabels())
    if not (name == "x" and upright and _overlap(axis, name, renderer)):
        return False
    for label in axis.get_majorticklabels():
        label.set(rotation=45, horizontalalignment="right")
    return True


def _thinned(axis, name: str, renderer) -> bool:
    """Numeric tick labels that still overlap keep every other one (named categories are never dropped); True if
    they were thinned."""
    from matplotlib import ticker
    if isinstance(axis.get_major_formatter(), ticker.FixedFormatter) or not _overlap(axis, name, renderer):
        return False
    lo, hi = sorted(axis.get_view_interval())
    axis.set_minor_formatter(ticker.NullFormatter())
    axis.set_major_locator(ticker.FixedLocator([t for t in axis.get_majorticklocs() if lo <= t <= hi][::2]))
    return True


def tidy_axes(fig) -> None:
    """The figure style's last step, before saving, in three passes over every axis of ``fig``: log labels
    (:func:`_log_labels_fixed`), then slanting (:func:`_slanted`), then thinning (:func:`_thinned`), each pass
    deciding on the figure as drawn after the one before (a pass that changed something is followed by one draw, not
    one per axis: each draw of a large figure costs about a second). The figure is left drawn in its final state."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    axes = [(axis, name) for ax in fig.axes if ax.get_visible() and ax.has_data()
            for axis, name in ((ax.xaxis, "x"), (ax.yaxis, "y"))]
    for fix in (_log_labels_fixed, _slanted, _thinned):
        if any([fix(axis, name, renderer) for axis, name in axes]):        # a list: every axis gets the pass
            fig.canvas.draw()


def craft_problems(fig, drawn: bool = False) -> list[str]:
    """What a reader would trip over in ``fig``, found with matplotlib's own bounding boxes after drawing (``drawn``:
    the figure is already drawn as it stands, as :func:`tidy_axes` leaves it): tick labels that overlap, a log axis
    with fewer than three labels, a legend (of a panel or of the figure) drawn over the data points of any panel."""
    if not drawn:
        fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    problems = []
    panels = [a for a in fig.axes if a.get_visible() and a.has_data()]
    for k, ax in enumerate(panels):
        where = f"panel {k + 1} ({ax.get_title() or ax.get_ylabel() or 'untitled'})"
        for axis, name in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            if _overlap(axis, name, renderer):
                problems.append(f"{where}: {name} tick labels overlap")
            labels = len(_drawn_ticks(axis))
            if axis.get_scale() == "log" and labels < 3:
                problems.append(f"{where}: log {name} axis with {labels} labels")
    legends = [a.get_legend() for a in fig.axes] + list(fig.legends)
    points = [(k, _points(a)) for k, a in enumerate(panels)]
    for legend in (g for g in legends if g is not None and g.get_visible()):
        box = legend.get_window_extent(renderer)
        for k, pts in points:
            inside = (pts[:, 0] > box.x0) & (pts[:, 0] < box.x1) & (pts[:, 1] > box.y0) & (pts[:, 1] < box.y1)
            if inside.any():
                problems.append(f"a legend covers {int(inside.sum())} data points of panel {k + 1}")
    return problems


def save_figure(fig, paper: str, name: str, provenance: dict, claims=()) -> list[Path]:
    """Write ``figures/<paper>/<name>.{pdf,png,json}`` atomically and deterministically. The JSON is
    ``provenance`` with ``claims`` (the ids of what the figure tests) and ``craft_problems``
    (:func:`craft_problems`: what a reader would trip over; the committed figures have none)."""
    from matplotlib.image import imsave as image_save

    fig.set_dpi(STYLE["savefig.dpi"])                   # laid out and drawn at the PNG's resolution, once:
    tidy_axes(fig)                                       # it leaves the figure drawn as it will be saved
    record = {"experiment": provenance.get("experiment"), "profile": provenance.get("profile"),
              "claims": check_claims(paper, claims), "craft_problems": craft_problems(fig, drawn=True)} | provenance
    out_dir = figures_root() / paper
    out_dir.mkdir(parents=True, exist_ok=True)
    png, pdf = io.BytesIO(), io.BytesIO()
    # the PNG is the drawn canvas, as savefig's PNG writer takes it after drawing the same figure again; then the PDF,
    # with the layout just computed kept (in figure fractions, so the same at 72 dpi): laid out again it would cost
    # as much as the drawing and could only move what the checks above passed
    image_save(png, fig.canvas.buffer_rgba(), format="png", origin="upper", dpi=fig.dpi, metadata={"Software": None})
    fig.set_layout_engine("none")
    fig.savefig(pdf, format="pdf", metadata={"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None})
    paths = []
    for fmt, buf in (("pdf", pdf), ("png", png)):
        path = out_dir / f"{name}.{fmt}"
        atomic_write_bytes(path, buf.getvalue())
        paths.append(path)
    path = out_dir / f"{name}.json"
    atomic_write_json(path, record)
    paths.append(path)
    pyplot().close(fig)
    return paths
