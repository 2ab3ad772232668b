"""The passing instructions (step ``pass_cards``): every player still in chooses some
cards and passes them left, right or across, the direction chosen by a formula of the
hand (``directions[by % len(directions)]``).

Passing is simultaneous in effect: a seat's chosen cards leave its hand at once but
wait in ``State.passing`` (under the seat that passed them; a list never changed in
place, so that clones share it), and are received only when every seat has passed,
so no seat passes on a card it was given.  Each seat's
move is one card-set action, ``pass 2C 7H 9S`` (the action shape of an exchange),
offered as the lazy :class:`~spelbok.engine.subsets.SubsetActions` list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lang import vocabulary as _v
from .actions import CARDS, WORD, Action
from .steps import UNSET, Fn, Instr, Path, _names, fixed
from .subsets import subset_actions

if TYPE_CHECKING:
    from .compiler import Compiler
    from .state import State

#: The verb of a pass (its notation: ``pass 2C 7H 9S``).
VERB = "pass"


def _in(st: State) -> list[int]:
    """The seats still in, by seat number (the circle cards are passed around)."""
    off = st.off  # out of the match, or sitting this hand out
    return [p for p in range(st.n) if not off[p]]


class PassStart(Instr):
    """Work out this hand's direction; with ``none``, skip the passing."""

    def __init__(self, directions: list[str], by: Fn, slot: int,
                 players: Fn | None = None) -> None:
        self.directions = directions  # 'left', 'right', 'across' or 'none'
        self.by = by
        self.slot = slot  # the counter that holds this hand's direction index
        self.players = players  # who passes (None: every seat still in)

    def run(self, st: State) -> bool:
        i = int(self.by(st, 0)) % len(self.directions)
        word = self.directions[i]
        seats = _in(st)
        # 'across' among an odd number still in (players out; validate refuses an odd
        # table): no pass this hand, as with 'none' (a match never stops for it)
        if word == "none" or len(seats) < 2 or (word == "across" and len(seats) % 2):
            st.pc += 2  # over the pass itself
            return True
        first = st.prog.nxt[st.dealer]
        who = self.players
        queue = [p for p in st.order_from(first) if not st.off[p] and (who is None or who(st, p))]
        if not queue:  # nobody passes this hand
            st.pc += 2
            return True
        st.counters[self.slot] = i
        st.queue = queue
        if st.rec is not None:
            st.event("pass_start", direction=word)
        st.pc += 1
        return True


class PassCards(Instr):
    """Wait for each seat of the queue to pass its cards; then every seat receives."""

    def __init__(self, start: PassStart, count: Fn) -> None:
        self.name = VERB  # the pending decision's name (State.decision_name)
        self.start = start
        self.count = count
        k = fixed(count)
        self.fixed_count = None if k is UNSET else max(0, int(k))

    def _count(self, st: State, seat: int) -> int:
        """How many cards ``seat`` passes: the step's count, or all its cards if fewer."""
        k = self.fixed_count
        if k is None:
            k = max(0, int(self.count(st, seat)))
        hand = st.hands[seat].bit_count()
        return k if k < hand else hand

    def _to(self, st: State, seat: int) -> int:
        """The seat that receives ``seat``'s cards this hand."""
        seats = _in(st)
        word = self.start.directions[st.counters[self.start.slot]]
        step = 1 if word == "left" else -1 if word == "right" else len(seats) // 2
        return seats[(seats.index(seat) + step) % len(seats)]

    def run(self, st: State) -> bool:
        if st.queue:
            st.current = st.queue[0]
            return False
        # every seat has passed: now each receives (new unseen cards: voids no longer known)
        hands = st.hands
        got = [0] * st.n
        for p, m in enumerate(st.passing):
            if m:
                to = self._to(st, p)
                got[to] |= m
                hands[to] |= m
                st.voids[to] = 0
        if st.rec is not None:
            st.event("passed", received=[_names(m, st.prog.pack.names) for m in got])
        st.passing = [0] * st.n
        st.pc += 1
        return True

    def legal(self, st: State) -> list[Action]:
        seat = st.current
        assert seat is not None
        k = self._count(st, seat)
        return subset_actions(VERB, st.hands[seat], k, k)

    def check(self, st: State, a: Action) -> str | None:
        seat = st.current
        assert seat is not None
        k = self._count(st, seat)
        if a.verb != VERB or a.kind not in (CARDS, WORD):
            return f"write '{VERB}' followed by the {k} card{'s' if k != 1 else ''} to pass"
        if a.value & ~st.hands[seat]:
            return f"{', '.join(_names(a.value & ~st.hands[seat], st.prog.pack.names))} not in hand"
        if a.value.bit_count() != k:
            return f"pass exactly {k} card{'s' if k != 1 else ''}"
        return None

    def apply(self, st: State, seat: int, a: Action) -> bool:
        """Take the cards out of the hand; they wait for the receiver (hidden from all others)."""
        mask = a[2] if a[0] == CARDS else 0
        st.hands[seat] ^= mask  # cards of the hand: apply() has checked them
        known = st.known
        if known[seat]:
            known[seat] &= ~mask
        # the list is shared by clones (State.clone does not copy it): written as a new one
        passing = st.passing[:]
        passing[seat] = mask
        st.passing = passing
        st.public.append((seat, VERB, mask.bit_count()))
        if st.rec is not None:
            st.event("pass", seat=seat, to=self._to(st, seat), cards=_names(mask, st.prog.pack.names))
        st.queue.pop(0)
        return not self.run(st)


def compile_pass_cards(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``pass_cards`` step: the hand's direction, then each seat's pass."""
    t = step["pass_cards"]
    p = (*path, "pass_cards")
    words = _v.words("pass_cards", "directions")
    directions = [c.constant(d, (*p, "directions", i), words)
                  for i, d in enumerate(t.get("directions", ["left"]))]
    by = c.formula(t.get("by", "hand_number - 1"), (*p, "by"), False)
    slot = c.counters  # holds this hand's direction while the seats pass
    c.counters += 1
    who = t.get("players", "not out")
    players = None if who == "not out" else c.formula(who, (*p, "players"), True)
    start = PassStart([str(d) for d in directions], by, slot, players)
    code.append(start)
    code.append(PassCards(start, c.number(t["count"], (*p, "count"), True)))


__all__ = ["PassCards", "PassStart", "VERB"]
