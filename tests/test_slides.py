"""`embedviz slides`: one slide per beat, an offline deck, a handout and manim-slides JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from embedviz.export.slides import handout_typst
from embedviz.inputs import prepared_storyboard

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ARTEFACTS = REPO / "media" / "test-artefacts"


def _embedviz(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMBEDVIZ_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "embedviz", *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip


def _narrations(board: dict[str, Any]) -> list[str]:
    return [beat["narration"] for part in (board["parts"] or [board]) for beat in part["beats"]]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.sections = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.sections += tag == "section"
        self.urls += [value or "" for name, value in attrs if name in ("src", "href", "poster")]


# -- fast: the handout source and refusals ------------------------------------------------


def test_handout_has_one_still_and_the_narration_per_beat() -> None:
    board = prepared_storyboard("SequenceLookup", {}, environ={})
    stills = [f"stills/slide-{n:03d}.png" for n in range(len(board.all_beats()))]
    source = handout_typst(board, stills)
    assert source.count("#image(") == len(board.all_beats())
    for beat, still in zip(board.all_beats(), stills, strict=True):
        assert f'#image("{still}"' in source
        assert json.dumps(beat.narration, ensure_ascii=False) in source


def test_handout_figures_carry_the_descriptions_as_alt_text(tmp_path: Path) -> None:
    import re
    import zlib

    typst = pytest.importorskip("typst")
    from PIL import Image

    board = prepared_storyboard("SingleTokenLookup", {}, environ={})
    Image.new("RGB", (16, 9)).save(tmp_path / "still.png")
    source = tmp_path / "handout.typ"
    source.write_text(handout_typst(board, ["still.png"] * len(board.beats)), encoding="utf-8")
    typst.compile(str(source), output=str(tmp_path / "handout.pdf"))
    data = (tmp_path / "handout.pdf").read_bytes()
    # The tagged PDF's figures, in its object streams when compressed.
    objects = [data] + [
        zlib.decompress(m.group(1))
        for m in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S)
        if m.group(1)[:1] == b"x"
    ]
    alts = [
        _pdf_string(chunk, found.end())
        for chunk in objects
        for found in re.finditer(rb"/S/Figure\b[^>]*?/Alt", chunk)
    ]
    assert len(alts) == len(board.beats)
    for number, (alt, beat) in enumerate(zip(alts, board.beats, strict=True)):
        said = " ".join(d.text for d in beat.descriptions)
        assert alt.startswith(f"Slide {number + 1}: "), alt
        if said:
            assert alt == f"Slide {number + 1}: {said}"
    print_beat = alts[[b.name for b in board.beats].index("print")]
    assert "tensor([[-0.4015, 0.9666, -1.1481]]" in print_beat


def _pdf_string(data: bytes, at: int) -> str:
    """Read the PDF string at ``at``: a literal ``(...)`` (nested parentheses allowed) or hex."""
    if data[at : at + 1] == b"<":
        raw = bytes.fromhex(data[at + 1 : data.index(b">", at)].decode())
    else:
        out, depth, index = bytearray(), 0, at
        while True:
            char = data[index : index + 1]
            if char == b"\\":
                out += data[index + 1 : index + 2]
                index += 2
                continue
            depth += {b"(": 1, b")": -1}.get(char, 0)
            if depth == 0:
                break
            if index > at:
                out += char
            index += 1
        raw = bytes(out)
    return raw[2:].decode("utf-16-be") if raw[:2] == b"\xfe\xff" else raw.decode("latin-1")


def test_deck_clips_have_controls_and_autoplay_only_when_asked() -> None:
    from embedviz.export.slides import deck_template

    default = deck_template("#000000", "#ffffff", voiced=False, autoplay=False)
    assert "data-autoplay" not in default
    assert '<video class="embedviz-video" controls ' in default
    asked = deck_template("#000000", "#ffffff", voiced=True, autoplay=True)
    assert "data-autoplay" in asked
    assert " muted" not in asked


def test_handout_reads_markup_characters_as_text(tmp_path: Path) -> None:
    from dataclasses import replace

    typst = pytest.importorskip("typst")
    board = prepared_storyboard("SingleTokenLookup", {}, environ={})
    tricky = 'E[3] = *bold* _x_ #let $y$ "quoted" \\ back <a> @b'
    beats = tuple(replace(beat, narration=tricky) for beat in board.beats)
    board = replace(board, beats=beats)
    from PIL import Image

    Image.new("RGB", (16, 9)).save(tmp_path / "still.png")
    source = tmp_path / "handout.typ"
    source.write_text(handout_typst(board, ["still.png"] * len(beats)), encoding="utf-8")
    typst.compile(str(source), output=str(tmp_path / "handout.pdf"))
    assert (tmp_path / "handout.pdf").read_bytes().startswith(b"%PDF")


def test_slides_refuse_a_folder_they_did_not_write(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "mine.txt").write_text("keep me")
    result = _embedviz("slides", "single", "-ql", "--out", str(folder))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "was not made by embedviz" in result.stderr
    assert "--force" in result.stderr
    assert [p.name for p in folder.iterdir()] == ["mine.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["notes"]


def test_slides_bad_option_fails_in_one_line(tmp_path: Path) -> None:
    result = _embedviz("slides", "sequence", "--ids", "2,9", "--out", str(tmp_path / "deck"))
    assert result.returncode == 2
    assert result.stderr.startswith("embedviz: error: token ID 9")
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "deck").exists()


# -- slow: the real deck --------------------------------------------------------------------


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("slides") / "deck"
    result = _embedviz("slides", "SequenceLookup", "-ql", "--out", str(out))
    assert result.returncode == 0, result.stderr[-3000:]
    board = prepared_storyboard("SequenceLookup", {}, environ={})
    assert result.stdout.strip() == f"{out / 'index.html'} ({len(board.beats)} slides)"
    return out


@pytest.mark.slow
def test_deck_is_self_contained_with_one_slide_per_beat(deck: Path) -> None:
    from manim_slides.config import PresentationConfig

    board = json.loads((deck / "SequenceLookup.storyboard.json").read_text())
    narrations = _narrations(board)
    page = (deck / "index.html").read_text()
    links = _Links()
    links.feed(page)
    assert links.sections == len(narrations)
    assert links.urls
    for url in links.urls:
        assert "://" not in url, url
        assert url.startswith("data:") or (deck / url).is_file(), url
    assert "cdn" not in page.lower()
    # manim-slides reads the same presentation (what `manim-slides present` loads).
    presentation = PresentationConfig.from_file(deck / "slides" / "SequenceLookup.json")
    assert [slide.notes for slide in presentation.slides] == narrations
    assert (deck / "SequenceLookup.handout.pdf").read_bytes().startswith(b"%PDF")
    assert len(list((deck / "stills").glob("slide-*.png"))) == len(narrations)


@pytest.mark.slow
def test_a_second_run_replaces_only_its_own_deck(deck: Path) -> None:
    before = sorted(p.name for p in deck.parent.iterdir())
    result = _embedviz("slides", "single", "-qt", "--out", str(deck.parent / "other"))
    assert result.returncode == 0, result.stderr[-2000:]
    result = _embedviz("slides", "single", "-qt", "--out", str(deck.parent / "other"))
    assert result.returncode == 0, result.stderr[-2000:]
    assert sorted(p.name for p in deck.parent.iterdir()) == sorted([*before, "other"])


@pytest.mark.slow
def test_force_adds_a_deck_beside_other_files(tmp_path: Path) -> None:
    folder = tmp_path / "course"
    folder.mkdir()
    (folder / "week1.md").write_text("keep me")
    (folder / "stills").mkdir()
    result = _embedviz("slides", "single", "-qt", "--force", "--out", str(folder))
    assert result.returncode == 0, result.stderr[-2000:]
    assert (folder / "week1.md").read_text() == "keep me"
    assert (folder / "index.html").is_file()
    assert len(list((folder / "stills").glob("slide-*.png"))) == 5
    assert [p.name for p in tmp_path.iterdir()] == ["course"]


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--autoplay-policy=no-user-gesture-required", f"--user-data-dir={tmp_path / 'profile'}",
    ):  # fmt: skip
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_window_size(1280, 900)
    try:
        yield driver
    finally:
        driver.quit()


_SLIDE_STATE = """
const done = arguments[arguments.length - 1];
(async () => {
  const slide = Reveal.getCurrentSlide();
  const video = slide.querySelector('video');
  // A clip waits for the viewer (WCAG 2.2.2): give it time to start by itself, then press play.
  await new Promise((resolve) => setTimeout(resolve, 400));
  const waited = video.paused && video.currentTime === 0;
  const playing = video.play();
  if (playing && playing.catch) { playing.catch(() => {}); }
  const started = Date.now();
  while (Date.now() - started < 30000 && !(video.currentTime > 0.3 || video.ended)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  done({
    index: Reveal.getIndices().h,
    total: Reveal.getTotalSlides(),
    currentTime: video.currentTime,
    duration: video.duration,
    error: video.error ? video.error.code : null,
    muted: video.muted,
    caption: slide.querySelector('p.embedviz-caption').innerText,
    notes: Reveal.getSlideNotes(slide),
    source: video.currentSrc,
    waited: waited,
    controls: video.controls,
  });
})();
"""


@pytest.mark.slow
def test_deck_plays_slide_by_slide_offline_in_chromium(browser: Any, deck: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    board = json.loads((deck / "SequenceLookup.storyboard.json").read_text())
    narrations = _narrations(board)
    durations = [b["duration"] for part in (board["parts"] or [board]) for b in part["beats"]]
    browser.get((deck / "index.html").as_uri())
    browser.set_script_timeout(60)
    ready = 0.0
    while not browser.execute_script("return typeof Reveal !== 'undefined' && Reveal.isReady()"):
        time.sleep(0.1)
        ready += 0.1
        assert ready < 30, "reveal.js did not start"
    seen = []
    for number, narration in enumerate(narrations):
        if number:
            ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
        state = browser.execute_async_script(_SLIDE_STATE)
        seen.append(state)
        assert state["index"] == number, state
        assert state["total"] == len(narrations)
        assert state["error"] is None, state
        # No clip starts by itself; each has controls, and plays when asked.
        assert state["waited"], state
        assert state["controls"], state
        assert state["currentTime"] > 0.3 or state["duration"] < 0.4, state
        assert abs(state["duration"] - durations[number]) <= 0.15, state
        assert state["source"].startswith("file://")
        assert state["caption"] == narration
        assert state["notes"] == narration
    # One more press stays on the last slide.
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    assert browser.execute_script("return Reveal.getIndices().h") == len(narrations) - 1
    # The caption is real, selectable text.
    selectable = browser.execute_script(
        "return getComputedStyle(document.querySelector('p.embedviz-caption')).userSelect"
    )
    assert selectable in ("text", "auto")
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTEFACTS / "slides.png"))
    # No request left the machine: every request was for a local file (or inline data).
    requests = []
    for entry in browser.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requests.append(message["params"]["request"]["url"])
    resources = browser.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name)"
    )
    # (Chromium records no resource timing for file:// loads; the CDP log has them all.)
    assert any(url.endswith(".mp4") for url in requests), requests
    assert any(url.endswith("/reveal.js/reveal.js") for url in requests), requests
    for url in [*requests, *resources]:
        # chrome:// is the browser's own built-in resources (its media controls' font).
        assert url.split(":", 1)[0] in ("file", "data", "blob", "chrome"), url
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []


# A browser that refuses to play any clip, even muted (as some do on battery, or
# with autoplay blocked): play() rejects as browsers reject it.
_REFUSE_PLAY = (
    "HTMLMediaElement.prototype.play = function () {"
    " return Promise.reject(new DOMException('refused', 'NotAllowedError')); };"
)


@pytest.mark.slow
def test_a_clip_that_cannot_play_shows_its_poster_not_a_blank_frame(
    browser: Any, deck: Path
) -> None:
    import io

    import numpy as np
    from PIL import Image

    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": _REFUSE_PLAY})
    browser.get((deck / "index.html").as_uri())
    waited = 0.0
    while not browser.execute_script("return typeof Reveal !== 'undefined' && Reveal.isReady()"):
        time.sleep(0.1)
        waited += 0.1
        assert waited < 30, "reveal.js did not start"
    time.sleep(1.5)  # reveal.js tries (and fails) to play the first clip
    state = browser.execute_script(
        "const v = Reveal.getCurrentSlide().querySelector('video');"
        "const r = v.getBoundingClientRect();"
        "return {paused: v.paused, poster: v.getAttribute('poster'), x: r.x, y: r.y,"
        " w: r.width, h: r.height, ratio: devicePixelRatio};"
    )
    assert state["paused"]
    shot = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("L")
    box = [round(state[k] * state["ratio"]) for k in ("x", "y")]
    box += [
        box[0] + round(state["w"] * state["ratio"]),
        box[1] + round(state["h"] * state["ratio"]),
    ]
    shown = np.asarray(shot.crop(tuple(box)), dtype=float)
    # The slide shows the scene (the first clip's first frame is one flat colour)...
    first = _first_frame(deck / "slides" / "files" / "SequenceLookup" / "slide-000.mp4")
    assert np.ptp(first) <= 8, "the test needs a clip that starts blank"
    assert np.ptp(shown) > 100
    # ... and it is the poster, the frame the still was made from.
    poster = Image.open(deck / state["poster"]).convert("L").resize(shot.crop(tuple(box)).size)
    assert np.mean(np.abs(shown - np.asarray(poster, dtype=float))) < 12


def _first_frame(video: Path) -> Any:
    import av

    with av.open(str(video)) as container:
        frame = next(container.decode(video=0))
    return frame.to_ndarray(format="gray")


def test_posters_show_the_scene_even_when_a_clip_ends_blank(tmp_path: Path) -> None:
    import av
    import numpy as np
    from PIL import Image

    from embedviz.export.media import write_poster

    def clip(frames: list[Any]) -> Path:
        path = tmp_path / f"clip{len(list(tmp_path.iterdir()))}.mp4"
        with av.open(str(path), "w") as out:
            stream = out.add_stream("libx264", rate=15)
            stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
            for pixels in frames:
                frame = av.VideoFrame.from_ndarray(pixels, format="rgb24")
                for packet in stream.encode(frame):
                    out.mux(packet)
            for packet in stream.encode():
                out.mux(packet)
        return path

    blank = np.full((48, 64, 3), 16, np.uint8)
    scene = blank.copy()
    scene[10:30, 8:40] = 230  # a bright card on the background
    later = blank.copy()
    later[20:40, 30:60] = 230  # the card, moved
    for frames, expected in (
        ([blank] * 5 + [scene] * 5, scene),  # fades in from blank: the last frame
        ([blank] * 3 + [scene] * 4 + [later] * 4 + [blank] * 5, later),  # fades out: last shown
    ):
        poster = tmp_path / "poster.png"
        write_poster(clip(frames), poster)
        pixels = np.asarray(Image.open(poster).convert("RGB"), dtype=float)
        assert np.mean(np.abs(pixels - expected)) < 10


@pytest.mark.slow
def test_voiced_slides_carry_their_sentence(tmp_path: Path) -> None:
    import av
    import numpy as np

    out = tmp_path / "voiced"
    result = _embedviz("slides", "single", "-qt", "--voice", "espeak", "--out", str(out))
    assert result.returncode == 0, result.stderr[-3000:]
    board = json.loads((out / "SingleTokenLookup.storyboard.json").read_text())
    # The storyboard records the voice that spoke it.
    assert "espeak-ng" in json.dumps(board.get("voice") or board["options"].get("voice"))
    slides = json.loads((out / "slides" / "SingleTokenLookup.json").read_text())["slides"]
    beats = board["beats"]
    assert len(slides) == len(beats)
    for slide, beat in zip(slides, beats, strict=True):
        with av.open(str(out / slide["file"])) as container:
            video = container.streams.video[0]
            video_seconds = float(video.duration * video.time_base)
            rate = container.streams.audio[0].codec_context.sample_rate
            samples = np.concatenate(
                [frame.to_ndarray().ravel() for frame in container.decode(audio=0)]
            )
        assert rate == 24000  # AAC at 24 kHz, as the clips have it
        assert abs(video_seconds - beat["duration"]) <= 0.15
        # The slide's own stretch of the soundtrack: as long as the slide, and spoken.
        assert abs(samples.size / rate - beat["duration"]) <= 0.15
        assert (np.abs(samples).max() > 0.05) == bool(beat["narration"].strip())
    page = (out / "index.html").read_text()
    assert " muted" not in page


def test_storyboard_file_is_refused_beside_a_scene(tmp_path: Path) -> None:
    board = prepared_storyboard("SingleTokenLookup", {}, environ={})
    (tmp_path / "single.json").write_text(board.to_json())
    result = _embedviz(
        "slides", "single", "--storyboard", str(tmp_path / "single.json"), "--out",
        str(tmp_path / "deck"),
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "--storyboard" in result.stderr
    assert not (tmp_path / "deck").exists()
