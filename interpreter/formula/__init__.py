"""The formula language: parse, check and compile formulas to fast closures.

Four stages, one module each: :mod:`.nodes` (the typed AST and its unparser),
:mod:`.parse` (text to AST, with limits and located syntax errors),
:mod:`.names` (what a name means: the resolver and the static types) and
:mod:`.compile` (type checks and closures, with :mod:`.subformula`,
:mod:`.card_functions`, :mod:`.operators` and :mod:`.unrolled`).  This module
re-exports their public names.  :mod:`.name_table` holds the built-in names' kinds and
types (the engine gives each its getter) and a resolver for type checks alone;
:mod:`.functions` declares the functions (their names, forms and docs).

Formulas and conditions (``"score - tricks"``, ``"count(plays) == 0"``) are parsed
by the Lark grammar ``grammar/formula.lark`` into a small typed AST (frozen
dataclasses carrying 1-based ``line``/``column`` inside the formula text), checked
against a :class:`Resolver` that says what each name means, and compiled into
nested Python closures ``fn(state, seat)`` -- no ``eval``/``exec``.

>>> r = DictResolver(4, {
...     "target": 21,                                   # an option: a constant
...     "trump": NameInfo("global", lambda st: st["trump"], "str"),
...     "score": NameInfo("player", lambda st, q: st["score"][q], "int"),
... })
>>> st = {"trump": "H", "score": [3, 25, 7, 21]}
>>> f = compile_formula("count(score >= target) + (if trump == 'H' then 10 else 0)",
...                     r, per_player=False)
>>> f.fn(st, 0), sorted(f.names), f.cost
(12, ['score', 'target', 'trump'], 19)
>>> compile_formula("score * 2 + target / 4", r, per_player=True).fn(st, 1)
55

Semantics: values are ``int``, ``bool`` or ``str``; ``+ - * / %`` work on ints,
``/`` floors and ``x / 0 == x % 0 == 0`` (evaluation never raises);
``and``/``or``/``not`` take conditions; ``==``/``!=`` never equate values of
different types (``true == 1`` is rejected when the types are known and is false
at run time otherwise); ``< <= > >=`` compare two ints or two strs.
"""

from __future__ import annotations

from .compile import STEP_BUDGET, Compiled, compile_formula, evaluate
from .names import CardContext, DictResolver, Fn, NameInfo, Resolver, TypeName, Value
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
    iter_nodes,
    unparse,
)
from .parse import (
    MAX_DEPTH,
    MAX_LENGTH,
    MAX_NODES,
    check_limits,
    formula_names,
    from_tree,
    parse_formula,
)

__all__ = [
    "AGGREGATES", "CARD_FUNCTIONS", "FILTER_NAMES", "FUNCTIONS", "MAX_DEPTH", "MAX_LENGTH", "MAX_NODES", "STEP_BUDGET",
    "Binary", "Bool", "CardContext", "Call", "Compare", "Compiled", "DictResolver", "Filter", "Fn", "IfExpr", "Logic",
    "Name", "NameInfo", "Node", "Num", "Resolver", "Str", "TypeName", "Unary", "Value",
    "check_limits", "compile_formula", "evaluate", "formula_names", "from_tree", "iter_nodes",
    "parse_formula", "unparse",
]
