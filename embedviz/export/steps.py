"""The step-through page of a clip: one step per beat, its words and its tables.

``SCENE/steps.html`` is generated from the same storyboard as the clip. Each
step is one beat (a composite clip's short beats that clear the screen between
concepts, which show nothing, are left out): its narration and audio
description, the code and print it
shows, and the beat's numbers as real tables (a caption, header cells with
``scope``) holding the values at that beat, such as the output rows filled so
far. A link takes each step to its moment in the clip.

Without scripts the page lists every step. With :data:`STEPS_SCRIPT` (plain
JavaScript, shipped beside the gallery as :data:`STEPS_SCRIPT_NAME`) it shows
one step at a time: "Previous step" and "Next step" buttons and the arrow keys
move between steps, and an ``aria-live`` region shows (and a screen reader
announces) the current step's narration and description. A blind student
can follow the lookup cell by cell; a sighted one can use it as a self-paced
review. It works offline from ``file://``, in the light and the dark colour
scheme. Stdlib only.
"""

from __future__ import annotations

import functools
import html
import itertools
from collections.abc import Callable

from embedviz.export.documents import (
    STEPS_PAGE,
    _grid_table,
    _parameter_tables,
    _position_header,
    _scrolling,
    chapters,
    description_html,
    language_name,
    page_html,
    vtt_time,
)
from embedviz.export.wording import PageWords
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = ["STEPS_PAGE", "STEPS_SCRIPT", "STEPS_SCRIPT_NAME", "beat_tables", "steps_html"]

STEPS_SCRIPT_NAME = "embedviz-steps.js"
STEPS_SCRIPT = """\
// embedviz: the step-through page, one beat at a time. Plain JavaScript, no dependencies.
// Without it the page lists every step; with it, one step shows at a time, the buttons
// and the arrow keys move between steps, and the aria-live region announces each one.
(function () {
  "use strict";
  function setUp(root) {
    var steps = Array.prototype.slice.call(root.querySelectorAll(".step"));
    var live = document.getElementById("step-now");
    var controls = document.getElementById("step-controls");
    var status = document.getElementById("step-status");
    var previous = controls.querySelector("[data-go='previous']");
    var next = controls.querySelector("[data-go='next']");
    var video = document.getElementById(root.getAttribute("data-embedviz-steps"));
    var current = -1;
    function mark(button, off) {
      if (off) { button.setAttribute("aria-disabled", "true"); }
      else { button.removeAttribute("aria-disabled"); }
    }
    function show(number) {
      number = Math.max(0, Math.min(steps.length - 1, number));
      if (number === current) { return; }
      current = number;
      steps.forEach(function (step, index) { step.hidden = index !== number; });
      var step = steps[number];
      var title = document.createElement("p");
      title.className = "now-title";
      title.textContent = step.getAttribute("data-title");
      var said = [title];
      Array.prototype.forEach.call(step.querySelectorAll(".say > *"), function (item) {
        said.push(item.cloneNode(true));
      });
      while (live.firstChild) { live.removeChild(live.firstChild); }
      said.forEach(function (item) { live.appendChild(item); });
      status.textContent = step.getAttribute("data-title");
      mark(previous, number === 0);
      mark(next, number === steps.length - 1);
      if (window.history && history.replaceState) {
        history.replaceState(null, "", "#" + step.id);
      }
    }
    steps.forEach(function (step) { step.querySelector(".say").hidden = true; });
    previous.addEventListener("click", function () { show(current - 1); });
    next.addEventListener("click", function () { show(current + 1); });
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
      var target = event.target;
      // Arrow keys keep their own meaning in the player and in a scrolling table.
      if (target && target.closest &&
          target.closest("video, input, textarea, select, .table-scroll")) { return; }
      if (event.key === "ArrowRight") { show(current + 1); event.preventDefault(); }
      if (event.key === "ArrowLeft") { show(current - 1); event.preventDefault(); }
    });
    root.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("a[data-start]") : null;
      if (!link || !video) { return; }
      event.preventDefault();
      video.currentTime = Number(link.getAttribute("data-start"));
      video.focus();
      var playing = video.play();
      if (playing && playing.catch) { playing.catch(function () {}); }
    });
    controls.hidden = false;
    live.hidden = false;
    var wanted = 0;
    steps.forEach(function (step, index) {
      if ("#" + step.id === location.hash) { wanted = index; }
    });
    show(wanted);
  }
  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-embedviz-steps]"), setUp);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
"""

