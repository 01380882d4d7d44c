"""Text documents for a course page: captions, chapters, transcript, tables, snippet, gallery.

Everything here is derived from a storyboard, the single source of what a
scene says and shows, so captions, transcript and the table of numbers can
never disagree with the video. Stdlib only.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from embedviz.export.wording import PageWords, readable_html
from embedviz.story.chapters import chapter_title
from embedviz.story.describe_words import DESCRIPTION_WORDS
from embedviz.story.model import Beat, Description, Gap, NumberCell, Storyboard, Window
from embedviz.story.phrases import caption_lines, one_space
from embedviz.story.vocabulary import PAGE_WORDS
from embedviz.story.words import PAGE_PREFIX

__all__ = [
    "CHAPTERS_SCRIPT",
    "CHAPTERS_SCRIPT_NAME",
    "PAGE_COLOURS",
    "REPORT_NAME",
    "STEPS_PAGE",
    "ExportedClip",
    "caption_cues",
    "captions_vtt",
    "chapters",
    "chapters_vtt",
    "description_cues",
    "description_html",
    "descriptions_vtt",
    "gallery_html",
    "language_name",
    "numbers_table_html",
    "page_html",
    "snippet_html",
    "transcript_html",
    "vtt_text",
    "vtt_time",
]


def vtt_time(seconds: float) -> str:
    """Format seconds as a WebVTT timestamp, ``HH:MM:SS.mmm``.

    Parameters
    ----------
    seconds
        A non-negative time.

    Returns
    -------
    str
        The timestamp, rounded to the millisecond.
    """
    millis = round(seconds * 1000)
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}.{millis:03d}"


def _timed_beats(board: Storyboard) -> list[tuple[float, float, Beat]]:
    starts = board.beat_start_times()
    return [
        (start, start + beat.duration, beat)
        for start, beat in zip(starts, board.all_beats(), strict=True)
    ]


def caption_cues(board: Storyboard) -> list[tuple[float, float, str]]:
    """Return the caption cues: one per phrase, timed by the storyboard.

    A cue starts when its phrase starts (with a voice, when its speech
    starts) and lasts until the next phrase of its beat; the beat's last
    cue lasts until the beat ends.

    Parameters
    ----------
    board
        The scene's storyboard.

    Returns
    -------
    list of tuple
        ``(start, end, text)`` in seconds; the text is wrapped into at most
        two lines of 42 characters, joined by a newline, broken by the rules
        of the storyboard's language.
    """
    cues: list[tuple[float, float, str]] = []
    for start, end, beat in _timed_beats(board):
        phrases = beat.phrases
        for number, phrase in enumerate(phrases):
            cue_start = start + phrase.start
            cue_end = start + phrases[number + 1].start if number + 1 < len(phrases) else end
            text = "\n".join(caption_lines(phrase.text, language=board.language))
            cues.append((round(cue_start, 6), round(cue_end, 6), text))
    return cues


def captions_vtt(board: Storyboard, video_end: float | None = None) -> str:
    """Return WebVTT captions: one cue per phrase of the narration (see :func:`caption_cues`).

    Parameters
    ----------
    board
        The scene's storyboard.
    video_end
        The length of the rendered video in seconds, when known: no cue
        ends after it (a video can be a frame or two shorter than the sum
        of its beats).

    Returns
    -------
    str
        A WebVTT file; ``&``, ``<`` and ``>`` in the text are escaped.
    """
    return _vtt(caption_cues(board), video_end)


def chapters(board: Storyboard) -> list[tuple[float, float, str]]:
    """Return the chapters: one per concept of a composite video, else one per beat.

    Parameters
    ----------
    board
        The scene's storyboard.

    Returns
    -------
    list of tuple
        ``(start, end, title)`` in seconds. A concept's title is its part's
        title; a beat's is named in the storyboard's words
        (:func:`embedviz.story.chapters.chapter_title`), so a translated
        storyboard has translated chapters.
    """
    if board.parts:
        found: list[tuple[float, float, str]] = []
        elapsed = 0.0
        for part in board.parts:
            end = elapsed + part.duration
            if part.layout == "transition" and found:
                # The clearing beat belongs to the chapter before it.
                start, _, title = found[-1]
                found[-1] = (start, end, title)
            else:
                found.append((elapsed, end, part.title))
            elapsed = end
        return found
    return [(start, end, chapter_title(board, beat)) for start, end, beat in _timed_beats(board)]


def chapters_vtt(board: Storyboard, video_end: float | None = None) -> str:
    """Return WebVTT chapters for the scene.

    Parameters
    ----------
    board
        The scene's storyboard.
    video_end
        The length of the rendered video in seconds, when known: no chapter
        ends after it.

    Returns
    -------
    str
        A WebVTT file with one cue per chapter, titles escaped.
    """
    return _vtt(chapters(board), video_end)


def description_cues(board: Storyboard) -> list[tuple[float, float, str]]:
    """Return the descriptions track's cues: each description, timed inside its beat.

    A beat with descriptions shares its time among them: the first starts
    with the beat, and each lasts an equal part of it, so every cue begins
    and ends within the beat it describes.

    Parameters
    ----------
    board
        The scene's (described) storyboard.

    Returns
    -------
    list of tuple
        ``(start, end, text)`` in seconds, in order.
    """
    cues: list[tuple[float, float, str]] = []
    for start, end, beat in _timed_beats(board):
        count = len(beat.descriptions)
        for number, description in enumerate(beat.descriptions):
            cue_start = start + (end - start) * number / count
            cue_end = start + (end - start) * (number + 1) / count
            cues.append((round(cue_start, 6), round(cue_end, 6), description.text))
    return cues


def descriptions_vtt(board: Storyboard, video_end: float | None = None) -> str:
    """Return the WebVTT descriptions track (``<track kind="descriptions">``).

    Parameters
    ----------
    board
        The scene's (described) storyboard.
    video_end
        The length of the rendered video in seconds, when known: no cue
        ends after it.

    Returns
    -------
    str
        A WebVTT file, one cue per description (:func:`description_cues`),
        its text escaped.
    """
    return _vtt(description_cues(board), video_end)


def vtt_text(text: str) -> str:
    """Escape text for a WebVTT cue payload.

    ``&``, ``<`` and ``>`` become character references (a bare ``<`` would
    start a cue tag, and ``-->`` would end the payload). Line breaks are
    kept, but a blank line would end the cue, so empty lines are dropped,
    and runs of other white space become one space (a non-breaking space,
    as French sets before ``?``, stays: the player must not break there).

    Parameters
    ----------
    text
        Plain text, perhaps on several lines.

    Returns
    -------
    str
        The payload.
    """
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    lines = (one_space(line) for line in re.split(r"\r\n|\r|\n", escaped))
    return "\n".join(line for line in lines if line)


def _vtt(cues: Iterable[tuple[float, float, str]], video_end: float | None = None) -> str:
    """Write numbered WebVTT cues, none ending after ``video_end`` seconds."""
    # Whole milliseconds, rounded down, so that the last cue cannot end late.
    limit = None if video_end is None else math.floor(video_end * 1000 + 1e-6) / 1000
    lines = ["WEBVTT", ""]
    number = 0
    for start, end, text in cues:
        if limit is not None:
            if start >= limit:
                break  # it would start when the video has ended
            end = min(end, limit)
        if not 0 <= start < end:
            # A storyboard's phrases are checked in order, but a cue that would end
            # before it starts is never written, whatever its times.
            continue
        number += 1
        lines += [str(number), f"{vtt_time(start)} --> {vtt_time(end)}", vtt_text(text), ""]
    return "\n".join(lines)


# The pages' colours in each scheme; the accessibility report measures their contrast.
PAGE_COLOURS: dict[str, dict[str, str]] = {
    "light": {"fg": "#1f2328", "bg": "#fafaf7", "muted": "#5b6573", "accent": "#0072b2"},
    "dark": {"fg": "#e8eaed", "bg": "#101318", "muted": "#a3acb9", "accent": "#56b4e9"},
}
# The accessibility report beside the gallery (see embedviz.export.report).
REPORT_NAME = "accessibility.html"


def _scheme(name: str) -> str:
    return " ".join(f"--{role}: {colour};" for role, colour in PAGE_COLOURS[name].items())


_PAGE_STYLE = (
    (
        f":root {{ color-scheme: light dark; {_scheme('light')} }}\n"
        f"@media (prefers-color-scheme: dark) {{ :root {{ {_scheme('dark')} }} }}\n"
    )
    + """body { font-family: system-ui, sans-serif; color: var(--fg); background: var(--bg);
  max-width: 60rem; margin: 0 auto; padding: 1rem 1.5rem; line-height: 1.5;
  overflow-wrap: break-word; }
