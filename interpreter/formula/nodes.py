"""The formula language's typed AST (positions inside the formula text) and its unparser."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias, Union

from ..frozen import Frozen
from .functions import FUNCTIONS as _FUNCTIONS

if TYPE_CHECKING:  # lark is imported lazily: importing this module must stay cheap
    pass

AGGREGATES = frozenset(f.name for f in _FUNCTIONS if f.aggregate)
CARD_FUNCTIONS = frozenset(f.name for f in _FUNCTIONS if f.cards)
"""The functions over cards and card sets (``count`` of a card set is a card function too)."""
FILTER_NAMES = {"card_suit": "suit", "card_rank": "rank", "card_is_trump": "trump"}
"""The names that, inside a ``where`` condition, read each card of the set (elsewhere,
the built-ins of the card a trick's ``allow`` considers)."""
FUNCTIONS = frozenset(f.name for f in _FUNCTIONS)
"""Every function name; ``max``/``min`` with one argument aggregate, with more are scalar."""

# --------------------------------------------------------------------------- AST


class _Node(Frozen):
    __slots__ = ()

    def __str__(self) -> str:
        return unparse(self)  # type: ignore[arg-type]


def _pos() -> Any:
    return field(default=1, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Num(_Node):
    """An integer literal (``12``); parsing never yields negative values."""

    value: int
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Str(_Node):
    """A string literal (``'play'`` or ``"play"``), without its quotes."""

    value: str
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Bool(_Node):
    """``true`` or ``false``."""

    value: bool
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Name(_Node):
    """A name, resolved by the :class:`Resolver` (option, variable or builtin)."""

    name: str
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Call(_Node):
    """A function call ``func(args...)``; the position is the function name's."""

    func: str
    args: tuple[Node, ...]
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Unary(_Node):
    """``-operand`` (op ``'-'``) or ``not operand`` (op ``'not'``)."""

    op: str
    operand: Node
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Binary(_Node):
    """Integer arithmetic: op is one of ``+ - * / %``.

    ``line``/``column`` is where the left operand starts; ``op_line``/``op_column``
    is the operator's position (0 when unknown).
    """

    op: str
    left: Node
    right: Node
    line: int = _pos()
    column: int = _pos()
    op_line: int = field(default=0, compare=False, repr=False)
    op_column: int = field(default=0, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Logic(_Node):
    """``left and right`` / ``left or right`` (short-circuit)."""

    op: str
    left: Node
    right: Node
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Compare(_Node):
    """A comparison, op one of ``== != < <= > >=`` (comparisons do not chain)."""

    op: str
    left: Node
    right: Node
    line: int = _pos()
    column: int = _pos()
    op_line: int = field(default=0, compare=False, repr=False)
    op_column: int = field(default=0, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class IfExpr(_Node):
    """``if cond then then else else_``."""

    cond: Node
    then: Node
    else_: Node
    line: int = _pos()
    column: int = _pos()


@dataclass(frozen=True, slots=True)
class Filter(_Node):
    """``cards where cond``: the cards of a card set for which ``cond`` holds (inside
    ``cond``, ``card_suit``, ``card_rank`` and ``card_is_trump`` read each card)."""

    cards: Node
    cond: Node
    line: int = _pos()
    column: int = _pos()


Node: TypeAlias = Union[Num, Str, Bool, Name, Call, Unary, Binary, Logic, Compare, IfExpr,  # noqa: UP007
                        Filter]
"""Any AST node.  Equality ignores positions: ``parse_formula('1+2') == parse_formula('1 + 2')``."""


def _children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, Binary | Logic | Compare):
        return (node.left, node.right)
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, IfExpr):
        return (node.cond, node.then, node.else_)
    if isinstance(node, Filter):
        return (node.cards, node.cond)
    return ()


def iter_nodes(node: Node) -> Iterator[Node]:
    """Every node of the tree, parents before children, left to right.

    >>> [type(n).__name__ for n in iter_nodes(parse_formula("-a + 1"))]
    ['Binary', 'Unary', 'Name', 'Num']
    """
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(_children(n)))


def _op_pos(node: Binary | Compare) -> tuple[int, int]:
    if node.op_line:
        return node.op_line, node.op_column
    return node.line, node.column


# ------------------------------------------------------------------- unparsing

_PREC_BINARY = {"+": 5, "-": 5, "*": 6, "/": 6, "%": 6}
_PREC_LOGIC = {"or": 1, "and": 2}


def unparse(node: Node) -> str:
    """Formula text for an AST, with only the parentheses that are needed.

    ``parse_formula(unparse(n)) == n`` for every tree that parsing can produce.

    >>> unparse(parse_formula("(a + (b * 2)) - (c - d)"))
    'a + b * 2 - (c - d)'
    >>> unparse(parse_formula("not (x and y) or (if p then 1 else 2)"))
    'not (x and y) or (if p then 1 else 2)'
    """
    return _unparse(node, 0)


def _unparse(node: Node, need: int) -> str:
    text, prec = _unparse_prec(node)
    return f"({text})" if prec < need else text


def _unparse_prec(node: Node) -> tuple[str, int]:
    if isinstance(node, Num):
        return str(node.value), (8 if node.value >= 0 else 7)
    if isinstance(node, Str):
        if "'" not in node.value:
            return f"'{node.value}'", 8
        if '"' not in node.value and "\n" not in node.value:
            return f'"{node.value}"', 8
        raise ValueError(f"string {node.value!r} cannot be written in the formula language")
    if isinstance(node, Bool):
        return ("true" if node.value else "false"), 8
    if isinstance(node, Name):
        return node.name, 8
    if isinstance(node, Call):
        return f"{node.func}({', '.join(_unparse(a, -1) for a in node.args)})", 8
    if isinstance(node, Unary):
        if node.op == "-":
            return "-" + _unparse(node.operand, 7), 7
        return "not " + _unparse(node.operand, 3), 3
    if isinstance(node, Binary):
        p = _PREC_BINARY[node.op]
        return f"{_unparse(node.left, p)} {node.op} {_unparse(node.right, p + 1)}", p
    if isinstance(node, Logic):
        p = _PREC_LOGIC[node.op]
        return f"{_unparse(node.left, p)} {node.op} {_unparse(node.right, p + 1)}", p
    if isinstance(node, Compare):
        return f"{_unparse(node.left, 5)} {node.op} {_unparse(node.right, 5)}", 4
    if isinstance(node, Filter):
        # -1: parenthesized everywhere but as an argument (see grammar/formula.lark)
        return f"{_unparse(node.cards, 1)} where {_unparse(node.cond, 1)}", -1
    return (
        f"if {_unparse(node.cond, 0)} then {_unparse(node.then, 0)} else {_unparse(node.else_, 0)}",
        0,
    )
