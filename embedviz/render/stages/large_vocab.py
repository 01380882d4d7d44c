"""The large-vocabulary layout: a scrolling grid, a line of chips, an output block.

A GPT-2-sized table cannot be drawn, so the grid shows a window of it with
labelled gaps, and the window scrolls between beats like a spreadsheet: the
rows that stay in every window (the first two, the last) hold still, and the
rows between them slide through that band as one sheet (rows leaving at one
edge fade out there, rows arriving at the other fade in), while each gap's
label always names exactly the rows hidden between what is visible. A scroll
bar beside the grid stands for all V rows; its thumb travels with the sheet.

Left to right: a lane for parked chips, the row numbers, the grid, the scroll
bar, a narrow corridor, the output block and its provenance labels. A copied
row leaves the grid to the right at its own height, into the output block's
empty rows, then rises to its output row: the output block is placed so that
every copied row starts at or below its output row, and rows fill top down,
so the strip only ever crosses empty rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Circumscribe,
    Create,
    Dot,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    Mobject,
    Rectangle,
    Scene,
    Succession,
    Transform,
    VGroup,
    VMobject,
)
from manim.utils.rate_functions import linear, smooth

from embedviz.render.animations import (
    Steps,
    make_copy_row_animation,
    make_lookup_animation,
    make_return_animation,
    make_reveal_animation,
    make_walk_animation,
    steps_together,
)
from embedviz.render.components import ChipLane, GridPanel, OutputPanel
from embedviz.render.design import USED_CHIP_OPACITY
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.layout import (
    CHIP_FONT,
    CORRIDOR_MARGIN,
    HEADING_FONT,
    LABEL_RATIO,
    MAX_NUMBER_FONT,
    MIN_NUMBER_PX,
    NOTE_FONT,
    ROW_PITCHES,
    SPACE,
    fit_font,
    frame_regions,
    place_legend,
)
from embedviz.render.mobjects import (
    GAP_ROW_PITCH,
    ColourLegend,
    GridMetrics,
    MatrixGrid,
    ShapeLabel,
    TokenChip,
    char_advance,
    digit_height,
    font_for_px,
    grid_metrics_at,
    grid_width_per_font,
    xyz,
)
from embedviz.render.output_block import OutputBlock
from embedviz.render.stage import Stage, register_stage
from embedviz.render.theme import Theme
from embedviz.story.model import Beat, Gap, NumberCell, Window
from embedviz.story.window import hidden_ranges

__all__ = ["LargeVocabStage", "ScrollingGrid"]

_GAP_TEXT_SCALE = 0.75  # gap labels, relative to the numbers
_LABEL_GAP = 0.18  # between a row's number and the grid (as MatrixGrid)
_LANE_GAP = 0.12  # between a parked chip and the row numbers
_MAP_WIDTH = 0.5  # the scroll bar's column, right of the grid
_SCROLL_TIME = 1.2
_CAPTION_HALF_HEIGHT = 0.36  # a two-line caption reaches this far above its centre line
_BODY_Z = -1  # the grid's outline and background
_LANDED_Z = 1  # numbers copied into the output block
_DONE_OPACITY = USED_CHIP_OPACITY  # a chip whose row has landed, as make_return_animation leaves it


def _late(alpha: float) -> float:
    """Wait for three quarters of the time, then run (a box drawn as its row arrives)."""
    return float(np.clip((alpha - 0.75) / 0.25, 0.0, 1.0))


def _gap_groups(grid: MatrixGrid) -> list[VGroup]:
    """Return a grid's elision rows (dots and label), top to bottom."""
    return [group for group in grid.gap_labels if isinstance(group, VGroup)]


def _enlarge_gap_labels(grid: MatrixGrid) -> None:
    """Scale a grid's gap labels up to a size that reads at 480p.

    MatrixGrid sizes them for dense grids; this layout has room to spare.
    """
    wanted = grid.metrics.font_size * _GAP_TEXT_SCALE
    for item in grid.gap_labels:
        label = item if isinstance(item, LabelText) else item[1]
        assert isinstance(label, LabelText)
        factor = min(wanted / label.font_size, grid.width_of_body * 0.9 / label.width)
        if factor <= 1:
            continue
        if isinstance(item, LabelText):
            # A column-gap label hangs from the grid's bottom edge.
            item.scale(factor, about_edge=UP)
        else:
            label.scale(factor)
            item[0].next_to(label, LEFT, buff=0.15)


def _ellipsis(font_size: float, colour: str) -> VMobject:
    """Draw an elided column's mark (…) as three dots, in one outline.

    A row's mark travels in its copy and lands with it, and is drawn, not
    typeset: it is not a number or label that anything could be read as.
    """
    step = char_advance(font_size) * 0.3
    radius = digit_height(font_size) * 0.09
    mark = VMobject()
    for k in (-1, 0, 1):
        mark.append_points(Dot(xyz(k * step, 0), radius=radius).points)
    return mark.set_fill(colour, opacity=1.0).set_stroke(width=0)


def _dot_marks(grid: MatrixGrid) -> None:
    """Replace the typeset mark in each elided column of a grid's rows with drawn dots."""
    for group in grid.rows_by_index.values():
        row = group[1]
        for index, part in enumerate(list(row.submobjects)):
            if isinstance(part, LabelText):
                dots = _ellipsis(grid.metrics.font_size, part.get_fill_color().to_hex())
                row.submobjects[index] = dots.move_to(part.get_center())


def _gap_row(gap: Gap, metrics: GridMetrics, theme: Theme, width: float) -> VGroup:
    """Build one elision row (dots and label) as an enlarged MatrixGrid draws it."""
    font = metrics.font_size
    label = LabelText(gap.label, font * 0.7, theme.muted)
    factor = min(font * _GAP_TEXT_SCALE / label.font_size, width * 0.9 / label.width)
    label.scale(factor)
    dots = LabelText("\u22ee", font, theme.muted).next_to(label, LEFT, buff=0.15)
    return VGroup(dots, label)


class _FadeOutAndDrop(FadeOut):
    """Fade out, then cost nothing for the rest of the play.

    Manim redraws every animated object on every frame of a play, faded or
    not. Emptying the points of a row that has left lets the frames after its
    fade skip it; the row is discarded, so nothing restores them.
    """

    def finish(self) -> None:
        super().finish()
        for part in self.mobject.get_family():
            part.clear_points()

    def clean_up_from_scene(self, scene: Scene) -> None:
        # Leave the scene without FadeOut's restoring step: the row is never shown again.
        Transform.clean_up_from_scene(self, scene)


