"""PC-FedAvg's config dataclasses (repro.experiment.Config): every spec's config is built through its experiment's
dataclass, a bad value is a one-line ConfigError naming the key and the value, and ``--set`` with a bad value stops
``python -m repro run`` before anything runs (exit status 2, one ``error:`` line)."""

import pytest

from repro.errors import ConfigError
from repro.papers.pcfedavg import experiments as X
from repro.papers.pcfedavg.runs import data as D
from repro.papers.pcfedavg.runs import theory as T



@pytest.mark.parametrize("profile", ["quick", "paper"])
def test_every_spec_config_is_its_dataclass(profile):
    for exp in X.EXPERIMENTS:
        assert exp.config is not None and exp.validate is None, exp.name
        for spec in exp.specs(profile):
            exp.check_config(spec.config)
            shape = [c for c in exp.config_classes() if set(spec.config) <= set(c.keys())]
            assert shape[0].from_dict(spec.config).as_dict() == spec.config, (exp.name, spec.config)
    shapes = {"run_adversarial": T.SearchConfig, "run_one_active": T.OneActiveConfig}
    for spec in T.adversarial_specs(profile):
        assert shapes[spec.function.rsplit(".", 1)[1]].from_dict(spec.config).as_dict() == spec.config


def test_data_defaults_are_the_dataclass_defaults():
    assert D.DEFAULTS["rounds"] == 100 and D.DEFAULTS["dtype"] == "float32" and D.DEFAULTS["subsample"] is None
    assert D.DataConfig(**D.HYPER["mnist"], dataset="mnist", method="fedavg", profile="quick").as_dict() \
        == D.DEFAULTS | D.HYPER["mnist"] | {"dataset": "mnist", "method": "fedavg", "profile": "quick"}


THEORY = T.theory_configs("quick")[0]
RATE = T.rate_specs("quick")[0].config
SEARCH = T.adversarial_specs("quick")[0].config
ONE_ACTIVE = T.adversarial_specs("quick")[1].config
DATA = D._config("mnist", "scaffold", "quick")


@pytest.mark.parametrize("cls, base, key, bad", [
    (T.TheoryConfig, THEORY, "family", "cubic"), (T.TheoryConfig, THEORY, "sets", []),
    (T.TheoryConfig, THEORY, "sets", ["box", "simplex"]), (T.TheoryConfig, THEORY, "m", 1),
    (T.TheoryConfig, THEORY, "n", 2.5), (T.TheoryConfig, THEORY, "H", 0), (T.TheoryConfig, THEORY, "nu", -0.1),
    (T.TheoryConfig, THEORY, "R", 0), (T.TheoryConfig, THEORY, "S", True), (T.TheoryConfig, THEORY, "rho", 0.0),
    (T.TheoryConfig, THEORY, "gamma_frac", 1.5), (T.TheoryConfig, THEORY, "sigma", "homo"),
    (T.TheoryConfig, THEORY, "sigma", -1.0), (T.TheoryConfig, THEORY, "target_scale", float("inf")),
    (T.TheoryConfig, THEORY, "start", "origin"), (T.TheoryConfig, THEORY, "path", "other"),
    (T.TheoryConfig, THEORY, "profile", "huge"),
    (T.RateConfig, RATE, "gamma_rule", "armijo"), (T.RateConfig, RATE, "R", -4), (T.RateConfig, RATE, "m", 1),
    (T.SearchConfig, SEARCH, "budget", 0),
    (T.OneActiveConfig, ONE_ACTIVE, "search", "random"), (T.OneActiveConfig, ONE_ACTIVE, "K", 0),
    (T.OneActiveConfig, ONE_ACTIVE, "sigma", 0.0), (T.OneActiveConfig, ONE_ACTIVE, "target", -3.0),
    (D.DataConfig, DATA, "dataset", "svhn"), (D.DataConfig, DATA, "method", "fednova"),
    (D.DataConfig, DATA, "rounds", 0), (D.DataConfig, DATA, "local_steps", 2.0),
    (D.DataConfig, DATA, "batch_fraction", 1.5), (D.DataConfig, DATA, "partition", "pathological"),
    (D.DataConfig, DATA, "alpha", 0.0), (D.DataConfig, DATA, "partition_seed", -1),
    (D.DataConfig, DATA, "preprocessing", "whiten"), (D.DataConfig, DATA, "init", "random"),
    (D.DataConfig, DATA, "rho_schedule", "linear"), (D.DataConfig, DATA, "rho_schedule", "constant:-1"),
    (D.DataConfig, DATA, "participating", 5), (D.DataConfig, DATA, "global_lr", 0.0),
    (D.DataConfig, DATA, "path", "compactish"), (D.DataConfig, DATA, "subsample", 0),
    (D.DataConfig, DATA, "dtype", "float16"), (D.DataConfig, DATA, "tau", [1.0, 2.0]),
    (D.DataConfig, DATA, "sigma", [0.1, 0.1, 0.1, 0.0]), (D.DataConfig, DATA, "gamma", float("nan")),
    (D.DataConfig, DATA, "lr", -0.01), (D.DataConfig, DATA, "scaffold_lr", "fast"), (D.DataConfig, DATA, "mu", -2.0),
])
def test_a_bad_value_names_its_key_and_value(cls, base, key, bad):
    with pytest.raises(ConfigError, match=f"^{key}=") as info:
        cls.from_dict(base | {key: bad})
    assert repr(bad) in str(info.value) and "is not admissible" in str(info.value) and "\n" not in str(info.value)


def test_good_values_are_accepted_as_given():
    assert T.TheoryConfig.from_dict(THEORY | {"rho": 5, "sigma": 0.5}).rho == 5
    assert D.DataConfig.from_dict(DATA | {"rho_schedule": "constant:2.5", "subsample": 400}).subsample == 400


def test_the_adversarial_experiment_takes_either_shape_but_not_a_mix():
    exp = next(e for e in X.EXPERIMENTS if e.name == "pcfedavg.adversarial")
    for config in (SEARCH, ONE_ACTIVE):
        exp.check_config(config)
    with pytest.raises(ConfigError, match="^config key 'budget'"):
        exp.check_config(ONE_ACTIVE | {"budget": 12})
    with pytest.raises(ConfigError, match="^config key 'm'"):
        exp.check_config(SEARCH | {"m": 4})
    assert exp.config_keys() == {"profile"}


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
