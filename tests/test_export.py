"""Course-page export: documents, atomic replacement, and a real headless browser."""

from __future__ import annotations

import contextlib
import hashlib
import html.parser
import http.server
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from webvtt_strict import WebVTTError, parse_webvtt

from embedviz.export.documents import (
    CHAPTERS_SCRIPT,
    CHAPTERS_SCRIPT_NAME,
    ExportedClip,
    captions_vtt,
    chapters,
    chapters_vtt,
    gallery_html,
    numbers_table_html,
    snippet_html,
    transcript_html,
    vtt_text,
)
from embedviz.export.media import mux_soundtrack, transcode_webm
from embedviz.export.site import ExportError, export_site
from embedviz.inputs import prepared_storyboard
from embedviz.story.contract import load_storyboard, verify_storyboard
from embedviz.story.scenes import SCENES

REPO = Path(__file__).resolve().parent.parent
ARTEFACTS = REPO / "media" / "test-artefacts"
CI = os.environ.get("CI") == "true"


def _cues(vtt: str, *, chapters: bool = False) -> list[tuple[float, float, str]]:
    """Parse a WebVTT file strictly (see webvtt_strict) into (start, end, text)."""
    return [(c.start, c.end, c.text) for c in parse_webvtt(vtt, chapters=chapters)]


_CUE = "WEBVTT\n\n00:00.000 --> 00:01.000\n"
BAD_VTT = {
    "unescaped <": _CUE + "grad_fn=<EmbeddingBackward0> is metadata\n",
    "bare &": _CUE + "rows & columns\n",
    "reference without ;": _CUE + "rows &amp columns\n",
    "unknown reference": _CUE + "&notareference;\n",
    "unknown tag": _CUE + "<x>text</x>\n",
    "unclosed tag": _CUE + "<i>text\n",
    "crossed tags": _CUE + "<i><b>text</i></b>\n",
    "arrow in text": _CUE + "a --> b\n",
    "no signature": "WEBVT\n\n00:00.000 --> 00:01.000\ntext\n",
    "no blank line after signature": "WEBVTT\n00:00.000 --> 00:01.000\ntext\n",
    "short milliseconds": "WEBVTT\n\n00:00.00 --> 00:01.000\ntext\n",
    "one-digit minutes": "WEBVTT\n\n0:00.000 --> 00:01.000\ntext\n",
    "sixty seconds": "WEBVTT\n\n00:60.000 --> 00:61.000\ntext\n",
    "comma decimal": "WEBVTT\n\n00:00,000 --> 00:01,000\ntext\n",
    "ends before it starts": "WEBVTT\n\n00:02.000 --> 00:01.000\ntext\n",
    "empty cue": "WEBVTT\n\n00:00.000 --> 00:00.000\ntext\n",
    "bad setting": "WEBVTT\n\n00:00.000 --> 00:01.000 colour:red\ntext\n",
    "no text": "WEBVTT\n\n00:00.000 --> 00:01.000\n",
    "blank line inside a cue": "WEBVTT\n\n00:00.000 --> 00:01.000\nfirst\n\nsecond\n",
    "out of order": (
        "WEBVTT\n\n00:02.000 --> 00:03.000\nlater\n\n00:01.000 --> 00:04.000\nearlier\n"
    ),
}
BAD_CHAPTERS = {
    "overlapping chapters": (
        "WEBVTT\n\n00:00.000 --> 00:02.000\nOne\n\n00:01.000 --> 00:03.000\nTwo\n"
    ),
    "same chapter twice": (
        "WEBVTT\n\n00:00.000 --> 00:02.000\nOne\n\n00:00.000 --> 00:02.000\nTwo\n"
    ),
    "tag in a chapter title": _CUE + "<b>One</b>\n",
}


@pytest.mark.parametrize("name", list(BAD_VTT))
def test_strict_webvtt_parser_rejects(name: str) -> None:
    with pytest.raises(WebVTTError):
        parse_webvtt(BAD_VTT[name])


@pytest.mark.parametrize("name", list(BAD_CHAPTERS))
def test_strict_webvtt_parser_rejects_bad_chapters(name: str) -> None:
    parse_webvtt(BAD_CHAPTERS[name].replace("<b>One</b>", "One"))  # fine as captions...
    with pytest.raises(WebVTTError):
        parse_webvtt(BAD_CHAPTERS[name], chapters=True)  # ...but not as chapters


def test_strict_webvtt_parser_accepts_the_spec_forms() -> None:
    text = (
        "\ufeffWEBVTT - a header\r\n\r\nNOTE a comment\r\n\r\nSTYLE\r\n::cue { color: red }\r\n\r\n"
        "intro\r\n00:00.000 --> 00:01.500 align:start line:0\r\n"
        "<v Ada>grad_fn=&lt;Embedding&gt; &amp; <i>more</i></v>\r\n"
        "second line &#x3C;&#60;\r\n\r\n"
        "01:00:00.000 --> 01:00:02.000\r\n<c.loud>one</c> <00:00:01.000>two > three\r\n\r\n"
    )
    cues = parse_webvtt(text)
    assert [(c.identifier, c.start, c.end) for c in cues] == [
        ("intro", 0.0, 1.5),
        ("", 3600.0, 3602.0),
    ]
    assert cues[0].text == "grad_fn=<Embedding> & more\nsecond line <<"
    assert cues[1].text == "one two > three"


@given(
    st.lists(
        st.one_of(
            st.characters(exclude_categories=("Cs", "Cc")), st.sampled_from(["\n", "\r\n", "\r"])
        ),
        min_size=1,
    ).map("".join)
)
def test_any_text_survives_a_cue_as_written(text: str) -> None:
    # Line breaks stay (a caption has up to two lines), blank lines go, and
    # so does breaking white space at a line's ends; non-breaking spaces stay.
    lines = [
        " ".join(w for w in re.findall(r"(?:\S|[\xa0\u2007\u202f])+", line) if w.strip())
        for line in re.split(r"\r\n|\r|\n", text)
    ]
    assume(any(lines))
    cues = parse_webvtt(_CUE + vtt_text(text) + "\n")
    assert [cue.text for cue in cues] == ["\n".join(line for line in lines if line)]


