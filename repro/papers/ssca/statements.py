"""The statements Mini-batch SSCA makes about its figures (:data:`STATEMENTS`, in the paper's words: Section VI on
Figures 2-4 and the Conclusions' sentence on Section VI's experiments; besides, Section V's application of Theorems
1-4 to problems (27) and (37), :data:`SECTION_V_IDS`, which the symbolic findings decide) and the evidence about each
that the cached results allow (:func:`statement_evidence`):

* Figures 2 and 3: "larger batch sizes converge faster" (:func:`_batch_evidence`), Algorithms 1 and 3 converge
  "faster than the SGD-based algorithm" (:func:`_sgd_evidence`), both through :func:`_faster` (the per-seed paired
  difference at each of :data:`HORIZONS`; an SGD rate on its grid's edge, :func:`_edge_rate`, supports nothing), and
  sample- and feature-based algorithms have "similar convergence speeds" (:func:`_similar_evidence`, a cost ratio
  within :data:`SIMILAR_RATIO`);
* Figure 4: the trade-off between sparsity and training cost, and Algorithm 2's constraint controlling the test
  accuracy (:func:`_figure4_evidence`: per-seed Spearman correlations, :func:`_rank_evidence`);
* Section VII: models that "strictly satisfy" the constraints, F(omega^T) <= U on every constrained run
  (:func:`_feasibility_evidence`, :func:`repro.verdicts.from_checks`, :data:`FEASIBILITY_TOL`);

orderings and "similar" by a Student-t interval over seeds of a per-seed paired statistic
(:func:`repro.comparisons.compare`, tolerance :data:`METRIC_TOL`; one seed is inconclusive).

:mod:`.audit` rolls this evidence up into the statements' verdicts (Section V's from the symbolic findings);
:mod:`.section` shows the statements with their verdicts.
"""
from __future__ import annotations

import dataclasses

import numpy as np
from scipy import stats

from repro.comparisons import compare
from repro.papers.ssca.evidence import _replay
from repro.papers.ssca.runs import mnist as mn
from repro.papers.ssca.summaries import at, final
from repro.tables import select_results
from repro.verdicts import Bearing, Evidence, Statement, from_checks

#: Every statement Section VI (and the Conclusions, about Section VI's experiments) makes about its figures.
STATEMENTS = (
    Statement("ssca.figure2.larger_batch_faster", "Section VI, Figure 2",
              "From Fig. 2, we can see that the proposed algorithms with larger batch sizes converge faster.",
              "ssca.figure2"),
    Statement("ssca.figure2.alg1_faster_than_sgd", "Section VI, Figure 2(a), 2(c)",
              "Fig. 2(a) and Fig. 2(c) show that for unconstrained federated optimization, Algorithm 1 converges "
              "faster than the SGD-based algorithm with E = 1 and the same batch size.", "ssca.figure2"),
    Statement("ssca.figure2.alg1_faster_than_sgd_e2", "Section VI, Figure 2",
              "Also, Algorithm 1 with B = 10 (100) converges faster than the SGD-based algorithm with B = 5 (50) and "
              "E = 2 at the same computation cost (for calculating the gradients) at clients.", "ssca.figure2"),
    Statement("ssca.figure3.larger_batch_faster", "Section VI, Figure 3",
              "Similarly, from Fig. 3, we can see that the proposed algorithms with larger batch sizes converge "
              "faster.", "ssca.figure3"),
    Statement("ssca.figure3.alg3_faster_than_sgd", "Section VI, Figure 3(a), 3(c)",
              "Fig. 3(a) and Fig. 3(c) show that for unconstrained federated optimization, Algorithm 3 converges "
              "faster than the SGD-based algorithm at the same batch size.", "ssca.figure3"),
    Statement("ssca.figure3.similar_to_figure2", "Section VI, Figures 2 and 3",
              "By comparing Fig. 2 and Fig. 3, we can observe that the proposed sample-based federated learning "
              "algorithms and feature-based federated learning algorithms with the same computation cost at the "
              "clients have similar convergence speeds.", "ssca.figure3"),
    Statement("ssca.figure4.tradeoff", "Section VI, Figure 4",
              "Fig. 4 shows the tradeoff curve between the model sparsity and training cost of each proposed "
              "algorithm.", "ssca.figure4"),
    Statement("ssca.figure4.constraint_controls_accuracy", "Section VI, Figure 4(b)",
              "From Fig. 4(b), we see that with constrained sample-based federated optimization, one can set an "
              "explicit constraint on the training cost to control the test accuracy effectively.", "ssca.figure4"),
    Statement("ssca.conclusion.strictly_feasible", "Section VII (Conclusions), on Section VI's experiments",
              "the proposed SSCA-based algorithms for constrained sample-based and feature-based federated "
              "optimization problems obtain models that strictly satisfy non-convex constraints", "ssca.figure2"),
    # Section V's application of the general theorems: what its findings are about (never the theorems themselves)
    Statement("ssca.section_v.unconstrained", "Section V-A, on problem (27)",
              "Theorem 1 and Theorem 3 guarantee the convergences of Algorithm 1 and Algorithm 3, respectively, as "
              "Assumption 1 and Assumption 2 are satisfied.", "ssca.steps"),
    Statement("ssca.section_v.constrained", "Section V-B, on problem (37)",
              "The convergences of Algorithm 2 and Algorithm 4 are guaranteed by Theorem 2 and Theorem 4, "
              "respectively, as Assumption 1 and Assumption 2 are satisfied.", "ssca.steps"),
)
STATEMENT_IDS = tuple(s.id for s in STATEMENTS)
#: the statements Section V's symbolic findings decide (:data:`bounds.ssca.findings.SECTION_V_STATEMENTS`)
SECTION_V_IDS = tuple(i for i in STATEMENT_IDS if i.startswith("ssca.section_v."))

