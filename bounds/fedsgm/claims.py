"""FedSGM (Upadhyay, Moon, Hashemi; OPT 2025): every numbered result as a :class:`Claim`.

Numbers in parentheses are the paper's equation and display numbers. The paper uses alpha for three objects; here the switching weight is
``sigma`` (Algorithm 1's alpha_t), the averaging weight of the soft output is ``pi`` (Theorem 2's
alpha_t) and Young's parameter is ``a`` (the proofs' alpha).

Claims come in three provenances:

* ``paper``: Theorems 1, 2 and the special cases of the discussion (main text);
* ``paper-appendix``: Lemmas 3-5, the proofs' one-round and summed inequalities, Theorems 6-9
  as stated in the appendix, and -- as separate ``*.proof`` claims -- the constants that the
  appendix proofs actually derive (Gamma_pf, eta(Gamma_pf), eps = (N+1) eps(Gamma_pf) or
  2 eps(Gamma_pf));
* ``derived``: consequences computed here (communication complexity, the step-size condition
  the soft proof needs under the *stated* constants).

Observed quantities (measured on a run by ``repro.verify``) are symbols too; their names are the
keys of ``Claim.bounds()``.

The audit findings (:func:`audit_findings`, :func:`settings_findings`) live in :mod:`bounds.fedsgm.findings`.
"""
from __future__ import annotations

import functools

import sympy as sp

from ..core import Claim, Mode, Provenance

# ---------------------------------------------------------------------------- symbols
E = sp.Symbol("E", positive=True, integer=True)          # local steps
T = sp.Symbol("T", positive=True, integer=True)          # rounds
n = sp.Symbol("n", positive=True, integer=True)          # clients
q = sp.Symbol("q_u", nonnegative=True)                   # compression variance factor
D = sp.Symbol("D", positive=True)                        # ||w0 - w*||
G = sp.Symbol("G", positive=True)                        # Lipschitz constant of every f_j, g_j
eta = sp.Symbol("eta", positive=True)                    # step size
eps = sp.Symbol("epsilon", positive=True)                # tolerance
beta = sp.Symbol("beta", positive=True)                  # soft-switching slope
a = sp.Symbol("a", positive=True)                        # Young's parameter (paper: alpha)
N = sp.Symbol("N", nonnegative=True, integer=True)       # the hard proofs' "for some N >= 0"
tau = sp.Symbol("tau", nonnegative=True, integer=True)   # local step index

PARAMETER_DOMAINS = {
    E: "integer >= 1", T: "integer >= 1", n: "integer >= 1", q: "real >= 0 (Rand-K: d/K - 1)",
    D: "real > 0", G: "real > 0", eta: "real > 0", eps: "real > 0", beta: "real > 0",
    a: "real > 0", N: "integer >= 0",
}

# Observed quantities (one run, one round, or one (client, local step) term).
A_size = sp.Symbol("A_size")                 # |A|, number of rounds in the output set
subopt = sp.Symbol("subopt")                 # f(w_bar) - f(w*)
infeas = sp.Symbol("infeas")                 # g(w_bar)
sigma = sp.Symbol("sigma")                   # switching weight of the round, in [0, 1]
Sigma_A = sp.Symbol("Sigma_A")               # sum over A of sigma_t
agg_sq_expect = sp.Symbol("agg_sq_expect")   # E_C ||(1/n) sum_j C_j(X_j)||^2 given the round
Xbar_sq = sp.Symbol("Xbar_sq")               # ||(1/n) sum_j X_j||^2
sumX_sq = sp.Symbol("sumX_sq")               # sum_j ||X_j||^2
sum_nu_sq = sp.Symbol("sum_nu_sq")           # sum_j sum_tau ||nu_{j,tau}||^2
inner_term = sp.Symbol("inner_term")         # -2 eta <w_t - w*, nu_{j,tau}>
drift_term = sp.Symbol("drift_term")         # ||w_t - w_{j,tau}||^2
gap_f_term = sp.Symbol("gap_f_term")         # f_j(w*) - f_j(w_{j,tau})
gap_g_term = sp.Symbol("gap_g_term")         # g_j(w*) - g_j(w_{j,tau})
drift_sum = sp.Symbol("drift_sum")           # sum_tau ||w_t - w_{j,tau}||^2 for one client
drift_total = sp.Symbol("drift_total")       # sum_j sum_tau ||w_t - w_{j,tau}||^2
gap_local_total = sp.Symbol("gap_local_total")  # sum_j sum_tau (h_j(w*) - h_j(w_{j,tau})), h = f on A, g on B
dist_sq = sp.Symbol("dist_sq")               # ||w_t - w*||^2
dist_next_sq = sp.Symbol("dist_next_sq")     # E_C ||w_{t+1} - w*||^2 given the round
gap_f = sp.Symbol("gap_f")                   # f(w*) - f(w_t)
gap_g = sp.Symbol("gap_g")                   # g(w*) - g(w_t)
in_A = sp.Symbol("in_A")                     # 1 if t in A (f-step) else 0 (hard switching)
S_T = sp.Symbol("S_T")                       # (1/T)[sum_A (f(w_t)-f*) + sum_B (g(w_t)-g*)]; soft: S_T^soft

