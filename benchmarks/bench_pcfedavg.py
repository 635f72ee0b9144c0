"""Benchmarks of the PC-FedAvg part of the suite (figures: benchmarks/README.md; their history: benchmarks/history.md).

Run from the project root:

    .venv/bin/python benchmarks/bench_pcfedavg.py                   # everything, MNIST and CIFAR-10
    .venv/bin/python benchmarks/bench_pcfedavg.py --datasets mnist  # quicker
    .venv/bin/python benchmarks/bench_pcfedavg.py --only static

Sections (each writes ``benchmarks/out/<name>.json`` and prints a table):

round      The headline: whole rounds of the Figure 1-3 runs, ``run_data`` of
           ``repro.papers.pcfedavg.runs.data`` with ``--run-rounds`` rounds (float32 features, as the
           experiments), evaluation of every round's model included; useful GFLOP/s against one numpy
           matmul of the stacked minibatch shape (B, p) @ (p, C) in the same dtype, measured in the same
           run (best of 10 calls), both with --blas-threads BLAS threads (default 1: a run in a worker of
           ``repro run`` gets one; with 2 threads the chunked round is slower, the big matmul faster). Then ONE round of Algorithm 1 (``repro.papers.pcfedavg.algorithms.pcfedavg.run``, path
           "printed", record "metrics", no ``evaluate`` callback) in the same setting: full training set,
           m = 4 Dirichlet(0.5) agents, H = 20 local steps on 10 % minibatches, Section 5's gamma, sigma
           and tau (l1 balls), rho_0 = 10, z_0 = 0: wall time (min and median over --repeats after one
           warm-up round), peak memory, the time per phase (one more, instrumented round). Building the
           agents' data is not timed.
baselines  one round of Penalized-FedAvg, -FedProx and -SCAFFOLD (``repro.papers.pcfedavg.algorithms.penalized``,
           Section 5's hyperparameters, same rho_0) and of PC-FedAvg on MNIST, measured the same way.
static     an ``ast`` check that ``repro/papers/pcfedavg/algorithms/pcfedavg.py`` and ``penalized.py`` have no
           Python loop over agents, blocks or replicates (see :func:`static_loop_check`).

FLOP count of one round. Per local step and agent i, the minibatch gradient of softmax regression
on b_i samples with p features and C classes is two matrix products: the logits
(b_i x p) @ (p x C) and the gradient (p x b_i) @ (b_i x C), b_i p C multiply-adds each, so
2 * 2 * b_i * p * C flops. A round is therefore

    F_useful = H * sum_i 4 b_i p C        (MNIST: 20 * 4 * 6002 * 784 * 10 = 3.76 GFLOP).

Not counted (taken as 0, but stated): the softmax itself (O(b_i C) exponentials per agent); the
O(m * m * n) elementwise work on the (m, m, n) cross-estimates (line 6's block average and line 8,
about 10 m^2 n flops per step, under 1 % of the matmul count on both data sets); and the l1
projection of the m own blocks (a sort of at most n entries per block, O(m n log n) comparisons).
These are memory-bound; their time shows up in the phase breakdown instead.

The implementation (``SoftmaxClients.minibatch_gradients``) computes only each agent's own products, chunk
by chunk, so it executes F_useful flops. F_useful is also counted at run time from the oracle's batch masks,
and the count must equal the analytic value (a mismatch is printed). A whole run adds the evaluation of the
global model of every round on every agent's full data, 2 N p C flops per round (N = sum_i N_i), done for
all rounds in one pass after the run.
Rates use the fastest round. Other jobs on a shared machine inflate wall times and also the
measured peaks, so the load average is recorded next to every timing.
"""
from __future__ import annotations

import argparse
import ast
import dataclasses
import gc
import os
import sys
import time
from pathlib import Path

import numpy as np

from common import (  # noqa: E402  (benchmarks/common.py)
    ROOT, ast_names, best_seconds, blas_info, call_name, maxrss_mib, Probe, probed, run_sections, table, time_calls,
    traced_peak)


os.environ.setdefault("REPRO_OFFLINE", "1")               # a benchmark never downloads: REPRO_DATA_DIR or the cache

