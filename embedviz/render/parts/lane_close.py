"""After the lookups, the sentence lane's room closes (SequenceLookup; issue 18).

The chips wait in a lane over E (:mod:`~embedviz.render.solver_lane`); once
every one has become its output row's tag, the lane is empty. Its heading
``token IDs`` fades as the last chip steps out of the lane (:func:`lane_fading`:
a frame review saw it stand alone over the empty lane for 4.5 s, from the last
chip's departure to the next beat). Fading the heading alone left a band as
wide as the frame empty (14.4 % of the toy's frame: more than the eighth issue
18 allows), and gliding the blocks up into it only moves that band under them
(18.5 %). So, in one smooth glide at the end of the last lookup's beat
(:func:`close_beat`, :func:`close_step`), before that beat ends:

- the output block glides to stand centred against E's rows (resting where
  the strips needed it, it left the room under it empty), unless it is a
  still block with its legend upright under its tags;
- everything but the title, the captions and a legend over the blocks grows
  into the band the lane leaves, as a camera's close-up
  (:func:`~embedviz.render.zoom.stage_close_up`, its rows further apart up
  to the solver's loosest pitch), or, where the blocks already fill the
  frame's width (GPT-2's and MiniLM's sizes), in height alone
  (:func:`~embedviz.render.zoom.stage_stretch`: the rows spread apart).

Every later beat is built in the solved layout and played under the
close-up (:meth:`~embedviz.render.zoom.Zoom.wrap`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from manim import Animation, AnimationGroup, Group, Mobject, VMobject, Wait, linear, smooth

from embedviz.render.animations import make_deferred_animation
from embedviz.render.fades import FadeOut
from embedviz.render.metrics import xyz
from embedviz.render.pace import at_least
from embedviz.render.parts.captions import Caption
from embedviz.render.parts.chips import Follow
from embedviz.render.parts.glide import GLIDE_SECONDS, Glide, glide_floor
from embedviz.render.solver import MAX_PITCH
from embedviz.render.zoom import Zoom, stage_close_up, stage_stretch

if TYPE_CHECKING:
    from embedviz.render.stages.lookup import LookupStage
    from embedviz.story.model import Storyboard

__all__ = ["close_beat", "close_lane", "close_step", "fade_as_they_leave", "lane_fading"]

# The beats that move chips out of the lane.
LOOKUPS = ("lookup", "lookup_many")
# The closing step's weight among the beat's steps (seconds, before its floor).
CLOSE_SHARE = 0.15


def close_beat(board: Storyboard, laned: bool) -> str | None:
    """Return the last lookup's beat, at whose end a lane (``laned``) closes; else None."""
    actions = [beat.action for beat in board.beats]
    if not laned or not any(a in LOOKUPS for a in actions):
        return None
    last = max(i for i, a in enumerate(actions) if a in LOOKUPS)
    return board.beats[last].name


def lane_fading(stage: LookupStage, steps: Sequence[Animation]) -> list[Animation]:
    """Return the beat's ``steps``, the lane's heading fading in the one where the last chip leaves.

    Built as the beat starts: the chips standing on the lane's line then are
    the waiting ones, and each leaves in the first step that walks it
    (:func:`_walks`). Only the last of those steps carries the fade: a step
    that carried it would draw the heading (and all over it) every frame, and
    one that ends with the chip not yet out would have to leave it part-faded.
    """
    line = stage.plan.lane.chip_y if stage.plan.lane is not None else 0.0
    return fade_as_they_leave(stage.scene, stage.chips.heading, stage.chips.chips, line, steps)


