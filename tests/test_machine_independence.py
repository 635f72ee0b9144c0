"""A rebuild on another machine gives the same decisions: the same runs, computed under two different BLAS set-ups,
decide every check the same way (passed, inconclusive, hypotheses met) and classify Lemma 4.5's M_rho against M the
same way (above, tied, below, with the audit's stated tolerance).

The two set-ups: OpenBLAS's oldest x86-64 kernels (``OPENBLAS_CORETYPE=Prescott``, SSE3) with
``OPENBLAS_NUM_THREADS=1``, against the machine's native kernels with ``OPENBLAS_NUM_THREADS=2``. The kernels change
the rounding of every product (on this machine the raw arrays differ in their last bits); the thread count alone does
not, because every run pins its native thread pools to one thread (``repro.runner``), which is why the kernel is
switched too. Assumption, named: numpy links OpenBLAS built with DYNAMIC_ARCH (the wheels are); elsewhere both
set-ups run the same kernels and the test still checks that the decisions are deterministic.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: experiment -> how many of its quick-profile runs (spread over the grid) are rebuilt
SAMPLE = {"fedsgm.theory": 12, "pcfedavg.theory": 6, "fedclup.statistical": 4, "fedclup.theorem2": 4}

PROBE = r"""
import json, sys
import numpy as np
from repro import runner
from repro.registry import get

sample = json.loads(sys.argv[1])
out = {}
for name, n in sample.items():
    specs = get(name).specs("quick")
    rows = []
    for spec in specs[:: max(1, len(specs) // n)][:n]:
        arrays, _, _ = runner.execute(spec)
        row = {k: np.asarray(arrays[k]).astype(int).ravel().tolist()
               for k in ("passed", "inconclusive", "hypotheses_met") if k in arrays}
        if "M_rho" in arrays:
            ratio = float(np.asarray(arrays["M_rho"]) / np.asarray(arrays["M"]))
            from repro.papers.pcfedavg.audit import RATIO_TIE as tie
            row["M_rho_vs_M"] = 0 if abs(ratio - 1) <= tie else (1 if ratio > 1 else -1)
        rows.append(row)
    out[name] = rows
print(json.dumps(out))
"""


def _decisions(env_extra: dict) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENBLAS_")} | env_extra
    return subprocess.Popen([sys.executable, "-c", PROBE, json.dumps(SAMPLE)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_decisions_do_not_depend_on_the_blas_kernels_or_threads():
    old = _decisions({"OPENBLAS_CORETYPE": "Prescott", "OPENBLAS_NUM_THREADS": "1"})
    native = _decisions({"OPENBLAS_NUM_THREADS": "2"})
    results = []
    for proc in (old, native):
        stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0, stderr[-2000:]
        results.append(json.loads(stdout.strip().splitlines()[-1]))
    a, b = results
    assert {k: len(v) for k, v in a.items()} == SAMPLE
    assert all(any(row for row in rows) for rows in a.values()), "an experiment stored no decisions to compare"
    differ = [(name, i) for name in SAMPLE for i, (x, y) in enumerate(zip(a[name], b[name])) if x != y]
    assert not differ, f"decisions that changed with the BLAS set-up: {differ[:5]}"
