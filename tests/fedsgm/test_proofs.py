"""FedSGM's inventory of displayed proof steps (bounds.fedsgm_proofs): every id a display names resolves to a check
the suite has, every printed proof has displays, labels are unique within a proof, and coverage() counts them."""
from __future__ import annotations

import functools

import pytest

from bounds import fedsgm as B
from bounds.fedsgm_proofs import DISPLAYS, PROOFS
from bounds.proofs import Display, coverage


@functools.cache
def _finding_ids() -> frozenset:
    from repro.papers.fedsgm import audit
    return frozenset(f.id for f in audit.findings({}))


def _run_check_ids() -> frozenset:
    """Per-run checks that are not claims of the paper (the server step of Algorithm 1)."""
    from repro.papers.fedsgm.checks import SERVER_STEP
    return frozenset({SERVER_STEP.id})


def resolves(check_id: str) -> bool:
    """A claim id, "<claim id>#<step label>" naming one of that claim's steps, a finding id or a per-run check id."""
    claims = {c.id: c for c in B.CLAIMS}
    if "#" in check_id:
        cid, label = check_id.split("#", 1)
        return cid in claims and label in {lbl for lbl, _ in claims[cid].steps}
    return check_id in claims or check_id in _finding_ids() or check_id in _run_check_ids()


def test_every_checked_by_id_resolves():
    unresolved = sorted({(d.proof, d.label, cid) for d in DISPLAYS for cid in d.checked_by if not resolves(cid)})
    assert not unresolved


@pytest.mark.parametrize("bad", ["fedsgm.lemma33", "fedsgm.lemma3#Jensen", "fedsgm.lemma3#||nu|| <= g",
                                 "fedsgm.eps.mins", "fedsgm.nosuch#||nu|| <= G", "fedsgm.algorithm1.server"])
def test_a_typo_in_an_id_does_not_resolve(bad):
    assert not resolves(bad)


def test_every_printed_proof_has_displays_in_the_paper_order():
    seen = list(dict.fromkeys(d.proof for d in DISPLAYS))
    assert seen == list(PROOFS)
    assert len(PROOFS) == 7


def test_labels_are_unique_within_each_proof():
    for proof in PROOFS:
        labels = [d.label for d in DISPLAYS if d.proof == proof]
        assert len(labels) == len(set(labels)), proof


def test_displays_are_well_formed():
    for d in DISPLAYS:
        assert isinstance(d, Display)
        assert d.label and d.says and len(d.says) <= 60 and d.says.isascii(), d
        assert len(set(d.checked_by)) == len(d.checked_by), d


def test_coverage_counts_match_the_inventory():
    rows = coverage(DISPLAYS)
    assert [r[0] for r in rows] == list(PROOFS)
    for proof, checked, shown in rows:
        mine = [d for d in DISPLAYS if d.proof == proof]
        assert shown == len(mine) and checked == sum(bool(d.checked_by) for d in mine)
        assert 0 <= checked <= shown
    assert sum(r[2] for r in rows) == len(DISPLAYS)


def test_the_numbered_displays_of_the_proofs_are_all_listed():
    """Every equation number the appendix proofs print, (4)-(8), (10)-(15), (17)-(18), stands in the inventory
    ((9) and (16) are in the statements of Theorems 7 and 9, not in a proof)."""
    labels = {d.label.split(" line")[0] for d in DISPLAYS}
    assert {f"({k})" for k in (4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 17, 18)} <= labels
