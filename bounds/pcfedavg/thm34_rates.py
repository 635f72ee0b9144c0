"""PC-FedAvg audit: the communication complexity of Theorem 3.4 derived from Proposition 4.8, and Remarks 3.5-3.6.

* :func:`complexity_table` / :func:`compare_rates`: every requirement term of Prop. 4.8 (i), (ii), (iii) after
  K = RH, rho = sqrt(R) and the step size (the proof's gamma = 1/sqrt(R), or an admissible one), as powers of
  1/eps, m, H, Q, M, nu, L, D (:data:`EXPONENT_SYMBOLS`), against Theorem 3.4's printed O(.) terms (match, dominated,
  dominated by AM-GM via a linear program, not covered);
* :func:`finding_thm34_rate`: one finding per part and step-size choice;
* :func:`leading_eps_powers` / :func:`finding_remark35`: the leading power of 1/eps per part (Remark 3.5);
* :func:`remark36_exponents` / :func:`finding_remark36`: the decay exponents with rho = R^a (Remark 3.6).
"""
from __future__ import annotations

import copy
import functools
from fractions import Fraction

import sympy as sp

from ..audit import fmt_point, producer
from .claims import D, H, K, L_SYM, M, PRINTED_O, Q, R, _terms_48i, _terms_48ii, _terms_48iii, eps, gamma, m, nu, rho


# ============================================================================ complexity (Theorem 3.4)
EXPONENT_SYMBOLS = (eps, m, H, Q, M, nu, L_SYM, D)
"""The symbols whose powers a requirement term is compared on (``L_SYM`` stands for L_f + sigma(m-1))."""


def _coefficient_and_powers(term: sp.Expr) -> tuple[sp.Expr, dict]:
    """A monomial as (numeric coefficient, {base: power})."""
    coeff, rest = term.as_coeff_Mul()
    d = {}
    for base, e in rest.as_powers_dict().items():
        if base == 1:
            continue
        if base.is_Number:
            coeff *= base**e
            continue
        d[base] = d.get(base, 0) + e
    return coeff, d


def _requirement_terms(part: str, Hm1=H):
    """(label, expression) of the quantity each term must keep below eps (part iii: D b_k^2 <= eps^2)."""
    if part == "i":
        labels = ("(45/2) rho gamma^2 (H-1)^2 (M + nu^2/m)", "9 gamma nu^2/m", "3Q/(K gamma)",
                  "45 L'/(2m) gamma^2 (H-1)^2 (M + nu^2/m)")
        return list(zip(labels, _terms_48i(Lp=L_SYM, Hm1=Hm1))), 1
    if part == "ii":
        labels = ("5 m D/rho^2", "60 m Q/(K gamma rho)", "450 L' gamma^2 (H-1)^2 (M + nu^2/m)/rho",
                  "450 m gamma^2 (H-1)^2 (M + nu^2/m)", "180 gamma nu^2/rho")
        return list(zip(labels, _terms_48ii(Lp=L_SYM, Hm1=Hm1))), 1
    labels = ("sqrt(D) m sqrt(D)/rho", "sqrt(D) 6 sqrt(gamma nu^2/rho)", "sqrt(D) 2 sqrt(3 m Q/(K gamma rho))",
              "sqrt(D) 2 sqrt(45 L' gamma^2 (H-1)^2 (M + nu^2/m)/(2 rho))",
              "sqrt(D) 2 sqrt(45 m gamma^2 (H-1)^2 (M + nu^2/m)/2)")
    return [(lab, sp.expand(D * t**2)) for lab, t in zip(labels, _terms_48iii(Lp=L_SYM, Hm1=Hm1))], 2


