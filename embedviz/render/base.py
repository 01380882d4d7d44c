"""The one base scene: it plays a storyboard, beat by beat, on stages."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from manim import (
    Animation,
    AnimationGroup,
    Camera,
    ManimColor,
    Mobject,
    RendererType,
    Scene,
    Succession,
    Text,
    Wait,
    config,
)

from embedviz.core.errors import EmbedvizError
from embedviz.inputs import prepared_storyboard
from embedviz.render.animations import (
    beat_steps,
    make_caption_animation,
    mobjects_that_may_move,
)
from embedviz.render.camera import TracingCamera
from embedviz.render.formula import FormulaText
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.layout import frame_regions
from embedviz.render.mobjects import Caption, xyz
from embedviz.render.pace import floored_frames, give_seconds
from embedviz.render.parts.id_rows import id_numbers_moving, light_id_rows
from embedviz.render.sans_lines import SansLines
from embedviz.render.stage import Stage, stage_for
from embedviz.render.theme import THEMES, Theme
from embedviz.render.writer import ENCODERS_IN_FLIGHT, HoldRenderer, use_hold_writer
from embedviz.story.model import Beat, Storyboard

__all__ = [
    "ENCODERS_IN_FLIGHT",
    "StoryboardScene",
    "frame_count",
    "schedule_steps",
    "screen_texts",
    "share_frames",
]


def screen_texts(
    scene: Scene,
) -> tuple[list[NumberText], list[LabelText | FormulaText | SansLines], list[SansText | Text]]:
    """Collect every checked number, label and plain text currently on screen.

    Parameters
    ----------
    scene
        A scene mid-render.

    Returns
    -------
    tuple of lists
        The ``NumberText``, the labels (``LabelText``, typeset ``FormulaText``
        and sans ``SansLines``) and the other ``SansText`` (or manim ``Text``)
        objects in the scene's mobject families.
    """
    numbers: list[NumberText] = []
    labels: list[LabelText | FormulaText | SansLines] = []
    texts: list[SansText | Text] = []
    seen: set[int] = set()
    for top in scene.mobjects:
        for mobject in top.get_family():
            if id(mobject) in seen:
                continue
            seen.add(id(mobject))
            if isinstance(mobject, NumberText):
                numbers.append(mobject)
            elif isinstance(mobject, LabelText | FormulaText | SansLines):
                labels += [] if getattr(mobject, "caption_part", False) else [mobject]
            elif isinstance(mobject, SansText | Text):
                texts.append(mobject)
    return numbers, labels, texts


class StoryboardScene(Scene):
    """Plays one storyboard: subclasses only name the scene.

    A composite storyboard (``FullExplainer``) plays its parts in order, each
    as a Manim section named after the part, so ``--save_sections`` writes one
    clip per concept.

    Parameters
    ----------
    storyboard
        A ready storyboard; by default it is built from ``embedviz.toml`` and
        ``EMBEDVIZ_*`` variables in the working directory.
    theme
        Colours; by default the storyboard's ``theme`` option.
    captions
        Draw the narration at the bottom of the frame; by default the
        class's :attr:`captions` (True). An exported clip leaves it to its
        WebVTT caption track instead.
    **kwargs
        Passed to :class:`manim.Scene`.
    """

    scene_name: ClassVar[str] = ""
    # Whether the narration is drawn into the picture (burned-in captions).
    captions: ClassVar[bool] = True
    # Whether every tick is its own frame (--cfr); by default a still picture
    # is written once, with the hold's duration (see embedviz.render.writer).
    constant_frame_rate: ClassVar[bool] = False
    # The narration on screen; None until the first beat.
    caption: Caption | None

    def __init__(
        self,
        *args: Any,
        storyboard: Storyboard | None = None,
        theme: Theme | None = None,
        captions: bool | None = None,
        **kwargs: Any,
    ) -> None:
        self.storyboard = storyboard
        self.theme_override = theme
        self.burn_captions = type(self).captions if captions is None else captions
        self.caption = None
        self.stage: Stage | None = None
        # While a beat plays: when the current play started (seconds from the
        # beat's start), and the steps in it as (step, offset, seconds).
        self.beat_clock = 0.0
        self.playing_steps: tuple[tuple[int, float, float], ...] = ()
        cfr = type(self).constant_frame_rate
        if "renderer" not in kwargs and config.renderer == RendererType.CAIRO:
            # One writer owns files, holds and sound (see embedviz.render.writer),
            # and the camera traces each unchanged outline once.
            kwargs["renderer"] = HoldRenderer(
                constant_frame_rate=cfr,
                camera_class=kwargs.get("camera_class", TracingCamera),
                skip_animations=kwargs.get("skip_animations", False),
            )
        super().__init__(*args, **kwargs)
        use_hold_writer(self.renderer, constant_frame_rate=cfr)  # a renderer given by the caller

    # -- hooks ---------------------------------------------------------------
    def before_beat(self, beat: Beat) -> None:
        """Run as every beat starts; the exporter adds the beat's speech here."""

    def after_beat(self, beat: Beat) -> None:
        """Run after every beat has played; tests override it to read the screen."""

    def get_moving_mobjects(self, *animations: Animation) -> list[Mobject]:
        """Return what the play draws frame by frame; the rest is painted once.

        Manim's answer starts at the first mobject an animation names. An
        animation that gathers what it moves only as it starts (a glide) names
        nothing, so it says what it may move (see
        :func:`~embedviz.render.animations.mobjects_that_may_move`), and the
        drawn part starts at the first of those if that comes earlier.
        """
        moving = super().get_moving_mobjects(*animations)
        may_move = mobjects_that_may_move(animations)
        # E's row numbers an outline may light or leave (``parts.id_rows``) change colour too.
        may_move += id_numbers_moving(self.mobjects, animations, may_move)
        extra = {id(member) for mobject in may_move for member in mobject.get_family()}
        if not extra:
            return moving
        mobjects = self.get_mobject_family_members()
        first = next((i for i, m in enumerate(mobjects) if id(m) in extra), len(mobjects))
        return mobjects[min(first, len(mobjects) - len(moving)) :]

    def update_mobjects(self, dt: float) -> None:
        """Update as Manim does, then light E's row numbers from their rows' outlines."""
        super().update_mobjects(dt)
        light_id_rows(self.mobjects)

    def play_internal(self, skip_rendering: bool = False) -> None:
        """Play as Manim does; then, as the play's last fades have ended, light the numbers.

        Skipping animations (a dry run), Manim updates nothing after the play ends.
        """
        super().play_internal(skip_rendering)
        light_id_rows(self.mobjects)

    def remove(self, *mobjects: Mobject) -> StoryboardScene:
        """Remove ``mobjects`` from the scene and from what the current play draws.

        Manim's :meth:`~manim.scene.scene.Scene.remove` keeps a mobject in
        ``moving_mobjects`` until the play ends, so one removed mid-play (a
        strip handed over to its output row as it lands) went on being drawn
        where it was: when the output block then glided back to rest in the
        same play, the two strips just landed stood over its rows.
        """
        super().remove(*mobjects)
        if self.moving_mobjects:
            on_scene = {id(m) for m in self.get_mobject_family_members()}
            gone = [m for mob in mobjects for m in mob.get_family() if id(m) not in on_scene]
            if gone:
                # Manim's own split: a group that holds one of them gives its other parts.
                drawn = self.moving_mobjects
                self.moving_mobjects = self.get_restructured_mobject_list(drawn, gone)
        return self

    # -- setup ---------------------------------------------------------------
    def setup(self) -> None:
        """Build the storyboard before anything is drawn, failing in one line."""
        if self.storyboard is None:
            try:
                self.storyboard = prepared_storyboard(self.scene_name or type(self).__name__)
            except EmbedvizError as error:
                # A plain `manim render` would print a long traceback; a bad
                # option is the user's input, so say it in one line instead.
                print(f"embedviz: error: {error}", file=sys.stderr)
                raise SystemExit(2) from None
        name = self.storyboard.options.theme
        self.theme = self.theme_override or THEMES[name]
        # embedviz renders with the Cairo renderer, whose camera is a Camera.
        cast(Camera, self.camera).background_color = ManimColor(self.theme.background)

    def construct(self) -> None:
        """Play every part (each a section) and every beat of the storyboard."""
        assert self.storyboard is not None
        board = self.storyboard
        parts = board.parts or (board,)
        number = 0
        for part in parts:
            if board.parts and part.layout != "transition":
                # One section per concept; its name becomes the clip's file
                # name with --save_sections. A transition ends the section before.
                number += 1
                self.next_section(f"{number:02d}_{part.scene}")
            self.play_part(part)

    def play_part(self, board: Storyboard) -> None:
        """Lay out one storyboard's stage and play its beats.

        Parameters
        ----------
        board
            A storyboard without parts.
        """
        self.stage = stage_for(board.layout)(self, board, self.theme)
        for beat in board.beats:
            self.play_beat(beat)

    def play_beat(self, beat: Beat) -> None:
        """Play one beat, each step of its animation starting with its phrase.

        The stage's animation for the beat is split into steps (see
        :class:`~embedviz.render.animations.Steps`; a plain Animation is one
        step). The steps share the beat's ``run_time`` in proportion to their
        own run times, and step *k* starts when phrase *k* starts; steps
        beyond the phrases follow on at once, and a step that would run past
        the beat's end starts early enough to finish in it. With burned-in
        captions, each phrase's caption replaces the last one when the phrase
        starts, as the WebVTT cues do. Between motions the scene holds still,
        and the beat lasts exactly ``duration`` (in whole frames), so the
        storyboard's timing, captions, chapters and ``--voice`` stay in sync.

        Parameters
        ----------
        beat
            The beat.
        """
        assert self.stage is not None
        fps = float(config.frame_rate)
        total = frame_count(beat.duration, fps)
        # Each phrase starts on the frame nearest its start in the storyboard.
        phrase_frames = [frame_count(p.start, fps) for p in beat.phrases] or [0]
        cues: list[_Cue] = []
        shown = self.caption
        if self.burn_captions:
            # Each phrase's caption replaces the last one as the phrase starts.
            texts = [p.text for p in beat.phrases] or [beat.narration]
            clock = 0
            for text, start in zip(texts, phrase_frames, strict=True):
                caption = self._caption(text)
                swap = make_caption_animation(shown, caption)
                length = max(1, frame_count(swap.get_run_time(), fps))
                begin = max(0, min(max(start, clock), total - length))
                cues.append(_Cue(begin, length, swap))
                clock = begin + length
                shown = caption
        self.before_beat(beat)
        steps = list(beat_steps(self.stage.animate(beat)))
        lengths = share_frames(frame_count(beat.run_time, fps), [_weight(s) for s in steps])
        if 0 in lengths:
            # Too short to give every step a frame: play them as one.
            steps, lengths = [Succession(*steps)], [frame_count(beat.run_time, fps)]
        # A glide a teacher's eye must follow gets its floor, in the hold after the motion.
        lengths = floored_frames(steps, lengths, total, fps, phrase_frames)
        starts = schedule_steps(lengths, phrase_frames, total)
        for number, (step, start, length) in enumerate(zip(steps, starts, lengths, strict=True)):
            cues.append(_Cue(start, length, step, number))
        clock = 0
        for segment in _segments(cues):
            first = segment[0].start
            if first > clock:
                self._hold(first - clock, fps)
            end = max(cue.start + cue.frames for cue in segment)
            self.beat_clock = first / fps
            self.playing_steps = tuple(
                (cue.step, (cue.start - first) / fps, cue.frames / fps)
                for cue in segment
                if cue.step is not None
            )
            self.play(_timed(segment, first, end, fps), run_time=(end - first) / fps - _EPSILON)
            self.playing_steps = ()
            clock = end
        self.caption = shown
        if total > clock:
            self._hold(total - clock, fps)
        self.after_beat(beat)

    def _hold(self, frames: int, fps: float) -> None:
        """Hold still for exactly ``frames`` frames."""
        # A still frame is repeated int(seconds * fps) times, an animated wait
        # is drawn ceil(seconds * fps) times: nudge the time so both give frames.
        still = not (
            self.always_update_mobjects
            or self.updaters
            or any(m.has_time_based_updater() for m in self.get_mobject_family_members())
        )
        seconds = frames / fps + (_EPSILON if still else -_EPSILON)
        self.wait(seconds, frozen_frame=still)

    def _caption(self, text: str) -> Caption:
        frame = frame_regions()
        language = self.storyboard.language if self.storyboard is not None else "en"
        caption = Caption(text, frame.caption_width, theme=self.theme, language=language)
        caption.move_to(xyz(0, frame.caption_y))
        return caption


