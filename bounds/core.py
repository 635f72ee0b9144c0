"""The Claim record and the symbolic helpers shared by every paper module.

A :class:`Claim` is one numbered result of a paper (or one display of a proof), encoded with
sympy: its symbols and their domains, its hypotheses, its conclusion, the parameter choices it
prescribes, and the *mode* in which the paper states it (deterministic, in expectation, with
high probability, as an order of magnitude, or as an almost-sure limit). Nothing here knows
about algorithms or data.

Symbolic facts are proven where sympy can (:func:`prove_nonnegative`); where it cannot the
answer is ``None`` ("not proven") and callers fall back to sampling (:func:`sample_nonnegative`),
recording which of the two happened.
"""
from __future__ import annotations

import enum
import math
import itertools
from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping, Sequence

import numpy as np
import sympy as sp


class Mode(str, enum.Enum):
    """How the paper words a result (docs/architecture.md, "Contracts")."""

    DETERMINISTIC = "deterministic"
    EXPECTATION = "expectation"
    HIGH_PROBABILITY = "high_probability"
    ORDER = "order"
    # "every limit point of the iterates is a KKT point almost surely" (SSCA Theorems 1-4): a statement
    # about limits of a random sequence. A finite run can neither confirm nor refute it; checks report
    # the trend of the quantities the proof says must vanish.
    ALMOST_SURE_LIMIT = "almost_sure_limit"


class Provenance(str, enum.Enum):
    """Where a formula comes from."""

    PAPER = "paper"                    # printed in the main text
    PAPER_APPENDIX = "paper-appendix"  # printed (or derived) in the paper's appendix proofs
    DERIVED = "derived"                # derived in this project (``derived_from`` says from what)


#: the non-strict inequalities a hypothesis may be, with the sign that makes "holds" mean sign * (lhs - rhs) >= 0
#: (strict ones have no boundary to tolerate and are always evaluated exactly)
_DIRECTION = {sp.GreaterThan: 1.0, sp.LessThan: -1.0}
#: the strict ones, with the same signs (:meth:`Claim.largest_admissible`)
_STRICT = {sp.StrictGreaterThan: 1.0, sp.StrictLessThan: -1.0}


