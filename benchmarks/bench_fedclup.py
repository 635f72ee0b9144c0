"""Benchmarks of the FedCLUP part of the suite (figures: benchmarks/README.md; their history: benchmarks/history.md).

Run from the project root:

    .venv/bin/python benchmarks/bench_fedclup.py                     # everything (~7 min on 2 CPUs)
    .venv/bin/python benchmarks/bench_fedclup.py --only round static
    .venv/bin/python benchmarks/bench_fedclup.py --only figure4 --figure4-seed 2

Sections (each writes ``benchmarks/out/fedclup_<name>.json`` and prints a table):

figure4   the synthetic Figure-4 work at the authors' scale for ONE data seed (m = 10, n = 200, d = 10, C = 2,
          K = 150; 10 values of R; FedCLUP at three lambdas and GlobalTrain, 50 rounds; LocalTrain 500 rounds):
          the batch specs of ``figure4_specs("quick")`` for data seed 1 (3 batches: 30 FedCLUP runs, 10
          GlobalTrain runs, 10 LocalTrain runs; since 2026-12-02 a batch trains each distinct run once, and the
          data do not depend on R, so these are 3 + 1 + 1 trainings) through ``repro.runner.run_all(force=True,
          results_root=<tmpdir>)`` with jobs = 1 and with jobs = 2 (data built inside the timed call). The
          reference is the authors' public simulation code on this machine for the same work, ~445 s, from
          its measured per-run times (4.6 s per 50-round FedCLUP run, 4.0 s per GlobalTrain run, 26.8 s per
          500-round LocalTrain run; measured once on an idle machine and recorded in the issue tracker; the
          code is not part of this project, so this script does not rerun it).
round     the per-round cost of ``run_fedclup`` (lambda = 0.25, R = 2.0, n = 200, d = 10, C = 2,
          K = 150, server "average_all", eta = 1/(L + lambda) with the data's L, Algorithm 1 = full
          local gradients) at m = 1000 clients with sample_rate 0.1 (Figure 6) and 1.0, and at
          m = 1, 10 and 100 with full participation (scaling; m = 1 gives the fixed cost of a step).
          Min and median over --repeats of one T = 3 run, divided by 3 (building the data is not
          timed), tracemalloc peak of one more T = 3 run, the time per phase of one instrumented
          T = 1 run, and the best time of the step's two batched matmuls alone (the "matmul floor").
sigmoid   the logistic function on the logit differences of one LocalTrain step of Figure 4's batches (10 runs x
          10 clients x n = 200 samples): ``scipy.special.expit`` against 1 / (1 + exp(-u)) with numpy's exp
          into a new array and in place (what ``StackedClients`` uses), best of 200 calls each, and the
          largest relative difference.
static    an ``ast`` check that ``repro/papers/fedclup/algorithms/fedclup.py`` has no Python loop over clients
          (see :func:`static_loop_check`), plus a self-test: mutated copies of the module that do loop
          over clients must be rejected.

FLOP count. Per local step and participating client the full gradient of the softmax loss is two
matrix products, the logits (n x d) @ (d x C) and the gradient (d x n) @ (n x C), n d C multiply-adds
each, so 4 n d C flops (16,000 at n = 200, d = 10, C = 2). A round is K |S_t| 4 n d C flops
(m = 1000, full participation: 2.4 GFLOP). Not counted (taken as 0): the softmax (O(n C) exponentials
per client), the proximal update (13) and the server mean (O(d C) per client), the fancy-index gather
of the sampled clients' data. Their time shows up in the phase table instead.
"""
from __future__ import annotations

import argparse
import ast
import gc
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from common import (  # noqa: E402  (benchmarks/common.py)
    ROOT, ast_names, best_seconds, blas_info, call_name, maxrss_mib, Probe, probed, run_sections, table, time_calls,
    traced_peak)


ALGORITHM_FILE = ROOT / "repro" / "papers" / "fedclup" / "algorithms" / "fedclup.py"
#: The setting of the synthetic experiments (Figures 2-4; Figure 6 changes m and the sample rate).
N, D, C = 200, 10, 2
K = 150
ROUND_LAMBDA, ROUND_R = 0.25, 2.0
#: (m, sample_rate). m = 1 is the fixed cost of a local step: a Python loop over clients would pay at least
#: that once per client and step.
ROUND_CASES = ((1, 1.0), (10, 1.0), (100, 1.0), (1000, 1.0), (1000, 0.1))


