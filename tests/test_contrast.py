"""Contrast from rendered pixels: every text against what is drawn behind it, in both themes.

A scene is dry-run at 2560 x 1440 (twice 720p) to its last frame. Each text on screen
(numbers, labels, formulas, titles, the caption) is drawn once with the rest
of the frame and once hidden; the pixels it changes are its glyphs, and what
they show without it is its local background (a cell, a chip, the frame). The
glyph's contrast is the largest WCAG ratio between a changed pixel and the
same pixel without it (anti-aliased edge pixels only blend toward the
background, so the largest is the glyph's own colour). Text must reach
4.5:1 (WCAG 2.2 AA); dimmed rows (no ID selected them) 3:1.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import box_of

from embedviz.inputs import prepared_storyboard
from embedviz.story.scenes import SCENES

# Twice 720p: a thin stroke (the bars of "=") then covers whole pixels, so its
# colour is measured, not its anti-aliased edge.
WIDTH, HEIGHT = 2560, 1440
TEXT, DIMMED = 4.5, 3.0


def _luminance(rgb: np.ndarray) -> np.ndarray:
    channel = rgb.astype(float) / 255.0
    linear = np.where(channel <= 0.04045, channel / 12.92, ((channel + 0.055) / 1.055) ** 2.4)
    result: np.ndarray = linear @ np.array([0.2126, 0.7152, 0.0722])
    return result


def _ratio(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    a, b = _luminance(first), _luminance(second)
    result: np.ndarray = (np.maximum(a, b) + 0.05) / (np.minimum(a, b) + 0.05)
    return result


def test_the_ratio_is_wcag_s() -> None:
    black, white = np.array([[0, 0, 0]]), np.array([[255, 255, 255]])
    assert _ratio(black, white)[0] == pytest.approx(21.0)
    # The light theme's old amber text on its background (the 2.15:1).
    amber, paper = np.array([[0xE6, 0x9F, 0x00]]), np.array([[0xFA, 0xFA, 0xF7]])
    assert _ratio(amber, paper)[0] == pytest.approx(2.15, abs=0.01)


def measure(scene: str, options: dict[str, Any]) -> list[tuple[str, float, bool]]:
    """Dry-run a scene to its last frame; return (text, contrast, dimmed) for every visible text."""
    from manim import config

    from embedviz.render.base import screen_texts
    from embedviz.render.moments import play_moments

    board = prepared_storyboard(scene, options or None, environ={})
    last = board.all_beats()[-1]
    found: list[tuple[str, float, bool]] = []

    def frame(scene_object: Any, mobjects: Any = None, rows: Any = None, cols: Any = None) -> Any:
        camera = scene_object.renderer.camera
        camera.reset()
        camera.capture_mobjects(scene_object.mobjects if mobjects is None else mobjects)
        # Only the part asked for is copied: a whole frame is 15 MB at this size.
        return camera.pixel_array[rows or slice(None), cols or slice(None), :3].copy()

    def near(scene_object: Any, text: Any, low: np.ndarray, high: np.ndarray) -> list[Any]:
        """Everything drawn, in drawing order, that reaches the text's box, less the text."""
        camera = scene_object.renderer.camera
        own = {id(m) for m in text.get_family()}
        found = []
        for mobject in camera.get_mobjects_to_display(scene_object.mobjects):
            if id(mobject) in own or not len(mobject.points):
                continue
            m_low, m_high = box_of(mobject)
            across = m_low[0] <= high[0] and low[0] <= m_high[0]
            if across and m_low[1] <= high[1] and low[1] <= m_high[1]:
                found.append(mobject)
        return found

    def read(scene_object: Any, moment: Any) -> None:
        if moment.alpha < 1 or moment.beat is not last:
            return
        numbers, labels, texts = screen_texts(scene_object)
        full = frame(scene_object)
        per_x, per_y = WIDTH / config.frame_width, HEIGHT / config.frame_height
        dimmed_rows = set(last.dimmed_rows)
        compared = _compared(board, last)
        for text in [*numbers, *labels, *texts]:
            family = [m for m in text.get_family() if len(m.points)]
            if not family or max(m.get_fill_opacity() for m in family) < 0.5:
                continue
            low, high = box_of(text)
            x0 = max(int((low[0] + config.frame_width / 2) * per_x) - 1, 0)
            x1 = min(int((high[0] + config.frame_width / 2) * per_x) + 2, WIDTH)
            y0 = max(int((config.frame_height / 2 - high[1]) * per_y) - 1, 0)
            y1 = min(int((config.frame_height / 2 - low[1]) * per_y) + 2, HEIGHT)
            # Only what reaches the text's box changes its pixels: drawing just
            # that, without the text, gives what is behind it.
            without = frame(
                scene_object, near(scene_object, text, low, high), slice(y0, y1), slice(x0, x1)
            )
            with_text = full[y0:y1, x0:x1]
            changed = np.any(with_text != without, axis=2)
            if not changed.any():
                continue  # wholly covered by something drawn above it
            contrast = float(_ratio(with_text[changed], without[changed]).max())
            cell = getattr(text, "cell", None)
            dim = cell is not None and cell.kind in ("weight", "row_label")
            dim = dim and cell.index[0] in dimmed_rows
            # While two rows are compared, the tables' other rows are dimmed content too.
            rest = cell is not None and cell.kind in COMPARED_KINDS and compared
            dim = dim or (rest and cell.index[:-1] not in compared)
            # A chip already used (faded back at its place) is dimmed content too.
            used = cell is not None and cell.kind == "token_id"
            dim = dim or (used and max(m.get_fill_opacity() for m in family) < 0.99)
            found.append((str(getattr(text, "text", "")), contrast, dim))

    # Only the last beat's end is read: the other beats play unsampled.
    play_moments(board, read, alphas=(), pixel_width=WIDTH, pixel_height=HEIGHT, beats={last.name})
    assert found, "no text was measured"
    return found


# The tables whose two rows a ``differ`` beat compares (PositionBlindness: E[id], P, the sums).
COMPARED_KINDS = {"output", "sinusoid", "sum_sinusoid", "learned_position", "sum_learned"}


def _compared(board: Any, beat: Any) -> set[tuple[int, ...]]:
    """At a ``differ`` beat, the first two positions holding its repeated ID (else none)."""
    if beat.action != "differ" or beat.highlight is None:
        return set()
    ids = {c.index: int(c.value) for b in board.beats for c in b.numbers if c.kind == "output_id"}
    return set(sorted(p for p, v in ids.items() if v == beat.highlight.row)[:2])


# The lookup family is built on the design system; the other stages keep the
# theme's colours (which the design system also sets) until phase 2.
SCENES_TO_CHECK = [name for name in SCENES if name != "FullExplainer"]


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("scene", SCENES_TO_CHECK)
def test_every_text_is_readable_against_what_is_behind_it(scene: str, theme: str) -> None:
    results = measure(scene, {"theme": theme})
    poor = [
        f"{text!r}: {contrast:.2f}:1{' (dimmed)' if dim else ''}"
        for text, contrast, dim in results
        if contrast < (DIMMED if dim else TEXT) - 0.02
    ]
    assert not poor, f"{len(poor)} of {len(results)} texts under their contrast: " + "; ".join(
        poor[:12]
    )
