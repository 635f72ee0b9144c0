"""Mini-batch SSCA for sample- and feature-based FL (arXiv 2104.06011 v1): the paper's mathematics in sympy.

Numbers in parentheses are the paper's equation numbers. Renamed symbols: slack zeta (paper s), Theta_1/Theta_2 (paper B/C), kappa (paper mu in
Appendix C), H (paper h), pi_m/kappa_m (paper lambda_m/mu_m in Appendix B).

What is encoded
---------------
1. Step-size rules (4) and (6) as exact predicates on sequences in a positive-integer symbol ``t``
   (:func:`condition_4`, :func:`condition_6`), the power-law family rho = a1/t^alpha, gamma = a2/t^beta decided by
   sympy *and* by the p-series rule (:func:`power_law_conditions`), the exact region ``POWER_LAW_REGION`` and the
   Section VI triples (:func:`section_vi_step_sizes`).
2. The printed closed forms as sympy expressions with numpy functions lambdified from the same expressions:
   (9)/(19) (:func:`omega_bar_unconstrained`), (35)-(36) (:func:`omega_bar_regularized`), Lemma 1's (40)-(42)
   (``NU_42``, :func:`lemma1_nu`, :func:`lemma1_solution`).
3. Lemma 1's derivation from the Lagrangian of (38) (Appendix C; :func:`lemma1_checks`).
4. Unrolling of the surrogate recursions (3)+(7), (10)+(11), (13)+(15), (20)+(22) against the printed (8), (12),
   (18), (23)-(24) (:func:`unrolling_checks`, :func:`surrogate_weight`).
5. The sign of the printed statistic (32) against the constant term of surrogate (11) (:func:`a_bar_sign_check`).
6. KKT residuals of Problems 1/6, 3/8 and 4/9 (:func:`kkt_unconstrained`, :func:`kkt_constrained`,
   :func:`kkt_penalty`).
7. Claims (``CLAIMS``, :func:`claim`): closed forms (9), (19), (35)-(36), Lemma 1; Theorems 1-4 (almost-sure
   limit statements); Lemmas 2-4; delta_1 of Appendix A; Theorem 5 (i)/(ii) (:func:`thm5_checks`).
8. Identities the proofs use (:func:`identity_checks`).
9. The symbolic audit (:func:`audit_findings`).

Assumptions (named; none is checked here except where a function says so)
---------------------------------------------------------------------------
* Assumption 1: f(w, x) continuously differentiable in w with Lipschitz gradient.
* Assumption 2: surrogate gradient-consistent (2.1), strongly convex (2.2), Lipschitz in both arguments
  (2.3), uniformly bounded with its first two derivatives (2.4); constraint surrogates also match values.
* Theorems 1/3: bounded iterates (a.s. for Theorem 3). Theorems 2/4: compact constraint set ("of Problem 3" as
  printed, also in Theorem 4) and penalties 0 < c_j < c_{j+1} -> oo.
* Step sizes: (4) for rho, (6) for gamma.

Items 3, 5, 8 and 9, the checks of item 4 and the Theorem 5 checks of item 7 (:func:`lemma1_checks`,
:func:`unrolling_checks`, :func:`a_bar_sign_check`, :func:`thm5_checks`, :func:`identity_checks`,
:func:`audit_findings`) are the audit findings and live in :mod:`bounds.ssca.findings`.

Nothing expensive runs at import time; derivations are cached with ``functools.lru_cache``.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy as sp

from ..core import Claim, Mode, Provenance

__all__ = [
    "UndecidableCondition", "condition_4", "condition_6", "StepSizeVerdict", "power_law_conditions",
    "POWER_LAW_REGION", "SECTION_VI_TRIPLES", "SECTION_VI_GAMMA_OFFSET", "section_vi_step_sizes",
    "OMEGA_BAR_9", "OMEGA_BAR_35", "OMEGA_40", "D_42", "ROOT_42", "NU_42", "H_PRINTED", "HPRIME_PRINTED",
    "omega_bar_unconstrained", "omega_bar_regularized", "lemma1_nu", "lemma1_nu_scalar", "Lemma1Solution",
    "lemma1_solution",
    "surrogate_weight", "kkt_unconstrained", "kkt_constrained", "kkt_penalty", "CLAIMS", "claim",
]


# ============================================================================ 0. shared helpers
def _require(condition: bool, name: str, value, allowed: str) -> None:
    """Same contract as ``repro.errors.require`` (a ValueError naming parameter, value and what is allowed);
    re-implemented because nothing in ``bounds`` imports ``repro`` (docs/architecture.md)."""
    if not condition:
        raise ValueError(f"{name}={value!r} is not admissible: {allowed}")


# ============================================================================ 1. step-size rules (4), (6)
class UndecidableCondition(ValueError):
    """sympy could not decide an item of (4) or (6) for the given expression."""


t = sp.Symbol("t", positive=True, integer=True)
"""The iteration index, a positive integer."""

alpha = sp.Symbol("alpha", real=True)       # exponent of rho = a1/t^alpha
beta = sp.Symbol("beta", real=True)         # exponent of gamma = a2/t^beta
a1 = sp.Symbol("a1", real=True)
a2 = sp.Symbol("a2", real=True)
tau = sp.Symbol("tau", real=True)           # proximal weight of (7)/(11)/(15)/(22); hypothesis tau > 0

POWER_LAW_REGION = (sp.StrictLessThan(0, alpha), sp.LessThan(alpha, 1),
                    sp.StrictLessThan(sp.Rational(1, 2), beta), sp.LessThan(beta, 1),
                    sp.StrictGreaterThan(beta, alpha),
                    sp.StrictGreaterThan(a1, 0), sp.StrictGreaterThan(a2, 0))
"""Exact region where rho = a1/t^alpha satisfies (4) and gamma = a2/t^beta satisfies (6):
0 < alpha <= 1, 1/2 < beta <= 1, beta > alpha, a1 > 0, a2 > 0 (p-series rule; see :func:`power_law_conditions`)."""

SECTION_VI_TRIPLES = ((0.4, 0.4, 0.4), (0.6, 0.9, 0.3), (0.9, 0.9, 0.3))
"""(a1, a2, alpha) of Section VI; gamma exponent alpha + 0.05."""
SECTION_VI_GAMMA_OFFSET = 0.05


def _limit(expr: sp.Expr, var: sp.Symbol, item: str) -> sp.Expr:
    try:
        lim = sp.limit(expr, var, sp.oo)
    except Exception as exc:  # sympy raises many types (NotImplementedError, TypeError, ...)
        raise UndecidableCondition(f"{item}: sympy.limit failed on {expr} ({type(exc).__name__})") from exc
    if not (lim.is_number and lim.is_extended_real) or lim.has(sp.AccumBounds, sp.Limit, sp.nan):
        raise UndecidableCondition(f"{item}: limit of {expr} as {var} -> oo not decided (got {lim})")
    return lim


def _converges(expr: sp.Expr, var: sp.Symbol, item: str) -> bool:
    try:
        res = sp.Sum(expr, (var, 1, sp.oo)).is_convergent()
    except Exception as exc:
        raise UndecidableCondition(f"{item}: Sum.is_convergent failed on {expr} ({type(exc).__name__})") from exc
    if res is sp.true or res is True:
        return True
    if res is sp.false or res is False:
        return False
    raise UndecidableCondition(f"{item}: convergence of sum_{var} {expr} not decided (got {res})")


def _positive(expr: sp.Expr, var: sp.Symbol, item: str) -> bool:
    if not (var.is_positive and var.is_integer):
        raise ValueError(f"t={var!r} is not admissible: a sympy Symbol with positive=True, integer=True")
    val = sp.simplify(expr).is_positive
    if val is None:
        raise UndecidableCondition(f"{item}: positivity of {expr} for every positive integer {var} not decided")
    return bool(val)


def condition_4(rho: sp.Expr, t: sp.Symbol = t) -> dict[str, bool]:
    """(4): rho^(t) > 0, rho^(t) -> 0, sum_t rho^(t) = oo, decided exactly by sympy.

    Keys ``positive``, ``limit_zero``, ``sum_diverges`` (plain bools). Raises :class:`UndecidableCondition`
    naming the item and the expression when sympy cannot decide it.
    """
    rho = sp.sympify(rho)
    return {
        "positive": _positive(rho, t, "(4) positive"),
        "limit_zero": bool(_limit(rho, t, "(4) limit_zero") == 0),
        "sum_diverges": not _converges(rho, t, "(4) sum_diverges"),
    }


def condition_6(gamma: sp.Expr, rho: sp.Expr, t: sp.Symbol = t) -> dict[str, bool]:
    """(6): gamma^(t) > 0, -> 0, sum = oo, sum of squares < oo, gamma^(t)/rho^(t) -> 0 (exactly, by sympy).

    Keys ``positive``, ``limit_zero``, ``sum_diverges``, ``square_summable``, ``ratio_to_rho_zero``.
    The first relation of (6) is printed "gamma^(t) = 0" in the text copy; the intended > 0 is used.
    """
    gamma, rho = sp.sympify(gamma), sp.sympify(rho)
    return {
        "positive": _positive(gamma, t, "(6) positive"),
        "limit_zero": bool(_limit(gamma, t, "(6) limit_zero") == 0),
        "sum_diverges": not _converges(gamma, t, "(6) sum_diverges"),
        "square_summable": _converges(gamma**2, t, "(6) square_summable"),
        "ratio_to_rho_zero": bool(_limit(sp.simplify(gamma / rho), t, "(6) ratio_to_rho_zero") == 0),
    }


def _exact(name: str, x, positive: bool) -> sp.Rational:
    allowed = "a finite real number > 0" if positive else "a finite real number"
    _require(not isinstance(x, (bool, np.bool_, str)), name, x, allowed)
    if isinstance(x, (float, np.floating)):
        _require(math.isfinite(float(x)), name, x, allowed)
    try:
        r = sp.Rational(str(x)) if not isinstance(x, (sp.Rational, Fraction)) else sp.Rational(x)
    except (TypeError, ValueError, SyntaxError, sp.SympifyError):
        _require(False, name, x, allowed)
    _require(bool(r.is_finite) and (r > 0 if positive else True), name, x, allowed)
    return r


@dataclass(frozen=True)
class StepSizeVerdict:
    """(4) and (6) for rho = a1/t^alpha, gamma = a2/t^beta, decided by sympy and by the p-series rule."""

    a1: sp.Rational
    alpha: sp.Rational
    a2: sp.Rational
    beta: sp.Rational
    cond4: dict
    cond6: dict
    holds4: bool
    holds6: bool
    failed: tuple[str, ...]


def _p_series(alpha_: sp.Rational, beta_: sp.Rational) -> tuple[dict, dict]:
    """The p-series rule: sum t^-p < oo iff p > 1; t^-p -> 0 iff p > 0; t^(alpha-beta) -> 0 iff beta > alpha."""
    c4 = {"positive": True, "limit_zero": bool(alpha_ > 0), "sum_diverges": bool(alpha_ <= 1)}
    c6 = {"positive": True, "limit_zero": bool(beta_ > 0), "sum_diverges": bool(beta_ <= 1),
          "square_summable": bool(2 * beta_ > 1), "ratio_to_rho_zero": bool(beta_ > alpha_)}
    return c4, c6


def power_law_conditions(a1, alpha, a2, beta) -> StepSizeVerdict:
    """Decide (4) for rho = a1/t^alpha and (6) for gamma = a2/t^beta exactly.

    Floats are converted with ``sp.Rational(str(x))`` (0.45 is 9/20, not the binary double). Both routes (sympy
    limits/series and the p-series rule) must agree, else ``RuntimeError``. ``failed`` lists items such as
    ``"(6) square_summable"``. Raises ``ValueError`` naming the parameter for a1, a2 <= 0 or non-finite input.
    """
    A1, AL = _exact("a1", a1, True), _exact("alpha", alpha, False)
    A2, BE = _exact("a2", a2, True), _exact("beta", beta, False)
    return _power_law_cached(A1, AL, A2, BE)


@functools.lru_cache(maxsize=512)
def _power_law_cached(A1, AL, A2, BE) -> StepSizeVerdict:
    rho = A1 * t**(-AL)
    gam = A2 * t**(-BE)
    c4, c6 = condition_4(rho, t), condition_6(gam, rho, t)
    p4, p6 = _p_series(AL, BE)
    if c4 != p4 or c6 != p6:
        raise RuntimeError(f"sympy and the p-series rule disagree for a1={A1}, alpha={AL}, a2={A2}, beta={BE}: "
                           f"sympy (4) {c4} (6) {c6}; p-series (4) {p4} (6) {p6}")
    failed = tuple(f"(4) {k}" for k, v in c4.items() if not v) + tuple(f"(6) {k}" for k, v in c6.items() if not v)
    return StepSizeVerdict(A1, AL, A2, BE, dict(c4), dict(c6), all(c4.values()), all(c6.values()), failed)


def section_vi_step_sizes() -> list[StepSizeVerdict]:
    """Verdicts for the three Section VI triples (a1, a2, alpha), gamma exponent alpha + 0.05.
    Expected: (4) holds; (6) fails exactly on square summability, since 2 (alpha + 0.05) <= 1."""
    return [power_law_conditions(A1, al, A2, sp.Rational(str(al)) + sp.Rational(str(SECTION_VI_GAMMA_OFFSET)))
            for A1, A2, al in SECTION_VI_TRIPLES]


# ============================================================================ 2. closed forms (as printed)
f_hat = sp.Symbol("f_hat", real=True)          # one coordinate of hat f^(t)_{.,0,1} of (8)/(18)
theta = sp.Symbol("theta", real=True)          # one entry of Theta^(t)_1 or Theta^(t)_2 (29)-(31)
beta_run = sp.Symbol("beta_run", real=True)    # the matching entry of the running average beta^(t) (30)
lam = sp.Symbol("lam", real=True)              # regulariser lambda of (27)
_tau_p = sp.Symbol("tau", positive=True)       # tau > 0 for the closed forms
_lam_p = sp.Symbol("lam", positive=True)
b_sym = sp.Symbol("b", nonnegative=True)       # b = ||Theta_1||_F^2 + ||Theta_2||_F^2 (42)
A_sym = sp.Symbol("A", real=True)              # A^(t) of (39)
U_sym = sp.Symbol("U", real=True)              # cost limit of (37)
c_sym = sp.Symbol("c", positive=True)          # penalty c of (38)
nu_sym = sp.Symbol("nu", nonnegative=True)     # multiplier of the surrogate constraint of (38)
_D = sp.Symbol("D", positive=True)             # placeholder for b + 4 tau (U - A) when it is > 0

OMEGA_BAR_9 = -f_hat / (2 * _tau_p)
"""(9) / (19): bar omega = -hat f / (2 tau), coordinatewise."""
OMEGA_BAR_35 = -(theta + 2 * _lam_p * beta_run) / (2 * _tau_p)
"""(35)-(36): bar W = -(Theta + 2 lam beta)/(2 tau), entrywise."""
OMEGA_40 = -nu_sym * theta / (2 * (1 + nu_sym * _tau_p))
"""(40)-(41): bar W = -nu Theta / (2 (1 + nu tau)), entrywise."""
D_42 = b_sym + 4 * _tau_p * (U_sym - A_sym)
"""b + 4 tau (U - A), the case split of (42)."""
ROOT_42 = (sp.sqrt(b_sym / _D) - 1) / _tau_p
"""Interior expression of (42) with D standing for b + 4 tau (U - A) > 0."""
NU_42 = sp.Piecewise((sp.Min(sp.Max(ROOT_42.subs(_D, D_42), 0), c_sym), D_42 > 0), (c_sym, True))
"""(42) as printed: [ (sqrt(b/(b + 4 tau (U - A))) - 1)/tau ]_0^c if b + 4 tau (U - A) > 0, else c."""
H_PRINTED = nu_sym * (A_sym - U_sym - b_sym * nu_sym / (4 * (1 + _tau_p * nu_sym)))
"""Appendix C: H(nu) = nu (A - U - b nu / (4 (1 + tau nu)))."""
HPRIME_PRINTED = (b_sym - (b_sym + 4 * _tau_p * (U_sym - A_sym)) * (1 + nu_sym * _tau_p)**2) / (
    4 * _tau_p * (1 + nu_sym * _tau_p)**2)
"""Appendix C: H'(nu) = (b - (b + 4 tau (U - A)) (1 + nu tau)^2) / (4 tau (1 + nu tau)^2)."""

