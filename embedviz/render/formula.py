"""Typeset maths without LaTeX: Manim's ``MathTypst`` (the ``typst`` package's compiler).

A :class:`FormulaText` shows one storyboard label written in Typst's maths
syntax (``L = sum_t w_t dot e_t``). Like every other label it remembers the
exact string it shows, so tests read it back and match it to the storyboard.
"""

from __future__ import annotations

import io
from functools import cache
from typing import Any
from xml.etree import ElementTree

import numpy as np
import svgelements
from manim import RIGHT, MathTypst

from embedviz.render.glyphs import drop_svg_paths

__all__ = ["FormulaText", "formula_height", "formula_width"]


class _TypstInMemory(MathTypst):
    """Manim's ``MathTypst``, its styled SVG parsed in memory rather than through a file."""

    def generate_mobject(self) -> _TypstInMemory:
        """Parse the styled SVG from memory.

        Manim's own parse writes the styled SVG beside the cached one as
        ``<hash>_.svg``, reads it back and deletes it: two processes that set
        the same formula at once (pytest-xdist workers, parallel renders
        sharing a ``media/Tex``) delete each other's file, and one fails with
        FileNotFoundError (a CI run did). The result is the same.
        """
        # Manim annotates its tree's elements as optional; a parsed tree's never are.
        tree = ElementTree.parse(self.get_file_path())
        styled = self.modify_xml_tree(tree)  # type: ignore[arg-type]
        buffer = io.BytesIO()
        styled.write(buffer)
        buffer.seek(0)
        mobjects, by_id = self.get_mobjects_from(svgelements.SVG.parse(buffer))
        self.add(*mobjects)
        self.id_to_vgroup_dict = by_id
        self.flip(RIGHT)  # SVG's y axis points down
        return self


class FormulaText(_TypstInMemory):
    r"""One typeset formula from a storyboard label.

    Parameters
    ----------
    source
        The label: Typst maths, e.g. ``partial L \/ partial E[2] = w_0 + w_2``.
    font_size
        Manim font size.
    color
        Colour of every glyph.
    **kwargs
        Passed to :class:`manim.MathTypst`.
    """

    # True for a caption's maths, which is read with the caption's words.
    caption_part = False

    def __init__(self, source: str, font_size: float, color: str, **kwargs: Any) -> None:
        super().__init__(source, font_size=font_size, color=color, **kwargs)
        # Typst sets maths smaller than manim sets text at the same size: scale
        # it so its digits are as tall as the labels' digits around it.
        self.scale(_digit_scale())
        self.text = source
        self.font_size_drawn = font_size
        # Tests read the drawn size back: font_size_drawn × width / natural_width.
        self.natural_width = float(self.width)
        # An invisible zero-area path along the bounding box, so the formula has
        # points of its own: screen readers (and tests) take its box from them.
        low = self.get_corner(np.array([-1.0, -1.0, 0.0]))
        high = self.get_corner(np.array([1.0, 1.0, 0.0]))
        self.set_points(np.repeat(np.array([low, high], dtype=float), 4, axis=0))
        self.set_fill(opacity=0.0, family=False).set_stroke(width=0, family=False)
        # Its height as set: a bracket or a fraction makes the box taller than its
        # digits, which are as tall as a label's at ``font_size`` (tests read the
        # type size from the two).
        self.natural_height = float(self.height)

    def generate_mobject(self) -> FormulaText:
        """Parse the SVG (in memory), then drop each glyph's parsed path (as :mod:`glyphs` does).

        Manim reads each glyph's path only while it builds the outline, but
        keeps it: every later copy (Manim's SVG cache hands one out for each
        repeated formula, and every fade or transform copies again)
        deep-copied it, most of a copy's cost.
        """
        super().generate_mobject()
        drop_svg_paths(self)
        return self


@cache
def _digit_scale() -> float:
    """Return how much to scale Typst maths so a digit matches a label digit."""
    from embedviz.render.glyphs import glyph_font

    probe = _TypstInMemory("0", font_size=48)
    return float(glyph_font().digit_height / probe.height)


def formula_width(source: str, font_size: float) -> float:
    """Return the width a :class:`FormulaText` of ``source`` takes at ``font_size``.

    Solvers measure at every size they try: the formula is typeset once, at
    a reference size, and scaled (its width grows with the size).
    """
    return _size_per_font(source)[0] * font_size


def formula_height(source: str, font_size: float) -> float:
    """Return the height a :class:`FormulaText` of ``source`` takes at ``font_size``."""
    return _size_per_font(source)[1] * font_size


@cache
def _size_per_font(source: str) -> tuple[float, float]:
    """Return a formula's width and height per unit of font size (typeset once, at 48)."""
    typeset = FormulaText(source, 48.0, "#FFFFFF")
    return float(typeset.width) / 48.0, float(typeset.height) / 48.0
