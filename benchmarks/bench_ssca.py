"""Benchmarks of the mini-batch SSCA part of the suite (figures: benchmarks/README.md; their history: benchmarks/history.md, section "SSCA").

Run from the project root (MNIST is read offline from ``REPRO_DATA_DIR``, or the default data folder of
:func:`repro.data.data_dir`):

    .venv/bin/python benchmarks/bench_ssca.py                          # everything (the quick profile takes minutes)
    .venv/bin/python benchmarks/bench_ssca.py --only iteration cost static    # about a minute
    .venv/bin/python benchmarks/bench_ssca.py --only quick --quick-experiments ssca.theorem5

Sections (each writes ``benchmarks/out/ssca_<name>.json`` and prints a table). The setting is that of
``repro.papers.ssca.runs.mnist``: MNIST, pixels / 255, the 3-layer swish network with K = 784 inputs,
J = 128 hidden units and L = 10 outputs, no biases (d = J K + L J = 101,632), I = 10 clients (IID split
of the 60,000 training samples, 6,000 each; contiguous feature blocks of 79/78 pixels), tau = 0.1,
(27) with lambda = 1e-5 (M = 0), the Section-VI step-size triple of each batch size. The data, the
split, the blocks and omega^(1) are built by the experiment's own ``_setup`` (seed 0), not timed.

iteration  ONE iteration of Algorithm 1 (``run_sample_based``) at per-client batch B = 1, 10, 100
           (I B = 10, 100, 1,000 samples) and of Algorithm 3 (``run_feature_based``) at total batch
           B = 10, 100, 1,000. A run with T iterations performs T - 1 updates, so the time of one
           iteration is (t(T = --iter-T) - t(T = 2)) / (--iter-T - 2), from the minimum (and the median)
           over --repeats runs of each length after one warm-up run; this removes the per-run set-up
           (argument checks, np.unique over the 60,000 client indices, the Generator spawn). Peak
           memory: the tracemalloc peak of one T = 2 run (one update, including that set-up), and the
           peak of the oracle call above its entry level. Phases: two more runs (T = 2 and T = --iter-T,
           differenced like the timings) in which the oracle (``problem._batch_sums`` /
           ``_block_batch_sums``, the unvalidated forms the engine calls) and its network part (``_ce`` / ``_ce_blocks``: the gather of the batch
           rows, forward and backward pass) are wrapped by timers; the rest of an iteration is the batch
           draw, the surrogate recursion (8)/(18), the closed-form server step (9)/(19), the update (5)
           and the finiteness checks.
cost       one full-data cost evaluation ``swish_network.evaluate(net, omega, X_train, y_train)`` (the
           training half of every checkpoint of Figures 2-4): 60,000 samples in chunks of 10,000. Wall
           time (minimum and median of --repeats, after a warm-up), tracemalloc peak, GFLOP/s.
static     the no-loop-over-clients check of ``bench_pcfedavg.static_loop_check`` on
           ``repro/papers/ssca/algorithms/ssca.py`` and ``repro/papers/ssca/algorithms/federated_sgd.py``, with the SSCA
           vocabulary (see :func:`ssca_static_check`), and a self-test on mutated copies.
quick      the quick profile of every SSCA experiment (``ssca.convergence``, ``ssca.theorem5``,
           ``ssca.figure2``, ``ssca.figure3``, ``ssca.figure4``, ``ssca.printed_32``; restrict with
           --quick-experiments) through ``repro.runner.run_all(specs, results_root=<tmpdir>,
           force=True, jobs=--quick-jobs, progress=False)``, one ``run_all`` call per experiment, with
           the wall time of each and the total, compared with --quick-budget seconds.

BLAS threads. The runner executes every run with the BLAS pools limited to one thread
(``threadpoolctl.threadpool_limits(1)``), so the iteration and cost sections and their matmul
references run under ``threadpool_limits(--blas-threads)``, default 1, when threadpoolctl is installed
(the JSON records the BLAS libraries and their thread counts as seen inside the limit; the experiment
modules are imported before the limit is entered, so that it covers every BLAS library they load).

FLOP count (float64; 2 flops per multiply-add; b samples). The network part of one oracle call is
five matrix products:

    forward   Z = X W1^T          b K J    multiply-adds
              H W2^T              b J L
    backward  theta2 = (w Delta)^T H    b L J      (34)
              (w Delta) W2        b L J      (the back-propagated error, times S'(Z) elementwise)
              theta1 = G^T X      b J K      (33)

so F_iter = 2 b (2 K J + 3 J L) = 409,088 b flops (b = I B = 10, 100, 1,000 for Algorithm 1; b = B
for Algorithm 3): 4.09 / 40.9 / 409 MFLOP per iteration. Not counted (taken as 0): swish, S', the
log-softmax and the other elementwise work on (b, J) and (b, L) arrays, the gather X[index] (b K
floats), and the O(d) surrogate recursion, server step and update of the iteration. Algorithm 3 computes
Z and theta1 client by client on the padded feature blocks (``FeatureBlocks``: I x kmax = 10 x 79 = 790
columns for K = 784), so it executes 2 b (2 (I kmax) J + 3 J L) flops, 0.8 % more; rates use the useful
count F_iter. The full-data cost evaluation is a forward pass, F_cost = 2 N (K J + J L) = 12.20 GFLOP
for N = 60,000; ``evaluate`` calls the same head as the oracle, which also forms theta2 and the
back-propagated error (2 N 2 J L = 0.31 GFLOP more, discarded), not counted either.

Matmul references (measured in the same run, same BLAS thread limit, best of 10 calls after a warm-up):
(b, 784) @ (784, 128) with the right factor the transpose of a C-ordered (J, K) array, as in the oracle,
at b = 1,000 (the reference "peak" of the iteration section, the dominant product at the largest batch)
and at each case's own b, and at b = 10,000 (one chunk of ``evaluate``; the reference of the cost
section). Rates use the fastest run. Other jobs on a shared machine inflate wall times and lower the
measured peaks, so the 1-minute load average is recorded next to every timing.
"""
from __future__ import annotations

