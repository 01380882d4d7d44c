"""OneHotEquivalence's worked column: the terms of one column of ``one_hot(i) E`` and their sum.

- :class:`TermList`: one line per drawn row (``+ 0 × 0.9178``), level with the
  row it uses, a labelled line per hidden range, and the sum (``= -0.4015``).
- :func:`spent_opacity`: how far the terms that are exactly zero recede.
- :func:`rewrite`: one column's list handing over to the next column's, in place.
"""

from __future__ import annotations

from collections.abc import Mapping

from manim import Animation, AnimationGroup, VGroup, VMobject

from embedviz.render.design import Theme, dim_opacity
from embedviz.render.gap_text import GapLabel
from embedviz.render.glyphs import GlyphString, LabelText, NumberText
from embedviz.render.metrics import char_advance, xyz
from embedviz.render.parts.roll import RollOver
from embedviz.render.solve_one_hot import OneHotPlan
from embedviz.story.model import NumberCell, Storyboard

__all__ = ["TermList", "rewrite", "spent_opacity"]

Cells = Mapping[tuple[str, tuple[int, ...]], NumberCell]


def _labels(board: Storyboard) -> dict[str, str]:
    return {role: text for beat in board.beats for role, text in beat.labels.items()}


class TermList(VGroup):
    """The terms of one column of ``one_hot(i) E``, one line per drawn row, and their sum.

    Each line (``+ 0 × 0.9178``) is level with the row it uses; a hidden range
    of rows gets one labelled line level with its band; the sum (``= -0.4015``)
    goes one row under E. Every column's list stands in the same place: only
    the weights (with their brackets) and the sum differ from column to column
    (``values``), as the one-hot entries are the same in every column.
    """

    def __init__(
        self,
        board: Storyboard,
        cells: Cells,
        plan: OneHotPlan,
        theme: Theme,
        column: int,
        band_ys: list[float],
    ) -> None:
        super().__init__()
        labels, data, advance = _labels(board), plan.scale.data, char_advance(plan.scale.data)
        window, left = board.beats[0].window, plan.terms_left
        self.column = column
        self.lines: dict[int, VGroup] = {}
        # Per row, the pieces that are this column's own: its weight and any brackets.
        self.values: dict[int, list[VMobject]] = {}
        self.gap_lines: list[GapLabel] = []
        self.zero_lines: list[VMobject] = []
        for number, row in enumerate(window.rows):
            factor = cells[("term_one_hot", (column, row))]
            weight = cells[("term_weight", (column, row))]
            y = plan.row_centres[row]
            negative = weight.text.startswith("-")
            pieces: list[tuple[float, VMobject]] = [
                (0, LabelText("+" if number else " ", data, theme.muted)),
                (2, NumberText(factor, data, theme.text)),
                (4, LabelText("\u00d7", data, theme.muted)),
                (7 if negative else 6, NumberText(weight, data, theme.text)),
            ]
            if negative:
                # A negative factor is bracketed, as one writes 1 × (-0.4015).
                close = 7 + len(weight.text)
                pieces += [
                    (6, LabelText("(", data, theme.muted)),
                    (close, LabelText(")", data, theme.muted)),
                ]
            placed = [m.place(xyz(left + x * advance, y), align="left") for x, m in pieces]
            line = VGroup(*placed)
            self.lines[row] = line
            self.values[row] = placed[3:]
            if factor.value != 1:
                self.zero_lines.append(line)
        for number, y in enumerate(band_ys):
            # Words (+ terms 6–4818: all 0): sans, at the terms' label size.
            label = GapLabel(labels[f"term_gap_{number}"], plan.scale.label, theme.muted)
            label.place(xyz(left, y), align="left")
            self.gap_lines.append(label)
            self.zero_lines.append(label)
        self.equals = LabelText("=", data, theme.muted).place(xyz(left, plan.sum_y), align="left")
        self.total = NumberText(cells[("term_sum", (column,))], data, theme.text)
        self.total.place(xyz(left + 2 * advance, plan.sum_y), align="left")
        self.add(*self.lines.values(), *self.gap_lines, self.equals, self.total)

    def pieces(self) -> list[VMobject]:
        """Return every unit that is added to the scene on its own."""
        return [*self.lines.values(), *self.gap_lines, self.equals, self.total]

    def spend(self, background: str) -> TermList:
        """Dim the terms that are exactly zero, as the ``sum`` beat leaves column 0's."""
        opacity = spent_opacity(self.zero_lines, background)
        for zero in self.zero_lines:
            zero.set_opacity(opacity)
        return self


def spent_opacity(zeros: list[VMobject], background: str) -> float:
    """Return the opacity the zero terms recede to: as far as dimmed content may.

    Each text keeps 3:1 against the background (:func:`~embedviz.render.design.dim_opacity`).
    """
    inks = [m for zero in zeros for m in zero.get_family() if isinstance(m, GlyphString)]
    return max([dim_opacity(m.get_fill_color().to_hex(), background) for m in inks] or [1.0])


def rewrite(old: TermList, new: TermList, row_height: float, run_time: float) -> Animation:
    """Return ``old`` (on the scene) handing over to ``new`` in place, line by line.

    What the two columns share (``+ 0 ×``, the hidden ranges' lines, ``=``)
    changes hands unmoved at the roll's middle, one drawn at every moment and
    never both, so it does not flicker; the weights and the sum roll over as on
    a counter (:class:`~embedviz.render.parts.roll.RollOver`), the old drifting
    up and out, the new rising in.
    """
    values = [(row, new.values[row]) for row in new.lines]
    room = max(0.0, (row_height - max(float(new.total.height), float(old.total.height))) / 2)
    lift = 0.8 * room
    rolls: list[Animation] = []
    for row, moving in values:
        rolls += [
            RollOver(old.lines[row], lift, leaving=True, movers=old.values[row]),
            RollOver(new.lines[row], lift, leaving=False, movers=moving),
        ]
    for before, after in zip(old.gap_lines, new.gap_lines, strict=True):
        rolls += [RollOver(before, 0.0, leaving=True), RollOver(after, 0.0, leaving=False)]
    rolls += [
        RollOver(old.equals, 0.0, leaving=True),
        RollOver(new.equals, 0.0, leaving=False),
        RollOver(old.total, lift, leaving=True),
        RollOver(new.total, lift, leaving=False),
    ]
    return AnimationGroup(*rolls, run_time=run_time)
