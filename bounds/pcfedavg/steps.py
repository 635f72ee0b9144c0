"""PC-FedAvg: the displayed steps of the printed proofs, each encoded as a falsifiable claim
(:class:`bounds.steps.Step`) and decided by :func:`bounds.steps.check`.

Each step carries the proof and label of its display in :data:`bounds.pcfedavg.proofs.DISPLAYS`, the claim the proof
establishes (:data:`CLAIM`, :data:`ALSO`), the hypotheses in force there, what the paper cites for it, and its
``reading``: how the display became scalars. What is encoded is what the paper prints (its constants, its arguments,
its route), not a corrected version; a misprint that only renames an index is read as the index meant and the
reading says so.

Conventions (named):

* **Agents.** A display whose vectors are averaged or summed over the agents inside a norm is written out for m = 2
  agents, called a and b (agent a's gradient ``g_a``, agent b's ``g_b``, ...); the printed 1/m is then 1/2. A display
  that only carries per-agent scalars (a sum over i of second moments, distances, gaps) keeps m as a symbol
  (integer in [2, 64]) and the sum as one symbol, or writes m = 2 when its terms are named per agent.
* **Vectors** are their coordinates in R^2 (the block vector x of R^{mn} included; n = 1 with m = 2 in Lemma 4.2).
* **Expectations.** A display that holds pointwise in the samples is encoded pointwise (one sample: its expectation
  is the expectation of a pointwise relation, and the expectation is linear). Where the expectation itself does the
  work -- the conditional expectation of Lemma 4.6, convexity of f in expectation (9), the expectations of dbar and
  dbar_i before (11) -- the random quantity is a two-atom random variable: one atom with probability p, the other
  with 1 - p. A second moment with a given mean is its mean's square plus a variance symbol v >= 0 ((L4.5-a)).
* **Function class.** G_{i,rho} and G_rho are convex and L_G-smooth (Lemmas 4.1-4.2, L_G written ``L_G``). A pair of
  points with their values and gradients enters as the exact interpolation conditions of that class: the gap
  G(x) - G(y) = <grad G(y), x - y> + ||grad G(x) - grad G(y)||^2/(2 L_G) + sigma (sigma >= 0) and, as a hypothesis,
  the same inequality with x and y exchanged. One-sided uses (convexity G(y) >= G(x) + <grad G(x), y - x>, the
  descent lemma) are the value plus a slack, or plus varsigma L_G/2 ||y - x||^2 with varsigma in [0, 1] (every value
  convexity and L_G-smoothness allow between two points). f is convex: f(y) = f(x) + <grad f(x), y - x> + slack.
  Lemma 4.1's Lipschitz bound is the hypothesis ||grad G_i(x) - grad G_i(y)||^2 <= L_G^2 ||x - y||^2.
* **Earlier displays in force.** A step that follows from earlier displays has them *as printed* among its
  hypotheses, together with the function-class facts in force, so a step is not blamed for an earlier display's
  error, and an earlier display's error is reported where it is printed. An upper bound in force on a quantity the
  step bounds from above is substituted as "bound - s" (s >= 0, a slack symbol), a nonnegative quantity below a bound
  as "phi x bound" (phi in [0, 1]) -- the whole region of the hypothesis, reachable by the search, and sympy may then
  prove the step outright; where the step's left side is that quantity alone ((12), the display after (12)), it is
  taken at the bound itself (the step holds on the whole region iff it holds there). The other relations in force
  are hypotheses. The step-size conditions 6 gamma L_G <= 1 and
  5 gamma L_G (H - 1) <= 1 are hypotheses of every step of a proof that assumes them whose symbols they constrain.
* **Chains.** A display that prints a chain A0 rel A1 rel A2 ... (one aligned environment, e.g. "<= ... =" or
  "= ... <=") is one display and one step: the conjunction of its links, encoded as S + max_j(excess_j) <= S with
  excess_j = A_j - A_(j+1) for "<=" and |A_j - A_(j+1)| for "=", and S the sum of the absolute values of the terms
  of the expanded A_j (a scale, so that the relative violation stays graded and the float rounding of a link that
  holds with equality, even where every A_j vanishes, stays far below the tolerance). The chain holds iff
  every link holds; a violation names the largest failing link. (11) and (P4.8-h) are derived in the text through
  the two "facts" quoted before them ("-sum_i E[dbar_i] <= -E[dbar]" and "-sqrt(sum_i E[dbar_i^2]) <= -sum_i
  E[dbar_i]"): they are encoded as the chain that route prints (the display's left side, the two facts' expressions,
  the bound in force), so the search tests the facts where the paper uses them.
* **Round windows** are written for a fixed short window: k - T_r = 2 local steps in (4) and (L4.5-b), a round of
  three iterations in (5), two rounds (the first, r = 0, and one more) in (P4.7-a), K = 3 in (7).

Every display of the inventory is a finite relation (the proofs print no limit, existence statement or definition as
a display), so every one is a step and :data:`NOT_ENCODED` is empty.
"""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from .proofs import DISPLAYS, L42, L43, L44, L45, L46, P47, P48, T34
from . import claims as CB
from ..steps import CORRECTED, PRINTED, Boxes, Step, Use

#: the encoded claim each proof establishes
CLAIM = {L43: "pcfedavg.lemma4.3", L44: "pcfedavg.lemma4.4", L45: "pcfedavg.lemma4.5", L46: "pcfedavg.lemma4.6",
         P47: "pcfedavg.prop4.7", P48: "pcfedavg.prop4.8.i", T34: "pcfedavg.thm3.4.i", L42: "pcfedavg.lemma4.2"}
#: the further claims one printed proof establishes (Prop. 4.8's proof: (i), (ii) with (12), (iii); Theorem 3.4's proof
#: displays (i)'s requirement and says "(ii) and (iii) follow by the same argument")
ALSO = {P48: ("pcfedavg.prop4.8.ii", "pcfedavg.eq12", "pcfedavg.prop4.8.iii"),
        T34: ("pcfedavg.thm3.4.ii", "pcfedavg.thm3.4.iii")}

# ---------------------------------------------------------------------------- symbols and their search boxes
_BOX = Boxes()
_sym = _BOX.symbols
VEC = (-3.0, 3.0)
VALUE = (-10.0, 10.0)
NONNEG = (0.0, 10.0)
UNIT = (0.0, 1.0)


def _vec(name: str) -> tuple[sp.Symbol, sp.Symbol]:
    """A vector of R^2: the coordinates ``<name>_1``, ``<name>_2``, each in :data:`VEC`."""
    return _sym(f"{name}_1 {name}_2", VEC, real=True)


def _vals(names: str):
    """Function values (real, in :data:`VALUE`)."""
    return _sym(names, VALUE, real=True)


def _nonneg(names: str, box: tuple[float, float] = NONNEG):
    """Nonnegative scalars (second moments, gaps, drifts, slacks), in ``box``."""
    return _sym(names, box, nonnegative=True)


def _unit(names: str):
    """Fractions, probabilities and convexity weights in [0, 1]."""
    return _sym(names, UNIT, nonnegative=True)


