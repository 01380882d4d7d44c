"""A window on a real-sized table that scrolls like a spreadsheet (LargeVocabLookup's matrix).

A GPT-2-sized E cannot be drawn: :class:`ScrollingMatrix` shows a window of
it (a :class:`~embedviz.render.parts.grid.CellGrid` whose hidden ranges are
thin bands labelled in the margin), and scrolls to another window between
beats. The rows that stay in both windows at the top and the bottom hold
still (or close up); the rows between them slide as one sheet through that
band, and a row is gone by the time it crosses the band's edge, as if the
band clipped it (:class:`SheetScroll`), while a scroll bar beside the grid
(:class:`ScrollBar`) shows where the window is among all V rows. A row the
window hides is fetched from its band: :meth:`source` gives the band's place
for it (no outline is drawn round a band: it holds a label, not the ID's row).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from manim import Animation, Line, Rectangle, Scene, Transform, VGroup, VMobject
from manim.utils.rate_functions import smooth

from embedviz.render.design import SPACE, Theme, maths
from embedviz.render.glyphs import NumberText, SansText
from embedviz.render.metrics import digit_height, xyz
from embedviz.render.parts.chips import Follow
from embedviz.render.parts.grid import CellGrid, GridSizes, row_slots
from embedviz.render.parts.lookup import MatrixPart
from embedviz.render.parts.matrix_grid import matrix_grid
from embedviz.render.solver import LookupPlan
from embedviz.render.stage import StageHost
from embedviz.story.model import NumberCell, Storyboard, Window

__all__ = ["ScrollBar", "ScrollingMatrix", "SheetScroll", "body_height"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]
# A scroll holds still for this first share of its run while what leaves fades out,
# and for this last share while what comes fades in; rows move only in between, so
# nothing half-faded lies over a row passing (two sets of numbers, one through the other).
_STILL = 0.2


def body_height(window: Window, sizes: GridSizes) -> float:
    """Return the height of a window's grid body (rows and thin bands)."""
    return float(sum(slot.size for slot in row_slots(window, sizes)))


def _slots(window: Window) -> list[tuple[str, int, int]]:
    """Return a window's rows and hidden ranges, top to bottom, as (kind, first, last)."""
    items = [("row", row, row) for row in window.rows]
    items += [("gap", gap.first, gap.last) for gap in window.row_gaps]
    return sorted(items, key=lambda item: item[1])


@dataclass
class _Track:
    """One row while a window scrolls: where it goes and how it fades."""

    group: VGroup
    start: float  # its centre line at the start
    end: float  # and at the end
    sheet_top: float | None = None  # its top on the sliding sheet (None: not on it)
    fade: str = ""  # "out" or "in" when it fades in place (no sheet), else ""
    parts: list[VMobject] = field(default_factory=list)
    y: float = 0.0  # where it is drawn now
    reach: float = 0.0  # how far its slot may leave the band before its texts do


@dataclass
class _Sheet:
    """The band the sheet slides through, and the sheet's offsets before and after."""

    top: float
    bottoms: tuple[float, float]
    offsets: tuple[float, float]
    row_h: float


