"""FedSGM (Upadhyay, Moon, Hashemi; OPT 2025): the audit findings.

The symbolic derivations and proof-step checks whose rows and prose the audit report shows:
:func:`audit_findings` (statement vs proof, modes, hypotheses, stated rates) and
:func:`settings_findings` (Figure 1's settings vs the theorems). They are kept apart from the claims
in :mod:`bounds.fedsgm.claims` so that editing the report's wording does not change the code fingerprint of
any run (run functions import :mod:`bounds.fedsgm.claims`, never this module).

Every finding is built by a producer (:func:`bounds.audit.producer`) that computes it: a discrepancy is returned
only when the computation finds it, and each one quotes the paper's words it is about (the ``*_QUOTE`` constants:
the words and where they stand), so that a test can change one side of the comparison and see the finding go.
"""
from __future__ import annotations

import re

import numpy as np
import sympy as sp

from ..audit import (CONSISTENT, DISCREPANCY, NOT_CHECKABLE, Finding, dominates, fmt_point, identity, producer,
                    rate_comparison)
from ..core import Mode, order_in_inverse_eps, prove_identity, prove_nonnegative, sample_nonnegative
from .claims import (
    D, E, EPS_STATED, EPS_THM8, ETA_STATED, ETA_THM8, G, Gamma_proof, Gamma_stated, ROUNDS_STATED,
    SHARED_CONSTANTS, SPECIAL_CASES, Sigma_A, T, beta, eps, eps_of, eta, eta_of, n, q, soft_beta_needed_stated,
    summed_bound, tau, thm2,
)

_SAMPLING = {E: (1, 50, True), T: (1, 10**6, True), n: (1, 1000, True), q: (0, 100, False),
             D: (1e-3, 1e3, False), G: (1e-3, 1e3, False), eps: (1e-3, 1e3, False)}

# ---------------------------------------------------------------------------- the paper's words
#: Theorem 2 (Section 3): the stated slope of the soft switching rule
THM2_BETA_QUOTE = "Theorem 2 (Section 3): 'and β ≥ 2/ε'"
#: the proof of Theorem 7 (Appendix A.2.2): the proof's own tolerance and how it reaches beta >= 2/eps
THM7_PROOF_QUOTE = ("proof of Theorem 7 (Appendix A.2.2): 'We choose to set ε = 2√(2D²G²Γ/(ET))' and 'Since "
                    "Σ_{t∈A} σ_β^t < T, a sufficient (and highly conservative) condition for all T ≥ 1 is to set "
                    "β ≥ 2/ε'")
#: Theorem 1 (Section 3), which Theorem 2 repeats: the stated tolerance and step size
THM1_CONSTANTS_QUOTE = ("Theorem 1 (Section 3): 'set the constraint threshold and step size as ε = √(2D²G²Γ/(ET)), "
                        "η = √(D²/(2G²ETΓ))' with 'Γ = 2E² + Eq_u/(2n)'")
#: Theorem 2 prints the same constants, with its condition on beta
THM2_CONSTANTS_QUOTE = ("Theorem 2 (Section 3): 'set the constraint threshold and step size as ε = √(2D²G²Γ/(ET)), "
                        "η = √(D²/(2G²ETΓ)), and β ≥ 2/ε' with 'Γ = 2E² + Eq_u/(2n)'")
#: Section 4.1: Figure 1's tolerance, fixed directly
FIGURE1_EPS_QUOTE = "Section 4.1: 'We compare both hard and soft switching using a tolerance ε = 0.1'"


# ---------------------------------------------------------------------------- audit (symbolic part)
def audit_findings(rng=None) -> list:
    """Symbolic audit rows for FedSGM (statement vs proof, modes, hypotheses, stated rates)."""
    rng = np.random.default_rng(0) if rng is None else rng
    return _statement_vs_proof(rng) + _proof_identities(rng) + _stated_rates(rng)


