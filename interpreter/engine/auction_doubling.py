"""The auction's ``doubling: any_turn``: a double may come out of turn.

After each bid the bidder's opponents still in are asked in turn, before the next
player's own turn, whether they double it (each passes otherwise; such a pass is no
pass of the bidding). The next player himself is not asked first when he is an
opponent: his own turn offers the double. A double then closes the bidding as with
``doubling: closes``: only the doubled side speaks after it, each of its players once,
to redouble or pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .actions import Action
from .auction import A_DECLARER, A_DOUBLED, A_FLAGS, DOUBLE, F_DOUBLE, PASS, AuctionBid

if TYPE_CHECKING:
    from .state import State

#: the flags' bits from here: 1 + how many opponents the bid has asked so far (0: none)
F_ASK: Final = 16


class AnyTurnBid(AuctionBid):
    """Each bid or pass, with the opponents asked after each bid whether they double."""

    def asked(self, st: State, d: int) -> list[int]:
        """The opponents of ``d``'s bid to ask, in turn: all still in but the next bidder."""
        nxt = AuctionBid.next_bidder(self, st, d)
        side = self.rules.side
        return [p for p in st.prog.rot[st.prog.nxt[d]]
                if not st.off[p] and p != nxt and not side(st, p, d)]

    def legal(self, st: State) -> list[Action]:
        if st.auction[A_FLAGS] >> F_ASK:
            return [PASS, DOUBLE]  # asked out of turn: double the bid, or let it stand
        return AuctionBid.legal(self, st)

    def apply(self, st: State, seat: int, action: Action) -> bool:
        a = st.auction
        ask = a[A_FLAGS] >> F_ASK
        if ask:
            a[A_FLAGS] &= (1 << F_ASK) - 1
            if action != PASS:  # the double: the bidding closes but for the redouble
                return AuctionBid.apply(self, st, seat, action)
            st.public.append((seat, "bid", action))
            if st.rec is not None:
                st.event("decision", seat=seat, decision="bid", action=str(action))
            d = a[A_DECLARER]
            seats = self.asked(st, d)
            if ask < len(seats):
                a[A_FLAGS] |= (ask + 1) << F_ASK
                st.current = seats[ask]
                return True
            nxt = AuctionBid.next_bidder(self, st, d)  # the next player's own turn
            if nxt is not None:
                st.current = nxt
                return True
            st.current = None
            self.settle(st)
            return False
        going = AuctionBid.apply(self, st, seat, action)
        if (going and a[A_DECLARER] == seat and a[A_DOUBLED] == 0 and a[A_FLAGS] & F_DOUBLE
                and action != PASS):  # a bid: its opponents are asked first
            seats = self.asked(st, seat)
            if seats:
                a[A_FLAGS] |= 1 << F_ASK
                st.current = seats[0]
        return going


__all__ = ["AnyTurnBid"]
