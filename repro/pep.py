"""Performance estimation (PEP): certified worst cases of the papers' methods, the shared layer of the
``<paper>.pep`` experiments.

A PEP model (one per method and claim, in ``repro/papers/<paper>/runs/pep.py``) builds a PEPit ``PEP``: it declares
the function class of the claim's assumptions (L-smooth, mu-strongly convex, G-Lipschitz convex, ...: PEPit's
interpolation conditions make the worst case over that class exact), runs the method on PEPit points with the
claim's own parameter choices, and sets the quantity the claim bounds as the performance metric. :func:`certify`
solves the resulting semidefinite program with an open solver (Clarabel through cvxpy) and returns a
:class:`Certificate`:

* ``value``, the dual objective: an upper bound on the quantity over *every* function of the class, in every
  dimension, up to the solver's tolerance (PEPit's ``return_primal_or_dual="dual"``);
* ``primal``, the primal objective: the value that the worst-case instance extracted from the Gram matrix attains.

:func:`decide` compares a printed bound with a certificate. The bound is *violated* when it lies below the primal
value by more than :func:`margin` (the extracted instance is a counterexample: :func:`worst_case_table` extracts its
points, subgradients and values, and :class:`TableOracle` replays them through the suite's own implementation of
the method); *certified* at that parameter point when it exceeds the dual value by more than the margin; *tight*
when it equals the dual value within the margin (the bound is attained, up to the solver's accuracy: no instance
beyond that accuracy exceeds it); *inconclusive* otherwise (it lies inside the primal-dual gap). Its tightness is
``bound / value``: 1 when the bound is attained, large when it is loose.

PEPit does the modelling, the solving and the extraction (``Point.eval``, ``Expression.eval``); written here by hand,
because no library does it: the comparison with a printed bound, the table oracle of the replay, and the flat arrays
the runner caches.

Assumptions, named:

* the solver is Clarabel (on one thread) with its gap and feasibility tolerances set to :data:`TOLERANCE`; the margin
  within which a bound and a certificate are not told apart is :data:`MARGIN_REL` times ``max(1, |value|)`` (a
  hundred times the tolerance) for a solve the solver reports ``optimal``, and :data:`INACCURATE_MARGIN_REL` times it
  for any other status (Clarabel's ``optimal_inaccurate``, frequent on the federated models with m >= 2: every
  report's solver line counts them). Below the margin a worst case is not resolved: a bound above it is certified
  only by more than the margin;
* PEPit keeps its points and functions in class-level lists, reset by every ``PEP()``: one PEP is built and solved
  at a time in a process (the runner's workers are processes);
* the replay's table oracle answers a query with the table point nearest to it and fails when none lies within
  ``atol + rtol * scale`` or when two table points at one place carry different (sub)gradients: the replay must walk
  the certified trajectory, never interpolate between its points.
"""
from __future__ import annotations

import importlib.metadata
import itertools
import math
import time
import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np

#: Clarabel's absolute and relative gap and feasibility tolerances for every PEP solve
TOLERANCE = 1e-9
#: a printed bound and a certified value closer than MARGIN_REL * max(1, |value|) are not told apart
MARGIN_REL = 1e-7
#: the margin of a solve whose status is not "optimal" (measured: Clarabel's optimal_inaccurate solves of FedCLUP's
#: PEPs at m >= 2 are off by up to ~1e-6 relative, and up to 3e-4 at K = 5..8, where FedCLUP's local bound is tight)
INACCURATE_MARGIN_REL = 1e-4
#: the solver of every PEP in the suite (open source, installed with cvxpy; no licence)
SOLVER = "CLARABEL"
#: Clarabel's threads (its default, 0, takes every core for its factorisations): the suite's SDPs are too small to gain
#: from a second one (measured: 20-45 % less CPU on one; 45 of the quick profile's 47 PEP runs bit-identical, the other
#: two within 1e-5 relative of an optimal_inaccurate solve), the runner already runs a process per core, and one
#: thread keeps the last digits independent of the machine's core count
SOLVER_THREADS = 1

CERTIFIED, TIGHT, VIOLATED, INCONCLUSIVE = "certified", "tight", "violated", "inconclusive"
DECISIONS = (CERTIFIED, TIGHT, VIOLATED, INCONCLUSIVE)


class PepError(RuntimeError):
    """A PEP that the solver could not solve to a finite certificate (unbounded worst case or solver failure)."""


@dataclass(frozen=True)
class Certificate:
    """The solved PEP of one model at one parameter point: ``value`` (dual objective, the certified worst case),
    ``primal`` (the value the extracted instance attains), the solver, its status and tolerance, the PEPit version
    and the wall time of the solve."""

    value: float
    primal: float
    solver: str
    status: str
    tolerance: float
    pepit: str
    seconds: float

    @property
    def gap(self) -> float:
        """Certified minus attained value: the solver's primal-dual gap for one solve (>= 0 up to rounding); where a
        model combines solves (a relaxation for the certificate, a stricter PEP for the instance), the gap between
        them too."""
        return self.value - self.primal

    def meta(self) -> dict:
        """The certificate as a plain dict for a run's metadata."""
        return {"value": self.value, "primal": self.primal, "solver": self.solver, "status": self.status,
                "tolerance": self.tolerance, "pepit": self.pepit, "seconds": self.seconds}


