"""The accessibility report of an exported site: ``accessibility.html`` and ``.json``.

Written for a university's accessibility office. For each WCAG 2.2 A and AA
success criterion that bears on these clips and pages (1.1.1, 1.2.1–1.2.5,
1.3.1, 1.4.3, 1.4.11, 2.1.1, 2.2.2, 2.4.2, 2.4.6, 3.1.1, 3.1.2, 4.1.2) it
says what the export does and gives evidence measured on the files just
written: caption and description coverage (from the WebVTT files and the
storyboards), loudness of the narration, contrast ratios of every colour pair
the pages and the video use, and what the pages' markup holds (titles,
languages, headings, table headers, names of controls). Where a test ran
axe-core on the site, :func:`record_axe_results` adds its results.

Every export writes the report again (see :mod:`embedviz.export.site`).
"""

from __future__ import annotations

import html
import html.parser
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from embedviz.export.documents import PAGE_COLOURS, REPORT_NAME, ExportedClip, page_html

__all__ = [
    "CRITERIA",
    "REPORT_DATA",
    "clip_evidence",
    "contrast_ratio",
    "record_axe_results",
    "report_html",
    "site_report",
    "write_report",
]

REPORT_DATA = "accessibility.json"
# The criteria reported, in order: number, name, level.
CRITERIA: tuple[tuple[str, str, str], ...] = (
    ("1.1.1", "Non-text Content", "A"),
    ("1.2.1", "Audio-only and Video-only (Prerecorded)", "A"),
    ("1.2.2", "Captions (Prerecorded)", "A"),
    ("1.2.3", "Audio Description or Media Alternative (Prerecorded)", "A"),
    ("1.2.4", "Captions (Live)", "AA"),
    ("1.2.5", "Audio Description (Prerecorded)", "AA"),
    ("1.3.1", "Info and Relationships", "A"),
    ("1.4.3", "Contrast (Minimum)", "AA"),
    ("1.4.11", "Non-text Contrast", "AA"),
    ("2.1.1", "Keyboard", "A"),
    ("2.2.2", "Pause, Stop, Hide", "A"),
    ("2.4.2", "Page Titled", "A"),
    ("2.4.6", "Headings and Labels", "AA"),
    ("3.1.1", "Language of Page", "A"),
    ("3.1.2", "Language of Parts", "AA"),
    ("4.1.2", "Name, Role, Value", "A"),
)


def _luminance(colour: str) -> float:
    """WCAG relative luminance of a ``#rrggbb`` colour."""
    channels = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast_ratio(foreground: str, background: str) -> float:
    """Return the WCAG 2 contrast ratio of two ``#rrggbb`` colours, e.g. ``4.5``.

    Parameters
    ----------
    foreground, background
        The colours.

    Returns
    -------
    float
        ``(L1 + 0.05) / (L2 + 0.05)``, the lighter over the darker, rounded
        down to two decimals (so a ratio shown as 4.5 is at least 4.5).
    """
    high, low = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return int((high + 0.05) / (low + 0.05) * 100) / 100


@dataclass
class _Facts(html.parser.HTMLParser):
    """What one page's markup holds (counted while parsing it)."""

    title: str = ""
    language: str = ""
    ids: set[str] = field(default_factory=set)
    tags: dict[str, int] = field(default_factory=dict)
    headings: list[tuple[str, str]] = field(default_factory=list)
    scopes: list[str | None] = field(default_factory=list)
    captions: int = 0
    labelled_by: list[str] = field(default_factory=list)
    parts_in_other_languages: int = 0
    positive_tabindex: int = 0
    autoplay: int = 0
    images_without_alt: int = 0
    live_regions: int = 0
    buttons: list[str] = field(default_factory=list)
    _open: list[str] = field(default_factory=list)
    _text: str = ""

    def __post_init__(self) -> None:
        html.parser.HTMLParser.__init__(self)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "html":
            self.language = str(found.get("lang") or "")
        elif found.get("lang") and found["lang"] != self.language:
            self.parts_in_other_languages += 1
        if tag == "th":
            self.scopes.append(found.get("scope"))
        self.captions += tag == "caption"
        if tag in ("video", "section", "nav") and found.get("aria-labelledby"):
            self.labelled_by.append(str(found["aria-labelledby"]))
        tabindex = found.get("tabindex")
        self.positive_tabindex += bool(
            tabindex and tabindex.lstrip("-").isdigit() and int(tabindex) > 0
        )
        self.autoplay += "autoplay" in found or "data-autoplay" in found
        self.images_without_alt += tag == "img" and "alt" not in found
        self.live_regions += "aria-live" in found
        if tag in ("title", "h1", "h2", "h3", "button"):
            self._open.append(tag)
            self._text = ""

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1] == tag:
            self._open.pop()
            text = " ".join(self._text.split())
            if tag == "title":
                self.title = text
            elif tag == "button":
                self.buttons.append(text)
            else:
                self.headings.append((tag, text))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._text += data