OBSERVED_DOMAINS = {
    A_size: "observed: |A|", subopt: "observed: f(w_bar) - f*", infeas: "observed: g(w_bar)",
    sigma: "observed: switching weight in [0, 1]", Sigma_A: "observed: sum_{t in A} sigma_t",
    agg_sq_expect: "observed: E_C||aggregate||^2 (closed form for Rand-K)",
    Xbar_sq: "observed: ||mean_j X_j||^2", sumX_sq: "observed: sum_j ||X_j||^2",
    sum_nu_sq: "observed: sum_j sum_tau ||nu||^2", inner_term: "observed: -2 eta <w_t - w*, nu>",
    drift_term: "observed: ||w_t - w_{j,tau}||^2", gap_f_term: "observed: f_j(w*) - f_j(w_{j,tau})",
    gap_g_term: "observed: g_j(w*) - g_j(w_{j,tau})", drift_sum: "observed: sum_tau drift",
    drift_total: "observed: sum_j sum_tau drift", gap_local_total: "observed: sum_j sum_tau (h_j(w*) - h_j(w_jtau))",
    dist_sq: "observed: ||w_t - w*||^2", dist_next_sq: "observed: E_C||w_{t+1} - w*||^2 | round t",
    gap_f: "observed: f* - f(w_t)", gap_g: "observed: g* - g(w_t)", in_A: "observed: 1{t in A}",
    S_T: "observed: averaged summed gap (S_T, or S_T^soft for soft switching)",
}


def _domains(*symbols: sp.Symbol) -> dict:
    table = PARAMETER_DOMAINS | OBSERVED_DOMAINS
    return {s: table[s] for s in symbols}


# ---------------------------------------------------------------------------- constants
Gamma_stated = 2 * E**2 + E * q / (2 * n)
"""Gamma of Theorems 1, 2, 6, 7 as stated; with q_u = 0 for no compression (the indicator)."""

Gamma_proof = sp.Rational(1, 2) * (q / n + 1) * E + 1 + sp.Rational(1, 3) * E**2
"""Gamma the appendix proofs derive (proofs of Theorems 6-9; q_u = 0 for 8 and 9)."""


def eps_of(gamma: sp.Expr) -> sp.Expr:
    """epsilon(Gamma) = sqrt(2 D^2 G^2 Gamma / (E T))."""
    return sp.sqrt(2 * D**2 * G**2 * gamma / (E * T))


def eta_of(gamma: sp.Expr) -> sp.Expr:
    """eta(Gamma) = sqrt(D^2 / (2 G^2 E T Gamma))."""
    return sp.sqrt(D**2 / (2 * G**2 * E * T * gamma))


def summed_bound(step: sp.Expr, gamma: sp.Expr) -> sp.Expr:
    """S_bar(eta; Gamma) = D^2/(2 eta E T) + eta G^2 Gamma, the right side of the summed round
    (display 11 of the proof of Theorem 6)."""
    return D**2 / (2 * step * E * T) + step * G**2 * gamma


