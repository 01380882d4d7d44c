"""What a moment's scene draws: the ids on screen, and a mobject's opacity as drawn.

Shared by the tests that read a moment's frame from its mobjects
(tests/test_one_hot_working.py, tests/test_one_hot_travel.py).
"""

from __future__ import annotations

from typing import Any


def on_screen(scene: Any) -> set[int]:
    """Return the ids of every mobject the scene draws (its mobjects and their families)."""
    return {id(m) for top in scene.mobjects for m in top.get_family()}


def drawn_opacity(mobject: Any, shown: set[int]) -> float:
    """Return a mobject's largest fill or stroke opacity as drawn (0 when it is not on screen)."""
    if id(mobject) not in shown:
        return 0.0
    members = [m for m in mobject.get_family() if len(m.points)]
    return max(
        (max(float(m.get_fill_opacity()), float(m.get_stroke_opacity())) for m in members),
        default=0.0,
    )
