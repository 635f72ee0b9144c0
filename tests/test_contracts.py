"""The shared contracts every paper package uses: config dataclasses (repro.experiment.Config, checked by
``--set``) and the checks entry (repro.verify.check_claims)."""
from dataclasses import dataclass

import pytest
import sympy as sp

from bounds.core import Claim, Mode
from repro.errors import ConfigError, require
from repro.experiment import Config, Experiment
from repro.overrides import apply
from repro.runner import RunSpec, typed_config
from repro.verify import check_claims, check_relation


@dataclass(frozen=True)
class StepConfig(Config):
    eta: float
    rounds: int = 10

    def __post_init__(self):
        require(self.eta > 0, "eta", self.eta, "eta > 0")


def step_run(config: StepConfig, seed: int):
    """The toy experiment's run function: the runner hands it its StepConfig (never called in these tests)."""
    return {}, {"eta": config.eta}


def _experiment(**kw):
    specs = [RunSpec("toy.step", StepConfig(eta=0.1), 0, step_run)]
    assert specs[0].config == {"eta": 0.1, "rounds": 10}              # a Config is stored as its plain dict
    return Experiment("toy.step", "", lambda profile: specs, None, config=StepConfig, **kw), specs


def test_config_round_trips_and_names_bad_keys():
    assert StepConfig.from_dict({"eta": 0.5}).as_dict() == {"eta": 0.5, "rounds": 10}
    with pytest.raises(ConfigError, match=r"config key 'etta' \(= 0.5\) is not admissible for StepConfig: one of eta"):
        StepConfig.from_dict({"etta": 0.5})
    with pytest.raises(ConfigError, match="key 'eta' is required"):
        StepConfig.from_dict({"rounds": 3})
    with pytest.raises(ConfigError, match=r"^eta=-1 is not admissible: eta > 0$"):
        StepConfig.from_dict({"eta": -1})


def test_set_is_validated_against_the_config_dataclass():
    exp, specs = _experiment()
    assert apply(exp, specs, {"eta": 0.2})[0].config["eta"] == 0.2
    with pytest.raises(ConfigError, match=r"^eta=-0.2 is not admissible: eta > 0$"):
        apply(exp, specs, {"eta": -0.2})
    with pytest.raises(ConfigError, match="--set seed is not admissible for toy.step: known keys eta, rounds"):
        apply(exp, specs, {"seed": 3})


def test_check_claims_collects_outcomes_and_rejects_foreign_ones():
    x, b = sp.symbols("x b")
    claim = Claim(id="toy.c", location="Theorem 1", statement="x <= b", domains={x: "observed", b: "real"},
                  conclusion=(sp.Le(x, b),), mode=Mode.DETERMINISTIC)
    other = Claim(id="toy.d", location="Theorem 2", statement="x <= b", domains={x: "observed", b: "real"},
                  conclusion=(sp.Le(x, b),), mode=Mode.DETERMINISTIC)

    def check(c, problem, trace):
        return [check_relation(c, rel, {"x": trace, "b": problem}) for rel in c.relations]

    outcomes = check_claims(check, [claim, other], 1.0, 2.0)
    assert [o.claim_id for o in outcomes] == ["toy.c", "toy.d"] and not any(o.passed for o in outcomes)
    with pytest.raises(TypeError, match="check of toy.d returned"):
        check_claims(lambda c, p, t: check(claim, p, t), [claim, other], 1.0, 2.0)


@dataclass(frozen=True)
class SearchConfig(Config):
    eta: float
    budget: int

    def __post_init__(self):
        require(self.budget >= 1, "budget", self.budget, "budget >= 1")


def step_or_search_run(config: StepConfig | SearchConfig, seed: int):
    """A run function whose runs come in two shapes: its annotation is the union of both config dataclasses."""
    return {}, {}


def test_an_experiment_with_two_config_shapes_checks_each_run_against_its_own():
    specs = [RunSpec("toy.step", StepConfig(eta=0.1), 0, step_or_search_run),
             RunSpec("toy.step", SearchConfig(eta=0.1, budget=3), 0, step_or_search_run)]
    exp = Experiment("toy.step", "", lambda profile: specs, None, config=(StepConfig, SearchConfig))
    assert exp.config_keys() == {"eta", "rounds", "budget"}            # --set may change a key of either shape
    assert [s.config["eta"] for s in apply(exp, specs, {"eta": 0.3})] == [0.3, 0.3]
    # a key of one shape changes only the runs of that shape, each validated by its own dataclass
    assert [s.config for s in apply(exp, specs, {"budget": 5})] == [{"eta": 0.1, "rounds": 10},
                                                                    {"eta": 0.1, "budget": 5}]
    assert [s.config for s in apply(exp, specs, {"rounds": 3})] == [{"eta": 0.1, "rounds": 3},
                                                                    {"eta": 0.1, "budget": 3}]
    with pytest.raises(ConfigError, match=r"^budget=0 is not admissible: budget >= 1$"):
        apply(exp, specs, {"budget": 0})
    with pytest.raises(ConfigError, match="--set seed is not admissible for toy.step: known keys budget, eta, rounds$"):
        apply(exp, specs, {"seed": 3})
    with pytest.raises(ConfigError, match=r"^budget=0 is not admissible: budget >= 1$"):
        exp.check_config({"eta": 0.1, "budget": 0})
    # the runner builds each stored config into its own shape before calling the run function
    assert [typed_config(step_or_search_run, s.config) for s in specs] == [StepConfig(eta=0.1),
                                                                          SearchConfig(eta=0.1, budget=3)]
    with pytest.raises(ConfigError, match="config key 'x'"):
        exp.check_config({"eta": 0.1, "x": 1})
