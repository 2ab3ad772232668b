"""Cards played blind (``tricks.blind``): :class:`BlindPlay`, the trick play of a tricks
step whose ``blind`` condition may hold.

When ``blind`` holds for the player to play, read at each of his turns, he has no
decision: the engine plays for him a card drawn at random among his legal cards (the
match's next random event, so that a replay from the seed and the log plays the same
card), records a ``blind`` event and goes on to the next player.  A spec without
``blind`` compiles to its usual trick play: it pays nothing for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import CARD
from .card_play import CardPlay
from .steps import Fn

if TYPE_CHECKING:
    from .state import State


class BlindPlay(CardPlay):
    """A :class:`~spelbok.engine.card_play.CardPlay` that plays a random legal card for
    each player to whom ``blind`` applies (see the module)."""

    # set by the compiler after construction: a compiled subclass whose __init__ passes
    # *args on to the base's leaves the base's attributes unset
    blind: Fn

    def run(self, st: State) -> bool:
        if CardPlay.run(self, st):
            return True  # the step's tricks are over
        seat = st.current
        assert seat is not None
        if not self.blind(st, seat):
            return False  # he decides
        cards = [a for a in self.legal(st) if a.kind == CARD]
        if not cards:
            return False
        a = cards[st.random_below(len(cards))] if len(cards) > 1 else cards[0]
        if st.rec is not None:
            st.event("blind", seat=seat, card=str(a))
        self.apply(st, seat, a)
        st.current = None
        return True  # the step loop runs on (the next player, or the trick's end)

    def apply(self, st: State, seat: int, a: Any) -> bool:
        more = CardPlay.apply(self, st, seat, a)
        nxt = st.current
        if more and nxt is not None and self.blind(st, nxt):
            return False  # the step loop plays the next card (run)
        return more
