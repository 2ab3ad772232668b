"""Dealing: ``deal`` (packets in turn, a widow) and ``turn_up`` (a card shown, which
may name trump), each step's instructions beside its compile step."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import cards_in
from ..lang import vocabulary as _v
from ..limits import MAX_CARDS
from .order import NO_TRUMP
from .steps import UNSET, Fn, Instr, Path, const, fixed

if TYPE_CHECKING:
    from .compiler import Compiler
    from .state import State


class Deal(Instr):
    """Deal packets in turn from the dealer's left; a widow (spare hand) is dealt last in each round."""

    def __init__(self, size: Fn, packets: list[int], to: Fn | None, widow: Fn | None = None,
                 where: str = "") -> None:
        self.size = size
        self.where = where  # the step's location, for a deal the stock cannot serve
        k = fixed(size)
        self.fixed_size = None if k is UNSET else max(0, int(k))
        self.packets = packets
        self.to = to  # None: every seat still in
        self.widow = widow
        self.plans: dict[Any, list[int]] = {}

    def _plan(self, need: list[int], total: int) -> list[int]:
        """For each of the top ``total`` cards, top first, the index of its recipient:
        packets in turn, round after round, until every need is met or the stock
        runs out."""
        need = list(need)
        packets = self.packets
        seq: list[int] = []
        i = 0
        while len(seq) < total:
            k = packets[i % len(packets)]
            i += 1
            for j in range(len(need)):
                take = min(k, need[j], total - len(seq))
                seq += [j] * take
                need[j] -= take
        return seq

    def run(self, st: State) -> bool:
        to = self.to
        seats = st.prog.rot[(st.dealer + 1) % st.n]
        out = st.out
        if to is not None:
            order: Any = [p for p in seats if to(st, p)]
        elif True in out:
            order = [p for p in seats if not out[p]]
        else:
            order = seats  # everyone is in
        stock = st.stock
        k = self.fixed_size
        if k is not None and self.widow is None:
            # the usual deal: the same number of cards to each seat
            total = k * len(order)
            if total > len(stock):
                return self.short(st)
            key: Any = len(order) * 4096 + total
            plan = self.plans.get(key)
            if plan is None:
                plan = self.plans[key] = self._plan([k] * len(order), total)
        else:
            size_fn = self.size
            need = [k] * len(order) if k is not None else [
                max(0, int(size_fn(st, p))) for p in order]
            if self.widow is not None:
                order = [*order, -1]
                need.append(max(0, int(self.widow(st, 0))))
            total = sum(need)
            if total > len(stock):
                return self.short(st)
            key = (tuple(need), total)
            plan = self.plans.get(key)
            if plan is None:
                plan = self.plans[key] = self._plan(need, total)
        if total:
            bit = _BIT
            got = [0] * len(order)
            for j, c in zip(plan, st.take(total), strict=True):
                got[j] |= bit[c]
            hands = st.hands
            for p, m in zip(order, got):
                if p < 0:
                    st.widow |= m
                else:
                    hands[p] |= m
        if st.rec is not None:
            pack = st.prog.pack
            st.event("deal", dealer=st.dealer, hands=[pack.names_of(h) for h in st.hands],
                     widow=pack.names_of(st.widow))
        st.pc += 1
        return True

    def short(self, st: State) -> bool:
        """A deal the stock cannot make (its size read a variable: the structural checks
        catch every deal whose sizes are known before play): never short hands, and never
        an error in play (validate's promise): the match ends there, cut short as by its
        bound on hands (``limit_reached``)."""
        st.prog.finish(st, limit=True)
        return True


_BIT = tuple(1 << c for c in range(MAX_CARDS))

class TurnUp(Instr):
    def __init__(self, sets_trump: Fn) -> None:
        self.sets_trump = sets_trump
        v = fixed(sets_trump)
        self.always = v is True  # the turn-up always names trump: no formula to ask

    def run(self, st: State) -> bool:
        if st.stock:
            card = st.take(1)[0]
            st.turn_up.append(card)
            if self.always or self.sets_trump(st, 0):
                suit = st.prog.pack.suit[card]
                st.prog.set_trump(st, suit if suit >= 0 else NO_TRUMP)  # a joker: no trump
            if st.rec is not None:
                st.event("turn_up", card=st.prog.pack.names[card], trump=st.trump_letter())
        st.pc += 1
        return True


class TurnUpHand(TurnUp):
    """``turn_up: {from: dealer}``: a card of the dealer's hand, drawn at random (as good
    as the last he was dealt), is shown to all; it stays in his hand, publicly known."""

    def run(self, st: State) -> bool:
        seat = st.dealer
        hand = st.hands[seat]
        if hand:
            cards = list(cards_in(hand))
            card = cards[st.random_below(len(cards))]
            st.known[seat] |= 1 << card
            if self.always or self.sets_trump(st, 0):
                st.prog.set_trump(st, st.prog.pack.suit[card])
            if st.rec is not None:
                st.event("turn_up", card=st.prog.pack.names[card], trump=st.trump_letter(),
                         seat=seat)
        st.pc += 1
        return True


def compile_deal(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``deal`` step: one :class:`Deal` (sizes and the widow as formulas, fixed ones read
    once)."""
    d = step["deal"]
    p = (*path, "deal")
    code.append(Deal(
        c.number(d.get("size", "0"), (*p, "size"), True),
        [int(x) for x in d.get("packets", [1])] or [1],
        # None: every seat still in (the usual case, which needs no formula)
        c.formula(d["to"], (*p, "to"), True) if d.get("to", "not out") != "not out" else None,
        c.number(d["widow"], (*p, "widow"), False)
        if d.get("widow") not in (None, 0, "0") else None,
        c.where(p),
    ))


def compile_turn_up(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``turn_up`` step: :class:`TurnUp` from the stock, :class:`TurnUpHand` from the
    dealer's hand."""
    d = step["turn_up"]
    value = d.get("trump", True) if isinstance(d, dict) else True
    source = c.constant(d.get("from", "stock") if isinstance(d, dict) else "stock",
                        (*path, "turn_up", "from"), _v.words("turn_up", "from"))
    kind = TurnUpHand if source == "dealer" else TurnUp
    if isinstance(value, bool):
        code.append(kind(const(value)))
    else:  # a condition, e.g. on an option
        code.append(kind(c.formula(value, (*path, "turn_up", "trump"), False)))
