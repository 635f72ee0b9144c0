"""Calibration on a real paper: with every erratum of PC-FedAvg's encoding corrected (its reading axes: line 8 of
Algorithm 1 against (CR), Lemma 4.5's range), no verdict "violated" remains but those of false statements.

The evidence is computed here, not read from a cache, on the runs where the paper's errata show: the one-active-
constraint instance of Prop. 4.8 (ii) (m = 16, K = 20000) on both readings of Algorithm 1; the search of Lemma 4.6
over the family that runs line 8 as printed, its best instance checked on both readings; the displayed steps of the
proof of Prop. 4.7; and the symbolic findings and re-derived steps. A perturbed kind decision fails it too.
"""
import pytest

from repro import errata as E
from repro.verdicts import Verdict


@pytest.fixture(scope="module")
def pcfedavg(tmp_path_factory):
    from repro.registry import get
    from repro.runner import run_all
    from repro.papers.pcfedavg import audit as A

    chosen = {
        "pcfedavg.adversarial": lambda c: c.get("search") == "one_active" and (c["m"], c["K"]) == (16, 20000),
        "pcfedavg.search": lambda c: (c["claim"], c["family"]) == ("pcfedavg.lemma4.6", "printed_path"),
        "pcfedavg.steps": lambda c: c["proof"].startswith("Proof of Proposition 4.7")}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REPRO_RESULTS_DIR", str(tmp_path_factory.mktemp("results")))
        results = {name: run_all([s for s in get(name).specs("quick") if keep(s.config)], jobs=1, progress=False)
                   for name, keep in chosen.items()}
    return results, A.verdicts(results), A.findings(results)


def _errata(pcfedavg):
    from repro.report import paper_errata
    results, verdicts, found = pcfedavg
    return {e.id: e for e in paper_errata("pcfedavg", results, verdicts, found)}


def _calibrated(verdicts, reports) -> list[str]:
    problems = []
    for v in verdicts:
        if v.verdict is Verdict.VIOLATED:       # decided with every erratum corrected: only false statements remain
            kinds = {c: reports[c].kind if c in reports else None for c in v.cause}
            if not v.cause or any(k is not E.Kind.FALSE_STATEMENT for k in kinds.values()):
                problems.append(f"{v.claim} violated through {kinds}")
    by = {v.claim: v for v in verdicts}
    if by["pcfedavg.lemma4.6"].verdict is not Verdict.HOLDS_ONCE_CORRECTED or \
            by["pcfedavg.lemma4.6"].cause != ("pcfedavg.line8",):
        problems.append(f"lemma 4.6: {by['pcfedavg.lemma4.6'].verdict.value}, {by['pcfedavg.lemma4.6'].cause}")
    kinds = {i: reports[i].kind.value if i in reports else None for i in
             ("pcfedavg.line8", "pcfedavg.lemma4.5.range", "pcfedavg.prop4.8.ii.m")}
    if kinds != {"pcfedavg.line8": "inconsistency", "pcfedavg.lemma4.5.range": "typo",
                 "pcfedavg.prop4.8.ii.m": "false statement"}:
        problems.append(f"kinds {kinds}")
    return problems


def test_with_every_erratum_corrected_only_false_statements_stay_violated(pcfedavg):
    _, verdicts, _ = pcfedavg
    assert [v.claim for v in verdicts if v.verdict is Verdict.VIOLATED] == ["pcfedavg.prop4.8.ii"]
    assert _calibrated(verdicts, _errata(pcfedavg)) == []
    printed = {r.verdict for v in verdicts if v.claim == "pcfedavg.lemma4.6" for r in v.readings
               if r.reading["pcfedavg.line8"] == "line 8 as printed"}
    assert printed == {Verdict.VIOLATED}                      # the correction is what makes Lemma 4.6 hold


@pytest.mark.parametrize("perturb", ["false statement as gap", "typo as gap"])
def test_a_perturbed_kind_decision_fails_it(pcfedavg, monkeypatch, perturb):
    original = E.decide_kind
    swap = {"false statement as gap": E.Kind.FALSE_STATEMENT, "typo as gap": E.Kind.TYPO}[perturb]
    monkeypatch.setattr(E, "decide_kind", lambda f: E.Kind.GAP if original(f) is swap else original(f))
    assert _calibrated(pcfedavg[1], _errata(pcfedavg))