@pytest.mark.parametrize("scene", list(SCENES))
def test_captions_are_one_cue_per_phrase_timed_by_the_storyboard(
    scene: str, tmp_path: Path
) -> None:
    board = prepared_storyboard(scene, cwd=tmp_path, environ={})
    vtt = captions_vtt(board)
    assert vtt.startswith("WEBVTT\n\n")
    cues = _cues(vtt)
    expected = []
    for beat_start, beat in zip(board.beat_start_times(), board.all_beats(), strict=True):
        ends = [p.start for p in beat.phrases[1:]] + [beat.duration] if beat.phrases else []
        for phrase, end in zip(beat.phrases, ends, strict=True):
            expected.append((beat_start + phrase.start, beat_start + end, phrase.text))
    assert [" ".join(text.split("\n")) for _, _, text in cues] == [t for _, _, t in expected]
    for (start, end, text), (want_start, want_end, _) in zip(cues, expected, strict=True):
        assert start == pytest.approx(want_start, abs=0.0005)
        assert end == pytest.approx(want_end, abs=0.0005)
        lines = text.split("\n")
        assert len(lines) <= 2
        assert all(len(line) <= 42 for line in lines)
        # Readable at 15 characters a second.
        assert end - start >= len(text) / 15
    # Every narrated beat is captioned from its first moment to its last.
    narrated = [b for b in board.all_beats() if b.narration]
    assert len(cues) >= len(narrated)


def test_full_explainer_has_one_chapter_per_concept(tmp_path: Path) -> None:
    board = prepared_storyboard("FullExplainer", cwd=tmp_path, environ={})
    concepts = [part.title for part in board.parts if part.layout != "transition"]
    found = chapters(board)
    assert [title for _, _, title in found] == concepts
    assert found[0][0] == 0
    assert found[-1][1] == pytest.approx(board.duration)
    for (_, end, _), (start, _, _) in itertools.pairwise(found):
        assert start == pytest.approx(end)
    assert [t for _, _, t in _cues(chapters_vtt(board), chapters=True)] == concepts


class _Elements(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))


def test_snippet_has_video_sources_tracks_and_transcript_link() -> None:
    clip = ExportedClip("SequenceLookup", "Title <&>", "summary", 54.6, "SequenceLookup")
    parser = _Elements()
    parser.feed(snippet_html(clip))
    tags = [tag for tag, _ in parser.elements]
    assert tags[0] == "figure"
    video = dict(parser.elements)["video"]
    assert {"controls", "playsinline"} <= set(video)
    assert video["preload"] == "metadata"
    assert video["poster"] == "SequenceLookup.poster.png"
    sources = [attrs for tag, attrs in parser.elements if tag == "source"]
    assert [(s["src"], s["type"]) for s in sources] == [
        ("SequenceLookup.webm", "video/webm"),
        ("SequenceLookup.mp4", "video/mp4"),
    ]
    tracks = [attrs for tag, attrs in parser.elements if tag == "track"]
    assert tracks[0]["kind"] == "captions"
    assert tracks[0]["srclang"] == "en"
    assert "default" in tracks[0]
    assert tracks[1]["kind"] == "chapters"
    assert "figcaption" in tags
    links = [attrs["href"] for tag, attrs in parser.elements if tag == "a"]
    assert links == ["SequenceLookup.transcript.html"]
    assert "Title &lt;&amp;&gt;" in snippet_html(clip)


def test_numbers_table_has_caption_and_header_cells(tmp_path: Path) -> None:
    board = prepared_storyboard("SequenceLookup", cwd=tmp_path, environ={})
    table = numbers_table_html(board)
    assert table.count("<caption ") == 2
    assert '<th scope="col">dimension 0</th>' in table
    assert '<th scope="row">position 0 (ID 2)</th>' in table
    last = board.beats[-1]
    for cell in last.numbers:
        if cell.kind == "output":
            assert f"<td>{cell.text}</td>" in table


def _narrated_mp4(path: Path, seconds: int, sound_seconds: int, *, interleaved: bool) -> None:
    """Write a small H.264 MP4 with a tone as AAC (none for ``sound_seconds=0``).

    ``interleaved``: sound and picture alternate in the file, as manim writes
    them; otherwise all the picture comes first (within the muxer's 10 s).
    """
    import av
    import numpy as np

    def tone(start: int) -> Any:
        t = (np.arange(1024) + start) / 48000
        wave = (np.sin(2 * np.pi * 440 * t) * 8000).astype(np.int16)
        frame = av.AudioFrame.from_ndarray(wave[None, :], format="s16", layout="mono")
        frame.sample_rate = 48000
        frame.pts = start
        frame.time_base = Fraction(1, 48000)
        return frame

    with av.open(str(path), "w") as out:
        video = out.add_stream("libx264", rate=15)
        video.width, video.height, video.pix_fmt = 64, 48, "yuv420p"
        audio = out.add_stream("aac", rate=48000, layout="mono") if sound_seconds else None
        sample = 0

        def sound_until(end: int) -> None:
            nonlocal sample
            while audio is not None and sample < min(end, sound_seconds * 48000):
                for packet in audio.encode(tone(sample)):
                    out.mux(packet)
                sample += 1024

        for index in range(seconds * 15):
            image = np.full((48, 64, 3), index % 250, np.uint8)
            frame = av.VideoFrame.from_ndarray(image, format="rgb24")
            frame.pts, frame.time_base = index, Fraction(1, 15)
            for packet in video.encode(frame):
                out.mux(packet)
            if interleaved:
                sound_until((index + 1) * 3200)
        for packet in video.encode():
            out.mux(packet)
        sound_until(sound_seconds * 48000)
        for packet in audio.encode() if audio is not None else []:
            out.mux(packet)


