"""FedCLUP's statements about its figures and tables (:data:`STATEMENTS`, in the paper's words: Figures 1-6, 9 and
10, Tables 2, 4 and 7-8) and the evidence about each that the cached results allow (:func:`statement_evidence`):
orderings between noisy runs decided over seeds (:func:`_order`, :func:`repro.comparisons.compare`) and properties of
every run (:func:`_every_run`, :func:`repro.verdicts.from_checks`). A figure whose runs the authors' code and the
paper read differently is decided under each reading (:data:`READING_EXPERIMENTS`, :func:`_reading_runs`,
:func:`_by_reading`), each open choice of the paper under each of its values (:mod:`.errata`).

Figure 2's closing sentence (Section 6.2, again in Appendix D.2) is decided symbolically against Corollary 2 under
both readings of its erratum (:func:`figure2_rounds_findings`); the printed Tables 2 and 4 (:data:`TABLE2`,
:data:`TABLE4`) are read against each other (:func:`tables_agree`) and against the paper's words about them under a
strict and a lenient reading (:func:`printed_findings`).

:mod:`.audit` rolls this evidence up into the statements' verdicts and pairs the two readings into findings;
:mod:`.section` shows the statements with their verdicts.
"""
from __future__ import annotations

import functools
import math
import os
from dataclasses import replace
from pathlib import Path

import numpy as np

from bounds.fedclup import remarks as RM
from bounds.audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE, Finding, producer
from repro.comparisons import compare
from repro.papers.fedclup import errata as ERR
from repro.papers.fedclup.runs import logistic as logi
from repro.papers.fedclup.runs import mnist as mn
from repro.verdicts import Bearing, Evidence, Statement, from_checks

_S62, _D2 = "Section 6.2", "Appendix D.2"
STATEMENTS = (
    Statement("fedclup.figure1.tradeoff", f"{_S62}, Figure 1",
              "there shall be a accuracy-communication trade-off in choosing the personalization degree to achieve the "
              "smallest total error under given communication budget (See Figure 1)", "fedclup.tradeoff"),
    Statement("fedclup.figure1.early", f"{_D2}, Figure 1", "Consistent with the findings from Figure 1, FedCLUP with "
              "smaller [lam] (higher personalization) consistently achieves faster convergence at the early stages of "
              "training", "fedclup.tradeoff"),
    Statement("fedclup.figure2.local_updates", f"{_S62}, Figure 2", "In the low-personalization setting (left column), "
              "more local updates significantly accelerate convergence, reducing the reliance on frequent communication. "
              "However, in the high-personalization setting (right column), increasing local updates has a limited "
              "effect on convergence", "fedclup.figure2"),
    Statement("fedclup.figure3.least_communication", f"{_S62}, Figure 3 (left)", "for any given total error, there "
              "exists a specific degree of personalization in FedCLUP that incurs the least communication cost among "
              "all considered methods", "fedclup.figure3"),
    Statement("fedclup.figure3.no_fixed_best", f"{_S62}, Figure 3 (left)", "no fixed personalization degree "
              "consistently outperforms others across all error levels", "fedclup.figure3"),
    Statement("fedclup.figure3.dynamic_lambda", f"{_S62}, Figure 3 (right)", "Beginning with a small [lam] for "
              "efficiency, as soon as the validation performance plateaus or the statistical error stops improving "
              "significantly, we gradually increase [lam]", "fedclup.figure3"),
    Statement("fedclup.figure4.globaltrain_low_heterogeneity", f"{_D2}, Figure 4", "GlobalTrain achieves the lowest "
              "error in this regime", "fedclup.figure4"),
    Statement("fedclup.figure4.localtrain_high_heterogeneity", f"{_D2}, Figure 4", "as statistical heterogeneity "
              "increases, collaborative learning becomes less effective. In this setting, LocalTrain outperforms other "
              "methods", "fedclup.figure4"),
    Statement("fedclup.figure4.personalized_high_heterogeneity", f"{_D2}, Figure 4", "Highly personalized FedCLUP also "
              "performs better than less personalized variants", "fedclup.figure4"),
    Statement("fedclup.figure5.early", f"{_D2}, Figure 5", "Across all sub-figures, FedCLUP with smaller [lam] (higher "
              "personalization) demonstrates faster convergence, especially in the early stages of training",
              "fedclup.mnist"),
    Statement("fedclup.figure6.early", f"{_D2}, Figure 6", "FedCLUP with smaller [lam] (higher personalization) "
              "consistently achieves faster convergence at the early stages of training, while FedCLUP with larger "
              "[lam] (lower personalization) takes more communication rounds to converge", "fedclup.figure6"),
    Statement("fedclup.figure6.heterogeneity", f"{_D2}, Figure 6", "As statistical heterogeneity increases (measured by "
              "[R]), FedCLUP with smaller [lam] gradually outperforms models with larger [lam]", "fedclup.figure6"),
    Statement("fedclup.figure9_10.real_data", f"{_S62}, Figures 9 and 10", "To further validate this finding, we "
              "conduct the same experiment on real-world datasets. Results on the CelebA and Sent140 datasets are "
              "presented in Figures 9 and 10, respectively.", ""),
    Statement("fedclup.table2.collaboration", f"{_S62}, Table 2", "as the personalization degree decreases and "
              "collaborative learning increases, the solution of Problem (2) becomes closer to GlobalTrain, leading to "
              "improved statistical accuracy", "fedclup.mnist"),
    Statement("fedclup.table2.pfedme", f"{_S62}, Table 2", "A similar trend is observed for both FedCLUP and pFedMe "
              "across different datasets and models", "fedclup.mnist"),
    Statement("fedclup.table4.interpolation", f"{_D2}, Table 4", "as personalization degree increase, the accuracy "
              "approaches that of LocalTrain [...] Conversely, as personalization degree decreases, the accuracy "
              "approaches that of GlobalTrain", "fedclup.mnist"),
    Statement("fedclup.table4.pfedme_interpolation", f"{_D2}, Table 4", "pFedMe also exhibits interpolation between "
              "local and global learning under varying levels of data heterogeneity", "fedclup.mnist"),
    Statement("fedclup.table4.homogeneity", f"{_D2}, Table 4", "as dataset homogeneity increases [...] we observe a "
              "general improvement in accuracy across all methods", "fedclup.mnist"),
    Statement("fedclup.table4.localtrain_lowest", f"{_D2}, Table 4", "LocalTrain consistently underperforms across all "
              "levels of statistical heterogeneity", "fedclup.mnist"),
    Statement("fedclup.table7_8.rounds_kappa", "Appendix D.3.1, Tables 7 and 8", "for a fixed personalization "
              "parameter [lam], we observe that longer value of [kappa] result in slower convergence rates with respect "
              "tot he number of communication rounds", "fedclup.rounds"),
    Statement("fedclup.table7_8.gradients_kappa", "Appendix D.3.1, Tables 7 and 8", "increasing the condition number "
              "also leads to a higher total number of gradient evaluations required to reach a target error",
              "fedclup.rounds"),
) + tuple(Statement(sid, where, words, "") for sid, where, words in RM.FIGURE2_ROUNDS)
_STATEMENT = {s.id: s for s in STATEMENTS}

