"""The scene's camera: Manim's Cairo camera, tracing each unchanged outline once.

Manim draws every moving mobject on every frame, and "moving" is generous:
every mobject from the first animated one onwards in drawing order. For each
it rebuilds the Cairo path from the points, one Python call per Bézier
curve, although most of those outlines (the table's numbers, the labels, the
caption) have not moved since the last frame. :class:`TracingCamera` keeps
the Cairo path of each outline it traced, keyed by the outline's points, and
replays an identical one with a single ``append_path``. The pixels are the
same: Cairo receives the same path, and fills and strokes it as before.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from manim import Camera

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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._paths: OrderedDict[tuple[Any, ...], Any] = OrderedDict()

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
