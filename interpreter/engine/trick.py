"""The trick: its options, which cards a player may play, who wins, and why a card
is refused.

* :class:`TrickFlags` the options of one ``tricks`` step;
* :func:`legal_cards` and :func:`refusal` what a player may play, and why not;
* :func:`card_key` the one winner rule: the trick goes to its highest key.

The instructions that play the tricks of a hand read these rules:
:mod:`spelbok.engine.trick_play` (:class:`TrickPlay`, with knocking),
:mod:`spelbok.engine.card_play` (the card-play mechanics a spec declares) and
:mod:`spelbok.engine.tricks` (the ``tricks`` step's compile step).

Everything here reads the per-trump tables of :mod:`spelbok.engine.order`, so the
same code serves permanent trumps, relative trumps and plain suit games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import cards_in
from ..frozen import Frozen

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True, slots=True)
class TrickFlags(Frozen):
    """The trick options of one ``tricks`` step, evaluated when it starts."""

    follow: bool = True
    head: bool = False
    head_after_trump: bool = False
    void_trump: bool = False
    void_beat: bool = False
    lead_broken: bool = False
    broken_any: bool = False  # any trump played breaks trumps, not only one played to another suit
    first_trick_trumps: bool = True
    abstain_lead: bool = True
    abstain_with_suit: bool = True
    overtrump: bool = False


def _above(mask: int, power: tuple[int, ...], target: int) -> int:
    """The cards of ``mask`` whose power exceeds ``target``."""
    out = 0
    m = mask
    while m:
        low = m & -m
        if power[low.bit_length() - 1] > target:
            out |= low
        m ^= low
    return out


def legal_cards(st: State, seat: int) -> int:
    """Mask of the cards ``seat`` may play to the current trick (before ``allow``)."""
    hand = st.hands[seat]
    t = st.tables
    f = st.tf
    trumps_count = f.first_trick_trumps or st.trick_no > 0
    led = st.led
    if led < 0:
        if not trumps_count or (f.lead_broken and not st.broken):
            plain = hand & ~t.trump_mask
            if plain:
                return plain
        return hand
    same = hand & t.suit_mask[led]
    if f.follow and same:
        if not f.head:
            if f.overtrump and same & t.trump_mask:  # a trump lead: follow with a higher trump
                return _above(same, t.power, st.best_key) or same
            return same
        if st.best_trumped:
            if not f.head_after_trump:
                return same
            target = st.best_led
        else:
            target = st.best_key
        beat = _above(same, t.power, target)
        return beat or same
    if not trumps_count:
        plain = hand & ~t.trump_mask
        return plain or hand
    if f.overtrump and st.best_trumped:
        hand = _overtrump(st, hand)
    if f.void_trump or f.void_beat:
        trumps = hand & t.trump_mask
        if trumps:
            if f.void_beat:
                beat = _above(trumps, t.power, st.best_key)
                if beat:
                    return beat
            if f.void_trump:
                return trumps
    return hand


def _duty_voids(st: State, c: int) -> int:
    """The suits ``c``, played by a hand without the suit led, shows it lacks by the duties
    of such a hand (:func:`legal_cards`): a trump to a first trick without trumps, the
    plain suits (it held nothing else); any other card under ``void_trump``, or under
    ``void_beat`` while every trump beats the trick, the suits made only of trumps (it
    held no trump).  Read before the card counts in the trick."""
    t = st.tables
    f = st.tf
    if not (f.first_trick_trumps or st.trick_no > 0):
        if not t.trump[c]:
            return 0
        out = 0
        for s in range(len(t.suit_mask)):
            m = t.suit_mask[s]
            if m and not m & t.trump_mask:
                out |= 1 << s
        return out
    if t.trump[c] or not (f.void_trump or _above(t.trump_mask, t.power, st.best_key) == t.trump_mask):
        return 0
    out = 0
    for s in range(len(t.suit_mask)):
        m = t.suit_mask[s]
        if m and m & t.trump_mask == m:
            out |= 1 << s
    return out


def played_cards(st: State) -> int:
    """The cards played to tricks this hand (the trick in progress included; face-down
    ones too: mask them with ``st.hidden`` for what the table saw)."""
    played = 0
    for _lead, cards, _w in st.history_tricks:
        for _p, c in cards:
            played |= 1 << c
    for _p, c in st.trick:
        played |= 1 << c
    return played


def _overtrump(st: State, hand: int) -> int:
    """``hand`` without its trumps below the trick's best trump, when it holds a higher one
    (the ``overtrump`` rule: a trump played to a trumped trick must beat it if it can)."""
    t = st.tables
    trumps = hand & t.trump_mask
    higher = _above(trumps, t.power, st.best_key)
    return hand & ~(trumps & ~higher) if higher else hand


def refusal(st: State, seat: int, card: int) -> str:
    """Why the trick options refuse ``card`` (in the hand, not in :func:`legal_cards`).

    Each reason mirrors the branch of :func:`legal_cards` that left the card out.
    """
    hand = st.hands[seat]
    t = st.tables
    f = st.tf
    first = not (f.first_trick_trumps or st.trick_no > 0)
    led = st.led
    if led < 0:  # only trumps are ever kept from the lead
        if first:
            return "no trump may be led to the first trick by a player holding another card"
        return "trumps may not be led until they are broken"
    if f.follow and hand & t.suit_mask[led]:
        if t.suit[card] != led:
            pack = st.prog.pack
            if led < len(pack.letters):
                return f"you must follow suit ({pack.letter(led)})"
            # led past the pack's suits: top trumps under no trump suit, or cards of no suit
            if any(t.trump[c] for c in cards_in(t.suit_mask[led])):
                return "you must follow suit (the top trumps led)"
            return "you must follow suit (the cards of no suit led)"
        if f.overtrump and not f.head and t.trump[card]:
            return "you must overtrump (play a trump higher than the trick's best)"
        return "you must head the trick (play a higher card of the suit)"
    if first:
        return "no trump may be played to the first trick by a player holding another card"
    if f.overtrump and st.best_trumped and t.trump[card] and _overtrump(st, hand) != hand:
        return "you must overtrump (play a trump higher than the trick's best)"
    beats = f.void_beat and _above(hand & t.trump_mask, t.power, st.best_key) != 0
    return "you must play a trump" + (" that beats the trick" if beats else "")


def card_key(st: State, card: int) -> int:
    """How strongly ``card`` bids for the current trick (0: it cannot win): the one
    winner rule, which the trick play and the bots both use.  The highest key wins.

    A trump's key is its power (100+, top trumps 200+); a card of the led
    suit its power; any other card 0.  In a first trick where trumps may not be
    played, a (forced) trump counts as a plain card.
    """
    t = st.tables
    if t.trump[card] and (st.tf.first_trick_trumps or st.trick_no > 0):
        return t.power[card]
    if t.suit[card] == st.led:
        return t.power[card]
    return 0