#: tolerance of an ordering between noisy runs: errors, losses and accuracies here are O(0.01..10), so a mean
#: difference within 1e-9 is floating-point noise (another machine's BLAS threads), not an ordering
ORDER_TOL = 1e-9
POSITIVE = (0.0, math.inf)
#: "the early stages of training": the round at this fraction of the run's rounds (round 5 of 20, 25 of 100)
EARLY_FRACTION = 0.25
#: the accuracy Tables 2 and 4 are read as (which one the paper reports is not printed): the global model's
TABLE_METRIC = "global_accuracy"
#: where the real-data figures' datasets would be (directory names under $REPRO_DATA_DIR)
REAL_DATA = {"Figure 9": "celeba", "Figure 10": "sent140"}


# ---------------------------------------------------------------------------- the two readings of Figures 2-4
#: each reading's metric for Figure 4 (fedclup.readings): the code plots the mean of unsquared local errors (its ITR);
#: Theorem 1 and Corollary 1 bound E||w~_i - w*_i||^2, the mean of squared errors
FIG4_READING_METRIC = {"code": "local_err", "paper": "local_err_sq"}
_READING_WORDS = {"code": "the authors' code as it executes (server: the mean of all m stored client models; R: the "
                          "per-entry standard deviation of W_k; L = 9.13 hard-coded; metric: mean unsquared local error)",
                  "paper": "the paper's reading ((12) with gamma = 1/lambda + 1/L = 1/L_F; R: the radius of (5) on the "
                           "generator's models; L by the formula of Appendix D.1; metric: mean squared local error, "
                           "as in Theorem 1)"}


#: per figure: the experiment of its runs under both readings, and the figure's own experiment (whose GlobalTrain and
#: LocalTrain runs are the code reading's)
READING_EXPERIMENTS = {2: ("fedclup.readings_fig23", "fedclup.figure2"), 3: ("fedclup.readings_fig23", "fedclup.figure3"),
                       4: ("fedclup.readings", "fedclup.figure4")}


def _reading_runs(results, name: str, figure: int = 4) -> list:
    """The runs of one reading (``logistic.READINGS``) of Figure ``figure``: its runs in :data:`READING_EXPERIMENTS`
    (Figures 2 and 3 told apart by ``logistic.reading_figure``) and, for the code's reading, the baselines of the
    figure's own experiment at the same R values and data seeds (``logistic.CODE_READING_BASELINES``)."""
    keys = logi.READINGS[name]
    experiment, base = READING_EXPERIMENTS[figure]
    own = [r for r in results.get(experiment, ()) if all(r.spec.config[k] == v for k, v in keys.items())
           and (figure == 4 or logi.reading_figure(r.spec.config["rounds"]) == figure)]
    if name != "code" or not own:
        return own
    where = {(r.spec.config["R"], r.spec.config["data_seed"]) for r in own}
    return own + [r for r in results.get(base, ()) if r.spec.config["method"] in logi.CODE_READING_BASELINES
                  and r.spec.config["heterogeneity"] == keys["heterogeneity"]
                  and (r.spec.config["R"], r.spec.config["data_seed"]) in where]


