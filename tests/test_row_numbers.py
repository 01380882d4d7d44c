"""E's row numbers read as labels, over the hidden ranges' labels between the rows (issue 18).

A row's number in E is the token ID a student follows from the chip to its
row. A 720p review of MiniLM's 12 tokens read it (14.5 px, muted) and the
``rows 102–1995 hidden`` notes between the rows (12.5 px, muted) as text of
one weight. E's row numbers now take their own brighter colour
(``Theme.index``, at least 1.5 times the notes' contrast) and their own size
(``TypeScale.index``), kept at least :data:`LABEL_OVER_NOTE` times the notes;
the notes stay at least 12.5 px and 4.5:1.

Each case is read at one beat's end only (a stored board, one beat sampled):
the sizes and colours measured here are those drawn, from the glyphs' slots.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from boards import minilm_options, shared_board

from embedviz.render.design import (
    LABEL_OVER_NOTE,
    MIN_DATA_PX,
    MIN_NOTE_PX,
    MIN_TEXT_PX,
    THEMES,
    TypeScale,
    contrast_ratio,
    font_for_px,
    px_for_font,
)

MINILM_SENTENCE = "The cat sat on the mat because the mat was warm today"
GPT2 = {"vocab": 50257, "dim": 768}
# A row's number is brighter than the notes by at least this share of their contrast.
BRIGHTER = 1.5


# (scene, options (None: MiniLM's 12 tokens), the beat read, whether notes are drawn).
CASES: list[tuple[str, dict[str, Any] | None, str, bool]] = [
    ("SequenceLookup", {}, "lookup-0", False),
    ("SequenceLookup", {"theme": "light"}, "lookup-0", False),
    ("SequenceLookup", {"ids": "4821,0,50256", **GPT2}, "lookup-0", True),
    ("SequenceLookup", None, "lookup-0", True),
    ("LargeVocabLookup", {}, "lookup", True),
    ("LargeVocabLookup", {"theme": "light"}, "lookup", True),
    ("BatchLookup", {"ids": "4821,0,50256,17;33000,2,4821,0", **GPT2}, "lookup-0-0", True),
    ("ParameterCount", GPT2, "lookup", True),
    ("PositionBlindness", {"ids": "464,262,3797,262", **GPT2}, "lookup", True),
]


def _read(scene: str, options: dict[str, Any] | None, beat: str) -> dict[str, Any]:
    """At ``beat``'s end: E's row numbers, the hidden ranges' labels and the data, as drawn."""
    key = json.dumps([scene, options, beat], sort_keys=True)
    if key not in _READ:
        _READ[key] = _measure(scene, options, beat)
    return _READ[key]


# Each case's reading, once per test process (the two tests share MiniLM's and LargeVocab's).
_READ: dict[str, dict[str, Any]] = {}


def _measure(scene: str, options: dict[str, Any] | None, beat: str) -> dict[str, Any]:
    from manim import config

    from embedviz.render.gap_text import GapLabel
    from embedviz.render.glyphs import NumberText
    from embedviz.render.moments import play_moments

    board = shared_board(scene, minilm_options() if options is None else options)
    dimmed = {row for b in board.all_beats() if b.name == beat for row in b.dimmed_rows}
    found: dict[str, Any] = {"rows": [], "notes": [], "data": []}

    def px(mobject: Any) -> float:
        low, high = mobject.slot_corners()
        return float(high[1] - low[1]) * 720 / float(config.frame_height)

    def read(scene_object: Any, moment: Any) -> None:
        if moment.alpha < 1 or found["rows"]:
            return
        for top in scene_object.mobjects:
            for m in top.get_family():
                if not isinstance(m, (NumberText, GapLabel)) or not len(m.points):
                    continue
                if float(m.get_fill_opacity()) < 0.5:
                    continue
                colour = m.get_fill_color().to_hex()
                if isinstance(m, NumberText) and m.cell.kind == "row_label":
                    if m.cell.index[0] not in dimmed:
                        found["rows"].append((m.text, px(m), colour))
                elif isinstance(m, NumberText) and m.cell.kind in ("weight", "corner"):
                    found["data"].append(px(m))
                elif isinstance(m, GapLabel):
                    found["notes"].append((m.text, px(m), colour))

    play_moments(board, read, alphas=(), beats={beat})
    return found


@pytest.mark.parametrize(("scene", "options", "beat", "notes"), CASES)
def test_rows_numbers_stand_over_the_notes_between_the_rows(
    scene: str, options: dict[str, Any] | None, beat: str, notes: bool
) -> None:
    found = _read(scene, options, beat)
    rows, gaps, data = found["rows"], found["notes"], found["data"]
    assert rows, f"no row number read at {beat}'s end"
    assert data, f"no table number read at {beat}'s end"
    assert bool(gaps) == notes, gaps
    data_px = min(data)
    # A label's floor: the text floor, and LABEL_OVER_NOTE over the notes' where data allow.
    floor = max(MIN_TEXT_PX, min(data_px, LABEL_OVER_NOTE * MIN_NOTE_PX))
    for text, height, _ in rows:
        assert floor - 0.02 <= height <= data_px + 0.02, (text, height, floor, data_px)
    for text, height, _ in gaps:
        assert height >= MIN_NOTE_PX - 0.02, (text, height)
    if not gaps:
        return
    least_row = min(height for _, height, _ in rows)
    tallest_note = max(height for _, height, _ in gaps)
    assert least_row >= LABEL_OVER_NOTE * tallest_note - 0.05, (least_row, tallest_note)


@pytest.mark.parametrize("theme_name", ["dark", "light"])
@pytest.mark.parametrize(
    ("scene", "options", "beat"),
    [("SequenceLookup", None, "lookup-0"), ("LargeVocabLookup", {}, "lookup")],
)
def test_rows_numbers_are_brighter_than_the_notes(
    scene: str, options: dict[str, Any] | None, beat: str, theme_name: str
) -> None:
    """The notes keep 4.5:1 (text); the row numbers, the IDs, stand clearly brighter."""
    theme = THEMES[theme_name]
    # The dark theme's reading is the size test's (the default theme); the light one's its own.
    if theme_name != "dark":
        options = {**(minilm_options() if options is None else options), "theme": theme_name}
    found = _read(scene, options, beat)
    assert found["rows"]
    assert found["notes"]
    # A row outlined for its ID at the beat's end shows its number in the ID's amber
    # (tests/test_id_row_numbers.py); the rest show the index colour read here.
    indexed = [c for _, _, c in found["rows"] if c.lower() != theme.id_ink.lower()]
    assert indexed
    row = min(contrast_ratio(c, theme.background) for c in indexed)
    note = max(contrast_ratio(c, theme.background) for _, _, c in found["notes"])
    least_note = min(contrast_ratio(c, theme.background) for _, _, c in found["notes"])
    assert least_note >= 4.5, least_note
    assert row >= BRIGHTER * note, (row, note)


@pytest.mark.parametrize("data_px", [MIN_DATA_PX, 18.7, 20.0, 22.7, 24.2, 30.0])
def test_the_type_scale_keeps_row_numbers_over_notes(data_px: float) -> None:
    """E's row numbers are LABEL_OVER_NOTE times a note, at least a label, never over data."""
    scale = TypeScale.from_data(font_for_px(data_px))
    index, note = px_for_font(scale.index), px_for_font(scale.note)
    assert note >= MIN_NOTE_PX
    assert px_for_font(scale.label) - 1e-6 <= index <= data_px + 1e-6
    assert index >= LABEL_OVER_NOTE * note - 1e-6, (index, note)
