"""Loading embedding tables from ``.npy`` and ``.safetensors`` files."""

from __future__ import annotations

import gc
import io
import json
import struct
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from embedviz.core.errors import EmbedvizError
from embedviz.core.weights import load_weights

# ---------------------------------------------------------------------- helpers

_ST_CODES = {
    np.dtype("<f8"): "F64",
    np.dtype("<f4"): "F32",
    np.dtype("<f2"): "F16",
    np.dtype("<i8"): "I64",
    np.dtype("<i4"): "I32",
    np.dtype("<i2"): "I16",
    np.dtype("i1"): "I8",
    np.dtype("u1"): "U8",
}


def _safetensors_bytes(
    tensors: dict[str, tuple[str, list[int], bytes]], metadata: dict[str, str] | None = None
) -> bytes:
    """Lay out a .safetensors file: u64 LE header length, JSON header, raw data."""
    header: dict[str, Any] = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    blobs = []
    offset = 0
    for name, (dtype, shape, data) in tensors.items():
        header[name] = {
            "dtype": dtype,
            "shape": shape,
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    raw = json.dumps(header).encode("utf-8")
    return struct.pack("<Q", len(raw)) + raw + b"".join(blobs)


def _write_safetensors(path: Path, arrays: dict[str, np.ndarray], **kwargs: Any) -> Path:
    tensors = {}
    for name, array in arrays.items():
        dtype = np.dtype(array.dtype).newbyteorder("<") if array.dtype.itemsize > 1 else array.dtype
        tensors[name] = (
            _ST_CODES[dtype],
            list(array.shape),
            np.ascontiguousarray(array, dtype=dtype).tobytes(),
        )
    path.write_bytes(_safetensors_bytes(tensors, **kwargs))
    return path


def _raw_header_file(path: Path, header: object, data: bytes = b"") -> Path:
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + data)
    return path


def _bf16_bytes(values_f32: np.ndarray) -> bytes:
    """bfloat16 is the top 16 bits of a float32 (truncation is exact here)."""
    bits = np.ascontiguousarray(values_f32, dtype="<f4").view("<u4")
    return (bits >> 16).astype("<u2").tobytes()


def _error(path: Path, tensor: str | None = None) -> str:
    with pytest.raises(EmbedvizError) as info:
        load_weights(path, tensor)
    message = str(info.value)
    assert message
    assert "\n" not in message, repr(message)
    return message


def _assert_table(result: Any, expected: list[list[float]]) -> None:
    assert isinstance(result, np.ndarray)
    assert result.dtype == np.float32
    assert result.ndim == 2
    assert result.tolist() == expected


# ------------------------------------------------------------------------------ .npy


@pytest.mark.parametrize(
    "dtype", [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8]
)
def test_npy_numeric_tables_load_as_float32(tmp_path: Path, dtype: Any) -> None:
    values = [[0, 1, 2], [3, -4, 5], [6, 7, 100]]
    if np.dtype(dtype).kind == "u":
        values = [[abs(v) for v in row] for row in values]
    np.save(tmp_path / "t.npy", np.array(values, dtype=dtype))
    _assert_table(load_weights(tmp_path / "t.npy"), [[float(v) for v in row] for row in values])


def test_npy_float64_rounds_to_nearest_float32(tmp_path: Path) -> None:
    values = np.array([[0.1, 1 / 3], [-2.5, 1e-8]])
    np.save(tmp_path / "t.npy", values)
    expected = [[float(np.float32(v)) for v in row] for row in values.tolist()]
    _assert_table(load_weights(tmp_path / "t.npy"), expected)


@pytest.mark.parametrize("layout", ["big-endian", "fortran"])
def test_npy_unusual_layouts(tmp_path: Path, layout: str) -> None:
    values = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    array = values.astype(">f4") if layout == "big-endian" else np.asfortranarray(values)
    np.save(tmp_path / "t.npy", array)
    _assert_table(load_weights(tmp_path / "t.npy"), values.tolist())


def test_npy_suffix_is_case_insensitive(tmp_path: Path) -> None:
    np.save(tmp_path / "t.npy", np.ones((2, 2), dtype=np.float32))
    (tmp_path / "t.npy").rename(tmp_path / "T.NPY")
    _assert_table(load_weights(str(tmp_path / "T.NPY")), [[1.0, 1.0], [1.0, 1.0]])


