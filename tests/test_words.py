"""Words: every word a viewer reads comes from the storyboard, so an author can translate it all.

UI words (headings, column headers), per-beat labels (gap labels, the
question, axis names), chapter names and the course page's headings are all
words of the storyboard; a translated storyboard leaves no English on the
screen (here) or on the page (``test_names.py``).
"""

from __future__ import annotations

import ast
import json
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from conftest import SilentHost, play_dry
from translation import english_left, translated

from embedviz.inputs import prepared_storyboard
from embedviz.story.contract import (
    EDITABLE_FIELDS,
    json_schema,
    load_storyboard,
    storyboard_from_data,
    verify_storyboard,
)
from embedviz.story.model import LAYOUTS, Storyboard, StoryboardError
from embedviz.story.scenes import SCENES
from embedviz.story.words import MAX_PAGE_WORD_CHARS, MAX_WORD_CHARS, placeholders

RENDER = Path(__file__).resolve().parents[1] / "embedviz" / "render"
# Text drawn by the render code that has letters but is notation, not words.
NOTATION = {"E", "V \u00d7 d =", "d = ", "E[", "+ P[", "= E[", "one_hot @ E"}
# Labels that are code or maths (a PyTorch call and print, Typst formulas), not words.
_CODE_ROLES = re.compile(r"code|printed_.*|.*formula.*|sum_title|product_title|one_hot_title")


def _code_texts(board: Storyboard) -> set[str]:
    """Texts that are code, maths or data: never translated (numbers, pieces, code labels)."""
    texts = set(board.options.pieces or ())
    for part in board.parts:
        texts |= _code_texts(part)
    for beat in board.beats:
        texts.update(cell.text for cell in beat.numbers)
        texts.update(text for role, text in beat.labels.items() if _CODE_ROLES.fullmatch(role))
    return texts


def _screen_words(role: str, text: str) -> bool:
    """Whether a word is drawn as it is: on screen, without placeholders to fill."""
    return not role.startswith(("page_", "chapter_")) and not placeholders(text)


def _draw_nothing(*args: Any, **kwargs: Any) -> None:
    """Stand in for the renderer's drawing, in a dry run whose frames nobody reads."""


def _screen_texts(scene: str, board: Storyboard) -> list[str]:
    """Dry-run a scene; return every text on screen before and after each animation."""
    from embedviz.render.base import StoryboardScene
    from embedviz.render.glyphs import GlyphString, SansText

    seen: list[str] = []

    class Watched(StoryboardScene):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # Only the mobjects are read, never a frame: draw none (as MomentScene does in
            # a dry run), which was a sixth of this dry run.
            renderer: Any = self.renderer
            renderer.save_static_frame_data = _draw_nothing
            renderer.update_frame = _draw_nothing

        def look(self) -> None:
            for mobject in self.get_mobject_family_members():
                if isinstance(mobject, SansText):
                    seen.append(mobject.original_text)
                elif isinstance(mobject, GlyphString):
                    seen.append(mobject.text)

        def play(self, *args: Any, **kwargs: Any) -> None:
            self.look()
            super().play(*args, **kwargs)
            self.look()

    play_dry(lambda: Watched(storyboard=board, captions=False), 5, "embedviz-words-")
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("scene", list(SCENES))
def test_translated_words_are_what_the_screen_shows(scene: str, tmp_path: Path) -> None:
    board = translated(prepared_storyboard(scene, cwd=tmp_path, environ={}))
    assert verify_storyboard(board) == []
    texts = _screen_texts(scene, board)
    code = _code_texts(board)
    leftovers = sorted({text for text in texts if text not in code and english_left(text)})
    assert not leftovers, f"{scene} draws English words the storyboard does not give: {leftovers}"
    shown = " ".join(texts)
    # Every declared word is drawn (in every part); some only with other options (see below).
    for part in board.parts or (board,):
        missing = {
            role
            for role, text in part.words.items()
            if _screen_words(role, text) and text not in shown
        }
        assert missing <= set(CONDITIONAL) | NOT_DRAWN.get(part.scene, set()), (
            f"{part.scene} does not draw {missing}"
        )