EPS_STATED = eps_of(Gamma_stated)
ETA_STATED = eta_of(Gamma_stated)
EPS_THM8 = sp.sqrt(4 * D**2 * G**2 * E / T)           # Theorems 8 and 9 as displayed
ETA_THM8 = sp.sqrt(D**2 / (4 * G**2 * E**3 * T))

EPS_SOLUTION = sp.And(sp.Le(subopt, eps), sp.Le(infeas, eps))
"""The epsilon-solution predicate of (1): f(w_bar) - f(w*) <= eps and g(w_bar) <= eps."""

_THEOREM_CONCLUSION = (sp.Ge(A_size, 1), sp.Le(subopt, eps), sp.Le(infeas, eps))
_NONEMPTY = "A is nonempty, w_bar is well-defined, and w_bar is an eps-solution of (1)"


# ---------------------------------------------------------------------------- lemmas
lemma3 = Claim(
    id="fedsgm.lemma3", location="Lemma 3, Appendix A.1",
    statement="E_C ||(1/n) sum_j C_j(sum_tau nu_{j,tau})||^2 <= (q_u/n + 1) E^2 G^2 for every round.",
    domains=_domains(agg_sq_expect, q, n, E, G, Xbar_sq, sumX_sq, sum_nu_sq),
    conclusion=(sp.Le(agg_sq_expect, (q / n + 1) * E**2 * G**2),),
    mode=Mode.EXPECTATION, provenance=Provenance.PAPER_APPENDIX,
    steps=(
        ("variance decomposition, independent unbiased C_j, Assumption 2", Xbar_sq + q / n**2 * sumX_sq),
        ("Jensen: ||mean_j X_j||^2 <= mean_j ||X_j||^2", (1 + q / n) * sumX_sq / n),
        ("Jensen over local steps: ||X_j||^2 <= E sum_tau ||nu||^2", (1 + q / n) * E * sum_nu_sq / n),
        ("||nu|| <= G", (q / n + 1) * E**2 * G**2),
    ),
    notes="Expectation over the compressors given the round's iterates. For Rand-K the first step "
          "is an equality, so the exact conditional expectation is available in closed form.",
)

lemma4 = Claim(
    id="fedsgm.lemma4", location="Lemma 4, Appendix A.1",
    statement="Per (client, local step): -2 eta <w_t - w*, nu> <= (eta/a)||w_t - w_{j,tau}||^2 + eta a G^2 "
              "+ 2 eta (h_j(w*) - h_j(w_{j,tau})), h = f on A and g on B (hard switching).",
    domains=_domains(inner_term, eta, a, drift_term, G, in_A, gap_f_term, gap_g_term),
    conclusion=(sp.Le(inner_term, eta / a * drift_term + eta * a * G**2
                      + 2 * eta * (in_A * gap_f_term + (1 - in_A) * gap_g_term)),),
    mode=Mode.DETERMINISTIC, provenance=Provenance.PAPER_APPENDIX,
    hypotheses=(sp.Gt(a, 0),),
    notes="The first line of Lemma 4 (E_C of the compressed inner product equals the uncompressed one) "
          "is unbiasedness; the bound is deterministic term by term. A violation can only come from a "
          "non-convex f_j/g_j or a G that is not a true bound (harness self-test).",
)

lemma4_soft = Claim(
    id="fedsgm.lemma4.soft", location="Proof of Theorem 7, Term-B1 and Term-B2 bounds",
    statement="Soft version: -2 eta <w_t - w*, nu> <= (eta/a) drift + eta a G^2 + 2 eta sigma (g_j(w*) - g_j) "
              "+ 2 eta (1 - sigma)(f_j(w*) - f_j).",
    domains=_domains(inner_term, eta, a, drift_term, G, sigma, gap_f_term, gap_g_term),
    conclusion=(sp.Le(inner_term, eta / a * drift_term + eta * a * G**2
                      + 2 * eta * sigma * gap_g_term + 2 * eta * (1 - sigma) * gap_f_term),),
    mode=Mode.DETERMINISTIC, provenance=Provenance.PAPER_APPENDIX,
    hypotheses=(sp.Gt(a, 0),),
)

