"""How many numbers the table holds: V x d parameters and their memory.

Render with ``manim render scenes/parameter_count.py ParameterCount``.
"""

from embedviz.render import StoryboardScene


class ParameterCount(StoryboardScene):
    scene_name = "ParameterCount"