a { color: var(--accent); }
a:focus, video:focus, summary:focus, button:focus, .table-scroll:focus {
  outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; }
figure { margin: 0 0 1rem; }
section[id] { scroll-margin-top: 1rem; }
video { width: 100%; height: auto; border-radius: 6px; }
figcaption { color: var(--muted); }
.table-scroll { overflow-x: auto; max-width: 100%; margin: 1rem 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--muted); padding: .25rem .6rem; text-align: right; }
th[scope="row"], .gap { text-align: left; }
.gap { font-style: italic; color: var(--muted); }
caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
time { color: var(--muted); font-variant-numeric: tabular-nums; }
.chapters ol { padding-left: 1.5rem; }
.chapters button { font: inherit; color: var(--accent); background: none; border: 0;
  padding: .15rem 0; cursor: pointer; text-align: left; text-decoration: underline;
  vertical-align: top; }
.chapters button[aria-current="true"] { font-weight: 600; }
.chapters button time { color: inherit; }
.description { border-left: 3px solid var(--accent); padding-left: .6rem; }
.description .tag { font-weight: 600; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; border: 1px solid var(--muted);
  padding: .5rem .75rem; border-radius: 4px; }
footer { margin-top: 2rem; border-top: 1px solid var(--muted); padding-top: .5rem; }
"""
)

# Shipped with the site as CHAPTERS_SCRIPT_NAME: it makes the chapter lists seek.
CHAPTERS_SCRIPT_NAME = "embedviz-chapters.js"
CHAPTERS_SCRIPT = """\
// embedviz: chapter lists that seek their video. Plain JavaScript, no dependencies.
// Each list is a <nav data-embedviz-chapters="VIDEO-ID" hidden> of <button data-start>;
// it stays hidden without JavaScript, since its buttons would do nothing.
(function () {
  "use strict";
  function setUp(list) {
    var video = document.getElementById(list.getAttribute("data-embedviz-chapters"));
    if (!video) { return; }
    var buttons = Array.prototype.slice.call(list.querySelectorAll("button[data-start]"));
    function mark() {
      var now = video.currentTime;
      var current = null;
      buttons.forEach(function (button) {
        if (Number(button.getAttribute("data-start")) <= now + 0.05) { current = button; }
      });
      buttons.forEach(function (button) {
        if (button === current) { button.setAttribute("aria-current", "true"); }
        else { button.removeAttribute("aria-current"); }
      });
    }
    buttons.forEach(function (button) {
      button.addEventListener("click", function () {
        video.currentTime = Number(button.getAttribute("data-start"));
        mark();
        var playing = video.play();
        if (playing && playing.catch) { playing.catch(function () {}); }
      });
    });
    video.addEventListener("timeupdate", mark);
    video.addEventListener("seeked", mark);
    list.hidden = false;
  }
  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-embedviz-chapters]"), setUp);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
"""


def page_html(
    title: str, body: str, language: str = "en", head: str = "", title_language: str | None = None
) -> str:
    """Return a whole, self-contained page in the site's style (both colour schemes).

    Parameters
    ----------
    title
        The page's ``<title>`` (escaped here).
    body
        The ``<body>``'s HTML.
    language
        The page's ``lang``.
    head
        More HTML for the ``<head>`` (a script, a style).
    title_language
        The title's language, where it is not the page's (a teacher's
        ``--title``).

    Returns
    -------
    str
        The page.
    """
    # The title may be in another language than the page (a teacher's --title).
    marked = f' lang="{html.escape(title_language)}"' if title_language else ""
    return (
        f'<!doctype html>\n<html lang="{language}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        # An empty icon: no request for /favicon.ico, so no 404 in the console.
        '<link rel="icon" href="data:,">\n'
        f"<title{marked}>{html.escape(title)}</title>\n<style>{_PAGE_STYLE}</style>\n{head}"
        "</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )


def _minutes(seconds: float) -> str:
    """Format a time in a clip as ``m:ss``."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def transcript_html(
    board: Storyboard, gallery: str = "../index.html", *, with_steps: bool = False
) -> str:
    """Return a transcript page: every narration sentence with its time, and what is shown.

    Under each beat's narration come its audio descriptions (the values,
    prints, word pieces, charts and colours the picture shows), and where
    the beat shows code, the code line and PyTorch's print, as written.

    Parameters
    ----------
    board
        The scene's storyboard.
    gallery
        The gallery page, relative to the transcript; the page links back
        to it and to the clip's section there.
    with_steps
        Link to the clip's step-through page (``steps.html``) too.

    Returns
    -------
    str
        A self-contained HTML page, ending with the tables of the numbers
        shown (:func:`numbers_table_html`) when the scene shows any.
    """
    sections: list[str] = []
    # The page is in the storyboard's language, its words from the storyboard's words.
    said = PageWords.of(board)
    parts = [p for p in board.parts if p.layout != "transition"] or [board]
    starts = iter(board.beat_start_times())
    start_of = {id(beat): next(starts) for beat in board.all_beats()}
    for part in parts:
        items = "\n".join(
            _transcript_beat(part, beat, start_of[id(beat)], said) for beat in part.beats
        ).strip()
        # A single scene's one section is the whole narration: the h1 already
        # carries its title, so the h2 names what follows instead.
        heading = (
            readable_html(part.title, part.language) if board.parts else said.html("page_narration")
        )
        sections.append(f"<section>\n<h2>{heading}</h2>\n{items}\n</section>")
    tables = numbers_table_html(board)
    if tables:
        heading = said.html("page_numbers")
        sections.append(f"<section>\n<h2>{heading}</h2>\n{tables}\n</section>")
    links = (
        f'<nav aria-label="{html.escape(said.text("page_back"))}">\n<ul>\n'
        f'<li><a href="{gallery}#{board.scene}-section">'
        f"{said.html('page_watch', title=board.title)}</a></li>\n"
        + (
            f'<li><a href="{STEPS_PAGE}">{said.html("page_step_through")}</a></li>\n'
            if with_steps
            else ""
        )
        + f'<li><a href="{gallery}">{said.html("page_all_clips")}</a></li>\n</ul>\n</nav>'
    )
    h1 = f"<h1>{said.html('page_transcript', title=board.title)}</h1>"
    body = f"{links}\n<main>\n{h1}\n" + "\n".join(sections) + "\n</main>"
    return page_html(said.text("page_transcript", title=board.title), body, language=board.language)


