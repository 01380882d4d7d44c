"""Where embedviz keeps what it measured or made once per machine.

Glyph outlines (:mod:`embedviz.render.glyph_cache`) and spoken phrases
(:mod:`embedviz.export.speech_cache`) are kept in the user's cache folder, as
fontconfig keeps its fonts: anything in it can be deleted at any time, and is
made again when it is next needed.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_folder"]


def cache_folder() -> Path:
    """Return the folder of embedviz's per-machine caches.

    Returns
    -------
    Path
        ``$XDG_CACHE_HOME/embedviz``, or ``~/.cache/embedviz``.
    """
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "embedviz"
