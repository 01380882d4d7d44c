"""Storyboards for the scenes, one module each, found automatically.

Every module in this package that defines ``SPEC`` (a :class:`SceneSpec`)
is a scene; ``SCENES`` lists them in teaching order. A composite scene
(``FullExplainer``) is given the scenes it plays here, so that no scene
module imports this registry.

Building a storyboard from user input (a config file, flags, ``--text``) is
done above this layer, by :func:`embedviz.inputs.prepared_storyboard`.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import replace

from embedviz.core.errors import EmbedvizError
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
    ordered = sorted(specs, key=lambda spec: spec.order)
    single = tuple(spec for spec in ordered if spec.layout != "composite")
    # A composite plays every other scene, in teaching order.
    return {
        spec.name: replace(spec, plays=single) if spec.layout == "composite" else spec
        for spec in ordered
    }


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