# Words that only some options draw: the scene, and the options that do.
CONDITIONAL = {
    "no_such_row": ("ZeroBasedIndexing", {"ids": "0"}),
    "learned_table": ("PositionBlindness", {"positions": "learned"}),
    "copy_unit_one": ("OneHotEquivalence", {"dim": 1}),
}
# Words of a layout that one of its scenes never draws.
NOT_DRAWN = {"SingleTokenLookup": {"question"}}


@pytest.mark.slow
@pytest.mark.parametrize("role", sorted(CONDITIONAL))
def test_words_some_options_draw_come_from_the_storyboard(role: str, tmp_path: Path) -> None:
    scene, options = CONDITIONAL[role]
    board = translated(prepared_storyboard(scene, options, cwd=tmp_path, environ={}))
    texts = _screen_texts(scene, board)
    assert board.word(role) in texts
    code = _code_texts(board)
    assert not [text for text in texts if text not in code and english_left(text)]


def _text_calls(tree: ast.AST) -> list[tuple[int, str]]:
    """String literals that reach a text mobject: direct, in f-strings, in conditionals."""

    def literals(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.JoinedStr):
            return [v.value for v in node.values if isinstance(v, ast.Constant)]
        if isinstance(node, ast.IfExp):
            return literals(node.body) + literals(node.orelse)
        if isinstance(node, ast.BinOp):
            return literals(node.left) + literals(node.right)
        if isinstance(node, ast.List | ast.Tuple):
            return [text for item in node.elts for text in literals(item)]
        return []

    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        if name in ("SansText", "LabelText", "WordText", "mono_line") and node.args:
            found.extend((node.lineno, text) for text in literals(node.args[0]))
    return found


def test_render_code_draws_no_word_literals() -> None:
    offenders = []
    for path in sorted(RENDER.rglob("*.py")):
        for line, text in _text_calls(ast.parse(path.read_text(encoding="utf-8"))):
            if re.search(r"[^\W\d_]{2,}", text) and text.strip() not in {
                n.strip() for n in NOTATION
            }:
                offenders.append(f"{path.relative_to(RENDER)}:{line}: {text!r}")
    assert not offenders, "words belong in the storyboard (story/words.py):\n" + "\n".join(
        offenders
    )


def test_the_scan_finds_a_word_literal() -> None:
    tree = ast.parse('a = SansText("token IDs", 20, c)\nb = mono_line([f"x{y} row index "], 1, c)')
    assert [text for _, text in _text_calls(tree)] == ["token IDs", "x", " row index "]


# -- the field -----------------------------------------------------------------


@pytest.mark.parametrize("scene", list(SCENES))
def test_every_layout_word_is_derived_in_english(scene: str, tmp_path: Path) -> None:
    board = prepared_storyboard(scene, cwd=tmp_path, environ={})
    for part in board.parts or (board,):
        assert part.words == dict(LAYOUTS[part.layout].words)


def test_words_are_editable() -> None:
    assert "words" in EDITABLE_FIELDS


def _data(tmp_path: Path, scene: str = "SingleTokenLookup") -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        prepared_storyboard(scene, cwd=tmp_path, environ={}).to_json()
    )
    return data


def test_translated_words_survive_a_round_trip_and_verify(tmp_path: Path) -> None:
    data = _data(tmp_path)
    data["language"] = "de"
    data["words"] = {**data["words"], "token_ids": "Token-IDs", "output": "Ausgabe"}
    file = tmp_path / "board.json"
    file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    board = load_storyboard(file)
    assert board.word("token_ids") == "Token-IDs"
    assert board.word("embedding_matrix") == "embedding matrix E"
    assert storyboard_from_data(json.loads(board.to_json())) == board
    assert verify_storyboard(board) == []


