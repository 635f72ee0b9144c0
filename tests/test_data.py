"""Tests of repro.data: formats, checksums, download policy and error messages.

No test downloads anything: every test runs with ``REPRO_OFFLINE=1`` and with socket connections
blocked; the download tests serve files through ``file://`` URLs or a fake ``urlopen``. Small
files in the real formats (gzip IDX, npz, tar.gz of pickled batches) are written to ``tmp_path``
and the expected checksums are injected by monkeypatching the module's tables or via parameters.
Tests of the real, full datasets run only when ``REPRO_DATA_DIR`` is set.
"""
from __future__ import annotations

import dataclasses
import gzip
import hashlib
import io
import os
import pickle
import socket
import tarfile
from pathlib import Path

import numpy as np
import pytest

from repro import data
from repro.errors import ConfigError, DataError

REAL_DATA_DIR = os.environ.get("REPRO_DATA_DIR", "")
needs_real_data = pytest.mark.skipif(
    not REAL_DATA_DIR, reason="platform: set REPRO_DATA_DIR to the folder holding the real datasets")


@pytest.fixture(autouse=True)
def no_downloads(monkeypatch):
    """Offline mode, no network, and a fresh verification cache for every test."""
    monkeypatch.setenv("REPRO_OFFLINE", "1")

    def refuse(*args, **kwargs):
        raise AssertionError("a test tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    data.clear_verification_cache()
    yield
    data.clear_verification_cache()


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def md5_of(path: Path) -> str:
    return hashlib.md5(path.read_bytes()).hexdigest()


def remote_for(path: Path, name: str, url: str = "https://example.invalid/file") -> data.RemoteFile:
    """A RemoteFile whose checksums are those of ``path`` as it is now."""
    return data.RemoteFile(name, url, path.stat().st_size, sha256_of(path), md5_of(path))


def assert_one_line_naming(error: pytest.ExceptionInfo, *parts: str) -> str:
    message = str(error.value)
    assert "\n" not in message
    for part in parts:
        assert part in message, (part, message)
    return message


# --------------------------------------------------------------------------- tiny MNIST

def idx_bytes(array: np.ndarray, magic: int | None = None) -> bytes:
    """An IDX file holding a uint8 array (magic 0x08NN unless given)."""
    magic = 0x800 + array.ndim if magic is None else magic
    header = magic.to_bytes(4, "big") + b"".join(n.to_bytes(4, "big") for n in array.shape)
    return header + np.ascontiguousarray(array, dtype=np.uint8).tobytes()


@pytest.fixture
def tiny_mnist(tmp_path, monkeypatch):
    """Four small gzip IDX files under tmp_path/mnist and a matching MNIST_ARRAYS table."""
    rng = np.random.default_rng(0)
    arrays = {
        "x_train": rng.integers(0, 256, (6, 28, 28), dtype=np.uint8),
        "y_train": np.array([0, 1, 2, 9, 4, 5], dtype=np.uint8),
        "x_test": rng.integers(0, 256, (3, 28, 28), dtype=np.uint8),
        "y_test": np.array([7, 8, 3], dtype=np.uint8),
    }
    (tmp_path / "mnist").mkdir()
    table = {}
    for key, array in arrays.items():
        original = data.MNIST_ARRAYS[key]
        path = tmp_path / original.remote.name
        path.write_bytes(gzip.compress(idx_bytes(array)))
        table[key] = data.IdxArray(remote_for(path, original.remote.name), original.magic,
                                   array.shape)
    monkeypatch.setattr(data, "MNIST_ARRAYS", table)
    return tmp_path, arrays


def test_parse_idx_reads_images_and_labels():
    images = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
    parsed = data.parse_idx(idx_bytes(images), 0x803, (2, 3, 4), "images")
    np.testing.assert_array_equal(parsed, images)
    assert parsed.dtype == np.uint8 and parsed.flags.writeable
    labels = np.array([3, 1, 4], dtype=np.uint8)
    np.testing.assert_array_equal(data.parse_idx(idx_bytes(labels), 0x801, (3,), "labels"), labels)


@pytest.mark.parametrize("mutate, expected_text", [
    (lambda raw: raw[:2], "not an IDX file"),
    (lambda raw: (0x801).to_bytes(4, "big") + raw[4:], "magic number 0x801, expected 0x803"),
    (lambda raw: raw[:9], "truncated inside its IDX header"),
    (lambda raw: raw[:4] + (5).to_bytes(4, "big") + raw[8:], "dimensions (5, 3, 4)"),
    (lambda raw: raw[:-1], "23 data bytes"),
    (lambda raw: raw + b"\0", "25 data bytes"),
])
def test_parse_idx_rejects_malformed_files(mutate, expected_text):
    raw = idx_bytes(np.zeros((2, 3, 4), dtype=np.uint8))
    with pytest.raises(DataError) as error:
        data.parse_idx(mutate(raw), 0x803, (2, 3, 4), "some/file-idx3-ubyte")
    assert_one_line_naming(error, "some/file-idx3-ubyte", expected_text)


def test_load_mnist_parses_tiny_files(tiny_mnist):
    root, arrays = tiny_mnist
    loaded = data.load_mnist(root)
    assert set(loaded) == {"x_train", "y_train", "x_test", "y_test"}
    for key, array in arrays.items():
        assert loaded[key].dtype == np.uint8
        np.testing.assert_array_equal(loaded[key], array)


def test_explicit_root_overrides_environment(tiny_mnist, monkeypatch, tmp_path_factory):
    root, arrays = tiny_mnist
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path_factory.mktemp("empty")))
    np.testing.assert_array_equal(data.load_mnist(root)["y_test"], arrays["y_test"])
    monkeypatch.setenv("REPRO_DATA_DIR", str(root))
    np.testing.assert_array_equal(data.load_mnist()["y_test"], arrays["y_test"])


