"""Executed notebooks (repro.notebooks): a jupytext source runs in a fresh kernel reached over local sockets, its
output is kept, and nothing is left behind -- no socket files, no kernel warning on stderr."""
import json
import tempfile

from repro.notebooks import execute_notebooks


def test_a_notebook_runs_over_local_sockets_and_leaves_nothing_behind(tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))       # where the kernel's sockets are made
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks/toy.py").write_text("# %%\nprint(6 * 7)\n")
    (written,) = execute_notebooks(("toy",))
    cells = json.loads(written.read_text())["cells"]
    assert ["".join(o["text"]) for o in cells[0]["outputs"]] == ["42\n"]       # nbformat stores lines as a list
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["notebooks", "tmp", "toy.ipynb", "toy.py"]
    err = capfd.readouterr().err
    assert "TCP" not in err and "WARNING" not in err, err