@dataclass(frozen=True)
class Claim:
    """One result of a paper as sympy objects.

    Parameters
    ----------
    id : str
        Stable identifier, ``"<paper>.<name>"`` (e.g. ``"fedsgm.thm1"``).
    location : str
        Where it stands in the paper (``"Theorem 1, main text"``).
    statement : str
        One-sentence paraphrase of what is claimed.
    domains : mapping Symbol -> str
        Every symbol the claim uses with its domain in words (``"integer >= 1"``).
    hypotheses : tuple of sympy relations
        Conditions on the symbols under which the conclusion is claimed.
    conclusion : tuple of sympy relations (a conjunction) or a sympy expression
        For a bound: relations ``observed <= bound`` whose left sides are *observed* symbols
        (measured on a run) and right sides closed forms in the parameters. For an order claim:
        the expression inside O(.).
    parameters : mapping Symbol -> expression
        Parameter choices the result prescribes (step size, tolerance, ...).
    mode, provenance : see :class:`Mode`, :class:`Provenance`.
    derived_from : str
        For ``derived`` or appendix claims: the claim ids / displays it comes from.
    steps : tuple of (label, expression)
        Intermediate bounds of the proof, in order from the left side to the right side; each
        is checked numerically to be no smaller than the previous one.
    notes : str
        Anything a reader must know (renamings, conventions, wording).
    """

    id: str
    location: str
    statement: str
    domains: Mapping[sp.Symbol, str]
    conclusion: tuple[sp.Basic, ...] | sp.Expr
    mode: Mode
    provenance: Provenance = Provenance.PAPER
    hypotheses: tuple[sp.Basic, ...] = ()
    parameters: Mapping[sp.Symbol, sp.Expr] = field(default_factory=dict)
    derived_from: str = ""
    steps: tuple[tuple[str, sp.Expr], ...] = ()
    notes: str = ""

    def __post_init__(self) -> None:
        free = set(self.domains)
        used = set()
        for rel in self.relations + tuple(self.hypotheses):
            used |= rel.free_symbols
        for sym, expr in self.parameters.items():
            used |= {sym} | expr.free_symbols
        for _, expr in self.steps:
            used |= expr.free_symbols
        if isinstance(self.conclusion, sp.Expr):
            used |= self.conclusion.free_symbols
        missing = used - free
        if missing:
            raise ValueError(f"claim {self.id}: symbols without a domain: {sorted(map(str, missing))}")

    # ------------------------------------------------------------------ structure
    @property
    def relations(self) -> tuple[sp.Rel, ...]:
        """The conclusion as a tuple of relations (empty for an order claim)."""
        if isinstance(self.conclusion, tuple):
            return self.conclusion
        return ()

    @cached_property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        return tuple(sorted(self.domains, key=str))

    @cached_property
    def _names(self) -> tuple[str, ...]:
        """The names of :attr:`symbols`, in order (printing a sympy symbol is not free, and the numeric
        checks of a search ask for them thousands of times)."""
        return tuple(str(s) for s in self.symbols)

    @cached_property
    def _bounds(self) -> dict[str, sp.Expr]:
        return {str(rel.lhs): self.substitute(rel.rhs) for rel in self.relations}

    def bounds(self) -> dict[str, sp.Expr]:
        """``{observed symbol name: bound expression}`` with prescribed parameters substituted."""
        return dict(self._bounds)

    def substitute(self, expr: sp.Expr) -> sp.Expr:
        """Replace prescribed parameters (e.g. ``eta``) by their closed forms, to a fixed point. Memoised per
        claim and expression (a claim is immutable)."""
        cache = self.__dict__.setdefault("_substituted", {})
        if expr not in cache:
            out = expr
            for _ in range(len(self.parameters) + 1):
                new = out.subs(self.parameters)
                if new == out:
                    break
                out = new
            cache[expr] = out
        return cache[expr]

    def _needed(self, expr: sp.Expr) -> frozenset[str]:
        """The names of the free symbols of ``expr``, memoised like :meth:`substitute`."""
        cache = self.__dict__.setdefault("_needed_names", {})
        if expr not in cache:
            cache[expr] = frozenset(str(s) for s in expr.free_symbols)
        return cache[expr]

    # ------------------------------------------------------------------ numerics
    @cached_property
    def _compiled(self):
        syms = self.symbols
        compiled = {name: sp.lambdify(syms, expr, modules="numpy") for name, expr in self.bounds().items()}
        params = {str(s): sp.lambdify(syms, self.substitute(e), modules="numpy")
                  for s, e in self.parameters.items()}
        hyps = [sp.lambdify(syms, self.substitute(h), modules="numpy") for h in self.hypotheses]
        sides = [(sp.lambdify(syms, self.substitute(h.lhs), modules="numpy"),
                  sp.lambdify(syms, self.substitute(h.rhs), modules="numpy"), _DIRECTION[type(h)])
                 if type(h) in _DIRECTION else None for h in self.hypotheses]
        order = (sp.lambdify(syms, self.conclusion, modules="numpy")
                 if isinstance(self.conclusion, sp.Expr) else None)
        return compiled, params, (hyps, sides), order

    def _args(self, values: Mapping[str, object]):
        # symbols a given expression does not use may be absent
        return [np.asarray(values[name], dtype=np.float64) if name in values else np.nan for name in self._names]

    def evaluate(self, **values) -> dict[str, np.ndarray] | np.ndarray:
        """Numeric value of each bound (dict keyed by observed symbol), or of an order expression.

        Vectorised: every value may be an array; results broadcast. A bound that needs a
        symbol not given raises ``ValueError`` naming it.
        """
        compiled, _, _, order = self._compiled
        if order is not None:
            self._require(self._needed(self.conclusion), values)
            return np.asarray(order(*self._args(values)), dtype=np.float64)
        out = {}
        for name, expr in self._bounds.items():
            self._require(self._needed(expr), values)
            out[name] = np.asarray(compiled[name](*self._args(values)), dtype=np.float64)
        return out

    def prescribed(self, **values) -> dict[str, np.ndarray]:
        """Numeric values of the prescribed parameters (step size, tolerance, ...)."""
        _, params, _, _ = self._compiled
        out = {}
        for sym, expr in self.parameters.items():
            self._require(self._needed(self.substitute(expr)), values)
            out[str(sym)] = np.asarray(params[str(sym)](*self._args(values)), dtype=np.float64)
        return out

    def hypotheses_hold(self, *, rtol: float = 0.0, **values) -> np.ndarray:
        """Elementwise truth of all hypotheses (after substituting prescribed parameters).

        ``rtol`` > 0 accepts an inequality hypothesis lhs >= rhs (or <=) that misses by at most
        rtol * max(|lhs|, |rhs|): for a run built ON the boundary (beta = 2/eps) whose parameters match the
        prescribed ones only to that relative tolerance, so that rounding does not decide. Hypotheses that
        are not inequalities are evaluated exactly."""
        _, _, (hyps, sides), _ = self._compiled
        args = None
        result = np.asarray(True)
        for h, fn, side in zip(self.hypotheses, hyps, sides):
            self._require(self._needed(self.substitute(h)), values)
            args = args or self._args(values)
            if rtol and side is not None:
                left, right, direction = side
                lhs, rhs = (np.asarray(f(*args), dtype=np.float64) for f in (left, right))
                held = direction * (lhs - rhs) >= -rtol * np.maximum(np.abs(lhs), np.abs(rhs))
            else:
                held = fn(*args)
            result = np.logical_and(result, held)
        return result

    @cached_property
    def _linear_cap_fns(self) -> dict:
        """Per symbol, the compiled (a, b, names needed, strict) of each inequality hypothesis in it, written
        a * symbol + b <= 0 (< 0 when strict; prescribed parameters substituted; :meth:`admissible_interval`)."""
        return {}

    def largest_admissible(self, symbol: sp.Symbol, **values) -> float:
        """The largest value of ``symbol`` the hypotheses admit at ``values`` (every other symbol they use, by name;
        :meth:`admissible_interval`). Read from the encoding, so that a step size a run takes "as large as the
        hypotheses allow" moves with them. Raises ``ValueError`` when none caps it, the smallest cap is strict (no
        largest value) or a lower bound exceeds it (no admissible value)."""
        (low, _), (high, high_strict) = self._interval(symbol, values)
        if math.isinf(high):
            raise ValueError(f"claim {self.id}: no hypothesis bounds {symbol} from above at {values}")
        if high_strict or low > high:
            raise ValueError(f"claim {self.id}: the hypotheses admit no largest {symbol} at {values}")
        return high

    def admissible_interval(self, symbol: sp.Symbol, **values) -> tuple[float, float]:
        """(inf, sup) of the values of ``symbol`` the hypotheses admit at ``values``: each hypothesis in ``symbol`` is
        linear in it, a * symbol + b <= 0 (or < 0) once written with ``<=``, a cap -b/a where a > 0 there and a floor
        where a < 0 (-inf, +inf where none). Raises ``ValueError`` when a hypothesis is not linear in ``symbol``."""
        (low, _), (high, _) = self._interval(symbol, values)
        return low, high

    def _interval(self, symbol: sp.Symbol, values) -> tuple[tuple[float, bool], tuple[float, bool]]:
        """((floor, strict), (cap, strict)) of ``symbol`` at ``values`` (:meth:`admissible_interval`)."""
        if symbol not in self._linear_cap_fns:
            self._linear_cap_fns[symbol] = self._linear_caps(symbol)
        args, lows, highs = self._args(values), [(-math.inf, False)], [(math.inf, False)]
        for a_fn, b_fn, needed, strict in self._linear_cap_fns[symbol]:
            self._require(needed, values)
            a, b = float(a_fn(*args)), float(b_fn(*args))
            if a:
                (highs if a > 0 else lows).append((-b / a, strict))
        low, high = max(v for v, _ in lows), min(v for v, _ in highs)
        return ((low, any(st for v, st in lows if v == low)), (high, any(st for v, st in highs if v == high)))

    def _linear_caps(self, symbol: sp.Symbol) -> list:
        caps = []
        for hyp in self.hypotheses:
            sign = _DIRECTION.get(type(hyp), _STRICT.get(type(hyp)))
            if sign is None or symbol not in self.substitute(hyp).free_symbols:
                continue
            expr = sp.expand(-int(sign) * self.substitute(hyp.lhs - hyp.rhs))    # expr <= 0 (< 0 when strict)
            a, b = expr.coeff(symbol, 1), expr.coeff(symbol, 0)
            if symbol in (a.free_symbols | b.free_symbols) or sp.expand(expr - a * symbol - b) != 0:
                raise ValueError(f"claim {self.id}: the hypothesis {hyp} is not linear in {symbol}")
            caps.append((sp.lambdify(self.symbols, a, modules="math"), sp.lambdify(self.symbols, b, modules="math"),
                         frozenset(str(s) for s in (a.free_symbols | b.free_symbols)), type(hyp) in _STRICT))
        return caps

    def _require(self, needed: frozenset[str], values) -> None:
        missing = sorted(name for name in needed if name not in values)
        if missing:
            raise ValueError(f"claim {self.id}: values needed for {missing}")

    # ------------------------------------------------------------------ display
    def latex(self) -> str:
        """LaTeX of the conclusion (with prescribed parameters listed) and the hypotheses."""
        if isinstance(self.conclusion, sp.Expr):
            body = r"\mathcal{O}\left(" + sp.latex(self.conclusion) + r"\right)"
        else:
            body = r",\quad ".join(sp.latex(r) for r in self.relations)
        parts = [body]
        if self.parameters:
            parts.append(r"\text{with } " + r",\ ".join(
                f"{sp.latex(s)} = {sp.latex(e)}" for s, e in self.parameters.items()))
        # Hypotheses that sympy already decides from the symbols' assumptions (e.g. H >= 1 for a
        # positive integer H) evaluate to True and carry no information: they are not shown.
        shown = [h for h in self.hypotheses if h is not sp.true]
        if shown:
            parts.append(r"\text{if } " + r",\ ".join(sp.latex(h) for h in shown))
        return r";\quad ".join(parts)

    def summary(self) -> dict:
        """JSON-serialisable description, for reports and provenance."""
        return {
            "id": self.id, "location": self.location, "statement": self.statement,
            "mode": self.mode.value, "provenance": self.provenance.value,
            "derived_from": self.derived_from,
            "conclusion": (str(self.conclusion) if isinstance(self.conclusion, sp.Expr)
                           else [str(r) for r in self.relations]),
            "parameters": {str(k): str(v) for k, v in self.parameters.items()},
            "hypotheses": [str(h) for h in self.hypotheses],
        }


