"""FedSGM (Upadhyay, Moon, Hashemi; OPT 2025): the checkable sentences of the discussion after Theorem 2, Section 3's
text around the theorems, the Contributions, the Conclusion and Section 4.1 that no numbered result decides, and
pairs of places that state one fact twice. Sympy only; nothing from ``repro``.

Every check is a finding producer (:func:`bounds.audit.producer`) whose verdict is what it computed:

* limits that "recover" or "reduce to" a known method: :func:`centralized_reduces` (n = 1, E = 1, C = Id: one round
  of Algorithm 1 is one centralized switching-gradient step), :func:`fedcom_reduces` (g_j = 0: both switching rules
  give sigma = 0, A = [T] and uniform weights, so Algorithm 1 is compressed local GD on f);
* directions of the stated rate: :func:`drift_scaling` ("the scaling of sqrt(E) captures the effect of
  client-drift": the E-exponent of the proof's tolerance with and without Lemma 5's drift term),
  :func:`explicit_dependence` (the 1/sqrt(T) rate, increasing in E and q_u, decreasing in n);
* comparisons of hard and soft switching: :func:`soft_same_order` (the proofs' tolerances differ by a constant
  factor, the stated ones coincide), :func:`soft_interpolates` (the soft rule is continuous with values in (0, 1)
  on a window below the boundary; the hard rule jumps by 1; as beta grows the soft rule tends to the hard one);
* communication and data ownership: :func:`randk_communication` (the rounds the stated bound needs times the
  coordinates Rand-K sends per round grow with K), :func:`uplink_only` (Algorithm 1's compressed messages are all
  uplink), :func:`np_split` (an equal, stratified split of the data set over the clients), :func:`algorithm1_output`
  (what Algorithm 1 as printed returns and uses against the w_bar the theorems bound, and who holds what w_bar
  needs);
* one fact in two places: :func:`pair_constants` (Theorems 1/6, 2/7 and 2/9 typed separately from each place),
  :func:`pair_beta` (Theorem 2's beta >= 2/eps, Theorem 7's beta = 2/eps and its proof's sufficient condition),
  :func:`pair_observation` (the lower bound on g(w_t) - g(w*) the proofs of Theorems 7 and 9 state before (10) and
  (18)), :func:`pair_caption` (Section 4.1's settings against Figure 1's caption).

Assumptions, named: a rate comparison measures both sides in the same quantity (the tolerance eps of an
eps-solution, unsquared, over the same T rounds); a "sentence" is decided under each reading the paper admits and the
summary names the reading that fails; the statements these findings decide are listed in :data:`STATEMENTS` (id ->
where, words), which :mod:`repro.papers.fedsgm.statements` turns into ``Statement`` objects.
"""
from __future__ import annotations

import re

import sympy as sp

from ..audit import CONSISTENT, DISCREPANCY, Finding, fmt_point, producer
from ..core import prove_identity, prove_nonnegative
from .claims import (D, E, EPS_STATED, G, Gamma_proof, N, ROUNDS_STATED, T, beta, eps, eps_of, eta, n, q, thm1,
                     thm2, thm6_proof, thm7_proof)

# ---------------------------------------------------------------------------- the statements these findings decide
_BULLETS = "Section 3, discussion after Theorem 2"
#: statement id -> (where, the paper's exact words)
STATEMENTS = {
    "fedsgm.remark.centralized_reduces": (
        f"{_BULLETS}, first bullet", "n = 1, q_u = 0, C_j ≡ Id, E = 1, i.e., centralized with no compression"),
    "fedsgm.remark.fedcom_reduces": (
        f"{_BULLETS}, second bullet", "g_j ≡ 0, ∀j ∈ [n], E = 1, i.e., no constraint: In this case, our algorithm "
                                      "reduces to the well-known FEDCOM method [12]"),
    "fedsgm.remark.drift_sqrtE": (
        f"{_BULLETS}, third bullet", "The scaling of √E captures the effect of client-drift in this federated "
                                     "constrained setting, deviating from the previous centralized results."),
    "fedsgm.remark.explicit_dependence": (
        "Section 1, Contributions, second bullet", "The analysis recovers the canonical 1/√T rate from centralized "
        "SGM, while explicitly quantifying the impact of multi-step local updates and compression."),
    "fedsgm.remark.soft_same_order": (
        "Section 3, Motivation for Soft Switching", "Our analysis demonstrates that, even under compression, soft "
        "switching attains the same order of convergence as hard switching"),
    "fedsgm.remark.soft_interpolates": (
        "Section 3, Motivation for Soft Switching", "Specifically, the switching weight σ_β(g(w_t) − ε) ensures that "
        "near the feasibility boundary, the update direction is a convex combination of ∇f_j and ∇g_j, rather than "
        "an abrupt choice."),
    "fedsgm.remark.soft_recovers_hard": (
        "Section 5, Conclusion", "Beyond hard switching, we demonstrated that soft switching recovers the hard "
                                 "regime when β ≥ 2/ε"),
    "fedsgm.remark.randk_communication": (
        "Section 4.1", "For communication efficiency, we evaluate using Rand-K [12, 32] compressor, which transmits "
                       "a fraction K/d of coordinates with unbiased scaling."),
    "fedsgm.remark.uplink_only": (
        f"{_BULLETS}, fourth bullet", "We focus on the case where only uplink transmissions are compressed"),
    "fedsgm.remark.split": (
        "Section 4.1", "To simulate the federated setting, the data is split in an IID fashion between n = 10 "
                       "clients, such that each client receives an equal number of samples and the same class "
                       "ratio."),
}


