"""EmbeddingTable: construction, read-only weights, lookup and the memory guard."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from embedviz.core import torch_init
from embedviz.core.errors import EmbedvizError
from embedviz.core.memory import check_table_fits
from embedviz.core.table import EmbeddingTable, TorchSeededTable

# torch.manual_seed(123); torch.nn.Embedding(6, 3).weight, as float32 bit
# patterns, recorded from torch 2.13.0 (AVX-512 build) so that this file can
# check the default table without importing torch.
TORCH_SEED_123_6x3_BITS = [
    [0x3EACBBC9, 0xBE360B3B, 0xBE2D02E0],
    [0x3F6AF29F, 0x3FCA5D36, 0x3FA6887A],
    [0x3FA33D12, 0xBE4DC6A6, 0xBE246AD5],
    [0xBECD8FD6, 0x3F77713C, 0xBF92F662],
    [0xBF9455C8, 0x3EA6A423, 0xBF21AA56],
    [0xC035C276, 0xBF48EC26, 0xBFB46CDF],
]


def _one_line_error(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(EmbedvizError) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert message
    assert "\n" not in message
    return message


def _write_f32_safetensors(path: Path, name: str, array: np.ndarray) -> None:
    data = np.ascontiguousarray(array, dtype="<f4").tobytes()
    header = json.dumps(
        {name: {"dtype": "F32", "shape": list(array.shape), "data_offsets": [0, len(data)]}}
    ).encode()
    path.write_bytes(len(header).to_bytes(8, "little") + header + data)


# ------------------------------------------------------------------------ construction


def test_from_seed_defaults_match_torch_recording(monkeypatch: pytest.MonkeyPatch) -> None:
    # The recording comes from torch's AVX2/AVX-512 kernel; make embedviz follow
    # that kernel whatever this CPU is.
    monkeypatch.setattr(torch_init, "cpu_kernel", lambda: "vectorized")
    table = EmbeddingTable.from_seed()
    expected = np.array(TORCH_SEED_123_6x3_BITS, dtype=np.uint32)
    assert table.weight.dtype == np.float32
    assert table.weight.shape == (6, 3)
    assert (table.vocab_size, table.dim) == (6, 3)
    assert np.array_equal(table.weight.view(np.uint32), expected)


@pytest.mark.parametrize(("vocab", "dim", "seed"), [(1, 1, 0), (6, 3, 123), (50, 7, 2**40 + 1)])
def test_from_seed_normal_init_is_numpy_default_rng(vocab: int, dim: int, seed: int) -> None:
    table = EmbeddingTable.from_seed(vocab, dim, seed, init="normal")
    expected = np.random.default_rng(seed).standard_normal((vocab, dim), dtype=np.float32)
    assert table.weight.dtype == np.float32
    np.testing.assert_array_equal(table.weight, expected)


@pytest.mark.parametrize("init", ["torch", "normal"])
def test_from_seed_is_deterministic_and_seed_dependent(init: Any) -> None:
    a = EmbeddingTable.from_seed(20, 5, 7, init)
    b = EmbeddingTable.from_seed(20, 5, 7, init)
    c = EmbeddingTable.from_seed(20, 5, 8, init)
    np.testing.assert_array_equal(a.weight, b.weight)
    assert not np.array_equal(a.weight, c.weight)
    assert a.weight.shape == (20, 5)


def test_from_seed_inits_differ() -> None:
    torch_like = EmbeddingTable.from_seed(10, 4, 1, "torch").weight
    numpy_like = EmbeddingTable.from_seed(10, 4, 1, "normal").weight
    assert not np.array_equal(torch_like, numpy_like)


@pytest.mark.parametrize("init", ["cauchy", "", "Torch", None, 1])
def test_from_seed_unknown_init(init: Any) -> None:
    message = _one_line_error(EmbeddingTable.from_seed, 6, 3, 1, init)
    assert repr(init) in message


@pytest.mark.parametrize(
    "seed", [-(2**63) - 1, -(2**70), True, False, 1.0, 1.5, 2**64, 2**70, "1", None]
)
def test_from_seed_bad_seed(seed: Any) -> None:
    message = _one_line_error(EmbeddingTable.from_seed, 6, 3, seed)
    assert "seed" in message
    assert repr(seed) in message


def test_from_seed_largest_seed_is_accepted() -> None:
    table = EmbeddingTable.from_seed(2, 2, 2**64 - 1)
    assert table.weight.shape == (2, 2)


@pytest.mark.parametrize(
    ("vocab", "dim", "word"),
    [
        (0, 3, "vocabulary"),
        (-1, 3, "vocabulary"),
        (True, 3, "vocabulary"),
        (6.0, 3, "vocabulary"),
        ("6", 3, "vocabulary"),
        (6, 0, "dimension"),
        (6, -4, "dimension"),
        (6, False, "dimension"),
        (6, 2.5, "dimension"),
        (6, None, "dimension"),
    ],
)
def test_from_seed_bad_sizes(vocab: Any, dim: Any, word: str) -> None:
    message = _one_line_error(EmbeddingTable.from_seed, vocab, dim)
    assert word in message


@pytest.mark.parametrize(
    "array",
    [
        [[1.0, 2.0], [3.0, 4.0]],
        np.array([[1.5, -2.25, 0.0]], dtype=np.float64),
        np.array([[1, 2], [3, 4], [5, 6]], dtype=np.int32),
        np.array([[7]], dtype=np.uint8),
        np.array([[0.5, 1.0]], dtype=np.float16),
        np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4)),
    ],
)
def test_from_array_converts_to_float32(array: Any) -> None:
    expected = [[float(x) for x in row] for row in np.asarray(array).tolist()]
    table = EmbeddingTable.from_array(array, source="demo")
    assert table.weight.dtype == np.float32
    assert table.weight.tolist() == expected
    assert table.source == "demo"
    assert (table.vocab_size, table.dim) == (len(expected), len(expected[0]))


@pytest.mark.parametrize(
    "array",
    [
        np.zeros(3, dtype=np.float32),
        np.zeros((2, 2, 2), dtype=np.float32),
        np.float32(1.0),
        np.zeros((0, 3), dtype=np.float32),
        np.zeros((3, 0), dtype=np.float32),
        np.zeros((2, 2), dtype=np.complex64),
        np.zeros((2, 2), dtype=bool),
        [["a", "b"]],
    ],
    ids=lambda a: f"{np.asarray(a).dtype}{np.shape(a)}",
)
def test_from_array_rejects_non_tables(array: Any) -> None:
    _one_line_error(EmbeddingTable.from_array, array)


def test_from_file_npy(tmp_path: Path) -> None:
    values = np.arange(12, dtype=np.float64).reshape(4, 3) / 8
    np.save(tmp_path / "table.npy", values)
    table = EmbeddingTable.from_file(tmp_path / "table.npy")
    assert table.weight.dtype == np.float32
    assert table.weight.tolist() == values.tolist()
    assert "table.npy" in table.source


def test_from_file_safetensors(tmp_path: Path) -> None:
    values = np.arange(10, dtype=np.float32).reshape(5, 2) - 4.5
    _write_f32_safetensors(tmp_path / "m.safetensors", "wte.weight", values)
    table = EmbeddingTable.from_file(str(tmp_path / "m.safetensors"))
    assert table.weight.dtype == np.float32
    assert table.weight.tolist() == values.tolist()
    chosen = EmbeddingTable.from_file(tmp_path / "m.safetensors", tensor="wte.weight")
    np.testing.assert_array_equal(chosen.weight, values)


def test_from_file_missing(tmp_path: Path) -> None:
    message = _one_line_error(EmbeddingTable.from_file, tmp_path / "nope.npy")
    assert "nope.npy" in message


# -------------------------------------------------------------------------- read-only


def _tables(tmp_path: Path) -> dict[str, EmbeddingTable]:
    np.save(tmp_path / "f32.npy", np.ones((3, 2), dtype=np.float32))
    np.save(tmp_path / "f64.npy", np.ones((3, 2), dtype=np.float64))
    _write_f32_safetensors(tmp_path / "t.safetensors", "weight", np.ones((3, 2)))
    return {
        "seed-torch": EmbeddingTable.from_seed(6, 3, 1),
        "seed-normal": EmbeddingTable.from_seed(6, 3, 1, "normal"),
        "array-writable": EmbeddingTable.from_array(np.ones((3, 2), dtype=np.float32)),
        "array-list": EmbeddingTable.from_array([[1.0, 2.0]]),
        "npy-f32": EmbeddingTable.from_file(tmp_path / "f32.npy"),
        "npy-f64": EmbeddingTable.from_file(tmp_path / "f64.npy"),
        "safetensors": EmbeddingTable.from_file(tmp_path / "t.safetensors"),
    }


def test_weight_is_read_only(tmp_path: Path) -> None:
    for name, table in _tables(tmp_path).items():
        assert table.weight.dtype == np.float32, name
        assert not table.weight.flags.writeable, name
        before = table.weight.copy()
        with pytest.raises(ValueError, match="read-only"):
            table.weight[0, 0] = 42.0
        with pytest.raises(ValueError, match="read-only"):
            table.weight[...] = 0.0
        np.testing.assert_array_equal(table.weight, before)


def test_table_attributes_are_frozen() -> None:
    table = EmbeddingTable.from_seed(2, 2)
    with pytest.raises(AttributeError):
        table.weight = np.zeros((2, 2), dtype=np.float32)  # type: ignore[misc]


def test_from_array_does_not_alias_a_writable_input() -> None:
    source = np.zeros((2, 2), dtype=np.float32)
    table = EmbeddingTable.from_array(source)
    source[0, 0] = 5.0
    assert table.weight[0, 0] == 0.0


def test_lookup_result_is_a_copy() -> None:
    table = EmbeddingTable.from_seed(6, 3)
    out = table.lookup([1, 1])
    assert not np.shares_memory(out, table.weight)
    out[0, 0] = 1e6
    assert table.weight[1, 0] != 1e6


# ----------------------------------------------------------------------------- lookup


def test_lookup_single_int() -> None:
    values = np.arange(18, dtype=np.float32).reshape(6, 3)
    table = EmbeddingTable.from_array(values.copy())
    out = table.lookup(4)
    assert out.shape == (3,)
    assert out.dtype == np.float32
    assert out.tolist() == [12.0, 13.0, 14.0]


def test_lookup_sequence_and_batch_by_hand() -> None:
    values = np.arange(18, dtype=np.float32).reshape(6, 3)
    table = EmbeddingTable.from_array(values.copy())
    assert table.lookup([2, 3, 5, 1]).tolist() == [
        [6.0, 7.0, 8.0],
        [9.0, 10.0, 11.0],
        [15.0, 16.0, 17.0],
        [3.0, 4.0, 5.0],
    ]
    batch = table.lookup([[2, 3], [5, 1]])
    assert batch.shape == (2, 2, 3)
    assert batch[1, 0].tolist() == [15.0, 16.0, 17.0]
    # Repeated IDs give repeated rows, order kept.
    assert table.lookup([0, 0, 5]).tolist() == [[0, 1, 2], [0, 1, 2], [15, 16, 17]]


@pytest.mark.parametrize(
    "ids", [[6], [-1], [True], [1.0], [], [[1, 2], [3]], 6, -1, np.array([0.0])]
)
def test_lookup_rejects_invalid_ids(ids: Any) -> None:
    table = EmbeddingTable.from_seed(6, 3)
    _one_line_error(table.lookup, ids)


@settings(max_examples=120, deadline=None)
@given(
    data=st.data(),
    vocab=st.integers(1, 40),
    dim=st.integers(1, 9),
    id_shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=5),
    as_list=st.booleans(),
)
def test_lookup_matches_numpy_fancy_indexing(
    data: st.DataObject, vocab: int, dim: int, id_shape: tuple[int, ...], as_list: bool
) -> None:
    weight = data.draw(
        hnp.arrays(
            np.float32, (vocab, dim), elements=st.floats(-1e6, 1e6, width=32, allow_nan=False)
        ),
        label="weight",
    )
    ids = data.draw(hnp.arrays(np.int64, id_shape, elements=st.integers(0, vocab - 1)), label="ids")
    oracle = weight.copy()[np.asarray(ids)]

    table = EmbeddingTable.from_array(weight)
    out = table.lookup(ids.tolist() if as_list else ids)
    assert out.dtype == np.float32
    assert out.shape == (*id_shape, dim)
    np.testing.assert_array_equal(out, oracle)


@settings(max_examples=40, deadline=None)
@given(
    vocab=st.integers(1, 30),
    dim=st.integers(1, 6),
    seed=st.integers(0, 2**64 - 1),
    init=st.sampled_from(["torch", "normal"]),
    data=st.data(),
)
def test_lookup_on_seeded_tables_selects_rows(
    vocab: int, dim: int, seed: int, init: Any, data: st.DataObject
) -> None:
    table = EmbeddingTable.from_seed(vocab, dim, seed, init)
    ids = data.draw(st.lists(st.integers(0, vocab - 1), min_size=1, max_size=8))
    out = table.lookup(ids)
    assert out.shape == (len(ids), dim)
    for row, token in zip(out, ids, strict=True):
        np.testing.assert_array_equal(row, np.array(table.weight)[token])


# ----------------------------------------------------------------------- memory guard


@pytest.mark.parametrize(
    ("vocab", "dim"), [(10**12, 10**6), (10**9, 10**4), (2**62, 2**62), (10**15, 1)]
)
def test_huge_table_is_refused_before_anything_is_generated(
    vocab: int, dim: int, computed_rows: Any
) -> None:
    tracemalloc.start()
    try:
        with pytest.raises(EmbedvizError) as info:
            EmbeddingTable.from_seed(vocab, dim, 0)
        with pytest.raises(EmbedvizError):
            TorchSeededTable.create(vocab, dim, 0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert "\n" not in message
    assert "memory" in message
    assert f"{vocab:,}" in message
    # Refused from the sizes alone: no value was generated, whole or by rows.
    assert computed_rows.full_tables == []
    assert computed_rows.row_calls == []
    assert peak < 16 * 2**20  # numpy reports its buffers to tracemalloc


def test_the_row_counter_sees_generation(computed_rows: Any) -> None:
    # The counter the test above relies on does record work when there is some.
    EmbeddingTable.from_seed(4, 3, 0)
    TorchSeededTable.create(50257, 768, 0).rows([7, 9])
    assert computed_rows.full_tables == [(4, 3)]
    assert computed_rows.row_calls == [((50257, 768), (7, 9))]


def test_check_table_fits_accepts_small_tables() -> None:
    assert check_table_fits(6, 3) is None
    assert check_table_fits(1, 1, copies=3.0) is None


def test_check_table_fits_counts_bytes_and_copies() -> None:
    # 2**40 values x 4 bytes = 4 TiB: refused, and more so with copies.
    message = _one_line_error(check_table_fits, 2**20, 2**20)
    assert "4.0 TiB" in message
    message = _one_line_error(check_table_fits, 2**20, 2**20, copies=3.0)
    assert "12.0 TiB" in message
    message = _one_line_error(check_table_fits, 2**20, 2**20, bytes_per_value=8)
    assert "8.0 TiB" in message


@pytest.mark.parametrize(
    ("vocab", "dim", "word"),
    [
        (0, 3, "vocabulary"),
        (-5, 3, "vocabulary"),
        (True, 3, "vocabulary"),
        (False, 3, "vocabulary"),
        (6.0, 3, "vocabulary"),
        ("6", 3, "vocabulary"),
        (None, 3, "vocabulary"),
        (6, 0, "dimension"),
        (6, -1, "dimension"),
        (6, True, "dimension"),
        (6, 3.5, "dimension"),
        (6, [3], "dimension"),
    ],
)
def test_check_table_fits_rejects_bad_sizes(vocab: Any, dim: Any, word: str) -> None:
    message = _one_line_error(check_table_fits, vocab, dim)
    assert word in message


# -- TorchSeededTable: computes only the rows it is asked for ---------------------


@settings(max_examples=60, deadline=None)
@given(
    vocab=st.integers(min_value=1, max_value=200),
    dim=st.integers(min_value=1, max_value=24),
    seed=st.integers(min_value=0, max_value=2**32 + 5),
    data=st.data(),
)
def test_seeded_table_lookup_equals_the_full_table(
    vocab: int, dim: int, seed: int, data: st.DataObject
) -> None:

    ids = data.draw(st.lists(st.integers(min_value=0, max_value=vocab - 1), min_size=1, max_size=8))
    lazy = TorchSeededTable.create(vocab, dim, seed)
    full = EmbeddingTable.from_seed(vocab, dim, seed, "torch")
    assert np.array_equal(lazy.lookup(ids), full.lookup(ids))
    assert np.array_equal(lazy.materialise().weight, full.weight)
    assert (lazy.vocab_size, lazy.dim, lazy.source) == (vocab, dim, full.source)


@pytest.mark.parametrize(
    ("vocab", "dim", "seed"),
    [(0, 3, 1), (6, -1, 1), (6, 3, -(2**63) - 1), (6, 3, True), (10**12, 10**6, 1)],
)
def test_seeded_table_refuses_bad_arguments(vocab: Any, dim: Any, seed: Any) -> None:

    with pytest.raises(EmbedvizError):
        TorchSeededTable.create(vocab, dim, seed)


def test_seeded_table_validates_ids() -> None:

    with pytest.raises(EmbedvizError, match="out of range"):
        TorchSeededTable.create(6, 3, 123).lookup([2, 6])


def test_large_lookup_split_across_threads_equals_numpy_indexing() -> None:
    # 3000 x 512 float32 rows is 6 MiB: above the threshold where the copy is
    # shared out between threads.
    rng = np.random.default_rng(5)
    weight = rng.standard_normal((4000, 512)).astype(np.float32)
    ids = rng.integers(0, 4000, size=(3, 1000))
    table = EmbeddingTable.from_array(weight)
    result = table.lookup(ids)
    assert result.shape == (3, 1000, 512)
    assert np.array_equal(result, weight[ids])
