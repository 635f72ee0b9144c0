"""Benchmarks of the FedSGM part of the suite (figures: benchmarks/README.md; their history: benchmarks/history.md).

Run from the project root:

    .venv/bin/python benchmarks/bench_fedsgm.py                 # everything, 1,000 instances
    .venv/bin/python benchmarks/bench_fedsgm.py --instances 100 # quicker
    .venv/bin/python benchmarks/bench_fedsgm.py --only scaling static

Sections (each writes ``benchmarks/out/<name>.json`` and prints a table):

figure1   wall time and peak memory (tracemalloc peak, getrusage maxrss) of the Figure-1
          computation: ``figure1_specs("quick")`` through ``repro.runner.run_all`` (forced, into a
          temporary results root, in-process). Falls back to a direct ``alg.run`` on a
          Neyman-Pearson problem if the run module cannot be imported (and says so).
checks    N bound-check instances: random instance -> ``solve`` -> ``alg.run`` ->
          ``repro.verify.check_claims(checks.check, ...)`` (the per-run claims and the theorem), with time per
          phase.
scaling   per-round cost of ``alg.run`` vs n_clients in {1, 10, 100, 1000} (d = 31, E = 5, Rand-K
          K = 9 and uncompressed) and the ratio n=1000 / n=10.
static    an ``ast`` check that ``repro/papers/fedsgm/algorithms/fedsgm.py`` has no Python loop over clients:
          the only ``for`` loops iterate over ``range(...)`` of an expression naming ``T`` or ``E``.
"""
from __future__ import annotations

import argparse
import ast
import gc
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path

import numpy as np

from common import ROOT, ast_names, maxrss_mib, run_sections, table  # noqa: E402  (benchmarks/common.py)

ALGORITHM_FILE = ROOT / "repro" / "papers" / "fedsgm" / "algorithms" / "fedsgm.py"
FAMILIES = ("piecewise_linear_1d", "max_affine", "huber_ball", "logistic_ball")


# ---------------------------------------------------------------------------- (i) Figure 1
def bench_figure1(args) -> dict:
    t0 = time.perf_counter()
    try:
        from repro.papers.fedsgm.runs.theorems import figure1_specs
        from repro.runner import run_all
        import_error = None
    except Exception as exc:  # noqa: BLE001 - report and fall back
        import_error = f"{type(exc).__name__}: {exc}"
    import_s = time.perf_counter() - t0

    if import_error is None:
        specs = figure1_specs("quick")

        def work():
            with tempfile.TemporaryDirectory() as root:
                return run_all(specs, force=True, results_root=root, progress=False)
        what = f"run_all(figure1_specs('quick')) = {len(specs)} runs, force=True, jobs=1, temporary results root"
    else:
        print(f"figure1: importing repro.papers.fedsgm.runs.theorems / repro.runner failed ({import_error}); "
              "measuring a direct alg.run on a Neyman-Pearson problem instead")
        from repro.papers.fedsgm.algorithms import fedsgm as alg
        from repro.papers.fedsgm.problems.generators import random_instance
        problem = random_instance("neyman_pearson", np.random.default_rng(0), n_clients=10, dim=31)
        specs = []

        def work():
            out = []
            for switching in ("hard", "soft"):
                for seed in range(9):
                    p = alg.FedSGMParams(T=100, E=5, eta=0.1, eps=0.1, switching=switching, beta=20.0, K=9)
                    out.append(alg.run(problem, p, np.random.default_rng(seed)))
            return out
        what = "fallback: 18 x alg.run(NeymanPearson random instance, n=10, d=31, T=100, E=5, K=9)"

    rss_before = maxrss_mib()
    walls = []
    for _ in range(args.repeats):
        gc.collect()
        t = time.perf_counter()
        results = work()
        walls.append(time.perf_counter() - t)
    rss_after = maxrss_mib()
    gc.collect()
    tracemalloc.start()
    t = time.perf_counter()
    work()
    traced_wall = time.perf_counter() - t
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    per_run = None
    if import_error is None:   # time spent inside run_figure1 itself (the runner's own record)
        per_run = [float(r.meta.get("wall_time_s", np.nan)) for r in results]
    payload = {
        "what": what, "import_error": import_error, "import_seconds": import_s, "n_runs": len(results),
        "repeats": args.repeats, "wall_seconds": walls, "wall_seconds_min": min(walls),
        "wall_seconds_median": float(np.median(walls)), "wall_seconds_under_tracemalloc": traced_wall,
        "tracemalloc_peak_mib": peak / 2**20, "maxrss_mib_before": rss_before, "maxrss_mib_after": rss_after,
        "per_run_function_seconds": per_run,
        "function_seconds_total": None if per_run is None else float(np.nansum(per_run)),
    }
    table("figure1: " + what, [
        ("import run module [s]", import_s),
        ("wall time, min over repeats [s]", min(walls)),
        ("wall time, median [s]", float(np.median(walls))),
        ("wall time per run [ms]", 1e3 * min(walls) / max(1, len(results))),
        ("of which inside the run function [s]",
         float("nan") if per_run is None else float(np.nansum(per_run))),
        ("tracemalloc peak [MiB]", peak / 2**20),
        ("maxrss before / after [MiB]", f"{rss_before:.1f} / {rss_after:.1f}"),
    ], ("quantity", "value"))
    return payload


