"""ParameterCount's lookup: the chip comes with its row's frame and rides home with the row.

A teacher's 720p review of ParameterCount (issue 18, the lookup at about 42.8-45.1 s)
saw row 3 framed in amber while no ID stood in the scene, then chip "3" alone at
about (1030, 365), mid-panel beside nothing: it set off home ahead of the row it
fetched, which followed later.

Every twentieth of every step of the ``lookup`` beat is read (a dry run, default
options, 1280 x 720):

- whenever row 3's amber frame is drawn (stroke opacity at least 0.5), the chip is
  drawn too (its box's fill opacity at least 0.5);
- whenever the chip is drawn, the gap between its box and the nearest of what it
  means (row 3's drawn frame in E, the strip carrying row 3 once built, the copy's
  drawn numbers or frame) is at most one chip width: it never runs ahead of its row.

The strip is taken where it is, drawn or not: it slides out from under E and its
numbers fade in as each clears E's edge, so for a few frames the chip rides beside a
strip still fading in (about 0.2 s at GPT-2 size).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from boards import shared_board

from embedviz.render.moments import play_moments

DRAWN = 0.5
Box = tuple[float, float, float, float]


def _opaque(m: Any) -> bool:
    """Whether a mobject's fill, or its stroke where it has width, is at least DRAWN opaque."""
    stroke = float(m.get_stroke_opacity()) if float(m.get_stroke_width()) > 0 else 0.0
    return max(float(m.get_fill_opacity()), stroke) >= DRAWN


def _box(mobjects: list[Any]) -> Box | None:
    """The box round the drawn (opacity at least DRAWN) members with points, or None."""
    shown = [m for m in mobjects if m.has_points() and _opaque(m)]
    if not shown:
        return None
    points = np.concatenate([m.points for m in shown])
    low, high = points.min(axis=0), points.max(axis=0)
    return float(low[0]), float(low[1]), float(high[0]), float(high[1])


def _built(strip: Any) -> Box | None:
    """The box round a travelling strip's parts, drawn or not (None before it is built)."""
    parts = [m for m in strip.get_family() if m.has_points()]
    if not parts:
        return None
    points = np.concatenate([m.points for m in parts])
    low, high = points.min(axis=0), points.max(axis=0)
    return float(low[0]), float(low[1]), float(high[0]), float(high[1])


def _gap(a: Box, b: Box) -> float:
    """The distance between two boxes (0 where they touch or overlap)."""
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return float(np.hypot(dx, dy))


def _samples() -> list[tuple[int, float, bool, float | None]]:
    """Return (step, alpha, frame drawn without the chip, chip's gap to its row) per sample."""
    board = shared_board("ParameterCount", {})
    found: list[tuple[int, float, bool, float | None]] = []

    def look(scene: Any, moment: Any) -> None:
        lookup = scene.stage.lookup
        family = [m for top in scene.mobjects for m in top.get_family()]
        drawn = {id(m) for m in family}
        chip = lookup.chip
        chip_on = id(chip.box) in drawn and float(chip.box.get_fill_opacity()) >= DRAWN
        outline = lookup.outline
        frame = None if outline is None or id(outline) not in drawn else _box([outline])
        near: list[Box | None] = [frame]
        # The strip it fetches, once built, wherever it is (still under E, its numbers
        # fading in as they clear E's edge, it is where the row is): the chip goes with it.
        near += [_built(m) for m in family if getattr(m, "row_strip", False)]
        values = [n for n in family if getattr(n, "cell", None) and n.cell.kind == "lookup_value"]
        near.append(_box([p for n in values for p in n.get_family()]))
        if id(lookup.copy) in drawn:
            near.append(_box(lookup.copy.get_family()))
        gap = None
        if chip_on:
            own = _box([chip.box])
            assert own is not None
            gaps = [_gap(own, b) / chip.box.width for b in near if b is not None]
            gap = min(gaps, default=np.inf)
        found.append((moment.step, round(moment.alpha, 3), frame is not None and not chip_on, gap))

    play_moments(board, look, alphas=tuple(k / 20 for k in range(1, 21)), beats=("lookup",))
    return found


def test_the_chip_comes_with_its_frame_and_rides_with_its_row() -> None:
    """Row 3's frame never shows without the chip; the chip never stands a chip away from it all."""
    found = _samples()
    assert sum(gap is not None for *_, gap in found) > 20, found
    assert not [(s, a) for s, a, alone_frame, _ in found if alone_frame]
    far = [(s, a, round(g, 2)) for s, a, _, g in found if g is not None and g > 1.0]
    assert not far, far
