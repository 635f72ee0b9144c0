"""``benchmarks/out/summary.json``: the headline figure of every benchmark, one record each, with its target.

Run after the other benchmarks (``make bench`` runs them in order, then this):

    .venv/bin/python benchmarks/summary.py

Each record has ``name``, ``value``, ``unit``, ``reference`` (the figure it is compared with, where there is one),
``ratio`` (value / reference, or reference / value for times against a slower reference: the field ``ratio_is``
says which), ``target`` (the issue's target for the ratio or the value) and ``source`` (the JSON it was read from).
A benchmark that has not been run gives ``value: null`` and says which command measures it. The paper profile's
cost is computed here, from the committed measured costs (``python -m repro plan --profile paper`` prints the same
estimate with its breakdown).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _load(name: str) -> dict | None:
    path = OUT / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def _record(name, value, unit, reference=None, ratio_is=None, target=None, source=None, how=None) -> dict:
    ratio = None
    if value is not None and reference:
        ratio = value / reference if ratio_is == "value / reference" else reference / value
    return {"name": name, "value": value, "unit": unit, "reference": reference, "ratio": ratio, "ratio_is": ratio_is,
            "target": target, "source": source, "measured_by": how}


def _pcfedavg() -> list:
    data, how = _load("pcfedavg_round"), "benchmarks/bench_pcfedavg.py --only round"
    out = []
    for dataset in ("mnist", "cifar10"):
        r = (data or {}).get("results", {}).get(dataset)
        out.append(_record(f"pcfedavg_{dataset}_useful_gflops_vs_stacked_matmul",
                           r and r["whole_rounds"]["gflops"], "GFLOP/s", r and r["matmul_peaks"]["stacked"]["gflops"],
                           "value / reference", ">= 0.5", "pcfedavg_round.json", how))
    return out


def _fedclup() -> list:
    data, how = _load("fedclup_figure4"), "benchmarks/bench_fedclup.py --only figure4"
    return [_record(f"fedclup_figure4_authors_scale_one_data_seed_{jobs}_job{'s' if jobs > 1 else ''}",
                    data and data[f"jobs{jobs}"]["wall_seconds"], "s", data and data["authors_reference_seconds"],
                    "reference / value", ">= 20 (i.e. <= 22 s)" if jobs == 2 else None, "fedclup_figure4.json", how)
            for jobs in (1, 2)]


def _paper_profile() -> dict:
    from repro import costs
    from repro.registry import registry

    plan = {name: exp.specs("paper") for name, exp in registry().items()}
    rows, unknown = costs.profile_cost(plan, Path("/nonexistent-results-folder"))   # the committed measurements only
    seconds = sum(row["seconds"] for row in rows)
    record = _record("paper_profile_core_hours", seconds / 3600, "core-hours", 8.0, "value / reference",
                     "<= 1 (4 h on 2 cores)", "repro/measured_costs.json", "python -m repro plan --profile paper")
    record["experiments_without_measurement"] = sorted(set(unknown))
    return record


def _reproduce() -> list:
    data, how = _load("reproduce"), "benchmarks/bench_reproduce.py"
    steps = (data or {}).get("steps", {})

    def wall(step):
        return steps[step]["wall_seconds"] if step in steps else None

    records = [_record("make_reproduce_quick_empty_cache_seconds", wall("reproduce_empty_cache"), "s", 600,
                       "value / reference", "<= 1", "reproduce.json", how),
               _record("make_reproduce_again_seconds", wall("reproduce_again"), "s", 30, "value / reference", "< 1",
                       "reproduce.json", how),
               _record("make_test_seconds", wall("make_test"), "s", 300, "value / reference", "<= 1",
                       "reproduce.json", how)]
    for record, step in zip(records, ("reproduce_empty_cache", "reproduce_again", "make_test")):
        record["exit_status"] = steps.get(step, {}).get("exit_status")     # a time of a failed step is no result
    return records


def _runner() -> list:
    data, how = _load("runner"), "benchmarks/bench_runner.py"
    return [_record(f"{kind}_speedup_1_to_2_workers", data and data["speedup_1_to_2_workers"][kind], "x", 2.0,
                    "value / reference", None, "runner.json", how) for kind in ("pool", "dask")]


def _mutation() -> list:
    data, how = _load("mutation"), "benchmarks/bench_mutation.py"
    score = (data or {}).get("score", {})
    planted, constants = score.get("planted"), score.get("bound_constants")
    return [_record("mutation_score_caught_of_planted", planted and score["caught"] / planted, "fraction", 1.0,
                    "value / reference", "1 (every planted fault caught)", "mutation.json", how),
            _record("bound_constant_faults_caught_by_computation", constants and
                    score["bound_constants_caught_by_computation"] / constants, "fraction", 1.0, "value / reference",
                    "1", "mutation.json", how)]


def main() -> int:
    records = _pcfedavg() + _fedclup() + [_paper_profile()] + _reproduce() + _runner() + _mutation()
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "summary.json"
    path.write_text(json.dumps(records, indent=2) + "\n")
    width = max(len(r["name"]) for r in records)
    for r in records:
        value = "not measured" if r["value"] is None else f"{r['value']:.4g} {r['unit']}"
        ratio = "" if r["ratio"] is None else f"  ratio {r['ratio']:.3g} ({r['ratio_is']}; target {r['target']})"
        failed = f"  (the step FAILED: exit {r['exit_status']})" if r.get("exit_status") not in (None, 0) else ""
        print(f"{r['name']:{width}s}  {value}{ratio}{failed}")
    print(f"  -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
