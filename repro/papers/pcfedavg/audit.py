"""PC-FedAvg's section of ``reports/audit.md``: the claims on synthetic instances, the re-derived proof steps,
the communication complexities, the empirical rates, the adversarial instances, the Section 5 experiments and
the symbolic and settings findings. The shared report (:mod:`repro.report`) reads ``AUDIT_EXPERIMENTS`` and
calls ``audit_section(results, profile)``.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from bounds import pcfedavg as B
from bounds import pcfedavg_findings as BF
from bounds.audit import DISCREPANCY, Finding
from repro.tables import findings_table, fmt, markdown_table, select_results
from repro.papers.pcfedavg.runs import data as data_exp
from repro.papers.pcfedavg.summaries import DATASET_LABELS, METHOD_LABELS, k_free_term, one_active_runs, rate_fits

AUDIT_EXPERIMENTS = ("pcfedavg.theory", "pcfedavg.rates", "pcfedavg.adversarial", "pcfedavg.comparison",
                     "pcfedavg.local_steps")
#: M_rho and M are computed by different solves; where x*_rho = x* (no constraint active) they agree to ~1e-14
#: relative, and such instances are reported as ties, not as M_rho > M
RATIO_TIE = 1e-9


def _claim_rows(theory_results) -> list:
    rows = []
    for claim in B.CLAIMS:
        outs = [(r, i) for r in theory_results for i in np.flatnonzero(r.arrays["claim_id"] == claim.id)]
        compact = [(r, i) for r, i in outs if r.spec.config.get("path", "compact") == "compact"]
        printed = [(r, i) for r, i in outs if r.spec.config.get("path") == "printed"]
        if not outs:
            rows.append([claim.id, claim.mode.value, "symbolic only (see findings)", "", "", ""])
            continue
        fails = len({r.hash for r, i in compact if not bool(r.arrays["passed"][i])})
        inconc = len({r.hash for r, i in compact if bool(r.arrays["inconclusive"][i])})
        ratios = [float(r.arrays["ratio"][i]) for r, i in compact if np.isfinite(r.arrays["ratio"][i])]
        hyp = all(bool(r.arrays["hypotheses_met"][i]) for r, i in compact)
        pfails = len({r.hash for r, i in printed if not bool(r.arrays["passed"][i])})
        n_printed = len({r.hash for r, _ in printed})
        rows.append([claim.id, claim.mode.value, len({r.hash for r, _ in compact}),
                     f"failed on {fails}, inconclusive on {inconc}" + ("" if hyp else " (some hypotheses unmet)"),
                     fmt(max(ratios)) if ratios else "n/a",
                     f"failed on {pfails} of {n_printed} instances" if printed else "not run"])
    return rows


def _data_summary(comparison, local_steps) -> tuple[list, list]:
    rows, feasibility = [], []
    for dataset in data_exp.DATASETS:
        for method in data_exp.METHODS:
            runs = select_results(comparison, dataset=dataset, method=method)
            if not runs:
                continue
            loss = np.array([r.arrays["global_loss"][-1] for r in runs])
            infeas = np.stack([r.arrays["infeas_mean"] for r in runs])
            first = [int(np.argmax(c > 0)) if np.any(c > 0) else None for c in infeas]
            rows.append([DATASET_LABELS[dataset], METHOD_LABELS[method], len(runs),
                         f"{fmt(loss.mean())} ± {fmt(loss.std())}", fmt(infeas[:, -1].mean()),
                         fmt(infeas.max()), ", ".join("never" if f is None else str(f) for f in first)])
        pc = select_results(comparison, dataset=dataset, method="pcfedavg")
        base = [r for r in comparison if r.spec.config["dataset"] == dataset and r.spec.config["method"] != "pcfedavg"]
        if pc and base:
            pc_inf = np.stack([r.arrays["infeas_mean"] for r in pc]).mean(0)
            best_base = np.min(np.stack([np.stack([r.arrays["infeas_mean"] for r in select_results(base, method=m)]).mean(0)
                                         for m in data_exp.METHODS[1:]]), axis=0)
            own = max(float(np.max(r.arrays["own_block_dist"])) for r in pc)
            active = (pc_inf > 0) | (best_base > 0)             # rounds where some method is infeasible
            feasibility.append([DATASET_LABELS[dataset],
                       f"{int(np.sum(pc_inf[active] <= best_base[active]))} of {int(active.sum())}",
                       fmt(pc_inf.max()), fmt(own), int(np.sum(pc_inf > 0))])
    return rows, feasibility


def _local_steps_rows(local_steps) -> list:
    rows = []
    for dataset in data_exp.DATASETS:
        finals = []
        for h in data_exp.LOCAL_STEPS:
            runs = select_results(local_steps, dataset=dataset, local_steps=h)
            if runs:
                finals.append((h, np.mean([r.arrays["global_loss"][-1] for r in runs]),
                               np.mean([r.arrays["infeas_mean"][-1] for r in runs])))
        if finals:
            losses = [f[1] for f in finals]
            monotone = all(b <= a for a, b in zip(losses, losses[1:]))
            rows.append([DATASET_LABELS[dataset], ", ".join(f"H={h}: {fmt(l)}" for h, l, _ in finals),
                         ", ".join(f"H={h}: {fmt(i)}" for h, _, i in finals),
                         "yes" if monotone else "no"])
    return rows


def _settings(comparison) -> list:
    findings = []
    for dataset in data_exp.DATASETS:
        runs = select_results(comparison, dataset=dataset, method="pcfedavg")
        if not runs:
            continue
        cfg, L_f = runs[0].spec.config, runs[0].meta["metadata"]["clients"]["L_f"]
        rhos = data_exp.rho_schedule(cfg["rho_schedule"], cfg["rounds"])
        findings += BF.settings_findings({"dataset": dataset, "gamma": cfg["gamma"], "rho": max(rhos),
                                          "H": cfg["local_steps"], "m": len(cfg["sigma"]), "L_f": L_f,
                                          "sigma": max(cfg["sigma"])})
    return findings


def _schedule_findings(comparison) -> list:
    """Section 5's 'increasing penalty' rho_r = (r + 10000)^(1/4) against the theory's constant rho = sqrt(R)."""
    if not comparison:
        return []
    cfg = comparison[0].spec.config
    rhos = np.array(data_exp.rho_schedule(cfg["rho_schedule"], cfg["rounds"]))
    root = np.sqrt(cfg["rounds"])
    return [Finding(
        "pcfedavg.settings.rho_schedule", "experiment-settings", ("pcfedavg.prop4.8.i", "pcfedavg.thm3.4.i"),
        DISCREPANCY,
        "Section 5 uses a round-dependent 'increasing penalty' rho_r = (r + 10000)^(1/4), while Props 4.7-4.8 and "
        "Theorem 3.4 assume one constant rho (= sqrt(R)). Over R = 100 rounds the schedule is almost constant and "
        "equal to sqrt(R): the experiments test the theory's rho, not an increasing one.",
        f"rho_0 = {rhos[0]:.6g}, rho_(R-1) = {rhos[-1]:.6g} (relative change {(rhos[-1] / rhos[0] - 1):.2%}); "
        f"sqrt(R) = {root:.6g}", "numeric")]


#: The paper's words about its method beside what Algorithm 1 as printed does (audit).
METHOD_DESCRIPTIONS = [
    "### The paper's descriptions of the method vs Algorithm 1 as printed", "",
    "- \"agents start each round from different model states\" (Section 5): line 3 sends every block "
    "z_r^(j) to every agent, so all agents start round r from the same vector z_r (the proof of Lemma 4.5 "
    "uses exactly this: x_(T_r) = x_(i,T_r) for all i).",
    "- \"the server updates only the blocks corresponding to each agent rather than fully averaging all "
    "blocks\": line 10 averages every block over all agents.",
    "- \"enforces local feasibility at every iteration\" (Conclusion), \"our iterates remain feasible "
    "throughout\" (Section 5): Algorithm 1 never projects; it penalises dist(x_i^(i), X_i)^2 with a finite rho, "
    "so feasibility holds only where the constraint happens to be inactive (see the Section 5 feasibility table "
    "above: own-block distance over all local iterations).",
    "- Line 8 (j != i) uses sigma_i/m (x_i^(j) - x_hat_i) where (CR) has sigma_i/m (x_i^(i) - x_hat_i): the "
    "printed update is not the gradient step the analysis differentiates (its sigma-part is not even a "
    "gradient field; `tests/pcfedavg/test_algorithm.py`).", ""
]


def _audit_synthetic(results, profile: str) -> list[str]:
    """The section's title, the claims on synthetic instances, Lemma 4.5's M vs M_rho, the printed line 8, the
    re-derived proof steps and the communication complexities."""
    theory_runs = results["pcfedavg.theory"]
    out = ["## PC-FedAvg (On Performance Guarantees for Federated Learning with Personalized Constraints)", "",
           "### Claims on synthetic instances", "",
           markdown_table(["claim", "mode", "instances (CR path)", "verdict (instances)", "worst observed/bound",
                           "printed line-8 path"], _claim_rows(theory_runs)), "",
           "Lemma 4.6's observed/bound is ~1 by construction (both sides contain E||bar x_k - x*_rho||^2); its "
           "verdicts, not its ratio, are informative.", "",
           f"Instances: the `pcfedavg.theory` grid ({len(theory_runs)} runs; quadratic and logistic losses, box, "
           "l2-ball, l1-ball and mixed sets, m, H, nu as in `THEORY_GRID['" + profile + "']`, the admissible step "
           "size, S Monte-Carlo replicates each). Expectations are replicate means; E over K* is the exact average "
           "over k. Per-iteration lemmas are judged at every k with a Bonferroni-raised threshold (>= 3 SE).", ""]
    # M vs M_rho (finding e), printed path
    ratios = np.array([float(r.arrays["M_rho"] / r.arrays["M"]) for r in theory_runs])
    above, tied = ratios > 1 + RATIO_TIE, np.abs(ratios - 1) <= RATIO_TIE
    out += [f"Lemma 4.5's proof bounds (1/m) sum_i ||grad G_i,rho(x*_rho)||^2 + nu^2/m (= M_rho) by M: on the grid "
            f"M_rho > M on {int(above.sum())} of {ratios.size} instances (max M_rho/M = {fmt(ratios.max())}) and "
            f"M_rho = M to rounding (|M_rho/M - 1| <= {RATIO_TIE:g}) on {int(tied.sum())}; "
            "the Lemma 4.5 rows above show whether the stated bound nevertheless held.", ""]
    printed = [r for r in theory_runs if r.spec.config.get("path") == "printed"]
    for r in printed:
        out += [f"Printed line 8 vs (CR) (instance {r.hash}): max_k ||bar x_(k+1) - (bar x_k - gamma (1/m) sum_i "
                f"grad g_i)|| = {fmt(r.arrays['cr_residual_max'])} (zero on the (CR) path); the analysis' "
                "(L4.6-a) does not describe the printed algorithm.", ""]
    out += ["### Proof steps re-derived", "",
            markdown_table(["claim", "step", "status", "method", "evidence"],
                           [[s["claim"], s["step"], s["status"], s["method"], s["evidence"]] for s in BF.proof_steps()]), ""]
    for admissible, title in ((False, "proof's choices rho = sqrt(R), gamma = 1/sqrt(R), K = RH"),
                              (True, "an admissible gamma = min{1/(6 L_G), 1/(5 L_G (H-1))}, rho = sqrt(R)")):
        out += [f"### Communication complexity derived from Prop. 4.8 vs Theorem 3.4 as printed ({title})", "",
                markdown_table(["part", "derived term", "printed term", "status"],
                               [[row["part"], row["derived_term"], row["printed_term"] or "-", row["status"]]
                                for row in BF.complexity_table(admissible=admissible)]), ""]
    return out


def _audit_rates(results) -> list[str]:
    """Empirical rates against Theorem 3.4 and Prop. 4.8, and the adversarial instances."""
    fits = rate_fits(results["pcfedavg.rates"])
    # R = O(eps^-p) means the bound decays as R^(-1/p): exponents from the symbolic layer.
    derived = {rule: BF.leading_eps_powers(admissible=(rule == "admissible")) for rule in fits}
    part = {"subopt": "i", "infeas": "ii"}
    out = ["### Empirical rates (rho = sqrt(R))", "",
            markdown_table(["step size", "quantity", "fitted exponent of R [95% CI]", "Theorem 3.4 (printed)",
                            "derived from Prop. 4.8", "hypotheses met"],
                           [[rule, q, f"{fmt(fits[rule][q]['slope'], 3)} [{fmt(fits[rule][q]['ci'][0], 3)}, "
                                      f"{fmt(fits[rule][q]['ci'][1], 3)}]",
                             f"{-1 / Fraction(derived[rule][part[q]]['printed'])} "
                             f"(R = O(eps^-{derived[rule][part[q]]['printed']}))",
                             f"{-1 / Fraction(derived[rule][part[q]]['derived'])}",
                             "all" if all(fits[rule]["hypothesis_met"]) else "none" if not any(fits[rule]["hypothesis_met"])
                             else "some"] for rule in fits for q in ("subopt", "infeas")]), "",
            "Quantities: |E[f(bar x_K*) - f(x*)]| (sign per R: " +
            "; ".join(f"{rule}: {fits[rule]['subopt']['signs']}" for rule in fits) +
            ") and max_i E[d_i^2], on the fixed `RATE_INSTANCE`. A slope is a finite-R fit, not a limit.", ""]
    adv = results["pcfedavg.adversarial"]
    one = sorted(one_active_runs(adv), key=lambda r: (r.spec.config["K"], r.spec.config["m"]))
    out += ["### Prop. 4.8 (ii) on an admissible instance (one active constraint)", "",
            "n = 1, f_i(y) = (y - 3)^2 / 2 for all i, X_1 = [-1, 1], X_i = R (i >= 2), sigma_i = 1, rho = 10, H = 1, "
            "nu = 0 (deterministic), gamma = 1/(6 L_G), start at x* (feasible). Every hypothesis of Prop. 4.8 holds.", "",
            markdown_table(["m", "K", "E_K* d_1^2", "Prop 4.8(ii) bound", "ratio",
                            "K -> oo limit dist(x*_rho)^2", "5 m D / rho^2 (K-free term)", "m^2 D / rho^2 (rho -> oo)",
                            "hypotheses met"],
                           [[r.spec.config["m"], r.spec.config["K"], fmt(r.arrays["infeas"].max()),
                             fmt(r.arrays["bound"]), fmt(r.arrays["ratio"]), fmt(r.arrays["dist_rho_sq"].max()),
                             fmt(k_free_term(r)), fmt(r.arrays["m2D_over_rho2"]), bool(r.arrays["hypotheses_met"])]
                            for r in one]), "",
            "As K grows the bound tends to its K-free term 5 m D / rho^2 while E d_1^2 tends to dist(x*_rho)^2: "
            "Prop. 4.8 (ii) fails in the limit on every row where the limit column exceeds the K-free column. "
            "The route through (12) gives 5 m^2 D / rho^2 as first term instead (finding b); E d_1^2 is below it on "
            f"{sum(float(r.arrays['infeas'].max()) <= 5 * float(r.arrays['m2D_over_rho2']) for r in one)} of "
            f"{len(one)} rows.", ""]
    search = [r for r in adv if r.spec.config.get("search") != "one_active"]
    for r in search:
        best = r.meta["metadata"]["best"]
        out += [f"Random search ({r.spec.config['budget']} instances, CR path): failed checks "
                f"{int(r.arrays['n_failures'])}; largest observed/bound per claim: " +
                "; ".join(f"{cid.split('.', 1)[1]} {fmt(best[cid]['ratio'])}" for cid in best) + ".", ""]
    return out


def _audit_data(results) -> list[str]:
    """Section 5 (Figures 1-4): the summary per method and the section's three claims, quoted."""
    comparison, local_steps = results["pcfedavg.comparison"], results["pcfedavg.local_steps"]
    rows, feasibility = _data_summary(comparison, local_steps)
    out = ["### Section 5 experiments (Figures 1-4)", "",
            markdown_table(["data", "method", "seeds", "final global loss", "final infeasibility",
                            "max infeasibility", "first infeasible round per seed"], rows), "",
            "Section 5: \"our method consistently outperforms the baselines\"; \"our iterates remain feasible "
            "throughout\":", "",
            markdown_table(["data", "rounds (among those where some method is infeasible) where PC-FedAvg's "
                                    "mean infeasibility <= the best baseline's",
                            "max server-block infeasibility", "max own-block distance over all local iterations",
                            "rounds with infeasible server blocks"], feasibility), "",
            "Section 5: \"increasing the number of local updates improves the performance\":", "",
            markdown_table(["data", "final global loss by local steps", "final infeasibility", "loss decreasing in H"],
                           _local_steps_rows(local_steps)), "",
            "\"Performance\" is read as the global loss; the infeasibility column is the "
            "companion plot of Figure 4.", ""]
    return out


def audit_section(results, profile: str) -> str:
    comparison = results["pcfedavg.comparison"]
    out = _audit_synthetic(results, profile) + _audit_rates(results) + _audit_data(results)
    findings = BF.audit_findings(np.random.default_rng(0)) + _settings(comparison) + _schedule_findings(comparison)
    out += ["### Symbolic and settings findings", "", findings_table(findings), ""] + METHOD_DESCRIPTIONS
    return "\n".join(out)
