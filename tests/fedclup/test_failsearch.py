"""FedCLUP has no claim for a failure-probability search (repro.papers.fedclup.runs.failsearch): its claims about the
randomized Algorithm 2 are in expectation (Lemma 7) or an order (Theorem 3); the computation would list one stated
deterministically or with a probability."""
import dataclasses

from bounds.core import Mode
from bounds.fedclup import claims as B
from repro.papers.fedclup.runs import failsearch as F


def test_no_claim_about_algorithm2_is_stated_for_every_run():
    assert F.searchable_claims() == ()


def test_a_claim_about_algorithm2_stated_for_every_run_would_be_searched():
    for mode in F.SEARCHABLE_MODES:
        claims = tuple(dataclasses.replace(c, mode=mode) if c.id == "fedclup.lemma7" else c for c in B.CLAIMS)
        assert F.searchable_claims(claims) == ("fedclup.lemma7",)


def test_a_deterministic_claim_about_algorithm1_is_not_searched():
    """Theorem 2 is stated deterministically, but Algorithm 1 (full batch) draws nothing."""
    assert B.claim("fedclup.thm2").mode is Mode.DETERMINISTIC and "fedclup.thm2" not in F.searchable_claims()


def test_the_listed_claims_are_the_mini_batch_algorithms():
    for cid in F.ALGORITHM2_CLAIMS:
        c = B.claim(cid)
        assert "batch" in (c.statement + c.notes).lower() and "Appendix B.5" in c.location