def _facts(path: Path) -> _Facts:
    facts = _Facts()
    facts.feed(path.read_text(encoding="utf-8"))
    return facts


_CUE = re.compile(r"^(\d\d:)?\d\d:\d\d\.\d{3} --> (\d\d:)?\d\d:\d\d\.\d{3}", re.M)


def _cue_times(path: Path) -> list[tuple[float, float]]:
    """Read a WebVTT file's cue times (a plain reader: embedviz writes these files)."""
    if not path.is_file():
        return []

    def seconds(stamp: str) -> float:
        parts = [float(p) for p in stamp.split(":")]
        return float(sum(p * 60.0**n for n, p in enumerate(reversed(parts))))

    times = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if _CUE.match(line):
            start, end = line.split(" --> ")
            times.append((seconds(start), seconds(end.split()[0])))
    return times


def clip_evidence(site: Path, clip: ExportedClip) -> dict[str, Any]:
    """Measure one clip's files: its captions, descriptions, sound and pages.

    Parameters
    ----------
    site
        The site folder.
    clip
        One clip exported there.

    Returns
    -------
    dict
        Counts of phrases, caption cues, descriptions and their cues; the
        values shown and said; the loudness measured on each soundtrack when
        it was written (``SCENE.timing.json``); the described version's pauses.
    """
    from embedviz.core.errors import EmbedvizError
    from embedviz.story.contract import load_storyboard
    from embedviz.story.describe import description_coverage

    folder = site / clip.folder
    try:
        board = load_storyboard(folder / f"{clip.scene}.storyboard.json")
    except EmbedvizError as error:
        # A clip kept from an older export may lack its storyboard: say so, count nothing.
        return _unmeasured(clip, str(error).splitlines()[0])
    beats = board.all_beats()
    phrases = sum(len(beat.phrases) for beat in beats)
    descriptions = sum(len(beat.descriptions) for beat in beats)
    captions = _cue_times(folder / f"{clip.scene}.{board.language}.vtt")
    described_cues = _cue_times(folder / f"{clip.scene}.descriptions.{board.language}.vtt")
    said, shown = description_coverage(board)
    timing_file = folder / f"{clip.scene}.timing.json"
    timing = json.loads(timing_file.read_text(encoding="utf-8")) if timing_file.is_file() else {}
    pauses = timing.get("described_pauses") or []
    # Measured on each file as it was written (export_clip, in its worker).
    loudness = timing.get("loudness") or {}
    return {
        "scene": clip.scene,
        "title": clip.title,
        "language": board.language,
        "theme": board.options.theme,
        "seconds": round(clip.duration, 1),
        "phrases": phrases,
        "caption_cues": len(captions),
        "captioned_seconds": round(sum(end - start for start, end in captions), 1),
        "descriptions": descriptions,
        "description_cues": len(described_cues),
        "values_shown": shown,
        "values_said": said,
        "voice": board.voice,
        "sound": loudness.get("clip"),
        "described_version": clip.described,
        "described_pause_seconds": round(sum(pauses), 1),
        "described_sound": loudness.get("described"),
        "steps": sum(1 for _ in beats) if clip.steps else 0,
    }


