"""The close-up of a layout (embedviz.render.zoom): how it fits content to the room."""

from __future__ import annotations

import numpy as np
import pytest
from manim import Square

from embedviz.render.glyphs import SansText
from embedviz.render.zoom import Stretch, Zoom, close_up, spread_close_up, stretch_fit


def test_a_close_up_fits_the_content_to_the_room_centred() -> None:
    # Content 4 wide and 1 tall in a room 8 by 8: the width binds at 2x.
    found = close_up((0.0, 0.0, 4.0, 1.0), (-4.0, -4.0, 4.0, 4.0), largest=3.0)
    assert found is not None
    factor, fixed = found
    assert factor == pytest.approx(2.0)
    # The content's corners land 8 wide, 2 tall, centred on the room's centre.
    corners = np.array([[0.0, 0.0, 0.0], [4.0, 1.0, 0.0]])
    mapped = fixed + (corners - fixed) * factor
    assert np.allclose(mapped[:, :2], [[-4.0, -1.0], [4.0, 1.0]])


def test_a_close_up_keeps_to_the_type_ceiling_and_skips_small_gains() -> None:
    found = close_up((0.0, 0.0, 1.0, 1.0), (-4.0, -4.0, 4.0, 4.0), largest=1.5)
    assert found is not None
    assert found[0] == pytest.approx(1.5)
    assert close_up((0.0, 0.0, 7.8, 7.8), (-4.0, -4.0, 4.0, 4.0), largest=3.0) is None


def test_the_solved_block_undoes_the_close_up_and_redoes_it() -> None:
    """Inside the block the screen is as solved; what is built there joins the close-up."""
    shown = Square(side_length=2.0)  # on screen, under a close-up of 2x
    title = Square(side_length=1.0).shift([3.0, 3.0, 0.0])
    zoom = Zoom(2.0, np.zeros(3), lambda: [shown, title], lambda: [title])
    built: list[Square] = []
    with zoom.solved(lambda: built):
        assert shown.width == pytest.approx(1.0)
        built.append(Square(side_length=1.0))
    assert shown.width == pytest.approx(2.0)
    assert built[0].width == pytest.approx(2.0)
    # The title keeps its size and place throughout.
    assert title.width == pytest.approx(1.0)
    assert np.allclose(title.get_center(), [3.0, 3.0, 0.0])


def test_a_spread_close_up_fills_the_height_a_wide_layout_leaves() -> None:
    # Content 4 wide and 1 tall in a room 8 by 8: the width binds at 2x, and its
    # pieces may stand up to 3x further apart up and down: 4x fills the room's height.
    found = spread_close_up((0.0, 0.0, 4.0, 1.0), (-4.0, -4.0, 4.0, 4.0), 3.0, 5.0)
    assert found is not None
    factor, spread, fixed = found
    assert (factor, spread) == (pytest.approx(2.0), pytest.approx(4.0))
    corners = np.array([[0.0, 0.0, 0.0], [4.0, 1.0, 0.0]])
    mapped = fixed + (corners - fixed) * [factor, factor * spread, 1.0]
    assert np.allclose(mapped[:, :2], [[-4.0, -4.0], [4.0, 4.0]])
    # Bound by how far apart the pieces may stand.
    found = spread_close_up((0.0, 0.0, 4.0, 1.0), (-4.0, -4.0, 4.0, 4.0), 3.0, 1.5)
    assert found is not None
    assert found[1] == pytest.approx(1.5)


def test_a_tall_close_up_may_squeeze_its_rows_to_grow_across() -> None:
    # Content 2 wide and 4 tall in a room 8 by 8: the height binds at 2x; with rows
    # allowed to stand half as far apart, the width binds at 4x (the ceiling 5x).
    content, room = (0.0, 0.0, 2.0, 4.0), (-4.0, -4.0, 4.0, 4.0)
    plain = spread_close_up(content, room, 5.0, 1.0)
    assert plain is not None
    assert plain[:2] == (pytest.approx(2.0), pytest.approx(1.0))
    found = spread_close_up(content, room, 5.0, 1.0, least_spread=0.5)
    assert found is not None
    factor, spread, fixed = found
    assert (factor, spread) == (pytest.approx(4.0), pytest.approx(0.5))
    corners = np.array([[0.0, 0.0, 0.0], [2.0, 4.0, 0.0]])
    mapped = fixed + (corners - fixed) * [factor, factor * spread, 1.0]
    assert np.allclose(mapped[:, :2], [[-4.0, -4.0], [4.0, 4.0]])


