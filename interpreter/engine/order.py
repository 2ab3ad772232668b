"""Card order: effective suits and winning power, compiled into tables per trump.

For each possible trump (suits 0..3, and 4 for "no trump") the tables give,
card by card:

* ``suit[c]``  the effective suit used for following and leading
  (a permanent trump belongs to the trump suit, unless it follows its printed suit);
* ``trump[c]`` whether the card wins as a trump;
* ``power[c]`` its strength: trumps 100+ (top trumps highest), plain cards 1..13.

A trick's winner is the card with the highest *key*: its power if it is a
trump, its power if it is of the led suit, else 0 (the rule is
:func:`spelbok.engine.trick.card_key`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import COLOUR, RANK_INDEX, normalize_rank, parse_card
from ..frozen import Frozen

NO_TRUMP = 4


@dataclass(frozen=True, slots=True)
class TrumpTables(Frozen):
    """Lookup tables for one trump choice (see module doc)."""

    suit: tuple[int, ...]
    trump: tuple[bool, ...]
    power: tuple[int, ...]
    suit_mask: tuple[int, int, int, int]
    trump_mask: int
    top_mask: int


def resolve_top_trump(entry: str, trump: int) -> int | None:
    """The card id a top-trump entry names under ``trump`` (None if it names none).

    >>> resolve_top_trump("JC", 2), resolve_top_trump("J@trump", 2), resolve_top_trump("J@trump_colour", 2)
    (9, 35, 48)
    """
    if "@" in entry:
        rank_text, rel = entry.split("@", 1)
        rank = normalize_rank(rank_text)
        if rank is None or trump == NO_TRUMP:
            return None
        if rel == "trump":
            suit = trump
        elif rel == "trump_colour":
            suit = next(s for s in range(4) if s != trump and COLOUR[s] == COLOUR[trump])
        else:
            return None
        return suit * 13 + RANK_INDEX[rank]
    return parse_card(entry)


def build_tables(
    deck_mask: int, ranks_high_to_low: list[str], top_trumps: list[str], top_follow_printed: bool
) -> tuple[TrumpTables, ...]:
    """Tables for trumps C, S, H, D and no trump (index 4)."""
    plain_power = [0] * 52
    n = len(ranks_high_to_low)
    for i, r in enumerate(ranks_high_to_low):
        for s in range(4):
            plain_power[s * 13 + RANK_INDEX[r]] = n - i
    out = []
    for t in range(5):
        suit = [c // 13 for c in range(52)]
        is_trump = [t != NO_TRUMP and c // 13 == t for c in range(52)]
        power = list(plain_power)
        if t != NO_TRUMP:
            for c in range(52):
                if is_trump[c]:
                    power[c] = 100 + plain_power[c]
        top_mask = 0
        if t != NO_TRUMP:
            k = len(top_trumps)
            for i, entry in enumerate(top_trumps):
                found = resolve_top_trump(entry, t)
                if found is None or not (deck_mask >> found) & 1:
                    continue
                c = found
                top_mask |= 1 << c
                is_trump[c] = True
                power[c] = 200 + (k - i)
                if not top_follow_printed:
                    suit[c] = t
        suit_mask = [0, 0, 0, 0]
        trump_mask = 0
        for c in range(52):
            if not (deck_mask >> c) & 1:
                continue
            suit_mask[suit[c]] |= 1 << c
            if is_trump[c]:
                trump_mask |= 1 << c
        out.append(
            TrumpTables(
                tuple(suit),
                tuple(is_trump),
                tuple(power),
                (suit_mask[0], suit_mask[1], suit_mask[2], suit_mask[3]),
                trump_mask,
                top_mask,
            )
        )
    return tuple(out)


def strip_cards(t: TrumpTables, mask: int) -> TrumpTables:
    """``t`` with the cards of ``mask`` out of every suit and of the trumps, power 0: such
    a card never wins (its key is 0 in the one winner rule) and never has to follow."""
    trump = list(t.trump)
    power = list(t.power)
    m = mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        trump[c] = False
        power[c] = 0
        m ^= low
    sm = t.suit_mask
    return TrumpTables(t.suit, tuple(trump), tuple(power),
                       (sm[0] & ~mask, sm[1] & ~mask, sm[2] & ~mask, sm[3] & ~mask),
                       t.trump_mask & ~mask, t.top_mask & ~mask)
