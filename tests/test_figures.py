"""Figures: the title suffix (profile, seeds drawn), bands only over more than one seed, and the provenance JSON
(claims the figure tests, the commit it was built from, each run's own commit). Built from tiny synthetic
results -- no results cache is needed -- through the shared helpers and through a real paper figure
(FedSGM Figure 1), plus a static check that every figure of every paper declares its claims."""
import ast
import importlib
import json
import re
from pathlib import Path
from types import SimpleNamespace

import matplotlib.collections
import matplotlib.text
import matplotlib.ticker
import numpy as np
import pytest

from repro import plotting
from repro.registry import paper as interface, papers

ROOT = Path(__file__).resolve().parents[1]
PAPERS = ("fedsgm", "pcfedavg", "fedclup", "ssca")


def fake_run(seed: int, **config):
    arrays = {"f": np.linspace(1.0, 0.1, 12) + 0.01 * seed, "g": np.linspace(0.5, 0.05, 12) + 0.01 * seed,
              "violations": np.float64(3 + seed), "violations_after_transient": np.float64(seed)}
    return SimpleNamespace(hash=f"h{seed}{sorted(config.items())}", spec=SimpleNamespace(seed=seed, config=config),
                           meta={"git_commit": "a" * 40}, arrays=arrays)


def figure1_results(n_seeds: int):
    from repro.papers.fedsgm.runs.theorems import FIGURE1_VARIANTS
    return [fake_run(s, variant=v, switching=sw, eps=0.1, K=9, T=12)
            for v in FIGURE1_VARIANTS for sw in ("hard", "soft") for s in range(n_seeds)]


def valid_claim(paper: str, claim: str) -> bool:
    ids = {c.id for c in interface(paper).claims}
    return claim in ids or re.fullmatch(rf"{paper}\.figure\d+", claim) is not None


@pytest.fixture
def drawn(monkeypatch):
    """Capture, per saved figure, every text on it and the number of bands (filled areas) before it is closed."""
    from repro.papers.fedsgm import figures as F
    seen = {}

    def capture(fig, paper, name, provenance, claims=()):
        texts = [t.get_text() for t in fig.findobj(matplotlib.text.Text)]
        bands = sum(isinstance(c, matplotlib.collections.PolyCollection) for ax in fig.axes for c in ax.collections)
        seen[name] = {"title": fig.get_suptitle(), "texts": texts, "bands": bands}
        return plotting.save_figure(fig, paper, name, provenance, claims=claims)

    monkeypatch.setattr(F, "save_figure", capture)
    return F, seen


# ---------------------------------------------------------------------------- title suffix and bands
@pytest.mark.parametrize("seeds, profile, expected", [(1, "quick", "quick profile, 1 seed"),
                                                      (2, "paper", "paper profile, 2 seeds"),
                                                      (3, "quick", "quick profile, 3 seeds")])
def test_title_suffix_counts_distinct_seeds_singular_and_plural(seeds, profile, expected):
    runs = [fake_run(s, method=m) for m in ("a", "b") for s in range(seeds)]
    assert plotting.title_suffix(runs, profile) == expected
    with_band = plotting.title_suffix(runs, profile, band="std")
    assert with_band == (expected if seeds == 1 else expected + ", band: mean ± std")


def test_title_suffix_counts_a_config_seed_and_ignores_repeated_runs():
    runs = [fake_run(0, method="a", data_seed=d) for d in (0, 1, 2)] * 2
    assert plotting.title_suffix(runs, "quick", key="data_seed") == "quick profile, 3 seeds"
    assert plotting.title_suffix(runs, "quick") == "quick profile, 1 seed"


def test_band_only_with_more_than_one_seed():
    fig, axes = plotting.new_figure()
    ax = axes[0][0]
    plotting.band(ax, np.arange(4), np.ones((1, 4)), "k", "one seed")
    assert not ax.collections
    plotting.band(ax, np.arange(4), np.vstack([np.zeros(4), np.ones(4)]), "k", "two seeds", kind="range")
    assert len(ax.collections) == 1
    plotting.pyplot().close(fig)


@pytest.mark.parametrize("n_seeds", [1, 3])
def test_paper_figure_title_band_and_provenance(drawn, n_seeds, tmp_path, monkeypatch):
    monkeypatch.setenv("REPRO_FIGURES_DIR", str(tmp_path))
    F, seen = drawn
    paths = F.figure1(figure1_results(n_seeds), "quick")
    fig1 = seen["figure1"]
    assert fig1["title"].endswith(f"[quick profile, {n_seeds} seed{'s' if n_seeds > 1 else ''}"
                                  + (", band: mean ± std]" if n_seeds > 1 else "]"))
    if n_seeds == 1:
        assert fig1["bands"] == 0
        assert not [t for t in fig1["texts"] if "±" in t or "std" in t]
    else:
        assert fig1["bands"] == 4            # f and g, hard and soft
    record = json.loads((tmp_path / "fedsgm/figure1.json").read_text())
    assert record["claims"] and all(valid_claim("fedsgm", c) for c in record["claims"])
    assert "fedsgm.figure1" in record["claims"]
    assert record["runs"] and all(set(r) == {"hash", "seed", "config"} for r in record["runs"])   # no commit
    assert len(record["runs"]) == 2 * n_seeds
    assert any(p.suffix == ".png" for p in paths)