_STYLE = """<style>
.step-controls { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center;
  margin: 1rem 0; }
.step-controls button { font: inherit; color: var(--bg); background: var(--accent);
  border: 2px solid var(--accent); border-radius: 4px; padding: .35rem .9rem;
  cursor: pointer; }
.step-controls button[aria-disabled="true"] { color: var(--muted); background: transparent;
  border-color: var(--muted); cursor: default; }
.now { border: 2px solid var(--accent); border-radius: 6px; padding: .25rem 1rem;
  margin: 1rem 0; }
.now-title { font-weight: 600; }
.step h2 time { font-weight: normal; }
</style>
"""

# Cells that are not tabulated on their own: the matrix, the output, and the
# labels around them (their values head the tables' rows and columns).
_NOT_TABULATED = frozenset(
    {
        "weight", "updated", "output", "row_label", "col_label", "legend", "position",
        "pe_col", "slice", "table_size", "token_id", "output_id", "equal_to",
        "term_one_hot", "term_weight",
    }
)  # fmt: skip
# Other cells, tabulated by kind: the caption's word, and what heads a row.
_KINDS: dict[str, tuple[str, Callable[[PageWords, tuple[int, ...]], str]]] = {
    "printed": ("page_printed", lambda said, i: said.html("page_row_number", row=i[0])),
    "grad": ("page_gradient", lambda said, i: said.html("page_row_number", row=i[0])),
    "upstream": ("page_loss_weights", lambda said, i: f"w_{i[0]}"),
    "term": ("page_added_weights", lambda said, i: f"w_{i[0]}"),
    "sum": ("page_their_sum", lambda said, i: said.html("page_row_number", row=i[0])),
    "sinusoid": ("page_positions", lambda said, i: f"P[{i[0]}]"),
    "learned_position": ("page_learned_positions", lambda said, i: f"P[{i[0]}]"),
    "sum_sinusoid": ("page_sums", lambda said, i: said.html("page_at_position", position=i[0])),
    "sum_learned": ("page_sums", lambda said, i: said.html("page_at_position", position=i[0])),
}
# Kinds of one row: the caption's word, the row's header, and what heads a column.
_ONE_ROW: dict[str, tuple[str, str, Callable[[PageWords, int], str]]] = {
    "wrong_value": (
        "page_wrong_vector", "page_values", lambda said, c: said.html("page_dimension", index=c)
    ),
    "one_hot": ("page_one_hot", "page_entries", lambda said, k: said.html("page_entry", index=k)),
    "product": (
        "page_product", "page_values", lambda said, c: said.html("page_dimension", index=c)
    ),
    "loss": (
        "page_loss", "",
        lambda said, n: said.html("page_before_step" if n == 0 else "page_after_step"),
    ),
}  # fmt: skip


def _by_index(beat: Beat, kind: str) -> dict[tuple[int, ...], NumberCell]:
    return {c.index: c for c in beat.numbers if c.kind == kind}


