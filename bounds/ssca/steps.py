"""Mini-batch SSCA: the displayed steps of the appendices' proofs, each encoded as a falsifiable claim
(:class:`bounds.steps.Step`) and checked by experiment ``ssca.steps`` (:mod:`repro.proof_search`).

Each step carries the proof and label of its display in :data:`bounds.ssca.proofs.DISPLAYS`, the claim the proof
establishes, the hypotheses in force there, what the paper cites for it, and its ``reading``: how the display became
scalars (vectors as their coordinates in R^2, a function's values and gradients at points as free symbols tied by the
class's inequalities, as hypotheses or as every value they allow).

Conventions (named):

* Strong convexity of a surrogate F_bar with modulus mu (Assumption 2.2/2.3; Problem 2 is unconstrained, so
  grad F_bar(w_bar) = 0 at its minimiser w_bar) enters as the exact set of values and gradients it allows, written
  with slack symbols: F_bar(x) - F_bar(w_bar) = mu/2 ||x - w_bar||^2 + sigma (sigma >= 0), and where the gradient at x
  matters, grad F_bar(x) = (mu + kappa)(x - w_bar) + beta (x - w_bar)_perp with F_bar(x) - F_bar(w_bar) = (mu/2 + rho
  kappa) ||x - w_bar||^2 (kappa >= 0, rho in [0, 1]) -- exactly the pairs satisfying the two interpolation
  inequalities F(y) >= F(x) + <grad F(x), y - x> + mu/2 ||y - x||^2 between x and w_bar, each attained by a
  mu-strongly convex function. A violating point is therefore a counterexample in the function class. L_hat-smoothness
  of F_0 along a step is written the same way (F_0(y) - F_0(x) - <grad F_0(x), y - x> = varsigma L_hat/2 ||y - x||^2,
  varsigma in [-1, 1]).
* Likewise an inequality in force whose admissible region is too thin for the search to hit ((51) inside (54) and
  (64)-(65), the norms of (57)-(58) in (59) step 1, (54)-(55) in (56), (63)-(65) in (66), (75), the complementarity
  of (72)) is substituted as every point of it: the bounded side plus a slack symbol >= 0, or a fraction rho in [0, 1]
  of the bound; the reading names the slack. A step proven after such a substitution is proven under the hypothesis.
* A norm that a step only uses through its value (||Delta w(n)||, ||w_bar - w||, the tracking error) is a nonnegative
  symbol; vectors the step combines are coordinates in R^2.
* A step that follows from earlier displays has them (as printed) among its hypotheses, together with the function
  class facts in force (so a step is not blamed for an earlier display's error, and the earlier display's error is
  reported where it is printed).
* Sums over an index window are written for a fixed short window (i_t = t + 2 in (59), t + 3 in (66), t = t0 + 2 in
  (56)); the step sizes gamma^(n) of the window are separate symbols.
* The proof of Theorems 1 and 3 is one proof ("identical"); its steps carry ``ssca.thm1`` and ``ssca.thm3``
  (``ALSO``). Appendix B proves Theorems 2 and 4; its steps carry ``ssca.thm2`` and ``ssca.thm4``.

An existence statement whose finite content is an inequality ((55): some t0 and mu_bar; (63) step 2: some delta2) is
encoded through a witness of this project's (named in its reading): explicit thresholds on gamma and the error terms
under which the printed inequality holds, thresholds that the limits the proof cites make true for t large.
Displays that state a limit, the existence of an index set or a limit object, or an optimisation problem are not
finite relations: they are listed with the reason in :data:`NOT_ENCODED`. Every display of the inventory is either a step or there.
"""
from __future__ import annotations

import sympy as sp

from .proofs import DISPLAYS, L1, L2, L3, L4, L5, L6, T5, T13, T24
from ..steps import CORRECTED, PRINTED, Boxes, Step, Use

#: the encoded claim each proof establishes
CLAIM = {L3: "ssca.lemma3", L4: "ssca.lemma4", T13: "ssca.thm1", T24: "ssca.thm2", L1: "ssca.lemma1",
         T5: "ssca.thm5.i"}
#: the further theorems one printed proof establishes
ALSO = {T13: ("ssca.thm3",), T24: ("ssca.thm4",)}

# ---------------------------------------------------------------------------- symbols and their search boxes
_BOX = Boxes()
_sym = _BOX.symbols
VEC = (-3.0, 3.0)
VALUE = (-10.0, 10.0)


def _vec(name: str) -> tuple[sp.Symbol, sp.Symbol]:
    """A vector of R^2: the coordinates ``<name>1``, ``<name>2``, each in :data:`VEC` (``name`` must not end in a
    digit, which sympy would read as part of the range)."""
    if name[-1].isdigit():
        raise ValueError(f"vector name {name!r} ends in a digit")
    return _sym(f"{name}1:3", VEC, real=True)


def _vals(names: str):
    """Function values (real, in :data:`VALUE`)."""
    return _sym(names, VALUE, real=True)


mu, Lt, Lbar, Lhat, delta, chi = _sym("mu L_tilde L_bar L_hat delta chi", (0.1, 10.0), positive=True)
gam = _sym("gamma", (1e-3, 1.0), positive=True)
e, et, err, S = _sym("e e_tilde err S", (0.0, 5.0), nonnegative=True)
sig, sigA, sigB, kap = _sym("sigma sigma_A sigma_B kappa", (0.0, 10.0), nonnegative=True)
rho = _sym("rho", (0.0, 1.0), nonnegative=True)
bet = _sym("beta", (-5.0, 5.0), real=True)

# ---------------------------------------------------------------------------- vector and function-class helpers


def _sub(u, v):
    return tuple(a - b for a, b in zip(u, v))


def _lin(*terms):
    """sum of c * u over the (coefficient, vector) pairs ``terms``."""
    return tuple(sum(c * u[i] for c, u in terms) for i in range(2))


def _dot(u, v) -> sp.Expr:
    return sum(a * b for a, b in zip(u, v))


def _sq(u) -> sp.Expr:
    return _dot(u, u)


def _norm(u) -> sp.Expr:
    return sp.sqrt(_sq(u))


def _perp(u):
    return (-u[1], u[0])


def _min_gap(far, argmin, slack) -> sp.Expr:
    """F(far) - F(argmin) for F mu-strongly convex with its unconstrained minimiser at ``argmin``: mu/2 ||far -
    argmin||^2 + slack, slack >= 0 -- every value strong convexity allows (attained by a quadratic)."""
    return mu / 2 * _sq(_sub(far, argmin)) + slack


def _printed_growth(gap, far, argmin) -> sp.Ge:
    """(47)-(49) as printed: gap >= mu/2 ||far - argmin||, without the square."""
    return sp.Ge(gap, mu / 2 * _norm(_sub(far, argmin)))


def _sc_model(x, argmin) -> tuple[tuple, sp.Expr]:
    """(grad F(x), F(x) - F(argmin)) for F mu-strongly convex minimised at ``argmin`` (grad 0 there): grad F(x) =
    (mu + kappa) d + beta d_perp and F(x) - F(argmin) = (mu/2 + rho kappa) ||d||^2, d = x - argmin, kappa >= 0,
    rho in [0, 1], beta real. This is exactly the set of (gradient, value) pairs that satisfy the two interpolation
    inequalities F(y) >= F(x) + <grad F(x), y - x> + mu/2 ||y - x||^2 between x and argmin (d != 0)."""
    d = _sub(x, argmin)
    return _lin((mu + kap, d), (bet, _perp(d))), (mu / 2 + rho * kap) * _sq(d)


