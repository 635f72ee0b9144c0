"""Dataset files: where they live, how they are obtained, and how they are verified.

This module is the shared dataset machinery of the suite. Every paper reproduction loads its
data through it, so the same rules always apply:

* **Location.** Files live under a data root: an explicit ``root`` argument if a function is
  given one, else the ``REPRO_DATA_DIR`` environment variable, else a per-user cache
  (``$XDG_CACHE_HOME/fedbounds``, by default ``~/.cache/fedbounds``). See :func:`data_dir`.
  Each dataset has a subfolder (``mnist/``, ``cifar10/``).
* **Downloads.** A missing file is downloaded from its canonical URL unless ``REPRO_OFFLINE`` is
  set to ``1`` (also ``true``/``yes``/``on``); tests and CI set it and read the files through
  ``REPRO_DATA_DIR``. A download goes to a temporary file in the target folder, is verified, and
  is then renamed into place with :func:`os.replace`, so a file under its final name is always
  complete and verified; on any failure the temporary file is removed.
* **Verification.** Every file is checked against published checksums before it is parsed
  (and before anything is unpickled). Results are cached per process, keyed on
  ``(path, size, mtime)``, so loading a dataset twice hashes it once; a file that changes on
  disk is hashed again. :func:`clear_verification_cache` empties the cache.
* **Errors.** Every data problem raises :class:`repro.errors.DataError` with a one-line message
  that names the file, says what is wrong, and says what to do.

The checksum tables (``MNIST_ARRAYS``, ``CIFAR10_ARCHIVE``, ``CIFAR10_ARRAYS``,
``BREAST_CANCER_CSV``) are module attributes read at call time, so tests can substitute small
synthetic files together with their own expected hashes.
"""
from __future__ import annotations

import contextlib
import functools
import gzip
import hashlib
import http.client
import importlib.resources
import os
import pickle
import tarfile
import tempfile
import urllib.request
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from repro.errors import ConfigError, DataError

__all__ = [
    "RemoteFile",
    "IdxArray",
    "ArraySpec",
    "MNIST_ARRAYS",
    "CIFAR10_ARCHIVE",
    "CIFAR10_NPZ",
    "CIFAR10_ARRAYS",
    "BREAST_CANCER_CSV",
    "DATASETS",
    "data_dir",
    "offline",
    "fetch",
    "download_file",
    "verify_file",
    "clear_verification_cache",
    "parse_idx",
    "load_mnist",
    "load_cifar10",
    "convert_cifar10_archive",
    "load_breast_cancer",
    "checksums_for",
]


@dataclass(frozen=True)
class RemoteFile:
    """A data file with a canonical source and published checksums.

    ``name`` is the path relative to the data root (e.g. ``"mnist/t10k-labels-idx1-ubyte.gz"``),
    ``url`` the canonical download URL (or, for a file shipped inside a package, its canonical
    source), ``size`` the expected size in bytes. At least one of ``sha256`` and ``md5`` (lower-case
    hex) is given; every digest that is given is checked.
    """

    name: str
    url: str
    size: int
    sha256: str | None = None
    md5: str | None = None

    def __post_init__(self) -> None:
        if self.sha256 is None and self.md5 is None:
            raise ValueError(f"RemoteFile {self.name!r} needs a sha256 or an md5 checksum")

    def digests(self) -> dict[str, str]:
        """The expected digests, ``{"sha256": ..., "md5": ...}``, omitting those not given."""
        return {algorithm: value for algorithm, value in
                (("sha256", self.sha256), ("md5", self.md5)) if value is not None}


@dataclass(frozen=True)
class IdxArray:
    """One array stored as a gzip-compressed IDX file: the file, its magic number and shape."""

    remote: RemoteFile
    magic: int
    shape: tuple[int, ...]


@dataclass(frozen=True)
class ArraySpec:
    """Expected dtype, shape and sha256 of an array's raw C-order bytes."""

    dtype: str
    shape: tuple[int, ...]
    sha256: str