def _ids_table(part: Storyboard, beat: Beat, said: PageWords) -> str | None:
    """Tabulate the token IDs on screen (and their word pieces), one column per position."""
    ids = _by_index(beat, "token_id")
    if not ids or part.layout == "parameter_count":
        return None
    positions = sorted(ids)
    head = "".join(
        f'<th scope="col">'
        f"{said.html('page_at_position', position=', '.join(str(i) for i in p))}</th>"
        for p in positions
    )
    rows = [
        f'<tr><th scope="row">{said.html("page_id")}</th>'
        + "".join(f"<td>{html.escape(ids[p].text)}</td>" for p in positions)
        + "</tr>"
    ]
    pieces = {int(r[6:]): t for r, t in beat.labels.items() if r.startswith("piece_")}
    if pieces and all(len(p) == 1 for p in positions):
        rows.append(
            f'<tr><th scope="row">{said.html("page_word_piece")}</th>'
            + "".join(f"<td>{html.escape(pieces.get(p[0], ''))}</td>" for p in positions)
            + "</tr>"
        )
    return (
        f"<table>\n<caption>{said.html('page_token_ids', title=part.title)}</caption>\n"
        f'<thead><tr><th scope="col">{said.html("page_input")}</th>{head}</tr></thead>\n'
        "<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>"
    )


def _output_table(part: Storyboard, beat: Beat, said: PageWords) -> str | None:
    """Tabulate the output block at this beat: every position, the rows filled so far."""
    cells = _by_index(beat, "output")
    if beat.output is None and not cells:
        return None
    ids = _by_index(beat, "token_id") or _by_index(beat, "output_id")
    if beat.output is not None:
        shape = beat.output.shape
        positions = list(itertools.product(*(range(n) for n in shape[:-1])))
        caption = said.html(
            "page_output_now", title=part.title, filled=len(beat.output.filled),
            total=len(positions),
        )  # fmt: skip
    else:
        positions = sorted({index[:-1] for index in cells})
        caption = said.html("page_output_after", title=part.title)
    return _grid_table(
        said,
        caption,
        cells,
        said.html("page_position"),
        lambda position: _position_header(said, position, ids, part.options.pieces),
        col_gaps=beat.window.col_gaps,
        rows=positions,
        cols=beat.window.cols,
    )


def _matrix_table(part: Storyboard, beat: Beat, said: PageWords) -> str | None:
    """Tabulate the rows of E on screen, the looked-up, faded and updated ones marked."""
    cells = {**_by_index(beat, "weight"), **_by_index(beat, "updated")}
    if not cells:
        return None
    updated = {index[0] for index in _by_index(beat, "updated")}
    focus = beat.highlight.row if beat.highlight is not None else None

    def header(row: tuple[int, ...]) -> str:
        marks = [
            said.text(role)
            for role, applies in (
                ("page_mark_looked_up", row[0] == focus),
                ("page_mark_faded", row[0] in beat.dimmed_rows),
                ("page_mark_updated", row[0] in updated),
            )
            if applies
        ]
        if not marks:
            return said.html("page_row_number", row=row[0])
        return said.html("page_row_marked", row=row[0], marks=", ".join(marks))

    return _grid_table(
        said,
        said.html("page_matrix_now", title=part.title),
        cells,
        said.html("page_row"),
        header,
        row_gaps=beat.window.row_gaps,
        col_gaps=beat.window.col_gaps,
        rows=[(row,) for row in beat.window.rows],
        cols=beat.window.cols,
    )


def _terms_table(part: Storyboard, beat: Beat, said: PageWords) -> str | None:
    """Tabulate OneHotEquivalence's terms: each one-hot entry and the value it multiplies."""
    ones, weights = _by_index(beat, "term_one_hot"), _by_index(beat, "term_weight")
    if not weights:
        return None
    column = next(iter(weights))[0]
    merged: dict[tuple[int, ...], NumberCell] = {}
    for index, cell in weights.items():
        merged[(index[1], 0)] = ones[index]
        merged[(index[1], 1)] = cell
    names = (said.html("page_one_hot_entry"), html.escape(f"E[k, {column}]"))
    return _grid_table(
        said,
        said.html("page_terms_of", title=part.title, column=column),
        merged,
        "k",
        lambda row: f"k = {row[0]}",
        col_header=lambda n: names[n],
    )


