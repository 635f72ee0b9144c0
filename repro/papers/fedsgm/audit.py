"""FedSGM's section of ``reports/audit.md``: ``AUDIT_EXPERIMENTS``, ``DEPENDS_ON``, ``verdicts(results)`` (one
:class:`repro.verdicts.ClaimVerdict` per claim of :data:`bounds.fedsgm.CLAIMS`, rolled up from all the evidence this
module computes) and ``audit_section(results, profile, verdicts)`` (the contract :mod:`repro.report` reads through
:func:`repro.registry.part`), one helper per part of the section.

Evidence and its bearing (:func:`evidence`):

* ``fedsgm.theory`` per-run checks of a claim's statement -> :func:`repro.verdicts.from_checks` (a failed check
  violates, one within the tolerance is inconclusive, a run whose hypotheses do not hold is not judged); its
  proof-step checks (``step: ...``) -> a failed step is a *gap*, not a violation; the summed inequality on a
  compressed run is one sample of an expectation, so a sample above the bound is inconclusive (the Monte Carlo
  decides);
* ``fedsgm.montecarlo``: E[S_T] against the summed bound (violates if the 95% interval lies above the bound,
  inconclusive if it straddles it, supports if below) and the deterministic conclusion of the run's theorem on
  every compressed run (from_checks);
* ``fedsgm.adversarial``: the searched instances of Theorem 1 or 2 (from_checks; a failure cites the search's
  result hash and its worst instance);
* the symbolic findings of :mod:`bounds.fedsgm_findings` -> :func:`repro.verdicts.from_findings` (experiment-settings
  findings bear on Figure 1, not on a claim's truth, and are left out);
* a claim no finite run can decide (an almost-sure limit, an order statement without a symbolic check) gets
  ``not checkable`` evidence from its mode.
"""
from __future__ import annotations

import dataclasses
import functools

import numpy as np

from bounds import fedsgm as B
from bounds import fedsgm_findings as BF


from repro.papers.fedsgm.runs.theorems import (CONSTANTS, FAMILIES, FIGURE1_DEFAULTS, FIGURE1_VARIANTS,
                                               neyman_pearson_problem)
from repro.papers.fedsgm.summaries import violations
from repro.tables import findings_table, markdown_table, select_results
from repro.verdicts import (
    Bearing, ClaimVerdict, Evidence, from_checks, from_findings, from_modes, roll_up,
)

AUDIT_EXPERIMENTS = ("fedsgm.theory", "fedsgm.montecarlo", "fedsgm.adversarial", "fedsgm.figure1")

CLAIM_IDS = tuple(c.id for c in B.CLAIMS)

#: each lemma, inequality and theorem -> the claims its proof uses, as the paper's appendix proofs say:
#: Theorem 6's proof (Appendix A.2) gets (5) "using Lemmas 3 and 4", then the display after (5) by convexity, Young
#: and Lemma 5, sums it into (S-hard) and picks eta, eps (eqs. (5)-(8)); Theorem 7's proof (Appendix A.3) does the
#: same with the soft Term-B1/B2 bounds and Lemma 3 into (S-soft) and eq. (10); Theorems 8 and 9 (Appendix A.4, A.5)
#: repeat them with q_u = 0 (eqs. (11)-(15), (17)-(18)). Theorems 1 and 2 of the main text are Theorems 6/8 and 7/9
#: (with and without compression); the stated theorems rest on the constants their proofs derive (``*.proof``).
#: The special cases and the round complexity are read off Theorems 1-2 (Discussion after Theorem 2, Conclusion);
#: the derived soft-beta condition is the soft proof's summed inequality under the stated constants.
DEPENDS_ON: dict[str, tuple[str, ...]] = {
    "fedsgm.eq5": ("fedsgm.lemma3", "fedsgm.lemma4"),
    "fedsgm.R_hard": ("fedsgm.eq5", "fedsgm.lemma5"),
    "fedsgm.R_soft": ("fedsgm.lemma3", "fedsgm.lemma4.soft", "fedsgm.lemma5"),
    "fedsgm.S_summed": ("fedsgm.R_hard", "fedsgm.R_soft"),
    "fedsgm.thm6.proof": ("fedsgm.S_summed",),
    "fedsgm.thm7.proof": ("fedsgm.S_summed",),
    "fedsgm.thm8.proof": ("fedsgm.S_summed",),
    "fedsgm.thm9.proof": ("fedsgm.S_summed",),
    "fedsgm.thm6": ("fedsgm.thm6.proof",),
    "fedsgm.thm7": ("fedsgm.thm7.proof",),
    "fedsgm.thm8": ("fedsgm.thm8.proof",),
    "fedsgm.thm9": ("fedsgm.thm9.proof",),
    "fedsgm.thm1": ("fedsgm.thm6", "fedsgm.thm8"),
    "fedsgm.thm2": ("fedsgm.thm7", "fedsgm.thm9"),
    "fedsgm.derived.soft_beta": ("fedsgm.S_summed",),
    "fedsgm.complexity": ("fedsgm.thm1", "fedsgm.thm2"),
} | {case.claim.id: ("fedsgm.thm1", "fedsgm.thm2") for case in B.SPECIAL_CASES}


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


