"""FedSGM's statements besides its numbered results (:data:`STATEMENTS`): the sentences of the discussion after
Theorem 2, Section 3, the Contributions, the Conclusion and Section 4.1 that :mod:`bounds.fedsgm.remarks` decides
symbolically (:data:`REMARK_STATEMENTS`, evidence from its findings: :func:`remark_evidence`), and

Section 4.1's statements about Figure 1 (:data:`FIGURE1_STATEMENTS`, in the paper's words: Neyman-Pearson
classification, hard against soft switching) and the evidence about each from the runs of ``fedsgm.figure1``
(:func:`statement_evidence`), under each reading of the two settings Section 4.1 leaves open (a bias feature or not;
the objective on class 0 as the data set codes it, or on the majority class as the prose says:
:data:`repro.papers.fedsgm.errata.FIGURE1_READINGS`):

* "both hard and soft switching achieve convergence" is a limit that no run of T rounds decides
  (:func:`_convergence_evidence`: not checkable, with how much f still moves over the last :data:`FINAL_WINDOW`
  rounds);
* "hard switching frequently oscillates around the tolerance": crossings of eps by g(w_t), hard minus soft
  (:func:`crossings`, :func:`_oscillation_evidence`, :data:`COUNT_TOL`);
* "around 4x fewer violations": log(hard/soft violation count) against :data:`AROUND_4X`
  (:func:`_violations_evidence`, :data:`LOG_COUNT_TOL`);
* "without compromising the convergence behavior": measured against the suite's own margin :data:`OBJECTIVE_RTOL`,
  not judged (:func:`_objective_evidence`);
* "more stable results as evident from the variance plots": the F interval of log(var_hard/var_soft) of the final
  objective levels (:func:`variance_ratio_interval`, :func:`_variance_evidence`, :data:`LOG_VALUE_TOL`);

from per-seed statistics of the hard and soft runs paired by seed (:func:`_paired_runs`, :func:`_final_level`),
decided by :func:`repro.comparisons.compare` (a t-interval over seeds against the range the statement asserts).

:mod:`.audit` rolls this evidence up into the statements' verdicts; :mod:`.section` shows the statements with their
verdicts.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from bounds.fedsgm.remarks import STATEMENTS as REMARK_WORDS
from repro.papers.fedsgm import errata as ERR
from repro.comparisons import Interval, compare, decide
from repro.tables import select_results
from repro.verdicts import Bearing, Evidence, Statement, from_findings


FIGURE1_STATEMENTS = (
    Statement("fedsgm.figure1.convergence", "Section 4.1, Figure 1 (left)",
              "we observe that both hard and soft switching achieve convergence of the majority-class objective "
              "f(w)", "fedsgm.figure1"),
    Statement("fedsgm.figure1.oscillation", "Section 4.1, Figure 1 (middle); repeated in Section 5: 'is "
              "empirically more stable near the feasibility boundary, suppressing oscillations'",
              "soft switching exhibits markedly improved stability in the constraint g(w): while hard switching "
              "frequently oscillates around the tolerance, soft switching maintains feasibility more consistently",
              "fedsgm.figure1"),
    Statement("fedsgm.figure1.violations_4x", "Section 4.1, Figure 1 (right)",
              "This translates into a substantial reduction in the number of violations, with soft switching "
              "yielding around 4× fewer violations compared to hard switching", "fedsgm.figure1"),
    Statement("fedsgm.figure1.objective", "Section 4.1, Figure 1 (left)",
              "Notably, this improvement in feasibility is achieved without compromising the convergence behavior "
              "of the objective loss", "fedsgm.figure1"),
    Statement("fedsgm.figure1.variance", "Section 4.1, Figure 1 (variance bands)",
              "and in fact ensures more stable results as evident from the variance plots", "fedsgm.figure1"),
)
#: the sentences of the discussion after Theorem 2, Section 3, the Contributions, the Conclusion and Section 4.1 that
#: the symbolic findings of :mod:`bounds.fedsgm.remarks` decide (each finding names its statement; no run tests them)
REMARK_STATEMENTS = tuple(Statement(sid, where, words, "") for sid, (where, words) in REMARK_WORDS.items())
STATEMENTS = FIGURE1_STATEMENTS + REMARK_STATEMENTS
STATEMENT_IDS = tuple(s.id for s in STATEMENTS)
REMARK_IDS = tuple(s.id for s in REMARK_STATEMENTS)

#: "around 4x", read as: the mean over seeds of log(hard/soft violation count) lies in [log 2, log 8], i.e. the
#: ratio is within a factor 2 of 4 either way (an assumption of this suite: the paper gives no range)
AROUND_4X = (math.log(2), math.log(8))
#: tolerance of a mean log ratio of violation counts: one violation of the ~10 of a soft run moving between machines
#: (a g(w_t) within rounding of eps) moves the log ratio by about log(9/8) = 0.118
LOG_COUNT_TOL = 0.12
#: tolerance of a mean paired difference of counts (crossings of eps): one crossing per run may move between
#: machines when g(w_t) lands within rounding of eps
COUNT_TOL = 1.0
#: "without compromising the convergence behavior of the objective loss" names no quantity: the suite measures how
#: far soft switching's objective ends above hard switching's and reports it against a 5% margin (its own yardstick,
#: mean per-seed log(f_soft/f_hard) <= log 1.05), but does not let that margin decide the statement, which it reports
#: as not checkable (the paper also says "both hard and soft switching achieve convergence of ... f(w)": see
#: fedsgm.figure1.convergence)
OBJECTIVE_RTOL = 0.05
#: tolerance of a mean log ratio of objective values or variances: floating-point noise only
LOG_VALUE_TOL = 1e-9
#: the last rounds over which a trajectory's level is read (hard switching oscillates: one round is one phase)
FINAL_WINDOW = 10


def _paired_runs(fig_results, variant: str) -> list[tuple]:
    """(seed, hard run, soft run) of ``variant``, paired by seed (hard and soft share it)."""
    runs = {sw: {r.spec.seed: r for r in select_results(fig_results, variant=variant, switching=sw)}
            for sw in ("hard", "soft")}
    return [(s, runs["hard"][s], runs["soft"][s]) for s in sorted(set(runs["hard"]) & set(runs["soft"]))]


def crossings(g: np.ndarray, eps: float) -> int:
    """How often g(w_t) - eps changes sign along a trajectory (t = 0..T-1): the oscillation around the tolerance."""
    side = np.sign(np.asarray(g, dtype=float)[:-1] - eps)
    return int(np.sum(side[1:] != side[:-1]))


def _final_level(f: np.ndarray) -> float:
    return float(np.mean(np.asarray(f, dtype=float)[-FINAL_WINDOW:]))


def _pair_replay(pairs) -> str:
    """How to replay the paired runs behind a comparison: the command and the hard, soft result hashes per seed."""
    return "python -m repro run fedsgm.figure1; results " + ", ".join(f"{h.hash} (hard), {s.hash} (soft)"
                                                                      for _, h, s in pairs)


def _oscillation_evidence(pairs) -> list[Evidence]:
    values = [crossings(h.arrays["g"], h.spec.config["eps"]) - crossings(s.arrays["g"], s.spec.config["eps"])
              for _, h, s in pairs]
    return [compare("fedsgm.figure1.oscillation", "fedsgm.figure1", values, claimed=(0.0, math.inf),
                    what="crossings of eps by g(w_t), hard minus soft", tol=COUNT_TOL,
                    seeds=[p[0] for p in pairs], replay=_pair_replay(pairs))]


def _violations_evidence(pairs) -> list[Evidence]:
    counts = np.array([[float(h.arrays["violations"]), float(s.arrays["violations"])] for _, h, s in pairs])
    sid = "fedsgm.figure1.violations_4x"
    what = "log(hard/soft violation count) (reading of 'around 4x': [log 2, log 8])"
    if (counts == 0).any():
        return [Evidence(sid, "fedsgm.figure1", Bearing.INCONCLUSIVE, f"{what}: a count is 0 on some seed "
                         f"(hard {counts[:, 0].tolist()}, soft {counts[:, 1].tolist()}), the ratio is undefined",
                         len(pairs))]
    return [compare(sid, "fedsgm.figure1", np.log(counts[:, 0] / counts[:, 1]), claimed=AROUND_4X, what=what,
                    tol=LOG_COUNT_TOL, seeds=[p[0] for p in pairs], replay=_pair_replay(pairs))]


def _objective_evidence(pairs) -> list[Evidence]:
    """Measured, not judged: the paper gives no measure of "compromising" (:data:`OBJECTIVE_RTOL`)."""
    values = [math.log(_final_level(s.arrays["f"]) / _final_level(h.arrays["f"])) for _, h, s in pairs]
    measured = compare("fedsgm.figure1.objective", "fedsgm.figure1", values,
                       claimed=(-math.inf, math.log(1 + OBJECTIVE_RTOL)),
                       what=f"log(f_soft/f_hard), f averaged over the last {FINAL_WINDOW} rounds, against the "
                            f"suite's own {OBJECTIVE_RTOL:.0%} margin", tol=LOG_VALUE_TOL, seeds=[p[0] for p in pairs])
    return [dataclasses.replace(measured, bearing=Bearing.NOT_CHECKABLE, summary=(
        "the words name no quantity ('without compromising the convergence behavior'); measured "
        f"({measured.bearing.value} for the margin): {measured.summary}; replay: {_pair_replay(pairs)}"))]


def variance_ratio_interval(hard: np.ndarray, soft: np.ndarray, level: float = 0.95) -> Interval:
    """log(var_hard / var_soft) of per-seed values and its F-distribution confidence interval (nan bounds with
    fewer than two seeds a side). Assumption, named: the two samples are independent normal draws (hard and soft
    share each seed, so this is an approximation)."""
    from scipy import stats
    hard, soft = np.asarray(hard, float), np.asarray(soft, float)
    n = int(min(hard.size, soft.size))
    if n < 2 or hard.var(ddof=1) == 0 or soft.var(ddof=1) == 0:
        return Interval(math.nan if n < 2 else 0.0, math.nan, math.nan, 1, level)
    ratio, dfh, dfs = hard.var(ddof=1) / soft.var(ddof=1), hard.size - 1, soft.size - 1
    tail = (1 - level) / 2
    return Interval(math.log(ratio), math.log(ratio / stats.f.ppf(1 - tail, dfh, dfs)),
                    math.log(ratio / stats.f.ppf(tail, dfh, dfs)), n, level)


def _variance_evidence(pairs) -> list[Evidence]:
    hard = [_final_level(h.arrays["f"]) for _, h, _ in pairs]
    soft = [_final_level(s.arrays["f"]) for _, _, s in pairs]
    ci = variance_ratio_interval(hard, soft)
    bearing = decide(ci, (0.0, math.inf), LOG_VALUE_TOL)
    word = {Bearing.SUPPORTS: "inside", Bearing.VIOLATES: "outside", Bearing.INCONCLUSIVE: "inconclusive against"}
    return [Evidence("fedsgm.figure1.variance", "fedsgm.figure1", bearing,
                     f"log(var_hard/var_soft) of f over the last {FINAL_WINDOW} rounds across seeds (F interval): "
                     f"{ci}; {word[bearing]} the stated range (0, inf) (tolerance {LOG_VALUE_TOL:g})", ci.n,
                     replay=_pair_replay(pairs) if bearing is Bearing.VIOLATES else "")]


def _convergence_evidence(pairs) -> list[Evidence]:
    """Convergence is a limit: a run of T rounds cannot decide it (as an almost-sure limit claim); the evidence
    gives how much f still moves over the last rounds, for the reader."""
    def move(f):
        return abs(float(f[-1]) - float(f[-1 - FINAL_WINDOW])) / abs(float(f[-1]))
    moves = {"hard": [move(h.arrays["f"]) for _, h, _ in pairs], "soft": [move(s.arrays["f"]) for _, _, s in pairs]}
    measured = ", ".join(f"{sw} {np.mean(v):.3g}" for sw, v in moves.items())
    return [Evidence("fedsgm.figure1.convergence", "fedsgm.figure1", Bearing.NOT_CHECKABLE,
                     f"convergence is a limit: no run of {pairs[0][1].spec.config['T']} rounds decides it (relative "
                     f"change of f over the last {FINAL_WINDOW} rounds, mean over {len(pairs)} seeds: {measured})")]


def remark_evidence(findings) -> list[Evidence]:
    """The evidence about :data:`REMARK_STATEMENTS` from the findings that name them
    (:func:`repro.verdicts.from_findings`: a consistent finding supports, a discrepancy violates (kind instance) or
    is a gap (stated-rate, statement-vs-proof)); every one is a symbolic computation, whatever its kind."""
    return [dataclasses.replace(e, method="symbolic") for e in from_findings(findings, REMARK_IDS)]


def statement_evidence(fig_results) -> list[Evidence]:
    """The evidence about every statement of :data:`STATEMENTS` from the runs of ``fedsgm.figure1``, under each
    reading of the two settings Section 4.1 leaves open (the bias feature, which class is the objective:
    :data:`repro.papers.fedsgm.errata.FIGURE1_READINGS`), each piece tagged with its reading (none without paired
    runs: the statement is then not run)."""
    out = []
    for variant, (bias, labels) in ERR.FIGURE1_READINGS.items():
        pairs = _paired_runs(fig_results, variant)
        if not pairs:
            continue
        reading = ((ERR.CHOICES[0].id, bias), (ERR.CHOICES[1].id, labels))
        out += [dataclasses.replace(e, reading=reading) for e in (
            _convergence_evidence(pairs) + _oscillation_evidence(pairs) + _violations_evidence(pairs)
            + _objective_evidence(pairs) + _variance_evidence(pairs))]
    return out