def certify(problem) -> Certificate:
    """Solve the PEPit ``problem`` (already built: functions, initial condition, iterations, performance metric) with
    :data:`SOLVER` at :data:`TOLERANCE`, its constraints sent to cvxpy in blocks (:mod:`repro.pep_sdp`: the same
    problem data as PEPit's cvxpy wrapper, canonicalised several times faster); a :class:`PepError` if the worst case is
    unbounded or the solver fails."""
    from repro.pep_sdp import WRAPPER

    start = time.perf_counter()
    try:
        with warnings.catch_warnings():     # cvxpy's "Solution may be inaccurate": the status below records it
            warnings.filterwarnings("ignore", message="Solution may be inaccurate")
            dual = problem.solve(wrapper=WRAPPER, safe_mode=False, solver=SOLVER, verbose=0,
                                 return_primal_or_dual="dual", tol_gap_abs=TOLERANCE, tol_gap_rel=TOLERANCE,
                                 tol_feas=TOLERANCE, max_threads=SOLVER_THREADS)
    except Exception as exc:        # cvxpy's SolverError and PEPit's assertion on an unsolved problem
        raise PepError(f"the PEP solver {SOLVER} failed: {type(exc).__name__}: {exc}") from None
    status = str(getattr(problem.wrapper, "prob", None) and problem.wrapper.prob.status)
    if dual is None or not math.isfinite(dual):
        raise PepError(f"the PEP has no finite worst case (solver {SOLVER} status {status}): the function class "
                       f"or the initial condition does not bound the performance metric")
    primal = float(problem.objective.eval())
    return Certificate(float(dual), primal, SOLVER, status, TOLERANCE, importlib.metadata.version("pepit"),
                       time.perf_counter() - start)


def margin(value: float, status: str = "optimal") -> float:
    """The margin within which a printed bound and the certified ``value`` are not told apart: :data:`MARGIN_REL`
    times ``max(1, |value|)`` for a solve the solver calls ``optimal``, :data:`INACCURATE_MARGIN_REL` times it for
    any other status (Clarabel's ``optimal_inaccurate``: its reduced accuracy must not decide a verdict)."""
    return (MARGIN_REL if status == "optimal" else INACCURATE_MARGIN_REL) * max(1.0, abs(value))


@dataclass(frozen=True)
class Tightness:
    """A printed bound against a certificate: ``decision`` (certified / tight / violated / inconclusive, :func:`decide`) and
    ``ratio`` = bound / certified worst case (inf when the worst case is 0 and the bound is not)."""

    bound: float
    value: float
    primal: float
    ratio: float
    decision: str


def decide(bound: float, cert: Certificate) -> Tightness:
    """Compare the printed ``bound`` with ``cert`` (module docstring): violated below ``primal - margin``, certified
    above ``value + margin``, tight within ``margin`` of ``value``, inconclusive otherwise."""
    if not math.isfinite(bound):
        raise ValueError(f"bound = {bound!r} is not admissible: a finite printed bound")
    m = margin(cert.value, cert.status)
    if bound < cert.primal - m:
        decision = VIOLATED
    elif bound > cert.value + m:
        decision = CERTIFIED
    elif bound >= cert.value - m:
        decision = TIGHT
    else:
        decision = INCONCLUSIVE
    ratio = bound / cert.value if abs(cert.value) > m else (1.0 if abs(bound) <= m else math.inf)
    return Tightness(float(bound), cert.value, cert.primal, float(ratio), decision)


# ------------------------------------------------------------------------------------ worst-case instance
@dataclass(frozen=True)
class Table:
    """The worst-case function of one PEPit function after the solve, as the table of what it was asked: points
    ``x`` (k, n), (sub)gradients ``g`` (k, n) and values ``f`` (k,), in the coordinates of the Gram matrix's
    factor (n = the number of leaf points of the PEP)."""

    x: np.ndarray
    g: np.ndarray
    f: np.ndarray

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """The table as flat arrays for a run's result (keys ``<prefix>_x``, ``_g``, ``_f``)."""
        return {f"{prefix}_x": self.x, f"{prefix}_g": self.g, f"{prefix}_f": self.f}

    @classmethod
    def from_arrays(cls, arrays, prefix: str) -> "Table":
        return cls(np.asarray(arrays[f"{prefix}_x"]), np.asarray(arrays[f"{prefix}_g"]),
                   np.asarray(arrays[f"{prefix}_f"]))


