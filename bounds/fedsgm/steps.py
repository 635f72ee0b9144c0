"""FedSGM: the displayed steps of the appendix's proofs, each encoded as a falsifiable claim
(:class:`bounds.steps.Step`) and checked by experiment ``fedsgm.steps`` (:mod:`repro.proof_search`).

Each step carries the proof and label of its display in :data:`bounds.fedsgm.proofs.DISPLAYS`, the claim the proof
establishes, the hypotheses in force there, what the paper cites for it, and its ``reading``: how the display became
scalars (vectors as their coordinates in R^2, an expectation over the compressor or the local steps as a finite
distribution, a function's value and subgradient at a point as free symbols tied by the function class's inequality).

Modelling conventions, named once here (each step's ``reading`` says which it uses):

* sums over clients and local steps of *vectors* are written out for n = 2 clients and E = 2 local steps (Lemma 5's
  drift at tau = 3); the printed constants are evaluated there (E^2 = 4, q_u/n = q_u/2, ...);
* a compressor C_j at x is a two-atom random vector, x + (1 - p_j) d_j with probability p_j and x - p_j d_j with
  probability 1 - p_j (unbiased for every p_j, d_j), independent across clients: E_C is the sum over the joint atoms;
  a realised compressor in an identity is a coordinate mask diag(m_j1, m_j2);
* sums of *scalars* that a display keeps as sums (the drift sum_j sum_tau ||w_t - w_{j,tau}||^2, the local gaps) are
  one symbol each, with n, E symbolic; a sum of a constant over j, tau is computed by ``sympy.summation``;
* rounds t = 0..T-1 are written out for T = 3 (or 4) when a display sums per-round inequalities, and a vector
  identity u = v is checked as <z, u> = <z, v> for a free z in R^2;
* an equality in force (a definition, eta = eta(Gamma), eps = (N+1) eps(Gamma) or 2 eps(Gamma)) is substituted; an
  inequality in force that bounds one free scalar linearly (an earlier display bounding a distance, a gap or a Term, a
  convexity inequality fixing a function value) is imposed exactly by writing that scalar as its bound -/+ a slack
  s_* >= 0 (the same assignments as the hypothesis, but all of them reachable by the search, and sympy may then prove
  the step outright); the other inequalities in force (||v|| <= G, Assumption 2, Lemma 5 on a drift sum, ...) are
  hypotheses;
* a strict relation the paper prints (<, >) is encoded as the non-strict one (a float search cannot tell them apart),
  which the reading notes; a display holding two relations in one line is encoded as its first expression vs its last
  (display 13: its first relation, the second being display 12; (6), (13): both at once as a max).
"""
from __future__ import annotations

import itertools

import sympy as sp

from .claims import D, E, G, Gamma_proof, N, T, a, beta, eps, eta, n, q, tau
from .proofs import P_L3, P_L4, P_L5, P_T6, P_T7, P_T8, P_T9
from ..steps import CORRECTED, PRINTED, Notation, Step, Use

# ---------------------------------------------------------------------------- claims the proofs establish
# A step bears on the result whose printed proof displays it: Lemmas 3-5, and for the theorems the constants of their
# proofs (fedsgm.thm<k>.proof). The intermediate inequalities the four theorem proofs share ((5), both rounds,
# the summed bounds: claims eq5, R_hard, R_soft, S_summed) are displayed in each proof anew, so a slip in one proof's
# display is a gap in that proof only.
L3, L4, L5 = "fedsgm.lemma3", "fedsgm.lemma4", "fedsgm.lemma5"
THM_PROOF = {P_T6: "fedsgm.thm6.proof", P_T7: "fedsgm.thm7.proof", P_T8: "fedsgm.thm8.proof",
             P_T9: "fedsgm.thm9.proof"}

# ---------------------------------------------------------------------------- symbols and their search boxes
_BOX: dict[sp.Symbol, tuple[float, float]] = {
    eta: (1e-3, 10.0), a: (1e-3, 1e3), G: (0.1, 10.0), E: (1, 20), n: (1, 10), q: (0.0, 10.0), T: (1, 100),
    D: (0.1, 10.0), eps: (1e-2, 10.0), beta: (1e-2, 1e2), N: (0, 10)}
HALF, THIRD = sp.Rational(1, 2), sp.Rational(1, 3)
_j = sp.Symbol("j", integer=True, positive=True)        # client index (summation only)


def _sym(name: str, box: tuple[float, float], **assumptions) -> sp.Symbol:
    s = sp.Symbol(name, **assumptions)
    _BOX[s] = box
    return s


def _real(name: str, box: tuple[float, float] = (-10.0, 10.0)) -> sp.Symbol:
    return _sym(name, box, real=True)


def _nonneg(name: str, box: tuple[float, float] = (0.0, 100.0)) -> sp.Symbol:
    return _sym(name, box, nonnegative=True)


def _vec(name: str, box: tuple[float, float] = (-3.0, 3.0)) -> tuple[sp.Symbol, sp.Symbol]:
    return _real(f"{name}_1", box), _real(f"{name}_2", box)


def _add(*vs):
    return tuple(sp.Add(*c) for c in zip(*vs))


def _sub(u, v):
    return tuple(x - y for x, y in zip(u, v))


def _mul(c, u):
    return tuple(c * x for x in u)


def _dot(u, v) -> sp.Expr:
    return sp.Add(*(x * y for x, y in zip(u, v)))


def _sq(u) -> sp.Expr:
    return _dot(u, u)


def _mean(vs):
    return _mul(sp.Rational(1, len(vs)), _add(*vs))


def _sum_both(c: sp.Expr) -> sp.Expr:
    """sum_{j=1}^n sum_{tau=0}^{E-1} of a term constant in j and tau."""
    return sp.summation(sp.summation(c, (tau, 0, E - 1)), (_j, 1, n))


def _step(proof: str, label: str, claim: str, lhs, relation: str, rhs, hyps=(), cites=(), reading: str = "",
          boxes=None, **sides) -> Step:
    """A :class:`Step` whose search box is the registered box of each free symbol (``boxes`` overrides); ``sides``:
    the step's ``variant``, ``uses``, ``notations`` and ``applies`` (:class:`bounds.steps.Step`)."""
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    syms = set(lhs.free_symbols) | set(rhs.free_symbols)
    for h in hyps:
        syms |= h.free_symbols
    for notation in sides.get("notations", ()):
        syms |= set(sp.sympify(notation.lhs).free_symbols) | set(sp.sympify(notation.rhs).free_symbols)
    space = {s: (boxes or {}).get(s, _BOX[s]) for s in sorted(syms, key=str)}
    return Step(proof, label, claim, lhs=lhs, relation=relation, rhs=rhs, space=space, hypotheses=tuple(hyps),
                cites=tuple(cites), reading=reading, **sides)


# ---------------------------------------------------------------------------- shared models
NC, NE = 2, 2                   # clients and local steps written out where a display sums vectors
_P = {k: _sym(f"p{k}", (0.05, 0.95), positive=True) for k in range(1, NC + 1)}
_Z = _vec("z")
_COMPRESSOR = ("C_j(x) two-atom: x + (1 - p_j) d_j w.p. p_j, x - p_j d_j w.p. 1 - p_j (unbiased), independent over "
               "the n = 2 clients; E_C sums the 4 joint atoms")


def _nu(tag: str = "nu"):
    """nu_{j,tau} in R^2 for j = 1..NC, tau = 0..NE-1."""
    return [[_vec(f"{tag}{j}{k}") for k in range(NE)] for j in range(1, NC + 1)]


def _joint(xs):
    """Independent two-atom unbiased compressors of the clients at ``xs``: [(probability, (C_1, .., C_n))]."""
    per = []
    for k, x in enumerate(xs, start=1):
        d, p = _vec(f"d{k}"), _P[k]
        per.append(((p, _add(x, _mul(1 - p, d))), (1 - p, _sub(x, _mul(p, d)))))
    return [(sp.Mul(*(pr for pr, _ in combo)), tuple(c for _, c in combo)) for combo in itertools.product(*per)]


