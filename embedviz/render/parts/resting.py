"""Where the lookup family's blocks rest between lookups: where they fill the frame best.

The solver places the output block where every strip's path is clear; between
lookups that place can leave a large part of the frame empty (a corridor, a
band under the block). :func:`rest_blocks` moves the matrix and the block to
where they rest (see :meth:`~embedviz.render.parts.motion.LookupMotion.rest`
and :meth:`~embedviz.render.parts.motion.LookupMotion.rest_matrix`); every
lookup beat glides them to the solver's places first when its strips need it.

Used by every stage built on the lookup family's parts (LookupStage,
PositionStage).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence

from manim import Mobject, config

from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import MARGIN, SPACE
from embedviz.render.parts.level import strips_over
from embedviz.render.parts.motion import LookupMotion
from embedviz.render.routes import clear_order
from embedviz.render.space import EMPTY_SHARE, Box, best_drop, largest_empty_rectangle
from embedviz.story.model import Beat, Storyboard

__all__ = [
    "hold_lookups",
    "legend_across",
    "legend_room",
    "level_up",
    "parted_through",
    "rest_across",
    "rest_blocks",
    "rest_legend",
    "under_block",
]

# The output block rests this many rows lower at most, tried in these steps.
_REST_STEPS = 4
# The shares of the corridor the matrix closes by resting right, tried between 0 and 1.
_REST_STEPS_ACROSS = 20


def _across(box: Box, dx: float) -> Box:
    """Return ``box`` moved ``dx`` across."""
    return (box[0] + dx, box[1], box[2] + dx, box[3])


def rest_blocks(
    motion: LookupMotion, board: Storyboard, title: Mobject, fixed: Sequence[Mobject] = ()
) -> None:
    """Rest the matrix and the output block where they leave the least of the frame empty.

    Parameters
    ----------
    motion
        The lookup's motion, with the parts it moves.
    board
        The storyboard (its lookup beats say which strips must find a clear path).
    title
        The title: the frame measured is the band between it and the caption.
    fixed
        What else stands still and counts from the start (a PyTorch print that
        comes later: the block must rest clear of it).
    """
    rest_across(motion, title)
    motion.rest(_rest_drop(motion, board, title, fixed))


def lane_parts(motion: LookupMotion) -> list[Mobject]:
    """Return the chips waiting over E and their label (a lane's): they stay as the blocks rest."""
    if getattr(motion.plan, "lane", None) is None:
        return []
    return [motion.chips.heading, *motion.chips.chips]


def rest_across(motion: LookupMotion, title: Mobject, slide: float | None = None) -> None:
    """Close the corridor, empty between lookups: the matrix and the block rest together.

    Of the :attr:`~embedviz.render.solver.LookupPlan.rest_slide` they close
    by, the matrix takes the share that leaves the smallest empty area
    (the rest of the frame is shared out left and right), but the block
    rests at least :attr:`~embedviz.render.solver.LookupPlan.marks_overflow`
    left: its late marks show there. Unless that leaves more than
    :data:`~embedviz.render.space.EMPTY_SHARE` of the frame empty until they
    come (the marks' empty column, when they name both rows: ``out[9] =
    out[6]``): the blocks then rest where the frame is fullest, and glide left
    together just before the marks show, by what the marks still lack
    (:attr:`~embedviz.render.parts.motion.LookupMotion.late_shift`). ``slide``: close
    by that much instead (a corridor kept open enough for what stands in it at the end).
    """
    slide = motion.plan.rest_slide if slide is None else slide
    if slide <= 0:
        return
    largest = 1.0 - motion.plan.marks_overflow / slide
    legend: list[Mobject] = [motion.matrix.legend] if motion.matrix.legend is not None else []
    legend += lane_parts(motion)
    matrix = mobject_boxes(motion.matrix_side())
    # The block as the first beats show it: row numbers that come with a later beat
    # leave their column empty until then (a batch's slices show theirs from the start).
    later = [] if getattr(motion.output, "numbered", True) else [motion.output.numbers]
    block = mobject_boxes([m for m in motion.output_side() if m not in later])
    band = content_band(title)

    def empty(share: float) -> float:
        right, left = share * slide, (1 - share) * slide
        boxes = [_across(b, right) for b in matrix] + [_across(b, -left) for b in block]
        return largest_empty_rectangle([*mobject_boxes(legend), *boxes], band).area

    shares = [k / _REST_STEPS_ACROSS for k in range(_REST_STEPS_ACROSS + 1)]
    share = min([s for s in shares if s <= largest + 1e-9] or [0.0], key=empty)
    fullest = min(shares, key=empty)
    frame = float(config.frame_width) * float(config.frame_height)
    if empty(share) > EMPTY_SHARE * frame and empty(fullest) < empty(share):
        share = fullest
    motion.rest_matrix(share * slide)
    motion.rest(0.0, (1 - share) * slide)
    motion.late_shift = max(0.0, motion.plan.marks_overflow - (1 - share) * slide)


def _rest_drop(
    motion: LookupMotion, board: Storyboard, title: Mobject, fixed: Sequence[Mobject]
) -> float:
    """How far below the solver's place the output block rests: where it fills the frame best.

    Measured from the parts' boxes, between the title and the caption; of
    the drops that leave no empty area over an eighth of the frame, one
    that makes no beat glide the block up (to clear a strip's path) wins,
    then one that lines the block up with the matrix (top, middle or
    bottom), then the fullest frame.
    """
    still = mobject_boxes([*motion.matrix.intro(), *lane_parts(motion), *fixed])
    moving = mobject_boxes(motion.output_side())
    band = content_band(title)
    step = motion.plan.sizes.row_height / _REST_STEPS
    drops = [k * step for k in range(int((band[3] - band[1]) / step) + 1)]
    matrix, output = motion.matrix.grid, motion.output.grid
    # The drops that put the block's top, middle or bottom level with the matrix's.
    top = output.body_top() - matrix.body_top()
    taller = matrix.height_of_body - output.height_of_body
    aligned = [d for d in (top, top + taller / 2, top + taller) if d >= 0]

    area = float(config.frame_width * config.frame_height)
    emptied = _lane_emptied(motion, fixed, band, area)

    def cost(drop: float) -> int:
        lined_up = any(abs(drop - d) < 1e-9 for d in aligned)
        return 4 * emptied(drop) + 2 * _glides(motion, board, drop) + (0 if lined_up else 1)

    drop, _ = best_drop(still, moving, band, [*aligned, *drops], area, cost)
    return drop


def _lane_emptied(
    motion: LookupMotion, fixed: Sequence[Mobject], band: Box, area: float
) -> Callable[[float], bool]:
    """Whether, were the block ``drop`` lower, it leaves too much empty once the lane has emptied.

    Every chip then stands as its row's tag, moving with the block, and the band
    over E they waited in is empty (a lane plan's: else never).
    """
    lane = lane_parts(motion)
    if not lane:
        return lambda drop: False
    still = mobject_boxes([*motion.matrix.intro(), lane[0], *fixed])
    chips = motion.chips.chips
    moving = mobject_boxes(motion.output_side())
    for chip, home in zip(chips, motion.chips.homes, strict=True):
        dx, dy = home[:2] - chip.get_center()[:2]
        moving += [(b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy) for b in mobject_boxes([chip])]

    def emptied(drop: float) -> bool:
        moved = [(b[0], b[1] - drop, b[2], b[3] - drop) for b in moving]
        return largest_empty_rectangle([*still, *moved], band).area > EMPTY_SHARE * area

    return emptied


def _glides(motion: LookupMotion, board: Storyboard, drop: float) -> int:
    """How many lookup beats would have to glide the block up, were it ``drop`` lower."""
    if motion.plan.mode == "corridor":
        return 0  # the strips go down the corridor, clear of the block wherever it is
    return sum(_rising(motion, board, drop).values())


def _rising(motion: LookupMotion, board: Storyboard, drop: float) -> dict[str, bool]:
    """Whether each lookup beat (by name) would glide the block up, were it ``drop`` lower.

    It would where a strip's path crosses a filled row, or where a strip would
    slide out level with an output row not its own (:func:`strips_over`) and at
    the solver's place would not: gliding there helps only then.
    """
    grid = motion.matrix.grid
    top = grid.body_top()
    centres = {row: top - grid.row_y(row) for row in grid.get_rows()}
    positions = motion.output.positions
    sources = [int(motion.cells[("token_id", p)].value) for p in positions]
    here = motion.output.grid.body_top() - drop - top
    solver = motion.output.grid.body_top() + motion.lift - top
    row_h = motion.plan.sizes.row_height
    over = strips_over(motion.plan)
    rising: dict[str, bool] = {}
    for beat, filled, landing in _lookup_walk(motion, board):
        crossing = clear_order(sources, centres, row_h, here, filled, landing) is None
        level = [
            over and clear_order(sources, centres, row_h, at, filled, landing, True) is None
            for at in (here, solver)
        ]
        rising[beat.name] = crossing or (level[0] and not level[1])
    return rising


def _lookup_walk(
    motion: LookupMotion, board: Storyboard
) -> Iterator[tuple[Beat, list[int], list[int]]]:
    """Yield each lookup beat, the output rows filled before it, and the rows it lands."""
    positions = motion.output.positions
    filled: list[int] = []
    for beat in board.beats:
        if beat.action not in ("lookup", "lookup_many") or beat.output is None:
            continue
        rows = [positions.index(p) for p in beat.output.filled]
        landing = [r for r in rows if r not in filled]
        yield beat, list(filled), landing
        filled += landing


def parted_through(motion: LookupMotion, board: Storyboard) -> set[str]:
    """Return the lookup beats after which the blocks stay parted: the next beat parts them too.

    Two lookup beats in a row that both part the blocks (glide the block up,
    or the blocks apart to open the corridor) would close them at the first
    one's end only to part them again at the next one's start: a churn of
    tables gliding to and fro between lookups. They part once, before the
    first, and close once, after the last. (The open corridor at the first
    one's end is where the next beat's strips go: tests/test_moments.py's
    empty-area rule counts it so.) Call it once the blocks rest
    (:func:`rest_blocks`).
    """
    parting = motion.slide > 0 or motion.matrix_slide > 0
    if parting and motion.plan.mode == "corridor":
        parts = {b.name: True for b in board.beats if b.action in ("lookup", "lookup_many")}
    else:
        parts = _rising(motion, board, 0.0)
    beats = list(board.beats)
    kept = {
        a.name
        for a, b in itertools.pairwise(beats)
        if parts.get(a.name, False) and parts.get(b.name, False)
    }
    if parting and motion.plan.marks_inside:
        # The late marks stand in the corridor the lookups opened: it stays open after the
        # last (closing it slid the block across the frame at 62 s for MiniLM's sentence).
        kept |= {name for name, parted in parts.items() if parted}
    return kept


def hold_lookups(motion: LookupMotion, board: Storyboard) -> None:
    """Hold the block where the solver put it through a run of lookups that needs it there.

    A block that rose for one beat's strips and came back at its end (the
    last lookup of the default sequence, GPT-2's second) read as a jitter to
    a teacher: it glided up and back within a few seconds while chips walked.
    Of each run of lookup beats one of which would glide the block up, the
    block now glides up once, before the earliest beat it may (each beat end
    it stands raised at must be the road of the next beat's strips: one of
    them comes in under the block, so the room left there is theirs), holds
    still through the run's last beat, and glides back once every strip of
    the run has landed. Sets ``motion.held`` and adds the run to
    ``motion.stays_open``. Call it once the blocks rest (:func:`rest_blocks`).

    A run's first beat whose end the next beat's strips would not use (none
    comes in under the block) would end with the room under the raised block
    empty (GPT-2's first lookup: 22 % of the frame): where its one strip may
    slide straight into its output row, the block stands there for it
    instead (``motion.places``, see :func:`_level_place`), and glides on to
    the solver's place with the next beat. Not where that beat comes right
    after the ``reveal`` and its strip comes in under the raised block: the
    block rises in the reveal then (:mod:`~embedviz.render.parts.early_rise`)
    and keeps one place through the lookups (GPT-2's IDs stood it in three
    places at three beat ends, its rule's card over it, then under it).
    """
    if motion.plan.mode == "corridor" or motion.lift <= 0:
        return
    rising = _rising(motion, board, 0.0)
    beats = [b for b in board.beats if b.name in rising]
    names = [b.name for b in board.beats]
    under = under_block(motion, board)
    start = 0
    while start < len(beats):
        if not rising[beats[start].name]:
            start += 1
            continue
        first = last = start
        # Back while the beat before ends in the run, and this beat's strips come in under.
        while first > 0 and _next(names, beats[first - 1], beats[first]) and under[first]:
            first -= 1
        while last + 1 < len(beats) and _next(names, beats[last], beats[last + 1]):
            if not (under[last + 1] or rising[beats[last + 1].name]):
                break
            last += 1
        run = [b.name for b in beats[first : last + 1]]
        lone = last > first and not under[first + 1]  # its end is not the next beat's road
        # Right after the reveal it rises there instead (parts/early_rise): one place throughout.
        lone = lone and not (under[first] and _after_reveal(board, beats[first]))
        place = _level_place(motion, board, run[0]) if lone else None
        if place is not None:
            motion.places[run[0]] = place
        motion.held.update(run[1:] if place is not None else run)
        motion.stays_open.update(run[:-1])
        start = last + 1


def _level_place(motion: LookupMotion, board: Storyboard, name: str) -> float | None:
    """How far up (< 0: down) the block glides for beat ``name``'s one strip to slide in level.

    None where the beat lands more than one row, or :func:`level_up` finds no such place.
    """
    for beat, filled, landing in _lookup_walk(motion, board):
        if beat.name == name:
            return level_up(motion, filled, landing[0]) if len(landing) == 1 else None
    return None


def level_up(motion: LookupMotion, filled: list[int], row: int) -> float | None:
    """How far up (< 0: down) the block glides for output ``row``'s strip to slide in level.

    None where its source row is not drawn, or the block would stand past the
    matrix body's bottom or above the solver's place, or the strip's path
    would not be clear there (``filled``: the output rows filled before).
    """
    grid, output = motion.matrix.grid, motion.output
    sources = [int(motion.cells[("token_id", p)].value) for p in output.positions]
    if sources[row] not in grid.get_rows():
        return None
    up = float(grid.row_y(sources[row]) - output.grid.row_y(row))
    body = output.grid.body
    if body.get_bottom()[1] + up < grid.body.get_bottom()[1] - 1e-6 or up > motion.lift + 1e-6:
        return None
    top = grid.body_top()
    centres = {r: top - grid.row_y(r) for r in grid.get_rows()}
    here = output.grid.body_top() + up - top
    row_h = motion.plan.sizes.row_height
    over = strips_over(motion.plan)
    clear = clear_order(sources, centres, row_h, here, filled, [row], over)
    return None if clear is None else up


def _after_reveal(board: Storyboard, beat: Beat) -> bool:
    """Whether the beat right before ``beat`` is the block's ``reveal``."""
    beats = list(board.beats)
    k = beats.index(beat)
    return k > 0 and beats[k - 1].action == "reveal"


def _next(names: list[str], before: Beat, after: Beat) -> bool:
    """Whether ``after`` is the beat right after ``before``."""
    return names.index(after.name) == names.index(before.name) + 1


def under_block(motion: LookupMotion, board: Storyboard) -> list[bool]:
    """Whether each lookup beat has a strip that comes out under the block at the solver's place."""
    grid = motion.matrix.grid
    positions = motion.output.positions
    # The block's bottom where the solver put it (the motion rests it ``lift`` lower).
    bottom = (
        motion.output.grid.body_top() + motion.lift - len(positions) * motion.plan.sizes.row_height
    )
    half = motion.plan.sizes.row_height / 2
    found: list[bool] = []
    for _, _, landing in _lookup_walk(motion, board):
        rows = [int(motion.cells[("token_id", positions[t])].value) for t in landing]
        drawn = [r for r in rows if r in grid.get_rows()]
        found.append(any(grid.row_y(r) + half <= bottom + 1e-6 for r in drawn))
    return found


def legend_room(legend: Box, drawn: Sequence[Box], band: Box) -> tuple[float, float]:
    """Return how far the legend may glide down and up (``<= 0``, ``>= 0``), clear of ``drawn``.

    It stays :data:`~embedviz.render.design.SPACE` from whatever stands under
    or over it (overlapping it across), and from the band's edges; a legend
    in the title band, beside the title, stays where it is.

    Parameters
    ----------
    legend
        The legend's box.
    drawn
        The boxes of everything else drawn.
    band
        The band between the title and the caption.
    """
    left, bottom, right, top = legend
    if top > band[3] + 1e-9:
        return 0.0, 0.0  # in the title band, beside the title: it stays on the title's line
    across = [b for b in drawn if b[0] < right and b[2] > left]
    floor = max([band[1], *(b[3] for b in across if b[3] <= bottom + 1e-9)])
    ceiling = min([band[3], *(b[1] for b in across if b[1] >= top - 1e-9)])
    return min(0.0, floor + SPACE - bottom), max(0.0, ceiling - SPACE - top)


def legend_across(legend: Box, drawn: Sequence[Box], band: Box) -> tuple[float, float]:
    """Return how far the legend may glide left and right (``<= 0``, ``>= 0``), clear of ``drawn``.

    It stays :data:`~embedviz.render.design.SPACE` from whatever stands beside
    it (within ``SPACE`` of its height), and inside the band's safe margin.

    Parameters
    ----------
    legend
        The legend's box.
    drawn
        The boxes of everything else drawn.
    band
        The band between the title and the caption.
    """
    left, bottom, right, top = legend
    level = [b for b in drawn if b[1] < top + SPACE and b[3] > bottom - SPACE]
    wall_left = max([band[0] + MARGIN, *(b[2] + SPACE for b in level if b[2] <= left + 1e-9)])
    wall_right = min([band[2] - MARGIN, *(b[0] - SPACE for b in level if b[0] >= right - 1e-9)])
    return min(0.0, wall_left - left), max(0.0, wall_right - right)


def rest_legend(
    motion: LookupMotion, board: Storyboard, title: Mobject, shown: Sequence[Mobject]
) -> None:
    """Raise the legend where it leaves the least of the frame empty, while the lookup shows.

    Only up (away from the strips' paths, which run between the matrix's and
    the output's rows), as far as :func:`legend_room` lets it, in twentieths
    of a row: a legend over the matrix otherwise leaves the room over it
    empty up to the title when the output block stands raised. The block
    then rests lower if that fills the frame better (as :func:`rest_blocks`
    rests it), and the legend rises again if it may.

    Parameters
    ----------
    motion
        The lookup's motion (its matrix holds the legend).
    board
        The storyboard (its lookup beats say which strips must find a clear path).
    title
        The title: the frame measured is the band between it and the caption.
    shown
        What stands at the intro (the legend and the title may be among them).
    """
    if motion.matrix.legend is None:
        return
    _raise_legend(motion, title, shown)
    drop = _rest_drop(motion, board, title, ())
    if drop > 1e-9:
        motion.rest(drop)
        _raise_legend(motion, title, shown)


def _raise_legend(motion: LookupMotion, title: Mobject, shown: Sequence[Mobject]) -> None:
    """Raise the legend (:func:`rest_legend`) where the frame is fullest, the block where it is."""
    legend = motion.matrix.legend
    assert legend is not None
    own = mobject_boxes([legend])
    if not own:
        return
    box = (
        min(b[0] for b in own),
        min(b[1] for b in own),
        max(b[2] for b in own),
        max(b[3] for b in own),
    )
    drawn = mobject_boxes(shown, [legend, title])
    band = content_band(title)
    _, high = legend_room(box, drawn, band)
    step = motion.plan.sizes.row_height / 20
    drops = [-k * step for k in range(int(high / step + 1e-9) + 1)]
    area = float(config.frame_width * config.frame_height)
    drop, _ = best_drop(drawn, own, band, drops, area)
    legend.shift((0.0, -drop, 0.0))