# ---------------------------------------------------------------------------- claims and failures
def claim_rows(theory_results, findings, verdicts) -> tuple[list, list]:
    """One row per claim: mode, provenance, symbolic findings, instances, worst observed/bound of its statement on
    ``fedsgm.theory`` and its rolled-up verdict with the reason; plus every failed check."""
    tallies, failures = theory_tallies(theory_results)
    by_claim = {v.claim: v for v in verdicts}
    symbolic: dict[str, list] = {}
    for f in findings:
        for cid in f.claims:
            symbolic.setdefault(cid, []).append(f"{f.verdict} ({f.id})")
    rows = []
    for c in B.CLAIMS:
        mine = [d for (cid, _), d in tallies.items() if cid == c.id]
        status = "; ".join(symbolic.get(c.id, [])) or ("numeric only" if c.mode.value != "order" else "-")
        runs = set().union(*(d["runs"] for d in mine)) if mine else set()
        worst = max((d["worst"] for d in mine), default=-np.inf)
        v = by_claim[c.id]
        rows.append([c.id, c.mode.value, c.provenance.value, status, len(runs),
                     _fmt(worst) if mine else "-", v.verdict.value, v.reason])
    return rows, failures


CLAIM_COLUMNS = ["claim", "mode", "provenance", "symbolic findings", "instances", "worst observed/bound",
                 "verdict", "why"]


def _claims_part(theory_results, rows, profile: str) -> list[str]:
    return ["### Claims", "",
            markdown_table(CLAIM_COLUMNS, rows), "",
            f"Instances: the `fedsgm.theory` grid ({len(theory_results)} runs: families "
            f"{', '.join(FAMILIES)}; E, T, n, Rand-K as in `THEORY_GRID['{profile}']`), each run checked against "
            "every lemma, proof inequality and the theorems whose constants it uses. Special-case and "
            "complexity claims are order statements: judged symbolically below. The verdict of each claim is "
            "rolled up (`repro.verdicts.roll_up`) from all of its evidence: these runs, the Monte Carlo and the "
            "adversarial search below, and the symbolic findings; a theorem whose proof rests on a claim that is "
            "violated or not proven is not proven (`DEPENDS_ON`).", ""]


def _failures_part(failures) -> list[str]:
    out = ["### Failures on runs", ""]
    if failures:
        frows = []
        for cid, rel, r, i in failures[:40]:
            a = r.arrays
            frows.append([cid, rel, _fmt(a["observed"][i]), _fmt(a["bound"][i]), r.spec.seed,
                          r.hash, ", ".join(f"{k}={v}" for k, v in r.spec.config.items() if k != "profile")])
        out += [markdown_table(["claim", "relation", "observed", "bound", "seed", "result hash", "instance"], frows),
                f"\n{len(failures)} failed checks in all.", ""]
    else:
        out += ["No check failed on any run.", ""]
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


