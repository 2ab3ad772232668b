"""Type-checking a formula's AST and compiling it to closures ``fn(state, seat)``."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter, neg, not_, truth
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from ..cards import FRENCH, Pack
from ..errors import FormulaError, did_you_mean
from ..frozen import Frozen
from .names import CardContext, Fn, NameInfo, Resolver, TypeName, Value, _norm_type
from .nodes import (
    AGGREGATES,
    CARD_FUNCTIONS,
    FILTER_NAMES,
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
from .parse import check_limits, formula_names, parse_formula

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


class _Compiler:
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
            if self._lookup(name) is not None:
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

    def _cards(self, node: Node) -> CardContext:
        ctx = getattr(self.resolver, "cards", None)
        if not isinstance(ctx, CardContext):
            raise FormulaError(f"'{getattr(node, 'func', '')}' reads cards, which this "
                               "game gives no formula", line=node.line, col=node.column)
        return ctx

    def _card_literal(self, node: Node, c: _C, ctx: CardContext) -> _C:
        """A card written as text (``'AH'``, ``'10♣'``): its card id, checked against the deck."""
        if c.type != "str" or not c.const or not isinstance(node, Str):
            return c
        pack = _pack(ctx)
        card = pack.parse_card(str(c.value))
        if card is None:
            raise FormulaError(f"'{c.value}' is not a card (write rank then suit, e.g. "
                               f"'{pack.names[-1]}')", line=node.line, col=node.column)
        if not (ctx.deck_mask >> card) & 1:
            raise FormulaError(f"the card {pack.names[card]} is not in this game's deck",
                               line=node.line, col=node.column)
        return _const(card, "card", 1)

    def _card_call(self, node: Call, in_agg: bool) -> _C:
        """A function over cards: the runtime values are card ids and bitmasks."""
        name, nargs = node.func, len(node.args)
        want = 2 if name == "cards_of" else 1
        if nargs != want:
            raise FormulaError(f"{name} takes {want} argument{'s' if want > 1 else ''}, "
                               f"got {nargs}", line=node.line, col=node.column)
        ctx = self._cards(node)
        tables = ctx.tables
        arg = node.args[0]
        if name == "holds":
            return self._holds(node, arg, in_agg, ctx)
        try:
            a = self._card_literal(arg, self.compile(arg, in_agg), ctx)
        except FormulaError as e:
            if name != "count" or "per-player value" not in e.message:
                raise
            # count() of one seat's cards is not the aggregate over seats it looks like
            raise FormulaError(f"{e.message.split(';')[0]}: count() of its cards needs a "
                               "seat, in a per-player rule or inside an aggregate "
                               "(sum(count(hand)))", line=e.line, col=e.col) from None
        x = a.fn
        fn: Fn
        t: TypeName
        cost = 1 + a.cost
        if name == "points_of":
            if a.type == "cards":
                return _C(_set_points_of(x, ctx.set_points), "int", cost + 8)
            if a.type != "card" and a.type != "any":
                raise FormulaError(f"points_of() needs a card or a set of cards, got "
                                   f"{_ARTICLE[a.type]}", line=arg.line, col=arg.column)
            return _C(_card_points_of(x, ctx.points), "int", cost)
        if name in ("rank_of", "suit_of", "is_trump", "power"):
            self._need(a, "card", arg, f"{name}()")
            if name == "power":
                return _C(_power_of(x, ctx.power, tables), "int", cost)
            if name == "rank_of":
                t, fn = "str", _rank_of(x, _texts(_pack(ctx)).rank_text)
            elif name == "suit_of":
                t, fn = "str", _suit_of(x, tables, _texts(_pack(ctx)).letters)
            else:
                t, fn = "bool", _is_trump(x, tables)
            return _C(fn, t, cost)
        self._need(a, "cards", arg, f"{name}()")
        if name == "count":
            return _C(_popcount(x), "int", cost, seat_free=a.seat_free)
        if name == "trumps":
            return _C(_trumps(x, tables), "cards", cost)
        if name == "cards_of":
            s_node = node.args[1]
            b = self.compile(s_node, in_agg)
            self._need(b, "str", s_node, "cards_of()")
            cost += b.cost
            if b.const:
                index = _pack(ctx).suit_index.get(str(b.value).upper())
                if index is None:
                    raise FormulaError(f"'{b.value}' is not a suit (one of "
                                       f"{', '.join(_pack(ctx).letters)})",
                                       line=s_node.line, col=s_node.column)
                return _C(_of_suit(x, tables, index), "cards", cost)
            return _C(_of_suit_at(x, tables, b.fn, _pack(ctx).suit_index), "cards", cost)
        # highest / lowest: one pass over the set's bits (at most a deck's 52)
        return _C(_extreme_card(x, tables, name == "highest"), "card", cost + 52)

    def _filter(self, node: Filter, in_agg: bool) -> _C:
        """``cards where cond``: the set masked by the cards meeting ``cond`` (a mask
        worked out with bitmask operations, not card by card)."""
        ctx = self._cards(node)
        a = self.compile(node.cards, in_agg)
        self._need(a, "cards", node.cards, "'where'")
        m, cost = self._card_mask(node.cond, in_agg, ctx)
        x = a.fn
        return _C(lambda st, p: x(st, p) & m(st, p), "cards", 1 + a.cost + cost)

    def _card_mask(self, node: Node, in_agg: bool, ctx: CardContext) -> tuple[Fn, int]:
        """A ``where`` condition as ``fn(state, seat) -> the mask of the cards meeting it``."""
        deck = ctx.deck_mask
        tables = ctx.tables
        if not _reads_each_card(node):  # the same for every card: all of them or none
            c = self.compile(node, in_agg)
            self._need(c, "bool", node, "'where'")
            f = c.fn
            return (lambda st, p: deck if f(st, p) else 0), c.cost
        if isinstance(node, Name) and FILTER_NAMES.get(node.name) == "trump":
            return (lambda st, p: tables(st).trump_mask), 1
        if isinstance(node, Unary) and node.op == "not":
            m, cost = self._card_mask(node.operand, in_agg, ctx)
            return _complement(deck, m), cost + 1
        if isinstance(node, Logic):
            m1, c1 = self._card_mask(node.left, in_agg, ctx)
            m2, c2 = self._card_mask(node.right, in_agg, ctx)
            if node.op == "and":
                return (lambda st, p: m1(st, p) & m2(st, p)), c1 + c2 + 1
            return (lambda st, p: m1(st, p) | m2(st, p)), c1 + c2 + 1
        if isinstance(node, Compare) and node.op in ("==", "!="):
            for side, other in ((node.left, node.right), (node.right, node.left)):
                label = side.name if isinstance(side, Name) else ""
                kind = FILTER_NAMES.get(label)
                if kind in ("suit", "rank") and not _reads_each_card(other):
                    o = self.compile(other, in_agg)
                    self._need(o, "str", other, f"comparing '{label}'")
                    m = self._part_mask(kind, o, other, tables, _pack(ctx))
                    return (_complement(deck, m) if node.op == "!=" else m), o.cost + 1
        names = ", ".join(FILTER_NAMES)
        raise FormulaError(f"in a 'where' condition, {names} read each card: use them as "
                           "`card_suit == …`, `card_rank != …` or `card_is_trump`, with not, "
                           "and, or", line=node.line, col=node.column)

    @staticmethod
    def _part_mask(kind: str, o: _C, node: Node, tables: Callable[[Any], Any],
                   pack: Pack = FRENCH) -> Fn:
        """The cards of a suit (their effective suit) or of a rank, given as text."""
        texts = _texts(pack)
        if kind == "suit":
            if o.const:
                index = pack.suit_index.get(str(o.value).upper(), -1)
                if index < 0 and o.value != "none":
                    raise FormulaError(f"'{o.value}' is not a suit (one of "
                                       f"{', '.join(pack.letters)})",
                                       line=node.line, col=node.column)
                if index < 0:
                    return lambda st, p: 0
                return lambda st, p: tables(st).suit_mask[index]
            g = o.fn
            sidx = pack.suit_index
            return lambda st, p: _suit_mask(tables(st), g(st, p), sidx)
        if o.const:
            rank = pack.normalize_rank(str(o.value))
            if rank is None and o.value != "none":
                raise FormulaError(f"'{o.value}' is not a rank (one of {', '.join(pack.ranks)})",
                                   line=node.line, col=node.column)
            mask = texts.rank_masks.get(rank, 0) if rank is not None else 0
            return lambda st, p: mask
        g = o.fn
        return lambda st, p: _rank_mask(g(st, p), texts)

    def _holds(self, node: Call, arg: Node, in_agg: bool, ctx: CardContext) -> _C:
        """``holds(card)``: whether the seat's hand (the name ``hand``) holds the card."""
        info = self._lookup("hand")
        if info is None or info.kind != "player" or _norm_type(info.type) != "cards":
            raise FormulaError("holds() reads the seat's hand, which this game gives no "
                               "formula", line=node.line, col=node.column)
        if not (in_agg or self.per_player):
            raise FormulaError("holds() reads the seat's hand: use it in a per-player rule "
                               "or inside count(), any(), all()...", line=node.line,
                               col=node.column)
        hand: Fn = info.value
        if isinstance(arg, Str) and "@" in arg.value:  # a card pattern: 'A@trump', '*@H'
            m = self._pattern(arg, ctx)
            return _C(lambda st, p: bool(hand(st, p) & m(st, p)), "bool", 3)
        a = self._card_literal(arg, self.compile(arg, in_agg), ctx)
        self._need(a, "card", arg, "holds()")
        if a.const:
            copies = 0  # holding any copy of the card
            for k in _pack(ctx).copies_of(int(a.value)):
                copies |= 1 << k
            return _C(_holds_card(hand, copies), "bool", 2)
        return _C(_holds_at(hand, a.fn), "bool", 1 + a.cost)

    @staticmethod
    def _pattern(node: Str, ctx: CardContext) -> Fn:
        """A card pattern ``RANK@SUIT`` as the mask of the cards it matches: the rank, or
        ``*`` for any; the (effective) suit, ``trump`` for every trump, or ``*`` for any."""
        rank_text, _, suit_text = node.value.partition("@")
        deck, tables = ctx.deck_mask, ctx.tables
        pack = _pack(ctx)
        rank = pack.normalize_rank(rank_text) if rank_text.strip() != "*" else "*"
        suit = suit_text.strip().lower()
        index = pack.suit_index.get(suit.upper(), -1) if suit not in ("*", "trump") else -1
        if rank is None or (index < 0 and suit not in ("*", "trump")):
            raise FormulaError(f"'{node.value}' is not a card pattern (a rank or *, '@', then "
                               "a suit, trump or *: 'A@trump', 'K@H', '*@trump')",
                               line=node.line, col=node.column)
        ranks = deck if rank == "*" else deck & _texts(pack).rank_masks.get(rank, 0)
        if not ranks:
            raise FormulaError(f"this game's deck has no card of rank {rank}", line=node.line,
                               col=node.column)
        if suit == "*":
            return lambda st, p: ranks
        if suit == "trump":
            return lambda st, p: ranks & tables(st).trump_mask
        return lambda st, p: ranks & tables(st).suit_mask[index]

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


