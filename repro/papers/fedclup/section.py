"""The Markdown of FedCLUP's section of ``reports/fedclup.md``, one helper per part (each a list of lines), which
:func:`.audit.audit_section` puts together: the claims with their verdicts, the derived bounds on exact
linear-regression instances, the Theorem 1 shape and the minimax exponents (:func:`_audit_linear_regression`),
Corollaries 2-3 and Theorems 2-3 (:func:`_audit_optimization`), the reproduced Figures 4, 2, 3 and 6
(:func:`_audit_figures`), the MNIST Logit rows of Tables 2 and 4 (:func:`_audit_mnist`, :func:`mnist_table`), Lemma 7
over every mini-batch sequence (:func:`_audit_exact`), Figure 4 under both readings (:func:`_audit_readings`), the
adversarial search (:func:`_audit_search`), the certified worst cases (:func:`_audit_pep`) and the statements about the
figures and tables with their verdicts (:func:`_audit_statements`).

It decides nothing: the verdicts come from :mod:`.audit`, the run tallies from :mod:`.evidence`, the statements and
their readings from :mod:`.statements`, what the figures compute too from :mod:`.summaries`.
"""
from __future__ import annotations

import functools

import numpy as np

from bounds.audit import fmt_point
from bounds.core import Provenance
from bounds.fedclup import claims as BC
from bounds.fedclup import findings as BF
from repro import pep, search_audit, tightness
from repro.papers.fedclup.evidence import _CLAIM, _run_checks, _theory_runs
from repro.papers.fedclup.runs import logistic as logi
from repro.papers.fedclup.runs import mnist as mn
from repro.papers.fedclup.runs import pep as pep_model
from repro.papers.fedclup.runs import search as srch
from repro.papers.fedclup.statements import (
    _READING_WORDS, FIG4_READING_METRIC, ORDER_TOL, STATEMENTS, TABLE4, TABLE_METRIC, _by_seed, _reading_runs,
)
from repro.papers.fedclup.summaries import grouped, method_label, minimax_fits, noise_ball_fits
from repro.tables import fmt, markdown_table, select_results


def _claim_rows(theory_results, verdicts_) -> list:
    """Per claim (every encoded claim, in the order of CLAIMS): its runs, outcomes, entries judged, worst
    observed/bound and hypotheses met, with the rolled-up verdict and its reason."""
    tallies = _run_checks(theory_results)
    rows = []
    for v in (v for v in verdicts_ if v.claim in _CLAIM):
        t = tallies.get(v.claim)
        if t is None:
            rows.append([v.claim, _CLAIM[v.claim].mode.value, 0, 0, 0, "n/a", "-", v.verdict.value, v.reason])
            continue
        rows.append([v.claim, _CLAIM[v.claim].mode.value, len(t["hashes"]), t["outcomes"], t["judged"],
                     fmt(max(t["ratios"])) if t["ratios"] else "n/a",
                     f"{t['met']} of {t['outcomes']}" + (f" (violated on {t['unmet_failed']} outcomes where they "
                                                          "fail: no claim there)" if t["unmet_failed"] else ""),
                     v.verdict.value, v.reason])
    return rows


#: Table 4, MNIST Logit rows, as printed (:data:`.statements.TABLE4`): F-high, F-median, F-low, GlobalTrain, LocalTrain,
#: p-high..low
PAPER_TABLE4 = {classes: TABLE4[(name, classes)] for name, classes in TABLE4 if name == "MNIST Logit"}
TABLE4_COLUMNS = ([("fedclup", lam) for lam in mn.LAMBDAS] + [("globaltrain", None), ("localtrain", None)]
                  + [("pfedme", lam) for lam in mn.LAMBDAS])


def mnist_table(results, metric: str = "accuracy") -> list:
    rows = []
    for c in mn.CLASSES:
        ours, paper = [], PAPER_TABLE4[c]
        for (method, lam), printed in zip(TABLE4_COLUMNS, paper):
            runs = select_results(results, classes=c, method=method, **({"lam": lam} if lam is not None else {}))
            vals = [float(np.mean(r.arrays[metric])) for r in runs]
            ours.append(f"{fmt(np.mean(vals), 3)} ± {fmt(np.std(vals), 1)} ({printed})" if vals else f"- ({printed})")
        rows.append([c] + ours)
    return rows