# ---------------------------------------------------------------------------- helpers
def build(m: int, R: float, data_seed: int = 1):
    """(clients, L_paper): the synthetic data exactly as ``runs.logistic`` builds them (features
    scaled per client, softmax StackedClients, L = the paper's formula on the scaled data)."""
    from repro.papers.fedclup.problems import synthetic as SYN
    data = SYN.generate(m, N, D, C, R, data_seed)
    X, _ = SYN.scale_features(data["X"])
    return SYN.clients(data, scaled=True), SYN.smoothness_constants(X)["L_paper"]


def fedclup_params(lam: float, L: float, rounds: int, w0: np.ndarray, sample_rate: float = 1.0):
    from repro.papers.fedclup.algorithms import fedclup as alg
    return alg.FedCLUPParams(lam=lam, gamma=1 / lam + 1 / L, eta=1 / (L + lam), local_steps=K,
                             rounds=rounds, sample_rate=sample_rate, server="average_all", w_g0=w0)


def step_flops(clients_per_step: int) -> int:
    """4 n d C flops per participating client and local step (module docstring)."""
    return 4 * N * D * C * clients_per_step


@contextmanager
def instrumented(clients):
    """Probes (``common.Probe``) on the oracle ``clients.gradients`` and its parts: ``_data`` (the fancy-index
    gather of the sampled clients' X, y and one-hot labels), ``_gradients`` and, inside it for C = 2,
    ``_binary_gradients`` (the two batched products and the sigmoid), on ``StackedClients`` itself. Yields
    ``{name: probe}``; the class's functions are put back afterwards."""
    cls = type(clients)          # on the class: a round's sampled clients are a subset, a new instance
    probes = [Probe(name, cls, name) for name in ("gradients", "_data", "_gradients", "_binary_gradients")]
    with probed(probes):
        yield {probe.label: probe for probe in probes}


def phase_table(stats: dict, total: float, rounds: int) -> dict:
    """ms per round of each phase (the sub-phases are nested in the oracle)."""
    g, dat, grad, binary = (stats[k].seconds for k in ("gradients", "_data", "_gradients", "_binary_gradients"))
    phases = {
        "oracle clients.gradients (one call per local step)": g,
        "  of which _data: gather X[S], y[S], onehot[S]": dat,
        "  of which _gradients": grad,
        "    of which _binary_gradients: 2 batched matmuls and the sigmoid (C = 2)": binary,
        "    of which the rest: ridge term, scaling (difference)": grad - binary,
        "  of which checks (_select, _check_models; difference)": g - dat - grad,
        "rest: update (13), server mean, finiteness checks, trace": total - g,
    }
    return {label: {"ms_per_round": 1e3 * s / rounds, "share": s / total} for label, s in phases.items()}


def matmul_floor(k: int, rng: np.random.Generator) -> dict:
    """Best-of-5 time of the two batched products one local step runs for k clients,
    (k, n, d) @ (k, d, C) and (k, d, n) @ (k, n, C) (the transpose of a C-ordered (k, n, d) array, as
    in ``StackedClients._gradients``), and the rate."""
    X, W, S = rng.random((k, N, D)), rng.random((k, D, C)), rng.random((k, N, C))
    seconds = best_seconds(lambda: np.matmul(X, W), 5) + best_seconds(lambda: np.matmul(X.transpose(0, 2, 1), S), 5)
    return {"shapes": f"({k}, {N}, {D}) @ ({k}, {D}, {C}) + ({k}, {D}, {N}) @ ({k}, {N}, {C})",
            "seconds_per_step": seconds, "gflops": step_flops(k) / seconds / 1e9}


# ---------------------------------------------------------------------------- (i) Figure 4
#: The authors' public simulation code on this machine, seconds per run (module docstring).
AUTHORS_SECONDS = {"fedclup": 4.6, "globaltrain": 4.0, "localtrain": 26.8}


