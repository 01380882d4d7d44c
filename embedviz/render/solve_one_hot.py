"""The one-hot layout's solver: one_hot(i) beside E, and the product and the lookup beside both.

Across the frame::

    hidden-range labels | one_hot(i)ᵀ | row numbers | E | walking column | panel | chip

The vector stands on its side, entry k level with row k of E (its hidden
entries share E's bands, both labelled in the left margin), each digit
centred in the vector's own framed column,
:data:`~embedviz.render.design.FRAMED_COLUMNS_APART` from E's row numbers (flush
against them, ``0 3`` read as 03). The panel holds,
from the top: the product's title and row (above E's first row), then the
terms of one column while they are summed (each level with its row, the sum
one row under E, in the panel's middle), later the lookup's row under the product with the ``=``
marks between, its title, the typeset product and the costs (midway down
what the panel leaves free). The sum climbs a lane right of the terms and of
the hidden ranges' lines into the product row; the chip waits in the walking
column at the right end of E's row ``i`` and walks down or up it to its home
right of the lookup's row (which it fills, and stays beside as its tag), and
the row's strip follows it out to the right and up or down the panel into its
place.
"""

from __future__ import annotations

from dataclasses import dataclass

from embedviz.render.blocks import shape_label_width
from embedviz.render.design import FRAMED_COLUMNS_APART, OUTLINE_REACH, SPACE, TypeScale
from embedviz.render.formula import formula_width
from embedviz.render.frame_fit import Bands, frame_bands, solve_fit
from embedviz.render.memo import per_frame
from embedviz.render.metrics import char_advance, digit_height, text_width
from embedviz.render.one_hot_spec import OneHotSpec
from embedviz.render.parts.chips import chip_size
from embedviz.render.parts.grid import GridSizes, col_slots, row_slots
from embedviz.render.solver_fill import filled_pitch

__all__ = ["OneHotPlan", "OneHotSpec", "solve_one_hot"]

TAG_GAP = SPACE
# The one-hot column is this many data characters wide (one digit, centred); the "="
# marks' gap, in rows.
VECTOR_CHARS = 2.0
EQUALS_ROWS = 0.7
# Lines of the costs (header, three rows; the copy's note ends the lookup's row), and the
# formula's height, in lines.
COST_LINES = 4
FORMULA_LINES = 1.6


def payoff_font(scale: TypeScale) -> float:
    """Return the size of the costs, the scene's payoff with the typeset product.

    They are what the scene concludes (the lookup's 0 multiply-adds), and a
    lecture hall read them smaller than the captions that speak them (labels of
    19.9 px beside captions of 20.8 px; issue 18): they are at least the
    captions' size, never larger than the table's numbers (the data stay the
    largest text). The typeset product is set at the data's size.
    """
    return min(scale.data, max(scale.label, scale.caption * 1.001))


