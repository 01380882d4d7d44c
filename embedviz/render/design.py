"""The design system: type scale, colours and their meanings, contrast, spacing, one maths voice.

Everything a frame's look depends on lives here, so a new colour rule or
type size is a change to this file only.

Type scale
    Sizes are pixel heights of a digit on a frame 720 pixels high, whatever
    the render quality: :func:`font_for_px` turns them into manim font sizes
    from manim's ``config`` (frame height), so a frame at 480p or 1080p is
    the same picture scaled. Roles rank ``data >= label >= legend``: table
    numbers are the largest text on screen, row and column numbers, tags and
    headings are :data:`LABEL_RATIO` of them, the legend, notes and hidden-range
    labels :data:`LEGEND_RATIO`; none goes under :data:`MIN_TEXT_PX`. Notes in
    sans (a hidden range's label, a gap's note) keep :data:`MIN_NOTE_PX`, a
    little over it (:attr:`TypeScale.note`), and a stage that narrows its
    tables leaves them that tall. E's row numbers (:attr:`TypeScale.index`, the
    IDs) stand :data:`LABEL_OVER_NOTE` times the notes' size, in their own colour.
    The type scale lives in :mod:`embedviz.render.type_scale`; this module
    re-exports every name of it.
Colours
    :class:`Theme` (re-exported by :mod:`embedviz.render.theme`) holds every
    colour; :data:`COLOUR_MEANINGS` says what each one means, one meaning per
    colour, and :func:`palette_table` writes that table (docs/scenes.md shows it).
Contrast
    :func:`contrast_ratio` is WCAG 2.2's; every text colour is at least 4.5:1
    against the background it sits on, dimmed content at least 3:1
    (:func:`dimmed`).
Maths
    :func:`maths` sets every symbol (``E``, ``E[3]``, ``w_t``, ``∂L/∂E``) with
    MathTypst in the colour of the object it names; monospace is only for code
    and PyTorch prints.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from embedviz.render.contrast import (
    DIM_CONTRAST,
    TEXT_CONTRAST,
    contrast_ratio,
    dim_opacity,
    dimmed,
    mix,
)
from embedviz.render.glyphs import MONO_FONT, SANS_FONT
from embedviz.render.type_scale import (
    CAPTION_FONT,
    LABEL_OVER_NOTE,
    LABEL_RATIO,
    LEGEND_RATIO,
    MAX_DATA_PX,
    MAX_OPENING_DATA_PX,
    MIN_CAPTION_PX,
    MIN_DATA_PX,
    MIN_DEFAULT_DATA_PX,
    MIN_NOTE_PX,
    MIN_PIECE_PX,
    MIN_TEXT_PX,
    TypeScale,
    at_least,
)
from embedviz.render.type_units import REFERENCE_PX, font_for_px, px_for_font, units_for_px

if TYPE_CHECKING:
    from embedviz.render.formula import FormulaText

__all__ = [
    "APART",
    "BOTTOM_GAP",
    "CAPTION_FONT",
    "CHIP_EDGE",
    "COLOUR_MEANINGS",
    "COLUMNS_APART",
    "DARK",
    "DIM_CONTRAST",
    "FRAMED_COLUMNS_APART",
    "JOINED_GAP",
    "LABEL_OVER_NOTE",
    "LABEL_RATIO",
    "LEGEND_RATIO",
    "LIGHT",
    "MARGIN",
    "MAX_DATA_PX",
    "MAX_OPENING_DATA_PX",
    "MIN_CAPTION_PX",
    "MIN_DATA_PX",
    "MIN_DEFAULT_DATA_PX",
    "MIN_NOTE_PX",
    "MIN_PIECE_PX",
    "MIN_TEXT_PX",
    "MONO_FONT",
    "OUTLINE_REACH",
    "REFERENCE_PX",
    "RING_APART",
    "RING_BUFF",
    "RULE_PAD",
    "SANS_FONT",
    "SCROLL_BAR",
    "SPACE",
    "TAG_AIR_PX",
    "TEXT_CONTRAST",
    "THEMES",
    "TOP_GAP",
    "USED_CHIP_OPACITY",
    "Theme",
    "TypeScale",
    "at_least",
    "chip_edge_width",
    "contrast_ratio",
    "dim_opacity",
    "dimmed",
    "font_for_px",
    "maths",
    "mix",
    "palette_table",
    "px_for_font",
    "units_for_px",
    "value_colour",
]


# -- spacing (scene units; a 720p frame draws 90 pixels per unit) ------------
MARGIN = 0.2  # the safe margin around the frame
# How far a row's outline reaches past its table's body: its buffer (0.04) and half
# its 4-wide stroke. A layout that outlines rows at the frame's edge keeps this inside.
OUTLINE_REACH = 0.06
SPACE = 0.12  # between neighbours that belong together
RULE_PAD = SPACE  # a rule card: its padding round its formula (it spans its block's width)
RING_BUFF = 0.1  # a passing ring's margin (point_at): its ink keeps 7.2 px clear at 720p
# A ring round a table's row (or round a whole table) either runs on the table's own
# border, its stroke over the frame's, so that the border is drawn once, in the ring's
# colour (parts.clear_outline: PositionBlindness's and TrainingNudge's rings); or its
# ink stands at least this clear of every table border it runs beside. Between the two
# it reads as a double line, a drawing error on a projector (a 720p review: purple rings
# 1-4 px outside w's and the gradient's pink frames, amber and purple ones beside the
# token and P blocks' frames).
RING_APART = SPACE / 2
# The least clear ground between the inks of two tags (chips) beside neighbouring output
# rows, in pixels at 720p: a chip beside tighter rows is set shorter (GPT-2's batch drew its
# tags at full height 0.03 px apart, read as touching on a projector).
TAG_AIR_PX = 4.0
APART = 4 * SPACE  # between groups that stand apart: a table and the notes resting beside it
# Between a row's tag (its chip) and the row number right beside it,
# in monospace advances of the number's font: a whole digit's column of clear ground, wider
# than any gap inside a number. At a SPACE, a 720p review read chip "2" and row "0" as "20".
TAG_NUMBER_ADVANCES = 1.0
# Between two columns of numbers side by side that are different things (one-based counts
# and E's zero-based row numbers): closer, "1 0" would read as 10 on a projector. When one
# of them stands in its own frame (a one-hot vector beside E's row numbers), the frame
# parts them too, and the gap is smaller.
COLUMNS_APART = APART
FRAMED_COLUMNS_APART = 2 * SPACE
# Pieces resting spread down a panel (render.rests), in shares of the gap between two
# pieces: between two that read together (a sum's two lines, a header over its rows), and
# above and under them all (those reach past the panel and into the bands' margins).
JOINED_GAP = 0.5
TOP_GAP, BOTTOM_GAP = 0.7, 0.8
SCROLL_BAR = 0.22  # the column of a scroll bar beside a table that scrolls
# A chip's edge (stroke width; 2.25 px at 720p): a 1 px edge at 3.35:1 was all that
# gave a light-theme chip its shape, which a washed-out projector may lose.
CHIP_EDGE = 2.5


def chip_edge_width(theme: Theme) -> float:
    """Return the stroke width of a chip's edge in ``theme``.

    Where the edge is the fill's own colour (the dark theme) a wide edge adds
    nothing but size, and that size brought the output's frame 7.9 px from the
    tags beside it (its rule is 8 px): it keeps the old width of 1 there.
    """
    return CHIP_EDGE if theme.chip_edge.lower() != theme.chip.lower() else 1.0


@dataclass(frozen=True)
class Theme:
    """A palette; its accents but the highlight come from the Okabe-Ito colour-blind-safe set.

    Each field's meaning is in :data:`COLOUR_MEANINGS` (one meaning per colour).

    Attributes
    ----------
    background, text, muted, cell_fill, cell_stroke
        Neutral base colours.
    index
        E's row numbers, the IDs a student follows from chip to row: brighter than
        ``muted`` (11:1 and 10:1 against 6:1), the hidden ranges' labels' colour.
    chip
        Amber: "this token ID", and nothing else: an ID's chip, its row's
        outline, the strip it carries and its tag on the output row.
    chip_text
        The ID written on an amber chip.
    id_line
        Amber as a line: an ID's row outline, its strip's frame (darker in
        the light theme so it keeps 3:1, WCAG 1.4.11).
    id_ink
        Amber as text on the background (darker in the light theme so it
        keeps 4.5:1).
    chip_edge
        A chip's edge, :data:`CHIP_EDGE` wide: its shape on the page. In the
        light theme the amber fill is 2.15:1 against the page, so the shape
        rests on a darker amber edge (5.7:1); in the dark theme it is the fill.
    highlight
        What the narration points at right now (a pulse, a circle, an
        underline); violet, far from the value colours (and their pale
        tints), amber and the accent, with and without colour blindness.
    positive, negative
        Blue and vermillion: a table value's sign and size, nothing else. The
        light theme's vermillion leans red (5.3:1 on the page; 37° in OKLCH hue
        from the amber outline): the browner one (29°) read as the outline's
        hue round a row of negatives, a frame review found. Redder still would
        near the gradient's reddish purple.
    output
        The output block's frame and title: neutral, since blue means "positive".
    accent
        Bluish green: the position vectors, a second table beside E.
    gradient
        The gradient, ∂L/∂E and its rows' contributions: a light magenta in the
        dark theme, reddish purple (Okabe-Ito) in the light one; clearly apart from
        every value colour (a rose pink read as vermillion at 720p) and far in hue
        from amber (a lemon yellow beside the amber rows read as a second amber).
    wrong
        The neutral accent of a verdict (equal, different, wrong), which is
        shown by a shape (``=``, ``≠``, a cross, a strike), never by a colour;
        also the frame of a row that no ID selected (a slip's wrong row), which
        amber would claim for the ID.
    value_near_zero, value_at_scale
        Not colours: how far a value's colour is from the text colour toward
        blue or vermillion, near zero and at the key's scale. The dark theme
        goes from a pale tint of the light text to the full colour. The light
        theme's text is near-black, so a ramp from it made small values
        near-black too and a projector greyed their sign out (a 720p review:
        ``-0.2010`` and ``0.9666`` read alike); there a value starts at the
        full blue or vermillion (the lightest that keeps 4.5:1 on the cells)
        and deepens toward the text as it grows, so the sign reads at every
        size and larger still means stronger.
    value_zero_lift
        Not a colour: an exact zero's way from the text to the cells' fill, a neutral
        "no sign". Dark: the text (its ramp fades toward it). Light: a grey as light as
        the near-zero steps (#626568); the text there read as a third, strongest meaning.
    """

    background: str = "#101318"
    text: str = "#E8EAED"
    muted: str = "#8A93A3"
    index: str = "#C2C8D2"
    cell_fill: str = "#1B2130"
    cell_stroke: str = "#3A4458"
    chip: str = "#E69F00"
    chip_text: str = "#101318"
    id_line: str = "#E69F00"
    id_ink: str = "#E69F00"
    chip_edge: str = "#E69F00"
    highlight: str = "#A55AFF"
    positive: str = "#56B4E9"
    negative: str = "#F0664E"
    output: str = "#C8CDD6"
    accent: str = "#009E73"
    gradient: str = "#FC80D4"
    wrong: str = "#C8CDD6"
    value_near_zero: float = 0.35
    value_at_scale: float = 1.0
    value_zero_lift: float = 0.0


DARK = Theme()

LIGHT = Theme(
    background="#FAFAF7",
    text="#1F2328",
    muted="#5B6573",
    index="#383F4A",
    cell_fill="#FFFFFF",
    cell_stroke="#C3CBD6",
    chip="#E69F00",
    chip_text="#1F2328",
    id_line="#B37400",
    id_ink="#8A5A00",
    chip_edge="#8A5A00",
    highlight="#9600FF",
    positive="#0072B2",
    negative="#C43000",
    output="#3D4450",
    accent="#00784A",
    gradient="#A3417A",
    wrong="#3D4450",
    value_near_zero=1.0,
    value_at_scale=0.65,
    value_zero_lift=0.3,
)

THEMES: dict[str, Theme] = {"dark": DARK, "light": LIGHT}

# What every colour means; :func:`palette_table` writes it for docs/scenes.md.
COLOUR_MEANINGS: dict[str, str] = {
    "background": "the frame",
    "text": "titles, captions, printed tensors, word pieces",
    "muted": "column numbers, other tables' row numbers, headings, notes, hidden-range labels",
    "index": "E's row numbers: the token ID that looks each row up",
    "cell_fill": "a table's cells, and a travelling row's strip",
    "cell_stroke": "a table's grid lines",
    "chip": "this token ID: its chip and its tag on the output row",
    "chip_text": "the ID written on an amber chip",
    "id_line": "amber as a line: an ID's row outline, its strip's frame",
    "id_ink": "amber as text: an ID named outside its chip",
    "chip_edge": "a chip's edge: its shape on the page",
    "highlight": "what the narration points at right now (a passing outline, never a recolour)",
    "positive": "a positive table value (stronger for larger values)",
    "negative": "a negative table value (stronger for larger values)",
    "output": "the output block's frame and title (neutral)",
    "accent": "the position vectors: a second table beside E",
    "gradient": "the gradient: ∂L/∂E, its rows and their contributions w_t",
    "wrong": "a verdict (equal, different, wrong), shown by its shape: =, ≠, ✗, a strike; "
    "the frame of a row no ID selected (a slip's wrong row)",
}
assert set(COLOUR_MEANINGS) == {f.name for f in fields(Theme) if f.type == "str"}

# A chip that has been used (in the stages where it walks back home) fades to this
# opacity: its ID keeps 3.7:1 against the faded amber in the dark theme, 4.9:1 in the light.
USED_CHIP_OPACITY = 0.75


def value_colour(value: float, scale: float, theme: Theme) -> str:
    """Colour a table value by its sign and size.

    Parameters
    ----------
    value
        The value.
    scale
        The magnitude that gets the full colour (larger values saturate).
    theme
        The palette.

    Returns
    -------
    str
        A hex colour between the text colour and the positive or negative
        end (``theme.value_near_zero`` to ``theme.value_at_scale`` of the way
        to the end); even small values keep a visible tint of their sign.
        Zero, no sign: ``theme.value_zero_lift`` from the text to the fill.
    """
    if value == 0:
        return mix(theme.text, theme.cell_fill, theme.value_zero_lift)
    if scale <= 0:
        return theme.text
    near, full = theme.value_near_zero, theme.value_at_scale
    strength = near + (full - near) * min(1.0, abs(value) / scale)
    end = theme.positive if value > 0 else theme.negative
    return mix(theme.text, end, strength)


def palette_table() -> str:
    """Return the colour table as Markdown: every colour of both themes and its one meaning.

    Returns
    -------
    str
        A Markdown table, one row per :class:`Theme` field.
    """
    lines = [
        "| Colour | Dark theme | Light theme | Means |",
        "|---|---|---|---|",
    ]
    for name, meaning in COLOUR_MEANINGS.items():
        dark, light = getattr(DARK, name), getattr(LIGHT, name)
        lines.append(f"| `{name}` | `{dark}` | `{light}` | {meaning} |")
    return "\n".join(lines)


def maths(source: str, colour: str, font_size: float) -> FormulaText:
    r"""Set a symbol or formula in the one maths voice: MathTypst, in its object's colour.

    Parameters
    ----------
    source
        Typst maths, e.g. ``E``, ``E[3]``, ``w_t``, ``(partial L) / (partial E)``,
        ``"one_hot"(i)``.
    colour
        The colour of the object the symbol names (amber for an ID, the text
        colour for E, ...).
    font_size
        The size of the text around it; its digits come out as tall as a
        label's digits at this size.

    Returns
    -------
    FormulaText
        The typeset formula; ``.text`` is ``source``.
    """
    from embedviz.render.formula import FormulaText

    return FormulaText(source, font_size, colour)