def _kind_tables(part: Storyboard, beat: Beat, said: PageWords) -> list[str]:
    """Tabulate every other kind of number the beat shows, one table per kind."""
    tables = []
    kinds = sorted({c.kind for c in beat.numbers} - _NOT_TABULATED)
    for kind in kinds:
        cells = _by_index(beat, kind)
        if kind in _ONE_ROW:
            caption, header, col_header = _ONE_ROW[kind]
            row_name = said.html(header) if header else "L"
            tables.append(
                _grid_table(
                    said,
                    said.html(caption, title=part.title),
                    cells,
                    "",
                    functools.partial(_same, row_name),
                    col_header=functools.partial(col_header, said),
                )
            )
        elif kind in _KINDS and all(len(index) == 2 for index in cells):
            caption, row_header = _KINDS[kind]
            tables.append(
                _grid_table(
                    said,
                    said.html(caption, title=part.title),
                    cells,
                    "",
                    functools.partial(row_header, said),
                )
            )
    return tables


def _same(text: str, _row: tuple[int, ...]) -> str:
    """Head every row alike (a table of one row)."""
    return text


def beat_tables(part: Storyboard, beat: Beat) -> list[str]:
    """Return the tables of one beat: the numbers on screen after it, as HTML tables.

    Parameters
    ----------
    part
        The (single-scene) storyboard the beat belongs to; its words name
        the tables' captions and headers.
    beat
        The beat.

    Returns
    -------
    list of str
        ``<table>`` elements, each with a caption and header cells: the
        input IDs, the output block (every position, the rows filled so
        far), the matrix rows on screen (the looked-up, faded and updated
        ones marked), and the scene's other numbers (a print, a gradient,
        position vectors, ParameterCount's counts and memory, ...).
    """
    said = PageWords.of(part)
    found = [
        _ids_table(part, beat, said),
        _output_table(part, beat, said),
        _matrix_table(part, beat, said),
        _terms_table(part, beat, said),
    ]
    tables = [table for table in found if table is not None]
    if part.layout == "parameter_count":
        merged: dict[tuple[str, tuple[int, ...]], NumberCell] = {
            (c.kind, c.index): c for c in beat.numbers
        }
        return tables + _parameter_tables(said, part.title, merged)
    return tables + _kind_tables(part, beat, said)


def _step(
    part: Storyboard,
    beat: Beat,
    number: int,
    total: int,
    name: str,
    start: float,
    scene: str,
) -> str:
    """Write one step: its heading, words, code, tables and its moment in the clip."""
    said = PageWords.of(part)
    step_id = f"step-{number}"
    heading = said.text("page_step_of", number=number, total=total, name=name)
    shown = said.html("page_shown")
    words = [f"<p>{html.escape(beat.narration)}</p>"] if beat.narration else []
    words += [
        f'<p class="description"><span class="tag">{shown}</span> {description_html(part, d)}</p>'
        for d in beat.descriptions
    ]
    code = beat.labels.get("code")
    if code and part.printed and beat.action == "print":
        words.append(
            f"<pre><code>&gt;&gt;&gt; {html.escape(code)}\n{html.escape(part.printed)}</code></pre>"
        )
    tables = "\n".join(
        _scrolling(table, f"{scene}-{step_id}-table-{n}")
        for n, table in enumerate(beat_tables(part, beat), start=1)
    )
    moment = vtt_time(start)[3:8]
    watch = said.html("page_watch_step", number=number, time=moment)
    return (
        f'<section class="step" id="{step_id}" aria-labelledby="{step_id}-heading" '
        f'data-title="{html.escape(heading)}">\n'
        f'<h2 id="{step_id}-heading">'
        f"{said.html('page_step_of', number=number, total=total, name=name)} "
        f'<time datetime="PT{start:.1f}S">{moment}</time></h2>\n'
        f'<div class="say">\n{chr(10).join(words)}\n</div>\n{tables}\n'
        f'<p><a href="{scene}.mp4#t={start:.3f}" data-start="{start:.3f}">{watch}</a></p>\n'
        "</section>"
    )