lemma5 = Claim(
    id="fedsgm.lemma5", location="Lemma 5, Appendix A.1",
    statement="sum_{tau<E} ||w_t - w_{j,tau}||^2 <= eta^2 E^3 G^2 / 3 for every round and client.",
    domains=_domains(drift_sum, eta, E, G),
    conclusion=(sp.Le(drift_sum, eta**2 * E**3 * G**2 / 3),),
    mode=Mode.DETERMINISTIC, provenance=Provenance.PAPER_APPENDIX,
    steps=(
        ("||w_t - w_{j,tau}||^2 <= eta^2 tau^2 G^2, summed", eta**2 * G**2 * (E - 1) * E * (2 * E - 1) / 6),
        ("sum of squares <= E^3/3", eta**2 * E**3 * G**2 / 3),
    ),
    notes="Deterministic; holds with or without compression (local steps are not compressed).",
)

# ---------------------------------------------------------------------------- proof displays
_compression_wording = ("Stated after 'taking the expectation with respect to the compression operator'; "
                        "checked per round against the exact conditional expectation (Rand-K closed form), "
                        "and deterministic when q_u = 0.")

eq5 = Claim(
    id="fedsgm.eq5", location="Eq. (5), proof of Theorem 6 (eq. (12) for Theorem 8)",
    statement="One round, before moving function values to w_t.",
    domains=_domains(dist_next_sq, dist_sq, eta, q, n, E, G, a, drift_total, gap_local_total),
    conclusion=(sp.Le(dist_next_sq, dist_sq + eta**2 * (q / n + 1) * E**2 * G**2 + eta * a * E * G**2
                      + eta / (a * n) * drift_total + 2 * eta / n * gap_local_total),),
    mode=Mode.EXPECTATION, provenance=Provenance.PAPER_APPENDIX, notes=_compression_wording,
)

R_hard = Claim(
    id="fedsgm.R_hard",
    location="Proofs of Theorems 6 and 8 (Appendices A.2.1, A.3.1), display 9: the round after convexity, Young and "
             "Lemma 5",
    statement="One round of hard switching after convexity, Young and Lemma 5.",
    domains=_domains(dist_next_sq, dist_sq, eta, q, n, E, G, a, in_A, gap_f, gap_g),
    conclusion=(sp.Le(dist_next_sq, dist_sq + eta**2 * (q / n + 1) * E**2 * G**2 + 2 * eta * a * E * G**2
                      + sp.Rational(2, 3) / a * eta**3 * E**3 * G**2
                      + 2 * eta * E * (in_A * gap_f + (1 - in_A) * gap_g)),),
    mode=Mode.EXPECTATION, provenance=Provenance.PAPER_APPENDIX, notes=_compression_wording,
)

R_soft = Claim(
    id="fedsgm.R_soft",
    location="Proofs of Theorems 7 and 9 (Appendices A.2.2, A.3.2), display 8 ('Substituting Term-A and Term-B "
             "back'), a = eta",
    statement="One round of soft switching with Young parameter a = eta.",
    domains=_domains(dist_next_sq, dist_sq, eta, q, n, E, G, sigma, gap_f, gap_g),
    conclusion=(sp.Le(dist_next_sq, dist_sq + eta**2 * (q / n + 1) * E**2 * G**2 + 2 * eta**2 * E * G**2
                      + sp.Rational(2, 3) * eta**2 * E**3 * G**2
                      + 2 * eta * E * sigma * gap_g + 2 * eta * E * (1 - sigma) * gap_f),),
    mode=Mode.EXPECTATION, provenance=Provenance.PAPER_APPENDIX, notes=_compression_wording,
)

