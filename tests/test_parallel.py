"""How beats are split into ranges for worker processes (no rendering here)."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from embedviz.inputs import prepared_storyboard
from embedviz.render.parallel import PER_BEAT_SECONDS, beat_ranges

_beat = st.builds(
    lambda run, hold: SimpleNamespace(run_time=run, duration=run + hold),
    st.floats(0.0, 20.0),
    st.floats(0.0, 20.0),
)


@given(st.lists(_beat, min_size=1, max_size=40), st.integers(1, 16), st.booleans())
def test_ranges_cover_every_beat_once_in_order(beats: list, workers: int, cfr: bool) -> None:
    ranges = beat_ranges(beats, workers, constant_frame_rate=cfr)
    assert len(ranges) == min(workers, len(beats))
    assert ranges[0][0] == 0
    assert ranges[-1][1] == len(beats)
    for (_, stop), (first, _) in itertools.pairwise(ranges):
        assert stop == first
    assert all(first < stop for first, stop in ranges)


@given(st.lists(_beat, min_size=1, max_size=40), st.integers(1, 16), st.booleans())
def test_no_range_costs_much_more_than_its_share(beats: list, workers: int, cfr: bool) -> None:
    def cost(beat: SimpleNamespace) -> float:
        return float(beat.duration if cfr else beat.run_time + PER_BEAT_SECONDS)

    ranges = beat_ranges(beats, workers, constant_frame_rate=cfr)
    share = sum(cost(b) for b in beats) / len(ranges)
    largest = max(cost(b) for b in beats)
    # Cutting at the nearest beat boundary misses a share by at most one beat,
    # on each side of the range.
    for first, stop in ranges:
        assert sum(cost(b) for b in beats[first:stop]) <= share + 2 * largest + 1e-9


def test_a_held_beat_costs_little_unless_every_tick_is_written() -> None:
    # One long still beat and many short moving ones: written once, the hold
    # is cheap, so it shares a range; at a constant rate it fills one alone.
    beats = [SimpleNamespace(run_time=0.5, duration=60.0)] + [
        SimpleNamespace(run_time=2.0, duration=3.0) for _ in range(10)
    ]
    assert beat_ranges(beats, 2) == [(0, 6), (6, 11)]
    assert beat_ranges(beats, 2, constant_frame_rate=True) == [(0, 1), (1, 11)]


def test_full_explainer_splits_into_ranges_of_its_beats() -> None:
    board = prepared_storyboard("FullExplainer", {}, environ={})
    beats = board.all_beats()
    ranges = beat_ranges(beats, 4)
    assert [stop - first for first, stop in ranges] != [len(beats), 0, 0, 0]
    assert sum(stop - first for first, stop in ranges) == len(beats)


def test_an_export_splits_a_clip_only_with_three_workers_free_for_it() -> None:
    from embedviz.export.site import MIN_BEAT_WORKERS, _beat_workers

    assert MIN_BEAT_WORKERS == 3
    assert [_beat_workers(jobs, 1) for jobs in (1, 2, 3, 16)] == [1, 1, 3, 16]
    assert [_beat_workers(16, clips) for clips in (1, 5, 6, 10)] == [16, 3, 1, 1]
