"""FedSGM run configs: one frozen dataclass per experiment (repro.experiment.Config) builds every spec's config and
refuses a bad value with a one-line ConfigError naming the key and the value, also on the command line (--set); the
profile is checked once, by Experiment.specs; every run function is given its config dataclass by the runner."""

import pytest

from repro.errors import ConfigError
from repro.papers.fedsgm import experiments as X
from repro.papers.fedsgm.runs import theorems as R
from repro.runner import typed_config

EXPERIMENTS = {exp.name: exp for exp in X.EXPERIMENTS}


@pytest.mark.parametrize("profile", ["quick", "paper"])
@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_every_spec_config_is_built_by_its_dataclass(name, profile):
    exp = EXPERIMENTS[name]
    assert exp.config is not None and exp.validate is None
    for spec in exp.specs(profile):
        assert set(spec.config) == set(exp.config.keys())
        assert exp.config.from_dict(spec.config).as_dict() == spec.config


def test_figure1_defaults_are_the_dataclass_defaults():
    config = R.Figure1Config(switching="hard", variant="default", profile="quick")
    assert R.FIGURE1_DEFAULTS == {k: v for k, v in config.as_dict().items()
                                  if k not in ("switching", "variant", "profile")}
    assert config.params().w0 is None and config.params().K == 9


BAD = [
    ("fedsgm.figure1", "n_clients", 0), ("fedsgm.figure1", "n_clients", 213), ("fedsgm.figure1", "n_clients", 2.0),
    ("fedsgm.figure1", "E", 0), ("fedsgm.figure1", "T", 0), ("fedsgm.figure1", "eps", 0.0),
    ("fedsgm.figure1", "eta", -0.1), ("fedsgm.figure1", "eta", float("nan")), ("fedsgm.figure1", "K", 0),
    ("fedsgm.figure1", "K", 32), ("fedsgm.figure1", "K", 2.5), ("fedsgm.figure1", "beta", -1.0),
    ("fedsgm.figure1", "bias", 1), ("fedsgm.figure1", "labels", "majority"), ("fedsgm.figure1", "scaling", "bogus"),
    ("fedsgm.figure1", "level", float("inf")), ("fedsgm.figure1", "w0", "ones"),
    ("fedsgm.figure1", "switching", "medium"), ("fedsgm.figure1", "variant", "other"),
    ("fedsgm.theory", "family", "quadratic"), ("fedsgm.theory", "dim", 2), ("fedsgm.theory", "dim", 0),
    ("fedsgm.theory", "n_clients", 0), ("fedsgm.theory", "E", 1.5), ("fedsgm.theory", "T", 0),
    ("fedsgm.theory", "K_frac", 0.0), ("fedsgm.theory", "K_frac", 1.5), ("fedsgm.theory", "constants", "stated"),
    ("fedsgm.theory", "w0_scale", 0.0),
    ("fedsgm.montecarlo", "switching", "x"), ("fedsgm.montecarlo", "K_frac", 2.0), ("fedsgm.montecarlo", "T", -1),
    ("fedsgm.montecarlo", "w0_scale", float("nan")),
    ("fedsgm.adversarial", "constants", "hard-proof"), ("fedsgm.adversarial", "budget", 0),
    ("fedsgm.adversarial", "budget", 2.5),
]


@pytest.mark.parametrize("name, key, value", BAD, ids=[f"{n}-{k}={v!r}" for n, k, v in BAD])
def test_a_bad_value_is_one_line_naming_key_and_value(name, key, value):
    exp = EXPERIMENTS[name]
    good = exp.specs("quick")[0].config            # theory: piecewise_linear_1d, dim 1
    with pytest.raises(ConfigError) as info:
        exp.config.from_dict(good | {key: value})
    message = str(info.value)
    assert message.startswith(f"{key}={value!r} is not admissible: ") and "\n" not in message, message
    with pytest.raises(ConfigError, match=f"^{key}="):
        exp.check_config(good | {key: value})


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_a_bad_profile_is_refused_by_the_experiment(name):
    with pytest.raises(ConfigError, match="^profile='huge' is not admissible: one of quick, paper$"):
        EXPERIMENTS[name].specs("huge")


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_every_run_function_is_given_its_config_dataclass(name):
    exp = EXPERIMENTS[name]
    for spec in exp.specs("quick"):
        config = typed_config(spec.function, spec.config)
        assert isinstance(config, exp.config_classes()) and config.as_dict() == spec.config, spec.function_path


def test_unknown_and_missing_keys_are_refused():
    good = R.AdversarialConfig(constants="hard-stated", budget=3, profile="quick").as_dict()
    with pytest.raises(ConfigError, match="'budgte'"):
        R.AdversarialConfig.from_dict(good | {"budgte": 3})
    with pytest.raises(ConfigError, match="'budget' is required"):
        R.AdversarialConfig.from_dict({k: v for k, v in good.items() if k != "budget"})


@pytest.mark.parametrize("args, line", [
    (("fedsgm.adversarial", "--set", "budget=0"),
     "error: budget=0 is not admissible: an integer number of candidate instances >= 1"),
    (("fedsgm.theory", "--set", "K_frac=1.5"),
     "error: K_frac=1.5 is not admissible: None (no compression) or a fraction of the coordinates in (0, 1]"),
])
def test_a_bad_set_value_exits_2_with_one_error_line(tmp_path, args, line, repro_main):
    results = tmp_path / "results"
    out = repro_main("run", *args, "--no-progress", cwd=tmp_path, env={"REPRO_RESULTS_DIR": str(results)})
    assert out.returncode == 2, out.stderr[-2000:]
    assert out.stderr.strip().splitlines() == [line], out.stderr
    assert not results.exists() or not list(results.rglob("*.json"))   # nothing ran, nothing cached
