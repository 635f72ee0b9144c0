"""Import time of each paper's claims module, ``bounds.<paper>.claims``, in a fresh interpreter: what a notebook, the
audit and every test of a paper's bounds pay before their first claim. Target: under 2 s each (it was a timed test
before; the heavy libraries it guards against are checked, untimed, by
``tests/test_layout.py::test_the_claims_modules_load_no_heavy_library``).

Run from the project root:

    .venv/bin/python benchmarks/bench_imports.py              # ~15 s
    .venv/bin/python benchmarks/bench_imports.py --repeats 10

Each of ``--repeats`` fresh interpreters (``python -c``, the project root as working directory) times the one import
statement by wall clock and by process CPU time (``time.process_time``); interpreter start-up is not counted. Writes
``benchmarks/out/imports.json``. Exits with status 1 if a paper's best wall time is over the target.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from common import ROOT, load1, table, write_json  # noqa: E402  (benchmarks/common.py)

PAPERS = ("fedsgm", "pcfedavg", "fedclup", "ssca")
TARGET_SECONDS = 2.0
_PROBE = ("import json, time; w, c = time.perf_counter(), time.process_time(); import bounds.{paper}.claims; "
          "print(json.dumps([time.perf_counter() - w, time.process_time() - c]))")


def _one_import(paper: str) -> tuple[float, float]:
    """(wall s, CPU s) of ``import bounds.<paper>.claims`` in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", _PROBE.format(paper=paper)], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    wall, cpu = json.loads(out.stdout)
    return wall, cpu


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "out")
    args = p.parse_args(argv)
    before, results = load1(), {}
    for paper in PAPERS:
        walls, cpus = zip(*(_one_import(paper) for _ in range(args.repeats)))
        results[paper] = {"wall_seconds": list(walls), "cpu_seconds": list(cpus), "wall_seconds_min": min(walls),
                          "cpu_seconds_min": min(cpus), "met": min(walls) < TARGET_SECONDS}
    passed = all(r["met"] for r in results.values())
    payload = {"target_seconds": TARGET_SECONDS, "repeats": args.repeats, "results": results, "passed": passed,
               "loadavg_1min_before_after": [before, load1()]}
    path = write_json(args.out_dir, "imports", payload)
    table(f"import bounds.<paper>.claims, best of {args.repeats} fresh interpreters (target < {TARGET_SECONDS} s)",
          [(paper, r["wall_seconds_min"], r["cpu_seconds_min"], "yes" if r["met"] else "NO")
           for paper, r in results.items()], ("paper", "wall s", "CPU s", "met"))
    print(f"  -> {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
