"""The figure of every ``<paper>.pep`` experiment: the claim's bound (dashed; as printed, or derived as the panel's
quantity says) and certified worst case (solid, markers) against the parameter ``x`` of each claim's curve (usually
T), on log axes (x linear, ticked at its values, where a panel has only one or two), one panel per claim and
quantity (a worst case of 0 is not drawn: log axes), one legend under all panels, each series label with one colour
and marker in every panel; series that coincide stay visible (each later one narrower, on top, with its own marker).
Reads the run metadata of :func:`repro.pep.curve`; :mod:`repro.tightness` reads the same runs for the report."""
from __future__ import annotations

import textwrap

from repro import plotting
from repro.tables import fmt


def _series(points, x: str) -> dict[str, list]:
    """The points of one panel grouped by the parameters that vary in it, other than ``x`` (the series labels)."""
    keys = {k for p in points for k in p["params"]} - {x}
    varying = sorted(k for k in keys if len({str(p["params"].get(k)) for p in points}) > 1)
    out: dict[str, list] = {}
    for p in points:
        out.setdefault(", ".join(f"{k} = {fmt(p['params'].get(k))}" for k in varying) if varying else "", []).append(p)
    return out


def _panels(results) -> dict[tuple[str, str], list]:
    """The runs of each (claim, quantity), in run order: one panel each."""
    out: dict[tuple[str, str], list] = {}
    for r in results:
        m = r.meta["metadata"]
        out.setdefault((m["claim"], m["quantity"]), []).append(r)
    return out


def _points(mine) -> tuple[str, list]:
    """A panel's parameter ``x`` and its points."""
    return mine[0].meta["metadata"]["x"], [p for r in mine for p in r.meta["metadata"]["points"]]


def _styles(panels: dict) -> dict[str, int]:
    """Every series label of the figure, numbered in order of first appearance: a label keeps its colour, marker and
    width in every panel, and two labels never share them."""
    out: dict[str, int] = {}
    for mine in panels.values():
        x, points = _points(mine)
        for label in _series(points, x):
            out.setdefault(label, len(out))
    return out


def _draw(ax, mine, styles: dict[str, int]) -> None:
    x, points = _points(mine)
    for label, series in _series(points, x).items():
        i = styles[label]
        series = sorted(series, key=lambda p: p["params"][x])
        xs = [p["params"][x] for p in series]
        width, order = max(2.4 - 0.5 * i, 0.9), 2 + 0.1 * i       # a later series narrower and on top: none hidden
        ax.plot(xs, [p["bound"] for p in series], color=f"C{i}", ls="--", lw=width, zorder=order,
                marker="_", ms=9, label=f"claim's bound {label}".strip())      # the marker: a one-point curve too
        worst = [p["certificate"]["value"] if p["certificate"]["value"] > 0 else float("nan") for p in series]
        ax.plot(xs, worst, color=f"C{i}", marker=plotting.MARKERS[i % len(plotting.MARKERS)], ms=3, lw=width,
                zorder=order, label=f"certified worst case {label}".strip())
    values = sorted({p["params"][x] for p in points})
    ax.set_yscale("log")
    if len(values) >= 3:
        ax.set_xscale("log")
        plotting.log_ticks(ax, "x", values)
    else:                       # one or two points (T = 1, 2): their own ticks, not round values between them
        ax.set_xticks(values, [fmt(v) for v in values])
    ax.set_xlabel(x)


def figure(results, paper: str, profile: str, name: str = "pep_tightness", ncols: int = 3):
    """The claim's bound (dashed) and certified worst case (solid, markers) against each claim's ``x`` on log axes, one
    panel per (claim, quantity), ``ncols`` panels a row; saved as ``figures/<paper>/<name>.*`` with the claims in its
    provenance."""
    panels = _panels(results)
    if not panels:
        return []
    cols = min(ncols, len(panels))
    fig, axes = plotting.new_figure(ncols=cols, nrows=-(-len(panels) // cols), width=max(3.6, 7.2 / cols), height=3.4)
    flat, styles = list(axes.flat), _styles(panels)
    for ax, ((claim, quantity), mine) in zip(flat, panels.items()):
        _draw(ax, mine, styles)
        ax.set_title("\n".join([claim] + textwrap.wrap(quantity, 48)), fontsize=7)
    for ax in flat[len(panels):]:
        ax.set_visible(False)
    plotting.legend_below(fig, flat[:len(panels)], ncol=2, fontsize=6)     # once, under every panel
    plotting.titled(fig, "Claim's bound vs certified worst case (PEP)", results, profile)
    claims = list(dict.fromkeys(claim for claim, _ in panels))
    return plotting.save_figure(fig, paper, name, plotting.run_provenance(results, profile, results[0].spec.experiment),
                                claims=claims)


__all__ = ["figure"]
