"""Claim x problem x trace -> Outcome: where ``bounds`` (what is claimed) meets ``repro`` (what happens).

Generic machinery (this module) and one ``checks`` module per paper package that turns its traces into the
observed quantities its claims name, behind one entry ``check(claim, problem, trace) -> list[Outcome]`` that
:func:`check_claims` calls for each claim a run checks. The contract (in the style of PEPit): every check returns an
:class:`Outcome` with the observed value, the bound, their ratio, the mode and a verdict.

* A deterministic claim fails on any single violation larger than the numerical tolerance;
  a violation within the tolerance (solver accuracy of f*, float rounding) is reported as
  ``inconclusive`` and not counted as a failure.
* An expectation claim is judged on the Monte-Carlo mean over independent runs: it fails only
  when the lower limit of the confidence interval exceeds the bound.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import sympy as sp
import scipy

from bounds.core import Claim, Mode


@dataclass(frozen=True)
class Outcome:
    """Result of checking one claim (or one relation of it) on one run or one batch of runs."""

    claim_id: str
    relation: str
    mode: str
    observed: float
    bound: float
    ratio: float
    passed: bool
    inconclusive: bool = False
    n_checked: int = 1
    n_runs: int = 1
    ci: tuple[float, float] | None = None
    hypotheses_met: bool = True
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        d = dict(self.__dict__)
        d["ci"] = list(self.ci) if self.ci is not None else None
        return d


@functools.lru_cache(maxsize=4096)
def _compiled(expr: sp.Expr):
    """(names of the sorted symbols, numpy function) of an expression; cached: lambdify dominates check time,
    and printing the symbols' names is the next cost of a search's thousands of checks."""
    syms = tuple(sorted(expr.free_symbols, key=str))
    return tuple(map(str, syms)), sp.lambdify(syms, expr, "numpy")


def _numeric(expr: sp.Expr, values: dict, claim_id: str) -> np.ndarray:
    names, fn = _compiled(expr)
    missing = [name for name in names if name not in values]
    if missing:
        raise ValueError(f"claim {claim_id}: values needed for {missing}")
    return np.asarray(fn(*[values[name] for name in names]), dtype=np.float64)


@functools.lru_cache(maxsize=4096)
def _relation_name(rel: sp.Rel) -> str:
    return f"{rel.lhs} {rel.rel_op} ..."


def check_relation(claim: Claim, rel: sp.Rel, values: dict, *, tol: float = 0.0,
                   details: dict | None = None) -> Outcome:
    """Check ``lhs <op> rhs`` elementwise over all entries of the (broadcast) observed arrays.

    ``values`` holds parameter values and observed arrays by symbol name. The outcome reports the
    worst entry: for ``<=`` the largest lhs - rhs (ratio lhs/rhs where rhs > 0); for ``>=`` the
    reverse. ``tol`` is the absolute slack below which a violation is inconclusive.
    """
    lhs_val = _numeric(rel.lhs, values, claim.id)
    rhs_val = _numeric(claim.substitute(rel.rhs), values, claim.id)
    lhs_b, rhs_b = np.broadcast_arrays(lhs_val, rhs_val)
    op = rel.rel_op
    excess = (lhs_b - rhs_b) if op in ("<=", "<") else (rhs_b - lhs_b)
    excess = np.where(np.isnan(excess), np.inf, excess)   # an undefined observation fails
    # Float rounding on an equality (e.g. the Rand-K step of Lemma 3) is not a violation at all.
    rounding = 1e-12 * np.maximum(1.0, np.maximum(np.abs(lhs_b), np.abs(rhs_b)))
    excess = np.where(np.isfinite(excess) & (np.abs(excess) <= rounding) & (op in ("<=", ">=")), 0.0, excess)
    worst = int(np.argmax(excess)) if excess.size else 0
    flat_l, flat_r = lhs_b.ravel(), rhs_b.ravel()
    obs, bnd = (float(flat_l[worst]), float(flat_r[worst])) if excess.size else (np.nan, np.nan)
    worst_excess = float(excess.ravel()[worst]) if excess.size else 0.0
    strict_violation = worst_excess > 0 or (op in ("<", ">") and worst_excess >= 0)
    passed = not strict_violation or worst_excess <= tol
    inconclusive = strict_violation and worst_excess <= tol
    ratio = obs / bnd if (op in ("<=", "<") and bnd > 0) else (bnd / obs if obs > 0 else np.nan)
    where = np.unravel_index(worst, lhs_b.shape) if excess.size and lhs_b.ndim else ()
    return Outcome(claim_id=claim.id, relation=_relation_name(rel), mode=claim.mode.value,
                   observed=obs, bound=bnd, ratio=float(ratio), passed=bool(passed),
                   inconclusive=bool(inconclusive), n_checked=int(excess.size),
                   details={"worst_index": [int(i) for i in where], "excess": worst_excess,
                            "tolerance": tol} | (details or {}))


def check_chain(claim: Claim, values: dict, *, tol: float = 0.0) -> list[Outcome]:
    """Check that each intermediate step of the proof is no smaller than the previous one."""
    outcomes = []
    prev_label, prev = "left side", claim.relations[0].lhs
    for label, expr in claim.steps:
        rel = sp.Le(prev, expr, evaluate=False)
        out = check_relation(claim, rel, values, tol=tol)
        outcomes.append(Outcome(**(out.__dict__ | {"relation": f"step: {prev_label} <= {label}"})))
        prev_label, prev = label, expr
    return outcomes


def mean_confidence_interval(samples: np.ndarray, level: float = 0.95) -> tuple[float, float, float]:
    """Sample mean and Student-t confidence interval; degenerate (mean, mean) for zero spread."""
    x = np.asarray(samples, dtype=np.float64)
    mean = float(x.mean())
    if x.size < 2 or np.all(x == x[0]):
        return mean, mean, mean
    half = float(scipy.stats.t.ppf(0.5 + level / 2, df=x.size - 1) * x.std(ddof=1) / np.sqrt(x.size))
    return mean, mean - half, mean + half


def check_expectation(claim: Claim, rel: sp.Rel, samples: np.ndarray, bound: float, *,
                      tol: float = 0.0, level: float = 0.95, details: dict | None = None) -> Outcome:
    """Monte-Carlo check of ``E[lhs] <= bound``: fails only if the CI's lower limit exceeds it."""
    if claim.mode is not Mode.EXPECTATION:
        raise ValueError(f"claim {claim.id} is stated in mode {claim.mode.value}, not in expectation")
    mean, lo, hi = mean_confidence_interval(samples, level)
    violated = lo > bound
    return Outcome(claim_id=claim.id, relation=_relation_name(rel) + " (in expectation)",
                   mode=claim.mode.value, observed=mean, bound=float(bound),
                   ratio=mean / bound if bound > 0 else np.nan,
                   passed=bool(not violated or lo - bound <= tol),
                   inconclusive=bool(violated and lo - bound <= tol),
                   n_checked=int(np.size(samples)), n_runs=int(np.size(samples)), ci=(lo, hi),
                   details={"level": level, "max_single_run": float(np.max(samples))} | (details or {}))


