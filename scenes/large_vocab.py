"""A GPT-2-sized table: one ID scrolls into view, then a sentence becomes vectors.

Render with ``manim render scenes/large_vocab.py LargeVocabLookup``.
"""

from embedviz.render import StoryboardScene


class LargeVocabLookup(StoryboardScene):
    scene_name = "LargeVocabLookup"