LG = _sym("L_G", (0.1, 10.0), positive=True)                  # L_{G_rho} (Lemma 4.1)
gam = _sym("gamma", (1e-3, 1.0), positive=True)
nu = _sym("nu", (0.0, 5.0), nonnegative=True)
rho = _sym("rho", (0.1, 10.0), positive=True)
m = _sym("m", (2, 64), integer=True, positive=True)
H = _sym("H", (1, 10), integer=True, positive=True)
K = _sym("K", (1, 100), integer=True, positive=True)
M, Q = _nonneg("M Q")
Lf, sig = _sym("L_f sigma", (0.1, 10.0), positive=True)
HALF = sp.Rational(1, 2)
STEP6 = sp.Le(6 * gam * LG, 1)                                # gamma <= 1/(6 L_G)
STEP5 = sp.Le(5 * gam * LG * (H - 1), 1)                      # gamma <= 1/(5 L_G (H - 1)), void at H = 1
#: a claim's L_G = (L_f + sigma (m-1))/m + rho (Lemma 4.1), written out, as the steps' symbol L_G (Use.named)
L_G_NAMED = ((CB.rho, LG - CB.LF_SUM / CB.m),)
C2 = gam**2 * (H - 1)**2                                      # gamma^2 (H - 1)^2


# ---------------------------------------------------------------------------- vector helpers
def _sub(u, v):
    return tuple(a - b for a, b in zip(u, v))


def _lin(*terms):
    """sum of c * u over the (coefficient, vector) pairs ``terms``."""
    return tuple(sum(c * u[i] for c, u in terms) for i in range(2))


def _mean(*vs):
    return _lin(*((sp.Rational(1, len(vs)), v) for v in vs))


def _dot(u, v) -> sp.Expr:
    return sum(a * b for a, b in zip(u, v))


def _sq(u) -> sp.Expr:
    return _dot(u, u)


# ---------------------------------------------------------------------------- steps and chains
def _step(proof, label, lhs, relation, rhs, hypotheses=(), cites=(), reading="", **sides) -> Step:
    """A :class:`Step` of ``proof`` whose search box is every free symbol's declared box; ``sides``: its ``variant``
    and ``uses`` (:class:`bounds.steps.Step`)."""
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    free = set().union(*(sp.sympify(x).free_symbols for x in (lhs, rhs, *hypotheses)))
    return Step(proof, label, CLAIM[proof], lhs, relation, rhs, {s: _BOX[s] for s in free}, tuple(hypotheses),
                tuple(cites), reading, ALSO.get(proof, ()), **sides)


def _chain(*parts) -> tuple[sp.Expr, sp.Expr]:
    """(lhs, rhs) of the conjunction of the chain ``A0, rel1, A1, rel2, A2, ...`` (module docstring): S + max_j
    excess_j <= S, S the sum of |term| over the terms of the expanded A_j. The max is left unevaluated: every link's
    excess stays in it, as the display prints the link (sympy's evaluation only drops the links it can prove dominated,
    and spent two of the three seconds that building :data:`STEPS` took: time every process that plans the runs paid)."""
    items, rels = [sp.sympify(p) for p in parts[0::2]], parts[1::2]
    excess = []
    for a, rel, b in zip(items, rels, items[1:]):
        gap = sp.expand(a - b)
        excess.append({"<=": gap, ">=": -gap, "==": sp.Abs(gap)}[rel])
    scale = sum(sp.Abs(t) for a in items for t in sp.Add.make_args(sp.expand(a)))
    return scale + sp.Max(*excess, evaluate=False), scale


def _chain_step(proof, label, parts, hypotheses=(), cites=(), reading="") -> Step:
    lhs, rhs = _chain(*parts)
    return _step(proof, label, lhs, "<=", rhs, hypotheses, cites,
                 "chain " + " ".join(p if isinstance(p, str) else f"A{i // 2}" for i, p in enumerate(parts))
                 + " as one step (conjunction of its links); " + reading)


def _interp_gap(x, y, gx, gy, slack) -> sp.Expr:
    """G(x) - G(y) for G convex and L_G-smooth with gradients gx at x, gy at y: <gy, x - y> + ||gx - gy||^2/(2 L_G)
    + slack (slack >= 0)."""
    return _dot(gy, _sub(x, y)) + _sq(_sub(gx, gy)) / (2 * LG) + slack


def _interp_reverse(gap, x, y, gx, gy) -> sp.Le:
    """The other interpolation inequality, G(y) >= G(x) + <gx, y - x> + ||gx - gy||^2/(2 L_G), as gap <= ..."""
    return sp.Le(gap, _dot(gx, _sub(x, y)) - _sq(_sub(gx, gy)) / (2 * LG))


_SC = "Lemmas 4.1 and 4.2: G_{i,rho} (and G_rho) convex and L_G-smooth"


# ---------------------------------------------------------------------------- Lemma 4.3
ga, gb, ua, ub, va, vb = (_vec(n) for n in ("g_a", "g_b", "u_a", "u_b", "v_a", "v_b"))
dla, dlb = _nonneg("delta_a delta_b")
_R43 = ("m = 2 agents a, b; g_i = grad g_{i,rho}(x_{i,k}, xi_{i,k}) (one sample: the display is the expectation of a "
        "pointwise relation), u_i = grad G_{i,rho}(x_{i,k}), v_i = grad G_{i,rho}(xbar_k) in R^2; grad G_rho(xbar_k) "
        "= (1/m) sum_i v_i by the definition of G_rho")


def _lemma43_split() -> tuple[Step, ...]:
    """(L4.3-a), (L4.3-b), (3): the three-term split, Jensen, Lemma 4.1 and Assumption 3.2."""
    g, u, v = _mean(ga, gb), _mean(ua, ub), _mean(va, vb)
    noise = HALF * (_sq(_sub(ga, ua)) + _sq(_sub(gb, ub)))          # (1/m) sum_i ||g_i - u_i||^2
    dev = HALF * (_sq(_sub(ua, va)) + _sq(_sub(ub, vb)))
    phia, phib = _unit("phi_a phi_b")
    G2, Dr, s = _nonneg("Gsq drift s")
    na, nb = phia * nu**2, phib * nu**2                              # E||grad f~_i - grad f_i||^2 (A3.2)
    top = 3 * HALF * (na / 2 + nb / 2) + 3 * LG**2 * Dr + 3 * G2     # (L4.3-b)'s last line, E||A^T w||^2 = ||w||^2/m
    return (
        _step(L43, "(L4.3-a)", _sq(g), "<=", 3 * _sq(v) + 3 * _sq(_sub(g, u)) + 3 * _sq(_sub(u, v)), (),
              ("adding and subtracting (1/m) sum_i grad G_{i,rho}(xbar_k) and (1/m) sum_i grad G_{i,rho}(x_{i,k})",
               "||a + b + c||^2 <= 3(||a||^2 + ||b||^2 + ||c||^2)"),
              _R43 + "."),
        _chain_step(L43, "(L4.3-b)",
                    (_sq(g), "<=", 3 * _sq(v) + 3 * noise + 3 * dev, "<=",
                     3 * noise + 3 * LG**2 * HALF * (dla + dlb) + 3 * _sq(v)),
                    (sp.Le(_sq(_sub(ua, va)), LG**2 * dla), sp.Le(_sq(_sub(ub, vb)), LG**2 * dlb)),
                    ("Lemma 4.1", "(L4.3-a)"),
                    _R43 + "; the printed noise A^T grad f~_i(xbar, xi_i) - A^T grad f_i(xbar) is g_i - u_i "
                    "(definition of g_{i,rho}, xbar read as A x_{i,k}); delta_i = delta_{i,k} with Lemma 4.1 as "
                    "hypotheses ||u_i - v_i||^2 <= L_G^2 delta_i."),
        _chain_step(L43, "(3)",
                    (top - s, "<=", 3 * HALF * (HALF * na + HALF * nb) + 3 * LG**2 * Dr + 3 * G2, "<=",
                     3 * nu**2 / 2 + 3 * LG**2 * Dr + 3 * G2), (),
                    ("(L4.3-b)", "||A||^2 = 1/m (Lemma 4.1)", "Assumption 3.2"),
                    "m = 2; w_i = grad f~_i(xbar, xi_i) - grad f_i(xbar) with E||w_i||^2 = phi_i nu^2 (phi_i in "
                    "[0, 1]: Assumption 3.2, every value it allows); E||A^T w_i||^2 = E||w_i||^2/m (A A^T = I_n/m); "
                    "Gsq = E||grad G_rho(xbar_k)||^2, drift = E[(1/m) sum_i delta_{i,k}]; A0 = E||(1/m) sum_i g_i||^2 "
                    "= (L4.3-b)'s last line as printed - s (s >= 0: (L4.3-b) in force)."),
    )


