"""FedCLUP's discussion sentences about directions, limits and comparisons, decided symbolically (sympy only).

The paper's discussion says how a quantity moves with the personalization parameter lambda (``lam``), what a
bound tends to at a limit of lambda, and how two rates compare. Each such sentence is one row of a table below
(its place and exact words, the formula of :mod:`bounds.fedclup.claims` it is about, what it says) and one
producer decides it:

* :func:`direction`: the sign of d(formula)/d(var) against the stated one (proven, refuted where the derivative
  has the opposite sign, else not checkable). Assumption 1's L >= mu is used by shifting L = mu + u, u >= 0.
* :func:`limit_order`: the limit of a formula is a positive combination of named rate atoms (e.g. rho^2/(mu^2 N)
  and R^2), with coefficients free of the sample sizes and of the atoms' own symbols: "approaches O(1/N + R^2)".
  A Min, Max or Piecewise in the formula (Corollary 1's lambda rule and bound) is first replaced by the piece in
  force near the limit point (:func:`_eventual`); where sympy cannot tell which piece that is, not checkable.
* :func:`same_units`: a comparison of two rates is meaningful only if both sides measure the same quantity; under
  the length scaling w -> t w (R -> t R, rho -> t rho with mu, L fixed: rho is a gradient, mu times a length)
  every branch of both sides must scale like t^degree, the degree of the measured quantity (2: a squared distance).
* :func:`limits_agree`: Problem (2) tends to LocalTrain (3) as lambda -> 0 and to GlobalTrain (4) as lambda -> oo,
  on the closed form of :func:`bounds.fedclup.findings.closed_form_limits` (scalar quadratics, m = 2, 3).

Every formula is the suite's encoding (``derived`` where the paper's constants are stripped from the copy); a
direction or a limit decided on it is one the paper's order-level statement (8) or Corollary 2 shares (their
notes in claims.py). The findings name the claim whose discussion the sentence is, kind "stated-rate" (a
discrepancy is a gap of that claim's discussion), except the sentences about Figure 2 (:data:`FIGURE2_ROUNDS`),
which name the paper's statement itself (kind "application": a discrepancy refutes that statement).
"""
from __future__ import annotations

import sympy as sp

from ..audit import CONSISTENT, DISCREPANCY, NOT_CHECKABLE, Finding, producer
from ..core import prove_nonnegative
from .claims import (
    KAPPA, KAPPA_F, L, L_F, LAM_COR1, R, RHS_8A_LOCAL, RHS_8B_LOCAL, RHS_COR1, c, lam, m, mu, n, rho,
)

#: the measured quantity of Theorem 1, Corollary 1 and the minimax bound: E||w - w*||^2, a squared length
SQUARED = 2
#: the length scaling: R and rho scale with the model's length, mu and L do not (rho is mu times a length)
LENGTHS = (R, rho)
#: log(1/eps) for a target accuracy eps < 1 (assumption, named: an eps-solution below the initial error), positive
LOG_INV_EPS = sp.Symbol("log(1/epsilon)", positive=True)
#: rounds to an eps-solution, Corollary 2 (order form; the paper summary's kappa_F log(1/eps))
ROUNDS = KAPPA_F * LOG_INV_EPS
#: the 1/q_1(lambda) part of the derived (8b) (plays the role of 1/q_1; claims.thm1_8b notes)
INV_Q1 = (9 + 45 * KAPPA**2) * rho**2 / (n * (mu + lam)**2)
#: d kappa_F/d kappa at fixed mu (kappa = L/mu, so d/d kappa = mu d/dL): how sensitive Corollary 2's rounds are to kappa
KAPPA_SENSITIVITY = mu * sp.diff(KAPPA_F, L)
#: the optimization error's contraction factor of (15) in the suite's schematic Corollary 3: 1 - c/kappa_F, c in (0, 1]
OPT_BASE = 1 - c / KAPPA_F


def _says(where: str, words: str) -> str:
    return f"{where}: \"{words}\""


def _sign_of(expr: sp.Expr, sign: int):
    """Whether sign * expr >= 0 for L >= mu (every other symbol in its declared domain): a ProofResult."""
    return prove_nonnegative(sp.together(sign * expr), {L: mu})


