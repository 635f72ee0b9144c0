"""What Algorithm 1 returns, checked on the cached runs beside the iterate the bounds analyse (issue 41, item 6).

The table (:data:`PRINTED`, :data:`ANALYSED`, quoting the paper): Algorithm 1, line 12, "Output: Server returns
x̄_R." (the server's averaged iterate after the last round, at local step T_R = K when every round has H steps),
while Proposition 4.7, Proposition 4.8 (i)-(iii) (and Theorem 3.4 through them) bound E at x̄_(K*), "K* be a discrete
uniform random variable on {0,…,K−1}": they differ (the symbolic side is :func:`bounds.pcfedavg.remarks.
finding_output_iterate`, the erratum ``pcfedavg.output_iterate``).

On the runs (:func:`finding_output_on_runs`, id ``pcfedavg.output_on_runs``): ``pcfedavg.theory`` records, per local
step k = 0, ..., K-1, the Monte-Carlo means over its S replicates of G_rho(x̄_k) - G_rho(x*_rho), f(x̄_k) - f(x*) and
d_i(k)^2 (``gap_mean``, ``subopt_mean``, ``infeas_mean``). The returned x̄_R of the run itself (k = K) is not
recorded (it needs the last iterate, which the run does not store). But a run of R rounds contains the run of every
R' < R rounds: Algorithm 1's loop does not look ahead, the theory runs' step size is gamma_frac gamma_max(rho, H)
(independent of R), their rounds all have H steps, and the noise is drawn step by step. So for each R' = 1, ..., R-1
(K' = R'H) the same record gives the analysed value (the mean over k < K' of the per-step means: the exact E over
K*) and the returned one (the per-step mean at k = K' = T_R'), and the bound is the claim's own at K = K'.

Assumptions, named: (a) the prefix argument above (a run with gamma_rule "proof", gamma = 1/sqrt(R), depends on R
and is left out); (b) only noise-free runs (nu = 0) are judged: their S replicates coincide, so the recorded mean is
the expectation; a run with nu > 0 records no standard error, and its returned value is reported, never judged;
(c) a run whose hypotheses of the claim did not hold (its own ``hypotheses_met`` row) is left out; (d) the tolerance
is the references' certified error, 10 residual_rho sqrt(Q + 1), plus 1e-9 (1 + |bound|).

Decision (never a false alarm): the paper states its bounds for x̄_(K*), not for the output, so the returned values
are compared with the bounds under the reading "Algorithm 1's output is what Theorem 3.4 guarantees" (line 12 with
Theorem 3.4) only; the verdict is ``discrepancy`` when, under that reading, some judged horizon has the analysed
value within the bound and the returned one beyond it, ``consistent`` otherwise. Under the reading of the
theorem's own words (the bound is about x̄_(K*) only) the output is not bounded, and the summary says so.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE, Finding, producer
from bounds.pcfedavg import claims as B
from bounds.pcfedavg.remarks import OUTPUT_WORDS
from repro.papers.pcfedavg.checks import claim_bound

FINDING_ID = "pcfedavg.output_on_runs"
EXPERIMENT = "pcfedavg.theory"

#: the algorithm's printed output: (where, its words, the iterate)
PRINTED = OUTPUT_WORDS[0] + ("x̄_R, the averaged iterate at the last synchronization index T_R",)
_KSTAR = "x̄_(K*), K* uniform on {0, …, K−1}"
#: per bounded result: claim id -> (where, its words, the iterate it analyses, recorded quantity, sign of the bound)
ANALYSED = {
    "pcfedavg.prop4.7": ("Proposition 4.7", "𝔼[G_ρ(x̄_(K*)) − G_ρ(x*_ρ)] ≤ 3𝔼[‖x̄_0 − x*_ρ‖²]/(Kγ) + [...]",
                         _KSTAR, "gap", 1.0),
    "pcfedavg.prop4.8.i": ("Proposition 4.8 (i)", "The expected optimality gap of the randomly selected averaged "
                           "iterate x_(K*) satisfies", _KSTAR, "subopt", 1.0),
    "pcfedavg.prop4.8.ii": ("Proposition 4.8 (ii)", "Moreover, for each i∈{1,…,m}, the expected squared feasibility "
                            "violation satisfies 𝔼[‖x̄_(i,K*) − Π_(X_i)[x̄_(i,K*)]‖²] ≤ [...]", _KSTAR, "infeas", 1.0),
    "pcfedavg.prop4.8.iii": ("Proposition 4.8 (iii)", "The expected lower bound for the optimality gap satisfies [...] "
                             "≤ 𝔼[f(x̄_(K*)) − f(x*)]", _KSTAR, "subopt", -1.0),
}
#: the arrays a run must record for this check
NEEDS = {"L_f", "gamma", "M", "Q", "D", "residual_rho", "claim_id", "hypotheses_met", "gap_mean", "subopt_mean",
         "infeas_mean"}
#: the observed symbol of each claim's bound (bounds.pcfedavg.claims)
_SYMBOL = {"pcfedavg.prop4.7": "gap_Kstar", "pcfedavg.prop4.8.i": "subopt_Kstar",
           "pcfedavg.prop4.8.ii": "infeas_i", "pcfedavg.prop4.8.iii": "subopt_Kstar"}


def table() -> list[tuple[str, str, str, str, bool]]:
    """One row per bounded result: (claim, where, what it analyses, what Algorithm 1 returns, whether they differ)."""
    return [(cid, where, iterate, PRINTED[2], iterate != PRINTED[2])
            for cid, (where, _, iterate, _, _) in ANALYSED.items()]


@dataclass(frozen=True)
class RunRecord:
    """What one cached run records for this check: ``label`` (its config), the per-step means (``gap`` (K,),
    ``subopt`` (K,), ``infeas`` (K, m)), the claims' parameter ``values`` (without K), H, R, nu, the claims whose
    hypotheses held, and the references' certified error ``ref_tol``."""

    label: str
    steps: dict
    values: dict
    H: int
    R: int
    nu: float
    hypotheses: frozenset
    ref_tol: float = 0.0