def check_claims(check: Callable, claims, problem, trace) -> list[Outcome]:
    """Every outcome of ``check(claim, problem, trace)`` (a paper's checks entry) for each of ``claims``, in order.
    ``problem`` is what the paper's checks need of the instance (the problem, or the problem with its reference
    solution); ``trace`` is the algorithm's :class:`Trace`. Each outcome must be an :class:`Outcome` of that claim."""
    out = []
    for claim in claims:
        outcomes = list(check(claim, problem, trace))
        wrong = [o for o in outcomes if not isinstance(o, Outcome) or o.claim_id != claim.id]
        if wrong:
            raise TypeError(f"check of {claim.id} returned {wrong[0]!r}: an Outcome of that claim is required")
        out += outcomes
    return out


OUTCOME_FIELDS = ("observed", "bound", "ratio", "passed", "inconclusive", "hypotheses_met", "n_checked")


def outcome_arrays(outcomes) -> dict[str, np.ndarray]:
    """An outcome list as arrays (one row per outcome) for the result cache."""
    arrays = {"claim_id": np.array([o.claim_id for o in outcomes]),
              "relation": np.array([o.relation for o in outcomes])}
    for key in OUTCOME_FIELDS:
        arrays[key] = np.array([getattr(o, key) for o in outcomes])
    return arrays
