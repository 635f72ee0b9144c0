"""FedCLUP's Lemma 7 over every mini-batch sequence (``fedclup.exact``): its expectation computed exactly.

Lemma 7 (Appendix B.5) bounds E||w^i_{t,K} - w^i_*(w_t)||^2 over the mini-batches of the K inner steps of (13)
("fresh batch each inner step"). ``fedclup.stochastic`` checks it by Monte Carlo (a 3-standard-error rule, so an
excess within the noise is "inconclusive"). The inner steps are random only through the batches: each step draws a
B-subset of the client's n rows, uniformly and independently of the other steps, so the C(n, B)^K batch sequences
are equally likely. On tiny instances (n = 4 rows, d = 2) every sequence is run, as the replicates of one lockstep
run (the batch rule's keys are scripted by :class:`repro.scripted.ScriptedKeys`), and Lemma 7 is judged on its exact
expectation (:func:`repro.papers.fedclup.checks.expectation` with ``exact=True``: no standard error). The count of
sequences on which the error itself exceeds the bound is reported; an expectation allows it.

Instance and constants as in ``fedclup.stochastic`` (:func:`repro.papers.fedclup.runs.optimization.lemma7_path`:
whitened design, L = max_j ||x_j||^2, eta = 1/(L + lambda), sigma^2 of Assumption 4 realised on the iterates).
Assumption, named: the batch rule keeps the B rows with the smallest uniform keys
(:meth:`repro.papers.fedclup.problems.stacked_clients.StackedClients.sample_rows`); every run asserts that the rows
each step used are the scripted ones, so a change in that rule fails loudly instead of enumerating the wrong law.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import comb

import numpy as np

from bounds.fedclup import claims as B
from repro import admissible as adm
from repro.errors import require
from repro.papers.fedclup import checks as V
from repro.papers.fedclup.runs.optimization import _InstanceConfig, lemma7_path
from repro.runner import RunSpec
from repro.scripted import ScriptedKeys, law_record, uniform_law
from repro.verify import check_claims, outcome_arrays

#: the largest enumeration (sequences = replicates of one lockstep run)
MAX_SEQUENCES = 2**15


@dataclass(frozen=True, kw_only=True)
class ExactConfig(_InstanceConfig):
    """One enumerated Lemma 7 instance: lambda, ``batch`` rows of the client's n per step, ``local_steps`` K; every
    one of the C(n, batch)^K batch sequences is run."""

    lam: float
    batch: int
    local_steps: int
    m: int = 2
    n: int = 4
    d: int = 2

    def __post_init__(self) -> None:
        super().__post_init__()
        adm.real("lam", self.lam)
        adm.integer("batch", self.batch, 1, "rows per mini-batch")
        require(self.batch < self.n, "batch", self.batch, f"an integer in 1..n - 1 = {self.n - 1} (a full batch "
                "has no randomness)")
        adm.integer("local_steps", self.local_steps, 1, "K")
        require(self.sequences() <= MAX_SEQUENCES, "local_steps", self.local_steps,
                f"an integer with C(n, batch)^K <= {MAX_SEQUENCES} batch sequences")

    def sequences(self) -> int:
        return comb(self.n, self.batch) ** self.local_steps


def batch_sequences(n: int, batch: int, steps: int) -> np.ndarray:
    """Every sequence of ``steps`` B-subsets of n rows, as the scripted keys' pattern (steps, sequences, batch):
    sequence j takes at step k the subset numbered by the k-th base-C(n, B) digit of j."""
    subsets = np.array(list(itertools.combinations(range(n), batch)))
    digits = np.array(list(itertools.product(range(len(subsets)), repeat=steps)))   # (sequences, steps)
    return subsets[digits].transpose(1, 0, 2)


def run_exact(config: ExactConfig, seed: int):
    """Lemma 7 judged on its exact expectation over every batch sequence of client 0's K inner steps."""
    sequences = config.sequences()
    pattern = batch_sequences(config.n, config.batch, config.local_steps)
    law = law_record(pattern.shape[1], sum(p for _, p in uniform_law(pattern.transpose(1, 0, 2), sequences)))
    script = ScriptedKeys(pattern)
    problem, trace, used = lemma7_path(config, seed, sequences, batches=script)
    if script.calls != config.local_steps or not np.array_equal(np.sort(used, axis=-1), pattern):
        raise AssertionError("the inner steps did not use the scripted batches (one per step): "
                             "StackedClients.sample_rows changed")
    outcomes = check_claims(V.check, [B.claim("fedclup.lemma7")], problem, trace)
    seen = V.lemma7_observed(problem, trace)
    return (outcome_arrays(outcomes) | {"sigma_sq": np.array(seen["sigma_sq"]), "sequences": np.array(sequences),
                                        "sequences_exceeding": np.array(outcomes[0].details["draws_exceeding"])},
            {"constants": seen["values"], "instance": {k: v for k, v in config.as_dict().items() if k != "profile"},
             "law": law})


#: the enumerated instances per profile: (lambda, batch, K, kappa); seeds 0..seeds-1
EXACT_GRID = {"quick": {"cases": ((0.1, 1, 5, 8.0), (10.0, 1, 5, 8.0), (0.1, 2, 4, 8.0)), "seeds": 2},
              "paper": {"cases": ((0.1, 1, 7, 8.0), (10.0, 1, 7, 8.0), (0.1, 2, 5, 8.0), (10.0, 2, 5, 8.0),
                                  (1.0, 3, 7, 64.0), (0.01, 1, 7, 64.0)), "seeds": 4}}


def exact_specs(profile: str) -> list[RunSpec]:
    grid = EXACT_GRID[profile]
    return [RunSpec("fedclup.exact", ExactConfig(kappa=kappa, lam=lam, batch=b, local_steps=k, profile=profile), seed,
                    run_exact)
            for lam, b, k, kappa in grid["cases"] for seed in range(grid["seeds"])]


def work(config: dict) -> float:
    """Sequences times steps (the cost model of :mod:`repro.costs`, given the stored config)."""
    c = ExactConfig.from_dict(config)
    return c.sequences() * c.local_steps