#: Absolute tolerance on a per-seed difference of training cost (nats) or test accuracy (fraction) between two runs:
#: float32 training on another machine (other BLAS threads) moves these by far less; a mean difference within it of
#: 0 decides nothing.
METRIC_TOL = 1e-4
#: "similar convergence speeds" gives no number; our reading: the feature/sample training-cost ratio lies within
#: [1/SIMILAR_RATIO, SIMILAR_RATIO] (judged on the log ratio, with METRIC_TOL as tolerance).
SIMILAR_RATIO = 1.25
#: "strictly satisfy" F <= U: a final training cost within this relative margin above U is float rounding of the
#: 60k-sample cost (float32 products), hence inconclusive; above it, a violation.
FEASIBILITY_TOL = 1e-5
#: "converges faster" is read at t = 100 (the text's "T = 100") and at the last iteration (the axes of Figs. 2-3).
HORIZONS = (100, mn.ITERATIONS)
#: the metrics of the panels: training cost (lower is better) and test accuracy (higher is better)
DIRECTION = {"train_cost": -1.0, "test_accuracy": 1.0}


def _by_seed(runs, metric: str, t: int) -> dict:
    """``{seed: (value of metric at t, run)}`` over ``runs`` (runs without the metric or checkpoint ``t`` left out)."""
    runs = [r for r in runs if "checkpoints" in r.arrays and metric in r.arrays]
    return {r.spec.seed: (at(r, metric, t), r) for r in runs if np.isfinite(at(r, metric, t))}


def _edge_rate(r) -> bool:
    """Whether the learning rate the grid search chose for SGD run ``r`` lies on the edge of its grid."""
    grid, (a, al) = np.asarray(r.arrays["grid"]), r.arrays["lr"]
    return bool(a in (grid[:, 0].min(), grid[:, 0].max()) or al in (grid[:, 1].min(), grid[:, 1].max()))


def _faster(statement: str, experiment: str, label: str, better, worse, metric: str, t: int) -> list[Evidence]:
    """``better`` converges faster than ``worse``: per seed, the paired difference of ``metric`` at ``t`` (signed so
    that > 0 means better), its t-interval against (0, oo) (:func:`repro.comparisons.compare`). An SGD side whose rate
    sits on its grid's edge may be under-tuned: a comparison it would support is inconclusive instead."""
    a, b = _by_seed(better, metric, t), _by_seed(worse, metric, t)
    seeds = sorted(set(a) & set(b))
    if not seeds:
        return []
    values = [DIRECTION[metric] * (a[s][0] - b[s][0]) for s in seeds]
    runs = [a[s][1] for s in seeds] + [b[s][1] for s in seeds]
    ev = compare(statement, experiment, values, claimed=(0.0, np.inf), tol=METRIC_TOL, seeds=seeds,
                 what=f"{label}: {metric} at t = {t}, per-seed paired difference (> 0 in the stated order)",
                 replay=f"python -m repro run {experiment}; results {', '.join(r.hash for r in runs)}")
    edge = [r for r in runs if r.spec.config["method"] == "sgd" and _edge_rate(r)]
    if ev.bearing is Bearing.SUPPORTS and edge:
        return [dataclasses.replace(ev, bearing=Bearing.INCONCLUSIVE, summary=ev.summary + "; the SGD rate of "
                                    f"{', '.join(r.hash for r in edge)} is on its grid's edge: supports nothing")]
    return [ev]


