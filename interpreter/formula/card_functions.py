"""Compiling the functions over cards (``points_of``, ``suit_of``, ``holds``,
``cards where ...``) to closures over card ids and bitmasks.

A card is an int 0..51 (-1: none), a set of cards an int bitmask.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ..cards import FRENCH, Pack, cards_in
from ..errors import FormulaError
from .names import CardContext, Fn, TypeName, _norm_type
from .nodes import (
    FILTER_NAMES,
    Binary,
    Call,
    Compare,
    Filter,
    IfExpr,
    Logic,
    Name,
    Node,
    Str,
    Unary,
)
from .subformula import _ARTICLE, _C, _CompilerBase, _const


class _CardCompiler(_CompilerBase):
    """The compiler's card functions (see :class:`~spelbok.formula.compile._Compiler`)."""

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
        if name == "times_played":
            return self._played(node, arg, in_agg, ctx)
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
        if name in ("rank_of", "suit_of", "is_trump", "power", "seat_of"):
            self._need(a, "card", arg, f"{name}()")
            if name == "power":
                return _C(_power_of(x, ctx.power, tables), "int", cost)
            if name == "seat_of":  # in after_each, the trick just finished (as `trick`)
                finished = bool(getattr(self.resolver, "after_trick", False))
                return _C(_seat_of(x, _pack(ctx).face, finished), "int", cost + 8)
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

    def _played(self, node: Call, arg: Node, in_agg: bool, ctx: CardContext) -> _C:
        """``times_played(card)``: how many of the cards the seat played this hand (to the tricks
        finished and the trick in progress) are the card, any copy, or match the pattern."""
        if not (in_agg or self.per_player):
            raise FormulaError("times_played() reads the seat's cards played: use it in a "
                               "per-player rule or inside count(), any(), sum()...",
                               line=node.line, col=node.column)
        if isinstance(arg, Str) and "@" in arg.value:  # a card pattern: 'A@trump', '*@H'
            m = self._pattern(arg, ctx)
            return _C(lambda st, p: (_played_mask(st, p) & m(st, p)).bit_count(), "int", 12)
        a = self._card_literal(arg, self.compile(arg, in_agg), ctx)
        self._need(a, "card", arg, "times_played()")
        face = _pack(ctx).face
        x = a.fn

        def f(st: Any, p: int) -> int:
            c = x(st, p)
            return 0 if c < 0 else sum(1 for d in cards_in(_played_mask(st, p))
                                       if face[d] == face[c])
        return _C(f, "int", 12 + a.cost)

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


def _seat_of(x: Any, face: tuple[int, ...], finished: bool) -> Fn:
    """The seat that played card ``x`` (any copy: the same face) to the trick in progress,
    or with ``finished`` to the last trick played; -1 when none did."""
    def f(st: Any, p: int) -> int:
        c = x(st, p)
        if c < 0:
            return -1
        pairs = ((st.history_tricks[-1][1] if st.history_tricks else ()) if finished
                 else st.trick.cards)
        for q, d in pairs:
            if face[d] == face[c]:
                return int(q)
        return -1
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


def _played_mask(st: Any, p: int) -> int:
    """The cards seat ``p`` played this hand, to the tricks finished and in progress."""
    m = 0
    for _lead, pairs, _w in st.history_tricks:
        for q, c in pairs:
            if q == p:
                m |= 1 << c
    for q, c in st.trick.cards:
        if q == p:
            m |= 1 << c
    return m


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
