"""Card identities and notation.

A card is an int ``suit * 13 + rank`` with suits C S H D = 0..3 and ranks
2..A = 0..12.  A set of cards is a bitmask int.  Notation is rank then suit
letter (``10H``, ``JC``); suit symbols ♣ ♠ ♥ ♦ are accepted on input.

>>> card_id("10H"), card_name(card_id("j♣"))
(34, 'JC')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SUITS = "CSHD"
SUIT_SYMBOLS = "♣♠♥♦"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
for _i, _sym in enumerate(SUIT_SYMBOLS):
    SUIT_INDEX[_sym] = _i
COLOUR = (0, 0, 1, 1)  # clubs/spades black, hearts/diamonds red
NO_SUIT = -1

CARD_NAMES = tuple(r + s for s in SUITS for r in RANKS)
CARD_SYMBOLS = tuple(r + s for s in SUIT_SYMBOLS for r in RANKS)


def normalize_rank(text: str | int) -> str | None:
    """Canonical rank text, or None.  Accepts ``t``/``T`` for ten and ints.

    >>> normalize_rank(10), normalize_rank("k"), normalize_rank("1")
    ('10', 'K', None)
    """
    t = str(text).strip().upper()
    if t == "T":
        t = "10"
    return t if t in RANK_INDEX else None


def parse_card(text: str) -> int | None:
    """Card id for notation like ``10H``, ``jc``, ``J♣``; None when not a card."""
    t = str(text).strip()
    if len(t) < 2:
        return None
    suit = SUIT_INDEX.get(t[-1].upper())
    rank = normalize_rank(t[:-1])
    if suit is None or rank is None:
        return None
    return suit * 13 + RANK_INDEX[rank]


def card_id(text: str) -> int:
    """Like :func:`parse_card` but raises ValueError for a non-card."""
    c = parse_card(text)
    if c is None:
        raise ValueError(f"not a card: {text!r}")
    return c


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def card_symbol(card: int) -> str:
    return CARD_SYMBOLS[card]


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_in(mask: int) -> Iterator[int]:
    """Card ids in a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def names(mask: int) -> list[str]:
    return [CARD_NAMES[c] for c in cards_in(mask)]
