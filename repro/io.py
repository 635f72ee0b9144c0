"""Canonical JSON and atomic, deterministic file writes: every file the suite writes goes through here.

* :func:`canonical_json` is the text a config is hashed from: sorted keys, no whitespace, floats by
  ``repr``, tuples as lists, numpy scalars as Python scalars; stable across processes and platforms.
* :func:`atomic_write_bytes`, :func:`atomic_write_json` and :func:`atomic_savez` write to a temporary
  file in the target's directory and rename it into place (atomic on POSIX and Windows): a reader sees
  the old file or the new one, never a partial one. On any failure, Ctrl-C included, the temporary file
  is removed.
* A process killed with SIGKILL cannot clean up. Its temporary files carry its process id in their
  names (``.<target>.<pid>.<random>.tmp``), so :func:`remove_orphan_temporaries` can tell an orphan
  (its writer is gone) from a file that another live process is writing right now.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import re
import tempfile
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ConfigError

__all__ = ["to_jsonable", "finite_or_none", "canonical_json", "atomic_write_bytes", "atomic_write_json", "atomic_savez",
           "sha256_file", "remove_orphan_temporaries", "check_arrays", "ensure_writable_directory"]

_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_ARRAY_NAME_RE = re.compile(r"^[A-Za-z0-9_\-.]+$")
_TEMP_RE = re.compile(r"^\..+\.(\d+)\.[^.]+\.tmp$")


# --------------------------------------------------------------------------------------------
# Canonical JSON
# --------------------------------------------------------------------------------------------

def to_jsonable(obj: Any, where: str = "value") -> Any:
    """Return ``obj`` as plain JSON types: dict (str keys), list, str, int, float, bool, None.

    Tuples and numpy arrays become lists, numpy scalars Python scalars. Anything else raises
    :class:`ConfigError` naming the offending path (e.g. ``config['grid'][2]``).
    """
    if obj is None or isinstance(obj, (bool, np.bool_)):
        return None if obj is None else bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj)
    if isinstance(obj, str):
        return str(obj)
    if isinstance(obj, Mapping):
        out = {}
        for key, value in obj.items():
            if not isinstance(key, str):
                raise ConfigError(
                    f"{where} has key {key!r} of type {type(key).__name__}: "
                    "only str keys are allowed (JSON objects)")
            out[str(key)] = to_jsonable(value, f"{where}[{key!r}]")
        return out
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v, f"{where}[{i}]") for i, v in enumerate(obj)]
    if isinstance(obj, np.ndarray) and not obj.dtype.hasobject:
        return to_jsonable(obj.tolist(), where)
    raise ConfigError(
        f"{where}={obj!r} of type {type(obj).__name__} is not admissible: allowed are "
        "dict (str keys), list, tuple, str, int, float, bool, None, numpy scalars and arrays")


def finite_or_none(x) -> float | None:
    """A float for JSON metadata: ``None`` when undefined or infinite."""
    return float(x) if x is not None and math.isfinite(float(x)) else None


def canonical_json(obj: Any) -> str:
    """Canonical JSON text of ``obj``: sorted keys, no whitespace, floats via ``repr``.

    Stable across processes, Python runs and platforms (no dependence on hash seeds or
    insertion order); tuples encode as lists and numpy scalars as Python scalars.
    """
    return json.dumps(to_jsonable(obj), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True, allow_nan=True)


# --------------------------------------------------------------------------------------------
# Atomic writes
# --------------------------------------------------------------------------------------------

@contextlib.contextmanager
def _atomic_file(path: str | os.PathLike) -> Iterator[io.BufferedWriter]:
    """Yield a binary file in ``path``'s directory; on success fsync it and rename it onto
    ``path``; on any failure (KeyboardInterrupt included) remove it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w+b") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    """Make a rename durable (best effort; not possible on every platform)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (module docstring)."""
    with _atomic_file(path) as fh:
        fh.write(data)


def atomic_write_json(path: str | os.PathLike, obj: Any) -> None:
    """Write ``obj`` as deterministic JSON (sorted keys, indent 2, trailing newline),
    atomically. Numpy scalars/arrays and tuples are converted (:func:`to_jsonable`)."""
    text = json.dumps(to_jsonable(obj), sort_keys=True, indent=2, ensure_ascii=True,
                      allow_nan=True) + "\n"
    atomic_write_bytes(path, text.encode("ascii"))


def check_arrays(arrays: Any, where: str) -> dict[str, np.ndarray]:
    """``arrays`` as a dict of named numpy arrays (numpy scalars are promoted); a one-line
    ValueError for anything that cannot be stored in an NPZ without pickling."""
    if not isinstance(arrays, Mapping):
        raise ValueError(
            f"{where}={type(arrays).__name__} is not admissible: a dict mapping names to "
            "numpy arrays")
    out = {}
    for name, arr in arrays.items():
        if not (isinstance(name, str) and _ARRAY_NAME_RE.match(name)):
            raise ValueError(
                f"{where} name {name!r} is not admissible: a non-empty str of letters, "
                "digits, '_', '-' and '.'")
        if isinstance(arr, np.generic):
            arr = np.asarray(arr)
        if not isinstance(arr, np.ndarray):
            raise ValueError(
                f"{where}[{name!r}] of type {type(arr).__name__} is not admissible: a "
                "numpy.ndarray (or numpy scalar)")
        if arr.dtype.hasobject:
            raise ValueError(
                f"{where}[{name!r}] with dtype {arr.dtype} is not admissible: a numeric, "
                "bool or fixed-width string dtype (object arrays cannot be cached)")
        out[name] = arr
    return out


def atomic_savez(path: str | os.PathLike, arrays: Mapping[str, np.ndarray],
                 *, compress: bool = False) -> str:
    """Save ``arrays`` as an ``.npz`` readable by ``np.load``, atomically and
    deterministically (members sorted by name, fixed timestamps: equal arrays give identical
    bytes). Object arrays are refused. Returns the SHA-256 (hex) of the written file."""
    arrays = check_arrays(arrays, "arrays")
    compression = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with _atomic_file(path) as fh:
        with zipfile.ZipFile(fh, mode="w", compression=compression, allowZip64=True) as zf:
            for name in sorted(arrays):
                info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_DATE)
                info.compress_type = compression
                info.create_system = 3
                info.external_attr = 0o644 << 16
                with zf.open(info, mode="w", force_zip64=True) as member:
                    np.lib.format.write_array(member, arrays[name], allow_pickle=False)
        fh.flush()
        fh.seek(0)
        digest = _sha256_stream(fh)
    return digest


def _sha256_stream(fh) -> str:
    h = hashlib.sha256()
    for block in iter(lambda: fh.read(1 << 20), b""):
        h.update(block)
    return h.hexdigest()


def sha256_file(path: Path) -> str:
    """SHA-256 (hex) of a file's bytes."""
    with open(path, "rb") as fh:
        return _sha256_stream(fh)


