"""Every moment, not only beat ends: sample a storyboard's animations mid-motion.

A dry run (no video is encoded) plays each beat with ``skip_animations``; a
:class:`MomentScene` first interpolates each step of the beat's animation at a
few alphas (for example 0.25, 0.5 and 0.75) and reports each sample, then lets
the beat finish and reports its end. Tests read the screen at each sample, and
the contact sheet draws a frame at the middle of every step and at the end of
every beat.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from manim import config

from embedviz.render.base import StoryboardScene
from embedviz.render.boxes import content_band, mobject_boxes
from embedviz.render.family import family_ids, has_family_outside
from embedviz.render.space import Box, Emptiness, largest_empty_rectangle
from embedviz.render.theme import Theme
from embedviz.story.model import Beat, Storyboard

__all__ = [
    "Moment",
    "MomentScene",
    "Tile",
    "capture_tiles",
    "contact_sheet",
    "drawn_boxes",
    "frame_boxes",
    "frame_emptiness",
    "frame_pixels",
    "play_moments",
]


@dataclass(frozen=True)
class Moment:
    """Where a sample was taken.

    Attributes
    ----------
    beat
        The beat being played.
    alpha
        How far through the step's animation (1.0 is the end of the beat).
    time
        Seconds from the start of the video.
    step
        Which step of the beat's animation was sampled (see
        :class:`~embedviz.render.animations.Steps`); 0 for a beat's end.
    stale
        What has changed on screen although the play drew it only once: Manim
        paints the mobjects no animation of a play names into one still
        background when the play begins, so a change to one of them shows in
        the video only when the next play begins. Each entry names one such
        mobject (empty at a beat's end, and whenever the video shows what the
        scene holds).
    """

    beat: Beat
    alpha: float
    time: float
    step: int = 0
    stale: tuple[str, ...] = ()


class MomentScene(StoryboardScene):
    """A storyboard scene that reports mid-motion samples and beat ends.

    Parameters
    ----------
    alphas
        Where to sample each beat's animation, between 0 and 1.
    on_moment
        Called with the scene and the :class:`Moment` at every sample and at
        the end of every beat.
    beats
        The names of the beats to report (sampled and at their ends); the
        others play unsampled. All beats by default.
    **kwargs
        Passed to :class:`~embedviz.render.base.StoryboardScene`.
    """

    def __init__(
        self,
        *args: Any,
        alphas: Sequence[float] = (0.5,),
        on_moment: Callable[[MomentScene, Moment], None] | None = None,
        beats: Collection[str] | None = None,
        **kwargs: Any,
    ) -> None:
        self.alphas = tuple(alphas)
        self.on_moment = on_moment
        self.beats = None if beats is None else frozenset(beats)
        self.current_beat: Beat | None = None
        self.beat_start = 0.0
        self.clock = 0.0
        super().__init__(*args, **kwargs)
        # Nothing reads the frames Manim draws at every play of a dry run (the
        # still background and each step's picture): a moment's picture is drawn
        # when asked for (frame_pixels). Not drawing them was an eighth of a dry run.
        if config.dry_run:
            renderer: Any = self.renderer
            renderer.save_static_frame_data = _draw_nothing
            renderer.update_frame = _draw_nothing

    def before_beat(self, beat: Beat) -> None:
        """Remember which beat is playing and when it starts."""
        self.current_beat = beat
        self.beat_start = self.clock

    def after_beat(self, beat: Beat) -> None:
        """Report the end of the beat."""
        self.clock = round(self.beat_start + beat.duration, 6)
        if self.on_moment is not None and self._reports(beat):
            self.on_moment(self, Moment(beat, 1.0, self.clock))

    def _reports(self, beat: Beat) -> bool:
        """Whether ``beat``'s moments are reported (every beat's unless ``beats`` names some)."""
        return self.beats is None or beat.name in self.beats

    def play_internal(self, skip_rendering: bool = False) -> None:
        """Interpolate each step of the beat in this play at each alpha, then play it."""
        beat = self.current_beat
        # Only the steps of the beat's animation are sampled, not the caption
        # changes that happen between them.
        # Sampling a step costs far more than playing it: beats nobody reads play through.
        if (
            beat is not None
            and self.on_moment is not None
            and self.animations
            and self._reports(beat)
        ):
            painted = [(m, _looks(m)) for m in self.static_mobjects]
            for step, offset, seconds in self.playing_steps:
                for alpha in self.alphas:
                    at = offset + alpha * seconds
                    self.update_to_time(at)
                    when = self.beat_start + self.beat_clock + at
                    stale = tuple(
                        f"{type(m).__name__} {getattr(m, 'text', '')!s}".strip()
                        for m, looks in painted
                        if not _same_looks(_looks(m, copy=False), looks)
                    ) + _drawn_off_scene(self)
                    self.on_moment(self, Moment(beat, alpha, when, step, stale))
        super().play_internal(skip_rendering)


def _drawn_off_scene(scene: StoryboardScene) -> tuple[str, ...]:
    """Name what the play draws at every frame although it has left the scene.

    Manim draws a play's ``moving_mobjects`` at every frame; one removed from
    the scene mid-play and left in that list would still show where it was
    (see :meth:`~embedviz.render.base.StoryboardScene.remove`).
    """
    on_scene = family_ids(scene.mobjects)
    # Nearly always nothing is: that is answered without listing the families in order.
    if not has_family_outside(scene.moving_mobjects, on_scene):
        return ()
    drawn = [m for top in scene.moving_mobjects for m in top.get_family()]
    return tuple(
        f"{type(m).__name__} {getattr(m, 'text', '')!s} (off the scene, still drawn)".strip()
        for m in {id(m): m for m in drawn if id(m) not in on_scene and len(m.points)}.values()
    )


def _draw_nothing(*args: Any, **kwargs: Any) -> None:
    """Stand in for a renderer's drawing, in a scene whose frames are drawn on demand."""


