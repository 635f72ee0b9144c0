"""Every constant typed once: the run-side values that figures, tables and searches show beside a claim are read from
the claim's encoding, so a change to the encoded constant reaches them. Each pair below is checked on a grid of
parameters against the encoding, then the encoded constant is perturbed (the claim replaced by one whose constant
is scaled) and the run-side value must follow.

The pairs: SSCA's search of Lemma 4 (51) (its objective and the sides it reports) and FedCLUP's Theorem 2 rate
1 - gamma mu_F / 4 (the Theorem 2 figure and table)."""
import itertools
from dataclasses import replace

import numpy as np
import pytest

from bounds.fedclup import claims as FB
from bounds.ssca import claims as SB
from repro.papers.fedclup.runs import optimization as O
from repro.papers.ssca import checks as SV
from repro.papers.ssca.runs import search as SS

GRID = list(itertools.product((0.01, 0.3, 1.0), (0.1, 1.0), (0.5, 4.0)))


def _scaled(claim, symbol: str, factor: float):
    """``claim`` with every occurrence of ``symbol`` in its bounds multiplied by ``factor`` (the constant that
    carries it scaled), same id."""
    def scale(expr):
        return expr.subs({x: factor * x for x in expr.free_symbols if x.name == symbol}, simultaneous=True)
    return replace(claim, conclusion=tuple(type(r)(r.lhs, scale(r.rhs)) for r in claim.relations))


def _patched(monkeypatch, module, claim_id: str, perturbed) -> None:
    original = module.claim
    monkeypatch.setattr(module, "claim", lambda cid: perturbed if cid == claim_id else original(cid))


def _lemma4_series(gamma, scale):
    rng = np.random.default_rng(np.random.SeedSequence([7, int(gamma * 100), int(scale * 10)]))
    delta, err = scale * rng.uniform(0.1, 1.0, 5), rng.uniform(0.0, 0.5, 5)
    descent = -rng.uniform(0.0, 1.0, 5) * gamma * delta**2
    return descent, np.full(5, gamma), delta, err


@pytest.mark.parametrize("gamma, mu, L_hat", GRID)
def test_ssca_lemma4_search_reads_51_from_its_encoding(gamma, mu, L_hat):
    series = _lemma4_series(gamma, mu)
    observed, bound = SS.lemma4_sides(*series, mu, L_hat)
    k = int(np.flatnonzero(series[0] == observed)[0])
    encoded = SB.claim("ssca.lemma4").evaluate(descent=series[0], gamma=series[1], Delta=series[2], err=series[3],
                                               mu=mu, L_hat=L_hat)["descent"]
    assert bound == pytest.approx(float(encoded[k]), rel=1e-12, abs=1e-15)
    assert (SS.lemma4_ratio(*series, mu, L_hat) > 1) == (not SV.lemma4_outcome(*series, mu, L_hat).passed)


def test_ssca_lemma4_search_follows_a_perturbed_constant(monkeypatch):
    series, mu, L_hat = _lemma4_series(0.3, 1.0), 1.0, 2.0
    before = SS.lemma4_ratio(*series, mu, L_hat)
    _patched(monkeypatch, SB, "ssca.lemma4", _scaled(SB.claim("ssca.lemma4"), "L_hat", 0.5))
    after = SS.lemma4_ratio(*series, mu, L_hat)
    assert after == pytest.approx(2 * before, rel=1e-6)   # the constant halved in the encoding: the ratio doubles


@pytest.mark.parametrize("gamma, mu, lam", GRID)
def test_fedclup_theorem2_rate_is_the_encoded_one(gamma, mu, lam):
    mu_F = lam * mu / (lam + mu)
    assert O.theorem2_rate(gamma, mu, lam) == pytest.approx(1 - gamma * mu_F / 4, rel=1e-14)


def test_fedclup_theorem2_rate_follows_a_perturbed_constant(monkeypatch):
    before = O.theorem2_rate(0.5, 1.0, 2.0)
    _patched(monkeypatch, FB, "fedclup.thm2", _scaled(FB.claim("fedclup.thm2"), "gamma", 2.0))
    assert 1 - O.theorem2_rate(0.5, 1.0, 2.0) == pytest.approx(2 * (1 - before), rel=1e-12)