def test_a_close_up_centres_its_focus_as_far_as_the_content_stays_in_the_room() -> None:
    # Content 0..4 by 0..2 in a room 12 by 8 at 2x (the ceiling). Focus on 1..4:
    # centred, the content's left edge would land at -5 (inside -6: kept).
    room = (-6.0, -4.0, 6.0, 4.0)
    found = spread_close_up((0.0, 0.0, 4.0, 2.0), room, 2.0, 1.0, focus=(1.0, 0.0, 4.0, 2.0))
    assert found is not None
    factor, _, fixed = found
    assert factor == pytest.approx(2.0)
    mapped = fixed + (np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [4.0, 2.0, 0.0]]) - fixed) * 2
    assert np.allclose(mapped[:, 0], [-5.0, -3.0, 3.0])
    # Focus on 3..4: centred, the content would spill past the room's left edge;
    # it is moved in until it touches it.
    found = spread_close_up((0.0, 0.0, 4.0, 2.0), room, 2.0, 1.0, focus=(3.0, 0.0, 4.0, 2.0))
    assert found is not None
    _, _, fixed = found
    left = fixed[0] + (0.0 - fixed[0]) * 2
    assert left == pytest.approx(-6.0)


def test_a_spread_keeps_texts_and_chips_in_shape_and_pulls_back_exactly() -> None:
    """Places spread up and down; a text and a chip only grow, a frame stretches."""
    from embedviz.render.design import DARK
    from embedviz.render.glyphs import LabelText
    from embedviz.render.parts.chips import Chip
    from embedviz.story.model import NumberCell

    text = LabelText("0.3374", 20.0, "#ffffff").move_to([1.0, 1.0, 0.0])
    chip = Chip(NumberCell("token_id", (0,), "4821", 4821), 20.0, DARK).move_to([-1.0, -1.0, 0.0])
    frame = Square(side_length=1.0)
    solved = [(m.width, m.height, m.get_center()) for m in (text, chip, frame)]
    zoom = Zoom(2.0, np.zeros(3), lambda: [frame, text, chip], lambda: [], spread=1.5)
    zoom._rescale(np.ones(3), zoom._scales(), zoom._members())
    for mobject, (width, height, centre) in zip((text, chip), solved[:2], strict=True):
        assert (mobject.width, mobject.height) == (
            pytest.approx(2 * width),
            pytest.approx(2 * height),
        )
        assert np.allclose(mobject.get_center(), centre * [2.0, 3.0, 1.0])
    assert (frame.width, frame.height) == (pytest.approx(2.0), pytest.approx(3.0))
    back = zoom.pull_back()
    back.begin()
    for alpha in (0.25, 0.5, 0.75, 1.0):
        back.interpolate(alpha)
        # Mid-way the text is still in shape (its width over height as solved).
        assert text.width / text.height == pytest.approx(solved[0][0] / solved[0][1])
    for mobject, (width, height, centre) in zip((text, chip, frame), solved, strict=True):
        assert (mobject.width, mobject.height) == (pytest.approx(width), pytest.approx(height))
        assert np.allclose(mobject.get_center(), centre)


