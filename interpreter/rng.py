"""Seeded randomness for matches.

A state never touches global randomness: each random event (a shuffle, a cut)
draws from ``random.Random`` seeded by (match seed, event counter), so the
state only has to carry two ints, clones stay cheap, and a match replays
exactly from its seed.

>>> a = derive(7, 0); b = derive(7, 0); a.random() == b.random()
True
"""

from __future__ import annotations

import random

_MASK = (1 << 64) - 1


def derive(seed: int, counter: int) -> random.Random:
    """A fresh generator for the ``counter``-th random event of a match."""
    return random.Random((seed * 0x9E3779B97F4A7C15 + counter * 0xBF58476D1CE4E5B9 + 1) & _MASK)
