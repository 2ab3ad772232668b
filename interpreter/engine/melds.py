"""Melds (the spec's ``melds`` table) and the instruction that declares them (step
``declare_melds``).

A meld is a named combination of cards: some ranks all in one suit (each suit may
make one: a king and queen of a suit), each rank in every suit (four jacks), or a
sequence of at least ``run`` cards of one suit in the ranking's order (each such
sequence makes one).  Declaring scores each meld a hand makes, as often as it makes
it, into the per-player built-in ``meld_points``; with ``show``, the cards of the
declared melds become public knowledge of the hand (``State.known``), so every
other seat's view lists them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lang import vocabulary as _v
from .steps import Fn, Instr, Path, _names

if TYPE_CHECKING:
    from .compiler import Compiler
    from .state import State


class Meld:
    """One meld of the table: the card sets that make it, or its runs.

    ``sets``: each set of cards that makes the meld once (a hand holding all of one).
    ``runs``: for a sequence meld, each suit's cards in the ranking's order, and
    ``run`` the fewest cards in sequence.
    """

    def __init__(self, name: str, sets: list[int], runs: list[list[int]], run: int,
                 points: Fn, copies: int = 1, grid: int = 0) -> None:
        self.name = name
        self.sets = sets
        self.runs = runs
        self.run = run
        self.points = points
        # a pack with copies: card ``c``'s copy ``k`` is ``k * grid + c`` (the sets and
        # runs name the first copies)
        self.copies = copies
        self.grid = grid

    def made(self, hand: int) -> tuple[int, int]:
        """How many times ``hand`` makes this meld, and the cards that make it.

        With copies, a hand holding every card of a set twice makes it twice (and a
        sequence held twice makes two runs): the meld is counted once per layer of the
        hand, layer ``t`` being the cards held at least ``t`` times.
        """
        if self.copies == 1:
            return self._made(hand)
        grid_mask = (1 << self.grid) - 1
        at_least = [0] * (self.copies + 1)  # at_least[t]: first copies held >= t times
        for k in range(self.copies):
            layer = (hand >> (k * self.grid)) & grid_mask
            for t in range(self.copies, 1, -1):
                at_least[t] |= at_least[t - 1] & layer
            at_least[1] |= layer
        times = 0
        used = 0
        for t in range(1, self.copies + 1):
            n, cards = self._made(at_least[t])
            times += n
            used |= cards
        shown = 0
        for k in range(self.copies):
            shown |= (used << (k * self.grid)) & hand
        return times, shown

    def _made(self, hand: int) -> tuple[int, int]:
        times = 0
        cards = 0
        for m in self.sets:
            if hand & m == m:
                times += 1
                cards |= m
        for suit in self.runs:
            seq = 0  # the cards of the sequence being followed
            length = 0
            for c in (*suit, -1):  # -1: the end of the suit closes the last sequence
                if c >= 0 and (hand >> c) & 1:
                    seq |= 1 << c
                    length += 1
                    continue
                if length >= self.run:
                    times += 1
                    cards |= seq
                seq = 0
                length = 0
        return times, cards


class DeclareMelds(Instr):
    """Every seat that ``for`` names, from forehand, declares the melds of its hand."""

    def __init__(self, melds: list[Meld], each: Fn | None, show: bool) -> None:
        self.melds = melds
        self.each = each  # None: every seat still in
        self.show = show

    def run(self, st: State) -> bool:
        points = [0] * st.n  # a new list: clones share the old one (never changed in place)
        for p in st.order_from(st.prog.nxt[st.dealer]):
            if (st.out[p] if self.each is None else not self.each(st, p)):
                continue
            hand = st.hands[p]
            total = 0
            shown = 0
            declared: list[str] = []
            for meld in self.melds:
                times, cards = meld.made(hand)
                if times:
                    total += times * int(meld.points(st, p))
                    shown |= cards
                    declared += [meld.name] * times
            points[p] = total
            if self.show and shown:
                st.known[p] |= shown
            if st.rec is not None and declared:
                st.event("melds", seat=p, melds=declared, points=total,
                         cards=_names(shown, st.prog.pack.names) if self.show else [])
        st.meld_points = points
        st.pc += 1
        return True


def compile_declare_melds(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``declare_melds`` step: the spec's ``melds`` table as the deck's card sets and runs."""
    p = (*path, "declare_melds")
    table = c.tree.get("melds") or {}
    deck_mask = c.resolver.cards.deck_mask if c.resolver.cards else 0
    pack = c.pack
    nr = len(pack.ranks)
    deck = [c for c in range(pack.size) if (deck_mask >> c) & 1]
    suits = sorted({pack.suit[c] for c in deck if pack.suit[c] >= 0})
    ranking = c.tree.get("ranking", {}).get("ranks") or _v.construct("ranking").field(
        "ranks").default

    def rank_of(r: Any) -> int:
        return pack.rank_index[str(pack.normalize_rank(r) or r).upper()]

    melds = []
    for name, m in table.items():
        at = ("melds", name)
        kind = c.constant(m.get("spread", "one_suit"), (*at, "spread"),
                          _v.words("meld", "spread"))
        # the first copy of each card (Meld.made counts the other copies)
        ranks = [rank_of(r) for r in m.get("ranks", [])]
        sets: list[int] = []
        if ranks and kind == "one_suit":
            sets = [sum(1 << (s * nr + r) for r in ranks) for s in suits]
        elif ranks:
            sets = [sum(1 << (s * nr + r) for r in ranks for s in suits)]
        sets = [x for x in sets if x & deck_mask == x]  # only what the deck can make
        run = int(m.get("run", 0))
        runs = [[s * nr + rank_of(r) for r in ranking
                 if (deck_mask >> (s * nr + rank_of(r))) & 1] for s in suits] \
            if run else []
        melds.append(Meld(str(name), sets, runs, run,
                          c.number(m["points"], (*at, "points"), True),
                          pack.copies, len(pack.letters) * nr))
    each = step.get("for", "not out")
    each_fn = None if each == "not out" else c.formula(each, (*path, "for"), True)
    show = c.constant(step["declare_melds"].get("show", True), (*p, "show"), (True, False))
    code.append(DeclareMelds(melds, each_fn, bool(show)))


__all__ = ["DeclareMelds", "Meld"]
