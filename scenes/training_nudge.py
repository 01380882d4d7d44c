"""One SGD step: the gradient scatter-adds into the looked-up rows; the rest stay put.

Render with ``manim render scenes/training_nudge.py TrainingNudge``.
"""

from embedviz.render import StoryboardScene


class TrainingNudge(StoryboardScene):
    scene_name = "TrainingNudge"
