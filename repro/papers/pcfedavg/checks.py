"""PC-FedAvg: runs of Algorithm 1 (record="full") -> the observed quantities of Lemmas 4.3-4.6,
Propositions 4.7-4.8 and display (12) -> :class:`Outcome` per claim (estimators and decision
rule: this project's protocol, not the paper's).

Expectations are Monte-Carlo means over the S replicates of one run -- or, for an :class:`Instance` with
``exact=True`` (``pcfedavg.exact``), exact means over S replicates that enumerate every equally likely noise path,
judged with no standard error; the expectation over the
uniform output index K* of Theorem 3.4 is exact (the average over k = 0..K-1, with K* taken independent
of the samples). Relations whose right side contains observed expectations (e.g. Lemma 4.3's
6 L_G E[gap]) are judged on the paired per-replicate difference lhs - rhs, so the comparison is of
E[lhs - rhs] <= 0 with one standard error. Decision rule (this project's choice): a violation when
mean - 3 SE > 0, consistent when mean + 3 SE <= 0, inconclusive otherwise. Per-iteration lemmas are
judged at every k; the outcome reports the worst k and how many k were violated or inconclusive.

The bounds are the sympy claims of :mod:`bounds.pcfedavg.claims`, lambdified: the numbers checked here
are the printed formulas, not a transcription of them.

Entry: ``check(claim, problem, trace) -> list[Outcome]`` (called through :func:`repro.verify.check_claims`),
with ``problem`` an :class:`Instance` (the problem, its reference solutions and, for Lemmas 4.1-4.2, random
point pairs) and ``trace`` the run's PCFedAvgTrace (which carries its parameters).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy

from bounds.pcfedavg import claims as B

from repro.verify import Outcome, _numeric

Z = 3.0   # standard errors of the decision rule (this project's choice) for a single comparison
FAMILY_LEVEL = 1e-3   # per-outcome false-alarm level when one outcome judges many k (Bonferroni)


def z_threshold(n_checks: int) -> float:
    """Standard errors required for a violation among ``n_checks`` simultaneous comparisons: the
    base 3, raised by a Bonferroni correction so that a correct bound checked at K iterations is
    flagged with probability <= 1e-3 (e.g. 4.05 for 40 comparisons)."""
    return max(Z, float(scipy.stats.norm.isf(FAMILY_LEVEL / max(int(n_checks), 1))))


def parameter_values(problem, reference, params) -> dict:
    """Numeric values of every parameter symbol of the claims for one run."""
    nu = float(getattr(problem.local, "nu", 0.0))
    rho = params.rho[0]
    return {"m": problem.m, "n": problem.n, "L_f": problem.L_f, "sigma": problem.sigma_max,
            "sigma_i": problem.sigma, "rho": rho, "gamma": params.gamma, "H": params.local_steps,
            "R": params.rounds, "K": params.K, "nu": nu, "M": reference.M, "Q": reference.Q,
            "D": reference.D}


def _se(x: np.ndarray, axis=0) -> np.ndarray:
    n = x.shape[axis]
    if n < 2:
        return np.zeros(np.delete(x.shape, axis))
    return x.std(axis=axis, ddof=1) / np.sqrt(n)


def _verdict(mean_excess: np.ndarray, se: np.ndarray, tol: float, z: float):
    """Elementwise (violated, inconclusive) of E[lhs - rhs] <= 0 under the z-SE rule; ``tol``
    absorbs the reference solutions' certified error."""
    violated = mean_excess - z * se > tol
    consistent = mean_excess + z * se <= tol
    return violated, ~violated & ~consistent


