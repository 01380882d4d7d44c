"""ParameterCount's lookup: the row lifts out of E drawn whole, its chip beside it.

A teacher's 720p review of ParameterCount (issue 18, about 44.8-45.05 s) saw chip
"3" ride beside a row that was not drawn: the strip slid out from under E hidden,
its numbers fading in a column clear of E, so the chip stood beside nothing it
named. Row 3 now lifts out as the lookup family's rows do
(:class:`~embedviz.render.parts.lift.LiftCarry`).

Every twentieth of the carry's step of the ``lookup`` beat is read (a dry run,
default options, 1280 x 720):

- whenever the chip is drawn while a strip carrying row 3 is on screen, the strip's
  numbers are drawn (opacity at least 0.5);
- row 3's own numbers in E read as copied: each the strip has passed is drawn (at
  least faint beside the copy still in E), and all are whole once the copy has landed.
"""

from __future__ import annotations

from typing import Any

from boards import shared_board
from drawn import drawn_opacity, on_screen

from embedviz.render.moments import play_moments

DRAWN = 0.5
# The faint source left under the copy (lift.GHOST is 0.35) reads at least this much.
FAINT = 0.2


def _fill(mobject: Any, shown: set[int]) -> float:
    """A text's fill opacity as drawn (0 off screen): its stroke, of no width, is not read."""
    if id(mobject) not in shown:
        return 0.0
    return max(
        (float(m.get_fill_opacity()) for m in mobject.get_family() if len(m.points)), default=0.0
    )


def _samples() -> list[tuple[float, bool, float | None, float, float | None]]:
    """Return per sample: alpha, chip drawn, the strip's numbers' least opacity (None: no
    strip), the least of E's row 3 numbers it has passed, its left edge past E's (columns).
    """
    board = shared_board("ParameterCount", {})
    found: list[tuple[float, bool, float | None, float, float | None]] = []

    def look(scene: Any, moment: Any) -> None:
        if moment.step != 1 or moment.alpha >= 1:
            return
        lookup = scene.stage.lookup
        grid = lookup.block.grid
        shown = on_screen(scene)
        chip = drawn_opacity(lookup.chip.box, shown) >= DRAWN
        strips = [
            m
            for top in scene.mobjects
            for m in top.get_family()
            if getattr(m, "row_strip", False) and m.source_row == lookup.token_id
        ]
        row = grid.get_row_numbers(lookup.token_id)
        numbers, clear, left = None, None, -float("inf")
        column = max(s.size for s in grid.col_slots if not s.gap)
        if strips and len(strips[0].submobjects) > 1:
            texts = strips[0][1].submobjects
            numbers = min(_fill(t, shown) for t in texts)
            left = float(strips[0][0].get_left()[0])
            clear = (left - grid.body_right()) / column
        # Row 3's numbers in E the strip's left edge has passed by a column (all, once it
        # has landed): one just passed comes up to faint over a few frames.
        passed = [n for n in row if numbers is None or float(n.get_right()[0]) <= left - column]
        own = min((_fill(n, shown) for n in passed), default=1.0)
        found.append((round(moment.alpha, 3), chip, numbers, own, clear))

    play_moments(board, look, alphas=tuple(k / 20 for k in range(1, 20)), beats=("lookup",))
    return found


def test_the_row_lifts_out_drawn_with_its_chip() -> None:
    """The chip never rides beside an undrawn strip; row 3 in E stays, faint, then whole."""
    found = _samples()
    assert sum(numbers is not None for _, _, numbers, _, _ in found) > 5, found
    bare = [(a, n) for a, chip, n, _, _ in found if chip and n is not None and n < DRAWN]
    assert not bare, bare
    gone = [(a, own) for a, _, n, own, _ in found if n is not None and own < FAINT]
    assert not gone, gone
    # Once the copy has landed (no strip travels), row 3 in E is whole again.
    landed = [(a, own) for a, _, n, own, _ in found if n is None]
    assert landed
    assert all(own >= 0.99 for _, own in landed), landed
