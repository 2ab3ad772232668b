"""A compiled sub-formula (its closure, type and cost), and what every part of the
formula compiler shares: the resolver, the memo of compiled nodes, the type checks.

The compiler is one class in three modules: :class:`_CompilerBase` here,
:class:`~spelbok.formula.card_functions._CardCompiler` (the functions over cards) and
:class:`~spelbok.formula.compile._Compiler` (names, aggregates, operators).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import FormulaError
from .names import Fn, NameInfo, Resolver, TypeName
from .nodes import Node


@dataclass(slots=True)
class _C:
    """A compiled sub-formula.

    ``shape`` is ``("col", get, row)`` for a per-player name stored in a list
    (see NameInfo.column): ``not`` and comparisons with a constant read it in
    one call.  ``vec(st, p)``, when set, gives the sub-formula's value for every
    seat at once (an iterable, built by ``map`` over the lists): aggregates
    then run as one built-in call instead of one call per seat.
    """

    fn: Fn
    type: TypeName
    cost: int
    const: bool = False
    value: Any = None
    shape: tuple[Any, ...] | None = None
    seat_free: bool = False  # True only when known not to depend on the seat
    vec: Callable[[Any, int], Iterable[Any]] | None = None


_ARTICLE = {"int": "an int", "bool": "a bool", "str": "a str", "card": "a card",
            "cards": "a set of cards", "any": "a value"}
_EXPECT_WORDS = {
    "bool": "a condition (true or false)",
    "int": "a number",
    "str": "a text (str)",
    "card": "a card",
    "cards": "a set of cards",
}


def _constant(value: Any) -> Fn:
    return lambda st, p: value


def _const(value: Any, type_: TypeName, cost: int) -> _C:
    return _C(_constant(value), type_, cost, True, value, seat_free=True)


def _folded(fn: Fn, type_: TypeName, cost: int) -> _C:
    """Evaluate a closure whose inputs are all constants once, and keep the value."""
    return _const(fn(None, 0), type_, cost)



class _CompilerBase:
    """The compiler's state and checks; :meth:`_compile` is the subclass's dispatch."""

    def __init__(self, resolver: Resolver, per_player: bool) -> None:
        self.resolver = resolver
        self.per_player = per_player
        self.nseats = int(resolver.nseats)
        self._infos: dict[str, NameInfo | None] = {}
        # each node compiled once per context: count() compiles its argument to learn
        # its type, and nested counts must not compile their subtrees again and again
        self._memo: dict[tuple[int, bool], _C] = {}
        self.strict_eq = True  # False: == and != of two known different types is just false

    # -- helpers

    def _lookup(self, name: str) -> NameInfo | None:
        if name not in self._infos:
            self._infos[name] = self.resolver.resolve(name)
        return self._infos[name]

    @staticmethod
    def _need(c: _C, want: TypeName, node: Node, what: str) -> None:
        if c.type != want and c.type != "any":
            raise FormulaError(
                f"{what} needs {_EXPECT_WORDS[want]}, got {_ARTICLE[c.type]}",
                line=node.line,
                col=node.column,
            )

    # -- dispatch

    def compile(self, node: Node, in_agg: bool) -> _C:
        key = (id(node), in_agg)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._compile(node, in_agg)
        return got

    def _compile(self, node: Node, in_agg: bool) -> _C:
        raise NotImplementedError
