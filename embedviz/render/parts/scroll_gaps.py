"""The scroll of a real-sized table's window that keeps every hidden range marked.

:class:`GapScroll` takes E's window from one set of rows to another in three
moves, each of which leaves the table true at every instant:

1. The rows that leave fade out together, while the room they leave turns
   into band. Once they are gone (not while they still show, however
   faintly), the hidden ranges' labels change at once to those of the rows
   that stay (``rows 6–50255 hidden`` becomes ``rows 2–50255 hidden``), each
   where a band's label already stood.
2. The rows that stay glide to their new places; the bands between them
   stretch or shrink with them, each label gliding inside its band.
3. The rows that come fade in together out of the bands; as they start to
   show, the labels change to the new window's.

So any two row numbers drawn one above the other, however faint, are either
consecutive or have the label of the rows between them between them: no label
ever names a row drawn under it as hidden (a teacher's review found ``rows
2–50255 hidden`` over rows 463–465 fading in, at a third of their strength),
and no text is ever drawn over another (a label changes in one frame, in its
own place).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from manim import Animation, Rectangle, Scene, VGroup, VMobject
from manim.utils.rate_functions import smooth

from embedviz.render.design import Theme
from embedviz.render.metrics import xyz
from embedviz.render.parts.grid import CellGrid
from embedviz.story.model import Window

__all__ = ["GapScroll", "plan_scroll"]

# The share of the scroll for the rows that leave to fade out, and (the same at the
# end) for those that come to fade in; the rows that stay glide in between. When
# nothing glides, the fades share the scroll (no still, empty table between them).
_FADE = 0.3


@dataclass
class _Row:
    """One row drawn during the scroll: where it is at the start and the end, and its fate."""

    group: VGroup
    start: float
    end: float
    fate: str  # "stay", "leave" or "come"
    parts: list[VMobject] = field(default_factory=list)
    y: float = 0.0


@dataclass
class _Range:
    """A hidden range while the scroll runs (the rows between two rows that stay)."""

    label: VMobject
    above: _Row | None  # the row that stays above it (None: the table's top)
    below: _Row | None  # and below it (None: the table's bottom)
    anchors: tuple[float, float]  # its label's centre line in the first move and the last
    band: Rectangle = field(default_factory=Rectangle)


def _band(width: float, theme: Theme) -> Rectangle:
    """Return a hidden range's band, as the grid draws it (in the frame's rule colour)."""
    band = Rectangle(width=width, height=0.01)
    band.set_fill(theme.background, opacity=1.0).set_stroke(theme.cell_stroke, width=0.8)
    return band


def _shape(band: Rectangle, x: float, top: float, bottom: float, seen: float) -> None:
    """Stretch a band between two heights and set how much it shows."""
    height = max(top - bottom, 1e-3)
    band.stretch_to_fit_height(height).move_to(xyz(x, (top + bottom) / 2))
    band.set_fill(opacity=seen).set_stroke(opacity=seen if top - bottom > 1e-3 else 0.0)


def _fill(mobjects: Sequence[VMobject], opacity: float) -> None:
    for mobject in mobjects:
        mobject.set_fill(opacity=opacity, family=False)


def _drawn(group: VMobject) -> list[VMobject]:
    """Return the parts of a group that draw something."""
    return [m for m in group.get_family() if isinstance(m, VMobject) and len(m.points)]


class GapScroll(Animation):
    """Scroll a grid from one window to another of the same columns, ranges kept marked.

    Parameters
    ----------
    old, new
        The grid on screen and the grid of the window reached (placed, not on screen).
    rows
        Every row drawn during the scroll.
    ranges
        The hidden ranges between the rows that stay, each with its label.
    **kwargs
        Passed to :class:`manim.Animation`.
    """

    def __init__(
        self,
        old: CellGrid,
        new: CellGrid,
        rows: Sequence[_Row],
        ranges: Sequence[_Range],
        **kwargs: Any,
    ) -> None:
        self.old, self.new, self.rows, self.ranges = old, new, list(rows), list(ranges)
        x, width = (old.body_left() + old.body_right()) / 2, old.width_of_body
        self.x = x
        self.old_bands = [(_band(width, old.theme), b) for b in _bands(old)]
        self.new_bands = [(_band(width, new.theme), b) for b in _bands(new)]
        for item in self.ranges:
            item.band = _band(width, old.theme)
        self.bands = VGroup(
            *[b for b, _ in self.old_bands],
            *[b for b, _ in self.new_bands],
            *[r.band for r in self.ranges],
        )
        self.arriving = [r.group for r in self.rows if r.fate == "come"]
        self.labels = [r.label for r in self.ranges]
        moving = VGroup(old.body[0], self.bands, *[r.group for r in self.rows])
        moving.add(*old.gap_labels.values(), *new.gap_labels.values(), *self.labels)
        kwargs.setdefault("rate_func", smooth)
        super().__init__(moving, introducer=True, **kwargs)
        self.scene_ref: Scene | None = None
        self.heights = (old.height_of_body, new.height_of_body)
        self.half = next(s.size for s in old.row_slots if not s.gap) / 2
        self.swapped = False
        still = all(abs(r.start - r.end) < 1e-6 for r in self.rows) and all(
            abs(r.anchors[0] - r.anchors[1]) < 1e-6 for r in self.ranges
        )
        self.fade = 0.5 if still and abs(self.heights[0] - self.heights[1]) < 1e-6 else _FADE

    def _setup_scene(self, scene: Scene) -> None:
        # Nothing is added before the scroll starts (the rows that come stay off screen).
        self.scene_ref = scene

    def create_starting_mobject(self) -> VMobject:
        """Return an empty stand-in: nothing reads it."""
        return VMobject()

    def begin(self) -> None:
        """Put the bands under the rows, the coming rows and the labels on screen, unseen."""
        for row in self.rows:
            row.parts = _drawn(row.group)
            row.y = row.start
        # In the old grid's body: drawn over its background, under every row.
        self.old.body.add(self.bands)
        for part in self.old.body[1:-1]:
            part.set_stroke(opacity=0.0).set_fill(opacity=0.0)
        if self.scene_ref is not None:
            self.scene_ref.add(*self.arriving, *self.new.gap_labels.values(), *self.labels)
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        """Place every row, band and label (and its opacity) at ``alpha``."""
        fade = self.fade
        gone = 1.0 - min(alpha / fade, 1.0)
        moved = min(max((alpha - fade) / max(1 - 2 * fade, 1e-6), 0.0), 1.0)
        come = max((alpha - 1 + fade) / fade, 0.0)
        seen = {"stay": 1.0, "leave": gone, "come": come}
        for row in self.rows:
            y = row.start + (row.end - row.start) * moved if row.fate == "stay" else row.y
            row.group.shift(xyz(0, y - row.y))
            row.y = y
            _fill(row.parts, seen[row.fate])
        bottom = self._background(moved)
        # A window's labels stand while any of its own rows is drawn, however faintly.
        old_on, new_on = gone > 0.0, come > 0.0
        for band, (top, low) in self.old_bands:
            _shape(band, self.x, top, low, 1.0 if alpha <= fade else 0.0)
        for band, (top, low) in self.new_bands:
            _shape(band, self.x, top, low, 1.0 if alpha >= 1 - fade else 0.0)
        for label in self.old.gap_labels.values():
            _fill(_drawn(label), 1.0 if old_on else 0.0)
        for label in self.new.gap_labels.values():
            _fill(_drawn(label), 1.0 if new_on else 0.0)
        band_seen = min(1 - gone, 1 - come)
        for item in self.ranges:
            top, low = self._span(item, bottom)
            _shape(item.band, self.x, top, low, band_seen)
            y = item.anchors[0] + (item.anchors[1] - item.anchors[0]) * moved
            item.label.shift(xyz(0, y - item.label.get_y()))
            _fill(_drawn(item.label), 0.0 if old_on or new_on else 1.0)

    def _background(self, moved: float) -> float:
        """Stretch the grid's background to its height now; return its bottom."""
        background = self.old.body[0]
        top = self.old.body_top()
        height = self.heights[0] + (self.heights[1] - self.heights[0]) * moved
        background.stretch_to_fit_height(max(height, 1e-3))
        background.move_to(xyz(background.get_center()[0], top - height / 2))
        return top - height

    def _span(self, item: _Range, bottom: float) -> tuple[float, float]:
        """Return the top and bottom of a hidden range's band now (between its rows)."""
        top = item.above.y - self.half if item.above is not None else self.old.body_top()
        low = item.below.y + self.half if item.below is not None else bottom
        return top, low

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
        leaving = [self.old, *self.arriving, *self.new.gap_labels.values(), *self.labels]
        scene.remove(*[part for group in leaving for part in group.get_family()])
        for row in self.rows:
            _fill(row.parts, 1.0)
        for label in self.new.gap_labels.values():
            _fill(_drawn(label), 1.0)
        scene.add(self.new)


