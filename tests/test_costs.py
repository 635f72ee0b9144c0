"""repro.costs: the affine fit of wall time on work, and which measurement prices a run (the cache's fit within
the range it measured, the committed table beyond it, the cache extrapolated only without a table)."""
import json
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import pytest

from repro import costs
from repro.experiment import Config
from repro.runner import RunSpec

EXPERIMENTS = {"toy.exp": SimpleNamespace(work=lambda config: config["n"])}


@dataclass(frozen=True)
class ToyConfig(Config):
    n: int
    profile: str = "quick"
    family: str | None = None
    claim: str | None = None


def toy_run(config: ToyConfig, seed: int):
    """The run function of the toy RunSpecs below (costs never call it: they price it by its path)."""
    return {}, {}


TOY_RUN = f"{__name__}.toy_run"          # its function_path: what the cost tables and cached runs are keyed by


def _spec(n):
    return SimpleNamespace(experiment="toy.exp", function_path="toy.run", config={"n": n})


def test_the_fit_recovers_an_affine_cost_and_its_range():
    work = np.array([1.0, 2.0, 5.0, 10.0])
    fit = costs._fit(list(zip(work, 0.5 + 0.25 * work)))
    assert fit["fixed_seconds"] == pytest.approx(0.5) and fit["seconds_per_unit"] == pytest.approx(0.25)
    assert fit["max_work"] == 10.0 and fit["runs"] == 4


def test_the_fit_prices_the_total_of_many_small_runs_and_a_few_long_ones():
    """Where the work model misses part of the cost, the fit is judged by the total it predicts (what plan reports):
    ten short runs and two long ones of the same work range, the long ones costlier than their work says."""
    points = [(float(w), 0.2 + 0.01 * w) for w in range(1, 11)] + [(10.0, 3.0), (9.0, 2.5)]
    fit = costs._fit(points)
    predicted = sum(fit["fixed_seconds"] + fit["seconds_per_unit"] * w for w, _ in points)
    assert predicted == pytest.approx(sum(t for _, t in points), rel=0.15)     # 8.8 s for 8.05 (relative errors: 3.2)


def _model(tmp_path, cached, table):
    model = costs.CostModel(tmp_path, EXPERIMENTS)
    model.cached, model.table = cached, table
    return model


def test_a_run_beyond_the_cached_range_is_priced_by_the_table(tmp_path):
    cached = {"toy.exp|toy.run": {"fixed_seconds": 1.0, "seconds_per_unit": 0.0, "runs": 3, "max_work": 10.0}}
    table = {"toy.exp|toy.run": {"fixed_seconds": 0.0, "seconds_per_unit": 2.0, "runs": 9}}
    model = _model(tmp_path, cached, table)
    assert model.estimate(_spec(10)) == 1.0 and model.rate(_spec(10))[1] == "cache (3 runs)"
    assert model.estimate(_spec(1000)) == 2000.0 and model.rate(_spec(1000))[1] == "measured_costs.json"


def test_without_a_table_the_cache_extrapolates_and_says_so(tmp_path):
    cached = {"toy.exp|toy.run": {"fixed_seconds": 0.0, "seconds_per_unit": 1.0, "runs": 2, "max_work": 10.0}}
    model = _model(tmp_path, cached, {})
    assert model.estimate(_spec(100)) == 100.0
    assert model.rate(_spec(100))[1] == "cache (2 runs, extrapolated)"
    assert _model(tmp_path, {}, {}).estimate(_spec(1)) is None


def test_the_lazy_estimate_builds_its_model_once_and_only_when_asked(tmp_path, monkeypatch):
    built = []

    class Model:
        def __init__(self, root, experiments):
            built.append((root, experiments))

        def estimator(self):
            return lambda spec: 3.0 * spec.config["n"]

    monkeypatch.setattr(costs, "CostModel", Model)
    estimate = costs.lazy_estimate(tmp_path, EXPERIMENTS)
    assert built == []                                       # a batch with nothing to compute never reads the cache
    assert estimate(_spec(2)) == 6.0 and estimate(_spec(5)) == 15.0
    assert built == [(tmp_path, EXPERIMENTS)]


