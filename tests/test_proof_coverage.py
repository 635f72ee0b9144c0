"""Proof-step coverage (bounds.proofs): counts per proof, and the detail page's table naming the unchecked steps."""
import pytest

from bounds.proofs import Display, coverage


def _with_paper(monkeypatch, displays, steps=()):
    """Make the shared layers see a paper "x" whose interface declares ``displays`` and ``steps``."""
    from types import SimpleNamespace
    from repro import registry
    from repro.paper import Paper
    record = Paper(key="x", title="X", claims=(), experiments=(), audit=SimpleNamespace,
                   proofs=lambda: SimpleNamespace(DISPLAYS=displays),
                   steps=(lambda: steps) if steps else None)
    monkeypatch.setattr(registry, "paper", lambda key: record)
    return record


def test_coverage_counts_checked_and_displayed_steps_per_proof_in_order(monkeypatch):
    displays = (Display("Proof of Lemma 1", "(5)", "a <= b", ("x.lemma1",)), Display("Proof of Lemma 1", "(6)", "b <= c"),
                Display("Proof of Theorem 2", "(9)", "c <= d", ("x.thm2", "x.f")))
    assert coverage(displays) == [("Proof of Lemma 1", 1, 2), ("Proof of Theorem 2", 1, 1)]
    from repro import pages
    _with_paper(monkeypatch, displays)
    text = "\n".join(pages.proof_coverage_lines("x"))
    assert "2 of 3 displayed proof steps are checked" in text
    assert "| Proof of Lemma 1 | 1 of 2 | 0 of 2 | (6) |" in text and "| Proof of Theorem 2 | 1 of 1 | 0 of 1 | -- |" in text


def test_a_display_encoded_as_a_step_is_checked_by_it_and_counted_as_encoded(monkeypatch):
    import sympy as sp
    from bounds.steps import Step
    from repro import pages
    a = sp.Symbol("a", positive=True)
    displays = (Display("Proof of Lemma 1", "(5)", "a <= b"), Display("Proof of Lemma 1", "(6)", "b <= c"))
    record = _with_paper(monkeypatch, displays, (Step("Proof of Lemma 1", "(6)", "x.lemma1", a, "<=", 2 * a,
                                                      {a: (1.0, 2.0)}),))
    assert [d.checked_by for d in record.proof_displays()] == [(), ("steps#(6)",)]
    text = "\n".join(pages.proof_coverage_lines("x"))
    assert "| Proof of Lemma 1 | 1 of 2 | 1 of 2 | (5) |" in text


@pytest.mark.parametrize("paper", ["fedsgm", "ssca"])
def test_every_encoded_step_is_a_display_of_the_inventory_and_names_a_claim_of_the_paper(paper):
    from repro.registry import paper as interface
    record = interface(paper)
    claims = {c.id for c in record.claims}
    displays = {(d.proof, d.label) for d in record.proofs().DISPLAYS}
    steps = record.encoded_steps()
    keys = [(s.proof, s.label, s.variant) for s in steps]          # a display once per side of an erratum
    assert steps and len(set(keys)) == len(keys)
    keys = [k[:2] for k in keys]
    assert [k for k in keys if k not in displays] == []
    assert [s.label for s in steps if not set(s.claims) <= claims] == []


def test_a_paper_without_an_inventory_says_why():
    from repro.pages import proof_coverage_lines
    assert "mathematics is stripped" in "\n".join(proof_coverage_lines("fedclup"))


def test_problems_sees_a_malformed_inventory():
    from bounds.proofs import problems
    good = (Display("P1", "(1)", "a <= b"), Display("P2", "(2)", "b <= c", ("x",)))
    assert problems(good, ("P1", "P2")) == []
    assert problems(good, ("P2", "P1"))                                             # order
    assert problems(good + (Display("P1", "(3)", "c"),), ("P1", "P2"))              # not contiguous
    assert problems((Display("P1", "(1)", "a"), Display("P1", "(1)", "b")), ("P1",))  # repeated label
    assert problems((Display("P1", "(1)", "x" * 61),), ("P1",))                     # says too long
    assert problems((Display("P1", "(1)", "a", ("x", "x")),), ("P1",))              # repeated id


def test_resolve_names_what_an_id_checks_and_refuses_a_typo():
    import pytest
    from types import SimpleNamespace
    from bounds.proofs import resolve, unresolved
    claims = {"p.lemma": SimpleNamespace(steps=(("step a", None),))}
    kinds = [resolve(i, claims, {"p.f"}, others={"p.check"}, rows={"t": ["(1)", "(2)", "(2)"]})
             for i in ("p.lemma", "p.lemma#step a", "p.f", "p.check", "t#(1)")]
    assert kinds == ["claim", "claim step", "finding", "check", "row"]
    for typo in ("p.lema", "p.lemma#step b", "t#(2)", "t#(3)"):
        with pytest.raises(KeyError):
            resolve(typo, claims, {"p.f"}, rows={"t": ["(1)", "(2)", "(2)"]})
    assert unresolved((Display("P", "(1)", "a", ("p.lemma", "nope")),), lambda i: resolve(i, claims)) \
        == ["P (1): \"'nope' is neither a claim, a finding nor a check of the paper\""]