xb, xs, gx, gs = _vec("xb"), _vec("xs"), _vec("gx"), _vec("gs")
sgc = _nonneg("sigma_c")
_R43C = ("xb = xbar_k, xs = x*_rho, gx = grad G_rho(xbar_k), gs = grad G_rho(x*_rho) in R^2 (pointwise in xbar_k); "
         "G_rho convex and L_G-smooth as the exact interpolation conditions between the two points: G_rho(xb) - "
         "G_rho(xs) = <gs, xb - xs> + ||gx - gs||^2/(2 L_G) + sigma_c (sigma_c >= 0) and, as hypothesis, the same "
         "with xb and xs exchanged")


def _lemma43_cocoercive() -> tuple[Step, ...]:
    """(L4.3-c), (L4.3-d): co-coercivity at x*_rho, then grad G_rho(x*_rho) = 0."""
    gap_c = _interp_gap(xb, xs, gx, gs, sgc)
    zero = (0, 0)
    gap_d = _interp_gap(xb, xs, gx, zero, sgc)
    return (
        _step(L43, "(L4.3-c)", 3 * _sq(_sub(gx, gs)), "<=", 6 * LG * gap_c - 6 * LG * _dot(gs, _sub(xb, xs)),
              (_interp_reverse(gap_c, xb, xs, gx, gs),), ("Lemma 4.1", "Lemma 4.2"), _R43C + "."),
        _step(L43, "(L4.3-d)", 3 * _sq(gx), "<=", 6 * LG * gap_d, (_interp_reverse(gap_d, xb, xs, gx, zero),),
              ("grad G_rho(x*_rho) = 0", "(L4.3-c)"),
              _R43C + ", with gs = grad G_rho(x*_rho) = 0 (x*_rho minimises G_rho)."),
    )


# ---------------------------------------------------------------------------- Lemma 4.4
xi_, g44 = _vec("xi"), _vec("g")
Gi = _vals("G_i")
s44, vs44 = _nonneg("sigma_1"), _unit("varsigma")


def _lemma44_steps() -> tuple[Step, ...]:
    """(L4.4-a), (L4.4-b): one agent i."""
    Gstar = Gi + _dot(g44, _sub(xs, xi_)) + s44                               # G_i(x*_rho): convexity at x_{i,k}
    Gbar = Gi + _dot(g44, _sub(xb, xi_)) + vs44 * LG / 2 * _sq(_sub(xb, xi_))  # G_i(xbar_k): convexity + descent
    delta = _sq(_sub(xi_, xb))
    r44 = ("one agent i; xi = x_{i,k}, xb = xbar_k, xs = x*_rho, g = grad G_{i,rho}(x_{i,k}) in R^2")
    return (
        _step(L44, "(L4.4-a)", -2 * _dot(_sub(xb, xs), g44), "==",
              -2 * _dot(_sub(xi_, xs), g44) - 2 * _dot(_sub(xb, xi_), g44), (), ("linearity of the inner product",),
              r44 + "."),
        _chain_step(L44, "(L4.4-b)",
                    (-2 * _dot(_sub(xb, xs), g44), "<=", 2 * (Gstar - Gi) + 2 * (Gi - Gbar) + LG * delta, "==",
                     2 * (Gstar - Gbar) + LG * delta), (), ("Lemma 4.1", "Lemma 4.2", "(L4.4-a)"),
                    r44 + "; G_i = G_{i,rho}(x_{i,k}); the values convexity and L_G-smoothness allow: "
                    "G_{i,rho}(x*_rho) = G_i + <g, xs - xi> + sigma_1 (sigma_1 >= 0), G_{i,rho}(xbar_k) = G_i + "
                    "<g, xb - xi> + varsigma L_G/2 ||xb - xi||^2 (varsigma in [0, 1]); delta_{i,k} = ||xi - xb||^2."),
    )


# ---------------------------------------------------------------------------- Lemma 4.5
z0 = _vec("z")
gt = {(i, t): _vec(f"g_{i}{t}") for i in "ab" for t in (0, 1)}              # grad g_{i,rho}(x_{i,t}, xi_{i,t})
ct = {t: _vec(f"c_{t}") for t in (0, 1)}                                   # grad G_rho(x_t)
_R45W = ("m = 2 agents a, b, k - T_r = 2 local steps t = T_r, T_r + 1 (written 0, 1) from the common start "
         "x_{a,T_r} = x_{b,T_r} = z; g_it = grad g_{i,rho}(x_{i,t}, xi_{i,t}) in R^2 (one sample: the display is the "
         "expectation of a pointwise relation), x_{i,t+1} = x_{i,t} - gamma g_it by (CR); xbar_k = (1/m) sum_i "
         "x_{i,k}, delta_{i,k} = ||x_{i,k} - xbar_k||^2")


def _window_drift():
    """(1/m) sum_i delta_{i,k} at k = T_r + 2, the iterates unrolled from the common start z."""
    xk = {i: _lin((1, z0), (-gam, gt[(i, 0)]), (-gam, gt[(i, 1)])) for i in "ab"}
    bar = _mean(xk["a"], xk["b"])
    return HALF * sum(_sq(_sub(xk[i], bar)) for i in "ab")


def _lemma45_window() -> tuple[Step, ...]:
    """(4), (L4.5-a), (L4.5-b)."""
    gbar = {t: _mean(gt[("a", t)], gt[("b", t)]) for t in (0, 1)}
    a1 = gam**2 / 2 * sum(_sq(_lin(*((1, _sub(gt[(i, t)], gbar[t])) for t in (0, 1)))) for i in "ab")
    a2 = gam**2 * 2 / 2 * sum(_sq(_sub(gt[(i, t)], ct[t])) for i in "ab" for t in (0, 1))
    ya, yb, c = _vec("y_a"), _vec("y_b"), _vec("c")
    vva, vvb = _nonneg("v_a v_b")
    second = {"a": _sq(ya) + vva, "b": _sq(yb) + vvb}                      # E||g_i||^2
    centred = {"a": _sq(_sub(ya, c)) + vva, "b": _sq(_sub(yb, c)) + vvb}   # E||g_i - c||^2
    printed_a = [sp.Le(sum(_sq(_sub(gt[(i, t)], ct[t])) for i in "ab"), sum(_sq(gt[(i, t)]) for i in "ab"))
                 for t in (0, 1)]
    return (
        _chain_step(L45, "(4)", (_window_drift(), "==", a1, "<=", a2), (), ("(CR)", "x_{i,T_r} = xbar_{T_r}"),
                    _R45W + "; c_t = grad G_rho(x_t) free in R^2 (the printed centre; x_t without bar)."),
        _chain_step(L45, "(L4.5-a)", (centred["a"] + centred["b"], "==",
                                      2 * _sq(c) + second["a"] + second["b"] - 2 * _dot(_lin((2, c)), c), "<=",
                                      second["a"] + second["b"]), (),
                    ("m G_rho(x) = sum_i E[g_{i,rho}(x, xi_i)]",),
                    "m = 2 agents a, b at one t; y_i = E[grad g_{i,rho}(x_{i,t}, xi_{i,t})] = grad G_{i,rho}(x_{i,t}) "
                    "(unbiased oracle) and c = grad G_rho(x_t) free in R^2 (gradients of different convex L_G-smooth "
                    "G_{i,rho} at different points x_{i,t}, x_t take any values); E||g_i||^2 = ||y_i||^2 + v_i and "
                    "E||g_i - c||^2 = ||y_i - c||^2 + v_i with the variance v_i >= 0 (exact for any distribution "
                    "of mean y_i)."),
        _step(L45, "(L4.5-b)", _window_drift(), "<=",
              gam**2 * (H - 1) / 2 * sum(_sq(gt[(i, t)]) for i in "ab" for t in (0, 1)),
              tuple(printed_a) + (sp.Le(2, H - 1),), ("(4)", "(L4.5-a)", "k - T_r <= T_{r+1} - T_r - 1 <= H - 1"),
              _R45W + "; hypotheses: (L4.5-a) as printed at t = 0, 1 (sum_i ||g_it - c_t||^2 <= sum_i ||g_it||^2, "
              "c_t = grad G_rho(x_t) free in R^2) and k - T_r = 2 <= H - 1."),
    )


