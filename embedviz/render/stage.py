"""Stages: the per-layout part of a scene, built from a storyboard.

A :class:`Stage` owns the mobjects of one layout (a grid with chips and an
output block, a one-hot product, a parameter count, ...) and turns each beat
into one Animation. A stage is composed of parts (:class:`Component`: a grid
panel, a chip lane, an output block, a print, ...), each with its own
``beat_<action>`` handlers; a beat goes to the stage's own handler if it has
one, or else to the one part that handles it (see :meth:`Stage.animate` and
:mod:`embedviz.render.parts`). Stages register themselves by layout
name; the scene looks the layout up in the storyboard. Modules in
:mod:`embedviz.render.stages` are imported automatically, so a new layout is
a new file there.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from manim import Animation, AnimationGroup, Mobject, VMobject, Wait

from embedviz.render.animations import Steps, beat_steps
from embedviz.render.fades import FadeIn, FadeOut
from embedviz.render.glyphs import SansText
from embedviz.render.layout import frame_regions
from embedviz.render.mobjects import TokenChip, xyz
from embedviz.render.theme import Theme
from embedviz.story.model import Beat, NumberCell, Storyboard

__all__ = [
    "STAGES",
    "Component",
    "Stage",
    "StageHost",
    "TransitionStage",
    "register_stage",
    "stage_for",
]

STAGES: dict[str, type[Stage]] = {}
ComponentT = TypeVar("ComponentT", bound="Component")


class StageHost(Protocol):
    """The narrow part of a scene that a stage may use.

    A stage adds its mobjects, brings one to the front, reads what is on
    screen and which caption is showing; it never plays or waits itself.
    :class:`embedviz.render.base.StoryboardScene` is one.
    """

    @property
    def mobjects(self) -> Sequence[Mobject]:
        """What is on screen, in drawing order."""
        ...

    @property
    def caption(self) -> Any:
        """The narration now on screen, if any."""
        ...

    def add(self, *mobjects: Any) -> Any:
        """Put mobjects on screen."""
        ...

    def bring_to_front(self, *mobjects: Any) -> Any:
        """Draw mobjects above the rest."""
        ...


class Component:
    """A part of a stage: its own mobjects and its own ``beat_<action>`` handlers.

    A component sees the scene only through :class:`StageHost`. A stage lists
    its components in :attr:`Stage.parts`; a beat that the stage itself does
    not handle goes to the one part that has a ``beat_<action>`` for it.

    Parameters
    ----------
    host
        The scene, seen through :class:`StageHost`.
    theme
        Colours.
    """

    def __init__(self, host: StageHost, theme: Theme) -> None:
        self.host = host
        self.theme = theme

    def handler(self, action: str) -> Callable[[Beat], Animation] | None:
        """Return this part's handler for a beat action, or None.

        Parameters
        ----------
        action
            The beat's ``action``.

        Returns
        -------
        callable or None
            The bound ``beat_<action>`` method.
        """
        found = getattr(self, f"beat_{action}", None)
        return found if callable(found) else None

    def intro(self) -> list[VMobject]:
        """Return what this part shows when the stage is introduced (none by default)."""
        return []

    def before_beat(self, beat: Beat) -> None:
        """Prepare for a beat before any part builds it (nothing by default)."""

    def release(self) -> list[Animation]:
        """Return what goes with the beat's first motion: marks kept from the beat before."""
        return []


def register_stage(cls: type[Stage]) -> type[Stage]:
    """Class decorator: make a stage available under its ``layout`` name."""
    STAGES[cls.layout] = cls
    return cls


def stage_for(layout: str) -> type[Stage]:
    """Return the stage class for a layout, importing every stage module once.

    Parameters
    ----------
    layout
        The storyboard's ``layout``.

    Returns
    -------
    type
        The registered :class:`Stage` subclass.
    """
    import embedviz.render.stages as package

    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{info.name}")
    if layout not in STAGES:
        raise KeyError(f"no stage is registered for layout {layout!r}")
    return STAGES[layout]


