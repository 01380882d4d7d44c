"""The one base scene: it plays a storyboard, beat by beat, on stages."""

from __future__ import annotations

import sys
from typing import Any, ClassVar, cast

from manim import Animation, AnimationGroup, Camera, ManimColor, Scene, Succession, Text, Wait

from embedviz.core.errors import EmbedvizError
from embedviz.inputs import prepared_storyboard
from embedviz.render.animations import make_caption_animation
from embedviz.render.formula import FormulaText
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.mobjects import Caption, xyz
from embedviz.render.stage import CAPTION_WIDTH, CAPTION_Y, Stage, stage_for
from embedviz.render.theme import THEMES, Theme
from embedviz.story.model import Beat, Storyboard
from embedviz.story.phrases import TICK

__all__ = ["StoryboardScene", "screen_texts"]


def screen_texts(
    scene: Scene,
) -> tuple[list[NumberText], list[LabelText | FormulaText], list[SansText | Text]]:
    """Collect every checked number, label and plain text currently on screen.

    Parameters
    ----------
    scene
        A scene mid-render.

    Returns
    -------
    tuple of lists
        The ``NumberText``, ``LabelText`` (with typeset ``FormulaText``) and
        ``SansText`` (or manim ``Text``) objects in the scene's mobject families.
    """
    numbers: list[NumberText] = []
    labels: list[LabelText | FormulaText] = []
    texts: list[SansText | Text] = []
    seen: set[int] = set()
    for top in scene.mobjects:
        for mobject in top.get_family():
            if id(mobject) in seen:
                continue
            seen.add(id(mobject))
            if isinstance(mobject, NumberText):
                numbers.append(mobject)
            elif isinstance(mobject, LabelText | FormulaText):
                labels.append(mobject)
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
        super().__init__(*args, **kwargs)

    # -- hooks ---------------------------------------------------------------
    def before_beat(self, beat: Beat) -> None:
        """Run as every beat starts; the exporter adds the beat's speech here."""

    def after_beat(self, beat: Beat) -> None:
        """Run after every beat has played; tests override it to read the screen."""

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
        name = str(self.storyboard.options.get("theme") or "dark")
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
            if self.burn_captions:
                self.play_beat_with_phrases(beat)
                continue
            self.before_beat(beat)
            self.play(self.stage.animate(beat), run_time=beat.run_time)
            hold = round(beat.duration - beat.run_time, 6)
            if hold > 0:
                self.wait(hold)
            self.after_beat(beat)

    def play_beat_with_phrases(self, beat: Beat) -> None:
        """Play a beat with its narration burned in, one caption per phrase.

        The beat's animation starts with its first phrase. Each later phrase
        replaces the caption when it starts (see :class:`~embedviz.story.model.Phrase`),
        during the animation or during the hold, so the picture's captions
        keep the storyboard's timing, as the WebVTT cues do.

        Parameters
        ----------
        beat
            The beat.
        """
        assert self.stage is not None
        # Phrase starts are kept to whole ticks, so every wait and play below
        # lasts whole frames at 15, 30 and 60 fps and the video keeps its length.
        phrases = [(p.text, _on_tick(p.start)) for p in beat.phrases] or [(beat.narration, 0.0)]
        captions = [self._caption(text) for text, _ in phrases]
        # Swaps that fit inside the animation ride along with it.
        track: list[Animation] = [make_caption_animation(self.caption, captions[0])]
        clock = _SWAP
        later = len(phrases)
        for number in range(1, len(phrases)):
            start = phrases[number][1]
            if start + _SWAP > beat.run_time:
                later = number
                break
            if start > clock:
                track.append(Wait(run_time=start - clock))
            track.append(make_caption_animation(captions[number - 1], captions[number]))
            clock = max(clock, start) + _SWAP
        if clock < beat.run_time:
            track.append(Wait(run_time=beat.run_time - clock))
        self.before_beat(beat)
        self.play(
            AnimationGroup(self.stage.animate(beat), Succession(*track)), run_time=beat.run_time
        )
        self.caption = captions[later - 1]
        clock = beat.run_time
        for number in range(later, len(phrases)):
            start = phrases[number][1]
            if start > clock + 1e-9:
                self.wait(round(start - clock, 6))
                clock = start
            self.play(make_caption_animation(self.caption, captions[number]), run_time=_SWAP)
            self.caption = captions[number]
            clock = round(clock + _SWAP, 6)
        hold = round(beat.duration - clock, 6)
        if hold > 0:
            self.wait(hold)
        self.after_beat(beat)

    def _caption(self, text: str) -> Caption:
        caption = Caption(text, CAPTION_WIDTH, theme=self.theme)
        caption.move_to(xyz(0, CAPTION_Y))
        return caption


# How long one caption takes to give way to the next (make_caption_animation).
_SWAP = 0.6


def _on_tick(seconds: float) -> float:
    """Round a time to the nearest whole tick (beats are timed in ticks)."""
    return round(round(seconds / TICK) * TICK, 6)