def _transcript_beat(part: Storyboard, beat: Beat, start: float, said: PageWords) -> str:
    """One beat of the transcript: its narration, its descriptions, and its code and print."""
    lines = []
    if beat.narration:
        lines.append(
            f'<p><time datetime="PT{start:.1f}S">{vtt_time(start)[3:8]}</time> '
            f"{html.escape(beat.narration)}</p>"
        )
    for description in beat.descriptions:
        lines.append(
            f'<p class="description"><span class="tag">{said.html("page_shown")}</span> '
            f"{description_html(part, description)}</p>"
        )
    code = beat.labels.get("code")
    if code and part.printed and beat.action == "print":
        lines.append(
            f"<pre><code>&gt;&gt;&gt; {html.escape(code)}\n{html.escape(part.printed)}</code></pre>"
        )
    return "\n".join(lines)


def description_html(board: Storyboard, description: Description) -> str:
    """Return a description's sentence as HTML, marked English where it was left in English.

    Parameters
    ----------
    board
        The (single-scene) storyboard the description belongs to.
    description
        One of its beats' descriptions.

    Returns
    -------
    str
        The escaped sentence; on a page in another language, a sentence
        whose template is still the English one is marked ``lang="en"``, so
        that a screen reader switches voice (WCAG 3.1.2).
    """
    text = html.escape(description.text)
    english = DESCRIPTION_WORDS.get(description.template)
    left = board.description_words.get(description.template) == english
    if left and board.language.split("-")[0].lower() != "en":
        return f'<span lang="en">{text}</span>'
    return text