def _lemma45_sum() -> tuple[Step, ...]:
    """(5), (6), (L4.5-c)."""
    A0, A1, A2, s1, s2 = _nonneg("A_0 A_1 A_2 s_1 s_2")
    D1 = gam**2 * (H - 1) / m * A0 - s1                                    # (L4.5-b) at k = T_r + 1
    D2 = gam**2 * (H - 1) / m * (A0 + A1) - s2                             # (L4.5-b) at k = T_r + 2
    mid = gam**2 * (H - 1) / m * (A0 + (A0 + A1))
    pa, pb = _vec("p_a"), _vec("p_b")
    six = (HALF * sum(_sq(g) for g in (ga, gb)), "<=",
           4 * HALF * (_sq(pa) + _sq(pb)) + 4 * HALF * (_sq(_sub(ga, ua)) + _sq(_sub(gb, ub)))
           + 4 * HALF * (_sq(_sub(va, pa)) + _sq(_sub(vb, pb))) + 4 * HALF * (_sq(_sub(ua, va)) + _sq(_sub(ub, vb))))
    # (L4.5-c): agents a, b; sum_i grad G_i(x*_rho) = 0, so p_b = -p_a
    qa = _vec("q_a")
    qb = _lin((-1, qa))
    xo = _vec("xo")
    sa, sb = _nonneg("sigma_a sigma_b")
    gap_a, gap_b = _interp_gap(xb, xs, va, qa, sa), _interp_gap(xb, xs, vb, qb, sb)
    c_parts = (HALF * (_sq(_sub(va, qa)) + _sq(_sub(vb, qb))), "<=",
               2 * LG / 2 * (gap_a + gap_b) - 2 * LG * _dot(_mean(qa, qb), _sub(xb, xo)), "==",
               2 * LG * HALF * (gap_a + gap_b))
    return (
        _chain_step(L45, "(5)", (0 + D1 + D2, "<=", mid, "<=", gam**2 * (H - 1)**2 / m * (A0 + A1 + A2)),
                    (sp.Le(3, H),), ("(L4.5-b)", "summing over k"),
                    "a round of three iterations T_r, T_r + 1, T_r + 2 = v (round length 3 <= H); A_t = sum_i "
                    "E||grad g_{i,rho}(x_{i,t}, xi_{i,t})||^2 >= 0; the drifts E[(1/m) sum_i delta_{i,k}] are every "
                    "value (L4.5-b) as printed allows: 0 at k = T_r (common start), gamma^2 (H-1)/m sum_{t<k} A_t - "
                    "s_k at k = T_r + 1, T_r + 2 (s_k >= 0)."),
        _step(L45, "(6)", six[0], "<=", six[2], (),
              ("adding and subtracting grad G_i(xbar_t), grad G_i(x*_rho), grad G_i(x_{i,t})",
               "||a + b + c + d||^2 <= 4(||a||^2 + ||b||^2 + ||c||^2 + ||d||^2)"),
              "m = 2 agents a, b; g_i = grad g_{i,rho}(x_{i,t}, xi_{i,t}) (one sample), p_i = grad G_{i,rho}(x*_rho), "
              "u_i = grad G_{i,rho}(x_{i,t}), v_i = grad G_{i,rho}(xbar_t) in R^2."),
        _chain_step(L45, "(L4.5-c)", c_parts, (_interp_reverse(gap_a, xb, xs, va, qa),
                                               _interp_reverse(gap_b, xb, xs, vb, qb)),
                    (_SC, "(1/m) sum_i grad G_{i,rho}(x*_rho) = 0"),
                    "m = 2 agents a, b; xb = xbar_t, xs = x*_rho in R^2 (pointwise in xbar_t); v_i = grad G_{i,rho}"
                    "(xbar_t), q_a = grad G_{a,rho}(x*_rho) and q_b = -q_a (the optimality (1/m) sum_i grad G_{i,rho}"
                    "(x*_rho) = 0); each G_{i,rho} by the interpolation conditions between xb and xs (slacks "
                    "sigma_a, sigma_b >= 0); G_rho = (1/m) sum_i G_{i,rho}; the printed inner product has xbar_t - x* "
                    "with x* (xo, free in R^2) where x*_rho is meant -- it vanishes either way."),
    )


def _lemma45_bounds() -> tuple[Step, ...]:
    """(L4.5-d), (L4.5-e), (L4.5-f): scalar bookkeeping of the round."""
    P, N, Gap, Dr, s0, sC, sV, sN = _nonneg("P N gap drift s_0 s_C s_V s_N")
    Cc = 2 * LG * Gap - sC                                                 # (L4.5-c) as printed
    Vv = LG**2 * Dr - sV                                                    # Lemma 4.1
    Sg_d = 4 * P + 4 * N + 4 * Cc + 4 * Vv - s0                           # (6) as printed
    Sg_e = 4 * LG**2 * Dr + 8 * LG * Gap + 4 * (nu**2 / m - sN) + 4 * M - s0   # (L4.5-d) printed, N <= nu^2/m
    Sd, Sgap = _nonneg("S_drift S_gap")
    ell = _sym("ell", (1, 10), integer=True, positive=True)
    Sa_f = 8 * LG * Sgap + 4 * LG**2 * Sd + 4 * ell * (M + nu**2 / m) - s0  # (L4.5-e) printed, summed over t
    return (
        _step(L45, "(L4.5-d)", Sg_d, "<=", 4 * LG**2 * Dr + 8 * LG * Gap + 4 * N + 4 * M, (),
              ("(6)", "(L4.5-c)", "Lemma 4.1", "the definition of M"),
              "scalars at one t: (1/m) sum_i E||grad g_{i,rho}||^2 = (6)'s right side as printed - s_0 with its four "
              "terms 4P + 4N + 4C + 4V: P = (1/m) sum_i ||grad G_{i,rho}(x*_rho)||^2, N = (1/m) sum_i E||grad "
              "g_{i,rho} - grad G_{i,rho}||^2 (= the printed (1/m) sum_i E||A^T grad f~_i - A^T grad f_i||^2), C = "
              "2 L_G gap - s_C ((L4.5-c) as printed), V = L_G^2 drift - s_V (Lemma 4.1), slacks >= 0; M = (1/m) "
              "sum_i E||grad F~_i(x*, xi_i)||^2 (definition of M: at x*, the solution of (1), of F~_i without the "
              "penalty) and P are free nonnegative -- nothing in force ties grad G_{i,rho} at x*_rho to grad F~_i "
              "at x*."),
        _step(L45, "(L4.5-e)", Sg_e, "<=", 8 * LG * Gap + 4 * LG**2 * Dr + 4 * M + 4 * nu**2 / m, (),
              ("(L4.5-d)", "Assumption 3.2", "||A||^2 = 1/m"),
              "scalars at one t: (1/m) sum_i E||grad g_{i,rho}||^2 = (L4.5-d)'s right side as printed - s_0, with "
              "N = nu^2/m - s_N (Assumption 3.2 and E||A^T w||^2 = E||w||^2/m: N <= nu^2/m); the printed "
              "E[(1/m) sum_i delta_{i,k}] (index k where the sum is over t) is the same drift."),
        _step(L45, "(L4.5-f)", (1 - 4 * C2 * LG**2) * Sd, "<=", 8 * C2 * LG * Sgap + 4 * C2 * ell * (M + nu**2 / m),
              (sp.Le(Sd, C2 * Sa_f), sp.Le(ell, H), STEP5),
              ("(5)", "(L4.5-e)", "rearranging"),
              "one round of ell <= H iterations: S_drift = sum_k E[(1/m) sum_i delta_{i,k}], S_gap = sum_t E[G_rho"
              "(xbar_t) - G_rho(x*_rho)], sum_t (M + nu^2/m) = ell (M + nu^2/m); S_a = sum_t (1/m) sum_i E||grad "
              "g_{i,rho}||^2 = (L4.5-e) as printed summed over t - s_0 (its delta_{i,k} read delta_{i,t}, so it "
              "sums to S_drift); hypothesis: (5) as printed, S_drift <= gamma^2 (H-1)^2 S_a."),
    )


