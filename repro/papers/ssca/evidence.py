"""The evidence about Mini-batch SSCA's claims that the audit computes from the runs, besides the findings:

* ``ssca.convergence``, Lemma 4 (51) at every iteration of every M = 0 run (:func:`_lemma4_outcomes`,
  :func:`_lemma4_evidence`): one check per run through :func:`repro.verdicts.from_checks` (a run with a violation
  beyond the float tolerance violates, one within it is inconclusive; the replay names the worst failing run,
  :func:`_per_run_evidence`);
* ``ssca.figure2`` / ``ssca.figure3``, the closed forms (35)-(36) (formulation 27) and (40)-(42) (formulation 37)
  against cvxpy on the runs' own iterates (:func:`_closed_form_evidence`): one check per comparison (the relation
  ``closed_form_error <= 0`` of the claim through :func:`repro.verify.check_relation` with the solver tolerance
  :data:`CLOSED_FORM_TOL`; a comparison whose reference is not solved to optimality is not judged);
* ``ssca.theorem5``, the targeted instances of Theorem 5 (:func:`_theorem5_evidence`): part (i) one check per (seed,
  lambda) whose w* is a certified local minimiser of (27) (a positive local-optimality violation beyond
  :data:`THM5_TOL` violates, with its replay; one within it is inconclusive); part (ii) one check per (seed, U) whose
  w+ is a KKT point of (37) with xi > 0 (:data:`KKT_TOL`), and the printed second-order condition (Hess F + lambda I
  >= 0 must give a positive definite Hessian of (27)) where it holds;
* a claim whose mode no finite run can decide (:data:`repro.verdicts.UNDECIDABLE_MODES`: almost-sure limits, order
  statements) gets ``not checkable`` evidence from its mode (:func:`_mode_evidence`), and, where
  ``ssca.convergence`` logs the quantities its proof says vanish, the trend on the runs inside its step-size
  hypotheses (4) and (6) (:func:`_trend_evidence`, :data:`_TREND_SCOPE`; also ``not checkable``: a trend decides no
  limit).

Besides: the claims' ids in order (:data:`CLAIM_IDS`) and a run's replay command (:func:`_replay`), which the
statements and the section use too, and the words for what ``ssca.exact`` enumerates (:data:`_MINIBATCH_PATTERN`).

:func:`.audit.evidence` adds the findings, the adversarial search, the certified worst cases, the exact failure
probabilities and the stepwise proof checks; the evidence about the statements on Figures 2-4 is in
:mod:`.statements`.
"""
from __future__ import annotations

import numpy as np

from bounds.ssca import claims as B
from repro.papers.ssca import checks as V
from repro.papers.ssca.runs import convergence as conv
from repro.tables import fmt, select_results
from repro.verdicts import Bearing, Evidence, from_checks, from_modes
from repro.verify import check_claims, check_relation

CLAIM_IDS = tuple(c.id for c in B.CLAIMS)

#: Tolerances of the per-run checks. Closed forms: the relative accuracy of the cvxpy reference (the tests compare
#: the closed forms with cvxpy to the same 1e-6); a difference above float rounding but within it is inconclusive.
CLOSED_FORM_TOL = 1e-6
#: Theorem 5 (i): the probes accept F <= U and SLSQP points F <= U + 1e-12, so a norm gain in (0, 1e-9] is within the
#: solver's slack (inconclusive), above it a violation.
THM5_TOL = 1e-9
#: Theorem 5 (ii): w+ counts as a KKT point of (37) (the theorem's hypothesis) when ||2 w + xi grad F|| <= this, and
#: the stationarity residual of (27) with lambda = 1/xi is judged against the same tolerance.
KKT_TOL = 1e-6

#: which convergence runs bear on which theorem: (problems, algorithm mode, observed array)
_TREND_SCOPE = {
    "ssca.thm1": (conv.PROBLEMS[:2], "sample", "kkt"), "ssca.thm3": (conv.PROBLEMS[:2], "feature", "kkt"),
    "ssca.thm2": (conv.PROBLEMS[2:], "sample", "kkt"), "ssca.thm4": (conv.PROBLEMS[2:], "feature", "kkt"),
    "ssca.lemma2": (conv.PROBLEMS[:2], None, "tracking"),
    "ssca.lemma5": (conv.PROBLEMS[2:], None, ("tracking_value", "tracking", "surrogate_gap")),
    "ssca.lemma6": (conv.PROBLEMS[2:], None, ("tracking_value", "tracking")),
}
_TREND_NAMES = {"kkt": "KKT residual", "tracking": "tracking error", "tracking_value": "value tracking error",
                "surrogate_gap": "gap to the full-sample surrogate at the probe point"}


