"""The papers' mathematics, sympy only and importing nothing of ``repro``: one package per paper, ``bounds.<key>``
(``claims``: the encoded results; ``findings``: what its symbolic audit finds; ``proofs``: the inventory of its
displayed proof steps; ``steps``: those displays encoded for the falsification search), and the machinery they share
(``core``, ``audit``, ``proofs``, ``steps``). A paper's interface (``repro.papers.<key>.paper``) names its parts.

A paper kept outside this tree (``REPRO_PAPERS_PATH``, :mod:`repro.papers`) keeps its mathematics package in a
folder ``bounds`` beside its paper packages: ``<dir>/bounds`` of every directory named in ``REPRO_PAPERS_PATH`` is
searched like this one. This file is part of every run's code fingerprint; keep it to these lines.
"""
import os

__path__ += [os.path.join(d, "bounds") for d in os.environ.get("REPRO_PAPERS_PATH", "").split(os.pathsep)  # noqa: F821
             if d and os.path.isdir(os.path.join(d, "bounds"))]
