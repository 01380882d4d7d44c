"""Highlights round parts of a PyTorch print, clear of every glyph (SingleTokenLookup, issue 18).

The print is monospace and tight: ``[[-0.4015`` leaves about 10 px at 720p
between the inner ``[`` and the minus sign, and ``1481]]`` under 7 px between
the last digit and the ``]``; ``>)`` closes ``grad_fn=<EmbeddingBackward0>``
as tightly. A 720p review found a box round the numbers cutting into the
brackets, and the ``grad_fn`` box taking in ``tensor(``'s closing ``)``. So
a highlight goes only where a gap is wide enough to stand clear of both
neighbours: between two brackets, or between a bracket and ``(`` or ``,``
(about 11 px):

- :func:`ring_round` rings a span of the print from one character to
  another (the inner pair, that is the row, ``[ ... ]``, when it prints on
  several lines), each side midway between
  the span's ink and the nearest ink beside it, stepping in on a shorter last
  line (GPT-2's 768 numbers print on several lines). Between two brackets
  (``([``, ``[[``, ``]]``, ``],``) midway is only about 4 px from each at
  720p, and a review saw GPT-2's rings touch them: the ring breaks off there,
  keeping a passing ring's clearance (:data:`RING_CLEAR`) from every bracket;
- :func:`ring_glyphs` rings single characters, each whole (the outer pair's
  ``[`` and ``]`` while the narration names the outer pair: a ring round the
  whole ``[[ ... ]]`` read as a mark on everything it held, a 720p review
  found). Each side stands midway to the nearest ink beside it, or a passing
  ring's margin away where there is more room;
- :func:`underline` marks a span too tight to ring (``grad_fn=<...>`` before
  its ``)``) from under its descenders; :func:`mark_row` underlines a row
  printed on one line (a side between ``[[`` stood only 4 px clear of each
  bracket at 720p, and a lecture-hall review saw it touch them).

Every character's ink is read from its glyph outline (:func:`char_ink`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import pairwise

import numpy as np
from manim import Line, Rectangle, VGroup, VMobject

from embedviz.render.design import RING_BUFF
from embedviz.render.glyphs import GlyphString, LabelText
from embedviz.render.metrics import xyz

__all__ = [
    "GLYPH_RING_STROKE",
    "RING_CLEAR",
    "RING_STROKE",
    "Ink",
    "char_ink",
    "mark_row",
    "print_inks",
    "ring_glyphs",
    "ring_round",
    "underline",
]

# A ring's line (frame units = width / 100), and its ink's margin from the brackets' ink
# (and above and below the span): a passing ring's, design.RING_BUFF less half of
# point_at's 4-wide stroke, 7.2 px at 720p (0.06 left GPT-2's rings 4 px from them).
RING_STROKE = 3.0
RING_CLEAR = RING_BUFF - 4.0 / 200
# A ring round one glyph (the outer pair's brackets) has a side between two brackets, as
# little as 8 px apart at 720p (GPT-2's print of wide-ranged numbers): a thinner line
# (1.8 px) keeps it 3 px clear of both.
GLYPH_RING_STROKE = 2.0
# Where a ring breaks off near a bracket, its line is tested at this step (0.45 px);
# a piece left between two breaks shorter than MIN_RUN (4.5 px) would read as a speck.
CUT_STEP = 0.005
MIN_RUN = 0.05
# An underline's line, and its gap under the lowest descender.
UNDERLINE_STROKE = 4.0
UNDERLINE_GAP = 0.05
# A row's underline stands further under its brackets: 6 px at 720p, clear of them.
ROW_GAP = 0.07


@dataclass(frozen=True)
class Ink:
    """One inked character of the print (or one number, or the elision mark).

    ``line`` is its line's centre (the slot's), ``low`` and ``high`` its ink
    box's corners; ``piece`` and ``index`` say which text piece and character
    it is (``index`` -1 for a whole piece: a number or the elision).
    """

    line: float
    low: np.ndarray
    high: np.ndarray
    piece: GlyphString
    index: int

    @property
    def char(self) -> str:
        """The character (a whole piece's text for a number)."""
        return self.piece.text if self.index < 0 else self.piece.text[self.index]


@cache
def _unit_ink(char: str) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Return a character's ink box as shares of its slot (x of one advance, y of the height)."""
    one = LabelText(char, 48, "#ffffff")
    if not len(one.points[:-8]):
        return None
    (left, bottom), (right, top) = one.slot_corners()[0][:2], one.slot_corners()[1][:2]
    low, high = one.ink_corners()
    size = np.array([right - left, top - bottom])
    start = np.array([left, bottom])
    a, b = (low[:2] - start) / size, (high[:2] - start) / size
    return (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))