def numbers_table_html(board: Storyboard) -> str:
    """Return accessible HTML tables of the numbers a scene shows.

    For a lookup scene, per part: the looked-up rows (the output block) with
    the ID and position heading each row, and the matrix rows shown, one
    table per view of the matrix. Hidden rows and columns appear as rows and
    columns headed by the exact gap labels the video draws, e.g. ``rows
    6–50255 hidden``. ParameterCount gets tables of its counts and sizes.
    Every table sits in its own horizontally scrolling, focusable region, so
    a narrow screen scrolls the table rather than the page. It doubles as
    the text alternative of a silent clip.

    Parameters
    ----------
    board
        The scene's storyboard.

    Returns
    -------
    str
        HTML ``<table>`` elements with captions and header cells, each in a
        ``<div class="table-scroll">``; empty when the scene shows no numbers
        it can tabulate.
    """
    tables: list[str] = []
    for part in [p for p in board.parts if p.layout != "transition"] or [board]:
        tables += _part_tables(part)
    return "\n".join(
        _scrolling(table, f"{board.scene}-table-{number}")
        for number, table in enumerate(tables, start=1)
    )


def _scrolling(table: str, table_id: str) -> str:
    """Put a table in a focusable scrolling region named by the table's caption."""
    caption_id = f"{table_id}-caption"
    return (
        f'<div class="table-scroll" role="region" tabindex="0" aria-labelledby="{caption_id}">\n'
        + table.replace("<caption>", f'<caption id="{caption_id}">', 1)
        + "\n</div>"
    )