def _file_order(path: Path) -> tuple[float, dict[str, float]]:
    """Read packets in the order they lie in the file (by byte position).

    Returns how far, at worst, a packet lies behind the latest time already
    stored before it (0 for a perfectly interleaved file), and when each
    stream ends.
    """
    import av

    packets: list[tuple[int, float, float, str]] = []
    with av.open(str(path)) as container:
        for packet in container.demux():
            if packet.dts is None or packet.size == 0 or packet.pos is None:
                continue
            start = float(packet.dts * packet.time_base)
            end = float((packet.pts + packet.duration) * packet.time_base)
            packets.append((packet.pos, start, end, packet.stream.type))
    latest, worst_lag = -1.0, 0.0
    ends: dict[str, float] = {}
    for _, start, end, kind in sorted(packets):
        worst_lag = max(worst_lag, latest - start)
        latest = max(latest, start)
        ends[kind] = max(ends.get(kind, 0.0), end)
    return worst_lag, ends


@pytest.mark.parametrize("interleaved", [True, False])
def test_webm_interleaves_sound_and_video_and_ends_with_the_video(
    tmp_path: Path, interleaved: bool
) -> None:
    # A WebM holding seconds of video before its first audio packet fails with
    # PIPELINE_ERROR_DECODE in Chromium when a page holds several of them.
    import av

    source, target = tmp_path / "clip.mp4", tmp_path / "clip.webm"
    _narrated_mp4(source, seconds=20, sound_seconds=21, interleaved=interleaved)
    transcode_webm(source, target)
    with av.open(str(target)) as container:
        assert [s.codec_context.name for s in container.streams] == ["vp9", "opus"]
        assert container.streams.audio[0].codec_context.sample_rate == 48000
    worst_lag, ends = _file_order(target)
    assert worst_lag <= 0.5
    # Matroska stores whole milliseconds: allow for rounding at both ends.
    assert ends["video"] == pytest.approx(20.0, abs=0.005)
    assert ends["audio"] <= ends["video"] + 0.005


def test_narration_is_muxed_interleaved_with_the_picture(tmp_path: Path) -> None:
    import numpy as np

    silent, target = tmp_path / "silent.mp4", tmp_path / "voiced.mp4"
    _narrated_mp4(silent, seconds=30, sound_seconds=0, interleaved=True)
    samples = np.sin(np.arange(30 * 48000) / 48000 * 2 * np.pi * 220).astype(np.float32) / 4
    mux_soundtrack(silent, samples, 48000, target)
    worst_lag, ends = _file_order(target)
    assert worst_lag <= 0.5
    assert set(ends) == {"video", "audio"}


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def small_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("small") / "site"
    # -qt: these tests read files, cues and timing, not the picture.
    export_site(["SingleTokenLookup"], site, quality="t", jobs=1, show_progress=False)
    return site


@pytest.mark.slow
def test_exported_captions_agree_with_the_rendered_beats(small_site: Path) -> None:
    folder = small_site / "SingleTokenLookup"
    timing = json.loads((folder / "SingleTokenLookup.timing.json").read_text())
    frame = 1 / timing["fps"]
    rendered_starts = [0.0, *timing["rendered_beat_ends"][:-1]]
    cues = _cues((folder / "SingleTokenLookup.en.vtt").read_text())
    board = json.loads((folder / "SingleTokenLookup.storyboard.json").read_text())
    # Each beat's first cue starts with the rendered beat; the others follow its phrases.
    expected = [
        rendered + phrase["start"]
        for rendered, beat in zip(rendered_starts, board["beats"], strict=True)
        for phrase in beat["phrases"]
    ]
    assert len(cues) == len(expected)
    assert len(expected) > len(rendered_starts)
    for (start, _, _), want in zip(cues, expected, strict=True):
        assert abs(start - want) <= frame
    assert timing["rendered_beat_ends"][-1] == pytest.approx(timing["duration"], abs=frame)
    for suffix in ("mp4", "webm", "poster.png", "en.vtt", "chapters.vtt", "transcript.html",
                   "numbers.html", "snippet.html"):  # fmt: skip
        assert (folder / f"SingleTokenLookup.{suffix}").stat().st_size > 0


@pytest.mark.slow
def test_failed_export_leaves_the_site_as_it_was(small_site: Path) -> None:
    before = _digest(small_site)
    with pytest.raises(ExportError, match="NoSuchScene"):
        export_site(["SingleTokenLookup", "NoSuchScene"], small_site, jobs=2, show_progress=False)
    assert _digest(small_site) == before
    leftovers = [p.name for p in small_site.parent.iterdir() if p.name != "site"]
    assert leftovers == []


@pytest.mark.slow
def test_bad_option_fails_in_one_line_and_changes_nothing(small_site: Path) -> None:
    before = _digest(small_site)
    env = {**os.environ, "EMBEDVIZ_IDS": "2,99"}
    result = subprocess.run(
        [sys.executable, "-m", "embedviz", "export", "sequence", "--out", str(small_site)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert _digest(small_site) == before


@pytest.mark.slow
def test_interrupted_export_leaves_the_site_as_it_was(small_site: Path) -> None:
    before = _digest(small_site)
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "embedviz", "export", "single", "sequence", "-j", "2",
         "--out", str(small_site)],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    # Wait until Manim is writing a clip (its partial_movie_files folder exists in
    # the staging site), then press Ctrl-C; fail if that never happens.
    deadline = time.monotonic() + 120
    while not any(
        staging.name.startswith(".site.new-") and any(staging.rglob("partial_movie_files"))
        for staging in small_site.parent.iterdir()
    ):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            _, stderr = process.communicate(timeout=60)
            pytest.fail(f"the export never started rendering (exit {process.returncode}): {stderr}")
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode != 0
    assert "Traceback" not in stderr
    assert _digest(small_site) == before
    assert [p.name for p in small_site.parent.iterdir()] == ["site"]


# -- the real browser ---------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--autoplay-policy=no-user-gesture-required",
    "--mute-audio",
]


