"""FedCLUP's certified worst cases by performance estimation (``fedclup.pep``; the shared layer is :mod:`repro.pep`).

The method modelled is Algorithm 1 (Appendix B.1): full-gradient local steps (13) on each client's personalized
objective h_i(w) = L_i(w) + (lam/2)||w - w_t||^2, warm-started from the client's stored model, K per round, and the
server step (12), w_{t+1} = w_t - gamma lam (1/m) sum_i (w_t - w^i_{t,K}), with p_i = 1/m and full participation.
The proximal term is quadratic, so it is written exactly inside the PEP (only grad L_i is an oracle call).

Function class (the assumptions of Theorem 2 and Corollary 2, Assumptions 1-2): every client's empirical loss L_i
is L-smooth and mu-strongly convex, independently of the others (PEPit ``SmoothStronglyConvexFunction``, one per
client; its interpolation conditions make the worst case exact over that class, in every dimension). The solution
(w~_g, w~_i) of problem (2) enters through its first-order conditions, grad L_i(w~_i) = lam (w~_g - w~_i) and
w~_g = (1/m) sum_i w~_i; the inner solutions w^i_*(w) = prox_{L_i/lam}(w) through grad L_i(p) = lam (w - p).
Nothing branches (Algorithm 1 is deterministic), so no branch patterns are enumerated.

Claims and models (the parameters are those of ``bounds/fedclup/claims.py``; its encoded claims give every printed
bound, step size and K, evaluated with ``Claim.evaluate`` / ``prescribed`` / ``hypotheses_hold``, never retyped):

* :func:`theorem2_rounds` -- Theorem 2 (fedclup.thm2, Phi_{t+1} <= (1 - gamma mu_F/4) Phi_t, Phi_t = e_t +
  12 gamma lam^2/mu_F d_t): the worst Phi_T over every start (w_0, w^i_{0,0}) with Phi_0 <= 1, for T = 1 (the
  claim itself) and its T-fold iterate (the printed bound applied T times). gamma = s/L_F (s <= 1),
  eta = 1/(L + lam), K = the smallest K that satisfies (14-D) (the least the claim's hypotheses allow, checked
  with ``hypotheses_hold``). The start is arbitrary: that is the claim at t = 0 from any initial models, so a
  certified violation would be a genuine counterexample.
* :func:`theorem2_local` -- Theorem 2's local part, ||w^i_{t,K} - w~_i|| <= sqrt(m d_t) + theta sqrt(e_t): the worst
  ||w^1_{t,K} - w~_1||^2 over starts with m d_t <= 1 and e_t <= b^2, against the printed bound squared at
  (d_t, e_t) = (1/m, b^2) (the largest value of the right side on that set; a worst case above it is therefore a
  pointwise violation, one below it certifies the bound on the set). This bound is *attained* (the worst case
  equals it), so its decision is ``tight`` (equal within the status-dependent margin of :func:`repro.pep.margin`)
  or, where the solve is too inaccurate, ``inconclusive``: both honest. At larger K (K >= 4 at m = 2) Clarabel
  fails outright on some b (no certificate, a :class:`repro.pep.PepError`); such a point is not dropped silently:
  ``run_pep`` records it under the curve's ``unsolved`` key with the solver's message, and the report lists it.
* :func:`corollary2` -- Corollary 2 (fedclup.cor2.explicit): gamma = 1/L_F, eta = 1/(L + lam), K prescribed, and
  after T rounds e_T = ||w_T - w~_g||^2 <= eps with T = ceil(4 kappa_F log(Phi_0/eps)). For each T the printed
  bound is the smallest eps whose prescribed T is this T (Phi_0 = 1), i.e. the strongest instance of the claim at T;
  the worst e_T is over every start with Phi_0 <= 1 (Phi_0 after round 0's inner loop, as the suite measures it).

The T-curves (thm2, cor2) stop before the worst case falls to the solver's resolution (:func:`resolved`): below it,
bound / worst case would be the bound over solver noise, not a tightness ratio.
* :func:`degenerate` -- the same builder with one client and lam = 0 (no personalization): the local model then
  runs plain gradient descent with step eta for K T steps (warm start across rounds); its certified values must
  equal PEPit's own examples (``tests/fedclup/test_pep.py``).

Two exact reformulations keep the SDPs well scaled (both leave the set of trajectories unchanged): the solution
of (2) is placed at the origin, w~_g = 0 (:func:`_solution_points`; the class and the method commute with
translations), and round 0's inner steps are written backwards from their end (:func:`_first_round_backward`).

The worst-case functions of every Theorem 2 and Corollary 2 point are kept in the arrays (one
:class:`repro.pep.Table` per client, with the start, the solution and the inner solutions), and :func:`replay` runs
them through the suite's own Algorithm 1 (:func:`repro.papers.fedclup.algorithms.fedclup.run_fedclup`, every
client's gradient a :class:`repro.pep.TableOracle` through :class:`TableClients`); ``run_pep`` records the replayed
value (and the replayed Phi_0) beside each certificate.

Not modelled: Theorem 3 / Lemma 7 (random mini-batches: no deterministic special case bounds an expectation over
batches), Theorem 1 and Corollaries 1 and 3 (statistical claims over data distributions, or O(.) statements), and
Corollary 2's O(.) complexities (order statements without constants).
"""
from __future__ import annotations

