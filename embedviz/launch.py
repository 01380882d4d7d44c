"""Start the command line with stop signals handled from its first moment.

``python -m embedviz`` and the ``embedviz`` script start here. Importing
what the command line needs (numpy, then manim) takes a noticeable part of a
second, and a stop in that time used to end in a ``KeyboardInterrupt``
traceback (Ctrl-C) or a silent death (SIGTERM). This module imports nothing
but the standard library and installs its handlers before anything else:
a stop during start-up, or on the way out once the command has returned,
ends at once with one line and exit status 130 (Ctrl-C) or 143 (SIGTERM).
While a command runs, :func:`embedviz.cli.main` has its own handlers.

Only the moment before Python runs any of embedviz (the interpreter's own
start-up, a few milliseconds) is out of reach.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Sequence

__all__ = ["run"]


def _stop_now(signum: int, frame: object) -> None:
    """Report a stop outside a command in one line, and exit with its status at once."""
    state = sys.modules.get("embedviz.export.publishing")
    if state is not None and state.published():
        line = "embedviz: done; the stop came after publishing"
    elif signum == signal.SIGTERM:
        line = "embedviz: terminated; nothing was replaced"
    else:
        line = "embedviz: interrupted; nothing was replaced"
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    with contextlib.suppress(OSError):
        os.write(2, (line + "\n").encode())
    os._exit(128 + signum)


def _threads_left() -> bool:
    return any(
        thread.is_alive() and not thread.daemon and thread is not threading.main_thread()
        for thread in threading.enumerate()
    )


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line, with stop signals handled from start to end.

    Parameters
    ----------
    argv
        Arguments without the program name; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        The exit status.
    """
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _stop_now)
    from embedviz.cli import main

    status = main(argv)
    if status in (130, 143) and _threads_left():
        # A stopped render can leave worker threads that would hold the exit forever;
        # everything embedviz wrote is already cleaned up, so leave without them.
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(status)
    return status
