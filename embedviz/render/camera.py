"""The scene's camera: Manim's Cairo camera, tracing each unchanged outline once.

Manim draws every moving mobject on every frame, and "moving" is generous:
every mobject from the first animated one onwards in drawing order. For each
it rebuilds the Cairo path from the points, one Python call per Bézier
curve, although most of those outlines (the table's numbers, the labels, the
caption) have not moved since the last frame. :class:`TracingCamera` keeps
the Cairo path of each outline it traced, keyed by the outline's points, and
replays an identical one with a single ``append_path``. The pixels are the
same: Cairo receives the same path, and fills and strokes it as before.

Manim also paints a still picture from nothing at the start of every play
(the mobjects that do not move) and for every ``wait`` (all of them), though
most of that picture was painted moments before: a wait after a play shows
the play's still part under what the play moved. :meth:`TracingCamera.paint_still`
keeps the last few still pictures with the mobjects they were painted from,
each by identity and looks, and starts a new one from the longest kept
picture whose mobjects begin its list unchanged. Cairo paints onto 8-bit
pixels one mobject after another, so painting the rest onto a copy of that
picture gives the same pixels as painting everything again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from manim import Camera, VMobject

__all__ = ["TracingCamera"]


class TracingCamera(Camera):
    """A Cairo camera that replays the path of an outline it has traced before.

    Parameters
    ----------
    *args, **kwargs
        Passed to :class:`manim.Camera`.
    """

    #: How many traced outlines are kept (least recently drawn ones go first).
    max_paths = 4096

    #: How many still pictures are kept to paint the next one from (0: none).
    max_stills = 3

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._paths: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._stills: list[_Still] = []

    def paint_still(self, mobjects: Iterable[Any]) -> np.ndarray:
        """Paint mobjects on the background, from a kept picture where one applies.

        Parameters
        ----------
        mobjects
            What Manim would paint (families are drawn, in Manim's order).

        Returns
        -------
        numpy.ndarray
            A copy of the painted frame; the camera's frame holds it too.
        """
        drawn = self.get_mobjects_to_display(mobjects)
        # Only vectorised mobjects are known by their looks; anything else is painted afresh.
        keys = [_looks_key(m) for m in drawn] if all(isinstance(m, VMobject) for m in drawn) else []
        fits = [
            s
            for s in self._stills
            if 0 < len(s.keys) <= len(keys) and keys[: len(s.keys)] == s.keys
        ]
        start = max(fits, key=lambda s: len(s.keys), default=None)
        if start is None:
            self.reset()
            rest = drawn
        else:
            self.set_frame_to_background(start.image)
            rest = drawn[len(start.keys) :]
        if rest:
            self.capture_mobjects(rest, include_submobjects=False)
        image = np.array(self.pixel_array)
        if keys:
            # The picture started from is used again, so it is kept as recently used.
            others = [s for s in self._stills if s is not start]
            fresh = [*others, *([start] if start else []), _Still(keys, image)]
            self._stills = fresh[-self.max_stills :] if self.max_stills > 0 else []
        return image

    def set_cairo_context_path(self, ctx: Any, vmobject: Any) -> Any:
        """Set the context's path to the vmobject's outline, traced once per shape."""
        points = vmobject.points
        if len(points) == 0:
            # Manim leaves the context's path as it is here; so does this.
            return super().set_cairo_context_path(ctx, vmobject)
        # The path depends on the points and on how the vmobject splits them
        # into subpaths (its curve size and its tolerance for equal points).
        key = (
            points.shape,
            hash(points.tobytes()),
            vmobject.n_points_per_cubic_curve,
            vmobject.tolerance_for_point_equality,
        )
        path = self._paths.get(key)
        if path is not None:
            self._paths.move_to_end(key)
            ctx.new_path()
            ctx.append_path(path)
            return self
        super().set_cairo_context_path(ctx, vmobject)
        self._paths[key] = ctx.copy_path()
        if len(self._paths) > self.max_paths:
            self._paths.popitem(last=False)
        return self


@dataclass(frozen=True)
class _Still:
    """A painted still picture and the mobjects it was painted from, in order."""

    keys: list[Hashable]
    image: np.ndarray


def _looks_key(vmobject: Any) -> Hashable:
    """Say which mobject this is and everything the camera reads to paint it."""
    arrays = (
        vmobject.points,
        vmobject.fill_rgbas,
        vmobject.stroke_rgbas,
        vmobject.background_stroke_rgbas,
        np.asarray(vmobject.sheen_direction, dtype=float),
    )
    return (
        id(vmobject),
        type(vmobject),
        *((a.shape, hash(np.ascontiguousarray(a).tobytes())) for a in arrays),
        vmobject.stroke_width,
        vmobject.background_stroke_width,
        vmobject.sheen_factor,
        vmobject.joint_type,
        vmobject.cap_style,
        vmobject.n_points_per_cubic_curve,
        vmobject.tolerance_for_point_equality,
        vmobject.shade_in_3d,
        vmobject.z_index,
    )
