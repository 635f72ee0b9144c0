"""PC-FedAvg (arXiv 2603.19617v1): the direction and comparison sentences of Remarks 3.5-3.6 and of the abstract, the
introduction and the conclusion, decided symbolically (sympy only; imports nothing from ``repro``).

* :func:`finding_remark36_tradeoff`: Remark 3.6, "a larger rho enforces feasibility more strongly, but it can worsen
  the suboptimality bound": the sign of d/d(rho) of every term of Prop. 4.8 (ii) (the infeasibility bound) and of
  Prop. 4.8 (i) (the suboptimality bound), under two readings of the step size: gamma held fixed (Prop. 4.8 takes
  gamma as a free parameter under its hypothesis) and gamma = 1/(c L_G), the largest step the hypothesis
  gamma <= min{1/(6 L_G), 1/(5 L_G (H-1))} allows, c = max(6, 5(H-1)) > 0, which moves with rho through
  L_G = (L_f + sigma(m-1))/m + rho. Assumptions, named: Q, M, D held fixed (they depend on rho only through the
  penalized solution x*_rho, which the remark does not discuss); "more strongly" read as every term non-increasing
  and one strictly decreasing; "can worsen" as one term strictly increasing at some admissible point.
* :func:`finding_remark36_units`: Remark 3.6, "a better O(eps^-1) communication complexity for agent-wise
  infeasibility relative to suboptimality": both sides put in the same unit before the powers are compared. The
  infeasibility of Theorem 3.4 (ii) is a squared length, E||xbar - Pi[xbar]||^2 (length power 2); the suboptimality
  of Theorem 3.4 (i) is a gap of f, whose size at a point at distance delta from x* is sqrt(D) delta + (L/2) delta^2
  at most (Assumption 3.1: L-smooth; D = ||grad f(x*)||^2), of length power 1 when D > 0 (the constrained case
  Remark 3.6 itself describes: "f(x*) need not attain the global minimum of f") and 2 when D = 0. An eps-accuracy
  in a quantity of length power k needs R = O(eps^-p), i.e. O(delta^-(p k)) in the length delta.
* :func:`finding_heterogeneous_budgets`: one fact in two places: "heterogeneous ℓ1 constraints" (Sections 1 and 6)
  against the budgets Section 5 prints per data set;
* :func:`finding_output_iterate`: what Algorithm 1 returns (x̄_R) against the iterate Theorem 3.4 bounds (x̄_(K*));
* :func:`finding_stated_rates`: one fact in several places: the orders the abstract, the introduction and Remarks
  3.5-3.6 quote for suboptimality and infeasibility against the leading powers of 1/eps of Theorem 3.4 as printed.
"""
from __future__ import annotations

import sympy as sp

from ..audit import CONSISTENT, DISCREPANCY, Finding, fmt_point, producer
from .claims import D, H, L_SYM, LF_SUM, L_f, _terms_48i, _terms_48ii, gamma, m, rho, sigma
from .thm34_rates import leading_eps_powers

#: Remark 3.6's words (direction in rho; comparison of the two rates)
TRADEOFF_WORDS = ("Remark 3.6", "The infeasibility bound exhibits the standard penalty-parameter tradeoff: a larger ρ "
                  "enforces feasibility more strongly, but it can worsen the suboptimality bound.")
BETTER_WORDS = ("Remark 3.6", "In particular, with this choice we retain the standard O(ε^-2) communication complexity "
                "for suboptimality, while obtaining a better O(ε^-1) communication complexity for agent-wise "
                "infeasibility relative to suboptimality.")
#: the statements (ids the audit gives verdicts to) and the findings that decide them
TRADEOFF_ID, BETTER_ID = "pcfedavg.remark3.6.tradeoff", "pcfedavg.remark3.6.better_feasibility"
TRADEOFF_FINDING, UNITS_FINDING = "pcfedavg.remark3.6.rho_direction", "pcfedavg.remark3.6.units"

