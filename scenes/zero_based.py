"""Rows count from zero: ID 3 selects row index 3, the fourth row.

Render with ``manim render scenes/zero_based.py ZeroBasedIndexing``.
"""

from embedviz.render import StoryboardScene


class ZeroBasedIndexing(StoryboardScene):
    scene_name = "ZeroBasedIndexing"
