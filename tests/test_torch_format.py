"""format_torch_tensor must print exactly what PyTorch prints."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from embedviz.core.errors import EmbedvizError
from embedviz.core.torch_format import format_torch_tensor

torch = pytest.importorskip("torch")

Array = npt.NDArray[np.float32]

_SETTINGS = settings(max_examples=200, deadline=None)


def _f32(x: float) -> float:
    """Round a Python float to the nearest float32 (tiny values flush to 0)."""
    return float(np.float32(x))


# --- element strategies (all values exactly representable in float32) -------

_normal = st.floats(min_value=-10.0, max_value=10.0, width=32)
# Mantissa times a power of ten: reaches both sci-mode triggers (>1e8, <1e-4)
# and the max/min > 1000 ratio rule.
_scaled = st.builds(
    lambda m, e: _f32(m * 10.0**e),
    st.floats(min_value=-9.9, max_value=9.9),
    st.integers(min_value=-40, max_value=37),
)
_any_finite = st.floats(width=32, allow_nan=False, allow_infinity=False)
_whole_small = st.integers(min_value=-2000, max_value=2000).map(float)
# Whole numbers big enough to need sci mode while staying in int mode.
_whole_big = st.integers(min_value=-(10**12), max_value=10**12).map(_f32)
_special = st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -0.0])

_ELEMENTS = {
    "normal": _normal,
    "scaled": _scaled,
    "any_finite": _any_finite,
    "whole": st.one_of(_whole_small, _whole_big),
    "whole_small": _whole_small,
    "normal_special": st.one_of(_normal, _special),
    "whole_special": st.one_of(_whole_small, _special),
    "scaled_special": st.one_of(_scaled, _special),
    "zeros": st.sampled_from([0.0, -0.0]),
    "only_special": _special,
}


@st.composite
def small_arrays(draw: st.DrawFn, min_dims: int = 0, max_dims: int = 3) -> Array:
    """Float32 arrays of 0 to ``max_dims`` dimensions, sized to exercise wrapping."""
    kind = draw(st.sampled_from(sorted(_ELEMENTS)))
    shape = draw(
        st.one_of(
            hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=0, max_side=6),
            # Wrapping: long vectors and wide matrices (and their 3-D stacks).
            st.tuples(st.integers(1, 40)),
            st.tuples(st.integers(1, 4), st.integers(8, 24)),
            st.tuples(st.integers(1, 2), st.integers(1, 3), st.integers(8, 20)),
        )
    )
    if len(shape) > max_dims:
        shape = shape[-max_dims:]
    return draw(hnp.arrays(np.float32, shape, elements=_ELEMENTS[kind]))


def _rng_array(shape: tuple[int, ...], kind: str, seed: int) -> Array:
    """Build a (possibly large) array quickly from a seeded generator."""
    rng = np.random.default_rng(seed)
    n = math.prod(shape)
    if kind == "normal":
        flat = rng.standard_normal(n)
    elif kind == "scaled":
        flat = rng.standard_normal(n) * 10.0 ** rng.integers(-12, 12, size=n)
    elif kind == "whole":
        flat = rng.integers(-500, 500, size=n).astype(np.float64)
    else:
        flat = rng.standard_normal(n)
        specials = np.array([math.nan, math.inf, -math.inf, 0.0, -0.0])
        hit = rng.random(n) < 0.2
        flat[hit] = rng.choice(specials, size=int(hit.sum()))
    return flat.astype(np.float32).reshape(shape)


def _torch_repr(a: Array) -> str:
    # copy() so torch never sees a read-only buffer (that warns).
    return repr(torch.from_numpy(np.array(a, dtype=np.float32, copy=True)))


def _embedding_output(a: Array) -> object:
    """A tensor equal to ``a`` (ndim >= 1) produced by an embedding lookup."""
    dim = a.shape[-1]
    rows = math.prod(a.shape[:-1])
    weight = np.zeros((max(rows, 1), dim), dtype=np.float32)
    weight[:rows] = a.reshape(rows, dim)
    param = torch.nn.Parameter(torch.from_numpy(weight))
    ids = torch.arange(rows).reshape(a.shape[:-1])
    return torch.nn.functional.embedding(ids, param)


# --- the classic example -------------------------------------------------------


def test_classic_embedding_example() -> None:
    torch.manual_seed(123)
    emb = torch.nn.Embedding(6, 3)
    out = emb(torch.tensor([2, 3, 5, 1]))
    expected = (
        "tensor([[ 1.2753, -0.2010, -0.1606],\n"
        "        [-0.4015,  0.9666, -1.1481],\n"
        "        [-2.8400, -0.7849, -1.4096],\n"
        "        [ 0.9178,  1.5810,  1.3010]], grad_fn=<EmbeddingBackward0>)"
    )
    assert repr(out) == expected
    got = format_torch_tensor(out.detach().numpy(), grad_fn="EmbeddingBackward0")
    assert got == repr(out)


# --- property tests against real torch -------------------------------------------


@_SETTINGS
@given(small_arrays())
def test_matches_torch_repr(a: Array) -> None:
    assert format_torch_tensor(a) == _torch_repr(a)


@_SETTINGS
@given(small_arrays(min_dims=1))
def test_matches_torch_repr_with_grad_fn(a: Array) -> None:
    out = _embedding_output(a)
    assert format_torch_tensor(a, grad_fn="EmbeddingBackward0") == repr(out)


_BIG_SHAPES = [
    (4, 768),
    (1001,),
    (2000,),
    (7, 150),
    (3, 400),
    (1001, 1),
    (1, 1001),
    (2, 3, 200),
    (10, 10, 11),
    (8, 8, 16),
    (3, 4, 5, 20),
    (7, 7, 7, 7),
]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(_BIG_SHAPES),
    st.sampled_from(["normal", "scaled", "whole", "special"]),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.booleans(),
)
def test_summarized_arrays_match_torch(
    shape: tuple[int, ...], kind: str, seed: int, with_grad: bool
) -> None:
    a = _rng_array(shape, kind, seed)
    if with_grad:
        expected = repr(_embedding_output(a))
        assert format_torch_tensor(a, grad_fn="EmbeddingBackward0") == expected
    else:
        assert format_torch_tensor(a) == _torch_repr(a)


@settings(max_examples=40, deadline=None)
@given(
    hnp.array_shapes(min_dims=4, max_dims=5, min_side=1, max_side=3),
    st.sampled_from(["normal", "scaled", "whole", "special"]),
    st.integers(min_value=0, max_value=2**32 - 1),
)
def test_higher_rank_arrays_match_torch(shape: tuple[int, ...], kind: str, seed: int) -> None:
    a = _rng_array(shape, kind, seed)
    assert format_torch_tensor(a) == _torch_repr(a)


# --- targeted cases ------------------------------------------------------------------


def test_formatter_only_sees_summarized_elements() -> None:
    # The hidden middle holds a fraction and a huge value; torch ignores both.
    a = np.ones((4, 768), dtype=np.float32)
    a[1, 400] = 0.5
    a[2, 100] = 1e12
    got = format_torch_tensor(a)
    assert got == _torch_repr(a)
    assert "[1., 1., 1.,  ..., 1., 1., 1.]" in got


@pytest.mark.parametrize("length", range(1, 16))
def test_grad_fn_suffix_wraps_like_torch(length: int) -> None:
    a = -np.arange(1, length + 1, dtype=np.float32) * np.float32(1.23456)
    assert format_torch_tensor(a, grad_fn="EmbeddingBackward0") == repr(_embedding_output(a))


@pytest.mark.parametrize(
    "value",
    [
        0.0,
        -0.0,
        1.0,
        -3.0,
        0.5,
        1e-5,
        1e9,
        -123456.789,
        math.nan,
        math.inf,
        -math.inf,
        float(np.finfo(np.float32).tiny) / 8,
    ],
)
def test_zero_dim(value: float) -> None:
    a = np.array(value, dtype=np.float32)
    assert format_torch_tensor(a) == _torch_repr(a)


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 0, 4), (0, 0, 0)])
def test_empty(shape: tuple[int, ...]) -> None:
    a = np.zeros(shape, dtype=np.float32)
    assert format_torch_tensor(a) == _torch_repr(a)


def test_empty_with_grad_fn() -> None:
    a = np.zeros((0, 3), dtype=np.float32)
    expected = repr(_embedding_output(a))
    assert expected == "tensor([], size=(0, 3), grad_fn=<EmbeddingBackward0>)"
    assert format_torch_tensor(a, grad_fn="EmbeddingBackward0") == expected


def test_float64_and_int_input_are_converted_to_float32() -> None:
    doubles = np.array([[0.1, 1.0 / 3.0], [1e40, -2.5]])
    with np.errstate(over="ignore"):
        narrowed = doubles.astype(np.float32)
    assert format_torch_tensor(doubles) == _torch_repr(narrowed)
    assert format_torch_tensor(doubles) == repr(torch.tensor(doubles.tolist()))
    assert format_torch_tensor([[1, 2], [3, 40]]) == "tensor([[ 1.,  2.],\n        [ 3., 40.]])"


@pytest.mark.parametrize(
    "bad",
    [
        np.array([True, False]),
        np.array([1 + 2j]),
        ["a", "b"],
        [[1.0, 2.0], [3.0]],
        np.array([None, 1.0], dtype=object),
    ],
)
def test_non_numeric_input_is_rejected(bad: object) -> None:
    with pytest.raises(EmbedvizError) as info:
        format_torch_tensor(bad)  # type: ignore[arg-type]
    assert "\n" not in str(info.value)
