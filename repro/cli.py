"""Command line: ``python -m repro {list,run,figures,audit,notebooks,bounds}``.

Every user error (unknown experiment or profile, bad parameter, missing or corrupted data)
prints one line ``error: ...`` on stderr and exits with status 2, writing nothing.
"""
from __future__ import annotations

import argparse
import sys

from .errors import ReproError


def _parser() -> argparse.ArgumentParser:
    from .experiments.base import DEFAULT_PROFILE, PROFILES

    p = argparse.ArgumentParser(prog="python -m repro", description="fedbounds: check and reproduce "
                                "federated-optimization papers")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the registered experiments")

    def add_run_options(sp):
        sp.add_argument("--profile", default=DEFAULT_PROFILE, help=f"one of {', '.join(PROFILES)} (default: quick)")
        sp.add_argument("--jobs", type=int, default=1, help="worker processes (joblib/loky)")
        sp.add_argument("--scheduler", default=None,
                        help="dask.distributed scheduler address (default: $REPRO_DASK_ADDRESS)")
        sp.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    run = sub.add_parser("run", help="run one experiment (or 'all'), using cached results")
    run.add_argument("experiment", help="experiment name, e.g. fedsgm.figure1, or 'all'")
    add_run_options(run)
    run.add_argument("--force", action="store_true", help="recompute even cached runs")
    run.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="overrides",
                     help="override a config value of every run (VALUE parsed as JSON), e.g. --set eta=0.05")
    figures = sub.add_parser("figures", help="run what is missing, then write every figure")
    add_run_options(figures)
    audit = sub.add_parser("audit", help="run what is missing, then write reports/audit.md")
    add_run_options(audit)
    audit.add_argument("--output", default="reports/audit.md")
    nb = sub.add_parser("notebooks", help="execute notebooks/*.py into notebooks/*.ipynb")
    nb.add_argument("names", nargs="*", help="paper keys (default: all)")
    bounds = sub.add_parser("bounds", help="print every encoded claim of a paper")
    bounds.add_argument("paper")
    bounds.add_argument("--latex", action="store_true", help="print LaTeX instead of text")
    return p


def _parse_overrides(items) -> dict:
    import json

    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ReproError(f"--set {item!r} is not admissible: use KEY=VALUE, e.g. --set eta=0.05")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def _specs(exp, profile, overrides):
    """The experiment's specs with overrides applied; every config validated before anything runs."""
    from .runner import RunSpec

    specs = exp.specs(profile)
    if overrides:
        unknown = sorted(set(overrides) - set(specs[0].config))
        if unknown:
            raise ReproError(f"--set {unknown[0]} is not admissible for {exp.name}: known keys "
                             f"{', '.join(sorted(specs[0].config))}")
        specs = [RunSpec(s.experiment, s.config | overrides, s.seed, s.function) for s in specs]
    if exp.validate is not None:
        for s in specs:
            exp.validate(s.config)
    return specs


def _run(names, args, *, force=False, overrides=None):
    from . import runner
    from .experiments.base import check_profile
    from .registry import get

    check_profile(args.profile)
    plan = {name: _specs(get(name), args.profile, overrides or {}) for name in names}
    return {name: runner.run_all(specs, jobs=args.jobs, scheduler=args.scheduler,
                                 progress=not args.no_progress, force=force) for name, specs in plan.items()}


def _cmd_bounds(args) -> None:
    import importlib

    from .registry import PAPERS

    if args.paper not in PAPERS:
        raise ReproError(f"paper={args.paper!r} is not admissible: one of {', '.join(PAPERS)}")
    module = importlib.import_module(f"bounds.{args.paper}")
    for claim in module.CLAIMS:
        print(f"{claim.id}  [{claim.mode.value}, {claim.provenance.value}]  {claim.location}")
        print(f"    {claim.latex() if args.latex else claim.statement}")


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "list":
            from .registry import registry
            for name, exp in registry().items():
                print(f"{name:24s} {exp.description}")
        elif args.command == "run":
            from .registry import get, registry
            names = list(registry()) if args.experiment == "all" else [get(args.experiment).name]
            overrides = _parse_overrides(args.overrides)
            for name, results in _run(names, args, force=args.force, overrides=overrides).items():
                fresh = sum(not r.cached for r in results)
                print(f"{name}: {len(results)} runs ({fresh} computed, {len(results) - fresh} cached)")
        elif args.command == "figures":
            from .registry import registry
            reg = registry()
            with_figures = [n for n, e in reg.items() if e.figure is not None]
            for name, results in _run(with_figures, args).items():
                for path in reg[name].figure(results, args.profile):
                    print(path)
        elif args.command == "audit":
            from .report import write_audit
            print(write_audit(args.output, profile=args.profile, jobs=args.jobs, scheduler=args.scheduler,
                              progress=not args.no_progress))
        elif args.command == "notebooks":
            from .notebooks import execute_notebooks
            for path in execute_notebooks(args.names):
                print(path)
        elif args.command == "bounds":
            _cmd_bounds(args)
    except (ReproError, ValueError, KeyError) as exc:
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"error: {message}", file=sys.stderr)
        return 2
    return 0