# ---------------------------------------------------------------------------- the statements' evidence
def _order(sid: str, values: dict, what: str, experiment: str = "") -> Evidence:
    """The statement's ordering as ``values`` (seed -> a per-seed difference the statement says is positive), from
    the runs of ``experiment`` (default: the statement's own)."""
    exp = experiment or _STATEMENT[sid].experiment
    seeds = sorted(values)
    if not seeds:
        return Evidence(sid, exp, Bearing.NOT_CHECKABLE, f"no runs to compare: {what}")
    return compare(sid, exp, [values[s] for s in seeds], claimed=POSITIVE, what=what, tol=ORDER_TOL, seeds=seeds,
                   replay=f"python -m repro run {exp}")


def _every_run(sid: str, failed: list[str], checks: int, experiment: str = "") -> list[Evidence]:
    """A property the statement says holds on every run (or target): ``failed`` names the failures, from the runs of
    ``experiment`` (default: the statement's own)."""
    exp = experiment or _STATEMENT[sid].experiment
    ev = from_checks(sid, exp, checks=checks, failed=len(failed), replay=f"python -m repro run {exp}; " + ", ".join(
        failed[:3]) if failed else "")
    return ev or [Evidence(sid, exp, Bearing.NOT_CHECKABLE, "no runs to check")]


def _early(curve: np.ndarray) -> float:
    return float(curve[max(1, int(round(EARLY_FRACTION * (curve.size - 1))))])


def _by_seed(runs, key, metric: str, fn=lambda a: float(np.mean(a))) -> dict:
    """(key(config), seed) -> fn(arrays[metric]) over ``runs`` (the seed: data_seed, else the run's seed)."""
    return {(key(r.spec.config), r.spec.config.get("data_seed", r.spec.seed)): fn(r.arrays[metric]) for r in runs}


def _diff(table: dict, a, b) -> dict:
    """seed -> table[a, seed] - table[b, seed] over the seeds both have."""
    seeds = sorted({s for k, s in table if k == a} & {s for k, s in table if k == b})
    return {s: table[a, s] - table[b, s] for s in seeds}


def _tradeoff_statements(results) -> list[Evidence]:
    """Figure 1 (the linear-regression trade-off run): the curves of different lambdas cross; the smallest lambda's
    error early on is below the largest's (one run, mean over draws: one value, so inconclusive)."""
    runs = results.get("fedclup.tradeoff", ())
    out = _every_run("fedclup.figure1.tradeoff", [f"result {r.hash}" for r in runs if not _curves_cross_in(r)], len(runs))
    early = {r.spec.seed: _early(r.arrays[f"fedclup_{r.arrays['lams'].size - 1}"]) - _early(r.arrays["fedclup_0"])
             for r in runs}
    return out + ([_order("fedclup.figure1.early", early, "error at the early round, largest minus smallest lambda")]
                  if early else [])


def _curves_cross_in(run) -> bool:
    curves = np.stack([run.arrays[f"fedclup_{j}"] for j in range(run.arrays["lams"].size)])
    return any(np.any(np.diff(np.sign(curves[i] - curves[j])) != 0)
               for i in range(len(curves)) for j in range(i + 1, len(curves)))


def _by_reading(results, figure: int, orders) -> list[Evidence]:
    """A figure's statements under each reading of what it runs (the paper's, the authors' code's: ``fedclup.code``
    of :mod:`.errata`), from that reading's runs (:func:`_reading_runs`) and metric (:data:`FIG4_READING_METRIC`),
    each piece of evidence tagged with its reading."""
    out = []
    for name in logi.READINGS:
        runs = _reading_runs(results, name, figure)
        if runs:
            tag = ((ERR.CODE_ID, ERR.READING_OPTION[name]),)
            out += [replace(e, reading=tag + e.reading) for e in
                    orders(runs, FIG4_READING_METRIC[name], READING_EXPERIMENTS[figure][0])]
    return out


def _figure2_statements(results) -> list[Evidence]:
    """Figure 2's statement under each reading (:func:`_figure2_orders`)."""
    return _by_reading(results, 2, _figure2_orders)


def _figure2_orders(runs, metric: str, experiment: str) -> list[Evidence]:
    """Figure 2: the gain log(final error at the fewest / at the most local steps) is larger at lambda = 0.5 (low
    personalization) than at 0.02 (the suite's high-personalization lambda: the paper's is not printed); the final
    value of ``metric`` per data seed."""
    final = _by_seed(runs, lambda c: (c["lam"], c["local_steps"]), metric, lambda a: float(a[-1]))
    gain = {lam: {s: math.log(final[(lam, min(logi.FIG2_K)), s] / final[(lam, max(logi.FIG2_K)), s])
                  for (k, s) in final if k == (lam, min(logi.FIG2_K)) and ((lam, max(logi.FIG2_K)), s) in final}
            for lam in logi.FIG2_LAMBDAS}      # the seeds with runs at both ends (all of them but in a partial cache)
    hi, lo = max(logi.FIG2_LAMBDAS), min(logi.FIG2_LAMBDAS)
    values = {s: gain[hi][s] - gain[lo][s] for s in gain[hi] if s in gain[lo]}
    return [_order("fedclup.figure2.local_updates", values, f"log gain of K = {max(logi.FIG2_K)} over "
                   f"K = {min(logi.FIG2_K)} in the final {metric}, lambda {hi:g} minus lambda {lo:g}",
                   experiment)] if values else []


