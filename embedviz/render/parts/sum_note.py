"""The note by PositionBlindness's sums: they add the unrounded values.

A sum is the core's sum of two unrounded values, shown to four decimals, so
its last digit can differ from the sum of the two rounded numbers drawn above
it (``-0.2010 + 0.2498`` is shown as ``0.0489``). A teacher adding the shown
numbers on the board would get another last digit; the note says why.

It is one storyboard label (``sum_note``), at the notes' size (the
legend's, never under :data:`~embedviz.render.design.MIN_NOTE_PX`), muted, in
sans: it is words, not code (monospace is for code and PyTorch's prints).
It stands on the sums' heading line, after the heading (``sum``), on its
baseline, where that line is free to the frame's edge (a sinusoidal P: its
definition stands under E[id]); else (a learned P, whose size note stands on
that line under P) right beside the sum block, wrapped and left-aligned, in
the rows the closing bracket does not span (a 720p review: in the band under
E[id], left of ``=``, it stood 115 px from the sums it explains); else, where
no such rows hold it, in that band, top-aligned with the heading. Beside the
block it stands at the end of its room farthest from the bracket and the
verdict: level with the block's bottom under them, its top over them (a 720p
review of a learned P read ``≠ different``, a SPACE over the note's first
line, as the first line of one label: the note's own lines stand as close).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from manim import DOWN, LEFT, UP, VMobject

from embedviz.render.design import APART, SPACE, Theme
from embedviz.render.glyphs import REFERENCE_FONT_SIZE, SANS_FONT, SansText, glyph_font
from embedviz.render.metrics import text_width, xyz
from embedviz.render.parts.clear_outline import clear_reach
from embedviz.render.sans_lines import SansLines
from embedviz.render.solver_positions import PositionPlan, note_beside_width, ring_clear
from embedviz.story.phrases import caption_lines

__all__ = [
    "balanced_lines",
    "band_shift",
    "beside_sums",
    "place_sum_note",
    "shifted_band",
    "wrap_words",
]


def wrap_words(text: str, font: float, width: float) -> list[str]:
    """Break ``text`` into sans lines at most ``width`` wide at ``font`` (long words stay whole)."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and text_width(joined, font, mono=False) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines


def balanced_lines(text: str, font: float, width: float) -> list[str]:
    """Break ``text`` into as few sans lines at most ``width`` wide as it needs, balanced.

    Broken as the captions are (:func:`~embedviz.story.phrases.caption_lines`:
    after a comma rather than inside ``4 decimals``); greedily where no such
    break fits.
    """
    for chars in range(len(text), 0, -1):
        lines = list(caption_lines(text, chars))
        if all(text_width(line, font, mono=False) <= width for line in lines):
            return lines
    return wrap_words(text, font, width)


def place_sum_note(
    text: str,
    font: float,
    theme: Theme,
    heading: VMobject,
    taken: list[VMobject],
    band: tuple[float, float],
    right_edge: float,
    beside: list[tuple[float, float, float, bool]] | None = None,
    on_heading: bool = True,
) -> SansLines:
    """Return the note, placed after the sums' heading or in the band left of ``=``.

    In the band it stands level with the heading's top, or under whatever of
    ``taken`` it would meet there.

    Parameters
    ----------
    text
        The note (the storyboard's ``sum_note`` label).
    font
        The legend size.
    theme
        Colours (the note is muted, as the headings' words).
    heading
        The sums' heading, whose line the note shares where it is free.
    taken
        What else stands near that line (P's body and its definition or size note).
    band
        The left and right edges of the band under E[id], left of ``=`` and the heading.
    right_edge
        The frame's safe right edge.
    beside
        Where the note may stand beside the sum block, clear of the closing
        verdict: rooms (left, top, bottom, under) reaching to ``right_edge``;
        the first that holds it wins. It stands level with a room's bottom
        where the room is ``under`` what it keeps clear of, else with its top.
    on_heading
        Whether it may stand on the heading's line (not where the band was
        moved to stand centred on it beside the block: :func:`band_shift`).
    """
    line = SansLines(text, [text], font, theme.muted, SPACE)
    line.move_to(heading.get_center()).align_to(xyz(heading.get_right()[0] + 2 * SPACE, 0), LEFT)
    words = heading.submobjects[0] if heading.submobjects else heading
    if isinstance(words, SansText):
        # On the heading's baseline (boxes are ink: "sum" and "added" differ in height).
        line.shift(xyz(0, _baseline(words) - _baseline(line)))
    free = not any(_meet(line, m) for m in taken)
    if on_heading and line.get_right()[0] <= right_edge and free:
        return line
    for x, top, bottom, under in beside or []:
        # No wider than the solver centred the band on (two lines), whatever room is left;
        # on one line where two are too tall (APART under the verdict, issue 18).
        for width in (min(right_edge - x, note_beside_width(text, font)), right_edge - x):
            lines = balanced_lines(text, font, width)
            note = SansLines(text, lines, font, theme.muted, SPACE, align="left")
            if note.width <= right_edge - x and note.height <= top - bottom:
                end = xyz(x, bottom) if under else xyz(x, top)
                return note.align_to(end, LEFT).align_to(end, DOWN if under else UP)
    left, right = band
    lines = balanced_lines(text, font, right - left)
    note = SansLines(text, lines, font, theme.muted, SPACE, align="left")
    note.align_to(xyz(left, 0), LEFT).align_to(heading.get_top(), UP)
    # Where P's definition stands in that band too (a narrow P: a sinusoidal one of
    # d = 1 in the light theme), the note goes under it rather than across it.
    for other in sorted(taken, key=lambda m: -float(m.get_bottom()[1])):
        if _meet(note, other):
            note.align_to(xyz(0, float(other.get_bottom()[1]) - 2 * SPACE), UP)
    return note


