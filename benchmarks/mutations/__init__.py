"""The planted faults of ``benchmarks/bench_mutation.py``, one module per paper and one for the deciding machinery.

Each :class:`Mutation` replaces one exact text (``old``, found exactly once in ``path``) by ``new``: a constant of a
bound, a step of an algorithm, a search or enumeration weakened, a verdict rule inverted. ``tests`` are the pytest
ids that should notice it; for a bound's constant, ``computing`` are the ones that notice it by computing (runs,
searches, exact enumeration, performance estimation) rather than by a typed value or a statement-versus-proof
derivation, and they run first.
"""
from __future__ import annotations

from dataclasses import dataclass

KINDS = ("bound constant", "algorithm", "search or enumeration", "deciding machinery")


@dataclass(frozen=True)
class Mutation:
    name: str
    kind: str
    where: str             # the paper's own numbering, or the machinery's function
    path: str              # relative to the project root
    old: str
    new: str
    tests: tuple[str, ...] = ()
    computing: tuple[str, ...] = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"mutation {self.name}: kind {self.kind!r} (allowed: {', '.join(KINDS)})")
        if self.old == self.new or not (self.tests or self.computing):
            raise ValueError(f"mutation {self.name}: changes nothing or names no test")


from . import fedclup, fedsgm, machinery, pcfedavg, ssca  # noqa: E402  (they use Mutation)

MUTATIONS: list[Mutation] = fedsgm.FAULTS + pcfedavg.FAULTS + fedclup.FAULTS + ssca.FAULTS + machinery.FAULTS
if len({m.name for m in MUTATIONS}) != len(MUTATIONS):
    raise ValueError("two planted faults share a name")