@dataclass(frozen=True)
class OneHotPlan:
    """Where everything of a one-hot frame goes (scene units; y grows upwards).

    Attributes
    ----------
    scale, sizes, bands
        The type scale, the grid's slot sizes and the frame's bands.
    matrix_left, matrix_top, body_width
        The matrix body's top-left corner and width.
    heading_y
        The centre line of E's heading and the vector's title, on E's column
        numbers (level with the product's row, beside it).
    panel_heading_y
        The product's title's centre line, at the top of the content band.
    vector_left, vector_width
        The one-hot column.
    panel_left, panel_width
        The panel's left edge and width.
    tag_left, chip_width
        The tag column right of the terms' lane (a chip and its heading there
        stand clear of the lane), and the chip's width. The chip waits at the
        right end of row i of E (:meth:`park_x`); as the lookup's tag it
        stands beside its row (:meth:`home_left`).
    product_y, lookup_y
        The product's and the lookup's rows.
    sum_y
        The sum's line (one row under E).
    lookup_title_y, formula_y, cost_top
        The lookup's title, the typeset product, and the top of the costs.
    formula_rest_y
        Where the typeset product stands until the costs come: midway
        between the lookup's title and the caption band (the costs' place,
        empty until then, would leave the panel's lower half bare).
    line_height
        A line of labels.
    cost_line
        A line of the costs, at :attr:`payoff`.
    terms_left
        The left edge of one column's terms and their sum: the terms and the
        lane the sum climbs stand in the middle of the panel.
    row_centres
        Each drawn row's centre line.
    """

    scale: TypeScale
    sizes: GridSizes
    bands: Bands
    matrix_left: float
    matrix_top: float
    body_width: float
    heading_y: float
    panel_heading_y: float
    vector_left: float
    vector_width: float
    panel_left: float
    panel_width: float
    tag_left: float
    chip_width: float
    product_y: float
    lookup_y: float
    sum_y: float
    lookup_title_y: float
    formula_y: float
    cost_top: float
    line_height: float
    row_centres: dict[int, float]
    formula_rest_y: float = 0.0
    cost_line: float = 0.0
    terms_left: float = 0.0
    panel_row: float = 0.0

    @property
    def product_row_height(self) -> float:
        """The product's and the lookup's rows' height (E's rows may stand looser)."""
        return self.panel_row or self.sizes.row_height

    @property
    def payoff(self) -> float:
        """The font of the costs (:func:`payoff_font`)."""
        return payoff_font(self.scale)

    @property
    def legend_x(self) -> float:
        """The legend's right edge (in the title band)."""
        return self.bands.legend_right

    @property
    def legend_y(self) -> float:
        """The legend's centre line."""
        return self.bands.legend_y

    @property
    def legend_stacked(self) -> bool:
        """Whether the legend's title stands over its swatches (the title centred)."""
        return self.bands.legend_stacked

    @property
    def legend_left(self) -> bool:
        """Whether the legend is aligned by its left edge (never: it is in the title band)."""
        return False

    def park_x(self) -> float:
        """Return the centre x of the chip waiting at the right end of a row of E."""
        return self.matrix_left + self.body_width + TAG_GAP + self.chip_width / 2

    def tag_x(self) -> float:
        """Return the centre x of the chip waiting in the tag column (right of the terms' lane)."""
        return self.tag_left + self.chip_width / 2

    def home_left(self) -> float:
        """Return the left edge of the chip beside the lookup's row, as its tag.

        The tag column stands right of the lane the sum climbs, which can be
        much wider than the row (GPT-2's ``+ terms 4822–50255: all 0`` lines):
        once the row is fetched, the terms have left, and the chip labels the
        row a tag's gap from its right end.
        """
        return self.panel_left + self.body_width + TAG_GAP


# The product's name in the costs (parts.one_hot.CostTable).
COST_PRODUCT = '"one_hot"(i) thin E'


def cost_width(spec: OneHotSpec, font: float) -> float:
    """Return the costs' width at ``font``, measured as :class:`CostTable` sets them.

    The names, two advances, then the values: ``6 × 3 = 18`` (a shape, then
    ``=`` and the result 0.6 advances apart), and the lookup's 0 with
    ``copies 3 numbers`` two advances on. Counted in characters it came out
    short of the drawn table (0.03 units, into the frame's margin).
    """
    if not spec.cost_texts:
        return char_advance(font) * spec.cost_chars
    header, gpt2, lookup, *values, zero, copies, count, unit = spec.cost_texts
    advance, gap = char_advance(font), char_advance(font) * 0.6
    names = max(
        formula_width(COST_PRODUCT, font),
        text_width(gpt2, font),
        text_width(lookup, font, mono=False),
    )
    products = [
        shape_label_width(len(digits), font) + 2 * gap + advance * (1 + len(result))
        for digits, result in zip(values[::2], values[1::2], strict=True)
    ]
    words = text_width(copies, font, mono=False) + text_width(unit, font, mono=False)
    copy = advance * (len(zero) + 2 + len(count)) + 2 * gap + words
    return max(text_width(header, font, mono=False), names + 2 * advance + max(*products, copy))


