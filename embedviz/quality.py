"""Render qualities: the ``-q`` presets, one table for render, export, slides and notebooks.

Manim's own presets (``-ql`` 480p15 to ``-qk`` 2160p60) are kept as Manim
defines them. ``-qt`` adds a 144p15 check: large enough for a player, a
caption track and a soundtrack to be tried, far too small to read the
numbers, and a fraction of a draft's cost. It checks timing, sound,
captions and files, never the picture.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["PRESETS", "Quality"]


@dataclass(frozen=True)
class Quality:
    """One ``-q`` preset: a pixel size and a frame rate.

    Attributes
    ----------
    width, height
        Pixels; always 16:9, the frame every layout is solved for.
    fps
        Frames per second.
    manim_name
        Manim's name for the same preset (``low_quality`` …), or ``None``
        for one Manim does not have.
    """

    width: int
    height: int
    fps: int
    manim_name: str | None = None

    @property
    def folder(self) -> str:
        """The folder name Manim gives renders at this size and rate, e.g. ``480p15``."""
        return f"{self.height}p{self.fps}"

    def settings(self) -> dict[str, Any]:
        """Return Manim config for this preset (for ``tempconfig``).

        Returns
        -------
        dict
            Manim's preset name where it has one, so that a render is what
            ``manim -ql`` gives; else the pixel size and the frame rate.
        """
        if self.manim_name is not None:
            return {"quality": self.manim_name}
        return {"pixel_width": self.width, "pixel_height": self.height, "frame_rate": self.fps}


PRESETS: dict[str, Quality] = {
    "t": Quality(256, 144, 15),
    "l": Quality(854, 480, 15, "low_quality"),
    "m": Quality(1280, 720, 30, "medium_quality"),
    "h": Quality(1920, 1080, 60, "high_quality"),
    "p": Quality(2560, 1440, 60, "production_quality"),
    "k": Quality(3840, 2160, 60, "fourk_quality"),
}