def test_a_stretch_fills_the_room_in_height_with_texts_at_their_size() -> None:
    # A box from -1 to 1 with a text 0.4 tall above it (centre 1.5) and one under it
    # (centre -1.5); the room runs from -4 to 2. Texts move with their centres.
    units = [(-1.0, 1.0, False), (1.3, 1.7, True), (-1.7, -1.3, True)]
    found = stretch_fit(units, (-4.0, 2.0))
    assert found is not None
    factor, line = found
    # Stretched by k about 0 the extent is [-1.5k - 0.2, 1.5k + 0.2]: 3k + 0.4 = 6.
    assert factor == pytest.approx(5.6 / 3)
    # Centred: y -> line + k (y - line) sends the middle (0) to the room's middle (-1).
    assert line + factor * (0.0 - line) == pytest.approx(-1.0)
    # Already as tall as the room: nothing to gain.
    assert stretch_fit([(-4.0, 2.0, False)], (-4.0, 2.0)) is None


def test_a_stretch_moves_texts_whole_and_stretches_frames() -> None:
    """A frame grows taller about the line; a text keeps its size and moves with its centre."""
    frame = Square(side_length=2.0)
    text = SansText("E", 24, "#ffffff").move_to([0.0, 2.0, 0.0])
    height = text.height
    stretch = Stretch(1.0, np.zeros(3), lambda: [frame, text], lambda: [])
    # From the layout as solved to a stretch of 2 (places up and down only).
    stretch._rescale(np.ones(3), np.array([1.0, 2.0, 1.0]), stretch._members())
    assert frame.height == pytest.approx(4.0)
    assert frame.width == pytest.approx(2.0)
    assert text.height == pytest.approx(height)
    assert text.get_center()[1] == pytest.approx(4.0)
    # Undone, everything is back where it was.
    stretch._rescale(np.array([1.0, 2.0, 1.0]), np.ones(3), stretch._members())
    assert frame.height == pytest.approx(2.0)
    assert text.get_center()[1] == pytest.approx(2.0)


def _terms_boxes(overrides: dict[str, object]) -> list[tuple[float, float, float, float]]:
    """Dry-run OneHotEquivalence; at each sample of its terms beat's first step, while the
    column box is drawn: its right edge and top, and its column's cells' right edge and top.

    (A rectangle is drawn from its top-right corner, so its right edge and top are
    where they will be however little of it is drawn yet.)
    """
    from embedviz.inputs import prepared_storyboard
    from embedviz.render.moments import play_moments

    board = prepared_storyboard("OneHotEquivalence", overrides, environ={})
    found: list[tuple[float, float, float, float]] = []

    def read(scene: object, moment: object) -> None:
        beat, step, alpha = moment.beat, moment.step, moment.alpha  # type: ignore[attr-defined]
        stage = scene.stage  # type: ignore[attr-defined]
        box = stage.product.box
        shown = {id(m) for top in scene.mobjects for m in top.get_family()}  # type: ignore[attr-defined]
        if beat.action != "terms" or step or alpha >= 1 or box is None or id(box) not in shown:
            return
        grid, column = stage.matrix.grid, stage.product.column
        cells = [grid.get_cell(row, column) for row in grid.get_rows()]
        right = max(float(c.get_right()[0]) for c in cells)
        top = max(float(c.get_top()[1]) for c in cells)
        found.append((float(box.get_right()[0]), float(box.get_top()[1]), right, top))

    play_moments(
        board, read, alphas=(0.05, 0.15, 0.25, 0.35, 0.5), pixel_width=192, pixel_height=108
    )
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    "overrides", [{}, {"ids": "4821", "vocab": 50257, "dim": 768}], ids=["default", "gpt2"]
)
def test_the_column_box_stays_on_its_column_as_the_close_up_pulls_back(
    overrides: dict[str, object],
) -> None:
    """OneHot's terms: the box round column 0 never stands off its column while E shrinks.

    Its right edge and top stay within 0.25 (under a row's height) of the
    column's cells' (issue 18: the box came on at its solved place while the
    close-up still drew E larger, up to 1.9 units off).
    """
    samples = _terms_boxes(overrides)
    assert samples, "the column box was never sampled"
    for box_right, box_top, right, top in samples:
        assert box_right == pytest.approx(right, abs=0.25), (box_right, right)
        assert box_top == pytest.approx(top, abs=0.25), (box_top, top)
