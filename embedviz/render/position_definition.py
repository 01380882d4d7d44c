"""The font of PositionBlindness's sinusoidal P's definition (moved out of its solver).

:func:`definition_font` sizes the definition so that its one script, the
exponent of ``10000``, stays over :data:`~embedviz.render.design.MIN_TEXT_PX`.
"""

from __future__ import annotations

from functools import cache

from embedviz.render.design import MIN_TEXT_PX, font_for_px

__all__ = ["definition_font"]


@cache
def _script_ratio() -> float:
    """Return how tall a raised exponent's digit is beside a digit on the baseline.

    Typst sets scripts smaller (and in their own optical variant); it is
    measured, not assumed, so the definition's exponent is sized from what is drawn.
    """
    from embedviz.render.formula import FormulaText

    glyphs = FormulaText("0^0", 48, "#FFFFFF").family_members_with_points()[1:]
    base, script = sorted(glyphs, key=lambda glyph: glyph.get_x())
    return float(script.height / base.height)


def definition_font(label: float) -> float:
    """Return the font of P's definition: a label's, or larger if its exponent would be small.

    The definition is what the narration points at, so it is set as a label,
    not a legend; its one script (the exponent of ``10000``) must still reach
    :data:`~embedviz.render.design.MIN_TEXT_PX`, which at the smallest labels
    takes a larger font than theirs (a digit of about 17.3 px, still under the
    table numbers wherever the scene's eight tokens fit at 18 px or more). It is
    not a problem for the solver: a floor on the table font would not shrink
    monotonically, which :func:`~embedviz.render.frame_fit.solve_largest` needs.

    Parameters
    ----------
    label
        The frame's label font.

    Returns
    -------
    float
        The font size of every line of the definition.
    """
    return max(label, font_for_px(MIN_TEXT_PX / _script_ratio()) * 1.001)
