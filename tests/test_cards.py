"""The summary cards (repro.cards): an erratum's sentence, cut to a card's length, ends at a sentence or clause
where one is near, and never inside a parenthesis."""
from repro.cards import SENTENCE_WORDS, _cut


def test_a_cut_sentence_ends_at_a_clause_or_before_an_open_parenthesis():
    clause = "(4) bounds rho^(t) from below only; at values above 1, which it admits, the surrogate degenerates"
    assert _cut(clause) == "(4) bounds rho^(t) from below only ..."
    paren = "Assumption 1 asks for a Lipschitz continuous gradient of f(., x) (one constant for all omega) on R^d"
    assert _cut(paren) == "Assumption 1 asks for a Lipschitz continuous gradient of f(., x) ..."
    plain = " ".join(f"w{i}" for i in range(SENTENCE_WORDS + 5))
    assert _cut(plain) == " ".join(f"w{i}" for i in range(SENTENCE_WORDS)) + " ..."
    early = "Short; " + plain                                   # a clause end in the first half is not used
    assert _cut(early).startswith("Short; w0") and _cut(early).endswith(" ...")
    assert _cut("fits as it is.") == "fits as it is."
    quoted = "The proof of Proposition 4.7 ('As we mentioned, let K = HR. Then it holds') does not use it"
    assert _cut(quoted) == "The proof of Proposition 4.7 ..."                   # the dot inside the parenthesis
    abbreviated = "Under the proof's own choices, Prop. 4.8 (iii) gives requirement terms (e.g. the sixth) and more"
    assert _cut(abbreviated) == "Under the proof's own choices, Prop. 4.8 (iii) gives requirement terms ..."
