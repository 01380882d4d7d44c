"""Every concept in teaching order, one Manim section each.

Render with ``manim render -ql --save_sections scenes/full_explainer.py FullExplainer``.
"""

from embedviz.render import StoryboardScene


class FullExplainer(StoryboardScene):
    scene_name = "FullExplainer"
