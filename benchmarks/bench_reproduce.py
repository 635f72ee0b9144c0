"""The whole rebuild, as a new user runs it: ``make reproduce`` on a fresh clone, then again, then after an edit.

Run from the project root (the data are read offline from ``REPRO_DATA_DIR``, which must be set):

    REPRO_DATA_DIR=../shared/data .venv/bin/python benchmarks/bench_reproduce.py          # ~30 min on 2 cores
    .venv/bin/python benchmarks/bench_reproduce.py --help

Steps, each timed as a whole process (wall seconds; ``/usr/bin/time -v`` gives the peak RSS when it exists):

1. ``git clone`` of the current commit into a temporary folder (uncommitted changes are NOT included: commit
   first);
2. ``make venv`` in the clone: the installation (not part of the target);
3. ``make reproduce`` with an empty cache: every run of the quick profile, figures, audit, notebooks (the
   target: <= 10 minutes on 2 cores);
4. ``make reproduce`` again: nothing may be recomputed (target: < 30 s);
5. an edit of a plotting file (a comment appended to ``repro/plotting.py``), then ``python -m repro status``:
   every run must still be cached (no stale or missing run), and ``make reproduce`` once more (it redraws
   figures and reruns the report steps, and computes no run);
6. ``make test`` in the clone, as CI runs it (``.ci/run``; target: <= 5 minutes).

Writes ``benchmarks/out/reproduce.json``; exits with status 1 if step 4 recomputed a run or step 5 found a run that
is not cached.
"""
from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, table, write_json  # noqa: E402  (benchmarks/common.py)


def timed(cmd: list[str], cwd: Path, env: dict, log: Path) -> dict:
    """Run ``cmd`` (under /usr/bin/time -v when available), its output written to ``log``; the runs each
    experiment computed, from ``repro run`` 's summary lines."""
    wrapper = ["/usr/bin/time", "-v"] if Path("/usr/bin/time").exists() else []
    start = time.perf_counter()
    with open(log, "w") as fh:
        proc = subprocess.run(wrapper + cmd, cwd=cwd, env=env, stdout=fh, stderr=subprocess.STDOUT)
    wall = time.perf_counter() - start
    text = log.read_text()
    rss = re.findall(r"Maximum resident set size \(kbytes\): (\d+)", text)
    computed = [int(c) for c in re.findall(r": \d+ runs \((\d+) computed", text)]
    return {"command": " ".join(cmd), "wall_seconds": wall, "exit_status": proc.returncode,
            "peak_rss_mib": int(rss[-1]) / 1024 if rss and wrapper else None, "runs_computed": sum(computed),
            "log": log.name}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--jobs", type=int, default=2, help="JOBS of make reproduce (default 2)")
    p.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    p.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "out")
    args = p.parse_args(argv)
    if not os.environ.get("REPRO_DATA_DIR"):
        print("error: REPRO_DATA_DIR is not set: point it at the folder holding mnist/ and cifar10/ "
              "(e.g. REPRO_DATA_DIR=../shared/data)", file=sys.stderr)
        return 2
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                                capture_output=True, text=True).stdout.strip())
    work = Path(tempfile.mkdtemp(prefix="fedbounds-reproduce-"))
    clone = work / "clone"
    env = {k: v for k, v in os.environ.items() if k not in ("REPRO_RESULTS_DIR", "VIRTUAL_ENV")}
    env |= {"REPRO_OFFLINE": "1", "REPRO_DATA_DIR": str(Path(os.environ["REPRO_DATA_DIR"]).resolve())}
    make = ["make", f"JOBS={args.jobs}"]
    steps = {}
    steps["clone"] = timed(["git", "clone", "--quiet", str(ROOT), str(clone)], work, env, work / "clone.log")
    steps["install"] = timed(make + ["venv"], clone, env, work / "install.log")
    steps["reproduce_empty_cache"] = timed(make + ["reproduce"], clone, env, work / "reproduce_empty_cache.log")
    steps["reproduce_again"] = timed(make + ["reproduce"], clone, env, work / "reproduce_again.log")
    with open(clone / "repro" / "plotting.py", "a") as fh:
        fh.write("# an edit of a plotting file (bench_reproduce.py)\n")
    status = subprocess.run([str(clone / ".venv" / "bin" / "python"), "-m", "repro", "status"], cwd=clone, env=env,
                            capture_output=True, text=True)
    not_cached = [line for line in status.stdout.splitlines() if "stale" in line or "missing" in line]
    steps["reproduce_after_plotting_edit"] = timed(make + ["reproduce"], clone, env,
                                                   work / "reproduce_after_plotting_edit.log")
    steps["make_test"] = timed(["bash", ".ci/run"], clone, env, work / "make_test.log")
    payload = {
        "commit": commit, "uncommitted_changes_not_measured": dirty, "jobs": args.jobs,
        "machine": {"cpus": os.cpu_count(), "machine": platform.machine(), "python": platform.python_version()},
        "steps": steps,
        "status_after_plotting_edit": status.stdout, "runs_not_cached_after_plotting_edit": not_cached,
        "targets": {"reproduce_empty_cache_seconds": 600, "reproduce_again_seconds": 30, "make_test_seconds": 300},
        "logs": str(work) if args.keep else None,
    }
    path = write_json(args.out_dir, "reproduce", payload)
    table(f"reproduce: commit {commit[:10]}{' (uncommitted changes NOT measured)' if dirty else ''}, "
          f"{os.cpu_count()} CPUs, JOBS={args.jobs}",
          [(name, f"{s['wall_seconds']:.0f}", s["exit_status"], s["peak_rss_mib"] and f"{s['peak_rss_mib']:.0f}",
            s["runs_computed"]) for name, s in steps.items()]
          + [("runs not cached after the plotting edit (repro status)", len(not_cached), "", "", "")],
          ("step", "wall s", "exit", "peak RSS MiB", "runs computed"))
    print(f"  -> {path}")
    if args.keep:
        print(f"  clone and step logs kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    failed = (any(s["exit_status"] for s in steps.values()) or not_cached
              or steps["reproduce_again"]["runs_computed"] or steps["reproduce_after_plotting_edit"]["runs_computed"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