import argparse
import ast
import gc
import os
import sys
import tempfile
import time
import tracemalloc
from contextlib import nullcontext
from pathlib import Path
from unittest import mock

import numpy as np

os.environ.setdefault("REPRO_OFFLINE", "1")               # a benchmark never downloads: REPRO_DATA_DIR or the cache

from common import (  # noqa: E402  (benchmarks/common.py)
    ROOT, best_seconds, blas_info, call_name, load1, maxrss_mib, Probe, probed, run_sections, table, time_calls,
    traced_peak)
import bench_pcfedavg as PC  # noqa: E402  (same folder: the static check and its vocabulary)

ALGORITHM_FILES = (ROOT / "repro" / "papers" / "ssca" / "algorithms" / "ssca.py",
                   ROOT / "repro" / "papers" / "ssca" / "algorithms" / "federated_sgd.py")
QUICK_EXPERIMENTS = ("ssca.convergence", "ssca.theorem5", "ssca.figure2", "ssca.figure3", "ssca.figure4",
                     "ssca.printed_32")
SAMPLE_BATCHES = (1, 10, 100)          # per client (Algorithm 1), I B samples per iteration
FEATURE_BATCHES = (10, 100, 1000)      # total (Algorithm 3)
PEAK_ROWS, COST_ROWS = 1000, 10_000    # rows of the matmul references