def _rounds_to(curve: np.ndarray, target: float) -> float:
    """The first round from which ``curve`` stays at or below ``target`` (inf: it ends above it)."""
    above = np.nonzero(curve > target)[0]
    if not above.size:
        return 0.0
    return float(above[-1] + 1) if above[-1] + 1 < curve.size else math.inf


def _figure3_statements(results) -> list[Evidence]:
    """Figure 3's statements under each reading (:func:`_figure3_orders`)."""
    return _by_reading(results, 3, _figure3_orders)


#: Figure 3's error levels per data seed: FIG3_TARGETS levels, geometric between the methods' converged (final)
#: errors: from FIG3_FLOOR above the lowest (a level within it of the best converged error is a tie on the floor, which
#: no method can be said to reach first) up to the highest. "Once the algorithms converge, for any given total error"
#: is read as these levels, each reached when a curve drops to it for good (:func:`_rounds_to`): this suite's reading,
#: the paper gives no levels. A level no method reaches is no comparison.
FIG3_TARGETS = 8
FIG3_FLOOR = 0.01


def _targets(curves: dict) -> np.ndarray:
    low = min(float(v[-1]) for v in curves.values()) * (1 + FIG3_FLOOR)
    high = max(float(v[-1]) for v in curves.values())
    return np.geomspace(low, high, FIG3_TARGETS) if high > low else np.array([])


def _fastest(rounds: dict) -> set:
    """The keys that reach the level in the fewest rounds (ties share it); none when no key reaches it."""
    best = min(rounds.values())
    return set() if math.isinf(best) else {k for k, t in rounds.items() if t == best}


def _figure3_seed(curves: dict) -> tuple[list, set | None, int, int]:
    """One data seed's comparison at every level of :func:`_targets` some method reaches: the levels where FedCLUP's
    best lambda needs more rounds than the best baseline ('late'), the lambdas fastest or tied at every level
    FedCLUP reaches (None: no such level), and the numbers of levels compared and reached by FedCLUP."""
    late, common, compared, ours_reached = [], None, 0, 0
    for tgt in _targets(curves):
        rounds = {k: _rounds_to(v, tgt) for k, v in curves.items()}
        if all(math.isinf(t) for t in rounds.values()):
            continue                                    # nobody reaches it: a comparison that decides nothing
        compared += 1
        ours = {k: t for k, t in rounds.items() if k[0] == "fedclup"}
        if min(ours.values()) > min(t for k, t in rounds.items() if k[0] != "fedclup"):
            late.append(f"target {tgt:.4g}: FedCLUP {min(ours.values()):g} rounds, a baseline "
                        f"{min(t for k, t in rounds.items() if k[0] != 'fedclup'):g}")
        fastest = _fastest(ours)
        if fastest:
            ours_reached += 1
            common = fastest if common is None else common & fastest
    return late, common, compared, ours_reached


def _figure3_orders(all_runs, metric: str, experiment: str) -> list[Evidence]:
    """Figure 3 (left) as it plots them, each method's curve of ``metric`` averaged over the data seeds that ran
    every method: at every level of :func:`_targets` some curve reaches (:func:`_figure3_seed`), FedCLUP's best lambda
    against LocalTrain and GlobalTrain, and whether one lambda is fastest (or tied) at every level FedCLUP reaches (two
    at least, else not judged). Figure 3 (right): whether the adaptive rule increases lambda, per starting lambda
    (the open choice ``fedclup.lambda_start``)."""
    by_seed: dict = {}
    for r in all_runs:
        c = r.spec.config
        if not c.get("adapt_constant"):
            by_seed.setdefault(c["data_seed"], {})[(c["method"], c.get("lam"))] = r.arrays[metric]
    keys = set.union(*(set(v) for v in by_seed.values())) if by_seed else set()
    seeds = sorted(s for s, curves in by_seed.items() if set(curves) == keys)
    methods = {k[0] for k in keys}
    if not seeds or "fedclup" not in methods or methods == {"fedclup"}:
        return _adaptive_evidence([r for r in all_runs if r.spec.config.get("adapt_constant")], experiment)
    mean = {k: np.mean([by_seed[s][k] for s in seeds], axis=0) for k in keys}
    late, common, compared, reached = _figure3_seed(mean)
    where = f"curves averaged over data seeds {', '.join(map(str, seeds))}"
    best = (f"lambda {', '.join(f'{k[1]:g}' for k in sorted(common))} fastest or tied at all {reached} levels FedCLUP "
            f"reaches ({where})") if reached >= 2 and common else ""
    return (_every_run("fedclup.figure3.least_communication", [f"{w} ({where})" for w in late], compared, experiment)
            + from_checks("fedclup.figure3.no_fixed_best", experiment, checks=1, failed=int(bool(best)),
                          not_judged=int(reached < 2), replay=f"python -m repro run {experiment}; {best}" if best else "")
            + _adaptive_evidence([r for r in all_runs if r.spec.config.get("adapt_constant")], experiment))


