"""FedSGM (Upadhyay, Moon, Hashemi; OPT 2025): every displayed step of every proof the paper prints, and what checks it.

The main text proves nothing ("The details of the proof are present in the Appendix A"); the appendix prints seven
proofs: Lemmas 3, 4, 5 (A.1) and Theorems 6, 7 (A.2, with compression), 8, 9 (A.3, without). Each is listed here
display by display, in the paper's order, as a :class:`bounds.proofs.Display`.

Reading conventions (named, as the inventory is data read from the paper):

* A step is a relation set on its own line: each relation line of an aligned chain is one step (``line m``,
  counted as the paper prints the lines); a line continued by "+ ..." belongs to the line it continues. A display
  that is a bare expression with no relation (the first display of Lemma 3's proof) is not a step and is not listed.
* ``label``: the paper's equation number where it has one, e.g. ``(7) line 2``; otherwise ``display k`` with k
  counting every display block of that proof from its start (numbered ones and the unlisted bare expression too),
  so that a reader finds it by counting.
* A display that only restates an earlier one of the same proof is listed once: the first line of (7) and (14)
  restates the display just before them, and the first line "Term-B = ...", "Term-B1 = ...", "Term-B2 = ..." of a
  chain restates that term's definition (an underbrace of an earlier display); such lines are not listed. The
  proofs of Theorems 7-9 repeat displays of the proof of Theorem 6 word for word (the update rule, the convexity and
  Young steps); every proof's own displays are listed in that proof, since coverage is counted per proof.
* ``checked_by``: the ids of what in the suite checks that display -- claims of :data:`bounds.fedsgm.claims.CLAIMS`,
  ``"<claim id>#<step label>"`` for a step of a claim's ``steps`` (checked on every run by
  :func:`repro.verify.check_chain`), findings of ``repro.papers.fedsgm.audit.findings({})`` (symbolic identities
  and dominations), and ``fedsgm.algorithm1.server_step`` (:data:`repro.papers.fedsgm.checks.SERVER_STEP`, the
  per-run check of the server update (4)/(11): exact without compression, and with compression a z-test of the
  realised ||aggregate||^2 against ||mean_j X_j||^2 + q_u/n^2 sum_j ||X_j||^2, the Rand-K value of Lemma 3's
  variance step). A check is linked only when it checks that display itself; a check of a sum of two displays
  (Lemma 4 and its soft form check Term-A + Term-B per term, not each bound) or of a consequence several displays
  later (the theorems' eps-solution) is not linked to the displays it combines. Two links are weaker than the
  display, and say so where they stand: Lemma 5's per-tau bound is checked summed over tau, and (6) is checked in
  its "< eps" and "g(w_bar) <= eps" parts. (5), (12) and the hard round (display 9 of the proofs of Theorems 6
  and 8), stated for any Young parameter a > 0, are checked at a = eta, the value the proofs then set. Display 9 of
  the proof of Theorem 7 (the soft round summed) prints
  "eta E G^2 T/3" where its own next display and the proof of Theorem 9 have E^2; the suite checks the E^2 reading,
  so that display is left unchecked.
"""
from __future__ import annotations

from ..proofs import Display

# ---------------------------------------------------------------------------- ids of the checks (read from the suite)
L3 = "fedsgm.lemma3"
L3_VAR = "fedsgm.lemma3#variance decomposition, independent unbiased C_j, Assumption 2"
L3_JENSEN = "fedsgm.lemma3#Jensen: ||mean_j X_j||^2 <= mean_j ||X_j||^2"
L3_LOCAL = "fedsgm.lemma3#Jensen over local steps: ||X_j||^2 <= E sum_tau ||nu||^2"
L3_LIP = "fedsgm.lemma3#||nu|| <= G"
L5 = "fedsgm.lemma5"
L5_TAU = "fedsgm.lemma5#||w_t - w_{j,tau}||^2 <= eta^2 tau^2 G^2, summed"
L5_SUM = "fedsgm.lemma5#sum of squares <= E^3/3"
SERVER = "fedsgm.algorithm1.server_step"
EQ5, R_HARD, R_SOFT, S_SUMMED = "fedsgm.eq5", "fedsgm.R_hard", "fedsgm.R_soft", "fedsgm.S_summed"
# findings (symbolic)
BRACKET = "fedsgm.gamma_pf.bracket"      # the hard round's bracket / (2 eta E) = eta G^2 Gamma_pf
EPS_MIN = "fedsgm.eps.min"               # S_bar(eta(Gamma); Gamma) = eps(Gamma)
STEP4 = "fedsgm.soft.step4"              # the soft proof's last rearrangement
L5_SUM_ID = "fedsgm.lemma5.sum"          # sum_{tau<E} tau^2 = (E-1)E(2E-1)/6
L5_CUBE = "fedsgm.lemma5.cube"           # (E-1)E(2E-1)/6 <= E^3/3

