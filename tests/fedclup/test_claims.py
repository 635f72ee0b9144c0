"""Every derived FedCLUP bound on hypothesis-generated exact linear-regression instances.

Each test draws an instance of the linear-regression test bed (m, n, d, R, noise, condition number, lambda,
step-size fraction, number of local steps, batch) and runs the suite's own run functions
(``repro.papers.fedclup.runs.statistical.run_statistical``, ``runs.optimization.run_theorem2`` and
``run_lemma7``), which check the sympy claims of ``bounds.fedclup`` with ``repro.papers.fedclup.checks``.

The generated-instance tests assert what the suite computes and reports, not that the derived statements hold:
every claim is checked, a failed check's reported worst entry exceeds its bound, and the claim's verdict
(``repro.papers.fedclup.audit.verdicts`` on that run) is "violated" exactly when a check whose hypotheses hold
failed, citing the run. Meta-tests show that each check can fail: the same code, given a claim whose bound is
shrunk below the observed value, reports a violation (``test_each_check_can_fail``).
"""
import dataclasses
from types import SimpleNamespace

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, note
from hypothesis import strategies as st

from bounds.fedclup import claims as B
from repro.papers.fedclup import audit as A
from repro.papers.fedclup.runs import optimization as O
from repro.papers.fedclup.runs import statistical as S

STATISTICAL = ("fedclup.lemma3", "fedclup.lemma4.pathwise", "fedclup.eq33", "fedclup.thm1.8a.pathwise",
               "fedclup.lemma4", "fedclup.thm1.8a", "fedclup.thm1.8b", "fedclup.thm1.explicit",
               "fedclup.cor1.explicit")
OPTIMIZATION = ("fedclup.lemma2", "fedclup.eq12", "fedclup.eq13", "fedclup.lemma5", "fedclup.lemma6", "fedclup.thm2")


@st.composite
def statistical_configs(draw):
    d = draw(st.integers(1, 4))
    m = draw(st.integers(2, 8))
    if d == 1 and m % 2:
        m += 1                       # ground truths on a sphere: m odd needs d >= 2 (linreg_pfl.ground_truth)
    mu = draw(st.floats(0.1, 2.0))
    kappa = draw(st.floats(1.0, 20.0))
    spectrum = list(np.linspace(mu, mu * kappa, d)) if d > 1 else [mu]
    return S.StatisticalConfig(m=m, n=draw(st.integers(max(d, 2), 60)), spectrum=spectrum,
                               R=draw(st.sampled_from([0.0, 0.01, 0.1, 0.5, 2.0])), noise=draw(st.floats(0.1, 2.0)),
                               reps=60, lams=[float(x) for x in np.logspace(-2, 3, 8)], profile="quick")


def _by_claim(arrays):
    out = {}
    for i, cid in enumerate(arrays["claim_id"]):
        out.setdefault(str(cid), []).append(i)
    return out


def _reports_what_it_computes(arrays, experiment, part=None):
    """A failed deterministic check reports an entry above its bound; the verdicts of this one run (as the audit
    rolls them up) are "violated" exactly for the claims with a failed check whose hypotheses hold, citing the run;
    a failure where the hypotheses fail is no evidence."""
    failed = {str(c) for c, ok, met in zip(arrays["claim_id"], arrays["passed"], arrays["hypotheses_met"])
              if met and not ok}
    note(f"failed checks (hypotheses met): {sorted(failed)}")
    for i in range(arrays["claim_id"].size):
        if not arrays["passed"][i] and B.claim(str(arrays["claim_id"][i])).mode.value == "deterministic":
            assert float(arrays["observed"][i]) > float(arrays["bound"][i]), str(arrays["claim_id"][i])
    run = SimpleNamespace(arrays=arrays, hash="h0", spec=SimpleNamespace(experiment=experiment,
                                                                         config={"part": part} if part else {}))
    verdicts = {v.claim: v for v in A.verdicts({experiment: [run]})}
    for cid in _by_claim(arrays):
        v = verdicts[cid]
        assert (v.verdict.value == "violated") == (cid in failed), (cid, v.reason)
        if cid in failed:
            assert f"python -m repro run {experiment}; result h0" in v.reason


@given(statistical_configs(), st.integers(0, 2**16))
def test_statistical_checks_are_reported(config, seed):
    arrays, _ = S.run_statistical(config, seed)
    assert set(STATISTICAL) <= set(_by_claim(arrays))
    _reports_what_it_computes(arrays, "fedclup.statistical")


@given(st.sampled_from([2.0, 4.0, 16.0]), st.sampled_from([0.05, 1.0, 20.0]), st.sampled_from([1.0, 0.5, 0.2]),
       st.sampled_from(["cor2", 1, 3]), st.integers(0, 2**16))
def test_optimization_checks_are_reported(kappa, lam, gamma_scale, K, seed):
    config = O.Theorem2Config(m=4, n=12, kappa=kappa, lam=lam, gamma_scale=gamma_scale, K=K, rounds=120,
                              profile="quick")
    arrays, _ = O.run_theorem2(config, seed)
    assert set(OPTIMIZATION) <= set(_by_claim(arrays))
    _reports_what_it_computes(arrays, "fedclup.theorem2")


