"""One voice for maths (issue 18): symbols typeset, words in sans, monospace for code.

A 720p frame review of BatchLookup, SequenceLookup and PositionBlindness found:

- ``batch B = 2`` and ``sequence length T = 4`` set B and T upright in sans
  beside braces whose B, T and d are typeset (MathTypst) italics, and the
  d edge's ``d = 3`` an italic d beside a monospace 3;
- the prompts ``output shape?`` (the batch's panel) and ``output shape?  rows ×
  values`` (the sequence's block) in monospace, though they are not code;
- PositionBlindness's ``added unrounded, shown to 4 decimals`` in monospace.

These tests read the stage's own mobjects (and, for the symbols, every text
of a dry run of the batch), and the batch solver's measure of the B label.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import RecordingHost

from embedviz.inputs import prepared_storyboard
from embedviz.render.theme import DARK, LIGHT

GPT2 = {"vocab": 50257, "dim": 768, "ids": "4821,0,50256,17;33000,2,4821,0"}
# The batch's axis symbols: a text that is not typeset must not show one as a word.
SYMBOLS = re.compile(r"(?<![\w\[])[BTd](?![\w\]])")


def _batch_stage(options: dict[str, Any], theme: Any = DARK) -> Any:
    from embedviz.render.stages.batch import BatchStage

    board = prepared_storyboard("BatchLookup", options, environ={})
    return BatchStage(RecordingHost(), board, theme)


def _hex(mobject: Any) -> str:
    return str(mobject.get_fill_color().to_hex()).lower()


@pytest.mark.parametrize("options", [{}, GPT2], ids=["default", "gpt2"])
@pytest.mark.parametrize("theme", [DARK, LIGHT], ids=["dark", "light"])
def test_the_batch_axes_sizes_are_typeset_as_their_braces_symbols(
    options: dict[str, Any], theme: Any
) -> None:
    """``B = 2``, ``T = 4`` and ``d = 3`` are each one typeset formula: the symbol and
    ``=`` in the braces' muted colour, the size a checked cell in the text colour."""
    from embedviz.render.formula import FormulaText
    from embedviz.render.glyphs import SansText
    from embedviz.render.parts.symbols import TypesetNumber

    stage = _batch_stage(options, theme)
    chips, stack = stage.chips, stage.stack
    drawn = [(chips.batch_label, "B =", 0), (chips.length_label, "T =", 1)]
    for group, symbol, axis in [*drawn, (stack.edge_d, "d =", 2)]:
        family = group.get_family()
        formulas = [m for m in family if isinstance(m, FormulaText)]
        numbers = [m for m in family if isinstance(m, TypesetNumber)]
        assert [f.text for f in formulas] == [symbol]
        assert [(n.cell.kind, n.cell.index) for n in numbers] == [("batch_dim", (axis,))]
        assert numbers[0].text == str(stage.board.beats[-1].output.shape[axis])
        assert _hex(formulas[0]) == theme.muted.lower()
        assert _hex(numbers[0]) == theme.text.lower()
        # The words before the symbol stay sans, and name no symbol themselves.
        for words in (m for m in family if isinstance(m, SansText)):
            assert not SYMBOLS.search(words.original_text), words.original_text
    # The braces' own symbols are in the same voice and colour.
    for edge, symbol in ((stack.edge_t, "T"), (stack.edge_b, "B")):
        typeset = [m for m in edge.get_family() if isinstance(m, FormulaText)]
        assert [(f.text, _hex(f)) for f in typeset] == [(symbol, theme.muted.lower())]


@pytest.mark.parametrize("options", [{}, GPT2], ids=["default", "gpt2"])
def test_the_solver_measures_the_batch_label_as_drawn(options: dict[str, Any]) -> None:
    """The solver keeps room left of the chips for ``batch B = 2``: its measure is the
    drawn label's width (sans words, a space, the typeset ``B = 2``), never less."""
    from embedviz.render.batch_plan import batch_spec
    from embedviz.render.parts.batch_axes import axis_label_width

    stage = _batch_stage(options)
    spec = batch_spec(stage.board)
    text = stage.chips.batch_label[1]
    measured = axis_label_width(*spec.axis_texts[0], stage.plan.scale.label)
    # Measured where the solver places it: home (the default's opening draws it larger
    # until the reveal, batch_opening).
    with stage.block_rest.building({}):
        width = float(text.width)
    assert width <= measured + 1e-9
    # Close: the words' ink is narrower than their advance by the side bearings only
    # (``batch``: 0.79 against 0.85 units, 3 % of the whole at the default size).
    assert measured - width < 0.05 * measured