def _adaptive_evidence(adaptive, experiment: str) -> list[Evidence]:
    """Section 6.2's 'we gradually increase lambda' on the adaptive runs, per starting lambda (the open choice
    ``fedclup.lambda_start``): the switched lambda above the start on every run."""
    out = []
    for start, option in ERR.START_OPTION.items():
        runs = [r for r in adaptive if r.spec.config["lam"] == start]
        lowered = [f"data seed {r.spec.config['data_seed']}, c = {r.spec.config['adapt_constant']:g}: lambda "
                   f"{start:g} -> {float(r.arrays['lambda_switched']):.4g}" for r in runs
                   if float(r.arrays["lambda_switched"]) <= start]
        if runs:
            out += [replace(e, reading=((ERR.START_ID, option),)) for e in
                    _every_run("fedclup.figure3.dynamic_lambda", lowered, len(runs), experiment)]
    return out


def _figure4_statements(results) -> list[Evidence]:
    """Figure 4's statements under each reading (:func:`_figure4_orders`, per data seed the final error)."""
    return _by_reading(results, 4, _figure4_orders)


def _figure4_orders(runs, metric: str, experiment: str) -> list[Evidence]:
    """Figure 4 at the smallest and the largest R of ``runs``: GlobalTrain lowest, LocalTrain lowest, high
    personalization below low personalization (per data seed, the final value of ``metric``)."""
    if not runs:
        return []
    Rs = sorted({r.spec.config["R"] for r in runs})
    err = _by_seed(runs, lambda c: (c["R"], c["method"], c.get("lam")), metric, lambda a: float(a[-1]))
    methods = sorted({k[1:] for k, _ in err}, key=str)

    def beats(R, best):           # seed -> (lowest error of the other methods) - error of ``best``, on the seeds
        others = [m for m in methods if m != best]            # with runs of every method (all but in a partial cache)
        return {s: min(err[(R,) + m, s] for m in others) - err[(R,) + best, s] for (k, s) in err
                if k == (R,) + best and others and all(((R,) + m, s) in err for m in others)}

    lams = sorted(m[1] for m in methods if m[0] == "fedclup") or [math.nan]    # nan: no FedCLUP runs, no seeds
    return [_order("fedclup.figure4.globaltrain_low_heterogeneity", beats(Rs[0], ("globaltrain", None)),
                   f"R = {Rs[0]:g}: lowest other final {metric} minus GlobalTrain's", experiment),
            _order("fedclup.figure4.localtrain_high_heterogeneity", beats(Rs[-1], ("localtrain", None)),
                   f"R = {Rs[-1]:g}: lowest other final {metric} minus LocalTrain's", experiment),
            _order("fedclup.figure4.personalized_high_heterogeneity",
                   _diff({(k[1:], s): v for (k, s), v in err.items() if k[0] == Rs[-1]},
                         ("fedclup", lams[-1]), ("fedclup", lams[0])),
                   f"R = {Rs[-1]:g}: final {metric}, lambda {lams[-1]:g} minus lambda {lams[0]:g}", experiment)]


def _early_statement(sid: str, runs, group, metric: str) -> list[Evidence]:
    """Per ``group`` of runs (a sub-figure): the early-round value of ``metric``, largest minus smallest lambda."""
    table = _by_seed([r for r in runs if r.spec.config["method"] == "fedclup"],
                     lambda c: (group(c), c["lam"]), metric, _early)
    out = []
    for g in sorted({k[0] for k, _ in table}, key=str):
        lams = sorted({k[1] for k, _ in table if k[0] == g})
        out.append(_order(sid, _diff(table, (g, lams[-1]), (g, lams[0])),
                          f"{g}: {metric} at the early round, lambda {lams[-1]:g} minus lambda {lams[0]:g}"))
    return out


def _figure6_heterogeneity(results) -> list[Evidence]:
    Rs = sorted({r.spec.config["R"] for r in results.get("fedclup.figure6", ())})
    if len(Rs) > 1 or not Rs:
        return []
    return [Evidence("fedclup.figure6.heterogeneity", "fedclup.figure6", Bearing.NOT_CHECKABLE,
                     f"the suite runs Figure 6 at R = {', '.join(f'{R:g}' for R in Rs)} only (the authors' code has one "
                     "R; the other values are not printed): no trend in R to check")]


def _real_data() -> list[Evidence]:
    root = Path(os.environ.get("REPRO_DATA_DIR", ""))
    missing = [f"no {name} data in the data directory ($REPRO_DATA_DIR) for {fig}" for fig, name in REAL_DATA.items()
               if not (root / name).exists()]
    return [Evidence("fedclup.figure9_10.real_data", "data", Bearing.NOT_CHECKABLE,
                     "; ".join(missing) + "; no CNN/LSTM among the project's dependencies")] if missing else []


def _accuracies(results) -> dict:
    return _by_seed(results.get("fedclup.mnist", ()), lambda c: (c["classes"], c["method"], c.get("lam")), TABLE_METRIC)