def _unmeasured(clip: ExportedClip, problem: str) -> dict[str, Any]:
    """Report a clip whose storyboard cannot be read: nothing counted, and why."""
    counts = ("phrases", "caption_cues", "descriptions", "description_cues", "values_shown",
              "values_said", "steps")  # fmt: skip
    return {
        "scene": clip.scene,
        "title": clip.title,
        "language": clip.language,
        "theme": "dark",
        "seconds": round(clip.duration, 1),
        **dict.fromkeys(counts, 0),
        "captioned_seconds": 0.0,
        "voice": None,
        "sound": None,
        "described_version": clip.described,
        "described_pause_seconds": 0.0,
        "described_sound": None,
        "problem": problem,
    }


def _contrast(themes: Iterable[str]) -> dict[str, Any]:
    """Contrast ratios of the pages' colours (both schemes) and the clips' video themes."""
    from embedviz.render.theme import THEMES

    pages = {
        scheme: {
            "text": contrast_ratio(c["fg"], c["bg"]),
            "secondary text (captions, times)": contrast_ratio(c["muted"], c["bg"]),
            "links": contrast_ratio(c["accent"], c["bg"]),
            "button text on its fill": contrast_ratio(c["bg"], c["accent"]),
        }
        for scheme, c in PAGE_COLOURS.items()
    }
    page_graphics = {
        scheme: {
            "focus outline": contrast_ratio(c["accent"], c["bg"]),
            "table borders and disabled buttons": contrast_ratio(c["muted"], c["bg"]),
        }
        for scheme, c in PAGE_COLOURS.items()
    }
    used = {name: THEMES[name] for name in sorted(set(themes)) if name in THEMES}
    video = {
        f"{name} theme": {
            "text": contrast_ratio(t.text, t.background),
            "headings and labels": contrast_ratio(t.muted, t.background),
            "cell text": contrast_ratio(t.text, t.cell_fill),
            "positive values, strongest": contrast_ratio(t.positive, t.cell_fill),
            "negative values, strongest": contrast_ratio(t.negative, t.cell_fill),
            "ID on a chip": contrast_ratio(t.chip_text, t.chip),
            "IDs written in amber": contrast_ratio(t.id_ink, t.background),
            "output heading": contrast_ratio(t.output, t.background),
        }
        for name, t in used.items()
    }
    video_graphics = {
        f"{name} theme": {
            "amber outline of the row looked up": contrast_ratio(t.chip, t.background),
            "amber outline against the cells": contrast_ratio(t.chip, t.cell_fill),
            "purple pointer at what the narration names": contrast_ratio(t.highlight, t.background),
        }
        for name, t in used.items()
    }
    return {
        "pages": pages,
        "page_graphics": page_graphics,
        "video": video,
        "video_graphics": video_graphics,
    }


# Files that are fragments to paste, not pages: a clip's snippet and its tables.
_FRAGMENTS = (".snippet.html", ".numbers.html")


def _pages(site: Path) -> dict[str, _Facts]:
    pages = sorted(site.glob("*.html")) + sorted(site.glob("*/*.html"))
    return {
        path.relative_to(site).as_posix(): _facts(path)
        for path in pages
        if not path.name.endswith(_FRAGMENTS)
    }


def _page_summary(facts: _Facts) -> dict[str, Any]:
    """Sum up the figures the findings use from one page's markup."""
    return {
        "title": facts.title,
        "lang": facts.language,
        "h1": sum(1 for tag, _ in facts.headings if tag == "h1"),
        "headings": len(facts.headings),
        "tables": facts.tags.get("table", 0),
        "table_captions": facts.captions,
        "header_cells_without_scope": sum(1 for scope in facts.scopes if not scope),
        "videos": facts.tags.get("video", 0),
        "named_by_missing_ids": sum(1 for ref in facts.labelled_by if ref not in facts.ids),
        "buttons_without_names": sum(1 for text in facts.buttons if not text),
        "positive_tabindex": facts.positive_tabindex,
        "autoplay": facts.autoplay,
        "images_without_alt": facts.images_without_alt,
        "parts_in_other_languages": facts.parts_in_other_languages,
        "live_regions": facts.live_regions,
    }


