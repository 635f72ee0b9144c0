"""FedSGM's certified worst cases (``fedsgm.pep``): performance estimation (PEPit) of Algorithm 1 with hard switching
and no compression, against the eps of Theorem 1 (q_u = 0), of Theorems 6 and 8 (their uncompressed case: the same
eps and eta) and of the proof of Theorem 8 (eqs. (11)-(15), N = 0).

What is modelled (:func:`fedsgm_pep`), and why it is the claims' setting:

* the class: 2m functions f_1..f_m, g_1..g_m, each convex and G-Lipschitz on R^d (Assumption 1; PEPit's
  ``ConvexLipschitzFunction``, whose interpolation conditions make the worst case exact over the class in every
  dimension); f = mean_j f_j, g = mean_j g_j. Every function answers one subgradient per point (the deterministic
  oracle Algorithm 1 calls);
* the method: Algorithm 1 (Section 3, Appendix A) with C_j = Id: in round t, client j starts at w_t, takes E
  subgradient steps w <- w - eta h_j'(w), h = f (t in A: g(w_t) <= eps) or g (t in B: g(w_t) > eps), and the server
  averages: w_{t+1} = w_t - eta (1/m) sum_j X_j (eq. (11)). Compression (Rand-K, random) is not modelled: the
  deterministic special case of Theorems 1 and 6 is the uncompressed one (q_u = 0, claim ``fedsgm.case.uncompressed``);
* the branches: the round's branch depends on g(w_t), a PEP variable. For T rounds every branch pattern in {A, B}^T
  is enumerated; each pattern is a PEP whose branch conditions are constraints on the function values
  (g(w_t) <= eps on A, g(w_t) >= eps on B, the closure of > eps); a pattern no instance follows is infeasible and
  dropped; the certified worst case is the largest over the feasible patterns (every instance follows one pattern);
* the initial condition and w*: Theorems 1 and 8 define D := ||w_0 - w*|| with w* a solution of problem (1), and
  eps, eta scale with D. The certified value (the upper side) relaxes both: ||w_0 - w*|| <= D and "w* solves (1)"
  to "g(w*) <= 0" (all the proofs use; a superset of instances, so still an upper bound); the attained side is
  re-solved on the worst pattern with ||w_0 - w*|| = D exactly (an instance at a smaller distance would be no
  counterexample to a bound that scales with D; the replay measures the distance and refuses otherwise) and w* a KKT
  point of (1) -- 0 in the subdifferential of f + lam g at w*, lam >= 0, g(w*) = 0 if lam > 0, for lam in
  :data:`MULTIPLIERS` (every KKT point solves the convex problem (1)) -- and with every branch condition held with the
  margin :data:`BRANCH_MARGIN` eps, so that the extracted instance takes each branch strictly (B is g > eps) and
  replays through the suite's algorithm. The :class:`repro.pep.Certificate` of a point therefore mixes two PEPs:
  ``value`` = the dual of the relaxed PEP (certified upper bound) and ``primal`` = the largest value a KKT instance
  at distance D attains; its gap (certified - attained) is the relaxation's plus the margin's plus the solvers';
  its status is ``optimal`` only when both solves are (:func:`combined_status`), else the wider margin applies;
* dropped patterns: a pattern whose PEP the solver reports infeasible (or fails on) is dropped only when the branch
  slack PEP (:func:`branch_slack`, no branch constraint, so always feasible) certifies that every instance misses
  one of its branch conditions by more than :data:`BRANCH_MARGIN` eps plus the solver margin; otherwise it is kept,
  certified with its branch conditions loosened by that margin or, failing that, without branch conditions (both
  supersets of its instances). Each point records how many patterns were solved, loosened, unconditioned and
  dropped (``patterns``);
* the quantities: Theorem 1's output w_bar = mean over A of w_t, and ``subopt`` = f(w_bar) - f(w*), ``infeas`` =
  g(w_bar), both bounded by eps; and "A is nonempty" as ``nonempty`` = the worst case of min_{t<T} g(w_t) when every
  round is a constraint step (one PEP, no branch constraint: an instance with A empty follows exactly this
  trajectory with every g(w_t) > eps, so A can be empty iff the worst case exceeds eps; f is never evaluated along
  it, so any feasible w* solves (1) for some f: the certificate relaxes ||w_0 - w*|| <= D, the attained instance has
  w* stationary for f, lam = 0, and ||w_0 - w*|| = D). The quantity
  ``best`` = min_{t in A} f(w_t) - f(w*) is the centralised subgradient method's metric, for the degenerate-case
  test against PEPit's ``wc_subgradient_method`` (one client, E = 1, no constraint); the claims' ``subopt`` at
  that degenerate case is tested against the averaged subgradient method written with PEPit directly (PEPit
  has no example of the averaged iterate) and against its closed form G D at T = 1.

The printed bound is the claim's own (:mod:`bounds.fedsgm.claims`, ``Claim.evaluate`` / ``Claim.prescribed``) at q_u = 0,
n = m, N = 0; eps and eta are the claim's prescribed ones. The quantities scale as D G and so do eps and the
bounds, so D = G = 1 loses nothing. Soft switching (Theorems 2, 7, 9) is not modelled: its weight
sigma_t = min{1, [1 + beta (g(w_t) - eps)]_+} multiplies the subgradients, a product of a function value and a
subgradient that is not linear in the PEP's Gram matrix; only its pure rounds (sigma in {0, 1}) are, and a model of
those alone would bound a subset of the instances, certifying nothing.
"""
from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import numpy as np

