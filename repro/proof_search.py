"""Proof-step checks as cached runs (experiment ``<paper>.steps``, one run per proof); what the audit reads from them
is in :mod:`repro.proof_audit`.

A paper lists its encoded steps in ``bounds.<paper>_steps.STEPS`` (:class:`bounds.steps.Step`); its run module
``repro.papers.<paper>.runs.steps`` imports that list (so that editing a step reruns its proof's run) and calls
:func:`run`. Each run checks the steps of one proof with :func:`bounds.steps.check` at the profile's budget
(:data:`BUDGET`): symbolic proof, else a derandomized hypothesis search plus Nelder-Mead. The rows (one per step:
status, method, closest approach or the violating instance) are the run's metadata.

"""
from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass
from typing import Callable

import numpy as np

from bounds.steps import NOT_REFUTED, PROVEN, REFUTED, check

from . import admissible
from .errors import require
from .experiment import Config
from .runner import RunSpec

#: hypothesis examples and Nelder-Mead evaluations per step
BUDGET = {"quick": {"examples": 100, "polish": 100}, "paper": {"examples": 2000, "polish": 2000}}
STATUS_CODES = {PROVEN: 0, NOT_REFUTED: 1, REFUTED: 2}


@dataclass(frozen=True, kw_only=True)
class StepsConfig(Config):
    """One ``<paper>.steps`` run: the steps of one ``proof``, each searched with ``examples`` hypothesis points and
    ``polish`` Nelder-Mead evaluations, by the ``hypothesis`` version installed (:func:`hypothesis_version`)."""

    proof: str
    examples: int
    polish: int
    hypothesis: str
    profile: str

    def __post_init__(self) -> None:
        admissible.integer("examples", self.examples, 1, "hypothesis examples per step")
        admissible.integer("polish", self.polish, 0, "Nelder-Mead evaluations per step")
        require(self.hypothesis == hypothesis_version(), "hypothesis", self.hypothesis,
                f"the installed hypothesis version {hypothesis_version()} (the search's draws depend on it)")


def hypothesis_version() -> str:
    """The installed hypothesis version: part of a step run's config, so that the cache key of these runs (and only
    of these: other runs do not use hypothesis) changes with it."""
    return importlib.metadata.version("hypothesis")


def specs(experiment: str, function: Callable, steps, profile: str) -> list[RunSpec]:
    """One run per proof that has encoded steps, in the paper's order, each of ``function`` (the paper's run
    function, which imports its steps so that editing one reruns its proof)."""
    proofs = dict.fromkeys(s.proof for s in steps)
    return [RunSpec(experiment, StepsConfig(proof=p, profile=profile, hypothesis=hypothesis_version(),
                                            **BUDGET[profile]).as_dict(), 0, function) for p in proofs]


def run(steps, cfg: StepsConfig):
    """Check every step of ``cfg.proof``: arrays (status code, largest relative violation, points evaluated)
    and the rows (:meth:`bounds.steps.StepCheck.as_row`) as metadata."""
    chosen = [s for s in steps if s.proof == cfg.proof]
    if not chosen:
        raise ValueError(f"proof: {cfg.proof!r} has no encoded steps")
    checks = [check(s, cfg.examples, cfg.polish) for s in chosen]
    arrays = {"status": np.array([STATUS_CODES[c.status] for c in checks]),
              "worst": np.array([c.worst for c in checks], dtype=float),     # nan: proven (nothing searched)
              "evaluations": np.array([c.evaluations for c in checks])}
    return arrays, {"rows": [c.as_row() for c in checks]}


__all__ = ["BUDGET", "StepsConfig", "hypothesis_version", "run", "specs"]
