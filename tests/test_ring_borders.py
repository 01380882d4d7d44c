"""A row's ring runs on its table's border or stands clear of it, never 1-4 px beside it.

A 720p review (TrainingNudge's accumulate, PositionBlindness's differ) saw
purple rings round w's rows and the gradient's row, and amber and purple ones
round the token and P rows, run parallel to the tables' own frames a few
pixels outside them: a double line that reads as a drawing error on a
projector. The rule (``design.RING_APART``): a ring's edge either lies on the
border (the two strokes overlap) or its ink stands at least SPACE/2 clear.

Geometry comes from the mobjects at each beat's end: a ring is an unfilled,
stroked rectangle in a ring colour; a table border is the frame of a grid's
body (its first member). Distances are between inks: the gap between the two
centre lines less half of each stroke (a stroke of width w is w/100 units wide).
"""

from __future__ import annotations

from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard

PX = 90.0  # pixels per scene unit at 720p (a frame 8 units high)
SPACE_PX = 0.12 * PX  # design.SPACE, written out: the rule is SPACE / 2 of ink between
# Closer than this the two inks overlap or touch: one line on screen. Under a pixel of
# ground between them they blend at 720p (the grid's own row outline, 0.04 off its body
# as SequenceLookup's amber one, leaves 0.6-0.9 px and reads as the row's border).
LOW_PX = 1.0


def _edges(mobject: Any) -> tuple[float, float, float, float]:
    low, high = mobject.get_corner([-1, -1, 0]), mobject.get_corner([1, 1, 0])
    return float(low[0]), float(low[1]), float(high[0]), float(high[1])


def _double_lines(ring: Any, frame: Any) -> list[str]:
    """Return each edge of ``ring`` that runs beside a parallel edge of ``frame`` too close."""
    rl, rb, rr, rt = _edges(ring)
    fl, fb, fr, ft = _edges(frame)
    half = (ring.get_stroke_width() + frame.get_stroke_width()) / 200 * PX
    found = []
    overlap_y = min(rt, ft) - max(rb, fb) > 1 / PX
    overlap_x = min(rr, fr) - max(rl, fl) > 1 / PX
    for name, a, b, along in [
        ("left", rl, fl, overlap_y),
        ("right", rr, fr, overlap_y),
        ("top", rt, ft, overlap_x),
        ("bottom", rb, fb, overlap_x),
    ]:
        ink = abs(a - b) * PX - half
        if along and LOW_PX < ink < SPACE_PX / 2:
            found.append(f"{name} {ink:.1f} px")
    return found


def _rings_beside_borders(scene_name: str, overrides: dict[str, Any], ids: bool) -> list[str]:
    """Play the scene dry; return each beat end where a ring doubles a table's border.

    Rings in the highlight colour, and with ``ids`` the amber ID outlines and the rows a
    verdict compares (``wrong``, PositionBlindness's ``differ``) too.
    """
    from manim import Rectangle

    from embedviz.render.moments import play_moments
    from embedviz.render.parts.grid import CellGrid

    board = prepared_storyboard(scene_name, overrides, environ={})
    found: list[str] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.alpha < 1:
            return
        theme = scene.stage.theme
        outlines = [theme.id_line.lower(), theme.wrong.lower()] if ids else []
        colours = {theme.highlight.lower(), *outlines}
        family = [m for top in scene.mobjects for m in top.get_family()]
        frames = [m.body[0] for m in family if isinstance(m, CellGrid)]
        rings = [
            m
            for m in family
            if isinstance(m, Rectangle)
            and m.get_fill_opacity() == 0
            and m.get_stroke_opacity() > 0
            and m.get_stroke_width() > 0
            and m.get_stroke_color().to_hex().lower() in colours
        ]
        for ring in rings:
            for frame in frames:
                for edge in _double_lines(ring, frame):
                    found.append(f"{moment.beat.name}: {edge}")

    play_moments(board, read, alphas=(0.5,), pixel_width=192, pixel_height=108)
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    ("scene_name", "overrides", "ids"),
    [
        ("TrainingNudge", {}, False),
        ("TrainingNudge", {"vocab": 50257, "dim": 768}, False),
        ("PositionBlindness", {}, True),
        ("PositionBlindness", {"positions": "learned"}, True),
    ],
    ids=["training", "training-gpt2", "positions", "positions-learned"],
)
def test_no_ring_runs_beside_a_table_border(
    scene_name: str, overrides: dict[str, Any], ids: bool
) -> None:
    """The review's double lines: every ring's edge lies on a border or stands SPACE/2 off it."""
    found = _rings_beside_borders(scene_name, overrides, ids)
    assert not found, found


def test_the_measure_sees_a_double_line() -> None:
    """The measure itself: a ring 4 px outside a frame is a double line; on it, or 8 px off, not."""
    from manim import Rectangle

    frame = Rectangle(width=2.0, height=1.0).set_stroke(width=2)
    for off_px, doubled in [(0.0, False), (4.0 + 2.7, True), (8.0 + 2.7, False)]:
        off = off_px / PX
        ring = Rectangle(width=2.0 + 2 * off, height=0.3).set_stroke(width=4).set_fill(opacity=0)
        ring.align_to(frame, [0, 1, 0]).shift([0, off, 0])
        assert bool(_double_lines(ring, frame)) is doubled, off_px
