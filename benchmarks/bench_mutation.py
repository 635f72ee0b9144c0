"""The suite's mutation score: planted faults (:data:`mutations.MUTATIONS`) in the bounds, the algorithms, the searches
and the deciding machinery, each applied alone to a scratch copy of the project, the tests named for it run there,
the copy restored. A fault is *caught* when those tests fail on it (pytest's exit 1) and pass without it.

Run from the project root:

    .venv/bin/python benchmarks/bench_mutation.py                     # every fault (~1 hour on 2 cores)
    .venv/bin/python benchmarks/bench_mutation.py --only fedsgm.lemma3_constant pcfedavg.projection_inside
    .venv/bin/python benchmarks/bench_mutation.py --list

The scratch copy holds the tracked files of the working tree (``git ls-files``) and is put first on ``PYTHONPATH``, so
the tests and every ``python -m repro`` they start import the mutated copy, never the working tree (checked before
the first fault). First the union of the named tests runs on the unmutated copy: a test that fails there would
"catch" every fault, so the benchmark stops (exit 1) instead. Then, per fault: a fault whose text is not found exactly
once stops the benchmark (exit 2: the table went stale). A fault of kind "bound constant" runs its ``computing`` tests
first (runs, searches, exact enumeration, performance estimation) and only if they pass its other tests (typed values,
statement-versus-proof derivations): ``caught_by`` says which ("its tests" for the other kinds). Writes ``benchmarks/out/mutation.json``: caught /
planted, per kind, and the bound-constant faults caught by computation. Exit 1 when a fault is missed.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, table, write_json  # noqa: E402  (benchmarks/common.py)
from mutations import MUTATIONS, Mutation  # noqa: E402

PYTEST = ["-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "--hypothesis-profile=ci"]
TIMEOUT_SECONDS = 1800


def scratch_copy(into: Path) -> Path:
    """The tracked files of the working tree, copied under ``into``."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


def _environment(copy: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(copy), os.environ.get("PYTHONPATH")])))
    env.setdefault("REPRO_DATA_DIR", str(ROOT.parent / "shared" / "data"))
    # no bytecode in the scratch copy: a mutation restored within a second, at the same size, must not run stale code
    return env | {"REPRO_OFFLINE": "1", "PYTHONDONTWRITEBYTECODE": "1", "REPRO_RESULTS_DIR": str(copy / "results"),
                  "REPRO_FIGURES_DIR": str(copy / "figures-out")}


def imports_the_copy(copy: Path) -> bool:
    """Do ``repro`` and ``bounds`` resolve inside ``copy`` for a process started as the tests start theirs?"""
    probe = "import bounds, repro; print(bounds.__file__); print(repro.__file__)"
    out = subprocess.run([sys.executable, "-c", probe], cwd=copy, env=_environment(copy), capture_output=True,
                         text=True).stdout.split()
    return len(out) == 2 and all(Path(p).resolve().is_relative_to(copy.resolve()) for p in out)


def run_tests(copy: Path, tests: tuple[str, ...]) -> int:
    """pytest's exit status for ``tests`` in ``copy`` (-1 on timeout)."""
    if not tests:
        return 0
    try:
        return subprocess.run([sys.executable, *PYTEST, *tests], cwd=copy, env=_environment(copy),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=TIMEOUT_SECONDS).returncode
    except subprocess.TimeoutExpired:
        return -1


def outcome(copy: Path, m: Mutation) -> dict:
    """Apply ``m`` to ``copy``, run its tests (computing ones first), restore the file; the outcome record."""
    path = copy / m.path
    original = path.read_bytes()
    text = original.decode()
    if text.count(m.old) != 1:
        print(f"error: mutation {m.name}: its text occurs {text.count(m.old)} times in {m.path} (allowed: exactly "
              f"once); update benchmarks/mutations/", file=sys.stderr)
        raise SystemExit(2)
    path.write_text(text.replace(m.old, m.new))
    start = time.perf_counter()
    try:
        statuses, caught_by = {}, None
        other = "typed value or derivation" if m.kind == "bound constant" else "its tests"
        for stage, tests in (("computation", m.computing), (other, m.tests)):
            statuses[stage] = run_tests(copy, tests)
            if statuses[stage] == 1:
                caught_by = stage
                break
    finally:
        path.write_bytes(original)
    return {"name": m.name, "kind": m.kind, "where": m.where, "path": m.path, "caught": caught_by is not None,
            "caught_by": caught_by, "pytest_status": statuses, "seconds": round(time.perf_counter() - start, 1)}


def score(records: list[dict]) -> dict:
    kinds = sorted({r["kind"] for r in records})
    constants = [r for r in records if r["kind"] == "bound constant"]
    return {"planted": len(records), "caught": sum(r["caught"] for r in records),
            "per_kind": {k: {"planted": sum(r["kind"] == k for r in records),
                             "caught": sum(r["caught"] for r in records if r["kind"] == k)} for k in kinds},
            "bound_constants_caught_by_computation": sum(r["caught_by"] == "computation" for r in constants),
            "bound_constants": len(constants), "missed": [r["name"] for r in records if not r["caught"]]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", nargs="+", metavar="NAME", help="these faults only (names: --list)")
    p.add_argument("--list", action="store_true", help="list the faults and exit")
    p.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "out")
    args = p.parse_args(argv)
    names = {m.name for m in MUTATIONS}
    if args.list:
        table("planted faults", [(m.name, m.kind, m.where) for m in MUTATIONS], ("name", "kind", "where"))
        return 0
    unknown = sorted(set(args.only or ()) - names)
    if unknown:
        print(f"error: --only {' '.join(unknown)}: no such fault (allowed: {', '.join(sorted(names))})", file=sys.stderr)
        return 2
    chosen = [m for m in MUTATIONS if not args.only or m.name in args.only]
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        copy = scratch_copy(Path(tmp))
        if not imports_the_copy(copy):
            print("error: the scratch copy's packages are not the ones a test process imports", file=sys.stderr)
            return 2
        union = tuple(dict.fromkeys(t for m in chosen for t in m.computing + m.tests))
        baseline = run_tests(copy, union)
        if baseline != 0:
            print(f"error: the named tests fail without any fault (pytest exit {baseline}): {' '.join(union)}",
                  file=sys.stderr)
            return 1
        records = []
        for m in chosen:
            records.append(outcome(copy, m))
            r = records[-1]
            print(f"  {m.name}: {'caught by ' + r['caught_by'] if r['caught'] else 'MISSED'} ({r['seconds']:.0f} s)",
                  flush=True)
    summary = score(records)
    table("planted faults", [(r["name"], r["kind"], r["caught_by"] or "MISSED") for r in records],
          ("fault", "kind", "caught by"))
    print(f"\ncaught {summary['caught']} / {summary['planted']}; bound constants caught by computation "
          f"{summary['bound_constants_caught_by_computation']} / {summary['bound_constants']}")
    if not args.only:
        write_json(args.out_dir, "mutation", {"score": summary, "faults": records})
    return 0 if not summary["missed"] else 1


if __name__ == "__main__":
    sys.exit(main())