class SheetScroll(Animation):
    """Scroll a grid from one window to another of the same columns.

    On one sheet (the windows' middle rows lie on one ordered strip of the
    table), the middle rows slide through the band between the rows that
    stay; a row fades as its slot crosses the band's edge and is gone before
    its texts do, so that it never stands over a row that stays (the band
    clips it). Otherwise the rows that leave fade out, then those that stay
    move, then those that come fade in. The grid's rules and bands give way
    to its plain background while it moves, and the hidden ranges' labels
    are shown only while the rows hold still (before and after, when they
    are true). The new grid replaces the old one when the scroll ends.

    Parameters
    ----------
    old, new
        The grid on screen and the grid of the window reached (placed, not on screen).
    tracks
        Every row that is drawn during the scroll.
    sheet
        The sliding sheet, or None for a scroll by fades.
    **kwargs
        Passed to :class:`manim.Animation`.
    """

    def __init__(
        self,
        old: CellGrid,
        new: CellGrid,
        tracks: Sequence[_Track],
        sheet: _Sheet | None,
        **kwargs: Any,
    ) -> None:
        self.old, self.new, self.tracks, self.sheet = old, new, list(tracks), sheet
        self.arriving = [t.group for t in self.tracks if t.group not in old.rows_group.values()]
        moving = VGroup(old.body[0], *[t.group for t in self.tracks])
        moving.add(*old.gap_labels.values(), *new.gap_labels.values())
        kwargs.setdefault("rate_func", smooth)
        super().__init__(moving, introducer=True, **kwargs)
        self.scene_ref: Scene | None = None
        self.heights = (old.height_of_body, new.height_of_body)
        self.swapped = False

    def _setup_scene(self, scene: Scene) -> None:
        # Nothing is added before the scroll starts (the rows that come stay off screen).
        self.scene_ref = scene

    def create_starting_mobject(self) -> VMobject:
        """Return an empty stand-in: nothing reads it."""
        return VMobject()

    def begin(self) -> None:
        """Put the coming rows and labels on screen, unseen; hide the old grid's rules and bands."""
        scene = self.scene_ref
        for track in self.tracks:
            track.parts = [
                m for m in track.group.get_family() if isinstance(m, VMobject) and len(m.points)
            ]
            track.y = track.start
            track.reach = _reach(track.group, track.start, self.sheet)
        if scene is not None:
            scene.add(*self.arriving, *self.new.gap_labels.values())
        for part in self.old.body[1:]:
            part.set_stroke(opacity=0.0).set_fill(opacity=0.0)
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        """Place every row (and its opacity), the labels and the background at ``alpha``."""
        moved = float(np.clip((alpha - _STILL) / (1 - 2 * _STILL), 0.0, 1.0))
        gone = float(np.clip(1 - alpha / _STILL, 0.0, 1.0))
        come = float(np.clip((alpha - 1 + _STILL) / _STILL, 0.0, 1.0))
        for track in self.tracks:
            y, seen = self._place(track, moved, (gone, come))
            track.group.shift(xyz(0, y - track.y))
            track.y = y
            for part in track.parts:
                part.set_fill(opacity=seen, family=False)
        for label in self.old.gap_labels.values():
            label.set_fill(opacity=gone)
        for label in self.new.gap_labels.values():
            label.set_fill(opacity=come)
        background = self.old.body[0]
        top = self.old.body_top()
        height = self.heights[0] + (self.heights[1] - self.heights[0]) * moved
        background.stretch_to_fit_height(max(height, 1e-3))
        background.move_to(xyz(background.get_center()[0], top - height / 2))

    def _place(
        self, track: _Track, moved: float, fades: tuple[float, float]
    ) -> tuple[float, float]:
        """Return a row's centre line and opacity.

        ``moved`` is how far the rows have gone (0 to 1), ``fades`` the
        opacity of what leaves and of what comes.
        """
        sheet = self.sheet
        if track.sheet_top is None or sheet is None:
            y = track.start + (track.end - track.start) * moved
            if track.fade == "out":
                return y, fades[0]
            if track.fade == "in":
                return y, fades[1]
            return y, 1.0
        offset = sheet.offsets[0] + (sheet.offsets[1] - sheet.offsets[0]) * moved
        bottom = sheet.bottoms[0] + (sheet.bottoms[1] - sheet.bottoms[0]) * moved
        top = sheet.top - (track.sheet_top - offset)
        # How far its slot sticks out of the band, past its top or its bottom.
        out = max(top - sheet.top, bottom - (top - sheet.row_h))
        seen = float(np.clip(1 - out / track.reach, 0.0, 1.0)) if out > 0 else 1.0
        return top - sheet.row_h / 2, seen

    def finish(self) -> None:
        """End at once, so that a later step of the same play finds the new grid on screen."""
        super().finish()
        if self.scene_ref is not None:
            self._swap(self.scene_ref)

    def clean_up_from_scene(self, scene: Scene) -> None:
        """Swap the grids, if :meth:`finish` has not."""
        self._swap(scene)

    def _swap(self, scene: Scene) -> None:
        """Replace the old grid by the new one, every part at full strength."""
        if self.swapped:
            return
        self.swapped = True
        # Every part: the scene may hold a group's parts rather than the group.
        leaving = [self.old, *self.arriving, *self.new.gap_labels.values()]
        scene.remove(*[part for group in leaving for part in group.get_family()])
        for track in self.tracks:
            for part in track.parts:
                part.set_fill(opacity=1.0, family=False)
        for label in self.new.gap_labels.values():
            label.set_fill(opacity=1.0)
        scene.add(self.new)


