"""Text documents for a course page: captions, chapters, transcript, tables, snippet, gallery.

Everything here is derived from a storyboard, the single source of what a
scene says and shows, so captions, transcript and the table of numbers can
never disagree with the video. Stdlib only.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = [
    "ExportedClip",
    "captions_vtt",
    "chapters",
    "chapters_vtt",
    "gallery_html",
    "numbers_table_html",
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


def captions_vtt(board: Storyboard, video_end: float | None = None) -> str:
    """Return WebVTT captions: one cue per narrated beat, timed to the beat.

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
    return _vtt(
        (
            (start, end, beat.narration)
            for start, end, beat in _timed_beats(board)
            if beat.narration
        ),
        video_end,
    )


def chapters(board: Storyboard) -> list[tuple[float, float, str]]:
    """Return the chapters: one per concept of a composite video, else one per beat.

    Parameters
    ----------
    board
        The scene's storyboard.

    Returns
    -------
    list of tuple
        ``(start, end, title)`` in seconds.
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
    return [
        (start, end, beat.name.replace("-", " ").capitalize())
        for start, end, beat in _timed_beats(board)
    ]


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


def vtt_text(text: str) -> str:
    """Escape text for a WebVTT cue payload.

    ``&``, ``<`` and ``>`` become character references (a bare ``<`` would
    start a cue tag, and ``-->`` would end the payload), and line breaks
    become spaces, since a blank line ends a cue.

    Parameters
    ----------
    text
        Plain text.

    Returns
    -------
    str
        The payload, on one line.
    """
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return " ".join(escaped.split())


def _vtt(cues: Iterable[tuple[float, float, str]], video_end: float | None = None) -> str:
    """Write numbered WebVTT cues, none ending after ``video_end`` seconds."""
    # Whole milliseconds, rounded down, so that the last cue cannot end late.
    limit = None if video_end is None else math.floor(video_end * 1000 + 1e-6) / 1000
    lines = ["WEBVTT", ""]
    for number, (start, end, text) in enumerate(cues, start=1):
        if limit is not None:
            if start >= limit:
                break  # it would start when the video has ended
            end = min(end, limit)
        lines += [str(number), f"{vtt_time(start)} --> {vtt_time(end)}", vtt_text(text), ""]
    return "\n".join(lines)


_PAGE_STYLE = """
:root { color-scheme: light dark; --fg: #1f2328; --bg: #fafaf7; --muted: #5b6573;
  --accent: #0072b2; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8eaed; --bg: #101318;
  --muted: #a3acb9; --accent: #56b4e9; } }
body { font-family: system-ui, sans-serif; color: var(--fg); background: var(--bg);
  max-width: 60rem; margin: 0 auto; padding: 1rem 1.5rem; line-height: 1.5; }
a { color: var(--accent); }
a:focus, video:focus, summary:focus { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; }
figure { margin: 0 0 2.5rem; }
video { width: 100%; height: auto; border-radius: 6px; }
figcaption { color: var(--muted); }
table { border-collapse: collapse; margin: 1rem 0; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--muted); padding: .25rem .6rem; text-align: right; }
caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
time { color: var(--muted); font-variant-numeric: tabular-nums; }
"""


def _page(title: str, body: str, language: str = "en") -> str:
    return (
        f'<!doctype html>\n<html lang="{language}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        # An empty icon: no request for /favicon.ico, so no 404 in the console.
        '<link rel="icon" href="data:,">\n'
        f"<title>{html.escape(title)}</title>\n<style>{_PAGE_STYLE}</style>\n</head>\n"
        f"<body>\n{body}\n</body>\n</html>\n"
    )


def transcript_html(board: Storyboard) -> str:
    """Return a transcript page: every narration sentence with its time.

    Parameters
    ----------
    board
        The scene's storyboard.

    Returns
    -------
    str
        A self-contained HTML page, ending with the tables of the numbers
        shown (:func:`numbers_table_html`).
    """
    sections: list[str] = []
    parts = [p for p in board.parts if p.layout != "transition"] or [board]
    starts = iter(board.beat_start_times())
    start_of = {id(beat): next(starts) for beat in board.all_beats()}
    for part in parts:
        items = "\n".join(
            f'<p><time datetime="PT{start_of[id(beat)]:.1f}S">{vtt_time(start_of[id(beat)])[3:8]}'
            f"</time> {html.escape(beat.narration)}</p>"
            for beat in part.beats
            if beat.narration
        )
        sections.append(f"<section>\n<h2>{html.escape(part.title)}</h2>\n{items}\n</section>")
    body = (
        f"<main>\n<h1>Transcript: {html.escape(board.title)}</h1>\n"
        + "\n".join(sections)
        + "\n<section>\n<h2>The numbers shown</h2>\n"
        + numbers_table_html(board)
        + "\n</section>\n</main>"
    )
    return _page(f"Transcript: {board.title}", body)


def _cells(beat: Beat, kind: str) -> dict[tuple[int, ...], NumberCell]:
    return {cell.index: cell for cell in beat.numbers if cell.kind == kind}


def numbers_table_html(board: Storyboard) -> str:
    """Return accessible HTML tables of the numbers a scene shows.

    One table per part: the looked-up rows (the output block) with the ID and
    position heading each row, and the table's visible rows. It doubles as
    the text alternative of a silent clip.

    Parameters
    ----------
    board
        The scene's storyboard.

    Returns
    -------
    str
        HTML ``<table>`` elements with captions and header cells.
    """
    tables: list[str] = []
    for part in [p for p in board.parts if p.layout != "transition"] or [board]:
        merged: dict[tuple[str, tuple[int, ...]], NumberCell] = {}
        for beat in part.beats:
            merged.update({(c.kind, c.index): c for c in beat.numbers})
        output = {index: cell for (kind, index), cell in merged.items() if kind == "output"}
        weight = {index: cell for (kind, index), cell in merged.items() if kind == "weight"}
        ids = {index: cell for (kind, index), cell in merged.items() if kind == "token_id"}
        if output:
            tables.append(
                _grid_table(
                    f"{part.title}: the looked-up rows, in input order",
                    output,
                    "Position",
                    lambda position, ids=ids: _position_header(position, ids),
                )
            )
        if weight:
            tables.append(
                _grid_table(
                    f"{part.title}: the rows of the embedding matrix shown",
                    weight,
                    "Row",
                    lambda row: f"row {row[0]}",
                )
            )
    return "\n".join(tables)


def _position_header(position: tuple[int, ...], ids: dict[tuple[int, ...], NumberCell]) -> str:
    label = "position " + ", ".join(str(p) for p in position)
    token = ids.get(position)
    return f"{label} (ID {token.text})" if token is not None else label


def _grid_table(
    caption: str, cells: dict[tuple[int, ...], NumberCell], corner: str, row_header: object
) -> str:
    rows = sorted({index[:-1] for index in cells})
    cols = sorted({index[-1] for index in cells})
    head = "".join(f'<th scope="col">dimension {c}</th>' for c in cols)
    body = []
    for row in rows:
        header = row_header(row)  # type: ignore[operator]
        values = "".join(
            f"<td>{html.escape(cells[(*row, c)].text)}</td>" if (*row, c) in cells else "<td></td>"
            for c in cols
        )
        body.append(f'<tr><th scope="row">{html.escape(str(header))}</th>{values}</tr>')
    return (
        f"<table>\n<caption>{html.escape(caption)}</caption>\n"
        f'<thead><tr><th scope="col">{corner}</th>{head}</tr></thead>\n'
        f"<tbody>\n" + "\n".join(body) + "\n</tbody>\n</table>"
    )


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
    """

    scene: str
    title: str
    summary: str
    duration: float
    folder: str

    def path(self, suffix: str) -> str:
        """Return a file's site-relative path, e.g. ``path('mp4')``."""
        return f"{self.folder}/{self.scene}.{suffix}"