@producer
def direction(id_: str, claims: tuple, where: str, words: str, expr: sp.Expr, var: sp.Symbol, sign: int,
              kind: str = "stated-rate", reading: tuple = ()) -> Finding:
    """``words`` say that ``expr`` increases (``sign`` = +1) or decreases (-1) in ``var``: consistent when
    sign * d expr/d var >= 0 is proven (L >= mu); a discrepancy when the opposite sign is proven and the derivative
    is not identically zero (so the stated direction fails wherever it moves); else not checkable."""
    d = sp.diff(expr, var)
    stated, opposite = _sign_of(d, sign), _sign_of(d, -sign)
    zero = sp.simplify(d) == 0
    verdict = (CONSISTENT if stated.proven is True and not zero else
               DISCREPANCY if opposite.proven is True and not zero else NOT_CHECKABLE)
    moves = {1: "increases", -1: "decreases"}
    found = ("identically 0" if zero else "of the stated sign" if stated.proven is True else
             "of the opposite sign" if opposite.proven is True else "of no sign sympy can prove")
    told = (f"the sentence says it {moves[sign]} in {var}; d/d{var} = {sp.factor(d)} is {found} for L >= mu "
            f"({stated.method if stated.proven else opposite.method})")
    return Finding(id_, kind, claims, verdict, f"{_says(where, words)}. {expr}: {told}.",
                   f"d/d{var} ({expr}) = {sp.factor(d)}", "proven symbolically (core.prove_nonnegative)",
                   reading=reading)


def _coefficient(lim: sp.Expr, atom: sp.Expr, kill: dict) -> sp.Expr:
    return sp.simplify(lim.subs(kill) / atom)


def _in_force(piece: sp.Expr, var: sp.Symbol, point):
    """Whether ``piece`` (a Piecewise condition) holds near ``var`` -> ``point``: True, False, or None (unknown).
    A relation holds (fails) there when the limit of the difference of its sides is strictly of its sign (the
    opposite sign); a tie in the limit decides nothing."""
    if piece in (sp.true, sp.false):
        return bool(piece)
    if not isinstance(piece, (sp.Ge, sp.Gt, sp.Le, sp.Lt)):
        return None
    gap = _limit(piece.lhs - piece.rhs if isinstance(piece, (sp.Ge, sp.Gt)) else piece.rhs - piece.lhs, var, point)
    return None if gap is None else True if gap.is_extended_positive else False if gap.is_extended_negative else None


def _winner(node: sp.Expr, var: sp.Symbol, point):
    """The argument of the Min, Max or Piecewise ``node`` that it equals near ``var`` -> ``point``, or None: the
    Min (Max) argument every other exceeds (falls below) by a strictly positive limit; the first Piecewise branch
    whose condition is in force there, every earlier one provably out of force."""
    if isinstance(node, sp.Piecewise):
        for expr, cond in node.args:
            force = _in_force(cond, var, point)
            if force is not False:
                return expr if force else None
        return None
    sign = -1 if isinstance(node, sp.Min) else 1
    gaps = {a: [_limit(sign * (a - b), var, point) for b in node.args if b != a] for a in node.args}
    return next((a for a, g in gaps.items() if all(x is not None and x.is_extended_positive for x in g)), None)


def _eventual(expr: sp.Expr, var: sp.Symbol, point):
    """``expr`` with every Min, Max and Piecewise replaced by its piece in force near ``var`` -> ``point``
    (:func:`_winner`, outermost first), or None when one of them has no provable piece."""
    node = next((a for a in sp.preorder_traversal(expr) if isinstance(a, (sp.Min, sp.Max, sp.Piecewise))), None)
    if node is None:
        return expr
    piece = _winner(node, var, point)
    return None if piece is None else _eventual(expr.xreplace({node: piece}), var, point)


def _limit(expr: sp.Expr, var: sp.Symbol, point):
    """The limit of ``expr`` as ``var`` -> ``point`` after :func:`_eventual`, or None when no piece is provable."""
    smooth = _eventual(expr, var, point)
    return None if smooth is None else sp.simplify(sp.limit(smooth, var, point))


