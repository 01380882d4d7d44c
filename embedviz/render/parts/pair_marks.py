"""A letter in a ring for each repeated ID: on its rows and at the start of its marks (BatchLookup).

A teacher's review of GPT-2's batch (issue 18) saw all four marked rows
ringed alike, white: which row equals which was written only in the
``out[1,2] = out[0,0]`` lines under the slices. Colours keep one meaning each
("equal" is shown by shape with a neutral accent), so each repeated ID gets a
letter of its own (the storyboard's ``pair_b_t`` labels), drawn in a small
ring in the verdict's accent left of each of its rows and at the start of
each of its marks: the two rows of a pair carry the same letter, two pairs
two letters. The letters replace the lines that once led from each mark to
its rows (over E, four pairs' lines crossed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from manim import Circle, VGroup, VMobject

from embedviz.render.batch_plan import MARK_LINE
from embedviz.render.design import SPACE
from embedviz.render.glyphs import LabelText, NumberText
from embedviz.render.metrics import digit_height, xyz
from embedviz.render.parts.grid import CellGrid
from embedviz.render.parts.mark_under import RING_BUFF, RING_WIDTH
from embedviz.story.model import Beat, NumberCell

if TYPE_CHECKING:
    from embedviz.render.parts.batch import SliceStack

__all__ = [
    "PAIR_RING_WIDTH",
    "PairBadge",
    "badge_column",
    "badge_room",
    "lettered_marks",
    "mark_badges",
    "pair_badges",
    "pair_letters",
    "row_badges",
]

# The badge's ring (2.2 px at 720p): lighter than the rows' rings (RING_WIDTH), so that
# it reads as a tag's edge, not a row's.
PAIR_RING_WIDTH = 2.5


class PairBadge(VGroup):
    """A letter in a ring, in the verdict's accent: one repeated ID's mark.

    Attributes
    ----------
    letter
        The storyboard's letter for the ID (its ``pair_b_t`` labels).
    """

    def __init__(self, letter: str, font: float, colour: str, radius: float) -> None:
        # The letter as large as its ring holds (a lowercase letter stands about two
        # thirds of a digit's height): at a label's size it read small in its ring.
        text = LabelText(letter, font * 1.2 * radius / digit_height(font), colour)
        ring = Circle(radius=radius, color=colour, stroke_width=PAIR_RING_WIDTH)
        text.place(ring.get_center())
        super().__init__(ring, text)
        self.letter = letter


def pair_letters(beat: Beat) -> dict[tuple[int, int], str]:
    """Return each marked row's letter, from the beat's ``pair_b_t`` labels."""
    letters: dict[tuple[int, int], str] = {}
    for role, text in beat.labels.items():
        if role.startswith("pair_"):
            b, t = role[5:].split("_")
            letters[(int(b), int(t))] = text
    return letters


def lettered_marks(beat: Beat) -> list[NumberCell]:
    """Return the beat's equality marks in their letters' order (``a`` first), then by row.

    The letters follow their IDs' first copies down the batch
    (``story.scenes.batch``): the marks' lines read ``a``, ``b``, ... down too.
    """
    letters = pair_letters(beat)
    cells = [c for c in beat.numbers if c.kind == "equal_to"]
    return sorted(cells, key=lambda c: (letters.get((c.index[0], c.index[-1]), ""), c.index))


def _radius(font: float, row_height: float) -> float:
    """Return a badge's radius: round a letter, no taller than most of a row."""
    return min(0.85 * digit_height(font), 0.42 * row_height)


def badge_room(font: float, row_height: float) -> float:
    """Return how far a mark moves right to make room for its badge at its start.

    The badge's ink too (half its stroke out of its ring), so that a badge at
    the start of a mark under E ends where E's ink does, not past it (at the
    frame's safe margin where E stands against it).
    """
    return 2 * _radius(font, row_height) + SPACE / 2 + PAIR_RING_WIDTH / 200


def badge_column(font: float, row_height: float) -> float:
    """Return the least room between E's body and the slices' that the rows' letters need.

    Left of each marked row, outside its ring (:func:`_column`), a SPACE
    clear of E's cells: the batch solver keeps the column beside E at least
    this wide where the batch has repeats (it once kept room there for lines
    from the marks, which the letters replaced).
    """
    radius = _radius(font, row_height)
    ink = PAIR_RING_WIDTH / 100  # half the badge's stroke out of each side
    return SPACE + 2 * radius + ink + SPACE / 2 + RING_BUFF + RING_WIDTH / 200


def _column(grid: CellGrid, radius: float) -> float:
    """Return the x of the letters' column left of a slice, outside its rows' rings.

    (The rings stand RING_BUFF out of the cells, their ink half RING_WIDTH more.)
    """
    return grid.body_left() - RING_BUFF - RING_WIDTH / 200 - SPACE / 2 - radius


def row_badges(
    letters: Mapping[tuple[int, int], str],
    slices: Sequence[CellGrid],
    font: float,
    row_height: float,
    colour: str,
) -> VGroup:
    """Return a badge left of each lettered row, clear of its ring (not added)."""
    badges = VGroup()
    for (b, t), letter in sorted(letters.items()):
        grid = slices[b]
        radius = _radius(font, row_height)
        badge = PairBadge(letter, font, colour, radius)
        badge.move_to(xyz(_column(grid, radius), grid.row_y(t)))
        badges.add(badge)
    return badges


def mark_badges(
    letters: Mapping[tuple[int, int], str],
    marks: Sequence[VMobject],
    font: float,
    row_height: float,
    colour: str,
    column: CellGrid | None = None,
) -> VGroup:
    """Return a badge at the start of each mark.

    In the room left for it (:func:`badge_room`), or in the rows' letters'
    column left of ``column`` (a slice) where a mark stands under the slices
    from their left edge.
    """
    badges = VGroup()
    for mark in marks:
        assert isinstance(mark, NumberText)
        # No taller than its line (MARK_LINE digits): two marks' letters stay apart.
        radius = min(_radius(font, row_height), 0.4 * float(mark.height) * MARK_LINE)
        badge = PairBadge(letters[mark.cell.index], font, colour, radius)
        x = float(mark.get_left()[0]) - SPACE / 2 - radius
        if column is not None and abs(float(mark.get_left()[0]) - column.body_left()) < SPACE:
            x = _column(column, _radius(font, row_height))
        badge.move_to(xyz(x, float(mark.get_center()[1])))
        badges.add(badge)
    return badges


def pair_badges(
    stack: SliceStack, beat: Beat, marks: Sequence[VMobject], under: bool = False
) -> VGroup:
    """Return the repeats beat's badges, on the rows and at the marks, in the stack's notes.

    The marks stand where their place left them :func:`badge_room` at their
    start; or, ``under`` the slices from their left edge, the marks' letters
    stand in the rows' letters' column. The badges stay to the end with the
    marks (the rows' rings go with the next beat's first phrase): they name
    the pairs the marks write.
    """
    letters = pair_letters(beat)
    font, row_height, colour = (
        stack.plan.scale.label,
        stack.plan.sizes.row_height,
        stack.theme.wrong,
    )
    stack.row_badges = row_badges(letters, stack.slices, font, row_height, colour)
    column = stack.slices[-1] if under else None
    at_marks = mark_badges(letters, marks, font, row_height, colour, column)
    badges = VGroup(stack.row_badges, at_marks)
    stack.notes.add(badges)
    return badges
