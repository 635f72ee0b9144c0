"""Proof-step coverage: every displayed step of every proof a paper prints, and which of them the suite checks.

A paper's inventory (``bounds.<paper>_proofs.DISPLAYS``) lists, proof by proof and in the paper's order, every
displayed step (an equation or inequality set apart from the text, numbered or not) as a :class:`Display`: where it
stands, the paper's label or position, a few characters of what it says, and the ids of what checks it -- an encoded
claim, a proof-step row or a finding (empty when nothing does yet). :func:`coverage` computes steps checked / steps
displayed per proof; the report prints it.

The inventory is data read from the paper (the one part a person must type), so it holds no verdict: whether a step
follows is decided by the checks its ``checked_by`` ids name. Assumption, named: a display that only restates an
earlier one (the same relation, renumbered) is listed once, at its first appearance.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Display:
    """One displayed step of a proof: ``proof`` (e.g. "Proof of Theorem 6, Appendix A.2"), ``label`` (the paper's
    equation number, or the position "display 3 after (5)"), ``says`` (a few words or symbols of it, for a reader to
    find it), ``checked_by`` (ids of the encoded claims, proof-step rows or findings that check it)."""

    proof: str
    label: str
    says: str
    checked_by: tuple[str, ...] = ()


def coverage(displays: Iterable[Display]) -> list[tuple[str, int, int]]:
    """``(proof, steps checked, steps displayed)`` per proof, in the order the proofs first appear."""
    out: dict[str, list[int]] = {}
    for d in displays:
        row = out.setdefault(d.proof, [0, 0])
        row[0] += bool(d.checked_by)
        row[1] += 1
    return [(proof, checked, shown) for proof, (checked, shown) in out.items()]


__all__ = ["Display", "coverage"]
