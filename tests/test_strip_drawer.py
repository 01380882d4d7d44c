"""A row's strip slides out of its row as a drawer does, and lands in no frame but its own.

Issue 18 asks for one thread of motion: the row lifts as a strip with its
numbers and follows its chip home. A 720p review found an empty amber frame
stretching out of the row across the gap first, its numbers showing only in
the last fifth of the step; and, in ZeroBasedIndexing and ParameterCount, the
empty frame of the place it lands in standing beside the travelling strip (a
double border at its right end). The strip now slides out quickly (its numbers
all read by 40 % of its way), and the landing place's frame comes as the
strip lands. A later review read a strip's numbers shown one by one as it
came out as more values of the row beside them (a lone ``-1.4096`` after a
row): they now show together, once the strip is wholly out, and only level
with its own source row (short of the output block) or its output row: a
third review read a whole copy rising beside E as more values of the rows it
passed, and one beside its own row but over the output block as another
output row's. A strip its chip rides lifts out whole instead, its numbers
shown from its first move and its row's own hidden under it, faint beside
it until it is clear of E (parts/lift.py; its chip never crosses the gap
alone, tests/test_chip_thread.py): no place shows two values, and the row
reads as copied.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import MomentSample, TextSample, sample_moments

from embedviz.inputs import prepared_storyboard
from embedviz.render.moments import play_moments

# Fine enough to catch the strip while it slides out of its row.
ALPHAS = tuple(k / 20 for k in range(1, 20))
SHOWN = 0.5


def _emerging(sample: MomentSample) -> list[tuple[list[TextSample], list[TextSample]]]:
    """Return (the strip's numbers, those shown) for each strip still partly in its row.

    Still in its row: one of its numbers starts left of the right end of its
    source row's numbers (on the row's line). Shown is empty while the row's
    own numbers are hidden or faint (a row lifting out, parts/lift.py).
    """
    found: list[tuple[list[TextSample], list[TextSample]]] = []
    moving = [t for t in sample.texts if t.in_strip and t.cell is not None]
    rows = {(t.cell[0], t.cell[1][:-1]) for t in moving if t.cell is not None}
    for kind, row in rows:
        strip = [
            t for t in moving if t.cell is not None and (t.cell[0], t.cell[1][:-1]) == (kind, row)
        ]
        source = [
            t
            for t in sample.texts
            if not t.in_strip and t.cell is not None and t.cell[0] == kind and t.cell[1][:-1] == row
        ]
        if not source:
            continue
        end = max(float(t.box[1][0]) for t in source)
        if any(float(t.box[0][0]) < end for t in strip):
            # A row that lifts out (parts/lift.py) hides its own numbers, or shows them faint.
            doubled = any(t.opacity >= SHOWN for t in source)
            found.append((strip, [t for t in strip if t.opacity >= SHOWN] if doubled else []))
    return found


@pytest.mark.slow
def test_a_strip_shows_its_numbers_only_once_it_is_wholly_out() -> None:
    samples = sample_moments("SequenceLookup", {}, alphas=ALPHAS)
    lookups = {s.beat.name for s in samples if s.beat.action in ("lookup", "lookup_many")}
    emerging = [(s, found) for s in samples if (found := _emerging(s))]
    # Every lookup is seen while its strip is still partly in its row ...
    assert {s.beat.name for s, _ in emerging} == lookups
    # ... and then none of its numbers shows: beside a row, a part read as more of its values.
    shown = [
        (s.beat.name, s.alpha, [t.text for t in numbers])
        for s, found in emerging
        for _, numbers in found
        if numbers
    ]
    assert not shown, shown[:6]


def _frames_beside_strips(scene: str, landing: Any) -> list[str]:
    """Run ``scene``; return the moments a landing place's frame is drawn while a strip travels."""
    board = prepared_storyboard(scene, None, environ={})
    seen: list[str] = []

    def on(scene_object: Any, moment: Any) -> None:
        family = {id(m) for top in scene_object.mobjects for m in top.get_family()}
        strips = [
            m
            for top in scene_object.mobjects
            for m in top.get_family()
            # A strip built (its carry begun), not yet landed.
            if getattr(m, "row_strip", False) and m.submobjects
        ]
        if not strips:
            return
        for place in landing(scene_object.stage):
            if place is not None and id(place.body) in family:
                seen.append(f"{moment.beat.name} at alpha {moment.alpha:g}")

    play_moments(board, on, alphas=ALPHAS)
    return seen