# ---------------------------------------------------------------------------- provenance
def test_a_figure_record_names_its_runs_and_no_commit(tmp_path, monkeypatch):
    """The record is committed: the runs' hashes name the code (each covers its sources), and nothing in it changes
    when only the commit does, so a rebuild leaves the tree clean."""
    monkeypatch.setenv("REPRO_FIGURES_DIR", str(tmp_path))
    fig, _ = plotting.new_figure()
    plotting.save_figure(fig, "toy", "f", plotting.run_provenance([fake_run(0)], "quick", "toy.x"),
                         claims=("toy.thm1",))
    text = (tmp_path / "toy/f.json").read_text()
    record = json.loads(text)
    assert record["claims"] == ["toy.thm1"] and record["experiment"] == "toy.x" and record["profile"] == "quick"
    assert set(record) == {"experiment", "profile", "claims", "runs", "craft_problems"} and record["runs"][0]["hash"] == fake_run(0).hash
    assert "a" * 40 not in text                          # the run's git_commit (fake_run's) is not copied


def test_dirty_means_the_source_differs_from_the_commit_not_the_rebuilt_artifacts(tmp_path, monkeypatch):
    """A rebuild rewrites figures, reports and notebooks in the checkout; only an edit of the suite's source makes
    the provenance of what is built afterwards "dirty"."""
    import subprocess

    from repro import checkout

    def git(*args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path, check=True,
                       capture_output=True)

    for name in ("bounds/a.py", "repro/b.py", "pyproject.toml", "figures/f.json", "reports/audit.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("0\n")
    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "c")
    monkeypatch.setattr(checkout, "_ROOT", tmp_path)
    assert checkout.state()["dirty"] is False
    (tmp_path / "figures/f.json").write_text("1\n")
    (tmp_path / "reports/audit.md").write_text("1\n")
    assert checkout.state()["dirty"] is False
    (tmp_path / "repro/new.py").write_text("0\n")                      # an untracked source file counts
    assert checkout.state()["dirty"] is True
    (tmp_path / "repro/new.py").unlink()
    (tmp_path / "repro/b.py").write_text("1\n")
    assert checkout.state()["dirty"] is True


def test_claims_of_another_paper_are_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("REPRO_FIGURES_DIR", str(tmp_path))
    fig, _ = plotting.new_figure()
    with pytest.raises(ValueError, match="fedsgm"):
        plotting.save_figure(fig, "fedsgm", "f", {}, claims=("ssca.thm1",))
    assert not (tmp_path / "fedsgm/f.json").exists()
    plotting.pyplot().close(fig)


# ---------------------------------------------------------------------------- every paper declares its claims
def _save_figure_calls(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == "save_figure"]


@pytest.mark.parametrize("paper", PAPERS)
def test_every_save_figure_call_passes_claims(paper):
    calls = _save_figure_calls(ROOT / f"repro/papers/{paper}/figures.py")
    assert calls
    for call in calls:
        claims = [k for k in call.keywords if k.arg == "claims"]
        assert claims and not (isinstance(claims[0].value, ast.Constant) and claims[0].value.value is None), \
            f"{paper}/figures.py line {call.lineno}: save_figure without claims"


@pytest.mark.parametrize("paper", PAPERS)
def test_declared_figure_claims_are_valid_ids(paper):
    assert paper in papers()
    module = importlib.import_module(f"repro.papers.{paper}.figures")
    assert module.FIGURE_CLAIMS
    for name, claims in module.FIGURE_CLAIMS.items():
        assert claims, name
        assert all(valid_claim(paper, c) for c in claims), (name, claims)


# ---------------------------------------------------------------------------- craft: what a reader trips over
def _axes(n=1):
    fig, axes = plotting.new_figure(ncols=n, nrows=1, width=3.0 * n, height=2.4)
    return fig, list(np.ravel(axes))


def test_a_clean_figure_has_no_craft_problem():
    fig, (ax,) = _axes()
    ax.plot([1, 10, 100], [1, 2, 3], label="a")
    ax.set_xscale("log")
    plotting.log_ticks(ax, "x")
    plotting.legend_right(ax)
    assert plotting.craft_problems(fig) == []


def test_overlapping_tick_labels_are_found():
    fig, (ax,) = _axes()
    ax.plot(range(12), range(12))
    ax.set_xticks(range(12), [f"label number {k}" for k in range(12)])
    assert any("x tick labels overlap" in p for p in plotting.craft_problems(fig))


