"""Cheap, checkable text: strings built from reused glyph outlines.

Building a manim ``Text`` costs a Pango layout and an SVG parse for every
string, and a scene holds many numbers and a caption per beat. A
:class:`GlyphFont` lays out its characters once, in a few short ``Text``
objects with every character framed by zeros, which gives each glyph's
outline and advance width. Any string is then assembled from copies of those
outlines, merged into one path, so it is also one object to draw per frame
instead of one per character.

Every number drawn is a :class:`NumberText` that remembers the exact string
and the storyboard cell it shows, so tests can read the screen back.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any, cast

import numpy as np
from manim import DOWN, VMobject

__all__ = [
    "MONO_FONT",
    "REFERENCE_FONT_SIZE",
    "SANS_FONT",
    "GlyphFont",
    "GlyphString",
    "LabelText",
    "NumberText",
    "SansText",
    "WordText",
    "drop_svg_paths",
    "glyph_font",
    "make_text",
]

MONO_FONT = "DejaVu Sans Mono"
SANS_FONT = "DejaVu Sans"

# Glyphs are laid out once at this size and scaled for every other size.
REFERENCE_FONT_SIZE = 48.0
_PRELOADED = (
    "0123456789.-+e"
    "abcdfghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    "()[]{}<>=,:;_'\"?!/*%#&|@^~`\\$ "
)
# Pango clips long strings at large sizes, so references are laid out in chunks.
_CHUNK = 12


def make_text(text: str, **kwargs: Any) -> VMobject:
    """Build a manim ``Text`` that is cheap to copy and animate.

    Parameters
    ----------
    text
        The string.
    **kwargs
        Passed to :class:`manim.Text` (font, font_size, color, ...).

    Returns
    -------
    manim.Text
        The text, with each glyph's parsed SVG path dropped: manim only reads
        it while building the outline, yet every copy (every FadeIn, every
        Transform) would deep-copy it again.
    """
    from manim import Text

    return drop_svg_paths(Text(text, **kwargs))


def drop_svg_paths(mobject: VMobject) -> VMobject:
    """Drop the parsed SVG path each glyph of ``mobject`` keeps, and return it.

    Manim reads a glyph's path only while building its outline, yet every
    copy (every FadeIn, every Transform, every hit of its SVG cache) would
    deep-copy it again: most of a copy's cost.
    """
    for part in mobject.get_family():
        if hasattr(part, "path_obj"):
            # Only manim's VMobjectFromSVGPath has it, typed as a non-optional path.
            cast(Any, part).path_obj = None
    return mobject


@cache
def _glyph_dir() -> Path:
    """Return a private folder for this process's measuring SVGs.

    Private, because parallel exports would otherwise race on the same files.
    Worker processes may exit without running exit handlers, so each new
    folder also sweeps away those of processes that no longer exist.
    """
    root = Path(tempfile.gettempdir()) / "embedviz-glyphs"
    root.mkdir(exist_ok=True)
    for stale in root.iterdir():
        if stale.name.isdigit() and not _alive(int(stale.name)):
            shutil.rmtree(stale, ignore_errors=True)
    folder = root / str(os.getpid())
    folder.mkdir(exist_ok=True)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _reference_text(text: str, font: str) -> VMobject:
    """Lay out a measuring string on a fixed, large Pango canvas.

    manim sizes Pango's canvas from the output resolution and caches the
    SVG under a name that ignores it, so at a low resolution a long string
    wraps or is clipped, and that broken layout is then reused at any size.
    Measuring on a fixed 4K canvas, with its own cache folder, avoids both.
    """
    from manim import tempconfig

    with tempconfig({"pixel_width": 3840, "pixel_height": 2160, "text_dir": str(_glyph_dir())}):
        return make_text(text, font=font, font_size=REFERENCE_FONT_SIZE)


class GlyphFont:
    """Outlines and advance widths of one font, measured at the reference size.

    Parameters
    ----------
    font
        A font family known to Pango.
    """

    def __init__(self, font: str) -> None:
        self.font = font
        self._outlines: dict[str, np.ndarray] = {}
        self._advances: dict[str, float] = {}
        self._offsets: dict[str, np.ndarray] = {}
        zeros = _reference_text("0000000000", font)
        centres = [glyph.get_center() for glyph in zeros.submobjects]
        self.zero_advance = float(centres[-1][0] - centres[0][0]) / (len(centres) - 1)
        self.digit_height = float(zeros.submobjects[0].height)
        self._measure(_PRELOADED)

    def _measure(self, chars: str) -> None:
        """Lay out ``0c0c0...`` and read each character's outline and advance."""
        for start in range(0, len(chars), _CHUNK):
            chunk = chars[start : start + _CHUNK]
            reference = _reference_text("0" + "0".join(chunk) + "0", self.font)
            glyphs = list(reference.submobjects)
            visible = [c for c in chunk if not c.isspace()]
            if len(glyphs) != len(chunk) + 1 + len(visible):
                raise RuntimeError(f"font {self.font!r} did not lay out {chunk!r} one glyph each")
            position = 0
            for char in chunk:
                left_zero = glyphs[position]
                if char.isspace():
                    right_zero = glyphs[position + 1]
                    glyph = None
                    position += 1
                else:
                    glyph = glyphs[position + 1]
                    right_zero = glyphs[position + 2]
                    position += 2
                # Zeros are symmetric, so centre distance = advance(0) + advance(char).
                gap = float(right_zero.get_center()[0] - left_zero.get_center()[0])
                advance = gap - self.zero_advance
                self._advances[char] = advance
                if glyph is None:
                    self._outlines[char] = np.zeros((0, 3))
                    self._offsets[char] = np.zeros(3)
                    continue
                slot_centre = left_zero.get_center() + np.array(
                    [(self.zero_advance + advance) / 2, 0.0, 0.0]
                )
                self._outlines[char] = glyph.points.copy()
                self._offsets[char] = glyph.get_center() - slot_centre

    def ensure(self, text: str) -> None:
        """Measure any characters of ``text`` not seen before."""
        missing = "".join(dict.fromkeys(c for c in text if c not in self._advances))
        if missing:
            self._measure(missing)

    def advance(self, char: str) -> float:
        """Return a character's advance width at the reference size."""
        self.ensure(char)
        return self._advances[char]

    def points_for(self, text: str) -> tuple[np.ndarray, float, int]:
        """Return the merged outline of ``text`` at the reference size.

        Parameters
        ----------
        text
            One line of text.

        Returns
        -------
        tuple
            The points (the first slot starts at x=0, the digit centre line
            at y=0), the total advance width, and the number of glyphs.
        """
        self.ensure(text)
        parts: list[np.ndarray] = []
        x = 0.0
        glyph_count = 0
        for char in text:
            advance = self._advances[char]
            outline = self._outlines[char]
            if len(outline):
                centre = np.array([x + advance / 2, 0.0, 0.0]) + self._offsets[char]
                glyph_centre = (outline.min(axis=0) + outline.max(axis=0)) / 2
                parts.append(outline - glyph_centre + centre)
                glyph_count += 1
            x += advance
        points = np.concatenate(parts) if parts else np.zeros((0, 3))
        return points, x, glyph_count


