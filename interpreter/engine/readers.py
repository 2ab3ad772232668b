"""The run-time formula library: what a formula's names and card functions read of a
state during play.

The :class:`~spelbok.engine.resolver.Resolver` hands these to the formula compiler
once, when a game loads; play calls them for every formula that reads a name.  They
read the state's fields and the program's tables only (ints and bitmasks), so they
are compiled with the hot path (``_native.HOT``).

>>> mask_of([0, 2])
5
>>> card_of([(1, 7), (2, 9)], 2), card_of([], 0)
(9, -1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..formula import NameInfo
from .points import mask_points
from .trick import card_key

if TYPE_CHECKING:
    from .state import State

Fn = Callable[[Any, int], Any]
Reader = Callable[["State", int], Any]


def reads(fn: Reader) -> Fn:
    """A built-in name's getter.  Typed with State so that a compiled build reads
    the state's fields directly (see setup.py)."""
    return fn


def global_name(get: Callable[[Any, int], Any], type_: Any) -> NameInfo:
    """A name with one value per state; ``get(state, seat)`` ignores the seat."""
    return NameInfo("global", lambda st: get(st, 0), type_, direct=get)


def player_var(row: int) -> Reader:
    """The getter of the per-player variable stored in row ``row``."""
    return lambda st, p: st.pv_rows[row][p]


def global_var(slot: int) -> Reader:
    """The getter of the hand or match variable stored in slot ``slot``."""
    return lambda st, p: st.gv[slot]


def team_won(st: State, seats: tuple[int, ...]) -> int:
    """The cards of the tricks ``seats`` won, as a bitmask."""
    m = 0
    for q in seats:
        m |= st.won_cards[q]
    return m


def seat_points(st: State, p: int) -> int:
    """The points of the cards in ``p``'s tricks, with the last trick's bonus."""
    prog = st.prog
    tables = prog.points if prog.mode_slot < 0 else prog.points_of(st)
    got = mask_points(tables[st.trump], st.won_cards[p]) if tables else 0
    return got + st.prog.last_trick_points if st.last_trick == p else got


def card_points(st: State, c: int) -> int:
    """The points of card ``c`` (0 for no card, or a game without points)."""
    prog = st.prog
    tables = prog.points if prog.mode_slot < 0 else prog.points_of(st)
    return tables[st.trump].card[c] if tables and c >= 0 else 0


def set_points(st: State, m: int) -> int:
    """The points of the cards of mask ``m``."""
    prog = st.prog
    tables = prog.points if prog.mode_slot < 0 else prog.points_of(st)
    return mask_points(tables[st.trump], m) if tables else 0


def power(st: State, c: int) -> int:
    """A card's power in the current trick (its key: 0 when it cannot win it); before the
    lead, its power as a lead."""
    if c < 0:
        return 0
    if st.trick.led < 0:
        return st.tables.power[c]
    return card_key(st, c)


def last_trick(st: State) -> tuple[tuple[int, int], ...]:
    """The ``(seat, card)`` pairs of the last trick played this hand (none before one)."""
    tricks = st.history_tricks
    if not tricks:
        return ()
    pairs: tuple[tuple[int, int], ...] = tricks[-1][1]
    return pairs


def pairs_mask(pairs: tuple[tuple[int, int], ...]) -> int:
    """The cards of a finished trick's ``(seat, card)`` pairs, as a bitmask."""
    m = 0
    for _, c in pairs:
        m |= 1 << c
    return m


def led_of(pairs: tuple[tuple[int, int], ...]) -> int:
    """The card led to a finished trick, or -1."""
    return pairs[0][1] if pairs else -1


def card_of(pairs: list[tuple[int, int]], seat: int) -> int:
    """The card ``seat`` played to a trick's ``(seat, card)`` pairs, or -1."""
    for q, c in pairs:
        if q == seat:
            return c
    return -1


def mask_of(cards: list[int]) -> int:
    """A list of cards as a bitmask."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def trump_tables(st: State) -> Any:
    """The current trump's tables (the card functions of formulas read them)."""
    return st.tables