def _part_tables(part: Storyboard) -> list[str]:
    merged: dict[tuple[str, tuple[int, ...]], NumberCell] = {}
    views: dict[Window, dict[tuple[int, ...], NumberCell]] = {}
    output_window: Window | None = None
    for beat in part.beats:
        merged.update({(c.kind, c.index): c for c in beat.numbers})
        weights = {c.index: c for c in beat.numbers if c.kind == "weight"}
        if weights:
            views.setdefault(beat.window, {}).update(weights)
        if any(c.kind == "output" for c in beat.numbers):
            output_window = beat.window
    output = {index: cell for (kind, index), cell in merged.items() if kind == "output"}
    ids = {index: cell for (kind, index), cell in merged.items() if kind == "token_id"}
    said, title = PageWords.of(part), part.title
    tables: list[str] = []
    if output:
        tables.append(
            _grid_table(
                said,
                said.html("page_looked_up", title=title),
                output,
                said.html("page_position"),
                lambda position: _position_header(said, position, ids, part.options.pieces),
                col_gaps=output_window.col_gaps if output_window is not None else (),
            )
        )
    for number, (window, cells) in enumerate(views.items(), start=1):
        caption = (
            said.html("page_matrix_view", title=title, number=number, count=len(views))
            if len(views) > 1
            else said.html("page_matrix_rows", title=title)
        )
        tables.append(
            _grid_table(
                said,
                caption,
                cells,
                said.html("page_row"),
                lambda row: said.html("page_row_number", row=row[0]),
                row_gaps=window.row_gaps,
                col_gaps=window.col_gaps,
            )
        )
    if part.layout == "parameter_count":
        tables += _parameter_tables(said, title, merged)
    elif ("param_count", (0,)) in merged and ("table_size", (1,)) in merged:
        tables.append(_size_table(said, title, merged, "table_size"))
    return tables


def _size_table(
    said: PageWords, title: str, merged: dict[tuple[str, tuple[int, ...]], NumberCell], kind: str
) -> str:
    """Tabulate the table's size: V and d (cells of ``kind``) and its parameter count."""
    rows = [
        (said.html("page_rows_v"), merged.get((kind, (0,)))),
        (said.html("page_columns_d"), merged.get((kind, (1,)))),
        (said.html("page_parameters_vd"), merged.get(("param_count", (0,)))),
    ]
    # A step of the step-through page may show the size before the count.
    body = "\n".join(
        f'<tr><th scope="row">{name}</th><td>{html.escape(cell.text)}</td></tr>'
        for name, cell in rows
        if cell is not None
    )
    head = "".join(f'<th scope="col">{said.html(r)}</th>' for r in ("page_quantity", "page_value"))
    return (
        f"<table>\n<caption>{said.html('page_size', title=title)}</caption>\n"
        f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"
    )


def _position_header(
    said: PageWords,
    position: tuple[int, ...],
    ids: dict[tuple[int, ...], NumberCell],
    pieces: Sequence[str] | None,
) -> str:
    """Name an output row: its position, the ID that filled it and that ID's token piece."""
    where = ", ".join(str(p) for p in position)
    token = ids.get(position)
    if token is None:
        return said.html("page_at_position", position=where)
    if pieces and len(position) == 1 and position[0] < len(pieces):
        piece = pieces[position[0]]
        return said.html("page_piece_at_position", position=where, id=token.text, piece=piece)
    return said.html("page_id_at_position", position=where, id=token.text)


def _gap_html(said: PageWords, gap: Gap, noun: str) -> str:
    """Return a gap's label, marked English where the author left the gap words as they were."""
    text = html.escape(gap.label)
    role = f"gap_{noun}" if gap.first == gap.last else f"gap_{noun}s"
    return f'<span lang="en">{text}</span>' if said.in_english(role) else text


def _between(gaps: Sequence[Gap], shown: Sequence[int]) -> dict[int, list[Gap]]:
    """Place each gap before the first shown index after it (``len(shown)``: at the end)."""
    placed: dict[int, list[Gap]] = {}
    for gap in gaps:
        if any(gap.first <= index <= gap.last for index in shown):
            continue  # not a gap in this table (it shows some of those indices)
        slot = next((i for i, index in enumerate(shown) if index > gap.last), len(shown))
        placed.setdefault(slot, []).append(gap)
    return placed


