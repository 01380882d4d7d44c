"""embedviz in Jupyter: show a scene as a captioned HTML5 video.

.. code-block:: python

    from embedviz.notebook import show, storyboard_table

    board = show("SequenceLookup", ids="7,0,7", vocab=10)  # renders, or reuses a render
    storyboard_table(board)                                 # beats, times and narration

:func:`show` renders a scene (or reuses a cached render of the very same
storyboard), then displays a ``<video>`` with its WebVTT caption track and a
poster. A clip below ``embed_limit`` bytes is embedded in the notebook
(base64 data URIs), so the notebook survives being moved or exported to HTML
(Jupyter Book); a larger one is linked by a path relative to the notebook.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from embedviz.quality import PRESETS
from embedviz.story.model import Beat, Storyboard

if TYPE_CHECKING:
    from embedviz.export.voice import Voice

__all__ = [
    "EMBED_LIMIT",
    "Clip",
    "clip_html",
    "render_clip",
    "show",
    "storyboard_table",
]

# Clips up to this many bytes are embedded in the notebook; larger ones are linked.
EMBED_LIMIT = 10 * 2**20


@dataclass(frozen=True)
class Clip:
    """A rendered clip and its companion files, in the render cache.

    Attributes
    ----------
    video
        The MP4 (no captions burned in: they are the track).
    poster
        The final frame, as PNG.
    captions
        The WebVTT captions, one cue per narrated beat.
    reused
        Whether it came from the cache rather than a new render.
    """

    video: Path
    poster: Path
    captions: Path
    reused: bool = False


def _package_version() -> str:
    try:
        return version("embedviz")
    except PackageNotFoundError:  # running from a source tree
        return "source"


def cache_key(board: Storyboard, quality: str, voice: str = "") -> str:
    """Return the cache key of a render: a hash of the storyboard, quality and voice.

    Parameters
    ----------
    board
        The storyboard; any change to a number, a word or a timing changes it.
    quality
        The render quality flag.
    voice
        The narrating voice's label (see :attr:`embedviz.export.voice.Voice.label`),
        or empty for a silent clip.

    Returns
    -------
    str
        Sixteen hex digits.
    """
    payload = json.dumps(
        {
            "storyboard": board.to_dict(),
            "quality": quality,
            "voice": voice,
            "embedviz": _package_version(),
        },
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


def render_clip(
    board: Storyboard,
    *,
    quality: str = "l",
    cache_dir: str | Path = "media/notebook",
    on_beat: Callable[[int, int], None] | None = None,
    voice: Voice | None = None,
) -> tuple[Clip, Storyboard]:
    """Render a storyboard to an MP4 with poster and captions, or reuse the cached one.

    Parameters
    ----------
    board
        The storyboard.
    quality
        ``l`` (480p15, default), ``m``, ``h``, ``p`` or ``k``.
    cache_dir
        Where renders are kept, one folder per storyboard hash.
    on_beat
        Called with (beats done, beats) while rendering.
    voice
        Speak the narration with this voice (see
        :func:`embedviz.export.voice.synthesise_phrases`): the clip gets a
        soundtrack, and its beats and caption cues are timed to the speech.

    Returns
    -------
    tuple
        The :class:`Clip` files, and the storyboard they show (retimed to
        the speech when ``voice`` is given).
    """
    from manim import tempconfig

    from embedviz.export.documents import captions_vtt
    from embedviz.export.media import mux_soundtrack, video_seconds, write_poster
    from embedviz.export.voice import synthesise_phrases
    from embedviz.render.base import StoryboardScene

    if quality not in PRESETS:
        raise ValueError(f"quality must be one of {', '.join(PRESETS)}, not {quality!r}")
    key = cache_key(board, quality, voice.label if voice is not None else "")
    folder = Path(cache_dir) / f"{board.scene}-{key}"
    clip = Clip(
        folder / f"{board.scene}.mp4",
        folder / f"{board.scene}.poster.png",
        folder / f"{board.scene}.{board.language}.vtt",
    )
    timed = folder / "storyboard.json"
    if all(path.is_file() for path in (clip.video, clip.poster, clip.captions, timed)):
        from embedviz.story.contract import storyboard_from_data

        cached = storyboard_from_data(json.loads(timed.read_text(encoding="utf-8")))
        return Clip(clip.video, clip.poster, clip.captions, reused=True), cached
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    narration = None
    if voice is not None:
        narration = synthesise_phrases(board, voice, staging / "speech")
        board = narration.board
    total = len(board.all_beats())
    done = [0]

    class NotebookClip(StoryboardScene):
        scene_name = board.scene
        # The captions are the video's text track, not pixels.
        captions = False

        def after_beat(self, beat: Beat) -> None:
            done[0] += 1
            if on_beat is not None:
                on_beat(done[0], total)

    settings: dict[str, Any] = {
        "media_dir": str(staging / "media"),
        **PRESETS[quality].settings(),
        "disable_caching": True,
        "verbosity": "ERROR",
        "progress_bar": "none",
        "format": "mp4",
        "output_file": board.scene,
    }
    logging.getLogger("manim").setLevel(logging.ERROR)
    try:
        with tempconfig(settings):
            scene = NotebookClip(storyboard=board)
            scene.render()
            movie = Path(scene.renderer.file_writer.movie_file_path)
        if narration is None:
            os.replace(movie, staging / clip.video.name)
        else:
            mux_soundtrack(movie, narration.samples, narration.rate, staging / clip.video.name)
            shutil.rmtree(staging / "speech", ignore_errors=True)
        shutil.rmtree(staging / "media")
        write_poster(staging / clip.video.name, staging / clip.poster.name)
        length = video_seconds(staging / clip.video.name)
        (staging / clip.captions.name).write_text(captions_vtt(board, length), encoding="utf-8")
        (staging / timed.name).write_text(board.to_json(), encoding="utf-8")
        if folder.exists():  # an incomplete earlier render
            shutil.rmtree(folder)
        os.replace(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return clip, board


def _data_uri(path: Path, mime: str) -> str:
    return f"data:{mime};base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def clip_html(
    clip: Clip,
    board: Storyboard,
    *,
    embed_limit: int = EMBED_LIMIT,
    relative_to: str | Path | None = None,
) -> str:
    """Return the ``<video>`` element for a clip, with its caption track and poster.

    Parameters
    ----------
    clip
        The rendered clip.
    board
        Its storyboard (for the title and the duration).
    embed_limit
        Embed the video, poster and captions as data URIs when the video is
        at most this many bytes; otherwise link them.
    relative_to
        Links are relative to this folder (the notebook's, i.e. the working
        directory, by default).

    Returns
    -------
    str
        An HTML fragment.
    """
    if clip.video.stat().st_size <= embed_limit:
        video = _data_uri(clip.video, "video/mp4")
        poster = _data_uri(clip.poster, "image/png")
        captions = _data_uri(clip.captions, "text/vtt")
    else:
        base = Path(relative_to) if relative_to is not None else Path.cwd()

        def link(path: Path) -> str:
            return Path(os.path.relpath(path.resolve(), base.resolve())).as_posix()

        video, poster, captions = link(clip.video), link(clip.poster), link(clip.captions)
    from embedviz.export.documents import language_name

    label = f"{board.title} ({board.duration:.0f} s)"
    language = html.escape(board.language)
    return (
        f'<figure class="embedviz-clip" style="margin:0" lang="{language}">\n'
        f'<video controls preload="metadata" playsinline style="max-width:100%" width="854"'
        f' poster="{html.escape(poster)}" aria-label="{html.escape(label)}">\n'
        f'  <source src="{html.escape(video)}" type="video/mp4">\n'
        f'  <track kind="captions" srclang="{language}"'
        f' label="{html.escape(language_name(board.language))}" src="{html.escape(captions)}"'
        f" default>\n"
        f"</video>\n"
        f"<figcaption>{html.escape(label)}</figcaption>\n"
        f"</figure>"
    )


def _progress_html(done: int, total: int, scene: str) -> str:
    return (
        f"<label>Rendering {html.escape(scene)}: beat {done} of {total} "
        f'<progress value="{done}" max="{total}"></progress></label>'
    )


def show(
    scene: str,
    *,
    quality: str = "l",
    cache_dir: str | Path = "media/notebook",
    embed_limit: int = EMBED_LIMIT,
    voice: str | None = None,
    **options: Any,
) -> Storyboard:
    """Render a scene (or reuse its render) and display it as a captioned video.

    Parameters
    ----------
    scene
        Class name (``SequenceLookup``) or alias (``sequence``).
    quality
        ``l`` (480p15, default), ``m``, ``h``, ``p`` or ``k``.
    cache_dir
        Where renders are kept, keyed by the storyboard's hash: showing the
        same storyboard again reuses its render.
    embed_limit
        Clips up to this many bytes are embedded (base64); larger ones are
        linked relative to the working directory (the notebook's folder).
    voice
        Narrate the clip: ``"auto"`` (the best installed voice for the
        storyboard's language), ``"piper"`` or ``"espeak"``; None (default)
        gives a silent clip.
    **options
        Scene options, as on the command line: ``ids="2,3,5,1"``,
        ``vocab=10``, ``dim=4``, ``seed=7``, ``theme="light"``, ...

    Returns
    -------
    Storyboard
        The scene's storyboard: every beat, number and sentence it shows
        (timed to the speech when ``voice`` is given).

    Raises
    ------
    EmbedvizError
        For bad options, in one line.
    """
    from embedviz.inputs import prepared_storyboard
    from embedviz.story.scenes import find_scene

    spec = find_scene(scene)
    board = prepared_storyboard(spec.name, options)
    speaker = None
    if voice is not None:
        from embedviz.export.voice import choose_voice

        speaker = choose_voice(voice, language=board.language)
    handle: Any = None
    if _ipython() is not None:
        from IPython import display as ipython_display

        # IPython's display functions are not annotated.
        html_output: Any = ipython_display.HTML
        display: Any = ipython_display.display
        handle = display(
            html_output(_progress_html(0, len(board.all_beats()), spec.name)), display_id=True
        )

    def progress(done: int, total: int) -> None:
        if handle is not None:
            handle.update(html_output(_progress_html(done, total, spec.name)))

    clip, board = render_clip(
        board, quality=quality, cache_dir=cache_dir, on_beat=progress, voice=speaker
    )
    if handle is not None:
        handle.update(html_output(clip_html(clip, board, embed_limit=embed_limit)))
    return board


def _ipython() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


class _Html:
    """An HTML fragment that Jupyter displays as HTML and a console as text."""

    def __init__(self, markup: str, text: str) -> None:
        self.markup = markup
        self.text = text

    def _repr_html_(self) -> str:
        return self.markup

    def __repr__(self) -> str:
        return self.text


def storyboard_table(board: Storyboard) -> Any:
    """Return a storyboard's beats as a table: start, name, action, numbers shown, narration.

    Parameters
    ----------
    board
        The storyboard.

    Returns
    -------
    object
        Displays as an HTML table in Jupyter and as plain text elsewhere.
    """
    rows = []
    lines = []
    beats = board.all_beats()
    for start, beat in zip(board.beat_start_times(), beats, strict=True):
        cells = [
            f"{start:.1f}",
            beat.name,
            beat.action,
            str(len(beat.numbers)),
            beat.narration,
        ]
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
        lines.append(f"{start:6.1f}s  {beat.name:<12} {beat.narration}")
    head = "".join(
        f'<th scope="col">{h}</th>'
        for h in ("start (s)", "beat", "action", "numbers on screen", "narration")
    )
    caption = html.escape(f"{board.scene}: {board.title}, {len(beats)} beats, {board.duration} s")
    markup = (
        f'<table class="embedviz-storyboard"><caption>{caption}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    return _Html(markup, "\n".join(lines))