def test_a_file_without_words_reads_with_english_ones(tmp_path: Path) -> None:
    data = _data(tmp_path, "ParameterCount")
    del data["words"]
    board = storyboard_from_data(data)
    assert board.words == dict(LAYOUTS["parameter_count"].words)
    assert board == prepared_storyboard("ParameterCount", cwd=tmp_path, environ={})


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (
            {"tokn_ids": "x"},
            "word 'tokn_ids': not a word role of lookup (did you mean 'token_ids'?)",
        ),
        ({"parameters": "x"}, "word 'parameters': not a word role of lookup"),
        ({"output": ""}, "word 'output' must be non-empty text"),
        ({"output": "   "}, "word 'output' must be non-empty text"),
        ({"output": "two\nlines"}, "word 'output' must be one line"),
        ({"output": "x" * (MAX_WORD_CHARS + 1)}, f"at most {MAX_WORD_CHARS}"),
        ({"page_narration": "x" * (MAX_PAGE_WORD_CHARS + 1)}, f"at most {MAX_PAGE_WORD_CHARS}"),
        ({"output": 3}, "expected a string"),
        # Templates keep exactly the English placeholders.
        (
            {"gap_rows": "Zeilen {frist}–{last} verborgen"},
            "word 'gap_rows' uses the unknown placeholder {frist} (it may use {first}, {last})",
        ),
        (
            {"gap_rows": "Zeilen ab {first} verborgen"},
            "word 'gap_rows' leaves out the placeholder {last} (it must use {first}, {last})",
        ),
        ({"question": "Form? {rows}"}, "word 'question' uses the unknown placeholder {rows}"),
        ({"gap_row": "Zeile {first!r}"}, "word 'gap_row' has a bad placeholder"),
        ({"gap_row": "Zeile {first.real}"}, "word 'gap_row' has a bad placeholder"),
        ({"gap_row": "Zeile {first"}, "word 'gap_row' has a bad placeholder"),
        ({"gap_row": "Zeile } {first}"}, "word 'gap_row' has a bad placeholder"),
    ],
)
def test_a_bad_word_fails_in_one_line(tmp_path: Path, words: dict[str, Any], message: str) -> None:
    data = _data(tmp_path)
    data["words"] = {**data["words"], **words}
    with pytest.raises(StoryboardError, match=re.escape(message)) as caught:
        storyboard_from_data(data)
    assert "\n" not in str(caught.value)


def test_a_template_may_use_braces_and_its_placeholders_in_any_order(tmp_path: Path) -> None:
    data = _data(tmp_path, "SequenceLookup")
    data["words"]["gap_rows"] = "{{{last}..{first}}} verborgen"
    board = storyboard_from_data(data)
    assert board.word("gap_rows") == "{{{last}..{first}}} verborgen"


def test_a_missing_word_is_an_error(tmp_path: Path) -> None:
    data = _data(tmp_path)
    del data["words"]["value_colour"]
    with pytest.raises(StoryboardError, match="word 'value_colour' is missing; the lookup"):
        storyboard_from_data(data)