@pytest.mark.parametrize("shape", [(), (5,), (2, 3, 4), (1, 1, 1, 1)], ids=str)
def test_npy_not_2d_refused(tmp_path: Path, shape: tuple[int, ...]) -> None:
    np.save(tmp_path / "t.npy", np.zeros(shape, dtype=np.float32))
    message = _error(tmp_path / "t.npy")
    assert str(shape) in message
    assert "2-D" in message


@pytest.mark.parametrize("shape", [(0, 3), (3, 0)], ids=str)
def test_npy_empty_refused(tmp_path: Path, shape: tuple[int, ...]) -> None:
    np.save(tmp_path / "t.npy", np.zeros(shape, dtype=np.float32))
    _error(tmp_path / "t.npy")


def test_npy_object_dtype_refused_without_unpickling(tmp_path: Path) -> None:
    marker = tmp_path / "unpickled"

    class Boom:
        # If anything unpickles the file, this creates the marker file.
        def __reduce__(self) -> tuple[Any, tuple[str, str]]:
            return (Path.write_text, (marker, "pwned"))  # type: ignore[return-value]

    array = np.empty((2, 2), dtype=object)
    array[:] = 1.0
    array[0, 0] = Boom()
    np.save(tmp_path / "obj.npy", array, allow_pickle=True)
    message = _error(tmp_path / "obj.npy")
    assert "never unpickles" in message
    assert not marker.exists()


@pytest.mark.parametrize(
    "array",
    [
        np.zeros((2, 2), dtype=np.complex64),
        np.zeros((2, 2), dtype=bool),
        np.zeros((2, 2), dtype="U3"),
        np.zeros((2, 2), dtype=[("a", "<f4"), ("b", "<f4")]),
        np.zeros((2, 2), dtype="datetime64[s]"),
    ],
    ids=lambda a: str(a.dtype),
)
def test_npy_non_numeric_dtypes_refused(tmp_path: Path, array: np.ndarray) -> None:
    np.save(tmp_path / "t.npy", array)
    _error(tmp_path / "t.npy")


