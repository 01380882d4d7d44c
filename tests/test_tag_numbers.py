"""A row number beside a tag reads as its own column, never as the tag's ID going on.

A 720p review (lecture-hall frames) read SequenceLookup's output tags, an
amber chip ``2`` and the grey row number ``0`` a SPACE to its right, as one
number ``20``. (With word pieces, as MiniLM's text gives, the piece stands
between the chip and the number: ``[2368] cat 1``.) Read from the mobjects at
every beat end: each visible row number (a ``position`` cell) right after a
chip stands clear of it by at least one digit's advance of its own font, as
drawn (its slot's width over its digits: a whole blank digit column, wider
than any gap between the digits of one number), and overlaps no chip, piece
or other number.
"""

from __future__ import annotations

from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

GPT2 = {"ids": "4821,0,50256", "vocab": 50257, "dim": 768}


CASES: list[tuple[str, Any]] = [
    ("SequenceLookup", {}),
    ("SequenceLookup", GPT2),
    ("LargeVocabLookup", {}),
    ("PositionBlindness", {}),
    ("PositionBlindness", {"positions": "learned"}),
    ("TrainingNudge", {}),
]


def _box(mobject: Any) -> tuple[float, float, float, float]:
    low, high = mobject.get_corner([-1, -1, 0]), mobject.get_corner([1, 1, 0])
    return float(low[0]), float(low[1]), float(high[0]), float(high[1])


def _shown(mobject: Any) -> bool:
    return float(mobject.get_fill_opacity()) >= 0.5 and mobject.get_family()[0].has_points()


def _problems(scene: str, overrides: dict[str, Any]) -> tuple[int, list[str]]:
    """Return how many row numbers were measured, and each one too near or over a tag."""
    from embedviz.render.glyphs import LabelText, NumberText
    from embedviz.render.parts.chips import Chip

    board = prepared_storyboard(scene, overrides, environ={})
    pieces = set(board.options.pieces or ())
    found: list[str] = []
    measured = [0]

    def look(scene_object: Any, moment: Any) -> None:
        if moment.alpha < 1:
            return
        family = [m for top in scene_object.mobjects for m in top.get_family()]
        numbers = [
            m
            for m in family
            if isinstance(m, NumberText) and m.cell.kind == "position" and _shown(m)
        ]
        tags = [m for m in family if isinstance(m, Chip) and _shown(m.submobjects[0])]
        tags += [m for m in family if isinstance(m, LabelText) and m.text in pieces and _shown(m)]
        others = [m for m in family if isinstance(m, NumberText) and _shown(m)]
        for number in numbers:
            left, bottom, right, top = _box(number)
            middle = (bottom + top) / 2
            low, high = number.slot_corners()
            digit = float(high[0] - low[0]) / len(number.text)  # its advance, as drawn now
            row = [t for t in tags if _box(t)[1] <= middle <= _box(t)[3]]
            before = [t for t in row if _box(t)[2] <= left + digit]
            where = f"{moment.beat.name}: row number {number.text}"
            nearest = max(before, key=lambda t: _box(t)[2]) if before else None
            # Right after a chip (after a word piece, a word and a number do not run together).
            if isinstance(nearest, Chip):
                measured[0] += 1
                gap = left - _box(nearest)[2]
                if gap < digit - 1e-6:
                    found.append(f"{where} {gap * 90:.1f} px from its tag (< {digit * 90:.1f})")
            for other in [*row, *others]:
                if other is number:
                    continue
                a, b = _box(other), (left, bottom, right, top)
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    found.append(f"{where} overlaps {getattr(other, 'text', type(other).__name__)}")

    play_moments(board, look, alphas=(0.5,), pixel_width=192, pixel_height=108)
    return measured[0], found


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_a_row_number_stands_a_digit_clear_of_its_tag(scene: str, overrides: Any) -> None:
    wanted = overrides() if callable(overrides) else overrides
    measured, problems = _problems(scene, wanted)
    assert measured, "no row number beside a tag was measured"
    assert not problems, problems[:6]
