"""BatchLookup: where the eye goes: the slice a sequence fills, a repeated ID's tags.

A 720p review (GPT-2 size, and the toy default) saw sequence 0's strips
travel right at their E rows' height straight through slice 1's still empty
block and then up into slice 0: a still at ``lookup-0-1`` mid showed the
strip inside slice 1 while the caption said "The sequence picks the slice",
as if it had landed in the wrong slice. The strips' paths (through empty
cells only) are deliberate; what changed is the slices' strength. While one
sequence is looked up, every other slice that is still empty (its frame, its
row numbers and, where it stands, its header) recedes as far as dimmed
content may (:func:`~embedviz.render.design.dimmed`: 3:1 against its
ground); the slice being filled, and every slice with rows in, stands at
full strength. A strip passing over a faint, empty slice reads as passing.

The change plays at the start of the beat's first step, colours only, and
the slice comes back at the first step of its own sequence's first lookup
(with its header). :func:`on_tag` points at a repeated ID's tag (:class:`TagRing`).

A frame-by-frame review then still saw the chip of ``lookup-0-0`` mid-walk
inside slice 1's row 2 (dimmed, but drawn): a student read the ID as landing
in slice 1. An empty slice that a beat's chips and strips would pass over
(:func:`~embedviz.render.batch_legend.crossed_slices`) now gives way for the
whole beat: it fades out as the beat's first step begins (before any chip
leaves the block), stays out while they travel, and fades back in, dimmed,
once its last strip has landed, as the legend under the slices gives way (both
:class:`~embedviz.render.batch_legend.Recede`). It does so once per run of
beats that cross it: the default batch's slice 1 faded out and back with each
of sequence 0's three beats. A slice the next beat crosses or fills stays out
as a beat ends (:func:`~embedviz.render.batch_legend.make_way`), and comes
back as the first beat that does not cross it begins: at full strength where
that beat fills it, dimmed otherwise. It goes whole, its frame's outline
too, and the B brace, which spans every slice, goes and comes with it
(:func:`_brace_way`). (Its outline once stayed, dimmed, so that the brace
spanned something: a later review read it as a card the strips entered, the
copy seen entering slice 1 before rising to slice 0. The ``reveal`` beat
shows the B slices; the lookups of sequence 0 now travel through clear
space, and slice 1 with its brace and header comes back as sequence 1's
lookup begins, before its rows travel.)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    RoundedRectangle,
    Succession,
    VGroup,
    VMobject,
)
from manim.utils.color import ManimColor

from embedviz.render.animations import Steps, beat_steps
from embedviz.render.batch_legend import Recede
from embedviz.render.design import dimmed
from embedviz.render.fades import Looks, OutlineIn, _hidden, _looks, _set_looks
from embedviz.render.pace import at_least, seconds_of
from embedviz.render.parts.chips import Chip
from embedviz.story.model import Beat

if TYPE_CHECKING:
    from embedviz.render.parts.batch import SliceStack

__all__ = [
    "ON_TAG_WIDTH",
    "TAG_RING_FADE",
    "TAG_RING_SECONDS",
    "Recolour",
    "TagRing",
    "dim_looks",
    "focus",
    "on_tag",
]

# The stroke width of the outline on a repeated ID's tag (1.8 px at 720p): it stands 2.3 px
# clear of GPT-2's digits inside the tag, whose edge leaves them 3.6 px.
ON_TAG_WIDTH = 2.0
# Seconds the outline on a repeated ID's tag takes to fade in, and out (:class:`TagRing`).
TAG_RING_FADE = 0.15
# Seconds it stands at the least, fades included: the beat's share left it 0.2 s (a flicker).
TAG_RING_SECONDS = 1.5
# Seconds a slice that gave way for a beat takes to come back once its last strip has landed.
RETURN = 0.4
# The share of the first step the slices take to dim or come back.
FOCUS_SHARE = 0.3
# Where in the looks the fill and the stroke colours stand (fades._COLOURS).
_FILL, _STROKE = 0, 1


class Recolour(Animation):
    """Take a mobject's members from their looks now to ``ends`` within ``share`` of the step.

    Only colours change (as :class:`~embedviz.render.batch_legend.Recede`).
    """

    def __init__(
        self,
        mobject: VMobject,
        members: Sequence[VMobject],
        ends: Sequence[Looks],
        share: float = FOCUS_SHARE,
        starts: Sequence[Looks] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(mobject, remover=False, introducer=False, **kwargs)
        self.members, self.ends, self.share = list(members), list(ends), share
        self.given = None if starts is None else list(starts)
        self.starts: list[Looks] = []

    def begin(self) -> None:
        """Start from ``starts``, or the members' looks now (no copy: only colours change)."""
        self.starting_mobject = self.mobject
        self.starts = self.given or [_looks(member) for member in self.members]
        self.interpolate(0)

    def get_all_mobjects(self) -> Any:
        """Return the mobject alone (no copies were made)."""
        return [self.mobject]

    def interpolate_mobject(self, alpha: float) -> None:
        """Recolour the members as far as the step has come (done at ``share``)."""
        done = min(1.0, alpha / self.share) if self.share > 0 else 1.0
        for member, start, end in zip(self.members, self.starts, self.ends, strict=True):
            _set_looks(member, start, end, done)


