"""Proof-step coverage (bounds.proofs): counts per proof, and the detail page's table naming the unchecked steps."""
from bounds.proofs import Display, coverage


def test_coverage_counts_checked_and_displayed_steps_per_proof_in_order(monkeypatch):
    displays = (Display("Proof of Lemma 1", "(5)", "a <= b", ("x.lemma1",)), Display("Proof of Lemma 1", "(6)", "b <= c"),
                Display("Proof of Theorem 2", "(9)", "c <= d", ("x.thm2", "x.f")))
    assert coverage(displays) == [("Proof of Lemma 1", 1, 2), ("Proof of Theorem 2", 1, 1)]
    from repro import pages
    monkeypatch.setattr(pages, "proof_displays", lambda paper: displays)
    text = "\n".join(pages.proof_coverage_lines("fedsgm"))
    assert "2 of 3 displayed proof steps are checked" in text
    assert "| Proof of Lemma 1 | 1 of 2 | (6) |" in text and "| Proof of Theorem 2 | 1 of 1 | -- |" in text


def test_a_paper_without_an_inventory_says_why():
    from repro.pages import proof_coverage_lines
    assert "mathematics is stripped" in "\n".join(proof_coverage_lines("fedclup"))