@pytest.fixture(scope="session")
def full_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The narrated gallery of every scene: the site a course team publishes.

    Narrated, because ten narrated players on one page is what once failed in
    Chromium; one export serves every test that reads a whole site. At -qt
    (144p): the tests play the clips and read the pages, not the picture.
    """
    site = tmp_path_factory.mktemp("full") / "site"
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    result = subprocess.run(
        [sys.executable, "-m", "embedviz", "export", "--all", "--voice", "espeak", "-qt", "--out",
         str(site)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return site


class _StaticHost(http.server.SimpleHTTPRequestHandler):
    """A quiet static host that answers range requests, as any real one does (to seek)."""

    def log_message(self, *args: Any) -> None:
        pass

    def handle(self) -> None:
        # The browser may stop reading a video it no longer needs.
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            super().handle()

    def send_head(self) -> Any:
        wanted = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", ""))
        path = Path(self.translate_path(self.path))
        if wanted is None or not path.is_file() or wanted.groups() == ("", ""):
            return super().send_head()
        size = path.stat().st_size
        first, last = wanted.groups()
        start = int(first) if first else max(0, size - int(last))
        end = min(int(last), size - 1) if first and last else size - 1
        if start >= size or start > end:
            self.send_error(416)
            return None
        handle = path.open("rb")
        handle.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        self._remaining = end - start + 1
        return handle

    def copyfile(self, source: Any, outputfile: Any) -> None:
        remaining = getattr(self, "_remaining", None)
        if remaining is None:
            super().copyfile(source, outputfile)
            return
        while remaining > 0:
            chunk = source.read(min(65536, remaining))
            if not chunk:
                break
            outputfile.write(chunk)
            remaining -= len(chunk)


@pytest.fixture
def served(full_site: Path) -> Iterator[str]:
    def handler(*args: Any, **kwargs: Any) -> _StaticHost:
        return _StaticHost(*args, directory=str(full_site), **kwargs)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in [*FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_window_size(1280, 900)
    try:
        yield driver
    finally:
        driver.quit()


_CHECK_PAGE = """
const done = arguments[arguments.length - 1];
(async () => {
  const videos = [...document.querySelectorAll('video')];
  const wait = (ok, ms) => new Promise((resolve) => {
    const started = Date.now();
    const tick = () => (ok() || Date.now() - started > ms) ? resolve() : setTimeout(tick, 50);
    tick();
  });
  const report = [];
  for (const video of videos) {
    video.load();
    await wait(() => video.readyState >= 1, 20000);
    const tracks = [...video.textTracks];
    for (const track of tracks) track.mode = 'hidden';
    const elements = [...video.querySelectorAll('track')];
    await wait(() => elements.every((t) => t.readyState === 2 || t.readyState === 3), 20000);
    const poster = new Image();
    poster.src = video.poster;
    await wait(() => poster.complete, 20000);
    report.push({
      id: video.closest('figure').id,
      readyState: video.readyState,
      duration: video.duration,
      source: video.currentSrc.split('/').pop(),
      tracks: tracks.map((t) => ({kind: t.kind, cues: t.cues ? t.cues.length : -1})),
      trackStates: elements.map((t) => t.readyState),
      posterWidth: poster.naturalWidth,
    });
  }
  done(report);
})();
"""


def _check_videos(driver: Any, site: Path) -> list[dict[str, Any]]:
    driver.set_script_timeout(600)
    report: list[dict[str, Any]] = driver.execute_async_script(_CHECK_PAGE)
    assert report
    for video in report:
        name = video["id"]
        board = json.loads((site / name / f"{name}.storyboard.json").read_text())
        narrated = sum(
            len(beat["phrases"]) for part in (board["parts"] or [board]) for beat in part["beats"]
        )
        assert video["readyState"] >= 1, video
        # The browser reads the length of the file as PyAV does...
        source = site / name / str(video["source"])
        assert abs(video["duration"] - _video_ends(source)) <= 0.01, video
        # ...which can be a few frames short of the storyboard's sum of beats
        # (manim rounds each animation down to whole frames; the narrated
        # FullExplainer loses two at 15 fps).
        assert abs(video["duration"] - board["duration"]) <= 0.2, video
        assert video["trackStates"] == [2, 2, 2], video
        captions = [t for t in video["tracks"] if t["kind"] == "captions"]
        assert captions == [{"kind": "captions", "cues": narrated}], video
        described = sum(
            len(beat["descriptions"])
            for part in (board["parts"] or [board])
            for beat in part["beats"]
        )
        descriptions = [t for t in video["tracks"] if t["kind"] == "descriptions"]
        assert descriptions == [{"kind": "descriptions", "cues": described}], video
        assert video["posterWidth"] > 0, video
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []
    return report


@pytest.mark.slow
def test_gallery_plays_in_a_real_browser(browser: Any, served: str, full_site: Path) -> None:
    browser.get(f"{served}/index.html")
    report = _check_videos(browser, full_site)
    assert sorted(video["id"] for video in report) == sorted(SCENES)
    assert browser.find_element("css selector", "a.skip").get_attribute("href").endswith("#main")
    assert [h.text for h in browser.find_elements("css selector", "h1")] != []
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTEFACTS / "gallery.png"))


@pytest.mark.slow
def test_snippet_alone_plays_in_a_real_browser(browser: Any, served: str, full_site: Path) -> None:
    folder = full_site / "SequenceLookup"
    snippet = (folder / "SequenceLookup.snippet.html").read_text()
    page = (
        '<!doctype html><html lang="en"><meta charset="utf-8"><link rel="icon" href="data:,">'
        f"<title>A course page</title>{snippet}</html>"
    )
    (folder / "pasted.html").write_text(page)
    try:
        browser.get(f"{served}/SequenceLookup/pasted.html")
        report = _check_videos(browser, full_site)
        assert [video["id"] for video in report] == ["SequenceLookup"]
    finally:
        (folder / "pasted.html").unlink()


@pytest.mark.slow
def test_gallery_works_from_file_urls(browser: Any, full_site: Path) -> None:
    browser.get((full_site / "index.html").as_uri())
    videos = browser.find_elements("css selector", "video")
    assert len(videos) == len(SCENES)
    html_text = (full_site / "index.html").read_text()
    assert "http://" not in html_text
    assert "https://" not in html_text


def _decoded_audio(path: Path) -> tuple[Any, str, int]:
    """Decode a file's sound to 48 kHz mono floats; also its codec and its own sample rate."""
    import av
    import numpy as np

    resampler = av.AudioResampler(format="flt", layout="mono", rate=48000)
    chunks = []
    with av.open(str(path)) as container:
        stream = container.streams.audio[0]
        codec, rate = stream.codec_context.name, stream.codec_context.sample_rate
        for frame in container.decode(stream):
            chunks += [f.to_ndarray().reshape(-1) for f in resampler.resample(frame)]
    chunks += [f.to_ndarray().reshape(-1) for f in resampler.resample(None)]
    return np.concatenate(chunks).astype(np.float64), codec, rate


