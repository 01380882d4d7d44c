"""The close-up of a layout (embedviz.render.zoom): how it fits content to the room."""

from __future__ import annotations

import numpy as np
import pytest
from manim import Square

from embedviz.render.zoom import Zoom, close_up


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
