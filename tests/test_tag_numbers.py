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

The wide gap once cost LargeVocabLookup's default sentence its marks' air at
the safe area's edge (``solve_large_vocab``): there, and only where the
solver says so, the number stands a SPACE from its chip, and the last test
checks that the wide gap is given up for that reason alone. Since the repeat's
note stands in the corridor (session 40: no marks column at the right edge),
no case gives it up: every LargeVocab row number stands a digit clear.
"""

from __future__ import annotations

from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

GPT2_SIZE = {"vocab": 50257, "dim": 768}
GPT2 = {"ids": "4821,0,50256", **GPT2_SIZE}


# (scene, overrides, whether the row numbers stand a digit's column from their chips).
CASES: list[tuple[str, Any, bool]] = [
    ("SequenceLookup", {}, True),  # the review's frame
    ("SequenceLookup", GPT2, True),
    # The wide gap cost the marks their air at the edge (a SPACE) until the repeat's note
    # moved into the corridor: wide now (see the last test).
    ("LargeVocabLookup", {}, True),
    ("LargeVocabLookup", {"ids": "40,7,59,40,2", "vocab": 60, "dim": 5}, True),
    ("PositionBlindness", {}, True),
    ("PositionBlindness", {"positions": "learned"}, True),
    ("PositionBlindness", {"positions": "learned", "ids": "4821,0,4821", **GPT2_SIZE}, True),
    ("TrainingNudge", {}, True),
]


def _box(mobject: Any) -> tuple[float, float, float, float]:
    low, high = mobject.get_corner([-1, -1, 0]), mobject.get_corner([1, 1, 0])
    return float(low[0]), float(low[1]), float(high[0]), float(high[1])


def _shown(mobject: Any) -> bool:
    return float(mobject.get_fill_opacity()) >= 0.5 and mobject.get_family()[0].has_points()


def _problems(scene: str, overrides: dict[str, Any], wide: bool) -> tuple[int, list[str]]:
    """Return how many row numbers were measured, and each one too near or over a tag.

    Too near: under a digit's advance from its chip where the gap is ``wide``;
    else under half of one (a SPACE is about two thirds of a label's digit).
    """
    from embedviz.render.glyphs import LabelText, NumberText
    from embedviz.render.parts.chips import Chip

    board = prepared_storyboard(scene, overrides, environ={})
    pieces = set(board.options.pieces or ())
    found: list[str] = []
    measured = [0]
    ratios: list[float] = []  # each gap over its digit's advance

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
                need = digit if wide else digit / 2
                if gap < need - 1e-6:
                    found.append(f"{where} {gap * 90:.1f} px from its tag (< {need * 90:.1f})")
                ratios.append(gap / digit)
            for other in [*row, *others]:
                if other is number:
                    continue
                a, b = _box(other), (left, bottom, right, top)
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    found.append(f"{where} overlaps {getattr(other, 'text', type(other).__name__)}")

    play_moments(board, look, alphas=(0.5,), pixel_width=192, pixel_height=108)
    if not wide and ratios and min(ratios) >= 1 - 1e-6:
        # Narrower chips stand further off; the widest ID's is the one the gap is solved for.
        found.append("every row number a digit clear of its tag: the case is wide now")
    return measured[0], found


@pytest.mark.parametrize(("scene", "overrides", "wide"), CASES)
def test_a_row_number_stands_a_digit_clear_of_its_tag(
    scene: str, overrides: Any, wide: bool
) -> None:
    measured, problems = _problems(scene, overrides, wide)
    assert measured, "no row number beside a tag was measured"
    assert not problems, problems[:6]


@pytest.mark.parametrize(
    "overrides",
    [case[1] for case in CASES if case[0] == "LargeVocabLookup"],
    ids=["default", "toy"],
)
def test_large_vocab_narrows_the_gap_only_to_keep_the_marks_air(overrides: Any) -> None:
    """The wide gap is given up only where, with it, the marks' air would be dropped.

    With the wide gap and the air, the numbers lose more than ``AIR_COST_PX``
    (or the small labels their size) against the plan without the air; only then
    is a SPACE used, and with it the air is kept.
    """
    from dataclasses import replace

    from embedviz.render.design import SPACE, px_for_font
    from embedviz.render.parts.chips import number_gap
    from embedviz.render.stages import large_vocab as lv

    spec = lv.large_vocab_spec(prepared_storyboard("LargeVocabLookup", overrides, environ={}))
    assert spec.mark_air
    plan = lv.solve_large_vocab(spec)
    gap = plan.position_left - plan.tag_left - plan.chip_width
    tight = lv.solve_large_vocab(replace(spec, mark_air=0.0))
    wide = lv._solve_legend(spec)
    cost = px_for_font(tight.scale.data) - px_for_font(wide.scale.data)
    costly = cost > lv.AIR_COST_PX or wide.scale.text_px < tight.scale.text_px - 1e-9
    if costly:
        assert gap == pytest.approx(SPACE), "the wide gap cost the air: a SPACE"
        narrow = lv._solve_legend(replace(spec, wide_number_gap=False))
        assert plan == narrow, "with a SPACE, the air is kept"
    else:
        assert plan == wide
        assert gap == pytest.approx(number_gap(plan.scale.label)), "the wide gap costs nothing"
    # The note stands in the corridor, not at the edge: no sentence narrows the gap now.
    assert not costly, "a sentence narrows the gap"
