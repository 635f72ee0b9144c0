"""FedCLUP's shared contracts: every experiment's config dataclass, or tuple of them for experiments whose runs come
in several shapes (the single source of its keys and defaults, built through the shared
``Experiment.check_config``; a bad value a one-line ConfigError naming key and value, also through
``python -m repro run --set``), and the one checks entry ``check(claim, problem, trace)``."""
import dataclasses

import pytest

from bounds.fedclup import claims as B
from repro.batches import member_configs
from repro.errors import ConfigError
from repro import registry, runner
from repro.experiment import PROFILES, Config
from repro.papers.fedclup import checks as V
from repro.papers.fedclup import experiments as X
from repro.papers.fedclup.runs import logistic as LG
from repro.papers.fedclup.runs import mnist as MN
from repro.papers.fedclup.runs import optimization as O
from repro.papers.fedclup.runs import statistical as S



def _shape(exp, config: dict) -> type:
    """The shape ``exp.check_config`` builds for ``config``: the first of its classes whose keys cover it."""
    return next(c for c in exp.config_classes() if set(config) <= set(c.keys()))


@pytest.mark.parametrize("profile", PROFILES)
def test_every_spec_config_is_its_dataclass(profile):
    """Each config (batch member) passes the experiment's check and is exactly the dict of its shape's dataclass:
    no key outside it, none missing."""
    for exp in X.EXPERIMENTS:
        assert registry.get(exp.name) is exp and exp.config_classes(), exp.name
        for cls in exp.config_classes():
            assert isinstance(cls, type) and issubclass(cls, Config), (exp.name, cls)
            assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, (exp.name, cls)
        for spec in exp.specs(profile):
            for config in member_configs(spec.config):
                exp.check_config(config)
                assert _shape(exp, config).from_dict(config).as_dict() == config, (exp.name, config)


def test_mixed_shapes_build_their_own_class():
    for name, shapes in [("fedclup.stochastic", (O.Lemma7Config, O.NoiseBallConfig)),
                         ("fedclup.mnist", (MN.MnistConfig, MN.MnistProxConfig))]:
        exp = registry.get(name)
        assert exp.config_classes() == shapes
        for profile in PROFILES:       # every shape is the shape of some run, in both profiles
            assert {_shape(exp, c) for s in exp.specs(profile) for c in member_configs(s.config)} == set(shapes)
    stochastic, mnist = registry.get("fedclup.stochastic"), registry.get("fedclup.mnist")
    parts = {c["part"]: _shape(stochastic, c) for s in stochastic.specs("quick") for c in member_configs(s.config)}
    assert parts == O.STOCHASTIC_PARTS
    methods = {c["method"]: _shape(mnist, c) for s in mnist.specs("quick") for c in member_configs(s.config)}
    assert methods == {m: MN.MnistProxConfig if m in MN.PROXIMAL else MN.MnistConfig for m in MN.METHODS}
    assert O.THEOREM2_BASE == {"m": 10, "n": 40, "d": 4, "R": 0.5, "noise": 1.0, "eps_rel": 1e-8}


def test_set_keys_are_those_some_run_has():
    """``--set`` may change a key that some shape of the experiment's config has (and changes only the runs that have
    it): exactly the keys of the runs of the experiment (both profiles), and the keys of its dataclasses."""
    for exp in X.EXPERIMENTS:
        some = frozenset.union(*(frozenset(c) for p in PROFILES for s in exp.specs(p)
                                 for c in member_configs(s.config)))
        assert exp.config_keys() == some, exp.name
    assert registry.get("fedclup.stochastic").config_keys() >= frozenset(O.StochasticConfig.keys())
    assert registry.get("fedclup.mnist").config_keys() == frozenset(MN.MnistProxConfig.keys())
    assert "lam" in registry.get("fedclup.mnist").config_keys()


def _first(exp_name: str, **match) -> dict:
    """The first quick-profile config (batch member) of ``exp_name`` with the values of ``match``."""
    exp = registry.get(exp_name)
    return next(c for s in exp.specs("quick") for c in member_configs(s.config)
                if all(c.get(k) == v for k, v in match.items()))


