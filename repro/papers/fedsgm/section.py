"""The Markdown of FedSGM's section of ``reports/fedsgm.md``, one helper per part (each a list of lines), which
:func:`.audit.audit_section` puts together: the claims with their verdicts, checked on the ``fedsgm.theory`` grid
(:func:`claim_rows`, :data:`CLAIM_COLUMNS`, :func:`_claims_part`), and every failed check (:func:`_failures_part`);
the Monte Carlo under Rand-K compression, E[S_T] against the summed bound and the frequency of Theorems 1-2's
deterministic conclusion (:func:`_montecarlo_part`); the adversarial search against Theorems 1-2
(:func:`_adversarial_part`); the introduction of the optimisation-based search (:data:`_SEARCH_INTRO`); the exact
failure probabilities of Theorems 1, 2, 6 and 7 under Rand-K (:func:`_exact_part`); the certified worst cases
(:func:`_pep_part`, :func:`_pep_summary`); and Figure 1 (Section 4.1, NP classification) with the verdicts of its
statements (:func:`_figure1_part`, :func:`_figure1_summary`, :func:`_statement_rows`); the remarks' and
discussion's statements (:func:`_remarks_part`).

It decides nothing: the verdicts come from :mod:`.audit`, the tallies, Monte-Carlo groups and their evidence from
:mod:`.evidence`, the statements from :mod:`.statements`, the violation counts Figure 1 plots from :mod:`.summaries`.
"""
from __future__ import annotations

import numpy as np

from bounds.fedsgm import claims as B
from bounds.audit import fmt_point
from repro import exact_audit, tightness
from repro.tables import fmt, markdown_table, select_results
from repro.verdicts import Bearing
from repro.papers.fedsgm.runs.theorems import FAMILIES, FIGURE1_VARIANTS
from repro.papers.fedsgm.summaries import violations
from repro.papers.fedsgm.evidence import _fmt, _montecarlo_evidence, montecarlo_groups, theory_tallies
from repro.papers.fedsgm.statements import FIGURE1_STATEMENTS, REMARK_STATEMENTS


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