def bench_figure4(args) -> dict:
    from repro.batches import member_configs
    from repro.papers.fedclup.runs import logistic as FL
    from repro.runner import run_all

    seed = args.figure4_seed
    specs = [s for s in FL.figure4_specs("quick") if member_configs(s.config)[0]["data_seed"] == seed]
    members = [c for s in specs for c in member_configs(s.config)]
    reference = sum(AUTHORS_SECONDS[c["method"]] for c in members)
    out = {"data_seed": seed, "batches": len(specs), "runs": len(members), "authors_reference_seconds": reference}
    rows = []
    for jobs in (1, 2):
        FL._problem.cache_clear()
        gc.collect()
        with tempfile.TemporaryDirectory() as root:
            t = time.perf_counter()
            results = run_all(specs, jobs=jobs, force=True, results_root=root, progress=False)
            wall = time.perf_counter() - t
        per_batch = {f"{i}: {member_configs(r.spec.config)[0]['method']} x {len(member_configs(r.spec.config))}":
                     r.meta["wall_time_s"] for i, r in enumerate(results)}
        out[f"jobs{jobs}"] = {"wall_seconds": wall, "speedup_vs_authors": reference / wall, "per_batch_seconds": per_batch}
        rows.append((jobs, wall, reference / wall, ", ".join(f"{k}: {v:.1f} s" for k, v in per_batch.items())))
    table(f"figure4: the authors'-scale Figure 4 work for data seed {seed} ({len(members)} runs in {len(specs)} "
          f"batches) against the authors' code (~{reference:.0f} s)", rows,
          ("jobs", "wall s", "x authors' code", "per batch (one core each)"))
    return out


# ---------------------------------------------------------------------------- (ii) per round
def bench_round(args) -> dict:
    from repro.papers.fedclup.algorithms import fedclup as alg
    from repro.papers.fedclup.problems.synthetic import initial_model

    T = args.round_T
    w0 = initial_model(D, C, seed=1)
    results, rows, phase_cols = {}, [], {}
    rng = np.random.default_rng(args.seed)
    for m, rate in ROUND_CASES:
        t = time.perf_counter()
        clients, L = build(m, ROUND_R, data_seed=1)
        build_s = time.perf_counter() - t
        count = alg.sampled_count(m, rate)

        def run(rounds, clients=clients, L=L, rate=rate):
            return alg.run_fedclup(clients, fedclup_params(ROUND_LAMBDA, L, rounds, w0, rate),
                                   np.random.default_rng(args.seed))
        run(1)                                                            # warm-up
        meas = time_calls(lambda: run(T), args.repeats)
        peak, _ = traced_peak(lambda: run(T))
        gc.collect()
        with instrumented(clients) as stats:
            t = time.perf_counter()
            run(1)
            total = time.perf_counter() - t
        floor = matmul_floor(count, rng)
        per_round = meas["wall_seconds_min"] / T
        flops = K * step_flops(count)
        key = f"m={m}, sample_rate={rate:g}"
        results[key] = {
            "m": m, "sample_rate": rate, "clients_per_round": count, "L_paper": L, "lam": ROUND_LAMBDA,
            "eta": 1 / (L + ROUND_LAMBDA), "T": T, "build_seconds_not_timed": build_s, **meas,
            "ms_per_round_min": 1e3 * per_round, "ms_per_round_median": 1e3 * meas["wall_seconds_median"] / T,
            "tracemalloc_peak_mib": peak, "maxrss_mib": maxrss_mib(),
            "flops_per_round": flops, "gflops": flops / per_round / 1e9,
            "us_per_client_step": 1e6 * per_round / (K * count),
            "oracle_calls_per_round": stats["gradients"].calls,
            "instrumented_round_seconds": total, "phases": phase_table(stats, total, 1),
            "matmul_floor": floor | {"ms_per_round": 1e3 * K * floor["seconds_per_step"]},
        }
        r = results[key]
        rows.append((m, f"{rate:.1f}", count, f"{r['ms_per_round_min']:.1f} / {r['ms_per_round_median']:.1f}",
                     r["us_per_client_step"], peak, flops / 1e9, r["gflops"], r["matmul_floor"]["ms_per_round"],
                     r["oracle_calls_per_round"], "{:.2f} / {:.2f}".format(*meas["loadavg_1min_before_after"])))
        phase_cols[key] = r["phases"]
    full = {m: results[f"m={m}, sample_rate=1"]["ms_per_round_min"] for m, rate in ROUND_CASES if rate == 1.0}
    ratio = full[1000] / full[10]
    table(f"round: run_fedclup per round (n = {N}, d = {D}, C = {C}, K = {K}, lambda = {ROUND_LAMBDA}, "
          f"R = {ROUND_R}, server average_all; min / median of {args.repeats} T = {T} runs / {T})", rows,
          ("m", "rate", "|S_t|", "ms/round min / med", "us per client-step", "tracemalloc MiB", "GFLOP/round",
           "GFLOP/s", "matmul floor ms/round", "oracle calls/round", "load before / after"))
    labels = list(next(iter(phase_cols.values())))
    table("round: phases of one instrumented round, ms (share)",
          [(label, *(f"{v[label]['ms_per_round']:.1f} ({100 * v[label]['share']:.0f} %)" for v in phase_cols.values()))
           for label in labels], ("phase", *phase_cols))
    loop_estimate = 1000 * full[1]
    print("  ms/round at full participation: " + ", ".join(f"m={m} {v:.2f}" for m, v in full.items())
          + f"; ratio m=1000 / m=10 = {ratio:.0f}x. The work is linear in m, so the ratio alone does not show "
          f"vectorisation; the oracle calls per round (K = {K} at every m) and the static section do. A Python loop "
          f"over clients would cost at least 1000 x the m = 1 round = {loop_estimate / 1e3:.1f} s per round at m = 1000.")
    return {"repeats": args.repeats, "T": T, "seed": args.seed, "blas": blas_info(),
            "setting": {"n": N, "d": D, "C": C, "K": K, "lam": ROUND_LAMBDA, "R": ROUND_R, "data_seed": 1,
                        "server": "average_all", "batch": None, "gamma": "1/lam + 1/L (unused by average_all)",
                        "eta": "1/(L_paper + lam)"},
            "results": results, "ms_per_round_full_participation": full, "ratio_m1000_over_m10": ratio,
            "per_client_loop_lower_bound_ms_per_round_m1000": loop_estimate}


