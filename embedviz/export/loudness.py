"""Loudness for the web: ITU-R BS.1770 measurement, normalisation and a true-peak limiter.

Narration is normalised to about −16 LUFS integrated loudness (the usual
target for speech on the web) with true peaks at or below −1 dBTP, so that
clips sound alike and never clip after lossy encoding. numpy and scipy only
(scipy comes with manim).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from scipy import ndimage, signal

__all__ = [
    "RATE",
    "TARGET_LUFS",
    "TRUE_PEAK_CEILING",
    "fade",
    "integrated_loudness",
    "normalise",
    "true_peak_dbtp",
]

RATE = 48_000  # samples per second of every finished soundtrack
TARGET_LUFS = -16.0
TRUE_PEAK_CEILING = -1.0  # dBTP; the limiter aims a little below it
_LIMIT_AIM = -2.0  # lossy encoders overshoot a little

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
        fine = np.abs(signal.resample_poly(x[lo:hi], 4, 1)).reshape(-1, 4).max(axis=1)
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
        below it, leaving room for AAC and Opus to overshoot.

    Returns
    -------
    numpy.ndarray
        The normalised samples (silence is returned unchanged).
    """
    x = _as_samples(samples)
    aim = min(_LIMIT_AIM, ceiling - 1.0)
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