class _BuiltAtStart(Animation):
    """An animation built only when it starts.

    A scroll updates the grid's bookkeeping (where rows and gap labels sit)
    as it is built. Built with the beat, a scroll that is a later step of it
    would show the grid half moved while the steps before it play; built as
    its step starts, it finds the grid as the earlier steps left it.
    """

    def __init__(
        self, build: Callable[[], Animation | None], run_time: float, **kwargs: Any
    ) -> None:
        self.build = build
        self.inner: Animation | None = None
        super().__init__(VMobject(), run_time=run_time, rate_func=linear, **kwargs)

    def begin(self) -> None:
        self.inner = self.build()
        if self.inner is not None:
            scene: Scene | None = getattr(self, "scene", None)
            if scene is not None:
                self.inner._setup_scene(scene)
            self.inner.begin()

    def interpolate(self, alpha: float) -> None:
        if self.inner is not None:
            self.inner.interpolate(alpha)

    def finish(self) -> None:
        if self.inner is not None:
            self.inner.finish()

    def _setup_scene(self, scene: Scene | None) -> None:
        self.scene = scene

    def clean_up_from_scene(self, scene: Scene) -> None:
        if self.inner is not None:
            self.inner.clean_up_from_scene(scene)


@dataclass
class _Item:
    """One slot of the sheet that slides: a row, or a gap between rows."""

    kind: str  # "row" or "gap"
    top: float  # distance from the sheet's top to this slot's top
    height: float
    row: int = -1
    span: tuple[int, int] = (0, 0)  # a gap's rows on the sheet
    mobject: VGroup = field(default_factory=VGroup)
    pad: float = 0.0  # room between the slot's edge and its text
    applied: float = 0.0  # the sheet offset the mobject is drawn at
    labels: dict[tuple[int, int], VGroup] = field(default_factory=dict)
    opacities: list[tuple[VMobject, float, float]] = field(default_factory=list)
    stashed: list[np.ndarray] = field(default_factory=list)  # outlines while out of view


def _stash(item: _Item, hide: bool) -> None:
    """Take a row's outlines away while it is out of its band, or give them back."""
    if hide and not item.stashed:
        item.stashed = [part.points for part, _, _ in item.opacities]
        for part, _, _ in item.opacities:
            part.points = np.zeros((0, 3))
    elif not hide and item.stashed:
        for (part, _, _), points in zip(item.opacities, item.stashed, strict=True):
            part.points = points
        item.stashed = []


def _items(window: Window) -> list[tuple[str, int, Gap | None]]:
    """Return a window's rows and row gaps, top to bottom."""
    entries: list[tuple[int, str, int, Gap | None]] = [(r, "row", r, None) for r in window.rows]
    entries += [(gap.first, "gap", -1, gap) for gap in window.row_gaps]
    return [(kind, row, gap) for _, kind, row, gap in sorted(entries, key=lambda e: e[0])]


def _leaves(groups: Sequence[VMobject]) -> list[Mobject]:
    """Return every part of some groups: what the scene must drop, wherever manim put it."""
    return [part for group in groups for part in group.get_family()]


def _size(*windows: Window) -> int:
    """Return V, from the windows' rows and gaps."""
    ends = [r for w in windows for r in w.rows] + [g.last for w in windows for g in w.row_gaps]
    return max(ends) + 1


