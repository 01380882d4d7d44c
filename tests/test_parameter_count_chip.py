"""ParameterCount: the lookup's chip never stands alone, unlabelled (issue 18).

A 720p review of mid-motion frames saw a lone "3" chip in the middle of the
panel, with nothing saying what it was, for about 2.5 s of the ``lookup``
beat (it faded in at its home beside the copy's place, then walked to E).

Every sample of the scene (every twentieth of every step) is read: whenever
an ID's chip is visibly drawn, the row of E its ID selects is outlined in
amber (a visible stroke in ``id_line`` that encloses that row's numbers
alone; the probe of ``test_named_row``), or the row's values are drawn
outside E: the strip the chip leads home (a ``row_strip``), then the copy it
tags (``lookup_value`` numbers). The ID is read from the chip's own
cell, the row's numbers from E's numbers on screen (its ``corner`` cells).
"""

from __future__ import annotations

from typing import Any

from test_named_row import outlined_rows

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

# A chip counts as drawn from this fill opacity on (its outline's own threshold is 0.5).
DRAWN = 0.6


def _drawn(mobject: Any) -> bool:
    """Whether a number is visibly drawn."""
    return float(mobject.get_fill_opacity()) >= DRAWN


def _alone() -> tuple[int, list[tuple[str, int, float, int]]]:
    """Return how many samples showed a chip, and those whose row was not outlined."""
    from embedviz.render.parts.chips import Chip

    board = prepared_storyboard("ParameterCount", {}, environ={})
    seen: list[int] = []
    alone: list[tuple[str, int, float, int]] = []

    def look(scene: Any, moment: Any) -> None:
        from embedviz.render.glyphs import NumberText

        family = [m for top in scene.mobjects for m in top.get_family()]
        chips = [m for m in family if isinstance(m, Chip)]
        for chip in chips:
            opacity = max(float(m.get_fill_opacity()) for m in chip.get_family())
            if opacity < DRAWN:
                continue
            seen.append(1)
            row = int(chip.number.cell.value)
            if row in outlined_rows(scene, {scene.stage.theme.id_line}, "corner"):
                continue
            # On its way home it leads the row's strip (a travelling row), then tags its copy.
            strips = [m for m in family if getattr(m, "row_strip", False)]
            values = [n for strip in strips for n in strip.get_family()]
            values += [
                n for n in family if getattr(n, "cell", None) and n.cell.kind == "lookup_value"
            ]
            if any(isinstance(n, NumberText) and _drawn(n) for n in values):
                continue
            alone.append((moment.beat.name, moment.step, round(moment.alpha, 2), row))

    play_moments(
        board, look, alphas=tuple(k / 20 for k in range(21)), pixel_width=192, pixel_height=108
    )
    return len(seen), alone


def test_the_chip_shows_only_beside_its_outlined_row() -> None:
    """From the moment the chip shows, its row of E is outlined in amber."""
    seen, alone = _alone()
    assert seen > 20, seen
    assert not alone, alone