def _table_statements(results) -> list[Evidence]:
    """Tables 2 and 4 (MNIST Logit rows) on TABLE_METRIC, per seed: orderings across lambda, classes and methods."""
    acc = _accuracies(results)
    if not acc:
        return []
    lo, hi, most = min(mn.LAMBDAS), max(mn.LAMBDAS), max(mn.CLASSES)
    out = [_order(sid, _diff(acc, (most, m, hi), (most, m, lo)), f"{most} classes: {m} accuracy, lambda {hi:g} minus "
                  f"{lo:g}") for sid, m in (("fedclup.table2.collaboration", "fedclup"), ("fedclup.table2.pfedme", "pfedme"))]
    for sid, m in (("fedclup.table4.interpolation", "fedclup"), ("fedclup.table4.pfedme_interpolation", "pfedme")):
        for c in mn.CLASSES:
            for base, near, far in (("localtrain", lo, hi), ("globaltrain", hi, lo)):
                values = {s: abs(acc[(c, m, far), s] - acc[(c, base, None), s])
                          - abs(acc[(c, m, near), s] - acc[(c, base, None), s]) for s in _diff(acc, (c, m, near),
                                                                                               (c, base, None))}
                out.append(_order(sid, values, f"{c} classes: |{m}(lambda {far:g}) - {base}| - |{m}(lambda {near:g}) "
                                               f"- {base}|"))
    methods = sorted({k[1:] for k, _ in acc}, key=str)
    out += [_order("fedclup.table4.homogeneity", _diff(acc, (most,) + m, (min(mn.CLASSES),) + m),
                   f"{m[0]}{'' if m[1] is None else f' lambda {m[1]:g}'}: accuracy, {most} minus {min(mn.CLASSES)} "
                   "classes") for m in methods]
    for c in mn.CLASSES:
        seeds = {s for k, s in acc if k == (c, "localtrain", None)}
        out.append(_order("fedclup.table4.localtrain_lowest",
                          {s: min(acc[(c,) + m, s] for m in methods if m[0] != "localtrain") - acc[(c, "localtrain", None), s]
                           for s in seeds}, f"{c} classes: lowest other accuracy minus LocalTrain's"))
    return out


def _rounds_statements(results) -> list[Evidence]:
    """Tables 7-8 pattern (Corollary 2's choices, deterministic): rounds and gradient steps nondecreasing in kappa at
    every lambda."""
    runs = sorted(results.get("fedclup.rounds", ()), key=lambda r: r.spec.config["kappa"])
    if not runs:
        return []
    out = []
    for sid, key in (("fedclup.table7_8.rounds_kappa", "T_eps"), ("fedclup.table7_8.gradients_kappa", "grad_evals")):
        grid = np.stack([r.arrays[key] for r in runs])            # (kappa, lambda)
        lams = runs[0].arrays["lams"]
        failed = [f"lambda {lams[j]:.3g}: {key} {grid[:, j].tolist()} over kappa "
                  f"{[r.spec.config['kappa'] for r in runs]}" for j in range(lams.size) if np.any(np.diff(grid[:, j]) < 0)]
        out += _every_run(sid, failed, lams.size)
    return out


def _figure5_statement(mnist) -> list[Evidence]:
    """Figure 5's 'faster early' under each reading of its 'testing loss' (the open choice ``fedclup.figure5_loss``):
    the global model's, or each client's model on the test data of its own classes."""
    return [replace(e, reading=((ERR.FIG5_ID, option),)) for metric, option in ERR.FIG5_OPTION.items()
            for e in _early_statement("fedclup.figure5.early", mnist, lambda c: f"{c['classes']} classes", metric)]


def _figure6_statement(runs) -> list[Evidence]:
    """Figure 6's 'faster early' under each server rule (``fedclup.server``: the paper's (12), the code's average)."""
    return [replace(e, reading=((ERR.SERVER_ID, option),)) for server, option in ERR.SERVER_OPTION.items()
            for e in _early_statement("fedclup.figure6.early", [r for r in runs if r.spec.config["server"] == server],
                                      lambda c: f"m = {c['m']}", "local_err")]


def _localtrain_rows(table4: dict) -> dict:
    """Per row of Table 4: (LocalTrain below every other entry, LocalTrain below the best other entry)."""
    lt = TABLE4_ORDER.index("LocalTrain")
    return {key: (row[lt] < min(v for i, v in enumerate(row) if i != lt),
                  row[lt] < max(v for i, v in enumerate(row) if i != lt)) for key, row in table4.items()}


def _trend_rows(table2: dict) -> dict:
    """Per (row, method) of Table 2, FedCLUP and pFedMe: (accuracy non-decreasing from high to low personalization,
    the same)."""
    out = {}
    for name, row in table2.items():
        for method in ("FedCLUP", "pFedMe"):
            accs = [row[TABLE_COLUMNS.index(f"{method} {p}")] for p in ("high", "medium", "low")]
            rises = all(a <= b for a, b in zip(accs, accs[1:]))
            out[(name, method)] = (rises, rises)
    return out