def _monomials_under_choices(expr: sp.Expr, admissible: bool) -> list:
    """Monomials c R^-p after K = RH, rho = sqrt(R) and the step size (upper bounds where needed)."""
    out = []
    for mono in sp.Add.make_args(sp.expand(expr)):
        e_g = mono.as_powers_dict().get(gamma, 0)
        if not admissible:
            g_sub = 1 / sp.sqrt(R)
        elif e_g > 0:
            g_sub = 2 / (5 * H * sp.sqrt(R))                       # gamma <= 1/(c_H sqrt(R)), c_H >= 5H/2
        else:
            g_sub = 1 / (6 * H * (L_SYM / m + sp.sqrt(R)))         # 1/gamma = c_H L_G <= 6H (L/m + sqrt(R))
        new = sp.expand(mono.subs({gamma: g_sub}).subs({rho: sp.sqrt(R), K: R * H}))
        out.extend(sp.Add.make_args(new))
    return out


def _derived_requirement_rows(part: str, admissible: bool) -> list:
    """One row per monomial of part ``part`` after :func:`_monomials_under_choices`: R >= (N c/eps)^(1/p) as powers of
    1/eps and the other symbols; identical exponent vectors from different sources are merged."""
    raw, q = _requirement_terms(part)
    rows = []
    for label, expr in raw:
        for mono in _monomials_under_choices(expr, admissible):
            if mono == 0:
                continue
            coeff, d = _coefficient_and_powers(mono)
            p = -d.pop(R, 0)
            if p <= 0:
                raise ValueError(f"term {mono} does not decay in R")
            exps = {str(s): Fraction(str(sp.Rational(e) / p)) for s, e in d.items()}
            exps["epsilon"] = Fraction(-q) / Fraction(str(sp.Rational(p)))
            expr_ = sp.Mul(*[s**(sp.Rational(e) / p) for s, e in d.items()]) * eps**(-sp.Rational(q) / p)
            rows.append({"source": label, "monomial": str(mono), "constant": str(coeff), "R_power": str(-p),
                         "term": expr_, "exps": {k: v for k, v in exps.items() if v != 0}})
    # merge identical monomials (same exponents) coming from different sources
    merged = {}
    for r in rows:
        key = tuple(sorted(r["exps"].items()))
        if key in merged:
            merged[key]["source"] += " | " + r["source"]
        else:
            merged[key] = r
    return list(merged.values())


def _exponent_map(term: sp.Expr) -> dict:
    """{symbol name: Fraction power} of a monomial (zero powers omitted)."""
    _, d = _coefficient_and_powers(term)
    return {str(s): Fraction(str(sp.Rational(e))) for s, e in d.items() if e != 0}


def _printed_exponent_maps(part: str) -> list:
    """The exponent maps of Theorem 3.4's printed O(.) terms of part ``part``."""
    return [_exponent_map(t) for t in PRINTED_O[part]]


def _amgm_covering_terms(de: dict, printed: list):
    """Convex combination of printed exponent vectors matching de on all symbols but H and m, with H and m
    exponents at least de's (so the derived term is <= a weighted geometric mean <= sum of printed terms)."""
    import numpy as np
    from scipy.optimize import linprog

    names = [str(s) for s in EXPONENT_SYMBOLS]
    k = len(printed)
    A_eq = [[p.get(s, 0) for p in printed] for s in names if s not in ("H", "m")] + [[1] * k]
    b_eq = [de.get(s, 0) for s in names if s not in ("H", "m")] + [1]
    A_ub = [[-float(p.get(s, 0)) for p in printed] for s in ("H", "m")]
    b_ub = [-float(de.get(s, 0)) for s in ("H", "m")]
    res = linprog(np.zeros(k), A_ub=A_ub, b_ub=b_ub, A_eq=np.array(A_eq, dtype=float), b_eq=np.array(b_eq, dtype=float),
                  bounds=[(0, None)] * k, method="highs")
    if res.status == 0:
        return [i for i in range(k) if res.x[i] > 1e-9]
    return None