P_L3 = "Proof of Lemma 3 (Appendix A.1)"
P_L4 = "Proof of Lemma 4 (Appendix A.1)"
P_L5 = "Proof of Lemma 5 (Appendix A.1)"
P_T6 = "Proof of Theorem 6 (Appendix A.2.1)"
P_T7 = "Proof of Theorem 7 (Appendix A.2.2)"
P_T8 = "Proof of Theorem 8 (Appendix A.3.1)"
P_T9 = "Proof of Theorem 9 (Appendix A.3.2)"


def _hard(proof: str, compressed: bool) -> tuple[Display, ...]:
    """The proofs of Theorems 6 (``compressed``) and 8 print the same chain, (4)-(8) and (11)-(15); q_u = 0 in 8."""
    thm = "fedsgm.thm6.proof" if compressed else "fedsgm.thm8.proof"
    upd, rnd, case1, chain, last = ("(4)", "(5)", "(6)", "(7)", "(8)") if compressed else \
        ("(11)", "(12)", "(13)", "(14)", "(15)")
    q = "(q/n+1)" if compressed else ""
    head = [Display(proof, upd, "w_{t+1} = w_t - eta (1/n) sum_j C_j(sum_tau nu)" if compressed
                    else "w_{t+1} = w_t - eta (1/n) sum_j sum_tau nu", (SERVER,))]
    if compressed:
        head += [
            Display(proof, "display 2", "sum_tau nu_{j,tau} = (w_t - w_{j,E})/eta"),
            Display(proof, "display 3 line 1", "||w_{t+1}-w*||^2 = ||w_t - eta mean C_j(.) - w*||^2"),
            Display(proof, "display 3 line 2", "= ||w_t-w*||^2 + eta^2||mean C||^2 - 2eta<.,.>"),
            Display(proof, rnd, "E||w_{t+1}-w*||^2 <= ... + eta a E G^2 + drift + gaps", (EQ5,)),
        ]
        k = 5
    else:
        head += [
            Display(proof, "display 2 line 1", "||w_{t+1}-w*||^2 = ||w_t - eta mean sum nu - w*||^2"),
            Display(proof, "display 2 line 2", "= ||w_t-w*||^2 + eta^2 Term-A - 2eta Term-B"),
            # Jensen over clients and local steps at once: lemma3's steps 2 and 3 at q_u = 0 (every run checks them)
            Display(proof, "display 3 line 1", "Term-A <= eta^2 (1/n) sum_j E sum_tau ||nu||^2", (L3_JENSEN, L3_LOCAL)),
            Display(proof, "display 3 line 2", "Term-A <= eta^2 E^2 G^2 (G-Lip)", (L3_LIP, L3)),
            Display(proof, rnd, "||w_{t+1}-w*||^2 <= ... + eta a E G^2 + drift + gaps", (EQ5,)),
        ]
        k = 5
    return tuple(head) + (
        Display(proof, f"display {k} line 1", "f_j(w_jtau) >= f_j(w_t) + <grad f_j(w_t), w_jtau - w_t>"),
        Display(proof, f"display {k} line 2", "=> f_j(w*) - f_j(w_jtau) <= f_j(w*) - f_j(w_t) - <.,.>"),
        Display(proof, f"display {k + 1}", "-<grad f_j(w_t), w_jtau-w_t> <= |.|^2/(2a) + a|grad|^2/2"),
        Display(proof, f"display {k + 2} line 1", "f_j(w*)-f_j(w_jtau) <= f_j(w*)-f_j(w_t)+|.|^2/(2a)+.."),
        Display(proof, f"display {k + 2} line 2", "... <= f_j(w*)-f_j(w_t)+|w_t-w_jtau|^2/(2a)+aG^2/2"),
        Display(proof, f"display {k + 3}", "g_j(w*)-g_j(w_jtau) <= g_j(w*)-g_j(w_t)+|.|^2/(2a)+aG^2/2"),
        Display(proof, f"display {k + 4}", f"||w_t+1-w*||^2 <= ..{q}E^2G^2 + 2eta a E G^2 ..",
                (R_HARD,)),
        # the round above at a = eta (the runs' a) divided by 2 eta E; the bracket's algebra is the finding
        Display(proof, f"display {k + 5}", "gap_t <= (d_t - d_{t+1})/(2 eta E) + eta G^2 Gamma_pf",
                (R_HARD, BRACKET)),
        Display(proof, f"display {k + 6}", "S_T <= D^2/(2 eta E T) + eta G^2 Gamma_pf",
                (S_SUMMED, BRACKET)),
        # S_summed is checked at the run's own eta, the proof's eta(Gamma_pf) on the hard-proof runs
        Display(proof, f"display {k + 7}", "S_T <= sqrt(2 D^2 G^2 Gamma/(E T)) at eta(Gamma)",
                (S_SUMMED, EPS_MIN)),
        Display(proof, f"display {k + 8}", "eps_bad < (1/T) sum_B g(w_t) - g* <= sqrt(2D^2G^2Gam/(ET))"),
        # checked in its "< eps" and "g(w_bar) <= eps" parts by the runs at the proof's constants (N = 0)
        Display(proof, case1, "f(w_bar) - f* <= 0 < eps, g(w_bar) <= eps", (thm,)),
        Display(proof, f"{chain} line 2", "> (1/T) sum_A (f - f*) + (1/T) sum_B eps"),
        Display(proof, f"{chain} line 3", "= |A|/T mean_A (f - f*) + (1 - |A|/T) eps"),
        Display(proof, f"{chain} line 4", ">= |A|/T (f(w_bar) - f*) + (1 - |A|/T) eps"),
        Display(proof, last, "|A|/T (f(w_bar)-f*-eps) < sqrt(.) - eps <= -N sqrt(.)"),
    )


