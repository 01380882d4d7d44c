"""Notes in sans (a hidden range's label, a gap's note) keep 12.5 px at 720p, wherever they go.

The design rule: nothing on screen under 12 px; the notes, words set small in
sans, keep half a pixel over that so that a stage that narrows its tables
(PositionBlindness at GPT-2 size narrows them by 0.94 in beat ``same``) leaves
them readable. The expected sizes here are the rule's numbers, written out,
and the heights are measured from the points drawn.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

# The rule's numbers (px at 720p on a frame 8 units high: 90 px a unit).
NOTE_PX = 12.5
TEXT_PX = 12.0
PX_PER_UNIT = 720 / 8
POSITION_GPT2 = {"ids": "464,262,3797,262", "vocab": 50257, "dim": 768}


@pytest.mark.parametrize("data_px", [18.0, 18.9, 20.0, 24.0, 30.0])
def test_the_type_scale_sets_notes_over_their_floor(data_px: float) -> None:
    """A note is the legend's size, raised to 12.5 px where the legend is smaller."""
    from embedviz.render.design import TypeScale, font_for_px
    from embedviz.render.glyphs import SANS_FONT, GlyphString, glyph_font

    scale = TypeScale.from_data(font_for_px(data_px))
    note = GlyphString("0", scale.note, "#FFFFFF")
    low, high = note.slot_corners()
    assert float(high[1] - low[1]) * PX_PER_UNIT >= NOTE_PX
    # A sans digit is as tall as a monospace one at the same font size.
    sans, mono = glyph_font(SANS_FONT).digit_height, glyph_font().digit_height
    assert sans == pytest.approx(mono)
    legend_px = data_px * 0.66
    if legend_px >= NOTE_PX:
        assert scale.note == scale.legend
    assert scale.legend <= scale.note <= scale.label


def _slot_px(points: np.ndarray) -> float:
    """A one-line GapLabel's slot height from its points (the slot's 8 points come last)."""
    slot = points[-8:]
    return float(slot[:, 1].max() - slot[:, 1].min()) * PX_PER_UNIT


@pytest.mark.parametrize("scale", [0.94, 0.8, 0.5])
def test_a_narrowed_note_keeps_its_floor_and_a_number_keeps_the_text_floor(scale: float) -> None:
    from embedviz.render.design import TypeScale, font_for_px
    from embedviz.render.gap_text import GapLabel
    from embedviz.render.glyphs import LabelText
    from embedviz.render.parts.narrowing import narrowed

    sizes = TypeScale.from_data(font_for_px(18.0))
    note = GapLabel("rows 3798–50255 hidden", sizes.note, "#FFFFFF")
    number = LabelText("3797", sizes.legend, "#FFFFFF")
    floor = TEXT_PX / PX_PER_UNIT
    targets = {id(m): p for m, p in narrowed([note, number], scale, -5.0, floor=floor)}
    assert _slot_px(note.points) >= NOTE_PX  # as built
    assert _slot_px(targets[id(note)]) >= NOTE_PX
    low, high = number.slot_corners()
    before = float(high[1] - low[1]) * PX_PER_UNIT
    after = float(np.ptp(targets[id(number)][-8:, 1])) * PX_PER_UNIT
    assert after == pytest.approx(max(TEXT_PX, before * scale), abs=0.02)
    # Without a floor the note shrinks with the tables, as everything else.
    (free,) = [p for m, p in narrowed([note], scale, -5.0) if m is note]
    assert _slot_px(free) == pytest.approx(_slot_px(note.points) * scale, abs=0.02)


def test_position_blindness_at_gpt2_size_keeps_its_notes_at_12_5_px(moment_cache: Any) -> None:
    """Beat ``same`` narrows the tables by 0.94: the hidden ranges' labels stay 12.5 px."""
    samples = moment_cache("PositionBlindness", POSITION_GPT2)
    sizes = [
        (t.digit_px, t.text, s.beat.name)
        for s in samples
        for t in s.texts
        if "hidden" in t.text and t.opacity >= 0.5
    ]
    # The read was not empty: the rows' and the columns' labels, in beat 'same' too.
    assert any(text.startswith("rows ") for _, text, _ in sizes)
    assert any(text.startswith("columns ") for _, text, _ in sizes)
    assert any(beat == "same" for _, _, beat in sizes)
    least = min(sizes)
    assert least[0] >= NOTE_PX - 0.005, least
