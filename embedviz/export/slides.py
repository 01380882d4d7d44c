"""Live slides: one slide per beat, through manim-slides, as an offline reveal.js deck.

``embedviz slides SCENE --out DIR`` writes:

- ``DIR/index.html``, a reveal.js deck that works from ``file://`` with no
  network: reveal.js is copied in from the copy that ``embedviz setup slides``
  fetched once (:mod:`embedviz.export.reveal_assets`), never a CDN;
  each slide is one beat's video, with controls, that plays when the viewer
  asks (``autoplay`` plays it on arrival), its narration as selectable
  caption text, and the same narration as speaker notes (press ``s``);
- ``DIR/slides/SCENE.json`` and ``DIR/slides/files/SCENE/``, manim-slides'
  own presentation, so ``manim-slides present --folder DIR/slides SCENE``
  works too;
- ``DIR/SCENE.handout.pdf``, one still per beat with its narration, each still
  a tagged figure whose alternative text is the beat's audio description;
- ``DIR/stills/``, the stills (also the videos' posters).

With a ``voice``, the narration is spoken as in the course-page export (each
phrase holds for its speech, and beats stretch to fit), and each beat's stretch
of the soundtrack is mixed into that slide's video, so the sound starts and
stops with its slide.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from embedviz.export.reveal_assets import REVEAL_FILES, REVEAL_VERSION, find_reveal
from embedviz.quality import PRESETS
from embedviz.story.model import Beat, Storyboard

if TYPE_CHECKING:
    from embedviz.export.voice import Voice

__all__ = [
    "REVEAL_VERSION",
    "deck_template",
    "find_reveal",
    "handout_typst",
    "mux_speech",
    "still_alt",
    "write_deck",
]


def _render_slides(
    board: Storyboard,
    quality: str,
    staging: Path,
    on_beat: Callable[[int, int], None] | None = None,
    *,
    burn_captions: bool = False,
    verbose: bool = False,
    constant_frame_rate: bool = False,
) -> Path:
    """Render a storyboard as manim-slides slides, one per beat; return the JSON."""
    from manim import Scene, tempconfig
    from manim_slides.slide.base import BaseSlide
    from manim_slides.slide.manim import Slide

    from embedviz.export.media import quiet_logging
    from embedviz.render.base import StoryboardScene

    total = len(board.all_beats())
    done = [0]

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        # Slide.__init__ sets config["write_to_movie"], which Manim 0.22 no
        # longer has (it always writes the movie); start from BaseSlide instead.
        BaseSlide.__init__(self, *args, **kwargs)
        # manim-slides joins each slide from its plays' own segments, so every
        # play keeps one (the writer otherwise writes a section into one).
        self.renderer.file_writer.one_segment_per_section = False

    def render(self: Any) -> None:
        # Slide.render sets max_files_cached to infinity, which Manim 0.22
        # refuses; the settings below allow unlimited files (-1) instead.
        Scene.render(self)
        self._save_slides(use_cache=False, flush_cache=False, skip_reversing=True)

    def before_beat(self: Any, beat: Beat) -> None:
        # A slide boundary at every beat; the narration becomes its notes.
        self.next_slide(notes=beat.narration, dedent_notes=False)

    def after_beat(self: Any, beat: Beat) -> None:
        done[0] += 1
        if on_beat is not None:
            on_beat(done[0], total)

    deck_class = type(
        board.scene,
        (Slide, StoryboardScene),
        {
            "scene_name": board.scene,
            # The caption is text on the slide; drawn into the video only on request.
            "captions": burn_captions,
            "constant_frame_rate": constant_frame_rate,
            # Going back replays the slide; no reversed videos are needed.
            "skip_reversing": True,
            "__init__": init,
            "render": render,
            "before_beat": before_beat,
            "after_beat": after_beat,
        },
    )
    settings: dict[str, Any] = {
        "media_dir": str(staging / "media"),
        **PRESETS[quality].settings(),
        "disable_caching": True,
        "max_files_cached": -1,
        "verbosity": "INFO" if verbose else "ERROR",
        "progress_bar": "none",
        "format": "mp4",
    }
    quiet_logging(verbose)
    logging.getLogger("manim-slides").setLevel(logging.INFO if verbose else logging.ERROR)
    folder = staging / "slides"
    with tempconfig(settings):
        scene = deck_class(storyboard=board, output_folder=folder)
        scene.render()
    shutil.rmtree(staging / "media", ignore_errors=True)
    path = folder / f"{board.scene}.json"
    # Store the files relative to DIR (manim-slides resolves them from the
    # JSON's grandparent), so the deck folder can be moved.
    # Name the videos by slide number, and store them relative to DIR
    # (manim-slides resolves them from the JSON's grandparent), so that the
    # deck folder can be moved.
    data = json.loads(path.read_text(encoding="utf-8"))
    for number, slide in enumerate(data["slides"]):
        produced = Path(slide["file"])
        named = produced.with_name(f"slide-{number:03d}{produced.suffix}")
        os.replace(produced, named)
        relative = Path(os.path.relpath(named, staging)).as_posix()
        slide["file"] = slide["rev_file"] = relative
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def mux_speech(video: Path, speech: Path, target: Path) -> None:
    """Copy a slide's video and add its narration as an AAC track (24 kHz) from the start.

    Parameters
    ----------
    video
        The silent slide video (H.264 MP4).
    speech
        The narration, a WAV file.
    target
        The MP4 to write.
    """
    import av

    from embedviz.export.media import AAC_RATE

    with (
        av.open(str(video)) as source,
        av.open(str(speech)) as sound,
        av.open(str(target), "w", format="mp4") as out,
    ):
        in_video = source.streams.video[0]
        out_video = out.add_stream_from_template(in_video)
        out_audio = out.add_stream("aac", rate=AAC_RATE, layout="mono")
        resampler = av.AudioResampler(format="fltp", layout="mono", rate=AAC_RATE)
        for packet in source.demux(in_video):
            if packet.dts is None:
                continue
            packet.stream = out_video
            out.mux(packet)
        samples = 0
        for frame in sound.decode(audio=0):
            for converted in resampler.resample(frame):
                converted.pts = samples
                converted.time_base = Fraction(1, AAC_RATE)
                samples += converted.samples
                for packet in out_audio.encode(converted):
                    out.mux(packet)
        for packet in out_audio.encode():
            out.mux(packet)


def still_alt(beat: Beat, number: int) -> str:
    """Return a handout still's alternative text: what the beat's picture shows.

    Parameters
    ----------
    beat
        The beat whose last frame the still is.
    number
        Its index among the slides, from 0.

    Returns
    -------
    str
        The beat's audio descriptions (values, prints, charts, colours); for
        a beat without any, a pointer to its narration, which the handout
        prints beside it.
    """
    said = " ".join(description.text for description in beat.descriptions)
    if said:
        return f"Slide {number + 1}: {said}"
    return f"Slide {number + 1}: the picture its narration, printed below it, describes."


def handout_typst(board: Storyboard, stills: Sequence[str]) -> str:
    """Return the Typst source of the handout: one still per beat and its narration.

    Each still's alternative text (``alt``, a tagged figure in the PDF) is the
    beat's audio description (:func:`still_alt`).

    Parameters
    ----------
    board
        The storyboard.
    stills
        One image path per beat, relative to the Typst file.

    Returns
    -------
    str
        Typst markup; every narration is a string literal, so no character in
        it is read as markup.
    """

    def literal(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'

    beats = board.all_beats()
    starts = board.beat_start_times()
    lines = [
        "#set document(title: " + literal(board.title) + ")",
        '#set page(paper: "a4", margin: 1.5cm, footer: context align(center, '
        "text(size: 8pt, counter(page).display())))",
        '#set text(font: ("DejaVu Sans", "Libertinus Serif"), size: 10pt, lang: "en")',
        '#text(size: 16pt, weight: "bold", ' + literal(board.title) + ")",
        "",
        "#text(size: 9pt, "
        + literal(
            f"{board.scene}: {len(beats)} slides, {board.vocab_size} × {board.dim} table "
            f"({board.source})"
        )
        + ")",
        "",
    ]
    for number, (beat, start, still) in enumerate(zip(beats, starts, stills, strict=True)):
        minutes, seconds = divmod(round(start), 60)
        heading = f"Slide {number + 1} · {minutes}:{seconds:02d}"
        lines += [
            "#block(breakable: false, above: 1.2em)[",
            f"  #image({literal(still)}, width: 100%, alt: {literal(still_alt(beat, number))})",
            f'  #text(weight: "bold", {literal(heading)}) \\',
            f"  #{literal(beat.narration)}",
            "]",
        ]
    return "\n".join(lines) + "\n"


_TEMPLATE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{{ title|e }}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="reveal.js/reveal.css">
<style>
  html, body, .reveal { background: @BACKGROUND@; color: @TEXT@; }
  .reveal { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; }
  .reveal .slides section { padding: 0; }
  .reveal video.embedviz-video { display: block; width: 1280px; height: 720px; margin: 0; }
  .reveal p.embedviz-caption {
    margin: 18px 40px 0; font-size: 28px; line-height: 1.35; text-align: center;
    user-select: text;
  }
  .reveal .controls { color: @TEXT@; }
</style>
</head>
<body>
<div class="reveal">
<div class="slides">
{% for presentation_config in presentation_configs %}
{% set outer_loop = loop %}
{% for slide_config in presentation_config.slides %}
<section data-embedviz-slide="{{ loop.index0 }}" aria-label="Slide {{ loop.index }}">
<video class="embedviz-video" controls @AUTOPLAY@playsinline preload="auto" @MUTED@
  aria-label="Slide {{ loop.index }}"
  poster="stills/slide-{{ '%03d' | format(loop.index0) }}.png"
  src="{{ assets_dir }}/{{ prefix(outer_loop.index0) }}{{ slide_config.file.name }}"></video>
<p class="embedviz-caption">{{ slide_config.notes|e }}</p>
<aside class="notes">{{ slide_config.notes|e }}</aside>
</section>
{% endfor %}
{% endfor %}
</div>
</div>
<script src="reveal.js/reveal.js"></script>
<script src="reveal.js/plugin/notes.js"></script>
<script>
  Reveal.initialize({
    plugins: [RevealNotes],
    width: 1280,
    height: 860,
    margin: 0.02,
    center: false,
    hash: true,
    controls: true,
    progress: true,
    slideNumber: "c/t",
    transition: "none",
    backgroundTransition: "none",
  });
  // reveal.js rewinds a clip to its start before playing it. Where the browser
  // refuses to play it (autoplay blocked, sound or no sound), the rewind leaves the clip's
  // first frame, the blank start of its fade-in, where the poster was: loading the
  // clip again brings the poster, a frame that shows the scene, back.
  for (const video of document.querySelectorAll("video.embedviz-video")) {
    video.addEventListener("playing", () => { video.dataset.played = "yes"; });
    video.addEventListener("seeked", () => {
      if (video.paused && video.currentTime === 0 && !video.dataset.played) video.load();
    });
  }
</script>
</body>
</html>
"""