c_step = sp.Symbol("c_step", positive=True)   # gamma = 1/(c L_G), c = max(6, 5(H-1))
L_G_RHO = LF_SUM / m + rho
#: the step-size readings of Remark 3.6's direction: gamma fixed, or the largest admissible step 1/(c L_G)
STEP_READINGS = (("gamma fixed", gamma), ("gamma = 1/(c L_G)", 1 / (c_step * L_G_RHO)))
#: one admissible point where "can" is shown (H >= 2 makes the (H-1)^2 terms nonzero)
WITNESS = {H: 3, m: 2, L_f: 1, sigma: 1, gamma: sp.Rational(1, 100), c_step: 10}


#: m >= 2 (Theorem 3.4) and H >= 1 written with nonnegative shifts, so that sympy's sign rules see m - 1 > 0, H - 1 >= 0
_m2, _h1 = sp.Symbol("_m2", nonnegative=True), sp.Symbol("_h1", nonnegative=True)
SHIFTS = {m: _m2 + 2, H: _h1 + 1}


def _coefficient_signs(poly: sp.Expr) -> set:
    """The signs (+1, -1) of the numeric coefficients of an expanded polynomial in nonnegative symbols."""
    return {1 if t.as_coeff_Mul()[0] > 0 else -1 for t in sp.Add.make_args(sp.expand(poly)) if t != 0}


def _sign(expr: sp.Expr) -> str:
    """'<= 0', '>= 0', '0' or 'unknown' for a rational expression after :data:`SHIFTS`: every symbol is then
    nonnegative, so a numerator and a denominator whose monomials share one sign decide it (no simplify: fast)."""
    num, den = sp.fraction(sp.together(expr.subs(SHIFTS)))
    if sp.expand(num) == 0:
        return "0"
    signs = _coefficient_signs(num)
    dens = _coefficient_signs(den)
    if len(signs) != 1 or len(dens) != 1:
        return "unknown"
    return ">= 0" if signs == dens else "<= 0"


def rho_directions(terms, step) -> list[tuple[str, bool]]:
    """Per term of a bound: the sign of its d/d(rho) with gamma -> ``step``, and whether it is strictly nonzero at
    :data:`WITNESS` (there, with rho = 4 and every other symbol 1)."""
    out = []
    for t in terms:
        d = sp.diff(t.subs(gamma, step), rho)
        at = d.subs(WITNESS).subs({rho: 4}).subs({s: 1 for s in d.free_symbols})
        out.append((_sign(d), bool(at != 0)))
    return out


def tradeoff_holds(feas_terms, sub_terms, step) -> bool:
    """Remark 3.6's direction under one step reading: the infeasibility bound non-increasing in rho with a strictly
    decreasing term, and the suboptimality bound with a term that strictly increases at :data:`WITNESS`."""
    return _tradeoff(rho_directions(feas_terms, step), rho_directions(sub_terms, step))


def _tradeoff(feas, sub) -> bool:
    """:func:`tradeoff_holds` on the directions already computed."""
    feas_ok = all(s in ("0", "<= 0") for s, _ in feas) and any(s == "<= 0" and nz for s, nz in feas)
    return feas_ok and any(s == ">= 0" and nz for s, nz in sub)