def _dim_rgbas(rgbas: np.ndarray, ground: str) -> np.ndarray:
    out = np.array(rgbas, dtype=float)
    for row in out:
        hex_colour = ManimColor.from_rgb(tuple(row[:3])).to_hex()
        row[:3] = ManimColor(dimmed(hex_colour, ground)).to_rgb()
    return out


def dim_looks(shown: Looks, ground: str) -> Looks:
    """Return ``shown`` with its fill and stroke colours dimmed against ``ground`` (3:1 kept)."""
    looks = list(shown)
    for index in (_FILL, _STROKE):
        looks[index] = _dim_rgbas(np.array(shown[index]), ground)
    return tuple(looks)


def _members(mobject: VMobject) -> list[VMobject]:
    return [m for m in mobject.family_members_with_points() if isinstance(m, VMobject)]


def _parts(stack: SliceStack, b: int) -> list[tuple[VMobject, str]]:
    """Return slice ``b``'s parts with the ground each is drawn on (frame: its cells' fill)."""
    theme = stack.theme
    return [
        (stack.slices[b], theme.cell_fill),
        (stack.row_numbers[b], theme.background),
        (stack.headers[b], theme.background),
    ]


def _recolour(stack: SliceStack, b: int, dim: bool, shown: set[int]) -> list[Recolour]:
    """Dim slice ``b``'s parts on screen (recording their full looks), or bring them back."""
    moves = []
    if dim:
        kept = stack.dimmed.setdefault(b, [])
        for part, ground in _parts(stack, b):
            if id(part) not in shown:
                continue
            members = _members(part)
            full = [_looks(m) for m in members]
            kept.append((part, members, full))
            ends = [dim_looks(looks, ground) for looks in full]
            moves.append(Recolour(part, members, ends))
    else:
        # One that gave way fades in at full strength (not from its dimmed colour), whole.
        gone = _gone(stack, b)
        for part, members, full in stack.dimmed.pop(b, []):
            starts = [_hidden(looks) for looks in full] if gone else None
            moves.append(Recolour(part, members, full, starts=starts))
    return moves


def _gone(stack: SliceStack, b: int) -> bool:
    """Whether slice ``b`` gave way in the beat before and is still out."""
    members = [m for _, parts, _ in stack.dimmed.get(b, []) for m in parts]
    return bool(members) and not any(_drawn(m) for m in members)


def _drawn(member: VMobject) -> bool:
    """Whether a member draws anything (some fill or stroke opacity over zero)."""
    looks = _looks(member)
    rgbas = [np.asarray(looks[index]) for index in (_FILL, _STROKE)]
    return any(len(rgba) and np.any(rgba[:, 3] > 0) for rgba in rgbas)