# ---------------------------------------------------------------------------- Lemma 4.6
ha, hb = _vec("h_a"), _vec("h_b")
pr = _unit("p")


def _lemma46_steps() -> tuple[Step, ...]:
    """(L4.6-b), (L4.6-c), (L4.6-d)."""
    r46 = "m = 2 agents a, b; xb = xbar_k, xs = x*_rho in R^2; g_i = grad g_{i,rho}(x_{i,k}, xi_{i,k})"
    nxt = _lin((1, xb), (-gam, _mean(ga, gb)))                            # (L4.6-a): xbar_{k+1}
    Dr, s = _nonneg("drift s")
    ua_, ub_ = _lin((pr, ga), (1 - pr, ha)), _lin((pr, gb), (1 - pr, hb))  # E[g_i | F_k] = grad G_i(x_{i,k})
    gap_c = LG * Dr / 2 + HALF * (_dot(_sub(xb, xs), ua_) + _dot(_sub(xb, xs), ub_)) - s   # Lemma 4.4 in force

    def cond(fn):
        return pr * fn(ga, gb) + (1 - pr) * fn(ha, hb)

    lhs_c = cond(lambda a, b: _sq(_sub(_lin((1, xb), (-gam, _mean(a, b))), xs)))
    rhs_c = _sq(_sub(xb, xs)) - 2 * gam * gap_c + gam**2 * cond(lambda a, b: _sq(_mean(a, b))) + gam * LG * Dr
    d, Gap, s1, s2 = _nonneg("dist gap s_1 s_2")
    Sq_d = 6 * LG * Gap + 3 * LG**2 * Dr + 3 * nu**2 / m - s2             # Lemma 4.3
    dn_d = d - 2 * gam * Gap + gam**2 * Sq_d + gam * LG * Dr - s1          # (L4.6-c) in total expectation
    return (
        _step(L46, "(L4.6-b)", _sq(_sub(nxt, xs)), "==",
              gam**2 * _sq(_mean(ga, gb)) + _sq(_sub(xb, xs)) - 2 * gam / 2 * (_dot(_sub(xb, xs), ga)
                                                                               + _dot(_sub(xb, xs), gb)),
              (), ("(CR) averaged: xbar_{k+1} = xbar_k - gamma (1/m) sum_i g_i",), r46 + " (one sample)."),
        _step(L46, "(L4.6-c)", lhs_c, "<=", rhs_c, (STEP6,),
              ("conditional expectation given F_k", "independent samples", "Lemma 4.4"),
              r46 + "; given F_k the pair (g_a, g_b) is two-atom: with probability p, (h_a, h_b) with 1 - p, so "
              "grad G_{i,rho}(x_{i,k}) = E[g_i | F_k] = p g_i + (1 - p) h_i (unbiased oracle); drift = (1/m) sum_i "
              "delta_{i,k}; Lemma 4.4 in force: G_rho(xb) - G_rho(xs) = L_G drift/2 + (1/m) sum_i <xb - xs, "
              "grad G_{i,rho}(x_{i,k})> - s (s >= 0)."),
        _step(L46, "(L4.6-d)", dn_d, "<=", d + gam * LG * (1 + 3 * gam * LG) * Dr - 2 * gam * (1 - 3 * gam * LG) * Gap
              + 3 * gam**2 * nu**2 / m, (STEP6,), ("(L4.6-c)", "Lemma 4.3"),
              "scalars: dist = E||xbar_k - x*_rho||^2, gap = E[G_rho(xbar_k) - G_rho(x*_rho)], drift = E[(1/m) "
              "sum_i delta_{i,k}], Sq = E||(1/m) sum_i g_i||^2 = Lemma 4.3's bound - s_2; E||xbar_{k+1} - x*_rho||^2 "
              "= (L4.6-c)'s right side in total expectation - s_1 (slacks >= 0).",
              applies=(Use("Lemma 4.3", "pcfedavg.lemma4.3", "sq_avg_grad", Sq_d + s2, named=L_G_NAMED,
                           at={"gap": Gap, "drift": Dr, "nu": nu, "m": m}),)),
    )


