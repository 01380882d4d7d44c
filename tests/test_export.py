"""Course-page export: documents, atomic replacement, and a real headless browser."""

from __future__ import annotations

import hashlib
import html.parser
import http.server
import itertools
import json
import os
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
    ExportedClip,
    captions_vtt,
    chapters,
    chapters_vtt,
    numbers_table_html,
    snippet_html,
    vtt_text,
)
from embedviz.export.media import transcode_webm
from embedviz.export.site import ExportError, export_site
from embedviz.story.scenes import SCENES, build_storyboard

REPO = Path(__file__).resolve().parent.parent
ARTEFACTS = REPO / "media" / "test-artefacts"


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


@given(st.text(st.characters(exclude_categories=("Cs", "Cc")), min_size=1))
def test_any_text_survives_a_cue_as_written(text: str) -> None:
    assume(text.split())
    cues = parse_webvtt(_CUE + vtt_text(text) + "\n")
    assert [cue.text for cue in cues] == [" ".join(text.split())]


@pytest.mark.parametrize("scene", list(SCENES))
def test_captions_follow_the_narration_beat_by_beat(scene: str, tmp_path: Path) -> None:
    board = build_storyboard(scene, cwd=tmp_path, environ={})
    vtt = captions_vtt(board)
    assert vtt.startswith("WEBVTT\n\n")
    cues = _cues(vtt)
    narrated = [
        (start, beat)
        for start, beat in zip(board.beat_start_times(), board.all_beats(), strict=True)
        if beat.narration
    ]
    assert [text for _, _, text in cues] == [beat.narration for _, beat in narrated]
    for (start, end, _), (beat_start, beat) in zip(cues, narrated, strict=True):
        assert start == pytest.approx(beat_start, abs=0.0005)
        assert end == pytest.approx(beat_start + beat.duration, abs=0.0005)


def test_full_explainer_has_one_chapter_per_concept(tmp_path: Path) -> None:
    board = build_storyboard("FullExplainer", cwd=tmp_path, environ={})
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
    board = build_storyboard("SequenceLookup", cwd=tmp_path, environ={})
    table = numbers_table_html(board)
    assert table.count("<caption>") == 2
    assert '<th scope="col">dimension 0</th>' in table
    assert '<th scope="row">position 0 (ID 2)</th>' in table
    last = board.beats[-1]
    for cell in last.numbers:
        if cell.kind == "output":
            assert f"<td>{cell.text}</td>" in table


def _narrated_mp4(path: Path, seconds: int, sound_seconds: int) -> None:
    """Write a small H.264 + AAC MP4, interleaved as manim writes it, with a tone."""
    import av
    import numpy as np

    def tone(start: int) -> Any:
        t = (np.arange(1024) + start) / 48000
        wave = (np.sin(2 * np.pi * 440 * t) * 8000).astype(np.int16)
        frame = av.AudioFrame.from_ndarray(
            np.repeat(wave, 2)[None, :], format="s16", layout="stereo"
        )
        frame.sample_rate = 48000
        frame.pts = start
        frame.time_base = Fraction(1, 48000)
        return frame

    with av.open(str(path), "w") as out:
        video = out.add_stream("libx264", rate=15)
        video.width, video.height, video.pix_fmt = 64, 48, "yuv420p"
        audio = out.add_stream("aac", rate=48000, layout="stereo")
        sample = 0
        for index in range(seconds * 15):
            image = np.full((48, 64, 3), index % 250, np.uint8)
            frame = av.VideoFrame.from_ndarray(image, format="rgb24")
            frame.pts, frame.time_base = index, Fraction(1, 15)
            for packet in video.encode(frame):
                out.mux(packet)
            while sample < min((index + 1) * 3200, sound_seconds * 48000):
                for packet in audio.encode(tone(sample)):
                    out.mux(packet)
                sample += 1024
        while sample < sound_seconds * 48000:
            for packet in audio.encode(tone(sample)):
                out.mux(packet)
            sample += 1024
        for stream in (video, audio):
            for packet in stream.encode():
                out.mux(packet)


def test_webm_interleaves_sound_and_video_and_ends_with_the_video(tmp_path: Path) -> None:
    # A WebM holding seconds of video before its first audio packet fails with
    # PIPELINE_ERROR_DECODE in Chromium when a page holds several of them.
    import av

    source, target = tmp_path / "clip.mp4", tmp_path / "clip.webm"
    _narrated_mp4(source, seconds=20, sound_seconds=21)
    transcode_webm(source, target)
    latest = -1.0
    worst_lag = 0.0
    ends: dict[str, float] = {}
    with av.open(str(target)) as container:
        assert [s.codec_context.name for s in container.streams] == ["vp9", "opus"]
        assert container.streams.audio[0].codec_context.sample_rate == 48000
        for packet in container.demux():
            if packet.dts is None or packet.size == 0:
                continue
            time_ = float(packet.dts * packet.time_base)
            worst_lag = max(worst_lag, latest - time_)
            latest = max(latest, time_)
            end = float((packet.pts + packet.duration) * packet.time_base)
            ends[packet.stream.type] = max(ends.get(packet.stream.type, 0.0), end)
    assert worst_lag <= 0.5
    # Matroska stores whole milliseconds: allow for rounding at both ends.
    assert ends["video"] == pytest.approx(20.0, abs=0.005)
    assert ends["audio"] <= ends["video"] + 0.005


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def small_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("small") / "site"
    export_site(["SingleTokenLookup"], site, quality="l", jobs=1, show_progress=False)
    return site