def test_corrupted_file_names_file_and_checksums(tiny_mnist):
    root, _ = tiny_mnist
    remote = data.MNIST_ARRAYS["x_test"].remote
    path = root / remote.name
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    path.write_bytes(bytes(raw))
    with pytest.raises(DataError) as error:
        data.load_mnist(root)
    assert_one_line_naming(error, str(path), remote.sha256, hashlib.sha256(raw).hexdigest(),
                           "REPRO_DATA_DIR")


def test_truncated_file_names_file_sizes_and_checksums(tiny_mnist):
    root, _ = tiny_mnist
    remote = data.MNIST_ARRAYS["y_train"].remote
    path = root / remote.name
    path.write_bytes(path.read_bytes()[:-5])
    with pytest.raises(DataError) as error:
        data.load_mnist(root)
    assert_one_line_naming(error, str(path), remote.sha256, f"expected {remote.size}",
                           f"{remote.size - 5} bytes")


def test_wrong_magic_in_verified_file(tiny_mnist, monkeypatch):
    """A file with the right checksum but the wrong content type (labels where images belong)."""
    root, _ = tiny_mnist
    table = dict(data.MNIST_ARRAYS)
    table["x_test"] = dataclasses.replace(table["x_test"], remote=table["y_test"].remote)
    monkeypatch.setattr(data, "MNIST_ARRAYS", table)
    with pytest.raises(DataError) as error:
        data.load_mnist(root)
    assert_one_line_naming(error, "t10k-labels-idx1-ubyte.gz", "magic number 0x801, expected 0x803")


def test_label_out_of_range(tiny_mnist, monkeypatch):
    root, _ = tiny_mnist
    path = root / data.MNIST_ARRAYS["y_test"].remote.name
    path.write_bytes(gzip.compress(idx_bytes(np.array([7, 10, 3], dtype=np.uint8))))
    table = dict(data.MNIST_ARRAYS)
    table["y_test"] = dataclasses.replace(table["y_test"],
                                          remote=remote_for(path, table["y_test"].remote.name))
    monkeypatch.setattr(data, "MNIST_ARRAYS", table)
    with pytest.raises(DataError) as error:
        data.load_mnist(root)
    assert_one_line_naming(error, str(path), "label 10")


def test_missing_file_offline(tiny_mnist):
    root, _ = tiny_mnist
    path = root / data.MNIST_ARRAYS["x_train"].remote.name
    path.unlink()
    with pytest.raises(DataError) as error:
        data.load_mnist(root)
    assert_one_line_naming(error, str(path), "REPRO_OFFLINE", "REPRO_DATA_DIR",
                           data.MNIST_ARRAYS["x_train"].remote.url)