def test_a_log_axis_with_fewer_than_three_labels_is_found():
    fig, (ax,) = _axes()
    ax.plot([2, 3, 4], [2.0, 2.5, 3.0])
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(matplotlib.ticker.FixedLocator([3.0]))
    ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    assert any("log y axis with 1 labels" in p for p in plotting.craft_problems(fig))


def test_a_legend_over_the_data_of_its_panel_or_of_another_is_found():
    fig, (ax,) = _axes()
    ax.plot(np.linspace(0, 1, 50), np.full(50, 0.5), label="flat line through the middle")
    ax.legend(loc="center")
    assert any("a legend covers" in p for p in plotting.craft_problems(fig))
    fig, (left, right) = _axes(2)
    grid = np.meshgrid(np.linspace(0, 1, 25), np.linspace(0, 1, 25))
    right.scatter(grid[0].ravel(), grid[1].ravel(), s=2)             # data everywhere in the right panel
    left.plot([0, 1], [0, 1], label="a figure legend drawn over the right panel")
    fig.legend(loc="center right")
    assert "a legend covers" in " ".join(plotting.craft_problems(fig))


def test_tidy_axes_mends_in_one_pass_each_what_craft_problems_finds_on_several_panels():
    fig, (left, right) = _axes(2)
    for ax, xs in ((left, [2, 3, 4]), (right, [0, 1e6, 2e6])):                 # two log axes with one label each
        ax.plot(xs, [2.0, 2.5, 3.0])
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(matplotlib.ticker.FixedLocator([3.0]))
        ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    right.xaxis.set_major_locator(matplotlib.ticker.MultipleLocator(5e4))     # 41 long numeric labels: overlap
    right.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    found = plotting.craft_problems(fig)
    assert any("log y axis with 1 labels" in p for p in found) and any("x tick labels overlap" in p for p in found)
    before = len(plotting._drawn_ticks(right.xaxis))
    draws, draw = [], fig.canvas.draw
    fig.canvas.draw = lambda: (draws.append(1), draw())
    plotting.tidy_axes(fig)
    assert len(draws) == 4        # once to measure, then once per pass that changed something: log, slant, thin
    assert plotting.craft_problems(fig, drawn=True) == []                      # left drawn in its final state
    assert min(len(plotting._drawn_ticks(ax.yaxis)) for ax in (left, right)) >= 3
    assert {label.get_rotation() for label in right.get_xticklabels()} == {45.0}
    assert len(plotting._drawn_ticks(right.xaxis)) <= (before + 1) // 2        # slanted, then thinned


@pytest.mark.parametrize("paper", PAPERS)
def test_the_committed_figures_have_no_craft_problem(paper):
    """Every figure's record lists what craft_problems found when it was drawn: nothing, for the committed ones."""
    records = sorted((ROOT / "figures" / paper).glob("*.json"))
    assert records
    found = {r.stem: json.loads(r.read_text(encoding="utf-8")).get("craft_problems") for r in records}
    assert {k: v for k, v in found.items() if v != []} == {}


def test_a_pep_series_keeps_its_colour_in_every_panel_and_no_two_share_one(tmp_path, monkeypatch):
    from repro import pep_figure
    monkeypatch.setenv("REPRO_FIGURES_DIR", str(tmp_path))

    def curve(claim, seed, points):
        meta = {"claim": claim, "quantity": "q", "x": "T", "points": [
            {"params": {"T": t, **p}, "bound": 2.0 * t, "certificate": {"value": 1.0 * t}}
            for t in (1, 2, 4) for p in points]}
        return SimpleNamespace(hash=f"h{seed}", spec=SimpleNamespace(seed=seed, config={}, experiment="toy.pep"),
                               meta={"metadata": meta})
    results = [curve("toy.a", 0, [{"H": 1, "path": "printed"}, {"H": 2, "path": "printed"}]),
               curve("toy.b", 1, [{"path": "printed"}, {"path": "compact"}]),
               curve("toy.c", 2, [{"H": 2, "path": "printed"}, {"H": 1, "path": "printed"}])]
    colours = {}
    monkeypatch.setattr(plotting, "save_figure", lambda fig, *a, **k: colours.update(
        {(ax.get_title(), line.get_label()): line.get_color() for ax in fig.axes for line in ax.get_lines()}))
    monkeypatch.setattr(plotting, "check_claims", lambda paper, claims: list(claims))
    pep_figure.figure(results, "toy", "quick")
    by_label = {}
    for (_, label), colour in colours.items():
        by_label.setdefault(label, set()).add(colour)
    assert all(len(c) == 1 for c in by_label.values()), by_label            # one colour per label, in every panel
    worst = {label: c.pop() for label, c in by_label.items() if label.startswith("certified")}
    assert len(worst) == 4 and len(set(worst.values())) == 4, worst          # four settings, four colours