def _espeak_site(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A site with SingleTokenLookup narrated by espeak-ng at -qt (144p15).

    ``full_site`` exports that clip too, with the same options (``--voice
    espeak -qt``), and the clip's folder it writes is byte for byte the one a
    site of that clip alone holds: when this run builds ``full_site`` (a test
    of this file that uses it is selected), its folder is read, not exported
    again; alone (``-k voice_espeak``), the clip is exported here.
    """
    from embedviz.export.voice import choose_voice

    here = request.node.path
    if any(
        item.path == here and "full_site" in getattr(item, "fixturenames", ())
        for item in request.session.items
    ):
        site: Path = request.getfixturevalue("full_site")
        return site
    site = tmp_path / "site"
    # Without the voice extra, espeak-ng still speaks.
    export_site(
        ["SingleTokenLookup"],
        site,
        quality="t",  # the sound and the timing are checked, not the picture
        jobs=1,
        show_progress=False,
        voice=choose_voice("espeak"),
    )
    return site


@pytest.mark.slow
def test_voice_espeak_is_mixed_in_and_beats_wait_for_their_phrases(
    request: pytest.FixtureRequest, tmp_path: Path, snapshot: Any
) -> None:
    import av
    from syrupy.extensions.json import JSONSnapshotExtension

    if CI is False and shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    folder = _espeak_site(request, tmp_path) / "SingleTokenLookup"
    board = json.loads((folder / "SingleTokenLookup.storyboard.json").read_text())
    assert board["voice"] == "espeak-ng:en-us"
    # The retimed file is still true to the core: timing is the author's to change.
    assert verify_storyboard(load_storyboard(folder / "SingleTokenLookup.storyboard.json")) == []
    plain = prepared_storyboard("SingleTokenLookup", cwd=tmp_path, environ={})
    durations = [beat["duration"] for beat in board["beats"]]
    assert all(v >= p.duration for v, p in zip(durations, plain.beats, strict=True))
    for beat in board["beats"]:
        assert beat["duration"] >= sum(p["duration"] for p in beat["phrases"]) - 1e-6
    assert durations == snapshot(extension_class=JSONSnapshotExtension)
    for suffix in ("mp4", "webm"):
        with av.open(str(folder / f"SingleTokenLookup.{suffix}")) as container:
            assert container.streams.audio, suffix
            assert float(container.duration) / av.time_base == pytest.approx(
                board["duration"], abs=0.1
            )
    timing = json.loads((folder / "SingleTokenLookup.timing.json").read_text())
    rendered_starts = [0.0, *timing["rendered_beat_ends"][:-1]]
    beat_starts = [b for b, beat in zip(rendered_starts, board["beats"], strict=True)]
    assert beat_starts == pytest.approx(timing["beat_starts"], abs=1 / timing["fps"])


def _onset_errors(samples: Any, cue_starts: list[float]) -> list[float]:
    """How far the speech onset (first 10 ms frame above -40 dBFS) lies from each cue start."""
    import numpy as np

    frame = 480  # 10 ms at 48 kHz
    usable = samples[: samples.size - samples.size % frame]
    loud = np.sqrt((usable.reshape(-1, frame) ** 2).mean(axis=1)) > 10 ** (-40 / 20)
    errors = []
    for start in cue_starts:
        # Each phrase ends with a 0.4 s pause, so 0.3 s before a cue is quiet.
        first = max(0, int((start - 0.3) * 100))
        found = np.flatnonzero(loud[first:])
        assert found.size, f"no speech after the cue at {start:.2f} s"
        errors.append(abs((first + found[0]) / 100 - start))
    return errors


@pytest.mark.slow
def test_piper_voice_gives_speech_timed_cues_and_web_loudness(tmp_path: Path) -> None:
    import av
    import numpy as np
    from scipy import signal

    pyloudnorm = pytest.importorskip("pyloudnorm")
    site = tmp_path / "site"
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    result = subprocess.run(
        [sys.executable, "-m", "embedviz", "export", "SequenceLookup", "--voice", "-j", "1",
         "-qt", "--out", str(site)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    folder = site / "SequenceLookup"
    board = json.loads((folder / "SequenceLookup.storyboard.json").read_text())
    assert board["voice"] == "piper:en_US-joe-medium"  # the natural voice
    cues = _cues((folder / "SequenceLookup.en.vtt").read_text())
    assert len(cues) == sum(len(beat["phrases"]) for beat in board["beats"])
    mp4, codec, rate = _decoded_audio(folder / "SequenceLookup.mp4")
    # 24 kHz: the voices speak at 22.05 kHz, so nothing of them is lost.
    assert (codec, rate) == ("aac", 24000)
    with av.open(str(folder / "SequenceLookup.mp4")) as container:
        assert container.streams.audio[0].codec_context.layout.name == "mono"
    webm, codec, rate = _decoded_audio(folder / "SequenceLookup.webm")
    assert (codec, rate) == ("opus", 48000)
    # Each cue starts when its phrase's speech starts, in the whole exported clip.
    errors = _onset_errors(mp4, [start for start, _, _ in cues])
    assert max(errors) <= 0.25, errors
    assert max(_onset_errors(webm, [start for start, _, _ in cues])) <= 0.25
    # Web loudness: about -16 LUFS integrated, true peak at most -1 dBTP (8x oversampled).
    # Polyphase oversampling, not FFT (signal.resample), which treats the clip as
    # one period of a periodic signal and rings at its ends if they differ: the
    # WebM's sound is cut where the video ends.
    for name, sound in (("mp4", mp4), ("webm", webm)):
        loudness = pyloudnorm.Meter(48000).integrated_loudness(sound)
        assert loudness == pytest.approx(-16.0, abs=0.5), name
        peak = 20 * np.log10(np.max(np.abs(signal.resample_poly(sound, 8, 1))))
        assert peak <= -1.0, (name, peak)


def test_voice_espeak_without_espeak_says_how_to_install_it(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}  # no espeak-ng on this PATH
    result = subprocess.run(
        [sys.executable, "-m", "embedviz", "export", "single", "--voice", "espeak", "--out",
         str(tmp_path / "site")],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "embedviz: error: --voice needs espeak-ng, which is not installed; on Debian or "
        "Ubuntu run 'sudo apt-get install espeak-ng'"
    ]
    assert not (tmp_path / "site").exists()


_PLAY_IN_PLACE = """
const [forceMp4, done] = [arguments[0], arguments[arguments.length - 1]];
(async () => {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const report = [];
  for (const video of document.querySelectorAll('video')) {
    video.scrollIntoView({block: 'center'});
    if (forceMp4) {
      video.src = video.querySelector('source[type="video/mp4"]').src;
      video.load();
    }
    let refused = null;
    try { await video.play(); } catch (error) { refused = String(error); }
    const started = Date.now();
    while (Date.now() - started < 20000 && video.currentTime < 0.5 && !video.error) {
      await sleep(50);
    }
    report.push({
      id: video.closest('figure').id,
      source: video.currentSrc.split('/').pop(),
      currentTime: video.currentTime,
      error: video.error && `${video.error.code} ${video.error.message}`,
      refused: refused,
    });
    video.pause();
  }
  done(report);
})();
"""


@pytest.mark.slow
def test_narrated_gallery_plays_every_clip_in_place(
    browser: Any, served: str, full_site: Path
) -> None:
    browser.set_script_timeout(600)
    browser.get(f"{served}/index.html")
    picked = browser.execute_async_script(_PLAY_IN_PLACE, False)
    assert sorted(video["id"] for video in picked) == sorted(SCENES)
    for video in picked:
        assert video["source"] == f"{video['id']}.webm", video
        assert (video["error"], video["refused"]) == (None, None), video
        assert video["currentTime"] >= 0.5, video
    # Then each from its MP4, as a browser without WebM would play it.
    mp4 = browser.execute_async_script(_PLAY_IN_PLACE, True)
    for video in mp4:
        assert video["source"] == f"{video['id']}.mp4", video
        assert (video["error"], video["refused"]) == (None, None), video
        assert video["currentTime"] >= 0.5, video


def _video_ends(path: Path) -> float:
    """When the picture ends: the end of the last video packet, read with PyAV."""
    import av

    end = 0.0
    with av.open(str(path)) as container:
        for packet in container.demux(video=0):
            if packet.pts is not None and packet.size:
                end = max(end, float((packet.pts + packet.duration) * packet.time_base))
    return end


@pytest.mark.slow
def test_every_exported_vtt_is_strict_webvtt_and_ends_with_its_video(full_site: Path) -> None:
    for folder in sorted(p for p in full_site.iterdir() if p.is_dir()):
        name = folder.name
        board = json.loads((folder / f"{name}.storyboard.json").read_text())
        narration = [
            beat["narration"]
            for part in (board["parts"] or [board])
            for beat in part["beats"]
            if beat["narration"]
        ]
        captions = _cues((folder / f"{name}.en.vtt").read_bytes().decode("utf-8"))
        chapter_cues = _cues(
            (folder / f"{name}.chapters.vtt").read_bytes().decode("utf-8"), chapters=True
        )
        # Cue by cue (phrases, wrapped onto lines), the captions say the narration.
        said = " ".join(text for _, _, text in captions).split()
        assert said == " ".join(narration).split(), name
        assert sorted(folder.glob("*.vtt")) == sorted(
            folder / f"{name}.{suffix}"
            for suffix in ("en.vtt", "chapters.vtt", "descriptions.en.vtt",
                           "described.en.vtt", "described.chapters.vtt")
        )  # fmt: skip
        descriptions = _cues((folder / f"{name}.descriptions.en.vtt").read_bytes().decode())
        said = [d["text"] for part in (board["parts"] or [board]) for beat in part["beats"]
                for d in beat["descriptions"]]  # fmt: skip
        assert [text for _, _, text in descriptions] == said, name
        described_end = _video_ends(folder / f"{name}.described.mp4")
        for suffix in ("described.en.vtt", "described.chapters.vtt"):
            cues = _cues((folder / f"{name}.{suffix}").read_bytes().decode(),
                         chapters=suffix.endswith("chapters.vtt"))  # fmt: skip
            assert cues[-1][1] <= described_end, (name, suffix)
        for suffix in ("mp4", "webm"):
            video_end = _video_ends(folder / f"{name}.{suffix}")
            # WebM stores a frame's time and length in whole milliseconds, each rounded
            # down: its end may read up to 2 ms early.
            slack = 0.002 if suffix == "webm" else 0.0
            assert captions[-1][1] <= video_end + slack, (name, suffix, video_end)
            assert chapter_cues[-1][1] <= video_end + slack, (name, suffix, video_end)
            # The chapters cover the whole clip, up to a frame.
            assert chapter_cues[-1][1] >= video_end - 1 / 15 - slack, (name, suffix)


# -- transcript, gallery and snippet pages --------------------------------------------


class _Page(html.parser.HTMLParser):
    """Elements with their attributes, the text inside each, and comments."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: dict[int, str] = {}
        self.comments: list[str] = []
        self._open: list[int] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag not in {"meta", "link", "source", "track", "br", "img", "input"}:
            self._open.append(len(self.elements) - 1)
            self.text[len(self.elements) - 1] = ""

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            index = self._open.pop()
            if self.elements[index][0] == tag:
                break

    def handle_data(self, data: str) -> None:
        for index in self._open:
            self.text[index] += data

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)

    def find(self, tag: str, **attrs: str) -> list[tuple[dict[str, str | None], str]]:
        return [
            (found, self.text.get(index, ""))
            for index, (name, found) in enumerate(self.elements)
            if name == tag and all(found.get(k.rstrip("_")) == v for k, v in attrs.items())
        ]


