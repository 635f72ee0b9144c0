"""Execute the jupytext notebooks (``notebooks/<paper>.py``, percent format) into ``.ipynb``.

Execution uses nbclient; timing metadata is stripped and cell ids are positional so that an unchanged notebook rewrites
byte-identical output; the file is written atomically.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from .errors import ConfigError
from .io import atomic_write_bytes

NOTEBOOK_DIR = Path("notebooks")
TIMEOUT_SECONDS = 1200


def _merge_streams(outputs: list) -> list:
    """Adjacent stream outputs of the same stream as one: the kernel may split one print into several messages
    depending on timing, which would make the saved notebook differ between two identical runs."""
    merged: list = []
    for out in outputs:
        last = merged[-1] if merged else None
        if (out.get("output_type") == "stream" and last is not None and last.get("output_type") == "stream"
                and last.get("name") == out.get("name")):
            last["text"] = "".join(last["text"]) + "".join(out["text"])
        else:
            merged.append(out)
    return merged


def _make_deterministic(nb) -> None:
    """Drop execution timing, merge split stream outputs and replace jupytext's random cell ids by positional
    ones."""
    for index, cell in enumerate(nb.cells):
        cell.metadata.pop("execution", None)
        cell["id"] = f"cell-{index:03d}"
        if "outputs" in cell:
            cell["outputs"] = _merge_streams(cell["outputs"])
    nb.metadata.pop("widgets", None)


def _local_kernels(prefix: Path):
    """A kernel manager talking to its kernel over local (IPC) sockets named ``<prefix>-N``, not TCP: nothing listens
    on a network port, and the kernel does not print its warning that TCP traffic is unencrypted (four lines in every
    ``make reproduce`` before)."""
    from jupyter_client.manager import KernelManager

    class LocalKernelManager(KernelManager):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.transport, self.ip = "ipc", str(prefix)
    return LocalKernelManager


def execute_notebooks(names=()) -> list[Path]:
    import jupytext
    import nbformat
    from nbclient import NotebookClient

    sources = sorted(NOTEBOOK_DIR.glob("*.py"))
    known = {p.stem: p for p in sources}
    for name in names:
        if name not in known:
            raise ConfigError(f"notebook={name!r} is not admissible: one of {', '.join(known) or '(none)'}")
    written = []
    for stem, source in known.items():
        if names and stem not in names:
            continue
        nb = jupytext.read(source)
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        with tempfile.TemporaryDirectory(prefix="repro-kernel-") as sockets:
            NotebookClient(nb, timeout=TIMEOUT_SECONDS, kernel_name="python3", kernel_manager_class=_local_kernels(
                Path(sockets) / "kernel"), resources={"metadata": {"path": str(Path.cwd())}}).execute()
        _make_deterministic(nb)
        target = source.with_suffix(".ipynb")
        atomic_write_bytes(target, nbformat.writes(nb).encode("utf-8") + b"\n")
        written.append(target)
    return written