_f9 = sp.lambdify((f_hat, _tau_p), OMEGA_BAR_9, "numpy")
_f35 = sp.lambdify((theta, beta_run, _lam_p, _tau_p), OMEGA_BAR_35, "numpy")
_f40_coef = sp.lambdify((nu_sym, _tau_p), sp.cancel(OMEGA_40 / theta), "numpy")   # cancel: no simplify at import
_fD = sp.lambdify((b_sym, A_sym, U_sym, _tau_p), D_42, "numpy")
_froot = sp.lambdify((b_sym, _D, _tau_p), ROOT_42, "numpy")


def _pos_array(name: str, x) -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64)
    _require(bool(np.isfinite(arr).all() and (arr > 0).all()), name, x, "finite and > 0")
    return arr


def _finite_array(name: str, x) -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64)
    _require(bool(np.isfinite(arr).all()), name, x, "finite real numbers")
    return arr


def omega_bar_unconstrained(f_hat, tau) -> np.ndarray:
    """(9) / (19): -f_hat / (2 tau), lambdified from ``OMEGA_BAR_9``; arrays broadcast."""
    return np.asarray(_f9(_finite_array("f_hat", f_hat), _pos_array("tau", tau)), dtype=np.float64)


def omega_bar_regularized(theta, beta, lam, tau) -> np.ndarray:
    """(35)-(36): -(Theta + 2 lam beta)/(2 tau), lambdified from ``OMEGA_BAR_35``; arrays broadcast."""
    return np.asarray(_f35(_finite_array("theta", theta), _finite_array("beta", beta), _pos_array("lam", lam),
                           _pos_array("tau", tau)), dtype=np.float64)


