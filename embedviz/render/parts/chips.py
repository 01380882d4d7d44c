"""Token chips: an ID (and its word piece) on amber, in one or two lanes, walking along curves.

A :class:`Chip` is the one object that stands for one token ID: it waits in
its :class:`ChipLane`, walks to its row along a curve (:func:`walk`), carries
the row's strip and stays on the output row as that row's tag
(:meth:`Chip.become_tag`): one ID, one object, one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from manim import LEFT, RIGHT, Animation, Mobject, VGroup, VMobject
from manim.utils.rate_functions import smooth

from embedviz.render.design import (
    SPACE,
    TAG_NUMBER_ADVANCES,
    Theme,
    TypeScale,
    at_least,
    chip_edge_width,
)
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.metrics import char_advance, digit_height, xyz
from embedviz.render.rounded import rounded_box
from embedviz.render.stage import Component, StageHost
from embedviz.story.model import NumberCell

__all__ = [
    "CHIP_FILL",
    "LANE_BUFF_DIGITS",
    "Chip",
    "ChipLane",
    "Follow",
    "chip_height",
    "chip_size",
    "curve_points",
    "number_gap",
    "piece_font",
    "stand_in_lane",
    "walk",
]

# A piece is drawn at this share of the ID's font size.
PIECE_RATIO = 0.8
# Padding inside a chip, in digit heights of its font; its height, likewise.
_PAD_DIGITS = 0.45
_HEIGHT_DIGITS = 1.75
# Between chips in a lane, in digit heights.
LANE_BUFF_DIGITS = 0.6
# A chip beside tight rows is at most this share of a row tall (a twelve-token
# sentence's chips stand apart).
CHIP_FILL = 0.84


def piece_font(scale: TypeScale) -> float:
    """Return the font size of a word piece beside its output row's tag.

    :data:`PIECE_RATIO` of a label, never under the frame's text floor (raised
    toward :data:`~embedviz.render.type_search.LECTURE_TEXT_PX` where there is room)
    nor under the scale's floor for pieces (:data:`~embedviz.render.design.MIN_PIECE_PX`
    where the solver found room for it).
    """
    return at_least(scale.label * PIECE_RATIO, max(scale.text_px, scale.piece_px))


def number_gap(font_size: float) -> float:
    """Return the gap from a row's chip to the row number right after it.

    :data:`~embedviz.render.design.TAG_NUMBER_ADVANCES` of the number's
    monospace advance, and never under a SPACE: a digit's column of clear
    ground, so that the tag's ID and the number never read as one number.

    Parameters
    ----------
    font_size
        The row number's font size.

    Returns
    -------
    float
        The gap, in scene units.
    """
    return max(SPACE, TAG_NUMBER_ADVANCES * char_advance(font_size))


def chip_size(id_chars: int, piece_chars: int, font_size: float) -> tuple[float, float]:
    """Return a chip's (width, height) for an ID and a piece of so many characters.

    The solver sizes lanes and tag columns with this before any chip exists.
    """
    advance, digit = char_advance(font_size), digit_height(font_size)
    content = advance * id_chars
    if piece_chars:
        content += advance * PIECE_RATIO * piece_chars + advance * 0.5
    return content + 2 * _PAD_DIGITS * digit, _HEIGHT_DIGITS * digit


def chip_height(font_size: float, row_height: float) -> float:
    """Return a chip's height at ``font_size`` beside rows ``row_height`` apart.

    Its own height, or :data:`CHIP_FILL` of a row where the rows are tighter.
    """
    return min(chip_size(1, 0, font_size)[1], row_height * CHIP_FILL)


class Chip(VGroup):
    """A token ID on an amber chip, its word piece (when the IDs came from text) before it.

    Parameters
    ----------
    cell
        The ``token_id`` cell.
    font_size
        The ID's font size (the frame's label size).
    theme
        Colours: the chip is amber, its text ``chip_text``.
    piece
        The token's text, e.g. ``##bed``.
    height
        At most this tall (a column of chips beside tight rows keeps a gap
        between them); by default the chip's own height.

    Attributes
    ----------
    number
        The ID, a checked number; after :meth:`become_tag` it shows the output
        row's ``output_id`` cell.
    """

    def __init__(
        self,
        cell: NumberCell,
        font_size: float,
        theme: Theme,
        piece: str | None = None,
        height: float | None = None,
    ) -> None:
        self.number = NumberText(cell, font_size, theme.chip_text)
        self.piece = (
            None if piece is None else LabelText(piece, font_size * PIECE_RATIO, theme.chip_text)
        )
        width, natural = chip_size(len(cell.text), len(piece or ""), font_size)
        height = natural if height is None else min(natural, height)
        box = rounded_box(width, height, height * 0.22)
        box.set_fill(theme.chip, opacity=1.0).set_stroke(
            theme.chip_edge, width=chip_edge_width(theme)
        )
        content = VGroup(*[m for m in (self.piece, self.number) if m is not None])
        if self.piece is not None:
            content.arrange(RIGHT, buff=char_advance(font_size) * 0.5)
        content.move_to(box)
        super().__init__(box, *content)
        self.box = box

    def become_tag(self, cell: NumberCell) -> None:
        """Make this chip stand for an output row's ``output_id`` cell (the same ID)."""
        if cell.text != self.number.cell.text:
            raise ValueError(f"chip {self.number.text!r} cannot become the tag of {cell.text!r}")
        self.number.cell = cell