# ---------------------------------------------------------------------------- (ii) bound checks
def bench_checks(args) -> dict:
    from bounds.fedsgm import claims as B
    from repro.papers.fedsgm.algorithms import fedsgm as alg
    from repro.papers.fedsgm.problems.common import NoSolutionError, SolverFailure
    from repro.papers.fedsgm.problems.generators import random_instance
    from repro.papers.fedsgm import checks as V

    # warm-up: sympy lambdify caches, cvxpy/solver imports
    _one_instance(0, args, B, alg, random_instance, V)
    phases = Counter()
    outcomes = Counter()
    failed_claims = Counter()
    skipped = Counter()
    per_family = Counter()
    t_all = time.perf_counter()
    for i in range(args.instances):
        try:
            t, res = _one_instance(i + 1, args, B, alg, random_instance, V)
        except (NoSolutionError, SolverFailure) as exc:
            skipped[type(exc).__name__] += 1
            continue
        phases.update(t)
        per_family[res["family"]] += 1
        for o in res["outcomes"]:
            outcomes["total"] += 1
            if o.inconclusive:
                outcomes["inconclusive"] += 1
            elif o.passed:
                outcomes["passed"] += 1
            else:
                outcomes["failed"] += 1
                failed_claims[f"{o.claim_id} [{o.relation}] K={res['K']} {res['switching']}"] += 1
    total = time.perf_counter() - t_all
    done = sum(per_family.values())
    payload = {
        "instances_requested": args.instances, "instances_done": done, "skipped": dict(skipped),
        "setting": {"families": FAMILIES, "n_clients": args.check_clients, "dim": args.check_dim,
                    "T": args.check_T, "E": args.check_E,
                    "cycle": "family x {hard: Theorem 1, soft: Theorem 2 (beta = 2/eps)} x {no compression, "
                             "Rand-K with K = max(1, d // 2)}; stated (eps, eta); record_directions=True"},
        "total_seconds": total, "phase_seconds": dict(phases),
        "phase_ms_per_instance": {k: 1e3 * v / max(1, done) for k, v in phases.items()},
        "per_family": dict(per_family), "outcomes": dict(outcomes), "failed_checks": dict(failed_claims),
        "maxrss_mib": maxrss_mib(),
    }
    rows = [(k, v, 1e3 * v / max(1, done)) for k, v in phases.items()]
    rows.append(("total (incl. bookkeeping)", total, 1e3 * total / max(1, done)))
    table(f"checks: {done} instances ({dict(skipped) or 'none skipped'})", rows,
          ("phase", "seconds", "ms / instance"))
    print(f"  outcomes: {dict(outcomes)}")
    for k, v in failed_claims.most_common(10):
        print(f"  failed: {v:5d} x {k}")
    return payload


