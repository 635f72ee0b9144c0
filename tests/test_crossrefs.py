"""Cross-references (:mod:`repro.crossrefs`, issue 41 item 2): a planted text with a dangling citation, a drifted
number and a correct citation reports exactly the first two, and renumbering a definition flips each; the readings the
module accepts are not flagged; a problem declared as an erratum with a second place comes out an inconsistency;
every real paper's tables are its text's (re-derived when the text is at hand) and every citation resolves or is
reported."""
from __future__ import annotations

import dataclasses
import importlib
import inspect
import os
from pathlib import Path
from types import SimpleNamespace

import pytest
import sympy as sp

from bounds.core import Claim, Mode
from bounds.steps import PROVEN, REFUTED, Step, Use, check_use, use_step
from repro import crossrefs as X
from repro.errata import Erratum, Kind, paper_errata
from repro.registry import paper as interface, papers

PLANTED_PATTERNS = X.Patterns(
    heading=r"^#+ ", definition=r"^\*\*(?P<kind>Lemma|Theorem|Assumption) (?P<num>\d+)\b",
    equation_tag=r"\\tag\{(?P<num>\d+)\}\$\$", equations_complete=True, items=("Assumption 1",))
PLANTED = """# 1. Main text
**Assumption 1** *1) f is convex; 2) f is smooth.*
**Lemma 1 (Descent)** *The loss decreases.*
$$f(x_1) \\le f(x_0) \\tag{1}$$
**Theorem 2 (Main bound)** *By Lemma 1 and (1), the rate holds.*
# A. Appendix
**Lemma 3 (Main bound)** *Restated.*
**Proof** By Lemma 7 and Assumption 1.2, and Lemma 2.29 in (Smith et al., 2020), the claim follows.
"""


def _problems(text: str) -> list:
    definitions, citations = X.extract(text, PLANTED_PATTERNS)
    resolved = X.resolve(definitions, citations, PLANTED_PATTERNS, {})
    return X.dangling("toy", resolved) + X.drift("toy", definitions)


def test_the_planted_text_reports_exactly_the_dangling_citation_and_the_drifted_number():
    found = _problems(PLANTED)
    assert [f.id for f in found] == ["toy.crossref.dangling.lemma-7", "toy.crossref.drift.theorem-2.lemma-3"]
    assert "By Lemma 7 and Assumption 1.2" in found[0].evidence and "A. Appendix" in found[0].evidence
    assert "Theorem 2 (Main bound)" in found[1].evidence and "Lemma 3 (Main bound)" in found[1].evidence
    assert all(f.gate() == [f] for f in found)          # each finding is its computation's


def test_renumbering_a_definition_flips_each_verdict():
    assert [f.id for f in _problems(PLANTED.replace("**Lemma 1 (Descent)", "**Lemma 7 (Descent)")
                                    .replace("By Lemma 1 and", "By Lemma 7 and"))] == \
        ["toy.crossref.drift.theorem-2.lemma-3"]
    assert [f.id for f in _problems(PLANTED.replace("**Lemma 3 (Main bound)", "**Theorem 2 (Main bound)"))] == \
        ["toy.crossref.dangling.lemma-7"]
    assert [f.id for f in _problems(PLANTED.replace("**Theorem 2 (Main bound)", "**Theorem 2 (Main rate)"))] == \
        ["toy.crossref.dangling.lemma-7"]
    # the correct citation goes dangling once its target is renumbered
    assert "toy.crossref.dangling.lemma-1" in [f.id for f in _problems(PLANTED.replace("**Lemma 1 (", "**Lemma 9 ("))]


def test_accepted_readings_resolve():
    definitions, citations = X.extract(PLANTED, PLANTED_PATTERNS)
    status = {r.ref.label: r.status for r in X.resolve(definitions, citations, PLANTED_PATTERNS, {})}
    assert status == {"Lemma 1": "definition", "(1)": "definition", "Lemma 7": "dangling",
                      "Assumption 1.2": "item", "external Lemma 2.29": "external"}
    assert X._labels("Theorem", "6-9") == ["Theorem 6", "Theorem 7", "Theorem 8", "Theorem 9"]
    assert X._labels("Lemma", "(5)") == ["Lemma 5"]
    loose = X.Patterns(**{**PLANTED_PATTERNS.__dict__, "equations_complete": False})
    cited = X.extract("see (4) here", loose)[1]
    assert [r.status for r in X.resolve((), cited, loose, {})] == ["not located"]
    assert [r.status for r in X.resolve((), cited, PLANTED_PATTERNS, {})] == ["dangling"]


