"""A match's history and undo, off the hot path.

The state keeps only its actions (a linked list that ``apply`` extends anyway):
:func:`history` and :func:`undo` replay the match from its start (seed, dealer,
stacked deck or position), so a match that never asks for them pays nothing.

>>> import spelbok
>>> s = spelbok.load("example", players=2).new_state(seed=3)
>>> first = s.legal_actions()[0]
>>> s.apply(first); s.apply(s.legal_actions()[0])
>>> [h.action for h in s.history] == s.actions
True
>>> s.history[0].seat == 0 or s.history[0].seat == 1
True
>>> len(s.undo()), s.undo() == [first], s.actions
(1, True, [])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import ArgumentError
from ..limits import short_repr
from .fields import FIELDS

if TYPE_CHECKING:
    from .actions import Action
    from .state import State


class HistoryEntry(NamedTuple):
    """One decision of a match: who made it, which decision it was, in which hand."""

    seat: int
    action: Action
    decision: str | None
    hand: int


def _replay(st: State, actions: list[Action], on_each: Any = None) -> State:
    if st.seed != st.start.get("seed"):
        raise ArgumentError("a determinized sample has no history of its own to replay")
    replay = st.game._start(st.start, record=st.rec is not None)
    for a in actions:
        if on_each is not None:
            on_each(replay, a)
        replay.apply(a)
    return replay


def history(st: State) -> list[HistoryEntry]:
    """Every decision since the start, with its seat, decision name and hand number."""
    out: list[HistoryEntry] = []

    def note(replay: State, a: Action) -> None:
        seat = replay.current
        out.append(HistoryEntry(-1 if seat is None else seat, a, replay.decision_name,
                                replay.hand_number))

    _replay(st, st.actions, note)
    return out


def choices(st: State, seat: int) -> list[int]:
    """The action counts at which ``seat`` was asked: its decisions less those a table
    plays itself (:func:`~spelbok.engine.forced.plays_itself`).  A resumed match's undo
    goes back to these."""
    from .forced import plays_itself

    out: list[int] = []

    def note(replay: State, a: Action) -> None:
        if replay.current == seat and not plays_itself(replay.legal_actions()):
            out.append(len(replay.actions))

    _replay(st, st.actions, note)
    return out


def undo(st: State, k: object = 1) -> list[Action]:
    """Take back the last ``k`` actions (python-chess's ``pop``); they are returned, oldest
    first.  The state becomes exactly what it was before them (its log too, if recorded)."""
    if type(k) is not int or k < 0:
        raise ArgumentError(f"undo takes a number of actions (0 or more), not {short_repr(k, 40)}")
    actions = st.actions
    if k > len(actions):
        raise ArgumentError(f"there are only {len(actions)} actions to undo, not {short_repr(k)}")
    if k == 0:
        return []
    replay = _replay(st, actions[:len(actions) - k])
    for f in FIELDS:  # the state's own fields (the trick is one of them: its whole)
        if not f.owner:
            setattr(st, f.name, getattr(replay, f.name))
    return actions[len(actions) - k:]


__all__ = ["HistoryEntry", "choices", "history", "undo"]
