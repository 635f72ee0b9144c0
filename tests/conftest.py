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