# Closure factories: one per operator and shape, so the hot path makes no extra calls.
# Each is a def returning a lambda (mypyc, see setup.py, cannot compile a lambda
# that returns a lambda).


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


# Aggregates unrolled for the usual seat counts (2..10): about twice as fast as map().
def _sum_unrolled_2(e: Any) -> Fn:
    return lambda st, p: e(st, 0) + e(st, 1)


def _sum_unrolled_3(e: Any) -> Fn:
    return lambda st, p: e(st, 0) + e(st, 1) + e(st, 2)


def _sum_unrolled_4(e: Any) -> Fn:
    return lambda st, p: e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3)


def _sum_unrolled_5(e: Any) -> Fn:
    return lambda st, p: e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3) + e(st, 4)


def _sum_unrolled_6(e: Any) -> Fn:
    return lambda st, p: e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3) + e(st, 4) + e(st, 5)


def _sum_unrolled_7(e: Any) -> Fn:
    return lambda st, p: e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3) + e(st, 4) + e(st, 5) + e(st, 6)


def _sum_unrolled_8(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3) + e(st, 4) + e(st, 5) + e(st, 6) + e(st, 7)
    )


def _sum_unrolled_9(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3) + e(st, 4) + e(st, 5) + e(st, 6) + e(st, 7) + e(st, 8)
    )