def glyph_font(font: str = MONO_FONT) -> GlyphFont:
    """Return the shared :class:`GlyphFont` for a family (measured on first use).

    Parameters
    ----------
    font
        A font family.

    Returns
    -------
    GlyphFont
        The cache.
    """
    # One cache entry per family, however the argument was passed.
    return _glyph_font(font)


@cache
def _glyph_font(font: str) -> GlyphFont:
    from embedviz.render.glyph_cache import cached_glyph_font

    # Measured once per machine (see embedviz.render.glyph_cache).
    extra = {"size": REFERENCE_FONT_SIZE, "chars": _PRELOADED, "chunk": _CHUNK}
    return cached_glyph_font(font, GlyphFont, extra)


class GlyphString(VMobject):
    """One line of text drawn as a single path of reused glyph outlines.

    Its bounding box spans the text's advance width and one digit height
    (through a zero-area corner path), so strings align by their slots
    rather than by their ink: right-aligned numbers line up their decimal
    points, whatever their digits.

    Parameters
    ----------
    text
        The line; it must not contain a newline.
    font_size
        Manim font size.
    color
        Fill colour.
    font
        A font family.
    """

    def __init__(self, text: str, font_size: float, color: str, font: str = MONO_FONT) -> None:
        super().__init__()
        glyphs = glyph_font(font)
        points, width, count = glyphs.points_for(text)
        scale = font_size / REFERENCE_FONT_SIZE
        height = glyphs.digit_height
        # A closed zero-area path along the slot box: invisible, but it sets
        # the bounding box. Each cubic is four identical points.
        left, right = 0.0, max(width, 1e-6)
        bottom, top = -height / 2, height / 2
        corner = np.array([[left, bottom, 0], [right, top, 0]], dtype=float)
        anchor = np.repeat(corner, 4, axis=0)
        all_points = np.concatenate([points, anchor]) if len(points) else anchor
        self.set_points(all_points * scale)
        self.set_fill(color, opacity=1.0)
        self.set_stroke(width=0)
        self.text = text
        self.font_size = font_size
        self.glyph_count = count
        self.slot_width = width * scale

    def slot_corners(self) -> tuple[np.ndarray, np.ndarray]:
        """Return the bottom-left and top-right corners of the slot box, now."""
        return self.points[-8].copy(), self.points[-1].copy()

    def ink_corners(self) -> tuple[np.ndarray, np.ndarray]:
        """Return the bottom-left and top-right corners of the drawn glyphs, now.

        A string with no ink (spaces) returns its slot box.
        """
        glyphs = self.points[:-8]
        if not len(glyphs):
            return self.slot_corners()
        return glyphs.min(axis=0), glyphs.max(axis=0)

    def place(self, point: Any, align: str = "center") -> GlyphString:
        """Move the slot box so that its left, centre or right sits at ``point``.

        Parameters
        ----------
        point
            Target ``[x, y, z]``; ``y`` is the slot box's vertical centre.
        align
            ``left``, ``center`` or ``right``.

        Returns
        -------
        GlyphString
            Itself, moved.
        """
        low, high = self.slot_corners()
        anchor_x = {"left": low[0], "center": (low[0] + high[0]) / 2, "right": high[0]}[align]
        target = np.asarray(point, dtype=float)
        self.shift(
            np.array([target[0] - anchor_x, target[1] - (low[1] + high[1]) / 2, 0.0], dtype=float)
        )
        return self