def run_record(result) -> RunRecord | None:
    """The :class:`RunRecord` of one ``pcfedavg.theory`` result, or None when the prefix argument does not apply
    (assumption (a) of the module) or the result records too little (:data:`NEEDS`, the instance's sigma_i)."""
    a, cfg = result.arrays, result.spec.config
    sigma = getattr(result, "meta", {}).get("metadata", {}).get("instance", {}).get("sigma")
    if cfg.get("gamma_rule", "admissible") != "admissible" or sigma is None or not NEEDS <= set(a):
        return None
    values = {"m": cfg["m"], "L_f": float(a["L_f"]), "sigma": float(np.max(sigma)), "rho": cfg["rho"],
              "gamma": float(a["gamma"]), "H": cfg["H"], "nu": cfg["nu"], "M": float(a["M"]), "Q": float(a["Q"]),
              "D": float(a["D"])}
    met = frozenset(str(c) for c, h in zip(a["claim_id"], a["hypotheses_met"]) if h)
    label = ", ".join(f"{k} = {cfg[k]}" for k in ("family", "m", "H", "R", "nu", "path") if k in cfg)
    return RunRecord(label, {"gap": a["gap_mean"], "subopt": a["subopt_mean"], "infeas": a["infeas_mean"]}, values,
                     cfg["H"], cfg["R"], cfg["nu"], met, 10 * float(a["residual_rho"]) * np.sqrt(float(a["Q"]) + 1))


def horizons(record: RunRecord, claim_id: str) -> list[tuple[int, np.ndarray, np.ndarray, float]]:
    """Per R' = 1, ..., R-1: (R', analysed values, returned values, bound), per agent for (ii) (one value else)."""
    key = ANALYSED[claim_id][3]
    steps, out = np.asarray(record.steps[key], dtype=np.float64), []
    claim = B.claim(claim_id)
    for r in range(1, record.R):
        K = r * record.H
        bound = float(np.max(claim_bound(claim, _SYMBOL[claim_id], record.values | {"K": K})))
        out.append((r, np.atleast_1d(steps[:K].mean(axis=0)), np.atleast_1d(steps[K]), bound))
    return out


def excess(values: np.ndarray, bound: float, sign: float) -> np.ndarray:
    """The relative excess sign (value - bound) / |bound| of each value (at most 0: within the bound)."""
    return sign * (values - bound) / max(abs(bound), 1e-300)


