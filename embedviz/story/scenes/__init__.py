"""Storyboards for the scenes, one module each, found automatically.

Every module in this package that defines ``SPEC`` (a :class:`SceneSpec`)
is a scene; ``SCENES`` lists them in teaching order.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from embedviz.core.errors import EmbedvizError
from embedviz.story.model import Storyboard
from embedviz.story.options import resolve_options
from embedviz.story.scenes.common import (
    MAX_SEQUENCE_TOKENS,
    SceneSpec,
    make_table,
    ordinal,
)

__all__ = [
    "MAX_SEQUENCE_TOKENS",
    "SCENES",
    "SceneSpec",
    "build_storyboard",
    "find_scene",
    "make_table",
    "ordinal",
]


def _discover() -> dict[str, SceneSpec]:
    specs: list[SceneSpec] = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        spec = getattr(module, "SPEC", None)
        if isinstance(spec, SceneSpec):
            specs.append(spec)
    return {spec.name: spec for spec in sorted(specs, key=lambda spec: spec.order)}


SCENES: dict[str, SceneSpec] = _discover()


def find_scene(name: str) -> SceneSpec:
    """Find a scene by class name or alias, ignoring case.

    Parameters
    ----------
    name
        ``SequenceLookup``, ``sequence``, ...

    Returns
    -------
    SceneSpec
        The scene.

    Raises
    ------
    EmbedvizError
        If no scene has that name.
    """
    wanted = name.strip().lower()
    for spec in SCENES.values():
        if wanted in (spec.name.lower(), spec.alias):
            return spec
    known = ", ".join(f"{spec.name} ({spec.alias})" for spec in SCENES.values())
    raise EmbedvizError(f"unknown scene {name!r}; choose one of {known}")


def build_storyboard(
    scene: str, overrides: dict[str, Any] | None = None, **resolve_kwargs: Any
) -> Storyboard:
    """Resolve options (file, environment, overrides) and build a storyboard.

    Parameters
    ----------
    scene
        Class name or alias.
    overrides
        Explicit options, as from command-line flags.
    **resolve_kwargs
        Passed to :func:`embedviz.story.options.resolve_options`
        (``cwd``, ``environ``).

    Returns
    -------
    Storyboard
        The scene data.
    """
    spec = find_scene(scene)
    options = resolve_options(overrides, scene=spec.name, defaults=spec.defaults, **resolve_kwargs)
    return spec.make(options)
