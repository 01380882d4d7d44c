"""The burned-in caption: one phrase of the narration, in balanced lines."""

from __future__ import annotations

import itertools
import unicodedata
from functools import cache

import numpy as np
from manim import VGroup, VMobject, config

from embedviz.render.caption_maths import MathsPiece, maths_pieces, typst_source
from embedviz.render.design import CAPTION_FONT, DARK, MIN_TEXT_PX, REFERENCE_PX, Theme, maths
from embedviz.render.glyphs import REFERENCE_FONT_SIZE, SANS_FONT, SansText, glyph_font
from embedviz.story.phrases import caption_lines

__all__ = ["SUBSCRIPT_SCALE", "Caption", "CaptionText"]

# A subscript run is drawn as its base characters at this share of the caption's
# size (TeX's script style), lowered by SUBSCRIPT_DROP digit heights: the font's
# own subscript glyphs ("wₜ") are 11 px tall at 720p, under the 12 px floor.
SUBSCRIPT_SCALE = 0.7
SUBSCRIPT_DROP = 0.35
LINE_SPACING = 2.1  # as SansText's: baselines this many digit heights apart
# Space either side of a typeset formula, in digit heights: Typst's glyph boxes
# are their ink, where a sans glyph's advance has side bearings.
MATHS_BEARING = 0.1
# A hairline of each glyph's own colour round the typeset maths, in digit heights:
# New Computer Modern's strokes are about two thirds as thick as DejaVu Sans's, and
# beside the caption's words a projected formula read faint (a 720p review).
MATHS_WEIGHT = 0.025


def _subscript_base(char: str) -> str | None:
    """Return the character a Unicode subscript stands for (``ₜ`` → ``t``), or None."""
    tag, _, code = unicodedata.decomposition(char).partition(" ")
    return chr(int(code, 16)) if tag == "<sub>" and code else None


class CaptionText(SansText):
    """Caption lines in DejaVu Sans, with their maths typeset and subscripts drawn large enough.

    With a ``theme``, each run of maths the narration writes (``E[3]``, ``wₜ``,
    ``E ← E − 0.5 · ∂L/∂E``: :func:`~embedviz.render.caption_maths.maths_pieces`)
    is set in the one maths voice (:func:`~embedviz.render.design.maths`) in
    the colour of the object it names, its digits as tall as the words' and
    on their baseline; the typeset pieces are this text's submobjects. Each
    other run of subscript characters (``ₜ``, ``₀``) is drawn as its base
    characters (``t``, ``0``) at :data:`SUBSCRIPT_SCALE` of the size, or larger
    where that would leave a glyph under :data:`MIN_TEXT_PX` at 720p, and
    lowered below the baseline; everything else is laid out as
    :class:`SansText` lays it out.

    Parameters
    ----------
    text
        The text; newlines separate lines.
    font_size
        Manim font size.
    color
        Fill colour of the words.
    theme
        The colours of the maths; None sets the maths as words.
    """

    def __init__(self, text: str, font_size: float, color: str, theme: Theme | None = None) -> None:
        super().__init__(text, font_size, color, LINE_SPACING)
        self.maths: list[VMobject] = []
        pieces = maths_pieces(text) if theme is not None else []
        if not pieces and not any(_subscript_base(char) for char in text):
            return
        digit = glyph_font(SANS_FONT).digit_height * font_size / REFERENCE_FONT_SIZE
        blocks: list[np.ndarray] = []
        start = 0
        for number, line in enumerate(text.split("\n")):
            y = -number * digit * LINE_SPACING
            points, typeset, width = self._line(line, start, pieces, font_size, theme)
            shift = np.array([-width / 2, y, 0.0])
            if len(points):
                blocks.append(points + shift)
            for formula in typeset:
                formula.shift(shift)
            self.maths += typeset
            start += len(line) + 1
        self.set_points(np.concatenate(blocks) if blocks else np.zeros((0, 3)))
        self.add(*self.maths)
        # As SansText records them, for the moves and the size checks that read them back.
        drawn = bool(self.family_members_with_points())
        self.natural_width = float(self.width) if drawn else 0.0
        self.line_below_top = float(self.get_top()[1]) if drawn else 0.0
        self.natural_height = float(self.height) if drawn else 0.0

    def _line(
        self,
        line: str,
        start: int,
        pieces: list[MathsPiece],
        font_size: float,
        theme: Theme | None,
    ) -> tuple[np.ndarray, list[VMobject], float]:
        """Lay one line out from x = 0: its words' outline, its typeset maths, its width."""
        scale = font_size / REFERENCE_FONT_SIZE
        parts: list[np.ndarray] = []
        typeset_all: list[VMobject] = []
        x = 0.0
        for words, formula in _split_line(line, start, pieces):
            if words:
                points, width = _words(words, scale)
                if len(points):
                    parts.append(points * scale + np.array([x, 0.0, 0.0]))
                x += width * scale
            if formula and theme is not None:
                typeset, width = caption_maths(line, start, formula, font_size, theme)
                typeset.shift(np.array([x, 0.0, 0.0]))
                typeset_all.append(typeset)
                x += width
        return (np.concatenate(parts) if parts else np.zeros((0, 3))), typeset_all, x