def test_second_load_does_not_rehash_until_file_changes(tiny_mnist, monkeypatch):
    root, _ = tiny_mnist
    hashed = []
    real_hash_file = data._hash_file

    def counting_hash_file(path, algorithms):
        hashed.append(Path(path).name)
        return real_hash_file(path, algorithms)

    monkeypatch.setattr(data, "_hash_file", counting_hash_file)
    data.load_mnist(root)
    assert len(hashed) == 4
    data.load_mnist(root)
    assert len(hashed) == 4
    path = root / data.MNIST_ARRAYS["y_test"].remote.name
    os.utime(path, ns=(0, 10**9))
    data.load_mnist(root)
    assert hashed[4:] == [path.name]


def test_unreadable_gzip_with_matching_checksum(tiny_mnist, monkeypatch):
    root, _ = tiny_mnist
    path = root / data.MNIST_ARRAYS["y_test"].remote.name
    path.write_bytes(b"not gzip at all")
    table = dict(data.MNIST_ARRAYS)
    table["y_test"] = dataclasses.replace(table["y_test"],
                                          remote=remote_for(path, table["y_test"].remote.name))
    monkeypatch.setattr(data, "MNIST_ARRAYS", table)
    with pytest.raises(DataError) as error:
        data.load_mnist(root)
    assert_one_line_naming(error, str(path), "not a valid gzip file")


# --------------------------------------------------------------------------- tiny CIFAR-10