def _quote(sid: str) -> str:
    where, words = STATEMENTS[sid]
    return f"{where}: '{words}'"


def _told(sid: str, ok: bool, good: str, bad: str, evidence: str, method: str) -> tuple[str, str, str]:
    """The summary (quoting the paper's words for statement ``sid``, then what the computation found: ``good`` when
    ``ok``, else ``bad``), evidence and method of the finding that decides ``sid``."""
    return f"{_quote(sid)}. {good if ok else bad}", evidence, method


# ---------------------------------------------------------------------------- Algorithm 1 and the switching rules
w, z, s = sp.Symbol("w", real=True), sp.Symbol("z", real=True), sp.Symbol("s", nonnegative=True)
sigma = sp.Symbol("sigma", nonnegative=True)


def sigma_hard(arg: sp.Expr) -> sp.Expr:
    """Section 3: hard switching 'σ_β(z) = 1_{z>0}'."""
    return sp.Piecewise((1, arg > 0), (0, True))


def sigma_soft(arg: sp.Expr, slope: sp.Expr) -> sp.Expr:
    """Section 3: soft switching 'σ_β(z) = min{1, [1 + βz]_+}'."""
    return sp.Min(1, sp.Max(0, sp.expand(1 + slope * arg)))


def _grad(name: str, j: int, x: sp.Expr) -> sp.Expr:
    return sp.Function(f"{name}{j}")(x)


def algorithm1_round(clients: int, steps: int, weight: sp.Expr, constraint: bool = True) -> sp.Expr:
    """One round of Algorithm 1 (Appendix A) on a scalar model w, exactly as printed: each client starts at w, takes
    ``steps`` local steps along (1 - alpha_t) grad f_j + alpha_t grad g_j (gradients are undefined functions
    ``df<j>``, ``dg<j>``; ``constraint=False``: g_j = 0), sends Delta_j = (w - w_{j,E})/eta (C_j = Id), and the
    server sets w - eta (1/n) sum_j Delta_j."""
    deltas = []
    for j in range(clients):
        x = w
        for _ in range(steps):
            x = x - eta * ((1 - weight) * _grad("df", j, x) + (weight * _grad("dg", j, x) if constraint else 0))
        deltas.append((w - x) / eta)
    return w - eta * sp.Add(*deltas) / clients


@producer
def centralized_reduces(clients: int = 1, steps: int = 1) -> Finding:
    """n = 1, E = 1, C = Id: one round of Algorithm 1 equals the centralized switching step w - eta((1 - sigma)
    grad f(w) + sigma grad g(w)) (f = f_1, g = g_1), for any switching weight sigma."""
    sid = "fedsgm.remark.centralized_reduces"
    got = algorithm1_round(clients, steps, sigma)
    central = w - eta * ((1 - sigma) * _grad("df", 0, w) + sigma * _grad("dg", 0, w))
    result = prove_identity(got, central)
    ok = result.proven is True
    return Finding(sid, "instance", (sid,), CONSISTENT if ok else DISCREPANCY, *_told(
                    sid, ok,
                    "One round of Algorithm 1 at n = 1, E = 1, C = Id is the centralized switching-gradient step "
                    "w_{t+1} = w_t − η((1 − σ)∇f(w_t) + σ∇g(w_t)) (an identity in σ): the special case is the "
                    "centralized method whose rate it quotes.",
                    f"At n = {clients}, E = {steps}, one round of Algorithm 1 is not the centralized step.",
                    f"round = {sp.simplify(got)}; centralized = {central}; difference {result.expression}",
                    "sympy identity on Algorithm 1 as printed"))


