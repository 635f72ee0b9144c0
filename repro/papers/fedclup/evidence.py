"""The evidence about FedCLUP's claims that the audit computes from the results, besides the findings: the per-run
claim checks of :data:`CHECKED_EXPERIMENTS` tallied per claim and experiment (:func:`_run_checks`,
:func:`_check_evidence`), the derived proof steps of :mod:`bounds.fedclup.findings` (:func:`_proof_step_evidence`)
and the order-level fits that cannot decide an O(.) statement (:func:`_fit_evidence`).

:func:`.audit.evidence` adds the findings, the adversarial search, the certified worst cases and the modes no finite
computation decides; the evidence about the statements on figures and tables is in :mod:`.statements`.
"""
from __future__ import annotations

import numpy as np

from bounds.fedclup import claims as BC
from bounds.fedclup import findings as BF
from repro.papers.fedclup.statements import _curves_cross_in
from repro.papers.fedclup.summaries import minimax_fits, noise_ball_fits
from repro.tables import fmt
from repro.verdicts import UNDECIDABLE_MODES, Bearing, Evidence, from_checks

#: Experiments whose results carry per-run claim checks (arrays claim_id, passed, inconclusive, hypotheses_met,
#: ratio, n_checked); of fedclup.stochastic only the Lemma 7 part; fedclup.exact judges Lemma 7 on exact expectations
#: over every batch sequence (its source name gives the method "exact probability").
CHECKED_EXPERIMENTS = ("fedclup.statistical", "fedclup.theorem2", "fedclup.stochastic", "fedclup.exact")

#: Derived proof steps (rows of bounds.fedclup.findings.derived_checks(), by the prefix of their item) -> the
#: claim whose derivation they are (the labels (i)-(vii) of that module).
PROOF_STEP_CLAIMS = (
    ("(i) ", "fedclup.cor1.explicit"), ("(ii) ", "fedclup.cor1.explicit"), ("Cor 1 combined", "fedclup.cor1.explicit"),
    ("(iii) ", "fedclup.thm1.8b"), ("(8a) ", "fedclup.thm1.8a"), ("(iv) ", "fedclup.thm1.8a.pathwise"),
    ("(v) ", "fedclup.thm2"), ("(vi) ", "fedclup.thm2"), ("(vii) ", "fedclup.cor2.explicit"),
    ("Lemma 7", "fedclup.lemma7"),
)
_CLAIM = {c.id: c for c in BC.CLAIMS}


def _theory_runs(results) -> list:
    """The results with per-run claim checks (the Lemma 7 part of fedclup.stochastic only)."""
    return [r for name in CHECKED_EXPERIMENTS for r in results.get(name, ())
            if "claim_id" in r.arrays and (name != "fedclup.stochastic" or r.spec.config.get("part") == "lemma7")]


def _run_checks(runs) -> dict:
    """Per claim: the tallies of its outcomes on ``runs`` (met = hypotheses met; failed and inconclusive among the
    met ones), the worst observed/bound and the worst failing (experiment, hash)."""
    out: dict = {}
    for r in runs:
        a = r.arrays
        for i, cid in enumerate(a["claim_id"]):
            t = out.setdefault(str(cid), {"hashes": set(), "experiments": {}, "outcomes": 0, "met": 0, "judged": 0,
                                          "unmet_failed": 0, "ratios": []})
            exp = t["experiments"].setdefault(r.spec.experiment, {"outcomes": 0, "failed": 0, "inconclusive": 0,
                                                                  "unmet": 0, "ratios": [], "worst_fail": None})
            t["hashes"].add(r.hash)
            t["outcomes"] += 1
            exp["outcomes"] += 1
            met, passed, ratio = bool(a["hypotheses_met"][i]), bool(a["passed"][i]), float(a["ratio"][i])
            if not met:
                exp["unmet"] += 1
                t["unmet_failed"] += not passed
                continue
            t["met"] += 1
            t["judged"] += int(a["n_checked"][i])
            if np.isfinite(ratio):
                t["ratios"].append(ratio)
                exp["ratios"].append(ratio)
            if not passed:
                exp["failed"] += 1
                key = ratio if np.isfinite(ratio) else np.inf
                if exp["worst_fail"] is None or key > exp["worst_fail"][0]:
                    exp["worst_fail"] = (key, r.hash)
            elif bool(a["inconclusive"][i]):
                exp["inconclusive"] += 1
    return out


def _check_evidence(tallies: dict) -> list[Evidence]:
    """The per-run checks as evidence: one from_checks per (claim, experiment); a confidence interval or a float
    excess inside the tolerance is inconclusive; outcomes whose hypotheses fail are not judged."""
    out = []
    for cid, t in tallies.items():
        for exp, e in t["experiments"].items():
            replay = (f"python -m repro run {exp}; result {e['worst_fail'][1]}" if e["worst_fail"] else "")
            out += from_checks(cid, exp, checks=e["outcomes"], failed=e["failed"], inconclusive=e["inconclusive"],
                               worst=max(e["ratios"]) if e["ratios"] else None, replay=replay,
                               not_judged=e["unmet"])
    return out