def test_a_problem_declared_with_its_other_place_is_an_inconsistency():
    finding = _problems(PLANTED)[0]
    module = SimpleNamespace(ERRATA=(Erratum("toy.xref", "Appendix A, proof", "By Lemma 7", "Lemma 7 is never "
                                             "stated", other_place="Lemma 1, main text", explains=(finding.id,)),),
                             CHOICES=())
    reports = paper_errata([], [finding], module, {})
    assert [(r.id, r.kind) for r in reports] == [("toy.xref", Kind.INCONSISTENCY)]
    assert paper_errata([], [], module, {}) == []       # not confirmed without the finding


def test_the_use_of_a_cited_claim_is_checked_where_a_step_states_it_and_a_use_it_does_not_provide_is_found():
    """Lemma 1 states x <= 2 b. A step that takes 2 b from it (or 3 b) is provided; one that takes b is not (refuted,
    with an instance, and reported as a finding); a step citing it without stating its use is not checked."""
    x, b = sp.symbols("x b", positive=True)
    claim = Claim(id="toy.lemma1", location="Lemma 1", statement="x <= 2 b", domains={x: "observed", b: "positive"},
                  hypotheses=(), conclusion=(sp.Le(x, 2 * b),), parameters={}, mode=Mode.DETERMINISTIC)
    xs, bs = sp.symbols("x_s b_s", positive=True)

    def step(taken, uses=True):
        applies = (Use("Lemma 1", "toy.lemma1", "x", taken * bs, at={"b": bs}),) if uses else ()
        return Step("Proof of Theorem 2", "display 1", "toy.thm2", xs, "<=", taken * bs, {xs: (0.1, 1), bs: (0.1, 1)},
                    cites=("Lemma 1",), applies=applies)

    ref = X.Ref("Lemma 1", "A, proof of Theorem 2", "By Lemma 1")
    resolved = X.resolve((X.Ref("Lemma 1", "A", ""),), (ref,), PLANTED_PATTERNS, {"Lemma 1": ("toy.lemma1",)},
                         (step(2),))
    assert resolved[0].encoded == ("toy.lemma1", "steps#Proof of Theorem 2 display 1")
    for taken, checked, misused in ((2, True, 0), (3, True, 0), (1, True, 1)):
        assert X.use_checks(resolved, (step(taken),), (claim,))[0].checked is checked, taken
        found = X.misused("toy", resolved, (step(taken),), (claim,))
        assert len(found) == misused and all(f.kind == "statement-vs-proof" and f.claims == ("toy.thm2",)
                                             and "toy.lemma1" in f.summary for f in found), taken
    assert not X.use_checks(resolved, (step(2, uses=False),), (claim,))[0].checked


@pytest.mark.parametrize("key, cited", [("fedsgm", {"Lemma 3", "Lemma 4", "Lemma 5"}),
                                        ("pcfedavg", {"Lemma 4.3", "Lemma 4.5", "Lemma 4.6"}),
                                        ("ssca", {"Lemma 3", "Lemma 4"})])
def test_every_stated_use_of_a_real_papers_cited_result_is_decided_and_a_halved_one_is_refuted(key, cited):
    """FedSGM's proofs of Theorems 6 and 8 state how they apply Lemmas 3, 4 and 5 (summed over clients and local
    steps), PC-FedAvg's proofs of Lemma 4.6 and Prop. 4.7 how they apply Lemmas 4.3, 4.5 and 4.6, SSCA's proof of
    Theorems 1 and 3 how it applies Lemmas 3 and 4: each is provided (proven); the same use with the taken bound
    halved is refuted; the page counts the citations they check."""
    steps, claims = importlib.import_module(f"bounds.{key}.steps"), importlib.import_module(f"bounds.{key}.claims")
    uses = [(s, u) for s in steps.STEPS for u in s.applies]
    assert {u.label for _, u in uses} == cited
    for s, u in uses:
        assert check_use(s, u, claims.claim(u.claim)).status == PROVEN, (s.proof, s.label, u.label)
        halved = dataclasses.replace(u, bound=u.bound / 2)
        assert check_use(s, halved, claims.claim(u.claim)).status == REFUTED, (s.proof, s.label, u.label)
    record = interface(key)
    counted = X.summary(key, record.audit().CROSSREFS, record.encoded_steps(), record.claims)
    assert counted.use_checked >= len(cited) and not counted.problems
    listed = X.checked_uses(record.audit().CROSSREFS, record.encoded_steps(), record.claims)   # the page's list
    assert {phrase.split(" in ")[0] for phrase in listed} == cited
    assert all(phrase.endswith(": provided") for phrase in listed)


