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
    """Deal packets in turn from the dealer's left; a widow (spare hand) is dealt last in
    each round, or a packet after every ``widow_every`` packets to the players; after
    ``turn_up_after`` rounds a card is set aside for the turn-up (left on the stock's top)."""

    def __init__(self, size: Fn, packets: list[int], to: Fn | None, widow: Fn | None = None,
                 where: str = "", widow_packets: list[int] | None = None,
                 widow_every: int | None = None, turn_up_after: int | None = None) -> None:
        self.size = size
        self.where = where  # the step's location, for a deal the stock cannot serve
        k = fixed(size)
        self.fixed_size = None if k is UNSET else max(0, int(k))
        self.packets = packets
        self.to = to  # None: every seat still in
        self.widow = widow
        self.widow_packets = widow_packets or packets
        self.widow_every = widow_every
        self.turn_up_after = turn_up_after
        self.keep_last = False  # a turn-up from the dealer's hand follows: note his last card
        self.plans: dict[Any, list[int]] = {}

    def _plan(self, need: list[int], widow: int, aside: bool) -> list[int]:
        """For each card taken, top first, the index of its recipient (the players in
        order, then ``len(need)`` the widow, ``len(need) + 1`` the card set aside for the
        turn-up when ``aside``): packets in turn, round after round, until every need is
        met.

        >>> Deal(const(5), [3, 2], None, turn_up_after=1)._plan([5, 5], 0, True)
        [0, 0, 0, 1, 1, 1, 3, 0, 0, 1, 1]
        >>> Deal(const(3), [1], None, widow_packets=[1], widow_every=2)._plan([3, 3], 2, False)
        [0, 1, 2, 0, 1, 2, 0, 1]
        """
        need = list(need)
        n = len(need)
        packets, own, every = self.packets, self.widow_packets, self.widow_every
        seq: list[int] = []
        i = dealt = w = rounds = 0
        left = sum(need)
        while left or widow:
            k = packets[i % len(packets)]
            for j in range(n):
                take = min(k, need[j])
                if not take:
                    continue
                seq += [j] * take
                need[j] -= take
                left -= take
                dealt += 1
                if every is not None and widow and dealt % every == 0:
                    m = min(own[w % len(own)], widow)
                    seq += [n] * m
                    widow -= m
                    w += 1
            if widow and (every is None or not left):  # last in the round; or what is left
                m = min(own[i % len(own)], widow) if every is None and left else widow
                seq += [n] * m
                widow -= m
            i += 1
            rounds += 1
            if aside and rounds == self.turn_up_after and (left or widow):
                seq.append(n + 1)
        return seq

    def run(self, st: State) -> bool:
        to = self.to
        seats = st.prog.rot[st.prog.nxt[st.dealer]]
        out = st.off  # out of the match, or sitting this hand out
        if to is not None:
            order: Any = [p for p in seats if to(st, p)]
            if out is not st.out:  # a seat sitting the hand out gets no card, whatever `to` says
                order = [p for p in order if not out[p] or st.out[p]]
        elif True in out:
            order = [p for p in seats if not out[p]]
        else:
            order = seats  # everyone is in
        stock = st.stock
        k = self.fixed_size
        widow = 0 if self.widow is None else max(0, int(self.widow(st, 0)))
        if k is not None and not widow:
            # the usual deal: the same number of cards to each seat
            total = k * len(order)
            key: Any = len(order) * 4096 + total
            need = None
        else:
            need = [k] * len(order) if k is not None else [
                max(0, int(self.size(st, p))) for p in order]
            total = sum(need) + widow
            key = (tuple(need), widow)
        if total > len(stock):
            return self.short(st)
        # a card set aside for the turn-up, when the stock holds one more
        aside = self.turn_up_after is not None and total < len(stock)
        if aside:
            key = (key, True)
        plan = self.plans.get(key)
        if plan is None:
            plan = self.plans[key] = self._plan(
                [k or 0] * len(order) if need is None else need, widow, aside)
        if total:
            self._hand_out(st, order, plan, len(plan))
        return self.dealt(st)

    def dealt(self, st: State) -> bool:
        """The deal done: its event (the hands as dealt), and on to the next step."""
        if st.rec is not None:
            pack = st.prog.pack
            st.event("deal", dealer=st.dealer, hands=[pack.names_of(h) for h in st.hands],
                     widow=pack.names_of(st.widow))
        st.pc += 1
        return True

    def _hand_out(self, st: State, order: Any, plan: list[int], count: int) -> None:
        """The top ``count`` cards to their recipients as ``plan`` says: the players of
        ``order``, then the widow, then the card set aside (put back on the stock's top)."""
        n = len(order)
        bit = _BIT
        got = [0] * (n + 2)
        cards = st.take(count)
        for j, c in zip(plan, cards, strict=True):
            got[j] |= bit[c]
        hands = st.hands
        for p, m in zip(order, got):
            hands[p] |= m
        if got[n]:
            st.widow |= got[n]
        if got[n + 1]:
            st.add_to_stock([got[n + 1].bit_length() - 1], "top")
        if self.keep_last and n and order[-1] == st.dealer:
            last = len(plan) - 1 - plan[::-1].index(n - 1) if n - 1 in plan else -1
            st.dealt_last = cards[last] if last >= 0 else -1

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
    """``turn_up: {from: dealer}``: the last card dealt to the dealer (noted by the deals
    before this step, see :attr:`Deal.keep_last`) is shown to all; it stays in his hand,
    publicly known.  When that card is no longer his (or no deal gave him one), a card of
    his hand drawn at random stands for it."""

    def run(self, st: State) -> bool:
        seat = st.dealer
        hand = st.hands[seat]
        if hand:
            card = st.dealt_last
            if card < 0 or not (hand >> card) & 1:
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
    every, after = d.get("widow_every"), d.get("turn_up_after")
    deal = Deal(
        c.number(d.get("size", "0"), (*p, "size"), True),
        [int(x) for x in d.get("packets", [1])] or [1],
        # None: every seat still in (the usual case, which needs no formula)
        c.formula(d["to"], (*p, "to"), True) if d.get("to", "not out") != "not out" else None,
        c.number(d["widow"], (*p, "widow"), False)
        if d.get("widow") not in (None, 0, "0") else None,
        c.where(p),
        [int(x) for x in d["widow_packets"]] if d.get("widow_packets") else None,
        None if every is None else int(every),
        None if after is None else int(after),
    )
    if d.get("shows"):  # cards shown as they are dealt (lang/constructs/deal_shows.py)
        from .deal_shows import compile_shows

        code.append(compile_shows(c, deal, list(d["shows"]), (*p, "shows"), c.pack))
        return
    code.append(deal)


def compile_turn_up(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``turn_up`` step: :class:`TurnUp` from the stock, :class:`TurnUpHand` from the
    dealer's hand."""
    d = step["turn_up"]
    value = d.get("trump", True) if isinstance(d, dict) else True
    source = c.constant(d.get("from", "stock") if isinstance(d, dict) else "stock",
                        (*path, "turn_up", "from"), _v.words("turn_up", "from"))
    kind = TurnUpHand if source == "dealer" else TurnUp
    if kind is TurnUpHand:  # the deals before it note the dealer's last card
        for instr in code:
            if isinstance(instr, Deal):
                instr.keep_last = True
    if isinstance(value, bool):
        code.append(kind(const(value)))
    else:  # a condition, e.g. on an option
        code.append(kind(c.formula(value, (*path, "turn_up", "trump"), False)))
