"""The ``embedviz`` command line, run as a user would run it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from embedviz.story.scenes import SCENES

SCENE_NAMES = set(SCENES)

# print(emb(torch.tensor([2, 3, 5, 1]))) after torch.manual_seed(123) and
# emb = torch.nn.Embedding(6, 3), as printed by torch 2.13.0.
CLASSIC_TORCH_OUTPUT = (
    "tensor([[ 1.2753, -0.2010, -0.1606],\n"
    "        [-0.4015,  0.9666, -1.1481],\n"
    "        [-2.8400, -0.7849, -1.4096],\n"
    "        [ 0.9178,  1.5810,  1.3010]], grad_fn=<EmbeddingBackward0>)\n"
)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    env.update(extra)
    return env


def run(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "embedviz", *args],
        cwd=cwd,
        env=_env() if env is None else env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _assert_one_line_failure(result: subprocess.CompletedProcess[str], status: int = 2) -> str:
    assert result.returncode == status, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert result.stderr.endswith("\n")
    assert lines[0].startswith("embedviz: error: ")
    assert result.stdout == ""
    return lines[0]


# ---------------------------------------------------------------------------- scenes


def test_scenes_lists_each_scene_once_per_line(tmp_path: Path) -> None:
    result = run(tmp_path, "scenes")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == len(SCENE_NAMES)
    assert {line.split()[0] for line in lines} == SCENE_NAMES
    aliases = {line.split()[0]: line.split()[1] for line in lines}
    assert aliases == {name: spec.alias for name, spec in SCENES.items()}


# ------------------------------------------------------------------------ storyboard


@pytest.mark.parametrize(
    ("name", "scene"),
    [
        ("SequenceLookup", "SequenceLookup"),
        ("sequence", "SequenceLookup"),
        ("SEQUENCELOOKUP", "SequenceLookup"),
        ("SingleTokenLookup", "SingleTokenLookup"),
        ("single", "SingleTokenLookup"),
    ],
)
def test_storyboard_json(tmp_path: Path, name: str, scene: str) -> None:
    result = run(tmp_path, "storyboard", name, "--json")
    assert result.returncode == 0, result.stderr
    board = json.loads(result.stdout)
    assert board["scene"] == scene
    assert isinstance(board["beats"], list)
    assert board["beats"]
    for beat in board["beats"]:
        assert beat["name"]
        assert beat["narration"].strip()
    assert (board["vocab_size"], board["dim"]) == (6, 3)


def test_storyboard_json_follows_flags(tmp_path: Path) -> None:
    result = run(
        tmp_path, "storyboard", "sequence", "--json", "--ids", "4,0", "--vocab", "7", "--dim", "2"
    )
    assert result.returncode == 0, result.stderr
    board = json.loads(result.stdout)
    assert board["ids"] == [4, 0]
    assert (board["vocab_size"], board["dim"]) == (7, 2)
    assert board["options"]["vocab"] == 7


def test_storyboard_text(tmp_path: Path) -> None:
    result = run(tmp_path, "storyboard", "sequence")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("SequenceLookup: ")
    assert "6 x 3" in lines[0]
    assert lines[-1].strip().endswith("end")
    assert len(lines) >= 3


def test_storyboard_reads_embedviz_toml_in_cwd(tmp_path: Path) -> None:
    (tmp_path / "embedviz.toml").write_text('ids = "1,2"\n', encoding="utf-8")
    result = run(tmp_path, "storyboard", "sequence", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ids"] == [1, 2]


# ---------------------------------------------------------------------------- lookup


def test_lookup_default_is_the_classic_torch_printout(tmp_path: Path) -> None:
    result = run(tmp_path, "lookup")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == CLASSIC_TORCH_OUTPUT
    explicit = run(tmp_path, "lookup", "--ids", "2,3,5,1", "--seed", "123")
    assert explicit.stdout == CLASSIC_TORCH_OUTPUT


def test_lookup_of_a_hand_made_weights_file(tmp_path: Path) -> None:
    table = np.array([[0.5, -1.25], [1, 1], [7, 7], [2, 3]], dtype=np.float32)
    np.save(tmp_path / "w.npy", table)
    result = run(tmp_path, "lookup", "--weights", "w.npy", "--ids", "3,0")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "tensor([[ 2.0000,  3.0000],\n        [ 0.5000, -1.2500]], grad_fn=<EmbeddingBackward0>)\n"
    )


def test_lookup_environment_variable(tmp_path: Path) -> None:
    result = run(tmp_path, "lookup", env=_env(EMBEDVIZ_IDS="2,3,5,1", EMBEDVIZ_SEED="123"))
    assert result.stdout == CLASSIC_TORCH_OUTPUT
    other = run(tmp_path, "lookup", env=_env(EMBEDVIZ_SEED="124"))
    assert other.returncode == 0
    assert other.stdout != CLASSIC_TORCH_OUTPUT


# -------------------------------------------------------------------------- failures


def _corrupt_npy(folder: Path) -> None:
    (folder / "bad.npy").write_bytes(b"\x93NUMPY\x01\x00\x20\x00{'descr': '<f4', garbage}\n")


BAD_INVOCATIONS = [
    (["lookup", "--ids", "6"], "6"),
    (["lookup", "--ids", "-1"], "-1"),
    (["lookup", "--ids", "2.5"], "2.5"),
    (["lookup", "--ids", "2,3;5"], "ragged"),
    (["lookup", "--ids", ""], "no token IDs"),
    (["lookup", "--ids", "abc"], "abc"),
    (["lookup", "--ids", "0x3"], "0x3"),
    (["lookup", "--ids", "2,,3"], "empty"),
    (["lookup", "--vocab", "0"], "0"),
    (["lookup", "--dim", "-3"], "-3"),
    (["lookup", "--vocab", "100000000000", "--dim", "100000000"], "memory"),
    (["lookup", "--vocab", "abc"], "--vocab"),
    (["lookup", "--seed", str(-(2**63) - 1)], "seed"),
    (["lookup", "--seed", str(2**64)], "seed"),
    (["lookup", "--init", "cauchy"], "cauchy"),
    (["lookup", "--weights", "missing.npy"], "missing.npy"),
    (["lookup", "--weights", "bad.npy"], "bad.npy"),
    (["lookup", "--weights", "table.txt"], "table.txt"),
    (["lookup", "--tensor", "wte.weight"], "--weights"),
    (["lookup", "--weights", "good.npy", "--vocab", "5"], "--vocab"),
    (["lookup", "--weights", "good.npy", "--tensor", "x"], "--tensor"),
    (["frobnicate"], "frobnicate"),
    ([], "command"),
    (["lookup", "--bogus"], "--bogus"),
    (["scenes", "--bogus"], "--bogus"),
    (["storyboard"], "scene"),
    (["storyboard", "NoSuchScene"], "NoSuchScene"),
    (["storyboard", "SingleTokenLookup", "--ids", "2,3"], "SingleTokenLookup"),
    (["storyboard", "sequence", "--ids", "2,3;5,1"], "SequenceLookup"),
    (["storyboard", "sequence", "--ids", "9"], "9"),
    (["render", "sequence", "--ids", "9"], "9"),
    (["render", "NoSuchScene"], "NoSuchScene"),
    (["render", "sequence", "--format", "avi"], "avi"),
]


@pytest.mark.parametrize(("args", "needle"), BAD_INVOCATIONS, ids=lambda v: " ".join(v) or "-")
def test_bad_input_exits_2_with_one_line(tmp_path: Path, args: list[str], needle: str) -> None:
    _corrupt_npy(tmp_path)
    (tmp_path / "table.txt").write_text("1 2\n3 4\n", encoding="utf-8")
    np.save(tmp_path / "good.npy", np.ones((4, 3), dtype=np.float32))
    result = run(tmp_path, *args)
    line = _assert_one_line_failure(result)
    assert needle in line
    # Nothing was rendered or staged for a render that failed early.
    assert not (tmp_path / "media").exists()


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("EMBEDVIZ_VOCAB", "six"),
        ("EMBEDVIZ_IDS", "9"),
        ("EMBEDVIZ_CONFIG", "/nonexistent/embedviz.toml"),
        ("EMBEDVIZ_WEIGHTS", "nope.npy"),
    ],
)
def test_bad_environment_exits_2_with_one_line(tmp_path: Path, variable: str, value: str) -> None:
    result = run(tmp_path, "lookup", env=_env(**{variable: value}))
    _assert_one_line_failure(result)


@pytest.mark.parametrize(
    "text", ["vocab = \n", "colour = 1\n", "[sequence]\nvocab = 3\n", 'init = "cauchy"\n']
)
def test_bad_config_file_exits_2_with_one_line(tmp_path: Path, text: str) -> None:
    (tmp_path / "embedviz.toml").write_text(text, encoding="utf-8")
    for args in (["lookup"], ["storyboard", "sequence"]):
        line = _assert_one_line_failure(run(tmp_path, *args))
        assert "embedviz.toml" in line


def test_help_exits_0(tmp_path: Path) -> None:
    result = run(tmp_path, "--help")
    assert result.returncode == 0
    for command in ("scenes", "storyboard", "lookup", "render"):
        assert command in result.stdout


# ---------------------------------------------------------------------------- quality flags

QUALITY_SPELLINGS = [
    *[([f"-q{flag}"], flag) for flag in "lmhpk"],
    (["-q", "l"], "l"),
    ([], "m"),
]


@pytest.mark.parametrize("command", ["render", "export", "slides"])
@pytest.mark.parametrize(("flags", "quality"), QUALITY_SPELLINGS, ids=lambda v: repr(v))
def test_render_export_and_slides_take_the_same_quality_flags(
    command: str, flags: list[str], quality: str
) -> None:
    from embedviz.cli import _build_parser

    args = _build_parser().parse_args([command, "single", *flags])
    assert args.quality == quality


def test_export_passes_4k_quality_to_the_renderer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from embedviz import cli
    from embedviz.export import site

    seen: dict[str, object] = {}

    def fake_export(names: list[str], out: str, **kwargs: object) -> list[object]:
        seen.update(kwargs)
        return []

    monkeypatch.setattr(site, "export_site", fake_export)
    assert cli.main(["export", "single", "-qk", "--out", str(tmp_path / "site")]) == 0
    assert seen["quality"] == "k"


def test_the_presets_are_manims_own_and_one_smaller() -> None:
    from manim.constants import QUALITIES as MANIMS

    from embedviz.quality import PRESETS

    for preset in PRESETS.values():
        # 16:9, the frame every layout is solved for (480p's 854 is Manim's rounding).
        assert preset.width / preset.height == pytest.approx(16 / 9, rel=0.002)
        if preset.manim_name is not None:
            manims = MANIMS[preset.manim_name]
            sizes = (manims["pixel_width"], manims["pixel_height"], manims["frame_rate"])
            assert sizes == (preset.width, preset.height, preset.fps)
    assert PRESETS["k"].folder == "2160p60"
    # -qt: smaller than every preset Manim has.
    assert PRESETS["t"].manim_name is None
    assert PRESETS["t"].height < min(m["pixel_height"] for m in MANIMS.values())


def test_a_bad_quality_is_one_line(tmp_path: Path) -> None:
    line = _assert_one_line_failure(run(tmp_path, "export", "single", "-qx"))
    assert "'x'" in line


# ---------------------------------------------------------------------------- render progress


class _Terminal:
    """A stand-in for stderr: a terminal, or a log."""

    def __init__(self, tty: bool) -> None:
        self.tty = tty
        self.text = ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


def _progress_of(scene: str, tty: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    from embedviz.cli import _RenderProgress
    from embedviz.inputs import prepared_storyboard

    stream = _Terminal(tty)
    monkeypatch.setattr(sys, "stderr", stream)
    board = prepared_storyboard(scene, {}, environ={})
    progress = _RenderProgress(board)
    for beat in board.all_beats():
        progress.beat_done(beat)
    return stream.text


def test_render_progress_in_a_terminal_counts_the_beats_on_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from embedviz.inputs import prepared_storyboard

    text = _progress_of("SequenceLookup", True, monkeypatch)
    beats = prepared_storyboard("SequenceLookup", {}, environ={}).beats
    # One line, rewritten in place for every beat, ended once.
    assert text.count("\n") == 1
    assert text.endswith("\n")
    updates = text.rstrip("\n").split("\r")[1:]
    assert [u.split(" (")[0] for u in updates] == [
        f"embedviz render: SequenceLookup beat {n}/{len(beats)}" for n in range(1, len(beats) + 1)
    ]
    assert [u.split(" (")[1].split(")")[0] for u in updates] == [b.name for b in beats]


def test_render_progress_in_a_log_is_one_line_per_scene(monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    from embedviz.inputs import prepared_storyboard

    single = _progress_of("SingleTokenLookup", False, monkeypatch)
    beats = len(prepared_storyboard("SingleTokenLookup", {}, environ={}).beats)
    assert re.fullmatch(
        rf"embedviz render: SingleTokenLookup: {beats} beats in \d+\.\d s\n", single
    )
    full = _progress_of("FullExplainer", False, monkeypatch).splitlines()
    board = prepared_storyboard("FullExplainer", {}, environ={})
    scenes = [part.scene for part in board.parts if part.layout != "transition"]
    assert [line.split(":")[1].strip() for line in full] == [
        f"FullExplainer {n}/{len(scenes)} {scene}" for n, scene in enumerate(scenes, start=1)
    ]
    # Every beat is counted once, transitions with the scene they lead into.
    counted = [int(line.split(": ")[2].split()[0]) for line in full]
    assert sum(counted) == len(board.all_beats())
