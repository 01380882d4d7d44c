"""The ``composite`` layout: a video of other scenes' storyboards, one part each."""

from __future__ import annotations

from embedviz.story.vocabulary import layout

__all__ = ["LAYOUT"]

LAYOUT = layout("composite", (), ())