def _expect(outcomes, fn) -> sp.Expr:
    return sp.Add(*(pr * fn(cs) for pr, cs in outcomes))


def _variances(outcomes, xs):
    """E_C ||C_j(x_j) - x_j||^2 per client."""
    return [_expect(outcomes, lambda cs, k=k: _sq(_sub(cs[k], xs[k]))) for k in range(len(xs))]


def _lip(*vs):
    """||v|| <= G for each v (G-Lipschitz, Assumption 1), as ||v||^2 <= G^2."""
    return tuple(sp.Le(_sq(v), G**2) for v in vs)


def _slack(name: str) -> sp.Symbol:
    """A slack s >= 0: a scalar an inequality in force bounds is written as that bound -/+ s (module docstring)."""
    return _nonneg(f"s_{name}", (0.0, 10.0))


def _cvx(value_at: sp.Expr, grad, at, to, name: str) -> sp.Expr:
    """h(to) for a convex h: h(at) + <grad h(at), to - at> + s_name (the convexity inequality with its gap)."""
    return value_at + _dot(grad, _sub(to, at)) + _slack(name)


def _quadratic(tag: str):
    """f(w) = <b, w> + w' L L' w / 2 (convex: L L' is PSD) and its gradient."""
    b, (l11, l21, l22) = _vec(f"b{tag}"), (_real(f"l11{tag}", (-2, 2)), _real(f"l21{tag}", (-2, 2)),
                                            _real(f"l22{tag}", (-2, 2)))

    def hess(w):
        lt = (l11 * w[0] + l21 * w[1], l22 * w[1])              # L' w with L = [[l11, 0], [l21, l22]]
        return (l11 * lt[0], l21 * lt[0] + l22 * lt[1])         # L L' w

    return (lambda w: _dot(b, w) + _dot(w, hess(w)) / 2), (lambda w: _add(b, hess(w)))


# ---------------------------------------------------------------------------- Lemma 3 (Appendix A.1)
def _lemma3_moments() -> tuple[Step, ...]:
    """Proof of Lemma 3, displays 2-3: the second-moment identity and its use on mean_j C_j(X_j)."""
    ya, yb, p = _vec("ya"), _vec("yb"), _P[1]
    ey = _add(_mul(p, ya), _mul(1 - p, yb))
    xs = (_vec("X1"), _vec("X2"))
    out = _joint(xs)
    noise = _expect(out, lambda cs: _sq(_mean([_sub(c, x) for c, x in zip(cs, xs)])))
    line1 = _sq(_mean(xs)) + noise
    return (
        _step(P_L3, "display 2", L3, p * _sq(ya) + (1 - p) * _sq(yb), "==",
              _sq(ey) + p * _sq(_sub(ya, ey)) + (1 - p) * _sq(_sub(yb, ey)), cites=("second-moment identity",),
              reading="Y a two-atom random vector in R^2: y_a with probability p, y_b with 1 - p"),
        _step(P_L3, "display 3 line 1", L3, _expect(out, lambda cs: _sq(_mean(cs))), "==", line1,
              cites=("display 2", "Assumption 2: E C_j(X_j) = X_j"), reading=f"X_j in R^2; {_COMPRESSOR}"),
        _step(P_L3, "display 3 line 2", L3, line1, "<=", _sq(_mean(xs)) + sum(_variances(out, xs)) / NC**2,
              cites=("independence across j", "linearity of expectation"),
              reading=f"the step from line 1's right side; X_j in R^2; {_COMPRESSOR}"),
    )


def _lemma3_bounds() -> tuple[Step, ...]:
    """Proof of Lemma 3, display 4: Assumption 2, Jensen over the clients, and the collection of terms."""
    xs = (_vec("X1"), _vec("X2"))
    out = _joint(xs)
    sx = _sq(xs[0]) + _sq(xs[1])
    qn = q / NC**2 * sx
    assumption2 = tuple(sp.Le(v, q * _sq(x)) for v, x in zip(_variances(out, xs), xs))
    return (
        _step(P_L3, "display 4 line 1", L3, _sq(_mean(xs)) + sum(_variances(out, xs)) / NC**2, "<=",
              _sq(_mean(xs)) + qn, assumption2, ("Assumption 2: E||C_j(x) - x||^2 <= q_u ||x||^2",),
              f"the left side is display 3 line 2's right side; n = 2, X_j in R^2; {_COMPRESSOR}; Assumption 2 at "
              "x = X_j as hypotheses"),
        _step(P_L3, "display 4 line 2", L3, _sq(_mean(xs)) + qn, "<=", sx / NC + qn, cites=("Jensen's inequality",),
              reading="n = 2 clients, X_j in R^2"),
        _step(P_L3, "display 4 line 3", L3, sx / NC + qn, "==", (q / NC + 1) * sx / NC,
              reading="n = 2 clients, X_j in R^2"),
    )


def _lemma3_local() -> tuple[Step, ...]:
    """Proof of Lemma 3, displays 5-6: Jensen over the local steps, G-Lipschitz, and the lemma's conclusion."""
    nu = _nu()
    xs = [_add(*row) for row in nu]
    mean_x = sp.Add(*(_sq(x) for x in xs)) / NC
    jensen = sp.Add(*(NE * sp.Add(*(_sq(v) for v in row)) for row in nu)) / NC
    lip = _lip(*(v for row in nu for v in row))
    out = _joint(xs)
    assumption2 = tuple(sp.Le(v, q * _sq(x)) for v, x in zip(_variances(out, xs), xs))
    reading = "n = 2 clients, E = 2 local steps; X_j = nu_j0 + nu_j1, nu_{j,tau} in R^2"
    return (
        _step(P_L3, "display 5 line 1", L3, mean_x, "<=", jensen, cites=("Jensen's inequality over tau",),
              reading=reading),
        _step(P_L3, "display 5 line 2", L3, jensen, "<=", NE**2 * G**2, lip, ("G-Lipschitz (Assumption 1)",),
              reading + "; ||nu_{j,tau}|| <= G as hypotheses (nu is a gradient of f_j or g_j)"),
        _step(P_L3, "display 6", L3, _expect(out, lambda cs: _sq(_mean(cs))), "<=", (q / NC + 1) * NE**2 * G**2,
              assumption2 + lip, ("displays 2-5",), f"{reading}; {_COMPRESSOR}; Assumption 2 and ||nu|| <= G"),
    )


# ---------------------------------------------------------------------------- Lemma 4 (Appendix A.1)
def _lemma4_split(proof: str, labels: tuple[str, str], claim: str, name: str) -> tuple[Step, ...]:
    """-2 eta <w_t - w*, mean_j sum_tau nu> split per (j, tau): Lemma 4's display 1 (``labels[0]`` None: the whole
    equals the split sum) and the soft proofs' display 4 lines 2 (per term) and 3 (split)."""
    wt, ws, nu = _vec("wt"), _vec("ws"), _nu()
    wl = [[_vec(f"wl{j}{k}") for k in range(NE)] for j in range(1, NC + 1)]
    pairs = [(wl[j][k], nu[j][k]) for j in range(NC) for k in range(NE)]
    whole = -2 * eta * _dot(_sub(wt, ws), _mean([_add(*row) for row in nu]))
    per = sp.Add(*(-2 * eta * _dot(_sub(wt, ws), v) for _, v in pairs)) / NC
    split = sp.Add(*(-2 * eta * _dot(_sub(wt, w), v) - 2 * eta * _dot(_sub(w, ws), v) for w, v in pairs)) / NC
    reading = f"n = 2 clients, E = 2 local steps; w_t, w*, w_(j,tau), nu_(j,tau) in R^2; {name}"
    if labels[0] is None:
        return (_step(proof, labels[1], claim, whole, "==", split, cites=("linearity",), reading=reading),)
    return (_step(proof, labels[0], claim, whole, "==", per, cites=("linearity",), reading=reading),
            _step(proof, labels[1], claim, per, "==", split, cites=("w_t - w* = (w_t - w_jtau) + (w_jtau - w*)",),
                  reading=reading))