def _looks(mobject: Any, *, copy: bool = True) -> tuple[np.ndarray, ...]:
    """Return what decides how a mobject is drawn: its points and colours (a copy, to keep)."""
    take = np.array if copy else np.asarray
    looks = [take(mobject.points), np.array([getattr(mobject, "stroke_width", 0.0)])]
    for name in ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas"):
        value = getattr(mobject, name, None)
        if value is not None:
            looks.append(take(value))
    return tuple(looks)


def _same_looks(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...]) -> bool:
    # Most mobjects did not change at all: equal bytes answer that about a hundred
    # times faster than allclose, which then judges only the ones that moved.
    return len(a) == len(b) and all(
        x.shape == y.shape and (x.tobytes() == y.tobytes() or np.allclose(x, y, atol=1e-9))
        for x, y in zip(a, b, strict=True)
    )


def frame_pixels(scene: StoryboardScene) -> np.ndarray:
    """Draw the scene as it is now and return the frame's RGB pixels.

    Parameters
    ----------
    scene
        A scene mid-play (in a dry run, nothing has been drawn yet).

    Returns
    -------
    numpy.ndarray
        Height × width × 3 bytes.
    """
    renderer: Any = scene.renderer
    renderer.camera.reset()
    renderer.camera.capture_mobjects(scene.mobjects)
    return np.array(renderer.get_frame())[:, :, :3]


def drawn_boxes(
    scene: StoryboardScene, leave_out: Sequence[Any] = (), background: str | None = None
) -> list[Box]:
    """Return the boxes of everything visibly drawn on the scene (see ``render.boxes``)."""
    return mobject_boxes(scene.mobjects, leave_out, background)


def frame_emptiness(scene: StoryboardScene, hollow: bool = False) -> Emptiness:
    """Return the largest empty rectangle between the title and the caption, as drawn now.

    With ``hollow``, a framed box with nothing in it (a rectangle filled with
    nothing or the theme's background) counts as the empty space it looks
    like, not as drawn (:func:`~embedviz.render.boxes.mobject_boxes`).
    """
    return largest_empty_rectangle(*frame_boxes(scene, hollow))


def frame_boxes(scene: StoryboardScene, hollow: bool = False) -> tuple[list[Box], Box]:
    """Return the boxes of what is drawn now and the band between the title and the caption.

    What :func:`frame_emptiness` measures (``hollow`` as there).
    """
    title = getattr(scene.stage, "title", None)
    leave_out = [m for m in (title, scene.caption) if m is not None]
    theme = getattr(scene.stage, "theme", None)
    background = theme.background if hollow and theme is not None else None
    return drawn_boxes(scene, leave_out, background), content_band(title)


def play_moments(
    board: Storyboard,
    on_moment: Callable[[MomentScene, Moment], None],
    *,
    alphas: Sequence[float] = (0.5,),
    pixel_width: int = 1280,
    pixel_height: int = 720,
    media_dir: Path | None = None,
    theme: Theme | None = None,
    beats: Collection[str] | None = None,
) -> None:
    """Dry-run a storyboard, calling ``on_moment`` mid-motion and at beat ends.

    Parameters
    ----------
    board
        The storyboard.
    on_moment
        The callback.
    alphas
        Where to sample each animation.
    pixel_width, pixel_height
        The frame size the camera draws at.
    media_dir
        Manim's media folder (nothing is written there in a dry run but
        manim wants one); a temporary folder by default.
    theme
        Colours; by default the storyboard's.
    beats
        Report only these beats' moments (by name); the others play
        unsampled, so a check that reads one beat does not pay to sample
        every other. All beats by default.
    """
    import tempfile

    from manim import tempconfig

    with tempfile.TemporaryDirectory(prefix="embedviz-moments-") as scratch:
        settings = {
            "dry_run": True,
            "disable_caching": True,
            "media_dir": str(media_dir or scratch),
            "pixel_width": pixel_width,
            "pixel_height": pixel_height,
            "frame_rate": 15,
            "verbosity": "ERROR",
            "progress_bar": "none",
        }
        typeset = _typeset_folder() if media_dir is None else None
        if typeset is not None:
            settings["tex_dir"] = typeset
        with tempconfig(settings), _parsed_once_per_play(typeset):
            scene = MomentScene(
                storyboard=board,
                theme=theme,
                alphas=alphas,
                on_moment=on_moment,
                beats=beats,
                skip_animations=True,
            )
            scene.render()