_BEARING_WORD = {Bearing.SUPPORTS: "below the bound", Bearing.VIOLATES: "above the bound (violates)",
                 Bearing.INCONCLUSIVE: "straddles the bound", Bearing.GAP: "gap",
                 Bearing.NOT_CHECKABLE: "not checkable"}


def _montecarlo_rows(mc_results):
    groups = montecarlo_groups(mc_results)
    rows = []
    for g, e in zip(groups, [e for e in _montecarlo_evidence(groups) if e.claim == B.S_summed.id]):
        out, ok, ci = g["outcome"], g["ok"], g["ci"]
        rows.append([g["family"], g["E"], g["K_frac"], g["switching"], len(g["runs"]),
                     f"{_fmt(out.observed)} [{_fmt(out.ci[0])}, {_fmt(out.ci[1])}]",
                     _fmt(g["bound"]), _BEARING_WORD[e.bearing], _fmt(out.details["max_single_run"]),
                     f"{ok.mean():.3f} [{ci.low:.3f}, {ci.high:.3f}]"])
    return rows


def _montecarlo_part(mc_results) -> list[str]:
    return ["### Monte Carlo under Rand-K compression", "",
            "E[S_T] against the summed bound S_bar(eta; Gamma_pf) (mode: expectation; 95% t-interval: below, "
            "straddling or above the bound), and the "
            "frequency with which a single compressed run is an eps-solution with nonempty A (the theorems' "
            "stated, deterministic conclusion; 95% Wilson interval). A frequency below 1 is a counterexample "
            "to the deterministic statement.", "",
            markdown_table(["family", "E", "K/d", "switching", "runs", "mean S_T [95% CI]", "bound",
                            "95% CI vs bound", "max single-run S_T", "P(eps-solution) [95% CI]"],
                           _montecarlo_rows(mc_results)), ""]


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
        replay = f"{_replay('fedsgm.adversarial', r)}; instance {meta['best_instance']}, seed {meta['best_seed']}"
        for cid in _adversarial_claims(r):
            out += from_checks(cid, "fedsgm.adversarial", checks=passed.size, failed=int((~passed).sum()),
                               worst=best if np.isfinite(best) or best > 0 else None,
                               replay=replay if not passed.all() else "", not_judged=rejected)
    return out


def _adversarial_rows(adv_results) -> list:
    adv_rows = []
    for r in adv_results:
        adv_rows.append([r.spec.config["constants"], r.spec.config["budget"], int(r.arrays["rejected"]),
                         _fmt(r.arrays["best_ratio"]), int((~np.asarray(r.arrays["passed_history"], bool)).sum()),
                         r.meta["metadata"]["best_seed"], r.meta["metadata"]["best_instance"]])
    return adv_rows


def _adversarial_part(adv_results) -> list[str]:
    return ["### Adversarial search (largest observed/bound)", "",
            "Random search then local moves over (family, n, E, T, K, ||w0||, instance), maximising "
            "(f(w_bar) - f*)/eps under the stated constants (A empty counts as infinite). g(w_bar) <= eps "
            "holds on every run by convexity and the definition of A, so it is not a target.", "",
            "A candidate on which the stated constants are inadmissible (e.g. eta = 0 when w0 is the optimum, D = 0) "
            "is not run and is counted as rejected.", "",
            markdown_table(["constants", "evaluations", "rejected", "worst ratio", "failed instances", "seed",
                            "instance"],
                           _adversarial_rows(adv_results)), ""]


# ---------------------------------------------------------------------------- Figure 1 (NP classification)
def _count_ratio(hard: float, soft: float) -> str:
    if soft == 0:
        return "inf (soft: 0)" if hard > 0 else "n/a (both 0)"
    return _fmt(hard / soft, 3)