# A play of n frames is given n / fps less this, so float rounding in manim's
# frame count (ceil of seconds x fps) never adds a frame.
_EPSILON = 1e-6


@dataclass(frozen=True)
class _Cue:
    """Something a beat plays: a step of its animation, or a caption change."""

    start: int  # frames from the beat's start
    frames: int
    animation: Animation
    step: int | None = None  # which step of the beat; None for a caption change


def _weight(animation: Animation) -> float:
    return max(float(animation.get_run_time()), 1e-3)


def _segments(cues: Sequence[_Cue]) -> list[list[_Cue]]:
    """Group cues that overlap in time; each group is played at once."""
    segments: list[list[_Cue]] = []
    end = 0
    for cue in sorted(cues, key=lambda c: (c.start, c.step is None)):
        if segments and cue.start < end:
            segments[-1].append(cue)
            end = max(end, cue.start + cue.frames)
        else:
            segments.append([cue])
            end = cue.start + cue.frames
    return segments


def _timed(segment: Sequence[_Cue], first: int, end: int, fps: float) -> Animation:
    """One animation playing every cue of a segment at its own time."""
    pieces: list[Animation] = []
    for cue in segment:
        cue.animation.set_run_time(cue.frames / fps)
        # What must last a least real time inside it (a fade over a few frames) reads it.
        give_seconds(cue.animation, cue.frames / fps)
        offset = cue.start - first
        if offset > 0:
            pieces.append(Succession(Wait(run_time=offset / fps), cue.animation))
        else:
            pieces.append(cue.animation)
    # Padding makes the group last exactly the segment, so no piece is rescaled.
    pieces.append(Wait(run_time=(end - first) / fps))
    return AnimationGroup(*pieces)


