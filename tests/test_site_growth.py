"""A site that grows over a term (issue 20) and reuses unchanged clips (issue 21).

- ``export SCENE --out SITE`` adds or replaces that clip only: every other clip's
  files stay byte-identical (same bytes, same times), and the gallery
  lists every clip the site holds, in the order of ``embedviz scenes``.
- ``--remove SCENE`` takes out only that clip's files.
- A stop keeps the site as it was before, or as it is after, never in between.
- ``--title``, ``--intro`` and ``--lang`` head the gallery and persist.
- A clip whose storyboard and settings did not change is reused: nothing renders,
  and the site stays byte-identical; a changed narration renders that clip only.

Renders are faked (``fake_site_export.fake_clip``) where the render itself is not
under test; two tests at the end export real clips at -qt.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fake_site_export import HOLD_VARIABLE, LOG_VARIABLE, fake_clip

import embedviz.export.contents as contents
import embedviz.export.site as site_module
from embedviz.cli import main
from embedviz.export.contents import (
    clip_record_json,
    read_clip_record,
    render_key,
    render_settings,
)
from embedviz.export.documents import ExportedClip
from embedviz.export.folders import MANIFEST, site_lock, write_manifest
from embedviz.export.publishing import PAUSE_VARIABLE, output_lock
from embedviz.export.voice import Voice
from embedviz.inputs import prepared_storyboard

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
DRIVER = TESTS / "fake_site_export.py"
DONE = "embedviz: done; the stop came after publishing"


# -- helpers ----------------------------------------------------------------------------------


def _teaching_order() -> list[str]:
    """The order of ``embedviz scenes``, read from the command's own output."""
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        assert main(["scenes"]) == 0
    return [line.split()[0] for line in shown.getvalue().splitlines()]


def _state(folder: Path) -> dict[str, tuple[str, int, int]]:
    """Every file under ``folder``: its digest, modification time and mode."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            info = path.stat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            found[path.relative_to(folder).as_posix()] = (digest, info.st_mtime_ns, info.st_mode)
    return found


def _clip_state(folder: Path, scene: str) -> dict[str, tuple[str, int, int]]:
    return {name: value for name, value in _state(folder).items() if name.startswith(f"{scene}/")}


def _clips_on_disk(site: Path) -> set[str]:
    return {path.name for path in site.iterdir() if path.is_dir()}


class _Gallery(HTMLParser):
    """The parts of index.html a reader meets: title, heading, intro, list of clips."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.title = ""
        self.title_lang: str | None = None
        self.heading = ""
        self.heading_lang: str | None = None
        self.intro: list[str] = []
        self.listed: list[str] = []
        self.sections: list[str] = []
        self._in: list[str] = []
        self._header = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self._in.append(tag)
        if tag == "title":
            self.title_lang = found.get("lang")
        elif tag == "h1":
            self.heading_lang = found.get("lang")
        elif tag == "header":
            self._header = True
        elif tag == "p" and self._header:
            self.intro.append("")
        elif tag == "a" and "nav" in self._in and (found.get("href") or "").startswith("#"):
            self.listed.append((found.get("href") or "")[1:].removesuffix("-section"))
        elif tag == "section":
            self.sections.append((found.get("id") or "").removesuffix("-section"))

    def handle_endtag(self, tag: str) -> None:
        if tag == "header":
            self._header = False
        while self._in and self._in.pop() != tag:
            pass

    def handle_data(self, data: str) -> None:
        if self._in and self._in[-1] == "title":
            self.title += data
        elif "h1" in self._in:
            self.heading += data
        elif self._in and self._in[-1] == "p" and self._header:
            self.intro[-1] += data


def _gallery(site: Path) -> _Gallery:
    return _Gallery((site / "index.html").read_text(encoding="utf-8"))


def _storyboard_title(site: Path, scene: str) -> str:
    data = json.loads((site / scene / f"{scene}.storyboard.json").read_text(encoding="utf-8"))
    return str(data["title"])


def _manifest(site: Path) -> set[str]:
    return set(json.loads((site / MANIFEST).read_text(encoding="utf-8"))["files"])


def _site_is_whole(site: Path) -> None:
    files = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert _manifest(site) == files - {MANIFEST}