def _figure1_summary(fig_results):
    rows = []
    for variant in FIGURE1_VARIANTS:
        counts = {}
        for sw in ("hard", "soft"):
            runs = select_results(fig_results, variant=variant, switching=sw)
            v, va = violations(runs)
            fT = np.array([float(r.arrays["f"][-1]) for r in runs])
            counts[sw] = (v, va, fT)
        ratio, ratio_after = (_count_ratio(counts["hard"][k].mean(), counts["soft"][k].mean()) for k in (0, 1))
        rows.append([variant] + [f"{counts[s][0].mean():.1f} ± {counts[s][0].std():.1f}" for s in ("hard", "soft")]
                    + [f"{counts[s][1].mean():.1f} ± {counts[s][1].std():.1f}" for s in ("hard", "soft")]
                    + [ratio, ratio_after]
                    + [f"{counts[s][2].mean():.4f} ± {counts[s][2].std():.4f}" for s in ("hard", "soft")])
    return rows


def _figure1_part(fig_results) -> list[str]:
    return ["### Figure 1 (NP classification) against the paper's claims", "",
            "Paper: soft switching has 'around 4x fewer violations' than hard switching, without compromising "
            "the objective.", "",
            markdown_table(["variant", "violations hard", "violations soft", "after transient hard",
                            "after transient soft", "hard/soft", "hard/soft after transient", "final f hard",
                            "final f soft"], _figure1_summary(fig_results)), ""]


# ---------------------------------------------------------------------------- findings
def _np_solvability_findings():
    """Problem (1) of the NP experiment: does it have a solution at level 0 (eq. (2)) and at level
    eps (the prose's reading 'g(w) <= eps'), with and without the bias column? Returns findings
    and the default problem (for its G)."""
    from bounds.audit import DISCREPANCY, Finding
    from repro.papers.fedsgm.problems.common import NoSolutionError
    findings, default_problem = [], None
    for bias in (True, False):
        for level in (0.0, FIGURE1_DEFAULTS["eps"]):
            config = FIGURE1_DEFAULTS | {"switching": "hard", "bias": bias, "level": level}
            problem, _ = neyman_pearson_problem(config, np.random.default_rng(0))
            if bias and level == 0.0:
                default_problem = problem
            tag = f"level={level:g}, {'with' if bias else 'without'} bias (split seed 0)"
            try:
                opt = problem.solve(np.zeros(problem.dim))
            except NoSolutionError as exc:
                findings.append(Finding(
                    f"fedsgm.figure1.no_solution.{'bias' if bias else 'nobias'}.{level:g}", "experiment-settings",
                    ("fedsgm.thm1", "fedsgm.thm2"), DISCREPANCY,
                    f"NP problem (1) at {tag} has no minimiser, so w* and D (hence eps, eta of the theorems) "
                    "do not exist." + (" At level 0 the constraint is infeasible (g is an average logistic loss, "
                    "positive everywhere); the prose's 'g(w) <= eps' conflates the constraint level with the "
                    "tolerance." if level == 0 else " Read as g(w) <= eps it is feasible, but the data are "
                    "linearly separable, so f decreases along a feasible ray without attaining its infimum."),
                    str(exc).splitlines()[0][:400], "LP certificate / cvxpy"))
                continue
            eps_theorem = float(B.EPS_STATED.subs({B.D: opt.D, B.G: problem.G, B.E: FIGURE1_DEFAULTS["E"],
                                                    B.T: FIGURE1_DEFAULTS["T"], B.n: FIGURE1_DEFAULTS["n_clients"],
                                                    B.q: problem.dim / FIGURE1_DEFAULTS["K"] - 1}))
            findings.append(Finding(
                f"fedsgm.figure1.solution.{'bias' if bias else 'nobias'}.{level:g}", "experiment-settings",
                ("fedsgm.thm1", "fedsgm.thm2"), DISCREPANCY if eps_theorem > FIGURE1_DEFAULTS["eps"] else "consistent",
                f"NP problem (1) at {tag} has a solution with D = {opt.D:.4g}, f* = {opt.f_star:.4g}; the theorems' "
                f"eps at T = {FIGURE1_DEFAULTS['T']} is then {eps_theorem:.4g} (the figure uses eps = "
                f"{FIGURE1_DEFAULTS['eps']}), so the figure is far outside the theorems' regime.",
                f"solver {opt.solver}, tolerance {opt.tolerance:.2g}, G = {problem.G:.4g}", "cvxpy + certificate"))
    return findings, default_problem


