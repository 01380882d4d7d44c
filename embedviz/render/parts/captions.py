"""The burned-in caption: one phrase of the narration, in balanced lines."""

from __future__ import annotations

from manim import VGroup

from embedviz.render.design import CAPTION_FONT, DARK, Theme
from embedviz.render.glyphs import SansText
from embedviz.story.phrases import caption_lines

__all__ = ["Caption"]


class Caption(VGroup):
    """The narration at the bottom of the frame: a phrase, in at most two balanced lines.

    Lines are broken as the WebVTT cues are (:func:`embedviz.story.phrases.caption_lines`:
    balanced, never one word alone on a line). A narration longer than two
    lines (one without phrases) shrinks to keep to the caption band.

    Parameters
    ----------
    text
        The phrase.
    width
        The widest it may be.
    font_size
        Font size.
    theme
        Colours.
    language
        The narration's BCP 47 tag: it chooses the words a line may not end on.
    """

    def __init__(
        self,
        text: str,
        width: float,
        font_size: float = CAPTION_FONT,
        theme: Theme = DARK,
        language: str = "en",
    ) -> None:
        lines = list(caption_lines(text, language=language))
        body = SansText("\n".join(lines), font_size, theme.text)
        if body.width > width:
            body.scale_to_fit_width(width)
        if len(lines) > 2:
            body.scale(2 / len(lines))
        super().__init__(body)
        self.text = text
        self.lines = tuple(lines)
