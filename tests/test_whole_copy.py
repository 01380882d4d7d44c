"""A copied row is never shown as an empty or partly empty box.

Issue 18 ("the row lifts as a strip and goes to its output row"): a copy
leaving E through its right edge shows each number only once its cell is a
column clear of E (nearer, on its row's line, it reads as one more column of
E: test_strip_heading), but its amber box was drawn from E's edge on. So for a
moment the copy was an empty, then a partly empty, box beside E (the toy
SequenceLookup's ``lookup-0`` near 34.1 s: a three-cell box holding only
``-0.1606``; GPT-2's two-column strip likewise): to a class, a row copied with
no values.

Here, at every sampled moment of every carry (each play's fortieths of every
beat, and each carry swept at 2000 points of its run where it stands:
tests/carry_plays.py's shared plays), the strip's box, read as drawn (its
outline's and fill's opacity along it, colour stops included), is nowhere more
than 0.3 opaque across a number of it that is under 0.5 opaque. (A strip its
chip rides lifts out of its row whole, every number shown from its first move,
parts/lift.py: no number of it is hidden, and each of its samples holds.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from carry_plays import GPT2, GPT2_BATCH, box_opacity, empty_parts
from manim import RIGHT, Rectangle, Text

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "toy": ("SequenceLookup", {}),
    "gpt2": ("SequenceLookup", GPT2),
    "single": ("SingleTokenLookup", {}),
    "positions": ("PositionBlindness", {}),
    # Issue 18's lecture-hall review: a batch's strip slid out of E's row as a whole amber
    # box holding only its last number, dim (default lookup-0-1 near 49 s, GPT-2's
    # lookup-0-0 near 38.5 s).
    "batch": ("BatchLookup", {}),
    "batch_gpt2": ("BatchLookup", GPT2_BATCH),
    # The same review: TrainingNudge's scatter slid each weight row out as an empty amber
    # box (w_2 into the column sum near 28.2 s at GPT-2 size, the sum rising to row 2 of
    # the gradient near 29.8 s, w_1 along its line near 30.5 s).
    "nudge": ("TrainingNudge", {}),
    "nudge_gpt2": ("TrainingNudge", {"vocab": 50257, "dim": 768}),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_a_copy_is_never_an_empty_box(case: str, carry_play_cache: Any) -> None:
    scene, overrides = CASES[case]
    played = carry_play_cache(scene, overrides, sweep=True)
    # Travelling strips were read (lifting ones hide no number; others slide out of E).
    assert played.copies_seen, "no travelling strip was seen: nothing was checked"
    assert not played.empty, played.empty[:6]


def test_the_box_reading_sees_colour_stops() -> None:
    """box_opacity reads one colour, and stops along a gradient, as Cairo draws them."""
    box = Rectangle(width=4.0, height=1.0).move_to([2.0, 0.0, 0.0])
    box.set_fill("#000000", opacity=1.0).set_stroke("#ffffff", width=3.0, opacity=1.0)
    xs = np.array([-1.0, 0.5, 2.0, 3.5, 5.0])
    assert box_opacity(box, xs).tolist() == [0.0, 1.0, 1.0, 1.0, 0.0]
    # Stops: opaque over the right half only.
    stops = np.tile(box.stroke_rgbas[0], (5, 1))
    stops[:, 3] = [0.0, 0.0, 0.0, 1.0, 1.0]
    box.set_sheen_direction(RIGHT)
    box.stroke_rgbas, box.fill_rgbas = stops, stops.copy()
    assert box_opacity(box, np.array([0.5, 3.5])).tolist() == [0.0, 1.0]


def test_a_hidden_number_in_a_drawn_box_is_found() -> None:
    """empty_parts finds a hidden number under a drawn box, and not a shown one."""

    class _Carry:
        row, landed = 2, False

        def __init__(self) -> None:
            from manim import VGroup

            box = Rectangle(width=4.0, height=1.0).set_fill("#000000", opacity=1.0)
            shown, hidden = Text("1.0").shift(RIGHT), Text("2.0").shift(-RIGHT)
            hidden.set_fill(opacity=0.2)
            self.strip = VGroup(box, VGroup(shown, hidden), VGroup())

    carry = _Carry()
    assert empty_parts(carry, 0.5) == (True, ["row 2 a0.500: box 1.00 over hidden 2.0"])
    carry.strip[0].set_fill(opacity=0.0).set_stroke(opacity=0.0)
    assert empty_parts(carry, 0.5) == (True, [])