def _convexity(proof: str, label: str, claim: str, at: str, to: str) -> Step:
    """The first-order convexity inequality f_j(to) >= f_j(at) + <grad f_j(at), to - at> on a convex quadratic."""
    f, grad = _quadratic("f")
    x, y = _vec(at), _vec(to)
    return _step(proof, label, claim, f(y), ">=", f(x) + _dot(grad(x), _sub(y, x)), cites=("convexity of f_j",),
                 reading="f_j(w) = <b, w> + w'LL'w/2 with L lower triangular (a convex quadratic: the display uses "
                         f"only convexity); {at}, {to} in R^2")


def _lemma4() -> tuple[Step, ...]:
    """Proof of Lemma 4: the split, Term-B by convexity, Term-A by Young and G-Lipschitz."""
    wl, ws, gv = _vec("wl"), _vec("ws"), _vec("gf")
    fl = _real("f_wl")
    fs = _cvx(fl, gv, wl, ws, "cvx")
    free = ("f_j(w_jtau) free, grad f_j(w_jtau) = gf in R^2, f_j(w*) by display 2: f_j(w_jtau) + <gf, w* - w_jtau> "
            "+ s_cvx")
    u, v = _vec("u", (-5.0, 5.0)), _vec("v", (-5.0, 5.0))
    young = eta / a * _sq(u) + eta * a * _sq(v)
    boxes = {s: (-5.0, 5.0) for s in u + v}
    return _lemma4_split(P_L4, (None, "display 1"), L4, "the terms of the sum written out") + (
        _convexity(P_L4, "display 2", L4, "wl", "ws"),
        _step(P_L4, "display 3", L4, -_dot(_sub(wl, ws), gv), "<=", fs - fl, cites=("display 2",), reading=free),
        _step(P_L4, "display 4", L4, -2 * eta * _dot(_sub(wl, ws), gv), "<=", 2 * eta * (fs - fl),
              cites=("display 3",), reading=free),
        _step(P_L4, "display 5 line 1", L4, -2 * eta * _dot(u, v), "<=", young, cites=("Young's inequality, a > 0",),
              reading="Term-A = -2 eta <w_t - w_{j,tau}, grad f_j(w_{j,tau})>; u = w_t - w_{j,tau}, "
                      "v = grad f_j(w_{j,tau}) in R^2", boxes=boxes),
        _step(P_L4, "display 5 line 2", L4, young, "<=", eta / a * _sq(u) + eta * a * G**2, _lip(v),
              ("G-Lipschitz (Assumption 1)",), "u = w_t - w_{j,tau}, v = grad f_j(w_{j,tau}) in R^2, ||v|| <= G",
              boxes),
        _step(P_L4, "display 6", L4, -2 * eta * _dot(u, v), "<=", eta / a * _sq(u) + eta * a * G**2, _lip(v),
              ("Young's inequality", "G-Lipschitz (Assumption 1)"),
              "t in B, printed with grad f_j(w_{j,tau}) where the B-step uses grad g_j (both G-Lipschitz, so the "
              "relation is the same): u = w_t - w_{j,tau}, v = that gradient in R^2, ||v|| <= G", boxes),
    )


# ---------------------------------------------------------------------------- Lemma 5 (Appendix A.1)
def _lemma5() -> tuple[Step, ...]:
    """Proof of Lemma 5 (drift written out at tau = 3) and its display 2 (the sum over tau in closed form)."""
    k = 3
    wt, nu = _vec("wt"), [_vec(f"nu{i}") for i in range(k)]
    wl = wt
    for v in nu:                                    # Algorithm 1: w_{j,i+1} = w_{j,i} - eta nu_{j,i}, w_{j,0} = w_t
        wl = _sub(wl, _mul(eta, v))
    printed = _sub(wt, _sub(wt, _mul(eta, _add(*nu))))
    jensen = eta**2 * k * sp.Add(*(_sq(v) for v in nu))
    reading = "tau = 3; nu_{j,0..2} in R^2"
    return (
        _step(P_L5, "display 1 line 1", L5, _sq(_sub(wt, wl)), "==", _sq(printed), cites=("Algorithm 1",),
              reading=reading + "; w_{j,3} by Algorithm 1's local updates from w_{j,0} = w_t"),
        _step(P_L5, "display 1 line 2", L5, _sq(printed), "==", eta**2 * _sq(_add(*nu)), reading=reading),
        _step(P_L5, "display 1 line 3", L5, eta**2 * _sq(_add(*nu)), "<=", jensen, cites=("Jensen's inequality",),
              reading=reading),
        _step(P_L5, "display 1 line 4", L5, jensen, "<=", eta**2 * k**2 * G**2, _lip(*nu),
              ("G-Lipschitz (Assumption 1)",), reading + "; ||nu_{j,i}|| <= G"),
        _step(P_L5, "display 2", L5, sp.summation(eta**2 * tau**2 * G**2, (tau, 0, E - 1)), "<=",
              eta**2 * E**3 * G**2 / 3,
              cites=("display 1 line 4 summed over tau = 0..E-1",),
              reading="the left side is display 1 line 4 summed over tau = 0..E-1: eta^2 G^2 sum_tau tau^2",
              boxes={G: (1e-2, 1e2), E: (1, 200)}),
    )


# ---------------------------------------------------------------------------- Theorems 6-9: the update and Term-A
_SIGMA = _sym("sigma", (0.0, 1.0), nonnegative=True)


def _server(compressed: bool):
    """w_t, w*, nu, Algorithm 1's w_{t+1} (local steps, Delta_j = C_j((w_t - w_{j,E})/eta), server average) and the
    printed aggregate mean_j C_j(sum_tau nu_{j,tau}); a realised C_j is a coordinate mask, Id without compression."""
    wt, ws, nu = _vec("wt"), _vec("ws"), _nu()
    masks = [_vec(f"m{j}", (0.0, 3.0)) for j in range(1, NC + 1)]

    def comp(j, x):
        return tuple(m * c for m, c in zip(masks[j], x)) if compressed else x

    deltas = []
    for j, row in enumerate(nu):
        wl = wt
        for v in row:
            wl = _sub(wl, _mul(eta, v))
        deltas.append(comp(j, _mul(1 / eta, _sub(wt, wl))))
    return wt, ws, nu, _sub(wt, _mul(eta, _mean(deltas))), _mean([comp(j, _add(*r)) for j, r in enumerate(nu)])


def _update(proof: str, labels: tuple, claim: str, compressed: bool, terms: str) -> tuple[Step, ...]:
    """The update rule ((4), (11), display 1), Theorem 6's display 2 (sum_tau nu = (w_t - w_{j,E})/eta) and the
    expansion of ||w_{t+1} - w*||^2 (two lines); ``labels`` = (update, display 2 or None, line 1, line 2)."""
    wt, ws, nu, alg, agg = _server(compressed)
    printed = _sub(wt, _mul(eta, agg))
    comp = "a realised C_j is a coordinate mask diag(m_j1, m_j2)" if compressed else "C_j = Id"
    reading = f"n = 2 clients, E = 2 local steps, w_t, w*, nu in R^2; {comp}"
    out = [_step(proof, labels[0], claim, _dot(_Z, alg), "==", _dot(_Z, printed), cites=("Algorithm 1",),
                 reading=reading + "; the vector identity tested against z in R^2")]
    if labels[1] is not None:
        wl = _sub(_sub(wt, _mul(eta, nu[0][0])), _mul(eta, nu[0][1]))
        out.append(_step(proof, labels[1], claim, _dot(_Z, _add(*nu[0])), "==", _dot(_Z, _mul(1 / eta, _sub(wt, wl))),
                         cites=("Algorithm 1",), reading="client 1, E = 2: w_{1,2} by the local updates; tested "
                                                         "against z in R^2"))
    expanded = _sq(_sub(wt, ws)) + eta**2 * _sq(agg) - 2 * eta * _dot(_sub(wt, ws), agg)
    out += [_step(proof, labels[2], claim, _sq(_sub(alg, ws)), "==", _sq(_sub(printed, ws)),
                  cites=(labels[0],), reading=reading + "; the left side's w_{t+1} by Algorithm 1"),
            _step(proof, labels[3], claim, _sq(_sub(printed, ws)), "==", expanded, cites=("expansion of the square",),
                  reading=f"{reading}; {terms}")]
    return tuple(out)