def char_ink(piece: GlyphString, index: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Return one character's ink box where the monospace string is now (None: a space)."""
    unit = _unit_ink(piece.text[index])
    if unit is None:
        return None
    low, high = piece.slot_corners()
    advance = (high[0] - low[0]) / len(piece.text)
    height = high[1] - low[1]
    left = low[0] + index * advance
    corners = [xyz(left + u * advance, low[1] + v * height) for u, v in unit]
    return corners[0], corners[1]


def print_inks(printed: VGroup) -> list[Ink]:
    """Return every inked character of a print, in reading order (lines top first)."""
    inks: list[Ink] = []
    for piece in printed.submobjects:
        assert isinstance(piece, GlyphString)
        low, high = piece.slot_corners()
        line = round(float(low[1] + high[1]) / 2, 4)
        if type(piece) is not LabelText:
            inks.append(Ink(line, *piece.ink_corners(), piece, -1))
            continue
        for index in range(len(piece.text)):
            found = char_ink(piece, index)
            if found is not None:
                inks.append(Ink(line, found[0], found[1], piece, index))
    return sorted(inks, key=lambda ink: (-ink.line, float(ink.low[0])))


def _sides(
    inks: list[Ink], held: list[Ink], line: float, widest: float, buff: float
) -> tuple[float, float, float]:
    """Return a ring's left and right on one line: midway to the nearest ink beside it.

    And how far left the ring's left side may go on this line: midway to the
    ink before it (``-inf`` when there is none).
    """
    mine = [k for k in held if k.line == line]
    start = min(float(k.low[0]) for k in mine)
    end = max(float(k.high[0]) for k in mine)
    others = [k for k in inks if k.line == line and not any(k is h for h in held)]
    before = [(float(k.high[0]) + start) / 2 for k in others if k.high[0] <= start]
    after = [(float(k.low[0]) + end) / 2 for k in others if k.low[0] >= end]
    bound = max(before, default=-np.inf)
    return max(start - buff, bound), min([widest, *after]), bound


def mark_row(inks: list[Ink], first: int, last: int, colour: str) -> VMobject:
    """Mark the row ``inks[first:last + 1]`` (its numbers in their own brackets).

    A ring's side between two brackets stands only about 4 px clear of each
    at 720p (a lecture-hall review saw it touch them): a row on one line is
    underlined instead, :data:`ROW_GAP` under its brackets; a row printed on
    several lines (GPT-2's) is ringed.
    """
    if len({k.line for k in inks[first : last + 1]}) == 1:
        return underline(inks, first, last, colour, gap=ROW_GAP)
    return ring_round(inks, first, last, colour)


def ring_round(inks: list[Ink], first: int, last: int, colour: str) -> VMobject:
    """Ring ``inks[first:last + 1]``, clear of every other ink of the print.

    Each side goes midway between the span's ink and the nearest ink beside
    it on that line (or a margin away); the left side is one straight line
    (a print's later lines start right of its first bracket), the right side
    steps in where a line ends sooner. The top and bottom clear the span's
    tallest ink (brackets reach above and below the digits). Where the line
    would come within :data:`RING_CLEAR` of a bracket's ink it breaks off
    (:func:`_cut_round_brackets`).
    """
    held = inks[first : last + 1]
    half = RING_STROKE / 200  # half the line's width, in frame units
    buff = RING_CLEAR + half
    lines = sorted({k.line for k in held}, reverse=True)
    widest = max(float(k.high[0]) for k in held) + buff
    sides = [_sides(inks, held, line, widest, buff) for line in lines]
    # As far left as any line needs, but never past the ink before the span on any line
    # (GPT-2's elision mark stands under the inner bracket, its margin over the outer).
    left = max(min(side[0] for side in sides), *[side[2] for side in sides])
    top = max(float(k.high[1]) for k in held if k.line == lines[0]) + buff
    bottom = min(float(k.low[1]) for k in held if k.line == lines[-1]) - buff
    corners = [xyz(left, top), xyz(sides[0][1], top)]
    for (upper, (_, right, _)), (lower, (_, next_right, _)) in pairwise(
        zip(lines, sides, strict=True)
    ):
        if not np.isclose(right, next_right):
            # The step goes midway between the two lines.
            y = (upper + lower) / 2
            corners += [xyz(right, y), xyz(next_right, y)]
    corners += [xyz(sides[-1][1], bottom), xyz(left, bottom)]
    ring = VMobject()
    for run in _cut_round_brackets([*corners, corners[0]], inks, buff):
        ring.start_new_path(run[0])
        ring.add_points_as_corners(run[1:])
    return ring.set_stroke(colour, width=RING_STROKE).set_fill(opacity=0.0)


def ring_glyphs(inks: list[Ink], chosen: list[int], colour: str) -> VGroup:
    """Ring each of ``inks[n]`` for ``n`` in ``chosen``, one whole closed outline apiece.

    Each side stands a passing ring's margin (:data:`RING_CLEAR` and half the
    line) from the character's ink, or midway to the nearest ink on that side
    where that is nearer: between two brackets (``([``, ``[[``, ``]]``) the
    gap is 8-11 px at 720p, and midway keeps the line (a thin one,
    :data:`GLYPH_RING_STROKE`) equally clear of both. Above and below, the
    nearest ink is any that the ring's width spans (a print on several lines).
    """
    buff = RING_CLEAR + GLYPH_RING_STROKE / 200
    rings = VGroup()
    for n in chosen:
        mine = inks[n]
        others = [k for k in inks if k is not mine]
        (x0, y0), (x1, y1) = mine.low[:2], mine.high[:2]
        level = [k for k in others if k.low[1] < y1 and k.high[1] > y0]
        left = max([x0 - buff, *[(x0 + k.high[0]) / 2 for k in level if k.high[0] <= x0]])
        right = min([x1 + buff, *[(x1 + k.low[0]) / 2 for k in level if k.low[0] >= x1]])
        column = [k for k in others if k.low[0] < right and k.high[0] > left]
        bottom = max([y0 - buff, *[(y0 + k.high[1]) / 2 for k in column if k.high[1] <= y0]])
        top = min([y1 + buff, *[(y1 + k.low[1]) / 2 for k in column if k.low[1] >= y1]])
        ring = Rectangle(width=float(right - left), height=float(top - bottom))
        ring.move_to(xyz(float(left + right) / 2, float(bottom + top) / 2))
        rings.add(ring.set_stroke(colour, width=GLYPH_RING_STROKE).set_fill(opacity=0.0))
    return rings


def _cut_round_brackets(
    corners: list[np.ndarray], inks: list[Ink], clear: float
) -> list[list[np.ndarray]]:
    """Split a closed outline into the runs that stay ``clear`` of every bracket's ink.

    ``corners`` go round the outline and end where they start. The runs come
    in the outline's order, the first starting where the outline first stands
    clear, so the gaps between them are the pieces left out (with any piece
    too short to read as a line).
    """
    boxes = [(k.low[:2], k.high[:2]) for k in inks if k.index >= 0 and k.char in "[]"]
    points: list[np.ndarray] = []
    for start, end in pairwise(corners):
        steps = max(1, int(np.ceil(np.linalg.norm(end - start) / CUT_STEP)))
        points += [start + (end - start) * t for t in np.arange(steps) / steps]
    path = np.array(points)
    near = np.zeros(len(path), dtype=bool)
    for low, high in boxes:
        outside = np.maximum(np.maximum(low - path[:, :2], path[:, :2] - high), 0.0)
        near |= np.hypot(outside[:, 0], outside[:, 1]) < clear - 1e-9
    if not near.any():
        return [[*corners]]
    # Start at the first point after a piece left out, and go round once.
    begin = (int(np.nonzero(near & ~np.roll(near, -1))[0][0]) + 1) % len(path)
    order = [*range(begin, len(path)), *range(begin)]
    runs: list[list[np.ndarray]] = []
    current: list[np.ndarray] = []
    for n in order:
        if near[n]:
            if len(current) > 1:
                runs.append(current)
            current = []
        else:
            current.append(path[n])
    if len(current) > 1:
        runs.append(current)
    long = [run for run in runs if np.linalg.norm(np.diff(run, axis=0), axis=1).sum() >= MIN_RUN]
    return [_corners_only(run) for run in long]


def _corners_only(run: list[np.ndarray]) -> list[np.ndarray]:
    """Drop the points of a run that lie on a straight line between their neighbours."""
    kept = [run[0]]
    for before, point, after in zip(run, run[1:], run[2:], strict=False):
        (ax, ay), (bx, by) = point[:2] - before[:2], after[:2] - point[:2]
        if abs(float(ax * by - ay * bx)) > 1e-12:
            kept.append(point)
    return [*kept, run[-1]]


def underline(
    inks: list[Ink], first: int, last: int, colour: str, gap: float = UNDERLINE_GAP
) -> VMobject:
    """Underline ``inks[first:last + 1]`` (one line), ``gap`` under its lowest descender."""
    held = inks[first : last + 1]
    y = min(float(k.low[1]) for k in held) - gap - UNDERLINE_STROKE / 200
    start = min(float(k.low[0]) for k in held)
    end = max(float(k.high[0]) for k in held)
    return Line(xyz(start, y), xyz(end, y)).set_stroke(colour, width=UNDERLINE_STROKE)
