"""Mini-batch SSCA (arXiv 2104.06011 v1): the checkable sentences of its remarks and discussion, decided symbolically.

Each producer decides one kind of sentence and returns :class:`bounds.audit.Finding` rows (their ``claims`` empty: a
sentence of the remarks is no numbered result; the paper's sentence inventory, ``repro.papers.ssca.sentences``, cites
the findings' ids, and a discrepancy is a sentence found wrong):

* :func:`complexity_finding` -- Remarks 1-2 ("the computational complexities ... have the same order ... (which is
  O(d))"), the O(d) of (9) and (19), and Section VI's pairings "at the same computation cost", from operation counts
  of the printed updates (:data:`OPERATIONS`);
* :func:`communication_finding` -- "converges faster (i.e., achieves a lower communication cost)" (Section I): both
  sides counted in numbers sent per client per round (:data:`MESSAGES`), and Section V's Step 4 messages against d;
* :func:`privacy_finding` -- Footnote 3 (the same privacy condition as SGD with one update) and "homomorphic
  encryption [7] can be applied ..., since omega_bar is linear in" the gradients ((9), (19));
* :func:`tradeoff_finding` -- the directions "lambda ... trades off the cost and model sparsity" ((27)) and "c ...
  trades off the original objective function and the slack penalty term" (Problem 4), by the exchange argument;
* :func:`cost_limit_finding` -- the (37) half of Section V-C's "Both [(27)] and [(37)] allow tradeoffs between the
  cost and model sparsity": the direction of one server step in U, from Lemma 1's (40)-(42);
* :func:`swish_derivative_finding` -- Section V-A's printed S'(z) against the derivative of Section V's S(z);
* :func:`proximal_term_finding` -- "the term tau ||omega - omega^(t)||^2 is used to ensure strong convexity" ((7),
  (11), (15), (22));
* :func:`ownership_findings` -- who holds what in feature-based learning (Section II, Section V-A's Steps 4-6 of
  Algorithm 3): what each party computes against what it holds or receives, under each admissible holder of the
  labels (:data:`LABEL_HOLDERS`; not checkable when they disagree), and "a client cannot obtain the gradient ...
  relying purely on its local data";
* :func:`output_finding` -- what Algorithms 1-4 return (omega^T) against the sequence Theorems 1-4 describe;
* :func:`two_places_findings` -- one fact stated in two places that disagree (:data:`PAIRS`), each read from the
  paper's quoted words.

The boundary values of the step-size rules are in :mod:`bounds.ssca.boundary`. Assumptions are named in each
producer's docstring. Nothing here imports ``repro``; nothing runs at import time.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Mapping

import sympy as sp

from ..audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE, Finding, fmt_point, producer
from ..core import prove_identity
from .claims import D_42, OMEGA_40, ROOT_42, U_sym, _D, _tau_p, b_sym, nu_sym, theta
from .findings import _swish

# ------------------------------------------------------------------------------------------ symbols
d, I, E, kappa = sp.symbols("d I E kappa", positive=True)   # model size, clients, local steps, gradient cost / d
B = sp.Symbol("B", positive=True, integer=True)              # batch size
C = kappa * d                                                # one per-sample gradient of f: kappa d operations
r = sp.Symbol("r", positive=True)                         # SGD learning rate
omega = sp.Symbol("omega", real=True)                     # one coordinate of the model sent by the server
q = sp.Symbol("q", real=True)                             # one coordinate of the sum of gradients a client sends


# ============================================================================ complexity (Remarks 1-2, (9), (19))
#: operation counts per iteration (one multiply or add = 1; a per-sample gradient of f = C = kappa d), read from the
#: printed updates: Algorithm 1 client, Step 4 with (7): B gradients summed ((B - 1) d adds); FedAvg client, one of
#: its E local SGD steps: the same sum, one scaling and one subtraction (2 d); Algorithm 1 server, Step 5: the weighted
#: sum over I clients ((2I - 1) d), the recursion of (8) ((1 - rho) f + rho (. - 2 tau omega): 5 d), (9) (d) and (5)
#: (3 d); FedAvg server: the weighted average of I models ((2I - 1) d); Algorithm 3 server, Step 7: the recursion of
#: (18) (5 d), (19) (d) and (5) (3 d); the SGD server of [18] (Remark 2: "the server conducts an SGD update"): 2 d.
#: The clients of Algorithm 3 and [18] "conduct the same operation" (Remark 2): one count for both.
OPERATIONS: dict[str, sp.Expr] = {
    "alg1_client": B * C + (B - 1) * d,
    "fedavg_client": E * (B * C + (B - 1) * d + 2 * d),
    "alg1_server": (2 * I - 1) * d + 5 * d + d + 3 * d,
    "fedavg_server": (2 * I - 1) * d,
    "eq9": d,
    "alg3_server": 5 * d + d + 3 * d,
    "sgd18_server": 2 * d,
    "eq19": d,
}
#: Section VI's pairs "at the same computation cost (for calculating the gradients) at clients": Algorithm 1 with B
#: against SGD with (B, E), gradients per client per round B against B E
SECTION_VI_SGD_PAIRS = ((10, (5, 2)), (100, (50, 2)))
#: Section VI's sample-based batch sizes (per client, I = 10 clients) and feature-based batch sizes (per iteration),
#: paired in order ("with the same computation cost at the clients")
SECTION_VI_SAMPLE_FEATURE = ((1, 10), (10, 100), (100, 1000))
SECTION_VI_CLIENTS = 10


def same_order(a: sp.Expr, b: sp.Expr, sizes=(d, I, B)) -> bool:
    """Whether a / b stays in (0, oo) as each size in ``sizes`` it contains tends to oo alone (the others fixed):
    the two counts have the same order in every size. Assumptions, named: orders are taken one size at a time; the
    number E of local SGD steps is a fixed constant of the baseline (Remark 1: "one or multiple SGD updates";
    Section VI: E = 1, 2), not a size."""
    ratio = sp.simplify(a / b)
    limits = [sp.limit(ratio, s, sp.oo) for s in sizes if s in ratio.free_symbols] or [ratio]
    return all(v.is_positive and v.is_finite for v in limits)


def order_d(a: sp.Expr) -> bool:
    """Whether ``a`` is O(d): a / d bounded as d -> oo, the other sizes fixed (the paper's O(d) of (9), (19) and
    Remarks 1-2 is in d)."""
    return bool(sp.limit(a / d, d, sp.oo).is_finite)


def _complexity_rows(ops: Mapping[str, sp.Expr]) -> list[tuple[str, bool]]:
    """(what, holds) for each sentence the counts decide."""
    rows = [("Remark 1: client counts of Algorithm 1 (7) and FedAvg have the same order",
             same_order(ops["alg1_client"], ops["fedavg_client"])),
            ("Remark 1: server counts of Algorithm 1 and FedAvg have the same order",
             same_order(ops["alg1_server"], ops["fedavg_server"])),
            ("Remark 1: the server count is O(d)", order_d(ops["alg1_server"]) and order_d(ops["fedavg_server"])),
            ("(9) is O(d)", order_d(ops["eq9"])), ("(19) is O(d)", order_d(ops["eq19"])),
            ("Remark 2: server counts of Algorithm 3 and [18] have the same order",
             same_order(ops["alg3_server"], ops["sgd18_server"])),
            ("Remark 2: the server count is O(d)", order_d(ops["alg3_server"]) and order_d(ops["sgd18_server"]))]
    rows += [(f"Section VI: Algorithm 1 B = {b} computes as many gradients per client as SGD B = {bs}, E = {e}",
              b == bs * e) for b, (bs, e) in SECTION_VI_SGD_PAIRS]
    rows += [(f"Section VI: sample B = {bs} per client (I = {SECTION_VI_CLIENTS}) and feature B = {bf} process "
              "as many samples per iteration", bs * SECTION_VI_CLIENTS == bf) for bs, bf in SECTION_VI_SAMPLE_FEATURE]
    return rows


@producer
def complexity_finding(ops: Mapping[str, sp.Expr] = OPERATIONS):
    """Remarks 1-2 and the O(d) of (9)/(19) from the operation counts ``ops`` (:data:`OPERATIONS`), and Section VI's
    equal-cost pairings. Assumptions, named: a per-sample gradient costs C = kappa d operations for a fixed kappa > 0
    (a gradient of a d-parameter model touches every parameter); in the feature-based pairing the I feature blocks
    are of equal size, so a client's share of one sample's
    gradient is C / I and sample B per client matches feature B = I x B per iteration."""
    rows = _complexity_rows(ops)
    bad = [w for w, ok in rows if not ok]
    return Finding("ssca.remarks.complexity", "statement-vs-proof", (),
                   CONSISTENT if not bad else DISCREPANCY,
                   "Operation counts of the printed updates: Remarks 1-2's 'same order' and 'O(d)' and Section VI's "
                   "equal-cost pairings hold" if not bad else "does not hold: " + "; ".join(bad),
                   " | ".join(f"[{'holds' if ok else 'fails'}] {w}" for w, ok in rows)
                   + " | counts: " + "; ".join(f"{k} = {v}" for k, v in ops.items()),
                   "sympy limits of the count ratios, one size at a time")


# ============================================================================ communication per round (Section I)
#: numbers sent per client per round (uplink, downlink): Algorithm 1 with (7): q_s,0 = the sum of the batch's
#: gradients (R^d) up, omega^(t) (R^d) down (Steps 3-4); FedAvg [5] with E local steps: its local model (R^d) up, the
#: global model (R^d) down, whatever E
MESSAGES: dict[str, tuple[sp.Expr, sp.Expr]] = {"alg1": (d, d), "fedavg": (d, d)}
J, K, L = sp.symbols("J K L", positive=True, integer=True)
#: Section V-A, Step 4 of Algorithm 1: "each client i computes [the K x J sums over k, j] and [the J x L sums over j, l]
#: and sends them to the server"; the model omega = (omega_1,j,k, omega_2,l,j) of (25)-(26)
STEP4_ENTRIES = K * J + J * L
MODEL_SIZE = J * K + L * J


@producer
def communication_finding(messages: Mapping[str, tuple[sp.Expr, sp.Expr]] = MESSAGES,
                          step4: sp.Expr = STEP4_ENTRIES):
    """"converges faster (i.e., achieves a lower communication cost)": fewer rounds mean a lower communication cost
    when Algorithm 1 and FedAvg send the same numbers per round, so both sides of the comparison are in rounds x d.
    Checks that (uplink + downlink per client per round) of the two are equal (:data:`MESSAGES`), and that Section
    V-A's Step 4 sends d = dim omega numbers (:data:`STEP4_ENTRIES` against :data:`MODEL_SIZE`). Assumption, named:
    the cost is counted in real numbers sent, the same for every client."""
    per_round = {k: sp.simplify(up + down) for k, (up, down) in messages.items()}
    equal = prove_identity(per_round["alg1"], per_round["fedavg"]).proven is True
    step4_ok = prove_identity(step4, MODEL_SIZE).proven is True
    ok = equal and step4_ok
    return Finding("ssca.remarks.communication", "statement-vs-proof", (),
                   CONSISTENT if ok else DISCREPANCY,
                   "Algorithm 1 (7) and FedAvg send the same numbers per client per round (d up, d down), so fewer "
                   "rounds is a lower communication cost; Section V-A's Step 4 sends d = JK + LJ numbers" if ok else
                   "the per-round messages differ: " + ("" if equal else f"Algorithm 1 {per_round['alg1']} vs "
                                                        f"FedAvg {per_round['fedavg']} numbers per round; ")
                   + ("" if step4_ok else f"Step 4 sends {step4}, omega has {MODEL_SIZE} entries"),
                   f"per client per round: {fmt_point(per_round)}; Step 4 entries {step4} vs dim omega {MODEL_SIZE}",
                   "sympy identity of the message counts")


# ============================================================================ privacy (Footnotes 2-3, (9), (19))
def sgd_message(q_sum: sp.Expr = q, batch: sp.Expr = B) -> sp.Expr:
    """What a client of FedAvg with one SGD update (E = 1) sends: omega - (r / B) * (sum of the batch's gradients)."""
    return omega - r / batch * q_sum


def _determines(message: sp.Expr, unknown: sp.Symbol) -> bool:
    """Whether ``message`` (a function of ``unknown`` and public values) determines ``unknown`` and conversely: a
    unique solution of message = m for every m (both messages then carry the same information)."""
    m = sp.Symbol("m", real=True)
    solutions = sp.solve(sp.Eq(message, m), unknown, dict=True)
    return len(solutions) == 1 and sp.diff(message, unknown).is_zero is False


def _recursion_omega_bar(n_clients: int = 2, feature: bool = False) -> tuple[sp.Expr, tuple]:
    """omega_bar^(t) at one coordinate as a function of the messages q_1, ..., q_I: (9) through the recursion of (8),
    -(1/(2 tau)) ((1 - rho) f_prev + rho (sum_i N_i/(B N) q_i - 2 tau omega)), or with ``feature`` (19) through the
    recursion of (18), whose weight is 1/B on the sum of the messages (the blocks of the batch's gradient)."""
    rho, tau, f_prev, n_all = sp.symbols("rho tau f_prev N", positive=True)
    qs = sp.symbols(f"q1:{n_clients + 1}", real=True)
    ns = sp.symbols(f"N1:{n_clients + 1}", positive=True)
    weights = [1 / B] * n_clients if feature else [ni / (B * n_all) for ni in ns]
    f_hat = (1 - rho) * f_prev + rho * (sum(w * qi for w, qi in zip(weights, qs)) - 2 * tau * omega)
    return -f_hat / (2 * tau), qs


def affine_in(expr: sp.Expr, variables) -> bool:
    """Whether ``expr`` is affine in ``variables`` (every second derivative zero): what an additively homomorphic
    scheme can evaluate on encrypted inputs with public coefficients."""
    return all(sp.simplify(sp.diff(expr, a, b)) == 0 for a in variables for b in variables)


@producer
def privacy_finding(message: sp.Expr | None = None, omega_bar: sp.Expr | None = None):
    """Footnote 3 ("the same as that for the existing sample-based federated learning algorithms via SGD"): the SGD
    message with one update (``message``, default :func:`sgd_message`) and Algorithm 1's q determine each other, so
    the server learns the same from both and the privacy condition (a system in the data given q) is the same.
    (9) and (19): omega_bar is affine in the clients' messages (``omega_bar``, default both through (8) and (18)), so
    homomorphic encryption applies. Assumptions, named: the server knows omega, r and B; "linear" in the paper is read
    as affine (its (9) adds -2 tau omega and the previous f_hat, public to the server), which is what additive
    encryption needs."""
    message = sgd_message() if message is None else message
    same = _determines(message, q)
    forms = [_recursion_omega_bar(), _recursion_omega_bar(feature=True)] if omega_bar is None else [
        (omega_bar, tuple(sorted((s for s in omega_bar.free_symbols if s.name.startswith("q")), key=str)))]
    affine = all(affine_in(expr, qs) for expr, qs in forms)
    rows = [("same_privacy_condition", same, f"SGD message {message} determines and is determined by q"),
            ("homomorphic_encryption", affine, "; ".join(
                f"omega_bar = {expr} is {'' if affine_in(expr, qs) else 'not '}affine in {', '.join(map(str, qs))}"
                for expr, qs in forms))]
    return [Finding(f"ssca.remarks.privacy.{name}", "statement-vs-proof", (), CONSISTENT if ok else DISCREPANCY,
                    ("holds: " if ok else "does not hold: ") + what, what, "sympy solve / second derivatives")
            for name, ok, what in rows]


# ============================================================================ trade-off directions ((27), Problem 4)
def exchange_direction() -> dict:
    """The exchange argument for min F + lam R at lam1 < lam2 with global minimisers w1, w2 (values F1, R1, F2, R2):
    s1 = F2 + lam1 R2 - F1 - lam1 R1 >= 0 and s2 = F1 + lam2 R1 - F2 - lam2 R2 >= 0 give (lam2 - lam1)(R1 - R2) =
    s1 + s2 >= 0 and F2 - F1 = s1 + lam1 (R1 - R2) >= 0: R falls and F rises as lam grows. Returns both identities'
    proofs."""
    F1, F2, R1, R2 = sp.symbols("F1 F2 R1 R2", real=True)
    l1, l2 = sp.symbols("lam1 lam2", positive=True)
    s1 = F2 + l1 * R2 - F1 - l1 * R1
    s2 = F1 + l2 * R1 - F2 - l2 * R2
    return {"R falls": prove_identity((l2 - l1) * (R1 - R2), s1 + s2),
            "F rises": prove_identity(F2 - F1, s1 + l1 * (R1 - R2))}


@producer
def tradeoff_finding(proofs: Mapping | None = None):
    """(27) "lambda > 0 is the regularization parameter that trades off the cost and model sparsity" and Problem 4 "c >
    0 is a penalty parameter that trades off the original objective function and the slack penalty term": as the
    weight grows, the weighted term (||omega||^2, sum s) does not grow and the other (F, F_s,0) does not fall
    (:func:`exchange_direction`). Assumptions, named: global minimisers at both weights (the algorithms return KKT
    points, for which the direction is not implied); "model sparsity" of (27) is ||omega||^2, the term lambda weighs."""
    proofs = exchange_direction() if proofs is None else proofs
    ok = all(p.proven is True for p in proofs.values())
    evidence = "; ".join(f"{k}: {p.method}" for k, p in proofs.items())
    return [Finding(f"ssca.remarks.tradeoff.{name}", "statement-vs-proof", (), CONSISTENT if ok else DISCREPANCY,
                    (f"as {weight} grows, {term} does not grow and {other} does not fall (exchange argument, global "
                     "minimisers)") if ok else "the exchange argument does not close", evidence, "sympy identities")
            for name, weight, term, other in (("lambda", "lambda", "||omega||^2", "F"),
                                              ("penalty", "c", "sum s", "F_s,0"))]


def cost_limit_rows(root: sp.Expr = ROOT_42, omega_bar: sp.Expr = OMEGA_40) -> list[tuple[str, bool, sp.Expr]]:
    """(what, holds, computed expression) for the direction of one server step of Algorithms 2 and 4 in U: (42)'s
    interior root against D = b + 4 tau (U - A) (``root``), times dD/dU; one entry of (40)-(41) (``omega_bar``,
    omega_bar = -nu theta / (2 (1 + nu tau))) squared, and its share theta omega_bar + tau omega_bar^2 of (38)'s
    surrogate cost F_bar^(t)(omega) + A^(t) of (29), against nu; and (42)'s ends: the root as D -> oo (U -> oo) and
    as D -> 0+ (U down to A - b/(4 tau))."""
    d_nu = sp.simplify(sp.diff(root, _D) * sp.diff(D_42, U_sym))
    d_size = sp.factor(sp.diff(omega_bar**2, nu_sym))
    d_cost = sp.factor(sp.diff(theta * omega_bar + _tau_p * omega_bar**2, nu_sym))
    b_pos = sp.Symbol("b", positive=True)
    far, near = sp.limit(root, _D, sp.oo), sp.limit(root.subs(b_sym, b_pos), _D, 0, "+")
    return [("(42): nu* does not grow as U grows (d root/dU <= 0 on D > 0)", d_nu.is_nonpositive is True, d_nu),
            ("(40)-(41): ||omega_bar||^2 does not fall as nu grows", d_size.is_nonnegative is True, d_size),
            ("(38) with (40)-(41): the surrogate cost does not grow as nu grows", d_cost.is_nonpositive is True,
             d_cost),
            ("(42) as U -> oo: the root tends to a value <= 0, clipped to nu* = 0, so omega_bar = 0",
             far.is_nonpositive is True, far),
            ("(42) as U falls to A - b/(4 tau) (b > 0): the root tends to +oo, clipped to nu* = c",
             near == sp.oo, near)]


@producer
def cost_limit_finding(root: sp.Expr = ROOT_42, omega_bar: sp.Expr = OMEGA_40):
    """Section V-C "Both the unconstrained federated optimization formulation in (27) and constrained federated
    optimization formulation in (37) allow tradeoffs between the cost and model sparsity", the (37) half, at one server
    step (Lemma 1, (38)-(42)): a larger cost limit U gives a multiplier nu* that does not grow, hence a model
    omega_bar whose ||.||^2 does not grow and a surrogate cost that does not fall (:func:`cost_limit_rows`). The clip
    [x]_0^c of (42) and its branch "c, b + 4 tau (U - A) <= 0" keep nu* non-increasing in U (both monotone, the branch
    at the clip's top c). Assumptions, named: "model sparsity" is ||omega||^2, the objective of (37) (as for
    lambda in :func:`tradeoff_finding`); "cost" is the surrogate cost F_bar^(t)(omega) + A^(t) that (38) constrains by
    U; the comparison is at one iteration with the same history (Theta^(t), A^(t)), tau > 0, b >= 0. Runs with
    different U have different histories: that is Figure 4's statement (ssca.figure4.tradeoff), not this one."""
    rows = cost_limit_rows(root, omega_bar)
    bad = [w for w, ok, _ in rows if not ok]
    return Finding("ssca.remarks.tradeoff.cost_limit", "statement-vs-proof", (),
                   CONSISTENT if not bad else DISCREPANCY,
                   "(37) at one server step (Lemma 1): as U grows, nu* does not grow, ||omega_bar||^2 does not grow "
                   "and the surrogate cost does not fall; U -> oo gives omega_bar = 0" if not bad else
                   "does not hold: " + "; ".join(bad),
                   " | ".join(f"[{'holds' if ok else 'fails'}] {w}: {v}" for w, ok, v in rows),
                   "sympy derivatives and limits of (40)-(42)")


# ============================================================================ printed formulas of Sections III-V
z_ = sp.Symbol("z", real=True)
#: Section V: "the swish activation function S(z) = z/(1 + exp(−z)) [33]"
SWISH = _swish(z_)
#: Section V-A, Step 4 of Algorithm 1: "Here, S′(z) = 1/(1+exp(−z)) (1 + z exp(−z)/(1+exp(−z)))"
SWISH_PRIME_PRINTED = 1 / (1 + sp.exp(-z_)) * (1 + z_ * sp.exp(-z_) / (1 + sp.exp(-z_)))


@producer
def swish_derivative_finding(printed: sp.Expr = SWISH_PRIME_PRINTED, swish: sp.Expr = SWISH):
    """One fact at two places: Section V-A's printed S'(z) (``printed``) against the derivative of Section V's S(z)
    (``swish``), the derivative the clients' Step-4 quantities of Algorithms 1-4 use. Decided by
    :func:`bounds.core.prove_identity` for every real z (no assumption)."""
    proof = prove_identity(printed, sp.diff(swish, z_))
    ok = proof.proven is True
    return Finding("ssca.remarks.swish_derivative", "statement-vs-proof", (), CONSISTENT if ok else DISCREPANCY,
                   "Section V-A's S'(z) is the derivative of Section V's S(z)" if ok else
                   f"Section V-A's S'(z) = {printed} is not dS/dz = {sp.simplify(sp.diff(swish, z_))}",
                   f"printed S'(z) = {printed}; dS/dz of S(z) = {swish}: {proof.method}", "sympy identity")


w_, w0_, g_, f0_ = sp.symbols("w w0 g f0", real=True)
#: the surrogates (7), (11), (15) and (22) in one coordinate of omega (the gradient's entry g, the value f0 at w0): each
#: a linear model plus its proximal term tau (w - w0)^2 (Sections III-A, III-B, IV-A, IV-B, "3) Algorithm Example")
_LINEARISED = f0_ + g_ * (w_ - w0_) + _tau_p * (w_ - w0_)**2        # (11), (15), (22); (7) drops the value f0
SURROGATES: dict[str, sp.Expr] = {"(7)": _LINEARISED - f0_, "(11)": _LINEARISED, "(15)": _LINEARISED,
                                  "(22)": _LINEARISED}


@producer
def proximal_term_finding(surrogates: Mapping[str, sp.Expr] = SURROGATES):
    """Section III-A 3): "where τ > 0 can be any constant, and the term τ‖ω − ω(t)s‖²₂ is used to ensure strong
    convexity" (and "τ > 0 can be any constant" after (11), (15), (22)): for each surrogate of ``surrogates``, its
    curvature d^2/dw^2 is positive for every tau > 0 (strongly convex, modulus 2 tau), and at tau = 0 (the term gone)
    it is not (the linear model alone is not strongly convex). Assumptions, named: the Hessian of
    tau ||omega - omega0||^2 is 2 tau I and the linear model adds none, so one coordinate decides it; the sentence is
    about the per-sample surrogate f_bar of Assumption 2.2, not about the running sum F_bar^(t) of (3), whose weight
    can vanish (ssca.boundary.rho_above_one)."""
    curv = {k: sp.diff(v, w_, 2) for k, v in surrogates.items()}
    rows = [(k, c.is_positive is True, c.subs(_tau_p, 0).is_positive is not True, c) for k, c in curv.items()]
    bad = [k for k, pos, needed, _ in rows if not (pos and needed)]
    return Finding("ssca.remarks.proximal_term", "statement-vs-proof", (), CONSISTENT if not bad else DISCREPANCY,
                   "the proximal term gives (7), (11), (15), (22) curvature 2 tau > 0, none without it" if not bad
                   else "the proximal term does not decide strong convexity of " + ", ".join(bad),
                   "; ".join(f"{k}: d2/dw2 = {c} ({'> 0' if pos else 'not > 0'} for tau > 0, "
                             f"{'not > 0' if needed else '> 0'} at tau = 0)" for k, pos, needed, c in rows),
                   "sympy second derivatives")


# ============================================================================ who holds what (Section II, V-A)
#: who may hold the labels y_n in feature-based learning (Section II gives client i the K_i features x_n,i of all N
#: samples and says nothing of y_n): each admissible reading, and which of two clients hold the labels under it
LABEL_HOLDERS: dict[str, tuple[int, ...]] = {"every client holds the labels": (1, 2),
                                             "one client holds the labels": (2,)}


def _feature_network() -> dict:
    """One sample of (25)-(26) with K = 2 features split between I = 2 clients (x1 at client 1, x2 at client 2), J = 1,
    L = 2: the pre-activation z, client 2's Step-4 product p2 = omega_1,1,2 x2, the loss, and client 1's Step-5
    quantity sum_l (Q_l - y_l) S'(z) omega_2,l,1 x1 (Section V-A, Steps 4-6 of Algorithm 3) in what it receives."""
    x1, x2, w1, w2, p2 = sp.symbols("x1 x2 w11 w12 p2", real=True)
    v = sp.symbols("v1 v2", real=True)
    y = sp.symbols("y1 y2", nonnegative=True)
    swish = lambda u: u / (1 + sp.exp(-u))  # noqa: E731  (S(z) = z/(1 + exp(-z)), Section V)

    def q_of(zz):
        logits = [vl * swish(zz) for vl in v]
        return [sp.exp(lg) / sum(sp.exp(m) for m in logits) for lg in logits]
    z_received = w1 * x1 + p2
    zz = sp.Symbol("zz", real=True)
    s_prime = sp.diff(swish(zz), zz).subs(zz, z_received)
    step5 = sum((ql - yl) * s_prime * vl * x1 for ql, yl, vl in zip(q_of(z_received), y, v))
    loss = -sum(yl * sp.log(ql) for yl, ql in zip(y, q_of(w1 * x1 + w2 * x2)))
    return {"x": (x1, x2), "w": (w1, w2), "v": v, "y": y, "p2": p2, "step5": step5, "loss": loss}


def _available(net: dict, client: int, holders: tuple[int, ...], messages: bool) -> set:
    """What ``client`` has: its features (Section II), omega_0 and its own omega_i from the server (Step 3), the
    other client's Step-4 products when ``messages``, and the labels when it is among ``holders``."""
    have = {net["x"][client - 1], net["w"][client - 1], *net["v"]}
    if messages:
        have.add(net["p2"])
    if client in holders:
        have.update(net["y"])
    return have


def _missing_per_reading(net: dict, holders: Mapping[str, tuple[int, ...]]) -> dict[str, set]:
    """reading -> the symbols client 1's Step 5 needs and it neither holds nor receives."""
    needed = net["step5"].free_symbols
    return {reading: needed - _available(net, 1, who, messages=True) for reading, who in holders.items()}


def _verdict_over_readings(missing: Mapping[str, set]) -> str:
    """consistent when every admissible reading leaves nothing missing, a discrepancy when none does, not checkable
    when the readings disagree (the sentence then depends on a value the paper leaves open)."""
    ok = [not m for m in missing.values()]
    return CONSISTENT if all(ok) else DISCREPANCY if not any(ok) else NOT_CHECKABLE


@producer
def ownership_findings(holders: Mapping[str, tuple[int, ...]] = LABEL_HOLDERS):
    """Feature-based learning, who holds what. (a) Section V-A's Steps 4-6 of Algorithm 3 at client 1: the symbols its
    printed Step-5 quantity needs against what client 1 holds or receives, under each admissible holder of the labels
    (``holders``: reading -> clients holding y); the paper says nothing of the labels, so readings that disagree make
    the finding not checkable (it depends on that open value); (b) Section II's "a client cannot obtain the gradient of
    a loss function relying purely on its local data": the gradient of the loss in client 1's weights needs symbols of
    client 2. Assumption, named: the network of (25)-(26) at K = 2, I = 2, J = 1, L = 2 and one sample stands for the
    general case (the sets of symbols do not depend on the sizes)."""
    net = _feature_network()
    missing = _missing_per_reading(net, holders)
    verdict = _verdict_over_readings(missing)
    per = "; ".join(f"with '{r}': " + (f"lacks {', '.join(sorted(map(str, m)))}" if m else "has every input")
                    for r, m in missing.items())
    steps = Finding("ssca.remarks.ownership.labels", "application", (), verdict,
                    f"Section V-A, Step 5 of Algorithm 3 at client 1 (Section II gives it only its features; the paper "
                    f"assigns the labels y to no party): {per}",
                    f"Step 5 needs {sorted(map(str, net['step5'].free_symbols))}", "sympy free symbols")
    grad = sp.diff(net["loss"], net["w"][0])
    foreign = grad.free_symbols - _available(net, 1, (1, 2), messages=False)
    gradient = Finding("ssca.remarks.ownership.gradient", "statement-vs-proof", (),
                       CONSISTENT if foreign else DISCREPANCY,
                       (f"the gradient in client 1's weights needs {', '.join(sorted(map(str, foreign)))}, which "
                        "client 1 does not hold") if foreign else "client 1 can compute its gradient from its own "
                       "data", f"d loss / d w11 has symbols {sorted(map(str, grad.free_symbols))}",
                       "sympy free symbols")
    return [steps, gradient]


# ============================================================================ one fact, two places
SECTION_VI_SIZES = "For the training model, we set N = 60000, I = 10, K = 784, J = 128, and L = 10."


def _sizes(words: str = SECTION_VI_SIZES) -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r"\b([A-Z]) = (\d+)", words)}