def _statement_vs_proof(rng) -> list:
    """The stated constants, tolerance, beta, mode and hypotheses against what the proofs establish."""
    out = [dominates(
        "fedsgm.hard.constants", ("fedsgm.thm1", "fedsgm.thm6", "fedsgm.thm8"), Gamma_stated, Gamma_proof,
        {E: 1}, _SAMPLING, rng,
        "Gamma_st >= Gamma_pf for all E >= 1, so S_bar(eta_st; Gamma_pf) < S_bar(eta_st; Gamma_st) = eps_st: "
        "the hard proofs (N = 0) cover the stated constants (deterministically when q_u = 0).",
        "Gamma_st < Gamma_pf somewhere: the stated hard constants are not covered by the proof.")]
    out.append(dominates(
        "fedsgm.soft.eps", ("fedsgm.thm2", "fedsgm.thm7", "fedsgm.thm9"), Gamma_stated, 4 * Gamma_proof,
        {E: 1}, _SAMPLING, rng,
        "eps_st >= 2 eps(Gamma_pf) everywhere: the stated tolerance is at least the proof's.",
        f"{THM2_CONSTANTS_QUOTE} (Theorem 1 prints the same for hard switching, which its proofs cover), against the "
        f"{THM7_PROOF_QUOTE.split(' and ')[0]} with "
        "Γ = Gamma_pf: the stated eps_st is smaller than the proof's 2 eps(Gamma_pf) whenever Gamma_st < 4 Gamma_pf "
        "(e.g. every E <= 4), so the proof's choice is not the statement's."))
    out.append(soft_beta(ETA_STATED, EPS_STATED, _stated_beta(), rng))
    out += _mode_and_assumption_findings()
    return out


def _stated_beta() -> sp.Expr:
    """The smallest beta Theorem 2 admits, read off its encoded hypothesis beta >= ..."""
    [hyp] = [h for h in thm2.hypotheses if beta in h.free_symbols]
    return hyp.rhs if hyp.lhs == beta else hyp.lhs


# ---------------------------------------------------------------------------- the soft proof's beta
_A_SIZE, _SIGMA = sp.symbols("A_set Sigma_set", positive=True)     # |A| and sum_{t in A} sigma_t, |A| > Sigma_A


def step4_bound(c: sp.Expr) -> sp.Expr:
    """The bound on f(w_bar) - f* of the soft proof's last step (proof of Theorem 7) when the left side of (10) is
    c eps T: (c eps T - eps |B| - (eps - 1/beta) Sigma_A) / (|A| - Sigma_A) with |B| = T - |A|. The proof's own
    constants give c = 1/2 ('0.5 eps T')."""
    return (c * eps * T - eps * (T - _A_SIZE) - (eps - 1 / beta) * _SIGMA) / (_A_SIZE - _SIGMA)


def soft_beta_needed(c: sp.Expr) -> sp.Expr:
    """The smallest beta for which the step-4 bound is <= eps (its numerator, decreasing in beta, reaches 0), as a
    function of Sigma_A: solved by sympy from :func:`step4_bound`."""
    numerator, _ = sp.fraction(sp.together(step4_bound(c) - eps))
    [root] = sp.solve(sp.Eq(numerator, 0), beta)
    return sp.simplify(root)


