"""SSCA's failure-probability search (repro.papers.ssca.runs.failsearch): over degenerate instances (batch of one,
one client, d = 1, one or two iterations, step sizes at the ends (4) and (6) admit) Lemma 4's (51) fails with
probability exactly 0 -- no false alarm -- while the same search against (51) with L_hat halved finds a failing
pattern: the instances see the constant."""
import functools
from fractions import Fraction

import numpy as np

from repro import exact_audit
from repro.papers.ssca.runs import failsearch as F
from repro.verdicts import Bearing

CONFIG = F.FailSearchConfig(family="batch1-client1", maxiter=1, popsize=1, horizon_steps=2, profile="quick")
BOX = {"updates": (1.0, 2.0)}


@functools.lru_cache(maxsize=None)
def run(L_factor: float = 1.0):
    """One search on the small box (computed once per factor: the tests share it)."""
    return F.run_failsearch(CONFIG, 0, BOX, L_factor)


def as_run(arrays, meta):
    class Run:
        hash = "h"
    out = Run()
    out.arrays, out.meta = arrays, {"metadata": meta}
    return out


def test_the_search_finds_no_failure_and_the_evidence_supports():
    arrays, meta = run()
    search = meta["failure_search"]
    assert search["probability"] == "0" and search["instances"] > 2 ** len(F.FAMILIES["batch1-client1"][1]) // 2
    assert meta["step_conditions"] == {"holds4": True, "holds6": True}
    assert [p for _, p in search["horizons"]] == ["0", "0"]
    [ev] = exact_audit.evidence([as_run(arrays, meta)], "ssca.failsearch", fails="(51) fails", pattern_words="p")
    assert ev.bearing is Bearing.SUPPORTS and "most likely failure over family batch1-client1" in ev.summary


def test_with_L_hat_halved_the_search_finds_a_failing_pattern():
    arrays, meta = run(0.5)
    count = exact_audit.counts(as_run(arrays, meta))[0]
    assert count.probability > 0 and count.failed >= 1 and count.observed > count.bound
    assert Fraction(meta["failure_search"]["probability"]) == count.probability


def test_every_decoded_instance_has_admissible_step_sizes():
    family = F.family("batch1-client1")
    rng = np.random.default_rng(np.random.SeedSequence(0))
    for x in rng.uniform(*np.array(family.bounds).T, size=(50, len(family.bounds))):
        p = family.decode(x)
        assert 0 < p["alpha"] < 1 and max(p["alpha"], 0.5) < p["beta"] <= 1 and 0 < p["a1"] <= 1
    corner = family.decode(np.array(family.bounds)[:, 1])
    assert corner["beta"] == 1.0 and corner["a1"] == corner["a2"] == 1.0 and corner["updates"] == 3