@producer
def finding_remark36_tradeoff(feas_terms=None, sub_terms=None):
    """Remark 3.6's direction in rho (module docstring), under every step reading of :data:`STEP_READINGS`.
    ``feas_terms``/``sub_terms`` (default: Prop. 4.8 (ii) and (i) as printed) let a test pass perturbed bounds."""
    feas_terms = _terms_48ii() if feas_terms is None else feas_terms
    sub_terms = _terms_48i() if sub_terms is None else sub_terms
    dirs = {label: (rho_directions(feas_terms, step), rho_directions(sub_terms, step)) for label, step in STEP_READINGS}
    per = {label: _tradeoff(*d) for label, d in dirs.items()}
    failing = [k for k, v in per.items() if not v]
    where, words = TRADEOFF_WORDS
    return Finding(
        TRADEOFF_FINDING, "stated-rate", (TRADEOFF_ID,), DISCREPANCY if failing else CONSISTENT,
        f"{where}: \"{words}\" -- " + (
            "under both readings of the step size (held fixed, or the largest admissible 1/(c L_G), which shrinks as "
            "rho grows) every term of Prop. 4.8 (ii) is non-increasing in rho and one strictly decreases, and a term "
            "of Prop. 4.8 (i) strictly increases." if not failing else
            f"the direction fails under {', '.join(failing)}: Prop. 4.8 (ii) is not non-increasing in rho or no term "
            "of Prop. 4.8 (i) increases."),
        "; ".join(f"{label}: d/d(rho) of (ii) {[s for s, _ in f]}, of (i) {[s for s, _ in u]}"
                  for label, (f, u) in dirs.items()),
        "sympy derivative signs under the symbols' assumptions")


delta = sp.Symbol("delta", positive=True)   # a length of the decision variable
#: the size of each metric at a point at distance delta (module docstring): infeasibility E||xbar - Pi[xbar]||^2,
#: suboptimality f(xbar) - f(x*) <= sqrt(D) delta + (L/2) delta^2
INFEASIBILITY_METRIC = delta**2
SUBOPTIMALITY_METRIC = sp.sqrt(D) * delta + L_SYM / 2 * delta**2


def length_power(metric: sp.Expr, at: dict) -> sp.Expr:
    """The power of delta of ``metric``'s leading term as delta -> 0 (its other symbols at ``at``)."""
    lead = sp.expand(metric.subs(at)).as_leading_term(delta)
    return sp.degree(lead, delta)


def common_unit_powers(infeasibility=INFEASIBILITY_METRIC, suboptimality=SUBOPTIMALITY_METRIC) -> dict:
    """Per case D > 0 and D = 0: the powers of 1/delta that Theorem 3.4 (i) and (ii) need in the common length unit
    (printed leading powers of 1/eps times each metric's length power)."""
    lp = leading_eps_powers()
    out = {}
    for case, at in (("D > 0", {D: 1}), ("D = 0", {D: 0})):
        out[case] = {"suboptimality": lp["i"]["printed"] * length_power(suboptimality, at),
                     "infeasibility": lp["ii"]["printed"] * length_power(infeasibility, at)}
    return out


@producer
def finding_remark36_units(infeasibility=INFEASIBILITY_METRIC, suboptimality=SUBOPTIMALITY_METRIC):
    """Remark 3.6's "better ... relative to suboptimality" in one unit (module docstring): discrepancy when, in the
    constrained case D > 0, infeasibility does not need a strictly smaller power of 1/delta than suboptimality."""
    powers = common_unit_powers(infeasibility, suboptimality)
    better = {case: p["infeasibility"] < p["suboptimality"] for case, p in powers.items()}
    where, words = BETTER_WORDS
    lp = leading_eps_powers()
    return Finding(
        UNITS_FINDING, "stated-rate", (BETTER_ID,), CONSISTENT if better["D > 0"] else DISCREPANCY,
        f"{where}: \"{words}\" -- the two O(.) measure different quantities: infeasibility (Theorem 3.4 (ii)) a "
        "squared distance E||xbar - Pi[xbar]||^2, suboptimality (i) a gap of f. " + (
            "In one length unit infeasibility still needs a smaller power: the comparison holds." if better["D > 0"]
            else "In one length unit (a gap of f is first order in the distance when grad f(x*) != 0, the constrained "
                 "case the remark describes), both need the same power of 1/delta: 'better' holds only when "
                 "grad f(x*) = 0 (D = 0), i.e. when the constraints do not bind."),
        f"printed leading powers of 1/eps: (i) {lp['i']['printed']}, (ii) {lp['ii']['printed']}; powers of 1/delta: "
        + "; ".join(f"{case}: {fmt_point(p)}" for case, p in powers.items())
        + f"; better: {fmt_point(better, sep='; ')}",
        "unit bookkeeping (sympy leading terms)")