def _reach(group: VGroup, y: float, sheet: _Sheet | None) -> float:
    """Return the room between a row's slot (about its centre line ``y``) and its texts' ink."""
    if sheet is None or not len(group.submobjects):
        return 0.0
    top, bottom = float(group.get_top()[1]), float(group.get_bottom()[1])
    room = min(y + sheet.row_h / 2 - top, bottom - (y - sheet.row_h / 2))
    # Texts that fill their slot: the row is gone as soon as it starts to cross.
    return max(room, 1e-6)


def plan_scroll(old: CellGrid, new: CellGrid, windows: tuple[Window, Window]) -> SheetScroll:
    """Build the scroll from ``old`` (showing the first window) to ``new`` (the second).

    Parameters
    ----------
    old, new
        The two grids, placed at the same top-left corner.
    windows
        Their windows (the same columns).

    Returns
    -------
    SheetScroll
        On one sheet when the middle rows of both windows lie on one strip
        of the table, else by fades.
    """
    before, after = _slots(windows[0]), _slots(windows[1])
    prefix = 0
    while (
        prefix < min(len(before), len(after))
        and before[prefix] == after[prefix]
        and before[prefix][0] == "row"
    ):
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(before), len(after)) - prefix
        and before[-1 - suffix] == after[-1 - suffix]
        and before[-1 - suffix][0] == "row"
    ):
        suffix += 1
    fixed = [s[1] for s in before[:prefix] + before[len(before) - suffix :]]
    tracks = [_Track(old.get_row(r), old.row_y(r), new.row_y(r)) for r in fixed]
    sheet = _sheet(old, new, before, after, prefix, suffix)
    if sheet is None:
        return SheetScroll(old, new, tracks + _fading(old, new, windows, fixed), None)
    tops, band = sheet
    for row in sorted({*windows[0].rows, *windows[1].rows} - set(fixed)):
        grid = old if row in windows[0].rows else new
        start = old.row_y(row) if grid is old else new.row_y(row)
        end = new.row_y(row) if row in windows[1].rows else start
        tracks.append(_Track(grid.get_row(row), start, end, sheet_top=tops[row]))
    return SheetScroll(old, new, tracks, band)


def _fading(
    old: CellGrid, new: CellGrid, windows: tuple[Window, Window], fixed: list[int]
) -> list[_Track]:
    """Return the middle rows of a scroll by fades: leaving ones fade out, coming ones fade in."""
    tracks = []
    for row in sorted({*windows[0].rows, *windows[1].rows} - set(fixed)):
        if row in windows[0].rows and row in windows[1].rows:
            tracks.append(_Track(old.get_row(row), old.row_y(row), new.row_y(row)))
        elif row in windows[0].rows:
            y = old.row_y(row)
            tracks.append(_Track(old.get_row(row), y, y, fade="out"))
        else:
            y = new.row_y(row)
            tracks.append(_Track(new.get_row(row), y, y, fade="in"))
    return tracks


