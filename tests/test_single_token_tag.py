"""SingleTokenLookup's ID chip has no other bare number beside it on its line (issue 18).

A 720p review read the one-row output's row number ``0``, standing next to
the chip ``3`` that became the row's tag, as a second ID: "3 0". The output
is ``1 × d``; its one row has no number beside it. The scene is dry-run,
sampled mid-motion and at every beat end; wherever an ID chip is drawn, no
other text that reads as a bare integer (``0``, ``+3``) stands on the chip's
line (overlapping it in height) within one chip's width of the chip's edge.
The chip and the texts are read from the mobjects on screen, never from the
layout that placed them.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from conftest import box_of

from embedviz.inputs import prepared_storyboard

_ALPHAS = (0.1, 0.25, 0.5, 0.75, 0.9)
# A text this opaque or more can be read (a fading number is read as it comes and goes).
_READ = 0.2
_BARE_INTEGER = re.compile(r"[+-]?\d+")


def _opacity(mobject: Any) -> float:
    inked = mobject.family_members_with_points()
    return max((float(m.get_fill_opacity()) for m in inked), default=0.0)


def _text_of(mobject: Any) -> str:
    return " ".join(str(getattr(mobject, "text", "")).split())


def _crowding(scene: Any) -> tuple[list[str], int]:
    """Bare integers beside each drawn chip, and how many chips were drawn."""
    from embedviz.render.formula import FormulaText
    from embedviz.render.glyphs import GlyphString, SansText
    from embedviz.render.parts.chips import Chip

    family = [m for top in scene.mobjects for m in top.get_family()]
    chips = [m for m in family if isinstance(m, Chip) and _opacity(m) > 0.5]
    on_chips = {id(member) for chip in chips for member in chip.get_family()}
    texts = [
        m
        for m in dict.fromkeys(family)
        if isinstance(m, (GlyphString, SansText, FormulaText))
        and id(m) not in on_chips
        and _BARE_INTEGER.fullmatch(_text_of(m))
        and _opacity(m) >= _READ
    ]
    found: list[str] = []
    for chip in chips:
        (left, bottom), (right, top) = box_of(chip)
        width = right - left
        for text in texts:
            (t_left, t_bottom), (t_right, t_top) = box_of(text)
            if t_bottom >= top or t_top <= bottom:
                continue  # not on the chip's line
            gap = max(t_left - right, left - t_right, 0.0)
            if gap < width:
                found.append(
                    f"{_text_of(text)!r} {gap * 90:.0f} px (720p) beside the chip "
                    f"(chip {width * 90:.0f} px wide)"
                )
    return found, len(chips)


@pytest.mark.parametrize(
    "overrides",
    [{}, {"vocab": 50257, "dim": 768, "ids": "4821"}],
    ids=["default", "gpt2"],
)
def test_no_bare_number_stands_beside_the_id_chip(overrides: dict[str, Any]) -> None:
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("SingleTokenLookup", overrides, environ={})
    crowded: list[str] = []
    ends: list[str] = []

    def read(scene: Any, moment: Any) -> None:
        found, chips = _crowding(scene)
        when = f"{moment.beat.name} step {moment.step} at {moment.alpha}"
        if chips and moment.alpha >= 1:
            ends.append(moment.beat.name)
        crowded.extend(f"{when}: {line}" for line in found)

    play_moments(board, read, alphas=_ALPHAS, pixel_width=192, pixel_height=108)
    # The chip shows at every beat's end (it waits, walks, then tags the output row).
    assert ends == [beat.name for beat in board.beats], ends
    assert not crowded, "\n".join(np.unique(crowded))
