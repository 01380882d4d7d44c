"""FullExplainer: every scene in teaching order, as one sectioned video."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from embedviz.core.errors import EmbedvizError
from embedviz.story.model import Beat, Storyboard
from embedviz.story.options import SceneOptions
from embedviz.story.scenes.common import SceneSpec, snap_seconds

__all__ = ["SPEC", "build_full_explainer"]

# Seconds to clear the screen between two concepts.
_TRANSITION = 0.6


def _clear_beat(last: Beat) -> Beat:
    """Make a short beat that fades the finished concept out before the next one."""
    return Beat(
        name="clear",
        action="clear",
        narration="",
        run_time=snap_seconds(_TRANSITION),
        duration=snap_seconds(_TRANSITION),
        highlight=None,
        window=last.window,
        dimmed_rows=(),
        output=None,
        numbers=(),
        labels={},
    )


def _transition(previous: Storyboard, options: SceneOptions) -> Storyboard:
    """Make the short part that clears the screen between two concepts."""
    return Storyboard(
        scene="Transition",
        title="",
        options=options,
        vocab_size=previous.vocab_size,
        dim=previous.dim,
        source=previous.source,
        ids=None,
        beats=(_clear_beat(previous.beats[-1]),),
        layout="transition",
        value_scale=previous.value_scale,
    )


def build_full_explainer(
    options: SceneOptions,
    *,
    legend: bool = True,
    plays: Sequence[SceneSpec] = (),
    words: Mapping[str, str] | None = None,
    part_words: Mapping[str, Mapping[str, str]] | None = None,
) -> Storyboard:
    """Storyboard: all scenes, each with its defaults, in teaching order.

    Parameters
    ----------
    options
        Only ``theme`` applies; every part uses its own scene's defaults,
        so that the video tells one coherent story.
    legend
        Whether the parts show the colour legend. Each part shows it as its
        own scene does: a chapter is a clip of its own (``--save_sections``,
        the chapter list), and its coloured table needs its key there.
    plays
        The scenes to play, in order (the registry passes every other
        scene; see :attr:`SceneSpec.plays`).
    words
        The words of the whole video's page (e.g. a translation); English
        by default.
    part_words
        Each part's words, by scene name; English where not given.

    Returns
    -------
    Storyboard
        A composite storyboard: its ``parts`` are the scenes' storyboards,
        with a one-beat ``transition`` part between each two that clears the
        screen (it belongs to the section before it).

    Raises
    ------
    EmbedvizError
        If an option other than ``theme`` is set.
    """
    defaults = SceneOptions()
    changed = [
        name
        for name, value in options.to_dict().items()
        if name != "theme" and value != getattr(defaults, name)
    ]
    if changed:
        raise EmbedvizError(
            f"FullExplainer plays every scene with its own defaults; only --theme applies, "
            f"not {', '.join('--' + name for name in changed)}"
        )
    if not plays:
        raise EmbedvizError("FullExplainer needs the scenes it plays")
    parts: list[Storyboard] = []
    for spec in plays:
        # Each part starts from its own scene's defaults, with the theme passed on.
        part_options = replace(SceneOptions(theme=options.theme), **spec.defaults)
        given = (part_words or {}).get(spec.name)
        part = spec.make(part_options, legend=legend, words=given)
        if parts:
            parts.append(_transition(parts[-1], options))
        parts.append(part)
    first = parts[0]
    return Storyboard(
        scene=SPEC.name,
        title=SPEC.title,
        summary=SPEC.summary,
        words=dict(SPEC.words(words).texts),
        options=options,
        vocab_size=first.vocab_size,
        dim=first.dim,
        source="each scene's own defaults",
        ids=None,
        beats=(),
        layout=SPEC.layout,
        value_scale=first.value_scale,
        parts=tuple(parts),
    )


SPEC = SceneSpec(
    name="FullExplainer",
    alias="full",
    module="full_explainer",
    summary="Every scene in teaching order, one chapter per concept.",
    build=build_full_explainer,
    title="From token IDs to embedding vectors",
    layout="composite",
    order=1000,
    examples=({"theme": "light"},),
)