def frame_count(seconds: float, fps: float) -> int:
    """Return how many whole frames ``seconds`` last at ``fps`` (rounded to the nearest).

    Parameters
    ----------
    seconds
        A duration.
    fps
        Frames per second.

    Returns
    -------
    int
        The frames.
    """
    return round(round(seconds * fps, 6))


def share_frames(total: int, weights: Sequence[float]) -> list[int]:
    """Split ``total`` frames into whole shares in proportion to ``weights``.

    Parameters
    ----------
    total
        Frames to share.
    weights
        One positive weight per share.

    Returns
    -------
    list of int
        Shares that add up to ``total``, each within one frame of its exact
        proportion (largest remainders get the spare frames).
    """
    whole = sum(weights)
    exact = [total * w / whole for w in weights]
    shares = [int(x) for x in exact]
    spare = total - sum(shares)
    for index in sorted(range(len(exact)), key=lambda i: shares[i] - exact[i])[:spare]:
        shares[index] += 1
    return shares


def schedule_steps(lengths: Sequence[int], phrase_starts: Sequence[int], total: int) -> list[int]:
    """Return when each step of a beat starts, in frames from the beat's start.

    Step *k* starts with phrase *k*, or as soon as step *k - 1* ends if that
    is later; steps beyond the phrases follow on at once. A step that would
    end after ``total`` starts early enough to end with the beat (and pushes
    the steps before it earlier too). Steps never overlap.

    Parameters
    ----------
    lengths
        Each step's frames; together at most ``total``.
    phrase_starts
        Each phrase's start, in frames.
    total
        The beat's frames.

    Returns
    -------
    list of int
        One start per step.

    Examples
    --------
    >>> schedule_steps([12, 14, 10], [0, 42, 90], 132)
    [0, 42, 90]
    >>> schedule_steps([12, 14, 10], [0], 84)
    [0, 12, 26]
    >>> schedule_steps([12, 14, 10], [0, 80, 81], 100)
    [0, 76, 90]
    """
    if sum(lengths) > total:
        raise ValueError(f"steps of {sum(lengths)} frames do not fit a beat of {total}")
    starts: list[int] = []
    ready = 0
    for number, length in enumerate(lengths):
        wanted = phrase_starts[number] if number < len(phrase_starts) else 0
        starts.append(max(wanted, ready))
        ready = starts[-1] + length
    latest = total
    for number in reversed(range(len(lengths))):
        starts[number] = min(starts[number], latest - lengths[number])
        latest = starts[number]
    return starts
