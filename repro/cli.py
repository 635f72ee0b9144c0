"""Command line: ``python -m repro {list,run,status,plan,figures,audit,verdicts,errata,findings,html,notebooks,bounds}``.

Every user error (unknown experiment or profile, bad parameter, missing or corrupted data, unreachable
scheduler, unwritable results folder, a run that fails or diverges) prints one line ``error: ...`` on stderr
and exits with status 2, caching nothing from the failed run. Ctrl-C prints one line ``interrupted: ...``
and exits with status 130 (SIGTERM and SIGHUP the same, with 143 and 129); the runs finished before it stay cached
and a rerun resumes. An output that cannot be written (a full disk, ``> /dev/full``) is one ``error:`` line too.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys

from .errors import Interrupted, ReproError


def _parser() -> argparse.ArgumentParser:
    from repro.experiment import DEFAULT_PROFILE, PROFILES

    p = argparse.ArgumentParser(prog="python -m repro", description="fedbounds: check and reproduce "
                                "federated-optimization papers")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the registered experiments")

    def add_profile(sp):
        sp.add_argument("--profile", default=DEFAULT_PROFILE, help=f"one of {', '.join(PROFILES)} (default: quick)")

    def add_run_options(sp):
        add_profile(sp)
        sp.add_argument("--jobs", type=int, default=1, help="worker processes of the local pool")
        sp.add_argument("--scheduler", default=None,
                        help="dask.distributed scheduler address (default: $REPRO_DASK_ADDRESS)")
        sp.add_argument("--no-progress", action="store_true", help="hide the progress bars")

    run = sub.add_parser("run", help="run experiments (or 'all'), using cached results")
    run.add_argument("experiments", nargs="+", metavar="experiment", help="e.g. fedsgm.figure1, or 'all'")
    add_run_options(run)
    run.add_argument("--force", action="store_true", help="recompute even cached runs (the limits stay: see "
                     "--ignore-limits)")
    run.add_argument("--ignore-limits", action="store_true",
                     help="run even a config whose estimated memory or core-hours per run exceed what the machine has "
                          "($REPRO_MEMORY_LIMIT bytes, else MemAvailable) or $REPRO_MAX_RUN_HOURS (default 24); "
                          "without it such a run is refused before anything starts (repro/limits.py)")
    run.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="overrides",
                     help="override a config value of the runs whose config has KEY (VALUE parsed as JSON), e.g. --set eta=0.05")
    status = sub.add_parser("status", help="which runs are cached, stale (and why) or missing")
    status.add_argument("experiments", nargs="*", metavar="experiment", help="default: all")
    add_profile(status)
    status.add_argument("--verbose", action="store_true", help="one line per run that is not cached")
    plan = sub.add_parser("plan", help="number of runs and estimated core-hours of a profile")
    plan.add_argument("experiments", nargs="*", metavar="experiment", help="default: all")
    add_profile(plan)
    plan.add_argument("--jobs", type=int, default=2, help="cores to divide the estimate by (default 2)")
    plan.add_argument("--calibrate", action="store_true",
                      help="with --write-table: write repro/measured_costs.json from the cached runs' wall times")
    plan.add_argument("--write-table", action="store_true",
                      help="with --calibrate: allow overwriting the tracked repro/measured_costs.json")
    plan.add_argument("--sample", type=int, default=None, metavar="K",
                      help="with --calibrate: first compute K >= 1 runs of every experiment of the profile, "
                           "the largest, the smallest and evenly spaced ones between")
    figures = sub.add_parser("figures", help="run what is missing, then write every figure")
    figures.add_argument("experiments", nargs="*", metavar="experiment", help="default: all with a figure")
    add_run_options(figures)
    figures.add_argument("--paper", action="append", default=[], dest="papers", metavar="KEY",
                         help="only this paper's figures (repeatable; default: every paper)")
    audit = sub.add_parser("audit", help="run what is missing, then write reports/audit.md")
    add_run_options(audit)
    audit.add_argument("--paper", action="append", default=[], dest="papers", metavar="KEY",
                       help="only this paper's section (repeatable; default: every paper)")
    audit.add_argument("--output", default="reports/audit.md")
    verdicts = sub.add_parser("verdicts", help="the computed verdict of every claim (running what is missing)")
    verdicts.add_argument("papers", nargs="*", metavar="paper", help="paper keys (default: all)")
    verdicts.add_argument("--verbose", action="store_true",
                          help="the whole reason and every piece of evidence (default: one line of at most "
                               "120 characters per claim)")
    add_run_options(verdicts)
    err = sub.add_parser("errata", help="the errata of each paper, false statements first: kind, where, what is "
                         "wrong, the claims it affects, the replay (running what is missing)")
    err.add_argument("papers", nargs="*", metavar="paper", help="paper keys (default: all)")
    err.add_argument("--json", action="store_true", help="print the errata as JSON (one object per paper)")
    add_run_options(err)
    fnd = sub.add_parser("findings", help="re-run the computation behind every finding (or one, --id) and print "
                         "what it decides now")
    fnd.add_argument("papers", nargs="*", metavar="paper", help="paper keys (default: all)")
    fnd.add_argument("--id", dest="finding", default=None, help="only this finding (e.g. fedsgm.mode)")
    add_run_options(fnd)
    site = sub.add_parser("html", help="write the static HTML report (reports/html) from reports/*.md and the "
                          "executed notebooks, and check that every link and image resolves")
    site.add_argument("--output", default="reports/html")
    nb = sub.add_parser("notebooks", help="execute notebooks/*.py into notebooks/*.ipynb")
    nb.add_argument("names", nargs="*", help="paper keys (default: all)")
    bounds = sub.add_parser("bounds", help="print every encoded claim of a paper")
    bounds.add_argument("paper")
    bounds.add_argument("--latex", action="store_true", help="print LaTeX instead of text")
    return p


def _names(requested) -> list[str]:
    from .registry import get, registry

    if not requested or "all" in requested:
        return list(registry())
    return [get(name).name for name in requested]


def _plan(names, profile, overrides=None) -> dict:
    """Every experiment's specs, overrides applied and every config validated, before anything runs."""
    from . import overrides as ov
    from repro.experiment import check_profile
    from .registry import get

    check_profile(profile)
    return {name: ov.apply(get(name), get(name).specs(profile), overrides or {}) for name in names}


