"""LargeVocabLookup's rest beat rings a repeat's two rows in one colour (a 720p review, session 29).

A teacher's review saw the rings round output rows 0 and 8 turn from violet to
grey mid-beat (53.2-53.4 s): a passing ring in the highlight ("what the narration
points at right now") stood where the verdict's rings (``wrong``: the repeat's
"=", tied to its note ``out[8] = out[0]``) then came, and read as one object
changing its colour's meaning. Each output row is ringed in at most one of the two
colours across the beat.
"""

from __future__ import annotations

from typing import Any

from conftest import box_of
from manim import VMobject

from embedviz.inputs import prepared_storyboard

ALPHAS = tuple(round(0.05 * k, 2) for k in range(1, 20))


def _ring_colours() -> dict[int, set[str]]:
    """Play the rest beat dry; for each output row, the colours of the rings seen round it."""
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("LargeVocabLookup", {}, environ={})
    seen: dict[int, set[str]] = {}

    def read(scene: Any, moment: Any) -> None:
        stage = scene.stage
        colours = {str(stage.theme.highlight).upper(), str(stage.theme.wrong).upper()}
        grid = stage.output.grid
        rows = {r: grid.row_box(r, buff=0.0) for r in range(len(stage.output.numbers))}
        drawn = [m for top in scene.mobjects for m in top.get_family()]
        for m in drawn:
            if not isinstance(m, VMobject) or not len(m.points) or m.get_stroke_opacity() < 0.2:
                continue
            colour = str(m.get_stroke_color()).upper()
            if colour not in colours:
                continue
            (left, bottom), (right, top) = box_of(m)
            for r, (l2, b2, r2, t2) in rows.items():
                # Round the row: across most of its width, over its middle, not round a block.
                wide = right - left > (r2 - l2) / 2 and left < (l2 + r2) / 2 < right
                if wide and bottom < (b2 + t2) / 2 < top and top - bottom < 2 * (t2 - b2):
                    seen.setdefault(r, set()).add(colour)

    play_moments(board, read, alphas=ALPHAS, beats={"rest"})
    return seen


def test_a_ringed_output_row_keeps_one_colour() -> None:
    seen = _ring_colours()
    assert seen, "the rest beat rings the repeat's rows"
    changed = {r: sorted(c) for r, c in seen.items() if len(c) > 1}
    assert not changed, f"output rows ringed in two colours within the beat: {changed}"