def test_the_audits_own_batch_is_ordered_and_timed_by_the_cost_model(tmp_path, monkeypatch):
    """``repro.report.experiment_results`` (figures, audit, findings, notebooks) passes the same estimate as ``run``:
    the runs it computes are ordered by critical path and its bars have an ETA."""
    from repro import report, runner

    seen = {}

    def run_all(specs, **kwargs):
        seen.update(kwargs)
        return []                                           # nothing computed: the grouping sees no results

    monkeypatch.setenv("REPRO_RESULTS_DIR", str(tmp_path))
    monkeypatch.setattr(runner, "run_all", run_all)
    monkeypatch.setattr(costs, "lazy_estimate", lambda root, experiments: ("estimate", root, tuple(experiments)))
    report.experiment_results(["fedsgm.figure1"], "quick")
    assert seen["estimate"] == ("estimate", tmp_path, ("fedsgm.figure1",))


def test_a_calibration_replaces_the_measured_rates_and_keeps_the_others(tmp_path, monkeypatch):
    """A calibration over one experiment's runs rewrites that experiment's rate and keeps every other committed one."""
    table = tmp_path / "measured_costs.json"
    kept = {"fixed_seconds": 0.0, "seconds_per_unit": 3.0, "runs": 4, "max_work": 8.0}
    table.write_text(json.dumps({"rates": {"other.exp|other.run": kept, "toy.exp|toy.run": kept}}))
    monkeypatch.setattr(costs, "TABLE", table)
    measured = {"toy.exp|toy.run": {"fixed_seconds": 0.5, "seconds_per_unit": 0.25, "runs": 2, "max_work": 10.0}}
    monkeypatch.setattr(costs, "measured_rates", lambda root, experiments: measured)
    costs.calibrate(tmp_path, "paper")
    rates = costs.committed_rates()
    assert rates["toy.exp|toy.run"] == measured["toy.exp|toy.run"] and rates["other.exp|other.run"] == kept


def _profiled(n, profile):
    return SimpleNamespace(experiment="toy.exp", function_path="toy.run", config={"n": n, "profile": profile})


def test_a_run_is_priced_by_its_own_profiles_rate_before_the_joint_one(tmp_path):
    """Runs whose configs name a profile get the fit over that profile's runs alone; other runs, the joint fit."""
    joint = {"fixed_seconds": 0.0, "seconds_per_unit": 1.0, "runs": 4, "max_work": 100.0}
    paper = {"fixed_seconds": 0.0, "seconds_per_unit": 3.0, "runs": 2, "max_work": 100.0}
    model = _model(tmp_path, {}, {"toy.exp|toy.run": joint, "toy.exp|toy.run|paper": paper})
    assert model.estimate(_profiled(10, "paper")) == 30.0
    assert model.estimate(_profiled(10, "quick")) == 10.0 and model.estimate(_spec(10)) == 10.0


def test_measured_rates_fit_each_profile_apart_and_all_runs_together(tmp_path):
    (tmp_path / "toy").mkdir()
    runs = [("quick", 1, 1.0), ("quick", 2, 2.0), ("paper", 10, 30.0), ("paper", 20, 60.0)]
    for i, (profile, n, seconds) in enumerate(runs):
        meta = {"experiment": "toy.exp", "function": "toy.run", "config": {"n": n, "profile": profile}, "seed": i,
                "wall_time_s": seconds}
        (tmp_path / "toy" / f"{i}.json").write_text(json.dumps(meta))
    rates = costs.measured_rates(tmp_path, EXPERIMENTS)
    assert rates["toy.exp|toy.run|quick"]["seconds_per_unit"] == pytest.approx(1.0)
    assert rates["toy.exp|toy.run|paper"]["seconds_per_unit"] == pytest.approx(3.0)
    assert rates["toy.exp|toy.run"]["runs"] == 4
    model = costs.CostModel(tmp_path, EXPERIMENTS)
    assert model.estimate(_profiled(15, "paper")) == pytest.approx(45.0)
    assert model.rate(_profiled(15, "paper"))[1] == "cache (2 runs)"


def test_calibration_runs_spread_over_the_work_of_each_group():
    experiments = {"toy.exp": SimpleNamespace(work=lambda config: config["n"])}
    specs = [RunSpec("toy.exp", {"n": n}, 0, toy_run) for n in range(1, 11)]
    picked = [s.config["n"] for s in costs.calibration_runs(specs, experiments, 4)]
    assert picked == [10, 7, 4, 1]                                 # the largest, the smallest, evenly between
    assert len(costs.calibration_runs(specs[:2], experiments, 4)) == 2