@producer
def fedcom_reduces(slope_min: sp.Expr = 2 / eps, clients: int = 2, steps: int = 2) -> Finding:
    """g_j = 0: g(w_t) = 0, so z = g(w_t) - eps = -eps. Hard switching gives sigma = 0; soft switching with any beta
    >= ``slope_min`` (Theorem 2: 2/eps) gives sigma = min{1, [1 - beta eps]_+} = 0. Then A = [T] under both
    definitions (0 <= eps, 0 < eps), the soft weights (1 - sigma)/sum(1 - sigma) are uniform, and one round of
    Algorithm 1 (``clients`` x ``steps``, checked as an identity) is compressed local GD on f: FedCOM's round."""
    sid = "fedsgm.remark.fedcom_reduces"
    hard, soft = sigma_hard(-eps), sigma_soft(-eps, slope_min + s)
    fedcom = algorithm1_round(clients, steps, 0, constraint=False)
    rounds = [prove_identity(algorithm1_round(clients, steps, x, constraint=False), fedcom).proven
              for x in (hard, soft)]
    in_a = (sp.Le(0, eps), sp.Lt(0, eps))
    ok = hard == 0 and soft == 0 and all(r is True for r in rounds) and all(c is sp.true for c in in_a)
    return Finding(sid, "instance", (sid,), CONSISTENT if ok else DISCREPANCY, *_told(
                    sid, ok,
                    "With g_j ≡ 0 both switching rules give σ = 0 (soft: for every β ≥ 2/ε, indeed β ≥ 1/ε), every "
                    "round is in A and the soft weights are uniform, so Algorithm 1 is compressed local gradient "
                    "descent on f, FedCOM's method (with any E, not only E = 1).",
                    f"With g_j ≡ 0 the switching weight is not 0 (hard {hard}, soft {soft} for β ≥ {slope_min}), so "
                    "the update still mixes in the constraint's step size: not FedCOM's round.",
                    f"σ_hard(−ε) = {hard}; σ_soft(−ε) at β = {slope_min} + s, s ≥ 0: {soft}; rounds equal to "
                    f"FedCOM's ({clients} clients, {steps} local steps): {rounds}; 0 ≤ ε, 0 < ε: {in_a}",
                    "sympy evaluation and identity on Algorithm 1 as printed"))


# ---------------------------------------------------------------------------- directions of the rate
_X = sp.Symbol("_x", positive=True)


def exponent(expr: sp.Expr, symbol: sp.Symbol) -> sp.Expr:
    """p with expr = Theta(symbol^p) as symbol -> oo (lim log expr / log symbol, on a positive real stand-in)."""
    return sp.limit(sp.log(sp.expand_power_base(expr.subs(symbol, _X), force=True)) / sp.log(_X), _X, sp.oo)


@producer
def drift_scaling(gamma: sp.Expr = Gamma_proof, drift: sp.Expr = E**2 / 3) -> Finding:
    """Uncompressed (q_u = 0): the E-exponent of the proofs' tolerance eps(Gamma_pf) with Lemma 5's drift term
    (``drift`` = E^2/3 of Gamma_pf, from sum_tau ||w_t - w_{j,tau}||^2 <= eta^2 E^3 G^2/3) and without it, and of the
    stated eps; the sentence holds when the sqrt(E) comes from the drift: 1/2 with it, 0 without, 1/2 stated."""
    sid = "fedsgm.remark.drift_sqrtE"
    with_drift = exponent(eps_of(gamma.subs(q, 0)), E)
    without = exponent(eps_of(sp.expand(gamma - drift).subs(q, 0)), E)
    stated = exponent(EPS_STATED.subs(q, 0), E)
    half = sp.Rational(1, 2)
    ok = with_drift == half and without == 0 and stated == half
    return Finding(sid, "stated-rate", (sid,), CONSISTENT if ok else DISCREPANCY, *_told(
                    sid, ok,
                    "The √E of the uncompressed rate comes from the client drift: the proofs' tolerance grows as "
                    "E^(1/2) with Lemma 5's drift term E²/3 in Γ and is bounded in E without it (the stated ε, "
                    "2DG√(E/T), grows as E^(1/2) too); at E = 1 it is the centralized DG/√T order.",
                    f"The E-exponents are {with_drift} with the drift term, {without} without, {stated} stated: the "
                    "√E scaling is not the drift's.",
                    f"E-exponent of ε(Γ_pf) at q_u = 0: {with_drift}; without the term {drift}: {without}; of the "
                    f"stated ε: {stated}", "sympy limits of log ε / log E"))


@producer
def explicit_dependence(tolerance: sp.Expr = EPS_STATED) -> Finding:
    """The stated eps (Theorems 1-2): exponent -1/2 in T ("the canonical 1/sqrt(T) rate"), nondecreasing in E and q_u
    and nonincreasing in n (the impact of local updates and compression), each sign proven for E, n >= 1, q_u >= 0."""
    sid = "fedsgm.remark.explicit_dependence"
    t_exp = exponent(tolerance, T)
    signs = {str(x): prove_nonnegative(sp.diff(tolerance, x) * sign, {E: 1, n: 1}).proven
             for x, sign in ((E, 1), (q, 1), (n, -1))}
    ok = t_exp == -sp.Rational(1, 2) and all(v is True for v in signs.values())
    return Finding(sid, "stated-rate", (sid,), CONSISTENT if ok else DISCREPANCY, *_told(
                    sid, ok,
                    "The stated ε = DG√((4E + q_u/n)/T) decays as T^(−1/2), grows with E and with q_u and falls "
                    "with n (the compression term q_u/n): the rate quantifies both effects in the stated direction.",
                    f"The stated ε has T-exponent {t_exp} and derivative signs proven {fmt_point(signs)} (E, q_u up; n "
                    "down expected).",
                    f"T-exponent {t_exp}; proven d eps/dE >= 0, d eps/dq_u >= 0, -d eps/dn >= 0: {fmt_point(signs)}",
                    "sympy limit and sign certificates"))