def deck_template(background: str, text: str, *, voiced: bool, autoplay: bool) -> str:
    """Return the deck's page template (Jinja, for manim-slides' converter).

    Parameters
    ----------
    background, text
        The theme's colours.
    voiced
        Whether the clips carry sound (otherwise they are muted).
    autoplay
        Play each slide's clip when the slide shows. By default a clip waits
        for its play button, or for Space on the focused player (WCAG 2.2.2:
        nothing moves before the viewer asks).

    Returns
    -------
    str
        The template; every clip has controls.
    """
    return (
        _TEMPLATE.replace("@BACKGROUND@", background)
        .replace("@TEXT@", text)
        .replace("@MUTED@", "" if voiced else "muted")
        .replace("@AUTOPLAY@", "data-autoplay " if autoplay else "")
    )


def _write_html(
    config_path: Path, staging: Path, board: Storyboard, voiced: bool, autoplay: bool = False
) -> Path:
    """Convert the manim-slides presentation to the reveal.js deck (index.html)."""
    from manim_slides.config import PresentationConfig
    from manim_slides.convert import RevealJS

    from embedviz.render.theme import THEMES

    options: Any = board.options
    name = options.get("theme") if isinstance(options, dict) else getattr(options, "theme", None)
    theme = THEMES[str(name or "dark")]
    template = staging / ".deck-template.html"
    text = deck_template(theme.background, theme.text, voiced=voiced, autoplay=autoplay)
    template.write_text(text, encoding="utf-8")
    presentation = PresentationConfig.from_file(config_path)
    settings: dict[str, Any] = {
        "presentation_configs": [presentation],
        "template": template,
        "title": board.title,
        # The slide videos already sit here, so the converter copies nothing.
        "assets_dir": f"slides/files/{board.scene}",
    }
    converter = RevealJS(**settings)
    deck = staging / "index.html"
    converter.convert_to(deck)
    template.unlink()
    return deck