def _soft(proof: str, compressed: bool) -> tuple[Display, ...]:
    """The proofs of Theorems 7 (``compressed``) and 9 print the same chain, ending in (10) and (18)."""
    thm_eq = "(10)" if compressed else "(18)"
    if compressed:
        head = (
            Display(proof, "display 1", "w_{t+1} = w_t - eta (1/n) sum_j C_j(sum_tau nu)", (SERVER,)),
            Display(proof, "display 2 line 1", "||w_{t+1}-w*||^2 = ||w_t - eta mean C_j(.) - w*||^2"),
            Display(proof, "display 2 line 2", "= ||w_t-w*||^2 + Term-A - Term-B"),
            # eta^2 times Lemma 3, which every run checks (sigma_t in [0, 1] keeps ||nu|| <= G)
            Display(proof, "display 3", "E_C[Term-A] <= eta^2 (q/n+1) E^2 G^2", (L3,)),
            Display(proof, "display 4 line 1", "E_C[Term-B] = -2eta <w_t-w*, mean_j sum_tau nu>"),
            Display(proof, "display 4 line 2", "= (1/n) sum_j sum_tau -2eta <w_t-w*, nu>"),
            Display(proof, "display 4 line 3", "= (1/n) sum_j sum_tau [Term-B1 + Term-B2]"),
        )
    else:
        head = (
            Display(proof, "display 1 line 1", "w_{t+1} = w_t - eta (1/n) sum_j sum_tau nu", (SERVER,)),
            Display(proof, "display 1 line 2", "nu = sigma grad g_j + (1 - sigma) grad f_j"),
            Display(proof, "(17) line 1", "||w_{t+1}-w*||^2 = ||w_t - eta mean sum nu - w*||^2"),
            Display(proof, "(17) line 2", "= ||w_t-w*||^2 + eta^2 Term-A + Term-B"),
            Display(proof, "display 3 line 1", "Term-A <= eta^2 (1/n) sum_j E sum_tau ||nu||^2", (L3_JENSEN, L3_LOCAL)),
            Display(proof, "display 3 line 2", "Term-A <= eta^2 E^2 G^2 (G-Lip, sigma in [0,1])", (L3_LIP, L3)),
            Display(proof, "display 4 line 2", "Term-B = (1/n) sum_j sum_tau -2eta <w_t-w*, nu>"),
            Display(proof, "display 4 line 3", "= (1/n) sum_j sum_tau [Term-B1 + Term-B2]"),
        )
    summed = ("D^2/(2eta E) + eta/2 (q/n+1)EG^2T + .. + eta E G^2 T/3 >= .." if compressed
              else "D^2/(2eta E) + eta E G^2 T/2 + .. + eta E^2 G^2 T/3 >= ..")
    return head + (
        Display(proof, "display 5 line 2", "Term-B1 = -2eta sigma <.,g_j> - 2eta(1-sigma) <.,f_j>"),
        Display(proof, "display 5 line 3", "Term-B1 <= sigma[eta/a|.|^2 + eta a|grad g|^2] + (1-s)[..]"),
        Display(proof, "display 5 line 4", "Term-B1 <= (eta/a)||w_t - w_jtau||^2 + eta a G^2"),
        Display(proof, "display 6 line 2", "Term-B2 = -2eta sigma <.,g_j> - 2eta(1-sigma) <.,f_j>"),
        Display(proof, "display 6 line 3", "Term-B2 <= 2eta sigma (g_j* - g_j(w_jtau)) + 2eta(1-s)(..)"),
        Display(proof, "display 6 line 4", "Term-B2 <= 2eta sigma [g_j*-g_j(w_t)+|.|^2/(2a)+aG^2/2]+.."),
        Display(proof, "display 7 line 1", "Term-B <= mean sum [2eta/a|.|^2 + 2eta a G^2 + gaps at w_t]"),
        Display(proof, "display 7 line 2", "Term-B <= 2eta^3E^3G^2/(3a) + 2eta a E G^2 + 2eta E gaps"),
        Display(proof, "display 8", "|w_t+1-w*|^2 <= .. + 2eta^2EG^2 + 2/3 eta^2E^3G^2",
                (R_SOFT,)),
        # summed, times T. The proof of Theorem 7 prints "eta E G^2 T/3" where the proof of Theorem 9 and the next
        # display (through Gamma_pf) have E^2: S_summed checks the E^2 reading, which is weaker than the printed
        # display for E > 1, so it is linked only where the paper prints E^2 (Theorem 9)
        Display(proof, "display 9", summed, () if compressed else (S_SUMMED,)),
        Display(proof, f"{thm_eq} line 1", "sqrt(2D^2G^2 T Gamma/E) >= sum_A s(g-g*) + ..(1-s)(f-f*)",
                (S_SUMMED, EPS_MIN)),
        Display(proof, f"{thm_eq} line 2", ">= sum_A (1-s)(f-f*) + eps|B| + (eps - 1/beta) sum_A s"),
        Display(proof, "display 11 line 1",
                "f(w_bar)-f* <= (0.5 eps T - eps|B| - (eps-1/b) S)/(|A|-S)"),
        Display(proof, "display 11 line 2",
                "= eps + (-0.5 eps T + S/beta)/(|A| - S)", (STEP4,)),
        Display(proof, "display 12", "beta >= 2 sum_A sigma_t / (eps T)"),
    )