import functools

from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from bounds.fedclup import claims as B
from repro import admissible as adm
from repro import pep
from repro.errors import is_int, is_real, require
from repro.experiment import Config
from repro.papers.fedclup.algorithms import fedclup as alg
from repro.runner import RunSpec

MODELS = ("thm2", "thm2_local", "cor2")
CLAIM_OF = {"thm2": "fedclup.thm2", "thm2_local": "fedclup.thm2", "cor2": "fedclup.cor2.explicit"}
FUNCTION_CLASS = "L-smooth mu-strongly convex client losses L_i (PEPit SmoothStronglyConvexFunction, one per client)"
#: the largest number of local steps a model accepts (the PEP grows with m K T)
K_MAX = 8
#: relative slack of the hypotheses gamma L_F <= 1 and eta (L + lam) <= 1, met with equality up to rounding
HYPOTHESIS_RTOL = 1e-12


# ---------------------------------------------------------------------------------------------- PEP builder
@dataclass
class _Trajectory:
    """Algorithm 1 on PEPit points: the clients' functions, the solution of (2) (``w_g_tilde``, ``w_tilde``), the
    start (``w_g0``, ``local0``), the global models G[t] (t = 0..rounds) and the clients' models after round t's
    K steps, Lm[t] (t = 0..rounds-1)."""

    problem: PEP
    fs: list
    w_g_tilde: Point
    w_tilde: list
    f_tilde: list
    w_g0: Point
    local0: list
    G: list
    Lm: list
    proxes: dict = field(default_factory=dict)

    def prox(self, t: int, lam: float) -> list:
        """The inner solutions w^i_*(G[t]) as new points with grad L_i(p) = lam (G[t] - p) (kept in ``proxes``)."""
        from PEPit import Expression, Point

        out = []
        for f in self.fs:
            p = Point()
            f.add_point((p, lam * (self.G[t] - p), Expression()))
            out.append(p)
        self.proxes[t] = out
        return out

    def d(self, t: int, prox: list) -> Expression:
        """d_t = (1/m) sum_i ||w^i_{t,K} - w^i_*(w_t)||^2."""
        m = len(self.fs)
        return sum((x - p) ** 2 for x, p in zip(self.Lm[t], prox)) / m

    def e(self, t: int) -> Expression:
        return (self.G[t] - self.w_g_tilde) ** 2


def _mean(points: list):
    return sum(points[1:], points[0]) / len(points) if len(points) > 1 else points[0]