def _step(proof, label, lhs, relation, rhs, hypotheses=(), cites=(), reading="", **sides) -> Step:
    """A :class:`Step` of ``proof`` whose search box is every free symbol's declared box; ``sides``: its ``variant``
    and ``uses`` (:class:`bounds.steps.Step`)."""
    free = set().union(*(sp.sympify(x).free_symbols for x in (lhs, rhs, *hypotheses)))
    return Step(proof, label, CLAIM[proof], lhs, relation, rhs, {s: _BOX[s] for s in free}, tuple(hypotheses),
                tuple(cites), reading, ALSO.get(proof, ()), **sides)


#: the errata whose displays are encoded as printed and corrected (``repro.papers.ssca.errata``): (52) drops the
#: squares that strong convexity gives and (53) uses; (56) sums gamma(t) up to n = t where the two descents it adds
#: are those of n = t0, ..., t - 1; (73a) writes lambda_m grad F_0 where the KKT conditions of (72) give
#: lambda_m grad F_m
E52, E56, E73 = "ssca.lemma4.52", "ssca.thm13.56", "ssca.thm24.73a"


# ---------------------------------------------------------------------------- Appendix A, Lemma 3
wbA, wbB, wA, wB, wx = _vec("wbA"), _vec("wbB"), _vec("wA"), _vec("wB"), _vec("x")
F11, F22, G1, G2, eb1, eb2, D1, D2 = _vals("F11 F22 G1 G2 ebar1 ebar2 Dif1 Dif2")
f1a, f1b, f2a, f2b = _vals("fbar1a fbar1b fbar2a fbar2b")
_GAP = _norm(_sub(wbA, wbB))                      # ||w_bar(t1) - w_bar(t2)||
_MOVE = _norm(_sub(wA, wB))                       # ||w(t1) - w(t2)||
F12 = F11 + _min_gap(wbB, wbA, sigA)              # F_bar^(t1)(w_bar(t2)), F_bar^(t1) minimised at w_bar(t1)
F21 = F22 + _min_gap(wbA, wbB, sigB)              # F_bar^(t2)(w_bar(t1)), F_bar^(t2) minimised at w_bar(t2)
_R3 = ("w_bar(t1) = wbA, w_bar(t2) = wbB in R^2; F11 = min F_bar^(t1), F22 = min F_bar^(t2); strong convexity as "
       "values: F_bar^(t1)(w_bar(t2)) = F11 + mu/2 ||wbB - wbA||^2 + sigma_A, F_bar^(t2)(w_bar(t1)) = F22 + mu/2 "
       "||wbA - wbB||^2 + sigma_B, sigma_A, sigma_B >= 0 (every value Assumption 2.3 allows); ")


def _sc_cite(t: str) -> str:
    return f"strong convexity of F_bar^({t}) with modulus mu and optimality of w_bar({t}) (Assumption 2.3)"


def _lemma3_bounds() -> tuple[Step, ...]:
    """(43), (45), (46), (50)(b): the Lipschitz bookkeeping of Lemma 3 (Appendix A)."""
    return (
        _step(L3, "(43)", _GAP, "<=", 2 * Lt / mu * _MOVE + 2 * et / mu,
              (sp.Le(_GAP, S / mu), sp.Le(S / mu, 2 * Lt / mu * _MOVE + 2 * et / mu)),
              ("(50)", "'(43) follows from (50) immediately'"),
              "(43) with the proof's constants L_bar = 2 L_tilde/mu and e = (2/mu) e_tilde, from the two lines of (50) "
              "as hypotheses (S = the sum of the two absolute differences in (50)); w(t1) = wA, w(t2) = wB, "
              "w_bar(t1) = wbA, w_bar(t2) = wbB in R^2. The existence of L_bar and the limit e -> 0 are not encoded."),
        _step(L3, "(45)", sp.Abs((f1a + f2a) / 2 - (f1b + f2b) / 2), "<=", Lt * _MOVE,
              (sp.Le(sp.Abs(f1a - f1b), Lt * _MOVE), sp.Le(sp.Abs(f2a - f2b), Lt * _MOVE)),
              ("Assumption 2.3: f_bar Lipschitz in w'",),
              "G_0(w, w') = (1/N) sum_n f_bar_0(w, w', x_n) with N = 2 samples; fbar_n_a/b = f_bar_0(w, w(t1)/w(t2), "
              "x_n), each L_tilde-Lipschitz in w' (hypotheses); w(t1) = wA, w(t2) = wB in R^2."),
        _step(L3, "(46)", sp.Abs(G1 + eb1 - G2 - eb2), "<=", Lt * _MOVE + sp.Abs(eb1 - eb2),
              (sp.Le(sp.Abs(G1 - G2), Lt * _MOVE),), ("(44)", "(45)"),
              "F_bar^(ti)(w) = G_0(w, w(ti)) + ebar(ti) by (44) substituted (G1, G2 the G_0 values); (45) as "
              "hypothesis; e_tilde(t1, t2) := |ebar(t1) - ebar(t2)|, the remainder the proof leaves implicit (it "
              "vanishes with ebar). ebar is printed without its w-dependence; the step is at one w."),
        _step(L3, "(50)(b)", (sp.Abs(D1) + sp.Abs(D2)) / mu, "<=", 2 * Lt / mu * _MOVE + 2 * et / mu,
              (sp.Le(sp.Abs(D1), Lt * _MOVE + et), sp.Le(sp.Abs(D2), Lt * _MOVE + et)), ("(46)",),
              "Dif1 = F_bar^(t1)(w_bar(t1)) - F_bar^(t2)(w_bar(t1)), Dif2 the same at w_bar(t2); (46) at w = "
              "w_bar(t1) and w = w_bar(t2) as hypotheses; w(t1) = wA, w(t2) = wB in R^2."),
    )


def _lemma3_growth() -> tuple[Step, ...]:
    """(47)-(49) and (50)(a): strong convexity as printed (mu/2 ||.|| without the square), Lemma 3 (Appendix A)."""
    printed48, printed49 = _printed_growth(F12 - F11, wbB, wbA), _printed_growth(F21 - F22, wbA, wbB)
    return (
        _step(L3, "(47)", _min_gap(wx, wbA, sig), ">=", mu / 2 * _norm(_sub(wx, wbA)), (), (_sc_cite("t1"),),
              "Printed: F_bar^(t1)(w) - F_bar^(t1)(w_bar(t1)) >= mu/2 ||w - w_bar(t1)|| (no square). w = x, w_bar(t1) "
              "= wbA in R^2; the left side is every value strong convexity at the minimiser allows: mu/2 ||x - "
              "wbA||^2 + sigma, sigma >= 0 (sigma = 0: F_bar^(t1) = F11 + mu/2 ||. - wbA||^2)."),
        _step(L3, "(48)", F12 - F11, ">=", mu / 2 * _GAP, (printed48,), ("(47) with w = w_bar(t2)",),
              _R3 + "hypothesis: (47) as printed at w = w_bar(t2)."),
        _step(L3, "(49)", F21 - F22, ">=", mu / 2 * _GAP, (), (_sc_cite("t2"),),
              "Printed: F_bar^(t2)(w_bar(t1)) - F_bar^(t2)(w_bar(t2)) >= mu/2 ||w_bar(t1) - w_bar(t2)|| (no square). "
              + _R3),
        _step(L3, "(50)(a)", _GAP, "<=", (sp.Abs(F11 - F21) + sp.Abs(F12 - F22)) / mu, (printed48, printed49),
              ("(48)", "(49)"),
              _R3 + "hypotheses: (48) and (49) as printed (no square). From strong convexity alone (the squared "
              "forms) the same argument gives mu ||.||^2 <= ..., not mu ||.|| <= ..."),
    )