def _dim_targets(stack: SliceStack, b: int) -> list[tuple[VMobject, list[VMobject], list[Looks]]]:
    """Return slice ``b``'s recorded parts, their members and the members' dimmed looks."""
    grounds = {id(part): ground for part, ground in _parts(stack, b)}
    return [
        (part, members, [dim_looks(looks, grounds[id(part)]) for looks in full])
        for part, members, full in stack.dimmed[b]
    ]


def _recede(stack: SliceStack, b: int, shown: set[int]) -> list[Any]:
    """Return slice ``b``'s parts on screen with their looks now and once dimmed (recorded)."""
    if b not in stack.dimmed:
        _recolour(stack, b, True, shown)
    return [
        (part, members, ([_looks(m) for m in members], ends))
        for part, members, ends in _dim_targets(stack, b)
    ]


def _dim_again(stack: SliceStack, b: int) -> list[Recolour]:
    """Bring slice ``b`` back, dimmed, from where it gave way in the beat before."""
    return [Recolour(part, members, ends) for part, members, ends in _dim_targets(stack, b)]


def _brace_way(
    stack: SliceStack, shown: set[int], recede: list[Any], backs: list[bool]
) -> list[Recolour]:
    """Take the B brace out with the slices that give way, and back with the last of them.

    It spans every slice: with one gone it would point at empty space. It
    leaves with the first slice that gives way, stays out while any is out
    (``recede``, whose entries come back at the beat's end where ``backs``),
    and comes back whole as the first beat that crosses none begins (the
    returned move), with the slices that come back then.
    """
    brace = stack.edge_b
    if recede:
        out = stack.brace_out
        if out is None:
            if id(brace) not in shown:
                return []
            members = _members(brace)
            out = (members, [_looks(m) for m in members])
        members, full = out
        recede.append((brace, members, (full, full), stack.brace_out is None))
        backs.append(all(backs))
        stack.brace_out = None if backs[-1] else out
        return []
    if stack.brace_out is None:
        return []
    members, full = stack.brace_out
    stack.brace_out = None
    return [Recolour(brace, members, full, starts=[_hidden(looks) for looks in full])]


def focus(
    stack: SliceStack,
    filled: Collection[Any],
    played: Animation,
    beat: Beat,
    crossed: Collection[int] = (),
    kept: Collection[int] = (),
) -> Animation:
    """Return a lookup beat's animation with the slices it does not fill, still empty, dimmed.

    ``filled`` are the positions landed before the beat. A slice the beat
    fills, or with rows in, stands at full strength; the change plays with
    the beat's first step (only what is on screen changes). Those of them
    that its chips and strips pass over (``crossed``) give way for the whole
    beat (:class:`~embedviz.render.batch_legend.Recede`), coming back dimmed as
    it ends, unless the next beat crosses or fills them too (``kept``): then they stay out, and come
    back as the first beat that does not cross them begins (at full strength
    where it fills them). The B brace goes and comes with them (:func:`_brace_way`).
    """
    if beat.output is None:
        return played
    shown = {id(m) for top in stack.host.mobjects for m in top.get_family()}
    fresh = [p for p in beat.output.filled if p not in filled]
    active = {p[0] for p in fresh}
    holding = {p[0] for p in filled}
    moves: list[Recolour] = []
    recede: list[Any] = []
    backs: list[bool] = []
    for b in range(len(stack.slices)):
        dim = b not in active and b not in holding
        if dim and b in crossed:
            out = _gone(stack, b)
            parts = _recede(stack, b, shown)
            recede += [(*part, not out) for part in parts]
            backs += [b not in kept] * len(parts)
        elif dim and _gone(stack, b):
            moves += _dim_again(stack, b)
        elif dim != (b in stack.dimmed):
            moves += _recolour(stack, b, dim, shown)
    moves += _brace_way(stack, shown, recede, backs)
    if not moves and not recede:
        return played
    steps = list(beat_steps(played))
    first = steps[0]
    for move in moves:
        move.set_run_time(first.run_time)
    steps[0] = AnimationGroup(first, *moves)
    return _receded(steps, recede, backs)


