"""The evidence about FedSGM's claims that the audit computes from the runs, besides the findings: the per-run checks
of ``fedsgm.theory`` tallied per claim and part -- the claim's statement, its proof steps, one compressed sample of
the summed round (:func:`theory_tallies`, :func:`_part`) -- read by :func:`_theory_evidence`
(a proof step that does not follow is a gap, a compressed sample above the bound of an expectation decides nothing);
the Monte Carlo of ``fedsgm.montecarlo`` per configuration (:func:`montecarlo_groups`: E[S_T] against the summed
bound, and how often a single compressed run is an eps-solution with nonempty A, the deterministic conclusion of
Theorems 1-2) and its evidence (:func:`_montecarlo_evidence`); the adversarial search of ``fedsgm.adversarial`` against
Theorem 1 or 2 (:func:`_adversarial_claims`, :func:`_adversarial_evidence`). Besides: the claims' ids
(:data:`CLAIM_IDS`), a run's replay command (:func:`_replay`) and the number format the section uses too
(:func:`_fmt`).

:func:`.audit.evidence` adds the optimisation-based search, the exact failure probabilities, the certified worst
cases, the stepwise proof checks, the findings and the modes no finite computation decides; the evidence about
Section 4.1's statements on Figure 1 is in :mod:`.statements`.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from bounds.fedsgm import claims as B
from bounds.audit import fmt_point
from repro.papers.fedsgm.runs.theorems import CONSTANTS
from repro.verdicts import Bearing, Evidence, from_checks


CLAIM_IDS = tuple(c.id for c in B.CLAIMS)


def _fmt(x, digits=4) -> str:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return str(x)
    return "n/a" if not np.isfinite(x) else f"{x:.{digits}g}"


# ---------------------------------------------------------------------------- per-run checks of fedsgm.theory
def _replay(experiment: str, r) -> str:
    return f"python -m repro run {experiment}; result {r.hash}"


def _part(claim_id: str, relation: str, compressed: bool) -> str:
    """Which evidence a check of ``fedsgm.theory`` is: the claim's statement, a proof step, or one compressed sample
    of the summed inequality (an expectation claim)."""
    if relation.startswith("step:"):
        return "steps"
    if claim_id == B.S_summed.id and compressed:
        return "sample"
    return "statement"


def theory_tallies(theory_results) -> tuple[dict, list]:
    """Per (claim, part) -- part one of statement, steps, sample (:func:`_part`) -- the runs, checks, failed,
    inconclusive, hypotheses not met, worst observed/bound of a ``<=`` relation and the worst failing check; and
    every failed check ``(claim, relation, result, index)`` in run order."""
    tallies: dict[tuple[str, str], dict] = {}
    failures = []
    for r in theory_results:
        a = r.arrays
        compressed = float(np.asarray(a["q_u"])) > 0 if "q_u" in a else r.spec.config.get("K_frac") is not None
        for i, cid in enumerate(a["claim_id"]):
            cid, rel = str(cid), str(a["relation"][i])
            d = tallies.setdefault((cid, _part(cid, rel, compressed)), {
                "runs": set(), "checks": 0, "fail": 0, "inconclusive": 0, "hyp_not_met": 0, "worst": -np.inf,
                "worst_fail": None})
            d["runs"].add(r.hash)
            d["checks"] += 1
            if not a["hypotheses_met"][i]:
                d["hyp_not_met"] += 1
                continue
            ratio = float(a["ratio"][i])
            if not a["passed"][i]:
                d["fail"] += 1
                failures.append((cid, rel, r, i))
                key = ratio if np.isfinite(ratio) else np.inf
                if d["worst_fail"] is None or key > d["worst_fail"][0]:
                    d["worst_fail"] = (key, rel, r)
            d["inconclusive"] += int(a["inconclusive"][i])
            if rel.split(" ")[1] in ("<=", "<") and np.isfinite(ratio):
                d["worst"] = max(d["worst"], ratio)
    return tallies, failures


def _theory_evidence(tallies: dict) -> list[Evidence]:
    out = []
    for (cid, part), d in tallies.items():
        if cid not in CLAIM_IDS:        # the implementation's server step: a self-check, not a claim of the paper
            continue
        worst = d["worst"] if np.isfinite(d["worst"]) else None
        replay = ""
        if d["worst_fail"] is not None:
            _, rel, r = d["worst_fail"]
            replay = f"{_replay('fedsgm.theory', r)}; {rel}"
        source = {"statement": "fedsgm.theory", "steps": "fedsgm.theory proof steps",
                  "sample": "fedsgm.theory single compressed samples"}[part]
        ev = from_checks(cid, source, checks=d["checks"], failed=d["fail"], inconclusive=d["inconclusive"],
                         worst=worst, replay=replay, not_judged=d["hyp_not_met"])
        if part == "steps":     # a proof step that does not follow is a gap in the proof, not a counterexample
            ev = [dataclasses.replace(e, bearing=Bearing.GAP, summary=f"{d['fail']} of {d['checks']} proof-step "
                                      f"checks do not follow (replay: {replay})") if e.bearing is Bearing.VIOLATES
                  else e for e in ev]
        elif part == "sample":  # one sample of an expectation: above the bound decides nothing
            ev = [dataclasses.replace(e, bearing=Bearing.INCONCLUSIVE, summary=f"{d['fail']} of {d['checks']} "
                                      "single compressed runs above the bound of an expectation claim (the "
                                      "Monte Carlo decides)") if e.bearing is Bearing.VIOLATES else e for e in ev]
        out += ev
    return out


# ---------------------------------------------------------------------------- Monte Carlo and adversarial search
def montecarlo_groups(mc_results) -> list[dict]:
    """Per Monte-Carlo configuration: the E[S_T] check against the summed bound (``outcome``), which theorem the runs
    use, which runs are an eps-solution with nonempty A (the theorem's deterministic conclusion) and the 95% Wilson
    interval of that frequency."""
    from scipy import stats

    from repro.verify import check_expectation
    groups: dict[tuple, list] = {}
    for r in mc_results:
        c = r.spec.config
        groups.setdefault((c["family"], c["E"], c["K_frac"], c["switching"]), []).append(r)
    out = []
    for (family, E, K_frac, switching), runs in groups.items():
        S = np.array([float(r.arrays["S_T"]) for r in runs])
        bound = float(runs[0].arrays["S_bound"])
        outcome = check_expectation(B.S_summed, B.S_summed.relations[0], S, bound)
        ok = np.array([float(r.arrays["A_size"]) >= 1 and float(r.arrays["subopt"]) <= float(r.arrays["eps"])
                       and float(r.arrays["infeas"]) <= float(r.arrays["eps"]) for r in runs])
        ratio = np.array([float(r.arrays["subopt"]) / float(r.arrays["eps"]) if float(r.arrays["A_size"]) >= 1
                          else np.inf for r in runs])
        ci = stats.binomtest(int(ok.sum()), ok.size).proportion_ci(0.95, method="wilson")
        claim = (runs[0].meta.get("metadata", {}) or {}).get("claim") or ("fedsgm.thm1" if switching == "hard"
                                                                          else "fedsgm.thm2")
        out.append({"family": family, "E": E, "K_frac": K_frac, "switching": switching, "runs": runs, "S": S,
                    "bound": bound, "outcome": outcome, "ok": ok, "ratio": ratio, "ci": ci, "claim": claim})
    return out


def _montecarlo_evidence(groups) -> list[Evidence]:
    """E[S_T]: violates if the interval lies above the bound, inconclusive if it straddles it; the theorem's
    deterministic conclusion: every compressed run that is not an eps-solution violates it."""
    out = []
    for g in groups:
        tag = f"{g['family']}, E={g['E']}, K/d={g['K_frac']}, {g['switching']}, {len(g['runs'])} runs"
        o = g["outcome"]
        lo, hi = o.ci
        worst_run = g["runs"][int(np.argmax(g["S"]))]
        summary = f"E[S_T] = {_fmt(o.observed)} [{_fmt(lo)}, {_fmt(hi)}] vs bound {_fmt(g['bound'])} ({tag})"
        if lo > g["bound"]:
            bearing = Bearing.VIOLATES
        elif hi >= g["bound"] or o.inconclusive:
            bearing, summary = Bearing.INCONCLUSIVE, summary + ": the 95% interval straddles the bound"
        else:
            bearing = Bearing.SUPPORTS
        out.append(Evidence(B.S_summed.id, "fedsgm.montecarlo", bearing, summary, len(g["runs"]),
                            float(o.ratio), _replay("fedsgm.montecarlo", worst_run) if bearing is Bearing.VIOLATES
                            else ""))
        failed = int((~g["ok"]).sum())
        replay = ""
        if failed:
            i = int(np.argmax(np.where(g["ok"], -np.inf, g["ratio"])))
            replay = _replay("fedsgm.montecarlo", g["runs"][i])
        worst = float(np.max(g["ratio"])) if g["ratio"].size else None     # inf: A empty on some run
        out += [dataclasses.replace(e, summary=f"{e.summary}: single compressed runs, eps-solution with nonempty A "
                                    f"({tag})")
                for e in from_checks(g["claim"], "fedsgm.montecarlo", checks=len(g["runs"]), failed=failed,
                                     worst=worst, replay=replay)]
    return out


def _adversarial_claims(r) -> list[str]:
    """The theorems a search targets (Theorem 1 or 2: what its ratio measures)."""
    label = r.spec.config["constants"]
    return [c for c in ("fedsgm.thm1", "fedsgm.thm2") if c in CONSTANTS[label][1]]


def _adversarial_evidence(adv_results) -> list[Evidence]:
    out = []
    for r in adv_results:
        passed = np.asarray(r.arrays["passed_history"], dtype=bool)
        rejected = int(r.arrays["rejected"])
        best = float(r.arrays["best_ratio"])
        meta = r.meta["metadata"]
        replay = (f"{_replay('fedsgm.adversarial', r)}; instance ({fmt_point(meta['best_instance'] or {})}), "
                  f"seed {meta['best_seed']}")
        for cid in _adversarial_claims(r):
            out += from_checks(cid, "fedsgm.adversarial", checks=passed.size, failed=int((~passed).sum()),
                               worst=best if np.isfinite(best) or best > 0 else None,
                               replay=replay if not passed.all() else "", not_judged=rejected)
    return out
