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
    """The shared layers: every module of ``repro`` outside ``repro/papers`` and of ``bounds`` outside the papers'
    mathematics packages, at any depth."""
    papers_dirs = [ROOT / "repro" / "papers"] + [ROOT / "bounds" / key for key in papers()]
    return [p for package in ("repro", "bounds") for p in sorted((ROOT / package).rglob("*.py"))
            if not any(d in p.parents for d in papers_dirs)]


def formatted_module_names(path: Path) -> list[str]:
    """``line: text`` of every importing call whose module name is computed (a first argument that is not a string
    literal), or any of whose arguments is built from strings (an f-string, ``+``, ``%`` or ``.format``: a package
    name made from a key), and of every f-string, concatenation or ``%``-format that splices a value into a
    ``bounds.`` or ``papers.`` module name anywhere. A name the registry got from discovery (``info.name``) is neither."""
    tree, out = ast.parse(path.read_text(encoding="utf-8")), []

    def built(arg) -> bool:
        return isinstance(arg, (ast.JoinedStr, ast.BinOp)) or (
            isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "format")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            args = list(node.args) + [k.value for k in node.keywords]
            if name in IMPORTERS and args and (not (isinstance(args[0], ast.Constant) and isinstance(args[0].value, str))
                                               or any(built(a) for a in args)):
                out.append(f"{node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)) \
                and isinstance(node.left, ast.Constant) and str(node.left.value).endswith(("bounds.", "papers.")):
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
                       'def audit(key):\n    return importlib.import_module(".audit", "repro.papers." + key)\n\n'
                       'def found(info):\n    return importlib.import_module(".paper", info.name)\n\n'
                       'NAME = "repro.papers.x"\n')
    assert sorted({line.split(":")[0] for line in formatted_module_names(planted)}, key=int) == ["4", "7", "10"]


def test_no_shared_layer_names_a_papers_module_by_a_formatted_string():
    found = {str(p.relative_to(ROOT)): formatted_module_names(p) for p in _shared_modules()}
    assert not {k: v for k, v in found.items() if v}


def test_every_paper_declares_its_interface_with_its_mathematics_package():
    assert len(papers()) >= 4
    for key in papers():
        record = paper(key)
        assert isinstance(record, Paper) and record.key == key and record.claims and record.experiments
        assert all(c.id.startswith(key + ".") for c in record.claims)
        assert {type(c).__module__ for c in record.claims} == {"bounds.core"}
        assert record.proofs is not None and record.proofs().__name__ == f"bounds.{key}.proofs"
        assert all(e.name.startswith(key + ".") for e in record.experiments)


def test_a_missing_optional_part_is_empty_where_optional_and_one_line_where_required():
    from types import SimpleNamespace
    bare = Paper(key="bare", title="Bare", claims=(), experiments=(), audit=lambda: SimpleNamespace(AUDIT_EXPERIMENTS=()))
    assert (bare.findings({}), bare.statements(), bare.printed_settings(), bare.encoded_steps(),
            bare.proof_displays(), bare.errata_module()) == ([], (), (), (), (), None)
    assert bare.no_inventory_reason()
    for part in ("audit",) + OPTIONAL_PARTS:             # the required part missing, or any part not a loader
        parts = {"audit": bare.audit} | {part: None if part == "audit" else f"bounds.bad.{part}"}
        with pytest.raises(ConfigError) as info:
            Paper(key="bad", title="Bad", claims=(), experiments=(), **parts)
        assert "\n" not in str(info.value) and f"{part} of paper 'bad' is not admissible" in str(info.value)