def _receded(steps: list[Animation], recede: list[Any], backs: list[bool]) -> Animation:
    """Return the beat's steps with what gives way out through them, and back where it comes."""
    gates: list[list[bool]] = [[False] for _ in recede]
    steps = [
        AnimationGroup(
            step,
            *[
                Recede(
                    part, members, looks, k == 0 and leave, False, gate=gate, run_time=step.run_time
                )
                for (part, members, looks, leave), gate in zip(recede, gates, strict=True)
            ],
        )
        for k, step in enumerate(steps)
    ]
    back = [
        Recede(part, members, looks, False, True, 1.0, gate, run_time=RETURN)
        for (part, members, looks, _), gate, comes in zip(recede, gates, backs, strict=True)
        if comes
    ]
    if back:
        # Back once the last strip has landed (at the last step's end, one still travelled).
        steps[-1] = Succession(steps[-1], AnimationGroup(*back))
    return Steps(*steps) if len(steps) > 1 else steps[0]


def on_tag(tag: Chip, colour: str) -> VMobject:
    """Return an outline in ``colour`` on a repeated ID's tag's own edge, inside its reach.

    The repeats beat points at each repeated ID's tags so (the highlight's
    passing outline). Tags stand a row apart with a few pixels between them
    (4.9 px for GPT-2 at 720p): a ring round one, outside it, met its
    neighbour's in that gap as one bar (branch warts29), and a line either
    side of it, in the gaps between its slice and its row number, read as
    stray 2-3 px slivers (a lecture-hall review, issue 18). The outline
    follows the chip's rounded edge instead: its ink reaches no further out
    than the chip's own edge (:data:`ON_TAG_WIDTH` wide, or the edge's width
    where that is wider), so it needs no room between the tags.
    """
    box = tag.box
    edge = float(box.get_stroke_width())
    width = max(ON_TAG_WIDTH, edge)
    # Inset by the difference of the two half widths (a stroke of width w is w / 100 units).
    inset = (width - edge) / 200
    radius = float(getattr(box, "corner_radius", 0.0))
    ring = RoundedRectangle(
        corner_radius=max(radius - inset, 0.0),
        width=float(box.width) - edge / 100 - 2 * inset,
        height=float(box.height) - edge / 100 - 2 * inset,
    )
    ring.move_to(box.get_center())
    return ring.set_fill(opacity=0.0).set_stroke(colour, width=width)


class TagRing(OutlineIn):
    """The outlines on repeated IDs' tags (:func:`on_tag`): they fade in whole, hold, fade out.

    Drawn part by part (Manim's ``ShowPassingFlash``), a piece of a ring stood
    alone and read as an underline (:class:`~embedviz.render.fades.OutlineIn`;
    ``tests/test_outlines_whole.py``), so each outline is whole at every
    moment. It lies on its tag's amber edge, and a violet half faded over
    amber is neither colour (salmon in the dark theme, which a review of
    ZeroBasedIndexing's ring read as the vermillion of a negative value:
    ``tests/test_ring_over_outline.py``), so the outlines fade over
    :data:`TAG_RING_FADE` seconds each way, however long their step, and
    stand at full strength, in the highlight alone, in between. The step
    lasts :data:`TAG_RING_SECONDS` at the least, in the hold before the beat's
    next phrase (its share of the beat was 0.2 s, a flicker). They are gone
    at the end.

    Parameters
    ----------
    tags
        The repeated IDs' tags.
    colour
        The highlight.
    **kwargs
        As for :class:`~embedviz.render.fades.FadeIn`.
    """

    def __init__(self, tags: Sequence[Chip], colour: str, **kwargs: Any) -> None:
        rings = VGroup(*[on_tag(tag, colour) for tag in tags])
        super().__init__(rings, remover=True, **kwargs)
        at_least(self, TAG_RING_SECONDS)

    def begin(self) -> None:
        """Fix the fades' share of the play once its length is known (the beat gives it)."""
        share = min(0.5, TAG_RING_FADE / max(seconds_of(self), 1e-6))
        self.rate_func = lambda t: _held(t, share)
        super().begin()


def _held(t: float, share: float) -> float:
    """Return 0 to 1 over the first ``share`` of the time, 1, then back to 0 over the last."""
    return float(min(1.0, t / share, (1.0 - t) / share))