def _npy_bytes(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


@pytest.mark.parametrize("keep", [0, 5, 20, 100, -1])
def test_npy_truncated_refused(tmp_path: Path, keep: int) -> None:
    whole = _npy_bytes(np.ones((8, 4), dtype=np.float32))
    (tmp_path / "t.npy").write_bytes(whole[:keep])
    assert len(whole[:keep]) < len(whole)
    _error(tmp_path / "t.npy")


@pytest.mark.parametrize(
    "content",
    [
        b"not a numpy file at all",
        b"\x93NUMPY\x01\x00\x10\x00{'descr': garbage",
        b"\x93NUMPY\x09\x09" + b"\x00" * 64,
        b"\x93NUMPY\x01\x00\xff\xff" + b"{" * 40,
        b"\x93NUMPY\x01\x00\x46\x00{'descr': '<f4', 'fortran_order': False, 'shape': (-3, 2), }"
        + b" " * 9
        + b"\n",
    ],
)
def test_npy_corrupt_refused(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "t.npy").write_bytes(content)
    message = _error(tmp_path / "t.npy")
    assert "t.npy" in message


@pytest.mark.parametrize("content", [b"not a numpy file at all", b"\x00\x01\x02\x03binary"])
def test_npy_without_magic_is_not_called_a_pickle(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "t.npy").write_bytes(content)
    message = _error(tmp_path / "t.npy")
    assert "Python objects" not in message


def _npz_as_npy(tmp_path: Path) -> tuple[str, list[warnings.WarningMessage]]:
    np.savez(tmp_path / "t.npz", weight=np.ones((2, 2), dtype=np.float32))
    (tmp_path / "t.npz").rename(tmp_path / "t.npy")
    # Record (rather than raise) anything emitted while the loader's objects die,
    # so that a leak shows up here and not in some later test.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        message = _error(tmp_path / "t.npy")
        gc.collect()
    return message, caught


def test_npz_renamed_to_npy_refused(tmp_path: Path) -> None:
    message, _ = _npz_as_npy(tmp_path)
    assert "t.npy" in message


def test_npz_renamed_to_npy_closes_the_file(tmp_path: Path) -> None:
    _, caught = _npz_as_npy(tmp_path)
    leaks = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
    assert leaks == []


# ------------------------------------------------------------------- paths/suffixes


@pytest.mark.parametrize("name", ["missing.npy", "missing.safetensors"])
def test_missing_file_refused(tmp_path: Path, name: str) -> None:
    message = _error(tmp_path / name)
    assert name in message
    assert "does not exist" in message


def test_directory_refused(tmp_path: Path) -> None:
    (tmp_path / "dir.npy").mkdir()
    message = _error(tmp_path / "dir.npy")
    assert "dir.npy" in message


@pytest.mark.parametrize("name", ["t.pt", "t.bin", "t.txt", "t", "t.npy.bak", "t.npz"])
def test_wrong_suffix_refused(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_bytes(_npy_bytes(np.ones((2, 2), dtype=np.float32)))
    message = _error(tmp_path / name)
    assert ".npy" in message
    assert ".safetensors" in message


def test_tensor_name_with_npy_refused(tmp_path: Path) -> None:
    np.save(tmp_path / "t.npy", np.ones((2, 2), dtype=np.float32))
    message = _error(tmp_path / "t.npy", "weight")
    assert "--tensor" in message


# ---------------------------------------------------------------------- .safetensors


def test_safetensors_f32(tmp_path: Path) -> None:
    values = np.array([[0.1, -2.0, 3.5], [1e-30, 6.0, -0.0]], dtype=np.float32)
    path = _write_safetensors(tmp_path / "m.safetensors", {"weight": values})
    _assert_table(load_weights(path), values.tolist())


def test_safetensors_f16_widens_exactly(tmp_path: Path) -> None:
    # Hand-made half-precision bit patterns and their exact values.
    bits = np.array([[0x3C00, 0xC000, 0x3555], [0x0001, 0x7BFF, 0x8000]], dtype="<u2")
    expected = [[1.0, -2.0, 0.333251953125], [2.0**-24, 65504.0, -0.0]]
    path = tmp_path / "h.safetensors"
    path.write_bytes(_safetensors_bytes({"weight": ("F16", [2, 3], bits.tobytes())}))
    result = load_weights(path)
    _assert_table(result, expected)
    assert np.signbit(result[1, 2])


def test_safetensors_bf16_widens_exactly(tmp_path: Path) -> None:
    bits = np.array([[0x3F80, 0xC000, 0x4049], [0x0001, 0x7F7F, 0x8000]], dtype="<u2")
    expected = [
        [1.0, -2.0, 3.140625],
        # 0x0001 -> float32 bits 0x00010000, a subnormal; 0x7F7F -> the largest bf16.
        [2.0**-133, (2 - 2.0**-7) * 2.0**127, -0.0],
    ]
    path = tmp_path / "b.safetensors"
    path.write_bytes(_safetensors_bytes({"wte.weight": ("BF16", [2, 3], bits.tobytes())}))
    result = load_weights(path)
    _assert_table(result, expected)
    assert np.signbit(result[1, 2])


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    values=st.lists(
        st.lists(st.floats(width=32, allow_nan=False), min_size=3, max_size=3),
        min_size=1,
        max_size=6,
    )
)
def test_safetensors_bf16_matches_float32_with_low_bits_cleared(
    tmp_path: Path, values: list[list[float]]
) -> None:
    f32 = np.array(values, dtype=np.float32)
    truncated = (f32.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)
    path = tmp_path / "b.safetensors"
    path.write_bytes(_safetensors_bytes({"w": ("BF16", list(f32.shape), _bf16_bytes(f32))}))
    result = load_weights(path)
    assert result.dtype == np.float32
    np.testing.assert_array_equal(result.view(np.uint32), truncated.view(np.uint32))


@pytest.mark.parametrize("dtype", ["<f8", "<i8", "<i4", "<i2", "i1", "u1"])
def test_safetensors_other_numeric_dtypes(tmp_path: Path, dtype: str) -> None:
    values = np.array([[1, 2], [3, 4], [5, 120]], dtype=dtype)
    path = _write_safetensors(tmp_path / "m.safetensors", {"emb": values})
    _assert_table(load_weights(path), [[1.0, 2.0], [3.0, 4.0], [5.0, 120.0]])


def test_safetensors_choose_tensor_by_name(tmp_path: Path) -> None:
    a = np.full((2, 3), 1.0, dtype=np.float32)
    b = np.full((4, 2), 2.0, dtype=np.float32)
    path = _write_safetensors(tmp_path / "m.safetensors", {"a": a, "b": b})
    _assert_table(load_weights(path, "b"), b.tolist())
    _assert_table(load_weights(path, "a"), a.tolist())


@pytest.mark.parametrize(
    "usual", ["wte.weight", "model.embed_tokens.weight", "transformer.wte.weight", "weight"]
)
def test_safetensors_default_prefers_usual_embedding_names(tmp_path: Path, usual: str) -> None:
    other = np.zeros((5, 3), dtype=np.float32)
    emb = np.arange(15, dtype=np.float32).reshape(5, 3)
    path = _write_safetensors(
        tmp_path / "m.safetensors",
        {"lm_head.weight": other, usual: emb, "h.0.attn.c_attn.weight": other},
        metadata={"format": "pt"},
    )
    _assert_table(load_weights(path), emb.tolist())


def test_safetensors_default_takes_the_only_2d_tensor(tmp_path: Path) -> None:
    emb = np.arange(8, dtype=np.float32).reshape(4, 2)
    path = _write_safetensors(
        tmp_path / "m.safetensors",
        {"bias": np.ones(3, dtype=np.float32), "table": emb, "cube": np.ones((2, 2, 2), "<f4")},
    )
    _assert_table(load_weights(path), emb.tolist())


def test_safetensors_ambiguous_lists_candidates_with_shapes(tmp_path: Path) -> None:
    path = _write_safetensors(
        tmp_path / "m.safetensors",
        {"enc": np.ones((2, 3), "<f4"), "dec": np.ones((4, 5), "<f4"), "b": np.ones(7, "<f4")},
    )
    message = _error(path)
    assert "--tensor" in message
    assert "enc [2, 3]" in message
    assert "dec [4, 5]" in message


def test_safetensors_no_tensors(tmp_path: Path) -> None:
    path = tmp_path / "m.safetensors"
    path.write_bytes(_safetensors_bytes({}, metadata={"format": "pt"}))
    message = _error(path)
    assert "no tensors" in message


def test_safetensors_unknown_tensor_name(tmp_path: Path) -> None:
    path = _write_safetensors(
        tmp_path / "m.safetensors", {"wte.weight": np.ones((2, 3), "<f4"), "b": np.ones(7, "<f4")}
    )
    message = _error(path, "wpe.weight")
    assert "'wpe.weight'" in message
    assert "wte.weight [2, 3]" in message
    assert "b [7]" in message


@pytest.mark.parametrize("shape", [[6], [2, 3, 1], []])
def test_safetensors_not_2d_refused(tmp_path: Path, shape: list[int]) -> None:
    count = int(np.prod(shape)) if shape else 1
    path = tmp_path / "m.safetensors"
    path.write_bytes(_safetensors_bytes({"v": ("F32", shape, np.ones(count, "<f4").tobytes())}))
    message = _error(path, "v")
    assert "2-D" in message
    assert "'v'" in message


def test_safetensors_empty_tensor_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.safetensors"
    path.write_bytes(_safetensors_bytes({"weight": ("F32", [0, 4], b"")}))
    message = _error(path)
    assert "empty" in message


@pytest.mark.parametrize("dtype", ["BOOL", "F8_E4M3", "C64", "nonsense"])
def test_safetensors_unsupported_dtype_refused(tmp_path: Path, dtype: str) -> None:
    path = tmp_path / "m.safetensors"
    path.write_bytes(_safetensors_bytes({"weight": (dtype, [2, 2], b"\0" * 4)}))
    message = _error(path)
    assert dtype in message


@pytest.mark.parametrize("keep", [0, 3, 7, 8, 20, -1, -8])
def test_safetensors_truncated_refused(tmp_path: Path, keep: int) -> None:
    whole = _safetensors_bytes({"weight": ("F32", [4, 2], np.ones(8, "<f4").tobytes())})
    path = tmp_path / "m.safetensors"
    path.write_bytes(whole[:keep])
    _error(path)


@pytest.mark.parametrize("claimed", [10**6, 2**63, 2**64 - 1])
def test_safetensors_bad_header_length(tmp_path: Path, claimed: int) -> None:
    path = tmp_path / "m.safetensors"
    path.write_bytes(struct.pack("<Q", claimed) + b'{"a": 1}')
    message = _error(path)
    assert "header" in message


@pytest.mark.parametrize(
    "raw",
    [b"", b"{not json}", b"\xff\xfe\x00", b'{"weight": ', b"[1, 2, 3]", b'"text"', b"null"],
)
def test_safetensors_header_not_a_json_object(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "m.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b"\0" * 16)
    message = _error(path)
    assert "header" in message


def test_safetensors_deeply_nested_header(tmp_path: Path) -> None:
    raw = b"[" * 100_000 + b"]" * 100_000
    path = tmp_path / "m.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw)) + raw)
    _error(path)


@pytest.mark.parametrize(
    "offsets",
    [[0, 64], [8, 40], [-4, 28], [16, 8], [0, 10**30]],
    ids=str,
)
def test_safetensors_offsets_out_of_range(tmp_path: Path, offsets: list[int]) -> None:
    path = _raw_header_file(
        tmp_path / "m.safetensors",
        {"weight": {"dtype": "F32", "shape": [2, 4], "data_offsets": offsets}},
        np.ones(8, "<f4").tobytes(),
    )
    _error(path)


@pytest.mark.parametrize(
    ("dtype", "shape", "offsets"),
    [
        ("F32", [2, 4], [0, 28]),
        ("F32", [2, 3], [0, 32]),
        ("F16", [2, 4], [0, 32]),
        ("BF16", [2, 4], [0, 32]),
        ("F64", [2, 4], [0, 32]),
    ],
)
def test_safetensors_byte_count_mismatch(
    tmp_path: Path, dtype: str, shape: list[int], offsets: list[int]
) -> None:
    path = _raw_header_file(
        tmp_path / "m.safetensors",
        {"weight": {"dtype": dtype, "shape": shape, "data_offsets": offsets}},
        b"\0" * 32,
    )
    message = _error(path)
    assert "bytes" in message


@pytest.mark.parametrize(
    "entry",
    [
        "F32",
        {"shape": [2, 2], "data_offsets": [0, 16]},
        {"dtype": "F32", "data_offsets": [0, 16]},
        {"dtype": "F32", "shape": [2, 2]},
        {"dtype": 32, "shape": [2, 2], "data_offsets": [0, 16]},
        {"dtype": "F32", "shape": "2x2", "data_offsets": [0, 16]},
        {"dtype": "F32", "shape": [2, -2], "data_offsets": [0, 16]},
        {"dtype": "F32", "shape": [2.0, 2], "data_offsets": [0, 16]},
        {"dtype": "F32", "shape": [True, 4], "data_offsets": [0, 16]},
        {"dtype": "F32", "shape": [2, 2], "data_offsets": [0]},
        {"dtype": "F32", "shape": [2, 2], "data_offsets": [0.0, 16.0]},
        {"dtype": "F32", "shape": [2, 2], "data_offsets": [False, 16]},
    ],
    ids=lambda e: json.dumps(e)[:50],
)
def test_safetensors_malformed_entry(tmp_path: Path, entry: object) -> None:
    path = _raw_header_file(tmp_path / "m.safetensors", {"weight": entry}, b"\0" * 16)
    message = _error(path)
    assert "'weight'" in message


@pytest.mark.parametrize("suffix", ["npy", "safetensors"])
def test_float64_values_beyond_float32_range_refused(tmp_path: Path, suffix: str) -> None:
    values = np.array([[1e300, 1.0], [2.0, 3.0]], dtype=np.float64)
    path = tmp_path / f"t.{suffix}"
    if suffix == "npy":
        np.save(path, values)
    else:
        _write_safetensors(path, {"weight": values})
    _error(path)


# --------------------------------------------------------------------------- fuzzing


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _load_or_refuse(path: Path, tensor: str | None = None) -> None:
    try:
        result = load_weights(path, tensor)
    except EmbedvizError as error:
        message = str(error)
    else:
        message = None
    if message is not None:
        assert message
        assert "\n" not in message
        return
    assert isinstance(result, np.ndarray)
    assert result.dtype == np.float32
    assert result.ndim == 2
    assert result.size > 0
    # What was accepted must be exactly what the file holds, read independently.
    np.testing.assert_array_equal(result, _read_independently(path, tensor), strict=True)


_FUZZ_DTYPES = {"F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4", "I16": "<i2"}
_FUZZ_DTYPES |= {"I8": "i1", "U8": "u1", "F64": "<f8"}


def _read_independently(path: Path, tensor: str | None) -> np.ndarray:
    """The float32 table a file holds, by numpy's own reader or the documented layout."""
    raw = path.read_bytes()
    if path.suffix == ".npy":
        return np.asarray(np.load(io.BytesIO(raw), allow_pickle=False)).astype(np.float32)
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8 : 8 + size])
    names = [name for name in header if name != "__metadata__"]
    if tensor is None:
        usual = [name for name in ("weight", "wte.weight") if name in names]
        two_d = [name for name in names if len(header[name]["shape"]) == 2]
        tensor = usual[0] if usual else two_d[0]
    info = header[tensor]
    begin, end = info["data_offsets"]
    data = raw[8 + size + begin : 8 + size + end]
    if info["dtype"] == "BF16":
        bits = np.frombuffer(data, dtype="<u2").astype(np.uint32) << 16
        return bits.view(np.float32).reshape(info["shape"])
    values = np.frombuffer(data, dtype=_FUZZ_DTYPES[info["dtype"]])
    return values.astype(np.float32).reshape(info["shape"])


