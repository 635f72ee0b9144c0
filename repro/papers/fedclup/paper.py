"""FedCLUP's interface: everything the shared layers read from this paper, in one record (:class:`repro.paper.Paper`).
The audit, the errata, the printed settings and the proof machinery are loaded only when a command needs them.

**Exact enumeration.** ``fedclup.exact`` judges Lemma 7 on its exact expectation over every mini-batch sequence
(``repro.scripted.ScriptedKeys``).

**The authors' code against the paper** (the one paper of the four with public code). The suite's synthetic runs
follow what the authors' code executes; ``fedclup.readings`` runs Figure 4's sweep both as the code executes it
(server: mean of all stored models; R a per-entry standard deviation; L = 9.13; unsquared error) and as the paper
reads ((12) with gamma = 1/L_F; R the radius of (5); L by the printed formula; squared error); the code's
GlobalTrain and LocalTrain are ``fedclup.figure4``'s own runs, which use neither the server rule nor L. Each of the
paper's statements about Figure 4 decided under both readings is a finding of kind "code"
(``fedclup.code.readings.*``): a discrepancy where one reading supports it and the other violates it.
``fedclup.readings_fig23`` does the same for Figures 2 and 3 (their own runs use the code's server rule and R with
the paper's L, which enters FedCLUP's local step, so FedCLUP runs under both full readings there; the code's
baselines are ``fedclup.figure3``'s). Figure 6 runs both server rules on the same data, and its statement is decided
under each (``fedclup.code.server.figure6.*``).
"""
from __future__ import annotations

from bounds.fedclup.claims import CLAIMS
from repro.paper import Paper
from repro.papers.fedclup.experiments import EXPERIMENTS

TITLE = "FedCLUP: statistical accuracy vs communication in personalized federated learning"
#: who wrote it and where it appeared (the report's summary card and the README)
CITATION = ("X. Yu, Z. He, Y. Sun, L. Xue, R. Li, <em>Understanding the Statistical Accuracy-Communication Trade-off in "
            "Personalized Federated Learning with Minimax Guarantees</em>, ICML 2025, "
            "[arXiv:2410.08934](https://arxiv.org/abs/2410.08934) (v4)")
ORDER = 3   # position in listings and in the audit
#: said once at the top of the report page, whose quotations fill the stripped symbols
COPY_NOTE = ("The copy of this paper the suite reads has its mathematics stripped: the prose survives, the displays "
             "and most inline symbols do not. In quotations on this page, a symbol in square brackets (\"[lam]\", "
             "\"[R -> oo]\") is the suite's reconstruction of a stripped symbol from the surrounding prose; \"[..]\" "
             "marks a stripped formula left unfilled, and \"[...]\" words or table cells the quotation leaves out (or "
             "a stripped expression, where the words around it say so). The brackets are not the paper's.")


def _audit():
    from repro.papers.fedclup import audit
    return audit


def _errata():
    from repro.papers.fedclup import errata
    return errata


def _settings():
    from repro.papers.fedclup.settings import PRINTED
    return PRINTED


def _sentences():
    from repro.papers.fedclup.sentences import SENTENCES
    return SENTENCES


def _proofs():
    from bounds.fedclup import proofs
    return proofs


PAPER = Paper(key="fedclup", title=TITLE, claims=CLAIMS, experiments=EXPERIMENTS, order=ORDER, citation=CITATION,
              copy_note=COPY_NOTE, audit=_audit, errata=_errata, settings=_settings, proofs=_proofs, steps=None,
              sentences=_sentences)
