"""A highlight points at numbers; it never recolours them (issue 18).

Blue and vermillion say a value's sign and size, and other numbers (row
numbers, IDs, indices, shapes) keep their own colours too. When the
narration points at numbers, the highlight is an outline or a fill behind
them. Every scene is dry-run and every number on screen is read mid-motion
and at each beat's end: mid-motion its colour must lie between its colour at
the previous beat's end and at this beat's end (a number may change colour,
as a landed value does, but not flash another colour on the way; one that is
gone by the beat's end may head for the colour of a number of the same value
that replaces it), and at no moment may it be drawn in the highlight's colour.

One number may take a colour off its path: E's row number of a row that stands
outlined in the ID's amber, which takes the ID's amber text colour (``id_ink``)
as far as that outline shows (``parts/id_rows``). That is the ID's colour, not
the highlight's: such a number may lie between its own colour and ``id_ink``, no
nearer ``id_ink`` than its row's outline is opaque; every other number (a data
digit, another row's number) still may not.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from test_id_row_numbers import lit_row_numbers

from embedviz.inputs import prepared_storyboard
from embedviz.story.scenes import SCENES

# How far (in RGB, 0 to 1 per channel) a colour may stray from the segment
# between its two rest colours, or come near the highlight.
TOLERANCE = 0.04
VISIBLE = 0.5


def _rgb(colour: Any) -> np.ndarray:
    text = colour.to_hex() if hasattr(colour, "to_hex") else str(colour)
    text = text.lstrip("#")[:6]
    return np.array([int(text[i : i + 2], 16) for i in (0, 2, 4)], dtype=float) / 255


def blend(colour: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[float, float]:
    """Return how far ``colour`` is from the straight blend of ``start`` into ``end``, and where.

    The second number is how far along the blend its nearest point lies (0: ``start``).
    """
    span = end - start
    length = float(span @ span)
    t = 0.0 if length == 0 else float(np.clip((colour - start) @ span / length, 0.0, 1.0))
    return float(np.linalg.norm(colour - (start + t * span))), t


def off_segment(colour: np.ndarray, start: np.ndarray, end: np.ndarray) -> float:
    """Distance from ``colour`` to the straight blend of ``start`` into ``end``."""
    return blend(colour, start, end)[0]


# id -> (text, colour, for E's row numbers how opaque the amber outline round the row
# stands: 0.0 for none; None for any other number).
Seen = dict[int, tuple[str, np.ndarray, float | None]]
Sample = tuple[int, float, Seen]


def number_colours(scene: str) -> tuple[list[Sample], np.ndarray, np.ndarray]:
    """Every visible number's colour at every sample, the highlight and the ID's amber text."""
    from embedviz.render.glyphs import NumberText
    from embedviz.render.moments import play_moments

    board = prepared_storyboard(scene, {}, environ={})
    order = {beat.name: i for i, beat in enumerate(board.all_beats())}
    samples: list[Sample] = []
    keep: list[Any] = []  # keeps every number alive, so that no id is reused
    inks: list[np.ndarray] = []

    def look(scene_object: Any, moment: Any) -> None:
        seen: Seen = {}
        theme = scene_object.theme
        inks[:] = [_rgb(theme.highlight), _rgb(theme.id_ink)]
        lit = lit_row_numbers(scene_object.mobjects, theme.id_line)
        for top in scene_object.mobjects:
            for mobject in top.get_family():
                if isinstance(mobject, NumberText) and mobject.get_fill_opacity() >= VISIBLE:
                    keep.append(mobject)
                    outlined = lit[id(mobject)][1] if id(mobject) in lit else None
                    seen[id(mobject)] = (mobject.text, _rgb(mobject.get_fill_color()), outlined)
        samples.append((order[moment.beat.name], moment.alpha, seen))

    play_moments(board, look, alphas=(0.25, 0.5, 0.75), pixel_width=192, pixel_height=108)
    return samples, inks[0], inks[1]


def _own_colours(samples: list[Sample]) -> dict[int, list[np.ndarray]]:
    """Each number's colours at the samples where no amber outline stands round its row."""
    own: dict[int, list[np.ndarray]] = {}
    for _, _, seen in samples:
        for key, (_, colour, outlined) in seen.items():
            if not outlined:
                own.setdefault(key, []).append(colour)
    return own


