"""A dummy in a ``tricks`` step (``tricks.dummy``, ``tricks.dummy_by``): a seat whose
hand is laid face up after the opening lead and whose cards another seat chooses
(a dummy, played by the declarer).

:class:`DummyPlay` is the play instruction of such a step.  The seat to act
(``State.current``: the game-AI interfaces' current player, the seat a bot or a
person is asked for) is the one who chooses; the card comes from the hand whose
turn it is in the trick (:func:`hand_seat`), under that hand's duties (following
suit, ...).  A step without a dummy compiles to :class:`TrickPlay` and pays
nothing for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import CARD, Action
from .steps import Fn
from .trick_play import TrickPlayEach

if TYPE_CHECKING:
    from .state import State

__all__ = ["DummyPlay", "hand_seat"]


class DummyPlay(TrickPlayEach):
    """Trick play with a dummy: the seats where ``dummy`` holds (the first, in seat
    order, of those still in) is the dummy; the first other seat where ``by`` holds
    plays its cards (none: the dummy plays its own).  Its hand is shown to every
    seat once the step's first card has been played (the opening lead)."""

    def __init__(self, abstain: Fn | None, abstain_word: str, allow: Fn | None,
                 refused: str, more: list[tuple[Fn, str]] | None, dummy: Fn,
                 by: Fn) -> None:
        super().__init__(abstain, abstain_word, allow, refused, more)
        self.dummy = dummy
        self.by = by

    def seats(self, st: State) -> tuple[int, int]:
        """The dummy and the seat that plays its cards now; (-1, -1) when there is none."""
        n = st.n
        d = -1
        for p in range(n):
            if not st.off[p] and self.dummy(st, p):
                d = p
                break
        if d < 0:
            return -1, -1
        for p in range(n):
            if p != d and not st.off[p] and self.by(st, p):
                return d, p
        return -1, -1

    def _act(self, st: State) -> None:
        """The hand to play is the dummy's: its controller acts."""
        cur = st.current
        if cur is not None:
            d, by = self.seats(st)
            if cur == d:
                st.current = by

    def run(self, st: State) -> bool:
        more = TrickPlayEach.run(self, st)
        if st.trick.order:
            self._act(st)
        return more

    def legal(self, st: State) -> list[Action]:
        actor = st.current
        tr = st.trick
        st.current = tr.order[tr.pos]
        try:
            return TrickPlayEach.legal(self, st)
        finally:
            st.current = actor

    def check(self, st: State, a: Action) -> str | None:
        actor = st.current
        tr = st.trick
        hand = st.current = tr.order[tr.pos]
        try:
            why = TrickPlayEach.check(self, st, a)
        finally:
            st.current = actor
        if why is not None and actor != hand and a.kind == CARD and \
                not (st.hands[hand] >> a.value) & 1:
            return f"{a} is not in the hand you play now: play a card of seat {hand}'s hand"
        return why

    def apply(self, st: State, seat: int, a: Action) -> bool:
        tr = st.trick
        more = TrickPlayEach.apply(self, st, tr.order[tr.pos], a)
        d, _ = self.seats(st)
        if d >= 0 and st.hands[d] & ~st.known[d]:  # the opening lead is made: dummy shown
            st.known[d] |= st.hands[d]
            if st.rec is not None:
                st.event("dummy", seat=d, cards=st.prog.pack.names_of(st.hands[d]))
        if more:
            self._act(st)
        return more


def hand_seat(st: State) -> int | None:
    """The seat whose card is played now: the seat to act, or, at a dummy's turn, the
    dummy (whose cards the seat to act chooses)."""
    cur = st.current
    if cur is None:
        return None
    ins = st.prog.code[st.pc]
    if type(ins) is DummyPlay:
        tr = st.trick
        if tr.order and tr.pos < len(tr.order):
            return tr.order[tr.pos]
    return cur