def compare(records) -> dict:
    """Per claim: horizons judged, those where the returned value fails while the analysed holds (same agent), the
    largest relative excess of each (:func:`excess`), and the horizons reported but not judged (nu > 0)."""
    out = {}
    for cid, (_, _, _, _, sign) in ANALYSED.items():
        row = {"judged": 0, "fails": [], "unjudged": 0, "returned": -np.inf, "analysed": -np.inf}
        for rec in records:
            if cid not in rec.hypotheses:
                continue
            for r, analysed, returned, bound in horizons(rec, cid):
                row["returned"] = max(row["returned"], float(excess(returned, bound, sign).max()))
                row["analysed"] = max(row["analysed"], float(excess(analysed, bound, sign).max()))
                if rec.nu != 0:
                    row["unjudged"] += 1
                    continue
                row["judged"] += 1
                tol = rec.ref_tol + 1e-9 * (1 + abs(bound))
                bad = (sign * (analysed - bound) <= tol) & (sign * (returned - bound) > tol)
                if bad.any():
                    i = int(np.argmax(bad))
                    row["fails"].append(f"{rec.label}, R' = {r}: returned {returned[i]:.4g}, analysed "
                                        f"{analysed[i]:.4g}, bound {bound:.4g}")
        out[cid] = row
    return out


@producer
def finding_output_on_runs(records, printed=PRINTED) -> Finding:
    """The returned x̄_R' against each bound beside the analysed x̄_(K*) on the prefixes of the cached runs (module
    docstring: the table, the readings and the decision). Not checkable without a run to read."""
    records = [r for r in records if r is not None]
    if not records:
        return Finding(FINDING_ID, "wording", tuple(ANALYSED), NOT_CHECKABLE,
                       f"no cached {EXPERIMENT} run given: the output is not checked on runs (`python -m repro "
                       f"findings pcfedavg` reads them)", "", "cached runs")
    rows, differ = compare(records), any(it != printed[2] for _, _, it, _, _ in ANALYSED.values())
    failing = {cid: row["fails"] for cid, row in rows.items() if row["fails"]}
    verdict = DISCREPANCY if differ and failing else CONSISTENT
    judged = sum(row["judged"] for row in rows.values())
    head = (f"{printed[0]}: \"{printed[1]}\" against {OUTPUT_WORDS[1][0]}: \"{OUTPUT_WORDS[1][1]}\" -- on "
            f"{len(records)} cached {EXPERIMENT} runs, each prefix of R' < R rounds (the returned x̄_R' is recorded, "
            f"the run's own x̄_R is not: it needs the last iterate), {judged} noise-free horizons judged. ")
    if failing:
        worst = "; ".join(f"{cid}: {len(f)} horizons, e.g. {f[0]}" for cid, f in failing.items())
        head += (f"Under the reading 'the output is what Theorem 3.4 guarantees' the returned iterate fails where "
                 f"x̄_(K*) holds: {worst}.")
    else:
        head += ("Under the reading 'the output is what Theorem 3.4 guarantees' the returned iterate stays within "
                 "every bound wherever x̄_(K*) does; under the theorem's own words the output is not bounded.")
    evidence = "; ".join(
        f"{cid}: {row['judged']} judged, {row['unjudged']} with nu > 0 reported only (no standard error recorded), "
        f"largest relative excess (value - bound)/|bound| returned {row['returned']:.3g}, analysed "
        f"{row['analysed']:.3g}"
        for cid, row in rows.items())
    return Finding(FINDING_ID, "wording", tuple(ANALYSED), verdict, head, evidence,
                   "cached runs, float64, bound lambdified at K = R'H")


def output_findings(results) -> list:
    """The finding of this module on ``results`` (``{experiment: results}``; not checkable without ``pcfedavg.theory``)."""
    return [finding_output_on_runs(tuple(run_record(r) for r in results.get(EXPERIMENT, ())))]


__all__ = ["ANALYSED", "EXPERIMENT", "FINDING_ID", "NEEDS", "PRINTED", "RunRecord", "compare", "finding_output_on_runs",
           "excess", "horizons", "output_findings", "run_record", "table"]