def _parse(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    return page


def _rows(table: str) -> list[str]:
    return re.findall(r'<th scope="row"[^>]*>([^<]*)</th>', table)


@pytest.mark.parametrize("scene", list(SCENES))
def test_transcript_links_back_and_has_no_empty_heading(scene: str, tmp_path: Path) -> None:
    board = prepared_storyboard(scene, cwd=tmp_path, environ={})
    page = transcript_html(board)
    links = [attrs["href"] for attrs, _ in _parse(page).find("a")]
    assert f"../index.html#{scene}-section" in links
    assert "../index.html" in links
    # Every section holds more than its heading.
    for section in re.findall(r"<section>(.*?)</section>", page, flags=re.S):
        assert re.sub(r"<h2>.*?</h2>", "", section).strip(), section
    # Every table sits in its own focusable scrolling region, named by its caption.
    assert page.count("<table>") == page.count('<div class="table-scroll" role="region"')
    for caption_id in re.findall(r'aria-labelledby="([^"]+)"', page):
        assert f'<caption id="{caption_id}">' in page or f'id="{caption_id}"' in page


def test_parameter_count_transcript_shows_its_numbers(tmp_path: Path) -> None:
    board = prepared_storyboard("ParameterCount", cwd=tmp_path, environ={})
    page = transcript_html(board)
    tables = page.split("<h2>The numbers shown</h2>")[1]
    for text in ("50,257", "768", "38,597,376", "154,389,504", "147.2 MiB", "73.6 MiB",
                 "1,536", "294.5 MiB", "3,072", "bfloat16"):  # fmt: skip
        assert f">{text}<" in tables, text
    for cell in board.beats[-1].numbers:
        if cell.kind in {"corner", "lookup_value"}:
            assert f"<td>{cell.text}</td>" in tables, cell


def _expected_rows(window_rows: tuple[int, ...], labels: tuple[str, ...]) -> list[str]:
    """The row headers a view must have: its rows, with each drawn gap label in place."""
    found: list[tuple[int, str]] = [(row, f"row {row}") for row in window_rows]
    for label in labels:
        match = re.fullmatch(r"rows? (\d+)(?:\u2013(\d+))? hidden", label)
        if match:
            found.append((int(match.group(1)), label))
    return [text for _, text in sorted(found)]


def test_large_vocab_tables_mark_every_gap_as_the_video_labels_it(tmp_path: Path) -> None:
    board = prepared_storyboard("LargeVocabLookup", cwd=tmp_path, environ={})
    page = transcript_html(board)
    tables = re.findall(r"<table>.*?</table>", page, flags=re.S)
    views = [t for t in tables if "rows of the embedding matrix" in t]
    for beat in board.beats:
        if not any(cell.kind == "weight" for cell in beat.numbers):
            continue
        expected = _expected_rows(beat.window.rows, tuple(beat.labels.values()))
        assert any(_rows(view) == expected for view in views), (beat.name, expected)
        column_gaps = [label for label in beat.labels.values() if label.startswith("column")]
        assert column_gaps
        for view in views:
            heads = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', view)
            # The video draws the first column and the last (numbers readable in a hall).
            assert heads == ["Row", "dimension 0", *column_gaps, "dimension 767"]
    assert len(views) == len({beat.window for beat in board.beats})


def test_snippet_is_a_labelled_fragment_with_its_language() -> None:
    clip = ExportedClip("SequenceLookup", "Title <&>", "summary", 54.6, "SequenceLookup")
    text = snippet_html(clip)
    page = _parse(text)
    assert text.startswith("<!--")
    assert "fragment" in page.comments[0]
    [(figure, _)] = page.find("figure")
    assert figure["lang"] == "en"
    [(video, _)] = page.find("video")
    [(_, name)] = page.find("span", id=str(video["aria-labelledby"]))
    assert name == "Title <&>"
    [(_, link)] = page.find("a")
    assert "Title <&>" in link


def test_gallery_names_each_link_and_video_and_links_to_sections() -> None:
    clips = [
        ExportedClip("SingleTokenLookup", "One <token>", "s", 40.0, "SingleTokenLookup"),
        ExportedClip(
            "FullExplainer", "All of it", "s", 600.0, "FullExplainer",
            chapters=((0.0, 30.0, "First & foremost"), (30.0, 600.0, "Second")),
        ),
    ]  # fmt: skip
    text = gallery_html(clips)
    page = _parse(text)
    for clip in clips:
        [(section, _)] = page.find("section", id=f"{clip.scene}-section")
        [(_, heading)] = page.find("h2", id=str(section["aria-labelledby"]))
        assert heading == clip.title
        [(video, _)] = page.find("video", id=f"{clip.scene}-video")
        assert video["aria-labelledby"] == section["aria-labelledby"]
        [(_, link)] = page.find("a", href=f"{clip.folder}/{clip.scene}.transcript.html")
        assert clip.title in link
        [(_, menu)] = page.find("a", href=f"#{clip.scene}-section")
        assert menu == clip.title
    assert len({attrs.get("id") for _, attrs in page.elements if attrs.get("id")}) == len(
        [attrs for _, attrs in page.elements if attrs.get("id")]
    )
    buttons = page.find("button")
    assert [(b["data-start"], t) for b, t in buttons] == [
        ("0.000", "0:00 First & foremost"),
        ("30.000", "0:30 Second"),
    ]
    [(script, _)] = page.find("script")
    assert script["src"] == CHAPTERS_SCRIPT_NAME
    assert "http" not in CHAPTERS_SCRIPT
    without_chapters = gallery_html(clips[:1])
    assert "<script" not in without_chapters


def _emulate(driver: Any, *, width: int | None = None, scheme: str = "light") -> None:
    """Emulate a screen width (CSS pixels) and a colour scheme through the DevTools protocol."""
    if width is not None:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": False},
        )
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
    )