def _words_on_screen(options: dict[str, Any]) -> set[tuple[str, str]]:
    """Dry-run the batch; return (beat, text) for every shown text that is not typeset maths,
    a checked number or a caption, at each beat's middle and end, as written (with spaces)."""
    from embedviz.render.glyphs import GlyphString, NumberText, SansText
    from embedviz.render.moments import play_moments
    from embedviz.render.parts.captions import Caption

    board = prepared_storyboard("BatchLookup", options, environ={})
    found: set[tuple[str, str]] = set()

    def read(scene: Any, moment: Any) -> None:
        families = [m.get_family() for m in scene.mobjects]
        captions = {
            id(m) for f in families for c in f if isinstance(c, Caption) for m in c.get_family()
        }
        for mobject in (m for f in families for m in f if id(m) not in captions):
            texts = isinstance(mobject, (SansText, GlyphString))
            if not texts or isinstance(mobject, NumberText) or mobject.get_fill_opacity() < 0.5:
                continue
            text = mobject.original_text if isinstance(mobject, SansText) else mobject.text
            found.add((moment.beat.name, text))

    play_moments(board, read, alphas=(0.5,), pixel_width=192, pixel_height=108)
    return found


@pytest.mark.parametrize("options", [{}, GPT2], ids=["default", "gpt2"])
def test_no_text_but_typeset_maths_names_a_batch_symbol(options: dict[str, Any]) -> None:
    """At every beat's middle and end, B, T and d appear on screen only typeset (captions,
    the narration's words, are another voice and may say them)."""
    shown = _words_on_screen(options)
    assert not {(beat, text) for beat, text in shown if SYMBOLS.search(text)}
    # The read was not empty: the axes' words are on screen, in sans.
    assert {"batch", "sequence length"} <= {text for _, text in shown}


def test_the_batch_question_is_sans() -> None:
    from embedviz.render.glyphs import SansText

    stage = _batch_stage({})
    assert stage.stack.question is not None
    (question,) = stage.stack.question
    assert isinstance(question, SansText)
    assert question.original_text == "output shape?"


_HIDDEN_CASES = [
    ("LargeVocabLookup", {}),
    ("BatchLookup", GPT2),
    ("SequenceLookup", {"vocab": 50257, "dim": 768}),
    ("ParameterCount", {}),
    ("PositionBlindness", {"positions": "learned", "vocab": 50257, "dim": 768}),
]


def _notes_seen(scene: str, options: dict[str, Any], words: re.Pattern[str]) -> dict[str, set[str]]:
    """Play a scene dry; return the texts matching ``words`` drawn in sans and in monospace.

    Read at every beat's middle and end; captions (the narration) left out.
    """
    from embedviz.render.glyphs import GlyphString, SansText
    from embedviz.render.moments import play_moments
    from embedviz.render.parts.captions import Caption

    board = prepared_storyboard(scene, options, environ={})
    seen: dict[str, set[str]] = {"sans": set(), "mono": set()}

    def read(scene_: Any, moment: Any) -> None:
        families = [m.get_family() for m in scene_.mobjects]
        captions = {
            id(m) for f in families for c in f if isinstance(c, Caption) for m in c.get_family()
        }
        for mobject in (m for f in families for m in f if id(m) not in captions):
            if isinstance(mobject, GlyphString) and words.search(mobject.text):
                seen["mono"].add(mobject.text)
            elif isinstance(mobject, SansText) and words.search(mobject.original_text):
                seen["sans"].add(mobject.original_text)

    play_moments(board, read, alphas=(0.5,), pixel_width=192, pixel_height=108)
    return seen