# ---------------------------------------------------------------------------- helpers
def threads(n: int | None):
    """``threadpool_limits(n, user_api="blas")`` when threadpoolctl is installed, else a no-op."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:          # pragma: no cover - threadpoolctl ships with scikit-learn
        return nullcontext()
    return threadpool_limits(n, user_api="blas")


def require_mnist() -> None:
    """Load MNIST once (cached by ``repro.papers.ssca.runs.mnist._data``); exit with a clear message if it is missing."""
    from repro.errors import DataError
    from repro.papers.ssca.runs import mnist as mn
    try:
        mn._data("mnist")
    except DataError as exc:
        raise SystemExit(
            f"bench_ssca: MNIST is not available offline ({exc}).\n"
            f"  REPRO_DATA_DIR={os.environ.get('REPRO_DATA_DIR')!r}: the four official MNIST .gz files must be in "
            "<REPRO_DATA_DIR>/mnist/. Point REPRO_DATA_DIR at a directory holding them (e.g. "
            "REPRO_DATA_DIR=../shared/data), or run only `--only static` (or `--only quick "
            "--quick-experiments ssca.convergence ssca.theorem5`), which need no data.") from None


def setting(mode: str, batch: int, seed: int):
    """(problem, params factory T -> SSCAParams (holding omega1 and, sample-based, client_indices), omega1,
    client_indices, config) exactly as ``repro.papers.ssca.runs.mnist.run_mnist_ssca`` builds them for (27),
    without the checkpoint monitor."""
    from repro.papers.ssca.algorithms import ssca as alg
    from repro.papers.ssca.runs import mnist as mn

    config = mn._ssca(mode, "27", batch, "quick")
    data, net, blocks, client_indices, omega1, _ = mn._setup(config, seed)
    problem = mn._problem(config, net, data["x_train"], data["y_train"], blocks)
    a1, a2, alpha = config.triple

    def params(T: int):
        return alg.SSCAParams(tau=config.tau, steps=alg.PowerLawSteps.section_vi(a1, a2, alpha), iterations=T,
                              batch=batch, omega1=omega1, penalty=config.penalty,
                              client_indices=client_indices if mode == "sample" else None)
    return problem, params, omega1, client_indices, config


def flops_per_sample(K: int, J: int, L: int) -> int:
    """2 (2 K J + 3 J L): the five products of one oracle call per sample (module docstring)."""
    return 2 * (2 * K * J + 3 * J * L)


def matmul_rate(rows: int, K: int, J: int, rng: np.random.Generator) -> dict:
    """Best-of-10 time and GFLOP/s of (rows, K) @ (K, J), the right factor W1.T of a C-ordered (J, K)
    array as in ``batch_statistics``. (``bench_pcfedavg.matmul_peaks`` wants a SoftmaxClients; its timer
    ``best_seconds`` is reused.)"""
    X, W1 = rng.random((rows, K)), rng.random((J, K))
    seconds = best_seconds(lambda: X @ W1.T)
    return {"shape": f"({rows}, {K}) @ ({K}, {J})", "seconds": seconds, "gflops": 2.0 * rows * K * J / seconds / 1e9}


class OraclePeak:
    """Wraps ``obj.name`` (an instance attribute, removed again by :meth:`remove`) so that the tracemalloc
    peak of each call above the traced size at its entry is recorded (tracemalloc must be running).
    The call resets tracemalloc's peak, so the peak reached before it is kept in ``outer``; the peak of
    the whole traced span is ``max(outer, tracemalloc.get_traced_memory()[1])``."""

    def __init__(self, obj, name: str):
        self.obj, self.name, self.peak, self.outer = obj, name, 0, 0
        original = getattr(obj, name)

        def wrapped(*args, **kwargs):
            entry, before = tracemalloc.get_traced_memory()
            self.outer = max(self.outer, before)
            tracemalloc.reset_peak()
            out = original(*args, **kwargs)
            _, during = tracemalloc.get_traced_memory()
            self.peak = max(self.peak, during - entry)
            self.outer = max(self.outer, during)
            return out
        setattr(obj, name, wrapped)

    def remove(self) -> None:
        delattr(self.obj, self.name)


# ---------------------------------------------------------------------------- (i) one iteration
def _memory_and_phases(run, problem, oracle_name: str, ce_name: str, T_long: int) -> tuple[int, int, dict]:
    """For ``run(T)``: the tracemalloc peak of a T = 2 run, the peak of its oracle calls (:class:`OraclePeak`), and
    per T in (2, T_long) an instrumented run's (wall seconds, oracle seconds, network seconds, oracle calls)."""
    gc.collect()
    tracemalloc.start()
    oracle_peak = OraclePeak(problem, oracle_name)
    try:
        tracemalloc.reset_peak()
        run(2)
        run_peak = max(oracle_peak.outer, tracemalloc.get_traced_memory()[1])
    finally:
        oracle_peak.remove()
        tracemalloc.stop()

    instrumented = {}
    for T in (2, T_long):               # the difference of the two removes the per-run set-up
        oracle, ce = Probe("oracle", problem, oracle_name), Probe("network", problem, ce_name)
        gc.collect()
        with probed([oracle, ce]):
            t = time.perf_counter()
            run(T)
            instrumented[T] = (time.perf_counter() - t, oracle.seconds, ce.seconds, oracle.calls)
    return run_peak, oracle_peak.peak, instrumented


