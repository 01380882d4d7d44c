"""The parameter-count layout (ParameterCount): E's block, and the sums beside it.

A thin composition of parts (:mod:`embedviz.render.parts.sums`), placed by
the solver (:func:`embedviz.render.solve_parameter_count.solve_parameter_count`):
the block (beat ``table``), the count (``count``), the memory table
(``dtype``), the table of widths (``compare``) and the lookup (``lookup``),
whose row leaves the block from where it is drawn and marked.

The layout is the lookup's, the last beat. Before it, what is shown rests
where it fills the frame (:func:`~embedviz.render.param_rests.rest_places`,
moved by :class:`~embedviz.render.rests.Rests`): E large at the left with its
heading, its sizes and the count spread down a column beside it (beats
``table`` and ``count``, E at one size); from ``float32`` to ``compare``,
E's column receded at the top left, the count and the memory table beside and
under it (``dtype``); as ``compare`` starts the memory table fades where it
stands, and the table of widths, what that beat is about, takes the panel
beside E, its bars on lines of their own across it (issue 18: a 720p review
found it at 24 px under the memory table, its bars 35-140 px long, E a
thumbnail, and two values each shown twice with different meanings). Each
beat first eases its pieces to its places (at ``compare`` across first, then
up, for at least a glide's floor: no text crosses another); as the lookup
starts the widths table fades where it stands, then E comes home, large, with
its copy, its label gliding with it, and the memory table's one line comes
under the count's line, which stays as the summary (issue 18).
"""

from __future__ import annotations

from manim import Animation, AnimationGroup, Mobject, Succession

from embedviz.render.animations import Steps, beat_steps, steps_together
from embedviz.render.boxes import content_band
from embedviz.render.fades import FadeIn, FadeOut
from embedviz.render.glyphs import SansText
from embedviz.render.metrics import xyz
from embedviz.render.pace import at_least, fit_floors
from embedviz.render.param_rests import rest_places
from embedviz.render.parts.sums import BlockPart, CountLine, LookupLine, MemoryTable
from embedviz.render.parts.widths_table import WidthsTable
from embedviz.render.rests import Place, Rests
from embedviz.render.solve_parameter_count import ParamPlan, ParamSpec, solve_parameter_count
from embedviz.render.stage import Stage, register_stage
from embedviz.story.model import Beat

__all__ = ["ParameterCountStage"]

# Pieces that leave the intro's column for places across E (its heading above it).
_FADE_ACROSS = ("heading", "rows", "columns", "hidden")
# The share of compare's settle by which the pieces' moves across lead their moves up.
_LEAD = 0.4
# Seconds (as built) the tables take to fade as the lookup starts, before E grows.
_GONE_SECONDS = 0.5
# Seconds a first step keeps short of the next phrase (phrases start on their nearest
# frames, a step's frames are rounded up).
_PHRASE_MARGIN = 0.1