S_summed = Claim(
    id="fedsgm.S_summed",
    location="Proofs of Theorems 6-9: the round summed over t < T (display 11 of Theorems 6 and 8; display 9 of "
             "Theorem 9, and of Theorem 7 as its erratum corrects it)",
    statement="S_T <= D^2/(2 eta E T) + eta G^2 Gamma_pf for any eta > 0 (hard: S_T; soft: S_T^soft).",
    domains=_domains(S_T, D, eta, E, T, G, q, n),
    conclusion=(sp.Le(S_T, summed_bound(eta, Gamma_proof)),),
    mode=Mode.EXPECTATION, provenance=Provenance.PAPER_APPENDIX,
    notes="Holds for every eta > 0, not only the tuned one. With compression it holds for E[S_T] "
          "(the sets A and B are random); without compression it is deterministic.",
)

# ---------------------------------------------------------------------------- theorems
def _theorem(id_, location, statement, eps_expr, eta_expr, *, soft, beta_expr=None, hypotheses=(),
             provenance=Provenance.PAPER, derived_from="", notes="", extra=()):
    params = {eps: eps_expr, eta: eta_expr}
    if beta_expr is not None:
        params[beta] = beta_expr
    syms = {E, T, D, G, eps, eta, A_size, subopt, infeas} | set(extra)
    for expr in list(params.values()) + list(hypotheses):
        syms |= expr.free_symbols
    if soft:
        syms.add(beta)
    return Claim(id=id_, location=location, statement=statement, domains=_domains(*syms),
                 conclusion=_THEOREM_CONCLUSION, parameters=params, hypotheses=tuple(hypotheses),
                 mode=Mode.DETERMINISTIC, provenance=provenance, derived_from=derived_from, notes=notes)


_mode_note = ("Stated without an expectation or probability qualifier, hence checked on every single run; "
              "with compression the proof only controls expectations over the compressors (audit).")

thm1 = _theorem("fedsgm.thm1", "Theorem 1, main text (hard switching)",
                f"Hard switching with Gamma = 2E^2 + E q_u/(2n): {_NONEMPTY}.",
                EPS_STATED, ETA_STATED, soft=False, notes=_mode_note)
thm2 = _theorem("fedsgm.thm2", "Theorem 2, main text (soft switching)",
                f"Soft switching, Gamma, eps, eta as in Theorem 1 and beta >= 2/eps: {_NONEMPTY}.",
                EPS_STATED, ETA_STATED, soft=True, hypotheses=(sp.Ge(beta, 2 / eps),), notes=_mode_note)
thm6 = _theorem("fedsgm.thm6", "Theorem 6 (FedSGCM), Appendix A.2.1",
                f"Hard switching with compression, Gamma = 2E^2 + E q_u/(2n): {_NONEMPTY}.",
                EPS_STATED, ETA_STATED, soft=False, notes=_mode_note)
thm7 = _theorem("fedsgm.thm7", "Theorem 7 (FedSSGCM), Appendix A.2.2",
                f"Soft switching with compression, beta = 2/eps: {_NONEMPTY}.",
                EPS_STATED, ETA_STATED, soft=True, beta_expr=2 / eps,
                notes=_mode_note + " The statement says 'under Assumption 1' only, yet uses compression "
                                   "(Assumption 2, via Lemma 3).")
thm8 = _theorem("fedsgm.thm8", "Theorem 8 (FedHSGM), Appendix A.3.1",
                f"Hard switching, no compression, eps = sqrt(4 D^2 G^2 E / T): {_NONEMPTY}.",
                EPS_THM8, ETA_THM8, soft=False)
thm9 = _theorem("fedsgm.thm9", "Theorem 9 (FedSSGM), Appendix A.3.2",
                f"Soft switching, no compression, beta = 2/eps: {_NONEMPTY}.",
                EPS_THM8, ETA_THM8, soft=True, beta_expr=2 / eps)

_pf = "Constants as derived in the appendix proof."
thm6_proof = _theorem("fedsgm.thm6.proof", "Proof of Theorem 6, eqs. (5)-(8)",
                      "Hard switching with eta = eta(Gamma_pf), eps = (N+1) eps(Gamma_pf), N >= 0.",
                      (N + 1) * eps_of(Gamma_proof), eta_of(Gamma_proof), soft=False,
                      provenance=Provenance.PAPER_APPENDIX, derived_from="fedsgm.S_summed", notes=_pf)