def site_report(
    site: Path,
    clips: Sequence[ExportedClip],
    evidence: Sequence[dict[str, Any]] | None = None,
    title: str = "",
    title_language: str | None = None,
) -> dict[str, Any]:
    """Measure an exported site and say, criterion by criterion, what it does.

    Parameters
    ----------
    site
        The site folder, with every clip and the gallery written.
    clips
        The clips exported there.
    evidence
        Their evidence, when it was already gathered (see :func:`clip_evidence`).
    title
        The site's title (the gallery's heading), which heads the report too.
    title_language
        The title's language, where a teacher set one (``--lang``).

    Returns
    -------
    dict
        ``title``, ``clips`` (evidence per clip), ``pages`` (what each page's markup
        holds), ``contrast`` (ratios per colour pair), ``axe`` (``None``
        until :func:`record_axe_results`) and ``criteria``: for each of
        :data:`CRITERIA`, its number, name, level, ``status``, ``does``
        (what the export does) and ``evidence`` (measured facts).
    """
    if evidence is None:
        evidence = [clip_evidence(site, clip) for clip in clips]
    pages = _pages(site)
    contrast = _contrast(clip["theme"] for clip in evidence)
    summary = {name: _page_summary(facts) for name, facts in pages.items()}
    data: dict[str, Any] = {
        "generator": "embedviz",
        "title": title,
        "title_language": title_language,
        "standard": "WCAG 2.2, levels A and AA",
        "clips": list(evidence),
        "pages": summary,
        "contrast": contrast,
        "axe": None,
    }
    data["criteria"] = _criteria(data)
    return data


def _total(items: Iterable[dict[str, Any]], key: str) -> int:
    return sum(int(item[key]) for item in items)