#: the instances and their worst observed/bound are the fedsgm.theory grid's; the verdict and its why weigh all of a
#: claim's evidence (the searches among it), so the two ratios may differ
CLAIM_COLUMNS = ["claim", "mode", "provenance", "symbolic findings", "instances (fedsgm.theory)",
                 "worst observed/bound on those instances", "verdict (all evidence)", "why"]


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
_BEARING_WORD = {Bearing.SUPPORTS: "below the bound", Bearing.VIOLATES: "above the bound (violates)",
                 Bearing.INCONCLUSIVE: "straddles the bound", Bearing.GAP: "leaves unproven",
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


def _adversarial_rows(adv_results) -> list:
    adv_rows = []
    for r in adv_results:
        adv_rows.append([r.spec.config["constants"], r.spec.config["budget"], int(r.arrays["rejected"]),
                         _fmt(r.arrays["best_ratio"]), int((~np.asarray(r.arrays["passed_history"], bool)).sum()),
                         r.meta["metadata"]["best_seed"], fmt_point(r.meta["metadata"]["best_instance"] or {})])
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


# ---------------------------------------------------------------------------- tight search of every bound
_SEARCH_INTRO = ("Per claim with a bound and structured family (one client in one dimension, E = 1 with few rounds, "
                 "Rand-K with K = 1, ...; `repro.papers.fedsgm.runs.search.FAMILIES`), the largest observed/bound "
                 "that seeded differential evolution and a Nelder-Mead polish found, with exact constants, and the "
                 "instance. The objective compares a round inequality through its constant part (its right side "
                 "without ||w_t - w*||^2 and the gaps h(w*) - h(w_t)), a theorem through (f(w_bar) - f*)/eps; the "
                 "claim's own check is re-run on the best instance, and its observed value and bound are what the "
                 "verdicts cite. 'halved constant detected': the search would report the claim violated had that "
                 "constant been halved (objective > 1/2).")


# ---------------------------------------------------------------------------- exact failure probabilities
def _exact_part(exact_results, failsearch_results=()) -> list[str]:
    out = []
    if exact_results:
        out += ["### Exact failure probabilities under Rand-K", "",
                "Theorems 1, 2, 6 and 7 are stated deterministically. On tiny instances (d = 2, Rand-K with K = 1) "
                "every pattern of kept coordinates (one per client and round, all equally likely) is run, and the "
                "probability that the stated conclusion fails is computed exactly (`repro.exact_audit`). A "
                "probability above 0 refutes the deterministic statement.", "",
                markdown_table(exact_audit.HEADER, exact_audit.rows(exact_results, "fedsgm.exact")), ""]
    if failsearch_results:
        out += ["### The most likely failure under Rand-K, searched (`fedsgm.failsearch`)", "",
                "The same exact probability, maximised over structured degenerate instances "
                "(`repro.papers.fedsgm.runs.failsearch`, `repro.failure_search`): d = 2, K = 1, one affine "
                "constraint piece at an angle theta to a coordinate axis, an objective with one or two kinks, w0 at a "
                "signed distance from the constraint's boundary (0 = on it) and an offset along it, one client, "
                "E = 1, the smallest horizons; every degenerate value is an end of its coordinate's interval and "
                "every box vertex is enumerated. The minimiser is unique, so D has one reading, and a failing "
                "pattern must keep failing with D moved by max(1e-6 D, 10 x the solver's tolerance) both ways, so no "
                "float tie counts. The best instance of each search is enumerated for every theorem "
                "of its group; the sides shown are the conclusion's three relations with their common bound eps (A "
                "nonempty as min_t g(w_t) <= eps, f(w_bar) - f* <= eps, g(w_bar) <= eps; the largest left side), and "
                "the evidence adds how the probability scales with the horizon and whether the in-expectation "
                "version (E[largest left side] <= eps) survives.", "",
                markdown_table(exact_audit.HEADER, exact_audit.rows(failsearch_results, "fedsgm.failsearch")), ""]
    return out


# ---------------------------------------------------------------------------- certified worst cases (PEP)
def _pep_values(points, key: str) -> str:
    """The values a top-level field of the points takes (D, G, q_u), sorted."""
    return ", ".join(fmt(v) for v in sorted({p[key] for p in points}))


def _pep_summary(pep_results) -> str:
    """One computed paragraph: what was modelled (from the runs' metadata), how the certificate is composed (with the
    largest relaxation gap), which branch patterns were dropped and how, how many points replayed, and what the
    decisions are."""
    metas = [r.meta["metadata"] for r in pep_results]
    rows = [(m, p) for m in metas for p in m["points"]]
    points = [p for _, p in rows]
    tight = min(points, key=lambda p: p["ratio"])
    gm, gp = max(rows, key=lambda mp: mp[1]["certificate"]["value"] - mp[1]["certificate"]["primal"])
    gap = gp["certificate"]["value"] - gp["certificate"]["primal"]
    how = {}
    for p in points:
        for k, n in p["patterns"].items():
            how[k] = how.get(k, 0) + n
    replays = [p["replay"] for p in points]
    done = [r for r in replays if r["replayed"]]
    reasons = sorted({r["reason"].split(":")[0] for r in replays if not r["replayed"]})
    off_d = max((abs(r["distance"] - p["D"]) for r, p in zip(replays, points) if r["replayed"]), default=0.0)
    replay_text = (f"The attained instance of {len(done)} of {len(points)} points replays through the suite's "
                   f"Algorithm 1 (for the nonempty quantity with eps just below the attained min g(w_t), so that "
                   f"every round is the constraint step the quantity is defined on; same branch pattern, trajectory "
                   f"within {fmt(max((r['trajectory_error'] for r in done), default=0.0))}, ||w_0 - w*|| = D within "
                   f"{fmt(off_d)}, attained value within {fmt(max((r['value_error'] for r in done), default=0.0))}); "
                   f"{sum(r['off_table'] for r in done)} oracle queries of those replays fell off the worst-case "
                   f"tables (values Algorithm 1 computes but never steps with; an observation off the table fails "
                   f"the replay)")
    replay_text += (f"; not replayed: {len(points) - len(done)} ({'; '.join(reasons)})." if reasons else ".")
    return (f"Modelled: {metas[0]['method'].split(' (m =')[0]}; function class: {metas[0]['function_class']}. "
            f"Quantities: {'; '.join(sorted({m['quantity'] for m in metas}))}, each against the claim's eps "
            f"(q_u = {_pep_values(points, 'q_u')}, D = {_pep_values(points, 'D')}, G = {_pep_values(points, 'G')}). "
            f"Claims: {', '.join(sorted({m['claim'] for m in metas}))}; clients m in "
            f"{{{tightness.axis(pep_results, 'm')}}}, local steps E in {{{tightness.axis(pep_results, 'E')}}}, rounds "
            f"T in {{{tightness.axis(pep_results, 'T')}}}. Each certificate combines two PEPs: the certified worst "
            f"case is the dual value of a relaxed PEP (||w_0 - w*|| <= D, w* only feasible: g(w*) <= 0, maximised "
            f"over the branch patterns), the attained value the primal of a PEP of KKT instances (w* solves (1)) at "
            f"||w_0 - w*|| = D on the worst pattern with strict branch margins; the largest certified - attained "
            f"difference (relaxation, margins and solver together) is {fmt(gap)} ({gm['claim']}, "
            f"{fmt_point(gp['params'])}), and a point's status is optimal only when both solves are. Branch "
            f"patterns: {sum(how.values())} enumerated over all points, {how.get('solved', 0)} solved as stated, "
            f"{how.get('loosened', 0)} kept with loosened branch conditions and {how.get('unconditioned', 0)} "
            f"without branch conditions (these two: reported infeasible or failed by the solver, not confirmed by the "
            f"branch slack), "
            f"{how.get('dropped', 0)} dropped, each only after the branch-slack PEP certified that no instance "
            f"follows it. {replay_text} {tightness.decisions(pep_results)} The tightest point's worst branch pattern "
            f"is {tight['pattern']}.")


def _pep_part(pep_results) -> list[str]:
    return tightness.section(pep_results, _pep_summary(pep_results) if pep_results else "")


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
        if not all(len(counts[sw][2]) for sw in ("hard", "soft")):     # a partial cache: no runs to compare
            rows.append([variant] + ["not run"] * 8)
            continue
        ratio, ratio_after = (_count_ratio(counts["hard"][k].mean(), counts["soft"][k].mean()) for k in (0, 1))
        rows.append([variant] + [f"{counts[s][0].mean():.1f} ± {counts[s][0].std():.1f}" for s in ("hard", "soft")]
                    + [f"{counts[s][1].mean():.1f} ± {counts[s][1].std():.1f}" for s in ("hard", "soft")]
                    + [ratio, ratio_after]
                    + [f"{counts[s][2].mean():.4f} ± {counts[s][2].std():.4f}" for s in ("hard", "soft")])
    return rows


def _statement_rows(verdicts, statements=FIGURE1_STATEMENTS) -> list:
    by = {v.claim: v for v in verdicts}
    return [[s.id, s.location, f"'{s.words}'", by[s.id].verdict.value, by[s.id].reason]
            for s in statements if s.id in by]


def _remarks_part(verdicts) -> list[str]:
    """The sentences of the discussion, Contributions, Conclusion and Section 4.1 that the symbolic findings of
    :mod:`bounds.fedsgm.remarks` decide, with their verdicts."""
    return ["### The discussion's and Section 4.1's other sentences", "",
            "Sentences about limits ('reduces to', 'recovers'), directions of the rate, hard against soft switching, "
            "communication and the data split, each decided by a symbolic finding of `bounds.fedsgm.remarks` (and, "
            "where the sentence rests on a theorem or a proof, by that claim's verdict).", "",
            markdown_table(["statement", "where", "words", "verdict", "why"],
                           _statement_rows(verdicts, REMARK_STATEMENTS)), ""]


def _figure1_part(fig_results, verdicts) -> list[str]:
    return ["### Figure 1 (NP classification) against the paper's claims", "",
            "The paper's statements about Figure 1, each decided under every reading of the two settings Section "
            "4.1 leaves open (a bias feature or not; the objective on class 0 as the data set codes it, or on the "
            "majority class as the prose says): the runs of each variant, hard and soft sharing each seed, per-seed "
            "statistics and a 95% t-interval over seeds against the range the statement asserts, with the stated "
            "tolerance and reading. A statement holds when it holds under every reading, and depends on a choice "
            "when it holds under one and is violated under another.", "",
            markdown_table(["statement", "where", "words", "verdict", "why"], _statement_rows(verdicts)), "",
            markdown_table(["variant", "violations hard", "violations soft", "after transient hard",
                            "after transient soft", "hard/soft", "hard/soft after transient", "final f hard",
                            "final f soft"], _figure1_summary(fig_results)), ""]