def _batch_evidence(statement: str, experiment: str, runs, batches, names) -> list[Evidence]:
    """Larger batches converge faster, for each algorithm (formulation -> name) and adjacent pair of batch sizes."""
    out = []
    for formulation, name in names.items():
        for small, large in zip(batches, batches[1:]):
            for t in HORIZONS:
                out += _faster(statement, experiment, f"{name} B = {large} vs B = {small}",
                               select_results(runs, method="ssca", formulation=formulation, batch=large),
                               select_results(runs, method="ssca", formulation=formulation, batch=small),
                               "train_cost", t)
    return out


def _sgd_evidence(statement: str, experiment: str, runs, pairs, name: str) -> list[Evidence]:
    """SSCA on (27) faster than SGD, on training cost and test accuracy, for each ``(B, SGD selection)`` pair."""
    out = []
    for batch, sgd_sel in pairs:
        sgd = ", ".join(f"{'E' if k == 'local_steps' else 'B'} = {v}" for k, v in sgd_sel.items())
        for metric in DIRECTION:
            for t in HORIZONS:
                out += _faster(statement, experiment, f"{name} B = {batch} vs SGD {sgd}",
                               select_results(runs, method="ssca", formulation="27", batch=batch),
                               select_results(runs, method="sgd", **sgd_sel), metric, t)
    return out


def _similar_evidence(statement: str, f2, f3) -> list[Evidence]:
    """Sample- (Fig. 2) and feature-based (Fig. 3) runs with the same client computation (sample B per client,
    feature B = I x that in total) have similar training costs: per-seed log ratio within log SIMILAR_RATIO."""
    out, bound = [], float(np.log(SIMILAR_RATIO))
    for bs, bf in zip(mn.TRIPLES, mn.FEATURE_TRIPLES):
        for formulation in ("27", "37"):
            for t in HORIZONS:
                a = _by_seed(select_results(f3, method="ssca", formulation=formulation, batch=bf), "train_cost", t)
                b = _by_seed(select_results(f2, method="ssca", formulation=formulation, batch=bs), "train_cost", t)
                seeds = sorted(set(a) & set(b))
                if seeds:
                    out.append(compare(statement, "ssca.figure2 + ssca.figure3",
                                       [float(np.log(a[s][0] / b[s][0])) for s in seeds], claimed=(-bound, bound),
                                       tol=METRIC_TOL, seeds=seeds, what=f"({formulation}) feature B = {bf} vs sample "
                                       f"B = {bs}: log ratio of training cost at t = {t}"))
    return out


def _rank_evidence(statement: str, runs, x_of, metric: str, claimed, what: str) -> list[Evidence]:
    """Per seed, the Spearman correlation between ``x_of(run)`` and ``metric`` at T over the swept runs, against
    ``claimed`` (:func:`repro.comparisons.compare`)."""
    seeds = sorted({r.spec.seed for r in runs})
    values = []
    for s in seeds:
        mine = [r for r in runs if r.spec.seed == s]
        x, y = [x_of(r) for r in mine], [final(r, metric) for r in mine]
        if len(mine) >= 3 and np.ptp(x) > 0 and np.ptp(y) > 0:      # a constant series has no rank correlation
            values.append(float(stats.spearmanr(x, y)[0]))
    return [compare(statement, "ssca.figure4", values, claimed=claimed, tol=METRIC_TOL, what=what)] if values else []