@settings(max_examples=200, deadline=None)
@given(content=st.binary(max_size=300), suffix=st.sampled_from(["npy", "safetensors"]))
def test_fuzz_random_bytes(fuzz_dir: Path, content: bytes, suffix: str) -> None:
    path = fuzz_dir / f"random.{suffix}"
    path.write_bytes(content)
    _load_or_refuse(path)


# F8 is left out: random float64 bytes mostly overflow float32 and are refused.
_NPY_DESCRS = ["<f4", ">f4", "<f2", "<i2", "|u1", "<i8", "|b1", "<c8", "|O", "<U2", "|V4"]


@settings(max_examples=200, deadline=None)
@given(
    descr=st.sampled_from(_NPY_DESCRS),
    fortran=st.booleans(),
    shape=st.lists(st.integers(-2, 6), max_size=4).map(tuple),
    version=st.sampled_from([(1, 0), (2, 0), (3, 0)]),
    payload=st.binary(max_size=200),
)
# Files that load, so that the comparison with an independent reading is exercised.
@example(descr="<f4", fortran=False, shape=(2, 3), version=(1, 0), payload=bytes(range(24)))
@example(descr=">f4", fortran=True, shape=(3, 2), version=(2, 0), payload=bytes(range(24)))
@example(descr="<i2", fortran=False, shape=(2, 2), version=(3, 0), payload=bytes(range(8)))
def test_fuzz_npy_with_valid_magic(
    fuzz_dir: Path,
    descr: str,
    fortran: bool,
    shape: tuple[int, ...],
    version: tuple[int, int],
    payload: bytes,
) -> None:
    header = repr({"descr": descr, "fortran_order": fortran, "shape": shape}).encode("latin1")
    header += b" " * (-(len(header) + 13) % 64) + b"\n"
    length = struct.pack("<H", len(header)) if version == (1, 0) else struct.pack("<I", len(header))
    content = b"\x93NUMPY" + bytes(version) + length + header + payload
    path = fuzz_dir / "magic.npy"
    path.write_bytes(content)
    _load_or_refuse(path)