from bounds.fedsgm import claims as B
from repro import admissible
from repro import pep as P
from repro.errors import require
from repro.experiment import Config
from repro.papers.fedsgm.algorithms import fedsgm as alg
from repro.papers.fedsgm.problems.base import ConvexLipschitzProblem, LocalOracle, Optimum
from repro.runner import RunSpec

#: the hard-switching claims modelled (q_u = 0): Theorem 1, Theorems 6 and 8, and the constants of Theorem 8's proof
PEP_CLAIMS = ("fedsgm.thm1", "fedsgm.thm6", "fedsgm.thm8", "fedsgm.thm8.proof")
#: quantity key -> what it is (the bound of each is the claim's eps)
QUANTITIES = {"subopt": "f(w_bar) - f(w*)", "infeas": "g(w_bar)",
              "nonempty": "min_{t<T} g(w_t) with every round a constraint step (A empty iff > eps)"}
#: the KKT multipliers tried for the attained instance, in order (stop at the first within :data:`CLOSE`)
MULTIPLIERS = (1.0, 4.0, 0.0, 0.25)
#: branch conditions of the attained instance hold with this margin times eps (strict branches, replayable)
BRANCH_MARGIN = 1e-5
#: an attained value within this relative distance of the certified one ends the search over MULTIPLIERS
CLOSE = 1e-3
FUNCTION_CLASS = "f_j, g_j convex and G-Lipschitz on R^d (Assumption 1); ||w_0 - w*|| <= D, w* a solution of (1)"
METHOD = ("FedSGM (Algorithm 1), hard switching, C_j = Id, m clients, E local steps; "
          "worst over the feasible branch patterns in {A, B}^T")
INFEASIBLE = ("infeasible", "infeasible_inaccurate")


# ------------------------------------------------------------------------------------------ the model
def _declare(problem, m: int, G: float, constrained: bool):
    """The clients' f_j (and g_j when ``constrained``), convex G-Lipschitz, one subgradient per point."""
    from PEPit.functions import ConvexLipschitzFunction

    fs = [problem.declare_function(ConvexLipschitzFunction, M=G, reuse_gradient=True) for _ in range(m)]
    gs = [problem.declare_function(ConvexLipschitzFunction, M=G, reuse_gradient=True)
          for _ in range(m)] if constrained else []
    return fs, gs


def _mean_value(functions, x):
    return sum(h.value(x) for h in functions) / len(functions)


def _reference(problem, fs, gs, lam: float | None, D: float, exact_distance: bool = False):
    """w* and the initial condition ||w_0 - w*||^2 <= D^2 (``= D^2`` when ``exact_distance``: the attained side,
    D := ||w_0 - w*|| in Theorems 1 and 8): a feasible point (lam None: the relaxation) or a KKT point of (1) with
    multiplier lam (stationary for f + lam g; g(w*) = 0 when lam > 0)."""
    if lam is None:
        ws = problem.set_initial_point()
    else:
        lagrangian = sum(fs[1:], fs[0]) / len(fs)
        if gs and lam > 0:
            lagrangian = lagrangian + (lam / len(gs)) * sum(gs[1:], gs[0])
        ws = lagrangian.stationary_point()
    w0 = problem.set_initial_point()
    distance = (w0 - ws) ** 2
    problem.set_initial_condition(distance == D ** 2 if exact_distance else distance <= D ** 2)
    if gs:
        problem.add_constraint(_mean_value(gs, ws) <= 0)
        if lam is not None and lam > 0:
            problem.add_constraint(_mean_value(gs, ws) >= 0)
    return w0, ws