def domain_helpers(parameter_domains: Mapping[sp.Symbol, str], observed: Mapping[str, str]):
    """``(domains, domains_of)`` of a paper module with tables ``parameter_domains`` (symbol -> domain)
    and ``observed`` (name -> description of an observed symbol).

    ``domains(*symbols)`` maps each symbol to its entry of ``parameter_domains``, else to ``"observed: "``
    followed by its description in ``observed``; ``domains_of(*exprs)`` does the same for the free
    symbols of the expressions, sorted by name.
    """

    def domains(*symbols: sp.Symbol) -> dict:
        out = {}
        for s in symbols:
            out[s] = parameter_domains[s] if s in parameter_domains else "observed: " + observed[str(s)]
        return out

    def domains_of(*exprs) -> dict:
        syms = set()
        for e in exprs:
            syms |= sp.sympify(e).free_symbols
        return domains(*sorted(syms, key=str))

    return domains, domains_of


# ---------------------------------------------------------------------------- proofs
@dataclass(frozen=True)
class ProofResult:
    """Outcome of an attempt to prove ``expr >= 0`` (or ``== 0``) on a domain.

    ``proven`` is True (proven), False (refuted, with ``counterexample``) or None (not proven:
    sympy could not decide; the caller must sample and say so).
    """

    proven: bool | None
    method: str
    expression: str
    counterexample: dict | None = None