def _bands(grid: CellGrid) -> list[tuple[float, float]]:
    """Return the top and bottom of each of a grid's bands."""
    spans = []
    for slot in grid.row_slots:
        if slot.gap:
            y = grid.row_y(slot.key, gap=True)
            spans.append((y + slot.size / 2, y - slot.size / 2))
    return spans


def _anchor(
    grid: CellGrid, window: Window, first: int, last: int, span: tuple[float, float]
) -> float:
    """Return where a range's label stands: on a label of the grid in that range, else mid-span."""
    for number, gap in enumerate(window.row_gaps):
        if first <= gap.first and gap.last <= last and number in grid.gap_labels:
            return float(grid.gap_labels[number].get_y())
    return (span[0] + span[1]) / 2


def _kept(before: Window, after: Window) -> list[int]:
    """Return the rows that stay through a scroll and glide.

    Those both windows show, less any beside a range hidden mid-scroll that
    has no band in one of the windows: its label would have to stand over
    rows fading out or in (``rows 2–4 hidden`` over rows 2 to 4), so the row
    under it leaves and comes back instead.
    """
    kept = sorted(set(before.rows) & set(after.rows))

    def marked(first: int, last: int) -> bool:
        return all(
            any(first <= gap.first and gap.last <= last for gap in window.row_gaps)
            for window in (before, after)
        )

    while True:
        bare = [(a, b) for a, b in pairwise(kept) if b - a > 1 and not marked(a + 1, b - 1)]
        # The table's first and last rows stay; a row between them goes.
        inner = [r for a, b in bare for r in (b, a) if r not in (kept[0], kept[-1])]
        if not inner:
            return kept
        kept.remove(inner[0])