thm8_proof = _theorem("fedsgm.thm8.proof", "Proof of Theorem 8, eqs. (11)-(15)",
                      "As the proof of Theorem 6 with q_u = 0.",
                      (N + 1) * eps_of(Gamma_proof.subs(q, 0)), eta_of(Gamma_proof.subs(q, 0)), soft=False,
                      provenance=Provenance.PAPER_APPENDIX, derived_from="fedsgm.S_summed", notes=_pf)
thm7_proof = _theorem("fedsgm.thm7.proof", "Proof of Theorem 7, eq. (10) and the step after it",
                      "Soft switching with eta = eta(Gamma_pf), eps = 2 eps(Gamma_pf), "
                      "beta >= 2 sum_A sigma_t / (eps T) (sufficient: beta >= 2/eps).",
                      2 * eps_of(Gamma_proof), eta_of(Gamma_proof), soft=True,
                      hypotheses=(sp.Ge(beta, 2 * Sigma_A / (eps * T)),),
                      provenance=Provenance.PAPER_APPENDIX, derived_from="fedsgm.S_summed", notes=_pf)
thm9_proof = _theorem("fedsgm.thm9.proof", "Proof of Theorem 9, eqs. (17)-(18)",
                      "As the proof of Theorem 7 with q_u = 0.",
                      2 * eps_of(Gamma_proof.subs(q, 0)), eta_of(Gamma_proof.subs(q, 0)), soft=True,
                      hypotheses=(sp.Ge(beta, 2 * Sigma_A / (eps * T)),),
                      provenance=Provenance.PAPER_APPENDIX, derived_from="fedsgm.S_summed", notes=_pf)

# ---------------------------------------------------------------------------- derived here
ratio_pf_st = sp.factor(Gamma_proof / Gamma_stated)      # factor, not simplify: 5 ms at import instead of 220
"""r = Gamma_pf / Gamma_st in (0, 1): how much of the stated constant the proof uses."""

soft_beta_needed_stated = sp.factor(2 * Sigma_A / ((1 - ratio_pf_st) * eps * T))
"""beta the soft proof's step 4 needs when run with the *stated* (eps, eta): with S_bar(eta_st; Gamma_pf)
= eps_st (1 + r)/2 the remainder (c-1) eps T + Sigma_A/beta <= 0 requires beta >= 2 Sigma_A/((1-r) eps T)."""

soft_stated_via_proof = Claim(
    id="fedsgm.derived.soft_beta", location="derived from the proof of Theorem 7 under Theorem 2's constants",
    statement="Under the stated eps, eta of Theorem 2 the proof's argument certifies an eps-solution only "
              "when beta >= 2 Sigma_A / ((1 - Gamma_pf/Gamma_st) eps T); sufficient 2/((1 - r) eps).",
    domains=_domains(E, T, D, G, q, n, eps, eta, beta, Sigma_A, A_size, subopt, infeas),
    conclusion=_THEOREM_CONCLUSION, parameters={eps: EPS_STATED, eta: ETA_STATED},
    hypotheses=(sp.Ge(beta, soft_beta_needed_stated),),
    mode=Mode.DETERMINISTIC, provenance=Provenance.DERIVED,
    derived_from="fedsgm.thm7.proof steps 2-5 with S_bar(eta_st; Gamma_pf) in place of eps/2",
)

ROUNDS_STATED = sp.factor((EPS_STATED * sp.sqrt(T) / eps) ** 2)
"""T(eps) = D^2 G^2 (4E + q_u/n) / eps^2 rounds reach the stated tolerance eps: the stated eps is a constant over
sqrt(T), so eps_stated(T) = eps solves to T = (eps_stated sqrt(T) / eps)^2 (``sympy.solve`` gives the same root, but
imports sympy.physics on the way: 0.5 s added to every command's start)."""