@pytest.mark.slow
@pytest.mark.parametrize(
    ("scene", "landing"),
    [
        ("ZeroBasedIndexing", lambda stage: [stage.slip.vector, stage.trace.vector]),
        ("ParameterCount", lambda stage: [stage.lookup.copy]),
    ],
    ids=["zero", "params"],
)
def test_no_empty_landing_frame_stands_beside_a_travelling_strip(scene: str, landing: Any) -> None:
    assert not _frames_beside_strips(scene, landing)


def _chip_rides_beside(carry: Any) -> bool:
    """Return whether the strip's own chip stands at its right end now, level with it.

    Measured from the drawn objects: the chip's left edge at most a chip's
    width right of the strip's box (and not inside it), its centre within half
    a row of the strip's centre line.
    """
    chip = carry.chip
    if chip is None:
        return False
    box = carry.strip[0]
    right, centre = float(box.get_right()[0]), float(box.get_center()[1])
    half = float(box.height) / 2
    gap = float(chip.get_left()[0]) - right
    level = abs(float(chip.get_center()[1]) - centre) < half
    return level and -1e-6 <= gap <= float(chip.width)


# Where a strip's numbers go from hidden to shown between two samples, the test also looks
# at every sixtieth of a second between them (the frames a 60 fps render draws): a fade
# shows part-way there wherever the samples fall; a pop (a review saw them pop on in one
# frame) does not.
FRAME = 1 / 60


def _faded_in(opacities: list[float]) -> bool:
    """Return whether the numbers were seen part-way in (a fade, not a pop)."""
    return any(0.05 < opacity < 0.95 for opacity in opacities)


# A strip's numbers are hidden (not yet whole) for a fifth of its ride at most, or, on a
# fast carry, no longer than a fade a viewer sees as one takes: a few frames (the strip
# fades them in over 0.2 s at least), with a sample's spacing to spare. An empty box
# crossing the screen for two seconds (a 720p review) is neither.
FADE_TIME = 0.25


def _misread(
    scene: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[str], int, list[tuple[list[float], list[float], list[float]]], list[float]]:
    """Play ``scene``; return where a strip shows numbers level with neither of its rows.

    A shown number (opacity over 0.05) is fine on its source row's line (half a
    row either side), short of the output block, or on its output row's line,
    or wherever its own chip rides at its right end (the ID says whose they
    are). Anywhere else, beside another row of the matrix or over another
    output row, it reads as that row's values (a 720p review: row 2's copy
    beside output row 3's ID). Also counts the strips seen fully shown before
    they land, and returns, per strip, its numbers' opacity at each sample
    where it is wholly out of the matrix with its chip riding beside it, and
    at each of those seen in the frames (:data:`FRAME`) between its last
    sample before they first show at 0.95 or more and that sample, where no
    sample saw them part-way in, and the play's time at each of those samples;
    and, for rows that lift out (parts/lift.py), their numbers' least opacity
    at each sample under way (they show from the first move: nothing fades in).
    """
    from embedviz.render.parts.strip import Carry

    bad: list[str] = []
    read_early: set[Carry] = set()
    riding: dict[Carry, list[float]] = {}
    between: dict[Carry, list[float]] = {}
    clock: dict[Carry, list[float]] = {}  # the play's time at each of its riding samples
    now: dict[Carry, float | None] = {}  # at this sample: riding, its numbers' opacity
    last: dict[Carry, float] = {}  # the play's time at its last sample in this step
    step: tuple[str, int] = ("", -1)
    refining = False
    lifted: list[float] = []
    original = Carry.interpolate_mobject

    def record(carry: Carry, alpha: float) -> None:
        original(carry, alpha)
        if len(carry.strip.submobjects) < 2 or not carry.targets:
            return
        numbers = carry.strip[1].submobjects
        shown = [n for n in numbers if float(n.get_fill_opacity()) > 0.05]
        beside_chip = _chip_rides_beside(carry)
        # Wholly out: its box drawn whole (not cut at the matrix's edge), right of the matrix.
        row_left, _, row_right, _ = carry.grid.row_box(carry.row, buff=0.0)
        whole = abs(float(carry.strip[0].width) - (row_right - row_left)) < 1e-3
        out = whole and float(carry.strip[0].get_left()[0]) > carry.grid.body_right()
        opacity = None
        if getattr(carry, "lift", False):
            if 0 < alpha < 1 and not refining:
                lifted.append(min(float(n.get_fill_opacity()) for n in numbers))
        elif beside_chip and out and alpha < 1:
            opacity = min(float(n.get_fill_opacity()) for n in numbers)
            (between if refining else riding).setdefault(carry, []).append(opacity)
            if not refining and carry.scene_ref is not None:
                clock.setdefault(carry, []).append(float(carry.scene_ref.last_t))
        if not refining:
            now[carry] = opacity
        if not shown:
            return
        _, bottom, _, top = carry.grid.row_box(carry.row, buff=0.0)
        half = (top - bottom) / 2
        source = (top + bottom) / 2
        target = float(np.mean([t.get_center()[1] for t in carry.targets]))
        block_left = min(float(t.get_left()[0]) for t in carry.targets)
        centre = float(np.mean([n.get_center()[1] for n in numbers]))
        right = max(float(n.get_right()[0]) for n in numbers)
        beside = abs(centre - source) < half and right <= block_left + 1e-6
        if not beside and abs(centre - target) >= half and not beside_chip:
            bad.append(f"row {carry.row} at {alpha:.3f}: {centre - source:+.2f} off its row")
        if alpha < 1 and all(float(n.get_fill_opacity()) >= 1 - 1e-6 for n in numbers):
            read_early.add(carry)

    def look_between(playing: Any, moment: Any) -> None:
        """Where a strip's numbers first show whole, look at the frames since its last sample."""
        nonlocal refining, step
        # A beat's end, or the next step (sampled from its own start: the clock goes back).
        if moment.alpha >= 1 or (moment.beat.name, moment.step) != step:
            last.clear()
        step = (moment.beat.name, moment.step)
        if moment.alpha >= 1:
            now.clear()
            return
        at = float(playing.last_t)
        for carry, opacity in list(now.items()):
            earlier = riding.get(carry, [])[:-1]  # (this sample's is the last)
            first = opacity is not None and opacity >= 0.95 and max(earlier, default=0) < 0.95
            if first and carry in last and not _faded_in(earlier):
                refining = True
                for k in range(1, int(np.ceil((at - last[carry]) / FRAME))):
                    playing.update_to_time(last[carry] + k * FRAME)
                playing.update_to_time(at)
                refining = False
            last[carry] = at
        now.clear()

    monkeypatch.setattr(Carry, "interpolate_mobject", record)
    board = prepared_storyboard(scene, None, environ={})
    play_moments(board, look_between, alphas=tuple(k / 80 for k in range(1, 80)))
    found = [(v, between.get(c, []), clock.get(c, [])) for c, v in riding.items()]
    return bad, len(read_early), found, lifted