# ---------------------------------------------------------------------------- (iii) static check
ROUND_NAMES = {"T", "rounds"}
STEP_NAMES = {"steps", "local_steps", "K", "local_rounds", "inner_steps"}
#: Names whose appearance in a loop's iterable would make it a loop over clients.
CLIENT_NAMES = {"m", "S", "clients", "client", "idx", "sampled", "count", "local", "local_models", "stored",
                "upload", "start", "shape", "size", "len", "n_clients"}
#: Names of the run axis of a batch (``run_batch``): one parameter set and one RNG stream per run. A loop over
#: them costs Python per run, not per client, and is what keeps every member bit-identical to its single run.
RUN_NAMES = {"rngs", "params", "_SHARED"}
#: Calls that hide a Python-level loop.
HIDDEN_LOOPS = {"map", "vectorize", "apply_along_axis", "frompyfunc", "apply_over_axes", "fromiter"}
#: Runners that must go through ``run_batch`` (whose ``_run`` has the round loop); the methods' client rounds
#: must use the local-step loop (``gradient_steps``).
RUNNERS = ("run_fedclup", "run_local_train", "run_global_train")
METHOD_BUILDERS = ("_fedclup", "_local_train", "_global_train")


def _classify(it: ast.AST, statement: bool) -> tuple[bool, str, str | None]:
    """(allowed, why, kind) of a loop over ``it``; kind is "round"/"step" for range loops."""
    names = ast_names(it)
    if names & CLIENT_NAMES:
        return False, f"names clients ({', '.join(sorted(names & CLIENT_NAMES))})", None
    if names & RUN_NAMES:
        return True, "over the runs of a batch (their parameters, RNG streams or shared keys)", None
    if call_name(it) == "range":
        arg_names = set().union(set(), *(ast_names(a) for a in it.args))
        if arg_names & ROUND_NAMES:
            return True, "range over rounds", "round"
        if arg_names & STEP_NAMES:
            return True, "range over local steps / local rounds / inner steps", "step"
        return False, "range not over rounds or local steps", None
    if statement:
        return False, "for statement not over range(rounds or steps)", None
    if call_name(it) == "enumerate":
        return False, "comprehension over enumerate(...)", None
    return True, "comprehension over non-client data", None