def lemma1_nu(b, A, U, tau, c) -> np.ndarray:
    """(42) as printed, vectorised: the Piecewise ``NU_42`` evaluated from its lambdified pieces ``D_42`` and
    ``ROOT_42`` with the clipping [x]_0^c = min(max(x, 0), c). ``b = ||Theta||^2`` (>= 0)."""
    b_ = np.asarray(b, dtype=np.float64)
    _require(bool(np.isfinite(b_).all() and (b_ >= 0).all()), "b", b, "finite and >= 0 (b = ||Theta||^2)")
    A_, U_ = _finite_array("A", A), _finite_array("U", U)
    tau_a, c_ = _pos_array("tau", tau), _pos_array("c", c)
    b_, A_, U_, tau_a, c_ = np.broadcast_arrays(b_, A_, U_, tau_a, c_)
    D = np.asarray(_fD(b_, A_, U_, tau_a), dtype=np.float64)
    pos = D > 0
    root = np.asarray(_froot(b_, np.where(pos, D, 1.0), tau_a), dtype=np.float64)
    return np.where(pos, np.minimum(np.maximum(root, 0.0), c_), c_)


def lemma1_nu_scalar(b: float, A: float, U: float, tau: float, c: float) -> float:
    """:func:`lemma1_nu` for one point whose inputs the caller has validated (finite floats, b >= 0, tau > 0,
    c > 0): the same lambdified pieces ``D_42`` and ``ROOT_42`` and the same clipping, without the checks and the
    array broadcasting, which cost more than (42) itself in the SSCA server step that calls it every iteration.
    Equal to ``float(lemma1_nu(b, A, U, tau, c))`` bit for bit (``tests/ssca/test_bounds.py``)."""
    D = _fD(b, A, U, tau)
    return float(min(max(_froot(b, D, tau), 0.0), c)) if D > 0 else float(c)


