"""Manim rendering: mobjects, animation factories and the storyboard scene."""

from __future__ import annotations

from embedviz.render.base import StoryboardScene, screen_texts
from embedviz.render.glyphs import LabelText, NumberText
from embedviz.render.mobjects import MatrixGrid, PrintedTensor, TokenChip
from embedviz.render.output_block import OutputBlock

__all__ = [
    "LabelText",
    "MatrixGrid",
    "NumberText",
    "OutputBlock",
    "PrintedTensor",
    "StoryboardScene",
    "TokenChip",
    "screen_texts",
]