def _letter(pattern: str) -> Callable[[str], int]:
    """A reader: the size letter ``pattern`` captures, as its Section VI value."""
    return lambda words: _sizes()[re.search(pattern, words).group(1)]


def _refs(words: str) -> frozenset[int]:
    """The reference numbers of '[5], [12]–[14]' (ranges expanded)."""
    out: set[int] = set()
    for a, b in re.findall(r"\[(\d+)\](?:\s*[–-]\s*\[(\d+)\])?", words):
        out.update(range(int(a), int(b or a) + 1))
    return frozenset(out)


def _assumption_item(words: str) -> int:
    """The item of Assumption 2 whose text says 'strongly convex'."""
    return next(int(n) for n, text in re.findall(r"(\d)\) ([^;]*)", words) if "strongly convex" in text)


@dataclass(frozen=True)
class Pair:
    """One fact printed at ``where`` (``printed``) and at ``other_where`` (``other``), each side read from its words by
    ``read`` / ``read_other``; the two places agree when the readings are equal."""

    id: str
    where: str
    printed: str
    other_where: str
    other: str
    read: Callable[[str], object]
    read_other: Callable[[str], object]
    what: str


#: the facts the paper states twice, in its own words (Section VI's sizes read the size letters)
PAIRS = (
    Pair("ssca.places.partition", "Section II (sample-based learning)",
         "partition N into K disjoint subsets, denoted by Ni, i ∈ I", "Section II (first paragraph)",
         "Consider a central server connected with I local clients", _letter(r"into (\w) disjoint subsets"),
         _letter(r"connected with (\w) local clients"), "number of subsets of the samples (one per client)"),
    Pair("ssca.places.n_clients", "Sections III-A, III-B, IV-A, IV-B",
         "Assume that the expressions of f̄s,0, ps,0, and qs,0 are known to the server and N clients.",
         "Section II (first paragraph)", "Consider a central server connected with I local clients",
         _letter(r"server and (\w) clients"), _letter(r"connected with (\w) local clients"), "number of clients"),
    Pair("ssca.places.feature_sgd_refs", "Footnotes 4 and 5 (Section IV-A)",
         "In that case, the existing feature-based federated learning algorithms via SGD [5], [12]–[14] can preserve "
         "data privacy.", "Section IV-A (before Algorithm 3's description)",
         "The SGD-based algorithms in [15]–[18], proposed to obtain a KKT point of Problem 6", _refs, _refs,
         "references of the feature-based SGD algorithms"),
    Pair("ssca.places.section_iv_opening", "Section IV (first sentence)",
         "In this section, we investigate two types of sample-based federated optimization",
         "Section IV (same sentence, and its title 'FEATURE-BASED FEDERATED LEARNING')",
         "namely, unconstrained feature-based federated optimization and constrained feature-based federated "
         "optimization", lambda w: re.search(r"two types of (\S+) federated", w).group(1),
         lambda w: re.search(r"unconstrained (\S+) federated", w).group(1), "the setting Section IV investigates"),
    Pair("ssca.places.section_v_b_steps", "Section V-B, before (38)",
         "Next, we present the details of Step 5 in Algorithm 1 and the details of Step 7 in Algorithm 3.",
         "Section V-B, after (37)",
         "We can apply Algorithm 2 with f̄s,0(ω,ω(t)s,xn) given by (7) and f̄s,m(ω,ω(t)s,xn) "
         "given by (11) to solve the problem in (37) for a = s and apply Algorithm 4",
         lambda w: tuple(map(int, re.findall(r"Algorithm (\d)", w))),
         lambda w: tuple(map(int, re.findall(r"Algorithm (\d)", w))), "the algorithms whose server solves (38)"),
    Pair("ssca.places.assumption_item", "Proof of Lemma 3 (Appendix A), before (47)",
         "From Assumption 2.3, there exists constant µ > 0 such that for all t = 1, 2, . . . , ∞, F̄(t)0(ω) is "
         "strongly convex with µ.", "Assumption 2 (Section III-A)",
         "1) ∇f̄(ω,ω,x) = ∇f(ω,x); 2) f̄(ω,ω′,x) is strongly convex in ω; 3) f̄(ω,ω′,x) is Lipschitz continuous in "
         "both ω and ω′; 4) f̄(ω,ω′,x), its derivative, and its second order derivative w.r.t. ω are uniformly "
         "bounded.", lambda w: int(re.search(r"Assumption 2\.(\d)", w).group(1)), _assumption_item,
         "the item of Assumption 2 that gives strong convexity"),
    Pair("ssca.places.horizon", "Section VI (first paragraph)", "For the proposed algorithms, we choose T = 100",
         "Figure 2 (a)-(d), horizontal axis", "0 200 400 600 800 1000 Iteration",
         lambda w: int(re.search(r"T = (\d+)", w).group(1)), lambda w: max(map(int, re.findall(r"\d+", w))),
         "the number of iterations of the proposed algorithms"),
)