def _soft_nu():
    """grad f_j, grad g_j at w_{j,tau} in R^2 and nu = sigma grad g_j + (1 - sigma) grad f_j."""
    gf, gg = _nu("gf"), _nu("gg")
    nu = [[_add(_mul(_SIGMA, gg[j][k]), _mul(1 - _SIGMA, gf[j][k])) for k in range(NE)] for j in range(NC)]
    return gf, gg, nu, _lip(*(v for row in gf + gg for v in row))


def _direction(proof: str, label: str, claim: str) -> Step:
    """Theorem 9, display 1 line 2: nu as printed equals Algorithm 1's (1 - alpha_t) grad f_j + alpha_t grad g_j."""
    gf, gg = _vec("gf"), _vec("gg")
    return _step(proof, label, claim, _dot(_Z, _add(_mul(1 - _SIGMA, gf), _mul(_SIGMA, gg))), "==",
                 _dot(_Z, _add(_mul(_SIGMA, gg), _mul(1 - _SIGMA, gf))), cites=("Algorithm 1",),
                 reading="alpha_t = sigma_beta(g(w_t) - eps) = sigma; gradients in R^2, tested against z in R^2")


def _term_a(proof: str, labels: tuple[str, str], claim: str, soft: bool) -> tuple[Step, ...]:
    """Term-A without compression (Theorems 8, 9, display 3): Jensen over j and tau, then G-Lipschitz."""
    nu = _nu()

    def jensen(rows):
        return eta**2 * sp.Add(*(NE * sp.Add(*(_sq(v) for v in r)) for r in rows)) / NC

    reading = "n = 2 clients, E = 2 local steps, nu_{j,tau} in R^2"
    if soft:
        _, _, snu, lip = _soft_nu()
        second = _step(proof, labels[1], claim, jensen(snu), "<=", eta**2 * NE**2 * G**2, lip,
                       ("G-Lipschitz (Assumption 1)", "sigma_beta in [0, 1]"),
                       reading + "; nu = sigma grad g_j + (1 - sigma) grad f_j, gradients in R^2 with norm <= G")
    else:
        second = _step(proof, labels[1], claim, jensen(nu), "<=", eta**2 * NE**2 * G**2,
                       _lip(*(v for r in nu for v in r)), ("G-Lipschitz (Assumption 1)",),
                       reading + " (gradients of f_j or g_j), ||nu|| <= G")
    return (_step(proof, labels[0], claim, eta**2 * _sq(_mean([_add(*r) for r in nu])), "<=", jensen(nu),
                  cites=("Jensen's inequality",),
                  reading=reading + "; the line restates Term-A as eta^2 ||.||^2 where the expansion's underbrace has "
                                    "||.||^2: the relation is between the explicit expressions"), second)


def _term_a_compressed(proof: str, label: str, claim: str) -> Step:
    """Theorem 7, display 3: E_C[Term-A] <= eta^2 (q_u/n + 1) E^2 G^2 for the soft direction."""
    _, _, nu, lip = _soft_nu()
    xs = [_add(*row) for row in nu]
    out = _joint(xs)
    assumption2 = tuple(sp.Le(v, q * _sq(x)) for v, x in zip(_variances(out, xs), xs))
    return _step(proof, label, claim, eta**2 * _expect(out, lambda cs: _sq(_mean(cs))), "<=",
                 eta**2 * (q / NC + 1) * NE**2 * G**2, assumption2 + lip,
                 ("Lemma 3", "sigma_beta in [0, 1]"),
                 f"n = 2, E = 2; nu = sigma grad g_j + (1 - sigma) grad f_j, gradients in R^2 with norm <= G; "
                 f"{_COMPRESSOR}; Assumption 2 at X_j = sum_tau nu_jtau")


#: Theorem 7's proof prints Term-B both ways: display 2 line 2 writes "- Term-B" with the minus outside the underbrace,
#: display 4 line 3 and Lemma 4 (and (17) for Theorem 9) put it inside ("-2 eta <...>")
TERM_B_SIGNED = ("Term-B is the signed term -2 eta <w_t - w*, (1/n) sum_j C_j(sum_tau nu)>",
                 "display 4 line 3 writes the underbrace '-2 eta <w_t - w_(j,tau), nu>' and Lemma 4 states "
                 "'E_C[-2 eta <w_t - w*, (1/n) sum_j C_j(.)>] = -2 eta <w_t - w*, (1/n) sum_j sum_tau nu>'")


def _term_b_sign(proof: str, label: str, claim: str) -> Step:
    """Theorem 7, display 4 line 1: E_C[Term-B] with Term-B as display 2 line 2's underbrace (no minus sign); the
    print also admits the signed term (:data:`TERM_B_SIGNED`), tried when the first reading is refuted."""
    wt, ws, nu = _vec("wt"), _vec("ws"), _nu()
    xs = [_add(*row) for row in nu]
    out = _joint(xs)

    def term_b(cs):
        return 2 * eta * _dot(_sub(wt, ws), _mean(cs))

    rhs = -2 * eta * _dot(_sub(wt, ws), _mean(xs))
    signed = Notation(TERM_B_SIGNED[0], _expect(out, lambda cs: -term_b(cs)), "==", rhs, TERM_B_SIGNED[1])
    return _step(proof, label, claim, _expect(out, term_b), "==", rhs, cites=("Assumption 2: E C_j(x) = x",),
                 reading="display 2 line 2 prints '+ Term-A - Term-B' with the underbrace Term-B = 2 eta <w_t - w*, "
                         f"(1/n) sum_j C_j(sum_tau nu)> (no minus sign); n = 2, E = 2, vectors in R^2; {_COMPRESSOR}",
                 notations=(signed,))


# ---------------------------------------------------------------------------- Theorems 6 and 8: one round
_DIST = _nonneg("dist_t")
_DRIFT = _nonneg("drift_sum", (0.0, 1e3))                  # sum_j sum_tau ||w_t - w_{j,tau}||^2
_GAPF_L, _GAPG_L = _real("gapf_local", (-100.0, 100.0)), _real("gapg_local", (-100.0, 100.0))
_IN_A = _sym("in_A", (0, 1), integer=True, nonnegative=True)
_GAPF, _GAPG = _real("gapf_t"), _real("gapg_t")          # f(w*) - f(w_t), g(w*) - g(w_t)
_ROUND = ("d_t = ||w_t - w*||^2; the drift and the local gaps sum_j sum_tau (h_j(w*) - h_j(w_jtau)) one symbol "
          "each, n, E symbolic; in_A = 1{t in A}")


def _rhs5(qq) -> sp.Expr:
    """The right side of (5) ((12): q_u = 0)."""
    return (_DIST + eta**2 * (qq / n + 1) * E**2 * G**2 + eta * a * E * G**2 + eta / (a * n) * _DRIFT
            + 2 * eta / n * (_GAPF_L * _IN_A + _GAPG_L * (1 - _IN_A)))


