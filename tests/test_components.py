"""Stages composed of components: beat dispatch, the narrow host, the lookup parts."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import RecordingHost
from manim import Animation, Mobject, Wait

from embedviz.inputs import prepared_storyboard
from embedviz.render.stage import Component, Stage
from embedviz.render.stages.lookup import LookupStage
from embedviz.render.stages.zero_based import ZeroBasedStage
from embedviz.render.theme import DARK
from embedviz.story.model import Beat, Storyboard


class Marked(Animation):  # type: ignore[misc]
    """An animation that says who made it."""

    def __init__(self, by: str) -> None:
        super().__init__(Mobject())
        self.by = by


class Ping(Component):
    def beat_ping(self, beat: Beat) -> Animation:
        return Marked(f"{type(self).__name__}.ping")


class Pong(Component):
    def beat_pong(self, beat: Beat) -> Animation:
        return Marked("Pong.pong")

    def beat_ping(self, beat: Beat) -> Animation:
        return Marked("Pong.ping")


def _board(scene: str = "SingleTokenLookup") -> Storyboard:
    return prepared_storyboard(scene, {}, environ={})


def _beat(board: Storyboard, action: str) -> Any:
    """A stand-in beat: dispatch reads only its action and name."""
    from types import SimpleNamespace

    return SimpleNamespace(action=action, name=f"test_{action}", beat=board.beats[0])


class Composed(Stage):
    layout = "test_composed"

    def build(self) -> None:
        self.ping = self.add_part(Ping(self.scene, self.theme))


def test_a_beat_goes_to_the_one_part_that_handles_it() -> None:
    board = _board()
    stage = Composed(RecordingHost(), board, DARK)
    animation = stage.animate(_beat(board, "ping"))
    assert isinstance(animation, Marked)
    assert animation.by == "Ping.ping"


def test_the_stage_s_own_handler_comes_first() -> None:
    class Own(Composed):
        def beat_ping(self, beat: Beat) -> Animation:
            return Marked("stage")

    board = _board()
    animation = Own(RecordingHost(), board, DARK).animate(_beat(board, "ping"))
    assert isinstance(animation, Marked)
    assert animation.by == "stage"


def test_two_parts_handling_one_beat_is_an_error() -> None:
    class Both(Composed):
        def build(self) -> None:
            super().build()
            self.pong = self.add_part(Pong(self.scene, self.theme))

    board = _board()
    stage = Both(RecordingHost(), board, DARK)
    with pytest.raises(ValueError, match=r"more than one part \(Ping, Pong\)"):
        stage.animate(_beat(board, "ping"))
    # The one that only Pong handles still goes to Pong.
    animation = stage.animate(_beat(board, "pong"))
    assert isinstance(animation, Marked)
    assert animation.by == "Pong.pong"


def test_a_beat_nobody_handles_is_a_key_error() -> None:
    board = _board()
    with pytest.raises(KeyError, match="beat_nothing"):
        Composed(RecordingHost(), board, DARK).animate(_beat(board, "nothing"))


def test_the_clear_beat_is_the_base_stage_s() -> None:
    board = _board()
    assert isinstance(Composed(RecordingHost(), board, DARK).animate(_beat(board, "clear")), Wait)


def test_parts_see_the_host_not_a_scene_class() -> None:
    host = RecordingHost()
    stage = LookupStage(host, _board(), DARK)
    assert stage.parts
    assert all(part.host is host for part in stage.parts)


def test_the_lookup_stage_is_composed_of_parts_without_aliases() -> None:
    stage = LookupStage(RecordingHost(), _board(), DARK)
    kinds = [type(part) for part in stage.parts]
    # SingleTokenLookup prints its result: the print is a part too.
    assert sorted(k.__name__ for k in kinds) == sorted(
        ["MatrixPart", "OutputPart", "ChipColumn", "LookupMotion", "PrintPart"]
    )
    # The old aliases and the classic path are gone.
    for old in ("grid", "grid_title", "chips_label", "route_x", "tags", "code", "corridor"):
        assert not hasattr(LookupStage, old), old
    assert not hasattr(LookupStage, "_build_classic")
    # The motion moves between the very parts the stage shows.
    assert stage.motion.matrix is stage.matrix
    assert stage.motion.output is stage.output
    assert stage.motion.chips is stage.chips


def test_a_lookup_beat_is_played_by_the_motion_part() -> None:
    host = RecordingHost()
    board = _board()
    stage = LookupStage(host, board, DARK)
    lookup = next(beat for beat in board.beats if beat.action == "lookup")
    assert not hasattr(LookupStage, "beat_lookup")
    assert stage.animate(lookup) is not None
    # It put the output block on screen through the host.
    assert any(m is stage.output.grid for m in host.mobjects)


def test_zero_based_is_composed_not_inherited() -> None:
    from embedviz.render.parts.counting import CountingMotion
    from embedviz.render.parts.lookup import MatrixPart
    from embedviz.render.parts.trace import SlipCard, TraceCard

    board = _board("ZeroBasedIndexing")
    stage = ZeroBasedStage(RecordingHost(), board, DARK)
    assert not isinstance(stage, LookupStage)
    assert [type(part) for part in stage.parts] == [MatrixPart, SlipCard, TraceCard, CountingMotion]
    # Its beats are its parts': count_rows (the matrix's) and check (the trace's), through dispatch.
    assert not hasattr(ZeroBasedStage, "beat_count_rows")
    assert not hasattr(ZeroBasedStage, "beat_check")
    from dataclasses import replace

    lit = next(beat for beat in board.beats if beat.highlight is not None)
    assert stage.animate(replace(lit, action="count_rows")) is not None
    check = next(beat for beat in board.beats if beat.action == "check")
    assert stage.animate(check) is not None


def test_intro_mobjects_are_the_title_and_each_part_s_intro() -> None:
    stage = LookupStage(RecordingHost(), _board(), DARK)
    shown = stage.intro_mobjects()
    assert shown[0] is stage.title
    expected = [stage.matrix.grid, stage.matrix.heading, stage.matrix.legend, *stage.chips.chips]
    for mobject in expected:
        assert any(m is mobject for m in shown)
    # The output block holds its place from the start, so the frame is used.
    assert any(m is stage.output.grid for m in shown)


def test_a_block_whose_shape_is_asked_for_is_blank_until_its_reveal() -> None:
    board = _board("SequenceLookup")
    stage = LookupStage(RecordingHost(), board, DARK)
    shown = stage.intro_mobjects()
    assert any(m is stage.output.grid for m in shown)
    # No rows or columns drawn, no row numbers, no shape: the prediction is still open.
    assert all(rule.get_stroke_opacity() == 0 for rule in stage.output.rules)
    assert not any(m is stage.output.numbers for m in shown)
    reveal = next(beat for beat in board.beats if beat.action == "reveal")
    stage.animate(reveal)
    assert stage.output.revealed


def test_a_cell_grid_reads_back_like_manim_s_table() -> None:
    from embedviz.render.glyphs import LabelText
    from embedviz.render.parts.grid import CellGrid, Slot

    rows = [Slot(0, 0.5), Slot(0, 0.2, gap=True), Slot(7, 0.5)]
    cols = [Slot(0, 1.0), Slot(0, 0.3, gap=True), Slot(9, 1.0)]

    def element(row: Slot, col: Slot) -> LabelText:
        return LabelText("\u2026" if col.gap else f"{row.key}.{col.key}", 20, "#FFFFFF")

    grid = CellGrid(rows, cols, element, DARK, pad=0.05)
    assert grid.get_rows() == [0, 7]
    assert [m.text for m in grid.get_row_numbers(7)] == ["7.0", "7.9"]
    assert len(grid.get_row(7)) == 3  # two numbers and the column gap's mark
    assert len(grid.get_entries()) == 4
    cell = grid.get_cell(7, 9)
    # Right-aligned in its cell (less the pad), centred on its row.
    assert cell.slot_corners()[1][0] == pytest.approx(grid.body_right() - 0.05)
    assert cell.get_y() == pytest.approx(grid.row_y(7))
    assert grid.row_y(0, gap=True) == pytest.approx(grid.body_top() - 0.5 - 0.1)
    placed = grid.put(0, 9, LabelText("x", 20, "#FFFFFF"))
    assert placed.get_y() == pytest.approx(grid.row_y(0))
    grid.shift(np.array([2.0, -1.0, 0.0]))
    assert grid.get_cell(7, 9).get_y() == pytest.approx(grid.row_y(7))


@pytest.mark.parametrize(
    ("options", "example"),
    [({"ids": "4821,0,50256", "vocab": 50257, "dim": 768}, None), ({}, "de")],
    ids=["gpt2", "german"],
)
def test_the_shape_question_sits_inside_the_blank_block(
    options: dict[str, Any], example: str | None
) -> None:
    # A narrow block takes the question on two lines (GPT-2's ran over the block's
    # left edge and into the chips); the axes either side of "×" are underlined
    # in any language (the German question was never underlined).
    import json
    from pathlib import Path

    from embedviz.render.glyphs import SansText
    from embedviz.render.metrics import text_width
    from embedviz.story.contract import storyboard_from_data

    if example is None:
        board = prepared_storyboard("SequenceLookup", options, environ={})
    else:
        path = Path(__file__).parent.parent / "examples" / f"SequenceLookup.{example}.json"
        board = storyboard_from_data(json.loads(path.read_text(encoding="utf-8")))
    stage = LookupStage(RecordingHost(), board, DARK)
    predict = next(beat for beat in board.beats if beat.action == "predict")
    stage.animate(predict)
    question, body = stage.output.question, stage.output.grid.body[0]
    assert question is not None
    assert question.get_left()[0] >= body.get_left()[0]
    assert question.get_right()[0] <= body.get_right()[0]
    assert len(stage.output.underlines) == 2
    # One label on screen, whatever its lines: the storyboard's words, whole, in sans
    # (a prompt is not code: a 720p review saw it in monospace).
    assert isinstance(question, SansText)
    assert question.original_text == predict.label("question")
    last = len(question.lines) - 1
    line, (low, high) = question.lines[last], question.line_corners(last)
    before, after = line.split("\u00d7")
    words = [(line.rindex(before.split()[-1]), before.split()[-1])]
    words.append((line.index(after.split()[0], len(before)), after.split()[0]))
    # The line's slot is its sans advance width: each underline spans its word's advance.
    per_unit = float(high[0] - low[0]) / text_width(line, 1.0, mono=False)
    for underline, (start, word) in zip(stage.output.underlines, words, strict=True):
        left = float(low[0]) + text_width(line[:start], 1.0, mono=False) * per_unit
        assert underline.get_left()[0] == pytest.approx(left, abs=1e-6)
        assert underline.width == pytest.approx(text_width(word, 1.0, mono=False) * per_unit)