def fade_as_they_leave(
    scene: Any, heading: Mobject, chips: Sequence[Mobject], line: float, steps: Sequence[Animation]
) -> list[Animation]:
    """Return ``steps``, ``heading`` fading in the one where the last chip on ``line`` leaves."""
    shown = {id(m) for top in scene.mobjects for m in top.get_family()}
    waiting = [c for c in chips if abs(float(c.get_center()[1]) - line) < 1e-3]
    leaves: dict[int, tuple[int, Follow]] = {}
    for index, step in enumerate(steps):
        for chip, walk in _walks(step, waiting):
            leaves.setdefault(id(chip), (index, walk))
    if id(heading) not in shown or not waiting or len(leaves) < len(waiting):
        return list(steps)  # no lane heading, or a chip stays in the lane after this beat
    last = max(index for index, _ in leaves.values())
    walks = [walk for index, walk in leaves.values() if index == last]
    step = steps[last]

    def build() -> Animation:
        # Set up as the step starts: a later step must not put the heading back on screen.
        if not any(heading is m for m in scene.mobjects):
            return Wait(run_time=step.get_run_time())
        return _LaneFade(heading, walks, run_time=step.get_run_time())

    fade = make_deferred_animation(build, step.get_run_time(), touches=lambda: [heading])
    return [*steps[:last], AnimationGroup(step, fade), *steps[last + 1 :]]


def _walks(animation: Animation, chips: Sequence[Mobject]) -> list[tuple[Mobject, Follow]]:
    """Return the walks (:class:`Follow`) in ``animation`` that move one of ``chips``, in order."""
    if isinstance(animation, Follow):
        walker: Any = animation.mobject  # manim types it as either renderer's mobject
        return [(c, animation) for c in chips if walker is c]
    members = animation.animations if isinstance(animation, AnimationGroup) else []
    return [found for member in members for found in _walks(member, chips)]


def close_step(stage: LookupStage) -> Animation:
    """Return the lane's closing glide, built as it starts (where the lookups left the blocks).

    The beat's blocks stay where its lookups leave them (``stays_open``): this
    glide is the only one after its last strip lands. Its floor is asked as
    the beat begins, before the lookups have moved anything: it allows for
    the blocks parting up (``motion.lift``) for them.
    """

    def floor() -> float:
        matrix, block = stage.matrix.grid.body, stage.output.grid.body
        dy = float(matrix.get_center()[1] - block.get_center()[1])
        return glide_floor(0.0, max(abs(dy), abs(dy - float(stage.motion.lift))))

    # A small share of the beat (the lookups keep their pace): its floor grows it into the hold.
    return at_least(make_deferred_animation(lambda: close_lane(stage), CLOSE_SHARE), floor)


def close_lane(stage: LookupStage) -> Animation:
    """Return the lane's closing glide (and the heading's fade, if it still shows).

    The output block's new place is solved (it stands there for every later
    beat), then set back: the glide takes it there as the close-up grows.
    ``stage.zoom`` is the close-up from here on (None where it would not grow
    the content by 5 %: then the block only glides).
    """
    heading = stage.chips.heading
    matrix, block = stage.matrix.grid.body, stage.output.grid.body
    dy = float(matrix.get_center()[1] - block.get_center()[1])
    if stage.plan.legend_upright > 0:
        # A still block keeps its place: its legend stands upright under its tags.
        dy = 0.0
    moving = stage.motion.output_side(shown=True)
    for mobject in moving:
        mobject.shift(xyz(0.0, dy))
    legend = stage.matrix.legend
    over = legend is not None and legend.get_bottom()[1] > stage.matrix.heading.get_top()[1]
    kept: list[Mobject] = [heading, *([legend] if over and legend is not None else [])]
    kept_ids = {id(m) for m in kept}
    shown = [m for m in stage.scene.mobjects if id(m) not in kept_ids and m is not stage.title]
    shown = [m for m in shown if not isinstance(m, Caption)]
    # A legend over the blocks (not in the title band) is the room's top, as the title is.
    top = Group(stage.title, legend) if over and stage.plan.legend_left else stage.title
    # Rows no further apart than the solver's loosest pitch, when the close-up spreads them.
    spread = MAX_PITCH / stage.plan.sizes.pitch
    zoom = stage_close_up(
        stage.scene, top, shown, stage.plan.scale.data, kept, spread
    ) or stage_stretch(stage.scene, top, shown, kept)
    for mobject in moving:
        mobject.shift(xyz(0.0, -dy))
    stage.zoom = zoom
    closing: Animation = Glide(lambda: list(moving), dy)
    if zoom is not None:
        closing = _CloseIn(zoom, moving, dy)
    if any(heading is m for m in stage.scene.mobjects):
        # Gone in the glide's first fifth, before E's heading grows up into its line.
        fade = FadeOut(heading, run_time=GLIDE_SECONDS, rate_func=lambda t: min(1.0, 5.0 * t))
        closing = AnimationGroup(closing, fade)
    return closing


