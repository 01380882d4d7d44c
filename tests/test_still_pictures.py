"""Shortcuts under Manim give the same frames, byte for byte.

Still pictures painted from kept ones (``TracingCamera.paint_still``), and
fades that change only colours (``embedviz.render.fades``), against Manim's
own way of drawing each frame.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from embedviz.inputs import prepared_storyboard
from embedviz.render.camera import TracingCamera


def _frames(
    scene: str,
    overrides: dict[str, Any],
    media: Path,
    *,
    keep: bool = True,
    colour_fades: bool = True,
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> list[Any]:
    """Play a scene at 256x144 and return every frame written: (digest, ticks held)."""
    from manim import tempconfig
    from manim.mobject.svg.svg_mobject import SVG_HASH_TO_MOB_MAP

    from embedviz.render import fades
    from embedviz.render.formula import _size_per_font

    # Typst keeps the first copy of a formula it typeset in the process: each
    # render starts from the same caches (see conftest.dry_run).
    SVG_HASH_TO_MOB_MAP.clear()
    _size_per_font.cache_clear()
    if not colour_fades:
        assert monkeypatch is not None
        monkeypatch.setattr(fades._ColourFade, "_plain", lambda self: False)

    from embedviz.render.base import StoryboardScene
    from embedviz.render.writer import HoldRenderer

    written: list[Any] = []
    board = prepared_storyboard(scene, overrides, cwd=media, environ={})

    class Counting(HoldRenderer):  # type: ignore[misc]
        def add_frame(self, frame: np.ndarray, num_frames: int = 1) -> None:
            digest = hashlib.sha256(np.ascontiguousarray(frame).tobytes()).hexdigest()
            written.append((digest, num_frames))
            super().add_frame(frame, num_frames)

    class Kept(TracingCamera):  # type: ignore[misc]
        max_stills = TracingCamera.max_stills if keep else 0

    settings = {"disable_caching": True, "media_dir": str(media), "pixel_width": 256,
                "pixel_height": 144, "frame_rate": 15}  # fmt: skip
    with tempconfig(settings):
        renderer = Counting(camera_class=Kept)
        StoryboardScene(storyboard=board, renderer=renderer).render()
    if monkeypatch is not None:
        monkeypatch.undo()
    return written


@pytest.mark.parametrize(
    ("scene", "overrides"),
    [
        ("SequenceLookup", {}),
        ("BatchLookup", {}),
        ("TrainingNudge", {}),
        ("LargeVocabLookup", {}),
    ],
)
def test_kept_still_pictures_give_every_frame_exactly(
    scene: str, overrides: dict[str, Any], tmp_path: Path
) -> None:
    fresh = _frames(scene, overrides, tmp_path / "fresh", keep=False)
    kept = _frames(scene, overrides, tmp_path / "kept", keep=True)
    assert len(fresh) > 20  # motion and holds were drawn
    assert kept == fresh


@pytest.mark.parametrize("scene", ["PositionBlindness", "TrainingNudge", "BatchLookup"])
def test_colour_fades_give_every_frame_exactly(
    scene: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manims = _frames(scene, {}, tmp_path / "manim", colour_fades=False, monkeypatch=monkeypatch)
    ours = _frames(scene, {}, tmp_path / "ours")
    assert len(manims) > 20
    assert ours == manims


def test_a_plain_fade_copies_nothing_and_a_moving_one_is_manims() -> None:
    from manim import DOWN, Square, VGroup, linear

    from embedviz.render.fades import FadeIn, FadeOut

    squares = VGroup(Square(), Square().shift([2, 0, 0])).set_fill(opacity=0.8)
    plain = FadeOut(squares, rate_func=linear)
    plain.begin()
    assert plain.get_all_mobjects() == [squares]  # no starting copy, no target copy
    plain.interpolate(0.25)
    assert [round(float(m.get_fill_opacity()), 6) for m in squares] == [0.6, 0.6]
    plain.finish()
    assert [float(m.get_fill_opacity()) for m in squares] == [0.0, 0.0]
    plain.interpolate(0)  # what Manim's clean-up does after removing it
    assert [float(m.get_fill_opacity()) for m in squares] == [0.8, 0.8]
    moving = FadeIn(squares, shift=DOWN)
    moving.begin()
    assert len(moving.get_all_mobjects()) == 4  # Manim's Transform: its copies


def test_a_still_picture_starts_from_the_longest_kept_one_that_fits() -> None:
    from manim import BLUE, RED, Square, tempconfig

    with tempconfig({"pixel_width": 64, "pixel_height": 36}):
        camera = TracingCamera()
        painted: list[Any] = []
        real = camera.capture_mobjects

        def capture(mobjects: Any, **kwargs: Any) -> None:
            painted.append(list(mobjects))
            real(mobjects, **kwargs)

        camera.capture_mobjects = capture  # type: ignore[method-assign]
        a, b, c = Square(color=RED), Square(color=BLUE).shift([1, 0, 0]), Square().scale(0.5)
        first = camera.paint_still([a, b])
        assert painted == [[a, b]]
        whole = camera.paint_still([a, b, c])
        assert painted[-1] == [c]  # a and b were kept
        c.set_color(RED)  # c changed: painted again, from the picture of a and b
        camera.paint_still([a, b, c])
        assert painted[-1] == [c]
        b.shift([0, 1, 0])  # b moved: nothing kept fits
        camera.paint_still([a, b, c])
        assert painted[-1] == [a, b, c]
        camera.reset()
        camera.capture_mobjects([a, b, c])
        np.testing.assert_array_equal(camera.pixel_array, camera.paint_still([a, b, c]))
        assert not np.array_equal(first, whole)


def test_every_render_module_fades_with_the_colour_fades() -> None:
    """A fade imported from Manim would copy and interpolate whole families again."""
    import ast

    render = Path(__file__).resolve().parents[1] / "embedviz" / "render"
    offenders = []
    for path in sorted(render.rglob("*.py")):
        if path.name == "fades.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("manim"):
                names = {alias.name for alias in node.names} & {"FadeIn", "FadeOut"}
                offenders += [f"{path.name}: {name}" for name in sorted(names)]
    assert offenders == []
