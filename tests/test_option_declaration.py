"""One declaration per option: flags, embedviz.toml, EMBEDVIZ_* and the README agree."""

from __future__ import annotations

import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest

from embedviz.cli import _build_parser, main
from embedviz.config import resolve_options
from embedviz.core.errors import EmbedvizError
from embedviz.story.options import OPTIONS, SceneOptions, options_table

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
START = "<!-- options-table: generated from embedviz.story.options; do not edit by hand -->"
END = "<!-- /options-table -->"


def test_readme_table_is_the_declaration() -> None:
    text = README.read_text(encoding="utf-8")
    assert START in text
    assert END in text
    table = text.split(START, 1)[1].split(END, 1)[0].strip("\n") + "\n"
    assert table == options_table()


def test_the_table_lists_every_option_with_its_flag_key_and_variable() -> None:
    rows = options_table().splitlines()[2:]
    assert len(rows) == len(OPTIONS)
    for spec, row in zip(OPTIONS, rows, strict=True):
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        flag = "--" + spec.name.replace("_", "-")
        assert cells[:3] == [f"`{flag}`", f"`{spec.name}`", f"`EMBEDVIZ_{spec.name.upper()}`"]
        for choice in spec.choices:
            assert f"`{choice}`" in cells[3]


def test_choices_and_defaults_come_from_the_dataclass() -> None:
    hints = typing.get_type_hints(SceneOptions)
    for spec in OPTIONS:
        assert spec.default == SceneOptions.__dataclass_fields__[spec.name].default
        if typing.get_origin(hints[spec.name]) is typing.Literal:
            assert spec.choices == typing.get_args(hints[spec.name])
    assert {spec.name for spec in OPTIONS} == set(SceneOptions.__dataclass_fields__) - {"pieces"}


def _flags(subcommand: str) -> set[str]:
    parser = _build_parser()
    sub = parser._subparsers._group_actions[0].choices[subcommand]  # type: ignore[union-attr]
    return {flag for action in sub._actions for flag in action.option_strings}


@pytest.mark.parametrize("subcommand", ["render", "storyboard", "lookup", "export"])
def test_every_command_takes_every_option(subcommand: str) -> None:
    assert {"--" + spec.name.replace("_", "-") for spec in OPTIONS} <= _flags(subcommand)


# -- issue 8: only ASCII digits ------------------------------------------------------


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--vocab", "\uff15"),  # fullwidth 5
        ("--seed", "\u0663"),  # Arabic-Indic 3
        ("--dim", "1_0"),
        ("--max-tokens", "\u0b69"),  # Oriya 3
        ("--vocab", "+"),
        ("--seed", "1e3"),
    ],
)
def test_non_ascii_digits_on_the_command_line_are_refused(
    flag: str, value: str, capsys: Any
) -> None:
    assert main(["lookup", flag, value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{flag}: " in err
    assert "ASCII digits" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("name", "value"),
    [("VOCAB", "1_000"), ("DIM", "\uff13"), ("SEED", "\u0663"), ("MAX_TOKENS", "\u00b2")],
)
def test_non_ascii_digits_in_the_environment_are_refused(
    tmp_path: Path, name: str, value: str
) -> None:
    with pytest.raises(EmbedvizError, match=f"EMBEDVIZ_{name}: .*ASCII digits"):
        resolve_options(cwd=tmp_path, environ={f"EMBEDVIZ_{name}": value})


def test_non_ascii_digits_in_a_toml_string_are_refused(tmp_path: Path) -> None:
    (tmp_path / "embedviz.toml").write_text('vocab = "\uff15"\n', encoding="utf-8")
    with pytest.raises(EmbedvizError, match="ASCII digits"):
        resolve_options(cwd=tmp_path, environ={})


@pytest.mark.parametrize(
    ("given", "expected"),
    [(["--seed=-1"], -1), (["--seed", "7"], 7), (["--seed", " 42 "], 42), (["--seed=+5"], 5)],
)
def test_ascii_whole_numbers_and_negative_seeds_are_accepted(
    tmp_path: Path, given: list[str], expected: int
) -> None:
    args = _build_parser().parse_args(["lookup", *given])
    assert resolve_options({"seed": args.seed}, cwd=tmp_path, environ={}).seed == expected
    assert resolve_options(cwd=tmp_path, environ={"EMBEDVIZ_SEED": str(expected)}).seed == expected


# -- issue 8: misspelled or capitalised scene tables --------------------------------------


@pytest.mark.parametrize(
    ("table", "hint"),
    [
        ("SequenceLookupp", "did you mean [SequenceLookup]?"),
        ("Sequencelookup", "did you mean [SequenceLookup]?"),
        ("SEQUENCELOOKUP", "did you mean [SequenceLookup]?"),
        ("Options", "see embedviz scenes"),
        ("FooBar", "see embedviz scenes"),
    ],
)
def test_unknown_scene_tables_are_refused(tmp_path: Path, table: str, hint: str) -> None:
    (tmp_path / "embedviz.toml").write_text(f"[{table}]\nvocab = 3\n", encoding="utf-8")
    with pytest.raises(EmbedvizError, match=r"unknown table") as caught:
        resolve_options(scene="SequenceLookup", cwd=tmp_path, environ={})
    assert f"[{table}]" in str(caught.value)
    assert hint in str(caught.value)


def test_a_misspelled_table_fails_the_command_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "embedviz.toml").write_text("[SequenceLookupp]\nids = '1'\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "embedviz", "storyboard", "sequence"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "unknown table [SequenceLookupp]" in result.stderr
    assert result.stdout == ""


def test_every_scene_table_is_accepted(tmp_path: Path) -> None:
    from embedviz.story.scenes import SCENES

    text = "".join(f"[{name}]\ntheme = 'light'\n" for name in SCENES)
    (tmp_path / "embedviz.toml").write_text(text, encoding="utf-8")
    assert resolve_options(scene="BatchLookup", cwd=tmp_path, environ={}).theme == "light"