@producer
def soft_beta(eta_used: sp.Expr, eps_used: sp.Expr, stated: sp.Expr, rng) -> Finding:
    """fedsgm.soft.beta: with the tolerance ``eps_used`` and step size ``eta_used``, the left side of (10) is
    c eps T with c = S_bar(eta_used; Gamma_pf)/eps_used; the beta the proof's last step then needs, at its worst
    Sigma_A -> T, against the ``stated`` lower bound on beta (proven, or refuted by a counterexample)."""
    c = sp.simplify(summed_bound(eta_used, Gamma_proof) / eps_used)
    needed = soft_beta_needed(c)
    worst = sp.simplify(needed.subs(_SIGMA, T))
    margin = sp.simplify(stated - worst)
    result = prove_nonnegative(margin, {E: 1})
    if result.proven is None:
        result = sample_nonnegative(margin, _SAMPLING, rng)
    encoded = prove_identity(needed.subs(_SIGMA, Sigma_A), soft_beta_needed_stated).proven
    at_e1 = sp.simplify(worst.subs({E: 1, q: 0}))
    general = ("2 Sigma_A/((1 - r) eps T) with r = Gamma_pf/Gamma_st (fedsgm.derived.soft_beta)" if encoded
               else str(needed.subs(_SIGMA, Sigma_A)))
    evidence = (f"c = S_bar(eta; Gamma_pf)/eps = {c}; step 4 needs beta >= {needed.subs(_SIGMA, Sigma_A)} (equals "
                f"fedsgm.derived.soft_beta's condition: {'yes' if encoded else 'no'}); at Sigma_A -> T: beta >= "
                f"{worst}, at E = 1, q_u = 0: beta >= {at_e1}; stated beta >= {stated}; stated - needed = "
                f"{sp.factor(margin)}" + (f"; counterexample {fmt_point(result.counterexample)}" if result.counterexample else ""))
    outcome = {True: ">= 0", None: "not refuted", False: "refuted"}[result.proven]
    method = f"sympy solve; stated - needed {outcome} ({result.method})"
    if result.proven is not False:
        return Finding("fedsgm.soft.beta", "statement-vs-proof", ("fedsgm.thm2", "fedsgm.thm7", "fedsgm.thm9"),
                       CONSISTENT, f"With these eps and eta the soft proof's step 4 needs beta >= {worst} at most "
                       f"(c = {c}), which the stated beta >= {stated} covers.", evidence, method)
    return Finding(
        "fedsgm.soft.beta", "statement-vs-proof", ("fedsgm.thm2", "fedsgm.thm7", "fedsgm.thm9"), DISCREPANCY,
        f"{THM2_BETA_QUOTE}; {THM7_PROOF_QUOTE}. That sufficient condition is what step 4 needs when the left side "
        "of (10) is 0.5 eps T (the proof's eps); with the stated eps and eta it is c eps T with c = S_bar(eta_st; "
        f"Gamma_pf)/eps_st (= {c.subs({E: 1, q: 0})} at E = 1, q_u = 0), and step 4 then gives f(w_bar) - f* <= eps "
        f"only if beta >= {general}: up to {at_e1} at E = 1, q_u = 0 as Sigma_A -> T -- not the stated beta >= "
        f"{stated}. The theorem may still hold, but its proof does not establish it at the stated constants (the "
        "adversarial search tries to break it).", evidence, method)


# ---------------------------------------------------------------------------- mode and hypotheses
#: Theorem 7 as printed: "Under Assumption 1 ..." (Appendix A.2.2), and its proof: "using Lemmas 3 ..."
THM7_STATED_ASSUMPTIONS = ("Assumption 1",)
THM7_PROOF_USES = ("fedsgm.lemma3",)


def _mode_gap_theorems() -> tuple[str, ...]:
    """The theorems stated deterministically that involve compression (q_u among their symbols) while the summed
    inequality their proofs rest on, (S), holds only in expectation over the compressors: computed from the encoded
    claims' modes and symbols."""
    from . import claims as B
    if B.S_summed.mode is not Mode.EXPECTATION or q not in B.S_summed.domains:
        return ()
    return tuple(c.id for c in B.THEOREMS if c.mode is Mode.DETERMINISTIC and q in c.domains)


def _assumptions_used(claim) -> set[str]:
    """The assumptions a claim's encoded proof steps name ("Assumption k" in a step label)."""
    return {m for label, _ in claim.steps for m in re.findall(r"Assumption \d+", label)}


@producer
def mode_finding() -> Finding | None:
    """fedsgm.mode: present only while some compressed theorem is stated deterministically over an (S) that holds in
    expectation (:func:`_mode_gap_theorems`)."""
    from . import claims as B
    gap = _mode_gap_theorems()
    if not gap:
        return None
    return Finding(
        "fedsgm.mode", "mode", gap, DISCREPANCY,
        f"{', '.join(gap)} are stated deterministically (Theorem 1, Section 3: 'then A is nonempty, w_bar is "
        "well-defined, and w_bar is an eps-solution of (1)'), but with compression the proofs rest on (S), which is "
        f"in {B.S_summed.mode.value} over the compressors (round by round), so they bound E[S_T] only; the sets A, "
        "B and w_bar are random and the deterministic conclusion does not follow. The suite checks the stated "
        "(deterministic) mode on every compressed run and reports E[S_T] separately (Monte Carlo).",
        "proof of Theorem 6 (Appendix A.2.1): 'Taking the expectation with respect to the compression operator C_j "
        f"and using Lemmas 3 and 4, we get'; encoded modes: {', '.join(f'{c} {B.claim(c).mode.value}' for c in gap)}, "
        f"fedsgm.S_summed {B.S_summed.mode.value}", "encoded modes of the statements and of (S)")