def _audit_linear_regression(results, verdicts_) -> list[str]:
    """The claims with their verdicts (and the derived bounds on the exact linear-regression instances), the
    Theorem 1 lambda-curve and the minimax exponents."""
    out = ["### Claims: derived bounds on exact linear-regression instances, and the verdict of every claim", "",
            markdown_table(["claim", "mode", "instances", "outcomes", "entries judged (hypotheses met)",
                            "worst observed/bound on those instances", "hypotheses met", "verdict (all evidence)",
                            "reason"],
                           _claim_rows(_theory_runs(results), verdicts_)), "",
            "The verdict is computed by `repro.verdicts.roll_up` from all of a claim's evidence (`verdicts()` in "
            "`repro/papers/fedclup/audit.py`: the per-run checks below, the derived proof steps, the symbolic "
            "findings at the end of this section, order-level fits, and the claims its proof rests on, "
            "`DEPENDS_ON`). Claims with 0 instances are not checked on runs.", "",
            "Deterministic claims are judged on every data draw, lambda, client and round (float tolerance only); "
            "expectation claims on Monte-Carlo means over draws, entry by entry, with a Bonferroni-raised z "
            "(`repro.papers.fedclup.checks`). (8b) is judged only at lambdas where its hypothesis "
            "(mu + lambda)^2 >= 12 kappa^2 L^2 holds.", ""]
    stat_runs = results["fedclup.statistical"]
    shape = []
    for r in stat_runs:
        c = r.arrays["curve_mean"]
        lt, gt = float(r.arrays["localtrain"][0]), float(r.arrays["globaltrain"][0])
        shape.append([r.spec.config["m"], r.spec.config["n"], r.spec.config["spectrum"][-1] / r.spec.config["spectrum"][0],
                      r.spec.config["R"], fmt(c[0] / lt, 3), fmt(c[-1] / gt, 3), fmt(c.min() / min(lt, gt), 3),
                      fmt(float(r.arrays["rule_err"]) / c.min(), 3)])
    out += ["### Theorem 1 shape: the lambda-curve between LocalTrain and GlobalTrain", "",
            markdown_table(["m", "n", "kappa", "R", "E(lambda=1e-3)/LocalTrain", "E(lambda=1e3)/GlobalTrain",
                            "min_lambda E / min(LT, GT)", "Cor. 1 rule / min_lambda E"], shape), "",
            "Ratios near 1 in the first two columns are the lambda -> 0 and lambda -> oo limits of problem (2); a value "
            "below 1 in the third column means a tuned lambda beats both LocalTrain and GlobalTrain.", ""]
    fits = minimax_fits(results["fedclup.minimax"])
    rows = []
    for regime, f in fits.items():
        for key in ("tuned", "rule", "localtrain", "globaltrain"):
            lo, hi = f[key]["ci"]
            rows.append([regime, f["var"], key, f"{f[key]['slope']:.3f} [{lo:.3f}, {hi:.3f}]",
                         f["theory"] if key in ("tuned", "rule") else "-",
                         "yes" if key in ("tuned", "rule") and lo <= f["theory"] <= hi else
                         ("no" if key in ("tuned", "rule") else "-")])
    out += ["### Minimax rate: fitted exponents per regime (linear regression, Gaussian design)", "",
            markdown_table(["regime", "varied", "estimator", "fitted exponent [95% bootstrap CI]", "theory",
                            "theory inside CI"], rows), "",
            "Theory: heterogeneous R^2 >> rho^2/(mu^2 n): E ~ 1/n; transition 1/N << R^2 << 1/n: E ~ R^2; homogeneous "
            "R^2 << 1/N: E ~ 1/N (Corollary 1 and the quoted lower bound; `bounds.fedclup.findings.regime_table`). 'tuned' is "
            "min over a 25-point lambda grid of the Monte-Carlo mean (an oracle choice); 'rule' is the derived "
            "Corollary 1 lambda from the population constants. Grids: `MINIMAX_GRID` in "
            "`repro/papers/fedclup/runs/statistical.py`; a slope is a finite-range fit, not a limit.", "",
            markdown_table(["regime", "symbolic: upper vs lower bound order", "order match (symbolic)"],
                           [[row["regime"], row.get("rate", ""), row.get("verdict", "")] for row in BF.regime_table()]), ""]
    return out