def bench_iteration(args) -> dict:
    from repro.papers.ssca.algorithms import ssca as alg

    require_mnist()
    rng = np.random.default_rng(12345)
    T_long = args.iter_T
    cases = [("sample", b) for b in SAMPLE_BATCHES] + [("feature", b) for b in FEATURE_BATCHES]
    results, rows, phase_rows = {}, [], []
    peak = None
    for mode, batch in cases:
        t = time.perf_counter()
        problem, params, omega1, client_indices, config = setting(mode, batch, args.seed)
        build_s = time.perf_counter() - t
        net = problem.net
        if peak is None:
            peak = matmul_rate(PEAK_ROWS, net.K, net.J, rng)
        public, ce_name = ("batch_sums", "_ce") if mode == "sample" else ("block_batch_sums", "_ce_blocks")
        oracle_name = alg.loop_oracle(problem, public).__name__   # the form the engine calls (unvalidated)

        algorithm = alg.run_sample_based if mode == "sample" else alg.run_feature_based
        run = lambda T, p=problem, f=params, a=algorithm: a(p, f(T), np.random.default_rng(args.seed))  # noqa: E731

        run(T_long)                                                   # warm-up
        short = time_calls(lambda: run(2), args.repeats)
        long = time_calls(lambda: run(T_long), args.repeats)
        updates = T_long - 2
        per_iter = (long["wall_seconds_min"] - short["wall_seconds_min"]) / updates
        per_iter_median = (long["wall_seconds_median"] - short["wall_seconds_median"]) / updates

        run_peak, oracle_call_peak, instrumented = _memory_and_phases(run, problem, oracle_name, ce_name, T_long)
        (short_total, short_oracle, short_ce, short_calls), (long_total, long_oracle, long_ce, long_calls) = \
            instrumented[2], instrumented[T_long]
        calls = long_calls - short_calls
        b = batch * (client_indices.shape[0] if mode == "sample" else 1)
        flops = b * flops_per_sample(net.K, net.J, net.L)
        executed = flops
        if mode == "feature":
            K_pad = problem.blocks.n_clients * problem.blocks.kmax
            executed = 2 * b * (2 * K_pad * net.J + 3 * net.J * net.L)
        own = matmul_rate(b, net.K, net.J, rng)
        oracle_s, ce_s = (long_oracle - short_oracle) / calls, (long_ce - short_ce) / calls
        rest_s = ((long_total - long_oracle) - (short_total - short_oracle)) / calls
        key = f"{mode} B={batch}"
        results[key] = {
            "algorithm": "Algorithm 1 (run_sample_based)" if mode == "sample" else "Algorithm 3 (run_feature_based)",
            "mode": mode, "batch": batch, "samples_per_iteration": b, "triple": config.triple, "tau": config.tau,
            "lam": config.lam, "build_seconds_not_timed": build_s, "T_short": 2, "T_long": T_long,
            "runs_T2": short, "runs_Tlong": long,
            "seconds_per_iteration_min": per_iter, "seconds_per_iteration_median": per_iter_median,
            "tracemalloc_peak_mib_T2_run": run_peak / 2**20, "tracemalloc_oracle_call_peak_mib": oracle_call_peak / 2**20,
            "maxrss_mib": maxrss_mib(),
            "flops_per_iteration": flops, "executed_flops_per_iteration": executed,
            "gflops": flops / per_iter / 1e9 if per_iter > 0 else float("nan"),
            "gflops_inside_network_part": flops / ce_s / 1e9,
            "fraction_of_peak": (flops / per_iter / 1e9) / peak["gflops"] if per_iter > 0 else float("nan"),
            "matmul_same_b": own,
            "matmul_floor_seconds": flops / (peak["gflops"] * 1e9),
            "instrumented_runs_seconds_T2_Tlong": [short_total, long_total], "oracle_calls_difference": calls,
            "instrumented_seconds_per_iteration": (long_total - short_total) / calls,
            "phases_ms_per_iteration": {
                f"oracle {oracle_name}": 1e3 * oracle_s,
                f"  of which {ce_name}: gather, forward, backward": 1e3 * ce_s,
                "  of which regulariser, concatenation (difference)": 1e3 * (oracle_s - ce_s),
                "rest: draw, recursion (8)/(18), server step, update (5), checks (difference)": 1e3 * rest_s,
            },
        }
        r = results[key]
        rows.append((f"Alg. {'1' if mode == 'sample' else '3'}", batch, b,
                     f"{1e3 * per_iter:.2f} / {1e3 * per_iter_median:.2f}", r["tracemalloc_peak_mib_T2_run"],
                     r["tracemalloc_oracle_call_peak_mib"], flops / 1e6, r["gflops"], r["gflops_inside_network_part"],
                     own["gflops"], f"{100 * r['fraction_of_peak']:.1f} %",
                     "{:.2f} / {:.2f}".format(short["loadavg_1min_before_after"][0], long["loadavg_1min_before_after"][1])))
        phase_rows.append((key, *(f"{v:.2f}" for v in r["phases_ms_per_iteration"].values())))
    table(f"iteration: one SSCA iteration on MNIST (d = {problem.dim:,}, I = 10, tau = {config.tau}, (27) lambda = "
          f"{config.lam:g}; (min / median of {args.repeats} T = {T_long} runs - same of T = 2) / {T_long - 2}; "
          f"BLAS threads {args.blas_threads}; matmul peak ({PEAK_ROWS}, 784) @ (784, 128) = {peak['gflops']:.1f} GFLOP/s)",
          rows, ("alg", "B", "samples", "ms/iter min / med", "tracemalloc T=2 MiB", "oracle peak MiB", "MFLOP/iter",
                 "GFLOP/s", "GFLOP/s in _ce", "matmul GFLOP/s same b", "of peak", "load before / after"))
    table(f"iteration: phases, ms per iteration (instrumented T = {T_long} run - instrumented T = 2 run, "
          f"/ {T_long - 2})", phase_rows, ("case", "oracle", "network part", "oracle rest", "iteration rest"))
    return {"repeats": args.repeats, "seed": args.seed, "blas_threads": args.blas_threads, "blas": blas_info(),
            "matmul_peak": peak, "flops_per_sample": flops_per_sample(784, 128, 10), "results": results}