class Stage:
    """Base class: a title, the storyboard's cells, and beat dispatch.

    Parameters
    ----------
    scene
        The scene that plays the storyboard, seen through :class:`StageHost`.
    board
        The storyboard (one part of a composite one).
    theme
        Colours.
    """

    layout: ClassVar[str] = ""

    def __init__(self, scene: StageHost, board: Storyboard, theme: Theme) -> None:
        self.scene = scene
        self.board = board
        self.theme = theme
        # Every number any beat shows, by (kind, index): mobjects are built from these.
        self.cells: dict[tuple[str, tuple[int, ...]], NumberCell] = {
            (cell.kind, cell.index): cell for beat in board.beats for cell in beat.numbers
        }
        self.title = SansText(board.title, 30, theme.text).move_to(xyz(0, frame_regions().title_y))
        # Token strings behind the IDs, when they came from --text.
        pieces = board.options.pieces
        self.pieces: tuple[str, ...] | None = tuple(pieces) if pieces else None
        # The components this stage is composed of (see :class:`Component`).
        self.parts: list[Component] = []
        self.build()

    def add_part(self, part: ComponentT) -> ComponentT:
        """Compose a component into this stage and return it.

        Parameters
        ----------
        part
            The component; its ``beat_<action>`` handlers become the stage's.

        Returns
        -------
        Component
            The same component.
        """
        self.parts.append(part)
        return part

    def word(self, role: str) -> str:
        """Return the storyboard's UI word for a role (see :meth:`Storyboard.word`).

        Parameters
        ----------
        role
            A word role of this stage's layout, e.g. ``token_ids``.

        Returns
        -------
        str
            The text to draw.
        """
        return self.board.word(role)

    def make_chip(self, cell: NumberCell, font_size: float = 24) -> TokenChip:
        """Build the chip for a ``token_id`` cell, with its text piece if known.

        Parameters
        ----------
        cell
            The cell; its last index is the position in the sequence.
        font_size
            Font size of the ID.

        Returns
        -------
        TokenChip
            The chip.
        """
        position = cell.index[-1] if cell.index else 0
        piece = self.pieces[position] if self.pieces and position < len(self.pieces) else None
        return TokenChip(cell, font_size, self.theme, piece)

    def build(self) -> None:
        """Create and place this layout's mobjects (not yet added)."""

    def animate(self, beat: Beat) -> Animation:
        """Return the animation for one beat.

        The stage's own ``beat_<action>`` method plays it if there is one;
        otherwise the one part (:attr:`parts`) with such a handler does.

        Parameters
        ----------
        beat
            The beat; its ``action`` names a ``beat_<action>`` method.

        Returns
        -------
        Animation
            What the beat plays (its run time is set by the scene).

        Raises
        ------
        KeyError
            Neither the stage nor any part handles the action.
        ValueError
            The stage does not, and more than one part does: which one should
            play it is ambiguous.
        """
        handler = getattr(self, f"beat_{beat.action}", None)
        if handler is None:
            found = [(part, h) for part in self.parts if (h := part.handler(beat.action))]
            if len(found) > 1:
                names = ", ".join(type(part).__name__ for part, _ in found)
                raise ValueError(
                    f"{type(self).__name__}: beat_{beat.action} for {beat.name!r} is handled "
                    f"by more than one part ({names}); handle it on the stage"
                )
            if not found:
                raise KeyError(f"{type(self).__name__} has no beat_{beat.action} for {beat.name!r}")
            handler = found[0][1]
        for part in self.parts:
            part.before_beat(beat)
        animation: Animation = handler(beat)
        fades = [fade for part in self.parts for fade in part.release()]
        if not fades or beat.action == "clear":  # a clear fades everything itself
            return animation
        first, *rest = beat_steps(animation)
        return Steps(AnimationGroup(first, *fades), *rest)

    def intro_mobjects(self) -> list[VMobject]:
        """Return the title and what every part shows at the introduction."""
        shown: list[VMobject] = [self.title]
        for part in self.parts:
            shown.extend(part.intro())
        return shown

    def beat_clear(self, beat: Beat) -> Animation:
        """Fade out everything but the caption, ending a part of a longer video."""
        leaving = [m for m in self.scene.mobjects if m is not self.scene.caption]
        if not leaving:
            return Wait()
        return AnimationGroup(*[FadeOut(mobject) for mobject in leaving])

    def show_title(self) -> Animation:
        """Fade the title in."""
        return FadeIn(self.title)


@register_stage
class TransitionStage(Stage):
    """The one-beat part between two concepts: it only clears the screen."""

    layout = "transition"
