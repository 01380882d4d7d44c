"""The training layout's solver: E beside its gradient, the loss weights under them.

TrainingNudge shows one SGD step. The matrix ``E`` and its gradient
``∂L/∂E`` share their rows (row ``i`` of the gradient is beside row ``i`` of
``E``), so they stand side by side; the loss weights ``w_t`` have ``E``'s
columns and stand under it, each beside its token ID; a repeated ID's
contributions are added up under the gradient, in its columns::

    row numbers | E          | nudged     | ∂L/∂E
    L = Σ w_t·e_t = 0.38 → …              E ← E − 0.5 · ∂L/∂E
    w_t = ∂L/∂e_t                         ∂L/∂E[2] = w_0 + w_2
    chip t      | w_t        |  w_0       | (sum panel)
                |            |  + w_2     |
                |            |  =         |

A weight's row travels out to the right along its own line, into the free
column under the gradient, and up into its gradient row, so its path
crosses no number. :func:`solve_training` maximises the table font (up to
:data:`~embedviz.render.design.MAX_DATA_PX`) subject to everything fitting
between the title and the caption.
"""

from __future__ import annotations

from dataclasses import dataclass

from embedviz.render.design import (
    APART,
    CAPTION_FONT,
    MARGIN,
    MIN_DATA_PX,
    OUTLINE_REACH,
    SPACE,
    TypeScale,
    px_for_font,
)
from embedviz.render.formula import formula_width
from embedviz.render.frame_fit import solve_largest
from embedviz.render.memo import per_frame
from embedviz.render.metrics import char_advance, digit_height, text_width
from embedviz.render.parts.chips import chip_size, number_gap
from embedviz.render.parts.clear_outline import clear_reach
from embedviz.render.parts.grid import GridSizes, col_slots, row_slots
from embedviz.render.solver import (
    CAPTION_CENTRE,
    TITLE_RATIO,
)
from embedviz.render.solver_bands import place_title
from embedviz.story.model import Storyboard, Window

__all__ = [
    "GRADIENT_SYMBOL",
    "LOSS_PIECES",
    "MARK_ROOM",
    "TrainingPlan",
    "TrainingSpec",
    "solve_training",
]

# The gradient block's symbol, set after its word.
GRADIENT_SYMBOL = "partial L \\/ partial E"
# The loss line holds a formula with a sum sign: this many label digits tall.
_LOSS_LINE_DIGITS = 1.9
# The loss line's pieces (formula, =, value, arrow, value) are spaced apart by these gaps.
LOSS_PIECES = 4


@dataclass(frozen=True)
class TrainingSpec:
    """What a training frame must hold, read from its storyboard.

    Attributes
    ----------
    window
        The drawn part of E (and of its gradient).
    value_chars, row_label_chars
        The longest table value and row number, in characters.
    gap_labels
        The hidden ranges' labels (rows, then columns).
    count, id_chars, position_chars
        The number of token IDs, the longest ID and position.
    panel_rows
        The rows the column sum of a repeated ID takes (its terms and the sum; 0 without a repeat).
    names
        The column sum's term names (Typst), ``w_0``, ``+ w_2``, ``=``.
    marks
        The words beside the gradient rows (``nudged``, ``unchanged``).
    loss_width, rule_width
        The loss line and the update rule at a font size of 1 (without the
        spaces between their pieces: :data:`LOSS_PIECES` of them, and two).
    headings
        The matrix heading, the gradient word, the weights' longest title and the sum's title.
    title, legend_title
        The scene's title, and the legend's (empty: no legend).
    note
        The note on a half-precision table (empty for none).
    """

    window: Window
    value_chars: int
    row_label_chars: int
    gap_labels: tuple[str, ...]
    count: int
    id_chars: int
    position_chars: int
    panel_rows: int
    names: tuple[str, ...]
    marks: tuple[str, ...]
    loss_width: float
    rule_width: float
    headings: tuple[str, str, str, str]
    title: str
    legend_title: str
    note: str = ""

    @classmethod
    def from_board(cls, board: Storyboard) -> TrainingSpec:
        """Read what a training storyboard shows (every beat's cells and labels)."""
        cells = {(c.kind, c.index): c for beat in board.beats for c in beat.numbers}
        labels = {role: text for beat in board.beats for role, text in beat.labels.items()}

        def widest(*kinds: str) -> int:
            return max([len(c.text) for (k, _), c in cells.items() if k in kinds] or [1])

        window = board.beats[0].window
        names = tuple(text for role, text in sorted(labels.items()) if role.startswith("sum_term_"))
        losses = [c.text for (k, _), c in sorted(cells.items()) if k == "loss"]
        loss = formula_width(labels["loss_formula"], 1) + formula_width("=", 1)
        loss += char_advance(1) * sum(len(t) for t in losses)
        if len(losses) > 1:
            loss += formula_width("->", 1)
        lr = widest("lr") if any(k == "lr" for k, _ in cells) else 0
        rule = formula_width(labels.get("update_left", ""), 1) + char_advance(1) * lr
        rule += formula_width(labels.get("update_right", ""), 1)
        sizes = " \u00d7 ".join(c.text for (k, _), c in sorted(cells.items()) if k == "table_size")
        return cls(
            window=window,
            value_chars=widest("weight", "updated", "grad", "upstream", "term", "sum"),
            row_label_chars=widest("row_label"),
            gap_labels=tuple(g.label for g in (*window.row_gaps, *window.col_gaps)),
            count=len([1 for (k, _) in cells if k == "token_id"]),
            id_chars=widest("token_id"),
            position_chars=widest("position"),
            panel_rows=len(names) + 1 if names else 0,
            names=(*names, labels["sum_total"]) if names else (),
            marks=tuple(sorted({t for r, t in labels.items() if r.startswith("mark_")})),
            loss_width=loss,
            rule_width=rule,
            headings=(
                f"{board.word('embedding_matrix')}  {sizes}",
                board.word("gradient"),
                labels.get("upstream_title", "w_t"),
                labels.get("sum_title", ""),
            ),
            title=board.title,
            legend_title=board.word("value_colour") if any(k == "legend" for k, _ in cells) else "",
            note=labels.get("dtype_note", ""),
        )