def snippet_html(clip: ExportedClip, prefix: str = "") -> str:
    """Return the copy-paste block that embeds one clip in a course page.

    Parameters
    ----------
    clip
        The clip.
    prefix
        Prepended to every file path (``""`` inside the clip's own folder,
        e.g. ``"SequenceLookup/"`` from the site root).

    Returns
    -------
    str
        A ``<figure>`` with the video, both sources, captions and chapters
        tracks, a caption and a link to the transcript.
    """
    name = clip.scene
    title = html.escape(clip.title)
    return (
        f'<figure class="embedviz-clip" id="{name}">\n'
        f'  <video controls preload="metadata" playsinline poster="{prefix}{name}.poster.png"\n'
        f'         aria-describedby="{name}-caption" width="854" height="480">\n'
        f'    <source src="{prefix}{name}.webm" type="video/webm">\n'
        f'    <source src="{prefix}{name}.mp4" type="video/mp4">\n'
        f'    <track kind="captions" srclang="en" label="English"\n'
        f'           src="{prefix}{name}.en.vtt" default>\n'
        f'    <track kind="chapters" srclang="en" label="Chapters"\n'
        f'           src="{prefix}{name}.chapters.vtt">\n'
        f"  </video>\n"
        f'  <figcaption id="{name}-caption">{title} ({clip.duration:.0f} s). '
        f'<a href="{prefix}{name}.transcript.html">Read the transcript and the numbers shown</a>.'
        f"</figcaption>\n"
        f"</figure>\n"
    )


def gallery_html(clips: Sequence[ExportedClip], title: str = "embedviz clips") -> str:
    """Return the gallery page with every exported clip.

    Parameters
    ----------
    clips
        The clips, in teaching order.
    title
        The page's title.

    Returns
    -------
    str
        A self-contained page (no remote fonts or scripts) with a skip link,
        a list of contents and one section per clip.
    """
    contents = "\n".join(
        f'<li><a href="#{clip.scene}">{html.escape(clip.title)}</a></li>' for clip in clips
    )
    sections = "\n".join(
        f'<section aria-labelledby="{clip.scene}-heading">\n'
        f'<h2 id="{clip.scene}-heading">{html.escape(clip.title)}</h2>\n'
        f"<p>{html.escape(clip.summary)}</p>\n"
        + snippet_html(clip, prefix=f"{clip.folder}/")
        + "</section>"
        for clip in clips
    )
    body = (
        '<a class="skip" href="#main">Skip to the clips</a>\n'
        f"<header>\n<h1>{html.escape(title)}</h1>\n"
        "<p>How a language model turns token IDs into embedding vectors. Every number in "
        "these clips is a real value from the table.</p>\n"
        f'<nav aria-label="Clips"><ol>\n{contents}\n</ol></nav>\n</header>\n'
        f'<main id="main" tabindex="-1">\n{sections}\n</main>'
    )
    return _page(title, body)
