"""What a caller passes as an action, resolved to the legal action it names.

Legality in layers (as python-chess checks a move): notation is read
(:func:`~spelbok.engine.actions.parse_action`), a hand-made :class:`Action` must be well
formed, a card of a pack with copies names the copy the player holds, and then the step to
act says whether the rules allow it.  :meth:`State.apply <spelbok.engine.state.State.apply>`
and :meth:`State.parse_action <spelbok.engine.state.State.parse_action>` come here.

>>> import spelbok
>>> s = spelbok.load("example", players=2).new_state(seed=3)
>>> resolve_action(s, str(s.legal_actions()[0])) == s.legal_actions()[0]
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Pack
from ..errors import IllegalActionError, InvalidActionError
from ..limits import MAX_NOTATION, MAX_VALUE, short_repr
from .actions import CARD, CARDS, NUMBER, SUIT, WORD, Action, card_actions, parse_action
from .play_sets import PlaySets

if TYPE_CHECKING:
    from .state import State


def resolve_action(st: State, action: object) -> Action:
    """The legal action ``action`` names (an Action or its notation), checked in layers:
    notation, a well-formed action, the copies held, then the rules of the step to act.

    Raises InvalidActionError (not notation), IllegalActionError (not allowed now, with
    the reason) or AmbiguousActionError."""
    if st.current is None:
        raise IllegalActionError(f"{shown_action(action)}: the match is over")
    ins = st.prog.code[st.pc]
    if isinstance(action, str):
        if len(action) > MAX_NOTATION:  # refused unread, and not quoted whole
            raise InvalidActionError(f"not an action: {action[:40]!r}... "
                                     f"({len(action)} characters)")
        a = parse_action(action, st.prog.pack)
    elif not isinstance(action, Action) or not well_formed(action, st.prog.pack.size,
                                                               st.prog.pack.french):
        raise InvalidActionError(f"not an action: {shown_action(action)}")
    else:
        a = action
    if st.prog.pack.copies > 1 and a[0] in (CARD, CARDS) and st.current is not None:
        a = held_action(st, a)  # a name of copies: the copies the player holds
    reason = ins.check(st, a)
    if reason is None:
        return a
    # notation that names a legal action another way (``exchange`` = keep all); not
    # among plays of several cards, whose check reads the cards alone (never listed)
    text = str(a)
    legal = ins.legal(st)
    for other in (() if isinstance(legal, PlaySets) else legal):
        if str(other) == text:
            return other
    raise IllegalActionError(f"{a} is not allowed: {reason}", reason)


def shown_action(action: object) -> str:
    """A short, safe repr of what was passed as an action (never its own ``__str__``)."""
    if isinstance(action, Action):  # maybe hand-made and malformed: its fields, not str()
        return str(action) if well_formed(action) else tuple.__repr__(action)[:60]
    if isinstance(action, str):
        return repr(action[:40])
    if isinstance(action, tuple):  # not its repr: it may be deep
        return f"a tuple of {len(action)} items"
    return short_repr(action)  # never object.__repr__: no memory address in a message


def held_action(st: State, a: Action) -> Action:
    """A card or exchange action of a pack with copies, naming the copies the player to
    act holds (notation names a card's first copy; copies are played lowest first)."""
    pack = st.prog.pack
    hand = st.hands[st.current] if st.current is not None else 0
    if a[0] == CARD:
        c = pack.held_copy(hand, a[2])
        return a if c == a[2] else card_actions(pack)[c]
    return Action(CARDS, a[1], pack.held_copies(hand, a[2]), pack)


def well_formed(a: Action, size: int = 52, french: bool = True) -> bool:
    """Whether an Action holds what parse_action could make (a hand-made one may not)."""
    if len(a) == 4 and isinstance(a[3], Pack) and a[3].size == size:
        a = Action(a[0], a[1], a[2])
    elif not french and len(a) == 3 and a[0] in (CARD, SUIT, CARDS):
        return False  # a card named without its pack: the French 52's names cannot show it
    if len(a) != 3:
        return False
    kind, verb, value = a
    if type(verb) is not str or type(value) is not int or len(verb) > MAX_NOTATION:
        return False
    if kind == CARD:
        return 0 <= value < size
    if kind == WORD:
        return value == 0
    if kind == SUIT:
        return 0 <= value < 4
    if kind == CARDS:
        return 0 < value < 1 << size
    return kind == NUMBER and -MAX_VALUE <= value <= MAX_VALUE