_MNIST_MIRROR = "https://ossci-datasets.s3.amazonaws.com/mnist/"


def _mnist_file(file_name: str, size: int, sha256: str, md5: str) -> RemoteFile:
    return RemoteFile(f"mnist/{file_name}", _MNIST_MIRROR + file_name, size, sha256, md5)


#: The four MNIST IDX files (torchvision's mirror of http://yann.lecun.com/exdb/mnist/), keyed
#: by the array each one holds. md5 from torchvision's ``MNIST.resources``; sha256 as widely
#: published (as recorded in the shared data folder's README).
MNIST_ARRAYS: dict[str, IdxArray] = {
    "x_train": IdxArray(_mnist_file(
        "train-images-idx3-ubyte.gz", 9_912_422,
        "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609",
        "f68b3c2dcbeaaa9fbdd348bbdeb94873"), 0x803, (60000, 28, 28)),
    "y_train": IdxArray(_mnist_file(
        "train-labels-idx1-ubyte.gz", 28_881,
        "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c",
        "d53e105ee54ea40749a09fcbcd1e9432"), 0x801, (60000,)),
    "x_test": IdxArray(_mnist_file(
        "t10k-images-idx3-ubyte.gz", 1_648_877,
        "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6",
        "9fb629c4189551a2d022fa330f9573f3"), 0x803, (10000, 28, 28)),
    "y_test": IdxArray(_mnist_file(
        "t10k-labels-idx1-ubyte.gz", 4_542,
        "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6",
        "ec29112dd5afa0611ce80d1b7f02629c"), 0x801, (10000,)),
}

#: The official CIFAR-10 python archive (md5 from torchvision's ``CIFAR10.tgz_md5``).
CIFAR10_ARCHIVE = RemoteFile(
    "cifar10/cifar-10-python.tar.gz",
    "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz",
    170_498_071,
    sha256="6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce",
    md5="c58f30108f718f92721af3b95e74349a",
)

#: CIFAR-10 as one NumPy file (path relative to the data root).
CIFAR10_NPZ = "cifar10/cifar10_uint8.npz"

#: Expected arrays of :data:`CIFAR10_NPZ`: HWC RGB images in the official order.
CIFAR10_ARRAYS: dict[str, ArraySpec] = {
    "x_train": ArraySpec("uint8", (50000, 32, 32, 3),
                         "47af8b02cfcfb6cdf3dbbd1969ad7f1b70f4413f6f80f437b020ee4e5bc8304a"),
    "y_train": ArraySpec("uint8", (50000,),
                         "2b7cd2f24487317614016b72ffd53071c3062f592f0eb300c18a770d41ae1253"),
    "x_test": ArraySpec("uint8", (10000, 32, 32, 3),
                        "f9b1e2130bab680db56eb06d886f7f1ad0f1183907ceff4659d1735c890f5b04"),
    "y_test": ArraySpec("uint8", (10000,),
                        "cec8a24a1e92aa2ecaa0bbd3dbfa86bf6cd8759fbd209a832824c8cf0afca9d5"),
}

_CIFAR10_MEMBER_DIR = "cifar-10-batches-py"
_CIFAR10_TRAIN_BATCHES = tuple(f"data_batch_{i}" for i in range(1, 6))
_CIFAR10_TEST_BATCH = "test_batch"

#: The Breast Cancer Wisconsin (Diagnostic) csv shipped inside scikit-learn. ``name`` is its path
#: inside site-packages; ``url`` is the canonical source (UCI), which is never downloaded.
BREAST_CANCER_CSV = RemoteFile(
    "sklearn/datasets/data/breast_cancer.csv",
    "https://doi.org/10.24432/C5DW2B",
    119_913,
    sha256="fed3eb72d0575ef6192293f5093c6e801b1476b577d0386bf4455504522172ed",
    md5="36ef90874abc87f4b4a8554dcc17cf6f",
)

