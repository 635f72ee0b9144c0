"""The reading side of the exact enumerations that judge a deterministically stated claim (``fedsgm.exact``,
``ssca.exact``): one reader turns their :class:`repro.scripted.FailureCount`\\ s (metadata ``failure_counts``, with
the run's ``instance``) into evidence and table rows, so that the audits read enumerations the same way.

A claim stated for every realisation fails if any pattern of positive probability fails it: a failure probability
above 0 violates (replay: the run and its first failing pattern), exactly 0 supports. The numbers cited are the
claim's own sides at the pattern where observed - bound is largest, and their ratio where the bound is positive.
A failure-probability search (:mod:`repro.failure_search`) records its best instance's count in the same form, and
its summary adds the family searched and how the probability scales with the horizon; where the sides were finite on
every pattern, the summary says whether the in-expectation version (E[observed] <= E[bound]) survives.
(PC-FedAvg's and FedCLUP's enumerations compute exact expectations, which their per-run checks already judge.)

Run modules never import this module: editing how enumerations are read changes no run's cache key.
"""
from __future__ import annotations

from bounds.audit import fmt_point

from .scripted import FailureCount
from .tables import fmt
from .verdicts import Bearing, Evidence, against

__all__ = ["counts", "evidence", "rows"]


def counts(run) -> list[FailureCount]:
    """The failure counts a run recorded, one per claim it judged."""
    return [FailureCount.from_json(d) for d in run.meta["metadata"]["failure_counts"]]


def _worst(count: FailureCount) -> float | None:
    return count.observed / count.bound if count.bound is not None and count.bound > 0 else None


def _sides(count: FailureCount) -> str:
    if count.observed is None:
        return "no pattern judged"
    def shown(x):                                 # -0.0 (an exact tie on the negative side) shows as 0
        return fmt(x + 0.0 if x is not None else x)
    return against(shown(count.observed), shown(count.bound), count.claim)


def _expectation(count: FailureCount) -> str:
    """Whether the in-expectation version, which a claim stated for every run does not state, survives:
    E[observed] against E[bound] over the same patterns."""
    if count.expectation is None:
        return ""
    mean_observed, mean_bound = count.expectation
    fate = "survives" if mean_observed <= mean_bound else "fails too"
    return (f"; the in-expectation version, which the claim does not state, {fate}: {fmt(mean_observed)} against "
            f"{fmt(mean_bound)} over the patterns")


def _searched(run) -> str:
    """A failure-probability search's family, instances enumerated and horizon profile (repro.failure_search)."""
    search = run.meta["metadata"].get("failure_search")
    if not search:
        return ""
    profile = ", ".join(f"{t:g}: {p}" for t, p in search["horizons"])
    return (f"; the most likely failure over family {search['family']} ({search['instances']} instances enumerated)"
            + (f"; by horizon {profile}" if profile else ""))


def replay(experiment: str, run, count: FailureCount, pattern_words: str) -> str:
    """The command that recomputes the run, with the instance and its first failing pattern."""
    return (f"python -m repro run {experiment}; result {run.hash}; {pattern_words} {count.failing[0]} "
            f"({fmt_point(run.meta['metadata']['instance'])})")


def evidence(runs, experiment: str, *, fails: str, pattern_words: str) -> list[Evidence]:
    """One piece of evidence (method "exact probability") per run and claim: P(``fails``) over all patterns
    (``pattern_words`` names what a pattern is) > 0 violates, = 0 supports."""
    out = []
    for run in runs:
        instance = fmt_point(run.meta["metadata"]["instance"])
        for count in counts(run):
            violated = count.failed > 0
            halved = ("" if count.halved_probability is None
                      else f"; with its constant halved {count.halved_probability}")
            summary = (f"P({fails}) = {count.probability} exactly over all {count.patterns} {pattern_words} "
                       f"({instance}){halved}; where observed - bound is largest: {_sides(count)}"
                       f"{_expectation(count)}{_searched(run)}")
            out.append(Evidence(count.claim, experiment, Bearing.VIOLATES if violated else Bearing.SUPPORTS,
                                summary, count.patterns, _worst(count),
                                replay(experiment, run, count, pattern_words) if violated else "",
                                method="exact probability", observed=count.observed, bound=count.bound))
    return out


def rows(runs, experiment: str) -> list[list]:
    """One row per run and claim: instance, patterns, claim, P(fails), P(fails) with the constant halved, the
    claim's sides where observed - bound is largest, replay."""
    return [[fmt_point(run.meta["metadata"]["instance"]), count.patterns, f"`{count.claim}`", str(count.probability),
             "-" if count.halved_probability is None else str(count.halved_probability), _sides(count),
             f"`python -m repro run {experiment}; result {run.hash}`"]
            for run in runs for count in counts(run)]


#: the header of :func:`rows`
HEADER = ["instance", "patterns", "claim", "P(fails)", "P(fails) with its constant halved",
          "where observed - bound is largest", "replay"]
