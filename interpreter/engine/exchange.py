"""The exchange instruction (``choose: exchange``): each player in the queue gives
away some cards and draws as many from the stock or the turn-up (or none).

Its moves are the subsets of the hand within the step's bounds, offered as the
lazy :class:`~spelbok.engine.subsets.SubsetActions` list; the bare verb keeps
every card.  A step's ``allow`` (a condition on each ``card`` given, or levels tried
in order) narrows them: a card no level admits is never given, and a card only a
later level admits only once every card an earlier level admits is given too (a trump
laid aside only when nothing else is left).  ``show`` names the given
cards shown to all (:attr:`State.shown`); ``give_to: turn_up`` puts the given cards
on the turn-up instead of the discards (a low trump swapped for the trump card turned up);
``give_to: hand`` keeps them in the hand: a choice of cards to show, those ``show``
admits made known to every seat (``State.known``, and :attr:`State.shown`) until
played; a card already shown so is not offered again (a set shown one card at a time,
an exchange in a ``repeat``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Pack, cards_in
from .actions import CARDS, WORD, Action
from .steps import UNSET, Decision, Fn, Setter, _names, fixed
from .subsets import subset_actions, subset_order

if TYPE_CHECKING:
    from .state import State


class Exchange(Decision):
    """Wait for each player in the queue to give cards away and draw as many."""

    def __init__(
        self,
        name: str,
        where: Fn | None,
        then: list[tuple[Setter, Fn, str]],
        draw_from: str = "stock",
        min_fn: Fn | None = None,
        max_fn: Fn | None = None,
        levels: list[tuple[Fn, str]] | None = None,
        show: Fn | None = None,
        give_to: str = "discards",
    ) -> None:
        super().__init__(name, "exchange", where, then)
        self.levels = levels or []  # the step's allow, per card: (condition, reason)
        self.show = show  # the given cards shown to all (None: none)
        self.give_to = give_to  # 'discards', 'turn_up' or 'hand' (kept: a choice to show)
        self.keep = give_to == "hand"
        self.draw_from = draw_from  # 'stock', 'turn_up' or 'none'
        self.min_fn = min_fn
        self.max_fn = max_fn
        k = fixed(max_fn)
        self.max_fixed = None if k is UNSET else int(k)
        k = fixed(min_fn) if min_fn is not None else 0
        self.min_fixed = None if k is UNSET else int(k)
        self.pack: Pack | None = None  # a declared pack names the cards (compiler); None: French

    def _hand(self, st: State, seat: int) -> int:
        """The cards ``seat`` may choose from: his hand (less those already shown, when
        the chosen cards are kept to show)."""
        return st.hands[seat] & ~st.shown if self.keep else st.hands[seat]

    def _bounds(self, st: State, seat: int) -> tuple[int, int]:
        """How few and how many cards ``seat`` may give away now."""
        hand = self._hand(st, seat).bit_count()
        draw = self.draw_from
        hi = len(st.stock) if draw == "stock" else len(st.turn_up) if draw == "turn_up" else hand
        if hand < hi:
            hi = hand
        if self.max_fn is not None:
            top = self.max_fixed if self.max_fixed is not None else int(self.max_fn(st, seat))
            if top < hi:
                hi = top
        if hi < 0:
            hi = 0
        lo = self.min_fixed
        if lo is None:
            lo = int(self.min_fn(st, seat))  # type: ignore[misc]
        elif lo == 0:
            return 0, hi
        return (lo if 0 < lo < hi else hi if lo >= hi else 0), hi

    def _tiers(self, st: State, seat: int, lo: int) -> list[int] | None:
        """The hand's cards by the first level of ``allow`` admitting each (a mask per
        level), or None: no ``allow``, or it admits too few cards to give ``lo`` (then
        every card may go, as a decision never leaves its player nothing)."""
        if not self.levels:
            return None
        hand = self._hand(st, seat)
        tiers = []
        left = hand
        for allow, _ in self.levels:
            m = 0
            for c in cards_in(left):
                st.cand = c
                if allow(st, seat):
                    m |= 1 << c
            left &= ~m
            tiers.append(m)
        if (hand & ~left).bit_count() < lo:
            return None
        return tiers

    def _refuses(self, tiers: list[int], mask: int) -> str | None:
        """Why ``allow`` refuses giving ``mask`` (None: it may be given): the reason of
        the first level it breaks, a card beyond it given while one it admits is kept."""
        below = 0
        for (_, why), m in zip(self.levels, tiers, strict=True):
            below |= m
            if mask & ~below and below & ~mask:
                return why or "not these cards while others the rule prefers are kept"
        if mask & ~below:
            return self.levels[-1][1] or "the rule does not let these cards go"
        return None

    def legal(self, st: State) -> list[Action]:
        seat = st.current
        assert seat is not None
        lo, hi = self._bounds(st, seat)
        hand = self._hand(st, seat)
        tiers = self._tiers(st, seat, lo) if self.levels else None
        if tiers is not None:
            pool = 0
            for m in tiers:
                pool |= m
            if self.pack is not None:
                out = _pack_subsets(self.pack, self.name, pool, lo, hi)
            else:
                out = list(subset_actions(self.name, pool, lo, hi))
            return [a for a in out if self._refuses(tiers, a.value if a.kind == CARDS
                                                     else 0) is None]
        if self.pack is not None:
            return _pack_subsets(self.pack, self.name, hand, lo, hi)
        return subset_actions(self.name, hand, lo, hi)

    def check(self, st: State, a: Action) -> str | None:
        if a.verb != self.name or a.kind not in (CARDS, WORD):
            return f"write '{self.name}' followed by the cards to give away (or nothing to keep all)"
        seat = st.current
        assert seat is not None
        if a.value & ~st.hands[seat]:
            return f"{', '.join(_names(a.value & ~st.hands[seat], st.prog.pack.names))} not in hand"
        if a.value & ~self._hand(st, seat):
            return f"{', '.join(_names(a.value & st.shown, st.prog.pack.names))} already shown"
        lo, hi = self._bounds(st, seat)
        k = a.value.bit_count()
        if k > hi:
            return f"at most {hi} card{'s' if hi != 1 else ''} may be exchanged now"
        if k < lo:
            return f"at least {lo} cards must be exchanged"
        tiers = self._tiers(st, seat, lo) if self.levels else None
        if tiers is not None:
            why = self._refuses(tiers, a.value if a.kind == CARDS else 0)
            if why is not None:
                return why
        return None

    def apply(self, st: State, seat: int, a: Action) -> bool:
        """Give away the action's cards and draw as many (the bare verb keeps all)."""
        mask = a[2] if a[0] == CARDS else 0
        k = mask.bit_count()
        drawn = shown = 0
        if mask and self.give_to == "hand":
            shown = self._show_kept(st, seat, mask)
        elif mask:
            hands = st.hands
            hands[seat] ^= mask  # cards of the hand: apply() has checked them
            if self.give_to == "discards":
                st.discards |= mask
                st.discarded[seat] |= mask
            known = st.known
            if known[seat]:
                known[seat] &= ~mask
            draw = self.draw_from
            if draw == "stock":
                drawn = st.draw(k)
                st.voids[seat] = 0  # new unseen cards: earlier voids no longer certain
            elif draw == "turn_up":
                source = st.turn_up
                for _ in range(k):
                    drawn |= 1 << source.pop()
                st.known[seat] |= drawn
            if self.give_to == "turn_up":  # the given cards lie face up where they went
                st.turn_up = [*st.turn_up, *cards_in(mask)]
            st.hands[seat] |= drawn
            if self.show is not None:
                shown = self._shown(st, seat, mask)
                st.shown |= shown
        st.choice = ""
        st.count = k
        # public: how many cards went, or (kept and shown) the cards shown
        kept = (a if not self.keep or shown == mask
                else Action(CARDS, a[1], shown, a[3] if len(a) > 3 else None))
        st.public.append((seat, self.name, k if mask and not self.keep else kept))
        if st.rec is not None:
            names = st.prog.pack.names
            st.event("exchange", seat=seat, decision=self.name, gave=_names(mask, names),
                     got=_names(drawn, names), shown=_names(shown, names), to=self.give_to)
        return self.answered(st, seat)

    def _show_kept(self, st: State, seat: int, mask: int) -> int:
        """The chosen cards stay in the hand: those ``show`` admits (all without it)
        become known to every seat until played."""
        shown = mask if self.show is None else self._shown(st, seat, mask)
        st.known[seat] |= shown  # each clone holds its own list
        st.shown |= shown
        return shown

    def _shown(self, st: State, seat: int, mask: int) -> int:
        """The cards of ``mask`` the exchange's ``show`` condition admits."""
        assert self.show is not None
        shown = 0
        for c in cards_in(mask):
            st.cand = c
            if self.show(st, seat):
                shown |= 1 << c
        return shown


def _pack_subsets(pack: Pack, verb: str, hand: int, lo: int, hi: int) -> list[Action]:
    """The exchanges of ``hand`` in a declared pack (made whole, in the order of
    :class:`SubsetActions`): copies of a card are given lowest first, so that each
    exchange has one notation."""
    cards = list(cards_in(hand))
    out: list[Action] = []
    for index in subset_order(len(cards), lo, hi):
        mask = 0
        for j, c in enumerate(cards):
            if (index >> j) & 1:
                mask |= 1 << c
        if pack.copies > 1 and pack.held_copies(hand, _faces(pack, mask)) != mask:
            continue  # not the lowest copies held: the same notation as another
        out.append(Action(CARDS, verb, mask, pack) if mask else Action(WORD, verb))
    return out


def _faces(pack: Pack, mask: int) -> int:
    """``mask`` named by notation: each card as its first copy, repeated names as the next
    copies (what :func:`~spelbok.engine.actions.parse_action` reads back)."""
    out = 0
    for c in cards_in(mask):
        c = pack.face[c]
        while (out >> c) & 1:
            c = next(x for x in pack.copies_of(c) if not (out >> x) & 1)
        out |= 1 << c
    return out


__all__ = ["Exchange"]
