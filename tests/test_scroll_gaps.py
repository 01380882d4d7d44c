"""LargeVocabLookup mid-scroll: row numbers never skip without the gap between them marked.

A teacher's review of 720p mid-motion frames: while E's window scrolled, the
gap bands and their labels vanished and rows came and went one at a time, so
a frame read 0, 1, 3, 4, 5, 4820, 50256 (row 2 gone, nothing marking a gap)
or 0, 1, 465 with no 463 or 464 yet. Indices that skip silently are what the
scene teaches against. At every sample of every scroll, the row numbers of E
that read (fill opacity over one half), top to bottom, must either follow
each other or have between them one readable label naming exactly the rows
between them ("rows 2–4819 hidden"), and the rows that fade fade as one
group (a single opacity among the half-seen row numbers); the expectation is worked out here from
the numbers read, not from the code drawn.
"""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

import numpy as np
import pytest

SCENE = "LargeVocabLookup"
# Many samples through each step of a scrolling beat (both ends of each fade included).
_ALPHAS = tuple(float(a) for a in np.round(np.linspace(0.02, 0.98, 33), 3))
_RANGE = re.compile(r"^rows? (\d+)(?:\u2013(\d+))? hidden$")


def _seen(mobject: Any) -> float:
    """Return the strongest fill opacity among a text's drawn parts."""
    parts = [m for m in mobject.get_family() if len(m.points)]
    return max((float(m.get_fill_opacity()) for m in parts), default=0.0)


def _skips(overrides: dict[str, Any] | None) -> tuple[list[str], int]:
    """Play the scene dry; return each unmarked skip of row numbers mid-scroll, and the samples."""
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.gap_text import GapLabel
    from embedviz.render.glyphs import GlyphString
    from embedviz.render.moments import play_moments

    board = prepared_storyboard(SCENE, overrides, environ={})
    scrolls = {b.name for a, b in pairwise(board.beats) if a.window != b.window}
    assert scrolls, "the scene never scrolls: nothing to check"
    found: list[str] = []
    samples = [0]

    def read(scene: Any, moment: Any) -> None:
        if moment.beat.name not in scrolls:
            return
        samples[0] += 1
        family = [m for top in scene.mobjects for m in top.get_family()]
        copies = {
            id(member)
            for m in family
            if getattr(m, "row_strip", False)
            for member in m.get_family()
        }
        mine = {id(m): m for m in family if id(m) not in copies}.values()
        kept = [m for m in mine if _seen(m) > 0.5]
        # Rows leave and come as groups: every half-seen row number is as faded as the others.
        fading = {
            round(_seen(m), 3)
            for m in mine
            if isinstance(m, GlyphString)
            and getattr(getattr(m, "cell", None), "kind", "") == "row_label"
            and 0.0 < _seen(m) < 1.0
        }
        numbers = sorted(
            (
                (-float(m.get_y()), int(m.text))
                for m in kept
                if isinstance(m, GlyphString)
                and getattr(getattr(m, "cell", None), "kind", "") == "row_label"
            ),
        )
        labels = []
        for m in kept:
            match = _RANGE.match(getattr(m, "text", "")) if isinstance(m, GapLabel) else None
            if match:
                first = int(match.group(1))
                labels.append((-float(m.get_y()), first, int(match.group(2) or first)))
        where = f"{moment.beat.name} at {moment.alpha:.3f} (step {moment.step})"
        drawn = [n for _, n in numbers]
        if len(fading) > 1:
            found.append(f"{where}: rows fade one by one (opacities {sorted(fading)})")
        if len(set(drawn)) != len(drawn):
            found.append(f"{where}: a row number drawn twice: {drawn}")
        for (y_a, a), (y_b, b) in pairwise(numbers):
            between = [(first, last) for y, first, last in labels if y_a < y < y_b]
            want = [] if b == a + 1 else [(a + 1, b - 1)]
            if between != want:
                found.append(f"{where}: rows {a} and {b} read with labels {between} between")
        # And no readable label stands anywhere else (over the first row or under the last).
        inside = [y for y, _, _ in labels if numbers and numbers[0][0] < y < numbers[-1][0]]
        if len(inside) != len(labels):
            found.append(f"{where}: a label stands outside the rows: {labels}")

    play_moments(board, read, alphas=_ALPHAS, pixel_width=640, pixel_height=360)
    return found, samples[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    "overrides",
    [
        None,
        {"theme": "light"},
        {"ids": "4821,4823,4819"},  # overlapping views: kept rows glide
        {"ids": "50256,50000,2,1"},  # to the last rows, then back to the top
        {"ids": "6,50254"},  # row 5 in both views of the first scroll
        {"ids": "50254,50251"},  # rows 50252 and 50256 in both views of the second
        {"ids": "40,7,59,40,2", "vocab": 60, "dim": 5},
    ],
)
def test_mid_scroll_every_skip_of_row_numbers_is_labelled(
    overrides: dict[str, Any] | None,
) -> None:
    found, samples = _skips(overrides)
    assert samples > len(_ALPHAS), "too few samples of the scrolls"
    assert found == [], "\n".join(found[:12])