def worst_case_table(function) -> Table:
    """The :class:`Table` of a solved PEPit ``function`` (a leaf function: its ``list_of_points`` holds the
    (point, gradient, value) triples it was evaluated at, stationary points included)."""
    triples = function.list_of_points
    if not triples:
        raise ValueError("the PEPit function was never evaluated: it has no worst-case table")
    x = np.array([np.atleast_1d(p.eval()) for p, _, _ in triples], dtype=float)
    g = np.array([np.atleast_1d(d.eval()) for _, d, _ in triples], dtype=float)
    f = np.array([float(v.eval()) for _, _, v in triples], dtype=float)
    return Table(x, g, f)


class ReplayError(AssertionError):
    """The replay left the certified trajectory (a query far from every table point) or met an ambiguous point."""


class TableOracle:
    """The worst-case function of a :class:`Table` as a first-order oracle for the suite's own algorithms:
    ``oracle(x) -> (g, f)`` is the (sub)gradient and value of the table point nearest to ``x``, which must lie within
    ``atol + rtol * scale`` (scale = the largest table norm); ``queries`` counts the calls. Shape of ``x``: (n,)."""

    def __init__(self, table: Table, atol: float = 1e-6, rtol: float = 1e-6):
        self.table = table
        self.scale = max(1.0, float(np.abs(table.x).max()))
        self.tol = atol + rtol * self.scale
        self.queries = 0
        self.worst_distance = 0.0

    def _index(self, x: np.ndarray) -> int:
        distances = np.linalg.norm(self.table.x - np.asarray(x, dtype=float), axis=1)
        i = int(np.argmin(distances))
        if distances[i] > self.tol:
            raise ReplayError(f"replay query {np.round(x, 6).tolist()} is {distances[i]:.3g} from the nearest "
                              f"certified point (tolerance {self.tol:.3g}): the suite's algorithm and the PEP model "
                              f"took different steps")
        close = np.flatnonzero(distances <= self.tol)
        spread = np.abs(self.table.g[close] - self.table.g[i]).max() if close.size > 1 else 0.0
        if spread > self.tol:
            raise ReplayError(f"the worst-case table has {close.size} points at {np.round(x, 6).tolist()} with "
                              f"different subgradients: the replay cannot tell which one the method used")
        self.queries += 1
        self.worst_distance = max(self.worst_distance, float(distances[i]))
        return i

    def __call__(self, x: np.ndarray) -> tuple[np.ndarray, float]:
        i = self._index(x)
        return self.table.g[i].copy(), float(self.table.f[i])

    def gradient(self, x: np.ndarray) -> np.ndarray:
        return self(x)[0]

    def value(self, x: np.ndarray) -> float:
        return self(x)[1]


def max_affine(table: Table) -> Callable[[np.ndarray], float]:
    """The convex interpolant of a convex (possibly nonsmooth) worst-case table: ``f(x) = max_i f_i + <g_i, x - x_i>``,
    G-Lipschitz with G the largest ||g_i|| (the function PEPit's convex interpolation conditions certify exists)."""
    offsets = table.f - np.einsum("ij,ij->i", table.g, table.x)
    return lambda x: float(np.max(offsets + table.g @ np.asarray(x, dtype=float)))


def point(params: dict, bound: float, cert: Certificate) -> dict:
    """One parameter point of a ``<paper>.pep`` run's metadata: the claim's ``params``, its printed ``bound``, the
    certificate and the decision (:func:`decide`); the shape :mod:`repro.tightness` reads."""
    t = decide(bound, cert)
    return {"params": dict(params), "bound": t.bound, "certificate": cert.meta(), "decision": t.decision,
            "ratio": t.ratio}


def curve(claim: str, quantity: str, function_class: str, method: str, points: list[dict], x: str = "T") -> dict:
    """The metadata of one ``<paper>.pep`` run: the ``claim`` (its id), the ``quantity`` it bounds, the
    ``function_class`` of its assumptions, the ``method`` modelled (with the branch or path, where it has one), its
    :func:`point` records, and ``x``, the parameter its figure puts on the horizontal axis."""
    return {"claim": claim, "quantity": quantity, "function_class": function_class, "method": method,
            "points": points, "x": x}


def grid(**axes) -> list[dict]:
    """Every combination of the keyword axes' values, the last axis fastest: ``grid(T=(1, 2), E=(1,))``."""
    return [dict(zip(axes, values)) for values in itertools.product(*axes.values())]


__all__ = ["TOLERANCE", "MARGIN_REL", "INACCURATE_MARGIN_REL", "SOLVER", "SOLVER_THREADS", "CERTIFIED", "TIGHT",
           "VIOLATED", "INCONCLUSIVE", "DECISIONS", "PepError", "Certificate",
           "certify", "margin", "Tightness", "decide", "Table", "worst_case_table", "ReplayError", "TableOracle",
           "max_affine", "point", "curve", "grid"]