@pytest.mark.parametrize(("scene", "options"), _HIDDEN_CASES, ids=[s for s, _ in _HIDDEN_CASES])
def test_hidden_range_labels_are_sans(scene: str, options: dict[str, Any]) -> None:
    """A large table's hidden-range labels (``rows 6–50255 hidden``) are words, not code:
    at every beat's middle and end each one on screen is sans, never monospace."""
    seen = _notes_seen(scene, options, re.compile("hidden"))
    assert not seen["mono"]
    # The read was not empty: the rows' and the columns' labels were on screen.
    assert any(t.startswith("rows ") or t.startswith("row ") for t in seen["sans"])
    assert any(t.startswith("columns ") for t in seen["sans"])


def test_the_learned_positions_hidden_rows_label_is_sans() -> None:
    """P's own ``rows 4–15 hidden`` (a learned table of 16 rows, four drawn) is sans too."""
    seen = _notes_seen("PositionBlindness", {"positions": "learned"}, re.compile("hidden"))
    assert not seen["mono"]
    assert "rows 4\u201315 hidden" in seen["sans"]


def test_one_hots_gap_notes_are_sans() -> None:
    """OneHotEquivalence at GPT-2 size: the vector's ``entries 4822–50255 are 0`` and the
    product's ``+ terms 4822–50255: all 0`` are words, set in sans, never monospace."""
    options = {"ids": "4821", "vocab": 50257, "dim": 768}
    seen = _notes_seen("OneHotEquivalence", options, re.compile(r"\bare 0$|: (all )?0$"))
    assert not seen["mono"]
    assert any(t.startswith("entries ") and t.endswith(" are 0") for t in seen["sans"])
    assert any(t.startswith("+ terms ") and t.endswith(": all 0") for t in seen["sans"])


_MARK_CASES = [
    ("LargeVocabLookup", {}),
    ("BatchLookup", {}),
    ("BatchLookup", GPT2),
    ("SequenceLookup", {"ids": "2,3,2,1"}),
]


@pytest.mark.parametrize(
    ("scene", "options"), _MARK_CASES, ids=["large", "batch", "batch-gpt2", "sequence-repeat"]
)
def test_equality_marks_are_typeset_maths(scene: str, options: dict[str, Any]) -> None:
    """A repeat's mark (``out[8] = out[0]``, ``out[1,3] = out[0,0]``) is maths, as the rule
    card ``out[t] = E[ids[t]]`` beside it is: typeset (MathTypst), one glyph per character
    of its checked text, and level with the row it names by its digits. A 720p review saw
    it set in the tables' monospace while every other symbol on screen was typeset."""
    from embedviz.render.glyphs import GlyphString
    from embedviz.render.metrics import digit_height
    from embedviz.render.moments import play_moments
    from embedviz.render.parts.symbols import TypesetNumber

    board = prepared_storyboard(scene, options, environ={})
    expected = {c.text for b in board.beats for c in b.numbers if c.kind == "equal_to"}
    assert expected, "the case has no repeat: the check would pass vacuously"
    seen: dict[str, list[Any]] = {}

    def read(scene_: Any, moment: Any) -> None:
        for mobject in (m for top in scene_.mobjects for m in top.get_family()):
            cell = getattr(mobject, "cell", None) if isinstance(mobject, GlyphString) else None
            if cell is not None and cell.kind == "equal_to" and mobject.get_fill_opacity() > 0.5:
                seen.setdefault(mobject.text, []).append(mobject)

    play_moments(board, read, alphas=(), pixel_width=192, pixel_height=108)
    assert set(seen) == expected
    for text, marks in seen.items():
        for mark in marks:
            assert isinstance(mark, TypesetNumber), f"{text!r} is set in monospace"
            assert mark.glyph_count == len(text.replace(" ", ""))
            # Its slot is its digits' height at its size (as drawn: a stage may have grown
            # since), not its brackets': it sits on a row's centre line as the digits do.
            low, high = mark.slot_corners()
            grown = float(high[0] - low[0]) / mark.slot_width
            digits = digit_height(mark.font_size) * grown
            assert high[1] - low[1] == pytest.approx(digits, rel=0.08), text
