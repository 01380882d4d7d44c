"""Scene data: what each scene shows, beat by beat (stdlib and numpy only)."""

from __future__ import annotations

from embedviz.story.contract import json_schema, load_storyboard, verify_storyboard
from embedviz.story.model import (
    Beat,
    Gap,
    Highlight,
    NumberCell,
    OutputState,
    Storyboard,
    StoryboardError,
    Window,
)
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
    "StoryboardError",
    "Window",
    "build_storyboard",
    "find_scene",
    "json_schema",
    "load_storyboard",
    "make_table",
    "resolve_options",
    "verify_storyboard",
]