def _split_line(
    line: str, start: int, pieces: list[MathsPiece]
) -> list[tuple[str, list[MathsPiece]]]:
    """Cut one line (at ``start`` in the whole text) into words, each followed by a formula.

    A formula is the pieces of one run on this line (one per colour; none
    after the last words). A piece that runs over the line's end is cut there.
    """
    end = start + len(line)
    cut: list[tuple[str, list[MathsPiece]]] = []
    x = start
    for piece in pieces:
        low, high = max(piece.start, start), min(piece.end, end)
        text = line[low - start : high - start]
        if low >= high or not text.strip():
            continue
        low += len(text) - len(text.lstrip())
        part = MathsPiece(low, low + len(text.strip()), text.strip(), piece.role, piece.run)
        between = line[x - start : low - start]
        if cut and cut[-1][1] and cut[-1][1][-1].run == piece.run and not between.strip():
            cut[-1][1].append(part)  # the same formula, in another colour
        else:
            cut.append((between, [part]))
        x = part.end
    cut.append((line[x - start :], []))
    return cut


def caption_maths(
    line: str, start: int, formula: list[MathsPiece], font_size: float, theme: Theme
) -> tuple[VMobject, float]:
    """Typeset one formula of a caption line, from x = 0 on the line's digit centre line.

    The formula is one :func:`~embedviz.render.design.maths` object; where
    its pieces differ in colour, each piece's glyphs take their own (a piece
    typeset alone has as many glyphs as it has in the whole).

    Returns
    -------
    tuple
        The formula, and the width it takes with a side bearing either side.
    """
    text = line[formula[0].start - start : formula[-1].end - start]
    source = typst_source(text)
    typeset = maths(source, getattr(theme, formula[0].role), font_size)
    typeset.caption_part = True  # the caption's, read with its words (screen_texts)
    counts = [_glyph_count(typst_source(piece.text)) for piece in formula]
    if len(formula) > 1 and sum(counts) == len(typeset.submobjects):
        glyphs = iter(typeset.submobjects)
        for piece, count in zip(formula, counts, strict=True):
            for glyph in itertools.islice(glyphs, count):
                glyph.set_fill(getattr(theme, piece.role), opacity=1.0)
    elif len(formula) > 1:
        # Glyphs that cannot be told apart piece by piece: all in the text colour.
        for glyph in typeset.submobjects:
            glyph.set_fill(theme.text, opacity=1.0)
    digit = glyph_font(SANS_FONT).digit_height * font_size / REFERENCE_FONT_SIZE
    for glyph in typeset.submobjects:
        # Stroke widths are hundredths of a scene unit; the stroke is half outside the glyph.
        glyph.set_stroke(glyph.get_fill_color(), width=MATHS_WEIGHT * digit * 100, opacity=1.0)
    bearing = MATHS_BEARING * digit
    above = _digit_centre(source) * font_size
    typeset.shift(-typeset.get_corner(np.array([-1.0, -1.0, 0.0])))
    typeset.shift(np.array([bearing, -above, 0.0]))
    return typeset, float(typeset.width) + 2 * bearing


