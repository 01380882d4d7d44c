"""Token IDs: parsing the command-line form and validating anything a lookup gets."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from embedviz.core.errors import EmbedvizError
from embedviz.core.ids import parse_ids, validate_ids

INT_DTYPES = [
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
]


def _error(call: Any, *args: Any) -> str:
    """Run ``call`` expecting an EmbedvizError; return its one-line message."""
    with pytest.raises(EmbedvizError) as info:
        call(*args)
    message = str(info.value)
    assert message.strip(), "the error message is empty"
    assert "\n" not in message, f"not one line: {message!r}"
    assert "\r" not in message, f"not one line: {message!r}"
    return message


def _position(index: tuple[int, ...]) -> str:
    """Independent spelling of a location: ``position 2`` / ``position [1, 0]``."""
    if len(index) == 1:
        return f"position {index[0]}"
    return "position [" + ", ".join(map(str, index)) + "]"


def _names_position(message: str, index: tuple[int, ...]) -> bool:
    # A word boundary so that "position 1" does not match "position 12".
    return re.search(re.escape(_position(index)) + r"(?![\d,])", message) is not None


# --------------------------------------------------------------------------- parse_ids


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2,3,5,1", [2, 3, 5, 1]),
        ("7", [7]),
        ("0", [0]),
        (" 2 , 3 ,5 ", [2, 3, 5]),
        ("\t4,\n5 ", [4, 5]),
        ("007,10", [7, 10]),
        ("-1,2", [-1, 2]),  # range checks happen in validate_ids, not here
        ("123456789012", [123456789012]),
        ("2,3;5,1", [[2, 3], [5, 1]]),
        (" 1 ; 2 ", [[1], [2]]),
        ("0, 1 ;\t2 ,3; 4,5", [[0, 1], [2, 3], [4, 5]]),
        ("2,3;5", [[2, 3], [5]]),  # raggedness is validate_ids' job
        # A ';' at the end makes a batch: one row, as PyTorch's [[2, 3]] (issue 22 §11).
        ("2,3;", [[2, 3]]),
        (" 7 ; ", [[7]]),
        ("2,3;5,1;", [[2, 3], [5, 1]]),
    ],
)
def test_parse_ids_accepts(text: str, expected: list[Any]) -> None:
    result = parse_ids(text)
    assert result == expected
    # Plain Python ints, not numpy scalars or strings.
    flat = [x for row in result for x in row] if isinstance(result[0], list) else result
    assert all(type(x) is int for x in flat)


@pytest.mark.parametrize("text", ["", " ", "\t\n"])
def test_parse_ids_rejects_empty_text(text: str) -> None:
    message = _error(parse_ids, text)
    assert "no token IDs" in message


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("2,,3", "item 1"),
        ("2,3,", "item 2"),
        (",2", "item 0"),
        ("2, ,3", "item 1"),
        ("2,3;5,", "item 1 of batch row 1"),
    ],
)
def test_parse_ids_rejects_empty_item(text: str, where: str) -> None:
    message = _error(parse_ids, text)
    assert "empty" in message
    assert where in message


@pytest.mark.parametrize(
    ("text", "row"),
    [(";2,3", 0), ("2,3;;5,1", 1), ("2;  ;3", 1), (";", 0), ("2,3;;", 1), (";;", 0)],
)
def test_parse_ids_rejects_empty_row(text: str, row: int) -> None:
    message = _error(parse_ids, text)
    assert f"row {row}" in message
    assert "empty" in message


@pytest.mark.parametrize(
    ("text", "token", "where"),
    [
        ("2.5", "2.5", "item 0"),
        ("x", "x", "item 0"),
        ("0x3", "0x3", "item 0"),
        ("1,abc", "abc", "item 1"),
        ("1e3", "1e3", "item 0"),
        ("2 3", "2 3", "item 0"),
        ("3a,1", "3a", "item 0"),
        ("1,2;3,4.0", "4.0", "item 1 of batch row 1"),
        ("None", "None", "item 0"),
        ("0b1", "0b1", "item 0"),
    ],
)
def test_parse_ids_rejects_non_integers(text: str, token: str, where: str) -> None:
    message = _error(parse_ids, text)
    assert repr(token) in message
    assert where in message


@pytest.mark.parametrize("text", ["1_000", "\u0663", "\uff13"])
def test_parse_ids_accepts_only_plain_ascii_digits(text: str) -> None:
    _error(parse_ids, text)


_ws = st.sampled_from(["", " ", "  ", "\t"])


@settings(max_examples=100, deadline=None)
@given(
    rows=st.lists(
        st.lists(st.integers(-(10**12), 10**12), min_size=1, max_size=6),
        min_size=1,
        max_size=4,
    ),
    data=st.data(),
)
def test_parse_ids_round_trips_formatted_text(rows: list[list[int]], data: st.DataObject) -> None:
    def item(n: int) -> str:
        return data.draw(_ws) + str(n) + data.draw(_ws)

    text = ";".join(",".join(item(n) for n in row) for row in rows)
    expected: list[Any] = rows[0] if len(rows) == 1 else rows
    assert parse_ids(text) == expected


# ------------------------------------------------------------------------ validate_ids


def test_validate_single_int_gives_0d_int64() -> None:
    result = validate_ids(3, 6)
    assert result.dtype == np.int64
    assert result.shape == ()
    assert int(result) == 3


@pytest.mark.parametrize(
    ("ids", "shape"),
    [
        ([2, 3, 5, 1], (4,)),
        ((2, 3, 5, 1), (4,)),
        ([0], (1,)),
        ([[2, 3], [5, 1]], (2, 2)),
        ([[0, 1, 2]], (1, 3)),
        ([[[0], [1]], [[2], [3]], [[4], [5]]], (3, 2, 1)),
        ([np.int8(1), np.uint64(5), np.int64(0)], (3,)),
        ([np.array([1, 2]), np.array([3, 4])], (2, 2)),
        (range(6), (6,)),
    ],
)
def test_validate_accepts_python_sequences(ids: Any, shape: tuple[int, ...]) -> None:
    result = validate_ids(ids, 6)
    assert result.dtype == np.int64
    assert result.shape == shape
    expected = np.array(
        [int(x) for x in np.asarray(ids, dtype=object).ravel()], dtype=np.int64
    ).reshape(shape)
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(), (1,), (4,), (2, 3), (2, 1, 3)], ids=str)
def test_validate_accepts_every_integer_dtype(dtype: Any, shape: tuple[int, ...]) -> None:
    vocab = 100
    values = (np.arange(int(np.prod(shape))) * 7 % vocab).reshape(shape)
    ids = values.astype(dtype)
    result = validate_ids(ids, vocab)
    assert result.dtype == np.int64
    assert result.shape == shape
    assert result.tolist() == values.tolist()


def test_validate_boundaries() -> None:
    assert validate_ids([0, 5], 6).tolist() == [0, 5]
    assert validate_ids(0, 1).tolist() == 0
    _error(validate_ids, [0], 0)


@pytest.mark.parametrize(
    ("ids", "value", "index"),
    [
        ([0, 6], 6, (1,)),
        ([2, 3, 17, 1], 17, (2,)),
        ([[0, 1], [6, 2]], 6, (1, 0)),
        ([[0, 1], [2, 99]], 99, (1, 1)),
        (np.array([[1, 2], [3, 10**9]]), 10**9, (1, 1)),
        (np.array([7], dtype=np.uint8), 7, (0,)),
        ([2**63 - 1], 2**63 - 1, (0,)),
    ],
)
def test_validate_rejects_ids_out_of_range(ids: Any, value: int, index: tuple[int, ...]) -> None:
    message = _error(validate_ids, ids, 6)
    assert f"token ID {value} " in message
    assert _names_position(message, index)
    assert "6" in message  # the vocabulary size


@pytest.mark.parametrize(
    ("ids", "value", "index"),
    [
        ([1, -1], -1, (1,)),
        ([[0, 1], [-3, 2]], -3, (1, 0)),
        (np.array([0, 0, -2], dtype=np.int8), -2, (2,)),
        ([-(2**63)], -(2**63), (0,)),
    ],
)
def test_validate_rejects_negative_ids(ids: Any, value: int, index: tuple[int, ...]) -> None:
    message = _error(validate_ids, ids, 6)
    assert f"token ID {value} " in message
    assert _names_position(message, index)
    assert "negative" in message


@pytest.mark.parametrize("value", [7, -1, 2**40])
def test_validate_rejects_bad_scalar_int(value: int) -> None:
    message = _error(validate_ids, value, 6)
    assert f"token ID {value} " in message


@pytest.mark.parametrize(
    ("bad", "shown"),
    [
        (2.5, "2.5"),
        (3.0, "3.0"),
        (np.float32(3.0), "3.0"),
        (np.float64(1.0), "1.0"),
        (float("nan"), "nan"),
        (True, "True"),
        (False, "False"),
        (np.bool_(True), "True"),
        ("2", "'2'"),
        ("", "''"),
        (None, "None"),
        (b"1", "b'1'"),
        (2**70, str(2**70)),
        (-(2**70), str(-(2**70))),
        (2**64, str(2**64)),
        (1 + 0j, "1+0j"),
        ({1}, "{1}"),
    ],
    ids=repr,
)
def test_validate_rejects_bad_element_and_names_it(bad: Any, shown: str) -> None:
    message = _error(validate_ids, [0, 1, bad, 2], 6)
    assert shown in message
    assert _names_position(message, (2,))

    nested = [[0, 1], [bad, 2]]
    message = _error(validate_ids, nested, 6)
    assert shown in message
    assert _names_position(message, (1, 0))


@pytest.mark.parametrize(
    ("bad", "shown"),
    [
        (2.5, "2.5"),
        (3.0, "3.0"),
        (np.float32(3.0), "3.0"),
        (True, "True"),
        (np.bool_(False), "False"),
        ("3", "'3'"),
        (None, "None"),
        (2**70, str(2**70)),
    ],
    ids=repr,
)
def test_validate_rejects_bad_scalar(bad: Any, shown: str) -> None:
    message = _error(validate_ids, bad, 6)
    assert shown in message


@pytest.mark.parametrize("bad", [2.5, True, "3", None, 2**70], ids=repr)
def test_validate_scalar_message_has_no_empty_position(bad: Any) -> None:
    message = _error(validate_ids, bad, 6)
    assert "position []" not in message


@pytest.mark.parametrize(
    ("ids", "word"),
    [
        (np.array([True, False]), "bool"),
        (np.array([[True]]), "bool"),
        (np.array(True), "bool"),
        (np.array([1.0, 2.0]), "float"),
        (np.array([3.0], dtype=np.float32), "float"),
        (np.array([1.0], dtype=np.float16), "float"),
        (np.array([1 + 0j]), "complex"),
        (np.array(["1", "2"]), "<U1"),
        (np.array([b"1"]), "S1"),
        (np.array([2**64 - 1], dtype=np.uint64), str(2**64 - 1)),
    ],
    ids=lambda v: getattr(v, "dtype", v).__str__(),
)
def test_validate_rejects_non_integer_arrays(ids: Any, word: str) -> None:
    message = _error(validate_ids, ids, 6)
    assert word in message


def test_validate_rejects_object_array_element_with_position() -> None:
    ids = np.array([[1, 2], [3, 4.5]], dtype=object)
    message = _error(validate_ids, ids, 6)
    assert "4.5" in message
    assert _names_position(message, (1, 1))


@pytest.mark.parametrize(
    "ids",
    [
        [],
        (),
        [[]],
        [[], []],
        [[[]]],
        np.array([], dtype=np.int64),
        np.zeros((2, 0), dtype=np.int32),
        np.zeros((0, 3), dtype=np.uint8),
    ],
    ids=repr,
)
def test_validate_rejects_empty_input(ids: Any) -> None:
    message = _error(validate_ids, ids, 6)
    assert "no token IDs" in message


@pytest.mark.parametrize(
    ("ids", "index"),
    [
        ([[1, 2], [3]], (1,)),
        ([[1], [2, 3]], (1,)),
        ([[1, 2], [3, 4], [5]], (2,)),
        ([1, [2]], (1,)),
        ([[1], 2], (1,)),
        ([[[1, 2]], [[3]]], (1, 0)),
        ([[1, 2], [3, [4]]], (1, 1)),
    ],
    ids=repr,
)
def test_validate_rejects_ragged_or_mixed_nesting(ids: Any, index: tuple[int, ...]) -> None:
    message = _error(validate_ids, ids, 6)
    assert "ragged" in message
    assert _names_position(message, index)


def test_validate_does_not_wrap_negative_like_numpy() -> None:
    # numpy would take row V-1 for -1; a lookup must refuse instead.
    table = np.arange(6)
    assert table[np.array([-1])].tolist() == [5]
    _error(validate_ids, np.array([-1]), 6)


# --------------------------------------------------------------------- property tests

_int_dtypes = st.sampled_from(INT_DTYPES)


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    vocab=st.integers(1, 250),
    dtype=_int_dtypes,
    shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=5),
)
def test_valid_arrays_round_trip(
    data: st.DataObject, vocab: int, dtype: Any, shape: tuple[int, ...]
) -> None:
    top = min(vocab - 1, int(np.iinfo(dtype).max))
    ids = data.draw(hnp.arrays(dtype, shape, elements=st.integers(0, top)))
    expected = [int(x) for x in ids.ravel()]

    result = validate_ids(ids, vocab)
    assert result.dtype == np.int64
    assert result.shape == shape
    assert [int(x) for x in result.ravel()] == expected

    # The same IDs as (nested) Python lists give the same array.
    from_lists = validate_ids(ids.tolist(), vocab)
    assert from_lists.dtype == np.int64
    assert from_lists.shape == shape
    assert [int(x) for x in from_lists.ravel()] == expected


def _bad_values(vocab: int) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.integers(vocab, 2**63 - 1),
        st.integers(-(2**63), -1),
        st.integers(2**63, 2**90),
        st.integers(-(2**90), -(2**63) - 1),
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(0, vocab - 1).map(float),
        st.booleans(),
        st.text(max_size=5),
        st.none(),
    )


def _set(nested: Any, index: tuple[int, ...], value: Any) -> None:
    for i in index[:-1]:
        nested = nested[i]
    nested[index[-1]] = value


@settings(max_examples=200, deadline=None)
@given(
    data=st.data(),
    vocab=st.integers(1, 50),
    shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
)
def test_one_bad_element_is_named_with_its_position(
    data: st.DataObject, vocab: int, shape: tuple[int, ...]
) -> None:
    ids = data.draw(hnp.arrays(np.int64, shape, elements=st.integers(0, vocab - 1))).tolist()
    index = tuple(
        data.draw(st.integers(0, side - 1), label=f"axis {a}") for a, side in enumerate(shape)
    )
    bad = data.draw(_bad_values(vocab), label="bad")
    _set(ids, index, bad)

    message = _error(validate_ids, ids, vocab)
    assert _names_position(message, index), message
    if isinstance(bad, int) and not isinstance(bad, bool):
        assert f"token ID {bad} " in message, message
    else:
        assert repr(bad) in message, message
