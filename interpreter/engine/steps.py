"""The instructions of a hand: what they share, and the loop's jumps.

A spec's ``hand:`` list compiles (in :mod:`spelbok.engine.compiler`) into a flat
list of instructions with jumps, like a tiny virtual machine.  Each
instruction's ``run(st)`` does its work and moves ``st.pc`` on, or returns
False to wait for a decision; a waiting instruction also answers ``legal``,
``check`` and ``apply`` for the player to act.

Here: the base :class:`Instr`, the jumps, :class:`Decision` (what every decision
shares) and the formula helpers the compile steps share.  Each step kind's own
instructions live beside its compile step: :mod:`~spelbok.engine.flow` (set, if,
repeat, redeal, end_hand), :mod:`~spelbok.engine.deal` (deal, turn_up),
:mod:`~spelbok.engine.decide`, :mod:`~spelbok.engine.tricks` (with the card plays of
:mod:`~spelbok.engine.trick_play` and :mod:`~spelbok.engine.card_play`),
:mod:`~spelbok.engine.stock` (move), :mod:`~spelbok.engine.auction`,
:mod:`~spelbok.engine.passing`, :mod:`~spelbok.engine.patterns` and
:mod:`~spelbok.engine.melds`; the exchange in :mod:`~spelbok.engine.exchange`.

>>> fixed(const(3)), fixed_false(const(False)), fixed(None) is UNSET
(3, True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..cards import CARD_NAMES, cards_in
from ..limits import MAX_VALUE, held
from .actions import Action
from .order import NO_TRUMP

if TYPE_CHECKING:
    from .state import State

Fn = Callable[[Any, int], Any]
Setter = Callable[[Any, int, Any], None]
Path = tuple[Any, ...]  # where in the spec tree: keys and indexes from the top

UNSET = object()  # what fixed() gives for a formula that is not fixed


def fixed(fn: Fn | None) -> Any:
    """The value of a formula fixed at load time (only options and literals), else UNSET."""
    return getattr(fn, "value", UNSET)


def const(v: Any) -> Fn:
    """A formula fixed when the game loads; steps read ``.value`` to skip calling it."""
    fn: Any = lambda st, p: v  # noqa: E731
    fn.value = v
    return fn


def fixed_false(fn: Any) -> bool:
    """Whether a compiled condition is false whatever happens (fixed when the game loads)."""
    return hasattr(fn, "value") and not fn.value


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


# -- decisions -----------------------------------------------------------------------

Selector = Callable[["State"], list[int]]


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
            if st.off[p] or (self.where is not None and not self.where(st, p)):
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


def _names(mask: int, names: tuple[str, ...] = CARD_NAMES) -> list[str]:
    return [names[c] for c in cards_in(mask)]



__all__ = ["Instr", "Jump", "JumpUnless", "Decision", "NO_TRUMP"]