def static_loop_check(source: str, filename: str = "<module>") -> dict:
    """Every loop of the module: ``for`` statements, comprehensions, ``while``, hidden loops.

    * a ``for`` statement must iterate over ``range(...)`` of an expression naming rounds (``T``,
      ``rounds``) or local steps (``steps``, ``local_steps``, ``K``, ``local_rounds``, ``inner_steps``);
    * a comprehension over ``range`` must likewise name rounds or steps; other comprehensions are
      allowed unless they name clients;
    * no loop may iterate over an expression naming clients (``m``, ``S``, ``clients``, ``idx``,
      ``count``, ``local``, ``shape``, ``len``, ...), e.g. ``range(clients.m)`` or ``for i in S``;
    * ``while`` loops and ``map``/``np.vectorize``/``np.apply_along_axis``/``np.frompyfunc``/
      ``np.apply_over_axes``/``np.fromiter`` calls are not allowed;
    * a loop over the run axis of a batch (``rngs``, ``params``, ``_SHARED``) is allowed: Python per run;
    * not vacuous: ``_run`` must contain a round loop, ``gradient_steps`` a step loop, each of
      ``run_fedclup``, ``run_local_train`` and ``run_global_train`` must call ``run_batch``, which calls
      ``_run``, and the client rounds of FedCLUP, LocalTrain and GlobalTrain must call ``gradient_steps``.
    """
    tree = ast.parse(source, filename=filename)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}

    def enclosing(node) -> str:
        names = []
        while node in parents:
            node = parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.append(node.name)
        return ".".join(reversed(names)) or "<module>"

    loops, kinds = [], defaultdict(set)
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            statement = not isinstance(node, ast.comprehension)
            ok, why, kind = _classify(node.iter, statement)
            func = enclosing(node.iter)
            loops.append({"line": node.iter.lineno, "function": func, "kind": "for" if statement else "comprehension",
                          "target": ast.unparse(node.target), "iter": ast.unparse(node.iter),
                          "allowed": ok, "why": why})
            if statement and ok and kind:
                kinds[func.split(".")[0]].add(kind)
        elif isinstance(node, ast.While):
            loops.append({"line": node.lineno, "function": enclosing(node), "kind": "while", "target": "",
                          "iter": ast.unparse(node.test), "allowed": False, "why": "while loop"})
        elif call_name(node) in HIDDEN_LOOPS:
            loops.append({"line": node.lineno, "function": enclosing(node), "kind": "call", "target": "",
                          "iter": ast.unparse(node), "allowed": False, "why": "hidden Python loop"})

    def calls(func: str) -> set[str]:
        return {call_name(n) for n in ast.walk(functions[func])} if func in functions else set()
    structure = {"_run has a round loop": "round" in kinds.get("_run", set()),
                 "gradient_steps has a local-step loop": "step" in kinds.get("gradient_steps", set())}
    structure["run_batch calls _run"] = "_run" in calls("run_batch")
    for runner in RUNNERS:
        structure[f"{runner} calls run_batch"] = "run_batch" in calls(runner)
    for builder in METHOD_BUILDERS:
        structure[f"{builder} calls gradient_steps"] = "gradient_steps" in calls(builder)
    passed = all(lp["allowed"] for lp in loops) and all(structure.values())
    return {"file": filename, "loops": sorted(loops, key=lambda lp: lp["line"]), "structure": structure,
            "passed": passed}


#: Mutations of the module that loop over clients (or hide the step loop); each must be rejected.
#: (name, text to replace or None to append, replacement / appended text).
MUTANTS = (
    ("for i in S (appended function)", None, "\n\ndef _mutant(W, S):\n    for i in S:\n        W[i] = 0\n"),
    ("comprehension over range(clients.m)", None,
     "\n\ndef _mutant(clients, W):\n    return [clients.gradients(W[i:i + 1], [i]) for i in range(clients.m)]\n"),
    ("while loop", None, "\n\ndef _mutant(W):\n    i = 0\n    while i < 3:\n        i += 1\n"),
    ("np.vectorize", None, "\n\ndef _mutant(f, W):\n    return np.vectorize(f)(W)\n"),
    ("round loop over range(m)", "for t in range(T):", "for t in range(m):"),
    ("step loop replaced by for _ in (1,)", "for _ in range(steps):", "for _ in (1,):"),
    ("step loop over range(len(W))", "for _ in range(steps):", "for _ in range(len(W)):"),
)