# ---------------------------------------------------------------------------- (ii) full-data cost
def bench_cost(args) -> dict:
    from repro.papers.ssca.runs import mnist as mn
    from repro.papers.ssca.problems import swish_network as SN

    require_mnist()
    config = mn._ssca("sample", "27", 10, "quick")
    data, net, _, _, omega1, _ = mn._setup(config, args.seed)
    X, y = data["x_train"], data["y_train"]
    N = X.shape[0]

    def work():
        return SN.evaluate(net, omega1, X, y)
    value = work()                                                   # warm-up
    meas = time_calls(work, args.repeats)
    peak_mib, _ = traced_peak(work)
    ref = matmul_rate(COST_ROWS, net.K, net.J, np.random.default_rng(12345))
    flops = 2 * N * (net.K * net.J + net.J * net.L)
    wall = meas["wall_seconds_min"]
    floor = (N / COST_ROWS) * ref["seconds"]
    payload = {"what": "swish_network.evaluate(net, omega1, X_train, y_train), chunk 10,000 (default)",
               "N": N, "K": net.K, "J": net.J, "L": net.L, "omega": "omega^(1) of runs.mnist._setup (seed "
               f"{args.seed})", "cost": value["cost"], "accuracy": value["accuracy"], **meas,
               "tracemalloc_peak_mib": peak_mib, "maxrss_mib": maxrss_mib(), "flops": flops,
               "executed_flops_incl_discarded_backward_head": flops + 2 * N * 2 * net.J * net.L,
               "gflops": flops / wall / 1e9, "matmul_reference": ref, "fraction_of_peak": flops / wall / 1e9 / ref["gflops"],
               "matmul_floor_seconds_Z_only": floor, "blas_threads": args.blas_threads, "blas": blas_info(),
               "repeats": args.repeats}
    table(f"cost: one full-data cost evaluation on MNIST (N = {N:,}; BLAS threads {args.blas_threads})", [
        ("wall time, min / median [s]", f"{wall:.3f} / {meas['wall_seconds_median']:.3f}"),
        ("CPU time of the runs [s]", " / ".join(f"{c:.3f}" for c in meas["cpu_seconds"])),
        ("load average before / after", "{:.2f} / {:.2f}".format(*meas["loadavg_1min_before_after"])),
        ("tracemalloc peak [MiB]", peak_mib),
        ("ru_maxrss [MiB]", payload["maxrss_mib"]),
        ("flops 2 N (K J + J L) [GFLOP]", flops / 1e9),
        ("achieved GFLOP/s", payload["gflops"]),
        (f"matmul ({COST_ROWS}, 784) @ (784, 128) [GFLOP/s]", ref["gflops"]),
        ("achieved / matmul", f"{100 * payload['fraction_of_peak']:.1f} %"),
        (f"Z = X W1^T alone at that rate, {N // COST_ROWS} chunks [s]", floor),
        ("F(omega^(1)) / accuracy", f"{value['cost']:.4f} / {value['accuracy']:.4f}"),
    ], ("quantity", "value"))
    return payload