#: the orders the paper quotes in several places, (where, words, {Theorem 3.4 part: power of 1/eps})
STATED_RATES = (
    ("Abstract", "We establish communication-complexity rates of O(ε^-2) for suboptimality and O(ε^-1) for agent-wise "
                 "infeasibility.", {"i": 2, "ii": 1}),
    ("Section 1 (contributions)", "we establish the best-known communication complexity [7, 8] (O(ε^-2)) for "
                                  "suboptimality, and O(ε^-1) for infeasibility.", {"i": 2, "ii": 1}),
    ("Remark 3.5", "namely O(ε^-2) for suboptimality, while simultaneously driving each agent to feasibility with a "
                   "rate O(ε^-1).", {"i": 2, "ii": 1}),
    ("Remark 3.6", "with this choice we retain the standard O(ε^-2) communication complexity for suboptimality, while "
                   "obtaining a better O(ε^-1) communication complexity for agent-wise infeasibility",
     {"i": 2, "ii": 1}),
)


@producer
def finding_stated_rates(places=STATED_RATES):
    """Every place's quoted order against the leading power of 1/eps of Theorem 3.4 as printed (the same fact in
    several places; :func:`~bounds.pcfedavg.thm34_rates.leading_eps_powers`)."""
    lp = leading_eps_powers()
    off = [(where, part, p, lp[part]["printed"]) for where, _, parts in places for part, p in parts.items()
           if lp[part]["printed"] != p]
    return Finding(
        "pcfedavg.stated_rates", "wording", (), DISCREPANCY if off else CONSISTENT,
        ("The orders quoted in " + ", ".join(w for w, _, _ in places) + " agree with Theorem 3.4's printed leading "
         "powers of 1/eps." if not off else "Quoted orders differ from Theorem 3.4 as printed: " + "; ".join(
             f"{w} says eps^-{p} for ({part}), the theorem has eps^-{q}" for w, part, p, q in off) + "."),
        "; ".join(f"{w}: \"{words}\"" for w, words, _ in places) + "; Theorem 3.4 printed: "
        + ", ".join(f"({k}) {v['printed']}" for k, v in lp.items()), "exponent bookkeeping (sympy)")


#: the places that call Section 5's constraints heterogeneous, and the paper's sense of the word (agent-specific sets)
HETEROGENEOUS_WORDS = (
    ("Section 1 (contributions)", "We validate the proposed method on MNIST and CIFAR-10 with heterogeneous ℓ1 "
                                  "constraints and compare it with existing FL baselines."),
    ("Section 6", "Experiments on MNIST and CIFAR-10 with heterogeneous ℓ1 constraints support the theory"),
)
HETEROGENEOUS_SENSE = ("Section 1", "the budget parameter τ_i varies across agents to reflect heterogeneous "
                                    "communication, memory, or actuation limits")


@producer
def finding_heterogeneous_budgets(budgets):
    """One fact in two places: the l1 constraints of Section 5's experiments, called heterogeneous (the places of
    :data:`HETEROGENEOUS_WORDS`, in the sense of :data:`HETEROGENEOUS_SENSE`: agent-specific sets X_i), against the
    budgets Section 5 prints per data set (``budgets``: data set -> tau_1..tau_m, the suite's encoding of "We use
    τ = [85, 86, 87, 88] (CIFAR-10) and τ = [188, 188, 188, 188] (MNIST)"). Sets are the same for every agent iff
    every tau_i is the same (exact comparison of the printed numbers). Reading, named: "heterogeneous" of each data
    set's experiment; the reading "the two experiments differ" is not the paper's sense of the word."""
    same = sorted(d for d, taus in budgets.items() if len({sp.nsimplify(t) for t in taus}) == 1)
    places = "; ".join(f"{w}: \"{words}\"" for w, words in HETEROGENEOUS_WORDS)
    return Finding(
        "pcfedavg.heterogeneous_budgets", "experiment-settings", (), DISCREPANCY if same else CONSISTENT,
        f"{places} -- " + (f"Section 5 gives every agent the same l1 budget on {', '.join(same)}, so its constraint "
                           "sets are not agent-specific (the paper's sense: \"" + HETEROGENEOUS_SENSE[1] + "\")."
                           if same else "every data set's budgets differ across agents."),
        "; ".join(f"{d}: tau = {list(t)}" for d, t in budgets.items()), "exact comparison of the printed budgets")