@dataclass(frozen=True)
class Lemma1Solution:
    """Closed-form solution of (38) by Lemma 1: omega (40)-(41), nu (42), zeta = max(0, F_bar(omega) + A - U)."""

    omega: np.ndarray
    nu: float
    zeta: float
    regime: str        # "inactive" (nu = 0), "active" (0 < nu < c), "saturated" (nu = c)
    b: float


def lemma1_solution(theta: np.ndarray, A: float, U: float, tau: float, c: float) -> Lemma1Solution:
    """Lemma 1: solve (38) min ||w||^2 + c zeta s.t. <Theta, w> + tau ||w||^2 + A - U <= zeta, zeta >= 0 in
    closed form. ``theta`` is Theta (any shape; Theta_1 and Theta_2 stacked/flattened); omega has its shape."""
    th = _finite_array("theta", theta)
    for name, v in (("A", A), ("U", U)):
        _require(np.ndim(v) == 0 and math.isfinite(float(v)), name, v, "a finite real scalar")
    for name, v in (("tau", tau), ("c", c)):
        _require(np.ndim(v) == 0 and math.isfinite(float(v)) and float(v) > 0, name, v, "a finite real scalar > 0")
    b = float(np.sum(th * th))
    nu = float(lemma1_nu(b, A, U, tau, c))
    omega = np.asarray(_f40_coef(nu, float(tau)), dtype=np.float64) * th
    fbar = float(np.sum(th * omega) + float(tau) * np.sum(omega * omega))
    zeta = max(0.0, fbar + float(A) - float(U))
    regime = "inactive" if nu == 0.0 else ("saturated" if nu == float(c) else "active")
    return Lemma1Solution(omega=omega, nu=nu, zeta=zeta, regime=regime, b=b)


# ============================================================================ 4. surrogate unrolling (6.5)
def surrogate_weight(rho: np.ndarray) -> np.ndarray:
    """w_t = 1 - prod_{s<=t} (1 - rho_s), the ||omega||^2 weight (over tau) of the literal recursions started from
    0 (:func:`unrolling_checks`). ``rho`` is the sequence rho_1, rho_2, ... with entries in (0, 1]."""
    r = np.asarray(rho, dtype=np.float64)
    _require(r.ndim == 1 and r.size >= 1 and bool(np.isfinite(r).all() and np.all((r > 0) & (r <= 1))),
             "rho", rho, "a nonempty 1-d sequence with entries in (0, 1]")
    return 1.0 - np.cumprod(1.0 - r)


# ============================================================================ 6. KKT residuals
# Every function here takes one instance or a stack of them: a gradient (d,) or (..., d), constraint gradients
# (M, d) or (..., M, d), values and multipliers (M,) or (..., M), the leading axes ``...`` shared (e.g. one row per
# iteration of a run). Each residual is a float for one instance and an array over the leading axes for a stack.
def _vec(name: str, x, ndim: int) -> np.ndarray:
    arr = np.asarray(x, dtype=np.float64)
    _require(arr.ndim >= ndim and bool(np.isfinite(arr).all()), name, x,
             f"a finite {ndim}-d array, or a stack of them (leading axes)")
    return arr


def _out(x):
    """A residual: a float for one instance, an array over the leading axes for a stack."""
    x = np.asarray(x, dtype=np.float64)
    return float(x) if x.ndim == 0 else x


def _norm(x: np.ndarray):
    return np.linalg.norm(x, axis=-1)


def _largest(x: np.ndarray):
    """max over the last axis (M), 0 where M = 0."""
    return x.max(axis=-1) if x.shape[-1] else np.zeros(x.shape[:-1])


def kkt_unconstrained(grad: np.ndarray) -> dict:
    """Problems 1 / 6: ||grad F_0(omega)||. For feature-based Problem 6 pass the concatenation of the block
    gradients (omega_0, omega_1, ..., omega_I)."""
    gr = _vec("grad", grad, 1)
    return {"stationarity": _out(_norm(gr))}


def _constraint_inputs(grad0, grads, values, multipliers):
    g0 = _vec("grad0", grad0, 1)
    G = _vec("grads", grads, 2)
    v = _vec("values", values, 1)
    lead = g0.shape[:-1]
    _require(G.shape == lead + (G.shape[-2], g0.shape[-1]), "grads", f"shape {G.shape}",
             f"shape {lead + ('M', g0.shape[-1])} matching grad0")
    _require(v.shape == G.shape[:-1], "values", f"shape {v.shape}", f"shape {G.shape[:-1]} matching grads")
    if multipliers is not None:
        pi = _vec("multipliers", multipliers, 1)
        _require(pi.shape == v.shape, "multipliers", f"shape {pi.shape}", f"shape {v.shape}")
    else:
        pi = None
    return g0, G, v, pi


