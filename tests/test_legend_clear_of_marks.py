"""LargeVocabLookup's verdict marks stand apart from its value-colour legend (session 29).

The legend stands upright in the marks' column, beside the output's rows, until
the rest beat writes the repeat's note (``out[8] = out[0]``) and ties rows 0 and 8
to it. A teacher's review saw the tie's upright run down the legend's bar ~20 px
to its left from the rest beat to the end, read as the legend's axis. That is more
than a SPACE, the gap between neighbours that belong together: the two are
different groups, which the design keeps APART. At every beat's end each mark in
the verdict's colour beside the legend (its height overlapping the legend's) keeps
APART from it across, or a SPACE above or under it.
"""

from __future__ import annotations

from typing import Any

from conftest import box_of
from manim import VMobject

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import APART, SPACE

PX = 720 / 8


def _too_near() -> list[tuple[str, float]]:
    """Play the scene dry; at each beat end, the marks beside the legend and nearer than APART."""
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("LargeVocabLookup", {}, environ={})
    near: list[tuple[str, float]] = []
    ends: list[str] = []

    def read(scene: Any, moment: Any) -> None:
        legend = scene.stage.matrix.legend
        ends.append(moment.beat.name)
        drawn = [m for top in scene.mobjects for m in top.get_family()]
        if legend is None or not any(m is legend for m in drawn):
            return
        inside = {id(m) for m in legend.get_family()}
        (left, bottom), (right, top) = box_of(legend)
        colour = str(scene.stage.theme.wrong).upper()
        for m in drawn:
            if id(m) in inside or not isinstance(m, VMobject) or not len(m.points):
                continue
            inks = []
            if m.get_stroke_opacity() > 0.5 and m.get_stroke_width() > 0:
                inks.append(m.get_stroke_color())
            if m.get_fill_opacity() > 0.5:
                inks.append(m.get_fill_color())
            if colour not in {str(c).upper() for c in inks}:
                continue
            (l2, b2), (r2, t2) = box_of(m)
            if max(bottom - t2, b2 - top) >= SPACE:
                continue
            across = max(left - r2, l2 - right)
            if across < APART:
                near.append((moment.beat.name, round(across * PX, 1)))

    play_moments(board, read, alphas=())
    assert "shape" in ends, ends
    return near


def test_verdict_marks_stand_apart_from_the_legend() -> None:
    near = _too_near()
    assert not near, f"marks beside the legend nearer than APART ({APART * PX:.0f} px): {near}"
