"""Subscripts in the burned-in caption stand at least 12 px tall at 720p.

TrainingNudge's captions write wₜ, w₀ + w₂ with Unicode subscripts. DejaVu
Sans draws those glyphs about 11 px tall at 720p, under the 12 px floor for
any text on screen; the caption draws each subscript run larger.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from manim import config

from embedviz.inputs import prepared_storyboard
from embedviz.render.parts.captions import Caption
from embedviz.story.scenes import SCENES

FLOOR_PX = 12.0  # the floor for a glyph at 720p


def _subscripts(tmp_path: Path) -> set[str]:
    """The subscript characters TrainingNudge's captions use, with its examples' options."""
    spec = SCENES["TrainingNudge"]
    found = set()
    for options in [{}, *spec.examples]:
        board = prepared_storyboard("training", options or None, cwd=tmp_path, environ={})
        for beat in board.all_beats():
            for phrase in beat.phrases:
                found |= {
                    c for c in phrase.text if unicodedata.decomposition(c).startswith("<sub>")
                }
    return found


def test_every_subscript_in_the_training_captions_is_drawn_at_least_12_px_tall(
    tmp_path: Path,
) -> None:
    used = _subscripts(tmp_path)
    assert "\u209c" in used  # wₜ: the check looks at the captions the review saw
    px_per_unit = 720 / float(config.frame_height)
    # A caption of the subscript alone: its ink is the subscript's glyph as drawn.
    heights = {char: Caption(char, 100.0).height * px_per_unit for char in sorted(used)}
    assert all(height >= FLOOR_PX for height in heights.values()), heights


@pytest.mark.parametrize("char", ["\u2080", "\u2089", "\u2090", "\u2093", "\u209c"])
def test_a_subscript_letter_or_digit_keeps_the_floor(char: str) -> None:
    # Digits and x-height letters (ₐ, ₓ) alike: the shortest glyphs need the most.
    px_per_unit = 720 / float(config.frame_height)
    assert Caption(char, 100.0).height * px_per_unit >= FLOOR_PX


def test_a_subscript_sits_below_its_base_and_is_smaller() -> None:
    px_per_unit = 720 / float(config.frame_height)
    base = Caption("t", 100.0)
    sub = Caption("w\u209c", 100.0)
    plain = Caption("w", 100.0)
    # Its bottom goes below the baseline ("w" sits on it), and it is shorter than a "t".
    assert sub.get_bottom()[1] < plain.get_bottom()[1] - 1 / px_per_unit
    assert Caption("\u209c", 100.0).height < base.height
    # The caption keeps its text, for the WebVTT cue and the checks that read it.
    assert sub.text == "w\u209c"
