"""Mini-batch SSCA's displayed proof steps, checked (experiment ``ssca.steps``, one run per proof): the steps encoded in
:data:`bounds.ssca.steps.STEPS`, each proven by sympy or falsification-searched (:mod:`repro.proof_search`).
The list is imported inside the functions (building its sympy expressions takes a noticeable part of a second, and
listing the experiments must stay quick); the import still makes it part of every run's code fingerprint (found
statically), so editing a step reruns the proofs' runs."""
from __future__ import annotations

from repro import proof_search
from repro.proof_search import StepsConfig
from repro.runner import RunSpec


def steps_specs(profile: str) -> list[RunSpec]:
    from bounds.ssca.steps import STEPS
    return proof_search.specs("ssca.steps", run_steps, STEPS, profile)


def run_steps(config: StepsConfig, seed: int):
    """The steps of one proof (``config.proof``); deterministic, so ``seed`` is unused."""
    from bounds.ssca.steps import STEPS
    return proof_search.run(STEPS, config)
