"""Every layout's vocabulary, one small module each, found automatically.

Every module in this package that defines ``LAYOUT`` (a
:class:`~embedviz.story.vocabulary.LayoutSpec`) declares one layout: the
number kinds, beat actions, label roles and words its stage draws. A new
layout is a new module here, a builder in :mod:`embedviz.story.scenes` and a
stage in :mod:`embedviz.render`; nothing else lists the layouts.
"""

from __future__ import annotations

import importlib
import pkgutil

from embedviz.story.vocabulary import LayoutSpec

__all__ = ["ALL_ACTIONS", "ALL_KINDS", "LAYOUTS"]


def _discover() -> dict[str, LayoutSpec]:
    found: dict[str, LayoutSpec] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        spec = getattr(importlib.import_module(f"{__name__}.{info.name}"), "LAYOUT", None)
        if isinstance(spec, LayoutSpec):
            if spec.name in found:
                raise ValueError(f"layout {spec.name!r} is declared twice")
            found[spec.name] = spec
    return found


LAYOUTS: dict[str, LayoutSpec] = _discover()
# Every number kind and every beat action some layout declares.
ALL_KINDS: frozenset[str] = frozenset().union(*(spec.kinds for spec in LAYOUTS.values()))
ALL_ACTIONS: frozenset[str] = frozenset().union(*(spec.actions for spec in LAYOUTS.values()))