# ---------------------------------------------------------------------------- Appendix A, Lemma 4
w, wb, wp, gF = _vec("w"), _vec("wb"), _vec("wp"), _vec("gF")
Sb = _vals("Sb")
theta = _sym("theta", (0.0, 3.1416), real=True)
s1, s2, vs = _sym("s1 s2 varsigma", (-1.0, 1.0), real=True)
_DW = _sub(wb, w)                                                      # w_bar^(t) - w^(t)
_D = _norm(_DW)
gS, _SGAP = _sc_model(w, wb)                                           # grad F_bar(w), F_bar(w) - F_bar(w_bar)
Sw = Sb + _SGAP
_LIN4 = gam * _dot(_DW, gF) + Lhat / 2 * gam**2 * _D**2                # (53) line 2's right side
_R4 = ("w = w^(t), wb = w_bar^(t), gF = grad F_0(w^(t)) in R^2; F_bar = F_bar_0^(t) mu-strongly convex with minimiser "
       "wb: grad F_bar(w) = (mu + kappa)(w - wb) + beta (w - wb)_perp, F_bar(w) = Sb + (mu/2 + rho kappa)||w - wb||^2, "
       "kappa >= 0, rho in [0, 1] (exactly the pairs strong convexity allows); ")
_SC4 = "strong convexity of F_bar^(t) with modulus mu (Assumption 2.2), grad F_bar^(t)(w_bar^(t)) = 0"


def _end4(grad) -> sp.Expr:
    """(51)'s right side (= (53) line 4's): g D ||grad F_0(w) - grad|| - g (mu - L_hat g/2) D^2."""
    return gam * _D * _norm(_sub(gF, grad)) - gam * (mu - Lhat * gam / 2) * _D**2


def _quadratic_excess(v) -> sp.Expr:
    """v^T A v / 2 for the general symmetric A with ||A||_2 <= L_hat: A = L_hat R(theta) diag(s1, s2) R(theta)^T."""
    c, s = sp.cos(theta), sp.sin(theta)
    return Lhat / 2 * (s1 * (c * v[0] + s * v[1])**2 + s2 * (-s * v[0] + c * v[1])**2)


def _lemma4_statement() -> tuple[Step, ...]:
    """(51) and (52), Lemma 4 (Appendix A); (52) as printed and with the squares strong convexity gives (erratum
    :data:`E52`), its second step and (53) step 4 then starting from the corrected form."""
    descent = gam * _dot(_DW, gF) + vs * Lhat / 2 * gam**2 * _D**2     # F_0(w^(t+1)) - F_0(w^(t))
    printed, corrected = ((E52, PRINTED),), ((E52, CORRECTED),)
    return (
        _step(L4, "(51)", descent, "<=", _end4(gS), (), ("L_hat-Lipschitz grad F_0", "update (5)", _SC4),
              _R4 + "F_0(w^(t+1)) - F_0(w^(t)) = gamma <w_bar - w, gF> + varsigma L_hat/2 gamma^2 ||w_bar - w||^2, "
              "varsigma in [-1, 1] (every value L_hat-smoothness allows along the update (5))."),
        _step(L4, "(52) step 1", _dot(gS, _DW), "<=", -mu * _D + Sb - Sw, (), (_SC4,),
              _R4 + "printed: grad F_bar^T (w_bar - w) <= -mu ||w_bar - w|| + F_bar(w_bar) - F_bar(w) (no square).",
              variant=printed),
        _step(L4, "(52) step 2", -mu * _D + Sb - Sw, "<=", -mu * _D, (), ("optimality of w_bar^(t)",), _R4,
              variant=printed, uses=("(52) step 1",)),
        _step(L4, "(52) step 1", _dot(gS, _DW), "<=", -mu / 2 * _D**2 + Sb - Sw, (), (_SC4,),
              _R4 + "corrected: grad F_bar^T (w_bar - w) <= -(mu/2) ||w_bar - w||^2 + F_bar(w_bar) - F_bar(w), "
              "strong convexity at w.", variant=corrected),
        _step(L4, "(52) step 2", -mu / 2 * _D**2 + Sb - Sw, "<=", -mu * _D**2, (), ("optimality of w_bar^(t)",),
              _R4 + "corrected: F_bar(w) - F_bar(w_bar) >= (mu/2) ||w - w_bar||^2 at the minimiser.",
              variant=corrected, uses=("(52) step 1",)),
        _step(L4, "(53) step 4", _LIN4, "<=", _end4(gS), (sp.Le(_dot(gS, _DW), -mu * _D**2),),
              ("Cauchy-Schwarz", "(52)"), _R4 + "hypothesis: (52) corrected (-mu ||.||^2), the form (53) needs.",
              variant=corrected, uses=("(52) step 2",)),
    )


def _chain_end(grad, reading: str) -> Step:
    """(53) step 4 for the surrogate gradient ``grad`` = grad F_bar^(t)(w^(t)), with (52) as printed as hypothesis
    (what else is in force is what ``grad`` is built from)."""
    return _step(L4, "(53) step 4", _LIN4, "<=", _end4(grad), (sp.Le(_dot(grad, _DW), -mu * _D),),
                 ("Cauchy-Schwarz", "(52)"), reading)


def _lemma4_chain() -> tuple[Step, ...]:
    """(53), Lemma 4 (Appendix A)."""
    v = _sub(wp, w)
    vnext = _sub(_lin((1 - gam, w), (gam, wb)), w)                      # w^(t+1) - w^(t) by the update (5)
    return (
        _step(L4, "(53) step 1", _dot(v, gF) + _quadratic_excess(v), "<=", _dot(v, gF) + Lhat / 2 * _sq(v), (),
              ("L_hat-Lipschitz grad F_0",),
              "F_0 a quadratic F_0(w) + <gF, x - w> + (x - w)^T A (x - w)/2 with A = L_hat R(theta) diag(s1, s2) "
              "R(theta)^T, s1, s2 in [-1, 1] (every symmetric A with ||A|| <= L_hat); w^(t+1) = wp free in R^2."),
        _step(L4, "(53) step 2", _dot(vnext, gF) + Lhat / 2 * _sq(vnext), "<=", _LIN4, (), ("update (5)",),
              _R4 + "w^(t+1) = (1 - gamma) w^(t) + gamma w_bar^(t) substituted."),
        _step(L4, "(53) step 3", _LIN4, "<=", gam * _dot(_DW, _lin((1, gF), (-1, gS), (1, gS))) + Lhat / 2 * gam**2
              * _D**2, (), ("add and subtract grad F_bar",), _R4 + "grad F_0 = grad F_0 - grad F_bar + grad F_bar."),
        _chain_end(gS, _R4 + "hypothesis: (52) as printed (-mu ||.||). The step needs grad F_bar^T (w_bar - w) <= -mu "
                   "||w_bar - w||^2, which strong convexity between both points gives."),
    )