def _across(
    spec: OneHotSpec, sizes: GridSizes, bands: Bands, problems: list[str]
) -> dict[str, float]:
    """Lay the columns out across the frame, centred; note what does not fit."""
    scale = sizes.scale
    data, label = scale.data, scale.label
    body_w = sum(s.size for s in col_slots(spec.window, sizes))
    chip_w = chip_size(spec.id_chars, 0, label)[0]
    vector_w = char_advance(data) * VECTOR_CHARS
    # E's row numbers stand 1.5 spaces left of E, and apart from the vector.
    labels_w = char_advance(scale.index) * spec.row_label_chars + 1.5 * SPACE
    labels_w += FRAMED_COLUMNS_APART
    # The headings' line: the vector's title, then E's heading right-aligned over E.
    # The vector's title, then its shape, 1.5 spaces apart (parts.one_hot).
    shape = shape_label_width(spec.shape_chars, label)
    titles_w = formula_width(spec.vector_title, label) + 1.5 * SPACE + shape
    # E's heading: its words, its maths E and its shape, each 1.5 spaces from the next
    # (parts.lookup); the maths E is measured as the words' last letter.
    words, _, shape_text = spec.heading.partition("  ")
    digits = len(shape_text.replace(" \u00d7 ", ""))
    heading_w = text_width(words, label, mono=False) + 3 * SPACE + shape_label_width(digits, label)
    titles_w += 2 * SPACE + heading_w
    margin_w = max(
        [text_width(t, scale.note, mono=False) for t in spec.margin_labels]
        + [titles_w - (SPACE + vector_w + labels_w + body_w), 0.0]
    )
    # The sum climbs a lane right of every term line and of the hidden ranges' lines
    # (in labels): a space from the widest, and a space and the tag's gap from the chip.
    value_w = char_advance(data) * spec.value_chars
    terms_w = max(
        [char_advance(data) * spec.term_chars]
        + [text_width(t, label, mono=False) for t in spec.term_gaps]
    )
    lane_w = max(
        [char_advance(data) * spec.term_chars + value_w + 3 * SPACE]
        + [text_width(t, label, mono=False) + value_w + 2 * SPACE for t in spec.term_gaps]
    )
    # The chip waits right of the lookup's row, and right of the lane the sum climbs.
    # Its heading ends where the chip ends (over it while it waits, under it as the
    # lookup's tag): it reaches left over the lane's end, never right of the chip.
    row_w = max(body_w, lane_w)
    overhang = max(0.0, text_width(spec.chips_label, label, mono=False) - chip_w)
    tag_at = max(row_w + TAG_GAP, lane_w + overhang)
    payoff = payoff_font(scale)
    panel_w = max(
        # The chip's edge reaches past its body (no further than a row's outline).
        tag_at + chip_w + OUTLINE_REACH,
        formula_width(spec.formula, data),
        formula_width(spec.product_title, label) + char_advance(label) * 7,
        cost_width(spec, payoff),
    )
    total = margin_w + SPACE + vector_w + labels_w + body_w + chip_w + 2 * TAG_GAP + panel_w
    if total > bands.width:
        problems.append("too wide")
    left = bands.left + max(0.0, (bands.width - total) / 2)
    vector_left = left + margin_w + SPACE
    matrix_left = vector_left + vector_w + labels_w
    panel_left = matrix_left + body_w + chip_w + 2 * TAG_GAP
    # The terms stand in the panel's middle, as far right as leaves the sum its lane in
    # the panel: at its left, the panel's right stood empty once the chip waited beside
    # E's row, not there (issue 18).
    terms_left = panel_left + max(0.0, min(panel_w - lane_w, (panel_w - terms_w) / 2))
    return {
        "body_width": body_w,
        "terms_left": terms_left,
        "chip_width": chip_w,
        "vector_left": vector_left,
        "vector_width": vector_w,
        "matrix_left": matrix_left,
        "panel_left": panel_left,
        "panel_width": panel_w,
        "tag_left": panel_left + tag_at,
    }