@producer
def limit_order(id_: str, claims: tuple, where: str, words: str, expr: sp.Expr, var: sp.Symbol, point,
                atoms: tuple, free_of: tuple) -> Finding:
    """``words`` say that ``expr`` tends, as ``var`` -> ``point``, to the order of ``atoms`` (``(atom, kill)``
    pairs, ``kill`` the substitution that zeroes the other atoms; no atoms: the limit is 0). Consistent when the
    limit equals sum a_k atom_k with every a_k positive and free of ``free_of``; a discrepancy otherwise; not
    checkable when a Min, Max or Piecewise of ``expr`` has no piece provably in force near ``point``."""
    lim = _limit(expr, var, point)
    if lim is None:
        return Finding(id_, "stated-rate", claims, NOT_CHECKABLE,
                       f"{_says(where, words)}. {expr}: which piece is in force as {var} -> {point} is not provable.",
                       f"no piece of {expr} provably in force", "sympy limit")
    coeffs = [_coefficient(lim, atom, kill) for atom, kill in atoms]
    rest = sp.simplify(lim - sum((a * atom for a, (atom, _) in zip(coeffs, atoms)), sp.Integer(0)))
    ok = rest == 0 and all(a.is_positive and not (a.free_symbols & set(free_of)) for a in coeffs)
    target = " + ".join(str(atom) for atom, _ in atoms) or "0"
    return Finding(id_, "stated-rate", claims, CONSISTENT if ok else DISCREPANCY,
                   f"{_says(where, words)}. lim_{{{var} -> {point}}} {expr} = {lim}: "
                   + (("it tends to 0." if not atoms else
                       f"of order {target} (coefficients {', '.join(map(str, coeffs))}, free of "
                       f"{', '.join(map(str, free_of))}).") if ok else f"not of order {target}."),
                   f"limit {lim}; coefficients {coeffs}; remainder {rest}", "sympy limit")


def _branches(expr: sp.Expr) -> list[sp.Expr]:
    """``expr`` with every Min/Max replaced by each of its arguments (the first Min/Max found, recursively)."""
    found = next((a for a in sp.preorder_traversal(expr) if isinstance(a, (sp.Min, sp.Max))), None)
    if found is None:
        return [expr]
    return [b for arg in found.args for b in _branches(expr.xreplace({found: arg}))]


def _degree(expr: sp.Expr, lengths: tuple) -> sp.Expr | None:
    """The degree d with expr(t x) = t^d expr(x) for the length symbols, or None when there is none."""
    t = sp.Symbol("t", positive=True)
    ratio = sp.simplify(sp.powsimp(expr.subs({s: t * s for s in lengths}) / expr, force=True))
    if ratio.free_symbols - {t}:
        return None
    return sp.simplify(sp.expand_log(sp.log(ratio), force=True) / sp.log(t))


def _powers(degrees: set) -> str:
    """``{2}`` -> "t^2"; several branches' degrees -> "t^1 or t^2" (sorted); None (no power) -> "no power of t"."""
    return " or ".join(sorted("no power of t" if d is None else f"t^{d}" for d in degrees))


@producer
def same_units(id_: str, claims: tuple, where: str, words: str, upper: sp.Expr, lower: sp.Expr,
               degree: int = SQUARED, lengths: tuple = LENGTHS) -> Finding:
    """``words`` compare the rate ``upper`` with ``lower``: consistent when every branch of both scales like
    t^``degree`` under the length scaling (both measure the same quantity), a discrepancy otherwise."""
    degrees = {side: {_degree(b, lengths) for b in _branches(e)} for side, e in (("upper", upper), ("lower", lower))}
    ok = all(d == {sp.Integer(degree)} for d in degrees.values())
    return Finding(id_, "stated-rate", claims, CONSISTENT if ok else DISCREPANCY,
                   f"{_says(where, words)}. Under w -> t w ({', '.join(map(str, lengths))} scale with t) the upper "
                   f"bound scales like {_powers(degrees['upper'])} and the lower bound like "
                   f"{_powers(degrees['lower'])}; the measured error like t^{degree}: "
                   + ("the same quantity in the same units." if ok else "they do not measure the same quantity."),
                   f"upper {upper}; lower {lower}", "sympy scaling")