@producer
def thm7_assumptions_finding() -> Finding | None:
    """fedsgm.thm7.assumptions: present only when Lemma 3's encoded steps name an assumption Theorem 7's statement
    (:data:`THM7_STATED_ASSUMPTIONS`) does not."""
    from . import claims as B
    claims = {c.id: c for c in B.CLAIMS}
    needed = set().union(*(_assumptions_used(claims[c]) for c in THM7_PROOF_USES))
    missing = sorted(needed - set(THM7_STATED_ASSUMPTIONS))
    if not missing:
        return None
    return Finding(
        "fedsgm.thm7.assumptions", "hypotheses", ("fedsgm.thm7",), DISCREPANCY,
        f"Theorem 7 (Appendix A.2.2) is stated 'under {', '.join(THM7_STATED_ASSUMPTIONS)}' only, but its proof "
        f"uses {', '.join(THM7_PROOF_USES)} ('using Lemmas 3'), whose steps need {', '.join(missing)} (unbiased "
        "compression with variance q).", "Theorem 7 statement vs 'using Lemmas 3' in its proof; assumptions named "
        f"by the encoded steps of {', '.join(THM7_PROOF_USES)}: {', '.join(sorted(needed))}",
        "the statement's assumptions vs those the encoded proof steps name")


def _mode_and_assumption_findings() -> list:
    """fedsgm.mode and fedsgm.thm7.assumptions, each present only when its computation finds the discrepancy."""
    return [f for f in (mode_finding(), thm7_assumptions_finding()) if f is not None]


# ---------------------------------------------------------------------------- proof algebra and rates
def _proof_identities(rng) -> list:
    """The displayed constants and the proofs' algebraic steps, as sympy identities and dominations."""
    gamma = sp.Symbol("Gamma", positive=True)
    [argmin] = sp.solve(sp.diff(summed_bound(eta, gamma), eta), eta)
    return [
        identity("fedsgm.thm8.display", ("fedsgm.thm8", "fedsgm.thm1"), EPS_THM8, eps_of(2 * E**2),
                 "Theorem 8's displayed eps equals eps(Gamma) with Gamma = 2E^2."),
        identity("fedsgm.thm8.display.eta", ("fedsgm.thm8", "fedsgm.thm1"), ETA_THM8, eta_of(2 * E**2),
                 "Theorem 8's displayed eta equals eta(Gamma) with Gamma = 2E^2."),
        identity("fedsgm.closed_form.eps", ("fedsgm.thm1",), EPS_STATED, D * G * sp.sqrt((4 * E + q / n) / T),
                 "eps(Gamma_st) = DG sqrt((4E + q_u/n)/T)."),
        identity("fedsgm.eta.argmin", ("fedsgm.S_summed",), argmin, eta_of(gamma),
                 "eta(Gamma) minimises S_bar(eta; Gamma) (the proofs' step-size choice)."),
        identity("fedsgm.eps.min", ("fedsgm.S_summed",), summed_bound(eta_of(gamma), gamma), eps_of(gamma),
                 "min_eta S_bar(eta; Gamma) = eps(Gamma)."),
        identity("fedsgm.gamma_pf.bracket", ("fedsgm.R_hard", "fedsgm.S_summed"),
                 eta**2 * G**2 * ((q / n + 1) * E**2 + 2 * E + sp.Rational(2, 3) * E**3) / (2 * eta * E),
                 eta * G**2 * Gamma_proof, "The bracket of the hard round (display 9 of the proofs of Theorems 6 and "
                 "8) divided by 2 eta E is eta G^2 Gamma_pf."),
        identity("fedsgm.soft.step4", ("fedsgm.thm7.proof",), step4_bound(sp.Rational(1, 2)) - eps,
                 (-sp.Rational(1, 2) * eps * T + _SIGMA / beta) / (_A_SIZE - _SIGMA),
                 "The soft proof's step-4 rearrangement is an identity."),
        identity("fedsgm.lemma5.sum", ("fedsgm.lemma5",), sp.summation(tau**2, (tau, 0, E - 1)),
                 (E - 1) * E * (2 * E - 1) / 6, "sum_{tau<E} tau^2 = (E-1)E(2E-1)/6."),
        dominates("fedsgm.lemma5.cube", ("fedsgm.lemma5",), E**3 / 3, (E - 1) * E * (2 * E - 1) / 6,
                  {E: 1}, _SAMPLING, rng, "(E-1)E(2E-1)/6 <= E^3/3 for E >= 1.",
                  "Lemma 5's last step fails for some E."),
    ]