class ChipLane(Component):
    """The input chips in one or two lanes, their label, and the travel lane below or between.

    Attributes
    ----------
    chips
        One chip per input position, in order.
    label
        ``token IDs``, left of the first lane.
    travel_y
        The height of the free lane that walking chips travel along.
    """

    def __init__(self, host: StageHost, theme: Theme, chips: Sequence[Chip], label: SansText):
        super().__init__(host, theme)
        self.chips = list(chips)
        self.label = label
        self.travel_y = 0.0
        self.homes: list[np.ndarray] = []

    def arrange(
        self, lanes: int, top: float, right: float, lane_gap: float, second_left: float
    ) -> None:
        """Place the chips right-aligned at ``right``: one lane, or two around the travel lane.

        Parameters
        ----------
        lanes
            1 or 2; with 2 the first half sits above the travel lane.
        top
            The top of the first lane.
        right
            Where every lane ends.
        lane_gap
            The travel lane's height (between the lanes, or under the only one).
        second_left
            The second lane starts right of this (clear of the column walking
            chips come down).
        """
        half = -(-len(self.chips) // lanes)
        groups = [self.chips[:half], self.chips[half:]][:lanes]
        height = max(chip.height for chip in self.chips)
        y = top - height / 2
        for number, group in enumerate(groups):
            row = VGroup(*group)
            buff = digit_height(self.chips[0].number.font_size) * LANE_BUFF_DIGITS
            row.arrange(RIGHT, buff=buff).move_to(xyz(0, y)).align_to(xyz(right, 0), RIGHT)
            if number == 0:
                self.label.next_to(row, LEFT, buff=SPACE * 2)
                self.travel_y = y - height / 2 - lane_gap / 2
            elif row.get_left()[0] < second_left:
                raise ValueError(
                    "the second lane of chips does not fit right of the walking column"
                )
            y -= height + lane_gap
        self.homes = [chip.get_center().copy() for chip in self.chips]

    def intro(self) -> list[VMobject]:
        """Return the chips and their label."""
        return [self.label, *self.chips]


def stand_in_lane(chips: Sequence[Chip], label: Mobject, y: float, right: float) -> None:
    """Stand ``chips`` in a row on the line ``y``, ending at ``right``, ``label`` left of them.

    The solver's :class:`~embedviz.render.solver_lane.Lane` gives the line and the end.
    """
    row = VGroup(*chips)
    buff = digit_height(chips[0].number.font_size) * LANE_BUFF_DIGITS
    row.arrange(RIGHT, buff=buff).move_to(xyz(0, y)).align_to(xyz(right, 0), RIGHT)
    label.next_to(row, LEFT, buff=SPACE * 2)


def curve_points(waypoints: Sequence[np.ndarray], radius: float, per_corner: int = 8) -> np.ndarray:
    """Return points along a polyline with rounded corners (a smooth path through free lanes).

    Each corner is replaced by a quadratic curve from ``radius`` before it to
    ``radius`` after it (less on short legs), so the path stays inside the
    lanes its straight legs run along.
    """
    points = [np.asarray(p, dtype=float) for p in waypoints]
    out = [points[0]]
    for before, corner, after in zip(points, points[1:], points[2:], strict=False):
        into, away = corner - before, after - corner
        r_in = min(radius, float(np.linalg.norm(into)) / 2)
        r_out = min(radius, float(np.linalg.norm(away)) / 2)
        start = corner - into / max(float(np.linalg.norm(into)), 1e-9) * r_in
        end = corner + away / max(float(np.linalg.norm(away)), 1e-9) * r_out
        for t in np.linspace(0.0, 1.0, per_corner):
            out.append((1 - t) ** 2 * start + 2 * (1 - t) * t * corner + t**2 * end)
    out.append(points[-1])
    return np.array(out)


class Follow(Animation):
    """Move mobjects by pure shifts along sampled points, at constant speed (smoothed).

    Parameters
    ----------
    mobject
        What moves (rigidly).
    points
        Where its reference point passes, first to last (``points[0]`` is where it is).
    **kwargs
        Passed to :class:`manim.Animation`.
    """

    def __init__(self, mobject: Mobject, points: np.ndarray, **kwargs: Any) -> None:
        kwargs.setdefault("rate_func", smooth)
        super().__init__(mobject, **kwargs)
        self.path = np.asarray(points, dtype=float)
        legs = np.linalg.norm(np.diff(self.path, axis=0), axis=1)
        self.lengths = np.concatenate([[0.0], np.cumsum(legs)])
        self.offset = np.zeros(3)

    def create_starting_mobject(self) -> VMobject:
        """Return an empty stand-in: nothing reads it, and a copy would cost every beat."""
        return VMobject()

    def position(self, alpha: float) -> np.ndarray:
        """Return the offset from the start at ``alpha`` (after the rate function)."""
        total = float(self.lengths[-1])
        if total <= 0:
            return np.zeros(3)
        distance = min(max(alpha, 0.0), 1.0) * total
        leg = int(np.searchsorted(self.lengths, distance, side="right")) - 1
        leg = min(max(leg, 0), len(self.path) - 2)
        span = self.lengths[leg + 1] - self.lengths[leg]
        along = 0.0 if span <= 0 else (distance - self.lengths[leg]) / span
        point: np.ndarray = self.path[leg] + (self.path[leg + 1] - self.path[leg]) * along
        offset: np.ndarray = point - self.path[0]
        return offset

    def interpolate_mobject(self, alpha: float) -> None:
        """Shift the mobject to where it is at ``alpha``."""
        offset = self.position(self.rate_func(alpha))
        self.mobject.shift(offset - self.offset)
        self.offset = offset


def walk(chip: Chip, waypoints: Sequence[np.ndarray], radius: float, run_time: float) -> Follow:
    """Walk a chip from where it is through ``waypoints`` along a rounded path."""
    points = curve_points([chip.get_center(), *waypoints], radius)
    return Follow(chip, points, run_time=run_time)