#: the printed-table readings: (finding id, the statement, where, words, rows builder, the table, the lenient rule:
#: "every" row, or a "majority" of rows); a strict reading is every row by its strict test
PRINTED_READINGS = (
    ("fedclup.table4.printed_localtrain", "fedclup.table4.localtrain_lowest", "Appendix D.2, Table 4",
     "LocalTrain\u2019s performance remains lower than that of other methods", _localtrain_rows, "TABLE4", "every"),
    ("fedclup.table2.printed_trend", "fedclup.table2.pfedme", "Section 6.2, Table 2",
     "A similar trend is observed for both FedCLUP and pFedMe across different datasets and models", _trend_rows,
     "TABLE2", "majority"),
)


@producer
def printed_reading(fid: str, statement: str, where: str, words: str, rows: dict, lenient: str) -> Finding:
    """A statement about a printed table decided on the printed numbers under its two readings (``rows``: key ->
    (strict test, lenient test)): consistent when every row passes the strict test; a discrepancy only when the
    lenient reading fails too (every row, or a majority, as ``lenient`` says); otherwise not checkable, because the
    verdict depends on a reading the paper leaves open (no false alarm)."""
    strict_fail = [k for k, (strict, _) in rows.items() if not strict]
    loose_fail = [k for k, (_, loose) in rows.items() if not loose]
    loose_ok = not loose_fail if lenient == "every" else 2 * len(loose_fail) < len(rows)
    verdict = CONSISTENT if not strict_fail else DISCREPANCY if not loose_ok else NOT_CHECKABLE
    return Finding(fid, "wording", (statement,), verdict,
                   f"{where}: \"{words}\". On the printed numbers: {len(rows) - len(strict_fail)} of {len(rows)} rows "
                   f"pass the strict reading" + (f" (not: {', '.join(' '.join(map(str, k)) for k in strict_fail)})" if strict_fail else "")
                   + f"; {len(rows) - len(loose_fail)} pass the lenient one ("
                   + ("every row" if lenient == "every" else "a majority of rows") + " must pass).",
                   f"{len(rows)} printed rows", "exact comparison of printed values")


def printed_findings() -> list[Finding]:
    """:data:`PRINTED_READINGS` on the printed tables."""
    tables = {"TABLE2": TABLE2, "TABLE4": TABLE4}
    return [printed_reading(fid, st, where, words, build(tables[table]), lenient)
            for fid, st, where, words, build, table, lenient in PRINTED_READINGS]


@functools.cache
def figure2_rounds_findings() -> tuple:
    """Figure 2's closing sentence at both of its places under both readings of its erratum (``ERR.ROUNDS_ID``):
    the direction of Corollary 2's rounds in lambda (:func:`bounds.fedclup.remarks.figure2_rounds`)."""
    return tuple(RM.figure2_rounds(ERR.ROUNDS_ID, ERR.ROUNDS_OPTIONS))


_BEARING = {"consistent": Bearing.SUPPORTS, "discrepancy": Bearing.VIOLATES, "not checkable": Bearing.NOT_CHECKABLE}


def _figure2_rounds_statements() -> list[Evidence]:
    """The evidence of :func:`figure2_rounds_findings` about the statements they name: a refuted direction violates
    the statement under the reading it was computed on, its cause the erratum (symbolic; no runs needed). Both
    readings' evidence has one source (the statement against Corollary 2), so that the corrected reading is seen to
    have checked what fails as printed (:func:`repro.verdicts.roll_up`)."""
    return [Evidence(f.claims[0], f"{f.claims[0]} against Corollary 2", _BEARING[f.verdict], f.summary,
                     method="symbolic", reading=f.reading,
                     cause=ERR.ROUNDS_ID if f.verdict == "discrepancy" else "",
                     replay=f"python -m repro findings --id {f.id}" if f.verdict == "discrepancy" else "")
            for f in figure2_rounds_findings()]


#: the columns of the printed tables, by the names both use: FedCLUP and pFedMe at high, medium, low personalization
TABLE_COLUMNS = ("LocalTrain", "FedCLUP high", "FedCLUP medium", "FedCLUP low", "pFedMe high", "pFedMe medium",
                 "pFedMe low", "GlobalTrain")
#: Section 6.2, Table 2 as printed ("reported in Table 2 in the low heterogeneity setting"), in TABLE_COLUMNS order
TABLE2 = {"MNIST Logit": (0.7828, 0.8123, 0.8213, 0.8312, 0.8001, 0.8239, 0.8291, 0.8391),
          "MNIST CNN2": (0.8194, 0.8753, 0.8893, 0.9032, 0.8756, 0.8771, 0.8749, 0.9098),
          "MNIST CNN5": (0.7633, 0.9091, 0.9102, 0.9421, 0.9340, 0.9385, 0.9440, 0.9433),
          "EMNIST CNN5": (0.6111, 0.6278, 0.6415, 0.6672, 0.6345, 0.6532, 0.6717, 0.6611),
          "CIFAR10 CNN3": (0.6238, 0.6102, 0.6712, 0.7302, 0.6744, 0.7443, 0.7732, 0.8041)}
