"""Scene options: defaults < embedviz.toml < [Scene] table < EMBEDVIZ_* < explicit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embedviz.config import resolve_options
from embedviz.core.errors import EmbedvizError
from embedviz.inputs import prepared_storyboard
from embedviz.story.options import SceneOptions


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working directory, also the process's, for relative paths."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _toml(folder: Path, text: str) -> Path:
    path = folder / "embedviz.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _resolve(folder: Path, overrides: dict[str, Any] | None = None, **kwargs: Any) -> SceneOptions:
    kwargs.setdefault("environ", {})
    return resolve_options(overrides, cwd=folder, **kwargs)


def _error(folder: Path, overrides: dict[str, Any] | None = None, **kwargs: Any) -> str:
    with pytest.raises(EmbedvizError) as info:
        _resolve(folder, overrides, **kwargs)
    message = str(info.value)
    assert message
    assert "\n" not in message, repr(message)
    return message


def _npy(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, np.ones((4, 2), dtype=np.float32))
    return path


# ------------------------------------------------------------------------- defaults


def test_defaults_without_file_or_environment(home: Path) -> None:
    options = _resolve(home)
    assert options == SceneOptions(
        ids=None,
        vocab=None,
        dim=None,
        seed=123,
        init="torch",
        weights=None,
        tensor=None,
        theme="dark",
        text=None,
        tokenizer=None,
        model=None,
        special_tokens="keep",
        max_tokens=None,
        positions="sinusoidal",
        pieces=None,
    )
    assert options.to_dict() == {
        "ids": None,
        "vocab": None,
        "dim": None,
        "seed": 123,
        "init": "torch",
        "weights": None,
        "tensor": None,
        "theme": "dark",
        "text": None,
        "tokenizer": None,
        "model": None,
        "special_tokens": "keep",
        "max_tokens": None,
        "positions": "sinusoidal",
        "pieces": None,
    }


def test_unrelated_environment_is_ignored(home: Path) -> None:
    env = {"HOME": "/nowhere", "EMBEDVIZ": "x", "EMBEDVIZ_UNKNOWN": "1", "embedviz_vocab": "9"}
    assert _resolve(home, environ=env) == SceneOptions()


# ---------------------------------------------------------------------- config file


def test_top_level_keys(home: Path) -> None:
    _toml(
        home,
        'ids = "4,0,1"\nvocab = 10\ndim = 5\nseed = 7\ninit = "normal"\n',
    )
    options = _resolve(home)
    assert options == SceneOptions(ids=[4, 0, 1], vocab=10, dim=5, seed=7, init="normal")


def test_scene_table_overrides_top_level(home: Path) -> None:
    _toml(
        home,
        "vocab = 10\nseed = 1\n"
        "[SequenceLookup]\nvocab = 20\nids = [1, 2]\n"
        "[SingleTokenLookup]\nvocab = 30\nids = [3]\n",
    )
    sequence = _resolve(home, scene="SequenceLookup")
    assert (sequence.vocab, sequence.seed, sequence.ids) == (20, 1, [1, 2])
    single = _resolve(home, scene="SingleTokenLookup")
    assert (single.vocab, single.seed, single.ids) == (30, 1, [3])
    # Without a scene, and for a scene with no table, only top-level keys apply.
    for scene in (None, "SomeOtherScene"):
        plain = _resolve(home, scene=scene)
        assert (plain.vocab, plain.seed, plain.ids) == (10, 1, None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('ids = "2,3;5,1"', [[2, 3], [5, 1]]),
        ('ids = "2,3,5,1"', [2, 3, 5, 1]),
        ('ids = " 7 "', [7]),
        ("ids = [2, 3, 5, 1]", [2, 3, 5, 1]),
        ("ids = [[2, 3], [5, 1]]", [[2, 3], [5, 1]]),
        ("ids = [0]", [0]),
    ],
)
def test_ids_forms_in_file(home: Path, text: str, expected: list[Any]) -> None:
    _toml(home, text + "\n")
    assert _resolve(home).ids == expected


def test_relative_weights_resolve_against_the_toml_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_dir = tmp_path / "project"
    elsewhere = tmp_path / "shell"
    elsewhere.mkdir()
    weights = _npy(config_dir / "data" / "w.npy")
    _toml(config_dir, 'weights = "data/w.npy"\n')
    # The same relative path exists nowhere else, and the shell is elsewhere.
    monkeypatch.chdir(elsewhere)
    options = resolve_options(cwd=config_dir, environ={})
    assert Path(options.weights or "").resolve() == weights.resolve()

    via_env = resolve_options(environ={"EMBEDVIZ_CONFIG": str(config_dir / "embedviz.toml")})
    assert Path(via_env.weights or "").resolve() == weights.resolve()


def test_relative_weights_in_a_scene_table_resolve_against_the_toml_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_dir = tmp_path / "project"
    weights = _npy(config_dir / "w.npy")
    _toml(config_dir, '[SequenceLookup]\nweights = "w.npy"\n')
    monkeypatch.chdir(tmp_path)
    options = resolve_options(cwd=config_dir, environ={}, scene="SequenceLookup")
    assert Path(options.weights or "").resolve() == weights.resolve()


def test_missing_weights_beside_toml_is_an_error_even_if_it_exists_in_the_shell_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config_dir = tmp_path / "project"
    config_dir.mkdir()
    shell = tmp_path / "shell"
    _npy(shell / "w.npy")
    _toml(config_dir, 'weights = "w.npy"\n')
    monkeypatch.chdir(shell)
    with pytest.raises(EmbedvizError) as info:
        resolve_options(cwd=config_dir, environ={})
    message = str(info.value)
    assert "\n" not in message
    assert "w.npy" in message
    assert "does not exist" in message
    assert str(config_dir) in message


def test_absolute_weights_path_kept(home: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    weights = _npy(tmp_path_factory.mktemp("abs") / "w.npy")
    _toml(home, f'weights = "{weights.as_posix()}"\n')
    assert Path(_resolve(home).weights or "") == weights


def test_embedviz_config_names_another_file(home: Path, tmp_path: Path) -> None:
    _toml(home, "vocab = 10\n")
    other = tmp_path / "elsewhere.toml"
    other.write_text("vocab = 42\n", encoding="utf-8")
    assert _resolve(home, environ={"EMBEDVIZ_CONFIG": str(other)}).vocab == 42
    assert _resolve(home).vocab == 10


# ---------------------------------------------------------------------- environment


def test_environment_overrides_file(home: Path) -> None:
    weights = _npy(home / "env.npy")
    _toml(home, 'ids = "1"\nvocab = 10\ndim = 5\nseed = 7\ninit = "normal"\n')
    env = {
        "EMBEDVIZ_IDS": "2,3;5,1",
        "EMBEDVIZ_VOCAB": "11",
        "EMBEDVIZ_DIM": " 6 ",
        "EMBEDVIZ_SEED": "8",
        "EMBEDVIZ_INIT": "torch",
        "EMBEDVIZ_WEIGHTS": str(weights),
        "EMBEDVIZ_TENSOR": "emb",
    }
    options = _resolve(home, environ=env)
    assert options == SceneOptions(
        ids=[[2, 3], [5, 1]],
        vocab=11,
        dim=6,
        seed=8,
        init="torch",
        weights=str(weights),
        tensor="emb",
    )


def test_empty_environment_values_are_ignored(home: Path) -> None:
    _toml(home, "vocab = 10\n")
    env = {"EMBEDVIZ_VOCAB": "", "EMBEDVIZ_IDS": "", "EMBEDVIZ_SEED": ""}
    options = _resolve(home, environ=env)
    assert (options.vocab, options.ids, options.seed) == (10, None, 123)


def test_environment_overrides_scene_table(home: Path) -> None:
    _toml(home, "[SequenceLookup]\nvocab = 20\n")
    options = _resolve(home, scene="SequenceLookup", environ={"EMBEDVIZ_VOCAB": "21"})
    assert options.vocab == 21


def test_full_priority_chain(home: Path) -> None:
    _toml(home, "seed = 1\n[SequenceLookup]\nseed = 2\n")
    env = {"EMBEDVIZ_SEED": "3"}
    assert _resolve(home, scene="SequenceLookup", environ=env, overrides={"seed": 4}).seed == 4
    assert _resolve(home, scene="SequenceLookup", environ=env).seed == 3
    assert _resolve(home, scene="SequenceLookup").seed == 2
    assert _resolve(home).seed == 1
    (home / "embedviz.toml").unlink()
    assert _resolve(home).seed == 123


# ------------------------------------------------------------------------- explicit


def test_explicit_overrides_beat_environment(home: Path) -> None:
    env = {"EMBEDVIZ_IDS": "1,2", "EMBEDVIZ_VOCAB": "11", "EMBEDVIZ_INIT": "normal"}
    options = _resolve(home, {"ids": "0;1", "vocab": 12, "init": "torch"}, environ=env)
    assert (options.ids, options.vocab, options.init) == ([[0], [1]], 12, "torch")


def test_explicit_none_values_are_ignored(home: Path) -> None:
    env = {"EMBEDVIZ_VOCAB": "11"}
    options = _resolve(home, {"vocab": None, "dim": None, "ids": None}, environ=env)
    assert (options.vocab, options.dim, options.ids) == (11, None, None)


@pytest.mark.parametrize(
    ("ids", "expected"),
    [
        ("2,3;5,1", [[2, 3], [5, 1]]),
        ([2, 3, 5, 1], [2, 3, 5, 1]),
        ([[2, 3], [5, 1]], [[2, 3], [5, 1]]),
        ((2, 3), None),  # a tuple is not one of the documented forms
    ],
)
def test_explicit_ids_forms(home: Path, ids: Any, expected: Any) -> None:
    if expected is None:
        message = _error(home, {"ids": ids})
        assert "'ids'" in message
        return
    options = _resolve(home, {"ids": ids})
    assert options.ids == expected
    if isinstance(ids, list):
        assert options.ids is not ids  # copied, not aliased


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    vocab=st.integers(1, 2**31),
    dim=st.integers(1, 4096),
    seed=st.integers(0, 2**64 - 1),
    ids=st.lists(st.integers(0, 10**6), min_size=1, max_size=6),
    init=st.sampled_from(["torch", "normal"]),
)
def test_file_values_round_trip(
    home: Path, vocab: int, dim: int, seed: int, ids: list[int], init: str
) -> None:
    # TOML integers are 64-bit signed; larger seeds go in as strings.
    seed_text = str(seed) if seed < 2**63 else f'"{seed}"'
    _toml(
        home,
        f'vocab = {vocab}\ndim = {dim}\nseed = {seed_text}\nids = {ids}\ninit = "{init}"\n',
    )
    options = _resolve(home)
    assert options == SceneOptions(ids=ids, vocab=vocab, dim=dim, seed=seed, init=init)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "key", "extra"),
    [
        ("vocabulary = 6\n", "vocabulary", "unknown option"),
        ("[SequenceLookup]\ncolour = 1\n", "colour", "unknown option"),
        ("[SingleTokenLookup]\nspeed = 2\n", "speed", "unknown option"),
        ('vocab = "six"\n', "vocab", "'six'"),
        ("vocab = 6.0\n", "vocab", "6.0"),
        ("vocab = true\n", "vocab", "True"),
        ("seed = 1.5\n", "seed", "1.5"),
        ('seed = "1.5"\n', "seed", "1.5"),
        ("dim = [3]\n", "dim", "[3]"),
        ("init = 'cauchy'\n", "init", "cauchy"),
        ("init = 1\n", "init", "1"),
        ("weights = 5\n", "weights", "5"),
        ("tensor = false\n", "tensor", "False"),
        ("ids = 5\n", "ids", "5"),
        ("ids = []\n", "ids", "[]"),
        ("ids = [1, [2]]\n", "ids", "[1, [2]]"),
        ("ids = [1.5]\n", "ids", "1.5"),
        ("ids = [true]\n", "ids", "True"),
        # A bad value in another scene's table is reported now, not at render time.
        ("[SingleTokenLookup]\nvocab = 'x'\n", "vocab", "SingleTokenLookup"),
    ],
)
def test_bad_file_values_name_the_key(home: Path, text: str, key: str, extra: str) -> None:
    path = _toml(home, text)
    message = _error(home, scene="SequenceLookup")
    assert f"'{key}'" in message
    assert extra in message
    assert str(path) in message


@pytest.mark.parametrize(
    "text",
    ["vocab = \n", "vocab = 6\nvocab = 7\n", "[SequenceLookup\n", "ids = [1, 2\n", "= 3\n"],
)
def test_malformed_toml(home: Path, text: str) -> None:
    path = _toml(home, text)
    message = _error(home)
    assert "TOML" in message
    assert str(path) in message


def test_non_utf8_toml(home: Path) -> None:
    (home / "embedviz.toml").write_bytes(b'tensor = "\xff"\n')
    message = _error(home)
    assert "embedviz.toml" in message


@pytest.mark.parametrize("table", ["sequence", "sequencelookup", "options", "_Private"])
def test_unknown_lowercase_table(home: Path, table: str) -> None:
    _toml(home, f"[{table}]\nvocab = 3\n")
    message = _error(home)
    assert f"[{table}]" in message


def test_config_that_is_a_directory(home: Path) -> None:
    (home / "embedviz.toml").mkdir()
    # Not a file, so it is simply not a config file.
    assert _resolve(home) == SceneOptions()


@pytest.mark.parametrize(
    ("env", "key"),
    [
        ({"EMBEDVIZ_VOCAB": "six"}, "EMBEDVIZ_VOCAB"),
        ({"EMBEDVIZ_DIM": "3.0"}, "EMBEDVIZ_DIM"),
        ({"EMBEDVIZ_SEED": "0x10"}, "EMBEDVIZ_SEED"),
        ({"EMBEDVIZ_INIT": "cauchy"}, "EMBEDVIZ_INIT"),
    ],
)
def test_bad_environment_values_name_the_variable(
    home: Path, env: dict[str, str], key: str
) -> None:
    message = _error(home, environ=env)
    assert key in message
    assert env[key] in message


@pytest.mark.parametrize(
    ("where", "value"),
    [("env", "2,x"), ("env", "2;;3"), ("file", "2,x"), ("file", "")],
)
def test_bad_id_strings_name_their_source(home: Path, where: str, value: str) -> None:
    if where == "env":
        message = _error(home, environ={"EMBEDVIZ_IDS": value or " "})
        assert "EMBEDVIZ_IDS" in message
    else:
        _toml(home, f'ids = "{value}"\n')
        message = _error(home)
        assert "embedviz.toml" in message
        assert "ids" in message


@pytest.mark.parametrize("text", ['ids = [[2.5, "x"]]', "ids = [[]]", "ids = [[1, [2]]]"])
def test_bad_nested_ids_in_file_are_refused(home: Path, text: str) -> None:
    _toml(home, text + "\n")
    message = _error(home)
    assert "'ids'" in message


def test_unknown_explicit_option(home: Path) -> None:
    message = _error(home, {"colour": "red"})
    assert "'colour'" in message


@pytest.mark.parametrize(
    ("overrides", "key"),
    [({"vocab": "six"}, "vocab"), ({"seed": True}, "seed"), ({"init": "cauchy"}, "init")],
)
def test_bad_explicit_values_name_the_key(home: Path, overrides: dict[str, Any], key: str) -> None:
    message = _error(home, overrides)
    assert f"'{key}'" in message


@pytest.mark.parametrize("source", ["file", "env", "explicit"])
def test_missing_weights_file(home: Path, source: str) -> None:
    if source == "file":
        _toml(home, 'weights = "nope.npy"\n')
        message = _error(home)
    elif source == "env":
        message = _error(home, environ={"EMBEDVIZ_WEIGHTS": str(home / "nope.npy")})
    else:
        message = _error(home, {"weights": str(home / "nope.npy")})
    assert "nope.npy" in message
    assert "does not exist" in message


@pytest.mark.parametrize("source", ["file", "env", "explicit"])
def test_tensor_without_weights(home: Path, source: str) -> None:
    if source == "file":
        _toml(home, 'tensor = "wte.weight"\n')
        message = _error(home)
    elif source == "env":
        message = _error(home, environ={"EMBEDVIZ_TENSOR": "wte.weight"})
    else:
        message = _error(home, {"tensor": "wte.weight"})
    assert "tensor" in message
    assert "weights" in message


def test_tensor_with_weights_is_fine(home: Path) -> None:
    weights = _npy(home / "w.npy")
    options = _resolve(home, {"weights": str(weights), "tensor": "wte.weight"})
    assert (options.weights, options.tensor) == (str(weights), "wte.weight")


def test_embedviz_config_pointing_to_missing_file(home: Path) -> None:
    _toml(home, "vocab = 10\n")  # must not be used as a fallback
    missing = home / "sub" / "missing.toml"
    message = _error(home, environ={"EMBEDVIZ_CONFIG": str(missing)})
    assert "EMBEDVIZ_CONFIG" in message
    assert "missing.toml" in message


def test_empty_embedviz_config_means_unset(home: Path) -> None:
    assert _resolve(home, environ={"EMBEDVIZ_CONFIG": ""}) == SceneOptions()


# ---------------------------------------------------------------------- integration


def test_prepared_storyboard_uses_file_and_environment(home: Path) -> None:
    _toml(home, 'ids = "1,0"\n[SequenceLookup]\nvocab = 9\n')
    board = prepared_storyboard("sequence", cwd=home, environ={"EMBEDVIZ_DIM": "4"})
    assert board.scene == "SequenceLookup"
    assert list(board.ids) == [1, 0]
    assert (board.vocab_size, board.dim) == (9, 4)


def test_theme_option(home: Path) -> None:
    assert _resolve(home, {"theme": "light"}).theme == "light"
    assert _resolve(home, environ={"EMBEDVIZ_THEME": "light"}).theme == "light"
    message = _error(home, {"theme": "sepia"})
    assert "'theme'" in message
