"""A B x T batch of IDs becomes a B x T x d block, one T x d slice per sequence.

Render with ``manim render scenes/batch.py BatchLookup``.
"""

from embedviz.render import StoryboardScene


class BatchLookup(StoryboardScene):
    scene_name = "BatchLookup"
