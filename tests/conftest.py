"""Test configuration: hypothesis profiles, offline data, and isolated output folders.

Profiles: ``ci`` (derandomized, bounded example counts; `make test` uses it) and ``dev``
(the default: more examples, random). Tests never download (REPRO_OFFLINE=1) and never write
into the working tree's results/ or figures/.
"""
import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, max_examples=25, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _offline_and_isolated(monkeypatch, tmp_path_factory):
    monkeypatch.setenv("REPRO_OFFLINE", "1")
    monkeypatch.setenv("REPRO_RESULTS_DIR", str(tmp_path_factory.mktemp("results")))
    monkeypatch.setenv("REPRO_FIGURES_DIR", str(tmp_path_factory.mktemp("figures")))
    monkeypatch.delenv("REPRO_DASK_ADDRESS", raising=False)


@pytest.fixture
def repro_main(monkeypatch, capsys):
    """``python -m repro ARGS`` run in this process: the same :func:`repro.cli.main` the module entry point calls
    (argparse's exit included), without an interpreter start, in ``cwd`` with ``env`` added. Returns an object with
    ``returncode``, ``stdout`` and ``stderr``. Tests of bad input use it for their many cases; the subprocess tests
    keep representative ones, which also see what only a fresh interpreter shows (import-time warnings)."""
    from types import SimpleNamespace

    from repro.cli import main

    def run(*args, cwd, env=None):
        monkeypatch.chdir(cwd)
        for key, value in (env or {}).items():
            monkeypatch.setenv(key, value)
        capsys.readouterr()
        try:
            status = main(list(args))
        except SystemExit as exc:
            status = exc.code
        out = capsys.readouterr()
        return SimpleNamespace(returncode=status, stdout=out.out, stderr=out.err)
    return run


#: the tiny results fixture computes, of each experiment, its cheapest quick runs while they add up to at most this
#: many seconds (priced by the committed repro/measured_costs.json, so the choice is the same on every machine);
#: an experiment whose cheapest run costs more contributes nothing, and its claims are "not run" in those results
TINY_SECONDS_PER_EXPERIMENT = 1.5
TINY_RUNS_PER_EXPERIMENT = 3


def tiny_specs(names) -> dict:
    """``{experiment: specs}``: the cheapest quick-profile specs of each named experiment, within the budgets above."""
    from pathlib import Path

    from repro.costs import CostModel
    from repro.registry import get

    model = CostModel(Path(os.devnull))            # no cache: the committed table prices every run
    plan = {}
    for name in names:
        priced = sorted(((model.estimate(s) or float("inf"), i, s) for i, s in enumerate(get(name).specs("quick"))),
                        key=lambda t: t[:2])
        chosen, total = [], 0.0
        for seconds, _, spec in priced[:TINY_RUNS_PER_EXPERIMENT]:
            if total + seconds > TINY_SECONDS_PER_EXPERIMENT:
                break
            chosen.append(spec)
            total += seconds
        plan[name] = chosen
    return plan


@pytest.fixture(scope="session")
def shared_runs(tmp_path_factory):
    """``shared_runs(specs)`` -> their results, computed into a results cache shared by the session's xdist workers
    (the first worker to need a run computes it under a file lock; the others load it), never ./results."""
    import fcntl

    from repro import runner

    base = tmp_path_factory.getbasetemp()
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared-results"
    root.mkdir(exist_ok=True)

    def compute(specs) -> list:
        with open(root / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            return runner.run_all(list(specs), jobs=1, progress=False, results_root=root)
    return compute


@pytest.fixture(scope="session")
def tiny_results(shared_runs):
    """``tiny_results(names, extra)`` -> ``{experiment: results}`` of :func:`tiny_specs` (plus ``extra``:
    ``{experiment: specs}`` a test needs beyond them), computed once per test session (:func:`shared_runs`) and
    expanded into batch members as the audit reads them. What the cached-results tests of each paper check the
    audit against: real runs of every cheap experiment, on a clean clone too (nothing here reads ./results)."""
    from repro.report import plan_results

    def compute(names, extra=None) -> dict:
        plan = tiny_specs(names)
        for name, specs in (extra or {}).items():
            plan[name] = list(dict.fromkeys(plan.get(name, []) + list(specs)))
        return plan_results(plan, shared_runs(s for specs in plan.values() for s in specs))
    return compute


# ---------------------------------------------------------------------------- no skip but a platform condition
#: a skip is allowed only for a platform condition the test names: its reason starts with this (a data folder, a
#: program, not a git checkout), or it is ``pytest.importorskip`` of an optional library ("could not import ...").
#: Any other skip (a test that found no cached results, say) fails the session: on a clean clone every test runs.
PLATFORM_SKIP = ("platform: ", "could not import ")
_unexplained_skips: list[str] = []


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def pytest_runtest_logreport(report):
    if report.skipped and not hasattr(report, "wasxfail") and not _skip_reason(report).startswith(PLATFORM_SKIP):
        _unexplained_skips.append(f"{report.nodeid}: {_skip_reason(report)}")


def pytest_sessionfinish(session, exitstatus):
    if _unexplained_skips and not hasattr(session.config, "workerinput") and exitstatus == 0:
        session.exitstatus = 1
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line("")
            reporter.write_line(f"{len(_unexplained_skips)} skip(s) that name no platform condition (a test that "
                                f"cannot run here must say why: reason 'platform: ...'):", red=True)
            for line in _unexplained_skips:
                reporter.write_line(f"  {line}", red=True)
