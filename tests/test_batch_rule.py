"""GPT-2's batch: the lookup's rule stands under the short slices, the legend still beside them.

Its legend under the slices faded out of the strips' way in three lookup
beats (issue 18: a teacher saw the key blink); every height under the
slices is crossed by some strip, and the places none crosses left 18.0-21.6 %
of the frame empty there. The legend now stands upright under the slices'
edges (tests/test_legend_place.py) and the rule ``out[b, t] = E[ids[b, t]]``
takes the room under the slices on a card (parts/batch_rule.py). Read at
every beat's end: the card shows, in one place, under the slices and clear
of everything else drawn; it is set in the one maths voice. A batch whose
legend stands clear of the strips (the default) has no card.
"""

from __future__ import annotations

from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.boxes import mobject_boxes
from embedviz.render.moments import play_moments

GPT2_BATCH = {"ids": [[4821, 0, 50256, 17], [33000, 2, 4821, 0]], "vocab": 50257, "dim": 768}
# Overlap deeper than this (scene units) counts: a tenth of a pixel at 720p.
TOUCH = 0.1 / 90


def _ends(overrides: dict[str, Any]) -> list[tuple[str, Any, float, list[Any], float]]:
    """At every beat's end: (beat, the card's box, opacity, what overlaps it, slices' bottom)."""
    board = prepared_storyboard("BatchLookup", overrides, environ={})
    seen: list[tuple[str, Any, float, list[Any], float]] = []

    def look(scene: Any, moment: Any) -> None:
        stage = scene.stage
        if stage.rule is None:
            seen.append((moment.beat.name, None, 0.0, [], 0.0))
            return
        card = stage.rule.card
        (box,) = mobject_boxes([card[1]])
        opacity = max(float(m.get_fill_opacity()) for m in card[1].family_members_with_points())
        others = mobject_boxes(scene.mobjects, [card], stage.theme.background)
        crossing = [
            o
            for o in others
            if min(o[2], box[2]) - max(o[0], box[0]) > TOUCH
            and min(o[3], box[3]) - max(o[1], box[1]) > TOUCH
        ]
        bottom = min(float(g.get_bottom()[1]) for g in stage.stack.slices)
        seen.append((moment.beat.name, box, opacity, crossing, bottom))

    play_moments(board, look, alphas=(), pixel_width=192, pixel_height=108)
    return seen


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_rule_stands_under_the_slices_at_every_beat_end(theme: str) -> None:
    ends = _ends({**GPT2_BATCH, "theme": theme})
    assert ends
    assert all(box is not None for _, box, *_ in ends), "no rule card"
    home = ends[0][1]
    problems = []
    for beat, box, opacity, crossing, bottom in ends:
        if opacity < 0.99:
            problems.append(f"{beat}: the rule is drawn at {opacity:.2f}")
        if max(abs(a - b) for a, b in zip(box, home, strict=True)) > 1e-6:
            problems.append(f"{beat}: the rule stands at {box}, not {home}")
        if crossing:
            problems.append(f"{beat}: {len(crossing)} drawn boxes overlap the rule")
        if box[3] > bottom:
            problems.append(f"{beat}: the rule's top {box[3]:.2f} is over the slices' {bottom:.2f}")
    assert not problems, "\n".join(problems)


def test_the_rule_is_set_in_the_maths_voice() -> None:
    from embedviz.render.design import DARK
    from embedviz.render.formula import FormulaText
    from embedviz.render.parts.batch_rule import rule_card
    from embedviz.story.scenes.batch import RULE

    card = rule_card(RULE, DARK, 20.0)
    assert isinstance(card[1], FormulaText)
    assert card[1].text == RULE
    assert RULE == '"out"[b, t] = E["ids"[b, t]]'


def test_the_card_says_the_storys_rule_and_the_storyboard_records_none_it_may_not_draw() -> None:
    """The card's text is the story's rule; no beat records a ``rule`` label for a batch.

    The text was the renderer's own constant, apart from the story's. Whether
    the card is drawn is the layout's question (parts/batch_rule.py): every
    label a storyboard records is drawn (test_contract's reworded labels),
    and the toy default draws no card, so the storyboard holds no batch rule
    for a description to read.
    """
    from conftest import RecordingHost

    from embedviz.render.stages.batch import BatchStage
    from embedviz.render.theme import DARK
    from embedviz.story.scenes.batch import RULE

    for overrides, drawn in ((GPT2_BATCH, True), ({}, False)):
        board = prepared_storyboard("BatchLookup", overrides, environ={})
        stage = BatchStage(RecordingHost(), board, DARK)
        assert (stage.rule is not None) == drawn, overrides
        assert all("rule" not in beat.labels for beat in board.beats)
        if stage.rule is not None:
            assert stage.rule.card[1].text == RULE


def test_a_batch_whose_legend_stands_clear_has_no_rule() -> None:
    ends = _ends({})
    assert ends
    assert all(box is None for _, box, *_ in ends)