def _amber_beyond_its_outline(
    colour: np.ndarray, outlined: float, own: list[np.ndarray], ink: np.ndarray
) -> bool:
    """Whether an outlined row's number is off the blend of its own colour into the ID's amber.

    It may go toward ``ink`` no further than its row's outline is opaque.
    """
    for base in own or [ink]:
        distance, t = blend(colour, base, ink)
        if distance <= TOLERANCE and t <= outlined + TOLERANCE:
            return False
    return True


def recoloured(
    samples: list[Sample], highlight: np.ndarray, ink: np.ndarray | None = None
) -> list[str]:
    """Numbers that flash a colour off their own path, or take the highlight's.

    ``ink`` is the ID's amber text colour, which E's row number of a row outlined in the
    ID's amber takes as far as the outline shows (see the module's docstring).
    """
    # At a beat's end an outlined row's number shows the ID's amber, not its own colour.
    ends = {
        beat: {
            key: (text, colour) for key, (text, colour, outlined) in seen.items() if not outlined
        }
        for beat, alpha, seen in samples
        if alpha >= 1
    }
    own = _own_colours(samples)
    found = []
    for beat, alpha, seen in samples:
        for key, (text, colour, outlined) in seen.items():
            if np.linalg.norm(colour - highlight) < TOLERANCE * 3:
                found.append(f"beat {beat} at {alpha}: {text!r} in the highlight")
                continue
            if outlined and ink is not None:
                if _amber_beyond_its_outline(colour, outlined, own.get(key, []), ink):
                    found.append(
                        f"beat {beat} at {alpha}: outlined row {text!r} is {colour.round(2)}"
                    )
                continue
            if outlined == 0 and ink is not None and np.linalg.norm(colour - ink) < TOLERANCE * 3:
                # Even at a beat's end: only an amber outline round its row lends it the amber.
                found.append(f"beat {beat} at {alpha}: row {text!r} in amber, its row not outlined")
                continue
            if alpha >= 1:
                continue
            after = ends.get(beat, {}).get(key)
            before = ends.get(beat - 1, {}).get(key)
            start = (before or after or (text, colour))[1]
            end = (after or before or (text, colour))[1]
            targets = [end]
            if after is None:
                # Gone by the beat's end, replaced by a number of the same value (a dimmed
                # output row becoming a full-strength token row): it may take that colour.
                targets += [c for t, c in ends.get(beat, {}).values() if t == text]
            if min(off_segment(colour, start, target) for target in targets) > TOLERANCE:
                found.append(f"beat {beat} at {alpha}: {text!r} flashes {colour.round(2)}")
    return found


SCENES_TO_CHECK = [name for name in SCENES if name != "FullExplainer"]


@pytest.mark.slow
@pytest.mark.parametrize("scene", SCENES_TO_CHECK)
def test_no_highlight_recolours_a_number(scene: str) -> None:
    samples, highlight, ink = number_colours(scene)
    assert any(seen for _, _, seen in samples)
    found = recoloured(samples, highlight, ink)
    assert not found, f"{len(found)} recoloured: " + "; ".join(found[:10])


def test_the_recolour_check_can_fail() -> None:
    blue, red, pink = (
        np.array([0.2, 0.6, 0.9]),
        np.array([0.9, 0.4, 0.3]),
        np.array([0.8, 0.5, 0.6]),
    )
    calm: list[Sample] = [
        (0, 1.0, {1: ("0.3", blue, None)}),
        (1, 0.5, {1: ("0.3", (blue + red) / 2, None)}),  # a value changing colour: allowed
        (1, 1.0, {1: ("0.3", red, None)}),
    ]
    assert not recoloured(calm, pink)
    flashed: list[Sample] = [
        (0, 1.0, {1: ("0.3", blue, None)}),
        (1, 0.5, {1: ("0.3", (blue + pink) / 2, None)}),  # there and back through the highlight
        (1, 1.0, {1: ("0.3", blue, None)}),
    ]
    assert recoloured(flashed, pink)
    assert recoloured([(0, 1.0, {1: ("3", pink, 0.0)})], pink)


