"""Publishing is the last thing that can happen: stop signals, the output lock, the test gate.

A command that replaces outputs (``export``, ``render``, ``slides``,
``contact-sheet``) renders into a staging folder and then publishes it: a
few renames, which must happen entirely or not at all, and never twice at
once in one place.

- :func:`signals_held` holds Ctrl-C and SIGTERM back for a block of code, in
  every thread: the handler that runs meanwhile only remembers the signal
  (Python runs signal handlers in the main thread, whichever thread the
  signal reached). What it remembered is delivered when the block ends.
- :func:`publishing` holds them for the whole of publishing, under
  :func:`output_lock`. A signal that arrives while it publishes no longer
  stops anything: under the command line it is reported as "done; the stop
  came after publishing" (see :func:`published` and :func:`late_stop`).
- :func:`output_lock` serialises every run that publishes into one place
  through a lock file there; the second run waits (with a message after a
  second) until the first has published.

For tests, the environment variable :data:`PAUSE_VARIABLE` names a file that
:func:`publishing` creates once it holds the lock and the signals, just
before it publishes; it then waits until the file is removed, which makes the
moment before the swap deterministic.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from embedviz.core.errors import EmbedvizError

__all__ = [
    "LOCK_NAME",
    "PAUSE_VARIABLE",
    "Terminated",
    "forget_stop_signals",
    "late_stop",
    "on_stop_signal",
    "output_lock",
    "published",
    "publishing",
    "signals_held",
]

# The lock file in a folder that runs write into (renders, contact sheets).
LOCK_NAME = ".embedviz-lock"
# The test hook: a file created just before publishing, waited on until it is removed.
PAUSE_VARIABLE = "EMBEDVIZ_TEST_PAUSE_BEFORE_PUBLISH"
# How long a waiting run stays quiet before it says what it waits for, in seconds.
_QUIET_WAIT = 1.0
# The longest the test hook pauses, so that a forgotten file cannot hang a run.
_LONGEST_PAUSE = 300.0
_STOPS = (signal.SIGINT, signal.SIGTERM)


class Terminated(BaseException):
    """SIGTERM, raised in the main thread so that it unwinds like Ctrl-C."""


class _State:
    """What this process's current command has been through (reset per command)."""

    def __init__(self) -> None:
        self.stops: list[int] = []  # every stop signal on_stop_signal received
        self.late: list[int] = []  # stops that arrived while publishing
        self.published = False  # whether anything has been published


_state = _State()
# The output locks this process holds, by lock file, with how deeply each is nested.
_held_locks: dict[str, tuple[int, int]] = {}
_locks_guard = threading.Lock()


def on_stop_signal(signum: int, frame: object) -> None:
    """Handle SIGINT or SIGTERM: remember it, then unwind with its exception.

    Python drops an exception raised while it runs a finalizer or a weakref
    callback ("Exception ignored in ..."), so the signal is also remembered:
    :func:`signals_held` raises it again before anything is published.

    Parameters
    ----------
    signum
        The signal.
    frame
        The interrupted frame (unused).
    """
    _state.stops.append(signum)
    if signum == signal.SIGTERM:
        # Once is enough: let the clean-up run without a second interruption.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Terminated
    raise KeyboardInterrupt


def forget_stop_signals(*, keep_published: bool = False) -> None:
    """Forget the stop signals remembered for a command (at its start and its end).

    Parameters
    ----------
    keep_published
        Keep the record of whether the command published (at its end, so that
        a stop on the way out of the process is still reported honestly).
    """
    _state.stops.clear()
    _state.late.clear()
    if not keep_published:
        _state.published = False


def published() -> bool:
    """Return whether the current command has published its outputs.

    Returns
    -------
    bool
        True once a :func:`publishing` block has finished.
    """
    return _state.published


def late_stop() -> int | None:
    """Return the stop signal that arrived while outputs were published, if any.

    Returns
    -------
    int or None
        SIGINT or SIGTERM; ``None`` when no stop arrived then.
    """
    return _state.late[0] if _state.late else None


def _raise_if_stopped() -> None:
    if _state.stops:
        raise Terminated if _state.stops[-1] == signal.SIGTERM else KeyboardInterrupt


def _deliver(signum: int) -> None:
    """Deliver a held signal to the handler that is now in place (it may raise)."""
    if signal.getsignal(signum) is on_stop_signal:
        on_stop_signal(signum, None)
    signal.raise_signal(signum)