def _least_squares_multipliers(G: np.ndarray, g0: np.ndarray, solve) -> np.ndarray:
    """pi minimising ||g0 + G^T pi|| under ``solve``'s bounds, one instance at a time (``solve(A, b) -> x``)."""
    pi = np.zeros(G.shape[:-1])
    if G.shape[-2]:
        for i in np.ndindex(g0.shape[:-1]):
            pi[i] = solve(G[i].T, -g0[i])
    return pi


def _residual_of_stationarity(g0, G, pi):
    return _norm(g0 + np.einsum("...m,...md->...d", pi, G))


def kkt_constrained(grad0: np.ndarray, grads: np.ndarray, values: np.ndarray,
                    multipliers: np.ndarray | None = None) -> dict:
    """Problems 3 / 8: residuals of grad F_0 + sum_m pi_m grad F_m = 0, F_m <= 0, pi >= 0, pi_m F_m = 0.

    ``grad0`` (d,), ``grads`` (M, d), ``values`` (M,) = F_m(omega), or stacks of them. When ``multipliers`` is None,
    pi is the nonnegative least-squares solution of the stationarity equation (``scipy.optimize.nnls``). Keys:
    stationarity, primal, dual, complementarity, multipliers, max. Feature-based Problem 8: concatenate blocks.
    """
    from scipy.optimize import nnls

    g0, G, v, pi = _constraint_inputs(grad0, grads, values, multipliers)
    if pi is None:
        pi = _least_squares_multipliers(G, g0, lambda A, b: nnls(A, b)[0])
    stat = _residual_of_stationarity(g0, G, pi)
    primal = np.maximum(0.0, _largest(v))
    dual = np.maximum(0.0, _largest(-pi))
    comp = _largest(np.abs(pi * v))
    return {"stationarity": _out(stat), "primal": _out(primal), "dual": _out(dual), "complementarity": _out(comp),
            "multipliers": pi, "max": _out(np.maximum.reduce([stat, primal, dual, comp]))}


def kkt_penalty(grad0: np.ndarray, grads: np.ndarray, values: np.ndarray, zeta: np.ndarray, c: float,
                multipliers: np.ndarray | None = None) -> dict:
    """Problems 4 / 9: residuals with kappa = c - pi: stationarity ||grad F_0 + sum pi_m grad F_m||, primal
    max(0, F_m - zeta_m, -zeta_m), dual (pi outside [0, c], i.e. pi >= 0 and kappa >= 0), complementarity
    max(|pi_m (F_m - zeta_m)|, |kappa_m zeta_m|). Without ``multipliers``, pi is the bounded least-squares
    solution (``scipy.optimize.lsq_linear`` on [0, c]). Feature-based Problem 9: concatenate blocks. Inputs as
    :func:`kkt_constrained`, ``zeta`` shaped like ``values``."""
    from scipy.optimize import lsq_linear

    g0, G, v, pi = _constraint_inputs(grad0, grads, values, multipliers)
    z = _vec("zeta", zeta, 1)
    _require(z.shape == v.shape, "zeta", f"shape {z.shape}", f"shape {v.shape} matching values")
    _require(np.ndim(c) == 0 and math.isfinite(float(c)) and float(c) > 0, "c", c, "a finite real scalar > 0")
    c = float(c)
    if pi is None:
        pi = _least_squares_multipliers(
            G, g0, lambda A, b: lsq_linear(A, b, bounds=(0.0, c), method="bvls", tol=1e-14).x)
    kappa = c - pi
    stat = _residual_of_stationarity(g0, G, pi)
    primal = np.maximum(0.0, np.maximum(_largest(v - z), _largest(-z)))
    dual = np.maximum(0.0, np.maximum(_largest(-pi), _largest(-kappa)))
    comp = np.maximum(_largest(np.abs(pi * (v - z))), _largest(np.abs(kappa * z)))
    return {"stationarity": _out(stat), "primal": _out(primal), "dual": _out(dual), "complementarity": _out(comp),
            "multipliers": pi, "kappa": kappa, "max": _out(np.maximum.reduce([stat, primal, dual, comp]))}


# ============================================================================ 7. claims
OBSERVED = {
    "closed_form_error": "relative distance ||closed form - reference minimiser|| / max(1, ||reference||) "
                         "(reference solver on the printed problem; checked up to the solver tolerance)",
    "kkt_residual_at_limit_points": "KKT residual at limit points of the iterates (finite runs: its trend)",
    "tracking_error_limit": "lim_t ||grad F_bar^(t)_0(omega^(t)) - grad F_0(omega^(t))|| (Lemma 2; runs: trend)",
    "surrogate_gap_limit": "lim_t |F_bar^(t)_0(omega) - G_0(omega, omega^(t))| at probe points (Lemma 2; trend)",
    "constraint_value_tracking_limit": "lim_t max_(m >= 1) |F_bar^(t)_m(omega^(t)) - F_m(omega^(t))| (Lemma 5; trend)",
    "gradient_tracking_limit": "lim_t max_(m = 0..M) ||grad F_bar^(t)_m(omega^(t)) - grad F_m(omega^(t))|| (Lemma 5; "
                               "trend)",
    "constrained_surrogate_gap_limit": "lim_t max_m |F_bar^(t)_m(omega) - G_m(omega, omega^(t))| at a probe point of "
                                       "Omega (Lemma 5; trend)",
    "limit_value_gap": "max_(m >= 1) |F_tilde_m(omega*_j) - F_m(omega*_j)| at a limit point (Lemma 6 (70))",
    "limit_gradient_gap": "max_(m = 0..M) ||grad F_tilde_m(omega*_j) - grad F_m(omega*_j)|| (Lemma 6 (71))",
    "omega_bar_gap": "||bar omega^(t1) - bar omega^(t2)|| (Lemma 3 (43))",
    "iterate_gap": "||omega^(t1) - omega^(t2)|| (Lemma 3 (43))",
    "e_tilde": "tilde e(t1, t2) of (46), -> 0 a.s. (Lemma 3)",
    "descent": "F_0(omega^(t+1)) - F_0(omega^(t)) (Lemma 4 (51))",
    "Delta": "||bar omega^(t) - omega^(t)|| (Lemma 4 (51))",
    "err": "||grad F_0(omega^(t)) - grad F_bar^(t)_0(omega^(t))|| (Lemma 4 (51))",
    "gamma_window_sum": "liminf_t sum_{n=t}^{i_t - 1} gamma^(n) over the index windows of (60)",
    "local_optimality_violation": "max(0, ||omega*||^2 - min ||omega||^2 over feasible points of (37) near omega*) "
                                  "(Theorem 5 (i); probed)",
    "stationarity_residual_27": "||grad F(omega^dagger) + 2 lam omega^dagger|| (Theorem 5 (ii))",
}
_OBS = {name: sp.Symbol(name) for name in OBSERVED}
closed_form_error = _OBS["closed_form_error"]
kkt_residual_at_limit_points = _OBS["kkt_residual_at_limit_points"]