# --------------------------------------------------------------------------------------------
# Directories
# --------------------------------------------------------------------------------------------

def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:          # exists, owned by someone else
        return True
    return True


def remove_orphan_temporaries(root: Path) -> int:
    """Remove the temporary files under ``root`` whose writing process no longer exists (a writer
    killed by SIGKILL or a power cut); return how many were removed. Files of live writers (the pid
    in their name is a running process on this machine) are left alone."""
    removed = 0
    if not root.is_dir():
        return 0
    for path in root.rglob(".*.tmp"):
        match = _TEMP_RE.match(path.name)
        if match and not _alive(int(match.group(1))):
            with contextlib.suppress(OSError):
                path.unlink()
                removed += 1
    return removed


def ensure_writable_directory(path: Path, name: str, create: bool = True) -> Path:
    """Check, before any work is done, that files can be created in the directory ``path`` (created first
    when ``create``; otherwise a missing directory is fine if it could be created); a one-line
    :class:`ConfigError` naming ``name`` (the setting it came from) otherwise. The check writes and removes a
    probe file, since permission bits do not tell (a read-only mount, or root on a read-only folder)."""
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{name}={str(path)!r} is not admissible: a directory (it is a file)")
    if not path.exists() and not create:
        return path
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=f".probe.{os.getpid()}.", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise ConfigError(f"{name}={str(path)!r} is not admissible: a directory this user can write to "
                          f"({exc.strerror or exc})") from None
    return path
