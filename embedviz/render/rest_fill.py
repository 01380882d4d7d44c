"""Choosing among resting layouts the one that leaves the least of the frame empty.

A stage whose pieces rest away from home (:mod:`embedviz.render.rests`) spreads
them with fixed gaps, which suit most tables. A small one can still leave a
band across the frame empty: ParameterCount's 6 x 3 table left 13.1 % of the
frame empty under its sizes at the table beat's end and 14.5 % under E's column
and the memory table at the dtype beats', over issue 18's eighth. The first
(usual) layout is kept while it keeps within that eighth; otherwise the
layout whose largest empty rectangle is smallest wins.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from embedviz.render.design import BOTTOM_GAP, TOP_GAP
from embedviz.render.rests import Place
from embedviz.render.space import Box, largest_empty_rectangle

__all__ = [
    "EMPTY_SHARE",
    "INTRO_ENDS",
    "PANEL_ENDS",
    "first_full_enough",
    "least_empty",
    "rested_boxes",
    "spread",
]

# Issue 18: no empty area between the title and the caption larger than an eighth of the frame.
EMPTY_SHARE = 1 / 8
# The gaps tried above and under a column of pieces beside E (shares of a gap between two),
# the usual half gap first ...
INTRO_ENDS = (0.5, 0.35, 0.2, 0.1)
# ... and above and under the panel's pieces (the usual TOP_GAP and BOTTOM_GAP first).
PANEL_ENDS = (
    (TOP_GAP, BOTTOM_GAP),
    *((top, bottom) for top in (0.7, 0.5, 0.3, 0.1) for bottom in (0.8, 0.5, 0.3, 0.1)),
)


def rested_boxes(boxes: Mapping[str, Box], places: Mapping[str, Place]) -> list[Box]:
    """Return the pieces' boxes where they rest (a piece without a place stays home).

    Parameters
    ----------
    boxes
        The pieces' solved boxes ``(left, bottom, right, top)``, by name.
    places
        Each resting piece's scale about its centre and the centre's place.

    Returns
    -------
    list
        The boxes, moved and scaled.
    """
    found = []
    for name, (left, bottom, right, top) in boxes.items():
        if name not in places:
            found.append((left, bottom, right, top))
            continue
        scale, x, y = places[name]
        half_w, half_h = (right - left) * scale / 2, (top - bottom) * scale / 2
        found.append((x - half_w, y - half_h, x + half_w, y + half_h))
    return found


def least_empty(
    boxes: Mapping[str, Box],
    band: tuple[float, float],
    candidates: Sequence[Callable[[], dict[str, Place]]],
) -> dict[str, Place]:
    """Return the first candidate's places, or the least empty ones if it leaves too much.

    Parameters
    ----------
    boxes
        The pieces' solved boxes, by name.
    band
        The content band's bottom and top: the region searched spans the frame's width.
    candidates
        Ways to place the pieces, the usual one first.

    Returns
    -------
    dict
        The places: the first candidate's while its largest empty rectangle is at
        most :data:`EMPTY_SHARE` of the frame, else the one whose is smallest
        (the earlier on a tie).
    """
    from manim import config

    width, height = float(config.frame_width), float(config.frame_height)
    region = (-width / 2, band[0], width / 2, band[1])
    scored = (
        (
            largest_empty_rectangle(rested_boxes(boxes, places), region).area / (width * height),
            places,
        )
        for places in (candidate() for candidate in candidates)
    )
    return first_full_enough(scored)


def first_full_enough(scored: Iterable[tuple[float, dict[str, Place]]]) -> dict[str, Place]:
    """Return the first places whose empty share is at most :data:`EMPTY_SHARE`, else the least.

    Parameters
    ----------
    scored
        Each candidate's largest empty share of the frame and its places, the usual
        first; read lazily, so that no candidate after a good enough one is solved.

    Returns
    -------
    dict
        The first places within :data:`EMPTY_SHARE`, else those with the smallest
        share (the earlier on a tie).
    """
    best: tuple[float, dict[str, Place]] | None = None
    for share, places in scored:
        if best is None and share <= EMPTY_SHARE:
            return places
        if best is None or share < best[0] - 1e-9:
            best = (share, places)
    assert best is not None, "no candidates"
    return best[1]


def spread(
    heights: Sequence[float], top: float, bottom: float, gaps: Sequence[float]
) -> list[float]:
    """Return centre lines that share the height out in gaps above, between and under pieces.

    Parameters
    ----------
    heights
        The pieces' heights, top to bottom.
    top, bottom
        The height shared out.
    gaps
        One more than the pieces: each gap's weight (1 a full one, 0.5 half).

    Returns
    -------
    list
        The pieces' centre lines.
    """
    unit = max(top - bottom - sum(heights), 0.0) / sum(gaps)
    centres, cursor = [], top
    for height, gap in zip(heights, gaps, strict=False):
        cursor -= gap * unit
        centres.append(cursor - height / 2)
        cursor -= height
    return centres