def _round(problem, fs, gs, w, branch: str, eta: float, E: int, eps: float, margin: float, condition: bool):
    """One round of Algorithm 1 from w_t on ``branch`` ("A": f-steps, "B": g-steps), its branch condition on g(w_t)
    a constraint when ``condition``; returns w_{t+1}."""
    if gs and condition:
        gt = _mean_value(gs, w)
        problem.add_constraint(gt <= eps - margin if branch == "A" else gt >= eps + margin)
    steps = fs if branch == "A" else gs
    ends = []
    for h in steps:
        x = w
        for _ in range(E):
            x = x - eta * h.gradient(x)
        ends.append(x)
    return sum(ends[1:], ends[0]) / len(ends)


def _metric(problem, fs, gs, ws, iterates, pattern, quantity: str):
    """Set the performance metric of ``quantity`` (module docstring) on the rounds' iterates w_0..w_{T-1}."""
    in_A = [w for w, b in zip(iterates, pattern) if b == "A"]
    if quantity == "none":
        return None
    if quantity == "nonempty":
        for w in iterates:
            problem.set_performance_metric(_mean_value(gs, w))
        return None
    if quantity == "best":
        for w in in_A:
            problem.set_performance_metric(_mean_value(fs, w) - _mean_value(fs, ws))
        return None
    w_bar = sum(in_A[1:], in_A[0]) / len(in_A)
    value = _mean_value(fs, w_bar) - _mean_value(fs, ws) if quantity == "subopt" else _mean_value(gs, w_bar)
    problem.set_performance_metric(value)
    if gs:
        _mean_value(gs if quantity == "subopt" else fs, w_bar)   # both values at w_bar, for the replay
    return w_bar


def fedsgm_pep(*, n_clients: int, E: int, eta: float, eps: float, pattern, quantity: str, G: float = 1.0,
               D: float = 1.0, lam: float | None = None, margin: float = 0.0, constrained: bool = True,
               conditions: bool = True, exact_distance: bool = False):
    """The PEP of ``len(pattern)`` rounds of Algorithm 1 (hard switching, no compression) on branch ``pattern``
    (a string over {A, B}), the performance metric ``quantity`` (:data:`QUANTITIES` or ``best``), w* as in
    :func:`_reference` (``exact_distance``: ||w_0 - w*|| = D), branch conditions with ``margin``;
    ``constrained=False`` drops g (every round an f-round, no condition), ``conditions=False`` keeps the pattern's
    steps without its conditions. Returns ``(problem, handles)``: the PEPit functions and points a replay needs."""
    from PEPit import PEP

    problem = PEP()
    fs, gs = _declare(problem, n_clients, G, constrained)
    w0, ws = _reference(problem, fs, gs, lam, D, exact_distance)
    w, iterates = w0, []
    for branch in pattern:
        if constrained:
            _mean_value(gs, w)      # g_j(w_t): the round's broadcast value, evaluated at every w_t
        iterates.append(w)
        w = _round(problem, fs, gs, w, branch, eta, E, eps, margin, condition=conditions and quantity != "nonempty")
    w_bar = _metric(problem, fs, gs, ws, iterates, pattern, quantity)
    return problem, {"f": fs, "g": gs, "w0": w0, "ws": ws, "iterates": iterates, "w_bar": w_bar}


# ------------------------------------------------------------------------------------------ solving
def claim_constants(claim_id: str, n_clients: int, E: int, T: int, G: float = 1.0, D: float = 1.0) -> dict:
    """eps, eta and the printed bounds of ``claim_id`` at q_u = 0 (no compression), n = m, N = 0, from the claim's
    sympy encoding (:mod:`bounds.fedsgm.claims`)."""
    claim = B.claim(claim_id)
    values = {"E": E, "T": T, "n": n_clients, "q_u": 0.0, "D": D, "G": G, "N": 0}
    pres = claim.prescribed(**values)
    bounds = claim.evaluate(**values)
    eps = float(pres["epsilon"])
    return {"eps": eps, "eta": float(pres["eta"]), "subopt": float(bounds["subopt"]),
            "infeas": float(bounds["infeas"]), "nonempty": eps, "q_u": values["q_u"]}


def solve_pattern(**kwargs):
    """:func:`fedsgm_pep` certified: ``(certificate, handles)``, or ``(None, None)`` when the solver reports the PEP
    infeasible; any other failure raises :class:`repro.pep.PepError`."""
    problem, handles = fedsgm_pep(**kwargs)
    try:
        return P.certify(problem), handles
    except P.PepError:
        prob = getattr(getattr(problem, "wrapper", None), "prob", None)
        if prob is not None and str(prob.status) in INFEASIBLE:
            return None, None
        raise