@register_stage
class ParameterCountStage(Stage):
    """E's block, the parameter count, its memory, other widths d, and a lookup."""

    layout = "parameter_count"

    plan: ParamPlan
    block: BlockPart
    count: CountLine
    memory: MemoryTable
    widths: WidthsTable
    lookup: LookupLine

    def build(self) -> None:
        """Solve the layout and build every part in its place."""
        plan = solve_parameter_count(ParamSpec.from_board(self.board))
        self.plan = plan
        bands = plan.bands
        self.title = SansText(self.board.title, bands.title_font, self.theme.text)
        self.title.move_to(xyz(bands.title_x, bands.title_y))
        args = (self.scene, self.board, self.cells, plan, self.theme)
        self.block = self.add_part(BlockPart(*args))
        self.count = self.add_part(CountLine(*args, self.block))
        self.memory = self.add_part(MemoryTable(*args))
        self.widths = self.add_part(WidthsTable(*args))
        self.lookup = self.add_part(LookupLine(*args, self.block))
        self.rests = Rests(self._pieces())
        self.rests.put(self._places(self.board.beats[0]))

    def _pieces(self) -> dict[str, list[Mobject]]:
        """Return what rests together, by name (the names :func:`rest_places` knows)."""
        block, product, memory = self.block, self.count.product, self.memory
        pieces: dict[str, list[Mobject]] = {
            "block": [block.grid, block.bands],
            # From float32 on, the hidden ranges' labels rest apart from the grid: they keep
            # the type scale's minimum where E recedes (ParamPlan.notes).
            "grid": [block.grid],
            "bands": [block.bands],
            "hidden": [block.col_gap],
            "heading": [block.heading],
            "rows": list(block.sizes[:2]),
            "columns": list(block.sizes[2:]),
            "product": list(product[:3]),
            "count": [*product[3:], self.count.word],
            "line": [product, self.count.word],
            "memory_header": [memory.header],
            "widths_header": [self.widths.header],
            "widths": [
                *(m for row in self.widths.rows for m in row),
                *self.widths.tracks,
                self.widths.bar_label,
            ],
        }
        for shown in range(1, len(memory.rows) + 1):
            pieces[f"memory:{shown}"] = list(memory.rows[:shown])
        # Where E recedes, its labels recede less than its grid, each about its own place.
        pieces |= {f"label:{key}": [m] for key, m in block.grid.row_labels.items()}
        pieces |= {f"band:{n}": [m] for n, m in enumerate(block.bands)}
        return pieces

    def _places(self, beat: Beat) -> dict[str, Place]:
        """Return where the pieces shown at the end of a beat rest (by piece name)."""
        beats = self.board.beats
        done = beats[: beats.index(beat) + 1]
        dtypes = sum(1 for b in done if b.action == "dtype")
        apart = any(b.action in ("dtype", "compare") for b in done)
        labels = [name for name in self.rests.pieces if name.startswith(("label:", "band:"))]
        shown = [*([*labels, "grid"] if apart else ["block"]), "heading", "rows", "columns"]
        shown.append("hidden")
        if any(b.action == "count" for b in done):
            shown += ["product", "count"]
        if any(b.action == "compare" for b in done):
            shown = [*shown[:-2], "line", "widths_header", "widths"]
        names = {name: name for name in shown if name in self.rests.pieces}
        whole = f"memory:{len(self.memory.rows)}"
        compared = any(b.action == "compare" for b in done)
        if dtypes and not compared:
            # The whole table rests where it will stand: a row not yet shown is already in
            # its place when it fades in (moved unseen, it stilled the beat's start 1 s).
            names |= {"memory_header": "memory_header", "memory": whole}
        boxes = {name: self.rests.box(piece) for name, piece in names.items()}
        if dtypes and not compared:
            boxes["memory"] = self.rests.box(f"memory:{dtypes}")  # the rows shown
            boxes["memory_all"] = self.rests.box(f"memory:{len(self.memory.rows)}")
            boxes["memory_first"] = self.rests.box("memory:1")
        # The count's wider half, which joins E's column at the count beat: E keeps one size
        # while it is introduced and counted (it sizes E at the table beat too).
        boxes["count_all"] = max(
            (self.rests.box(name) for name in ("product", "count")), key=lambda b: b[2] - b[0]
        )
        # Issue 18's band, where empty space is measured: under the title, over the caption.
        _, bottom, _, top = content_band(self.title)
        found = rest_places(beat.action, boxes, self.plan, (bottom, top))
        return {names[name]: place for name, place in found.items()}

    def _across(self, name: str, before: Place | None, after: Place | None) -> bool:
        """Whether a piece crosses E on its way (it changes its size or its x).

        A piece that only slides up or down at its own size, beside E, glides there.
        """
        if before == after:
            return False
        centre = self.rests.centres[name]
        home: Place = (1.0, float(centre[0]), float(centre[1]))
        (s0, x0, _), (s1, x1, _) = before or home, after or home
        return abs(s0 - s1) > 1e-9 or abs(x0 - x1) > 1e-9

    def _leaving(self, beat: Beat) -> tuple[list[Mobject], tuple[str, ...]]:
        """Return what fades where it stands as a beat starts, and its pieces' names.

        The memory table, as the comparison of widths starts: that table is what the
        beat is about, and takes the panel (issue 18: a 720p review found it at 24 px
        beside the memory table, its bars 35-140 px long, E a thumbnail); the widths
        table, as the lookup starts. The count's line stays as the summary; E comes
        forward, home, with the copied row (the closing frame had E a thumbnail).
        """
        if beat.action == "compare":
            return [self.memory.header, *self.memory.rows], ("memory_header", "memory:")
        if beat.action != "lookup":
            return [], ()
        rows = [m for texts, bar in self.widths.rows for m in (*texts, bar)]
        gone = [self.widths.header, *rows, *self.widths.tracks, self.widths.bar_label]
        return gone, ("widths_header", "widths")

    def animate(self, beat: Beat) -> Animation:
        """Play the beat with its pieces at its places, eased there first."""
        places = self._places(beat)
        leaving, kept = self._leaving(beat)
        if leaving:
            # The tables fade where they stand: they never glide home.
            places |= {
                name: place for name, place in self.rests.places.items() if name.startswith(kept)
            }
        with self.rests.building(places):
            first, *rest = beat_steps(super().animate(beat))
        # E's heading and sizes go above E (the sizes join into one line) and the hidden
        # columns' label goes under E: on straight paths they crossed each other and E's
        # lines (issue 18), so they leave the intro's column unseen and appear at home.
        # As the lookup starts they only grow with E, in place: they glide (a fade there
        # blinked E's label out and back).
        before = self.rests.places
        home = beat.action == "lookup"
        fade = [
            n for n in _FADE_ACROSS if not home and self._across(n, before.get(n), places.get(n))
        ]
        # At compare the count's two lines join, across first, up after, once the memory
        # table has faded: no text crosses another (issue 18).
        lead = _LEAD if beat.action == "compare" else 0.0
        moves = self.rests.settle(places, fade=fade, lead=lead)
        settle: Animation | None = moves
        if moves is not None and (lead or home):
            # Squeezed into the beat's first phrase it jumped (0.1 s at compare): a glide's
            # floor. Earlier beats' settles keep their shares, each step with its phrase.
            settle = at_least(moves, moves.floor())
        if leaving:
            # The table fades first, where it stands; then the pieces move into the room it
            # left. At the lookup E grows, and the summary comes under the count's line
            # (issue 18: it came over the fading header, and E grew over the fading table).
            gone = AnimationGroup(*(FadeOut(m) for m in leaving), run_time=_GONE_SECONDS)
            after = settle
            if home:
                comes = FadeIn(self.lookup.summary)
                after = comes if settle is None else AnimationGroup(settle, comes)
            settle = gone if after is None else Succession(gone, after)
        if settle is None:
            return Steps(first, *rest) if rest else first
        if beat.action == "count" and rest and len(beat.phrases) > 1:
            return self._count_steps(beat, settle, first, rest)
        # The settle's floor is taken from the beat's first step, which keeps to its phrase:
        # the next step still starts with the next phrase.
        end = beat.phrases[1].start if rest and len(beat.phrases) > 1 else beat.duration
        fit_floors([settle, first], end - _PHRASE_MARGIN)
        return Steps(Succession(settle, first), *rest)

    def _count_steps(
        self, beat: Beat, settle: Animation, first: Animation, rest: list[Animation]
    ) -> Animation:
        """Return the count beat's steps, E's column making room for the count as it comes.

        Settled with "Every entry is a trainable parameter:", the column left the room
        under it empty until the next phrase brought the count (15.8 % of the frame at
        720p, 11.3 s; issue 18): it moves up with that phrase, then the count comes.
        """
        phrases = beat.phrases
        end = phrases[2].start if len(phrases) > 2 else beat.duration
        fit_floors([settle, rest[0]], end - phrases[1].start - _PHRASE_MARGIN)
        return Steps(first, Succession(settle, rest[0]), *rest[1:])

    def beat_table(self, beat: Beat) -> Animation:
        """Show the title with the block's first step (the scene has no intro of its own)."""
        return steps_together(FadeIn(self.title), self.block.beat_table(beat))