ALGORITHM_FILES = (ROOT / "repro" / "papers" / "pcfedavg" / "algorithms" / "pcfedavg.py",
                   ROOT / "repro" / "papers" / "pcfedavg" / "algorithms" / "penalized.py")
BASELINES = ("fedavg", "fedprox", "scaffold")
SQUARE = 2000


# ---------------------------------------------------------------------------- helpers
def oracle_probes(local, sets) -> tuple[list[Probe], list[Probe]]:
    """(top-level probes, sub-probes of the oracle). The top-level ones never call each other,
    so their times add up; the rest of the round is the update and bookkeeping code."""
    p, C = local.p, local.n_classes
    top = [Probe("oracle: stochastic_gradients", local, "stochastic_gradients"),
           Probe("l1 projection: sets.project", sets, "project"),
           Probe("distances: sets.distance", sets, "distance")]
    sub = [Probe("  of which sample_batches", local, "sample_batches"),
           Probe("  of which minibatch_gradients", local, "minibatch_gradients",
                 flops=lambda Y, rows, mask: 4 * int(mask.sum()) * p * C)]
    return top, sub


def measure(work, repeats: int, local, sets) -> dict:
    """One warm-up call, ``repeats`` timed calls (wall and process CPU time, with the 1-minute
    load average before and after, since other jobs on the machine inflate wall times), one call
    under tracemalloc, one instrumented call (phases). ``work`` must do the same computation every
    time (fixed seed)."""
    work()
    timing = time_calls(work, repeats)
    peak, _ = traced_peak(work)
    top, sub = oracle_probes(local, sets)
    gc.collect()
    with probed(top + sub):
        t = time.perf_counter()
        work()
        total = time.perf_counter() - t
    phases = {pr.label: {"seconds": pr.seconds, "calls": pr.calls} for pr in [top[0], *sub, *top[1:]]}
    phases["rest: updates, means, bookkeeping"] = {"seconds": total - sum(pr.seconds for pr in top),
                                                   "calls": None}
    fastest = int(np.argmin(timing["wall_seconds"]))
    return timing | {"cpu_seconds_of_fastest": timing["cpu_seconds"][fastest], "tracemalloc_peak_mib": peak,
            "maxrss_mib": maxrss_mib(), "instrumented_seconds": total, "phases": phases,
            "counted_useful_flops": sub[-1].counted}


def phase_rows(meas: dict) -> list[tuple]:
    total = meas["instrumented_seconds"]
    return [(label, 1e3 * ph["seconds"], f"{100 * ph['seconds'] / total:.1f} %")
            for label, ph in meas["phases"].items()]


# ---------------------------------------------------------------------------- setting
def section5_clients(dataset: str):
    """The agents' data exactly as the Section-5 experiments build them (cached per process)."""
    from repro.papers.pcfedavg.runs.data import DEFAULTS, clients
    return clients(dataset, DEFAULTS["partition"], DEFAULTS["alpha"], DEFAULTS["partition_seed"],
                   DEFAULTS["preprocessing"], DEFAULTS["batch_fraction"], DEFAULTS["subsample"], DEFAULTS["dtype"])


def pcfedavg_round(dataset: str, seed: int):
    """(local clients, sets, setting dict, work) for one round of Algorithm 1."""
    from repro.papers.pcfedavg.algorithms import pcfedavg as alg
    from repro.constraints import ProductSet
    from repro.papers.pcfedavg.runs.data import DEFAULTS, HYPER, rho_schedule
    from repro.papers.pcfedavg.problems.personalized import PersonalizedProblem

    local = section5_clients(dataset)
    hyper = HYPER[dataset]
    sets = ProductSet.l1_balls(np.asarray(hyper["tau"]), local.n)
    problem = PersonalizedProblem(local, np.asarray(hyper["sigma"]), sets)
    rho = rho_schedule(DEFAULTS["rho_schedule"], 1)
    params = alg.PCFedAvgParams(gamma=hyper["gamma"], rounds=1, local_steps=DEFAULTS["local_steps"],
                                x0=np.zeros((local.m, local.n)), rho=rho, path="printed", record="metrics")

    def work():
        return alg.run(problem, params, np.random.default_rng(seed))
    setting = {"dataset": dataset, "m": local.m, "p": local.p, "C": local.n_classes, "n": local.n,
               "N_i": local.sizes.tolist(), "b_i": local.batch_sizes.tolist(),
               "local_steps": params.local_steps, "path": params.path, "record": params.record,
               "gamma": params.gamma, "sigma": hyper["sigma"], "tau": hyper["tau"], "rho": rho[0],
               "x0": "zero", "evaluate": None}
    return local, sets, setting, work


