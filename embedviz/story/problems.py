"""Every problem of a storyboard file at once: collected by beat, each with its fix.

Reading a storyboard file stops at nothing it can step over: a beat that
breaks the contract is recorded as a :class:`Problem` and reading goes on
with the next beat, so ``embedviz verify`` names every problem beat in one
run. A beat held too briefly for its phrases (the usual state of a freshly
translated file) is also *repaired* for the rest of the check: it is read
with the duration its fix asks for, so the numbers, labels and IDs are
still compared with the core in the same run.

Pure and stdlib only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from embedviz.story.model import MAX_BEAT_SECONDS, MIN_RUN_TIME, Storyboard, StoryboardError
from embedviz.story.phrases import ceil_ticks

__all__ = [
    "Problem",
    "StoryboardProblemsError",
    "beat_label",
    "beat_labels",
    "by_beat",
    "core_problem",
    "problems_of",
    "timing_fix",
]

# How a message names its beat: "beat 'lookup-1'", or "part 3 (SequenceLookup), beat 'intro'".
_BEAT = re.compile(r"(?:\bpart (\d+)(?: \([^)]*\))?, )?\bbeat '([^']*)'")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a storyboard file.

    Attributes
    ----------
    message
        What is wrong, naming the field (and the beat, where there is one).
    beat
        Which beat it belongs to, e.g. ``beat 'lookup-1'`` or ``part 2, beat
        'intro'``; ``None`` for the storyboard as a whole.
    fix
        How to fix it, where embedviz knows, e.g. ``lengthen 'duration' of
        beat 'lookup-1' to at least 9.6 s, or shorten its narration``.
    """

    message: str
    beat: str | None = None
    fix: str | None = None

    def __str__(self) -> str:
        return f"{self.message}; fix: {self.fix}" if self.fix else self.message


class StoryboardProblemsError(StoryboardError):
    """A storyboard file with one or more problems, all of them in :attr:`problems`.

    Its message is the first problem, and how many more there are, so a
    command that refuses the file still says so in one line.
    """

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        first = str(self.problems[0]) if self.problems else "no problems"
        more = len(self.problems) - 1
        super().__init__(first + (f" (and {more} more; run 'embedviz verify')" if more else ""))

    def prefixed(self, prefix: str) -> StoryboardProblemsError:
        """Return the same problems with ``prefix`` (e.g. the file's name) before each message.

        Parameters
        ----------
        prefix
            E.g. ``lesson.json: ``.

        Returns
        -------
        StoryboardProblemsError
            The prefixed problems.
        """
        return StoryboardProblemsError(
            [Problem(prefix + p.message, p.beat, p.fix) for p in self.problems]
        )


def problems_of(errors: Iterable[StoryboardError]) -> list[Problem]:
    """Flatten errors into their problems (a plain error is one problem).

    Parameters
    ----------
    errors
        Raised while reading a file.

    Returns
    -------
    list of Problem
        In the order given.
    """
    found: list[Problem] = []
    for error in errors:
        if isinstance(error, StoryboardProblemsError):
            found.extend(error.problems)
        else:
            found.append(Problem(str(error)))
    return found


def timing_fix(
    beat: str, run_time: float, duration: float, phrase_seconds: float
) -> tuple[float, float, str] | None:
    """Say how to fix a beat's timing, and the timing that fix gives.

    Parameters
    ----------
    beat
        How to name the beat, e.g. ``beat 'lookup-1'``.
    run_time, duration
        The beat's animation and total seconds, as the file gives them.
    phrase_seconds
        How long its phrases need together.

    Returns
    -------
    tuple or None
        ``(run_time, duration, fix)`` with the repaired timing and the fix in
        words; ``None`` when the timing is fine, or when no duration can fix
        it (then the narration itself is too long, and the file's own
        message says so).
    """
    if not all(math.isfinite(x) for x in (run_time, duration, phrase_seconds)):
        return None  # the file's own message says which number is not one
    needed = ceil_ticks(phrase_seconds)
    if needed > MAX_BEAT_SECONDS:
        return None
    fixes = []
    if run_time < MIN_RUN_TIME:
        fixes.append(f"raise 'run_time' of {beat} to at least {MIN_RUN_TIME:g} s")
        run_time = MIN_RUN_TIME
    shortest = max(run_time, needed)
    if shortest > MAX_BEAT_SECONDS:
        return None
    if duration < shortest:
        if needed > run_time:
            fixes.append(
                f"lengthen 'duration' of {beat} to at least {shortest:g} s, "
                "or shorten its narration"
            )
        else:
            fixes.append(
                f"lengthen 'duration' of {beat} to at least {shortest:g} s, or shorten its "
                f"'run_time' to at most {max(duration, MIN_RUN_TIME):g} s"
            )
        duration = shortest
    elif duration > MAX_BEAT_SECONDS:
        fixes.append(f"shorten 'duration' of {beat} to at most {MAX_BEAT_SECONDS:g} s")
        duration = MAX_BEAT_SECONDS
    if not fixes:
        return None
    return run_time, duration, "; ".join(fixes)


def beat_label(message: str) -> str | None:
    """Return the beat a message names, labelled as in :class:`Problem`: ``part 2, beat 'intro'``.

    Parameters
    ----------
    message
        A problem's message.

    Returns
    -------
    str or None
        The label; ``None`` when the message names no beat.
    """
    match = _BEAT.search(message)
    if match is None:
        return None
    part = f"part {match.group(1)}, " if match.group(1) else ""
    return f"{part}beat '{match.group(2)}'"


def by_beat(
    problems: Iterable[Problem], beats: Sequence[str]
) -> list[tuple[str | None, list[Problem]]]:
    """Group problems by beat, in the order of the storyboard's beats.

    Parameters
    ----------
    problems
        The problems, in any order.
    beats
        Every beat's label, in the storyboard's order (see :func:`beat_label`).

    Returns
    -------
    list of (str or None, list of Problem)
        The storyboard's own problems first (label ``None``), then one group
        per beat that has any, each in the order found.
    """
    groups: dict[str | None, list[Problem]] = {}
    for problem in problems:
        label = problem.beat or beat_label(problem.message)
        groups.setdefault(label, []).append(problem)
    order = {label: number for number, label in enumerate(beats)}
    return sorted(
        groups.items(),
        key=lambda group: -1 if group[0] is None else order.get(group[0], len(order)),
    )


def beat_labels(board: Storyboard) -> list[str]:
    """Return every beat's label, in the storyboard's order (parts counted from 1).

    Parameters
    ----------
    board
        A storyboard.

    Returns
    -------
    list of str
        E.g. ``["beat 'intro'", ...]`` or ``["part 1, beat 'intro'", ...]``.
    """
    if not board.parts:
        return [f"beat {beat.name!r}" for beat in board.beats]
    return [
        f"part {number}, beat {beat.name!r}"
        for number, part in enumerate(board.parts, 1)
        for beat in part.beats
    ]


def core_problem(message: str, scene: str) -> Problem:
    """Return a difference from the core (see ``verify_storyboard``) as a problem with its fix.

    Parameters
    ----------
    message
        One line of :func:`embedviz.story.contract.verify_storyboard`.
    scene
        The storyboard's scene, for the command that writes it again.

    Returns
    -------
    Problem
        The same message, its beat, and how to fix it.
    """
    if ", the core gives " in message:
        fix = (
            "give it the core's value; only the title, language, words, narration and "
            "timing are an author's to change"
        )
    else:
        fix = (
            f"write the storyboard again with 'embedviz storyboard {scene} --json' and carry "
            "your edits over"
        )
    return Problem(message, beat_label(message), fix)
