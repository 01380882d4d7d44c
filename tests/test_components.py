"""Stages composed of components: beat dispatch, the narrow host, the lookup parts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from manim import Animation, Mobject, Wait

from embedviz.inputs import prepared_storyboard
from embedviz.render.components import ChipLane, GridPanel, OutputPanel, PrintPanel, RowCopy
from embedviz.render.stage import Component, Stage
from embedviz.render.stages.lookup import LookupStage
from embedviz.render.stages.zero_based import ZeroBasedStage
from embedviz.render.theme import DARK
from embedviz.story.model import Beat, Storyboard


class FakeHost:
    """A StageHost that records what is added; nothing else of a scene."""

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
    stage = Composed(FakeHost(), board, DARK)
    animation = stage.animate(_beat(board, "ping"))
    assert isinstance(animation, Marked)
    assert animation.by == "Ping.ping"


def test_the_stage_s_own_handler_comes_first() -> None:
    class Own(Composed):
        def beat_ping(self, beat: Beat) -> Animation:
            return Marked("stage")

    board = _board()
    animation = Own(FakeHost(), board, DARK).animate(_beat(board, "ping"))
    assert isinstance(animation, Marked)
    assert animation.by == "stage"


def test_two_parts_handling_one_beat_is_an_error() -> None:
    class Both(Composed):
        def build(self) -> None:
            super().build()
            self.pong = self.add_part(Pong(self.scene, self.theme))

    board = _board()
    stage = Both(FakeHost(), board, DARK)
    with pytest.raises(ValueError, match=r"more than one part \(Ping, Pong\)"):
        stage.animate(_beat(board, "ping"))
    # The one that only Pong handles still goes to Pong.
    animation = stage.animate(_beat(board, "pong"))
    assert isinstance(animation, Marked)
    assert animation.by == "Pong.pong"


def test_a_beat_nobody_handles_is_a_key_error() -> None:
    board = _board()
    with pytest.raises(KeyError, match="beat_nothing"):
        Composed(FakeHost(), board, DARK).animate(_beat(board, "nothing"))


def test_the_clear_beat_is_the_base_stage_s() -> None:
    board = _board()
    assert isinstance(Composed(FakeHost(), board, DARK).animate(_beat(board, "clear")), Wait)


def test_parts_see_the_host_not_a_scene_class() -> None:
    host = FakeHost()
    stage = LookupStage(host, _board(), DARK)
    assert stage.parts
    assert all(part.host is host for part in stage.parts)


def test_the_lookup_stage_is_composed_of_the_kit_s_parts() -> None:
    stage = LookupStage(FakeHost(), _board(), DARK)
    kinds = {type(part) for part in stage.parts}
    assert {GridPanel, ChipLane, OutputPanel, PrintPanel, RowCopy} <= kinds
    # One of each: no stale part is left behind when a layout replaces one.
    assert len(stage.parts) == len(kinds)
    # The old names are aliases of the parts' attributes.
    assert stage.grid is stage.grid_panel.grid
    assert stage.grid_title is stage.grid_panel.title
    assert stage.chips is stage.chip_lane.chips
    assert stage.output is stage.output_panel.output
    assert stage.printed is stage.print_panel.printed
    assert stage.route_x == stage.row_copy.route_x is not None
    # The motion moves between the very parts the stage shows.
    assert stage.row_copy.grid_panel is stage.grid_panel
    assert stage.row_copy.output_panel is stage.output_panel


def test_a_subclass_assigning_the_old_names_fills_the_parts() -> None:
    class Legacy(LookupStage):
        layout = "test_legacy"

        def build(self) -> None:
            self.route_x = 1.5
            self.tags = {}

    stage = Legacy(FakeHost(), _board(), DARK)
    assert stage.row_copy.route_x == 1.5
    assert stage.output_panel.tags == {}
    assert stage.route_x == 1.5


def test_a_lookup_beat_is_played_by_its_part() -> None:
    host = FakeHost()
    board = _board()
    stage = LookupStage(host, board, DARK)
    lookup = next(beat for beat in board.beats if beat.action == "lookup")
    assert stage.animate(lookup) is not None
    # The row copy put the output block on screen through the host.
    assert stage.output in host.added


def test_zero_based_is_composed_not_inherited() -> None:
    board = _board("ZeroBasedIndexing")
    stage = ZeroBasedStage(FakeHost(), board, DARK)
    assert not isinstance(stage, LookupStage)
    assert {type(part) for part in stage.parts} == {GridPanel, ChipLane}
    # count_rows is not the stage's: the grid panel plays it, through dispatch.
    assert not hasattr(ZeroBasedStage, "beat_count_rows")
    from dataclasses import replace

    lit = next(beat for beat in board.beats if beat.highlight is not None)
    assert stage.animate(replace(lit, action="count_rows")) is not None


def test_intro_mobjects_are_the_title_and_each_part_s_intro() -> None:
    stage = LookupStage(FakeHost(), _board(), DARK)
    shown = stage.intro_mobjects()
    assert shown[0] is stage.title
    for mobject in (stage.grid, stage.grid_title, stage.legend, *stage.chips, stage.chips_label):
        assert any(m is mobject for m in shown)
    # The output block waits for its reveal beat.
    assert not any(m is stage.output for m in shown)