def useful_flops(local, steps: int) -> int:
    """The analytic count H * sum_i 4 b_i p C (module docstring)."""
    return steps * 4 * int(local.batch_sizes.sum()) * local.p * local.n_classes


# ---------------------------------------------------------------------------- matmul peaks
def matmul_peaks(local, rng: np.random.Generator) -> dict:
    """Matmul rates (GFLOP/s) in the features' dtype (best of 10 calls after a warm-up: these take
    milliseconds, and the best of many is robust to other jobs), and at a square size (best of 3).

    * ``stacked``: ONE product of the stacked minibatch shape, (B, p) @ (p, C), B = sum_i b_i: the reference
      of the headline ratio (the issue's definition);
    * ``per_agent``: for each agent, (b_i, p) @ (p, C) and the backward R^T X, (C, b_i) @ (b_i, p), as the
      oracle computes them (in chunks);
    * ``square``: (2000, 2000) @ (2000, 2000).
    """
    p, C, dtype = local.p, local.n_classes, local.dtype
    b = [int(v) for v in local.batch_sizes]

    def rand(*shape):
        return rng.random(shape, dtype=np.float64).astype(dtype)
    out = {}
    flops = seconds = 0.0
    for bi in b:
        X, W, R = rand(bi, p), rand(p, C), rand(bi, C)
        seconds += best_seconds(lambda: X @ W) + best_seconds(lambda: R.T @ X)
        flops += 4.0 * bi * p * C
    out["per_agent"] = {"shapes": [f"({bi}, {p}) @ ({p}, {C}) + ({C}, {bi}) @ ({bi}, {p})" for bi in b],
                        "seconds_per_step": seconds, "gflops": flops / seconds / 1e9}
    B = sum(b)
    X, W = rand(B, p), rand(p, C)
    seconds = best_seconds(lambda: X @ W)
    out["stacked"] = {"shapes": f"({B}, {p}) @ ({p}, {C})", "seconds": seconds,
                      "gflops": 2.0 * B * p * C / seconds / 1e9}
    A, D = rand(SQUARE, SQUARE), rand(SQUARE, SQUARE)
    seconds = best_seconds(lambda: A @ D, repeats=3)
    out["square"] = {"shapes": f"({SQUARE}, {SQUARE}) @ ({SQUARE}, {SQUARE})", "seconds": seconds,
                     "gflops": 2.0 * SQUARE**3 / seconds / 1e9}
    return {"dtype": str(dtype)} | out


def whole_rounds(dataset: str, rounds: int, seed: int) -> dict:
    """``run_data`` of PC-FedAvg with ``rounds`` rounds, evaluation included (best of 2 runs after a warm-up
    run of one round), and its useful flops: rounds H sum_i 4 b_i p C + (rounds + 1) 2 N p C."""
    from repro.papers.pcfedavg.runs import data as D

    local = section5_clients(dataset)
    config = dataclasses.replace(D._config(dataset, "pcfedavg", "quick"), rounds=rounds)
    D.run_data(dataclasses.replace(config, rounds=1), seed)
    walls = []
    for _ in range(2):
        gc.collect()
        t = time.perf_counter()
        D.run_data(config, seed)
        walls.append(time.perf_counter() - t)
    flops = useful_flops(local, rounds * config.local_steps) + (rounds + 1) * 2 * local.N * local.p * local.n_classes
    return {"rounds": rounds, "local_steps": config.local_steps, "wall_seconds": walls,
            "useful_flops": flops, "gflops": flops / min(walls) / 1e9, "dtype": str(local.dtype),
            "seconds_per_round": min(walls) / rounds}