# ---------------------------------------------------------------------------- Proposition 4.7
def _prop47_steps() -> tuple[Step, ...]:
    """(7), (P4.7-a), (P4.7-c)."""
    d0 = _nonneg("dist_0")
    dr = _nonneg("drift_0 drift_1 drift_2")
    gp = _nonneg("gap_0 gap_1 gap_2")
    sk = _nonneg("s_0 s_1 s_2")
    dist = [d0]
    for k in range(3):                                                    # Lemma 4.6 at k = 0, 1, 2
        dist.append(sp.Rational(3, 2) * gam * LG * dr[k] + dist[k] - gam * gp[k] + 3 * gam**2 * nu**2 / m - sk[k])
    D0, G0, G1, s0, s1 = _nonneg("D_0 G_0 G_1 s_0 s_1")
    l0, l1 = _sym("ell_0 ell_1", (1, 10), integer=True, positive=True)
    D1 = 5 * C2 * l1 * (M + nu**2 / m) + 10 * C2 * LG * G1 - s1           # Lemma 4.5 at round r = 1
    D0_corrected = 5 * C2 * l0 * (M + nu**2 / m) + 10 * C2 * LG * G0 - s0  # ... and at r = 0, 'for any r >= 0'
    Q0, Sg, s2 = _nonneg("Q_0 S_gap s_2")
    distK = Q0 + gam * ((15 * C2 * LG**2 - 1) * Sg + sp.Rational(15, 2) * LG * C2 * K * (M + nu**2 / m) - s2) \
        + 3 * K * gam**2 * nu**2 / m - s1                                 # (7) telescoped, with (P4.7-a) printed
    return (
        _step(P47, "(7)", sum(dist[1:]), "<=", sum(dist[:3]) + gam * (sp.Rational(3, 2) * LG * sum(dr) - sum(gp))
              + 3 * 3 * gam**2 * nu**2 / m, (STEP6,), ("Lemma 4.6", "summing over k = 0, ..., K - 1"),
              "K = 3; dist_k = E||xbar_k - x*_rho||^2, drift_k, gap_k >= 0; dist_{k+1} is every value Lemma 4.6 "
              "allows: its right side at k - s_k (s_k >= 0), recursively from dist_0.",
              applies=(Use("Lemma 4.6", "pcfedavg.lemma4.6", "dist_next", sum(dist[:3]) + gam * (
                  sp.Rational(3, 2) * LG * sum(dr) - sum(gp)) + 3 * 3 * gam**2 * nu**2 / m, copies=3,
                  summed=("dist", "drift", "gap"), named=L_G_NAMED,
                  at={"dist": sum(dist[:3]), "drift": sum(dr), "gap": sum(gp), "gamma": gam, "nu": nu, "m": m}),)),
        _p47a(D0, D1, G0, G1, l0, l1, ((RANGE, PRINTED),),
              "Lemma 4.5 as stated ('for any r >= 1') bounds round 1: D_1 = its right side - s_1 (s_1 >= 0); round "
              "0 is not covered and D_0 >= 0 is free", (_lemma45_at(D1 + s1, G1, l1),)),
        _p47a(D0_corrected, D1, G0, G1, l0, l1, ((RANGE, CORRECTED),),
              "Lemma 4.5 read 'for any r >= 0' (its proof uses only the round's common start, which line 3 gives at "
              "r = 0 too) bounds both rounds: D_r = its right side - s_r (s_r >= 0)",
              (_lemma45_at(D0_corrected + s0, G0, l0), _lemma45_at(D1 + s1, G1, l1))),
        _step(P47, "(P4.7-c)", gam / 3 * Sg, "<=",
              Q0 + K * (sp.Rational(15, 2) * LG * gam**3 * (H - 1)**2 * M)
              + K * (nu**2 / m * (sp.Rational(15, 2) * LG * gam**3 * (H - 1)**2 + 3 * gam**2)),
              (sp.Ge(distK, 0), STEP6, STEP5), ("(7)", "(P4.7-a)", "15 gamma^2 (H-1)^2 L_G^2 - 1 <= -1/3", "K = T_r"),
              "Q_0 = E||xbar_0 - x*_rho||^2, S_gap = sum_{k<K} E[G_rho(xbar_k) - G_rho(x*_rho)] >= 0; K = T_r as the "
              "proof asserts, so the rounds tile 0..K-1; (7) telescoped with (P4.7-a) as printed substituted: "
              "dist_K = Q_0 + gamma((15 gamma^2 (H-1)^2 L_G^2 - 1) S_gap + (15/2) L_G gamma^2 (H-1)^2 K (M + "
              "nu^2/m) - s_2) + 3 K gamma^2 nu^2/m - s_1 (slacks >= 0), hypothesis dist_K >= 0.", uses=("(P4.7-a)",)),
    )


#: the erratum of Lemma 4.5's range (``repro.papers.pcfedavg.errata``): stated 'for any r >= 1', applied by (P4.7-a)
#: from r = 0
RANGE = "pcfedavg.lemma4.5.range"


def _lemma45_at(taken, gap_sum, length) -> Use:
    """(P4.7-a)'s use of Lemma 4.5 for one round: ``taken`` bounds its drift sum, at its gap sum and length."""
    return Use("Lemma 4.5", "pcfedavg.lemma4.5", "drift_round", taken, named=L_G_NAMED,
               at={"gamma": gam, "H": H, "gap_round": gap_sum, "round_len": length, "M": M, "nu": nu, "m": m})


def _p47a(D0, D1, G0, G1, l0, l1, variant, how: str, applies: tuple) -> Step:
    """(P4.7-a) for two rounds, with round r's drift sum D_r as ``how`` says (Lemma 4.5 as stated, or corrected),
    applying Lemma 4.5 as ``applies`` says."""
    return _step(P47, "(P4.7-a)", sp.Rational(3, 2) * LG * (D0 + D1) - (G0 + G1), "<=",
                 (15 * C2 * LG**2 - 1) * (G0 + G1) + sp.Rational(15, 2) * LG * C2 * (l0 + l1) * (M + nu**2 / m),
                 (sp.Le(l0, H), sp.Le(l1, H), STEP6, STEP5), ("Lemma 4.5", "K = T_r"),
                 "two rounds, t = 1, 2 of the printed double sum: rounds r = 0 ([T_0, T_1 - 1]) and r = 1, of lengths "
                 "ell_0, ell_1 <= H; D_r = sum_{k in round r} E[(1/m) sum_i delta_{i,k}], G_r the round's gap sum; "
                 f"{how}. The printed summand E[G_rho(xbar_t) - G_rho(x*_rho)] with the round index t is read with k "
                 "(Lemma 4.5's summation index), so the gap sums are G_r.", variant=variant, applies=applies)


# ---------------------------------------------------------------------------- Proposition 4.8
fb, fs, Gb, Gs = _vals("f_xb f_xs G_xb G_xs")
Hb, Hs, ea, eb, za, zb, s48, s48b = _nonneg("Hpen_xb Hpen_xs e_a e_b z_a z_b s_a s_b")
gf, xa, xc, Pa, Pc = (_vec(n) for n in ("gf", "x_A", "x_C", "P_A", "P_C"))
gn, Ed = _nonneg("gn Ed", (0.0, 5.0))
da, db = _sym("d_a1 d_a2", (0.0, 5.0), nonnegative=True), _sym("d_b1 d_b2", (0.0, 5.0), nonnegative=True)


def _prop48_i() -> tuple[Step, ...]:
    """(P4.8-a), (P4.8-b), (P4.8-c), (8)."""
    Gr = Gs - s48                                                         # G_rho(x*_rho) <= G_rho(x*)
    Gr_b = fs + rho * Hs - s48
    Hbar = (ea + eb) / (2 * 2)                                            # cal-H = (1/m) sum_i dbar_i^2/2, m = 2
    Hstar = (za + zb) / (2 * 2)
    E_c = fb + rho * Hbar - (fs + rho * Hstar) + s48                      # (P4.8-b) printed + Prop. 4.7 (<= E)
    E_8 = fb - fs + rho / 2 * (ea + eb) + s48                             # (P4.8-c) printed, x*_i = Pi x*_i
    return (
        _step(P48, "(P4.8-a)", Gb - Gs, "<=", Gb - Gr, (), ("x*_rho in argmin G_rho",),
              "G_xb = E[G_rho(xbar_K*)], G_xs = G_rho(x*); G_rho(x*_rho) = G_xs - s_a (s_a >= 0: x*_rho minimises "
              "G_rho)."),
        _step(P48, "(P4.8-b)", fb + rho * Hb - (fs + rho * Hs), "<=", fb + rho * Hb - Gr_b, (),
              ("(P4.8-a)", "definition of G_rho"),
              "f_xb = E f(xbar_K*), f_xs = f(x*), Hpen = cal-H >= 0 at xbar_K* (in expectation) and x*; G_rho = f + "
              "rho cal-H (definition); (P4.8-a) in force: G_rho(x*_rho) = G_rho(x*) - s_a (s_a >= 0)."),
        _step(P48, "(P4.8-c)", fb + rho / 2 * (ea + eb) - (fs + rho / 2 * (za + zb)), "<=", E_c, (),
              ("definition of cal-H", "Proposition 4.7", "(P4.8-b)"),
              "m = 2 agents a, b; e_i = E[dbar_i^2] (dbar_i the distance of block i of xbar_K* to X_i), z_i = ||x*_i "
              "- Pi_{X_i}[x*_i]||^2 >= 0; by definition (2) cal-H(x) = (1/m) sum_i h_i(x_i) = (1/(2m)) sum_i ||x_i - "
              "Pi_{X_i} x_i||^2; E (Prop. 4.7's bound) = (P4.8-b)'s left side + s_a (s_a >= 0: (P4.8-b) and Prop. "
              "4.7 in force). x*'s feasibility (z_i = 0) is used in (8); z_i free here."),
        _step(P48, "(8)", fb - fs + rho / 2 * (ea + eb), "<=", E_8, (), ("(P4.8-c)", "x*_i = Pi_{X_i}[x*_i]"),
              "m = 2; e_i = E[dbar_i^2]; (P4.8-c) as printed in force with ||x*_i - Pi_{X_i}[x*_i]||^2 = 0: E = its "
              "left side + s_a (s_a >= 0)."),
    )