# ---------------------------------------------------------------------------- (iii) static check
#: The SSCA vocabulary added to bench_pcfedavg's: rounds are the iterations T (FedAvg-SGD: rounds), local
#: steps are FedAvg-SGD's E; client-like names are added to the forbidden ones.
VOCABULARY = {
    "ROUND_NAMES": PC.ROUND_NAMES | {"T", "iterations"},
    "STEP_NAMES": PC.STEP_NAMES | {"E"},
    "AGENT_NAMES": PC.AGENT_NAMES | {"I", "client_indices", "clients", "client", "n_clients", "client_weights",
                                     "owner", "chosen", "n_i"},
}
#: Loops that are over neither rounds, steps nor clients, allowed by exact (function, iterable) text with the
#: reason. Only loops rejected as "not over rounds or local steps" can be allowed this way, never one that
#: names a client (the client test comes first in the classification).
NOT_CLIENTS = {
    ("__init__", "range(n_constraints)"): "the M constraints of the server QCQP (M >= 2), built once per run",
    ("polish_dual", "range(max_iter)"): "projected-Newton iterations of the server's dual (<= 50, arrays of size M, d)",
    ("_run_engine", "range(4)"): "unpacks four preallocated (T-1, M) trace arrays",
}
#: ``while`` loops allowed by exact (function, condition) text, with the reason: rejection rounds, never a loop
#: over clients (every round is one vectorised draw over all rows still pending).
WHILE_ROUNDS = {
    ("_distinct_positions", "redo.size"): "rejection rounds of the minibatch draw, each one vectorised draw over "
                                          "every row still repeating a position (a row is accepted with probability "
                                          "prod_{j<B} (1 - j/N_i) per round, > 0.43 for MNIST's N_i = 6000, B <= 100)",
}
#: (file name, function that must hold a loop, kind) and (file name, runner, engine it must call).
STRUCTURE = {
    "ssca.py": {"loops": (("_run_engine", "rounds"),),
                "calls": (("run_sample_based", "_run_engine"), ("run_feature_based", "_run_engine"))},
    "federated_sgd.py": {"loops": (("_sgd_loop", "rounds"), ("round_update", "local steps")),
                         "calls": (("run_fedavg_sgd", "_sgd_loop"), ("run_feature_sgd", "_sgd_loop"))},
}


def ssca_static_check(path: Path) -> dict:
    """``bench_pcfedavg.static_loop_check(path)`` with the SSCA vocabulary (:data:`VOCABULARY`: its
    round/step/agent name sets extended by T, iterations / E / I, client_indices, clients, ...), so that

    * every ``for`` statement iterates over ``range``/``enumerate`` of an expression naming the
      iterations/rounds (``T``) or FedAvg-SGD's local steps (``E``), or over a dict's
      ``.items()``/``.keys()``/``.values()``; comprehensions over ``range`` likewise;
    * no loop iterates over anything naming clients (``I``, ``idx``, ``client_indices``, ``clients``,
      ``chosen``, ``S``, ``m``, ...); no ``while``, ``map``, ``np.vectorize``, ``np.apply_along_axis``,
      ``np.frompyfunc``;
    * three loops over neither (:data:`NOT_CLIENTS`: the QCQP's constraints, the dual's Newton
      iterations, ``range(4)``) and one ``while`` over rejection rounds (:data:`WHILE_ROUNDS`: the minibatch
      draw's) are allowed by their exact text, with the reason;
    * not vacuous (:data:`STRUCTURE`; replaces pcfedavg's "``run()`` has a round loop with a nested
      step loop", since these modules have no ``run()``): ``_run_engine`` holds the iteration loop and
      both SSCA front ends call it; ``_sgd_loop`` holds the round loop, a ``round_update`` the local-step
      loop, and both SGD runners call ``_sgd_loop``.
    """
    with mock.patch.multiple(PC, **VOCABULARY):
        res = PC.static_loop_check(path)
    for lp in res["loops"]:
        reason = NOT_CLIENTS.get((lp["function"], lp["iter"]))
        if not lp["allowed"] and reason and lp["why"].startswith("range/enumerate not over"):
            lp["allowed"], lp["why"] = True, f"not over clients: {reason}"
        reason = WHILE_ROUNDS.get((lp["function"], lp["iter"]))
        if not lp["allowed"] and reason and lp["kind"] == "while":
            lp["allowed"], lp["why"] = True, f"not over clients: {reason}"
    tree = ast.parse(path.read_text())
    functions = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            functions.setdefault(node.name, []).append(node)
    wanted = STRUCTURE[path.name if path.name in STRUCTURE else path.name.split("__")[-1]]
    structure = {}
    for func, kind in wanted["loops"]:
        structure[f"{func} has a for loop over {kind}"] = any(
            lp["function"] == func and lp["kind"] == "for" and lp["allowed"] and lp["why"].endswith(kind)
            for lp in res["loops"])
    for runner, engine in wanted["calls"]:
        structure[f"{runner} calls {engine}"] = any(call_name(n) == engine for f in functions.get(runner, [])
                                                    for n in ast.walk(f))
    res.pop("round_loop_with_nested_step_loop_in_run", None)
    res["structure"] = structure
    res["passed"] = all(lp["allowed"] for lp in res["loops"]) and all(structure.values())
    return res