# ---------------------------------------------------------------------------- Appendix A, Theorems 1 and 3
N0, N1 = _sym("N0 N1", (0.0, 5.0), nonnegative=True)
xi0, xi1, xi2, zeta0, zeta1, zeta2, sig0, sig1, sig2, eta = _sym(
    "xi0 xi1 xi2 zeta0 zeta1 zeta2 sigma0 sigma1 sigma2 eta", (0.0, 5.0), nonnegative=True)
eps0 = _sym("eps0", (0.0, 5.0), nonnegative=True)
gam0, gam1, gam2 = _sym("gamma0 gamma1 gamma2", (1e-3, 1.0), positive=True)
mubar, muhat, delta2 = _sym("mu_bar mu_hat delta2", (0.01, 10.0), positive=True)
F0t0, Flow = _vals("F0_t0 F_low")
slack56 = _sym("s56", (0.0, 10.0), nonnegative=True)
daI, daT, daN, dwb, wI, wT, wbI, wbT = (_vec(n) for n in ("dwI", "dwT", "dwN", "dwb", "wI", "wT", "wbI", "wbT"))
_DT = "Delta w(n) = w_bar(n) - w(n)"


def _window(n: int) -> tuple:
    """The step sizes gamma(t), gamma(t+1), ... of an index window of length ``n``."""
    return (gam0, gam1, gam2)[:n]


def _reverse_triangle(label: str, u, v, reading: str) -> Step:
    """||u|| - ||v|| <= ||u - v|| ((59) step 2, (61) step 1)."""
    return _step(T13, label, _norm(u) - _norm(v), "<=", _norm(_sub(u, v)), (), ("triangle inequality",), reading)


def _lemma4_at(dist) -> sp.Expr:
    """F_0(w^(n+1)) - F_0(w^(n)) as every value (51) allows at ||w_bar^(n) - w^(n)|| = ``dist``: (51)'s right side
    minus a slack sigma >= 0."""
    return gam * dist * err - gam * (mu - Lhat * gam / 2) * dist**2 - sig


def _lemma4_use(dist) -> Use:
    """A step's use of Lemma 4 at ||w_bar^(n) - w^(n)|| = ``dist``: it takes (51)'s right side there
    (:func:`_lemma4_at` without its slack)."""
    return Use("Lemma 4", "ssca.lemma4", "descent", _lemma4_at(dist) + sig,
               at={"Delta": dist, "gamma": gam, "mu": mu, "L_hat": Lhat, "err": err})


def _lemma3_use(taken) -> Use:
    """A step's use of Lemma 3 ((43)) as the hypothesis ||w_bar(t1) - w_bar(t2)|| <= ``taken``: Lemma 3 bounds it by
    L_bar ||w(t1) - w(t2)|| + 2 e_tilde/mu with L_bar = 2 L_tilde/mu; the steps write L_bar and e = 2 e_tilde/mu, so
    the instance is taken at mu = 1 (the statement is homogeneous in (mu, L_tilde, e_tilde)), L_tilde = L_bar/2,
    e_tilde = e/2, and the iterate gap the step's."""
    gap = sp.Add(*[t for t in sp.Add.make_args(sp.expand(taken)) if not t.has(e)]) / Lbar
    return Use("Lemma 3", "ssca.lemma3", "omega_bar_gap", taken,
               at={"iterate_gap": gap, "e_tilde": e / 2, "mu": sp.Integer(1), "L_tilde": Lbar / 2})


_R51 = ("err = ||grad F_0 - grad F_bar_0^(n)|| at w^(n) >= 0; F_0(w^(n+1)) - F_0(w^(n)) = (51)'s right side - sigma "
        "(sigma >= 0: (51) in force) with ||w_bar^(n) - w^(n)|| = ")


def _thm13_liminf() -> tuple[Step, ...]:
    """(54) and (56): the liminf part of the proof of Theorems 1 and 3 (Appendix A)."""
    descents = [-g * (mubar + z) * (chi + x)**2 - s for g, z, x, s in zip(_window(2), (zeta0, zeta1), (xi0, xi1),
                                                                           (sig0, sig1))]
    return (
        _step(T13, "(55)", mu - Lhat * gam / 2 - err / chi, ">=", mubar,
              (sp.Lt(mubar, mu), sp.Le(gam, (mu - mubar) / Lhat), sp.Le(err, chi * (mu - mubar) / 2)),
              ("gamma -> 0", "Lemma 2", "mu > 0"),
              "An existence statement ('there exists a t0 [..] for some mu_bar in (0, mu)') read through a witness: "
              "for any mu_bar in (0, mu), every t with gamma(t) <= (mu - mu_bar)/L_hat and err(t) <= chi (mu - mu_bar)"
              "/2 satisfies the bracket >= mu_bar; such a t0 exists because gamma -> 0 and err -> 0 (Lemma 2). The "
              "thresholds are this project's; the paper gives none."),
        _step(T13, "(54)", _lemma4_at(chi + xi0), "<=", -gam * (mu - Lhat * gam / 2 - err / chi) * (chi + xi0)**2, (),
              ("||w_bar - w|| >= chi > 0", "Lemma 4"), _R51 + "chi + xi0 (xi0 >= 0: ||w_bar - w|| >= chi).",
              applies=(_lemma4_use(chi + xi0),)),
        _step(T13, "(56)", sum(descents), "<=", -mubar * chi**2 * sum(_window(3)), (), ("(54)", "(55)", "D >= chi"),
              "Printed: F_0(w(t)) - F_0(w(t0)) <= -mu_bar chi^2 sum_{n=t0}^{t} gamma, here at t = t0 + 2 (summand "
              "read gamma(n); the printed gamma(t) fails the same way). Each of the two descents is every value (54)"
              "-(55) allow: -gamma(n) (mu_bar + zeta_n)(chi + xi_n)^2 - sigma_n (the bracket of (54) is >= mu_bar, "
              "||Delta w(n)|| = chi + xi_n >= chi), zeta, xi, sigma >= 0.", variant=((E56, PRINTED),)),
        _step(T13, "(56)", sum(descents), "<=", -mubar * chi**2 * sum(_window(2)), (), ("(54)", "(55)", "D >= chi"),
              "Corrected: the sum runs over the descents it adds, n = t0, ..., t - 1, with gamma(n); t = t0 + 2, the "
              "descents as printed.", variant=((E56, CORRECTED),)),
        _step(T13, "after (56)", sum(_window(2)), "<=", (F0t0 - Flow) / (mubar * chi**2),
              (sp.Le(Flow, F0t0 - mubar * chi**2 * sum(_window(2)) - slack56),), ("(56)", "{F_0(w(t))} bounded"),
              "The argument after (56) ('in view of sum gamma = oo, contradicts the boundedness of {F_0(w(t))}') as "
              "a finite step: with F_0 >= F_low on the sequence and (56) corrected in force (F_0(w(t)) = its right "
              "side + F_0(w(t0)) - s56, s56 >= 0, at least F_low), the partial sums of gamma are bounded by "
              "(F_0(w(t0)) - F_low)/(mu_bar chi^2), which sum gamma = oo contradicts.",
              variant=((E56, CORRECTED),), uses=("(56)",)),
    )