def _sum_unrolled_10(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) + e(st, 1) + e(st, 2) + e(st, 3) + e(st, 4) + e(st, 5) + e(st, 6) + e(st, 7) + e(st, 8) + e(st, 9)
    )


_SUM_UNROLLED: dict[int, Callable[[Fn], Fn]] = dict(enumerate((
    _sum_unrolled_2, _sum_unrolled_3, _sum_unrolled_4, _sum_unrolled_5, _sum_unrolled_6,
    _sum_unrolled_7, _sum_unrolled_8, _sum_unrolled_9, _sum_unrolled_10,
), start=2))


def _any_unrolled_2(e: Any) -> Fn:
    return lambda st, p: e(st, 0) or e(st, 1)


def _any_unrolled_3(e: Any) -> Fn:
    return lambda st, p: e(st, 0) or e(st, 1) or e(st, 2)


def _any_unrolled_4(e: Any) -> Fn:
    return lambda st, p: e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3)


def _any_unrolled_5(e: Any) -> Fn:
    return lambda st, p: e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3) or e(st, 4)


def _any_unrolled_6(e: Any) -> Fn:
    return lambda st, p: e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3) or e(st, 4) or e(st, 5)


def _any_unrolled_7(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3) or e(st, 4) or e(st, 5) or e(st, 6)
    )