def _tradeoff_part(tr) -> list[str]:
    """Corollary 3 / Figure 1: the rounds each lambda needs to reach a target error, from the trade-off run ``tr``."""
    lams = tr.arrays["lams"]
    curves = np.stack([tr.arrays[f"fedclup_{j}"] for j in range(lams.size)])
    targets = np.geomspace(curves[:, -1].min() * 1.05, curves[:, 0].max() * 0.5, 6)
    best = []
    for tgt in targets:
        hit = [int(np.argmax(c <= tgt)) if np.any(c <= tgt) else None for c in curves]
        ok = [(h, lam) for h, lam in zip(hit, lams) if h is not None]
        best.append([fmt(tgt, 3), ", ".join(f"{lam:g}: {h if h is not None else 'never'}" for h, lam in zip(hit, lams)),
                     fmt(min(ok)[1]) if ok else "none"])
    crossing = any(np.any(np.diff(np.sign(curves[i] - curves[j])) != 0)
                   for i in range(len(lams)) for j in range(i + 1, len(lams)))
    return ["### Corollary 3 / Figure 1: the accuracy-communication trade-off", "",
            markdown_table(["target total error", "rounds to reach it, by lambda", "lambda with fewest rounds"], best), "",
            f"Curves of different lambdas cross: {'yes' if crossing else 'no'}. Statistical errors (closed form) by "
            f"lambda: " + ", ".join(f"{lam:g}: {fmt(v, 3)}" for lam, v in zip(lams, tr.arrays["stat_err"])) + ".", ""]


def _audit_optimization(results, verdicts_) -> list[str]:
    """Corollary 3's trade-off, Corollary 2 / Tables 7-8, Theorem 2's contraction and Theorem 3's noise ball."""
    out = _tradeoff_part(results["fedclup.tradeoff"][0]) if results.get("fedclup.tradeoff") else []
    rounds = sorted(results["fedclup.rounds"], key=lambda r: r.spec.config["kappa"])
    out += ["### Corollary 2 and the Tables 7-8 pattern (derived choices gamma = 1/L_F, eta = 1/(L + lambda), K of (14-D))", "",
            markdown_table(["kappa", "lambda", "kappa_F", "rounds T_eps", "T_eps / kappa_F", "K", "gradient steps T_eps K"],
                           [[r.spec.config["kappa"], fmt(lam, 3), fmt(kf, 3), int(t), fmt(t / kf, 3), int(k), int(g)]
                            for r in rounds for lam, kf, t, k, g in zip(r.arrays["lams"], r.arrays["kappa_F"],
                                                                         r.arrays["T_eps"], r.arrays["K"],
                                                                         r.arrays["grad_evals"])]), "",
            "Symbolic (`bounds.fedclup.findings.communication_in_lambda`): " + "; ".join(
                f"{k}: {row['item']}, {row['status']} ({row['method']}): {row['evidence']}"
                for k, row in BF.communication_in_lambda().items() if k != "verdict") + ". Verdicts: "
            + "; ".join(f"{v.claim}: {v.verdict.value}" for v in verdicts_
                        if v.claim in ("fedclup.cor2.communication", "fedclup.cor2.computation")) + ".", ""]
    t2 = results["fedclup.theorem2"]
    out += ["Theorem 2 observed contraction per round (geometric mean of Phi_(t+1)/Phi_t) vs the derived rate "
            "1 - gamma mu_F / 4:", "",
            markdown_table(["kappa", "lambda", "gamma L_F", "K", "(14-D) holds", "observed rate", "derived rate",
                            "T_eps", "derived T (Cor. 2)"],
                           [[r.spec.config["kappa"], r.spec.config["lam"], r.spec.config["gamma_scale"], int(r.arrays["K"]),
                             bool(np.all(r.arrays["hypotheses_met"])), fmt(r.arrays["rate_observed"]),
                             fmt(r.arrays["rate_bound"]), int(r.arrays["T_eps"]), int(r.arrays["T_cor2"])] for r in t2]), ""]
    fits_ball = noise_ball_fits(results["fedclup.stochastic"])
    out += ["### Theorem 3 noise ball (heuristic, derived here)", "",
            "Fitted slope of the plateau of ||w_t - w~_g||^2 in m (per batch size): " +
            ", ".join(f"B = {k}: {fmt(v, 3)}" for k, v in fits_ball["m"].items()) +
            "; in B (per m): " + ", ".join(f"m = {k}: {fmt(v, 3)}" for k, v in fits_ball["batch"].items()) +
            ". The heuristic predicts -1 in both.", ""]
    return out


