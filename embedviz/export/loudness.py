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

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from scipy import ndimage, signal

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
    weighted = signal.lfilter(*_HIGH_PASS, signal.lfilter(*_SHELF, x))
    block, step = int(0.4 * rate), int(0.1 * rate)  # 400 ms blocks, 75% overlap
    if weighted.size < block:
        return float("-inf")
    squares = np.concatenate([[0.0], np.cumsum(weighted**2)])
    starts = np.arange(0, weighted.size - block + 1, step)
    power = (squares[starts + block] - squares[starts]) / block
    with np.errstate(divide="ignore"):
        loud = -0.691 + 10 * np.log10(power)
    gated = power[loud > -70.0]  # absolute gate
    if gated.size == 0:
        return float("-inf")
    relative = -0.691 + 10 * np.log10(gated.mean()) - 10.0
    with np.errstate(divide="ignore"):
        kept = gated[-0.691 + 10 * np.log10(gated) > relative]
    return float(-0.691 + 10 * np.log10(kept.mean()))


def _sample_peaks(x: Samples) -> Samples:
    """Return, per sample, the largest magnitude among its four oversampled points.

    Oversampling by four shows the peaks between samples. It runs in blocks
    (with a halo wider than the interpolation filter), so that a long clip
    never needs four times its memory at once.
    """
    block, halo = 1 << 18, 64
    peaks = np.empty(x.size)
    for start in range(0, x.size, block):
        stop = min(start + block, x.size)
        lo, hi = max(0, start - halo), min(x.size, stop + halo)
        up = np.abs(signal.resample_poly(x[lo:hi], 4, 1))
        # The largest of each sample's four points, as strided maxima: the same
        # numbers as reshape(-1, 4).max(axis=1) in well under half the time.
        fine = np.maximum(np.maximum(up[0::4], up[1::4]), np.maximum(up[2::4], up[3::4]))
        peaks[start:stop] = fine[start - lo : stop - lo]
    return peaks


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
    peak = float(np.max(_sample_peaks(_as_samples(samples)), initial=0.0))
    return 20 * float(np.log10(peak)) if peak > 0 else float("-inf")


def _limit(x: Samples, ceiling_db: float, rate: int) -> Samples:
    """Lower the gain smoothly (5 ms) around every true peak above the ceiling."""
    ceiling = 10 ** (ceiling_db / 20)
    peaks = _sample_peaks(x)
    need = np.minimum(1.0, ceiling / np.maximum(peaks, 1e-12))
    width = int(0.005 * rate) | 1
    # A moving minimum, then a moving average of the same width, stays at or
    # below what every sample needs and has no steps (so no clicks).
    floor = ndimage.minimum_filter1d(need, width, mode="nearest")
    gain = ndimage.uniform_filter1d(floor, width, mode="nearest")
    return np.asarray(x * np.minimum(gain, need), dtype=np.float64)


def fit_through_codec(
    samples: npt.ArrayLike,
    round_trip: Callable[[Samples], npt.ArrayLike],
    rate: int = RATE,
    ceiling: float = TRUE_PEAK_CEILING,
    margin: float = TRUE_PEAK_MARGIN,
    passes: int = CODEC_PASSES,
) -> Samples:
    """Limit a mono signal until its encoded and decoded form peaks under the ceiling.

    Each pass encodes and decodes the signal with ``round_trip`` and measures
    the decoded true peak. If it is above ``ceiling - margin``, the limiter's
    aim is lowered by the overshoot (and 0.1 dB more), the original signal is
    limited to that aim (and, should that lower its loudness, brought back to
    the loudness it had), and the next pass encodes it again. The limiter
    touches only the peaks, so for speech the loudness stays put. Once a
    harder limit fails to lower the decoded peak, each further pass lowers
    the whole signal by what is left over instead, which costs as much
    loudness.

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
    loudness = integrated_loudness(original, rate) if rate == RATE else float("-inf")
    x = original
    peak = last = float("inf")
    limiting = True
    for _ in range(passes):
        peak = true_peak_dbtp(_as_samples(round_trip(x)))
        if peak <= goal:
            return x
        over = peak - goal + 0.1
        # Limit harder while that lowers the decoded peak; once it does not,
        # the codec's overshoot grows with the limiting (a hard-limited burst),
        # and only lowering the whole track helps: a codec at a fixed bit rate
        # scales with its input.
        limiting = limiting and peak < last
        last = peak
        if limiting:
            aim = min(goal, true_peak_dbtp(x)) - over
            if np.isfinite(loudness):
                # Limiting hard can take loudness with it: gain back to where it was.
                x = _normalised(original, rate, loudness, aim)
            else:
                x = _limit(original, aim, rate)
        else:
            x = x * 10 ** (-over / 20)
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
    for _ in range(4):
        loudness = integrated_loudness(x, rate)
        if not np.isfinite(loudness):
            return x
        x = x * 10 ** ((target - loudness) / 20)
        x = _limit(x, aim, rate)
        if abs(integrated_loudness(x, rate) - target) < 0.1:
            break
    # Never above the ceiling, even if the last pass raised a peak.
    over = true_peak_dbtp(x) - aim
    return x * 10 ** (-over / 20) if over > 0 else x


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