_ST_FUZZ_DTYPES = ["F32", "F16", "BF16", "I64", "I32", "I16", "I8", "U8", "BOOL", "F8_E5M2"]

_json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(), st.text(max_size=4)
)


@settings(max_examples=300, deadline=None)
@given(
    entries=st.dictionaries(
        st.sampled_from(["weight", "wte.weight", "other", "__metadata__", "x"]),
        st.one_of(
            st.fixed_dictionaries(
                {
                    "dtype": st.sampled_from(_ST_FUZZ_DTYPES),
                    "shape": st.lists(st.integers(0, 5), max_size=3),
                    "data_offsets": st.lists(st.integers(0, 64), min_size=2, max_size=2).map(
                        sorted
                    ),
                }
            ),
            st.dictionaries(
                st.sampled_from(["dtype", "shape", "data_offsets"]),
                st.one_of(_json_scalars, st.lists(_json_scalars, max_size=3)),
            ),
            _json_scalars,
        ),
        max_size=4,
    ),
    payload=st.binary(max_size=64),
    tensor=st.one_of(st.none(), st.sampled_from(["weight", "other", "missing"])),
    slack=st.integers(-4, 4),
)
@example(
    entries={"weight": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}},
    payload=bytes(range(16)),
    tensor=None,
    slack=0,
)
@example(
    entries={
        "other": {"dtype": "BF16", "shape": [2, 3], "data_offsets": [0, 12]},
        "x": {"dtype": "U8", "shape": [4], "data_offsets": [12, 16]},
    },
    payload=bytes(range(16)),
    tensor=None,
    slack=0,
)
def test_fuzz_safetensors_structured(
    fuzz_dir: Path, entries: dict[str, Any], payload: bytes, tensor: str | None, slack: int
) -> None:
    raw = json.dumps(entries, allow_nan=True).encode()
    # A header length that is sometimes a little off, as in a damaged file.
    claimed = max(0, len(raw) + slack)
    path = fuzz_dir / "structured.safetensors"
    path.write_bytes(struct.pack("<Q", claimed) + raw + payload)
    _load_or_refuse(path, tensor)