@given(st.sampled_from([0.1, 3.0]), st.sampled_from([1, 4]), st.sampled_from([1, 8]), st.integers(0, 2**16))
def test_lemma7_checks_are_reported(lam, batch, K, seed):
    config = O.Lemma7Config(kappa=4.0, lam=lam, batch=batch, local_steps=K, replicates=1500, profile="quick")
    arrays, _ = O.run_lemma7(config, seed)
    assert list(arrays["claim_id"]) == ["fedclup.lemma7"]
    _reports_what_it_computes(arrays, "fedclup.stochastic", part="lemma7")


def _shrunk(claim, factor):
    """The claim with every right side multiplied by ``factor`` (a smaller, wrong bound)."""
    return dataclasses.replace(claim, conclusion=tuple(sp.Le(r.lhs, factor * r.rhs) for r in claim.relations))


CAN_FAIL = {  # claim -> (run, config) on which it is checked; the factor is set from the observed ratio
    "fedclup.lemma3": "stat", "fedclup.lemma4.pathwise": "stat", "fedclup.eq33": "stat",
    "fedclup.thm1.8a.pathwise": "stat", "fedclup.lemma4": "stat", "fedclup.thm1.8a": "stat",
    "fedclup.thm1.explicit": "stat", "fedclup.cor1.explicit": "stat",
    "fedclup.lemma5": "opt", "fedclup.lemma6": "opt", "fedclup.thm2": "opt", "fedclup.lemma7": "lemma7",
}
STAT_CONFIG = S.StatisticalConfig(m=6, n=20, spectrum=[0.5, 1.0, 2.0], R=0.3, noise=1.0, reps=80,
                                  lams=[0.01, 0.3, 10.0], profile="quick")
OPT_CONFIG = O.Theorem2Config(m=4, n=12, kappa=4.0, lam=1.0, gamma_scale=1.0, K="cor2", rounds=60, profile="quick")
LEMMA7_CONFIG = O.Lemma7Config(kappa=4.0, lam=1.0, batch=1, local_steps=4, replicates=1500, profile="quick")


def _run(kind):
    if kind == "stat":
        return S.run_statistical(STAT_CONFIG, 3)[0]
    if kind == "opt":
        return O.run_theorem2(OPT_CONFIG, 3)[0]
    return O.run_lemma7(LEMMA7_CONFIG, 3)[0]


@pytest.mark.parametrize("claim_id", sorted(CAN_FAIL))
def test_each_check_can_fail(claim_id, monkeypatch):
    honest = _run(CAN_FAIL[claim_id])
    idx = [i for i, c in enumerate(honest["claim_id"]) if c == claim_id]
    assert idx and all(honest["passed"][i] for i in idx)
    ratio = max(float(honest["ratio"][i]) for i in idx if np.isfinite(honest["ratio"][i]))
    assert 0 < ratio <= 1
    original = B.claim
    perturbed = _shrunk(original(claim_id), 0.3 * ratio)
    monkeypatch.setattr(B, "claim", lambda cid: perturbed if cid == claim_id else original(cid))
    broken = _run(CAN_FAIL[claim_id])
    assert not all(broken["passed"][i] for i, c in enumerate(broken["claim_id"]) if c == claim_id)


def test_lemma2_check_fails_when_the_inner_solution_is_not_the_minimiser(monkeypatch):
    """Lemma 2's check differentiates the envelope's values numerically; an inner solver that returns the minimiser
    of (11) for another lambda (so F_i is evaluated off its minimiser) breaks grad F_i = lam (w - w_*^(i)(w))."""
    from repro.papers.fedclup.problems import linreg_pfl as LR

    def lemma2(arrays):
        return [bool(ok) for c, ok in zip(arrays["claim_id"], arrays["passed"]) if c == "fedclup.lemma2"]

    assert lemma2(O.run_theorem2(OPT_CONFIG, 3)[0]) == [True]
    exact = LR.prox
    monkeypatch.setattr(LR, "prox", lambda A, b, lam, w: exact(A, b, 2 * lam, w))
    assert lemma2(O.run_theorem2(OPT_CONFIG, 3)[0]) == [False]


def test_lemma7_rounding_below_the_float_tolerance_is_not_a_violation():
    """Full batch, many steps: both sides of Lemma 7 fall below float rounding (observed ~1e-32, bound ~1e-61); the
    check reports that as inconclusive with the stated tolerance and as a violation without it."""
    import numpy as np
    from bounds.fedclup import claims as B
    from repro.papers.fedclup import checks as V

    claim = B.claim("fedclup.lemma7")
    values = {"mu": 1.0, "L": 2.0, "lam": 0.0, "eta": 0.5, "K": 200, "B": 1, "sigma": 0.0, "inner_err_0": 1.0}
    samples = np.full((4,), 1e-32)
    rounding = V.expectation(claim, "inner_err_K", samples, values, tol=V.LEMMA7_RTOL)
    assert rounding.passed and rounding.inconclusive
    assert not V.expectation(claim, "inner_err_K", samples, values).passed      # no tolerance: rounding would fail
    assert not V.expectation(claim, "inner_err_K", np.full((4,), 1e-6), values, tol=V.LEMMA7_RTOL).passed