def _shifted_to_lower_bounds(expr: sp.Expr, lower: Mapping[sp.Symbol, object]):
    """Substitute x = lb + u with u >= 0 a fresh nonnegative symbol, for every bounded x."""
    subs = {}
    for sym, lb in lower.items():
        u = sp.Symbol(f"_u_{sym}", nonnegative=True)
        subs[sym] = sp.sympify(lb) + u
    return sp.expand(sp.together(expr.subs(subs))), list(subs.values())


def prove_nonnegative(expr: sp.Expr, lower: Mapping[sp.Symbol, object] | None = None) -> ProofResult:
    """Try to prove ``expr >= 0`` for all symbols at or above the given lower bounds.

    Methods, in order: (1) sympy's assumption system on the expression as is; (2) shift every
    bounded symbol to its lower bound (x = lb + u, u >= 0) and show that numerator and
    denominator are polynomials in positive/nonnegative symbols with nonnegative coefficients
    (a sufficient certificate). Returns ``proven=None`` when neither works.
    Hand-written because sympy has no positivity prover for polynomials on boxes.
    """
    expr = sp.sympify(expr)
    simplified = sp.simplify(expr)
    if simplified.is_nonnegative:
        return ProofResult(True, "sympy assumptions", str(simplified))
    if simplified.is_negative:
        return ProofResult(False, "sympy assumptions", str(simplified), counterexample={})
    shifted, _ = _shifted_to_lower_bounds(expr, lower or {})
    num, den = sp.fraction(sp.together(shifted))
    certificates = []
    for part in (sp.expand(num), sp.expand(den)):
        gens = sorted(part.free_symbols, key=str)
        if not gens:
            certificates.append(part.is_nonnegative if part != 0 else True)
            continue
        try:
            poly = sp.Poly(part, *gens)
        except sp.PolynomialError:
            certificates.append(None)
            continue
        all_gens_nonneg = all(g.is_nonnegative for g in gens)
        coeffs_ok = all(c.is_nonnegative for c in poly.coeffs())
        certificates.append(True if (all_gens_nonneg and coeffs_ok) else None)
    if all(c is True for c in certificates):
        return ProofResult(True, "shift to lower bounds; nonnegative polynomial coefficients",
                           str(sp.factor(shifted)))
    return ProofResult(None, "not proven symbolically", str(simplified))