class ScrollingGrid(MatrixGrid):
    """A :class:`MatrixGrid` whose window can scroll to another set of rows.

    Each window is laid out by MatrixGrid itself, so a scroll lands every
    row, gap and separator exactly where a grid of that window puts it.

    Parameters
    ----------
    window
        The first window.
    numbers
        Every cell that any window shows (``weight``, ``row_label``,
        ``col_label``).
    metrics
        Shared sizes.
    theme
        Colours.
    value_scale
        The magnitude that gets the strongest value colour.
    """

    def __init__(
        self,
        window: Window,
        numbers: Sequence[NumberCell],
        metrics: GridMetrics,
        theme: Theme,
        value_scale: float,
    ) -> None:
        super().__init__(window, numbers, metrics, theme, value_scale)
        self.numbers = list(numbers)
        self.theme = theme
        self.value_scale = value_scale
        _enlarge_gap_labels(self)
        _dot_marks(self)
        # Always behind the numbers, whatever order manim's scene list ends up in.
        self.body.set_z_index(_BODY_Z)
        self.gap_rows = _gap_groups(self)
        self.col_gap_labels = [item for item in self.gap_labels if isinstance(item, LabelText)]

    def _layout(self, window: Window) -> MatrixGrid:
        """Lay a window out as a grid placed over this one (not added to anything)."""
        grid = MatrixGrid(window, self.numbers, self.metrics, self.theme, self.value_scale)
        _enlarge_gap_labels(grid)
        _dot_marks(grid)
        grid.body.set_z_index(_BODY_Z)
        grid.shift(self.body.get_corner(UP + LEFT) - grid.body.get_corner(UP + LEFT))
        return grid

    def body_height(self, window: Window) -> float:
        """Return how tall the grid's outline is for a window."""
        pitch = len(window.rows) + GAP_ROW_PITCH * len(window.row_gaps)
        return float(self.metrics.cell_height * pitch)

    def row_depth(self, window: Window, row: int) -> float:
        """Return how far below the outline's top a row's centre is in a window.

        Parameters
        ----------
        window
            A window that shows ``row``.
        row
            The row.

        Returns
        -------
        float
            The distance, in scene units.
        """
        depth = 0.0
        for kind, index, _ in _items(window):
            if kind == "row" and index == row:
                return depth + self.metrics.cell_height / 2
            depth += self.metrics.cell_height * (1.0 if kind == "row" else GAP_ROW_PITCH)
        raise ValueError(f"row {row} is not in the window")

    def current_gap_labels(self) -> list[LabelText]:
        """Return the gap labels on screen now: hidden rows, then hidden columns."""
        rows = [group[1] for group in self.gap_rows]
        return [label for label in [*rows, *self.col_gap_labels] if isinstance(label, LabelText)]

    def scroll_to(self, window: Window) -> Animation | None:
        """Scroll to another window of the same columns.

        The grid's bookkeeping (cells, row numbers, gap rows, outline) is
        updated at once, so animations built after this call (a chip
        walking to a row that just arrived) find rows where they will be.

        Parameters
        ----------
        window
            The window to show; it must have the same columns.

        Returns
        -------
        Animation or None
            The rows between those that stay put slide as one sheet, fading
            at the edges of their band, with every gap label naming the rows
            hidden at that moment (see :class:`_SheetScroll`); when two
            windows do not lie on one sheet, leaving rows fade out, shared
            rows move, then arriving rows fade in. ``None`` when the window
            is unchanged.
        """
        old = self.window
        if window == old:
            return None
        if window.cols != old.cols:
            raise ValueError("a scroll keeps the columns; only the rows change")
        target = self._layout(window)
        sheet = _SheetScroll.plan(self, old, window, target)
        if sheet is None:
            return self._scroll_by_fades(window, target)
        return sheet

    def _adopt(self, window: Window, target: MatrixGrid) -> tuple[list[VGroup], list[VGroup]]:
        """Take over a window's bookkeeping from its layout; return rows that left and came."""
        old = self.window
        leaving: list[VGroup] = []
        arriving: list[VGroup] = []
        for row in old.rows:
            if row not in window.rows:
                group = self.rows_by_index.pop(row)
                self.remove(*group.submobjects)
                del self.row_labels[row]
                for col in old.cols:
                    del self.cells[(row, col)]
                leaving.append(group)
        for row in window.rows:
            if row not in old.rows:
                group = target.rows_by_index[row]
                self.rows_by_index[row] = group
                self.row_labels[row] = target.row_labels[row]
                for col in window.cols:
                    self.cells[(row, col)] = target.cells[(row, col)]
                self.add(*group.submobjects)
                arriving.append(group)
        self.gap_labels.remove(*self.gap_rows)
        self.gap_rows = _gap_groups(target)
        self.gap_labels.add(*self.gap_rows)
        self.body.submobjects = [part.copy() for part in target.body.submobjects]
        self.body.set_z_index(_BODY_Z)
        self.label_width = max(self.label_width, target.label_width)
        self.window = window
        return leaving, arriving

    def _scroll_by_fades(self, window: Window, target: MatrixGrid) -> Animation:
        """Fade leaving rows out, move shared rows, then fade arriving rows in.

        One after the other, so no two numbers or labels ever share a place.
        """
        old_gaps = list(self.gap_rows)
        moves: list[Animation] = []
        for row in window.rows:
            if row in self.window.rows:
                group = self.rows_by_index[row]
                moved = target.row_labels[row].get_center()[1] - group[0].get_center()[1]
                if abs(moved) > 1e-9:
                    moves.append(Transform(group, group.copy().shift(UP * moved)))
        self.gap_labels.remove(*old_gaps)
        leaving, arriving = self._adopt(window, target)
        # The new rows and gap labels arrive through their fade, not before it.
        for group in arriving:
            self.remove(*group.submobjects)
        self.gap_labels.remove(*self.gap_rows)
        out = [_FadeOutAndDrop(group) for group in [*leaving, *old_gaps]]
        come = [FadeIn(group) for group in [*arriving, *self.gap_rows]]
        phases = [AnimationGroup(*out)] if out else []
        phases += [AnimationGroup(*moves)] if moves else []
        phases += [AnimationGroup(*come)] if come else []
        return Succession(*phases, run_time=_SCROLL_TIME)


