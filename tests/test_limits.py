"""Limits before work (issue 42, item 4; repro/limits.py): a config whose estimated memory or core-hours exceed what
the machine has is refused before anything is allocated, in one line naming the parameter, unless --ignore-limits;
a MemoryError no model foresaw is one line too; and the plan/--set/figures misuses of the same issue are refused."""
import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repro import limits

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "repro" / "measured_costs.json"
#: a machine of 16 GiB: the refusals below do not depend on the memory of the machine running the test
GIB16 = str(16 * 2 ** 30)
#: the smallest run of fedclup.tradeoff (Figure 1): 2 draws, 2 rounds (~27 KiB, well under a second)
TINY = ("run", "fedclup.tradeoff", "--set", "reps=2", "--set", "rounds=2", "--no-progress")


def _one_line(out, status=2) -> str:
    lines = out.stderr.strip().splitlines()
    assert out.returncode == status, (out.returncode, out.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    assert "Traceback" not in out.stderr
    return lines[0]


def _cached(root: Path) -> list[Path]:
    return sorted(root.rglob("*.json")) if root.exists() else []


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.delenv(limits.HOURS_ENV, raising=False)
    return {"REPRO_RESULTS_DIR": str(tmp_path / "res"), limits.MEMORY_ENV: GIB16}


@pytest.mark.parametrize("experiment, setting, words", [
    ("fedsgm.figure1", "T=1000000000", ["24.5 TiB", "16 GiB"]),
    ("fedclup.figure4", "n=1000000000000", ["PiB"]),
    ("fedclup.figure4", "d=100000000", ["TiB"]),
    ("fedclup.tradeoff", "reps=100000000", ["TiB"]),
    ("pcfedavg.rates", "n=100000", ["TiB"]),
    ("fedclup.figure4", "local_steps=100000000", ["core-hours", "limit of 24 per run"]),
])
def test_a_config_beyond_the_machine_is_refused_naming_the_parameter(tmp_path, env, repro_main, experiment, setting,
                                                                     words):
    start = time.perf_counter()
    out = repro_main("run", experiment, "--set", setting, "--no-progress", cwd=tmp_path, env=env)
    line = _one_line(out)
    for w in [experiment, setting, "set by --set", "--ignore-limits", "nothing was run", *words]:
        assert w in line, (w, line)
    assert _cached(tmp_path / "res") == []
    assert time.perf_counter() - start < 30


def test_from_a_fresh_interpreter_the_refusal_is_one_line(tmp_path):
    full = dict(os.environ, PYTHONPATH=str(ROOT), REPRO_RESULTS_DIR=str(tmp_path / "res"))
    out = subprocess.run([sys.executable, "-m", "repro", "run", "fedsgm.figure1", "--set", "T=1000000000"],
                         cwd=tmp_path, env=full, capture_output=True, text=True, timeout=120)
    assert "T=1000000000" in _one_line(out) and _cached(tmp_path / "res") == []


@pytest.mark.parametrize("variable, value, words", [
    (limits.MEMORY_ENV, "1000", ["needs an estimated", "1000 bytes", f"${limits.MEMORY_ENV}"]),
    (limits.HOURS_ENV, "1e-9", ["core-hours", "limit of 1e-09 per run"]),
])
def test_the_flag_lifts_the_limit(tmp_path, env, repro_main, variable, value, words):
    env = env | {variable: value}
    line = _one_line(repro_main(*TINY, cwd=tmp_path, env=env))
    for w in ["fedclup.tradeoff run", "reps=2, rounds=2 (set by --set)", *words]:
        assert w in line, (w, line)
    assert _cached(tmp_path / "res") == []
    out = repro_main(*TINY, "--ignore-limits", cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr
    assert "1 computed" in out.stdout and len(_cached(tmp_path / "res")) == 1


@pytest.mark.parametrize("disabled", ["check_memory", "check_work"])
def test_perturbed_without_the_check_the_tiny_run_goes_through(tmp_path, env, repro_main, monkeypatch, disabled):
    """The refusals above come from the checks: with one disabled, the run its limit refuses is computed."""
    variable, value = {"check_memory": (limits.MEMORY_ENV, "1000"), "check_work": (limits.HOURS_ENV, "1e-9")}[disabled]
    monkeypatch.setattr(limits, disabled, lambda *a, **k: None)
    out = repro_main(*TINY, cwd=tmp_path, env=env | {variable: value})
    assert out.returncode == 0 and len(_cached(tmp_path / "res")) == 1, out.stderr


def test_a_memory_error_inside_a_run_is_one_line_naming_the_run_and_the_keys(tmp_path, env, repro_main):
    """The backstop: with the limits lifted, T = 10^15 rounds of 31 coordinates (220 PiB, beyond any address space)
    fails in its first allocation."""
    out = repro_main("run", "fedsgm.figure1", "--set", "T=1000000000000000", "--ignore-limits", "--jobs", "1",
                     "--no-progress", cwd=tmp_path, env=env)
    line = _one_line(out)
    for w in ["fedsgm.figure1 run (", "ran out of memory", "T=1000000000000000", "--ignore-limits lifted",
              "nothing was cached"]:
        assert w in line, (w, line)
    assert _cached(tmp_path / "res") == []


def _digest() -> str:
    return hashlib.sha256(TABLE.read_bytes()).hexdigest()


@pytest.mark.parametrize("args, words", [
    (("plan", "--calibrate", "--sample", "-1", "--write-table"), ["--sample=-1", "an integer >= 1"]),
    (("plan", "--calibrate", "--sample", "0", "--write-table"), ["--sample=0", "an integer >= 1"]),
    (("plan", "--sample", "5"), ["--sample=5", "without --calibrate"]),
    (("plan", "--calibrate"), ["repro/measured_costs.json", "--write-table"]),
    (("plan", "--write-table"), ["--write-table", "without --calibrate"]),
    (("run", "fedsgm.figure1", "--set", "profile=paper"), ['profile="paper"', "--profile"]),
    (("figures", "fedsgm.exact"), ["fedsgm.exact draws no figure", "fedsgm.figure1"]),
])
def test_plan_set_and_figures_misuses_are_refused(tmp_path, env, repro_main, args, words):
    before = _digest()
    line = _one_line(repro_main(*args, cwd=tmp_path, env=env))
    for w in words:
        assert w in line, (w, line)
    assert _digest() == before and _cached(tmp_path / "res") == []


@pytest.mark.parametrize("variable, value", [(limits.MEMORY_ENV, "lots"), (limits.HOURS_ENV, "-1")])
def test_a_bad_limit_variable_is_one_line(tmp_path, env, repro_main, variable, value):
    line = _one_line(repro_main(*TINY, cwd=tmp_path, env=env | {variable: value}))
    assert f"{variable}={value!r} is not admissible" in line, line


def test_the_paper_profile_of_every_modelled_experiment_is_within_the_default_limits(monkeypatch):
    """No false refusal: every run of either profile of the experiments with a memory model needs under 64 MiB, and
    their cost estimates are under the default limit."""
    from repro import costs
    from repro.registry import registry

    monkeypatch.delenv(limits.HOURS_ENV, raising=False)
    model = costs.CostModel(Path("/nonexistent-results"))
    modelled = {name: exp for name, exp in registry().items() if exp.memory is not None}
    assert {"fedsgm.figure1", "fedclup.figure4", "fedclup.tradeoff", "pcfedavg.rates"} <= set(modelled)
    for name, exp in modelled.items():
        for profile in ("quick", "paper"):
            specs = exp.specs(profile)
            assert max(exp.memory(s.config) for s in specs) < 64 * 2 ** 20, (name, profile)
            limits.check_work(specs, modelled, {}, model.estimate)


def test_array_bytes_sums_shapes_and_batch_members():
    model = limits.array_bytes(("m", "n"), ("m", 3), ("lams",), (lambda c: c["m"] + 1,))
    one = {"m": 2, "n": 5, "lams": [1, 2, 3, 4]}
    assert model(one) == 8 * (10 + 6 + 4 + 3)
    assert model({"members": [one, one | {"n": 1}]}) == 8 * (23 + 15)
    assert model.keys == ("m", "n", "lams")
    assert limits.size(3 * 2 ** 40) == "3 TiB" and limits.size(1000) == "1000 bytes"


def test_the_machine_memory_is_read_from_the_system_without_the_override(monkeypatch):
    monkeypatch.delenv(limits.MEMORY_ENV, raising=False)
    have, source = limits.machine_memory()
    assert have > 2 ** 20 and source in ("MemAvailable in /proc/meminfo", "physical memory")
    monkeypatch.setenv(limits.MEMORY_ENV, "12345")
    assert limits.machine_memory() == (12345, f"${limits.MEMORY_ENV}")