@producer
def two_places(pair: Pair):
    """One fact at two places: a ``wording`` finding when the two readings of the quoted words differ (none when they
    agree). Assumption, named: a size letter stands for its value in Section VI's first sentence."""
    a, b = pair.read(pair.printed), pair.read_other(pair.other)
    if a == b:
        return None
    show = lambda v: ", ".join(map(str, sorted(v))) if isinstance(v, frozenset) else str(v)  # noqa: E731
    return Finding(pair.id, "wording", (), DISCREPANCY,
                   f"{pair.what}: {pair.where} gives {show(a)}, {pair.other_where} gives {show(b)}",
                   f"{pair.where}: '{pair.printed}' -> {show(a)}; {pair.other_where}: '{pair.other}' -> {show(b)}",
                   "the two places' words read and compared")


def two_places_findings(pairs=PAIRS) -> list[Finding]:
    """The findings of every pair that disagrees."""
    return [f for p in pairs for f in [two_places(p)] if f is not None]


# ============================================================================ what the algorithms return
#: Algorithms 1-4 as printed: the loop, the update it makes and the output (Algorithm 1; 2-4 alike)
ALGORITHM_LOOP = "2: for t = 1, 2, . . . , T − 1 do"
ALGORITHM_UPDATE = "5: the server obtains ω̄(t)s by solving Problem 2, and updates ω(t+1)s according to (5)."
ALGORITHM_OUTPUT = "7: Output: ωT s"