def _replay(experiment: str, r, what: str = "") -> str:
    return f"python -m repro run {experiment}; result {r.hash}" + (f" ({what})" if what else "")


def _lemma4_outcomes(conv_runs) -> list:
    """``(problem, mode, steps, [(run, outcome)])`` of Lemma 4 (51) on every M = 0 run of ``ssca.convergence``."""
    out = []
    claims = [B.claim("ssca.lemma4")]
    for problem in conv.PROBLEMS[:2]:
        for mode in ("sample", "feature"):
            for steps in conv.STEPS:
                pairs = []
                for r in select_results(conv_runs, problem=problem, mode=mode, steps=steps):
                    meta = r.meta["metadata"]
                    pairs += [(r, o) for o in check_claims(V.check, claims, V.CheckProblem(meta["mu"], meta["L_hat"]),
                                                           V.cached_trace(r.arrays))]
                if pairs:
                    out.append((problem, mode, steps, pairs))
    return out


def _per_run_evidence(claim: str, source: str, experiment: str, pairs) -> list[Evidence]:
    """:func:`from_checks` over ``(run, outcome)`` pairs, one check each: worst observed/bound of the ``<=``
    relation where its bound is positive, the replay of the failing run with the largest excess."""
    judged = [(r, o) for r, o in pairs if o.hypotheses_met]
    fails = [(r, o) for r, o in judged if not o.passed]
    ratios = [o.ratio for _, o in judged if o.bound > 0 and np.isfinite(o.ratio)]
    replay = ""
    if fails:
        r, o = max(fails, key=lambda p: p[1].details.get("excess", np.inf))
        replay = _replay(experiment, r, f"observed {o.observed:.6g} vs bound {o.bound:.6g}")
    return from_checks(claim, source, checks=len(pairs), failed=len(fails),
                       inconclusive=sum(o.inconclusive for _, o in judged), not_judged=len(pairs) - len(judged),
                       worst=max(ratios) if ratios else None, replay=replay)


def _lemma4_evidence(conv_runs) -> list[Evidence]:
    pairs = [p for *_, ps in _lemma4_outcomes(conv_runs) for p in ps]
    return _per_run_evidence("ssca.lemma4", "ssca.convergence", "ssca.convergence", pairs) if pairs else []


def _closed_form_evidence(results) -> list[Evidence]:
    """(35)-(36) (formulation 27) and Lemma 1 (formulation 37) against cvxpy on the MNIST runs' own iterates."""
    out = []
    for claim_id, formulation in (("ssca.eq35_36", "27"), ("ssca.lemma1", "37")):
        cl = B.claim(claim_id)
        pairs, unsolved = [], 0
        for name in ("ssca.figure2", "ssca.figure3"):
            for r in select_results(results.get(name, []), method="ssca", formulation=formulation):
                if "closed_form_error" not in r.arrays:
                    continue
                err, status = np.asarray(r.arrays["closed_form_error"]), np.asarray(r.arrays["solver_status"])
                for e, s in zip(err, status):
                    if not np.isfinite(e):
                        continue
                    if s != 1.0:           # the reference is not an optimal solution: nothing to compare with
                        unsolved += 1
                        continue
                    pairs.append((r, name, check_relation(cl, cl.relations[0], {"closed_form_error": float(e)},
                                                          tol=CLOSED_FORM_TOL)))
        if not pairs and not unsolved:
            continue
        fails = [(r, n, o) for r, n, o in pairs if not o.passed]
        replay = ""
        if fails:
            r, n, o = max(fails, key=lambda p: p[2].observed)
            replay = _replay(n, r, f"closed-form error {o.observed:.3g}")
        out += from_checks(claim_id, " + ".join(sorted({n for _, n, _ in pairs})) + " (vs cvxpy)",
                           checks=len(pairs) + unsolved, failed=len(fails),
                           inconclusive=sum(o.inconclusive for *_, o in pairs), not_judged=unsolved, replay=replay)
    return out


def _theorem5_evidence(t5_runs) -> list[Evidence]:
    """Theorem 5 on the targeted instances of ``ssca.theorem5`` (see the module docstring)."""
    if not t5_runs:
        return []
    return _theorem5_part_i(t5_runs) + _theorem5_part_ii(t5_runs)


