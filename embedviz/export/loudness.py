"""Loudness for the web: ITU-R BS.1770 measurement, normalisation and a true-peak limiter.

Narration is normalised to about −16 LUFS integrated loudness (the usual
target for speech on the web) with true peaks at or below −1 dBTP, so that
clips sound alike and never clip after lossy encoding. numpy and scipy only
(scipy comes with manim).

The limit is kept by checking, not by hoping: lossy codecs change the
waveform, and their output can peak above their input (measured on Piper
narration limited to −2 dBTP: FFmpeg's AAC ``twoloop`` coder at 96 kb/s by
up to 4 dB in a loud vowel, its ``fast`` coder by up to 0.8 dB, Opus by
about 0.5 dB, and by 1.5 dB on clipped bursts), so :func:`fit_through_codec`
decodes what an encoder made, measures it, and limits harder and encodes
again until it fits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from embedviz.core.errors import EmbedvizError

__all__ = [
    "CODEC_PASSES",
    "RATE",
    "TARGET_LUFS",
    "TRUE_PEAK_CEILING",
    "TRUE_PEAK_MARGIN",
    "fade",
    "fit_through_codec",
    "integrated_loudness",
    "normalise",
    "true_peak_dbtp",
]

RATE = 48_000  # samples per second of every finished soundtrack
TARGET_LUFS = -16.0
TRUE_PEAK_CEILING = -1.0  # dBTP; the limiter aims a little below it
_LIMIT_AIM = -2.0  # lossy encoders overshoot a little
# A decoded track must peak this far under the ceiling as 4x oversampling reads it:
# 4x can read a few tenths of a dB low for content near a codec's top band, where
# finer oversampling (or a listener's DAC) finds the peak between the points.
TRUE_PEAK_MARGIN = 0.3
# Encode-and-measure passes before giving up (see fit_through_codec).
CODEC_PASSES = 5

Samples = npt.NDArray[np.float64]

# BS.1770-4 K-weighting at 48 kHz: a high shelf (head effects), then a high pass.
_SHELF = (
    np.array([1.53512485958697, -2.69169618940638, 1.19839281085285]),
    np.array([1.0, -1.69065929318241, 0.73248077421585]),
)
_HIGH_PASS = (np.array([1.0, -2.0, 1.0]), np.array([1.0, -1.99004745483398, 0.99007225036621]))
# Both as second-order sections, run in one pass (several times faster than two lfilters).
_K_WEIGHTING = np.array([np.concatenate(_SHELF), np.concatenate(_HIGH_PASS)])


def _as_samples(samples: npt.ArrayLike) -> Samples:
    return np.asarray(samples, dtype=np.float64).reshape(-1)


def integrated_loudness(samples: npt.ArrayLike, rate: int = RATE) -> float:
    """Measure integrated loudness (ITU-R BS.1770-4), in LUFS, of a mono signal.

    Parameters
    ----------
    samples
        Mono samples in [−1, 1].
    rate
        Samples per second; must be 48 000 (the filters are given for it).

    Returns
    -------
    float
        The gated loudness, or ``-inf`` for silence.
    """
    if rate != RATE:
        raise ValueError(f"loudness is measured at {RATE} Hz, not {rate}")
    x = _as_samples(samples)
    block, step = int(0.4 * rate), int(0.1 * rate)  # 400 ms blocks, 75% overlap
    if x.size < block:
        return float("-inf")
    # Each block is four 100 ms steps: sum the squares per step, then add four
    # neighbouring steps.
    per_step = _step_powers(x, step)
    per_block = block // step
    count = per_step.size - per_block + 1
    power = np.zeros(max(0, count))
    for k in range(per_block):
        power += per_step[k : k + count]
    power /= block
    with np.errstate(divide="ignore"):
        loud = -0.691 + 10 * np.log10(power)
    gated = power[loud > -70.0]  # absolute gate
    if gated.size == 0:
        return float("-inf")
    relative = -0.691 + 10 * np.log10(gated.mean()) - 10.0
    with np.errstate(divide="ignore"):
        kept = gated[-0.691 + 10 * np.log10(gated) > relative]
    return float(-0.691 + 10 * np.log10(kept.mean()))


def _step_powers(x: Samples, step: int) -> Samples:
    """Sum the squares of the K-weighted signal over each whole step of ``step`` samples.

    The filter runs over a few seconds at a time, its state carried from one
    piece to the next (the same numbers as one pass over the whole): a long
    described track filtered in one pass needed two fresh copies of its
    size, and touching that much new memory cost more than the filtering.
    """
    signal = _signal()
    steps = x.size // step
    found = np.empty(steps)
    state = np.zeros((_K_WEIGHTING.shape[0], 2))
    per_piece = 64  # steps per piece: 6.4 s
    for first in range(0, steps, per_piece):
        last = min(steps, first + per_piece)
        piece, state = signal.sosfilt(_K_WEIGHTING, x[first * step : last * step], zi=state)
        rows = piece.reshape(-1, step)
        found[first:last] = np.einsum("ij,ij->i", rows, rows)
    return found


# Oversampling by four, as scipy's resample_poly does it (its default Kaiser
# filter): no oversampled point can exceed the largest magnitude in reach of the
# filter times the largest sum of the filter's magnitudes over one phase. That
# bound lets quiet stretches (pauses, soft consonants) skip the oversampling.
_UP = 4
_REACH = 16  # input samples either side that reach an output (the filter: 10)
_HALO = 64  # input samples either side fed with each stretch (wider than the reach)
_BLOCK = 1024  # samples per block for the bound
_SHORT = 32  # samples per block for the finer bound inside a loud block (at least _REACH)


# Importing scipy.signal costs about 0.7 s; every embedviz command that imports
# the export modules (a silent render, a contact sheet) would pay it, so it is
# imported on first use.
def _signal() -> Any:
    from scipy import signal

    return signal


@cache
def _oversampling_filter() -> tuple[Samples, float]:
    """resample_poly's own filter for up=4, and the bound on its gain over one phase.

    Given as an array, the filter is used as is (bit for bit the same output)
    instead of being designed again on every call, which cost a quarter of
    the oversampling of a long narration.
    """
    taps = np.asarray(_signal().firwin(20 * _UP + 1, 1 / _UP, window=("kaiser", 5.0)))
    bound = float(max(np.abs(taps[p::_UP]).sum() * _UP for p in range(_UP)))
    return taps, bound


def _block_bounds(x: Samples) -> Samples:
    """Per block of :data:`_BLOCK` samples, a bound on its oversampled magnitudes."""
    count = -(-x.size // _BLOCK)
    full = x.size // _BLOCK
    # Largest and smallest per block, not abs(x): a long clip holds 10^8 samples.
    blocks = x[: full * _BLOCK].reshape(full, _BLOCK)
    core = np.zeros(count)
    heads, tails = np.zeros(count), np.zeros(count)
    if full:
        core[:full] = np.maximum(blocks.max(axis=1), -blocks.min(axis=1))
        heads[:full] = np.abs(blocks[:, :_REACH]).max(axis=1)
        tails[:full] = np.abs(blocks[:, -_REACH:]).max(axis=1)
    if count > full:
        rest = np.abs(x[full * _BLOCK :])
        core[full] = rest.max()
        heads[full], tails[full] = rest[:_REACH].max(), rest[-_REACH:].max()
    # An output is reached by input samples either side: the ends of the neighbours.
    reach = core.copy()
    reach[1:] = np.maximum(reach[1:], tails[:-1])
    reach[:-1] = np.maximum(reach[:-1], heads[1:])
    return reach * _oversampling_filter()[1] * (1 + 1e-9)


def _exact_peaks(x: Samples, start: int, stop: int) -> Samples:
    """Return the largest of each sample's four oversampled points, for start..stop."""
    lo, hi = max(0, start - _HALO), min(x.size, stop + _HALO)
    taps = _oversampling_filter()[0]
    up = np.abs(_signal().resample_poly(x[lo:hi], _UP, 1, window=taps))
    # The largest of each sample's four points, as strided maxima: the same
    # numbers as reshape(-1, 4).max(axis=1) in well under half the time.
    fine = np.maximum(np.maximum(up[0::4], up[1::4]), np.maximum(up[2::4], up[3::4]))
    return np.asarray(fine[start - lo : stop - lo], dtype=np.float64)