#: Mutations that loop over clients (or remove the main loop); each must be rejected.
#: (file name, label, text to replace or None to append, replacement / appended text).
MUTANTS = (
    ("ssca.py", "for i in range(I) in an appended function", None,
     "\n\ndef _mutant(problem, w, idx, I):\n    for i in range(I):\n        problem.batch_sums(w, idx[i], None)\n"),
    ("ssca.py", "comprehension over client_indices", None,
     "\n\ndef _mutant(problem, w, client_indices):\n    return [problem.batch_sums(w, r, None) for r in client_indices]\n"),
    ("ssca.py", "for row in chosen inside draw()", "            chosen = draw_client_batches(batch_rng, idx, B)\n",
     "            chosen = draw_client_batches(batch_rng, idx, B)\n            for row in chosen:\n                pass\n"),
    ("ssca.py", "while loop", None, "\n\ndef _mutant():\n    i = 0\n    while i < 3:\n        i += 1\n"),
    ("ssca.py", "np.vectorize", None, "\n\ndef _mutant(f, w):\n    return np.vectorize(f)(w)\n"),
    ("ssca.py", "iteration loop replaced by for t in (1,)", "for t in range(1, T):", "for t in (1,):"),
    ("federated_sgd.py", "local-step loop over range(I)", "for e in range(E):", "for e in range(I):"),
    ("federated_sgd.py", "round loop over range(idx.shape[0])", "for t in range(1, T):",
     "for t in range(1, idx.shape[0]):"),
)


def bench_static(args) -> dict:
    files = [ssca_static_check(path) for path in ALGORITHM_FILES]
    for res in files:
        table(f"static: loops in {res['file']} ({'PASS' if res['passed'] else 'FAIL'})",
              [(lp["line"], lp["function"], lp["kind"], lp["target"], lp["iter"], "yes" if lp["allowed"] else "NO",
                lp["why"]) for lp in res["loops"]],
              ("line", "function", "kind", "target", "iterates over", "allowed", "why"))
        table(f"static: structure of {res['file']} (not vacuous)",
              [(k, "yes" if v else "NO") for k, v in res["structure"].items()], ("requirement", "holds"))
    mutants = []
    sources = {path.name: path.read_text() for path in ALGORITHM_FILES}
    with tempfile.TemporaryDirectory() as tmp:
        for k, (name, label, old, new) in enumerate(MUTANTS):
            source = sources[name]
            if old is not None and old not in source:
                mutants.append({"file": name, "mutant": label, "applicable": False, "rejected": None})
                continue
            path = Path(tmp) / f"m{k}__{name}"
            path.write_text(source + new if old is None else source.replace(old, new, 1))
            mutants.append({"file": name, "mutant": label, "applicable": True,
                            "rejected": not ssca_static_check(path)["passed"]})
    table("static: self-test on mutated copies (each must be rejected)",
          [(mu["file"], mu["mutant"], "n/a (text not found)" if not mu["applicable"] else
            "yes" if mu["rejected"] else "NO") for mu in mutants], ("file", "mutant", "rejected"))
    self_test = all(mu["rejected"] for mu in mutants if mu["applicable"])
    return {"rule": " ".join(ssca_static_check.__doc__.split()), "vocabulary": {k: sorted(v) for k, v in VOCABULARY.items()},
            "not_clients": {f"{f}: {i}": why for (f, i), why in NOT_CLIENTS.items()}, "files": files,
            "mutants": mutants, "self_test_passed": self_test,
            "passed": all(res["passed"] for res in files) and self_test}


