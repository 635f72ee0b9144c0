"""PC-FedAvg's interface: everything the shared layers read from this paper, in one record (:class:`repro.paper.Paper`).
The audit, the errata, the printed settings and the proof machinery are loaded only when a command needs them.

**Exact enumeration.** ``pcfedavg.exact`` runs every path of Rademacher oracle noise (unbiased, variance nu^2, so
Assumption 3.2 holds with the same constants) as the replicates of one lockstep run (``repro.scripted.SignPaths``):
the claims in expectation are judged on exact expectations (never inconclusive), and the pathwise Lemma 4.4 gets its
exact failure probability.
"""
from __future__ import annotations

from bounds.pcfedavg.claims import CLAIMS
from repro.paper import Paper
from repro.papers.pcfedavg.experiments import EXPERIMENTS

TITLE = "PC-FedAvg: personalized constrained federated averaging"
#: who wrote it and where it appeared (the report's summary card and the README)
CITATION = ("M. Ebrahimi, D. Burbano, F. Yousefian, <em>On Performance Guarantees for Federated Learning with Personalized "
            "Constraints</em>, [arXiv:2603.19617](https://arxiv.org/abs/2603.19617) (v1)")
ORDER = 2   # position in listings and in the audit


def _audit():
    from repro.papers.pcfedavg import audit
    return audit


def _errata():
    from repro.papers.pcfedavg import errata
    return errata


def _settings():
    from repro.papers.pcfedavg.settings import PRINTED
    return PRINTED


def _proofs():
    from bounds.pcfedavg import proofs
    return proofs


def _steps():
    from bounds.pcfedavg.steps import STEPS
    return STEPS


def _sentences():
    from repro.papers.pcfedavg.sentences import SENTENCES
    return SENTENCES


PAPER = Paper(key="pcfedavg", title=TITLE, claims=CLAIMS, experiments=EXPERIMENTS, order=ORDER, citation=CITATION,
              audit=_audit, errata=_errata, settings=_settings, proofs=_proofs, steps=_steps,
              sentences=_sentences)
