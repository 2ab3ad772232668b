"""The stock during play (``tricks`` key ``draw``): after each trick the winner, then
the other players in turn, draw a card from the stock while it lasts and is not closed
(``stock_closed``, settable: a decision's ``then`` closes it).  Rules that change once
the stock is closed or empty are trick rules reading ``stock_closed`` and ``talon``,
worked out as each trick starts.

The draw runs in a tricks step's after-trick part (where ``after_each`` runs, before
its steps): a tricks step without ``draw`` compiles without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .steps import Instr

if TYPE_CHECKING:
    from .state import State


class StockDraw(Instr):
    """The winner of the trick just played, then the others, draw one card each."""

    def run(self, st: State) -> bool:
        if not st.stock_closed and st.stock and st.last_winner >= 0:
            part = st.participants
            for p in st.prog.rot[st.last_winner]:
                if not (part >> p) & 1:
                    continue
                if not st.stock:
                    break
                card = st.draw(1)
                st.hands[p] |= card
                st.voids[p] = 0  # an unseen card arrived: earlier voids no longer certain
                if st.rec is not None:
                    st.event("draw", seat=p, cards=1)  # face down: which card is hidden
        st.pc += 1
        return True


__all__ = ["StockDraw"]
