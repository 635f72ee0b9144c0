"""SSCA's exact failure probabilities (``ssca.exact``): Lemma 4, display (51), is stated deterministically for every
iteration of Algorithm 1 ("F0(w^(t+1)) - F0(w^(t)) <= gamma Delta err - gamma (mu - L_hat gamma/2) Delta^2"), yet
the run is random through its minibatches. On a tiny instance of a ``ssca.convergence`` problem (M = 0: logistic
loss + l2 or the nonconvex regulariser; a few samples per client, batch 1-2, one or two clients, a few iterations)
every minibatch pattern -- one B-subset of each client's N_i samples per client and iteration, uniform and
independent (:func:`repro.papers.ssca.algorithms.ssca.draw_client_batches`), so each of the
C(N_i, B)^(I (T - 1)) patterns has the same probability -- is run, (51) is judged at every iteration by
:func:`repro.papers.ssca.checks.lemma4_outcome`, and the probability that (51) fails at some iteration (beyond the
check's float tolerance) is computed exactly (a fraction). A probability > 0 refutes the deterministic statement;
the failing patterns (the sample indices of every batch) are its replay (``SSCAParams.replay_batches``).

The instance is built as ``ssca.convergence`` builds its problems
(:func:`repro.papers.ssca.runs.convergence.build_problem`), with its step-size families (``STEPS``), tau,
regularisation and label noise, and monitored by its monitor (both sides of (51) at every iteration, mu = 2 tau,
L_hat the exact global Lipschitz constant of grad F0). Each pattern is replayed through Algorithm 1
(:func:`repro.papers.ssca.algorithms.ssca.run_sample_based`) with a generator that scripts the batch draws
(:class:`repro.scripted.ScriptedKeys`). Assumption, named: a client's batch is a uniform B-subset of its index row,
drawn in one call per iteration (:func:`~repro.papers.ssca.algorithms.ssca.draw_client_batches`: B uniform positions
redrawn while a row repeats one, or the B smallest uniform keys for large B); every run asserts that
the batches the trace records are the pattern's and that each iteration drew exactly once, so a change in that rule
fails loudly instead of enumerating the wrong patterns.

Iterations: ``updates`` is the number of iterations t = 1..T-1 of Algorithm 1 (each draws one batch per client;
the algorithm's T is ``updates + 1``), so (51) is judged ``updates`` times per pattern.

Besides the stated (51), each pattern is also judged with L_hat halved (the halved-constant detector of
``ssca.search``): the probability of that weakened inequality failing says whether these instances can see the
constant at all (:data:`HALVED`).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from bounds.ssca import claims as B
from repro import admissible
from repro.errors import is_int, is_real, require
from repro.experiment import Config
from repro.papers.ssca import checks as V
from repro.papers.ssca.algorithms import ssca as alg
from repro.papers.ssca.runs import convergence as conv
from repro.papers.ssca.runs.search import lemma4_ratio
from repro.runner import RunSpec
from repro.scripted import FailureCount, ScriptedKeys, law_record, uniform_law

CLAIM = "ssca.lemma4"
#: the M = 0 problems of ``ssca.convergence`` ((51) is logged for M = 0 only)
EXACT_PROBLEMS = conv.PROBLEMS[:2]
MAX_PATTERNS = 2**16
#: failing patterns kept in the metadata (the replay of a violation)
KEEP_FAILING = 5
#: the factor on L_hat of the weakened (51) also judged on every pattern (the halved-constant detector)
HALVED = 0.5


@dataclass(frozen=True, kw_only=True)
class ExactConfig(Config):
    """One instance of ``ssca.exact``: ``problem`` (:data:`EXACT_PROBLEMS`) on ``clients`` clients of
    ``per_client`` samples each in dimension ``d`` (label noise ``flip``, regularisation ``reg``), Algorithm 1 with
    the step sizes ``steps`` (``ssca.convergence``'s ``STEPS``), ``tau``, batch ``batch`` per client and ``updates``
    iterations, from w^(1) = ``init_scale`` x a standard normal draw; every minibatch pattern is run."""

    problem: str
    steps: str
    clients: int
    per_client: int
    batch: int
    updates: int
    d: int = 2
    flip: float = 0.1
    reg: float = 0.05
    tau: float = 0.5
    init_scale: float = 1.0
    profile: str

    def __post_init__(self) -> None:
        admissible.one_of("problem", self.problem, EXACT_PROBLEMS)
        admissible.one_of("steps", self.steps, tuple(conv.STEPS))
        admissible.integer("d", self.d)
        require(is_int(self.clients) and 1 <= self.clients <= self.d, "clients", self.clients,
                f"an integer in 1..d = 1..{self.d} (each client also owns a feature block)")
        admissible.integer("per_client", self.per_client, 2, "N_i, samples per client")
        require(is_int(self.batch) and 1 <= self.batch < self.per_client, "batch", self.batch,
                f"an integer in 1..N_i - 1 = 1..{self.per_client - 1} (B = N_i draws nothing)")
        admissible.integer("updates", self.updates, 1, "iterations t = 1..T-1 of Algorithm 1")
        require(self.patterns() <= MAX_PATTERNS, "updates", self.updates,
                f"clients x updates small enough that C(N_i, B)^(clients x updates) <= {MAX_PATTERNS} patterns")
        require(is_real(self.flip) and 0 <= self.flip < 0.5, "flip", self.flip,
                "a number in [0, 0.5)")
        admissible.real("reg", self.reg)
        admissible.real("tau", self.tau)
        admissible.real("init_scale", self.init_scale, strict=False)

    def patterns(self) -> int:
        """C(N_i, B)^(clients x updates), the number of equally likely minibatch patterns."""
        return comb(self.per_client, self.batch) ** (self.clients * self.updates)

    def instance(self) -> conv.ProblemInstance:
        """The ``ssca.convergence``-style description of the instance (what :func:`conv.build_problem` reads)."""
        return conv.ProblemInstance(problem=self.problem, n=self.clients * self.per_client, d=self.d,
                                    clients=self.clients, flip=self.flip, reg=self.reg)


def patterns(per_client: int, batch: int, clients: int, updates: int):
    """Every minibatch pattern (updates, clients, B) of B-subsets of the positions 0..N_i-1 of each client's index
    row, in lexicographic order; each occurs once."""
    subsets = [np.array(s) for s in itertools.combinations(range(per_client), batch)]
    for choice in itertools.product(range(len(subsets)), repeat=updates * clients):
        yield np.array([subsets[i] for i in choice]).reshape(updates, clients, batch)


@dataclass(frozen=True)
class Instance:
    """A built instance: the problem, the clients' index rows (I, N_i), w^(1), Algorithm 1's step sizes and what
    (51) needs (:class:`~repro.papers.ssca.checks.CheckProblem`)."""

    problem: object
    clients: np.ndarray
    omega1: np.ndarray
    steps: alg.PowerLawSteps
    check: V.CheckProblem


def build_instance(config: ExactConfig, seed: int) -> Instance:
    """The data, partition and initial point of ``config`` at ``seed`` (deterministic)."""
    ss = np.random.SeedSequence([seed, EXACT_PROBLEMS.index(config.problem), 2104_06011, 51])
    data_rng, init_rng, part_rng = (np.random.default_rng(s) for s in ss.spawn(3))
    problem, _, _, _ = conv.build_problem(config.instance(), data_rng)
    clients = part_rng.permutation(config.clients * config.per_client).reshape(config.clients, -1)
    omega1 = config.init_scale * init_rng.normal(size=problem.dim)
    return Instance(problem, clients, omega1, alg.PowerLawSteps(*conv.STEPS[config.steps]),
                    V.CheckProblem(V.surrogate_modulus(config.tau), float(problem.lipschitz_gradient())))


def _observed_run(config: ExactConfig, instance: Instance, rng, replay=None) -> alg.SSCATrace:
    """Algorithm 1 on ``instance`` drawing from ``rng`` (or replaying ``replay``), with the convergence run's series."""
    T = config.updates + 1
    trajectory = conv.Trajectory()
    params = alg.SSCAParams(tau=config.tau, steps=instance.steps, iterations=T, batch=config.batch,
                            omega1=instance.omega1, record_batches=True, checkpoints=tuple(range(1, T + 1)),
                            client_indices=instance.clients, replay_batches=replay, monitor=trajectory)
    return trajectory.observed(alg.run_sample_based(instance.problem, params, rng), instance.problem, 100.0)


def pattern_batches(instance: Instance, pattern: np.ndarray) -> np.ndarray:
    """The sample indices (updates, I, B) a pattern of positions selects from the clients' index rows."""
    return np.take_along_axis(instance.clients[None, :, :], pattern, axis=2)


def pattern_trace(config: ExactConfig, instance: Instance, pattern: np.ndarray) -> alg.SSCATrace:
    """Algorithm 1 with the minibatch pattern ``pattern`` (positions, (updates, I, B)) scripted into its draws;
    raises AssertionError unless the batches it used are the pattern's, one draw per iteration."""
    draws = ScriptedKeys(pattern)
    trace = _observed_run(config, instance, draws)
    if draws.calls != config.updates or not np.array_equal(np.sort(trace.batches, axis=2),
                                                           np.sort(pattern_batches(instance, pattern), axis=2)):
        raise AssertionError("Algorithm 1 did not use the scripted minibatches: "
                             "repro.papers.ssca.algorithms.ssca.draw_client_batches changed")
    return trace


def replay_trace(config: ExactConfig, instance: Instance, batches) -> alg.SSCATrace:
    """Algorithm 1 replaying the sample indices ``batches`` (updates, I, B) (a failing pattern of the metadata)."""
    return _observed_run(config, instance, np.random.default_rng(0), np.asarray(batches))


def lemma4_on(trace: alg.SSCATrace, check: V.CheckProblem, *, mu_factor: float = 1.0, L_factor: float = 1.0):
    """:func:`~repro.papers.ssca.checks.lemma4_outcome` of (51) at every iteration of ``trace``, with mu and L_hat
    scaled by ``mu_factor`` and ``L_factor`` (1, 1: (51) as stated)."""
    return V.lemma4_outcome(*V.lemma4_series(trace), mu_factor * check.mu, L_factor * check.L_hat)


def fails(outcome) -> bool:
    """(51) fails at some iteration beyond the check's float tolerance (a deterministic claim's failure)."""
    return bool(outcome.hypotheses_met and not outcome.passed and not outcome.inconclusive)


def enumerate_patterns(config: ExactConfig, seed: int, *, mu_factor: float = 1.0, L_factor: float = 1.0) -> dict:
    """Every pattern of ``config`` at ``seed`` replayed and judged: a :class:`repro.scripted.FailureCount` of (51)
    with mu x ``mu_factor``, L_hat x ``L_factor`` (and with L_hat also x :data:`HALVED`: its ``halved_failed``; the
    failing patterns as sample indices per iteration and client), the inconclusive patterns, the largest multiple
    of L_hat/2 a pattern needs, the instance's mu and L_hat and the law enumerated."""
    return enumerate_instance(config, build_instance(config, seed), mu_factor=mu_factor, L_factor=L_factor)


def enumerate_instance(config: ExactConfig, instance: Instance, *, mu_factor: float = 1.0,
                       L_factor: float = 1.0) -> dict:
    """:func:`enumerate_patterns` on a built ``instance`` (its step sizes may differ from ``config.steps``: the
    failure-probability search, ``ssca.failsearch``, sets them); ``config`` gives the sizes and tau."""
    count, inconclusive, worst_ratio, mass = FailureCount(CLAIM, KEEP_FAILING), 0, -np.inf, Fraction(0)
    for pattern, p in uniform_law(patterns(config.per_client, config.batch, config.clients, config.updates),
                                  config.patterns()):
        trace = pattern_trace(config, instance, pattern)
        out = lemma4_on(trace, instance.check, mu_factor=mu_factor, L_factor=L_factor)
        mass += p
        inconclusive += bool(out.inconclusive)
        halved = fails(lemma4_on(trace, instance.check, mu_factor=mu_factor, L_factor=L_factor * HALVED))
        count.add(pattern_batches(instance, pattern).tolist(), fails(out), out.observed, out.bound, halved)
        worst_ratio = max(worst_ratio, lemma4_ratio(*V.lemma4_series(trace), mu_factor * instance.check.mu,
                                                    instance.check.L_hat, L_factor))
    return {"count": count, "inconclusive": inconclusive, "worst_ratio": worst_ratio, "mu": instance.check.mu,
            "L_hat": instance.check.L_hat, "law": law_record(count.patterns, mass)}


def run_exact(config: ExactConfig, seed: int):
    """P((51) fails at some iteration) over all minibatch patterns of one tiny instance, exactly, and with L_hat
    halved (:class:`repro.scripted.FailureCount`); the inconclusive patterns and the largest multiple of L_hat/2 a
    pattern needs (the search's objective, for the table only)."""
    e = enumerate_patterns(config, seed)
    return ({"failure_probability": np.array(float(e["count"].probability)),
             "inconclusive_patterns": np.array(e["inconclusive"]), "worst_ratio": np.array(e["worst_ratio"])},
            {"failure_counts": [e["count"].as_json()], "location": B.claim(CLAIM).location,
             "instance": config.instance()._asdict() | {"steps": config.steps, "batch": config.batch,
                                                        "updates": config.updates, "tau": config.tau,
                                                        "init_scale": config.init_scale, "seed": seed},
             "mu": e["mu"], "L_hat": e["L_hat"], "law": e["law"]})


#: the enumerated instances per profile: (problem, steps, clients, N_i, B, updates, d), each with seeds
#: 0..seeds-1; d = 1 makes the Cauchy-Schwarz step of (51)'s proof an equality (the tightest case)
EXACT_GRID = {"quick": {"cases": (("logistic_l2", "theory_a", 1, 3, 1, 4, 1),
                                  ("nonconvex_logistic", "section_vi", 1, 4, 2, 3, 2),
                                  ("logistic_l2", "section_vi", 2, 3, 1, 3, 2),
                                  ("nonconvex_logistic", "theory_b", 2, 3, 2, 3, 2)), "seeds": 2},
              "paper": {"cases": (("logistic_l2", "theory_a", 1, 3, 1, 6, 1),
                                  ("nonconvex_logistic", "theory_a", 1, 3, 1, 6, 1),
                                  ("logistic_l2", "section_vi", 1, 4, 2, 5, 2),
                                  ("nonconvex_logistic", "section_vi", 1, 4, 2, 5, 2),
                                  ("logistic_l2", "theory_b", 2, 3, 1, 4, 2),
                                  ("nonconvex_logistic", "theory_b", 2, 4, 2, 3, 2)), "seeds": 4}}


def exact_specs(profile: str) -> list[RunSpec]:
    grid = EXACT_GRID[profile]
    return [RunSpec("ssca.exact", ExactConfig(problem=p, steps=s, clients=n, per_client=k, batch=b, updates=u, d=d,
                                              profile=profile), seed, run_exact)
            for p, s, n, k, b, u, d in grid["cases"] for seed in range(grid["seeds"])]


def work(config: dict) -> float:
    """Units of work of one run: patterns x iterations (each pattern is one run of ``updates`` iterations)."""
    run = ExactConfig.from_dict(config)
    return float(run.patterns() * run.updates)
