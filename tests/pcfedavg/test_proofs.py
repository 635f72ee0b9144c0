"""PC-FedAvg proof-step inventory (bounds.pcfedavg.proofs): every ``checked_by`` id names something the suite really
has (a claim, a finding of the audit, or one row of the re-derived step table), the inventory is well formed, and
coverage() counts what the inventory says."""
import functools

import pytest

from bounds.pcfedavg import claims as B
from bounds.pcfedavg.findings import proof_steps
from bounds.pcfedavg.proofs import DISPLAYS, PROOFS, PROOFS_WITHOUT_DISPLAYS, UNCOMPUTED_ROWS
from bounds.proofs import coverage, problems, resolve, unresolved

TABLE = "proof_steps"


@functools.cache
def _finding_ids() -> frozenset:
    from repro.papers.pcfedavg import audit
    return frozenset(f.id for f in audit.findings({}))


@functools.cache
def _step_labels() -> tuple:
    return tuple(r["step"] for r in proof_steps())


def _resolve(check_id: str) -> str:
    """What ``check_id`` names: "claim", "claim step", "row" (of the re-derived step table) or "finding"; KeyError
    when it names nothing (or, for a row, names more than one)."""
    return resolve(check_id, {c.id: c for c in B.CLAIMS}, _finding_ids(), rows={TABLE: _step_labels()})


def test_every_checked_by_id_resolves():
    assert not unresolved(DISPLAYS, _resolve)


@pytest.mark.parametrize("typo", ["pcfedavg.lemma4.7", "pcfedavg.eq13", "pcfedavg.d.fact3", "pcfedavg.P4.8-c.halves",
                                  "proof_steps#(L4.3-z)", "proof_steps#L4.3-a", "proof_step#(L4.3-a)",
                                  "proof_steps#statement",          # ambiguous: several rows carry this label
                                  "pcfedavg.lemma4.3#(L4.3-a)", "pcfedavg.lemma4.9#(5)", "lemma4.3"])
def test_a_typo_in_an_id_does_not_resolve(typo):
    with pytest.raises(KeyError):
        _resolve(typo)


def test_the_kinds_of_check_used():
    kinds = {_resolve(c) for d in DISPLAYS for c in d.checked_by}
    # no claim-step ids: PC-FedAvg's Claim.steps are not evaluated by its checks (see the module docstring)
    assert kinds == {"claim", "finding", "row"}


def test_claim_steps_are_not_evaluated_by_the_run_checks():
    """The reason no "<claim>#<step>" id is linked: the run checks never call check_chain, and the traces'
    observed quantities do not include the symbols the steps are written in."""
    import inspect

    from repro.papers.pcfedavg import checks
    assert "check_chain" not in inspect.getsource(checks)
    step_symbols = {str(s) for c in B.CLAIMS for _, e in c.steps for s in e.free_symbols} & set(B.OBSERVED)
    observed_keys = set(inspect.getsource(checks.observed).split('"')[1::2])
    assert step_symbols - observed_keys, "some step quantities are now observed: link the claim steps"


def test_uncomputed_rows_exist_and_are_not_linked():
    for label in UNCOMPUTED_ROWS:
        assert _step_labels().count(label) == 1, label
    linked = {c for d in DISPLAYS for c in d.checked_by}
    assert not {f"{TABLE}#{label}" for label in UNCOMPUTED_ROWS} & linked


def test_the_inventory_is_well_formed_with_37_displays():
    assert not problems(DISPLAYS, PROOFS) and not set(PROOFS_WITHOUT_DISPLAYS) & set(PROOFS)
    cov = coverage(DISPLAYS)
    assert sum(s for _, _, s in cov) == len(DISPLAYS) == 37


def test_every_computed_row_of_a_listed_display_is_linked():
    """A row of proof_steps() whose label is a listed display either checks it (linked) or is named uncomputed."""
    labels = {d.label for d in DISPLAYS}
    linked = {c.partition("#")[2] for d in DISPLAYS for c in d.checked_by if c.startswith(TABLE + "#")}
    for label in _step_labels():
        if label in labels:
            assert label in linked or label in UNCOMPUTED_ROWS, label


def test_linked_rows_carry_a_verdict_status():
    """A linked proof_steps row is a computation with a verdict ("not checked" rows must not be linked)."""
    from bounds.pcfedavg.findings import NOT_CHECKED
    status = {r["step"]: r["status"] for r in proof_steps()}
    linked = {c.partition("#")[2] for d in DISPLAYS for c in d.checked_by if c.startswith(TABLE + "#")}
    assert all(status[label] != NOT_CHECKED for label in linked)
    for label in ("(L4.3-d)", "(7)", "(P4.8-a)", "(P4.8-b)", "(8)", "(9)", "(P4.8-d)", "(P4.8-e)", "(10)", "(11)",
                  "(P4.8-h)", "(T3.4-a)"):
        assert label in linked and label not in UNCOMPUTED_ROWS, label