# ---------------------------------------------------------------------------- (i) one round
def bench_round(args) -> dict:
    results = {}
    for dataset in args.datasets:
        t = time.perf_counter()
        local, sets, setting, work = pcfedavg_round(dataset, args.seed)
        build_s = time.perf_counter() - t
        whole = whole_rounds(dataset, args.run_rounds, args.seed)
        peaks = matmul_peaks(local, np.random.default_rng(args.seed))
        meas = measure(work, args.repeats, local, sets)
        steps = setting["local_steps"]
        useful = useful_flops(local, steps)
        wall = meas["wall_seconds_min"]
        ratio = whole["gflops"] / peaks["stacked"]["gflops"]
        results[dataset] = {
            "setting": setting | {"dtype": str(local.dtype)}, "build_seconds_not_timed": build_s, "whole_rounds": whole,
            "ratio_useful_vs_stacked_matmul": ratio, "target_ratio": 0.5, **meas,
            "flops": {"useful_analytic": useful, "useful_counted": meas["counted_useful_flops"]},
            "gflops_one_round_without_evaluation": useful / wall / 1e9, "matmul_peaks": peaks,
        }
        if meas["counted_useful_flops"] != useful:
            print(f"  WARNING: flops counted from the oracle's masks ({meas['counted_useful_flops']}) "
                  f"differ from the analytic count ({useful})")
        table(f"round: PC-FedAvg on {dataset} (m = {local.m}, p = {local.p}, n = {local.n}, H = {steps}, "
              f"B = {sum(setting['b_i'])}, {local.dtype}; data build {build_s:.1f} s, not timed)", [
                  (f"whole run of {args.run_rounds} rounds incl. evaluation, best of 2 [s]", min(whole["wall_seconds"])),
                  ("  useful GFLOP/s (minibatch products + evaluation)", whole["gflops"]),
                  ("matmul (B,p)@(p,C), same dtype [GFLOP/s]", peaks["stacked"]["gflops"]),
                  ("  RATIO useful / stacked matmul (target >= 50 %)", f"{100 * ratio:.0f} %"),
                  ("per-agent (b_i,p)@(p,C) + backward pairs [GFLOP/s]", peaks["per_agent"]["gflops"]),
                  (f"square {SQUARE}^2 [GFLOP/s]", peaks["square"]["gflops"]),
                  ("one round without evaluation, min / median [ms]",
                   f"{1e3 * wall:.1f} / {1e3 * meas['wall_seconds_median']:.1f}"),
                  ("load average before / after", "{:.2f} / {:.2f}".format(*meas["loadavg_1min_before_after"])),
                  ("tracemalloc peak [MiB]", meas["tracemalloc_peak_mib"]),
                  ("ru_maxrss after [MiB]", meas["maxrss_mib"]),
                  ("useful flops of a round (analytic = counted)", f"{useful / 1e9:.3f} G"
                   + ("" if meas["counted_useful_flops"] == useful else " (MISMATCH)")),
              ], ("quantity", "value"))
        table(f"round: phases on {dataset} (one instrumented round, "
              f"{1e3 * meas['instrumented_seconds']:.1f} ms)", phase_rows(meas),
              ("phase", "ms", "share"))
    return {"repeats": args.repeats, "seed": args.seed, "blas_threads": args.blas_threads, "blas": blas_info(),
            "results": results}