def test_the_schema_knows_each_layouts_words(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json_schema()
    good = _data(tmp_path)
    good["words"]["output"] = "Ausgabe"
    jsonschema.validate(good, schema)
    for bad in ({"tokn_ids": "x"}, {"output": ""}, {"output": "a\nb"}, {"output": "x" * 49}):
        data = _data(tmp_path)
        data["words"] = {**data["words"], **bad}
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(data, schema)


# -- fitting a longer translation -------------------------------------------------


def test_a_word_wider_than_its_room_shrinks_and_one_that_fits_does_not() -> None:
    from embedviz.render.glyphs import SansText, WordText

    english = WordText("returned vector", 20, "#ffffff", width=3.0)
    assert english.font_size == 20
    assert english.width == pytest.approx(SansText("returned vector", 20, "#ffffff").width)
    german = WordText("zurückgegebener Ergebnisvektor", 20, "#ffffff", width=3.0)
    assert german.font_size < 20
    assert german.width <= 3.0


def test_a_translated_header_row_widens_its_columns_and_no_header_touches_the_next() -> None:
    from manim import tempconfig

    from embedviz.render.design import DARK
    from embedviz.render.stages.parameter_count import ParameterCountStage

    def headers(words: dict[str, str]) -> tuple[Any, list[Any]]:
        board = prepared_storyboard("ParameterCount", environ={})
        data = json.loads(board.to_json())
        data["words"].update(words)
        stage = ParameterCountStage(SilentHost(), storyboard_from_data(data), DARK)
        return stage.plan, [list(stage.memory.header), list(stage.widths.header)]

    with tempconfig({"pixel_width": 1280, "pixel_height": 720}):
        english, _ = headers({})
        german = {
            "dtype": "Datentyp",
            "bytes_each": "Bytes pro Wert",
            "total_bytes": "Bytes insgesamt",
            "memory": "Arbeitsspeicher",
        }
        plan, rows = headers(german)
    # The longer words take wider columns (the frame's fonts shrink if they must) ...
    assert plan.scale.data <= english.scale.data
    assert plan.column_right[1] - plan.panel_left > english.column_right[1] - english.panel_left
    for row in rows:
        # ... and no header touches the next, nor leaves the frame.
        for left, right in pairwise(sorted(row, key=lambda m: m.get_x())):
            assert left.get_right()[0] < right.get_left()[0]
        assert row[-1].get_right()[0] <= plan.bands.right + 1e-6


@pytest.mark.slow
@pytest.mark.parametrize(
    ("scene", "options"),
    [(name, {}) for name in SCENES if name != "FullExplainer"] + list(CONDITIONAL.values()),
)
def test_longer_translated_words_overprint_nothing(
    scene: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every moment stays legible (test_moments' rules) with words wider than the English."""
    import conftest
    from test_moments import check_moment

    english = conftest.prepared_storyboard
    monkeypatch.setattr(
        conftest, "prepared_storyboard", lambda *args, **kw: translated(english(*args, **kw))
    )
    samples = conftest.sample_moments(scene, options)
    read = {"".join(text.text.split()) for sample in samples for text in sample.texts}
    words = translated(english(scene, options, environ={})).words.values()
    assert any("".join(word.split()) in read for word in words), "no translated word was read"
    problems = [line for sample in samples for line in check_moment(sample)]
    assert not problems, "\n".join(problems[:20])


# -- an author translates the words; the labels follow ---------------------------------


def test_translated_words_fill_the_labels_once_the_file_is_printed_again(
    tmp_path: Path, capsys: Any
) -> None:
    from embedviz.cli import main

    board = prepared_storyboard("SequenceLookup", {"vocab": 50, "ids": "2,30,5"}, environ={})
    data = json.loads(board.to_json())
    data["language"] = "de"
    data["words"].update(
        question="Form?  Zeilen \u00d7 Werte", gap_rows="Zeilen {first}\u2013{last}"
    )
    data["beats"][1]["narration"] = "Wie viele Zeilen hat die Ausgabe?"
    edited = tmp_path / "lesson.json"
    edited.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    # As edited, the labels still read as the English words filled them: verify says so.
    problems = verify_storyboard(load_storyboard(edited))
    assert any(
        "beat 'predict', label 'question': the file says 'output shape?" in p for p in problems
    )
    assert main(["storyboard", "--from", str(edited)]) == 0
    again = storyboard_from_data(json.loads(capsys.readouterr().out))
    assert verify_storyboard(again) == []
    predict = next(beat for beat in again.beats if beat.name == "predict")
    assert predict.label("question") == "Form?  Zeilen \u00d7 Werte"
    assert predict.narration == "Wie viele Zeilen hat die Ausgabe?"
    gap = next(beat for beat in board.beats if beat.name == "predict").window.row_gaps[0]
    assert predict.window.row_gaps[0].label == f"Zeilen {gap.first}\u2013{gap.last}"
    assert (again.language, again.words) == ("de", data["words"])
    # Numbers are the core's, whatever the file said.
    data["beats"][0]["numbers"][0]["text"] = "9.9999"
    edited.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["storyboard", "--from", str(edited)]) == 0
    assert storyboard_from_data(json.loads(capsys.readouterr().out)) == again