def branch_slack(*, pattern: str, **common) -> P.Certificate:
    """The certified largest min over rounds of the branch conditions' slack (eps - g(w_t) on A, g(w_t) - eps on B)
    over the class: its value < 0 iff no instance follows ``pattern`` (a PEP with the slacks as metrics and no branch
    constraint, hence feasible)."""
    problem, handles = fedsgm_pep(**common | {"quantity": "none", "conditions": False}, pattern=pattern)
    gs = handles["g"]
    for w, b in zip(handles["iterates"], pattern):
        gt = _mean_value(gs, w)
        problem.set_performance_metric(common["eps"] - gt if b == "A" else gt - common["eps"])
    return P.certify(problem)


#: how a pattern's upper side was obtained (:func:`_upper`), the keys of a point's ``patterns`` record
HOW = ("solved", "loosened", "unconditioned", "dropped")


def _upper(common: dict, pattern: str) -> tuple[P.Certificate | None, str]:
    """The relaxed certificate of one pattern and how it was obtained (:data:`HOW`). When the solver reports the
    pattern's PEP infeasible or fails on it (an empty or thin feasible set), the pattern is *dropped* (None) only if
    the branch slack (:func:`branch_slack`) certifies that no instance follows it: its certified value below
    -(:data:`BRANCH_MARGIN` eps + the solver margin). Otherwise (the slack above that, unbounded or unsolved) it is
    kept: the PEP with the branch conditions loosened
    by that margin, or failing that without branch conditions (supersets of the pattern's instances, so still upper
    bounds), is certified instead; if both fail the solver error is raised (no pattern is dropped unconfirmed)."""
    try:
        cert = solve_pattern(**common, pattern=pattern)[0]
        if cert is not None:
            return cert, "solved"
    except P.PepError:
        pass
    try:
        slack = branch_slack(**common | {"lam": None}, pattern=pattern)
    except P.PepError:      # unbounded slack (A rounds: g(w_t) unbounded below) or a failure: not confirmed
        slack = None
    if slack is not None and slack.value < -(BRANCH_MARGIN * common["eps"] + P.margin(slack.value, slack.status)):
        return None, "dropped"
    for how, extra in (("loosened", {"margin": -BRANCH_MARGIN * common["eps"]}), ("unconditioned",
                                                                                 {"conditions": False})):
        try:
            cert = solve_pattern(**common, pattern=pattern, **extra)[0]
        except P.PepError:
            continue
        if cert is not None:
            return cert, how
    raise P.PepError(f"pattern {pattern}: the solver reports its PEP infeasible or fails, the branch slack "
                     f"({'unbounded or failed' if slack is None else f'{slack.value:.3g}'}) does not confirm that no "
                     f"instance follows it, and the superset PEPs fail")


def patterns(T: int, quantity: str):
    """The branch patterns of T rounds the quantity is defined on: all-B for ``nonempty``, else those with an A."""
    if quantity == "nonempty":
        return ["B" * T]
    return ["".join(p) for p in itertools.product("AB", repeat=T) if "A" in p]


@dataclass(frozen=True)
class WorstCase:
    """One point: the certificate (relaxed dual as value, attained KKT instance as primal), the worst pattern, the
    multiplier of the attained instance, the kept (feasible) pattern count, the attained instance
    (:func:`instance_arrays`) and how many patterns were obtained each way (:data:`HOW`)."""

    certificate: P.Certificate
    pattern: str
    lam: float
    feasible: int
    instance: dict
    patterns: dict


def instance_arrays(handles: dict) -> dict[str, np.ndarray]:
    """The solved instance as flat arrays: every client's worst-case tables (``f<j>_x/_g/_f``, ``g<j>_x/...``,
    :func:`repro.pep.worst_case_table`), w_0, w*, the rounds' iterates w_0..w_{T-1} and w_bar (if any)."""
    out = {}
    for key in ("f", "g"):
        for j, h in enumerate(handles[key]):
            out |= P.worst_case_table(h).arrays(f"{key}{j}")
    out["w0"], out["ws"] = (np.atleast_1d(handles[k].eval()).astype(float) for k in ("w0", "ws"))
    out["iterates"] = np.array([np.atleast_1d(w.eval()) for w in handles["iterates"]], dtype=float)
    if handles["w_bar"] is not None:
        out["w_bar"] = np.atleast_1d(handles["w_bar"].eval()).astype(float)
    return out


def combined_status(*statuses: str) -> str:
    """The status of a certificate combined from several solves: ``optimal`` when every solve is, else the first
    status that is not (the decision's margin is then the wide one, :func:`repro.pep.margin`)."""
    return next((s for s in statuses if s != "optimal"), "optimal")


