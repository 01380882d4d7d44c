"""PositionBlindness as a teacher's 720p review of a learned P saw it (issue 18).

Three findings, each read from the moment sampler
(:func:`~embedviz.render.moments.play_moments`) mid-motion and at beat ends:
``≠ different`` sat right on the grey note under it, the sum rows had no
position numbers, and the chips' heading ``token IDs`` ended near the frame's
right edge. One dry run per variant serves all three.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import pytest

VARIANTS = {
    "learned": {"positions": "learned"},
    "learned-light": {"theme": "light", "positions": "learned"},
    "default": {},
    "default-light": {"theme": "light"},
}
BEATS = frozenset({"intro", "lookup", "add", "differ"})


@dataclass
class Seen:
    """What one moment showed: the beat, the time, and the geometry the tests read."""

    beat: str
    time: float
    heading_right: float | None = None
    # (verdict part's box, note's box) pairs: left, bottom, right, top.
    verdict: list[tuple[tuple[float, ...], tuple[float, ...]]] = field(default_factory=list)
    # Each sum row: (its position, its centre line, the body's right, the bracket's left or
    # None) and the texts drawn right of the body on that line.
    rows: list[tuple[str, float, float, list[tuple[str, float, float]]]] = field(
        default_factory=list
    )


def _box(mobject: Any) -> tuple[float, ...]:
    low, high = mobject.get_corner([-1, -1, 0]), mobject.get_corner([1, 1, 0])
    return (float(low[0]), float(low[1]), float(high[0]), float(high[1]))


def _shown(scene: Any) -> list[Any]:
    from manim import VMobject

    return [
        m
        for m in scene.get_mobject_family_members()
        if isinstance(m, VMobject) and float(m.get_fill_opacity()) > 0.05
    ]


@functools.cache
def _moments(name: str) -> list[Seen]:
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.glyphs import NumberText, SansText
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("PositionBlindness", VARIANTS[name], environ={})
    different = board.word("different")
    seen: list[Seen] = []

    def read(scene: Any, moment: Any) -> None:
        stage = scene.stage
        shown = _shown(scene)
        ids = {id(m) for m in shown}
        now = Seen(moment.beat.name, moment.time)
        heading = stage.chips.heading
        if any(id(m) in ids for m in heading.get_family()):
            now.heading_right = float(heading.get_right()[0])
        note = stage.blocks.sum_note
        words = [m for m in shown if isinstance(m, SansText) and m.text == different]
        if note is not None and words and any(id(m) in ids for m in note.get_family()):
            now.verdict = [(_box(w), _box(note)) for w in words]
        if moment.beat.name in ("add", "differ"):
            grid = stage.blocks.sum_grid
            texts = [m for m in shown if isinstance(m, NumberText)]
            for position in stage.blocks.positions:
                y = stage.blocks.sums.y(position)
                beside = [
                    (t.text, float(t.get_left()[0]), float(t.get_center()[1]))
                    for t in texts
                    if t.get_left()[0] > grid.body_right() and abs(t.get_center()[1] - y) < 0.05
                ]
                number = stage.blocks.cells[("position", position)].text  # the storyboard's
                now.rows.append((number, y, float(grid.body_right()), beside))
        seen.append(now)

    play_moments(board, read, alphas=(0.5, 1.0), pixel_width=256, pixel_height=144, beats=BEATS)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_verdict_and_the_sums_note_stand_apart(name: str) -> None:
    """The review (61.7-64.4 s): ``≠ different`` sat right on top of the grey note, so
    the two read as one block. Wherever both are drawn, their boxes keep at least
    :data:`~embedviz.render.design.APART`, the gap between groups, in both themes and
    both variants."""
    from embedviz.render.design import APART

    pairs = [pair for now in _moments(name) for pair in now.verdict]
    if name.startswith("learned"):
        assert pairs  # the learned variant's note stands beside the block, by the verdict
    for word, note in pairs:
        gap = max(word[0] - note[2], note[0] - word[2], word[1] - note[3], note[1] - word[3])
        assert gap >= APART - 1e-6, (word, note, gap)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_sum_rows_carry_their_positions(name: str) -> None:
    """The review (43.3-64.4 s): the sum table had no position numbers, so a viewer could
    not tell which position a sum row was. Through ``add`` and ``differ``, each row shows
    its position (the storyboard's number) right of the block on the row's line, the
    only number there before the bracket."""
    rows = [(now.beat, row) for now in _moments(name) for row in now.rows]
    assert rows
    for beat, (number, _, right, beside) in rows:
        assert [text for text, _, _ in beside] == [number], (beat, number, beside)
        assert all(left > right for _, left, _ in beside)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_token_ids_heading_keeps_clear_of_the_edge(name: str) -> None:
    """The review (1.6-14.2 s): ``token IDs`` ended by the frame's right edge. Wherever it
    is drawn it keeps twice the safe margin (36 px at 720p, the verdict's edge and
    ``CLEAR_EDGE_PX`` of ``test_parameter_count_frames.py``) inside it."""
    from manim import config

    from embedviz.render.design import MARGIN

    rights = [now.heading_right for now in _moments(name) if now.heading_right is not None]
    assert rights
    edge = float(config.frame_width) / 2 - 2 * MARGIN
    assert max(rights) <= edge + 1e-6, (max(rights), edge)
