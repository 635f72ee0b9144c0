"""One verdict per claim (repro.verdicts): the roll-up rules, and that the committed report and notebooks never
show a claim with two different verdicts."""
import dataclasses
import json
import re
from pathlib import Path

import pytest

from repro.verdicts import (BRIEF_WHY, Bearing, Evidence, Verdict, brief_reason, from_checks, from_findings,
                            roll_up, verdict_table)

ROOT = Path(__file__).resolve().parents[1]
VERDICT_VALUES = {v.value for v in Verdict}


def _e(claim, bearing, worst=None, source="exp", checks=1, replay=""):
    return Evidence(claim, source, bearing, f"{bearing.value} evidence", checks, worst, replay)


def test_a_violation_outranks_a_gap_which_outranks_support():
    ev = [_e("a", Bearing.SUPPORTS, 0.5, checks=10), _e("a", Bearing.VIOLATES, 1.4, replay="python -m repro run x"),
          _e("a", Bearing.VIOLATES, 1.1), _e("a", Bearing.GAP, source="finding.a"),     # a: violation and gap
          _e("b", Bearing.SUPPORTS), _e("b", Bearing.GAP, source="finding.b"),
          _e("c", Bearing.SUPPORTS, 0.9, checks=5), _e("c", Bearing.INCONCLUSIVE, checks=2),
          _e("d", Bearing.INCONCLUSIVE), _e("e", Bearing.NOT_CHECKABLE)]
    got = {v.claim: v for v in roll_up(["a", "b", "c", "d", "e", "f"], ev)}
    assert [got[c].verdict for c in "abcdef"] == [Verdict.VIOLATED, Verdict.NOT_PROVEN, Verdict.HOLDS,
                                                 Verdict.NOT_CHECKABLE, Verdict.NOT_CHECKABLE, Verdict.NOT_RUN]
    assert "replay: python -m repro run x" in got["a"].reason          # the worst violation is the one cited
    assert got["b"].reason.startswith("finding.b:")
    assert got["c"].reason.startswith("5 checks, none violated; worst observed/bound 0.9; 2 inconclusive")


def test_a_claim_resting_on_a_broken_one_is_not_proven_and_says_so():
    ev = [_e("lemma", Bearing.VIOLATES, 1.2), _e("thm", Bearing.SUPPORTS, 0.3, checks=4)]
    got = {v.claim: v for v in roll_up(["thm", "lemma"], ev, {"thm": ("lemma",)})}
    assert got["thm"].verdict is Verdict.NOT_PROVEN and "rests on lemma (violated)" in got["thm"].reason
    with pytest.raises(ValueError, match="dependency cycle"):
        roll_up(["x", "y"], [], {"x": ("y",), "y": ("x",)})
    with pytest.raises(ValueError, match="not encoded: z"):
        roll_up(["x"], [_e("z", Bearing.SUPPORTS)])


def test_findings_and_checks_map_to_bearings_by_rule():
    class F:
        def __init__(self, id, kind, verdict, claims=("a",)):
            self.id, self.kind, self.verdict, self.claims, self.summary = id, kind, verdict, claims, "s"
    ev = from_findings([F("f1", "mode", "discrepancy"), F("f2", "instance", "discrepancy"),
                        F("f3", "experiment-settings", "discrepancy"), F("f4", "stated-rate", "consistent"),
                        F("f3b", "experiment-settings", "consistent"), F("c1", "code", "discrepancy"),
                        F("c2", "code", "consistent"), F("c3", "code", "not checkable"),
                        F("f5", "mode", "not checkable", ("a", "other"))], ["a"])
    assert [(e.source, e.bearing) for e in ev] == [("f1", Bearing.GAP), ("f2", Bearing.VIOLATES),
                                                   ("f4", Bearing.SUPPORTS), ("f5", Bearing.NOT_CHECKABLE)]
    with pytest.raises(ValueError, match="has no bearing rule"):
        from_findings([F("f6", "vibes", "discrepancy")], ["a"])
    assert [e.bearing for e in from_checks("a", "x", checks=10, failed=0, inconclusive=2, not_judged=3)] \
        == [Bearing.INCONCLUSIVE, Bearing.SUPPORTS]
    assert [e.bearing for e in from_checks("a", "x", checks=10, failed=1)] == [Bearing.VIOLATES]


def _table_rows(text: str):
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            yield [c.strip() for c in line.strip().strip("|").split(" | ")]


def _claim_verdicts(text: str, claim_ids: set) -> dict:
    seen: dict[str, set] = {}
    for cells in _table_rows(text):
        if cells and cells[0] in claim_ids:
            seen.setdefault(cells[0], set()).update(c for c in cells[1:] if c in VERDICT_VALUES)
    return seen


