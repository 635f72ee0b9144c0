"""FedSGM's inventory of displayed proof steps (bounds.fedsgm.proofs): every id a display names resolves to a check
the suite has, every printed proof has displays, labels are unique within a proof, and coverage() counts them."""
from __future__ import annotations

import functools

import pytest

from bounds.fedsgm import claims as B
from bounds.fedsgm.proofs import DISPLAYS, PROOFS
from bounds.proofs import problems, resolve, unresolved


@functools.cache
def _finding_ids() -> frozenset:
    from repro.papers.fedsgm import audit
    return frozenset(f.id for f in audit.findings({}))


def _run_check_ids() -> frozenset:
    """Per-run checks that are not claims of the paper (the server step of Algorithm 1)."""
    from repro.papers.fedsgm.checks import SERVER_STEP
    return frozenset({SERVER_STEP.id})


def _resolve(check_id: str) -> str:
    """A claim id, "<claim id>#<step label>" naming one of that claim's steps, a finding id or a per-run check id."""
    return resolve(check_id, {c.id: c for c in B.CLAIMS}, _finding_ids(), others=_run_check_ids())


def resolves(check_id: str) -> bool:
    try:
        _resolve(check_id)
    except KeyError:
        return False
    return True


def test_every_checked_by_id_resolves():
    assert not unresolved(DISPLAYS, _resolve)


@pytest.mark.parametrize("bad", ["fedsgm.lemma33", "fedsgm.lemma3#Jensen", "fedsgm.lemma3#||nu|| <= g",
                                 "fedsgm.eps.mins", "fedsgm.nosuch#||nu|| <= G", "fedsgm.algorithm1.server"])
def test_a_typo_in_an_id_does_not_resolve(bad):
    assert not resolves(bad)


def test_the_inventory_has_the_seven_proofs_of_the_appendix():
    assert len(PROOFS) == 7 and not problems(DISPLAYS, PROOFS)


def test_the_numbered_displays_of_the_proofs_are_all_listed():
    """Every equation number the appendix proofs print, (4)-(8), (10)-(15), (17)-(18), stands in the inventory
    ((9) and (16) are in the statements of Theorems 7 and 9, not in a proof)."""
    labels = {d.label.split(" line")[0] for d in DISPLAYS}
    assert {f"({k})" for k in (4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 17, 18)} <= labels