@producer
def limits_agree(id_: str, claims: tuple, where: str, words: str, rows: tuple) -> Finding:
    """``words`` say that Problem (2) tends to LocalTrain (lambda -> 0) and to GlobalTrain (lambda -> oo): the rows
    of :func:`bounds.fedclup.findings.closed_form_limits` (``{item, status, ...}``), a discrepancy if one is
    refuted, consistent if all are proven, else not checkable."""
    status = [r["status"] for r in rows]
    verdict = (DISCREPANCY if "refuted" in status else CONSISTENT if status and set(status) == {"proven"} else
               NOT_CHECKABLE)
    return Finding(id_, "stated-rate", claims, verdict,
                   f"{_says(where, words)}. On scalar quadratics (m = 2, 3) the solutions of Problem (2) tend to "
                   f"LocalTrain's as lam -> 0 and to GlobalTrain's as lam -> oo: {status.count('proven')} of "
                   f"{len(rows)} limits proven, {status.count('refuted')} refuted.",
                   " | ".join(f"[{r['status']}] {r['item']}" for r in rows), "sympy limit")


# ---------------------------------------------------------------------------- the sentences
S41 = "Section 4.1, after Theorem 1"
S5 = "Section 5, after Corollary 3"
#: (id, claims, where, words, expr, var, sign): the direction sentences about the suite's formulas
DIRECTIONS = (
    ("fedclup.text.LF_in_lambda", ("fedclup.lemma1", "fedclup.thm2"), "Section 4.2, after Theorem 2",
     "A small [lam] (indicating higher personalization) yields a small [L_F]", L_F, lam, 1),
    ("fedclup.text.step_in_lambda", ("fedclup.lemma1", "fedclup.thm2"), "Section 4.2, after Theorem 2",
     "and thus permits a larger choice of the step size [gamma]", 1 / L_F, lam, -1),
    ("fedclup.text.inv_q1_decreases", ("fedclup.thm1", "fedclup.thm1.8b"), S5,
     "As [lam] increases, [1/q_1(lam)] monotonically decreases to zero", INV_Q1, lam, -1),
    ("fedclup.text.optimization_error_in_lambda", ("fedclup.cor2.communication",), S5,
     "the optimization error in (15) is monotonically increasing with [lam]", OPT_BASE, lam, 1),
    ("fedclup.text.kappa_sensitivity_in_lambda", ("fedclup.cor2.communication",), "Appendix D.3.1, Tables 7 and 8",
     "This phenomenon aligns with our theoretical analysis, which shows that the sensitivity of communication "
     "complexity to [kappa] is amplified for larger values of [lam]", KAPPA_SENSITIVITY, lam, 1),
)
#: (id, claims, where, words, expr, var, point, atoms, free_of): the limit sentences
LIMITS = (
    ("fedclup.text.first_term_limit", ("fedclup.thm1", "fedclup.thm1.8b"), S41,
     "When [lam -> oo], the term [1/q_1(lam) -> 0] and the first term approaches [1/N + R^2]", RHS_8B_LOCAL, lam,
     sp.oo, ((rho**2 / (mu**2 * m * n), {R: 0}), (R**2, {rho: 0})), (m, n, R, rho)),
    ("fedclup.text.second_term_local", ("fedclup.thm1", "fedclup.thm1.8a"), S41,
     "a smaller [lam] leads to a rate closer to [1/n] corresponding to that of pure local training. This rate is "
     "independent of [R]", RHS_8A_LOCAL, lam, 0, ((rho**2 / (mu**2 * n), {}),), (m, n, R, rho)),
    ("fedclup.text.inv_q1_to_zero", ("fedclup.thm1", "fedclup.thm1.8b"), S5,
     "As [lam] increases, [1/q_1(lam)] monotonically decreases to zero", INV_Q1, lam, sp.oo, (), ()),
)
SA5 = ("Appendix A.5, the adaptive [lam] of Corollary 1, decided on this project's derived rule and bound "
       "(fedclup.cor1.explicit: the paper's rule is stripped from the copy)")
