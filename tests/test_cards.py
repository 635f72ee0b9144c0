"""The summary cards (repro.cards): an erratum's sentence, cut to a card's length, ends at a sentence or clause
where one is near, and never inside a parenthesis."""
from repro.cards import SENTENCE_WORDS, _cut


def test_a_cut_sentence_ends_at_a_clause_or_before_an_open_parenthesis():
    clause = "(4) bounds rho^(t) from below only; at values above 1, which it admits, the surrogate degenerates"
    assert _cut(clause) == "(4) bounds rho^(t) from below only ..."
    paren = "Assumption 1 asks for a Lipschitz continuous gradient of f(., x) (one constant) on R^d, for every x"
    assert _cut(paren) == "Assumption 1 asks for a Lipschitz continuous gradient of f(., x) ..."
    late = "Assumption 1 asks for a Lipschitz continuous gradient (one constant for all omega) on R^d; more words"
    assert _cut(late) == "Assumption 1 asks for a Lipschitz continuous gradient ..."      # the parenthesis opens late
    plain = " ".join(f"w{i}" for i in range(SENTENCE_WORDS + 5))
    assert _cut(plain) == " ".join(f"w{i}" for i in range(SENTENCE_WORDS)) + " ..."
    early = "Short; " + plain                                   # a clause end in the first half is not used
    assert _cut(early).startswith("Short; w0") and _cut(early).endswith(" ...")
    assert _cut("fits as it is.") == "fits as it is."
    quoted = ("The proof of Proposition 4.7 ('As we mentioned, let K = HR. Then it holds') uses K = T_r with K = RH, "
              "which holds when every round has H steps")
    assert _cut(quoted) == "The proof of Proposition 4.7 (...) uses K = T_r with K ..."   # early: the aside left out
    numbers = "Penalized-FedAvg minus PC-FedAvg, infeasibility averaged over rounds: -8.361e-05, 95% CI [-1e-4, -6e-5]"
    assert "-8.361e-05" in _cut(numbers)                                      # a colon before numbers ends nothing
    colon = "The class the paper names as the objective: class 0 as the data set codes it, or the majority class"
    assert _cut(colon) == "The class the paper names as the objective ..."    # before words it ends a clause
    abbreviated = "Under the proof's own choices, Prop. 4.8 (iii) gives requirement terms (e.g. the sixth) and more"
    assert _cut(abbreviated) == "Under the proof's own choices, Prop. 4.8 (iii) gives requirement terms ..."


def test_a_quote_on_a_card_keeps_its_subject_and_what_it_says_of_it():
    from repro.cards import _quote_cut
    quote = ('"the proposed SSCA-based algorithms for constrained sample-based and feature-based federated '
             'optimization problems obtain models that strictly satisfy non-convex constraints"')
    assert _quote_cut(quote) == ('"the proposed SSCA-based algorithms for ... obtain models that strictly satisfy '
                            'non-convex constraints"')
    assert _quote_cut('"short quote"') == '"short quote"'
    assert _cut(_quote_cut(quote), 5) == '"the proposed SSCA-based algorithms for ..."'     # one ellipsis, quote closed


def test_a_card_shows_an_erratums_gist_whole():
    from types import SimpleNamespace
    from repro.cards import what
    gist = "A short gist whose end a twelve-word cut of its sentence would have lost."
    e = SimpleNamespace(gist=gist, sentence="A long sentence " * 10, where="", declared=True, id="x", printed="")
    assert what("toy", e, {}) == gist


def test_every_gist_is_short_and_names_an_erratum_its_paper_reports():
    """Each paper's GISTS: at most GIST_WORDS words ending with a full stop, keyed by an erratum the paper declares or its
    committed report lists (an erratum found by computation is named by its finding or claim)."""
    import importlib
    import re
    from pathlib import Path
    from repro.errata import GIST_WORDS
    root = Path(__file__).resolve().parents[1]
    for paper in ("fedsgm", "pcfedavg", "fedclup", "ssca"):
        module = importlib.import_module(f"repro.papers.{paper}.errata")
        page = (root / "reports" / f"{paper}.md").read_text()
        listed = set(re.findall(r"^\| [a-z ]+ \| `([\w.\-]+)` \|", page, flags=re.M))
        declared = {e.id for e in module.ERRATA + getattr(module, "CHOICES", ())}
        assert module.GISTS and set(module.GISTS) <= declared | listed, paper
        for cause, gist in module.GISTS.items():
            assert len(gist.split()) <= GIST_WORDS and gist.endswith("."), cause


def test_a_computed_finding_on_a_card_keeps_its_value_however_long_its_description():
    from repro.cards import _with_value
    found = ("largest |log loss ratio| over the baselines on MNIST minus on CIFAR-10: 0.0403, 95% CI [0.03918, "
             "0.04141] over 2 seeds; seeds 0, 1; outside the stated range [-inf, 0] (tolerance 0.0001)")
    assert _with_value(found) == ("largest |log loss ratio| over the baselines on MNIST minus on CIFAR-10: 0.0403, "
                                  "95% CI [0.03918, 0.04141] over 2 seeds")
    assert _cut(found).endswith("CIFAR-10 ...")                     # what a plain cut would have kept: no number
    assert _with_value("no value at all in this sentence") == "no value at all in this sentence"
    long = " ".join(f"w{i}" for i in range(SENTENCE_WORDS + 5)) + ": -inf, at T = 3; more"
    assert _with_value(long) == " ".join(f"w{i}" for i in range(SENTENCE_WORDS)) + " ...: -inf, at T = 3"


def test_an_erratums_consequences_name_each_claim_by_its_own_verdict(monkeypatch):
    """"fails" only for claims found violated, "leaves unproven" for those not proven (all of a gap's), "fails as
    printed" where the claim's verdict is something else or not given."""
    from types import SimpleNamespace
    from repro import cards
    from repro.errata import Kind
    from repro.verdicts import Verdict
    monkeypatch.setattr(cards, "_claims", lambda paper, ids, names: ", ".join(ids))
    e = SimpleNamespace(kind=Kind.FALSE_STATEMENT, fails_as_printed=["a", "b", "c", "d"], holds_once_corrected=["d"],
                        depends=[])
    verdicts = [SimpleNamespace(claim=c, verdict=v)
                for c, v in (("a", Verdict.VIOLATED), ("b", Verdict.NOT_PROVEN), ("c", Verdict.NOT_CHECKABLE))]
    assert cards.consequence("x", e, {}, verdicts) == ("fails: a; leaves unproven: b; fails as printed: c; "
                                                      "holds once corrected: d")
    assert cards.consequence("x", e, {}) == "fails as printed: a, b, c; holds once corrected: d"
    gap = SimpleNamespace(kind=Kind.GAP, fails_as_printed=["a"], holds_once_corrected=[], depends=[])
    assert cards.consequence("x", gap, {}, verdicts) == "leaves unproven: a"
    choice = SimpleNamespace(kind=Kind.UNSTATED_CHOICE, fails_as_printed=[], holds_once_corrected=[], depends=["c", "e"])
    verdicts.append(SimpleNamespace(claim="e", verdict=Verdict.DEPENDS))
    assert cards.consequence("x", choice, {}, verdicts) == "its value decides: e; its value affects: c"
    assert cards.consequence("x", choice, {}) == "its value decides: c, e"
