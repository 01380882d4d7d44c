"""A strip that slides level out of its row into its output row shows its numbers cell by cell.

Where the output row is level with the source row and the corridor between
the matrix and the output block is narrower than a strip (PositionBlindness's
first strip, GPT-2's ``lookup-0`` at the level place), a strip that slides
level along its row's line is wholly out of the matrix only once it is inside
its output row: its numbers, shown only then, looked made at the destination
rather than carried (a 720p review: an empty amber box sliding from E's row 2
into output row 0). There, each number shows
as soon as its own cell is clear of the matrix's edge, fading in over 0.2 s
(as a riding strip's numbers do), while the strip is level with its source
row (short of the output block) or with its output row: the row visibly
slides out of E carrying its numbers. Level with its own rows, a number
cannot read as another row's, and clear of the edge it overprints none of
E's cells.

Elsewhere (a strip wholly out in the corridor, or one whose cells would show
and then hide again on its way) the strip keeps its rules: its numbers show
once it is wholly out (:mod:`~embedviz.render.parts.strip`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from manim import VMobject

__all__ = ["LevelCells", "level_cells", "level_share"]

# A box as (left, bottom, right, top).
Box = tuple[float, float, float, float]
# How much a number may dip once shown before it lands (a cell that shows and hides again
# reads as a flicker: such a strip keeps the wholly-out rule).
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
    edge: float  # the matrix's edge (with the air past it)
    lines: tuple[float, float]  # its source row's and output row's centre lines
    block_left: float  # the output block's left
    starts: np.ndarray = field(default_factory=lambda: np.zeros(0))  # when each may first show
    fades: np.ndarray = field(default_factory=lambda: np.zeros(0))  # over what share it fades in

    def may_show(self, moved: Box) -> np.ndarray:
        """Return how much each text may show with the strip at ``moved`` (by place alone).

        Its cell clear of the matrix's edge, and the strip level with its source row (the
        text short of the output block) or with its output row.
        """
        clear = (moved[0] + self.lefts > self.edge + 1e-9).astype(float)
        short = (moved[0] + self.rights <= self.block_left + 1e-6).astype(float)
        source, target = self.lines
        level = np.maximum(level_share(moved, source) * short, level_share(moved, target))
        return np.asarray(clear * level)

    def shown(self, alpha: float, moved: Box) -> np.ndarray:
        """Return each text's opacity at ``alpha`` (at ``moved``): faded in from its start.

        By time, as a riding strip's numbers fade (by distance, the first to clear the
        matrix's edge on a quick slide out popped on in a frame or two).
        """
        ramp = np.clip((alpha - self.starts) / self.fades, 0.0, 1.0)
        return np.asarray(self.may_show(moved) * ramp)


def level_cells(
    carry: Any, fade_of: Callable[[float, float], float], samples: int = 400
) -> LevelCells | None:
    """Return how a strip's texts show cell by cell, or None where it keeps the wholly-out rule.

    ``carry``: a :class:`~embedviz.render.parts.strip.Carry`, its strip built and its way
    set (its ``source_box``, ``cover``, ``lines``, ``block_left``; ``_today``: its numbers'
    opacity at a share of its run by the wholly-out rule; ``_moved``: its box there);
    ``fade_of``: the share of its run its numbers fade in over, from a start to an end
    (:func:`~embedviz.render.parts.strip.stretch_fade`). Only a strip whose output row is
    level with its source row, over the output block's columns by the time it is wholly out
    (the corridor narrower than it), shows its numbers cell by cell, and only where none of
    them, once shown, dims again before it lands (elsewhere a part shown as it came out
    read as more values of the row beside it: test_strip_emerges).
    """
    texts: list[VMobject] = [*carry.strip[1].submobjects, *carry.strip[2].submobjects]
    start, cover, block_left = carry.source_box, carry.cover, carry.block_left
    today: Callable[[float], float] = carry._today
    moved: Callable[[float], Box] = carry._moved
    edge = cover[2]
    if not texts or not np.isfinite(block_left) or np.isfinite(cover[1]):
        return None
    # Only a strip whose output row is level with its source row: it slides straight in.
    if abs(carry.lines[0] - carry.lines[1]) > (start[3] - start[1]) / 6:
        return None
    alphas = np.linspace(0.0, 1.0, samples + 1)
    out = next((float(a) for a in alphas if moved(float(a))[0] >= edge), 1.0)
    if moved(out)[2] <= block_left + 1e-6:
        return None
    lefts_of = np.array([float(t.get_left()[0]) - start[0] for t in texts])
    rights = np.array([float(t.get_right()[0]) - start[0] for t in texts])
    order = np.argsort(lefts_of)
    lefts = np.zeros(len(texts))
    for k, i in enumerate(order[1:], start=1):
        # Its cell begins half way between the text before it and itself.
        lefts[i] = (rights[order[k - 1]] + lefts_of[i]) / 2
    cells = LevelCells(lefts, rights, edge, carry.lines, block_left)
    may = np.array([cells.may_show(moved(float(a))) for a in alphas])
    first = [np.flatnonzero(column > 0) for column in may.T]
    cells.starts = np.array([float(alphas[f[0]]) if len(f) else np.inf for f in first])
    cells.fades = np.array([fade_of(s, 1.0) if np.isfinite(s) else 1.0 for s in cells.starts])
    was = np.array([today(float(a)) for a in alphas])
    seen = np.array([cells.shown(float(a), moved(float(a))) for a in alphas])
    seen = np.maximum(seen, was[:, None])
    dips = np.maximum.accumulate(seen, axis=0) - seen
    if dips.max() > DIP or not (seen > was[:, None] + 0.5).any():
        return None
    return cells
