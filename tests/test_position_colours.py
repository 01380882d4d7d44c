"""PositionBlindness: each outline colour keeps its one meaning through ``differ`` (issue 18).

A 720p review of mid-motion frames (``--positions learned``) found amber and
violet outlines sharing the ``differ`` beat and staying to its end: amber round
E[id]'s rows (ID 2's, as amber means), violet round P's and the sums' rows.
Violet is the highlight: what the narration points at right now, a passing
outline (design.COLOUR_MEANINGS); held beside the ID's amber boxes it read as a
second kind of row.

Each case is dry-run. At every beat's end that shows an amber (``id_line``)
outline, no stroke is drawn in the highlight's colour, and every amber outline
encloses numbers of E[id]'s rows (or E's) only, never of P or of the sums.
Colours are read from the scene's theme, what an outline encloses from the
numbers' cells.
"""

from __future__ import annotations

from typing import Any

import pytest
from manim import ManimColor

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

# What an ID's amber outline may hold: E[id]'s numbers and the row's tags, E's own rows.
ID_ROWS = {"output", "output_id", "position", "token_id", "weight"}
CASES = [{}, {"positions": "learned"}, {"positions": "learned", "theme": "light"}]


def _hex(colour: Any) -> str:
    return ManimColor(colour).to_hex().lower()


def _problems(overrides: dict[str, Any]) -> tuple[set[str], list[str]]:
    """Return the beats whose end was read, and what broke the rule at them."""
    from manim import Rectangle

    from embedviz.render.glyphs import GlyphString, NumberText

    board = prepared_storyboard("PositionBlindness", overrides, environ={})
    read: set[str] = set()
    found: list[str] = []

    def look(scene: Any, moment: Any) -> None:
        if moment.alpha < 1:
            return
        theme = scene.stage.theme
        beat = moment.beat.name
        read.add(beat)
        family = [m for top in scene.mobjects for m in top.get_family()]
        violet, amber = 0, []
        for m in family:
            if isinstance(m, GlyphString) or not len(m.points):
                continue
            if m.get_stroke_width() <= 0 or m.get_stroke_opacity() < 0.3:
                continue
            colour = _hex(m.get_stroke_color())
            violet += colour == _hex(theme.highlight)
            # An outline (unfilled), not a chip's edge.
            outline = isinstance(m, Rectangle) and m.get_fill_opacity() == 0
            if colour == _hex(theme.id_line) and outline:
                amber.append(m)
        if amber and violet:
            found.append(f"{beat}: {violet} violet strokes beside {len(amber)} amber outlines")
        for m in amber:
            low, high = m.get_corner([-1, -1, 0]), m.get_corner([1, 1, 0])
            kinds = {
                n.cell.kind
                for n in family
                if isinstance(n, NumberText)
                and float(n.get_fill_opacity()) > 0.3
                and all(low[:2] <= n.get_center()[:2])
                and all(n.get_center()[:2] <= high[:2])
            }
            if kinds - ID_ROWS:
                found.append(f"{beat}: amber round {sorted(kinds - ID_ROWS)}")

    play_moments(board, look, alphas=(), pixel_width=192, pixel_height=108)
    return read, found


@pytest.mark.parametrize("overrides", CASES, ids=["sinusoid", "learned", "learned-light"])
def test_outlines_keep_one_meaning_at_every_beats_end(overrides: dict[str, Any]) -> None:
    """No violet beside amber at a beat's end (it passes); amber only round the ID's rows."""
    read, found = _problems(overrides)
    assert "differ" in read, read
    assert not found, found