def compare_rates(part: str, printed_terms=None, admissible: bool = False) -> list[dict]:
    """Rows of :func:`complexity_table` for one part, against ``printed_terms`` (default: Theorem 3.4 as
    printed, in the placeholder symbol ``L_SYM`` for L). Uncached; lets a test check a perturbed copy."""
    printed_terms = tuple(PRINTED_O[part] if printed_terms is None else printed_terms)
    printed = [_exponent_map(t) for t in printed_terms]
    rows, used = [], set()
    for r in _derived_requirement_rows(part, admissible):
        de = r["exps"]
        status, idx, combo = "not covered", None, None
        for i, pe in enumerate(printed):
            if pe == de:
                status, idx = "match", i
                break
        if idx is None:
            for i, pe in enumerate(printed):
                same = all(pe.get(s, 0) == de.get(s, 0) for s in map(str, EXPONENT_SYMBOLS) if s not in ("H", "m"))
                if same and pe.get("H", 0) >= de.get("H", 0) and pe.get("m", 0) >= de.get("m", 0):
                    status, idx = "dominated", i
                    break
        if idx is None:
            combo = _amgm_covering_terms(de, printed)
            if combo:
                status = "dominated (AM-GM)"
                idx = combo[0] if len(combo) == 1 else None
        counterpart = idx
        if status == "not covered":
            for i, pe in enumerate(printed):
                if all(pe.get(s, 0) == de.get(s, 0) for s in map(str, EXPONENT_SYMBOLS) if s not in ("H", "m")):
                    counterpart = i
                    break
        if counterpart is not None:
            used.add(counterpart)
        if combo:
            used.update(combo)
        pt = (str(printed_terms[counterpart]) if counterpart is not None else
              " * ".join(f"({printed_terms[i]})^theta" for i in combo) if combo else None)
        rows.append({"part": part, "derived_term": str(r["term"]), "derived_exponents": de, "printed_term": pt,
                     "printed_exponents": printed[counterpart] if counterpart is not None else None,
                     "status": status, "source": r["source"], "R_term": r["monomial"]})
    for i, pe in enumerate(printed):
        if i not in used:
            rows.append({"part": part, "derived_term": None, "derived_exponents": None,
                         "printed_term": str(printed_terms[i]), "printed_exponents": pe,
                         "status": "printed term without derived counterpart", "source": None, "R_term": None})
    return rows


@functools.lru_cache(maxsize=None)
def _complexity_rows(admissible: bool) -> tuple:
    return tuple(row for part in ("i", "ii", "iii") for row in compare_rates(part, None, admissible))


def complexity_table(admissible: bool = False) -> list[dict]:
    """Term-by-term comparison of the rounds Prop. 4.8 implies with Theorem 3.4's printed O(.) terms.

    Proof's choices (default): K = RH, rho = sqrt(R), gamma = 1/sqrt(R). ``admissible=True``: rho = sqrt(R)
    and gamma = 1/(c_H L_G), c_H = max(6, 5(H-1)) (the largest step the hypothesis allows), bounded as
    gamma <= 2/(5 H sqrt(R)) where gamma appears in a numerator and 1/gamma <= 6H(L/m + sqrt(R)) where it
    appears in a denominator (c_H in [5H/2, 6H] for H >= 1; L_G >= rho = sqrt(R)).

    Each monomial c R^-p of the bound (part iii: of D b_k^2, since sqrt(D) b_k <= eps/N iff D b_k^2 <= eps^2/N^2)
    must be <= eps/N, i.e. R >= (N c/eps)^(1/p); constants are dropped, (H-1) <= H and
    L_f + sigma(m-1) <= L. ``derived_exponents`` / ``printed_exponents`` map symbol names to
    ``fractions.Fraction`` powers (zero powers omitted). ``status``: ``match`` (same monomial),
    ``dominated`` (a printed term with the same powers except larger-or-equal powers of H and m, valid
    for H >= 1, m >= 2), ``dominated (AM-GM)`` (a weighted geometric mean of printed terms does it),
    ``not covered`` (``printed_term`` is then the counterpart with the same powers of all symbols except
    H and m, if any), or ``printed term without derived counterpart``.
    """
    return copy.deepcopy(list(_complexity_rows(bool(admissible))))