#: Dataset names accepted by :func:`checksums_for`.
DATASETS = ("mnist", "cifar10", "breast_cancer")

_DOWNLOAD_TIMEOUT_SECONDS = 60.0
_CHUNK_BYTES = 1 << 20
_LABEL_COUNT = 10


# --------------------------------------------------------------------------- location and policy

def data_dir() -> Path:
    """The default data root.

    ``REPRO_DATA_DIR`` if it is set and non-empty; otherwise ``$XDG_CACHE_HOME/fedbounds`` when
    ``XDG_CACHE_HOME`` is an absolute path (the XDG spec ignores relative values), else
    ``~/.cache/fedbounds``. The folder is not created here; a download creates what it needs.
    """
    configured = os.environ.get("REPRO_DATA_DIR", "")
    if configured:
        return Path(configured).expanduser()
    xdg_cache = os.environ.get("XDG_CACHE_HOME", "")
    cache = Path(xdg_cache) if os.path.isabs(xdg_cache) else Path.home() / ".cache"
    return cache / "fedbounds"


def offline() -> bool:
    """Whether downloads are disabled: ``REPRO_OFFLINE`` is ``1``, ``true``, ``yes`` or ``on``."""
    return os.environ.get("REPRO_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


def _root(root: str | os.PathLike | None) -> Path:
    return Path(root) if root is not None else data_dir()


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def _missing_offline(path: Path, relative_name: str, url: str) -> DataError:
    return DataError(
        f"{path} is missing and downloads are disabled (REPRO_OFFLINE=1); set REPRO_DATA_DIR "
        f"to a folder that contains {relative_name}, or unset REPRO_OFFLINE to download {url}")


# --------------------------------------------------------------------------- checksums

def _hash_file(path: str, algorithms: tuple[str, ...]) -> tuple[str, ...]:
    """Hex digests of a file's bytes for each algorithm, in one pass."""
    hashers = [hashlib.new(algorithm) for algorithm in algorithms]
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK_BYTES):
            for hasher in hashers:
                hasher.update(chunk)
    return tuple(hasher.hexdigest() for hasher in hashers)


