"""A strip sliding sideways out of the matrix shows each number once its cell is a column clear.

A strip that leaves the matrix through its right edge slides out level with
its own row. Its numbers used to show only once the whole strip was out, so
it slid out as an empty amber box (720p reviews: the toy SequenceLookup's
row 3 sliding out under the output block, its numbers shown only as it rose;
PositionBlindness's first strip and GPT-2's ``lookup-0`` sliding level into
output row 0, their numbers shown only inside it: made at the destination
rather than carried). Now each number fades in (over
:func:`~embedviz.render.parts.strip.stretch_fade`, 0.2 s at least) once its
own cell has cleared the matrix's right edge by more than a column width and
a pixel, level with its source row or its output row: nearer the edge, on its
row's line, a number reads as one more column of the row (two 720p reviews:
``1.2753 -0.2010 -0.1606 -0.1606``; test_strip_heading), and the rest of the
strip stays empty until it is wholly out (the strip's own rule).

A strip whose chip rides beside it keeps a number shown once it has faded in
(its ID says whose it is). One whose chip leads shows a number only where the
strip's own rule would (level with its source row with the number short of
the output block, or with its output row), and keeps the wholly-out rule where
a number shown by its cell would dim again before that rule shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from manim import VMobject

__all__ = ["LevelCells", "level_cells", "level_share"]

# A box as (left, bottom, right, top).
Box = tuple[float, float, float, float]
# How much a number may dip once shown before the strip's own rule shows it (more reads as
# a flicker: such a strip keeps the wholly-out rule).
DIP = 0.05


def level_share(moved: Box, line: float) -> float:
    """Return 1 where ``moved`` is level (within a third of its height) with ``line``, else 0.

    Over the sixth of its height between a third and a half off the line it fades.

    Examples
    --------
    >>> level_share((0.0, 0.0, 4.0, 1.0), 0.5), level_share((0.0, 0.0, 4.0, 1.0), 1.0)
    (1.0, 0.0)
    """
    height = moved[3] - moved[1]
    off = abs((moved[1] + moved[3]) / 2 - line)
    return min(1.0, max(0.0, (height / 2 - off) / (height / 6)))


@dataclass
class LevelCells:
    """Where each of a strip's texts sits in it, and when it starts to show: cell by cell."""

    lefts: np.ndarray  # each text's cell's left edge, from the strip's left
    rights: np.ndarray  # each text's right edge, from the strip's left
    clear: float  # where a cell's left must be past: the matrix's edge, a column and a pixel
    lines: tuple[float, float]  # its source row's and output row's centre lines
    block_left: float  # the output block's left (where its numbers land)
    rides: bool  # whether its chip rides beside it
    starts: np.ndarray = field(default_factory=lambda: np.zeros(0))  # when each may first show
    fades: np.ndarray = field(default_factory=lambda: np.zeros(0))  # over what share it fades in

    def may_show(self, moved: Box) -> np.ndarray:
        """Return how much each text may show with the strip at ``moved`` (by place alone).

        Its cell past :attr:`clear`, and the strip level with its source row (riding, or
        the text short of the output block) or with its output row.
        """
        clear = (moved[0] + self.lefts > self.clear).astype(float)
        short = (moved[0] + self.rights <= self.block_left + 1e-6).astype(float)
        source, target = self.lines
        beside = level_share(moved, source) * (1.0 if self.rides else short)
        return np.asarray(clear * np.maximum(beside, level_share(moved, target)))

    def shown(self, alpha: float, moved: Box) -> np.ndarray:
        """Return each text's opacity at ``alpha`` (at ``moved``): faded in from its start.

        By time, as a riding strip's numbers fade (by distance, a quick slide popped them
        on); riding, a number once shown stays (its chip says whose it is).
        """
        ramp = np.clip((alpha - self.starts) / self.fades, 0.0, 1.0)
        if self.rides:
            return np.asarray(ramp)
        return np.asarray(self.may_show(moved) * ramp)


def cell_lefts(texts: Sequence[VMobject], left: float) -> tuple[np.ndarray, np.ndarray]:
    """Return each text's cell's left and its own right, from ``left`` (the strip's left).

    A text's cell begins half way between the text before it and itself (the first's
    at the strip's left).
    """
    starts = np.array([float(t.get_left()[0]) - left for t in texts])
    rights = np.array([float(t.get_right()[0]) - left for t in texts])
    order = np.argsort(starts)
    lefts = np.zeros(len(texts))
    for k, i in enumerate(order[1:], start=1):
        lefts[i] = (rights[order[k - 1]] + starts[i]) / 2
    return lefts, rights


def level_cells(
    carry: Any,
    clear: float,
    fade_of: Callable[[float, float], float],
    samples: int = 400,
) -> LevelCells | None:
    """Return how a strip's texts show cell by cell, or None where it keeps the wholly-out rule.

    ``carry``: a :class:`~embedviz.render.parts.strip.Carry`, its strip built and its way
    set (its ``source_box``, ``cover``, ``lines``, ``block_left``, ``rides``; ``_today``:
    its numbers' opacity at a share of its run by its own rule; ``_moved``: its box
    there); ``clear``: where a cell's left must be past to show (the matrix's right edge,
    a column width and a pixel); ``fade_of``: the share of its run a number fades in
    over, from a start to an end (:func:`~embedviz.render.parts.strip.stretch_fade`).
    Only a strip that leaves through the matrix's right edge (its cover reaching up and
    down without end) shows its numbers cell by cell.
    """
    texts: list[VMobject] = [*carry.strip[1].submobjects, *carry.strip[2].submobjects]
    if not texts or np.isfinite(carry.cover[1]):
        return None
    moved: Callable[[float], Box] = carry._moved
    today: Callable[[float], float] = carry._today
    lefts, rights = cell_lefts(texts, carry.source_box[0])
    rides = bool(carry.rides)
    cells = LevelCells(lefts, rights, clear, carry.lines, carry.block_left, rides)
    alphas = np.linspace(0.0, 1.0, samples + 1)
    may = np.array([cells.may_show(moved(float(a))) for a in alphas])
    first = [np.flatnonzero(column > 0) for column in may.T]
    cells.starts = np.array([float(alphas[f[0]]) if len(f) else np.inf for f in first])
    cells.fades = np.array([fade_of(s, 1.0) if np.isfinite(s) else 1.0 for s in cells.starts])
    if not np.isfinite(cells.starts).any():
        return None
    if rides:
        return cells
    # A strip whose chip leads: no number shown by its cell may dim again before its own
    # rule first shows it (after that, its own rule hides them off its rows, as before).
    was = np.array([today(float(a)) for a in alphas])
    until = int(np.flatnonzero(was > 0.5)[0]) if (was > 0.5).any() else len(alphas)
    seen = np.array([cells.shown(float(a), moved(float(a))) for a in alphas[:until]])
    if len(seen) and (np.maximum.accumulate(seen, axis=0) - seen).max() > DIP:
        return None
    return cells