class _SheetScroll(Animation):
    """Slide the rows between the fixed ones as one sheet through their band.

    The sheet holds every row of the old and the new window (in order, with
    a gap slot wherever rows are missing). The band between the rows that
    stay put (rows 0 and 1 above, the last row below) is a window onto it:
    the sheet moves by pure shifts, a slot fades out as it crosses the band's
    edge (its text is gone before it reaches a fixed row), and each gap slot
    reads exactly the rows hidden between the rows visible at that moment.
    """

    def __init__(self, grid: ScrollingGrid, **kwargs: Any) -> None:
        # Only the outline and the rows move: the rest of the grid stays in
        # the frame's static image (manim redraws every animated part each frame).
        self.moving = VGroup()
        super().__init__(self.moving, rate_func=smooth, run_time=_SCROLL_TIME, **kwargs)
        self.grid = grid
        self.items: list[_Item] = []
        self.prefix: list[int] = []
        self.suffix: list[VGroup] = []
        self.suffix_rows: list[int] = []
        self.leaving: list[VGroup] = []
        self.old_gaps: list[VGroup] = []
        self.scene_ref: Any = None
        self.view_top = 0.0
        self.offsets = (0.0, 0.0)
        self.bottoms = (0.0, 0.0)
        self.suffix_applied = 0.0
        self.size = 0
        self.body_parts: list[VMobject] = []

    @classmethod
    def plan(
        cls, grid: ScrollingGrid, old: Window, new: Window, target: MatrixGrid
    ) -> _SheetScroll | None:
        """Build the scroll, or return None when the windows do not lie on one sheet."""
        a, b = _items(old), _items(new)

        def same(i: int, j: int) -> bool:
            return a[i][0] == b[j][0] == "row" and a[i][1] == b[j][1]

        prefix = 0
        while prefix < min(len(a), len(b)) and same(prefix, prefix):
            prefix += 1
        suffix = 0
        while suffix < min(len(a), len(b)) - prefix and same(-1 - suffix, -1 - suffix):
            suffix += 1
        a_mid, b_mid = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
        if not a_mid or not b_mid:
            return None
        size = _size(old, new)
        low = a[prefix - 1][1] + 1 if prefix else 0
        high = a[len(a) - suffix][1] - 1 if suffix else size - 1
        rows = sorted({row for kind, row, _ in [*a_mid, *b_mid] if kind == "row"})
        sheet: list[tuple[str, int, tuple[int, int]]] = []
        previous = low - 1
        for row in [*rows, high + 1]:
            if row - previous > 1:
                sheet.append(("gap", -1, (previous + 1, row - 1)))
            if row <= high:
                sheet.append(("row", row, (row, row)))
            previous = row

        def find(mid: list[tuple[str, int, Gap | None]]) -> int | None:
            for start in range(len(sheet) - len(mid) + 1):
                if all(
                    sheet[start + k][0] == kind and (kind == "gap" or sheet[start + k][1] == row)
                    for k, (kind, row, _) in enumerate(mid)
                ):
                    return start
            return None

        first_old, first_new = find(a_mid), find(b_mid)
        if first_old is None or first_new is None:
            return None
        scroll = cls(grid)
        height = grid.metrics.cell_height
        tops = [0.0]
        for kind, _, _ in sheet:
            tops.append(tops[-1] + height * (1.0 if kind == "row" else GAP_ROW_PITCH))
        scroll.view_top = float(grid.body.get_top()[1]) - prefix * height
        scroll.offsets = (tops[first_old], tops[first_new])
        scroll.bottoms = (
            scroll.view_top - (tops[first_old + len(a_mid)] - tops[first_old]),
            scroll.view_top - (tops[first_new + len(b_mid)] - tops[first_new]),
        )
        scroll.size = size
        scroll.prefix = [row for _, row, _ in a[:prefix]]
        scroll.suffix_rows = [row for _, row, _ in a[len(a) - suffix :]]
        scroll.suffix = [grid.rows_by_index[row] for row in scroll.suffix_rows]
        for (kind, row, span), top, bottom in zip(sheet, tops, tops[1:], strict=False):
            item = _Item(kind, top, bottom - top, row, span)
            if kind == "row":
                if row in old.rows:
                    item.mobject, item.applied = grid.rows_by_index[row], scroll.offsets[0]
                else:
                    item.mobject, item.applied = target.rows_by_index[row], scroll.offsets[1]
                item.pad = height / 4
            scroll.items.append(item)
        # The grid takes the new window's bookkeeping now: rows that stay
        # move to where they will be, as do the rows below the band.
        for item in scroll.items:
            if item.kind == "row" and item.row in new.rows:
                item.mobject.shift(UP * (scroll.offsets[1] - item.applied))
                item.applied = scroll.offsets[1]
        for group in scroll.suffix:
            group.shift(UP * (scroll.bottoms[1] - scroll.bottoms[0]))
        scroll.suffix_applied = scroll.bottoms[1]
        scroll.old_gaps = list(grid.gap_rows)
        scroll.leaving, _ = grid._adopt(new, target)
        scroll.body_parts = [part.copy() for part in grid.body.submobjects]
        # The fixed rows too: the outline is redrawn over the static image, and
        # must not hide them.
        groups: list[VGroup] = [
            grid.rows_by_index[row] for row in [*scroll.prefix, *scroll.suffix_rows]
        ]
        groups += [item.mobject for item in scroll.items]
        scroll.moving.add(grid.body, *[part for group in groups for part in group.submobjects])
        return scroll

    def create_starting_mobject(self) -> VMobject:
        # Nothing reads it; a copy of the whole grid would cost a deep copy every scroll.
        return VMobject()

    def _setup_scene(self, scene: Scene) -> None:
        self.scene_ref = scene
        super()._setup_scene(scene)

    def begin(self) -> None:
        # For the length of the scroll, the sheet's gap slots stand in for the
        # grid's gap rows, and the rows that leave are still drawn. The scene
        # is told directly: manim may have split the grid into its parts.
        scene, grid = self.scene_ref, self.grid
        scene.remove(*_leaves([*self.old_gaps, *grid.gap_rows]))
        rows = [item.mobject for item in self.items if item.kind == "row"]
        scene.add(*[part for group in rows for part in group.submobjects])
        scene.add(*[item.mobject for item in self.items if item.kind == "gap"])
        for item in self.items:
            if item.kind == "row":
                item.opacities = [
                    (part, part.get_fill_opacity(), part.get_stroke_opacity())
                    for part in item.mobject.family_members_with_points()
                    if isinstance(part, VMobject)
                ]
        self._build_body()
        super().begin()

    def _offset_and_bottom(self, alpha: float) -> tuple[float, float]:
        (s0, s1), (b0, b1) = self.offsets, self.bottoms
        return s0 + (s1 - s0) * alpha, b0 + (b1 - b0) * alpha

    def _seen(self, item: _Item, offset: float, bottom: float) -> float:
        """Return how visible a slot is: 1 inside the band, 0 once its text meets an edge."""
        top = self.view_top - (item.top - offset)
        inside = min(self.view_top - top, top - item.height - bottom)
        if item.pad <= 0:
            return 1.0 if inside >= -1e-9 else 0.0
        return float(np.clip(1.0 + inside / item.pad, 0.0, 1.0))

    def interpolate_mobject(self, alpha: float) -> None:
        offset, bottom = self._offset_and_bottom(alpha)
        for group in self.suffix:
            group.shift(UP * (bottom - self.suffix_applied))
        self.suffix_applied = bottom
        shown = [*self.prefix, *self.suffix_rows]
        for item in self.items:
            if item.kind != "row":
                continue
            seen = self._seen(item, offset, bottom)
            # A row out of the band has no outline for that frame: nothing to draw.
            _stash(item, hide=seen <= 0)
            if seen <= 0:
                continue
            item.mobject.shift(UP * (offset - item.applied))
            item.applied = offset
            for part, fill, stroke in item.opacities:
                part.set_fill(opacity=fill * seen, family=False)
                part.set_stroke(opacity=stroke * seen, family=False)
            if seen >= 0.5:
                shown.append(item.row)
        gaps = hidden_ranges(sorted(shown), self.size, "row")
        for item in self.items:
            if item.kind == "gap":
                self._show_gap(item, gaps, offset, bottom)
        self._draw_body(offset, bottom)

    def _show_gap(self, item: _Item, gaps: Sequence[Gap], offset: float, bottom: float) -> None:
        """Put the label of the hidden range that holds this slot on it, at its place."""
        gap = next(g for g in gaps if g.first <= item.span[0] <= g.last)
        key = (gap.first, gap.last)
        if key not in item.labels:
            grid = self.grid
            item.labels[key] = _gap_row(gap, grid.metrics, grid.theme, grid.width_of_body)
        content = item.labels[key]
        label = content[1]
        centre = self.view_top - (item.top - offset) - item.height / 2
        label.move_to(xyz(float(self.grid.body.get_center()[0]), centre))
        content[0].next_to(label, LEFT, buff=0.15)
        item.pad = max(0.0, (item.height - label.height) / 2)
        seen = self._seen(item, offset, bottom)
        content.set_opacity(seen)
        item.mobject.submobjects = [content] if seen > 0 else []

    def _build_body(self) -> None:
        """Make the outline's parts once: its box, its upright lines and a pool of flat ones."""
        grid = self.grid
        lines = [part for part in self.body_parts[1:] if isinstance(part, Line)]
        flat = [line for line in lines if abs(line.get_start()[1] - line.get_end()[1]) < 1e-9]
        self.background = self.body_parts[0].copy()
        self.upright = [line.copy() for line in lines if line not in flat]
        template = flat[0] if flat else Line(stroke_width=0.8, color=grid.theme.cell_stroke)
        count = len(self.prefix) + len(self.items) + len(self.suffix)
        self.pool = [template.copy() for _ in range(count)]
        for part in [self.background, *self.upright, *self.pool]:
            part.set_z_index(_BODY_Z)
        grid.body.submobjects = [self.background, *self.upright, *self.pool]

    def _draw_body(self, offset: float, bottom: float) -> None:
        """Redraw the outline: its bottom follows the band, separators follow the sheet."""
        height = self.grid.metrics.cell_height
        top = float(self.background.get_top()[1])
        left, right = float(self.background.get_left()[0]), float(self.background.get_right()[0])
        low = bottom - len(self.suffix) * height
        self.background.stretch_to_fit_height(top - low)
        self.background.move_to(xyz((left + right) / 2, (top + low) / 2))
        ys = [self.view_top + k * height for k in range(len(self.prefix))]
        for item in self.items:
            y = self.view_top - (item.top + item.height - offset)
            if bottom + 1e-6 < y < self.view_top - 1e-6:
                ys.append(y)
        if self.suffix:
            ys += [bottom - k * height for k in range(len(self.suffix))]
        for line in self.upright:
            x = float(line.get_start()[0])
            line.put_start_and_end_on(xyz(x, top), xyz(x, low))
        ys = [y for y in ys if low + 1e-6 < y < top - 1e-6]
        for line, y in zip(self.pool, ys, strict=False):
            line.put_start_and_end_on(xyz(left, y), xyz(right, y))
        self.grid.body.submobjects = [self.background, *self.upright, *self.pool[: len(ys)]]

    def clean_up_from_scene(self, scene: Scene) -> None:
        super().clean_up_from_scene(scene)
        grid = self.grid
        scene.remove(*_leaves(self.leaving))
        scene.remove(*_leaves([item.mobject for item in self.items if item.kind == "gap"]))
        for item in self.items:
            _stash(item, hide=False)
            item.mobject.shift(UP * (self.offsets[1] - item.applied))
            item.applied = self.offsets[1]
            for part, fill, stroke in item.opacities:
                part.set_fill(opacity=fill, family=False)
                part.set_stroke(opacity=stroke, family=False)
        scene.add(*grid.gap_rows)
        grid.body.submobjects = [part.copy() for part in self.body_parts]
        grid.body.set_z_index(_BODY_Z)