@dataclass(frozen=True)
class TrainingPlan:
    """Where everything of a training frame goes (scene units; y grows upwards).

    The first attributes are those a :class:`~embedviz.render.parts.lookup.MatrixPart`
    reads, so the matrix is the lookup family's.

    Attributes
    ----------
    scale, sizes
        The type scale and the grids' slot sizes.
    matrix_left, matrix_top
        The matrix body's top-left corner (the gradient's top is the same).
    heading_y
        The centre line of the matrix's and the gradient's headings.
    legend_x, legend_y, legend_left
        The legend's right edge and centre line, in the title band.
    body_width
        The width of every block (they show the same columns).
    grad_left, mark_left
        The gradient body's left edge, and where the row marks start (right
        of E's rows, clear of their outlines).
    names_right
        Where the column sum's term names end (left of the gradient's columns).
    rule_left, grad_heading_left
        Where the update rule and the gradient's heading start (over the
        gradient, or further right beside a long loss line or matrix heading).
    tag_left, position_left
        Where the chips and positions beside the weights start.
    loss_y, weights_heading_y, weights_top
        The loss line's centre line (and the update rule's), the weights'
        heading line, and the top of the weights body (and of the column sum).
    title_x, title_y, title_font
        The title.
    legend_stacked
        The legend stands with its title over its swatches (the title centred).
    """

    scale: TypeScale
    sizes: GridSizes
    matrix_left: float
    matrix_top: float
    heading_y: float
    legend_x: float
    legend_y: float
    legend_left: bool
    body_width: float
    grad_left: float
    mark_left: float
    names_right: float
    rule_left: float
    grad_heading_left: float
    tag_left: float
    position_left: float
    loss_y: float
    weights_heading_y: float
    weights_top: float
    title_x: float
    title_y: float
    title_font: float
    legend_stacked: bool = False

    def row_y(self, top: float, row: int) -> float:
        """Return the centre line of row ``row`` of a body (weights or sum) whose top is ``top``."""
        return top - (row + 0.5) * self.sizes.row_height


# The tightest rows a table with hidden ranges takes, in digit heights: its bands are tall.
BANDED_PITCH = 1.85
# A row mark's clearance from E's amber outlines (the outline's reach past E aside), and
# from the gradient: twice its distance from E's body, and no less than APART. At SPACE
# from the outlines' ink and 3 SPACE from the gradient, a 720p review found the words
# squeezed between the tables.
MARK_NEAR = 1.5 * SPACE
MARK_FAR = max(APART, 2 * (OUTLINE_REACH + MARK_NEAR))
# What that room adds to the gap between E and the gradient: until the IDs come (and
# with them the outlines the marks keep clear of), the gradient stands this much closer.
MARK_ROOM = (MARK_NEAR - SPACE) + (MARK_FAR - 3 * SPACE)