def _claim_ids() -> set:
    from repro.registry import paper, papers
    return {c.id for p in papers() for c in paper(p).claims} | {s.id for p in papers() for s in paper(p).statements()}


def _documents():
    for page in sorted((ROOT / "reports").glob("*.md")):
        yield str(page.relative_to(ROOT)), page.read_text(encoding="utf-8")
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        texts = ["".join(o.get("data", {}).get("text/markdown", "")) for c in cells for o in c.get("outputs", [])]
        yield str(nb.relative_to(ROOT)), "\n".join(texts)


def test_no_claim_shows_two_verdicts_in_the_report_or_the_notebooks():
    claim_ids = _claim_ids()
    report_seen = {}
    for name, text in _documents():
        seen = _claim_verdicts(text, claim_ids)
        assert not {c: v for c, v in seen.items() if len(v) > 1}, name
        for claim, values in seen.items():
            report_seen.setdefault(claim, set()).update(values)
    assert not {c: v for c, v in report_seen.items() if len(v) > 1}



def test_the_summary_is_a_table_of_counts_then_one_card_per_paper_within_1500_words():
    from repro.registry import paper as interface, papers
    audit = (ROOT / "reports/audit.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", audit, re.M)
    assert headings == [interface(p).title for p in papers()]
    assert audit.index("| paper | claims |") < audit.index("\n## ") and len(audit.split()) <= 1500
    for paper in papers():                   # each paper's page opens with the same card
        page = (ROOT / "reports" / f"{paper}.md").read_text(encoding="utf-8")
        card = audit.split(f'<a id="{paper}"></a>', 1)[1].split("<a id=", 1)[0]
        how_sure = re.search(r"^Verdicts \(.*$", card, re.M).group(0)
        assert how_sure in page and page.index(how_sure) < page.index("## Claims in detail"), paper
    prose = re.sub(r"\]\([^)]*\)", "]", re.sub(r"`[^`]*`", "", audit))        # ids only in links and commands
    assert not re.search(r"\b(?:fedsgm|pcfedavg|fedclup|ssca)\.[a-z]", prose), re.findall(
        r"\b(?:fedsgm|pcfedavg|fedclup|ssca)\.[\w.]+", prose)[:5]


def test_the_readme_summary_is_replaced_between_its_markers_only(tmp_path):
    from repro.report import README_MARKERS, update_readme
    readme = tmp_path / "README.md"
    assert not update_readme(readme, "x")
    readme.write_text(f"intro\n{README_MARKERS[0]}\nold\n{README_MARKERS[1]}\nrest\n")
    assert update_readme(readme, "new summary")
    assert readme.read_text() == f"intro\n{README_MARKERS[0]}\nnew summary\n{README_MARKERS[1]}\nrest\n"


def test_the_readme_agrees_with_the_report():
    """Per paper the README's verdict counts are its card's, and every erratum the README names opens a bullet of
    the card in the same order (the card lists false statements first, as the README does)."""
    from repro.registry import papers
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    audit = (ROOT / "reports/audit.md").read_text(encoding="utf-8")
    for paper in papers():
        card = audit.split(f'<a id="{paper}"></a>', 1)[1].split("<a id=", 1)[0]
        block = readme.split(f"(reports/audit.md#{paper})**: ", 1)[1].split("\n- **", 1)[0]
        tally = block.split(".\n", 1)[0]
        assert f"claims): {tally}. How sure" in card, paper
        named = re.findall(r"^  - ([a-z ]+), ([^:]+):", block, re.M)
        bullets = re.findall(r"^- \*\*([a-z ]+)\*\*, ([^:]+):", card, re.M)
        assert named and named == bullets[:len(named)], (paper, named, bullets)


def test_coverage_counts_evidence_per_method_and_what_it_found():
    from repro.report import coverage
    from repro.verdicts import METHODS, ClaimVerdict, method_of
    ev = [_e("fedsgm.thm1", Bearing.VIOLATES, source="fedsgm.adversarial"),
          _e("fedsgm.thm1", Bearing.SUPPORTS, source="fedsgm.theory"),
          _e("fedsgm.thm1", Bearing.GAP, source="fedsgm.theory proof steps"),
          _e("fedsgm.lemma3", Bearing.SUPPORTS, source="fedsgm.montecarlo")]
    assert [method_of(e) for e in ev] == ["adversarial", "runs", "proof steps", "monte carlo"]
    assert set(map(method_of, ev)) <= set(METHODS)
    verdicts = [ClaimVerdict("fedsgm.thm1", Verdict.VIOLATED, "", tuple(ev[:3])),
                ClaimVerdict("fedsgm.lemma3", Verdict.HOLDS, "", (ev[3],))]
    rows = {cells[0]: cells for cells in _table_rows(coverage("fedsgm", verdicts, []))}
    assert rows["claim"] == ["claim", "runs", "monte carlo", "adversarial", "proof steps"]
    assert rows["fedsgm.thm1"] == ["fedsgm.thm1", "1", "", "1 (1 found)", "1 (1 found)"]
    assert rows["**claims reached (found)**"][1:] == ["1 (0)", "1 (0)", "1 (1)", "1 (1)"]


