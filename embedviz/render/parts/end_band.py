"""The band a beat's end is judged in: between the title and the caption it ends on.

:func:`~embedviz.render.boxes.content_band` stops at a two-line caption's
top, as tall as a caption comes; a beat that ends on a one-line caption
leaves a line's height more under the tables (the frame tests measure to
the caption drawn). PositionBlindness's ``same`` glides its output block
where the frame is fullest: judged to the two-line top alone, it left 13.4 %
of the frame empty over its one-line caption (:func:`least_glide`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from manim import config

from embedviz.render.boxes import content_band
from embedviz.render.layout import frame_regions
from embedviz.render.metrics import xyz
from embedviz.render.parts.captions import Caption
from embedviz.render.space import EMPTY_SHARE, Box, largest_empty_rectangle
from embedviz.story.model import Beat

__all__ = ["areas", "end_band", "least_glide"]

# A glide, and the largest empty areas it leaves (:func:`areas`).
Trial = tuple[float, float, float, float, float]


def end_band(scene: Any, title: Any, beat: Beat) -> Box:
    """Return the band between ``title`` and the caption ``beat`` ends on.

    Parameters
    ----------
    scene
        The scene playing the beat; without one, or without burned-in
        captions, the band to a two-line caption's top (:func:`content_band`).
    title
        The title over the band.
    beat
        The beat: its last phrase is the caption standing at its end.

    Returns
    -------
    Box
        ``(left, bottom, right, top)``.
    """
    band = content_band(title)
    if scene is None or not getattr(scene, "burn_captions", False):
        return band
    texts = [phrase.text for phrase in beat.phrases] or [beat.narration]
    frame = frame_regions()
    board = getattr(scene, "storyboard", None)
    language = board.language if board is not None else "en"
    caption = Caption(texts[-1], frame.caption_width, theme=scene.theme, language=language)
    caption.move_to(xyz(0, frame.caption_y))
    return (band[0], float(caption.get_top()[1]), band[2], band[3])


def areas(boxes: list[Box], bands: tuple[Box, Box]) -> tuple[float, float]:
    """Return the largest empty areas among ``boxes`` in two bands (see :func:`least_glide`).

    The second is measured only where the first keeps the rule (else infinite).
    """
    first = largest_empty_rectangle(boxes, bands[0]).area
    rule = EMPTY_SHARE * float(config.frame_width * config.frame_height)
    return first, largest_empty_rectangle(boxes, bands[1]).area if first <= rule else float("inf")


def least_glide(tried: Sequence[Trial]) -> tuple[float, float, float]:
    """Return the glide nearest to none among those that leave the frame full enough.

    ``tried``: per glide of ``same`` (the block's ``dy``, the legend's lift and
    shift), the largest empty areas it leaves to a two-line caption's top
    (:func:`~embedviz.render.boxes.content_band`, where the rule is held) and to
    the caption the beat ends on (:func:`end_band`). Full enough: under the rule
    (:data:`~embedviz.render.space.EMPTY_SHARE`) in the first band, and in the
    second within 0.01 square units of the least there or under the rule; where
    no glide keeps the rule in the first, within 0.01 of the least there. A glide
    that only trims an area already under the rule is motion without a purpose
    (issue 18: one thread of motion). With the legend in the band on the title's
    line, the default's block kept the rule standing still (12.3 %) but left
    13.4 % of the frame empty over ``same``'s one-line caption; judged to both,
    it glides 0.02 units down (12.5 % and 13.0 %, as before the legend moved).
    """
    rule = EMPTY_SHARE * float(config.frame_width * config.frame_height)
    ranked = sorted(tried, key=lambda t: abs(t[0]) + abs(t[1]) + abs(t[2]))
    kept = [t for t in ranked if t[3] <= rule]
    if kept:
        enough = max(min(t[4] for t in kept) + 0.01, rule)
        return next(t[:3] for t in kept if t[4] <= enough)
    least = min(t[3] for t in tried) + 0.01
    return next(t[:3] for t in ranked if t[3] <= least)