def prove_identity(lhs: sp.Expr, rhs: sp.Expr) -> ProofResult:
    """Prove ``lhs == rhs``: the difference expanded to 0 (polynomial identities, which most are: 154 of the 166
    identities of the four papers' findings, in a tenth of the time), else simplified (None when sympy cannot
    decide)."""
    diff = sp.sympify(lhs) - sp.sympify(rhs)
    if diff == 0 or sp.expand(diff) == 0:
        return ProofResult(True, "expand(lhs - rhs) == 0", "0")
    diff = sp.simplify(diff)
    if diff == 0:
        return ProofResult(True, "simplify(lhs - rhs) == 0", "0")
    if diff.is_zero is False:
        return ProofResult(False, "simplify(lhs - rhs) != 0", str(diff))
    return ProofResult(None, "not proven symbolically", str(diff))


def sample_nonnegative(expr: sp.Expr, domains: Mapping[sp.Symbol, tuple[float, float, bool]],
                       rng: np.random.Generator, n: int = 2000, atol: float = 1e-12) -> ProofResult:
    """Sampling fallback for :func:`prove_nonnegative`.

    ``domains`` maps each symbol to ``(low, high, integer)``; values are drawn log-uniformly
    (uniformly for integers) including the corners of the box. A negative value refutes the
    claim with a counterexample; otherwise the result is ``proven=None`` with method "sampled".
    """
    syms = sorted(expr.free_symbols, key=str)
    if not syms:
        value = float(expr)
        return ProofResult(False if value < -atol else None, "constant", str(expr),
                           counterexample={"value": value} if value < -atol else None)
    fn = sp.lambdify(syms, expr, modules="numpy")
    cols = []
    for s in syms:
        lo, hi, integer = domains[s]
        if integer:
            col = rng.integers(int(lo), int(hi) + 1, size=n).astype(np.float64)
        else:
            col = np.exp(rng.uniform(np.log(lo), np.log(hi), size=n)) if lo > 0 else rng.uniform(lo, hi, size=n)
        cols.append(col)
    corners = np.array(list(itertools.product(*[(domains[s][0], domains[s][1]) for s in syms])), dtype=np.float64)
    samples = [np.concatenate([c, corners[:, i]]) for i, c in enumerate(cols)]
    values = np.broadcast_to(np.asarray(fn(*samples), dtype=np.float64), samples[0].shape)
    worst = int(np.argmin(values))
    if values[worst] < -atol:
        return ProofResult(False, f"sampled ({len(values)} points)", str(expr),
                           counterexample={str(s): float(samples[i][worst]) for i, s in enumerate(syms)}
                           | {"value": float(values[worst])})
    return ProofResult(None, f"sampled ({len(values)} points), no counterexample", str(expr))