def _figure4_evidence(runs) -> list[Evidence]:
    """Figure 4: sparsity against training cost per algorithm (a trade-off: they rise together), and Algorithm 2's
    test accuracy against U (the constraint controls it: accuracy falls as U grows)."""
    out = []
    for mode, formulation, name in (("sample", "27", "Alg. 1"), ("sample", "37", "Alg. 2"),
                                    ("feature", "27", "Alg. 3"), ("feature", "37", "Alg. 4")):
        sel = select_results(runs, mode=mode, formulation=formulation)
        out += _rank_evidence("ssca.figure4.tradeoff", sel, lambda r: final(r, "sparsity"), "train_cost",
                              (0.0, np.inf), f"{name}: Spearman correlation of sparsity (our reading: share of "
                              f"|w| < {mn.SPARSITY_THRESHOLD:g}) and training cost at T over the sweep, per seed")
    alg2 = select_results(runs, mode="sample", formulation="37")
    return out + _rank_evidence("ssca.figure4.constraint_controls_accuracy", alg2, lambda r: r.spec.config["U"],
                                "test_accuracy", (-np.inf, 0.0), "Alg. 2: Spearman correlation of U and test "
                                "accuracy at T over the sweep of U, per seed")


def _feasibility_evidence(results) -> list[Evidence]:
    """Every constrained run (formulation (37), Figures 2-4) at its last iteration: F(omega^T) <= U, a property of
    every run (:func:`repro.verdicts.from_checks`; within FEASIBILITY_TOL of U inconclusive). A run two figures
    share (Figure 4's point at U = 0.13 is Figure 2's or 3's run) is one check, under the first figure.

    Read as Section VII words it, "Numerical experiments demonstrate that ... obtain models that": the models the
    experiments output (Algorithm 2's ``Output: omega^T``), not the limit points Theorems 2 and 4 speak of, which no
    finite run decides."""
    distinct: dict = {}
    for name in ("ssca.figure2", "ssca.figure3", "ssca.figure4"):
        for r in select_results(results.get(name, []), method="ssca", formulation="37"):
            if "train_cost" in r.arrays and "U" in r.spec.config:
                distinct.setdefault(r.hash, (name, r))
    runs = list(distinct.values())
    if not runs:
        return []
    ratio = {r.hash: final(r, "train_cost") / r.spec.config["U"] for _, r in runs}
    fails = [(n, r) for n, r in runs if ratio[r.hash] > 1 + FEASIBILITY_TOL]
    within = sum(1 < ratio[r.hash] <= 1 + FEASIBILITY_TOL for _, r in runs)
    n, worst = max(runs, key=lambda p: ratio[p[1].hash])
    replay = _replay(n, worst, f"F(omega^T) = {final(worst, 'train_cost'):.4g} > U = {worst.spec.config['U']:g}")
    return from_checks("ssca.conclusion.strictly_feasible", "ssca.figure2-4 (formulation 37, t = T)",
                       checks=len(runs), failed=len(fails), inconclusive=within, worst=ratio[worst.hash],
                       observed=final(worst, "train_cost"), bound=float(worst.spec.config["U"]),
                       replay=replay if fails else "")


def statement_evidence(results) -> list[Evidence]:
    """The evidence about every statement of :data:`STATEMENTS` from ``results`` (a missing experiment gives none, so
    its statements are not run)."""
    f2, f3 = results.get("ssca.figure2", []), results.get("ssca.figure3", [])
    alg = {"27": "Alg. 1", "37": "Alg. 2"}
    return (_batch_evidence("ssca.figure2.larger_batch_faster", "ssca.figure2", f2, tuple(mn.TRIPLES), alg)
            + _sgd_evidence("ssca.figure2.alg1_faster_than_sgd", "ssca.figure2", f2,
                            [(b, {"batch": b, "local_steps": 1}) for b in mn.TRIPLES], "Alg. 1")
            + _sgd_evidence("ssca.figure2.alg1_faster_than_sgd_e2", "ssca.figure2", f2,
                            [(10, {"batch": 5, "local_steps": 2}), (100, {"batch": 50, "local_steps": 2})], "Alg. 1")
            + _batch_evidence("ssca.figure3.larger_batch_faster", "ssca.figure3", f3, tuple(mn.FEATURE_TRIPLES),
                              {"27": "Alg. 3", "37": "Alg. 4"})
            + _sgd_evidence("ssca.figure3.alg3_faster_than_sgd", "ssca.figure3", f3,
                            [(b, {"batch": b}) for b in mn.FEATURE_TRIPLES], "Alg. 3")
            + _similar_evidence("ssca.figure3.similar_to_figure2", f2, f3)
            + _figure4_evidence(results.get("ssca.figure4", [])) + _feasibility_evidence(results))
