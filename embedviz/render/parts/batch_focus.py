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

A frame-by-frame review then saw the chip of ``lookup-0-0`` mid-walk
inside slice 1's row 2 (dimmed, but drawn), and a student read the ID as
landing in slice 1; session 23 made such a slice give way for the whole run
of sequence 0's beats, frame, row numbers and the B brace with it. A
lecture-hall review at 720p (issue 18, session 33) then read the output
block as one slice for 26 s of GPT-2's batch (33.8 to 60 s), the B brace
gone with it. Every slice now stands from the first lookup to the last:
an empty one that another sequence's chips and strips pass over stays
dimmed under them (they travel over it, drawn above it, to the slice at
full strength), and its header comes with its own sequence's first lookup.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    RoundedRectangle,
    VGroup,
    VMobject,
)
from manim.utils.color import ManimColor

from embedviz.render.animations import Steps, beat_steps
from embedviz.render.design import dimmed
from embedviz.render.fades import Looks, OutlineIn, looks_of, set_looks
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
# The share of the first step the slices take to dim or come back.
FOCUS_SHARE = 0.3
# Where in the looks the fill and the stroke colours stand (fades._COLOURS).
_FILL, _STROKE = 0, 1


class Recolour(Animation):
    """Take a mobject's members from their looks now to ``ends`` within ``share`` of the step.

    Only colours change (as :class:`~embedviz.render.batch_legend.Recede` does).
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
        self.starts = self.given or [looks_of(member) for member in self.members]
        self.interpolate(0)

    def get_all_mobjects(self) -> Any:
        """Return the mobject alone (no copies were made)."""
        return [self.mobject]

    def interpolate_mobject(self, alpha: float) -> None:
        """Recolour the members as far as the step has come (done at ``share``)."""
        done = min(1.0, alpha / self.share) if self.share > 0 else 1.0
        for member, start, end in zip(self.members, self.starts, self.ends, strict=True):
            set_looks(member, start, end, done)


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
            full = [looks_of(m) for m in members]
            kept.append((part, members, full))
            ends = [dim_looks(looks, ground) for looks in full]
            moves.append(Recolour(part, members, ends))
    else:
        for part, members, full in stack.dimmed.pop(b, []):
            moves.append(Recolour(part, members, full))
    return moves


def focus(stack: SliceStack, filled: Collection[Any], played: Animation, beat: Beat) -> Animation:
    """Return a lookup beat's animation with the slices it does not fill, still empty, dimmed.

    ``filled`` are the positions landed before the beat. A slice the beat
    fills, or with rows in, stands at full strength; the change plays with
    the beat's first step (only what is on screen changes). An empty slice
    that the beat's chips and strips pass over stays, dimmed, under them:
    every slice stands from the first lookup to the last (issue 18).
    """
    if beat.output is None:
        return played
    shown = {id(m) for top in stack.host.mobjects for m in top.get_family()}
    fresh = [p for p in beat.output.filled if p not in filled]
    active = {p[0] for p in fresh}
    holding = {p[0] for p in filled}
    moves: list[Recolour] = []
    for b in range(len(stack.slices)):
        dim = b not in active and b not in holding
        if dim != (b in stack.dimmed):
            moves += _recolour(stack, b, dim, shown)
    if not moves:
        return played
    steps = list(beat_steps(played))
    first = steps[0]
    for move in moves:
        move.set_run_time(first.run_time)
    steps[0] = AnimationGroup(first, *moves)
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
