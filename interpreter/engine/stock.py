"""The stock and the other zones of cards: ``move`` (cards from zone to zone) and the
stock during play (``tricks`` key ``draw``): after each trick the winner, then
the other players in turn, draw a card from the stock while it lasts and is not closed
(``stock_closed``, settable: a decision's ``then`` closes it).  Rules that change once
the stock is closed or empty are trick rules reading ``stock_closed`` and ``talon``,
worked out as each trick starts.

The draw runs in a tricks step's after-trick part (where ``after_each`` runs, before
its steps): a tricks step without ``draw`` compiles without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import cards_in
from ..lang.model import STOCK_POSITIONS
from .steps import Fn, Instr, Path

if TYPE_CHECKING:
    from .compiler import Compiler
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


ZONES = ("hand", "widow", "stock", "turn_up", "discards", "laid_aside")


class Move(Instr):
    """Move cards between zones: a player's hand, the widow, the stock (talon),
    the turn-up and the discard pile.  ``count`` None moves every card of the source.

    Public knowledge follows the cards: cards taken from the turn-up are known
    to be in the taker's hand; cards from hidden zones stay hidden, unless ``face_up``
    (every seat sees them arrive: known in the taker's hand).  ``laid_aside`` is the
    ``for`` seat's own cards laid away face down (``State.discarded``, part of the
    discard pile), which only he sees.
    """

    def __init__(self, source: str, target: str, count: Fn | None, each: Fn | None,
                 position: str, face_up: bool = False) -> None:
        self.face_up = face_up
        self.from_zone = source
        self.to_zone = target
        self.position = position  # where cards moved to the stock go: shuffled, top or bottom
        self.count = count
        self.each = each

    def _take(self, st: State, seat: int, k: int | None) -> tuple[int, list[int]]:
        """Remove up to ``k`` cards (all if None) from the source: (mask, ordered list)."""
        src = self.from_zone
        if src in ("stock", "turn_up"):
            pile = st.stock if src == "stock" else st.turn_up
            n = len(pile) if k is None else min(k, len(pile))
            got = st.take(n) if src == "stock" else [pile.pop() for _ in range(n)]
            m = 0
            for c in got:
                m |= 1 << c
            return m, got
        if src == "hand":
            mask = st.hands[seat]
        elif src == "widow":
            mask = st.widow
        elif src == "laid_aside":
            mask = st.discarded[seat]
        else:
            mask = st.discards
        cards = list(cards_in(mask))
        if k is not None:
            cards = cards[:k]  # lowest ids first: deterministic
        m = 0
        for c in cards:
            m |= 1 << c
        if src == "hand":
            st.hands[seat] &= ~m
            st.known[seat] &= ~m
        elif src == "widow":
            st.widow &= ~m
        else:
            st.discards &= ~m
            for p in range(st.n):
                st.discarded[p] &= ~m
        return m, cards

    def _put(self, st: State, seat: int, m: int, cards: list[int]) -> None:
        dst = self.to_zone
        if dst == "hand":
            st.hands[seat] |= m
            if self.from_zone == "turn_up" or self.face_up:
                st.known[seat] |= m
            elif m:
                st.voids[seat] = 0  # unseen cards arrived: earlier voids no longer certain
        elif dst == "widow":
            st.widow |= m
        elif dst == "discards":
            st.discards |= m
            if self.from_zone == "hand":
                st.discarded[seat] |= m
        elif dst == "laid_aside":
            st.discards |= m
            st.discarded[seat] |= m
        elif dst == "stock":
            st.add_to_stock(cards, self.position)
        else:
            st.turn_up.extend(cards)

    def _one(self, st: State, seat: int) -> None:
        k = None if self.count is None else max(0, int(self.count(st, seat)))
        m, cards = self._take(st, seat, k)
        self._put(st, seat, m, cards)
        if st.rec is not None and m:
            data: dict[str, Any] = {"seat": seat, "source": self.from_zone,
                                    "target": self.to_zone, "cards": len(cards)}
            if self.from_zone == "turn_up" or self.face_up:  # everyone saw which cards they were
                data["shown"] = [st.prog.pack.names[c] for c in cards]
            if self.to_zone == "stock":
                data["position"] = self.position
            st.event("move", **data)

    def run(self, st: State) -> bool:
        if self.each is None:
            self._one(st, -1)
        else:
            for p in st.order_from(st.prog.nxt[st.dealer]):
                if self.each(st, p):
                    self._one(st, p)
        st.pc += 1
        return True


def compile_move(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``move`` step: cards from one zone to another, per seat with ``for``."""
    m = step["move"]
    p = (*path, "move")
    zones = ZONES
    source = c.constant(m.get("from", "stock"), (*p, "from"), zones)
    target = c.constant(m.get("to", "hand"), (*p, "to"), zones)
    each = step.get("for")
    count = m.get("count", "all")
    count_fn = None if count == "all" else c.formula(count, (*p, "count"), each is not None)
    each_fn = c.formula(each, (*path, "for"), True) if each is not None else None
    position = c.constant(m.get("position", STOCK_POSITIONS[0]), (*p, "position"),
                          STOCK_POSITIONS)
    face_up = bool(c.constant(m.get("face_up", False), (*p, "face_up"), (True, False)))
    code.append(Move(source, target, count_fn, each_fn, position, face_up))


__all__ = ["StockDraw", "Move", "ZONES", "compile_move"]