omega_bar = sp.Symbol("omega_bar", real=True)
W_bar = sp.Symbol("W_bar", real=True)
mu = sp.Symbol("mu", real=True)
_coordinate = sp.Symbol("w", real=True)
MU_PRINTED_SURROGATE = sp.diff(tau * _coordinate**2, _coordinate, 2)
"""mu of Assumption 2.2 for the printed surrogates (8)/(18): the curvature of their proximal term
tau ||omega - omega^(t)||^2 along any direction (their linear terms add none), i.e. 2 tau."""
L_tilde = sp.Symbol("L_tilde", real=True)
L_bar = sp.Symbol("L_bar", real=True)
L_hat = sp.Symbol("L_hat", real=True)
gamma_s = sp.Symbol("gamma", real=True)
delta_1 = sp.Symbol("delta_1", real=True)
F_star = sp.Symbol("F_star", real=True)
U_c = sp.Symbol("U", real=True)
xi = sp.Symbol("xi", real=True)

DOMAINS = {
    "t": "integer >= 1 (iteration)", "alpha": "real (exponent of rho = a1/t^alpha)",
    "beta": "real (exponent of gamma = a2/t^beta)", "a1": "real > 0", "a2": "real > 0",
    "tau": "real > 0 (proximal weight of the surrogates)", "f_hat": "real (a coordinate of hat f^(t)_{.,0,1})",
    "omega_bar": "real (a coordinate of bar omega^(t))", "theta": "real (an entry of Theta_1^(t) or Theta_2^(t))",
    "beta_run": "real (the matching entry of beta^(t) (30))", "lam": "real > 0 (regulariser of (27))",
    "W_bar": "real (an entry of bar W^(t))", "b": "real >= 0 (||Theta_1||^2 + ||Theta_2||^2)", "A": "real (A^(t))",
    "U": "real (cost limit of (37); U > 0 in Theorem 5 (ii))", "c": "real > 0 (penalty)",
    "nu": "real in [0, c] (multiplier of the surrogate constraint of (38))", "zeta": "real >= 0 (slack of (38))",
    "mu": "real > 0 (uniform strong-convexity modulus of F_bar^(t)_0; 2 tau for the printed surrogates)",
    "L_tilde": "real > 0 (Lipschitz constant of G_0(omega, .) (45))", "L_bar": "real > 0 (Lemma 3 constant)",
    "L_hat": "real > 0 (Lipschitz constant of grad F_0)", "gamma": "real > 0 (step gamma^(t))",
    "delta_1": "real > 0 (constant of (60))", "F_star": "real (F(omega*) at a local optimum of (27))",
    "xi": "real > 0 (KKT multiplier of (37))",
}


def _domains_of(*exprs) -> dict:
    syms = set()
    for e in exprs:
        if isinstance(e, dict):
            for k, v in e.items():
                syms |= {k} | sp.sympify(v).free_symbols
        elif isinstance(e, (tuple, list)):
            for x in e:
                syms |= sp.sympify(x).free_symbols
        else:
            syms |= sp.sympify(e).free_symbols
    out = {}
    for s in sorted(syms, key=str):
        out[s] = DOMAINS[str(s)] if str(s) in DOMAINS else "observed: " + OBSERVED[str(s)]
    return out


def _mk(id_, location, statement, conclusion, mode, provenance=Provenance.PAPER, hypotheses=(), parameters=None,
        derived_from="", notes="") -> Claim:
    parameters = parameters or {}
    return Claim(id=id_, location=location, statement=statement,
                 domains=_domains_of(conclusion, hypotheses, parameters), conclusion=conclusion, mode=mode,
                 provenance=provenance, hypotheses=hypotheses, parameters=parameters, derived_from=derived_from,
                 notes=notes)


_CF = (sp.Le(closed_form_error, 0),)
_CF_NOTE = ("Deterministic algebra per realisation of the batches. The observed error is compared with 0 up to the "
            "reference solver's tolerance (tests: 1e-6 relative to max(1, ||reference||)). The printed "
            "surrogate (8)/(18) differs from the literal recursion by the factor w_t = 1 - prod(1 - rho_s) on "
            "||omega||^2 (ssca.surrogate_weight finding); the claim is about the printed problem.")
_tau_pos = sp.StrictGreaterThan(tau, 0)
_lam_pos = sp.StrictGreaterThan(lam, 0)

eq9 = _mk("ssca.eq9", "(8)-(9), Section III-A (sample-based objective surrogate (7))",
          "bar omega^(t)_s = -hat f^(t)_{s,0,1}/(2 tau) minimises the printed surrogate (8), i.e. solves Problem 2.",
          _CF, Mode.DETERMINISTIC, hypotheses=(_tau_pos,), parameters={omega_bar: -f_hat / (2 * tau)}, notes=_CF_NOTE)
eq19 = _mk("ssca.eq19", "(18)-(19), Section IV-A (feature-based objective surrogate (15))",
           "bar omega^(t)_f = -hat f^(t)_{f,0,1}/(2 tau) minimises the printed surrogate (18), i.e. solves Problem 7.",
           _CF, Mode.DETERMINISTIC, hypotheses=(_tau_pos,), parameters={omega_bar: -f_hat / (2 * tau)},
           notes=_CF_NOTE + " The gradient is the concatenation of the blocks (16)-(17).")
eq35_36 = _mk("ssca.eq35_36", "(35)-(36), Section V-A (problem (28)-(29) for (27))",
              "bar W^(t) = -(Theta^(t) + 2 lam beta^(t))/(2 tau) entrywise minimises (29) + 2 lam beta^T omega.",
              _CF, Mode.DETERMINISTIC, hypotheses=(_tau_pos, _lam_pos),
              parameters={W_bar: -(theta + 2 * lam * beta_run) / (2 * tau)}, notes=_CF_NOTE)
