"""The one base scene: it builds the mobjects and plays a storyboard."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, ClassVar, cast

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Camera,
    Create,
    FadeIn,
    LaggedStart,
    ManimColor,
    Scene,
    SurroundingRectangle,
    Text,
    VGroup,
    VMobject,
    Wait,
    config,
)

from embedviz.core.errors import EmbedvizError
from embedviz.render.animations import (
    make_caption_animation,
    make_count_rows_animation,
    make_dim_rows_animation,
    make_lookup_animation,
    make_reveal_animation,
)
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.mobjects import (
    Caption,
    GridMetrics,
    MatrixGrid,
    OutputBlock,
    PrintedTensor,
    ShapeLabel,
    TokenChip,
    char_advance,
    xyz,
)
from embedviz.render.theme import DARK, Theme
from embedviz.story.model import Beat, NumberCell, Storyboard
from embedviz.story.printed import split_printed
from embedviz.story.scenes import build_storyboard

__all__ = ["StoryboardScene", "screen_texts"]

# Frame regions, in scene units (the frame is 14.22 x 8).
_TITLE_Y = 3.55
_CHIPS_Y = 2.72
_REGION_TOP = 2.05
_GRID_LEFT, _GRID_RIGHT = -6.7, -0.6
_OUTPUT_LEFT, _OUTPUT_RIGHT = 0.9, 6.7
_CAPTION_Y = -3.35
_CAPTION_WIDTH = 13.2
_CHIP_LANE = 0.7  # a chip parks left of the row numbers


def screen_texts(
    scene: Scene,
) -> tuple[list[NumberText], list[LabelText], list[SansText | Text]]:
    """Collect every checked number, label and plain text currently on screen.

    Parameters
    ----------
    scene
        A scene mid-render.

    Returns
    -------
    tuple of lists
        The ``NumberText``, ``LabelText`` and ``SansText`` (or manim
        ``Text``) objects in the scene's mobject families.
    """
    numbers: list[NumberText] = []
    labels: list[LabelText] = []
    texts: list[SansText | Text] = []
    seen: set[int] = set()
    for top in scene.mobjects:
        for mobject in top.get_family():
            if id(mobject) in seen:
                continue
            seen.add(id(mobject))
            if isinstance(mobject, NumberText):
                numbers.append(mobject)
            elif isinstance(mobject, LabelText):
                labels.append(mobject)
            elif isinstance(mobject, SansText | Text):
                texts.append(mobject)
    return numbers, labels, texts


class StoryboardScene(Scene):
    """Plays one storyboard: subclasses only name the scene.

    Parameters
    ----------
    storyboard
        A ready storyboard; by default it is built from ``embedviz.toml`` and
        ``EMBEDVIZ_*`` variables in the working directory.
    theme
        Colours.
    **kwargs
        Passed to :class:`manim.Scene`.
    """

    scene_name: ClassVar[str] = ""
    # The narration on screen; set to None by _layout, then once per beat.
    caption: Caption | None

    def __init__(
        self, *args: Any, storyboard: Storyboard | None = None, theme: Theme = DARK, **kwargs: Any
    ) -> None:
        self.storyboard = storyboard
        self.theme = theme
        super().__init__(*args, **kwargs)

    # -- hooks ---------------------------------------------------------------
    def after_beat(self, beat: Beat) -> None:
        """Run after every beat has played; tests override it to read the screen."""

    # -- setup ---------------------------------------------------------------
    def setup(self) -> None:
        """Build the storyboard before anything is drawn, failing in one line."""
        if self.storyboard is None:
            try:
                self.storyboard = build_storyboard(self.scene_name or type(self).__name__)
            except EmbedvizError as error:
                # A plain `manim render` would print a long traceback; a bad
                # option is the user's input, so say it in one line instead.
                print(f"embedviz: error: {error}", file=sys.stderr)
                raise SystemExit(2) from None
        # embedviz renders with the Cairo renderer, whose camera is a Camera.
        cast(Camera, self.camera).background_color = ManimColor(self.theme.background)

    def construct(self) -> None:
        """Lay out the scene and play every beat of the storyboard."""
        assert self.storyboard is not None
        board = self.storyboard
        self._layout(board)
        handlers: dict[str, Callable[[Beat], Animation]] = {
            "intro": self._intro,
            "count_rows": self._count_rows,
            "predict": self._predict,
            "reveal": self._reveal,
            "lookup": self._lookup,
            "dim": self._dim,
            "shape": self._shape,
            "print": self._print,
            "grad_fn": self._grad_fn,
        }
        for beat in board.beats:
            caption = Caption(beat.narration, _CAPTION_WIDTH, theme=self.theme)
            caption.move_to(xyz(0, _CAPTION_Y))
            animation = AnimationGroup(
                handlers[beat.action](beat), make_caption_animation(self.caption, caption)
            )
            self.play(animation, run_time=beat.run_time)
            self.caption = caption
            hold = round(beat.duration - beat.run_time, 6)
            if hold > 0:
                self.wait(hold)
            self.after_beat(beat)

    # -- layout --------------------------------------------------------------
    def _layout(self, board: Storyboard) -> None:
        theme = self.theme
        final = board.beats[-1]
        first = board.beats[0]
        window = first.window
        cells = {(c.kind, c.index): c for beat in board.beats for c in beat.numbers}
        self.cells = cells
        weight_texts = [c.text for c in cells.values() if c.kind in ("weight", "output")]
        row_labels = [c.text for c in cells.values() if c.kind == "row_label"]
        positions = sorted({c.index for c in cells.values() if c.kind == "position"})
        grid_rows = len(window.rows) + len(window.row_gaps) + 1
        bottom = -1.05 if board.printed is not None else -2.55
        height = _REGION_TOP - bottom
        metrics = GridMetrics.fit(
            value_chars=max(len(t) for t in weight_texts),
            columns=len(window.cols),
            column_gaps=len(window.col_gaps),
            label_chars=max(max(len(t) for t in row_labels), 2),
            rows=max(grid_rows, len(positions) + 1),
            width=min(_GRID_RIGHT - _GRID_LEFT - _CHIP_LANE, _OUTPUT_RIGHT - _OUTPUT_LEFT),
            height=height,
        )
        self.metrics = metrics

        self.title = SansText(board.title, 30, theme.text)
        self.title.move_to(xyz(0, _TITLE_Y))
        self.grid = MatrixGrid(window, list(cells.values()), metrics, theme)
        # Leave room on the left for the row numbers and a parked chip.
        label_width = char_advance(metrics.font_size * 0.8) * max(len(t) for t in row_labels)
        top_left = np.array(
            [_GRID_LEFT + _CHIP_LANE + label_width + 0.2, _REGION_TOP - metrics.cell_height, 0]
        )
        self.grid.shift(top_left - self.grid.body.get_corner(UP + LEFT))
        size_cells = [cells[("table_size", (axis,))] for axis in (0, 1)]
        self.grid_title = VGroup(
            SansText("embedding matrix E", 22, theme.muted),
            ShapeLabel(size_cells, 22, theme.muted),
        ).arrange(RIGHT, buff=0.25)
        self.grid_title.next_to(self.grid.col_labels, UP, buff=0.15)
        self.grid_title.align_to(self.grid.body, LEFT)

        chip_cells = sorted(
            (c for c in cells.values() if c.kind == "token_id"), key=lambda c: c.index
        )
        self.chips = [TokenChip(cell, 24, theme) for cell in chip_cells]
        chip_row = VGroup(*self.chips).arrange(RIGHT, buff=0.18)
        if chip_row.width > _OUTPUT_RIGHT - _OUTPUT_LEFT:
            chip_row.scale_to_fit_width(_OUTPUT_RIGHT - _OUTPUT_LEFT)
        chip_row.move_to(xyz((_OUTPUT_LEFT + _OUTPUT_RIGHT) / 2, _CHIPS_Y))
        self.chip_homes = [chip.get_center().copy() for chip in self.chips]
        self.chips_label = SansText("token IDs", 20, theme.muted)
        self.chips_label.next_to(chip_row, LEFT, buff=0.3)

        self.output: OutputBlock | None = None
        if positions:
            self.output = OutputBlock(positions, window, list(cells.values()), metrics, theme)
            out_top_left = np.array([_OUTPUT_LEFT + 0.6, _REGION_TOP - metrics.cell_height, 0])
            self.output.shift(out_top_left - self.output.body.get_corner(UP + LEFT))
            self.output_title = SansText("output", 22, theme.output)
            self.output_title.next_to(self.output.body, UP, buff=0.2).align_to(
                self.output.body, LEFT
            )
        self.caption = None
        self._built_outputs: dict[tuple[int, ...], NumberText] = {}
        if board.printed is not None:
            self._layout_print(board, final)

    def _layout_print(self, board: Storyboard, final: Beat) -> None:
        assert board.printed is not None
        shape = _output_shape(final)
        lines, omitted = split_printed(board.printed, shape)
        omitted_label = next((t for t in final.labels if "more lines" in t), None)
        code_text = next(t for t in final.labels if t.startswith("embedding_layer("))
        width = max(len(t) for t in board.printed.split("\n"))
        per_unit = char_advance(1.0)
        font_size = min(22.0, (_GRID_RIGHT - _GRID_LEFT + 7.0) / (per_unit * (width + 1)))
        self.code = LabelText(code_text, font_size, self.theme.chip)
        self.printed = PrintedTensor(
            lines, final.numbers, omitted_label if omitted else None, font_size, self.theme
        )
        self.code.move_to(xyz(0, -1.55)).align_to(xyz(_GRID_LEFT, 0), LEFT)
        self.printed.next_to(self.code, DOWN, buff=0.3, aligned_edge=LEFT)

    # -- beat handlers ---------------------------------------------------------
    def _intro(self, beat: Beat) -> Animation:
        self.add(self.title)
        parts: list[VMobject] = [self.grid, self.grid_title, *self.chips, self.chips_label]
        return make_reveal_animation(parts)

    def _count_rows(self, beat: Beat) -> Animation:
        assert beat.highlight is not None
        return make_count_rows_animation(self.grid, beat.highlight.row)

    def _predict(self, beat: Beat) -> Animation:
        question = next(t for t in beat.labels if t.startswith("output shape?"))
        self.question = LabelText(question, 24, self.theme.output)
        assert self.output is not None
        self.question.move_to(self.output.body)
        return FadeIn(self.question, shift=0.2 * DOWN)

    def _reveal(self, beat: Beat) -> Animation:
        assert self.output is not None
        leaving = [self.question] if hasattr(self, "question") else []
        return make_reveal_animation([self.output, self.output_title], leaving)

    def _output_cells(self, position: tuple[int, ...]) -> list[NumberText]:
        assert self.output is not None
        cells = sorted(
            (c for c in self.cells.values() if c.kind == "output" and c.index[:-1] == position),
            key=lambda c: c.index,
        )
        return [self.output.make_cell(cell) for cell in cells]

    def _lookup(self, beat: Beat) -> Animation:
        assert beat.highlight is not None
        assert self.output is not None
        if beat.output is not None and not any(m is self.output for m in self.mobjects):
            self.add(self.output, self.output_title)
        position = beat.highlight.position
        chip_index = position[-1] if len(self.chips) > 1 else 0
        targets = self._output_cells(position)
        return make_lookup_animation(
            self.chips[chip_index],
            self.chip_homes[chip_index],
            self.grid,
            beat.highlight.row,
            targets,
            self.theme,
        )

    def _dim(self, beat: Beat) -> Animation:
        return make_dim_rows_animation(self.grid, beat.dimmed_rows)

    def _shape(self, beat: Beat) -> Animation:
        assert self.output is not None
        sizes = [c for c in beat.numbers if c.kind == "output_size"]
        label = ShapeLabel(sorted(sizes, key=lambda c: c.index), 26, self.theme.output)
        label.next_to(self.output_title, RIGHT, buff=0.35)
        return AnimationGroup(
            FadeIn(label, scale=1.3),
            Create(SurroundingRectangle(self.output.body, color=self.theme.output, buff=0.06)),
        )

    def _print(self, beat: Beat) -> Animation:
        return LaggedStart(FadeIn(self.code), FadeIn(self.printed), lag_ratio=0.4)

    def _grad_fn(self, beat: Beat) -> Animation:
        piece = self.printed.find_label("grad_fn")
        return Create(SurroundingRectangle(piece, color=self.theme.chip, buff=0.05))


def _output_shape(beat: Beat) -> tuple[int, ...]:
    assert beat.output is not None
    return beat.output.shape


_unused: tuple[object, ...] = (Wait, NumberCell, config)