@pytest.mark.slow
@pytest.mark.parametrize("scene", ["SequenceLookup", "SingleTokenLookup", "BatchLookup"])
def test_a_strips_numbers_show_only_level_with_its_own_rows(
    scene: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad, read_early, riding, lifted = _misread(scene, monkeypatch)
    # Every scene's strips read whole before they land (as they slide into their row) ...
    assert read_early, "no strip read before it landed"
    # ... and never level with another row, unless their own chip rides beside them.
    assert not bad, bad[:6]
    # Out of the matrix with its chip at its right end, a strip carries its numbers home:
    # an empty amber box crossed the screen for two seconds (a 720p review).
    # They fade in as it clears the matrix's edge (a review saw them pop on in one frame),
    # over a fifth of its ride at most, or over a few frames (FADE_TIME) on a fast carry.
    # A row that lifts out shows its numbers from its first move (it was shown in E).
    assert riding or lifted, "no strip seen riding home with its chip"
    assert all(opacity >= 1 - 1e-6 for opacity in lifted), "a lifting row's numbers hid"
    for opacities, frames, times in riding:
        hidden = sum(opacity < 1 - 1e-6 for opacity in opacities)
        whole = next((t for t, o in zip(times, opacities, strict=True) if o >= 1 - 1e-6), times[-1])
        spacing = (times[-1] - times[0]) / max(1, len(times) - 1)
        quick = whole - times[0] <= FADE_TIME + spacing
        assert quick or hidden <= max(1, len(opacities) // 5), (
            f"{hidden} of {len(opacities)} hidden, for {whole - times[0]:.3f} s"
        )
        assert _faded_in(opacities + frames), ("its numbers popped on", opacities[:4], frames)


@pytest.mark.slow
def test_numbers_that_pop_on_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fade check above reads the frames where a strip's numbers first show whole, so
    it catches a fade wherever the samples fall; numbers that pop on (no fade at all) show
    part-way in none of them, and are still reported."""
    from embedviz.render.parts import motion, strip

    monkeypatch.setattr(strip, "numbers_fade", lambda seconds, out_at: 1e-9)
    # Every lookup scene's riding rows lift out now (parts/lift.py: nothing fades in), so
    # the batch plays with the plain Carry, its riding strips sliding out of E as they did.
    monkeypatch.setattr(motion, "LiftCarry", strip.Carry)
    _, _, riding, _ = _misread("BatchLookup", monkeypatch)
    assert riding
    assert not any(_faded_in(opacities + frames) for opacities, frames, _ in riding)
    # The frames between were read (the first sample already showed them whole).
    assert all(frames for _, frames, _ in riding)