def _run(names, args, *, force=False, overrides=None) -> dict:
    """One batch over all named experiments (one worker pool), results grouped by experiment."""
    from . import costs, limits, runner
    from .registry import get

    plan = _plan(names, args.profile, overrides)
    if not 1 <= args.jobs <= 512:
        raise ReproError(f"--jobs={args.jobs} is not admissible: an integer between 1 and 512")
    root = runner.resolve_results_root()

    estimate = costs.lazy_estimate(root, {name: get(name) for name in names})    # order and ETA, also without bars
    flat = [spec for specs in plan.values() for spec in specs]
    lifted = getattr(args, "ignore_limits", False)
    admit = None if lifted else (lambda runs: limits.check(runs, overrides or {}, estimate))
    try:
        results = runner.run_all(flat, jobs=args.jobs, scheduler=args.scheduler, progress=not args.no_progress,
                                 force=force, estimate=estimate, admit=admit)
    except MemoryError as exc:               # the backstop (repro.limits): a size no memory model covers
        raise limits.out_of_memory(exc, overrides or {}, lifted) from None
    out, start = {}, 0
    for name, specs in plan.items():
        out[name], start = results[start:start + len(specs)], start + len(specs)
    return out


def _draw(name: str, specs, profile: str) -> list[str]:
    """One experiment's figures from its cached results (loaded here, in the worker that draws them)."""
    from . import runner
    from .batches import members
    from .registry import get
    return [str(path) for path in get(name).figure(members(runner.run_all(specs, jobs=1, progress=False)), profile)]


def _draw_all(plan: dict, profile: str, jobs: int) -> list[list[str]]:
    """Every experiment's figures, ``jobs`` experiments at a time (joblib processes: drawing is single-threaded
    matplotlib), in the order of ``plan``."""
    if jobs == 1 or len(plan) == 1:
        return [_draw(name, specs, profile) for name, specs in plan.items()]
    from joblib import Parallel, delayed
    return Parallel(n_jobs=min(jobs, len(plan)), batch_size=1)(
        delayed(_draw)(name, specs, profile) for name, specs in plan.items())


