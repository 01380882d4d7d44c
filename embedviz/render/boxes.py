"""The boxes of what is drawn: the input of :mod:`embedviz.render.space`'s measures.

A text (a glyph string, a title, a formula) counts as its whole box; any other
mobject by the box of its own points, so a group counts only where its members
are, and a mobject too faint to see (fading in or out) not at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from manim import Rectangle

from embedviz.render.formula import FormulaText
from embedviz.render.glyphs import GlyphString, SansText
from embedviz.render.space import Box

__all__ = ["DRAWN", "content_band", "mobject_boxes"]

# Below this opacity a mobject is not counted as drawn (it is fading in or out).
DRAWN = 0.05
_TEXTS = (GlyphString, SansText, FormulaText)


def _opacity(mobject: Any, family: bool) -> float:
    """Return the most opaque fill or stroke of a mobject (or of its family)."""
    members = mobject.get_family() if family else [mobject]
    seen = [0.0]
    for member in members:
        if not len(member.points):
            continue
        seen.append(float(member.get_fill_opacity()))
        if float(member.get_stroke_width()) > 0:
            seen.append(float(member.get_stroke_opacity()))
    return max(seen)


def _hollow(mobject: Any, background: str | None) -> bool:
    """Whether a mobject is a frame round nothing of its own.

    That is a rectangle filled with nothing to see: no fill, or the background's colour.
    """
    if background is None or not isinstance(mobject, Rectangle):
        return False
    if float(mobject.get_fill_opacity()) < DRAWN:
        return True
    return str(mobject.get_fill_color().to_hex()).lower() == background.lower()


def _sides(low: Any, high: Any) -> list[Box]:
    """Return a rectangle's four sides as boxes of no width (or no height)."""
    x0, y0, x1, y1 = float(low[0]), float(low[1]), float(high[0]), float(high[1])
    return [(x0, y0, x1, y0), (x0, y1, x1, y1), (x0, y0, x0, y1), (x1, y0, x1, y1)]


def mobject_boxes(
    mobjects: Iterable[Any], leave_out: Iterable[Any] = (), background: str | None = None
) -> list[Box]:
    """Return ``(left, bottom, right, top)`` of everything visibly drawn among ``mobjects``.

    Parameters
    ----------
    mobjects
        Top-level mobjects (a scene's ``mobjects``, or a stage's parts before
        they are added); their families are searched.
    leave_out
        Mobjects (with their families) not to count, such as the title and
        the caption that bound the measured band.
    background
        The frame's background colour (``#rrggbb``), or None. When given, a
        rectangle filled with nothing to see (no fill, or this colour) counts
        only by its four sides: a framed box with nothing in it is empty
        space, as a reader sees it, not content (issue 18). What is drawn
        inside it (a label) counts by its own box.

    Returns
    -------
    list of tuple
        One box per drawn text or path.
    """
    skipped = {id(m) for top in leave_out for m in top.get_family()}
    boxes: list[Box] = []

    def visit(mobject: Any) -> None:
        if id(mobject) in skipped:
            return
        skipped.add(id(mobject))
        whole = isinstance(mobject, _TEXTS)
        if len(mobject.points) and _opacity(mobject, whole) >= DRAWN:
            points = mobject.get_all_points() if whole else mobject.points
            low, high = points.min(axis=0), points.max(axis=0)
            if _hollow(mobject, background):
                boxes.extend(_sides(low, high))
            else:
                boxes.append((float(low[0]), float(low[1]), float(high[0]), float(high[1])))
        if not whole:
            for member in mobject.submobjects:
                visit(member)

    for mobject in mobjects:
        visit(mobject)
    return boxes


def content_band(title: Any = None) -> Box:
    """Return the band between the title and the caption: ``(left, bottom, right, top)``.

    It spans the frame's width, from the title's bottom (the frame's top
    without a title) down to the top of a two-line caption: where issue 18
    measures empty areas.
    """
    from manim import config

    from embedviz.render.design import CAPTION_FONT
    from embedviz.render.layout import frame_regions

    half_w, half_h = float(config.frame_width) / 2, float(config.frame_height) / 2
    top = half_h
    if title is not None and getattr(title, "original_text", "x").strip():
        top = float(title.get_bottom()[1])
    frame = frame_regions()
    # Two caption lines as tall as they come: a bar spans ascenders to descenders.
    two_lines = SansText("|\n|", CAPTION_FONT, "#ffffff").height
    return (-half_w, frame.caption_y + two_lines / 2, half_w, top)
