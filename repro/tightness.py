"""Certified tightness: what the ``<paper>.pep`` runs say about each claim, for the report, the verdicts and the
figures (the reading side of :mod:`repro.pep`; it imports no run code, so editing it reruns nothing).

Every ``<paper>.pep`` run holds one claim's curve (:func:`repro.pep.curve`): for each parameter point, the claim's
bound (as printed, or derived as the curve's quantity says: iterated, inverted), the certified worst case (the PEP's
dual value), the value the extracted instance attains (primal) and the decision. Here they become

* the tightness table of each paper's report section: claim · parameters · the claim's bound · certified worst
  case · ratio (bound / worst case) · decision · replay command (:func:`table`), and under it each claim's reach
  (:func:`reach`): how many times smaller its bound must be before the certified worst case reports it violated;
* evidence for the claim verdicts, method ``certified worst case`` (:func:`evidence`): a bound below the certified
  worst case beyond the solver margin *violates* the claim, with the run that certifies it; a bound at or above it on
  every point (or equal to it within the solver's accuracy: *tight*) *supports* it, and the largest worst case / bound
  goes beside the runs' observed/bound; a point inside the primal-dual gap is *inconclusive*;
* the figure of each paper is drawn by :mod:`repro.pep_figure` (apart, so that listing the experiments, which imports
  the figure modules, loads no audit code).
"""
from __future__ import annotations

import math
from typing import NamedTuple

from bounds.audit import fmt_point
from repro.pep import CERTIFIED, DECISIONS, INACCURATE_MARGIN_REL, INCONCLUSIVE, MARGIN_REL, TIGHT, VIOLATED, margin
from repro.tables import fmt, markdown_table
from repro.verdicts import Bearing, Evidence

METHOD = "certified worst case"


def _replay(r) -> str:
    return f"python -m repro run {r.spec.experiment}; result {r.hash}"


def _points(results):
    for r in results:
        for p in r.meta["metadata"]["points"]:
            yield r, r.meta["metadata"], p


def table(results) -> str:
    """The tightness table of ``results`` (one row per parameter point, in run order; claim ids in code font, so that
    no row reads as a row of a paper's claims table)."""
    rows = [[f"`{m['claim']}`", fmt_point(p["params"]), fmt(p["bound"]), fmt(p["certificate"]["value"]),
             fmt(p["ratio"]), p["decision"], f"`{_replay(r)}`"] for r, m, p in _points(results)]
    return markdown_table(["claim", "parameters", "claim's bound", "certified worst case", "ratio bound/worst",
                           "decision", "replay"], rows)


def solver_line(results) -> str:
    """One line naming the solver, its tolerance, the PEPit version, the solver statuses (how many solves were not
    ``optimal``: their margin is wider, :func:`repro.pep.margin`) and the largest certified - attained difference.
    No solve time: the line is committed in the report, and a rebuild from an empty cache would rewrite it."""
    certs = [p["certificate"] for _, _, p in _points(results)]
    if not certs:
        return "No PEP was solved."
    gap = max(c["value"] - c["primal"] for c in certs)
    statuses = {s: sum(c["status"] == s for c in certs) for s in sorted({c["status"] for c in certs})}
    return (f"{len(certs)} PEPs solved with {', '.join(sorted({c['solver'] for c in certs}))} (tolerance "
            f"{fmt(max(c['tolerance'] for c in certs))}, PEPit {', '.join(sorted({c['pepit'] for c in certs}))}); "
            f"solver status: {', '.join(f'{n} {s}' for s, n in statuses.items())}; largest certified - attained "
            f"value {fmt(gap)}.")


def _summary(m: dict, p: dict) -> str:
    return (f"{m['quantity']} of {m['method']} over {m['function_class']} at {fmt_point(p['params'])}: the claim's "
            f"bound {fmt(p['bound'])}, certified worst case {fmt(p['certificate']['value'])} "
            f"(attained {fmt(p['certificate']['primal'])})")


def _support_counts(points) -> str:
    """``"certified at 3 and tight at 2 of 5 points"``, leaving out a count of 0."""
    parts = [f"{word} at {n}" for word, n in (("certified", sum(p["decision"] == CERTIFIED for p in points)),
                                              ("tight (attained within the solver's accuracy)",
                                               sum(p["decision"] == TIGHT for p in points))) if n]
    return f"{' and '.join(parts)} of {len(points)} points"


