"""PC-FedAvg's config dataclasses (repro.experiment.Config): every spec's config is built through its experiment's
dataclass, a bad value is a one-line ConfigError naming the key and the value, and ``--set`` with a bad value stops
``python -m repro run`` before anything runs (exit status 2, one ``error:`` line)."""

import pytest

from repro import overrides, runner
from repro.errors import ConfigError
from repro.papers.pcfedavg import experiments as X
from repro.papers.pcfedavg.runs import data as D
from repro.papers.pcfedavg.runs import theory as T
from repro.registry import get


@pytest.mark.parametrize("profile", ["quick", "paper"])
def test_every_spec_config_is_its_dataclass(profile):
    for exp in X.EXPERIMENTS:
        assert exp.config is not None and exp.validate is None, exp.name
        for spec in exp.specs(profile):
            exp.check_config(spec.config)
            shape = [c for c in exp.config_classes() if set(spec.config) <= set(c.keys())]
            assert shape[0].from_dict(spec.config).as_dict() == spec.config, (exp.name, spec.config)
            # what the runner gives the run function: the same shape, with the stored values
            built = runner.typed_config(spec.function, spec.config)
            assert type(built) is shape[0] and built.as_dict() == spec.config, (exp.name, spec.config)
    shapes = {T.run_adversarial: T.SearchConfig, T.run_one_active: T.OneActiveConfig}
    for spec in T.adversarial_specs(profile):
        assert shapes[spec.function].from_dict(spec.config).as_dict() == spec.config


@pytest.mark.parametrize("name", [e.name for e in X.EXPERIMENTS])
def test_the_experiment_refuses_an_unknown_profile(name):
    with pytest.raises(ConfigError, match="^profile='huge' is not admissible"):
        next(e for e in X.EXPERIMENTS if e.name == name).specs("huge")


def test_data_defaults_are_the_dataclass_defaults():
    assert D.DEFAULTS["rounds"] == 100 and D.DEFAULTS["dtype"] == "float32" and D.DEFAULTS["subsample"] is None
    for method, shape in D.SHAPES.items():
        given = {k: v for k, v in D.HYPER["mnist"].items() if k in shape.keys()} | {
            "dataset": "mnist", "method": method, "profile": "quick"}
        assert shape(**given).as_dict() == {k: v for k, v in D.DEFAULTS.items() if k in shape.keys()} | given


THEORY = T.theory_configs("quick")[0].as_dict()
RATE = T.rate_specs("quick")[0].config
SEARCH = T.adversarial_specs("quick")[0].config
ONE_ACTIVE = T.adversarial_specs("quick")[1].config
DATA = D._config("mnist", "scaffold", "quick").as_dict()


class ByMethod:
    """The data runs' config as the runner builds it for ``run_data``: the dataclass of the config's method."""

    @staticmethod
    def from_dict(config):
        return runner.typed_config(D.run_data, config)
PC, FEDAVG, FEDPROX = (D._config("mnist", method, "quick").as_dict() for method in ("pcfedavg", "fedavg", "fedprox"))


@pytest.mark.parametrize("cls, base, key, bad", [
    (T.TheoryConfig, THEORY, "family", "cubic"), (T.TheoryConfig, THEORY, "sets", []),
    (T.TheoryConfig, THEORY, "sets", ["box", "simplex"]), (T.TheoryConfig, THEORY, "m", 1),
    (T.TheoryConfig, THEORY, "n", 2.5), (T.TheoryConfig, THEORY, "H", 0), (T.TheoryConfig, THEORY, "nu", -0.1),
    (T.TheoryConfig, THEORY, "R", 0), (T.TheoryConfig, THEORY, "S", True), (T.TheoryConfig, THEORY, "rho", 0.0),
    (T.TheoryConfig, THEORY, "gamma_frac", 1.5), (T.TheoryConfig, THEORY, "sigma", "homo"),
    (T.TheoryConfig, THEORY, "sigma", -1.0), (T.TheoryConfig, THEORY, "target_scale", float("inf")),
    (T.TheoryConfig, THEORY, "start", "origin"), (T.TheoryConfig, THEORY, "path", "other"),
    (T.RateConfig, RATE, "gamma_rule", "armijo"), (T.RateConfig, RATE, "R", -4), (T.RateConfig, RATE, "m", 1),
    (T.SearchConfig, SEARCH, "budget", 0),
    (T.OneActiveConfig, ONE_ACTIVE, "search", "random"), (T.OneActiveConfig, ONE_ACTIVE, "K", 0),
    (T.OneActiveConfig, ONE_ACTIVE, "sigma", 0.0), (T.OneActiveConfig, ONE_ACTIVE, "target", -3.0),
    (ByMethod, DATA, "dataset", "svhn"), (ByMethod, DATA, "method", "fednova"),
    (ByMethod, DATA, "rounds", 0), (ByMethod, DATA, "local_steps", 2.0),
    (ByMethod, DATA, "batch_fraction", 1.5), (ByMethod, DATA, "partition", "pathological"),
    (ByMethod, DATA, "alpha", 0.0), (ByMethod, DATA, "partition_seed", -1),
    (ByMethod, DATA, "preprocessing", "whiten"), (ByMethod, DATA, "init", "random"),
    (ByMethod, DATA, "rho_schedule", "linear"), (ByMethod, DATA, "rho_schedule", "constant:-1"),
    (ByMethod, DATA, "participating", 5), (ByMethod, DATA, "global_lr", 0.0),
    (ByMethod, PC, "path", "compactish"), (ByMethod, DATA, "subsample", 0),
    (ByMethod, DATA, "dtype", "float16"), (ByMethod, DATA, "tau", [1.0, 2.0]),
    (ByMethod, DATA, "sigma", [0.1, 0.1, 0.1, 0.0]), (ByMethod, PC, "gamma", float("nan")),
    (ByMethod, FEDAVG, "lr", -0.01), (ByMethod, DATA, "scaffold_lr", "fast"),
    (ByMethod, FEDPROX, "mu", -2.0), (D.ScaffoldConfig, DATA, "method", "fedavg"),
])
def test_a_bad_value_names_its_key_and_value(cls, base, key, bad):
    with pytest.raises(ConfigError, match=f"^{key}=") as info:
        cls.from_dict(base | {key: bad})
    assert repr(bad) in str(info.value) and "is not admissible" in str(info.value) and "\n" not in str(info.value)