def _runs(indices: npt.NDArray[np.intp], gap: int) -> list[tuple[int, int]]:
    """Split sorted indices into runs whose neighbours are at most ``gap`` apart: (first, last)."""
    breaks = np.flatnonzero(np.diff(indices) > gap)
    firsts = indices[np.concatenate([[0], breaks + 1])]
    lasts = indices[np.concatenate([breaks, [indices.size - 1]])]
    return [(int(a), int(b)) for a, b in zip(firsts, lasts, strict=True)]


def _peaks_above(x: Samples, above: float) -> Iterator[tuple[int, Samples]]:
    """Yield (start, peaks) for every stretch whose oversampled peaks may exceed ``above``.

    Oversampling by four shows the peaks between samples. A block whose bound
    is at or below ``above`` cannot peak above it and is skipped; the rest are
    oversampled in stretches of at most 2**18 samples, with a halo wider than
    the filter, so that a long clip never needs four times its memory at once.
    ``peaks[k]`` is the largest of the four points of sample ``start + k``.
    """
    if x.size == 0:
        return
    hot = np.flatnonzero(_block_bounds(x) > above)
    if hot.size == 0:
        return
    for first, last in _runs(hot, 1):
        start, stop = first * _BLOCK, min(x.size, (last + 1) * _BLOCK)
        for piece in range(start, stop, 1 << 18):
            yield piece, _hot_peaks(x, piece, min(piece + (1 << 18), stop), above)