lemma1 = _mk("ssca.lemma1", "Lemma 1, (40)-(42), Section V-B; proof Appendix C",
             "(40)-(42) solve (38): bar W = -nu Theta/(2(1 + nu tau)) with nu of (42); zeta = max(0, F_bar + A - U).",
             _CF, Mode.DETERMINISTIC, provenance=Provenance.PAPER,
             parameters={nu_sym: NU_42, W_bar: OMEGA_40},
             notes="Deterministic and exact. Symbols b, A, U, c, tau of (42) (tau, c > 0 and b >= 0 by "
                   "their sympy assumptions). The optimal slack follows as zeta = max(0, F_bar(bar omega) + A - U). "
                   "Derivation checked by ssca.lemma1_checks(); regimes nu = 0 / (0, c) / c. The claim concerns (38) "
                   "as "
                   "printed; (38) inherits the missing factor w_t (ssca.surrogate_weight) and the sign of (32) "
                   "(ssca.a_bar_sign).")

_THM_HYP = POWER_LAW_REGION + (_tau_pos,)
_THM_NOTE = ("Hypotheses encoded symbolically: the step-size rules (4) and (6), for the power-law family "
             "rho = a1/t^alpha, "
             "gamma = a2/t^beta (the only family the paper uses) the exact region POWER_LAW_REGION, and tau > 0 of the "
             "example surrogates. Not symbolic: {extra}. Almost-sure statement about limit points: a finite run can "
             "neither confirm nor refute it; runs report the trend of the KKT residual and of the quantities "
             "the proof says vanish (||bar omega - omega||, tracking error). No rate is stated.")
thm1 = _mk("ssca.thm1", "Theorem 1, Section III-A (proof Appendix A)",
           "Every limit point of {omega^(t)_s} of Algorithm 1 is a KKT (stationary) point of Problem 1 almost surely.",
           (sp.Le(kkt_residual_at_limit_points, 0),), Mode.ALMOST_SURE_LIMIT, hypotheses=_THM_HYP,
           notes=_THM_NOTE.format(extra="Assumption 1 for f_{s,0}; Assumption 2 for bar f_{s,0}; "
                                  "{omega^(t)_s} bounded"))
thm2 = _mk("ssca.thm2", "Theorem 2, Section III-B (proof Appendix B)",
           "(i) if zeta*_j = 0, omega*_j is a KKT point of Problem 3 a.s.; (ii) limit points over c_j -> oo have "
           "zeta* = 0 and are KKT points of Problem 3 a.s.",
           (sp.Le(kkt_residual_at_limit_points, 0),), Mode.ALMOST_SURE_LIMIT, hypotheses=_THM_HYP,
           notes=_THM_NOTE.format(extra="Assumption 1 for f_{s,m}, m = 0..M; Assumption 2 and value matching for "
                                  "bar f_{s,m}; the constraint set of Problem 3 compact; 0 < c_j < c_{j+1}, c_j -> oo "
                                  "(the experiments use one c = 1e5)"))
thm3 = _mk("ssca.thm3", "Theorem 3, Section IV-A (proof as Appendix A)",
           "Every limit point of {omega^(t)_f} of Algorithm 3 is a KKT (stationary) point of Problem 6 almost surely.",
           (sp.Le(kkt_residual_at_limit_points, 0),), Mode.ALMOST_SURE_LIMIT, hypotheses=_THM_HYP,
           notes=_THM_NOTE.format(extra="Assumption 1 for f_{f,0}; Assumption 2 for bar f_{f,0}; {omega^(t)_f} bounded "
                                  "almost surely"))
thm4 = _mk("ssca.thm4", "Theorem 4, Section IV-B (proof as Appendix B)",
           "(i)/(ii) as Theorem 2 for Algorithm 4 and Problem 8, almost surely.",
           (sp.Le(kkt_residual_at_limit_points, 0),), Mode.ALMOST_SURE_LIMIT, hypotheses=_THM_HYP,
           notes=_THM_NOTE.format(extra="Assumption 1 for f_{f,m}; Assumption 2 and value matching for bar f_{f,m}; "
                                  "'the constraint set of Problem 3 is compact' as printed (Problem 8 intended; "
                                  "ssca.thm4.problem_reference); 0 < c_j < c_{j+1}, c_j -> oo"))
lemma2 = _mk("ssca.lemma2", "Lemma 2, Appendix A",
             "Almost surely ||grad F_bar^(t)_0(omega^(t)) - grad F_0(omega^(t))|| -> 0 and "
             "|F_bar^(t)_0(omega) - G_0(omega, omega^(t))| -> 0 for every omega.",
             (sp.Le(_OBS["tracking_error_limit"], 0), sp.Le(_OBS["surrogate_gap_limit"], 0)),
             Mode.ALMOST_SURE_LIMIT, provenance=Provenance.PAPER_APPENDIX, hypotheses=_THM_HYP,
             notes="Consequence of '[35, Lemma 1]' (reference list missing): conditions (a) bounded iterates, (b) "
                   "Assumption 2.4, (c)-(d) step sizes (4), (6), (e) Assumption 1 and (6). Runs: trends only.")
lemma5 = _mk("ssca.lemma5", "Lemma 5, Appendix B",
             "For Algorithm 2 (Algorithm 4), almost surely |F_bar^(t)_m(omega^(t)) - F_m(omega^(t))| -> 0 (m = 1..M), "
             "||grad F_bar^(t)_m(omega^(t)) - grad F_m(omega^(t))|| -> 0 (m = 0..M) and |F_bar^(t)_m(omega) - "
             "G_m(omega, omega^(t))| -> 0 for every omega in the constraint set Omega of Problem 3 (Problem 8).",
             (sp.Le(_OBS["constraint_value_tracking_limit"], 0), sp.Le(_OBS["gradient_tracking_limit"], 0),
              sp.Le(_OBS["constrained_surrogate_gap_limit"], 0)),
             Mode.ALMOST_SURE_LIMIT, provenance=Provenance.PAPER_APPENDIX, hypotheses=_THM_HYP,
             notes="Lemma 2's statement for the constrained algorithms, 'a consequence of [35, Lemma 1]': conditions "
                   "(a) Omega compact, (b) Assumption 2.4, (c)-(d) step sizes (4), (6), (e) Assumption 1.2 and (6). "
                   "Runs: trends only; the third limit at one probe point of Omega (the loss minimiser).")
