"""Announcements at a player's turn in a trick, before his card (``tricks.announce``):
:class:`Announcement` (what the trick play offers and does, see
:class:`~spelbok.engine.card_play.CardPlay`) and :class:`AnnounceBack`, which ends an
announcement's steps and gives the turn back to the trick play.

A trick play offers an announcement as a word beside the cards while its ``when``
holds for the player to play; the player stays the one to play after it (he may make
others, then plays his card).  An announcement with steps runs them at once (others may
answer), then :class:`AnnounceBack` returns to the trick, or ends the tricks step when
``ends_tricks`` holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..limits import MAX_VALUE, held
from .actions import WORD, Action
from .steps import Fn, Instr, Setter
from .trick import Trick

if TYPE_CHECKING:
    from .state import State


class Announcement:
    """One announcement: its word action, the condition on the player to play
    (None: always), its assignments, the cards it shows (None: none), where its steps
    start (-1: none), when it ends the tricks step (None: never) and whether every
    player may make it before each card, not only the player to play (``any_turn``:
    :class:`~spelbok.engine.any_turn.AnyTurnPlay`)."""

    def __init__(self, word: str, when: Fn | None, then: list[tuple[Setter, Fn, str]],
                 shows: Fn | None, ends: Fn | None, any_turn: bool = False) -> None:
        self.word = word
        self.action = Action(WORD, word)
        self.when = when
        self.then = then
        self.shows = shows
        self.ends = ends
        self.any_turn = any_turn
        self.at = -1  # the first instruction of its steps (set by the compiler)

    def offered(self, st: State, seat: int) -> bool:
        return self.when is None or bool(self.when(st, seat))

    def make(self, st: State, seat: int) -> bool:
        """``seat`` announces: assignments, cards shown, made public; then its steps, or
        the turn stays his.  False: the step loop runs on (as a trick play's apply)."""
        for setter, fn, _name in self.then:
            value = fn(st, seat)
            if type(value) is int and not -MAX_VALUE <= value <= MAX_VALUE:
                value = held(value)
            setter(st, seat, value)
        shown = 0
        if self.shows is not None:
            shown = int(self.shows(st, seat)) & st.hands[seat]
            st.known[seat] |= shown  # each clone holds its own list
        st.public.append((seat, self.word, self.action))
        if st.rec is not None:
            tr = st.trick
            to_play = tr.order[tr.pos] if tr.pos < len(tr.order) else seat
            # made out of turn (before another player's card): the event says whose turn
            extra = {"to_play": to_play} if to_play != seat else {}
            st.event("decision", seat=seat, decision=self.word, action=self.word,
                     shown=st.prog.pack.names_of(shown) if shown else [], **extra)
        if self.at >= 0:
            st.pc = self.at
        elif self.ends is not None:
            end_tricks(st, self.ends, seat)
        return False


def end_tricks(st: State, ends: Fn, seat: int) -> None:
    """When ``ends`` holds, the trick in progress is abandoned (its cards go to the
    discards) and the tricks end (the trick play, run next, finds no trick and goes on
    past its step)."""
    if ends(st, seat):
        if st.rec is not None:
            st.event("tricks_ended", seat=seat)
        st.discards |= st.trick.mask()  # the abandoned trick's cards are out of play
        st.trick = Trick([])


class AnnounceBack(Instr):
    """The end of an announcement's steps: back to the trick play (``play_at``), the
    player to play as before, or past it when the announcement ends the tricks."""

    def __init__(self, play_at: int, call: Announcement) -> None:
        self.play_at = play_at
        self.call = call

    def run(self, st: State) -> bool:
        if self.call.ends is not None:
            end_tricks(st, self.call.ends, st.trick.order[st.trick.pos]
                       if st.trick.pos < len(st.trick.order) else 0)
        st.pc = self.play_at
        return True
