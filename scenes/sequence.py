"""A sequence of IDs becomes a T x d block.

Render with ``manim render scenes/sequence.py SequenceLookup``.
"""

from embedviz.render import StoryboardScene


class SequenceLookup(StoryboardScene):
    scene_name = "SequenceLookup"