lemma6 = _mk("ssca.lemma6", "Lemma 6, (69)-(71), Appendix B",
             "Along a subsequence of Algorithm 2 (Algorithm 4) converging to a limit point omega*_j, the surrogates "
             "converge to uniformly continuous F_tilde_m on Omega (69), with F_tilde_m(omega*_j) = F_m(omega*_j), "
             "m = 1..M (70), and grad F_tilde_m(omega*_j) = grad F_m(omega*_j), m = 0..M (71), almost surely.",
             (sp.Le(_OBS["limit_value_gap"], 0), sp.Le(_OBS["limit_gradient_gap"], 0)),
             Mode.ALMOST_SURE_LIMIT, provenance=Provenance.PAPER_APPENDIX, hypotheses=_THM_HYP,
             notes="(69) by Arzela-Ascoli (equicontinuous, bounded surrogates on the compact Omega); (70)-(71) 'follow "
                   "immediately from (69) and Lemma 5'. Runs: the trend of Lemma 5's value and gradient gaps, whose "
                   "limits along the subsequence are (70)-(71).")
lemma3 = _mk("ssca.lemma3", "Lemma 3, (43)-(50), Appendix A",
             "||bar omega^(t1) - bar omega^(t2)|| <= L_bar ||omega^(t1) - omega^(t2)|| + e(t1, t2), e -> 0 a.s., "
             "with L_bar = 2 L_tilde/mu and e = (2/mu) tilde e.",
             (sp.Le(_OBS["omega_bar_gap"], L_bar * _OBS["iterate_gap"] + 2 * _OBS["e_tilde"] / mu),),
             Mode.ALMOST_SURE_LIMIT, provenance=Provenance.PAPER_APPENDIX,
             hypotheses=(sp.StrictGreaterThan(mu, 0), sp.StrictGreaterThan(L_tilde, 0)),
             parameters={L_bar: 2 * L_tilde / mu},
             notes="L_bar = 2 L_tilde/mu as derived in the appendix proof; mu = 2 tau for the printed "
                   "surrogates (2 tau w_t for the literal recursion). The remainder vanishes only in the limit a.s.")
lemma4 = _mk("ssca.lemma4", "Lemma 4, (51), Appendix A",
             "F_0(omega^(t+1)) - F_0(omega^(t)) <= gamma Delta err - gamma (mu - L_hat gamma/2) Delta^2.",
             (sp.Le(_OBS["descent"], gamma_s * _OBS["Delta"] * _OBS["err"]
                    - gamma_s * (mu - L_hat * gamma_s / 2) * _OBS["Delta"]**2),),
             Mode.DETERMINISTIC, provenance=Provenance.PAPER_APPENDIX,
             hypotheses=(sp.StrictGreaterThan(gamma_s, 0), sp.StrictGreaterThan(mu, 0),
                         sp.StrictGreaterThan(L_hat, 0)),
             notes="Per realisation. Delta = ||bar omega - omega||, err = ||grad F_0(omega) - grad "
                   "F_bar(omega)||, mu the strong-convexity modulus of F_bar (2 tau for the printed surrogates), "
                   "L_hat a Lipschitz constant of grad F_0 (on the visited region in runs).")
appA_delta1 = _mk("ssca.appA.delta1", "(60), Appendix A (proof of Theorem 1, limsup part)",
                  "liminf sum_{n=t}^{i_t - 1} gamma^(n) >= delta_1 = 1/(2 (1 + L_bar)).",
                  (sp.Ge(_OBS["gamma_window_sum"], delta_1),), Mode.ALMOST_SURE_LIMIT,
                  provenance=Provenance.PAPER_APPENDIX, hypotheses=(sp.StrictGreaterThan(L_bar, 0),),
                  parameters={delta_1: 1 / (2 * (1 + L_bar))},
                  notes="Only the constant map can be encoded; the inequality holds along the index windows "
                        "of the contradiction argument, which a run does not construct. Written observed >= bound.")
thm5_i = _mk("ssca.thm5.i", "Theorem 5 (i), Section V-C; proof Appendix D",
             "A local optimum omega* of (27) (lam > 0) is a local optimum of (37) with U = F(omega*).",
             (sp.Le(_OBS["local_optimality_violation"], 0),), Mode.DETERMINISTIC,
             hypotheses=(_lam_pos,), parameters={U_c: F_star},
             notes="Local optimality judged by probing in runs. Algebra: ssca.thm5_checks().")
thm5_ii = _mk("ssca.thm5.ii", "Theorem 5 (ii), Section V-C; proof Appendix D",
              "A regular local optimum of (37) (U > 0) with KKT multiplier xi > 0 is a stationary point of (27) with "
              "lam = 1/xi (a local optimum if grad^2 F + lam I is PSD).",
              (sp.Le(_OBS["stationarity_residual_27"], 0),), Mode.DETERMINISTIC,
              hypotheses=(sp.StrictGreaterThan(xi, 0), sp.StrictGreaterThan(U_c, 0)), parameters={lam: 1 / xi},
              notes="The relation symbol of the second-order condition is illegible in the copy; Appendix D glosses it "
                    "as positive semidefinite. grad^2 F + lam I >= 0 implies grad^2 F + 2 lam I (the Hessian of (27)) "
                    ">= lam I > 0, a sufficient condition (ssca.thm5_checks()).")

CLOSED_FORMS = (eq9, eq19, eq35_36, lemma1)
THEOREMS = (thm1, thm2, thm3, thm4)
LEMMAS = (lemma2, lemma3, lemma4, appA_delta1, lemma5, lemma6)
THEOREM5 = (thm5_i, thm5_ii)
CLAIMS = CLOSED_FORMS + THEOREMS + LEMMAS + THEOREM5


def claim(id_: str) -> Claim:
    """Look a claim up by id; unknown ids raise ``KeyError`` naming the id and listing the known ones."""
    for cl in CLAIMS:
        if cl.id == id_:
            return cl
    raise KeyError(f"unknown claim {id_!r}; known: {', '.join(cl.id for cl in CLAIMS)}")
