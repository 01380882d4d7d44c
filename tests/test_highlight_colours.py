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
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

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


def off_segment(colour: np.ndarray, start: np.ndarray, end: np.ndarray) -> float:
    """Distance from ``colour`` to the straight blend of ``start`` into ``end``."""
    span = end - start
    length = float(span @ span)
    t = 0.0 if length == 0 else float(np.clip((colour - start) @ span / length, 0.0, 1.0))
    return float(np.linalg.norm(colour - (start + t * span)))


Sample = tuple[int, float, dict[int, tuple[str, np.ndarray]]]


def number_colours(scene: str) -> tuple[list[Sample], np.ndarray]:
    """Every visible number's colour at every sample: (beat index, alpha, id -> colour)."""
    from embedviz.render.glyphs import NumberText
    from embedviz.render.moments import play_moments

    board = prepared_storyboard(scene, {}, environ={})
    order = {beat.name: i for i, beat in enumerate(board.all_beats())}
    samples: list[Sample] = []
    keep: list[Any] = []  # keeps every number alive, so that no id is reused
    highlight: list[np.ndarray] = []

    def look(scene_object: Any, moment: Any) -> None:
        seen: dict[int, tuple[str, np.ndarray]] = {}
        highlight[:] = [_rgb(scene_object.theme.highlight)]
        for top in scene_object.mobjects:
            for mobject in top.get_family():
                if isinstance(mobject, NumberText) and mobject.get_fill_opacity() >= VISIBLE:
                    keep.append(mobject)
                    seen[id(mobject)] = (mobject.text, _rgb(mobject.get_fill_color()))
        samples.append((order[moment.beat.name], moment.alpha, seen))

    play_moments(board, look, alphas=(0.25, 0.5, 0.75), pixel_width=192, pixel_height=108)
    return samples, highlight[0]


def recoloured(samples: list[Sample], highlight: np.ndarray) -> list[str]:
    """Numbers that flash a colour off their own path, or take the highlight's."""
    ends = {beat: seen for beat, alpha, seen in samples if alpha >= 1}
    found = []
    for beat, alpha, seen in samples:
        for key, (text, colour) in seen.items():
            if np.linalg.norm(colour - highlight) < TOLERANCE * 3:
                found.append(f"beat {beat} at {alpha}: {text!r} in the highlight")
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
    samples, highlight = number_colours(scene)
    assert any(seen for _, _, seen in samples)
    found = recoloured(samples, highlight)
    assert not found, f"{len(found)} recoloured: " + "; ".join(found[:10])


def test_the_recolour_check_can_fail() -> None:
    blue, red, pink = (
        np.array([0.2, 0.6, 0.9]),
        np.array([0.9, 0.4, 0.3]),
        np.array([0.8, 0.5, 0.6]),
    )
    calm: list[Sample] = [
        (0, 1.0, {1: ("0.3", blue)}),
        (1, 0.5, {1: ("0.3", (blue + red) / 2)}),  # a value changing colour: allowed
        (1, 1.0, {1: ("0.3", red)}),
    ]
    assert not recoloured(calm, pink)
    flashed: list[Sample] = [
        (0, 1.0, {1: ("0.3", blue)}),
        (1, 0.5, {1: ("0.3", (blue + pink) / 2)}),  # there and back through the highlight
        (1, 1.0, {1: ("0.3", blue)}),
    ]
    assert recoloured(flashed, pink)
    assert recoloured([(0, 1.0, {1: ("3", pink)})], pink)


def test_a_replaced_number_may_head_for_its_replacements_colour_only() -> None:
    """A number gone by the beat's end may take the colour of the same value replacing it."""
    dim, blue, red = np.array([0.3, 0.4, 0.5]), np.array([0.2, 0.6, 0.9]), np.array([0.9, 0.4, 0.3])
    replaced: list[Sample] = [
        (0, 1.0, {1: ("0.3", dim)}),
        (1, 0.5, {1: ("0.3", (dim + blue) / 2)}),  # brightening as it becomes number 2
        (1, 1.0, {2: ("0.3", blue)}),
    ]
    assert not recoloured(replaced, np.array([0.8, 0.5, 0.6]))
    # Heading for the colour of another value's number is still a flash.
    other: list[Sample] = [
        (0, 1.0, {1: ("0.3", dim)}),
        (1, 0.5, {1: ("0.3", (dim + red) / 2)}),
        (1, 1.0, {2: ("0.3", blue), 3: ("-0.7", red)}),
    ]
    assert recoloured(other, np.array([0.8, 0.5, 0.6]))