@producer
def soft_same_order(soft: sp.Expr = thm7_proof.parameters[eps], hard: sp.Expr = thm6_proof.parameters[eps]) -> Finding:
    """The tolerance the soft proof establishes (Theorem 7's proof: 2 eps(Gamma_pf)) over the hard one (Theorem 6's
    proof at N = 0: eps(Gamma_pf)), and the stated ratio (Theorem 2 over Theorem 1): the same order when both are
    positive constants (free of E, T, n, q_u, D, G)."""
    sid = "fedsgm.remark.soft_same_order"
    proofs = sp.simplify(soft / hard.subs(N, 0))
    stated = sp.simplify(thm2.parameters[eps] / thm1.parameters[eps])
    ok = all(r.is_number and r.is_positive and r.is_finite for r in (proofs, stated))
    return Finding(sid, "stated-rate", (sid,), CONSISTENT if ok else DISCREPANCY, *_told(
                    sid, ok,
                    f"The soft proof's tolerance is {proofs} times the hard proof's, and the stated tolerances are "
                    f"equal (ratio {stated}): the same order, with compression (q_u in Γ) and without.",
                    f"The soft/hard tolerance ratio is {proofs} (proofs) and {stated} (statements), not a constant.",
                    f"2 eps(Gamma_pf) / eps(Gamma_pf) = {proofs}; eps_thm2 / eps_thm1 = {stated}", "sympy simplify"))


@producer
def soft_interpolates(slope: sp.Expr = beta, rule=sigma_soft) -> Finding:
    """The soft rule (``rule``, default :func:`sigma_soft`) at beta = ``slope``: 0 for z <= -1/beta, strictly
    between 0 and 1 on (-1/beta, 0) (a convex combination), 1 at z >= 0, continuous at both breakpoints; the hard
    rule jumps by 1 at 0; at beta >= 2/eps the window g(w_t) in (eps - 1/beta, eps) lies within eps/2 below the
    boundary; as beta -> oo the soft rule tends to the hard one at every z != 0."""
    sid = "fedsgm.remark.soft_interpolates"
    u = sp.Symbol("u", positive=True)
    inside = rule(-1 / (slope * (1 + u)), slope)          # z in (-1/beta, 0) as u runs over (0, oo)
    # below -1/beta, at -1/beta from above (u -> 0), at 0 from below (u -> oo), at 0, above 0
    ends = (rule(-(1 + u) / slope, slope), sp.limit(inside, u, 0), sp.limit(inside, u, sp.oo),
            rule(0, slope), rule(u / slope, slope))
    strict = bool(sp.simplify(inside).is_positive) and bool(sp.simplify(1 - inside).is_positive)
    continuous = ends[0] == ends[1] == 0 and ends[2] == ends[3] == ends[4] == 1
    jump = sigma_hard(u) - sigma_hard(-u)
    window = prove_nonnegative(eps / 2 - 1 / (2 / eps + s)).proven
    v = sp.Symbol("v", positive=True)          # every beta > 1/|z| (beta = (1 + v)/|z|): the rule is then constant
    limits = [rule(-u, (1 + v) / u), rule(u, (1 + v) / u)]
    ok = strict and continuous and jump == 1 and window is True and limits == [0, 1]
    return Finding(sid, "instance", (sid,), CONSISTENT if ok else DISCREPANCY, *_told(
                    sid, ok,
                    "The soft weight is continuous, strictly between 0 and 1 for g(w_t) in (ε − 1/β, ε) -- within "
                    "ε/2 of the boundary when β ≥ 2/ε -- and 0 or 1 outside, where the hard weight jumps from 0 to 1; "
                    "as β → ∞ it tends to the hard rule at every g(w_t) ≠ ε.",
                    "The soft weight is not a continuous interpolation near the boundary as stated.",
                    f"σ_soft on (−1/β, 0): {inside} (strictly inside (0, 1): {strict}); below −1/β, at −1/β from "
                    f"above, at 0 from below, at 0, above 0: {ends}; hard jump at 0: {jump}; 1/β ≤ ε/2 for β ≥ 2/ε: "
                    f"{window}; σ_soft(∓u) for every β > 1/u: {limits}", "sympy evaluation and limits"))


