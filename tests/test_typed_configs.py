"""Configs typed all the way: a run function receives its config dataclass (the annotation of its first parameter),
never a dict, and is referenced by the function object, never by a dotted string."""
import ast
from pathlib import Path

import pytest

from repro.errors import ConfigError
from repro.experiment import Config
from repro.registry import registry
from repro.batches import member_configs
from repro.runner import RunSpec, _with_needs, config_type, typed_config

ROOT = Path(__file__).resolve().parents[1]


#: names a run module gives a config (or a list of them) that must never be read as a dict
CONFIG_NAMES = {"config", "cfg", "conf", "configs", "run_config"}


def _names_a_config(target) -> bool:
    """``config``, ``spec.config``, ``configs[0]``, ``config.as_dict()`` and the like (module docstring)."""
    while isinstance(target, ast.Subscript):
        target = target.value
    if isinstance(target, ast.Call) and isinstance(target.func, ast.Attribute) and target.func.attr in (
            "as_dict", "asdict"):
        return True
    return (getattr(target, "id", None) or getattr(target, "attr", None)) in CONFIG_NAMES


def config_subscripts(path: Path) -> list[str]:
    """``line: text`` of every subscript with a string literal (``config["key"]``) and every ``.get(...)`` on a
    config: a name of :data:`CONFIG_NAMES` (also as ``<...>.config`` or indexed, ``configs[0]["key"]``) or the
    dict of a dataclass (``config.as_dict()["key"]``)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        target = None
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str):
            target = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            target = node.func.value
        if target is not None and _names_a_config(target):
            out.append(f"{node.lineno}: {ast.unparse(node)}")
    return out


def test_the_detector_finds_planted_subscripts(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text('def run(config, seed):\n    eta = config["eta"]\n    return spec.config.get("T"), config.eta\n'
                       'def run2(cfg, configs, seed):\n    return cfg["a"], configs[0]["b"], cfg.as_dict()["c"]\n'
                       'def fine(config, table):\n    return table["eta"], config.eta\n')
    assert [line.split(":")[0] for line in config_subscripts(planted)] == ["2", "3", "5", "5", "5"]


def test_no_run_module_reads_its_config_as_a_dict():
    found = {str(p.relative_to(ROOT)): config_subscripts(p) for p in sorted(ROOT.glob("repro/papers/*/runs/*.py"))}
    assert len(found) > 20
    assert not {k: v for k, v in found.items() if v}


def test_every_run_function_declares_its_config_dataclass():
    seen = set()
    for name, exp in registry().items():
        classes = set(exp.config_classes())
        for profile in ("quick", "paper"):
            for spec in _with_needs(exp.specs(profile)):
                shape_key = (spec.function, spec.experiment, tuple(sorted(member_configs(spec.config)[0])))
                if shape_key in seen:
                    continue
                seen.add(shape_key)
                shapes, _ = config_type(spec.function)
                assert all(issubclass(c, Config) for c in shapes), spec.function_path
                built = typed_config(spec.function, spec.config)
                for config in built if isinstance(built, tuple) else (built,):
                    assert isinstance(config, shapes) and config.as_dict() in member_configs(spec.config)
                    if spec.experiment == name:
                        assert type(config) in classes, (name, spec.function_path, type(config), classes)
    assert len({key[0] for key in seen}) >= 30


def test_a_run_is_referenced_by_its_function_not_a_dotted_string():
    with pytest.raises(ConfigError, match="not admissible: a module-level run function"):
        RunSpec("fedsgm.figure1", {}, 0, "repro.papers.fedsgm.runs.theorems.run_figure1")
    with pytest.raises(ConfigError, match="must be annotated with its Config"):
        config_type(lambda config, seed: ({}, {}))