class NumberText(GlyphString):
    """A number on screen, tied to the storyboard cell it shows.

    Parameters
    ----------
    cell
        The storyboard cell (:class:`embedviz.story.model.NumberCell`): its
        ``text`` is drawn verbatim.
    font_size
        Manim font size.
    color
        Fill colour.

    Attributes
    ----------
    echo
        True for a second drawing of a cell that is already on screen (a
        row's position repeated beside its equality mark), so that a reader
        counting the screen's numbers against the storyboard counts it once.
    """

    def __init__(self, cell: Any, font_size: float, color: str) -> None:
        super().__init__(cell.text, font_size, color)
        self.cell = cell
        self.echo = False

    def echoed(self) -> NumberText:
        """Return a copy that repeats this cell elsewhere (see :attr:`echo`)."""
        twin = self.copy()
        twin.echo = True
        return twin


class LabelText(GlyphString):
    """A monospace label (code, punctuation, gap labels) recorded in the storyboard."""


class LabelLines(LabelText):
    """One storyboard label drawn on several centred lines, as a single mobject.

    Its ``text`` is the whole label, as the storyboard gives it, so whoever
    reads the screen finds the label itself, not pieces of it. Its points are
    every line's glyphs, then each line's slot box (zero-area, as in
    :class:`GlyphString`): :meth:`slot_corners` is the last line's slot, one
    line tall, so the label's type size reads as one line's.

    Parameters
    ----------
    text
        The whole label.
    lines
        The lines drawn, top to bottom (pieces of ``text``).
    font_size
        Manim font size.
    color
        Fill colour.
    gap
        Space between one line's slot and the next, in scene units.
    """

    def __init__(
        self, text: str, lines: list[str], font_size: float, color: str, gap: float
    ) -> None:
        pieces = [LabelText(line, font_size, color) for line in lines]
        for above, below in pairwise(pieces):
            below.next_to(above, DOWN, buff=gap)
        glyphs = [piece.points[:-8] for piece in pieces]
        slots = [piece.points[-8:] for piece in pieces]
        super().__init__(text, font_size, color)
        self.set_points(np.concatenate([*glyphs, *slots]))
        self.lines = list(lines)
        self.glyph_count = sum(piece.glyph_count for piece in pieces)
        self.slot_width = max(piece.slot_width for piece in pieces)

    def line_corners(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """Return the bottom-left and top-right corners of line ``index``'s slot, now."""
        start = len(self.points) - 8 * (len(self.lines) - index)
        return self.points[start].copy(), self.points[start + 7].copy()


class SansText(VMobject):
    """Proportional text (titles, captions), possibly several lines.

    Parameters
    ----------
    text
        The text; newlines separate lines.
    font_size
        Manim font size.
    color
        Fill colour.
    line_spacing
        Distance between baselines, in digit heights.
    """

    def __init__(self, text: str, font_size: float, color: str, line_spacing: float = 2.1) -> None:
        super().__init__()
        glyphs = glyph_font(SANS_FONT)
        scale = font_size / REFERENCE_FONT_SIZE
        blocks = []
        lines = text.split("\n")
        for number, line in enumerate(lines):
            points, width, _ = glyphs.points_for(line)
            if len(points):
                shift = np.array([-width / 2, -number * glyphs.digit_height * line_spacing, 0])
                blocks.append(points + shift)
        self.set_points(np.concatenate(blocks) * scale if blocks else np.zeros((0, 3)))
        self.set_fill(color, opacity=1.0)
        self.set_stroke(width=0)
        # Keep the original string, as manim's Text does.
        self.original_text = text
        # Tests read the drawn size back: font_size × width / natural_width.
        self.font_size = font_size
        self.natural_width = float(self.width) if len(self.points) else 0.0
        self.text = "".join(text.split())
        # The first line's digits are centred on y = 0 as laid out: remember how far
        # below the ink's top that is, so that the line can be found after any move.
        self.line_below_top = float(self.get_top()[1]) if len(self.points) else 0.0
        self.natural_height = float(self.height) if len(self.points) else 0.0

    def digit_line(self) -> float:
        """Return the centre line of the first line's digits (half a digit over its baseline), now.

        A proportional text's box is its ink, which a descender ("p") or an
        ascender ("l") stretches; aligning texts by their boxes would set the
        words of one phrase on different baselines.
        """
        if not self.natural_height:
            return float(self.get_center()[1])
        return float(self.get_top()[1]) - self.line_below_top * self.height / self.natural_height


class WordText(SansText):
    """A UI word from the storyboard (:meth:`Storyboard.word`), shrunk to fit a width.

    A translation may be longer than the English word it replaces: where it
    would be wider than ``width`` it is drawn at the largest font size that
    fits (:func:`embedviz.render.layout.fit_font`); where it fits, it is the
    same as :class:`SansText`.

    Parameters
    ----------
    text
        The word, one line.
    font_size
        The largest font size.
    color
        Fill colour.
    width
        The widest it may be, in scene units; None for no limit.
    """

    def __init__(self, text: str, font_size: float, color: str, width: float | None = None) -> None:
        from embedviz.render.layout import MIN_FIT_FONT, fit_font

        size = font_size
        if width is not None:
            natural = SansText(text, font_size, color).width
            size = fit_font(lambda f: natural * f / font_size <= width, font_size, MIN_FIT_FONT)
        super().__init__(text, size, color)
        self.word = text