def _thm13_window() -> tuple[Step, ...]:
    """(59): the index window t < n < i_t of the limsup part (Appendix A), with i_t = t + 2."""
    rI, rT = _sub(wbI, wI), _sub(wbT, wT)                            # Delta w(i_t), Delta w(t)
    r59 = "w(i_t) = wI, w_bar(i_t) = wbI, w(t) = wT, w_bar(t) = wbT in R^2"
    step_sum = (1 + Lbar) * (gam0 * N0 + gam1 * N1) + e
    return (
        _step(T13, "(59) step 1", delta, "<=", (2 * delta + xi0) - rho * delta, (), ("(57)", "(58)"),
              "||Delta w(i_t)|| = 2 delta + xi0 (xi0 >= 0: (58)) and ||Delta w(t)|| = rho delta (rho in [0, 1]: "
              "(57)), every pair of norms (57)-(58) allow."),
        _reverse_triangle("(59) step 2", daI, daT, "Delta w(i_t) = dwI, Delta w(t) = dwT in R^2"),
        _step(T13, "(59) step 3", _norm(_sub(rI, rT)), "==", _norm(_lin((1, wbI), (-1, wI), (-1, wbT), (1, wT))), (),
              ("Delta w = w_bar - w",), r59 + "; the left side is ||Delta w(i_t) - Delta w(t)|| with " + _DT + "."),
        _step(T13, "(59) step 4", _norm(_sub(rI, rT)), "<=", _norm(_sub(wbI, wbT)) + _norm(_sub(wI, wT)), (),
              ("triangle inequality",), r59),
        _step(T13, "(59)(a)", _norm(_sub(wbI, wbT)) + _norm(_sub(wI, wT)), "<=", (1 + Lbar) * _norm(_sub(wI, wT)) + e,
              (sp.Le(_norm(_sub(wbI, wbT)), Lbar * _norm(_sub(wI, wT)) + e),), ("Lemma 3",),
              r59 + "; hypothesis: (43) with t1 = i_t, t2 = t (e = e(i_t, t) >= 0).",
              applies=(_lemma3_use(Lbar * _norm(_sub(wI, wT)) + e),)),
        _step(T13, "(59)(b)", (1 + Lbar) * _norm(_lin((gam0, daT), (gam1, daN))) + e, "<=",
              (1 + Lbar) * (gam0 * _norm(daT) + gam1 * _norm(daN)) + e, (), ("(57)", "(58)", "update (5)"),
              "i_t = t + 2: w(i_t) - w(t) = gamma(t) Delta w(t) + gamma(t+1) Delta w(t+1) by the update (5); Delta "
              "w(t) = dwT, Delta w(t+1) = dwN in R^2. (The paper cites (57)-(58); the step is the update and the "
              "triangle inequality.)"),
        _step(T13, "(59) step 7", step_sum, "<=", 2 * delta * (1 + Lbar) * (gam0 + gam1) + e,
              (sp.Le(N0, delta), sp.Le(delta, N1), sp.Le(N1, 2 * delta)), ("(57)", "(58)"),
              "i_t = t + 2; N0 = ||Delta w(t)|| <= delta (57), delta <= N1 = ||Delta w(t+1)|| <= 2 delta (58)."),
    )


def _thm13_neighbour() -> tuple[Step, ...]:
    """(61)-(63): one step t -> t + 1 of the limsup part (Appendix A)."""
    tie = sp.Ge((1 + (1 + Lbar) * gam) * N0 + e, N1)               # (62) step 1
    return (
        _reverse_triangle("(61) step 1", daN, daT, "Delta w(t+1) = dwN, Delta w(t) = dwT in R^2"),
        _step(T13, "(61) step 2", _norm(_lin((1, dwb), (-gam, daT))), "<=", (1 + Lbar) * gam * _norm(daT) + e,
              (sp.Le(_norm(dwb), Lbar * gam * _norm(daT) + e),), ("as in (59)", "Lemma 3"),
              "Delta w(t) = dwT and w_bar(t+1) - w_bar(t) = dwb in R^2; w(t+1) - w(t) = gamma Delta w(t) by the update "
              "(5), so Delta w(t+1) - Delta w(t) = dwb - gamma dwT; hypothesis: (43) with t1 = t + 1, t2 = t "
              "(e = e(t, t+1) >= 0).", applies=(_lemma3_use(Lbar * gam * _norm(daT) + e),)),
        _step(T13, "(62) step 1", tie.lhs, ">=", tie.rhs, (sp.Le(N1 - N0, (1 + Lbar) * gam * N0 + e),), ("(61)",),
              "N0 = ||Delta w(t)||, N1 = ||Delta w(t+1)||; hypothesis: (61)."),
        _step(T13, "(62) step 2", N1, ">=", delta, (sp.Ge(N1, delta),), ("(58)",),
              "N1 = ||Delta w(t+1)||; hypothesis: (58) at n = t + 1 (delta <= ||Delta w(n)|| when t + 1 < i_t, and "
              "||Delta w(i_t)|| >= 2 delta when i_t = t + 1)."),
        _step(T13, "(63) step 1", N0, ">=", (delta - e) / (1 + (1 + Lbar) * gam), (tie, sp.Ge(N1, delta)), ("(62)",),
              "N0 = ||Delta w(t)||, N1 = ||Delta w(t+1)||; hypotheses: the two inequalities of (62)."),
        _step(T13, "(63) step 2", (delta - e) / (1 + (1 + Lbar) * gam), ">=", delta / (2 * (2 + Lbar)),
              (sp.Le(e, delta / 2), sp.Le(gam, 1)), ("e(t, t+1) -> 0", "gamma -> 0"),
              "An existence statement ('there exists a delta2 > 0 such that for a sufficiently large t in T') read "
              "through a witness: delta2 = delta/(2 (2 + L_bar)) > 0 works for every t with e(t, t+1) <= delta/2 and "
              "gamma(t) <= 1, which holds for t large because e(t, t+1) -> 0 and gamma -> 0. The witness is this "
              "project's; the paper names none."),
    )


def _thm13_descent() -> tuple[Step, ...]:
    """(64)-(65): Lemma 4 inside and at the start of the window (Appendix A)."""
    inside = delta + xi0                                               # ||Delta w(n)|| >= delta, t < n < i_t (58)
    return (
        _step(T13, "(64)", _lemma4_at(rho * delta), "<=", -gam * (mu - Lhat * gam / 2) * (rho * delta)**2
              + gam * delta * err, (), ("Lemma 4", "(57)"), _R51 + "rho delta (rho in [0, 1]: (57), n = t in T).",
              applies=(_lemma4_use(rho * delta),)),
        _step(T13, "(65) step 1", _lemma4_at(inside), "<=", -gam * (mu - Lhat * gam / 2 - err / inside) * inside**2,
              (), ("Lemma 4",), _R51 + "delta + xi0 (xi0 >= 0: (58), t < n < i_t).", applies=(_lemma4_use(inside),)),
        _step(T13, "(65) step 2", -gam * (mu - Lhat * gam / 2 - err / inside) * inside**2, "<=",
              -gam * (mu - Lhat * gam / 2 - err / delta) * inside**2, (), ("(58)",),
              "||w_bar^(n) - w^(n)|| = delta + xi0 (xi0 >= 0: (58), t < n < i_t), err >= 0."),
    )


