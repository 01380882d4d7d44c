"""Jump an MT19937 ahead by any number of draws in logarithmic time.

MT19937 is linear over GF(2): one step maps its 19937-bit state ``s`` to
``A s`` for a fixed matrix ``A``, whose characteristic polynomial ``P`` has
degree 19937.  By Cayley-Hamilton ``A**n = g(A)`` where ``g = x**n mod P``,
so the state ``n`` steps on is ``sum(g_i * A**i s)``: the XOR of the states
at the times ``i`` where ``g`` has a term (Haramoto, Matsumoto, Nishimura,
Panneton and L'Ecuyer, "Efficient jump ahead for F2-linear random number
generators", 2008).  ``x**n mod P`` takes about ``log2(n)`` squarings, and
the states at times ``0 .. 19936`` are one short walk, so the cost does not
grow with ``n`` beyond its number of bits.

Here the state is read as MT19937's word sequence ``w``: the generator keeps
``w[t] .. w[t + 623]`` and makes each new word from ``w[t]``'s top bit and
``w[t + 1]``, ``w[t + 397]``.  So the 19937-bit state at time ``t`` is
``w[t]``'s top bit with ``w[t + 1] .. w[t + 623]``, and every later word is a
linear function of it.  Polynomials over GF(2) are Python ints, bit ``i``
the coefficient of ``x**i``.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numpy.typing import NDArray

__all__ = ["MTJumper", "characteristic_polynomial", "jump_mt19937", "x_power_mod"]

_WORDS = 624  # words of state numpy keeps, and outputs per twist
_DEGREE = 19937  # bits of real state: 623 words and one top bit
# Words of the sequence the jump reads: windows w[i + 1 .. i + 624] for every
# term x**i of a polynomial of degree below 19937, in whole twists.
_BASE_TWISTS = -(-(_DEGREE + _WORDS) // _WORDS)
# Windows XORed per numpy call: bounds the temporary (1024 x 624 words).
_WINDOW_BATCH = 1024
# Bits reduced per step of the remainder: 8 keeps the table at 256 entries.
_TABLE_BITS = 8


@cache
def characteristic_polynomial() -> int:
    """Return MT19937's characteristic polynomial over GF(2), as an int.

    It is found, not written down: the top output bit of any seeded MT19937
    is a linear recurring sequence whose minimal polynomial divides the
    characteristic polynomial, which is irreducible (the period
    ``2**19937 - 1`` is prime), so Berlekamp-Massey on ``2 * 19937`` of
    those bits yields it.

    Returns
    -------
    int
        The polynomial, bit ``i`` the coefficient of ``x**i`` (degree 19937).

    Raises
    ------
    RuntimeError
        If the recovered polynomial does not have degree 19937 (a numpy whose
        MT19937 is not the reference generator).
    """
    count = 2 * _DEGREE
    raw = np.random.MT19937(0).random_raw(count)
    bits = ((raw >> np.uint64(31)) & np.uint64(1)).astype(np.uint8)
    # Reversed, so that ``reversed_bits >> (count - 1 - i)`` has bit j = s[i - j].
    reversed_bits = int.from_bytes(np.packbits(bits[::-1], bitorder="little").tobytes(), "little")
    connection = _berlekamp_massey(reversed_bits, count)
    if connection.bit_length() != _DEGREE + 1:
        raise RuntimeError("MT19937's characteristic polynomial should have degree 19937")
    # s[i] = sum c_j s[i - j] is annihilated by x**L - sum c_j x**(L - j):
    # the connection polynomial read backwards.
    return int(bin(connection)[:1:-1], 2)


def _berlekamp_massey(reversed_bits: int, count: int) -> int:
    """Return the shortest connection polynomial of ``count`` bits over GF(2)."""
    current, previous = 1, 1
    length, gap = 0, 1
    for i in range(count):
        window = reversed_bits >> (count - 1 - i)
        if (current & window).bit_count() & 1 == 0:
            gap += 1
        elif 2 * length <= i:
            current, previous = current ^ (previous << gap), current
            length, gap = i + 1 - length, 1
        else:
            current ^= previous << gap
            gap += 1
    return current


@cache
def _reduction_table() -> tuple[int, ...]:
    """``b * x**19937`` together with its remainder mod P, for each byte ``b``.

    XORing entry ``b`` (shifted) clears a byte ``b`` above degree 19937 and
    adds what it is worth mod P.
    """
    poly = characteristic_polynomial()
    powers = []
    term = poly ^ (1 << _DEGREE)  # x**19937 mod P
    for _ in range(_TABLE_BITS):
        powers.append(term)
        term <<= 1
        if term >> _DEGREE:
            term ^= poly
    table = []
    for byte in range(1 << _TABLE_BITS):
        value = byte << _DEGREE
        for k in range(_TABLE_BITS):
            if byte >> k & 1:
                value ^= powers[k]
        table.append(value)
    return tuple(table)


def _reduce(value: int, table: tuple[int, ...]) -> int:
    """Return ``value mod P``, one byte of the part above degree 19937 at a time."""
    excess = value.bit_length() - _DEGREE
    if excess <= 0:
        return value
    mask = (1 << _TABLE_BITS) - 1
    shift = (excess - 1) // _TABLE_BITS * _TABLE_BITS
    while shift >= 0:
        # The bytes above this one are cleared already, so this is small.
        byte = (value >> (_DEGREE + shift)) & mask
        if byte:
            value ^= table[byte] << shift
        shift -= _TABLE_BITS
    return value


# Squaring over GF(2) spreads the bits: bit i moves to 2 i.
_SPREAD = np.array(
    [sum(((b >> k) & 1) << (2 * k) for k in range(8)) for b in range(256)], dtype="<u2"
)


def _square(value: int) -> int:
    data = np.frombuffer(value.to_bytes((value.bit_length() + 7) // 8 or 1, "little"), np.uint8)
    return int.from_bytes(_SPREAD[data].tobytes(), "little")


def x_power_mod(exponent: int) -> int:
    """Return ``x**exponent mod P`` over GF(2), ``P`` MT19937's polynomial.

    Parameters
    ----------
    exponent : int
        A non-negative exponent.

    Returns
    -------
    int
        The remainder, degree below 19937, bit ``i`` the coefficient of ``x**i``.
    """
    table = _reduction_table()
    result = 1
    # Left to right: square, then multiply by x (a shift) where the bit is set.
    for bit in bin(exponent)[2:]:
        result = _reduce(_square(result), table)
        if bit == "1":
            result = _reduce(result << 1, table)
    return result


class MTJumper:
    """Jumps from one MT19937 state to states any number of draws later.

    The walk every jump reads (about 20 000 words) is made once, so several
    jumps from the same start share it.

    Parameters
    ----------
    start : numpy.random.MT19937
        The generator to jump from; it is not changed.
    """

    def __init__(self, start: np.random.MT19937) -> None:
        walker = np.random.MT19937(0)
        walker.state = start.state
        # Draw up to the next twist, so that the jump works on whole twists
        # (numpy twists all 624 words when its position reaches 624).
        self._lead = _WORDS - int(walker.state["state"]["pos"])
        walker.random_raw(self._lead, output=False)
        self._start = walker.state
        words = [np.asarray(self._start["state"]["key"], dtype=np.uint32)]
        for _ in range(_BASE_TWISTS - 1):
            walker.random_raw(_WORDS, output=False)
            words.append(np.asarray(walker.state["state"]["key"], dtype=np.uint32))
        self._words = np.concatenate(words)

    def advanced(self, steps: int) -> np.random.MT19937:
        """Return a new MT19937 in the state ``steps`` draws after the start.

        Parameters
        ----------
        steps : int
            How many 32-bit draws (``random_raw`` values) to skip; ``>= 0``.

        Returns
        -------
        numpy.random.MT19937
            A fresh generator; ``random_raw`` on it continues the start's
            stream from draw ``steps`` on.

        Raises
        ------
        ValueError
            If ``steps`` is negative.
        """
        if steps < 0:
            raise ValueError(f"steps must be >= 0, got {steps}")
        if steps < self._lead:
            return self._rewound(steps)
        out = np.random.MT19937(0)
        out.state = self._start
        twists, rest = divmod(steps - self._lead, _WORDS)
        if twists:
            out.state = {
                "bit_generator": "MT19937",
                "state": {"key": self._key_after(twists * _WORDS), "pos": _WORDS},
            }
        out.random_raw(rest, output=False)
        return out

    def _rewound(self, steps: int) -> np.random.MT19937:
        """Return the start ``steps`` draws on, for jumps short of its next twist."""
        key = np.asarray(self._start["state"]["key"], dtype=np.uint32)
        walker = np.random.MT19937(0)
        # The lead drew without twisting, so the start had the same key at
        # an earlier position.
        walker.state = {
            "bit_generator": "MT19937",
            "state": {"key": key, "pos": _WORDS - self._lead},
        }
        walker.random_raw(steps, output=False)
        return walker

    def _key_after(self, words: int) -> NDArray[np.uint32]:
        """Return numpy's key after ``words`` more words (a multiple of 624, > 0)."""
        # The key is w[words .. words + 623]; w[words] is whole, so take the
        # 19937-bit state at time words - 1, whose words 1 .. 624 these are.
        poly = x_power_mod(words - 1)
        terms = np.flatnonzero(
            np.unpackbits(
                np.frombuffer(poly.to_bytes((_DEGREE + 7) // 8, "little"), np.uint8),
                bitorder="little",
            )
        )
        windows = np.lib.stride_tricks.sliding_window_view(self._words[1:], _WORDS)
        key = np.zeros(_WORDS, dtype=np.uint32)
        for first in range(0, terms.size, _WINDOW_BATCH):
            batch = windows[terms[first : first + _WINDOW_BATCH]]
            key ^= np.bitwise_xor.reduce(batch, axis=0)
        return key


def jump_mt19937(start: np.random.MT19937, steps: int) -> np.random.MT19937:
    """Return a new MT19937 ``steps`` draws on from ``start``, without drawing them.

    Equal, state and all, to copying ``start`` and calling
    ``random_raw(steps)`` on the copy, but in time that grows only with the
    number of bits of ``steps``.  The first call in a process also finds
    MT19937's characteristic polynomial (see :func:`characteristic_polynomial`).

    Parameters
    ----------
    start : numpy.random.MT19937
        The generator to jump from; it is not changed.
    steps : int
        How many 32-bit draws to skip; ``>= 0``.

    Returns
    -------
    numpy.random.MT19937
        A fresh generator in the advanced state.

    Raises
    ------
    ValueError
        If ``steps`` is negative.
    """
    return MTJumper(start).advanced(steps)