#: Appendix D.2, Table 4 as printed, per (data set, classes per client), in Table 4's own column order
#: (:data:`TABLE4_ORDER`): FedCLUP high, median, low, GlobalTrain, LocalTrain, pFedMe high, median, low
TABLE4 = {("MNIST Logit", 2): (0.5001, 0.6011, 0.6109, 0.7001, 0.3214, 0.5534, 0.6312, 0.6712),
          ("MNIST Logit", 6): (0.6813, 0.7001, 0.7241, 0.7718, 0.6000, 0.6312, 0.7123, 0.7681),
          ("MNIST Logit", 10): (0.8123, 0.8213, 0.8312, 0.8391, 0.7828, 0.8001, 0.8239, 0.8291),
          ("MNIST CNN2", 2): (0.3567, 0.4721, 0.6019, 0.6123, 0.3019, 0.3973, 0.5828, 0.6172),
          ("MNIST CNN2", 6): (0.7001, 0.7833, 0.7843, 0.8092, 0.6231, 0.7918, 0.8093, 0.8312),
          ("MNIST CNN2", 10): (0.8753, 0.8893, 0.9032, 0.9098, 0.8194, 0.8756, 0.8771, 0.8749),
          ("MNIST CNN5", 2): (0.8891, 0.9000, 0.9333, 0.9377, 0.6536, 0.9000, 0.9003, 0.9380),
          ("MNIST CNN5", 6): (0.8451, 0.8941, 0.9392, 0.9446, 0.7333, 0.9288, 0.9186, 0.9306),
          ("MNIST CNN5", 10): (0.9091, 0.9102, 0.9421, 0.9433, 0.7633, 0.9340, 0.9385, 0.9440),
          ("EMNIST CNN5", 30): (0.6084, 0.6089, 0.6011, 0.6102, 0.5583, 0.6133, 0.6129, 0.6122),
          ("EMNIST CNN5", 40): (0.6097, 0.6123, 0.6357, 0.6423, 0.5644, 0.6012, 0.6102, 0.6134),
          ("EMNIST CNN5", 47): (0.6278, 0.6415, 0.6672, 0.6611, 0.6111, 0.6345, 0.6532, 0.6717),
          ("CIFAR10 CNN3", 2): (0.6101, 0.6292, 0.6340, 0.6444, 0.5801, 0.6056, 0.6012, 0.6033),
          ("CIFAR10 CNN3", 6): (0.6211, 0.6311, 0.6712, 0.6949, 0.5623, 0.6163, 0.6163, 0.6439),
          ("CIFAR10 CNN3", 10): (0.6102, 0.6712, 0.7302, 0.8041, 0.6238, 0.6744, 0.7443, 0.7732)}
#: Table 4's row of each data set with the most classes per client: the lowest heterogeneity ("The fewer classes
#: each client has access to, the higher the statistical heterogeneity", Section 6.1)
TABLE4_LOW = {key: row for key, row in TABLE4.items()
              if key[1] == max(c for name, c in TABLE4 if name == key[0])}
TABLE4_ORDER = ("FedCLUP high", "FedCLUP medium", "FedCLUP low", "GlobalTrain", "LocalTrain", "pFedMe high",
                "pFedMe medium", "pFedMe low")
_TABLE2_WORDS = ("Section 6.2, Table 2", "All methods are run until stable convergence, and their test accuracy is "
                                         "reported in Table 2 in the low heterogeneity setting")


@producer
def tables_agree(table2: dict, table4_low: dict) -> Finding:
    """One fact, two places: every entry of Table 2 (low heterogeneity) against the same method's entry in Table 4's
    row with the most classes per client (read through :data:`TABLE4_ORDER`); a discrepancy where one differs."""
    differ = [f"{name} {column}: Table 2 {t2[TABLE_COLUMNS.index(column)]}, Table 4 ({classes} classes) {value}"
              for (name, classes), row in table4_low.items() for column, value in zip(TABLE4_ORDER, row)
              if (t2 := table2.get(name)) is None or t2[TABLE_COLUMNS.index(column)] != value]
    where, words = _TABLE2_WORDS
    checked = sum(len(r) for r in table4_low.values())
    return Finding("fedclup.table2.table4_agree", "wording", ("fedclup.table2.collaboration",),
                   DISCREPANCY if differ else CONSISTENT,
                   f"{where}: \"{words}\". Its {checked} entries against Appendix D.2's Table 4 (the row with the "
                   f"most classes per client): " + ("; ".join(differ) if differ else "every entry is the same."),
                   f"{len(table4_low)} rows x {len(TABLE4_ORDER)} columns compared",
                   "exact comparison of printed values")


def statement_evidence(results) -> list[Evidence]:
    """The evidence about every statement of :data:`STATEMENTS` the cached results allow."""
    return (_tradeoff_statements(results) + _figure2_statements(results) + _figure3_statements(results)
            + _figure4_statements(results) + _figure5_statement(results.get("fedclup.mnist", ()))
            + _figure6_statement(results.get("fedclup.figure6", ()))
            + _figure6_heterogeneity(results) + _real_data() + _table_statements(results) + _rounds_statements(results)
            + _figure2_rounds_statements())