DISPLAYS: tuple[Display, ...] = (
    # Lemma 3: display 1 is the bare expression E_C||(1/n) sum_j C_j(X_j)||^2 (no relation, not listed)
    Display(P_L3, "display 2", "E||Y||^2 = ||E Y||^2 + E||Y - E Y||^2"),
    Display(P_L3, "display 3 line 1", "E||mean C_j(X_j)||^2 = ||mean X_j||^2 + E||mean(C_j-X_j)||^2"),
    Display(P_L3, "display 3 line 2", "<= ||mean X_j||^2 + (1/n^2) sum_j E||C_j(X_j) - X_j||^2"),
    # lemma3's first step is an equality by construction (the closed Rand-K value); the server-step z-test checks
    # that value against the realised aggregates
    Display(P_L3, "display 4 line 1", "<= ||mean X_j||^2 + (q/n^2) sum_j ||X_j||^2", (L3_VAR, SERVER)),
    Display(P_L3, "display 4 line 2", "<= (1/n) sum_j ||X_j||^2 + (q/n^2) sum_j ||X_j||^2 (Jensen)",
            (L3_JENSEN,)),
    Display(P_L3, "display 4 line 3", "= (q/n + 1) (1/n) sum_j ||X_j||^2", (L3_JENSEN,)),
    Display(P_L3, "display 5 line 1", "(1/n) sum_j ||X_j||^2 <= (1/n) sum_j E sum_tau ||nu||^2",
            (L3_LOCAL,)),
    Display(P_L3, "display 5 line 2", "<= E^2 G^2 (G-Lip)", (L3_LIP,)),
    Display(P_L3, "display 6", "E_C||mean_j C_j(X_j)||^2 <= (q/n + 1) E^2 G^2", (L3,)),

    Display(P_L4, "display 1", "-2eta<w_t-w*, mean sum nu> = mean sum [Term-A + Term-B]"),
    Display(P_L4, "display 2", "f_j(w*) >= f_j(w_jtau) + <grad f_j(w_jtau), w* - w_jtau>"),
    Display(P_L4, "display 3", "-<w_jtau - w*, grad f_j(w_jtau)> <= f_j(w*) - f_j(w_jtau)"),
    Display(P_L4, "display 4", "Term-B <= 2eta (f_j(w*) - f_j(w_jtau))"),
    Display(P_L4, "display 5 line 1", "Term-A <= (eta/a)||w_t-w_jtau||^2 + eta a ||grad f_j||^2"),
    Display(P_L4, "display 5 line 2", "Term-A <= (eta/a)||w_t-w_jtau||^2 + eta a G^2 (G-Lip)"),
    Display(P_L4, "display 6", "Term-A (t in B) <= (eta/a)||w_t-w_jtau||^2 + eta a G^2"),

    Display(P_L5, "display 1 line 1", "||w_t-w_jtau||^2 = ||w_t - (w_t - eta sum_{k<tau} nu)||^2"),
    Display(P_L5, "display 1 line 2", "= eta^2 ||sum_{k<tau} nu_{j,k}||^2"),
    Display(P_L5, "display 1 line 3", "<= eta^2 tau sum_{k<tau} ||nu_{j,k}||^2 (Jensen)"),
    # checked summed over tau (the step's own reading), with the sum of tau^2 as a symbolic identity
    Display(P_L5, "display 1 line 4", "<= eta^2 tau^2 G^2 (G-Lip)", (L5_TAU, L5_SUM_ID)),
    Display(P_L5, "display 2", "sum_tau ||w_t - w_jtau||^2 <= eta^2 E^3 G^2 / 3",
            (L5_SUM, L5, L5_SUM_ID, L5_CUBE)),
) + _hard(P_T6, compressed=True) + _soft(P_T7, compressed=True) + _hard(P_T8, compressed=False) \
  + _soft(P_T9, compressed=False)

PROOFS = (P_L3, P_L4, P_L5, P_T6, P_T7, P_T8, P_T9)
"""The proofs the paper prints, in its order."""

__all__ = ["DISPLAYS", "PROOFS"]