def _audit_figures(results) -> list[str]:
    """The synthetic-logistic Figures 4, 2, 3 and 6 against the paper's prose."""
    # reproduced figures: the paper's prose vs our runs
    f4 = results["fedclup.figure4"]
    rows = []
    for key, runs in grouped(f4).items():
        Rs = sorted({r.spec.config["R"] for r in runs})
        g = [np.mean([r.arrays["global_err"][-1] for r in select_results(runs, R=R)]) for R in Rs]
        loc = [np.mean([r.arrays["local_err"][-1] for r in select_results(runs, R=R)]) for R in Rs]
        rows.append([method_label(runs[0].spec.config).replace("$\\lambda$", "lambda"), fmt(g[0], 3), fmt(g[-1], 3),
                     fmt(loc[0], 3), fmt(loc[-1], 3)])
    out = ["### Reproduced figures (synthetic logistic, the authors' settings)", "",
            "Figure 4 (final-round errors at the smallest and largest R):", "",
            markdown_table(["method", "global err R=0.1", "global err R=3", "local err R=0.1", "local err R=3"], rows), "",
            "The figure is `figures/fedclup/figure4.png`; the paper's statements about it are judged below.", ""]
    f2 = results["fedclup.figure2"]
    rows = []
    for lam in logi.FIG2_LAMBDAS:
        finals = {K: np.mean([r.arrays["local_err"][-1] for r in runs]) for K in logi.FIG2_K
                  if (runs := select_results(f2, lam=lam, local_steps=K))}      # every K but in a partial cache
        rows.append([lam, ", ".join(f"K={K}: {fmt(v, 3)}" for K, v in finals.items()) or "not run",
                     fmt(max(finals.values()) / min(finals.values()), 3) if finals else "-"])
    out += ["Figure 2 (local total error after 20 rounds, by K):", "",
            markdown_table(["lambda", "final local error by K", "max/min over K"], rows), ""]
    f3 = results["fedclup.figure3"]
    rows = []
    for key, runs in grouped(f3).items():
        err = np.mean([r.arrays["local_err"] for r in runs], axis=0)
        half = err.size // 2
        switched = (fmt(np.mean([float(r.arrays["lambda_switched"]) for r in runs]), 3) if key[2] else "-")
        rows.append([method_label(runs[0].spec.config).replace("$\\lambda$", "lambda"), fmt(err[half], 4),
                     fmt(err[-1], 4), fmt(err.min(), 4), int(np.argmin(err)), switched])
    out += ["Figure 3 (local total error, mean over data seeds; the adaptive runs switch lambda once at round T/2 with "
            "the authors' rule):", "",
            markdown_table(["method", "error at T/2", "final error", "min error", "round of min", "lambda after switch"],
                           rows), ""]
    f6 = results["fedclup.figure6"]
    rows = []
    for r in sorted(f6, key=lambda r: (r.spec.config["m"], r.spec.config["server"], r.spec.config["lam"])):
        early = min(10, r.arrays["local_err"].size - 1)
        rows.append([r.spec.config["m"], r.spec.config["server"], r.spec.config["lam"], fmt(r.arrays["local_err"][early], 3),
                     fmt(r.arrays["local_err"][-1], 3), fmt(r.arrays["global_err"][-1], 3)])
    out += ["Figure 6 (10 % sampling):", "",
            markdown_table(["m", "server", "lambda", "local err round 10", "local err round 100", "global err round 100"],
                           rows), ""]
    return out