def _thm13_sum() -> tuple[Step, ...]:
    """(66): the descent over the window t <= n < i_t, here i_t = t + 3 (Appendix A)."""
    dlt = delta2 + eta                                                 # delta >= delta2 ((63) with e >= 0)
    dist = (delta2 + xi0, dlt + xi1, dlt + xi2)                        # ||Delta w(n)||: (63) at t, (58) inside
    e0 = dlt * eps0                                                    # err(t) = delta eps0
    first = -gam0 * (muhat + eps0 + zeta0) * dist[0]**2 + gam0 * dlt * e0 - sig0       # (64) at t
    inner = [-g * (muhat + z) * x**2 - s for g, z, x, s in zip((gam1, gam2), (zeta1, zeta2), dist[1:], (sig1, sig2))]
    line_a = -muhat * sum(g * x**2 for g, x in zip(_window(3), dist)) + gam0 * dlt * e0
    line_b = -muhat * delta2**2 * (gam1 + gam2) - gam0 * (muhat * delta2**2 - dlt * e0)
    r66 = ("i_t = t + 3, delta = delta2 + eta (eta >= 0); ||Delta w(t)|| = delta2 + xi0 ((63)) and ||Delta w(n)|| = "
           "delta + xi_n ((58)), xi >= 0; err(t) = delta eps0 (eps0 >= 0)")
    return (
        _step(T13, "(66)(a)", first + sum(inner), "<=", line_a, (), ("(64)", "(65)", "mu - Lhat g/2 - err/delta >= "
              "mu_hat"),
              r66 + "; the descents are every value (64)-(65) allow when the brackets mu - L_hat gamma(n)/2 - err(n)/"
              "delta are mu_hat + zeta_n (zeta_n >= 0: the proof's 'mu_hat' condition, read at every n >= t, as "
              "the limits that justify it give): (64) at t is -gamma(t)(mu_hat + err(t)/delta + zeta0) ||Delta "
              "w(t)||^2 + gamma(t) delta err(t) - sigma0, (65) at n is -gamma(n)(mu_hat + zeta_n)||Delta w(n)||^2 - "
              "sigma_n, sigma >= 0."),
        _step(T13, "(66)(b)", line_a, "<=", line_b, (), ("(63)",), r66 + "."),
        _step(T13, "(66)(c)", line_b, "<=", -muhat * delta2**2 * (gam1 + gam2),
              (sp.Lt(e0, muhat * delta2**2 / dlt),), ("err(t) < mu_hat delta2^2/delta",),
              "i_t = t + 3, delta = delta2 + eta; err(t) = ||grad F_0 - grad F_bar_0^(t)|| at w^(t) = delta eps0; "
              "hypothesis: the proof's condition err(t) < mu_hat delta2^2/delta."),
    )


def _thm13_kkt() -> tuple[Step, ...]:
    """(67): the first-order condition of Problem 2 at w_bar^(t) (Appendix A)."""
    grad, _ = _sc_model(wT, wbT)                                       # grad F_bar_0^(t)(w^(t))
    return (
        _step(T13, "(67)", _dot(_sub(wx, wbT), grad), ">=", 0, (), ("first-order optimality of w_bar^(t)",),
              "Printed: (w - w_bar(t))^T grad F_bar_0^(t)(w^(t)) >= 0 for all w (gradient at w^(t), where (68) has "
              "w_bar^(t)). w = x, w^(t) = wT, w_bar^(t) = wbT in R^2; grad F_bar(w^(t)) = (mu + kappa)(wT - wbT) + "
              "beta (wT - wbT)_perp, every gradient a mu-strongly convex F_bar minimised at wbT (Problem 2 is "
              "unconstrained) can have at wT."),
    )


# ---------------------------------------------------------------------------- Appendix B, Theorems 2 and 4
g0, g1, g2 = _vec("gFo"), _vec("gFa"), _vec("gFb")
#: the point at which the Lagrangians' omega-parts are differentiated (it leaves no trace in a step)
_OMEGA = sp.symbols("omega_x omega_y", real=True)
lam1, lam2, lamm, mum, ell, r, m_, sg = _sym("lambda1 lambda2 lambda_m mu_m ell r m sigma_s", (0.0, 5.0),
                                            nonnegative=True)
p, q = _sym("p q", (0, 1), integer=True)
Fm, Ft0, Ftm = _vals("F_m Ftil_0 Ftil_m")
sm = _sym("s_m", (0.0, 10.0), nonnegative=True)
cpen = _sym("c", (0.01, 10.0), positive=True)


def _omega_gradient() -> tuple[sp.Expr, sp.Expr]:
    """The omega-gradient at w* of the omega-part Ftil_0 + sum_m lambda_m Ftil_m of (72)'s Lagrangian (M = 2), by
    differentiation; its gradients there are those of F_0, F_m by (71), so it is Problem 3's Lagrangian's too."""
    return tuple(sp.diff(_dot(g0, _OMEGA) + lam1 * _dot(g1, _OMEGA) + lam2 * _dot(g2, _OMEGA), w) for w in _OMEGA)


def _where_zero(vector, zero) -> list[sp.Expr]:
    """``vector`` with grad F_0(w*) taken on the points where ``zero`` (linear in grad F_0) is 0: the too-thin
    hypothesis 'zero = 0' replaced by every point of it."""
    [solution] = sp.solve(list(zero), list(g0), dict=True)
    return [x.subs(solution) for x in vector]


#: (73a) as printed (lambda_m grad F_0) and corrected (lambda_m grad F_m), M = 2
PRINTED_73A = _lin((1 + lam1 + lam2, g0))
CORRECTED_73A = _lin((1, g0), (lam1, g1), (lam2, g2))


def after_73(display) -> Step:
    """The sentence after (73) ('(73) and s*_j = 0 imply the KKT conditions of Problem 3 (Problem 8)') from the
    (73a) vector ``display`` set to 0: the omega-gradient of Problem 3's Lagrangian with (73)'s multipliers there, and
    for one m feasibility and complementary slackness from (73b)-(73c) at s*_m = 0."""
    at_zero = -(1 - p) * r                            # F_m(w*) at s*_m = 0: Ftil_m(w*) - s*_m = -(1 - p) r, by (70)
    left = _norm(_where_zero(_omega_gradient(), display)) + sp.Abs(p * ell * at_zero) + sp.Max(at_zero, 0)
    return _step(T24, "after (73)", left, "==", 0, (),
                 ("(73a)", "(73b)", "(73c)", "s*_j = 0"),
                 "The sentence after (73) with (73a) corrected in force (grad F_0(w*) on every point where its vector "
                 "is 0): the omega-gradient of Problem 3's Lagrangian F_0 + sum_m lambda_m F_m at w* with (73)'s "
                 "multipliers (M = 2, gradients gFo, gFa, gFb in R^2); for one m, feasibility F_m(w*) <= 0 and "
                 "complementary slackness lambda_m F_m(w*) = 0 from (73b)-(73c) at s*_m = 0 with their complementary "
                 "pairs lambda_m = p ell, F_m(w*) - s*_m = -(1 - p) r (p in {0, 1}; ell, r >= 0). lambda_m >= 0, "
                 "which Problem 3's KKT conditions need, is not printed in (73): it is dual feasibility in (72)'s. The "
                 "left side is |gradient| + |lambda_m F_m| + max(F_m, 0).", variant=((E73, CORRECTED),),
                 uses=("(73a)",))