def _criteria(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Write each criterion's finding from the measured data."""
    from embedviz.export.criteria import findings

    found = findings(data)
    return [
        {"id": number, "name": name, "level": level, **found[number]}
        for number, name, level in CRITERIA
    ]


def record_axe_results(
    site: Path, version: str, results: dict[str, dict[str, list[Any]]]
) -> dict[str, Any]:
    """Add an axe-core run's results to a site's report, and write the report again.

    Parameters
    ----------
    site
        An exported site (its ``accessibility.json`` is read and rewritten).
    version
        The axe-core version that ran.
    results
        Colour scheme -> page -> the violations axe-core found there.

    Returns
    -------
    dict
        The report's data, with ``axe`` filled in.
    """
    data: dict[str, Any] = json.loads((site / REPORT_DATA).read_text(encoding="utf-8"))
    data["axe"] = {
        "version": version,
        "schemes": sorted(results),
        "pages": sorted({page for pages in results.values() for page in pages}),
        "violations": {
            scheme: {page: len(found) for page, found in pages.items()}
            for scheme, pages in results.items()
        },
        "details": {
            scheme: {page: found for page, found in pages.items() if found}
            for scheme, pages in results.items()
        },
    }
    data["criteria"] = _criteria(data)
    _write(site, data)
    return data


def write_report(
    site: Path, clips: Sequence[ExportedClip], title: str = "", title_language: str | None = None
) -> dict[str, Any]:
    """Measure the site and write ``accessibility.json`` and ``accessibility.html`` into it.

    Parameters
    ----------
    site
        The site folder (the staging folder, before it is published).
    clips
        The clips exported there.
    title, title_language
        The site's title, which heads the report, and its language if set.

    Returns
    -------
    dict
        The report's data (see :func:`site_report`).
    """
    evidence = [clip_evidence(site, clip) for clip in clips]
    # The report is one of the site's pages too: measure a first draft of it, then write it.
    draft = site_report(site, clips, evidence, title, title_language)
    (site / REPORT_NAME).write_text(report_html(draft), encoding="utf-8")
    data = site_report(site, clips, evidence, title, title_language)
    _write(site, data)
    return data


def _write(site: Path, data: dict[str, Any]) -> None:
    (site / REPORT_DATA).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    (site / REPORT_NAME).write_text(report_html(data), encoding="utf-8")


def report_html(data: dict[str, Any]) -> str:
    """Return the report page: a table of contents, then one section per criterion.

    Parameters
    ----------
    data
        The report's data (:func:`site_report`).

    Returns
    -------
    str
        A self-contained page in the site's style.
    """
    contents = "\n".join(
        f'<li><a href="#sc-{c["id"]}">{c["id"]} {html.escape(c["name"])}</a>: '
        f"{html.escape(c['status'])}</li>"
        for c in data["criteria"]
    )
    sections = "\n".join(_criterion_html(c) for c in data["criteria"])
    clips = _clips_table(data["clips"])
    # The site's title heads its report, as it heads the gallery.
    heading = "Accessibility report" + (f": {data['title']}" if data.get("title") else "")
    marked = f' lang="{html.escape(data["title_language"])}"' if data.get("title_language") else ""
    shown = (
        f"Accessibility report: <span{marked}>{html.escape(data['title'])}</span>"
        if data.get("title")
        else "Accessibility report"
    )
    body = (
        '<a class="skip" href="#main">Skip to the findings</a>\n'
        '<nav aria-label="Back"><ul><li><a href="index.html">All clips</a></li></ul></nav>\n'
        f'<main id="main" tabindex="-1">\n<h1>{shown}</h1>\n'
        f"<p>How this site's clips and pages meet {html.escape(data['standard'])}, criterion "
        "by criterion. embedviz wrote this report when it exported the site, and measured "
        "every figure in it on the files it had just written.</p>\n"
        f'<nav aria-label="Criteria"><ol>\n{contents}\n</ol></nav>\n'
        f'{sections}\n<section aria-labelledby="clips-heading">\n'
        '<h2 id="clips-heading">Clip by clip</h2>\n'
        f"{clips}\n</section>\n</main>"
    )
    return page_html(heading, body)


def _criterion_html(criterion: dict[str, Any]) -> str:
    number = criterion["id"]
    evidence = "\n".join(f"<li>{html.escape(item)}</li>" for item in criterion["evidence"])
    return (
        f'<section id="sc-{number}" aria-labelledby="sc-{number}-heading">\n'
        f'<h2 id="sc-{number}-heading">{number} {html.escape(criterion["name"])} '
        f"(level {criterion['level']})</h2>\n"
        f"<p><strong>{html.escape(criterion['status'])}.</strong> "
        f"{html.escape(criterion['does'])}</p>\n"
        f"<p>Evidence:</p>\n<ul>\n{evidence}\n</ul>\n</section>"
    )


def _clips_table(clips: Sequence[dict[str, Any]]) -> str:
    head = (
        '<tr><th scope="col">Clip</th><th scope="col">Length</th>'
        '<th scope="col">Phrases / caption cues</th>'
        '<th scope="col">Descriptions / description cues</th>'
        '<th scope="col">Values on screen said</th><th scope="col">Narration loudness</th>'
        '<th scope="col">Audio-described version</th></tr>'
    )
    rows = []
    for clip in clips:
        sound = clip["sound"]
        loud = f"{sound['lufs']} LUFS, peak {sound['true_peak_dbtp']} dBTP" if sound else "silent"
        described = (
            f"yes, {clip['described_pause_seconds']} s of pauses"
            if clip["described_version"]
            else "no (export with --voice)"
        )
        rows.append(
            f'<tr><th scope="row">{html.escape(clip["title"])}</th>'
            f"<td>{clip['seconds']} s</td><td>{clip['phrases']} / {clip['caption_cues']}</td>"
            f"<td>{clip['descriptions']} / {clip['description_cues']}</td>"
            f"<td>{clip['values_said']} of {clip['values_shown']}</td><td>{loud}</td>"
            f"<td>{described}</td></tr>"
        )
    return (
        '<div class="table-scroll" role="region" tabindex="0" aria-labelledby="clips-caption">\n'
        '<table>\n<caption id="clips-caption">Measured per clip</caption>\n'
        f"<thead>{head}</thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>\n</div>"
    )