def _one_round(proof: str, label: str, compressed: bool) -> Step:
    """(5) / (12): the expansion in expectation with Lemma 3 (Theorem 8: display 3) and Lemma 4."""
    qq = q if compressed else 0
    term_a = (qq / n + 1) * E**2 * G**2 - _slack("A")
    cross = (eta / a * _DRIFT + _sum_both(eta * a * G**2) + 2 * eta * (_IN_A * _GAPF_L + (1 - _IN_A) * _GAPG_L)) / n
    bound = "Lemma 3's (q_u/n + 1) E^2 G^2" if compressed else "display 3's E^2 G^2 (q_u = 0, C_j = Id)"
    # the sum over (j, tau) of Lemma 4's instances bounds n times the cross term; Lemma 3 bounds ||mean_j C_j||^2
    lemma4 = Use("Lemma 4", "fedsgm.lemma4", "inner_term", sp.expand(n * cross), copies=_sum_both(sp.Integer(1)),
                 summed=("drift_term", "gap_f_term", "gap_g_term"),
                 at={"eta": eta, "a": a, "G": G, "in_A": _IN_A, "drift_term": _DRIFT, "gap_f_term": _GAPF_L,
                     "gap_g_term": _GAPG_L})
    lemma3 = Use("Lemma 3", "fedsgm.lemma3", "agg_sq_expect", term_a + _slack("A"),
                 at={"E": E, "G": G, "n": n, "q_u": q})
    return _step(proof, label, THM_PROOF[proof], _DIST + eta**2 * term_a + cross - _slack("I"), "<=", _rhs5(qq),
                 cites=("Lemma 3" if compressed else "display 3", "Lemma 4"),
                 applies=(lemma3, lemma4) if compressed else (lemma4,),
                 reading=f"display 3 line 2 in E_C: {_ROUND}; ||mean_j C_j(X_j)||^2 = {bound} - s_A and the cross "
                         "term -2 eta <w_t - w*, mean_j C_j(X_j)> = Lemma 4's bound (as stated: its sum over j, tau) "
                         "- s_I")


def _local_gaps(proof: str) -> tuple[Step, ...]:
    """Displays 5-8 of the hard proofs: f_j(w*) - f_j(w_jtau) moved to w_t by convexity, Young and G-Lipschitz."""
    wt, wl, gt, ht = _vec("wt"), _vec("wl"), _vec("gft"), _vec("ggt")
    fs, ft, gs, g_t = _real("f_star"), _real("f_wt"), _real("g_star"), _real("g_wt")
    fl, gl = _cvx(ft, gt, wt, wl, "cvx"), _cvx(g_t, ht, wt, wl, "cvx_g")
    drift = _sq(_sub(wt, wl)) / (2 * a)
    line1 = fs - ft + drift + a / 2 * _sq(gt)
    free = ("f_j(w*), f_j(w_t) free, grad f_j(w_t) = gft, w_t, w_{j,tau} in R^2; f_j(w_{j,tau}) by display 5 line 1: "
            "f_j(w_t) + <gft, w_jtau - w_t> + s_cvx")
    return (
        _convexity(proof, "display 5 line 1", THM_PROOF[proof], "wt", "wl"),
        _step(proof, "display 5 line 2", THM_PROOF[proof], fs - fl, "<=", fs - ft - _dot(gt, _sub(wl, wt)),
              cites=("display 5 line 1",), reading=free),
        _step(proof, "display 6", THM_PROOF[proof], -_dot(gt, _sub(wl, wt)), "<=", drift + a / 2 * _sq(gt),
              cites=("Young's inequality, a > 0",), reading="grad f_j(w_t), w_t, w_{j,tau} in R^2"),
        _step(proof, "display 7 line 1", THM_PROOF[proof], fs - fl, "<=", line1, cites=("display 5", "display 6"),
              reading=free),
        _step(proof, "display 7 line 2", THM_PROOF[proof], line1, "<=", fs - ft + drift + a / 2 * G**2, _lip(gt),
              ("G-Lipschitz (Assumption 1)",), "f_j(w*), f_j(w_t) free, grad f_j(w_t) = gft, w_t, w_{j,tau} in R^2; "
                                               "||gft|| <= G"),
        _step(proof, "display 8", THM_PROOF[proof], gs - gl, "<=", gs - g_t + drift + a / 2 * G**2, _lip(ht),
              ("convexity of g_j", "Young", "G-Lipschitz"),
              "g_j(w*), g_j(w_t) free, grad g_j(w_t) = ggt in R^2 with norm <= G, g_j(w_{j,tau}) = g_j(w_t) + "
              "<ggt, w_jtau - w_t> + s_cvx_g (convexity)"),
    )


def _r_hard(proof: str, compressed: bool) -> Step:
    """Display 9 (the hard round): (5) with displays 7, 8 summed over j, tau, Lemma 5 and eq. (1)."""
    qq = q if compressed else 0
    local = _sum_both(a * G**2 / 2) + _DRIFT / (2 * a)
    bounds = {_GAPF_L: n * E * _GAPF + local - _slack("f"), _GAPG_L: n * E * _GAPG + local - _slack("g")}
    rhs = (_DIST + eta**2 * (qq / n + 1) * E**2 * G**2 + 2 * eta * a * E * G**2
           + sp.Rational(2, 3) / a * eta**3 * E**3 * G**2 + 2 * eta * E * (_GAPF * _IN_A + _GAPG * (1 - _IN_A)))
    lemma5 = n * eta**2 * E**3 * G**2 / 3                   # Lemma 5 summed over the n clients
    return _step(proof, "display 9", THM_PROOF[proof], _rhs5(qq).subs(bounds) - _slack("5"), "<=", rhs,
                 (sp.Le(_DRIFT, lemma5),),
                 ("(5)" if compressed else "(12)", "displays 7 and 8", "Lemma 5", "eq. (1)"),
                 f"{_ROUND}; ||w_(t+1) - w*||^2 = (5)'s right side - s_5, the local gap sums = displays 7, 8 summed "
                 "over j, tau - s_f, s_g, with f(w*) - f(w_t) = (1/n) sum_j (f_j(w*) - f_j(w_t)) (eq. (1)); Lemma 5 "
                 "summed over j as hypothesis",
                 applies=(Use("Lemma 5", "fedsgm.lemma5", "drift_sum", lemma5, copies=n, at={"E": E, "G": G, "eta": eta}),))


# ---------------------------------------------------------------------------- Theorems 6 and 8: summing the rounds
def _rate_terms(qq, drift_e) -> sp.Expr:
    """(eta/2)(q_u/n + 1) E G^2 + eta G^2 + (1/3) eta E^drift_e G^2, the per-round constant of display 10."""
    return eta / 2 * (qq / n + 1) * E * G**2 + eta * G**2 + THIRD * eta * E**drift_e * G**2


def _gamma(qq) -> sp.Expr:
    return Gamma_proof.subs(q, qq)


def _eta_gamma(qq) -> sp.Expr:
    """eta = sqrt(D^2 / (2 G^2 E T Gamma)) with the proofs' Gamma = (1/2)(q_u/n + 1) E + 1 + E^2/3."""
    return sp.sqrt(D**2 / (2 * G**2 * E * T * _gamma(qq)))


def _summing(proof: str, compressed: bool) -> tuple[Step, ...]:
    """Displays 10-12 of the hard proofs: a = eta and rearranged, summed over t (T = 3), eta = eta(Gamma)."""
    qq = q if compressed else 0
    gap = _real("gap_t")                     # (f(w_t) - f*) 1{t in A} + (g(w_t) - g*) 1{t in B}
    dist_next = (_DIST + eta**2 * (qq / n + 1) * E**2 * G**2 + 2 * eta**2 * E * G**2
                 + sp.Rational(2, 3) * eta**2 * E**3 * G**2 - 2 * eta * E * gap - _slack("9"))
    rounds = 3
    dist = [D**2] + [_nonneg(f"dist{t}") for t in range(1, rounds + 1)]
    gaps = [(dist[t] - dist[t + 1]) / (2 * eta * E) + _rate_terms(qq, 2) - _slack(f"{t}") for t in range(rounds)]
    s_bound = D**2 / (2 * eta * E * T) + _rate_terms(qq, 2)
    return (
        _step(proof, "display 10", THM_PROOF[proof], gap, "<=", (_DIST - dist_next) / (2 * eta * E) + _rate_terms(qq, 2),
              (sp.Ge(dist_next, 0),), ("display 9 at a = eta",),
              "gap_t = (f(w_t) - f*) 1{t in A} + (g(w_t) - g*) 1{t in B} and d_t free; d_(t+1) = display 9's right "
              "side at a = eta - s_9 (>= 0 as a hypothesis)"),
        _step(proof, "display 11", THM_PROOF[proof], sp.Add(*gaps) / rounds, "<=", s_bound.subs(T, rounds),
              cites=("display 10 summed over t",),
              reading="T = 3 rounds; d_0 = D^2, d_1..d_3 >= 0 free; gap_t = display 10's right side - s_t, "
                      "gap_t = (f(w_t) - f*) 1{t in A} + (g(w_t) - g*) 1{t in B}"),
        _step(proof, "display 12", THM_PROOF[proof], s_bound.subs(eta, _eta_gamma(qq)), "<=",
              sp.sqrt(2 * D**2 * G**2 * _gamma(qq) / (E * T)), cites=("eta = eta(Gamma)",),
              reading="display 12 follows from display 11 once display 11's right side at eta = eta(Gamma) is at most "
                      "sqrt(2 D^2 G^2 Gamma/(E T)); that is the step encoded"),
    )