def _thm24_steps() -> tuple[Step, ...]:
    """(73a)-(73d): the KKT conditions of Problem 4 (Problem 9) at a limit point (Appendix B), from those of (72)
    with (70)-(71) substituted, and the sentence after (73) that they and s*_j = 0 give Problem 3's."""
    s_, lam_, mu_ = (1 - q) * sg, p * ell, q * m_                       # complementary pairs of (72)'s KKT
    F_ = s_ - (1 - p) * r                                               # F_m(w*) = Ftil_m(w*) by (70)
    lagr72 = Ft0 + cpen * sm + lamm * (Ftm - sm) - mum * sm
    r73 = ("M = 2, gradients in R^2 at w*: grad F_1 = gFa, grad F_2 = gFb free, lambda_m >= 0 (dual feasibility in "
           "(72)'s KKT conditions), and grad F_0 on every point where the omega-gradient of (72)'s Lagrangian "
           "Ftil_0 + sum_m lambda_m Ftil_m (by differentiation, with (71)) is 0, as (72)'s KKT conditions set it")
    return (
        _step(T24, "(73a)", _norm(_where_zero(PRINTED_73A, _omega_gradient())), "==", 0, (), ("KKT of (72)", "(71)"),
              "Printed: grad F_0(w*) + sum_m lambda_m grad F_0(w*) = 0 (grad F_0 where grad F_m is meant). " + r73
              + "; the left side is the norm of the printed vector.", variant=((E73, PRINTED),)),
        _step(T24, "(73a)", _norm(_where_zero(CORRECTED_73A, _omega_gradient())), "==", 0, (),
              ("KKT of (72)", "(71)"), "Corrected: grad F_0(w*) + sum_m lambda_m grad F_m(w*) = 0. " + r73 + "; the "
              "left side is the norm of the corrected vector.", variant=((E73, CORRECTED),)),
        after_73(CORRECTED_73A),
        _step(T24, "(73b)", Fm, "<=", sm, (sp.Le(Fm, sm),), ("feasibility in (72)", "(70)"),
              "One m: F_m = F_m(w*_j) = Ftil_m(w*_j) by (70), s_m = s*_{m,j}; hypothesis: (72)'s constraint."),
        _step(T24, "(73c)", sp.Abs(lam_ * (F_ - s_)) + sp.Abs(mu_ * s_), "==", 0, (),
              ("complementary slackness of (72)", "(70)"),
              "One m; the complementary pairs of (72)'s KKT conditions as every pair they allow: lambda_m = p ell, "
              "s_m - Ftil_m(w*) = (1 - p) r, mu_m = q m, s_m = (1 - q) sigma_s with p, q in {0, 1} and ell, r, m, "
              "sigma_s >= 0; F_m(w*) = Ftil_m(w*) by (70). The left side is |first| + |second| of (73c)."),
        _step(T24, "(73d)", cpen - lamm - mum, "==", sp.diff(lagr72, sm), (), ("stationarity of (72) in s_m",),
              "One m: the printed c - lambda_m - mu_m is the derivative in s_m of the Lagrangian Ftil_0 + c s_m + "
              "lambda_m (Ftil_m - s_m) - mu_m s_m, which the KKT conditions set to 0; its - mu_m s_m is that of "
              "Problem 4's s_m >= 0, which (72) as printed omits."),
    )


# ---------------------------------------------------------------------------- Appendix C, Lemma 1
om1, om2, Bc, Cc = _sym("omega1 omega2 B C", (-5.0, 5.0), real=True)
tau = _sym("tau", (0.01, 10.0), positive=True)
nu, muC, sC, bb = _sym("nu mu_C s b", (0.0, 10.0), nonnegative=True)
Aa, Uu = _sym("A U", (-5.0, 5.0), real=True)
UmA = _sym("U_minus_A", (-10.0, 10.0), real=True)


def _fbar(a, b_) -> sp.Expr:
    """(29) with one coordinate of each block: F_bar(w) = B w_1jk + C w_2lj + tau ||w||^2."""
    return Bc * a + Cc * b_ + tau * (a**2 + b_**2)


def _phi(a, b_) -> sp.Expr:
    """||w||^2 + nu (F_bar(w) + A - U): the part of the Lagrangian minimised over w."""
    return a**2 + b_**2 + nu * (_fbar(a, b_) + Aa - Uu)


def _argmin(coef) -> sp.Expr:
    """(40)/(41): -nu B/(2 (1 + nu tau)) (resp. C)."""
    return -nu * coef / (2 * (1 + nu * tau))


def _h(x) -> sp.Expr:
    """The dual function of Appendix C, display 5: h(nu) = nu (A - U - b nu/(4 (1 + tau nu)))."""
    return x * (Aa - Uu - bb * x / (4 * (1 + tau * x)))


def _nu_star() -> sp.Expr:
    """(42) (Appendix C, display 8): [(sqrt(b/(b + 4 tau (U - A))) - 1)/tau]_0^c, or c when b + 4 tau (U - A) <= 0."""
    root = (sp.sqrt(bb / (bb + 4 * tau * (Uu - Aa))) - 1) / tau
    return sp.Piecewise((sp.Min(sp.Max(root, 0), cpen), bb + 4 * tau * (Uu - Aa) > 0), (cpen, True))


def _argmin_step(label: str, coef, coord: int) -> Step:
    """Appendix C, display 3/4 ((40)/(41)): the printed coordinate minimises ||w||^2 + nu (F_bar + A - U)."""
    point = [om1, om2]
    point[coord] = _argmin(coef)
    return _step(L1, label, _phi(om1, om2), ">=", _phi(*point), (), ("L convex in w", "derivative set to zero"),
                 f"w = (omega1, omega2): one coordinate w_1jk (coefficient B) and one w_2lj (coefficient C) of (29); "
                 f"the printed value of coordinate {coord + 1} minimises ||w||^2 + nu (F_bar(w) + A - U) over it "
                 f"(nu >= 0): every w does at least as well.")