def _audit_mnist(results) -> list[str]:
    """Tables 2 and 4 (MNIST Logit rows)."""
    mnist = results["fedclup.mnist"]
    head = ["classes"] + [f"FedCLUP lambda={lam:g}" for lam in mn.LAMBDAS] + ["GlobalTrain", "LocalTrain"] + \
           [f"pFedMe lambda={lam:g}" for lam in mn.LAMBDAS]
    out = ["### Tables 2 and 4, MNIST Logit rows: ours (paper in parentheses)", "",
            "Accuracy of the global model on the full 10k test set (for LocalTrain: the average of the local models, "
            "which the authors' server computes for evaluation only), mean ± std over seeds:", "",
            markdown_table(head, mnist_table(mnist, "global_accuracy")), "",
            "Accuracy of each client's own model (GlobalTrain: the global model) on the full 10k test set, mean over "
            "clients, mean ± std over seeds:", "", markdown_table(head, mnist_table(mnist)), "",
            "Class-restricted accuracy as the authors' code computes it (test images whose label is among the classes of the client's training split; argmax over all 10 outputs):", "",
            markdown_table(head, mnist_table(mnist, "restricted_accuracy")), "",
            f"Table 2 is the 10-class row of Table 4. Which accuracy the paper reports is not printed; the statements "
            f"below read it as `{TABLE_METRIC}`.", ""]
    return out


def _audit_statements(verdicts_) -> list[str]:
    """The paper's statements about its figures and tables, with their computed verdicts."""
    by = {v.claim: v for v in verdicts_}
    rows = [[st.id, st.location, f"'{st.words}'", by[st.id].verdict.value, by[st.id].reason] for st in STATEMENTS
            if st.id in by]
    return ["### The paper's statements about its figures and tables", "",
            "Orderings between noisy runs are decided by a Student-t interval over seeds (`repro.comparisons.compare`, "
            f"tolerance ORDER_TOL = {ORDER_TOL:g}; one seed is inconclusive); properties of every run by "
            "`repro.verdicts.from_checks`.", "",
            markdown_table(["statement", "where", "the paper's words", "verdict", "why"], rows), ""]


def _audit_exact(exact_runs) -> list[str]:
    """The table of ``fedclup.exact`` (empty when it has not run)."""
    if not exact_runs:
        return []
    rows = [[fmt_point(r.meta["metadata"]["instance"]) + f", seed {r.spec.seed}", int(r.arrays["sequences"]),
             fmt(float(r.arrays["observed"][0])), fmt(float(r.arrays["bound"][0])), fmt(float(r.arrays["ratio"][0])),
             "holds" if bool(r.arrays["passed"][0]) else "VIOLATED", int(r.arrays["sequences_exceeding"]),
             f"`python -m repro run fedclup.exact; result {r.hash}`"] for r in exact_runs]
    return ["### Lemma 7 over every mini-batch sequence (exact expectation)", "",
            "The K inner steps of (13) are random only through their batches (a B-subset of the client's n rows per "
            "step, uniform and independent). On tiny instances every one of the C(n, B)^K equally likely sequences is "
            "run, so Lemma 7's expectation is computed exactly (no Monte-Carlo error, never inconclusive). The last "
            "count is the sequences on which the error itself exceeds the bound, which an expectation allows.", "",
            markdown_table(["instance", "sequences", "E||w_K - w_*||^2", "bound", "observed/bound", "verdict",
                            "sequences above the bound", "replay"], rows), ""]