def _solution_points(m: int):
    """The solution of (2) placed at the origin, w~_g = 0 (the class and Algorithm 1 commute with translations, so
    this loses nothing, and it removes the translation freedom that leaves the SDP's optimal set unbounded): leaf
    points w~_1..w~_{m-1} and w~_m = -(w~_1 + ... + w~_{m-1}), so that w~_g = mean_i w~_i = 0."""
    from PEPit import Point

    zero = 0 * Point()
    if m == 1:
        return [zero], zero
    free = [Point() for _ in range(m - 1)]
    return free + [-1 * _mean(free) * (m - 1)], zero


def _first_round_backward(f, w, lam: float, eta: float, K: int):
    """Round 0's K steps (13) of one client written from their END: the leaf point is w^i_{0,K} and the leaf
    gradients g_k; each earlier iterate is solved from (13), w_k = (w_{k+1} + eta g_k - eta lam w)/(1 - eta lam),
    and (w_k, g_k) is given to f. The same set of trajectories as the forward recursion from a free start w^i_{0,0}
    (the map is invertible since eta lam < 1), in a basis whose points are O(1) where the forward one needs a start
    ~ (1 - eta (mu + lam))^-K far out: the SDP is better conditioned and Clarabel solves it to tolerance."""
    from PEPit import Expression, Point

    x = Point()
    end = x
    for _ in range(K):
        g = Point()
        x = (x + eta * g - eta * lam * w) / (1 - eta * lam)
        f.add_point((x, g, Expression()))
    return x, end


def build(m: int, mu: float, L: float, lam: float, gamma: float, eta: float, K: int, rounds: int,
          free_end: bool = False) -> _Trajectory:
    """A PEP holding ``rounds`` rounds of Algorithm 1 (updates (13) and (12)) from a free start (w_0, w^i_{0,0}) on
    m L-smooth mu-strongly convex clients; lam = 0 is allowed (then the server step is the identity). ``free_end``:
    round 0 is written backwards from its end (:func:`_first_round_backward`; the same trajectories)."""
    from PEPit import PEP, Expression
    from PEPit.functions import SmoothStronglyConvexFunction

    problem = PEP()
    fs = [problem.declare_function(SmoothStronglyConvexFunction, mu=mu, L=L) for _ in range(m)]
    w_tilde, w_g_tilde = _solution_points(m)
    f_tilde = [Expression() for _ in range(m)]
    for f, w, v in zip(fs, w_tilde, f_tilde):
        f.add_point((w, lam * (w_g_tilde - w), v))                    # first-order conditions of (2)
    w = problem.set_initial_point()
    if free_end:
        local0, local = zip(*[_first_round_backward(f, w, lam, eta, K) for f in fs])
        local0, local, first = list(local0), list(local), 1
    else:
        local0 = [problem.set_initial_point() for _ in range(m)]
        local, first = local0, 0
    G, Lm = [w], []
    for t in range(rounds):
        if t >= first:
            new = []
            for f, x in zip(fs, local):
                for _ in range(K):
                    x = x - eta * (f.gradient(x) + lam * (x - w))     # (13)
                new.append(x)
            local = new
        Lm.append(local)
        w = (1 - gamma * lam) * w + gamma * lam * _mean(local)        # (12), p_i = 1/m
        G.append(w)
    return _Trajectory(problem, fs, w_g_tilde, w_tilde, f_tilde, G[0], local0, G, Lm)


def _phi_weight(mu: float, lam: float, gamma: float) -> float:
    """12 gamma lam^2/mu_F, the weight of d_t in Phi_t (``bounds.fedclup.claims.PHI_WEIGHT``)."""
    return float(B.PHI_WEIGHT.subs({B.mu: mu, B.lam: lam, B.gamma: gamma}))


# ---------------------------------------------------------------------------------------------- the models
def theorem2_rounds(m, mu, L, lam, gamma, eta, K, T):
    """Theorem 2: the worst Phi_T = e_T + c d_T over starts with Phi_0 <= 1 (module docstring). Returns the solved
    trajectory and its :class:`repro.pep.Certificate`."""
    tr = build(m, mu, L, lam, gamma, eta, K, T + 1, free_end=True)
    c = _phi_weight(mu, lam, gamma)
    tr.problem.set_initial_condition(tr.e(0) + c * tr.d(0, tr.prox(0, lam)) <= 1)
    tr.problem.set_performance_metric(tr.e(T) + c * tr.d(T, tr.prox(T, lam)))
    return tr, pep.certify(tr.problem)