def _hard_output(proof: str, labels: tuple[str, str, str], compressed: bool) -> tuple[Step, ...]:
    """Display 13 and the two cases ((6)-(8), (13)-(15)); ``labels`` = (case 1, chain, rearranged)."""
    qq, claim = (q if compressed else 0), THM_PROOF[proof]
    g_star, f_star, f0 = -_slack("gstar"), _real("f_star"), _real("f_w0")    # g(w*) <= 0: w* is feasible
    g_b = {t: eps + _slack(f"B{t}") for t in range(4)}                      # g(w_t) > eps on B
    g_a = [eps - _slack(f"A{t}") for t in range(2)]                          # g(w_t) <= eps on A
    f1 = _real("f_w1")
    card, sum_a = _sym("A_card", (1, 100), integer=True, positive=True), _real("sum_A_fgap", (-100.0, 100.0))
    r = sp.sqrt(2 * D**2 * G**2 * _gamma(qq) / (E * T))
    f_bar = (f0 + f1) / 2 - _slack("Jf")                                    # convexity: f(w_bar) <= mean
    case1 = {f1: 2 * f_star - f0 - _slack("case")}                           # sum_A (f(w_t) - f*) <= 0
    mean_a = (f0 + f1) / 2 - f_star
    inequalities = ("g(w*) = -s_gstar <= 0 (w* feasible); g(w_t) = eps + s_Bt on B (printed '> eps'), eps - s_At on "
                    "A; f(w_bar) = the mean over A - s_Jf (convexity, w_bar = the mean of the w_t, t in A)")
    return (
        _step(proof, "display 13", claim, eps, "<=", sp.Add(*(g_b[t] - g_star for t in range(3))) / 3,
              cites=("A empty: g(w_t) > eps for all t", "g* <= 0"),
              reading=f"T = 3 rounds, all in B (A empty); {inequalities}; the display's second relation is "
                      "display 12"),
        _step(proof, labels[0], claim, sp.Max(f_bar - f_star, (g_a[0] + g_a[1]) / 2 - _slack("Jg") - eps).subs(case1),
              "<=", 0, cites=("convexity of f and g",),
              reading=f"A = {{0, 1}}; {inequalities}, g(w_bar) likewise - s_Jg; the case sum_A (f(w_t) - f*) <= 0: "
                      "f(w_1) = 2 f* - f(w_0) - s_case; both relations at once as a max (0 < eps holds)"),
        _step(proof, f"{labels[1]} line 2", claim, (f0 + f1 - 2 * f_star + g_b[2] + g_b[3] - 2 * g_star) / 4, ">=",
              (f0 + f1 - 2 * f_star + 2 * eps) / 4, cites=("definition of B", "g* <= 0"),
              reading=f"T = 4, A = {{0, 1}}, B = {{2, 3}}; (1/T) sum_A f(w_t) - f(w*) read as (1/T) sum_A (f(w_t) - "
                      f"f*), as in display 11; {inequalities}; printed '>' encoded '>='"),
        _step(proof, f"{labels[1]} line 3", claim, sum_a / T + (T - card) * eps / T, "==",
              card / T * (sum_a / card) + (1 - card / T) * eps, cites=("|B| = T - |A|",),
              reading="sum_A (f(w_t) - f*) one symbol, |A| and T integers, sum_B eps = (T - |A|) eps"),
        _step(proof, f"{labels[1]} line 4", claim, 2 / T * mean_a + (1 - 2 / T) * eps, ">=",
              2 / T * (f_bar - f_star) + (1 - 2 / T) * eps, cites=("convexity of f",),
              reading=f"A = {{0, 1}}, T >= 2; {inequalities}", boxes={T: (2, 100)}),
        _step(proof, labels[2], claim, card / T * (_real("f_wbar") - f_star - (N + 1) * r), "<=", -N * r,
              (sp.Ge(r, card / T * (_real("f_wbar") - f_star) + (1 - card / T) * (N + 1) * r), sp.Le(card, T)),
              (f"{labels[1]}",), "eps = (N + 1) sqrt(2 D^2 G^2 Gamma/(E T)) substituted; the chain "
                                 f"{labels[1]} (sqrt(.) >= its last line) as hypothesis; both relations at once "
                                 "(first expression <= last; printed '<' encoded '<=')"),
    )


# ---------------------------------------------------------------------------- Theorems 7 and 9: Term-B1, Term-B2
def _soft_b1(proof: str) -> tuple[Step, ...]:
    """Display 5 lines 2-4: Term-B1 split by sigma, Young on both parts, G-Lipschitz."""
    wt, wl, gf, gg = _vec("wt"), _vec("wl"), _vec("gf"), _vec("gg")
    u, s = _sub(wt, wl), _SIGMA
    split = -2 * eta * s * _dot(u, gg) - 2 * eta * (1 - s) * _dot(u, gf)
    young = s * (eta / a * _sq(u) + eta * a * _sq(gg)) + (1 - s) * (eta / a * _sq(u) + eta * a * _sq(gf))
    reading = ("w_t, w_{j,tau}, gf = grad f_j(w_{j,tau}), gg = grad g_j(w_{j,tau}) in R^2, sigma in [0, 1]; the line "
               "prints g_j(w_{j,tau}), f_j(w_{j,tau}) inside <.,.> where the gradients are meant (next line)")
    return (
        _step(proof, "display 5 line 2", THM_PROOF[proof], -2 * eta * _dot(u, _add(_mul(s, gg), _mul(1 - s, gf))), "==", split,
              cites=("nu = sigma grad g_j + (1 - sigma) grad f_j",), reading=reading),
        _step(proof, "display 5 line 3", THM_PROOF[proof], split, "<=", young, cites=("Young's inequality, a > 0",),
              reading=reading),
        _step(proof, "display 5 line 4", THM_PROOF[proof], young, "<=", eta / a * _sq(u) + eta * a * G**2, _lip(gf, gg),
              ("G-Lipschitz (Assumption 1)",), reading + "; ||gf||, ||gg|| <= G"),
    )


