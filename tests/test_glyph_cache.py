"""Glyph outlines are measured once per machine and read back exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from embedviz.render.glyph_cache import cache_folder, cached_glyph_font
from embedviz.render.glyphs import GlyphFont
from embedviz.render.theme import MONO_FONT

EXTRA = {"size": 48.0, "chars": "test"}


class CountingFont(GlyphFont):
    """A GlyphFont that counts how often a font is measured."""

    measured = 0

    def __init__(self, font: str) -> None:
        type(self).measured += 1
        super().__init__(font)


def _same(a: GlyphFont, b: GlyphFont) -> None:
    assert vars(a).keys() == vars(b).keys()
    for name in ("font", "zero_advance", "digit_height", "_advances"):
        assert getattr(a, name) == getattr(b, name), name
    for name in ("_outlines", "_offsets"):
        ours, theirs = getattr(a, name), getattr(b, name)
        assert ours.keys() == theirs.keys()
        for char in ours:
            np.testing.assert_array_equal(ours[char], theirs[char])


def test_a_font_is_measured_once_and_read_back_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_folder() == tmp_path / "embedviz"
    CountingFont.measured = 0
    first = cached_glyph_font(MONO_FONT, CountingFont, EXTRA)
    assert CountingFont.measured == 1
    assert len(list(cache_folder().glob("glyphs-*.npz"))) == 1
    again = cached_glyph_font(MONO_FONT, CountingFont, EXTRA)
    assert CountingFont.measured == 1  # read back, not measured
    _same(first, again)
    # The read-back font lays out strings exactly as the measured one.
    for text in ("-1.2753", "tensor([[", "grad_fn=<EmbeddingBackward0>"):
        points, width, count = first.points_for(text)
        again_points, again_width, again_count = again.points_for(text)
        np.testing.assert_array_equal(points, again_points)
        assert (width, count) == (again_width, again_count)
    # Anything else the measurement depends on is part of the key.
    cached_glyph_font(MONO_FONT, CountingFont, {**EXTRA, "size": 24.0})
    assert CountingFont.measured == 2


def test_a_broken_or_unwritable_cache_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    CountingFont.measured = 0
    measured = cached_glyph_font(MONO_FONT, CountingFont, EXTRA)
    (stored,) = cache_folder().glob("glyphs-*.npz")
    stored.write_bytes(b"not a numpy archive")
    again = cached_glyph_font(MONO_FONT, CountingFont, EXTRA)
    assert CountingFont.measured == 2  # measured again, and stored again
    _same(measured, again)
    assert cached_glyph_font(MONO_FONT, CountingFont, EXTRA) is not None
    assert CountingFont.measured == 2
    # A cache folder that cannot be made: the font is measured, nothing fails.
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    _same(cached_glyph_font(MONO_FONT, CountingFont, EXTRA), measured)
    assert CountingFont.measured == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["embedviz", "file"]