@contextmanager
def signals_held(*, publishing: bool = False) -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while a block runs, in every thread.

    A signal that arrives meanwhile is remembered and delivered when the
    block ends, or, with ``publishing`` under the command line's handler,
    recorded as a stop that came after publishing (see :func:`late_stop`).
    One that arrived earlier but whose exception was lost (see
    :func:`on_stop_signal`) is raised on entry, so nothing is published after
    a stop. Only the main thread can change signal handlers: called from
    another thread, this holds nothing.

    Parameters
    ----------
    publishing
        Whether the block publishes outputs: a stop that arrives while it
        runs then means "done", not "nothing was replaced".

    Yields
    ------
    None
        Inside the block, stop signals are held.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []

    def remember(signum: int, frame: object) -> None:
        arrived.append(signum)

    previous: dict[int, Any] = {}
    try:
        for signum in _STOPS:
            previous[signum] = signal.signal(signum, remember)
        _raise_if_stopped()
        yield
    except BaseException:
        _restore(previous)
        if arrived:
            # Nothing was published: the stop is delivered as it would have been.
            _deliver(arrived[0])
        raise
    _restore(previous)
    if not arrived:
        return
    if publishing and previous.get(arrived[0]) is on_stop_signal:
        _state.late.append(arrived[0])
        return
    _deliver(arrived[0])


def _restore(previous: dict[int, Any]) -> None:
    for signum, handler in previous.items():
        # None: a handler installed outside Python, which cannot be put back; the default can.
        signal.signal(signum, signal.SIG_DFL if handler is None else handler)


def _same_file(descriptor: int, path: Path) -> bool:
    try:
        there = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    here = os.fstat(descriptor)
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _open_lock(lock: Path, what: Path) -> int:
    """Open (creating) the lock file, refusing a link or anything but a regular file."""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        descriptor = os.open(lock, flags, 0o644)
    except OSError as error:
        reason = "it is a link" if os.path.islink(lock) else error.strerror
        raise EmbedvizError(f"cannot lock {what} for writing: {lock} ({reason})") from None
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise EmbedvizError(f"cannot lock {what} for writing: {lock} is not a file")
    return descriptor


def _wait_for_lock(descriptor: int, what: Path, say: Callable[[str], None]) -> None:
    started = time.monotonic()
    told = False
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if not told and time.monotonic() - started > _QUIET_WAIT:
            say(f"embedviz: waiting for another embedviz run to finish writing {what}")
            told = True
        time.sleep(0.02)


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@contextmanager
def output_lock(lock: Path, what: Path, say: Callable[[str], None] = _stderr) -> Iterator[None]:
    """Hold the lock file ``lock`` for writing ``what``: one run at a time.

    The lock is ``flock`` on the file, so it ends with the process, however
    it ends. The file is removed when the lock is released; a run that was
    waiting on a removed file opens the new one and waits again. Nested
    calls for the same lock in one process share it.

    Parameters
    ----------
    lock
        The lock file (created if missing; a link or a non-file is refused).
    what
        The output it protects, for messages.
    say
        Where "waiting for another embedviz run" goes, after a quiet second.

    Yields
    ------
    None
        While the lock is held.

    Raises
    ------
    EmbedvizError
        When the lock file cannot be created, or is a link or not a file.
    """
    key = os.path.abspath(lock)
    with _locks_guard:
        if key in _held_locks:
            descriptor, depth = _held_locks[key]
            _held_locks[key] = (descriptor, depth + 1)
            nested = True
        else:
            nested = False
    if nested:
        try:
            yield
        finally:
            with _locks_guard:
                descriptor, depth = _held_locks[key]
                _held_locks[key] = (descriptor, depth - 1)
        return
    while True:
        descriptor = _open_lock(lock, what)
        try:
            _wait_for_lock(descriptor, what, say)
        except BaseException:
            os.close(descriptor)
            raise
        if _same_file(descriptor, lock):
            break
        os.close(descriptor)  # the holder removed it: lock the new one
    with _locks_guard:
        _held_locks[key] = (descriptor, 1)
    try:
        yield
    finally:
        with _locks_guard:
            del _held_locks[key]
        # Removed while still held, so that no run can lock a file on its way out.
        with contextlib.suppress(OSError):
            if _same_file(descriptor, lock):
                os.unlink(lock)
        os.close(descriptor)


def _pause_for_tests() -> None:
    """Wait while the file named by :data:`PAUSE_VARIABLE` exists (tests only)."""
    name = os.environ.get(PAUSE_VARIABLE)
    if not name:
        return
    gate = Path(name)
    gate.touch()
    deadline = time.monotonic() + _LONGEST_PAUSE
    while gate.exists() and time.monotonic() < deadline:
        time.sleep(0.01)


@contextmanager
def publishing(lock: Path, what: Path) -> Iterator[None]:
    """Publish outputs: under the output lock, with stop signals held throughout.

    Parameters
    ----------
    lock
        The lock file of the place being written (see :func:`output_lock`).
    what
        The output, for messages.

    Yields
    ------
    None
        While the lock and the signals are held; nothing inside is interrupted.
    """
    with output_lock(lock, what), signals_held(publishing=True):
        _pause_for_tests()
        yield
        _state.published = True