class _LaneFade(FadeOut):
    """The lane's heading fades as the last of the chips ``walks`` move steps out of the lane.

    A chip is out once it stands a chip's height from where it waited (or,
    on a walk that never goes that far, at the walk's furthest point, which it
    passes within the step): the heading shows as much as the chip furthest
    from out, and never comes back within the step. Out by the step's end, it
    goes from the scene already faded; so it never pops.
    """

    def __init__(self, heading: Mobject, walks: Sequence[Follow], run_time: float) -> None:
        self.chips = [walk.mobject for walk in walks]
        self.homes = [c.get_center().copy() for c in self.chips]
        self.reach = [
            min(
                float(walk.mobject.height),
                float(np.linalg.norm(walk.path - walk.path[0], axis=1).max()),
            )
            for walk in walks
        ]
        self.gone = 0.0
        super().__init__(heading, run_time=run_time, rate_func=linear)

    def interpolate_mobject(self, alpha: float) -> None:
        """Fade as far as the last chip has left the lane (``alpha`` is not read)."""
        out = [
            1.0 if reach <= 0 else float(np.linalg.norm(c.get_center() - home)) / reach
            for c, home, reach in zip(self.chips, self.homes, self.reach, strict=True)
        ]
        self.gone = max(self.gone, min(1.0, *out))
        super().interpolate_mobject(self.gone)

    def clean_up_from_scene(self, scene: Any) -> None:
        """Remove the heading once faded; one only part-faded stays so (the close fades it on)."""
        if self.gone >= 1.0 - 1e-6:  # a walk's end, measured twice, may differ in its last bits
            super().clean_up_from_scene(scene)
        elif self.gone <= 0.0:
            super().interpolate_mobject(0.0)


class _CloseIn(Animation):
    """The output block glides ``dy`` while the close-up grows from none to ``zoom``'s."""

    def __init__(self, zoom: Zoom, moving: list[Mobject], dy: float) -> None:
        self.zoom, self.moving, self.dy = zoom, moving, dy
        self.target = (zoom.factor, zoom.spread)
        self.done = 0.0
        self.members: Any = None
        # An introducer, so that the scene adds nothing (it only moves what is there).
        super().__init__(VMobject(), run_time=GLIDE_SECONDS, rate_func=smooth, introducer=True)

    def _setup_scene(self, scene: Any) -> None:
        """Add nothing: the close-up only moves what is already there."""

    def may_move(self) -> list[Mobject]:
        """Return everything under the close-up: all of it grows."""
        return list(self.zoom.content())

    def create_starting_mobject(self) -> VMobject:
        """Return an empty stand-in: nothing reads it."""
        return VMobject()

    def begin(self) -> None:
        """Start from no close-up (the zoom holds its end until then), gathering what grows."""
        self.zoom.factor, self.zoom.spread = 1.0, 1.0
        self.members, self.done = self.zoom._members(), 0.0
        super().begin()

    def interpolate_mobject(self, alpha: float) -> None:
        """Undo the close-up, glide the block, and redo it at this moment's size."""
        zoom, eased = self.zoom, self.rate_func(alpha)
        old = zoom._scales()
        zoom._rescale(old, np.ones(3), self.members)
        for mobject in self.moving:
            mobject.shift(xyz(0.0, self.dy * (eased - self.done)))
        self.done = eased
        zoom.factor, zoom.spread = (1.0 + (t - 1.0) * eased for t in self.target)
        zoom._rescale(np.ones(3), zoom._scales(), self.members)

    def clean_up_from_scene(self, scene: Any) -> None:
        """Remove nothing."""