def _soft_b2(proof: str) -> tuple[Step, ...]:
    """Display 6 lines 2-4: Term-B2 split by sigma, convexity at w_{j,tau}, then moved to w_t (as displays 7-8)."""
    wt, wl, ws, gf, gg, gft, ggt = (_vec(x) for x in ("wt", "wl", "ws", "gf", "gg", "gft", "ggt"))
    fs, fl, ft, gs, gl, g_t = (_real(x) for x in ("f_star", "f_wl", "f_wt", "g_star", "g_wl", "g_wt"))
    u, s = _sub(wl, ws), _SIGMA
    split = -2 * eta * s * _dot(u, gg) - 2 * eta * (1 - s) * _dot(u, gf)

    def cvx(g_s, g_l, f_s, f_l):
        return 2 * eta * s * (g_s - g_l) + 2 * eta * (1 - s) * (f_s - f_l)

    g_l, f_l = _cvx(g_t, ggt, wt, wl, "cvx_g"), _cvx(ft, gft, wt, wl, "cvx_f")        # convexity at w_t
    moved = sum(2 * eta * w * (h_s - h_t + _sq(_sub(wt, wl)) / (2 * a) + a / 2 * G**2)
                for w, h_s, h_t in ((s, gs, g_t), (1 - s, fs, ft)))
    reading = "w_t, w_{j,tau}, w* in R^2; gf, gg = grad f_j, grad g_j at w_{j,tau}; sigma in [0, 1]"
    return (
        _step(proof, "display 6 line 2", THM_PROOF[proof], -2 * eta * _dot(u, _add(_mul(s, gg), _mul(1 - s, gf))), "==", split,
              cites=("nu = sigma grad g_j + (1 - sigma) grad f_j",),
              reading=reading + "; printed with g_j, f_j values inside <.,.> for the gradients"),
        _step(proof, "display 6 line 3", THM_PROOF[proof], split, "<=",
              cvx(_cvx(gl, gg, wl, ws, "cvx_g"), gl, _cvx(fl, gf, wl, ws, "cvx_f"), fl), cites=("convexity",),
              reading=reading + "; g_j(w_jtau), f_j(w_jtau) free, g_j(w*), f_j(w*) by convexity at w_jtau: "
                                "h_j(w_jtau) + <grad, w* - w_jtau> + s_cvx"),
        _step(proof, "display 6 line 4", THM_PROOF[proof], cvx(gs, g_l, fs, f_l), "<=", moved, _lip(ggt, gft),
              ("convexity", "Young's inequality", "G-Lipschitz"),
              reading + "; values at w*, w_t free, gft, ggt the gradients at w_t (norm <= G), g_j(w_jtau), "
                        "f_j(w_jtau) by convexity at w_t: h_j(w_t) + <grad, w_jtau - w_t> + s_cvx"),
    )


# ---------------------------------------------------------------------------- Theorems 7 and 9: one round, summed
def _soft_line2(ya, gap_g: sp.Expr, gap_f: sp.Expr) -> sp.Expr:
    """The right side of display 7 line 2 with Young parameter ``ya``."""
    return (sp.Rational(2, 3) / ya * eta**3 * E**3 * G**2 + 2 * eta * ya * E * G**2
            + 2 * eta * E * _SIGMA * gap_g + 2 * eta * E * (1 - _SIGMA) * gap_f)


def _soft_round(proof: str, compressed: bool) -> tuple[Step, ...]:
    """Display 7 (Term-B per term, then Lemma 5 and eq. (1)) and display 8 (the soft round)."""
    qq, s = (q if compressed else 0), _SIGMA
    drift, gg_j, gf_j = _nonneg("drift"), _real("gapg_j"), _real("gapf_j")   # gaps h_j(w*) - h_j(w_t)
    b1 = eta / a * drift + eta * a * G**2 - _slack("B1")
    b2 = sum(2 * eta * w * (h + drift / (2 * a) + a / 2 * G**2) for w, h in ((s, gg_j), (1 - s, gf_j))) - _slack("B2")
    drifts = [_nonneg(f"drift_sum{k}", (0.0, 1e3)) for k in range(1, NC + 1)]
    gg, gf = [_real(f"gapg{k}") for k in range(1, NC + 1)], [_real(f"gapf{k}") for k in range(1, NC + 1)]
    summed = sp.Add(*(2 * eta / a * dj + sp.summation(2 * eta * a * G**2 + 2 * eta * s * g + 2 * eta * (1 - s) * f,
                                                      (tau, 0, E - 1)) for dj, g, f in zip(drifts, gg, gf))) / NC
    term_a = eta**2 * (qq / n + 1) * E**2 * G**2
    return (
        _step(proof, "display 7 line 1", THM_PROOF[proof], b1 + b2, "<=",
              2 * eta / a * drift + 2 * eta * a * G**2 + 2 * eta * s * gg_j + 2 * eta * (1 - s) * gf_j,
              cites=("display 5", "display 6"),
              reading="per (j, tau) inside the same (1/n) sum_j sum_tau: drift ||w_t - w_jtau||^2 and the client "
                      "gaps at w_t free; Term-B1, Term-B2 = the bounds of display 5 line 4, display 6 line 4 - s_B1, "
                      "s_B2"),
        _step(proof, "display 7 line 2", THM_PROOF[proof], summed, "<=", _soft_line2(a, sp.Add(*gg) / NC, sp.Add(*gf) / NC),
              tuple(sp.Le(dj, eta**2 * E**3 * G**2 / 3) for dj in drifts), ("Lemma 5", "eq. (1)"),
              "n = 2 clients, E symbolic: per client the drift sum over tau (Lemma 5 as hypothesis) and the gaps "
              "g_j(w*) - g_j(w_t), f_j(w*) - f_j(w_t); g(w*) - g(w_t) their mean (eq. (1))"),
        _step(proof, "display 8", THM_PROOF[proof], _DIST + term_a - _slack("A") + _soft_line2(eta, _GAPG, _GAPF) - _slack("I"),
              "<=", _DIST + term_a + 2 * eta**2 * E * G**2 + sp.Rational(2, 3) * eta**2 * E**3 * G**2
              + 2 * eta * E * s * _GAPG + 2 * eta * E * (1 - s) * _GAPF, cites=("display 3", "display 7 at a = eta"),
              reading="d_t = ||w_t - w*||^2, gaps g(w*) - g(w_t), f(w*) - f(w_t) free; E_C[Term-A] = display 3's "
                      "bound - s_A, the cross term -2 eta <w_t - w*, mean_j sum_tau nu> = display 7's bound at "
                      "a = eta - s_I" + ("" if compressed else "; q_u = 0")),
    )


#: the erratum of Theorem 7's display 9 (``repro.papers.fedsgm.errata``): it prints eta E G^2 T/3 where display 8
#: summed gives eta E^2 G^2 T/3, the form (10) and Theorem 9's display use
D9 = "fedsgm.thm7.display9"


def _soft_summed(proof: str, eq: str, compressed: bool) -> tuple[Step, ...]:
    """Display 9 and line 1 of (10) / (18). Theorem 9's proof prints eta E^2 G^2 T/3; Theorem 7's prints eta E G^2 T/3
    (erratum :data:`D9`), so its two steps are encoded as printed and once more with E^2, the second step then
    starting from the corrected display 9."""
    if not compressed:
        return _soft_summed_as(proof, eq, 0, 2)
    return (_soft_summed_as(proof, eq, q, 1, ((D9, PRINTED),))
            + _soft_summed_as(proof, eq, q, 2, ((D9, CORRECTED),)))


def _soft_summed_as(proof: str, eq: str, qq, drift_e: int, variant: tuple = ()) -> tuple[Step, ...]:
    """Display 9 (the soft round summed, t = 0..T-1 with T = 3, divided by 2 eta E) with eta E^drift_e G^2 T/3, and line
    1 of (10) / (18) from it."""
    rounds = 3
    left = D**2 / (2 * eta * E) + _rate_terms(qq, drift_e) * T
    dist = [D**2] + [_nonneg(f"dist{t}") for t in range(1, rounds + 1)]
    per_round = (eta**2 * (qq / n + 1) * E**2 * G**2 + 2 * eta**2 * E * G**2
                 + sp.Rational(2, 3) * eta**2 * E**3 * G**2)
    gaps = [(dist[t] - dist[t + 1] + per_round) / (2 * eta * E) - _slack(f"{t}") for t in range(rounds)]
    display8 = tuple(sp.Le(dist[t + 1], dist[t] + per_round - 2 * eta * E * gaps[t], evaluate=False)
                     for t in range(rounds))               # holds by construction; stated for the record
    side = CORRECTED if any(o == CORRECTED for _, o in variant) else PRINTED
    return (
        _step(proof, "display 9", THM_PROOF[proof], left.subs(T, rounds), ">=", sp.Add(*gaps), display8,
              ("display 8 summed over t", "sigma = 1 on B"),
              f"{side}, with eta {'E' if drift_e == 1 else 'E^2'} G^2 T/3; T = 3 rounds, d_0 = D^2, d_1..d_3 >= 0 "
              "free; round t's gap sigma_t (g(w_t) - g*) + (1 - sigma_t)(f(w_t) - f*) (sigma_t = 1 on B) is display 8 "
              "solved for it, minus s_t (so display 8, listed as hypotheses, holds in every round)", variant=variant),
        _step(proof, f"{eq} line 1", THM_PROOF[proof], left.subs(eta, _eta_gamma(qq)), "<=",
              sp.sqrt(2 * D**2 * G**2 * T * _gamma(qq) / E), cites=("eta = eta(Gamma)",),
              reading=f"{eq} line 1 follows from display 9 once display 9's left side ({side}) at eta = "
                      "eta(Gamma) is at most sqrt(2 D^2 G^2 T Gamma/E); that is the step encoded",
              variant=variant, uses=("display 9",)),
    )


