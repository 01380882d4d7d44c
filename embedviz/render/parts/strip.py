"""A row strip: a copy of a matrix row that lifts off, travels a clear path and lands cell-aligned.

The row's numbers (and its elision marks) in a box outlined in amber, the ID's
colour (a row no ID selected, a slip's wrong row, in the neutral ``wrong``), ride
home with the ID's chip at its right end, or follow it (the chip stays as its
tag). A strip its chip rides lifts out of its row whole (:mod:`~embedviz.render.parts.lift`);
any other slides out from under its row, only its part clear of the matrix drawn
(:func:`clear_part`), each number shown a column clear of it
(:mod:`~embedviz.render.parts.level_cells`, :mod:`~embedviz.render.parts.strip_frame`),
and off its chip only level with its own rows (:func:`stretch_fade`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from manim import Animation, Rectangle, Scene, VGroup, VMobject, config
from manim.utils.rate_functions import linear, smooth

from embedviz.render.design import OUTLINE_REACH, Theme
from embedviz.render.glyphs import NumberText
from embedviz.render.metrics import xyz
from embedviz.render.pace import seconds_of
from embedviz.render.parts.chips import Chip
from embedviz.render.parts.drawer import SHOW_RAMP
from embedviz.render.parts.grid import CellGrid, clear_units
from embedviz.render.parts.level_cells import level_cells
from embedviz.render.parts.strip_frame import FrameShade, frame_shade
from embedviz.story.model import NumberCell

__all__ = [
    "STRIP_Z",
    "Carry",
    "RowStrip",
    "body_box",
    "clear_part",
    "cover_box",
    "make_strip",
    "numbers_fade",
    "stretch_fade",
]

# Drawn above everything else, so nothing's fill hides a travelling row.
STRIP_Z = 20
# The frame's stroke width.
FRAME_WIDTH = 3.5
# The share of its run over which a riding strip's numbers fade in once it is out (the
# toy's 2.5 s carry: 0.2 s; a review saw them pop on in one frame).
NUMBERS_FADE = 0.08
# The least real time that fade takes: the toy's, 6 frames at 30 fps (its middle, 5 to 95 %,
# over 5): a share of a fast carry's run (half a second, among the rest) was one frame, and
# the numbers popped on.
NUMBERS_FADE_SECONDS = 0.2
# The most of its ride (from out of the matrix to where it lands) the fade may take: the
# numbers ride whole for the last third of it at least, read before they land.
FADE_OF_RIDE = 2 / 3

# A box as (left, bottom, right, top).
Box = tuple[float, float, float, float]


class RowStrip(VGroup):
    """A travelling row: its box, its numbers in column order, its elision marks.

    Tests find travelling rows by :attr:`row_strip` and :attr:`source_row`.
    """

    row_strip = True

    def __init__(self, *parts: VMobject, source_row: int = -1) -> None:
        super().__init__(*parts)
        self.source_row = source_row


def make_strip(grid: CellGrid, row: int, theme: Theme, frame: str | None = None) -> RowStrip:
    """Copy a matrix row into a strip: box (neutral fill, amber outline), numbers, marks.

    ``frame`` is the outline's colour when the row is not an ID's (a slip's
    wrong row: the neutral ``wrong``); amber (``id_line``) by default.
    """
    numbers = VGroup(*[number.copy() for number in grid.get_row_numbers(row)])
    marks = VGroup(*[mark.copy() for mark in grid.marks.get(row, VGroup())])
    left, bottom, right, top = grid.row_box(row, buff=0.0)
    box = Rectangle(width=right - left, height=top - bottom)
    box.move_to(xyz((left + right) / 2, (bottom + top) / 2))
    line = theme.id_line if frame is None else frame
    box.set_fill(theme.cell_fill, opacity=1.0).set_stroke(line, width=FRAME_WIDTH)
    box.set_z_index(STRIP_Z)
    numbers.set_z_index(STRIP_Z + 1)
    marks.set_z_index(STRIP_Z + 1)
    return RowStrip(box, numbers, marks, source_row=row)


class Carry(Animation):
    """A row's strip lifts off, travels a polyline, and lands in its output row.

    Parameters
    ----------
    grid
        The matrix.
    row
        The row it copies.
    chip
        The ID's chip; once the strip lands it stands for the output row's tag
        (None when no chip fetched the row, e.g. a slip's wrong row).
    tag
        The output row's ``output_id`` cell: the chip stands for it once landed
        (None when the chip keeps the cell it has).
    targets
        The output row's numbers, already in their slots; they replace the
        strip's numbers when it lands.
    waypoints
        Where the strip's reference point (its box's centre) goes after its
        start, in order; the last is its landing place.
    theme
        Colours.
    frame
        The frame's colour: amber (``id_line``) for the row an ID fetches
        (the default), the neutral ``wrong`` for a row no ID selected (a
        slip's): amber means "this token ID" only.
    place
        The frame of the place it lands in, when that is drawn apart from
        the output block (a slip's or a trace's vector): it appears as the
        strip lands, under the numbers (standing there empty before, it
        showed as a second frame beside the travelling strip).
    pace
        The rate along its way (from
        :func:`~embedviz.render.parts.drawer.drawer_pace`: out of its row
        quickly, then easing home); by default eased in and out.
    **kwargs
        Passed to :class:`manim.Animation`.
    """

    def __init__(
        self,
        grid: CellGrid,
        row: int,
        chip: Chip | None,
        tag: NumberCell | None,
        targets: Sequence[NumberText],
        waypoints: Sequence[np.ndarray],
        theme: Theme,
        frame: str | None = None,
        place: VMobject | None = None,
        pace: Callable[[float], float] = smooth,
        **kwargs: Any,
    ) -> None:
        self.strip = RowStrip(source_row=row)
        self.place = place
        self.pace = pace
        super().__init__(self.strip, rate_func=linear, introducer=True, **kwargs)
        self.grid, self.row, self.chip, self.tag = grid, row, chip, tag
        self.targets = list(targets)
        self.waypoints = [np.asarray(p, dtype=float) for p in waypoints]
        self.theme = theme
        self.frame = theme.id_line if frame is None else frame
        self.moved = np.zeros(3)
        self.path = np.zeros((0, 3))
        self.lengths = np.zeros(0)
        self.scene_ref: Scene | None = None
        self.landed = False
        self.shade: FrameShade | None = None
        # Whether its chip rides at its right end all the way home (set by the motion that
        # times the two, see :mod:`~embedviz.render.parts.ride`): the ID labels its copy.
        self.rides = False

    def _setup_scene(self, scene: Scene) -> None:
        # The scene, to hand over to the output numbers as soon as this finishes.
        self.scene_ref = scene
        super()._setup_scene(scene)

    def begin(self) -> None:
        """Build the strip on its row (only now, so nothing of it shows before its turn)."""
        built = make_strip(self.grid, self.row, self.theme, self.frame)
        self.strip.add(*built.submobjects)
        self.start_from_box()
        super().begin()

    def start_from_box(self) -> None:
        """Set the path and the place it leaves from the strip's box, and what hides it there.

        A subclass that builds its strip elsewhere (a hidden row's band) calls
        this once the strip is built.
        """
        box = self.strip[0]
        start = box.get_center()
        self.path = np.array([start, *self.waypoints])
        self.lengths = np.concatenate(
            [[0.0], np.cumsum(np.linalg.norm(np.diff(self.path, axis=0), axis=1))]
        )
        low, high = box.get_corner(xyz(-1, -1)), box.get_corner(xyz(1, 1))
        self.source_box = (float(low[0]), float(low[1]), float(high[0]), float(high[1]))
        body = body_box(self.grid)
        self.cover = cover_box(body, self.source_box, self.path[-1], emerge_air())
        # When (a share of its run) it is wholly out past the matrix's edge: riding, its
        # numbers fade in over the next ``fade`` of its run (see interpolate_mobject).
        self.out_at = self._time_out()
        self.fade = numbers_fade(seconds_of(self), self.out_at)
        # Where its numbers may read only as this row's: level with its source row
        # (beside the matrix, short of the output block) or with its output row.
        landing = [float(t.get_left()[0]) for t in self.targets]
        self.block_left = min(landing, default=np.inf)
        self.lines = (
            (low[1] + high[1]) / 2,
            float(np.mean([t.get_center()[1] for t in self.targets])) if self.targets else np.inf,
        )
        # Not riding, its numbers show only where it is level with its rows: over each
        # stretch of its run where they may, they fade in as a riding strip's do.
        self.stretches = [] if self.rides else self._stretches(seconds_of(self))
        # Sliding out of the matrix's right edge, its numbers show cell by cell, each once
        # its cell is a column (and a pixel) clear of that edge (parts/level_cells).
        column = max((s.size for s in self.grid.col_slots if not s.gap), default=0.0)
        clear = body_box(self.grid)[2] + column + float(config.frame_height) / 720
        self.cells = level_cells(self, clear, functools.partial(stretch_fade, seconds_of(self)))
        # Its box shows only as much as its numbers until they are whole (parts/strip_frame).
        self.shade = frame_shade(self, lambda a: self._shown(a, self._moved(a)))

    def _shown(self, alpha: float, moved: Box) -> np.ndarray:
        """Return each of its texts' opacity at ``alpha`` (at ``moved``): by either rule."""
        count = len(self.strip[1].submobjects) + len(self.strip[2].submobjects)
        cells = self.cells.shown(alpha, moved) if self.cells else np.zeros(count)
        return np.maximum(self._today(alpha), cells)

    def _today(self, alpha: float) -> float:
        """Return its numbers' opacity at ``alpha`` by the wholly-out rule (riding or not)."""
        if self.rides:
            return min(1.0, max(0.0, (alpha - self.out_at) / self.fade))
        return self._walking_shown(alpha, self._moved(alpha))

    def _time_out(self, samples: int = 400) -> float:
        """Return the share of its run at which its left end first passes the matrix's edge.

        (Past :attr:`cover`'s right side, sampled along its run at its pace; 1 when it never does.)
        """
        for alpha in np.linspace(0.0, 1.0, samples + 1):
            if self.source_box[0] + float(self._offset(float(alpha))[0]) >= self.cover[2]:
                return float(alpha)
        return 1.0

    def _stretches(self, seconds: float, samples: int = 400) -> list[tuple[float, float]]:
        """Return the start (a share of its run) and fade of each stretch its numbers may show in.

        A stretch is where, sampled along its run, it is out of the matrix and level with
        one of its rows (:meth:`_may_show`); its numbers fade in over :func:`stretch_fade`
        of it (by distance alone, on a fast carry, they popped on as it turned level).
        """
        alphas = np.linspace(0.0, 1.0, samples + 1)
        may = [self._may_show(self._moved(float(alpha))) > 0 for alpha in alphas]
        found: list[tuple[float, float]] = []
        for k, shows in enumerate(may):
            if shows and (k == 0 or not may[k - 1]):
                end = next((j for j in range(k, samples + 1) if not may[j]), samples + 1) - 1
                start = float(alphas[k])
                found.append((start, stretch_fade(seconds, start, float(alphas[end]))))
        return found

    def _moved(self, alpha: float) -> Box:
        """Return the strip's box at ``alpha``."""
        dx, dy = (float(v) for v in self._offset(alpha)[:2])
        left, bottom, right, top = self.source_box
        return left + dx, bottom + dy, right + dx, top + dy

    def _may_show(self, moved: Box) -> float:
        """Return how much of its numbers may show at ``moved``, a strip whose chip leads.

        Out past the matrix's edge (over :data:`SHOW_RAMP`), and only where they cannot
        read as another row's (:meth:`_unambiguous`).
        """
        shown = min(1.0, max(0.0, (moved[0] - self.cover[2]) / SHOW_RAMP))
        return shown * self._unambiguous(moved)

    def _walking_shown(self, alpha: float, moved: Box) -> float:
        """Return its numbers' opacity at ``alpha`` (at ``moved``), a strip whose chip leads.

        Where they may show, faded in from the start of the stretch (:attr:`stretches`).
        """
        start, fade = next(((a, f) for a, f in reversed(self.stretches) if a <= alpha), (1.0, 1.0))
        return self._may_show(moved) * min(1.0, max(0.0, (alpha - start) / fade))

    def clearance(self) -> float:
        """Return how far its strip is clear of the row it leaves (negative: still over it).

        Before it begins (built, it starts in its row), it is still wholly over it.
        """
        if not hasattr(self, "source_box"):
            return -np.inf
        left, bottom, right, top = self.source_box
        dx, dy = abs(float(self.moved[0])), abs(float(self.moved[1]))
        return max(dx - (right - left), dy - (top - bottom))

    def to_land(self) -> float:
        """Return how far its strip is from where it lands (before it begins: unknown, infinite)."""
        if not len(self.path):
            return float(np.inf)
        return float(np.linalg.norm(self.path[-1] - self.path[0] - self.moved))

    def create_starting_mobject(self) -> VMobject:
        """Return an empty stand-in: nothing reads it."""
        return VMobject()

    def _offset(self, alpha: float) -> np.ndarray:
        total = float(self.lengths[-1])
        if total <= 0:
            return np.zeros(3)
        distance = self.pace(alpha) * total
        leg = min(
            max(int(np.searchsorted(self.lengths, distance, side="right")) - 1, 0),
            len(self.path) - 2,
        )
        span = self.lengths[leg + 1] - self.lengths[leg]
        along = 0.0 if span <= 0 else (distance - self.lengths[leg]) / span
        point: np.ndarray = self.path[leg] + (self.path[leg + 1] - self.path[leg]) * along
        offset: np.ndarray = point - self.path[0]
        return offset

    def interpolate_mobject(self, alpha: float) -> None:
        """Move the strip to where it is at ``alpha`` (:meth:`_slide`, as its kind draws it)."""
        self._slide(alpha)

    def _slide(self, alpha: float) -> None:
        """Move the strip to where it is at ``alpha``: it comes out from behind the matrix.

        It moves as one unit from under its row, drawn only clear of the matrix
        (:func:`cover_box`), open at the matrix's edge. Its numbers show as
        :meth:`_shown` says (:attr:`cells`, :meth:`_today`), and its box, until
        they are whole, only as much as they do (:attr:`shade`): never an empty
        part of a box (three 720p reviews).
        """
        offset = self._offset(alpha)
        self.strip.shift(offset - self.moved)
        self.moved = offset
        left, bottom, right, top = self.source_box
        dx, dy = float(offset[0]), float(offset[1])
        moved = (left + dx, bottom + dy, right + dx, top + dy)
        out = clear_part(moved, self.cover)
        box, numbers, marks = self.strip[0], self.strip[1], self.strip[2]
        shown = self._shown(alpha, moved)
        for text, value in zip([*numbers.submobjects, *marks.submobjects], shown, strict=True):
            text.set_fill(opacity=float(value))
        if out is None:
            box.set_fill(opacity=0.0).set_stroke(opacity=0.0)
            return
        x0, y0, x1, y1 = out
        corners = [xyz(x0, y1), xyz(x1, y1), xyz(x1, y0), xyz(x0, y0)]
        # The side at the matrix's edge is left open (the strip goes on behind it).
        sides = [out[0] > left + dx + 1e-9, out[3] < top + dy - 1e-9]
        sides += [out[2] < right + dx - 1e-9, out[1] > bottom + dy + 1e-9]
        open_side = next((k for k, cut in enumerate(sides) if cut), None)
        if open_side is None:
            box.set_points_as_corners([*corners, corners[0]])
        else:
            # Start just past the open side: left (0), top (1), right (2), bottom (3).
            turn = corners[open_side:] + corners[:open_side]
            box.set_points_as_corners(turn)
        box.set_fill(opacity=1.0).set_stroke(opacity=1.0)
        if self.shade is not None:
            self.shade.paint(box, out, moved[0], shown, alpha)

    def _unambiguous(self, moved: Box) -> float:
        """Return 1 where the strip, at ``moved``, is level with its own rows only, else 0.

        Level (within a third of a row) with its source row and short of the
        output block, it is a copy beside its row; level with its output row,
        it is landing. Anywhere else, beside another row of the matrix or over
        another output row, its numbers read as that row's values (a 720p
        review: row 2's copy beside output row 3's ID, row 50256's beside row
        50255): there it travels as its amber box alone. The numbers fade over
        the sixth of a row between a third and a half of a row off the line.
        """
        height = moved[3] - moved[1]
        centre = (moved[1] + moved[3]) / 2

        def level(line: float) -> float:
            off = abs(centre - line)
            return min(1.0, max(0.0, (height / 2 - off) / (height / 6)))

        source, target = self.lines
        beside = level(source) if moved[2] <= self.block_left + 1e-6 else 0.0
        return max(beside, level(target))

    def finish(self) -> None:
        """Land at once, so that a later step of a succession sees the output row filled."""
        super().finish()
        if self.scene_ref is not None:
            self._land(self.scene_ref)

    def clean_up_from_scene(self, scene: Scene) -> None:
        """Land, if :meth:`finish` has not."""
        self._land(scene)

    def _land(self, scene: Scene) -> None:
        """Hand over: the output numbers take the strip's place, the chip becomes the row's tag."""
        if self.landed:
            return
        self.landed = True
        marks = list(self.strip[2].submobjects)
        scene.remove(self.strip)
        for mark in marks:
            mark.set_z_index(0).set_fill(opacity=1.0)
        if self.chip is not None and self.tag is not None:
            self.chip.become_tag(self.tag)
        places = [self.place] if self.place is not None else []
        scene.add(*places, *self.targets, *marks)


def stretch_fade(seconds: float, start: float, end: float) -> float:
    """Return the share of its run over which a strip's numbers fade in from ``start`` (a share).

    :data:`NUMBERS_FADE` of a run of ``seconds``, and at least
    :data:`NUMBERS_FADE_SECONDS`, but no more than :data:`FADE_OF_RIDE` of the
    stretch from ``start`` to ``end`` where they may show: whole before it ends.

    Examples
    --------
    >>> round(stretch_fade(0.311, 0.45, 1.0), 3)  # MiniLM's rest: level with its row, landing
    0.367
    """
    wanted = max(NUMBERS_FADE, NUMBERS_FADE_SECONDS / seconds) if seconds > 0 else NUMBERS_FADE
    return max(min(wanted, FADE_OF_RIDE * (end - start)), 1e-9)


def numbers_fade(seconds: float, out_at: float) -> float:
    """Return the share of its run over which a riding strip's numbers fade in.

    :data:`NUMBERS_FADE` of a run of ``seconds``, and at least
    :data:`NUMBERS_FADE_SECONDS`, but no more than :data:`FADE_OF_RIDE` of
    what is left of the run once it is out (at ``out_at``): whole before it
    lands. A strip that is never out (``out_at`` 1) gets a sliver (its
    numbers never show while it rides).

    Examples
    --------
    >>> round(numbers_fade(2.5, 0.36), 3)  # the toy's carry: its share
    0.08
    >>> round(numbers_fade(0.8, 0.36), 3)  # faster: 0.2 s of it
    0.25
    >>> round(numbers_fade(0.5, 0.4), 3)  # a short ride: two thirds of it
    0.4
    """
    return stretch_fade(seconds, out_at, 1.0)


def body_box(grid: CellGrid) -> Box:
    """Return the matrix body's box (its cells' filled background)."""
    body = grid.body[0]
    low, high = body.get_corner(xyz(-1, -1)), body.get_corner(xyz(1, 1))
    return float(low[0]), float(low[1]), float(high[0]), float(high[1])


def emerge_air() -> float:
    """Return how far past the matrix's right edge a strip coming out of it is first drawn.

    Past its row's amber outline (the outline's buffer and half its stroke),
    half the strip's own stroke, and :data:`CLEAR_PX` of air: drawn from the
    matrix's edge, the strip and the outline of the row it leaves read as one
    long frame, the row with an extra empty cell (a 720p review).
    """
    return OUTLINE_REACH + FRAME_WIDTH / 200 + clear_units()


def cover_box(body: Box, source: Box, landing: np.ndarray, air: float = 0.0) -> Box:
    """Return what hides a strip as it leaves: the matrix's body (it slides out from under it).

    A strip that lands right of the matrix comes out of its right edge: the
    body is taken as reaching up and down without end, and ``air`` past that
    edge (see :func:`emerge_air`), so that no part of the strip shows over or
    under the matrix (over the column labels) or against its row's outline
    before it is past that edge.
    """
    left, bottom, right, top = body
    if float(landing[0]) - (source[2] - source[0]) / 2 >= right - 1e-6:
        return left, -np.inf, right + air, np.inf
    return left, min(bottom, source[1]), right, max(top, source[3])


def clear_part(moved: Box, source: Box) -> Box | None:
    """Return the largest part of the box ``moved`` that is clear of ``source`` (None: none is).

    What is left of ``moved`` beside ``source`` (left or right of it) and above
    or below it are bands; the largest is returned (all of ``moved`` when they
    do not overlap). Against a matrix taken as reaching up and down without
    end (:func:`cover_box`), it is the part out past the matrix's edge.
    """
    left, bottom, right, top = moved
    s_left, s_bottom, s_right, s_top = source
    if left >= s_right or right <= s_left or bottom >= s_top or top <= s_bottom:
        return moved
    bands = [
        (max(left, s_right), bottom, right, top),
        (left, bottom, min(right, s_left), top),
        (left, max(bottom, s_top), right, top),
        (left, bottom, right, min(top, s_bottom)),
    ]
    sized = [max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1]) for b in bands]
    best = max(range(len(bands)), key=lambda k: sized[k])
    return bands[best] if sized[best] > 1e-12 else None
