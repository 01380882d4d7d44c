"""The same ID gets the same row at any position; adding position vectors fixes it.

Render with ``manim render scenes/position_blindness.py PositionBlindness``.
"""

from embedviz.render import StoryboardScene


class PositionBlindness(StoryboardScene):
    scene_name = "PositionBlindness"
