"""Closures for the formula operators: arithmetic, comparison and the per-seat vectors
(every seat's value at once) that aggregates read in one built-in call.

Closure factories: one per operator and shape, so the hot path makes no extra calls.
Each is a def returning a lambda (mypyc, see setup.py, cannot compile a lambda that
returns a lambda).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from itertools import repeat
from operator import truth
from typing import Any

from .names import Fn, TypeName
from .subformula import _ARTICLE, _C


def _eq_any(x: Any, y: Any) -> bool:
    return type(x) is type(y) and x == y


def _ne_any(x: Any, y: Any) -> bool:
    return not (type(x) is type(y) and x == y)


def _arith_message(op: str, ta: TypeName, tb: TypeName) -> str:
    a, b = _ARTICLE[ta], _ARTICLE[tb]
    if op == "+":
        return f"cannot add {a} and {b}"
    if op == "-":
        return f"cannot subtract {b} from {a}"
    if op == "*":
        return f"cannot multiply {a} by {b}"
    if op == "/":
        return f"cannot divide {a} by {b}"
    return f"cannot take {a} modulo {b}"




def _divide(a: Fn, b: Fn, op: Callable[[Any, Any], Any], text: str) -> Fn:
    """``a / b`` or ``a % b``; a divisor of 0 (worked out in play) gives 0: a spec that
    validates never stops a match (a divisor fixed at 0 is refused when it loads)."""
    def f(st: Any, p: int) -> Any:
        y = b(st, p)
        if not y:
            return 0
        return op(a(st, p), y)
    return f


def _arith_add(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) + b(st, p)


def _arith_sub(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) - b(st, p)


def _arith_mul(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) * b(st, p)


_ARITH: dict[str, Callable[[Fn, Fn], Fn]] = {
    "+": _arith_add,
    "-": _arith_sub,
    "*": _arith_mul,
    "/": lambda a, b: _divide(a, b, operator.floordiv, ""),  # folding only: b is not 0
    "%": lambda a, b: _divide(a, b, operator.mod, ""),
}
_DIVISION: dict[str, Callable[[Any, Any], Any]] = {"/": operator.floordiv, "%": operator.mod}


def _arith_right_const_add(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) + k


def _arith_right_const_sub(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) - k


def _arith_right_const_mul(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) * k


def _arith_right_const_div(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) // k


def _arith_right_const_mod(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) % k


_ARITH_RIGHT_CONST: dict[str, Callable[[Fn, Any], Fn]] = {  # k != 0 for / and %
    "+": _arith_right_const_add,
    "-": _arith_right_const_sub,
    "*": _arith_right_const_mul,
    "/": _arith_right_const_div,
    "%": _arith_right_const_mod,
}


def _arith_left_const_add(k: Any, b: Any) -> Fn:
    return lambda st, p: k + b(st, p)


def _arith_left_const_sub(k: Any, b: Any) -> Fn:
    return lambda st, p: k - b(st, p)


def _arith_left_const_mul(k: Any, b: Any) -> Fn:
    return lambda st, p: k * b(st, p)


_ARITH_LEFT_CONST: dict[str, Callable[[Any, Fn], Fn]] = {
    "+": _arith_left_const_add,
    "-": _arith_left_const_sub,
    "*": _arith_left_const_mul,
}


def _compare_eq(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) == b(st, p)


def _compare_ne(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) != b(st, p)


def _compare_lt(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) < b(st, p)


def _compare_le(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) <= b(st, p)


def _compare_gt(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) > b(st, p)


def _compare_ge(a: Any, b: Any) -> Fn:
    return lambda st, p: a(st, p) >= b(st, p)


_COMPARE: dict[str, Callable[[Fn, Fn], Fn]] = {
    "==": _compare_eq,
    "!=": _compare_ne,
    "<": _compare_lt,
    "<=": _compare_le,
    ">": _compare_gt,
    ">=": _compare_ge,
}


def _compare_right_const_eq(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) == k


def _compare_right_const_ne(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) != k


def _compare_right_const_lt(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) < k


def _compare_right_const_le(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) <= k


def _compare_right_const_gt(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) > k


def _compare_right_const_ge(a: Any, k: Any) -> Fn:
    return lambda st, p: a(st, p) >= k


_COMPARE_RIGHT_CONST: dict[str, Callable[[Fn, Any], Fn]] = {
    "==": _compare_right_const_eq,
    "!=": _compare_right_const_ne,
    "<": _compare_right_const_lt,
    "<=": _compare_right_const_le,
    ">": _compare_right_const_gt,
    ">=": _compare_right_const_ge,
}
_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_OPERATOR = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
             ">": operator.gt, ">=": operator.ge}


_VEC_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_VEC_AGG: dict[str, Callable[[Iterable[Any]], Any]] = {
    "sum": sum, "max": max, "min": min, "any": any, "all": all}


def _vec2(opf: Callable[[Any, Any], Any], a: _C, b: _C) -> Callable[[Any, int], Iterable[Any]] | None:
    """Every seat's ``opf(a, b)`` at once, when each side is per-seat lists or seat-free."""
    if a.vec is None and b.vec is None:
        return None
    if a.vec is not None and b.vec is not None:
        va, vb = a.vec, b.vec
        return lambda st, p: map(opf, va(st, p), vb(st, p))
    if a.vec is not None and b.seat_free:
        va, k = a.vec, b.fn
        return lambda st, p: map(opf, va(st, p), repeat(k(st, p)))
    if b.vec is not None and a.seat_free:
        vb, k = b.vec, a.fn
        return lambda st, p: map(opf, repeat(k(st, p)), vb(st, p))
    return None


def _as_bools(c: _C) -> Callable[[Any, int], Iterable[bool]] | None:
    """Every seat's truth of ``c`` (a variable typed bool may hold another value)."""
    v = c.vec
    if v is not None:
        return lambda st, p: map(truth, v(st, p))
    if c.seat_free:
        f = c.fn
        return lambda st, p: repeat(bool(f(st, p)))
    return None


def _vec_logic(opf: Callable[[Any, Any], Any], a: _C, b: _C,
               ) -> Callable[[Any, int], Iterable[Any]] | None:
    """Every seat's ``a and b`` / ``a or b`` at once: on bools, & and | are 'and' and 'or'."""
    if a.vec is None and b.vec is None:
        return None
    va, vb = _as_bools(a), _as_bools(b)
    if va is None or vb is None:
        return None
    return lambda st, p: map(opf, va(st, p), vb(st, p))


def _column_aggregate(name: str, c: _C) -> Fn | None:
    """An aggregate over every seat's value at once (see _C.vec): one built-in
    call instead of one Python call per seat; None when the argument has no vec."""
    v = c.vec
    if v is None:
        return None
    if name == "count":
        return lambda st, p: sum(map(truth, v(st, p)))
    agg: Callable[[Iterable[Any]], Any] = _VEC_AGG[name]
    return lambda st, p: agg(v(st, p))
