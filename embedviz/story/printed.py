"""Splitting a PyTorch-style print into drawable pieces.

The renderer draws the print in a monospace font, with every number as its
own checked number object; this module finds the numbers, maps each to the
tensor element it shows, and trims very long prints to a few lines.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from embedviz.core.errors import EmbedvizError

__all__ = ["MAX_PRINTED_LINES", "PrintedLine", "printed_element_order", "split_printed"]

MAX_PRINTED_LINES = 6
# A number is not part of a name such as EmbeddingBackward0.
_NUMBER = re.compile(r"(?<![\w.])-?(?:\d+\.\d*(?:e[+-]\d+)?|\d+\.?|inf|nan)(?![\w])")
_EDGE_ITEMS = 3
_SUMMARY_THRESHOLD = 1000


@dataclass(frozen=True)
class PrintedLine:
    """One line of the print, split into text and numbers.

    Attributes
    ----------
    pieces
        ``(column, text, element)`` for each piece: the character column it
        starts at, its text, and for a number the tensor index it shows
        (``None`` for punctuation and words).
    """

    pieces: tuple[tuple[int, str, tuple[int, ...] | None], ...]


def printed_element_order(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    """List the tensor indices in the order PyTorch prints their values.

    Parameters
    ----------
    shape
        The tensor's shape.

    Returns
    -------
    list of tuple
        Every index for a small tensor; for one with more than 1000 elements
        only the first and last three along each long dimension, as PyTorch
        summarises.
    """
    size = 1
    for n in shape:
        size *= n
    summarise = size > _SUMMARY_THRESHOLD
    axes = []
    for n in shape:
        if summarise and n > 2 * _EDGE_ITEMS:
            axes.append([*range(_EDGE_ITEMS), *range(n - _EDGE_ITEMS, n)])
        else:
            axes.append(list(range(n)))
    return [tuple(index) for index in itertools.product(*axes)]


def split_printed(
    printed: str, shape: tuple[int, ...], max_lines: int = MAX_PRINTED_LINES
) -> tuple[tuple[PrintedLine, ...], int]:
    """Split a print into lines of pieces, eliding the middle of long prints.

    Parameters
    ----------
    printed
        The exact PyTorch-style string.
    shape
        The printed tensor's shape.
    max_lines
        At most this many lines are kept: the first ones and the last two.

    Returns
    -------
    tuple
        The kept lines, and how many lines were left out (inserted after the
        first kept lines by the renderer as one elision line).

    Raises
    ------
    EmbedvizError
        If the numbers in the print do not match the tensor's shape, which
        would mean the print and the values disagree.
    """
    order = iter(printed_element_order(shape))
    lines: list[PrintedLine] = []
    for raw_line in printed.split("\n"):
        pieces: list[tuple[int, str, tuple[int, ...] | None]] = []
        cursor = 0
        for match in _NUMBER.finditer(raw_line):
            if match.start() > cursor:
                pieces.append((cursor, raw_line[cursor : match.start()], None))
            element = next(order, None)
            if element is None:
                raise EmbedvizError("the print shows more numbers than the tensor holds")
            pieces.append((match.start(), match.group(), element))
            cursor = match.end()
        if cursor < len(raw_line):
            tail = raw_line[cursor:]
            split = tail.find("grad_fn=")
            # The grad_fn label is its own piece so that a scene can point at it.
            if split > 0:
                pieces.append((cursor, tail[:split], None))
                pieces.append((cursor + split, tail[split:], None))
            else:
                pieces.append((cursor, tail, None))
        lines.append(PrintedLine(tuple(pieces)))
    if next(order, None) is not None:
        raise EmbedvizError("the print shows fewer numbers than the tensor holds")
    if len(lines) <= max_lines:
        return tuple(lines), 0
    head = max_lines - 2
    return (*lines[:head], *lines[-2:]), len(lines) - max_lines
