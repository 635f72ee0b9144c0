"""mini-batch SSCA's interface: everything the shared layers read from this paper, in one record (:class:`repro.paper.Paper`).
The audit, the errata, the printed settings and the proof machinery are loaded only when a command needs them.

**Exact enumeration.** ``ssca.exact`` enumerates every minibatch pattern of tiny instances (each B-subset per client
and iteration, scripted into the suite's Algorithm 1) and counts the failures of Lemma 4 (51) in a
``repro.scripted.FailureCount`` (also with L_hat halved). Its checks run in its audit on traces rebuilt from the
cached arrays.

**Sentences.** The checkable sentences of the remarks, discussion and Section VI (:mod:`.sentences`) are decided by
the claims, the figure statements and the findings; those of the remarks and discussion mostly by the symbolic
findings of :mod:`bounds.ssca.remarks` and :mod:`bounds.ssca.boundaries`.
"""
from __future__ import annotations

from bounds.ssca.claims import CLAIMS
from repro.paper import Paper
from repro.papers.ssca.experiments import EXPERIMENTS

TITLE = "Mini-batch SSCA: sample- and feature-based federated learning by successive convex approximation"
#: who wrote it and where it appeared (the report's summary card and the README)
CITATION = ("C. Ye et al., <em>Sample-based and Feature-based Federated Learning via Mini-batch SSCA</em>, "
            "[arXiv:2104.06011](https://arxiv.org/abs/2104.06011) (v1)")
ORDER = 4   # position in listings and in the audit


def _audit():
    from repro.papers.ssca import audit
    return audit


def _errata():
    from repro.papers.ssca import errata
    return errata


def _settings():
    from repro.papers.ssca.settings import PRINTED
    return PRINTED


def _proofs():
    from bounds.ssca import proofs
    return proofs


def _steps():
    from bounds.ssca.steps import STEPS
    return STEPS


def _sentences():
    from repro.papers.ssca.sentences import SENTENCES
    return SENTENCES


PAPER = Paper(key="ssca", title=TITLE, claims=CLAIMS, experiments=EXPERIMENTS, order=ORDER, citation=CITATION,
              audit=_audit, errata=_errata, settings=_settings, proofs=_proofs, steps=_steps,
              sentences=_sentences)
