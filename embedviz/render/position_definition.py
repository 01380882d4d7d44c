"""The size of PositionBlindness's P's definition or size note (moved out of its solver).

:func:`definition_font` sizes the definition so that its one script, the
exponent of ``10000``, stays over :data:`~embedviz.render.design.MIN_TEXT_PX`.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from embedviz.render.design import MIN_TEXT_PX, SPACE, font_for_px
from embedviz.render.formula import formula_height, formula_width
from embedviz.render.metrics import char_advance, digit_height, text_width
from embedviz.story.phrases import caption_lines

if TYPE_CHECKING:
    from embedviz.render.solver_positions import PositionSpec

__all__ = [
    "DEFINITION_GAP",
    "GAP_APART",
    "GAP_LINE",
    "POS_SYMBOL",
    "definition_font",
    "gap_line",
    "note_beside_width",
    "note_fit",
    "note_size",
    "position_column_width",
]

# Between the lines of P's definition: one line's subscript and the next line's
# capitals would touch at SPACE.
DEFINITION_GAP = 2 * SPACE
# A learned P's hidden-rows label: its line's height in digit heights (monospace, no descender).
GAP_LINE = 1.2
# Between a learned P's hidden-rows label and its size note when both stand on one line.
GAP_APART = 2 * SPACE
# The heading of a column of position numbers (the index of P's rows).
POS_SYMBOL = '"pos"'


@cache
def _script_ratio() -> float:
    """Return how tall a raised exponent's digit is beside a digit on the baseline.

    Typst sets scripts smaller (and in their own optical variant); it is
    measured, not assumed, so the definition's exponent is sized from what is drawn.
    """
    from embedviz.render.formula import FormulaText

    glyphs = FormulaText("0^0", 48, "#FFFFFF").family_members_with_points()[1:]
    base, script = sorted(glyphs, key=lambda glyph: glyph.get_x())
    return float(script.height / base.height)


def definition_font(label: float) -> float:
    """Return the font of P's definition: a label's, or larger if its exponent would be small.

    The definition is what the narration points at, so it is set as a label,
    not a legend; its one script (the exponent of ``10000``) must still reach
    :data:`~embedviz.render.design.MIN_TEXT_PX`, which at the smallest labels
    takes a larger font than theirs (a digit of about 17.3 px, still under the
    table numbers wherever the scene's eight tokens fit at 18 px or more). It is
    not a problem for the solver: a floor on the table font would not shrink
    monotonically, which :func:`~embedviz.render.frame_fit.solve_largest` needs.

    Parameters
    ----------
    label
        The frame's label font.

    Returns
    -------
    float
        The font size of every line of the definition.
    """
    return max(label, font_for_px(MIN_TEXT_PX / _script_ratio()) * 1.001)


def note_size(spec: PositionSpec, font: float, inline: bool = False) -> tuple[float, float]:
    """Return the width and height of P's definition (or its size note) at a font size.

    ``inline``: a learned P's hidden-rows label stands on its size note's line, before it.
    """
    if spec.formulas:
        width = max(formula_width(line, font) for line in spec.formulas)
        lines = sum(formula_height(line, font) for line in spec.formulas)
        return width, lines + DEFINITION_GAP * (len(spec.formulas) - 1)
    word, size = spec.note
    width = text_width(word, font, mono=False) + 2 * SPACE + char_advance(font) * len(size)
    gap_w = text_width(spec.gap, font, mono=False)  # in sans (a GapLabel)
    if inline and spec.gap:
        return gap_w + GAP_APART + width, digit_height(font) * 1.6
    return max(width, gap_w), digit_height(font) * 1.6 + gap_line(spec, font, inline)


def note_fit(spec: PositionSpec, font: float, span: float) -> tuple[float, float, bool]:
    """Return the width and height of P's note, and whether its hidden-rows label is inline.

    A learned P's hidden-rows label stands on its size note's line, before it,
    where that line is no wider than ``span`` (P's columns and positions): on a line of its own it
    took 30 px of the rows' height at 720p, and a teacher's review found the rows
    cramped from ``arrange`` on (issue 18: a pitch of 0.393 units, the lookup's 0.686).
    """
    if spec.gap and not spec.formulas:
        width, height = note_size(spec, font, inline=True)
        if width <= span:
            return width, height, True
    return (*note_size(spec, font), False)


def position_column_width(label: float, chars: int) -> float:
    """Return the width of a column of position numbers with its ``pos`` heading.

    The heading says what the numbers are: a teacher's 720p review could not tell
    which row was position 0, 1, 2 in ``arrange`` and the sums (issue 18).
    """
    return max(char_advance(label) * chars, formula_width(POS_SYMBOL, label))


def gap_line(spec: PositionSpec, font: float, inline: bool = False) -> float:
    """Return the height a learned P's hidden-rows label takes over its size note (or 0)."""
    return digit_height(font) * GAP_LINE + SPACE if spec.gap and not inline else 0.0


def note_beside_width(text: str, font: float) -> float:
    """Return the widest line of the sums' note set on two lines beside the sum block.

    The band is centred on it (``solver_positions._centred_sums``), and
    :mod:`~embedviz.render.parts.sum_note` wraps the note beside the block no
    wider: set on one line where the safe area happens to hold it (a font a hair
    smaller), it reached the frame's edge and moved the band 1.3 units right of
    centre.

    Parameters
    ----------
    text
        The note.
    font
        Its font size (the notes').

    Returns
    -------
    float
        The widest of its two lines, in scene units.
    """
    lines = caption_lines(text, len(text) // 2 + 2)
    return max(text_width(line, font, mono=False) for line in lines)