def evidence(results, reading=lambda run: ()) -> list[Evidence]:
    """One :class:`~repro.verdicts.Evidence` per run (claim curve), under the reading ``reading(run)`` it was
    computed on: violated if any point is, otherwise supports (every point certified) or inconclusive. ``worst`` is
    the largest certified worst case / bound, with those two values as ``observed`` and ``bound``: a worst case is
    bounded from above (for a lower-bound claim, of the negated quantity), so never "against lower bound"."""
    out = []
    for r in results:
        m = r.meta["metadata"]
        points = m["points"]
        bad = [p for p in points if p["decision"] == VIOLATED]
        unsure = [p for p in points if p["decision"] == INCONCLUSIVE]
        top = max(points, key=lambda p: 1.0 / p["ratio"] if p["ratio"] not in (0.0, math.inf) else 0.0, default=None)
        worst = None if top is None else 1.0 / top["ratio"] if top["ratio"] not in (0.0, math.inf) else 0.0
        numbers = ({"observed": top["certificate"]["value"], "bound": top["bound"]} if top is not None else {}) | {
            "reading": tuple(reading(r)), "method": METHOD, "lower": False}    # a worst case, bounded from above
        if bad:
            p = max(bad, key=lambda q: q["certificate"]["value"] - q["bound"])
            out.append(Evidence(m["claim"], r.spec.experiment, Bearing.VIOLATES, _summary(m, p), len(points), worst,
                                _replay(r), **numbers))
        elif unsure:
            out.append(Evidence(m["claim"], r.spec.experiment, Bearing.INCONCLUSIVE,
                                f"within the solver margin at {len(unsure)} of {len(points)} points: "
                                + _summary(m, unsure[0]), len(points), worst, **numbers))
        else:
            tightest = min(points, key=lambda q: q["ratio"])
            out.append(Evidence(m["claim"], r.spec.experiment, Bearing.SUPPORTS,
                                f"{_support_counts(points)}; tightest: " + _summary(m, tightest),
                                len(points), worst, **numbers))
    return out


def axis(results, key: str) -> str:
    """The values the parameter ``key`` takes over the points of ``results``, sorted: ``"1, 2, 4"``."""
    return ", ".join(fmt(v) for v in sorted({p["params"][key] for _, _, p in _points(results) if key in p["params"]}))


def decisions(results, digits: int = 4) -> str:
    """The sentence of a paper's summary paragraph that says what was decided: how many points are certified,
    violated and inconclusive, and the range of the claim's bound / certified worst case (the tightest with its claim
    and parameters), ratios to ``digits`` significant digits."""
    rows = [(m, p) for _, m, p in _points(results)]
    count = {d: sum(p["decision"] == d for _, p in rows) for d in DECISIONS}
    text = (f"Of {len(rows)} points, {count[CERTIFIED]} are certified, {count[TIGHT]} tight (bound = certified "
            f"worst case within the solver's accuracy), {count[VIOLATED]} violated and {count[INCONCLUSIVE]} "
            f"inconclusive")
    finite = [(m, p) for m, p in rows if math.isfinite(p["ratio"])]
    if finite:
        m, tight = min(finite, key=lambda mp: mp[1]["ratio"])
        text += (f"; the claim's bound / certified worst case ranges from {fmt(tight['ratio'], digits)} "
                 f"({m['claim']}, {fmt_point(tight['params'])}) to {fmt(max(p['ratio'] for _, p in finite), digits)}")
    return text + "."


def reach_factor(p: dict) -> float:
    """How many times smaller the claim's bound at point ``p`` must be before :func:`repro.pep.decide` calls it
    violated (it does below the attained worst case minus the solver margin, ``caught_below``): bound / caught_below
    for a positive bound and a positive caught_below (below 1: violated already); 0 where a bound at or below 0 is
    violated already (no division moves it); inf where no division of the bound gets below caught_below <= 0."""
    cert = p["certificate"]
    caught_below = cert["primal"] - margin(cert["value"], cert["status"])
    if caught_below > 0:
        return p["bound"] / caught_below if p["bound"] > 0 else 0.0
    return 0.0 if p["bound"] < caught_below else math.inf


#: two k of one curve closer than this, relatively, are the same k: the solver's noise on a certified value is ~1e-8
#: relative at its tolerance (1e-9), so "where k is attained" names every such point, not the one the noise picks
REACH_TIE_REL = 1e-6


class Reach(NamedTuple):
    """One curve's reach: k (:func:`reach_factor`, smallest over the curve), ``at``, the varying parameters of every
    point attaining k (within :data:`REACH_TIE_REL`; none when k is 0 or inf), the smallest bound / certified worst
    case ratio of the tightness table over the same points, and the number of points."""

    k: float
    at: tuple
    ratio: float
    points: int


def setting(points, x: str | None = None) -> dict:
    """The parameters every point of a curve shares (its model's setting: clients, local steps, step sizes, path),
    never its horizontal axis ``x`` (a one-point curve's T is still what the curve varies); the others vary."""
    first = points[0]["params"] if points else {}
    return {key: v for key, v in first.items()
            if key != x and all(key in p["params"] and p["params"][key] == v for p in points)}