@register_stage
class LargeVocabStage(Stage):
    """A scrolling grid, the sentence's chips in one line, and its output block.

    Composed of a :class:`~embedviz.render.components.GridPanel` (its grid a
    :class:`ScrollingGrid`), a :class:`~embedviz.render.components.ChipLane`
    and an :class:`~embedviz.render.components.OutputPanel` (which plays the
    ``shape`` beat); the scroll bar, the parameter count and the beats that
    move between the parts (the scroll, the lookups, the rest of the
    sentence) are the stage's own.
    """

    layout = "large_vocab"

    def build(self) -> None:
        """Lay out the chips, the grid with its scroll bar, the output block and the labels."""
        board, theme, cells = self.board, self.theme, self.cells
        frame = frame_regions()
        window = board.beats[0].window
        self.positions = sorted(index for kind, index in cells if kind == "position")
        self.chip_lane = self.add_part(ChipLane(self.scene, theme))
        self.grid_panel = self.add_part(GridPanel(self.scene, theme))
        self.output_panel = self.add_part(OutputPanel(self.scene, theme))

        # Bands from the top: the title, the chips, the chips' travel lane, the headings.
        chip_cells = sorted(
            (c for c in cells.values() if c.kind == "token_id"), key=lambda c: c.index
        )
        chips = [self.make_chip(cell, CHIP_FONT) for cell in chip_cells]
        label = SansText(self.word("token_ids"), HEADING_FONT, theme.muted)
        self.chip_lane.set_chips(chips, label)
        chip_row = VGroup(*chips).arrange(RIGHT, buff=0.16)
        room = frame.right - frame.left - label.width - 0.3
        if chip_row.width > room:
            chip_row.scale_to_fit_width(room)
        chip_h = max(chip.height for chip in chips)
        lane = max(chip.width for chip in chips)
        chips_y = self.title.get_bottom()[1] - SPACE - chip_h / 2
        lane_y = chips_y - chip_h - SPACE
        self.chip_lane.lane_y = lane_y
        VGroup(label, chip_row).arrange(RIGHT, buff=0.3).move_to(xyz(0, chips_y))
        self.chip_lane.mark_homes()

        size_cells = [cells[("table_size", (axis,))] for axis in (0, 1)]
        grid_title = VGroup(
            SansText(self.word("embedding_matrix"), HEADING_FONT, theme.muted),
            ShapeLabel(size_cells, HEADING_FONT, theme.muted),
        ).arrange(RIGHT, buff=0.25)
        output_title = SansText(self.word("output"), HEADING_FONT, theme.output)
        heading_h = max(grid_title.height, output_title.height)
        heading_y = lane_y - chip_h / 2 - SPACE - heading_h / 2
        output_top = heading_y - heading_h / 2 - SPACE
        self.params = VGroup(
            SansText("V \u00d7 d =", 20, theme.muted),
            NumberText(cells[("param_count", (0,))], 20, theme.text),
            SansText(self.word("parameters"), 20, theme.muted),
        ).arrange(RIGHT, buff=0.15)
        legend_cells = [cells[key] for key in sorted(cells) if key[0] == "legend"]
        legend = (
            ColourLegend(legend_cells, NOTE_FONT, theme, self.word("value_colour"))
            if legend_cells
            else None
        )
        if legend is not None:
            place_legend(legend)

        font, pitch, drop, slack = self._fit_font(lane, output_top)
        # Room left below (the numbers are as wide as fits): the tables sit
        # halfway down it, clear of the chips' lane.
        heading_y -= slack / 2
        output_top -= slack / 2
        metrics = grid_metrics_at(font, self._value_chars(), pitch)
        self.metrics = metrics
        scale = board.value_scale
        self.grid = ScrollingGrid(window, list(cells.values()), metrics, theme, scale)
        body_w = self.grid.width_of_body
        row_labels_w = char_advance(font * LABEL_RATIO) * self._row_chars()
        slack = max(0.0, frame.right - frame.left - self._width_at(font, lane))
        body_left = frame.left + slack / 2 + lane + _LANE_GAP + row_labels_w + _LABEL_GAP
        grid_top = output_top - drop * metrics.cell_height
        self.grid.shift(xyz(body_left, grid_top) - self.grid.body.get_corner(UP + LEFT))
        # The heading may not reach the output's: it shrinks to the grid's width if need be.
        room = body_w + _MAP_WIDTH + CORRIDOR_MARGIN - 3 * SPACE
        if grid_title.width > room:
            grid_title.scale_to_fit_width(room)
        grid_title.move_to(xyz(0, heading_y)).align_to(self.grid.body, LEFT)
        panel = self.grid_panel
        panel.grid, panel.title, panel.legend, panel.metrics = (
            self.grid,
            grid_title,
            legend,
            metrics,
        )

        # The column-gap labels hang under the tallest window, clear of every scroll.
        windows = {beat.window for beat in board.beats}
        tallest = max(self.grid.body_height(w) for w in windows)
        for gap_label in self.grid.col_gap_labels:
            gap_label.shift(DOWN * (tallest - self.grid.body.height))
        lowest = min([grid_top - tallest, *(g.get_bottom()[1] for g in self.grid.col_gap_labels)])
        self.params.next_to(xyz(0, lowest), DOWN, buff=0.2).align_to(self.grid.body, LEFT)

        out_left = body_left + body_w + _MAP_WIDTH + CORRIDOR_MARGIN
        output = OutputBlock(
            self.positions, window, list(cells.values()), metrics, theme, scale, labels_right=True
        )
        output.shift(xyz(out_left, output_top) - output.body.get_corner(UP + LEFT))
        output_title.move_to(xyz(0, heading_y)).align_to(output.body, LEFT)
        out = self.output_panel
        out.output, out.title = output, output_title
        out.build_tags(self.positions, cells, font * LABEL_RATIO, self.pieces)
        widest = max([tag.get_right()[0] for tag in out.tags.values()] or [0.0])
        if widest > frame.right:
            # Narrow IDs with text pieces: the tags give way before the numbers do.
            room = frame.right - min(tag.get_left()[0] for tag in out.tags.values())
            worst = max(tag.width for tag in out.tags.values())
            out.build_tags(self.positions, cells, font * LABEL_RATIO * room / worst, self.pieces)
        # Output positions that have landed, in landing order.
        self.filled: list[tuple[int, ...]] = []
        # The numbers that land (or have landed) in each output row.
        self.landed_cells: dict[tuple[int, ...], list[NumberText]] = {}
        self._build_minimap(body_left + body_w + _MAP_WIDTH / 2, tallest)

    # -- the parts' pieces, by the names the beats use -----------------------------
    @property
    def chips(self) -> list[TokenChip]:
        """The input chips, in order."""
        return self.chip_lane.chips

    @property
    def chip_homes(self) -> list[np.ndarray]:
        """Where each chip rests."""
        return self.chip_lane.homes

    @property
    def travel_lane_y(self) -> float:
        """The height of the clear lane under the chips that walking chips travel along."""
        assert self.chip_lane.lane_y is not None
        return self.chip_lane.lane_y

    @property
    def output(self) -> OutputBlock:
        """The output block."""
        assert self.output_panel.output is not None
        return self.output_panel.output

    @property
    def tags(self) -> dict[tuple[int, ...], VGroup]:
        """Each output row's provenance tag."""
        return self.output_panel.tags

    # -- sizes -----------------------------------------------------------------
    def _value_chars(self) -> int:
        return max(len(c.text) for c in self.cells.values() if c.kind in ("weight", "output"))

    def _row_chars(self) -> int:
        return max(len(c.text) for c in self.cells.values() if c.kind == "row_label")

    def _label_chars(self) -> int:
        """Characters right of the output block: position, ID tag, word piece, equality."""
        pieces = list(self.pieces or ())

        def chars(position: tuple[int, ...]) -> int:
            # One output row's labels: the widest row, not the widest of each kind.
            texts = [self.cells.get((kind, position)) for kind in ("position", "output_id")]
            mark = self.cells.get(("equal_to", position))
            piece = pieces[position[-1]] if position[-1] < len(pieces) else ""
            return sum(len(c.text) for c in (*texts, mark) if c is not None) + len(piece)

        return max([chars(position) for position in self.positions] or [0])

    def _width_at(self, font: float, lane: float) -> float:
        """Return the width of everything across the frame at a font size."""
        window = self.board.beats[0].window
        body = grid_width_per_font(self._value_chars(), len(window.cols), len(window.col_gaps))
        label_per_font = char_advance(1.0) * LABEL_RATIO
        # Gaps right of the block: to the position, the tag (and its padding), piece, mark.
        labels_fixed = 0.15 + 0.1 + 0.12 + 0.08 + 0.1
        fixed = lane + _LANE_GAP + _LABEL_GAP + _MAP_WIDTH + CORRIDOR_MARGIN + labels_fixed
        per_font = 2 * body + label_per_font * (self._row_chars() + self._label_chars())
        return fixed + per_font * font

    def _drop(self) -> float:
        """Return how far the grid's top sits below the output's, in cell heights.

        Every copied row must start at or below its output row, so that it
        rises through empty output rows; the column numbers need 0.75 too.
        """
        drop = 0.75
        for beat in self.board.beats:
            if beat.action not in ("lookup", "scroll_lookup") or beat.highlight is None:
                continue
            depth = 0.0
            for kind, index, _ in _items(beat.window):
                if kind == "row" and index == beat.highlight.row:
                    break
                depth += 1.0 if kind == "row" else GAP_ROW_PITCH
            order = self.positions.index(beat.highlight.position)
            drop = max(drop, order - depth)
        return drop

    def _fit_font(self, lane: float, output_top: float) -> tuple[float, float, float, float]:
        """Return the number font, the row pitch, the grid's drop, and the room left below.

        The font is the largest that fits at the loosest row pitch
        (:data:`~embedviz.render.layout.ROW_PITCHES`) at which the numbers stay
        readable: a long sentence's output block packs its rows closer before
        its numbers go under the minimum. The room is the height left free
        under the tables at that font.
        """
        frame = frame_regions()
        windows = {beat.window for beat in self.board.beats}
        slots = max(len(w.rows) + GAP_ROW_PITCH * len(w.row_gaps) for w in windows)
        drop = self._drop()
        outputs = len(self.positions)
        # Under the grid: the column-gap label, then the parameter count, above the caption.
        under = 0.12 + 0.2 + self.params.height
        caption_top = frame.caption_y + _CAPTION_HALF_HEIGHT

        def room_below(font: float, pitch: float) -> float:
            cell = pitch * digit_height(font)
            gap_label = digit_height(font * _GAP_TEXT_SCALE) * 1.3
            grid_bottom = output_top - (drop + slots) * cell - gap_label - under
            return min(
                output_top - outputs * cell - (frame.legend_top + SPACE),
                grid_bottom - (caption_top + SPACE),
            )

        def fit_at(pitch: float) -> float:
            def fits(font: float) -> bool:
                width = self._width_at(font, lane) <= frame.right - frame.left
                return width and room_below(font, pitch) >= 0

            return fit_font(fits, largest=MAX_NUMBER_FONT)

        readable = font_for_px(MIN_NUMBER_PX) * 1.005
        choices = [(fit_at(pitch), pitch) for pitch in ROW_PITCHES]
        font, pitch = next(((f, p) for f, p in choices if f >= readable), max(choices))
        return font, pitch, drop, max(0.0, room_below(font, pitch))

    # -- the scroll bar ----------------------------------------------------------
    def _build_minimap(self, x: float, height: float) -> None:
        """Build a scroll bar of the whole vocabulary beside the grid: where the view is.

        The track stands for rows 0 to V-1, top to bottom; a tick marks each
        row the window shows, and the thumb sits on the row being looked up,
        so a scroll from row 1 to row 4821 is a visible journey down the bar.
        """
        theme = self.theme
        self.map_x = x
        self.map_top = self.grid.body.get_top()[1]
        self.map_height = height
        track = Line(xyz(x, self.map_top), xyz(x, self.map_top - height), stroke_width=3)
        track.set_stroke(theme.muted, opacity=0.6)
        self.map_ticks = self._map_ticks(self.board.beats[0].window)
        self.map_thumb = Rectangle(width=0.16, height=max(0.08, height * 0.03))
        self.map_thumb.set_fill(theme.highlight, opacity=1.0).set_stroke(width=0)
        self.map_thumb.move_to(xyz(x, self._map_y(self.board.beats[0].window.rows[0])))
        self.minimap = VGroup(track, self.map_ticks, self.map_thumb)

    def _map_y(self, row: int) -> float:
        """Return the height on the scroll bar that stands for a row of the table."""
        return float(self.map_top - self.map_height * (row + 0.5) / self.board.vocab_size)

    def _map_ticks(self, window: Window) -> VGroup:
        """Return a tick on the scroll bar for each row a window shows."""
        ticks = VGroup(
            *[
                Line(xyz(self.map_x - 0.07, y), xyz(self.map_x + 0.07, y), stroke_width=2)
                for y in (self._map_y(row) for row in window.rows)
            ]
        )
        return ticks.set_stroke(self.theme.text, opacity=0.8)

    def _map_scroll(self, beat: Beat) -> list[Animation]:
        """Move the scroll bar's ticks to a beat's window and its thumb to the featured row."""
        moves: list[Animation] = [
            Transform(self.map_ticks, self._map_ticks(beat.window), run_time=_SCROLL_TIME)
        ]
        if beat.highlight is not None:
            y = self._map_y(beat.highlight.row)
            target = self.map_thumb.copy().move_to(xyz(self.map_x, y))
            moves.append(Transform(self.map_thumb, target, run_time=_SCROLL_TIME))
        return moves

    # -- beat handlers ---------------------------------------------------------
    def beat_intro(self, beat: Beat) -> Animation:
        """Show the title, the grid with its gaps and scroll bar, and the sentence's chips."""
        return make_reveal_animation([*self.intro_mobjects(), self.minimap])

    def beat_size(self, beat: Beat) -> Animation:
        """Show the parameter count; then, with the gaps' phrase, point at the gap labels."""
        gaps = self.grid.current_gap_labels()
        count = FadeIn(self.params, shift=0.2 * UP)
        if not gaps:
            return count
        pointing = [
            Indicate(label, scale_factor=1.08, color=self.theme.highlight) for label in gaps
        ]
        return Steps(count, AnimationGroup(*pointing))

    def beat_scroll(self, beat: Beat) -> Animation:
        """Point at the featured ID's chip; then, with the next phrase, bring its row on screen.

        The view scrolls (or, when the row is already on screen, its label is
        pointed at) as the narration says that the ID is a row number.
        """
        assert beat.highlight is not None
        chip = Circumscribe(self.chips[0], color=self.theme.highlight, buff=0.06)
        if beat.window == self.grid.window:
            label = self.grid.row_labels[beat.highlight.row]
            return Steps(
                chip, AnimationGroup(Indicate(label, scale_factor=1.6), *self._map_scroll(beat))
            )
        window = beat.window
        scroll = _BuiltAtStart(lambda: self.grid.scroll_to(window), _SCROLL_TIME)
        return Steps(chip, AnimationGroup(scroll, *self._map_scroll(beat)))

    def _output_cells(self, position: tuple[int, ...]) -> list[NumberText]:
        cells = self.output_panel.output_cells(position, self.cells)
        # Landed numbers are drawn above the output block's background, whenever
        # each was added to manim's scene list.
        for cell in cells:
            cell.set_z_index(_LANDED_Z)
        self.landed_cells[position] = cells
        return cells

    def _output_marks(self, position: tuple[int, ...]) -> list[VMobject]:
        """Return the elision marks of an output row (a copied row brings its own)."""
        output, metrics = self.output, self.metrics
        left, top = output.body.get_left()[0], output.body.get_top()[1]
        marks = []
        for kind, _, x in output.col_slots:
            if kind == "gap":
                mark = _ellipsis(metrics.font_size, self.theme.muted)
                mark.move_to(xyz(left + x, top + output.row_y[position]))
                marks.append(mark.set_z_index(_LANDED_Z))
        return marks

    def copy_route(self, row: int, targets: list[NumberText]) -> list[np.ndarray]:
        """Waypoints for a copied row: right at its own height, then up its output column.

        The layout puts every copied row at or below its output row, and
        rows fill from the top, so the rise crosses only empty output rows.
        """
        start = self.grid.row_cells(row)[0].get_center()
        return [xyz(targets[0].get_center()[0], start[1])]

    def _to_front(self, chip: VMobject) -> None:
        """Draw a chip that is about to move above everything it passes over."""
        self.scene.bring_to_front(chip)

    def _tag(self, position: tuple[int, ...]) -> list[VMobject]:
        """Return the ID tag that appears beside a landed row, if it has one."""
        tag = self.tags.get(position)
        return [tag] if tag is not None else []

    def _lookup_animation(self, beat: Beat) -> Animation:
        assert beat.highlight is not None
        assert beat.output is not None
        self.filled = list(beat.output.filled)
        position = beat.highlight.position
        chip = self.chips[position[-1]]
        self._to_front(chip)
        targets = self._output_cells(position)
        return make_lookup_animation(
            chip,
            self.chip_homes[position[-1]],
            self.grid,
            beat.highlight.row,
            targets,
            self.theme,
            route=self.copy_route(beat.highlight.row, targets),
            lane_y=self.travel_lane_y,
            provenance=self._tag(position),
        )

    def beat_fill_rest(self, beat: Beat) -> Animation:
        """Land the rest of the sentence: each chip dims as its row fills in, in order.

        When an ID repeats, a second step (started with the phrase that says
        so) lights up the repeat's output row and the earlier row it equals.
        """
        assert beat.output is not None
        landing = []
        fresh = beat.output.filled[len(self.filled) :]
        for position in fresh:
            chip = self.chips[position[-1]]
            self._to_front(chip)
            row = VGroup(*self._output_cells(position), *self._output_marks(position))
            tag = self.tags.get(position)
            landing.append(
                AnimationGroup(
                    Transform(chip, chip.copy().set_opacity(_DONE_OPACITY)),
                    FadeIn(row, shift=0.4 * RIGHT),
                    *([FadeIn(tag)] if tag is not None else []),
                )
            )
        self.filled = list(beat.output.filled)
        lands = LaggedStart(*landing, lag_ratio=0.35)
        pair = self._repeat(fresh)
        if pair is None or len(beat.phrases) < 2:
            return lands
        same = VGroup(*[cell for position in pair for cell in self.landed_cells[position]])
        return Steps(lands, Indicate(same, scale_factor=1.0, color=self.theme.highlight))

    def _repeat(self, fresh: Sequence[tuple[int, ...]]) -> tuple[tuple[int, ...], ...] | None:
        """Return the first of ``fresh`` whose ID came earlier, with that earlier position."""
        ids = {
            cell.index: int(cell.value) for cell in self.cells.values() if cell.kind == "token_id"
        }
        for position in fresh:
            earlier = [p for p in sorted(ids) if p < position and ids[p] == ids[position]]
            if earlier:
                return (earlier[0], position)
        return None

    def beat_lookup(self, beat: Beat) -> Animation:
        """Reveal the output block as the first chip walks to its row; copy it; go back.

        Three steps, each with its phrase: the walk, the copy into output
        row 0, and the chip's return (its row's tag appears as the narration
        names the copy the embedding).
        """
        assert self.output_panel.title is not None
        reveal = make_reveal_animation([self.output, self.output_panel.title])
        return steps_together(reveal, self._lookup_animation(beat))

    def beat_sentence(self, beat: Beat) -> Animation:
        """Point at the sentence's chips; then at the output rows waiting for them, in order."""
        return Steps(
            Circumscribe(VGroup(*self.chips), color=self.theme.chip, buff=0.08),
            LaggedStart(
                *[
                    Indicate(label, scale_factor=1.3, color=self.theme.output)
                    for label in self.output.labels
                ],
                lag_ratio=0.15,
            ),
        )

    def beat_scroll_lookup(self, beat: Beat) -> Animation:
        """Scroll to the row if it is off screen while the chip sets off; copy; return.

        The chip walks along its lane while the sheet slides, and comes down
        beside its row as the row arrives; then the row is boxed, copied and
        the chip goes home.
        """
        assert beat.highlight is not None
        assert beat.output is not None
        scroll = self.grid.scroll_to(beat.window)
        if scroll is None:
            return AnimationGroup(self._lookup_animation(beat), *self._map_scroll(beat))
        self.filled = list(beat.output.filled)
        position, row = beat.highlight.position, beat.highlight.row
        chip, home = self.chips[position[-1]], self.chip_homes[position[-1]]
        self._to_front(chip)
        box = self.grid.row_box(row, self.theme)
        targets = self._output_cells(position)
        lane = self.travel_lane_y
        # The box is drawn as the row arrives, not before (it is on screen,
        # undrawn, from the start: the last step fades it out). Played as
        # steps, the sliding sheet is redrawn only while it slides, not
        # during the copy and the return as well.
        return Steps(
            AnimationGroup(
                scroll,
                make_walk_animation(chip, self.grid, row, lane),
                *self._map_scroll(beat),
                Create(box, run_time=_SCROLL_TIME, rate_func=_late),
            ),
            make_copy_row_animation(
                self.grid,
                row,
                targets,
                self.copy_route(row, targets),
                self.theme,
                keep_marks=True,
            ),
            AnimationGroup(
                make_return_animation(chip, self.grid.row_anchor(row, chip.width), home, lane),
                *[FadeIn(tag) for tag in self._tag(position)],
                FadeOut(box),
            ),
        )