BAD = [  # (experiment, key, bad value)
    ("fedclup.statistical", "design", "gaussian"), ("fedclup.statistical", "m", 1),
    ("fedclup.statistical", "reps", 1), ("fedclup.statistical", "spectrum", [1.0, -2.0]),
    ("fedclup.statistical", "lams", []), ("fedclup.statistical", "R", -0.5), ("fedclup.statistical", "n", 2),
    ("fedclup.minimax", "regime", "chaotic"), ("fedclup.minimax", "noise", float("nan")),
    ("fedclup.tradeoff", "rounds", 0), ("fedclup.tradeoff", "local_steps", 2.5),
    ("fedclup.theorem2", "K", "cor3"), ("fedclup.theorem2", "K", 0), ("fedclup.theorem2", "lam", -1.0),
    ("fedclup.theorem2", "gamma_scale", 0.0), ("fedclup.theorem2", "kappa", 0.5), ("fedclup.theorem2", "eps_rel", 2.0),
    ("fedclup.theorem2", "d", 1.5),
    ("fedclup.rounds", "lams", [0.1, "x"]),
    ("fedclup.stochastic", "batch", 0), ("fedclup.stochastic", "batch", 41), ("fedclup.stochastic", "replicates", 1),
    ("fedclup.stochastic", "part", "other"),
    ("fedclup.figure2", "method", "scaffold"), ("fedclup.figure2", "lam", None), ("fedclup.figure2", "L", "guess"),
    ("fedclup.figure3", "sample_rate", 1.5), ("fedclup.figure4", "server", "average_sampled"),
    ("fedclup.figure6", "data_seed", -1), ("fedclup.figure6", "adapt_constant", 0.0),
    ("fedclup.mnist", "classes", 11), ("fedclup.mnist", "method", "scaffold"), ("fedclup.mnist", "lr", 0),
]


@pytest.mark.parametrize("experiment, key, bad", BAD)
def test_a_bad_value_is_a_config_error_naming_key_and_value(experiment, key, bad):
    config = _first(experiment) | {key: bad}
    with pytest.raises(ConfigError) as info:
        registry.get(experiment).check_config(config)
    message = str(info.value)
    assert message.startswith(f"{key}={bad!r} is not admissible: ") and "\n" not in message, message


def test_unknown_and_missing_keys_are_refused():
    config = _first("fedclup.theorem2")
    with pytest.raises(ConfigError, match="config key 'etta'"):
        O.Theorem2Config.from_dict(config | {"etta": 1.0})
    with pytest.raises(ConfigError, match="key 'lam' is required"):
        O.Theorem2Config.from_dict({k: v for k, v in config.items() if k != "lam"})
    with pytest.raises(ConfigError, match="config key 'lam'"):           # LocalTrain takes no lambda
        MN.MnistConfig.from_dict(_first("fedclup.mnist") | {"lam": 0.5})
    # through the experiment: a config with no fitting shape is refused by the closest one
    mnist, stochastic = registry.get("fedclup.mnist"), registry.get("fedclup.stochastic")
    with pytest.raises(ConfigError, match="^method='localtrain' is not admissible: one of"):
        mnist.check_config(_first("fedclup.mnist", method="localtrain") | {"lam": 0.5})
    with pytest.raises(ConfigError, match="^method='fedclup' is not admissible: one of"):
        mnist.check_config({k: v for k, v in _first("fedclup.mnist", method="fedclup").items() if k != "lam"})
    lemma7 = _first("fedclup.stochastic", part="lemma7")
    with pytest.raises(ConfigError, match="config key 'etta' .* not admissible for Lemma7Config"):
        stochastic.check_config(lemma7 | {"etta": 1.0})
    with pytest.raises(ConfigError, match="key 'replicates' is required"):
        stochastic.check_config({k: v for k, v in lemma7.items() if k != "replicates"})
    with pytest.raises(ConfigError, match="^part='ball' is not admissible: one of 'lemma7'$"):
        stochastic.check_config(lemma7 | {"part": "ball"})
    with pytest.raises(ConfigError, match="config key 'rounds' .* not admissible for Lemma7Config"):
        stochastic.check_config(lemma7 | {"rounds": 10})


