"""Scene data: what each scene shows, beat by beat (stdlib and numpy only)."""

from __future__ import annotations

from embedviz.story.model import Beat, Gap, Highlight, NumberCell, OutputState, Storyboard, Window
from embedviz.story.options import SceneOptions, resolve_options
from embedviz.story.scenes import SCENES, SceneSpec, build_storyboard, find_scene, make_table

__all__ = [
    "SCENES",
    "Beat",
    "Gap",
    "Highlight",
    "NumberCell",
    "OutputState",
    "SceneOptions",
    "SceneSpec",
    "Storyboard",
    "Window",
    "build_storyboard",
    "find_scene",
    "make_table",
    "resolve_options",
]