def test_a_replaced_number_may_head_for_its_replacements_colour_only() -> None:
    """A number gone by the beat's end may take the colour of the same value replacing it."""
    dim, blue, red = np.array([0.3, 0.4, 0.5]), np.array([0.2, 0.6, 0.9]), np.array([0.9, 0.4, 0.3])
    replaced: list[Sample] = [
        (0, 1.0, {1: ("0.3", dim, None)}),
        (1, 0.5, {1: ("0.3", (dim + blue) / 2, None)}),  # brightening as it becomes number 2
        (1, 1.0, {2: ("0.3", blue, None)}),
    ]
    assert not recoloured(replaced, np.array([0.8, 0.5, 0.6]))
    # Heading for the colour of another value's number is still a flash.
    other: list[Sample] = [
        (0, 1.0, {1: ("0.3", dim, None)}),
        (1, 0.5, {1: ("0.3", (dim + red) / 2, None)}),
        (1, 1.0, {2: ("0.3", blue, None), 3: ("-0.7", red, None)}),
    ]
    assert recoloured(other, np.array([0.8, 0.5, 0.6]))


# The dark theme's row-number colour, amber text and highlight.
INDEX, AMBER, VIOLET = (
    np.array([0.76, 0.78, 0.82]),
    np.array([0.9, 0.62, 0.0]),
    np.array([0.65, 0.35, 1.0]),
)


def _lookup(outlined: float | None, colour: np.ndarray, text: str = "2") -> list[Sample]:
    """A number in the row numbers' colour, then read mid-lookup (``outlined`` as in Seen)."""
    rest = None if outlined is None else 0.0
    return [
        (0, 1.0, {1: (text, INDEX, rest)}),
        (1, 0.5, {1: (text, colour, outlined)}),
        (1, 1.0, {1: (text, INDEX, rest)}),
    ]


def test_an_outlined_rows_own_number_may_take_the_ids_amber() -> None:
    """The number of the row outlined in the ID's amber takes that amber as far as it shows."""
    assert not recoloured(_lookup(1.0, AMBER), VIOLET, AMBER)
    assert not recoloured(_lookup(0.5, (INDEX + AMBER) / 2), VIOLET, AMBER)
    # Scrolled in in its own colour, amber once the outline is drawn at the beat's end.
    scrolled: list[Sample] = [
        (0, 1.0, {}),
        (1, 0.75, {1: ("4821", INDEX, 0.0)}),
        (1, 1.0, {1: ("4821", AMBER, 1.0)}),
    ]
    assert not recoloured(scrolled, VIOLET, AMBER)


def test_amber_anywhere_else_is_still_a_recolour() -> None:
    """A data digit, another row's number, or a number ahead of its outline, in amber: caught."""
    # A data digit (not a row number).
    assert recoloured(_lookup(None, AMBER, "0.3"), VIOLET, AMBER)
    # Another row's number: no amber outline stands round its row.
    assert recoloured(_lookup(0.0, AMBER), VIOLET, AMBER)
    # The outlined row's number, ambered further than its outline shows.
    assert recoloured(_lookup(0.2, AMBER), VIOLET, AMBER)
    # The outlined row's number in another colour than its own and the amber.
    assert recoloured(_lookup(1.0, np.array([0.9, 0.4, 0.3])), VIOLET, AMBER)
    # The highlight is never allowed, outline or not.
    assert recoloured(_lookup(1.0, VIOLET), VIOLET, AMBER)
    # Another row's number amber at a beat's end (a change between beat ends is no flash).
    kept: list[Sample] = [(0, 1.0, {1: ("2", INDEX, 0.0)}), (1, 1.0, {1: ("2", AMBER, 0.0)})]
    assert recoloured(kept, VIOLET, AMBER)
    assert not recoloured(
        [(0, 1.0, {1: ("2", INDEX, 0.0)}), (1, 1.0, {1: ("2", AMBER, 1.0)})], VIOLET, AMBER
    )
