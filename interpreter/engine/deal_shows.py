"""Cards shown during the deal (``deal.shows``): the run-time part of
:mod:`spelbok.lang.constructs.deal_shows`.

A deal with shows hands the cards out one at a time, in the deal's order
(:meth:`~spelbok.engine.deal.Deal._plan`).  After each card the player who received it
is asked: he may show cards of his hand (a show names
how many copies of one card it shows and a condition each card must meet, read for
him with the card as ``card``, and for the standing shows through the variables its
``then`` sets), or ``pass``.  A show's cards become known to every seat until played,
its ``then`` assignments are made for him with ``card`` the card shown, and the deal
goes on.  A player with nothing to show is asked all the same, with ``pass`` his only
choice: were he skipped, every seat would learn from the pause who holds a card he
may show, and who does not.  When the last card is dealt each player, in turn from
the first dealt to, has a last chance to show (the shows may be made at any moment of
the deal and a little after it).

The deal's progress lives in the decision queue (``State.queue``): :data:`MARK`, then
the seats still to receive a card, in turn; after the last card :data:`LAST`, then the
seats still to have their last chance.

Notation: a show is its word and one card of those shown (``declare 2H``; a show of two
copies ``pair 2H`` shows both); ``pass`` lets the deal go on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import Pack, cards_in
from ..limits import MAX_VALUE, held
from .actions import CARDS, PASS_WORD, WORD, Action
from .steps import Fn, Instr, Setter

if TYPE_CHECKING:
    from .deal import Deal
    from .state import State

#: The queue's first item while a deal with shows is under way.
MARK = -2
#: The queue's first item in the last round of shows, after the last card.
LAST = -3
PASS = PASS_WORD


class Show:
    """One kind of show: its word, the copies of one card it shows, the condition on
    the card (None: any) and its assignments."""

    def __init__(self, word: str, copies: int, when: Fn | None,
                 then: list[tuple[Setter, Fn, str]]) -> None:
        self.word = word
        self.copies = copies
        self.when = when
        self.then = then


class DealShows(Instr):
    """A deal one card at a time in which each player, as he receives a card, may show
    cards (see the module's doc).  ``deal``: the plain deal whose order it follows."""

    def __init__(self, deal: Deal, shows: list[Show], pack: Pack | None) -> None:
        self.deal = deal
        self.shows = shows
        self.pack = pack  # a declared pack names the cards; None: the French 52
        self.name = "show"
        self.pass_action = Action(WORD, PASS)

    # -- the deal ---------------------------------------------------------------------

    def _order(self, st: State) -> list[int]:
        """The players dealt to, in turn from the first."""
        d = self.deal
        seats = st.prog.rot[st.prog.nxt[st.dealer]]
        off = st.off
        if d.to is not None:  # a seat sitting the hand out gets no card, whatever `to` says
            sat = off is not st.out
            return [p for p in seats if d.to(st, p) and not (sat and off[p] and not st.out[p])]
        return [p for p in seats if not off[p]]

    def _start(self, st: State) -> bool:
        """The queue of recipients, card by card; False when the stock cannot serve."""
        d = self.deal
        order = self._order(st)
        k = d.fixed_size
        need = [k] * len(order) if k is not None else [max(0, int(d.size(st, p))) for p in order]
        if sum(need) > len(st.stock):
            return False
        plan = d._plan(need, 0, False)
        st.queue = [MARK, *(order[j] for j in plan)]
        return True

    def run(self, st: State) -> bool:
        q = st.queue
        if not q or q[0] not in (MARK, LAST):
            if not self._start(st):
                return self.deal.short(st)
            q = st.queue
        if q[0] == MARK:
            hands = st.hands
            while len(q) > 1:
                p = q.pop(1)
                got = st.take(1)
                if not got:
                    break
                hands[p] |= 1 << got[0]
                st.current = p  # asked even with nothing to show (see the module's doc)
                return False
            # the last card dealt: a last chance for each player, in turn from the first
            st.queue = q = [LAST, *self._order(st)]
        if len(q) > 1:
            st.current = q.pop(1)
            return False
        st.queue = []
        return self.deal.dealt(st)

    # -- the shows ----------------------------------------------------------------------

    def offers(self, st: State, seat: int) -> list[tuple[Show, int]]:
        """The shows ``seat`` may make now: (show, the lowest card of those it shows)."""
        pack = st.prog.pack
        faces: dict[int, list[int]] = {}
        for c in cards_in(st.hands[seat]):
            faces.setdefault(pack.face[c], []).append(c)
        out: list[tuple[Show, int]] = []
        cand = st.cand  # scratch: a replay must find the same state
        for s in self.shows:
            for ids in faces.values():
                if len(ids) < s.copies:
                    continue
                st.cand = ids[0]
                if s.when is None or s.when(st, seat):
                    out.append((s, ids[0]))
        st.cand = cand
        return out

    def legal(self, st: State) -> list[Action]:
        seat = st.current
        assert seat is not None
        return [self.pass_action] + [Action(CARDS, s.word, 1 << c, self.pack)
                                     for s, c in self.offers(st, seat)]

    def check(self, st: State, a: Action) -> str | None:
        if a.kind == WORD and a.verb == PASS:
            return None
        seat = st.current
        assert seat is not None
        # the lowest copy held names the card (notation names its first copy: resolved
        # to the copies held before this check)
        if a.kind == CARDS and any(s.word == a.verb and a.value == 1 << c
                                   for s, c in self.offers(st, seat)):
            return None
        words = sorted({s.word for s in self.shows})
        return (f"show cards of your hand as the rules allow ({', '.join(words)} and a card, "
                f"e.g. '{words[0]} 2H'), or {PASS}")

    def apply(self, st: State, seat: int, a: Action) -> bool:
        if a.kind == WORD:
            return False  # a pass: the deal goes on
        pack = st.prog.pack
        show, c = next((s, x) for s, x in self.offers(st, seat)
                       if a.value == 1 << x and s.word == a.verb)
        shown = 0
        for x in cards_in(st.hands[seat]):
            if pack.face[x] == pack.face[c] and shown.bit_count() < show.copies:
                shown |= 1 << x
        st.known[seat] |= shown
        cand = st.cand
        st.cand = c
        for setter, fn, _name in show.then:
            value = fn(st, seat)
            if type(value) is int and not -MAX_VALUE <= value <= MAX_VALUE:
                value = held(value)
            setter(st, seat, value)
        st.cand = cand
        st.public.append((seat, show.word, Action(CARDS, show.word, 1 << c, self.pack)))
        if st.rec is not None:
            st.event("decision", seat=seat, decision=show.word, action=f"{show.word} {pack.names[c]}",
                     shown=pack.names_of(shown))
        return False


def compile_shows(c: Any, deal: Deal, shows: list[dict[str, Any]], path: tuple[Any, ...],
                  pack: Pack | None) -> DealShows:
    """The :class:`DealShows` of a deal step's ``shows`` (``path``: the list's place)."""
    out = []
    for i, s in enumerate(shows):
        here = (*path, i)
        when = s.get("when", "true")
        out.append(Show(str(s["word"]), int(s.get("copies", 1)),
                        None if when in (True, "true") else c.formula(when, (*here, "when"), True),
                        c.assigns(s.get("then") or {}, (*here, "then"), True)))
    return DealShows(deal, out, pack)


__all__ = ["LAST", "MARK", "DealShows", "Show", "compile_shows"]
