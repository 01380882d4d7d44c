"""One token ID becomes one row.

Render with ``manim render scenes/single_token.py SingleTokenLookup``.
"""

from embedviz.render import StoryboardScene


class SingleTokenLookup(StoryboardScene):
    scene_name = "SingleTokenLookup"