def _check_calibration(args) -> None:
    """``--sample`` only with ``--calibrate`` and as an integer >= 1; ``--calibrate`` rewrites the tracked
    ``repro/measured_costs.json`` only with ``--write-table`` (a calibration over a quick cache would replace the
    reference machine's rates by those of small runs), and ``--write-table`` only with ``--calibrate``."""
    if args.sample is not None and not args.calibrate:
        raise ReproError(f"--sample={args.sample} is not admissible without --calibrate: it picks the runs a "
                         "calibration computes first")
    if args.sample is not None and args.sample < 1:
        raise ReproError(f"--sample={args.sample} is not admissible: an integer >= 1 (runs per experiment)")
    if args.calibrate and not args.write_table:
        raise ReproError("plan --calibrate overwrites the tracked repro/measured_costs.json: add --write-table to "
                         "write it (see benchmarks/README.md)")
    if args.write_table and not args.calibrate:
        raise ReproError("--write-table is not admissible without --calibrate: only a calibration writes the table")


def _cmd_plan(args) -> None:
    from . import costs, runner

    root = runner.resolve_results_root()
    _check_calibration(args)
    if args.calibrate:
        if args.sample:
            plan = _plan(_names(args.experiments), args.profile)
            everything = [s for specs in plan.values() for s in specs]
            sample = costs.calibration_runs(everything, costs.registry(), args.sample)
            runner.run_all(sample, jobs=args.jobs, progress=True)
        print(costs.calibrate(root, args.profile))
        return
    if not 1 <= args.jobs <= 100000:
        raise ReproError(f"--jobs={args.jobs} is not admissible: an integer >= 1 (cores)")
    rows, unknown = costs.profile_cost(_plan(_names(args.experiments), args.profile), root)
    print(f"{'experiment':24s} {'runs':>6s} {'cached':>6s} {'core-s to run':>14s}  rate from")
    for row in rows:
        print(f"{row['experiment']:24s} {row['runs']:6d} {row['cached']:6d} {row['seconds']:14.0f}  "
              f"{'; '.join(row['sources'])}")
    total_runs, hours = sum(row["runs"] for row in rows), sum(row["seconds"] for row in rows) / 3600
    print(f"profile {args.profile}: {int(total_runs)} runs; estimated {hours:.2f} core-hours still to compute, "
          f"{hours / args.jobs:.2f} h on {args.jobs} cores (runs are independent: the wall time divides by the "
          f"number of cores up to the longest run; a run that several experiments list is counted under the "
          f"first)")
    if unknown:
        print(f"no measurement for: {', '.join(unknown)} (not included; run them once at the quick profile)")


def _cmd_figures(args) -> None:
    """Run what the named experiments' figures need, then draw them; a named experiment without a figure is a
    one-line error naming those with one (``all`` or no name: every experiment with a figure); ``--paper`` keeps the
    named papers' experiments only (the Makefile draws each paper's figures as a step of its own), and only those
    papers are imported."""
    from .registry import check_paper, get, paper, registry
    keys = sorted({check_paper(key) for key in args.papers}, key=lambda key: (paper(key).order, key))
    every = not args.experiments or "all" in args.experiments
    candidates = ([exp.name for key in keys for exp in paper(key).experiments] if every and keys
                  else _names(args.experiments or ["all"]))
    names = [n for n in candidates if get(n).figure is not None and (not keys or n.split(".")[0] in keys)]
    bare = [n for n in _names(args.experiments) if get(n).figure is None] if not every else []
    if bare:
        raise ReproError(f"{', '.join(bare)} {'draws' if len(bare) == 1 else 'draw'} no figure: the experiments with "
                         f"one are {', '.join(n for n, e in registry().items() if e.figure is not None)}")
    plan = {name: [r.spec for r in results] for name, results in _run(names, args).items()}
    for paths in _draw_all(plan, args.profile, args.jobs):
        print("\n".join(paths))


