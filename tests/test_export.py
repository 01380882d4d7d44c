"""Course-page export: documents, atomic replacement, and a real headless browser."""

from __future__ import annotations

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
from pathlib import Path
from typing import Any

import pytest

from embedviz.export.documents import (
    ExportedClip,
    captions_vtt,
    chapters,
    chapters_vtt,
    numbers_table_html,
    snippet_html,
)
from embedviz.export.site import ExportError, export_site
from embedviz.story.contract import load_storyboard, verify_storyboard
from embedviz.story.scenes import SCENES, build_storyboard

REPO = Path(__file__).resolve().parent.parent
ARTEFACTS = REPO / "media" / "test-artefacts"
CI = os.environ.get("CI") == "true"


def _cues(vtt: str) -> list[tuple[float, float, str]]:
    found = []
    pattern = r"(\d\d):(\d\d):(\d\d)\.(\d\d\d) --> (\d\d):(\d\d):(\d\d)\.(\d\d\d)\n((?:.+\n?)+)"
    for match in re.finditer(pattern, vtt):
        h1, m1, s1, ms1, h2, m2, s2, ms2, text = match.groups()
        start = int(h1) * 3600 + int(m1) * 60 + int(s1) + int(ms1) / 1000
        end = int(h2) * 3600 + int(m2) * 60 + int(s2) + int(ms2) / 1000
        found.append((start, end, text.strip("\n")))
    return found


@pytest.mark.parametrize("scene", list(SCENES))
def test_captions_are_one_cue_per_phrase_timed_by_the_storyboard(
    scene: str, tmp_path: Path
) -> None:
    board = build_storyboard(scene, cwd=tmp_path, environ={})
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
    board = build_storyboard("FullExplainer", cwd=tmp_path, environ={})
    concepts = [part.title for part in board.parts if part.layout != "transition"]
    found = chapters(board)
    assert [title for _, _, title in found] == concepts
    assert found[0][0] == 0
    assert found[-1][1] == pytest.approx(board.duration)
    for (_, end, _), (start, _, _) in itertools.pairwise(found):
        assert start == pytest.approx(end)
    assert len(_cues(chapters_vtt(board))) == len(concepts)


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
]


@pytest.fixture(scope="module")
def full_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("full") / "site"
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    result = subprocess.run(
        [sys.executable, "-m", "embedviz", "export", "--all", "-ql", "--out", str(site)],
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
            len(beat["phrases"]) for part in (board["parts"] or [board]) for beat in part["beats"]
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


@pytest.mark.slow
def test_voice_espeak_is_mixed_in_and_beats_wait_for_their_phrases(
    tmp_path: Path, snapshot: Any
) -> None:
    import av
    from syrupy.extensions.json import JSONSnapshotExtension

    from embedviz.export.voice import choose_voice

    if CI is False and shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    site = tmp_path / "site"
    # Without the voice extra, espeak-ng still speaks.
    export_site(
        ["SingleTokenLookup"], site, jobs=1, show_progress=False, voice=choose_voice("espeak")
    )
    folder = site / "SingleTokenLookup"
    board = json.loads((folder / "SingleTokenLookup.storyboard.json").read_text())
    assert board["voice"] == "espeak-ng:en-us"
    # The retimed file is still true to the core: timing is the author's to change.
    assert verify_storyboard(load_storyboard(folder / "SingleTokenLookup.storyboard.json")) == []
    plain = build_storyboard("SingleTokenLookup", cwd=tmp_path, environ={})
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
         "--out", str(site)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    folder = site / "SequenceLookup"
    board = json.loads((folder / "SequenceLookup.storyboard.json").read_text())
    assert board["voice"] == "piper:en_US-joe-medium"  # the natural voice
    cues = _cues((folder / "SequenceLookup.en.vtt").read_text())
    assert len(cues) == sum(len(beat["phrases"]) for beat in board["beats"])
    mp4, codec, rate = _decoded_audio(folder / "SequenceLookup.mp4")
    assert (codec, rate) == ("aac", 48000)
    with av.open(str(folder / "SequenceLookup.mp4")) as container:
        assert container.streams.audio[0].codec_context.layout.name == "mono"
    webm, codec, rate = _decoded_audio(folder / "SequenceLookup.webm")
    assert (codec, rate) == ("opus", 48000)
    # Each cue starts when its phrase's speech starts, in the whole exported clip.
    errors = _onset_errors(mp4, [start for start, _, _ in cues])
    assert max(errors) <= 0.25, errors
    assert max(_onset_errors(webm, [start for start, _, _ in cues])) <= 0.25
    # Web loudness: about -16 LUFS integrated, true peak at most -1 dBTP (8x oversampled).
    for sound in (mp4, webm):
        loudness = pyloudnorm.Meter(48000).integrated_loudness(sound)
        assert loudness == pytest.approx(-16.0, abs=1.0)
        peak = 20 * np.log10(np.max(np.abs(signal.resample(sound, sound.size * 8))))
        assert peak <= -1.0


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