def _theorem5_part_i(t5_runs) -> list[Evidence]:
    """Part (i): w* a certified local minimiser of (27) (gradient ~ 0, Hessian of (27) positive definite), judged
    for local optimality in (37) with U = F(w*)."""
    checks = fails = unmet = within = 0
    worst_fail = None
    for r in t5_runs:
        a = r.arrays
        for j, lam in enumerate(a["i_lam"]):
            checks += 1
            if not (a["i_grad_norm"][j] <= KKT_TOL and a["i_hess_min_27"][j] > 0):
                unmet += 1
                continue
            v = float(a["i_violation"][j])
            within += int(0 < v <= THM5_TOL)
            if not v <= THM5_TOL:
                fails += 1
                if worst_fail is None or v > worst_fail[0]:
                    worst_fail = (v, r, lam)
    replay = "" if worst_fail is None else _replay("ssca.theorem5", worst_fail[1],
                                                   f"part (i), lambda = {worst_fail[2]:g}: a feasible point of (37) "
                                                   f"near w* with ||w||^2 smaller by {worst_fail[0]:.3g}")
    return from_checks("ssca.thm5.i", "ssca.theorem5", checks=checks, failed=fails, inconclusive=within,
                       not_judged=unmet, replay=replay)


def _theorem5_part_ii(t5_runs) -> list[Evidence]:
    """Part (ii): w+ a KKT point of (37) with xi > 0; stationarity of (27) with lambda = 1/xi, and the printed
    second-order condition where it holds."""
    checks = fails = unmet = so_checks = so_fails = 0
    worst_fail = so_worst = None
    for r in t5_runs:
        a = r.arrays
        for j, U in enumerate(a["ii_U"]):
            checks += 1
            xi_ = float(a["ii_xi"][j])
            if not (np.isfinite(xi_) and xi_ > 0 and a["ii_kkt_residual_37"][j] <= KKT_TOL and U > 0):
                unmet += 1
                continue
            res = float(a["ii_stationarity_27"][j])
            if not res <= KKT_TOL:
                fails += 1
                if worst_fail is None or res > worst_fail[0]:
                    worst_fail = (res, r, U)
            if a["ii_hess_min_printed"][j] >= 0:       # the printed sufficient condition holds: a local minimiser?
                so_checks += 1
                if not a["ii_hess_min_27"][j] > 0:
                    so_fails += 1
                    so_worst = (r, U)
    replay = "" if worst_fail is None else _replay("ssca.theorem5", worst_fail[1], f"part (ii), U = {worst_fail[2]:.4g}:"
                                                   f" ||grad of (27)|| = {worst_fail[0]:.3g}")
    out = from_checks("ssca.thm5.ii", "ssca.theorem5", checks=checks, failed=fails, not_judged=unmet, replay=replay)
    if so_checks:
        replay = "" if so_worst is None else _replay("ssca.theorem5", so_worst[0], f"part (ii), U = {so_worst[1]:.4g}: "
                                                     "Hess F + lambda I >= 0 but Hess of (27) not positive definite")
        out += from_checks("ssca.thm5.ii", "ssca.theorem5 (second-order condition)", checks=so_checks,
                           failed=so_fails, replay=replay)
    return out


def _mode_evidence(shown) -> list[Evidence]:
    """``not checkable`` evidence for every claim whose mode no finite run can decide, except the claims a ``mode``
    finding among ``shown`` already marks not checkable (computed from the same modes: one fact, one evidence)."""
    covered = {c for f in shown if f.kind == "mode" and f.verdict == "not checkable" for c in f.claims}
    return from_modes(B.CLAIMS, decided=covered)


def _trend_evidence(conv_runs) -> list[Evidence]:
    """The trend of the quantity each limit statement says vanishes, on the runs inside its step-size hypotheses
    ((4) and (6) hold): ``not checkable`` (a finite trend decides no almost-sure limit)."""
    out = []
    for claim_id, (problems, mode, keys) in _TREND_SCOPE.items():
        runs = [r for r in conv_runs if r.spec.config["problem"] in problems
                and (mode is None or r.spec.config["mode"] == mode)
                and r.meta["metadata"].get("conditions_4") and r.meta["metadata"].get("conditions_6")]
        for key in (keys,) if isinstance(keys, str) else keys:
            if not runs:
                continue
            tr = [V.trend(r.arrays["t"], r.arrays[key]) for r in runs]
            fell = sum(t["last_over_first"] < 1 for t in tr)
            what = _TREND_NAMES[key]
            out.append(Evidence(claim_id, "ssca.convergence", Bearing.NOT_CHECKABLE,
                                f"trend only: the {what} fell on {fell} of {len(runs)} runs inside (4) and (6) "
                                f"(median slope of log {what} vs log t {fmt(np.median([t['slope'] for t in tr]), 3)})",
                                checks=len(runs)))
    return out


# ---------------------------------------------------------------------------- exact failure probabilities (ssca.exact)
_MINIBATCH_PATTERN = "minibatch patterns (sample indices per iteration and client)"