FORCE_HINT = "; or add --force to keep those files and add the deck beside them"


def _check_target(target: Path, force: bool) -> None:
    """Refuse, in one line, a deck folder that is not embedviz's own (unless ``force``)."""
    from embedviz.export.folders import check_mergeable, check_replaceable

    if force:
        check_mergeable(target)
    else:
        check_replaceable(target, "--out", FORCE_HINT)


def write_deck(
    board: Storyboard,
    out: str | Path,
    *,
    quality: str = "m",
    voice: Voice | None = None,
    burn_captions: bool = False,
    verbose: bool = False,
    force: bool = False,
    on_beat: Callable[[int, int], None] | None = None,
    constant_frame_rate: bool = False,
    autoplay: bool = False,
) -> Path:
    """Render a storyboard as a slide deck folder (see the module docstring).

    Parameters
    ----------
    board
        The storyboard; one slide per beat of :meth:`Storyboard.all_beats`.
    out
        The deck folder. It is written only when everything is finished, and
        it may replace only what embedviz wrote (see :mod:`embedviz.export.folders`).
    quality
        ``l``, ``m``, ``h``, ``p`` or ``k``, as for ``embedviz render``.
    voice
        Speak the narration with this voice (see
        :func:`embedviz.export.voice.choose_voice`) into each slide.
    burn_captions
        Also draw the narration into the videos (it is always text on the slide).
    verbose
        Let Manim's own log messages through.
    force
        Write into a folder that holds other files, keeping them; only the
        deck's own entries there are replaced.
    on_beat
        Called with (beats done, beats) as the render goes.
    constant_frame_rate
        Write a frame for every tick (``--cfr``); by default each still
        picture is written once, lasting as long as it is held.
    autoplay
        Play each slide's clip as soon as the slide shows; by default every
        clip has controls and waits for the viewer.

    Returns
    -------
    Path
        The deck's ``index.html``.

    Raises
    ------
    EmbedvizError
        If reveal.js is missing, or ``out`` holds other files (without ``force``).
    """
    import typst

    from embedviz.export.folders import (
        make_staging,
        merge_into_place,
        publish_permissions,
        signals_held,
        site_lock,
        swap_into_place,
        write_manifest,
    )
    from embedviz.export.media import write_poster
    from embedviz.export.publishing import publishing
    from embedviz.export.voice import synthesise_phrases

    target = Path(out).resolve()
    reveal = find_reveal()
    _check_target(target, force)
    # A signal that lands here is delivered once the folder's name is known.
    with signals_held():
        staging = make_staging(target.parent, f".{target.name}.new-", "--out")
    try:
        sounds: list[Path | None] = []
        if voice is not None:
            narration = synthesise_phrases(board, voice, staging / "speech")
            board = narration.board
            sounds = [
                narration.write_wav(staging / "speech" / f"slide-{number:03d}.wav", number)
                for number in range(len(board.all_beats()))
            ]
        config_path = _render_slides(
            board,
            quality,
            staging,
            on_beat,
            burn_captions=burn_captions,
            verbose=verbose,
            constant_frame_rate=constant_frame_rate,
        )
        slides = json.loads(config_path.read_text(encoding="utf-8"))["slides"]
        beats = board.all_beats()
        if len(slides) != len(beats):
            raise RuntimeError(f"manim-slides made {len(slides)} slides for {len(beats)} beats")
        stills_dir = staging / "stills"
        stills_dir.mkdir()
        stills = []
        speech = sounds or [None] * len(beats)
        for number, (slide, sound) in enumerate(zip(slides, speech, strict=True)):
            video = staging / slide["file"]
            if sound is not None:
                voiced = video.with_name(f".voiced-{video.name}")
                mux_speech(video, sound, voiced)
                os.replace(voiced, video)
            still = f"stills/slide-{number:03d}.png"
            write_poster(video, staging / still)
            stills.append(still)
        shutil.rmtree(staging / "speech", ignore_errors=True)
        for name in REVEAL_FILES.values():
            (staging / "reveal.js" / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(reveal / name, staging / "reveal.js" / name)
        _write_html(config_path, staging, board, voiced=voice is not None, autoplay=autoplay)
        source = staging / f".{board.scene}.handout.typ"
        source.write_text(handout_typst(board, stills), encoding="utf-8")
        typst.compile(str(source), output=str(staging / f"{board.scene}.handout.pdf"))
        source.unlink()
        (staging / f"{board.scene}.storyboard.json").write_text(board.to_json(), encoding="utf-8")
        write_manifest(staging)
        publish_permissions(staging)
        # One run at a time publishes here, and no stop can cut publishing short.
        with publishing(site_lock(target), target):
            if force:
                merge_into_place(staging, target)
            else:
                swap_into_place(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target / "index.html"
