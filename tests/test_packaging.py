"""environment.yml lists exactly the dependencies of pyproject.toml (runtime + all extras)."""
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[ ;]", requirement.strip(), maxsplit=1)[0].lower()


def test_environment_yml_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r): r for r in project["dependencies"]}
    for extra in project["optional-dependencies"].values():
        wanted.update({_name(r): r for r in extra})
    listed = {}
    text = (ROOT / "environment.yml").read_text()
    for line in text.split("dependencies:", 1)[1].splitlines():
        m = re.match(r"^(?:\s{2}|\s{6})- ([A-Za-z0-9_.-]+)([^#]*)", line)    # conda, or pip: (PyPI only)
        if m and m.group(1) not in ("python", "pip", "-e"):
            listed[m.group(1).lower()] = m.group(1) + m.group(2).strip()
    assert set(listed) == set(wanted), (set(listed) ^ set(wanted))
    for name, req in wanted.items():
        spec = req[len(name):].strip()
        assert listed[name].replace(" ", "").endswith(spec.replace(" ", "")), (name, req, listed[name])


def test_ci_runs_make_test():
    assert "make test" in (ROOT / ".ci" / "run").read_text()
