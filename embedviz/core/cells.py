"""Formatting table values for the grid: fixed decimals, nothing invented.

A cell shows the float32 value rounded half-to-even at a fixed number of
decimals (Python's ``format``), so every string on screen can be traced back
to one stored number, and :func:`cell_text_matches` can prove it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError

__all__ = [
    "DEFAULT_DECIMALS",
    "cell_text_matches",
    "colour_scale",
    "format_cell",
    "format_cells",
    "format_scale",
]

DEFAULT_DECIMALS = 4


def format_cell(value: float | np.floating[Any], decimals: int = DEFAULT_DECIMALS) -> str:
    """Format one value for a grid cell, e.g. ``0.3374`` or ``-1.1481``.

    Parameters
    ----------
    value
        The stored value (a float32 is widened exactly before rounding).
    decimals
        Digits after the decimal point, 0 to 8.

    Returns
    -------
    str
        The rounded value with a leading ``-`` for negatives; the grid
        right-aligns cells so that signs and decimal points line up.

    Raises
    ------
    EmbedvizError
        If the value is not finite or ``decimals`` is out of range.
    """
    if not 0 <= decimals <= 8:
        raise EmbedvizError(f"cell decimals must be between 0 and 8, not {decimals}")
    number = float(value)
    if not np.isfinite(number):
        raise EmbedvizError(f"cannot draw the non-finite value {number} in a grid cell")
    return f"{number:.{decimals}f}"


def format_cells(values: npt.ArrayLike, decimals: int = DEFAULT_DECIMALS) -> npt.NDArray[np.str_]:
    """Format every value of an array, keeping its shape.

    Parameters
    ----------
    values
        Any real array.
    decimals
        Digits after the decimal point.

    Returns
    -------
    numpy.ndarray
        Strings of the same shape.
    """
    array = np.asarray(values, dtype=np.float64)
    flat = [format_cell(v, decimals) for v in array.ravel()]
    return np.asarray(flat, dtype=np.str_).reshape(array.shape)


def cell_text_matches(text: str, value: float, decimals: int = DEFAULT_DECIMALS) -> bool:
    """Tell whether ``text`` is exactly ``value`` rounded to ``decimals``.

    Parameters
    ----------
    text
        A string shown on screen.
    value
        The stored value it claims to show.
    decimals
        Digits after the decimal point.

    Returns
    -------
    bool
        True when the string is the formatted value and also within half a
        unit of the last place of it (an independent numeric check).
    """
    if text != format_cell(value, decimals):
        return False
    return abs(float(text) - float(value)) <= 0.5 * 10.0**-decimals + 1e-12


def colour_scale(values: npt.ArrayLike) -> float:
    """Choose the magnitude at which values get their strongest colour.

    Parameters
    ----------
    values
        The values on screen.

    Returns
    -------
    float
        The largest absolute value rounded up to one significant digit
        (2.84 gives 3, 0.123 gives 0.2), so the legend reads simply; 1 when
        every value is zero.
    """
    array = np.abs(np.asarray(values, dtype=np.float64))
    largest = float(array.max()) if array.size else 0.0
    if not np.isfinite(largest) or largest == 0.0:
        return 1.0
    exponent = int(np.floor(np.log10(largest)))
    step = 10.0**exponent
    # A tiny tolerance keeps an exact 3.0 at 3, not 4.
    return float(round(np.ceil(largest / step - 1e-9) * step, 12))


def format_scale(value: float) -> str:
    """Format a legend value such as ``-3``, ``0``, ``+0.2``.

    Parameters
    ----------
    value
        A value from :func:`colour_scale`, its negative, or zero.

    Returns
    -------
    str
        The shortest plain decimal, with a sign for non-zero values.
    """
    if value == 0:
        return "0"
    text = np.format_float_positional(abs(value), trim="-")
    return ("+" if value > 0 else "-") + text