def tiny_cifar_arrays(n_per_batch: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(1)
    return {
        "x_train": rng.integers(0, 256, (5 * n_per_batch, 32, 32, 3), dtype=np.uint8),
        "y_train": rng.integers(0, 10, 5 * n_per_batch, dtype=np.uint8),
        "x_test": rng.integers(0, 256, (n_per_batch, 32, 32, 3), dtype=np.uint8),
        "y_test": rng.integers(0, 10, n_per_batch, dtype=np.uint8),
    }


def specs_for(arrays: dict[str, np.ndarray]) -> dict[str, data.ArraySpec]:
    return {name: data.ArraySpec(str(array.dtype), array.shape,
                                 hashlib.sha256(array.tobytes()).hexdigest())
            for name, array in arrays.items()}


def write_cifar_archive(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """A tar.gz in the official layout: pickled dicts with (n, 3072) rows and a labels list."""
    def rows(images):
        return images.transpose(0, 3, 1, 2).reshape(-1, 3072)  # as documented in the README

    n = len(arrays["y_test"])
    batches = {f"data_batch_{i + 1}": (rows(arrays["x_train"][i * n:(i + 1) * n]),
                                       arrays["y_train"][i * n:(i + 1) * n])
               for i in range(5)}
    batches["test_batch"] = (rows(arrays["x_test"]), arrays["y_test"])
    with tarfile.open(path, "w:gz") as tar:
        for name, (batch_rows, labels) in batches.items():
            payload = pickle.dumps({"batch_label": name, "labels": [int(v) for v in labels],
                                    "data": np.ascontiguousarray(batch_rows),
                                    "filenames": [f"{name}_{i}.png" for i in range(len(labels))]},
                                   protocol=2)
            info = tarfile.TarInfo(f"cifar-10-batches-py/{name}")
            info.size = len(payload)
            tar.addfile(info, io.BytesIO(payload))


@pytest.fixture
def tiny_cifar(tmp_path, monkeypatch):
    """A small npz under tmp_path/cifar10 and a matching CIFAR10_ARRAYS table."""
    arrays = tiny_cifar_arrays()
    path = tmp_path / data.CIFAR10_NPZ
    path.parent.mkdir()
    np.savez_compressed(path, **arrays)
    monkeypatch.setattr(data, "CIFAR10_ARRAYS", specs_for(arrays))
    return tmp_path, arrays


@pytest.fixture
def tiny_archive(tmp_path, monkeypatch):
    """A small official-format archive under tmp_path/cifar10 with injected checksums."""
    arrays = tiny_cifar_arrays()
    path = tmp_path / data.CIFAR10_ARCHIVE.name
    path.parent.mkdir()
    write_cifar_archive(path, arrays)
    monkeypatch.setattr(data, "CIFAR10_ARCHIVE",
                        remote_for(path, data.CIFAR10_ARCHIVE.name, data.CIFAR10_ARCHIVE.url))
    monkeypatch.setattr(data, "CIFAR10_ARRAYS", specs_for(arrays))
    return tmp_path, arrays


def test_load_cifar10_reads_verified_npz(tiny_cifar):
    root, arrays = tiny_cifar
    loaded = data.load_cifar10(root)
    assert set(loaded) == set(arrays)
    for key, array in arrays.items():
        np.testing.assert_array_equal(loaded[key], array)


def test_cifar10_array_hash_mismatch(tiny_cifar):
    root, arrays = tiny_cifar
    changed = dict(arrays, y_test=(arrays["y_test"] + 1) % 10)
    path = root / data.CIFAR10_NPZ
    np.savez_compressed(path, **changed)
    with pytest.raises(DataError) as error:
        data.load_cifar10(root)
    assert_one_line_naming(error, str(path), "y_test", data.CIFAR10_ARRAYS["y_test"].sha256,
                           hashlib.sha256(changed["y_test"].tobytes()).hexdigest())


def test_cifar10_verification_uses_array_content_not_file_bytes(tiny_cifar):
    root, arrays = tiny_cifar
    np.savez(root / data.CIFAR10_NPZ, **arrays)  # uncompressed: other bytes, same arrays
    np.testing.assert_array_equal(data.load_cifar10(root)["x_train"], arrays["x_train"])


@pytest.mark.parametrize("replace_with, expected_text", [
    (lambda a: dict(a, y_train=a["y_train"].astype(np.int64)), "int64"),
    (lambda a: dict(a, x_test=a["x_test"][:-1]), "expected uint8 (3, 32, 32, 3)"),
    (lambda a: {k: v for k, v in a.items() if k != "y_test"}, "lacks array(s) y_test"),
    (lambda a: dict(a, y_test=np.array([{"evil": 1}], dtype=object)), "not a readable numpy npz"),
])
def test_cifar10_npz_with_wrong_arrays(tiny_cifar, replace_with, expected_text):
    root, arrays = tiny_cifar
    path = root / data.CIFAR10_NPZ
    np.savez_compressed(path, **replace_with(arrays))
    with pytest.raises(DataError) as error:
        data.load_cifar10(root)
    assert_one_line_naming(error, str(path), expected_text)


@pytest.mark.parametrize("cut", [0, 100, -100])
def test_cifar10_npz_truncated_or_not_a_zip(tiny_cifar, cut):
    root, _ = tiny_cifar
    path = root / data.CIFAR10_NPZ
    raw = path.read_bytes()
    path.write_bytes(raw[:cut] if cut else b"garbage")
    with pytest.raises(DataError) as error:
        data.load_cifar10(root)
    assert_one_line_naming(error, str(path))


def test_cifar10_second_load_does_not_rehash(tiny_cifar, monkeypatch):
    root, _ = tiny_cifar
    hashed = []
    real_array_sha256 = data._array_sha256

    def counting_array_sha256(array):
        hashed.append(array.shape)
        return real_array_sha256(array)

    monkeypatch.setattr(data, "_array_sha256", counting_array_sha256)
    data.load_cifar10(root)
    data.load_cifar10(root)
    assert len(hashed) == 4


def test_cifar10_missing_offline(tmp_path):
    with pytest.raises(DataError) as error:
        data.load_cifar10(tmp_path)
    assert_one_line_naming(error, str(tmp_path / data.CIFAR10_NPZ), "REPRO_OFFLINE",
                           "REPRO_DATA_DIR", "cifar-10-python.tar.gz")


def test_convert_archive_to_npz_layout(tiny_archive, tmp_path):
    root, arrays = tiny_archive
    npz_path = tmp_path / "out" / "cifar.npz"
    converted = data.convert_cifar10_archive(root / data.CIFAR10_ARCHIVE.name, npz_path,
                                             data.CIFAR10_ARCHIVE, data.CIFAR10_ARRAYS)
    with np.load(npz_path, allow_pickle=False) as written:
        for key, array in arrays.items():
            np.testing.assert_array_equal(converted[key], array)
            np.testing.assert_array_equal(written[key], array)
    assert [p.name for p in npz_path.parent.iterdir()] == ["cifar.npz"]


def test_load_cifar10_builds_npz_from_cached_archive_offline(tiny_archive):
    root, arrays = tiny_archive
    loaded = data.load_cifar10(root)
    np.testing.assert_array_equal(loaded["x_test"], arrays["x_test"])
    assert (root / data.CIFAR10_NPZ).exists()
    np.testing.assert_array_equal(data.load_cifar10(root)["y_train"], arrays["y_train"])


def test_convert_never_unpickles_unverified_archive(tiny_archive, tmp_path, monkeypatch):
    root, _ = tiny_archive

    def refuse(*args, **kwargs):
        raise AssertionError("an unverified archive was unpickled")

    monkeypatch.setattr(data.pickle, "load", refuse)
    wrong = dataclasses.replace(data.CIFAR10_ARCHIVE, md5="0" * 32, sha256=None)
    npz_path = tmp_path / "out.npz"
    with pytest.raises(DataError) as error:
        data.convert_cifar10_archive(root / wrong.name, npz_path, archive=wrong)
    assert_one_line_naming(error, str(root / wrong.name), "md5", "0" * 32)
    assert not npz_path.exists()


def test_convert_with_wrong_array_hash_writes_nothing(tiny_archive):
    root, _ = tiny_archive
    specs = dict(data.CIFAR10_ARRAYS)
    specs["x_train"] = dataclasses.replace(specs["x_train"], sha256="f" * 64)
    cifar_dir = root / "cifar10"
    before = sorted(p.name for p in cifar_dir.iterdir())
    with pytest.raises(DataError) as error:
        data.convert_cifar10_archive(root / data.CIFAR10_ARCHIVE.name, root / data.CIFAR10_NPZ,
                                     arrays=specs)
    assert_one_line_naming(error, "x_train", "f" * 64)
    assert sorted(p.name for p in cifar_dir.iterdir()) == before


def test_convert_rejects_archive_without_batches(tmp_path):
    path = tmp_path / "empty.tar.gz"
    with tarfile.open(path, "w:gz"):
        pass
    with pytest.raises(DataError) as error:
        data.convert_cifar10_archive(path, tmp_path / "out.npz", archive=remote_for(path, "x"))
    assert_one_line_naming(error, str(path), "data_batch_1")


# --------------------------------------------------------------------------- downloads

def test_download_file_is_verified_and_atomic(tmp_path, monkeypatch):
    source = tmp_path / "source.bin"
    source.write_bytes(b"payload" * 1000)
    remote = remote_for(source, "sub/file.bin", url=source.as_uri())
    monkeypatch.delenv("REPRO_OFFLINE")
    destination = data.fetch(remote, tmp_path / "root")
    assert destination == tmp_path / "root" / "sub" / "file.bin"
    assert destination.read_bytes() == source.read_bytes()
    assert [p.name for p in destination.parent.iterdir()] == ["file.bin"]


def test_download_with_wrong_checksum_leaves_nothing(tmp_path, monkeypatch):
    source = tmp_path / "source.bin"
    source.write_bytes(b"payload")
    remote = dataclasses.replace(remote_for(source, "file.bin", url=source.as_uri()),
                                 sha256="0" * 64)
    monkeypatch.delenv("REPRO_OFFLINE")
    target_dir = tmp_path / "root"
    with pytest.raises(DataError) as error:
        data.download_file(remote, target_dir / "file.bin")
    assert_one_line_naming(error, source.as_uri(), "0" * 64, str(target_dir / "file.bin"))
    assert list(target_dir.iterdir()) == []


def test_interrupted_download_leaves_no_partial_file(tmp_path, monkeypatch):
    class BrokenResponse(io.BytesIO):
        def read(self, size=-1):
            if self.tell():
                raise ConnectionResetError("connection reset by peer")
            return super().read(10)

    monkeypatch.setattr(data.urllib.request, "urlopen",
                        lambda request, timeout: BrokenResponse(b"x" * 100))
    monkeypatch.delenv("REPRO_OFFLINE")
    remote = data.RemoteFile("file.bin", "https://example.invalid/file.bin", 100, md5="0" * 32)
    target_dir = tmp_path / "root"
    with pytest.raises(DataError) as error:
        data.download_file(remote, target_dir / "file.bin")
    assert_one_line_naming(error, remote.url, "connection reset", str(target_dir / "file.bin"))
    assert list(target_dir.iterdir()) == []


def test_download_refused_offline(tmp_path):
    remote = data.RemoteFile("file.bin", "https://example.invalid/file.bin", 1, md5="0" * 32)
    with pytest.raises(DataError) as error:
        data.download_file(remote, tmp_path / "file.bin")
    assert_one_line_naming(error, str(tmp_path / "file.bin"), "REPRO_OFFLINE")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value, expected",
                         [("1", True), ("true", True), ("0", False), ("", False)])
def test_offline_flag(monkeypatch, value, expected):
    monkeypatch.setenv("REPRO_OFFLINE", value)
    assert data.offline() is expected


# --------------------------------------------------------------------------- data_dir

def test_data_dir_precedence(monkeypatch, tmp_path):
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path / "explicit"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert data.data_dir() == tmp_path / "explicit"
    monkeypatch.delenv("REPRO_DATA_DIR")
    assert data.data_dir() == tmp_path / "xdg" / "fedbounds"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data.data_dir() == tmp_path / "home" / ".cache" / "fedbounds"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert data.data_dir() == tmp_path / "home" / ".cache" / "fedbounds"


# --------------------------------------------------------------------------- tables and provenance

def test_resource_tables_use_canonical_urls():
    for array in data.MNIST_ARRAYS.values():
        file_name = array.remote.name.removeprefix("mnist/")
        assert array.remote.url == f"https://ossci-datasets.s3.amazonaws.com/mnist/{file_name}"
    assert data.CIFAR10_ARCHIVE.url == "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
    assert data.CIFAR10_ARCHIVE.md5 == "c58f30108f718f92721af3b95e74349a"
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.CIFAR10_ARCHIVE.md5 = "0" * 32


def test_checksums_for():
    mnist = data.checksums_for("mnist")
    assert mnist["mnist/train-images-idx3-ubyte.gz"] == {
        "size": 9_912_422,
        "sha256": "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609",
        "md5": "f68b3c2dcbeaaa9fbdd348bbdeb94873"}
    assert len(mnist) == 4
    cifar = data.checksums_for("cifar10")
    assert cifar["cifar10/cifar10_uint8.npz"]["array_sha256"]["y_test"] == (
        "cec8a24a1e92aa2ecaa0bbd3dbfa86bf6cd8759fbd209a832824c8cf0afca9d5")
    assert data.checksums_for("breast_cancer")["sklearn/datasets/data/breast_cancer.csv"][
        "sha256"] == "fed3eb72d0575ef6192293f5093c6e801b1476b577d0386bf4455504522172ed"
    with pytest.raises(ConfigError, match="unknown dataset 'emnist'"):
        data.checksums_for("emnist")


# --------------------------------------------------------------------------- breast cancer

def test_load_breast_cancer():
    X, y, provenance = data.load_breast_cancer()
    assert X.shape == (569, 30) and X.dtype == np.float64
    assert y.shape == (569,) and y.dtype == np.int64
    assert np.bincount(y).tolist() == [212, 357]
    assert provenance["class_counts"] == {"malignant": 212, "benign": 357}
    assert provenance["sha256"] == data.BREAST_CANCER_CSV.sha256
    assert provenance["file"].endswith("breast_cancer.csv")


def test_breast_cancer_checksum_mismatch(monkeypatch):
    monkeypatch.setattr(data, "BREAST_CANCER_CSV",
                        dataclasses.replace(data.BREAST_CANCER_CSV, sha256="0" * 64))
    with pytest.raises(DataError) as error:
        data.load_breast_cancer()
    assert_one_line_naming(error, "breast_cancer.csv", "0" * 64)


# --------------------------------------------------------------------------- real datasets

@pytest.fixture(scope="module")
def real_mnist():
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REPRO_OFFLINE", "1")
        return data.load_mnist(REAL_DATA_DIR)


@pytest.fixture(scope="module")
def real_cifar10():
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REPRO_OFFLINE", "1")
        return data.load_cifar10(REAL_DATA_DIR)


@needs_real_data
def test_real_mnist(real_mnist):
    shapes = {key: array.shape for key, array in real_mnist.items()}
    assert shapes == {"x_train": (60000, 28, 28), "y_train": (60000,),
                      "x_test": (10000, 28, 28), "y_test": (10000,)}
    assert all(array.dtype == np.uint8 for array in real_mnist.values())
    assert np.bincount(real_mnist["y_train"]).tolist() == [
        5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949]
    assert np.bincount(real_mnist["y_test"]).tolist() == [
        980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]
    np.testing.assert_allclose(real_mnist["x_train"].mean(dtype=np.float64) / 255, 0.130660,
                               atol=1e-6)


@needs_real_data
def test_real_cifar10(real_cifar10):
    shapes = {key: array.shape for key, array in real_cifar10.items()}
    assert shapes == {"x_train": (50000, 32, 32, 3), "y_train": (50000,),
                      "x_test": (10000, 32, 32, 3), "y_test": (10000,)}
    assert all(array.dtype == np.uint8 for array in real_cifar10.values())
    assert np.bincount(real_cifar10["y_train"]).tolist() == [5000] * 10
    assert np.bincount(real_cifar10["y_test"]).tolist() == [1000] * 10