def _attained(points, fixed: dict) -> tuple[float, tuple]:
    """The smallest k of ``points`` and the varying parameters of every point within :data:`REACH_TIE_REL` of it."""
    ks = [reach_factor(p) for p in points]
    k = min(ks)
    if not 0 < k < math.inf:
        return k, ()
    return k, tuple({key: v for key, v in p["params"].items() if key not in fixed}
                    for p, kp in zip(points, ks) if kp <= k * (1 + REACH_TIE_REL))


def reach(results) -> dict[tuple[str, str, str], Reach]:
    """(claim, quantity, setting) -> :class:`Reach`, one per curve (run): the attained worst case catches that bound
    divided by more than k, at the points ``at``; k < 1: violated there already. k >= the smallest ratio, by the
    solver margin. Two curves with the same key are refused (a row of the table would hide one)."""
    out: dict[tuple[str, str, str], Reach] = {}
    for r in results:
        m = r.meta["metadata"]
        points = m["points"]
        if not points:
            continue
        fixed = setting(points, m.get("x"))
        key = (m["claim"], m["quantity"], fmt_point(fixed))
        if key in out:
            raise ValueError(f"two PEP curves of {key[0]} on {key[1]!r} share the setting {key[2]!r} (run {r.hash}): "
                             "give the runs a parameter that tells them apart")
        k, at = _attained(points, fixed)
        out[key] = Reach(k, at, min(p["ratio"] for p in points), len(points))
    return out


def claim_reach(results) -> dict[str, dict[str, float]]:
    """claim -> {quantity: the smallest k of :func:`reach` over its curves in ``results``}: what the adversarial
    search's summary shows beside "halved constant detected", one number per quantity the claim bounds."""
    out: dict[str, dict[str, float]] = {}
    for (claim, quantity, _), r in reach(results).items():
        per = out.setdefault(claim, {})
        per[quantity] = min(r.k, per.get(quantity, math.inf))
    return out


def reach_cell(k: float) -> str:
    """k for a report cell: 3 significant digits, 6 within 1 % of 1 (so that a k above 1 by a wider solver margin,
    1.0001, does not read as tight); inf as "never"."""
    if not math.isfinite(k):
        return "never (attained worst case minus the margin not positive)"
    return fmt(k, 6 if abs(k - 1) < 1e-2 else 3)


def _at_cell(r: Reach) -> str:
    """Where k is attained: "every point" (of several), the points, or "-" (k is 0 or inf)."""
    if len(r.at) == r.points > 1:
        return "every point"
    return "; ".join(fmt_point(at) for at in r.at) or "-"


def reach_table(results) -> list[str]:
    """The lines under the tightness table: what k of :func:`reach` means, then one row per curve: its claim,
    quantity and setting (the parameters its points share), k and the points attaining it, the smallest ratio, the
    number of points. The method modelled is the section's "Modelled:" line."""
    rows = [[f"`{claim}`", quantity, fixed or "-", reach_cell(r.k), _at_cell(r), fmt(r.ratio, 4), r.points]
            for (claim, quantity, fixed), r in reach(results).items()]
    return ["Reach of the certified worst case: the claim's bound on the quantity named, divided by more than k, "
            "falls below the attained worst case minus the solver margin at the points named (\"k at\"), and is "
            "then reported violated. Where that bound is c g(parameters), c made more than k times smaller is caught; "
            "a constant inside g (an exponent, a rate's denominator) moves the bound by another factor. k is at least "
            "the smallest ratio bound / certified worst case of the table above, by the solver margin "
            f"({MARGIN_REL:g} x max(1, |worst case|), {INACCURATE_MARGIN_REL:g} x for a solve not reported optimal); "
            "1 is tight (every tightening beyond that margin is caught), a larger k is weaker evidence; k is shown to "
            "3 significant digits, to 6 within 1 % of 1.", "",
            markdown_table(["claim", "quantity", "setting (shared by the curve's points)", "k", "k at",
                            "smallest ratio", "points"], rows)]


def section(results, summary: str, after: list[str] = ()) -> list[str]:
    """A paper's report section "Certified worst cases (performance estimation)": its computed ``summary`` paragraph,
    the solver line and the tightness table, then ``after`` (lines). When ``<paper>.pep`` has not run: only the summary
    and ``after``, or nothing if ``after`` is empty."""
    if not results and not after:
        return []
    found = [solver_line(results), "", table(results), "", *reach_table(results), ""] if results else []
    return ["### Certified worst cases (performance estimation)", "", summary, "", *found, *after]


__all__ = ["METHOD", "table", "solver_line", "evidence", "axis", "decisions", "REACH_TIE_REL", "Reach", "reach_factor",
           "setting", "reach", "claim_reach", "reach_cell", "reach_table", "section"]