@functools.lru_cache(maxsize=256)
def _cached_file_digests(path: str, size: int, mtime_ns: int,
                         algorithms: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`_hash_file`, cached on ``(path, size, mtime)``; a file that changes is rehashed."""
    return _hash_file(path, algorithms)


#: Array digests of verified npz files, keyed on ``(path, size, mtime_ns, array name)``. A dict
#: rather than ``lru_cache`` because the digest is computed from arrays the loader has already
#: read, not from the path.
_ARRAY_DIGESTS: dict[tuple[str, int, int, str], str] = {}


def clear_verification_cache() -> None:
    """Forget all cached checksums, so the next load of every file hashes it again."""
    _cached_file_digests.cache_clear()
    _ARRAY_DIGESTS.clear()


def _file_key(path: Path) -> tuple[str, int, int]:
    status = path.stat()
    return str(path.resolve()), status.st_size, status.st_mtime_ns


def _check_digests(path: Path, expected: RemoteFile, digests: Mapping[str, str], size: int,
                   label: str, remedy: str) -> None:
    for algorithm, expected_digest in expected.digests().items():
        if digests[algorithm] != expected_digest:
            raise DataError(
                f"{label} is corrupted or incomplete: {algorithm} is {digests[algorithm]}, "
                f"expected {expected_digest} ({size} bytes, expected {expected.size}); {remedy}")


def verify_file(path: str | os.PathLike, expected: RemoteFile) -> None:
    """Check a file's size and digests against ``expected``; raise :class:`DataError` if not.

    Digests are cached per process on ``(path, size, mtime)``, so verifying an unchanged file a
    second time does not read it again.
    """
    path = Path(path)
    try:
        key = _file_key(path)
    except OSError as error:
        raise DataError(f"{path} cannot be read ({_one_line(error)}); check that it exists "
                        f"and is readable") from error
    algorithms = tuple(expected.digests())
    digests = dict(zip(algorithms, _cached_file_digests(*key, algorithms)))
    _check_digests(path, expected, digests, key[1], label=str(path),
                   remedy=f"delete it and download it again from {expected.url}, or point "
                          f"REPRO_DATA_DIR at a verified copy")


# --------------------------------------------------------------------------- downloads

@contextlib.contextmanager
def _atomic_destination(destination: Path) -> Iterator[Path]:
    """Yield a temporary path next to ``destination``; rename it into place on success.

    The temporary file lives in the destination folder (so :func:`os.replace` is atomic) and is
    removed if the body raises, so ``destination`` is never left partially written.
    """
    destination.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(
        dir=destination.parent, prefix=f".{destination.name}.", suffix=".part")
    os.close(descriptor)
    try:
        yield Path(temporary)
        os.replace(temporary, destination)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def download_file(remote: RemoteFile, destination: str | os.PathLike) -> Path:
    """Download ``remote.url`` to ``destination``, verified and atomically.

    The bytes go to a temporary file in the destination folder; its size and digests are
    checked; only then is it renamed to ``destination``. Refuses (with :class:`DataError`) when
    :func:`offline` is true. Any failure removes the temporary file.
    """
    destination = Path(destination)
    if offline():
        raise _missing_offline(destination, remote.name, remote.url)
    request = urllib.request.Request(remote.url, headers={"User-Agent": "fedbounds"})
    with _atomic_destination(destination) as temporary:
        try:
            with urllib.request.urlopen(request, timeout=_DOWNLOAD_TIMEOUT_SECONDS) as response, \
                    open(temporary, "wb") as sink:
                while chunk := response.read(_CHUNK_BYTES):
                    sink.write(chunk)
        except (OSError, http.client.HTTPException) as error:
            raise DataError(
                f"downloading {remote.url} to {destination} failed ({_one_line(error)}); check "
                f"the network and retry, or place a verified copy of {remote.name} under "
                f"REPRO_DATA_DIR") from error
        algorithms = tuple(remote.digests())
        digests = dict(zip(algorithms, _hash_file(str(temporary), algorithms)))
        _check_digests(temporary, remote, digests, temporary.stat().st_size,
                       label=f"the download of {remote.url}",
                       remedy=f"nothing was saved to {destination}; retry, or place a verified "
                              f"copy there by hand")
    return destination


def fetch(remote: RemoteFile, root: str | os.PathLike | None = None) -> Path:
    """Path of ``remote`` under the data root, downloaded if missing and allowed, verified."""
    path = _root(root) / remote.name
    if path.exists():
        verify_file(path, remote)
    else:
        download_file(remote, path)
    return path


# --------------------------------------------------------------------------- MNIST

def parse_idx(raw: bytes, magic: int, shape: tuple[int, ...], source: str) -> np.ndarray:
    """Parse an (uncompressed) IDX file holding an unsigned-byte array.

    No library parses IDX without pulling in a framework, so this is a small parser of the
    format described at http://yann.lecun.com/exdb/mnist/: a big-endian 32-bit magic number
    ``0x000008NN`` (type code ``0x08`` = unsigned byte, ``NN`` = number of dimensions), then one
    big-endian 32-bit size per dimension, then the values in C order. The magic number, the
    header sizes (against ``shape``) and the exact payload length are all checked; any mismatch
    raises :class:`DataError` naming ``source``. Returns a writable uint8 array of ``shape``
    (a copy, so the decompressed buffer can be freed).
    """
    n_dims = len(shape)
    header_bytes = 4 * (1 + n_dims)
    if len(raw) < 4:
        raise DataError(f"{source} is not an IDX file (only {len(raw)} bytes); replace it with "
                        f"a verified copy")
    found_magic = int.from_bytes(raw[:4], "big")
    if found_magic != magic:
        raise DataError(f"{source} has IDX magic number {found_magic:#x}, expected {magic:#x} "
                        f"(uint8, {n_dims}-D); it is not the expected file, replace it with a "
                        f"verified copy")
    if len(raw) < header_bytes:
        raise DataError(f"{source} is truncated inside its IDX header ({len(raw)} bytes); "
                        f"replace it with a verified copy")
    found_shape = tuple(int(size) for size in np.frombuffer(raw, ">u4", n_dims, offset=4))
    if found_shape != tuple(shape):
        raise DataError(f"{source} has IDX dimensions {found_shape}, expected {tuple(shape)}; "
                        f"replace it with a verified copy")
    payload = len(raw) - header_bytes
    expected_payload = int(np.prod(shape, dtype=np.int64))
    if payload != expected_payload:
        raise DataError(f"{source} has {payload} data bytes after its IDX header, expected "
                        f"{expected_payload}; replace it with a verified copy")
    return np.frombuffer(raw, np.uint8, offset=header_bytes).reshape(shape).copy()


def _read_idx_gz(path: Path, array: IdxArray) -> np.ndarray:
    try:
        raw = gzip.decompress(path.read_bytes())
    except (OSError, EOFError, zlib.error) as error:
        raise DataError(f"{path} is not a valid gzip file ({_one_line(error)}); delete it and "
                        f"download it again from {array.remote.url}") from error
    return parse_idx(raw, array.magic, array.shape, source=str(path))


def _check_labels(labels: np.ndarray, source: str) -> None:
    if labels.size and int(labels.max()) >= _LABEL_COUNT:
        raise DataError(f"{source} holds label {int(labels.max())}, expected labels 0.."
                        f"{_LABEL_COUNT - 1}; replace it with a verified copy")


def load_mnist(root: str | os.PathLike | None = None) -> dict[str, np.ndarray]:
    """MNIST as uint8 arrays: ``x_train`` (60000, 28, 28), ``y_train`` (60000,),
    ``x_test`` (10000, 28, 28), ``y_test`` (10000,).

    Source: the four official gzip IDX files (Y. LeCun, C. Cortes, C. J. C. Burges,
    http://yann.lecun.com/exdb/mnist/), read from ``<root>/mnist/`` and downloaded, if missing
    and allowed, from torchvision's mirror ``https://ossci-datasets.s3.amazonaws.com/mnist/<file>``
    (the original site no longer serves them reliably). Design decisions:

    * each ``.gz`` file's sha256 and md5 (``MNIST_ARRAYS``) are checked before it is decompressed;
    * the IDX files are parsed by :func:`parse_idx` (numpy only; magic number ``0x803`` for
      images and ``0x801`` for labels, header sizes and payload length checked);
    * pixel values stay raw uint8 in ``[0, 255]`` and the official train/test split and order
      are kept: scaling, normalisation and client partitioning belong to each experiment.
    """
    base = _root(root)
    arrays = {}
    for key, array in MNIST_ARRAYS.items():
        path = fetch(array.remote, base)
        arrays[key] = _read_idx_gz(path, array)
    for key in ("y_train", "y_test"):
        _check_labels(arrays[key], str(base / MNIST_ARRAYS[key].remote.name))
    return arrays


# --------------------------------------------------------------------------- CIFAR-10

def _array_sha256(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array)).hexdigest()


def _check_arrays(arrays: Mapping[str, np.ndarray], specs: Mapping[str, ArraySpec],
                  label: str, remedy: str, file_key: tuple[str, int, int] | None = None) -> None:
    """Check dtype, shape and content hash of each array; cache digests under ``file_key``."""
    for name, spec in specs.items():
        array = arrays[name]
        if array.dtype != np.dtype(spec.dtype) or array.shape != tuple(spec.shape):
            raise DataError(f"{label}: array {name} is {array.dtype} {array.shape}, expected "
                            f"{spec.dtype} {tuple(spec.shape)}; {remedy}")
        cache_key = None if file_key is None else (*file_key, name)
        digest = _ARRAY_DIGESTS.get(cache_key) if cache_key else None
        if digest is None:
            digest = _array_sha256(array)
        if digest != spec.sha256:
            raise DataError(f"{label}: array {name} has content sha256 {digest}, expected "
                            f"{spec.sha256}; {remedy}")
        if cache_key is not None:
            _ARRAY_DIGESTS[cache_key] = digest


def _read_npz(path: Path, specs: Mapping[str, ArraySpec],
              source_url: str) -> dict[str, np.ndarray]:
    remedy = (f"delete it so that it is rebuilt from {source_url}, or point REPRO_DATA_DIR at "
              f"a verified copy")
    try:
        file_key = _file_key(path)
        with np.load(path, allow_pickle=False) as npz:
            missing = sorted(set(specs) - set(npz.files))
            if missing:
                raise DataError(f"{path} lacks array(s) {', '.join(missing)}; {remedy}")
            arrays = {name: npz[name] for name in specs}
    except (OSError, EOFError, ValueError, zipfile.BadZipFile, zlib.error) as error:
        raise DataError(f"{path} is not a readable numpy npz file ({_one_line(error)}); "
                        f"{remedy}") from error
    _check_arrays(arrays, specs, str(path), remedy, file_key)
    return arrays


def _unpickle_batch(tar: tarfile.TarFile, member_name: str,
                    archive: Path) -> tuple[np.ndarray, np.ndarray]:
    """Rows (n, 3072) uint8 and labels (n,) uint8 of one pickled batch inside the archive."""
    try:
        member = tar.extractfile(f"{_CIFAR10_MEMBER_DIR}/{member_name}")
        if member is None:
            raise KeyError(member_name)
        # The archive's checksums were verified before it was opened, so this is the official
        # pickle (Python 2 strings; latin1 keeps the numpy array bytes intact).
        batch = pickle.load(member, encoding="latin1")
        rows = np.asarray(batch["data"])
        labels = np.asarray(batch["labels"])
    except (KeyError, TypeError, pickle.UnpicklingError, tarfile.TarError, EOFError,
            OSError) as error:
        raise DataError(f"{archive}: member {_CIFAR10_MEMBER_DIR}/{member_name} is missing or is "
                        f"not a CIFAR-10 batch ({_one_line(error)}); delete the archive and "
                        f"download it again") from error
    if (rows.dtype != np.uint8 or rows.ndim != 2 or rows.shape[1] != 3 * 32 * 32
            or labels.shape != (rows.shape[0],)
            or (labels.size and not 0 <= int(labels.min()) <= int(labels.max()) < _LABEL_COUNT)):
        raise DataError(f"{archive}: batch {member_name} has data {rows.dtype} {rows.shape} and "
                        f"{labels.size} labels, expected uint8 (n, 3072) and n labels in 0..9; "
                        f"delete the archive and download it again")
    return rows, labels.astype(np.uint8)


def _rows_to_hwc(rows: np.ndarray) -> np.ndarray:
    """Official 3072-byte rows (1024 R, 1024 G, 1024 B, each row-major) to (n, 32, 32, 3)."""
    return np.ascontiguousarray(rows.reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))


def convert_cifar10_archive(
    archive_path: str | os.PathLike,
    npz_path: str | os.PathLike,
    archive: RemoteFile | None = None,
    arrays: Mapping[str, ArraySpec] | None = None,
) -> dict[str, np.ndarray]:
    """Convert the official ``cifar-10-python.tar.gz`` to the npz layout and write it atomically.

    ``archive`` (default :data:`CIFAR10_ARCHIVE`) gives the checksums the archive must match and
    ``arrays`` (default :data:`CIFAR10_ARRAYS`) the expected arrays; both exist so that tests can
    run the conversion on a small synthetic archive. Steps:

    1. verify the archive's size, md5 and sha256 **before** opening it, so nothing unverified
       is ever unpickled;
    2. unpickle ``cifar-10-batches-py/data_batch_1..5`` and ``test_batch`` from the archive
       (in memory; nothing is extracted to disk);
    3. keep the official order (``x_train[i]`` is row ``i % 10000`` of
       ``data_batch_{i // 10000 + 1}``, ``x_test[i]`` is row ``i`` of ``test_batch``) and turn
       each 3072-byte row (R, G, B planes) into a 32x32x3 HWC image;
    4. check dtype, shape and content sha256 of the four arrays;
    5. write ``npz_path`` with ``numpy.savez_compressed`` via a temporary file and
       :func:`os.replace`, so a failure never leaves a partial npz.

    Returns the four arrays.
    """
    archive_path, npz_path = Path(archive_path), Path(npz_path)
    archive = CIFAR10_ARCHIVE if archive is None else archive
    arrays = CIFAR10_ARRAYS if arrays is None else arrays
    verify_file(archive_path, archive)
    try:
        with tarfile.open(archive_path, "r:gz") as tar:
            train = [_unpickle_batch(tar, name, archive_path) for name in _CIFAR10_TRAIN_BATCHES]
            test_rows, test_labels = _unpickle_batch(tar, _CIFAR10_TEST_BATCH, archive_path)
    except (tarfile.TarError, EOFError, zlib.error) as error:
        raise DataError(f"{archive_path} is not a readable tar.gz archive ({_one_line(error)}); "
                        f"delete it and download it again from {archive.url}") from error
    converted = {
        "x_train": _rows_to_hwc(np.concatenate([rows for rows, _ in train])),
        "y_train": np.concatenate([labels for _, labels in train]),
        "x_test": _rows_to_hwc(test_rows),
        "y_test": test_labels,
    }
    _check_arrays(converted, arrays, f"converting {archive_path}",
                  remedy="the archive does not hold the expected CIFAR-10 data; delete it and "
                         f"download it again from {archive.url}")
    with _atomic_destination(npz_path) as temporary:
        with open(temporary, "wb") as sink:
            np.savez_compressed(sink, **converted)
    return converted


def load_cifar10(root: str | os.PathLike | None = None) -> dict[str, np.ndarray]:
    """CIFAR-10 as uint8 arrays: ``x_train`` (50000, 32, 32, 3) HWC RGB, ``y_train`` (50000,),
    ``x_test`` (10000, 32, 32, 3), ``y_test`` (10000,); labels 0..9 = airplane, automobile,
    bird, cat, deer, dog, frog, horse, ship, truck.

    Source: A. Krizhevsky, "Learning Multiple Layers of Features from Tiny Images", 2009;
    canonical URL https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz. Design decisions:

    * the data are kept as one lossless npz, ``<root>/cifar10/cifar10_uint8.npz``, read with
      ``allow_pickle=False``, so loading never unpickles anything;
    * the npz is verified by the sha256 of each array's raw C-order bytes plus dtype and shape
      (``CIFAR10_ARRAYS``), not by the file's bytes: another zip compressor gives another file
      holding the same arrays;
    * images are HWC (the layout of most array code) in the official order, raw uint8;
    * if the npz is missing, the official archive (``<root>/cifar10/cifar-10-python.tar.gz``)
      is used if present, else downloaded when allowed; its md5/sha256 are checked before it is
      opened and it is converted by :func:`convert_cifar10_archive`. The archive is kept, so
      the npz can be rebuilt without another download.
    """
    base = _root(root)
    npz_path = base / CIFAR10_NPZ
    if npz_path.exists():
        return _read_npz(npz_path, CIFAR10_ARRAYS, CIFAR10_ARCHIVE.url)
    if offline() and not (base / CIFAR10_ARCHIVE.name).exists():
        raise _missing_offline(npz_path, CIFAR10_NPZ, CIFAR10_ARCHIVE.url)
    archive_path = fetch(CIFAR10_ARCHIVE, base)
    return convert_cifar10_archive(archive_path, npz_path)


# --------------------------------------------------------------------------- breast cancer

def load_breast_cancer() -> tuple[np.ndarray, np.ndarray, dict]:
    """Breast Cancer Wisconsin (Diagnostic): ``X`` float64 (569, 30), ``y`` int64 (569,) and a
    provenance dict.

    Source: W. Wolberg, O. Mangasarian, N. Street, W. Street, UCI Machine Learning Repository,
    1993, https://doi.org/10.24432/C5DW2B (CC BY 4.0), as shipped inside scikit-learn
    (``sklearn/datasets/data/breast_cancer.csv``). Design decisions:

    * nothing is downloaded: the csv shipped with scikit-learn is located with
      :mod:`importlib.resources` and its sha256/md5 (``BREAST_CANCER_CSV``) are checked, then
      ``sklearn.datasets.load_breast_cancer`` parses it;
    * labels are scikit-learn's: 0 = malignant (212), 1 = benign (357); features are raw.

    The provenance dict holds ``source``, ``file``, ``sha256``, ``n_samples``, ``n_features``
    and ``class_counts``.
    """
    import sklearn
    from sklearn.datasets import load_breast_cancer as sklearn_load_breast_cancer

    resource = importlib.resources.files("sklearn.datasets.data").joinpath("breast_cancer.csv")
    with importlib.resources.as_file(resource) as csv_path:
        verify_file(csv_path, BREAST_CANCER_CSV)
        bunch = sklearn_load_breast_cancer()
    X = np.asarray(bunch.data, dtype=np.float64)
    y = np.asarray(bunch.target, dtype=np.int64)
    if X.shape != (569, 30) or y.shape != (569,):
        raise DataError(f"{csv_path}: scikit-learn returned X {X.shape} and y {y.shape}, expected "
                        f"(569, 30) and (569,); reinstall scikit-learn")
    counts = np.bincount(y, minlength=2)
    provenance = {
        "source": f"scikit-learn {sklearn.__version__} sklearn.datasets.load_breast_cancer "
                  f"(UCI Breast Cancer Wisconsin (Diagnostic), {BREAST_CANCER_CSV.url})",
        "file": str(csv_path),
        "sha256": BREAST_CANCER_CSV.sha256,
        "n_samples": int(X.shape[0]),
        "n_features": int(X.shape[1]),
        "class_counts": {str(name): int(count) for name, count in zip(bunch.target_names, counts)},
    }
    return X, y, provenance


# --------------------------------------------------------------------------- provenance

def _file_checksums(remote: RemoteFile) -> dict:
    return {"size": remote.size, **remote.digests()}


def checksums_for(dataset_name: str) -> dict[str, dict]:
    """Checksums of the files a dataset is loaded from, for recording with results.

    Keys are file paths relative to the data root (for breast cancer: inside site-packages).
    Plain files map to ``{"size", "sha256", "md5"}``; the CIFAR-10 npz maps to
    ``{"array_sha256": {array name: sha256 of its raw C-order bytes}}``.
    """
    if dataset_name == "mnist":
        return {array.remote.name: _file_checksums(array.remote)
                for array in MNIST_ARRAYS.values()}
    if dataset_name == "cifar10":
        return {CIFAR10_NPZ: {"array_sha256": {name: spec.sha256
                                               for name, spec in CIFAR10_ARRAYS.items()}}}
    if dataset_name == "breast_cancer":
        return {BREAST_CANCER_CSV.name: _file_checksums(BREAST_CANCER_CSV)}
    raise ConfigError(f"unknown dataset {dataset_name!r}; known datasets: {', '.join(DATASETS)}")