def _proof_step_evidence() -> list[Evidence]:
    """The derived proof steps (``derived_checks``) and Lemma 1's constants (``lemma1_checks``): a refuted step is a
    gap in the claim it derives, a step established only by sampling is inconclusive; proven steps add nothing
    beyond the ``fedclup.derived.algebra`` finding that summarises them."""
    rows = [(r, _step_claim(r["item"])) for r in BF.derived_checks()]
    rows += [(r, "fedclup.lemma1") for r in BF.lemma1_checks()]
    out = []
    for r, cid in rows:
        if r["status"] == "refuted":
            out.append(Evidence(cid, "proof step", Bearing.GAP, f"step does not follow: {r['item']} ({r['method']})"))
        elif r["status"] != "proven":
            out.append(Evidence(cid, "proof step", Bearing.INCONCLUSIVE,
                                f"step established only by sampling: {r['item']}"))
    return out


def _step_claim(item: str) -> str:
    for prefix, cid in PROOF_STEP_CLAIMS:
        if item.startswith(prefix):
            return cid
    raise ValueError(f"derived proof step {item!r} names no claim (PROOF_STEP_CLAIMS)")


def _order_fit(cid: str, source: str, summary: str) -> Evidence:
    """An order-level fit or pattern on runs: evidence about ``cid`` that cannot decide it (its mode says why: the
    claim also gets the mode's evidence, :func:`evidence`)."""
    if _CLAIM[cid].mode not in UNDECIDABLE_MODES:
        raise ValueError(f"{cid} is stated in mode {_CLAIM[cid].mode.value}: a fit cannot stand in for its checks")
    return Evidence(cid, source, Bearing.NOT_CHECKABLE, summary)


def _fit_evidence(results) -> list[Evidence]:
    """What the section computes at order level: Theorem 1's lambda-curve, the minimax exponents (Corollary 1), the
    rounds of Corollary 2, Theorem 3's noise-ball slopes and Corollary 3's crossing curves."""
    out = []
    if results.get("fedclup.statistical"):
        ratios = [r.arrays["curve_mean"].min() / min(float(r.arrays["localtrain"][0]), float(r.arrays["globaltrain"][0]))
                  for r in results["fedclup.statistical"]]
        out.append(_order_fit("fedclup.thm1", "fedclup.statistical",
                              f"min_lambda E / min(LocalTrain, GlobalTrain) <= 1 on {sum(x <= 1 for x in ratios)} of "
                              f"{len(ratios)} instances (range {fmt(min(ratios), 3)} .. {fmt(max(ratios), 3)})"))
    if results.get("fedclup.minimax"):
        fits = minimax_fits(results["fedclup.minimax"])
        inside = [k for k, f in fits.items() if f["tuned"]["ci"][0] <= f["theory"] <= f["tuned"]["ci"][1]]
        out.append(_order_fit("fedclup.cor1", "fedclup.minimax",
                              "fitted exponent of the tuned lambda: " + ", ".join(
                                  f"{k} {f['tuned']['slope']:.3f} (theory {f['theory']})" for k, f in fits.items())
                              + f"; theory inside the 95% CI in {len(inside)} of {len(fits)} regimes"))
    if results.get("fedclup.rounds"):
        per = np.concatenate([r.arrays["T_eps"] / r.arrays["kappa_F"] for r in results["fedclup.rounds"]])
        out.append(_order_fit("fedclup.cor2.communication", "fedclup.rounds",
                              f"rounds T_eps / kappa_F in [{fmt(per.min(), 3)}, {fmt(per.max(), 3)}] over "
                              f"{per.size} (kappa, lambda) pairs"))
        steps = [r.arrays["grad_evals"] for r in results["fedclup.rounds"]]
        out.append(_order_fit("fedclup.cor2.computation", "fedclup.rounds",
                              "gradient steps T_eps K vary by a factor " + ", ".join(
                                  fmt(float(g.max() / g.min()), 3) for g in steps) + " across lambda, per kappa"))
    if any(r.spec.config.get("part") == "ball" for r in results.get("fedclup.stochastic", ())):
        ball = noise_ball_fits(results["fedclup.stochastic"])
        out.append(_order_fit("fedclup.thm3", "fedclup.stochastic",
                              "plateau slope in m: " + ", ".join(f"B = {k}: {fmt(v, 3)}" for k, v in ball["m"].items())
                              + "; in B: " + ", ".join(f"m = {k}: {fmt(v, 3)}" for k, v in ball["batch"].items())
                              + " (heuristic predicts -1)"))
    if results.get("fedclup.tradeoff"):
        out.append(_order_fit("fedclup.cor3", "fedclup.tradeoff",
                              f"error curves of different lambdas cross: {'yes' if _curves_cross_in(results['fedclup.tradeoff'][0]) else 'no'}"))
    return out