def test_good_values_are_accepted_as_given():
    assert T.TheoryConfig.from_dict(THEORY | {"rho": 5, "sigma": 0.5}).rho == 5
    assert ByMethod.from_dict(DATA | {"rho_schedule": "constant:2.5", "subsample": 400}).subsample == 400


def test_the_adversarial_experiment_takes_either_shape_but_not_a_mix():
    exp = next(e for e in X.EXPERIMENTS if e.name == "pcfedavg.adversarial")
    for config in (SEARCH, ONE_ACTIVE):
        exp.check_config(config)
    with pytest.raises(ConfigError, match="^config key 'budget'"):
        exp.check_config(ONE_ACTIVE | {"budget": 12})
    with pytest.raises(ConfigError, match="^config key 'm'"):
        exp.check_config(SEARCH | {"m": 4})
    assert exp.config_keys() == set(T.SearchConfig.keys()) | set(T.OneActiveConfig.keys())


def test_each_method_s_config_holds_the_keys_that_method_reads():
    common = set(D.DataConfig.keys())
    own = {"pcfedavg": {"gamma", "path"}, "fedavg": {"global_lr", "lr"}, "fedprox": {"global_lr", "lr", "mu"},
           "scaffold": {"global_lr", "scaffold_lr", "participating"}}
    for spec in D.comparison_specs("quick"):
        assert set(spec.config) == common | own[spec.config["method"]], spec.config
    for spec in D.compact_specs("quick") + D.local_steps_specs("quick"):
        assert set(spec.config) == common | own["pcfedavg"], spec.config
    with pytest.raises(ConfigError, match="^config key 'gamma'"):          # a baseline never reads gamma
        ByMethod.from_dict(DATA | {"gamma": 0.03})


def test_setting_gamma_reruns_pcfedavg_only():
    """``--set gamma=...`` re-keys the PC-FedAvg runs of pcfedavg.comparison and keeps the baselines' cache keys."""
    exp = get("pcfedavg.comparison")
    specs = exp.specs("quick")
    changed = overrides.apply(exp, specs, {"gamma": 0.05})
    assert len(changed) == len(specs)
    for before, after in zip(specs, changed):
        if before.config["method"] == "pcfedavg":
            assert after.hash != before.hash and after.config == before.config | {"gamma": 0.05}
        else:
            assert after.hash == before.hash and after.config == before.config
    assert {s.config["method"] for s in specs} == set(D.METHODS)


@pytest.mark.parametrize("experiment, setting, words", [
    ("pcfedavg.theory", "m=1", ["m=1 is not admissible", ">= 2"]),
    ("pcfedavg.comparison", "batch_fraction=2", ["batch_fraction=2 is not admissible", "(0, 1]"]),
])
def test_a_bad_set_stops_the_run_with_one_line(tmp_path, experiment, setting, words, repro_main):
    out = repro_main("run", experiment, "--set", setting, "--no-progress", cwd=tmp_path,
                     env={"REPRO_RESULTS_DIR": str(tmp_path / "results")})
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 2, out.stderr[-2000:]
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    assert not list((tmp_path / "results").rglob("*.json"))