def _audit_readings(results) -> list[str]:
    """Figure 4's final errors under both readings (``fedclup.readings``), mean over the data seeds."""
    rows = []
    for name in logi.READINGS:
        metric = FIG4_READING_METRIC[name]
        table = _by_seed(_reading_runs(results, name), lambda c: (c["R"], c["method"], c.get("lam")), metric,
                         lambda a: float(a[-1]))
        for key in sorted({k for k, _ in table}, key=str):
            values = [v for (k, _), v in table.items() if k == key]
            label = key[1] if key[2] is None else f"{key[1]} lambda {key[2]:g}"
            rows.append([name, metric, fmt(key[0], 3), label, fmt(float(np.mean(values)), 4), len(values)])
    if not rows:
        return []
    return ["### Figure 4: the authors' code against the paper's reading", "",
            "The authors' public code fixes choices the paper states otherwise or not at all. `fedclup.readings` runs "
            "Figure 4's sweep both ways: **code** = " + _READING_WORDS["code"] + "; **paper** = "
            + _READING_WORDS["paper"] + ". Under the code's reading GlobalTrain and LocalTrain are `fedclup.figure4`'s "
            "own runs (they use neither the server rule nor L). Each statement about Figure 4 is decided under both "
            "(findings `fedclup.code.readings.figure4.*`, in the findings table), and so is each statement about "
            "Figures 2 and 3 on their own runs under both readings (`fedclup.readings_fig23`; findings "
            "`fedclup.code.readings.figure2.*`, `.figure3.*`). Figure 4's final errors, mean over the data seeds:", "",
            markdown_table(["reading", "metric", "R", "method", "final error", "seeds"], rows), ""]


# ---------------------------------------------------------------------------- certified worst cases (fedclup.pep)
def _not_recovered(notes: str) -> list[str]:
    """The sentences of a claim's notes that say what of the paper is not recovered."""
    return [x.strip().rstrip(".") for x in notes.split(". ") if "not recovered" in x]


def _pep_summary(pep_results) -> str:
    """One computed paragraph: what was modelled and decided, from the runs' metadata and the claim objects (nothing
    typed by hand)."""
    metas = [r.meta["metadata"] for r in pep_results]
    points = [p for m in metas for p in m["points"]]
    replay = [abs(p["replay"] - p["certificate"]["primal"]) for p in points if "replay" in p]
    starts = [p["replay_start"] for p in points if "replay_start" in p]
    statuses = {p["certificate"]["status"] for p in points} - {"optimal"}
    unsolved = [(m["claim"], u) for m in metas for u in m.get("unsolved", ())]
    values = [p["certificate"]["value"] for p in points]
    unresolved = [v for v in values if not pep_model.resolved(v)]
    resolution = min((abs(v) / pep.margin(v, "not optimal") for v in values), default=float("nan"))
    axis = functools.partial(tightness.axis, pep_results)
    claims = [BC.claim(cid) for cid in sorted({m["claim"] for m in metas})]
    derived = [c for c in claims if c.provenance == Provenance.DERIVED]
    text = (f"Modelled: {'; '.join(sorted({m['method'].split('; ')[0] for m in metas}))}; "
            f"function class: {metas[0]['function_class']}. Quantities: "
            f"{'; '.join(sorted({m['quantity'] for m in metas}))}. "
            f"Claims: {', '.join(c.id for c in claims)}")
    if derived:
        text += (f"; the printed bounds of {', '.join(c.id for c in derived)} are this project's derived readings "
                 f"(claim provenance `{Provenance.DERIVED.value}`: "
                 + "; ".join(f"{c.id}, {c.location}, from {c.derived_from}"
                             + "".join(f"; its notes: '{n}'" for n in _not_recovered(c.notes)) for c in derived)
                 + "), not formulas printed in the paper")
    text += (f"; clients m in {{{axis('m')}}}, L in {{{axis('L')}}}, mu in {{{axis('mu')}}}, lambda in "
             f"{{{axis('lam')}}}, local steps K in {{{axis('K')}}}, T in {{{axis('T')}}}, b in {{{axis('b')}}}. "
             f"{tightness.decisions(pep_results)} ")
    if unsolved:
        text += (f"{len(unsolved)} further point(s) had no certificate (the solver failed) and are in neither the "
                 f"counts nor the table: " + "; ".join(f"{cid} at {fmt_point(u['params'])} ({u['reason']})"
                                                      for cid, u in unsolved) + ". ")
    text += (f"{len(values) - len(unresolved)} of the {len(values)} certified worst cases exceed the solver's wider "
             f"margin ({fmt(pep.INACCURATE_MARGIN_REL)} x max(1, |value|), that of a solve not `optimal`), the "
             f"smallest by a factor {fmt(resolution)}")
    text += (f"; {len(unresolved)} lie below it, and their ratio is bound / solver noise, not a tightness ratio. "
             if unresolved else ". ")
    text += (f"{len(replay)} of the {len(points)} worst-case instances were replayed through the suite's Algorithm 1 "
             f"with table oracles: the largest |replayed - attained| is {fmt(max(replay, default=float('nan')))}, "
             f"with replayed starts Phi_0 up to {fmt(max(starts, default=float('nan')))}; "
             f"{sum(p['certificate']['status'] != 'optimal' for p in points)} of {len(points)} solves ended with a "
             f"Clarabel status other than `optimal` ({', '.join(sorted(statuses)) or 'none'}).")
    return text


