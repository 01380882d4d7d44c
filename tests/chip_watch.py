"""What tests/test_chip_pace.py and tests/test_chip_docks.py read of the chips, sample by sample.

Both files sampled the lookup scenes at every fortieth of each lookup beat at
720p, each in its own plays of the same scenes; tests/carry_plays.py plays the
same scenes at the same alphas for its carries. These watchers ride along in
that one play (``carry_play_cache``), so a scene is played once for all of
them. Each watcher reads only its own beats' moments, as the plays that read
only those beats did; it keeps what it saw as plain numbers and strings, so a
play can be shared between test workers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from carry_plays import drawn_box
from conftest import box_of
from manim import config
from test_lookup_outlines import _row_outlines  # the amber row outlines drawn now

from embedviz.render.metrics import char_advance
from embedviz.render.parts.chips import number_gap
from embedviz.render.solver_across import TAG_GAP

# The scenes whose chips fetch rows: the only plays these watchers read.
CHIP_SCENES = frozenset({"SequenceLookup", "BatchLookup", "SingleTokenLookup", "LargeVocabLookup"})
# test_chip_docks: the beats whose chips fetch rows (LargeVocabLookup's scroll first,
# or fill the rest); test_chip_pace reads the ``lookup`` beats only.
LOOKUPS = ("lookup", "scroll_lookup", "fill_rest")
PX = 1280 / float(config.frame_width)
# ThreadWatch: a copy shows where some of it is drawn at least this opaque.
THREAD_SHOWN = 0.5


class PaceWatch:
    """By lookup beat, the fastest a chip moved between two samples of one step, and where."""

    def __init__(self) -> None:
        self.last: dict[int, tuple[str, int, float, np.ndarray]] = {}
        self.fastest: dict[str, tuple[float, str]] = {}
        self.sampled = 0

    def read(self, played: Any, moment: Any) -> None:
        """Read one moment (a ``lookup`` beat's samples only, not its end)."""
        if moment.beat.action != "lookup" or moment.alpha >= 1.0:
            return
        self.sampled += 1
        for index, chip in enumerate(played.stage.chips.chips):
            here = np.array(chip.get_center()[:2], dtype=float)
            before = self.last.get(index)
            self.last[index] = (moment.beat.name, moment.step, moment.time, here)
            if before is None or before[:2] != (moment.beat.name, moment.step):
                continue
            seconds = moment.time - before[2]
            if seconds <= 1e-6:
                continue
            speed = float(np.linalg.norm(here - before[3])) / seconds / config.frame_width
            if speed > self.fastest.get(moment.beat.name, (0.0, ""))[0]:
                where = f"{moment.beat.name} step {moment.step} at {moment.time:.2f} s"
                self.fastest[moment.beat.name] = (speed, where)


def _bound(motion: Any) -> float:
    """Return the most ground a docked chip leaves: a tag's row-number gap and a digit's column."""
    label = motion.plan.scale.label
    return float(number_gap(label) + char_advance(label))


def _outlines(scene: Any, motion: Any) -> dict[int, np.ndarray]:
    """Return the box of every amber row outline of E drawn now, by row (half shown or more)."""
    assert scene.stage.matrix is motion.matrix, "the outlines are read on the motion's own E"
    return {row: box for row, box, _ in _row_outlines(scene)}


def _strip_box(carry: Any) -> np.ndarray | None:
    """Return the drawn part of a carry's strip now, (left, bottom, right, top) (None: none shows).

    Read along its length (:func:`carry_plays.drawn_box`): sliding out of E its box is
    shaded cell by cell, and its left end's opacity (``get_stroke_opacity()``) read 0.
    """
    drawn = drawn_box(carry.strip)
    return None if drawn is None else np.array(drawn)


def apart(one: np.ndarray, other: np.ndarray) -> float:
    """Return how far apart two boxes stand (negative: they overlap)."""
    across = max(other[0] - one[2], one[0] - other[2])
    down = max(other[1] - one[3], one[1] - other[3])
    if across >= 0 and down >= 0:
        return float(np.hypot(across, down))
    return float(max(across, down))


class DockWatch:
    """Where each fetching chip stands against its row in E and beside its travelling copy."""

    def __init__(self) -> None:
        self.with_copy: list[str] = []
        # By (beat, chip, other chip): the nearest a riding chip came, and they stand at the end.
        self.near: dict[tuple[str, int, int], tuple[float, str]] = {}
        self.ends: dict[tuple[str, int, int], float] = {}
        self.covers: list[str] = []
        self.copies = 0
        # By (beat, chip): every gap to its outlined row while level with it, whether still.
        self.gaps: dict[tuple[str, int], list[tuple[float, bool, str]]] = {}
        self.last: dict[int, tuple[str, int, np.ndarray]] = {}
        self.bound = 0.0

    def read(self, scene: Any, moment: Any) -> None:
        """Read one moment (the :data:`LOOKUPS` beats' only)."""
        if moment.beat.action not in LOOKUPS:
            return
        motion = scene.stage.motion
        boxes = [box_of(chip).ravel() for chip in motion.chips.chips]
        if moment.alpha >= 1.0:
            for (beat, one, other), _ in self.near.items():
                if beat == moment.beat.name:
                    self.ends[beat, one, other] = apart(boxes[one], boxes[other])
            return
        self.bound = _bound(motion)
        where = f"{moment.beat.name} s{moment.step + 1} a{moment.alpha:.3f}"
        travelling = {}
        landed = [n for carry in motion.carries if carry.landed for n in carry.targets]
        for carry in motion.carries:
            shown = None if carry.landed else _strip_box(carry)
            if shown is not None and carry.chip is not None:
                travelling[id(carry.chip)] = shown
        output_left = box_of(motion.output.grid.body)[0][0]
        outlines = _outlines(scene, motion)
        chips = zip(motion.output.positions, motion.chips.chips, strict=True)
        for index, (position, chip) in enumerate(chips):
            (left, bottom), (right, top) = box_of(chip)
            middle, here = (bottom + top) / 2, np.array([left, bottom])
            before = self.last.get(index)
            self.last[index] = (moment.beat.name, moment.step, here)
            still = before is not None and before[:2] == (moment.beat.name, moment.step)
            still = still and float(np.abs(here - before[2]).max()) < 1e-6
            strip = travelling.get(id(chip))
            if strip is not None:
                self._riding(moment, where, index, chip, strip, boxes, landed, middle, left)
                continue
            row = int(motion.cells[("token_id", position)].value)
            box = outlines.get(row)
            if box is None or right > output_left or not box[1] <= middle <= box[3]:
                continue
            if left >= box[0]:
                gap = (left - box[2], still, where)
                self.gaps.setdefault((moment.beat.name, index), []).append(gap)

    def _riding(
        self,
        moment: Any,
        where: str,
        index: int,
        chip: Any,
        strip: np.ndarray,
        boxes: list[np.ndarray],
        landed: list[Any],
        middle: float,
        left: float,
    ) -> None:
        """Read a chip beside its travelling copy: what it covers, how near it passes others."""
        self.copies += 1
        for number in landed:
            if apart(boxes[index], box_of(number).ravel()) < 0:
                self.covers.append(f"{where}: chip {index} covers {number.cell.value}")
        for other, box in enumerate(boxes):
            gap = apart(boxes[index], box) if other != index else np.inf
            key = (moment.beat.name, index, other)
            if gap < self.near.get(key, (np.inf, ""))[0]:
                seen = f"{where}: chip {index} {gap * PX:.1f} px from chip {other}"
                self.near[key] = (gap, seen)
        level = bool(strip[1] <= middle <= strip[3])
        gap = left - strip[2]
        if not level or not -1e-6 <= gap <= self.bound:
            self.with_copy.append(
                f"{where}: chip {chip.number.cell.value} {gap * PX:.0f} px right of "
                f"its copy (bound {self.bound * PX:.0f} px), level: {level}"
            )

    def result(self) -> tuple[int, int, list[str], list[str], list[str]]:
        """Return (docks sampled, samples with a copy, chips docked far, chips far from a copy,
        chips riding home over a landed number or too near another chip)."""
        far = []
        for (_beat, index), seen in self.gaps.items():
            # Where it stops: its nearest to its row, and wherever it stands still level with it.
            nearest = min(seen)
            for gap, still, where in seen:
                if (still or (gap, still, where) == nearest) and gap > self.bound:
                    far.append(
                        f"{where}: chip {index} {gap * PX:.0f} px right of its row's outline "
                        f"(bound {self.bound * PX:.0f} px){', standing still' if still else ''}"
                    )
        # A riding chip passes another at least as far as a tag stands from the row it tags
        # (TAG_GAP), or as near as the two stand once it has landed (tags in one column).
        brushes = [
            f"{seen} (at most {min(TAG_GAP, self.ends[key]) * PX:.1f} px)"
            for key, (gap, seen) in self.near.items()
            if gap < min(TAG_GAP, self.ends[key]) - 1e-6
        ]
        return len(self.gaps), self.copies, far, self.with_copy, self.covers + brushes


class ThreadWatch:
    """Where a chip riding home with its copy stands while none of that copy shows.

    One thread of motion (issue 18): from its row to its tag the chip and its
    row's copy travel as one. Sampled in each lookup beat: every chip whose
    carry is under way (its strip built, not landed) and rides (``carry.rides``).
    """

    def __init__(self) -> None:
        self.riding = 0
        self.alone: list[str] = []

    def read(self, scene: Any, moment: Any) -> None:
        """Read one moment (the :data:`LOOKUPS` beats' samples, not their ends)."""
        if moment.beat.action not in LOOKUPS or moment.alpha >= 1.0:
            return
        motion = scene.stage.motion
        block = box_of(motion.output.grid.body).ravel()
        edge = float(box_of(motion.matrix.grid.body)[1][0])
        for carry in motion.carries:
            chip = carry.chip
            if chip is None or carry.landed or not carry.rides or len(carry.strip) < 3:
                continue
            self.riding += 1
            # Shown: some of its copy drawn at half opacity or more (a faint copy reads as none).
            if drawn_box(carry.strip, faint=THREAD_SHOWN) is not None:
                continue
            box = box_of(chip).ravel()
            dock = float(motion.plan.park_x(chip.width))
            if abs((box[0] + box[2]) / 2 - dock) * PX <= 1.0:
                continue  # still docked beside its row
            inside = apart(box, block) < 0
            where = "in the output block" if inside else f"{(box[0] - edge) * PX:.0f} px right of E"
            self.alone.append(
                f"{moment.beat.name} s{moment.step + 1} a{moment.alpha:.3f} ({moment.time:.2f} s): "
                f"chip {chip.number.text} {where}, none of its copy shown"
            )

    def result(self) -> tuple[int, list[str]]:
        """Return (riding samples, samples of a riding chip off its dock with no copy shown)."""
        return self.riding, self.alone