@producer
def soft_recovers_hard(hard=thm1, soft=thm2) -> Finding:
    """Theorem 2 against Theorem 1: the same eps and eta (sympy identities), the same conclusion, and beta >= 2/eps
    among Theorem 2's hypotheses. The statement's verdict also rests on both theorems (the audit's DEPENDS_ON). The
    reading "the soft rule equals the hard rule when beta >= 2/eps" is not admitted: the paper calls the soft rule a
    "smooth interpolation" at every beta (:func:`soft_interpolates` computes where the two rules differ)."""
    sid = "fedsgm.remark.soft_recovers_hard"
    same = {str(x): prove_identity(hard.parameters[x], soft.parameters[x]).proven for x in (eps, eta)}
    conclusion = hard.conclusion == soft.conclusion
    slope = [h for h in soft.hypotheses if beta in h.free_symbols]
    ok = all(v is True for v in same.values()) and conclusion and bool(slope)
    return Finding(sid, "statement-vs-proof", (sid,), CONSISTENT if ok else DISCREPANCY, *_told(
                    sid, ok,
                    "Theorem 2 prescribes Theorem 1's ε and η and states its conclusion, under β ≥ 2/ε: the hard "
                    "regime's guarantee, as far as the two theorems hold.",
                    f"Theorem 2 does not restate Theorem 1's guarantee (same ε, η: {fmt_point(same)}; same conclusion: "
                    f"{conclusion}; a condition on β: {bool(slope)}).",
                    f"same eps, eta: {fmt_point(same)}; same conclusion: {conclusion}; beta hypotheses: "
                    f"{', '.join(map(str, slope)) or 'none'}",
                    "sympy identities on the encoded statements"))


# ---------------------------------------------------------------------------- communication and data
K, d = sp.Symbol("K", positive=True, integer=True), sp.Symbol("d", positive=True, integer=True)
#: Figure 1: Rand-K with K = 9 of d = 30 features (31 with a bias column), E = 5, n = 10 (Section 4.1, caption)
FIGURE1_RANDK = {E: 5, n: 10, K: 9}
FIGURE1_DIMS = (30, 31)


def uplink_coordinates(rounds: sp.Expr = ROUNDS_STATED) -> sp.Expr:
    """Coordinates all clients send uplink until the stated bound reaches eps: n K per round (Rand-K sends K of d)
    times the rounds T(eps), with Rand-K's q_u = d/K - 1 (Assumption 2 with equality). Assumption, named: coordinates
    are counted as the paper counts them ('a fraction K/d of coordinates'); the indices of the kept coordinates (or a
    shared seed) and the scalar g_j(w_t) are not counted."""
    return sp.expand(n * K * rounds.subs(q, d / K - 1))


@producer
def randk_communication(rounds: sp.Expr = ROUNDS_STATED) -> Finding:
    """Rand-K sends K/d of the coordinates per round, and by the stated bound needs T(eps) = D^2 G^2 (4E + q_u/n)/eps^2
    rounds with q_u = d/K - 1: the total uplink coordinates to a given eps, :func:`uplink_coordinates`, increase with
    K (proven for E, n >= 1), so compressing more (smaller K) lowers the communication the bound needs."""
    sid = "fedsgm.remark.randk_communication"
    total = uplink_coordinates(rounds)
    slope = sp.factor(sp.diff(total, K))
    proven = prove_nonnegative(slope, {E: 1, n: 1}).proven
    ratios = {dim: sp.nsimplify((total / total.subs(K, d)).subs(d, dim).subs(FIGURE1_RANDK)) for dim in FIGURE1_DIMS}
    shown = ", ".join(f"d = {k}: {v} ({float(v):.3f})" for k, v in ratios.items())
    ok = proven is True
    return Finding(sid, "stated-rate", (sid,), CONSISTENT if ok else DISCREPANCY, *_told(
                    sid, ok,
                    "Per round Rand-K sends K of d coordinates, and the coordinates sent until the stated bound "
                    f"reaches ε grow with K (d/dK = {slope} ≥ 0): compression lowers the communication the theory "
                    f"needs; at Figure 1's K = 9, E = 5, n = 10 it is {shown} of the uncompressed total.",
                    f"The coordinates sent until the stated bound reaches ε do not grow with K (d/dK = {slope}): "
                    "by the theorems, compression does not save communication.",
                    f"n K T(eps; q_u = d/K - 1) = {total}; d/dK = {slope} (>= 0 proven: {proven}); Figure 1: {shown}",
                    "sympy derivative and sign certificate"))


#: Algorithm 1 (Appendix A), per round: (message, from, to, floats per client, compressed), as printed: 'send g_j(w_t)
#: to server // cheap single float communication', 'compute g(w_t) ... and broadcast', 'send Δ_{j,E} ← C_j(...) to
#: server', 'server computes w_{t+1} ... and broadcasts'
ALGORITHM1_MESSAGES = (("g_j(w_t)", "client", "server", 1, False), ("g(w_t)", "server", "clients", 1, False),
                       ("Δ_{j,E}", "client", "server", K, True), ("w_{t+1}", "server", "clients", d, False))


