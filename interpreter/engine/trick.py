"""The trick rules: which cards a player may play, and who wins a trick.

Everything here reads the per-trump tables of :mod:`spelbok.engine.order`, so the
same code serves permanent trumps, relative trumps and plain suit games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import SUITS
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
            return f"you must follow suit ({SUITS[led]})"
        return "you must head the trick (play a higher card of the suit)"
    if first:
        return "no trump may be played to the first trick by a player holding another card"
    if f.overtrump and st.best_trumped and t.trump[card] and _overtrump(st, hand) != hand:
        return "you must overtrump (play a trump higher than the trick's best)"
    beats = f.void_beat and _above(hand & t.trump_mask, t.power, st.best_key) != 0
    return "you must play a trump" + (" that beats the trick" if beats else "")


def card_key(st: State, card: int) -> int:
    """How strongly ``card`` bids for the current trick (0: it cannot win).

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