def _outcome(claim, name, lhs, rhs, *, sign=1.0, tol=0.0, hypotheses=True, details=None, exact=False) -> Outcome:
    """Judge lhs <= rhs (sign=+1) or lhs >= rhs (sign=-1) on per-replicate arrays (S, ...); ``exact``: the replicates
    are every equally likely path, so the means are the expectations (standard error 0)."""
    lhs, rhs = np.broadcast_arrays(np.asarray(lhs, float), np.asarray(rhs, float))
    excess = sign * (lhs - rhs)
    mean_excess = excess.mean(axis=0)
    se = np.zeros_like(mean_excess) if exact else _se(excess)
    z = z_threshold(np.size(mean_excess))
    exceeding = int(np.sum(np.any((excess > tol).reshape(excess.shape[0], -1), axis=1)))
    violated, inconclusive = _verdict(mean_excess, se, tol, z)
    lhs_m, rhs_m = lhs.mean(axis=0), rhs.mean(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        if sign > 0:   # upper bound: observed / bound where the bound is positive
            ratio = np.where(rhs_m > 0, lhs_m / rhs_m, np.nan)
        else:          # lower bound: bound / observed when both are positive, observed / bound when both negative
            ratio = np.where((lhs_m > 0) & (rhs_m > 0), rhs_m / lhs_m,
                             np.where((lhs_m < 0) & (rhs_m < 0), lhs_m / rhs_m, np.nan))
    flat = np.atleast_1d(mean_excess - z * np.atleast_1d(se)).ravel()
    worst = int(np.nanargmax(flat)) if flat.size else 0
    pick = lambda a: float(np.atleast_1d(a).ravel()[worst])  # noqa: E731
    finite = np.atleast_1d(ratio)[np.isfinite(np.atleast_1d(ratio))]
    n_viol, n_inc = int(np.sum(violated)), int(np.sum(inconclusive))
    return Outcome(claim_id=claim.id, relation=name, mode=claim.mode.value,
                   observed=pick(lhs_m), bound=pick(rhs_m),
                   ratio=float(finite.max()) if finite.size else float("nan"),
                   passed=n_viol == 0, inconclusive=n_viol == 0 and n_inc > 0,
                   n_checked=int(np.size(mean_excess)), n_runs=int(lhs.shape[0]),
                   ci=(pick(lhs_m) - z * pick(se), pick(lhs_m) + z * pick(se)),
                   hypotheses_met=bool(np.all(hypotheses)),
                   details={"violations": n_viol, "inconclusive": n_inc, "worst_index": worst,
                            "replicates_exceeding": exceeding,
                            "rule": "exact mean(lhs - rhs) over every path vs 0" if exact else
                            f"mean(lhs - rhs) -/+ {z:.2f} SE vs 0"} | (details or {}))


def round_sums(per_k: np.ndarray, lengths) -> np.ndarray:
    """Sum of a per-iteration array (S, K) over the iterations of each round -> (S, R)."""
    edges = np.concatenate([[0], np.cumsum(lengths)])
    return np.add.reduceat(per_k, edges[:-1], axis=-1)


def observed(trace) -> dict:
    """Per-replicate observed quantities of a "full" trace, keyed by the claims' symbol names."""
    r = trace.records
    lengths = trace.params.lengths
    dist_all = np.concatenate([r["dist"], r["dist_final"][:, None]], axis=1)
    return {
        "sq_avg_grad": r["sq_avg_grad"], "gap": r["gap"], "drift": r["drift"], "inner": r["inner"],
        "dist": dist_all[:, :-1], "dist_next": dist_all[:, 1:],
        "drift_round": round_sums(r["drift"], lengths), "gap_round": round_sums(r["gap"], lengths),
        "round_len": np.asarray(lengths, dtype=float),
        "gap_Kstar": r["gap"].mean(axis=1), "subopt_Kstar": r["subopt"].mean(axis=1),
        "infeas_i": r["infeas"].mean(axis=1),                          # (S, m): E_{K*} d_i^2
        "dbar_Kstar": r["dbar"].mean(axis=1),
    }


THEORY_CLAIM_IDS = ("pcfedavg.lemma4.3", "pcfedavg.lemma4.6", "pcfedavg.lemma4.4", "pcfedavg.lemma4.5",
                    "pcfedavg.prop4.7", "pcfedavg.prop4.8.i", "pcfedavg.prop4.8.iii", "pcfedavg.prop4.8.ii",
                    "pcfedavg.eq12")
PAIR_CLAIM_IDS = ("pcfedavg.lemma4.1.i", "pcfedavg.lemma4.1", "pcfedavg.lemma4.2")
#: The claims a "full" run checks on its trace (Lemmas 4.3-4.6, Props 4.7-4.8, (12)), and those checked on the
#: instance's random point pairs (Lemmas 4.1-4.2), in the order their outcomes are reported.
THEORY_CLAIMS = tuple(B.claim(cid) for cid in THEORY_CLAIM_IDS)
PAIR_CLAIMS = tuple(B.claim(cid) for cid in PAIR_CLAIM_IDS)


@dataclass(frozen=True, eq=False)
class Instance:
    """What the checks need of one instance: ``problem`` (a PersonalizedProblem), its ``reference`` solutions
    for the run's rho (x*, x*_rho and the constants D, M, Q) and, for Lemmas 4.1-4.2 only, the random point
    ``pairs`` (:func:`sample_pairs`); ``exact`` when the run's replicates are an exact enumeration of the noise."""

    problem: object
    reference: object
    pairs: np.ndarray | None = None
    exact: bool = False     # the replicates enumerate every equally likely noise path (exact expectations)


def check(claim, problem: Instance, trace) -> list[Outcome]:
    """The outcomes of ``claim`` (one of :data:`THEORY_CLAIMS`, :data:`PAIR_CLAIMS`) on one "full" run with S
    replicates: ``problem`` the :class:`Instance`, ``trace`` the run's PCFedAvgTrace. The bound and mode are
    ``claim``'s own, so a claim with perturbed constants is checked by the same code (the tests' meta-checks)."""
    checker = _CHECKS.get(claim.id)
    if checker is None:
        raise ValueError(f"claim {claim.id} has no run-level check in PC-FedAvg: one of "
                         f"{', '.join(THEORY_CLAIM_IDS + PAIR_CLAIM_IDS)}")
    return checker(claim, problem, trace)


def reference_tolerance(reference) -> float:
    """Certified error of the references: gap values are exact up to this."""
    return 1e-9 * (1 + abs(reference.G_rho_star)) + 10 * reference.residual_rho * np.sqrt(reference.Q + 1)


def _context(inst: Instance, trace) -> tuple[dict, dict, float]:
    """(values of every symbol, observed quantities, tolerance) of a run."""
    obs = observed(trace)
    return parameter_values(inst.problem, inst.reference, trace.params) | obs, obs, \
        reference_tolerance(inst.reference)


def _hypotheses(claim, values: dict) -> bool:
    return bool(np.all(claim.hypotheses_hold(**values)))


def claim_bound(claim, observed: str, values: dict) -> np.ndarray:
    """The bound ``claim`` puts on its observed quantity ``observed``, evaluated at ``values`` (lambdified)."""
    return _numeric(claim.bounds()[observed], values, claim.id)


def _every_k(claim, inst, trace) -> list[Outcome]:
    """Lemmas 4.3 and 4.6: per replicate and iteration k."""
    lhs = {"pcfedavg.lemma4.3": "sq_avg_grad", "pcfedavg.lemma4.6": "dist_next"}[claim.id]
    vals, obs, tol = _context(inst, trace)
    return [_outcome(claim, f"{lhs} <= bound at every k", obs[lhs], claim_bound(claim, lhs, vals),
                     tol=tol, hypotheses=_hypotheses(claim, vals), exact=inst.exact)]


def _lemma44(claim, inst, trace) -> list[Outcome]:
    """Lemma 4.4 is deterministic: pathwise at every k and replicate."""
    vals, obs, tol = _context(inst, trace)
    rhs = claim_bound(claim, "inner", vals)
    excess = obs["inner"] - rhs
    threshold = tol + 1e-9 * np.abs(rhs).max()
    worst = np.unravel_index(int(np.argmax(excess)), excess.shape)
    return [Outcome(claim_id=claim.id, relation="inner <= -2 gap + L_G drift (pathwise)", mode=claim.mode.value,
                    observed=float(obs["inner"][worst]), bound=float(rhs[worst]),
                    ratio=float("nan"), passed=bool(excess.max() <= threshold),
                    n_checked=int(excess.size), n_runs=int(excess.shape[0]),
                    hypotheses_met=_hypotheses(claim, vals),
                    details={"max_excess": float(excess.max()),
                             "replicates_exceeding": int(np.sum(np.any(excess > threshold, axis=1)))})]


def _lemma45(claim, inst, trace) -> list[Outcome]:
    """Lemma 4.5 per round, as stated for r >= 1; round 0 reported separately (Prop 4.7 uses it)."""
    vals, obs, tol = _context(inst, trace)
    rhs = np.broadcast_to(claim_bound(claim, "drift_round", vals), obs["drift_round"].shape)
    hyp = _hypotheses(claim, vals)
    out = []
    if trace.params.rounds > 1:
        out.append(_outcome(claim, "drift_round <= bound, rounds r >= 1", obs["drift_round"][:, 1:],
                            rhs[:, 1:], tol=tol, hypotheses=hyp, exact=inst.exact))
    out.append(_outcome(claim, "drift_round <= bound, round r = 0", obs["drift_round"][:, :1],
                        rhs[:, :1], tol=tol, hypotheses=hyp, exact=inst.exact,
                        details={"note": "the lemma is stated for r >= 1; Prop 4.7 applies it to r = 0 too"}))
    return out


def _expectation_over_kstar(claim, inst, trace) -> list[Outcome]:
    """Props 4.7, 4.8 (i) (upper bounds) and 4.8 (iii) (a lower bound) on E_{K*}."""
    lhs, sign = {"pcfedavg.prop4.7": ("gap_Kstar", 1.0), "pcfedavg.prop4.8.i": ("subopt_Kstar", 1.0),
                 "pcfedavg.prop4.8.iii": ("subopt_Kstar", -1.0)}[claim.id]
    vals, obs, tol = _context(inst, trace)
    return [_outcome(claim, f"E[{lhs}] {'<=' if sign > 0 else '>='} bound", obs[lhs],
                     claim_bound(claim, lhs, vals), sign=sign, tol=tol, hypotheses=_hypotheses(claim, vals),
                     exact=inst.exact)]


def _prop48ii(claim, inst, trace) -> list[Outcome]:
    vals, obs, tol = _context(inst, trace)
    return [_outcome(claim, "E[d_i^2] <= bound for every agent i", obs["infeas_i"],
                     claim_bound(claim, "infeas_i", vals), tol=tol, hypotheses=_hypotheses(claim, vals),
                     exact=inst.exact)]


def _eq12(claim, inst, trace) -> list[Outcome]:
    """(12): sqrt(sum_i E d_i^2) is a function of expectations: plug-in mean, judged by its delta-method SE."""
    vals, obs, tol = _context(inst, trace)
    total = obs["infeas_i"].sum(axis=1)
    root = np.sqrt(total.mean())
    se = _se(total) / (2 * root) if root > 0 and not inst.exact else 0.0
    bound12 = float(claim_bound(claim, "root_sum_infeas", vals))
    return [Outcome(claim_id=claim.id, relation="sqrt(sum_i E d_i^2) <= (12)", mode=claim.mode.value,
                    observed=float(root), bound=bound12, ratio=float(root / bound12) if bound12 > 0 else np.nan,
                    passed=bool(root - Z * se <= bound12 + tol),
                    inconclusive=bool(root - Z * se <= bound12 + tol < root + Z * se),
                    n_runs=int(total.size), hypotheses_met=_hypotheses(claim, vals))]


def sample_pairs(problem, rng: np.random.Generator, pairs: int = 200) -> np.ndarray:
    """Random point pairs (pairs, 2, agent i, m, n) for Lemmas 4.1 and 4.2. Half of the pairs are spread out
    (blocks on both sides of the boundaries of X_i); half are close pairs around a projected point, near an
    active face, where the projection's kink is."""
    m, n = problem.m, problem.n
    wide = rng.normal(scale=3.0, size=(pairs // 2, 2, m, m, n))
    centre = problem.sets.project(rng.normal(scale=3.0, size=(pairs - pairs // 2, 1, m, n)))[:, :, None]
    close = centre + rng.normal(scale=1e-3, size=(pairs - pairs // 2, 2, m, m, n))
    return np.concatenate([wide, np.broadcast_to(close, close.shape)], axis=0)


def _pairs_and_rho(inst: Instance, trace) -> tuple[np.ndarray, float]:
    if inst.pairs is None:
        raise ValueError("Lemmas 4.1-4.2 are checked on random point pairs: Instance.pairs (sample_pairs) is None")
    return inst.pairs, trace.params.rho[0]


def _lipschitz(claim, inst, trace) -> list[Outcome]:
    """Lemma 4.1 (i) (with sigma_i) and 4.1 (with sigma): for every agent i,
    ||grad G_{i,rho}(x) - grad G_{i,rho}(y)|| / ||x - y|| against the bound, on the random pairs."""
    problem = inst.problem
    P, rho = _pairs_and_rho(inst, trace)
    m, n = problem.m, problem.n
    grads = problem.exact_local_gradients(P.reshape(-1, m, m, n), rho).reshape(P.shape)
    num = np.sqrt(np.sum((grads[:, 0] - grads[:, 1]) ** 2, axis=(-2, -1)))    # (pairs, m)
    den = np.sqrt(np.sum((P[:, 0] - P[:, 1]) ** 2, axis=(-2, -1)))
    lip = num / den
    vals = {"m": m, "L_f": problem.L_f, "rho": rho, "sigma": problem.sigma_max, "sigma_i": problem.sigma,
            "lip_ratio": lip}
    bound = np.broadcast_to(claim_bound(claim, "lip_ratio", vals), lip.shape)
    worst = np.unravel_index(int(np.argmax(lip / bound)), lip.shape)
    return [Outcome(claim_id=claim.id, relation="Lipschitz ratio of grad G_{i,rho} <= bound (random pairs)",
                    mode=claim.mode.value, observed=float(lip[worst]), bound=float(bound[worst]),
                    ratio=float(lip[worst] / bound[worst]),
                    passed=bool(np.all(lip <= bound * (1 + 1e-9) + 1e-12)), n_checked=int(lip.size))]


def _convexity(claim, inst, trace) -> list[Outcome]:
    """Lemma 4.2 through G_{i,rho} summed over i (the midpoint gap of a sum of convex functions)."""
    problem = inst.problem
    P, rho = _pairs_and_rho(inst, trace)
    m = problem.m

    def G_all(x):                       # (..., m, m, n) -> (..., m): G_{i,rho}(x_i) for each agent i
        xbar = x.mean(axis=-2)
        fi = problem.local.values(xbar)
        idx = np.arange(m)
        own = x[..., idx, idx, :]
        return fi + 0.5 * problem.sigma * np.sum((own - xbar) ** 2, -1) + 0.5 * rho * problem.sets.distance(own) ** 2
    gap = 0.5 * (G_all(P[:, 0]) + G_all(P[:, 1])) - G_all(0.5 * (P[:, 0] + P[:, 1]))
    scale = 1e-12 * (1 + np.abs(G_all(P[:, 0])) + np.abs(G_all(P[:, 1])))
    worst = np.unravel_index(int(np.argmin(gap + scale)), gap.shape)
    return [Outcome(claim_id=claim.id, relation="midpoint convexity gap of G_{i,rho} >= 0",
                    mode=claim.mode.value, observed=float(gap[worst]), bound=0.0,
                    ratio=float("nan"), passed=bool(np.all(gap >= -scale)), n_checked=int(gap.size))]


_CHECKS = {"pcfedavg.lemma4.3": _every_k, "pcfedavg.lemma4.6": _every_k, "pcfedavg.lemma4.4": _lemma44,
           "pcfedavg.lemma4.5": _lemma45, "pcfedavg.prop4.7": _expectation_over_kstar,
           "pcfedavg.prop4.8.i": _expectation_over_kstar, "pcfedavg.prop4.8.iii": _expectation_over_kstar,
           "pcfedavg.prop4.8.ii": _prop48ii, "pcfedavg.eq12": _eq12, "pcfedavg.lemma4.1.i": _lipschitz,
           "pcfedavg.lemma4.1": _lipschitz, "pcfedavg.lemma4.2": _convexity}


def cr_consistency(trace) -> dict:
    """(L4.6-a) on a run: max_k ||bar x_{k+1} - (bar x_k - gamma (1/m) sum_i grad g_{i,rho})||.

    Zero (to rounding) on the (CR) path by construction of the update; on the printed path it
    measures how far line 8 is from the compact update that the analysis differentiates."""
    res = trace.records["cr_residual"]
    return {"path": trace.params.path, "max_residual": float(res.max()), "mean_residual": float(res.mean())}


def literal_kstar(trace, rng: np.random.Generator) -> dict:
    """The literal reading of K* (Theorem 3.4: uniform on {0, ..., K-1}): draw K* per replicate, evaluate
    at that iterate, and compare with the exact average over k (they agree in expectation)."""
    gap = trace.records["subopt"]
    S, K = gap.shape
    draws = rng.integers(0, K, size=S)
    literal = gap[np.arange(S), draws]
    exact = gap.mean(axis=1)
    diff = literal - exact
    se = _se(diff) if S > 1 else np.inf
    return {"literal_mean": float(literal.mean()), "exact_mean": float(exact.mean()),
            "difference": float(diff.mean()), "se": float(se),
            "agree": bool(abs(diff.mean()) <= Z * se + 1e-12)}