# This process's folder for Typst's compiled maths (see _typeset_folder), once made.
_TYPESET: list[str] = []


def _typeset_folder() -> str:
    """Return a folder where this process's plays keep the maths Typst compiled.

    Manim compiles a formula only if its SVG (named by the hash of its
    source) is not in the folder yet; each play used to get an empty one in
    its scratch folder, so a process that plays many scenes compiled the same
    formulas again and again. Compiling is deterministic: the file is the same.
    One folder per process, so that two test workers never write the same file.
    """
    if not _TYPESET:
        import atexit
        import shutil
        import tempfile

        folder = tempfile.mkdtemp(prefix="embedviz-typeset-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _TYPESET.append(folder)
    return _TYPESET[0]


@contextmanager
def _parsed_once_per_play(folder: str | None) -> Iterator[None]:
    """Forget, when the play ends, the parsed formulas whose SVG lies in ``folder``.

    Manim keeps every parsed SVG, by its file's path, and hands out a copy
    for a formula set again: one whose path was in a play's own scratch folder
    was never asked for again. Shared between plays, it would be, and a copy
    keeps what the first one set (a fraction bar's stroke width): each play
    parses its maths afresh, as it did with a folder of its own.
    """
    from manim.mobject.svg.svg_mobject import SVG_HASH_TO_MOB_MAP

    before = set(SVG_HASH_TO_MOB_MAP)
    try:
        yield
    finally:
        if folder is not None:
            for key in set(SVG_HASH_TO_MOB_MAP) - before:
                name = str(getattr(SVG_HASH_TO_MOB_MAP[key], "file_name", ""))
                if name.startswith(folder):
                    del SVG_HASH_TO_MOB_MAP[key]


@dataclass(frozen=True)
class Tile:
    """One frame of a contact sheet.

    Attributes
    ----------
    beat
        The beat's name.
    when
        ``mid`` (the middle of its motion; ``mid 2`` for the middle of its
        second step, and so on) or ``end`` (the end of the beat).
    time
        Seconds from the start of the video.
    pixels
        The frame.
    """

    beat: str
    when: str
    time: float
    pixels: np.ndarray


def capture_tiles(
    board: Storyboard, pixel_width: int = 1280, pixel_height: int = 720
) -> list[Tile]:
    """Capture a frame at the middle of every step of every beat's motion and at its end.

    Parameters
    ----------
    board
        The storyboard.
    pixel_width, pixel_height
        The frame size.

    Returns
    -------
    list of Tile
        One per step of each beat's animation (most beats have one step; see
        :class:`~embedviz.render.animations.Steps`) and one at its end, in
        playing order.
    """
    tiles: list[Tile] = []

    def grab(scene: MomentScene, moment: Moment) -> None:
        when = (
            "end" if moment.alpha >= 1 else "mid" if moment.step == 0 else f"mid {moment.step + 1}"
        )
        tiles.append(Tile(moment.beat.name, when, moment.time, frame_pixels(scene)))

    play_moments(board, grab, alphas=(0.5,), pixel_width=pixel_width, pixel_height=pixel_height)
    return tiles


def contact_sheet(tiles: Sequence[Tile], columns: int = 4, tile_width: int = 320) -> Any:
    """Lay tiles out in a grid, each captioned with its beat, moment and time.

    Parameters
    ----------
    tiles
        The frames, in order.
    columns
        Tiles per row.
    tile_width
        The width each frame is scaled to, in pixels.

    Returns
    -------
    PIL.Image.Image
        The sheet.
    """
    from PIL import Image, ImageDraw, ImageFont

    if not tiles:
        raise ValueError("a contact sheet needs at least one tile")
    height, width = tiles[0].pixels.shape[:2]
    tile_height = round(tile_width * height / width)
    caption = 22
    pad = 6
    rows = -(-len(tiles) // columns)
    sheet = Image.new(
        "RGB",
        (columns * (tile_width + pad) + pad, rows * (tile_height + caption + pad) + pad),
        (24, 26, 30),
    )
    draw = ImageDraw.Draw(sheet)
    try:
        font: Any = ImageFont.truetype("DejaVuSans.ttf", 13)
    except OSError:
        font = ImageFont.load_default()
    for number, tile in enumerate(tiles):
        row, column = divmod(number, columns)
        x = pad + column * (tile_width + pad)
        y = pad + row * (tile_height + caption + pad)
        image = Image.fromarray(tile.pixels.astype(np.uint8), "RGB")
        sheet.paste(image.resize((tile_width, tile_height), Image.Resampling.LANCZOS), (x, y))
        label = f"{tile.beat} \u00b7 {tile.when} \u00b7 {tile.time:.1f} s"
        draw.text((x + 2, y + tile_height + 4), label, fill=(232, 234, 237), font=font)
    return sheet