def theorem2_local(m, mu, L, lam, eta, K, b):
    """Theorem 2's local part: the worst ||w^1_{t,K} - w~_1||^2 over starts with m d_t <= 1 and e_t <= b^2."""
    tr = build(m, mu, L, lam, 1.0, eta, K, 1, free_end=True)
    tr.problem.set_initial_condition(m * tr.d(0, tr.prox(0, lam)) <= 1)
    tr.problem.set_initial_condition(tr.e(0) <= b ** 2)
    tr.problem.set_performance_metric((tr.Lm[0][0] - tr.w_tilde[0]) ** 2)
    return tr, pep.certify(tr.problem)


def corollary2(m, mu, L, lam, gamma, eta, K, T):
    """Corollary 2: the worst e_T after T rounds over starts with Phi_0 <= 1."""
    tr = build(m, mu, L, lam, gamma, eta, K, T, free_end=True)
    c = _phi_weight(mu, lam, gamma)
    tr.problem.set_initial_condition(tr.e(0) + c * tr.d(0, tr.prox(0, lam)) <= 1)
    tr.problem.set_performance_metric(tr.e(T))
    return tr, pep.certify(tr.problem)


def degenerate(mu, L, eta, K, T, metric="distance"):
    """One client, lam = 0: the local model is gradient descent with step eta for K T steps from w^1_{0,0}.
    ``metric="distance"``: worst ||x_n - x*||^2 given ||x_0 - x*||^2 <= 1 (PEPit's
    ``gradient_descent_silver_stepsize_strongly_convex`` at n = 1, and ``composite_convex_minimization/
    proximal_gradient``'s f2 = 0 member); ``"value"``: worst f(x_n) - f* given ||x_0 - x*||^2 <= 1 (PEPit's
    ``unconstrained_convex_minimization/gradient_descent`` when mu = 0)."""
    require(metric in ("distance", "value"), "metric", metric, "'distance' or 'value'")
    tr = build(1, mu, L, 0.0, 1.0, eta, K, T)
    x0, x, xs = tr.local0[0], tr.Lm[-1][0], tr.w_tilde[0]
    tr.problem.set_initial_condition((x0 - xs) ** 2 <= 1)
    tr.problem.set_performance_metric((x - xs) ** 2 if metric == "distance" else tr.fs[0](x) - tr.f_tilde[0])
    return tr, pep.certify(tr.problem)


# ---------------------------------------------------------------------------------------------- claim values
def prescribed(mu: float, L: float, lam: float) -> dict:
    """gamma = 1/L_F, eta = 1/(L + lam) and K of Corollary 2 (claim fedclup.cor2.explicit, ``prescribed``)."""
    p = B.claim("fedclup.cor2.explicit").prescribed(mu=mu, L=L, lam=lam, Phi_0=1.0, epsilon=0.5)
    return {"gamma": float(p["gamma"]), "eta": float(p["eta"]), "K": int(p["K"])}


def theorem2_K(mu: float, L: float, lam: float, gamma: float, eta: float) -> int:
    """The smallest K <= K_MAX for which Theorem 2's hypotheses (gamma <= 1/L_F, eta <= 1/(L + lam), (14-D)) hold,
    by the encoded claim's ``hypotheses_hold`` (equalities up to HYPOTHESIS_RTOL); a ConfigError when none does."""
    claim = B.claim("fedclup.thm2")
    for K in range(1, K_MAX + 1):
        if bool(claim.hypotheses_hold(rtol=HYPOTHESIS_RTOL, mu=mu, L=L, lam=lam, gamma=gamma, eta=eta, K=K)):
            return K
    require(False, "lam", lam, f"parameters whose Theorem 2 hypotheses hold with K <= {K_MAX} (mu={mu}, L={L}, "
                               f"gamma={gamma:.4g}); the PEP would be too large")


