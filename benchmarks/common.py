"""Helpers every benchmark script shares: JSON output with the environment, tables, timers, memory and BLAS
information, call probes, and the names an ``ast`` loop check reads. Hand-written: they are a few lines each
around the standard library (``time``, ``tracemalloc``, ``resource``) and threadpoolctl."""
from __future__ import annotations

import ast
import functools
import gc
import json
import os
import platform
import resource
import sys
import time
import tracemalloc
from contextlib import contextmanager, nullcontext
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from repro.errors import ReproError  # noqa: E402  (after the path: benchmarks run as scripts)


# ---------------------------------------------------------------------------- output
def environment() -> dict:
    import scipy
    import sympy
    return {"python": platform.python_version(), "numpy": np.__version__, "scipy": scipy.__version__,
            "sympy": sympy.__version__, "machine": platform.machine(), "cpus": os.cpu_count(),
            "platform": platform.platform()}


def write_json(out_dir: Path, name: str, payload: dict) -> Path:
    """``<out_dir>/<name>.json``: the payload after the benchmark's name, the environment and a timestamp."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.json"
    payload = {"benchmark": name, "environment": environment(),
               "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S")} | payload
    path.write_text(json.dumps(payload, indent=2, default=float) + "\n")
    return path


def table(title: str, rows: list[tuple], header: tuple) -> None:
    """Print ``rows`` under ``header`` as an aligned plain-text table (floats to 4 significant digits)."""
    cells = [tuple(str(c) for c in header)] + [tuple(_fmt(c) for c in r) for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    print(f"\n== {title}")
    for k, r in enumerate(cells):
        print("  " + "  ".join(c.rjust(w) if k else c.ljust(w) for c, w in zip(r, widths)))
        if k == 0:
            print("  " + "  ".join("-" * w for w in widths))


def _fmt(x) -> str:
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def run_sections(sections: dict, names, args, argv=None, *, prefix: str = "", suffix: str = "",
                 context=lambda name: nullcontext()) -> int:
    """Run each named section once (in order, duplicates dropped) inside ``context(name)``; write
    ``<args.out_dir>/<prefix><name><suffix>.json`` with the section's run time and the command line and print
    where. Exit status: 1 when a section reports ``passed`` False (the static checks), else 0."""
    status = 0
    for name in dict.fromkeys(names):
        t = time.perf_counter()
        try:
            with context(name):
                payload = sections[name](args)
        except ReproError as exc:           # missing data, bad input: the suite's one-line error, exit 2
            print(f"error: {exc}", file=sys.stderr)
            return 2
        payload |= {"section_seconds": time.perf_counter() - t, "argv": sys.argv[1:] if argv is None else list(argv)}
        path = write_json(args.out_dir, f"{prefix}{name}{suffix}", payload)
        print(f"  -> {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} "
              f"({payload['section_seconds']:.0f} s)")
        if payload.get("passed") is False:
            status = 1
    return status


# ---------------------------------------------------------------------------- machine state
def maxrss_mib() -> float:
    """Peak resident set size of this process so far (Linux reports KiB)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 1024.0 if sys.platform != "darwin" else rss / 2**20


def load1() -> float:
    """The 1-minute load average (how busy the machine was around a timing)."""
    return os.getloadavg()[0]


def blas_info() -> list:
    """The BLAS libraries numpy uses, with their thread counts (threadpoolctl)."""
    from threadpoolctl import threadpool_info
    return [{k: d.get(k) for k in ("internal_api", "version", "num_threads", "architecture")}
            for d in threadpool_info() if d.get("user_api") == "blas"]


# ---------------------------------------------------------------------------- timers
def best_seconds(fn, repeats: int = 10) -> float:
    """Best wall time of ``repeats`` calls of ``fn`` after one warm-up call."""
    fn()
    best = np.inf
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def time_calls(work, repeats: int) -> dict:
    """``repeats`` timed calls of ``work`` (wall and process CPU time), with the 1-minute load average
    before and after."""
    walls, cpus = [], []
    before = load1()
    for _ in range(repeats):
        gc.collect()
        t, c = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return {"wall_seconds": walls, "wall_seconds_min": min(walls), "wall_seconds_median": float(np.median(walls)),
            "cpu_seconds": cpus, "loadavg_1min_before_after": [before, load1()]}


def traced_peak(work) -> tuple[float, float]:
    """(tracemalloc peak in MiB, wall seconds under tracemalloc) of one call of ``work``."""
    gc.collect()
    tracemalloc.start()
    try:
        t = time.perf_counter()
        work()
        wall = time.perf_counter() - t
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 2**20, wall


# ---------------------------------------------------------------------------- probes
class Probe:
    """Wraps ``obj.name`` (an instance's method, or a class's function: then every instance, copies included, is
    timed) by an attribute that accumulates calls and seconds (and flops, if ``flops(*args)`` is given). Removed
    again by :func:`probed`, which puts a class's own function back."""

    def __init__(self, label: str, obj, name: str, flops=None):
        self.label, self.obj, self.name, self.flops = label, obj, name, flops
        self.calls, self.seconds, self.counted = 0, 0.0, 0

    def install(self) -> None:
        self._own = vars(self.obj).get(self.name)      # a class's own method, to put back (an instance has none)
        original = getattr(self.obj, self.name)

        @functools.wraps(original)      # keeps the signature (penalized.run inspects it)
        def timed(*args, **kwargs):
            t = time.perf_counter()
            out = original(*args, **kwargs)
            self.seconds += time.perf_counter() - t
            self.calls += 1
            if self.flops is not None:
                self.counted += self.flops(*args)
            return out
        setattr(self.obj, self.name, staticmethod(timed) if isinstance(self._own, staticmethod) else timed)

    def remove(self) -> None:
        if self._own is not None:
            setattr(self.obj, self.name, self._own)
        else:
            delattr(self.obj, self.name)


@contextmanager
def probed(probes: list[Probe]):
    """Install the probes for the duration of the block."""
    for probe in probes:
        probe.install()
    try:
        yield probes
    finally:
        for probe in probes:
            probe.remove()


# ---------------------------------------------------------------------------- ast
def ast_names(node: ast.AST) -> set[str]:
    """Every name and attribute a node mentions."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | \
           {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def call_name(node: ast.AST) -> str | None:
    """The called function's name of a call node (``f`` of ``f(...)`` or ``x.f(...)``), else None."""
    if isinstance(node, ast.Call):
        f = node.func
        return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    return None