def _frame() -> tuple[float, float, float, float]:
    from manim import config

    half_w, half_h = float(config.frame_width) / 2, float(config.frame_height) / 2
    # Rows are outlined at the blocks' outer edges, clear of their frames
    # (parts.clear_outline): their ink stays inside the margin too.
    edge = MARGIN + clear_reach()
    return -half_w + edge, half_w - edge, half_h - MARGIN, -half_h


def _across(spec: TrainingSpec, scale: TypeScale, body_w: float) -> list[float]:
    """Return the widths of: left margin, a block, the gap between the blocks, and past them.

    The gap holds the column sum's term names (under E) and the row marks
    (``nudged`` / ``unchanged``, beside E's rows: they say what became of them).
    A mark stands twice as far from the gradient as from E: a lecture-hall review
    read ``unchanged``, as close to either, as the gradient row's label.
    """
    label = scale.label
    gaps = max([text_width(t, scale.note, mono=False) for t in spec.gap_labels] or [0.0])
    chips = (
        chip_size(spec.id_chars, 0, label)[0]
        + number_gap(label)
        + char_advance(label) * spec.position_chars
    )
    numbers = char_advance(scale.index) * spec.row_label_chars  # E's row numbers
    margin = max(numbers, gaps, chips) + 1.5 * SPACE
    names = max([formula_width(n, label) for n in spec.names] or [0.0]) + 3 * SPACE
    marks = max([text_width(m, label, mono=False) for m in spec.marks] or [0.0])
    marks += OUTLINE_REACH + MARK_NEAR + MARK_FAR
    return [margin, body_w, max(names, marks, 2 * SPACE), 0.0]


def _shared_lines(
    spec: TrainingSpec, scale: TypeScale, widths: list[float], problems: list[str]
) -> tuple[float, float, float]:
    """Return how far right of the gradient's left edge the update rule and its heading start.

    The loss line (under E) and the update rule (under the gradient) share a
    line, as the two blocks' headings do; a narrow table pushes the right-hand
    one further right (the third value: how much wider that makes the frame's content).
    """
    label = scale.label
    margin, body_w, names, marks = widths
    left_w, right_w = margin + body_w + names, body_w + marks
    loss = spec.loss_width * label + LOSS_PIECES * SPACE
    rule = spec.rule_width * label + 2 * SPACE
    heading = (
        text_width(spec.headings[0], label, mono=False) + 3 * SPACE + formula_width("E", label)
    )
    grad = text_width(spec.headings[1], label, mono=False) + 1.5 * SPACE
    grad += formula_width(GRADIENT_SYMBOL, label)
    rule_push = max(0.0, loss + 2 * SPACE - left_w)
    heading_push = max(0.0, heading + 2 * SPACE - left_w)
    if formula_width(spec.headings[2], label) > margin + body_w:
        problems.append("the weights' title too wide")
    # What the pushed lines add to the frame's width, right of the marks.
    extra = max(rule_push + rule, heading_push + grad) - right_w
    return rule_push, heading_push, max(0.0, extra)


