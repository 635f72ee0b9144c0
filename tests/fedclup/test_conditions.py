"""FedCLUP's printed settings against the conditions of its results (repro.papers.fedclup.conditions): each finding
decides both ways on inputs where the answer is known, and the MNIST loss the runs train has mu = 0."""
import os

import numpy as np
import pytest

from repro.papers.fedclup import conditions as CN
from repro.papers.fedclup.problems.stacked_clients import StackedClients


def _clients(ridge: float = 0.0, scale: float = 1.0) -> StackedClients:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(3, 20, 4)) * scale
    y = rng.integers(0, 3, size=(3, 20))
    return StackedClients(X, y, "softmax", n_classes=3, ridge=ridge)


def test_partial_participation_is_outside_theorem_2():
    assert CN.participation((0.1, 0.1), "Fig", "words").verdict == "discrepancy"
    assert CN.participation((1.0,), "Fig", "words").verdict == "consistent"


def test_assumption2_fails_without_ridge_and_holds_with_one():
    assert CN.mnist_assumption2(_clients(), 3, "here", "words").verdict == "discrepancy"
    assert CN.mnist_assumption2(_clients(ridge=0.1), 3, "here", "words").verdict == "consistent"


def test_the_local_step_is_judged_against_the_per_sample_constant():
    clients = _clients()
    per_sample = 0.5 * float(np.max(np.sum(clients.X ** 2, axis=-1)))
    limit = 1 / (per_sample + 1.0)
    assert CN.mnist_local_lr(0.9 * limit, (1.0,), {3: clients}, "here", "words").verdict == "consistent"
    assert CN.mnist_local_lr(1.1 * limit, (1.0,), {3: clients}, "here", "words").verdict == "discrepancy"


def test_a_singular_design_breaks_assumption2():
    good = np.broadcast_to(np.diag([0.5, 1.0]), (4, 2, 2))
    bad = good.copy()
    bad[1] = np.diag([0.0, 1.0])
    assert CN.linreg_assumption2({"good": good}, "here", "words").verdict == "consistent"
    assert CN.linreg_assumption2({"good": good, "bad": bad}, "here", "words").verdict == "discrepancy"


def test_the_server_step_bound_is_proven():
    finding = CN.server_step_bound("here", "words")
    assert finding.verdict == "consistent" and "1/L" in finding.summary and finding.method == "proven symbolically"


@pytest.mark.skipif(not os.environ.get("REPRO_DATA_DIR"), reason="platform: set REPRO_DATA_DIR to the folder holding MNIST")
def test_the_mnist_loss_of_the_runs_has_mu_zero():
    from repro.papers.fedclup.runs import mnist as mn
    train = mn._data(2)["train"]
    finding = CN.mnist_assumption2(train, 2, "here", "words")
    assert finding.verdict == "discrepancy" and "strong-convexity constant is 0" in finding.summary