#: rho > 0, a hypothesis of fedclup.cor1.explicit (at rho = 0 its rule gives lam = 0 for every R: noise-free)
RHO_P = sp.Symbol("rho", positive=True)
#: (as LIMITS) Appendix A.5's sentences on Corollary 1's adaptive lambda as R -> oo and R -> 0, on the derived rule
#: LAM_COR1 and bound RHS_COR1 under their claim's hypothesis rho > 0 (the paper's own rule is stripped; "lam
#: increases" as R -> 0 is read as its limit, lam -> oo, i.e. 1/lam -> 0, as "[lam -> 0]" is for R -> oo)
COR1_LIMITS = (
    ("fedclup.text.cor1_lambda_heterogeneous", ("fedclup.cor1.explicit",), SA5,
     "As the statistical heterogeneity [R -> oo], we have [lam -> 0], leading to a high degree of personalization",
     LAM_COR1.subs(rho, RHO_P), R, sp.oo, (), ()),
    ("fedclup.text.cor1_lambda_homogeneous", ("fedclup.cor1.explicit",),
     SA5 + "; 'increases' read as lam -> oo, i.e. 1/lam -> 0",
     "as the statistical heterogeneity [R -> 0], [lam] increases, leading to a low degree of personalization",
     1 / LAM_COR1.subs(rho, RHO_P), R, 0, (), ()),
    ("fedclup.text.cor1_rate_homogeneous", ("fedclup.cor1.explicit",), SA5,
     "The statistical error bound eventually converges to [1/N], matching the rate of GlobalTrain under a "
     "homogeneous setting", RHS_COR1.subs(rho, RHO_P), R, 0, ((RHO_P**2 / (mu**2 * m * n), {}),), (m, n, R, RHO_P)),
)
MINIMAX_UNITS = ("fedclup.text.minimax_units", ("fedclup.cor1", "fedclup.cor1.explicit"),
                 "Section 4.1, after Corollary 1",
                 "Corollary 1 shows that with an appropriate choice of [lam], the established rate achieves the "
                 "minimax lower bound")
#: the lower bound in the units the suite compares it in (bounds.fedclup.findings.regime_table)
MINIMAX_LOWER_UNITS = rho**2 / (mu**2 * m * n) + sp.Min(R**2, rho**2 / (mu**2 * n))
LIMITS_SENTENCE = ("fedclup.text.problem2_limits", ("fedclup.thm1",), "Section 3, after (2)",
                   "As [lam -> 0], the influence of the global model diminishes, and Problem (2) increasingly behaves "
                   "like the LocalTrain problem")
#: Figure 2's closing sentence, printed in Section 6.2 and again in Appendix D.2, and its correction: (statement id,
#: where, words); "higher personalization" is a smaller lambda (Section 4.2: "A small [lam] (indicating higher
#: personalization)"), so "higher personalization requires more rounds" says the rounds DEcrease in lambda
FIGURE2_ROUNDS = (
    ("fedclup.figure2.rounds_direction", "Section 6.2, Figure 2",
     "This demonstrates that higher personalization requires more communication rounds to achieve comparable "
     "performance, aligning with our theoretical findings"),
    ("fedclup.figure2.rounds_direction_appendix", "Appendix D.2, Figure 2",
     "This demonstrates that higher personalization requires more communication rounds to achieve comparable "
     "performance, aligning with our theoretical findings."),
)
#: the sign of d rounds/d lambda each reading of FIGURE2_ROUNDS states: as printed, and corrected ("lower
#: personalization requires more communication rounds", what the same paragraph's next words and Corollary 2 say)
FIGURE2_SIGNS = {"as printed": -1, "corrected": 1}


def figure2_rounds(axis: str, options: tuple = tuple(FIGURE2_SIGNS)) -> list[Finding]:
    """Each place of Figure 2's closing sentence under each reading (``axis``: the erratum's id, ``options`` its
    options, printed first, in the order of :data:`FIGURE2_SIGNS`): the direction of Corollary 2's rounds in lambda."""
    return [direction(f"{sid}.{'printed' if option == options[0] else 'corrected'}", (sid,), where, words, ROUNDS,
                      lam, FIGURE2_SIGNS[key], kind="application", reading=((axis, option),))
            for sid, where, words in FIGURE2_ROUNDS for key, option in zip(FIGURE2_SIGNS, options)]


def remark_findings(closed_form_rows: tuple) -> list[Finding]:
    """Every finding of this module about the discussion (not Figure 2's, which need the erratum's axis)."""
    out = [direction(*row) for row in DIRECTIONS] + [limit_order(*row) for row in LIMITS + COR1_LIMITS]
    out.append(same_units(*MINIMAX_UNITS, RHS_COR1, MINIMAX_LOWER_UNITS))
    out.append(limits_agree(*LIMITS_SENTENCE, closed_form_rows))
    return out


__all__ = ["direction", "limit_order", "same_units", "limits_agree", "figure2_rounds", "remark_findings",
           "DIRECTIONS", "LIMITS", "COR1_LIMITS", "FIGURE2_ROUNDS", "FIGURE2_SIGNS", "ROUNDS", "INV_Q1", "OPT_BASE"]