def _sheet(
    old: CellGrid,
    new: CellGrid,
    before: list[tuple[str, int, int]],
    after: list[tuple[str, int, int]],
    prefix: int,
    suffix: int,
) -> tuple[dict[int, float], _Sheet] | None:
    """Lay the middle rows of both windows on one sheet; None when they do not lie on one."""
    a_mid, b_mid = before[prefix : len(before) - suffix], after[prefix : len(after) - suffix]
    if not a_mid or not b_mid:
        return None
    low = min(a_mid[0][1], b_mid[0][1])
    high = max(a_mid[-1][2], b_mid[-1][2])
    rows = sorted({s[1] for s in [*a_mid, *b_mid] if s[0] == "row"})
    sheet: list[tuple[str, int]] = []
    previous = low - 1
    for row in [*rows, high + 1]:
        if row - previous > 1:
            sheet.append(("gap", -1))
        if row <= high:
            sheet.append(("row", row))
        previous = row

    def find(mid: list[tuple[str, int, int]]) -> int | None:
        keys = [("gap", -1) if kind == "gap" else ("row", first) for kind, first, _ in mid]
        for start in range(len(sheet) - len(keys) + 1):
            if sheet[start : start + len(keys)] == keys:
                return start
        return None

    first_old, first_new = find(a_mid), find(b_mid)
    if first_old is None or first_new is None:
        return None
    row_h = next(s.size for s in old.row_slots if not s.gap)
    band_h = next(s.size for s in [*old.row_slots, *new.row_slots] if s.gap)
    tops, depth = [], 0.0
    for kind, _ in sheet:
        tops.append(depth)
        depth += row_h if kind == "row" else band_h
    tops.append(depth)
    top = old.body_top() - prefix * row_h

    def bottom(first: int, count: int) -> float:
        return top - (tops[first + count] - tops[first])

    band = _Sheet(
        top=top,
        bottoms=(bottom(first_old, len(a_mid)), bottom(first_new, len(b_mid))),
        offsets=(tops[first_old], tops[first_new]),
        row_h=row_h,
    )
    return {row: tops[i] for i, (kind, row) in enumerate(sheet) if kind == "row"}, band


class ScrollBar(VGroup):
    """A scroll bar for all V rows: a tick per row the window shows, a thumb on the row looked at.

    Parameters
    ----------
    x, top, height
        The bar's centre line, top and length (it stands for rows 0 to V-1, top down).
    vocab
        V.
    theme
        Colours: the track and ticks muted, the thumb in the text colour.
    window, row
        The first window, and the row the thumb starts on.
    """

    def __init__(
        self, x: float, top: float, height: float, vocab: int, theme: Theme, window: Window
    ) -> None:
        super().__init__()
        self.x, self.top, self.length, self.vocab, self.theme = x, top, height, vocab, theme
        self.track = Line(xyz(x, top), xyz(x, top - height), stroke_width=3)
        self.track.set_stroke(theme.muted, opacity=0.7)
        self.ticks = self.ticks_for(window)
        self.thumb = Rectangle(width=0.18, height=max(0.08, height * 0.03))
        self.thumb.set_fill(theme.text, opacity=1.0).set_stroke(width=0)
        self.thumb.move_to(xyz(x, self.row_y(window.rows[0])))
        self.add(self.track, self.ticks, self.thumb)

    def row_y(self, row: int) -> float:
        """Return the height on the bar that stands for a row of the table."""
        return float(self.top - self.length * (row + 0.5) / self.vocab)

    def ticks_for(self, window: Window) -> VGroup:
        """Return a tick for each row a window shows."""
        ticks = VGroup(
            *[
                Line(xyz(self.x - 0.07, y), xyz(self.x + 0.07, y), stroke_width=2)
                for y in (self.row_y(row) for row in window.rows)
            ]
        )
        return ticks.set_stroke(self.theme.muted, opacity=0.9)

    def follow(self, window: Window, row: int | None) -> list[Animation]:
        """Move the ticks to a window's rows and the thumb to ``row`` (a pure shift)."""
        moves: list[Animation] = [Transform(self.ticks, self.ticks_for(window))]
        if row is not None:
            dy = self.row_y(row) - self.thumb.get_center()[1]
            moves.append(Follow(self.thumb, np.array([xyz(0, 0), xyz(0, dy)])))
        return moves


