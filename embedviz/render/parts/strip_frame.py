"""A strip sliding out of the matrix's right edge is drawn only where its numbers show.

A strip leaving the matrix through its right edge shows each number once its
cell is a column clear of that edge (:mod:`~embedviz.render.parts.level_cells`:
nearer, on its row's line, a number reads as one more column of the row). Its
box was drawn whole from the edge on, so for a moment the copy was an empty or
partly empty amber box beside the matrix (the toy SequenceLookup's ``lookup-0``
near 34.1 s, a lone ``-0.1606`` in a three-cell box): to a class, a row copied
with no values. Now the box's frame and fill show, cell by cell, as much as
that cell's number (a step behind it, :data:`LAG`): the copy grows out of the
clear space a column right of the matrix, box and number together, one cell
after another, and is never an empty part of a box. Once its numbers have all been whole the box
shows whole (a strip whose chip leads may then travel as its box alone, off
its rows, as before; one whose chip rides keeps its numbers shown).

A batch's strips are shaded so too: drawn whole from E's edge, a BatchLookup
strip slid out of E's row as an amber box holding only its last number, dim
(issue 18's lecture-hall review: the default ``lookup-0-1`` near 49 s, GPT-2's
``lookup-0-0`` near 38.5 s).

The box is one outline, so its opacity along it is a horizontal gradient
(Cairo's, through Manim's colour stops): :data:`STOPS` stops across its drawn
width, each shaded by the number whose cell it is in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from manim import RIGHT, VMobject

from embedviz.render.pace import seconds_of
from embedviz.render.parts.level_cells import cell_lefts, level_share

__all__ = ["LAG", "STOPS", "UNSEEN", "FrameShade", "frame_shade", "shade_from"]

# Colour stops across a strip's drawn box: a step between two cells is smeared over a
# 96th of the box (under a pixel at 720p for the toy's three cells).
STOPS = 97
# A cell's part of the box is as opaque as its number to this power: a step behind it as
# both fade in (a quarter opaque where the number is half), never ahead of it.
LAG = 2.0
# The longest a strip may travel unseen off its source row's line, shaded (seconds).
UNSEEN = 0.1
# A box as (left, bottom, right, top).
Box = tuple[float, float, float, float]


@dataclass
class FrameShade:
    """How a strip's box is shaded by its numbers: where each cell is, and when it shows whole."""

    lefts: np.ndarray  # each text's cell's left edge from the strip's left, in text order
    stroke: np.ndarray  # the frame's colour (RGBA, opaque)
    fill: np.ndarray  # the box's fill (RGBA, opaque)
    whole_at: float  # the share of its run from which the box shows whole

    def paint(
        self, box: VMobject, drawn: Box, left: float, shown: np.ndarray, alpha: float
    ) -> None:
        """Shade ``box`` (drawn over ``drawn``, the strip's left at ``left``) by ``shown``.

        ``shown``: each text's opacity now. Before :attr:`whole_at` each stop across
        the drawn box is as opaque as the number whose cell it is in; after, all are.
        """
        if alpha >= self.whole_at or not len(shown):
            box.stroke_rgbas = self.stroke[None, :].copy()
            box.fill_rgbas = self.fill[None, :].copy()
            return
        xs = np.linspace(drawn[0], drawn[2], STOPS) - left
        order = np.argsort(self.lefts)
        cell = np.clip(np.searchsorted(self.lefts[order], xs, side="right") - 1, 0, None)
        opacity = np.asarray(shown, dtype=float)[order][cell] ** LAG
        box.set_sheen_direction(RIGHT)
        box.stroke_rgbas = _stops(self.stroke, opacity)
        box.fill_rgbas = _stops(self.fill, opacity)


def _stops(rgba: np.ndarray, opacity: np.ndarray) -> np.ndarray:
    """Return ``rgba`` once per stop, each with its opacity (times the colour's own)."""
    stops = np.tile(rgba, (len(opacity), 1))
    stops[:, 3] = rgba[3] * opacity
    return stops


def frame_shade(
    carry: Any, shown: Callable[[float], np.ndarray], samples: int = 400
) -> FrameShade | None:
    """Return how ``carry``'s box is shaded, or None where it is drawn whole (as before).

    ``carry``: a :class:`~embedviz.render.parts.strip.Carry`, its strip built and its
    way set; ``shown``: its texts' opacities at a share of its run. Only a strip leaving
    the matrix through its right edge (its cover reaching up and down without end) whose
    numbers are all whole at some point, and which would not travel unseen off its row's
    line for long, is shaded; the box shows whole from the first point they all are.
    """
    texts = [*carry.strip[1].submobjects, *carry.strip[2].submobjects]
    if not texts or np.isfinite(carry.cover[1]):
        return None
    alphas = np.linspace(0.0, 1.0, samples + 1)
    whole = [a for a in alphas if float(np.min(shown(float(a)))) >= 1 - 1e-6]
    if not whole:
        return None
    # Not shaded where, off its rows' lines (up a batch's corridor), it would travel
    # unseen behind its chip for over :data:`UNSEEN` s: as before, it travels as its box.
    line = carry.lines[0]
    unseen = [
        a
        for a in alphas
        if level_share(carry._moved(float(a)), line) < 1 and float(np.max(shown(float(a)))) < 0.5
    ]
    if len(unseen) * seconds_of(carry) / samples > UNSEEN:
        return None
    return shade_from(carry, float(whole[0]))


def shade_from(carry: Any, whole_at: float) -> FrameShade:
    """Return ``carry``'s box shaded by its numbers until ``whole_at`` (its strip built)."""
    texts = [*carry.strip[1].submobjects, *carry.strip[2].submobjects]
    box = carry.strip[0]
    lefts, _ = cell_lefts(texts, carry.source_box[0])
    stroke, fill = np.array(box.stroke_rgbas[0]), np.array(box.fill_rgbas[0])
    return FrameShade(lefts, stroke, fill, whole_at)
