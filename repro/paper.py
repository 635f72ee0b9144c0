"""The paper interface: everything the shared layers (command line, report, pages, cards, HTML site, errata) read
from a paper, declared in one record, :class:`Paper`, which each paper package exports as ``PAPER`` from its
module ``paper`` (``repro.papers.<key>.paper``; :mod:`repro.registry` finds it).

Required: ``key``, ``title``, ``claims`` (the encoded results, :class:`bounds.core.Claim`, from the paper's
mathematics package ``bounds.<key>``), ``experiments`` (:class:`repro.experiment.Experiment`) and ``audit``, a
zero-argument loader of the module that rolls evidence up into verdicts: ``AUDIT_EXPERIMENTS`` (the experiments whose
results it reads), ``verdicts(results)``, ``audit_section(results, profile, verdicts) -> str``, and optionally
``findings(results)`` (:class:`bounds.audit.Finding`) and ``STATEMENTS`` (the figure and text statements it decides
besides the claims); every command that reports on all papers needs it. The other parts are optional, each a
zero-argument loader too, so that listing the papers imports none of their audits or proof machinery:

* ``errata`` -> the module declaring the paper's errata (:mod:`repro.errata`);
* ``settings`` -> the printed settings (:class:`repro.settings_audit.Printed`);
* ``proofs`` -> the inventory of displayed proof steps (a module with ``DISPLAYS``, or with ``NO_INVENTORY``, the
  reason there is none);
* ``steps`` -> the displayed steps encoded for the falsification search (:class:`bounds.steps.Step`);
* ``sentences`` -> the checkable sentences of its remarks, discussion and experiments (:class:`repro.coverage.Sentence`).

A shared layer reads an optional part through the methods below, which give the part's empty value when the
paper declares none. A record without its audit, or with a part that is not a loader, is refused when it is built,
in one line (:class:`~repro.errors.ConfigError`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import ModuleType
from typing import Callable

from .errors import ConfigError

#: the optional parts, each a zero-argument loader (module docstring)
OPTIONAL_PARTS = ("errata", "settings", "proofs", "steps", "sentences")


@dataclass(frozen=True)
class Paper:
    key: str
    title: str
    claims: tuple
    experiments: tuple
    audit: Callable[[], ModuleType]
    order: int = 1000                    # position in listings and in the audit
    citation: str = ""                   # who wrote it and where it appeared (HTML allowed: <em>)
    copy_note: str = ""                  # what a reader of its page must know about the paper copy read, said once
    errata: Callable[[], ModuleType] | None = None
    settings: Callable[[], tuple] | None = None
    proofs: Callable[[], ModuleType] | None = None
    steps: Callable[[], tuple] | None = None
    sentences: Callable[[], tuple] | None = None

    def __post_init__(self) -> None:
        if not callable(self.audit):
            raise ConfigError(f"audit of paper {self.key!r} is not admissible: a zero-argument loader of its audit")
        for name in OPTIONAL_PARTS:
            loader = getattr(self, name)
            if loader is not None and not callable(loader):
                raise ConfigError(f"{name} of paper {self.key!r} is not admissible: a zero-argument loader or None")

    # --- the optional parts, each with its empty value -------------------------------------------------------
    def findings(self, results) -> list:
        """The audit's findings on ``results`` ([] without an audit or without findings)."""
        audit = self.audit()
        return list(audit.findings(results)) if hasattr(audit, "findings") else []

    def statements(self) -> tuple:
        """The figure and text statements the audit decides besides the claims (() without)."""
        return tuple(getattr(self.audit(), "STATEMENTS", ()))

    def audit_experiments(self) -> tuple:
        return tuple(self.audit().AUDIT_EXPERIMENTS)

    def errata_module(self) -> ModuleType | None:
        return self.errata() if self.errata else None

    def printed_settings(self) -> tuple:
        return tuple(self.settings()) if self.settings else ()

    def encoded_steps(self) -> tuple:
        return tuple(self.steps()) if self.steps else ()

    def checkable_sentences(self) -> tuple:
        return tuple(self.sentences()) if self.sentences else ()

    def proof_displays(self) -> tuple:
        """The inventory of displayed proof steps, () without one; a display encoded as a step (same proof and
        label) is checked by it: ``"steps#<label>"`` is added to its ``checked_by``."""
        displays = getattr(self.proofs(), "DISPLAYS", ()) if self.proofs else ()
        encoded = {(s.proof, s.label) for s in self.encoded_steps()}
        return tuple(dataclasses.replace(d, checked_by=d.checked_by + (f"steps#{d.label}",))
                     if (d.proof, d.label) in encoded else d for d in displays)

    def no_inventory_reason(self) -> str:
        """Why the paper has no inventory of its displayed proof steps."""
        module = self.proofs() if self.proofs else None
        return getattr(module, "NO_INVENTORY", "no inventory of the displayed proof steps yet")

    def locations(self) -> dict:
        """claim or statement id -> where the paper states it (a statement id that is also a claim id: ValueError)."""
        claims, statements = {c.id: c.location for c in self.claims}, {s.id: s.location for s in self.statements()}
        if set(claims) & set(statements):
            raise ValueError(f"ids of paper {self.key!r} both a claim and a statement: {sorted(set(claims) & set(statements))}")
        return claims | statements
