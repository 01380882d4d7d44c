"""The ``transition`` layout: one beat that clears the screen between two concepts."""

from __future__ import annotations

from embedviz.story.vocabulary import layout

__all__ = ["LAYOUT"]

LAYOUT = layout("transition", (), ("clear",), page=False)
