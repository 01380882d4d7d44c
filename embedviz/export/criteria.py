"""The accessibility report's findings, one per WCAG 2.2 success criterion.

Each finding says what the export does for the criterion and lists the
evidence measured on the site (see :mod:`embedviz.export.report`, which
gathers the data). The status is worked out from that evidence: a criterion
whose measured figures fall short is reported as not met, never assumed met.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["findings"]

Finding = dict[str, Any]
# Smallest contrast ratios: text (1.4.3) and user-interface parts or graphics (1.4.11).
_TEXT_CONTRAST = 4.5
_NON_TEXT_CONTRAST = 3.0
_MET, _NOT_MET, _NOT_APPLICABLE = "Met", "Not met", "Not applicable"


def _pages(data: dict[str, Any], key: str) -> int:
    return sum(int(page[key]) for page in data["pages"].values())


def _clips(data: dict[str, Any], key: str) -> int:
    return sum(int(clip[key]) for clip in data["clips"])


def _axe(data: dict[str, Any]) -> list[str]:
    """Say what axe-core found, where a test ran it on the site."""
    axe = data.get("axe")
    if not axe:
        return [
            "axe-core was not run by this export (it needs a browser); embedviz's test suite "
            "runs axe-core on exported sites in the light and the dark colour scheme."
        ]
    found = sum(n for pages in axe["violations"].values() for n in pages.values())
    return [
        f"axe-core {axe['version']} (rules for WCAG 2.0, 2.1 and 2.2, A and AA) found "
        f"{found} violations on {len(axe['pages'])} pages in the "
        f"{' and '.join(axe['schemes'])} colour schemes."
    ]


def _axe_ok(data: dict[str, Any]) -> bool:
    axe = data.get("axe")
    return not axe or all(n == 0 for pages in axe["violations"].values() for n in pages.values())


def _status(ok: bool) -> str:
    return _MET if ok else _NOT_MET


def _count(number: int, noun: str, plural: str | None = None) -> str:
    """``1 page``, ``5 pages``."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def _non_text(data: dict[str, Any]) -> Finding:
    videos, unnamed = _pages(data, "videos"), _pages(data, "named_by_missing_ids")
    images = _pages(data, "images_without_alt")
    steps = sum(1 for clip in data["clips"] if clip["steps"])
    return {
        "status": _status(unnamed == 0 and images == 0 and _axe_ok(data)),
        "does": "Every video is named by its heading and has a text alternative: a "
        "transcript with the descriptions and tables of the numbers, and a step-through "
        "page. The pages use no images other than the videos' posters.",
        "evidence": [
            f"{_count(videos, 'video player')} on {_count(len(data['pages']), 'page')}; "
            f"{unnamed} named by a missing element.",
            f"{_count(len(data['clips']), 'transcript')} and {_count(steps, 'step-through page')}.",
            f"{_count(images, 'image')} without alternative text.",
            *_axe(data),
        ],
    }


def _video_only(data: dict[str, Any]) -> Finding:
    silent = [clip["title"] for clip in data["clips"] if not clip["sound"]]
    return {
        "status": _MET if silent else _NOT_APPLICABLE,
        "does": "A clip exported without --voice is video only; its transcript and "
        "step-through page are its media alternative, giving the narration, every value, "
        "print and chart it shows (the descriptions), and tables of its numbers. With "
        "--voice the clips are synchronized media (see 1.2.2 and 1.2.5).",
        "evidence": [
            f"{len(silent)} of {len(data['clips'])} clips are video only"
            + (f" ({', '.join(silent)})" if silent else "")
            + "; each clip has a transcript with its descriptions.",
            f"{_clips(data, 'values_said')} of {_clips(data, 'values_shown')} values that "
            "appear on screen are said in the narration or a description.",
        ],
    }


def _captions(data: dict[str, Any]) -> Finding:
    phrases, cues = _clips(data, "phrases"), _clips(data, "caption_cues")
    unread = [clip for clip in data["clips"] if clip.get("problem")]
    return {
        "status": _status(cues >= phrases > 0 and not unread),
        "does": "Every clip has a WebVTT caption track, on by default, with one cue per "
        "phrase of the narration (at most two lines of 42 characters), timed by the "
        "storyboard and, with --voice, by the speech.",
        "evidence": [
            f"{_count(cues, 'caption cue')} for {_count(phrases, 'phrase')} of narration in "
            f"{_count(len(data['clips']), 'clip')}.",
            *[
                f"{clip['title']}: {clip['caption_cues']} cues, {clip['captioned_seconds']} s "
                f"of {clip['seconds']} s captioned."
                for clip in data["clips"]
                if not clip.get("problem")
            ],
            *[f"{clip['title']}: not measured ({clip['problem']})." for clip in unread],
        ],
    }