def _baseline(text: SansText) -> float:
    """Return the baseline of a sans text's first line, now (half a digit under its digit line)."""
    digit = glyph_font(SANS_FONT).digit_height * text.font_size / REFERENCE_FONT_SIZE
    return text.digit_line() - digit * text.height / text.natural_height / 2


def _meet(a: VMobject, b: VMobject) -> bool:
    """Whether two boxes come closer than ``SPACE``."""
    return bool(
        a.get_left()[0] < b.get_right()[0] + SPACE
        and b.get_left()[0] < a.get_right()[0] + SPACE
        and a.get_bottom()[1] < b.get_top()[1] + SPACE
        and b.get_bottom()[1] < a.get_top()[1] + SPACE
    )


def beside_sums(blocks: Any, pair: tuple[Any, Any]) -> list[tuple[float, float, float, bool]]:
    """Return the rooms beside the sum block clear of the closing verdict, best first.

    Right of the block, :func:`~embedviz.render.solver_positions.ring_clear`
    past a row's ring (its ink reaches :func:`clear_reach` past the body) and
    two SPACEs past the rows' position numbers: the block's height over and
    under the bracket, which joins the centre lines of ``pair``'s rows, a
    SPACE clear of it, the taller first. Then right of the bracket, under
    and over the verdict's sign and word, APART from them; last, past the
    word, APART from it. Each room as (left, top, bottom, under): ``under``
    where it lies under what it keeps clear of.

    Parameters
    ----------
    blocks
        The position blocks (:class:`~embedviz.render.parts.positions.PositionBlocks`).
    pair
        The two positions the closing verdict joins.
    """
    grid = blocks.sum_grid
    top = grid.body_top()
    bottom = top - grid.height_of_body
    first, second = sorted((blocks.sums.y(pair[0]), blocks.sums.y(pair[1])), reverse=True)
    # Past the rows' position numbers too, as far from them as from a ring.
    labels = float(blocks.sum_labels.get_right()[0]) + 2 * SPACE if blocks.sum_labels else 0.0
    x = max(grid.body_right() + clear_reach() + ring_clear(), labels)
    _, sign, word = blocks.verdict(pair)
    words = (
        max(sign.get_top()[1], word.get_top()[1]),
        min(sign.get_bottom()[1], word.get_bottom()[1]),
    )
    # APART from the verdict's sign and word too: rows loose enough for the note to stand
    # under the bracket brought it 0.43 units under ``≠ different`` (issue 18).
    over = (top, max(first + SPACE, words[0] + APART), False)
    under = (min(second - SPACE, words[1] - APART), bottom, True)
    runs = sorted([over, under], key=lambda r: r[1] - r[0])
    # APART from the verdict: a SPACE under ``≠ different``, a 720p review read the
    # two as one block (issue 18); they are two groups.
    after = [(words[1] - APART, bottom, True), (top, words[0] + APART, False)]
    x_after = float(sign.get_left()[0])
    # Else past the word, APART from it, level with the block's bottom.
    beyond = (float(word.get_right()[0]) + APART, top, bottom, True)
    return [(x, *run) for run in runs] + [(x_after, *room) for room in after] + [beyond]


def band_shift(blocks: Any) -> float:
    """Return how far a learned P's sum band moves right to stand centred in the frame.

    From ``=`` to the end of the verdict or of the note, whichever reaches
    farther. The solver centres the band on the note set on two lines beside
    the block; APART under ``≠ different`` (issue 18), four rows hold it on
    one line only, which reached 1.2 units past the centred band. Never
    further left than E[id]'s left edge; 0 for a sinusoidal P (its definition
    stands left of ``=``) or a band centred within a SPACE.

    Parameters
    ----------
    blocks
        The position blocks (:class:`~embedviz.render.parts.positions.PositionBlocks`).
    """
    last = blocks.board.beats[-1]
    if blocks.sum_note is None or last.labels_with("formula_"):
        return 0.0
    left = float(blocks.equals.get_left()[0])
    verdict = blocks.verdict(blocks.pair(last))
    right = max(float(verdict.get_right()[0]), float(blocks.sum_note.get_right()[0]))
    dx = max(-(left + right) / 2, blocks.plan.token_left - left)
    return dx if abs(dx) > SPACE else 0.0


def shifted_band(plan: PositionPlan, dx: float) -> PositionPlan:
    """Return ``plan`` with its sum band (``=``, block, numbers, bracket) ``dx`` right."""
    return replace(
        plan,
        sum_left=plan.sum_left + dx,
        equals_x=plan.equals_x + dx,
        verdict_left=plan.verdict_left + dx,
        sum_label_left=plan.sum_label_left + dx,
        note_beside=True,
    )