def _hot_peaks(x: Samples, start: int, stop: int, above: float) -> Samples:
    """:func:`_exact_peaks` for start..stop where a peak may exceed ``above``, else 0.

    The block bound again, in blocks of :data:`_SHORT` samples: loud speech
    is loud only near the tops of its waves, so much of a loud block cannot
    exceed ``above``, and is given as 0 (no caller's answer changes: each
    reads only peaks above ``above``, or the largest). The short blocks that
    can, each with its neighbours, are laid end to end and oversampled in
    one call. A point depends only on the input within the
    filter's reach (10 samples), all of it real signal (or zeros past the
    signal's ends, as the filter sees there), summed in the same order, so
    each computed peak is the same to the last bit as :func:`_exact_peaks`
    gives (tests/test_loudness.py compares them).
    """
    # The piece in short blocks, with a block of zeros before it and at least
    # one after (zeros past the signal's ends, as the filter sees there).
    lo = start - _SHORT
    hi = lo + -(-(stop - lo + _SHORT) // _SHORT) * _SHORT
    near = np.zeros(hi - lo)
    near[max(0, lo) - lo : min(x.size, hi) - lo] = x[max(0, lo) : min(x.size, hi)]
    tops = np.abs(near).reshape(-1, _SHORT).max(axis=1)
    # A block's samples reach no farther than its neighbours (the reach is shorter).
    reach = tops.copy()
    reach[1:] = np.maximum(reach[1:], tops[:-1])
    reach[:-1] = np.maximum(reach[:-1], tops[1:])
    hot = reach * (_oversampling_filter()[1] * (1 + 1e-9)) > above
    hot[0] = hot[-1] = False  # zeros around the piece: none of its own
    if not hot.any():
        return np.zeros(stop - start)
    # What the hot blocks' points are made of: the blocks either side too.
    kept = hot.copy()
    kept[1:] |= hot[:-1]
    kept[:-1] |= hot[1:]
    kept, hot = np.repeat(kept, _SHORT), np.repeat(hot, _SHORT)
    taps = _oversampling_filter()[0]
    up = np.abs(_signal().resample_poly(near[kept], _UP, 1, window=taps))
    fine = np.maximum(np.maximum(up[0::4], up[1::4]), np.maximum(up[2::4], up[3::4]))
    peaks = np.zeros(hi - lo)
    peaks[hot] = fine[(np.cumsum(kept) - 1)[hot]]
    return peaks[_SHORT : _SHORT + stop - start]


def true_peak_dbtp(samples: npt.ArrayLike) -> float:
    """Return the true peak (4× oversampled, as in BS.1770-4 Annex 2), in dBTP.

    Parameters
    ----------
    samples
        Mono samples in [−1, 1].

    Returns
    -------
    float
        ``20·log10`` of the largest oversampled magnitude; ``-inf`` for silence.
    """
    x = _as_samples(samples)
    if x.size == 0:
        return float("-inf")
    # The loudest block's peak first: then only blocks that could beat it are read.
    bounds = _block_bounds(x)
    first = int(np.argmax(bounds)) * _BLOCK
    peak = float(np.max(_exact_peaks(x, first, min(x.size, first + _BLOCK))))
    for _, peaks in _peaks_above(x, peak):
        peak = max(peak, float(np.max(peaks)))
    return 20 * float(np.log10(peak)) if peak > 0 else float("-inf")


class _ScaledPeaks:
    """The oversampled peaks of one signal, read once, at whatever gain it is later given.

    Oversampling is linear: the signal times ``g`` peaks at ``g`` times its
    peaks. Normalising tries a few gains in turn; each reads the stretches
    kept here instead of oversampling again. They are read for a gain 1 dB
    above the first one asked for (a later pass usually gains a little
    more), and read again only if a pass goes beyond it.
    """

    _HEADROOM = 10 ** (1 / 20)

    def __init__(self, x: Samples) -> None:
        self.x = x
        self.most = 0.0  # the largest gain the kept stretches serve
        self.stretches: list[tuple[int, Samples]] = []

    def above(self, gain: float, ceiling: float) -> list[tuple[int, Samples]]:
        """Every stretch of ``gain · x`` whose peaks may exceed ``ceiling``, with those peaks."""
        if gain > self.most:
            self.most = gain * self._HEADROOM
            self.stretches = list(_peaks_above(self.x, ceiling / self.most))
        return [(start, peaks * gain) for start, peaks in self.stretches]


def _limit(
    x: Samples,
    ceiling_db: float,
    rate: int,
    stretches: Iterable[tuple[int, Samples]] | None = None,
    *,
    in_place: bool = False,
    touched: list[tuple[int, int]] | None = None,
) -> Samples:
    """Lower the gain smoothly (5 ms) around every true peak above the ceiling.

    ``stretches`` are ``x``'s oversampled peaks where they may exceed the
    ceiling (:func:`_peaks_above`), when already known. ``in_place`` limits
    ``x`` itself: copying a long described track cost as much as limiting it.
    ``touched``, if given, receives each ``(start, stop)`` range changed.
    """
    from scipy import ndimage

    ceiling = 10 ** (ceiling_db / 20)
    out = x if in_place else x.copy()
    # Only samples whose oversampled peak is above the ceiling need less than 1.
    places: list[npt.NDArray[np.intp]] = []
    needs: list[Samples] = []
    for start, peaks in _peaks_above(x, ceiling) if stretches is None else stretches:
        loud = np.flatnonzero(peaks > ceiling)
        places.append(start + loud)
        needs.append(ceiling / peaks[loud])
    over = np.concatenate(places) if places else np.zeros(0, dtype=np.intp)
    if over.size == 0:
        return out
    need_over = np.concatenate(needs)
    width = int(0.005 * rate) | 1
    # A moving minimum, then a moving average of the same width, stays at or
    # below what every sample needs and has no steps (so no clicks). Both are 1
    # farther than one width from every sample that needs less, so they are
    # worked out only around those, each stretch with a width to spare.
    for first, last in _runs(over, 2 * width):
        start, stop = max(0, first - width), min(x.size, last + width + 1)
        lo, hi = max(0, start - width), min(x.size, stop + width)
        need = np.ones(hi - lo)
        left, right = np.searchsorted(over, [lo, hi])
        need[over[left:right] - lo] = need_over[left:right]
        floor = ndimage.minimum_filter1d(need, width, mode="nearest")
        gain = ndimage.uniform_filter1d(floor, width, mode="nearest")
        keep = np.minimum(gain, need)[start - lo : stop - lo]
        out[start:stop] = x[start:stop] * keep
        if touched is not None:
            touched.append((start, stop))
    return out


def _peak_over(x: Samples, touched: Sequence[tuple[int, int]], ceiling: float) -> float:
    """How far (dB) a limited signal's true peak is over ``ceiling``; 0 if it is not.

    Only what the limiter changed can peak over it: every other oversampled
    point is the unlimited signal's, which the limiter left alone because it
    was at or under the ceiling. So only the changed ranges, and the filter's
    reach around them, are oversampled again.
    """
    peak = 0.0
    for start, stop in touched:
        near = _exact_peaks(x, max(0, start - _REACH), min(x.size, stop + _REACH))
        peak = max(peak, float(near.max()))
    return max(0.0, 20 * float(np.log10(peak / ceiling))) if peak > 0 else 0.0


def fit_through_codec(
    samples: npt.ArrayLike,
    round_trip: Callable[[Samples], npt.ArrayLike],
    rate: int = RATE,
    ceiling: float = TRUE_PEAK_CEILING,
    margin: float = TRUE_PEAK_MARGIN,
    passes: int = CODEC_PASSES,
    measured: Callable[[float], None] | None = None,
) -> Samples:
    """Limit a mono signal until its encoded and decoded form peaks under the ceiling.

    Each pass encodes and decodes the signal with ``round_trip`` and measures
    the decoded true peak. If the first is above ``ceiling - margin``, the
    limiter's aim is lowered by the overshoot (and 0.1 dB more), the original
    signal is limited to that aim (and, should that lower its loudness,
    brought back to the loudness it had), and the next pass encodes it again.
    If that is still over, the decoded peak stands where the input peaked
    under the aim (a codec's overshoot can rise anywhere), so limiting harder
    would miss it: the input is lowered smoothly (5 ms) around each place
    where its decoded form is over (aiming the overshoot lower still: a codec
    follows a short dip only in part), for as long as that lowers the decoded
    peak. Both touch only peaks, so for speech the
    loudness stays put. Once a pass fails to lower the decoded peak, each
    further pass lowers the whole signal by what is left over instead, which
    costs as much loudness.

    Why a bounded number of passes is enough: for speech, a codec's overshoot
    past its input's peaks barely depends on where the limiter aims, so the
    second pass fits (on Piper narration: one or two AAC passes, one Opus
    pass, in every run measured). Material whose overshoot grows as it is
    limited (hard-clipped bursts) is lowered as a whole, which a codec at a
    fixed bit rate follows closely. A track that still does not fit is an
    error, never a file written over the limit.

    Parameters
    ----------
    samples
        Mono samples, already at their loudness.
    round_trip
        Encodes samples and returns them decoded (mono). The last call is made
        with the samples returned, so an encoder that writes a file as it goes
        leaves the fitting file behind.
    rate
        Samples per second.
    ceiling
        The highest true peak allowed after decoding, in dBTP.
    margin
        How far under the ceiling the 4x-oversampled peak must stay, in dB.
    passes
        The most encodes to try.
    measured
        Called with each pass's decoded true peak (dBTP), so that a caller
        that reports it need not oversample the decoded track again.

    Returns
    -------
    numpy.ndarray
        The samples whose round trip fits (unchanged if the first one does).

    Raises
    ------
    EmbedvizError
        If no pass fits.
    """
    original = _as_samples(samples)
    goal = ceiling - margin
    x = original
    peak = last = float("inf")
    for done in range(passes):
        decoded = _as_samples(round_trip(x))
        peak = true_peak_dbtp(decoded)
        if measured is not None:
            measured(peak)
        if peak <= goal:
            return x
        over = peak - goal + 0.1
        if done == 0:
            # First, limit the peaks harder, at the same loudness: most of a
            # codec's overshoot is at its input's peaks.
            aim = min(goal, true_peak_dbtp(x)) - over
            loudness = integrated_loudness(original, rate) if rate == RATE else -np.inf
            if np.isfinite(loudness):
                # Limiting hard can take loudness with it: gain back to where it was.
                x = _normalised(original, rate, loudness, aim)
            else:
                x = _limit(original, aim, rate)
        elif done == 1 or peak < last:
            # What is left over is where the decoded form peaks, which may be
            # where the input peaked under the limiter's aim (so limiting
            # harder missed it): lower the input there, and nowhere else.
            # Aimed at the goal less the overshoot: a codec follows a short
            # local dip only in part (Opus, 60 Hz bursts: by about half).
            near = _peaks_above(decoded[: x.size], 10 ** ((goal - over) / 20))
            x = _limit(x, goal - over, rate, near)
        else:
            # Lowering it there did not lower the decoded peak: the codec's
            # overshoot grows as it is limited (a hard-limited burst), and only
            # lowering the whole track helps: a codec at a fixed bit rate
            # scales with its input.
            x = x * 10 ** (-over / 20)
        last = peak
    raise EmbedvizError(
        f"the encoded narration still peaks at {peak:.2f} dBTP after {passes} passes "
        f"(the ceiling is {ceiling:g} dBTP)"
    )


def normalise(
    samples: npt.ArrayLike,
    rate: int = RATE,
    target: float = TARGET_LUFS,
    ceiling: float = TRUE_PEAK_CEILING,
) -> Samples:
    """Bring a mono signal to the target loudness with true peaks under the ceiling.

    Parameters
    ----------
    samples
        Mono samples.
    rate
        Samples per second (48 000).
    target
        Integrated loudness to reach, in LUFS.
    ceiling
        The highest true peak allowed, in dBTP; a limiter aims at least 1 dB
        below it, leaving room for AAC and Opus to overshoot (an encoder's
        output is then checked with :func:`fit_through_codec`).

    Returns
    -------
    numpy.ndarray
        The normalised samples (silence is returned unchanged).
    """
    return _normalised(_as_samples(samples), rate, target, min(_LIMIT_AIM, ceiling - 1.0))


def _normalised(x: Samples, rate: int, target: float, aim: float) -> Samples:
    """Gain to the target loudness and limit to the aim, in turn, until both hold."""
    loudness = integrated_loudness(x, rate)
    if not np.isfinite(loudness):
        return x
    source, peaks = x, _ScaledPeaks(x)
    gain_db = 0.0
    ceiling = 10 ** (aim / 20)
    # One array for every pass: a fresh one of a long track each time cost
    # more in new memory than the gain itself.
    x = np.empty_like(source)
    for _ in range(4):
        # Each pass limits the source at the new gain (not the last pass's
        # result again): the same oversampled peaks serve every pass.
        gain_db += target - loudness
        gain = 10 ** (gain_db / 20)
        np.multiply(source, gain, out=x)
        touched: list[tuple[int, int]] = []
        _limit(x, aim, rate, peaks.above(gain, ceiling), in_place=True, touched=touched)
        # Measured once per pass: the next pass gains from this same reading.
        loudness = integrated_loudness(x, rate)
        if abs(loudness - target) < 0.1:
            break
    # Never above the ceiling, even where the smoothed gain let a peak through.
    over = _peak_over(x, touched, ceiling)
    if over > 0:
        x *= 10 ** (-over / 20)  # this function's own array
    return x


def fade(samples: npt.ArrayLike, rate: int = RATE, seconds: float = 0.01) -> Samples:
    """Fade a clip in and out with raised-cosine ramps, so that joins do not click.

    Parameters
    ----------
    samples
        Mono samples.
    rate
        Samples per second.
    seconds
        Length of each ramp.

    Returns
    -------
    numpy.ndarray
        A faded copy.
    """
    x = _as_samples(samples).copy()
    n = min(int(seconds * rate), x.size // 2)
    if n > 0:
        ramp = 0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, n))
        x[:n] *= ramp
        x[-n:] *= ramp[::-1]
    return x