def theorem2_bounds(m, mu, L, lam, gamma, Phi_t, d_t, e_t) -> dict:
    """Theorem 2's right sides (``Phi_next``, ``local_opt_err``) from the encoded claim."""
    out = B.claim("fedclup.thm2").evaluate(m=m, mu=mu, L=L, lam=lam, gamma=gamma, Phi_t=Phi_t, d_t=d_t, e_t=e_t)
    return {k: float(v) for k, v in out.items()}


@functools.cache
def _eps_of_T() -> list:
    """T_COR2 solved for eps (solved on first use: importing the experiments must stay quick)."""
    return sp.solve(sp.Eq(B.T_COR2_REAL, B.T), B.eps)


def corollary2_eps(mu: float, L: float, lam: float, T: int) -> float:
    """The smallest eps whose Corollary 2 round count ceil(4 kappa_F log(Phi_0/eps)) is T (Phi_0 = 1): the
    encoded T_COR2 solved for eps, then checked with the claim's own ``prescribed`` T (nudged up by a few ulps
    where floating point rounds the ceiling to T + 1)."""
    require(len(_eps_of_T()) == 1, "T_COR2", B.T_COR2_REAL, "one solution for eps")
    eps = float(_eps_of_T()[0].subs({B.mu: mu, B.L: L, B.lam: lam, B.T: T, B.Phi_0: 1.0}))
    claim = B.claim("fedclup.cor2.explicit")
    for _ in range(8):
        if int(claim.prescribed(mu=mu, L=L, lam=lam, Phi_0=1.0, epsilon=eps)["T"]) == T:
            return eps
        eps = eps * (1 + 1e-14)
    raise AssertionError(f"no eps gives T = {T} in Corollary 2 at mu={mu}, L={L}, lam={lam}")


# ---------------------------------------------------------------------------------------------- replay
class TableClients:
    """The m worst-case client losses as the suite's client oracle (the part of ``StackedClients`` that Algorithm 1
    uses with full gradients and full participation): ``gradients(W)`` answers row i with client i's
    :class:`repro.pep.TableOracle`."""

    def __init__(self, tables: list):
        self.oracles = [pep.TableOracle(t) for t in tables]
        self.m, self.n = len(tables), 1
        self.shape = (tables[0].x.shape[1],)

    def gradients(self, W: np.ndarray, clients=None) -> np.ndarray:
        require(clients is None, "clients", clients, "None (full participation)")
        return np.stack([oracle.gradient(w) for oracle, w in zip(self.oracles, W)])


def keep(tr: _Trajectory, prefix: str) -> dict:
    """The worst-case instance of a solved trajectory as flat arrays: each client's table, the start, the solution of
    (2) and the inner solutions it asked for (``tr.proxes``)."""
    out = {}
    for i, f in enumerate(tr.fs):
        out |= pep.worst_case_table(f).arrays(f"{prefix}_client{i}")
    out[f"{prefix}_w_g0"] = np.atleast_1d(tr.w_g0.eval())
    out[f"{prefix}_local0"] = np.stack([np.atleast_1d(x.eval()) for x in tr.local0])
    out[f"{prefix}_w_g_tilde"] = np.atleast_1d(tr.w_g_tilde.eval())
    for t, points in tr.proxes.items():
        out[f"{prefix}_prox{t}"] = np.stack([np.atleast_1d(p.eval()) for p in points])
    return out


def replay(arrays: dict, prefix: str, m: int, lam: float, gamma: float, eta: float, K: int, rounds: int):
    """The suite's Algorithm 1 (``run_fedclup``, server (12), full gradients) for ``rounds`` rounds from the kept
    start, every client's gradient answered by its worst-case table; returns the trace."""
    clients = TableClients([pep.Table.from_arrays(arrays, f"{prefix}_client{i}") for i in range(m)])
    params = alg.FedCLUPParams(lam=lam, gamma=gamma, eta=eta, local_steps=K, rounds=rounds, server="eq12",
                               w_g0=arrays[f"{prefix}_w_g0"], w_local0=arrays[f"{prefix}_local0"])
    return alg.run_fedclup(clients, params, np.random.default_rng(0))