# ---------------------------------------------------------------------------- rates
def rounds_to_reach(bound: sp.Expr, rounds: sp.Symbol, eps: sp.Symbol) -> sp.Expr:
    """Solve ``bound(rounds) = eps`` for the number of rounds needed as eps -> 0+.

    ``bound`` must decrease to 0 in ``rounds``; among the solutions sympy finds, the one that
    tends to infinity as eps -> 0+ is returned (other roots are crossings at small ``rounds``).
    Raises ``ValueError`` when there is not exactly one such root (e.g. sympy returns only a
    non-principal LambertW branch for log(T)/sqrt(T)); callers must then say "not derived".
    """
    candidates = []
    for s in sp.solve(sp.Eq(bound, eps), rounds):
        if s.is_positive is False or s.is_real is False:
            continue
        if sp.limit(s, eps, 0, "+") == sp.oo:
            candidates.append(s)
    if len(candidates) != 1:
        raise ValueError(f"cannot invert bound {bound} for {rounds}: {len(candidates)} roots grow as {eps} -> 0")
    return sp.simplify(candidates[0])


def order_in_inverse_eps(expr: sp.Expr, eps: sp.Symbol) -> sp.Expr:
    """Leading exponent p such that expr = Theta((1/eps)^p) as eps -> 0+.

    Computed as lim_{x->oo} log(expr(1/x)) / log(x), which is exact for products of powers and
    logarithms (a log factor gives the same p, as in O-tilde).
    """
    x = sp.Symbol("_x", positive=True)
    return sp.limit(sp.log(expr.subs(eps, 1 / x)) / sp.log(x), x, sp.oo)


def communication_order(bound: sp.Expr, rounds: sp.Symbol, eps: sp.Symbol) -> sp.Expr:
    """The order of the communication complexity implied by an upper bound: rounds ~ eps^-p."""
    return order_in_inverse_eps(rounds_to_reach(bound, rounds, eps), eps)


def ratio_range(numerator: sp.Expr, denominator: sp.Expr, free: Sequence[sp.Symbol],
                domains: Mapping[sp.Symbol, tuple[float, float, bool]],
                rng: np.random.Generator, n: int = 4000) -> tuple[float, float]:
    """Sampled (min, max) of numerator/denominator over the domain box, for O(.) comparisons."""
    expr = sp.simplify(numerator / denominator)
    syms = [s for s in free if s in expr.free_symbols]
    if not syms:
        v = float(expr)
        return v, v
    fn = sp.lambdify(syms, expr, modules="numpy")
    cols = []
    for s in syms:
        lo, hi, integer = domains[s]
        if integer:
            cols.append(np.exp(rng.uniform(np.log(max(lo, 1)), np.log(hi), size=n)).round())
        else:  # log-uniform; a zero lower end is sampled at 0 and log-uniformly above hi * 1e-9
            col = np.exp(rng.uniform(np.log(max(lo, hi * 1e-9)), np.log(hi), size=n))
            col[: n // 20] = lo
            cols.append(col)
    vals = np.asarray(fn(*cols), dtype=np.float64)
    return float(np.min(vals)), float(np.max(vals))