def bench_static(args) -> dict:
    source = ALGORITHM_FILE.read_text()
    name = str(ALGORITHM_FILE.relative_to(ROOT))
    res = static_loop_check(source, name)
    table(f"static: loops in {name} ({'PASS' if res['passed'] else 'FAIL'})",
          [(lp["line"], lp["function"], lp["kind"], lp["target"], lp["iter"], "yes" if lp["allowed"] else "NO",
            lp["why"]) for lp in res["loops"]],
          ("line", "function", "kind", "target", "iterates over", "allowed", "why"))
    table("static: structure (not vacuous)", [(k, "yes" if v else "NO") for k, v in res["structure"].items()],
          ("requirement", "holds"))
    mutants = []
    for label, old, new in MUTANTS:
        if old is not None and old not in source:
            mutants.append({"mutant": label, "applicable": False, "rejected": None})
            continue
        text = source + new if old is None else source.replace(old, new, 1)
        mutants.append({"mutant": label, "applicable": True, "rejected": not static_loop_check(text)["passed"]})
    table("static: self-test on mutated copies of the module (each must be rejected)",
          [(mu["mutant"], "n/a (text not found)" if not mu["applicable"] else "yes" if mu["rejected"] else "NO")
           for mu in mutants], ("mutant", "rejected"))
    self_test = all(mu["rejected"] for mu in mutants if mu["applicable"])
    return {"rule": " ".join(static_loop_check.__doc__.split()), **res, "mutants": mutants,
            "self_test_passed": self_test, "passed": res["passed"] and self_test}


# ---------------------------------------------------------------------------- sigmoid
def bench_sigmoid(args) -> dict:
    from scipy.special import expit

    u = np.random.default_rng(args.seed).normal(scale=5.0, size=(10 * 10, N))

    from repro.special import logistic

    def new_array_sigmoid():                # the exp into a fresh array: what repro.special avoids
        with np.errstate(over="ignore"):
            r = np.exp(np.negative(u))
        r += 1.0
        return np.reciprocal(r, out=r)

    seconds = {"scipy expit": best_seconds(lambda: expit(u), 200),
               "numpy 1/(1+exp(-u)), new array": best_seconds(new_array_sigmoid, 200),
               "numpy 1/(1+exp(-u)), in place": best_seconds(lambda: logistic(u), 200)}
    difference = float(np.max(np.abs(logistic(u) - expit(u)) / expit(u)))
    table(f"sigmoid on {u.size} logits (one LocalTrain step of a Figure-4 batch)",
          [(name, f"{t * 1e6:.1f}", f"{u.size / t / 1e6:.0f}") for name, t in seconds.items()],
          ("function", "us per call", "M elements / s"))
    print(f"  largest relative difference {difference:.1e}")
    return {"elements": int(u.size), "seconds": seconds,
            "ratio": seconds["scipy expit"] / seconds["numpy 1/(1+exp(-u)), in place"],
            "max_relative_difference": difference}


# ---------------------------------------------------------------------------- main
SECTIONS = {"figure4": bench_figure4, "round": bench_round, "sigmoid": bench_sigmoid, "static": bench_static}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", nargs="+", choices=list(SECTIONS), default=list(SECTIONS),
                   help="sections to run (default: all)")
    p.add_argument("--repeats", type=int, default=3,
                   help="timed repeats of the round runs and of the single FedCLUP/GlobalTrain runs (default 3)")
    p.add_argument("--localtrain-repeats", type=int, default=1,
                   help="timed repeats of the single LocalTrain run (500 rounds, ~20 s each; default 1)")
    p.add_argument("--figure4-seed", type=int, default=1,
                   help="the data seed of the quick Figure 4 whose runs are timed (default 1)")
    p.add_argument("--round-T", type=int, default=3, help="rounds of a timed run in the round section (default 3)")
    p.add_argument("--seed", type=int, default=0, help="seed of the runs' Generator (client sampling)")
    p.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "out")
    args = p.parse_args(argv)
    if min(args.repeats, args.localtrain_repeats, args.round_T) < 1:
        p.error("--repeats, --localtrain-repeats and --round-T must be >= 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    return run_sections(SECTIONS, args.only, args, argv, prefix="fedclup_")


if __name__ == "__main__":
    sys.exit(main())