def replayed_phi(arrays: dict, prefix: str, trace, mu: float, lam: float, gamma: float, t: int) -> float:
    """Phi_t = e_t + 12 gamma lam^2/mu_F d_t of a replayed trace (d_t against the kept inner solutions)."""
    e = float(np.sum((trace.global_models[t] - arrays[f"{prefix}_w_g_tilde"]) ** 2))
    d = float(np.mean(np.sum((trace.local_models[t + 1] - arrays[f"{prefix}_prox{t}"]) ** 2, axis=1)))
    return e + _phi_weight(mu, lam, gamma) * d


def replayed_e(arrays: dict, prefix: str, trace, t: int) -> float:
    """e_t = ||w_t - w~_g||^2 of a replayed trace."""
    return float(np.sum((trace.global_models[t] - arrays[f"{prefix}_w_g_tilde"]) ** 2))


# ---------------------------------------------------------------------------------------------- config and run
#: thm2_local's values of b (e_t <= b^2 beside m d_t <= 1)
B_VALUES = (0.25, 1.0, 4.0)
T_LIMIT = 6


@dataclass(frozen=True, kw_only=True)
class PepConfig(Config):
    """One curve of ``fedclup.pep``: ``model`` (:data:`MODELS`) on ``m`` clients, mu = ``mu``, L = ``L``, lambda =
    ``lam``, gamma = ``gamma_scale`` / L_F (1 for cor2: Corollary 2's choice), eta = 1/(L + lam), T = 1..``T_max``
    (thm2, cor2; thm2_local takes b in :data:`B_VALUES`)."""

    model: str
    m: int
    L: float
    lam: float
    mu: float = 1.0
    gamma_scale: float = 1.0
    T_max: int = 1
    profile: str

    def __post_init__(self) -> None:
        adm.one_of("model", self.model, MODELS)
        require(is_int(self.m) and 1 <= self.m <= 4, "m", self.m, "an integer in 1..4 (clients; the PEP grows with m)")
        adm.real("mu", self.mu)
        require(is_real(self.L) and self.L >= self.mu, "L", self.L, f"a real >= mu = {self.mu} (Assumption 1)")
        adm.real("lam", self.lam)
        require(is_real(self.gamma_scale) and 0 < self.gamma_scale <= 1 and
                (self.model != "cor2" or self.gamma_scale == 1), "gamma_scale", self.gamma_scale,
                "a real in (0, 1] (Theorem 2: gamma <= 1/L_F), exactly 1 for cor2 (Corollary 2: gamma = 1/L_F)")
        require(is_int(self.T_max) and 1 <= self.T_max <= T_LIMIT, "T_max", self.T_max, f"an integer in 1..{T_LIMIT}")
        require(self.K <= K_MAX, "lam", self.lam, f"parameters whose K is at most {K_MAX} (here K = {self.K})")

    @property
    def steps(self) -> dict:
        """gamma, eta (Corollary 2's, gamma scaled by ``gamma_scale``) and K (thm2: smallest K meeting (14-D))."""
        p = prescribed(self.mu, self.L, self.lam)
        gamma = p["gamma"] * self.gamma_scale
        K = p["K"] if self.model == "cor2" else theorem2_K(self.mu, self.L, self.lam, gamma, p["eta"])
        return {"gamma": gamma, "eta": p["eta"], "K": K}

    @property
    def K(self) -> int:
        return self.steps["K"]


