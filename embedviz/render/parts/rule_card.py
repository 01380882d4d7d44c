"""The lookup's rule on a card beside the output block: ``out[t] = E[ids[t]]`` (issue 18).

From the reveal until the rest of the IDs land, the toy SequenceLookup's
block stands raised for the run of lookups, and GPT-2's stands level with
its first strip's row, then raised: the output side beside it stood empty
(16 to 20 % of the frame, over the issue's eighth). The storyboard records
the rule (the label ``rule``) for those beats; this part sets it with the one
maths voice at the labels' size, on a neutral card as wide as the block, and
stands it in the largest room the output side leaves at each beat's end,
clear of the block where it stands then and of every strip's road while
the card shows. It comes with the last step of its first beat, and goes
early in the first beat without it (before the rest of the strips run).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from manim import Animation, AnimationGroup, Mobject, RoundedRectangle, VGroup, config

from embedviz.render.animations import Steps, beat_steps
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.design import RULE_PAD, SPACE, Theme, maths
from embedviz.render.fades import FadeIn, FadeOut
from embedviz.render.metrics import xyz
from embedviz.render.parts.motion import LookupMotion
from embedviz.render.space import EMPTY_SHARE, Box, Emptiness, largest_empty_rectangle
from embedviz.story.model import Beat, Storyboard

__all__ = ["RuleCard", "card_size", "rule_card", "rule_places"]

# The share of its beat's first step in which the card fades out: done before the strips go far.
_LEAVE_SHARE = 0.3
# The card comes with the beat's last step at least this long (seconds): shorter is a pop.
_COME = 0.5


def rule_card(text: str, theme: Theme, font_size: float, width: float = 0.0) -> VGroup:
    """Return a rule's card: the formula in the text colour on a muted, unfilled frame.

    Parameters
    ----------
    text
        The rule in Typst maths (a storyboard's ``rule`` label, or the batch
        story's :data:`~embedviz.story.scenes.batch.RULE`).
    theme
        The colours.
    font_size
        The labels' size (never larger than the table's digits).
    width
        The card's width at least (a block's); it is never narrower than the
        formula with :data:`~embedviz.render.design.RULE_PAD` each side.
    """
    formula = maths(text, theme.text, font_size)
    frame = RoundedRectangle(
        corner_radius=SPACE,
        width=max(width, float(formula.width) + 2 * RULE_PAD),
        height=float(formula.height) + 2 * RULE_PAD,
        stroke_color=theme.muted,
        stroke_width=2.0,
        fill_opacity=0.0,
    )
    return VGroup(frame, formula.move_to(frame))


def card_size(card: VGroup, scale: float) -> tuple[float, float]:
    """Return a :func:`rule_card`'s width and height set at ``scale`` times its font size.

    The formula scales; its padding (:data:`~embedviz.render.design.RULE_PAD`)
    does not: a card scaled whole kept a tight 6 px at 720p round the toy
    batch's two-line rule (issue 18), where every other card keeps 11.
    """
    frame, formula = card[0], card[1]
    pad_x = (float(frame.width) - float(formula.width)) / 2
    pad_y = (float(frame.height) - float(formula.height)) / 2
    return float(formula.width) * scale + 2 * pad_x, float(formula.height) * scale + 2 * pad_y


class RuleCard:
    """The rule's card: a formula at the labels' size on a neutral frame, placed beat by beat.

    Parameters
    ----------
    text
        The rule in Typst maths (the storyboard's ``rule`` label).
    theme
        The colours: the formula in the text colour, the frame muted (a note).
    font_size
        The labels' size (never larger than the table's digits).
    width
        The card's width: its block's.
    places
        The card's centre at each beat's end, by beat name (:func:`rule_places`).
    """

    def __init__(
        self,
        text: str,
        theme: Theme,
        font_size: float,
        width: float,
        places: dict[str, tuple[float, float]],
    ) -> None:
        self.text, self.theme, self.font_size, self.places = text, theme, font_size, places
        self.width = max(width, maths(text, theme.text, font_size).width + 2 * RULE_PAD)
        self.shown: tuple[float, float] | None = None
        self.card: VGroup | None = None

    def make(self, centre: tuple[float, float]) -> VGroup:
        """Return a card centred at ``centre``."""
        card = rule_card(self.text, self.theme, self.font_size, self.width)
        return card.move_to(xyz(*centre))

    def wrap(self, beat: Beat, animation: Animation) -> Animation:
        """Return the beat's animation with the card coming, going or moving on as it ends.

        It goes (or leaves a place it no longer has room at) early in the
        beat's first step, and comes to its place with the beat's last step
        that lasts long enough to fade in.
        """
        want = self.places.get(beat.name) if "rule" in beat.labels else None
        if want == self.shown:
            return animation
        steps = list(beat_steps(animation))
        if self.card is not None:
            leave = FadeOut(self.card, run_time=max(steps[0].run_time * _LEAVE_SHARE, 0.1))
            steps[0] = AnimationGroup(steps[0], leave)
            self.card = None
        if want is not None:
            self.card = self.make(want)
            # The last step long enough for a fade to read as one (not a pop).
            last = max(k for k, step in enumerate(steps) if k == 0 or step.run_time >= _COME)
            come = FadeIn(self.card, run_time=steps[last].run_time)
            steps[last] = AnimationGroup(steps[last], come)
        self.shown = want
        return Steps(*steps)


def _boxes_at(mobjects: Sequence[Mobject], dy: float, dx: float = 0.0) -> list[Box]:
    return [(b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy) for b in mobject_boxes(mobjects)]


def _roads(motion: LookupMotion, board: Storyboard, lifts: dict[str, float]) -> dict[str, Box]:
    """Return the band each lookup beat's strip runs through, frame-wide, by beat name.

    A strip leaves its row of E and goes to its output row where the block
    stands at that beat's end: the band between them is its road.
    """
    grid, output = motion.matrix.grid, motion.output
    half = motion.plan.sizes.row_height / 2
    roads: dict[str, Box] = {}
    for beat in board.beats:
        if beat.name not in lifts or beat.action != "lookup" or beat.highlight is None:
            continue
        row = output.positions.index(beat.highlight.position)
        target = output.grid.row_y(row) + lifts[beat.name]
        source = grid.row_y(beat.highlight.row) if beat.highlight.row in grid.get_rows() else target
        roads[beat.name] = (-1e3, min(source, target) - half, 1e3, max(source, target) + half)
    return roads


def rule_places(
    motion: LookupMotion,
    board: Storyboard,
    title: Mobject,
    lifts: dict[str, float],
    size: tuple[float, float],
    corridor: bool = False,
) -> dict[str, tuple[float, float]]:
    """Return the card's centre at the end of each beat that shows the rule.

    Parameters
    ----------
    motion
        The lookup's motion, its blocks at rest.
    board
        The storyboard: its beats with a ``rule`` label.
    title
        The title: the room measured lies between it and the caption.
    lifts
        How far over its rest the block stands at each such beat's end.
    size
        The card's width and height.
    corridor
        Whether the card stands in the corridor between E and the block (a
        block as tall as E leaves no room beside it), not on the output side.

    Returns
    -------
    dict
        The centre, by beat name: under the block's centre (in the corridor's
        middle), in the middle of the largest room the output side (the
        corridor) leaves, clear of the road of the beat's strip, in every beat
        or in one; kept while it leaves no more than an eighth of the frame
        empty (:func:`_fewest_moves`). A beat where the card has no room at
        all is left out (the card does not show then).
    """
    band = content_band(title)
    # In the corridor the blocks stand parted (the chips with the block) at these beats' ends.
    out_dx, e_dx = (motion.slide, -motion.matrix_slide) if corridor else (0.0, 0.0)
    still = _boxes_at(motion.matrix.intro(), 0.0, e_dx)
    still += _boxes_at([motion.chips.heading, *motion.chips.chips], 0.0, out_dx)
    output = motion.output
    block = [m for m in (output.grid, output.heading, output.numbers, output.shape) if m]
    roads = _roads(motion, board, lifts)
    region, x = _region(motion, band, corridor, out_dx, e_dx)
    # The card stands while its beat's strip lands (it comes with the last step); a
    # next beat that keeps it checks its own strip, one that moves it fades it first.
    boxes = {
        name: [*still, *_boxes_at(block, lift, out_dx), *([roads[name]] if name in roads else [])]
        for name, lift in lifts.items()
    }
    rooms = [largest_empty_rectangle(drawn, region) for drawn in boxes.values()]
    every = [b for drawn in boxes.values() for b in drawn]
    # Where the card may stand: in the middle of the room every beat leaves, or of one's,
    # or a quarter row apart up the band (a place just clear of one beat's road can serve
    # three beats where each room's middle serves one: 7,0,7,63 with a 64-row E).
    candidates = [(x, _middle(room)) for room in [largest_empty_rectangle(every, region), *rooms]]
    step = motion.plan.sizes.row_height / 4
    candidates += [(x, band[1] + k * step) for k in range(int((band[3] - band[1]) / step))]
    frame = float(config.frame_width) * float(config.frame_height)

    def empty(centre: tuple[float, float], name: str) -> float:
        """Return the largest empty share of the frame at the beat's end, the card there.

        Infinite where the card has no room there.
        """
        if not _clear(centre, size, boxes[name], band):
            return float("inf")
        card = _card_box(centre, size)
        drawn = [*still, *_boxes_at(block, lifts[name], out_dx), card]
        return largest_empty_rectangle(drawn, band).area / frame

    places = _fewest_moves(list(lifts), candidates, empty)
    # A card with no room (a corridor narrower than it) is left out, never drawn over numbers.
    return {name: at for name, at in places.items() if empty(at, name) < float("inf")}


def _region(
    motion: LookupMotion, band: Box, corridor: bool, out_dx: float, e_dx: float
) -> tuple[Box, float]:
    """Return where the card may stand and its centre's x: the output side, or the corridor.

    MiniLM's 12-row block is as tall as E: the corridor between them (the blocks
    parted by ``e_dx`` and ``out_dx``), the next strips' road, stood empty
    between the first lookups (15 to 16 % of the frame).
    """
    body = motion.output.grid.body
    left = float(body.get_left()[0]) + out_dx
    if not corridor:
        return (left, band[1], band[2], band[3]), float(body.get_center()[0])
    right = float(motion.matrix.grid.body.get_right()[0]) + e_dx
    return (right, band[1], left, band[3]), (right + left) / 2


def _fewest_moves(
    names: list[str],
    candidates: list[tuple[float, float]],
    empty: Callable[[tuple[float, float], str], float],
) -> dict[str, tuple[float, float]]:
    """Return a place per beat: each kept for as many beats as it leaves an eighth empty at most.

    A card that moved every beat (three places in the three beats of
    ``7,0,7,63`` with a 64-row E) read as a second thread of motion: it moves
    only where its place no longer leaves the frame full, to the candidate
    that stays good longest (then the fullest frame).
    """
    places: dict[str, tuple[float, float]] = {}
    start = 0
    while start < len(names):
        rest = names[start:]
        best = max(candidates, key=lambda centre: _run(centre, rest, empty))
        length = max(1, _run(best, rest, empty)[0])
        places.update(dict.fromkeys(rest[:length], best))
        start += length
    return places


def _run(
    centre: tuple[float, float],
    names: list[str],
    empty: Callable[[tuple[float, float], str], float],
) -> tuple[int, float]:
    """Return how many beats from the first a place stays good for, and minus its worst share.

    Good: no more than an eighth of the frame empty. None: minus the first beat's share.
    """
    length, worst = 0, 0.0
    for name in names:
        share = empty(centre, name)
        if share > EMPTY_SHARE:
            break
        length, worst = length + 1, max(worst, share)
    if length == 0:
        return 0, -min(empty(centre, names[0]), 1e9)
    return length, -worst


def _card_box(centre: tuple[float, float], size: tuple[float, float]) -> Box:
    """Return the card's box at ``centre``."""
    return (
        centre[0] - size[0] / 2,
        centre[1] - size[1] / 2,
        centre[0] + size[0] / 2,
        centre[1] + size[1] / 2,
    )


def _middle(room: Emptiness) -> float:
    """Return the height of a card's centre: the middle of ``room``, splitting it in two."""
    return (room.bottom + room.top) / 2


def _clear(
    centre: tuple[float, float], size: tuple[float, float], boxes: list[Box], band: Box
) -> bool:
    """Whether a card of ``size`` at ``centre`` stays inside the band, clear of every box."""
    half_w, half_h = size[0] / 2 + SPACE, size[1] / 2 + SPACE
    left, right = centre[0] - half_w, centre[0] + half_w
    bottom, top = centre[1] - half_h, centre[1] + half_h
    if bottom < band[1] or top > band[3] or left < band[0] or right > band[2]:
        return False
    return not any(left < b[2] and b[0] < right and bottom < b[3] and b[1] < top for b in boxes)