@pytest.mark.parametrize("key", ["fedsgm", "pcfedavg", "ssca"])
def test_every_stated_use_takes_exactly_what_the_cited_result_gives(key):
    """The uses encoded so far take the cited bound itself (summed over the instances they sum): the difference is
    identically 0, so a count of instances or an instance off from the step's own terms shows here even though the
    one-sided use check (taken >= given) would accept a smaller given side."""
    steps, claims = importlib.import_module(f"bounds.{key}.steps"), importlib.import_module(f"bounds.{key}.claims")
    for s in steps.STEPS:
        for u in s.applies:
            derived = use_step(s, u, claims.claim(u.claim))
            assert sp.simplify(derived.rhs - derived.lhs) == 0, (s.proof, s.label, u.label)


def _text(module) -> str | None:
    """The paper's text, when at hand (REPRO_PAPERS_TEXT, else the shared papers directory beside the checkout)."""
    root = Path(os.environ.get("REPRO_PAPERS_TEXT", Path(__file__).resolve().parents[2] / "shared" / "papers"))
    path = root / module.SOURCE
    return path.read_text(encoding="utf-8") if path.is_file() else None


@pytest.mark.parametrize("key", papers())
def test_every_real_citation_resolves_or_is_reported(key):
    module = importlib.import_module(f"repro.papers.{key}.crossrefs")
    text = _text(module)
    if text is not None:                                 # the tables are the text's, re-derived
        assert X.extract(text, module.PATTERNS) == (module.TEXT_DEFINITIONS, module.CITATIONS)
        assert all(r.quote in text for r in module.STATED_ELSEWHERE)
    record = interface(key)
    resolved = X.resolve(module.DEFINITIONS, module.CITATIONS, module.PATTERNS, module.ENCODED)
    reported = {f.id for f in module.findings()}
    dangling = {r.ref.label for r in resolved if r.status == "dangling"}
    assert {f"{key}.crossref.dangling.{X._slug(label)}" for label in dangling} <= reported
    assert all(r.status in X.STATUSES for r in resolved) and module.CITATIONS
    assert {i for ids in module.ENCODED.values() for i in ids} <= {c.id for c in record.claims}
    audit = record.audit()                               # wired into the audit (its findings list them)
    assert audit.CROSSREFS is module and "CROSSREFS.findings()" in inspect.getsource(audit.findings)
    lines = X.crossref_lines(record)
    counts = X.summary(key, module, record.encoded_steps(), record.claims)
    assert f"{counts.citations} citations" in "\n".join(lines) and counts.citations == len(module.CITATIONS)
    # a paper without encoded proof steps says why none of its citations' uses is checked, and only such a paper
    assert any(record.no_inventory_reason() in line for line in lines) is (not record.encoded_steps())


def test_a_restatement_is_read_as_what_it_says_it_restates():
    restated = PLANTED.replace("**Lemma 3 (Main bound)**", "**Theorem 2 (restated)**")
    assert [f.id for f in _problems(restated)] == ["toy.crossref.dangling.lemma-7"]
    renamed = PLANTED.replace("**Lemma 3 (Main bound)**", "**Theorem 4 (Theorem 2 restated)**")
    assert [f.id for f in _problems(renamed)] == ["toy.crossref.dangling.lemma-7"]
    wrong = PLANTED.replace("**Lemma 3 (Main bound)**", "**Theorem 4 (Theorem 5 restated)**")
    # the title cites a label never stated: dangling there, and drift of the restatement
    assert [f.id for f in _problems(wrong)] == ["toy.crossref.dangling.theorem-5", "toy.crossref.dangling.lemma-7",
                                                "toy.crossref.drift.theorem-4.theorem-5"]
