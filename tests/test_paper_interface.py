"""The paper interface (:class:`repro.paper.Paper`): every paper declares what the shared layers read from it in one
record, the shared layers find a paper's modules only through it, and a missing optional part is empty everywhere
or a one-line error where it is needed."""
import ast
from pathlib import Path

import pytest

from repro.errors import ConfigError
from repro.paper import OPTIONAL_PARTS, Paper
from repro.registry import paper, papers

ROOT = Path(__file__).resolve().parents[1]
IMPORTERS = {"import_module", "optional_module", "find_spec", "__import__", "spec_from_file_location"}


def _shared_modules() -> list[Path]:
    """The shared layers: every module of ``repro`` outside ``repro/papers`` and the shared modules of ``bounds``."""
    return [p for p in sorted((ROOT / "repro").glob("*.py"))] + [p for p in sorted((ROOT / "bounds").glob("*.py"))]


def formatted_module_names(path: Path) -> list[str]:
    """``line: text`` of every import by a computed name (the first argument of an importing call that is not a
    string literal) and every f-string that splices a value into a ``bounds.`` or ``papers.`` module name."""
    tree, out = ast.parse(path.read_text(encoding="utf-8")), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in IMPORTERS and node.args and not (isinstance(node.args[0], ast.Constant)
                                                        and isinstance(node.args[0].value, str)):
                out.append(f"{node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.JoinedStr):
            parts = node.values
            for before, after in zip(parts, parts[1:]):
                if isinstance(before, ast.Constant) and isinstance(after, ast.FormattedValue) \
                        and str(before.value).endswith(("bounds.", "papers.", "bounds/")):
                    out.append(f"{node.lineno}: {ast.unparse(node)}")
    return out


def test_the_detector_finds_a_formatted_module_name(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text('import importlib\n\ndef proofs(paper):\n'
                       '    return importlib.import_module(f"bounds.{paper}_proofs")\n\n'
                       'def steps(paper, optional_module):\n    return optional_module("bounds." + paper)\n\n'
                       'NAME = "repro.papers.x"\n')
    assert sorted({line.split(":")[0] for line in formatted_module_names(planted)}) == ["4", "7"]


def test_no_shared_layer_names_a_papers_module_by_a_formatted_string():
    found = {str(p.relative_to(ROOT)): formatted_module_names(p) for p in _shared_modules()}
    assert not {k: v for k, v in found.items() if v}


def test_every_paper_declares_its_interface_with_its_mathematics_package():
    for key in papers():
        record = paper(key)
        assert isinstance(record, Paper) and record.key == key and record.claims and record.experiments
        assert all(c.id.startswith(key + ".") for c in record.claims)
        assert {type(c).__module__ for c in record.claims} == {"bounds.core"}
        assert record.proofs is not None and record.proofs().__name__ == f"bounds.{key}.proofs"
        assert all(e.name.startswith(key + ".") for e in record.experiments)


def test_a_missing_optional_part_is_empty_where_optional_and_one_line_where_required():
    bare = Paper(key="bare", title="Bare", claims=(), experiments=())
    assert (bare.findings({}), bare.statements(), bare.printed_settings(), bare.encoded_steps(),
            bare.proof_displays(), bare.errata_module()) == ([], (), (), (), (), None)
    assert bare.no_inventory_reason()
    for part in OPTIONAL_PARTS:
        with pytest.raises(ConfigError) as info:
            bare.require(part)
        assert "\n" not in str(info.value) and f"declares no {part}" in str(info.value)
    with pytest.raises(ConfigError):
        Paper(key="bad", title="Bad", claims=(), experiments=(), audit="repro.papers.bad.audit")