# ---------------------------------------------------------------------------- (ii) baselines
def bench_baselines(args) -> dict:
    from repro.papers.pcfedavg.algorithms import penalized

    dataset = "mnist"
    local, sets, setting, pc_work = pcfedavg_round(dataset, args.seed)
    rho = (setting["rho"],)
    problem = penalized.PenalizedProblem(local, sets)
    works = {"pcfedavg": (pc_work, None)}
    for method in BASELINES:
        params = penalized.paper_params(dataset, method, np.zeros(local.n), rounds=1,
                                        local_steps=setting["local_steps"], rho=rho)

        def work(params=params):
            return penalized.run(problem, params, np.random.default_rng(args.seed))
        works[method] = (work, params.describe())
    results, rows = {}, []
    for method, (work, described) in works.items():
        meas = measure(work, args.repeats, local, sets)
        wall = meas["wall_seconds_min"]
        oracle = meas["phases"]["oracle: stochastic_gradients"]["seconds"]
        results[method] = {"params": described or setting, **meas,
                           "useful_gflops": meas["counted_useful_flops"] / wall / 1e9}
        rows.append((method, 1e3 * wall, 1e3 * meas["wall_seconds_median"],
                     meas["tracemalloc_peak_mib"], f"{100 * oracle / meas['instrumented_seconds']:.0f} %",
                     meas["counted_useful_flops"] / 1e9, results[method]["useful_gflops"]))
    table(f"baselines: one round on {dataset} (H = {setting['local_steps']}, rho = {rho[0]:g}; "
          f"ru_maxrss {maxrss_mib():.0f} MiB; load average {os.getloadavg()[0]:.2f})", rows,
          ("method", "min ms", "median ms", "tracemalloc MiB", "oracle share", "useful GFLOP",
           "useful GFLOP/s"))
    return {"dataset": dataset, "repeats": args.repeats, "seed": args.seed, "results": results,
            "note": "SCAFFOLD samples 2 of 4 agents per round, so its oracle work depends on the seed"}


# ---------------------------------------------------------------------------- static check
ROUND_NAMES = {"rounds", "lengths", "R"}
STEP_NAMES = {"local_steps", "length", "H"}
#: Names whose iteration would be a Python loop over agents, blocks or replicates.
AGENT_NAMES = {"m", "agents", "agent", "all_agents", "S", "idx", "blocks", "sets", "sizes",
               "batch_sizes", "replicates", "participating", "sampled"}
#: Calls that hide a Python-level loop.
HIDDEN_LOOPS = {"map", "vectorize", "apply_along_axis", "frompyfunc", "apply_over_axes"}


def _classify(it: ast.AST, statement: bool) -> tuple[bool, str, str | None]:
    """(allowed, why, kind) of a loop over ``it``; kind is "round"/"step" for the main loops."""
    names = ast_names(it)
    if names & AGENT_NAMES:
        return False, f"names agents/blocks/replicates ({', '.join(sorted(names & AGENT_NAMES))})", None
    if call_name(it) in ("range", "enumerate"):
        arg_names = set().union(set(), *(ast_names(a) for a in it.args))
        if arg_names & ROUND_NAMES:
            return True, "range/enumerate over rounds", "round"
        if arg_names & STEP_NAMES:
            return True, "range/enumerate over local steps", "step"
        return False, "range/enumerate not over rounds or local steps", None
    if call_name(it) in ("items", "keys", "values"):
        return True, "over the keys of a metrics/record dict", None
    if statement:
        return False, "for statement not over range/enumerate of rounds or steps", None
    return True, "comprehension over non-agent data (parameters, field names)", None


