"""The runner's backends on one machine: the speed-up from 1 to 2 workers with the local process pool and with a
local dask cluster, on the same experiment, and that all four give bit-identical results.

Run from the project root:

    .venv/bin/python benchmarks/bench_runner.py                                # fedclup.figure4, ~5 min on 2 cores
    .venv/bin/python benchmarks/bench_runner.py --experiment fedsgm.montecarlo   # quicker

For each backend (pool with jobs 1 and 2; ``distributed.LocalCluster`` with 1 and 2 worker processes of one thread
each, started before the clock starts) the experiment's quick-profile specs go through
``repro.runner.run_all(force=True, results_root=<tmpdir>, progress=False)``; the wall time covers worker start-up
(pool) or task submission (dask), the runs and the writes. Writes ``benchmarks/out/runner.json``. Exits with status
1 if two backends disagree on any array.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from common import ROOT, table, write_json  # noqa: E402  (benchmarks/common.py)


def _run(specs, **backend) -> tuple[float, list]:
    from repro.runner import run_all

    with tempfile.TemporaryDirectory() as root:
        start = time.perf_counter()
        results = run_all(specs, force=True, results_root=root, progress=False, **backend)
        return time.perf_counter() - start, results


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--experiment", default="fedclup.figure4")
    p.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "out")
    args = p.parse_args(argv)
    from distributed import LocalCluster

    from repro.registry import get

    specs = get(args.experiment).specs("quick")
    walls, outputs = {}, {}
    for jobs in (1, 2):
        walls[f"pool, {jobs} job(s)"], outputs[f"pool{jobs}"] = _run(specs, jobs=jobs)
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            walls[f"dask, {workers} worker(s)"], outputs[f"dask{workers}"] = _run(specs, scheduler=cluster.scheduler_address)
    reference = outputs["pool1"]
    identical = all(np.array_equal(a.arrays[k], b.arrays[k]) and a.arrays[k].tobytes() == b.arrays[k].tobytes()
                    for out in outputs.values() for a, b in zip(out, reference) for k in b.arrays)
    speedup = {"pool": walls["pool, 1 job(s)"] / walls["pool, 2 job(s)"],
               "dask": walls["dask, 1 worker(s)"] / walls["dask, 2 worker(s)"]}
    payload = {"experiment": args.experiment, "runs": len(specs), "wall_seconds": walls,
               "speedup_1_to_2_workers": speedup, "bit_identical_across_backends": identical}
    path = write_json(args.out_dir, "runner", payload)
    table(f"runner: {args.experiment} ({len(specs)} specs), quick profile, force=True",
          [(k, v) for k, v in walls.items()] + [("speed-up 1 -> 2, pool", speedup["pool"]),
                                                 ("speed-up 1 -> 2, dask", speedup["dask"]),
                                                 ("bit-identical across the four", identical)], ("backend", "wall s"))
    print(f"  -> {path}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