# ---------------------------------------------------------------------------- Theorems 7 and 9: the output
def _soft_output(proof: str, eq: str, compressed: bool) -> tuple[Step, ...]:
    """Line 2 of (10) / (18), display 11 (dividing by sum_A (1 - sigma_t)) and display 12 (the condition on beta)."""
    qq = q if compressed else 0
    g, g_star, f, f_star = [_real(f"g_w{t}") for t in range(3)], _real("g_star"), _real("f_w0"), _real("f_star")
    f = [f, _real("f_w1")]
    sig = [sp.Min(1, sp.Max(0, 1 + beta * (g[t] - eps))) for t in range(2)]     # sigma_beta(g(w_t) - eps)
    f_part = sp.Add(*((1 - sig[t]) * (f[t] - f_star) for t in range(2)))
    e_pf = 2 * sp.sqrt(2 * D**2 * G**2 * _gamma(qq) / (E * T))                  # eps = 2 eps(Gamma)
    card, sum_s = _sym("A_card", (1, 100), integer=True, positive=True), _nonneg("sum_A_sigma")
    second = (-HALF * eps * T + sum_s / beta) / (card - sum_s)
    weighted = (sp.sqrt(2 * D**2 * G**2 * T * _gamma(qq) / E) - e_pf * (T - card) - (e_pf - 1 / beta) * sum_s
                - _slack("10"))
    return (
        _step(proof, f"{eq} line 2", THM_PROOF[proof], sp.Add(*(sig[t] * (g[t] - g_star) for t in range(2))) + f_part
              + g[2] - g_star, ">=", f_part + eps + (eps - 1 / beta) * (sig[0] + sig[1]),
              (sp.Le(g[0], eps), sp.Le(g[1], eps), sp.Ge(g[2], eps), sp.Le(g_star, 0)),
              ("definitions of A, B", "sigma_beta(z) = min{1, [1 + beta z]_+}", "g* <= 0"),
              "T = 3, A = {0, 1} (g(w_t) < eps, encoded <=), B = {2} (g >= eps); sigma_t = min(1, max(0, 1 + beta "
              "(g(w_t) - eps))); f, g values at w_t and w* free, g* <= 0 (w* feasible)",
              boxes={g_star: (-10.0, 0.0), g[2]: (0.0, 20.0)}),
        _step(proof, "display 11 line 1", THM_PROOF[proof], weighted / (card - sum_s) - _slack("J"), "<=",
              (HALF * e_pf * T - e_pf * (T - card) - (e_pf - 1 / beta) * sum_s) / (card - sum_s),
              (sp.Gt(weighted, 0), sp.Lt(sum_s, card), sp.Le(card, T)), (f"{eq}", "convexity of f", "(9)"),
              f"|A|, T integers, S = sum_A sigma_t < |A|, |B| = T - |A|; eps = 2 sqrt(2 D^2 G^2 Gamma/(E T)); W = "
              f"sum_A (1 - sigma_t)(f(w_t) - f*) = {eq}'s bound - s_10 (> 0: the case), and f(w_bar) - f* = "
              "W / (|A| - S) - s_J (convexity with the weights alpha_t of (9))"),
        _step(proof, "display 11 line 2", THM_PROOF[proof],
              (HALF * eps * T - eps * (T - card) - (eps - 1 / beta) * sum_s) / (card - sum_s), "==", eps + second,
              cites=("|B| = T - |A|",), reading="|A|, T integers, S = sum_A sigma_t one symbol"),
        _step(proof, "display 12", THM_PROOF[proof], second, "<=", 0,
              (sp.Ge(beta, 2 * sum_s / (eps * T)), sp.Lt(sum_s, card)), ("display 11",),
              "the display is the condition under which display 11's second term is <= 0: encoded as that "
              "implication, with S = sum_A sigma_t < |A|"),
    )


# ---------------------------------------------------------------------------- the four theorem proofs
def _hard(proof: str, compressed: bool) -> tuple[Step, ...]:
    """The proofs of Theorems 6 (``compressed``) and 8: the chain (4)-(8), resp. (11)-(15)."""
    if compressed:
        head = _update(proof, ("(4)", "display 2", "display 3 line 1", "display 3 line 2"), THM_PROOF[proof], True,
                       "the printed expansion: eta^2 ||mean C||^2 - 2 eta <w_t - w*, mean C>")
        head += (_one_round(proof, "(5)", True),)
    else:
        head = _update(proof, ("(11)", None, "display 2 line 1", "display 2 line 2"), THM_PROOF[proof], False,
                       "eta^2 Term-A - 2 eta Term-B with the underbraces Term-A = ||.||^2, Term-B = <.,.>")
        head += _term_a(proof, ("display 3 line 1", "display 3 line 2"), THM_PROOF[proof], soft=False)
        head += (_one_round(proof, "(12)", False),)
    labels = ("(6)", "(7)", "(8)") if compressed else ("(13)", "(14)", "(15)")
    return (head + _local_gaps(proof) + (_r_hard(proof, compressed),) + _summing(proof, compressed)
            + _hard_output(proof, labels, compressed))


def _soft(proof: str, compressed: bool) -> tuple[Step, ...]:
    """The proofs of Theorems 7 (``compressed``) and 9: the chain ending in (10), resp. (18)."""
    if compressed:
        head = _update(proof, ("display 1", None, "display 2 line 1", "display 2 line 2"), THM_PROOF[proof], True,
                       "+ Term-A - Term-B with the underbraces Term-A = eta^2 ||.||^2, Term-B = 2 eta <.,.>")
        head += (_term_a_compressed(proof, "display 3", THM_PROOF[proof]), _term_b_sign(proof, "display 4 line 1", THM_PROOF[proof]))
    else:
        head = _update(proof, ("display 1 line 1", None, "(17) line 1", "(17) line 2"), THM_PROOF[proof], False,
                       "eta^2 Term-A + Term-B with the underbraces Term-A = ||.||^2, Term-B = -2 eta <.,.>")
        head = head[:1] + (_direction(proof, "display 1 line 2", THM_PROOF[proof]),) + head[1:]
        head += _term_a(proof, ("display 3 line 1", "display 3 line 2"), THM_PROOF[proof], soft=True)
    head += _lemma4_split(proof, ("display 4 line 2", "display 4 line 3"), THM_PROOF[proof], "Term-B1, Term-B2 per (j, tau)")
    eq = "(10)" if compressed else "(18)"
    return (head + _soft_b1(proof) + _soft_b2(proof) + _soft_round(proof, compressed)
            + _soft_summed(proof, eq, compressed) + _soft_output(proof, eq, compressed))


STEPS: tuple[Step, ...] = (_lemma3_moments() + _lemma3_bounds() + _lemma3_local() + _lemma4() + _lemma5()
                           + _hard(P_T6, True) + _soft(P_T7, True) + _hard(P_T8, False) + _soft(P_T9, False))

__all__ = ["STEPS"]
