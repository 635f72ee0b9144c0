"""FedSGM's interface: everything the shared layers read from this paper, in one record (:class:`repro.paper.Paper`).
The audit, the errata, the printed settings and the proof machinery are loaded only when a command needs them.

**Exact enumeration.** ``fedsgm.exact`` enumerates every Rand-K selection pattern of tiny instances: the exact
probability that a deterministically stated theorem (1, 2, 6, 7) fails, counted in a ``repro.scripted.FailureCount``
per claim.

**Sentence coverage.** ``sentences.py`` lists every checkable sentence of the discussion after Theorem 2 (the
paper's remarks), Section 3, the Abstract, Contributions and Conclusion, and Section 4.1 with Figure 1's caption;
the ones no numbered result decides are decided by the symbolic findings of ``bounds.fedsgm.remarks`` (limits,
directions, hard against soft switching, communication, the data split, one fact printed in two places), wired as
statements of the audit; ``bounds.fedsgm.boundaries`` evaluates the theorems' prescriptions at their parameters'
boundary values.
"""
from __future__ import annotations

from bounds.fedsgm.claims import CLAIMS
from repro.paper import Paper
from repro.papers.fedsgm.experiments import EXPERIMENTS

TITLE = "FedSGM: switching gradient methods for constrained federated learning with compression"
#: who wrote it and where it appeared (the report's summary card and the README)
CITATION = ("A. Upadhyay, S. B. Moon, A. Hashemi, <em>Switching Gradient Methods for Constrained Federated Optimization</em>, "
            "OPT 2025 workshop ([OpenReview 6EYfBqewZx](https://openreview.net/forum?id=6EYfBqewZx))")
ORDER = 1   # position in listings and in the audit


def _audit():
    from repro.papers.fedsgm import audit
    return audit


def _errata():
    from repro.papers.fedsgm import errata
    return errata


def _settings():
    from repro.papers.fedsgm.settings import PRINTED
    return PRINTED


def _proofs():
    from bounds.fedsgm import proofs
    return proofs


def _steps():
    from bounds.fedsgm.steps import STEPS
    return STEPS


def _sentences():
    from repro.papers.fedsgm.sentences import SENTENCES
    return SENTENCES


PAPER = Paper(key="fedsgm", title=TITLE, claims=CLAIMS, experiments=EXPERIMENTS, order=ORDER, citation=CITATION,
              audit=_audit, errata=_errata, settings=_settings, proofs=_proofs, steps=_steps,
              sentences=_sentences)
