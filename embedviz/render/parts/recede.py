"""Fade what has served its beat toward the background, still readable.

A frame that keeps every block it has built grows dense: a 720p review of
TrainingNudge found too many things at once from the loss on. Once the
gradient is found, the blocks it came from (the loss weights, the column sum)
recede: their texts keep :data:`~embedviz.render.design.TEXT_CONTRAST` (plus a
margin) against what they stand on, so they stay fully readable, and their
bare lines (a column sum's rule) keep the 3:1 of drawn shapes; the blocks the
beats are about (E, its gradient, the update rule) stand out in full. A filled
shape (a table's frame and cells) keeps its colours.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from manim import Animation, AnimationGroup, VMobject, Wait

from embedviz.render.design import DIM_CONTRAST, TEXT_CONTRAST, Theme, dimmed
from embedviz.render.formula import FormulaText
from embedviz.render.glyphs import GlyphString, NumberText, SansText

__all__ = ["recede"]

# Texts recede this far: a text's contrast floor and a margin over it.
TEXT_RECEDES_TO = TEXT_CONTRAST + 0.2
# Lines (a block's frame, a rule) recede to the floor for drawn shapes, and a margin.
LINE_RECEDES_TO = DIM_CONTRAST + 0.2


def recede(mobjects: Iterable[VMobject], theme: Theme) -> Animation:
    """Return an animation that fades the texts and lines of ``mobjects`` toward the background.

    A table's number is faded against the cells' fill it stands on; every
    other text against the background. The cells' fills are left as they are.
    """
    texts: list[VMobject] = []
    lines: list[VMobject] = []
    inside: set[int] = set()
    for mobject in mobjects:
        for member in mobject.get_family():
            if id(member) in inside:
                continue
            if isinstance(member, (GlyphString, FormulaText, SansText)):
                texts.append(member)
                inside.update(id(m) for m in member.get_family())
            elif (
                isinstance(member, VMobject)
                and len(member.points)
                and float(member.get_stroke_width()) > 0
                and float(member.get_fill_opacity()) == 0
            ):
                # A filled shape (a cell) keeps its colours: animated, it would be drawn
                # again over the texts in it, with the animation's group.
                lines.append(member)
    fades: list[Any] = []
    for text in texts:
        ground = theme.cell_fill if isinstance(text, NumberText) else theme.background
        colour = dimmed(text.get_fill_color().to_hex(), ground, TEXT_RECEDES_TO)
        fades.append(text.animate.set_fill(colour))
    for line in lines:
        stroke = line.get_stroke_color()
        if stroke is not None:
            colour = dimmed(stroke.to_hex(), theme.background, LINE_RECEDES_TO)
            fades.append(line.animate.set_stroke(colour))
    return AnimationGroup(*fades) if fades else Wait(0.0)
