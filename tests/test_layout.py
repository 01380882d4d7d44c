"""The layout kit: the one font fitter and the frame regions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from embedviz.render.layout import MIN_FIT_FONT, fit_font, frame_regions


@given(
    limit=st.floats(min_value=1.0, max_value=60.0),
    largest=st.floats(min_value=8.0, max_value=40.0),
)
def test_fit_font_finds_the_largest_size_that_fits(limit: float, largest: float) -> None:
    size = fit_font(lambda font: font <= limit, largest=largest)
    if limit >= largest:
        assert size == largest
    elif limit < MIN_FIT_FONT:
        assert size == MIN_FIT_FONT  # nothing fits: the smallest, overflowing least
    else:
        assert size <= limit
        assert limit - size <= 0.05


def test_fit_font_asks_about_sizes_it_returns() -> None:
    asked: list[float] = []

    def fits(font: float) -> bool:
        asked.append(font)
        return font * 0.3 <= 4.0

    size = fit_font(fits, largest=30.0)
    assert size in asked
    assert size * 0.3 <= 4.0 < (size + 0.05) * 0.3


def test_frame_regions_follow_manims_config() -> None:
    from manim import tempconfig

    with tempconfig({"frame_height": 8.0, "frame_width": 8.0 * 16 / 9}):
        wide = frame_regions()
    with tempconfig({"frame_height": 8.0, "frame_width": 8.0}):
        square = frame_regions()
    assert square.right < wide.right
    assert square.top == pytest.approx(wide.top)
    assert wide.right == pytest.approx(8.0 * 16 / 9 / 2 - 0.2)