def _measure(
    spec: OneHotSpec, data: float, pitch: float, e_pitch: float = 0.0
) -> tuple[OneHotPlan, list[str]]:
    """Lay the frame out at one font size and row pitch; note what does not fit.

    ``e_pitch`` (when larger than ``pitch``) is E's own, looser, row pitch: the
    panel's rows (the product's and the lookup's) keep ``pitch``.
    """
    problems: list[str] = []
    scale = TypeScale.from_data(data)
    sizes = GridSizes(scale, spec.value_chars, max(pitch, e_pitch))
    bands = frame_bands(spec.title, scale, spec.legend_title, problems)
    across = _across(spec, sizes, bands, problems)
    row_h, line_h = (
        GridSizes(scale, spec.value_chars, pitch).row_height,
        digit_height(scale.label) * 2.0,
    )
    e_row = sizes.row_height
    heading_h = digit_height(scale.label) * 1.6
    heading_y = bands.top - heading_h / 2
    product_y = bands.top - heading_h - SPACE - row_h / 2
    # E's first row is under the product's row (its terms must not touch it) and its column numbers.
    under = max(digit_height(scale.label) + 1.8 * SPACE, row_h + 2 * SPACE)
    top = bands.top - heading_h - under
    depth = sum(slot.size for slot in row_slots(spec.window, sizes))
    # E (and the sum under it) stands as low as the caption band lets it: the
    # slack goes between the product's row and E, not into a band under the sum.
    top = min(top, bands.bottom + depth + e_row)
    depth, centres = 0.0, {}
    for slot in row_slots(spec.window, sizes):
        if not slot.gap:
            centres[slot.key] = top - depth - slot.size / 2
        depth += slot.size
    sum_y = top - depth - e_row / 2
    # E's heading and the vector's title stand on E's column numbers, level with the
    # product's row (a band as tall as that row and its title stood empty over E).
    col_labels_h = digit_height(scale.label) + 0.8 * SPACE
    matrix_heading_y = min(heading_y, top + col_labels_h + SPACE + heading_h / 2)
    lookup_y = product_y - row_h * (1 + EQUALS_ROWS)
    lookup_title_y = lookup_y - row_h / 2 - SPACE - line_h / 2
    # The costs are the payoff, as large as the captions or more; the typeset product
    # over them keeps the data's size it came in at (it shrank to the labels', issue 18).
    cost_h = digit_height(payoff_font(scale)) * 2.0
    formula_h = FORMULA_LINES * digit_height(scale.data) * 2.0
    formula_y = lookup_title_y - line_h / 2 - formula_h / 2
    cost_top = formula_y - formula_h / 2 - 2 * SPACE
    lowest = min(sum_y - e_row / 2, cost_top - COST_LINES * cost_h)
    # The product and the costs stand midway down what the panel leaves free under the
    # lookup's title (bound by the width, the panel is taller than they need).
    lower = max(0.0, cost_top - COST_LINES * cost_h - bands.bottom) / 2
    formula_y, cost_top = formula_y - lower, cost_top - lower
    if lowest < bands.bottom - 1e-9:
        problems.append("too tall")
    plan = OneHotPlan(
        scale=scale,
        sizes=sizes,
        bands=bands,
        matrix_top=top,
        heading_y=matrix_heading_y,
        panel_heading_y=heading_y,
        product_y=product_y,
        lookup_y=lookup_y,
        sum_y=sum_y,
        lookup_title_y=lookup_title_y,
        formula_y=formula_y,
        cost_top=cost_top,
        line_height=line_h,
        panel_row=row_h,
        cost_line=cost_h,
        row_centres=centres,
        formula_rest_y=(lookup_title_y - line_h / 2 + bands.bottom) / 2,
        **across,
    )
    return plan, problems


@per_frame
def solve_one_hot(spec: OneHotSpec) -> OneHotPlan:
    """Return the plan with the largest table numbers at which everything fits.

    Parameters
    ----------
    spec
        What the frame holds.

    Returns
    -------
    OneHotPlan
        The plan.
    """
    plan = solve_fit(lambda font, pitch: _measure(spec, font, pitch))
    return _filled(spec, plan)


def _filled(spec: OneHotSpec, plan: OneHotPlan) -> OneHotPlan:
    """Return ``plan`` with E's rows grown past the panel's until no band over E is too empty.

    The panel (the product, the lookup, the typeset product and the costs)
    binds the font and its rows' pitch; a small table (four or five rows) then
    stood short beside it, and the band over E's headings, left of the panel
    (or across the frame, under the product's row), stood more than an eighth
    of the frame empty at every beat's end (13.8-18.8 %, issue 18). E's rows
    (with the vector's entries, the terms level with them and the sum under
    them) grow, up to :data:`~embedviz.render.solver_fill.FILL_PITCH`, only as
    far as those bands need to come under the rule.
    """
    from manim import config

    font, pitch = plan.scale.data, plan.sizes.pitch
    frame_width, frame = float(config.frame_width), float(config.frame_width * config.frame_height)
    e_pitch = filled_pitch(
        lambda trial: _measure(spec, font, pitch, trial),
        pitch,
        lambda trial_plan: _band_over_e(trial_plan, frame_width) / frame,
    )
    return plan if e_pitch == pitch else _measure(spec, font, pitch, e_pitch)[0]


def _band_over_e(plan: OneHotPlan, frame_width: float) -> float:
    """Return the larger empty band over E's headings: left of the panel, or across."""
    bands, label = plan.bands, plan.scale.label
    heading_top = plan.heading_y + digit_height(label) * 0.8
    title_bottom = bands.title_y - digit_height(bands.title_font) / 2
    # The rule's raster stands 0.2 units in from the frame's sides (tests/frame_space.py).
    left = (plan.panel_left + frame_width / 2 - 0.2) * (title_bottom - heading_top)
    under_row = plan.product_y - plan.product_row_height / 2
    across = (frame_width - 0.4) * (under_row - heading_top)
    return max(left, across)