def _cmd_bounds(args) -> None:
    from .registry import paper

    for claim in paper(args.paper).claims:
        print(f"{claim.id}  [{claim.mode.value}, {claim.provenance.value}]  {claim.location}")
        print(f"    {claim.latex() if args.latex else claim.statement}")


#: the width of one line of terminal output (``repro verdicts`` without ``--verbose``)
WIDTH = 120


def _fit(line: str) -> str:
    """``line`` cut to :data:`WIDTH` characters, with "..." where it was cut."""
    return line if len(line) <= WIDTH else line[:WIDTH - 3].rstrip() + "..."


def _cmd_verdicts(args) -> None:
    from .registry import check_paper, paper as interface, papers
    from .audited import paper_verdicts
    from .report import experiment_results

    for paper in [check_paper(p) for p in args.papers] or list(papers()):
        record = interface(paper)
        results = experiment_results(record.audit_experiments(), args.profile, jobs=args.jobs,
                                     scheduler=args.scheduler, progress=not args.no_progress)
        print(f"{record.title} [{args.profile}]"[:WIDTH])
        verdicts = paper_verdicts(paper, results)
        width = max(len(v.claim) for v in verdicts)
        for v in verdicts:
            head = f"  {v.claim:{width}s}  {v.verdict.value:21s} "
            if args.verbose:
                print(head + v.reason)
                for e in v.evidence:
                    print(f"      {e.bearing.value}: {e.source}: {e.summary}")
            else:
                print(_fit(head + v.reason))


def _paper_errata(paper: str, args) -> list:
    from .registry import paper as interface
    from .audited import paper_verdicts
    from .report import experiment_results, paper_errata
    results = experiment_results(interface(paper).audit_experiments(), args.profile, jobs=args.jobs, scheduler=args.scheduler,
                                 progress=not args.no_progress)
    return paper_errata(paper, results, paper_verdicts(paper, results))


def _cmd_errata(args) -> None:
    """Per paper: one block per erratum (kind, id, where; the plain sentence; the claims it affects; the replay)."""
    import textwrap
    from .registry import check_paper, paper as interface, papers
    from .pages import with_places
    from .report import _affects
    keys = [check_paper(p) for p in args.papers] or list(papers())
    if args.json:
        import json
        print(json.dumps({paper: [e.as_dict() for e in _paper_errata(paper, args)] for paper in keys}, indent=1))
        return
    for paper in keys:
        reports = _paper_errata(paper, args)
        print(f"{interface(paper).title} [{args.profile}]: {len(reports)} errata")
        for e in reports:
            print(f"  {e.kind.value:16s} {e.id}  ({with_places(paper, e.where)})")
            for line in textwrap.wrap(e.sentence, 100, initial_indent=" " * 6, subsequent_indent=" " * 6,
                                      max_lines=4, placeholder=" ..."):
                print(line)
            if e.numbers:
                print(f"      worst instance: {e.numbers}")
            print(f"      affects: {_affects(paper, e, link=False)}")
            if e.replay:
                print(f"      replay: {e.replay}")


def _cmd_findings(args) -> None:
    """Each finding is re-decided by its gate; those that need results load them (running what is missing)."""
    from .registry import check_paper, paper as interface, papers
    from .report import experiment_results
    from bounds.audit import NOT_CHECKABLE

    keys = [check_paper(p) for p in args.papers] or [p for p in papers()
                                                     if not args.finding or args.finding.startswith(p + ".")]
    shown = 0
    for paper in keys:
        record = interface(paper)
        found = record.findings({})
        if args.finding is None or args.finding not in {f.id for f in found if f.verdict != NOT_CHECKABLE}:
            found = record.findings(experiment_results(record.audit_experiments(), args.profile, jobs=args.jobs,
                                                       scheduler=args.scheduler, progress=not args.no_progress))
        for f in found:
            if args.finding in (None, f.id):
                again = {g.id: g for g in f.gate()}.get(f.id)
                verdict = again.verdict if again else "no longer found"
                print(f"{f.id}  [{f.kind}] {verdict}  (computed by {f.gate.name})\n    {f.summary}\n"
                      f"    evidence: {f.evidence}")
                shown += 1
    if args.finding and not shown:
        raise ReproError(f"--id={args.finding} is not a finding of {', '.join(keys) or 'any paper'}: see "
                         "`python -m repro findings` for the list")


