"""Card order: effective suits and winning power, compiled into tables per trump.

For each possible trump (the pack's suits 0..3, and 4 for "no trump") the
tables give, card by card:

* ``suit[c]``  the effective suit used for following and leading
  (a permanent trump belongs to the trump suit, unless it follows its printed suit);
* ``trump[c]`` whether the card wins as a trump (a top trump named outright is one
  under every trump, "no trump" included);
* ``power[c]`` its strength: trumps 100+ (top trumps highest), plain cards 1..13.

A trick's winner is the card with the highest *key*: its power if it is a
trump, its power if it is of the led suit, else 0 (the rule is
:func:`spelbok.engine.trick.key_of`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import (  # noqa: F401  (NO_TRUMP, resolve_top_trump: read here too)
    FRENCH,
    NO_TRUMP,
    Pack,
    resolve_top_trump,
)
from ..frozen import Frozen


@dataclass(frozen=True, slots=True)
class TrumpTables(Frozen):
    """Lookup tables for one trump choice (see module doc)."""

    suit: tuple[int, ...]
    trump: tuple[bool, ...]
    power: tuple[int, ...]
    suit_mask: tuple[int, ...]  # by suit, then the cards of no suit
    trump_mask: int
    top_mask: int
    # of two cards of equal key, which takes the trick (``ranking.equal_best``): 0 the
    # first played, 1 the later one, 2 neither: the trick is tied between sides
    # (:func:`spelbok.engine.trick.equal_best`)
    equal: int = 0
    # the cards that rule holds for (``ranking.equal_best_cards``; 0: every card): of two
    # other equal cards the first played keeps the trick
    equal_only: int = 0


def _powers(pack: Pack, ranks_high_to_low: list[str]) -> list[int]:
    """Each rank's power (by the pack's rank index) in an order, high to low: 1 for the
    lowest, 0 for a rank it leaves out."""
    n = len(ranks_high_to_low)
    order = {pack.rank_index[str(r).upper()]: n - i for i, r in enumerate(ranks_high_to_low)}
    return [order.get(r, 0) for r in range(len(pack.ranks))]


def _card_powers(pack: Pack, ranks: list[str], suit_ranks: dict[int, list[str]] | None,
                 trump_ranks: list[str] | None) -> tuple[list[int], list[int] | None]:
    """Each card's power as a plain card (its suit's order), and each rank's power in the
    trump suit when it has an order of its own (else None)."""
    base = _powers(pack, ranks)
    by_suit = [_powers(pack, suit_ranks[s]) if suit_ranks and s in suit_ranks else base
               for s in range(len(pack.letters))]
    # a card of no rank (an extra card) has power 0, as a rank an order leaves out
    plain = [0 if r < 0 else by_suit[s][r] if s >= 0 else base[r]
             for s, r in zip(pack.suit, pack.rank, strict=True)]
    return plain, (_powers(pack, trump_ranks) if trump_ranks else None)


def build_tables(
    deck_mask: int, ranks_high_to_low: list[str], top_trumps: list[str], top_follow_printed: bool,
    pack: Pack = FRENCH, suit_ranks: dict[int, list[str]] | None = None,
    trump_ranks: list[str] | None = None, top_low: bool = False,
) -> tuple[TrumpTables, ...]:
    """Tables for trumps C, S, H, D (the pack's suits) and no trump (index 4).

    A pack with fewer suits repeats the no-trump tables at the trump numbers it lacks;
    every copy of a top trump is one; a card of no suit has effective suit NO_TRUMP and is
    never a trump by its suit.  ``suit_ranks`` gives some suits (by index) an order of
    their own, ``trump_ranks`` the trump suit's order (both high to low).  With
    ``top_low`` (``ranking.top_trumps_place: low``) the top trumps rank below the trump
    suit, in their order, and above every plain card (powers 100 and down).

    >>> from spelbok.cards import parse_card
    >>> t = build_tables((1 << 52) - 1, "A K Q J 10 9 8 7 6 5 4 3 2".split(), [], False,
    ...                  suit_ranks={0: "K Q J A 2 3 4 5 6 7 8 9 10".split()},
    ...                  trump_ranks="J 9 A 10 K Q 8 7 6 5 4 3 2".split())
    >>> power = t[NO_TRUMP].power
    >>> power[parse_card("2C")] > power[parse_card("10C")], power[parse_card("2H")] > power[parse_card("10H")]
    (True, False)
    >>> t[2].power[parse_card("9H")] > t[2].power[parse_card("AH")] > t[2].power[parse_card("KH")]
    True
    """
    size = pack.size
    nsuits = len(pack.letters)
    plain_power, as_trump = _card_powers(pack, ranks_high_to_low, suit_ranks, trump_ranks)
    printed = [s if s >= 0 else NO_TRUMP for s in pack.suit]
    out = []
    for t in range(5):
        if NO_TRUMP > t >= nsuits:
            t = NO_TRUMP
        suit = list(printed)
        is_trump = [t != NO_TRUMP and printed[c] == t for c in range(size)]
        power = list(plain_power)
        if t != NO_TRUMP:
            for c in range(size):
                if is_trump[c]:
                    power[c] = 100 + (plain_power[c] if as_trump is None or pack.rank[c] < 0
                                      else as_trump[pack.rank[c]])
        top_mask = 0
        # a top trump named outright is one whatever the trump, "no trump" included (then
        # the top trumps are the only trumps, and their suit the one of no suit); a relative
        # one (J@trump) names no card without a trump suit
        k = len(top_trumps)
        for i, entry in enumerate(top_trumps):
            found = resolve_top_trump(entry, t, pack)
            if found is None:
                continue
            for c in range(size):  # every copy of it
                if pack.face[c] != found or not (deck_mask >> c) & 1:
                    continue
                if (top_mask >> c) & 1:
                    continue  # named again (AH, then A@trump in hearts): its first place holds
                top_mask |= 1 << c
                is_trump[c] = True
                power[c] = 100 - i if top_low else 200 + (k - i)
                if not top_follow_printed:
                    suit[c] = t
        suit_mask = [0, 0, 0, 0, 0]
        trump_mask = 0
        for c in range(size):
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
                tuple(suit_mask),
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
                       (sm[0] & ~mask, sm[1] & ~mask, sm[2] & ~mask, sm[3] & ~mask,
                        sm[4] & ~mask),
                       t.trump_mask & ~mask, t.top_mask & ~mask, t.equal, t.equal_only)


def equal_cards(t: TrumpTables, groups: list[int], rule: int, only: int = 0) -> TrumpTables:
    """``t`` with the cards of each mask of ``groups`` of equal power, the highest of
    them (``ranking.equal_cards``), and the rule for equal best cards ``rule``
    (``ranking.equal_best``, :attr:`TrumpTables.equal`) for the cards of ``only``
    (``ranking.equal_best_cards``; 0: for every card).

    >>> from spelbok.cards import parse_card
    >>> t = build_tables((1 << 52) - 1, "A K Q J 10 9 8 7 6 5 4 3 2".split(), ["AC", "AH"], False)[4]
    >>> ac, ah = parse_card("AC"), parse_card("AH")
    >>> t.power[ac] > t.power[ah]
    True
    >>> e = equal_cards(t, [1 << ac | 1 << ah], 2)
    >>> e.power[ac] == e.power[ah] == t.power[ac], e.equal
    (True, 2)
    """
    power = list(t.power)
    for mask in groups:
        members = [c for c in range(len(power)) if (mask >> c) & 1]
        top = max((power[c] for c in members), default=0)
        for c in members:
            power[c] = top
    return TrumpTables(t.suit, t.trump, tuple(power), t.suit_mask, t.trump_mask, t.top_mask,
                       rule, only)
