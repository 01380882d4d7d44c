"""The narration claims only what the picture shows.

A 720p review of ParameterCount read "GPT-2's embedding table" over a table
whose numbers come from a seed (GPT-2's shape, not its weights), and of
LargeVocabLookup "The other 8 IDs do the same, together." while the copies
travel one at a time (test_lookup_outlines holds that: one strip in flight).
"""

from __future__ import annotations

from embedviz.inputs import prepared_storyboard


def _spoken(scene: str, **overrides: object) -> str:
    board = prepared_storyboard(scene, overrides, environ={})
    return " ".join(beat.narration for beat in board.beats)


def test_a_seeded_table_of_gpt2_shape_is_not_called_gpt2s() -> None:
    board = prepared_storyboard("ParameterCount", {}, environ={})
    # The table is seeded (no weights file): its values are not GPT-2's.
    assert not board.options.weights
    words = _spoken("ParameterCount")
    assert "GPT-2's embedding table" not in words
    assert "GPT-2-sized embedding table" in words


def test_the_rest_lookups_are_told_as_one_after_another() -> None:
    board = prepared_storyboard("LargeVocabLookup", {}, environ={})
    rest = [beat for beat in board.beats if beat.name == "rest"]
    assert rest, [beat.name for beat in board.beats]
    assert "together" not in rest[0].narration
    assert "in turn" in rest[0].narration
