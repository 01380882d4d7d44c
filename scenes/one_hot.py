"""one_hot(i) @ E equals the lookup E[i]; the product costs V x d multiply-adds.

Render with ``manim render scenes/one_hot.py OneHotEquivalence``.
"""

from embedviz.render import StoryboardScene


class OneHotEquivalence(StoryboardScene):
    scene_name = "OneHotEquivalence"
