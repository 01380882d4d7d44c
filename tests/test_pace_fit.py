"""Floors inside a step: a group's members share its own time line; fit_floors keeps a phrase.

TrainingNudge's scatter is one step of many motions played one after
another, its strips' carries floored (``parts/landing.py``: their numbers
fade in over 0.2 s, issue 18). Stretched as a whole to give each carry its
floor, the step ran 8 frames into the next phrase ("Every other row gets
exactly zero.", tests/test_phrase_steps.py); :func:`fit_floors` gives the
carries the time of the pointing, sums and pauses instead.
"""

from __future__ import annotations

from manim import AnimationGroup, Succession, Wait

from embedviz.render.pace import at_least, fit_floors, needed_seconds


def test_a_group_given_its_own_run_time_asks_its_members_floor_only() -> None:
    """A group's members play over its own time line (max_end_time), whatever its
    run_time: a floored member spanning the whole group needs the group to last its floor,
    not its floor times run_time over the member's (1.2 s here, twice too long)."""
    carry = at_least(Wait(run_time=1.0), 0.6)
    group = AnimationGroup(carry, Wait(run_time=1.0), run_time=2.0)
    assert abs(needed_seconds(group) - 0.6) < 1e-9
    # In a succession, the group's share is its run_time: 2 s of 3 s.
    step = Succession(Wait(run_time=1.0), group)
    assert abs(needed_seconds(step) - 0.6 * 3.0 / 2.0) < 1e-9


def test_fit_floors_gives_the_floors_the_others_time_and_keeps_the_total() -> None:
    """Four carries (floor 0.6 s) and four 1-unit leads: stretched as a whole the step needs
    4.8 s; fitted to 4.2 s, each carry gets 0.6 s of it and the leads share the rest."""
    carries = [at_least(Wait(run_time=1.0), 0.6) for _ in range(4)]
    leads = [Wait(run_time=1.0) for _ in range(4)]
    members = [m for pair in zip(leads, carries, strict=True) for m in pair]
    assert abs(needed_seconds(Succession(*members)) - 4.8) < 1e-9
    fit_floors(members, 4.2)
    assert abs(sum(m.get_run_time() for m in members) - 8.0) < 1e-9
    step = Succession(*members)
    assert needed_seconds(step) <= 4.2 + 1e-9
    for carry in carries:  # played in 4.2 s, each carry lasts its floor
        assert carry.get_run_time() * 4.2 / 8.0 >= 0.6 - 1e-9
    assert len({round(lead.get_run_time(), 9) for lead in leads}) == 1  # shares kept


def test_fit_floors_changes_nothing_without_room_or_floors() -> None:
    """Floors that alone need the whole time, or no floor at all: the times stay."""
    tight = [at_least(Wait(run_time=1.0), 0.6), Wait(run_time=1.0)]
    fit_floors(tight, 0.5)
    plain = [Wait(run_time=1.0), Wait(run_time=3.0)]
    fit_floors(plain, 0.5)
    assert [m.get_run_time() for m in tight + plain] == [1.0, 1.0, 1.0, 3.0]