def _alternative(data: dict[str, Any]) -> Finding:
    descriptions, cues = _clips(data, "descriptions"), _clips(data, "description_cues")
    return {
        "status": _status(cues == descriptions),
        "does": 'Each clip has a descriptions track (kind="descriptions"), a transcript '
        "that carries every description, code line, print and chart, and a step-through "
        "page; with --voice, also an audio-described version.",
        "evidence": [
            f"{descriptions} descriptions, {cues} cues in the descriptions tracks.",
            f"{_clips(data, 'values_said')} of {_clips(data, 'values_shown')} values shown "
            "are said in the narration or a description.",
        ],
    }


def _live(data: dict[str, Any]) -> Finding:
    return {
        "status": _NOT_APPLICABLE,
        "does": "The clips are prerecorded; nothing is live.",
        "evidence": [f"{_count(len(data['clips']), 'prerecorded clip')}, 0 live streams."],
    }


def _described(data: dict[str, Any]) -> Finding:
    clips = data["clips"]
    voiced = [clip for clip in clips if clip["sound"]]
    described = [clip for clip in clips if clip["described_version"]]
    sound = [clip["described_sound"] for clip in described if clip["described_sound"]]
    evidence = [
        f"{len(described)} of {len(clips)} clips have an audio-described version"
        + (
            "."
            if described
            else "; clips without sound are video only (see 1.2.1), and "
            "an export with --voice makes one for each."
        ),
        f"{_clips(data, 'values_said')} of {_clips(data, 'values_shown')} values shown are "
        "said in the narration or a description.",
    ]
    evidence += [
        f"{clip['title']}: {clip['described_pause_seconds']} s of extended pauses; "
        f"described soundtrack {s['lufs']} LUFS, true peak {s['true_peak_dbtp']} dBTP."
        for clip, s in zip(described, sound, strict=False)
    ]
    return {
        "status": _NOT_APPLICABLE
        if not voiced
        else _status(all(clip["described_version"] for clip in voiced)),
        "does": "With --voice (the clips then have sound), each clip gets an "
        "audio-described version (WCAG 1.2.7, extended audio description): after each "
        "beat the picture holds while the values, prints, charts and word pieces it "
        "shows are spoken; captions and chapters are "
        "shifted to match, and loudness is normalised like the narration (-16 LUFS, true "
        "peak at most -1 dBTP). The gallery links it as the audio-described version.",
        "evidence": evidence,
    }


def _structure(data: dict[str, Any]) -> Finding:
    tables, captions = _pages(data, "tables"), _pages(data, "table_captions")
    unscoped = _pages(data, "header_cells_without_scope")
    return {
        "status": _status(captions >= tables and unscoped == 0 and _axe_ok(data)),
        "does": "Numbers are real HTML tables with a caption and header cells with scope; "
        "pages use headings, lists and landmarks (navigation, main).",
        "evidence": [
            f"{tables} tables, {captions} with a caption; {unscoped} header cells without scope.",
            f"{_pages(data, 'headings')} headings on {len(data['pages'])} pages.",
            *_axe(data),
        ],
    }


def _lowest(ratios: dict[str, dict[str, float]]) -> tuple[float, str]:
    """Find the lowest ratio of a group, and where it is."""
    pairs = [
        (value, f"{where}, {name}")
        for where, found in ratios.items()
        for name, value in found.items()
    ]
    return min(pairs) if pairs else (float("inf"), "none")


def _ratios(group: dict[str, dict[str, float]], what: str) -> list[str]:
    return [
        f"{what}, {where}: " + ", ".join(f"{name} {value}:1" for name, value in pairs.items()) + "."
        for where, pairs in group.items()
    ]


def _contrast(data: dict[str, Any]) -> Finding:
    contrast = data["contrast"]
    low_page, page_pair = _lowest(contrast["pages"])
    low_video, video_pair = _lowest(contrast["video"])
    return {
        "status": _status(min(low_page, low_video) >= _TEXT_CONTRAST and _axe_ok(data)),
        "does": "Page text, links and buttons in the light and the dark scheme, and every "
        "text colour of the video themes the clips use, are measured against their "
        "background: 4.5:1 is the least this criterion allows.",
        "evidence": [
            *_ratios(contrast["pages"], "Pages"),
            *_ratios(contrast["video"], "Video"),
            f"Lowest: {low_page}:1 on the pages ({page_pair}); {low_video}:1 in the video "
            f"({video_pair}).",
            *_axe(data),
        ],
    }


def _non_text_contrast(data: dict[str, Any]) -> Finding:
    contrast = data["contrast"]
    low_page, page_pair = _lowest(contrast["page_graphics"])
    low_video, video_pair = _lowest(contrast["video_graphics"])
    return {
        "status": _status(min(low_page, low_video) >= _NON_TEXT_CONTRAST),
        "does": "Focus outlines, table borders and buttons on the pages, and in the video the "
        "amber outline of the row being looked up and the purple pointer, contrast at least "
        "3:1 with what is around them. Value colours never carry meaning alone: every value "
        "is also written as a number.",
        "evidence": [
            *_ratios(contrast["page_graphics"], "Pages"),
            *_ratios(contrast["video_graphics"], "Video"),
            f"Lowest: {low_page}:1 on the pages ({page_pair}); {low_video}:1 in the video "
            f"({video_pair}).",
        ],
    }