def _audit_pep(pep_results) -> list[str]:
    return tightness.section(pep_results, _pep_summary(pep_results) if pep_results else "")


# ---------------------------------------------------------------------------- adversarial search (fedclup.search)
def _relation_cell(rec) -> str:
    n_rel = len(_CLAIM[rec.claim].relations)
    return f"{rec.detail['relation'] + 1} of {n_rel}"


def _confirmed_cell(rec) -> str:
    conf = rec.detail["confirm"]
    return "-" if conf["ratio"] is None else f"{fmt(conf['ratio'], 4)} ± {fmt(conf['se'], 2)}"


def _rounding_cell(rec) -> str:
    rnd = rec.detail["rounding"]
    if not rnd["count"]:
        return "0"
    return (f"{rnd['count']} (worst raw {fmt(rnd['worst_raw_ratio'], 3)}"
            + (", check failed)" if rnd["check_failed"] else ")"))


#: the columns FedCLUP's search table adds: the relation searched, the Monte-Carlo confirmation, rounding
_SEARCH_COLUMNS = (("relation", _relation_cell), ("confirmed (mean ± SE)", _confirmed_cell),
                   ("certified", lambda rec: fmt(rec.detail["certified"], 4)),
                   ("float-rounding instances", _rounding_cell))


def _audit_search(search_runs, pep_runs=()) -> list[str]:
    """The section of the adversarial search: per (claim, relation, family) the best instance and its check; beside
    each claim the reach of its certified worst case (``fedclup.pep`` runs ``pep_runs``)."""
    intro = ("Differential evolution then Nelder-Mead (`repro.search`) over structured families of exact "
             "linear-regression instances (`repro/papers/fedclup/runs/search.py`: `general` boxes and the degenerate "
             "one dimension / two clients / one sample / few rounds ones; step sizes at the edge of their "
             "conditions), maximising the observed/bound that the existing checks report. Expectation claims are "
             "Monte-Carlo means: the best instance is re-run on fresh draws ('confirmed', mean ± SE over "
             f"{srch.CONFIRM_SEEDS} runs) and judged on mean - 3 SE ('certified'); deterministic claims on the "
             "searched draw. 'halved constant detected': 2 x certified > 1, i.e. the search would report the "
             "claim violated had its bound been halved. Instances where float rounding decides the outcome "
             f"(observed and bound both below {srch.ROUNDING:g}, or an excess inside the check's tolerance) are "
             "not judged; their count and worst raw ratio are listed ('check failed': the existing expectation "
             "check, which has no float tolerance, fails such an instance, e.g. Lemma 7 with a full batch "
             "(sigma = 0) and many steps at observed ~1e-32 against a bound ~1e-61; rounding, not a violation of "
             "the bound). Not searched: " + "; ".join(f"{k} ({v})" for k, v in srch.NOT_SEARCHED.items()) + ".")
    return search_audit.section(search_runs, "fedclup.search", intro, extra=_SEARCH_COLUMNS,
                                order=lambda rec: (srch.TARGETS.index((rec.claim, rec.detail["relation"])),
                                                   rec.family), reach=tightness.claim_reach(pep_runs))