#: the two places: what Algorithm 1 returns, and the iterate Theorem 3.4 bounds
OUTPUT_WORDS = (("Algorithm 1, line 12", "Output: Server returns x̄_R."),
                ("Theorem 3.4", "Set K≜RH and let K* be a discrete uniform random variable on {0,…,K−1}"))


def printed_support(K_: int) -> range:
    """Theorem 3.4's K*: uniform on {0, ..., K-1}."""
    return range(K_)


def output_probability(round_lengths, support=printed_support) -> sp.Rational:
    """P[K* = T_R]: the probability that Theorem 3.4's iterate xbar_(K*) (K* uniform on ``support(K)``) is the one
    Algorithm 1 returns, xbar_R = the server's vector after line 10 of round R - 1, i.e. the averaged iterate at local
    step T_R = sum of the round lengths (each in 1..H, H = their maximum, K = R H)."""
    R_, H_ = len(round_lengths), max(round_lengths)
    K_, T_R = R_ * H_, sum(round_lengths)
    points = list(support(K_))
    return sp.Rational(points.count(T_R), len(points))


#: admissible schedules: (R, round lengths), equal rounds as in Section 5 ("each with 20 local iterations") and not
SCHEDULES = ((1, (1,)), (2, (3, 3)), (100, (20,) * 100), (3, (2, 1, 2)))


@producer
def finding_output_iterate(schedules=SCHEDULES, support=printed_support):
    """What Algorithm 1 returns against what Theorem 3.4 bounds (:data:`OUTPUT_WORDS`): the probability that
    K* (uniform on ``support(K)``, default as printed) picks the returned iterate, per admissible schedule. Assumption, named: xbar_R of line 12 is the averaged
    iterate at the synchronization index T_R (after line 10 every agent holds it, as the proofs' bold xbar_k)."""
    probs = {f"R = {r}, rounds {lengths[:3]}{'...' if len(lengths) > 3 else ''}": output_probability(lengths, support)
             for r, lengths in schedules}
    covered = all(p == 1 for p in probs.values())
    return Finding(
        "pcfedavg.output_iterate", "wording", (), CONSISTENT if covered else DISCREPANCY,
        " against ".join(f"{w}: \"{words}\"" for w, words in OUTPUT_WORDS) + " -- " + (
            "the theorem bounds the returned iterate." if covered else
            "the theorem bounds E at a uniformly drawn local step K* in {0, ..., K-1}, which picks the returned "
            "x̄_R (local step T_R) with probability at most 1/K, and never when every round has H steps (T_R = K): "
            "the guarantee is not about the algorithm's output."),
        "; ".join(f"{k}: P[K* = T_R] = {p}" for k, p in probs.items()), "exact probability (sympy Rational)")


def remark_findings() -> list:
    """The findings of this module, in report order."""
    return [finding_remark36_tradeoff(), finding_remark36_units(), finding_stated_rates(), finding_output_iterate()]


__all__ = ["TRADEOFF_ID", "BETTER_ID", "TRADEOFF_FINDING", "UNITS_FINDING", "TRADEOFF_WORDS", "BETTER_WORDS", "STATED_RATES", "rho_directions",
           "tradeoff_holds", "common_unit_powers", "length_power", "finding_remark36_tradeoff",
           "finding_remark36_units", "finding_stated_rates", "finding_heterogeneous_budgets", "HETEROGENEOUS_WORDS",
           "finding_output_iterate", "output_probability",
           "remark_findings"]
