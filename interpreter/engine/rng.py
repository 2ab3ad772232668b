"""Seeded randomness for matches.

A state never touches global randomness: each random event (a shuffle, a cut)
draws from a stream keyed by (match seed, event counter), so the state only
has to carry two ints, clones stay cheap, and a match replays exactly from
its seed.

>>> deck = list(range(52)); shuffle(deck, 7, 1); sorted(deck) == list(range(52))
True
"""

from __future__ import annotations

import sys
from array import array
from hashlib import blake2b, shake_128
from typing import Final

_MASK: Final = 0xFFFF_FFFF_FFFF_FFFF  # (1 << 64) - 1
# Names the way a seed becomes cards; logs carry it, so that a replay under a
# different shuffle says so instead of failing on the first card.
SHUFFLE = "shake128-fisher-yates-1"
_WORD = next(t for t in "ILH" if array(t).itemsize == 4)  # an unsigned 32-bit array code
_BIG_ENDIAN = sys.byteorder == "big"


def _key(seed: int, counter: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + counter * 0xBF58476D1CE4E5B9 + 1) & _MASK


def below(seed: int, counter: int, k: int) -> int:
    """A number in ``0..k-1`` for the ``counter``-th random event of a match.

    >>> below(7, 3, 4) == below(7, 3, 4) and 0 <= below(7, 3, 4) < 4
    True
    """
    x = int.from_bytes(blake2b(_key(seed, counter).to_bytes(8, "little"), digest_size=16).digest(),
                       "little")
    return x % k  # a 128-bit draw: the modulo bias is below 2**-120


def words(seed: int, counter: int, n: int) -> array:
    """``n`` 32-bit words of a SHAKE-128 stream of (seed, counter): one per swap of a shuffle."""
    w = array(_WORD, shake_128(_key(seed, counter).to_bytes(8, "little")).digest(4 * n))
    if _BIG_ENDIAN:  # the same shuffle on every machine
        w.byteswap()
    return w


def settle(cards: list[int], w: array, start: int, stop: int) -> None:
    """Run the Fisher-Yates swaps for positions ``start-1`` down to ``stop`` of ``cards``.

    The swap at position i draws from positions 0..i with word ``w[i]``, so
    doing the positions in several goes (only as far as cards are dealt)
    gives exactly the order a whole shuffle would.  Reducing a 32-bit word
    modulo at most 52 favours no position by more than 52 / 2**32 (about 1e-8).
    """
    for i in range(start - 1, stop - 1 if stop > 0 else 0, -1):
        j = w[i] % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def shuffle(cards: list[int], seed: int, counter: int) -> None:
    """Shuffle ``cards`` in place for the ``counter``-th random event of a match.

    Seeding a Mersenne Twister costs more than the whole shuffle, so the
    swaps read one 32-bit word each of a SHAKE-128 stream (see :func:`settle`).
    """
    settle(cards, words(seed, counter, len(cards)), len(cards), 0)