def _attained(common: dict, pattern: str, target: float):
    """The best KKT instance on ``pattern`` over :data:`MULTIPLIERS` (strict branches): (cert, lam, arrays)."""
    best = (None, None, None)
    for lam in MULTIPLIERS:
        try:
            cert, handles = solve_pattern(**common, pattern=pattern, lam=lam, margin=BRANCH_MARGIN * common["eps"],
                                          exact_distance=True)
        except P.PepError:      # this multiplier's instances are a thin set the solver does not resolve
            continue
        if cert is not None and (best[0] is None or cert.primal > best[0].primal):
            best = (cert, lam, instance_arrays(handles))
        if best[0] is not None and best[0].primal >= target - CLOSE * max(1.0, abs(target)):
            break
    return best


def worst_case(claim_id: str, quantity: str, n_clients: int, E: int, T: int, G: float = 1.0,
               D: float = 1.0) -> WorstCase:
    """The certified worst case of ``quantity`` for ``claim_id``'s constants at (m, E, T) (module docstring)."""
    k = claim_constants(claim_id, n_clients, E, T, G, D)
    common = {"n_clients": n_clients, "E": E, "eta": k["eta"], "eps": k["eps"], "quantity": quantity, "G": G,
              "D": D}
    start = time.perf_counter()
    if quantity == "nonempty":
        top = solve_pattern(**common, pattern="B" * T, lam=None)[0]
        require(top is not None, "T", T, "a horizon whose all-constraint trajectory the PEP solves")
        low, handles = solve_pattern(**common, pattern="B" * T, lam=0.0, exact_distance=True)
        pattern, lam, instance, how = "B" * T, 0.0, instance_arrays(handles) if low else {}, {"solved": 1}
        kept = 1
    else:
        how = dict.fromkeys(HOW, 0)
        upper = []
        for p in patterns(T, quantity):
            c, h = _upper(common, p)
            how[h] += 1
            if c is not None:
                upper.append((c, p))
        require(bool(upper), "T", T, "a horizon with a feasible branch pattern (the PEP found none)")
        top, pattern = max(upper, key=lambda cp: cp[0].value)
        low, lam, instance = _attained(common, pattern, top.value)
        kept = len(upper)
    primal = low.primal if low is not None else -np.inf
    cert = P.Certificate(top.value, min(primal, top.value), top.solver,
                         combined_status(top.status, low.status if low else "no KKT instance"), top.tolerance,
                         top.pepit, time.perf_counter() - start)
    return WorstCase(cert, pattern, lam if lam is not None else np.nan, kept, instance or {}, how)


# ------------------------------------------------------------------------------------------ the experiment
@dataclass(frozen=True, kw_only=True)
class PepConfig(Config):
    """One curve of ``fedsgm.pep``: the certified worst case of ``quantity`` (:data:`QUANTITIES`) under the constants
    of ``claim`` (:data:`PEP_CLAIMS`, q_u = 0) for ``n_clients`` clients, ``E`` local steps and T = 1..``T_max``
    rounds, with D = ||w_0 - w*|| and Lipschitz constant G."""

    claim: str
    quantity: str
    n_clients: int
    E: int
    T_max: int
    G: float = 1.0
    D: float = 1.0
    profile: str

    def __post_init__(self) -> None:
        require(self.claim in PEP_CLAIMS, "claim", self.claim, f"one of {', '.join(PEP_CLAIMS)} (hard switching "
                f"without compression; soft switching is not linear in the PEP: module docstring)")
        require(self.quantity in QUANTITIES, "quantity", self.quantity, f"one of {', '.join(QUANTITIES)}")
        admissible.integer("n_clients", self.n_clients)
        admissible.integer("E", self.E)
        admissible.integer("T_max", self.T_max)
        require(self.T_max <= 6 and self.n_clients * self.E * self.T_max <= 24, "T_max", self.T_max,
                "T_max <= 6 and n_clients * E * T_max <= 24 (2^T branch patterns, each an SDP)")
        admissible.real("G", self.G)
        admissible.real("D", self.D)


def run_pep(config: PepConfig, seed: int, *, bound_scale: float = 1.0):
    """The worst case of ``config``'s quantity at T = 1..T_max (:func:`worst_case`) against the claim's printed
    bound times ``bound_scale`` (1: the claim; the tests push a weakened claim through this path; eps and eta of the
    model stay the claim's), with the replay of each attained instance through the suite's Algorithm 1
    (:func:`replay_record`, key ``replay``); arrays: the attained instance of each T (prefix ``T<T>_``). ``seed`` is
    unused (no randomness)."""
    m, E, G, D = config.n_clients, config.E, config.G, config.D
    arrays, points = {}, []
    for T in range(1, config.T_max + 1):
        w = worst_case(config.claim, config.quantity, m, E, T, G, D)
        k = claim_constants(config.claim, m, E, T, G, D)
        own = {f"T{T}_{key}": value for key, value in w.instance.items()}
        arrays |= own
        point = P.point({"quantity": config.quantity, "m": m, "E": E, "T": T}, bound_scale * k[config.quantity],
                        w.certificate)
        point |= {"pattern": w.pattern, "multiplier": w.lam, "feasible_patterns": w.feasible, "patterns": w.patterns,
                  "eps": k["eps"], "eta": k["eta"], "G": G, "D": D, "q_u": k["q_u"]}
        points.append(point | {"replay": replay_record(own, point)})
    method = f"{METHOD} (m = {m}, E = {E})"
    return arrays, P.curve(config.claim, QUANTITIES[config.quantity], FUNCTION_CLASS, method, points, x="T")