def _grid_table(
    said: PageWords,
    caption: str,
    cells: dict[tuple[int, ...], NumberCell],
    corner: str,
    row_header: Callable[[tuple[int, ...]], str],
    *,
    row_gaps: Sequence[Gap] = (),
    col_gaps: Sequence[Gap] = (),
    rows: Sequence[tuple[int, ...]] | None = None,
    cols: Sequence[int] | None = None,
    col_header: Callable[[int], str] | None = None,
) -> str:
    """Return a table of cells; ``caption``, ``corner`` and the headers are HTML already.

    The rows and columns are those that hold cells unless given (others stay
    empty, e.g. the output rows not filled yet); columns are headed
    ``dimension c`` unless ``col_header`` says otherwise.
    """
    rows = sorted({index[:-1] for index in cells}) if rows is None else list(rows)
    cols = sorted({index[-1] for index in cells}) if cols is None else list(cols)
    # Columns in order, each a shown index or a gap, labelled as the video labels it.
    col_slots: list[int | Gap] = []
    col_placed = _between(col_gaps, cols)
    for slot, col in enumerate([*cols, None]):
        col_slots += col_placed.get(slot, [])
        if col is not None:
            col_slots.append(col)
    head = "".join(
        f'<th scope="col" class="gap">{_gap_html(said, c, "column")}</th>'
        if isinstance(c, Gap)
        else f'<th scope="col">{col_header(c)}</th>'
        if col_header is not None
        else f'<th scope="col">{said.html("page_dimension", index=c)}</th>'
        for c in col_slots
    )
    body = []
    row_placed = _between(row_gaps, [row[0] for row in rows]) if rows and len(rows[0]) == 1 else {}
    for slot, row in enumerate([*rows, None]):
        for gap in row_placed.get(slot, []):
            body.append(
                f'<tr><th scope="row" class="gap">{_gap_html(said, gap, "row")}</th>'
                + '<td class="gap"></td>' * len(col_slots)
                + "</tr>"
            )
        if row is None:
            continue
        values = "".join(
            '<td class="gap"></td>'
            if isinstance(c, Gap)
            else f"<td>{html.escape(cells[(*row, c)].text)}</td>"
            if (*row, c) in cells
            else "<td></td>"
            for c in col_slots
        )
        body.append(f'<tr><th scope="row">{row_header(row)}</th>{values}</tr>')
    return (
        f"<table>\n<caption>{caption}</caption>\n"
        f'<thead><tr><th scope="col">{corner}</th>{head}</tr></thead>\n'
        f"<tbody>\n" + "\n".join(body) + "\n</tbody>\n</table>"
    )