def test_a_run_of_a_family_is_priced_by_the_runs_of_its_family(tmp_path):
    """Equal work (one search's evaluations), very different times: each family's runs price it; a family without a
    measurement falls back on the profile's fit over every family."""
    (tmp_path / "toy").mkdir()
    runs = [("short", 2.0, "paper"), ("short", 4.0, "paper"), ("long", 300.0, "paper"), ("long", 500.0, "paper"),
            ("short", 0.1, "quick")]
    for i, (family, seconds, profile) in enumerate(runs):
        meta = {"experiment": "toy.exp", "function": TOY_RUN, "seed": i, "wall_time_s": seconds,
                "config": {"n": 10, "profile": profile, "family": family, "claim": "c"}}
        (tmp_path / "toy" / f"{i}.json").write_text(json.dumps(meta))
    model = costs.CostModel(tmp_path, EXPERIMENTS)

    def spec(family, claim="c"):
        return RunSpec("toy.exp", {"n": 10, "profile": "paper", "family": family, "claim": claim}, 0, toy_run)
    assert model.estimate(spec("short")) == pytest.approx(3.0)
    assert model.estimate(spec("long")) == pytest.approx(400.0)
    assert model.estimate(spec("other")) == pytest.approx(201.5)     # the paper runs' fit, not the joint one (161.22)
    assert spec("long").function_path == TOY_RUN
    assert costs.rate_keys("toy.exp", TOY_RUN, spec("long").config) == [
        f"toy.exp|{TOY_RUN}|paper|long", f"toy.exp|{TOY_RUN}|paper", f"toy.exp|{TOY_RUN}"]
    # an instance family of a theorem grid (no claim searched) is priced by the work model, not per family
    assert costs.rate_keys("toy.exp", TOY_RUN, {"n": 10, "profile": "paper", "family": "long"}) == [
        f"toy.exp|{TOY_RUN}|paper", f"toy.exp|{TOY_RUN}"]


def test_calibration_runs_measure_every_family():
    experiments = {"toy.exp": SimpleNamespace(work=lambda config: config["n"])}
    specs = [RunSpec("toy.exp", {"n": n, "profile": "paper", "family": family, "claim": "c"}, 0, toy_run)
             for family in ("a", "b", "c") for n in range(1, 6)]
    picked = [(s.config["family"], s.config["n"]) for s in costs.calibration_runs(specs, experiments, 4)]
    assert picked == [("a", 5), ("a", 1), ("b", 5), ("b", 1), ("c", 5), ("c", 1)]
    one_each = [(s.config["family"], s.config["n"]) for s in costs.calibration_runs(specs, experiments, 3)]
    assert one_each == [("a", 3), ("b", 3), ("c", 3)]                # one run of a family: its middle one


def test_a_first_call_in_a_process_is_left_out_of_the_fit_where_warm_runs_exist(tmp_path):
    (tmp_path / "toy").mkdir()
    runs = [(10, 9.0, True), (10, 1.0, False), (20, 2.0, False), (5, 30.0, True)]
    for i, (n, seconds, first) in enumerate(runs):
        meta = {"experiment": "toy.exp", "function": "toy.run", "config": {"n": n}, "seed": i, "wall_time_s": seconds,
                "first_in_process": first}
        (tmp_path / "toy" / f"{i}.json").write_text(json.dumps(meta))
    fit = costs.measured_rates(tmp_path, EXPERIMENTS)["toy.exp|toy.run"]
    assert fit["runs"] == 2 and fit["seconds_per_unit"] == pytest.approx(0.1)
    assert costs._warm([(1.0, 5.0, True)]) == [(1.0, 5.0)]          # only first calls: keep them


def test_profile_cost_counts_a_run_that_two_experiments_list_once(tmp_path):
    """``plan`` and ``benchmarks/summary.py`` price a profile with ``profile_cost``: SSCA's Figure 4 lists runs of
    Figures 2 and 3, and Figure 3's curves need the initial-point runs Figure 2's need; each counts once, under the
    first experiment that lists it."""
    from repro.registry import get
    from repro.runner import _with_needs

    plan = {name: get(name).specs("quick") for name in ("ssca.figure2", "ssca.figure3", "ssca.figure4")}
    rows, unknown = costs.profile_cost(plan, tmp_path)
    distinct = {s._canonical for specs in plan.values() for s in _with_needs(specs)}
    listed = sum(len(_with_needs(specs)) for specs in plan.values())
    assert sum(row["runs"] for row in rows) == len(distinct) < listed
    seen, first = set(), []
    for specs in plan.values():
        keys = {s._canonical for s in _with_needs(specs)}
        first.append(len(keys - seen))
        seen |= keys
    assert [row["runs"] for row in rows] == first and first[1] < len(_with_needs(plan["ssca.figure3"]))
    assert unknown == [] and all(row["cached"] == 0 and row["seconds"] > 0 for row in rows)