#: per profile: the claims and the (n_clients, E, T_max) cases, every quantity of :data:`QUANTITIES` on each
PEP_GRID = {"quick": {"claims": ("fedsgm.thm1", "fedsgm.thm8.proof"), "cases": ((1, 1, 4), (1, 2, 4), (2, 2, 3))},
            "paper": {"claims": PEP_CLAIMS, "cases": ((1, 1, 6), (1, 2, 5), (1, 3, 4), (2, 1, 5), (2, 2, 4),
                                                       (3, 2, 3))}}


def work(config: dict) -> float:
    """The work model of one run (:class:`repro.experiment.Experiment`): one SDP per branch pattern of each horizon
    T = 1..T_max (:func:`patterns`: 2^T - 1 of them for ``subopt`` and ``infeas``, one for ``nonempty``), an SDP over
    m E T iterates costing ~(m E T)^1.5. The exponent is fitted to the measured wall times of the paper grid's
    ``subopt`` runs and the quick grid (about 12 % rms error in log time), where the product m E T_max was off by
    up to 60x (it ignores the 2^T patterns)."""
    c = PepConfig.from_dict(config)
    return float(sum(len(patterns(T, c.quantity)) * (c.n_clients * c.E * T) ** 1.5 for T in range(1, c.T_max + 1)))


def reprice_pep(config: PepConfig, seed: int, inputs: dict):
    """The curve of ``config``'s claim from the worst cases of ``inputs["solved"]``: a run of an earlier claim whose
    eps and eta equal this claim's at every T = 1..T_max (:func:`pep_specs` pairs them; at q_u = 0 Theorems 1, 6 and 8
    prescribe the same, up to :data:`SAME_PEP_RTOL`). Those are the same PEPs, so their certificates, attained instances
    and replays are this claim's too; only the printed bound, and with it the decision, is priced again; each point
    keeps the eps and eta that were solved. ``seed`` is unused."""
    solved = inputs["solved"]
    solved_claim = PepConfig.from_dict(solved.spec.config).claim
    points = []
    for old in solved.meta["metadata"]["points"]:
        T = old["params"]["T"]
        k = claim_constants(config.claim, config.n_clients, config.E, T, config.G, config.D)
        require(all(math.isclose(k[key], old[key], rel_tol=SAME_PEP_RTOL) for key in ("eps", "eta")), "inputs",
                f"the run of {solved_claim}", f"a run with {config.claim}'s eps and eta at T = {T} "
                f"({k['eps']}, {k['eta']}) within {SAME_PEP_RTOL:g} relative")
        point = P.point(old["params"], k[config.quantity], P.Certificate(**old["certificate"]))
        points.append(point | {key: value for key, value in old.items() if key not in point})
    method = f"{METHOD} (m = {config.n_clients}, E = {config.E})"
    return dict(solved.arrays), P.curve(config.claim, QUANTITIES[config.quantity], FUNCTION_CLASS, method, points,
                                        x="T")


#: eps and eta that agree to this relative tolerance count as the same PEP: the claims' sympy expressions evaluate to
#: the same numbers up to a few units in the last place (Theorem 1's eps at m = E = T = 1 is 2.0000000000000004,
#: Theorem 8's 2.0), nine orders of magnitude below the solver's tolerance (:data:`repro.pep.TOLERANCE`)
SAME_PEP_RTOL = 1e-12


def _same_pep(config: PepConfig) -> tuple:
    """What fixes the PEPs of a curve: its quantity, m, E, G, D and the claim's (eps, eta) at every T (rounded to the
    12 significant digits of :data:`SAME_PEP_RTOL`)."""
    per_T = (claim_constants(config.claim, config.n_clients, config.E, T, config.G, config.D)
             for T in range(1, config.T_max + 1))
    constants = tuple((float(f"{k['eps']:.12g}"), float(f"{k['eta']:.12g}")) for k in per_T)
    return config.quantity, config.n_clients, config.E, config.G, config.D, constants


