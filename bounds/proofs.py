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
from typing import Iterable, Mapping, Sequence


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


def problems(displays: Sequence[Display], proofs: Sequence[str]) -> list[str]:
    """What is malformed in an inventory (empty when nothing is): a display that is not a :class:`Display`, names a
    proof not in ``proofs``, has no label, a ``says`` that is empty, longer than 60 characters or not ASCII, or a
    repeated ``checked_by`` id; proofs not all present, not in the paper's order or not contiguous; a label repeated
    within a proof."""
    out = [f"not well formed: {d!r}" for d in displays if not isinstance(d, Display) or d.proof not in proofs
           or not d.label or not d.says or len(d.says) > 60 or not d.says.isascii()
           or not isinstance(d.checked_by, tuple) or len(set(d.checked_by)) != len(d.checked_by)]
    runs = [d.proof for i, d in enumerate(displays) if i == 0 or displays[i - 1].proof != d.proof]
    if runs != list(proofs):
        out.append(f"proofs not each present once, contiguous and in the paper's order: {runs}")
    for proof in proofs:
        labels = [d.label for d in displays if d.proof == proof]
        out += [f"{proof}: label {label} repeated" for label in sorted({x for x in labels if labels.count(x) > 1})]
    return out


def resolve(check_id: str, claims: Mapping, findings: Iterable[str] = (), *, others: Iterable[str] = (),
            rows: Mapping[str, Sequence[str]] | None = None) -> str:
    """What a ``checked_by`` id names -- "claim", "claim step" (``<claim id>#<step label>``), "finding", "check"
    (one of ``others``) or "row" (``<table>#<label>`` naming exactly one row of ``rows[table]``, a list of labels) --
    or KeyError when it names nothing (or more than one row). ``claims`` maps claim ids to claims."""
    if "#" in check_id:
        head, _, label = check_id.partition("#")
        if rows is not None and head in rows:
            hits = list(rows[head]).count(label)
            if hits == 1:
                return "row"
            raise KeyError(f"{check_id!r}: {hits} rows of {head} have the label {label!r} (one is needed)")
        if head in claims and label in {lab for lab, _ in claims[head].steps}:
            return "claim step"
        raise KeyError(f"{check_id!r}: neither a row of a step table nor a step of a claim")
    for kind, ids in (("claim", claims), ("finding", set(findings)), ("check", set(others))):
        if check_id in ids:
            return kind
    raise KeyError(f"{check_id!r} is neither a claim, a finding nor a check of the paper")


def unresolved(displays: Iterable[Display], resolver) -> list[str]:
    """``proof label: reason`` for every ``checked_by`` id that ``resolver`` (raising KeyError) does not resolve."""
    out = []
    for d in displays:
        for check_id in d.checked_by:
            try:
                resolver(check_id)
            except KeyError as exc:
                out.append(f"{d.proof} {d.label}: {exc}")
    return out


__all__ = ["Display", "coverage", "problems", "resolve", "unresolved"]
