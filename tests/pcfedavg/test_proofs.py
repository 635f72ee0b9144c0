"""PC-FedAvg proof-step inventory (bounds.pcfedavg_proofs): every ``checked_by`` id names something the suite really
has (a claim, a finding of the audit, or one row of the re-derived step table), the inventory is well formed, and
coverage() counts what the inventory says."""
import functools

import pytest

from bounds import pcfedavg as B
from bounds.pcfedavg_findings import proof_steps
from bounds.pcfedavg_proofs import DISPLAYS, PROOFS, PROOFS_WITHOUT_DISPLAYS, UNCOMPUTED_ROWS
from bounds.proofs import Display, coverage

TABLE = "proof_steps"


@functools.cache
def _finding_ids() -> frozenset:
    from repro.papers.pcfedavg import audit
    return frozenset(f.id for f in audit.findings({}))


@functools.cache
def _step_labels() -> tuple:
    return tuple(r["step"] for r in proof_steps())


def _resolve(check_id: str) -> str:
    """What ``check_id`` names: "claim", "claim step", "proof-step row" or "finding"; KeyError when it names nothing
    (or, for a row, names more than one)."""
    claims = {c.id: c for c in B.CLAIMS}
    if "#" in check_id:
        head, _, label = check_id.partition("#")
        if head == TABLE:
            hits = _step_labels().count(label)
            if hits == 1:
                return "proof-step row"
            raise KeyError(f"{check_id!r}: {hits} rows of proof_steps() have step label {label!r} (one is needed)")
        if head in claims and label in {lab for lab, _ in claims[head].steps}:
            return "claim step"
        raise KeyError(f"{check_id!r}: neither a row of proof_steps() nor a step of a claim")
    if check_id in claims:
        return "claim"
    if check_id in _finding_ids():
        return "finding"
    raise KeyError(f"{check_id!r} is neither a claim of bounds.pcfedavg.CLAIMS nor a finding of the PC-FedAvg audit")


def test_every_checked_by_id_resolves():
    unresolved = []
    for d in DISPLAYS:
        for check_id in d.checked_by:
            try:
                _resolve(check_id)
            except KeyError as exc:
                unresolved.append(f"{d.proof} {d.label}: {exc}")
    assert not unresolved, "\n".join(unresolved)


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
    assert kinds == {"claim", "finding", "proof-step row"}


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


def test_displays_are_well_formed():
    assert all(isinstance(d, Display) for d in DISPLAYS)
    for d in DISPLAYS:
        assert d.proof in PROOFS, d
        assert d.label and d.says and len(d.says) <= 60 and d.says.isascii(), d
        assert isinstance(d.checked_by, tuple) and len(set(d.checked_by)) == len(d.checked_by), d
    assert not set(PROOFS_WITHOUT_DISPLAYS) & set(PROOFS)


def test_at_least_one_display_per_proof_in_the_papers_order_and_unique_labels():
    assert list(dict.fromkeys(d.proof for d in DISPLAYS)) == list(PROOFS)
    runs = [d.proof for i, d in enumerate(DISPLAYS) if i == 0 or DISPLAYS[i - 1].proof != d.proof]
    assert runs == list(PROOFS)                   # each proof's displays are contiguous
    for proof in PROOFS:
        labels = [d.label for d in DISPLAYS if d.proof == proof]
        assert labels, proof
        assert len(labels) == len(set(labels)), proof


def test_coverage_counts_match_the_inventory():
    cov = coverage(DISPLAYS)
    assert [p for p, _, _ in cov] == list(PROOFS)
    for proof, checked, shown in cov:
        mine = [d for d in DISPLAYS if d.proof == proof]
        assert shown == len(mine)
        assert checked == sum(1 for d in mine if d.checked_by)
    assert sum(s for _, _, s in cov) == len(DISPLAYS) == 37
    assert sum(c for _, c, _ in cov) == sum(1 for d in DISPLAYS if d.checked_by)


def test_every_computed_row_of_a_listed_display_is_linked():
    """A row of proof_steps() whose label is a listed display either checks it (linked) or is named uncomputed."""
    labels = {d.label for d in DISPLAYS}
    linked = {c.partition("#")[2] for d in DISPLAYS for c in d.checked_by if c.startswith(TABLE + "#")}
    for label in _step_labels():
        if label in labels:
            assert label in linked or label in UNCOMPUTED_ROWS, label


def test_linked_rows_carry_a_verdict_status():
    """A linked proof_steps row is a computation with a verdict ("not checked" rows must not be linked)."""
    from bounds.pcfedavg_findings import NOT_CHECKED
    status = {r["step"]: r["status"] for r in proof_steps()}
    linked = {c.partition("#")[2] for d in DISPLAYS for c in d.checked_by if c.startswith(TABLE + "#")}
    assert all(status[label] != NOT_CHECKED for label in linked)
    for label in ("(L4.3-d)", "(7)", "(P4.8-a)", "(P4.8-b)", "(8)", "(9)", "(P4.8-d)", "(P4.8-e)", "(10)", "(11)",
                  "(P4.8-h)", "(T3.4-a)"):
        assert label in linked and label not in UNCOMPUTED_ROWS, label