def _prop48_ii_first_order() -> tuple[Step, ...]:
    """(9), (P4.8-d), (P4.8-e), (10)."""
    sa_, sc_ = _nonneg("sigma_A sigma_C")
    Exb = _lin((pr, xa), (1 - pr, xc))
    EP = _lin((pr, Pa), (1 - pr, Pc))
    gap9 = pr * (_dot(gf, _sub(xa, xs)) + sa_) + (1 - pr) * (_dot(gf, _sub(xc, xs)) + sc_)   # E[f(xb) - f(x*)]
    gap_in = _dot(gf, _sub(Exb, xs)) + s48                                 # (9) as printed in force
    r9 = ("xbar_K* two-atom: x_A with probability p, x_C with 1 - p; xs = x*, gf = grad f(x*) in R^2 (the block "
          "vector of R^{mn} read as R^2)")
    rP = "; Pi_X[xbar_K*] two-atom with it: P_A, P_C in R^2"
    s1, s2 = s48, s48b
    return (
        _step(P48, "(9)", _dot(gf, _sub(Exb, xs)), "<=", gap9, (), ("convexity of f",),
              r9 + "; f convex: f(x_A) = f(x*) + <gf, x_A - x*> + sigma_A, likewise at x_C (sigma >= 0: every value "
              "the gradient inequality allows)."),
        _step(P48, "(P4.8-d)", _dot(gf, _sub(_lin((1, Exb), (1, EP), (-1, EP)), xs)), "<=", gap_in, (),
              ("adding and subtracting Pi_X[xbar_K*]", "(9)"),
              r9 + rP + "; (9) as printed in force: E[f(xbar_K*) - f(x*)] = its left side + s_a (s_a >= 0)."),
        _step(P48, "(P4.8-e)", _dot(gf, _sub(Exb, EP)), "<=", gap_in,
              (sp.Ge(_dot(gf, _sub(Pa, xs)), 0), sp.Ge(_dot(gf, _sub(Pc, xs)), 0)),
              ("Pi_X[xbar_K*] in X", "first-order optimality of x*", "(P4.8-d)"),
              r9 + rP + "; (P4.8-d) as printed in force: E[f(xbar_K*) - f(x*)] = <gf, E xbar_K* - x*> + s_a (s_a >= "
              "0); hypotheses: grad f(x*)^T (y - x*) >= 0 at y = P_A, P_C in X (x* minimises the convex f over X)."),
        _step(P48, "(10)", -gn * Ed + rho / 2 * (ea + eb), "<=", (-gn * Ed + s1) + rho / 2 * (ea + eb) + s2, (),
              ("(8)", "Cauchy-Schwarz and Jensen: -||grad f(x*)|| E[dbar] <= E[f(xbar_K*) - f(x*)]"),
              "m = 2; gn = ||grad f(x*)||, Ed = E[dbar], e_i = E[dbar_i^2]; the lower bound before (10) in force: "
              "E[f(xbar_K*) - f(x*)] = -gn Ed + s_a; (8) as printed in force: E = E[f(xbar_K*) - f(x*)] + (rho/m) "
              "sum_i e_i + s_b (slacks >= 0)."),
    )


def _two_atom_d():
    """The two-atom law of (dbar_1, dbar_2): d_a with probability p, d_b with 1 - p (m = 2): sum_i E[dbar_i^2],
    sum_i E[dbar_i], E[dbar] with dbar = sqrt(dbar_1^2 + dbar_2^2) (Pi_X acts blockwise on X = X_1 x X_2)."""
    P = pr * (da[0]**2 + da[1]**2) + (1 - pr) * (db[0]**2 + db[1]**2)
    sum_E = pr * (da[0] + da[1]) + (1 - pr) * (db[0] + db[1])
    E_bar = pr * sp.sqrt(da[0]**2 + da[1]**2) + (1 - pr) * sp.sqrt(db[0]**2 + db[1]**2)
    return P, sum_E, E_bar


_RD = ("m = 2; (dbar_1, dbar_2) two-atom: (d_a1, d_a2) with probability p, (d_b1, d_b2) with 1 - p (nonnegative); "
       "dbar = ||xbar_K* - Pi_X[xbar_K*]|| = sqrt(dbar_1^2 + dbar_2^2) (X = X_1 x X_2, Pi_X blockwise); gn = "
       "||grad f(x*)||")
_FACTS = ("fact 1: -sum_i E[dbar_i] <= -E[dbar]", "fact 2: -sqrt(sum_i E[dbar_i^2]) <= -sum_i E[dbar_i]")


def _prop48_ii_facts() -> tuple[Step, ...]:
    """(11) and (P4.8-h): the chains through the two facts quoted before them."""
    P, sum_E, E_bar = _two_atom_d()
    E_10 = -gn * E_bar + rho / 2 * P + s48                                # (10) as printed (in expectation) in force
    S_f = -gn * E_bar + s48                                               # the lower bound before (10) in force
    return (
        _chain_step(P48, "(11)", (rho / 2 * P - gn * sp.sqrt(P), "<=", rho / 2 * P - gn * sum_E, "<=",
                                  rho / 2 * P - gn * E_bar, "<=", E_10), (),
                    _FACTS + ("(10)", "taking expectations"),
                    _RD + "; the text derives (11) from (10) by the two facts: A0 = (11)'s left side, A0 <= A1 is fact "
                    "2 (times gn), A1 <= A2 fact 1, A2 <= A3 = E is (10) as printed in force (E = (10)'s left side in "
                    "expectation + s_a, s_a >= 0)."),
        _chain_step(P48, "(P4.8-h)", (-gn * sp.sqrt(P), "<=", -gn * sum_E, "<=", -gn * E_bar, "<=", S_f), (),
                    _FACTS + ("(10)",),
                    _RD + "; the text derives (P4.8-h) 'invoking the two facts and (10)': A0 = (P4.8-h)'s left side, "
                    "A0 <= A1 is fact 2, A1 <= A2 fact 1, A2 <= A3 = E[f(xbar_K*) - f(x*)] is the lower bound "
                    "-gn E[dbar] <= E[f(xbar_K*) - f(x*)] substituted into (8) to give (10) (in force: E[f - f*] = "
                    "-gn E[dbar] + s_a, s_a >= 0)."),
    )


def _E47(LGe):
    """Prop. 4.7's bound E (as printed) with L_G = ``LGe``."""
    return 3 * Q / (K * gam) + sp.Rational(45, 2) * LGe * C2 * M + nu**2 / m * (sp.Rational(45, 2) * LGe * C2 + 9 * gam)


LG_EXPR = (Lf + sig * (m - 1)) / m + rho
_PROP_STEP = (sp.Le(6 * gam * LG_EXPR, 1), sp.Le(5 * gam * LG_EXPR * (H - 1), 1))


