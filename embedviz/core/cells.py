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

__all__ = ["DEFAULT_DECIMALS", "cell_text_matches", "format_cell", "format_cells"]

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