def leading_eps_powers(admissible: bool = False) -> dict:
    """Remark 3.5: largest power of 1/eps per part, derived (from the table) and printed."""
    out = {}
    for part in ("i", "ii", "iii"):
        derived = [-r["derived_exponents"]["epsilon"] for r in complexity_table(admissible)
                   if r["part"] == part and r["derived_exponents"]]
        printed = [-e.get("epsilon", 0) for e in _printed_exponent_maps(part)]
        out[part] = {"derived": max(derived), "printed": max(printed)}
    return out


# ============================================================================ Remarks 3.5-3.6
@functools.lru_cache(maxsize=None)
def _remark36_decays() -> dict:
    a = sp.Symbol("a", positive=True)
    out = {}
    for part in ("i", "ii", "iii"):
        raw, q = _requirement_terms(part)
        decays = []
        for label, expr in raw:
            for mono in sp.Add.make_args(sp.expand(expr)):
                sub = sp.expand(mono.subs({gamma: 1 / sp.sqrt(R), K: R * H}).subs(rho, R**a))
                e = sp.expand(sp.powsimp(sub, force=True).as_powers_dict().get(R, 0))
                if part == "iii":
                    e = e / 2        # D b_k^2 -> sqrt(D) b_k
                decays.append((label, sp.simplify(-e)))
        rate = sp.Min(*[p for _, p in decays])
        half = rate.subs(a, sp.Rational(1, 2))
        out[part] = {"terms": [(lab, str(p)) for lab, p in decays], "decay": rate,
                     "decay_at_half": half, "eps_power_at_half": 1 / half}
    return out


def remark36_exponents() -> dict:
    """Remark 3.6: with rho = R^a, gamma = 1/sqrt(R), K = RH, each part's bound decays like R^-p(a);
    returns per part the per-term decays, p(a) = min over terms, p(1/2) and the implied eps power 1/p(1/2)."""
    return copy.deepcopy(_remark36_decays())


# ============================================================================ findings
def _format_rate_row(r) -> str:
    def term(t, exponents):
        if t is None:
            return "none"
        return f"{t} (exponents {fmt_point(exponents)})" if exponents else str(t)

    return (f"derived {term(r['derived_term'], r['derived_exponents'])} vs printed "
            f"{term(r['printed_term'], r['printed_exponents'])}")


@producer
def finding_thm34_rate(part: str, admissible: bool):
    """Theorem 3.4 (``part``): every requirement term derived from Prop. 4.8 against the printed O(.) terms."""
    from .. import audit as A

    rows = [r for r in complexity_table(admissible) if r["part"] == part]
    bad = [r for r in rows if r["status"] in ("not covered", "printed term without derived counterpart")]
    dom = [r for r in rows if r["status"].startswith("dominated")]
    choice = ("an admissible step size gamma = 1/(max(6, 5(H-1)) L_G), rho = sqrt(R)" if admissible else
              "the proof's choices K = RH, rho = sqrt(R), gamma = 1/sqrt(R)")
    if bad:
        summary = (f"Under {choice}, Prop. 4.8 ({part}) gives requirement terms the printed O(.) of Theorem 3.4 "
                   f"({part}) does not cover: " + "; ".join(
                       f"{r['derived_term']} (printed {r['printed_term'] or 'none'})" for r in bad if r["derived_term"]) + ".")
        verdict = A.DISCREPANCY
    else:
        summary = (f"Under {choice}, every requirement term derived from Prop. 4.8 ({part}) is a printed O-term of "
                   f"Theorem 3.4 ({part})" + (f", or dominated by one for H >= 1, m >= 2 ({len(dom)} term(s))"
                                             if dom else "") + ".")
        verdict = A.CONSISTENT
    return A.Finding(f"pcfedavg.thm3.4.{part}.rate" + (".admissible" if admissible else ""), "stated-rate",
                     (f"pcfedavg.thm3.4.{part}",), verdict, summary,
                     " | ".join(f"[{r['status']}] " + _format_rate_row(r) for r in rows),
                     "term-by-term exponent bookkeeping (sympy) + LP for AM-GM domination")


