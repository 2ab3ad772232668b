"""Announcements made out of turn (``tricks.announce`` with ``any_turn: true``):
:class:`AnyTurnPlay`, the trick play of a tricks step that has such announcements.

Before each card of a trick a window opens: the other players of the trick, in turn
after the player to play, are asked one at a time, each while an ``any_turn``
announcement is offered to him (its ``when`` holds for him); he may make any offered,
several in turn, then says ``pass``, and the window moves on.  A seat to whom none is
offered is skipped without a decision.  Then the player to play plays (his own
announcements offered beside his cards, as in any trick play).  The window's place is
the trick's ``ask`` (the index of the seat asked among the others, -1 once closed); a
card played opens the next window.  Each seat is asked at most once per window and
passes once, so a window ends; one player acts at a time.

A spec without ``any_turn`` announcements compiles to its usual trick play: it pays
nothing for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import PASS_WORD, WORD, Action
from .announce import Announcement
from .card_play import CardPlay, Declaration
from .steps import Fn

if TYPE_CHECKING:
    from .state import State



class AnyTurnPlay(CardPlay):
    """A :class:`~spelbok.engine.card_play.CardPlay` whose ``any_turn`` announcements
    are offered to the other players before each card, in a window (see the module)."""

    def __init__(self, abstain: Fn | None, abstain_word: str, allow: Fn | None,
                 refused: str, names_trump: bool, by: Fn | None, free: int,
                 losing: int, down: Fn | None = None, down_word: str = "down",
                 down_trump: bool = True, down_shown: bool = True,
                 decls: list[Declaration] | None = None,
                 more: list[tuple[Fn, str]] | None = None,
                 calls: list[Announcement] | None = None) -> None:
        super().__init__(abstain, abstain_word, allow, refused, names_trump, by, free, losing,
                         down, down_word, down_trump, down_shown, decls, more, calls)
        # the announcements offered out of turn, and the word of a seat asked that
        # announces nothing (more)
        self.anytime: list[Announcement] = [a for a in self.calls if a.any_turn]
        self.passing = Action(WORD, PASS_WORD)

    def _asked(self, st: State) -> int:
        """The seat asked in the window (-1: the window is closed, the player to play
        is asked)."""
        tr = st.trick
        seat = st.current
        if tr.pos >= len(tr.order) or seat is None or seat == tr.order[tr.pos]:
            return -1
        return seat

    def run(self, st: State) -> bool:
        tr = st.trick
        if not tr.order:
            st.pc = self.end
            return True
        pos = tr.pos
        seat = tr.order[pos]
        k = tr.ask
        if k >= 0:
            others = tr.order[pos + 1:] + tr.order[:pos]
            # the window opens when someone may announce, and then asks every other seat
            # in turn, pass the only choice of one with nothing to announce: were only
            # those who may be asked, every seat would learn what decides it (a side)
            if k == 0 and not any(call.offered(st, s) for s in others for call in self.anytime):
                k = len(others)
            if k < len(others):
                if tr.ask != k:
                    tr.own(st).ask = k
                st.current = others[k]
                return False
            tr.own(st).ask = -1
        st.current = seat
        return False

    def legal(self, st: State) -> list[Action]:
        seat = self._asked(st)
        if seat < 0:
            return CardPlay.legal(self, st)
        return [*[a.action for a in self.anytime if a.offered(st, seat)], self.passing]

    def check(self, st: State, a: Action) -> str | None:
        seat = self._asked(st)
        if seat < 0:
            return CardPlay.check(self, st, a)
        if a == self.passing:
            return None
        for call in self.anytime:
            if a == call.action:
                return None if call.offered(st, seat) else f"you may not announce {a.verb} now"
        tr = st.trick
        return (f"P{tr.order[tr.pos]} is to play: you may announce or {PASS_WORD} now "
                f"(e.g. {PASS_WORD})")

    def apply(self, st: State, seat: int, a: Action) -> bool:
        tr = st.trick
        if self._asked(st) >= 0:
            if a[0] == WORD and a[1] == PASS_WORD:
                tr.own(st).ask = tr.ask + 1
                return False
            return self.call_words[a[1]].make(st, seat)
        if (a[0] != WORD or a[1] not in self.call_words) and tr.ask != 0:
            tr.own(st).ask = 0  # the card played: the next card's window opens
        CardPlay.apply(self, st, seat, a)
        return False  # the step loop runs on: the next window, or the next player


__all__ = ["PASS_WORD", "AnyTurnPlay"]