def _parameter_tables(
    said: PageWords, title: str, merged: dict[tuple[str, tuple[int, ...]], NumberCell]
) -> list[str]:
    """ParameterCount's numbers: the table's size, its memory, other widths, one lookup."""
    from embedviz.story.scenes.parameter_count import COMPARE_DTYPE, DTYPES

    def cell(kind: str, *index: int) -> str:
        found = merged.get((kind, index))
        return html.escape(found.text) if found is not None else ""

    def table(caption: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
        head = "".join(f'<th scope="col">{h}</th>' for h in header)
        body = "\n".join(
            f'<tr><th scope="row">{row[0]}</th>'
            + "".join(f"<td>{v}</td>" for v in row[1:])
            + "</tr>"
            for row in rows
        )
        return (
            f"<table>\n<caption>{said.html(caption, title=title)}</caption>\n"
            f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"
        )

    def heads(*roles: str) -> list[str]:
        return [said.html(role) for role in roles]

    tables = [_size_table(said, title, merged, "block_size")]
    dtypes = [n for n, _ in enumerate(DTYPES) if ("dtype_bytes", (n,)) in merged]
    if dtypes:
        tables.append(
            table(
                "page_memory_table",
                heads("page_format", "page_bytes_per", "page_bytes_all", "page_memory"),
                [
                    [html.escape(DTYPES[n])]
                    + [cell(kind, n) for kind in ("dtype_bytes", "dtype_total", "dtype_memory")]
                    for n in dtypes
                ],
            )
        )
    widths = sorted(index for kind, index in merged if kind == "compare_dim")
    if widths:
        memory = said.html("dtype_memory", dtype=COMPARE_DTYPE)
        tables.append(
            table(
                "page_widths",
                [*heads("page_width", "page_parameters"), memory],
                [
                    [cell(kind, *w) for kind in ("compare_dim", "compare_count", "compare_memory")]
                    for w in widths
                ],
            )
        )
    if ("token_id", (0,)) in merged:
        bytes_in = said.html("page_bytes_in", dtype=COMPARE_DTYPE)
        kinds = ("token_id", "lookup_row", "row_values", "row_bytes")
        tables.append(
            table(
                "page_one_lookup",
                [*heads("page_token_id", "page_row_copied", "page_values"), bytes_in],
                [[cell(kind, 0) for kind in kinds]],
            )
        )
    for kind, role in (("lookup_value", "page_lookup_values"), ("corner", "page_corner")):
        cells = {index: c for (k, index), c in merged.items() if k == kind}
        if cells:
            tables.append(
                _grid_table(
                    said,
                    said.html(role, title=title),
                    cells,
                    said.html("page_row"),
                    lambda row: said.html("page_row_number", row=row[0]),
                )
            )
    return tables


@dataclass(frozen=True)
class ExportedClip:
    """The files of one exported scene, relative to the site folder.

    Attributes
    ----------
    scene
        The scene's class name.
    title
        Its title.
    summary
        One line about it.
    duration
        Seconds.
    folder
        Its folder in the site.
    language
        The BCP 47 tag of its narration (the storyboard's ``language``).
    chapters
        ``(start, end, title)`` of each chapter the gallery lists under the
        clip (a composite clip's concepts), else empty.
    words
        The storyboard's words for its page (``page_...``), by role; the
        English ones where not given.
    steps
        Whether the clip has a step-through page (``steps.html``).
    described
        Whether the clip has an audio-described version (``SCENE.described.html``).
    """

    scene: str
    title: str
    summary: str
    duration: float
    folder: str
    language: str = "en"
    chapters: tuple[tuple[float, float, str], ...] = ()
    words: Mapping[str, str] = field(default_factory=dict)
    steps: bool = False
    described: bool = False

    @classmethod
    def of(cls, board: Storyboard, summary: str = "") -> ExportedClip:
        """Describe a storyboard's clip for the gallery, in the storyboard's words.

        Parameters
        ----------
        board
            The clip's storyboard.
        summary
            The blurb to use if the storyboard has none.

        Returns
        -------
        ExportedClip
            Its folder is named after the scene; a composite clip lists its
            concepts as chapters.
        """
        page = {role: text for role, text in board.words.items() if role.startswith(PAGE_PREFIX)}
        return cls(
            board.scene,
            board.title,
            board.summary or summary,
            board.duration,
            board.scene,
            board.language,
            tuple(chapters(board)) if board.parts else (),
            page,
        )

    @property
    def said(self) -> PageWords:
        """The clip's page words."""
        return PageWords(dict(self.words), dict(PAGE_WORDS), self.language)

    def path(self, suffix: str) -> str:
        """Return a file's site-relative path, e.g. ``path('mp4')``."""
        return f"{self.folder}/{self.scene}.{suffix}"


# The file of a clip's step-through page, in its folder.
STEPS_PAGE = "steps.html"


# Names of common caption languages, in their own language, for the track menu.
_LANGUAGE_NAMES = {
    "de": "Deutsch",
    "en": "English",
    "es": "Español",
    "fr": "Français",
    "it": "Italiano",
    "nl": "Nederlands",
    "pt": "Português",
}


def language_name(tag: str) -> str:
    """Return a caption track's menu label for a BCP 47 tag, e.g. ``Deutsch`` for ``de``.

    Parameters
    ----------
    tag
        The narration's language tag.

    Returns
    -------
    str
        The language's own name, or the tag itself for one not listed.
    """
    return _LANGUAGE_NAMES.get(tag.split("-")[0].lower(), tag)


def snippet_html(
    clip: ExportedClip, prefix: str = "", labelled_by: str | None = None, *, note: bool = True
) -> str:
    """Return the copy-paste block that embeds one clip in a course page.

    Parameters
    ----------
    clip
        The clip.
    prefix
        Prepended to every file path (``""`` inside the clip's own folder,
        e.g. ``"SequenceLookup/"`` from the site root).
    labelled_by
        The id of the element that names the video (the gallery's heading);
        by default the title inside the figure's caption.
    note
        Begin with a comment saying that this is a fragment to paste.

    Returns
    -------
    str
        A ``<figure lang="en">`` with the video, both sources, captions,
        chapters and descriptions tracks, a caption and links that name the
        clip: to the transcript, and where the clip has them, to its
        step-through page and its audio-described version.
    """
    name = clip.scene
    title = html.escape(clip.title)
    language = html.escape(clip.language)
    said = clip.said
    header = (
        f"<!-- embedviz clip {name}: an HTML fragment, not a whole page. Paste it into the\n"
        "     <body> of a course page (which gives the page its <title> and lang); file\n"
        "     paths are relative to this folder. -->\n"
        if note
        else ""
    )
    return (
        header + f'<figure class="embedviz-clip" id="{name}" lang="{language}">\n'
        f'  <video id="{name}-video" controls preload="metadata" playsinline\n'
        f'         poster="{prefix}{name}.poster.png"\n'
        f'         aria-labelledby="{labelled_by or f"{name}-title"}"'
        f' aria-describedby="{name}-caption"\n'
        f'         width="854" height="480">\n'
        f'    <source src="{prefix}{name}.webm" type="video/webm">\n'
        f'    <source src="{prefix}{name}.mp4" type="video/mp4">\n'
        f'    <track kind="captions" srclang="{language}" label="{language_name(clip.language)}"\n'
        f'           src="{prefix}{name}.{language}.vtt" default>\n'
        f'    <track kind="chapters" srclang="{language}" '
        f'label="{html.escape(said.text("page_chapters"))}"\n'
        f'           src="{prefix}{name}.chapters.vtt">\n'
        f'    <track kind="descriptions" srclang="{language}" label="'
        + html.escape(said.text("page_descriptions_track", language=language_name(clip.language)))
        + f'"\n           src="{prefix}{name}.descriptions.{language}.vtt">\n'
        f"  </video>\n"
        f'  <figcaption id="{name}-caption"><span id="{name}-title">{title}</span>'
        f" ({clip.duration:.0f} s).\n"
        f'  <a href="{prefix}{name}.transcript.html">'
        f"{said.html('page_read_transcript', title=clip.title)}</a>."
        + _more_links(clip, prefix)
        + "</figcaption>\n</figure>\n"
    )


def _more_links(clip: ExportedClip, prefix: str) -> str:
    """Links to the clip's step-through page and audio-described version, where it has them."""
    said = clip.said
    links = ""
    if clip.steps:
        links += (
            f'\n  <a href="{prefix}{STEPS_PAGE}">'
            f"{said.html('page_steps_link', title=clip.title)}</a>."
        )
    if clip.described:
        links += (
            f'\n  <a href="{prefix}{clip.scene}.described.html">'
            f"{said.html('page_described_link', title=clip.title)}</a>."
        )
    return links


def _chapter_list(clip: ExportedClip) -> str:
    """Return buttons that seek the clip to each chapter (hidden until the script runs)."""
    if not clip.chapters:
        return ""
    items = "\n".join(
        f'<li><button type="button" data-start="{start:.3f}">'
        f'<time datetime="PT{start:.1f}S">{_minutes(start)}</time> '
        f"{readable_html(title, clip.language)}</button></li>"
        for start, _, title in clip.chapters
    )
    return (
        f'<nav class="chapters" aria-labelledby="{clip.scene}-chapters" '
        f'data-embedviz-chapters="{clip.scene}-video" hidden>\n'
        f'<h3 id="{clip.scene}-chapters">{clip.said.html("page_chapters_of", title=clip.title)}'
        "</h3>\n"
        f"<ol>\n{items}\n</ol>\n</nav>\n"
    )


def gallery_html(
    clips: Sequence[ExportedClip],
    title: str = "embedviz clips",
    *,
    intro: Sequence[str] = (),
    language: str = "en",
    report: str | None = None,
) -> str:
    """Return the gallery page with every exported clip.

    Parameters
    ----------
    clips
        The clips, in teaching order.
    title
        The page's title and heading.
    intro
        Paragraphs under the heading (plain text); by default one sentence
        about the clips.
    language
        The BCP 47 tag of ``title`` and ``intro``, marked where it is not
        the page's English.
    report
        The accessibility report's file, linked from the page's footer.

    Returns
    -------
    str
        A self-contained page (no remote fonts or scripts) with a skip link,
        a list of contents linking to each clip's section, and one section
        per clip; a clip with chapters gets a list that seeks it, run by
        :data:`CHAPTERS_SCRIPT` (saved beside the page as
        :data:`CHAPTERS_SCRIPT_NAME`).
    """
    marked = "" if language == "en" else f' lang="{html.escape(language)}"'
    contents = "\n".join(
        f'<li><a href="#{clip.scene}-section">{html.escape(clip.title)}</a></li>' for clip in clips
    )
    sections = "\n".join(
        f'<section id="{clip.scene}-section" aria-labelledby="{clip.scene}-heading">\n'
        f'<h2 id="{clip.scene}-heading">{html.escape(clip.title)}</h2>\n'
        f"<p>{readable_html(clip.summary, clip.language)}</p>\n"
        + snippet_html(
            clip, prefix=f"{clip.folder}/", labelled_by=f"{clip.scene}-heading", note=False
        )
        + _chapter_list(clip)
        + "</section>"
        for clip in clips
    )
    about = (
        "".join(f"<p{marked}>{html.escape(paragraph)}</p>\n" for paragraph in intro)
        if intro
        else "<p>How a language model turns token IDs into embedding vectors. Every number in "
        "these clips is a real value from the table.</p>\n"
    )
    listing = (
        f'<nav aria-label="Clips"><ol>\n{contents}\n</ol></nav>\n'
        if clips
        else "<p>This site holds no clips yet.</p>\n"
    )
    body = (
        '<a class="skip" href="#main">Skip to the clips</a>\n'
        f"<header>\n<h1{marked}>{html.escape(title)}</h1>\n{about}{listing}</header>\n"
        f'<main id="main" tabindex="-1">\n{sections}\n</main>'
    )
    if report:
        body += (
            f'\n<footer>\n<p><a href="{html.escape(report)}">Accessibility report</a>: how these '
            "clips and pages meet WCAG 2.2 level AA, criterion by criterion, with the evidence "
            "measured when they were exported.</p>\n</footer>"
        )
    script = (
        f'<script src="{CHAPTERS_SCRIPT_NAME}" defer></script>\n'
        if any(clip.chapters for clip in clips)
        else ""
    )
    return page_html(
        title, body, head=script, title_language=None if language == "en" else language
    )