def test_a_bad_profile_is_refused_by_the_experiment():
    """The profile is checked once, by ``Experiment.specs`` (the configs take it as valid)."""
    for exp in X.EXPERIMENTS:
        with pytest.raises(ConfigError, match="^profile='huge' is not admissible: one of quick, paper$"):
            exp.specs("huge")


def test_run_functions_receive_their_config_dataclass():
    """The runner builds each run function's annotated config (a batch: one per member) from the stored dict; MNIST's
    one run function receives its method's shape."""
    for exp in X.EXPERIMENTS:
        spec = exp.specs("quick")[0]
        config = runner.typed_config(spec.function, spec.config)
        built = config if isinstance(config, tuple) else (config,)
        assert [c.as_dict() for c in built] == member_configs(spec.config), exp.name
        assert all(type(c) in exp.config_classes() for c in built), exp.name
    for method in MN.METHODS:
        config = runner.typed_config(MN.run_mnist, _first("fedclup.mnist", method=method))
        assert type(config) is (MN.MnistProxConfig if method in MN.PROXIMAL else MN.MnistConfig)


def test_run_functions_refuse_a_bad_member():
    spec = LG.figure2_specs("quick")[0]
    bad = dict(spec.config, members=[spec.config["members"][0] | {"local_steps": 0}])
    with pytest.raises(ConfigError, match="^local_steps=0 is not admissible"):
        runner.typed_config(LG.run_logistic, bad)
    with pytest.raises(ConfigError, match="^classes=0 is not admissible"):
        runner.typed_config(MN.run_mnist, _first("fedclup.mnist") | {"classes": 0})
    with pytest.raises(ConfigError, match="^lam=0 is not admissible"):     # FedCLUP's run builds MnistProxConfig
        runner.typed_config(MN.run_mnist, _first("fedclup.mnist", method="fedclup") | {"lam": 0})


@pytest.mark.parametrize("experiment, setting, line", [
    ("fedclup.theorem2", "lam=-1", "error: lam=-1 is not admissible: a finite number > 0"),
    ("fedclup.stochastic", "batch=0", "error: batch=0 is not admissible: an integer >= 1 (rows per mini-batch)"),
    ("fedclup.figure3", "sample_rate=2", "error: sample_rate=2 is not admissible: a finite number > 0 and <= 1"),
])
def test_cli_set_of_a_bad_value_is_one_line_exit_2(tmp_path, experiment, setting, line, repro_main):
    out = repro_main("run", experiment, "--set", setting, "--no-progress", cwd=tmp_path,
                     env={"REPRO_RESULTS_DIR": str(tmp_path / "results")})
    assert out.returncode == 2 and out.stderr.strip() == line, (out.returncode, out.stderr)
    assert not (tmp_path / "results").exists() or not list((tmp_path / "results").rglob("*.json"))


# ---------------------------------------------------------------------------- checks entry
def test_check_dispatches_on_the_claim_and_refuses_others():
    assert set(V.CHECKED) == set(S.STATISTICAL_CLAIMS) | set(O.THEOREM2_CLAIMS) | {
        "fedclup.cor2.explicit", "fedclup.lemma7"}
    assert all(B.claim(cid) for cid in V.CHECKED)                    # every checked id is an encoded claim
    other = next(c for c in B.CLAIMS if c.id not in V.CHECKED)
    with pytest.raises(ValueError, match=f"claim {other.id} is not checked"):
        V.check(other, None, None)


def test_run_outcomes_come_from_the_checks_entry(monkeypatch):
    """A run function's outcomes are exactly what ``check`` returns for its claims, in order."""
    calls = []
    original = V.check

    def spy(claim, problem, trace):
        out = original(claim, problem, trace)
        calls.append((claim.id, len(out)))
        return out

    monkeypatch.setattr(V, "check", spy)
    config = O.Theorem2Config(m=4, n=12, kappa=4.0, lam=1.0, gamma_scale=1.0, K="cor2", rounds=60, profile="quick")
    arrays, _ = O.run_theorem2(config, 3)
    expected = [cid for cid, n in calls for _ in range(n)]
    assert [c for c, _ in calls][:len(O.THEOREM2_CLAIMS)] == list(O.THEOREM2_CLAIMS)
    assert list(arrays["claim_id"]) == expected
