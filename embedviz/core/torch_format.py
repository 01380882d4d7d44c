"""Reproduce PyTorch's printed form of a float32 tensor without importing torch.

The scenes show the text a learner would see after ``print(emb(ids))`` in a
Python session, so the string must match PyTorch 2.13.0 character for
character: the same number formatting, column alignment, ``...`` summaries,
line wrapping and ``grad_fn=<...>`` suffix.  Only float32 tensors with the
default print options (precision 4, threshold 1000, edgeitems 3, linewidth 80)
are covered; that is all the project ever prints.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError

__all__ = ["format_torch_tensor"]

# PyTorch's default print options.
_PRECISION = 4
_THRESHOLD = 1000
_EDGEITEMS = 3
_LINEWIDTH = 80

_PREFIX = "tensor("
# Continuation lines are indented to sit under the first "[" of the body.
_INDENT = len(_PREFIX)

# dtype kinds we accept and convert to float32: signed/unsigned ints, floats.
_NUMERIC_KINDS = frozenset("iuf")

Float32Array = npt.NDArray[np.float32]


@dataclass(frozen=True)
class _Formatter:
    """How every element of one tensor is turned into text.

    Attributes
    ----------
    int_mode : bool
        All finite values are whole numbers, so they print as ``3.`` style.
    sci_mode : bool
        Values print in exponent notation (``1.2340e+05``).
    max_width : int
        Width every element is right-aligned to.
    """

    int_mode: bool
    sci_mode: bool
    max_width: int

    def format(self, value: float) -> str:
        """Return ``value`` as one right-aligned element string.

        Parameters
        ----------
        value : float
            A float32 value widened exactly to a Python float.

        Returns
        -------
        str
            The element text, left-padded to ``max_width`` when shorter.
        """
        if self.sci_mode:
            text = f"{value:{self.max_width}.{_PRECISION}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            # The trailing dot marks a float tensor; nan/inf need no marker.
            if math.isfinite(value):
                text += "."
        else:
            text = f"{value:.{_PRECISION}f}"
        # Longer strings (nan, -inf, -0.) are not truncated, only short ones padded.
        return " " * (self.max_width - len(text)) + text


def _build_formatter(sample: Float32Array) -> _Formatter:
    """Choose the display mode and width from the elements that will be shown.

    Parameters
    ----------
    sample : numpy.ndarray
        The float32 values that will be printed (already summarized when the
        tensor is large), in any shape.

    Returns
    -------
    _Formatter
        The formatter PyTorch would pick for these values.
    """
    flat = sample.reshape(-1)
    # Zeros, nan and inf do not influence the mode or the width.
    shown = flat[np.isfinite(flat) & (flat != 0)]
    if shown.size == 0:
        return _Formatter(int_mode=True, sci_mode=False, max_width=1)

    int_mode = bool(np.all(shown == np.ceil(shown)))
    # torch compares the magnitudes in double precision.
    magnitudes = np.abs(shown).astype(np.float64)
    smallest = float(magnitudes.min())
    largest = float(magnitudes.max())
    sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4

    values: list[float] = shown.tolist()
    if sci_mode:
        width = max(len(f"{v:.{_PRECISION}e}") for v in values)
    elif int_mode:
        # One extra column for the trailing "." of whole floats.
        width = max(len(f"{v:.0f}") for v in values) + 1
    else:
        width = max(len(f"{v:.{_PRECISION}f}") for v in values)
    return _Formatter(int_mode=int_mode, sci_mode=sci_mode, max_width=max(1, width))


def _summarized_values(array: Float32Array) -> Float32Array:
    """Return the elements that a summarized print actually shows, flattened.

    Parameters
    ----------
    array : numpy.ndarray
        A float32 array with at least one element.

    Returns
    -------
    numpy.ndarray
        1-D float32 array of the edge elements along every dimension; the
        formatter is built from these only, as in PyTorch.
    """
    if array.ndim == 0:
        return array.reshape(1)
    if array.shape[0] > 2 * _EDGEITEMS:
        rows = [*range(_EDGEITEMS), *range(array.shape[0] - _EDGEITEMS, array.shape[0])]
    else:
        rows = list(range(array.shape[0]))
    if array.ndim == 1:
        return array[rows]
    return np.concatenate([_summarized_values(array[i]) for i in rows])


def _vector_text(vector: Float32Array, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """Render a 1-D slice, wrapping elements to fit the line width.

    Parameters
    ----------
    vector : numpy.ndarray
        The 1-D float32 slice.
    indent : int
        Column at which this slice's ``[`` sits.
    summarize : bool
        Whether middle elements are replaced by ``...``.
    formatter : _Formatter
        The formatter shared by the whole tensor.

    Returns
    -------
    str
        The bracketed, possibly multi-line, element list.
    """
    # Each element takes its width plus ", ".
    per_line = max(1, (_LINEWIDTH - indent) // (formatter.max_width + 2))

    def render(values: Float32Array) -> list[str]:
        as_floats: list[float] = values.tolist()
        return [formatter.format(v) for v in as_floats]

    if summarize and vector.shape[0] > 2 * _EDGEITEMS:
        # The ellipsis counts as an element when lines are filled.
        items = [*render(vector[:_EDGEITEMS]), " ...", *render(vector[-_EDGEITEMS:])]
    else:
        items = render(vector)

    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _array_text(array: Float32Array, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """Render an array of any rank as PyTorch's nested bracket text.

    Parameters
    ----------
    array : numpy.ndarray
        The float32 array (non-empty).
    indent : int
        Column at which this array's ``[`` sits.
    summarize : bool
        Whether long dimensions are cut to their edge items.
    formatter : _Formatter
        The formatter shared by the whole tensor.

    Returns
    -------
    str
        The tensor body, without the ``tensor(`` prefix.
    """
    if array.ndim == 0:
        return formatter.format(float(array))
    if array.ndim == 1:
        return _vector_text(array, indent, summarize, formatter)

    count = array.shape[0]
    if summarize and count > 2 * _EDGEITEMS:
        head = [_array_text(array[i], indent + 1, summarize, formatter) for i in range(_EDGEITEMS)]
        tail = [
            _array_text(array[i], indent + 1, summarize, formatter)
            for i in range(count - _EDGEITEMS, count)
        ]
        slices = [*head, "...", *tail]
    else:
        slices = [_array_text(array[i], indent + 1, summarize, formatter) for i in range(count)]

    # Higher-rank slices are separated by (rank - 1) newlines, i.e. blank lines.
    separator = "," + "\n" * (array.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(slices) + "]"


def _with_suffixes(text: str, suffixes: list[str]) -> str:
    """Append keyword suffixes and the closing parenthesis.

    Parameters
    ----------
    text : str
        ``tensor(`` plus the body.
    suffixes : list of str
        Items such as ``size=(0, 3)`` or ``grad_fn=<EmbeddingBackward0>``.

    Returns
    -------
    str
        The complete repr.
    """
    parts = [text]
    # PyTorch's measure is two larger than the true length of the last line
    # (and that of a one-line text); mirror it so the wrap point matches.
    last_line = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > _LINEWIDTH:
            parts.append(",\n" + " " * _INDENT + suffix)
            last_line = _INDENT + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _as_float32(values: npt.ArrayLike) -> Float32Array:
    """Convert input to a float32 array, rejecting what PyTorch would not print as float.

    Parameters
    ----------
    values : array_like
        Real numbers in any nesting.

    Returns
    -------
    numpy.ndarray
        The values as float32.

    Raises
    ------
    EmbedvizError
        If the input is ragged, or not made of real integer/float numbers.
    """
    try:
        array = np.asarray(values)
    except (ValueError, TypeError) as exc:
        raise EmbedvizError(f"cannot read the tensor values as an array: {exc}") from None
    if array.dtype.kind not in _NUMERIC_KINDS:
        raise EmbedvizError(
            f"tensor values must be real numbers (int or float), got dtype {array.dtype}"
        )
    # Out-of-range float64 values become inf exactly as Tensor.float() does; no warning.
    with np.errstate(over="ignore", invalid="ignore"):
        return array.astype(np.float32)


def format_torch_tensor(values: npt.ArrayLike, *, grad_fn: str | None = None) -> str:
    """Return the text PyTorch 2.13.0 prints for a float32 tensor.

    Parameters
    ----------
    values : array_like
        The tensor's values in any shape (0-d, 1-D, 2-D, ... N-D).  Integer and
        float64 input is converted to float32 first, as only float32 tables are
        ever printed.
    grad_fn : str or None, optional
        Name of the autograd node, e.g. ``"EmbeddingBackward0"``.  When given,
        ``grad_fn=<name>`` is appended the way PyTorch does, moving to a new
        line when it would overflow 80 columns.

    Returns
    -------
    str
        Exactly ``repr(tensor)`` with default print options, for example
        ``"tensor([[ 1.2753, -0.2010]], grad_fn=<EmbeddingBackward0>)"``.

    Raises
    ------
    EmbedvizError
        If ``values`` is not an array of real numbers (bool, complex, strings,
        objects, or ragged nesting).

    Examples
    --------
    >>> print(format_torch_tensor([[1.0, -2.5], [0.0, 3.25]]))
    tensor([[ 1.0000, -2.5000],
            [ 0.0000,  3.2500]])
    >>> format_torch_tensor(7.0)
    'tensor(7.)'
    """
    array = _as_float32(values)
    suffixes: list[str] = []

    if array.size == 0:
        body = "[]"
        # An empty tensor shows its shape unless it is the plain 1-D ``[]``.
        if array.ndim != 1:
            suffixes.append(f"size={tuple(array.shape)}")
    else:
        summarize = array.size > _THRESHOLD
        sample = _summarized_values(array) if summarize else array
        formatter = _build_formatter(sample)
        body = _array_text(array, _INDENT, summarize, formatter)

    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn}>")
    return _with_suffixes(_PREFIX + body, suffixes)
