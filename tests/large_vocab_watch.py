"""What tests/test_large_vocab.py and tests/test_highlight_rings.py read of LargeVocabLookup.

Three readers of the scene's play: what the grid, the chips and the moving
rows show (:class:`FrameWatch`, at every tenth of each step and at beat ends),
each moment a highlight's line runs through a text (:class:`RingWatch`) and
each overprint of E's texts mid-scroll (:class:`OverprintWatch`), both at
every fortieth of each step. Each played the default scene on its own; they
now ride along in its one shared play (tests/carry_plays.py, which plays it at
every fortieth of every beat for its carries), and other journeys play the
scene for one reader (:func:`play_for`). Nothing here reads pixels: the play's
frame size does not change what they read.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
from conftest import box_of, strip_members

SCENE = "LargeVocabLookup"
# FrameWatch: every tenth of each step's motion.
WATCH_ALPHAS = tuple(round(0.1 * k, 1) for k in range(1, 10))
# RingWatch, OverprintWatch: finer steps (a swell and its ring's flash last a second;
# a row crosses the window's edge in a few frames).
FINE_ALPHAS = tuple(round(0.025 * k, 3) for k in range(1, 40))
# E's own texts: its values, and its row and column numbers.
TABLE_TEXTS = frozenset({"weight", "row_label", "col_label"})


@dataclass
class Frame:
    """What a test reads from the screen at one moment."""

    beat: str
    alpha: float
    rows: list[tuple[float, int]]  # (height, row) of each visible row number
    gaps: list[tuple[float, str]]  # (height, text) of each visible hidden-rows label
    thumb: float  # the scroll bar thumb's height
    chips: list[np.ndarray]  # each chip's box: [[left, bottom], [right, top]]
    fixed: list[tuple[str, np.ndarray]]  # boxes of the title, the chips' label, the headings
    strips: list[np.ndarray]  # boxes of travelling rows
    filled: list[np.ndarray]  # boxes of output numbers already landed
    gap_boxes: list[np.ndarray]  # boxes of the visible hidden-range labels
    outlines: list[np.ndarray]  # boxes of amber (ID) outlines drawn round a row of E
    lifts: list[np.ndarray]  # boxes of the amber frames of strips lifting off


def id_outline(mobject: Any, stage: Any, rectangle: bool = True) -> bool:
    """Whether a mobject is a drawn amber outline (an ID's colour, stroked, unfilled).

    ``rectangle``: only a rectangle (a row's outline), else any line (a strip's frame).
    """
    from manim import Rectangle

    return (
        (isinstance(mobject, Rectangle) or not rectangle)
        and len(mobject.points) > 0
        and mobject.get_fill_opacity() == 0
        and mobject.get_stroke_opacity() > 0
        and mobject.get_stroke_width() > 0
        and mobject.get_stroke_color().to_hex().lower() == stage.theme.id_line.lower()
    )


class FrameWatch:
    """Read the grid, the chips and the moving rows at every tenth of a step and at beat ends."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []

    def read(self, scene: Any, moment: Any) -> None:
        """Read one moment (one of :data:`WATCH_ALPHAS`, or a beat's end)."""
        from embedviz.render.gap_text import GapLabel
        from embedviz.render.glyphs import LabelText, NumberText, SansText

        if moment.alpha < 1.0 and moment.alpha not in WATCH_ALPHAS:
            return
        stage = scene.stage
        rows, gaps, strips, filled, gap_boxes = [], [], [], [], []
        family = [m for top in scene.mobjects for m in top.get_family()]
        copies = strip_members(family)
        outlines = [box_of(m) for m in family if id(m) not in copies and id_outline(m, stage)]
        # Round rows of E: an output row's amber outline (its copy, named by the caption)
        # stands round the output block's row, which the checks below do not concern.
        block_left = stage.output.grid.get_left()[0]
        outlines = [box for box in outlines if box[1][0] < block_left]
        lifts = [box_of(m) for m in family if id(m) in copies and id_outline(m, stage, False)]
        for mobject in family:
            if getattr(mobject, "row_strip", False) and len(mobject.submobjects):
                strips.append(box_of(mobject[0]))
            if not len(mobject.points) or mobject.get_fill_opacity() <= 0.0:
                continue
            # E's row numbers and the hidden ranges' labels count once drawn at all (a row
            # fading in at a third of its strength shows on a projector: a label naming it
            # hidden over it is wrong); the output's numbers, once they read.
            if isinstance(mobject, NumberText) and mobject.cell.kind == "row_label":
                rows.append((float(mobject.get_center()[1]), mobject.cell.index[0]))
            elif isinstance(mobject, LabelText | GapLabel) and mobject.text.startswith("row"):
                gaps.append((float(mobject.get_center()[1]), mobject.text))
                gap_boxes.append(box_of(mobject))
            elif mobject.get_fill_opacity() < 0.5:
                continue
            elif isinstance(mobject, NumberText) and mobject.cell.kind == "output":
                filled.append(box_of(mobject))
        fixed = [
            (m.original_text, box_of(m))
            for m in family
            if isinstance(m, SansText) and m.original_text in ("token IDs", "output")
        ]
        fixed.append(("title", box_of(stage.title)))
        fixed += [("grid title", box_of(stage.matrix.heading))]
        self.frames.append(
            Frame(
                moment.beat.name,
                moment.alpha,
                sorted(set(rows), reverse=True),
                sorted(set(gaps), reverse=True),
                float(stage.matrix.bar.thumb.get_center()[1]),
                [box_of(chip) for chip in stage.chips.chips],
                fixed,
                strips,
                filled,
                gap_boxes,
                outlines,
                lifts,
            )
        )


def through(line: np.ndarray, box: np.ndarray) -> bool:
    """Whether a straight line (its box, flat across it) runs through a text's box."""
    return bool(((line[1] > box[0]) & (line[0] < box[1])).all())


def _corners(mobject: Any) -> np.ndarray:
    return np.array([mobject.get_corner([-1, -1, 0])[:2], mobject.get_corner([1, 1, 0])[:2]])


class RingWatch:
    """Each moment a highlight's line runs through a text (test_highlight_rings).

    A highlight (``point_at``'s passing ring, a repeat's rings) is a stroked,
    unfilled line in the highlight colour; a text is any glyph string drawn at
    all, at its size at that moment (a pointed-at label swells).
    """

    def __init__(self) -> None:
        self.found: list[str] = []

    def read(self, scene: Any, moment: Any) -> None:
        """Read one moment (mid-motion only, at :data:`FINE_ALPHAS`)."""
        from embedviz.render.gap_text import GapLabel
        from embedviz.render.glyphs import GlyphString

        if moment.alpha >= 1 or moment.alpha not in FINE_ALPHAS:
            return
        family = [m for top in scene.mobjects for m in top.get_family()]
        colour = scene.stage.theme.highlight.lower()
        texts = [
            (m.text, _corners(m))
            for m in family
            if isinstance(m, GlyphString | GapLabel)
            and len(m.points)
            and max(float(g.get_fill_opacity()) for g in m.get_family()) > 0.0
        ]
        rings = [
            m
            for m in family
            if not isinstance(m, GlyphString)
            and len(m.points)
            and m.get_fill_opacity() == 0
            and m.get_stroke_opacity() > 0
            and m.get_stroke_width() > 0
            and m.get_stroke_color().to_hex().lower() == colour
        ]
        for ring in rings:
            for curve in ring.points.reshape(-1, 4, 3):
                line = np.array([curve[[0, 3], :2].min(axis=0), curve[[0, 3], :2].max(axis=0)])
                for text, box in texts:
                    if through(line, box):
                        self.found.append(
                            f"{moment.beat.name} at {moment.alpha}: a ring on {text!r}"
                        )


def scrolling_beats(board: Any) -> set[str]:
    """The beats whose window is not the one before (read from the storyboard)."""
    return {b.name for a, b in pairwise(board.beats) if a.window != b.window}


def is_band(mobject: Any) -> bool:
    """Whether a text is a hidden range's label or a column-gap mark of E."""
    text = getattr(mobject, "text", "")
    return text == "\u2026" or text.startswith(("row", "column"))


class OverprintWatch:
    """Each overprint of E's texts mid-scroll (test_large_vocab).

    E's texts are its numbers, their column-gap marks, its row numbers, its
    column numbers and the labels of its hidden ranges (not a travelling
    strip's copies). A text counts from the least opacity on: a half-faded
    number over another is what a teacher cannot read. Each overlap of two
    of them is recorded, and each line of an outline (a stroked, unfilled
    rectangle, such as a row's) that runs through one, in the scrolling beats
    (:func:`scrolling_beats`).
    """

    def __init__(self, board: Any) -> None:
        self.scrolls = scrolling_beats(board)
        self.found: list[str] = []

    def read(self, scene: Any, moment: Any) -> None:
        """Read one moment (a scrolling beat's, mid-motion, at :data:`FINE_ALPHAS`)."""
        from manim import Rectangle

        from embedviz.render.gap_text import GapLabel
        from embedviz.render.glyphs import GlyphString

        if moment.beat.name not in self.scrolls or moment.alpha >= 1:
            return
        if moment.alpha not in FINE_ALPHAS:
            return
        family = [m for top in scene.mobjects for m in top.get_family()]
        copies = strip_members(family)
        texts = [
            m
            for m in family
            if isinstance(m, GlyphString | GapLabel)
            and id(m) not in copies
            and len(m.points)
            and max(float(g.get_fill_opacity()) for g in m.get_family()) > 0.0
            and (getattr(getattr(m, "cell", None), "kind", "") in TABLE_TEXTS or is_band(m))
        ]
        boxes = [(m.text, box_of(m)) for m in {id(m): m for m in texts}.values()]
        where = f"{moment.beat.name} at {moment.alpha}"
        for i, (text, box) in enumerate(boxes):
            for other, box_b in boxes[i + 1 :]:
                if _meets(box, box_b, 0.0):
                    self.found.append(f"{where}: {text!r} on {other!r}")
        outlines = [
            m
            for m in family
            if isinstance(m, Rectangle)
            and id(m) not in copies
            and len(m.points)
            and m.get_stroke_opacity() > 0
            and m.get_stroke_width() > 0
            and m.get_fill_opacity() == 0
        ]
        for outline in outlines:
            for curve in outline.points.reshape(-1, 4, 3):
                line = np.array([curve[[0, 3], :2].min(axis=0), curve[[0, 3], :2].max(axis=0)])
                for text, box in boxes:
                    if through(line, box):
                        self.found.append(f"{where}: a line on {text!r}")


def _meets(a: np.ndarray, b: np.ndarray, tolerance: float = 0.01) -> bool:
    width = min(a[1][0], b[1][0]) - max(a[0][0], b[0][0])
    height = min(a[1][1], b[1][1]) - max(a[0][1], b[0][1])
    return width > tolerance and height > tolerance


@dataclass
class LargeVocabPlay:
    """What the three readers saw in one play of the scene."""

    frames: list[Frame]
    rings: list[str]
    overprints: list[str]


class Watchers:
    """The three readers, reading one play together."""

    def __init__(self, board: Any) -> None:
        self.frame, self.ring, self.overprint = FrameWatch(), RingWatch(), OverprintWatch(board)

    def read(self, scene: Any, moment: Any) -> None:
        """Pass one moment to each reader."""
        self.frame.read(scene, moment)
        self.ring.read(scene, moment)
        self.overprint.read(scene, moment)

    def result(self) -> LargeVocabPlay:
        """What they saw."""
        return LargeVocabPlay(self.frame.frames, self.ring.found, self.overprint.found)


def play_for(overrides: dict[str, Any] | None, reader: str) -> Any:
    """Play the scene (with ``overrides``) for one reader alone; return what it saw.

    ``reader``: ``"frames"`` (every beat, at :data:`WATCH_ALPHAS`) or
    ``"overprints"`` (the scrolling beats only, at :data:`FINE_ALPHAS`). At
    192x108: nothing is drawn, so the size changes nothing read.
    """
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.moments import play_moments

    board = prepared_storyboard(SCENE, overrides, environ={})
    if reader == "frames":
        frames = FrameWatch()
        play_moments(board, frames.read, alphas=WATCH_ALPHAS, pixel_width=192, pixel_height=108)
        return frames.frames
    overprints = OverprintWatch(board)
    play_moments(
        board,
        overprints.read,
        alphas=FINE_ALPHAS,
        pixel_width=192,
        pixel_height=108,
        beats=overprints.scrolls,
    )
    return overprints.found
