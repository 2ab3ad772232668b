"""The range of values an integer formula can take, worked out from its names' ranges.

Used by ``validate`` to keep its promise (a spec it accepts never stops play with an
error): a number decision's range, an exchange's ``max``, are bounded before play.
The analysis is sound and simple: each node gives an interval ``(lo, hi)``, ``None``
on a side meaning unbounded there; a name with no known range is unbounded.

>>> bounds(parse_formula("min(cards, 13) + 1"), {"cards": (0, 32)})
(1, 14)
>>> bounds(parse_formula("if x > 2 then 5 else count(seat > 0)"), {}, nseats=4)
(0, 5)
>>> bounds(parse_formula("score * 2"), {})
(None, None)
"""

from __future__ import annotations

from collections.abc import Mapping

from ..limits import MAX_CARDS, MAX_PLAYERS
from .nodes import Binary, Call, IfExpr, Name, Node, Num, Unary
from .parse import parse_formula

__all__ = ["Interval", "bounds", "parse_formula"]

Interval = tuple[int | None, int | None]
"""``(lo, hi)``; None: unbounded on that side."""

_ANY: Interval = (None, None)


def bounds(node: Node, ranges: Mapping[str, Interval], nseats: int = MAX_PLAYERS,
           cards: int = MAX_CARDS) -> Interval:
    """The interval of the integer values ``node`` can take, when each name of ``ranges``
    takes a value in its interval (other names: unbounded; ``nseats``: the seats an
    aggregate runs over, at most; ``cards``: the most cards a set holds)."""
    return _Bounds(ranges, nseats, cards).of(node)


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


class _Bounds:
    def __init__(self, ranges: Mapping[str, Interval], nseats: int, cards: int) -> None:
        self.ranges = ranges
        self.n = max(1, nseats)
        self.cards = max(self.n, cards)

    def of(self, node: Node) -> Interval:  # noqa: PLR0911, PLR0912 - one case per node kind
        if isinstance(node, Num):
            return node.value, node.value
        if isinstance(node, Name):
            return self.ranges.get(node.name, _ANY)
        if isinstance(node, Unary) and node.op == "-":
            lo, hi = self.of(node.operand)
            return (None if hi is None else -hi), (None if lo is None else -lo)
        if isinstance(node, IfExpr):
            (a, b), (c, d) = self.of(node.then), self.of(node.else_)
            return (None if a is None or c is None else min(a, c),
                    None if b is None or d is None else max(b, d))
        if isinstance(node, Binary):
            return self.binary(node.op, self.of(node.left), self.of(node.right))
        if isinstance(node, Call):
            return self.call(node)
        return _ANY

    def call(self, node: Call) -> Interval:
        name, args = node.func, node.args
        if name == "count" and len(args) == 1:
            return 0, self.cards if _is_card_set(args[0]) else self.n
        if name in ("any", "all"):
            return _ANY
        if name == "abs" and len(args) == 1:
            lo, hi = self.of(args[0])
            if lo is not None and lo >= 0:
                return lo, hi
            top = None if lo is None or hi is None else max(-lo, hi)
            return 0, top
        if name == "sum" and len(args) == 1:
            lo, hi = self.of(args[0])
            return (None if lo is None else min(lo, lo * self.n),
                    None if hi is None else max(hi, hi * self.n))
        if name in ("max", "min"):
            parts = [self.of(a) for a in args]
            los = [p[0] for p in parts]
            his = [p[1] for p in parts]
            if name == "max":
                lo = max((x for x in los if x is not None), default=None)
                hi = None if None in his else max(his)  # type: ignore[type-var]
            else:
                lo = None if None in los else min(los)  # type: ignore[type-var]
                hi = min((x for x in his if x is not None), default=None)
            return lo, hi
        return _ANY

    @staticmethod
    def binary(op: str, a: Interval, b: Interval) -> Interval:
        (alo, ahi), (blo, bhi) = a, b
        if op == "+":
            return _add(alo, blo), _add(ahi, bhi)
        if op == "-":
            return (_add(alo, None if bhi is None else -bhi),
                    _add(ahi, None if blo is None else -blo))
        if None in (alo, ahi, blo, bhi):
            if op == "%" and blo is not None and blo > 0:
                return 0, None if bhi is None else bhi - 1  # Python's % takes the divisor's sign
            return _ANY
        assert alo is not None and ahi is not None and blo is not None and bhi is not None
        if op == "*":
            corners = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
            return min(corners), max(corners)
        if op == "/":
            # floor division; a divisor of 0 gives 0 (see compile.py)
            divisors = [d for d in (blo, bhi, -1, 1) if blo <= d <= bhi and d != 0]
            corners = [0] + [x // d for x in (alo, ahi) for d in divisors]
            return min(corners), max(corners)
        if op == "%":
            if blo > 0:
                return 0, bhi - 1
            top = max(abs(blo), abs(bhi))
            return -top, top
        return _ANY


def _is_card_set(node: Node) -> bool:
    """Whether ``count``'s argument is (plainly) a set of cards, not a condition: then it
    counts cards, not seats.  Unsure: treated as a set (the larger bound stays sound)."""
    from .nodes import Compare, Logic

    return not isinstance(node, Compare | Logic | Unary)