def static_loop_check(path: Path) -> dict:
    """Every loop of the module (``for`` statements, comprehensions, ``while``, hidden loops).

    * a ``for`` statement must iterate over ``range``/``enumerate`` of an expression naming the
      rounds (``rounds``, ``lengths``, ``R``) or local steps (``local_steps``, ``length``, ``H``),
      or over ``.items()``/``.keys()``/``.values()`` of a dict (recorded metric names);
    * a comprehension over ``range``/``enumerate`` must likewise name rounds or steps; other
      comprehensions (over parameter tuples, field names) are allowed;
    * no loop may iterate over an expression naming agents, blocks or replicates (``m``,
      ``agents``, ``S``, ``idx``, ``sets``, ``replicates``, ...), e.g. ``range(problem.m)``;
    * ``while`` loops and calls of ``map``/``np.vectorize``/``np.apply_along_axis``/
      ``np.frompyfunc``/``np.apply_over_axes`` are not allowed;
    * ``run()`` must contain a round loop with a local-step loop nested in it, directly or in a module function
      that the round loop calls (``run`` hands each round to ``_dense_round`` or ``_factored_round``), so that a
      renamed variable cannot make the check pass vacuously.
    """
    tree = ast.parse(path.read_text(), filename=str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def enclosing_function(node):
        while node in parents:
            node = parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return node.name
        return "<module>"

    loops, main_loops, step_functions = [], {}, set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            statement = not isinstance(node, ast.comprehension)
            ok, why, kind = _classify(node.iter, statement)
            func = enclosing_function(node.iter)
            loops.append({"line": node.iter.lineno, "function": func,
                          "kind": "for" if statement else "comprehension",
                          "target": ast.unparse(node.target), "iter": ast.unparse(node.iter),
                          "allowed": ok, "why": why})
            if statement and kind == "round" and func == "run":
                main_loops.setdefault("round", []).append(node)
            elif statement and kind == "step":
                main_loops.setdefault("step", []).append(node)
                step_functions.add(func)
        elif isinstance(node, ast.While):
            loops.append({"line": node.lineno, "function": enclosing_function(node), "kind": "while",
                          "target": "", "iter": ast.unparse(node.test), "allowed": False,
                          "why": "while loop"})
        elif call_name(node) in HIDDEN_LOOPS:
            loops.append({"line": node.lineno, "function": enclosing_function(node), "kind": "call",
                          "target": "", "iter": ast.unparse(node), "allowed": False,
                          "why": "hidden Python loop"})
    rounds = main_loops.get("round", [])
    inside = any(step in ast.walk(rnd) for rnd in rounds for step in main_loops.get("step", []) if step is not rnd)
    calls_a_round = any(call_name(node) in step_functions - {"run"} for rnd in rounds for node in ast.walk(rnd)
                        if isinstance(node, ast.Call))
    nested = inside or calls_a_round
    passed = all(lp["allowed"] for lp in loops) and nested
    return {"file": str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path),
            "loops": sorted(loops, key=lambda lp: lp["line"]),
            "round_loop_with_nested_step_loop_in_run": nested, "passed": passed}


def bench_static(args) -> dict:
    files = [static_loop_check(path) for path in ALGORITHM_FILES]
    for res in files:
        nested = "yes" if res["round_loop_with_nested_step_loop_in_run"] else "NO"
        table(f"static: loops in {res['file']} ({'PASS' if res['passed'] else 'FAIL'}; "
              f"round loop with nested local-step loop in run(): {nested})",
              [(lp["line"], lp["function"], lp["kind"], lp["target"], lp["iter"],
                "yes" if lp["allowed"] else "NO", lp["why"]) for lp in res["loops"]],
              ("line", "function", "kind", "target", "iterates over", "allowed", "why"))
    return {"rule": " ".join(static_loop_check.__doc__.split()), "files": files,
            "passed": all(res["passed"] for res in files)}


# ---------------------------------------------------------------------------- main
SECTIONS = {"round": bench_round, "baselines": bench_baselines, "static": bench_static}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", nargs="+", choices=list(SECTIONS), default=list(SECTIONS),
                   help="sections to run (default: all)")
    p.add_argument("--repeats", type=int, default=3, help="timed rounds, min/median reported (default 3)")
    p.add_argument("--datasets", nargs="+", choices=["mnist", "cifar10"], default=["mnist", "cifar10"],
                   help="data sets of the round section (default: both)")
    p.add_argument("--seed", type=int, default=0, help="minibatch (and SCAFFOLD sampling) seed")
    p.add_argument("--run-rounds", type=int, default=5, help="rounds of the timed whole runs (default 5)")
    p.add_argument("--blas-threads", type=int, default=1,
                   help="BLAS threads (threadpoolctl) for the timed work and its matmul references alike; default 1, "
                        "what every run gets in a worker of `repro run` (repro.runner)")
    p.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "out")
    args = p.parse_args(argv)
    if args.repeats < 1 or (args.blas_threads is not None and args.blas_threads < 1):
        p.error("--repeats and --blas-threads must be >= 1")
    return args


def main(argv=None) -> int:
    from threadpoolctl import threadpool_limits

    args = parse_args(argv)
    return run_sections(SECTIONS, args.only, args, argv, prefix="pcfedavg_",
                        context=lambda name: threadpool_limits(args.blas_threads, user_api="blas"))


if __name__ == "__main__":
    sys.exit(main())