def _keyboard(data: dict[str, Any]) -> Finding:
    positive = _pages(data, "positive_tabindex")
    return {
        "status": _status(positive == 0),
        "does": "Every control is a native link, button or video player, reachable and "
        "usable from the keyboard; the step-through pages also move with the arrow keys, "
        "and the chapter lists seek with Enter or Space.",
        "evidence": [
            f"{positive} elements with a positive tabindex on {len(data['pages'])} pages.",
            f"{_pages(data, 'buttons_without_names')} buttons without a name.",
            *_axe(data),
        ],
    }


def _pause(data: dict[str, Any]) -> Finding:
    autoplay = _pages(data, "autoplay")
    return {
        "status": _status(autoplay == 0),
        "does": "No clip starts by itself: every video waits for the viewer, has controls to "
        "pause and stop it, and nothing on the pages moves or blinks. (Slide decks play a "
        "clip on arrival only when made with --autoplay.)",
        "evidence": [f"{autoplay} autoplaying media on {len(data['pages'])} pages."],
    }


def _titled(data: dict[str, Any]) -> Finding:
    untitled = [name for name, page in data["pages"].items() if not page["title"]]
    return {
        "status": _status(not untitled),
        "does": "Every page has a title that says what it is and which clip it belongs to.",
        "evidence": [
            f"{len(data['pages']) - len(untitled)} of {len(data['pages'])} pages titled, "
            "for example: "
            + "; ".join(
                f"{name}: \u201c{page['title']}\u201d"
                for name, page in list(data["pages"].items())[:3]
            ),
            *_axe(data),
        ],
    }


def _headings(data: dict[str, Any]) -> Finding:
    single_h1 = sum(1 for page in data["pages"].values() if page["h1"] == 1)
    return {
        "status": _status(single_h1 == len(data["pages"])),
        "does": "Each page has one main heading and a heading per section, clip or step; "
        "videos, tables, links and buttons are labelled with the clip they belong to.",
        "evidence": [
            f"{single_h1} of {len(data['pages'])} pages have exactly one h1; "
            f"{_pages(data, 'headings')} headings in all.",
            f"{_pages(data, 'named_by_missing_ids')} labels that point at a missing element.",
        ],
    }


def _language(data: dict[str, Any]) -> Finding:
    tags = sorted({page["lang"] for page in data["pages"].values()})
    missing = sum(1 for page in data["pages"].values() if not page["lang"])
    return {
        "status": _status(missing == 0 and _axe_ok(data)),
        "does": "Every page declares its language: the storyboard's language for a clip's "
        "pages (captions, transcript, steps), English for embedviz's own.",
        "evidence": [
            f"{len(data['pages']) - missing} of {len(data['pages'])} pages carry a lang "
            f"attribute ({', '.join(tags)}).",
            *_axe(data),
        ],
    }


def _parts(data: dict[str, Any]) -> Finding:
    marked = _pages(data, "parts_in_other_languages")
    return {
        "status": _status(_axe_ok(data)),
        "does": "Where a page mixes languages (a German clip's page with embedviz's English "
        "words, a figure pasted into a page in another language), each part carries its "
        "own lang attribute.",
        "evidence": [
            f"{marked} parts marked with a language other than their page's.",
            *_axe(data),
        ],
    }


def _name_role(data: dict[str, Any]) -> Finding:
    live = _pages(data, "live_regions")
    return {
        "status": _status(
            _pages(data, "buttons_without_names") == 0
            and _pages(data, "named_by_missing_ids") == 0
            and _axe_ok(data)
        ),
        "does": "Native elements give every control its role; videos are named by their "
        "headings and their tracks are labelled; the current chapter is marked with "
        "aria-current; each step-through page announces its current step in an aria-live "
        "region.",
        "evidence": [
            f"{_pages(data, 'videos')} videos named; {_pages(data, 'buttons_without_names')} "
            "unnamed buttons.",
            f"{live} aria-live regions (one per step-through page).",
            *_axe(data),
        ],
    }


_FINDINGS: dict[str, Callable[[dict[str, Any]], Finding]] = {
    "1.1.1": _non_text,
    "1.2.1": _video_only,
    "1.2.2": _captions,
    "1.2.3": _alternative,
    "1.2.4": _live,
    "1.2.5": _described,
    "1.3.1": _structure,
    "1.4.3": _contrast,
    "1.4.11": _non_text_contrast,
    "2.1.1": _keyboard,
    "2.2.2": _pause,
    "2.4.2": _titled,
    "2.4.6": _headings,
    "3.1.1": _language,
    "3.1.2": _parts,
    "4.1.2": _name_role,
}


def findings(data: dict[str, Any]) -> dict[str, Finding]:
    """Return every criterion's finding from the report's measured data.

    Parameters
    ----------
    data
        What :func:`embedviz.export.report.site_report` measured.

    Returns
    -------
    dict
        Criterion number -> ``{"status", "does", "evidence"}``.
    """
    return {number: make(data) for number, make in _FINDINGS.items()}