@pytest.mark.slow
def test_exported_captions_agree_with_the_rendered_beats(small_site: Path) -> None:
    folder = small_site / "SingleTokenLookup"
    timing = json.loads((folder / "SingleTokenLookup.timing.json").read_text())
    frame = 1 / timing["fps"]
    rendered_starts = [0.0, *timing["rendered_beat_ends"][:-1]]
    cues = _cues((folder / "SingleTokenLookup.en.vtt").read_text())
    assert len(cues) == len(rendered_starts)
    for (start, _, _), rendered in zip(cues, rendered_starts, strict=True):
        assert abs(start - rendered) <= frame
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
    deadline = time.monotonic() + 120
    # Wait until rendering has started (a staging folder exists), then press Ctrl-C.
    while time.monotonic() < deadline:
        if any(p.name.startswith(".site.new-") for p in small_site.parent.iterdir()):
            break
        time.sleep(0.1)
    time.sleep(2.0)
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
    Chromium; one export serves every test that reads a whole site.
    """
    site = tmp_path_factory.mktemp("full") / "site"
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    result = subprocess.run(
        [sys.executable, "-m", "embedviz", "export", "--all", "--voice", "-ql", "--out", str(site)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return site


@pytest.fixture
def served(full_site: Path) -> Iterator[str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    def handler(*args: Any, **kwargs: Any) -> Quiet:
        return Quiet(*args, directory=str(full_site), **kwargs)

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
            1 for part in (board["parts"] or [board]) for beat in part["beats"] if beat["narration"]
        )
        assert video["readyState"] >= 1, video
        assert abs(video["duration"] - board["duration"]) <= 0.1, video
        assert video["trackStates"] == [2, 2], video
        captions = [t for t in video["tracks"] if t["kind"] == "captions"]
        assert captions == [{"kind": "captions", "cues": narrated}], video
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


@pytest.mark.slow
def test_voice_is_mixed_in_and_beats_wait_for_their_sentence(tmp_path: Path, snapshot: Any) -> None:
    import av
    from syrupy.extensions.json import JSONSnapshotExtension

    site = tmp_path / "site"
    export_site(["SingleTokenLookup"], site, jobs=1, show_progress=False, voice=True)
    folder = site / "SingleTokenLookup"
    board = json.loads((folder / "SingleTokenLookup.storyboard.json").read_text())
    assert board["options"]["voice"] == "espeak-ng"
    plain = build_storyboard("SingleTokenLookup", cwd=tmp_path, environ={})
    durations = [beat["duration"] for beat in board["beats"]]
    assert all(v >= p.duration for v, p in zip(durations, plain.beats, strict=True))
    assert durations == snapshot(extension_class=JSONSnapshotExtension)
    for suffix in ("mp4", "webm"):
        with av.open(str(folder / f"SingleTokenLookup.{suffix}")) as container:
            assert container.streams.audio, suffix
            assert float(container.duration) / av.time_base == pytest.approx(
                board["duration"], abs=0.1
            )
    timing = json.loads((folder / "SingleTokenLookup.timing.json").read_text())
    cues = _cues((folder / "SingleTokenLookup.en.vtt").read_text())
    rendered_starts = [0.0, *timing["rendered_beat_ends"][:-1]]
    for (start, _, _), rendered in zip(cues, rendered_starts, strict=True):
        assert abs(start - rendered) <= 1 / timing["fps"]


def test_voice_without_espeak_says_how_to_install_it(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}  # no espeak-ng on this PATH
    result = subprocess.run(
        [sys.executable, "-m", "embedviz", "export", "single", "--voice", "--out",
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
        assert " ".join(text for _, _, text in captions) == " ".join(narration), name
        assert sorted(folder.glob("*.vtt")) == sorted(
            [folder / f"{name}.en.vtt", folder / f"{name}.chapters.vtt"]
        )
        for suffix in ("mp4", "webm"):
            video_end = _video_ends(folder / f"{name}.{suffix}")
            # WebM stores whole milliseconds, so its end may round down by one.
            slack = 0.001 if suffix == "webm" else 0.0
            assert captions[-1][1] <= video_end + slack, (name, suffix, video_end)
            assert chapter_cues[-1][1] <= video_end + slack, (name, suffix, video_end)
            # The chapters cover the whole clip, up to a frame.
            assert chapter_cues[-1][1] >= video_end - 1 / 15 - slack, (name, suffix)