def plan_scroll(
    old: CellGrid,
    new: CellGrid,
    windows: tuple[Window, Window],
    middle: Callable[[list[int]], tuple[Window, CellGrid]],
) -> GapScroll:
    """Build the scroll from ``old`` (showing the first window) to ``new`` (the second).

    Parameters
    ----------
    old, new
        The two grids, placed at the same top-left corner.
    windows
        Their windows (the same columns).
    middle
        Returns the window of the given rows (those both windows show) and
        its grid: its hidden ranges' labels are the ones shown mid-scroll.

    Returns
    -------
    GapScroll
        The scroll.
    """
    before, after = windows
    kept = _kept(before, after)
    stay = {r: _Row(old.get_row(r), old.row_y(r), new.row_y(r), "stay") for r in kept}
    rows = list(stay.values())
    rows += [
        _Row(old.get_row(r), old.row_y(r), old.row_y(r), "leave")
        for r in before.rows
        if r not in kept
    ]
    rows += [
        _Row(new.get_row(r), new.row_y(r), new.row_y(r), "come")
        for r in after.rows
        if r not in kept
    ]
    window, grid = middle(kept)
    half = next(s.size for s in old.row_slots if not s.gap) / 2
    ranges = []
    for number, gap in enumerate(window.row_gaps):
        above = max((r for r in kept if r < gap.first), default=None)
        below = min((r for r in kept if r > gap.last), default=None)
        spans = []
        for g in (old, new):
            top = g.row_y(above) - half if above is not None else g.body_top()
            low = g.row_y(below) + half if below is not None else g.body_top() - g.height_of_body
            spans.append((top, low))
        anchors = (
            _anchor(old, before, gap.first, gap.last, spans[0]),
            _anchor(new, after, gap.first, gap.last, spans[1]),
        )
        label = grid.gap_labels[number]
        label.shift(xyz(0, anchors[0] - label.get_y()))
        ranges.append(
            _Range(
                label,
                stay[above] if above is not None else None,
                stay[below] if below is not None else None,
                anchors,
            )
        )
    return GapScroll(old, new, rows, ranges)