def pep_specs(profile: str) -> list[RunSpec]:
    """Every claim x quantity x case of :data:`PEP_GRID`; a curve whose PEPs an earlier claim's curve already solves
    (:func:`_same_pep`) is repriced from it (:func:`reprice_pep`) instead of solved again."""
    grid = PEP_GRID[profile]
    specs, solved = [], {}
    for claim in grid["claims"]:
        for q in QUANTITIES:
            for m, E, T_max in grid["cases"]:
                config = PepConfig(claim=claim, quantity=q, n_clients=m, E=E, T_max=T_max, profile=profile)
                key = _same_pep(config)
                earlier = solved.get(key)
                if earlier is None:
                    spec = solved[key] = RunSpec("fedsgm.pep", config, 0, run_pep)
                else:
                    spec = RunSpec("fedsgm.pep", config, 0, reprice_pep, needs={"solved": earlier})
                specs.append(spec)
    return specs


# ------------------------------------------------------------------------------------------ replay
class _TableFunction:
    """One client's worst-case function for the replay: the table's (sub)gradient and value at a certified point
    (:class:`repro.pep.TableOracle`), elsewhere the max-affine interpolant (:func:`repro.pep.max_affine`) with the
    gradient of its active piece -- points Algorithm 1 queries (its oracle answers f_j and g_j together) but the PEP
    never evaluates: f_j at a constraint round's local iterates, g_j at an objective round's local iterates after the
    first, w_T. Such off-table answers are counted (``fallbacks``); none may steer the trajectory (the replay compares
    it with the certified one) and none may feed an observation: with ``strict`` set an off-table query raises
    :class:`repro.pep.ReplayError`."""

    def __init__(self, table: P.Table):
        self.oracle = P.TableOracle(table)
        self.table = table
        self.offsets = table.f - np.einsum("ij,ij->i", table.g, table.x)
        self.fallbacks = 0
        self.strict = False

    def __call__(self, x: np.ndarray) -> tuple[np.ndarray, float]:
        if np.linalg.norm(self.table.x - x, axis=1).min() <= self.oracle.tol:
            return self.oracle(x)
        if self.strict:
            raise P.ReplayError(f"the replay queried {np.round(x, 6).tolist()} off the worst-case table where an "
                                f"observation needs a certified value")
        self.fallbacks += 1
        i = int(np.argmax(self.offsets + self.table.g @ x))
        return self.table.g[i].copy(), float(self.offsets[i] + self.table.g[i] @ x)


class TableProblem(ConvexLipschitzProblem):
    """The extracted worst-case instance as a problem (1) of the suite, for Algorithm 1
    (:func:`repro.papers.fedsgm.algorithms.fedsgm.run`): client j's f_j, g_j are :class:`_TableFunction` of their
    tables (a loop over the few clients of a PEP); its optimum is the PEP's w*."""

    name = "pep_table"

    def __init__(self, arrays, prefix: str, G: float):
        keys = sorted({k[len(prefix):].split("_")[0] for k in arrays if k.startswith(prefix) and k[len(prefix)]
                       in "fg" and k[len(prefix) + 1:].split("_")[0].isdigit()})
        self.f = [_TableFunction(P.Table.from_arrays(arrays, prefix + k)) for k in keys if k[0] == "f"]
        self.g = [_TableFunction(P.Table.from_arrays(arrays, prefix + k)) for k in keys if k[0] == "g"]
        self.n_clients, self.G = len(self.f), float(G)
        self.dim = int(np.asarray(arrays[prefix + "w0"]).size)
        self.w_star = np.asarray(arrays[prefix + "ws"], dtype=float)

    @property
    def fallbacks(self) -> int:
        """Off-table queries answered by the max-affine interpolant so far (:class:`_TableFunction`)."""
        return sum(h.fallbacks for h in self.f + self.g)

    def strict(self) -> None:
        """From now on an off-table query raises :class:`repro.pep.ReplayError` (the observations' queries)."""
        for h in self.f + self.g:
            h.strict = True

    def oracle(self, W: np.ndarray) -> LocalOracle:
        W = np.asarray(W, dtype=float)
        flat = W.reshape(-1, self.n_clients, self.dim)
        answers = [[(self.f[j](x[j]), self.g[j](x[j])) for j in range(self.n_clients)] for x in flat]
        shape = W.shape[:-1]
        pick = lambda which, part: np.array([[a[j][which][part] for j in range(self.n_clients)]  # noqa: E731
                                             for a in answers])
        return LocalOracle(f=pick(0, 1).reshape(shape), g=pick(1, 1).reshape(shape),
                           grad_f=pick(0, 0).reshape(W.shape), grad_g=pick(1, 0).reshape(W.shape))

    def solve(self, w0: np.ndarray) -> Optimum:
        f_star, g_star = self.global_values(self.w_star)
        return Optimum(self.w_star, float(f_star), float(g_star), float(np.linalg.norm(w0 - self.w_star)),
                       "PEP worst case (w* of the extracted instance)", P.TOLERANCE)