def _lemma1_steps() -> tuple[Step, ...]:
    """Appendix C (proof of Lemma 1): the Lagrangian of (38), the dual function, the argmin (40)-(41), h and (42)."""
    objective, constraints = om1**2 + om2**2 + cpen * sC, (_fbar(om1, om2) + Aa - Uu - sC, -sC)
    lagrangian = objective + nu * constraints[0] + muC * constraints[1]
    printed1 = om1**2 + om2**2 + cpen * sC + nu * (_fbar(om1, om2) + Aa - Uu - sC) + muC * (-sC)
    rw = ("w = (omega1, omega2) (one coordinate of each block of (29), coefficients B and C), s >= 0, multipliers "
          "nu (written mu_C for the mu of Appendix C)")
    return (
        _step(L1, "display 1 (Lagrangian) step 1", lagrangian, "==", printed1, (), ("Lagrangian of (38)",),
              rw + "; the left side is objective + sum of multiplier x (constraint of (38) written as g <= 0)."),
        _step(L1, "display 1 (Lagrangian) step 2", printed1, "==", _phi(om1, om2) + (cpen - nu - muC) * sC, (),
              ("terms in s collected",),
              rw + "."),
        _step(L1, "display 2 (dual function)", lagrangian, ">=", _phi(om1, om2), (sp.Ge(cpen - nu - muC, 0),),
              ("inf over s >= 0",),
              rw + "; first case: for c - nu - mu >= 0 the infimum over s >= 0 is at s = 0, i.e. L(w, s) >= L(w, 0) "
              "= ||w||^2 + nu (F_bar + A - U). The infimum over w and the case -inf are not finite relations."),
        _argmin_step("display 3 (argmin, = (40))", Bc, 0),
        _argmin_step("display 4 (argmin, = (41))", Cc, 1),
        _step(L1, "display 5 (optimal value h)", _phi(_argmin(Bc), _argmin(Cc)), "==", _h(nu).subs(bb, Bc**2 + Cc**2),
              (), ("(40)", "(41)"), rw + "; b = B^2 + C^2 ((42) with one coordinate per block)."),
        _step(L1, "display 6 (dual problem)", om1**2 + om2**2 + cpen * sC, ">=", _h(nu).subs(bb, Bc**2 + Cc**2),
              (sp.Ge(cpen - nu - muC, 0), sp.Le(_fbar(om1, om2) + Aa - Uu - sC, 0)),
              ("dual of (38)", "display 2", "display 5"),
              rw + "; the dual problem's finite content, weak duality: at every (nu, mu) feasible for display 6 "
              "(nu, mu >= 0, c - nu - mu >= 0) its objective h(nu) is at most the objective ||w||^2 + c s of (38) at "
              "every feasible (w, s). Strong duality (the maximum equals the minimum of (38)) is what ssca.lemma1 "
              "checks against a solver."),
        _step(L1, "display 8 (nu*, = (42))", _h(_nu_star()).subs(Uu, Aa + UmA), ">=", _h(nu).subs(Uu, Aa + UmA),
              (sp.Le(nu, cpen),), ("(74)", "optimality conditions of (74)"),
              "nu* of (42) maximises h over 0 <= nu <= c ((74)): h(nu*) >= h(nu) for every nu in [0, c]; b >= 0, "
              "tau, c > 0 free; A and U enter h and (42) only through U - A, a free symbol."),
    )


# ---------------------------------------------------------------------------- Appendix D, Theorem 5
wd, ws = _vec("wd"), _vec("ws")
Fw, Fs = _vals("F_w F_ws")
lam = _sym("lambda", (0.01, 10.0), positive=True)


def _thm5_steps() -> tuple[Step, ...]:
    """Appendix D (proof of Theorem 5), the display after (75)."""
    rd = "w = wd, w* = ws in R^2, F_w = F(w), F_ws = F(w*)"
    middle = (Fw - Fs) / lam + _sq(wd)
    at75 = Fs + lam * (_sq(ws) - _sq(wd)) + sig                        # every F(w) that (75) allows
    return (
        _step(T5, "display after (75), (a)", _sq(ws), "<=", middle.subs(Fw, at75), (), ("(75)",),
              rd + "; (75) at w in force: F(w) = F(w*) + lambda (||w*||^2 - ||w||^2) + sigma, sigma >= 0."),
        _step(T5, "display after (75), (b)", middle.subs(Fw, Fs - sig), "<=", _sq(wd), (), ("F(w) <= U = F(w*)",),
              rd + "; F(w) <= U with U = F(w*) in force: F(w) = F(w*) - sigma, sigma >= 0."),
    )


# ---------------------------------------------------------------------------- the steps, and the displays left out
_ORDER = {(d.proof, d.label): i for i, d in enumerate(DISPLAYS)}
#: the encoded steps, in the inventory's (the paper's) order
STEPS: tuple[Step, ...] = tuple(sorted(
    _lemma3_bounds() + _lemma3_growth() + _lemma4_statement() + _lemma4_chain() + _thm13_liminf() + _thm13_window()
    + _thm13_neighbour() + _thm13_descent() + _thm13_sum() + _thm13_kkt() + _thm24_steps() + _lemma1_steps()
    + _thm5_steps(), key=lambda s: _ORDER[(s.proof, s.label)]))

#: the displays that are not finite relations, with the reason
_LIMIT = "a limit statement (almost sure, t -> oo), not a finite relation"
NOT_ENCODED: dict[tuple[str, str], str] = {
    (L2, "Lemma 2 statement, display 1"): _LIMIT,
    (L2, "Lemma 2 statement, display 2"): _LIMIT,
    (L3, "(44)"): "defines ebar(t) := F_bar_0^(t)(w) - G_0(w, w^(t)) and asserts lim ebar(t) = 0 (Lemma 2, display 2): "
                  "a definition plus a limit; the finite part is the identity F_bar = G_0 + (F_bar - G_0)",
    (T13, "(57)"): "the defining property of the index set T, whose existence (an infinite set) is asserted; it is a "
                   "hypothesis of (59), (64)",
    (T13, "(58)"): "the defining property of the index i_t > t, whose existence is asserted; it is a hypothesis of "
                   "(59), (62), (65)",
    (T13, "(60)"): "a liminf statement over T (delta1 = 1/(2(1 + L_bar))); its finite precursor is (59)",
    (T13, "(68) step 1"): "a limit along T of (67) (with grad F_bar at w_bar), not a finite relation",
    (T13, "(68) step 2"): "the first-order condition at the limit point, obtained by passing (67) to the limit",
    (L5, "Lemma 5 statement, display 1"): _LIMIT,
    (L5, "Lemma 5 statement, display 2"): _LIMIT,
    (L5, "Lemma 5 statement, display 3"): _LIMIT,
    (L6, "(69)"): "a limit along a subsequence (the existence of the limit functions Ftil_m by Arzela-Ascoli)",
    (L6, "(70)"): "an equality between limit objects (Ftil_m is the limit of (69)), from (69) and Lemma 5's limits",
    (L6, "(71)"): "an equality between gradients of limit objects, from (69) and Lemma 5's limits",
    (T24, "(72)"): "an optimisation problem (argmin of the limit problem) defining (w*_j, s*_j), not a relation",
    (L1, "(74)"): "an optimisation problem (argmax of h over [0, c]) defining nu*; its solution (42) is encoded "
                  "(display 8) and the finding ssca.lemma1.derivation decides the regime logic of that argmax",
    (T5, "(75)"): "local optimality of w* in (27): the existence of epsilon > 0 with the inequality on the ball (the "
                  "inequality itself is the hypothesis of the display after (75))",
    (T5, "display 2 after (75)"): "the existence of a KKT multiplier xi for (37) at a local optimum (a necessary "
                                  "condition under a constraint qualification), not a finite relation",
}

__all__ = ["ALSO", "CLAIM", "NOT_ENCODED", "STEPS"]