def _rhs12():
    Mn = M + nu**2 / m
    return (m * gn / rho + 6 * sp.sqrt(gam * nu**2 / rho) + 2 * sp.sqrt(45 * (Lf + sig * (m - 1)) * C2 * Mn / (2 * rho))
            + 2 * sp.sqrt(3 * m * Q / (K * gam * rho)) + 2 * sp.sqrt(45 * m * C2 * Mn / 2))


def _prop48_ii_root() -> tuple[Step, ...]:
    """(P4.8-g), (12), the display after (12)."""
    a = _nonneg("a")
    Eg = rho / m * a**2 - gn * a + s48                                    # (11) as printed in force
    a12 = m * gn / rho + 2 * sp.sqrt(m * _E47(LG_EXPR) / rho)             # (P4.8-g) as printed, at its bound
    Mn = M + nu**2 / m
    ii = (5 * m * gn**2 / rho**2 + 60 * m * Q / (K * gam * rho) + 450 * (Lf + sig * (m - 1)) * C2 * Mn / rho
          + 450 * m * C2 * Mn + 180 * gam * nu**2 / rho)
    return (
        _step(P48, "(P4.8-g)", a, "<=", m * gn / rho + 2 * sp.sqrt(m * Eg / rho), (sp.Ge(Eg, 0),),
              ("(11)", "the left side of (11) as a quadratic in a"),
              "a = sqrt(sum_i E[dbar_i^2]) >= 0, gn = ||grad f(x*)||; (11) as printed in force: E = (rho/m) a^2 - "
              "gn a + s_a (s_a >= 0), hypothesis E >= 0."),
        _step(P48, "(12)", a12, "<=", _rhs12(), _PROP_STEP, ("(P4.8-g)", "definition of E (Proposition 4.7)"),
              "gn = ||grad f(x*)||, Q = E||xbar_0 - x*_rho||^2; sqrt(sum_i E[dbar_i^2]) at the largest value "
              "(P4.8-g) as printed in force allows, its right side, with E = Prop. 4.7's bound and L_G = (L_f + "
              "sigma(m-1))/m + rho (Lemma 4.1); the step-size conditions of Prop. 4.8 as hypotheses."),
        _step(P48, "display after (12)", _rhs12()**2, "<=", ii, _PROP_STEP,
              ("(12)", "sqrt(E[dbar_i^2]) <= sqrt(sum_i E[dbar_i^2])"),
              "E[dbar_i^2] at the largest value the hypotheses in force allow: E[dbar_i^2] <= sum_j E[dbar_j^2] "
              "(the text) and sqrt(sum_j E[dbar_j^2]) <= (12)'s right side ((12) as printed), so (12)'s right side "
              "squared; gn = ||grad f(x*)||, so the printed 5m||grad f(x*)||^2/rho^2 is 5 m gn^2/rho^2; the "
              "step-size conditions of Prop. 4.8 as hypotheses."),
    )


# ---------------------------------------------------------------------------- Theorem 3.4
def _thm34_steps() -> tuple[Step, ...]:
    """(T3.4-a): the requirement the proof sets, against Prop. 4.8 (i) as stated."""
    Mn = M + nu**2 / m
    b48 = CB.BOUND_48I                                                  # Prop. 4.8 (i), statement: its encoding
    t34 = (sp.Rational(45, 2) * rho * C2 * Mn + 9 * gam * nu**2 / m + 3 * Q / (K * gam)
           + 45 * (Lf + sig * (m - 1)) / (2 * m) * C2 * Mn)                 # (T3.4-a), the display
    return (
        _step(T34, "(T3.4-a)", b48 - s48, "<=", t34 + s48b, _PROP_STEP, ("Proposition 4.8 (i)",),
              "the display sets its left side T <= epsilon to make E[f(xbar_K*) - f(x*)] <= epsilon: encoded as that "
              "conclusion, E[f(xbar_K*) - f(x*)] <= epsilon, with Prop. 4.8 (i) as stated in force (E[f - f*] = its "
              "bound - s_a) and the display in force (epsilon = T + s_b), slacks >= 0; Q = E||xbar_0 - x*_rho||^2 "
              "(the statement read from its encoded claim, the display transcribed from the paper)."),
    )


# ---------------------------------------------------------------------------- Lemma 4.2 (appendix)
def _lemma42_steps() -> tuple[Step, ...]:
    """Lemma 4.2's display: linearity of A, then convexity of f_i."""
    x, y = _vec("x"), _vec("y")
    th = _unit("theta")
    qq, cc = _nonneg("q c", (0.0, 5.0))
    bb, dd = _vals("b d")

    def f(t):
        return qq * t**2 + bb * t + cc * sp.Abs(t - dd)

    def A(v):
        return (v[0] + v[1]) / 2

    mix = _lin((th, x), (1 - th, y))
    return (
        _chain_step(L42, "display 1", (f(A(mix)), "==", f(th * A(x) + (1 - th) * A(y)), "<=",
                                       th * f(A(x)) + (1 - th) * f(A(y))), (),
                    ("A linear", "convexity of f_i"),
                    "m = 2 blocks of n = 1: x, y in R^2, A x = (x_1 + x_2)/2; f_i(t) = q t^2 + b t + c |t - d| "
                    "(q, c >= 0), a family of convex functions of R standing for f_i; theta in [0, 1]."),
    )


# ---------------------------------------------------------------------------- the steps, and the displays left out
#: which parts of Prop. 4.8 each display of its proof bears on: (P4.8-a) and (P4.8-b) on all; the route from (P4.8-c)
#: on keeps the penalty term, which (i) drops (re-derived from (P4.8-b) with the definitions' factor rho/(2m)), so it
#: bears on (12), (ii) and (iii); the display after (12) squares (12) into (ii), and (P4.8-h) gives (iii)
_PENALTY_PARTS = ("pcfedavg.eq12", "pcfedavg.prop4.8.ii", "pcfedavg.prop4.8.iii")
PROP48_SCOPE = {"(P4.8-a)": (CLAIM[P48],) + ALSO[P48], "(P4.8-b)": (CLAIM[P48],) + ALSO[P48],
                "display after (12)": ("pcfedavg.prop4.8.ii",), "(P4.8-h)": ("pcfedavg.prop4.8.iii",)}


def _scoped(step: Step) -> Step:
    """A step of Prop. 4.8's proof bearing on the parts :data:`PROP48_SCOPE` names (default: the penalty parts)."""
    if step.proof != P48:
        return step
    claims = PROP48_SCOPE.get(step.label, _PENALTY_PARTS)
    return replace(step, claim=claims[0], also=claims[1:])


_ORDER = {(d.proof, d.label): i for i, d in enumerate(DISPLAYS)}
#: the encoded steps, in the inventory's (the paper's) order
STEPS: tuple[Step, ...] = tuple(sorted(map(_scoped,
    _lemma43_split() + _lemma43_cocoercive() + _lemma44_steps() + _lemma45_window() + _lemma45_sum()
    + _lemma45_bounds() + _lemma46_steps() + _prop47_steps() + _prop48_i() + _prop48_ii_first_order()
    + _prop48_ii_facts() + _prop48_ii_root() + _thm34_steps() + _lemma42_steps()),
    key=lambda s: _ORDER[(s.proof, s.label)]))

#: the displays that are not finite relations, with the reason: none (every display of the inventory is a relation)
NOT_ENCODED: dict[tuple[str, str], str] = {}

__all__ = ["ALSO", "CLAIM", "NOT_ENCODED", "STEPS"]