def _one_instance(i, args, B, alg, random_instance, V):
    from repro.verify import check_claims
    family = FAMILIES[i % len(FAMILIES)]
    switching = "hard" if (i // len(FAMILIES)) % 2 == 0 else "soft"
    compressed = (i // (2 * len(FAMILIES))) % 2 == 1
    rng = np.random.default_rng(args.seed + i)
    times = {}
    t = time.perf_counter()
    dim = 1 if family == "piecewise_linear_1d" else args.check_dim
    problem = random_instance(family, rng, n_clients=args.check_clients, dim=dim)
    direction = rng.normal(size=problem.dim)
    w0 = 3.0 * direction / np.linalg.norm(direction)
    times["generate"] = time.perf_counter() - t
    t = time.perf_counter()
    instance = V.Instance.solved(problem, w0)
    times["solve"] = time.perf_counter() - t
    K = max(1, problem.dim // 2) if compressed else None
    claim = B.thm1 if switching == "hard" else B.thm2
    params = V.params_for(claim, instance, T=args.check_T, E=args.check_E, switching=switching, K=K, w0=w0)
    t = time.perf_counter()
    trace = alg.run(problem, params, rng)
    times["run"] = time.perf_counter() - t
    t = time.perf_counter()
    outcomes = check_claims(V.check, V.per_run_claims(switching) + (claim,), instance, trace)
    times["check"] = time.perf_counter() - t
    return times, {"family": family, "switching": switching, "K": K, "outcomes": outcomes}


# ---------------------------------------------------------------------------- (iii) scaling
def bench_scaling(args) -> dict:
    from repro.papers.fedsgm.algorithms import fedsgm as alg
    from repro.papers.fedsgm.problems.generators import random_instance

    rows, results = [], []
    for K in (9, None):
        for n in args.clients:
            problem = random_instance("logistic_ball", np.random.default_rng(n), n_clients=n, dim=31)
            params = alg.FedSGMParams(T=args.scaling_T, E=5, eta=0.05, eps=0.1, switching="soft",
                                      beta=20.0, K=K)
            alg.run(problem, alg.FedSGMParams(T=2, E=5, eta=0.05, eps=0.1, K=K), np.random.default_rng(0))
            best = np.inf
            for r in range(args.repeats):
                gc.collect()
                t = time.perf_counter()
                alg.run(problem, params, np.random.default_rng(r))
                best = min(best, time.perf_counter() - t)
            per_round = best / params.T
            results.append({"n_clients": n, "K": K, "T": params.T, "seconds_min": best,
                            "ms_per_round": 1e3 * per_round,
                            "us_per_client_round": 1e6 * per_round / n})
            rows.append((n, "none" if K is None else K, 1e3 * per_round, 1e6 * per_round / n))
    ratios = {}
    for K in (9, None):
        by_n = {r["n_clients"]: r["ms_per_round"] for r in results if r["K"] == K}
        if 10 in by_n and 1000 in by_n:
            ratios["none" if K is None else f"K={K}"] = by_n[1000] / by_n[10]
    payload = {"setting": {"family": "logistic_ball (6 samples per client)", "dim": 31, "E": 5,
                           "T": args.scaling_T, "switching": "soft", "repeats (min taken)": args.repeats},
               "results": results, "ratio_n1000_over_n10": ratios,
               "note": "a Python loop over clients would make the ratio ~100 (cost proportional to n with "
                       "a per-client interpreter overhead); vectorised code pays the fixed per-step "
                       "overhead once, so the ratio is far below 100 until arithmetic dominates.",
               "maxrss_mib": maxrss_mib()}
    table("scaling: alg.run per-round cost vs n_clients (d = 31, E = 5)", rows,
          ("n_clients", "K", "ms / round", "us / (client round)"))
    print(f"  ratio of ms/round, n=1000 over n=10: {ratios}")
    return payload


# ---------------------------------------------------------------------------- static check
CLIENT_NAMES = {"n", "n_clients", "clients", "j"}


def static_loop_check(path: Path = ALGORITHM_FILE) -> dict:
    """Every loop of the module (``for`` statements, comprehensions, ``while``) with a verdict.

    * a ``for`` statement is allowed only as ``for x in range(<expr>)`` whose arguments name
      ``T`` or ``E`` (rounds, local steps);
    * a comprehension is allowed only outside ``run`` and only if it does not mention a client
      count or index (``n``, ``n_clients``, ``clients``, ``j``): e.g. the loops over the
      dataclass fields in ``Trace.arrays``;
    * a ``while`` loop is never allowed.
    The check also requires that both ``range(T)`` and ``range(E)`` loops exist (a renamed
    variable would otherwise pass vacuously).
    """
    tree = ast.parse(path.read_text(), filename=str(path))
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node

    def enclosing_function(node):
        while node in parents:
            node = parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return node.name
        return "<module>"

    loops = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            it = node.iter
            func = enclosing_function(it)
            is_range = isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
            if isinstance(node, ast.comprehension):
                ok = func != "run" and not (ast_names(it) & CLIENT_NAMES)
                why = "comprehension outside run() over non-client data" if ok else \
                    "comprehension inside run() or over clients"
            else:
                names = set().union(set(), *(ast_names(a) for a in it.args)) if is_range else ast_names(it)
                ok = is_range and bool(names & {"T", "E"})
                why = "range over rounds (T) or local steps (E)" if ok else "not a range over T or E"
            loops.append({"line": it.lineno, "function": func, "kind": type(node).__name__,
                          "target": ast.unparse(node.target), "iter": ast.unparse(it), "allowed": ok,
                          "why": why})
        elif isinstance(node, ast.While):
            loops.append({"line": node.lineno, "function": enclosing_function(node), "kind": "While",
                          "target": "", "iter": ast.unparse(node.test), "allowed": False,
                          "why": "while loop"})
    for_ranges = {lp["iter"] for lp in loops if lp["kind"] == "For"}
    passed = all(lp["allowed"] for lp in loops) and {"range(T)", "range(E)"} <= for_ranges
    return {"file": str(path.relative_to(ROOT)), "loops": loops, "passed": passed,
            "rule": static_loop_check.__doc__.strip().splitlines()[0]}


def bench_static(args) -> dict:
    res = static_loop_check()
    table(f"static: loops in {res['file']} ({'PASS' if res['passed'] else 'FAIL'})",
          [(lp["line"], lp["function"], lp["kind"], lp["target"], lp["iter"],
            "yes" if lp["allowed"] else "NO", lp["why"])
           for lp in sorted(res["loops"], key=lambda lp: lp["line"] or 0)],
          ("line", "function", "kind", "target", "iterates over", "allowed", "why"))
    return res


# ---------------------------------------------------------------------------- main
SECTIONS = {"figure1": bench_figure1, "checks": bench_checks, "scaling": bench_scaling, "static": bench_static}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", nargs="+", choices=sorted(SECTIONS), default=list(SECTIONS),
                   help="sections to run (default: all)")
    p.add_argument("--instances", type=int, default=1000, help="bound-check instances (default 1000)")
    p.add_argument("--repeats", type=int, default=3, help="timing repeats, min/median reported (default 3)")
    p.add_argument("--clients", type=int, nargs="+", default=[1, 10, 100, 1000],
                   help="n_clients values of the scaling section")
    p.add_argument("--scaling-T", type=int, default=20, help="rounds per timed run in the scaling section")
    p.add_argument("--check-clients", type=int, default=3)
    p.add_argument("--check-dim", type=int, default=3)
    p.add_argument("--check-T", type=int, default=20)
    p.add_argument("--check-E", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "out")
    p.add_argument("--name-suffix", default="", help="appended to each JSON name (e.g. '_100')")
    args = p.parse_args(argv)
    if args.instances < 1 or args.repeats < 1:
        p.error("--instances and --repeats must be >= 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    return run_sections(SECTIONS, args.only, args, argv, suffix=args.name_suffix)


if __name__ == "__main__":
    sys.exit(main())
