"""PC-FedAvg experiments end to end at toy scale: specs, run functions, figures, audit section; and the layers of
the paper package's experiments / figures / audit / summaries modules."""
import dataclasses
import os

import numpy as np
import pytest

from repro import runner
from repro.papers.pcfedavg import audit as A
from repro.papers.pcfedavg.runs import data as D
from repro.registry import paper
from repro.papers.pcfedavg.runs import theory as T
from repro.registry import get
from repro.runner import RunSpec

DATA = os.environ.get("REPRO_DATA_DIR")
needs_data = pytest.mark.skipif(not DATA or not os.path.isdir(os.path.join(DATA, "mnist")),
                                reason="platform: set REPRO_DATA_DIR to the folder holding the real datasets")


@pytest.mark.parametrize("profile", ["quick", "paper"])
def test_specs_are_well_formed(profile):
    for name in ("pcfedavg.theory", "pcfedavg.rates", "pcfedavg.adversarial", "pcfedavg.comparison",
                 "pcfedavg.local_steps"):
        specs = get(name).specs(profile)
        assert specs and len({s.hash for s in specs}) == len(specs)
    comparison = D.comparison_specs(profile)
    assert {s.config["method"] for s in comparison} == set(D.METHODS)
    # Section 5's settings as stated, in every config: those its method reads
    for s in comparison:
        hyper = D.HYPER[s.config["dataset"]]
        assert all(s.config[k] == v for k, v in hyper.items() if k in s.config)
        assert s.config["tau"] == hyper["tau"] and ("gamma" in s.config) is (s.config["method"] == "pcfedavg")
        assert s.config["rounds"] == 100 and s.config["local_steps"] == 20 and s.config["batch_fraction"] == 0.1


def test_rho_schedule_is_section5s():
    rho = D.rho_schedule("quartic_root_10000", 100)
    assert rho[0] == pytest.approx(10.0) and rho[-1] == pytest.approx(10099 ** 0.25)
    with pytest.raises(ValueError, match="rho_schedule"):
        D.rho_schedule("linear", 3)


def _tiny_theory(tmp_path):
    cfg = dataclasses.replace(T.theory_configs("quick")[0], R=4, S=8, H=2)
    specs = [RunSpec("pcfedavg.theory", cfg, 0, T.run_theory_instance)]
    rates = [RunSpec("pcfedavg.rates", T.RateConfig(**T.RATE_INSTANCE, R=R, S=8, gamma_rule=rule, profile="quick"), 0,
                     T.run_rate_point)
             for rule in ("admissible", "proof") for R in (4, 16, 64)]
    adv = [RunSpec("pcfedavg.adversarial", T.SearchConfig(budget=2, profile="quick"), 0, T.run_adversarial),
           RunSpec("pcfedavg.adversarial", T.OneActiveConfig(m=16, K=300, rho=10.0, sigma=1.0, target=3.0,
                                                             profile="quick"), 0, T.run_one_active)]
    root = tmp_path / "results"
    return {"pcfedavg.theory": runner.run_all(specs, results_root=root, progress=False),
            "pcfedavg.rates": runner.run_all(rates, results_root=root, progress=False),
            "pcfedavg.adversarial": runner.run_all(adv, results_root=root, progress=False)}


def _tiny_data(tmp_path):
    small = {"subsample": 400, "rounds": 2}
    comparison = [RunSpec("pcfedavg.comparison", D._config(d, meth, "quick", **small), seed, D.run_data)
                  for d in D.DATASETS for meth in D.METHODS for seed in range(2)]
    local = [RunSpec("pcfedavg.local_steps", D._config(d, "pcfedavg", "quick", local_steps=h, **small), 0,
                     D.run_data)
             for d in D.DATASETS for h in D.LOCAL_STEPS]
    root = tmp_path / "results"
    return {"pcfedavg.comparison": runner.run_all(comparison, results_root=root, progress=False),
            "pcfedavg.local_steps": runner.run_all(local, results_root=root, progress=False)}


@needs_data
def test_toy_pipeline_figures_and_audit(tmp_path):
    results = _tiny_theory(tmp_path) | _tiny_data(tmp_path)
    for r in results["pcfedavg.comparison"]:
        a = r.arrays
        assert a["global_loss"].shape == (3,) and np.all(np.isfinite(a["global_loss"]))
        assert a["infeas_mean"][0] == 0.0                        # the zero start is feasible
    pc = [r for r in results["pcfedavg.comparison"] if r.spec.config["method"] == "pcfedavg"]
    assert pc[0].arrays["own_block_dist"].shape == (2 * 20, 4)
    paths = []
    for name in A.AUDIT_EXPERIMENTS:
        paths += get(name).figure(results.get(name, []), "quick") if get(name).figure else []   # pep: not run here
    assert {p.name for p in paths} >= {"figure1.png", "figure2.png", "figure3.png", "figure4.png",
                                       "theory_ratio.png", "rates.png", "prop48ii_one_active.png"}
    verdicts = A.verdicts(results)
    assert sorted(v.claim for v in verdicts) == sorted([c.id for c in paper("pcfedavg").claims] + [s.id for s in A.STATEMENTS])
    text = A.audit_section(results, "quick", verdicts)
    for heading in ("### Claims on synthetic instances", "### Proof steps re-derived",
                    "### Communication complexity derived", "### Empirical rates", "### Section 5 experiments",
                    "### Symbolic and settings findings"):
        assert heading in text
    assert "pcfedavg.settings.cifar10.stepsize" in text and "pcfedavg.settings.rho_schedule" in text
    for v in verdicts:                                   # the claims table shows the computed verdicts
        assert f"| {v.claim} |" in text and f"| {v.verdict.value} |" in text


def test_bad_data_config_is_refused():
    cfg = D._config("mnist", "pcfedavg", "quick")
    with pytest.raises(ValueError, match="dataset"):
        D.PCFedAvgConfig.from_dict(cfg.as_dict() | {"dataset": "svhn"})
    with pytest.raises(ValueError, match="local_steps"):
        dataclasses.replace(cfg, local_steps=0)


