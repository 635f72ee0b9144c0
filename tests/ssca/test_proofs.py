"""SSCA proof-step inventory (bounds.ssca.proofs): every ``checked_by`` id names something the suite really has, the
inventory is well formed, and coverage() counts what the inventory says."""
import functools

import pytest

from bounds.ssca import claims as B
from bounds.proofs import coverage, problems, resolve, unresolved
from bounds.ssca.proofs import DISPLAYS, PROOFS


@functools.cache
def _finding_ids() -> frozenset:
    from repro.papers.ssca import audit
    return frozenset(f.id for f in audit.findings({}))


def _resolve(check_id: str) -> str:
    """What ``check_id`` names: "claim", "claim step" or "finding"; KeyError when it names nothing."""
    return resolve(check_id, {c.id: c for c in B.CLAIMS}, _finding_ids())


def test_every_checked_by_id_resolves():
    assert not unresolved(DISPLAYS, _resolve)


@pytest.mark.parametrize("typo", ["ssca.lemma7", "ssca.lemma1.derivaton", "ssca.lemma4#(53) step 1", "lemma1"])
def test_a_typo_in_an_id_does_not_resolve(typo):
    with pytest.raises(KeyError):
        _resolve(typo)


def test_the_kinds_of_check_used():
    kinds = {_resolve(c) for d in DISPLAYS for c in d.checked_by}
    assert kinds == {"claim", "finding"}          # no SSCA claim has proof steps


def test_the_inventory_is_well_formed():
    assert not problems(DISPLAYS, PROOFS)


def test_coverage_as_inventoried():
    """The inventory as read from the paper (a change to it must be deliberate)."""
    assert coverage(DISPLAYS) == [
        ("Proof of Lemma 2 (Appendix A)", 2, 2),
        ("Proof of Lemma 3 (Appendix A)", 3, 9),
        ("Proof of Lemma 4 (Appendix A)", 1, 7),
        ("Proof of Theorems 1 and 3 (Appendix A)", 2, 29),
        ("Proof of Lemma 5 (Appendix B)", 3, 3),
        ("Proof of Lemma 6 (Appendix B)", 2, 3),
        ("Proof of Theorems 2 and 4 (Appendix B)", 0, 6),   # with the sentence after (73)
        ("Proof of Lemma 1 (Appendix C)", 6, 9),
        ("Proof of Theorem 5 (Appendix D)", 1, 4),
    ]


def test_every_numbered_display_of_the_appendices_is_listed():
    """(43)-(75) are all displays of the appendix proofs; each appears as a label (alone or with a step suffix)."""
    labels = " ".join(d.label for d in DISPLAYS)
    missing = [n for n in range(43, 76) if f"({n})" not in labels and f"({n}a)" not in labels]
    assert not missing, missing


def test_the_encoded_appendix_claims_are_linked_to_their_displays():
    linked = {c for d in DISPLAYS for c in d.checked_by}
    for claim_id in ("ssca.lemma1", "ssca.lemma2", "ssca.lemma3", "ssca.lemma4", "ssca.appA.delta1", "ssca.lemma5",
                     "ssca.lemma6",
                     "ssca.thm1", "ssca.thm3", "ssca.thm5.i"):
        assert claim_id in linked, claim_id
    assert {"ssca.lemma1.derivation", "ssca.thm5.algebra"} <= linked
