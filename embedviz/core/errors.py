"""The one exception type the project raises for bad input."""

from __future__ import annotations

__all__ = ["EmbedvizError"]


class EmbedvizError(ValueError):
    """A user-facing error whose message is one clear line.

    Every bad input (an ID out of range, a malformed weights file, a table
    that would not fit in memory, ...) raises this type, so the command line
    can print ``str(error)`` and exit with status 2 instead of a traceback.
    """