@pytest.mark.parametrize("paper", ["fedsgm", "pcfedavg", "ssca"])
def test_every_inventory_is_well_formed_and_counted_by_coverage(paper):
    import importlib
    from bounds.proofs import problems
    inventory = importlib.import_module(f"bounds.{paper}.proofs")
    assert not problems(inventory.DISPLAYS, inventory.PROOFS)
    cov = coverage(inventory.DISPLAYS)
    assert [p for p, _, _ in cov] == list(inventory.PROOFS)
    for proof, checked, shown in cov:
        mine = [d for d in inventory.DISPLAYS if d.proof == proof]
        assert shown == len(mine) and checked == sum(bool(d.checked_by) for d in mine)


def test_a_display_named_by_the_suites_label_is_placed_by_the_papers_numbering():
    """A label the paper does not print gets its place: "display k after (n)", k counting the proof's display blocks
    since its last numbered one (lines of one block once), or "display k" from the proof's start."""
    from repro.pages import _label_places
    lemma1 = [("(L1-a)", "a <= b"), ("(4)", "b <= c"), ("(5) line 1", "c <= d"), ("(5) line 2", "d <= e"),
              ("display after (5)", "e <= f"), ("(L1-b)", "f")]
    displays = [Display("Proof of Lemma 1", label, says) for label, says in lemma1] + [
        Display("Proof of Lemma 2", "(L2-a)", "g <= h")]
    assert _label_places(displays) == [["(L1-a)", "Proof of Lemma 1, display 1", "a <= b"],
                                       ["(L1-b)", "Proof of Lemma 1, display 2 after (5)", "f"],
                                       ["(L2-a)", "Proof of Lemma 2, display 1", "g <= h"]]


def test_an_erratum_at_a_display_the_paper_does_not_number_is_named_by_its_place_first(monkeypatch):
    """The cards, the errata tables and `repro errata` give such a display's place in the paper's numbering before
    the report's label (once, however often applied); a place the paper numbers is left as it is."""
    from repro.cards import where
    from repro.pages import with_places
    _with_paper(monkeypatch, (Display("Proof of Lemma 1", "(L1-0)", "z"), Display("Proof of Lemma 1", "(4)", "a"),
                              Display("Proof of Lemma 1", "(L1-a)", "b"), Display("Proof of Lemma 1", "(L1-b)", "c")))
    placed = with_places("x", "Proof of Lemma 1, (L1-b); Proof of Lemma 1, (4); Proof of Lemma 1, (L1-0)")
    assert placed == ("Proof of Lemma 1, display 2 after (4) (L1-b); Proof of Lemma 1, (4); "
                      "Proof of Lemma 1, display 1 (L1-0)")
    assert with_places("x", placed) == placed
    assert with_places("x", "Lemma 1 (Section 4) (L1-b)") == "Lemma 1 (Section 4) display 2 after (4) (L1-b)"
    erratum = type("E", (), {"where": "Proof of Lemma 1 (Appendix A), (L1-a)"})()
    assert where("x", erratum) == "Proof of Lemma 1 (Appendix A), display 1 after (4) (L1-a)"


def test_an_erratum_at_a_display_counted_from_its_proofs_start_names_the_nearest_numbered_one(monkeypatch):
    """"display k" (k counting the proof's display blocks) is followed by its nearest numbered display, lines of one
    block counted once, only where the text names it after its own proof, and once however often applied."""
    from repro.pages import with_places
    thm = [("display 1", "a"), ("display 2 line 1", "b"), ("display 2 line 2", "c"), ("display 3", "d"), ("(4)", "e"),
           ("display 5", "f"), ("display 6", "g")]
    _with_paper(monkeypatch, [Display("Proof of Theorem 1 (Appendix A)", label, says) for label, says in thm]
                + [Display("Proof of Lemma 2", "display 1", "h")])
    text = ("Proof of Theorem 1 (Appendix A), display 1; Proof of Theorem 1 (Appendix A), display 2 line 2; "
            "Proof of Theorem 1 (Appendix A), display 3; Proof of Theorem 1 (Appendix A), display 6; "
            "Proof of Lemma 2, display 1; display 5")
    placed = with_places("x", text)
    assert placed == ("Proof of Theorem 1 (Appendix A), display 1 (the 3rd display before (4)); "
                      "Proof of Theorem 1 (Appendix A), display 2 line 2 (the 2nd display before (4)); "
                      "Proof of Theorem 1 (Appendix A), display 3 (just before (4)); "
                      "Proof of Theorem 1 (Appendix A), display 6 (the 2nd display after (4)); "
                      "Proof of Lemma 2, display 1; display 5")
    assert with_places("x", placed) == placed