complexity = Claim(
    id="fedsgm.complexity", location="derived from Theorems 1 and 2",
    statement="Rounds to an eps-solution under the stated constants: T = D^2 G^2 (4E + q_u/n)/eps^2 = O(eps^-2).",
    domains=_domains(D, G, E, q, n, eps),
    conclusion=ROUNDS_STATED, mode=Mode.ORDER, provenance=Provenance.DERIVED,
    derived_from="fedsgm.thm1 solved for T",
)

# ---------------------------------------------------------------------------- special cases (spec section 9)
class SpecialCase:
    """A rate the paper quotes for a special case, and the substitution that defines the case."""

    def __init__(self, claim: Claim, substitution: dict, stated_eps: sp.Expr, free: tuple):
        self.claim = claim
        self.substitution = substitution
        self.stated_eps = stated_eps
        self.free = free

    @functools.cached_property
    def implied(self) -> sp.Expr:
        """The stated eps under the case's substitution (simplified when first asked: not at import, where
        ``sympy.simplify`` alone costs ~0.3 s of every command's start)."""
        return sp.simplify(self.stated_eps.subs(self.substitution))

    @property
    def quoted(self) -> sp.Expr:
        return self.claim.conclusion.subs(self.substitution)


def _order_claim(id_, location, statement, expr):
    return Claim(id=id_, location=location, statement=statement,
                 domains=_domains(*expr.free_symbols), conclusion=expr,
                 mode=Mode.ORDER, provenance=Provenance.PAPER)


SPECIAL_CASES = (
    SpecialCase(_order_claim("fedsgm.case.centralized", "Discussion after Theorem 2, first bullet",
                             "n = 1, q_u = 0, E = 1 (centralized, no compression): O(DG/sqrt(T)).",
                             D * G / sp.sqrt(T)),
                {n: 1, q: 0, E: 1}, EPS_STATED, (D, G, T)),
    SpecialCase(_order_claim("fedsgm.case.fedcom", "Discussion after Theorem 2, second bullet",
                             "g_j = 0, E = 1 (FedCOM): O(DG sqrt(E)/sqrt(T) sqrt(1 + q_u/n)).",
                             D * G * sp.sqrt(E) / sp.sqrt(T) * sp.sqrt(1 + q / n)),
                {E: 1}, EPS_STATED, (D, G, T, q, n)),
    SpecialCase(_order_claim("fedsgm.case.uncompressed", "Discussion after Theorem 2, third bullet",
                             "q_u = 0 (no compression): O(DG sqrt(E)/sqrt(T)).",
                             D * G * sp.sqrt(E) / sp.sqrt(T)),
                {q: 0}, EPS_STATED, (D, G, T, E, n)),
    SpecialCase(_order_claim("fedsgm.case.general", "Contributions and Conclusion",
                             "Rates of order O(DG sqrt(E)/sqrt(T) sqrt(1 + q_u/n)).",
                             D * G * sp.sqrt(E) / sp.sqrt(T) * sp.sqrt(1 + q / n)),
                {}, EPS_STATED, (D, G, T, E, q, n)),
)

SHARED_CONSTANTS = (thm1.parameters[eps] - thm2.parameters[eps], thm1.parameters[eta] - thm2.parameters[eta])
"""Claim 5 (Conclusion): Theorems 1 and 2 share eps and eta; both differences are identically 0."""

THEOREMS = (thm1, thm2, thm6, thm7, thm8, thm9)
PROOF_THEOREMS = (thm6_proof, thm7_proof, thm8_proof, thm9_proof)
LEMMAS = (lemma3, lemma4, lemma4_soft, lemma5)
PROOF_INEQUALITIES = (eq5, R_hard, R_soft, S_summed)
CLAIMS = LEMMAS + PROOF_INEQUALITIES + THEOREMS + PROOF_THEOREMS + (soft_stated_via_proof, complexity) + tuple(
    c.claim for c in SPECIAL_CASES)


def claim(id_: str) -> Claim:
    """Look a claim up by id; unknown ids raise ``KeyError`` listing the known ones."""
    for c in CLAIMS:
        if c.id == id_:
            return c
    raise KeyError(f"unknown claim {id_!r}; known: {', '.join(c.id for c in CLAIMS)}")