def _any_unrolled_8(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3) or e(st, 4) or e(st, 5) or e(st, 6) or e(st, 7)
    )


def _any_unrolled_9(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3) or e(st, 4) or e(st, 5) or e(st, 6) or e(st, 7) or e(st, 8)
    )


def _any_unrolled_10(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) or e(st, 1) or e(st, 2) or e(st, 3) or e(st, 4) or e(st, 5) or e(st, 6) or e(st, 7) or e(st, 8) or e(st, 9)
    )


_ANY_UNROLLED: dict[int, Callable[[Fn], Fn]] = dict(enumerate((
    _any_unrolled_2, _any_unrolled_3, _any_unrolled_4, _any_unrolled_5, _any_unrolled_6,
    _any_unrolled_7, _any_unrolled_8, _any_unrolled_9, _any_unrolled_10,
), start=2))


def _all_unrolled_2(e: Any) -> Fn:
    return lambda st, p: e(st, 0) and e(st, 1)


def _all_unrolled_3(e: Any) -> Fn:
    return lambda st, p: e(st, 0) and e(st, 1) and e(st, 2)


def _all_unrolled_4(e: Any) -> Fn:
    return lambda st, p: e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3)


def _all_unrolled_5(e: Any) -> Fn:
    return lambda st, p: e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3) and e(st, 4)


def _all_unrolled_6(e: Any) -> Fn:
    return lambda st, p: e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3) and e(st, 4) and e(st, 5)


def _all_unrolled_7(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3) and e(st, 4) and e(st, 5) and e(st, 6)
    )


def _all_unrolled_8(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3) and e(st, 4) and e(st, 5) and e(st, 6) and e(st, 7)
    )


def _all_unrolled_9(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3) and e(st, 4) and e(st, 5) and e(st, 6) and e(st, 7) and e(st, 8)
    )


def _all_unrolled_10(e: Any) -> Fn:
    return lambda st, p: (
        e(st, 0) and e(st, 1) and e(st, 2) and e(st, 3) and e(st, 4) and e(st, 5) and e(st, 6) and e(st, 7) and e(st, 8) and e(st, 9)
    )