def _site_pages(site: Path) -> list[str]:
    transcripts = sorted(str(p.relative_to(site)) for p in site.glob("*/*.transcript.html"))
    return ["index.html", *transcripts]


def _other_pages(site: Path) -> list[str]:
    """The accessibility report, and each clip's step-through and audio-described pages."""
    pages = sorted(str(p.relative_to(site)) for p in site.glob("*/steps.html"))
    pages += sorted(str(p.relative_to(site)) for p in site.glob("*/*.described.html"))
    return ["accessibility.html", *pages]


@pytest.mark.slow
def test_pages_fit_a_320_pixel_screen(browser: Any, served: str, full_site: Path) -> None:
    _emulate(browser, width=320)
    for page in [*_site_pages(full_site), *_other_pages(full_site)]:
        browser.get(f"{served}/{page}")
        assert browser.execute_script("return window.innerWidth") == 320
        sizes = browser.execute_script(
            "const e = document.documentElement; return [e.scrollWidth, e.clientWidth];"
        )
        assert sizes[0] <= sizes[1], (page, sizes)
        # Wide tables scroll inside their own region instead.
        for table in browser.find_elements("css selector", "table"):
            region = browser.execute_script("return arguments[0].parentElement;", table)
            assert region.get_attribute("class") == "table-scroll", page
            assert region.get_attribute("tabindex") == "0", page


