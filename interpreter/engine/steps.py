"""The executable steps of a hand, and the loop that runs them.

A spec's ``hand:`` list compiles (in :mod:`spelbok.engine.compiler`) into a flat
list of instructions with jumps, like a tiny virtual machine.  Each
instruction's ``run(st)`` does its work and moves ``st.pc`` on, or returns
False to wait for a decision; a waiting instruction also answers ``legal``,
``check`` and ``apply`` for the player to act.

The trick's instructions live with the trick rules in :mod:`spelbok.engine.trick`,
the exchange in :mod:`spelbok.engine.exchange`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..cards import CARD_NAMES, SUITS, Pack, cards_in
from ..errors import LimitError, SpecError
from ..limits import MAX_CARDS, MAX_CHOICES, MAX_REPEAT, MAX_VALUE, held
from .actions import NUMBER, SUIT, WORD, Action
from .order import NO_TRUMP

if TYPE_CHECKING:
    from .state import State

Fn = Callable[[Any, int], Any]
Setter = Callable[[Any, int, Any], None]

UNSET = object()  # what fixed() gives for a formula that is not fixed


def fixed(fn: Fn | None) -> Any:
    """The value of a formula fixed at load time (only options and literals), else UNSET."""
    return getattr(fn, "value", UNSET)


class Instr:
    """Base instruction: ``run`` returns True to continue, False to wait."""

    def run(self, st: State) -> bool:
        raise NotImplementedError

    def legal(self, st: State) -> list[Action]:
        return []

    def check(self, st: State, a: Action) -> str | None:
        return "nothing to decide"

    def apply(self, st: State, seat: int, a: Action) -> bool | None:
        """Carry out ``a``; True when it already named the next player to act."""
        raise NotImplementedError


# -- flow ----------------------------------------------------------------------


class Jump(Instr):
    def __init__(self, target: int = -1) -> None:
        self.target = target

    def run(self, st: State) -> bool:
        st.pc = self.target
        return True


class JumpUnless(Instr):
    """Go on if the condition holds, else jump (compiles ``if`` and ``when``)."""

    def __init__(self, cond: Fn, target: int = -1) -> None:
        self.cond = cond
        self.target = target

    def run(self, st: State) -> bool:
        st.pc = st.pc + 1 if self.cond(st, 0) else self.target
        return True


class RepeatInit(Instr):
    def __init__(self, slot: int) -> None:
        self.slot = slot

    def run(self, st: State) -> bool:
        st.counters[self.slot] = 0
        st.pc += 1
        return True


class RepeatTest(Instr):
    """Start another round while rounds remain and ``while`` holds."""

    def __init__(self, slot: int, times: Fn, cond: Fn | None, target: int = -1,
                 where: str = "") -> None:
        self.slot = slot
        self.times = times
        k = fixed(times)
        self.fixed_times = None if k is UNSET else k
        self.where = where  # the step in the spec, for the error on too many rounds
        self.cond = cond
        self.target = target

    def run(self, st: State) -> bool:
        done = st.counters[self.slot]
        times = self.fixed_times
        if times is None:
            times = self.times(st, 0)
            if times > MAX_REPEAT:
                raise LimitError(f"{self.where + ': ' if self.where else ''}this repeat would run "
                                 f"{times} rounds; the limit is {MAX_REPEAT}")
        if done >= times or (self.cond is not None and not self.cond(st, 0)):
            st.pc = self.target
        else:
            st.counters[self.slot] = done + 1
            st.pc += 1
        return True


class EndHand(Instr):
    def run(self, st: State) -> bool:
        if st.rec is not None:
            st.event("end_hand_early")
        st.pc = len(st.game.program.code)
        return True


class Redeal(Instr):
    def __init__(self, next_dealer: bool) -> None:
        self.next_dealer = next_dealer

    def run(self, st: State) -> bool:
        if st.rec is not None:
            st.event("redeal", dealer=st.dealer)
        st.game.program.redeal(st, self.next_dealer)
        return True


# -- assignments -------------------------------------------------------------------


class SetVars(Instr):
    """Assign variables: once, or for each player satisfying ``for``, from forehand."""

    def __init__(self, assigns: list[tuple[Setter, Fn, str]], each: Fn | None,
                 each_vec: Any = None, where: str = "") -> None:
        self.assigns = assigns
        self.each = each
        # per-player variables are stored straight into their row (no setter call)
        self.fast = [(getattr(setter, "row", -1), setter, fn, name) for setter, fn, name in assigns]
        self.where = where  # the step in the spec, for the error on an integer out of bounds
        # When 'for' reads only each seat's own per-player values, ask every seat
        # at once: an assignment changes only the seat being set (or hand and
        # match variables, which such a condition does not read), so no answer
        # for a later seat can change.
        self.each_vec = each_vec

    def run(self, st: State) -> bool:
        if self.each is None:
            # seat -1: nobody in particular sets these (a trump set here is not named by P0)
            for setter, fn, name in self.assigns:
                value = fn(st, 0)
                if type(value) is int and not -MAX_VALUE <= value <= MAX_VALUE:
                    value = held(value)
                setter(st, -1, value)
                if st.rec is not None:
                    st.event("set", var=name, value=value)
        elif st.rec is not None:
            for p in st.prog.rot[(st.dealer + 1) % st.n]:
                if self.each(st, p):
                    for setter, fn, name in self.assigns:
                        value = fn(st, p)
                        if type(value) is int and not -MAX_VALUE <= value <= MAX_VALUE:
                            value = held(value)
                        setter(st, p, value)
                        st.event("set", seat=p, var=name, value=value)
        else:
            each: Fn | None = self.each
            seats: Any = st.prog.rot[(st.dealer + 1) % st.n]
            if self.each_vec is not None:
                chosen = list(self.each_vec(st, 0))
                seats = [p for p in seats if chosen[p]] if any(chosen) else ()
                each = None
            rows = st.pv_rows
            for p in seats:
                if each is not None and not each(st, p):  # asked after the seats before
                    continue
                for row, setter, fn, _name in self.fast:
                    value = fn(st, p)
                    # one comparison per value set keeps every integer of a match small
                    if type(value) is int and not -MAX_VALUE <= value <= MAX_VALUE:
                        value = held(value)
                    if row >= 0:
                        rows[row][p] = value
                    else:
                        setter(st, p, value)
        st.pc += 1
        return True


# -- dealing -------------------------------------------------------------------------


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

ZONES = ("hand", "widow", "stock", "turn_up", "discards")


class Move(Instr):
    """Move cards between zones: a player's hand, the widow, the stock (talon),
    the turn-up and the discard pile.  ``count`` None moves every card of the source.

    Public knowledge follows the cards: cards taken from the turn-up are known
    to be in the taker's hand; cards from hidden zones stay hidden.
    """

    def __init__(self, source: str, target: str, count: Fn | None, each: Fn | None,
                 position: str) -> None:
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
            if self.from_zone == "turn_up":
                st.known[seat] |= m
            elif m:
                st.voids[seat] = 0  # unseen cards arrived: earlier voids no longer certain
        elif dst == "widow":
            st.widow |= m
        elif dst == "discards":
            st.discards |= m
            if self.from_zone == "hand":
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
            if self.from_zone == "turn_up":  # face up: everyone saw which cards they were
                data["shown"] = [st.prog.pack.names[c] for c in cards]
            if self.to_zone == "stock":
                data["position"] = self.position
            st.event("move", **data)

    def run(self, st: State) -> bool:
        if self.each is None:
            self._one(st, -1)
        else:
            for p in st.order_from((st.dealer + 1) % st.n):
                if self.each(st, p):
                    self._one(st, p)
        st.pc += 1
        return True


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


# -- decisions -----------------------------------------------------------------------

Selector = Callable[["State"], list[int]]


class DecideStart(Instr):
    """Work out who decides, in which order."""

    def __init__(self, select: Selector) -> None:
        self.select = select

    def run(self, st: State) -> bool:
        st.queue = self.select(st)
        st.pc += 1
        return True


class Decision(Instr):
    """What every decision shares: its name, which seats of the queue decide
    (``where``), the walk through the queue and the ``then`` assignments after
    each answer.  :class:`Decide` chooses a word, suit or number;
    :class:`~spelbok.engine.exchange.Exchange` gives cards away."""

    def __init__(self, name: str, kind: str, where: Fn | None,
                 then: list[tuple[Setter, Fn, str]]) -> None:
        self.name = name
        self.kind = kind  # 'words', 'suit', 'number' or 'exchange' (the spec's `choose`)
        self.then = then
        # per-player variables are stored straight into their row (no setter call)
        self.then_fast = [(getattr(setter, "row", -1), setter, fn, v) for setter, fn, v in then]
        if fixed(where) is True:
            where = None
        self.where = where

    def run(self, st: State) -> bool:
        q = st.queue
        while q:
            p = q[0]
            if st.out[p] or (self.where is not None and not self.where(st, p)):
                q.pop(0)
                continue
            st.current = p
            return False
        st.pc += 1
        return True

    def answered(self, st: State, seat: int) -> bool:
        """After ``seat``'s answer: the ``then`` assignments, and on to the next
        decider; True when one is named (spares the step loop)."""
        st.queue.pop(0)
        for row, setter, fn, _var in self.then_fast:
            value = fn(st, seat)
            if type(value) is int and not -MAX_VALUE <= value <= MAX_VALUE:
                value = held(value)
            if row >= 0:
                st.pv_rows[row][seat] = value
            else:
                setter(st, seat, value)
        return not self.run(st)


class Decide(Decision):
    """Wait for each player in the queue to choose a word, a suit or a number."""

    def __init__(
        self,
        name: str,
        kind: str,
        where: Fn | None,
        then: list[tuple[Setter, Fn, str]],
        words: list[str] | None = None,
        suits: list[int] | None = None,
        min_fn: Fn | None = None,
        max_fn: Fn | None = None,
        word_when: list[Fn | None] | None = None,
        allow: Fn | None = None,
        levels: list[tuple[Fn, str]] | None = None,
        pack: Pack | None = None,
    ) -> None:
        super().__init__(name, kind, where, then)
        # an ordered 'allow': its levels (the first is ``allow``), each with the answer to an
        # option it refuses ("": the options are listed)
        self.levels: list[tuple[Fn, str]] = levels or ([(allow, "")] if allow is not None
                                                        else [])
        self.word_actions = [Action(WORD, w) for w in (words or [])]
        self.word_when = word_when or [None] * len(self.word_actions)
        self.suit_actions = [Action(SUIT, name, s, pack) for s in (suits or [])]
        self.min_fn = min_fn
        self.max_fn = max_fn
        self.allow = allow
        self.filtered = allow is not None or any(f is not None for f in self.word_when)
        # the same options every time: words or suits with no condition on them
        self.fixed_list = (None if self.filtered else self.word_actions if kind == "words"
                           else self.suit_actions if kind == "suit" else None)

    def _choices(self, st: State) -> list[Action]:
        """Word, suit or number options that pass their conditions and ``allow``."""
        return self._allowed(st, self._options(st))[0]

    def _options(self, st: State) -> list[Action]:
        """Word, suit or number options that pass their conditions (``allow`` aside)."""
        seat = st.current
        assert seat is not None
        if self.kind == "words":
            opts = [a for a, f in zip(self.word_actions, self.word_when, strict=True)
                    if f is None or f(st, seat)]
        elif self.kind == "suit":
            opts = list(self.suit_actions)
        else:
            lo = int(self.min_fn(st, seat)) if self.min_fn is not None else 0
            hi = int(self.max_fn(st, seat)) if self.max_fn is not None else lo
            if hi - max(lo, 0) >= MAX_CHOICES:
                raise LimitError(f"the '{self.name}' decision would offer {hi - max(lo, 0) + 1} "
                                 f"numbers ({max(lo, 0)} to {hi}); the limit is {MAX_CHOICES}")
            opts = [Action(NUMBER, self.name, k) for k in range(max(lo, 0), hi + 1)]
            if not opts:
                raise SpecError(f"the '{self.name}' decision offers P{seat} no number: its range "
                                f"runs from {lo} to {hi} (hand {st.hand_number})")
        if not opts and self.kind == "words":
            # every word switched off: every word is offered (validate's promise: a
            # decision never leaves its player nothing, as a trick's allow never does)
            opts = list(self.word_actions)
        return opts

    def _allowed(self, st: State, opts: list[Action]) -> tuple[list[Action], str]:
        """The options the first level of ``allow`` that admits one admits, with that
        level's answer to a refused option."""
        if self.allow is None:
            return opts, ""
        seat = st.current
        assert seat is not None
        for allow, why in self.levels:
            kept = []
            for a in opts:
                st.choice = _choice_value(a)
                if allow(st, seat):
                    kept.append(a)
            st.choice = ""
            if kept:
                return kept, why
        return opts, ""  # 'allow' refuses every option: all are offered (as in a trick)

    def dead_end(self, seat: int, st: State, why: str) -> SpecError:
        """A decision that leaves its player nothing to do is the spec's fault: said at
        once, instead of a state with no legal action."""
        return SpecError(f"the '{self.name}' decision offers P{seat} no option: {why} "
                         f"(hand {st.hand_number})")

    def legal(self, st: State) -> list[Action]:
        if self.fixed_list is not None:
            return self.fixed_list  # shared: State.legal_actions hands out a copy
        return self._choices(st)

    def check(self, st: State, a: Action) -> str | None:
        if self.kind == "words" and not self.filtered:
            options = self.word_actions
        elif self.kind == "suit" and not self.filtered:
            options = self.suit_actions
        else:
            offered = self._options(st)
            options, why = self._allowed(st, offered)
            if why and a in offered and a not in options:
                return why  # the deciding level of 'allow' refuses it, and says why
        if a in options:
            return None
        listed = _or_list([str(w) for w in options])
        if self.kind == "suit":
            return f"name a suit: {listed}"
        return f"the choice is {listed}"

    def apply(self, st: State, seat: int, a: Action) -> bool:
        kind = a[0]
        st.choice = a[1] if kind == WORD else _suit_text(a) if kind == SUIT else a[2]
        st.count = 0
        st.public.append((seat, self.name, a))
        if st.rec is not None:
            st.event("decision", seat=seat, decision=self.name, action=str(a))
        return self.answered(st, seat)


def _names(mask: int, names: tuple[str, ...] = CARD_NAMES) -> list[str]:
    return [names[c] for c in cards_in(mask)]


def _suit_text(a: Action) -> str:
    """The letter of a suit action's suit (by its pack, when it holds one)."""
    return SUITS[a[2]] if len(a) == 3 else a[3].letters[a[2]]


def _choice_value(a: Action) -> str | int:
    """What ``choice`` reads in formulas for an action: the word, suit letter or number."""
    kind = a[0]
    if kind == WORD:
        return a[1]
    if kind == SUIT:
        return _suit_text(a)
    return a[2]


def _or_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


__all__ = [
    "Instr", "Jump", "JumpUnless", "RepeatInit", "RepeatTest", "EndHand", "Redeal", "SetVars",
    "Deal", "TurnUp", "DecideStart", "Decision", "Decide", "NO_TRUMP",
]
