"""How large the batch's numbers go: rows tighter than the lookup's where that gains.

:func:`~embedviz.render.solve_batch.solve_batch` tries the batch once more
with ``spec.tight_rows`` where its numbers stand under :data:`COMFORT_PX`,
and keeps that plan where the numbers are :data:`TIGHT_GAIN` larger.
"""

from __future__ import annotations

from collections.abc import Callable

from embedviz.render.batch_plan import Marks, Mode
from embedviz.render.design import MAX_DATA_PX, MIN_TEXT_PX, font_for_px
from embedviz.render.solver import PITCHES
from embedviz.render.type_search import largest_fitting

__all__ = [
    "BATCH_PITCHES",
    "COMFORT_PX",
    "TIGHT_GAIN",
    "Found",
    "in_preference_order",
    "search_pitches",
    "tighter",
]

# An arrangement that fits: its largest font, pitch, mode and marks' place.
Found = tuple[float, float, Mode, Marks]

# The batch's rows tried (in digit heights, loosest first): the lookup's, and a tighter
# one. Two slices of T rows stand in the frame's height beside E, so that at the loosest
# rows that fit, the default batch was bound by the height at 24.6 px at 720p with width
# for 25.5 (issue 18: the focal object takes most of the frame).
BATCH_PITCHES = (*PITCHES, 1.35)
# Tighter rows are taken for numbers at least this much larger (3 %: the short default batch
# gained 1.2 % and lost its legend's room beside the shape's line) ...
TIGHT_GAIN = 1.03
# ... and only up to this size at 720p: past it looser rows read better than larger digits
# (a 2 x 2 batch in a 4 x 2 table went from 28.2 px at 1.8 digit heights to 30 px at 1.4,
# and left 13.7 % of the frame empty at a lookup's end).
COMFORT_PX = 26.0


def tighter(
    found: list[tuple[float, float, Mode, Marks]],
    font: float,
    pitch: float,
    arrangement: tuple[Mode, Marks],
) -> tuple[float, float]:
    """Return the font and pitch to take in the arrangement chosen: tighter rows for larger numbers.

    The loosest rows within a near tie of the largest numbers (``TIE``) kept
    the default batch at 24.6 px at 720p, bound by the height, with width for
    25.5 px at tighter rows (issue 18: the focal object takes most of the
    frame). With ``spec.tight_rows`` (the batch solver keeps the plan only
    where it draws the numbers :data:`TIGHT_GAIN` larger, under
    :data:`COMFORT_PX`), the loosest pitch of the same arrangement that
    reaches its largest numbers (up to that size) is taken; the rows then
    grow into spare height.
    """
    same = [(f, p) for f, p, *rest in found if tuple(rest) == arrangement]
    best = max(f for f, _ in same)
    if best <= font:
        return font, pitch
    target = min(best, font_for_px(COMFORT_PX))
    return next((f, p) for f, p in same if f >= target - 1e-9)


# The arrangements and the marks' places, in the batch solver's order of preference.
MODES: tuple[Mode, ...] = ("beside", "corridor")
PLACEMENTS: tuple[Marks, ...] = ("right", "below", "under", "corridor")


def search_pitches(
    fits: Callable[[float, float, Mode, Marks], bool],
    pitches: tuple[float, ...] = BATCH_PITCHES,
) -> tuple[Found, ...]:
    """Return the largest font that ``fits`` at each of ``pitches``, per arrangement.

    ``fits(font, pitch, mode, marks)``: whether the layout holds. The answer
    is in the batch solver's order of preference (``beside`` first, the marks
    right of the slices first, looser rows first: :func:`in_preference_order`).
    The solver's first try searches the lookup's pitches; its try at tighter
    rows adds only the pitches past them, so a batch that needs no tighter
    rows never searches those.
    """
    largest, smallest = font_for_px(MAX_DATA_PX), font_for_px(MIN_TEXT_PX)
    found: list[Found] = []
    for mode in MODES:
        for marks in PLACEMENTS:
            for pitch in pitches:

                def one(font: float, p: float = pitch, m: Mode = mode, k: Marks = marks) -> bool:
                    return fits(font, p, m, k)

                font = largest_fitting(one, largest, smallest)
                if font is not None:
                    found.append((font, pitch, mode, marks))
    return tuple(found)


def in_preference_order(found: tuple[Found, ...]) -> tuple[Found, ...]:
    """Return ``found`` in :func:`search_pitches`' order: arrangement, marks' place, looser rows."""

    def rank(one: Found) -> tuple[int, int, int]:
        _, pitch, mode, marks = one
        return MODES.index(mode), PLACEMENTS.index(marks), BATCH_PITCHES.index(pitch)

    return tuple(sorted(found, key=rank))