@pytest.mark.slow
def test_transcript_links_lead_back_to_the_clip(browser: Any, served: str, full_site: Path) -> None:
    for page in _site_pages(full_site)[1:]:
        scene = page.split("/")[0]
        browser.get(f"{served}/{page}")
        browser.find_element("link text", f"Watch the clip: {_title(full_site, scene)}").click()
        assert browser.current_url == f"{served}/index.html#{scene}-section"
        top = browser.execute_script(
            f"return document.getElementById('{scene}-heading').getBoundingClientRect().top;"
        )
        assert 0 <= top < 900


def _title(site: Path, scene: str) -> str:
    return str(json.loads((site / scene / f"{scene}.storyboard.json").read_text())["title"])


@pytest.mark.slow
def test_gallery_menu_and_chapter_list_work_from_the_keyboard(
    browser: Any, served: str, full_site: Path
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    browser.get(f"{served}/index.html")
    for scene in SCENES:
        browser.find_element("css selector", f'nav a[href="#{scene}-section"]').click()
        top = browser.execute_script(
            f"return document.getElementById('{scene}-heading').getBoundingClientRect().top;"
        )
        assert 0 <= top < 900, scene
        label = browser.find_element("id", f"{scene}-video").get_attribute("aria-labelledby")
        assert browser.find_element("id", label).text == _title(full_site, scene)
    lists = browser.find_elements("css selector", "nav.chapters")
    assert [n.get_attribute("data-embedviz-chapters") for n in lists] == ["FullExplainer-video"]
    assert lists[0].is_displayed()
    board = json.loads((full_site / "FullExplainer" / "FullExplainer.storyboard.json").read_text())
    starts = [0.0]
    for part in board["parts"]:
        starts.append(starts[-1] + sum(beat["duration"] for beat in part["beats"]))
    concepts = [
        (start, part["title"])
        for start, part in zip(starts, board["parts"], strict=False)
        if part["layout"] != "transition"
    ]
    buttons = lists[0].find_elements("css selector", "button")
    assert [b.text.split(" ", 1)[1] for b in buttons] == [title for _, title in concepts]
    video = browser.find_element("id", "FullExplainer-video")
    for number, key in ((3, Keys.ENTER), (6, Keys.SPACE)):
        browser.execute_script("arguments[0].focus();", buttons[number])
        ActionChains(browser).send_keys(key).perform()
        start = concepts[number][0]
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            now = browser.execute_script("return arguments[0].currentTime;", video)
            if start - 0.01 <= now < start + 5:
                break
            time.sleep(0.1)
        assert start - 0.01 <= now < start + 5, (number, start, now)
        assert buttons[number].get_attribute("aria-current") == "true"
    browser.execute_script("arguments[0].pause();", video)
    assert (full_site / CHAPTERS_SCRIPT_NAME).read_text() == CHAPTERS_SCRIPT


AXE = REPO / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
_RUN_AXE = """
const [tags, done] = [arguments[0], arguments[arguments.length - 1]];
axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
  .then((result) => done({version: axe.version, violations: result.violations.map((v) => ({
    id: v.id, help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`)}))}))
  .catch((error) => done({error: String(error)}));
"""


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_wcag_22_violations(
    browser: Any, served: str, full_site: Path, scheme: str
) -> None:
    if not AXE.exists():
        pytest.skip("axe-core is not installed; run scripts/bootstrap.sh --test")
    script = AXE.read_text(encoding="utf-8")
    folder = full_site / "SequenceLookup"
    snippet = (folder / "SequenceLookup.snippet.html").read_text()
    (folder / "pasted.html").write_text(
        '<!doctype html><html lang="en"><meta charset="utf-8"><link rel="icon" href="data:,">'
        f"<title>A course page</title><main><h1>A course page</h1>{snippet}</main></html>"
    )
    pages = [*_site_pages(full_site), *_other_pages(full_site), "SequenceLookup/pasted.html"]
    found = {}
    try:
        _emulate(browser, scheme=scheme)
        browser.set_script_timeout(120)
        for page in pages:
            browser.get(f"{served}/{page}")
            assert browser.execute_script(
                f"return matchMedia('(prefers-color-scheme: {scheme})').matches;"
            )
            browser.execute_script(script)
            result = browser.execute_async_script(_RUN_AXE, AXE_TAGS)
            assert "error" not in result, result
            assert result["version"].startswith("4.14."), result["version"]
            found[page] = result["violations"]
    finally:
        (folder / "pasted.html").unlink()
    # The gallery, a pasted snippet, the report, and per clip: transcript, steps, described.
    assert len(found) == 3 * len(SCENES) + 3
    assert {page: v for page, v in found.items() if v} == {}