# ---------------------------------------------------------------------------- (iv) quick profile
def bench_quick(args) -> dict:
    from repro import registry
    from repro.runner import run_all

    experiments = list(dict.fromkeys(args.quick_experiments))
    specs = {name: registry.get(name).specs("quick") for name in experiments}
    if any(s.function_path.startswith("repro.papers.ssca.runs.mnist.") for runs in specs.values() for s in runs):
        require_mnist()
    rows, per_experiment = [], {}
    rss_before = maxrss_mib()
    with tempfile.TemporaryDirectory() as root:
        for name in experiments:
            gc.collect()
            before = load1()
            t = time.perf_counter()
            results = run_all(specs[name], results_root=root, force=True, jobs=args.quick_jobs, progress=False)
            wall = time.perf_counter() - t
            per_run = [float(r.meta.get("wall_time_s", np.nan)) for r in results]
            per_experiment[name] = {"runs": len(results), "wall_seconds": wall, "runner_seconds_sum": float(np.nansum(per_run)),
                                    "runner_seconds_max": float(np.nanmax(per_run)), "per_run_seconds": per_run,
                                    "loadavg_1min_before_after": [before, load1()]}
            rows.append((name, len(results), wall, float(np.nansum(per_run)), float(np.nanmax(per_run)),
                         "{:.2f} / {:.2f}".format(*per_experiment[name]["loadavg_1min_before_after"])))
            print(f"  quick: {name} {len(results)} runs in {wall:.1f} s", flush=True)
    total = sum(v["wall_seconds"] for v in per_experiment.values())
    within = total <= args.quick_budget
    rows.append(("TOTAL", sum(v["runs"] for v in per_experiment.values()), total,
                 sum(v["runner_seconds_sum"] for v in per_experiment.values()), "", ""))
    partial = set(experiments) != set(QUICK_EXPERIMENTS)
    table(f"quick: run_all(<experiment>.specs('quick'), force=True, jobs={args.quick_jobs}, temporary results root)"
          + (" -- SUBSET of the SSCA experiments" if partial else ""), rows,
          ("experiment", "runs", "wall s", "sum of runs' wall_time_s", "longest run s", "load before / after"))
    print(f"  total {total:.1f} s = {total / 60:.1f} min; budget {args.quick_budget:g} s: "
          f"{'within' if within else 'EXCEEDED'}" + (" (subset only)" if partial else ""))
    return {"experiments": experiments, "all_ssca_experiments": list(QUICK_EXPERIMENTS), "subset": partial,
            "jobs": args.quick_jobs, "per_experiment": per_experiment, "total_wall_seconds": total,
            "budget_seconds": args.quick_budget, "within_budget": within,
            "maxrss_mib_before_after_parent": [rss_before, maxrss_mib()]}


# ---------------------------------------------------------------------------- main
SECTIONS = {"iteration": bench_iteration, "cost": bench_cost, "static": bench_static, "quick": bench_quick}
THREAD_LIMITED = ("iteration", "cost")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", nargs="+", choices=list(SECTIONS), default=list(SECTIONS),
                   help="sections to run (default: all, quick last)")
    p.add_argument("--repeats", type=int, default=3, help="timed runs per length / evaluations (default 3)")
    p.add_argument("--iter-T", type=int, default=22,
                   help="T of the long runs of the iteration section (T - 1 updates; default 22)")
    p.add_argument("--seed", type=int, default=0, help="seed of the experiment set-up and of the runs (default 0)")
    p.add_argument("--blas-threads", type=int, default=1,
                   help="BLAS threads of the iteration and cost sections (threadpoolctl; default 1, as the runner)")
    p.add_argument("--quick-experiments", nargs="+", choices=list(QUICK_EXPERIMENTS), default=list(QUICK_EXPERIMENTS),
                   help="experiments timed by the quick section (default: all six)")
    p.add_argument("--quick-jobs", type=int, default=2, help="run_all worker processes in the quick section (default 2)")
    p.add_argument("--quick-budget", type=float, default=300.0,
                   help="seconds the whole quick profile should take ('a few minutes'; default 300)")
    p.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "out")
    args = p.parse_args(argv)
    if min(args.repeats, args.blas_threads, args.quick_jobs) < 1 or args.iter_T < 3:
        p.error("--repeats, --blas-threads and --quick-jobs must be >= 1 and --iter-T >= 3")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)

    def context(name):
        if name not in THREAD_LIMITED:
            return nullcontext()
        # import first: threadpool_limits only limits the BLAS libraries already loaded when it is entered
        import repro.papers.ssca.runs.mnist  # noqa: F401  (loads the BLAS libraries before the limit)
        return threads(args.blas_threads)

    return run_sections(SECTIONS, args.only, args, argv, prefix="ssca_", context=context)


if __name__ == "__main__":
    sys.exit(main())
