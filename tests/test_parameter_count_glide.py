"""ParameterCount's settles at ``compare`` and ``lookup``: one calm glide, no text over text.

A teacher's 720p review of ParameterCount (default options, issue 18) found, as
``compare`` starts (33.1-33.2 s), the count's two lines joining into one and the
memory table jumping to the top in about 0.1 s, the table's "dtype", "float32" and
"bfloat16" lying over E's right column and its hidden-rows label mid-move, and
"50,257 × 768" running into "= 38,597,376 parameters"; as the lookup starts
(42.1-42.5 s), E's label fading out and back in, the memory summary fading in over
the fading dtype header row, and E growing over the fading table.

Now every item that moves travels over at least GLIDE_SECONDS, and at no sampled
moment of these beats' first steps do two shown items' boxes overlap unless they
overlap in the beat's last frame too. E's label is never hidden during the lookup.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.parts.glide import GLIDE_SECONDS

BEATS = ("compare", "lookup")
# Fine over the settle, which opens each beat's first step.
ALPHAS = (*np.round(np.arange(0.0, 0.6, 0.01), 3)[1:], 1.0)
Box = tuple[float, float, float, float]
# The beat, the step, alpha, time, and each item's box where shown (else None).
Moment = tuple[str, int, float, float, dict[str, Box | None]]


def _items(stage: Any) -> dict[str, list[Any]]:
    """Return the frame's texts and E's block by name."""
    block, product, memory = stage.block, stage.count.product, stage.memory
    items = {
        "E": [block.grid],
        "hidden rows": [block.bands],
        "hidden columns": [block.col_gap],
        "heading": [block.heading],
        "sizes": [block.sizes],
        "product": list(product[:3]),
        "count": [*product[3:], stage.count.word],
        "memory header": [memory.header],
        "summary": [stage.lookup.summary],
    }
    items |= {f"memory row {n}": [row] for n, row in enumerate(memory.rows)}
    return items


def _box(members: list[Any], drawn: set[int]) -> Box | None:
    """Return the box of what of ``members`` is drawn and seen (over 5 % opaque), else None."""
    shown = [
        m
        for top in members
        for m in top.get_family()
        if id(m) in drawn
        and len(m.points)
        and max(m.get_fill_opacity(), m.get_stroke_opacity()) > 0.05
    ]
    if not shown:
        return None
    low = np.min([m.get_corner([-1, -1, 0])[:2] for m in shown], axis=0)
    high = np.max([m.get_corner([1, 1, 0])[:2] for m in shown], axis=0)
    return (float(low[0]), float(low[1]), float(high[0]), float(high[1]))


@functools.cache
def _moments() -> tuple[Moment, ...]:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("ParameterCount", {}, environ={})
    found: list[Moment] = []

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name not in BEATS or (moment.step and moment.alpha != 1.0):
            return
        drawn = {id(m) for top in scene.mobjects for m in top.get_family()}
        boxes = {name: _box(m, drawn) for name, m in _items(scene.stage).items()}
        found.append((moment.beat.name, moment.step, moment.alpha, moment.time, boxes))

    play_moments(board, read, alphas=ALPHAS)
    return tuple(sorted(found, key=lambda f: f[3]))


def _overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share more than a hair (0.02 units) each way."""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.02 and min(a[3], b[3]) - max(a[1], b[1]) > 0.02


def _beat(name: str) -> list[Moment]:
    """Return the sampled moments of one beat."""
    return [m for m in _moments() if m[0] == name]


@pytest.mark.parametrize("beat", BEATS)
def test_no_text_runs_over_another_mid_move(beat: str) -> None:
    """No two shown items' boxes overlap at a sampled moment unless they do at the beat's end."""
    moments = _beat(beat)
    assert len(moments) > 40
    end = moments[-1][4]
    crossed = set()
    for _, _, _, time, boxes in moments:
        names = sorted(n for n, b in boxes.items() if b is not None)
        for k, a in enumerate(names):
            for b in names[k + 1 :]:
                box_a, box_b = boxes[a], boxes[b]
                assert box_a is not None
                assert box_b is not None
                ends = end[a], end[b]
                if _overlap(box_a, box_b) and not (
                    ends[0] is not None and ends[1] is not None and _overlap(*ends)
                ):
                    crossed.add((a, b, round(time, 2)))
    assert not crossed, sorted(crossed)


@pytest.mark.parametrize("beat", BEATS)
def test_each_move_is_spread_over_a_glide(beat: str) -> None:
    """Each item that moves changes its box over at least GLIDE_SECONDS, not in a jump."""
    moments = _beat(beat)
    last = moments[-1][4]
    moved = 0
    for name in last:
        seen = [(m[3], m[4][name]) for m in moments if m[4][name] is not None]
        changing = [
            time
            for (time, box), (_, after) in itertools.pairwise(seen)
            if not np.allclose(box, after, atol=1e-4)
        ]
        if changing:
            moved += 1
            step = seen[1][0] - seen[0][0]
            spread = changing[-1] + step - changing[0]
            assert spread >= GLIDE_SECONDS, (name, changing)
    assert moved, "something moves at each of these beats"


def test_e_keeps_its_label_through_the_lookup() -> None:
    """E's heading and sizes stay shown at every sampled moment of the lookup (no blink)."""
    hidden = [m[3] for m in _beat("lookup") if m[4]["heading"] is None or m[4]["sizes"] is None]
    assert not hidden, hidden