#: the exponent of 1/eps in the round complexity that an O(1/sqrt(T)) rate means (T ~ eps^-2)
RATE_EXPONENT = 2


@producer
def complexity_order(rounds: sp.Expr = ROUNDS_STATED) -> Finding:
    """fedsgm.complexity.order: the exponent p of T(eps) = Theta(eps^-p), computed by sympy, against
    :data:`RATE_EXPONENT`."""
    p = order_in_inverse_eps(rounds, eps)
    ok = p == RATE_EXPONENT
    return Finding("fedsgm.complexity.order", "stated-rate", ("fedsgm.complexity", "fedsgm.thm1"),
                   CONSISTENT if ok else DISCREPANCY,
                   f"Rounds needed for an eps-solution grow as eps^-{p}, "
                   + ("matching" if ok else f"not eps^-{RATE_EXPONENT} as") + " the O(1/sqrt(T)) rate.",
                   f"T(eps) = {rounds}", "sympy solve + limit")


def _stated_rates(rng) -> list:
    """The rates quoted for the special cases and the round complexity, against the general bound."""
    out = [rate_comparison(f"{case.claim.id}.rate", (case.claim.id, "fedsgm.thm1"), case.implied, case.quoted,
                           case.free, _SAMPLING, rng) for case in SPECIAL_CASES]
    out.append(rate_comparison("fedsgm.case.general.proof_rate", ("fedsgm.case.general", "fedsgm.S_summed"),
                               sp.simplify(eps_of(Gamma_proof)), SPECIAL_CASES[-1].quoted, SPECIAL_CASES[-1].free,
                               _SAMPLING, rng))
    out.append(complexity_order())
    out.append(identity("fedsgm.claim5.shared", ("fedsgm.thm1", "fedsgm.thm2"), SHARED_CONSTANTS[0] ** 2
                        + SHARED_CONSTANTS[1] ** 2, sp.Integer(0),
                        "Theorems 1 and 2 prescribe the same eps and eta ('without altering the rate')."))
    return out


# ---------------------------------------------------------------------------- Figure 1's settings
#: relative tolerance of the comparison beta >= 2/eps: the figure sets beta = 2/eps exactly (on the boundary), so
#: the float 2/0.1 must not decide it by rounding
BETA_RTOL = 1e-12


def settings_findings(values: dict) -> list:
    """Experiment settings vs the theorems they illustrate (Figure 1; values measured by repro).

    ``values``: T, E, n, q_u, G, eps, eta, beta and ``D`` (None when problem (1) has no minimiser, as the solver
    decided). Optional ``tag`` (an id suffix) and ``reading`` (which problem (1) D belongs to).
    """
    return [figure1_beta(values), figure1_eps(values)]


@producer
def figure1_beta(values: dict) -> Finding:
    """fedsgm.figure1.beta: the figure's beta against Theorem 2's beta >= 2/eps (relative tolerance
    :data:`BETA_RTOL`)."""
    bound = float(_stated_beta().subs(eps, values["eps"]))
    ok = values["beta"] >= bound * (1 - BETA_RTOL)
    return Finding("fedsgm.figure1.beta", "experiment-settings", ("fedsgm.thm2",), CONSISTENT if ok else DISCREPANCY,
                   f"Figure 1's beta {'satisfies' if ok else 'violates'} {THM2_BETA_QUOTE}.",
                   f"beta = {values['beta']}, 2/eps = {bound} (relative tolerance {BETA_RTOL:g})", "numeric")