@producer
def finding_remark35():
    """Remark 3.5: the leading powers of 1/eps, printed and derived (proof's choices and an admissible step)."""
    from .. import audit as A

    lp, lpa = leading_eps_powers(), leading_eps_powers(True)
    printed = [lp[p]["printed"] for p in ("i", "ii", "iii")]
    ok = all(lp[p]["derived"] == lp[p]["printed"] for p in lp) and printed == [2, 1, 2]
    return A.Finding(
        "pcfedavg.remark3.5", "stated-rate", ("pcfedavg.remark3.5.subopt", "pcfedavg.remark3.5.feas",
                                              "pcfedavg.thm3.4.i", "pcfedavg.thm3.4.ii", "pcfedavg.thm3.4.iii"),
        A.CONSISTENT if ok else A.DISCREPANCY,
        ("Leading powers of 1/eps are 2 (i), 1 (ii), 2 (iii) both in the printed Theorem 3.4 and in the derivation "
         "from Prop. 4.8 (also under an admissible step size), as Remark 3.5 says." if ok else
         f"Leading powers of 1/eps printed {', '.join(map(str, printed))} differ from the derived ones or from Remark 3.5's 2, 1, 2."),
        f"proof's choices: {fmt_point(lp, sep='; ')}; admissible step: {fmt_point(lpa, sep='; ')}",
        "exponent bookkeeping (sympy)")


@producer
def finding_remark36(grid_steps: int = 40):
    """Remark 3.6: with rho = R^a the decay exponents p(a) of Prop. 4.8's bounds on a grid a = k/20, k = 1..steps."""
    from .. import audit as A

    r36 = remark36_exponents()
    a = sp.Symbol("a", positive=True)
    grid = [sp.Rational(k, 20) for k in range(1, grid_steps + 1)]
    p = {part: [r36[part]["decay"].subs(a, v) for v in grid] for part in ("i", "ii", "iii")}
    both = [v for v, x, y in zip(grid, p["i"], p["ii"]) if x == max(p["i"]) and y == max(p["ii"])]
    best_min = max(min(x, z) for x, z in zip(p["i"], p["iii"]))
    balance = [v for v, x, z in zip(grid, p["i"], p["iii"]) if min(x, z) == best_min]
    half = sp.Rational(1, 2)
    ok = [r36[q]["eps_power_at_half"] for q in ("i", "ii", "iii")] == [2, 1, 2] and both == [half] and balance == [half]
    return A.Finding(
        "pcfedavg.remark3.6", "stated-rate", ("pcfedavg.thm3.4.i", "pcfedavg.thm3.4.ii", "pcfedavg.thm3.4.iii"),
        A.CONSISTENT if ok else A.DISCREPANCY,
        "With rho = R^a (gamma = 1/sqrt(R), K = RH) the Prop. 4.8 bounds decay like R^-p(a); on a grid of a, " +
        ("a = 1/2 is the only value where (i) keeps its best decay 1/2 and (ii) reaches its best decay 1, and the only "
         "maximizer of min(p_i, p_iii); it gives eps powers 2, 1, 2, as Remark 3.6 says." if ok else
         f"the best a for (i)-(ii) is {both} and the maximizer of min(p_i, p_iii) is {balance}, not only a = 1/2 "
         "with eps powers 2, 1, 2 as Remark 3.6 says."),
        "; ".join(f"({q}) p(a) = {r36[q]['decay']}, p(1/2) = {r36[q]['decay_at_half']}" for q in ("i", "ii", "iii"))
        + f"; a in (0, {grid[-1]}] step 1/20: both best at {both}, argmax min(p_i, p_iii) = {balance}",
        "exponent bookkeeping (sympy)")
