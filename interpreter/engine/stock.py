"""The stock during play (``tricks`` keys ``draw`` and ``when_closed``): after each
trick the winner, then the other players in turn, draw a card from the stock while it
lasts and is not closed (``stock_closed``, settable: a decision's ``then`` closes it);
once it is closed or empty, the step's trick rules give way to ``when_closed``.

Both instructions run in a tricks step's after-trick part (between its tricks, where
``after_each`` runs), the rules also once before the first trick: a tricks step with
neither key compiles without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .steps import Fn, Instr
from .trick import TrickFlags

if TYPE_CHECKING:
    from .state import State

#: The trick rules a TrickFlags holds (``when_closed`` may change any of them).
_FLAGS = tuple(TrickFlags.__dataclass_fields__)


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


class StockRules(Instr):
    """Once the stock is closed or empty, the trick rules of ``when_closed``."""

    def __init__(self, rules: dict[str, Fn]) -> None:
        self.rules = rules  # rule name -> its condition (fixed, or over options)
        self.fns = list(rules.values())
        self.built: dict[tuple[bool, ...], TrickFlags] = {}

    def run(self, st: State) -> bool:
        if st.stock_closed or not st.stock:
            tf = st.tf
            key = tuple([bool(getattr(tf, k)) for k in _FLAGS] + [bool(f(st, 0)) for f in self.fns])
            closed = self.built.get(key)
            if closed is None:  # one TrickFlags per combination, built once
                values = dict(zip(_FLAGS, key, strict=False))
                values.update(zip(self.rules, key[len(_FLAGS):], strict=True))
                closed = self.built[key] = TrickFlags(**values)
            if closed is not tf:
                st.tf = closed
                st.legal_cache = None
        st.pc += 1
        return True


__all__ = ["StockDraw", "StockRules"]