@pytest.fixture
def renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[str]]:
    """Fake every render; return a function that lists (and forgets) the scenes rendered."""
    log = tmp_path / "renders.log"
    monkeypatch.setattr(site_module, "export_clip", fake_clip)
    monkeypatch.setenv(LOG_VARIABLE, str(log))

    def rendered() -> list[str]:
        if not log.exists():
            return []
        names = log.read_text(encoding="utf-8").split()
        log.unlink()
        return sorted(names)

    return rendered


def _export(*args: str) -> int:
    return main(["export", *args, "-j", "2"])


# -- adding and replacing ---------------------------------------------------------------------


def test_adding_a_clip_keeps_every_other_clip_and_lists_all_in_teaching_order(
    tmp_path: Path, renders: Callable[[], list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    # Out of teaching order on purpose: FullExplainer first, the first scene last.
    assert _export("full", "sequence", "-ql", "--out", str(site)) == 0
    assert renders() == ["FullExplainer", "SequenceLookup"]
    before = _state(site)
    capsys.readouterr()

    assert _export("single", "-ql", "--out", str(site)) == 0
    assert renders() == ["SingleTokenLookup"]
    out = capsys.readouterr().out
    assert out == f"{site / 'index.html'} (3 clips)\n"
    after = _state(site)
    for scene in ("FullExplainer", "SequenceLookup"):
        kept = {name: value for name, value in before.items() if name.startswith(f"{scene}/")}
        assert kept
        assert _clip_state(site, scene) == kept  # bytes, times and mode
    assert set(after) - set(before) >= {"SingleTokenLookup/SingleTokenLookup.mp4"}
    order = _teaching_order()
    gallery = _gallery(site)
    expected = sorted(["FullExplainer", "SequenceLookup", "SingleTokenLookup"], key=order.index)
    assert expected[-1] == "FullExplainer" == order[-1]
    assert gallery.listed == gallery.sections == expected
    text = (site / "index.html").read_text(encoding="utf-8")
    for scene in expected:
        assert _storyboard_title(site, scene) in text
    _site_is_whole(site)


def test_a_grown_gallery_is_the_gallery_of_one_export_of_every_clip(
    tmp_path: Path, renders: Callable[[], list[str]]
) -> None:
    grown, whole = tmp_path / "grown", tmp_path / "whole"
    for scene in ("full", "sequence", "single"):
        assert _export(scene, "-ql", "--out", str(grown)) == 0
    assert _export("single", "sequence", "full", "-ql", "--out", str(whole)) == 0
    # Rebuilt from what the site holds, not from the last run's one clip.
    assert (grown / "index.html").read_bytes() == (whole / "index.html").read_bytes()
    assert (grown / "embedviz-chapters.js").is_file()
    assert _manifest(grown) == _manifest(whole)


def test_replacing_a_clip_changes_that_clip_only(
    tmp_path: Path, renders: Callable[[], list[str]]
) -> None:
    site = tmp_path / "site"
    assert _export("single", "zero", "-ql", "--out", str(site)) == 0
    renders()
    before = _state(site)
    assert _export("zero", "-qm", "--out", str(site)) == 0
    assert renders() == ["ZeroBasedIndexing"]
    assert _clip_state(site, "SingleTokenLookup") == {
        name: value for name, value in before.items() if name.startswith("SingleTokenLookup/")
    }
    mp4 = site / "ZeroBasedIndexing" / "ZeroBasedIndexing.mp4"
    assert mp4.read_text().startswith("ZeroBasedIndexing at -qm")
    assert _gallery(site).listed == ["SingleTokenLookup", "ZeroBasedIndexing"]
    _site_is_whole(site)


def test_gathered_jobs_join_the_site_and_keep_its_other_clips(
    tmp_path: Path, renders: Callable[[], list[str]]
) -> None:
    site, jobs = tmp_path / "site", tmp_path / "site.jobs"
    assert _export("single", "zero", "-ql", "--out", str(site)) == 0
    before = _state(site)
    # What --list-jobs' commands do: each clip into a one-clip site of its own.
    assert _export("sequence", "-ql", "--out", str(jobs / "01_SequenceLookup")) == 0
    assert _export("zero", "-qm", "--out", str(jobs / "02_ZeroBasedIndexing")) == 0
    renders()
    assert main(["export", "--gather", str(jobs), "--title", "Week 3", "--out", str(site)]) == 0
    assert renders() == []
    assert _clip_state(site, "SingleTokenLookup") == {
        name: value for name, value in before.items() if name.startswith("SingleTokenLookup/")
    }
    for scene, job in (("SequenceLookup", "01"), ("ZeroBasedIndexing", "02")):
        gathered = _state(jobs / f"{job}_{scene}")
        assert _clip_state(site, scene) == {n: v for n, v in gathered.items() if "/" in n}
    gallery = _gallery(site)
    assert gallery.listed == ["SingleTokenLookup", "ZeroBasedIndexing", "SequenceLookup"]
    assert gallery.title == "Week 3"
    _site_is_whole(site)


# -- removing ---------------------------------------------------------------------------------


def test_removing_a_clip_takes_out_only_its_files(
    tmp_path: Path, renders: Callable[[], list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    assert _export("single", "zero", "sequence", "-ql", "--out", str(site)) == 0
    renders()
    before = _state(site)
    capsys.readouterr()
    # By alias, as the other commands take scenes.
    assert _export("--remove", "zero", "--out", str(site)) == 0
    assert renders() == []
    captured = capsys.readouterr()
    assert captured.out == f"{site / 'index.html'} (2 clips)\n"
    assert "removed ZeroBasedIndexing" in captured.err
    assert _clips_on_disk(site) == {"SingleTokenLookup", "SequenceLookup"}
    for scene in ("SingleTokenLookup", "SequenceLookup"):
        assert _clip_state(site, scene) == {
            name: value for name, value in before.items() if name.startswith(f"{scene}/")
        }
    assert _gallery(site).listed == ["SingleTokenLookup", "SequenceLookup"]
    assert not any(name.startswith("ZeroBasedIndexing/") for name in _manifest(site))
    _site_is_whole(site)

    # The last clip out leaves a gallery that says so.
    assert _export("--remove", "single", "--remove", "SequenceLookup", "--out", str(site)) == 0
    assert _clips_on_disk(site) == set()
    assert _gallery(site).listed == []
    assert "holds no clips" in (site / "index.html").read_text(encoding="utf-8")
    _site_is_whole(site)


def test_one_export_can_add_a_clip_and_remove_another(
    tmp_path: Path, renders: Callable[[], list[str]]
) -> None:
    site = tmp_path / "site"
    assert _export("single", "zero", "-ql", "--out", str(site)) == 0
    renders()
    single = _clip_state(site, "SingleTokenLookup")
    assert _export("sequence", "-ql", "--remove", "zero", "--out", str(site)) == 0
    assert renders() == ["SequenceLookup"]
    assert _clips_on_disk(site) == {"SingleTokenLookup", "SequenceLookup"}
    assert _clip_state(site, "SingleTokenLookup") == single
    assert _gallery(site).listed == ["SingleTokenLookup", "SequenceLookup"]
    _site_is_whole(site)


def test_removing_keeps_the_users_own_files_with_force(
    tmp_path: Path, renders: Callable[[], list[str]]
) -> None:
    site = tmp_path / "site"
    assert _export("single", "zero", "-ql", "--out", str(site)) == 0
    mine = site / "ZeroBasedIndexing" / "my-notes.txt"
    mine.write_text("mine")
    assert _export("--remove", "zero", "--out", str(site)) == 2  # a file it did not write
    assert _export("--remove", "zero", "--force", "--out", str(site)) == 0
    assert mine.read_text() == "mine"
    assert sorted(p.name for p in (site / "ZeroBasedIndexing").iterdir()) == ["my-notes.txt"]
    assert _gallery(site).listed == ["SingleTokenLookup"]


def test_removing_a_clip_the_site_does_not_hold_is_one_line(
    tmp_path: Path, renders: Callable[[], list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    assert _export("single", "-ql", "--out", str(site)) == 0
    before = _state(site)
    capsys.readouterr()
    assert _export("--remove", "zero", "--out", str(site)) == 2
    err = capsys.readouterr().err
    assert err == (
        f"embedviz: error: {site} holds no clip ZeroBasedIndexing to remove; it holds "
        "SingleTokenLookup\n"
    )
    assert _export("single", "--remove", "single", "--out", str(site)) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
    assert _state(site) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["renders.log", "site"]


# -- title and intro --------------------------------------------------------------------------


def test_the_title_and_intro_head_the_gallery_and_persist(
    tmp_path: Path, renders: Callable[[], list[str]]
) -> None:
    site = tmp_path / "site"
    intro = tmp_path / "intro.txt"
    intro.write_text(
        "Semaine 1 : les tables.\nUne ligne par identifiant.\n\n  Semaine 2 : les lots.\n",
        encoding="utf-8",
    )
    title = "Cours <plongements> & IDs"
    assert _export(
        "single", "-ql", "--title", title, "--intro-file", str(intro), "--lang", "fr",
        "--out", str(site),
    ) == 0  # fmt: skip
    gallery = _gallery(site)
    assert gallery.title == gallery.heading == title
    assert gallery.title_lang == gallery.heading_lang == "fr"
    assert gallery.intro == ["Semaine 1 : les tables. Une ligne par identifiant.",
                             "Semaine 2 : les lots."]  # fmt: skip
    assert "Cours &lt;plongements&gt; &amp; IDs" in (site / "index.html").read_text()
    # The title heads the accessibility report too, marked as French on an English page.
    report = (site / "accessibility.html").read_text(encoding="utf-8")
    assert (
        '<h1>Accessibility report: <span lang="fr">Cours &lt;plongements&gt; &amp; IDs</span></h1>'
        in report
    )
    assert "<title>Accessibility report: Cours &lt;plongements&gt; &amp; IDs</title>" in report

    # A later export without --title keeps the site's words.
    assert _export("zero", "-ql", "--out", str(site)) == 0
    gallery = _gallery(site)
    assert (gallery.title, gallery.heading_lang, len(gallery.intro)) == (title, "fr", 2)
    assert gallery.listed == ["SingleTokenLookup", "ZeroBasedIndexing"]

    # Only the words: nothing renders, every clip stays as it is.
    renders()
    clips = {n: v for n, v in _state(site).items() if "/" in n}
    assert _export("--title", "Week by week", "--lang", "en", "--out", str(site)) == 0
    assert renders() == []
    assert {n: v for n, v in _state(site).items() if "/" in n} == clips
    gallery = _gallery(site)
    assert (gallery.title, gallery.title_lang, gallery.heading_lang) == ("Week by week", None, None)
    assert "<h1>Accessibility report: <span>Week by week</span></h1>" in (
        site / "accessibility.html"
    ).read_text(encoding="utf-8")

    # An empty title brings back the default; an empty intro, the default blurb.
    assert _export("--title", "", "--intro", "", "--out", str(site)) == 0
    gallery = _gallery(site)
    assert gallery.title == "embedviz clips"
    assert len(gallery.intro) == 1
    assert "real value from the table" in gallery.intro[0]
    assert not (site / ".embedviz-site.json").exists()
    assert "<h1>Accessibility report</h1>" in (site / "accessibility.html").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--title", "bell\x07"], "--title holds the control character U+0007"),
        (["--title", "x" * 201], "--title is 201 characters long; give at most 200"),
        (["--lang", "not a tag"], "--lang 'not a tag' is not a BCP 47 language tag"),
        (["--intro-file", "missing.txt"], "--intro-file missing.txt: No such file"),
        (["--intro-file", "latin1.txt"], "--intro-file latin1.txt is not UTF-8 text"),
    ],
)
def test_bad_words_for_the_site_are_one_line_and_change_nothing(
    tmp_path: Path,
    renders: Callable[[], list[str]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "latin1.txt").write_bytes("Années".encode("latin-1"))
    assert _export("single", "-ql", "--out", "site") == 0
    before = _state(tmp_path / "site")
    capsys.readouterr()
    assert _export("zero", *args, "--out", "site") == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert message in err
    assert renders() == ["SingleTokenLookup"]  # the first export only
    assert _state(tmp_path / "site") == before


# -- reuse ------------------------------------------------------------------------------------


def test_an_export_with_nothing_changed_renders_nothing_and_changes_nothing(
    tmp_path: Path, renders: Callable[[], list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    assert _export("single", "zero", "-ql", "--title", "Week 1", "--out", str(site)) == 0
    renders()
    before = _state(site)
    capsys.readouterr()
    assert _export("zero", "single", "-ql", "--out", str(site)) == 0
    assert renders() == []
    captured = capsys.readouterr()
    assert captured.out == f"{site / 'index.html'} (2 clips)\n"
    assert "kept SingleTokenLookup: unchanged" in captured.err
    assert "up to date; nothing was rendered or replaced" in captured.err
    # Byte-identical, and more: the same times, the site was not touched.
    assert _state(site) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]

    # --rebuild renders them again (the fake renders the same bytes: still nothing to publish).
    assert _export("zero", "single", "-ql", "--rebuild", "--out", str(site)) == 0
    assert renders() == ["SingleTokenLookup", "ZeroBasedIndexing"]
    assert _state(site) == before
    # Another quality is another clip.
    assert _export("single", "-qm", "--out", str(site)) == 0
    assert renders() == ["SingleTokenLookup"]


def test_a_changed_narration_renders_only_its_clip(
    tmp_path: Path, renders: Callable[[], list[str]]
) -> None:
    site = tmp_path / "site"
    assert _export("single", "zero", "-ql", "--out", str(site)) == 0
    renders()
    board = json.loads(prepared_storyboard("SingleTokenLookup", {}).to_json())
    same = tmp_path / "same.json"
    same.write_text(json.dumps(board), encoding="utf-8")
    before = _state(site)
    # The same storyboard, from a file: nothing to render.
    assert _export("--storyboard", str(same), "-ql", "--out", str(site)) == 0
    assert renders() == []
    assert _state(site) == before

    narration = board["beats"][0]["narration"]
    board["beats"][0]["narration"] = narration.replace("stores", "holds")
    assert board["beats"][0]["narration"] != narration
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(board), encoding="utf-8")
    assert _export("--storyboard", str(edited), "-ql", "--out", str(site)) == 0
    assert renders() == ["SingleTokenLookup"]
    assert _clip_state(site, "ZeroBasedIndexing") == {
        name: value for name, value in before.items() if name.startswith("ZeroBasedIndexing/")
    }
    captions = (site / "SingleTokenLookup" / "SingleTokenLookup.en.vtt").read_text()
    assert board["beats"][0]["narration"] in captions


def test_all_on_an_existing_site_renders_only_what_it_lacks(
    tmp_path: Path, renders: Callable[[], list[str]]
) -> None:
    site = tmp_path / "site"
    assert _export("single", "zero", "-ql", "--out", str(site)) == 0
    renders()
    before = _state(site)
    assert _export("--all", "-ql", "--out", str(site)) == 0
    order = _teaching_order()
    assert renders() == sorted(set(order) - {"SingleTokenLookup", "ZeroBasedIndexing"})
    assert _gallery(site).listed == order
    for scene in ("SingleTokenLookup", "ZeroBasedIndexing"):
        assert _clip_state(site, scene) == {
            name: value for name, value in before.items() if name.startswith(f"{scene}/")
        }


def _voice(tmp_path: Path, name: str, model: bytes | None = None) -> Voice:
    if model is None:
        return Voice("espeak", name, "en")
    path = tmp_path / f"{name}.onnx"
    path.write_bytes(model)
    (tmp_path / f"{name}.onnx.json").write_text("{}")
    return Voice("piper", name, "en", str(path))


def test_the_render_key_covers_storyboard_settings_voice_and_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = prepared_storyboard("SingleTokenLookup", {})
    other = prepared_storyboard("SingleTokenLookup", {"ids": "4"})
    plain = render_settings("l", None, False)
    key = render_key(board, plain)
    assert key == render_key(prepared_storyboard("SingleTokenLookup", {}), plain)
    piper = _voice(tmp_path, "joe", b"one model")
    different = {
        render_key(other, plain),
        render_key(board, render_settings("m", None, False)),
        render_key(board, render_settings("l", None, True)),
        render_key(board, render_settings("l", None, False, constant_frame_rate=True)),
        render_key(board, render_settings("l", _voice(tmp_path, "en-us"), False)),
        render_key(board, render_settings("l", _voice(tmp_path, "en-gb"), False)),
        render_key(board, render_settings("l", piper, False)),
    }
    # The same Piper voice with other model bytes is another voice.
    Path(str(piper.model)).write_bytes(b"another model")
    different.add(render_key(board, render_settings("l", piper, False)))
    monkeypatch.setattr(contents, "code_fingerprint", lambda: "0" * 64)
    different.add(render_key(board, plain))
    assert key not in different
    assert len(different) == 9


def test_the_code_fingerprint_changes_with_any_source_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    import embedviz

    copy = tmp_path / "embedviz"
    shutil.copytree(Path(embedviz.__file__).parent, copy, ignore=shutil.ignore_patterns("*.pyc"))
    prints = []
    for edit in ("", "# an edit\n"):
        with (copy / "render" / "base.py").open("a") as handle:
            handle.write(edit)
        monkeypatch.setattr(embedviz, "__file__", str(copy / "__init__.py"))
        contents.code_fingerprint.cache_clear()
        prints.append(contents.code_fingerprint())
    contents.code_fingerprint.cache_clear()
    assert prints[0] != prints[1]


# -- records are data -------------------------------------------------------------------------


def test_every_gallery_field_is_written_and_read_back(tmp_path: Path) -> None:
    import dataclasses

    clip = ExportedClip(
        "FullExplainer", "Embeddings, all of it", "Every scene.", 553.25, "FullExplainer",
        "fr", ((0.0, 10.5, "Une ligne"), (10.5, 20.0, "Deux")), {"page_chapters": "Chapitres"},
    )  # fmt: skip
    fields = {field.name: getattr(clip, field.name) for field in dataclasses.fields(clip)}
    (tmp_path / "FullExplainer").mkdir()
    record = clip_record_json({**fields, "seconds": 1.5}, "a" * 64, {"quality": "l"})
    (tmp_path / "FullExplainer" / "FullExplainer.clip.json").write_text(record)
    write_manifest(tmp_path)
    assert read_clip_record(tmp_path, "FullExplainer") == (clip, "a" * 64)
    # Every field of ExportedClip is of a kind the reader checks: a new kind fails here.
    for field in dataclasses.fields(ExportedClip):
        contents._field(field.name, str(field.type), json.loads(record)["clip"][field.name])


@pytest.mark.parametrize(
    "damage",
    ["not json", "wrong scene", "path as folder", "chapters not a list", "huge", "link", "lost"],
)
def test_a_damaged_clip_is_never_trusted(
    tmp_path: Path,
    renders: Callable[[], list[str]],
    capsys: pytest.CaptureFixture[str],
    damage: str,
) -> None:
    site = tmp_path / "site"
    assert _export("single", "zero", "-ql", "--out", str(site)) == 0
    renders()
    record = site / "ZeroBasedIndexing" / "ZeroBasedIndexing.clip.json"
    data = json.loads(record.read_text())
    if damage == "not json":
        record.write_text("{")
    elif damage == "wrong scene":
        data["clip"]["scene"] = "SingleTokenLookup"
        record.write_text(json.dumps(data))
    elif damage == "path as folder":
        data["clip"]["folder"] = "../../elsewhere"
        record.write_text(json.dumps(data))
    elif damage == "chapters not a list":
        data["clip"]["chapters"] = "<script>"
        record.write_text(json.dumps(data))
    elif damage == "huge":
        record.write_text(json.dumps({**data, "padding": "x" * 2_000_000}))
    elif damage == "lost":
        (site / "ZeroBasedIndexing" / "ZeroBasedIndexing.mp4").unlink()
    else:
        elsewhere = tmp_path / "elsewhere.json"
        elsewhere.write_text(json.dumps(data))
        record.unlink()
        record.symlink_to(elsewhere)
    before = _state(site)
    capsys.readouterr()
    # Keeping it would mean trusting the record: refused in one line, before rendering.
    assert _export("sequence", "-ql", "--out", str(site)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"embedviz: error: {site / 'ZeroBasedIndexing'} cannot be listed")
    assert err.endswith(
        "export ZeroBasedIndexing again, or remove it with --remove ZeroBasedIndexing\n"
    )
    assert len(err.splitlines()) == 1
    assert renders() == []
    assert _state(site) == before
    # Either way on works: exported again (not reused), or removed.
    assert _export("zero", "-ql", "--out", str(site)) == 0
    assert renders() == ["ZeroBasedIndexing"]
    assert read_clip_record(site, "ZeroBasedIndexing")[0].scene == "ZeroBasedIndexing"
    assert _export("--remove", "zero", "--out", str(site)) == 0
    assert _gallery(site).listed == ["SingleTokenLookup"]


def test_a_site_exported_before_records_keeps_its_clips(
    tmp_path: Path, renders: Callable[[], list[str]]
) -> None:
    site = tmp_path / "site"
    assert _export("single", "-ql", "--out", str(site)) == 0
    # As an earlier embedviz left it: no record, the storyboard beside the video.
    (site / "SingleTokenLookup" / "SingleTokenLookup.clip.json").unlink()
    write_manifest(site)
    renders()
    before = _clip_state(site, "SingleTokenLookup")
    assert _export("zero", "-ql", "--out", str(site)) == 0
    assert renders() == ["ZeroBasedIndexing"]
    assert _clip_state(site, "SingleTokenLookup") == before
    gallery = _gallery(site)
    assert gallery.listed == ["SingleTokenLookup", "ZeroBasedIndexing"]
    assert _storyboard_title(site, "SingleTokenLookup") in (site / "index.html").read_text()
    # Without a render key it is never reused: exporting it renders it.
    assert _export("single", "-ql", "--out", str(site)) == 0
    assert renders() == ["SingleTokenLookup"]


# -- stops: the site before, or the site after ------------------------------------------------


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EMBEDVIZ_", "FAKE_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(TESTS)])
    return {**env, **extra}


def _start(root: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(DRIVER), "export", *args, "-j", "2", "--out", "site"],
        cwd=root, env=_env(**env), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def _wait_for(condition: Callable[[], bool], what: str, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while not condition():
        if process.poll() is not None:
            pytest.fail(f"the process ended ({process.returncode}) before {what}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


ACTIONS = {
    "add": ["sequence", "-ql"],
    "replace": ["zero", "-qm"],
    "remove": ["--remove", "zero"],
}


@contextlib.contextmanager
def _held_site_lock(site: Path) -> Iterator[None]:
    with output_lock(site_lock(site), site):
        yield


@pytest.fixture
def grown(tmp_path: Path, renders: Callable[[], list[str]]) -> Path:
    """A site of two clips, made in this process with the same stand-in for rendering."""
    root = tmp_path / "root"
    assert _export("single", "zero", "-ql", "--out", str(root / "site")) == 0
    return root


@pytest.mark.parametrize("action", list(ACTIONS))
def test_a_stop_before_publishing_leaves_the_site_as_it_was(grown: Path, action: str) -> None:
    site = grown / "site"
    before = _state(site)
    holding = grown.parent / "rendering"
    with contextlib.ExitStack() as stack:
        if action == "remove":
            # Nothing renders: stop it while it waits for the site's lock.
            stack.enter_context(_held_site_lock(site))
            process = _start(grown, *ACTIONS[action])
            _wait_for(lambda: any(grown.glob(".site.new-*")), "the staging folder", process)
            time.sleep(0.5)
        else:
            process = _start(grown, *ACTIONS[action], **{HOLD_VARIABLE: str(holding)})
            _wait_for(holding.exists, "the clip to render", process)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
    assert process.returncode == 143, err
    assert err.splitlines()[-1] == "embedviz: terminated; nothing was replaced"
    assert "Traceback" not in err
    assert _state(site) == before
    assert sorted(p.name for p in grown.iterdir()) == ["site"]


@pytest.mark.parametrize("action", list(ACTIONS))
def test_a_stop_while_publishing_leaves_the_whole_new_site(grown: Path, action: str) -> None:
    site = grown / "site"
    before = _state(site)
    gate = grown.parent / "gate"
    process = _start(grown, *ACTIONS[action], **{PAUSE_VARIABLE: str(gate)})
    _wait_for(gate.exists, "the export to reach publishing", process)
    process.send_signal(signal.SIGTERM)
    time.sleep(0.2)
    assert process.poll() is None  # held: publishing goes on
    assert _state(site) == before
    gate.unlink()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 143, err
    assert err.splitlines()[-1] == DONE
    _site_is_whole(site)
    single = {n: v for n, v in before.items() if n.startswith("SingleTokenLookup/")}
    assert _clip_state(site, "SingleTokenLookup") == single
    listed = _gallery(site).listed
    if action == "add":
        assert listed == ["SingleTokenLookup", "ZeroBasedIndexing", "SequenceLookup"]
    elif action == "replace":
        assert listed == ["SingleTokenLookup", "ZeroBasedIndexing"]
        mp4 = site / "ZeroBasedIndexing" / "ZeroBasedIndexing.mp4"
        assert mp4.read_text().startswith("ZeroBasedIndexing at -qm")
    else:
        assert listed == ["SingleTokenLookup"]
        assert not (site / "ZeroBasedIndexing").exists()
    assert sorted(p.name for p in grown.iterdir()) == ["site"]


# -- real clips -------------------------------------------------------------------------------


def _embedviz(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "embedviz", *args],
        cwd=cwd, env=_env(), capture_output=True, text=True, timeout=900,
    )  # fmt: skip


@pytest.fixture(scope="module")
def real_sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Real exports: one clip, then a second added; and both in one export.

    At -qt: the files and the gallery are checked, not the picture.
    """
    root = tmp_path_factory.mktemp("real")
    done: dict[str, Any] = {"root": root}
    first = _embedviz(root, "export", "single", "-qt", "-j", "1", "--out", "grown")
    assert first.returncode == 0, first.stderr[-3000:]
    done["first"] = _state(root / "grown")
    added = _embedviz(root, "export", "zero", "-qt", "-j", "1", "--out", "grown")
    assert added.returncode == 0, added.stderr[-3000:]
    done["added"] = added
    whole = _embedviz(root, "export", "single", "zero", "-qt", "-j", "2", "--out", "whole")
    assert whole.returncode == 0, whole.stderr[-3000:]
    return done


@pytest.mark.slow
def test_a_real_clip_added_keeps_the_first_and_the_gallery_lists_both(
    real_sites: dict[str, Any],
) -> None:
    grown, whole = real_sites["root"] / "grown", real_sites["root"] / "whole"
    first = {n: v for n, v in real_sites["first"].items() if n.startswith("SingleTokenLookup/")}
    assert "SingleTokenLookup/SingleTokenLookup.webm" in first
    assert _clip_state(grown, "SingleTokenLookup") == first
    assert real_sites["added"].stderr.startswith("exported ZeroBasedIndexing in ")
    assert _gallery(grown).listed == ["SingleTokenLookup", "ZeroBasedIndexing"]
    # The gallery rebuilt from the site's records is the one a single export writes.
    assert (grown / "index.html").read_bytes() == (whole / "index.html").read_bytes()
    assert _manifest(grown) == _manifest(whole)


@pytest.mark.slow
def test_a_real_export_with_nothing_changed_renders_nothing(real_sites: dict[str, Any]) -> None:
    root = real_sites["root"]
    before = _state(root / "grown")
    again = _embedviz(root, "export", "zero", "single", "-qt", "--out", "grown")
    assert again.returncode == 0, again.stderr
    assert "exported Single" not in again.stderr
    assert "exported Zero" not in again.stderr
    assert again.stderr.count("kept ") == 2
    assert _state(root / "grown") == before


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    from test_export import CHROMEDRIVER, CHROMIUM, FLAGS

    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.skip("Debian's chromium and chromium-driver are not installed")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in [*FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.mark.slow
def test_a_titled_gallery_and_an_empty_one_pass_axe(
    real_sites: dict[str, Any], tmp_path: Path, browser: Any
) -> None:
    import shutil

    from test_export import _RUN_AXE, AXE, AXE_TAGS

    if not AXE.exists():
        pytest.skip("axe-core is not installed; run scripts/bootstrap.sh --test")
    titled, empty = tmp_path / "titled", tmp_path / "empty"
    for copy in (titled, empty):
        shutil.copytree(real_sites["root"] / "grown", copy)
    intro = "Chaque semaine, un clip de plus.\n\nLes nombres viennent de la table."
    assert _export(
        "--title", "Plongements, semaine après semaine", "--intro", intro, "--lang", "fr",
        "--out", str(titled),
    ) == 0  # fmt: skip
    assert _export("--remove", "single", "--remove", "zero", "--out", str(empty)) == 0
    browser.set_script_timeout(120)
    found = {}
    for site in (titled, empty):
        browser.get((site / "index.html").as_uri())
        browser.execute_script(AXE.read_text(encoding="utf-8"))
        result = browser.execute_async_script(_RUN_AXE, AXE_TAGS)
        assert "error" not in result, result
        found[site.name] = result["violations"]
    assert found == {"titled": [], "empty": []}
    assert _gallery(titled).heading_lang == "fr"
