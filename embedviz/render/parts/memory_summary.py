"""ParameterCount's memory summary: the memory table collapsed to one line at the lookup.

By the lookup, the memory and widths tables have left (issue 18: a 720p review found
the closing frame dense, E a thumbnail beside two tables), and as it starts the memory
table comes back as one line under the count's: ``memory  float32 147.2 MiB  bfloat16
73.6 MiB``.
"""

from __future__ import annotations

from collections.abc import Mapping

from manim import LEFT, VGroup, VMobject

from embedviz.render.baseline import put_on_line
from embedviz.render.design import Theme
from embedviz.render.glyphs import LabelText, NumberText, SansText
from embedviz.render.metrics import char_advance, xyz
from embedviz.render.solve_param_lookup import COLUMN_GAP_CHARS
from embedviz.render.solve_parameter_count import ParamPlan
from embedviz.story.model import NumberCell, Storyboard

__all__ = ["memory_summary"]


def memory_summary(
    board: Storyboard,
    cells: Mapping[tuple[str, tuple[int, ...]], NumberCell],
    plan: ParamPlan,
    theme: Theme,
) -> VGroup:
    """Return the memory table's summary line, at the plan's summary line.

    Parameters
    ----------
    board
        The storyboard (the dtypes' names are its labels ``dtype_0``, ``dtype_1``...).
    cells
        Every cell, by (kind, index): each dtype's ``dtype_memory``.
    plan
        Where it goes (:attr:`ParamPlan.summary_y`, from the panel's left edge).
    theme
        Colours.

    Returns
    -------
    VGroup
        The memory column's header word, then each dtype's name and memory, set as in
        the table's rows: a column gap before each name, a word space before its memory
        (:func:`embedviz.render.solve_param_lookup.summary_width` measures it).
    """
    labels = {role: text for beat in board.beats for role, text in beat.labels.items()}
    label, y = plan.panel.label, plan.summary_y
    pieces: list[VMobject] = [SansText(board.word("memory"), label, theme.muted)]
    number = 0
    while ("dtype_memory", (number,)) in cells:
        pieces.append(LabelText(labels[f"dtype_{number}"], label, theme.text))
        cell = cells[("dtype_memory", (number,))]
        pieces.append(NumberText(cell, plan.panel.data, theme.output))
        number += 1
    x = plan.panel_left
    for piece in pieces:
        if x > plan.panel_left:
            x += char_advance(label) * (COLUMN_GAP_CHARS if isinstance(piece, LabelText) else 1.0)
        piece.move_to(xyz(x, y)).align_to(xyz(x, 0), LEFT)
        x = piece.get_right()[0]
    put_on_line(pieces[0], y)
    return VGroup(*pieces)