def _cmd_html(args) -> None:
    from pathlib import Path
    from .html import write_site

    print(write_site(Path(args.output)))        # built aside, swapped in when every link resolves


def _dispatch(args) -> None:
    if args.command == "list":
        from .registry import registry
        for name, exp in registry().items():
            print(f"{name:24s} {exp.description}")
    elif args.command == "run":
        from . import overrides as ov
        for name, results in _run(_names(args.experiments), args, force=args.force,
                                  overrides=ov.parse(args.overrides)).items():
            fresh = sum(not r.cached for r in results)
            print(f"{name}: {len(results)} runs ({fresh} computed, {len(results) - fresh} cached)")
    elif args.command == "status":
        from . import runner, status
        print(status.report(_plan(_names(args.experiments), args.profile), runner.resolve_results_root(),
                            verbose=args.verbose))
    elif args.command == "plan":
        _cmd_plan(args)
    elif args.command == "figures":
        _cmd_figures(args)
    elif args.command == "audit":
        from .report import write_audit
        print(write_audit(args.output, profile=args.profile, jobs=args.jobs, scheduler=args.scheduler,
                          progress=not args.no_progress, papers=args.papers or None))
    elif args.command == "notebooks":
        from .notebooks import execute_notebooks
        for path in execute_notebooks(args.names):
            print(path)
    elif args.command == "bounds":
        _cmd_bounds(args)
    elif args.command == "verdicts":
        _cmd_verdicts(args)
    elif args.command == "errata":
        _cmd_errata(args)
    elif args.command == "findings":
        _cmd_findings(args)
    elif args.command == "html":
        _cmd_html(args)


def _stop_on_signals() -> tuple[list[int], dict]:
    """SIGTERM and SIGHUP stop a command as Ctrl-C does (a KeyboardInterrupt: the runner stops its workers, the
    finished runs stay cached, one ``interrupted:`` line); returns the list the received signal is recorded in and
    the handlers to restore. A signal that was ignored when the command started (``nohup``) stays ignored; a second
    signal while the first is handled is only recorded. Only the main thread can install handlers."""
    import signal
    import threading
    received: list[int] = []

    def handler(signum, frame):
        received.append(signum)
        if len(received) == 1:
            raise KeyboardInterrupt
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", signal.SIGTERM)):     # no SIGHUP on Windows
            if sig not in previous and signal.getsignal(sig) is not signal.SIG_IGN:
                previous[sig] = signal.signal(sig, handler)
    return received, previous


def _os_error(exc: OSError) -> str:
    """The one line for an OSError: an output that cannot be written (a full disk, ``> /dev/full``, a folder that is
    not writable). One without a file name is a stream's (standard output, or a file being written): standard output
    is then pointed at /dev/null, so that the flush at exit does not fail again with a traceback."""
    if exc.filename:
        return f"{exc.strerror or type(exc).__name__}: {exc.filename}"
    with contextlib.suppress(OSError, ValueError):          # a stdout without a descriptor (a test's capture)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return f"cannot write the output: {exc.strerror or exc}"


def main(argv=None) -> int:
    import signal
    args = _parser().parse_args(argv)
    received, previous = _stop_on_signals()
    try:
        _dispatch(args)
        sys.stdout.flush()                   # a closed pipe fails here, inside the handlers below
    except BrokenPipeError:                  # the reader stopped early (`... | head`): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141                           # 128 + SIGPIPE, as a shell reports it
    except (Interrupted, KeyboardInterrupt) as exc:
        message = str(exc).strip() if isinstance(exc, Interrupted) else "interrupted: rerun to resume"
        print(message, file=sys.stderr)
        return 128 + (received[0] if received else signal.SIGINT)      # 130, 143 (SIGTERM), 129 (SIGHUP)
    except (ReproError, ValueError, KeyError) as exc:
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"error: {message}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {_os_error(exc)}", file=sys.stderr)
        return 2
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0
