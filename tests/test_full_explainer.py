"""FullExplainer: all concepts in teaching order, one Manim section each."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import av
import pytest

from embedviz.core.errors import EmbedvizError
from embedviz.inputs import prepared_storyboard
from embedviz.story.scenes import SCENES

REPO = Path(__file__).resolve().parent.parent


def test_parts_are_every_scene_in_teaching_order(tmp_path: Path) -> None:
    board = prepared_storyboard("FullExplainer", cwd=tmp_path, environ={})
    concepts = [part.scene for part in board.parts if part.layout != "transition"]
    expected = sorted(
        (spec for spec in SCENES.values() if spec.name != "FullExplainer"),
        key=lambda spec: spec.order,
    )
    assert concepts == [spec.name for spec in expected]
    # Between two concepts, exactly one transition that clears the screen.
    layouts = [part.layout for part in board.parts]
    assert layouts[1::2] == ["transition"] * (len(concepts) - 1)
    for part in board.parts[1::2]:
        assert [beat.action for beat in part.beats] == ["clear"]
        assert part.beats[0].numbers == ()
    # Each concept is the standalone scene's storyboard, colour legend and all: a
    # chapter is a clip of its own, and its coloured table needs its key there.
    for part in board.parts[0::2]:
        alone = prepared_storyboard(part.scene, cwd=tmp_path, environ={})
        shown = [[(c.kind, c.index, c.text) for c in b.numbers] for b in part.beats]
        assert shown == [[(c.kind, c.index, c.text) for c in b.numbers] for b in alone.beats]
    assert board.duration == pytest.approx(sum(p.duration for p in board.parts))


def test_only_theme_applies(tmp_path: Path) -> None:
    light = prepared_storyboard("FullExplainer", {"theme": "light"}, cwd=tmp_path, environ={})
    assert all(part.options.theme == "light" for part in light.parts)
    with pytest.raises(EmbedvizError, match="only --theme"):
        prepared_storyboard("FullExplainer", {"ids": "2,3"}, cwd=tmp_path, environ={})


@pytest.mark.slow
def test_save_sections_gives_one_clip_per_concept(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    result = subprocess.run(
        # A small picture: what is checked is the sections, and 144p costs 40 % less.
        [sys.executable, "-m", "manim", "render", "-ql", "-r", "256,144", "--disable_caching",
         "--save_sections", "--media_dir", str(tmp_path), "scenes/full_explainer.py",
         "FullExplainer"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=1200,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    board = prepared_storyboard("FullExplainer", cwd=tmp_path, environ={})
    folder = tmp_path / "videos" / "full_explainer" / "144p15"
    sections = json.loads((folder / "sections" / "FullExplainer.json").read_text())
    concepts = [p for p in board.parts if p.layout != "transition"]
    assert [s["name"] for s in sections] == [
        f"{n:02d}_{p.scene}" for n, p in enumerate(concepts, start=1)
    ]
    # Each clip lasts its concept plus the transition that follows it.
    lengths: list[float] = []
    for part in board.parts:
        if part.layout == "transition":
            lengths[-1] += part.duration
        else:
            lengths.append(part.duration)
    for section, length in zip(sections, lengths, strict=True):
        clip = folder / "sections" / section["video"]
        with av.open(str(clip)) as container:
            seconds = float(container.duration) / av.time_base
        assert seconds == pytest.approx(length, abs=2 / 15), section["name"]
    with av.open(str(folder / "FullExplainer.mp4")) as container:
        total = float(container.duration) / av.time_base
    assert total == pytest.approx(board.duration, abs=2 / 15)
