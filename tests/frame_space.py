"""How much of a frame stands empty: the largest empty rectangle between the title and the caption.

Issue 18 asks that at the end of every beat no empty area between the title
and the caption be larger than about an eighth of the frame. A scene is
dry-run; at each beat's end every drawn piece (a text, a table's body, a
chip, an outline) is a box, and the largest axis-aligned rectangle that no
box touches, inside the frame's safe margin, is measured on a fine raster.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from embedviz.inputs import prepared_storyboard

# The raster's cell, in scene units (a frame is 14.2 x 8).
RESOLUTION = 0.05
# About an eighth of the frame.
EIGHTH = 0.13


def largest_empty(boxes: list[tuple[np.ndarray, np.ndarray]], region: tuple[float, ...]) -> float:
    """Return the largest free rectangle's area in ``region`` (left, right, bottom, top)."""
    left, right, bottom, top = region
    nx, ny = int((right - left) / RESOLUTION), int((top - bottom) / RESOLUTION)
    taken = np.zeros((ny, nx), dtype=bool)
    for low, high in boxes:
        i0, i1 = (
            max(0, int((low[0] - left) / RESOLUTION)),
            int(np.ceil((high[0] - left) / RESOLUTION)),
        )
        j0, j1 = (
            max(0, int((top - high[1]) / RESOLUTION)),
            int(np.ceil((top - low[1]) / RESOLUTION)),
        )
        taken[j0 : max(j0, min(ny, j1)), i0 : max(i0, min(nx, i1))] = True
    # The largest rectangle of free cells: a histogram of free runs per row, then a stack.
    heights = np.zeros(nx, dtype=int)
    best = 0
    for row in taken:
        heights = np.where(row, 0, heights + 1)
        stack: list[tuple[int, int]] = []
        for i in range(nx + 1):
            height = int(heights[i]) if i < nx else 0
            start = i
            while stack and stack[-1][1] >= height:
                start, tall = stack.pop()
                best = max(best, tall * (i - start))
            stack.append((start, height))
    return best * RESOLUTION * RESOLUTION


def _drawn(scene: Any) -> list[tuple[np.ndarray, np.ndarray]]:
    boxes = []
    for top in scene.mobjects:
        for mobject in top.get_family():
            if not len(mobject.points):
                continue
            stroke = float(mobject.get_stroke_opacity()) if mobject.get_stroke_width() > 0 else 0.0
            if max(float(mobject.get_fill_opacity()), stroke) < 0.1:
                continue
            low, high = mobject.get_corner([-1, -1, 0]), mobject.get_corner([1, 1, 0])
            boxes.append((low[:2], high[:2]))
    return boxes


def share_now(scene: Any) -> float:
    """Return the largest empty area between the title and the caption now, as a frame share."""
    from manim import config

    title = scene.stage.title.get_bottom()[1]
    caption = scene.caption.get_top()[1]
    half = config.frame_width / 2 - 0.2
    area = largest_empty(_drawn(scene), (-half, half, caption, title))
    return area / (config.frame_width * config.frame_height)


def empty_shares(scene: str, options: dict[str, Any]) -> dict[str, float]:
    """Dry-run a scene; return each beat's largest empty area at its end, as a frame share."""
    from embedviz.render.moments import play_moments

    board = prepared_storyboard(scene, options, environ={})
    shares: dict[str, float] = {}

    def read(scene_object: Any, moment: Any) -> None:
        if moment.alpha >= 1:
            shares[moment.beat.name] = share_now(scene_object)

    play_moments(board, read, alphas=(), pixel_width=192, pixel_height=108)
    return shares
