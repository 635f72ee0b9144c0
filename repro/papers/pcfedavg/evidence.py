"""The evidence about PC-FedAvg's claims that the audit computes from the runs, besides the findings: the per-run
checks of ``pcfedavg.theory`` and ``pcfedavg.exact`` (exact expectations over every noise path; Lemma 4.4 stated
pathwise) tallied per claim, separately on each reading of Algorithm 1 (line 8 as printed or (CR), :mod:`.errata`)
(:func:`_theory_evidence`, :func:`_exact_evidence`, through :func:`_per_run` and :func:`_from_runs`), the random search
of ``pcfedavg.adversarial`` over every run-level claim (:func:`_search_evidence`), its one-active-constraint runs
against Prop. 4.8 (ii) (:func:`_one_active_evidence`, :data:`ONE_ACTIVE_TOL`) and the fitted exponents of R of
``pcfedavg.rates``, finite-R slopes that cannot decide Theorem 3.4 (:func:`_rate_evidence`). Besides: the table of
re-derived proof steps (:func:`_steps`, from :func:`bounds.pcfedavg.findings.proof_steps`) and a run's replay command,
update path and reading of Algorithm 1 (:func:`_replay`, :func:`_path`, :func:`_reading`), which the statements and the
section cite too.

:func:`.audit.claim_evidence` adds the evidence from the re-derived proof steps (:func:`.audit._step_evidence`), the
findings, the optimisation-based search, the certified worst cases, the stepwise proof checks and the modes no finite
computation decides; the evidence about Section 5's statements on Figures 1-4 is in :mod:`.statements`.
"""
from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np

from bounds.pcfedavg import claims as B
from bounds.pcfedavg import findings as BF
from repro.papers.pcfedavg import errata as ERR
from repro.tables import fmt
from repro.verdicts import UNDECIDABLE_MODES, Bearing, Evidence, from_checks
from repro.papers.pcfedavg.checks import THEORY_CLAIM_IDS
from repro.papers.pcfedavg.summaries import one_active_runs, rate_fits


#: a deterministic one-active run within this relative distance of its bound is inconclusive (solver precision)
ONE_ACTIVE_TOL = 1e-9


@functools.cache
def _steps() -> tuple:
    return tuple(BF.proof_steps())


def _replay(experiment: str, run, extra: str = "") -> str:
    return f"python -m repro run {experiment}; result {run.hash}" + extra


def _per_run(runs, claim_id: str) -> list[dict]:
    """Per run that reports ``claim_id``: judged (hypotheses met on some outcome), failed, inconclusive, worst
    finite observed/bound over the judged outcomes."""
    out = []
    for r in runs:
        a = r.arrays
        idx = np.flatnonzero(a["claim_id"] == claim_id)
        if not idx.size:
            continue
        met = a["hypotheses_met"][idx].astype(bool)
        passed, inc = a["passed"][idx].astype(bool)[met], a["inconclusive"][idx].astype(bool)[met]
        ratios = a["ratio"][idx][met]
        ratios = ratios[np.isfinite(ratios)]
        failed = bool(np.any(~passed))
        out.append({"run": r, "judged": bool(met.any()), "failed": failed,
                    "inconclusive": not failed and bool(np.any(inc)),
                    "worst": float(ratios.max()) if ratios.size else None})
    return out


def _from_runs(claim_id: str, source: str, experiment: str, per_run: list[dict]) -> list[Evidence]:
    if not per_run:
        return []
    failing = [p for p in per_run if p["judged"] and p["failed"]]
    worsts = [p["worst"] for p in per_run if p["judged"] and p["worst"] is not None]
    worst_fail = max(failing, key=lambda p: -np.inf if p["worst"] is None else p["worst"]) if failing else None
    return from_checks(claim_id, source, checks=len(per_run), failed=len(failing),
                       inconclusive=sum(p["judged"] and p["inconclusive"] for p in per_run),
                       not_judged=sum(not p["judged"] for p in per_run),
                       worst=max(worsts) if worsts else None,
                       replay=_replay(experiment, worst_fail["run"]) if worst_fail else "")


def _path(run) -> str:
    return run.spec.config.get("path", "compact")


def _reading(run) -> tuple:
    """The reading of Algorithm 1 a run was computed on (line 8 as printed or (CR): :mod:`.errata`)."""
    return ((ERR.LINE8_ID, ERR.PATH_READING[_path(run)]),)