@functools.cache
def _findings_cached() -> tuple:
    """The symbolic findings, the settings findings of the NP experiment and whether its problem (1) is solvable
    (results-independent: built once per process)."""
    rng = np.random.default_rng(0)
    findings = BF.audit_findings(rng)
    solvability, np_problem = _np_solvability_findings()
    q_u = np_problem.dim / FIGURE1_DEFAULTS["K"] - 1
    findings += BF.settings_findings({"T": FIGURE1_DEFAULTS["T"], "E": FIGURE1_DEFAULTS["E"],
                                      "n": FIGURE1_DEFAULTS["n_clients"], "q_u": q_u, "G": np_problem.G,
                                      "eps": FIGURE1_DEFAULTS["eps"], "eta": FIGURE1_DEFAULTS["eta"],
                                      "beta": FIGURE1_DEFAULTS["beta"], "D": None})
    findings += solvability
    return tuple(findings)


def _findings() -> list:
    """The symbolic findings, the settings findings of the NP experiment and whether its problem (1) is solvable."""
    return list(_findings_cached())


# ---------------------------------------------------------------------------- evidence and verdicts
#: why a claim of this mode cannot be decided by finite runs (used only when nothing symbolic checks it)
def _mode_evidence(symbolic_evidence: list[Evidence]) -> list[Evidence]:
    """``not checkable`` evidence for every claim whose mode no finite run can decide and that no symbolic finding
    decides either (:func:`repro.verdicts.from_modes`)."""
    return from_modes(B.CLAIMS, {e.claim for e in symbolic_evidence if e.bearing is not Bearing.NOT_CHECKABLE})


def symbolic_evidence(findings) -> list[Evidence]:
    """The findings' evidence about the claims (:func:`repro.verdicts.from_findings`, which leaves out the
    experiment-settings findings: they are about Figure 1's settings, not about a claim's truth)."""
    return from_findings(findings, CLAIM_IDS)


def evidence(results: dict, findings=None) -> list[Evidence]:
    """All the evidence this audit computes about the claims of :data:`bounds.fedsgm.CLAIMS` from ``results``
    (``{experiment: results}``; a missing experiment contributes nothing) and the symbolic ``findings`` (default:
    the module's, built once per process)."""
    findings = _findings() if findings is None else findings
    tallies, _ = theory_tallies(results.get("fedsgm.theory", ()))
    ev = _theory_evidence(tallies)
    ev += _montecarlo_evidence(montecarlo_groups(results.get("fedsgm.montecarlo", ())))
    ev += _adversarial_evidence(results.get("fedsgm.adversarial", ()))
    symbolic = symbolic_evidence(findings)
    return ev + symbolic + _mode_evidence(symbolic)


def verdicts(results: dict, findings=None) -> list[ClaimVerdict]:
    """One verdict per claim of :data:`bounds.fedsgm.CLAIMS`, rolled up from :func:`evidence` with
    :data:`DEPENDS_ON`."""
    return roll_up(CLAIM_IDS, evidence(results, findings), DEPENDS_ON)


# ---------------------------------------------------------------------------- the section
def audit_section(results, profile: str, verdicts) -> str:
    findings = _findings()
    rows, failures = claim_rows(results["fedsgm.theory"], findings, verdicts)
    out = ["## FedSGM (Switching Gradient Methods for Constrained Federated Optimization)", ""]
    out += _claims_part(results["fedsgm.theory"], rows, profile)
    out += _failures_part(failures)
    out += ["### Symbolic and settings findings", "",
            findings_table(findings), ""]
    out += _montecarlo_part(results["fedsgm.montecarlo"])
    out += _adversarial_part(results["fedsgm.adversarial"])
    out += _figure1_part(results["fedsgm.figure1"])
    return "\n".join(out)