#: the replay reproduces the certified trajectory, distance and attained value within these
REPLAY_ATOL = 1e-6


def replay(arrays, point: dict) -> dict:
    """Algorithm 1 (the suite's :func:`~repro.papers.fedsgm.algorithms.fedsgm.run`, hard switching, no compression)
    on the attained instance of one ``point`` of a ``fedsgm.pep`` run, from its w_0 with its eta and eps; returns the
    observations (subopt, infeas: :func:`repro.papers.fedsgm.checks.theorem_observations`, with |A|; nonempty: min_{t<T}
    g(w_t)), ``trajectory_error`` (the largest distance between the replayed and the certified w_0..w_{T-1}),
    ``distance`` = ||w_0 - w*|| (refused, :class:`repro.pep.ReplayError`, unless it is D), ``sigma`` and
    ``off_table`` (queries answered off the table, none of them by an observation). For ``nonempty`` the algorithm's
    eps is set just below the attained min g(w_t) (the certified trajectory is the all-constraint one the quantity is
    defined on; with the claim's eps it is taken only when that minimum exceeds eps), and ``A_size`` counts the rounds
    with g(w_t) <= the claim's eps."""
    from repro.papers.fedsgm import checks as V
    T, prefix = point["params"]["T"], f"T{point['params']['T']}_"
    quantity = point["params"]["quantity"]
    problem = TableProblem(arrays, prefix, point["G"])
    w0 = np.asarray(arrays[prefix + "w0"], dtype=float)
    distance = float(np.linalg.norm(w0 - problem.w_star))
    if abs(distance - point["D"]) > REPLAY_ATOL * max(1.0, point["D"]):
        raise P.ReplayError(f"the attained instance has ||w_0 - w*|| = {distance:.9g}, not D = {point['D']}: no "
                            f"instance of the theorem's D")
    eps = point["eps"]
    if quantity == "nonempty":
        eps = point["certificate"]["primal"] - BRANCH_MARGIN * point["eps"]
        if not eps > 0:
            raise P.ReplayError(f"the attained min g(w_t) = {point['certificate']['primal']:.3g} leaves no eps > 0 "
                                f"below it (Algorithm 1 needs eps > 0)")
    params = alg.FedSGMParams(T=T, E=point["params"]["E"], eta=point["eta"], eps=eps, w0=w0)
    trace = alg.run(problem, params, np.random.default_rng(0))
    off_table = problem.fallbacks
    problem.strict()
    if quantity == "nonempty":
        observed = {"nonempty": float(trace.g[:T].min()), "A_size": int(np.sum(trace.g[:T] <= point["eps"]))}
    else:
        observed, _ = V.theorem_observations(V.Instance(problem, problem.solve(w0)), trace)
    error = float(np.abs(trace.w[:-1] - np.asarray(arrays[prefix + "iterates"])).max())
    return observed | {"trajectory_error": error, "sigma": trace.sigma.copy(), "distance": distance,
                       "off_table": off_table}


def replay_record(arrays, point: dict) -> dict:
    """The replay (:func:`replay`) of one point as a plain record for its metadata: ``replayed`` (True when the
    suite's algorithm walks the certified trajectory within :data:`REPLAY_ATOL`, takes the point's branch pattern,
    starts at distance D and observes the attained value within :data:`REPLAY_ATOL` relative), else False with the
    ``reason``; the measured errors; a point without an attained instance is not replayable (its reason says so)."""
    if not arrays:
        return {"replayed": False, "reason": "no attained (KKT) instance to replay"}
    try:
        r = replay(arrays, point)
    except P.ReplayError as exc:
        return {"replayed": False, "reason": str(exc)}
    quantity = point["params"]["quantity"]
    primal = point["certificate"]["primal"]
    value_error = abs(float(r[quantity]) - primal)
    pattern = "".join("B" if s else "A" for s in r["sigma"])
    record = {"observed": float(r[quantity]), "value_error": value_error, "trajectory_error": r["trajectory_error"],
              "distance": r["distance"], "off_table": int(r["off_table"]), "pattern": pattern}
    problems = [text for bad, text in (
        (r["trajectory_error"] > REPLAY_ATOL, f"trajectory off by {r['trajectory_error']:.3g}"),
        (pattern != point["pattern"], f"branch pattern {pattern}, certified {point['pattern']}"),
        (value_error > REPLAY_ATOL * max(1.0, abs(primal)), f"observed value off by {value_error:.3g}")) if bad]
    return record | {"replayed": not problems, "reason": "; ".join(problems)}
