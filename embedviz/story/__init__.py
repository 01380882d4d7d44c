"""Scene data: what each scene shows, beat by beat (stdlib and numpy only).

Building a storyboard from user input (config file, flags, ``--text``) is
the job of :func:`embedviz.inputs.prepared_storyboard`, above this layer.
"""

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
from embedviz.story.options import SceneOptions
from embedviz.story.scenes import SCENES, SceneSpec, find_scene, make_table

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
    "find_scene",
    "json_schema",
    "load_storyboard",
    "make_table",
    "verify_storyboard",
]
