"""embedviz: animated, verified explainers of embedding lookups.

Importing this package is cheap: it never imports manim. The layers are
``embedviz.core`` (numpy only), ``embedviz.story`` (scene data) and
``embedviz.render`` (manim), in that dependency order.
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