class ScrollingMatrix(MatrixPart):
    """E as a window that scrolls, with its scroll bar and its count of parameters.

    Parameters
    ----------
    host
        The scene.
    board
        The storyboard (its beats' windows are the windows scrolled through).
    cells
        Every cell of the storyboard, by (kind, index): the weights of every window.
    plan
        Where things go (the plan keeps a column for the bar right of the matrix).
    theme
        Colours.
    """

    def __init__(
        self, host: StageHost, board: Storyboard, cells: Cells, plan: LookupPlan, theme: Theme
    ) -> None:
        super().__init__(host, board, cells, plan, theme)
        self.board, self.cells, self.plan = board, cells, plan
        self.window = board.beats[0].window
        tallest = max(body_height(beat.window, plan.sizes) for beat in board.beats)
        bar_x = plan.matrix_left + plan.body_width + plan.bar_width / 2
        self.bar = ScrollBar(bar_x, plan.matrix_top, tallest, board.vocab_size, theme, self.window)
        label = plan.scale.label
        count = cells.get(("param_count", (0,)))
        self.count: VGroup | None = None
        if count is not None:
            self.count = VGroup(
                maths("V times d =", theme.text, label),
                NumberText(count, label, theme.text),
                SansText(board.word("parameters"), label, theme.muted),
            ).arrange(buff=SPACE)
            # Over the heading, in the band the solver keeps for it (``note_above``): the
            # raised output block leaves it free, where under E it would add height. Two
            # SPACEs over the heading (one left it 12 px over, reading as its first line).
            heading_top = plan.heading_y + digit_height(label) * 0.8
            y = heading_top + 2 * SPACE + digit_height(label) / 2
            self.count.move_to(xyz(0, y)).align_to(self.heading, np.array([-1.0, 0.0, 0.0]))

    def intro(self) -> list[VMobject]:
        """Return the grid, its heading, the legend and the scroll bar."""
        return [*super().intro(), self.bar]

    def _grid(self, window: Window) -> CellGrid:
        """Build a window's grid at the matrix's place."""
        gaps = {n: gap.label for n, gap in enumerate(window.row_gaps)}
        grid = matrix_grid(
            window, self.cells, self.plan.sizes, self.theme, self.board.value_scale, gaps
        )
        grid.shift(
            xyz(
                self.plan.matrix_left - grid.body_left(),
                self.plan.matrix_top - grid.body_top(),
            )
        )
        return grid

    def scroll_to(self, window: Window) -> Animation | None:
        """Scroll to another window; the grid's bookkeeping is the new window's at once.

        Animations built after this call (a chip walking to a row that is
        arriving) find rows where they will be.

        Returns
        -------
        Animation or None
            The scroll, or None when the window is the one shown.
        """
        if window == self.window:
            return None
        old, new = self.grid, self._grid(window)
        scroll = plan_scroll(old, new, (self.window, window))
        self.grid, self.window = new, window
        return scroll

    # -- a row, or the band that hides it ------------------------------------------------
    def _band(self, row: int) -> tuple[float, float]:
        """Return the centre line and height of the band that hides ``row`` in this window."""
        for number, gap in enumerate(self.window.row_gaps):
            if gap.first <= row <= gap.last:
                slot = next(s for s in self.grid.row_slots if s.gap and s.key == number)
                return self.grid.row_y(number, gap=True), slot.size
        raise ValueError(f"row {row} is neither shown nor hidden in this window")

    def source(self, row: int) -> tuple[float, float, float]:
        """Return the left and right ends and the centre line a row's strip leaves from."""
        left, right = self.grid.body_left(), self.grid.body_right()
        if row in self.window.rows:
            return left, right, self.grid.row_y(row)
        return left, right, self._band(row)[0]