def _step_titles(board: Storyboard) -> list[tuple[Storyboard, Beat, str, float]]:
    """Name each step's beat for people, with its part and its start in the clip.

    In a composite, a step's name starts with its concept's title, and the
    short beats that clear the screen between concepts (they show nothing)
    are not steps.
    """
    found = []
    starts = iter(board.beat_start_times())
    for part in board.parts or (board,):
        if part.layout == "transition":
            for _ in part.beats:
                next(starts)
            continue
        names = [title for _, _, title in chapters(part)]
        for beat, name in zip(part.beats, names, strict=True):
            title = f"{part.title}: {name}" if board.parts else name
            found.append((part, beat, title, next(starts)))
    return found


def steps_html(board: Storyboard, gallery: str = "../index.html") -> str:
    """Return the step-through page of a clip (``SCENE/steps.html``).

    Parameters
    ----------
    board
        The clip's storyboard (with its descriptions); its words give the
        page's words, so a translated storyboard gives a translated page.
    gallery
        The gallery page, relative to the clip's folder.

    Returns
    -------
    str
        A self-contained page: the clip with its captions and descriptions
        tracks, and one step per beat (see the module docstring), run by
        ``../embedviz-steps.js``.
    """
    name = board.scene
    said = PageWords.of(board.parts[0] if board.parts else board)
    titles = _step_titles(board)
    steps = "\n".join(
        _step(part, beat, number, len(titles), title, start, name)
        for number, (part, beat, title, start) in enumerate(titles, 1)
    )
    body = (
        f'<a class="skip" href="#main">{said.html("page_skip_steps")}</a>\n'
        f'<nav aria-label="{html.escape(said.text("page_other_pages"))}">\n<ul>\n'
        f'<li><a href="{gallery}#{name}-section">{said.html("page_clip_on_gallery")}</a></li>\n'
        f'<li><a href="{name}.transcript.html">{said.html("page_the_transcript")}</a></li>\n'
        f'<li><a href="{gallery}">{said.html("page_all_clips")}</a></li>\n</ul>\n</nav>\n'
        f'<main id="main" tabindex="-1">\n<h1 id="{name}-steps-title">'
        f"{said.html('page_steps_title', title=board.title)}</h1>\n"
        f"<p>{said.html('page_steps_intro')} {said.html('page_steps_keys')}</p>\n"
        + _player(board, said)
        + '<div class="step-controls" id="step-controls" hidden>\n'
        f'<button type="button" data-go="previous">{said.html("page_previous_step")}</button>\n'
        f'<button type="button" data-go="next">{said.html("page_next_step")}</button>\n'
        '<span id="step-status"></span>\n</div>\n'
        '<div class="now" id="step-now" aria-live="polite" hidden></div>\n'
        f'<div data-embedviz-steps="{name}-steps-video">\n{steps}\n</div>\n</main>'
    )
    head = f'<script src="../{STEPS_SCRIPT_NAME}" defer></script>\n{_STYLE}'
    title = said.text("page_steps_title", title=board.title)
    return page_html(title, body, language=board.language, head=head)


def _player(board: Storyboard, said: PageWords) -> str:
    """Play the clip itself, with its captions and descriptions tracks."""
    name, language = board.scene, html.escape(board.language)
    label = language_name(board.language)
    described = said.text("page_descriptions_track", language=label)
    return (
        f'<video id="{name}-steps-video" controls preload="metadata" playsinline '
        f'poster="{name}.poster.png" aria-labelledby="{name}-steps-title" width="854" '
        f'height="480">\n<source src="{name}.webm" type="video/webm">\n'
        f'<source src="{name}.mp4" type="video/mp4">\n'
        f'<track kind="captions" srclang="{language}" label="{label}" src="{name}.{language}.vtt" '
        "default>\n"
        f'<track kind="descriptions" srclang="{language}" label="{html.escape(described)}" '
        f'src="{name}.descriptions.{language}.vtt">\n</video>\n'
    )