def _figure1_numbers(values: dict) -> dict:
    """The theorems' eps and eta per unit D at the figure's T, E, n, q_u, G; the rounds T(eps) per unit D^2 for the
    figure's eps; and the largest D for which the figure's eps (equivalently its T) is in the theorems' regime."""
    sub = {E: values["E"], T: values["T"], n: values["n"], q: sp.nsimplify(values["q_u"]), G: values["G"]}
    eps_per_D = float(EPS_STATED.subs(sub).subs(D, 1))
    rounds_per_D2 = float(ROUNDS_STATED.subs(sub).subs(eps, values["eps"]).subs(D, 1))
    return {"eps_per_D": eps_per_D, "eta_per_D": float(ETA_STATED.subs(sub).subs(D, 1)),
            "rounds_per_D2": rounds_per_D2, "D_from_eps": values["eps"] / eps_per_D,
            "D_from_rounds": float(np.sqrt(values["T"] / rounds_per_D2))}


@producer
def figure1_eps(values: dict) -> Finding:
    """fedsgm.figure1.eps (merged with the rounds the theorems need): Theorems 1-2 fix eps from D and T; Figure 1
    fixes eps = 0.1 and T = 100. With the D the solver measured, are the figure's (eps, T) in the theorems' regime
    (eps >= eps_st(D), equivalently T >= T(eps) = rounds_per_D2 D^2)? Not checkable when problem (1) has no
    minimiser (D is None): the evidence then gives the largest D the figure's eps and T would admit."""
    x = _figure1_numbers(values)
    tag, reading = values.get("tag", ""), values.get("reading", "the figure's problem (1)")
    claims = ("fedsgm.thm1", "fedsgm.thm2", "fedsgm.complexity")
    evidence = (f"eps_st / D = {x['eps_per_D']:.4g}, eta_st / D = {x['eta_per_D']:.4g}, T(eps = {values['eps']}) = "
                f"{x['rounds_per_D2']:.4g} D^2 at T={values['T']}, E={values['E']}, n={values['n']}, "
                f"q_u={values['q_u']:.4g}, G={values['G']:.4g}; largest D for eps_st <= {values['eps']}: "
                f"{x['D_from_eps']:.4g}, for T(eps) <= {values['T']}: {x['D_from_rounds']:.4g}")
    if values.get("D") is None:
        return Finding(
            f"fedsgm.figure1.eps{tag}", "experiment-settings", claims, NOT_CHECKABLE,
            f"{THM1_CONSTANTS_QUOTE}; {FIGURE1_EPS_QUOTE}, over T = {values['T']} rounds. D = ||w0 - w*|| is undefined "
            f"({reading} has no minimiser), so whether the figure is in the theorems' regime cannot be decided: it "
            f"would need D <= {x['D_from_eps']:.3g} (then T(eps) = {x['rounds_per_D2']:.4g} D^2 <= {values['T']}), "
            f"and the theorem's step size would be eta = {x['eta_per_D']:.3g} D instead of the figure's eta = "
            f"{values['eta']}.", evidence, "numeric")
    eps_th, rounds = x["eps_per_D"] * values["D"], x["rounds_per_D2"] * values["D"] ** 2
    ok = values["eps"] >= eps_th
    return Finding(
        f"fedsgm.figure1.eps{tag}", "experiment-settings", claims, CONSISTENT if ok else DISCREPANCY,
        f"{THM1_CONSTANTS_QUOTE}; {FIGURE1_EPS_QUOTE}. For {reading}, D = {values['D']:.4g}: the theorems' eps at "
        f"T = {values['T']} is {eps_th:.4g} and they need T = {rounds:.4g} rounds for eps = {values['eps']}, so the "
        f"figure is {'inside' if ok else 'outside'} the theorems' regime.",
        evidence + f"; theorem eta = {x['eta_per_D'] * values['D']:.4g}, figure eta = {values['eta']}", "numeric")
