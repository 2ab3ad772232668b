"""Type-checking a formula's AST and compiling it to closures ``fn(state, seat)``.

The entry points (:func:`compile_formula`, :func:`evaluate`), the result
(:class:`Compiled`) and the compiler of names, aggregates and operators.  Beside it:
:mod:`.subformula` (a compiled sub-formula, the compiler's shared state and checks),
:mod:`.card_functions` (the functions over cards), :mod:`.operators` (the operators'
closures) and :mod:`.unrolled` (aggregates unrolled by seat count).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter, neg, not_, truth
from typing import TYPE_CHECKING, Any, Literal

from ..errors import FormulaError, did_you_mean
from ..frozen import Frozen
from .card_functions import _CardCompiler
from .names import Fn, Resolver, TypeName, Value, _norm_type
from .nodes import (
    AGGREGATES,
    CARD_FUNCTIONS,
    FUNCTIONS,
    Binary,
    Bool,
    Call,
    Compare,
    Filter,
    IfExpr,
    Logic,
    Name,
    Node,
    Num,
    Str,
    Unary,
    _op_pos,
    unparse,
)
from .operators import (
    _ARITH,
    _ARITH_LEFT_CONST,
    _ARITH_RIGHT_CONST,
    _COMPARE,
    _COMPARE_RIGHT_CONST,
    _DIVISION,
    _FLIP,
    _OPERATOR,
    _VEC_ARITH,
    _arith_message,
    _column_aggregate,
    _divide,
    _eq_any,
    _ne_any,
    _vec2,
    _vec_logic,
)
from .parse import check_limits, formula_names, parse_formula
from .subformula import _ARTICLE, _C, _EXPECT_WORDS, _const, _folded
from .tables import ValueTable
from .unrolled import _UNROLLED

if TYPE_CHECKING:  # lark is imported lazily: importing this module must stay cheap
    pass

STEP_BUDGET = 100_000
"""Largest static cost (see :attr:`Compiled.cost`) a formula may have."""
# -------------------------------------------------------------------- compiler


@dataclass(frozen=True, slots=True)
class Compiled(Frozen):
    """A compiled formula.

    - ``fn(state, seat)``: evaluates it (``seat`` is ignored by global formulas but
      must be passed).  Never raises on well-typed input: ``x / 0 == 0``.
    - ``ast``: the parsed tree; ``text``: the source (or the unparsed AST).
    - ``names``: the names used; ``type``: ``"int"``/``"bool"``/``"str"``/``"any"``.
    - ``cost``: static evaluation steps (each node 1, an aggregate ``nseats`` times
      its argument), at most :data:`STEP_BUDGET`.
    - ``constant``/``value``: True and the value when the formula folded to a
      constant (only literals and options); ``fn`` then just returns ``value``.
    - ``vec(state, seat)``: when not None, every seat's value at once (an
      iterable in seat order), read from per-player lists (NameInfo.column).
    """

    fn: Fn
    ast: Node
    text: str
    names: frozenset[str]
    cost: int
    constant: bool
    value: Value | None
    type: TypeName
    per_player: bool
    vec: Callable[[Any, int], Iterable[Any]] | None = None  # every seat's value at once

    def __call__(self, state: Any, seat: int = 0) -> Any:
        return self.fn(state, seat)



def compile_formula(
    source: str | Node,
    resolver: Resolver,
    *,
    per_player: bool,
    expect: Literal["int", "bool", "str"] | None = None,
    strict_eq: bool = True,
) -> Compiled:
    """Parse (if given text), check and compile a formula.

    ``per_player=True`` compiles a per-player formula: per-player names outside an
    aggregate refer to the ``seat`` passed to ``fn``.  Inside ``count() sum() any()
    all() max() min()`` per-player names refer to the seat being iterated (nested
    aggregates iterate again).  ``expect`` optionally requires a result type (an
    unknown type always passes).  Raises :class:`FormulaError` (column inside the
    formula) for unknown names or functions, misuse of per-player names, wrong
    arity, type errors and formulas over :data:`STEP_BUDGET`.  ``strict_eq=False``
    lets ``==``/``!=`` compare values of known different types (never equal), as they
    do in play when a type is only known then (``validate`` checks such formulas for
    each type a name can have: see :mod:`spelbok.lang.promise`).

    >>> r = DictResolver(4, {"floor_zero": False, "bonus": 2,
    ...                      "tricks": NameInfo("player", lambda st, q: st[q], "int")})
    >>> f = compile_formula("if floor_zero then 0 else bonus * 10 / 3", r, per_player=False)
    >>> f.constant, f.value, f.fn(None, 0)
    (True, 6, 6)
    >>> compile_formula("max(tricks) - tricks", r, per_player=True).fn([0, 3, 1, 2], 2)
    2
    >>> compile_formula("tricks > 2", r, per_player=False)
    Traceback (most recent call last):
    ...
    spelbok.errors.FormulaError: <spec>:1:1: 'tricks' is a per-player value; use it inside count(), sum(), any(), all(), max() or min(), or in a per-player rule
    """
    if isinstance(source, str):
        node = parse_formula(source)
        text = source
    else:
        node = source
        check_limits(node)
        text = unparse(node)
    compiler = _Compiler(resolver, per_player)
    compiler.strict_eq = strict_eq
    c = compiler.compile(node, False)
    compiler.budget(c.cost, node)
    if expect is not None and c.type not in (expect, "any"):
        raise FormulaError(
            f"expected {_EXPECT_WORDS[expect]}, but this formula gives {_ARTICLE[c.type]}",
            line=node.line,
            col=node.column,
        )
    return Compiled(
        fn=c.fn,
        ast=node,
        text=text,
        names=frozenset(formula_names(node)),
        cost=c.cost,
        constant=c.const,
        value=c.value if c.const else None,
        type=c.type,
        per_player=per_player,
        vec=c.vec,
    )


def evaluate(
    source: str | Node,
    resolver: Resolver,
    state: Any,
    seat: int = 0,
    per_player: bool = False,
) -> Any:
    """Compile and evaluate once (convenient in tools and tests; slow on a hot path).

    >>> evaluate("7 / 2 + 7 % 2", DictResolver(2, {}), None)
    4
    """
    return compile_formula(source, resolver, per_player=per_player).fn(state, seat)


class _Compiler(_CardCompiler):
    """Type-checks a formula's AST and compiles it, node by node (each node once per
    context: see :meth:`_CompilerBase.compile`)."""

    def budget(self, cost: int, node: Node) -> int:
        """``cost``, unless it is over STEP_BUDGET (then a FormulaError at ``node``)."""
        if cost > STEP_BUDGET:
            raise FormulaError(
                f"formula is too expensive to evaluate: {cost:,} steps with {self.nseats} "
                f"seats (the limit is {STEP_BUDGET:,})",
                line=node.line,
                col=node.column,
            )
        return cost

    # -- dispatch

    def _compile(self, node: Node, in_agg: bool) -> _C:
        if isinstance(node, Num | Str | Bool):
            t: TypeName = (
                "int" if isinstance(node, Num) else "str" if isinstance(node, Str) else "bool"
            )
            return _const(node.value, t, 1)
        if isinstance(node, Name):
            return self._name(node, in_agg)
        if isinstance(node, Call):
            return self._call(node, in_agg)
        if isinstance(node, Unary):
            return self._unary(node, in_agg)
        if isinstance(node, Binary):
            return self._binary(node, in_agg)
        if isinstance(node, Logic):
            return self._logic(node, in_agg)
        if isinstance(node, Compare):
            return self._compare(node, in_agg)
        if isinstance(node, IfExpr):
            return self._if(node, in_agg)
        if isinstance(node, Filter):
            return self._filter(node, in_agg)
        raise TypeError(f"not a formula node: {node!r}")

    # -- names

    def _name(self, node: Name, in_agg: bool) -> _C:
        info = self._lookup(node.name)
        if info is None:
            if node.name in FUNCTIONS:
                raise FormulaError(
                    f"'{node.name}' is a function; call it as {node.name}(...)",
                    line=node.line,
                    col=node.column,
                )
            raise FormulaError(
                f"unknown name '{node.name}'",
                line=node.line,
                col=node.column,
                hint=did_you_mean(node.name, self.resolver.names()),
            )
        kind, target, type_ = info.kind, info.value, info.type
        if kind == "table":
            raise FormulaError(
                f"'{node.name}' is a table; read it with its key"
                f"{'s' if target.arity != 1 else ''}: {node.name}("
                + ", ".join("…" for _ in range(target.arity)) + ")",
                line=node.line, col=node.column)
        t = _norm_type(type_, target, kind)
        if kind == "const":
            return _const(target, t, 1)
        if kind == "global":
            g = target
            direct = info.direct
            return _C(direct if direct is not None else (lambda st, p: g(st)), t, 1,
                      seat_free=True)
        if kind == "player":
            if not (in_agg or self.per_player):
                raise FormulaError(
                    f"'{node.name}' is a per-player value; use it inside count(), sum(), "
                    "any(), all(), max() or min(), or in a per-player rule",
                    line=node.line,
                    col=node.column,
                )
            if info.column is not None:
                attr, row = info.column
                get = attrgetter(attr)
                vec: Callable[[Any, int], Iterable[Any]] = (
                    (lambda st, p: get(st)) if row is None else (lambda st, p: get(st)[row]))
                return _C(target, t, 1, shape=("col", get, row), vec=vec)
            return _C(target, t, 1)  # the getter itself: g(state, seat)
        raise ValueError(f"resolver gave an unknown kind {kind!r} for '{node.name}'")

    # -- calls

    def _call(self, node: Call, in_agg: bool) -> _C:
        name, nargs = node.func, len(node.args)
        if name in CARD_FUNCTIONS:
            return self._card_call(node, in_agg)
        if name == "count" and nargs == 1 and self.compile(node.args[0], True).type == "cards":
            return self._card_call(node, in_agg)
        if name not in FUNCTIONS:
            info = self._lookup(name)
            if info is not None and info.kind == "table":
                return self._table(node, info.value, in_agg)
            if info is not None:
                raise FormulaError(f"'{name}' is not a function", line=node.line, col=node.column)
            raise FormulaError(
                f"unknown function '{name}' (functions: count, any, all, sum, max, min, abs, "
                + ", ".join(sorted(CARD_FUNCTIONS)) + ")",
                line=node.line,
                col=node.column,
                hint=did_you_mean(name, sorted(FUNCTIONS)),
            )
        if name in ("max", "min"):
            if nargs == 0:
                raise FormulaError(
                    f"{name} takes 1 or more arguments, got 0", line=node.line, col=node.column
                )
        elif nargs != 1:
            raise FormulaError(
                f"{name} takes 1 argument, got {nargs}",
                line=node.line,
                col=node.column,
            )
        if name in AGGREGATES and nargs == 1:
            return self._aggregate(node)
        args = [self.compile(a, in_agg) for a in node.args]
        for a, c in zip(node.args, args, strict=True):
            self._need(c, "int", a, f"{name}()")
        cost = 1 + sum(c.cost for c in args)
        fns = [c.fn for c in args]
        fn: Fn
        if name == "abs":
            (x,) = fns
            fn = lambda st, p: abs(x(st, p))  # noqa: E731
        elif len(fns) == 2:
            x, y = fns
            if name == "max":
                fn = lambda st, p: max(x(st, p), y(st, p))  # noqa: E731
            else:
                fn = lambda st, p: min(x(st, p), y(st, p))  # noqa: E731
        else:
            f = max if name == "max" else min
            tfns = tuple(fns)
            fn = lambda st, p: f([g(st, p) for g in tfns])  # noqa: E731
        if all(c.const for c in args):
            return _folded(fn, "int", cost)
        return _C(fn, "int", cost)

    def _table(self, node: Call, table: ValueTable, in_agg: bool) -> _C:
        """``name(key, …)``: the spec's table read at the keys (see :mod:`.tables`)."""
        if len(node.args) != table.arity:
            raise FormulaError(
                f"the table '{table.name}' takes {table.arity} key"
                f"{'s' if table.arity != 1 else ''}, got {len(node.args)}",
                line=node.line, col=node.column)
        args = [self.compile(a, in_agg) for a in node.args]
        for i, (a, c) in enumerate(zip(node.args, args, strict=True)):
            want: TypeName = "int" if table.key_types[i] == "int" else "str"
            self._need(c, want, a, f"the table '{table.name}' (key {i + 1})")
        vt: TypeName = table.value_type  # type: ignore[assignment]
        cost = 1 + sum(c.cost for c in args)
        fns = tuple(c.fn for c in args)
        lookup = table.lookup
        fn: Fn
        if len(fns) == 1:
            (x,) = fns
            entries, other = table.entries, table.missing()
            fn = lambda st, p: entries.get((x(st, p),), other)  # noqa: E731
        else:
            fn = lambda st, p: lookup(tuple(g(st, p) for g in fns))  # noqa: E731
        if all(c.const for c in args):
            return _folded(fn, vt, cost)
        return _C(fn, vt, cost)

    def _aggregate(self, node: Call) -> _C:
        name, n = node.func, self.nseats
        arg_node = node.args[0]
        c = self.compile(arg_node, True)
        if name == "count" and c.type == "card":  # count() of a card set is the other count
            raise FormulaError("count() needs a condition (true or false) or a set of cards, "
                               "got a card", line=arg_node.line, col=arg_node.column)
        if name in ("count", "any", "all"):
            self._need(c, "bool", arg_node, f"{name}()")
            t: TypeName = "int" if name == "count" else "bool"
        else:
            self._need(c, "int", arg_node, f"{name}()")
            t = "int"
        cost = self.budget(1 + n * c.cost, node)
        fast = _column_aggregate(name, c)
        if fast is not None:
            return _C(fast, t, cost, seat_free=True)
        e = c.fn
        rng = range(n)
        fn: Fn
        table, pick = _UNROLLED[name]
        unrolled = table.get(n)
        if unrolled is not None and (name in ("sum", "max", "min") or c.type == "bool"):
            fn = unrolled(e) if pick is None else unrolled(e, pick)
        elif name == "count":
            if c.type == "bool":
                fn = lambda st, p: sum(map(e, repeat(st), rng))  # noqa: E731
            else:
                fn = lambda st, p: sum(map(truth, map(e, repeat(st), rng)))  # noqa: E731
        elif name == "any":
            fn = lambda st, p: any(map(e, repeat(st), rng))  # noqa: E731
        elif name == "all":
            fn = lambda st, p: all(map(e, repeat(st), rng))  # noqa: E731
        elif name == "sum":
            fn = lambda st, p: sum(map(e, repeat(st), rng))  # noqa: E731
        elif n == 0:  # max/min over no seats
            return _const(0, "int", cost)
        elif name == "max":
            fn = lambda st, p: max(map(e, repeat(st), rng))  # noqa: E731
        else:
            fn = lambda st, p: min(map(e, repeat(st), rng))  # noqa: E731
        if c.const:
            return _folded(fn, t, cost)
        return _C(fn, t, cost)

    # -- cards

    # -- operators

    def _unary(self, node: Unary, in_agg: bool) -> _C:
        c = self.compile(node.operand, in_agg)
        x = c.fn
        fn: Fn
        if node.op == "-":
            self._need(c, "int", node.operand, "'-'")
            t: TypeName = "int"
            fn = lambda st, p: -x(st, p)  # noqa: E731
        else:
            self._need(c, "bool", node.operand, "'not'")
            t = "bool"
            fn = lambda st, p: not x(st, p)  # noqa: E731
            if c.shape is not None and c.shape[0] == "col":
                _, get, row = c.shape
                if row is None:
                    fn = lambda st, p: not get(st)[p]  # noqa: E731
                else:
                    fn = lambda st, p: not get(st)[row][p]  # noqa: E731
        if c.const:
            return _folded(fn, t, c.cost + 1)
        vec = None
        if c.vec is not None:
            v = c.vec
            vec = ((lambda st, p: map(neg, v(st, p))) if node.op == "-"  # noqa: E731
                   else (lambda st, p: map(not_, v(st, p))))  # noqa: E731
        return _C(fn, t, c.cost + 1, seat_free=c.seat_free, vec=vec)

    def _binary(self, node: Binary, in_agg: bool) -> _C:
        a = self.compile(node.left, in_agg)
        b = self.compile(node.right, in_agg)
        op = node.op
        for side in (a, b):
            if side.type not in ("int", "any"):
                line, col = _op_pos(node)
                raise FormulaError(_arith_message(op, a.type, b.type), line=line, col=col)
        cost = 1 + a.cost + b.cost
        division = _DIVISION.get(op)
        if division is not None and b.const and not b.value:
            line, col = _op_pos(node)
            raise FormulaError(f"division by zero: '{unparse(node)}'", line=line, col=col)
        if a.const and b.const:
            return _folded(_ARITH[op](a.fn, b.fn), "int", cost)
        free = a.seat_free and b.seat_free
        vec = _vec2(_VEC_ARITH[op], a, b) if op in _VEC_ARITH else None
        if b.const:
            return _C(_ARITH_RIGHT_CONST[op](a.fn, b.value), "int", cost, seat_free=free, vec=vec)
        if division is not None:  # a divisor worked out in play: 0 gives 0
            return _C(_divide(a.fn, b.fn, division, unparse(node)), "int", cost, seat_free=free)
        if a.const:
            return _C(_ARITH_LEFT_CONST[op](a.value, b.fn), "int", cost, seat_free=free, vec=vec)
        return _C(_ARITH[op](a.fn, b.fn), "int", cost, seat_free=free, vec=vec)

    def _logic(self, node: Logic, in_agg: bool) -> _C:
        a = self.compile(node.left, in_agg)
        b = self.compile(node.right, in_agg)
        self._need(a, "bool", node.left, f"'{node.op}'")
        self._need(b, "bool", node.right, f"'{node.op}'")
        t: TypeName = "bool" if a.type == b.type == "bool" else "any"
        cost = 1 + a.cost + b.cost
        if a.const:
            decided = (not a.value) if node.op == "and" else bool(a.value)
            if decided:
                return _const(a.value, a.type, cost)
            return _C(b.fn, b.type, cost, b.const, b.value)
        x, y = a.fn, b.fn
        vec = _vec_logic(operator.and_ if node.op == "and" else operator.or_, a, b) \
            if t == "bool" else None
        free = a.seat_free and b.seat_free
        if node.op == "and":
            return _C(lambda st, p: x(st, p) and y(st, p), t, cost, seat_free=free, vec=vec)
        return _C(lambda st, p: x(st, p) or y(st, p), t, cost, seat_free=free, vec=vec)

    def _compare(self, node: Compare, in_agg: bool) -> _C:
        a = self.compile(node.left, in_agg)
        b = self.compile(node.right, in_agg)
        op = node.op
        if "card" in (a.type, b.type) and "str" in (a.type, b.type):  # card == 'AH'
            ctx = self._cards(node)
            a = self._card_literal(node.left, a, ctx)
            b = self._card_literal(node.right, b, ctx)
        line, col = _op_pos(node)
        known = a.type != "any" and b.type != "any"
        if known and a.type != b.type and not self.strict_eq and op in ("==", "!="):
            return _const(op == "!=", "bool", 1 + a.cost + b.cost)
        if known and a.type != b.type:
            raise FormulaError(
                f"cannot compare {_ARTICLE[a.type]} with {_ARTICLE[b.type]}"
                + (" (they are never equal)" if op in ("==", "!=") else ""),
                line=line,
                col=col,
            )
        if op not in ("==", "!=") and "bool" in (a.type, b.type):
            raise FormulaError(
                f"cannot use '{op}' on a bool (only == and != compare true/false)",
                line=line,
                col=col,
            )
        cost = 1 + a.cost + b.cost
        if op in ("==", "!=") and not known:
            strict = _eq_any if op == "==" else _ne_any
            x, y = a.fn, b.fn
            fn: Fn = lambda st, p: strict(x(st, p), y(st, p))  # noqa: E731
            if a.const and b.const:
                return _folded(fn, "bool", cost)
            return _C(fn, "bool", cost)
        if a.const and b.const:
            return _folded(_COMPARE[op](a.fn, b.fn), "bool", cost)
        vec = _vec2(_OPERATOR[op], a, b)
        # a per-player list against a constant: one call per seat
        if a.shape is not None and b.const or b.shape is not None and a.const:
            side, kv, eff = (a, b.value, op) if b.const else (b, a.value, _FLIP[op])
            _, get, row = side.shape  # type: ignore[misc]
            opf = _OPERATOR[eff]
            if row is None:
                fn = lambda st, p: opf(get(st)[p], kv)  # noqa: E731
            else:
                fn = lambda st, p: opf(get(st)[row][p], kv)  # noqa: E731
            return _C(fn, "bool", cost, vec=vec)
        if vec is not None:
            return _C(_COMPARE[op](a.fn, b.fn), "bool", cost, vec=vec)
        if b.const:
            return _C(_COMPARE_RIGHT_CONST[op](a.fn, b.value), "bool", cost)
        if a.const:
            # k < x  <=>  x > k
            return _C(_COMPARE_RIGHT_CONST[_FLIP[op]](b.fn, a.value), "bool", cost)
        return _C(_COMPARE[op](a.fn, b.fn), "bool", cost)

    def _if(self, node: IfExpr, in_agg: bool) -> _C:
        c = self.compile(node.cond, in_agg)
        a = self.compile(node.then, in_agg)
        b = self.compile(node.else_, in_agg)
        self._need(c, "bool", node.cond, "'if'")
        if a.type != b.type and "any" not in (a.type, b.type):
            raise FormulaError(
                f"the two branches of 'if' give different types: {_ARTICLE[a.type]} after "
                f"'then', {_ARTICLE[b.type]} after 'else'",
                line=node.line,
                col=node.column,
            )
        t: TypeName = a.type if a.type == b.type else "any"
        cost = 1 + c.cost + max(a.cost, b.cost)
        if c.const:  # decided by options: the branch taken, as it is
            pick = a if c.value else b
            return _C(pick.fn, t, cost, pick.const, pick.value, pick.shape, pick.seat_free,
                      pick.vec)
        cf, x, y = c.fn, a.fn, b.fn
        if a.const and b.const:
            va, vb = a.value, b.value
            return _C(lambda st, p: va if cf(st, p) else vb, t, cost)
        return _C(lambda st, p: x(st, p) if cf(st, p) else y(st, p), t, cost)