@cache
def _glyph_count(source: str) -> int:
    """Return how many glyphs a formula typesets into."""
    return len(maths(source, "#FFFFFF", REFERENCE_FONT_SIZE).submobjects)


@cache
def _digit_centre(source: str) -> float:
    """Return how far a formula's digit centre line is over its ink's bottom, per font size.

    Typeset after a ``0``: the zero's centre is the line a caption's digits
    are centred on; the glyphs after it are the formula's.
    """
    probe = maths("0 " + source, "#FFFFFF", REFERENCE_FONT_SIZE)
    zero, *rest = probe.submobjects
    bottom = min(float(glyph.get_bottom()[1]) for glyph in rest)
    return (float(zero.get_center()[1]) - bottom) / REFERENCE_FONT_SIZE


def _words(words: str, scale: float) -> tuple[np.ndarray, float]:
    """Return a stretch of words' outline at the reference size, subscripts enlarged."""
    glyphs = glyph_font(SANS_FONT)
    # Reference units per pixel at 720p, at this font size.
    unit_px = scale * REFERENCE_PX / float(config.frame_height)
    parts: list[np.ndarray] = []
    x = 0.0
    for lowered, run in itertools.groupby(words, key=lambda c: _subscript_base(c) is not None):
        chars = "".join(_subscript_base(c) or c for c in run)
        points, width, _ = glyphs.points_for(chars)
        if lowered and len(points):
            # At least the floor: an x-height letter ("ₐ") needs more than a "t".
            shortest = min(_ink_height(c) for c in chars if not c.isspace())
            size = max(SUBSCRIPT_SCALE, MIN_TEXT_PX * 1.05 / (shortest * unit_px))
            drop = SUBSCRIPT_DROP * glyphs.digit_height
            points = points * size - np.array([0.0, drop, 0.0])
            width *= size
        if len(points):
            parts.append(points + np.array([x, 0.0, 0.0]))
        x += width
    return (np.concatenate(parts) if parts else np.zeros((0, 3))), x


def _ink_height(char: str) -> float:
    """Return a character's ink height at the reference size."""
    points, _, _ = glyph_font(SANS_FONT).points_for(char)
    return float(np.ptp(points[:, 1])) if len(points) else 0.0


class Caption(VGroup):
    """The narration at the bottom of the frame: a phrase, in at most two balanced lines.

    Lines are broken as the WebVTT cues are (:func:`embedviz.story.phrases.caption_lines`:
    balanced, never one word alone on a line). A narration longer than two
    lines (one without phrases) shrinks to keep to the caption band.
    Subscripts (``wₜ``) are drawn at a readable size (:class:`CaptionText`).

    Parameters
    ----------
    text
        The phrase.
    width
        The widest it may be.
    font_size
        Font size.
    theme
        Colours.
    language
        The narration's BCP 47 tag: it chooses the words a line may not end on.
    """

    def __init__(
        self,
        text: str,
        width: float,
        font_size: float = CAPTION_FONT,
        theme: Theme = DARK,
        language: str = "en",
    ) -> None:
        lines = list(caption_lines(text, language=language))
        body = CaptionText("\n".join(lines), font_size, theme.text, theme)
        if body.width > width:
            body.scale_to_fit_width(width)
        if len(lines) > 2:
            body.scale(2 / len(lines))
        super().__init__(body)
        self.text = text
        self.lines = tuple(lines)