_ALL_UNROLLED: dict[int, Callable[[Fn], Fn]] = dict(enumerate((
    _all_unrolled_2, _all_unrolled_3, _all_unrolled_4, _all_unrolled_5, _all_unrolled_6,
    _all_unrolled_7, _all_unrolled_8, _all_unrolled_9, _all_unrolled_10,
), start=2))


# max() and min() share these: ``pick`` is the built-in
def _extreme_2(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(e(st, 0), e(st, 1))


def _extreme_3(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(e(st, 0), e(st, 1), e(st, 2))


def _extreme_4(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(e(st, 0), e(st, 1), e(st, 2), e(st, 3))


def _extreme_5(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(e(st, 0), e(st, 1), e(st, 2), e(st, 3), e(st, 4))


def _extreme_6(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(e(st, 0), e(st, 1), e(st, 2), e(st, 3), e(st, 4), e(st, 5))


def _extreme_7(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(e(st, 0), e(st, 1), e(st, 2), e(st, 3), e(st, 4), e(st, 5), e(st, 6))


def _extreme_8(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(
        e(st, 0), e(st, 1), e(st, 2), e(st, 3), e(st, 4), e(st, 5), e(st, 6), e(st, 7)
    )


def _extreme_9(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(
        e(st, 0), e(st, 1), e(st, 2), e(st, 3), e(st, 4), e(st, 5), e(st, 6), e(st, 7), e(st, 8)
    )


def _extreme_10(e: Any, pick: Callable[..., Any]) -> Fn:
    return lambda st, p: pick(
        e(st, 0), e(st, 1), e(st, 2), e(st, 3), e(st, 4), e(st, 5), e(st, 6), e(st, 7), e(st, 8), e(st, 9)
    )


_EXTREME: dict[int, Callable[[Fn, Callable[..., Any]], Fn]] = dict(enumerate((
    _extreme_2, _extreme_3, _extreme_4, _extreme_5, _extreme_6, _extreme_7, _extreme_8,
    _extreme_9, _extreme_10,
), start=2))


# each aggregate's unrolled factories, and the built-in they take (max and min)
_UNROLLED: dict[str, tuple[dict[int, Any], Any]] = {
    "count": (_SUM_UNROLLED, None),
    "sum": (_SUM_UNROLLED, None),
    "any": (_ANY_UNROLLED, None),
    "all": (_ALL_UNROLLED, None),
    "max": (_EXTREME, max),
    "min": (_EXTREME, min),
}


# Card functions: a card is an int 0..51 (-1: none), a set of cards an int bitmask.
class _Texts(NamedTuple):
    """A pack's texts for the card functions: ``rank_text`` by card id, ``letters`` by
    effective suit (``none`` past the suits), ``rank_masks`` by rank text (every card of it)."""

    rank_text: tuple[str, ...]
    letters: tuple[str, ...]
    rank_masks: dict[str, int]


_TEXTS: dict[Pack, _Texts] = {}


def _pack(ctx: CardContext) -> Pack:
    return ctx.pack if isinstance(ctx.pack, Pack) else FRENCH


def _texts(pack: Pack) -> _Texts:
    """The pack's :class:`_Texts`, made once per pack."""
    got = _TEXTS.get(pack)
    if got is None:
        masks: dict[str, int] = {}
        for c, r in enumerate(pack.rank):
            if r >= 0:
                masks[pack.ranks[r]] = masks.get(pack.ranks[r], 0) | 1 << c
        if "10" in masks and "T" not in masks:
            masks["T"] = masks["10"]  # T for ten, as in notation
        got = _TEXTS[pack] = _Texts(
            tuple(pack.ranks[r] if r >= 0 else "none" for r in pack.rank),
            (*pack.letters, *["none"] * (5 - len(pack.letters))), masks)
    return got


def _rank_of(x: Any, rank_text: tuple[str, ...]) -> Fn:
    def f(st: Any, p: int) -> str:
        c = x(st, p)
        return rank_text[c] if c >= 0 else "none"
    return f


def _suit_of(x: Any, tables: Callable[[Any], Any], letters: tuple[str, ...]) -> Fn:
    def f(st: Any, p: int) -> str:
        c = x(st, p)
        return letters[tables(st).suit[c]] if c >= 0 else "none"
    return f


def _is_trump(x: Any, tables: Callable[[Any], Any]) -> Fn:
    def f(st: Any, p: int) -> bool:
        c = x(st, p)
        return c >= 0 and bool(tables(st).trump[c])
    return f


def _card_points_of(x: Any, points: Callable[[Any, int], int] | None) -> Fn:
    if points is None:  # a game without card points: every card is worth 0
        return lambda st, p: 0
    return lambda st, p: points(st, x(st, p))


def _set_points_of(x: Any, set_points: Callable[[Any, int], int] | None) -> Fn:
    if set_points is None:
        return lambda st, p: 0
    return lambda st, p: set_points(st, x(st, p))


def _power_of(x: Any, power: Callable[[Any, int], int] | None,
              tables: Callable[[Any], Any]) -> Fn:
    """A card's power in the current trick; without the game's own rule, its power in the
    current trump's order (-1, no card: 0)."""
    if power is not None:
        return lambda st, p: power(st, x(st, p))

    def f(st: Any, p: int) -> int:
        c = x(st, p)
        return int(tables(st).power[c]) if c >= 0 else 0
    return f


def _popcount(x: Any) -> Fn:
    return lambda st, p: x(st, p).bit_count()


def _trumps(x: Any, tables: Callable[[Any], Any]) -> Fn:
    return lambda st, p: x(st, p) & tables(st).trump_mask


def _of_suit(x: Any, tables: Callable[[Any], Any], index: int) -> Fn:
    return lambda st, p: x(st, p) & tables(st).suit_mask[index]


def _of_suit_at(x: Any, tables: Callable[[Any], Any], suit: Any,
                suit_index: dict[str, int]) -> Fn:
    def f(st: Any, p: int) -> int:
        index = suit_index.get(str(suit(st, p)).upper())
        return 0 if index is None else x(st, p) & tables(st).suit_mask[index]
    return f


def _extreme_card(x: Any, tables: Callable[[Any], Any], highest: bool) -> Fn:
    """The card of the set with the most (least) power in the current trump's order; on a
    tie, the lower card id; -1 for an empty set."""
    def f(st: Any, p: int) -> int:
        m = x(st, p)
        power = tables(st).power
        best = -1
        best_power = 0
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            w = power[c]
            if best < 0 or (w > best_power if highest else w < best_power):
                best, best_power = c, w
        return best
    return f


def _holds_card(hand: Any, bit: int) -> Fn:
    return lambda st, p: bool(hand(st, p) & bit)


def _holds_at(hand: Any, x: Any) -> Fn:
    def f(st: Any, p: int) -> bool:
        c = x(st, p)
        return c >= 0 and bool(hand(st, p) >> c & 1)
    return f


def _complement(deck: int, m: Any) -> Fn:
    """The cards of the deck not in the mask ``m(state, seat)``."""
    return lambda st, p: deck & ~m(st, p)


def _suit_mask(tables: Any, suit: Any, suit_index: dict[str, int]) -> int:
    index = suit_index.get(str(suit).upper(), -1)
    return tables.suit_mask[index] if index >= 0 else 0


def _rank_mask(rank: Any, texts: _Texts) -> int:
    return texts.rank_masks.get(str(rank).strip().upper(), 0)


def _reads_each_card(node: Node) -> bool:
    """Whether a ``where`` condition reads the card (a nested ``where`` reads its own)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Name) and n.name in FILTER_NAMES:
            return True
        if isinstance(n, Filter):
            stack.append(n.cards)
        elif isinstance(n, Binary | Logic | Compare):
            stack.extend((n.left, n.right))
        elif isinstance(n, Unary):
            stack.append(n.operand)
        elif isinstance(n, Call):
            stack.extend(n.args)
        elif isinstance(n, IfExpr):
            stack.extend((n.cond, n.then, n.else_))
    return False