def _measure(
    spec: TrainingSpec, data: float, pitch: float, clear: bool = False
) -> tuple[TrainingPlan, list[str]]:
    """Lay out at one font size and pitch; return the plan and what does not fit."""
    problems: list[str] = []
    scale = TypeScale.from_data(data)
    sizes = GridSizes(scale, spec.value_chars, pitch, gaps_clear=clear)
    left, right, top, bottom = _frame()
    body_w = sum(slot.size for slot in col_slots(spec.window, sizes))
    widths = _across(spec, scale, body_w)
    margin, _, names, marks = widths
    rule_push, heading_push, extra = _shared_lines(spec, scale, widths, problems)
    total_w = margin + 2 * body_w + names + marks + extra
    if total_w > right - left:
        problems.append("too wide")
    label, legend = scale.label, scale.legend
    # The one title rule (solver_bands.place_title): centred where it clears the legend.
    # The legend never stacks here: stacked (longer, translated words), its lowest tick
    # values stood on the gradient's heading ("-3" over "dL/dE").
    title_font, title_x, band_h, stacked = place_title(
        spec.title,
        spec.legend_title or None,
        scale,
        min(scale.data, scale.label * TITLE_RATIO),
        (left, right),
        problems,
        stack=False,
    )
    heading_h = digit_height(label) * 1.6
    col_labels_h = digit_height(label) + 0.8 * SPACE
    matrix_h = sum(slot.size for slot in row_slots(spec.window, sizes))
    note_h = digit_height(legend) + 2 * SPACE if spec.note else 0.0
    loss_h = digit_height(label) * _LOSS_LINE_DIGITS
    bottom_rows = max(spec.count, spec.panel_rows)
    needed = heading_h + SPACE + col_labels_h + matrix_h + note_h + SPACE + loss_h + SPACE
    needed += heading_h + SPACE + bottom_rows * sizes.row_height
    caption_top = bottom + CAPTION_CENTRE + digit_height(CAPTION_FONT) * 2.1
    room = top - band_h - SPACE - (caption_top + SPACE)
    if needed > room:
        problems.append("too tall")
    x = left + max(0.0, (right - left - total_w) / 2) + margin
    matrix_top = top - band_h - SPACE - max(0.0, room - needed) / 2 - heading_h - SPACE
    matrix_top -= col_labels_h
    loss_y = matrix_top - matrix_h - note_h - SPACE - loss_h / 2
    weights_heading_y = loss_y - loss_h / 2 - SPACE - heading_h / 2
    chip_w = chip_size(spec.id_chars, 0, label)[0]
    grad_left = x + body_w + names
    return (
        TrainingPlan(
            scale=scale,
            sizes=sizes,
            matrix_left=x,
            matrix_top=matrix_top,
            heading_y=matrix_top + col_labels_h + SPACE + heading_h / 2,
            legend_x=right,
            legend_y=top - band_h / 2,
            legend_left=False,
            legend_stacked=stacked,
            body_width=body_w,
            grad_left=grad_left,
            mark_left=x + body_w + OUTLINE_REACH + MARK_NEAR,
            names_right=grad_left - SPACE,
            rule_left=grad_left + rule_push,
            grad_heading_left=grad_left + heading_push,
            tag_left=x
            - 1.5 * SPACE
            - chip_w
            - number_gap(label)
            - char_advance(label) * spec.position_chars,
            position_left=x - 1.5 * SPACE - char_advance(label) * spec.position_chars,
            loss_y=loss_y,
            weights_heading_y=weights_heading_y,
            weights_top=weights_heading_y - heading_h / 2 - SPACE,
            title_x=title_x,
            title_y=top - band_h / 2,
            title_font=title_font,
        ),
        problems,
    )


@per_frame
def solve_training(spec: TrainingSpec) -> TrainingPlan:
    """Return the plan with the largest table numbers at which everything fits.

    Every pitch of :data:`~embedviz.render.solver.PITCHES` is tried; the
    largest font wins (the looser pitch on a near tie), then spare height
    grows the rows up to :data:`~embedviz.render.solver.MAX_PITCH`.

    A table with hidden rows first tries bands tall enough for their labels to
    stand clear of the rows' outlines (``gaps_clear``, rows no tighter than
    :data:`BANDED_PITCH`); where that leaves the numbers under
    :data:`~embedviz.render.design.MIN_DATA_PX` or does not fit (eight
    scattered rows at GPT-2 size), the bands stay thin.

    Parameters
    ----------
    spec
        What the frame holds.

    Returns
    -------
    TrainingPlan
        The plan; the smallest one when nothing fits (the moment tests then
        report what is too small).
    """
    if spec.window.row_gaps:
        plan = solve_largest(lambda font, pitch: _clear(spec, font, pitch))
        fits = not _clear(spec, plan.scale.data, plan.sizes.pitch)[1]
        if fits and px_for_font(plan.scale.data) >= MIN_DATA_PX - 1e-6:
            return plan
    return solve_largest(lambda font, pitch: _measure(spec, font, pitch))


def _clear(spec: TrainingSpec, data: float, pitch: float) -> tuple[TrainingPlan, list[str]]:
    """:func:`_measure` with bands clear of the outlines, and no pitch under :data:`BANDED_PITCH`.

    Closing the rows up for the taller bands brought a row's outline onto its
    neighbour's digits (a pitch of 1.43 at GPT-2 size).
    """
    plan, problems = _measure(spec, data, pitch, clear=True)
    if pitch < BANDED_PITCH:
        problems.append("rows too tight for their outlines")
    return plan, problems