def test_a_brief_reason_keeps_each_observed_value_with_its_bound_and_says_it_was_cut():
    short = "3 checks, none violated"
    assert brief_reason(short) == (short, False)
    head = "x" * (BRIEF_WHY - 20) + " worst observed/bound 0.9998 (observed 0.2161 against bound 0.2162, search)"
    text, cut = brief_reason(head + "; and more" * 40)
    assert cut and text.endswith(" ...") and "observed 0.2161 against bound 0.2162" in text
    assert len(text) <= len(head) + 4
    text, cut = brief_reason("a " * (BRIEF_WHY // 2 - 6) + "`python -m repro run x.y` " + "b " * 100)
    assert cut and text.count("`") == 2 and text.endswith("`python -m repro run x.y` ...")
    [v] = roll_up(["a"], [Evidence("a", "x", Bearing.SUPPORTS, "checked", checks=1)])
    v = dataclasses.replace(v, reason="long " * 100)
    assert verdict_table([v], {}) == [["a", "", v.verdict.value, v.reason]]             # the notebooks: in full
    [row] = verdict_table([v], {"a": "Lemma 1"}, more=lambda claim: f"#{claim}")
    assert row[:3] == ["a", "Lemma 1", v.verdict.value] and row[3].endswith(" ... [more](#a)")


def test_one_check_is_counted_in_the_singular():
    assert [e.summary for e in from_checks("a", "x", checks=1, failed=0)] == ["1 check, not violated"]
    assert [e.summary for e in from_checks("a", "x", checks=1, failed=1)] == ["its one check violated"]
    assert [e.summary for e in from_checks("a", "x", checks=3, failed=1)] == ["1 of 3 checks violated"]


def test_an_evidence_line_says_its_observed_value_and_bound_once():
    from repro.pages import _evidence_line
    said = Evidence("a", "x", Bearing.SUPPORTS, "best: observed 5.528e-30 against bound 1.264e-26", 1,
                    observed=5.528e-30, bound=1.264e-26)
    line = _evidence_line(said)
    assert line.count("observed 5.528e-30 against bound 1.264e-26") == 1 and line.endswith(" (excess -1.26e-26)")
    assert _evidence_line(dataclasses.replace(said, summary="best")).endswith(
        ": best (observed 5.528e-30 against bound 1.264e-26 (excess -1.26e-26))")
    far = dataclasses.replace(said, summary="best: observed 2 against bound 1", observed=2.0, bound=1.0)
    assert _evidence_line(far).endswith(": best: observed 2 against bound 1")


def test_a_lower_bound_is_named_as_one_beside_its_numbers():
    """Proposition 4.8 (iii) of PC-FedAvg bounds E[f(xbar_K*) - f(x*)] from below: "observed 0.0047 against bound
    -1e-16" read as an upper bound would be a violation, so its numbers say "against lower bound"."""
    from bounds.fedsgm.claims import claim as fedsgm_claim
    from bounds.pcfedavg.claims import claim
    from repro.verdicts import lower_bound, observed_text
    assert lower_bound(claim("pcfedavg.prop4.8.iii")) and lower_bound(claim("pcfedavg.lemma4.2"))
    assert not lower_bound(claim("pcfedavg.prop4.8.ii")) and not lower_bound(fedsgm_claim("fedsgm.thm1"))  # mixed
    lower = Evidence("pcfedavg.prop4.8.iii", "x", Bearing.SUPPORTS, "best", 1, observed=0.0047, bound=-1e-16)
    assert observed_text(lower) == "observed 0.0047 against lower bound -1e-16 (above it by 0.0047)"
    # a worst case of the negated sides (a PEP certificate) compares them the other way round, and says so
    negated = dataclasses.replace(lower, observed=0.08276, bound=8.348, lower=False)
    assert observed_text(negated) == "observed 0.08276 against bound 8.348"
    upper = dataclasses.replace(lower, claim="pcfedavg.prop4.8.ii")
    assert observed_text(upper) == "observed 0.0047 against bound -1e-16 (excess 0.0047)"
    text, cut = brief_reason("x" * (BRIEF_WHY - 20) + " observed 0.004686 against lower bound -1.099e-16; " + "y " * 99)
    assert cut and "against lower bound -1.099e-16" in text