@producer
def uplink_only(messages: tuple = ALGORITHM1_MESSAGES) -> Finding:
    """Every compressed message of Algorithm 1 goes from a client to the server (uplink), and at least one does."""
    sid = "fedsgm.remark.uplink_only"
    compressed = [m for m in messages if m[4]]
    ok = bool(compressed) and all(m[1] == "client" and m[2] == "server" for m in compressed)
    up = sp.Add(*(m[3] for m in messages if m[1] == "client"))
    down = sp.Add(*(m[3] for m in messages if m[1] == "server"))
    return Finding(sid, "instance", (sid,), CONSISTENT if ok else DISCREPANCY, *_told(
                    sid, ok,
                    f"Algorithm 1 compresses only the clients' Δ_{{j,E}}; the scalar g_j(w_t) goes up and g(w_t), "
                    f"w_{{t+1}} come down uncompressed: per round and client {up} floats up, {down} down.",
                    "Algorithm 1 compresses a message that is not uplink (or none).",
                    "; ".join(f"{m[0]}: {m[1]} -> {m[2]}, {m[3]} floats, {'compressed' if m[4] else 'uncompressed'}"
                              for m in messages), "Algorithm 1's messages as printed"))


@producer
def np_split(class0: int, class1: int, clients: int) -> Finding:
    """Section 4.1's split: every client the same number of samples of each class (equal sizes and the same class
    ratio). With all samples it needs ``clients`` to divide both class counts; leaving out the remainders it needs
    each class to have at least one sample per client. Decided under the admissible reading (a subset may be left
    out: the paper does not say); the summary names the reading that fails."""
    sid = "fedsgm.remark.split"
    exact_all = class0 % clients == 0 and class1 % clients == 0
    left = class0 % clients + class1 % clients
    ok = min(class0, class1) >= clients
    per = (class0 // clients, class1 // clients)
    return Finding(sid, "instance", (sid,), CONSISTENT if ok else DISCREPANCY, *_told(
                    sid, ok,
                    ("An exact split uses every sample." if exact_all else
                     f"No split of all {class0 + class1} samples gives {clients} clients equal sizes and class ratios "
                     f"({class0} and {class1} are not multiples of {clients}); leaving out {left} samples, "
                     f"{per[0]} + {per[1]} per client does. The reading that uses every sample fails; the paper does "
                     "not say that samples are left out."),
                    f"A class has fewer than {clients} samples: no stratified equal split exists.",
                    f"class counts {class0}, {class1}; clients {clients}; remainders {class0 % clients}, "
                    f"{class1 % clients}", "integer arithmetic"))


#: Algorithm 1 (Appendix A) as printed: its header 'FedSGM(T, E, C_j, η, β)', its 'Input:' line (rounds T, local
#: updates E, compression operator C_j, learning rate η, initial model w_0, switching rule σ_β), the symbols its body
#: uses ('α_t ← σ_β(g(w_t) − ε)'), what the server computes every round ('compute g(w_t)', 'server computes w_{t+1}'),
#: and what it returns (no output line)
ALGORITHM1 = {"header": ("T", "E", "C_j", "eta", "beta"), "inputs": ("T", "E", "C_j", "eta", "w_0", "sigma_beta"),
              "uses": ("T", "E", "C_j", "eta", "w_0", "sigma_beta", "beta", "epsilon"),
              "server_holds": ("w_t", "g(w_t)"), "returns": ()}
#: what Theorems 1-2's output needs: A = {t : g(w_t) <= eps} (soft: < eps) and w_bar over A; the soft weights
#: alpha_t = (1 - sigma_beta(g(w_t) - eps)) / sum also need beta
THEOREM_OUTPUT_NEEDS = ("w_t", "g(w_t)", "epsilon", "beta")


@producer
def algorithm1_output(algorithm: dict = ALGORITHM1, needs: tuple = THEOREM_OUTPUT_NEEDS) -> Finding:
    """What Algorithm 1 as printed returns against the point Theorems 1-2 bound (w_bar over A), and who holds what
    that point needs: a discrepancy when the algorithm returns no w_bar or uses a symbol none of its inputs names
    (kind wording: the theorems define w_bar themselves, and the server holds w_t and g(w_t) every round)."""
    given = set(algorithm["header"]) | set(algorithm["inputs"])
    unlisted = [x for x in algorithm["uses"] if x not in given]
    missing = [x for x in needs if x not in given | set(algorithm["server_holds"])]
    returns_bar = "w_bar" in algorithm["returns"]
    ok = returns_bar and not unlisted
    return Finding("fedsgm.algorithm1.output", "wording", (), CONSISTENT if ok else DISCREPANCY,
                   "Algorithm 1 (Appendix A): 'Input: Number of rounds T; local updates E; compression operator C_j "
                   "[...]; learning rate η; initial model w_0; switching rule σ_β(·)' and 'compute switching weight "
                   "α_t ← σ_β(g(w_t) − ε)'; Theorem 1: 'w̄ := (1/|A|) Σ_{t∈A} w_t'. " + (
                       "Algorithm 1 returns the w̄ the theorems bound and lists every symbol it uses." if ok else
                       f"Algorithm 1 returns {'w̄' if returns_bar else 'nothing (no output line)'} while Theorems "
                       "1-2 bound w̄, the average over A, and its body uses "
                       f"{', '.join(unlisted) or 'no symbol'} that neither its header nor its inputs name. The "
                       "server can still form w̄: it computes w_t and g(w_t) every round" + (
                           f", and needs {', '.join(missing)} besides." if missing else ".")),
                   f"header {algorithm['header']}; inputs {algorithm['inputs']}; used {algorithm['uses']}; server "
                   f"holds {algorithm['server_holds']}; returns {algorithm['returns']}; w_bar needs {needs}",
                   "Algorithm 1's inputs, body and output as printed")


# ---------------------------------------------------------------------------- one fact, two places
def _eps(gamma):
    return sp.sqrt(2 * D**2 * G**2 * gamma / (E * T))


def _eta(gamma):
    return sp.sqrt(D**2 / (2 * G**2 * E * T * gamma))


_Q = sp.Symbol("q", nonnegative=True)     # Theorem 7 prints q where Theorem 2 prints q_u
#: (what, place A, its expression, place B, its expression), each typed from its own place
CONSTANT_PAIRS = (
    ("Gamma", "Theorem 1: 'Γ = 2E² + Eq_u/(2n) 1{Unbiased Compression}' (with compression)", 2 * E**2 + E * q / (2 * n),
     "Theorem 6: 'Γ = 2E² + Eq_u/(2n)'", 2 * E**2 + E * q / (2 * n)),
    ("Gamma", "Theorem 2: 'Γ = 2E² + Eq_u/(2n) 1{Unbiased Compression}'", 2 * E**2 + E * q / (2 * n),
     "Theorem 7: 'Γ = 2E² + Eq/(2n)' (q read as q_u)", (2 * E**2 + E * _Q / (2 * n)).subs(_Q, q)),
    ("eps", "Theorem 2 without compression: 'ε = √(2D²G²Γ/(ET))', Γ = 2E²", _eps(2 * E**2),
     "Theorem 9: 'ε = √(4D²G²E/T)'", sp.sqrt(4 * D**2 * G**2 * E / T)),
    ("eta", "Theorem 2 without compression: 'η = √(D²/(2G²ETΓ))', Γ = 2E²", _eta(2 * E**2),
     "Theorem 9: 'η = √(D²/(4G²E³T))'", sp.sqrt(D**2 / (4 * G**2 * E**3 * T))),
)


@producer
def pair_constants(pairs: tuple = CONSTANT_PAIRS) -> Finding:
    """Each constant as the main text and the appendix print it (typed separately from each place): identical?"""
    results = [(what, a, b, prove_identity(x, y)) for what, a, x, b, y in pairs]
    bad = [f"{what}: {a} vs {b} (difference {r.expression})" for what, a, b, r in results if r.proven is not True]
    return Finding("fedsgm.pair.constants", "statement-vs-proof", ("fedsgm.thm1", "fedsgm.thm2", "fedsgm.thm6",
                                                                   "fedsgm.thm7", "fedsgm.thm9"),
                   DISCREPANCY if bad else CONSISTENT,
                   "The main-text theorems and their appendix statements print " + (
                       "different constants: " + "; ".join(bad) if bad else
                       "the same Γ, ε and η (Theorems 1/6, 2/7 with compression, 2/9 without)."),
                   "; ".join(f"{what}: {a} == {b}: {r.proven}" for what, a, b, r in results), "sympy identities")


_SUM = sp.Symbol("Sigma_A", nonnegative=True)


@producer
def pair_beta(stated_min: sp.Expr = 2 / eps, appendix: sp.Expr = 2 / eps) -> Finding:
    """Theorem 2 admits beta >= ``stated_min``, Theorem 7 (and 9) prescribe beta = ``appendix``, and the proof of
    Theorem 7 needs beta >= 2 Sigma_A/(eps T) with Sigma_A < T: the appendix value is admitted by the main text, and
    every beta the main text admits meets the proof's condition (proven with Sigma_A = T - u, u >= 0)."""
    u = sp.Symbol("u", nonnegative=True)
    admitted = prove_nonnegative(appendix - stated_min).proven
    covered = prove_nonnegative(sp.expand(stated_min - 2 * (T - u) / (eps * T))).proven
    ok = admitted is True and covered is True
    return Finding("fedsgm.pair.beta", "statement-vs-proof", ("fedsgm.thm2", "fedsgm.thm7"),
                   CONSISTENT if ok else DISCREPANCY,
                   "Theorem 2 (Section 3): 'β ≥ 2/ε'; Theorem 7 (Appendix A.2.2): 'β = 2/ε'; its proof: 'a sufficient "
                   "(and highly conservative) condition for all T ≥ 1 is to set β ≥ 2/ε'. " + (
                       "The appendix states the special case β = 2/ε of the main text's range, and its proof's "
                       "condition covers the whole range." if ok else
                       f"The two places disagree: appendix value admitted {admitted}, main range covered {covered}."),
                   f"appendix - stated minimum >= 0: {admitted}; stated minimum - 2 Sigma_A/(eps T) >= 0 for "
                   f"Sigma_A <= T: {covered}", "sign certificates")


_G_T = sp.Symbol("g_t", real=True)
#: the proofs' observation before (10) and (18) on the rounds t in A with a positive soft weight, each as printed:
#: (place, words, the lower bound it states on g(w_t) - g(w*))
OBSERVATIONS = (
    ("proof of Theorem 7 (Appendix A.2.2)", "for all t ∈ A if σ_β(g(w_t) − ε) ≥ 0 it holds that g(w_t) − g(w*) ≥ "
                                            "g(w_t) ≥ ε − 1/β", eps - 1 / beta),
    ("proof of Theorem 9 (Appendix A.3.2)", "for all t ∈ A if σ_β(g(w_t) − ε) ≥ 0 it holds that g(w_t) − g(w*) ≥ "
                                            "g(w_t) − ε − 1/β", _G_T - eps - 1 / beta),
)


@producer
def pair_observation(observations: tuple = OBSERVATIONS) -> Finding | None:
    """The two proofs state one observation; the next display of each ((10), (18)) uses sum_A sigma_t (g(w_t) -
    g(w*)) >= (eps - 1/beta) sum_A sigma_t, i.e. the lower bound eps - 1/beta wherever sigma_t > 0 (g(w_t) in
    (eps - 1/beta, eps), parametrised g_t = eps - 1/(beta (1 + u))). Does each printed bound give it? A discrepancy
    when the places print different bounds and only some give what the next display uses (kind wording: the displays
    themselves are checked as proof steps; the prose that justifies them differs)."""
    u = sp.Symbol("u", positive=True)
    window = {_G_T: eps - 1 / (beta * (1 + u))}
    gives = [prove_nonnegative(sp.simplify((bound - (eps - 1 / beta)).subs(window))).proven is True
             for _, _, bound in observations]
    differ = len({sp.simplify(b) for _, _, b in observations}) > 1
    if not differ or all(gives):
        verdict, verb = CONSISTENT, "agree on what the next display uses"
    else:
        verdict, verb = DISCREPANCY, "print different bounds, and only " + ", ".join(
            p for (p, _, _), g in zip(observations, gives) if g) + " gives the ε − 1/β that (10)/(18) use"
    return Finding("fedsgm.pair.observation", "wording", ("fedsgm.thm9.proof",), verdict,
                   "; ".join(f"{p}: '{wd}'" for p, wd, _ in observations) + f". The two proofs {verb}.",
                   "; ".join(f"{p}: bound {b}, gives eps - 1/beta on the soft window: {g}"
                             for (p, _, b), g in zip(observations, gives)), "sympy sign on the soft window")


_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
#: (what, Section 4.1's words, Figure 1's caption's words, the pattern that reads the value from each)
CAPTION_PAIRS = (
    ("tolerance", "We compare both hard and soft switching using a tolerance ε = 0.1",
     "Middle: class-1 constraint loss g(w) relative to the tolerance ε = 0.1", r"ε = ([0-9.]+)"),
    ("rounds", "the global model is updated for T = 100 communication rounds",
     "Right: number of constraint violations (out of 100 rounds)", r"(?:T = |out of )([0-9]+)"),
    ("seeds", "Each experiment is repeated with three random seeds",
     "Results are averaged over three random seeds", r"(\w+) random seeds"),
)


def _value(pattern: str, words: str):
    found = re.search(pattern, words)
    if found is None:
        return None
    text = found.group(1)
    return _WORDS.get(text, None) if text.isalpha() else float(text)


@producer
def pair_caption(pairs: tuple = CAPTION_PAIRS) -> Finding:
    """Section 4.1's settings against Figure 1's caption: the value each place prints, read from its words."""
    values = [(what, _value(p, a), _value(p, b)) for what, a, b, p in pairs]
    bad = [f"{what}: {x} vs {y}" for what, x, y in values if x is None or x != y]
    return Finding("fedsgm.pair.caption", "wording", (), DISCREPANCY if bad else CONSISTENT,
                   "Section 4.1 and Figure 1's caption " + (
                       "print different settings: " + "; ".join(bad) if bad else
                       "print the same tolerance, number of rounds and number of seeds."),
                   "; ".join(f"{what}: '{a}' vs '{b}'" for what, a, b, _ in pairs)
                   + "; read: " + ", ".join(f"{what} {x} / {y}" for what, x, y in values), "read from the quotes")


def remark_findings(class_counts: tuple[int, int, int] | None = None) -> list:
    """Every finding of this module, in report order; ``class_counts`` = (objective-class samples, constraint-class
    samples, clients) of Figure 1's data (:func:`np_split` is left out without it)."""
    out = [centralized_reduces(), fedcom_reduces(), drift_scaling(), explicit_dependence(), soft_same_order(),
           soft_interpolates(), soft_recovers_hard(), randk_communication(), uplink_only(),
           algorithm1_output()]
    if class_counts is not None:
        out.append(np_split(*class_counts))
    return out + [pair_constants(), pair_beta(), pair_observation(), pair_caption()]
