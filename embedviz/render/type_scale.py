"""The type scale: every text role's size, as pixel heights of a digit at 720p.

Part of the design system (:mod:`embedviz.render.design` re-exports every name
here; import them from there). Sizes are pixel heights of a digit on a frame
720 pixels high, whatever the render quality: :func:`font_for_px` turns them
into manim font sizes. Roles rank ``data >= label >= legend``; none goes
under :data:`MIN_TEXT_PX`. Table numbers never grow past :data:`MAX_DATA_PX`,
except E's in the toy batch's opening (:data:`MAX_OPENING_DATA_PX`).
"""

from __future__ import annotations

from dataclasses import dataclass

from embedviz.render.type_units import font_for_px, px_for_font

__all__ = [
    "CAPTION_FONT",
    "LABEL_OVER_NOTE",
    "LABEL_RATIO",
    "LEGEND_RATIO",
    "MAX_DATA_PX",
    "MAX_OPENING_DATA_PX",
    "MIN_CAPTION_PX",
    "MIN_DATA_PX",
    "MIN_DEFAULT_DATA_PX",
    "MIN_NOTE_PX",
    "MIN_PIECE_PX",
    "MIN_TEXT_PX",
    "TypeScale",
    "at_least",
]


# -- type scale (pixel heights of a digit at 720p) ---------------------------
# Table numbers: at least this in the default scenes (the 6 x 3 table) ...
MIN_DEFAULT_DATA_PX = 24.0
# ... and in every real-sized case (GPT-2, MiniLM).
MIN_DATA_PX = 18.0
# Nothing on screen is smaller.
MIN_TEXT_PX = 12.0
# Words set small in sans (a hidden range's label ``rows 6–4818 hidden``, a gap's
# note): never under this, before or after a stage narrows its tables. Over the
# floor with room to spare: PositionBlindness at GPT-2 size narrows its tables by
# 0.94 in beat ``same``, which took notes set at the floor to 11.9 px.
MIN_NOTE_PX = 12.5
# Burned-in captions.
MIN_CAPTION_PX = 20.0
# A real model's word pieces ("[CLS]", "cat", "##bed") beside their chips: the very
# sentence a lecture discusses, read from the back of the hall. At the labels' share
# (PIECE_RATIO) they came out 12 px beside 15 px chips and 18.6 px numbers (issue 18's
# 720p review of MiniLM's 12 tokens in SequenceLookup). The solver sets them at least
# this tall wherever the table numbers still keep every floor they reach without it
# (render.solver_pieces); data stay the largest text (MIN_DATA_PX is larger).
MIN_PIECE_PX = 16.0
# Table numbers never grow past this, however much room there is (but E's in the toy
# batch's opening, MAX_OPENING_DATA_PX below).
MAX_DATA_PX = 30.0
# The toy batch's opening (render.batch_opening): until the reveal, E and its block of
# chips are all the frame shows beside a compact "output shape?" panel, so E's digits may
# grow a tenth past MAX_DATA_PX (33 px at 720p). The ceiling is for a frame where data
# share the screen with the rest of a lookup; in the opening nothing else competes. At
# MAX_DATA_PX itself, the default batch's tighter rows after the reveal (batch_fit, 25.5 px
# at 1.37 digit heights) left E so short that the question's panel grew to 19 % of the
# frame to leave no larger empty area (issue 18's eighth); the frame has room for 31.2 px.
MAX_OPENING_DATA_PX = 1.1 * MAX_DATA_PX
# Labels (row and column numbers, chips, tags, headings, code) and the
# legend (its ticks, notes, hidden-range labels), relative to the data.
LABEL_RATIO = 0.8
LEGEND_RATIO = 0.66
# E's row numbers (TypeScale.index) over the notes at their floor (MIN_NOTE_PX): a 720p
# review read MiniLM's row numbers (14.5 px) and "rows 102–1995 hidden" (12.5 px), both
# muted, as one weight; the numbers now take Theme.index. A larger ratio costs width that
# these frames lack: 1.2 (15 px numbers, and chips, never smaller) took MiniLM's word
# pieces from 16 to 13 px; over notes raised to 16 px it cost LargeVocab's raised legend.
LABEL_OVER_NOTE = 1.13
# The caption's font size (DejaVu Sans digits of 20.8 px at 720p).
CAPTION_FONT = 22.0


def at_least(font_size: float, pixels: float = MIN_TEXT_PX) -> float:
    """Return ``font_size``, or the size whose digits are ``pixels`` tall if that is larger."""
    return max(font_size, font_for_px(pixels) * 1.001)


@dataclass(frozen=True)
class TypeScale:
    """The font sizes of one frame, all derived from the data size.

    Attributes
    ----------
    data
        Table numbers (manim font size).
    label
        Row and column numbers, chips, tags, headings, code (E's row numbers:
        :attr:`index`).
    legend
        The colour legend, notes and hidden-range labels (those in sans at
        :attr:`note`: this size over :data:`MIN_NOTE_PX`).
    caption
        The burned-in caption.
    """

    data: float
    label: float
    legend: float
    caption: float = CAPTION_FONT
    text_px: float = MIN_TEXT_PX  # the labels' and legend's floor (px at 720p)
    piece_px: float = 0.0  # the word pieces' floor (px at 720p); 0: the labels' floor

    @classmethod
    def from_data(cls, data: float, text_px: float = 0.0) -> TypeScale:
        """Derive every role's size from the data size, keeping each above the floor.

        Parameters
        ----------
        data
            The table numbers' font size.
        text_px
            A higher floor for the labels and the legend (px at 720p), where there is room.

        Returns
        -------
        TypeScale
            ``label`` and ``legend``: their ratios of ``data``, over either floor, not over it.
        """
        floor = font_for_px(max(MIN_TEXT_PX, text_px)) * 1.001
        label = min(data, max(data * LABEL_RATIO, floor))
        legend = min(label, max(data * LEGEND_RATIO, floor))
        return cls(data, label, legend, text_px=max(MIN_TEXT_PX, text_px))

    @property
    def note(self) -> float:
        """Words in sans set small: the legend's size, never under :data:`MIN_NOTE_PX`.

        A hidden range's label and a gap's note; no larger than the labels.
        """
        return min(self.label, max(self.legend, font_for_px(MIN_NOTE_PX) * 1.001))

    @property
    def index(self) -> float:
        """E's row numbers (IDs): a label, :data:`LABEL_OVER_NOTE` times a note's floor, <= data."""
        return min(self.data, max(self.label, font_for_px(MIN_NOTE_PX) * LABEL_OVER_NOTE))

    @property
    def data_px(self) -> float:
        """The table digits' height at 720p."""
        return px_for_font(self.data)