@producer
def output_finding(loop: str = ALGORITHM_LOOP, update: str = ALGORITHM_UPDATE, output: str = ALGORITHM_OUTPUT):
    """What Algorithms 1-4 return against what Theorems 1-4 are about: the theorems speak of the limit points of the
    sequence {omega^(t)} the algorithm generates; the algorithm returns omega^T. Decided from the printed words: the
    last index the loop "for t = 1, ..., T - 1" writes through omega^(t+1) is the output's index, so the output is the
    last iterate of that very sequence (no average, no random iterate, no unset index). Assumption, named: T >= 2 (one
    update at least; at T = 1 the loop is empty and the output is the initial point omega^1, also a member)."""
    T = sp.Symbol("T", positive=True, integer=True)

    def index(text: str) -> sp.Expr:
        return sp.sympify(text.replace("−", "-"), locals={"T": T})
    last_t = index(re.search(r"\. , (.+?) do", loop).group(1))
    shift = int(re.search(r"ω\(t\+(\d)\)", update).group(1))
    out_index = index(re.search(r"Output: ω(\S+)", output).group(1))
    ok = sp.simplify(last_t + shift - out_index) == 0
    return Finding("ssca.remarks.output", "statement-vs-proof", (), CONSISTENT if ok else DISCREPANCY,
                   f"Algorithms 1-4 return omega^{out_index}, the last iterate (t = {last_t} writes omega^(t+{shift})) "
                   "of the sequence whose limit points Theorems 1-4 describe" if ok else
                   f"the output omega^{out_index} is not the last iterate omega^({last_t + shift}) the loop writes",
                   f"'{loop}'; '{update}'; '{output}'", "the printed loop bounds and indices, compared with sympy")


def remark_findings() -> list[Finding]:
    """Every finding of this module, in the order of the paper's sentences they decide."""
    single = [complexity_finding(), communication_finding(), tradeoff_finding(), cost_limit_finding(),
              privacy_finding(), proximal_term_finding(), swish_derivative_finding(), ownership_findings(),
              output_finding()]
    return [f for x in single for f in (x if isinstance(x, list) else [x])] + two_places_findings()


__all__ = ["LABEL_HOLDERS", "PAIRS", "complexity_finding", "cost_limit_finding", "output_finding",
           "communication_finding", "ownership_findings", "privacy_finding", "proximal_term_finding",
           "remark_findings", "swish_derivative_finding", "tradeoff_finding", "two_places", "two_places_findings"]