def _by_path(source: str, experiment: str, runs) -> list[Evidence]:
    """Every claim's evidence from ``runs``, separately on each update path, tagged with its reading."""
    out = []
    for path in ERR.PATH_READING:
        mine = [r for r in runs if _path(r) == path]
        for claim in B.CLAIMS:
            out += [replace(e, reading=_reading(mine[0])) for e in
                    _from_runs(claim.id, source, experiment, _per_run(mine, claim.id))]
    return out


def _theory_evidence(theory_runs) -> list[Evidence]:
    """``pcfedavg.theory``: the grid's per-run checks, on each reading of Algorithm 1."""
    return _by_path("pcfedavg.theory", "pcfedavg.theory", theory_runs)


def _exact_evidence(exact_runs) -> list[Evidence]:
    """``pcfedavg.exact``: every claim judged on exact expectations over all noise paths (method "exact
    probability"), on each reading of Algorithm 1; for Lemma 4.4, stated pathwise, a path that fails it is a
    violation."""
    return _by_path("pcfedavg.exact", "pcfedavg.exact", exact_runs)


def _search_evidence(adversarial) -> list[Evidence]:
    """The random search checks every run-level claim on each of ``budget`` instances; it lists its failures
    (trial, claim, relation), the first 50 of them."""
    out = []
    for r in [r for r in adversarial if r.spec.config.get("search") != "one_active"]:
        budget, listed = int(r.spec.config["budget"]), r.meta["metadata"]["failures"]
        complete = len(listed) == int(r.arrays["n_failures"])
        best = r.meta["metadata"]["best"]
        for cid in THEORY_CLAIM_IDS:
            trials = sorted({int(t) for t, c, _ in listed if c == cid})
            if not trials and not complete:
                continue                       # its failures may be among those not listed
            worst = best.get(cid, {}).get("ratio")
            out += from_checks(cid, "pcfedavg.adversarial (random search)", checks=budget, failed=len(trials),
                               worst=None if worst is None or not np.isfinite(worst) else float(worst),
                               replay=_replay("pcfedavg.adversarial", r, f" (trial {trials[0]})") if trials else "",
                               reading=((ERR.LINE8_ID, ERR.PATH_READING["compact"]),))
    return out


def _one_active_evidence(adversarial) -> list[Evidence]:
    """Prop. 4.8 (ii) on the one-active-constraint runs, on each reading of Algorithm 1: observed/bound > 1 (beyond
    :data:`ONE_ACTIVE_TOL`) with the hypotheses met violates; the worst run's own E d_1^2 and bound are cited."""
    out = []
    for path in ERR.PATH_READING:
        runs = one_active_runs(adversarial, path)
        if not runs:
            continue
        judged = [r for r in runs if bool(r.arrays["hypotheses_met"])]
        ratio = {r.hash: float(r.arrays["ratio"]) for r in runs}
        failing = [r for r in judged if ratio[r.hash] > 1 + ONE_ACTIVE_TOL]
        close = [r for r in judged if 1 < ratio[r.hash] <= 1 + ONE_ACTIVE_TOL]
        worst = max(judged, key=lambda r: ratio[r.hash]) if judged else None
        out += from_checks("pcfedavg.prop4.8.ii", "pcfedavg.adversarial (one active constraint)", checks=len(runs),
                           failed=len(failing), inconclusive=len(close), not_judged=len(runs) - len(judged),
                           worst=ratio[worst.hash] if worst else None, reading=_reading(runs[0]),
                           observed=float(worst.arrays["infeas"].max()) if worst else None,
                           bound=float(worst.arrays["bound"]) if worst else None,
                           replay=_replay("pcfedavg.adversarial", worst, f" (m = {worst.spec.config['m']}, "
                                          f"K = {worst.spec.config['K']})") if failing else "")
    return out


def _rate_evidence(rates) -> list[Evidence]:
    """The fitted exponents of R on the rate sweep: finite-R slopes, so they cannot decide Theorem 3.4."""
    fits = rate_fits(rates)
    if not fits:
        return []
    claim_of = {"subopt": "pcfedavg.thm3.4.i", "infeas": "pcfedavg.thm3.4.ii"}
    out = []
    for q, cid in claim_of.items():
        mode = B.claim(cid).mode
        slopes = "; ".join(f"{rule} {fmt(fits[rule][q]['slope'], 3)}" for rule in fits)
        out.append(Evidence(cid, "pcfedavg.rates", Bearing.NOT_CHECKABLE,
                            f"fitted exponent of R ({slopes}) is a finite-R slope; "
                            + UNDECIDABLE_MODES.get(mode, "a slope is not a bound"), len(fits)))
    return out