def _thm2_point(c: PepConfig, s: dict, T: int, arrays: dict) -> dict:
    tr, cert = theorem2_rounds(c.m, c.mu, c.L, c.lam, s["gamma"], s["eta"], s["K"], T)
    bound = 1.0
    for _ in range(T):                                   # Theorem 2 applied T times from Phi_0 = 1
        bound = theorem2_bounds(c.m, c.mu, c.L, c.lam, s["gamma"], bound, 1.0, 1.0)["Phi_next"]
    arrays |= keep(tr, f"T{T}")
    trace = replay(arrays, f"T{T}", c.m, c.lam, s["gamma"], s["eta"], s["K"], T + 1)
    point = pep.point({"m": c.m, "mu": c.mu, "L": c.L, "lam": c.lam, "gamma": s["gamma"], "K": s["K"], "T": T},
                      bound, cert)
    return point | {"replay": replayed_phi(arrays, f"T{T}", trace, c.mu, c.lam, s["gamma"], T),
                    "replay_start": replayed_phi(arrays, f"T{T}", trace, c.mu, c.lam, s["gamma"], 0)}


def _local_point(c: PepConfig, s: dict, b: float) -> dict:
    _, cert = theorem2_local(c.m, c.mu, c.L, c.lam, s["eta"], s["K"], b)
    bound = theorem2_bounds(c.m, c.mu, c.L, c.lam, s["gamma"], 1.0, 1.0 / c.m, b ** 2)["local_opt_err"] ** 2
    return pep.point({"m": c.m, "mu": c.mu, "L": c.L, "lam": c.lam, "K": s["K"], "b": b}, bound, cert)


def _cor2_point(c: PepConfig, s: dict, T: int, arrays: dict) -> dict:
    tr, cert = corollary2(c.m, c.mu, c.L, c.lam, s["gamma"], s["eta"], s["K"], T)
    arrays |= keep(tr, f"T{T}")
    trace = replay(arrays, f"T{T}", c.m, c.lam, s["gamma"], s["eta"], s["K"], T)
    point = pep.point({"m": c.m, "mu": c.mu, "L": c.L, "lam": c.lam, "K": s["K"], "T": T},
                      corollary2_eps(c.mu, c.L, c.lam, T), cert)
    return point | {"replay": replayed_e(arrays, f"T{T}", trace, T),
                    "replay_start": replayed_phi(arrays, f"T{T}", trace, c.mu, c.lam, s["gamma"], 0)}


_QUANTITY = {"thm2": "Phi_T given Phi_0 <= 1 (T = 1: Theorem 2; T > 1: iterated)",
             "thm2_local": "||w^i_{t,K} - w~_i||^2 given m d_t <= 1, e_t <= b^2",
             "cor2": "e_T given Phi_0 <= 1 (bound: least eps with T(eps) = T)"}


#: the modelled method, the part every curve shares (its per-curve part follows after "; ")
METHOD = ("Algorithm 1 with full-gradient local steps (13), warm-started, and server step (12) with p_i = 1/m and "
          "full participation")


def resolved(value: float) -> bool:
    """Whether a certified worst case lies above the solver's resolution: more than the WIDER margin
    ``repro.pep.margin(value, status)`` of a solve that is not ``optimal`` (whatever status this solve ended with,
    so that a status that changes between machines cannot turn a presented ratio into bound / noise)."""
    return abs(value) > pep.margin(value, "not optimal")


def _local_points(c: PepConfig, s: dict) -> tuple[list, list]:
    """thm2_local's points over b in :data:`B_VALUES`, and the ``unsolved`` ones (the solver returned no certificate:
    params and the solver's message, kept for the report); a PepError if no b is solved."""
    points, unsolved = [], []
    for b in B_VALUES:
        try:
            points.append(_local_point(c, s, b))
        except pep.PepError as exc:
            unsolved.append({"params": {"m": c.m, "mu": c.mu, "L": c.L, "lam": c.lam, "K": s["K"], "b": b},
                             "reason": str(exc).split(". ")[0]})
    if not points:
        raise pep.PepError(f"thm2_local: no b in {B_VALUES} solved at m={c.m}, L={c.L}, lam={c.lam}, K={s['K']}: "
                           f"{unsolved[0]['reason']}")
    return points, unsolved


def run_pep(config: PepConfig, seed: int):
    """The certified worst cases of one curve (module docstring); ``seed`` is unused (nothing is random)."""
    s = config.steps
    arrays: dict = {}
    unsolved: list = []
    if config.model == "thm2":
        points, x = [_thm2_point(config, s, T, arrays) for T in range(1, config.T_max + 1)], "T"
    elif config.model == "cor2":
        points, x = [_cor2_point(config, s, T, arrays) for T in range(1, config.T_max + 1)], "T"
    else:
        (points, unsolved), x = _local_points(config, s), "b"
    arrays["value"] = np.array([p["certificate"]["value"] for p in points])
    arrays["bound"] = np.array([p["bound"] for p in points])
    method = (f"{METHOD}; {config.m} client(s), K = {s['K']} local steps, eta = 1/(L + lam), "
              f"gamma = {config.gamma_scale:g}/L_F")
    return arrays, pep.curve(CLAIM_OF[config.model], _QUANTITY[config.model], FUNCTION_CLASS, method, points, x=x) | {
        "unsolved": unsolved}


#: per profile: (model, m, L, lam, gamma_scale, T_max); mu = 1. K follows from the claims (2-5 at quick, up to 8 at
#: paper: thm2_local at K = 5 and 8, where Clarabel fails on some b, see ``unsolved``).
#: T_max of the T-curves (thm2, cor2) stops before the worst case leaves :func:`resolved` (measured with this
#: module: e.g. cor2 at m = 2, L = 2, lam = 0.1 reaches 5.7e-5 at T = 3, below the wider margin 1e-4);
#: tests/fedclup/test_pep.py checks it on the quick T-curves, and the report counts any point that is not resolved.
PEP_GRID = {"quick": (("thm2", 2, 2.0, 0.1, 1.0, 3), ("thm2", 3, 1.5, 0.2, 1.0, 2), ("thm2", 2, 2.0, 0.1, 0.5, 3),
                      ("thm2", 1, 2.0, 0.05, 1.0, 3), ("thm2_local", 2, 2.0, 0.1, 1.0, 1),
                      ("thm2_local", 3, 1.5, 0.2, 1.0, 1), ("thm2_local", 2, 2.0, 0.5, 1.0, 1),
                      ("cor2", 2, 2.0, 0.1, 1.0, 2), ("cor2", 2, 1.5, 0.05, 1.0, 2)),
            "paper": (("thm2", 2, 2.0, 0.1, 1.0, 3), ("thm2", 3, 1.5, 0.2, 1.0, 2), ("thm2", 2, 2.0, 0.1, 0.5, 5),
                      ("thm2", 1, 2.0, 0.05, 1.0, 3), ("thm2", 2, 2.0, 0.5, 1.0, 2), ("thm2", 3, 3.0, 0.1, 1.0, 3),
                      ("thm2", 2, 2.0, 1.0, 0.25, 4), ("thm2_local", 2, 2.0, 0.1, 1.0, 1),
                      ("thm2_local", 3, 1.5, 0.2, 1.0, 1), ("thm2_local", 3, 2.0, 0.1, 1.0, 1),
                      ("thm2_local", 2, 2.0, 0.3, 1.0, 1), ("thm2_local", 2, 2.0, 0.5, 1.0, 1),
                      ("thm2_local", 2, 3.0, 1.0, 1.0, 1),
                      ("cor2", 2, 2.0, 0.1, 1.0, 2), ("cor2", 2, 1.5, 0.05, 1.0, 2), ("cor2", 3, 1.5, 0.2, 1.0, 2),
                      ("cor2", 1, 2.0, 0.1, 1.0, 2))}


def pep_specs(profile: str) -> list[RunSpec]:
    return [RunSpec("fedclup.pep", PepConfig(model=model, m=m, L=L, lam=lam, gamma_scale=s, T_max=T, profile=profile),
                    0, run_pep)
            for model, m, L, lam, s, T in PEP_GRID[profile]]
